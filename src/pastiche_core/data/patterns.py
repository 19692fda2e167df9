"""Novel requirements as patterns over card ranks (R2, R3).

A pattern answers two questions about ranks (genres never matter):

* :meth:`Pattern.matches` — do these ranks satisfy the requirement *exactly*
  (nothing more, nothing less)?
* :meth:`Pattern.combinations` — given how many cards of each rank are
  available, which distinct rank multisets satisfy it? Each is yielded once, as
  a sorted tuple of ranks, in sorted order and lazily: a caller may stop early.

A pattern may also count its combinations without listing them
(``count_combinations``, see :class:`CountingPattern`); every built-in kind does.
:func:`combination_count` counts any pattern, by enumeration when it cannot
count.

The built-in kinds are :class:`Straight`, :class:`OfAKind`, :class:`Pairs` and
:class:`Total`; none needs more than
:data:`~pastiche_core.data.limits.MAX_PATTERN_CARDS` cards. A user-defined pattern is
any object that follows the :class:`Pattern` protocol; subclassing
:class:`CustomPattern` only requires :meth:`~CustomPattern.matches` and gives an
exact (if slower) generic :meth:`~CustomPattern.combinations`. A catalogue loaded
from data names a user-defined pattern by the kind it was registered under
(:func:`~pastiche_core.data.registry.register_pattern`), never by code.

>>> Straight(5).matches([9, 5, 6, 8, 7])
True
>>> list(Pairs(3).combinations(rank_counts([4, 4, 10, 10, 12, 12, 13])))
[(4, 4, 10, 10, 12, 12)]
>>> combination_count(Pairs(2), rank_counts([4, 4, 10, 10, 12, 12, 13]))
3
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .cards import MAX_RANK, MIN_RANK
from .limits import MAX_OF_A_KIND, MAX_PAIRS, MAX_PATTERN_CARDS

__all__ = [
    "CountingPattern",
    "CustomPattern",
    "OfAKind",
    "Pairs",
    "Pattern",
    "RankCounts",
    "Straight",
    "Total",
    "combination_count",
    "rank_counts",
    "sub_multisets",
]

RankCounts = tuple[int, ...]
"""Cards available per rank: a tuple of 14 counts, index 0 unused, index r for rank r."""

_RANKS = range(MIN_RANK, MAX_RANK + 1)


def rank_counts(ranks: Iterable[int]) -> RankCounts:
    """Count ranks into a :data:`RankCounts` tuple.

    >>> rank_counts([7, 7, 13])[7], rank_counts([7, 7, 13])[13]
    (2, 1)
    >>> rank_counts([0])
    Traceback (most recent call last):
    ...
    ValueError: rank must be an integer from 1 to 13, got 0
    """
    counts = [0] * (MAX_RANK + 1)
    for rank in ranks:
        # A negative rank would silently count as a high one through index wrap-around.
        if not MIN_RANK <= rank <= MAX_RANK:
            raise ValueError(f"rank must be an integer from {MIN_RANK} to {MAX_RANK}, got {rank!r}")
        counts[rank] += 1
    return tuple(counts)


@runtime_checkable
class Pattern(Protocol):
    """The protocol every Novel requirement follows, built-in or user-defined.

    ``size`` is the exact number of cards the pattern needs, or ``None`` if it
    varies. ``kind`` names the pattern in catalogues and ``describe`` gives the
    human requirement text. ``combinations`` yields each distinct sorted rank
    multiset once, in sorted order; ``to_dict`` gives the catalogue entry fields
    (``kind`` and parameters) that load the pattern back.

    >>> isinstance(Straight(5), Pattern), isinstance("straight", Pattern)
    (True, False)
    """

    @property
    def kind(self) -> str: ...

    @property
    def size(self) -> int | None: ...

    def matches(self, ranks: Sequence[int]) -> bool: ...

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]: ...

    def describe(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class CountingPattern(Pattern, Protocol):
    """A :class:`Pattern` that can also count its combinations without listing them.

    Optional: :func:`combination_count` uses ``count_combinations`` when a pattern
    has it and counts :meth:`~Pattern.combinations` otherwise. Every built-in kind
    counts by formula (or, for :class:`Total`, by a small table).

    >>> isinstance(Total(5, 49), CountingPattern)
    True
    >>> Total(5, 49).count_combinations(rank_counts(range(1, 14)))
    10
    """

    def count_combinations(self, available: RankCounts) -> int: ...


def combination_count(pattern: Pattern, available: RankCounts) -> int:
    """How many combinations ``pattern`` has within ``available``.

    The pattern's own ``count_combinations`` when it has one (see
    :class:`CountingPattern`), else the length of :meth:`~Pattern.combinations`.

    >>> combination_count(Straight(3), rank_counts(range(1, 7)))
    4
    >>> class Any2(CustomPattern):
    ...     size = 2
    ...     def matches(self, ranks):
    ...         return len(ranks) == 2
    >>> combination_count(Any2(), rank_counts([1, 2, 2]))
    2
    """
    if isinstance(pattern, CountingPattern):
        return pattern.count_combinations(available)
    return sum(1 for _ in pattern.combinations(available))


def sub_multisets(available: RankCounts, size: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every distinct non-empty sub-multiset of ``available`` (of ``size`` cards if given).

    Each is a sorted tuple of ranks, and they come in sorted (lexicographic) order.

    >>> list(sub_multisets(rank_counts([2, 2, 5]), 2))
    [(2, 2), (2, 5)]
    >>> list(sub_multisets(rank_counts([2, 2, 5])))
    [(2,), (2, 2), (2, 2, 5), (2, 5), (5,)]
    """
    # Suffix capacity: how many cards of rank r or higher are available.
    suffix = [0] * (MAX_RANK + 2)
    for rank in range(MAX_RANK, MIN_RANK - 1, -1):
        suffix[rank] = suffix[rank + 1] + available[rank]
    if size is not None and (size <= 0 or size > suffix[MIN_RANK]):
        return
    chosen: list[int] = []
    used = [0] * (MAX_RANK + 1)

    # Pre-order walk over non-decreasing rank sequences: a multiset comes before its
    # extensions and smaller next ranks come first, which is lexicographic order.
    def walk(start: int) -> Iterator[tuple[int, ...]]:
        if size is not None:
            if len(chosen) == size:
                yield tuple(chosen)
                return
        elif chosen:
            yield tuple(chosen)
        need = 0 if size is None else size - len(chosen)
        for rank in range(start, MAX_RANK + 1):
            # Only ``rank == start`` can already be in use (the sequence never decreases).
            if suffix[rank] - used[rank] < need:
                break
            if used[rank] >= available[rank]:
                continue
            chosen.append(rank)
            used[rank] += 1
            yield from walk(rank)
            used[rank] -= 1
            chosen.pop()

    yield from walk(MIN_RANK)


