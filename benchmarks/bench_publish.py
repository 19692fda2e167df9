"""How fast "what can I publish?" is answered: fast engine, CP-SAT and a brute force.

Run: ``python benchmarks/bench_publish.py [--positions N] [--repeats R] [--budget S]``.

Positions of sizes (hand, Masterpieces) = (5, 3), (8, 5), (10, 8), (12, 10) and
(15, 12) are drawn deterministically from the real deck (``--seed``): the
player is seat 0 of 4, each Masterpiece has a random owner among the 4 seats
and a Novel that owner does not hold yet, the player holds the Novels of their
own Masterpieces and the supply lacks the copies on the table (R6). ``N``
positions per size.

For each size, one table row with the median over ``R`` runs of the time per
position (all engines interleaved run by run, so they share the machine's
conditions):

* ``fast``: :func:`pastiche_core.solver.fast.options`, every distinct option
  (R8), with the counting caches cleared before each position (cold);
* ``µs/opt``: the fast engine's time per emitted option;
* ``brute``: a reference written from the rulings, every combination of hand
  cards with every combination of Masterpieces of the Novel's size checked with
  ``pattern.matches`` (``itertools``), deduplicated by R8 key; ``n/a`` where its
  estimated time (from the combinations to test and a calibrated rate) exceeds
  ``--budget`` seconds for the row;
* ``cpsat``: :func:`pastiche_core.solver.cpsat.options` (``n/a`` without it);
* ``pareto``: every Pareto front of the position (R9), fast engine and CP-SAT;
* ratios ``brute/fast`` and ``cpsat/fast`` measured in the same run.

Before timing, the three enumerations are checked to give the same R8 keys.
Then ``import pastiche_core`` is timed in fresh subprocesses (median of 7), and
the figures are compared with the targets. The process is pinned to one CPU
(``--cpu``) where the OS allows it.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import itertools
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchkit import aligned, package_module, pin_one_core

from pastiche_core import DECK, Catalogue, Masterpiece, Position

if TYPE_CHECKING:
    from pastiche_core.solver.options import PublishOption

# Read by module so bench_ab.py can time a checkout from before the layer folders too.
_OPTIONS = package_module("solver.options", "options")
_FAST = package_module("solver.fast", "solver_fast")
clear_caches = package_module("engine.movegen", "movegen").clear_caches
fast_options = _FAST.options
fast_pareto = _FAST.pareto
make_option = _OPTIONS.make_option
option_key = _OPTIONS.option_key

SIZES = ((5, 3), (8, 5), (10, 8), (12, 10), (15, 12))
PLAYERS = 4
TARGET_SIZE = (10, 8)
CPSAT_TIME_LIMIT = 120.0

OptionKey = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]

HAS_CPSAT = importlib.util.find_spec("ortools") is not None  # the CP-SAT model needs OR-Tools


# ----------------------------------------------------------------------
# Positions
# ----------------------------------------------------------------------
def make_position(rng: random.Random, hand: int, masterpieces: int) -> Position:
    """A realistic position of seat 0 among 4 players, from distinct cards of the deck.

    >>> pos = make_position(random.Random(1), 8, 5)
    >>> len(pos.hand), len(pos.masterpieces), pos.player
    (8, 5, 0)
    """
    catalogue = Catalogue.default()
    novels = [spec.id for spec in catalogue.publishable]
    supply = {spec.id: spec.copies for spec in catalogue.publishable}
    held: list[set[str]] = [set() for _ in range(PLAYERS)]
    cards = rng.sample(DECK, hand + masterpieces)
    table = []
    for card in cards[hand:]:
        owner = rng.randrange(PLAYERS)
        novel = rng.choice([n for n in novels if n not in held[owner] and supply[n] > 0])
        held[owner].add(novel)
        supply[novel] -= 1
        table.append(Masterpiece(f"{owner}:{novel}", owner, card))
    return Position(
        player=0,
        hand=tuple(cards[:hand]),
        masterpieces=tuple(table),
        held_novels=frozenset(held[0]),
        supply=supply,
        catalogue=catalogue,
    )


def positions_of(size: tuple[int, int], count: int, seed: int) -> list[Position]:
    """``count`` positions of one size, the same for the same seed.

    >>> positions_of((5, 3), 2, 7) == positions_of((5, 3), 2, 7)
    True
    """
    rng = random.Random(f"{seed}/{size[0]}/{size[1]}")
    return [make_position(rng, *size) for _ in range(count)]


# ----------------------------------------------------------------------
# The brute-force reference
# ----------------------------------------------------------------------
def brute_options(position: Position) -> list[PublishOption]:
    """Every distinct option by exhaustive search over combinations (R4–R6, R8).

    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> sorted(str(o) for o in brute_options(pos) if o.novel == "kind-5")
    ['kind-5: MYS7 FAN7 cite m1 m2 m3 gifts 1x2']
    """
    player = position.player
    hand = position.hand
    table = position.masterpieces
    found: dict[OptionKey, PublishOption] = {}
    for spec in position.catalogue.publishable:
        pattern = spec.pattern
        assert pattern is not None
        if not position.available(spec.id):
            continue  # R6
        size = pattern.size
        for count in range(1, len(hand) + 1):  # R4: at least one card from the hand
            cited_sizes = range(len(table) + 1) if size is None else (size - count,)
            for cited_count in cited_sizes:
                if not 0 <= cited_count <= len(table):
                    continue
                for played in itertools.combinations(hand, count):
                    for cited in itertools.combinations(table, cited_count):
                        ranks = [c.rank for c in played] + [mp.card.rank for mp in cited]
                        if not pattern.matches(ranks):
                            continue
                        gifts = sum(1 for mp in cited if mp.owner != player)
                        if gifts > len(hand) - count:
                            continue  # R5
                        cites = tuple(
                            sorted(
                                (-1 if mp.owner == player else mp.owner, mp.card.rank)
                                for mp in cited
                            )
                        )
                        key = (spec.id, tuple(sorted(c.rank for c in played)), cites)
                        if key not in found:
                            found[key] = make_option(
                                position,
                                spec.id,
                                key[1],
                                [(player if o == -1 else o, r) for o, r in cites],
                            )
    return list(found.values())


def brute_work(position: Position) -> int:
    """The combinations :func:`brute_options` tests.

    >>> brute_work(Position.quick("SCI7 HOR7 MYS7"))  # only 3 of a Kind fits in 3 cards
    1
    """
    h, m = len(position.hand), len(position.masterpieces)
    work = 0
    for spec in position.catalogue.publishable:
        if not position.available(spec.id):
            continue
        assert spec.pattern is not None
        size = spec.pattern.size
        if size is None:
            work += (2**h - 1) * 2**m
        else:
            work += math.comb(h + m, size) - math.comb(m, size)
    return work


# ----------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------
def cpsat_options(position: Position) -> list[PublishOption]:
    """Every option through CP-SAT (the run must complete)."""
    from pastiche_core.solver import cpsat as solver_cpsat

    result = solver_cpsat.options(position, time_limit=CPSAT_TIME_LIMIT)
    assert result.complete, result.status
    found: list[PublishOption] = result.value
    return found


def cpsat_pareto(position: Position) -> dict[str, list[tuple[int, int]]]:
    """Every Pareto front through CP-SAT (the run must complete)."""
    from pastiche_core.solver import cpsat as solver_cpsat

    result = solver_cpsat.pareto(position, time_limit=CPSAT_TIME_LIMIT)
    assert result.complete, result.status
    fronts: dict[str, list[tuple[int, int]]] = result.value
    return fronts


def cold_fast_options(position: Position) -> list[PublishOption]:
    """Every option through the fast engine, its counting caches emptied first."""
    clear_caches()
    found: list[PublishOption] = fast_options(position)
    return found


def cold_fast_pareto(position: Position) -> dict[str, list[tuple[int, int]]]:
    """Every Pareto front through the fast engine, its counting caches emptied first."""
    clear_caches()
    fronts: dict[str, list[tuple[int, int]]] = fast_pareto(position)
    return fronts


def time_all(run: Callable[[Position], Any], positions: Sequence[Position]) -> float:
    """Seconds to answer every position once."""
    gc.collect()
    total = 0.0
    for position in positions:
        start = time.perf_counter()
        run(position)
        total += time.perf_counter() - start
    return total


@dataclass
class Row:
    """Medians (seconds per position) of one size."""

    size: tuple[int, int]
    positions: int
    options: int
    times: dict[str, list[float]] = field(default_factory=dict)

    def median(self, engine: str) -> float | None:
        """Median seconds per position of ``engine``, ``None`` if it did not run."""
        runs = self.times.get(engine)
        return statistics.median(runs) / self.positions if runs else None


def keys(position: Position, found: list[PublishOption]) -> set[OptionKey]:
    """The R8 keys of some options."""
    return {option_key(position, option) for option in found}


def measure_size(
    size: tuple[int, int], positions: list[Position], repeats: int, brute_rate: float, budget: float
) -> tuple[Row, float]:
    """One row; returns it with the brute force's measured rate (combinations/s)."""
    found = [fast_options(p) for p in positions]
    row = Row(size, len(positions), sum(len(f) for f in found))
    work = sum(brute_work(p) for p in positions)
    brute_runs = min(repeats, 3)
    run_brute = work / brute_rate * (brute_runs + 1) <= budget  # + 1: the agreement check
    # The engines must agree before their times mean anything.
    for position, fast in zip(positions, found, strict=True):
        expected = keys(position, fast)
        if run_brute and keys(position, brute_options(position)) != expected:
            raise SystemExit(f"brute force and fast engine disagree on {position!r}")
        if HAS_CPSAT and keys(position, cpsat_options(position)) != expected:
            raise SystemExit(f"CP-SAT and fast engine disagree on {position!r}")
        if HAS_CPSAT and cpsat_pareto(position) != fast_pareto(position):
            raise SystemExit(f"CP-SAT and fast Pareto fronts disagree on {position!r}")
    engines: dict[str, Callable[[Position], Any]] = {
        "fast": cold_fast_options,
        "fast pareto": cold_fast_pareto,
    }
    if HAS_CPSAT:
        engines["cpsat"] = cpsat_options
        engines["cpsat pareto"] = cpsat_pareto
    for run in range(repeats):
        for name, engine in engines.items():
            row.times.setdefault(name, []).append(time_all(engine, positions))
        if run_brute and run < brute_runs:
            row.times.setdefault("brute", []).append(time_all(brute_options, positions))
    if run_brute and work:
        brute_rate = work / statistics.median(row.times["brute"])
    return row, brute_rate


