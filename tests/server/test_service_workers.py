"""Heavy work isolated: hints and publishes in a bounded pool of worker processes.

The pool runs :func:`hostile_run` instead of the plain work: a hint whose seed
is one of the ``*_SEED`` numbers below overruns, allocates, crashes or takes a
second, and any other request is answered as usual. The hook is given to the
pool directly (``WorkerPool(run=...)``), so no request and no setting outside
a test can reach it. Clients talk to a real server on 127.0.0.1; a second
client connects from another loopback address (127.0.0.2, ...), so that each
has its own share. Every socket has a timeout and every wait a bound.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import pooled_server, workers_ready

from pastiche_core.server import PoolSettings, Service
from pastiche_core.server.stdio import UNAVAILABLE_ERROR, handle_line
from pastiche_core.server.workers import run_request

SLEEP_SEED = 101
"""A hint that sleeps far past any deadline."""
ALLOCATE_SEED = 102
"""A hint that asks for far more memory than a worker's cap."""
CRASH_SEED = 103
"""A hint whose worker dies at once."""
SLOW_SEED = 104
"""A hint that takes a second, within its budget."""
HOARD_SEED = 105
"""A hint that fills 200 MiB in its worker (within the cap) and answers."""
OUTPUT_SEED = 106
"""A hint that answers whether its standard output is its standard error."""

SETTINGS = PoolSettings(workers=2, queue=1, memory_mb=384, client_share=1, grace=0.5)
POSITION = {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}


def hostile_run(service: Service, method: str, body: Any, options: dict[str, Any]) -> Any:
    """The tests' work: misbehaves on the ``*_SEED`` hints, else does the real work."""
    seed = body.get("seed", 0) if method == "hint" else 0
    if seed == SLEEP_SEED:
        time.sleep(60)
    elif seed == ALLOCATE_SEED:
        hoard = bytearray(2**31)
        return {"size": len(hoard)}
    elif seed == CRASH_SEED:
        os._exit(3)
    elif seed == SLOW_SEED:
        time.sleep(1.0)
    elif seed == OUTPUT_SEED:
        return {"stdout_is_stderr": os.path.samestat(os.fstat(1), os.fstat(2))}
    elif seed == HOARD_SEED:
        hoard = bytearray(200 * 2**20)
        hoard[::4096] = b"x" * len(hoard[::4096])  # touch every page
        del hoard
    return run_request(Service(analyse=fake_analyse, limits=service.limits), method, body, options)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, Service]]:
    """One pool and one real server for the module: the port and the service."""
    with pooled_server(SETTINGS, hostile_run) as served:
        yield served


@pytest.fixture
def server(served: tuple[int, Service]) -> tuple[int, Service]:
    """The module's server, with every worker ready again (a test may have replaced one)."""
    workers_ready(served[1], SETTINGS.workers, 20)
    return served


