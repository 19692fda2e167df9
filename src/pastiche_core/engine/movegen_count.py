"""Counting a position's publishes without enumerating them (R4, R5, R6).

A position is read from its card table (:mod:`pastiche_core.engine.layout`) into the
numbers counting needs: per rank, the cards in hand and each owner's
Masterpieces (:class:`Numbers`), cached across positions. The counting kernels
here (``publish_counts``, ``segment_count``) take the table, the player, and
for the counts the usable flags (R6) and the catalogue's plan, and have
compiled twins (:mod:`pastiche_core.engine._kernels`). :mod:`pastiche_core.engine.movegen`
builds the segments of the legal moves on them.

>>> from pastiche_core.engine.layout import CARD_TABLE_SIZE
>>> segment_count(bytes(CARD_TABLE_SIZE), 0, (1,), (1,))  # no card in hand: no publish
0
"""

from __future__ import annotations

import array
import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from ..data.cards import DECK
from ..data.limits import MAX_OF_A_KIND, MAX_PAIRS, MAX_PATTERN_CARDS
from ..data.patterns import OfAKind, Pairs, Straight, Total
from ._kernels import kernel
from .feasibility import (
    KIND_CODES,
    Entry,
    PayableTotals,
    RankKey,
    cost_finish,
    cost_tally,
    gift_ways,
    mark_own,
    rank_cost,
    rank_table,
)
from .layout import CARDS, HAND, MASTER, SEAT_MASK

__all__ = [
    "REF_KEY",
    "Counted",
    "Decoded",
    "Group",
    "Holdings",
    "Numbers",
    "as_segment",
    "holdings",
    "numbers_of",
    "payable_groups",
    "plan_groups",
    "publish_counts",
    "rank_groups",
    "segment_count",
]

_T = TypeVar("_T")
_INDEX = operator.attrgetter("index")
REF_KEY = operator.attrgetter("owner", "novel")  # NovelRef's order
_RANK = tuple(card.rank for card in DECK)
_STRAIGHT = KIND_CODES[Straight]
_OF_A_KIND = KIND_CODES[OfAKind]
_PAIRS = KIND_CODES[Pairs]
_TOTAL = KIND_CODES[Total]

Group = tuple[tuple[int, ...], tuple[int, ...]]
"""A rank multiset as its distinct ranks, ascending, and how many cards of each."""

Counted = tuple[int, tuple[int, ...], tuple[int, ...], int]
"""One segment as the counting kernel gives it: (plan index, ranks, needs, count)."""

Decoded = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]
"""A publish as card indexes: played cards and cited Masterpieces' cards, ascending; then
the gifts, ``(owner, card)`` owner by owner, each owner's cards ascending."""


