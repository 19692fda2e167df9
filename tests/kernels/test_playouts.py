"""The playouts kernels agree with their Python rules, bit for bit (R4-R7, R12).

``policy_publishes`` costs the publishes the playout policy considers
(:func:`pastiche_core.ai.playout_publishes._policy_publishes_py` is its rule) and
``prospects`` values a hand's publishing prospects
(:func:`pastiche_core.ai.heuristics._prospects_py`). Both read the packed layout:
rank vectors, a plan (:func:`~pastiche_core.engine.feasibility.kernel_plan`), its usable
flags and plain numbers. The inputs are aimed at the rules' corners: Totals at
the edges of the sums the cards can make, straights of every length, pairs and
of-a-kind; own and other players' Masterpieces of one rank; hands of 0 to 20
cards; R4 (nothing playable, the own Masterpiece that gives way to a hand card);
R5 (gifts that just fit the cards not played, and just do not); the countdown
(R12) at its edges; floors and bounds at an answer's value; the combinations'
limit; weights of every kind. Each kernel's ranges are tested at their edges,
and random games and analyses are the same with and without the kernels.

The C homes of rulings compared here (their tags name this file): ``policy_costs``
(R4, R5: the cards a fill plays and the gifts it owes), ``novel_value`` (R4: a
completion plays a hand card) and ``need_straight`` (R2: the Straights).
"""

from __future__ import annotations

import array
import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from support import agree, starved, twin

from pastiche_core import Catalogue, Game, NovelSpec
from pastiche_core.ai import analyse, playout_publishes
from pastiche_core.ai import heuristics as heuristics_module
from pastiche_core.ai.heuristics import Outlook, Weights, counts_of
from pastiche_core.ai.playout import PlayoutPolicy, PolicyWeights, Situation, evaluate
from pastiche_core.ai.visible import RANK_COPIES
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.data.limits import MAX_OF_A_KIND, MAX_PAIRS, MAX_PATTERN_CARDS
from pastiche_core.data.patterns import OfAKind, Pairs, Straight, Total
from pastiche_core.engine._kernels import Kernel, switched_off
from pastiche_core.engine.feasibility import KIND_CODES, kernel_plan
from pastiche_core.engine.view import PlayerView

pytestmark = pytest.mark.kernels

POLICY: Kernel[..., Any] = playout_publishes.policy_publishes
PROSPECTS: Kernel[..., Any] = heuristics_module._prospects

STRAIGHT, OF_A_KIND, PAIRS, TOTAL = (KIND_CODES[k] for k in (Straight, OfAKind, Pairs, Total))
SIZES = {STRAIGHT: lambda a, _: a, OF_A_KIND: lambda a, _: a, PAIRS: lambda a, _: 2 * a}
NONE = [0] * 14
DEFAULT_POLICY = (0.67, 0.25, 0.03)
DEFAULT_OUTLOOK = (0.7, 0.5, 0.6, 0.5, 0.5)


def packed(entries: Sequence[Sequence[int]]) -> bytes:
    """A plan from its entries (kind, first, second, size, points)."""
    return array.array("i", [value for entry in entries for value in entry]).tobytes()


def size_of(kind: int, first: int) -> int:
    """The number of cards of a built-in pattern."""
    return 2 * first if kind == PAIRS else first


def counts(ranks: Sequence[int]) -> list[int]:
    """A rank vector of the ranks listed."""
    found = [0] * 14
    for rank in ranks:
        found[rank] += 1
    return found


def both(kernel: Kernel[..., Any], *args: Any) -> Any:
    """The Python rule's answer, checked equal to the compiled twin's when it is built."""
    answer = kernel.python(*args)
    if kernel.built is not None:
        assert kernel.built(*args) == answer
    return answer


def out_of_range(kernel: Kernel[..., Any]) -> type[BaseException]:
    """The refusal type of the extension holding the kernel's twin."""
    refusal: type[BaseException] = twin(kernel).__self__.OutOfRange  # type: ignore[attr-defined]
    return refusal


# ----------------------------------------------------------------------------
# Strategies
# ----------------------------------------------------------------------------
ranks = st.integers(1, 13)
hands = st.lists(ranks, max_size=20).map(counts)
masterpieces = st.lists(ranks, max_size=8).map(counts)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """The player's and the other players' Masterpieces, often of a shared rank."""
    own, others = draw(masterpieces), draw(masterpieces)
    for rank in draw(st.lists(ranks, max_size=3)):
        own[rank] += 1
        others[rank] += draw(st.integers(1, 2))
    return own, others


@st.composite
def entries(draw: st.DrawFn, available: Sequence[int]) -> list[int]:
    """A plan entry of a built-in kind, a Total's target often at the edge of what ``available``
    (cards per rank) can make."""
    kind = draw(st.sampled_from([STRAIGHT, OF_A_KIND, PAIRS, TOTAL]))
    second = 0
    if kind == STRAIGHT:
        first = draw(st.integers(2, 13))
    elif kind == OF_A_KIND:
        first = draw(st.integers(2, MAX_OF_A_KIND))
    elif kind == PAIRS:
        first = draw(st.integers(1, MAX_PAIRS))
    else:
        first = draw(st.integers(1, 9))
        cards = sorted(rank for rank in range(1, 14) for _ in range(min(available[rank], first)))
        edges = [first, 13 * first]
        if len(cards) >= first:
            edges += [sum(cards[:first]), sum(cards[-first:])]
        edge = draw(st.sampled_from(edges))
        target = draw(st.sampled_from([edge - 1, edge, edge + 1]) | st.integers(first, 13 * first))
        second = min(max(target, first), 13 * first)
    size = draw(st.sampled_from([size_of(kind, first)] * 6 + [-1, 0, 1, size_of(kind, first) + 2]))
    return [kind, first, second, size, draw(st.integers(0, 12))]


