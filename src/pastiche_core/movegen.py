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

>>> from pastiche_core import Game
>>> legal = Game(players=3, seed=7).legal_moves
>>> len(legal), legal[3] == list(legal)[3]
(4, True)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import operator
import os
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from .cards import Card
from .feasibility import (
    Entry,
    PayableTotals,
    RankKey,
    Shape,
    cost_floor,
    gift_count,
    gift_ways,
    mark_own,
    owed_pairs,
    pattern_code,
    rank_shapes,
    rank_table,
)
from .moves import Gift, Move, NovelRef, Publish, Read
from .patterns import OfAKind, Pairs, Pattern, Straight, Total

if TYPE_CHECKING:
    from .catalogue import Catalogue, NovelSpec

# The compiled twins of the counting kernels below, when the package was built with them
# (a C compiler at install) and PASTICHE_PURE_PYTHON is not set.
_speedups: ModuleType | None = None
if not os.environ.get("PASTICHE_PURE_PYTHON"):
    with contextlib.suppress(ImportError):  # a build without a C compiler
        from . import _legacy as _speedups  # transitional: the kernels not yet moved

__all__ = ["clear_caches", "compiled_kernels"]

_T = TypeVar("_T")
_INDEX = operator.attrgetter("index")
_REF_KEY = operator.attrgetter("owner", "novel")  # NovelRef's order

# One way to fill one rank: (cards from the hand, Masterpieces cited per owner,
# number of concrete card and Masterpiece choices, gifts owed as a packed code, their sum).
# What a rank needs and offers: (cards needed, cards of the rank in hand,
# Masterpieces of the rank per owner).
# One rank's choices for counting: (hand cards and gifts it costs, state step, ways).


