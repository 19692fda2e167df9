"""Hypothesis strategies for publish positions, hint constraints and a custom catalogue.

* :func:`positions` — a :class:`~pastiche_core.solver.position.Position` drawn from the
  real deck (R1): distinct cards across the hand and the Masterpieces, owners
  and the player among 3 to 5 seats (no owner with more Masterpieces than the
  catalogue has Novels, no more than its copies in all), random held Novels and
  supply (R6);
* :func:`constraints_for` — hint constraints that fit a position;
* :data:`CUSTOM_CATALOGUE` — a small catalogue built in Python (R3) with the
  built-in kinds and two user-defined patterns of this module:
  :class:`Sandwich` (fixed size) and :class:`SmallSum` (any size), registered
  as kinds ``sandwich`` and ``small-sum`` by ``conftest.py`` so the catalogue
  loads back from its JSON form.

>>> Sandwich().matches([4, 9, 9]), Sandwich().matches([4, 4, 9, 9])
(True, False)
>>> SmallSum().matches([1, 2, 9]), SmallSum().matches([12])
(True, False)
>>> [spec.id for spec in CUSTOM_CATALOGUE.publishable]
['run-3', 'pair', 'two-pairs', 'sum-20', 'sandwich', 'small-sum']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from pastiche_core import (
    DECK,
    Card,
    Catalogue,
    CustomPattern,
    NovelSpec,
    OfAKind,
    Pairs,
    Straight,
    Total,
)
from pastiche_core.data.catalogue import END_FLAG_ID
from pastiche_core.solver.options import Constraints
from pastiche_core.solver.position import Masterpiece, Position

__all__ = [
    "CUSTOM_CATALOGUE",
    "Sandwich",
    "SmallSum",
    "constraints_for",
    "deck_cards",
    "positions",
]


class Sandwich(CustomPattern):
    """Three cards: a pair and one card exactly ``gap`` ranks away from it."""

    kind = "sandwich"
    size = 3

    def __init__(self, gap: int = 5) -> None:
        self.gap = gap

    def matches(self, ranks: Sequence[int]) -> bool:
        if len(ranks) != 3:
            return False
        low, mid, high = sorted(ranks)
        return (low == mid and high - mid == self.gap) or (mid == high and mid - low == self.gap)

    def describe(self) -> str:
        return f"a pair and a card {self.gap} ranks away"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": {"gap": self.gap}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sandwich) and other.gap == self.gap

    def __hash__(self) -> int:
        return hash((Sandwich, self.gap))


class SmallSum(CustomPattern):
    """Two to four cards whose ranks add up to ``target`` (no fixed size)."""

    kind = "small-sum"

    def __init__(self, target: int = 12) -> None:
        self.target = target

    def matches(self, ranks: Sequence[int]) -> bool:
        return 2 <= len(ranks) <= 4 and sum(ranks) == self.target

    def describe(self) -> str:
        return f"two to four cards whose ranks add up to {self.target}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": {"target": self.target}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SmallSum) and other.target == self.target

    def __hash__(self) -> int:
        return hash((SmallSum, self.target))


CUSTOM_CATALOGUE = Catalogue(
    [
        NovelSpec("run-3", "Short Run", Straight(3), points=1, copies=3),
        NovelSpec("pair", "A Pair", OfAKind(2), points=1, copies=4),
        NovelSpec("two-pairs", "Two Pairs", Pairs(2), points=2, copies=2),
        NovelSpec("sum-20", "Three for Twenty", Total(3, 20), points=2, copies=2),
        NovelSpec("sandwich", "Sandwich", Sandwich(), points=3, copies=2),
        NovelSpec("small-sum", "Small Sum", SmallSum(), points=2, copies=1),
        NovelSpec(END_FLAG_ID, "End Flag", None, points=1, copies=1),
    ],
    name="test-custom",
)
"""A small custom catalogue (R3): built-in kinds plus two user-defined patterns."""


def deck_cards(count: int) -> SearchStrategy[list[Card]]:
    """``count`` distinct cards of the real deck (R1).

    Half the time they come from a window of a few ranks, so that straights,
    of-a-kinds and pairs actually occur.
    """
    anywhere = st.lists(st.sampled_from(DECK), min_size=count, max_size=count, unique=True)

    @st.composite
    def clustered(draw: st.DrawFn) -> list[Card]:
        width = draw(st.integers(3, 7))
        low = draw(st.integers(1, 14 - width))
        near = [card for card in DECK if low <= card.rank < low + width]
        picked = draw(st.lists(st.sampled_from(near), max_size=count, unique=True))
        rest = [card for card in DECK if card not in picked]
        more = count - len(picked)
        return picked + draw(
            st.lists(st.sampled_from(rest), min_size=more, max_size=more, unique=True)
        )

    return st.one_of(anywhere, clustered())


@st.composite
def _positions(
    draw: st.DrawFn,
    max_hand: int,
    max_masterpieces: int,
    players: tuple[int, int],
    catalogue: Catalogue,
) -> Position:
    seats = draw(st.integers(*players))
    player = draw(st.integers(0, seats - 1))
    # Larger hands and tables half the time: small ones rarely publish anything.
    hand_size = draw(st.integers(0, max_hand) | st.integers(max_hand // 2, max_hand))
    table_size = draw(
        st.integers(0, max_masterpieces) | st.integers(max_masterpieces // 2, max_masterpieces)
    )
    # A player holds each Novel at most once and the supply has so many copies (R6).
    novels = len(catalogue.publishable)
    table_size = min(table_size, seats * novels, sum(s.copies for s in catalogue.publishable))
    cards = draw(deck_cards(hand_size + table_size))
    owners = draw(st.lists(st.integers(0, seats - 1), min_size=table_size, max_size=table_size))
    owners = _within_holdings(owners, seats, novels)
    masterpieces = tuple(
        Masterpiece(f"m{index}", owner, card)
        for index, (owner, card) in enumerate(zip(owners, cards[hand_size:], strict=True), 1)
    )
    ids = [spec.id for spec in catalogue.publishable]
    held = draw(st.frozensets(st.sampled_from(ids), max_size=2))
    supply = {}
    for spec in catalogue.publishable:
        if draw(st.integers(0, 4)) == 0:  # mostly full; sometimes some or all taken
            supply[spec.id] = draw(st.integers(0, spec.copies))
    return Position(
        player=player,
        hand=tuple(cards[:hand_size]),
        masterpieces=masterpieces,
        held_novels=held,
        supply=supply,
        catalogue=catalogue,
    )


def _within_holdings(owners: list[int], seats: int, novels: int) -> list[int]:
    """``owners`` with the Masterpieces past ``novels`` per owner moved to the next seats."""
    counts = [0] * seats
    fixed = []
    for owner in owners:
        while counts[owner] >= novels:
            owner = (owner + 1) % seats
        counts[owner] += 1
        fixed.append(owner)
    return fixed


def positions(
    max_hand: int = 10,
    max_masterpieces: int = 8,
    players: tuple[int, int] = (3, 5),
    catalogue: Catalogue | None = None,
) -> SearchStrategy[Position]:
    """Publish positions with up to ``max_hand`` cards and ``max_masterpieces`` on the table.

    The number of seats is drawn from ``players`` (inclusive); the player and
    every Masterpiece's owner are seats, so some Masterpieces are the player's
    own. ``catalogue`` defaults to the reconstructed default catalogue (R2).
    """
    if min(max_hand, max_masterpieces) < 0 or max_hand + max_masterpieces > len(DECK):
        raise ValueError("need 0 <= max_hand, max_masterpieces and at most 49 cards in all")
    low, high = players
    if not 1 <= low <= high:
        raise ValueError(
            f"players must be a range (low, high) with 1 <= low <= high, got {players}"
        )
    cat = catalogue if catalogue is not None else Catalogue.default()
    return _positions(max_hand, max_masterpieces, players, cat)


def constraints_for(position: Position) -> SearchStrategy[Constraints]:
    """Hint constraints valid for ``position``: kept hand cards, excluded seats, bounds."""
    seats = sorted({position.player, *(mp.owner for mp in position.masterpieces)})
    return st.builds(
        Constraints,
        keep=st.frozensets(st.sampled_from(position.hand), max_size=3)
        if position.hand
        else st.just(frozenset()),
        no_cite=st.frozensets(st.sampled_from(seats), max_size=2),
        max_gifts=st.none() | st.integers(0, 4),
        min_points=st.none() | st.integers(0, 4),
    )
