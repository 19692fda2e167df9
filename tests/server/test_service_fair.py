"""A full server makes room fairly, and a client that does not read is let go, against a real
server on 127.0.0.1 (both guarded parsers).

The clients bind addresses of 127.0.0.0/8 of their own, so that each address
holds its own connections. Every socket has a timeout and every loop a bound.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from fake_analysis import fake_analyse
from service_support import uvicorn_in_thread
from test_service_connections import closed, connect, get, read_answer

from pastiche_core.server import ServerLimits, Service
from pastiche_core.server.connections import (
    MAX_PIPELINED,
    PARSERS,
    SOCKET_BUFFER,
    WRITE_BUFFER,
    WRITE_CHUNK,
    ConnectionGuard,
    uvicorn_settings,
)

FULL_AT_TEN = ServerLimits(
    header_timeout=5.0, keep_alive=5.0, max_connections=10, client_connections=10
)


@contextmanager
def serving(limits: ServerLimits, parser: str) -> Iterator[tuple[int, ConnectionGuard]]:
    """A guarded server on 127.0.0.1 in a thread: its port and its connection guard."""
    service = Service(analyse=fake_analyse, limits=limits)
    settings = uvicorn_settings(limits, parser)
    with uvicorn_in_thread(service, 1024, **settings) as port:
        yield port, settings["http"].guard
    service.close()


def wait_for(check: object, seconds: float = 3.0) -> bool:
    """Whether ``check()`` came true within ``seconds`` (polled every 20 ms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def closed_now(client: socket.socket) -> bool:
    """Whether the server has closed ``client`` (checked without waiting long)."""
    client.settimeout(0.05)
    try:
        return closed(client)
    except TimeoutError:
        return False
    finally:
        client.settimeout(5.0)


def ask(client: socket.socket, path: str = "/v1/health") -> int:
    """One request on a kept-alive connection; its status."""
    client.sendall(get(path))
    return read_answer(client)[0]


@pytest.mark.parametrize("parser", PARSERS)
def test_a_full_server_closes_an_idle_connection_of_the_largest_holder(parser: str) -> None:
    # 127.0.0.1 holds 7 idle
    # connections, 127.0.0.3 holds 3: full. A newcomer from 127.0.0.2 gets in,
    # and one of the largest holder's connections is the one closed.
    with serving(FULL_AT_TEN, parser) as (port, guard), ExitStack() as stack:
        crowd = [stack.enter_context(connect(port, "127.0.0.1")) for _ in range(7)]
        others = [stack.enter_context(connect(port, "127.0.0.3")) for _ in range(3)]
        assert ask(others[0]) == 200  # served, then idle between requests
        assert wait_for(lambda: guard.total == 10)
        newcomer = stack.enter_context(connect(port, "127.0.0.2"))
        assert ask(newcomer) == 200
        assert guard.refused == {"evicted": 1}
        assert wait_for(lambda: sum(closed_now(client) for client in crowd) == 1)
        assert not any(closed_now(client) for client in others)
        assert guard.open == {"127.0.0.1": 6, "127.0.0.3": 3, "127.0.0.2": 1}


@pytest.mark.parametrize("parser", PARSERS)
def test_the_largest_holder_itself_is_refused_when_full(parser: str) -> None:
    with serving(FULL_AT_TEN, parser) as (port, guard), ExitStack() as stack:
        for _ in range(9):
            stack.enter_context(connect(port, "127.0.0.1"))
        stack.enter_context(connect(port, "127.0.0.3"))
        assert wait_for(lambda: guard.total == 10)
        extra = stack.enter_context(connect(port, "127.0.0.1"))
        status, headers, body = read_answer(extra)
        assert (status, headers["retry-after"]) == (503, "1")
        assert "max_connections" in json.loads(body)["error"]["message"]
        assert closed(extra)
        assert guard.refused == {"max_connections": 1}


@pytest.mark.parametrize("parser", PARSERS)
def test_connections_mid_request_are_not_closed_to_make_room(parser: str) -> None:
    with serving(FULL_AT_TEN, parser) as (port, guard), ExitStack() as stack:
        busy = [stack.enter_context(connect(port, "127.0.0.1")) for _ in range(10)]
        for client in busy:  # a body that is still arriving: the request is under way
            client.sendall(b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Length: 20\r\n\r\n{")
        assert wait_for(lambda: guard.total == 10)
        assert wait_for(lambda: not any(c.idle() for c in guard.members["127.0.0.1"]))
        newcomer = stack.enter_context(connect(port, "127.0.0.2"))
        assert read_answer(newcomer)[0] == 503
        assert guard.refused == {"max_connections": 1}
        assert not any(closed_now(client) for client in busy)


@pytest.mark.parametrize("parser", PARSERS)
def test_a_client_that_never_reads_is_aborted_and_holds_little(parser: str) -> None:
    # The slow reader: a large answer pipelined again and again, never read.
    limits = ServerLimits(header_timeout=5.0, keep_alive=5.0, write_timeout=1.0)
    with serving(limits, parser) as (port, guard):
        reader = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.settimeout(5.0)
        reader.bind(("127.0.0.4", 0))
        reader.connect(("127.0.0.1", port))
        with reader:
            started = time.monotonic()
            reader.sendall(get("/openapi.json") * 200)
            held = guard.members.get
            assert wait_for(lambda: any(c.write_timer for c in held("127.0.0.4", {})))
            (stuck,) = guard.members["127.0.0.4"]
            assert stuck.transport.get_write_buffer_size() <= WRITE_BUFFER + WRITE_CHUNK
            sent = stuck.transport.get_extra_info("socket").getsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF
            )
            assert sent in (SOCKET_BUFFER, 2 * SOCKET_BUFFER)  # Linux doubles what is asked
            for _ in range(5):  # others are answered meanwhile
                with connect(port, "127.0.0.2") as honest:
                    assert ask(honest) == 200
            assert wait_for(lambda: guard.refused.get("write_timeout") == 1, 4.0)
            assert 0.9 < time.monotonic() - started < 4.0
            assert "127.0.0.4" not in guard.open
            received = 0
            for _ in range(10_000):  # what was in flight, then the end
                try:
                    chunk = reader.recv(65_536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                received += len(chunk)
            assert received < 10 * 70_000  # a few answers, not 200


@pytest.mark.parametrize("parser", PARSERS)
def test_a_slow_reader_that_reads_in_the_end_gets_every_answer(parser: str) -> None:
    limits = ServerLimits(header_timeout=5.0, keep_alive=5.0, write_timeout=2.0)
    with serving(limits, parser) as (port, guard), connect(port, "127.0.0.4") as client:
        client.sendall(get("/openapi.json") * 3)
        time.sleep(0.5)  # within the write timeout
        for _ in range(3):
            status, _, body = read_answer(client)
            assert status == 200
            assert json.loads(body)["openapi"].startswith("3.")
        assert ask(client) == 200
        assert "write_timeout" not in guard.refused


@pytest.mark.parametrize("parser", PARSERS)
def test_pipelined_requests_are_answered_up_to_the_bound(parser: str) -> None:
    limits = ServerLimits(header_timeout=5.0, keep_alive=5.0)
    count = MAX_PIPELINED + 10
    with serving(limits, parser) as (port, guard), connect(port) as client:
        client.sendall(get("/v1/health") * count)
        answered = []
        for _ in range(count):
            status, headers, _ = read_answer(client)
            answered.append(status)
            if headers.get("connection") == "close":
                break
        assert set(answered) == {200}
        if parser == "httptools":  # it parses a whole chunk at once: the rest is dropped
            assert len(answered) == MAX_PIPELINED + 1
            assert closed(client)
            assert guard.refused == {"pipelined": 1}
        else:  # h11 parses one request at a time, as it is answered
            assert len(answered) == count


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("same_chunk", [False, True])
def test_a_next_head_begun_and_left_is_408_after_the_header_timeout(
    parser: str, same_chunk: bool
) -> None:
    # The head's clock, not the longer keep-alive one, bounds a head begun on a
    # kept-alive connection, whether it came with the request before it or after.
    limits = ServerLimits(header_timeout=0.5, keep_alive=5.0)
    with serving(limits, parser) as (port, guard), connect(port) as client:
        partial = b"GET /v1/health HTTP/1.1\r\nHo"
        client.sendall(get("/v1/health") + (partial if same_chunk else b""))
        assert read_answer(client)[0] == 200
        started = time.monotonic()
        if not same_chunk:
            client.sendall(partial)
        status, _, body = read_answer(client)
        assert status == 408
        assert "within 0.5 seconds" in json.loads(body)["error"]["message"]
        assert 0.3 < time.monotonic() - started < 2.0
        assert closed(client)
        assert guard.refused == {"header_timeout": 1}


@pytest.mark.parametrize("parser", PARSERS)
def test_a_large_head_behind_a_request_in_one_chunk_is_431(parser: str) -> None:
    limits = ServerLimits(header_timeout=2.0, keep_alive=2.0, max_header_bytes=4096)
    with serving(limits, parser) as (port, guard), connect(port) as client:
        large = get("/v1/health", "X-Pad: " + "a" * 5000 + "\r\n")
        client.sendall(get("/v1/health") + large)
        assert read_answer(client)[0] == 200
        status, _, body = read_answer(client)
        assert status == 431
        assert "4,096 bytes" in json.loads(body)["error"]["message"]
        assert closed(client)
        assert guard.refused == {"max_header_bytes": 1}


@pytest.mark.parametrize("parser", PARSERS)
def test_a_crowd_of_addresses_holding_every_connection_lets_newcomers_in(parser: str) -> None:
    # The crowd scaled down: 10 addresses hold 4 idle connections each,
    # all the server takes; 5 new addresses are each answered, one after another.
    limits = ServerLimits(
        header_timeout=5.0, keep_alive=5.0, max_connections=40, client_connections=4
    )
    with serving(limits, parser) as (port, guard), ExitStack() as stack:
        for host in range(10, 20):
            for _ in range(4):
                stack.enter_context(connect(port, f"127.0.1.{host}"))
        assert wait_for(lambda: guard.total == 40)
        for host in range(30, 35):  # each stays, so each needs room of its own
            newcomer = stack.enter_context(connect(port, f"127.0.2.{host}"))
            assert ask(newcomer) == 200
        assert guard.refused == {"evicted": 5}
        assert guard.total == 40
        assert sorted(guard.open.values()).count(3) == 5
