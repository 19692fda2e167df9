"""Hint constraints: what a player wants kept, spared or bounded in a publish.

A :class:`Constraints` restricts the answer of every engine: cards that must
stay in hand, players whose Masterpieces must not be cited, a ceiling on gifts
and a floor on points. A position may carry its own (read from its JSON file).

>>> Constraints(keep="SCI9", max_gifts=0)
Constraints(keep=frozenset({Card.parse('SCI9')}), no_cite=frozenset(), max_gifts=0, min_points=None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..data._text import quote
from ..data.cards import Card, CardsLike, as_cards, format_cards
from ..data.errors import InvalidNotationError, InvalidStateError
from ..engine.rules import MAX_PLAYERS

if TYPE_CHECKING:
    from .position import Position

__all__ = ["Constraints"]


@dataclass(frozen=True, slots=True, init=False)
class Constraints:
    """Side constraints a player may put on a hint; every engine honours them.

    * ``keep``: cards that must stay in hand — neither played nor given;
    * ``no_cite``: players whose Masterpieces must not be cited;
    * ``max_gifts``: at most this many gift cards;
    * ``min_points``: only Novels worth at least this many points.

    ``keep`` takes cards in any form the API accepts (``"SCI9 HOR7"``, Cards,
    or an iterable of either) and ``no_cite`` a seat or seats.

    >>> Constraints(max_gifts=1, no_cite=frozenset({2})).allows_owner(2)
    False
    >>> Constraints(keep="SCI9 HOR7") == Constraints(keep=["HOR7", Card.parse("SCI9")])
    True
    >>> Constraints(no_cite=frozenset({5}))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: constraints.no_cite: expected seats from 0 to 4 (R10), got 5
    """

    keep: frozenset[Card]
    """Hand cards that must stay in hand, neither played nor given; each must be in the position's
    hand."""
    no_cite: frozenset[int]
    """Seats, 0 to 4 (R10), whose Masterpieces must not be cited; the player's own seat forbids
    citing their own Masterpieces."""
    max_gifts: int | None
    """The most gift cards an option may owe in all (R5), 0 or more; ``None`` for no limit."""
    min_points: int | None
    """The fewest points a Novel must be worth to be published, 0 or more; ``None`` for no limit."""

    def __init__(
        self,
        keep: CardsLike = (),
        no_cite: Iterable[int] | int = (),
        max_gifts: int | None = None,
        min_points: int | None = None,
    ) -> None:
        try:
            object.__setattr__(self, "keep", frozenset(as_cards(keep)))
        except InvalidNotationError as error:
            raise InvalidStateError(f"constraints.keep: {error}") from None
        object.__setattr__(self, "no_cite", no_cite)
        object.__setattr__(self, "max_gifts", max_gifts)
        object.__setattr__(self, "min_points", min_points)
        self.__post_init__()

    def __post_init__(self) -> None:
        seats: object = self.no_cite
        if isinstance(seats, int) and not isinstance(seats, bool):
            seats = frozenset({seats})
        if isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
            raise InvalidStateError(f"constraints.no_cite: expected seats, got {quote(seats)}")
        try:
            object.__setattr__(self, "no_cite", frozenset(seats))
        except TypeError:
            raise InvalidStateError("constraints.no_cite: expected seats") from None
        for seat in self.no_cite:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_PLAYERS:
                raise InvalidStateError(
                    f"constraints.no_cite: expected seats from 0 to {MAX_PLAYERS - 1} (R10), "
                    f"got {quote(seat)}"
                )
        for name in ("max_gifts", "min_points"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise InvalidStateError(
                    f"constraints.{name}: expected an integer >= 0, got {value!r}"
                )

    @property
    def is_empty(self) -> bool:
        """No constraint at all."""
        return self == _NONE

    def allows_owner(self, owner: int) -> bool:
        """Whether ``owner``'s Masterpieces may be cited."""
        return owner not in self.no_cite

    def check_against(self, position: Position) -> None:
        """Reject constraints that name cards outside the hand.

        >>> from pastiche_core import Position
        >>> Constraints(keep="SCI9").check_against(Position.quick("HOR7"))
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidStateError: constraints.keep: SCI9 is not in the hand
        """
        missing = sorted(self.keep - set(position.hand))
        if missing:
            raise InvalidStateError(f"constraints.keep: {format_cards(missing)} is not in the hand")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (only the constraints that are set)."""
        data: dict[str, Any] = {}
        if self.keep:
            data["keep"] = [str(card) for card in sorted(self.keep)]
        if self.no_cite:
            data["no_cite"] = sorted(self.no_cite)
        if self.max_gifts is not None:
            data["max_gifts"] = self.max_gifts
        if self.min_points is not None:
            data["min_points"] = self.min_points
        return data


_NONE = Constraints()
