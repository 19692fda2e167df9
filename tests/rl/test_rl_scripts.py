"""The CleanRL-style script (examples/cleanrl_ppo.py) runs, and the library page shows both scripts.

Training needs torch (the ``sb3`` and ``rllib`` extras bring it): those tests skip without it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rl_common import load_example

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rl-libraries.md"


def test_importing_the_script_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    before = set(sys.modules)
    script = load_example("cleanrl_ppo")
    assert capsys.readouterr() == ("", "")
    assert not {"torch", "gymnasium"} & (set(sys.modules) - before)
    assert callable(script.main)


def test_the_options_are_cleanrls() -> None:
    args = load_example("cleanrl_ppo").parse_args(
        ["--env-id", "pastiche/Pastiche-v0", "--num-envs", "8", "--total-timesteps", "99"]
    )
    assert (args.env_id, args.num_envs, args.total_timesteps, args.seed) == (
        "pastiche/Pastiche-v0",
        8,
        99,
        1,
    )


def test_a_missing_package_is_named_on_one_line_with_exit_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example("cleanrl_ppo")
    find_spec = importlib.util.find_spec

    def without_torch(name: str, *args: Any) -> Any:
        return None if name == "torch" else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_torch)
    assert script.main(["--total-timesteps", "10"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("torch: pip install 'pastiche-core[rl]' torch\n")
    assert err.count("\n") == 1


def test_the_script_trains_on_the_registered_vector_env_and_prints_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two updates of 2 games x 32 actions, then 6 games against random bots: one line, the
    win rate a share of the games played (a shared win counting 1/k, R13)."""
    pytest.importorskip("torch")
    pytest.importorskip("gymnasium")
    options = ["--num-envs", "2", "--total-timesteps", "128", "--num-steps", "32"]
    options += ["--players", "3", "--eval-games", "6", "--seed", "3"]
    assert load_example("cleanrl_ppo").main(options) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    found = re.fullmatch(
        r"masked PPO, 128 learner actions in \d+ s CPU: (?P<wins>[\d.]+)/6 wins = "
        r"(?P<rate>[\d.]+) vs random \(parity 0\.333\)\n",
        out,
    )
    assert found, out
    wins = float(found["wins"])
    assert 0 <= wins <= 6
    assert float(found["rate"]) == pytest.approx(wins / 6, abs=5e-4)


def test_the_win_share_read_from_the_reward_is_the_rulings_share() -> None:
    """The script reads a seat's share of the win from its final reward: (r(n-1)+1)/n."""
    pytest.importorskip("gymnasium")
    from pastiche_core.gymnasium import winner_returns

    for players in (3, 4, 5):
        for winners in [(0,), (0, 1), tuple(range(players))]:
            rewards = winner_returns(players, winners)
            shares = [(r * (players - 1) + 1) / players for r in rewards]
            expected = [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
            assert shares == pytest.approx(expected)


def test_the_page_includes_both_scripts_from_their_files() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert text.startswith("# Use it from CleanRL, SB3 and RLlib\n")
    assert "## CleanRL" in text
    assert "## Stable-Baselines3" in text
    assert '--8<-- "examples/cleanrl_ppo.py"' in text
    assert '--8<-- "examples/train_maskable_ppo.py"' in text


def test_the_page_follows_ai_and_rl_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert (
        '  - AI and RL: ai-rl.md\n  - "Use it from CleanRL, SB3 and RLlib": rl-libraries.md\n'
    ) in nav
