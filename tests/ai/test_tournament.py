"""Tournaments: the seat rotation, the figures, identical results however run, the CLI."""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from pastiche_core import Catalogue
from pastiche_core.ai import (
    MAX_TOURNAMENT_GAMES,
    GameTask,
    TournamentResult,
    run_in_pool,
    run_in_process,
    run_tournament,
    runners,
    schedule,
    tournament,
    wilson_interval,
)
from pastiche_core.ai.search import DEFAULT_BUDGET_MS
from pastiche_core.ai.tournament import bot_limits, without_cpu
from pastiche_core.bots.play import DecisionLimitError
from pastiche_core.bots.simulate import game_seed
from pastiche_core.cli import main
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.engine.game import GameResult

BOTS = ["greedy", "random", "random"]
HAS_RAY = importlib.util.find_spec("ray") is not None


@pytest.fixture(scope="module")
def small() -> TournamentResult:
    """One deal played from every seat, in this process."""
    return run_tournament(BOTS, games=3, seed=3)


# ----------------------------------------------------------------------
# The scheme
# ----------------------------------------------------------------------
def test_each_bot_plays_each_seat_equally_on_shared_deals() -> None:
    tasks = schedule(["greedy", "search", "random", "random", "random"], games=10, seed=9)
    seats: Counter[tuple[str, int]] = Counter()
    for task in tasks:
        for seat, name in enumerate(task.bots):
            seats[(name, seat)] += 1
    assert all(seats[("greedy", seat)] == 2 for seat in range(5))
    assert all(seats[("random", seat)] == 6 for seat in range(5))
    assert [task.seed for task in tasks] == [game_seed(9, g // 5) for g in range(10)]
    assert tasks[1].bots == ("search", "random", "random", "random", "greedy")


def test_standings_count_shared_wins_as_fractions_and_margins() -> None:
    tasks = [GameTask(seed=0, bots=("a", "b", "b")), GameTask(seed=1, bots=("b", "b", "a"))]
    results = [
        GameResult((10, 10, 4), (3, 4, 2), (0, 1), "countdown"),  # a shares the win with a b
        GameResult((5, 9, 12), (2, 3, 4), (2,), "countdown"),  # a wins alone
    ]
    a, b = tournament._standings(tasks, results)
    assert (a.name, a.games, a.wins) == ("a", 2, 1.5)
    assert (b.name, b.games, b.wins) == ("b", 4, 0.5)
    assert a.mean_score == 11
    assert a.mean_margin == (0 + 3) / 2
    assert b.mean_margin == (0 + -6 + -7 + -3) / 4
    assert a.win_rate == 0.75


@pytest.mark.parametrize(("wins", "games"), [(0, 10), (3, 10), (10, 10), (151.5, 200), (1, 1)])
def test_wilson_interval_holds_the_rate(wins: float, games: int) -> None:
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    assert high - low < 2 * 1.96 * math.sqrt(0.25 / games) + 1e-9


def test_wilson_interval_matches_the_formula() -> None:
    low, high = wilson_interval(40, 100)  # p = 0.4, n = 100: the textbook 0.3094 .. 0.4980
    assert (round(low, 4), round(high, 4)) == (0.3094, 0.4980)
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ----------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------
def test_the_json_follows_the_contract(small: TournamentResult) -> None:
    data = small.to_dict()
    # The contract's keys, then those added since: the limits and the CPU times.
    assert list(data) == [
        "format",
        "version",
        "players",
        "games",
        "seed",
        "catalogue",
        "bots",
        "max_decisions",
        "cpu_seconds",
    ]
    assert (data["format"], data["version"], data["players"], data["games"], data["seed"]) == (
        "pastiche-tournament",
        1,
        3,
        3,
        3,
    )
    assert data["catalogue"] == "default"
    assert [bot["name"] for bot in data["bots"]] == ["greedy", "random"]
    greedy, random_ = data["bots"]
    assert list(greedy) == [
        "name",
        "games",
        "wins",
        "win_rate",
        "ci95",
        "mean_score",
        "mean_margin",
        "limits",
        "cpu_seconds",
    ]
    assert (greedy["limits"], random_["limits"]) == ({}, {})  # neither searches
    assert (greedy["games"], random_["games"]) == (3, 6)
    assert greedy["wins"] + random_["wins"] == pytest.approx(3)
    assert greedy["ci95"][0] <= greedy["win_rate"] <= greedy["ci95"][1]
    assert json.loads(json.dumps(data)) == data


def test_standings_by_name(small: TournamentResult) -> None:
    assert small.standing("greedy").games == 3
    assert small.standing("greedy").mean_margin > 0 > small.standing("random").mean_margin
    with pytest.raises(KeyError):
        small.standing("search")


def test_the_table_has_a_row_per_bot(small: TournamentResult) -> None:
    lines = small.format().splitlines()
    assert lines[0].startswith("3 games, 3 players, seed 3")
    assert "parity 33.3 %" in lines[0]
    assert [line.split()[0] for line in lines[2:]] == ["greedy", "random"]


def test_the_same_with_a_process_pool(small: TournamentResult) -> None:
    done: list[tuple[int, int]] = []
    pooled = run_tournament(
        BOTS, games=3, seed=3, workers=2, progress=lambda d, t: done.append((d, t))
    )
    assert pooled.to_dict(cpu=False) == small.to_dict(cpu=False)
    assert pooled == small  # the CPU times are measured, not compared
    assert done == [(1, 3), (2, 3), (3, 3)]


def test_a_pool_keeps_order_beyond_its_window() -> None:
    tasks = schedule(["random"] * 3, games=20, seed=4)  # 20 games, 8 in flight at most
    assert run_in_pool(tasks, workers=2) == run_in_process(tasks)


def test_a_failing_game_stops_the_pool() -> None:
    tasks = schedule(["random"] * 3, games=6, seed=4, max_decisions=5)
    with pytest.raises(DecisionLimitError):
        run_in_pool(tasks, workers=2)


@pytest.fixture
def local_ray() -> Iterator[Any]:
    if not HAS_RAY:
        pytest.skip("ray is not installed (the 'ray' extra)")
    import ray

    ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_the_same_on_ray(small: TournamentResult, local_ray: Any) -> None:
    on_ray = run_tournament(BOTS, games=3, seed=3, backend="ray")
    assert on_ray.to_dict(cpu=False) == small.to_dict(cpu=False)
    assert on_ray.cpu_seconds > 0  # measured in Ray's workers
    assert local_ray.is_initialized()  # an instance it did not start is left running
    out = io.StringIO()
    args = ["tournament", "--bots", ",".join(BOTS), "--games", "3", "--seed", "3", "--ray"]
    assert _run([*args, "--json"], out) == 0
    assert without_cpu(json.loads(out.getvalue())) == small.to_dict(cpu=False)


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "ray_available", lambda: False)
    with pytest.raises(InvalidArgumentError, match=r"pip install 'pastiche-core\[ray\]'"):
        run_tournament(BOTS, games=1, backend="ray")


def test_an_unreachable_cluster_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoCluster:
        """Stands in for the ray module: never initialised, and init cannot connect."""

        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**kwargs: Any) -> None:
            raise ConnectionError(f"could not connect to {kwargs.get('address')}")

    monkeypatch.setattr(runners, "_import_ray", lambda: NoCluster)
    with pytest.raises(
        InvalidArgumentError, match="cannot start or reach the Ray cluster at 'head:1'"
    ):
        run_tournament(BOTS, games=1, backend="ray", address="head:1")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["greedy", "random"]}, "one bot per seat, 3 to 5"),
        ({"bots": ["greedy"] * 6}, "one bot per seat, 3 to 5"),
        ({"bots": ["greedy", "random", "rando"]}, "unknown bot 'rando'"),
        ({"games": 0}, "games must be from 1 to 100,000, got 0"),
        ({"games": MAX_TOURNAMENT_GAMES + 1}, "games must be from 1 to 100,000"),
        ({"games": 2.0}, "games must be an integer"),
        ({"seed": "7"}, "seed must be an integer"),
        ({"workers": 0}, "workers must be from 1 to 256"),
        ({"backend": "threads"}, "unknown backend 'threads'"),
        ({"options": {"budget_ms": -5}}, "budget_ms must be an integer from 1 to 10000, got -5"),
        ({"options": {"catalogue": None}}, "catalogue argument"),
        ({"catalogue": "default"}, "catalogue must be a Catalogue"),
        ({"max_decisions": 0}, "max_decisions must be at least 1"),
    ],
)
def test_bad_input_is_rejected_before_any_game(
    kwargs: dict[str, Any], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_game(self: GameTask) -> GameResult:
        raise AssertionError("a game started")

    monkeypatch.setattr(GameTask, "run", no_game)
    monkeypatch.setattr(tournament.TimedTask, "run", no_game)  # what tournaments play
    call: dict[str, Any] = {"bots": ["greedy", "random", "random"], "games": 2, **kwargs}
    with pytest.raises(InvalidArgumentError, match=message):
        run_tournament(**call)


def test_bot_options_and_catalogues_pass_through() -> None:
    catalogue = Catalogue.default()
    a = run_tournament(["greedy", "random", "random"], 1, 2, options={"budget_ms": 5})
    b = run_tournament(["greedy", "random", "random"], 1, 2, catalogue=catalogue)
    # Neither bot searches: the budget changes nothing, and no limits are recorded.
    assert a.to_dict(cpu=False) == b.to_dict(cpu=False)


# ----------------------------------------------------------------------
# The command line
# ----------------------------------------------------------------------
def _run(args: list[str], out: io.StringIO, err: io.StringIO | None = None) -> int:
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err or io.StringIO()):
        return main(args)