# Weights beyond the tuned ones too: with a maturity above 1 or a negative card cost, a Novel's
# bound is no longer above its publishes' values, so the bound itself must agree.
weights_3 = st.sampled_from(
    [DEFAULT_POLICY, (0.5, 0.7, 0.2), (1.0, 0.0, 0.0), (1.5, 0.25, 0.03), (0.67, 0.25, -0.2)]
) | st.tuples(st.floats(0.05, 2.0), st.floats(0.0, 1.5), st.floats(-0.3, 0.5))
turns = st.sampled_from([-1, -1, 0, 1, 2, 3, 4, 6])


@st.composite
def policy_inputs(draw: st.DrawFn) -> list[Any]:
    """Arguments of policy_publishes: counts, a plan, flags and weights aimed at the corners."""
    in_hand = draw(hands)
    own, others = draw(tables())
    available = [in_hand[r] + own[r] + others[r] for r in range(14)]
    plan = draw(st.lists(entries(available), min_size=1, max_size=14))
    usable = bytes(
        draw(st.lists(st.sampled_from([1, 1, 1, 0]), min_size=len(plan), max_size=len(plan)))
    )
    hand_size = max(0, sum(in_hand) + draw(st.sampled_from([0, 0, 0, -1, -2, 1])))
    return [
        in_hand,
        own,
        others,
        hand_size,
        packed(plan),
        usable,
        draw(weights_3),
        draw(turns),
        draw(st.integers(1, 20)),
        draw(st.sampled_from([-math.inf, -math.inf, 0.0, 0.2, 1.0])),
    ]


def bounds(args: Sequence[Any]) -> list[float]:
    """Each sized Novel's bound as the rule computes it: the fewest cards played, no gift."""
    _in_hand, own, others, _, plan, _, weights, *_ = args
    citable = sum(own) + sum(others)
    found = []
    values = array.array("i", plan)
    for at in range(0, len(values), 5):
        size, points = values[at + 3], values[at + 4]
        if size > 0:
            fewest = max(1, size - citable)
            found.append(points * weights[0] ** (fewest - 1) - weights[2] * fewest)
    return found


# ----------------------------------------------------------------------------
# policy_publishes
# ----------------------------------------------------------------------------
@settings(max_examples=examples(240), deadline=None)
@given(args=policy_inputs(), data=st.data())
def test_the_compiled_costing_is_the_python_costing_r4_r5_r12(
    args: list[Any], data: st.DataObject
) -> None:
    found = agree(POLICY, *args)
    # R5 at its edge: each answer's gifts just fit the cards not played, then just do not.
    for _, _, runs, cite_first in found[:4]:
        costs = playout_publishes._costs(runs, args[0], args[1], args[2], cite_first, 49)
        assert costs is not None
        played, gifts = costs
        for hand_size in (played + gifts, played + gifts - 1):
            if 0 <= hand_size <= 49:
                agree(POLICY, *args[:3], hand_size, *args[4:])
    # The floor at an answer's value and at a Novel's bound (nothing worth no more is kept).
    floors = [value for value, *_ in found[:3]] + bounds(args)[:3] + [0.0]
    if found:
        floors.append(found[0][0] / 2)
    for floor in floors:
        agree(POLICY, *args[:9], floor)
    # Every Novel usable, and the countdown at the answers' sizes (R12).
    everything = bytes([1]) * len(args[5])
    agree(POLICY, *args[:5], everything, *args[6:])
    for turns_left in {0, 1} | {len(runs) for _, _, runs, _ in found[:3]}:
        agree(POLICY, *args[:7], turns_left, *args[8:])
    agree(POLICY, *args[:8], data.draw(st.integers(21, 80)), args[9])


@settings(max_examples=examples(60), deadline=None)
@given(
    in_hand=hands,
    own_rank=ranks,
    own=st.integers(1, 4),
    others=st.integers(0, 3),
    need=st.integers(2, 7),
    hand_size=st.integers(0, 8),
    cite_first=st.booleans(),
    weights=weights_3,
)
def test_one_rank_of_own_and_others_masterpieces_r4_r5(
    in_hand: list[int],
    own_rank: int,
    own: int,
    others: int,
    need: int,
    hand_size: int,
    cite_first: bool,
    weights: tuple[float, float, float],
) -> None:
    # n of a kind of one rank with the player's and others' Masterpieces there: own first,
    # then the hand or others' first; with nothing left to play, an own one gives way (R4).
    mine, theirs = [0] * 14, [0] * 14
    mine[own_rank], theirs[own_rank] = own, others
    plan = packed([[OF_A_KIND, min(need, MAX_OF_A_KIND), 0, need, 3]])
    agree(POLICY, in_hand, mine, theirs, hand_size, plan, b"\x01", weights, -1, 13, -math.inf)


