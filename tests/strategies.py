"""Hypothesis strategies and brute-force oracles shared by the test suite.

Strategies:

* :func:`cards` — one card of the real deck;
* :func:`card_sets` — distinct cards of the deck, sorted (a hand, a pile);
* :func:`rank_lists` — rank multisets that some set of real cards has (R1);
* :func:`patterns` — built-in patterns (R2) with valid parameters.

Oracles (deliberately naive, independent of the code under test):

* :func:`distinct_sub_multisets` — every distinct non-empty sub-multiset of a
  rank list, by enumerating ``itertools.combinations`` over the list;
* :func:`oracle_matches` — whether ranks satisfy a built-in pattern, written
  from the rulebook's wording rather than from the implementation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from pastiche_core import DECK, Card, OfAKind, Pairs, Straight, Total

__all__ = [
    "BuiltinPattern",
    "card_sets",
    "cards",
    "copies_of_rank",
    "distinct_sub_multisets",
    "oracle_matches",
    "patterns",
    "rank_lists",
    "rank_lists_with",
]

BuiltinPattern = Straight | OfAKind | Pairs | Total
"""The pattern kinds a catalogue can name without registering them (R2, R3)."""


def copies_of_rank(rank: int) -> int:
    """How many cards of ``rank`` the deck has: ``min(r, 14 - r, 7)`` (R1)."""
    return min(rank, 14 - rank, 7)


def cards() -> SearchStrategy[Card]:
    """One card of :data:`~pastiche_core.DECK` (shrinks towards ``MYT1``)."""
    return st.sampled_from(DECK)


def card_sets(min_size: int = 0, max_size: int = 49) -> SearchStrategy[list[Card]]:
    """Lists of distinct cards of the deck, sorted in canonical order.

    ``min_size`` and ``max_size`` bound the number of cards (0 to 49).
    """
    if not 0 <= min_size <= max_size <= len(DECK):
        raise ValueError(f"need 0 <= min_size <= max_size <= 49, got {min_size}, {max_size}")
    return st.lists(cards(), min_size=min_size, max_size=max_size, unique=True).map(sorted)


def rank_lists(min_size: int = 0, max_size: int = 49) -> SearchStrategy[list[int]]:
    """Sorted rank multisets realisable from the real deck.

    Each rank ``r`` occurs at most ``min(r, 14 - r, 7)`` times (R1), because the
    ranks are those of a set of distinct cards drawn by :func:`card_sets`.
    """
    return card_sets(min_size, max_size).map(lambda chosen: sorted(card.rank for card in chosen))


def rank_lists_with(core: Sequence[int], max_size: int = 49) -> SearchStrategy[list[int]]:
    """Sorted realisable rank multisets that contain ``core`` (plus random extra ranks).

    Useful to plant a known combination in a hand so that searches have
    something to find. ``core`` itself must be realisable from the deck (R1).
    """
    left = {rank: copies_of_rank(rank) - list(core).count(rank) for rank in range(1, 14)}
    if any(count < 0 for count in left.values()):
        raise ValueError(f"ranks {sorted(core)} are not realisable from the deck")
    pool = [rank for rank, count in left.items() for _ in range(count)]
    extra = max(0, max_size - len(core))
    return st.lists(st.sampled_from(range(len(pool))), unique=True, max_size=extra).map(
        lambda picked: sorted([*core, *(pool[i] for i in picked)])
    )


def patterns(max_size: int = 13) -> SearchStrategy[BuiltinPattern]:
    """Built-in patterns with valid parameters, needing at most ``max_size`` cards.

    Straights of 2–13, of-a-kinds of 2–7, 1–6 pairs and totals of 1–13 cards (the
    limits of R3). A total's target is any sum its count of ranks can make
    (``count`` to ``13 * count``), so that both found and empty answers occur.
    """
    if max_size < 2:
        raise ValueError(f"max_size must be at least 2, got {max_size}")
    straights = st.builds(Straight, st.integers(2, min(13, max_size)))
    kinds = st.builds(OfAKind, st.integers(2, min(7, max_size)))
    pairs = st.builds(Pairs, st.integers(1, min(6, max_size // 2)))

    @st.composite
    def totals(draw: st.DrawFn) -> Total:
        count = draw(st.integers(1, min(13, max_size)))
        target = draw(st.integers(count, 13 * count))
        return Total(count, target)

    return st.one_of(straights, kinds, pairs, totals())


def distinct_sub_multisets(ranks: Iterable[int]) -> set[tuple[int, ...]]:
    """Every distinct non-empty sub-multiset of ``ranks``, as sorted tuples.

    Brute force: every ``itertools.combinations`` of every size over the list,
    then deduplicated. Exponential; keep ``ranks`` short (about 14 at most).
    """
    items = sorted(ranks)
    found: set[tuple[int, ...]] = set()
    for size in range(1, len(items) + 1):
        found.update(itertools.combinations(items, size))
    return found


def oracle_matches(pattern: BuiltinPattern, ranks: Sequence[int]) -> bool:
    """Whether ``ranks`` satisfy ``pattern`` exactly, straight from the rulebook.

    * straight (note \\*1): the sorted ranks are ``low, low + 1, ...`` — so 13 is
      never followed by 1;
    * of a kind (note \\*2): ``count`` copies of the first rank;
    * pairs (note \\*3): sorted, the ranks read ``a a b b c c ...`` with
      ``a < b < c``;
    * total (note \\*4): ``count`` ranks adding up to ``target``.
    """
    ordered = sorted(ranks)
    if isinstance(pattern, Straight):
        return len(ordered) == pattern.length and ordered == list(
            range(ordered[0], ordered[0] + pattern.length)
        )
    if isinstance(pattern, OfAKind):
        return len(ordered) == pattern.count and ordered == [ordered[0]] * pattern.count
    if isinstance(pattern, Pairs):
        if len(ordered) != 2 * pattern.pairs:
            return False
        firsts, seconds = ordered[0::2], ordered[1::2]
        return firsts == seconds and all(a < b for a, b in itertools.pairwise(firsts))
    return len(ordered) == pattern.count and sum(ordered) == pattern.target
