"""The game's seeded random generator (R14).

A SplitMix64 generator: its whole state is one 64-bit integer, so a game state
serialises its randomness exactly and a seed plus the decisions replays a game.
Python's :mod:`random` is not used for the game, because its state is large and
its algorithms may change between Python versions.

>>> rng = GameRng(7)
>>> [rng.below(10) for _ in range(5)]
[7, 4, 6, 3, 4]
>>> GameRng(7).state == GameRng(7).state
True
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["GameRng"]

_MASK = (1 << 64) - 1
_T = TypeVar("_T")


# home: R14
class GameRng:
    """SplitMix64: deterministic, portable and serialisable as one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"n must be positive, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: list[_T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates).

        >>> items = list(range(6)); GameRng(1).shuffle(items); items
        [0, 1, 3, 2, 4, 5]
        """
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> GameRng:
        """An independent generator in the same state."""
        twin = GameRng(0)
        twin.state = self.state
        return twin

    def __repr__(self) -> str:
        return f"<GameRng state={self.state:#018x}>"
