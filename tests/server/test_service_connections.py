"""Connections that one client cannot hog, against a real server on 127.0.0.1.

The server runs with ``uvicorn_settings`` (what ``pastiche serve`` uses) and
short clocks, so that every timeout here fires in well under a second. The
"other" client connects from 127.0.0.2, a second loopback address, so that
shares per client address can be seen. Every socket has a timeout and every
loop a bound. Each test runs on both guarded parsers (httptools and h11).
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import uvicorn_in_thread

from pastiche_core.server import ServerLimits, Service
from pastiche_core.server.connections import PARSERS, uvicorn_settings

FAST = ServerLimits(
    header_timeout=0.5,
    keep_alive=0.5,
    body_time_limit=0.5,
    client_connections=8,
    max_header_bytes=4096,
    max_headers=20,
)


PARSER = {"name": PARSERS[0]}
"""The parser the servers of the test under way use (set by the ``parser`` fixture)."""


@pytest.fixture(autouse=True, params=PARSERS)
def parser(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test once per guarded parser."""
    PARSER["name"] = request.param
    yield request.param
    PARSER["name"] = PARSERS[0]


@contextmanager
def serving(limits: ServerLimits = FAST, **extra: Any) -> Iterator[tuple[int, Service]]:
    """A guarded uvicorn server on 127.0.0.1 in a thread: its port and its service.

    ``extra`` options go to uvicorn after those of ``uvicorn_settings``.
    """
    service = Service(analyse=fake_analyse, limits=limits)
    settings = uvicorn_settings(limits, PARSER["name"])
    with uvicorn_in_thread(service, 1024, **{**settings, **extra}) as port:
        yield port, service


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    """A client socket to the server, from ``source`` (a loopback address)."""
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.settimeout(timeout)
    client.bind((source, 0))
    client.connect(("127.0.0.1", port))
    return client