def import_time(runs: int = 7) -> float:
    """Median seconds of ``import pastiche_core`` in a fresh interpreter."""
    code = (
        "import time; start = time.perf_counter(); import pastiche_core; "
        "print(time.perf_counter() - start)"
    )
    times = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(times)


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------
def ms(seconds: float | None) -> str:
    """Milliseconds with two decimals, or ``n/a``.

    >>> ms(0.0123), ms(None)
    ('12.30', 'n/a')
    """
    return "n/a" if seconds is None else f"{seconds * 1000:.2f}"


def ratio(slow: float | None, fast: float | None) -> str:
    """How many times faster, or ``n/a``.

    >>> ratio(0.3, 0.01), ratio(None, 0.01)
    ('30x', 'n/a')
    """
    return "n/a" if slow is None or not fast else f"{slow / fast:.0f}x"


def table(rows: Sequence[Row]) -> str:
    """The result table, one row per size."""
    header = (
        "size (hand, MPs)",
        "pos",
        "options",
        "fast ms",
        "µs/opt",
        "brute ms",
        "brute/fast",
        "cpsat ms",
        "cpsat/fast",
        "fast pareto ms",
        "cpsat pareto ms",
    )
    lines = [header]
    for row in rows:
        fast = row.median("fast")
        per_option = (
            "n/a"
            if fast is None or not row.options
            else f"{fast * row.positions / row.options * 1e6:.2f}"
        )
        lines.append(
            (
                f"({row.size[0]}, {row.size[1]})",
                str(row.positions),
                str(row.options),
                ms(fast),
                per_option,
                ms(row.median("brute")),
                ratio(row.median("brute"), fast),
                ms(row.median("cpsat")),
                ratio(row.median("cpsat"), fast),
                ms(row.median("fast pareto")),
                ms(row.median("cpsat pareto")),
            )
        )
    return aligned(header, lines[1:])


