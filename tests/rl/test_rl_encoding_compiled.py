"""The compiled masks of the move builder agree with their Python twins (R4-R8, R11).

A builder on the compiled path (the reads and Novels of ``start_actions``; the
Novel's rank multisets from the compiled move counter, the plays, cites and confirm
from ``cards_mask``, the filter of ``feasible_combos``) and one held to pure Python
walk the same atomic actions in step.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from budget import examples
from builders import MINI
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Catalogue, Game, movegen
from pastiche_core.rl import ActionSpace, MoveBuilder, Stage
from pastiche_core.rl import encoding as encoding_module


@contextmanager
def python_masks() -> Iterator[None]:
    """Every compiled kernel switched off while inside: the builder's and the move counter's."""
    kept, counter = encoding_module._compiled, movegen._speedups
    encoding_module._compiled = None
    movegen._speedups = None
    try:
        yield
    finally:
        encoding_module._compiled = kept
        movegen._speedups = counter


def _walk(players: int, seed: int, catalogue: Catalogue | None = None) -> tuple[int, int]:
    """Play a game by random atomic actions with both builders; (steps compared, of them in
    a publish on the compiled path)."""
    game = Game(players=players, seed=seed, catalogue=catalogue)
    space = ActionSpace(game.catalogue)
    rng = random.Random(seed)
    compared = compiled = 0
    while not game.is_over:
        view = game.view(game.to_move, history=False)
        fast = MoveBuilder(space, view)
        with python_masks():
            slow = MoveBuilder(space, view)
        move = None
        while move is None:
            actions = fast.legal_actions()
            with python_masks():
                assert slow.legal_actions() == actions, (seed, game.turn, fast)
            compared += 1
            if fast.stage is Stage.CARDS and fast._blob is not None:
                compiled += 1
            action = rng.choice(actions)
            move = fast.push(action)
            with python_masks():
                assert slow.push(action) == move
        game.apply(move)
    return compared, compiled


def _compiled_or_skip() -> None:
    if encoding_module._compiled is None:
        pytest.skip("the compiled kernels are not built")


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_compiled_and_python_masks_agree_along_random_games(seed: int, players: int) -> None:
    _compiled_or_skip()
    compared, _ = _walk(players, seed)
    assert compared > 50


def test_the_compiled_path_is_taken_and_agrees_with_another_catalogue() -> None:
    _compiled_or_skip()
    total = 0
    for seed in range(6):
        total += _walk(4, seed, MINI)[1]
    assert total > 20


def test_the_default_catalogue_takes_the_compiled_path() -> None:
    _compiled_or_skip()
    assert sum(_walk(4, seed)[1] for seed in range(4)) > 20
