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

A position is read from its card table (:mod:`pastiche_core.engine.layout`): the
counting kernels (``publish_counts``, ``segment_count``, in
:mod:`pastiche_core.engine.movegen_count`, and ``decode_publish``, in
:mod:`pastiche_core.engine.movegen_decode`; all three re-exported here) take the
table, the player, and for the counts the usable flags (R6) and the
catalogue's plan, and have compiled twins (:mod:`pastiche_core.engine._kernels`). A catalogue with a pattern of a kind the
kernels do not know has no plan: its segments are counted by the same rules,
rank multiset by rank multiset (:func:`publish_segments`).

>>> from pastiche_core import Game
>>> legal = Game(players=3, seed=7).legal_moves
>>> len(legal), legal[3] == list(legal)[3]
(4, True)
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..data.cards import DECK, Card
from .feasibility import (
    gift_ways,
    kernel_plan,
    owed_pairs,
    pattern_code,
    rank_shapes,
    rank_table,
    usable_flags,
)
from .layout import CARDS, SEAT_MASK
from .movegen_count import (
    REF_KEY,
    Counted,
    Decoded,
    Group,
    Holdings,
    holdings,
    numbers_of,
    payable_groups,
    plan_groups,
    publish_counts,
    rank_groups,
    segment_count,
)
from .movegen_decode import decode_publish, gift_assignments, unrank_combination, walk_of
from .moves import Gift, Keep, Move, NovelRef, Publish, Read
from .rules import KEEP_SIZE

if TYPE_CHECKING:
    from ..data.catalogue import Catalogue

__all__ = [
    "Counted",
    "Decoded",
    "Group",
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


def publish_segments(
    table: bytes,
    player: int,
    supply: Mapping[str, int],
    held: Collection[str],
    catalogue: Catalogue,
    usable: bytes | None = None,
) -> list[PublishSegment]:
    """The non-empty publish segments of ``player`` (R4–R7), in catalogue order.

    ``table`` is the position's card table (:mod:`pastiche_core.engine.layout`);
    ``supply`` the copies left of each Novel and ``held`` the Novels on the
    player's table (R6); ``usable``, when given, their :func:`usable_flags`
    (a game keeps them between changes). A catalogue with a plan is counted by the
    ``publish_counts`` kernel; one with a pattern of another kind Novel by
    Novel, each rank multiset by ``segment_count``.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> from pastiche_core.engine.game_internals import insides
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
    numbers = numbers_of(table, player)
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
            groups = map(rank_groups, pattern.combinations(numbers.pool))
        else:
            groups = plan_groups(numbers, *code)
        for ranks, needs in groups:
            if numbers.in_hand.isdisjoint(ranks):
                continue  # R4, before calling the kernel
            count = segment_count(table, player, ranks, needs)
            if count:
                segments.append(PublishSegment(spec.id, ranks, needs, context, count))
    return segments


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


# home: R11.reads
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


# home: R15
class KeepSegment:
    """The setup keeps of a hand (R10, R15), counted and indexed without being listed.

    Kept cards go by combinations of the sorted hand; a seat that discards
    two or more cards also chooses their order (R15), so every order counts:
    ``C(n, k) * (n - k)!`` moves for ``n`` cards and ``k`` kept (3 by the
    rulebook) when two or more are dropped, ``C(n, k)`` else. The count is that closed form and :meth:`at` decodes an index
    directly, so a hand no deal gives (a composed position) is never listed.

    >>> from pastiche_core import parse_cards
    >>> segment = KeepSegment(parse_cards("SCI9 MYT1 HOR7 LOV2 FAN12"))
    >>> segment.count, str(segment.at(1)), str(segment.at(19))
    (20, 'keep MYT1 LOV2 SCI9 discard FAN12 HOR7', 'keep SCI9 HOR7 FAN12 discard LOV2 MYT1')
    >>> KeepSegment(parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5 FAN6 MAG7 MAG8 MAG9 MAG10 MAG11 MAG12")).count
    79833600
    """

    __slots__ = ("cards", "count", "keep", "orders")

    def __init__(self, hand: Iterable[Card], keep: int = KEEP_SIZE) -> None:
        self.cards = sorted(hand)
        self.keep = keep
        """The cards kept: the game's ``rules.keep_size`` (R10)."""
        dropped = len(self.cards) - keep
        self.orders = math.factorial(dropped) if dropped >= 2 else 1
        self.count = math.comb(len(self.cards), keep) * self.orders

    def __iter__(self) -> Iterator[Keep]:
        cards = self.cards
        for kept in itertools.combinations(cards, self.keep):
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
        kept = unrank_combination(self.cards, self.keep, combination)
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
            key=REF_KEY,
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
        walk = walk_of(bytes(table), context.player, tuple(self.ranks), tuple(self.needs))
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
                    sorted([ref for group in picked[hand_parts:] for ref in group], key=REF_KEY)
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
        >>> from pastiche_core.engine.layout import card_table
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


def clear_caches() -> None:
    """Empty the counting caches, e.g. so a benchmark starts every run cold.

    >>> clear_caches()
    """
    gift_ways.cache_clear()
    rank_shapes.cache_clear()
    rank_table.cache_clear()
    owed_pairs.cache_clear()
    numbers_of.cache_clear()
    walk_of.cache_clear()
