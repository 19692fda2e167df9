"""The rulebook's numbers as one value, :class:`Rules`, and the decisions a game waits for.

Every layer reads these, so they live below the game: the seats a game seats,
what each seat is dealt and keeps, the points that trigger the end (R10–R12),
and the :class:`Phase` of each decision point. ``Rules()`` is the rulebook; a
game may be played by house rules (``Game(..., rules=Rules(end_threshold=10))``).
The module constants are the rulebook's values, kept for code that predates
:class:`Rules`.

>>> DEAL_SIZES[:MIN_PLAYERS], KEEP_SIZE, END_THRESHOLD
((3, 3, 4), 3, 15)
>>> Rules().end_threshold == END_THRESHOLD
True
>>> Phase("keep")
<Phase.KEEP: 'keep'>
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from ..data.catalogue import Catalogue
from ..data.errors import InvalidRulesError

__all__ = [
    "DEAL_SIZES",
    "END_THRESHOLD",
    "KEEP_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULEBOOK",
    "SEAT_ROOM",
    "Phase",
    "Rules",
    "rules_of",
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

SEAT_ROOM = (3, 5)
"""The fewest and most seats any rules may seat: the observations, the packed
layout and the game's checks are made for 3 to 5 seats."""
MAX_DEAL = 10
"""The most cards house rules may deal to one seat (a setup keep lists C(n, k)
choices times the discards' orders, R15)."""
MAX_THRESHOLD = 1000
"""The largest End Flag threshold house rules may set (R12)."""
_DECK_CARDS = 49  # R1: every seat's deal comes from one deck


