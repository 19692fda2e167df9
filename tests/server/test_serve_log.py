"""``pastiche serve`` says where the table and the API docs are, and logs each request in one
line (``--quiet`` stops the log); a child process on 127.0.0.1, every wait bounded."""

from __future__ import annotations

import contextlib
import threading
import time
import urllib.request
from typing import IO

import pytest

pytest.importorskip("uvicorn")

from test_service_store import Server


class _Lines:
    """Every line the server writes on standard error, read by a thread as it comes (what the
    start-up check read ahead into the stream's buffer included)."""

    def __init__(self, served: Server) -> None:
        self.seen: list[bytes] = []
        stream = served.process.stderr
        assert stream is not None
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(ValueError, OSError):  # the stream closed as the server stopped
            for line in iter(stream.readline, b""):
                self.seen.append(line)

    def until(self, wanted: bytes, timeout: float) -> bytes:
        """What was written until a line holding ``wanted``, or until ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and wanted not in b"".join(self.seen):
            time.sleep(0.02)
        return b"".join(self.seen)


@pytest.mark.parametrize("quiet", [False, True])
def test_serve_names_its_pages_and_logs_each_request_unless_quiet(quiet: bool) -> None:
    served = Server(*(["--quiet"] if quiet else []), "--workers", "0")
    try:
        lines = _Lines(served)
        head = lines.until(b"the API docs:", timeout=10.0)
        assert f"the web table: {served.url}/".encode() in head
        assert f"the API docs: {served.url}/docs".encode() in head
        with urllib.request.urlopen(served.url + "/v1/health", timeout=10) as answer:
            assert answer.status == 200
        log = lines.until(b"GET /v1/health 200", timeout=2.0 if quiet else 10.0)
        assert (b"GET /v1/health 200" in log) is not quiet
    finally:
        served.stop()
