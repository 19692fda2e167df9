"""The training recipe (examples/train_maskable_ppo.py): it trains, evaluates and says what is missing.

The training tests run where sb3-contrib is installed (it is in no extra: it brings
torch) and skip elsewhere; the missing-package message needs nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from rl_common import load_example

# Greedy and search opponents here are chosen on purpose: their warning is not news.
pytestmark = pytest.mark.filterwarnings("ignore::pastiche_core.rl.episode.EnginePathWarning")


def test_importing_the_recipe_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    before = set(sys.modules)
    recipe = load_example("train_maskable_ppo")
    assert capsys.readouterr() == ("", "")
    assert not {"torch", "sb3_contrib", "gymnasium"} & (set(sys.modules) - before)
    assert callable(recipe.main)


def test_a_missing_package_is_named_on_one_line_with_exit_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recipe = load_example("train_maskable_ppo")
    find_spec = importlib.util.find_spec

    def without_torch(name: str, *args: Any) -> Any:
        return None if name in {"torch", "sb3_contrib"} else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_torch)
    assert recipe.main(["--steps", "10"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    # numpy and gymnasium are named too where the rl extra is missing.
    assert err.startswith("this recipe needs ")
    assert err.endswith("torch, sb3_contrib: pip install 'pastiche-core[rl]' sb3-contrib\n")
    assert err.count("\n") == 1


def test_the_recipe_trains_saves_and_evaluates(tmp_path: Path) -> None:
    """256 learner actions (one update), saved and loaded, then one game against each
    opponent: the masked policy only plays legal actions (the evaluation raises otherwise)."""
    # Imported by name: sb3-contrib is in no extra, so the type checker may not find it.
    sb3_contrib = pytest.importorskip("sb3_contrib")
    utils = pytest.importorskip("sb3_contrib.common.maskable.utils")

    recipe = load_example("train_maskable_ppo")
    model = recipe.train(256, seed=1, players=3, rollout=64)
    assert model.num_timesteps == 256
    assert utils.is_masking_supported(model.get_env())  # the environment's own action_masks()
    model.save(tmp_path / "ppo.zip")
    loaded = sb3_contrib.MaskablePPO.load(tmp_path / "ppo.zip", device="cpu")
    for opponents in ("random", "greedy"):
        result = recipe.evaluate(recipe.model_policy(loaded), opponents, games=1, players=3)
        assert (result.opponents, result.games) == (opponents, 1)
        assert 0 <= result.wins <= 1
        assert result.ci95[0] <= result.win_rate <= result.ci95[1]


def test_the_script_stops_at_its_cpu_budget_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    recipe = load_example("train_maskable_ppo")
    saved = tmp_path / "ppo.zip"
    options = ["--cpu-minutes", "0", "--eval-games", "1", "--players", "3", "--save", str(saved)]
    assert recipe.main(options) == 0
    lines = capsys.readouterr().out.splitlines()
    # A budget of zero stops at the first step: one action in each game.
    assert lines[0].startswith(
        f"trained {recipe.N_ENVS} learner actions against random (3 players) in "
    )
    assert lines[0].endswith(f" s CPU, torch {torch.__version__} on 1 thread")
    assert lines[1] == f"saved {saved}"
    assert saved.exists()
    assert lines[2].startswith("MaskablePPO vs random  ")
    assert lines[3].startswith("MaskablePPO vs greedy  ")
    assert all(" wins = " in line and "95 % CI" in line for line in lines[2:4])
    assert lines[4] == "parity with 3 players: 0.333"


def test_the_evaluation_replays_its_deals() -> None:
    """Wins are counted from the winners (a shared win a fraction, R13); the same seeds give
    the same games, so a uniform policy wins the same games twice."""
    pytest.importorskip("gymnasium")
    recipe = load_example("train_maskable_ppo")
    once = recipe.evaluate(recipe.uniform_policy(3), "random", games=6, players=3, seed=11)
    again = recipe.evaluate(recipe.uniform_policy(3), "random", games=6, players=3, seed=11)
    assert once.wins == again.wins
    assert 0 <= once.wins <= 6
    line = recipe.report("uniform", once)
    assert line.startswith(f"uniform vs random  {once.wins:g}/6 wins = ")
