"""A store that fails or falls behind: nothing refused is applied, nothing answered is lost.

Failures are real: a second store on the same file moving first, a ``-wal`` or ``-shm`` file made
immutable (``chattr +i``, which binds root too), and a full disk (``RLIMIT_FSIZE`` in a child
process). Each checks the answer (409 or 503, never 500), the game in memory and in the file, and
that the next request sees the committed game.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pastiche_core.cli import main
from pastiche_core.server import ServerLimits, Service, SqliteStore
from pastiche_core.server.api_errors import ApiError
from pastiche_core.server.store import StoreError

SEATS = ["human", "human", "human"]


def _stored_moves(path: Path, game: str) -> list[str]:
    with sqlite3.connect(path) as db:
        (moves,) = db.execute("SELECT moves FROM games WHERE id = ?", (game,)).fetchone()
    db.close()
    return list(json.loads(moves))


def _history(service: Service, game: str) -> list[str]:
    session = service.store.get(game)
    assert session is not None
    return [str(move) for move in session.game.history]


def _status(call: Any, *args: Any) -> ApiError:
    with pytest.raises(ApiError) as refused:
        call(*args)
    return refused.value


def _chattr_works(tmp_path: Path) -> bool:
    if shutil.which("chattr") is None:
        return False
    probe = tmp_path / "probe"
    probe.touch()
    if subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode:
        return False
    subprocess.run(["chattr", "-i", str(probe)], check=True)
    return True


@contextmanager
def _immutable(path: Path) -> Iterator[None]:
    subprocess.run(["chattr", "+i", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def _to_move(service: Service, game: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    seat = str(service.game_state(game, tokens["0"])["to_move"])
    return tokens[seat], service.game_state(game, tokens[seat])


# ----------------------------------------------------------------------
# Two stores on one file (issue 38: B's acknowledged moves were overwritten by A's)
# ----------------------------------------------------------------------
def test_a_cached_game_is_read_again_once_another_server_moved(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    first, second = Service(store=SqliteStore(path)), Service(store=SqliteStore(path))
    created = first.create_game({"players": 3, "seed": 12, "seats": SEATS})
    game, tokens = created["game"], created["tokens"]
    token, state = _to_move(first, game, tokens)  # first caches the game at version 0
    played = second.move(game, token, {"move": state["legal"][0]})
    assert first.game_state(game, token) == played  # not the cached, stale game
    error = _status(first.move, game, token, {"move": state["legal"][1]})
    assert error.status == 409  # the seat already moved
    assert _stored_moves(path, game) == [state["legal"][0]]
    first.close()
    second.close()


def test_a_move_against_a_stale_version_gets_409_and_the_game_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.sqlite"
    first, second = Service(store=SqliteStore(path)), Service(store=SqliteStore(path))
    created = first.create_game({"players": 3, "seed": 12, "seats": SEATS})
    game, tokens = created["game"], created["tokens"]
    token, state = _to_move(first, game, tokens)
    assert len(state["legal"]) >= 2
    played: list[dict[str, Any]] = []

    def race(session: Any) -> None:
        # first has applied its move in memory; second commits a conflicting one first.
        played.append(second.move(game, token, {"move": state["legal"][0]}))

    monkeypatch.setattr(first, "advance_bots", race)
    error = _status(first.move, game, token, {"move": state["legal"][1]})
    assert error.status == 409
    assert "another server" in error.message
    assert _stored_moves(path, game) == [state["legal"][0]]  # second's move, not overwritten
    assert _history(first, game) == [state["legal"][0]]  # first re-read the game
    monkeypatch.undo()
    assert first.game_state(game, token) == played[0]
    first.close()
    second.close()


def test_a_read_that_lets_bots_play_on_a_stale_game_answers_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.sqlite"
    limits = ServerLimits(bot_decisions=1)  # the bots stop after one decision: "waiting"
    first = Service(store=SqliteStore(path), limits=limits)
    second = Service(store=SqliteStore(path), limits=limits)
    created = first.create_game({"players": 3, "seed": 5, "seats": ["human", "random", "random"]})
    game, token = created["game"], created["tokens"]["0"]
    for _ in range(20):
        state = first.game_state(game, token)
        if state["waiting"]:
            break
        first.move(game, token, {"move": state["legal"][0]})
    assert state["waiting"]
    moved: list[dict[str, Any]] = []

    def race(session: Any) -> None:
        moved.append(second.game_state(game, token))  # second lets the bot play first
        Service.advance_bots(first, session)

    monkeypatch.setattr(first, "advance_bots", race)
    answer = first.game_state(game, token)  # first's bot move is stale: no 409 for a read
    assert answer == moved[0]
    assert _history(first, game) == _stored_moves(path, game)
    first.close()
    second.close()


# ----------------------------------------------------------------------
# A failing file: 503, nothing applied (issue 38: answered 500 but applied)
# ----------------------------------------------------------------------
@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_an_unwritable_journal_answers_503_and_applies_nothing(tmp_path: Path, suffix: str) -> None:
    if not _chattr_works(tmp_path):
        pytest.skip("chattr +i is not available here")
    path = tmp_path / "games.sqlite"
    service = Service(store=SqliteStore(path))
    created = service.create_game({"players": 3, "seed": 12, "seats": SEATS})
    game, tokens = created["game"], created["tokens"]
    token, state = _to_move(service, game, tokens)
    with _immutable(Path(f"{path}{suffix}")):
        error = _status(service.move, game, token, {"move": state["legal"][0]})
        assert (error.status, error.retry_after) == (503, 5)
        assert "nothing was kept" in error.message
        if suffix == "-shm":  # a read maps the -shm file too: 503, not 404 and not SIGBUS
            assert _status(service.game_state, game, token).status == 503
            refused = _status(service.create_game, {"players": 3}, "10.0.0.1")
            assert refused.status == 503
    assert _stored_moves(path, game) == []
    assert _history(service, game) == []  # rolled back in memory too
    assert service.store.live_games("10.0.0.1") == 0
    assert service.game_state(game, token) == state
    service.move(game, token, {"move": state["legal"][0]})  # the file is back: kept
    assert _stored_moves(path, game) == [state["legal"][0]]
    service.close()


def test_a_store_whose_shm_file_is_immutable_stops_start_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not _chattr_works(tmp_path):
        pytest.skip("chattr +i is not available here")
    path = tmp_path / "games.sqlite"
    store = SqliteStore(path)
    store.close()
    shm = Path(f"{path}-shm")
    shm.write_bytes(b"\0" * 32_768)
    with _immutable(shm):
        with pytest.raises(StoreError, match="-shm' is not writable"):
            SqliteStore(path)
        assert main(["serve", "--stdio", "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "games.sqlite-shm" in err


FULL_DISK = textwrap.dedent(
    """
    import json, os, resource, signal, sys
    from pastiche_core.server import Service, SqliteStore
    from pastiche_core.server.api_errors import ApiError

    path = sys.argv[1]
    service = Service(store=SqliteStore(path))
    created = service.create_game({"players": 3, "seed": 12, "seats": ["human"] * 3})
    game, tokens = created["game"], created["tokens"]
    seat = str(service.game_state(game, tokens["0"])["to_move"])
    state = service.game_state(game, tokens[seat])
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    size = os.path.getsize(path + "-wal")
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
    out = {"move": state["legal"][0]}
    try:
        service.move(game, tokens[seat], {"move": state["legal"][0]})
        out["status"] = 200
    except ApiError as error:
        out["status"], out["message"] = error.status, error.message
    out["history"] = len(service.store.get(game).game.history)
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    service.move(game, tokens[seat], {"move": state["legal"][0]})
    out["after"] = len(service.store.get(game).game.history)
    out["game"] = game
    print(json.dumps(out))
    """
)


def test_a_full_disk_answers_503_and_applies_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    child = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(path)], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0, child.stderr
    out = json.loads(child.stdout)
    assert out["status"] == 503, out
    assert "nothing was kept" in out["message"]
    assert out["history"] == 0  # refused: not applied in memory
    assert out["after"] == 1  # room again: the same move is kept
    assert _stored_moves(path, out["game"]) == [out["move"]]


# ----------------------------------------------------------------------
# A full store refuses by client share
# ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_past_half_of_max_games_one_game_per_client(kind: str, tmp_path: Path) -> None:
    limits = ServerLimits(max_games=4)
    store = None if kind == "memory" else SqliteStore(tmp_path / "g.sqlite", max_games=4)
    service = Service(store=store, limits=limits)
    service.create_game({"players": 3}, client="10.0.0.1")
    service.create_game({"players": 3}, client="10.0.0.1")  # below half: a second game
    turns = dict(service.bot_turns)
    refused = _status(service.create_game, {"players": 3}, "10.0.0.1")
    assert (refused.status, refused.retry_after) == (429, 60)
    assert "half of max_games" in refused.message
    assert service.bot_turns == turns  # refused before its game was dealt and its bots ran
    service.create_game({"players": 3}, client="10.0.0.2")  # a new client still gets one
    service.create_game({"players": 3}, client="10.0.0.3")
    full = _status(service.create_game, {"players": 3}, "10.0.0.4")
    assert service.bot_turns == {"here": 4}  # the four games kept, none refused
    assert full.status == 503
    assert "max_games" in full.message
    assert service.store.live_games("10.0.0.1") == 2
    service.close()
