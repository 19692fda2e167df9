"""Where games are kept: the memory and SQLite stores, and a real server killed mid-game."""

from __future__ import annotations

import json
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from service_support import bearer, make_client, new_game

from pastiche_core.cli import main
from pastiche_core.server import GameSession, MemoryStore, Service, SqliteStore
from pastiche_core.server.store import StoreError, StoreFullError

ROOT = Path(__file__).resolve().parents[2]


def _session(name: str, seed: int = 1) -> GameSession:
    session = GameSession.start(name, players=3, seed=seed, seats=("human", "random", "random"))
    session.issue_tokens()
    return session


# ----------------------------------------------------------------------
# Memory
# ----------------------------------------------------------------------
def test_memory_store_cap_and_ttl() -> None:
    now = [100.0]
    store = MemoryStore(max_games=2, ttl=10.0, clock=lambda: now[0])
    store.add(_session("a"))
    now[0] += 2.0
    store.add(_session("b"))
    with pytest.raises(StoreFullError) as refused:
        store.add(_session("c"))  # both games are in play: neither is dropped for c
    assert refused.value.retry_after == 8  # a expires at 110
    assert len(store) == 2
    now[0] += 8.0
    assert store.get("a") is not None  # exactly ttl idle: still kept, and touched
    now[0] += 5.5
    assert store.get("b") is None  # idle for 13.5 s
    assert store.get("a") is not None  # idle for 5.5 s
    store.add(_session("c"))  # b's room
    store.close()
    assert len(store) == 0


