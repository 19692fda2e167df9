"""Random-policy steps, moves and games per second: the engine, the environments and RLCard.

Run: ``python benchmarks/bench_env.py [--repeats R] [--seconds S] [--cpu N] [--num-envs K]``.

One run measures, side by side and interleaved repeat by repeat (the median of
``R`` repeats is reported, with the minimum and the maximum):

1. **engine**: the rules engine choosing moves by index,
   ``legal[rng.randrange(len(legal))]`` (the move-generation counting caches
   start cold at each repeat, as in ``bench_games.py``); a decision is a move;
   when the compiled counting kernels are built, the same engine with its
   pure-Python kernels is measured too (the ``PASTICHE_PURE_PYTHON`` build);
2. **encoding**: random legal atomic actions through
   :class:`~pastiche_core.rl.MoveBuilder` with no observation; a decision is an
   atomic action;
3. **PettingZoo env**: ``pastiche_core.pettingzoo.env(players=4)`` stepped with a
   random legal action from the ``action_mask`` of ``env.last()``, so the mask and
   the observation vector are built at every step; a decision is an ``env.step``;
   when the compiled kernels are built, the same environment with every kernel
   switched off is measured too;
4. **gymnasium single env**: ``pastiche_core.gymnasium.env(players=4)`` (its
   defaults: random opponents, so its game is played packed by the compiled
   ``episodes`` kernel), one environment stepped alone with a random legal action
   from its ``info["action_mask"]``, a decision is one learner ``env.step`` (the
   other seats' moves are played inside it); the same with its game played by the
   engine (the kernel switched off) and with ``opponents="greedy"``; then ``K``
   of them stepped one after the other in a Python loop, the masks of the ``K``
   environments stacked and one batched random legal choice made for all of them,
   as for the vector environment;
5. **gymnasium SyncVectorEnv**: gymnasium's own vector wrapper over ``K`` such
   single environments, the masks read from its merged ``info["action_mask"]``;
6. **gymnasium vector env**: ``vector_env(K, players=4, opponents="random")``, a
   decision is one game's step (a ``step`` of the vector counts ``K``), the same
   batched random choice from ``action_masks()`` (its games played by the compiled
   ``episodes`` kernel when it is built); the same with its games played by the
   engine (the kernel switched off), and with ``"greedy"`` opponents, shows what
   the kernel and the bots cost;
7. **RLCard gin rummy** and **RLCard UNO** (when ``rlcard`` is installed; it is not
   a dependency of the project): ``env.step`` with a random legal action from
   the state it returns, its observation encoding included.

Every mode plays whole games with fixed seeds for about ``S`` seconds of CPU time a
repeat; rates are per CPU second of the process (steadier than wall time on a
shared machine). The columns are decisions (steps), moves (every seat's moves of
the games played, so a Pastiche move of several atomic actions counts once) and
games finished, per second (the vector environment deals a game that ends anew in
the same step, so its rows count no moves); the ratio columns compare each mode's
steps and moves with RLCard gin rummy's (where every step is a move). The process is pinned to one
CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from benchkit import pin_one_core, random_env_game

from pastiche_core.engine._kernels import compiled_kernels, switched_off
from pastiche_core.engine.game import Game
from pastiche_core.engine.movegen import clear_caches

PLAYERS = 4
NUM_ENVS = 16
"""Games stepped together by the vector environment (and single environments in the loop)."""


class Counts(NamedTuple):
    """What one repeat of a mode did: decisions, moves, games finished, CPU seconds."""

    decisions: int
    moves: int
    games: int
    elapsed: float


Runner = Callable[[float], Counts]
"""Play whole games for about the given seconds and count them."""


def engine_runner(seconds: float) -> Counts:
    """The engine alone: indexed random moves."""
    clear_caches()
    return _random_games(seconds)


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """Every compiled kernel switched off at the gate while inside, as without a C compiler."""
    with switched_off():
        yield


def pure_python_runner(seconds: float) -> Counts:
    """The engine with the pure-Python counting kernels, as without a C compiler."""
    with pure_python():
        return engine_runner(seconds)


def pure_python_env_runner(seconds: float) -> Counts:
    """The PettingZoo environment with the pure-Python kernels, as without a C compiler."""
    with pure_python():
        return pettingzoo_runner(seconds)


def _random_games(seconds: float) -> Counts:
    decisions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = Game(players=PLAYERS, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_moves
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        seed += 1
    return Counts(decisions, decisions, seed, time.process_time() - start)


def encoding_runner(seconds: float) -> Counts:
    """Random atomic actions through MoveBuilder, without observations."""
    from pastiche_core.rl import ActionSpace, MoveBuilder

    space = ActionSpace()
    decisions = moves = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = Game(players=PLAYERS, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            builder = MoveBuilder(space, game.view(game.to_move))
            move = None
            while move is None:
                actions = builder.legal_actions()
                move = builder.push(actions[rng.randrange(len(actions))])
                decisions += 1
            game.apply(move)
            moves += 1
        seed += 1
    return Counts(decisions, moves, seed, time.process_time() - start)


def pettingzoo_runner(seconds: float) -> Counts:
    """The PettingZoo environment: a random legal action from each observation's mask."""

    from pastiche_core.pettingzoo import env

    game_env = env(players=PLAYERS)
    decisions = moves = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in random_env_game(game_env, seed):
            decisions += 1
        moves += len(game_env.unwrapped.game.history)
        seed += 1
    return Counts(decisions, moves, seed, time.process_time() - start)


