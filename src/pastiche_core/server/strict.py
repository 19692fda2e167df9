"""Strict reading of what a client sends outside JSON: numbers in a query, the HTTP version.

Python's :func:`int` and :func:`float` take more than a client should send
(``int("٣") == 3``, ``float("1_0") == 10.0``, spaces around, ``"nan"``); a
query's number is plain ASCII here, so that one value has one spelling:

>>> plain_number("12", int), plain_number("-1.5e2", float)
(12, -150.0)
>>> plain_number("٣", int), plain_number("1_0", float), plain_number(" 3", int)
(None, None, None)

A request line's version other than ``HTTP/1.0`` or ``HTTP/1.1`` (which h11
lets through: ``HTTP/2.0``, ``HTTP/1.9``) is answered 505 by
:class:`HttpVersion`, and the connection closed.
"""

from __future__ import annotations

import math
import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["VERSION_NOT_SUPPORTED", "HttpVersion", "plain_number"]

VERSION_NOT_SUPPORTED = 505
"""A request line whose version is neither HTTP/1.0 nor HTTP/1.1."""

_INTEGER = re.compile(r"[0-9]{1,18}")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_MAX_FLOAT_CHARS = 32
_VERSIONS = frozenset({"1.0", "1.1"})


def plain_number(text: str, kind: type[int] | type[float]) -> int | float | None:
    """``text`` as ``kind`` if it is plain ASCII: digits for an integer, and a sign, a
    decimal point and an exponent too for a float (finite); else None.

    >>> plain_number("+3", int), plain_number("1e999", float), plain_number("nan", float)
    (None, None, None)
    >>> plain_number("0.25", float), plain_number(".5", float)
    (0.25, 0.5)
    """
    if kind is int:
        return int(text) if _INTEGER.fullmatch(text) else None
    if len(text) > _MAX_FLOAT_CHARS or not _FLOAT.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


class HttpVersion:
    """ASGI middleware: a request of a version other than HTTP/1.0 or 1.1 is answered 505.

    >>> from starlette.testclient import TestClient
    >>> from pastiche_core.server import create_app
    >>> TestClient(create_app()).get("/v1/health").status_code  # the test client speaks 1.1
    200
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        """The application behind the check."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 505 to another version, else pass the request on."""
        version = scope.get("http_version", "1.1") if scope["type"] == "http" else "1.1"
        if version not in _VERSIONS:
            message = f"HTTP/{str(version)[:8]} is not supported: send HTTP/1.1 or HTTP/1.0"
            response = JSONResponse(
                {"error": {"path": None, "message": message}},
                status_code=VERSION_NOT_SUPPORTED,
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
