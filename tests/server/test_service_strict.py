"""Strict parsing: the HTTP version of a request line, numbers in a query and a body, and
``--trust-proxy``.

The HTTP cases talk to a real guarded server on 127.0.0.1, with a timeout on every socket.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from fake_analysis import fake_analyse
from service_support import make_client, uvicorn_in_thread

from pastiche_core.cli import main
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.server import ServerLimits, Service, serve
from pastiche_core.server.connections import PARSERS, uvicorn_settings
from pastiche_core.server.strict import plain_number

LIMITS = ServerLimits(header_timeout=2.0, keep_alive=2.0, body_time_limit=2.0)


@pytest.fixture(scope="module", params=PARSERS)
def port(request: pytest.FixtureRequest) -> Iterator[int]:
    service = Service(analyse=fake_analyse, limits=LIMITS)
    with uvicorn_in_thread(service, **uvicorn_settings(LIMITS, request.param)) as bound:
        yield bound
    service.close()


def exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` on a new connection; everything read until the server closes it
    (at most 64 reads, 5 seconds each)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        answer = b""
        for _ in range(64):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize("version", [b"HTTP/2.0", b"HTTP/1.9", b"HTTP/0.9", b"HTTP/3.0"])
def test_a_request_line_of_another_http_version_is_refused(port: int, version: bytes) -> None:
    answer = exchange(port, b"GET /v1/health " + version + b"\r\nHost: x\r\n\r\n")
    assert answer, "the server answered nothing"
    assert status_of(answer) in (400, 505), answer[:200]
    assert b'"status":"ok"' not in answer


@pytest.mark.parametrize("version", [b"HTTP/1.1", b"HTTP/1.0"])
def test_http_1_0_and_1_1_are_served(port: int, version: bytes) -> None:
    answer = exchange(
        port, b"GET /v1/health " + version + b"\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert status_of(answer) == 200
    assert answer.endswith(b'{"status":"ok"}')


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("max_options=%D9%A3", "max_options"),  # an Arabic-Indic three
        ("max_options=1_0", "max_options"),
        ("max_options=%2B3", "max_options"),
        ("max_options=%203", "max_options"),
        ("max_options=3.0", "max_options"),
        ("max_options=%EF%BC%93", "max_options"),  # a full-width three
        ("time_limit=1_0", "time_limit"),
        ("time_limit=%D9%A3", "time_limit"),
        ("time_limit=nan", "time_limit"),
        ("time_limit=infinity", "time_limit"),
        ("time_limit=1e999", "time_limit"),
        ("time_limit=%201", "time_limit"),
        ("time_limit=0x1", "time_limit"),
    ],
)
def test_query_numbers_are_plain_ascii(query: str, field: str) -> None:
    client, service = make_client()
    with client:
        answer = client.post(f"/v1/publishes?{query}", json={"format": "pastiche-position"})
    service.close()
    assert answer.status_code == 400
    assert f"query parameter {field} must be" in answer.json()["error"]["message"]


def test_plain_query_numbers_are_read() -> None:
    assert plain_number("0", int) == 0
    assert plain_number("250", int) == 250
    assert plain_number("1.5", float) == 1.5
    assert plain_number("2e-1", float) == 0.2
    assert plain_number("-0.5", float) == -0.5
    client, service = make_client()
    with client:
        answer = client.post("/v1/publishes?time_limit=1.5&max_options=3", json={})
    service.close()
    # The numbers pass; the empty body is what is refused.
    assert answer.status_code == 400
    assert "query parameter" not in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [
        '{"players": \u0663}',
        '{"players": 1_0}',
        '{"players": "3"}',
        '{"players": 3, "seed": \uff13}',
    ],
)
def test_body_numbers_are_json_numbers(body: str) -> None:
    client, service = make_client()
    with client:
        answer = client.post("/v1/games", content=body.encode())
    service.close()
    assert answer.status_code == 400
    assert answer.json()["error"]["path"] is not None


@pytest.mark.parametrize("addresses", ["*", "10.0.0.2,*", "10.0.0.2, *", "0.0.0.0/0", "::/0"])
def test_serve_refuses_to_trust_every_address(
    addresses: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--trust-proxy", addresses]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "--trust-proxy" in lines[0]
    assert "every address" in lines[0]
    assert captured.out == ""


def test_the_library_refuses_to_trust_every_address() -> None:
    with pytest.raises(InvalidArgumentError, match="trust_proxy"):
        serve(port=0, trust_proxy="10.0.0.2, *")