# ----------------------------------------------------------------------
# SQLite
# ----------------------------------------------------------------------
def test_sqlite_store_replays_games(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = SqliteStore(path)
    session = _session("g", seed=7)
    token_hashes = session.tokens
    store.add(session)
    for move in ("keep MYT1 HOR7 HOR8", "draw"):
        session.game.apply(move)
    store.save(session, 0)
    assert store.get("g") is session  # the same object while it is cached
    store.close()
    again = SqliteStore(path)
    restored = again.get("g")
    assert restored is not None
    assert restored.game == session.game
    assert restored.game.history == session.game.history
    assert (restored.seats, restored.tokens) == (session.seats, token_hashes)
    assert again.get("unknown") is None
    assert len(again) == 1
    again.close()


def test_sqlite_store_keeps_hashes_not_tokens(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    service = Service(store=SqliteStore(path))
    created = service.create_game({"players": 3, "seed": 2, "seats": ["human", "human", "random"]})
    service.close()
    raw = path.read_bytes() + b"".join(
        extra.read_bytes() for extra in tmp_path.iterdir() if extra != path
    )
    for token in created["tokens"].values():
        assert token.encode() not in raw
    with sqlite3.connect(path) as db:
        (tokens,) = db.execute("SELECT tokens FROM games").fetchone()
    assert len(json.loads(tokens)) == 3
    assert json.loads(tokens)[2] is None


def test_sqlite_store_caps_and_expiry(tmp_path: Path) -> None:
    now = [1000.0]
    store = SqliteStore(
        tmp_path / "g.sqlite", max_games=2, ttl=100.0, cached=1, clock=lambda: now[0]
    )
    for index, name in enumerate(("a", "b")):
        now[0] += 1
        store.add(_session(name, seed=index))
    now[0] += 1
    with pytest.raises(StoreFullError) as refused:
        store.add(_session("c"))  # both games are in play: neither is dropped for c
    assert refused.value.retry_after == 98  # a, idle 2 s, expires in 98 s
    assert len(store) == 2
    b = store.get("b")
    assert b is not None
    assert b.game.seed == 1
    now[0] += 150
    assert store.get("b") is None
    now[0] += 1
    store.add(_session("d"))  # a and b expired: room again
    assert len(store) == 1
    store.close()


def test_one_copy_of_a_game_in_use(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.sqlite", cached=1)
    store.add(_session("a"))
    held = store.get("a")
    store.add(_session("b"))  # pushes a out of the cache...
    assert store.get("a") is held  # ...but a request still holds it: the same object
    store.close()


def test_a_bad_store_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "not-a-database.sqlite"
    path.write_text("hello, this is text\n" * 100)
    with pytest.raises(StoreError, match="not-a-database"):
        SqliteStore(path)
    assert main(["serve", "--stdio", "--store", str(path)]) == 2
    assert "pastiche: error: store file" in capsys.readouterr().err


def test_the_service_writes_before_answering(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    client, service = make_client(store=SqliteStore(path))
    game, tokens = new_game(client, players=3, seed=12)
    state = client.post(
        f"/v1/games/{game}/moves", json={"move": "draw"}, headers=bearer(tokens["0"])
    )
    assert state.status_code == 200
    with sqlite3.connect(path) as db:
        (moves,) = db.execute("SELECT moves FROM games WHERE id = ?", (game,)).fetchone()
    session = service.store.get(game)
    assert session is not None
    assert json.loads(moves) == [str(move) for move in session.game.history]
    assert "draw" in json.loads(moves)
    service.close()


# ----------------------------------------------------------------------
# A real server, killed and restarted
# ----------------------------------------------------------------------
class Server:
    """``python -m pastiche_core serve --port 0`` as a child process, on 127.0.0.1."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pastiche_core", "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.url = self._address(timeout=60.0)

    def _address(self, timeout: float) -> str:
        assert self.process.stderr is not None
        selector = selectors.DefaultSelector()
        selector.register(self.process.stderr, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        seen = b""
        while time.monotonic() < deadline:
            if selector.select(timeout=0.5):
                line = self.process.stderr.readline()
                seen += line
                if line.startswith(b"pastiche: serving on "):
                    selector.close()
                    return line.decode().split("serving on ", 1)[1].strip().rstrip("/")
                if not line and self.process.poll() is not None:
                    break
        selector.close()
        self.stop()
        raise AssertionError(f"the server did not start: {seen.decode(errors='replace')}")

    def call(
        self, method: str, route: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + route, data=data, method=method)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stderr is not None:
            self.process.stderr.close()


def test_a_killed_server_loses_no_game(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite"
    first = Server("--store", str(store))
    try:
        assert first.call("GET", "/v1/health") == (200, {"status": "ok"})
        status, created = first.call(
            "POST",
            "/v1/games",
            {"players": 4, "seed": 31, "seats": ["human", "random", "human", "random"]},
        )
        assert status == 201
        game, tokens = created["game"], created["tokens"]
        moves_played = 0
        state: dict[str, Any] = {}
        for _ in range(12):
            _, state = first.call("GET", f"/v1/games/{game}", token=tokens["0"])
            seat = str(state["to_move"])
            _, state = first.call("GET", f"/v1/games/{game}", token=tokens[seat])
            status, state = first.call(
                "POST", f"/v1/games/{game}/moves", {"move": state["legal"][0]}, tokens[seat]
            )
            assert status == 200
            moves_played += 1
        before = {
            seat: first.call("GET", f"/v1/games/{game}", token=tokens[seat])[1] for seat in tokens
        }
    finally:
        first.kill()  # no shutdown, no flush: as a crash
    assert first.process.returncode == -signal.SIGKILL
    second = Server("--store", str(store))
    try:
        after = {
            seat: second.call("GET", f"/v1/games/{game}", token=tokens[seat])[1] for seat in tokens
        }
        assert after == before
        status, _error = second.call("GET", f"/v1/games/{game}", token="wrong")
        assert status == 403
        seat = str(after["0"]["to_move"])
        status, state = second.call(
            "POST", f"/v1/games/{game}/moves", {"move": after[seat]["legal"][0]}, tokens[seat]
        )
        assert status == 200
        assert state["view"]["turn"] >= before["0"]["view"]["turn"]
    finally:
        second.stop()
    # The game goes on exactly as an uninterrupted one: bots are seeded per decision (R14).
    client, _ = make_client()
    twin = client.post(
        "/v1/games",
        json={"players": 4, "seed": 31, "seats": ["human", "random", "human", "random"]},
    ).json()
    for _ in range(moves_played):
        twin_state = client.get(
            f"/v1/games/{twin['game']}", headers=bearer(twin["tokens"]["0"])
        ).json()
        seat = str(twin_state["to_move"])
        twin_state = client.get(
            f"/v1/games/{twin['game']}", headers=bearer(twin["tokens"][seat])
        ).json()
        client.post(
            f"/v1/games/{twin['game']}/moves",
            json={"move": twin_state["legal"][0]},
            headers=bearer(twin["tokens"][seat]),
        )
    twin_view = client.get(f"/v1/games/{twin['game']}", headers=bearer(twin["tokens"]["0"])).json()
    assert twin_view["view"] == before["0"]["view"]


def test_serve_refuses_a_busy_port(capsys: pytest.CaptureFixture[str]) -> None:
    server = Server()
    try:
        port = server.url.rsplit(":", 1)[1]
        assert main(["serve", "--port", port]) == 2
        assert "cannot listen on 127.0.0.1" in capsys.readouterr().err
    finally:
        server.stop()
