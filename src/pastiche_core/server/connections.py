"""Connections that one client cannot hog: the HTTP protocol layer ``pastiche serve`` runs.

uvicorn parses HTTP/1.1 with httptools (or h11) here, through
:func:`guarded_protocol`, a protocol that adds what uvicorn lacks (the numbers
are :class:`~pastiche_core.server.quotas.ServerLimits`'):

* a request head (request line and headers) larger than ``max_header_bytes``
  is answered 431 and the connection closed, before it is kept in memory;
* a head must arrive within ``header_timeout`` seconds of its first byte, or
  of the connection's opening: past them the answer is 408 and the connection
  is closed, so a connection that sends nothing, or a byte now and then,
  does not stay;
* one client address holds at most ``client_connections`` connections; one
  more is answered 503 with ``Retry-After`` and closed at once;
* with ``max_connections`` open, a new connection closes an idle one (waiting
  for a request head) of the address holding the most connections, more than
  the newcomer's own; if there is none, the newcomer is answered 503 with
  ``Retry-After``. A crowd of addresses holding idle connections therefore
  makes room for a new address instead of starving it;
* an answer is written in pieces of :data:`WRITE_CHUNK` bytes into a write
  buffer of at most :data:`WRITE_BUFFER` bytes (and a socket send buffer of
  :data:`SOCKET_BUFFER`): a client that does not read holds up its own
  answer, no further request of its connection is read, and once the writing
  has waited ``write_timeout`` seconds the connection is aborted;
* a response sent while the request's body is still arriving (the route did
  not read it) closes the connection instead of waiting for the rest;
* at most :data:`MAX_PIPELINED` pipelined requests wait behind the one
  being answered (httptools parses a whole chunk at once; h11 one request at
  a time); past them the rest is not read, and the connection closes after
  the answers to the requests before.

The guard itself (:class:`~pastiche_core.server.guard.Guarded`) is one mixin
for both protocol classes, in :mod:`~pastiche_core.server.guard`.

uvicorn itself closes a connection idle ``keep_alive`` seconds between two
requests; the application answers 431 past ``max_headers`` header lines and
408 (closing the connection) for a body slower than ``body_time_limit``.
:func:`uvicorn_settings` gives the uvicorn options for all of it.

>>> from pastiche_core.server.quotas import ServerLimits
>>> settings = uvicorn_settings(ServerLimits(keep_alive=3.0))
>>> settings["timeout_keep_alive"], settings["h11_max_incomplete_event_size"]
(3.0, 16384)
>>> settings["http"].__name__
'GuardedHttpToolsProtocol'
"""

from __future__ import annotations

from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .guard import (
    HEADERS_TOO_LARGE,
    MAX_PIPELINED,
    SOCKET_BUFFER,
    WRITE_BUFFER,
    WRITE_CHUNK,
    ChunkedAnswers,
    ConnectionGuard,
    Guarded,
    head_end,
    refusal,
)
from .quotas import ServerLimits

__all__ = [
    "HEADERS_TOO_LARGE",
    "MAX_PIPELINED",
    "PARSERS",
    "SOCKET_BUFFER",
    "WRITE_BUFFER",
    "WRITE_CHUNK",
    "ChunkedAnswers",
    "ConnectionGuard",
    "Guarded",
    "GuardedH11Protocol",
    "guarded_protocol",
    "head_end",
    "refusal",
    "uvicorn_settings",
]

PARSERS = ("httptools", "h11")
"""The HTTP parsers :func:`guarded_protocol` guards; the first is the default."""


class GuardedH11Protocol(Guarded, H11Protocol):
    """uvicorn's h11 protocol under the guard (:class:`Guarded`).

    Made per server by :func:`guarded_protocol`, which sets :attr:`guard`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setup_guard()

    def awaiting_head(self) -> bool:
        """Whether h11 waits for a request (its head not all here)."""
        return self.conn.their_state is h11.IDLE

    def body_pending(self) -> bool:
        """Whether h11 still reads the request's body."""
        return self.conn.their_state is h11.SEND_BODY

    def data_received(self, data: bytes) -> None:
        """Check the head's size before h11 keeps it; then let uvicorn handle the bytes."""
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:
            if self.head_since is None:
                # The first bytes of a next request on a kept-alive connection;
                # bytes already buffered belong to this head too.
                self.start_head()
                self.head_bytes = len(self.conn.trailing_data[0])
            if not self.head_fits(data):
                return
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self.stop_head()
        else:
            self.arm_head()

    def on_response_complete(self) -> None:
        """After an answer: a body still arriving closes the connection; else the next head,
        whose clock runs if it has begun (bytes of it came with the request before), and
        whose size is checked before h11 parses it."""
        self.answer_done()
        buffered = self.conn.trailing_data[0]
        if buffered and self.conn.their_state is h11.DONE and not self.transport.is_closing():
            self.head_bytes, self.head_tail = 0, b""
            self.head_fits(bytes(buffered[: self.guard.limits.max_header_bytes + 4]))
        super().on_response_complete()
        held = len(self.conn.trailing_data[0])
        if held and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.start_head()
            self.head_bytes = held
            self.arm_head()


def _httptools_protocol() -> type[Guarded]:
    """The guarded httptools protocol class (httptools imported only when asked for)."""
    from .connections_httptools import GuardedHttpToolsProtocol

    return GuardedHttpToolsProtocol


def guarded_protocol(limits: ServerLimits, parser: str = PARSERS[0]) -> type[Guarded]:
    """A guarded protocol class for one server, with its own :class:`ConnectionGuard`.

    ``parser`` is ``"httptools"`` (the default, the faster) or ``"h11"``.

    >>> protocol = guarded_protocol(ServerLimits(), "h11")
    >>> protocol.guard.limits.client_connections, protocol.__name__
    (32, 'GuardedH11Protocol')
    >>> guarded_protocol(ServerLimits(), "llhttp")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: parser must be one of httptools, h11, got 'llhttp'
    """
    from ..data.errors import InvalidArgumentError

    if parser not in PARSERS:
        raise InvalidArgumentError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")
    base: type[Guarded] = GuardedH11Protocol if parser == "h11" else _httptools_protocol()
    guard = ConnectionGuard(limits)
    return type(base.__name__, (base,), {"guard": guard})


def uvicorn_settings(limits: ServerLimits, parser: str = PARSERS[0]) -> dict[str, Any]:
    """The :class:`uvicorn.Config` options that hold the server's connections to ``limits``.

    The client is the peer's address: uvicorn does not read ``X-Forwarded-For``
    unless told which proxies to trust (``proxy_headers``, ``forwarded_allow_ips``).
    WebSocket upgrades are off: the service has no WebSocket route, and an
    upgraded connection would leave the protocol that counts it. uvicorn's own
    ``limit_concurrency`` (503 to every request once it is reached) is set
    above ``max_connections``, so that the guard's fair admission decides
    first; it stays as a backstop for requests whose connection closed while
    they still run.

    >>> sorted(uvicorn_settings(ServerLimits()))
    ['h11_max_incomplete_event_size', 'http', 'limit_concurrency', 'proxy_headers', 'timeout_keep_alive', 'ws']
    >>> uvicorn_settings(ServerLimits(max_connections=100))["limit_concurrency"]
    200
    """
    return {
        "http": guarded_protocol(limits, parser),
        "limit_concurrency": 2 * limits.max_connections,
        "timeout_keep_alive": limits.keep_alive,
        "h11_max_incomplete_event_size": limits.max_header_bytes,
        "proxy_headers": False,
        "ws": "none",
    }
