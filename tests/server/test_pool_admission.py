"""The pool's place taken before a heavy body is read, bots in the workers, token guesses.

One pool and one real server on 127.0.0.1 for the module; clients bind other
loopback addresses (127.0.0.2, ...) so that each has its own share. The pool
runs :func:`pool_run`: a hint whose seed is :data:`SLOW_SEED` holds its worker
for a while, and the bots of a game whose seed is :data:`STUCK_SEED` never
answer (their worker is stopped at its deadline); the rest is the real work.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import pooled_server, workers_ready

from pastiche_core import Catalogue, Game
from pastiche_core.ai.greedy import GreedyBot
from pastiche_core.bots.play import RandomBot, derive_seed
from pastiche_core.io.record import GameRecord
from pastiche_core.server import PoolSettings, ServerLimits, Service
from pastiche_core.server.bot_turns import play_bots
from pastiche_core.server.games import GameSession
from pastiche_core.server.stdio import handle_line
from pastiche_core.server.workers import run_request

SLOW_SEED = 104
"""A hint that holds its worker for three seconds."""
STUCK_SEED = 9_999
"""A game whose bots' worker never answers."""

SETTINGS = PoolSettings(workers=2, queue=2, memory_mb=512, client_share=1, grace=0.5)
LIMITS = ServerLimits(bot_time_limit=1.0, legal_time_limit=0.2, token_guesses=3)
MIB = 2**20


def pool_run(service: Service, method: str, body: Any, options: dict[str, Any]) -> Any:
    """The tests' work: a slow hint, stuck bots, else the real work."""
    if method == "hint" and body.get("seed") == SLOW_SEED:
        time.sleep(3.0)
    if method == "bots" and body["record"]["seed"] == STUCK_SEED:
        time.sleep(60)
    return run_request(Service(analyse=fake_analyse, limits=service.limits), method, body, options)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, Service]]:
    with pooled_server(SETTINGS, pool_run, LIMITS) as served:
        yield served


@pytest.fixture
def server(served: tuple[int, Service]) -> tuple[int, Service]:
    """The module's server with every worker ready (a test may have replaced one)."""
    workers_ready(served[1], SETTINGS.workers, 30)
    return served


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    source: str = "127.0.0.1",
    token: str | None = None,
) -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, data, headers)
        answer = conn.getresponse()
        return (
            answer.status,
            {k.lower(): v for k, v in answer.getheaders()},
            json.loads(answer.read()),
        )
    finally:
        conn.close()


