"""The rulebook's numbers and the decisions a game waits for (R10–R12).

Every layer reads these, so they live below the game: the seats a game seats,
what each seat is dealt and keeps, the points that trigger the end, and the
:class:`Phase` of each decision point.

>>> DEAL_SIZES[:MIN_PLAYERS], KEEP_SIZE, END_THRESHOLD
((3, 3, 4), 3, 15)
>>> Phase("keep")
<Phase.KEEP: 'keep'>
"""

from __future__ import annotations

import itertools
from enum import Enum

__all__ = [
    "DEAL_SIZES",
    "END_THRESHOLD",
    "KEEP_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Phase",
    "setup_discarders",
    "turn_actions",
]

MIN_PLAYERS = 3
"""The fewest players a game seats (R10)."""
MAX_PLAYERS = 5
"""The most players a game seats (R10)."""
DEAL_SIZES = (3, 3, 4, 4, 5)
"""Cards dealt to seats 0–4 (R10)."""
KEEP_SIZE = 3
"""Cards every player keeps at setup (R10)."""
END_THRESHOLD = 15
"""Masterpiece points that trigger the end game (R12)."""


class Phase(Enum):
    """The decision the game is waiting for (see :class:`~pastiche_core.game.Game`).

    >>> [phase.value for phase in Phase]
    ['keep', 'action', 'choose', 'flag', 'over']
    """

    KEEP = "keep"
    ACTION = "action"
    CHOOSE = "choose"
    FLAG = "flag"
    OVER = "over"

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {self.value!r}>"


# home: R10.discarders
def setup_discarders(players: int) -> tuple[int, ...]:
    """The seat that discarded each setup card, bottom of the discard pile first (R10).

    Seats 2 and 3 discard one card, seat 4 two; seats discard in seat order, so
    the face-down block at the bottom of the pile keeps this order until it is
    taken from the top or reshuffled (R11).

    >>> setup_discarders(5)
    (2, 3, 4, 4)
    """
    found = _DISCARDERS.get(players)
    if found is None:  # a view asks at every decision of the early game
        found = tuple(
            itertools.chain.from_iterable(
                [seat] * (DEAL_SIZES[seat] - KEEP_SIZE) for seat in range(2, players)
            )
        )
        if 0 <= players <= len(DEAL_SIZES):
            _DISCARDERS[players] = found
    return found


_DISCARDERS: dict[int, tuple[int, ...]] = {}


# home: R11.turn
def turn_actions(deck: int, discard: int, reads: int) -> tuple[bool, bool, bool]:
    """The turn actions a player has (R11): ``(draw, take, pass)``, from the cards in the
    deck and in the discard pile and the Reads on offer.

    Write ① needs a card in the deck or the discard pile (a draw reshuffles the
    pile), Write ② the top discard; Pass is possible only when neither Write
    nor Read is (a possible Publish does not forbid it).

    >>> turn_actions(5, 0, 0), turn_actions(0, 2, 0), turn_actions(0, 0, 3), turn_actions(0, 0, 0)
    ((True, False, False), (True, True, False), (False, False, False), (False, False, True))
    """
    draw = deck > 0 or discard > 0
    return draw, discard > 0, not draw and reads == 0
