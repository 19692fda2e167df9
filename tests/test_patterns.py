"""Novel requirements as patterns over ranks (R2, R3): exactness, lazy search and counts."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
import tracemalloc
from collections.abc import Iterator, Sequence

import pytest
from custom_patterns import AllOdd, SumOfAnySize
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    BuiltinPattern,
    distinct_sub_multisets,
    oracle_matches,
    patterns,
    rank_lists,
    rank_lists_with,
)

from pastiche_core import (
    DECK,
    CountingPattern,
    CustomPattern,
    OfAKind,
    Pairs,
    Pattern,
    Straight,
    Total,
    combination_count,
    rank_counts,
    sub_multisets,
)
from pastiche_core.data.limits import MAX_PATTERN_CARDS

# Every built-in pattern of the default catalogue (R2), tested one by one.
R2_PATTERNS: list[BuiltinPattern] = [
    Straight(5),
    Straight(7),
    Straight(9),
    Straight(11),
    OfAKind(3),
    OfAKind(5),
    Pairs(3),
    Pairs(4),
    Total(5, 49),
    Total(7, 49),
]
OTHER_PATTERNS: list[BuiltinPattern] = [
    Straight(2),
    Straight(13),
    OfAKind(2),
    OfAKind(7),
    Pairs(1),
    Pairs(2),
    Total(1, 7),
    Total(2, 14),
    Total(3, 20),
]

any_ranks = st.lists(st.integers(1, 13), max_size=14)


def brute_force(pattern: Pattern, ranks: Sequence[int]) -> list[tuple[int, ...]]:
    """Distinct sub-multisets of ``ranks`` that ``pattern`` matches, sorted."""
    return sorted(s for s in distinct_sub_multisets(ranks) if pattern.matches(s))


def assert_exact_combinations(pattern: Pattern, ranks: Sequence[int]) -> list[tuple[int, ...]]:
    found = list(pattern.combinations(rank_counts(ranks)))
    expected = brute_force(pattern, ranks)
    assert found == expected  # same multisets, no duplicates, sorted order
    assert all(list(combo) == sorted(combo) for combo in found)
    return found


# --- rank_counts and sub_multisets -------------------------------------------------------


def test_rank_counts() -> None:
    counts = rank_counts([7, 7, 13, 1, 7])
    assert len(counts) == 14
    assert counts[0] == 0
    assert (counts[1], counts[7], counts[13]) == (1, 3, 1)
    assert sum(counts) == 5
    assert rank_counts([]) == (0,) * 14
    assert rank_counts(iter([2, 2])) == (0, 0, 2) + (0,) * 11


@pytest.mark.parametrize("bad", [0, 14, -1, -13, 100])
def test_rank_counts_rejects_ranks_outside_1_to_13(bad: int) -> None:
    # -1 used to be counted as a 13 (index wrap-around).
    with pytest.raises(ValueError, match=f"got {bad}"):
        rank_counts([5, bad])


@given(rank_lists(max_size=12))
def test_sub_multisets_matches_brute_force(ranks: list[int]) -> None:
    counts = rank_counts(ranks)
    every = list(sub_multisets(counts))
    assert every == sorted(distinct_sub_multisets(ranks))
    for size in range(len(ranks) + 2):
        sized = list(sub_multisets(counts, size))
        assert sized == sorted(s for s in distinct_sub_multisets(ranks) if len(s) == size)


@given(rank_lists(max_size=49))
def test_sub_multisets_counts_and_order_on_any_hand(ranks: list[int]) -> None:
    counts = rank_counts(ranks)
    product = 1
    for count in counts[1:]:
        product *= count + 1
    for size in (1, 2, 3, len(ranks) - 1, len(ranks)):
        sized = list(sub_multisets(counts, size))
        assert sized == sorted(set(sized))
        assert all(len(s) == size for s in sized)
        assert all(rank_counts(s)[r] <= counts[r] for s in sized for r in range(1, 14))
    if product <= 5000:
        assert len(list(sub_multisets(counts))) == product - 1  # all but the empty one


def test_sub_multisets_examples() -> None:
    counts = rank_counts([2, 2, 5])
    assert list(sub_multisets(counts, 2)) == [(2, 2), (2, 5)]
    assert list(sub_multisets(counts)) == [(2,), (2, 2), (2, 2, 5), (2, 5), (5,)]
    assert list(sub_multisets(counts, 3)) == [(2, 2, 5)]
    assert list(sub_multisets(counts, 4)) == []
    assert list(sub_multisets(counts, 0)) == []
    assert list(sub_multisets(counts, -1)) == []
    assert list(sub_multisets(rank_counts([]))) == []
    assert list(sub_multisets(rank_counts([13]))) == [(13,)]


# --- the Pattern protocol and parameters -----------------------------------------------


@pytest.mark.parametrize("pattern", R2_PATTERNS + OTHER_PATTERNS, ids=repr)
def test_builtin_patterns_follow_the_protocol(pattern: BuiltinPattern) -> None:
    assert isinstance(pattern, Pattern)
    data = pattern.to_dict()
    assert data["kind"] == pattern.kind
    rebuilt = type(pattern)(*(v for k, v in data.items() if k != "kind"))
    assert rebuilt == pattern
    assert hash(rebuilt) == hash(pattern)
    assert pattern.describe()
    for field in dataclasses.fields(pattern):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(pattern, field.name, 3)


def test_builtin_pattern_sizes_kinds_and_descriptions() -> None:
    assert (Straight(5).kind, Straight(5).size) == ("straight", 5)
    assert (OfAKind(3).kind, OfAKind(3).size) == ("kind", 3)
    assert (Pairs(3).kind, Pairs(3).size) == ("pairs", 6)
    assert (Total(7, 49).kind, Total(7, 49).size) == ("total", 7)
    assert Straight(5).describe() == "5 cards of consecutive ranks"
    assert OfAKind(3).describe() == "3 cards of one rank"
    assert Pairs(3).describe() == "3 pairs of 3 different ranks"
    assert Total(5, 49).describe() == "5 cards whose ranks add up to 49"
    assert Total(5, 49).to_dict() == {"kind": "total", "count": 5, "target": 49}


@pytest.mark.parametrize(
    ("factory", "args", "field"),
    [
        (Straight, (1,), "length"),
        (Straight, (14,), "length"),
        (Straight, (True,), "length"),
        (Straight, ("5",), "length"),
        (Straight, (5.0,), "length"),
        (OfAKind, (1,), "count"),
        (OfAKind, (8,), "count"),
        (Pairs, (0,), "pairs"),
        (Pairs, (7,), "pairs"),  # 14 cards: more than a pattern may need (R3)
        (Total, (0, 10), "count"),
        (Total, (14, 100), "count"),
        (Total, (20, 140), "count"),
        (Total, (5, 0), "target"),
        (Total, (5, 4), "target"),  # five ranks add up to 5 at least
        (Total, (5, 66), "target"),  # and to 65 at most
        (Total, (13, 170), "target"),
        (Total, (5, None), "target"),
    ],
)
def test_invalid_parameters_are_value_errors(
    factory: type, args: tuple[object, ...], field: str
) -> None:
    with pytest.raises(ValueError, match=f"^{field} must be an integer"):
        factory(*args)


# --- matches: exactly these cards, nothing more (R2) ---------------------------------------


@pytest.mark.parametrize(
    ("pattern", "ranks", "expected"),
    [
        (Straight(5), [5, 6, 7, 8, 9], True),
        (Straight(5), [9, 7, 5, 8, 6], True),  # order does not matter
        (Straight(5), [1, 2, 3, 4, 5], True),
        (Straight(5), [9, 10, 11, 12, 13], True),
        (Straight(5), [11, 12, 13, 1, 2], False),  # 1 and 13 are not connected
        (Straight(2), [13, 1], False),
        (Straight(5), [5, 6, 7, 8, 8], False),  # a repeated rank is no run
        (Straight(5), [5, 6, 7, 8], False),  # too short
        (Straight(5), [5, 6, 7, 8, 9, 10], False),  # one card too many
        (Straight(5), [5, 6, 7, 8, 10], False),  # a gap
        (Straight(13), list(range(1, 14)), True),
        (OfAKind(3), [4, 4, 4], True),
        (OfAKind(3), [4, 4, 4, 4], False),  # 4 of a kind is not 3 of a kind
        (OfAKind(3), [4, 4], False),
        (OfAKind(3), [4, 4, 5], False),
        (OfAKind(5), [7, 7, 7, 7, 7], True),
        (OfAKind(5), [7, 7, 7, 7, 7, 7], False),
        (Pairs(3), [4, 4, 10, 10, 12, 12], True),
        (Pairs(3), [12, 4, 10, 4, 12, 10], True),
        (Pairs(3), [5, 5, 5, 5, 7, 7], False),  # two pairs of one rank are not two pairs
        (Pairs(2), [5, 5, 5, 5], False),
        (Pairs(3), [4, 4, 4, 10, 10, 12], False),
        (Pairs(3), [4, 4, 10, 10, 12, 13], False),
        (Pairs(3), [4, 4, 10, 10, 12, 12, 13], False),  # an extra card
        (Pairs(3), [4, 4, 10, 10], False),
        (Pairs(1), [13, 13], True),
        (Total(5, 49), [2, 10, 12, 12, 13], True),
        (Total(5, 49), [2, 10, 12, 12, 12], False),  # adds up to 48
        (Total(5, 49), [12, 12, 12, 13], False),  # 49 with 4 cards
        (Total(5, 49), [1, 2, 10, 12, 12, 12], False),  # 49 with 6 cards
        (Total(7, 49), [4, 5, 5, 7, 7, 9, 12], True),
        (Total(7, 49), [2, 10, 12, 12, 13], False),
    ],
)
def test_r2_matches_is_exact(pattern: BuiltinPattern, ranks: list[int], expected: bool) -> None:
    assert pattern.matches(ranks) is expected
    assert pattern.matches(tuple(ranks)) is expected
    assert oracle_matches(pattern, ranks) is expected  # the oracle agrees


@given(patterns(max_size=14), any_ranks)
def test_r2_matches_agrees_with_the_rulebook_oracle(
    pattern: BuiltinPattern, ranks: list[int]
) -> None:
    assert pattern.matches(ranks) == (bool(ranks) and oracle_matches(pattern, ranks))


@given(patterns(max_size=14), st.data())
def test_r2_matches_accepts_its_own_combinations_and_rejects_extensions(
    pattern: BuiltinPattern, data: st.DataObject
) -> None:
    ranks = data.draw(rank_lists(max_size=14))
    for combo in pattern.combinations(rank_counts(ranks)):
        assert pattern.matches(combo)
        assert len(combo) == pattern.size
        extra = data.draw(st.integers(1, 13))
        assert not pattern.matches([*combo, extra])  # nothing more
        assert not pattern.matches(combo[1:])  # nothing less


# --- the rulebook's examples (notes *1 to *4) --------------------------------------------


def test_note_1_sequences() -> None:
    assert Straight(4).matches([5, 6, 7, 8])
    assert Straight(7).matches([7, 8, 9, 10, 11, 12, 13])
    assert list(Straight(7).combinations(rank_counts(range(7, 14)))) == [tuple(range(7, 14))]
    # 1 and 13 are not connected: 11 12 13 1 2 3 holds no 5-card run.
    assert list(Straight(5).combinations(rank_counts([11, 12, 13, 1, 2, 3]))) == []
    assert list(Straight(3).combinations(rank_counts([11, 12, 13, 1, 2, 3]))) == [
        (1, 2, 3),
        (11, 12, 13),
    ]


def test_note_2_same_rank() -> None:
    assert OfAKind(3).matches([4, 4, 4])
    assert OfAKind(6).matches([8, 8, 8, 8, 8, 8])
    assert list(OfAKind(6).combinations(rank_counts([8] * 6))) == [(8,) * 6]
    assert list(OfAKind(3).combinations(rank_counts([8] * 6))) == [(8, 8, 8)]
    assert list(OfAKind(7).combinations(rank_counts([8] * 6))) == []


def test_note_3_pairs() -> None:
    assert Pairs(3).matches([4, 4, 10, 10, 12, 12])
    assert Pairs(3).matches([5, 5, 6, 6, 7, 7])
    assert list(Pairs(3).combinations(rank_counts([4, 4, 10, 10, 12, 12, 13]))) == [
        (4, 4, 10, 10, 12, 12)
    ]
    assert list(Pairs(2).combinations(rank_counts([5, 5, 6, 6, 7, 7]))) == [
        (5, 5, 6, 6),
        (5, 5, 7, 7),
        (6, 6, 7, 7),
    ]


def test_note_4_totals() -> None:
    assert sum([2, 10, 12, 12, 13]) == sum([4, 5, 5, 7, 7, 9, 12]) == 49
    assert Total(5, 49).matches([2, 10, 12, 12, 13])
    assert Total(7, 49).matches([4, 5, 5, 7, 7, 9, 12])
    assert (2, 10, 12, 12, 13) in list(Total(5, 49).combinations(rank_counts([2, 10, 12, 12, 13])))
    assert list(Total(2, 5).combinations(rank_counts([1, 2, 3, 4]))) == [(1, 4), (2, 3)]


def test_total_with_high_ranks() -> None:
    # The ten highest cards of the deck: any five of them add up to 51 or more.
    top = [10, 10, 10, 10, 11, 11, 11, 12, 12, 13]
    assert assert_exact_combinations(Total(5, 49), top) == []
    assert assert_exact_combinations(Total(5, 49), [1, *top]) == [(1, 11, 12, 12, 13)]
    assert assert_exact_combinations(Total(5, 51), top) == [(10, 10, 10, 10, 11)]


# --- combinations: exact against brute force (R2) ------------------------------------------


@functools.cache
def deck_combinations(pattern: BuiltinPattern) -> list[tuple[int, ...]]:
    """The combinations of ``pattern`` within the whole deck, by the oracle."""
    return large_hand_oracle(pattern, rank_counts(card.rank for card in DECK))


def hands_for(pattern: BuiltinPattern, max_size: int = 12) -> st.SearchStrategy[list[int]]:
    """Random hands, half of them with a combination of ``pattern`` planted in."""
    planted = st.sampled_from(deck_combinations(pattern)).flatmap(
        lambda core: rank_lists_with(core, max_size)
    )
    return st.one_of(rank_lists(max_size=max_size), planted)


@pytest.mark.parametrize("pattern", R2_PATTERNS + OTHER_PATTERNS, ids=repr)
@given(data=st.data())
def test_r2_combinations_are_exact_for_each_builtin(
    pattern: BuiltinPattern, data: st.DataObject
) -> None:
    ranks = data.draw(hands_for(pattern), label="ranks")
    assert_exact_combinations(pattern, ranks)


@pytest.mark.parametrize("pattern", R2_PATTERNS + OTHER_PATTERNS, ids=repr)
def test_planted_hands_contain_their_combination(pattern: BuiltinPattern) -> None:
    # The planted hands above do exercise non-empty answers.
    for core in deck_combinations(pattern)[:20]:
        assert core in brute_force(pattern, core)
        assert core in list(pattern.combinations(rank_counts(core)))


@given(patterns(max_size=13), rank_lists(max_size=12))
def test_r2_combinations_are_exact_for_random_builtins(
    pattern: BuiltinPattern, ranks: list[int]
) -> None:
    assert_exact_combinations(pattern, ranks)


def large_hand_oracle(pattern: BuiltinPattern, counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The combinations on any hand, from the definitions (no search over the hand)."""
    if isinstance(pattern, Straight):
        length = pattern.length
        return [
            tuple(range(low, low + length))
            for low in range(1, 15 - length)
            if all(counts[r] for r in range(low, low + length))
        ]
    if isinstance(pattern, OfAKind):
        return [(r,) * pattern.count for r in range(1, 14) if counts[r] >= pattern.count]
    if isinstance(pattern, Pairs):
        doubled = [r for r in range(1, 14) if counts[r] >= 2]
        return [
            tuple(r for r in chosen for _ in range(2))
            for chosen in itertools.combinations(doubled, pattern.pairs)
        ]
    return [
        combo
        for combo in itertools.combinations_with_replacement(range(1, 14), pattern.count)
        if sum(combo) == pattern.target and all(combo.count(r) <= counts[r] for r in combo)
    ]


