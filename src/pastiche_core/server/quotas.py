"""Every limit of the hint service in one place, with its default.

A service answers strangers, so every request is bounded in size and time and
the service itself in memory: :class:`ServerLimits` holds the numbers, and
``pastiche serve`` sets the most useful ones from its options. The defaults:

>>> limits = ServerLimits()
>>> limits.max_body_bytes, limits.time_limit, limits.max_time_limit
(1048576, 2.0, 10.0)
>>> limits.max_options, limits.max_max_options
(1000, 10000)
>>> limits.budget_ms, limits.max_budget_ms
(300, 5000)
>>> limits.max_games, limits.game_ttl, limits.max_records, limits.record_ttl
(1000, 21600.0, 100000, 2592000.0)
>>> limits.client_games, limits.client_creations, limits.client_connections
(10, 20, 32)
>>> limits.max_header_bytes, limits.max_headers, limits.header_timeout, limits.keep_alive
(16384, 100, 5.0, 5.0)
>>> limits.max_connections, limits.write_timeout
(512, 10.0)
>>> ServerLimits(max_games=0)
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidArgumentError: max_games must be at least 1, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from ..data.errors import InvalidArgumentError
from ..data.limits import CLI_MAX_OPTIONS, MAX_JSON_BYTES, MAX_TIME_LIMIT

__all__ = ["ServerLimits"]


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The bounds of one service: request sizes, time budgets, games kept.

    **Requests.** ``max_body_bytes`` caps a request body (HTTP answers 413 past
    it) and ``max_line_bytes`` a JSON-RPC line; a body must arrive within
    ``body_time_limit`` seconds (408 past it, and the connection is closed).

    **Connections.** The HTTP server holds at most ``max_connections``
    connections at once, at most ``client_connections`` of them from one
    client address (503 beyond). A request's head (request line and headers)
    has at most ``max_header_bytes`` bytes and ``max_headers`` header lines
    (431 past either) and must arrive within ``header_timeout`` seconds of its
    first byte, or of the connection's opening (408, then the connection is
    closed); a connection idle between two requests for ``keep_alive``
    seconds is closed. When ``max_connections`` are open, a new client
    address takes an idle connection of the address holding the most; an
    answer its client does not read for ``write_timeout`` seconds aborts the
    connection.

    **Work.** ``POST /v1/publishes`` searches
    for ``time_limit`` seconds and lists ``max_options`` options unless the
    request asks for other values, at most ``max_time_limit`` and
    ``max_max_options``. ``POST /v1/hint`` gives the analysis ``budget_ms``
    milliseconds unless the body asks for another budget, at most
    ``max_budget_ms``. ``POST /v1/outs`` searches for ``time_limit`` seconds;
    ``POST /v1/review`` runs at most ``max_review_simulations`` simulations a
    search over at most ``max_review_decisions`` decisions, for at most
    ``review_time_limit`` seconds (past a bound its answer is incomplete).

    **Games.** At most ``max_games`` games in play are kept, each dropped
    after ``game_ttl`` seconds untouched; no game in play is ever dropped to
    make room. Once half of ``max_games`` are in play, a client that keeps one
    may not create another (429 with ``Retry-After``), and at ``max_games``
    a new game is refused (503 with ``Retry-After``). Finished games do not
    count: their records stay readable for ``record_ttl`` seconds untouched,
    at most ``max_records`` of them (the least recently used go first; in
    memory, without a store, at most ``max_games``). One client (its
    address) keeps at most ``client_games`` unfinished games and creates at
    most ``client_creations`` games in any minute (429 with ``Retry-After``
    beyond). With a store file, at most
    ``cached_games`` games stay replayed in memory (the others are replayed
    from their moves when asked for, R14). After a human's move the bots play
    for at most ``bot_time_limit`` seconds and ``bot_decisions`` decisions per
    request; past either the answer says ``"waiting": true`` and the next
    request goes on. A client address that gave ``token_guesses`` wrong tokens
    within a minute gets 429 on game requests, before any token is checked. A
    seat's legal moves list at most ``legal_publishes`` publish options, found
    within ``legal_time_limit`` seconds (outside the action phase, where there
    are no publishes, it caps the whole list).

    **Answers.** HTTP answers to ``POST /v1/publishes`` that no clock cut
    short are kept, ``answer_cache_bytes`` of them at most (16 MiB; 0 keeps
    none): the same body under the same limits gets the same bytes again
    (:class:`~pastiche_core.server.cache.AnswerCache`).

    >>> ServerLimits(time_limit=20.0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: time_limit must be at most max_time_limit (10 s), got 20.0
    """

    max_body_bytes: int = MAX_JSON_BYTES
    """The largest request body, in bytes (HTTP answers 413 past it)."""
    body_time_limit: float = 30.0
    """Seconds a request body may take to arrive (HTTP answers 408 past them)."""
    max_connections: int = 512
    """HTTP connections served at once; past them a new client address takes an idle connection
    of the address holding the most, or is answered 503."""
    max_line_bytes: int = MAX_JSON_BYTES + 65_536
    """The longest JSON-RPC line, in bytes (error ``-32600`` past it): a largest body with room for
    the envelope."""
    time_limit: float = 2.0
    """Seconds a publishes request searches unless it asks for another time limit."""
    max_time_limit: float = 10.0
    """The longest time limit a publishes request may ask for, in seconds (at most
    :data:`~pastiche_core.data.limits.MAX_TIME_LIMIT`)."""
    max_options: int = CLI_MAX_OPTIONS
    """Options a publishes request lists unless it asks for another number."""
    max_max_options: int = 10_000
    """The most options a publishes request may ask for."""
    budget_ms: int = 300
    """Milliseconds of analysis a hint gets unless the body asks for another budget."""
    max_budget_ms: int = 5_000
    """The largest analysis budget a hint may ask for, in milliseconds."""
    max_games: int = 1_000
    """Games in play kept at once; past half of it one per client (429), past it none (503)."""
    game_ttl: float = 6 * 3600.0
    """Seconds a game nobody touches is kept (6 hours by default)."""
    cached_games: int = 256
    """With a store file, games kept replayed in memory; the others are replayed from their moves
    when asked for (R14)."""
    bot_time_limit: float = 5.0
    """Seconds the bots may play in one request after a human's move."""
    bot_decisions: int = 2_000
    """Decisions the bots may take in one request after a human's move."""
    legal_publishes: int = 100
    """Publish options a seat's legal moves list at most; outside the action phase, the cap on the
    whole list."""
    legal_time_limit: float = 1.0
    """Seconds spent finding the publish options of a seat's legal moves."""
    answer_cache_bytes: int = 16 * 2**20
    """Bytes of HTTP publishes answers kept for repeated requests (16 MiB by default, 0 for
    none)."""
    max_records: int = 100_000
    """Finished games kept, so their records stay readable; past it the least recently used goes
    (in memory, without a store, at most ``max_games``)."""
    record_ttl: float = 30 * 86_400.0
    """Seconds a finished game nobody touches is kept (30 days by default)."""
    client_games: int = 10
    """Unfinished games one client keeps at once (429 beyond)."""
    client_creations: int = 20
    """Games one client may create in any 60 seconds (429 beyond)."""
    client_connections: int = 32
    """HTTP connections one client address holds at once (503 beyond); behind a reverse proxy
    every client has the proxy's address, so set it to ``max_connections`` there."""
    max_header_bytes: int = 16_384
    """The largest request head (request line and headers), in bytes (431 past it)."""
    max_headers: int = 100
    """The most header lines in one request (431 past it)."""
    header_timeout: float = 5.0
    """Seconds a request head may take to arrive from its first byte, or from the connection's
    opening (408 past them, then the connection is closed)."""
    keep_alive: float = 5.0
    """Seconds an idle connection is kept open between two requests."""
    write_timeout: float = 10.0
    """Seconds an answer may wait for a client that does not read it (the connection's writing
    paused, its buffers full) before the connection is aborted."""
    max_review_simulations: int = 128
    """The most simulations a review's searches may run (``POST /v1/review``; 64 by default)."""
    max_review_decisions: int = 300
    """The most decisions one review reviews; past them it says ``complete: false``."""
    review_time_limit: float = 20.0
    """Seconds a review may run; past them it says ``complete: false``."""
    token_guesses: int = 20
    """Wrong game tokens (403) one client address may give in any 60 seconds; past them its game
    requests are answered 429 before any token is checked."""

    def __post_init__(self) -> None:
        check_settings(self, may_be_zero=("answer_cache_bytes",))
        if self.max_time_limit > MAX_TIME_LIMIT:
            raise InvalidArgumentError(
                f"max_time_limit must be at most {MAX_TIME_LIMIT:g} s, got {self.max_time_limit!r}"
            )
        for name, cap in (
            ("time_limit", "max_time_limit"),
            ("max_options", "max_max_options"),
            ("budget_ms", "max_budget_ms"),
        ):
            value, top = getattr(self, name), getattr(self, cap)
            if value > top:
                unit = " s" if isinstance(top, float) else ""
                raise InvalidArgumentError(
                    f"{name} must be at most {cap} ({top:g}{unit}), got {value!r}"
                )


def check_settings(settings: object, *, may_be_zero: tuple[str, ...] = ()) -> None:
    """Check a frozen settings dataclass: integers at least 1 (0 for ``may_be_zero``), seconds
    finite and above 0 (stored as floats); an :class:`InvalidArgumentError` names the field.

    >>> check_settings(ServerLimits())
    >>> ServerLimits(keep_alive=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: keep_alive must be more than 0 seconds, got 0
    """
    for item in fields(settings):  # type: ignore[arg-type]
        value = getattr(settings, item.name)
        if isinstance(item.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidArgumentError(f"{item.name} must be an integer, got {value!r}")
            low = 0 if item.name in may_be_zero else 1
            if value < low:
                raise InvalidArgumentError(f"{item.name} must be at least {low}, got {value!r}")
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidArgumentError(f"{item.name} must be a number of seconds, got {value!r}")
        if not (math.isfinite(value) and value > 0):
            raise InvalidArgumentError(f"{item.name} must be more than 0 seconds, got {value!r}")
        object.__setattr__(settings, item.name, float(value))
