"""The playouts' compiled kernels agree with their Python twins (R4-R7, R12).

``policy_publishes`` lists, best first, the publishes the playout policy considers
for the built-in pattern kinds, and ``prospects`` values a hand's publishing
prospects for the evaluation; ``PlayoutPolicy._costed_py`` and
``Outlook._prospects_py`` stay the definitions and the fallbacks. They are compared
on random counts and random Novels, and along random games, where the policy's moves
and the evaluations must be the same either way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from types import ModuleType

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Game, InvalidArgumentError, NovelSpec
from pastiche_core.ai import heuristics as heuristics_module
from pastiche_core.ai import playout as playout_module
from pastiche_core.ai.heuristics import Outlook, Weights
from pastiche_core.ai.playout import PlayoutPolicy, PolicyWeights, Situation, _plan_of, evaluate
from pastiche_core.ai.visible import RANK_COPIES
from pastiche_core.patterns import CustomPattern, OfAKind, Pairs, Pattern, Straight, Total


@contextmanager
def switched_off(module: ModuleType, kernel: str) -> Iterator[None]:
    """The module's compiled ``kernel`` switched off while inside: its Python twin answers."""
    kept = getattr(module, kernel)
    setattr(module, kernel, None)
    try:
        yield
    finally:
        setattr(module, kernel, kept)


def python_costing() -> AbstractContextManager[None]:
    """The compiled costing switched off while inside."""
    return switched_off(playout_module, "_compiled_costing")


def python_prospects() -> AbstractContextManager[None]:
    """The compiled prospects switched off while inside."""
    return switched_off(heuristics_module, "_compiled_prospects")


def _compiled_or_skip() -> None:
    """Skip unless both playout kernels are built (they come from one extension)."""
    if playout_module._compiled_costing is None or heuristics_module._compiled_prospects is None:
        pytest.skip("the compiled kernels are not built")


@st.composite
def patterns(draw: st.DrawFn) -> Pattern:
    kind = draw(st.sampled_from(["straight", "kind", "pairs", "total"]))
    if kind == "straight":
        return Straight(draw(st.integers(2, 13)))
    if kind == "kind":
        return OfAKind(draw(st.integers(2, 7)))
    if kind == "pairs":
        return Pairs(draw(st.integers(1, 6)))
    count = draw(st.integers(1, 13))
    return Total(count, draw(st.integers(count, 13 * count)))


counts = st.lists(st.integers(0, 4), min_size=13, max_size=13).map(lambda ranks: [0, *ranks])
tables = st.lists(st.integers(0, 2), min_size=13, max_size=13).map(lambda ranks: [0, *ranks])


@settings(max_examples=examples(300), deadline=None)
@given(
    novels=st.lists(st.tuples(patterns(), st.integers(1, 10)), min_size=1, max_size=12),
    in_hand=counts,
    own=tables,
    others=tables,
    turns_left=st.none() | st.integers(0, 6),
    combinations=st.integers(1, 12),
    floor=st.sampled_from([-math.inf, 0.0, 0.5, 2.0]),
    weights=st.builds(
        PolicyWeights,
        maturity=st.sampled_from([0.5, 0.67, 0.9]),
        gift_cost=st.sampled_from([0.0, 0.25, 1.0]),
        card_cost=st.sampled_from([0.0, 0.03, 0.2]),
    ),
    data=st.data(),
)
def test_the_compiled_costing_is_the_python_costing_r4_r5_r12(
    novels: list[tuple[Pattern, int]],
    in_hand: list[int],
    own: list[int],
    others: list[int],
    turns_left: int | None,
    combinations: int,
    floor: float,
    weights: PolicyWeights,
    data: st.DataObject,
) -> None:
    _compiled_or_skip()
    specs = [
        (f"novel-{i}", points, pattern, pattern.size) for i, (pattern, points) in enumerate(novels)
    ]
    plan = _plan_of(specs)
    assert plan is not None
    usable = data.draw(st.sets(st.integers(0, len(specs) - 1)).map(sorted))
    policy = PlayoutPolicy(combinations=combinations, weights=weights)
    hand_size = sum(in_hand)
    expected = policy._costed_py(specs, in_hand, own, others, hand_size, usable, turns_left, floor)
    found = playout_module._compiled_costing(  # type: ignore[misc]
        in_hand,
        own,
        others,
        hand_size,
        plan,
        usable,
        (weights.maturity, weights.gift_cost, weights.card_cost),
        -1 if turns_left is None else turns_left,
        combinations,
        floor,
    )
    assert found == expected