class ListSegment:
    """A plain list of moves."""

    __slots__ = ("count", "moves")

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = moves
        self.count = len(moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def at(self, index: int) -> Move:
        return self.moves[index]


class ReadSegment:
    """The Reads of one Published novel, one per card under it."""

    __slots__ = ("cards", "count", "novel", "owner")

    def __init__(self, owner: int, novel: str, cards: tuple[Card, ...]) -> None:
        self.owner = owner
        self.novel = novel
        self.cards = cards
        self.count = len(cards)

    @property
    def ref(self) -> NovelRef:
        """The novel read (made when a Read is, not for every position)."""
        return NovelRef(self.owner, self.novel)

    def __iter__(self) -> Iterator[Read]:
        ref = self.ref
        return (Read(ref, card) for card in self.cards)

    def at(self, index: int) -> Read:
        return Read(self.ref, self.cards[index])


class PublishSegment:
    """The card-level publishes of one Novel and one rank multiset.

    Moves come shape by shape; inside a shape they are a mixed-radix product of
    the hand-card choices per rank, then the Masterpiece choices per (rank,
    owner), then the gifts per owner, each in :func:`itertools.combinations`
    order (the last choice varies fastest). :meth:`at` decodes an index in that
    order. Shapes that play no card (R4) or cannot pay their gifts (R5) are
    pruned as soon as they are known to fail.

    The count comes with the segment (:func:`publish_segments` counts it rank
    by rank, merging the choices by cards played and gifts owed); the shapes
    themselves are made only when a move is decoded or listed. :meth:`at` then
    counts the completions of each choice so far, each (rank, cards played,
    gifts owed) once, and finds the shape of an index by descending them, rank
    by rank, without walking the shapes before it.
    """

    __slots__ = (
        "_floor",
        "_memo",
        "_options",
        "context",
        "count",
        "limit",
        "needs",
        "novel",
        "ranks",
    )

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
        self.limit = len(context.hand)
        self.count = count
        self._memo: dict[int, int] = {}
        self._options: list[tuple[Shape, ...]] | None = None
        # Per index, the fewest hand cards the ranks from there on cost (R5): a
        # choice with less room left has no completion (made by the first decode).
        self._floor: list[int] = []

    @property
    def options(self) -> list[tuple[Shape, ...]]:
        """Per rank, every way to fill it (made when a move is decoded or listed)."""
        options = self._options
        if options is None:
            options = self._options = [
                rank_shapes(key) for key in self.context.keys(self.ranks, self.needs)
            ]
        return options

    @property
    def hand(self) -> set[Card]:
        """The hand of the player to move."""
        return self.context.hand

    @property
    def mp_by_rank(self) -> _Masterpieces:
        """The hand cards and Masterpieces by rank."""
        return self.context.masterpieces

    def _completions(self, index: int, played: int, code: int, owed: int) -> int:
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
                        found += weight * self._completions(
                            following, played + from_hand, code + step, owed + extra
                        )
            memo[key] = found
            return found
        return cached

    def _shapes(self) -> Iterator[tuple[tuple[Shape, ...], tuple[tuple[int, int], ...], int, int]]:
        """(shape per rank, gifts owed per owner, moves in the shape, ways to give the gifts)."""
        options = self.options
        limit = self.limit
        chosen: list[Shape] = []
        last = len(options)

        def walk(
            index: int, played: int, owed: int, owed_total: int, ways: int
        ) -> Iterator[tuple[tuple[Shape, ...], tuple[tuple[int, int], ...], int, int]]:
            if index == last:
                if played:
                    pairs = owed_pairs(owed)
                    gifts = gift_count(limit - played, pairs)
                    yield tuple(chosen), pairs, ways * gifts, gifts
                return
            for shape in options[index]:
                from_hand, _, weight, code, extra = shape
                if played + from_hand + owed_total + extra > limit:
                    continue
                chosen.append(shape)
                yield from walk(
                    index + 1, played + from_hand, owed + code, owed_total + extra, ways * weight
                )
                chosen.pop()

        yield from walk(0, 0, 0, 0, 1)

    def _parts(self, shapes: Sequence[Shape]) -> tuple[list[tuple[Sequence[Any], int]], int]:
        """The choice dimensions of a shape: hand cards per rank, then Masterpieces per owner."""
        parts: list[tuple[Sequence[Any], int]] = []
        for rank, (from_hand, _, _, _, _) in zip(self.ranks, shapes, strict=True):
            if from_hand:
                parts.append((self.mp_by_rank.hand(rank), from_hand))
        hand_parts = len(parts)
        for rank, (_, cited, _, _, _) in zip(self.ranks, shapes, strict=True):
            for owner, taken in enumerate(cited):
                if taken:
                    parts.append((self.mp_by_rank.refs(rank, owner), taken))
        return parts, hand_parts

    def __iter__(self) -> Iterator[Publish]:
        for shapes, owed, _, _ in self._shapes():
            parts, hand_parts = self._parts(shapes)
            for picked in itertools.product(*(itertools.combinations(i, k) for i, k in parts)):
                played = tuple(card for group in picked[:hand_parts] for card in group)
                cited = tuple(ref for group in picked[hand_parts:] for ref in group)
                if not owed:
                    yield Publish(self.novel, played, cited)
                    continue
                rest = sorted(self.hand.difference(played))
                for gifts in gift_assignments(rest, owed):
                    yield Publish(self.novel, played, cited, gifts)

    def at(self, index: int) -> Publish:
        if not 0 <= index < self.count:
            raise IndexError(index)
        context = self.context
        compiled = _speedups
        if compiled is not None and context.tables.__class__ is list:
            try:
                played, cited, gifts = compiled.decode_publish(
                    context.player, context.hand, context.tables, self.ranks, self.needs, index
                )
            except OverflowError:
                pass  # beyond the kernel's 64 bits or tables: decoded in Python
            else:
                # Sorted as Publish stores them (the cards come sorted, gifts owner by owner).
                refs = sorted([NovelRef(owner, novel) for owner, novel in cited], key=_REF_KEY)
                return Publish.canonical(
                    self.novel,
                    played,
                    tuple(refs),
                    tuple([Gift(owner, card) for owner, card in gifts]),
                )
        return self._at_py(index)

    def _at_py(self, index: int) -> Publish:
        """:meth:`at` in Python: the reference of the compiled descent."""
        if not self._floor:
            self._floor = cost_floor(self.ranks, self.needs, self.context.own)
        # Descend rank by rank: the moves of a choice so far are its completions
        # times the ways its cards can be chosen, and shapes come in walk order.
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
                    * self._completions(
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
        pairs = owed_pairs(code)
        return self._decode(chosen, pairs, gift_count(limit - played, pairs), index)

    def _decode(
        self,
        shapes: Sequence[Shape],
        owed: Sequence[tuple[int, int]],
        gift_ways: int,
        index: int,
    ) -> Publish:
        parts, hand_parts = self._parts(shapes)
        index, gift_index = divmod(index, gift_ways)
        picked: list[list[Any]] = [[] for _ in parts]
        for slot in range(len(parts) - 1, -1, -1):
            items, k = parts[slot]
            size = len(items)
            if k == size:  # every item: no choice, no digit
                picked[slot] = list(items)
                continue
            index, digit = divmod(index, math.comb(size, k))
            picked[slot] = unrank_combination(items, k, digit)
        # Sorted as Publish stores them, so the move is made without its checks.
        played = tuple(
            sorted([card for group in picked[:hand_parts] for card in group], key=_INDEX)
        )
        cited = tuple(sorted([ref for group in picked[hand_parts:] for ref in group], key=_REF_KEY))
        if not owed:
            return Publish.canonical(self.novel, played, cited, ())
        rest = sorted(self.hand.difference(played), key=_INDEX)
        sizes = []
        left = len(rest)
        for _, count in owed:
            sizes.append(math.comb(left, count))
            left -= count
        digits = [0] * len(sizes)
        for slot in range(len(sizes) - 1, -1, -1):
            gift_index, digits[slot] = divmod(gift_index, sizes[slot])
        gifts: list[Gift] = []
        for (owner, count), digit in zip(owed, digits, strict=True):
            taken = unrank_combination(rest, count, digit)
            gifts.extend(Gift(owner, card) for card in taken)
            rest = [card for card in rest if card not in taken]
        # Owner by owner, each one's cards in order: sorted as Gift orders them.
        return Publish.canonical(self.novel, played, cited, tuple(gifts))


Segment = ListSegment | ReadSegment | PublishSegment


class _Context:
    """What the publish segments of one position share: the hand, its ranks, the Masterpieces.

    The ranks and Masterpieces come either with it (the Python count made them)
    or, after the compiled count, from the position when a move is first decoded.
    """

    __slots__ = ("_h", "_marked", "_masterpieces", "_own", "hand", "player", "tables")

    def __init__(
        self,
        hand: set[Card],
        tables: Sequence[dict[str, tuple[Card, ...]]],
        player: int,
        made: tuple[Sequence[int], Sequence[int], dict[int, tuple[int, ...]]] | None = None,
    ) -> None:
        self.hand = hand
        self.tables = tables
        self.player = player
        self._masterpieces: _Masterpieces | None = None
        self._h: Sequence[int] | None = None
        self._own: Sequence[int] = ()
        self._marked: dict[int, tuple[int, ...]] = {}
        if made is not None:
            self._h, self._own, self._marked = made

    def _make(self) -> Sequence[int]:
        """The hand's cards per rank, own Masterpieces per rank, Masterpieces per rank and owner."""
        player = self.player
        h, own, by_rank = _ranks_of(player, self.hand, self.tables)
        self._h, self._own = h, own
        self._marked = {rank: mark_own(tuple(owners), player) for rank, owners in by_rank.items()}
        return h

    @property
    def masterpieces(self) -> _Masterpieces:
        """The hand cards and Masterpieces by rank, made when a move is first decoded."""
        found = self._masterpieces
        if found is None:
            found = self._masterpieces = _Masterpieces(self.hand, self.tables)
        return found

    @property
    def own(self) -> Sequence[int]:
        """The player's own Masterpieces per rank."""
        if self._h is None:
            self._make()
        return self._own

    def keys(self, ranks: Sequence[int], needs: Sequence[int]) -> list[RankKey]:
        """Per rank: (cards needed, cards of the rank in hand, Masterpieces per owner, marked)."""
        h = self._h if self._h is not None else self._make()
        marked, none = self._marked, (0,) * len(self.tables)
        return [
            (need, h[rank], marked.get(rank, none)) for rank, need in zip(ranks, needs, strict=True)
        ]


class _Fills(dict[int, tuple[Entry, ...]]):
    """Per ``rank * 64 + need``, the :func:`rank_table` of one position, made when first asked."""

    __slots__ = ("h", "marked", "none")

    def __init__(
        self, h: Sequence[int], marked: dict[int, tuple[int, ...]], none: tuple[int, ...]
    ) -> None:
        super().__init__()
        self.h = h
        self.marked = marked
        self.none = none

    def __missing__(self, key: int) -> tuple[Entry, ...]:
        rank, need = key >> 6, key & 63
        table = self[key] = rank_table((need, self.h[rank], self.marked.get(rank, self.none)))
        return table


class _Masterpieces:
    """The hand cards and the Masterpieces by rank (and owner), built only when a move is made."""

    __slots__ = ("_by_rank", "_hand", "_hand_by_rank", "_tables")

    def __init__(self, hand: set[Card], tables: Sequence[dict[str, tuple[Card, ...]]]) -> None:
        self._hand = hand
        self._tables = tables
        self._by_rank: dict[tuple[int, int], list[NovelRef]] | None = None
        self._hand_by_rank: dict[int, list[Card]] | None = None

    def hand(self, rank: int) -> list[Card]:
        """The hand cards of ``rank``, in card order."""
        if self._hand_by_rank is None:
            self._hand_by_rank = {}
            for card in sorted(self._hand, key=_INDEX):
                self._hand_by_rank.setdefault(card.rank, []).append(card)
        return self._hand_by_rank[rank]

    def refs(self, rank: int, owner: int) -> list[NovelRef]:
        """The Masterpieces of ``rank`` on ``owner``'s table, in table order."""
        if self._by_rank is None:
            self._by_rank = {}
        key = (rank, owner)
        found = self._by_rank.get(key)
        if found is None:  # only the refs a decoded move cites are made
            found = self._by_rank[key] = [
                NovelRef(owner, nid)
                for nid, cards in self._tables[owner].items()
                if len(cards) == 1 and cards[0].rank == rank
            ]
        return found


def _ranks_of(
    player: int, hand: set[Card], tables: Sequence[dict[str, tuple[Card, ...]]]
) -> tuple[list[int], list[int], dict[int, list[int]]]:
    """Per rank: the hand's cards, the player's own Masterpieces, the Masterpieces per owner.

    >>> from pastiche_core import Card
    >>> h, own, by_rank = _ranks_of(0, {Card.parse("SCI9")}, [{}, {"kind-3": (Card.parse("HOR9"),)}])
    >>> h[9], own[9], by_rank
    (1, 0, {9: [0, 1]})
    """
    players = len(tables)
    h = [0] * 14
    for card in hand:
        h[card.rank] += 1
    own = [0] * 14
    by_rank: dict[int, list[int]] = {}
    for owner, table in enumerate(tables):
        for cards in table.values():
            if len(cards) == 1:
                rank = cards[0].rank
                if rank not in by_rank:
                    by_rank[rank] = [0] * players
                by_rank[rank][owner] += 1
                if owner == player:
                    own[rank] += 1
    return h, own, by_rank


def publish_segments(
    player: int,
    hand: set[Card],
    tables: Sequence[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    catalogue: Catalogue,
) -> list[PublishSegment]:
    """The non-empty publish segments of ``player`` (R4–R7), in catalogue order.

    Counted by the compiled kernel when it is built and the catalogue's patterns
    are all built-in kinds, else (or beyond its 64 bits) by
    :func:`_publish_segments_py`, the reference it is tested against.
    """
    if not hand:
        return []
    found = _compiled_counts(player, hand, tables, supply, catalogue, first=False)
    if found is None:
        return _publish_segments_py(player, hand, tables, supply, catalogue)
    context = _Context(hand, tables, player)
    return [
        PublishSegment(novel, ranks, needs, context, count) for novel, ranks, needs, count in found
    ]


def publishable_novels(
    player: int,
    hand: set[Card],
    tables: list[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    catalogue: Catalogue,
) -> set[str] | None:
    """The Novels ``player`` can publish (R4–R7), from the compiled kernel alone.

    Each Novel's search stops at its first rank multiset with a publish. ``None``
    when the kernel is not built, the catalogue has a kind it does not count, or
    the position is beyond its 64 bits: callers then use their own test.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> found = publishable_novels(0, game._hands[0], game._tables, game.supply, game.catalogue)
    >>> found is None or found == set()
    True
    """
    found = _compiled_counts(player, hand, tables, supply, catalogue, first=True)
    return None if found is None else {novel for novel, _, _, _ in found}


def _compiled_counts(
    player: int,
    hand: set[Card],
    tables: Sequence[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    catalogue: Catalogue,
    *,
    first: bool,
) -> list[tuple[str, tuple[int, ...], tuple[int, ...], int]] | None:
    """The compiled kernel's segments (novel, ranks, needs, count), only each Novel's first if
    ``first``; ``None`` when it cannot answer: not built, a pattern kind it does not count, or
    beyond its 64 bits or tables (then Python counts)."""
    compiled = _speedups
    if compiled is None or tables.__class__ is not list:
        return None
    plan = _compiled_plan(catalogue)
    if plan is None:
        return None
    try:
        found: list[tuple[str, tuple[int, ...], tuple[int, ...], int]] = compiled.publish_counts(
            player, hand, tables, supply, plan, first
        )
    except OverflowError:
        return None
    return found


def _publish_segments_py(
    player: int,
    hand: set[Card],
    tables: Sequence[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    catalogue: Catalogue,
) -> list[PublishSegment]:
    """:func:`publish_segments` in Python (with the compiled per-segment count if built)."""
    if not hand:
        return []
    players = len(tables)
    h, own, by_rank = _ranks_of(player, hand, tables)
    counts = h.copy()
    for rank, owners in by_rank.items():
        counts[rank] += sum(owners)
    # Per rank, once: the Masterpieces per owner (the player's own marked as free,
    # R5) and whether another player's can be cited there.
    marked = {rank: mark_own(tuple(owners), player) for rank, owners in by_rank.items()}
    others = {rank for rank, owners in by_rank.items() if sum(owners) > owners[player]}
    no_masterpieces = (0,) * players
    pool = tuple(counts)
    hand_size = len(hand)
    held = tables[player]
    # Every cited Masterpiece of another player costs a gift card, so a publish
    # uses at most the whole hand plus the player's own Masterpieces (R4, R5).
    max_size = hand_size + sum(own)
    context = _Context(hand, tables, player, (h, own, marked))
    in_hand = {rank for rank in range(1, 14) if h[rank]}
    fills = _Fills(h, marked, no_masterpieces)
    compiled = _speedups
    if compiled is not None:
        by_rank_marked = [no_masterpieces] * 14  # the compiled kernel reads marked per rank
        for rank, per_owner in marked.items():
            by_rank_marked[rank] = per_owner
    payable: PayableTotals | None = None
    segments: list[PublishSegment] = []
    for spec, pattern, size in _publishable(catalogue):
        if supply[spec.id] <= 0 or spec.id in held:
            continue  # R6: first come, first served, and one copy per player
        if size is not None and size > max_size:
            continue
        groups: Iterable[tuple[Sequence[int], Sequence[int]]]
        kind = type(pattern)
        if kind is Total:
            # Only the multisets the hand can pay for (R4, R5): a count of zero is no segment.
            assert isinstance(pattern, Total)
            if payable is None:
                payable = PayableTotals(pool, h, own, hand_size)
            groups = payable.groups(pattern.count, pattern.target)
        elif kind is Straight:
            assert isinstance(pattern, Straight)
            groups = _straights(pattern.length, pool)
        elif kind is OfAKind:
            assert isinstance(pattern, OfAKind)
            need = pattern.count
            groups = [((rank,), (need,)) for rank in range(1, 14) if pool[rank] >= need]
        elif kind is Pairs:
            assert isinstance(pattern, Pairs)
            doubled = [rank for rank in range(1, 14) if pool[rank] >= 2]
            twos = (2,) * pattern.pairs
            groups = [(chosen, twos) for chosen in itertools.combinations(doubled, pattern.pairs)]
        else:
            groups = map(_grouped, pattern.combinations(pool))
        for ranks, needs in groups:
            # R4: at least one rank must take a hand card.
            if in_hand.isdisjoint(ranks):
                continue
            if others.isdisjoint(ranks):
                # Only the player's own Masterpieces (free, R5): per rank, choose `need` of
                # hand cards and own Masterpieces together, minus the all-pastiche choice (R4).
                total = 1
                pastiche_only = 1
                cost = 0
                for rank, need in zip(ranks, needs, strict=True):
                    mine = own[rank]
                    if need > mine:
                        cost += need - mine
                    total *= math.comb(h[rank] + mine, need)
                    pastiche_only *= math.comb(mine, need)
                if cost > hand_size:
                    continue  # R5: the hand cannot even play what the Masterpieces lack
                count = total - pastiche_only
            else:
                count = -1
                if compiled is not None:
                    try:
                        count = compiled.segment_count(ranks, needs, h, by_rank_marked, hand_size)
                    except OverflowError:
                        count = -1  # beyond the kernel's 64 bits or tables: counted in Python
                if count < 0:
                    count = _gift_count_of(
                        [fills[rank * 64 + need] for rank, need in zip(ranks, needs, strict=True)],
                        hand_size,
                    )
            if count:
                segments.append(PublishSegment(spec.id, ranks, needs, context, count))
    return segments


def _gift_count_of(tables: Sequence[tuple[Entry, ...]], limit: int) -> int:
    """The moves of a segment that cites other players' Masterpieces (R4, R5).

    The reference of the compiled ``segment_count``, which makes the tables itself.

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


_PUBLISHABLE: dict[int, tuple[Catalogue, list[tuple[NovelSpec, Pattern, int | None]]]] = {}


def _publishable(catalogue: Catalogue) -> list[tuple[NovelSpec, Pattern, int | None]]:
    """The publishable Novels of ``catalogue`` with their patterns and sizes, made once."""
    entry = _PUBLISHABLE.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_PUBLISHABLE) >= 64:
            _PUBLISHABLE.clear()
        specs = [
            (spec, spec.pattern, spec.pattern.size)
            for spec in catalogue.publishable
            if spec.pattern is not None
        ]
        entry = _PUBLISHABLE[id(catalogue)] = (catalogue, specs)
    return entry[1]


_PLANS: dict[int, tuple[Catalogue, list[tuple[str, int, int, int, int]] | None]] = {}


def _compiled_plan(catalogue: Catalogue) -> list[tuple[str, int, int, int, int]] | None:
    """The publishable Novels as the compiled kernel reads them, made once per catalogue.

    Per Novel: (id, kind code, first parameter, second parameter, size or -1);
    ``None`` when a pattern is of a kind only Python counts (a registered one).
    """
    entry = _PLANS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        plan: list[tuple[str, int, int, int, int]] | None = []
        for spec, pattern, size in _publishable(catalogue):
            code = pattern_code(pattern)
            if code is None or plan is None:
                plan = None
                continue
            plan.append((spec.id, *code, -1 if size is None else size))
        entry = _PLANS[id(catalogue)] = (catalogue, plan)
    return entry[1]


def _straights(length: int, pool: Sequence[int]) -> list[tuple[range, tuple[int, ...]]]:
    """The runs of ``length`` ranks all in ``pool`` (as :meth:`Straight.combinations`), grouped."""
    found = []
    ones = (1,) * length
    run = 0
    for rank in range(1, 14):
        run = run + 1 if pool[rank] else 0
        if run >= length:
            found.append((range(rank - length + 1, rank + 1), ones))
    return found


def _grouped(combo: tuple[int, ...]) -> tuple[list[int], list[int]]:
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
    return ranks, needs


def compiled_kernels() -> bool:
    """Whether move counting uses the compiled kernels (built with a C compiler at install).

    Without them (no compiler, or ``PASTICHE_PURE_PYTHON=1`` in the environment)
    the same counts come from the pure-Python kernels, more slowly.

    >>> isinstance(compiled_kernels(), bool)
    True
    """
    return _speedups is not None


def clear_caches() -> None:
    """Empty the counting caches, e.g. so a benchmark starts every run cold.

    >>> clear_caches()
    """
    gift_ways.cache_clear()
    rank_shapes.cache_clear()
    rank_table.cache_clear()
    owed_pairs.cache_clear()


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
    """Every way to give ``owed`` = ((owner, count), ...) gifts from ``cards`` (R5)."""
    if not owed:
        yield ()
        return
    (owner, count), rest_owed = owed[0], owed[1:]
    for chosen in itertools.combinations(cards, count):
        remaining = [c for c in cards if c not in chosen]
        for tail in gift_assignments(remaining, rest_owed):
            yield tuple(Gift(owner, card) for card in chosen) + tail
