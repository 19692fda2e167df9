"""How long ``outs`` takes: the midgame example position and views of random games.

    python benchmarks/bench_outs.py [--runs 5] [--views 6] [--writes 3]

Prints one row per input: the median wall time of ``--runs`` calls (default
writes 3, seed 0), and whether every Novel's odds were exact.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from pastiche_core import Game, load_position, outs

ROOT = Path(__file__).resolve().parent.parent


def _median(source: object, runs: int, writes: int) -> tuple[float, bool]:
    times = []
    exact = True
    for _ in range(runs):
        start = time.perf_counter()
        report = outs(source, writes=writes, time_limit=None)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
        exact = all(entry.odds.exact for entry in report.novels)
    return statistics.median(times), exact


def _view(seed: int, moves: int) -> object:
    game = Game(players=4, seed=seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = list(game.legal_moves)
        game.apply(legal[pick.randrange(len(legal))])
    return game.view(game.to_move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--views", type=int, default=6)
    parser.add_argument("--writes", type=int, default=3)
    args = parser.parse_args()
    inputs: list[tuple[str, object]] = [
        ("midgame.json", load_position(ROOT / "examples" / "positions" / "midgame.json"))
    ]
    inputs += [(f"random view {seed}", _view(seed, 10 + 8 * seed)) for seed in range(args.views)]
    print(f"| input | median of {args.runs} (s) | odds |")
    print("|---|---:|---|")
    for name, source in inputs:
        seconds, exact = _median(source, args.runs, args.writes)
        print(f"| {name} | {seconds:.3f} | {'exact' if exact else 'sampled'} |")


if __name__ == "__main__":
    main()
