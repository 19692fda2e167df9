"""Paired screening of the search's settings: the same games with and without a change.

Run: ``python benchmarks/screen_search.py [--games N] [--seed S] [--simulations N]
[--workers W] VARIANT [VARIANT ...]``.

A variant is ``default`` or a list of changes joined by ``+``: ``key=value`` sets a
field of :class:`~pastiche_core.ai.search.Settings` (``horizon_rounds=3``,
``tree_depth=1``, ``anchor_margin=0.05``, ``anchor=false``, ...) and
``simulations=N`` the simulations per decision. Each variant plays game ``i``
of ``--seed`` with the search in seat ``i % 4`` against three greedy bots, the
same deals and the same opponents for every variant, simulations fixed (no
wall-clock ceiling), so the games replay exactly and differences are paired.
The table gives each variant's win rate (a shared win counts as a fraction, R13)
and, against the first variant, the mean paired difference with its 95 %
interval (normal approximation over games).

These are the screens of the hints page's "What makes the search stronger"
(200 games at 84 simulations take about 5 minutes a variant on 2 cores)::

    python benchmarks/screen_search.py --games 200 default simulations=300 tree_depth=1
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from bench_search import match_game
from benchkit import aligned

from pastiche_core.ai import SearchBot
from pastiche_core.ai.search import DEFAULT_SETTINGS, Settings, simulations_for
from pastiche_core.bots.play import derive_seed


def parse_variant(text: str, simulations: int) -> tuple[Settings, int]:
    """The settings and simulations a variant names (see the module)."""
    settings = DEFAULT_SETTINGS
    if text == "default":
        return settings, simulations
    fields = {field.name: field for field in dataclasses.fields(Settings)}
    for part in text.split("+"):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"variant {text!r}: expected key=value, got {part!r}")
        if key == "simulations":
            simulations = int(value)
            continue
        if key not in fields:
            raise ValueError(f"variant {text!r}: unknown setting {key!r} ({', '.join(fields)})")
        current = getattr(settings, key)
        parsed: Any
        if isinstance(current, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"variant {text!r}: {key} must be true or false")
            parsed = value.lower() == "true"
        else:
            parsed = type(current)(value)
        settings = dataclasses.replace(settings, **{key: parsed})
    return settings, simulations


def play_one(job: tuple[Settings, int, int, int]) -> float:
    """The search's win share in game ``index`` of ``seed`` (``bench_search``'s game)."""
    settings, simulations, seed, index = job
    hero = SearchBot(derive_seed(seed, "search", index), simulations=simulations, settings=settings)
    game, seat = match_game(hero, "greedy", seed, index)
    winners = game.winners()
    return 1 / len(winners) if seat in winners else 0.0


def paired(results: Sequence[float], reference: Sequence[float]) -> tuple[float, float]:
    """Mean paired difference and the half-width of its 95 % interval."""
    differences = [a - b for a, b in zip(results, reference, strict=True)]
    if len(differences) < 2:
        return statistics.fmean(differences), math.inf
    spread = statistics.stdev(differences)
    return statistics.fmean(differences), 1.96 * spread / math.sqrt(len(differences))


def main(argv: Sequence[str] | None = None) -> int:
    """Play every variant on the same games and print the paired table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("variants", nargs="+", help="'default' or key=value[+key=value...]")
    parser.add_argument("--games", type=int, default=100, help="games per variant (100)")
    parser.add_argument("--seed", type=int, default=2025, help="seed of the games (2025)")
    parser.add_argument(
        "--simulations",
        type=int,
        default=simulations_for(300),
        help="simulations per decision unless a variant says (those of the 300 ms hint)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.workers < 1:
        parser.error("--games must be at least 2 and --workers at least 1")
    try:
        plans = [parse_variant(text, args.simulations) for text in args.variants]
    except ValueError as error:
        parser.error(str(error))
    rows = []
    reference: list[float] | None = None
    with Pool(args.workers) as pool:
        for text, (settings, simulations) in zip(args.variants, plans, strict=True):
            jobs = [(settings, simulations, args.seed, index) for index in range(args.games)]
            results = pool.map(play_one, jobs, chunksize=1)
            rate = f"{statistics.fmean(results) * 100:.1f} %"
            if reference is None:
                reference = results
                versus = "reference"
            else:
                mean, half = paired(results, reference)
                versus = f"{mean * 100:+.1f} ± {half * 100:.1f} points"
            rows.append((text, str(simulations), rate, versus))
            print(f"  {text}: {rate}", file=sys.stderr)
    print(
        f"search vs 3 greedy bots, {args.games} games of seed {args.seed}, "
        "simulations fixed (no ceiling)"
    )
    print(aligned(("variant", "simulations", "win rate", "vs first"), rows, first_left=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