def verdicts(rows: Sequence[Row], imported: float) -> list[str]:
    """Each target with the measured figure and whether it is met."""
    by_size = {row.size: row for row in rows}
    target = by_size.get(TARGET_SIZE)
    lines = []

    def check(what: str, value: float | None, goal: float, unit: str, *, low: bool) -> None:
        if value is None:
            lines.append(f"  {what}: n/a (target {'<=' if low else '>='} {goal:g}{unit})")
            return
        met = value <= goal if low else value >= goal
        mark = "met" if met else "NOT met"
        lines.append(
            f"  {what}: {value:.2f}{unit} (target {'<=' if low else '>='} {goal:g}{unit}): {mark}"
        )

    if target is not None:
        fast = target.median("fast")
        brute, cpsat = target.median("brute"), target.median("cpsat")
        check(
            "fast vs brute on (10, 8)",
            brute / fast if brute and fast else None,
            30,
            "x",
            low=False,
        )
        check(
            "fast vs CP-SAT enumeration on (10, 8)",
            cpsat / fast if cpsat and fast else None,
            20,
            "x",
            low=False,
        )
        pareto = target.median("fast pareto")
        check("fast Pareto on (10, 8)", pareto and pareto * 1000, 5, " ms", low=True)
        cpsat_p = target.median("cpsat pareto")
        check("CP-SAT Pareto on (10, 8)", cpsat_p and cpsat_p * 1000, 25, " ms", low=True)
    large = [row for row in rows if row.size[0] >= 12 and row.options]
    for row in large:
        fast = row.median("fast")
        check(
            f"fast µs per option on {row.size}",
            fast * row.positions / row.options * 1e6 if fast else None,
            5,
            " µs",
            low=True,
        )
    check("import pastiche_core", imported, 0.2, " s", low=True)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every size, print the table and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=5, help="positions per size (5)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per engine (7)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the positions (2024)")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds the brute force may take per row (20)"
    )
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (-1: do not pin)")
    args = parser.parse_args(argv)
    where = pin_one_core(args.cpu)
    print(
        f"publish benchmark: {args.positions} positions per size, {args.repeats} runs, "
        f"seed {args.seed}, {where}, CP-SAT {'available' if HAS_CPSAT else 'not available'}"
    )
    rows = []
    brute_rate = 5e5  # combinations per second, re-measured after every row it runs on
    for size in SIZES:
        positions = positions_of(size, args.positions, args.seed)
        row, brute_rate = measure_size(size, positions, args.repeats, brute_rate, args.budget)
        rows.append(row)
        print(f"  measured {size}: {row.options} options", file=sys.stderr)
    imported = import_time()
    print()
    print(table(rows))
    print()
    print("times are medians per position; ratios are measured in the same runs")
    print(f"import pastiche_core (fresh interpreter, median of 7): {imported * 1000:.0f} ms")
    print("targets:")
    print("\n".join(verdicts(rows, imported)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