# ----------------------------------------------------------------------------
# A position's numbers, read from its card table
# ----------------------------------------------------------------------------
class Numbers:
    """What counting needs of a position, from its card table, for one player.

    Per rank: the hand's cards and the Masterpieces per owner (the player's own
    marked as free, R5); made on first use, each rank's fills, the Total search
    of the position and, for decoding, the hand's and each (rank, owner)'s
    Masterpiece cards by card index.
    """

    __slots__ = (
        "_fills",
        "_found",
        "_hand",
        "_marked",
        "_masterpieces",
        "_none",
        "_others",
        "_payable",
        "h",
        "hand_size",
        "in_hand",
        "own",
        "own_total",
        "player",
        "pool",
        "table",
    )

    def __init__(self, table: bytes, player: int) -> None:
        if not 0 <= player <= SEAT_MASK:
            raise ValueError(f"player {player} is no seat of a card table (0 to {SEAT_MASK})")
        self.table = table
        self.player = player
        h = [0] * 14
        own = [0] * 14
        pool = [0] * 14
        found: list[tuple[int, int, int]] = []  # each Masterpiece's (rank, owner, card)
        mine, master = HAND | player, MASTER | player
        # Only the hand's cards and the Masterpieces matter: the others read as zero.
        for index in itertools.compress(_INDEXES, table.translate(_COUNTED[player])):
            rank, place = _RANK[index], table[index]
            pool[rank] += 1
            if place == mine:
                h[rank] += 1
            else:
                found.append((rank, place & SEAT_MASK, index))
                if place == master:
                    own[rank] += 1
        self.h = h
        self.own = own
        self.pool = tuple(pool)
        self.hand_size = sum(h)
        self.own_total = sum(own)
        self.in_hand = {rank for rank in range(1, 14) if h[rank]}
        self._found = found
        self._marked: dict[int, tuple[int, ...]] | None = None
        self._others: set[int] = set()
        self._none: tuple[int, ...] = ()
        self._fills: _Fills | None = None
        self._payable: PayableTotals | None = None
        self._hand: list[int] | None = None
        self._masterpieces: dict[tuple[int, int], list[int]] | None = None

    def _per_owner(self) -> dict[int, tuple[int, ...]]:
        """Per rank with Masterpieces, their count per owner, the player's own marked as free
        (R5); and the ranks where another player's may be cited (made when first counted)."""
        marked = self._marked
        if marked is None:
            player = self.player
            width = max([player, *(owner for _, owner, _ in self._found)]) + 1
            by_rank: dict[int, list[int]] = {}
            for rank, owner, _ in self._found:
                counts = by_rank.get(rank)
                if counts is None:
                    counts = by_rank[rank] = [0] * width
                counts[owner] += 1
            marked = self._marked = {}
            for rank, counts in by_rank.items():
                marked[rank] = mark_own(tuple(counts), player)
                if sum(counts) > counts[player]:
                    self._others.add(rank)  # citing another's Masterpiece owes a gift (R5)
            self._none = (0,) * width
        return marked

    @property
    def marked(self) -> dict[int, tuple[int, ...]]:
        """Per rank with Masterpieces, their count per owner, the player's own as ``-n - 1``."""
        marked = self._marked
        return marked if marked is not None else self._per_owner()

    @property
    def others(self) -> set[int]:
        """The ranks where another player's Masterpiece may be cited (a gift, R5)."""
        if self._marked is None:
            self._per_owner()
        return self._others

    @property
    def none(self) -> tuple[int, ...]:
        """No Masterpiece of any owner: the per-owner counts of a rank without one."""
        if self._marked is None:
            self._per_owner()
        return self._none

    @property
    def fills(self) -> _Fills:
        """The rank tables of this position, made when first asked."""
        fills = self._fills
        if fills is None:
            fills = self._fills = _Fills(self.h, self.marked, self.none)
        return fills

    def payable(self) -> PayableTotals:
        """The Total search of this position, shared by its Total Novels."""
        search = self._payable
        if search is None:
            search = self._payable = PayableTotals(self.pool, self.h, self.own, self.hand_size)
        return search

    @property
    def hand(self) -> list[int]:
        """The hand's cards, ascending."""
        hand = self._hand
        if hand is None:
            mine, table = HAND | self.player, self.table
            hand = self._hand = [index for index in _INDEXES if table[index] == mine]
        return hand

    def hand_of_rank(self, rank: int) -> list[int]:
        """The hand's cards of ``rank``, ascending."""
        return [index for index in self.hand if _RANK[index] == rank]

    @property
    def masterpieces(self) -> dict[tuple[int, int], list[int]]:
        """Per (rank, owner), the Masterpieces' cards, ascending."""
        found = self._masterpieces
        if found is None:
            found = self._masterpieces = {}
            for rank, owner, index in self._found:  # in card order
                found.setdefault((rank, owner), []).append(index)
        return found

    def keys(self, ranks: Sequence[int], needs: Sequence[int]) -> list[RankKey]:
        """Per rank: (cards needed, cards of the rank in hand, Masterpieces per owner, marked)."""
        h, marked, none = self.h, self.marked, self.none
        return [
            (need, h[rank], marked.get(rank, none)) for rank, need in zip(ranks, needs, strict=True)
        ]


