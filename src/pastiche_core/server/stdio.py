"""The service over standard input and output: JSON-RPC 2.0, one message per line.

Each line of input is one request with an ``id``; each gets exactly one line
of output, in order. The methods are the HTTP routes' (params as the HTTP
bodies, plus ``game`` and ``token`` for a game):

==================  ==========================================================
``publishes``       params: a position, a view or a state (as ``POST /v1/publishes``) → the
                    publishes contract
``hint``            params: ``{"view", "budget_ms", "seed"}`` → the hint contract
``games.create``    params: as ``POST /v1/games`` → ``{"game", "tokens"}``
``games.view``      params: ``{"game", "token"}`` → the seat's state
``games.move``      params: ``{"game", "token", "move"}`` → the seat's new state
``games.record``    params: ``{"game", "token"}`` → the record of a finished game
``outs``            params: as ``POST /v1/outs`` → the outs document
``review``          params: as ``POST /v1/review`` → the review document
``games.outs``      params: ``{"game", "token"}`` → the outs of the token's seat
``games.review``    params: ``{"game", "token"}`` → the review of the token's seat, once over
==================  ==========================================================

Errors follow JSON-RPC: ``-32700`` a line that is not JSON, ``-32600`` not a
request (no ``id``, a batch, a line over the length limit), ``-32601`` an
unknown method, ``-32602`` invalid params, with ``data: {"path": "$.hand[1]",
"status": 400}`` (the path inside ``params``, and the HTTP status the same
error has), ``-32000`` the service unable to answer now (status 503: the
analysis engine missing, a worker out of memory or lost, a full queue; status
504: a worker past its hard deadline), ``-32603`` a fault of the service.
Hints and publishes run in the service's worker processes when it has them
(:mod:`~pastiche_core.server.workers`). A bad line gets its error response and the loop reads
on; end of input ends it.

>>> import io
>>> lines = io.BytesIO(b'{"jsonrpc": "2.0", "id": 1, "method": "publishes", '
...                    b'"params": {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}}\\n'
...                    b'not json\\n')
>>> out = io.StringIO()
>>> serve_stdio(Service(), lines, out)
>>> first, second = out.getvalue().splitlines()
>>> json.loads(first)["result"]["options"][0]["novel"]
'kind-3'
>>> json.loads(second)["error"]["code"]
-32700
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import nullcontext
from typing import IO, Any

from ..data.errors import PasticheError
from ..io._fields import describe, read_object
from . import outs_review
from .api_errors import (
    FORBIDDEN,
    INTERNAL,
    NOT_FOUND,
    TOO_LARGE,
    UNAVAILABLE,
    ApiError,
    from_library,
)
from .service import Service
from .workers import DEADLINE, Ticket

__all__ = [
    "CLIENT",
    "HEAVY",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHODS",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "UNAVAILABLE_ERROR",
    "handle_line",
    "serve_stdio",
]

log = logging.getLogger("pastiche_core.server")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNAVAILABLE_ERROR = -32000
"""A server error (JSON-RPC's implementation-defined range): the service cannot answer now
(status 503 or 504 in ``data``)."""

METHODS = (
    *("publishes", "hint", "games.create", "games.view", "games.move", "games.record"),
    *("outs", "review", "games.outs", "games.review"),
)
"""The methods, as HTTP offers them."""

CLIENT = "stdio"
"""The client every request on standard input counts as, for the shares."""

_GAME_FIELDS = ("game", "token")


def _game_params(params: Any, extra: tuple[str, ...] = ()) -> tuple[str, str, dict[str, Any]]:
    try:
        root = read_object(params, "$", _GAME_FIELDS, extra)
    except PasticheError as error:
        raise from_library(error) from None
    for name in _GAME_FIELDS:
        if not isinstance(root[name], str):
            raise ApiError(400, f"expected a string, got {describe(root[name])}", f"$.{name}")
    rest = {name: root[name] for name in extra if name in root}
    return root["game"], root["token"], rest


HEAVY = ("publishes", "hint", "outs", "review", "games.outs", "games.review")
"""The methods answered in the worker pool: each takes its place there before its params are
checked."""


def _call(
    service: Service, method: str, params: Any, ticket: Ticket | None = None
) -> dict[str, Any]:
    if method == "publishes":
        return service.publishes(params, client=CLIENT, ticket=ticket)
    if method == "hint":
        return service.hint(params, CLIENT, ticket)
    if method in ("outs", "review", "games.outs", "games.review"):
        if method == "outs":
            return outs_review.outs(service, params, CLIENT, ticket)
        if method == "review":
            return outs_review.review(service, params, CLIENT, ticket)
        game, token, _ = _game_params(params)
        if method == "games.outs":
            return outs_review.game_outs(service, game, token, CLIENT, ticket)
        return outs_review.game_review(service, game, token, CLIENT, ticket)
    if method == "games.create":
        return service.create_game(params, client=CLIENT)
    if method == "games.view":
        game, token, _ = _game_params(params)
        return service.game_state(game, token, CLIENT)
    if method == "games.move":
        game, token, rest = _game_params(params, ("move",))
        if "move" not in rest:
            raise ApiError(400, "missing required field", "$.move")
        return service.move(game, token, rest, CLIENT)
    game, token, _ = _game_params(params)
    return service.record(game, token, CLIENT)


def _error(ident: Any, code: int, message: str, data: dict[str, Any] | None = None) -> str:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": error})


def _api_error(ident: Any, error: ApiError) -> str:
    if error.status in (UNAVAILABLE, DEADLINE):
        unavailable: dict[str, Any] = {"status": error.status}
        if error.retry_after is not None:
            unavailable["retry_after"] = error.retry_after
        return _error(ident, UNAVAILABLE_ERROR, error.message, unavailable)
    if error.status == INTERNAL:
        return _error(ident, INTERNAL_ERROR, error.message)
    path = error.path
    if path is None and error.status == NOT_FOUND:
        path = "$.game"
    elif path is None and error.status == FORBIDDEN:
        path = "$.token"
    data: dict[str, Any] = {"path": path, "status": error.status}
    if error.retry_after is not None:
        data["retry_after"] = error.retry_after
    return _error(ident, INVALID_PARAMS, error.message, data)


def handle_line(service: Service, line: bytes | str) -> str:
    """The response line (without its newline) to one request line.

    >>> handle_line(Service(), '{"jsonrpc": "2.0", "id": 7, "method": "nope"}')
    '{"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "unknown method \\'nope\\'"}}'
    >>> handle_line(Service(), '{"jsonrpc": "2.0", "method": "publishes"}')
    '{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "a request needs an id (notifications are not answered by this service)"}}'
    """
    try:
        request = service.decode(line, limit="max_line_bytes")
    except ApiError as error:
        code = INVALID_REQUEST if error.status == TOO_LARGE else PARSE_ERROR
        return _error(None, code, error.message, {"path": error.path, "status": error.status})
    if isinstance(request, list):
        return _error(None, INVALID_REQUEST, "batches are not supported: one request per line")
    if not isinstance(request, dict):
        return _error(None, INVALID_REQUEST, f"expected a request object, got {describe(request)}")
    ident = request.get("id")
    if not (ident is None or isinstance(ident, str | int)) or isinstance(ident, bool):
        return _error(None, INVALID_REQUEST, "id must be a string or an integer")
    if "id" not in request or ident is None:
        return _error(
            None,
            INVALID_REQUEST,
            "a request needs an id (notifications are not answered by this service)",
        )
    if request.get("jsonrpc") != "2.0":
        return _error(ident, INVALID_REQUEST, 'expected "jsonrpc": "2.0"')
    unknown = sorted(set(request) - {"jsonrpc", "id", "method", "params"})
    if unknown:
        return _error(ident, INVALID_REQUEST, f"unknown request member {unknown[0][:40]!r}")
    method = request.get("method")
    if not isinstance(method, str):
        return _error(ident, INVALID_REQUEST, f"method must be a string, got {describe(method)}")
    if method not in METHODS:
        return _error(ident, METHOD_NOT_FOUND, f"unknown method {method[:40]!r}")
    params = request.get("params", {})
    try:
        with service.admit(CLIENT) if method in HEAVY else nullcontext(None) as ticket:
            service.check_params(params)
            result = _call(service, method, params, ticket)
    except ApiError as error:  # the service turns every error of the request into one
        return _api_error(ident, error)
    except Exception:  # a fault of the service (or of a bot): logged on stderr, never sent
        log.exception("internal error on %s", method)
        return _error(ident, INTERNAL_ERROR, "internal error: the request could not be answered")
    return json.dumps({"jsonrpc": "2.0", "id": ident, "result": result})


def _lines(stream: IO[bytes], cap: int) -> Any:
    """The stream's lines, each at most ``cap`` bytes; a longer line is skipped and yields None."""
    while True:
        line = stream.readline(cap + 1)
        if not line:
            return
        if len(line) > cap and not line.endswith(b"\n"):
            while True:  # drop the rest of the long line, a bounded chunk at a time
                rest = stream.readline(cap + 1)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None
            continue
        yield line


def serve_stdio(
    service: Service,
    stdin: IO[bytes],
    stdout: IO[str],
    *,
    on_line: Callable[[], None] | None = None,
) -> None:
    """Answer JSON-RPC lines from ``stdin`` on ``stdout`` until the end of input.

    A line longer than ``service.limits.max_line_bytes`` gets a ``-32600``
    error without being decoded; blank lines are skipped. ``on_line`` is
    called after each answer is written.

    >>> import io
    >>> out = io.StringIO()
    >>> serve_stdio(Service(), io.BytesIO(b'\\n{"jsonrpc": "2.0", "id": 1, "method": "games.view"}\\n'), out)
    >>> json.loads(out.getvalue())["error"]["data"]
    {'path': '$.game', 'status': 400}
    """
    cap = service.limits.max_line_bytes
    for line in _lines(stdin, cap):
        if line is None:
            answer = _error(
                None,
                INVALID_REQUEST,
                f"the line is longer than max_line_bytes ({cap:,} bytes)",
                {"path": "$", "status": TOO_LARGE},
            )
        elif not line.strip():
            continue
        else:
            answer = handle_line(service, line)
        stdout.write(answer + "\n")
        stdout.flush()
        if on_line is not None:
            on_line()
