"""Game records: replay reproduces the game; JSON and files round trip; errors name the path."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from builders import MINI, random_game
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import (
    Catalogue,
    Game,
    IllegalMoveError,
    InvalidNotationError,
    InvalidStateError,
    Move,
)
from pastiche_core.io import state_from_dict, state_to_dict
from pastiche_core.io.record import RECORD_FORMAT, RECORD_VERSION, GameRecord


def opening() -> GameRecord:
    """Three players, seed 7: a keep, a Write ① and its choice."""
    moves = ("keep MYT1 HOR7 HOR8", "draw", "choose SCI5")
    return GameRecord(3, 7, moves=tuple(Move.parse(m) for m in moves))


@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    steps=st.integers(min_value=0, max_value=150),
)
def test_replay_reproduces_state_and_history(players: int, seed: int, steps: int) -> None:
    game = random_game(players, seed, steps)
    record = GameRecord.of(game)
    replayed = record.replay()
    assert replayed == game
    assert replayed.history == game.history
    assert GameRecord.from_dict(record.to_dict()) == record
    assert GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (4, 22), (5, 23)])
def test_replay_of_finished_games(players: int, seed: int) -> None:
    game = random_game(players, seed, 1000)
    assert game.is_over
    replayed = GameRecord.from_json(GameRecord.of(game).to_json()).replay()
    assert replayed == game
    assert replayed.history == game.history
    assert replayed.result == game.result


def test_record_with_custom_catalogue() -> None:
    game = random_game(4, 5, 1000, MINI)
    record = GameRecord.of(game)
    data = record.to_dict()
    assert data["catalogue"] == MINI.to_dict()
    loaded = GameRecord.from_dict(data)
    assert loaded == record
    assert loaded.catalogue == MINI
    assert loaded.replay() == game


def test_catalogue_argument_overrides_the_stored_one() -> None:
    game = random_game(3, 6, 60, MINI)
    data = GameRecord.of(game).to_dict()
    del data["catalogue"]
    assert GameRecord.from_dict(data, catalogue=MINI).replay() == game
    data["catalogue"] = "default"
    assert GameRecord.from_json(json.dumps(data), catalogue=MINI).replay() == game


def test_record_of_a_loaded_state_replays_it() -> None:
    game = random_game(5, 8, 70)
    loaded = state_from_dict(state_to_dict(game))
    assert GameRecord.of(loaded).replay() == game


def test_json_layout() -> None:
    record = opening()
    data = json.loads(record.to_json(indent=2))
    assert data == {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "players": 3,
        "seed": 7,
        "catalogue": "default",
        "moves": ["keep MYT1 HOR7 HOR8", "draw", "choose SCI5"],
    }


def test_defaults_and_immutability() -> None:
    record = GameRecord(4, 9)
    assert record.catalogue == Catalogue.default()
    assert record.moves == ()
    assert record.replay() == Game(4, 9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.seed = 3  # type: ignore[misc]
    assert hash(record) == hash(GameRecord(4, 9))


def test_moves_given_as_notation_are_parsed() -> None:
    notation = ["keep MYT1 HOR7 HOR8", "draw", "choose SCI5"]
    assert GameRecord(3, 7, moves=notation) == opening()  # type: ignore[arg-type]


def test_save_and_load(tmp_path: Path) -> None:
    game = random_game(4, 12, 90)
    record = GameRecord.of(game)
    path = tmp_path / "game.json"
    record.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == RECORD_FORMAT
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.replay() == game
    assert GameRecord.load(str(path)) == record


def test_load_rejects_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "pastiche-record",', encoding="utf-8")
    with pytest.raises(InvalidStateError, match=r"^\$: not valid JSON"):
        GameRecord.load(path)


def test_illegal_move_names_its_index() -> None:
    moves = (*opening().moves, Move.parse("pass"))
    with pytest.raises(IllegalMoveError) as info:
        GameRecord(3, 7, moves=moves).replay()
    assert str(info.value) == "moves[3] 'pass': cannot pass while Write is possible (R11)"


def test_illegal_move_late_in_a_game() -> None:
    game = random_game(3, 14, 40)
    index = len(game.history)
    moves = (*game.history, Move.parse("keep MYT1 MYT2 MYT3"), *game.history[:2])
    with pytest.raises(IllegalMoveError, match=rf"^moves\[{index}\] 'keep MYT1 MYT2 MYT3': "):
        GameRecord(3, 14, moves=moves).replay()


Data = dict[str, Any]


def base_record() -> Data:
    """A valid record in JSON form."""
    return opening().to_dict()


@pytest.mark.parametrize(
    ("field", "value", "path", "fragment"),
    [
        (
            "format",
            "pastiche-state",
            "$.format",
            "expected 'pastiche-record', got 'pastiche-state'",
        ),
        ("version", 3, "$.version", "unsupported version 3"),
        ("players", 2, "$.players", "a game has 3 to 5 players (R10), got 2"),
        ("players", "3", "$.players", "expected an integer, got the string '3'"),
        ("seed", True, "$.seed", "expected an integer, got a boolean"),
        ("catalogue", "deluxe", "$.catalogue", "expected 'default' or a catalogue object"),
        ("catalogue", {"novels": []}, "$.catalogue", "novels: expected a non-empty list"),
        ("moves", "draw", "$.moves", "expected an array, got the string 'draw'"),
        ("moves", ["draw", 4], "$.moves[1]", "expected a move such as 'draw', got an integer"),
        ("colour", "red", "$.colour", "unknown field"),
    ],
    ids=[
        "wrong_format",
        "wrong_version",
        "too_few_players",
        "players_not_an_integer",
        "seed_not_an_integer",
        "unknown_catalogue_name",
        "invalid_catalogue",
        "moves_not_an_array",
        "move_not_a_string",
        "unknown_field",
    ],
)
def test_invalid_record_is_rejected(field: str, value: object, path: str, fragment: str) -> None:
    data = base_record()
    data[field] = value
    with pytest.raises(InvalidStateError) as info:
        GameRecord.from_dict(data)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert fragment in message, message


def test_missing_field_is_rejected() -> None:
    data = base_record()
    del data["moves"]
    with pytest.raises(InvalidStateError, match=r"^\$\.moves: missing required field"):
        GameRecord.from_dict(data)


def test_not_an_object_is_rejected() -> None:
    with pytest.raises(InvalidStateError, match=r"^\$: expected a JSON object, got an array"):
        GameRecord.from_json("[1, 2]")


@pytest.mark.parametrize(
    ("notation", "fragment"),
    [
        ("jump", "invalid move 'jump': unknown keyword 'jump'"),
        ("keep MYT1 XYZ4 HOR8", "invalid move 'keep MYT1 XYZ4 HOR8': invalid card 'XYZ4'"),
        ("read kind-3 SCI9", "invalid move 'read kind-3 SCI9': invalid novel reference"),
    ],
    ids=["unknown_keyword", "bad_card", "bad_reference"],
)
def test_bad_move_notation_names_the_path(notation: str, fragment: str) -> None:
    data = base_record()
    data["moves"][1] = notation
    with pytest.raises(InvalidNotationError) as info:
        GameRecord.from_dict(data)
    message = str(info.value)
    assert message.startswith("$.moves[1]: "), message
    assert fragment in message, message
