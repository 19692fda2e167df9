"""Damaged rows of the SQLite store: times out of range, moves nested too deep.

A damaged row is refused with the warning on the ``pastiche_core.server`` log and the game
answers 404 (never 500, never kept forever).
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from service_support import bearer, make_client, new_game

from pastiche_core.cli import main
from pastiche_core.server import GameSession, SqliteStore
from pastiche_core.server.store import StoreError

NOW = 1_000_000.0


def _store(path: Path) -> SqliteStore:
    return SqliteStore(path, clock=lambda: NOW)


def _damage(path: Path, statement: str, *values: object) -> None:
    with sqlite3.connect(path) as db:
        db.execute(statement, values)
    db.close()


@pytest.mark.parametrize("touched", [1e308, -5.0, -1e308, NOW + 10 * 86_400, "soon"])
def test_a_row_without_a_sane_time_is_dropped(
    tmp_path: Path, touched: object, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite"
    store = _store(path)
    store.add(GameSession.start("g", players=3, seed=7, seats=("human",) * 3))
    store.close()
    _damage(path, "UPDATE games SET touched = ?", touched)
    again = _store(path)
    with caplog.at_level(logging.WARNING, logger="pastiche_core.server"):
        assert again.get("g") is None
        again.add(GameSession.start("h", players=3, seed=8, seats=("human",) * 3))
    assert len(again) == 1  # the damaged row went, it does not stay forever
    assert "'g'" in caplog.text
    assert "refused" in caplog.text
    again.close()


def test_a_row_nested_very_deep_answers_404(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite"
    client, service = make_client(store=SqliteStore(path))
    with client:
        game, tokens = new_game(client, players=3, seed=7)
    service.close()
    _damage(path, "UPDATE games SET moves = ?", "[" * 100_000 + "]" * 100_000)
    client, service = make_client(store=SqliteStore(path))
    with caplog.at_level(logging.WARNING, logger="pastiche_core.server"), client:
        answer = client.get(f"/v1/games/{game}", headers=bearer(next(iter(tokens.values()))))
    service.close()
    assert answer.status_code == 404
    assert "nested deeper" in caplog.text
    assert "refused" in caplog.text


def test_a_store_file_with_flipped_bytes_stops_start_up_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "flipped.sqlite"
    _store(path).close()
    data = bytearray(path.read_bytes())
    at = data.find(b"indexgames_touchedgames")
    assert at > 0
    data[at + 8] = 0xFF  # inside the index's name: sqlite's error quotes it
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"flipped\.sqlite.*damaged"):
        _store(path)
    assert main(["serve", "--stdio", "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "flipped.sqlite" in err
    assert "codec" not in err
