"""Train RLlib's PPO on Pastiche with the illegal actions masked, on Ray, then measure it.

The learner plays one seat of each game (drawn at every deal) against bots, through
``pastiche_core.rl.rllib_env.RllibPasticheEnv``: the single-agent environment with the
legal actions inside the observation, which RLlib's action-masking PPO module
(``ActionMaskingTorchRLModule``) turns into ``-inf`` logits. Env runners collect games in
parallel (``--env-runners``, one CPU each) on a local Ray instance, or on a cluster with
``--address``; an action the mask forbids would fail training (the environment raises).
After the last iteration the policy (masked, most likely action) plays fresh deals
against the same bots, and the script prints one line: the iterations, the learner
actions and games collected, the wall time per iteration and the win rate (a shared
win, R13, counts 1/k for each of its k winners).

    pip install 'pastiche-core[rl,rllib]'
    python examples/train_rllib.py --iterations 3

Importing this file does nothing; ``main()`` runs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

NEEDS = ("numpy", "gymnasium", "torch", "ray", "tree")
"""The modules the example imports beyond pastiche_core (``ray[rllib]`` brings ``tree``)."""
INSTALL = "pip install 'pastiche-core[rl,rllib]'"
"""The one line that installs them."""
EVAL_SEED = 2**32
"""The first evaluation deal's seed, past the training deals' seeds."""


def missing_modules() -> list[str]:
    """The modules of :data:`NEEDS` that are not installed (checked without importing them)."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def build_config(
    players: int = 4,
    opponents: str = "random",
    env_runners: int = 2,
    batch: int = 1000,
    seed: int = 0,
) -> Any:
    """RLlib's PPO (new API stack) on the masked environment.

    Each iteration collects ``batch`` learner actions from ``env_runners`` env runners
    (about ``batch / 70`` games) and learns from them in two passes of minibatches.
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    from pastiche_core.rl.rllib_env import RllibPasticheEnv

    return (
        PPOConfig()
        .environment(env=RllibPasticheEnv, env_config={"players": players, "opponents": opponents})
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1)
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=min(256, batch),
            num_epochs=2,
            lr=3e-4,
            # The only reward comes at the end of a game: no discount over its ~70 actions.
            gamma=1.0,
            entropy_coeff=0.01,
        )
        # The module sees the observation alone and masks the logits with the mask.
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .debugging(seed=seed)
    )


@dataclass(frozen=True)
class Training:
    """What the iterations did."""

    iterations: int
    """The training iterations run."""
    actions: int
    """The learner actions collected over them."""
    games: int
    """The games finished while collecting."""
    seconds_per_iteration: float
    """The mean wall time of an iteration."""
    step_failures: int
    """Environment steps that failed (an illegal action would be one): 0."""
    last: dict[str, Any]
    """The last iteration's result, as RLlib gives it."""


def train(algo: Any, iterations: int) -> Training:
    """Run ``iterations`` training iterations of ``algo`` and sum them up."""
    start = time.perf_counter()
    result: dict[str, Any] = {}
    for _ in range(iterations):
        result = algo.train()
    elapsed = time.perf_counter() - start
    runners = result.get("env_runners", {})
    return Training(
        iterations=iterations,
        actions=int(result.get("num_env_steps_sampled_lifetime", 0)),
        games=int(runners.get("num_episodes_lifetime", 0)),
        seconds_per_iteration=elapsed / max(iterations, 1),
        step_failures=int(runners.get("num_env_step_failures_lifetime", 0)),
        last=result,
    )


@dataclass(frozen=True)
class Evaluation:
    """The trained policy's games against the bots."""

    games: int
    """The games played."""
    wins: float
    """Wins, a shared win counting 1/k for each of its k winners (R13)."""
    illegal: int
    """Actions the environment refused (the mask makes it 0)."""

    @property
    def win_rate(self) -> float:
        """``wins / games``."""
        return self.wins / self.games


def evaluate(
    algo: Any, games: int, players: int = 4, opponents: str = "random", seed: int = EVAL_SEED
) -> Evaluation:
    """Play ``games`` fresh games with the trained module's most likely masked action.

    Game ``g`` deals ``seed + g // players`` and seats the learner at ``g % players``.
    The environment ends a game on an illegal action (``illegal="penalty"``) and counts it.
    """
    import torch
    from ray.rllib.core.columns import Columns

    from pastiche_core.rl.rllib_env import RllibPasticheEnv

    module = algo.get_module()
    wins, illegal = 0.0, 0
    for game in range(games):
        config = {"players": players, "opponents": opponents, "illegal": "penalty"}
        table = RllibPasticheEnv({**config, "seat": game % players})
        observation, info = table.reset(seed=seed + game // players)
        terminated = False
        while not terminated:
            batch = {Columns.OBS: {k: torch.from_numpy(v)[None] for k, v in observation.items()}}
            with torch.no_grad():
                logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            observation, _, terminated, _, info = table.step(int(logits[0].argmax()))
        if info.get("illegal"):
            illegal += 1
        elif table.inner.seat in info["winners"]:
            wins += 1 / len(info["winners"])
    return Evaluation(games, wins, illegal)


def report(training: Training, evaluation: Evaluation, opponents: str) -> str:
    """One line: iterations, actions and games collected, time per iteration, win rate."""
    return (
        f"{training.iterations} iterations: {training.actions} actions, {training.games} games, "
        f"{training.seconds_per_iteration:.1f} s/iteration; vs {opponents} "
        f"{evaluation.wins:g}/{evaluation.games} wins, {evaluation.illegal} illegal"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, start Ray, train, evaluate and print; 2 when a package is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3, help="training iterations")
    parser.add_argument("--players", type=int, default=4, choices=[3, 4, 5])
    parser.add_argument("--opponents", default="random", choices=["random", "greedy", "search"])
    parser.add_argument("--env-runners", type=int, default=2, help="parallel env runners")
    parser.add_argument("--batch", type=int, default=1000, help="learner actions an iteration")
    parser.add_argument("--eval-games", type=int, default=20, help="games after training")
    parser.add_argument("--seed", type=int, default=0, help="seeds the network and the deals")
    parser.add_argument("--address", help="a Ray cluster's address (default: a local instance)")
    options = parser.parse_args(argv)
    if options.iterations < 1 or options.env_runners < 1 or options.batch < 1:
        parser.error("--iterations, --env-runners and --batch must be at least 1")

    missing = missing_modules()
    if missing:
        print(f"this example needs {', '.join(missing)}: {INSTALL}", file=sys.stderr)
        return 2

    import ray

    if options.address:
        ray.init(address=options.address)
    else:  # one CPU for each env runner; the learner runs in this process
        ray.init(num_cpus=options.env_runners, include_dashboard=False)
    try:
        algo = build_config(
            options.players, options.opponents, options.env_runners, options.batch, options.seed
        ).build_algo()
        training = train(algo, options.iterations)
        evaluation = evaluate(algo, options.eval_games, options.players, options.opponents)
        algo.stop()
    finally:
        ray.shutdown()
    print(report(training, evaluation, options.opponents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
