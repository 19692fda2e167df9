"""The publish of an index: one move of a publish segment, decoded without enumerating.

A publish segment's moves come shape by shape (:class:`Walk`); inside a shape
they are a mixed-radix product of the hand-card choices, the Masterpiece
choices and the gifts (R4, R5). ``decode_publish`` has a compiled twin
(:mod:`pastiche_core.engine._kernels`).

>>> unrank_combination("abc", 2, 1)
['a', 'c']
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Iterator, Sequence
from typing import TypeVar

from ..data.cards import Card
from ._kernels import kernel
from .feasibility import (
    Shape,
    cost_floor,
    gift_count,
    gift_ways,
    owed_pairs,
    rank_shapes,
)
from .movegen_count import Decoded, Numbers, as_segment, numbers_of
from .moves import Gift

__all__ = ["decode_publish", "gift_assignments", "unrank_combination", "walk_of"]

_T = TypeVar("_T")


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

    def __init__(self, numbers: Numbers, ranks: Sequence[int], needs: Sequence[int]) -> None:
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
def walk_of(table: bytes, player: int, ranks: tuple[int, ...], needs: tuple[int, ...]) -> _Walk:
    """The walk of one segment, made once (its completion counts are remembered)."""
    return _Walk(numbers_of(table, player), ranks, needs)


def _decode_publish_py(
    table: bytes | bytearray, player: int, ranks: Sequence[int], needs: Sequence[int], index: int
) -> Decoded:
    """The ``decode_publish`` kernel in Python: the ``index``-th publish of a segment.

    The segment of ``needs[i]`` cards of rank ``ranks[i]`` in the position of
    the card ``table``, in :class:`PublishSegment`'s order; the publish as card
    indexes (:data:`Decoded`). An index outside the segment raises
    :class:`IndexError`.

    >>> from pastiche_core.engine.layout import card_table
    >>> from pastiche_core import parse_cards
    >>> table = card_table(hands={0: parse_cards("SCI7 HOR7 MYS7 FAN9")}, tables=[{}, {}],
    ...                    novel_position={})
    >>> _decode_publish_py(table, 0, [7], [3], 0)
    ((18, 24, 30), (), ())
    """
    walk = walk_of(bytes(table), player, *as_segment(ranks, needs))
    return walk.decode(operator.index(index))  # an integer, as the C reads it


decode_publish = kernel("decode_publish", _decode_publish_py)
"""A segment's publish of an index: ``decode_publish(table, player, ranks, needs, index)``."""


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
