"""The pool's two lanes, its fair order and its workers' priority, against real worker processes.

A request is light when its own time is at most the pool's ``light_seconds``
(2 s with the default limits), else heavy; heavy requests hold at most
``workers - 1`` workers and wait in a room of their own (``heavy_queue``). The
HTTP tests run one real server on 127.0.0.1 with two workers; each client
binds its own loopback address (127.0.0.2, ...) so that each has its own
share. The pool runs :func:`lane_run`: a publishes search asking for more than
the light time holds its worker for :data:`HOLD` seconds first, and the
``hold`` work sleeps as long as it is told and answers its worker's niceness.
Every socket has a timeout, every wait a bound.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import pooled_server

from pastiche_core.server import PoolSettings, ServerLimits, Service, WorkerPool
from pastiche_core.server.api_errors import ApiError
from pastiche_core.server.workers import run_request

HOLD = 3.0
"""Seconds a heavy publishes search holds its worker in these tests."""
SETTINGS = PoolSettings(workers=2, queue=2, heavy_queue=1, client_share=1, grace=1.0)
POSITION = {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}
HEAVY_PUBLISH = "/v1/publishes?time_limit=10"


def lane_run(service: Service, method: str, body: Any, options: dict[str, Any]) -> Any:
    """The tests' work: heavy publishes hold their worker, ``hold`` sleeps; else the real work."""
    if method == "hold":
        time.sleep(options["hold"])
        return {"nice": os.nice(0), "pid": os.getpid(), "name": options.get("name", "")}
    if method == "publishes" and options["time_limit"] > service.limits.time_limit:
        time.sleep(HOLD)
    return run_request(Service(analyse=fake_analyse, limits=service.limits), method, body, options)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, Service]]:
    """One pool of two workers and one real server for the module: the port and the service."""
    with pooled_server(SETTINGS, lane_run) as served:
        yield served


def pool_of(service: Service) -> WorkerPool:
    assert service.pool is not None
    return service.pool


@pytest.fixture
def server(served: tuple[int, Service]) -> tuple[int, Service]:
    """The module's server with both workers idle again."""
    _, service = served
    pool = pool_of(service)
    deadline = time.monotonic() + 30
    while pool.stats()["ready"] < SETTINGS.workers and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.stats()["ready"] == SETTINGS.workers
    return served


SENT = iter(range(10**6))
"""Spaces after each body, so that no two bodies are the same (the answer cache is keyed by the
body's bytes)."""


def post(port: int, path: str, body: Any, source: str) -> tuple[int, float, Any]:
    """POST ``body`` as JSON from the address ``source``: status, seconds taken, answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    text = json.dumps(body) + " " * next(SENT)
    started = time.monotonic()
    try:
        conn.request("POST", path, text, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, time.monotonic() - started, json.loads(answer.read())
    finally:
        conn.close()


def in_background(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Run ``call`` in a thread; its answer lands in the list."""
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def wait_for(pool: WorkerPool, key: str, value: int) -> None:
    deadline = time.monotonic() + 10
    while pool.stats()[key] < value and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.stats()[key] == value, pool.stats()


def test_light_requests_are_answered_while_heavy_ones_fill_their_lane(
    server: tuple[int, Service],
) -> None:
    port, service = server
    pool = pool_of(service)
    running, first = in_background(lambda: post(port, HEAVY_PUBLISH, POSITION, "127.0.0.2"))
    wait_for(pool, "heavy_running", 1)
    waiting, second = in_background(lambda: post(port, HEAVY_PUBLISH, POSITION, "127.0.0.3"))
    wait_for(pool, "heavy_waiting", 1)
    # Heavy requests never hold the last worker: one runs, one waits, one stays free.
    assert pool.stats()["ready"] == 1
    assert pool.stats()["running"] == 1
    status, seconds, data = post(port, HEAVY_PUBLISH, POSITION, "127.0.0.4")
    assert status == 503
    assert seconds < 1.0
    assert "heavy_queue allows (1)" in data["error"]["message"]
    # A heavy hint learns its lane from its body, and is refused as soon as it is read.
    hint = {"view": {}, "budget_ms": 5000}
    status, seconds, data = post(port, "/v1/hint", hint, "127.0.0.5")
    assert status == 503
    assert seconds < 1.0
    assert "heavy_queue" in data["error"]["message"]
    # Light requests from other clients still get the free worker, at once.
    for source in ("127.0.0.6", "127.0.0.7", "127.0.0.8"):
        status, seconds, data = post(port, "/v1/publishes", POSITION, source)
        assert status == 200, data
        assert seconds < 1.5
        assert [option["novel"] for option in data["options"]] == ["kind-3"]
    assert pool.stats()["heavy_running"] == 1
    running.join(timeout=20)
    waiting.join(timeout=20)
    assert [first[0][0], second[0][0]] == [200, 200]


def test_a_light_request_waits_in_its_own_room_when_every_worker_is_busy(
    server: tuple[int, Service],
) -> None:
    port, service = server
    pool = pool_of(service)
    heavy, heavy_answer = in_background(lambda: post(port, HEAVY_PUBLISH, POSITION, "127.0.1.2"))
    wait_for(pool, "heavy_running", 1)
    queued, queued_answer = in_background(lambda: post(port, HEAVY_PUBLISH, POSITION, "127.0.1.3"))
    wait_for(pool, "heavy_waiting", 1)
    # The last worker held by a light request (in the pool directly) for a second.
    light, light_answer = in_background(
        lambda: pool.call("hold", {}, seconds=1.0, client="127.0.1.4", options={"hold": 1.0})
    )
    wait_for(pool, "running", 2)
    # The heavy room is full, yet a light request waits for a worker instead of a 503.
    status, seconds, data = post(port, "/v1/publishes", POSITION, "127.0.1.5")
    assert status == 200, data
    assert 0.3 < seconds < HOLD  # it had the worker the light request gave back
    for thread in (heavy, queued, light):
        thread.join(timeout=20)
    assert [heavy_answer[0][0], queued_answer[0][0], light_answer[0]["name"]] == [200, 200, ""]


