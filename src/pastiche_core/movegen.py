"""Legal move generation that counts and indexes without enumerating.

The legal moves of a decision are a list of *segments*. A segment knows how many
moves it holds, yields them in a fixed order and decodes the i-th one directly,
so ``len(game.legal_moves)`` and ``game.legal_moves[i]`` cost no enumeration,
even in positions with millions of card-level publishes.

A publish segment fixes the Novel and the rank multiset. Its moves differ by
*shape* — per rank, how many cards come from the hand and how many Masterpieces
of each owner are cited — and, inside a shape, by which hand cards, which
Masterpieces and which gift cards. Counting works on numbers alone (how many
cards of a rank are in hand, how many Masterpieces of that rank each owner has),
so it is cached across positions.

A position is read from its card table (:mod:`pastiche_core.layout`): the
counting kernels below (``publish_counts``, ``segment_count``,
``decode_publish``) take the table, the player, and for the counts the usable
flags (R6) and the catalogue's plan, and have compiled twins
(:mod:`pastiche_core._kernels`). A catalogue with a pattern of a kind the
kernels do not know has no plan: its segments are counted by the same rules,
rank multiset by rank multiset (:func:`publish_segments`).

>>> from pastiche_core import Game
>>> legal = Game(players=3, seed=7).legal_moves
>>> len(legal), legal[3] == list(legal)[3]
(4, True)
"""

from __future__ import annotations

import array
import bisect
import functools
import itertools
import math
import operator
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ._kernels import kernel
from .cards import DECK, Card
from .feasibility import (
    KIND_CODES,
    Entry,
    PayableTotals,
    RankKey,
    Shape,
    cost_finish,
    cost_floor,
    cost_tally,
    gift_count,
    gift_ways,
    kernel_plan,
    mark_own,
    owed_pairs,
    pattern_code,
    rank_cost,
    rank_shapes,
    rank_table,
    usable_flags,
)
from .layout import CARDS, HAND, MASTER, SEAT_MASK
from .limits import MAX_OF_A_KIND, MAX_PAIRS, MAX_PATTERN_CARDS
from .moves import Gift, Keep, Move, NovelRef, Publish, Read
from .patterns import OfAKind, Pairs, Straight, Total
from .rules import KEEP_SIZE

if TYPE_CHECKING:
    from .catalogue import Catalogue

__all__ = [
    "Holdings",
    "KeepSegment",
    "ListSegment",
    "PublishSegment",
    "ReadSegment",
    "clear_caches",
    "decode_publish",
    "gift_assignments",
    "holdings",
    "payable_groups",
    "publish_counts",
    "publish_segments",
    "segment_count",
    "unrank_combination",
]

_T = TypeVar("_T")
_INDEX = operator.attrgetter("index")
_REF_KEY = operator.attrgetter("owner", "novel")  # NovelRef's order
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
class _Numbers:
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
def _numbers(table: bytes, player: int) -> _Numbers:
    """The numbers of the position of ``table`` for ``player``, made once per table (the
    kernels of one position share them; only the last few positions are kept)."""
    return _Numbers(table, player)


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
def _count_group(numbers: _Numbers, ranks: Sequence[int], needs: Sequence[int]) -> int:
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


