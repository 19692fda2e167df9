"""How long ``outs`` takes: the midgame example position and views of random games.

    python benchmarks/bench_outs.py [--runs 3] [--views 6] [--writes 3 10] [--against REV]

Prints one row per input and number of writes: the median wall time of ``--runs``
calls (seed 0), whether every Novel's odds were exact, and whether the answer was
complete. With ``--against REV`` (a git revision) the odds module of that revision
is timed on the same inputs too, the two alternated call by call, with the ratio
of the medians (this code's over the revision's).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from pastiche_core import Game, load_position, outs
from pastiche_core.solver import closeness

ROOT = Path(__file__).resolve().parent.parent
_SWAPPED = ("NEVER", "Reach", "added", "write_odds")


def _odds_of(revision: str) -> ModuleType:
    """The odds module of a git revision, loaded beside today's."""
    text = subprocess.run(
        ["git", "show", f"{revision}:src/pastiche_core/solver/odds.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "odds_before.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("pastiche_core.solver.odds_before", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _using(module: ModuleType | None) -> Callable[[], None]:
    """Make ``outs`` use ``module``'s odds (``None``: today's); returns the undo."""
    saved = {name: getattr(closeness, name) for name in _SWAPPED}
    if module is not None:
        for name in _SWAPPED:
            setattr(closeness, name, getattr(module, name))

    def undo() -> None:
        for name, value in saved.items():
            setattr(closeness, name, value)

    return undo


def _once(source: object, writes: int, module: ModuleType | None) -> tuple[float, bool, bool]:
    undo = _using(module)
    try:
        start = time.perf_counter()
        report = outs(source, writes=writes, time_limit=None)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
    finally:
        undo()
    return seconds, all(entry.odds.exact for entry in report.novels), report.complete


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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--views", type=int, default=6)
    parser.add_argument("--writes", type=int, nargs="+", default=[3, 10])
    parser.add_argument("--against", metavar="REV", help="a git revision to compare with")
    args = parser.parse_args()
    before = _odds_of(args.against) if args.against else None
    inputs: list[tuple[str, object]] = [
        ("midgame.json", load_position(ROOT / "examples" / "positions" / "midgame.json"))
    ]
    for seed in range(args.views):
        view = _view(seed, 10 + 8 * seed)
        hand = len(view.hand)  # type: ignore[attr-defined]
        inputs.append((f"random view {seed} ({hand} cards)", view))
    head = f"| input | writes | median of {args.runs} (s) | odds |"
    rule = "|---|---:|---:|---|"
    if before is not None:
        head += f" {args.against} (s) | ratio |"
        rule += "---:|---:|"
    print(head)
    print(rule)
    for writes in args.writes:
        for name, source in inputs:
            now: list[float] = []
            then: list[float] = []
            exact = complete = True
            for _ in range(args.runs):
                seconds, exact, complete = _once(source, writes, None)
                now.append(seconds)
                if before is not None:
                    then.append(_once(source, writes, before)[0])
            odds = ("exact" if exact else "sampled") + ("" if complete else ", cut short")
            row = f"| {name} | {writes} | {statistics.median(now):.3f} | {odds} |"
            if before is not None:
                old = statistics.median(then)
                row += f" {old:.3f} | {statistics.median(now) / old:.2f} |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
