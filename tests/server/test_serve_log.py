"""``pastiche serve`` says where the table and the API docs are, and logs each request in one
line (``--quiet`` stops the log); a child process on 127.0.0.1, every wait bounded."""

from __future__ import annotations

import selectors
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from test_service_store import Server


def _lines_until(served: Server, wanted: bytes, timeout: float = 10.0) -> bytes:
    """What the server wrote on standard error until a line holding ``wanted`` (or the time)."""
    stream = served.process.stderr
    assert stream is not None
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and wanted not in seen:
            if selector.select(timeout=0.2):
                line = stream.readline()
                if not line:
                    break
                seen += line
    finally:
        selector.close()
    return seen


@pytest.mark.parametrize("quiet", [False, True])
def test_serve_names_its_pages_and_logs_each_request_unless_quiet(quiet: bool) -> None:
    served = Server(*(["--quiet"] if quiet else []), "--workers", "0")
    try:
        head = _lines_until(served, b"the API docs:")
        assert f"the web table: {served.url}/".encode() in head
        assert f"the API docs: {served.url}/docs".encode() in head
        with urllib.request.urlopen(served.url + "/v1/health", timeout=10) as answer:
            assert answer.status == 200
        log = _lines_until(served, b"GET /v1/health 200", timeout=2.0 if quiet else 10.0)
        assert (b"GET /v1/health 200" in log) is not quiet
    finally:
        served.stop()
