"""Simulations: reproducible from one seed, and internally consistent."""

from __future__ import annotations

import json

import pytest

from pastiche_core import Catalogue, InvalidStateError, PasticheError
from pastiche_core.bots.play import play_game
from pastiche_core.bots.simulate import ENDINGS, SimulationSummary, game_seed, simulate

# Every novel worth 5 points: random games often end with every player passing (R11).
QUICK_TOML = """
name = "quick"
[[novels]]
id = "kind-3"
name = "3 of a Kind"
kind = "kind"
count = 3
points = 5
copies = 5
[[novels]]
id = "pairs-3"
name = "Three Pairs"
kind = "pairs"
pairs = 3
points = 5
copies = 5
[[novels]]
id = "end-flag"
name = "End Flag"
kind = "end-flag"
points = 1
copies = 1
"""


@pytest.fixture(scope="module")
def summary() -> SimulationSummary:
    return simulate(players=4, games=6, seed=42)


def test_same_seed_same_summary(summary: SimulationSummary) -> None:
    again = simulate(players=4, games=6, seed=42)
    assert again == summary
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(
        summary.to_dict(), sort_keys=True
    )


def test_different_seed_different_summary(summary: SimulationSummary) -> None:
    other = simulate(players=4, games=6, seed=43)
    assert other.to_dict() != summary.to_dict()
    assert other.to_dict()["seed"] == 43


def test_summary_numbers_are_consistent(summary: SimulationSummary) -> None:
    s = summary
    assert (s.players, s.games, s.seed, s.catalogue) == (4, 6, 42, "default")
    assert len(s.mean_scores) == len(s.mean_masterpieces) == len(s.wins_by_seat) == 4
    assert sum(s.endings.values()) == s.games
    assert set(s.endings) == set(ENDINGS)
    assert 0 <= s.shared_games <= s.games
    # A shared win counts for each winner: at least two winners per shared game.
    assert s.games + s.shared_games <= sum(s.wins_by_seat) <= s.games + 3 * s.shared_games
    assert 0 < s.mean_turns <= s.max_turns
    assert s.mean_decisions > s.mean_turns
    assert all(0.0 <= rate <= 1.0 for rate in s.win_rates)


def test_summary_matches_the_games_played_one_by_one(summary: SimulationSummary) -> None:
    games = [play_game(4, game_seed(42, index)) for index in range(6)]
    results = [game.result for game in games]
    assert all(result is not None for result in results)
    turns = [game.turn for game in games]
    assert summary.mean_turns == sum(turns) / 6
    assert summary.max_turns == max(turns)
    assert summary.mean_decisions == sum(len(game.history) for game in games) / 6
    for seat in range(4):
        scores = [r.scores[seat] for r in results if r is not None]
        assert summary.mean_scores[seat] == sum(scores) / 6
        wins = sum(1 for r in results if r is not None and seat in r.winners)
        assert summary.wins_by_seat[seat] == wins
    shared = sum(1 for r in results if r is not None and len(r.winners) > 1)
    assert summary.shared_games == shared


def test_game_seeds_differ_per_game_and_run() -> None:
    seeds = {game_seed(seed, index) for seed in range(5) for index in range(20)}
    assert len(seeds) == 100


def test_to_dict_is_json_ready_and_deterministic(summary: SimulationSummary) -> None:
    data = summary.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["endings"] == {ending: summary.endings[ending] for ending in ENDINGS}
    assert data["wins_by_seat"] == list(summary.wins_by_seat)
    assert "time" not in json.dumps(data)


def test_format_has_a_row_per_seat(summary: SimulationSummary) -> None:
    text = summary.format()
    lines = text.splitlines()
    assert lines[0] == "6 games, 4 players, seed 42, catalogue 'default'"
    rows = [line.split() for line in lines[2:6]]
    assert [row[0] for row in rows] == ["0", "1", "2", "3"]
    assert [int(row[1]) for row in rows] == list(summary.wins_by_seat)
    assert "endings: countdown" in text


def test_progress_is_called_after_each_game() -> None:
    calls: list[tuple[int, int]] = []
    simulate(players=3, games=3, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_custom_catalogue_and_all_pass_endings() -> None:
    catalogue = Catalogue.from_toml(QUICK_TOML)
    s = simulate(players=3, games=3, seed=1, catalogue=catalogue)
    assert s.catalogue == "quick"
    assert sum(s.endings.values()) == 3
    assert s.to_dict()["endings"]["all-pass"] == s.endings["all-pass"]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"players": 7}, InvalidStateError, "from 3 to 5"),
        ({"players": 2}, InvalidStateError, "from 3 to 5"),
        ({"games": 0}, PasticheError, "games must be a positive integer"),
        ({"games": True}, PasticheError, "games must be a positive integer"),
        ({"seed": "1"}, PasticheError, "seed must be an integer"),
    ],
)
def test_bad_arguments_are_rejected(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"players": 4, "games": 1, "seed": 0, **kwargs}
    with pytest.raises(error, match=message):
        simulate(**arguments)  # type: ignore[arg-type]