def test_cli_json_is_the_same_however_run(small: TournamentResult) -> None:
    # The contract: no timings, so the document is identical for a seed whatever --workers.
    base = ["tournament", "--bots", ",".join(BOTS), "--games", "3", "--seed", "3", "--json"]
    one, two = io.StringIO(), io.StringIO()
    assert _run([*base, "--workers", "1"], one) == 0
    assert _run([*base, "--workers", "2", "--budget-ms", "100"], two) == 0
    assert one.getvalue() == two.getvalue()
    assert json.loads(one.getvalue()) == small.to_dict(cpu=False)


def test_cli_json_adds_cpu_times_when_asked(small: TournamentResult) -> None:
    base = ["tournament", "--bots", ",".join(BOTS), "--games", "3", "--seed", "3", "--json"]
    out = io.StringIO()
    assert _run([*base, "--workers", "1", "--cpu-times"], out) == 0
    document = json.loads(out.getvalue())
    assert document["cpu_seconds"] > 0
    assert all(bot["cpu_seconds"] >= 0 for bot in document["bots"])
    assert without_cpu(document) == small.to_dict(cpu=False)


def test_cli_table_and_progress() -> None:
    out, err = io.StringIO(), io.StringIO()
    args = ["tournament", "--bots", "greedy,random,random", "--games", "3", "--workers", "1"]
    assert _run([*args, "--progress"], out, err) == 0
    assert out.getvalue().startswith("3 games, 3 players, seed 0")
    assert "3/3 games" in err.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,random,robot"], "unknown bot 'robot'"),
        (["--bots", "greedy,random"], "one bot per seat, 3 to 5 names"),
        (["--bots", "greedy,random,random", "--games", "0"], "games must be from 1 to 100000"),
        (["--bots", "greedy,random,random", "--games", "100001"], "games must be from 1"),
        (["--bots", "greedy,random,random", "--workers", "0"], "workers must be from 1 to 256"),
        (["--bots", "greedy,random,random", "--budget-ms", "0"], "budget ms must be from 1"),
        (["--bots", "greedy,random,random", "--workers", "2", "--ray"], "not allowed with"),
        (["--bots", "greedy,random,random", "--catalogue", "missing.toml"], "missing.toml"),
        (["--games", "3"], "the following arguments are required: --bots"),
    ],
)
def test_cli_bad_input_is_one_error_line(args: list[str], message: str) -> None:
    err = io.StringIO()
    assert _run(["tournament", *args], io.StringIO(), err) == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("pastiche: error: ")
    assert message in lines[0]


