"""One size rule for a request's params on HTTP and stdio, and "too large" errors naming their limit.

Also ``pastiche publishes -``, which reads standard input only up to the
size limit of a position, never all of it.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from fake_analysis import fake_analyse
from starlette.testclient import TestClient

from pastiche_core.cli import main
from pastiche_core.data.limits import MAX_JSON_BYTES
from pastiche_core.server import ServerLimits, Service, create_app
from pastiche_core.server.stdio import handle_line, serve_stdio


def _compact(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _game_body(digits: int) -> dict[str, Any]:
    return {"players": 3, "seed": int("1" * digits), "seats": ["human", "random", "random"]}


def test_stdio_and_http_accept_the_same_params() -> None:
    cap = len(_compact(_game_body(10)))
    limits = ServerLimits(max_body_bytes=cap, max_line_bytes=cap + 200)
    service = Service(analyse=fake_analyse, limits=limits)
    client = TestClient(create_app(service=service), raise_server_exceptions=False)
    for digits, fits in ((9, True), (10, True), (11, False)):
        body = _game_body(digits)
        answer = client.post("/v1/games", content=_compact(body))
        request = {"jsonrpc": "2.0", "id": digits, "method": "games.create", "params": body}
        line = json.loads(handle_line(service, json.dumps(request)))
        if fits:
            assert answer.status_code == 201, answer.text
            assert "result" in line, line
            continue
        assert answer.status_code == 413
        assert answer.headers["connection"] == "close"
        assert answer.json()["error"]["message"] == (
            f"the request body has {cap + 1} bytes, more than max_body_bytes ({cap})"
        )
        assert line["error"]["data"] == {"path": "$", "status": 413}
        assert line["error"]["message"] == (
            f"the params have {cap + 1} bytes, more than max_body_bytes ({cap})"
        )


def test_too_large_errors_name_their_limit() -> None:
    service = Service(analyse=fake_analyse, limits=ServerLimits(max_body_bytes=50))
    client = TestClient(create_app(service=service), raise_server_exceptions=False)

    def chunks() -> Any:  # no Content-Length: counted while reading
        for _ in range(10):
            yield b" " * 20

    answer = client.post("/v1/publishes", content=chunks())
    assert answer.json()["error"]["message"] == (
        "the request body has more than max_body_bytes (50) bytes"
    )
    short = Service(limits=ServerLimits(max_line_bytes=100))
    out = io.StringIO()
    serve_stdio(short, io.BytesIO(b"y" * 300 + b"\n"), out)
    assert "max_line_bytes (100 bytes)" in json.loads(out.getvalue())["error"]["message"]


class _Endless(io.RawIOBase):
    """Standard input of 8 MiB (as good as endless here), counting what is read of it."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), 8 * 2**20 - self.taken)
        start = self.prefix[self.taken : self.taken + size]
        chunk = start + b" " * (size - len(start))
        buffer[:size] = chunk
        self.taken += size
        return size


class _Stdin:
    def __init__(self, raw: io.RawIOBase) -> None:
        self.buffer = io.BufferedReader(raw)


def test_publishes_stops_reading_standard_input_at_its_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    endless = _Endless(b'{"player": 0, "hand": ["SCI7"], "masterpieces": []}')
    monkeypatch.setattr("sys.stdin", _Stdin(endless))
    assert main(["publishes", "-"]) == 2
    error = capsys.readouterr().err
    assert f"more than {MAX_JSON_BYTES:,} bytes" in error
    assert "MAX_JSON_BYTES" in error
    assert "Traceback" not in error
    assert endless.taken <= MAX_JSON_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


def test_publishes_reads_a_position_of_exactly_the_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = b'{"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}'
    padded = text + b" " * (MAX_JSON_BYTES - len(text))
    monkeypatch.setattr("sys.stdin", _Stdin(io.BytesIO(padded)))  # type: ignore[arg-type]
    assert main(["publishes", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"][0]["novel"] == "kind-3"
    monkeypatch.setattr("sys.stdin", _Stdin(io.BytesIO(padded + b" ")))  # type: ignore[arg-type]
    assert main(["publishes", "-"]) == 2
    assert "MAX_JSON_BYTES" in capsys.readouterr().err
