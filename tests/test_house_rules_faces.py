"""House rules where games are made from a catalogue: the CLI's simulate and tournament, the
tournament runner, the web service, its store and game records (R10, R12)."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from pastiche_core import Rules, load_catalogue
from pastiche_core.ai.tournament import run_tournament
from pastiche_core.bots.simulate import simulate
from pastiche_core.cli import main
from pastiche_core.data.errors import InvalidArgumentError, InvalidStateError
from pastiche_core.io.record import GameRecord
from pastiche_core.server import Service, SqliteStore
from pastiche_core.server.api_errors import ApiError

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "catalogues" / "house-rules.toml"
QUICK = Rules(max_players=4, deal_sizes=(3, 3, 4, 4), keep_size=2, end_threshold=10)


def test_simulate_plays_by_the_catalogues_rules(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "4", "--games", "3", "--seed", "2", "--json"]
    assert main([*argv, "--catalogue", str(EXAMPLE)]) == 0
    printed = json.loads(capsys.readouterr().out)
    quick = load_catalogue(EXAMPLE)
    assert printed == simulate(4, 3, 2, quick).to_dict()
    # The same catalogue played by the rulebook gives other games: the [rules] were used.
    assert printed != simulate(4, 3, 2, quick, rules=Rules()).to_dict()


def test_simulate_refuses_seats_the_catalogues_rules_do_not_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--players", "5", "--games", "1", "--catalogue", str(EXAMPLE)]
    assert main(argv) != 0
    assert "players must be from 3 to 4 (R10), got 5" in capsys.readouterr().err


def test_a_tournament_checks_its_seats_against_the_catalogues_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    quick = load_catalogue(EXAMPLE)
    with pytest.raises(
        InvalidArgumentError, match=r"3 to 4 by the rules of catalogue 'quick' \(R10\)"
    ):
        run_tournament(["random"] * 5, games=1, catalogue=quick)
    result = run_tournament(["random"] * 4, games=2, seed=3, catalogue=quick)
    assert result.catalogue == "quick"
    argv = ["tournament", "--bots", "random,random,random,random,random", "--games", "1"]
    assert main([*argv, "--catalogue", str(EXAMPLE)]) != 0
    assert "3 to 4 by the rules of catalogue 'quick' (R10)" in capsys.readouterr().err


def test_the_service_seats_by_the_catalogues_rules(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = load_catalogue(EXAMPLE).to_dict()
    store = SqliteStore(tmp_path / "games.sqlite")
    service = Service(store=store)
    with pytest.raises(ApiError, match=r"a game has 3 to 4 players \(R10\), got 5 seats"):
        service.create_game({"catalogue": table, "seats": ["human"] + ["random"] * 4})
    with pytest.raises(ApiError, match="expected an integer from 3 to 4, got 5"):
        service.create_game({"catalogue": table, "players": 5})
    made = service.create_game({"catalogue": table, "players": 4, "seed": 1})
    game_id = made["game"]
    session = store.get(game_id)
    assert session is not None
    assert session.game.rules == QUICK
    store.close()
    # A stored row of five players cannot be a game of this catalogue (R10).
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        db.execute("UPDATE games SET players = 5 WHERE id = ?", (game_id,))
    again = SqliteStore(tmp_path / "games.sqlite")
    with caplog.at_level(logging.WARNING):
        assert again.get(game_id) is None  # refused, with the reason logged
    assert "players must be from 3 to 4 (R10), got 5; the game is refused" in caplog.text
    again.close()


def test_a_record_seats_by_its_rules() -> None:
    data = {
        "format": "pastiche-record",
        "version": 1,
        "players": 5,
        "seed": 1,
        "catalogue": "default",
        "moves": [],
        "rules": QUICK.to_dict(),
    }
    with pytest.raises(InvalidStateError, match=r"\$\.players: the rules seat 3 to 4 players"):
        GameRecord.from_dict(data)
    assert GameRecord.from_dict({**data, "players": 4}).replay().rules == QUICK