def test_cli_ray_missing_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "ray_available", lambda: False)
    err = io.StringIO()
    assert _run(["tournament", "--bots", "greedy,random,random", "--ray"], io.StringIO(), err) == 2
    assert err.getvalue().startswith("pastiche: error: running games on Ray needs")


# ----------------------------------------------------------------------
# Limits and CPU time
# ----------------------------------------------------------------------
def test_the_cpu_times_add_up(small: TournamentResult) -> None:
    """Each bot's time is its choices' over its seats; the document's is every game's whole
    time (deals and rules too), so it is at least the bots' sum."""
    data = small.to_dict()
    bots = [bot["cpu_seconds"] for bot in data["bots"]]
    assert all(seconds > 0 for seconds in bots)
    assert data["cpu_seconds"] >= sum(bots) - 0.002  # each figure rounded to 1 ms
    assert small.standing("greedy").cpu_seconds > 0


def test_a_searching_bot_records_its_budget_and_simulations() -> None:
    result = run_tournament(["search", "random", "random"], 1, 4, options={"budget_ms": 5})
    search, random_ = result.to_dict()["bots"]
    assert search["limits"] == bot_limits("search", {"budget_ms": 5})
    assert search["limits"]["budget_ms"] == 5
    assert search["limits"]["simulations"] >= 1
    assert random_["limits"] == {}
    assert result.to_dict()["max_decisions"] == result.max_decisions
    # Its default budget is recorded when none is given.
    default = bot_limits("search")
    assert default["budget_ms"] == DEFAULT_BUDGET_MS
    assert default["simulations"] > search["limits"]["simulations"]


def test_without_cpu_leaves_the_reproducible_document(small: TournamentResult) -> None:
    data = small.to_dict()
    assert without_cpu(data) == small.to_dict(cpu=False)
    assert "cpu_seconds" not in json.dumps(without_cpu(data))
    assert data["cpu_seconds"] == round(small.cpu_seconds, 3)
