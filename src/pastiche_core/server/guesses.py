"""Wrong game tokens counted per client address: past a share a minute, the address waits.

A token is 32 random characters, so guessing one is hopeless; counting wrong
tokens still keeps a guesser from costing the service a lookup and a hash per
try, and shows up in the answers it gets. :class:`TokenGuesses` keeps, per
client, the times of its wrong tokens (403) within the last minute; with
``limit`` of them, the client's next game request is answered 429 with
``Retry-After`` before any game is looked up or any token hashed. Clients on
other addresses, right tokens included, are not affected.

>>> now = [0.0]
>>> guesses = TokenGuesses(2, clock=lambda: now[0])
>>> guesses.check("10.0.0.1"); guesses.wrong("10.0.0.1"); guesses.wrong("10.0.0.1")
>>> guesses.check("10.0.0.1")
Traceback (most recent call last):
...
pastiche_core.server.api_errors.ApiError: this client gave 2 wrong tokens in the last 60 seconds, the most token_guesses allows; try again in 60 seconds
>>> guesses.check("10.0.0.2")
>>> now[0] = 60.0
>>> guesses.check("10.0.0.1")
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from .api_errors import TOO_MANY, ApiError

__all__ = ["TokenGuesses"]


class TokenGuesses:
    """Each client's wrong tokens within :attr:`WINDOW` seconds, at most ``limit`` of them.

    The table forgets a client once its last wrong token is a window old, and
    holds at most ``clients`` addresses (the first counted go first), so a crowd of
    addresses cannot grow it without bound.
    """

    WINDOW = 60.0
    """The span, in seconds, over which wrong tokens are counted."""

    def __init__(
        self,
        limit: int,
        *,
        clients: int = 65_536,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        """Wrong tokens one client may give within :attr:`WINDOW` seconds."""
        self.clients = clients
        """Addresses counted at most at once."""
        self.clock = clock
        """A monotonic clock in seconds."""
        self._stamps: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, client: str) -> None:
        """429 with ``Retry-After`` if ``client`` gave ``limit`` wrong tokens this minute."""
        with self._lock:
            stamps = self._stamps.get(client)
            if stamps is None:
                return
            now = self.clock()
            while stamps and now - stamps[0] >= self.WINDOW:
                stamps.popleft()
            if not stamps:
                del self._stamps[client]
                return
            if len(stamps) >= self.limit:
                wait = max(1, math.ceil(self.WINDOW - (now - stamps[0])))
                raise ApiError(
                    TOO_MANY,
                    f"this client gave {len(stamps)} wrong tokens in the last "
                    f"{self.WINDOW:g} seconds, the most token_guesses allows; "
                    f"try again in {wait} seconds",
                    None,
                    retry_after=wait,
                )

    def wrong(self, client: str) -> None:
        """Count one wrong (or missing) token from ``client``."""
        with self._lock:
            now = self.clock()
            if client not in self._stamps and len(self._stamps) >= self.clients:
                del self._stamps[next(iter(self._stamps))]  # the first counted goes
            stamps = self._stamps.setdefault(client, deque())
            stamps.append(now)
            while len(stamps) > self.limit:
                stamps.popleft()