@dataclass(frozen=True, slots=True)
class Straight:
    """``length`` cards of consecutive ranks; 1 and 13 are not connected (note \\*1).

    >>> Straight(5).matches([5, 6, 7, 8, 9]), Straight(5).matches([10, 11, 12, 13, 1])
    (True, False)
    >>> list(Straight(5).combinations(rank_counts(range(3, 9))))
    [(3, 4, 5, 6, 7), (4, 5, 6, 7, 8)]
    """

    length: int
    """How many consecutive ranks."""

    def __post_init__(self) -> None:
        _check_positive_int("length", self.length, 2, MAX_RANK)

    @property
    def kind(self) -> str:
        return "straight"

    @property
    def size(self) -> int:
        return self.length

    def matches(self, ranks: Sequence[int]) -> bool:
        """Exactly ``length`` distinct consecutive ranks."""
        if len(ranks) != self.length:
            return False
        ordered = sorted(ranks)
        return all(b == a + 1 for a, b in itertools.pairwise(ordered))

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]:
        """Every run of ``length`` ranks all available."""
        run = 0
        for rank in _RANKS:
            run = run + 1 if available[rank] else 0
            if run >= self.length:
                yield tuple(range(rank - self.length + 1, rank + 1))

    def count_combinations(self, available: RankCounts) -> int:
        """How many runs of ``length`` ranks are all available."""
        found = run = 0
        for rank in _RANKS:
            run = run + 1 if available[rank] else 0
            found += run >= self.length
        return found

    def describe(self) -> str:
        return f"{self.length} cards of consecutive ranks"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "straight", "length": self.length}


@dataclass(frozen=True, slots=True)
class OfAKind:
    """``count`` cards of one rank (note \\*2).

    >>> OfAKind(3).matches([8, 8, 8]), OfAKind(3).matches([8, 8, 8, 8])
    (True, False)
    """

    count: int
    """How many cards of the one rank."""

    def __post_init__(self) -> None:
        _check_positive_int("count", self.count, 2, MAX_OF_A_KIND)

    @property
    def kind(self) -> str:
        return "kind"

    @property
    def size(self) -> int:
        return self.count

    def matches(self, ranks: Sequence[int]) -> bool:
        """Exactly ``count`` cards, all of one rank."""
        return len(ranks) == self.count and len(set(ranks)) == 1

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]:
        """One multiset per rank with at least ``count`` cards available."""
        for rank in _RANKS:
            if available[rank] >= self.count:
                yield (rank,) * self.count

    def count_combinations(self, available: RankCounts) -> int:
        """How many ranks have at least ``count`` cards available."""
        return sum(available[rank] >= self.count for rank in _RANKS)

    def describe(self) -> str:
        return f"{self.count} cards of one rank"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "kind", "count": self.count}


