"""``pastiche review RECORD.json``: where each seat lost a game, decision by decision.

On a terminal (standard error is one) a progress bar with the time left is
drawn while the decisions are reviewed, then the review is printed; when
standard error is no terminal, one line per decision is written to standard
output as it is reviewed, then the summary. ``--json`` prints the
``pastiche-review`` document alone.

>>> import argparse
>>> args = argparse.Namespace(record="examples/records/planted-blunders.json", player=3,
...                           simulations=2, seed=0, json=False)
>>> run_review(args)
#...
player 3: ... decisions, ...
0
"""

from __future__ import annotations

import argparse
import sys

from ..ai.review import GameReview, ReviewedDecision, review_game
from ..data._text import fit_line
from ..io.record import GameRecord
from .progress import ProgressBar, terminal_columns

__all__ = ["run_review"]


def run_review(args: argparse.Namespace) -> int:
    """Run ``pastiche review`` on parsed arguments (``record``, ``player``, ``simulations``,
    ``seed``, ``json``); return the exit status (bad input raises a ``ValueError``)."""
    record = GameRecord.load(args.record)
    width = terminal_columns() or 80
    bar = ProgressBar(sys.stderr, delay=0.0, unit="decisions")
    bar.enabled = bar.enabled and not args.json
    lines = not bar.enabled and not args.json

    def line(decision: ReviewedDecision) -> None:
        if lines:  # one line each, cut to the width
            text = str(decision)
            print(text if len(text) <= width else text[: width - 3] + "...", flush=True)

    start = record.dealt()
    try:
        done = review_game(
            start,
            record.moves,
            player=args.player,
            simulations=args.simulations,
            seed=args.seed,
            progress=bar,
            on_decision=line,
        )
    finally:
        bar.close()
    if args.json:
        print(done.to_json())
    elif lines:
        _print_summary(done, width)
    else:
        print(done.format(width=width))
    return 0


def _print_summary(done: GameReview, width: int) -> None:
    for line in done.summary_lines():
        print(fit_line(line, width))