_INDEXES = range(CARDS)


def _counted(player: int) -> bytes:
    """The translation of a card table that keeps ``player``'s hand and every Masterpiece."""
    codes = bytearray(256)
    codes[HAND | player] = 1
    for seat in range(SEAT_MASK + 1):
        codes[MASTER | seat] = 1
    return bytes(codes)


_COUNTED = [_counted(player) for player in range(SEAT_MASK + 1)]


@functools.lru_cache(maxsize=8)
def numbers_of(table: bytes, player: int) -> Numbers:
    """The numbers of the position of ``table`` for ``player``, made once per table (the
    kernels of one position share them; only the last few positions are kept)."""
    return Numbers(table, player)


class _Fills(dict[int, tuple[Entry, ...]]):
    """Per ``need * 16 + rank``, the :func:`rank_table` of one position, made when first asked."""

    __slots__ = ("h", "marked", "none")

    def __init__(
        self, h: Sequence[int], marked: dict[int, tuple[int, ...]], none: tuple[int, ...]
    ) -> None:
        super().__init__()
        self.h = h
        self.marked = marked
        self.none = none

    def __missing__(self, key: int) -> tuple[Entry, ...]:
        rank, need = key & 15, key >> 4
        table = self[key] = rank_table((need, self.h[rank], self.marked.get(rank, self.none)))
        return table


# ----------------------------------------------------------------------------
# Counting a position's publishes (R4-R7)
# ----------------------------------------------------------------------------
def _count_group(numbers: Numbers, ranks: Sequence[int], needs: Sequence[int]) -> int:
    """The card-level publishes of one rank multiset (R4, R5), given the Novel is usable."""
    if numbers.in_hand.isdisjoint(ranks):
        return 0  # R4: at least one rank must take a hand card
    hand_size = numbers.hand_size
    if numbers.others.isdisjoint(ranks):
        # Only the player's own Masterpieces (free, R5): per rank, choose `need` of the
        # hand cards and own Masterpieces together, minus the all-pastiche choice (R4).
        h, own = numbers.h, numbers.own
        total = pastiche_only = 1
        cost = 0
        for rank, need in zip(ranks, needs, strict=True):
            mine = own[rank]
            cost += rank_cost(need, mine)
            total *= math.comb(h[rank] + mine, need)
            pastiche_only *= math.comb(mine, need)
        if cost > hand_size:
            return 0  # R5: the hand cannot even play what the Masterpieces lack
        return total - pastiche_only
    fills = numbers.fills
    return _gift_count_of(
        [fills[need * 16 + rank] for rank, need in zip(ranks, needs, strict=True)], hand_size
    )


