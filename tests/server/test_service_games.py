"""Games that one client cannot take from the others: shares per client, a cap that refuses, expiry.

One client (an address) keeps at most ``client_games`` unfinished games and
creates at most ``client_creations`` a minute (429 with ``Retry-After``); a
full service refuses new games (503 with ``Retry-After``) and never drops a
game in play; finished games expire first. Bots play with the game's own
catalogue, and a stored row is checked when it is read back.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import bearer, new_game
from starlette.testclient import TestClient

from pastiche_core.data.catalogue import SHIPPED_CATALOGUES
from pastiche_core.server import (
    GameSession,
    MemoryStore,
    ServerLimits,
    Service,
    SqliteStore,
    create_app,
)
from pastiche_core.server.stdio import handle_line
from pastiche_core.server.store import StoreFullError


def _client(service: Service, address: str) -> TestClient:
    app = create_app(service=service)
    return TestClient(app, raise_server_exceptions=False, client=(address, 50000))


def _error(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    error: dict[str, Any] = answer.json()["error"]
    return error


def _finished(name: str, seed: int, client: str = "") -> GameSession:
    """A game played to its end, each seat taking its first legal move (R12)."""
    session = GameSession.start(name, players=3, seed=seed, seats=("human",) * 3, client=client)
    session.issue_tokens()
    for _ in range(2_000):
        if session.game.is_over:
            break
        session.game.apply(next(iter(session.game.legal_moves)))
    assert session.game.is_over
    return session


def _session(name: str, client: str = "", seed: int = 1) -> GameSession:
    session = GameSession.start(name, players=3, seed=seed, seats=("human",) * 3, client=client)
    session.issue_tokens()
    return session


def test_one_client_cannot_keep_more_than_its_share_of_games() -> None:
    service = Service(analyse=fake_analyse, limits=ServerLimits(client_games=3))
    stranger, player = _client(service, "10.0.0.9"), _client(service, "10.0.0.1")
    game, tokens = new_game(player, players=3, seed=1)
    for seed in range(3):
        new_game(stranger, players=3, seed=seed)
    answer = stranger.post("/v1/games", json={"players": 3})
    error = _error(answer, 429)
    assert "client_games" in error["message"]
    assert error["path"] is None
    assert int(answer.headers["retry-after"]) == 60
    # The other client's game and its creations are untouched.
    assert player.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).status_code == 200
    new_game(player, players=3, seed=2)
    assert service.store.live_games("10.0.0.9") == 3
    assert service.store.live_games("10.0.0.1") == 2


def test_creations_per_minute_are_counted_per_client() -> None:
    now = [1000.0]
    service = Service(
        analyse=fake_analyse, limits=ServerLimits(client_creations=2, client_games=100)
    )
    service.quota.clock = lambda: now[0]
    stranger, player = _client(service, "10.0.0.9"), _client(service, "10.0.0.1")
    new_game(stranger, players=3, seed=1)
    now[0] += 20.0
    new_game(stranger, players=3, seed=2)
    now[0] += 10.5
    answer = stranger.post("/v1/games", json={"players": 3})
    assert "client_creations" in _error(answer, 429)["message"]
    assert answer.headers["retry-after"] == "30"  # the first creation leaves the minute in 29.5 s
    new_game(player, players=3, seed=3)
    now[0] += 29.5  # exactly a minute after the first: it no longer counts
    new_game(stranger, players=3, seed=4)
    _error(stranger.post("/v1/games", json={"players": 3}), 429)


def test_refused_creations_do_not_count_as_live_games() -> None:
    service = Service(analyse=fake_analyse, limits=ServerLimits(client_games=1))
    client = _client(service, "10.0.0.9")
    _error(client.post("/v1/games", json={"players": 3, "seats": ["human", "nobody", "x"]}), 400)
    _error(client.post("/v1/games", json={"players": 3, "seed": -1}), 400)
    new_game(client, players=3, seed=1)  # the refused bodies took no share
    _error(client.post("/v1/games", json={"players": 3}), 429)


def test_a_full_service_refuses_new_games_and_keeps_those_in_play() -> None:
    service = Service(analyse=fake_analyse, limits=ServerLimits(max_games=4))
    players = [_client(service, f"10.0.1.{index}") for index in range(4)]
    games = [new_game(client, players=3, seed=index) for index, client in enumerate(players)]
    stranger = _client(service, "10.0.0.9")
    for _ in range(5):
        answer = stranger.post("/v1/games", json={"players": 3})
        error = _error(answer, 503)
        assert "max_games" in error["message"]
        assert 1 <= int(answer.headers["retry-after"]) <= 3600
    for client, (game, tokens) in zip(players, games, strict=True):
        assert client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).status_code == 200
    assert service.store.live_games("10.0.0.9") == 0


def test_a_stranger_creating_many_games_evicts_nobody() -> None:
    # The issue's attack: one client creates games as fast as it can.
    service = Service(analyse=fake_analyse, limits=ServerLimits(max_games=30))
    player = _client(service, "10.0.0.1")
    game, tokens = new_game(player, players=3, seed=1)
    stranger = _client(service, "10.0.0.9")
    statuses = [stranger.post("/v1/games", json={"players": 3}).status_code for _ in range(40)]
    assert statuses.count(201) == ServerLimits().client_games
    assert set(statuses) == {201, 429}
    assert player.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).status_code == 200


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_finished_games_do_not_count_and_keep_their_records(kind: str, tmp_path: Path) -> None:
    now = [5000.0]
    store: MemoryStore | SqliteStore
    if kind == "memory":
        store = MemoryStore(
            max_games=2, ttl=1000.0, max_records=2, record_ttl=5000.0, clock=lambda: now[0]
        )
    else:
        store = SqliteStore(
            tmp_path / "g.sqlite",
            max_games=2,
            ttl=1000.0,
            max_records=2,
            record_ttl=5000.0,
            cached=1,
            clock=lambda: now[0],
        )
    store.add(_session("playing-old", "a"))
    now[0] += 1
    done = _session("done", "b", seed=5)
    store.add(done)
    for move in _finished("x", seed=5).game.history:
        done.game.apply(move)
    store.save(done, 0)
    assert store.live_games("b") == 0  # the finished game is not live
    now[0] += 1
    store.add(_session("playing", "c"))  # the finished game takes no room
    with pytest.raises(StoreFullError) as refused:
        store.add(_session("more", "d"))  # two games in play: full, and nobody's is dropped
    # The first game to expire was last used 2 s ago (SQLite writes a read's time only once a
    # minute).
    assert 997 <= refused.value.retry_after <= 999
    now[0] += 1500  # past ttl: the games in play expire, the finished one's record stays
    kept = store.get("done")
    assert kept is not None
    assert kept.game.is_over
    assert store.get("playing-old") is None
    for index in range(3):  # past max_records the least recently used finished game goes
        finished = _finished(f"over-{index}", seed=8 + index)
        store.add(finished)
        now[0] += 1
    assert store.get("done") is None
    assert store.get("over-2") is not None
    now[0] += 5001  # past record_ttl
    assert store.get("over-2") is None
    store.close()


def test_greedy_seats_play_with_an_embedded_catalogue() -> None:
    # A catalogue whose Novels the default one does not have: a bot judging
    # them by the default catalogue cannot even read its view.
    data = SHIPPED_CATALOGUES["default"].to_dict()
    data["name"] = "renamed"
    for novel in data["novels"]:
        if novel["id"] != "end-flag":
            novel["id"] = "my-" + novel["id"]
    service = Service(analyse=fake_analyse)
    client = _client(service, "10.0.0.1")
    for seats in (["greedy", "human", "greedy"], ["human", "search", "random"]):
        body = {"players": 3, "seed": 11, "catalogue": data, "seats": seats}
        game, tokens = new_game(client, **body)
        seat = seats.index("human")
        state = client.get(f"/v1/games/{game}", headers=bearer(tokens[str(seat)])).json()
        for _ in range(12):  # the bots answer the human's moves with the game's Novels
            if state["over"] or state["to_move"] != seat:
                break
            answer = client.post(
                f"/v1/games/{game}/moves",
                json={"move": state["legal"][-1]},
                headers=bearer(tokens[str(seat)]),
            )
            assert answer.status_code == 200, answer.text
            state = answer.json()
        assert "my-" in json.dumps(state["view"])
        session = service.store.get(game)
        assert session is not None
        assert len(session.game.history) > 3


def _rows(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return list(db.execute("SELECT id, seats, tokens, client, over FROM games"))


@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("seats", '["human", "grumpy", "random"]', "unknown seat 'grumpy' at seats[1]"),
        ("seats", '["human", "random"]', "seats must be a list of 3"),
        ("tokens", '["nope", null, null]', "tokens[0] must be a SHA-256"),
        ("players", "9", "players must be from 3 to 5 (R10)"),
        ("moves", '["publish nonsense"]', "cannot be replayed"),
        ("catalogue", '{"name": "x"}', "cannot be replayed"),
    ],
)
def test_a_stored_row_is_checked_when_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, column: str, value: str, said: str
) -> None:
    path = tmp_path / "games.sqlite"
    service = Service(analyse=fake_analyse, store=SqliteStore(path))
    created = service.create_game({"players": 3, "seed": 3, "seats": ["human", "random", "random"]})
    service.close()
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = ?", (value,))
    again = Service(analyse=fake_analyse, store=SqliteStore(path))
    client = _client(again, "10.0.0.1")
    with caplog.at_level(logging.WARNING, logger="pastiche_core.server"):
        answer = client.get(f"/v1/games/{created['game']}", headers=bearer(created["tokens"]["0"]))
    _error(answer, 404)
    logged = [record.getMessage() for record in caplog.records]
    assert any(said in line and created["game"] in line for line in logged), logged
    assert client.get("/v1/health").status_code == 200
    again.close()


def test_a_store_file_from_before_the_client_column_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, players INTEGER NOT NULL, seed INTEGER NOT "
            "NULL, catalogue TEXT NOT NULL, seats TEXT NOT NULL, tokens TEXT NOT NULL, moves TEXT "
            "NOT NULL, created REAL NOT NULL, touched REAL NOT NULL)"
        )
        db.execute(
            'INSERT INTO games VALUES (\'old\', 3, 7, \'"default"\', \'["human", "random", '
            "\"random\"]', '[null, null, null]', '[]', 1.0, ?)",
            (time.time(),),  # used just now: a time in the future is a damaged row
        )
    store = SqliteStore(path, ttl=1e12)
    session = store.get("old")
    assert session is not None
    assert session.client == ""
    store.add(_session("new", "10.0.0.1"))
    assert store.live_games("10.0.0.1") == 1
    assert ("new", '["human", "human", "human"]') in [row[:2] for row in _rows(path)]
    store.close()


def test_stdio_games_share_one_client_and_say_when_to_retry() -> None:
    service = Service(analyse=fake_analyse, limits=ServerLimits(client_games=1))
    line = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "games.create", "params": {"players": 3}}
    )
    assert "result" in json.loads(handle_line(service, line))
    error = json.loads(handle_line(service, line))["error"]
    assert error["data"] == {"path": None, "status": 429, "retry_after": 60}
    full = Service(analyse=fake_analyse, limits=ServerLimits(max_games=1))
    assert "result" in json.loads(handle_line(full, line))
    refused = json.loads(handle_line(full, line))["error"]
    assert refused["code"] == -32000
    assert refused["data"]["status"] == 503
    assert 1 <= refused["data"]["retry_after"] <= 3600
