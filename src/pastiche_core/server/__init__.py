"""The hint service: publish options, hints and games over HTTP or JSON-RPC on stdio.

``pastiche serve`` starts it on ``http://127.0.0.1:8000`` (the web table is at
``/``, the routes at ``/docs``); ``pastiche serve --stdio`` speaks JSON-RPC 2.0
on standard input and output. It needs the ``server`` extra
(``pip install 'pastiche-core[server]'``: Starlette and uvicorn); importing
:mod:`pastiche_core` never imports it.

The one public face:

* :func:`create_app` — the ASGI application (Starlette), for uvicorn or tests;
* :func:`serve` — run it with uvicorn; :func:`serve_stdio` — the JSON-RPC loop;
* :class:`Service` — the methods behind both transports;
* :class:`ServerLimits` — every bound, with its default;
* :class:`PoolSettings`, :class:`WorkerPool` — the worker processes that run
  hints and publishes searches, each with a memory cap and a hard deadline,
  behind a bounded queue and a share per client
  (:mod:`~pastiche_core.server.workers`).

``pastiche serve`` (HTTP and ``--stdio``) runs hints and publishes in a pool
of warm worker processes: by default 2 workers (``--workers``), 8 requests
waiting at most (``--queue``; 503 with ``Retry-After`` beyond), 512 MiB of
address space per worker (``--worker-memory``, ``RLIMIT_AS``; 503 when a
request runs out) and 1 request running or waiting per client
(``--client-share``; 429 with ``Retry-After`` beyond). A request whose
worker runs past its own time (budget or time limit) plus 2 seconds is
answered 504 and the worker is killed and replaced, so the server's own
process stays small. ``--workers 0`` runs them in the server's threads
instead, as a :class:`Service` made without a pool does.
* :class:`MemoryStore`, :class:`SqliteStore` — where games are kept (and
  :class:`~pastiche_core.server.pg_store.PostgresStore`, with the ``postgres`` extra);
* :data:`BOTS` — the bots a game may seat, by name;
* :func:`schema`, :func:`openapi` — the service's JSON Schemas and OpenAPI document.

>>> from pastiche_core.server import Service
>>> service = Service()
>>> created = service.create_game({"players": 3, "seed": 1})
>>> sorted(created["tokens"])
['0']
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..data.errors import InvalidArgumentError
from .api_errors import ApiError
from .games import BOTS, HUMAN, GameSession
from .openapi import openapi, schema
from .quotas import ServerLimits
from .service import Analyse, Service
from .sql_store import SqliteStore
from .stdio import serve_stdio
from .store import GameStore, MemoryStore
from .workers import PoolSettings, WorkerPool

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "BOTS",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "HUMAN",
    "Analyse",
    "ApiError",
    "GameSession",
    "GameStore",
    "MemoryStore",
    "PoolSettings",
    "ServerLimits",
    "Service",
    "SqliteStore",
    "WorkerPool",
    "create_app",
    "is_postgres_url",
    "make_service",
    "openapi",
    "schema",
    "serve",
    "serve_stdio",
]

DEFAULT_HOST = "127.0.0.1"
"""The address ``pastiche serve`` listens on: this machine only."""
DEFAULT_PORT = 8000
"""The port ``pastiche serve`` listens on."""


def create_app(
    *,
    analyse: Analyse | None = None,
    store: GameStore | None = None,
    limits: ServerLimits | None = None,
    service: Service | None = None,
) -> Starlette:
    """The ASGI application (see :func:`pastiche_core.server.app.create_app`).

    >>> from starlette.testclient import TestClient
    >>> TestClient(create_app()).get("/v1/health").status_code
    200
    """
    from .app import create_app as build

    return build(analyse=analyse, store=store, limits=limits, service=service)


def make_service(
    *,
    store_path: str | Path | None = None,
    limits: ServerLimits | None = None,
    analyse: Analyse | None = None,
    pool: PoolSettings | None = None,
) -> Service:
    """A service keeping its games in memory, in the SQLite file ``store_path``, or in
    PostgreSQL when ``store_path`` is a ``postgresql://`` (or ``postgres://``) address.

    With ``pool`` settings, its hints and publishes run in a
    :class:`WorkerPool` started here (each worker warm before this returns;
    ``OSError`` if they do not start); :meth:`Service.close` stops it.
    ``analyse`` is then used by nothing but the service's own threads: the
    workers load the analysis engine themselves. A store that cannot be
    opened or reached raises :class:`~pastiche_core.server.store.StoreError`.

    >>> make_service().store
    <MemoryStore 0 games, max 1000, ttl 21600 s>
    >>> make_service().pool is None
    True
    """
    bounds = limits if limits is not None else ServerLimits()
    store: GameStore
    games, ttl, records, record_ttl = (
        bounds.max_games,
        bounds.game_ttl,
        bounds.max_records,
        bounds.record_ttl,
    )
    if store_path is None:
        records = min(records, games)  # in memory a finished game is a whole session
        store = MemoryStore(games, ttl, max_records=records, record_ttl=record_ttl)
    elif is_postgres_url(str(store_path)):
        from .pg_store import PostgresStore

        store = PostgresStore(
            str(store_path),
            max_games=games,
            ttl=ttl,
            cached=bounds.cached_games,
            max_records=records,
            record_ttl=record_ttl,
        )
    else:
        store = SqliteStore(
            store_path,
            games,
            ttl,
            bounds.cached_games,
            max_records=records,
            record_ttl=record_ttl,
        )
    workers = None
    if pool is not None:
        workers = WorkerPool(pool, bounds)
        try:
            workers.start()
        except BaseException:
            store.close()
            raise
    return Service(analyse=analyse, store=store, limits=bounds, pool=workers)


def is_postgres_url(store: str) -> bool:
    """Whether ``--store`` names a PostgreSQL database rather than an SQLite file.

    >>> is_postgres_url("postgresql://pastiche@db/games"), is_postgres_url("games.sqlite")
    (True, False)
    """
    return store.startswith(("postgresql://", "postgres://"))


def serve(
    service: Service | None = None,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    log_stream: IO[str] | None = None,
    trust_proxy: str | None = None,
    quiet: bool = False,
    **uvicorn_options: Any,
) -> None:
    """Serve ``service`` over HTTP with uvicorn until interrupted (Ctrl-C or SIGTERM).

    The socket is bound first, so ``port=0`` picks a free port; the address is
    printed on ``log_stream`` (default standard error) as
    ``pastiche: serving on http://HOST:PORT/``, with the web table's and the API
    docs' addresses; then one line per request (method, path, status,
    milliseconds) unless ``quiet``. Connections are held to the
    service's limits (:mod:`~pastiche_core.server.connections`, on uvicorn's
    httptools parser: head size and time, idle keep-alive, a share per client
    address, fair admission when ``max_connections`` are open, bounded write
    buffers and a write timeout). A client is the
    peer's address; ``trust_proxy`` (addresses, comma-separated; never ``"*"``,
    which would let any client claim any address) names reverse proxies whose ``X-Forwarded-For`` gives the client's own
    address instead. ``uvicorn_options`` go to :class:`uvicorn.Config` (by
    default only warnings are logged).

    >>> serve(port=70000)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: port must be from 0 to 65535, got 70000
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InvalidArgumentError(f"port must be from 0 to 65535, got {port!r}")
    if trust_proxy is not None and "*" in (part.strip() for part in trust_proxy.split(",")):
        raise InvalidArgumentError("trust_proxy '*' trusts every address: name the proxies")
    import socket

    import uvicorn

    service = service if service is not None else Service()
    app = create_app(service=service)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, so that asyncio sets TCP_NODELAY on every accepted connection:
    # without it, headers and body written apart wait for a delayed ACK (40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)  # connections wait in the backlog until uvicorn accepts them
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    stream = log_stream if log_stream is not None else sys.stderr
    base = f"http://{shown}:{bound}"
    print(f"pastiche: serving on {base}/", file=stream, flush=True)
    print(f"pastiche: the web table: {base}/  the API docs: {base}/docs", file=stream, flush=True)
    asgi: Any = app if quiet else _RequestLog(app, stream)
    from .connections import uvicorn_settings

    options: dict[str, Any] = {"log_level": "warning", "access_log": False}
    options.update(uvicorn_settings(service.limits))
    if trust_proxy is not None:
        options.update(proxy_headers=True, forwarded_allow_ips=trust_proxy)
    options.update(uvicorn_options)
    config = uvicorn.Config(asgi, **options)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        service.close()


class _RequestLog:
    """ASGI middleware writing one line per HTTP request: method, path, status, milliseconds.

    The path is shown without its query and cut at 80 characters, so a stranger's
    request cannot fill the log.
    """

    def __init__(self, app: Any, stream: IO[str]) -> None:
        self.app = app
        self.stream = stream

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        import time

        start = time.monotonic()
        status = 0

        async def sending(message: Any) -> None:
            nonlocal status
            if message.get("type") == "http.response.start":
                status = int(message.get("status", 0))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            path = str(scope.get("path", ""))[:80]
            method = str(scope.get("method", ""))[:10]
            took = (time.monotonic() - start) * 1000
            print(f"{method} {path} {status or '-'} {took:.0f} ms", file=self.stream, flush=True)
