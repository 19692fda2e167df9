"""Game records: the seed, the catalogue and every decision, enough to replay a game (R14).

A :class:`GameRecord` is the compact form of a game: the player count, the seed,
the catalogue and the moves in order. Replaying it deals the same cards, shuffles
the same way and reaches the identical state. Its JSON form is::

    {"format": "pastiche-record", "version": 1, "players": 3, "seed": 7,
     "catalogue": "default", "moves": ["keep MYT1 HOR7 HOR8", "draw", ...]}

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> for move in ["keep MYT1 HOR7 HOR8", "draw", "choose SCI5"]:
...     game.apply(move)
>>> record = GameRecord.of(game)
>>> record.replay() == game
True
>>> GameRecord.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.catalogue import Catalogue
from ..data.errors import InvalidNotationError, InvalidStateError
from ..data.files import read_file
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.rules import Rules, rules_of
from ._fields import (
    check_seats,
    describe,
    fail,
    read_array,
    read_catalogue,
    read_header,
    read_players,
    read_rules,
    read_seed,
    rules_to_json,
)
from .jsontext import loads

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "GameRecord"]

RECORD_FORMAT = "pastiche-record"
"""The ``format`` name of a game record."""
RECORD_VERSION = 1
"""The version of the game record format written and read by this library."""

_RECORD_FIELDS = ("format", "version", "players", "seed", "catalogue", "moves", "rules")


@dataclass(frozen=True, slots=True, repr=False)
class GameRecord:
    """A whole game as its setup and its moves; :meth:`replay` rebuilds the game (R14).

    ``moves`` may be given as any iterable of moves or notation strings; it is
    stored as a tuple of :class:`~pastiche_core.engine.moves.Move`.

    >>> record = GameRecord(players=3, seed=7, moves=(Move.parse("keep MYT1 HOR7 HOR8"),))
    >>> record.catalogue.is_default, len(record.moves)
    (True, 1)
    >>> GameRecord(3, 7, moves=["keep MYT1 HOR7 HOR8"]) == record
    True
    >>> record.replay().phase
    <Phase.ACTION: 'action'>
    """

    players: int
    """The number of players, 3 to 5 (R10), checked when the record is read or replayed."""
    seed: int
    """The seed of the game's generator, which fixes the deal and every shuffle (R14); a record file
    holds a 64-bit integer."""
    catalogue: Catalogue = field(default_factory=Catalogue.default)
    """The catalogue the game is played with: the default one (R2) unless given."""
    moves: tuple[Move, ...] = ()
    """Every decision from the deal on, in order, setup keeps included; notation strings given are
    parsed into moves."""
    rules: Rules | None = None
    """The house rules the game is played by (R10, R12); ``None`` for the catalogue's, else
    the rulebook's (made so on construction). A record file holds them under ``rules`` when
    they are not the rulebook's."""

    def __repr__(self) -> str:
        """Compact: a record can hold hundreds of moves.

        >>> GameRecord(players=3, seed=7, moves=["keep MYT1 HOR7 HOR8", "draw"])
        <GameRecord 3 players, seed 7, catalogue 'default', 2 moves>
        """
        return (
            f"<GameRecord {self.players} players, seed {self.seed}, "
            f"catalogue {self.catalogue.name!r}, {len(self.moves)} moves>"
        )

    def __post_init__(self) -> None:
        # Any iterable of moves is stored as a tuple; notation strings are parsed.
        moves = tuple(Move.parse(m) if isinstance(m, str) else m for m in self.moves)
        object.__setattr__(self, "moves", moves)
        if self.rules is None:  # the catalogue's, so that equal records compare equal
            object.__setattr__(self, "rules", rules_of(self.catalogue))

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        """The record of ``game``: its players, seed, catalogue and history.

        The history must run from the deal (a copy made with ``history=False``
        has lost the moves before it).

        >>> from pastiche_core import Game
        >>> game = Game(players=4, seed=1)
        >>> game.apply("keep HOR6 HOR7 MYS7")
        >>> record = GameRecord.of(game)
        >>> record.players, record.seed, [str(move) for move in record.moves]
        (4, 1, ['keep HOR6 HOR7 MYS7'])
        """
        return cls(game.players, game.seed, game.catalogue, tuple(game.history), game.rules)

    def dealt(self) -> Game:
        """The game as the record's seed deals it, before any move (R10, R14).

        >>> GameRecord(3, 7).dealt().hand(0)
        (Card.parse('LOV4'), Card.parse('LOV7'), Card.parse('MAG8'))
        """
        return Game(self.players, self.seed, self.catalogue, rules=self.rules)

    def replay(self) -> Game:
        """A new game dealt from the seed with every move applied in order.

        An illegal move raises :class:`~pastiche_core.data.errors.IllegalMoveError`
        naming its index, its notation and the rule it breaks.

        >>> from pastiche_core import Move
        >>> record = GameRecord(3, 7, moves=(Move.parse("keep MYT1 HOR7 HOR8"), Move.parse("take")))
        >>> record.replay().hand(0)
        (Card.parse('LOV4'), Card.parse('LOV7'), Card.parse('FAN10'), Card.parse('MAG8'))
        >>> GameRecord(3, 7, moves=(Move.parse("draw"),)).replay()
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: moves[0] 'draw': the game is in setup: ...
        """
        return Game.replayed(self.moves, self.players, self.seed, self.catalogue, rules=self.rules)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (format ``pastiche-record``, version 1), moves in notation.

        >>> from pastiche_core import Move
        >>> GameRecord(3, 7, moves=(Move.parse("keep MYT1 HOR7 HOR8"),)).to_dict()
        {'format': 'pastiche-record', 'version': 1, 'players': 3, 'seed': 7,
         'catalogue': 'default', 'moves': ['keep MYT1 HOR7 HOR8']}
        """
        cat = self.catalogue
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "players": self.players,
            "seed": self.seed,
            "catalogue": "default" if cat.is_default else cat.to_dict(),
            "moves": [str(move) for move in self.moves],
        }
        rules = rules_to_json(rules_of(cat, self.rules))
        if rules is not None:  # absent means the rulebook's: older readers read the rest
            data["rules"] = rules
        return data

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, catalogue: Catalogue | None = None
    ) -> GameRecord:
        """Read the form :meth:`to_dict` writes; ``catalogue`` overrides the stored one.

        A wrong format, version or field raises
        :class:`~pastiche_core.data.errors.InvalidStateError` and a move that does not
        parse raises :class:`~pastiche_core.data.errors.InvalidNotationError`, each
        naming the JSON path. Moves are not checked for legality here: see
        :meth:`replay`.

        >>> data = {"format": "pastiche-record", "version": 1, "players": 3, "seed": 7,
        ...         "catalogue": "default", "moves": ["keep MYT1 HOR7 HOR8", "jump"]}
        >>> GameRecord.from_dict(data)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: $.moves[1]: invalid move 'jump': ...
        >>> data["moves"].pop()
        'jump'
        >>> GameRecord.from_dict(data).moves
        (Move.parse('keep MYT1 HOR7 HOR8'),)
        """
        optional = ("catalogue", "rules") if catalogue is not None else ("rules",)
        required = tuple(name for name in _RECORD_FIELDS if name not in optional)
        root = read_header(data, RECORD_FORMAT, RECORD_VERSION, required, optional)
        players = read_players(root["players"], "$.players")
        seed = read_seed(root["seed"], "$.seed")
        cat = (
            catalogue if catalogue is not None else read_catalogue(root["catalogue"], "$.catalogue")
        )
        rules = read_rules(root.get("rules"), "$.rules", cat)
        check_seats(players, rules, "$.players")
        moves = tuple(
            _read_move(value, f"$.moves[{index}]")
            for index, value in enumerate(read_array(root["moves"], "$.moves"))
        )
        return cls(players, seed, cat, moves, rules)

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text (see :meth:`to_dict`).

        >>> GameRecord(4, 2).to_json()
        '{"format": "pastiche-record", "version": 1, "players": 4, "seed": 2,
          "catalogue": "default", "moves": []}'
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes, *, catalogue: Catalogue | None = None) -> GameRecord:
        """Read the text :meth:`to_json` writes (see :meth:`from_dict`).

        >>> GameRecord.from_json('{"format": "pastiche-state", "version": 1}')
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidStateError: $.format: expected 'pastiche-record', got ...
        """
        return cls.from_dict(loads(text, expected="a record JSON object"), catalogue=catalogue)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as indented JSON (UTF-8) to ``path``.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "game.json"
        ...     GameRecord(3, 7).save(path)
        ...     GameRecord.load(path) == GameRecord(3, 7)
        True
        """
        Path(path).write_text(self.to_json(indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, catalogue: Catalogue | None = None
    ) -> GameRecord:
        """Read a record written by :meth:`save` (see :meth:`from_json`).

        The file is read safely (:func:`~pastiche_core.data.files.read_file`): a
        regular file of at most 1 MiB, never a folder, device or pipe.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "game.json"
        ...     _ = path.write_text('{"format": "pastiche-record", "version": 1}')
        ...     GameRecord.load(path)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidStateError: $.players: missing required field
        >>> GameRecord.load("no/such/game.json")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidStateError: record file 'no/such/game.json': no such file
        """
        data = read_file(path, what="record file", error=InvalidStateError)
        return cls.from_json(data, catalogue=catalogue)


def _read_move(value: object, path: str) -> Move:
    if not isinstance(value, str):
        raise fail(path, f"expected a move such as 'draw', got {describe(value)}")
    try:
        return Move.parse(value)
    except InvalidNotationError as error:
        raise InvalidNotationError(f"{path}: {error}") from None