def _plan_groups(
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

    The closed form of :func:`~pastiche_core.feasibility.least_cost` (its
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
        groups = _plan_groups(holdings, kind, a, b, first)
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
    entry of ``plan`` (:func:`~pastiche_core.feasibility.kernel_plan`) whose
    ``usable`` flag is set (R6) and whose size the hand and own Masterpieces
    can reach (R5), every rank multiset with a publish, in the pattern's
    order, as ``(plan index, ranks, needs, count)``; only each Novel's first
    with ``first`` (whether it has one).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> plan = kernel_plan(game.catalogue)
    >>> from pastiche_core.game_internals import insides
    >>> _publish_counts_py(insides(game).card_table, 0, bytes([1] * 10), plan, False)
    []
    """
    return _plan_segments(_numbers(bytes(table), player), usable, plan, first, _count_group)


publish_counts = kernel("publish_counts", _publish_counts_py)
"""The publish segments of a position: ``publish_counts(table, player, usable, plan, first)``."""


def _segment(ranks: Iterable[int], needs: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A segment's ``ranks`` and ``needs`` read as the compiled twins read them, before any
    work: sequences (else ``TypeError``) of one length (else ``ValueError``).

    >>> _segment([7], [3, 1])
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

    >>> from pastiche_core.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> _segment_count_py(table, 0, [7], [3])
    1
    """
    read_ranks, read_needs = _segment(ranks, needs)
    return _count_group(_numbers(bytes(table), player), read_ranks, read_needs)


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

    >>> from pastiche_core.layout import card_table
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

    >>> from pastiche_core.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={1: parse_cards("SCI7 HOR7")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> holdings(table, 1).hand_size
    2
    """
    return _numbers(bytes(table), player)


def publish_segments(
    table: bytes,
    player: int,
    supply: Mapping[str, int],
    held: Collection[str],
    catalogue: Catalogue,
    usable: bytes | None = None,
) -> list[PublishSegment]:
    """The non-empty publish segments of ``player`` (R4–R7), in catalogue order.

    ``table`` is the position's card table (:mod:`pastiche_core.layout`);
    ``supply`` the copies left of each Novel and ``held`` the Novels on the
    player's table (R6); ``usable``, when given, their :func:`usable_flags`
    (a game keeps them between changes). A catalogue with a plan is counted by the
    ``publish_counts`` kernel; one with a pattern of another kind Novel by
    Novel, each rank multiset by ``segment_count``.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> from pastiche_core.game_internals import insides
    >>> publish_segments(insides(game).card_table, 0, game.supply, (), game.catalogue)
    []
    """
    if usable is None:
        usable = usable_flags(catalogue, supply, held)
    publishable = catalogue.publishable
    plan = kernel_plan(catalogue)
    if plan is not None:
        found = publish_counts(table, player, usable, plan, False)
        if not found:
            return []
        context = _Context(table, player, catalogue)
        return [
            PublishSegment(publishable[index].id, ranks, needs, context, count)
            for index, ranks, needs, count in found
        ]
    context = _Context(table, player, catalogue)
    numbers = _numbers(table, player)
    if not numbers.hand_size:
        return []
    max_size = numbers.hand_size + numbers.own_total
    segments: list[PublishSegment] = []
    for index, spec in enumerate(publishable):
        pattern = spec.pattern
        assert pattern is not None  # publishable
        size = pattern.size
        if not usable[index] or (size is not None and size > max_size):
            continue  # R6, and R5 as above
        code = pattern_code(pattern)
        groups: Iterable[Group]
        if code is None:
            groups = map(_grouped, pattern.combinations(numbers.pool))
        else:
            groups = _plan_groups(numbers, *code)
        for ranks, needs in groups:
            if numbers.in_hand.isdisjoint(ranks):
                continue  # R4, before calling the kernel
            count = segment_count(table, player, ranks, needs)
            if count:
                segments.append(PublishSegment(spec.id, ranks, needs, context, count))
    return segments


# ----------------------------------------------------------------------------
# The publish of an index
# ----------------------------------------------------------------------------
class _Walk:
    """The shapes of one rank multiset in one position, and their completions (R4, R5).

    Moves come shape by shape; inside a shape they are a mixed-radix product of
    the hand-card choices per rank, then the Masterpiece choices per (rank,
    owner), then the gifts per owner, each in :func:`itertools.combinations`
    order (the last choice varies fastest). Hand cards and Masterpieces are
    taken in card order.
    """

    __slots__ = ("_floor", "_memo", "limit", "needs", "numbers", "options", "ranks")

    def __init__(self, numbers: _Numbers, ranks: Sequence[int], needs: Sequence[int]) -> None:
        self.numbers = numbers
        self.ranks = ranks
        self.needs = needs
        self.limit = numbers.hand_size
        self.options = [rank_shapes(key) for key in numbers.keys(ranks, needs)]
        self._memo: dict[int, int] = {}
        # Per index, the fewest hand cards the ranks from there on cost (R5): a choice
        # with less room left has no completion.
        self._floor = cost_floor(ranks, needs, numbers.own)

    def completions(self, index: int, played: int, code: int, owed: int) -> int:
        """Moves that complete a choice of the ranks before ``index`` (R4, R5).

        The choice so far plays ``played`` hand cards and owes gifts ``code``
        (per owner, packed; ``owed`` in all).
        """
        options = self.options
        limit = self.limit
        following = index + 1
        if following >= len(options):
            if index == len(options):
                if not played:
                    return 0  # R4: pastiche alone is not a publish
                return gift_ways(limit - played, code)
            # The last rank: count the gifts at once (not worth remembering).
            found = 0
            room = limit - played - owed  # R5: every gift is a card of the hand
            for from_hand, _, weight, step, extra in options[index]:
                if from_hand + extra <= room and played + from_hand:
                    found += weight * gift_ways(limit - played - from_hand, code + step)
            return found
        key = (code << 16) | (played << 8) | index
        memo = self._memo
        cached = memo.get(key)
        if cached is None:
            found = 0
            room = limit - played - owed  # R5: every gift is a card of the hand
            if self._floor[index] > room:
                return 0  # R5: the gifts could no longer all be paid
            if following == len(options) - 1:  # the last two ranks: no calls for the last
                last_shapes = options[following]
                for from_hand, _, weight, step, extra in options[index]:
                    if from_hand + extra > room:
                        continue
                    now, stepped, left = played + from_hand, code + step, room - from_hand - extra
                    inner = 0
                    for hand_last, _, weight_last, step_last, extra_last in last_shapes:
                        if hand_last + extra_last <= left and now + hand_last:
                            inner += weight_last * gift_ways(
                                limit - now - hand_last, stepped + step_last
                            )
                    found += weight * inner
            else:
                for from_hand, _, weight, step, extra in options[index]:
                    if from_hand + extra <= room:
                        found += weight * self.completions(
                            following, played + from_hand, code + step, owed + extra
                        )
            memo[key] = found
            return found
        return cached

    def shapes(self) -> Iterator[tuple[tuple[Shape, ...], tuple[tuple[int, int], ...]]]:
        """(shape per rank, gifts owed per owner) of every shape that plays a hand card."""
        options = self.options
        limit = self.limit
        chosen: list[Shape] = []
        last = len(options)

        def walk(
            index: int, played: int, owed: int, owed_total: int
        ) -> Iterator[tuple[tuple[Shape, ...], tuple[tuple[int, int], ...]]]:
            if index == last:
                if played:
                    yield tuple(chosen), owed_pairs(owed)
                return
            for shape in options[index]:
                from_hand, _, _, code, extra = shape
                if played + from_hand + owed_total + extra > limit:
                    continue
                chosen.append(shape)
                yield from walk(index + 1, played + from_hand, owed + code, owed_total + extra)
                chosen.pop()

        yield from walk(0, 0, 0, 0)

    def parts(self, shapes: Sequence[Shape]) -> tuple[list[tuple[Sequence[int], int]], int]:
        """The choice dimensions of a shape: hand cards per rank, then Masterpieces per owner."""
        numbers = self.numbers
        parts: list[tuple[Sequence[int], int]] = []
        for rank, (from_hand, _, _, _, _) in zip(self.ranks, shapes, strict=True):
            if from_hand:
                parts.append((numbers.hand_of_rank(rank), from_hand))
        hand_parts = len(parts)
        for rank, (_, cited, _, _, _) in zip(self.ranks, shapes, strict=True):
            for owner, taken in enumerate(cited):
                if taken:
                    parts.append((numbers.masterpieces[(rank, owner)], taken))
        return parts, hand_parts

    def decode(self, index: int) -> Decoded:
        """The publish of ``index``: a descent rank by rank over the completion counts."""
        if index < 0:
            raise IndexError(index)
        options = self.options
        limit = self.limit
        chosen: list[Shape] = []
        played = code = owed = 0
        ways = 1
        for rank_index, shapes in enumerate(options):
            room = limit - played - owed
            for shape in shapes:
                from_hand, _, weight, step, extra = shape
                if from_hand + extra > room:
                    continue
                block = (
                    ways
                    * weight
                    * self.completions(
                        rank_index + 1, played + from_hand, code + step, owed + extra
                    )
                )
                if index < block:
                    chosen.append(shape)
                    ways *= weight
                    played += from_hand
                    code += step
                    owed += extra
                    break
                index -= block
            else:
                raise IndexError("publish index out of the segment's range")
        if not played:
            raise IndexError("publish index out of the segment's range")
        pairs = owed_pairs(code)
        return self._pick(chosen, pairs, gift_count(limit - played, pairs), index)

    def _pick(
        self,
        shapes: Sequence[Shape],
        owed: Sequence[tuple[int, int]],
        gift_total: int,
        index: int,
    ) -> Decoded:
        """The cards of the ``index``-th move of a shape (mixed radix, the gifts fastest)."""
        parts, hand_parts = self.parts(shapes)
        index, gift_index = divmod(index, gift_total)
        picked: list[list[int]] = [[] for _ in parts]
        for slot in range(len(parts) - 1, -1, -1):
            items, k = parts[slot]
            size = len(items)
            if k == size:  # every item: no choice, no digit
                picked[slot] = list(items)
                continue
            index, digit = divmod(index, math.comb(size, k))
            picked[slot] = unrank_combination(items, k, digit)
        played = sorted([card for group in picked[:hand_parts] for card in group])
        cited = sorted([card for group in picked[hand_parts:] for card in group])
        if not owed:
            return tuple(played), tuple(cited), ()
        chosen = set(played)
        rest = [card for card in self.numbers.hand if card not in chosen]
        sizes = []
        left = len(rest)
        for _, count in owed:
            sizes.append(math.comb(left, count))
            left -= count
        digits = [0] * len(sizes)
        for slot in range(len(sizes) - 1, -1, -1):
            gift_index, digits[slot] = divmod(gift_index, sizes[slot])
        gifts: list[tuple[int, int]] = []
        for (owner, count), digit in zip(owed, digits, strict=True):
            taken = unrank_combination(rest, count, digit)
            gifts.extend((owner, card) for card in taken)
            rest = [card for card in rest if card not in taken]
        return tuple(played), tuple(cited), tuple(gifts)


@functools.lru_cache(maxsize=16)
def _walk_of(table: bytes, player: int, ranks: tuple[int, ...], needs: tuple[int, ...]) -> _Walk:
    """The walk of one segment, made once (its completion counts are remembered)."""
    return _Walk(_numbers(table, player), ranks, needs)


def _decode_publish_py(
    table: bytes | bytearray, player: int, ranks: Sequence[int], needs: Sequence[int], index: int
) -> Decoded:
    """The ``decode_publish`` kernel in Python: the ``index``-th publish of a segment.

    The segment of ``needs[i]`` cards of rank ``ranks[i]`` in the position of
    the card ``table``, in :class:`PublishSegment`'s order; the publish as card
    indexes (:data:`Decoded`). An index outside the segment raises
    :class:`IndexError`.

    >>> from pastiche_core.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> _decode_publish_py(table, 0, [7], [3], 0)
    ((18, 24, 30), (), ())
    """
    walk = _walk_of(bytes(table), player, *_segment(ranks, needs))
    return walk.decode(operator.index(index))  # an integer, as the C reads it


decode_publish = kernel("decode_publish", _decode_publish_py)
"""A segment's publish of an index: ``decode_publish(table, player, ranks, needs, index)``."""


# ----------------------------------------------------------------------------
# Segments
# ----------------------------------------------------------------------------
class ListSegment:
    """A plain list of moves."""

    __slots__ = ("count", "moves")

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = moves
        self.count = len(moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def at(self, index: int) -> Move:
        """The move of ``index``.

        >>> from pastiche_core import Move
        >>> ListSegment([Move.parse("draw")]).at(0)
        Move.parse('draw')
        """
        return self.moves[index]


class ReadSegment:
    """The Reads of the Published novels (R11): one per card under each, novel by novel.

    One segment holds every Read of a position, so that counting and indexing
    the legal moves walk one segment, not one per novel.

    >>> from pastiche_core import parse_cards
    >>> reads = ReadSegment([(1, "kind-3", tuple(parse_cards("SCI7 HOR7"))),
    ...                      (2, "pairs-2", tuple(parse_cards("MAG8 MAG9 LOV4 LOV5")))])
    >>> reads.count, str(reads.at(1)), str(reads.at(2)), str(list(reads)[-1])
    (6, 'read 1:kind-3 HOR7', 'read 2:pairs-2 MAG8', 'read 2:pairs-2 LOV5')
    """

    __slots__ = ("_starts", "count", "novels")

    def __init__(self, novels: Sequence[tuple[int, str, tuple[Card, ...]]]) -> None:
        self.novels = novels
        """``(owner, novel, cards)`` of each Published novel, in table order."""
        starts = list(itertools.accumulate([len(cards) for _, _, cards in novels], initial=0))
        self.count = starts.pop()
        self._starts = starts

    def __iter__(self) -> Iterator[Read]:
        for owner, novel, cards in self.novels:
            ref = NovelRef(owner, novel)  # made when a Read is, not for every position
            yield from (Read(ref, card) for card in cards)

    def at(self, index: int) -> Read:
        """The Read of ``index``."""
        at = bisect.bisect_right(self._starts, index) - 1
        owner, novel, cards = self.novels[at]
        return Read(NovelRef(owner, novel), cards[index - self._starts[at]])


class KeepSegment:
    """The setup keeps of a hand (R10, R15), counted and indexed without being listed.

    Kept cards go by combinations of the sorted hand; a seat that discards
    two or more cards also chooses their order (R15), so every order counts:
    ``C(n, 3) * (n - 3)!`` moves for ``n`` cards beyond four, ``C(n, 3)`` up to
    four. The count is that closed form and :meth:`at` decodes an index
    directly, so a hand no deal gives (a composed position) is never listed.

    >>> from pastiche_core import parse_cards
    >>> segment = KeepSegment(parse_cards("SCI9 MYT1 HOR7 LOV2 FAN12"))
    >>> segment.count, str(segment.at(1)), str(segment.at(19))
    (20, 'keep MYT1 LOV2 SCI9 discard FAN12 HOR7', 'keep SCI9 HOR7 FAN12 discard LOV2 MYT1')
    >>> KeepSegment(parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5 FAN6 MAG7 MAG8 MAG9 MAG10 MAG11 MAG12")).count
    79833600
    """

    __slots__ = ("cards", "count", "orders")

    def __init__(self, hand: Iterable[Card]) -> None:
        self.cards = sorted(hand)
        dropped = len(self.cards) - KEEP_SIZE
        self.orders = math.factorial(dropped) if dropped >= 2 else 1
        self.count = math.comb(len(self.cards), KEEP_SIZE) * self.orders

    def __iter__(self) -> Iterator[Keep]:
        cards = self.cards
        for kept in itertools.combinations(cards, KEEP_SIZE):
            dropped = [card for card in cards if card not in kept]
            if len(dropped) < 2:
                yield Keep(kept)
            else:  # R15: a seat that discards two or more chooses their order
                for order in itertools.permutations(dropped):
                    yield Keep(kept, order)

    def at(self, index: int) -> Keep:
        """The keep of ``index``, in the order of iteration.

        >>> from pastiche_core import parse_cards
        >>> segment = KeepSegment(parse_cards("SCI9 MYT1 HOR7 LOV2"))
        >>> [str(segment.at(i)) for i in range(segment.count)] == [str(m) for m in segment]
        True
        """
        if not 0 <= index < self.count:
            raise IndexError(index)
        combination, order = divmod(index, self.orders)
        kept = unrank_combination(self.cards, KEEP_SIZE, combination)
        dropped = [card for card in self.cards if card not in kept]
        if len(dropped) < 2:
            return Keep(tuple(kept))
        ordered = []
        for left in range(len(dropped) - 1, -1, -1):  # itertools.permutations order
            place, order = divmod(order, math.factorial(left))
            ordered.append(dropped.pop(place))
        return Keep(tuple(kept), tuple(ordered))


class _Context:
    """What the publish segments of one position share: its card table, player and catalogue."""

    __slots__ = ("catalogue", "player", "table")

    def __init__(self, table: bytes, player: int, catalogue: Catalogue) -> None:
        self.table = table
        self.player = player
        self.catalogue = catalogue


class PublishSegment:
    """The card-level publishes of one Novel and one rank multiset.

    Moves come shape by shape (:class:`_Walk`); :meth:`at` decodes an index in
    that order with the ``decode_publish`` kernel. The count comes with the
    segment (:func:`publish_segments`); the shapes are made only when a move
    is decoded or listed.
    """

    __slots__ = ("context", "count", "needs", "novel", "ranks")

    def __init__(
        self,
        novel: str,
        ranks: Sequence[int],
        needs: Sequence[int],
        context: _Context,
        count: int,
    ) -> None:
        self.novel = novel
        self.ranks = ranks
        self.needs = needs
        self.context = context
        self.count = count

    def _publish(
        self, played: Iterable[int], cited: Iterable[int], gifts: Iterable[tuple[int, int]]
    ) -> Publish:
        """The move of these card indexes, sorted as Publish stores them (no checks needed)."""
        context = self.context
        table, specs = context.table, context.catalogue.specs
        refs = sorted(
            [NovelRef(table[card] & SEAT_MASK, specs[table[CARDS + card]].id) for card in cited],
            key=_REF_KEY,
        )
        return Publish.canonical(
            self.novel,
            tuple([DECK[card] for card in played]),
            tuple(refs),
            tuple([Gift(owner, DECK[card]) for owner, card in gifts]),
        )

    def __iter__(self) -> Iterator[Publish]:
        context = self.context
        table, specs, novel = context.table, context.catalogue.specs, self.novel
        walk = _walk_of(bytes(table), context.player, tuple(self.ranks), tuple(self.needs))
        hand = [DECK[card] for card in walk.numbers.hand]
        canonical = Publish.canonical
        for shapes, owed in walk.shapes():
            parts, hand_parts = walk.parts(shapes)
            items: list[tuple[Sequence[Any], int]] = [
                ([DECK[card] for card in cards], k) for cards, k in parts[:hand_parts]
            ]
            items += [
                ([NovelRef(table[c] & SEAT_MASK, specs[table[CARDS + c]].id) for c in cards], k)
                for cards, k in parts[hand_parts:]
            ]
            for picked in itertools.product(*(itertools.combinations(i, k) for i, k in items)):
                played = tuple(sorted([card for group in picked[:hand_parts] for card in group]))
                cited = tuple(
                    sorted([ref for group in picked[hand_parts:] for ref in group], key=_REF_KEY)
                )
                if not owed:
                    yield canonical(novel, played, cited, ())
                    continue
                rest = [card for card in hand if card not in played]
                for gifts in gift_assignments(rest, owed):
                    yield canonical(novel, played, cited, gifts)

    def at(self, index: int) -> Publish:
        """The publish of ``index``, in the order of iteration (the ``decode_publish`` kernel).

        >>> from pastiche_core import Catalogue, parse_cards
        >>> from pastiche_core.layout import card_table
        >>> table = bytes(card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")},
        ...                          tables=[{}, {}], novel_position={}))
        >>> [segment] = publish_segments(table, 0, {"kind-3": 5}, (), Catalogue.default())
        >>> segment.count, segment.at(0)
        (1, Move.parse('publish kind-3 SCI7 HOR7 MYS7'))
        """
        if not 0 <= index < self.count:
            raise IndexError(index)
        context = self.context
        return self._publish(
            *decode_publish(context.table, context.player, self.ranks, self.needs, index)
        )


Segment = ListSegment | ReadSegment | PublishSegment | KeepSegment


def _straights(length: int, pool: Sequence[int]) -> Iterator[Group]:
    """The runs of ``length`` ranks all in ``pool`` (as :meth:`Straight.combinations`), grouped."""
    ones = (1,) * length
    run = 0
    for rank in range(1, 14):
        run = run + 1 if pool[rank] else 0
        if run >= length:
            yield tuple(range(rank - length + 1, rank + 1)), ones


def _grouped(combo: tuple[int, ...]) -> Group:
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


def clear_caches() -> None:
    """Empty the counting caches, e.g. so a benchmark starts every run cold.

    >>> clear_caches()
    """
    gift_ways.cache_clear()
    rank_shapes.cache_clear()
    rank_table.cache_clear()
    owed_pairs.cache_clear()
    _numbers.cache_clear()
    _walk_of.cache_clear()


def unrank_combination(items: Sequence[_T], k: int, index: int) -> list[_T]:
    """The ``index``-th ``k``-combination of ``items`` in :func:`itertools.combinations` order.

    >>> unrank_combination("abcd", 2, 4) == list(list(itertools.combinations("abcd", 2))[4])
    True
    """
    n = len(items)
    if k == n:  # every item: one combination
        return list(items)
    if k == 1:
        return [items[index]]
    chosen: list[_T] = []
    start = 0
    for slot in range(k):
        for i in range(start, n):
            block = math.comb(n - i - 1, k - slot - 1)
            if index < block:
                chosen.append(items[i])
                start = i + 1
                break
            index -= block
    return chosen


def gift_assignments(
    cards: Sequence[Card], owed: Sequence[tuple[int, int]]
) -> Iterator[tuple[Gift, ...]]:
    """Every way to give ``owed`` = ((owner, count), ...) gifts from ``cards`` (R5).

    >>> from pastiche_core import parse_cards
    >>> [" ".join(map(str, gifts)) for gifts in gift_assignments(parse_cards("SCI7 HOR7"), [(1, 1)])]
    ['1:SCI7', '1:HOR7']
    """
    if not owed:
        yield ()
        return
    (owner, count), rest_owed = owed[0], owed[1:]
    for chosen in itertools.combinations(cards, count):
        remaining = [c for c in cards if c not in chosen]
        for tail in gift_assignments(remaining, rest_owed):
            yield tuple(Gift(owner, card) for card in chosen) + tail
