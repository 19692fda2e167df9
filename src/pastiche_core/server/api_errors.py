"""The service's one error shape, shared by HTTP and JSON-RPC.

Every request that fails gets ``{"error": {"path": ..., "message": ...}}``:
``path`` is the JSON path of the offending value in the request (``"$.hand[1]"``),
or ``null`` when the error is not about a value of the body (an unknown game, a
missing token). :class:`ApiError` carries the HTTP status with it; the JSON-RPC
transport turns it into an error object (see :mod:`~pastiche_core.server.stdio`).

The library's errors start their message with the JSON path of the bad value;
:func:`from_library` splits it off:

>>> from pastiche_core.data.errors import InvalidStateError
>>> error = from_library(InvalidStateError("$.hand[1]: invalid card 'LOV1'"))
>>> error.status, error.path, error.message
(400, '$.hand[1]', "invalid card 'LOV1'")
>>> error.to_dict()
{'error': {'path': '$.hand[1]', 'message': "invalid card 'LOV1'"}}
>>> from_library(InvalidStateError("$.x: bad"), under="$.view").path
'$.view.x'
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "BAD_REQUEST",
    "CONFLICT",
    "FORBIDDEN",
    "INTERNAL",
    "NOT_FOUND",
    "TIMEOUT",
    "TOO_LARGE",
    "TOO_MANY",
    "UNAVAILABLE",
    "ApiError",
    "from_library",
    "split_path",
]

BAD_REQUEST = 400
"""Bad input: JSON that does not parse, a wrong field, a value out of range."""
FORBIDDEN = 403
"""No token, or a token that is not one of the game's seats."""
NOT_FOUND = 404
"""No such game (or route)."""
TIMEOUT = 408
"""A request body that did not arrive in time."""
CONFLICT = 409
"""A move the rules forbid now, or a request the game's state does not allow."""
TOO_LARGE = 413
"""A request body over the size limit."""
TOO_MANY = 429
"""Past a client's share: too many games kept or created in the last minute (with
``Retry-After``)."""
INTERNAL = 500
"""A fault of the service itself; the answer never carries a traceback."""
UNAVAILABLE = 503
"""A part of the service that is not installed (the analysis engine), or a service full for
now (with ``Retry-After``)."""

_PATH = re.compile(
    r"\$(?:\.[A-Za-z_][A-Za-z0-9_-]*|\[[0-9]+\]|\[\"(?:[^\"\\]|\\.)*\"\])*"
    r"(?=(?: \(a field name\))?: )"
)


class ApiError(Exception):
    """A failed request: its HTTP ``status``, the JSON ``path`` at fault and a ``message``.

    ``retry_after``, when given, is the number of seconds after which the same
    request may succeed (HTTP sends it as the ``Retry-After`` header).

    >>> ApiError(404, "no game 'x'").to_dict()
    {'error': {'path': None, 'message': "no game 'x'"}}
    >>> ApiError(429, "slow down", retry_after=12).retry_after
    12
    """

    def __init__(
        self, status: int, message: str, path: str | None = None, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status of the answer, one of this module's constants (400 to 503); JSON-RPC
        errors carry it in ``data``."""
        self.message = message
        """What went wrong, in words, without the path."""
        self.path = path
        """The JSON path of the offending value in the request (``'$.hand[1]'``), or ``None`` when
        the error is not about a value of the body."""
        self.retry_after = retry_after
        """Seconds after which the same request may succeed (429 and 503 past a share or a cap),
        or ``None``."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON error document."""
        return {"error": {"path": self.path, "message": self.message}}

    def __repr__(self) -> str:
        return f"ApiError({self.status}, {self.message!r}, path={self.path!r})"


def split_path(message: str) -> tuple[str | None, str]:
    """``(path, rest)`` of a library message that starts with a JSON path, else ``(None, message)``.

    >>> split_path('$.supply["kind 3"]: unknown novel')
    ('$.supply["kind 3"]', 'unknown novel')
    >>> split_path("illegal move 'take'")
    (None, "illegal move 'take'")
    """
    found = _PATH.match(message)
    if found is None:
        return None, message
    rest = message[found.end() :]
    if rest.startswith(" (a field name)"):
        return found[0], "a field name: " + rest[len(" (a field name): ") :]
    return found[0], rest[2:]


def from_library(
    error: Exception,
    *,
    status: int = BAD_REQUEST,
    under: str = "$",
    path: str | None = None,
) -> ApiError:
    """An :class:`ApiError` for a library error, its path re-rooted ``under`` a body field.

    A message without a path of its own gets ``path`` (default: ``under``).

    >>> from pastiche_core.data.errors import IllegalMoveError
    >>> from_library(IllegalMoveError("illegal move 'take'"), status=409, under="$.move")
    ApiError(409, "illegal move 'take'", path='$.move')
    """
    found, message = split_path(str(error))
    if found is None:
        return ApiError(status, message, under if path is None else path)
    return ApiError(status, message, under + found[1:])