def _batched_choice(masks: Any, rng: Any) -> Any:
    """A uniformly random legal action per row of ``masks`` (booleans, or gymnasium's
    ``int8``; action 0 for a row without any)."""
    scores = rng.random(masks.shape)
    scores[masks == 0] = -1.0
    return scores.argmax(axis=1)


def singles_runner(num_envs: int) -> Runner:
    """``num_envs`` single-agent gymnasium environments stepped in a Python loop."""

    def run(seconds: float) -> Counts:
        import numpy as np

        from pastiche_core.gymnasium import env

        envs = [env(players=PLAYERS, opponents="random") for _ in range(num_envs)]
        for index, each in enumerate(envs):
            each.reset(seed=index)
        rng = np.random.default_rng(0)
        decisions = moves = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            actions = _batched_choice(np.stack([each.action_masks() for each in envs]), rng)
            for each, action in zip(envs, actions.tolist(), strict=True):
                _, _, terminated, truncated, _ = each.step(action)
                if terminated or truncated:
                    moves += each.moves
                    games += 1
                    each.reset()
            decisions += num_envs
        return Counts(decisions, moves, games, time.process_time() - start)

    return run


def single_runner(opponents: str = "random", engine: bool = False) -> Runner:
    """One single-agent gymnasium environment stepped alone, a random legal action from
    its ``info["action_mask"]``; with ``engine``, its game played by the engine (the
    ``episodes`` kernel switched off)."""

    def run(seconds: float) -> Counts:
        import warnings

        import numpy as np

        from pastiche_core.gymnasium import EnginePathWarning, env

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EnginePathWarning)
            with switched_off("episodes") if engine else contextlib.nullcontext():
                game_env = env(players=PLAYERS, opponents=opponents)
        _, info = game_env.reset(seed=0)
        rng = np.random.default_rng(0)
        decisions = moves = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            _, _, terminated, truncated, info = game_env.step(action)
            decisions += 1
            if terminated or truncated:
                moves += game_env.moves
                games += 1
                _, info = game_env.reset()
        return Counts(decisions, moves, games, time.process_time() - start)

    return run


def _same(value: Any) -> Any:
    """``value`` itself (an environment factory that hands out one made already)."""
    return value


