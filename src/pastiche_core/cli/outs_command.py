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
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from ..data.errors import InvalidStateError
from ..data.files import read_file
from ..data.limits import MAX_JSON_BYTES
from ..engine.game import Game
from ..engine.rules import MAX_PLAYERS
from ..engine.view import PlayerView
from ..io.jsontext import loads
from ..io.position_json import query_from_dict
from ..io.state_json import STATE_FORMAT, state_from_dict
from ..io.view_json import VIEW_FORMAT, view_from_dict
from ..solver.outs import MAX_WRITES, outs
from ..solver.position import Position
from .progress import terminal_columns

__all__ = ["configure_outs", "run_outs"]

_INTEGER = re.compile(r"[0-9]{1,20}", re.ASCII)
_MAX_SEED = (1 << 63) - 1
_WIDTH = 80


def _count(label: str, low: int, high: int, rule: str = "") -> Callable[[str], int]:
    """An argument parser of an ASCII integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = int(text) if _INTEGER.fullmatch(text) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{label} must be an integer from {low} to {high}{rule}, got {text[:40]!r}"
            )
        return value

    return parse


def configure_outs(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pastiche outs`` to ``parser``."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a view (pastiche-view), a position, or a state (pastiche-state); '-' reads stdin",
    )
    parser.add_argument(
        "--player",
        type=_count("player", 0, MAX_PLAYERS - 1, " (R10)"),
        metavar="N",
        help="whose outs: for a state (default: the player to move); a view or a position "
        "answers for its own player",
    )
    parser.add_argument(
        "--writes",
        type=_count("writes", 1, MAX_WRITES),
        default=3,
        metavar="K",
        help=f"how many writes the odds look ahead, 1 to {MAX_WRITES} (default 3)",
    )
    parser.add_argument(
        "--seed",
        type=_count("seed", 0, _MAX_SEED),
        default=0,
        metavar="S",
        help="the seed of the sampled odds (default 0): same input and seed, same output",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the pastiche-outs document (outs.schema.json; default: a table)",
    )


def _read(source: str) -> tuple[bytes | str, Path | None]:
    if source != "-":
        return read_file(source, what="outs file", error=InvalidStateError), Path(source).parent
    stream = getattr(sys.stdin, "buffer", None)
    raw: bytes | str = (
        stream.read(MAX_JSON_BYTES + 1)
        if stream is not None
        else sys.stdin.read(MAX_JSON_BYTES + 1)
    )
    if len(raw) > MAX_JSON_BYTES:
        raise InvalidStateError(f"standard input has more than {MAX_JSON_BYTES:,} bytes")
    return raw, None


def _load(source: str, player: int | None) -> tuple[PlayerView | Position | Game, int | None]:
    """What FILE holds, and the seat a state answers for."""
    raw, base_dir = _read(source)
    data = loads(raw, expected="a view, position or state JSON object")
    kind = data.get("format") if isinstance(data, Mapping) else None
    if kind == VIEW_FORMAT:
        view = view_from_dict(data)
        _same(player, view.player, "the view")
        return view, None
    if kind == STATE_FORMAT:
        game = state_from_dict(data)
        seat = game.to_move if player is None else player
        if not 0 <= seat < game.players:
            raise InvalidStateError(
                f"argument --player: expected a seat of this {game.players}-player game, "
                f"0 to {game.players - 1}, got {seat}"
            )
        return game, seat
    if kind is not None:
        raise InvalidStateError(
            f"$.format: expected a position (no format), {VIEW_FORMAT!r} or {STATE_FORMAT!r} "
            f"document, got {str(kind)[:40]!r}"
        )
    position, _ = query_from_dict(data, base_dir=base_dir)
    _same(player, position.player, "the position")
    return position, None


def _same(player: int | None, own: int, what: str) -> None:
    if player is not None and player != own:
        raise InvalidStateError(
            f"argument --player: {what} is player {own}'s and answers for that player only, "
            f"got --player {player} (R16)"
        )


def run_outs(args: argparse.Namespace) -> int:
    """Run ``pastiche outs`` on the parsed ``args``; print the table or the document."""
    source, seat = _load(args.file, args.player)
    report = outs(source, player=seat, writes=args.writes, seed=args.seed)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.format(width=min(_WIDTH, terminal_columns() or _WIDTH)))
    return 0
