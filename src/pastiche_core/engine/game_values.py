"""The plain values a game is made of, and the generations it hands out (R10, R14).

A game's result (:class:`GameResult`), its counters as an undo record keeps
them (:class:`Scalars`), the check of a deal's arguments, the catalogue's Novel
positions and points as the card table and the scores read them, and the
generation counter that numbers every position (:func:`new_generation`).

>>> check_deal(3, 7)
>>> new_generation() != new_generation()
True
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..data.cards import Card
from ..data.catalogue import Catalogue
from ..data.errors import InvalidStateError, PasticheError
from .moves import Move
from .rules import RULEBOOK, Phase, Rules

if TYPE_CHECKING:
    from .view import MoveRecord

__all__ = [
    "GameResult",
    "Public",
    "Scalars",
    "Text",
    "Undo",
    "check_deal",
    "new_generation",
    "novel_points",
    "novel_positions",
]


# home: R10.check
def check_deal(
    players: object,
    seed: object = 0,
    rules: object = RULEBOOK,
    *,
    error: type[PasticheError] = InvalidStateError,
) -> None:
    """Refuse a deal :class:`Game` cannot make: ``players`` beyond the rules' seats (3 to 5
    by R10), a ``seed`` that is no integer, or ``rules`` that are no
    :class:`~pastiche_core.engine.rules.Rules`. The one check of a deal's players and seed: every
    face that takes them calls it, raising ``error``
    (:class:`~pastiche_core.data.errors.InvalidStateError` unless told).

    >>> check_deal(4, 7)
    >>> check_deal(6, 7)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: players must be from 3 to 5 (R10), got 6
    >>> check_deal(5, 7, Rules(max_players=4))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: players must be from 3 to 4 (R10), got 5
    >>> from pastiche_core.data.errors import InvalidArgumentError
    >>> check_deal("4", error=InvalidArgumentError)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: players must be an integer from 3 to 5, got '4'
    """
    if not isinstance(rules, Rules):
        raise InvalidStateError(f"rules must be a Rules, got {type(rules).__name__}")
    low, high = rules.min_players, rules.max_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise error(f"players must be an integer from {low} to {high}, got {players!r}")
    if not low <= players <= high:
        raise error(f"players must be from {low} to {high} (R10), got {players}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise error(f"seed must be an integer, got {seed!r}")


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final result: scores, Masterpiece counts, winners and how the game ended (R13).

    ``reason`` is ``'countdown'`` (R12) or ``'all-pass'`` (R11).
    """

    scores: tuple[int, ...]
    """Every player's final score: Masterpiece points plus the End Flag (R13)."""
    masterpieces: tuple[int, ...]
    """Every player's number of Masterpieces, the first tie-break (R13)."""
    winners: tuple[int, ...]
    """The winning seats: more than one when the tie-breaks leave a shared win (R13)."""
    reason: str
    """How the game ended: ``'countdown'`` (R12) or ``'all-pass'`` (R11)."""


class Scalars(NamedTuple):
    """A game's counters and single values, as an undo record keeps them before a move."""

    phase: Phase
    """The decision the game waits for."""
    to_move: int
    """The seat that makes the next decision."""
    current: int
    """The seat whose turn it is."""
    pending: tuple[Card, Card] | None
    """The two cards Write ① drew, while their drawer chooses (R11)."""
    turn: int
    """Turns played since setup."""
    passes: int
    """Passes in succession (R11)."""
    trigger: int | None
    """The trigger player, once the end is triggered (R12)."""
    turns_left: int | None
    """Turns left once the end is triggered (R12)."""
    end_reason: str | None
    """``'countdown'`` (R12) or ``'all-pass'`` (R11) once over."""
    flag: tuple[int, Card] | None
    """The End Flag's holder and the card under it (R12)."""
    rng_state: int
    """The game's generator state (R14)."""
    flag_supply: int
    """The End Flag's copies in the supply (R12)."""

    def renamed(self, one: Callable[[Card], Card]) -> Scalars:
        """These scalars with the cards they name (the drawn pair, the flag's) renamed by
        ``one``.

        >>> from pastiche_core import Card
        >>> before = Scalars(Phase.CHOOSE, 0, 0, (Card.parse("MYT1"), Card.parse("LOV2")),
        ...                  1, 0, None, None, None, None, 0, 1)
        >>> before.renamed(lambda card: Card.parse("MAG13") if card.rank == 1 else card).pending
        (Card.parse('MAG13'), Card.parse('LOV2'))
        """
        pending, flag = self.pending, self.flag
        return self._replace(
            pending=None if pending is None else (one(pending[0]), one(pending[1])),
            flag=None if flag is None else (flag[0], one(flag[1])),
        )


Undo = tuple[Scalars, Any]
"""An undo record: the scalars before a move and what the move changed in the containers."""

Public = tuple[tuple[tuple[int, str], ...], tuple["MoveRecord", ...], Move | None]
"""A viewer's public history (``(seat, notation)`` per move, R16), their records of its moves
and the last move it covers."""

Text = tuple[Move, int, str, str, "MoveRecord", "MoveRecord"]
"""A move as the public history keeps it: the move, its seat, its notation, what any other
seat reads of it (empty when that differs by seat: a publish with gifts), its whole record
and what any other seat sees of that (R16)."""


_POSITIONS: dict[int, tuple[Catalogue, dict[str, int]]] = {}


def novel_positions(catalogue: Catalogue) -> dict[str, int]:
    """Novel id -> its position in the catalogue (the card table's Novel numbers), made once."""
    entry = _POSITIONS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_POSITIONS) >= 64:
            _POSITIONS.clear()
        entry = _POSITIONS[id(catalogue)] = (
            catalogue,
            {spec.id: index for index, spec in enumerate(catalogue.specs)},
        )
    return entry[1]


_NOVEL_POINTS: dict[int, tuple[Catalogue, dict[str, int]]] = {}


def novel_points(catalogue: Catalogue) -> dict[str, int]:
    """Novel id -> points, made once per catalogue."""
    entry = _NOVEL_POINTS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_NOVEL_POINTS) >= 64:
            _NOVEL_POINTS.clear()
        entry = _NOVEL_POINTS[id(catalogue)] = (
            catalogue,
            {spec.id: spec.points for spec in catalogue.specs},
        )
    return entry[1]


def _counter() -> Iterator[int]:
    """This process's generations: a random 64-bit start, then counting up.

    Generations are compared with ones made in other processes (a pickled game,
    a move handed out before) and must never meet them: two processes share a
    start with odds of 2**-64, and a forked child draws a start of its own.
    """
    return itertools.count(int.from_bytes(os.urandom(8), "big") << 64)


_GENERATIONS = _counter()
"""Every position's :attr:`GameState.generation`, unique across processes."""


def _reseed_generations() -> None:
    global _GENERATIONS
    _GENERATIONS = _counter()


if hasattr(os, "register_at_fork"):  # a forked child must not repeat its parent's numbers
    os.register_at_fork(after_in_child=_reseed_generations)


def new_generation() -> int:
    """A generation never handed out before, in this process or any other.

    >>> new_generation() != new_generation()
    True
    """
    return next(_GENERATIONS)