@given(patterns(max_size=13), rank_lists(min_size=12, max_size=49))
def test_r2_combinations_are_exact_on_large_hands(
    pattern: BuiltinPattern, ranks: list[int]
) -> None:
    counts = rank_counts(ranks)
    found = list(pattern.combinations(counts))
    assert found == sorted(set(found))
    for combo in found:
        assert oracle_matches(pattern, combo)
        assert all(combo.count(r) <= counts[r] for r in combo)
    if not isinstance(pattern, Total) or pattern.count <= 5:
        assert found == large_hand_oracle(pattern, counts)
    elif pattern.count >= len(ranks) - 3:
        sized = sub_multisets(counts, pattern.size)
        assert found == [s for s in sized if oracle_matches(pattern, s)]


def test_combinations_on_the_whole_deck() -> None:
    counts = rank_counts(card.rank for card in DECK)
    assert list(Straight(11).combinations(counts)) == [
        tuple(range(1, 12)),
        tuple(range(2, 13)),
        tuple(range(3, 14)),
    ]
    assert list(Straight(13).combinations(counts)) == [tuple(range(1, 14))]
    assert list(OfAKind(7).combinations(counts)) == [(7,) * 7]
    assert [c[0] for c in OfAKind(5).combinations(counts)] == [5, 6, 7, 8, 9]
    sixes = list(Pairs(6).combinations(counts))
    assert len(sixes) == math.comb(11, 6)  # ranks 2 to 12 have two cards or more
    assert sixes[0] == tuple(r for r in range(2, 8) for _ in "ab")
    assert list(Total(1, 13).combinations(counts)) == [(13,)]
    for pattern in R2_PATTERNS:
        assert list(pattern.combinations(counts)) == large_hand_oracle(pattern, counts)
    sevens = list(Total(7, 49).combinations(counts))
    assert (7,) * 7 in sevens
    assert (4, 5, 5, 7, 7, 9, 12) in sevens


