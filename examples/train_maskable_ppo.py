"""Train sb3-contrib's MaskablePPO on Pastiche's single-agent environment, then measure it.

The learner plays one seat of each game of ``pastiche_core.gymnasium.vector_env``
(observations scaled into [0, 1], the seat drawn at every deal) against bots, handed to
Stable-Baselines3 by ``pastiche_core.rl.sb3_bridge``, whose ``action_masks()`` gives
MaskablePPO the legal actions. After training, the policy
(masked, deterministic) plays fresh deals against random and against greedy
opponents, every deal once from each seat, and the script prints its win rate with
a 95 % Wilson interval (a shared win, R13, counts 1/k for each of its k winners)
and the CPU time each part took.

    pip install 'pastiche-core[rl]' sb3-contrib
    python examples/train_maskable_ppo.py --cpu-minutes 10 --opponents random --save ppo.zip

Importing this file does nothing; ``main()`` runs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from sb3_contrib import MaskablePPO

NEEDS = ("numpy", "gymnasium", "torch", "sb3_contrib")
"""The modules the recipe imports beyond pastiche_core (torch comes with sb3-contrib)."""
INSTALL = "pip install 'pastiche-core[rl]' sb3-contrib"
"""The one line that installs them."""
EVAL_SEED = 2**32
"""The first evaluation deal's seed: training deals are drawn from the whole 63-bit range
(seeded from ``--seed``), so the evaluation's consecutive seeds are fresh deals."""
N_ENVS = 4
"""The games stepped together while collecting experience."""

Choose = Callable[["npt.NDArray[np.float32]", "npt.NDArray[np.bool_]"], int]
"""``choose(observation, mask) -> action``: a policy for one decision."""


def missing_modules() -> list[str]:
    """The modules of :data:`NEEDS` that are not installed (checked without importing them)."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def train(
    steps: int,
    seed: int = 0,
    opponents: str = "random",
    players: int = 4,
    cpu_seconds: float | None = None,
    rollout: int = 256,
) -> MaskablePPO:
    """MaskablePPO trained for ``steps`` learner actions (or until ``cpu_seconds`` of CPU time).

    Each update learns from ``rollout`` actions of each of :data:`N_ENVS` games (training
    stops at the end of the rollout that reaches ``steps``). One torch thread: the
    figures in the documentation are for one core.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from pastiche_core.rl.sb3_bridge import sb3_vec_env

    torch.set_num_threads(1)

    class CpuBudget(BaseCallback):
        """Stops training once the process has used its CPU budget."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.until = time.process_time() + seconds

        def _on_step(self) -> bool:
            return time.process_time() < self.until

    # The vector environment's games, compiled against random bots; VecMonitor logs episodes.
    bridge = sb3_vec_env(N_ENVS, players=players, opponents=opponents, normalize=True)
    bridge.seed(seed)
    envs = VecMonitor(bridge)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        # By default 4 x 256 actions a rollout: a dozen games at about 70 actions a game.
        n_steps=rollout,
        batch_size=min(256, N_ENVS * rollout),
        n_epochs=4,
        learning_rate=3e-4,
        # The only reward comes at the end of a game: no discount over its ~70 actions.
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
    )
    callback = None if cpu_seconds is None else CpuBudget(cpu_seconds)
    model.learn(total_timesteps=steps, callback=callback)
    return model


def model_policy(model: MaskablePPO) -> Choose:
    """The trained policy's choice: the most likely legal action (masked, deterministic)."""

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def uniform_policy(seed: int) -> Choose:
    """A legal action drawn uniformly: the baseline an untrained learner should beat."""
    import numpy as np

    rng = np.random.default_rng(seed)

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


@dataclass(frozen=True)
class Evaluation:
    """The learner's results over ``games`` games against one kind of opponent."""

    opponents: str
    """The bot at every other seat."""
    games: int
    """The games played."""
    wins: float
    """Wins, a shared win counting 1/k for each of its k winners (R13)."""
    cpu_seconds: float
    """The CPU time the games took."""

    @property
    def win_rate(self) -> float:
        """``wins / games``."""
        return self.wins / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the win rate, as the tournament computes it."""
        from pastiche_core.ai.tournament import wilson_interval

        return wilson_interval(self.wins, self.games)


def evaluate(
    choose: Choose, opponents: str, games: int, players: int = 4, seed: int = EVAL_SEED
) -> Evaluation:
    """Play ``games`` fresh games with ``choose`` at one seat and ``opponents`` at the others.

    Game ``g`` deals ``seed + g // players`` and seats the learner at ``g % players``:
    each deal is played from every seat, which cancels much of the luck of the cards.
    """
    from pastiche_core.gymnasium import env

    seats = [
        env(players=players, opponents=opponents, seat=s, normalize=True) for s in range(players)
    ]
    start = time.process_time()
    wins = 0.0
    for game in range(games):
        table = seats[game % players]
        observation, info = table.reset(seed=seed + game // players)
        terminated = False
        while not terminated:
            action = choose(observation, table.action_masks())
            observation, _, terminated, _, info = table.step(action)
        winners = info["winners"]
        if table.seat in winners:
            wins += 1 / len(winners)
    return Evaluation(opponents, games, wins, time.process_time() - start)


def report(name: str, result: Evaluation) -> str:
    """One line: who played, against whom, the win rate, its interval and the CPU time."""
    low, high = result.ci95
    return (
        f"{name} vs {result.opponents:<6}  {result.wins:g}/{result.games} wins "
        f"= {result.win_rate:.3f}  (95 % CI {low:.3f}-{high:.3f}), "
        f"{result.cpu_seconds:.0f} s CPU"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, train, save, evaluate and print; 2 when a package is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000, help="learner actions to train for")
    parser.add_argument("--cpu-minutes", type=float, help="stop training after this much CPU time")
    parser.add_argument("--seed", type=int, default=0, help="seeds the network and the deals")
    parser.add_argument(
        "--opponents",
        default="random",
        choices=["random", "greedy", "search"],
        help="the bots the learner trains against",
    )
    parser.add_argument("--players", type=int, default=4, choices=[3, 4, 5])
    parser.add_argument(
        "--eval-games", type=int, default=200, help="games against each kind of opponent"
    )
    parser.add_argument(
        "--baseline", action="store_true", help="evaluate a uniform random legal policy too"
    )
    parser.add_argument("--save", metavar="PATH", help="save the trained model (a .zip)")
    options = parser.parse_args(argv)

    missing = missing_modules()
    if missing:
        print(f"this recipe needs {', '.join(missing)}: {INSTALL}", file=sys.stderr)
        return 2

    import torch

    start = time.process_time()
    budget = None if options.cpu_minutes is None else 60 * options.cpu_minutes
    model = train(options.steps, options.seed, options.opponents, options.players, budget)
    print(
        f"trained {model.num_timesteps} learner actions against {options.opponents} "
        f"({options.players} players) in {time.process_time() - start:.0f} s CPU, "
        f"torch {torch.__version__} on {torch.get_num_threads()} thread"
    )
    if options.save:
        model.save(options.save)
        print(f"saved {options.save}")
    policies = [("MaskablePPO", model_policy(model))]
    if options.baseline:
        policies.append(("uniform   ", uniform_policy(options.seed)))
    for opponents in ("random", "greedy"):
        for name, choose in policies:
            result = evaluate(choose, opponents, options.eval_games, options.players)
            print(report(name, result), flush=True)
    print(f"parity with {options.players} players: {1 / options.players:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
