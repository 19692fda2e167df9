"""uvicorn's httptools protocol under the guard of :mod:`~pastiche_core.server.connections`.

httptools parses a whole chunk of bytes at once and calls back as it goes, so
the guard follows it through those calls: a head is due from the end of a
request (``on_message_complete``) or the connection's opening until
``on_headers_complete``; its bytes are counted as they arrive, before the
parser sees them, and the parsed head is measured again once complete (a
pipelined head may begin in the chunk that ended the request before it).

>>> from pastiche_core.server.connections import guarded_protocol
>>> from pastiche_core.server.quotas import ServerLimits
>>> guarded_protocol(ServerLimits(), "httptools").__name__
'GuardedHttpToolsProtocol'
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .guard import MAX_PIPELINED, Guarded

__all__ = ["GuardedHttpToolsProtocol"]

_REQUEST_LINE_EXTRA = len(b"  HTTP/1.1\r\n") + len(b"\r\n")
"""The bytes of a head besides its method, target and headers: spaces, version, line ends."""


class GuardedHttpToolsProtocol(Guarded, HttpToolsProtocol):
    """uvicorn's httptools protocol under the guard (:class:`Guarded`).

    Made per server by :func:`~pastiche_core.server.connections.guarded_protocol`,
    which sets :attr:`guard`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setup_guard()
        self.in_head = True
        """Whether the parser is between requests or inside a head."""
        self.overflowed = False
        """Whether more than ``MAX_PIPELINED`` requests were pipelined: the rest is not read."""
        self.running: Any = None
        """The request being answered (uvicorn's ``cycle`` is the last one parsed)."""
        self.head_counted = True
        """Whether the head due is counted from its first byte (it began a chunk)."""
        self.late_refusal = False
        """Whether a pipelined head was too large: 431 once the answers before it are sent."""

    def connection_lost(self, exc: Exception | None) -> None:
        """Every request not yet answered learns that its client left.

        uvicorn tells only the last one parsed, which, with requests pipelined,
        is not the one under way: that one would write on a closed transport.
        """
        for cycle in (self.running, *(cycle for cycle, _ in self.pipeline)):
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
        super().connection_lost(exc)

    def awaiting_head(self) -> bool:
        """Whether no request is parsed or waiting, only (part of) a head."""
        return self.in_head and not self.pipeline

    def body_pending(self) -> bool:
        """Whether the answered request's body is still arriving (with requests pipelined
        behind it, it is all here)."""
        return not self.pipeline and self.cycle is not None and bool(self.cycle.more_body)

    def data_received(self, data: bytes) -> None:
        """Count a head's bytes before httptools sees them; then let uvicorn handle them."""
        if self.transport.is_closing() or self.overflowed:
            return
        if self.in_head:
            if self.head_since is None:
                self.start_head()
                self.head_counted = True
            if not self.head_fits(data):
                return
        super().data_received(data)
        if self.in_head:
            self.arm_head()  # a head begun and not ended, if any (see on_message_begin)

    def on_headers_complete(self) -> None:
        """A head is here: its size checked, its clock stopped; past the pipeline's bound,
        the request is dropped and the connection closes after the answers before it."""
        self.in_head = False
        self.stop_head()
        if self.overflowed:
            return
        if not self.head_counted and self.parsed_head_bytes() > self.guard.limits.max_header_bytes:
            # Nothing more is read; the 431 follows the answers to the requests before it.
            self.overflowed = True
            self.flow.pause_reading()
            if self.pipeline or (self.running is not None and not self.running.response_complete):
                self.late_refusal = True
            else:
                self.refuse_large_head()
            return
        super().on_headers_complete()
        if not self.pipeline:
            self.running = self.cycle
        elif len(self.pipeline) > MAX_PIPELINED:
            self.pipeline.popleft()
            self.pipeline[0][0].keep_alive = False
            self.overflowed = True
            self.guard.count("pipelined")
            self.flow.pause_reading()

    def on_body(self, body: bytes) -> None:
        """A piece of the body, unless the request was dropped or refused."""
        if not (self.overflowed or self.transport.is_closing()):
            super().on_body(body)

    def parsed_head_bytes(self) -> int:
        """The size of the head just parsed, at least (spaces around header values left out)."""
        size = len(self.url) + _REQUEST_LINE_EXTRA + len(self.parser.get_method())
        return size + sum(len(name) + len(value) + 4 for name, value in self.headers)

    def on_message_begin(self) -> None:
        """A request's first byte: its head's clock runs (from the chunk's arrival at most).

        A head that begins inside a chunk (behind the request before it) was not
        counted as it arrived: it is measured once parsed.
        """
        if self.head_since is None:
            self.start_head()
            self.head_counted = False
        super().on_message_begin()

    def on_message_complete(self) -> None:
        """A request is all here: no head is due until the next one begins."""
        if not (self.overflowed or self.transport.is_closing()):
            super().on_message_complete()
        self.in_head = True
        self.stop_head()

    def on_response_complete(self) -> None:
        """After an answer: a body still arriving closes the connection; else the next one."""
        self.answer_done()
        if self.late_refusal and not self.pipeline:
            self.late_refusal = False
            self.refuse_large_head()
        if self.pipeline and not self.transport.is_closing():
            self.running = self.pipeline[-1][0]  # uvicorn starts it next
        super().on_response_complete()
