"""Reading the command line's arguments and input files: integers, standard input, the seat's
question a file asks (a position, a view, or a state and a seat).

>>> int_range("games", 1)("3")
3
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ..data._text import quote
from ..data.errors import InvalidStateError
from ..data.files import read_file
from ..data.limits import MAX_JSON_BYTES
from ..engine.view import PlayerView
from ..io.jsontext import loads
from ..solver.constraints import Constraints
from ..solver.position import Position, position_of

__all__ = ["int_range", "load_publish_query", "load_seat_query", "stdin_bytes"]

_INTEGER = re.compile(r"-?[0-9]{1,20}", re.ASCII)
"""An integer argument: ASCII digits only (int() would take '٣' and '1_0'), 64 bits at most."""


def int_range(
    label: str, low: int | None = None, high: int | None = None, rule: str = ""
) -> Callable[[str], int]:
    """An argument type: an integer of ASCII digits from ``low`` to ``high``, else a clear error.

    >>> int_range("seed", 0, 9)("7")
    7
    >>> int_range("seed", 0, 9)("1_0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: seed must be an integer of at most 20 digits, got '1_0'
    >>> int_range("player", 0, 4, " (R10)")("5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: player must be from 0 to 4 (R10), got 5
    """

    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(
                f"{label} must be an integer of at most 20 digits, got {quote(text)}"
            )
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                bounds = f"at least {low}"
            elif low is None:
                bounds = f"at most {high}"
            else:
                bounds = f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{label} must be {bounds}{rule}, got {value}")
        return value

    return parse


def stdin_bytes() -> bytes:
    """Standard input's bytes, read up to the size limit of a JSON document (never past it)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests, embedding)
        raw = sys.stdin.read(MAX_JSON_BYTES + 1).encode("utf-8", "surrogatepass")
    else:
        raw = stream.read(MAX_JSON_BYTES + 1)
    if len(raw) > MAX_JSON_BYTES:
        raise InvalidStateError(
            f"standard input has more than {MAX_JSON_BYTES:,} bytes, the most a document may "
            "have (MAX_JSON_BYTES)"
        )
    return raw


def load_seat_query(source: str, player: int | None) -> tuple[PlayerView | Position, Constraints]:
    """What a file asks about: a position, a view, or a state seen by ``player`` (its view).

    ``source`` is a path or ``-`` for standard input; errors name the file or
    ``--player`` (see :func:`pastiche_core.ai.visible.seat_query`).

    >>> view, _ = load_seat_query("examples/hints/view.json", None)
    >>> type(view).__name__, view.player
    ('PlayerView', 0)
    """
    from ..ai.visible import seat_query

    if source == "-":
        raw = stdin_bytes()
        base_dir = None
    else:
        raw = read_file(source, what="position file", error=InvalidStateError)
        base_dir = Path(source).parent
    data = loads(raw, expected="a position, view or state JSON object")
    try:
        return seat_query(data, player=player, base_dir=base_dir)
    except InvalidStateError as error:
        message = str(error)
        if message.startswith("player: "):  # the seat came from the command line
            raise InvalidStateError(
                f"argument --player: {message.removeprefix('player: ')}"
            ) from None
        raise


def load_publish_query(source: str, player: int | None) -> tuple[Position, Constraints]:
    """The publish position a file asks about (:func:`load_seat_query`, a view as its position).

    >>> position, _ = load_publish_query("examples/positions/midgame.json", None)
    >>> position.player
    1
    """
    source_of, constraints = load_seat_query(source, player)
    if isinstance(source_of, PlayerView):
        return position_of(source_of), constraints
    return source_of, constraints
