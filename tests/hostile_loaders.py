"""Load a hostile corpus file with the loader its name asks for; run alone, report the outcome.

The file name's prefix picks the loader: ``position-`` (a position JSON, with
catalogue paths read from the file's folder), ``state-``, ``view-``,
``record-`` (read, then replayed), ``catalogue-`` (a TOML catalogue),
``moves-`` (one move notation a line) and ``quick-`` (``HAND | TABLE`` a line,
for :meth:`Position.quick`).

Run as a script (``python hostile_loaders.py FILE``) it first caps its own
memory, loads the file and prints one word: ``clean`` for a
:class:`~pastiche_core.data.errors.PasticheError`, ``valid`` for a value, or
``other`` and the exception's type for anything else; input that kills the
process prints nothing. The tests run the dangerous cases (code named in data,
endless device files) this way.

>>> LOADERS["moves"] is load_moves
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["LOADERS", "MEMORY_LIMIT", "kind", "load", "load_moves", "outcome"]

MEMORY_LIMIT = 512 << 20
"""Address space of an isolated run: enough for the library, little for an endless file."""


def load_position(path: Path) -> object:
    from pastiche_core.io.position_json import load_query

    return load_query(path)


def load_state(path: Path) -> object:
    from pastiche_core.io.state_json import state_from_json

    return state_from_json(path.read_bytes())


def load_view(path: Path) -> object:
    from pastiche_core.io.view_json import view_from_json

    return view_from_json(path.read_bytes())


def load_record(path: Path) -> object:
    from pastiche_core.io.record import GameRecord

    return GameRecord.from_json(path.read_bytes()).replay()


def load_catalogue(path: Path) -> object:
    from pastiche_core.data.catalogue import load_catalogue as load

    return load(path)


def load_moves(path: Path) -> object:
    """Every line must fail: one that parses is returned (and reported ``valid``)."""
    from pastiche_core.data.errors import PasticheError
    from pastiche_core.engine.moves import Move

    for line in _lines(path):
        try:
            return Move.parse(line)
        except PasticheError:
            continue
    raise PasticheError("no line parses")


def load_quick(path: Path) -> object:
    """Every ``HAND | TABLE`` line must fail, as for :func:`load_moves`."""
    from pastiche_core.data.errors import PasticheError
    from pastiche_core.solver.position import Position

    for line in _lines(path):
        hand, _, table = line.partition("|")
        try:
            return Position.quick(hand, table)
        except PasticheError:
            continue
    raise PasticheError("no line parses")


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


LOADERS: dict[str, Callable[[Path], object]] = {
    "position": load_position,
    "state": load_state,
    "view": load_view,
    "record": load_record,
    "catalogue": load_catalogue,
    "moves": load_moves,
    "quick": load_quick,
}
"""The loader for each file name prefix."""


def kind(path: Path) -> str:
    """The loader name a corpus file asks for (its name up to the first '-').

    >>> kind(Path("position-player-990.json"))
    'position'
    """
    return path.name.partition("-")[0]


def load(path: Path) -> object:
    """Load ``path`` with the loader its name asks for."""
    return LOADERS[kind(path)](path)


def outcome(path: Path) -> str:
    """``clean``, ``valid`` or ``other TYPE: MESSAGE`` for loading ``path``."""
    from pastiche_core.data.errors import PasticheError

    try:
        load(path)
    except PasticheError:
        return "clean"
    except BaseException as error:  # SystemExit from code named in data included
        return f"other {type(error).__name__}: {str(error)[:200]}"
    return "valid"


if __name__ == "__main__":
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # os:abort leaves no core file
    print(outcome(Path(sys.argv[1])), flush=True)
