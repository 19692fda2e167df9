"""The deployment page's nginx configuration, run for real in front of two instances.

``docs/deploy/nginx.conf`` is rendered with this test's ports (nothing else
changes) and included in a minimal main configuration in a temporary folder
(``-p``, ``-c``, its pid and logs there, ``daemon off``), as the page tells an
operator to include it. Two ``pastiche serve --trust-proxy 127.0.0.1`` instances
share one store behind it; the test's clients connect from 127.0.0.2 and
127.0.0.3, so the forwarded address can be told from the proxy's. Skipped when
nginx is not installed, except in CI.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from instances import Instance, UnansweredError, call, full_history, seat_state
from postgres_support import postgres_cluster, postgres_url  # noqa: F401

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow  # two servers and nginx start

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "docs" / "deploy" / "nginx.conf"
SEATS = ["human", "human", "human"]
MAIN = """\
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
daemon off;
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/pastiche.conf;
}}
"""
"""What a distribution's nginx.conf gives around the included file, in a temporary folder."""


def _nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed (CI installs it: see .ci/run)", pytrace=False)
        pytest.skip("nginx is not installed (Debian's nginx package)")
    return found


def render(text: str, listen: int, upstreams: list[int]) -> str:
    """The shipped configuration with this test's ports: the same file otherwise."""
    replacements = {"listen 80;": f"listen 127.0.0.1:{listen};"}
    for index, port in enumerate(upstreams):
        replacements[f"server 127.0.0.1:{8001 + index} "] = f"server 127.0.0.1:{port} "
    for old, new in replacements.items():
        assert text.count(old) == 1, f"{CONFIG.name} no longer has {old!r} once"
        text = text.replace(old, new)
    return text


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def proxy_folder() -> Iterator[Path]:
    """A folder nginx's workers (``nobody`` when started as root) can reach."""
    folder = Path(tempfile.mkdtemp(prefix="pastiche-nginx-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class Nginx:
    """nginx in the foreground, in ``folder``, with the rendered configuration."""

    def __init__(self, binary: str, folder: Path, site: str, port: int) -> None:
        self.folder = folder
        self.port = port
        (folder / "pastiche.conf").write_text(site)
        (folder / "nginx.conf").write_text(MAIN.format(folder=folder))
        self.log = folder / "nginx.out"
        with self.log.open("wb") as sink:
            self.process = subprocess.Popen(
                [
                    binary,
                    "-p",
                    str(folder),
                    "-c",
                    str(folder / "nginx.conf"),
                    "-e",
                    str(folder / "error.log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=sink,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if call(port, "GET", "/v1/health")[0] == 200:
                    return
            except UnansweredError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"nginx did not start: {self.errors()}")

    def errors(self) -> str:
        """nginx's own output and error log."""
        texts = []
        for name in ("nginx.out", "error.log"):
            path = self.folder / name
            if path.exists():
                texts.append(path.read_text(errors="replace")[-2000:])
        return "\n".join(texts)

    def stop(self) -> None:
        """Fast shutdown (SIGTERM), then SIGKILL past 10 seconds."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The instances' one store: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return str(request.getfixturevalue("postgres_url"))


def _moves_served(instance: Instance, game: str) -> int:
    return len(
        re.findall(rf"^POST /v1/games/{re.escape(game)}/moves 200 ", instance.log_text(), re.M)
    )


def test_nginx_in_front_of_two_instances(tmp_path: Path, proxy_folder: Path, store: str) -> None:
    binary = _nginx()
    started = time.monotonic()
    with ExitStack() as stack:
        instances = []
        for name in ("a", "b"):
            instance = Instance(
                tmp_path / f"{name}.log",
                "--store",
                store,
                "--workers",
                "0",
                "--trust-proxy",
                "127.0.0.1",
                "--client-games",
                "1",
            )
            stack.callback(instance.stop)
            instances.append(instance)
        port = _free_port()
        site = render(CONFIG.read_text(), port, [instance.port for instance in instances])
        proxy = Nginx(binary, proxy_folder, site, port)
        stack.callback(proxy.stop)

        # The client's own address reaches the instances: one unfinished game per address.
        status, created, _ = call(
            port, "POST", "/v1/games", {"seats": SEATS, "seed": 8}, source="127.0.0.2"
        )
        assert status == 201, (status, created, proxy.errors())
        status, refused, _ = call(port, "POST", "/v1/games", {"seats": SEATS}, source="127.0.0.2")
        assert status == 429, (status, refused)
        status, other, _ = call(port, "POST", "/v1/games", {"seats": SEATS}, source="127.0.0.3")
        assert status == 201, (status, other)

        # Played through the proxy, its requests spread over both instances.
        game, tokens = created["game"], created["tokens"]
        played: list[str] = []
        for _ in range(20):
            state = seat_state(port, game, tokens)
            assert state["legal"], "the instances disagree on whose turn it is"
            move = state["legal"][len(played) % len(state["legal"])]
            status, answer, _ = call(
                port,
                "POST",
                f"/v1/games/{game}/moves",
                {"move": move},
                tokens[str(state["seat"])],
                source="127.0.0.2",
            )
            assert status == 200, (status, answer)
            played.append(move)
        assert full_history(port, game, tokens)[-20:] == played
        served = [_moves_served(instance, game) for instance in instances]
        assert sum(served) == 20, served
        assert min(served) > 0, served  # both instances answered moves

        # A conflict through the proxy: one move wins, the other is refused.
        conflicts = 0
        for _ in range(40):
            if conflicts == 5:
                break
            state = seat_state(port, game, tokens)
            pair = [
                move for move in state["legal"] if move.split()[0] in ("draw", "take", "choose")
            ]
            token = tokens[str(state["seat"])]
            if len(pair) < 2:
                assert (
                    call(
                        port, "POST", f"/v1/games/{game}/moves", {"move": state["legal"][0]}, token
                    )[0]
                    == 200
                )
                played.append(state["legal"][0])
                continue
            statuses = _together(port, game, token, pair[:2])
            assert sorted(statuses) == [200, 409], statuses
            played.append(pair[statuses.index(200)])
            conflicts += 1
        assert conflicts == 5
        assert full_history(port, game, tokens)[-len(played) :] == played
    print(
        f"nginx, two instances: {len(played)} moves, {conflicts} conflicts, "
        f"{time.monotonic() - started:.1f} s"
    )


def _together(port: int, game: str, token: str, moves: list[str]) -> list[int]:
    barrier = threading.Barrier(2, timeout=30)
    statuses = [0, 0]

    def send(index: int) -> None:
        barrier.wait()
        statuses[index] = call(
            port, "POST", f"/v1/games/{game}/moves", {"move": moves[index]}, token
        )[0]

    threads = [threading.Thread(target=send, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a move got no answer in 60 seconds"
    return statuses
