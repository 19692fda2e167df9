"""Two checkouts of the engine on one CPU, taking turns: is one slower than the other?

A shared machine's speed moves by a fifth from one second to the next, more than
the differences a change to the engine makes. Here two worker processes, one per
checkout, are pinned to the same CPU and run in turn, a short chunk of the same
work each (the same seeded random games, so the same moves), alternating which
goes first. Each pair of chunks runs within a few tens of milliseconds, under
the same conditions, so the ratio of each pair cancels the machine's drift; the
median of the pairs' ratios is the answer.

    python benchmarks/bench_ab.py BEFORE AFTER                # every mode
    python benchmarks/bench_ab.py BEFORE AFTER --modes engine view --rounds 200

``BEFORE`` and ``AFTER`` are repository roots, each with its own virtual
environment in ``.venv`` (``--python-before`` / ``--python-after`` name other
interpreters); each worker imports the ``pastiche_core`` that its interpreter
has installed. The modes time, per unit of work:

* ``engine``: a random move (``legal_moves``, ``len``, an index, ``apply``);
* ``view``: a player's view with its history, at every decision (the view alone timed);
* ``engine-view``: a random move after the mover's view (``bench_games.py``'s
  full view at every decision: the views and the moves timed together);
* ``encoding``: a move built atomic action by atomic action (``MoveBuilder``);
* ``pettingzoo``: an ``env.step`` with its mask and observation;
* ``publish``: every option of a position, by the fast solver with its caches
  emptied (``bench_publish.py``'s positions of 10 cards and 8 Masterpieces);
* ``engine-pure``, ``pettingzoo-pure``: the same without the compiled kernels.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchkit import aligned, package_module, random_env_game

MODES = {  # mode -> units per chunk
    "engine": 500,
    "view": 300,
    "engine-view": 300,
    "encoding": 100,
    "pettingzoo": 300,
    "publish": 5,
    "engine-pure": 150,
    "pettingzoo-pure": 100,
}


def _positions() -> Iterator[tuple[Any, random.Random]]:
    """Every decision of random 4-player games, seed 0 on, with each game's chooser."""
    from pastiche_core import Game

    seed = 0
    while True:
        game, rng = Game(players=4, seed=seed), random.Random(seed)
        seed += 1
        while not game.is_over:
            yield game, rng


def _chunk(mode: str) -> Callable[[int], float]:
    """The work of ``mode``: a function that does ``n`` units and returns their CPU seconds."""
    clock = time.process_time
    if mode.startswith("pettingzoo"):
        environment = package_module("rl.pettingzoo", "pettingzoo").env(players=4)
        stepping = (None for seed in itertools.count() for _ in random_env_game(environment, seed))

        def run_steps(n: int) -> float:
            start = clock()
            for _ in range(n):
                next(stepping)
            return clock() - start

        return run_steps
    if mode == "publish":
        from bench_publish import cold_fast_options, positions_of

        chosen = positions_of((10, 8), 20, 2024)
        turn = itertools.cycle(chosen)

        def run_solves(n: int) -> float:
            start = clock()
            for _ in range(n):
                cold_fast_options(next(turn))
            return clock() - start

        return run_solves
    positions = _positions()
    if mode == "view":

        def run_views(n: int) -> float:
            spent = 0.0
            for _ in range(n):
                game, rng = next(positions)
                start = clock()
                game.view(game.to_move)
                spent += clock() - start
                legal = game.legal_moves
                game.apply(legal[rng.randrange(len(legal))])
            return spent

        return run_views
    if mode == "encoding":
        from pastiche_core.rl import ActionSpace, MoveBuilder

        space = ActionSpace()

        def run_builds(n: int) -> float:
            start = clock()
            for _ in range(n):
                game, rng = next(positions)
                builder = MoveBuilder(space, game.view(game.to_move))
                move = None
                while move is None:
                    actions = builder.legal_actions()
                    move = builder.push(actions[rng.randrange(len(actions))])
                game.apply(move)
            return clock() - start

        return run_builds

    with_view = mode == "engine-view"

    def run_moves(n: int) -> float:
        start = clock()
        for _ in range(n):
            game, rng = next(positions)
            if with_view:
                game.view(game.to_move)
            legal = game.legal_moves
            game.apply(legal[rng.randrange(len(legal))])
        return clock() - start

    return run_moves


