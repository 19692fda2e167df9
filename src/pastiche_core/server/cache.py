"""A bounded cache of encoded answers, least recently used first out.

``POST /v1/publishes`` answers the same body under the same limits with the
same bytes (the solver is deterministic: R8's options in a fixed order), so a
frontend that asks again about a position it already asked about gets the
stored answer without a search. Only answers that no clock cut short are kept
(``stopped_by`` is not ``"time_limit"``); the cache holds at most
``max_bytes`` of answers.

>>> cache = AnswerCache(max_bytes=10)
>>> cache.put("a", b"12345"); cache.put("b", b"678")
>>> cache.get("a"), len(cache), cache.size
(b'12345', 2, 8)
>>> cache.put("c", b"9999")          # over 10 bytes: "b", used least recently, goes
>>> cache.get("b") is None, cache.size
(True, 9)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

__all__ = ["AnswerCache"]


class AnswerCache:
    """Encoded answers by key, at most ``max_bytes`` in all (0 turns the cache off).

    >>> off = AnswerCache(0)
    >>> off.put("a", b"x"); off.get("a") is None
    True
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        """The most bytes of answers kept in all; 0 keeps none, and a larger answer is never
        kept."""
        self.size = 0
        """The bytes of the answers kept now."""
        self.hits = 0
        """Lookups that found an answer, since the cache was made."""
        self.misses = 0
        """Lookups that found none, since the cache was made."""
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        """The answer stored under ``key``, or ``None``."""
        with self._lock:
            found = self._answers.get(key)
            if found is None:
                self.misses += 1
                return None
            self._answers.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: Hashable, answer: bytes) -> None:
        """Store ``answer`` (unless it is too large), dropping the least recently used."""
        if len(answer) > self.max_bytes:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            if old is not None:
                self.size -= len(old)
            self._answers[key] = answer
            self.size += len(answer)
            while self.size > self.max_bytes and self._answers:
                _, dropped = self._answers.popitem(last=False)
                self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._answers)

    def __repr__(self) -> str:
        return (
            f"<AnswerCache {len(self)} answers, {self.size:,} of {self.max_bytes:,} bytes, "
            f"{self.hits} hits, {self.misses} misses>"
        )
