"""Shared helpers of the service's tests: clients, schemas, card notation in answers."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import jsonschema
from fake_analysis import fake_analyse
from starlette.testclient import TestClient

from pastiche_core.io import schema as library_schema
from pastiche_core.server import PoolSettings, ServerLimits, Service, WorkerPool, create_app, schema
from pastiche_core.server.workers import Runner

CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(MYT|LOV|SCI|HOR|MYS|FAN|MAG)(1[0-3]|[1-9])(?![0-9])")
"""A card in notation inside any text (a JSON answer, an error message)."""


def cards_in(data: Any) -> set[str]:
    """Every card notation that appears anywhere in ``data`` (as JSON text)."""
    text = data if isinstance(data, str) else json.dumps(data)
    return {match[0] for match in CARD_WORD.finditer(text)}


def make_client(
    *, limits: ServerLimits | None = None, analyse: Any = fake_analyse, **options: Any
) -> tuple[TestClient, Service]:
    """An in-process client of a fresh service (fake analysis by default) and the service."""
    service = Service(analyse=analyse, limits=limits, **options)
    client = TestClient(create_app(service=service), raise_server_exceptions=False)
    return client, service


def bearer(token: str) -> dict[str, str]:
    """The header that opens a seat."""
    return {"Authorization": f"Bearer {token}"}


def validate_library(name: str, document: Any) -> None:
    """Check ``document`` against one of the library's schemas (position, publishes, hint)."""
    jsonschema.Draft202012Validator(library_schema(name)).validate(document)


def validate_service(name: str, document: Any) -> None:
    """Check ``document`` against one of the service's schemas (view, game_state, error...)."""
    jsonschema.Draft202012Validator(schema(name)).validate(document)


def new_game(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """Create a game; its id and the tokens by seat."""
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    validate_service("game_created", created)
    return created["game"], created["tokens"]


@contextmanager
def uvicorn_in_thread(service: Service, backlog: int = 64, **options: Any) -> Iterator[int]:
    """A real uvicorn server on 127.0.0.1 (a free port) in a thread; its port.

    ``options`` go to uvicorn after the quiet logging defaults. It waits at most
    30 seconds for the start, and as long for the stop.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(backlog)
    settings: dict[str, Any] = {"log_level": "warning", "access_log": False, **options}
    server = uvicorn.Server(uvicorn.Config(create_app(service=service), **settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        assert server.started, "the server did not start"
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@contextmanager
def running_server(service: Service) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 (a free port) in a thread; its base URL."""
    with uvicorn_in_thread(service) as port:
        yield f"http://127.0.0.1:{port}"


@contextmanager
def pooled_server(
    settings: PoolSettings, run: Runner, limits: ServerLimits | None = None
) -> Iterator[tuple[int, Service]]:
    """A real server whose service (fake analysis) sends its heavy work to a started pool of
    ``settings`` running ``run``: the port and the service, closed afterwards."""
    bounds = limits if limits is not None else ServerLimits()
    pool = WorkerPool(settings, bounds, run=run)
    pool.start()
    service = Service(analyse=fake_analyse, pool=pool, limits=bounds)
    try:
        with running_server(service) as url:
            yield int(url.rsplit(":", 1)[1]), service
    finally:
        service.close()


def workers_ready(service: Service, workers: int, seconds: float) -> None:
    """Wait at most ``seconds`` until ``workers`` of the service's pool are ready (a test may
    have had one replaced), and check that they are."""
    assert service.pool is not None
    deadline = time.monotonic() + seconds
    while service.pool.stats()["ready"] < workers and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.pool.stats()["ready"] == workers
