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

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .cards import Card
from .moves import Gift, Move, NovelRef, Publish, Read

if TYPE_CHECKING:
    from .catalogue import Catalogue
    from .game import Game

__all__ = ["LegalMoves", "clear_caches"]

_T = TypeVar("_T")
_OWED_BITS = 8  # gifts owed per owner, packed into one integer (adding merges)

# One way to fill one rank: (cards from the hand, Masterpieces cited per owner,
# number of concrete card and Masterpiece choices, gifts owed as a packed code, their sum).
_Shape = tuple[int, tuple[int, ...], int, int, int]
# What a rank needs and offers: (cards needed, cards of the rank in hand,
# Masterpieces of the rank per owner).
_RankKey = tuple[int, int, tuple[int, ...]]


class ListSegment:
    """A plain list of moves."""

    __slots__ = ("count", "moves")

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        self.count = len(moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def at(self, index: int) -> Move:
        return self.moves[index]


class ReadSegment:
    """The Reads of one Published novel, one per card under it."""

    __slots__ = ("cards", "count", "ref")

    def __init__(self, ref: NovelRef, cards: tuple[Card, ...]) -> None:
        self.ref = ref
        self.cards = cards
        self.count = len(cards)

    def __iter__(self) -> Iterator[Read]:
        return (Read(self.ref, card) for card in self.cards)

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
    """

    __slots__ = (
        "count",
        "hand",
        "hand_by_rank",
        "keys",
        "limit",
        "mp_by_rank",
        "novel",
        "player",
        "ranks",
    )

    def __init__(
        self,
        novel: str,
        ranks: tuple[int, ...],
        keys: tuple[_RankKey, ...],
        player: int,
        hand: set[Card],
        hand_by_rank: dict[int, list[Card]],
        mp_by_rank: _Masterpieces,
        count: int,
    ) -> None:
        self.novel = novel
        self.ranks = ranks
        self.keys = keys
        self.player = player
        self.hand = hand
        self.hand_by_rank = hand_by_rank
        self.mp_by_rank = mp_by_rank
        self.limit = len(hand)
        self.count = count

    def _shapes(self) -> Iterator[tuple[tuple[_Shape, ...], tuple[tuple[int, int], ...], int, int]]:
        """(shape per rank, gifts owed per owner, moves in the shape, ways to give the gifts)."""
        player = self.player
        options = [
            _rank_shapes((need, in_hand, _mark_own(owners, player)))
            for need, in_hand, owners in self.keys
        ]
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
                parts.append((self.hand_by_rank[rank], from_hand))
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
        for shapes, owed, count, gift_ways in self._shapes():
            if index < count:
                return self._decode(shapes, owed, gift_ways, index)
            index -= count
        raise IndexError(index)  # pragma: no cover - callers stay below count

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
            index, digit = divmod(index, math.comb(len(items), k))
            picked[slot] = unrank_combination(items, k, digit)
        played = tuple(card for group in picked[:hand_parts] for card in group)
        cited = tuple(ref for group in picked[hand_parts:] for ref in group)
        if not owed:
            return Publish(self.novel, played, cited)
        rest = sorted(self.hand.difference(played))
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
        return Publish(self.novel, played, cited, tuple(gifts))


Segment = ListSegment | ReadSegment | PublishSegment


class _Masterpieces:
    """The Masterpieces on the table by rank and owner, built only when a move is decoded."""

    __slots__ = ("_by_rank", "_tables")

    def __init__(self, tables: Sequence[dict[str, tuple[Card, ...]]]) -> None:
        self._tables = tables
        self._by_rank: dict[tuple[int, int], list[NovelRef]] | None = None

    def refs(self, rank: int, owner: int) -> list[NovelRef]:
        if self._by_rank is None:
            self._by_rank = {}
            for who, table in enumerate(self._tables):
                for nid, cards in table.items():
                    if len(cards) == 1:
                        key = (cards[0].rank, who)
                        self._by_rank.setdefault(key, []).append(NovelRef(who, nid))
        return self._by_rank[(rank, owner)]


def publish_segments(
    player: int,
    hand: set[Card],
    tables: Sequence[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    catalogue: Catalogue,
) -> list[PublishSegment]:
    """The non-empty publish segments of ``player`` (R4–R7), in catalogue order."""
    if not hand:
        return []
    players = len(tables)
    hand_by_rank: dict[int, list[Card]] = {}
    for card in sorted(hand):
        hand_by_rank.setdefault(card.rank, []).append(card)
    counts = [0] * 14
    for rank, cards_of_rank in hand_by_rank.items():
        counts[rank] = len(cards_of_rank)
    by_rank: dict[int, list[int]] = {}
    for owner, table in enumerate(tables):
        for cards in table.values():
            if len(cards) == 1:
                rank = cards[0].rank
                if rank not in by_rank:
                    by_rank[rank] = [0] * players
                by_rank[rank][owner] += 1
                counts[rank] += 1
    mp_counts = {rank: tuple(owners) for rank, owners in by_rank.items()}
    pool = tuple(counts)
    no_masterpieces = (0,) * players
    hand_size = len(hand)
    held = tables[player]
    # Every cited Masterpiece of another player costs a gift card, so a publish
    # uses at most the whole hand plus the player's own Masterpieces (R4, R5).
    max_size = hand_size + sum(1 for cards in held.values() if len(cards) == 1)
    masterpieces = _Masterpieces(tables)
    segments: list[PublishSegment] = []
    for spec in catalogue.publishable:
        pattern = spec.pattern
        if pattern is None or supply[spec.id] <= 0 or spec.id in held:
            continue  # R6: first come, first served, and one copy per player
        size = pattern.size
        if size is not None and size > max_size:
            continue
        for combo in pattern.combinations(pool):
            ranks: list[int] = []
            keys: list[_RankKey] = []
            previous = 0
            for rank in combo:
                if rank == previous:
                    need, in_hand, owners = keys[-1]
                    keys[-1] = (need + 1, in_hand, owners)
                else:
                    ranks.append(rank)
                    in_hand = len(hand_by_rank.get(rank, ()))
                    keys.append((1, in_hand, mp_counts.get(rank, no_masterpieces)))
                    previous = rank
            key_tuple = tuple(keys)
            count = _count_keys(_canonical(key_tuple, player), hand_size)
            if count:
                segments.append(
                    PublishSegment(
                        spec.id,
                        tuple(ranks),
                        key_tuple,
                        player,
                        hand,
                        hand_by_rank,
                        masterpieces,
                        count,
                    )
                )
    return segments


def _mark_own(owners: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Mark the player's own Masterpiece count as ``-n - 1``: citing them is free (R5)."""
    if not owners[player]:
        return owners
    return tuple(-n - 1 if owner == player else n for owner, n in enumerate(owners))


def _canonical(keys: tuple[_RankKey, ...], player: int) -> tuple[_RankKey, ...]:
    """Rank keys up to a renaming of the other owners, the player's own first and marked.

    The count of a segment does not depend on which other players own the cited
    Masterpieces, only on how the citations group by owner, so renaming them in
    order of appearance lets one cached count serve many positions.
    """
    order: dict[int, int] = {}
    for _, _, owners in keys:
        for owner, n in enumerate(owners):
            if n and owner != player and owner not in order:
                order[owner] = len(order) + 1
    canonical = []
    width = len(order) + 1
    for need, in_hand, owners in keys:
        slots = [0] * width
        own = owners[player]
        slots[0] = -own - 1 if own else 0
        for owner, slot in order.items():
            slots[slot] = owners[owner]
        canonical.append((need, in_hand, tuple(slots)))
    return tuple(canonical)


def _count_keys(keys: tuple[_RankKey, ...], limit: int) -> int:
    """Moves in a segment given its :func:`_canonical` keys and the hand size."""
    if len(keys[0][2]) == 1:
        # Only the player's own Masterpieces (free, R5): per rank, choose `need` of
        # hand cards and own Masterpieces together, minus the all-pastiche choice (R4).
        total = 1
        pastiche_only = 1
        for need, in_hand, (marked,) in keys:
            own = -marked - 1 if marked else 0
            total *= math.comb(in_hand + own, need)
            pastiche_only *= math.comb(own, need)
        return total - pastiche_only
    return _segment_count(keys, limit)


@functools.lru_cache(maxsize=1 << 14)
def _segment_count(keys: tuple[_RankKey, ...], limit: int) -> int:
    """Moves in a segment given its :func:`_canonical` keys and the hand size.

    Dynamic programming over the ranks, cached across positions. The state is
    (cards played, gifts owed per owner as a packed code, total gifts); owners
    stay apart because the number of ways to hand out gifts depends on how many
    each owner gets.
    """
    # A state packs (cards played, total gifts, gifts per owner) into one integer:
    # played + gifts never exceed the hand, so 8 bits each leave room for the code.
    states: dict[int, int] = {0: 1}
    for key in keys:
        following: dict[int, int] = {}
        steps = [
            (from_hand + (extra << 8) + (code << 16), from_hand + extra, weight)
            for from_hand, _, weight, code, extra in _rank_shapes(key)
        ]
        for state, ways in states.items():
            used = (state & 0xFF) + ((state >> 8) & 0xFF)
            for step, cost, weight in steps:
                if used + cost > limit:
                    continue  # R5: the gifts could no longer all be paid
                following[state + step] = following.get(state + step, 0) + ways * weight
        if not following:
            return 0
        states = following
    return sum(
        ways * _gift_count(limit - (state & 0xFF), _owed_pairs(state >> 16))
        for state, ways in states.items()
        if state & 0xFF  # R4: pastiche alone is not a publish
    )


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
    """Every way to take ``total`` items with at most ``bounds[i]`` from owner i, first owner most."""
    if not bounds:
        if total == 0:
            yield ()
        return
    capacity = sum(bounds[1:])
    for taken in range(min(total, bounds[0]), max(0, total - capacity) - 1, -1):
        for tail in _distributions(total - taken, bounds[1:]):
            yield (taken, *tail)


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


def clear_caches() -> None:
    """Empty the counting caches, e.g. so a benchmark starts every run cold.

    >>> clear_caches()
    """
    _segment_count.cache_clear()
    _rank_shapes.cache_clear()
    _owed_pairs.cache_clear()


def unrank_combination(items: Sequence[_T], k: int, index: int) -> list[_T]:
    """The ``index``-th ``k``-combination of ``items`` in :func:`itertools.combinations` order.

    >>> unrank_combination("abcd", 2, 4) == list(list(itertools.combinations("abcd", 2))[4])
    True
    """
    chosen: list[_T] = []
    start = 0
    n = len(items)
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


class LegalMoves:
    """A lazy view of a game's legal moves, in the manner of a sequence.

    Iterating enumerates; ``move in legal_moves`` checks one move through the
    rule path without enumerating; ``len`` and ``legal_moves[i]`` count and
    index without building the moves (the i-th move is the one iteration
    yields i-th), so a uniform random choice costs no enumeration. The view
    follows the game: after a move it shows the new position's moves.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> legal = game.legal_moves
    >>> len(legal), legal[0], legal[-1] == list(legal)[-1]
    (4, Move.parse('keep MYT1 HOR7 HOR8'), True)
    """

    __slots__ = ("_game", "_plan", "_plan_at")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._plan: list[Segment] = []
        self._plan_at: tuple[int, Move | None] = (-1, None)

    def _segments(self) -> list[Segment]:
        stamp = self._game._stamp()
        if stamp != self._plan_at:  # the game moved on since the plan was made
            self._plan = self._game._segments()
            self._plan_at = stamp
        return self._plan

    def __iter__(self) -> Iterator[Move]:
        for segment in self._segments():
            yield from segment

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move | str):
            return False
        return self._game.is_legal(move)

    def __len__(self) -> int:
        return sum(segment.count for segment in self._segments())

    def __bool__(self) -> bool:
        return any(segment.count for segment in self._segments())

    def __getitem__(self, index: int) -> Move:
        if index < 0:
            index += len(self)
        if index >= 0:
            for segment in self._segments():
                if index < segment.count:
                    move = segment.at(index)
                    # Game.apply trusts this very object in this very position.
                    self._game._trusted = (move, self._plan_at)
                    return move
                index -= segment.count
        raise IndexError("legal move index out of range")

    def __repr__(self) -> str:
        moves = list(itertools.islice(self, 6))
        more = ", ..." if len(moves) > 5 else ""
        return f"<LegalMoves {len(self)}: {', '.join(map(str, moves[:5]))}{more}>"