# --- user-defined patterns (R3) ---------------------------------------------------------


class EvenPair(CustomPattern):
    """Two cards of even ranks; no ``size`` given, so every size is searched."""

    kind = "even-pair"

    def matches(self, ranks: Sequence[int]) -> bool:
        return len(ranks) == 2 and all(r % 2 == 0 for r in ranks)


def test_custom_pattern_needs_matches() -> None:
    with pytest.raises(TypeError):
        CustomPattern()  # type: ignore[abstract]
    assert isinstance(EvenPair(), Pattern)
    assert EvenPair().describe() == "EvenPair"
    # The catalogue form names the registered kind, never a module or class (R3).
    assert EvenPair().to_dict() == {"kind": "even-pair"}
    assert AllOdd(3).to_dict() == {"kind": "all-odd", "params": {"count": 3}}


@given(rank_lists(max_size=12), st.integers(1, 6))
def test_r3_custom_pattern_combinations_are_exact(ranks: list[int], count: int) -> None:
    for pattern in (AllOdd(count), EvenPair(), SumOfAnySize(count * 5)):
        found = list(pattern.combinations(rank_counts(ranks)))
        assert found == brute_force(pattern, ranks)


def test_r3_custom_pattern_examples() -> None:
    assert list(AllOdd(3).combinations(rank_counts([1, 3, 3, 4, 5]))) == [
        (1, 3, 3),
        (1, 3, 5),
        (3, 3, 5),
    ]
    assert list(SumOfAnySize(10).combinations(rank_counts([1, 2, 3, 4, 6, 9, 10]))) == [
        (1, 2, 3, 4),
        (1, 3, 6),
        (1, 9),
        (4, 6),
    ]
    assert list(EvenPair().combinations(rank_counts([2, 3, 4, 4]))) == [(2, 4), (4, 4)]


