"""The command line: JSON output, determinism, and one-line errors with status 2."""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pastiche_core
from pastiche_core import _version, cli
from pastiche_core.cli import COMMANDS, Command, ProgressBar, build_parser, main
from pastiche_core.cli import commands as cli_commands
from pastiche_core.data.errors import (
    InvalidCatalogueError,
    InvalidNotationError,
    InvalidStateError,
    PasticheError,
)
from pastiche_core.engine._kernels import KernelReport

SIMULATE = ["simulate", "--players", "3", "--games", "2", "--seed", "5"]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, [*SIMULATE, "--json"])
    assert status == 0
    assert err == ""
    data = json.loads(out)
    assert (data["players"], data["games"], data["seed"]) == (3, 2, 5)
    assert sum(data["endings"].values()) == 2
    assert len(data["wins_by_seat"]) == 3
    assert out == json.dumps(data, sort_keys=True, indent=2) + "\n"


def test_simulate_json_is_identical_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, [*SIMULATE, "--json"])
    second = _run(capsys, [*SIMULATE, "--json"])
    assert first == second
    other = _run(capsys, ["simulate", "--players", "3", "--games", "2", "--seed", "6", "--json"])
    assert json.loads(other[1])["seed"] == 6
    assert other[1] != first[1]


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, SIMULATE)
    assert status == 0
    assert out.startswith("2 games, 3 players, seed 5, catalogue 'default'\n")
    assert "endings: countdown" in out
    assert err == ""  # not a terminal: no progress bar


def test_simulate_with_a_catalogue_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "quick.toml"
    path.write_text(
        "\n".join(
            [
                'name = "quick"',
                "[[novels]]",
                'id = "kind-3"',
                'name = "3 of a Kind"',
                'kind = "kind"',
                "count = 3",
                "points = 5",
                "copies = 5",
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
    status, out, _ = _run(capsys, [*SIMULATE, "--json", "--catalogue", str(path)])
    assert status == 0
    assert json.loads(out)["catalogue"] == "quick"


def test_forced_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, [*SIMULATE, "--json", "--progress"])
    assert status == 0
    json.loads(out)  # stdout holds only the JSON
    assert "2/2 games" in err
    assert err.count("\n") == 1, "one line, ended when the run is done"


def test_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, [*SIMULATE, "--no-progress"])
    assert status == 0
    assert err == ""


def test_progress_bar_is_silent_off_a_terminal() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    assert not bar.enabled
    bar(1, 1)
    bar.close()
    assert stream.getvalue() == ""


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, ["--help"])
    assert status == 0
    assert out.startswith("usage: pastiche")
    assert "simulate" in out
    status, out, _ = _run(capsys, ["simulate", "--help"])
    assert status == 0
    assert "--players" in out


def test_no_command_prints_the_usage_and_one_error_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, [])
    assert status == 2
    assert out.startswith("usage: pastiche")
    assert all(f"    {name} " in out or f"    {name}\n" in out for name in ("simulate", "serve"))
    assert max(len(line) for line in out.splitlines()) <= 80
    assert err == "pastiche: error: no command given: choose one of the commands above\n"


