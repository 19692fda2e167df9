"""OpenSpiel's outcome-sampling MCCFR on the smallest ``python_pastiche``, and its policy's play.

Run: ``python benchmarks/bench_spiel_mccfr.py [--iterations N] [--games K] [--seed S]``
``[--game GAME]``.

1. **Training**: ``N`` iterations of OpenSpiel's Python
   ``outcome_sampling_mccfr.OutcomeSamplingSolver`` (each samples one episode
   per player) on ``GAME``, by default the smallest game the parameters allow:
   3 players, the ``house-rules`` example catalogue (a 10-point end, R12) and
   one card dealt to and kept by each seat (R10). The table gives the CPU time
   per iteration (mean and 95th percentile, process time) and the information
   states in the solver's tables, keyed by the perfect-recall information
   state string (:mod:`pastiche_core.rl.spiel_infostate`).
2. **Play**: ``K`` games of the average policy in seat ``game % players``
   against uniformly random players, and as a control the uniform policy in
   the same seat on the same games (the same generator seeds for chance and
   for the random seats). The table gives each subject's win rate with its
   95 % Wilson interval (a shared win counts ``1/k``, R13), the ratio to
   parity, the mean return and the share of its decisions (with a choice)
   whose information state the tables hold: elsewhere the average policy is
   uniform.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchkit import aligned

from pastiche_core.bots.play import derive_seed
from pastiche_core.bots.simulate import game_seed

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "examples" / "catalogues" / "house-rules.toml"
SMALLEST = f"python_pastiche(players=3,catalogue={CATALOGUE},keep_size=1,deal_sizes=1 1 1)"
MAX_ITERATIONS = 100_000  # each adds hundreds of table entries (about 1.5 KB each)
MAX_GAMES = 100_000
HEADER = ["policy", "games", "win %", "95 % CI", "vs parity", "mean return", "in tables %"]

Chooser = Callable[[Any, random.Random], int]


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile of ``values``, nearest rank.

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
    2.0
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def peak_mib() -> float:
    """The process's peak resident memory in MiB (Linux counts KiB, macOS bytes).

    >>> peak_mib() > 0
    True
    """
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def train(game: Any, iterations: int, seed: int) -> tuple[Any, list[float]]:
    """The solver after ``iterations`` iterations and each iteration's CPU seconds."""
    import numpy as np
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(derive_seed(seed, "mccfr") % 2**32)  # the solver samples from NumPy's global
    times: list[float] = []
    step = max(1, iterations // 10)
    for index in range(iterations):
        start = time.process_time()
        solver.iteration()
        times.append(time.process_time() - start)
        if (index + 1) % step == 0:
            print(
                f"  iteration {index + 1:,}/{iterations:,}: {sum(times):.0f} CPU s, "
                f"{len(solver._infostates):,} information states",
                file=sys.stderr,
                flush=True,
            )
    return solver, times


def play(
    game: Any, seat: int, deal_seed: int, choose: Chooser, known: dict[str, Any]
) -> tuple[float, float, int, int]:
    """One game, ``choose`` in ``seat`` and random players elsewhere: the seat's win
    (``1/k`` if shared), its return, its decisions with a choice and those in ``known``."""
    chance = random.Random(deal_seed)
    others = random.Random(derive_seed(deal_seed, "others"))
    mine = random.Random(derive_seed(deal_seed, "subject"))
    state = game.new_initial_state()
    decisions = hits = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.choice([action for action, _ in state.chance_outcomes()]))
        elif state.current_player() != seat:
            state.apply_action(others.choice(state.legal_actions()))
        else:
            if len(state.legal_actions()) > 1:
                decisions += 1
                hits += state.information_state_string(seat) in known
            state.apply_action(choose(state, mine))
    winners = state.game.winners()
    win = 1 / len(winners) if seat in winners else 0.0
    return win, float(state.returns()[seat]), decisions, hits


