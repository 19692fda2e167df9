"""Random-policy decisions per second: the engine, the PettingZoo environment and RLCard.

Run: ``python benchmarks/bench_env.py [--repeats R] [--seconds S] [--cpu N]``.

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
4. **RLCard gin rummy** and **RLCard UNO** (when ``rlcard`` is installed; it is not
   a dependency of the project): ``env.step`` with a random legal action from
   the state it returns, its observation encoding included.

Every mode plays whole games with fixed seeds for about ``S`` seconds of CPU time a
repeat; rates are per CPU second of the process (steadier than wall time on a
shared machine).
The ratio column compares each mode with RLCard gin rummy. The process is pinned
to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from benchkit import pin_one_core

from pastiche_core._kernels import compiled_kernels, switched_off
from pastiche_core.game import Game
from pastiche_core.movegen import clear_caches

PLAYERS = 4

Runner = Callable[[float], tuple[int, int, float]]
"""Play whole games for about the given seconds; (decisions, moves, elapsed seconds)."""


def engine_runner(seconds: float) -> tuple[int, int, float]:
    """The engine alone: indexed random moves."""
    clear_caches()
    return _random_games(seconds)


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """Every compiled kernel switched off at the gate while inside, as without a C compiler."""
    with switched_off():
        yield


def pure_python_runner(seconds: float) -> tuple[int, int, float]:
    """The engine with the pure-Python counting kernels, as without a C compiler."""
    with pure_python():
        return engine_runner(seconds)


def pure_python_env_runner(seconds: float) -> tuple[int, int, float]:
    """The PettingZoo environment with the pure-Python kernels, as without a C compiler."""
    with pure_python():
        return pettingzoo_runner(seconds)


def _random_games(seconds: float) -> tuple[int, int, float]:
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
    return decisions, decisions, time.process_time() - start


def encoding_runner(seconds: float) -> tuple[int, int, float]:
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
    return decisions, moves, time.process_time() - start


def pettingzoo_runner(seconds: float) -> tuple[int, int, float]:
    """The PettingZoo environment: a random legal action from each observation's mask."""
    import numpy as np

    from pastiche_core.pettingzoo import env

    game_env = env(players=PLAYERS)
    decisions = moves = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game_env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in game_env.agent_iter():
            observation, _, terminated, truncated, _ = game_env.last()
            if terminated or truncated or observation is None:
                game_env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game_env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        moves += len(game_env.unwrapped.game.history)
        seed += 1
    return decisions, moves, time.process_time() - start


def rlcard_runner(name: str) -> Runner:
    """RLCard's ``name`` environment: env.step with a random legal action."""

    def run(seconds: float) -> tuple[int, int, float]:
        import rlcard

        rl_env: Any = rlcard.make(name, config={"seed": 0})
        decisions = 0
        rng = random.Random(0)
        start = time.process_time()
        while time.process_time() - start < seconds:
            state, _player = rl_env.reset()
            while not rl_env.is_over():
                legal = list(state["legal_actions"])
                state, _player = rl_env.step(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions, decisions, time.process_time() - start

    return run


@dataclass(frozen=True)
class Row:
    """One measured mode: decisions and moves per second of each repeat."""

    label: str
    unit: str
    rates: list[float]
    move_rates: list[float]

    @property
    def median(self) -> float:
        """Median decisions per second."""
        return statistics.median(self.rates)


def measure(modes: Sequence[tuple[str, str, Runner]], seconds: float, repeats: int) -> list[Row]:
    """Run every mode ``repeats`` times, interleaved, for about ``seconds`` each."""
    rates: list[list[float]] = [[] for _ in modes]
    move_rates: list[list[float]] = [[] for _ in modes]
    for _ in range(repeats):
        for index, (_label, _unit, runner) in enumerate(modes):
            decisions, moves, elapsed = runner(seconds)
            rates[index].append(decisions / elapsed)
            move_rates[index].append(moves / elapsed)
    return [
        Row(label, unit, rates[index], move_rates[index])
        for index, (label, unit, _runner) in enumerate(modes)
    ]


def table(rows: Sequence[Row], reference: Row | None) -> str:
    """The results as a text table."""
    header = (
        f"{'mode':<34} {'decision':<14} {'median/s':>9} {'min':>8} {'max':>8} "
        f"{'moves/s':>8} {'vs gin':>7}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        ratio = f"{row.median / reference.median:6.2f}x" if reference else "      -"
        lines.append(
            f"{row.label:<34} {row.unit:<14} {row.median:>9.0f} {min(row.rates):>8.0f} "
            f"{max(row.rates):>8.0f} {statistics.median(row.move_rates):>8.0f} {ratio:>7}"
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
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0:
        parser.error("--repeats must be at least 1 and --seconds positive")
    where = pin_one_core(args.cpu)
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
    try:
        import rlcard  # noqa: F401
    except ModuleNotFoundError:
        print("rlcard is not installed: RLCard rows skipped (pip install rlcard)", file=sys.stderr)
    else:
        modes.append(("RLCard gin rummy", "env.step", rlcard_runner("gin-rummy")))
        modes.append(("RLCard UNO", "env.step", rlcard_runner("uno")))
    print(
        f"Random-policy decisions per second, {PLAYERS}-player Pastiche, Python "
        f"{sys.version.split()[0]}, {where}, median of {args.repeats} x {args.seconds:g} s, "
        f"compiled kernels {'on' if compiled_kernels() else 'off (not built)'}",
        flush=True,
    )
    rows = measure(modes, args.seconds, args.repeats)
    reference = next((row for row in rows if row.label == "RLCard gin rummy"), None)
    print()
    print(table(rows, reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())