BAD_TOML = "novels = [\n"
INVALID_CATALOGUE = '[[novels]]\nid = "x"\npoints = 1\n'


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--players", "7"], "players must be from 3 to 5"),
        (["simulate", "--players", "2"], "players must be from 3 to 5"),
        (["simulate", "--players", "four"], "players must be an integer"),
        (["simulate", "--games", "0"], "games must be at least 1"),
        (["simulate", "--seed", "x"], "seed must be an integer"),
        (["simulate", "--catalogue", "no/such/file.toml"], "no such file"),
        (["simulate", "--catalogue", "{bad}"], "catalogue TOML does not parse"),
        (["simulate", "--catalogue", "{invalid}"], "missing field 'name'"),
        (["simulate", "--bogus"], "unrecognized arguments"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    invalid = tmp_path / "invalid.toml"
    invalid.write_text(INVALID_CATALOGUE, encoding="utf-8")
    argv = [arg.replace("{bad}", str(bad)).replace("{invalid}", str(invalid)) for arg in argv]
    status, out, err = _run(capsys, argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("pastiche: error: ")
    assert message in err
    assert "Traceback" not in err


def test_library_errors_become_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("first line\nsecond line")

    monkeypatch.setattr(cli_commands, "simulate", broken)
    status, out, err = _run(capsys, SIMULATE)
    assert (status, out) == (2, "")
    assert err == "pastiche: error: first line second line\n"


def test_interrupt_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_commands, "simulate", interrupted)
    status, _, err = _run(capsys, SIMULATE)
    assert status == 130
    assert err == "pastiche: interrupted\n"


def test_a_new_subcommand_plugs_in() -> None:
    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--name", default="world")

    def run(args: argparse.Namespace) -> int:
        return 0 if args.name == "pastiche" else 1

    hello = Command("hello", "say hello", configure, run)
    args = build_parser((*COMMANDS, hello)).parse_args(["hello", "--name", "pastiche"])
    assert args.command == "hello"
    assert args.run(args) == 0


def test_python_dash_m_reports_bad_players() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "simulate", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.count("\n") == 1
    assert completed.stderr.startswith("pastiche: error: ")
    assert "players must be from 3 to 5" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_json_is_identical_across_processes(capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing may depend on string hashing, which changes from process to process.
    outputs = []
    for hash_seed in ("1", "2"):
        completed = subprocess.run(
            [sys.executable, "-m", "pastiche_core", *SIMULATE, "--json"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.append(completed.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0] == _run(capsys, [*SIMULATE, "--json"])[1]


# ----------------------------------------------------------------------
# Hostile arguments: every one is a single printable line and status 2
# ----------------------------------------------------------------------
HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--players", "\u0663"], "players must be an integer"),  # Arabic-Indic 3
        (["simulate", "--players", "\u00b3"], "players must be an integer"),  # superscript 3
        (["simulate", "--players", "1_0"], "players must be an integer"),
        (["simulate", "--players", " 4"], "players must be an integer"),
        (["simulate", "--seed", HUGE], "seed must be an integer of at most 20 digits"),
        (["simulate", "--games", HUGE], "games must be an integer of at most 20 digits"),
        (["simulate", "--players", "\x00"], "players must be an integer"),
        (["simulate", "--players", "\ud800"], "players must be an integer"),
        (["publishes", "x.json", "--no-cite", HUGE], "expected player seats such as '1,2'"),
        (["publishes", "x.json", "--no-cite", "1,5"], "player seats are 0 to 4 (R10), got '5'"),
        (["publishes", "x.json", "--no-cite", "\u00b2"], "expected player seats"),
        (["publishes", "x.json", "--keep", "SCI\u00b2"], "invalid card 'SCI\u00b2'"),
        (["publishes", "x.json", "--keep", "SCI9 " * 2000], "longer than 4,096 characters"),
        (["publishes", "x.json", "--max-gifts", "\u0661"], "max gifts must be an integer"),
        (["publishes", "x.json", "--time-limit", "\u0661"], "time limit must be a number"),
        (["publishes", "x.json", "--time-limit", "1" * 400], "time limit must be a number"),
        (["publishes", "x.json", "--time-limit", "1e999"], "time limit must be more than 0"),
        (["fly" + "\x1b[2J" * 1000], "invalid choice"),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 40 else None,
)
def test_hostile_arguments_are_one_printable_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, argv)
    assert (status, out) == (2, "")
    line = err.removesuffix("\n")
    assert "\n" not in line
    assert line.startswith("pastiche: error: ")
    assert message.encode("unicode_escape").decode("ascii") in line or message in line
    assert line.isprintable()
    assert len(line) < 600


@pytest.mark.parametrize(
    ("raised", "message"),
    [
        (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
        (MemoryError(), "too large to hold in memory"),
        (ValueError("bad '\x00\ud800\x1b[31m'\r\nsecond"), r"bad '\x00\ud800\x1b[31m' second"),
        (ValueError("x" * 100_000), "... (100,000 characters)"),
        (ValueError(""), "unknown error"),
    ],
    ids=["recursion", "memory", "control-characters", "long", "empty"],
)
def test_main_reports_input_errors_on_one_printable_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    raised: BaseException,
    message: str,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(cli_commands, "simulate", broken)
    status, out, err = _run(capsys, SIMULATE)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("pastiche: error: ")
    assert message in err
    assert err.rstrip("\n").isprintable()
    assert len(err) < 600


def test_every_pastiche_error_is_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for error in (PasticheError, InvalidNotationError, InvalidStateError, InvalidCatalogueError):

        def broken(*args: object, error: type[PasticheError] = error, **kwargs: object) -> None:
            raise error(f"{error.__name__} here")

        monkeypatch.setattr(cli_commands, "simulate", broken)
        status, out, err = _run(capsys, SIMULATE)
        assert (status, out) == (2, "")
        assert err == f"pastiche: error: {error.__name__} here\n"


def test_error_line_is_short_and_printable_for_any_text() -> None:
    for text in ["\ud800" * 1000, "\x00" * 1000, "\u2028".join("ab"), "é ok", ""]:
        line = cli._error_line(text)
        assert line.startswith("pastiche: error: ")
        assert line.isprintable()
        assert len(line) < 600
    assert cli._error_line("é ok") == "pastiche: error: é ok"  # printable text stays as it is


# ----------------------------------------------------------------------
# --version: the one version, and whether the compiled kernels answer
# ----------------------------------------------------------------------
def _report(available: bool, reason: str | None) -> KernelReport:
    return KernelReport(available, reason, ())


def test_version_says_the_compiled_kernels_are_in_use(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "compiled_kernels", lambda: _report(True, None))
    status, out, err = _run(capsys, ["--version"])
    assert (status, err) == (0, "")
    assert out == f"pastiche {pastiche_core.__version__} (compiled kernels: in use)\n"


def test_version_says_why_the_compiled_kernels_are_off(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long reason stays on one line, as it is (argparse's version action would rewrap it).
    reason = "not built (No module named 'pastiche_core.engine._speedups'" + ", and more" * 20 + ")"
    monkeypatch.setattr(cli, "compiled_kernels", lambda: _report(False, reason))
    status, out, err = _run(capsys, ["--version"])
    assert (status, err) == (0, "")
    assert out == f"pastiche {pastiche_core.__version__} (compiled kernels: off: {reason})\n"
    # --version answers before any subcommand is parsed or run.
    assert _run(capsys, ["--version", "simulate", "--players", "9"])[:2] == (0, out)


def test_the_version_has_one_home() -> None:
    assert pastiche_core.__version__ == _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", pastiche_core.__version__)
    assert pastiche_core.__version__ in cli._version_line()


def _version_in_a_process(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "PASTICHE_PURE_PYTHON"}
    return subprocess.run(
        [sys.executable, "-m", "pastiche_core", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**clean, **env},
    )


def test_version_in_a_pure_python_process_says_off() -> None:
    completed = _version_in_a_process(PASTICHE_PURE_PYTHON="1")
    assert (completed.returncode, completed.stderr) == (0, "")
    assert completed.stdout == (
        f"pastiche {pastiche_core.__version__} (compiled kernels: off: PASTICHE_PURE_PYTHON is set)\n"
    )


def test_version_in_a_process_tells_the_truth_about_the_build() -> None:
    completed = _version_in_a_process()
    assert (completed.returncode, completed.stderr) == (0, "")
    built = importlib.util.find_spec("pastiche_core.engine._speedups") is not None
    if built or os.environ.get("PASTICHE_REQUIRE_SPEEDUPS"):
        expected = "(compiled kernels: in use)"
    else:
        expected = "(compiled kernels: off: not built ("
    assert completed.stdout.startswith(f"pastiche {pastiche_core.__version__} {expected}")
    assert completed.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["hint", "examples/positions/midgame.json"],
            "this is a publish position: `pastiche publishes` answers it",
        ),
    ],
)
def test_a_document_of_another_kind_names_its_kind_and_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = _run(capsys, argv)
    assert status == 2
    assert out == ""
    assert says in err
    assert err.count("\n") == 1


def test_a_piped_tournament_reports_each_game_in_a_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["tournament", "--bots", "greedy,random,random", "--games", "3", "--workers", "1"]
    status, _, err = _run(capsys, argv)
    assert status == 0
    assert [line.split(",")[0] for line in err.splitlines()] == [
        "game 1/3 done",
        "game 2/3 done",
        "game 3/3 done",
    ]
    status, out, err = _run(capsys, [*argv, "--json"])
    assert (status, err) == (0, "")
    assert json.loads(out)["games"] == 3