def sync_vector_runner(num_envs: int) -> Runner:
    """gymnasium's own ``SyncVectorEnv`` over ``num_envs`` single environments."""

    def run(seconds: float) -> Counts:
        import numpy as np
        from gymnasium.vector import SyncVectorEnv

        from pastiche_core.gymnasium import env

        singles = [env(players=PLAYERS, opponents="random") for _ in range(num_envs)]
        envs = SyncVectorEnv([functools.partial(_same, each) for each in singles])
        _, infos = envs.reset(seed=0)
        rng = np.random.default_rng(0)
        decisions = moves = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            # Its NEXT_STEP autoreset merges each game's info["action_mask"] into one array.
            _, _, terminations, _, infos = envs.step(_batched_choice(infos["action_mask"], rng))
            decisions += num_envs
            if terminations.any():
                for index in np.flatnonzero(terminations).tolist():
                    moves += singles[index].moves
                    games += 1
        return Counts(decisions, moves, games, time.process_time() - start)

    return run


def vector_runner(num_envs: int, opponents: str = "random", engine: bool = False) -> Runner:
    """The vector environment of ``num_envs`` games, one batched random choice a step; with
    ``engine``, its games played by the engine (the ``episodes`` kernel switched off)."""

    def run(seconds: float) -> Counts:
        import warnings

        import numpy as np

        from pastiche_core.gymnasium import EnginePathWarning, vector_env

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EnginePathWarning)
            with switched_off("episodes") if engine else contextlib.nullcontext():
                envs = vector_env(num_envs, players=PLAYERS, opponents=opponents)
        envs.reset(seed=0)
        rng = np.random.default_rng(0)
        decisions = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            _, _, terminations, _, _ = envs.step(_batched_choice(envs.action_masks(), rng))
            decisions += num_envs
            games += int(terminations.sum())
        # A game that ends is dealt anew in the same step, so its moves are not counted.
        return Counts(decisions, -1, games, time.process_time() - start)

    return run


def rlcard_runner(name: str) -> Runner:
    """RLCard's ``name`` environment: env.step with a random legal action."""

    def run(seconds: float) -> Counts:
        import rlcard

        rl_env: Any = rlcard.make(name, config={"seed": 0})
        decisions = games = 0
        rng = random.Random(0)
        start = time.process_time()
        while time.process_time() - start < seconds:
            state, _player = rl_env.reset()
            while not rl_env.is_over():
                legal = list(state["legal_actions"])
                state, _player = rl_env.step(legal[rng.randrange(len(legal))])
                decisions += 1
            games += 1
        return Counts(decisions, decisions, games, time.process_time() - start)

    return run


@dataclass(frozen=True)
class Row:
    """One measured mode: decisions, moves and games per second of each repeat."""

    label: str
    unit: str
    rates: list[float]
    move_rates: list[float]
    game_rates: list[float]

    @property
    def median(self) -> float:
        """Median decisions per second."""
        return statistics.median(self.rates)

    @property
    def moves(self) -> float:
        """Median moves per second."""
        return statistics.median(self.move_rates)

    @property
    def games(self) -> float:
        """Median games finished per second."""
        return statistics.median(self.game_rates)


def measure(modes: Sequence[tuple[str, str, Runner]], seconds: float, repeats: int) -> list[Row]:
    """Run every mode ``repeats`` times, interleaved, for about ``seconds`` each."""
    rates: list[list[float]] = [[] for _ in modes]
    move_rates: list[list[float]] = [[] for _ in modes]
    game_rates: list[list[float]] = [[] for _ in modes]
    for _ in range(repeats):
        for index, (_label, _unit, runner) in enumerate(modes):
            counts = runner(seconds)
            rates[index].append(counts.decisions / counts.elapsed)
            move_rates[index].append(counts.moves / counts.elapsed)
            game_rates[index].append(counts.games / counts.elapsed)
    return [
        Row(label, unit, rates[index], move_rates[index], game_rates[index])
        for index, (label, unit, _runner) in enumerate(modes)
    ]


