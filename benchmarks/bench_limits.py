"""What the solver's limits cost: bounded ``solve`` against the exact building blocks.

Run: ``python benchmarks/bench_limits.py [--repeats R] [--cpu N]``.

For each example position (``examples/positions/*.json``) and a crowded
position (a 19-card hand and 30 Masterpieces: every card in play), one row with
the median over ``R`` runs of:

* ``exact ms``: :func:`pastiche_core.solver.fast.options` plus
  :func:`~pastiche_core.solver.fast.pareto`, unbounded, as the solver answered
  before it had limits (the baseline);
* ``unbounded ms``: :func:`pastiche_core.solve` with ``time_limit=None`` and
  ``max_options=None``: the same answer plus the counts per Novel;
* ``bounded ms``: :func:`pastiche_core.solve` with the command line's defaults
  (10 s, 1,000 options);
* ratios against the baseline, measured in the same runs (modes interleaved).

The crowded position is skipped by the baseline and the unbounded mode, which
would list 849,600 options; its row shows what the limits make of it.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchkit import pin_one_core

from pastiche_core import CLI_MAX_OPTIONS, DECK, DEFAULT_TIME_LIMIT, Masterpiece, Position, solve
from pastiche_core.engine.movegen import clear_caches
from pastiche_core.io import load_query
from pastiche_core.solver.fast import options, pareto
from pastiche_core.solver.options import Constraints

ROOT = Path(__file__).resolve().parent.parent


def crowded() -> Position:
    """Every card in play: a 19-card hand and 30 Masterpieces over five seats."""
    cards = list(DECK)
    random.Random(1).shuffle(cards)
    table = tuple(Masterpiece(f"m{i}", i % 5, card) for i, card in enumerate(cards[19:]))
    return Position(player=0, hand=tuple(cards[:19]), masterpieces=table)


def cases() -> list[tuple[str, Position, Constraints, bool]]:
    """(name, position, constraints, whether the unbounded modes can run)."""
    found = []
    for path in sorted((ROOT / "examples" / "positions").glob("*.json")):
        position, constraints = load_query(path)
        found.append((path.stem, position, constraints, True))
    found.append(("crowded", crowded(), Constraints(), False))
    return found


def exact(position: Position, constraints: Constraints) -> object:
    """The exact building blocks, unbounded: what the solver ran before it had limits."""
    return options(position, constraints), pareto(position, constraints)


def timed(call: Callable[[], object]) -> float:
    clear_caches()
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def _cell(median: dict[str, float], mode: str, width: int) -> str:
    return f"{median[mode]:>{width}.2f}" if mode in median else f"{'n/a':>{width}}"


def _ratio(median: dict[str, float], mode: str, width: int) -> str:
    if mode not in median or "exact" not in median:
        return f"{'n/a':>{width}}"
    return f"{median[mode] / median['exact']:>{width}.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="runs per figure (median)")
    parser.add_argument("--cpu", type=int, default=0, help="pin to this CPU (-1: do not pin)")
    args = parser.parse_args(argv)
    pin_one_core(args.cpu)
    header = (
        f"{'position':<10} {'options':>9} {'exact ms':>9} {'unbounded ms':>13} "
        f"{'bounded ms':>11} {'unbounded/exact':>16} {'bounded/exact':>14}"
    )
    print(header)
    print("-" * len(header))
    for name, position, constraints, exact_ok in cases():
        modes: dict[str, Callable[[], object]] = {
            "bounded": functools.partial(
                solve,
                position,
                constraints=constraints,
                time_limit=DEFAULT_TIME_LIMIT,
                max_options=CLI_MAX_OPTIONS,
            )
        }
        if exact_ok:
            modes["exact"] = functools.partial(exact, position, constraints)
            modes["unbounded"] = functools.partial(
                solve, position, constraints=constraints, time_limit=None, max_options=None
            )
        runs: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(args.repeats):
            for mode, call in modes.items():
                runs[mode].append(timed(call))
        median = {mode: statistics.median(values) for mode, values in runs.items()}
        total = solve(position, constraints=constraints, max_options=0).total

        print(
            f"{name:<10} {total:>9,} {_cell(median, 'exact', 9)} "
            f"{_cell(median, 'unbounded', 13)} {_cell(median, 'bounded', 11)} "
            f"{_ratio(median, 'unbounded', 16)} {_ratio(median, 'bounded', 14)}"
        )
    print(f"\nmedian of {args.repeats} runs, counting caches cleared before each call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
