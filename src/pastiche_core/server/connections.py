"""Connections that one client cannot hog: the HTTP protocol layer ``pastiche serve`` runs.

uvicorn parses HTTP/1.1 with h11 here, through :func:`guarded_protocol`, a
protocol that adds what uvicorn lacks (the numbers are
:class:`~pastiche_core.server.quotas.ServerLimits`'):

* a request head (request line and headers) larger than ``max_header_bytes``
  is answered 431 and the connection closed, before it is kept in memory;
* a head must arrive within ``header_timeout`` seconds of its first byte, or
  of the connection's opening: past them the answer is 408 and the connection
  is closed, so a connection that sends nothing, or a byte now and then,
  does not stay;
* one client address holds at most ``client_connections`` connections; one
  more is answered 503 with ``Retry-After`` and closed at once;
* a response sent while the request's body is still arriving (the route did
  not read it) closes the connection instead of waiting for the rest.

uvicorn itself closes a connection idle ``keep_alive`` seconds between two
requests and answers 503 past ``max_connections`` connections; the
application answers 431 past ``max_headers`` header lines and 408 (closing the
connection) for a body slower than ``body_time_limit``. :func:`uvicorn_settings`
gives the uvicorn options for all of it.

>>> from pastiche_core.server.quotas import ServerLimits
>>> settings = uvicorn_settings(ServerLimits(keep_alive=3.0))
>>> settings["timeout_keep_alive"], settings["h11_max_incomplete_event_size"]
(3.0, 16384)
>>> settings["http"].__name__
'GuardedH11Protocol'
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol

from .api_errors import TIMEOUT, UNAVAILABLE
from .quotas import ServerLimits

__all__ = [
    "HEADERS_TOO_LARGE",
    "ConnectionGuard",
    "GuardedH11Protocol",
    "guarded_protocol",
    "head_end",
    "refusal",
    "uvicorn_settings",
]

HEADERS_TOO_LARGE = 431
"""A request head past ``max_header_bytes`` bytes or ``max_headers`` lines."""


def refusal(status: int, message: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.1 answer in the service's error shape, closing the connection.

    Written straight to the socket, outside any request: the protocol layer
    refuses a connection or a head before the application sees it.

    >>> print(refusal(431, "too long").decode().replace("\\r", ""))
    HTTP/1.1 431 Request Header Fields Too Large
    content-type: application/json
    content-length: 48
    connection: close
    <BLANKLINE>
    {"error": {"path": null, "message": "too long"}}
    """
    body = json.dumps({"error": {"path": None, "message": message}}).encode()
    lines = [
        f"HTTP/1.1 {status} {STATUS_PHRASES[status].decode()}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry_after is not None:
        lines.append(f"retry-after: {retry_after}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def head_end(data: bytes) -> int:
    """The index just past the blank line that ends an HTTP head in ``data``, or -1.

    h11 takes ``\\n\\n`` as well as ``\\r\\n\\r\\n``, so both count.

    >>> head_end(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nbody"), head_end(b"GET / HTTP/1.1\\r\\n")
    (27, -1)
    """
    ends = [found + 2 for found in (data.find(b"\n\n"),) if found >= 0]
    ends += [found + 3 for found in (data.find(b"\n\r\n"),) if found >= 0]
    return min(ends) if ends else -1


class ConnectionGuard:
    """One server's count of open connections per client address, and what it refused.

    >>> guard = ConnectionGuard(ServerLimits(client_connections=2))
    >>> guard.admit("10.0.0.1"), guard.admit("10.0.0.1"), guard.admit("10.0.0.1")
    (True, True, False)
    >>> guard.release("10.0.0.1"); guard.admit("10.0.0.1"), guard.open["10.0.0.1"]
    (True, 2)
    >>> guard.refused
    {'client_connections': 1}
    """

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        """The bounds the connections are held to."""
        self.open: dict[str, int] = {}
        """Open connections by client address (addresses with none are left out)."""
        self.refused: dict[str, int] = {}
        """Connections and heads refused so far, by the limit that refused them."""

    def admit(self, client: str) -> bool:
        """Count a new connection from ``client``; ``False`` past its share (not counted)."""
        held = self.open.get(client, 0)
        if held >= self.limits.client_connections:
            self.count("client_connections")
            return False
        self.open[client] = held + 1
        return True

    def release(self, client: str) -> None:
        """A connection :meth:`admit` counted is closed."""
        left = self.open.get(client, 0) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)

    def count(self, limit: str) -> None:
        """Count one refusal by ``limit``."""
        self.refused[limit] = self.refused.get(limit, 0) + 1


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a bound on head size and time and a share per client.

    Made per server by :func:`guarded_protocol`, which sets :attr:`guard`.
    """

    guard: ClassVar[ConnectionGuard]
    """The server's connection counts and limits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer = ""
        """The client's address (the key of its share of connections)."""
        self.admitted = False
        """Whether this connection is counted in the client's share."""
        self.head_bytes = 0
        """Bytes of the request head received so far (0 between requests)."""
        self.head_tail = b""
        """The last bytes of the head so far, where a blank line may begin."""
        self.head_timer: asyncio.TimerHandle | None = None
        """Fires when the head has taken ``header_timeout`` seconds; ``None`` when no head is due."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the connection in its client's share, or refuse it (503) past the share."""
        super().connection_made(transport)  # type: ignore[arg-type]
        self.peer = self.client[0] if self.client else ""
        if not self.guard.admit(self.peer):
            share = self.guard.limits.client_connections
            self.refuse(
                UNAVAILABLE,
                f"this client holds {share} connections, the most client_connections allows",
                retry_after=1,
            )
            return
        self.admitted = True
        self.start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the connection back to its client's share."""
        self.stop_head()
        if self.admitted:
            self.admitted = False
            self.guard.release(self.peer)
        super().connection_lost(exc)

    def start_head(self) -> None:
        """A request head is due: its clock starts."""
        self.head_bytes, self.head_tail = 0, b""
        seconds = self.guard.limits.header_timeout
        self.head_timer = self.loop.call_later(seconds, self.head_timed_out)

    def stop_head(self) -> None:
        """No head is due (it arrived, or the connection closes)."""
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        """The head did not arrive in time: 408, and the connection is closed."""
        self.head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        seconds = self.guard.limits.header_timeout
        self.guard.count("header_timeout")
        self.refuse(TIMEOUT, f"the request head did not arrive within {seconds:g} seconds")

    def refuse(self, status: int, message: str, retry_after: int | None = None) -> None:
        """Answer ``status`` outside any request and close the connection."""
        self.stop_head()
        self.transport.write(refusal(status, message, retry_after))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        """Check the head's size before h11 keeps it; then let uvicorn handle the bytes."""
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:
            if self.head_timer is None:
                # The first bytes of a next request on a kept-alive connection;
                # bytes already buffered belong to this head too.
                self.start_head()
                self.head_bytes = len(self.conn.trailing_data[0])
            if not self.head_fits(data):
                return
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self.stop_head()

    def head_fits(self, data: bytes) -> bool:
        """Count ``data`` into the head; past ``max_header_bytes``, answer 431 and close."""
        cap = self.guard.limits.max_header_bytes
        room = cap - self.head_bytes
        window = self.head_tail + data[: max(room, 0) + 3]
        end = head_end(window)
        size = self.head_bytes - len(self.head_tail) + end if end >= 0 else -1
        if (end < 0 and self.head_bytes + len(data) > cap) or size > cap:
            self.guard.count("max_header_bytes")
            self.refuse(
                HEADERS_TOO_LARGE,
                f"the request head has more than {cap:,} bytes, the most max_header_bytes allows",
            )
            return False
        self.head_bytes += len(data)
        self.head_tail = (self.head_tail + data[-2:])[-2:]
        return True

    def on_response_complete(self) -> None:
        """After an answer: a body still arriving closes the connection; else the next head."""
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            # The route answered without reading the whole body: rather than
            # read and drop a body of any length at any pace, the connection goes.
            self.transport.close()
        super().on_response_complete()


def guarded_protocol(limits: ServerLimits) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` class for one server, with its own :class:`ConnectionGuard`.

    >>> protocol = guarded_protocol(ServerLimits())
    >>> protocol.guard.limits.client_connections
    32
    """
    guard = ConnectionGuard(limits)
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"guard": guard})


def uvicorn_settings(limits: ServerLimits) -> dict[str, Any]:
    """The :class:`uvicorn.Config` options that hold the server's connections to ``limits``.

    The client is the peer's address: uvicorn does not read ``X-Forwarded-For``
    unless told which proxies to trust (``proxy_headers``, ``forwarded_allow_ips``).
    WebSocket upgrades are off: the service has no WebSocket route, and an
    upgraded connection would leave the protocol that counts it.

    >>> sorted(uvicorn_settings(ServerLimits()))
    ['h11_max_incomplete_event_size', 'http', 'limit_concurrency', 'proxy_headers', 'timeout_keep_alive', 'ws']
    """
    return {
        "http": guarded_protocol(limits),
        "limit_concurrency": limits.max_connections,
        "timeout_keep_alive": limits.keep_alive,
        "h11_max_incomplete_event_size": limits.max_header_bytes,
        "proxy_headers": False,
        "ws": "none",
    }