def post(
    port: int, path: str, body: Any, source: str = "127.0.0.1", timeout: float = 10.0
) -> tuple[int, dict[str, str], Any]:
    """POST ``body`` as JSON from the address ``source``: status, headers, decoded answer."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0)
    )
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data = json.loads(answer.read())
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data
    finally:
        conn.close()


def hint_body(service: Service, seed: int, budget_ms: int = 2000) -> dict[str, Any]:
    """A hint request on a real view of a fresh game."""
    created = service.create_game({"players": 3, "seed": 5}, client=f"maker-{seed}")
    view = service.game_state(created["game"], created["tokens"]["0"])["view"]
    return {"view": view, "budget_ms": budget_ms, "seed": seed}


def test_an_overrun_is_504_and_its_worker_is_replaced(server: tuple[int, Service]) -> None:
    port, service = server
    assert service.pool is not None
    before = service.pool.stats()["replaced"].get("deadline", 0)
    started = time.monotonic()
    status, _, data = post(port, "/v1/hint", hint_body(service, SLEEP_SEED, budget_ms=100))
    took = time.monotonic() - started
    assert status == 504
    assert "did not finish within 0.6 seconds" in data["error"]["message"]
    assert "worker was stopped" in data["error"]["message"]
    assert 0.5 <= took < 3.0
    assert service.pool.stats()["replaced"]["deadline"] == before + 1
    status, _, data = post(port, "/v1/hint", hint_body(service, 1))
    assert status == 200, data
    assert data["format"] == "pastiche-hint"
    deadline = time.monotonic() + 20
    while service.pool.stats()["ready"] < SETTINGS.workers and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.pool.stats()["ready"] == SETTINGS.workers  # the replacement is warm


def test_running_out_of_memory_is_503_and_the_next_request_succeeds(
    server: tuple[int, Service],
) -> None:
    port, service = server
    assert service.pool is not None
    before = service.pool.stats()["replaced"].get("memory", 0)
    status, _, data = post(port, "/v1/hint", hint_body(service, ALLOCATE_SEED))
    assert status == 503
    assert data["error"]["message"] == (
        "the request ran out of memory (each worker has at most 384 MiB, memory_mb)"
    )
    assert service.pool.stats()["replaced"]["memory"] == before + 1
    status, _, data = post(port, "/v1/publishes", POSITION)
    assert status == 200
    assert data["options"][0]["novel"] == "kind-3"


def test_a_lost_worker_is_503_with_its_exit_status(server: tuple[int, Service]) -> None:
    port, service = server
    assert service.pool is not None
    status, headers, data = post(port, "/v1/hint", hint_body(service, CRASH_SEED))
    assert status == 503
    assert "was lost (exit status 3)" in data["error"]["message"]
    assert headers["retry-after"] == "1"
    status, _, _ = post(port, "/v1/hint", hint_body(service, 2))
    assert status == 200


def test_a_full_queue_answers_503_at_once_with_retry_after(server: tuple[int, Service]) -> None:
    port, service = server
    assert service.pool is not None
    slow = hint_body(service, SLOW_SEED, budget_ms=2000)
    quick = hint_body(service, 4)
    answers: list[int] = []
    # Two workers busy and one request waiting, each from its own client.
    threads = [
        threading.Thread(target=lambda s=s: answers.append(post(port, "/v1/hint", slow, s)[0]))
        for s in ("127.0.0.2", "127.0.0.3", "127.0.0.4")
    ]
    for thread in threads:
        thread.start()
        time.sleep(0.1)
    deadline = time.monotonic() + 5
    while service.pool.stats()["waiting"] < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert service.pool.stats()["waiting"] == 1
    started = time.monotonic()
    status, headers, data = post(port, "/v1/hint", quick, "127.0.0.5")
    assert time.monotonic() - started < 0.5
    assert status == 503
    assert headers["retry-after"] == "1"
    assert "the most the queue allows (1)" in data["error"]["message"]
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(answers) == [200, 200, 200]  # the waiting one had its turn


def test_one_clients_flood_leaves_another_clients_hint_answered(
    server: tuple[int, Service],
) -> None:
    port, service = server
    slow = hint_body(service, SLOW_SEED, budget_ms=2000)
    flood: list[tuple[int, dict[str, str]]] = []

    def attack() -> None:
        status, headers, _ = post(port, "/v1/hint", slow, "127.0.0.2")
        flood.append((status, headers))

    attackers = [threading.Thread(target=attack) for _ in range(6)]
    for thread in attackers:
        thread.start()
    other = hint_body(service, 3)
    time.sleep(0.2)
    started = time.monotonic()
    status, _, data = post(port, "/v1/hint", other, "127.0.0.3")
    assert status == 200, data
    assert time.monotonic() - started < 1.0
    for thread in attackers:
        thread.join(timeout=10)
    statuses = [status for status, _ in flood]
    assert len(statuses) == 6
    assert set(statuses) == {200, 429}
    assert statuses.count(429) >= 4  # one at a time: the others arrive while it runs
    assert all(headers.get("retry-after") == "1" for status, headers in flood if status == 429)


def test_the_server_process_stays_small(server: tuple[int, Service]) -> None:
    port, service = server

    def peak() -> int:
        """The peak resident memory of this process (the server's), in bytes."""
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM line")

    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc here to read the server's memory")
    before = peak()
    for _ in range(2):
        status, _, _ = post(port, "/v1/hint", hint_body(service, HOARD_SEED))
        assert status == 200
    assert peak() - before < 50 * 2**20  # the 200 MiB stayed in the workers


def test_stdio_reports_a_deadline_as_a_server_error(server: tuple[int, Service]) -> None:
    _, service = server
    params = hint_body(service, SLEEP_SEED, budget_ms=50)
    line = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "hint", "params": params})
    answer = json.loads(handle_line(service, line))
    assert answer["error"]["code"] == UNAVAILABLE_ERROR
    assert answer["error"]["data"] == {"status": 504}
    assert "did not finish within 0.55 seconds" in answer["error"]["message"]


