"""User-defined patterns for custom catalogue tests (R3).

``tests/conftest.py`` registers :class:`AllOdd` as kind ``all-odd`` and
:class:`SumOfAnySize` as ``sum-any`` (:func:`~pastiche_core.register_pattern`),
so catalogues in the tests' data name them as ``kind = "all-odd"`` with
``params = {count = 5}``. :class:`SumOfAnySize` has no fixed size, which
exercises the generic search over sub-multisets of every size. The remaining
factories are broken on purpose, for the catalogue's error messages; tests
register them for a moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pastiche_core import CustomPattern, Straight

__all__ = [
    "AllOdd",
    "SumOfAnySize",
    "failing_factory",
    "not_a_pattern",
    "pattern_class",
    "straight_factory",
    "wrong_kind_factory",
]


class AllOdd(CustomPattern):
    """``count`` cards, every one of an odd rank (genres do not matter).

    >>> AllOdd(3).matches([1, 3, 3]), AllOdd(3).matches([1, 3, 4]), AllOdd(3).matches([1, 3])
    (True, False, False)
    """

    kind = "all-odd"

    def __init__(self, count: int = 5) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 25:
            raise ValueError(f"count must be an integer from 1 to 25, got {count!r}")
        self.count = count
        self.size = count

    def matches(self, ranks: Sequence[int]) -> bool:
        return len(ranks) == self.count and all(rank % 2 == 1 for rank in ranks)

    def describe(self) -> str:
        return f"{self.count} cards of odd ranks"

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "params": {"count": self.count}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AllOdd) and other.count == self.count

    def __hash__(self) -> int:
        return hash((AllOdd, self.count))

    def __repr__(self) -> str:
        return f"AllOdd(count={self.count})"


class SumOfAnySize(CustomPattern):
    """Any number of cards (two or more) whose ranks add up to ``target``.

    >>> SumOfAnySize(10).matches([3, 7]), SumOfAnySize(10).matches([10])
    (True, False)
    """

    kind = "sum-any"

    def __init__(self, target: int = 20) -> None:
        self.target = target

    def matches(self, ranks: Sequence[int]) -> bool:
        return len(ranks) >= 2 and sum(ranks) == self.target

    def describe(self) -> str:
        return f"two or more cards whose ranks add up to {self.target}"

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "params": {"target": self.target}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SumOfAnySize) and other.target == self.target

    def __hash__(self) -> int:
        return hash((SumOfAnySize, self.target))


def straight_factory(length: int = 3) -> Straight:
    """A factory that is a plain function returning a built-in pattern."""
    return Straight(length)


def wrong_kind_factory() -> AllOdd:
    """A factory whose pattern's kind is not the kind it is registered under."""
    return AllOdd(3)


def failing_factory() -> CustomPattern:
    """A factory that raises."""
    raise RuntimeError("the muse has left")


def not_a_pattern() -> object:
    """A factory that returns something that is not a pattern."""
    return 42


def pattern_class() -> type[AllOdd]:
    """A factory that returns a pattern class instead of a pattern."""
    return AllOdd
