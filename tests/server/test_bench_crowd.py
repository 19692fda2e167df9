"""``benchmarks/bench_attack.py --crowd``: every crowd mode runs end to end with short phases and
small crowds, on 127.0.0.0/8 only, and reports each phase's honest routes, memory peaks and goals
in a table of at most 80 columns. Child processes only, every wait bounded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_attack.py"
MODES = ("addresses", "slow-readers", "bots", "heavy", "games")


def _bench(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_bad_crowd_sizes_are_one_line_and_status_2() -> None:
    done = _bench("--crowd", "addresses", "--crowd-connections", "0", timeout=60)
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith("durations must be positive and crowd sizes at least 1")
    )
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_every_crowd_mode_reports_its_phases_and_goals(tmp_path: Path) -> None:
    figures = tmp_path / "crowd.json"
    done = _bench(
        "--crowd", "all", "--quiet", "1.5", "--attack", "3", "--after", "1.5",
        "--crowd-addresses", "2", "--crowd-connections", "2", "--pipeline", "2",
        "--bot-games", "2", "--json", str(figures), timeout=240,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr[-2000:]  # 1: a goal failed, as it may here
    assert "Traceback" not in done.stderr
    assert [line for line in done.stdout.splitlines() if len(line) > 80] == []
    reports = json.loads(figures.read_text())
    assert [report["mode"] for report in reports] == list(MODES)
    for report in reports:
        mode = report["mode"]
        assert report["crowd_addresses"] == 2
        assert report["tracebacks"] == 0, mode
        # The crowd reached the server: something was opened or answered.
        assert sum(report["crowd"]["tally"].values()) > 0, mode
        for phase in ("quiet", "attack", "after"):
            figures_of = report["phases"][phase]
            assert figures_of["routes"]["health"]["requests"] > 0, (mode, phase)
            assert 0 < figures_of["server_mb"] < 2_000, (mode, phase)
            assert figures_of["workers_mb"] > 0, (mode, phase)  # the workers were found
        quiet = report["phases"]["quiet"]["routes"]
        assert quiet["health"]["answered"] == 1.0, mode  # no crowd yet
        assert quiet["health"]["p99_x_quiet"] == 1.0
        # A new player at each phase's start and halfway through the attack.
        assert sorted(event[:2] for event in report["events"]) == [
            ["after", "after"], ["attack", "attack"], ["attack, halfway", "attack"],
            ["quiet", "quiet"],
        ], mode  # fmt: skip
        goals = [goal["goal"] for goal in report["goals"]]
        assert len(goals) == 5
        assert all(isinstance(goal["pass"], bool) for goal in report["goals"])
        verdicts = [line for line in done.stdout.splitlines() if line.startswith("  PASS")]
        assert len(verdicts) + done.stdout.count("  FAIL ") == 5 * len(MODES)
    slow = next(report for report in reports if report["mode"] == "slow-readers")
    # The slow readers asked for a large cached answer, about 1.8 MB.
    assert any(what.startswith("large answer: 200, 1.8 MB") for what in slow["crowd"]["tally"])
    games = next(report for report in reports if report["mode"] == "games")
    # Two addresses create their share of games (10 each), then are refused.
    assert 0 < games["crowd"]["tally"].get("answered 201", 0) <= 20
    assert games["crowd"]["tally"].get("answered 429", 0) > 0