def test_the_own_masterpiece_gives_way_to_a_hand_card_r4() -> None:
    plan = packed([[OF_A_KIND, 3, 0, 3, 2]])
    own = [0] * 14
    own[7] = 3
    hand = counts([7, 9])
    (value, index, runs, cite_first), *rest = both(
        POLICY, hand, own, NONE, 2, plan, b"\x01", DEFAULT_POLICY, -1, 6, -math.inf
    )
    assert (index, runs, cite_first, rest) == (0, ((7, 3),), False, [])
    assert value == 2 * 0.67**0 - 0.03  # an instant Masterpiece: one card played (R7)
    # Nothing to read down: the countdown does not discount it (R12).
    instant = both(POLICY, hand, own, NONE, 2, plan, b"\x01", DEFAULT_POLICY, 0, 6, -math.inf)
    assert instant[0][0] == value
    # Without a hand card of the rank nothing is playable (R4).
    assert both(POLICY, counts([9]), own, NONE, 1, plan, b"\x01", DEFAULT_POLICY, -1, 6, 0.0) == []


def test_gifts_must_fit_the_cards_not_played_r5() -> None:
    plan = packed([[OF_A_KIND, 3, 0, 3, 2]])
    others = [0] * 14
    others[7] = 2
    hand = counts([7, 1, 2])
    fits = both(POLICY, hand, NONE, others, 3, plan, b"\x01", DEFAULT_POLICY, -1, 6, -math.inf)
    assert [(runs, cite) for _, _, runs, cite in fits] == [(((7, 3),), False), (((7, 3),), True)]
    assert fits[0][0] == pytest.approx(2 - 0.25 * 2 - 0.03)
    short = both(POLICY, hand, NONE, others, 2, plan, b"\x01", DEFAULT_POLICY, -1, 6, -math.inf)
    assert short == []


def test_the_countdown_discounts_a_publish_to_read_r12() -> None:
    plan = packed([[OF_A_KIND, 3, 0, 3, 4]])
    hand = counts([7, 7, 7])
    for turns_left, share in ((-1, 1.0), (3, 1.0), (2, 0.25), (0, 0.25)):
        ((value, *_),) = both(
            POLICY, hand, NONE, NONE, 3, plan, b"\x01", DEFAULT_POLICY, turns_left, 6, -math.inf
        )
        assert value == 4 * 0.67**2 * share - 0.03 * 3


def test_the_costing_counts_each_novels_combinations() -> None:
    # Every rank twice: the straights, pairs and totals have more combinations than the limit.
    hand = [0] + [2] * 13
    plan = packed(
        [[STRAIGHT, 3, 0, 3, 1], [PAIRS, 2, 0, 4, 1], [TOTAL, 3, 20, 3, 1], [OF_A_KIND, 2, 0, 2, 1]]
    )
    for limit in (1, 2, 5, 11, 12, 13, 40):
        found = both(
            POLICY, hand, NONE, NONE, 26, plan, b"\x01" * 4, DEFAULT_POLICY, -1, limit, -9.0
        )
        per_novel = [sum(1 for entry in found if entry[1] == novel) for novel in range(4)]
        assert per_novel == [min(limit, 11), min(limit, 78), min(limit, 24), min(limit, 13)]


def test_a_catalogue_without_a_plan_is_costed_by_the_same_rule() -> None:
    class Longer(Straight):  # a subclass may list its combinations otherwise: no plan
        pass

    specs = [
        NovelSpec(id="long", name="Long", pattern=Longer(3), points=2, copies=1),
        NovelSpec(id="kind", name="Kind", pattern=OfAKind(2), points=1, copies=1),
    ]
    catalogue = Catalogue([*specs, Catalogue.default().end_flag], name="custom")
    specs_read, plan = PlayoutPolicy()._publishable(catalogue)
    assert plan is None
    assert kernel_plan(catalogue) is None
    hand = counts([3, 4, 5, 5, 6, 9])
    args = (hand, NONE, NONE, 6, b"\x01\x01", DEFAULT_POLICY, -1, 6, -math.inf)
    costed = playout_publishes.costed_publishes([novel for _, novel in specs_read], *args)
    plan = packed([[STRAIGHT, 3, 0, 3, 2], [OF_A_KIND, 2, 0, 2, 1]])
    assert len(costed) == 3  # 3-4-5, 4-5-6 and 5-5
    assert costed == both(POLICY, *args[:4], plan, *args[4:])


# ----------------------------------------------------------------------------
# prospects
# ----------------------------------------------------------------------------
weights_5 = st.sampled_from(
    [
        DEFAULT_OUTLOOK,
        (1.0, 1.0, 1.0, 1.0, 0.0),
        (0.7, 0.0, 0.0, 0.0, 10.0),
        (1.0, 0.3, 0.6, 1.0, 2.0),
        (1.0, 0.5, 0.5, 0.5, 1.0),  # a rival citation costs a missing card: ties of cost
    ]
) | st.tuples(
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 10.0),
)


@st.composite
def prospect_inputs(draw: st.DrawFn) -> list[Any]:
    """Arguments of prospects: a hand, the tables, cards free per rank, a plan, weights."""
    hand = draw(hands)
    own, rival = draw(tables())
    # The cards of each rank not locked away, the hand's included: often just enough.
    pool = [
        max(0, min(49, hand[r] + draw(st.sampled_from([0, 0, 1, 2, 3, -1])))) for r in range(14)
    ]
    free = [own[r] + hand[r] for r in range(14)]
    plan = draw(st.lists(entries(free), max_size=14))
    usable = bytes(
        draw(st.lists(st.sampled_from([1, 1, 1, 0]), min_size=len(plan), max_size=len(plan)))
    )
    return [hand, own, rival, pool, packed(plan), usable, draw(weights_5), draw(turns)]


