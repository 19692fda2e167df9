"""CleanRL-style masked PPO on Pastiche's compiled vector environment, in one file.

``gymnasium.make_vec(--env-id, --num-envs, vectorization_mode="vector_entry_point")``
steps the games together against random bots; the policy reads the legal actions
from ``infos["action_mask"]`` and gives the others no probability. After training,
the policy (its most likely legal action) plays ``--eval-games`` fresh games against
random bots and the script prints one line: the win rate, with a shared win (R13)
counting 1/k for each of its k winners.

    pip install 'pastiche-core[rl]' torch
    python examples/cleanrl_ppo.py --env-id pastiche/Pastiche-v0 --num-envs 16 \\
        --total-timesteps 200000 --seed 1

Importing this file does nothing; ``main()`` runs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from typing import Any

NEEDS = ("numpy", "gymnasium", "torch")
"""The modules the script imports beyond pastiche_core."""
EVAL_SEED = 2**32
"""The evaluation games' first seed: far from the training games' seeds."""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options, CleanRL's names and defaults where they apply."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="pastiche/Pastiche-v0")
    parser.add_argument("--num-envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--total-timesteps", type=int, default=200_000, help="learner actions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=[3, 4, 5])
    parser.add_argument("--num-steps", type=int, default=128, help="actions per game a rollout")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--eval-games", type=int, default=200)
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> str:
    """Train, evaluate against random bots, and return the one-line result."""
    import gymnasium
    import numpy as np
    import torch
    from torch import nn
    from torch.distributions import Categorical

    import pastiche_core.gymnasium  # noqa: F401 - registers the id

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    start = time.process_time()

    def make(seed: int) -> Any:
        envs = gymnasium.make_vec(
            args.env_id,
            args.num_envs,
            vectorization_mode="vector_entry_point",
            players=args.players,
            opponents="random",
            normalize=True,
        )
        obs, infos = envs.reset(seed=seed)
        return envs, torch.as_tensor(obs), torch.as_tensor(infos["action_mask"], dtype=torch.bool)

    envs, next_obs, next_mask = make(args.seed)
    n_obs, n_actions = next_obs.shape[1], next_mask.shape[1]

    def layer(inputs: int, outputs: int, std: float = 2**0.5) -> nn.Linear:
        linear = nn.Linear(inputs, outputs)
        nn.init.orthogonal_(linear.weight, std)
        nn.init.constant_(linear.bias, 0.0)
        return linear

    critic = nn.Sequential(
        layer(n_obs, 256), nn.Tanh(), layer(256, 256), nn.Tanh(), layer(256, 1, 1)
    )
    actor = nn.Sequential(
        layer(n_obs, 256), nn.Tanh(), layer(256, 256), nn.Tanh(), layer(256, n_actions, 0.01)
    )
    params = [*critic.parameters(), *actor.parameters()]
    optimizer = torch.optim.Adam(params, lr=args.learning_rate, eps=1e-5)

    def policy(obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        return Categorical(logits=actor(obs).masked_fill(~mask, -1e8))  # illegal: no probability

    steps, n = args.num_steps, args.num_envs
    obs_buf = torch.zeros((steps, n, n_obs))
    mask_buf = torch.zeros((steps, n, n_actions), dtype=torch.bool)
    act_buf, logp_buf, rew_buf, val_buf = (torch.zeros((steps, n)) for _ in range(4))
    done_buf, skip_buf = torch.zeros((steps, n)), torch.zeros((steps, n), dtype=torch.bool)
    next_done = torch.zeros(n)
    trained = 0
    while trained < args.total_timesteps:
        for t in range(steps):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            # Autoreset is NEXT_STEP: the step after a game's end ignores its action.
            skip_buf[t] = next_done.bool()
            with torch.no_grad():
                dist = policy(next_obs, next_mask)
                action = dist.sample()
                logp_buf[t], val_buf[t] = dist.log_prob(action), critic(next_obs).flatten()
            act_buf[t] = action
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
            next_done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
        trained += steps * n
        with torch.no_grad():  # GAE; the only reward is at the end, so no discount
            advantages = torch.zeros_like(rew_buf)
            last, next_value = torch.zeros(n), critic(next_obs).flatten()
            for t in reversed(range(steps)):
                alive = 1.0 - (next_done if t == steps - 1 else done_buf[t + 1])
                following = next_value if t == steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + following * alive - val_buf[t]
                last = advantages[t] = delta + 0.95 * alive * last
            returns = advantages + val_buf
        keep = ~skip_buf.flatten()
        b_obs, b_mask = obs_buf.flatten(0, 1)[keep], mask_buf.flatten(0, 1)[keep]
        b_act, b_logp = act_buf.flatten()[keep], logp_buf.flatten()[keep]
        b_adv, b_ret = advantages.flatten()[keep], returns.flatten()[keep]
        size = max(1, len(b_obs) // args.num_minibatches)
        for _ in range(args.update_epochs):
            for batch in torch.randperm(len(b_obs)).split(size):
                dist = policy(b_obs[batch], b_mask[batch])
                ratio = (dist.log_prob(b_act[batch]) - b_logp[batch]).exp()
                adv = b_adv[batch]
                adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(0.8, 1.2)).mean()
                v_loss = 0.5 * ((critic(b_obs[batch]).flatten() - b_ret[batch]) ** 2).mean()
                loss = pg_loss - 0.01 * dist.entropy().mean() + 0.5 * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, 0.5)
                optimizer.step()
    train_cpu = time.process_time() - start
    envs.close()

    # Evaluation: fresh games, the most likely legal action. A seat's reward at the end is
    # (n/w - 1)/(n - 1) among w winners, else -1/(n - 1): its share of the win is (r(n-1)+1)/n.
    envs, obs_t, mask_t = make(EVAL_SEED)
    wins, games, players = 0.0, 0, args.players
    while games < args.eval_games:
        with torch.no_grad():
            action = actor(obs_t).masked_fill(~mask_t, -1e8).argmax(dim=1)
        obs, reward, terminated, truncated, infos = envs.step(action.numpy())
        for row in np.flatnonzero(terminated | truncated):
            if games < args.eval_games:
                wins += (float(reward[row]) * (players - 1) + 1) / players
                games += 1
        obs_t = torch.as_tensor(obs)
        mask_t = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
    envs.close()
    return (
        f"masked PPO, {trained:,} learner actions in {train_cpu:.0f} s CPU: "
        f"{wins:g}/{games} wins = {wins / games:.3f} vs random (parity {1 / players:.3f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, train and print the result; 2 when a package is missing."""
    args = parse_args(argv)
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        print(
            f"this script needs {', '.join(missing)}: pip install 'pastiche-core[rl]' torch",
            file=sys.stderr,
        )
        return 2
    print(run(args), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
