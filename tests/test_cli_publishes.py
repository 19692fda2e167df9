"""``pastiche publishes``: JSON against its schema, the readable report, constraints, errors."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pastiche_core import CLI_MAX_OPTIONS, Card, InvalidStateError
from pastiche_core.cli import COMMANDS, ENGINES, build_parser, main
from pastiche_core.cli import commands as cli_commands
from pastiche_core.io.position_json import load_query, position_to_dict, schema
from pastiche_core.solver import queries as solver
from pastiche_core.solver.options import Constraints, PublishOption, check_option, option_key
from pastiche_core.solver.position import Position

jsonschema: Any = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions"
EXAMPLE_NAMES = ("opening", "midgame", "lategame", "jerome")
JEROME = str(EXAMPLES / "jerome.json")


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _publishes_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    status, out, err = _run(capsys, ["publishes", *argv, "--json"])
    assert (status, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    assert out == json.dumps(data, sort_keys=True, indent=2) + "\n"
    jsonschema.Draft202012Validator(schema("publishes")).validate(data)
    return data


def _option(data: dict[str, Any]) -> PublishOption:
    return PublishOption(
        novel=data["novel"],
        played=tuple(Card.parse(card) for card in data["played"]),
        cited=tuple(data["cited"]),
        gifts=tuple(sorted((int(owner), count) for owner, count in data["gifts"].items())),
        points=data["points"],
    )


def _front(costs: set[tuple[int, int]]) -> list[list[int]]:
    return [
        list(c)
        for c in sorted(costs)
        if not any(d != c and d[0] <= c[0] and d[1] <= c[1] for d in costs)
    ]


def _check_report(
    data: dict[str, Any], position: Position, constraints: Constraints, *, card_level: bool = False
) -> None:
    """Every option is legal under the constraints, consistent, and the fronts match (R4–R9)."""
    assert data["format"] == "pastiche-publishes"
    assert data["version"] == 1
    assert data["player"] == position.player
    costs: dict[str, set[tuple[int, int]]] = {}
    seen = set()
    for entry in data["options"]:
        option = _option(entry)
        assert check_option(position, option, constraints) is None, entry
        assert entry["played_count"] == len(entry["played"]) == option.played_count
        assert entry["gift_count"] == sum(entry["gifts"].values()) == option.gift_count
        assert entry["instant_masterpiece"] == (entry["played_count"] == 1)
        assert entry["points"] == position.catalogue[entry["novel"]].points
        key = json.dumps(entry, sort_keys=True)
        assert key not in seen, "an option listed twice"
        seen.add(key)
        costs.setdefault(option.novel, set()).add(option.costs)
    assert set(data["pareto"]) == set(costs)
    if data["complete"]:
        for novel, front in data["pareto"].items():
            assert front == _front(costs[novel]), novel
    if not card_level:
        assert all(count <= 1 for count in _rank_keys(data, position).values())


def _rank_keys(data: dict[str, Any], position: Position) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    for entry in data["options"]:
        key = option_key(position, _option(entry))
        counts[key] = counts.get(key, 0) + 1
    return counts


# ----------------------------------------------------------------------
# The command and its JSON
# ----------------------------------------------------------------------
def test_publishes_is_a_command() -> None:
    assert [command.name for command in COMMANDS][:2] == ["simulate", "publishes"]
    args = build_parser().parse_args(["publishes", "p.json"])
    assert (args.position, args.json, args.engine, args.card_level, args.time_limit) == (
        "p.json",
        False,
        "fast",
        False,
        10.0,
    )
    assert (args.keep, args.no_cite, args.max_gifts, args.min_points) == (None, None, None, None)
    assert ENGINES == ("fast", "cpsat")


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, ["publishes", "--help"])
    assert status == 0
    for flag in (
        "--json",
        "--engine",
        "--card-level",
        "--time-limit",
        "--keep",
        "--no-cite",
        "--max-gifts",
        "--min-points",
        "POSITION.json",
    ):
        assert flag in out
    status, out, _ = _run(capsys, ["--help"])
    assert "publishes" in out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_json_for_every_example_and_engine(
    capsys: pytest.CaptureFixture[str], name: str, engine: str
) -> None:
    path = EXAMPLES / f"{name}.json"
    data = _publishes_json(capsys, [str(path), "--engine", engine])
    assert data["engine"] == engine
    position, constraints = load_query(path)
    _check_report(data, position, constraints)
    assert data["options"], f"{name}: the example has publish options"


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_engines_agree(capsys: pytest.CaptureFixture[str], name: str) -> None:
    path = str(EXAMPLES / f"{name}.json")
    fast = _publishes_json(capsys, [path, "--engine", "fast"])
    cpsat = _publishes_json(capsys, [path, "--engine", "cpsat", "--time-limit", "60"])
    if fast["complete"] and cpsat["complete"]:
        assert sorted(json.dumps(o, sort_keys=True) for o in fast["options"]) == sorted(
            json.dumps(o, sort_keys=True) for o in cpsat["options"]
        )
        assert fast["pareto"] == cpsat["pareto"]


def test_card_level_json(capsys: pytest.CaptureFixture[str]) -> None:
    distinct = _publishes_json(capsys, [JEROME])
    data = _publishes_json(capsys, [JEROME, "--card-level"])
    position, constraints = load_query(JEROME)
    _check_report(data, position, constraints, card_level=True)
    assert len(data["options"]) >= len(distinct["options"])
    assert data["pareto"] == distinct["pareto"]


def test_card_level_is_for_the_fast_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, ["publishes", JEROME, "--engine", "cpsat", "--card-level"])
    _assert_one_line_error(status, out, err, "card-level")


def test_jerome_publishes_five_of_a_kind(capsys: pytest.CaptureFixture[str]) -> None:
    data = _publishes_json(capsys, [JEROME])
    assert data["complete"] is True
    assert {
        "novel": "kind-5",
        "played": ["MYS7", "FAN7"],
        "cited": ["0:pairs-3", "1:straight-5", "1:kind-3"],
        "gifts": {"1": 2},
        "played_count": 2,
        "gift_count": 2,
        "points": 6,
        "instant_masterpiece": False,
    } in data["options"]
    assert data["pareto"]["kind-5"] == [[2, 2]]


def test_json_is_identical_across_processes() -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "pastiche_core",
                "publishes",
                str(EXAMPLES / "midgame.json"),
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.append(completed.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["options"]


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from_file = _publishes_json(capsys, [JEROME])
    text = Path(JEROME).read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert _publishes_json(capsys, ["-"]) == from_file
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    assert _publishes_json(capsys, ["-"]) == from_file


def test_stdin_in_a_subprocess() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "publishes", "-", "--json"],
        input=Path(JEROME).read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert json.loads(completed.stdout)["player"] == 0


def test_a_catalogue_next_to_the_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cats").mkdir()
    (tmp_path / "cats" / "pairs.toml").write_text(
        "\n".join(
            [
                'name = "pairs"',
                "[[novels]]",
                'id = "pair"',
                'name = "A Pair"',
                'kind = "kind"',
                "count = 2",
                "points = 4",
                "copies = 2",
                "[[novels]]",
                'id = "end-flag"',
                'name = "End Flag"',
                'kind = "end-flag"',
                "points = 1",
                "copies = 1",
            ]
        ),
        encoding="utf-8",
    )
    doc = {
        "player": 0,
        "hand": ["SCI7", "HOR8"],
        "masterpieces": [{"id": "m1", "owner": 1, "card": "MYS7"}],
        "catalogue": "cats/pairs.toml",
    }
    (tmp_path / "p.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.chdir(ROOT)
    data = _publishes_json(capsys, [str(tmp_path / "p.json")])
    assert [(o["novel"], o["played"], o["cited"], o["points"]) for o in data["options"]] == [
        ("pair", ["SCI7"], ["m1"], 4)
    ]
    assert data["pareto"] == {"pair": [[1, 1]]}


# ----------------------------------------------------------------------
# Constraints
# ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flags", "constraints"),
    [
        (["--max-gifts", "1"], Constraints(max_gifts=1)),
        (["--max-gifts", "0"], Constraints(max_gifts=0)),
        (["--min-points", "2"], Constraints(min_points=2)),
        (["--no-cite", "1"], Constraints(no_cite=frozenset({1}))),
        (["--no-cite", "0, 1"], Constraints(no_cite=frozenset({0, 1}))),
        (["--keep", "MYS7"], Constraints(keep=frozenset({Card.parse("MYS7")}))),
        (["--keep", "MYT6,sci9"], Constraints(keep=frozenset(map(Card.parse, ["MYT6", "SCI9"])))),
    ],
)
def test_constraint_flags(
    capsys: pytest.CaptureFixture[str], flags: list[str], constraints: Constraints
) -> None:
    position, _ = load_query(JEROME)
    unconstrained = _publishes_json(capsys, [JEROME])
    data = _publishes_json(capsys, [JEROME, *flags])
    _check_report(data, position, constraints)
    kept = [
        o
        for o in unconstrained["options"]
        if check_option(position, _option(o), constraints) is None
    ]
    if constraints.keep:  # the same ranks may still be played, with other cards (R8)
        assert set(_rank_keys(data, position)) <= set(_rank_keys(unconstrained, position))
    else:
        assert data["options"] == kept
    assert len(data["options"]) < len(unconstrained["options"])


def test_flags_replace_the_files_constraints(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "midgame.json")
    position, given = load_query(path)
    assert given == Constraints(no_cite=frozenset({3}), max_gifts=2)
    data = _publishes_json(capsys, [path, "--max-gifts", "3"])
    replaced = dataclasses.replace(given, max_gifts=3)
    _check_report(data, position, replaced)
    assert max(o["gift_count"] for o in data["options"]) == 3
    cleared = _publishes_json(capsys, [path, "--no-cite", ""])
    _check_report(cleared, position, dataclasses.replace(given, no_cite=frozenset()))
    cited = {position.masterpiece(i).owner for o in cleared["options"] for i in o["cited"]}
    assert 3 in cited


# ----------------------------------------------------------------------
# The readable report
# ----------------------------------------------------------------------
def test_table_for_jerome(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, ["publishes", JEROME])
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "player 0, engine fast"
    assert lines[1] == "hand: MYT6 SCI9 MYS7 FAN7"
    assert lines[2].startswith("masterpieces: 0:pairs-3 SCI7 (player 0), 1:straight-5 HOR7")
    header = next(line for line in lines if line.startswith("novel"))
    for column in ("cards played", "cited", "gifts owed", "played", "gifts", "points"):
        assert column in header
    kind5 = next(line for line in lines if line.startswith("kind-5"))
    assert kind5.split() == [
        "kind-5",
        "MYS7",
        "FAN7",
        "0:pairs-3",
        "1:straight-5",
        "1:kind-3",
        "1:?",
        "1:?",
        "2",
        "2",
        "6",
    ]
    assert any(line.endswith("*") for line in lines if line.startswith("kind-3"))
    assert "* instant Masterpiece: one card played (R7)" in lines
    fronts = lines.index("options and Pareto front of (played, gifts) per novel (R9):")
    assert [line.split()[0] for line in lines[fronts + 1 :]] == ["kind-3", "kind-5"]
    assert lines[-1].split() == ["kind-5", "1", "option", "(2,", "2)"]
    assert "warning" not in out
    assert "note" not in out


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_table_for_every_example(capsys: pytest.CaptureFixture[str], name: str) -> None:
    path = str(EXAMPLES / f"{name}.json")
    status, out, err = _run(capsys, ["publishes", path])
    assert (status, err) == (0, "")
    data = _publishes_json(capsys, [path])
    count = len(data["options"])
    assert f"{count} publish option{'s' if count != 1 else ''}:" in out
    for novel in data["pareto"]:
        assert f"  {novel} " in out
    if name == "midgame":
        assert "constraints: not citing player 3; at most 2 gifts" in out


def test_table_without_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    path.write_text(json.dumps(position_to_dict(Position.quick("SCI3 MAG13"))), encoding="utf-8")
    status, out, _ = _run(capsys, ["publishes", str(path)])
    assert status == 0
    assert "no publish option" in out
    assert "Pareto" not in out
    data = _publishes_json(capsys, [str(path)])
    assert (data["options"], data["pareto"]) == ([], {})


def test_an_incomplete_search_warns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = solver.solve

    def stopped(*args: Any, **kwargs: Any) -> Any:
        assert kwargs["time_limit"] == 2.5
        return dataclasses.replace(real(*args, **kwargs), stopped_by="time_limit")

    monkeypatch.setattr(cli_commands, "solve", stopped)
    status, out, err = _run(capsys, ["publishes", JEROME, "--time-limit", "2.5"])
    assert (status, err) == (0, "")
    assert out.splitlines()[-1].startswith("warning: the search stopped at the time limit (2.5 s)")
    status, out, err = _run(capsys, ["publishes", JEROME, "--time-limit", "2.5", "--json"])
    assert status == 0
    assert json.loads(out)["complete"] is False
    assert json.loads(out)["stopped_by"] == "time_limit"
    assert err.count("\n") == 1
    assert err.startswith("pastiche: warning: the search stopped at the time limit (2.5 s)")


def test_max_options_lists_a_share_and_counts_everything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    full = _publishes_json(capsys, [JEROME])
    assert full["complete"] is True
    assert full["stopped_by"] is None
    total = sum(full["counts"].values())
    assert total == len(full["options"]) > 2
    cut = _publishes_json(capsys, [JEROME, "--max-options", "2"])
    assert (cut["complete"], cut["stopped_by"]) == (False, "max_options")
    assert len(cut["options"]) == 2
    assert (cut["counts"], cut["pareto"]) == (full["counts"], full["pareto"])
    assert {option["novel"] for option in cut["options"]} == set(full["counts"])
    status, out, err = _run(capsys, ["publishes", JEROME, "--max-options", "2"])
    assert (status, err) == (0, "")
    assert f"2 of {total} publish options (max_options 2):" in out
    assert out.splitlines()[-1] == (
        "note: the listing stopped at max_options (2); the counts and fronts are complete"
    )


def test_the_solver_gets_the_query(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Position, dict[str, Any]]] = []
    real = solver.solve

    def spy(position: Position, **kwargs: Any) -> Any:
        calls.append((position, kwargs))
        return real(position, **kwargs)

    monkeypatch.setattr(cli_commands, "solve", spy)
    path = str(EXAMPLES / "midgame.json")
    argv = ["publishes", path, "--engine", "cpsat", "--time-limit", "7", "--min-points", "3"]
    assert _run(capsys, argv)[0] == 0
    assert _run(capsys, ["publishes", JEROME, "--card-level"])[0] == 0
    position, given = load_query(path)
    assert calls == [
        (
            position,
            {
                "engine": "cpsat",
                "constraints": dataclasses.replace(given, min_points=3),
                "card_level": False,
                "time_limit": 7.0,
                "max_options": CLI_MAX_OPTIONS,
            },
        ),
        (
            load_query(JEROME)[0],
            {
                "engine": "fast",
                "constraints": Constraints(),
                "card_level": True,
                "time_limit": 10.0,
                "max_options": CLI_MAX_OPTIONS,
            },
        ),
    ]


# ----------------------------------------------------------------------
# Bad input: one line on stderr, status 2, never a traceback
# ----------------------------------------------------------------------
BAD_DOCUMENTS = [
    ("{", "$: not valid JSON: "),
    ("", "$: no input: expected a position, view or state JSON object"),
    ("[]", "$: expected an object, got an array"),
    (
        '{"player": 0, "hand": ["MYS7", "FAN7", "LOV1"], "masterpieces": []}',
        "$.hand[2]: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)",
    ),
    (
        '{"player": 0, "hand": ["MYS7"], "masterpieces": [{"id": "m1", "owner": 1, "card": "MYS7"}]}',
        "$.masterpieces[0].card: card MYS7 listed twice (also at $.hand[0])",
    ),
    ('{"player": 0, "hand": [], "masterpieces": [], "colour": "red"}', "$.colour: unknown field"),
    (
        '{"player": 0, "hand": [], "masterpieces": [], "held_novels": ["kind-4"]}',
        "$.held_novels[0]: unknown novel id 'kind-4'",
    ),
    (
        '{"player": 0, "hand": [], "masterpieces": [], "catalogue": "none.toml"}',
        "$.catalogue: catalogue ",
    ),
    (
        '{"player": 0, "hand": ["SCI9"], "masterpieces": [], "constraints": {"keep": ["HOR7"]}}',
        "$.constraints.keep[0]: card HOR7 is not in the hand",
    ),
]


def _assert_one_line_error(status: int, out: str, err: str, message: str) -> None:
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"pastiche: error: {message}"), err
    assert "Traceback" not in err


@pytest.mark.parametrize(("text", "message"), BAD_DOCUMENTS)
def test_bad_positions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    _assert_one_line_error(*_run(capsys, ["publishes", str(path), "--json"]), message)
    _assert_one_line_error(*_run(capsys, ["publishes", str(path)]), message)


@pytest.mark.parametrize(("text", "message"), BAD_DOCUMENTS)
def test_bad_positions_on_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    _assert_one_line_error(*_run(capsys, ["publishes", "-"]), message)


def test_missing_file_and_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    _assert_one_line_error(
        *_run(capsys, ["publishes", str(missing)]), f"position file '{missing}': no such file"
    )
    _assert_one_line_error(*_run(capsys, ["publishes", str(tmp_path)]), "position file ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["publishes"], "the following arguments are required: POSITION.json"),
        ([JEROME, "--engine", "slow"], "argument --engine: invalid choice: 'slow'"),
        ([JEROME, "--time-limit", "0"], "argument --time-limit: time limit must be more than 0"),
        ([JEROME, "--time-limit", "-1"], "argument --time-limit: time limit must be more than 0"),
        ([JEROME, "--time-limit", "nan"], "argument --time-limit: time limit must be more than 0"),
        ([JEROME, "--time-limit", "soon"], "argument --time-limit: time limit must be a number"),
        ([JEROME, "--max-gifts", "-1"], "argument --max-gifts: max gifts must be at least 0"),
        ([JEROME, "--min-points", "x"], "argument --min-points: min points must be an integer"),
        ([JEROME, "--no-cite", "1,x"], "argument --no-cite: expected player seats such as '1,2'"),
        ([JEROME, "--no-cite", "-1"], "argument --no-cite: expected player seats"),
        ([JEROME, "--keep", "SCI10"], "argument --keep: invalid card 'SCI10'"),
        ([JEROME, "--keep", "HOR7"], "argument --keep: HOR7 not in the hand"),
        ([JEROME, "--keep", "SCI9 HOR7 MAG13"], "argument --keep: HOR7 MAG13 not in the hand"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    if argv[0] != "publishes":
        argv = ["publishes", *argv]
    _assert_one_line_error(*_run(capsys, argv), message)


def test_python_dash_m_reports_a_bad_position(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"player": 0, "hand": ["MYS7", "FAN7", "LOV1"], "masterpieces": []}', encoding="utf-8"
    )
    completed = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "publishes", "bad.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == (
        "pastiche: error: $.hand[2]: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)\n"
    )


def test_python_dash_m_reports_empty_stdin() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "publishes", "-"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stderr == (
        "pastiche: error: $: no input: expected a position, view or state JSON object\n"
    )
    assert "Traceback" not in completed.stderr


def test_bad_input_never_reaches_the_solver(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Positions and flags are checked before the solver is called."""

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the solver was called")

    monkeypatch.setattr(cli_commands, "solve", unreachable)
    path = tmp_path / "bad.json"
    path.write_text('{"player": -1, "hand": [], "masterpieces": []}', encoding="utf-8")
    _assert_one_line_error(
        *_run(capsys, ["publishes", str(path)]), "$.player: expected an integer >= 0, got -1"
    )
    _assert_one_line_error(
        *_run(capsys, ["publishes", JEROME, "--keep", "HOR7"]), "argument --keep: HOR7"
    )
    with pytest.raises(InvalidStateError):
        load_query(path)


@pytest.mark.parametrize("columns", ["80", "60", "200"])
def test_the_publishes_table_fits_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["publishes", "examples/positions/midgame.json"]) == 0
    out = capsys.readouterr().out
    assert "31 publish options:" in out
    assert max(len(line) for line in out.splitlines()) <= int(columns)