def _gift_count_of(tables: Sequence[tuple[Entry, ...]], limit: int) -> int:
    """The moves of a segment that cites other players' Masterpieces (R4, R5).

    ``tables`` holds, per rank, :func:`rank_table`; ``limit`` is the hand size.
    Rank by rank, the choices so far are merged by (hand cards played, gifts owed
    per owner), weighted by their card and Masterpiece choices (a rank with one
    way to fill it only shifts and scales them); at the end each state is
    weighted by its ways to give the gifts from the unplayed cards, none if
    they are too few (R5), and the states that play no hand card are left out
    (R4).

    >>> three = rank_table((3, 2, (0, 1)))  # 2 in hand, 1 Masterpiece of seat 1
    >>> _gift_count_of([three], limit=2)  # both hand cards: no card left to give
    0
    >>> _gift_count_of([three], limit=4)  # ... and one of 2 other cards as the gift
    2
    """
    # A state: (gifts owed per owner) << 16 | (hand cards spent) << 8 | (hand cards played),
    # where a card is spent when it is played or given (R5).
    shift = 0
    scale = 1
    spread: list[tuple[Entry, ...]] = []
    for table in tables:
        if len(table) == 1:
            _, step, weight = table[0]
            shift += step
            scale *= weight
        elif not table:
            return 0  # a rank nothing can fill
        else:
            spread.append(table)
    if not spread:  # every rank has one way to fill it
        played = shift & 0xFF
        return scale * gift_ways(limit - played, shift >> 16) if played else 0
    # The rank with the most choices goes last: it is counted into the gifts at once.
    spread.sort(key=len)
    # Pruning: a choice whose cards spent, with the least the ranks after it spend
    # (their first entry), exceed the hand could never pay its gifts.
    budget = limit - ((shift >> 8) & 0xFF)
    after = 0
    for table in spread:
        after += table[0][0]
    if after > budget:
        return 0
    states = {0: 1}
    last = len(spread) - 1
    for index in range(last):
        table = spread[index]
        after -= table[0][0]
        bound = budget - after
        following: dict[int, int] = {}
        get = following.get
        for state, weight in states.items():
            room = bound - ((state >> 8) & 0xFF)
            for cost, step, weight_here in table:
                if cost > room:
                    break  # the entries come cheapest first
                key = state + step
                following[key] = get(key, 0) + weight * weight_here
        states = following
    # The last rank with a choice is counted into the gifts at once.
    found = 0
    for state, weight in states.items():
        room = budget - ((state >> 8) & 0xFF)
        state += shift
        for cost, step, weight_here in spread[last]:
            if cost > room:
                break
            final = state + step
            played = final & 0xFF
            if played:
                found += weight * weight_here * gift_ways(limit - played, final >> 16)
    return found * scale


_PLAN_LIMITS = {
    _STRAIGHT: (2, 13),
    _OF_A_KIND: (2, MAX_OF_A_KIND),
    _PAIRS: (1, MAX_PAIRS),
    _TOTAL: (1, MAX_PATTERN_CARDS),
}


@functools.lru_cache(maxsize=64)
def _plan_entries(plan: bytes) -> tuple[tuple[int, int, int, int], ...]:
    """A plan's entries as (kind, first, second, size); a code no pattern has raises."""
    values = array.array("i", plan)
    if len(values) % 5:
        raise ValueError(f"a plan holds five integers per Novel, not {len(values)} in all")
    entries = []
    for at in range(0, len(values), 5):
        kind, first, second, size = values[at : at + 4]
        low, high = _PLAN_LIMITS.get(kind, (1, 0))
        if not low <= first <= high or (kind == _TOTAL and not first <= second <= 13 * first):
            raise ValueError(
                f"plan entry {at // 5}: ({kind}, {first}, {second}) is no pattern's code"
            )
        entries.append((kind, first, second, size))
    return tuple(entries)


def plan_groups(
    numbers: Holdings, kind: int, first: int, second: int, only_first: bool = False
) -> Iterable[Group]:
    """The rank multisets of a plan entry's pattern the position's cards can supply.

    A Total's are those the hand can pay for, sorted; with ``only_first``, only
    the first its search finds (each of them has a publish).
    """
    pool = numbers.pool
    if kind == _STRAIGHT:
        return _straights(first, pool)
    if kind == _OF_A_KIND:
        return (((rank,), (first,)) for rank in range(1, 14) if pool[rank] >= first)
    if kind == _PAIRS:
        doubled = [rank for rank in range(1, 14) if pool[rank] >= 2]
        twos = (2,) * first
        return ((chosen, twos) for chosen in itertools.combinations(doubled, first))
    # A Total: only the multisets the hand can pay for (R4, R5).
    if only_first:
        counts = numbers.payable().first_found(first, second)
        if counts is None:
            return []
        ranks = tuple(rank for rank in range(1, 14) if counts[rank])
        return [(ranks, tuple(counts[rank] for rank in ranks))]
    return [
        (tuple(ranks), tuple(needs)) for ranks, needs in numbers.payable().groups(first, second)
    ]


