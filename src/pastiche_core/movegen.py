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
import functools
import itertools
import math
import operator
import os
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from .cards import Card
from .moves import Gift, Move, NovelRef, Publish, Read
from .patterns import OfAKind, Pairs, Pattern, Straight, Total

if TYPE_CHECKING:
    from .catalogue import Catalogue, NovelSpec

# The compiled twins of the counting kernels below, when the package was built with them
# (a C compiler at install) and PASTICHE_PURE_PYTHON is not set.
_speedups: ModuleType | None = None
if not os.environ.get("PASTICHE_PURE_PYTHON"):
    with contextlib.suppress(ImportError):  # a build without a C compiler
        from . import _speedups

__all__ = ["clear_caches", "compiled_kernels"]

_T = TypeVar("_T")
_OWED_BITS = 8  # gifts owed per owner, packed into one integer (adding merges)
_INDEX = operator.attrgetter("index")
_REF_KEY = operator.attrgetter("owner", "novel")  # NovelRef's order

# One way to fill one rank: (cards from the hand, Masterpieces cited per owner,
# number of concrete card and Masterpiece choices, gifts owed as a packed code, their sum).
_Shape = tuple[int, tuple[int, ...], int, int, int]
# What a rank needs and offers: (cards needed, cards of the rank in hand,
# Masterpieces of the rank per owner).
_RankKey = tuple[int, int, tuple[int, ...]]
# One rank's choices for counting: (hand cards and gifts it costs, state step, ways).
_Entry = tuple[int, int, int]


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
        self._options: list[tuple[_Shape, ...]] | None = None
        # Per index, the fewest hand cards the ranks from there on cost (R5): a
        # choice with less room left has no completion (made by the first decode).
        self._floor: list[int] = []

    @property
    def options(self) -> list[tuple[_Shape, ...]]:
        """Per rank, every way to fill it (made when a move is decoded or listed)."""
        options = self._options
        if options is None:
            options = self._options = [
                _rank_shapes(key) for key in self.context.keys(self.ranks, self.needs)
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
                return _gift_ways(limit - played, code)
            # The last rank: count the gifts at once (not worth remembering).
            found = 0
            room = limit - played - owed  # R5: every gift is a card of the hand
            for from_hand, _, weight, step, extra in options[index]:
                if from_hand + extra <= room and played + from_hand:
                    found += weight * _gift_ways(limit - played - from_hand, code + step)
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
                            inner += weight_last * _gift_ways(
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

    def _shapes(self) -> Iterator[tuple[tuple[_Shape, ...], tuple[tuple[int, int], ...], int, int]]:
        """(shape per rank, gifts owed per owner, moves in the shape, ways to give the gifts)."""
        options = self.options
        limit = self.limit
        chosen: list[_Shape] = []
        last = len(options)

        def walk(
            index: int, played: int, owed: int, owed_total: int, ways: int
        ) -> Iterator[tuple[tuple[_Shape, ...], tuple[tuple[int, int], ...], int, int]]:
            if index == last:
                if played:
                    pairs = _owed_pairs(owed)
                    gifts = _gift_count(limit - played, pairs)
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

    def _parts(self, shapes: Sequence[_Shape]) -> tuple[list[tuple[Sequence[Any], int]], int]:
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
            self._floor = _floor(self.ranks, self.needs, self.context.own)
        # Descend rank by rank: the moves of a choice so far are its completions
        # times the ways its cards can be chosen, and shapes come in walk order.
        options = self.options
        limit = self.limit
        chosen: list[_Shape] = []
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
        pairs = _owed_pairs(code)
        return self._decode(chosen, pairs, _gift_count(limit - played, pairs), index)

    def _decode(
        self,
        shapes: Sequence[_Shape],
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
        self._marked = {rank: _mark_own(tuple(owners), player) for rank, owners in by_rank.items()}
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

    def keys(self, ranks: Sequence[int], needs: Sequence[int]) -> list[_RankKey]:
        """Per rank: (cards needed, cards of the rank in hand, Masterpieces per owner, marked)."""
        h = self._h if self._h is not None else self._make()
        marked, none = self._marked, (0,) * len(self.tables)
        return [
            (need, h[rank], marked.get(rank, none)) for rank, need in zip(ranks, needs, strict=True)
        ]


class _Fills(dict[int, tuple[_Entry, ...]]):
    """Per ``rank * 64 + need``, the :func:`_rank_table` of one position, made when first asked."""

    __slots__ = ("h", "marked", "none")

    def __init__(
        self, h: Sequence[int], marked: dict[int, tuple[int, ...]], none: tuple[int, ...]
    ) -> None:
        super().__init__()
        self.h = h
        self.marked = marked
        self.none = none

    def __missing__(self, key: int) -> tuple[_Entry, ...]:
        rank, need = key >> 6, key & 63
        table = self[key] = _rank_table((need, self.h[rank], self.marked.get(rank, self.none)))
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
    marked = {rank: _mark_own(tuple(owners), player) for rank, owners in by_rank.items()}
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


def _floor(ranks: Sequence[int], needs: Sequence[int], own: Sequence[int]) -> list[int]:
    """Per index, the fewest hand cards the ranks from there on cost (R5), then 0.

    Every card but the player's own Masterpieces is a hand card, played or given.

    >>> _floor([4, 5, 6], [1, 1, 1], [0] * 5 + [1] + [0] * 8)  # own Masterpiece of rank 5
    [2, 1, 1, 0]
    """
    width = len(ranks)
    floor = [0] * (width + 1)
    cost = 0
    for index in range(width - 1, -1, -1):
        need, mine = needs[index], own[ranks[index]]
        if need > mine:
            cost += need - mine
        floor[index] = cost
    return floor


def _gift_count_of(tables: Sequence[tuple[_Entry, ...]], limit: int) -> int:
    """The moves of a segment that cites other players' Masterpieces (R4, R5).

    The reference of the compiled ``segment_count``, which makes the tables itself.

    ``tables`` holds, per rank, :func:`_rank_table`; ``limit`` is the hand size.
    Rank by rank, the choices so far are merged by (hand cards played, gifts owed
    per owner), weighted by their card and Masterpiece choices (a rank with one
    way to fill it only shifts and scales them); at the end each state is
    weighted by its ways to give the gifts from the unplayed cards, none if
    they are too few (R5), and the states that play no hand card are left out
    (R4).

    >>> three = _rank_table((3, 2, (0, 1)))  # 2 in hand, 1 Masterpiece of seat 1
    >>> _gift_count_of([three], limit=2)  # both hand cards: no card left to give
    0
    >>> _gift_count_of([three], limit=4)  # ... and one of 2 other cards as the gift
    2
    """
    # A state: (gifts owed per owner) << 16 | (hand cards spent) << 8 | (hand cards played),
    # where a card is spent when it is played or given (R5).
    shift = 0
    scale = 1
    spread: list[tuple[_Entry, ...]] = []
    for table in tables:
        if len(table) == 1:
            _, step, weight = table[0]
            shift += step
            scale *= weight
        else:
            spread.append(table)
    if not spread:  # every rank has one way to fill it
        played = shift & 0xFF
        return scale * _gift_ways(limit - played, shift >> 16) if played else 0
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
                found += weight * weight_here * _gift_ways(limit - played, final >> 16)
    return found * scale


@functools.lru_cache(maxsize=1 << 14)
def _rank_table(key: _RankKey) -> tuple[_Entry, ...]:
    """The shapes of a rank merged by (hand cards, gifts owed per owner), cheapest first.

    >>> table = _rank_table((2, 1, (0, 2)))  # a pair: 1 in hand, 2 Masterpieces of seat 1
    >>> [(cost, weight) for cost, _, weight in table]  # the card and one; both Masterpieces
    [(2, 2), (2, 1)]
    """
    merged: dict[tuple[int, int, int], int] = {}
    for from_hand, _, weight, code, extra in _rank_shapes(key):
        slot = (from_hand + extra, (code << 16) + ((from_hand + extra) << 8) + from_hand, 0)
        merged[slot] = merged.get(slot, 0) + weight
    return tuple(sorted((cost, step, weight) for (cost, step, _), weight in merged.items()))


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
_KINDS = {Straight: 0, OfAKind: 1, Pairs: 2, Total: 3}
"""The pattern kinds the compiled kernel counts, by its codes (exact types: a subclass may differ)."""


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
            code = _pattern_code(pattern)
            if code is None or plan is None:
                plan = None
                continue
            plan.append((spec.id, *code, -1 if size is None else size))
        entry = _PLANS[id(catalogue)] = (catalogue, plan)
    return entry[1]


def _pattern_code(pattern: object, *, exact: bool = True) -> tuple[int, int, int] | None:
    """A built-in pattern as the compiled kernels read it: (kind code, first, second parameter).

    ``exact``: only the built-in classes themselves (a subclass may list its
    combinations otherwise); else a subclass is coded as its kind. ``None`` for
    any other pattern.

    >>> _pattern_code(Total(5, 49)), _pattern_code(Pairs(2)), _pattern_code("x")
    ((3, 5, 49), (2, 2, 0), None)
    """
    kind = _KINDS.get(type(pattern))
    if kind is None and not exact:
        kind = next((code for cls, code in _KINDS.items() if isinstance(pattern, cls)), None)
    if kind is None:
        return None
    if isinstance(pattern, Straight):
        return kind, pattern.length, 0
    if isinstance(pattern, OfAKind):
        return kind, pattern.count, 0
    if isinstance(pattern, Pairs):
        return kind, pattern.pairs, 0
    assert isinstance(pattern, Total)
    return kind, pattern.count, pattern.target


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


def _expanded(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Cards per rank as the sorted tuple of their ranks."""
    return tuple(rank for rank in range(1, 14) for _ in range(counts[rank]))


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


def _mark_own(owners: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Mark the player's own Masterpiece count as ``-n - 1``: citing them is free (R5)."""
    if not owners[player]:
        return owners
    return tuple(-n - 1 if owner == player else n for owner, n in enumerate(owners))


@functools.lru_cache(maxsize=1 << 12)
def _gift_ways(cards: int, code: int) -> int:
    """Ways to give the gifts of packed ``code`` from ``cards`` unplayed cards (R5)."""
    return _gift_count(cards, _owed_pairs(code))


class PayableTotals:
    """The rank multisets of a :class:`~pastiche_core.patterns.Total` the hand can pay for.

    A multiset of ``pool`` (cards per rank: hand and every Masterpiece) can be
    published when, per rank, the hand and the Masterpieces hold enough cards;
    every card but the player's own Masterpieces costs a card of the hand
    (played, or given as a gift, R5), at most ``limit`` in all; and at least one
    hand card is played (R4: a free own Masterpiece then gives way to one).
    These are exactly the multisets with at least one card-level publish.

    The pattern's own search counts every completion before it yields one; this
    one walks the ranks from the highest down and prunes on the sum (each card
    left is worth 1 to the current rank), on the cards left, on the cost (own
    Masterpieces are the only free cards) and on failures already seen, so
    asking whether one exists stops at the first.

    >>> from pastiche_core.patterns import rank_counts
    >>> hand = rank_counts([12, 13, 12, 10])
    >>> search = PayableTotals(hand, hand, (0,) * 14, limit=4)
    >>> search.every(4, 47), search.exists(4, 48)
    ([(10, 12, 12, 13)], False)
    """

    __slots__ = (
        "cap",
        "counts",
        "fails",
        "first",
        "found",
        "h",
        "limit",
        "lowest",
        "own",
        "own_pre",
        "pool",
    )

    def __init__(
        self, pool: Sequence[int], hand: Sequence[int], own: Sequence[int], limit: int
    ) -> None:
        self.pool, self.h, self.own, self.limit = pool, hand, own, limit
        self.cap: list[int] = []
        self.own_pre: list[int] = []
        self.lowest: list[int] | None = None
        self.counts = [0] * 14
        self.fails: dict[int, int] = {}
        self.found: list[tuple[int, ...]] = []
        self.first = False

    def _prepare(self) -> None:
        """The Python walk's tables, made on its first use."""
        pool, own = self.pool, self.own
        cap = [0] * 14
        own_pre = [0] * 14
        for rank in range(1, 14):
            cap[rank] = cap[rank - 1] + pool[rank]
            own_pre[rank] = own_pre[rank - 1] + own[rank]
        self.cap, self.own_pre = cap, own_pre
        # lowest[k]: the sum of the k lowest cards of all, so the k highest cards of
        # ranks up to r add up to lowest[cap[r]] - lowest[cap[r] - k].
        self.lowest = list(
            itertools.accumulate(
                itertools.chain.from_iterable(
                    itertools.repeat(rank, pool[rank]) for rank in range(1, 14)
                ),
                initial=0,
            )
        )

    def exists(self, count: int, target: int) -> bool:
        """Whether some multiset of ``count`` ranks adding up to ``target`` can be paid for."""
        return bool(self._search(count, target, first=True))

    def every(self, count: int, target: int) -> list[tuple[int, ...]]:
        """Every such multiset as a sorted tuple of ranks, in sorted order (as the pattern's)."""
        found = [
            tuple(rank for rank in range(1, 14) for _ in range(counts[rank]))
            for counts in self._search(count, target)
        ]
        found.sort()
        return found

    def groups(self, count: int, target: int) -> list[tuple[list[int], list[int]]]:
        """Every such multiset as its distinct ranks and how many of each, in sorted order."""
        found = self._search(count, target)
        if len(found) > 1:
            found.sort(key=_expanded)
        return [
            ([rank for rank in range(1, 14) if counts[rank]], [n for n in counts[1:] if n])
            for counts in found
        ]

    def rank_counts(self, count: int, target: int) -> list[tuple[int, ...]]:
        """Every such multiset as cards per rank (14 counts, index 0 unused)."""
        return self._search(count, target)

    def _search(self, count: int, target: int, first: bool = False) -> list[tuple[int, ...]]:
        """The multisets as cards per rank, in walk order; only the first one if ``first``.

        The compiled kernel when it is built and the position fits its tables,
        else :meth:`_walk` (the reference it is tested against).
        """
        if _speedups is not None:
            try:
                found: list[tuple[int, ...]] = _speedups.payable_totals(
                    self.pool, self.h, self.own, self.limit, count, target, first
                )
            except OverflowError:
                pass
            else:
                return found
        return self._search_py(count, target, first)

    def _search_py(self, count: int, target: int, first: bool = False) -> list[tuple[int, ...]]:
        """:meth:`_search` in Python: the walk from the highest rank down."""
        if self.lowest is None:
            self._prepare()
        self.found = []
        self.first = first
        self._walk(13, count, target, 0, False, False)
        return self.found

    def _walk(self, rank: int, left: int, need: int, cost: int, free: bool, hand: bool) -> bool:
        limit = self.limit
        if not left:
            if need or not hand or cost + (0 if free else 1) > limit:
                return False
            self.found.append(tuple(self.counts))
            return True
        below = self.cap[rank]  # the cards of this rank and below
        lowest = self.lowest
        assert lowest is not None
        if (
            left > below
            or need > lowest[below] - lowest[below - left]  # the highest of them are too few
            or need < lowest[left]  # the lowest of all are too much
            or cost + left - self.own_pre[rank] > limit
        ):
            return False
        key = (need << 12) | (left << 6) | (rank << 2) | (free << 1) | hand
        failed = self.fails.get(key)
        if failed is not None and cost >= failed:
            return False
        pool = self.pool
        h, mine = self.h[rank], self.own[rank]
        found = False
        counts = self.counts
        for taken in range(min(pool[rank], left, need // rank), -1, -1):
            spent = cost + (taken - mine if taken > mine else 0)
            if spent > limit:
                continue
            counts[rank] = taken
            if self._walk(
                rank - 1,
                left - taken,
                need - taken * rank,
                spent,
                free or (taken > mine and h > 0),
                hand or (taken > 0 and h > 0),
            ):
                found = True
                if self.first:
                    counts[rank] = 0
                    return True
        counts[rank] = 0
        if not found:
            self.fails[key] = cost if failed is None else min(failed, cost)
        return found


@functools.lru_cache(maxsize=1 << 14)
def _rank_shapes(key: _RankKey) -> tuple[_Shape, ...]:
    """Every way to fill one rank: cards from the hand, then Masterpieces per owner.

    ``key`` is (needed, in hand, Masterpieces per owner with the player's own
    count stored as ``-n - 1``).
    """
    need, in_hand, marked = key
    owners = [(-n - 1 if n < 0 else n) for n in marked]
    own = [n < 0 for n in marked]
    on_table = sum(owners)
    shapes: list[_Shape] = []
    for from_hand in range(max(0, need - on_table), min(need, in_hand) + 1):
        for split in _distributions(need - from_hand, owners):
            weight = math.comb(in_hand, from_hand)
            code = 0
            owed = 0
            for owner, taken in enumerate(split):
                weight *= math.comb(owners[owner], taken)
                if taken and not own[owner]:
                    code += taken << (_OWED_BITS * owner)
                    owed += taken
            shapes.append((from_hand, split, weight, code, owed))
    return tuple(shapes)


def _distributions(total: int, bounds: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` items with at most ``bounds[i]`` from owner i, first owner most.

    >>> list(_distributions(2, [1, 0, 2]))
    [(1, 0, 1), (0, 0, 2)]
    """
    # Each owner's count descending, the last owner's varying fastest.
    ranges = [range(bound if bound < total else total, -1, -1) for bound in bounds]
    return (split for split in itertools.product(*ranges) if sum(split) == total)


@functools.lru_cache(maxsize=4096)
def _owed_pairs(code: int) -> tuple[tuple[int, int], ...]:
    """Unpack a packed gift code into sorted (owner, count) pairs."""
    pairs = []
    owner = 0
    mask = (1 << _OWED_BITS) - 1
    while code:
        if code & mask:
            pairs.append((owner, code & mask))
        code >>= _OWED_BITS
        owner += 1
    return tuple(pairs)


def _gift_count(cards: int, owed: Sequence[tuple[int, int]]) -> int:
    """Ways to hand out the owed gifts from ``cards`` unplayed cards (0 if impossible)."""
    ways = 1
    for _, count in owed:
        if count > cards:
            return 0
        ways *= math.comb(cards, count)
        cards -= count
    return ways


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
    _gift_ways.cache_clear()
    _rank_shapes.cache_clear()
    _rank_table.cache_clear()
    _owed_pairs.cache_clear()


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
