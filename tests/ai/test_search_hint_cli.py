"""``pastiche hint``: a view or a state, the same output for both, one error line for bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from search_support import played

from pastiche_core import Card, schema, state_from_dict, state_to_dict
from pastiche_core.cli import main
from pastiche_core.io import view_to_json

jsonschema: Any = pytest.importorskip("jsonschema")

# Simulations fixed and the ceiling far away: the output is the same on any machine.
_ARGS = ["--simulations", "20", "--budget-ms", "10000", "--seed", "3"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, int]:
    game = played(4, 23, 61)
    seat = game.to_move
    state = tmp_path / "state.json"
    state.write_text(game.to_json(), encoding="utf-8")
    view = tmp_path / "view.json"
    view.write_text(view_to_json(game.view(seat)), encoding="utf-8")
    return state, view, seat


def test_a_state_and_its_players_view_give_byte_identical_hints(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path, int]
) -> None:
    state, view, seat = files
    for extra in ([], ["--json"]):
        from_state = _run(capsys, "hint", str(state), "--player", str(seat), *_ARGS, *extra)
        from_view = _run(capsys, "hint", str(view), *_ARGS, *extra)
        assert from_state == from_view
        assert from_state[0] == 0
        assert from_state[2] == ""
    _, out, _ = _run(capsys, "hint", str(view), *_ARGS, "--json")
    data = json.loads(out)
    jsonschema.Draft202012Validator(schema("hint")).validate(data)
    assert data["player"] == seat
    assert data["seed"] == 3
    assert data["budget_ms"] == 10_000
    assert data["moves"]


def test_hidden_cards_do_not_change_the_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two states differing only in cards the player cannot see: the same output."""
    game = played(4, 29, 57)
    seat = game.to_move
    data = state_to_dict(game)
    del data["history"]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(data), encoding="utf-8")
    other, third = (seat + 1) % 4, (seat + 2) % 4
    hand, rest = data["hands"][other], data["hands"][third]
    hand[-1], rest[0] = rest[0], hand[-1]
    for where in (other, third):
        data["hands"][where].sort(key=lambda text: Card.parse(text).index)
    two = tmp_path / "two.json"
    two.write_text(json.dumps(data), encoding="utf-8")
    assert state_from_dict(json.loads(two.read_text())).hand(other) != game.hand(other)
    first = _run(capsys, "hint", str(one), "--player", str(seat), *_ARGS, "--json")
    second = _run(capsys, "hint", str(two), "--player", str(seat), *_ARGS, "--json")
    assert first == second
    assert first[0] == 0


def test_two_processes_print_the_same_bytes(tmp_path: Path) -> None:
    """Separate processes, other hash seeds, with and without the compiled kernels: one hint.

    The position's explanations ask the solver about the gifts' recipients, whose answers
    once depended on the machine's speed.
    """
    game = played(4, 32, 94)
    view = tmp_path / "view.json"
    view.write_text(view_to_json(game.view(game.to_move)), encoding="utf-8")
    argv = [sys.executable, "-m", "pastiche_core", "hint", str(view), "--json"]
    argv += ["--simulations", "30", "--budget-ms", "10000", "--seed", "2"]
    outputs = []
    for hash_seed, pure in (("1", "0"), ("2", "1")):
        env = os.environ | {"PYTHONHASHSEED": hash_seed, "PASTICHE_PURE_PYTHON": pure}
        done = subprocess.run(argv, capture_output=True, env=env, check=True, timeout=120)
        assert done.stderr == b""
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert data["complete"] is True
    assert "cut" not in data
    assert any("could then publish" in move["explanation"] for move in data["moves"])


def test_the_default_budget_twice_gives_the_same_bytes_when_complete(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path, int]
) -> None:
    """The default budget (its simulations, its ceiling): only an incomplete hint may differ."""
    _, view, _ = files
    first = _run(capsys, "hint", str(view), "--json")
    second = _run(capsys, "hint", str(view), "--json")
    documents = [json.loads(out) for _, out, _ in (first, second)]
    for data in documents:
        jsonschema.Draft202012Validator(schema("hint")).validate(data)
        assert data["complete"] == ("cut" not in data)
    if all(data["complete"] for data in documents):
        assert first == second


def test_the_table_is_printed_by_default(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path, int]
) -> None:
    _, view, seat = files
    status, out, _ = _run(capsys, "hint", str(view), *_ARGS)
    assert status == 0
    assert out.startswith(f"hint for player {seat} (")
    assert "20 simulations, " in out
    assert "  why" in out.splitlines()[1]


def test_standard_input(
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, view, _ = files
    expected = _run(capsys, "hint", str(view), *_ARGS, "--json")
    monkeypatch.setattr(sys, "stdin", io.StringIO(view.read_text()))
    assert _run(capsys, "hint", "-", *_ARGS, "--json") == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hint", "{state}"], "say whose hint it is with --player"),
        (["hint", "{state}", "--player", "4"], "--player must be a seat from 0 to 3, got 4"),
        (["hint", "{state}", "--player", "7"], "player must be from 0 to 4 (R10), got 7"),
        (["hint", "{view}", "--player", "{other}"], "does not match the view"),
        (["hint", "{missing}"], "no such file"),
        (["hint", "{view}", "--budget-ms", "0"], "budget must be from 1 to 10000, got 0"),
        (["hint", "{view}", "--budget-ms", "20000"], "budget must be from 1 to 10000"),
        (["hint", "{view}", "--seed", "-1"], "seed must be from 0 to"),
        (["hint", "{view}", "--simulations", "0"], "simulations must be from 1 to"),
        (["hint", "{bad}"], "not valid JSON"),
        (["hint", "{record}"], "expected 'pastiche-view' or 'pastiche-state'"),
        (["hint", "{broken_view}"], "$.hand_sizes"),
    ],
)
def test_bad_input_is_one_error_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path, int],
    tmp_path: Path,
    argv: list[str],
    message: str,
) -> None:
    state, view, seat = files
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    record = tmp_path / "record.json"
    record.write_text('{"format": "pastiche-record", "version": 1}', encoding="utf-8")
    broken = json.loads(view.read_text())
    broken["hand_sizes"][seat] += 1
    broken_view = tmp_path / "broken.json"
    broken_view.write_text(json.dumps(broken), encoding="utf-8")
    names = {
        "state": str(state),
        "view": str(view),
        "other": str((seat + 1) % 4),
        "missing": str(tmp_path / "missing.json"),
        "bad": str(bad),
        "record": str(record),
        "broken_view": str(broken_view),
    }
    status, out, err = _run(capsys, *(word.format(**names) for word in argv))
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("pastiche: error: ")
    assert message in lines[0]


@pytest.mark.parametrize("columns", [80, 50])
def test_the_table_fits_the_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    files: tuple[Path, Path, int],
    columns: int,
) -> None:
    _, view, _ = files
    monkeypatch.setenv("COLUMNS", str(columns))
    status, out, _ = _run(capsys, "hint", str(view), *_ARGS)
    assert status == 0
    assert "win " in out
    assert max(len(line) for line in out.splitlines()) <= columns