@pytest.fixture(scope="module")
def single() -> Iterator[WorkerPool]:
    """A pool of one worker, no HTTP: shared by both lanes, four requests a client."""
    settings = PoolSettings(workers=1, queue=4, heavy_queue=2, client_share=4, grace=1.0)
    pool = WorkerPool(settings, ServerLimits(), run=lane_run)
    pool.start()
    try:
        yield pool
    finally:
        pool.close()


def run_in_order(
    pool: WorkerPool, requests: list[tuple[str, str, float]]
) -> tuple[list[str], list[threading.Thread]]:
    """Hold the only worker, queue ``requests`` (name, client, own seconds) one after the
    other, and give the worker back: the names in the order the worker took them."""
    order: list[str] = []
    lock = threading.Lock()

    def ask(name: str, client: str, seconds: float) -> None:
        answer = pool.call(
            "hold", {}, seconds=seconds, client=client, options={"hold": 0.2, "name": name}
        )
        with lock:
            order.append(answer["name"])

    blocker, _ = in_background(
        lambda: pool.call("hold", {}, seconds=1.0, client="blocker", options={"hold": 1.0})
    )
    wait_for(pool, "running", 1)
    threads = [blocker]
    for number, (name, client, seconds) in enumerate(requests, start=1):
        thread = threading.Thread(target=ask, args=(name, client, seconds), daemon=True)
        thread.start()
        threads.append(thread)
        wait_for(pool, "waiting", number)
    for thread in threads:
        thread.join(timeout=20)
    return order, threads


def test_waiting_requests_take_turns_across_clients(single: WorkerPool) -> None:
    # Three of one client's requests wait before another client's one, which goes second.
    requests = [("a1", "a", 1.0), ("a2", "a", 1.0), ("a3", "a", 1.0), ("b1", "b", 1.0)]
    order, _ = run_in_order(single, requests)
    assert order == ["a1", "b1", "a2", "a3"]


def test_with_one_worker_heavy_requests_share_it_but_light_ones_go_first(
    single: WorkerPool,
) -> None:
    assert single.heavy_workers == 1
    requests = [("heavy", "h", 5.0), ("light", "l", 1.0)]
    order, _ = run_in_order(single, requests)
    assert order == ["light", "heavy"]


def fill_heavy_room(pool: WorkerPool) -> list[threading.Thread]:
    """Hold the only worker for a second and make two heavy requests wait: their threads."""
    threads = [in_background(partial(hold, pool, "x", 1.0, 1.0))[0]]
    wait_for(pool, "running", 1)
    threads += [in_background(partial(hold, pool, c, 5.0, 0.0))[0] for c in ("h1", "h2")]
    wait_for(pool, "heavy_waiting", 2)
    return threads


def hold(pool: WorkerPool, client: str, seconds: float, hold: float) -> dict[str, Any]:
    """A request of ``seconds`` of its own that holds its worker ``hold`` seconds."""
    return pool.call("hold", {}, seconds=seconds, client=client, options={"hold": hold})


def test_a_full_heavy_room_refuses_heavy_requests_only(single: WorkerPool) -> None:
    threads = fill_heavy_room(single)
    with pytest.raises(ApiError, match="heavy_queue allows"):
        single.check(5.0)
    single.check(1.0)  # the light room is empty
    with pytest.raises(ApiError, match="heavy_queue allows"):
        single.admit("h3", 5.0)
    single.admit("l1", 1.0).release()
    for thread in threads:
        thread.join(timeout=20)
    assert single.refused.get("heavy_queue", 0) >= 2


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no os.nice on this platform")
def test_workers_run_below_the_servers_priority(single: WorkerPool) -> None:
    answer = single.call("hold", {}, seconds=1.0, client="n", options={"hold": 0.0})
    assert answer["pid"] != os.getpid()
    assert answer["nice"] == min(19, os.nice(0) + SETTINGS.nice)


def test_a_random_bots_turn_is_light_and_a_search_bots_heavy(single: WorkerPool) -> None:
    held = [single.admit(f"busy-{n}", 5.0) for n in range(2)]  # nothing runs: only places
    threads = fill_heavy_room(single)
    # The heavy room is full: a search bot's turn is refused before any work, a random one
    # waits in the light room and plays.
    from pastiche_core.io.record import GameRecord

    record = GameRecord(3, 7).to_dict()
    search = single.play_bots(
        {"record": record, "bots": [None, "search", "random"]}, seconds=5.0, client="s"
    )
    assert search is None
    played = single.play_bots(
        {"record": record, "bots": [None, "random", "random"]}, seconds=5.0, client="r"
    )
    assert played == {"moves": ["keep MYT1 HOR7 FAN10"], "done": True}
    for ticket in held:
        ticket.release()
    for thread in threads:
        thread.join(timeout=20)


def test_lane_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="nice must be at most 19, got 20"):
        PoolSettings(nice=20)
    with pytest.raises(ValueError, match="heavy_queue must be at least 0, got -1"):
        PoolSettings(heavy_queue=-1)
    assert PoolSettings(nice=0, heavy_queue=0).heavy_queue == 0