def table(rows: Sequence[Row], reference: Row | None) -> str:
    """The results as a text table."""
    header = (
        f"{'mode':<35} {'decision':<14} {'steps/s':>9} {'min':>8} {'max':>8} "
        f"{'moves/s':>8} {'games/s':>8} {'steps vs gin':>12} {'moves vs gin':>12}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        counted = row.moves >= 0  # the vector env's rows count no moves
        steps = moves = f"{'-':>12}"
        if reference:
            steps = f"{row.median / reference.median:11.2f}x"
            if counted:
                moves = f"{row.moves / reference.moves:11.2f}x"
        per_second = f"{row.moves:>8.0f}" if counted else f"{'-':>8}"
        lines.append(
            f"{row.label:<35} {row.unit:<14} {row.median:>9.0f} {min(row.rates):>8.0f} "
            f"{max(row.rates):>8.0f} {per_second} {row.games:>8.1f} {steps:>12} {moves:>12}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=5, help="repeats per mode (default 5)")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds per mode and repeat (default 3)"
    )
    parser.add_argument(
        "--cpu", type=int, default=None, help="CPU to pin to (default: the lowest; -1: none)"
    )
    parser.add_argument(
        "--num-envs",
        type=int,
        default=NUM_ENVS,
        help=f"games of the vector env and single envs in the loop (default {NUM_ENVS})",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0 or args.num_envs < 1:
        parser.error("--repeats and --num-envs must be at least 1 and --seconds positive")
    where = pin_one_core(args.cpu)
    count = args.num_envs
    modes: list[tuple[str, str, Runner]] = [
        ("engine (indexed random moves)", "move", engine_runner),
    ]
    if compiled_kernels():  # the baseline: the same engine without its compiled kernels
        modes.append(("engine, pure-Python kernels", "move", pure_python_runner))
    modes += [
        ("encoding (MoveBuilder, no obs)", "atomic action", encoding_runner),
        ("PettingZoo env (mask + obs)", "env.step", pettingzoo_runner),
    ]
    if compiled_kernels():
        modes.append(("PettingZoo env, pure-Python", "env.step", pure_python_env_runner))
    modes += [
        ("gymnasium env (default: compiled)", "learner step", single_runner()),
        ("gymnasium env, the engine's game", "learner step", single_runner(engine=True)),
        ("gymnasium env, greedy opponents", "learner step", single_runner("greedy")),
        (f"gymnasium env x{count}, Python loop", "learner step", singles_runner(count)),
        (f"gymnasium SyncVectorEnv of {count} envs", "learner step", sync_vector_runner(count)),
        (f"gymnasium vector env ({count} games)", "learner step", vector_runner(count)),
        (
            f"vector env ({count}), the engine's games",
            "learner step",
            vector_runner(count, engine=True),
        ),
        (f"vector env ({count}), greedy opponents", "learner step", vector_runner(count, "greedy")),
    ]
    try:
        import rlcard  # noqa: F401
    except ModuleNotFoundError:
        print("rlcard is not installed: RLCard rows skipped (pip install rlcard)", file=sys.stderr)
    else:
        modes.append(("RLCard gin rummy", "env.step", rlcard_runner("gin-rummy")))
        modes.append(("RLCard UNO", "env.step", rlcard_runner("uno")))
    print(
        f"Random-policy steps, moves and games per second, {PLAYERS}-player Pastiche, Python "
        f"{sys.version.split()[0]}, {where}, median of {args.repeats} x {args.seconds:g} s, "
        f"compiled kernels {'on' if compiled_kernels() else 'off (not built)'}",
        flush=True,
    )
    rows = measure(modes, args.seconds, args.repeats)
    reference = next((row for row in rows if row.label == "RLCard gin rummy"), None)
    print()
    print(table(rows, reference))
    singles = next(row for row in rows if "Python loop" in row.label)
    vector = next(row for row in rows if row.label.startswith("gymnasium vector"))
    print()
    sync = next(row for row in rows if "SyncVectorEnv" in row.label)
    print(
        f"vector env / single envs in a loop: {vector.median / singles.median:.2f}x steps per "
        f"CPU second; vector env / gymnasium's SyncVectorEnv: {vector.median / sync.median:.2f}x; "
        f"SyncVectorEnv / single envs in a loop: {sync.median / singles.median:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
