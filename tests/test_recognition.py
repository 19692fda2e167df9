"""Hand recognition against brute force, for the default and a custom catalogue (R2–R4)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from custom_patterns import AllOdd, SumOfAnySize
from hypothesis import given
from hypothesis import strategies as st
from strategies import card_sets, distinct_sub_multisets, oracle_matches

from pastiche_core import (
    DECK,
    END_FLAG_ID,
    Card,
    Catalogue,
    CustomPattern,
    NovelSpec,
    OfAKind,
    Pairs,
    Pattern,
    Straight,
    Total,
    novel_combinations,
    parse_cards,
    recognize,
    satisfied_novels,
)

DEFAULT = Catalogue.default()

CUSTOM = Catalogue(
    [
        NovelSpec("run-3", "Short Run", Straight(3), 1, 4),
        NovelSpec("twins", "Twins", OfAKind(2), 0, 6),
        NovelSpec(END_FLAG_ID, "End Flag", None, 1, 1),  # not necessarily last
        NovelSpec("two-pairs", "Two Couples", Pairs(2), 1, 5),
        NovelSpec("three-20", "Three for 20", Total(3, 20), 2, 4),
        NovelSpec("odd-3", "Odd Tales", AllOdd(3), 3, 2),
        NovelSpec("sum-15", "Any Fifteen", SumOfAnySize(15), 2, 2),
        NovelSpec("kind-3", "Triplets", OfAKind(3), 2, 3),
    ],
    name="test-custom",
)

CATALOGUES = [pytest.param(DEFAULT, id="default"), pytest.param(CUSTOM, id="custom")]


def oracle(pattern: Pattern, ranks: Sequence[int]) -> bool:
    """Whether ``ranks`` satisfy ``pattern``, without calling the built-ins' ``matches``."""
    if isinstance(pattern, Straight | OfAKind | Pairs | Total):
        return oracle_matches(pattern, ranks)
    if isinstance(pattern, AllOdd):
        return len(ranks) == pattern.count and all(r in (1, 3, 5, 7, 9, 11, 13) for r in ranks)
    if isinstance(pattern, SumOfAnySize):
        return len(ranks) >= 2 and sum(ranks) == pattern.target
    raise AssertionError(f"no oracle for {pattern!r}")


def brute_force_recognize(
    cards: Sequence[Card], catalogue: Catalogue
) -> dict[str, list[tuple[int, ...]]]:
    subs = distinct_sub_multisets(card.rank for card in cards)
    found: dict[str, list[tuple[int, ...]]] = {}
    for spec in catalogue.specs:
        if spec.pattern is None:
            continue
        pattern = spec.pattern
        combos = sorted(s for s in subs if oracle(pattern, s))
        if combos:
            found[spec.id] = combos
    return found


@st.composite
def hands_with_a_novel(draw: st.DrawFn, catalogue: Catalogue) -> list[Card]:
    """Cards that exactly form one combination found in a random hand (often non-empty)."""
    hand = draw(card_sets(min_size=2, max_size=12))
    found = brute_force_recognize(hand, catalogue)
    if not found:
        return draw(card_sets(max_size=8))
    combo = draw(st.sampled_from(sorted(itertools.chain.from_iterable(found.values()))))
    chosen: list[Card] = []
    for rank in sorted(set(combo)):
        of_rank = [card for card in hand if card.rank == rank]
        chosen += draw(st.permutations(of_rank))[: combo.count(rank)]
    return draw(st.permutations(chosen))


# --- satisfied_novels --------------------------------------------------------------------


@pytest.mark.parametrize("catalogue", CATALOGUES)
@given(data=st.data())
def test_satisfied_novels_is_exact(catalogue: Catalogue, data: st.DataObject) -> None:
    cards = data.draw(card_sets(max_size=14) | hands_with_a_novel(catalogue))
    ranks = [card.rank for card in cards]
    expected = [
        spec.id
        for spec in catalogue.specs
        if spec.pattern is not None and ranks and oracle(spec.pattern, ranks)
    ]
    assert [spec.id for spec in satisfied_novels(cards, catalogue)] == expected
    # Whatever is satisfied is also among the hand's own combinations, in full.
    for spec in satisfied_novels(cards, catalogue):
        assert tuple(sorted(ranks)) in novel_combinations(cards, spec.id, catalogue)


def test_satisfied_novels_examples() -> None:
    def ids(text: str) -> list[str]:
        return [spec.id for spec in satisfied_novels(parse_cards(text))]

    assert ids("MYS7 FAN7 SCI7 HOR7 MYT7") == ["kind-5"]  # the rulebook's publish example
    assert ids("MYT4 LOV4 SCI5 HOR5 MYS7 FAN7") == ["pairs-3"]
    assert ids("LOV2 HOR10 FAN12 MAG12 MAG13") == ["total-5"]  # note *4
    assert ids("MYT4 MYT5 LOV5 SCI7 HOR7 SCI9 FAN12") == ["total-7"]  # note *4
    assert ids("MYT7 LOV8 SCI9 HOR10 MYS11 FAN12 MAG13") == ["straight-7"]  # note *1
    assert ids("SCI5 HOR6 MYS7 FAN8 MAG9") == ["straight-5"]
    assert ids("SCI5 HOR6 MYS7 FAN8 MAG9 MAG10") == []  # one card too many
    assert ids("SCI8 HOR8 MYS8 FAN8 MAG8 LOV8") == []  # six of a kind is neither 3 nor 5
    assert ids("SCI8 HOR8 MYS8 FAN8") == []  # nor is four
    assert ids("SCI8 HOR8 MYS8") == ["kind-3"]
    assert ids("MYT5 LOV5 SCI5 HOR5 MYS5 MYT6 LOV6 SCI7 SCI8") == []  # five 5s and more
    assert ids("") == []
    assert satisfied_novels([]) == []