@settings(max_examples=examples(240), deadline=None)
@given(args=prospect_inputs())
def test_the_compiled_prospects_are_the_python_prospects_r4_r5_r12(args: list[Any]) -> None:
    agree(PROSPECTS, *args)
    # The countdown at every edge (R12): a Novel needing more turns is worth nothing.
    for horizon in range(0, 12):
        agree(PROSPECTS, *args[:7], horizon)
    # Every Novel, one at a time: its value alone (nothing else to sort or weigh).
    novels = len(args[5])
    for novel in range(novels):
        alone = bytes(novel == other for other in range(novels))
        agree(PROSPECTS, *args[:5], alone, *args[6:])
    # Nothing in hand: what the Masterpieces alone promise (R4: one card still to draw).
    agree(PROSPECTS, NONE, *args[1:])


@settings(max_examples=examples(60), deadline=None)
@given(
    own=st.lists(ranks, max_size=5).map(counts),
    hand=st.lists(ranks, max_size=6).map(counts),
    count=st.integers(1, MAX_PATTERN_CARDS),
    data=st.data(),
)
def test_totals_at_the_sums_the_free_cards_make(
    own: list[int], hand: list[int], count: int, data: st.DataObject
) -> None:
    # A Total whose target is a sum of `count` free cards, or one off: exact, or missing cards.
    free = sorted(rank for rank in range(14) for _ in range(own[rank] + hand[rank]))
    chosen = data.draw(st.permutations(free)) if free else []
    made = sum(chosen[:count]) + data.draw(st.sampled_from([0, 0, -1, 1]))
    target = min(max(made, count), 13 * count)
    plan = packed([[TOTAL, count, target, count, 3]])
    pool = [min(49, hand[r] + 1) for r in range(14)]
    for weights in (DEFAULT_OUTLOOK, (1.0, 0.3, 0.6, 1.0, 2.0)):
        for horizon in (-1, 1, count, count + 1):
            agree(PROSPECTS, hand, own, NONE, pool, plan, b"\x01", weights, horizon)


@settings(max_examples=examples(60), deadline=None)
@given(
    hand=st.lists(ranks, max_size=10).map(counts),
    rival=masterpieces,
    cite=st.sampled_from([0.1, 0.3, 0.7, 1 / 3, 2.9]) | st.floats(0.0, 10.0),
    data=st.data(),
)
def test_straights_add_their_ranks_costs_in_order(
    hand: list[int], rival: list[int], cite: float, data: st.DataObject
) -> None:
    # Costs that binary fractions cannot hold: the runs' sums must round as Python's do.
    plan = packed([[STRAIGHT, length, 0, length, 1 + length % 3] for length in range(2, 14)])
    usable = bytes(data.draw(st.lists(st.booleans(), min_size=12, max_size=12)))
    pool = [min(49, hand[r] + data.draw(st.integers(0, 2))) for r in range(14)]
    weights = (1.0, data.draw(st.sampled_from([0.5, 0.37, 0.9])), 0.6, 0.5, cite)
    agree(PROSPECTS, hand, NONE, rival, pool, plan, usable, weights, -1)
    agree(PROSPECTS, hand, NONE, rival, pool, plan, bytes([1]) * 12, weights, -1)


def test_a_novel_sized_beyond_the_hand_and_own_masterpieces_is_not_costed_r5() -> None:
    # R5: every card but an own Masterpiece costs a card of the hand. Both rules skip a Novel
    # whose plan entry's size is beyond the hand and the own Masterpieces (of any rank)
    # together, before looking at its pattern: here a kind-2 entry sized 4, which three 1s
    # could otherwise publish. One more own Masterpiece makes it worth costing.
    hand = counts([1, 1, 1])
    for size, own, costed in ((4, [], False), (4, [9], True), (5, [9], False), (3, [], True)):
        plan = packed([[OF_A_KIND, 2, 0, size, 1]])
        for limit in (1, 3):
            args = policy_args(
                in_hand=hand,
                own=counts(own),
                others=NONE,
                hand_size=3,
                plan=plan,
                usable=b"\x01",
                limit=limit,
            )
            assert bool(agree(POLICY, *args)) == costed, (size, own, limit)


def test_only_a_novel_of_known_size_is_bounded_before_its_pattern() -> None:
    # pairs-3 from a 1 and a 7 in hand and own Masterpieces 1, 2, 2, 7, with a negative card
    # cost: its publish is worth 0.4. An entry sized 5 has a bound of 0.2 (one card played
    # beyond the four Masterpieces), the floor, and is skipped; one sized 6, a bound of 0.4.
    # An entry of size 0 says nothing of its cards: no bound, so both rules cost it.
    args: dict[str, Any] = {
        "in_hand": counts([1, 7]),
        "own": counts([1, 2, 2, 7]),
        "others": NONE,
        "hand_size": 2,
        "usable": b"\x01",
        "weights": (0.67, 0.25, -0.2),
        "turns_left": -1,
        "limit": 1,
        "floor": 0.2,
    }
    for size, costed in ((5, False), (6, True), (0, True)):
        plan = packed([[PAIRS, 3, 0, size, 0]])
        found = agree(POLICY, *policy_args(plan=plan, **args))
        assert bool(found) == costed, size


