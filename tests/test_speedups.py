"""The compiled observation encoder agrees with its Python reference.

``pastiche_core._speedups`` is optional: a build without a C compiler uses the
Python rules, and these tests skip. Set ``PASTICHE_REQUIRE_SPEEDUPS=1``
(continuous integration does, when it has a compiler) to make a missing module a
failure instead.
"""

from __future__ import annotations

import os
import random
from types import ModuleType

import pytest

from pastiche_core import Game


def _compiled() -> ModuleType:
    try:
        from pastiche_core import _speedups
    except ImportError:
        if os.environ.get("PASTICHE_REQUIRE_SPEEDUPS"):
            raise
        pytest.skip("pastiche_core._speedups is not built (no C compiler at install)")
    return _speedups


def _observation_inputs() -> tuple[object, ...]:
    """Encoder and view of a midgame position, for the compiled observation encoder."""
    pytest.importorskip("numpy")
    from pastiche_core.rl import ObservationEncoder

    game = Game(players=4, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        moves = game.legal_moves
        game.apply(moves[rng.randrange(len(moves))])
    return ObservationEncoder(players=4), game.view(game.to_move)


def test_the_compiled_observation_is_the_python_ones() -> None:
    import numpy as np

    from pastiche_core.rl import observation

    compiled = _compiled()
    encoder, view = _observation_inputs()
    assert observation._fill_public is compiled.fill_public
    want = encoder._public_py(view, None)  # type: ignore[attr-defined]
    got = encoder._public(view, None)  # type: ignore[attr-defined]
    assert np.array_equal(got, want)


def test_the_compiled_observation_refuses_what_it_cannot_write() -> None:
    """Out of range, too short or of another type: an error, never a write outside the array."""
    import numpy as np

    compiled = _compiled()
    encoder, view = _observation_inputs()
    args = [
        np.empty(encoder.size, dtype=np.float32),  # type: ignore[attr-defined]
        encoder._offsets,  # type: ignore[attr-defined]
        4,
        view.player,  # type: ignore[attr-defined]
        len(encoder.novels),  # type: ignore[attr-defined]
        encoder._novel_index,  # type: ignore[attr-defined]
        view.hand,  # type: ignore[attr-defined]
        None,
        view.discard,  # type: ignore[attr-defined]
        view.face_down,  # type: ignore[attr-defined]
        None,
        None,
        view.tables,  # type: ignore[attr-defined]
        view.supply,  # type: ignore[attr-defined]
        view.hand_sizes,  # type: ignore[attr-defined]
        view.scores,  # type: ignore[attr-defined]
        (1, 0, 0, -1, -1, 0, 10, 0),
    ]
    compiled.fill_public(*args)

    class Fake:
        index = 49

    for position, value, error in [
        (0, np.empty(100, dtype=np.float32), OverflowError),  # too short for the layout
        (0, np.empty(encoder.size, dtype=np.float64), TypeError),  # type: ignore[attr-defined]
        (0, b"\0" * 4 * encoder.size, BufferError),  # type: ignore[attr-defined]
        (6, (Fake(),), OverflowError),  # a card beyond the deck
        (10, {3: 9}, OverflowError),  # a holder beyond the seats
        (10, {99: 1}, OverflowError),  # a card beyond the deck
        (9, (999,), OverflowError),  # a face-down position beyond the pile
        (16, (9, 0, 0, -1, -1, 0, 10, 0), OverflowError),  # a phase beyond its field
        (16, (1, 0), OverflowError),  # too few scalars
        (14, (1, 2), OverflowError),  # hand sizes of two seats in a game of four
        (13, (("kind-3", "many"),), TypeError),
    ]:
        bad = list(args)
        bad[position] = value
        with pytest.raises(error):
            compiled.fill_public(*bad)


def test_the_observation_falls_back_to_python_when_the_kernel_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numpy as np

    from pastiche_core.rl import observation

    _compiled()
    encoder, view = _observation_inputs()

    def refuse(*args: object) -> None:
        raise OverflowError("beyond the kernel")

    monkeypatch.setattr(observation, "_fill_public", refuse)
    assert np.array_equal(
        encoder._public(view, None),  # type: ignore[attr-defined]
        encoder._public_py(view, None),  # type: ignore[attr-defined]
    )