def half_sent(port: int, path: str, source: str) -> tuple[float, bytes]:
    """POST a head declaring a 1 MiB body, send 1 KiB of it, read the answer: seconds, bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        started = time.monotonic()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {MIB - 1}\r\n\r\n"
        )
        s.sendall(head.encode() + b"[" + b"0," * 512)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        return time.monotonic() - started, answer


def test_a_refused_heavy_request_is_answered_before_its_body_is_read(
    server: tuple[int, Service], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, service = server
    decoded: list[int] = []
    real = service.decode

    def counting(body: bytes | str, **options: Any) -> Any:
        decoded.append(len(body))
        return real(body, **options)

    monkeypatch.setattr(service, "decode", counting)
    created = service.create_game({"players": 3, "seed": 5}, client="maker")
    view = service.game_state(created["game"], created["tokens"]["0"])["view"]
    assert service.pool is not None
    hold = service.pool.admit("127.0.0.2")  # the client's share, as a running request holds it
    try:
        for index, path in enumerate(("/v1/publishes", "/v1/hint", "/v1/outs", "/v1/review")):
            seconds, answer = half_sent(port, path, "127.0.0.2")
            assert answer.startswith(b"HTTP/1.1 429"), answer[:200]
            assert b"retry-after: 1" in answer.lower()
            # The first is past the share; the others come back within its Retry-After.
            assert (b"client_share" if index == 0 else b"came back sooner") in answer
            assert seconds < 1.0  # the 1 MiB never came, and was never waited for
        assert decoded == []
        assert service.pool.refused["early"] == 3
        status, _, _ = request(port, "POST", "/v1/hint", {"view": view}, "127.0.0.3")
        assert status == 200  # another client is served meanwhile
        assert decoded  # its body was read and decoded
    finally:
        hold.release()
    time.sleep(1.05)  # the Retry-After it was given
    status, _, _ = request(port, "POST", "/v1/hint", {"view": view}, "127.0.0.2")
    assert status == 200


def test_a_client_back_before_its_retry_after_is_refused_on_heavy_routes_alone(
    server: tuple[int, Service],
) -> None:
    port, service = server
    assert service.pool is not None
    created = service.create_game({"players": 3, "seed": 6}, client="127.0.0.4")
    hold = service.pool.admit("127.0.0.4")
    try:
        status, headers, answer = request(port, "POST", "/v1/outs", {"view": 7}, "127.0.0.4")
        assert status == 429
        assert "client_share" in answer["error"]["message"]
        early = service.pool.refused.get("early", 0)
        status, headers, answer = request(port, "POST", "/v1/outs", {"view": 7}, "127.0.0.4")
        assert status == 429
        assert headers["retry-after"] == "1"
        assert answer["error"]["message"].endswith("came back sooner")
        assert service.pool.refused["early"] == early + 1
        # Its other routes are served meanwhile, and other clients' heavy ones.
        assert request(port, "GET", "/v1/health", None, "127.0.0.4")[0] == 200
        token = created["tokens"]["0"]
        path = f"/v1/games/{created['game']}"
        assert request(port, "GET", path, None, "127.0.0.4", token)[0] == 200
        assert request(port, "POST", "/v1/outs", {"view": 7}, "127.0.0.5")[0] == 400
    finally:
        hold.release()
    time.sleep(1.05)
    assert request(port, "POST", "/v1/outs", {"view": 7}, "127.0.0.4")[0] == 400  # served again


def test_stdio_takes_the_place_before_the_params_are_checked(server: tuple[int, Service]) -> None:
    _, service = server
    assert service.pool is not None
    hold = service.pool.admit("stdio")
    try:
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "hint", "params": {"view": 7}})
        answer = json.loads(handle_line(service, line))
        assert answer["error"]["data"]["status"] == 429  # not the 400 of a bad view
    finally:
        hold.release()


# ----------------------------------------------------------------------
# Token guesses
# ----------------------------------------------------------------------
def test_wrong_tokens_from_one_address_get_429_and_others_are_served(
    server: tuple[int, Service],
) -> None:
    port, service = server
    created = service.create_game({"players": 3, "seed": 6}, client="owner")
    game, token = created["game"], created["tokens"]["0"]
    statuses = [
        request(port, "GET", f"/v1/games/{game}", source="127.0.0.7", token=f"guess{n}")[0]
        for n in range(3)
    ]
    assert statuses == [403, 403, 403]
    status, headers, data = request(
        port, "GET", f"/v1/games/{game}", source="127.0.0.7", token=token
    )
    assert status == 429  # refused before the token is checked, right or not
    assert int(headers["retry-after"]) > 0
    assert "token_guesses" in data["error"]["message"]
    status, _, _ = request(
        port, "POST", f"/v1/games/{game}/moves", {"move": "draw"}, "127.0.0.7", token
    )
    assert status == 429
    status, _, data = request(port, "GET", f"/v1/games/{game}", source="127.0.0.8", token=token)
    assert status == 200
    assert data["seat"] == 0


def test_wrong_tokens_on_stdio_get_429() -> None:
    service = Service(limits=ServerLimits(token_guesses=2))
    created = service.create_game({"players": 3, "seed": 6})
    params = {"game": created["game"], "token": "guess"}
    codes = []
    for ident in range(3):
        line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": "games.view", "params": params})
        codes.append(json.loads(handle_line(service, line))["error"]["data"]["status"])
    assert codes == [403, 403, 429]


def test_token_guesses_is_checked() -> None:
    with pytest.raises(ValueError, match="token_guesses must be at least 1, got 0"):
        ServerLimits(token_guesses=0)


# ----------------------------------------------------------------------
# Bots in the pool
# ----------------------------------------------------------------------
def heavy_catalogue() -> Catalogue:
    """Two cheap Novels that fill the table with Masterpieces, and 61 Total-13 Novels
    (thirteen cards for 87 to 95): with a crowded table a greedy bot's publishes, citations
    included, take it seconds to weigh (6.5 s measured, with the C kernels)."""
    novels: list[dict[str, Any]] = [
        {"id": "kind-3", "name": "K3", "kind": "kind", "count": 3, "points": 1, "copies": 20},
        {"id": "straight-3", "name": "S3", "kind": "straight", "length": 3, "points": 1,
         "copies": 20},
    ]  # fmt: skip
    novels += [
        {"id": f"total-{i}", "name": f"T{i}", "kind": "total", "count": 13,
         "target": 87 + i % 9, "points": 1, "copies": 2}
        for i in range(61)
    ]  # fmt: skip
    novels.append({"id": "end-flag", "name": "End Flag", "kind": "end-flag", "points": 1,
                   "copies": 1})  # fmt: skip
    return Catalogue.from_dict({"name": "heavy", "novels": novels, "rules": {"end_threshold": 200}})


def crowded_record(seed: int = 1, moves: int = 175) -> GameRecord:
    """A 3-player game of :func:`heavy_catalogue` after ``moves`` random moves."""
    game = Game(players=3, seed=seed, catalogue=heavy_catalogue())
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(
            RandomBot(rng.randrange(2**32)).choose(game.view(game.to_move), game.legal_moves)
        )
    return GameRecord.of(game)


def stored(service: Service, record: GameRecord, game_id: str) -> tuple[GameSession, str]:
    """The record as a stored game whose player to move is a greedy bot, the next a human."""
    game = record.replay()
    seats = ["greedy"] * 3
    human = (game.to_move + 1) % 3
    seats[human] = "human"
    session = GameSession.restore(
        game_id, record, seats, [None] * 3, created=time.time(), touched=time.time()
    )
    token = session.issue_tokens()[human]
    service.store.add(session)
    return session, token


@pytest.mark.slow
def test_a_heavy_greedy_decision_runs_in_a_worker_within_its_deadline(
    server: tuple[int, Service],
) -> None:
    port, service = server
    assert service.pool is not None
    record = crowded_record()
    game = record.replay()
    # The decision alone, unbounded in time, takes far more than bot_time_limit.
    started = time.monotonic()
    GreedyBot(0, catalogue=game.catalogue, time_limit=2 * LIMITS.bot_time_limit).choose(
        game.view(game.to_move), game.legal_moves
    )
    assert time.monotonic() - started >= 1.9 * LIMITS.bot_time_limit
    session, token = stored(service, record, "heavy-greedy-01")
    before = dict(service.bot_turns)
    started = time.monotonic()
    status, _, data = request(port, "GET", "/v1/games/heavy-greedy-01", token=token)
    took = time.monotonic() - started
    assert status == 200, data
    assert took < LIMITS.bot_time_limit + SETTINGS.grace + 2.0  # and the replay and listing
    assert len(session.game.history) > len(record.moves)  # the bots moved ...
    replayed = GameRecord.of(session.game).replay()  # ... and every move is legal (R14)
    assert [str(m) for m in replayed.history] == [str(m) for m in session.game.history]
    assert service.bot_turns.get("pool", 0) == before.get("pool", 0) + 1
    assert service.bot_turns.get("here", 0) == before.get("here", 0) == 0  # none in the server


def test_a_stopped_bot_worker_leaves_a_cheap_legal_move_and_is_replaced(
    server: tuple[int, Service],
) -> None:
    port, service = server
    assert service.pool is not None
    replaced = service.pool.stats()["replaced"].get("deadline", 0)
    record = GameRecord(3, STUCK_SEED)
    session, token = stored(service, record, "stuck-bots-0001")
    seat = session.game.to_move
    started = time.monotonic()
    status, _, data = request(port, "GET", "/v1/games/stuck-bots-0001", token=token)
    assert status == 200, data
    assert time.monotonic() - started < LIMITS.bot_time_limit + SETTINGS.grace + 2.0
    history = session.game.history
    assert len(history) == 1
    assert str(history[0]) == str(Game(players=3, seed=STUCK_SEED).legal_moves[0])
    assert seat != session.game.to_move  # the game went on past the stuck bot
    assert service.bot_turns["fallback"] >= 1
    assert service.pool.stats()["replaced"]["deadline"] == replaced + 1


def test_a_bot_decision_within_its_time_is_the_unbounded_one() -> None:
    bounded = Game(players=3, seed=11)
    moves, _ = play_bots(bounded, ("greedy",) * 3, seconds=60.0, decisions=6)
    assert len(moves) == 6
    free = Game(players=3, seed=11)
    for _ in moves:
        seat = free.to_move
        seed = derive_seed(free.seed, "bot", seat, len(free.history))
        bot = GreedyBot(seed, catalogue=free.catalogue)
        free.apply(bot.choose(free.view(seat), free.legal_moves))
    assert [str(m) for m in moves] == [str(m) for m in free.history]