@dataclass(frozen=True, slots=True)
class Pairs:
    """``pairs`` pairs of ``pairs`` different ranks (note \\*3).

    >>> Pairs(3).matches([5, 5, 6, 6, 7, 7]), Pairs(3).matches([5, 5, 5, 5, 7, 7])
    (True, False)
    """

    pairs: int
    """How many pairs, each of a different rank."""

    def __post_init__(self) -> None:
        _check_positive_int("pairs", self.pairs, 1, MAX_PAIRS)

    @property
    def kind(self) -> str:
        return "pairs"

    @property
    def size(self) -> int:
        return 2 * self.pairs

    def matches(self, ranks: Sequence[int]) -> bool:
        """Exactly ``pairs`` distinct ranks, each exactly twice."""
        if len(ranks) != 2 * self.pairs:
            return False
        return all(count == 2 for count in Counter(ranks).values())

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]:
        """Every choice of ``pairs`` ranks with two cards available."""
        doubled = [rank for rank in _RANKS if available[rank] >= 2]
        for chosen in itertools.combinations(doubled, self.pairs):
            yield tuple(rank for rank in chosen for _ in range(2))

    def count_combinations(self, available: RankCounts) -> int:
        """How many choices of ``pairs`` ranks have two cards available."""
        return math.comb(sum(available[rank] >= 2 for rank in _RANKS), self.pairs)

    def describe(self) -> str:
        return f"{self.pairs} pairs of {self.pairs} different ranks"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "pairs", "pairs": self.pairs}


@dataclass(frozen=True, slots=True)
class Total:
    """``count`` cards whose ranks add up to ``target`` (note \\*4).

    ``count`` is at most :data:`~pastiche_core.data.limits.MAX_PATTERN_CARDS` and
    ``target`` is a sum that ``count`` ranks of 1 to 13 can make.

    >>> Total(5, 49).matches([2, 10, 12, 12, 13]), Total(7, 49).matches([4, 5, 5, 7, 7, 9, 12])
    (True, True)
    >>> list(Total(2, 5).combinations(rank_counts([1, 2, 3, 4])))
    [(1, 4), (2, 3)]
    >>> Total(2, 27)
    Traceback (most recent call last):
    ...
    ValueError: target must be an integer from 2 to 26 (a sum 2 ranks of 1 to 13 can make), got 27
    """

    count: int
    """How many cards."""
    target: int
    """The sum their ranks must make."""

    def __post_init__(self) -> None:
        _check_positive_int("count", self.count, 1, MAX_PATTERN_CARDS)
        _check_positive_int(
            "target",
            self.target,
            self.count,
            self.count * MAX_RANK,
            f"a sum {self.count} rank{'s' if self.count > 1 else ''} of 1 to 13 can make",
        )

    @property
    def kind(self) -> str:
        return "total"

    @property
    def size(self) -> int:
        return self.count

    def matches(self, ranks: Sequence[int]) -> bool:
        """Exactly ``count`` cards with rank sum ``target``."""
        return len(ranks) == self.count and sum(ranks) == self.target

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]:
        """Every multiset of ``count`` available ranks summing to ``target``, lazily.

        >>> found = Total(13, 91).combinations(rank_counts(range(1, 14)))
        >>> next(found)
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
        >>> next(found, None) is None
        True
        """
        yield from _TotalSearch(self.count, self.target, available).walk()

    def count_combinations(self, available: RankCounts) -> int:
        """How many multisets :meth:`combinations` yields, without listing them.

        >>> from pastiche_core import DECK
        >>> Total(7, 49).count_combinations(rank_counts(card.rank for card in DECK))
        1408
        """
        return _TotalSearch(self.count, self.target, available).ways(
            MIN_RANK, self.count, self.target
        )

    def describe(self) -> str:
        return f"{self.count} cards whose ranks add up to {self.target}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "total", "count": self.count, "target": self.target}


