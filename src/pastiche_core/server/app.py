"""The HTTP face of the service: a Starlette application (ASGI), served by uvicorn.

Routes (see :func:`create_app`, and ``/openapi.json`` for their bodies):

=========================  =================================================
``POST /v1/publishes``     a position, a view or a state (with ``player``) → the publishes contract
``POST /v1/hint``          ``{"view", "budget_ms", "seed"}`` → the hint contract
``POST /v1/games``         a new game against bots → its id and the seats' tokens
``GET /v1/games/{id}``     the token's seat: view, legal moves, ``to_move``, ``over``
``POST /v1/games/{id}/moves``  ``{"move": "draw"}`` for the token's seat
``GET /v1/games/{id}/record``  the game's record, once it is over
``POST /v1/outs``          a view, a position or a state (with ``player``) → the outs document
``POST /v1/review``        ``{"record", "player", "simulations", "seed"}`` → the review document
``GET /v1/games/{id}/outs``    the outs of the token's seat, from its view
``GET /v1/games/{id}/review``  the review of the token's seat, once the game is over
``GET /v1/health``         ``{"status": "ok"}``
``GET /openapi.json``      the OpenAPI 3.1 description
``GET /docs``              the routes, with examples
``GET /``                  the web table: play against bots in a browser
=========================  =================================================

Every error is ``{"error": {"path": ..., "message": ...}}`` with its status
(400, 403, 404, 405, 408, 409, 413, 429, 431, 500, 503, 504, 505; 429 and 503 past a
share or a cap with ``Retry-After``); no answer ever carries a traceback,
and the server goes on serving after any request. Hints and publishes
searches run in the service's pool of worker processes when it has one
(:mod:`~pastiche_core.server.workers`, as ``pastiche serve`` sets up: 504 past
a request's hard deadline, 503 for a worker out of memory or a full queue,
429 past a client's share); the bots and the rest run in threads, so one long
request does not hold up the others.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/v1/publishes", content=b'{"player": 0').json()["error"]["path"]
'$'
>>> client.get("/v1/games/nope", headers={"Authorization": "Bearer x"}).status_code
404
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..data.cards import Genre
from ..io.render import PALETTE
from . import outs_review
from .api_errors import BAD_REQUEST, INTERNAL, TIMEOUT, TOO_LARGE, ApiError
from .openapi import openapi
from .quotas import ServerLimits
from .service import Analyse, Service, too_large
from .store import GameStore
from .strict import HttpVersion, plain_number
from .workers import Ticket, early_refusal

__all__ = ["HEAVY_ROUTES", "EarlyRefusal", "HeaderCount", "client_of", "create_app", "palette_css"]

log = logging.getLogger("pastiche_core.server")

STATIC = Path(str(resources.files("pastiche_core.server").joinpath("static")))
"""The folder of the web table and the docs page."""

Endpoint = Callable[[Request], Awaitable[Response]]


def palette_css() -> str:
    """The genre colours of :data:`~pastiche_core.io.render.PALETTE` as CSS classes.

    >>> print(palette_css().splitlines()[0])
    .card.MYT { background: #8a5a2b; color: #ffffff; border-color: #5c3b1a; }
    """
    lines = [
        f".card.{genre.code} {{ background: {swatch.fill}; color: {swatch.ink}; "
        f"border-color: {swatch.edge}; }}"
        for genre, swatch in ((genre, PALETTE[genre]) for genre in Genre)
    ]
    return "\n".join(lines) + "\n"


def _error(error: ApiError) -> JSONResponse:
    headers = {}
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    if error.status in (TIMEOUT, TOO_LARGE) or isinstance(error, _UnreadError):
        # The rest of the body may still be on its way: the connection is closed
        # rather than read to the end or kept for a next request.
        headers["Connection"] = "close"
    return JSONResponse(error.to_dict(), status_code=error.status, headers=headers)


class _UnreadError(ApiError):
    """A request refused before its body was read: its connection is closed after the answer."""


def _admitted(
    service: Service, client: str, seconds: float | None = None
) -> AbstractContextManager[Ticket | None]:
    """``client``'s place in the pool (:meth:`Service.admit`, in the lane ``seconds`` sets
    where known); refused, the error closes the connection, since the body was never read."""
    try:
        return service.admit(client, seconds)
    except ApiError as error:
        raise _UnreadError(
            error.status, error.message, error.path, retry_after=error.retry_after
        ) from None


def client_of(request: Request) -> str:
    """Who sends ``request``, for the per-client shares: the peer's address.

    Behind a reverse proxy this is the proxy's address, unless the server
    trusts the proxy's ``X-Forwarded-For`` (``pastiche serve --trust-proxy``).

    >>> from starlette.testclient import TestClient
    >>> TestClient(create_app()).get("/v1/health").status_code
    200
    """
    return request.client.host if request.client is not None else ""


class HeaderCount:
    """ASGI middleware: a request with more than ``max_headers`` header lines is answered 431.

    The head's size in bytes is bounded before it is parsed, by the protocol
    layer (:mod:`~pastiche_core.server.connections`); the number of lines is
    checked here, once uvicorn has parsed them, and the connection is closed.

    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app(limits=ServerLimits(max_headers=5)))
    >>> answer = client.get("/v1/health", headers={f"x-{n}": "1" for n in range(6)})
    >>> answer.status_code, answer.json()["error"]["message"]
    (431, 'the request has 11 header lines, more than max_headers (5)')
    """

    def __init__(self, app: ASGIApp, max_headers: int) -> None:
        self.app = app
        """The application behind the check."""
        self.max_headers = max_headers
        """The most header lines a request may have."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 431 past the count, else pass the request on."""
        if scope["type"] == "http" and len(scope["headers"]) > self.max_headers:
            message = (
                f"the request has {len(scope['headers'])} header lines, "
                f"more than max_headers ({self.max_headers})"
            )
            response = JSONResponse(
                {"error": {"path": None, "message": message}},
                status_code=431,
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


HEAVY_ROUTES = frozenset({"/v1/publishes", "/v1/hint", "/v1/outs", "/v1/review"})
"""The routes whose work goes to the worker pool, each taking its client's place first."""


class EarlyRefusal:
    """ASGI middleware: a heavy route asked by a client the pool told to wait is refused first.

    A client refused by the worker pool (its share, a full queue) was given a
    ``Retry-After``; back sooner on a heavy route (:data:`HEAVY_ROUTES`), it is
    answered 429 with the time left before any routing, reading or decoding,
    so a crowd that does not wait costs as little as a request can. Its other
    routes (health, its games) are served as usual.

    >>> from starlette.testclient import TestClient
    >>> TestClient(create_app()).post("/v1/publishes", content=b"{").status_code
    400
    """

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        """The application behind the check."""
        self.service = service
        """The service whose pool remembers whom it told to wait."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 429 to a client back before its ``Retry-After``, else pass the request on."""
        pool = self.service.pool
        if (
            pool is not None
            and scope["type"] == "http"
            and scope["path"] in HEAVY_ROUTES
            and scope.get("client")
        ):
            wait = pool.retry_after(scope["client"][0])
            if wait is not None:
                await _error(early_refusal(wait))(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _guarded(handler: Callable[[Request], Awaitable[Any]], status: int = 200) -> Endpoint:
    """An endpoint answering the handler's dict as JSON, and every failure as the error shape."""

    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
        except ApiError as error:
            return _error(error)
        except ClientDisconnect:  # the client left mid-body: nobody to answer, nothing to log
            log.info("client left during %s %s", request.method, request.url.path)
            return Response(status_code=400, headers={"Connection": "close"})
        except Exception:  # a fault of the service: logged here, never sent
            log.exception("internal error on %s %s", request.method, request.url.path)
            return _error(ApiError(INTERNAL, "internal error: the request could not be answered"))
        if isinstance(result, Response):
            return result
        return JSONResponse(result, status_code=status)

    return endpoint


async def _body(request: Request, service: Service) -> Any:
    """The request body, read up to the size limit (413 past it) and decoded in a thread, so a
    crowd's bodies never hold up the event loop that answers everyone."""
    return await run_in_threadpool(service.decode, await _raw_body(request, service))


async def _raw_body(request: Request, service: Service) -> bytes:
    """The request body's bytes, read up to the size limit (413 past it)."""
    cap = service.limits.max_body_bytes
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise too_large("the request body", "max_body_bytes", cap, int(declared))
    chunks: list[bytes] = []
    size = 0
    seconds = service.limits.body_time_limit
    try:
        with anyio.fail_after(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > cap:
                    raise too_large("the request body", "max_body_bytes", cap)
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(
            TIMEOUT,
            f"the request body did not arrive within {seconds:g} seconds (body_time_limit)",
            "$",
        ) from None
    return b"".join(chunks)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _query_number(request: Request, name: str, kind: type[int] | type[float]) -> Any:
    text = request.query_params.get(name)
    if text is None:
        return None
    # Plain ASCII only: int() and float() would take '٣', '1_0' and ' 3'.
    value = plain_number(text, kind)
    if value is None:
        what = "an integer" if kind is int else "a number"
        raise ApiError(BAD_REQUEST, f"query parameter {name} must be {what}, got {text[:40]!r}")
    return value


def create_app(
    *,
    analyse: Analyse | None = None,
    store: GameStore | None = None,
    limits: ServerLimits | None = None,
    service: Service | None = None,
) -> Starlette:
    """The service's ASGI application.

    ``analyse`` answers ``POST /v1/hint`` (default: ``pastiche_core.ai.analyse``,
    loaded on the first hint; 503 while it is not installed); ``store`` keeps
    the games (default in memory); ``limits`` bounds everything
    (:class:`~pastiche_core.server.quotas.ServerLimits`). A ready ``service``
    may be given instead of the three. ``app.state.service`` is the service.

    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app())
    >>> client.get("/v1/health").json()
    {'status': 'ok'}
    >>> client.post("/v1/hint", json={"view": {}}).json()["error"]["path"]
    '$.view.format'
    """
    if service is None:
        service = Service(analyse=analyse, store=store, limits=limits)
    elif analyse is not None or store is not None or limits is not None:
        raise ValueError("give either a service or its analyse, store and limits, not both")
    document = openapi(service.limits)

    # The heavy routes take their client's place in the worker pool before the
    # body is read: a refused request costs no reading and no decoding.
    async def publishes(request: Request) -> Any:
        time_limit = _query_number(request, "time_limit", float)
        max_options = _query_number(request, "max_options", int)
        client = client_of(request)
        seconds = service.limits.time_limit if time_limit is None else time_limit
        with _admitted(service, client, seconds) as ticket:
            raw = await _raw_body(request, service)
            # An answer already given to this body comes back at once, without a thread.
            answer = service.cached_publishes(raw, time_limit=time_limit, max_options=max_options)
            if answer is None:
                answer = await run_in_threadpool(
                    service.publishes_bytes,
                    raw,
                    time_limit=time_limit,
                    max_options=max_options,
                    client=client,
                    ticket=ticket,
                )
        return Response(answer, media_type="application/json")

    async def hint(request: Request) -> Any:
        client = client_of(request)
        with _admitted(service, client) as ticket:
            body = await _body(request, service)
            return await run_in_threadpool(service.hint, body, client, ticket)

    async def create_game(request: Request) -> Any:
        body = await _body(request, service)
        return await run_in_threadpool(service.create_game, body, client_of(request))

    async def game_state(request: Request) -> Any:
        game_id = request.path_params["game"]
        client = client_of(request)
        return await run_in_threadpool(service.game_state, game_id, _token(request), client)

    async def move(request: Request) -> Any:
        game_id = request.path_params["game"]
        client = client_of(request)
        service.guesses.check(client)  # a guessing address is refused before its body is read
        body = await _body(request, service)
        return await run_in_threadpool(service.move, game_id, _token(request), body, client)

    async def record(request: Request) -> Any:
        game_id = request.path_params["game"]
        client = client_of(request)
        return await run_in_threadpool(service.record, game_id, _token(request), client)

    async def outs(request: Request) -> Any:
        client = client_of(request)
        with _admitted(service, client) as ticket:
            body = await _body(request, service)
            return await run_in_threadpool(outs_review.outs, service, body, client, ticket)

    async def review(request: Request) -> Any:
        client = client_of(request)
        with _admitted(service, client, service.limits.review_time_limit) as ticket:
            body = await _body(request, service)
            return await run_in_threadpool(outs_review.review, service, body, client, ticket)

    async def game_outs(request: Request) -> Any:
        game_id, token = request.path_params["game"], _token(request)
        client = client_of(request)
        with _admitted(service, client) as ticket:
            return await run_in_threadpool(
                outs_review.game_outs, service, game_id, token, client, ticket
            )

    async def game_review(request: Request) -> Any:
        game_id, token = request.path_params["game"], _token(request)
        client = client_of(request)
        with _admitted(service, client, service.limits.review_time_limit) as ticket:
            return await run_in_threadpool(
                outs_review.game_review, service, game_id, token, client, ticket
            )

    async def health(request: Request) -> Any:
        return {"status": "ok"}

    async def openapi_json(request: Request) -> Any:
        return document

    async def page(request: Request) -> Response:
        name = "api.html" if request.url.path == "/docs" else "index.html"
        return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")

    async def palette(request: Request) -> Response:
        return Response(palette_css(), media_type="text/css; charset=utf-8")

    async def http_error(request: Request, error: Exception) -> Response:
        status = error.status_code if isinstance(error, HTTPException) else INTERNAL
        if status == 404:
            message = f"no route {request.url.path[:80]!r}"
        elif status == 405:
            message = f"{request.method} is not allowed on {request.url.path[:80]!r}"
        else:
            message = str(getattr(error, "detail", "")) or "the request could not be answered"
        headers = getattr(error, "headers", None)
        return JSONResponse(
            {"error": {"path": None, "message": message}}, status_code=status, headers=headers
        )

    routes = [
        Route("/v1/publishes", _guarded(publishes), methods=["POST"]),
        Route("/v1/hint", _guarded(hint), methods=["POST"]),
        Route("/v1/games", _guarded(create_game, 201), methods=["POST"]),
        Route("/v1/games/{game}", _guarded(game_state), methods=["GET"]),
        Route("/v1/games/{game}/moves", _guarded(move), methods=["POST"]),
        Route("/v1/games/{game}/record", _guarded(record), methods=["GET"]),
        Route("/v1/outs", _guarded(outs), methods=["POST"]),
        Route("/v1/review", _guarded(review), methods=["POST"]),
        Route("/v1/games/{game}/outs", _guarded(game_outs), methods=["GET"]),
        Route("/v1/games/{game}/review", _guarded(game_review), methods=["GET"]),
        Route("/v1/health", _guarded(health), methods=["GET"]),
        Route("/openapi.json", _guarded(openapi_json), methods=["GET"]),
        Route("/palette.css", palette, methods=["GET"]),
        Route("/docs", page, methods=["GET"]),
        Route("/", page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error},
        middleware=[
            Middleware(HttpVersion),
            Middleware(HeaderCount, max_headers=service.limits.max_headers),
            Middleware(EarlyRefusal, service=service),
        ],
    )
    app.state.service = service
    return app
