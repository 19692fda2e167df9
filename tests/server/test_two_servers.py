"""Two ``pastiche serve`` processes on one store lose nothing: a shared SQLite file, or PostgreSQL.

Each test starts real servers (``--store X --port 0``) on 127.0.0.1 and plays
games of human seats over HTTP, so that the test sends every move and knows
each one's fate: answered 200 (acknowledged: it must be in the history),
answered 409 or 503 (refused: it must not be), or unanswered (a killed server:
either). The goals of the store: 0 acknowledged moves lost, 0 refused moves
applied.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from instances import Instance, UnansweredError, call, full_history, seat_state
from postgres_support import PostgresCluster, postgres_cluster, postgres_url  # noqa: F401

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow  # each test starts two or three servers

SEATS = ["human", "human", "human"]
"""Every seat human: the test makes every move, so it knows what the history must hold."""
CONFLICT_ROUNDS = 100
"""Rounds of one seat's move sent to both servers at once."""
CONFLICTING = ("draw", "take", "choose")
"""Moves after which no other move of the same choice is legal: two of them conflict."""


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where both servers keep their games: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return str(request.getfixturevalue("postgres_url"))


def _instances(stack: ExitStack, folder: Path, store: str, count: int, *extra: str) -> list[Any]:
    started = []
    for index in range(count):
        instance = Instance(
            folder / f"server-{index}.log", "--store", store, "--workers", "0", *extra
        )
        stack.callback(instance.stop)
        started.append(instance)
    return started


def _new_game(instance: Instance, seed: int) -> tuple[str, dict[str, str]]:
    status, created, _ = instance.call("POST", "/v1/games", {"seats": SEATS, "seed": seed})
    assert status == 201, (status, created)
    return str(created["game"]), dict(created["tokens"])


def _move(port: int, game: str, token: str, move: str) -> int:
    status, _, _ = call(port, "POST", f"/v1/games/{game}/moves", {"move": move}, token)
    return status


def test_a_game_created_on_one_server_is_played_on_the_other(tmp_path: Path, store: str) -> None:
    with ExitStack() as stack:
        a, b = _instances(stack, tmp_path, store, 2)
        game, tokens = _new_game(a, seed=3)
        on_a = seat_state(a.port, game, tokens)
        on_b = seat_state(b.port, game, tokens)
        assert on_b["view"] == on_a["view"]
        played = []
        for turn in range(6):  # B, A, B, …: each sees the other's last move
            here, there = (b, a) if turn % 2 == 0 else (a, b)
            state = seat_state(here.port, game, tokens)
            move = state["legal"][-1]
            assert _move(here.port, game, tokens[str(state["seat"])], move) == 200
            played.append(move)
            assert full_history(there.port, game, tokens)[-1] == move
        assert full_history(a.port, game, tokens)[-6:] == played
        assert full_history(b.port, game, tokens) == full_history(a.port, game, tokens)