def worker(mode: str, units: int, cpu: int) -> None:
    """Do one chunk per line read from stdin and write its CPU seconds, until stdin ends."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    run = _chunk(mode)
    run(units)  # warm up: imports, caches
    for _ in sys.stdin:
        sys.stdout.write(f"{run(units)!r}\n")
        sys.stdout.flush()


def compare(
    pythons: tuple[str, str], roots: tuple[Path, Path], mode: str, rounds: int, cpu: int
) -> list[str]:
    """One table row: ``mode``'s per-unit times and the after/before ratios."""
    units = MODES[mode]
    environment = dict(os.environ)
    if mode.endswith("-pure"):
        environment["PASTICHE_PURE_PYTHON"] = "1"
    workers = [
        subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--worker", mode, str(units), str(cpu)],
            cwd=root,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for python, root in zip(pythons, roots, strict=True)
    ]
    times: list[list[float]] = [[], []]
    try:
        for turn in range(rounds):
            for index in (0, 1) if turn % 2 == 0 else (1, 0):
                process = workers[index]
                assert process.stdin is not None
                assert process.stdout is not None
                process.stdin.write("go\n")
                process.stdin.flush()
                times[index].append(float(process.stdout.readline()))
    finally:
        for process in workers:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=60)
    before, after = times
    pairs = [b / a for a, b in zip(before, after, strict=True)]
    return [
        mode,
        f"{statistics.median(before) / units * 1e6:.1f}",
        f"{statistics.median(after) / units * 1e6:.1f}",
        f"{statistics.median(pairs):.3f}",
        f"{statistics.quantiles(pairs, n=4)[0]:.3f}–{statistics.quantiles(pairs, n=4)[2]:.3f}",
        f"{sum(after) / sum(before):.3f}",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, nargs="?", help="the first checkout's root")
    parser.add_argument("after", type=Path, nargs="?", help="the second checkout's root")
    parser.add_argument("--python-before", help="its interpreter (default: BEFORE/.venv)")
    parser.add_argument("--python-after", help="its interpreter (default: AFTER/.venv)")
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=list(MODES))
    parser.add_argument("--rounds", type=int, default=120, help="pairs of chunks per mode")
    parser.add_argument("--cpu", type=int, default=None, help="the CPU (default: the last)")
    parser.add_argument(
        "--worker", nargs=3, metavar=("MODE", "UNITS", "CPU"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.worker:
        mode, units, cpu = args.worker
        worker(mode, int(units), int(cpu))
        return
    if args.before is None or args.after is None:
        parser.error("name the two checkouts: BEFORE AFTER")
    if args.rounds < 4:
        parser.error("--rounds must be at least 4")
    roots = (args.before.resolve(), args.after.resolve())
    pythons = (
        args.python_before or str(roots[0] / ".venv" / "bin" / "python"),
        args.python_after or str(roots[1] / ".venv" / "bin" / "python"),
    )
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    print(
        f"After against before, per unit of work: two workers on CPU {cpu} taking turns, "
        f"{args.rounds} chunks each (median of the pairs' ratios; quartiles; ratio of the sums)"
    )
    print(f"before: {roots[0]}\nafter:  {roots[1]}\n")
    rows = [compare(pythons, roots, mode, args.rounds, cpu) for mode in args.modes]
    header = ["mode", "before µs", "after µs", "after/before", "quartiles", "sums"]
    print(aligned(header, rows, first_left=True))


if __name__ == "__main__":
    main()