def test_a_straight_of_equal_cost_and_cards_is_the_lowest_run() -> None:
    # 1-2-3 cites a rival's 1 (a gift worth one missing card) and plays 2 and 3; 5-6-7 misses
    # the 5, cites an own 6 and plays 7: both cost 1 and play 2 cards. The lower run counts,
    # which misses nothing, so it is still worth something with two turns left (R12).
    hand = counts([2, 3, 7])
    own, rival = counts([6]), counts([1])
    pool = [0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    plan = packed([[STRAIGHT, 3, 0, 3, 2]])
    weights = (1.0, 0.5, 0.5, 0.5, 1.0)
    assert both(PROSPECTS, hand, own, rival, pool, plan, b"\x01", weights, 2) == 2 * 0.5 * 0.5
    assert both(PROSPECTS, hand, own, counts([]), pool, plan, b"\x01", weights, 2) == 0.0


def test_two_novels_are_weighed_best_first_whatever_their_catalogue_order() -> None:
    # Three sevens in hand make both kind-3 Novels publishable now; the one worth 5 points
    # comes second in the catalogue, yet counts in full and the other at the spread (0.5).
    hand, pool = counts([7, 7, 7]), counts([7] * 4)
    weights = (1.0, 0.5, 0.5, 0.5, 1.0)
    low_first = packed([[OF_A_KIND, 3, 0, 3, 1], [OF_A_KIND, 3, 0, 3, 5]])
    high_first = packed([[OF_A_KIND, 3, 0, 3, 5], [OF_A_KIND, 3, 0, 3, 1]])
    value = both(PROSPECTS, hand, NONE, NONE, pool, low_first, b"\x01\x01", weights, -1)
    assert value == both(PROSPECTS, hand, NONE, NONE, pool, high_first, b"\x01\x01", weights, -1)
    five = both(PROSPECTS, hand, NONE, NONE, pool, low_first, b"\x00\x01", weights, -1)
    one = both(PROSPECTS, hand, NONE, NONE, pool, low_first, b"\x01\x00", weights, -1)
    assert five > one > 0
    assert value == five + 0.5 * one


@pytest.mark.parametrize("count", [2, 5, 6, 9, 11, 13])
def test_totals_of_every_target_across_the_words_of_the_sums(count: int) -> None:
    # Exact sums beyond 64 and 128 (the compiled twin's bitset words), and every sum missed.
    hand = counts([13, 13, 13, 12, 12, 11, 11, 10, 9, 9, 8, 6, 5, 3, 1])
    own = counts([13, 12, 7, 2])
    pool = [min(49, hand[r] + 2) for r in range(14)]
    for target in range(count, 13 * count + 1):
        plan = packed([[TOTAL, count, target, count, 2]])
        agree(PROSPECTS, hand, own, NONE, pool, plan, b"\x01", DEFAULT_OUTLOOK, -1)


def test_a_hand_ready_to_publish_is_worth_its_points_read_down() -> None:
    plan = kernel_plan(Catalogue.default())
    assert plan is not None
    kind3 = bytes(spec.id == "kind-3" for spec in Catalogue.default().publishable)
    hand = counts([7, 7, 7])
    pool = list(RANK_COPIES)
    value = both(PROSPECTS, hand, NONE, NONE, pool, plan, kind3, DEFAULT_OUTLOOK, -1)
    assert value == pytest.approx(0.7 * 1 * 0.6**2)
    # Two own Masterpieces of the rank: one card from the hand (R4), no read.
    own = counts([7, 7])
    value = both(PROSPECTS, counts([7]), own, NONE, pool, plan, kind3, DEFAULT_OUTLOOK, -1)
    assert value == pytest.approx(0.7)
    # Three own Masterpieces and no card: one gives way to a card still to draw (R4).
    own = counts([7, 7, 7])
    value = both(PROSPECTS, NONE, own, NONE, pool, plan, kind3, DEFAULT_OUTLOOK, -1)
    assert value == pytest.approx(0.7 * 0.5)
    assert both(PROSPECTS, NONE, own, NONE, pool, plan, kind3, DEFAULT_OUTLOOK, 1) == 0.0  # R12


def test_an_outlook_reads_the_catalogues_plan_or_codes_its_novels() -> None:
    game = Game(players=4, seed=3)
    outlook = Outlook.of_game(game, 0)
    alone = Outlook(outlook.novels, outlook.own, outlook.rival, outlook.pool)
    plan, usable = heuristics_module._plan_of(outlook.novels, game.catalogue)
    assert plan == kernel_plan(game.catalogue)
    assert sum(usable) == len(outlook.novels)
    hand = counts_of(game.hand(0))
    assert alone.prospects(hand) == outlook.prospects(hand) > 0
    # Novels not all of the catalogue: a plan of the novels alone.
    odd = (NovelSpec(id="kind-3", name="Three", pattern=OfAKind(3), points=5, copies=1),)
    plan, usable = heuristics_module._plan_of(odd, game.catalogue)
    assert (list(array.array("i", plan)), usable) == ([OF_A_KIND, 3, 0, 3, 5], b"\x01")


def test_the_prospects_value_a_subclass_as_its_kind_and_a_user_pattern_as_nothing() -> None:
    class Shifted(Straight):
        pass

    class Odd(Pairs):
        pass

    from custom_patterns import AllOdd

    specs = (
        NovelSpec(id="a", name="A", pattern=Shifted(3), points=2, copies=1),
        NovelSpec(id="b", name="B", pattern=AllOdd(3), points=2, copies=1),
        NovelSpec(id="c", name="C", pattern=Odd(1), points=1, copies=1),
    )
    catalogue = Catalogue([*specs, Catalogue.default().end_flag], name="odd")
    assert kernel_plan(catalogue) is None
    outlook = Outlook(specs, tuple(NONE), tuple(NONE), RANK_COPIES, catalogue=catalogue)
    hand = counts([3, 4, 5, 9, 9])
    plan, _usable = heuristics_module._plan_of(specs, catalogue)
    assert list(array.array("i", plan)) == [STRAIGHT, 3, 0, 3, 2, PAIRS, 1, 0, 2, 1]
    assert outlook.prospects(hand) == outlook.novel_value(specs[0], hand) + 0.5 * (
        outlook.novel_value(specs[2], hand)
    )
    assert outlook.novel_value(specs[1], hand) == 0.0


# ----------------------------------------------------------------------------
# Ranges: refused just beyond, answered just within; the gate's Python answer then
# ----------------------------------------------------------------------------
def policy_args(**changes: Any) -> list[Any]:
    """Arguments of policy_publishes with a few changed."""
    args = {
        "in_hand": counts([7, 7, 8, 9, 10, 11]),
        "own": counts([7]),
        "others": counts([8]),
        "hand_size": 6,
        "plan": kernel_plan(Catalogue.default()),
        "usable": bytes([1]) * 10,
        "weights": DEFAULT_POLICY,
        "turns_left": -1,
        "limit": 6,
        "floor": -math.inf,
    }
    args.update(changes)
    return list(args.values())


def prospect_args(**changes: Any) -> list[Any]:
    """Arguments of prospects with a few changed."""
    args = {
        "hand": counts([7, 7, 8, 9, 10, 11]),
        "own": counts([7]),
        "rival": counts([8]),
        "pool": list(RANK_COPIES),
        "plan": kernel_plan(Catalogue.default()),
        "usable": bytes([1]) * 10,
        "weights": DEFAULT_OUTLOOK,
        "horizon": -1,
    }
    args.update(changes)
    return list(args.values())


def entries_at_the_edges() -> Iterator[tuple[list[int], bool]]:
    """Plan entries at each built-in pattern's ranges (patterns.py), and whether each is within."""
    for kind, low, high in (
        (STRAIGHT, 2, 13),
        (OF_A_KIND, 2, MAX_OF_A_KIND),
        (PAIRS, 1, MAX_PAIRS),
    ):
        for first in (low - 1, low, high, high + 1):
            yield [kind, first, 0, size_of(kind, first), 1], low <= first <= high
    for count in (0, 1, MAX_PATTERN_CARDS, MAX_PATTERN_CARDS + 1):
        for target in (count - 1, count, 13 * count, 13 * count + 1):
            within = 1 <= count <= MAX_PATTERN_CARDS and count <= target <= 13 * count
            yield [TOTAL, count, target, count, 1], within
    yield [4, 3, 0, 3, 1], False
    yield [-1, 3, 0, 3, 1], False


def refused(kernel: Kernel[..., Any], args: list[Any]) -> Any:
    """Check the twin refuses ``args`` as beyond its range and the gate answers in Python."""
    with pytest.raises(out_of_range(kernel)):
        twin(kernel)(*args)
    before = kernel.out_of_range
    answer = kernel(*args)
    assert kernel.out_of_range == before + 1
    assert answer == kernel.python(*args)
    return answer


def test_the_costing_refuses_inputs_beyond_its_ranges() -> None:
    agree(POLICY, *policy_args(in_hand=[0] * 13 + [49], hand_size=49))
    refused(POLICY, policy_args(in_hand=[0] * 13 + [50]))
    refused(POLICY, policy_args(own=[0] * 7 + [50] + [0] * 6))
    refused(POLICY, policy_args(others=[-1] + [0] * 13))
    refused(POLICY, policy_args(hand_size=50))
    refused(POLICY, policy_args(hand_size=-1))
    assert refused(POLICY, policy_args(limit=0)) == []
    agree(POLICY, *policy_args(limit=1))
    agree(POLICY, *policy_args(turns_left=2**62))
    refused(POLICY, policy_args(turns_left=2**64))
    agree(POLICY, *policy_args(limit=2**63 - 1))
    with pytest.raises(out_of_range(POLICY)):
        twin(POLICY)(*policy_args(limit=2**63))
    sixty_four = packed([[OF_A_KIND, 2, 0, 2, 1]] * 64)
    agree(POLICY, *policy_args(plan=sixty_four, usable=bytes([1]) * 64))
    refused(
        POLICY,
        policy_args(plan=sixty_four + packed([[OF_A_KIND, 2, 0, 2, 1]]), usable=bytes([1]) * 65),
    )
    for entry, within in entries_at_the_edges():
        args = policy_args(plan=packed([entry]), usable=b"\x01")
        if within:
            agree(POLICY, *args)
            continue
        with pytest.raises(out_of_range(POLICY)):
            twin(POLICY)(*args)
        with pytest.raises(InvalidArgumentError, match="plan entry 0"):
            POLICY.python(*args)
        # An entry beyond the ranges is refused even where it is not usable.
        with pytest.raises(out_of_range(POLICY)):
            twin(POLICY)(*policy_args(plan=packed([entry]), usable=b"\x00"))


def test_the_prospects_refuse_inputs_beyond_their_ranges() -> None:
    agree(PROSPECTS, *prospect_args(hand=[0] * 13 + [49], pool=[49] * 14))
    refused(PROSPECTS, prospect_args(hand=[0] * 13 + [50]))
    refused(PROSPECTS, prospect_args(own=[0] * 7 + [50] + [0] * 6))
    refused(PROSPECTS, prospect_args(rival=[-1] + [0] * 13))
    refused(PROSPECTS, prospect_args(pool=[0] * 5 + [-1] + [0] * 8))
    refused(PROSPECTS, prospect_args(pool=[50] * 14))
    agree(PROSPECTS, *prospect_args(horizon=2**62))
    refused(PROSPECTS, prospect_args(horizon=-(2**64)))
    sixty_four = packed([[STRAIGHT, 5, 0, 5, 1]] * 64)
    agree(PROSPECTS, *prospect_args(plan=sixty_four, usable=bytes([1]) * 64))
    refused(
        PROSPECTS,
        prospect_args(plan=sixty_four + packed([[STRAIGHT, 5, 0, 5, 1]]), usable=bytes([1]) * 65),
    )
    for entry, within in entries_at_the_edges():
        args = prospect_args(plan=packed([entry]), usable=b"\x01")
        if within:
            agree(PROSPECTS, *args)
            continue
        try:
            PROSPECTS.python(*args)
        except ValueError:  # beyond what the Python rule reads too (a negative target)
            with pytest.raises(out_of_range(PROSPECTS)):
                twin(PROSPECTS)(*args)
        else:
            refused(PROSPECTS, args)


def test_the_largest_inputs_within_the_ranges() -> None:
    # Every rank as full as the ranges allow: the Total walk's cards and the free cards at most.
    full = [0] + [49] * 13
    plan = packed(
        [
            [TOTAL, 13, 91, 13, 9],
            [TOTAL, 13, 169, 13, 9],
            [TOTAL, 1, 13, 1, 1],
            [STRAIGHT, 13, 0, 13, 9],
            [PAIRS, MAX_PAIRS, 0, 2 * MAX_PAIRS, 9],
            [OF_A_KIND, MAX_OF_A_KIND, 0, MAX_OF_A_KIND, 9],
        ]
    )
    usable = bytes([1]) * 6
    for limit in (3, 40):
        agree(POLICY, full, full, full, 49, plan, usable, DEFAULT_POLICY, -1, limit, -math.inf)
    agree(PROSPECTS, full, full, full, full, plan, usable, DEFAULT_OUTLOOK, -1)
    agree(PROSPECTS, full, full, NONE, [49] * 14, plan, usable, DEFAULT_OUTLOOK, 30)


def test_entry_zero_of_a_rank_vector_is_no_rank() -> None:
    # Entry 0 is unused (layout.py): no combination has rank 0, whatever it holds.
    junk = [3, *counts([7, 7, 8, 9, 10, 11])[1:]]
    plan = packed(
        [
            [TOTAL, 3, 20, 3, 2],
            [STRAIGHT, 3, 0, 3, 1],
            [OF_A_KIND, 2, 0, 2, 1],
            [PAIRS, 1, 0, 2, 1],
        ]
    )
    usable = b"\x01" * 4
    for vectors in ((junk, NONE, NONE), (NONE, junk, NONE), (NONE, NONE, junk)):
        found = agree(POLICY, *vectors, 6, plan, usable, DEFAULT_POLICY, -1, 6, -math.inf)
        assert all(rank for _, _, runs, _ in found for rank, _ in runs)
        for floor in (0.0, 0.5, 0.9):  # the bounds count entry 0 as the sums do
            agree(POLICY, *vectors, 6, plan, usable, DEFAULT_POLICY, -1, 6, floor)
        agree(PROSPECTS, *vectors, [3] * 14, plan, usable, DEFAULT_OUTLOOK, -1)


def test_malformed_arguments_are_errors_not_refusals() -> None:
    for kernel, args in ((POLICY, policy_args()), (PROSPECTS, prospect_args())):
        compiled = twin(kernel)
        with pytest.raises(TypeError):
            compiled(*args[:-1])
        short_flags = [*args[:5], args[5][:-1], *args[6:]]
        with pytest.raises(TypeError):
            compiled(*short_flags)
        with pytest.raises(InvalidArgumentError, match="usable flags"):
            kernel.python(*short_flags)
        with pytest.raises(TypeError):
            compiled(*args[:4], args[4][:-4], *args[5:])
        with pytest.raises(InvalidArgumentError, match="five int32"):
            kernel.python(*args[:4], args[4][:-4], *args[5:])
        with pytest.raises(TypeError):
            compiled(*args[:6], list(args[6]), *args[7:])
        with pytest.raises(TypeError):
            compiled([0] * 13, *args[1:])
        numbers = (3, 7, 8) if kernel is POLICY else (7,)  # hand_size, turns_left, limit; horizon
        for at in numbers:
            with pytest.raises(TypeError):
                compiled(*args[:at], 1.5, *args[at + 1 :])
        with pytest.raises(TypeError):
            compiled(*args[:6], (*args[6][:-1], "x"), *args[7:])
        with pytest.raises(TypeError):  # read before the countdown, which is not -1 here
            compiled(*args[:6], (*args[6][:-1], "x"), 3, *args[8:])
        with pytest.raises(TypeError):
            compiled(*args[:4], 5, *args[5:])  # a plan that is no buffer
        with pytest.raises(TypeError):
            compiled(*args[:5], list(args[5]), *args[6:])  # flags that are no buffer
    with pytest.raises(TypeError):
        twin(POLICY)(*policy_args(floor="x"))
    # -1.0 is a number like any other (the value a failed conversion returns too).
    agree(POLICY, *policy_args(weights=(0.67, -1.0, 0.03), floor=-1.0))
    agree(PROSPECTS, *prospect_args(weights=(0.7, 0.5, 0.6, -1.0, 0.5)))


# ----------------------------------------------------------------------------
# Random games and analyses
# ----------------------------------------------------------------------------
@contextmanager
def compared(*kernels: Kernel[..., Any]) -> Iterator[list[int]]:
    """Within the block, every call of the kernels is answered by its twin, compared with Python.

    Yields the calls per kernel; a call whose answers differ fails the test at the
    block's end (the gate would otherwise take the failed comparison for an error
    of the twin and answer in Python).
    """
    calls = [0] * len(kernels)
    differ: list[str] = []
    saved = [kernel.compiled for kernel in kernels]

    def checking(number: int, kernel: Kernel[..., Any]) -> Callable[..., Any]:
        built = twin(kernel)

        def call(*args: Any) -> Any:
            answer = built(*args)
            if answer != kernel.python(*args):
                differ.append(f"{kernel.name}{args!r}")
            calls[number] += 1
            return answer

        return call

    for number, kernel in enumerate(kernels):
        kernel.compiled = checking(number, kernel)
    errors = [kernel.errors for kernel in kernels]
    try:
        yield calls
    finally:
        for kernel, kept in zip(kernels, saved, strict=True):
            kernel.compiled = kept
    assert not differ, differ[:3]
    assert [kernel.errors for kernel in kernels] == errors


@settings(max_examples=examples(8), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([3, 4, 5]),
    weights=st.sampled_from([PolicyWeights(), PolicyWeights(gift_cost=0.05, card_cost=0.0)]),
)
def test_random_games_agree_move_by_move(seed: int, players: int, weights: PolicyWeights) -> None:
    policy = PlayoutPolicy(explore=0.2, weights=weights, combinations=1 + seed % 8)
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    with compared(POLICY, PROSPECTS) as calls:
        while not game.is_over:
            if game.turn % 3 == 0:
                evaluate(game, game.to_move)
            game.apply(policy.game_move(game, rng))
    assert calls[0] > 0
    assert calls[1] > 0


def test_analyses_are_the_same_with_and_without_the_kernels() -> None:
    twin(POLICY), twin(PROSPECTS)
    game = Game(players=4, seed=11)
    rng = random.Random(11)
    policy = PlayoutPolicy()
    views: list[PlayerView] = []
    while not game.is_over and len(views) < 4:
        if game.turn in (6, 14, 22, 30) and game.phase.value == "action":
            views.append(game.view(game.to_move))
        game.apply(policy.game_move(game, rng))
    assert views
    for view in views:
        compiled = analyse(view, budget_ms=10_000, seed=3, simulations=32)
        with switched_off("policy_publishes", "prospects"):
            python = analyse(view, budget_ms=10_000, seed=3, simulations=32)
        assert compiled.complete
        assert python.complete
        assert json.dumps(compiled.to_dict()) == json.dumps(python.to_dict())


def test_the_policy_weights_reach_both_rules_as_floats() -> None:
    # Integer weights are the same numbers either way: the costing reads them as floats.
    sit = Situation.of_game(Game(players=3, seed=5), 0)
    policy = PlayoutPolicy(weights=PolicyWeights(maturity=1, gift_cost=0, card_cost=0))
    with switched_off("policy_publishes"):
        python = policy.ranked(sit)
    assert policy.ranked(sit) == python
    outlook = Outlook.of_game(Game(players=3, seed=5), 0, Weights(missing_factor=1, read_factor=0))
    hand = counts([7, 7, 8])
    assert outlook.prospects(hand) == Outlook.of_game(
        Game(players=3, seed=5), 0, Weights(missing_factor=1.0, read_factor=0.0)
    ).prospects(hand)


def test_an_allocation_that_fails_is_a_memory_error_never_a_part_of_the_answer() -> None:
    # A long hand and Masterpieces of every rank: the costed publishes outgrow the first list
    # (64 entries), so both of its allocations fail in turn, among the call's others.
    args = policy_args(
        in_hand=counts([2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11, 12]),
        own=counts([5, 7, 9]),
        others=counts([3, 4, 6, 8, 10, 11]),
        hand_size=14,
        limit=14,
    )
    assert len(agree(POLICY, *args)) > 64
    assert starved(POLICY, *args)
    assert starved(PROSPECTS, *prospect_args()) >= 0