def read_answer(client: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer: status, headers (lower-case names) and body (by content-length).

    The head is read a byte at a time, so a next pipelined answer stays in the socket.
    """
    data = b""
    for _ in range(65_536):
        if data.endswith(b"\r\n\r\n"):
            break
        chunk = client.recv(1)
        if not chunk:
            break
        data += chunk
    assert data.endswith(b"\r\n\r\n"), f"no complete answer: {data[:200]!r}"
    lines = data.decode("latin-1").strip().split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    size = int(headers.get("content-length", "0"))
    body = b""
    for _ in range(10_000):
        if len(body) >= size:
            break
        chunk = client.recv(size - len(body))
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def flood(client: socket.socket, chunk: bytes, times: int) -> int:
    """Send ``chunk`` up to ``times`` times; the bytes sent before the server closed."""
    sent = 0
    try:
        for _ in range(times):
            client.sendall(chunk)
            sent += len(chunk)
    except OSError:
        return sent
    pytest.fail(f"the server took {sent:,} bytes of one head")


def closed(client: socket.socket) -> bool:
    """Whether the server closed the connection (end of stream or reset)."""
    try:
        return client.recv(1) == b""
    except ConnectionResetError:
        return True


def get(path: str, extra: str = "", close: bool = False) -> bytes:
    """A GET request's bytes."""
    connection = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: t\r\n{extra}{connection}\r\n".encode()


def health(port: int, source: str = "127.0.0.2") -> float:
    """Seconds a health check takes from ``source``; it must answer 200."""
    started = time.monotonic()
    with connect(port, source) as client:
        client.sendall(get("/v1/health", close=True))
        status, _, body = read_answer(client)
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    return time.monotonic() - started


def test_a_head_past_its_size_is_431_and_the_connection_closes() -> None:
    with serving() as (port, service):
        # Just within: the head is exactly max_header_bytes long.
        base = get("/v1/health", "X-Pad: \r\n")
        fitting = get("/v1/health", "X-Pad: " + "a" * (4096 - len(base)) + "\r\n")
        assert len(fitting) == 4096
        with connect(port) as client:
            client.sendall(fitting)
            assert read_answer(client)[0] == 200
        # One byte more: 431, closed, whether it arrives at once or in pieces.
        for pieces in (1, 7):
            over = get("/v1/health", "X-Pad: " + "a" * (4097 - len(base)) + "\r\n")
            with connect(port) as client:
                step = -(-len(over) // pieces)
                for start in range(0, len(over), step):
                    client.sendall(over[start : start + step])
                status, headers, body = read_answer(client)
                assert status == 431
                assert headers["connection"] == "close"
                assert "4,096 bytes" in json.loads(body)["error"]["message"]
                assert closed(client)
        # A head that never ends (the 500 MB of headers): refused after
        # max_header_bytes, long before the sender is done.
        with connect(port) as client:
            client.sendall(b"GET /v1/health HTTP/1.1\r\nHost: t\r\n")
            sent = flood(client, b"X-" + b"a" * 32_000 + b": b\r\n", 2_000)  # at most 64 MB
            assert sent < 8 * 2**20
        assert service.limits.max_header_bytes == 4096
        assert health(port) < 1.0


def test_a_pipelined_request_after_a_small_one_is_held_to_the_same_size() -> None:
    with serving() as (port, _), connect(port) as client:
        client.sendall(get("/v1/health") + get("/v1/health", "X-Pad: a\r\n"))
        assert read_answer(client)[0] == 200
        assert read_answer(client)[0] == 200
        client.sendall(get("/v1/health", "X-Pad: " + "a" * 5000 + "\r\n"))
        assert read_answer(client)[0] == 431
        assert closed(client)


def test_too_many_header_lines_is_431() -> None:
    with serving() as (port, _):
        many = "".join(f"X-{n}: 1\r\n" for n in range(19))  # with Host: 20 lines, the most
        with connect(port) as client:
            client.sendall(get("/v1/health", many))
            assert read_answer(client)[0] == 200
            client.sendall(get("/v1/health", many + "X-Last: 1\r\n"))
            status, _, body = read_answer(client)
            assert status == 431
            assert "more than max_headers (20)" in json.loads(body)["error"]["message"]
            assert closed(client)


def test_silent_and_slow_heads_are_closed_after_the_header_timeout() -> None:
    with serving() as (port, service):
        with connect(port) as silent, connect(port) as trickle:
            started = time.monotonic()
            for byte in b"GET /v1/health HTTP/1.1\r\n"[:4]:  # a byte every 0.1 s
                trickle.sendall(bytes([byte]))
                time.sleep(0.1)
            for client in (silent, trickle):
                status, _, body = read_answer(client)
                assert status == 408
                assert "within 0.5 seconds" in json.loads(body)["error"]["message"]
                assert closed(client)
            assert 0.4 < time.monotonic() - started < 2.0
        assert service.limits.header_timeout == 0.5


def test_an_idle_keep_alive_connection_is_closed() -> None:
    with serving() as (port, _), connect(port) as client:
        client.sendall(get("/v1/health"))
        assert read_answer(client)[0] == 200
        started = time.monotonic()
        assert closed(client)
        assert 0.3 < time.monotonic() - started < 2.0


def test_a_slow_body_is_408_and_the_connection_closes() -> None:
    with serving() as (port, _), connect(port) as client:
        client.sendall(
            b"POST /v1/publishes HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        status, headers, body = read_answer(client)
        assert status == 408
        assert headers["connection"] == "close"
        assert "did not arrive within 0.5 seconds" in json.loads(body)["error"]["message"]
        assert closed(client)


def test_an_unread_body_still_arriving_closes_the_connection() -> None:
    with serving() as (port, _), connect(port) as client:
        # The health route reads no body: the answer comes, then the connection goes,
        # instead of waiting for 10 MB at the sender's pace.
        client.sendall(b"GET /v1/health HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\nab")
        assert read_answer(client)[0] == 200
        assert closed(client)


def test_one_client_holds_its_share_of_connections_only() -> None:
    with serving() as (port, service), ExitStack() as stack:
        held = [stack.enter_context(connect(port)) for _ in range(8)]
        extra = stack.enter_context(connect(port))
        status, headers, body = read_answer(extra)
        assert (status, headers["retry-after"]) == (503, "1")
        assert "client_connections" in json.loads(body)["error"]["message"]
        assert closed(extra)
        assert health(port, "127.0.0.2") < 1.0  # another address is not held back
        held.pop().close()
        for _ in range(100):  # the server sees the close soon after
            if service.limits.client_connections > 0 and _admitted(port):
                break
            time.sleep(0.02)
        else:
            pytest.fail("a closed connection was not given back to its client's share")


def _admitted(port: int) -> bool:
    with connect(port) as client:
        client.sendall(get("/v1/health", close=True))
        return read_answer(client)[0] == 200


def test_a_hostile_client_does_not_stop_another() -> None:
    # The attack scaled down: idle connections, a huge head and a burst
    # of game creations from one address; the other address is answered at once.
    limits = ServerLimits(header_timeout=2.0, keep_alive=2.0, client_connections=32, max_games=50)
    with serving(limits) as (port, _), ExitStack() as stack:
        player = stack.enter_context(connect(port, "127.0.0.2"))
        player.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b'Content-Length: 14\r\n\r\n{"players": 3}'
        )
        status, _, body = read_answer(player)
        assert status == 201
        created = json.loads(body)
        for _ in range(100):
            try:
                stack.enter_context(connect(port, timeout=1.0))
            except OSError:
                break
        with connect(port) as huge:
            huge.sendall(b"GET / HTTP/1.1\r\n")
            assert flood(huge, b"X-a: " + b"a" * 60_000 + b"\r\n", 1_100) < 8 * 2**20
        statuses = []
        for _ in range(30):
            with connect(port, "127.0.0.3") as stranger:
                stranger.sendall(
                    b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n"
                    b"Connection: close\r\n\r\n{}"
                )
                statuses.append(read_answer(stranger)[0])
        assert set(statuses) == {201, 429}
        assert health(port) < 1.0
        started = time.monotonic()
        player.sendall(
            f"GET /v1/games/{created['game']} HTTP/1.1\r\nHost: t\r\n"
            f"Authorization: Bearer {created['tokens']['0']}\r\n\r\n".encode()
        )
        assert read_answer(player)[0] == 200
        assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("trusted", [False, True])
def test_x_forwarded_for_names_the_client_only_from_a_trusted_proxy(trusted: bool) -> None:
    extra: dict[str, Any] = (
        {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"} if trusted else {}
    )
    with serving(FAST, **extra) as (port, service), connect(port) as client:
        client.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 10.9.9.9\r\n"
            b"Content-Length: 2\r\nConnection: close\r\n\r\n{}"
        )
        assert read_answer(client)[0] == 201
        counted = "10.9.9.9" if trusted else "127.0.0.1"
        assert service.store.live_games(counted) == 1


def test_an_upgrade_request_stays_in_its_clients_share() -> None:
    limits = ServerLimits(header_timeout=0.5, keep_alive=0.5, client_connections=2)
    with serving(limits) as (port, _):
        for _ in range(4):  # more than the share, one after another
            with connect(port) as client:
                client.sendall(get("/v1/health", "Connection: Upgrade\r\nUpgrade: websocket\r\n"))
                assert read_answer(client)[0] == 200
        assert health(port, "127.0.0.1") < 1.0


def test_serve_options_default_to_the_limits() -> None:
    from pastiche_core.cli import build_parser

    args = build_parser().parse_args(["serve"])
    defaults = ServerLimits()
    assert (
        args.client_games,
        args.client_creations,
        args.client_connections,
        args.header_timeout,
        args.keep_alive,
        args.body_timeout,
        args.trust_proxy,
    ) == (
        defaults.client_games,
        defaults.client_creations,
        defaults.client_connections,
        defaults.header_timeout,
        defaults.keep_alive,
        defaults.body_time_limit,
        None,
    )
    args = build_parser().parse_args(
        ["serve", "--keep-alive", "2.5", "--client-connections", "512", "--trust-proxy", "10.0.0.2"]
    )
    assert (args.keep_alive, args.client_connections, args.trust_proxy) == (2.5, 512, "10.0.0.2")


def test_a_client_that_leaves_mid_body_leaves_no_error_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with serving() as (port, _), caplog.at_level(logging.INFO, logger="pastiche_core.server"):
        with connect(port) as client:
            client.sendall(
                b"POST /v1/publishes HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"player": 0'
            )
            time.sleep(0.1)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and "client left" not in caplog.text:
            time.sleep(0.05)
        assert health(port) < 1.0  # the server goes on
    assert "internal error" not in caplog.text
    assert "Traceback" not in caplog.text