@dataclass(frozen=True, slots=True)
class Rules:
    """Every number of the rulebook that play depends on; ``Rules()`` is the rulebook.

    A frozen value: a :class:`~pastiche_core.engine.game.Game` plays by one (its
    ``rules``), and state, record and view JSON carry it when it is not the
    rulebook's. Construction checks every field and raises
    :class:`~pastiche_core.data.errors.InvalidRulesError` naming the field and the
    ruling it bends (R10, R12). Seats dealt more than :attr:`keep_size` cards
    keep that many at setup, in seat order, and discard the rest face down
    (R10, R15); the others keep all they were dealt.

    >>> Rules()
    Rules(min_players=3, max_players=5, deal_sizes=(3, 3, 4, 4, 5), keep_size=3, end_threshold=15)
    >>> house = Rules(end_threshold=10, keep_size=2)
    >>> house.keepers(3), Rules().keepers(5)
    ((0, 1, 2), (2, 3, 4))
    >>> Rules(deal_sizes=(3, 3, 4))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidRulesError: deal_sizes must list a deal for each of the 5 seats of max_players (R10), got 3
    """

    min_players: int = MIN_PLAYERS
    """The fewest players a game seats (R10): 3 to 5."""
    max_players: int = MAX_PLAYERS
    """The most players a game seats (R10): ``min_players`` to 5."""
    deal_sizes: tuple[int, ...] = DEAL_SIZES
    """Cards dealt to each seat in seat order (R10): one entry per seat up to
    ``max_players`` (entries beyond are dropped), each from ``keep_size`` to 10, all of them together at most
    the 49 cards of the deck less 2 (a Write ① must be able to draw)."""
    keep_size: int = KEEP_SIZE
    """Cards every seat keeps at setup (R10): 1 to 10, at most any seat's deal."""
    end_threshold: int = END_THRESHOLD
    """Masterpiece points that trigger the end game (R12): 1 to 1000."""

    def __post_init__(self) -> None:
        low, high = SEAT_ROOM
        _check_int("min_players", self.min_players, low, high, "R10")
        _check_int("max_players", self.max_players, self.min_players, high, "R10")
        deals = self.deal_sizes
        if not isinstance(deals, tuple) or not all(
            isinstance(size, int) and not isinstance(size, bool) for size in deals
        ):
            raise InvalidRulesError(
                f"deal_sizes must be a tuple of integers, one per seat (R10), got {_show(deals)}"
            )
        if len(deals) > self.max_players:  # Rules(max_players=4): the seats kept, cut
            deals = deals[: self.max_players]
            object.__setattr__(self, "deal_sizes", deals)
        if len(deals) != self.max_players:
            raise InvalidRulesError(
                f"deal_sizes must list a deal for each of the {self.max_players} seats of "
                f"max_players (R10), got {len(deals)}"
            )
        _check_int("keep_size", self.keep_size, 1, MAX_DEAL, "R10")
        for seat, size in enumerate(deals):
            _check_int(f"deal_sizes[{seat}]", size, self.keep_size, MAX_DEAL, "R10")
        if sum(deals) > _DECK_CARDS - 2:
            raise InvalidRulesError(
                f"deal_sizes deal {sum(deals)} cards, more than the {_DECK_CARDS - 2} that leave "
                "a Write its two cards (R10, R11)"
            )
        _check_int("end_threshold", self.end_threshold, 1, MAX_THRESHOLD, "R12")

    @property
    def is_rulebook(self) -> bool:
        """Whether these are the rulebook's numbers (the documents then leave them out).

        >>> Rules().is_rulebook, Rules(end_threshold=25).is_rulebook
        (True, False)
        """
        return self == RULEBOOK

    def keepers(self, players: int) -> tuple[int, ...]:
        """The seats of a ``players``-seat game that choose what to keep at setup, in order (R10).

        >>> Rules(keep_size=4, deal_sizes=(4, 4, 4, 5, 6)).keepers(5)
        (3, 4)
        """
        keep = self.keep_size
        deals = self.deal_sizes
        return tuple(seat for seat in range(min(players, len(deals))) if deals[seat] > keep)

    def to_dict(self) -> dict[str, Any]:
        """The JSON and TOML form: every field by name, the deal sizes a list.

        >>> Rules(end_threshold=10).to_dict()["end_threshold"]
        10
        >>> Rules.from_dict(Rules(keep_size=2).to_dict()) == Rules(keep_size=2)
        True
        """
        return {
            "min_players": self.min_players,
            "max_players": self.max_players,
            "deal_sizes": list(self.deal_sizes),
            "keep_size": self.keep_size,
            "end_threshold": self.end_threshold,
        }

    @classmethod
    def from_dict(cls, data: object, where: str = "rules") -> Rules:
        """Rules from untrusted data: a table of some of the fields (the others the
        rulebook's); an unknown field, a value of the wrong type or out of range raises
        :class:`~pastiche_core.data.errors.InvalidRulesError` naming it under ``where``.

        >>> Rules.from_dict({"end_threshold": 10}).end_threshold
        10
        >>> Rules.from_dict({"threshold": 10})
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidRulesError: rules: unknown field(s) 'threshold'; expected some of min_players, max_players, deal_sizes, keep_size, end_threshold
        >>> Rules.from_dict({"deal_sizes": [3, 3, 4, 4, "5"]}, "[rules]")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidRulesError: [rules]: deal_sizes must be a tuple of integers, one per seat (R10), got (3, 3, 4, 4, '5')
        """
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"{where}: expected a table, got {_show(data)}")
        names = [field.name for field in fields(cls)]
        unknown = sorted(str(key) for key in data if key not in names)
        if unknown:
            shown = ", ".join(_show(key) for key in unknown[:8])
            raise InvalidRulesError(
                f"{where}: unknown field(s) {shown}; expected some of {', '.join(names)}"
            )
        values = dict(data)
        deals = values.get("deal_sizes")
        if isinstance(deals, list | tuple):  # JSON and TOML arrays, a catalogue's tuples
            if len(deals) > SEAT_ROOM[1]:
                raise InvalidRulesError(
                    f"{where}: deal_sizes lists {len(deals)} deals, more than the "
                    f"{SEAT_ROOM[1]} seats a game may have (R10)"
                )
            values["deal_sizes"] = tuple(deals)
        try:
            return cls(**values)
        except InvalidRulesError as error:
            raise InvalidRulesError(f"{where}: {error}") from None


