"""How long a game review takes per decision, against one plain search of each decision.

Run: ``python benchmarks/bench_review.py [--simulations N] [--repeats R] [--player N]
[--cpu C] [RECORD.json ...]``.

For each record (default: every shipped record, ``examples/records/*.json``) two modes
review the same decisions, those of ``--player`` (default: every seat), ``R`` times each,
interleaved run by run:

1. ``review``: :func:`~pastiche_core.ai.review.review` at ``--simulations``: per
   decision the candidate moves, a search of them and, when the search prefers
   another move than the one played, a second search of the two on the same
   deals (forced decisions are not searched);
2. ``one search`` (the baseline): one plain :func:`~pastiche_core.ai.search.search`
   at the same simulations of each decision the review searches (the same
   views), nothing else.

One table: per record and mode the decisions, the median time per decision over
the runs (with min and max), the median time of a run, and the ratio against the
baseline of the same record, measured in the same runs. Every run does the same
work (the review and the searches are deterministic), so runs compare like with
like. The process is pinned to one CPU (``--cpu``) where the OS allows it; the
figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchkit import aligned, pin_one_core

from pastiche_core import Game, GameRecord
from pastiche_core.ai.review import review
from pastiche_core.ai.search import search
from pastiche_core.bots.play import derive_seed
from pastiche_core.engine.view import PlayerView

RECORDS = Path(__file__).resolve().parents[1] / "examples" / "records"
"""Where the shipped records are."""


@dataclass(frozen=True)
class Row:
    """One record and mode: the decisions of a run and the seconds of each run."""

    record: str
    mode: str
    decisions: int
    seconds: list[float]

    @property
    def per_decision(self) -> list[float]:
        """Seconds per decision, one per run."""
        return [elapsed / self.decisions for elapsed in self.seconds]

    @property
    def median(self) -> float:
        """The median seconds per decision."""
        return statistics.median(self.per_decision)


def searched_views(record: GameRecord, seats: Sequence[int]) -> list[tuple[int, PlayerView]]:
    """The views of the decisions a review of ``seats`` searches: those with two moves or more."""
    game = Game(record.players, record.seed, record.catalogue, rules=record.rules)
    views = []
    for index, move in enumerate(record.moves):
        if game.to_move in seats and len(game.legal_moves) > 1:
            views.append((index, game.view(game.to_move)))
        game.apply(move)
    return views


def measure(
    record: GameRecord, seats: Sequence[int], simulations: int, repeats: int
) -> tuple[int, int, list[float], list[float]]:
    """Both modes on ``record``: decisions reviewed, decisions searched, seconds per run each."""
    player = seats[0] if len(seats) == 1 else None
    views = searched_views(record, seats)
    reviewed = 0

    def run_review() -> None:
        nonlocal reviewed
        reviewed = len(review(record, player=player, simulations=simulations).decisions)

    def run_searches() -> None:
        for index, view in views:
            search(view, simulations=simulations, seed=derive_seed(0, "review", index))

    modes: list[Callable[[], None]] = [run_review, run_searches]
    seconds: list[list[float]] = [[] for _ in modes]
    for _ in range(repeats):
        for mode, runner in enumerate(modes):
            start = time.perf_counter()
            runner()
            seconds[mode].append(time.perf_counter() - start)
    return reviewed, len(views), seconds[0], seconds[1]


def main(argv: Sequence[str] | None = None) -> int:
    """Run both modes on each record and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("records", nargs="*", type=Path, help="records (default: the shipped)")
    parser.add_argument("--simulations", type=int, default=64, help="simulations (64)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per mode (3)")
    parser.add_argument("--player", type=int, default=None, help="the seat (default: every)")
    parser.add_argument(
        "--cpu",
        type=int,
        default=None,
        help="CPU to pin the process to (default: the lowest allowed; -1: do not pin)",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.simulations < 1:
        parser.error("--repeats and --simulations must be at least 1")
    paths = args.records or sorted(RECORDS.glob("*.json"))
    where = pin_one_core(args.cpu)
    print(
        f"Game review at {args.simulations} simulations, Python {sys.version.split()[0]}, "
        f"{where}, median of {args.repeats} runs",
        flush=True,
    )
    rows: list[list[str]] = []
    for path in paths:
        record = GameRecord.load(path)
        seats = range(record.players) if args.player is None else [args.player]
        reviewed, searched, review_s, search_s = measure(
            record, list(seats), args.simulations, args.repeats
        )
        base = Row(path.stem, "one search", searched, search_s)
        full = Row(path.stem, "review", reviewed, review_s)
        who = "every seat" if args.player is None else f"seat {args.player}"
        for row in (full, base):
            rows.append(
                [
                    f"{row.record} ({who})",
                    row.mode,
                    str(row.decisions),
                    f"{row.median * 1000:.0f}",
                    f"{min(row.per_decision) * 1000:.0f}",
                    f"{max(row.per_decision) * 1000:.0f}",
                    f"{statistics.median(row.seconds):.1f}",
                    f"{statistics.median(row.seconds) / statistics.median(base.seconds):.2f}x",
                ]
            )
    header = ["record", "mode", "decisions", "ms/decision", "min", "max", "s/run", "vs search"]
    print()
    print(aligned(header, rows, first_left=True))
    print(
        "\nreview: every decision of the seats (forced ones are not searched)\n"
        "one search: one plain search of each decision the review searches\n"
        "vs search: the median time of a run against the baseline's, same record"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
