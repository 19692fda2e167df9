"""The command line: publishes from a view or a state, defaults in every help, the ETA, widths.

* ``pastiche publishes`` reads a position, a player's view (answered for the viewer) or a game
  state (answered for ``--player``, by default the player to move, from that player's view
  alone: R16), telling them apart by their ``format`` field.
* Every option's help states its default (walked over the whole parser).
* The time left of a tournament comes from the games finished and the time they took.
* At 80 columns no line of ``publishes``, ``hint``, ``simulate`` or ``tournament`` is longer.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from pastiche_core import Game, state_to_dict, view_to_dict
from pastiche_core.ai.visible import position_of
from pastiche_core.cli import Eta, ProgressBar, build_parser, main
from pastiche_core.io.position_json import position_to_dict

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
STATE = EXAMPLES / "hints" / "state.json"
VIEW = EXAMPLES / "hints" / "view.json"


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _answer(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    status, out, err = _run(capsys, [*argv, "--json"])
    assert (status, err) == (0, "")
    data: dict[str, object] = json.loads(out)
    return data


def _write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def game() -> Game:
    """A game in play whose hands and table are not empty."""
    played = Game(players=4, seed=5)
    moves = 0
    while moves < 40:
        played.apply(played.legal_moves[moves % len(played.legal_moves)])
        moves += 1
    return played


# ----------------------------------------------------------------------
# Views and states
# ----------------------------------------------------------------------
def test_a_view_answers_as_its_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    view_json = json.loads(VIEW.read_text(encoding="utf-8"))
    from pastiche_core.io.view_json import view_from_dict

    position = position_of(view_from_dict(view_json))
    from_view = _answer(capsys, ["publishes", str(VIEW)])
    from_position = _answer(
        capsys, ["publishes", _write(tmp_path, "p.json", position_to_dict(position))]
    )
    assert from_view == from_position
    assert from_view["player"] == view_json["player"]
    # The masterpiece ids are the game's novel references, so options turn into moves.
    assert any(":" in cited for o in from_view["options"] for cited in o["cited"])  # type: ignore[attr-defined]


def test_a_state_answers_for_the_player_to_move_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: Game
) -> None:
    state = _write(tmp_path, "state.json", state_to_dict(game))
    for seat in range(game.players):
        view = _write(tmp_path, f"view{seat}.json", view_to_dict(game.view(seat)))
        from_state = _answer(capsys, ["publishes", state, "--player", str(seat)])
        assert from_state == _answer(capsys, ["publishes", view])
        assert from_state["player"] == seat
    default = _answer(capsys, ["publishes", state])
    assert default == _answer(capsys, ["publishes", state, "--player", str(game.to_move)])


def test_a_state_never_answers_from_hidden_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The same state with cards hidden from player 2 swapped (one of player 3's cards for
    # one of the deck's): player 2's answer is the same, player 3's is not (R16).
    data = json.loads(STATE.read_text(encoding="utf-8"))
    data.pop("history", None)  # a history would replay to the first deal
    state = _write(tmp_path, "state.json", data)
    hand, deck = data["hands"][3], data["deck"]
    hand[0], deck[0] = deck[0], hand[0]
    swapped = _write(tmp_path, "swapped.json", data)
    for seat, same in (("2", True), ("3", False)):
        before = _run(capsys, ["publishes", state, "--player", seat])
        after = _run(capsys, ["publishes", swapped, "--player", seat])
        assert before[0] == after[0] == 0
        assert (before == after) is same  # the table shows the hand
    assert _answer(capsys, ["publishes", state, "--player", "2"]) == _answer(
        capsys, ["publishes", swapped, "--player", "2"]
    )


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--player", "3"], "argument --player: expected a seat of this 3-player game, 0 to 2"),
        ([], ""),
    ],
)
def test_a_state_player_out_of_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], says: str
) -> None:
    state = _write(tmp_path, "state.json", state_to_dict(Game(players=3, seed=2)))
    status, out, err = _run(capsys, ["publishes", state, *argv])
    if not says:
        assert (status, err) == (0, "")
        return
    assert (status, out) == (2, "")
    assert says in err
    assert err.count("\n") == 1


def test_a_view_or_position_of_another_player_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = _run(capsys, ["publishes", str(VIEW), "--player", "2"])
    assert status == 2
    assert "argument --player: 2 is not the view's player, 0" in err
    position = str(EXAMPLES / "positions" / "jerome.json")
    status, _, err = _run(capsys, ["publishes", position, "--player", "1"])
    assert status == 2
    assert "argument --player: 1 is not the position's player, 0" in err


def test_a_document_of_another_kind_says_what_is_expected(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = _write(tmp_path, "r.json", {"format": "pastiche-record", "version": 1})
    status, out, err = _run(capsys, ["publishes", record])
    assert (status, out) == (2, "")
    assert "expected a position (no format), 'pastiche-view' or 'pastiche-state' document" in err
    assert "this is a game record" in err


def test_a_view_on_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(VIEW.read_text(encoding="utf-8")))
    answer = _answer(capsys, ["publishes", "-"])
    assert answer == _answer(capsys, ["publishes", str(VIEW)])


def test_a_bad_view_is_refused_before_any_search(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pastiche_core.cli import commands as cli_commands

    def unreachable(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched a bad view")

    monkeypatch.setattr(cli_commands, "solve", unreachable)
    data = json.loads(VIEW.read_text(encoding="utf-8"))
    data["hand"] = [*data["hand"], data["hand"][0]]
    status, _, err = _run(capsys, ["publishes", _write(tmp_path, "v.json", data)])
    assert status == 2
    assert err.startswith("pastiche: error: $.hand")


# ----------------------------------------------------------------------
# Help and progress
# ----------------------------------------------------------------------
def _options(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:  # argparse keeps its actions there and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                found += _options(sub, sub_name)
        elif action.option_strings and not isinstance(action, argparse._HelpAction):
            found.append((name, action))
    return found


def test_every_option_help_states_its_default() -> None:
    options = _options(build_parser(), "pastiche")
    assert len(options) > 30
    missing = [
        f"{name} {'/'.join(action.option_strings)}"
        for name, action in options
        if not action.required
        and action.option_strings != ["--version"]
        and "default" not in (action.help or "")
    ]
    assert not missing, f"options whose help does not state the default: {missing}"


def test_the_eta_comes_from_the_games_finished_and_their_time() -> None:
    now = [100.0]
    eta = Eta(10, clock=lambda: now[0])
    assert eta.left() is None
    now[0] = 130.0  # a first game can take long: still no estimate, and no sticking number
    assert eta.text() == "estimating the time left"
    eta.update(1)
    assert eta.left() == pytest.approx(270.0)  # 30 s a game, 9 to go
    now[0] = 190.0
    assert eta.left() == pytest.approx(210.0)  # counts down between games
    eta.update(4)  # games finishing faster: 22.5 s a game, 6 to go
    assert eta.left() == pytest.approx(135.0)
    assert eta.text() == "about 2 min 15 s left"
    now[0] = 400.0
    assert eta.left() == 0.0  # never negative while the last games run
    eta.update(10)
    assert (eta.left(), eta.text()) == (0.0, "done")


def test_piped_progress_lines_carry_the_true_time_left() -> None:
    now = [0.0]
    out = io.StringIO()
    bar = ProgressBar(out, lines=True, clock=lambda: now[0])
    bar(0, 4)
    for done, at in ((1, 10.0), (2, 20.0), (3, 24.0), (4, 40.0)):
        now[0] = at
        bar(done, 4)
    assert out.getvalue().splitlines() == [
        "game 1/4 done, 10 s so far, about 30 s left",
        "game 2/4 done, 20 s so far, about 20 s left",
        "game 3/4 done, 24 s so far, about 8 s left",
        "game 4/4 done, 40 s so far, done",
    ]


def test_the_drawn_bar_shows_the_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    out = io.StringIO()
    bar = ProgressBar(out, force=True, width=10, clock=lambda: now[0])
    bar(0, 4)
    now[0] = 10.0
    bar(1, 4)
    bar.close()
    assert "about 30 s left" in out.getvalue()


# ----------------------------------------------------------------------
# Widths
# ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["publishes", "examples/positions/midgame.json"],
        ["publishes", str(VIEW)],
        ["publishes", str(STATE), "--player", "2"],
        ["hint", str(VIEW), "--simulations", "12", "--budget-ms", "10000"],
        ["simulate", "--players", "5", "--games", "2", "--seed", "3"],
        ["tournament", "--bots", "greedy,random,random,random,random", "--games", "2",
         "--workers", "1", "--catalogue", "examples/catalogues/variant.toml"],
    ],
    ids=["publishes", "publishes-view", "publishes-state", "hint", "simulate", "tournament"],
)  # fmt: skip
def test_no_line_is_longer_than_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = _run(capsys, argv)
    assert status == 0, err
    lines = out.splitlines() + err.splitlines()
    assert len(lines) > 3
    too_long = [line for line in lines if len(line) > 80]
    assert not too_long
    if argv[0] == "publishes":
        assert " to p" not in out
