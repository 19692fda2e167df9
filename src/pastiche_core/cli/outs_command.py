"""``pastiche outs FILE [--player N] [--json] [--writes K] [--seed S]``: how close each Novel is.

FILE is a view (``pastiche-view``), a position (no ``format``) or a state
(``pastiche-state``, answered for ``--player``, by default the player to move,
from that player's view alone, R16); ``-`` reads standard input. The text is a
table at most 80 columns wide (the terminal's width when it is one); ``--json``
prints the ``pastiche-outs`` document (``io/schemas/outs.schema.json``).

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> configure_outs(parser)
>>> args = parser.parse_args(["view.json", "--writes", "2"])
>>> args.file, args.writes, args.player, args.json
('view.json', 2, None, False)
"""

from __future__ import annotations

import argparse
import json

from ..engine.rules import MAX_PLAYERS
from ..solver.closeness import MAX_WRITES, outs
from .arguments import int_range, load_seat_query
from .progress import terminal_columns

__all__ = ["configure_outs", "run_outs"]

_MAX_SEED = (1 << 63) - 1
_WIDTH = 80


def configure_outs(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pastiche outs`` to ``parser``."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a view (pastiche-view), a position, or a state (pastiche-state); '-' reads stdin",
    )
    parser.add_argument(
        "--player",
        type=int_range("player", 0, MAX_PLAYERS - 1, " (R10)"),
        metavar="N",
        help="whose outs: for a state (default: the player to move); a view or a position "
        "answers for its own player",
    )
    parser.add_argument(
        "--writes",
        type=int_range("writes", 1, MAX_WRITES),
        default=3,
        metavar="K",
        help=f"how many writes the odds look ahead, 1 to {MAX_WRITES} (default 3)",
    )
    parser.add_argument(
        "--seed",
        type=int_range("seed", 0, _MAX_SEED),
        default=0,
        metavar="S",
        help="the seed of the sampled odds (default 0): same input and seed, same output",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the pastiche-outs document (outs.schema.json; default: a table)",
    )


def run_outs(args: argparse.Namespace) -> int:
    """Run ``pastiche outs`` on the parsed ``args``; print the table or the document."""
    source, _ = load_seat_query(args.file, args.player)
    report = outs(source, writes=args.writes, seed=args.seed)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.format(width=min(_WIDTH, terminal_columns() or _WIDTH)))
    return 0