def _show(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_int(field: str, value: object, low: int, high: int, ruling: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRulesError(
            f"{field} must be an integer from {low} to {high} ({ruling}), got {_show(value)}"
        )


RULEBOOK = Rules()
"""The rulebook's rules (R10–R12): the default of every game."""


def rules_of(catalogue: Catalogue, given: Rules | None = None) -> Rules:
    """The rules a game of ``catalogue`` is played by: ``given`` when there are some, else
    the catalogue's ``[rules]`` table read as :class:`Rules`, else the rulebook's. A table no
    game is played by raises :class:`~pastiche_core.data.errors.InvalidRulesError` naming the
    catalogue and the field.

    >>> rules_of(Catalogue.default()) is RULEBOOK
    True
    >>> rules_of(Catalogue.default(), Rules(end_threshold=10)).end_threshold
    10
    >>> house = Catalogue.from_dict({**Catalogue.default().to_dict(), "name": "house",
    ...                              "rules": {"end_threshold": 10, "keep_size": 2}})
    >>> rules_of(house)
    Rules(min_players=3, max_players=5, deal_sizes=(3, 3, 4, 4, 5), keep_size=2, end_threshold=10)
    >>> rules_of(Catalogue.from_dict({**house.to_dict(), "rules": {"keep_size": 6}}))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidRulesError: catalogue 'house': [rules]: deal_sizes[0] must be an integer from 6 to 10 (R10), got 3
    """
    if given is not None:
        return given
    table = catalogue.rules_table
    if table is None:
        return RULEBOOK
    found = _OF_CATALOGUE.get(table)
    if found is None:
        found = Rules.from_dict(dict(table), f"catalogue {catalogue.name!r}: [rules]")
        if len(_OF_CATALOGUE) >= 64:
            _OF_CATALOGUE.clear()
        _OF_CATALOGUE[table] = found
    return found


_OF_CATALOGUE: dict[tuple[tuple[str, Any], ...], Rules] = {}


class Phase(Enum):
    """The decision the game is waiting for (see :class:`~pastiche_core.engine.game.Game`).

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
def setup_discarders(players: int, rules: Rules = RULEBOOK) -> tuple[int, ...]:
    """The seat that discarded each setup card, bottom of the discard pile first (R10).

    By the rulebook, seats 2 and 3 discard one card, seat 4 two; seats discard
    in seat order, so the face-down block at the bottom of the pile keeps this
    order until it is taken from the top or reshuffled (R11).

    >>> setup_discarders(5)
    (2, 3, 4, 4)
    >>> setup_discarders(3, Rules(keep_size=2))
    (0, 1, 2, 2)
    """
    found = _DISCARDERS.get((players, rules))
    if found is None:  # a view asks at every decision of the early game
        deals = rules.deal_sizes
        found = tuple(
            itertools.chain.from_iterable(
                [seat] * (deals[seat] - rules.keep_size) for seat in rules.keepers(players)
            )
        )
        if len(_DISCARDERS) >= 64:
            _DISCARDERS.clear()
        _DISCARDERS[players, rules] = found
    return found


_DISCARDERS: dict[tuple[int, Rules], tuple[int, ...]] = {}


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


def publish_closed(phase: Phase, player: int, rules: Rules = RULEBOOK) -> str | None:
    """Why no publish can be played in ``phase``, naming the ruling; ``None`` in a turn.

    A publish is a turn action (R11): while a seat keeps its deal (R10), chooses
    which drawn card to keep (R11) or puts a card under the End Flag (R12), and
    once the game is over, none is legal, whatever the hand could make.

    >>> publish_closed(Phase.ACTION, 0) is None
    True
    >>> publish_closed(Phase.CHOOSE, 0)
    'player 0 is choosing which drawn card to keep: a publish is a turn action (R11)'
    >>> publish_closed(Phase.KEEP, 2)
    'player 2 is keeping 3 cards of the deal: a publish is a turn action (R10, R11)'
    """
    if phase is Phase.ACTION:
        return None
    if phase is Phase.KEEP:
        return (
            f"player {player} is keeping {rules.keep_size} cards of the deal: a publish is a "
            "turn action (R10, R11)"
        )
    if phase is Phase.CHOOSE:
        return f"player {player} is choosing which drawn card to keep: a publish is a turn action (R11)"
    if phase is Phase.FLAG:
        return (
            f"player {player} is putting a card under the End Flag: a publish is a turn "
            "action (R11, R12)"
        )
    return "the game is over: nothing can be published (R12)"