def test_satisfied_novels_can_name_several_novels() -> None:
    cards = parse_cards("SCI3 MYT3 MYS7 FAN7")  # adds up to 20, but with four cards
    assert [spec.id for spec in satisfied_novels(cards, CUSTOM)] == ["two-pairs"]
    cards = parse_cards("MYT3 SCI5 HOR7")  # 15: three odd ranks that add up to 15
    assert [spec.id for spec in satisfied_novels(cards, CUSTOM)] == ["odd-3", "sum-15"]
    cards = parse_cards("MYT5 SCI5 HOR5")  # 15 again, three of a kind, all odd
    assert [spec.id for spec in satisfied_novels(cards, CUSTOM)] == ["odd-3", "sum-15", "kind-3"]


def test_satisfied_novels_ignores_genres() -> None:
    for first, second, third in itertools.combinations([c for c in DECK if c.rank == 7], 3):
        assert [s.id for s in satisfied_novels([first, second, third])] == ["kind-3"]


# --- novel_combinations and recognize ------------------------------------------------------


@pytest.mark.parametrize("catalogue", CATALOGUES)
@given(cards=card_sets(max_size=13))
def test_recognize_matches_brute_force(catalogue: Catalogue, cards: list[Card]) -> None:
    expected = brute_force_recognize(cards, catalogue)
    assert recognize(cards, catalogue) == expected
    assert list(recognize(cards, catalogue)) == [
        spec.id for spec in catalogue.publishable if spec.id in expected
    ]
    for spec in catalogue.publishable:
        combos = novel_combinations(cards, spec.id, catalogue)
        assert combos == expected.get(spec.id, [])
        assert novel_combinations(cards, spec, catalogue) == combos
        assert novel_combinations(reversed(cards), spec.id, catalogue) == combos


@given(cards=card_sets(max_size=13))
def test_default_catalogue_is_used_when_none_is_given(cards: list[Card]) -> None:
    assert recognize(cards) == recognize(cards, DEFAULT) == brute_force_recognize(cards, DEFAULT)
    assert satisfied_novels(cards) == satisfied_novels(cards, DEFAULT)
    assert novel_combinations(cards, "straight-5") == novel_combinations(
        cards, "straight-5", DEFAULT
    )


@given(cards=card_sets(min_size=20, max_size=49))
def test_recognize_on_large_hands_is_consistent(cards: list[Card]) -> None:
    found = recognize(cards)
    ranks = sorted(card.rank for card in cards)
    for novel_id, combos in found.items():
        pattern = DEFAULT[novel_id].pattern
        assert pattern is not None
        assert combos == sorted(set(combos))
        for combo in combos:
            assert oracle(pattern, combo)
            assert all(combo.count(r) <= ranks.count(r) for r in combo)
    # Straights, of-a-kinds and pairs are read off the rank counts directly.
    present = set(ranks)
    runs = [low for low in range(1, 10) if all(r in present for r in range(low, low + 5))]
    assert [c[0] for c in found.get("straight-5", [])] == runs
    triples = [r for r in range(1, 14) if ranks.count(r) >= 3]
    assert found.get("kind-3", []) == [(r, r, r) for r in triples]


def test_recognize_examples() -> None:
    assert recognize(parse_cards("SCI7 HOR7 MYS7 FAN7")) == {"kind-3": [(7, 7, 7)]}
    assert novel_combinations(parse_cards("SCI5 HOR6 MYS7 FAN8 MAG9 MAG10"), "straight-5") == [
        (5, 6, 7, 8, 9),
        (6, 7, 8, 9, 10),
    ]
    # 1 and 13 are not connected (note *1).
    assert novel_combinations(parse_cards("MYT1 MAG13 FAN12 MAG11 MYS10"), "straight-5") == []
    assert novel_combinations(parse_cards("MYT4 LOV4 SCI4 HOR4"), "kind-3") == [(4, 4, 4)]
    assert recognize([]) == {}
    whole = recognize(DECK)
    assert set(whole) == {spec.id for spec in DEFAULT.publishable}
    assert whole["straight-11"] == [tuple(range(1, 12)), tuple(range(2, 13)), tuple(range(3, 14))]
    assert whole["kind-5"] == [(r,) * 5 for r in (5, 6, 7, 8, 9)]


def test_end_flag_and_unknown_ids() -> None:
    assert novel_combinations(DECK, END_FLAG_ID) == []
    assert novel_combinations(DECK, DEFAULT.end_flag) == []
    assert END_FLAG_ID not in recognize(DECK)
    with pytest.raises(KeyError, match="unknown novel id 'kind-4'"):
        novel_combinations(DECK, "kind-4")
    with pytest.raises(KeyError, match=r"'odd-3'.*'default'"):
        novel_combinations(DECK, "odd-3")  # a custom id, default catalogue
    assert novel_combinations(parse_cards("MYT1 SCI3 MYS5"), "odd-3", CUSTOM) == [(1, 3, 5)]


def test_a_falsy_custom_pattern_is_still_recognised() -> None:
    class Quiet(CustomPattern):
        """A pattern object that happens to be falsy."""

        size = 1

        def matches(self, ranks: Sequence[int]) -> bool:
            return list(ranks) == [13]

        def __bool__(self) -> bool:
            return False

    cat = Catalogue(
        [NovelSpec("lucky", "Lucky", Quiet(), 1, 1), NovelSpec(END_FLAG_ID, "End", None, 1, 1)]
    )
    cards = parse_cards("MAG13")
    assert [spec.id for spec in satisfied_novels(cards, cat)] == ["lucky"]
    assert recognize(cards, cat) == {"lucky": [(13,)]}