class Holdings(Protocol):
    """What the closed-form test of a position's publishes reads (:func:`payable_groups`).

    Per rank (14 entries, index 0 unused): the hand's cards, the player's own
    Masterpieces, and every card (hand and every Masterpiece); the hand size,
    the own Masterpieces in all, and the position's Total search.
    """

    @property
    def h(self) -> Sequence[int]:
        """The hand's cards per rank."""

    @property
    def own(self) -> Sequence[int]:
        """The player's own Masterpieces per rank."""

    @property
    def pool(self) -> Sequence[int]:
        """The hand's cards and every Masterpiece per rank."""

    @property
    def hand_size(self) -> int:
        """The hand's cards in all."""

    @property
    def own_total(self) -> int:
        """The player's own Masterpieces in all."""

    def payable(self) -> PayableTotals:
        """The Total search of the position (kept: its failures serve every Total)."""


def _payable(holdings: Holdings, ranks: Sequence[int], needs: Sequence[int]) -> int:
    """1 when the hand can pay for a publish of one rank multiset, else 0 (R4, R5).

    The closed form of :func:`~pastiche_core.engine.feasibility.least_cost` (its
    tally, then its close): every card but an own Masterpiece costs a hand
    card, at least one hand card is played, and the cost fits in the hand. It
    holds exactly when the multiset has a publish (:func:`_count_group` is not 0).
    """
    h, own, pool = holdings.h, holdings.own, holdings.pool
    tally = cost_tally(
        [
            (need, h[r], own[r], pool[r] - h[r] - own[r])
            for r, need in zip(ranks, needs, strict=True)
        ]
    )
    cost = None if tally is None else cost_finish(tally, False)
    return 1 if cost is not None and cost <= holdings.hand_size else 0


_H = TypeVar("_H", bound=Holdings)


def _plan_segments(
    holdings: _H,
    usable: bytes,
    plan: bytes,
    first: bool,
    measure: Callable[[_H, Sequence[int], Sequence[int]], int],
) -> list[Counted]:
    """Per usable plan entry, its rank multisets that ``measure`` does not give 0, with that
    measure, in the pattern's order; only each Novel's first with ``first``."""
    entries = _plan_entries(bytes(plan))
    if len(usable) != len(entries):
        raise ValueError(f"{len(usable)} usable flags for a plan of {len(entries)} Novels")
    found: list[Counted] = []
    if not holdings.hand_size:
        return found
    # Every cited Masterpiece of another player costs a gift card, so a publish uses at
    # most the whole hand plus the player's own Masterpieces (R4, R5).
    max_size = holdings.hand_size + holdings.own_total
    for index, (kind, a, b, size) in enumerate(entries):
        if not usable[index] or size > max_size:
            continue  # R6: first come, first served, and one copy per player
        groups = plan_groups(holdings, kind, a, b, first)
        if kind == _TOTAL and measure is _payable:
            # The Total search finds only the multisets the hand can pay for.
            found.extend([(index, ranks, needs, 1) for ranks, needs in groups])
            continue
        for ranks, needs in groups:
            measured = measure(holdings, ranks, needs)
            if measured:
                found.append((index, ranks, needs, measured))
                if first:
                    break
    return found


def _publish_counts_py(
    table: bytes | bytearray, player: int, usable: bytes, plan: bytes, first: bool
) -> list[Counted]:
    """The ``publish_counts`` kernel in Python: a position's publish segments (R4-R7).

    For the player's hand and every Masterpiece in the card ``table``, per
    entry of ``plan`` (:func:`~pastiche_core.engine.feasibility.kernel_plan`) whose
    ``usable`` flag is set (R6) and whose size the hand and own Masterpieces
    can reach (R5), every rank multiset with a publish, in the pattern's
    order, as ``(plan index, ranks, needs, count)``; only each Novel's first
    with ``first`` (whether it has one).

    >>> from pastiche_core.engine.feasibility import kernel_plan
    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> plan = kernel_plan(game.catalogue)
    >>> from pastiche_core.engine.game_internals import insides
    >>> _publish_counts_py(insides(game).card_table, 0, bytes([1] * 10), plan, False)
    []
    """
    return _plan_segments(numbers_of(bytes(table), player), usable, plan, first, _count_group)


