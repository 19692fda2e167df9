"""``pastiche serve`` instances as child processes, and a small client, for the multi-server tests.

Each instance listens on 127.0.0.1 on a port it picks (``--port 0``) and logs
to a file of its own (never a pipe that nobody reads, which would block it once
full). Every request has a timeout and every wait a bound.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60.0
"""How long an instance may take to start on a busy machine."""
REQUEST_SECONDS = 30.0
"""How long one request may take."""


class UnansweredError(Exception):
    """The connection failed or closed before an answer came: the request's fate is unknown."""


class Instance:
    """``python -m pastiche_core serve --port 0 ARGS`` on 127.0.0.1, logging to ``log``."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log = log
        self.args = args
        with log.open("wb") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pastiche_core", "serve", "--port", "0", *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=sink,
                cwd=ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.port = self._port()
        self.url = f"http://127.0.0.1:{self.port}"

    def _port(self) -> int:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            for line in self.log.read_text(errors="replace").splitlines():
                if line.startswith("pastiche: serving on "):
                    return int(line.rsplit(":", 1)[1].strip("/ "))
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not start: {self.log_text()[-2000:]}")

    def log_text(self) -> str:
        """What the instance wrote on standard error so far."""
        return self.log.read_text(errors="replace")

    def call(
        self,
        method: str,
        route: str,
        body: Any = None,
        token: str | None = None,
        *,
        source: str | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        """One request on a connection of its own: status, JSON body (or text) and headers.

        ``source`` is the loopback address the client connects from (127.0.0.2 …).
        Raises :class:`UnansweredError` when no answer came.
        """
        return call(self.port, method, route, body, token, source=source)

    def pid(self) -> int:
        """The instance's process id."""
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, as a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it is not gone within 30 seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def call(
    port: int,
    method: str,
    route: str,
    body: Any = None,
    token: str | None = None,
    *,
    source: str | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request to 127.0.0.1:``port``: status, JSON body (or text) and headers."""
    headers = {"Connection": "close"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection(
        "127.0.0.1",
        port,
        timeout=REQUEST_SECONDS,
        source_address=None if source is None else (source, 0),
    )
    try:
        connection.request(method, route, body=data, headers=headers)
        answer = connection.getresponse()
        raw = answer.read()
        status = answer.status
        answer_headers = {name.lower(): value for name, value in answer.getheaders()}
    except (OSError, http.client.HTTPException) as error:
        raise UnansweredError(f"{method} {route}: {error!r}") from None
    finally:
        connection.close()
    try:
        parsed: Any = json.loads(raw)
    except ValueError:
        parsed = raw.decode(errors="replace")
    return status, parsed, answer_headers


def seat_state(port: int, game: str, tokens: dict[str, str]) -> dict[str, Any]:
    """The state shown to the seat whose turn it is (read through seat 0's token first)."""
    status, state, _ = call(port, "GET", f"/v1/games/{game}", token=tokens["0"])
    assert status == 200, (status, state)
    seat = str(state["to_move"])
    if seat != "0" and not state["over"]:
        status, state, _ = call(port, "GET", f"/v1/games/{game}", token=tokens[seat])
        assert status == 200, (status, state)
    return dict(state)


def full_history(port: int, game: str, tokens: dict[str, str]) -> list[str]:
    """Every move of a game of human seats, in order, in full.

    A view shows the other seats' hidden cards as ``?``; each seat's own view
    shows its own moves whole, so the history is read from the view of the
    seat that made each move.
    """
    views = {}
    for seat, token in tokens.items():
        status, state, _ = call(port, "GET", f"/v1/games/{game}", token=token)
        assert status == 200, (status, state)
        views[int(seat)] = state["view"]["history"]
    lengths = {len(history) for history in views.values()}
    assert len(lengths) == 1, f"the seats' views disagree on the history's length: {lengths}"
    moves = []
    for index, entry in enumerate(views[0]):
        own = views[entry["player"]][index]
        assert own["player"] == entry["player"]
        moves.append(str(own["move"]))
    return moves
