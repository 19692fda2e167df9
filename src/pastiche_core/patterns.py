"""Novel requirements as patterns over card ranks (R2, R3).

A pattern answers two questions about ranks (genres never matter):

* :meth:`Pattern.matches` — do these ranks satisfy the requirement *exactly*
  (nothing more, nothing less)?
* :meth:`Pattern.combinations` — given how many cards of each rank are
  available, which distinct rank multisets satisfy it? Each is yielded once, as
  a sorted tuple of ranks.

The built-in kinds are :class:`Straight`, :class:`OfAKind`, :class:`Pairs` and
:class:`Total`. A user-defined pattern is any object that follows the
:class:`Pattern` protocol; subclassing :class:`CustomPattern` only requires
:meth:`~CustomPattern.matches` and gives an exact (if slower) generic
:meth:`~CustomPattern.combinations`.

>>> Straight(5).matches([9, 5, 6, 8, 7])
True
>>> list(Pairs(3).combinations(rank_counts([4, 4, 10, 10, 12, 12, 13])))
[(4, 4, 10, 10, 12, 12)]
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .cards import MAX_RANK, MIN_RANK

__all__ = [
    "CustomPattern",
    "OfAKind",
    "Pairs",
    "Pattern",
    "RankCounts",
    "Straight",
    "Total",
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
    human requirement text.
    """

    @property
    def kind(self) -> str: ...

    @property
    def size(self) -> int | None: ...

    def matches(self, ranks: Sequence[int]) -> bool: ...

    def combinations(self, available: RankCounts) -> Iterator[tuple[int, ...]]: ...

    def describe(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


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

    def __post_init__(self) -> None:
        _check_positive_int("count", self.count, 2, 7)

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

    def __post_init__(self) -> None:
        _check_positive_int("pairs", self.pairs, 1, MAX_RANK)

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

    def describe(self) -> str:
        return f"{self.pairs} pairs of {self.pairs} different ranks"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "pairs", "pairs": self.pairs}


@dataclass(frozen=True, slots=True)
class Total:
    """``count`` cards whose ranks add up to ``target`` (note \\*4).

    >>> Total(5, 49).matches([2, 10, 12, 12, 13]), Total(7, 49).matches([4, 5, 5, 7, 7, 9, 12])
    (True, True)
    >>> list(Total(2, 5).combinations(rank_counts([1, 2, 3, 4])))
    [(1, 4), (2, 3)]
    """

    count: int
    target: int

    def __post_init__(self) -> None:
        _check_positive_int("count", self.count, 1, 49)
        _check_positive_int("target", self.target, 1, 49 * MAX_RANK)

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
        """Every multiset of ``count`` available ranks summing to ``target``."""
        return iter(_total_combinations(self.count, self.target, tuple(available)))

    def describe(self) -> str:
        return f"{self.count} cards whose ranks add up to {self.target}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "total", "count": self.count, "target": self.target}


def _total_combinations(
    count: int, target: int, available: RankCounts
) -> tuple[tuple[int, ...], ...]:
    # Suffix capacity and the sum of the highest cards let the search prune branches
    # that cannot reach the target: the highest `left` cards are all still available
    # whenever `left` cards of the current rank or above are.
    suffix = [0] * (MAX_RANK + 2)
    for rank in range(MAX_RANK, MIN_RANK - 1, -1):
        suffix[rank] = suffix[rank + 1] + available[rank]
    best = [0]
    for rank in range(MAX_RANK, MIN_RANK - 1, -1):
        for _ in range(min(available[rank], count)):
            best.append(best[-1] + rank)
    best.extend([best[-1]] * (count + 1 - len(best)))
    # least[rank][k]: the sum of the k lowest cards of `rank` or above (a lower bound).
    least: list[list[int]] = [[0] for _ in range(MAX_RANK + 2)]
    lowest: list[int] = []
    for rank in range(MAX_RANK, MIN_RANK - 1, -1):
        lowest = ([rank] * min(available[rank], count) + lowest)[:count]
        sums = [0]
        for value in lowest:
            sums.append(sums[-1] + value)
        least[rank] = sums

    # Different prefixes often leave the same (rank, cards left, sum needed): the
    # suffixes of such a state are computed once.
    memo: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}

    def solve(rank: int, left: int, need: int) -> list[tuple[int, ...]]:
        if left == 0:
            return [()] if need == 0 else []
        if rank > MAX_RANK or suffix[rank] < left:
            return []
        if need < least[rank][left] or need > best[left]:
            return []
        key = (rank, left, need)
        found = memo.get(key)
        if found is None:
            found = []
            for taken in range(min(available[rank], left, need // rank), -1, -1):
                prefix = (rank,) * taken
                for tail in solve(rank + 1, left - taken, need - taken * rank):
                    found.append(prefix + tail)
            memo[key] = found
        return found

    results = solve(MIN_RANK, count, target)
    results.sort()
    return tuple(results)


class CustomPattern(ABC):
    """Base class for a user-defined pattern (R3): implement :meth:`matches`.

    Set ``size`` when the pattern always takes the same number of cards; it makes
    the generic search much faster. ``combinations`` tries every sub-multiset of
    the available ranks, so results are exact for any ``matches``.

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
    size: int | None = None

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
        """Catalogue form: the factory path, so a TOML catalogue can name it."""
        cls = type(self)
        return {"kind": "custom", "factory": f"{cls.__module__}:{cls.__qualname__}"}


def _check_positive_int(field: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{field} must be an integer from {low} to {high}, got {value!r}")
