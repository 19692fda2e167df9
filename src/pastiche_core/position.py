"""A publish position: what one player needs to ask "what can I publish?".

A :class:`Position` holds the player's hand, the Masterpieces on the table (each
with an id, its owner and its one remaining card), the Novels the player already
holds, the copies left in the supply and the catalogue. Build one directly, from
a game (:meth:`Position.from_game`), from short strings (:meth:`Position.quick`)
or from JSON (:mod:`pastiche_core.io.position`).

>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> pos
Position.quick('MYT6 SCI9 MYS7 FAN7', table='m1=0:SCI7 m2=1:HOR7 m3=1:MYT7', player=0)
>>> pos.masterpiece("m2").owner
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .cards import Card, format_cards, parse_cards
from .catalogue import Catalogue
from .errors import InvalidNotationError, InvalidStateError

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Masterpiece", "Position"]


@dataclass(frozen=True, slots=True)
class Masterpiece:
    """A Masterpiece on the table: an id, its owner's seat and its one remaining card.

    >>> Masterpiece("m1", 0, Card.parse("SCI7"))
    Masterpiece(id='m1', owner=0, card=Card.parse('SCI7'))
    """

    id: str
    owner: int
    card: Card

    @property
    def rank(self) -> int:
        """The rank a citation contributes (R4)."""
        return self.card.rank


@dataclass(frozen=True, slots=True, eq=False)
class Position:
    """One player's publish question, validated on construction.

    ``supply`` maps every publishable Novel id to the copies left (ids missing
    from the mapping given to the constructor have all their copies). Invalid
    input raises :class:`~pastiche_core.errors.InvalidStateError` naming the field.

    >>> Position(player=0, hand=(Card.parse("SCI9"), Card.parse("SCI9")))
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: hand[1]: card SCI9 listed twice (also at hand[0])
    """

    player: int
    hand: tuple[Card, ...]
    masterpieces: tuple[Masterpiece, ...] = ()
    held_novels: frozenset[str] = frozenset()
    supply: Mapping[str, int] = field(default_factory=dict)
    catalogue: Catalogue = field(default_factory=Catalogue.default)

    def __post_init__(self) -> None:
        if isinstance(self.player, bool) or not isinstance(self.player, int) or self.player < 0:
            raise InvalidStateError(f"player: expected a seat number >= 0, got {self.player!r}")
        hand = tuple(self.hand)
        masterpieces = tuple(self.masterpieces)
        seen: dict[Card, str] = {}
        for index, card in enumerate(hand):
            if not isinstance(card, Card):
                raise InvalidStateError(f"hand[{index}]: expected a Card, got {card!r}")
            if card in seen:
                raise InvalidStateError(
                    f"hand[{index}]: card {card} listed twice (also at {seen[card]})"
                )
            seen[card] = f"hand[{index}]"
        ids: dict[str, int] = {}
        for index, mp in enumerate(masterpieces):
            where = f"masterpieces[{index}]"
            if not isinstance(mp, Masterpiece):
                raise InvalidStateError(f"{where}: expected a Masterpiece, got {mp!r}")
            if not isinstance(mp.id, str) or not mp.id:
                raise InvalidStateError(f"{where}.id: expected a non-empty string")
            if mp.id in ids:
                raise InvalidStateError(
                    f"{where}.id: masterpiece id {mp.id!r} repeated (also masterpieces[{ids[mp.id]}])"
                )
            ids[mp.id] = index
            if isinstance(mp.owner, bool) or not isinstance(mp.owner, int) or mp.owner < 0:
                raise InvalidStateError(f"{where}.owner: expected a seat >= 0, got {mp.owner!r}")
            if not isinstance(mp.card, Card):
                raise InvalidStateError(f"{where}.card: expected a Card, got {mp.card!r}")
            if mp.card in seen:
                raise InvalidStateError(
                    f"{where}.card: card {mp.card} listed twice (also at {seen[mp.card]})"
                )
            seen[mp.card] = f"{where}.card"
        cat = self.catalogue
        if not isinstance(cat, Catalogue):
            raise InvalidStateError(f"catalogue: expected a Catalogue, got {cat!r}")
        held = frozenset(self.held_novels)
        for novel in sorted(held):
            if novel not in cat:
                raise InvalidStateError(
                    f"held_novels: unknown novel {novel!r} in catalogue {cat.name!r}"
                )
        supply: dict[str, int] = {}
        for novel, copies in dict(self.supply).items():
            if novel not in cat:
                raise InvalidStateError(f"supply.{novel}: unknown novel in catalogue {cat.name!r}")
            limit = cat[novel].copies
            if isinstance(copies, bool) or not isinstance(copies, int) or not 0 <= copies <= limit:
                raise InvalidStateError(
                    f"supply.{novel}: expected 0 to {limit} copies (R6), got {copies!r}"
                )
        for spec in cat.specs:
            supply[spec.id] = dict(self.supply).get(spec.id, spec.copies)
        object.__setattr__(self, "hand", tuple(sorted(hand)))
        object.__setattr__(self, "masterpieces", masterpieces)
        object.__setattr__(self, "held_novels", held)
        object.__setattr__(self, "supply", MappingProxyType(supply))

    # ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.player == other.player
            and self.hand == other.hand
            and self.masterpieces == other.masterpieces
            and self.held_novels == other.held_novels
            and dict(self.supply) == dict(other.supply)
            and self.catalogue == other.catalogue
        )

    def __hash__(self) -> int:
        return hash((self.player, self.hand, self.masterpieces, self.held_novels))

    def __repr__(self) -> str:
        table = " ".join(f"{m.id}={m.owner}:{m.card}" for m in self.masterpieces)
        parts = [repr(format_cards(self.hand))]
        if table:
            parts.append(f"table={table!r}")
        parts.append(f"player={self.player}")
        if self.held_novels:
            parts.append(f"held={' '.join(sorted(self.held_novels))!r}")
        used = {
            novel: copies
            for novel, copies in self.supply.items()
            if copies != self.catalogue[novel].copies
        }
        if used:
            parts.append(f"supply={used!r}")
        if not self.catalogue.is_default:
            parts.append(f"catalogue={self.catalogue!r}")  # not pasteable: name the catalogue
        return f"Position.quick({', '.join(parts)})"

    def __str__(self) -> str:
        """The human form: hand, table and held Novels on one line.

        >>> print(Position.quick("SCI9 HOR7", table="1:SCI7", held="kind-3"))
        player 0: hand SCI9 HOR7 | masterpieces m1=1:SCI7 | holds kind-3
        """
        table = " ".join(f"{m.id}={m.owner}:{m.card}" for m in self.masterpieces) or "-"
        held = " ".join(sorted(self.held_novels)) or "-"
        return (
            f"player {self.player}: hand {format_cards(self.hand) or '-'} | "
            f"masterpieces {table} | holds {held}"
        )

    def _repr_svg_(self) -> str:
        """The hand and the table drawn in genre colours (Jupyter)."""
        from .render import position_svg

        return position_svg(self)

    def __rich__(self) -> Any:
        """The position coloured by genre in a rich console."""
        from .render import rich_text

        return rich_text(self)

    # ------------------------------------------------------------------
    def masterpiece(self, masterpiece_id: str) -> Masterpiece:
        """The Masterpiece with this id (``KeyError`` if none)."""
        for mp in self.masterpieces:
            if mp.id == masterpiece_id:
                return mp
        raise KeyError(f"no masterpiece {masterpiece_id!r} in the position")

    def available(self, novel: str) -> bool:
        """Whether the player may publish ``novel``: publishable, in supply, not held (R6).

        >>> Position.quick("SCI9", held="kind-3").available("kind-3")
        False
        """
        spec = self.catalogue[novel]
        return spec.publishable and self.supply[novel] > 0 and novel not in self.held_novels

    # ------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game, player: int | None = None) -> Position:
        """The position of ``player`` (default: the player to move) in ``game``.

        Masterpiece ids are the game's novel references (``'1:straight-5'``), so
        an option's citations map straight back to the game.

        >>> from pastiche_core import Game
        >>> pos = Position.from_game(Game(players=3, seed=7), 0)
        >>> len(pos.hand), pos.masterpieces
        (3, ())
        """
        seat = game.to_move if player is None else player
        if not 0 <= seat < game.players:
            raise InvalidStateError(f"player: expected 0 to {game.players - 1}, got {seat}")
        masterpieces = tuple(
            Masterpiece(str(novel.ref), novel.owner, novel.cards[0])
            for novel in game.masterpieces()
        )
        held = frozenset(novel.novel for novel in game.table(seat))
        return cls(
            player=seat,
            hand=game.hand(seat),
            masterpieces=masterpieces,
            held_novels=held,
            supply={k: v for k, v in game.supply.items() if game.catalogue[k].publishable},
            catalogue=game.catalogue,
        )

    @classmethod
    def quick(
        cls,
        hand: str,
        table: str = "",
        *,
        player: int = 0,
        held: str = "",
        supply: Mapping[str, int] | None = None,
        catalogue: Catalogue | None = None,
    ) -> Position:
        """A position from short strings, for the REPL.

        ``table`` lists Masterpieces as ``OWNER:CARD`` (ids ``m1``, ``m2``, ... in
        order) or ``ID=OWNER:CARD``; ``held`` lists held Novel ids.

        >>> Position.quick("MYS7 FAN7", table="0:SCI7 1:HOR7").masterpieces[1]
        Masterpiece(id='m2', owner=1, card=Card.parse('HOR7'))
        >>> Position.quick("MYS7", table="HOR7")
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidNotationError: invalid masterpiece 'HOR7': expected OWNER:CARD or ID=OWNER:CARD such as '1:HOR7'
        """
        masterpieces = []
        for index, token in enumerate(table.split(), start=1):
            ident, _, rest = token.rpartition("=")
            owner, sep, card = rest.partition(":")
            if not sep or not owner.isdigit():
                raise InvalidNotationError(
                    f"invalid masterpiece {token!r}: expected OWNER:CARD or ID=OWNER:CARD "
                    "such as '1:HOR7'"
                )
            masterpieces.append(Masterpiece(ident or f"m{index}", int(owner), Card.parse(card)))
        return cls(
            player=player,
            hand=tuple(parse_cards(hand)),
            masterpieces=tuple(masterpieces),
            held_novels=frozenset(held.split()),
            supply=dict(supply or {}),
            catalogue=catalogue if catalogue is not None else Catalogue.default(),
        )

    def without_cards(self, cards: Iterable[Card]) -> Position:
        """The same position with ``cards`` removed from the hand (e.g. after giving them).

        >>> Position.quick("SCI9 HOR7").without_cards(parse_cards("HOR7")).hand
        (Card.parse('SCI9'),)
        """
        gone = set(cards)
        return Position(
            self.player,
            tuple(c for c in self.hand if c not in gone),
            self.masterpieces,
            self.held_novels,
            dict(self.supply),
            self.catalogue,
        )