def test_r3_any_object_following_the_protocol_is_a_pattern() -> None:
    class Bare:
        kind = "bare"
        size = None

        def matches(self, ranks: Sequence[int]) -> bool:
            return False

        def combinations(self, available: tuple[int, ...]) -> itertools.chain[tuple[int, ...]]:
            return itertools.chain()

        def describe(self) -> str:
            return "never"

        def to_dict(self) -> dict[str, object]:
            return {"kind": "bare"}

    assert isinstance(Bare(), Pattern)
    assert not isinstance(object(), Pattern)
    assert not isinstance("straight", Pattern)
    # Counting is optional: a pattern without it is counted by enumeration.
    assert not isinstance(Bare(), CountingPattern)
    assert combination_count(Bare(), rank_counts(range(1, 14))) == 0


def test_r3_a_pattern_giving_lists_is_solved_as_one_giving_tuples() -> None:
    # The protocol asks for tuples; a duck-typed pattern that yields lists still works.
    from pastiche_core import Catalogue, NovelSpec, Position
    from pastiche_core.data.catalogue import END_FLAG_ID
    from pastiche_core.solver import fast as solver_fast

    class ListedPairs(EvenPair):
        def combinations(self, available: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            for combo in super().combinations(available):
                yield list(combo)  # type: ignore[misc]

    def catalogue(pattern: Pattern) -> Catalogue:
        specs = [NovelSpec("even", "Even", pattern, points=2, copies=2)]
        return Catalogue([*specs, NovelSpec(END_FLAG_ID, "End Flag", None, points=1, copies=1)])

    hand, table = "LOV2 HOR4 SCI4 FAN6 SCI9", "m1=1:MYT4 m2=0:HOR6"
    listed, plain = (
        Position.quick(hand, table=table, catalogue=catalogue(pattern))
        for pattern in (ListedPairs(), EvenPair())
    )
    assert solver_fast.options(listed) == solver_fast.options(plain)
    assert solver_fast.counts(listed) == solver_fast.counts(plain) != {}
    assert solver_fast.pareto(listed) == solver_fast.pareto(plain)


# --- lazy totals and counts (R3) ---------------------------------------------------------


def reference_total_combinations(
    count: int, target: int, available: Sequence[int]
) -> list[tuple[int, ...]]:
    """The former eager search, verbatim: every suffix list memoised, then all sorted."""
    max_rank, min_rank = 13, 1
    suffix = [0] * (max_rank + 2)
    for rank in range(max_rank, min_rank - 1, -1):
        suffix[rank] = suffix[rank + 1] + available[rank]
    best = [0]
    for rank in range(max_rank, min_rank - 1, -1):
        for _ in range(min(available[rank], count)):
            best.append(best[-1] + rank)
    best.extend([best[-1]] * (count + 1 - len(best)))
    least: list[list[int]] = [[0] for _ in range(max_rank + 2)]
    lowest: list[int] = []
    for rank in range(max_rank, min_rank - 1, -1):
        lowest = ([rank] * min(available[rank], count) + lowest)[:count]
        sums = [0]
        for value in lowest:
            sums.append(sums[-1] + value)
        least[rank] = sums
    memo: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}

    def solve(rank: int, left: int, need: int) -> list[tuple[int, ...]]:
        if left == 0:
            return [()] if need == 0 else []
        if rank > max_rank or suffix[rank] < left:
            return []
        if need < least[rank][left] or need > best[left]:
            return []
        key = (rank, left, need)
        found = memo.get(key)
        if found is None:
            found = []
            for taken in range(min(available[rank], left, need // rank), -1, -1):
                prefix = (rank,) * taken
                for tail in solve(rank + 1, left - taken, need - taken * rank):
                    found.append(prefix + tail)
            memo[key] = found
        return found

    results = solve(min_rank, count, target)
    results.sort()
    return results


def totals(max_count: int = MAX_PATTERN_CARDS) -> st.SearchStrategy[Total]:
    return st.integers(1, max_count).flatmap(
        lambda count: st.builds(Total, st.just(count), st.integers(count, 13 * count))
    )


@given(totals(), rank_lists(max_size=49))
def test_lazy_totals_yield_what_the_eager_search_did(pattern: Total, ranks: list[int]) -> None:
    counts = rank_counts(ranks)
    assert list(pattern.combinations(counts)) == reference_total_combinations(
        pattern.count, pattern.target, counts
    )


@given(totals(max_count=7), st.data())
def test_lazy_totals_on_planted_hands(pattern: Total, data: st.DataObject) -> None:
    # Targets near the middle of the range have many answers; plant one so some exist.
    core = data.draw(st.sampled_from(deck_combinations(pattern) or [()]), label="core")
    ranks = data.draw(rank_lists_with(core, 30), label="ranks")
    counts = rank_counts(ranks)
    found = list(pattern.combinations(counts))
    assert found == reference_total_combinations(pattern.count, pattern.target, counts)
    assert pattern.count_combinations(counts) == len(found)


@given(patterns(), rank_lists(max_size=49))
def test_counts_equal_the_number_of_combinations(pattern: BuiltinPattern, ranks: list[int]) -> None:
    counts = rank_counts(ranks)
    assert isinstance(pattern, CountingPattern)
    number = sum(1 for _ in pattern.combinations(counts))
    assert pattern.count_combinations(counts) == number
    assert combination_count(pattern, counts) == number


@pytest.mark.parametrize("pattern", R2_PATTERNS + OTHER_PATTERNS, ids=repr)
def test_counts_on_the_whole_deck(pattern: BuiltinPattern) -> None:
    counts = rank_counts(card.rank for card in DECK)
    assert pattern.count_combinations(counts) == len(deck_combinations(pattern))


@given(rank_lists(max_size=12), st.integers(1, 6))
def test_custom_patterns_are_counted_by_enumeration(ranks: list[int], count: int) -> None:
    counts = rank_counts(ranks)
    for pattern in (AllOdd(count), EvenPair(), SumOfAnySize(count * 5)):
        assert not isinstance(pattern, CountingPattern)
        assert combination_count(pattern, counts) == len(brute_force(pattern, ranks))


def test_a_big_total_yields_its_first_combination_at_once_in_little_memory() -> None:
    counts = rank_counts(card.rank for card in DECK)
    pattern = Total(13, 91)  # the middle of the range: the most combinations
    tracemalloc.start()
    try:
        started = time.perf_counter()
        found: Iterator[tuple[int, ...]] = pattern.combinations(counts)
        first = [next(found) for _ in range(10)]
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first == sorted(first)
    assert all(sum(combo) == 91 and len(combo) == 13 for combo in first)
    assert elapsed < 2.0
    assert peak < 8 * 1024 * 1024  # a table of counts, not a list of every answer
    total = pattern.count_combinations(counts)
    assert total > 10_000  # the eager search would have built all of them first
    assert first == list(itertools.islice(pattern.combinations(counts), 10))


def test_combinations_start_only_when_asked() -> None:
    read: list[str] = []

    class Watched(tuple[int, ...]):
        def __iter__(self) -> Iterator[int]:
            read.append("available")
            return super().__iter__()

    counts = Watched(rank_counts(card.rank for card in DECK))
    found = Total(7, 49).combinations(counts)
    assert read == []  # a generator: nothing is searched before next()
    assert next(found) == (1, 2, 2, 7, 12, 12, 13)
    assert next(found) == reference_total_combinations(7, 49, counts)[1]
    assert read