publish_counts = kernel("publish_counts", _publish_counts_py)
"""The publish segments of a position: ``publish_counts(table, player, usable, plan, first)``."""


def as_segment(
    ranks: Iterable[int], needs: Iterable[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A segment's ``ranks`` and ``needs`` read as the compiled twins read them, before any
    work: sequences (else ``TypeError``) of one length (else ``ValueError``).

    >>> as_segment([7], [3, 1])
    Traceback (most recent call last):
    ...
    ValueError: ranks and needs of different lengths
    """
    ranks_read, needs_read = tuple(ranks), tuple(needs)
    if len(ranks_read) != len(needs_read):
        raise ValueError("ranks and needs of different lengths")
    return ranks_read, needs_read


def _segment_count_py(
    table: bytes | bytearray, player: int, ranks: Sequence[int], needs: Sequence[int]
) -> int:
    """The ``segment_count`` kernel in Python: the publishes of one rank multiset (R4, R5).

    The moves of a segment of a usable Novel in the position of the card
    ``table``: ``needs[i]`` cards of rank ``ranks[i]`` (ascending), from the
    player's hand and the Masterpieces.

    >>> from pastiche_core.engine.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> _segment_count_py(table, 0, [7], [3])
    1
    """
    read_ranks, read_needs = as_segment(ranks, needs)
    return _count_group(numbers_of(bytes(table), player), read_ranks, read_needs)


segment_count = kernel("segment_count", _segment_count_py)
"""The publishes of one rank multiset: ``segment_count(table, player, ranks, needs)``."""


def payable_groups(
    holdings: Holdings, usable: bytes, plan: bytes, first: bool
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """The rank multisets with a publish, as :data:`publish_counts` lists them, uncounted.

    Per usable entry of ``plan`` (R6), ``(plan index, ranks, needs)`` of every
    multiset the hand can pay for (R4, R5: the closed-form cost test, which
    holds exactly when the multiset has a publish), in the pattern's order;
    only each Novel's first with ``first``. Cheaper than counting when only
    whether, not how many, matters; :func:`holdings` reads them from a card table.

    >>> from pastiche_core.engine.feasibility import kernel_plan
    >>> from pastiche_core.engine.layout import card_table
    >>> from pastiche_core import Catalogue, parse_cards
    >>> table = card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> plan = kernel_plan(Catalogue.default())
    >>> payable_groups(holdings(table, 0), bytes([1] * 10), plan, True)
    [(4, (7,), (3,))]
    """
    found = _plan_segments(holdings, usable, plan, first, _payable)
    return [(index, ranks, needs) for index, ranks, needs, _ in found]


def holdings(table: bytes | bytearray, player: int) -> Holdings:
    """The :class:`Holdings` of ``player`` in the position of a card table.

    >>> from pastiche_core.engine.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={1: parse_cards("SCI7 HOR7")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> holdings(table, 1).hand_size
    2
    """
    return numbers_of(bytes(table), player)


def _straights(length: int, pool: Sequence[int]) -> Iterator[Group]:
    """The runs of ``length`` ranks all in ``pool`` (as :meth:`Straight.combinations`), grouped."""
    ones = (1,) * length
    run = 0
    for rank in range(1, 14):
        run = run + 1 if pool[rank] else 0
        if run >= length:
            yield tuple(range(rank - length + 1, rank + 1)), ones


def rank_groups(combo: tuple[int, ...]) -> Group:
    """A sorted rank multiset as its distinct ranks and how many of each."""
    ranks: list[int] = []
    needs: list[int] = []
    previous = 0
    for rank in combo:
        if rank == previous:
            needs[-1] += 1
        else:
            ranks.append(rank)
            needs.append(1)
            previous = rank
    return tuple(ranks), tuple(needs)
