"""The guard of every HTTP connection, whatever parses it: shares, fair admission, head and
write clocks, bounded buffers (:mod:`~pastiche_core.server.connections` puts it on uvicorn's
protocols).

>>> guard = ConnectionGuard(ServerLimits(max_connections=2))
>>> guard.admit("10.0.0.1"), guard.admit("10.0.0.2"), guard.total
(True, True, 2)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any, ClassVar

from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES

from .api_errors import TIMEOUT, UNAVAILABLE
from .quotas import ServerLimits

__all__ = [
    "HEADERS_TOO_LARGE",
    "MAX_PIPELINED",
    "SOCKET_BUFFER",
    "WRITE_BUFFER",
    "WRITE_CHUNK",
    "ChunkedAnswers",
    "ConnectionGuard",
    "Guarded",
    "head_end",
    "refusal",
]

HEADERS_TOO_LARGE = 431
"""A request head past ``max_header_bytes`` bytes or ``max_headers`` lines."""
WRITE_CHUNK = 65_536
"""The largest piece of an answer handed to a connection at once."""
WRITE_BUFFER = 65_536
"""Bytes a connection's write buffer holds before the answer waits for the client to read."""
SOCKET_BUFFER = 65_536
"""The send buffer asked of the kernel for each accepted socket (``SO_SNDBUF``)."""
MAX_PIPELINED = 16
"""Pipelined requests that may wait behind the one being answered."""


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

    Parsers take ``\\n\\n`` as well as ``\\r\\n\\r\\n``, so both count.

    >>> head_end(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nbody"), head_end(b"GET / HTTP/1.1\\r\\n")
    (27, -1)
    """
    ends = [found + 2 for found in (data.find(b"\n\n"),) if found >= 0]
    ends += [found + 3 for found in (data.find(b"\n\r\n"),) if found >= 0]
    return min(ends) if ends else -1


class ConnectionGuard:
    """One server's open connections per client address, and what it refused or closed.

    :meth:`admit` holds a client to its share and the server to
    ``max_connections``: when full, an idle connection of the address holding
    the most (more than the newcomer's) is closed to make room.

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
        self.members: dict[str, dict[Guarded, None]] = {}
        """The open connections of each address, oldest first (those :meth:`admit` was given)."""
        self.total = 0
        """Open connections in all."""
        self.refused: dict[str, int] = {}
        """Connections and heads refused, and idle connections closed to make room, so far, by the
        limit that refused them (``evicted``: closed for a newcomer)."""

    def admit(self, client: str, connection: Guarded | None = None) -> bool:
        """Count a new connection from ``client``; ``False`` (not counted) past its share, or
        when the server is full and no idle connection of a larger holder can make room.

        >>> guard = ConnectionGuard(ServerLimits(max_connections=1))
        >>> guard.admit("10.0.0.1"), guard.admit("10.0.0.2"), guard.refused
        (True, False, {'max_connections': 1})
        """
        held = self.open.get(client, 0)
        if held >= self.limits.client_connections:
            self.count("client_connections")
            return False
        if self.total >= self.limits.max_connections and not self.make_room(held):
            self.count("max_connections")
            return False
        self.open[client] = held + 1
        self.total += 1
        if connection is not None:
            self.members.setdefault(client, {})[connection] = None
        return True

    def make_room(self, held: int) -> bool:
        """Close one idle connection of the address holding the most connections, more than
        ``held`` (the newcomer's own); whether one was closed.

        Only when the server is full: the sort is then over at most
        ``max_connections`` addresses, and each address's scan over its share.
        """
        holders = sorted(self.members.items(), key=lambda item: len(item[1]), reverse=True)
        for _, connections in holders:
            if len(connections) <= held:
                break
            for connection in connections:
                if connection.idle():
                    self.count("evicted")
                    connection.evict()
                    return True
        return False

    def release(self, client: str, connection: Guarded | None = None) -> None:
        """A connection :meth:`admit` counted is closed."""
        left = self.open.get(client, 0) - 1
        self.total = max(0, self.total - 1)
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)
        if connection is not None:
            connections = self.members.get(client, {})
            connections.pop(connection, None)
            if not connections:
                self.members.pop(client, None)

    def count(self, limit: str) -> None:
        """Count one refusal by ``limit``."""
        self.refused[limit] = self.refused.get(limit, 0) + 1


class ChunkedAnswers:
    """ASGI middleware: an answer body longer than :data:`WRITE_CHUNK` goes out in pieces.

    uvicorn waits for the client to read before each piece once the write
    buffer is full, so a large answer (a cached 1.8 MB publishes answer, say)
    is never held whole in the buffer of a connection that does not read.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        """The application whose answers are cut."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the application, cutting each long body message into pieces."""

        async def pieces(message: Any) -> None:
            body = message.get("body")
            if body is None or len(body) <= WRITE_CHUNK:
                await send(message)
                return
            more = message.get("more_body", False)
            for start in range(0, len(body), WRITE_CHUNK):
                last = start + WRITE_CHUNK >= len(body)
                piece = body[start : start + WRITE_CHUNK]
                await send(
                    {"type": "http.response.body", "body": piece, "more_body": more or not last}
                )

        await self.app(scope, receive, pieces)


class Guarded(asyncio.Protocol):
    """What both guarded protocols share: the client's share, fair admission, the head's size
    and clock, and the write buffer's bound and clock.

    Placed before uvicorn's protocol class among the bases, so that its
    ``connection_made``, ``connection_lost``, ``pause_writing`` and
    ``resume_writing`` wrap uvicorn's. Each subclass says when its parser
    waits for a head (:meth:`awaiting_head`) and whether a request's body is
    still arriving (:meth:`body_pending`).
    """

    guard: ClassVar[ConnectionGuard]
    """The server's connection counts and limits."""
    transport: asyncio.Transport
    """The connection's transport (set by uvicorn's protocol)."""
    loop: asyncio.AbstractEventLoop
    """The server's event loop (set by uvicorn's protocol)."""
    client: tuple[str, int] | None
    """The peer's address and port (set by uvicorn's protocol)."""
    flow: FlowControl
    """uvicorn's pausing of reads and writes."""
    app: Any
    """The application the requests go to (wrapped in :class:`ChunkedAnswers` here)."""
    cycle: Any
    """uvicorn's latest request and its answer, ``None`` before the first."""

    def setup_guard(self) -> None:
        """The guard's state of one connection (called from ``__init__``)."""
        self.app = ChunkedAnswers(self.app)
        self.peer = ""
        """The client's address (the key of its share of connections)."""
        self.admitted = False
        """Whether this connection is counted in the client's share."""
        self.head_bytes = 0
        """Bytes of the request head received so far (0 between requests)."""
        self.head_tail = b""
        """The last bytes of the head so far, where a blank line may begin."""
        self.head_since: float | None = None
        """When the head due began (the loop's clock), or ``None`` when no head is due."""
        self.head_timer: asyncio.TimerHandle | None = None
        """Fires when the head has taken ``header_timeout`` seconds; armed only while a head is
        due past the bytes at hand (most heads arrive whole, and need no timer)."""
        self.write_timer: asyncio.TimerHandle | None = None
        """Fires when writing has waited ``write_timeout`` seconds; ``None`` while it flows."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Bound the buffers, then count the connection, or refuse it (503)."""
        super().connection_made(transport)
        self.transport.set_write_buffer_limits(high=WRITE_BUFFER, low=WRITE_BUFFER // 4)
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            # A transport without a real socket keeps its buffer as it is.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        self.peer = self.client[0] if self.client else ""
        if not self.guard.admit(self.peer, self):
            limits = self.guard.limits
            if self.guard.open.get(self.peer, 0) >= limits.client_connections:
                message = (
                    f"this client holds {limits.client_connections} connections, "
                    "the most client_connections allows"
                )
            else:
                message = (
                    f"the server holds {limits.max_connections} connections, "
                    "the most max_connections allows, none of them idle"
                )
            self.refuse(UNAVAILABLE, message, retry_after=1)
            return
        self.admitted = True
        self.start_head()
        self.arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the connection back to its client's share; stop its clocks."""
        self.stop_head()
        self.stop_write_clock()
        self.leave()
        super().connection_lost(exc)

    def leave(self) -> None:
        """Leave the counts (once)."""
        if self.admitted:
            self.admitted = False
            self.guard.release(self.peer, self)

    def idle(self) -> bool:
        """Whether the connection waits for a request head: before its first byte, or
        between two requests, no answer under way."""
        return (
            self.admitted
            and not self.transport.is_closing()
            and self.awaiting_head()
            and (self.cycle is None or self.cycle.response_complete)
        )

    def evict(self) -> None:
        """Close this idle connection to make room for another address's."""
        self.leave()
        self.stop_head()
        self.transport.close()

    def awaiting_head(self) -> bool:
        """Whether the parser waits for (the rest of) a request head."""
        raise NotImplementedError

    def body_pending(self) -> bool:
        """Whether the current request's body is still arriving."""
        raise NotImplementedError

    def start_head(self) -> None:
        """A request head is due: its clock starts (see :meth:`arm_head`)."""
        self.head_bytes, self.head_tail = 0, b""
        self.head_since = self.loop.time()

    def arm_head(self) -> None:
        """The head due is not all here: a timer fires when its time is up."""
        if self.head_timer is None and self.head_since is not None:
            left = self.head_since + self.guard.limits.header_timeout - self.loop.time()
            self.head_timer = self.loop.call_later(max(left, 0.0), self.head_timed_out)

    def stop_head(self) -> None:
        """No head is due (it arrived, or the connection closes)."""
        self.head_since = None
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        """The head did not arrive in time: 408, and the connection is closed."""
        self.head_timer = None
        if self.transport.is_closing() or not self.awaiting_head():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # A pipelined head behind an answer under way: its clock starts again
            # rather than cut the answer short.
            self.start_head()
            self.arm_head()
            return
        seconds = self.guard.limits.header_timeout
        self.guard.count("header_timeout")
        self.refuse(TIMEOUT, f"the request head did not arrive within {seconds:g} seconds")

    def refuse(self, status: int, message: str, retry_after: int | None = None) -> None:
        """Answer ``status`` outside any request and close the connection."""
        self.stop_head()
        if not self.transport.is_closing():
            self.transport.write(refusal(status, message, retry_after))
            self.transport.close()

    def head_fits(self, data: bytes) -> bool:
        """Count ``data`` into the head; past ``max_header_bytes``, answer 431 and close."""
        cap = self.guard.limits.max_header_bytes
        if self.head_bytes + len(data) <= cap:
            # All of it fits, wherever the head ends: the common case, kept cheap.
            self.head_bytes += len(data)
            tail = data[-2:]
            self.head_tail = tail if len(tail) == 2 else (self.head_tail + tail)[-2:]
            return True
        room = cap - self.head_bytes
        window = self.head_tail + data[: max(room, 0) + 3]
        end = head_end(window)
        size = self.head_bytes - len(self.head_tail) + end if end >= 0 else -1
        if (end < 0 and self.head_bytes + len(data) > cap) or size > cap:
            self.refuse_large_head()
            return False
        self.head_bytes += len(data)
        self.head_tail = (self.head_tail + data[-2:])[-2:]
        return True

    def refuse_large_head(self) -> None:
        """431 for a head past ``max_header_bytes``, and the connection is closed."""
        cap = self.guard.limits.max_header_bytes
        self.guard.count("max_header_bytes")
        self.refuse(
            HEADERS_TOO_LARGE,
            f"the request head has more than {cap:,} bytes, the most max_header_bytes allows",
        )

    def pause_writing(self) -> None:
        """The write buffer is full: read no further request, and start the write clock."""
        super().pause_writing()
        self.flow.pause_reading()
        if self.write_timer is None:
            seconds = self.guard.limits.write_timeout
            self.write_timer = self.loop.call_later(seconds, self.write_timed_out)

    def resume_writing(self) -> None:
        """The client read: the write clock stops."""
        self.stop_write_clock()
        if not self.transport.is_closing():
            # An aborted transport empties its buffer too; its answer goes on only
            # once uvicorn has marked it disconnected (in connection_lost).
            super().resume_writing()

    def stop_write_clock(self) -> None:
        """Writing flows again, or the connection closes."""
        if self.write_timer is not None:
            self.write_timer.cancel()
            self.write_timer = None

    def write_timed_out(self) -> None:
        """The client has not read for ``write_timeout`` seconds: the connection is aborted."""
        self.write_timer = None
        if not self.transport.is_closing() or self.transport.get_write_buffer_size():
            self.guard.count("write_timeout")
            self.transport.abort()

    def answer_done(self) -> None:
        """After an answer: a body still arriving closes the connection."""
        if self.body_pending() and not self.transport.is_closing():
            # The route answered without reading the whole body: rather than
            # read and drop a body of any length at any pace, the connection goes.
            self.transport.close()