def _conflict(a: Instance, b: Instance, game: str, token: str, moves: list[str]) -> list[int]:
    """``moves[0]`` to A and ``moves[1]`` to B, released together: their statuses."""
    barrier = threading.Barrier(2, timeout=30)
    statuses = [0, 0]

    def send(index: int, instance: Instance) -> None:
        barrier.wait()
        statuses[index] = _move(instance.port, game, token, moves[index])

    threads = [threading.Thread(target=send, args=pair) for pair in enumerate((a, b))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a move got no answer in 60 seconds"
    return statuses


def test_conflicting_moves_one_wins_the_other_is_refused(tmp_path: Path, store: str) -> None:
    rng = random.Random(38)
    rounds = wins_a = 0
    acknowledged: dict[str, list[str]] = {}  # by game: every move answered 200, in order
    refused: list[tuple[str, int, str]] = []  # game, history index, move answered 409
    with ExitStack() as stack:
        a, b = _instances(stack, tmp_path, store, 2)
        games: list[tuple[str, dict[str, str]]] = []
        for _ in range(1000):  # each round plays one move; a game is ~100 moves
            if rounds >= CONFLICT_ROUNDS:
                break
            if not games or seat_state(a.port, *games[-1])["over"]:
                games.append(_new_game(a, seed=len(games) + 1))
                acknowledged[games[-1][0]] = []
            game, tokens = games[-1]
            state = seat_state(rng.choice((a, b)).port, game, tokens)
            token = tokens[str(state["seat"])]
            index = len(state["view"]["history"])
            assert index == len(acknowledged[game])
            pair = [move for move in state["legal"] if move.split()[0] in CONFLICTING]
            if len(pair) < 2:
                move = rng.choice(state["legal"])
                assert _move(rng.choice((a, b)).port, game, token, move) == 200
                acknowledged[game].append(move)
                continue
            moves = rng.sample(pair, 2)
            statuses = _conflict(a, b, game, token, moves)
            assert sorted(statuses) == [200, 409], (rounds, moves, statuses)
            won = statuses.index(200)
            wins_a += won == 0
            acknowledged[game].append(moves[won])
            refused.append((game, index, moves[1 - won]))
            rounds += 1
        assert rounds == CONFLICT_ROUNDS
        (c,) = _instances(stack, tmp_path, store, 1)  # a fresh third process
        checked = 0
        for game, tokens in games:
            histories = [full_history(server.port, game, tokens) for server in (a, b, c)]
            assert histories[0] == histories[1] == histories[2]
            assert histories[0] == acknowledged[game]  # 0 lost, and nothing else applied
            checked += len(histories[0])
        for game, index, move in refused:
            assert acknowledged[game][index] != move  # 0 refused moves applied
    print(f"{rounds} conflicts ({wins_a} won by A), {checked} moves checked, {len(games)} games")


def test_a_killed_server_loses_no_acknowledged_move(tmp_path: Path, store: str) -> None:
    outcomes: dict[str, list[tuple[int, str, str]]] = {}  # game: (index, move, fate)
    dead = threading.Event()
    failures: list[BaseException] = []  # a player's failed check, raised again by the test
    with ExitStack() as stack:
        a, b = _instances(stack, tmp_path, store, 2)
        games = [_new_game(a, seed=seed) for seed in (11, 12, 13)]

        def play(game: str, tokens: dict[str, str], seed: int) -> None:
            try:
                play_until_after_kill(game, tokens, seed)
            except BaseException as error:
                failures.append(error)

        def play_until_after_kill(game: str, tokens: dict[str, str], seed: int) -> None:
            rng = random.Random(seed)
            log = outcomes.setdefault(game, [])
            for step in range(200):
                after_kill = sum(1 for *_, fate in log if fate == "after")
                if after_kill >= 5:
                    return
                server = b if dead.is_set() or step % 2 else a
                try:
                    state = seat_state(server.port, game, tokens)
                except UnansweredError:
                    assert server is a, "the surviving server did not answer"
                    continue
                move = rng.choice(state["legal"])
                index = len(state["view"]["history"])
                try:
                    status = _move(server.port, game, tokens[str(state["seat"])], move)
                except UnansweredError:  # killed while the move was in flight: either fate
                    assert server is a, "the surviving server did not answer"
                    log.append((index, move, "unknown"))
                    continue
                assert status == 200, status
                log.append((index, move, "after" if dead.is_set() else "ok"))

        threads = [
            threading.Thread(target=play, args=(game, tokens, seed), daemon=True)
            for seed, (game, tokens) in enumerate(games)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if sum(len(log) for log in outcomes.values()) >= 45:
                break
            time.sleep(0.01)
        a.kill()  # mid-traffic: requests to A are in flight
        dead.set()
        for thread in threads:
            thread.join(timeout=120)
            assert not thread.is_alive(), "a player did not finish"
        if failures:
            raise failures[0]
        acknowledged = 0
        for game, tokens in games:
            history = full_history(b.port, game, tokens)
            answered = {index: move for index, move, fate in outcomes[game] if fate != "unknown"}
            for index, move in answered.items():
                assert history[index] == move  # 0 acknowledged moves lost
            for index, move in enumerate(history):  # and nothing that nobody sent
                sent = {m for i, m, _ in outcomes[game] if i == index}
                assert move in sent, (index, move)
            acknowledged += len(answered)
            after = [fate for *_, fate in outcomes[game] if fate == "after"]
            assert len(after) == 5  # the other instance played on
    print(f"{acknowledged} acknowledged moves checked after kill -9")


def _chattr(flag: str, *paths: Path) -> None:
    existing = [str(path) for path in paths if path.exists()]
    subprocess.run(["chattr", flag, *existing], check=True, timeout=30, capture_output=True)


def _failure(
    store: str, request: pytest.FixtureRequest
) -> tuple[Callable[[], None], Callable[[], None]]:
    """How to make the store fail and come back: PostgreSQL stopped, or SQLite files immutable."""
    if store.startswith("postgresql://"):
        cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
        return cluster.stop, cluster.start
    if shutil.which("chattr") is None or os.geteuid() != 0:
        pytest.skip("needs root and chattr (e2fsprogs) to make the store's files unwritable")
    # Root writes through file modes: only an immutable file stops it. The -shm map is left
    # alone (the store refuses an immutable one up front; the -wal is what a commit writes).
    files = [Path(store), Path(store + "-wal"), Path(store + "-journal")]
    return partial(_chattr, "+i", *files), partial(_chattr, "-i", *files)


def test_a_failing_store_answers_503_and_applies_nothing(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    fail, recover = _failure(store, request)
    with ExitStack() as stack:
        (a,) = _instances(stack, tmp_path, store, 1)
        game, tokens = _new_game(a, seed=5)
        played = []
        for _ in range(5):
            state = seat_state(a.port, game, tokens)
            assert _move(a.port, game, tokens[str(state["seat"])], state["legal"][0]) == 200
            played.append(state["legal"][0])
        state = seat_state(a.port, game, tokens)
        seat = str(state["seat"])
        fail()
        try:
            refusals = 0
            for attempt in range(3):  # the same seat's moves, again and again
                move = state["legal"][attempt % len(state["legal"])]
                status, body, headers = call(
                    a.port, "POST", f"/v1/games/{game}/moves", {"move": move}, tokens[seat]
                )
                assert status == 503, (status, body)
                assert int(headers["retry-after"]) >= 1
                refusals += 1
        finally:
            recover()
        # Back without a restart: the refused moves were not applied.
        deadline = time.monotonic() + 30
        status = 0
        while time.monotonic() < deadline and status != 200:
            status, _, _ = call(a.port, "GET", f"/v1/games/{game}", token=tokens["0"])
            time.sleep(0.1 if status != 200 else 0)
        assert status == 200
        assert full_history(a.port, game, tokens)[-5:] == played
        assert len(full_history(a.port, game, tokens)) == len(state["view"]["history"])
        move = state["legal"][-1]
        assert _move(a.port, game, tokens[seat], move) == 200
        assert full_history(a.port, game, tokens)[-1] == move
        assert refusals == 3


@pytest.fixture(autouse=True)
def _timed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print each test's time (the figures the deployment notes give)."""
    start = time.monotonic()
    yield
    print(f"{request.node.name}: {time.monotonic() - start:.1f} s")
