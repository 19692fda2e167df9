"""The compiled masks of the move builder agree with their Python twins (R4-R8, R11).

A builder on the compiled kernels (the reads and Novels of ``start_actions``, the
Novel's rank multisets of ``publish_start``, the plays, cites and confirm of
``cards_mask``, the filter of ``feasible_combos``, the counter's
``publish_counts``) and one with every kernel switched off walk the same atomic
actions in step, in whole random games.
"""

from __future__ import annotations

import random

import pytest
from budget import examples
from builders import MINI
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Catalogue, Game
from pastiche_core.engine._kernels import compiled_kernels, switched_off
from pastiche_core.rl import ActionSpace, MoveBuilder, Stage

_MASKS = ("start_actions", "publish_start", "feasible_combos", "cards_mask")


def _answered() -> int:
    """Calls the mask kernels' compiled twins have answered so far."""
    return sum(s.answered for s in compiled_kernels().kernels if s.name in _MASKS)


def _walk(players: int, seed: int, catalogue: Catalogue | None = None) -> tuple[int, int]:
    """Play a game by random atomic actions with both builders; (steps compared, of them in
    a publish's cards)."""
    game = Game(players=players, seed=seed, catalogue=catalogue)
    space = ActionSpace(game.catalogue)
    rng = random.Random(seed)
    compared = in_cards = 0
    while not game.is_over:
        view = game.view(game.to_move, history=False)
        fast = MoveBuilder(space, view)
        slow = MoveBuilder(space, view)
        move = None
        while move is None:
            actions = fast.legal_actions()
            with switched_off():
                assert slow.legal_actions() == actions, (seed, game.turn, fast)
            compared += 1
            in_cards += fast.stage is Stage.CARDS
            action = rng.choice(actions)
            move = fast.push(action)
            with switched_off():
                assert slow.push(action) == move
        game.apply(move)
    return compared, in_cards


def _compiled_or_skip() -> None:
    if not all(s.compiled for s in compiled_kernels().kernels if s.name in _MASKS):
        pytest.skip("the compiled kernels are not built")


@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_compiled_and_python_masks_agree_along_random_games(seed: int, players: int) -> None:
    _compiled_or_skip()
    compared, _ = _walk(players, seed)
    assert compared > 50


def test_the_compiled_masks_answer_with_another_catalogue() -> None:
    _compiled_or_skip()
    before = _answered()
    in_cards = sum(_walk(4, seed, MINI)[1] for seed in range(6))
    assert in_cards > 20
    assert _answered() - before > 100


def test_the_default_catalogue_takes_the_compiled_path() -> None:
    _compiled_or_skip()
    before = _answered()
    assert sum(_walk(4, seed)[1] for seed in range(4)) > 20
    assert _answered() - before > 100