def test_a_pattern_beyond_the_kernel_falls_back_to_python() -> None:
    _compiled_or_skip()
    with pytest.raises(OverflowError):
        playout_module._compiled_costing(  # type: ignore[misc]
            [0] * 14, [0] * 14, [0] * 14, 0, [(9, 2, 0, 1, 2)], [0], (0.67, 0.25, 0.03), -1, 6, 0.0
        )


def test_a_user_defined_pattern_has_no_plan() -> None:
    class Shifted(Straight):  # a subclass may list its combinations otherwise
        pass

    assert _plan_of([("a", 2, Straight(3), 3)]) == [(0, 3, 0, 2, 3)]
    assert _plan_of([("a", 2, Straight(3), 3), ("b", 2, Shifted(3), 3)]) is None


def test_a_policy_needs_at_least_one_combination() -> None:
    for wrong in (0, -3, 2.5, True):
        with pytest.raises(InvalidArgumentError, match="combinations must be a whole number"):
            PlayoutPolicy(combinations=wrong)  # type: ignore[arg-type]


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_playouts_are_the_same_with_and_without_the_compiled_costing(
    seed: int, players: int
) -> None:
    _compiled_or_skip()
    policy = PlayoutPolicy()
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    publishes = 0
    while not game.is_over:
        sit = Situation.of_game(game, game.to_move)
        ranked = policy.ranked(sit)
        with python_costing():
            assert policy.ranked(sit) == ranked
        move = policy.pick(sit, rng)
        publishes += type(move).__name__ == "Publish"
        game.apply(move)
    assert publishes > 0


class _Odd(CustomPattern):
    """A user-defined pattern (R3): it has no prospects."""

    size = 3

    def matches(self, ranks: Sequence[int]) -> bool:
        return sum(ranks) % 2 == 1


@settings(max_examples=examples(300), deadline=None)
@given(
    novels=st.lists(
        st.tuples(patterns() | st.just(_Odd()), st.integers(1, 10)), min_size=0, max_size=12
    ),
    hand=counts,
    own=tables,
    rival=tables,
    locked=tables,
    horizon=st.none() | st.integers(0, 6),
    weights=st.builds(
        Weights,
        missing_factor=st.sampled_from([0, 0.3, 0.5, 1]),
        read_factor=st.sampled_from([0, 0.6, 1.0]),
        rival_cite=st.sampled_from([0.0, 0.5, 2]),
        spread=st.sampled_from([0.0, 0.5, 1]),
        prospect=st.sampled_from([0.7, 1]),
    ),
)
def test_the_compiled_prospects_are_the_python_prospects_r4_r5_r12(
    novels: list[tuple[Pattern, int]],
    hand: list[int],
    own: list[int],
    rival: list[int],
    locked: list[int],
    horizon: int | None,
    weights: Weights,
) -> None:
    _compiled_or_skip()
    specs = tuple(
        NovelSpec(id=f"novel-{i}", name=f"Novel {i}", pattern=pattern, points=points, copies=1)
        for i, (pattern, points) in enumerate(novels)
    )
    pool = tuple(
        max(0, RANK_COPIES[rank] + hand[rank] - own[rank] - rival[rank] - locked[rank])
        for rank in range(14)
    )
    outlook = Outlook(specs, tuple(own), tuple(rival), pool, horizon, weights)
    expected = outlook._prospects_py(hand)
    assert outlook.prospects(hand) == expected
    with python_prospects():
        assert replace(outlook).prospects(hand) == expected


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_evaluations_are_the_same_with_and_without_the_compiled_prospects(
    seed: int, players: int
) -> None:
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    policy = PlayoutPolicy()
    while not game.is_over:
        found = evaluate(game, 0)
        with python_prospects():
            assert evaluate(game, 0) == found
        game.apply(policy.game_move(game, rng))