def policy_chooser(policy: Any) -> Chooser:
    """A chooser drawing from ``policy``'s action probabilities."""

    def choose(state: Any, rng: random.Random) -> int:
        probabilities = policy.action_probabilities(state)
        actions = list(probabilities)
        return int(rng.choices(actions, weights=[probabilities[a] for a in actions])[0])

    return choose


def uniform(state: Any, rng: random.Random) -> int:
    """The uniform policy: a legal action drawn uniformly."""
    return int(rng.choice(state.legal_actions()))


def evaluate(game: Any, games: int, seed: int, solver: Any) -> list[list[str]]:
    """The table's rows: the average policy and the uniform control on the same games."""
    from pastiche_core.ai.tournament import wilson_interval

    players = game.num_players()
    known = solver._infostates
    subjects = [("MCCFR average policy", policy_chooser(solver.average_policy()))]
    subjects.append(("uniform random (control)", uniform))
    rows = []
    for name, choose in subjects:
        wins = 0.0
        returns: list[float] = []
        decisions = hits = 0
        for index in range(games):
            outcome = play(game, index % players, game_seed(seed, index), choose, known)
            wins += outcome[0]
            returns.append(outcome[1])
            decisions += outcome[2]
            hits += outcome[3]
        low, high = wilson_interval(wins, games)
        rows.append(
            [
                name,
                f"{games:,}",
                f"{100 * wins / games:.1f}",
                f"[{100 * low:.1f}, {100 * high:.1f}]",
                f"{wins / games * players:.2f}x",
                f"{statistics.fmean(returns):+.3f}",
                f"{100 * hits / max(1, decisions):.1f}",
            ]
        )
        print(f"  {name}: {games:,} games played", file=sys.stderr, flush=True)
    return rows


def _bounded(top: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if not 1 <= value <= top:
            raise argparse.ArgumentTypeError(f"expected an integer from 1 to {top:,}, got {text}")
        return value

    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """Train, play, print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--iterations", type=_bounded(MAX_ITERATIONS), default=3000, help="MCCFR iterations (3000)"
    )
    parser.add_argument(
        "--games", type=_bounded(MAX_GAMES), default=600, help="games per policy (600)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed (2024)")
    parser.add_argument("--game", default=SMALLEST, help="the game string (the smallest game)")
    args = parser.parse_args(argv)

    import pyspiel

    import pastiche_core.openspiel  # noqa: F401 - registers python_pastiche

    game = pyspiel.load_game(args.game)
    print(f"MCCFR benchmark: Python {sys.version.split()[0]}, seed {args.seed}")
    print(f"game: {str(game).replace(f'{ROOT}/', '')}")  # the catalogue relative to the checkout
    start = time.perf_counter()
    solver, times = train(game, args.iterations, args.seed)
    wall = time.perf_counter() - start
    print(
        f"\nOutcome-sampling MCCFR, {args.iterations:,} iterations (one episode per player "
        f"each): {sum(times):.1f} CPU s, {wall:.1f} s wall clock, peak memory "
        f"{peak_mib():,.0f} MiB"
    )
    print(
        aligned(
            ["CPU ms per iteration, mean", "p95", "information states", "per iteration"],
            [
                [
                    f"{1000 * statistics.fmean(times):.1f}",
                    f"{1000 * percentile(times, 0.95):.1f}",
                    f"{len(solver._infostates):,}",
                    f"{len(solver._infostates) / args.iterations:.0f}",
                ]
            ],
        )
    )
    players = game.num_players()
    print(
        f"\nPlay: {args.games:,} games per policy, its seat game % {players}, "
        f"uniformly random players in the others, the same games for both"
    )
    print(aligned(HEADER, evaluate(game, args.games, args.seed, solver), first_left=True))
    print(
        f"parity: {100 / players:.1f} %; intervals: Wilson, each game a trial; in tables: "
        "the policy's decisions (with a choice) whose information state MCCFR visited"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
