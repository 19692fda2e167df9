"""The counting kernels (csrc/counting.c) answer as their Python rules (R4-R7).

``publish_counts``, ``segment_count`` and ``decode_publish`` (movegen) and
``payable_totals`` (feasibility), compiled against Python, on card tables aimed at
the rules' corners (``counting_positions``) and on positions of random games; then
each kernel's range refusals, which the gate answers in Python.

Every cost these kernels count comes from ``csrc/feasibility.h``, so they compare
its C homes of rulings too (their tags name this file): ``pk_rank_cost`` (R5) and
``pk_cost_finish`` (R4). The other C homes of rulings compared here: ``pc_read`` (R6:
only Masterpieces are cited), ``count_group`` and ``pk_decode_group`` (R4: the cards
of a publish), ``gift_ways`` and ``pick_cards`` (R5: the gifts, from the cards not
played) and ``pk_next_straight`` (R2: the Straights, in ``csrc/kernels.h``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from counting_positions import (
    DEFAULT_PLAN,
    RANK_CARDS,
    Position,
    built_positions,
    game_positions,
    plan_of,
    rank_corners,
)
from hypothesis import given
from hypothesis import strategies as st
from support import agree, leaked, starved, twin

from pastiche_core.engine import feasibility, movegen
from pastiche_core.engine._kernels import Kernel
from pastiche_core.engine.layout import CARDS, HAND, MASTER, NO_NOVEL, rank_of

pytestmark = pytest.mark.kernels

publish_counts = movegen.publish_counts
segment_count = movegen.segment_count
decode_publish = movegen.decode_publish
payable_totals = feasibility._payable_totals


def _both_raise(kernel: Kernel[Any, Any], error: type[BaseException], *args: Any) -> None:
    """The compiled twin and the Python rule both raise ``error``."""
    with pytest.raises(error):
        twin(kernel)(*args)
    with pytest.raises(error):
        kernel.python(*args)


def _check_segments(position: Position, rng: random.Random, decodes: int = 6) -> int:
    """Counts (each Novel's first too), every segment's count, and decodes at the segment's
    edges and at random, compiled against Python; returns the segments seen."""
    table, player, usable, plan = position.table, position.player, position.usable, position.plan
    firsts = agree(publish_counts, table, player, usable, plan, True)
    segments = agree(publish_counts, table, player, usable, plan, False)
    # The closed-form cost test finds exactly the multisets with publishes (R4, R5).
    holdings = movegen.holdings(table, player)
    payable = movegen.payable_groups(holdings, usable, plan, False)
    assert payable == [(index, ranks, needs) for index, ranks, needs, _ in segments]
    assert movegen.payable_groups(holdings, usable, plan, True) == [
        (index, ranks, needs) for index, ranks, needs, _ in firsts
    ]
    for index, ranks, needs, count in segments:
        assert usable[index]
        assert count > 0
        assert agree(segment_count, table, player, ranks, needs) == count
    for _, ranks, needs, count in rng.sample(segments, min(decodes, len(segments))):
        if count <= 12:
            indexes = set(range(count))
        else:
            indexes = {0, 1, count - 2, count - 1, rng.randrange(count), rng.randrange(count)}
        for index in sorted(indexes):
            played, cited, gifts = agree(decode_publish, table, player, ranks, needs, index)
            assert played
            assert all(table[card] == HAND | player for card in played)
            assert all(table[card] & 0xF8 == MASTER for card in cited)
            assert len(played) + len(cited) == sum(needs)
            assert len(gifts) == sum(table[card] & 7 != player for card in cited)
        _both_raise(decode_publish, IndexError, table, player, ranks, needs, count)
        _both_raise(decode_publish, IndexError, table, player, ranks, needs, -1)
    return len(segments)


@given(built_positions(), st.randoms(use_true_random=False))
def test_counts_and_decodes_agree_on_built_positions_r4_r5_r6(
    position: Position, rng: random.Random
) -> None:
    _check_segments(position, rng)


@given(game_positions(), st.randoms(use_true_random=False))
def test_counts_and_decodes_agree_in_random_games(position: Position, rng: random.Random) -> None:
    _check_segments(position, rng)


@given(rank_corners(), st.randoms(use_true_random=False))
def test_one_ranks_hand_cards_and_masterpieces_r4_swap_and_r5_gifts(
    corner: tuple[Position, int], rng: random.Random
) -> None:
    position, rank = corner
    _check_segments(position, rng, decodes=3)
    # Every way to need 1 to 7 cards of the rank, alone and with a neighbour rank.
    for need in range(0, 8):
        agree(segment_count, position.table, position.player, [rank], [need])
        agree(segment_count, position.table, position.player, [rank - 1, rank], [1, need])


@given(
    built_positions(),
    st.lists(st.tuples(st.integers(1, 13), st.integers(0, 4)), min_size=1, max_size=6),
)
def test_segment_count_agrees_on_any_rank_multiset_r4_r5(
    position: Position, wanted: list[tuple[int, int]]
) -> None:
    chosen = dict(sorted(wanted))  # ascending ranks, one need each
    ranks, needs = list(chosen), list(chosen.values())
    agree(segment_count, position.table, position.player, ranks, needs)


def test_a_crowded_table_of_five_owners_counts_alike_r5() -> None:
    # Five seats' Masterpieces over every rank and a long hand: long straights cite several
    # owners at once, so the counting states outgrow the first slots (256 of 512 used).
    rng = random.Random(7)
    plan = plan_of([(0, 13, 0, 13, 9), (0, 11, 0, 11, 9), (0, 9, 0, 9, 9), (2, 2, 0, 4, 9)])
    for trial in range(6):
        table = bytearray(2 * CARDS)
        table[CARDS:] = bytes([NO_NOVEL]) * CARDS
        cards = list(range(CARDS))
        rng.shuffle(cards)
        hand = 14 + 2 * trial
        for card in cards[:hand]:
            table[card] = HAND
        for card in cards[hand:]:
            table[card] = MASTER | rng.randrange(5)
        position = Position(bytes(table), 0, plan, b"\x01" * 4)
        assert _check_segments(position, rng, decodes=2)


@st.composite
def totals(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], int, int, int]:
    """A pool (hand and Masterpieces per rank), the hand, own Masterpieces, a limit around the
    hand size, and a Total whose target is at or near its edges."""
    hand = [0] + [draw(st.integers(0, 3)) for _ in range(13)]
    own = [0] + [draw(st.integers(0, 2)) for _ in range(13)]
    others = [0] + [draw(st.integers(0, 2)) for _ in range(13)]
    copies = [0] + [len(RANK_CARDS[rank]) for rank in range(1, 14)]  # R1
    pool = [min(c, h + o + x) for c, h, o, x in zip(copies, hand, own, others, strict=True)]
    own = [min(o, p) for o, p in zip(own, pool, strict=True)]
    hand = [min(h, p - o) for h, o, p in zip(hand, own, pool, strict=True)]
    limit = sum(hand) + draw(st.integers(-3, 2))
    count = draw(st.integers(0, 9))
    target = draw(
        st.sampled_from([count, count + 1, 7 * count, 13 * count - 1, 13 * count])
        | st.integers(0, 13 * count)
    )
    return pool, hand, own, limit, count, max(target, 0)


@given(totals(), st.booleans())
def test_payable_totals_agree_at_the_target_edges_r4_r5(
    case: tuple[list[int], list[int], list[int], int, int, int], first: bool
) -> None:
    pool, hand, own, limit, count, target = case
    found = agree(payable_totals, pool, hand, own, limit, count, target, first)
    assert all(sum(counts) == count for counts in found)
    assert all(sum(r * n for r, n in enumerate(counts)) == target for counts in found)


@st.composite
def own_heavy_totals(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], int, int]:
    """A pool of many own Masterpieces, a few others' and a hand of one to four cards, and a
    Total: at every limit up to the hand, the walk meets one point (rank, cards and sum left)
    both after a hand card played beyond the own Masterpieces (R4 met) and after a hand card
    an own Masterpiece still covers (R4: one more card to swap in), at one cost."""
    copies = [0] + [len(RANK_CARDS[rank]) for rank in range(1, 14)]  # R1
    own = [0] + [min(c, draw(st.integers(0, 3))) for c in copies[1:]]
    others = [0] + [
        min(c - o, draw(st.integers(0, 2))) for c, o in zip(copies[1:], own[1:], strict=True)
    ]
    hand = [0] * 14
    for rank in draw(st.lists(st.integers(1, 13), min_size=1, max_size=4)):
        if own[rank] + others[rank] + hand[rank] < copies[rank]:
            hand[rank] += 1
    pool = [h + o + x for h, o, x in zip(hand, own, others, strict=True)]
    count = draw(st.integers(2, 9))
    cards = sorted(rank for rank in range(14) for _ in range(pool[rank]))
    low, high = sum(cards[:count]), sum(cards[-count:]) if count <= len(cards) else 0
    target = draw(st.integers(low, max(low, high)))
    return pool, hand, own, count, target


@given(own_heavy_totals())
def test_payable_totals_agree_at_every_limit_up_to_the_hand_r4_swap(
    case: tuple[list[int], list[int], list[int], int, int],
) -> None:
    # The walk remembers the cheapest cost that failed from each point; a tally that played
    # a hand card beyond its own Masterpieces must not be taken for one that did not (R4).
    pool, hand, own, count, target = case
    for limit in range(sum(hand) + 2):
        found = agree(payable_totals, pool, hand, own, limit, count, target, False)
        assert bool(found) == bool(
            agree(payable_totals, pool, hand, own, limit, count, target, True)
        )


def test_a_total_paid_at_its_limit_after_a_played_card_beyond_the_own_r4_swap() -> None:
    # 3, 4 (others': two cards), 6, 6, 8, 8 (own) and 7, 7 (one own, one from the hand): the
    # hand card beyond the own seven is the R4 play, so the cost is 3 exactly, the limit.
    pool = [0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 1, 0, 0, 0]
    hand = [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    own = [0, 0, 0, 0, 0, 0, 2, 1, 2, 0, 1, 0, 0, 0]
    assert agree(payable_totals, pool, hand, own, 3, 8, 49, False) == [
        (0, 0, 0, 1, 1, 0, 2, 2, 2, 0, 0, 0, 0, 0)
    ]
    assert agree(payable_totals, pool, hand, own, 2, 8, 49, False) == []


# ----------------------------------------------------------------------------
# Ranges: refused by the compiled twin, answered by the gate in Python
# ----------------------------------------------------------------------------
def _refused(kernel: Kernel[Any, Any], *args: Any) -> Any:
    """The twin refuses ``args`` (OutOfRange); the gate answers as the Python rule, counted."""
    compiled = twin(kernel)
    refusal = compiled.__self__.OutOfRange  # type: ignore[attr-defined]
    with pytest.raises(refusal):
        compiled(*args)
    before = kernel.out_of_range
    answer = kernel(*args)
    assert kernel.out_of_range == before + (kernel.compiled is not None)
    assert answer == kernel.python(*args)
    return answer


def _table(places: dict[int, int]) -> bytes:
    table = bytearray(2 * CARDS)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    for card, place in places.items():
        table[card] = place
    return bytes(table)


SEVENS = [card for card in range(CARDS) if rank_of(card) == 7]


def test_seats_beyond_5_are_refused() -> None:
    assert DEFAULT_PLAN is not None
    usable = b"\x01" * 10
    # Three sevens in hand and one Masterpiece: of seat 5 answered, of seat 6 refused.
    hand = {card: HAND | 0 for card in SEVENS[:3]}
    inside = _table({**hand, SEVENS[3]: MASTER | 5})
    assert agree(publish_counts, inside, 0, usable, DEFAULT_PLAN, False)
    beyond = _table({**hand, SEVENS[3]: MASTER | 6})
    assert _refused(publish_counts, beyond, 0, usable, DEFAULT_PLAN, False)
    _refused(segment_count, beyond, 0, [7], [3])
    _refused(decode_publish, beyond, 0, [7], [3], 0)
    # The player's own seat.
    as_five = _table({card: HAND | 5 for card in SEVENS[:3]})
    assert agree(publish_counts, as_five, 5, usable, DEFAULT_PLAN, False)
    as_six = _table({card: HAND | 6 for card in SEVENS[:3]})
    assert _refused(publish_counts, as_six, 6, usable, DEFAULT_PLAN, False)
    _refused(segment_count, as_six, 6, [7], [3])
    _refused(decode_publish, as_six, 6, [7], [3], 0)
    refusal = twin(publish_counts).__self__.OutOfRange  # type: ignore[attr-defined]
    for seat in (-1, 8, 2**70):  # no seat of a card table: refused, then a ValueError
        with pytest.raises(refusal):
            twin(publish_counts)(as_six, seat, usable, DEFAULT_PLAN, False)
        with pytest.raises(ValueError, match="no seat"):
            publish_counts(as_six, seat, usable, DEFAULT_PLAN, False)


def test_segments_beyond_the_kernels_ranks_and_needs_are_refused() -> None:
    table = _table({card: HAND | 0 for card in SEVENS[:4]})
    assert agree(segment_count, table, 0, [6, 7], [0, 3]) == 4
    for ranks, needs in [([7, 7], [1, 2]), ([8, 7], [1, 2]), ([0], [1]), ([14], [1])]:
        _refused(segment_count, table, 0, ranks, needs)
    _refused(decode_publish, table, 0, [6, 7, 7], [0, 1, 2], 0)
    assert agree(segment_count, table, 0, [7], [CARDS]) == 0
    _refused(segment_count, table, 0, [7], [CARDS + 1])
    _refused(segment_count, table, 0, [*range(1, 14), 13], [1] * 14)
    with pytest.raises(twin(segment_count).__self__.OutOfRange):  # type: ignore[attr-defined]
        twin(segment_count)(table, 0, [7], [-1])
    # Refused, then Python: there is no way to need -1 cards.
    with pytest.raises(ValueError, match="non-negative"):
        segment_count(table, 0, [7], [-1])
    _both_raise(segment_count, ValueError, table, 0, [7], [3, 1])


def test_decode_indexes_beyond_63_bits_are_refused() -> None:
    table = _table({card: HAND | 0 for card in SEVENS[:4]})
    assert agree(decode_publish, table, 0, [7], [3], 3) == (tuple(SEVENS[1:4]), (), ())
    _both_raise(decode_publish, IndexError, table, 0, [7], [3], 4)
    _both_raise(decode_publish, IndexError, table, 0, [7], [3], 2**63 - 1)
    with pytest.raises(twin(decode_publish).__self__.OutOfRange):  # type: ignore[attr-defined]
        twin(decode_publish)(table, 0, [7], [3], 2**63)
    with pytest.raises(IndexError):
        decode_publish(table, 0, [7], [3], 2**63)  # refused, then Python: beyond the segment
    _both_raise(decode_publish, IndexError, table, 0, [7], [0], 0)  # nothing played (R4)
    _both_raise(decode_publish, IndexError, table, 0, [], [], 0)


def test_payable_totals_beyond_their_ranges_are_refused() -> None:
    pool = [0] + [3] * 13
    hand = [0] + [2] * 13
    own = [0] + [1] * 13
    assert agree(payable_totals, pool, hand, own, 26, 3, 20, False)
    _refused(payable_totals, pool, hand, own, 26, CARDS + 1, 20, False)
    assert agree(payable_totals, pool, hand, own, 26, CARDS, 13 * CARDS, False) == []
    _refused(payable_totals, pool, hand, own, 26, 3, 13 * CARDS + 1, False)
    _refused(payable_totals, pool, hand, own, 2**70, 3, 20, False)
    _refused(payable_totals, pool, hand, own, 26, 3, -1, False)
    # 49 cards in all are read; 50 are more than a deck holds.
    full = [0] + [4] * 12 + [1]
    assert sum(full) == CARDS
    agree(payable_totals, full, hand, own, 26, 2, 26, True)
    _refused(payable_totals, [0] + [4] * 12 + [2], hand, own, 26, 2, 26, True)
    _refused(payable_totals, pool, [0] * 13 + [CARDS + 1], own, 26, 2, 26, True)


def test_plans_that_code_no_pattern_and_wrong_flags_are_errors() -> None:
    table = _table({card: HAND | 0 for card in SEVENS[:4]})
    good = plan_of([(1, 3, 0, 3, 1)])
    assert agree(publish_counts, table, 0, b"\x01", good, False) == [(0, (7,), (3,), 4)]
    for entry in [(4, 3, 0, 3, 1), (1, 8, 0, 8, 1), (0, 1, 0, 1, 1), (2, 7, 0, 14, 1)]:
        _both_raise(publish_counts, ValueError, table, 0, b"\x01", plan_of([entry]), False)
    for entry in [(3, 2, 1, 2, 1), (3, 2, 27, 2, 1), (3, 0, 0, 0, 1), (3, 14, 14, 14, 1)]:
        _both_raise(publish_counts, ValueError, table, 0, b"\x01", plan_of([entry]), False)
    for entry in [(0, 2, 0, 2, 1), (0, 13, 0, 13, 1), (1, 2, 0, 2, 1), (1, 7, 0, 7, 1)]:
        agree(publish_counts, table, 0, b"\x01", plan_of([entry]), False)
    for entry in [(2, 1, 0, 2, 1), (2, 6, 0, 12, 1), (3, 1, 1, 1, 1), (3, 13, 169, 13, 1)]:
        agree(publish_counts, table, 0, b"\x01", plan_of([entry]), False)
    _both_raise(publish_counts, ValueError, table, 0, b"\x01\x01", good, False)
    _both_raise(publish_counts, ValueError, table, 0, b"", good, False)


@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
        max_size=5,
    ),
    st.integers(0, 3),
    st.booleans(),
)
def test_the_tallies_of_ranks_are_one_rule_r4_r5(
    ranks: list[tuple[int, int, int, int]], spent: int, played: bool
) -> None:
    # The masks' written-out cost and the tally the kernels' pieces keep are one rule.
    tally: feasibility.CostTally | None = (spent, False, False)
    for need, hand, own, others in ranks:
        tally = None if tally is None else feasibility.cost_add(tally, need, hand, own, others)
    folded = None if tally is None else feasibility.cost_finish(tally, played)
    assert feasibility.least_cost(ranks, spent, played) == folded
    assert feasibility.cost_tally(ranks, spent) == tally


def test_the_tables_second_half_is_never_read_as_places() -> None:
    # Cards 0 and 1 lie under Novels whose positions read like place codes (a hand card of
    # seat 0, a Masterpiece of seat 0): a kernel that read past the 49 places would see them.
    assert DEFAULT_PLAN is not None
    nines = RANK_CARDS[9]
    table = bytearray(_table({card: HAND | 0 for card in nines[:2]}))
    table[0], table[CARDS + 0] = MASTER | 1, HAND | 0
    table[1], table[CARDS + 1] = MASTER | 1, MASTER | 0
    kinds = plan_of([(1, 3, 0, 3, 1), (1, 2, 0, 2, 1)])
    assert agree(publish_counts, bytes(table), 0, b"\x01\x01", kinds, False) == [(1, (9,), (2,), 1)]
    agree(publish_counts, bytes(table), 0, b"\x01" * 10, DEFAULT_PLAN, False)
    agree(segment_count, bytes(table), 0, [9], [3])


def test_a_total_that_takes_the_whole_hand_is_counted_r5() -> None:
    # 2, 10, 12, 12, 13 (the rulebook's example) are the whole hand: the cost is the hand
    # size exactly, the tightest a Total may be (R5).
    cards = [RANK_CARDS[2][0], RANK_CARDS[10][0], *RANK_CARDS[12][:2], RANK_CARDS[13][0]]
    table = _table({card: HAND | 0 for card in cards})
    plan = plan_of([(3, 5, 49, 5, 2)])
    assert agree(publish_counts, table, 0, b"\x01", plan, False) == [
        (0, (2, 10, 12, 13), (1, 1, 2, 1), 1)
    ]
    assert agree(publish_counts, table, 0, b"\x01", plan, True)
    hand = [0] * 14
    for card in cards:
        hand[rank_of(card)] += 1
    for first in (False, True):
        assert agree(payable_totals, hand, hand, [0] * 14, 5, 5, 49, first)
        assert agree(payable_totals, hand, hand, [0] * 14, 4, 5, 49, first) == []


def test_an_allocation_that_fails_is_a_memory_error_never_a_part_of_the_answer() -> None:
    # The rulebook's Total 2, 10, 12, 12, 13 in hand, with a two and a ten of seat 1 to cite
    # (R5: gifts) and pairs first in the plan: each allocation of each kernel fails in turn,
    # the Total's walk last, and no call may answer without the Total's segment.
    cards = [RANK_CARDS[2][0], RANK_CARDS[10][0], *RANK_CARDS[12][:2], RANK_CARDS[13][0]]
    table = _table(
        {
            **{card: HAND | 0 for card in cards},
            RANK_CARDS[2][1]: MASTER | 1,
            RANK_CARDS[10][1]: MASTER | 1,
        }
    )
    plan = plan_of([(1, 2, 0, 2, 1), (3, 5, 49, 5, 2)])
    segments = agree(publish_counts, table, 0, b"\x01\x01", plan, False)
    assert [index for index, *_ in segments] == [0, 0, 0, 1]
    failed = 0
    for first in (False, True):
        failed += starved(publish_counts, table, 0, b"\x01\x01", plan, first)
    for _, ranks, needs, count in segments:
        failed += starved(segment_count, table, 0, ranks, needs)
        failed += starved(decode_publish, table, 0, ranks, needs, count - 1)
    hand = [0] * 14
    for card in cards:
        hand[rank_of(card)] += 1
    pool = [count + (rank in (2, 10)) for rank, count in enumerate(hand)]
    for first in (False, True):
        failed += starved(payable_totals, pool, hand, [0] * 14, 5, 5, 49, first)
    assert failed  # the allocations did fail


def test_the_counting_kernels_free_what_they_allocate() -> None:
    # Rank tables kept per need (0 among them), made afresh past the kept needs (8: none can
    # be filled), the counting states, and a Total's walk: each call frees them all.
    sevens, sixes = RANK_CARDS[7], RANK_CARDS[6]
    table = _table(
        {
            **{card: HAND | 0 for card in [*sevens[:3], *RANK_CARDS[2][:2], RANK_CARDS[13][0]]},
            sevens[3]: MASTER | 1,
            sevens[4]: MASTER | 0,
            sixes[0]: MASTER | 1,
            RANK_CARDS[8][0]: MASTER | 2,
        }
    )
    groups = [([6, 7], [0, 2]), ([6, 7, 8], [1, 2, 1]), ([7, 8], [8, 1]), ([2, 7], [1, 3])]
    for ranks, needs in groups:
        assert leaked(segment_count, table, 0, ranks, needs) < 50
        if agree(segment_count, table, 0, ranks, needs):
            assert leaked(decode_publish, table, 0, ranks, needs, 0) < 50
    plan = plan_of([(0, 3, 0, 3, 1), (1, 3, 0, 3, 1), (3, 3, 21, 3, 2), (3, 2, 9, 2, 1)])
    assert agree(publish_counts, table, 0, b"\x01" * 4, plan, False)
    assert leaked(publish_counts, table, 0, b"\x01" * 4, plan, False) < 50
    pool, hand, own = [0] + [3] * 13, [0] + [2] * 13, [0] + [1] * 13
    assert leaked(payable_totals, pool, hand, own, 26, 5, 30, False) < 50


def test_a_totals_two_multisets_come_sorted_not_in_the_walks_order() -> None:
    # 2, 3, 4, 6, 7, 8 in hand: 2 + 6 + 7 and 3 + 4 + 8 are the only threes adding up to 15.
    # The walk finds 3, 4, 8 first (it starts from the highest rank); the segments come
    # sorted, so 2, 6, 7 leads, even when there are just two to sort.
    table = _table({RANK_CARDS[rank][0]: HAND | 0 for rank in (2, 3, 4, 6, 7, 8)})
    plan = plan_of([(3, 3, 15, 3, 1)])
    assert agree(publish_counts, table, 0, b"\x01", plan, False) == [
        (0, (2, 6, 7), (1, 1, 1), 1),
        (0, (3, 4, 8), (1, 1, 1), 1),
    ]
    hand = [int(rank in (2, 3, 4, 6, 7, 8)) for rank in range(14)]
    assert [
        tuple(rank for rank in range(14) if counts[rank])
        for counts in agree(payable_totals, hand, hand, [0] * 14, 6, 3, 15, False)
    ] == [(3, 4, 8), (2, 6, 7)]


def test_a_player_that_is_no_integer_is_a_type_error() -> None:
    assert DEFAULT_PLAN is not None
    table = _table({card: HAND | 0 for card in SEVENS[:3]})
    for player in ("0", 0.0, None):
        _both_raise(publish_counts, TypeError, table, player, b"\x01" * 10, DEFAULT_PLAN, False)
        _both_raise(segment_count, TypeError, table, player, [7], [3])
        _both_raise(decode_publish, TypeError, table, player, [7], [3], 0)


def test_ranks_and_needs_that_are_no_sequences_are_type_errors() -> None:
    # Both twins read a segment's ranks and needs before any work, whatever the hand: with no
    # card of the rank the Python rule once answered 0 where the C raised.
    for table in (_table({card: HAND | 0 for card in SEVENS[:3]}), _table({})):
        for ranks, needs in ((7, [3]), ([7], 3), (None, [3]), ([7], None)):
            _both_raise(segment_count, TypeError, table, 0, ranks, needs)
            _both_raise(decode_publish, TypeError, table, 0, ranks, needs, 0)
        _both_raise(segment_count, ValueError, table, 0, [7, 8], [3])
        _both_raise(decode_publish, ValueError, table, 0, [7], [3, 1], 0)
        odd: list[tuple[list[Any], list[Any]]] = [([7.5], [3]), (["7"], [3]), ([7], [None])]
        for odd_ranks, odd_needs in odd:  # items that are no integers
            with pytest.raises(TypeError):
                twin(segment_count)(table, 0, odd_ranks, odd_needs)
            with pytest.raises(TypeError):
                twin(decode_publish)(table, 0, odd_ranks, odd_needs, 0)
        for index in ("0", 0.5, None):  # an index that is no integer
            _both_raise(decode_publish, TypeError, table, 0, [7], [3], index)
        plans: list[Any] = [b"\x00" * 19, 5, None]
        for plan in plans:  # a plan that is no whole number of entries
            with pytest.raises(TypeError):
                twin(publish_counts)(table, 0, b"\x01", plan, False)
            with pytest.raises((TypeError, ValueError)):
                publish_counts.python(table, 0, b"\x01", plan, False)


def test_a_segment_of_no_ranks_has_no_publish() -> None:
    for table in (_table({card: HAND | 0 for card in SEVENS[:3]}), _table({})):
        assert agree(segment_count, table, 0, [], []) == 0


def test_the_one_card_of_rank_1_is_decoded_once_r4() -> None:
    # Card 0 is the only card of rank 1 (R1): with it in hand, a segment through rank 1
    # takes it once, at every index of the segment.
    low = {rank: [c for c in range(CARDS) if rank_of(c) == rank] for rank in (1, 2, 3)}
    for seven in (0, 2):
        places = {card: HAND | 0 for card in [*low[1], *low[2][:2], *low[3][:3]]}
        places.update({card: MASTER | 1 for card in SEVENS[:seven]})
        table = _table(places)
        for ranks, needs in (([1, 2, 3], [1, 1, 1]), ([1, 2], [1, 2]), ([1, 3], [1, 1])):
            count = agree(segment_count, table, 0, ranks, needs)
            assert count
            for index in range(count):
                played, _cited, _gifts = agree(decode_publish, table, 0, ranks, needs, index)
                assert played.count(0) == 1