class _TotalSearch:
    """Multisets of ``count`` available ranks adding up to ``target``, walked depth first.

    Only the number of completions of each (rank, cards left, sum needed) is
    memoised, never the completions themselves: memory stays within a table of
    at most 14 x 14 x 170 integers however many combinations there are, and the
    walk yields the first one without building the others.
    """

    __slots__ = ("available", "best", "chosen", "count", "least", "memo", "suffix", "target")

    def __init__(self, count: int, target: int, available: RankCounts) -> None:
        self.count = count
        self.target = target
        self.available = tuple(available)
        # Suffix capacity and the sum of the highest cards prune branches that cannot
        # reach the target: the highest `left` cards are all still available whenever
        # `left` cards of the current rank or above are.
        suffix = [0] * (MAX_RANK + 2)
        for rank in range(MAX_RANK, MIN_RANK - 1, -1):
            suffix[rank] = suffix[rank + 1] + self.available[rank]
        best = [0]
        for rank in range(MAX_RANK, MIN_RANK - 1, -1):
            for _ in range(min(self.available[rank], count)):
                best.append(best[-1] + rank)
        best.extend([best[-1]] * (count + 1 - len(best)))
        # least[rank][k]: the sum of the k lowest cards of `rank` or above (a lower bound).
        least: list[list[int]] = [[0] for _ in range(MAX_RANK + 2)]
        lowest: list[int] = []
        for rank in range(MAX_RANK, MIN_RANK - 1, -1):
            lowest = ([rank] * min(self.available[rank], count) + lowest)[:count]
            sums = [0]
            for value in lowest:
                sums.append(sums[-1] + value)
            least[rank] = sums
        self.suffix = suffix
        self.best = best
        self.least = least
        self.memo: dict[tuple[int, int, int], int] = {}
        self.chosen: list[int] = []

    def ways(self, rank: int, left: int, need: int) -> int:
        """How many ways ranks ``rank`` and above complete ``left`` cards adding to ``need``."""
        if left == 0:
            return 1 if need == 0 else 0
        if rank > MAX_RANK or self.suffix[rank] < left:
            return 0
        if need < self.least[rank][left] or need > self.best[left]:
            return 0
        key = (rank, left, need)
        found = self.memo.get(key)
        if found is None:
            found = 0
            for taken in range(min(self.available[rank], left, need // rank), -1, -1):
                found += self.ways(rank + 1, left - taken, need - taken * rank)
            self.memo[key] = found
        return found

    def walk(self) -> Iterator[tuple[int, ...]]:
        """Every completion from the lowest rank, in sorted order."""
        if self.ways(MIN_RANK, self.count, self.target):
            yield from self._walk(MIN_RANK, self.count, self.target)

    def _walk(self, rank: int, left: int, need: int) -> Iterator[tuple[int, ...]]:
        # More cards of a lower rank come first: that is sorted order. Only branches
        # with a completion are entered, so no step of the walk is wasted.
        if left == 0:
            yield tuple(self.chosen)
            return
        chosen = self.chosen
        for taken in range(min(self.available[rank], left, need // rank), -1, -1):
            if self.ways(rank + 1, left - taken, need - taken * rank):
                chosen.extend([rank] * taken)
                yield from self._walk(rank + 1, left - taken, need - taken * rank)
                del chosen[len(chosen) - taken :]


class CustomPattern(ABC):
    """Base class for a user-defined pattern (R3): implement :meth:`matches`.

    Set ``size`` when the pattern always takes the same number of cards; it makes
    the generic search much faster. ``combinations`` tries every sub-multiset of
    the available ranks, so results are exact for any ``matches``. Give ``kind``
    the name the pattern is registered under
    (:func:`~pastiche_core.data.registry.register_pattern`) so that a catalogue holding
    it can be saved and loaded back.

    >>> class AllOdd(CustomPattern):
    ...     kind = "all-odd"
    ...     size = 3
    ...     def matches(self, ranks):
    ...         return len(ranks) == 3 and all(r % 2 for r in ranks)
    ...     def describe(self):
    ...         return "3 cards of odd ranks"
    >>> list(AllOdd().combinations(rank_counts([1, 3, 3, 4, 5])))
    [(1, 3, 3), (1, 3, 5), (3, 3, 5)]
    """

    kind: str = "custom"
    """The name the pattern is registered under and written as in catalogues."""
    size: int | None = None
    """How many cards the pattern takes, or ``None`` if it varies."""

    @abstractmethod
    def matches(self, ranks: Sequence[int]) -> bool:
        """Do exactly these ranks satisfy the requirement?"""

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]:
        """Every sub-multiset of ``available`` that :meth:`matches`, each once."""
        for ranks in sub_multisets(available, self.size):
            if self.matches(ranks):
                yield ranks

    def describe(self) -> str:
        """Human requirement text; override for something better than the class name."""
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        """Catalogue form: ``{"kind": kind}``; a pattern with parameters adds ``params``.

        A catalogue entry of this form loads back once the kind is registered
        (:func:`~pastiche_core.data.registry.register_pattern`); a pattern with
        parameters returns them as ``{"kind": ..., "params": {...}}``, the keyword
        arguments its factory takes. Data never names code, so no module or
        class path is written.

        >>> class Sevens(CustomPattern):
        ...     kind = "sevens"
        ...     def matches(self, ranks):
        ...         return bool(ranks) and set(ranks) == {7}
        >>> Sevens().to_dict()
        {'kind': 'sevens'}
        """
        return {"kind": self.kind}


def _check_positive_int(field: str, value: object, low: int, high: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        because = f" ({why})" if why else ""
        raise ValueError(f"{field} must be an integer from {low} to {high}{because}, got {value!r}")