def test_bad_input_never_reaches_a_worker(server: tuple[int, Service]) -> None:
    port, service = server
    assert service.pool is not None
    lost = service.pool.stats()["replaced"].get("lost", 0)
    body = hint_body(service, CRASH_SEED)  # would kill its worker if it reached one
    body["view"]["hand"][0] = "LOV1"
    status, _, data = post(port, "/v1/hint", body)
    assert status == 400
    assert data["error"]["path"] == "$.view.hand[0]"
    status, _, data = post(port, "/v1/publishes", {**POSITION, "hand": ["LOV1"]})
    assert status == 400
    assert service.pool.stats()["replaced"].get("lost", 0) == lost
    assert service.pool.stats()["ready"] == SETTINGS.workers


def test_publishes_in_a_worker_equal_those_in_process(server: tuple[int, Service]) -> None:
    port, _ = server
    position = {"player": 0, "hand": ["MYS7", "FAN7", "MYT6", "SCI9"], "masterpieces": []}
    status, _, data = post(port, "/v1/publishes", position)
    assert status == 200
    assert data == Service().publishes(position)


def test_pool_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="queue must be at least 0, got -1"):
        PoolSettings(queue=-1)
    with pytest.raises(ValueError, match="grace must be more than 0 seconds"):
        PoolSettings(grace=float("nan"))
    with pytest.raises(ValueError, match="client_share must be at most workers"):
        PoolSettings(workers=1, queue=0, client_share=2)


def test_serve_on_stdio_answers_in_workers_and_stops_them_at_the_end() -> None:
    if not os.path.exists("/proc/self/task"):
        pytest.skip("no /proc here to list a process's children")
    process = subprocess.Popen(
        [sys.executable, "-m", "pastiche_core", "serve", "--stdio", "--workers", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdin is not None
        assert process.stdout is not None
        request = {"jsonrpc": "2.0", "id": 1, "method": "publishes", "params": POSITION}
        process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert answer["result"]["options"][0]["novel"] == "kind-3"
        children: set[int] = set()
        for task in os.listdir(f"/proc/{process.pid}/task"):
            with open(f"/proc/{process.pid}/task/{task}/children") as listed:
                children.update(int(pid) for pid in listed.read().split())
        assert children  # the worker is a process of its own
        process.stdin.close()
        assert process.wait(timeout=20) == 0
        left = time.monotonic() + 5  # the resource tracker leaves once its pipe closes
        while [pid for pid in children if os.path.exists(f"/proc/{pid}")]:
            assert time.monotonic() < left, "a worker outlived the server"
            time.sleep(0.05)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def test_a_worker_never_writes_to_the_servers_standard_output(
    server: tuple[int, Service],
) -> None:
    port, service = server
    status, _, data = post(port, "/v1/hint", hint_body(service, OUTPUT_SEED))
    assert status == 200
    assert data == {"stdout_is_stderr": True}  # the JSON-RPC stream stays clean
