"""A publish position: what one player needs to ask "what can I publish?".

A :class:`Position` holds the player's hand, the Masterpieces on the table (each
with an id, its owner and its one remaining card), the Novels the player already
holds, the copies left in the supply and the catalogue. Build one directly, from
a game (:meth:`Position.from_game`), from short strings (:meth:`Position.quick`)
or from JSON (:mod:`pastiche_core.io.position_json`).

>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> pos
Position.quick('MYT6 SCI9 MYS7 FAN7', table='m1=0:SCI7 m2=1:HOR7 m3=1:MYT7', player=0)
>>> pos.masterpiece("m2").owner
1
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..data._text import MAX_NOTATION_LENGTH, quote, too_long
from ..data.cards import Card, CardsLike, as_card, as_cards, format_cards, parse_cards
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError, InvalidNotationError, InvalidStateError
from ..engine.moves import NOTATION_SEATS
from ..engine.rules import MAX_PLAYERS
from ..engine.view import PlayerView
from .constraints import Constraints

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["Masterpiece", "Position", "position_of"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_seat(seat: object, where: str) -> None:
    """A seat of a game: 0 to ``MAX_PLAYERS - 1`` (R10)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_PLAYERS:
        raise InvalidStateError(
            f"{where}: expected a seat from 0 to {MAX_PLAYERS - 1} (R10), got {quote(seat)}"
        )


def _as_tuple(items: object, where: str, what: str) -> tuple[Any, ...]:
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise InvalidStateError(f"{where}: expected a collection of {what}, got {quote(items)}")
    try:
        return tuple(items)
    except TypeError:
        raise InvalidStateError(f"{where}: expected a collection of {what}") from None


@dataclass(frozen=True, slots=True)
class Masterpiece:
    """A Masterpiece on the table: an id, its owner's seat and its one remaining card.

    >>> Masterpiece("m1", 0, Card.parse("SCI7"))
    Masterpiece(id='m1', owner=0, card=Card.parse('SCI7'))
    """

    id: str
    """The id citations name it by, unique in the position: any non-empty string (``'m1'``; from a
    game, the novel's reference such as ``'1:straight-5'``)."""
    owner: int
    """The seat of the player who owns it, 0 to 4 (R10); citing another player's Masterpiece costs a
    gift (R5)."""
    card: Card
    """Its one remaining card, which a citation adds to the publish (R4); a string such as
    ``'SCI7'`` is parsed."""

    def __post_init__(self) -> None:
        if isinstance(self.card, str):
            object.__setattr__(self, "card", as_card(self.card))

    @property
    def rank(self) -> int:
        """The rank a citation contributes (R4)."""
        return self.card.rank


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Position:
    """One player's publish question, validated on construction.

    ``supply`` maps every Novel id of the catalogue, the End Flag included, to
    the copies left (ids missing from the mapping given to the constructor have
    all their copies). The
    player and every owner are seats 0 to 4 (R10), and nobody owns more
    Masterpieces than the catalogue has publishable Novels (R6). Invalid input
    raises :class:`~pastiche_core.data.errors.InvalidStateError` naming the field.

    >>> Position(player=0, hand=(Card.parse("SCI9"), Card.parse("SCI9")))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: hand[1]: card SCI9 listed twice (also at hand[0])
    >>> Position(player=990, hand=())
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: player: expected a seat from 0 to 4 (R10), got 990

    The hand takes cards in any form (``"SCI9 HOR7"``, Cards, or an iterable of
    either). ``constraints`` are the position's own hint constraints (a position
    file may carry them): :func:`~pastiche_core.solver.queries.solve` honours them
    unless given others.

    >>> Position(player=0, hand="SCI9 HOR7", constraints=Constraints(keep="SCI9")).constraints.keep
    frozenset({Card.parse('SCI9')})
    """

    player: int
    """The seat asking, 0 to 4 (R10)."""
    hand: tuple[Card, ...]
    """The player's hand in deck order, each card once."""
    masterpieces: tuple[Masterpiece, ...]
    """The Masterpieces on the table, the player's own included (R4), in the order given; their ids
    and cards are distinct."""
    held_novels: frozenset[str]
    """Ids of the Novels the player already holds, Published or Masterpiece: they cannot be
    published again (R6)."""
    supply: Mapping[str, int]
    """Copies left in the supply for every Novel id of the catalogue, End Flag included (R6): 0 to
    the catalogue's copies, all of them for an id not given. Read-only."""
    catalogue: Catalogue
    """The Novel catalogue (R2, R3): the default one unless given."""
    constraints: Constraints
    """The position's own hint constraints (none by default); :func:`~pastiche_core.solver.queries.solve`
    honours them unless given others."""

    def __init__(
        self,
        player: int,
        hand: CardsLike,
        masterpieces: Iterable[Masterpiece] = (),
        held_novels: Iterable[str] = frozenset(),
        supply: Mapping[str, int] | None = None,
        catalogue: Catalogue | None = None,
        constraints: Constraints | None = None,
    ) -> None:
        try:
            cards = as_cards(hand)
        except InvalidNotationError as error:
            raise InvalidStateError(f"hand: {error}") from None
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "hand", cards)
        object.__setattr__(self, "masterpieces", masterpieces)
        object.__setattr__(self, "held_novels", held_novels)
        object.__setattr__(self, "supply", {} if supply is None else supply)
        object.__setattr__(
            self, "catalogue", Catalogue.default() if catalogue is None else catalogue
        )
        object.__setattr__(
            self, "constraints", Constraints() if constraints is None else constraints
        )
        self.__post_init__()

    def __post_init__(self) -> None:
        _check_seat(self.player, "player")
        cat = self.catalogue
        if not isinstance(cat, Catalogue):
            raise InvalidStateError(f"catalogue: expected a Catalogue, got {quote(cat)}")
        hand = _as_tuple(self.hand, "hand", "Cards")
        masterpieces = _as_tuple(self.masterpieces, "masterpieces", "Masterpieces")
        seen: dict[Card, str] = {}
        for index, card in enumerate(hand):
            if not isinstance(card, Card):
                raise InvalidStateError(f"hand[{index}]: expected a Card, got {quote(card)}")
            if card in seen:
                raise InvalidStateError(
                    f"hand[{index}]: card {card} listed twice (also at {seen[card]})"
                )
            seen[card] = f"hand[{index}]"
        ids: dict[str, int] = {}
        per_owner: dict[int, int] = {}
        publishable = cat.publishable
        novels = len(publishable)
        for index, mp in enumerate(masterpieces):
            where = f"masterpieces[{index}]"
            if not isinstance(mp, Masterpiece):
                raise InvalidStateError(f"{where}: expected a Masterpiece, got {quote(mp)}")
            if not isinstance(mp.id, str) or not mp.id:
                raise InvalidStateError(f"{where}.id: expected a non-empty string")
            if _SURROGATE.search(mp.id):
                raise InvalidStateError(
                    f"{where}.id: {quote(mp.id)} holds a lone surrogate (not Unicode text)"
                )
            if mp.id in ids:
                raise InvalidStateError(
                    f"{where}.id: masterpiece id {quote(mp.id)} repeated "
                    f"(also masterpieces[{ids[mp.id]}])"
                )
            ids[mp.id] = index
            _check_seat(mp.owner, f"{where}.owner")
            per_owner[mp.owner] = per_owner.get(mp.owner, 0) + 1
            if per_owner[mp.owner] > novels:
                raise InvalidStateError(
                    f"{where}.owner: player {mp.owner} would hold more Masterpieces than the "
                    f"{novels} publishable Novels of catalogue {quote(cat.name)}, "
                    "and nobody holds one Novel twice (R6)"
                )
            if not isinstance(mp.card, Card):
                raise InvalidStateError(f"{where}.card: expected a Card, got {quote(mp.card)}")
            if mp.card in seen:
                raise InvalidStateError(
                    f"{where}.card: card {mp.card} listed twice (also at {seen[mp.card]})"
                )
            seen[mp.card] = f"{where}.card"
        copies = sum(spec.copies for spec in publishable)
        if len(masterpieces) > copies:
            raise InvalidStateError(
                f"masterpieces: {len(masterpieces)} Masterpieces, more than the {copies} "
                f"publishable copies of catalogue {quote(cat.name)} (R2, R6)"
            )
        held = frozenset(_as_tuple(self.held_novels, "held_novels", "Novel ids"))
        for novel in held:
            if not isinstance(novel, str) or novel not in cat:
                raise InvalidStateError(
                    f"held_novels: unknown novel {quote(novel)} in catalogue {quote(cat.name)}"
                )
        if not isinstance(self.supply, Mapping):
            raise InvalidStateError(
                f"supply: expected a mapping of Novel ids to copies, got {quote(self.supply)}"
            )
        given = dict(self.supply)
        for novel, left in given.items():
            if not isinstance(novel, str) or novel not in cat:
                raise InvalidStateError(
                    f"supply: unknown novel {quote(novel)} in catalogue {quote(cat.name)}"
                )
            limit = cat[novel].copies
            if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= limit:
                raise InvalidStateError(
                    f"supply.{novel}: expected 0 to {limit} copies (R6), got {quote(left)}"
                )
        supply = {spec.id: given.get(spec.id, spec.copies) for spec in cat.specs}
        object.__setattr__(self, "hand", tuple(sorted(hand)))
        object.__setattr__(self, "masterpieces", masterpieces)
        object.__setattr__(self, "held_novels", held)
        object.__setattr__(self, "supply", MappingProxyType(supply))
        if not isinstance(self.constraints, Constraints):
            raise InvalidStateError(
                f"constraints: expected Constraints, got {quote(self.constraints)}"
            )
        self.constraints.check_against(self)

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
            and self.constraints == other.constraints
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
        if not self.constraints.is_empty:
            parts.append(f"constraints={self.constraints!r}")
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
        from ..io.render import position_svg

        return position_svg(self)

    def __rich__(self) -> Any:
        """The position coloured by genre in a rich console."""
        from ..io.render import rich_text

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
        from ..engine.game import (
            Game,  # the type checked at run time (the game layer imports this one)
        )

        if not isinstance(game, Game):
            kind = type(game).__name__
            how = (
                "pastiche_core.solver.position_of(view)"
                if kind == "PlayerView"
                else "Position.quick('MYS7 FAN7') or Position(...)"
            )
            raise InvalidArgumentError(
                f"Position.from_game() takes a Game, got a {kind}: for it use {how}"
            )
        seat = game.to_move if player is None else player
        if not 0 <= seat < game.players:
            raise InvalidStateError(f"player: expected 0 to {game.players - 1}, got {seat}")
        masterpieces = tuple(
            Masterpiece(str(novel.ref), novel.owner, novel.cards[0])
            for table in game.tables()
            for novel in table
            if novel.masterpiece
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
        hand: str | Sequence[str],
        table: str | Sequence[str] = "",
        *,
        player: int = 0,
        held: str | Sequence[str] = "",
        supply: Mapping[str, int] | None = None,
        catalogue: Catalogue | None = None,
        constraints: Constraints | None = None,
    ) -> Position:
        """A position from short strings, for the REPL.

        ``table`` lists Masterpieces as ``OWNER:CARD`` (ids ``m1``, ``m2``, ... in
        order) or ``ID=OWNER:CARD``, the owner an ASCII seat 0 to 4 (R10); ``held``
        lists held Novel ids. Each may also be a list of such tokens.

        >>> Position.quick("MYS7 FAN7", table="0:SCI7 1:HOR7").masterpieces[1]
        Masterpiece(id='m2', owner=1, card=Card.parse('HOR7'))
        >>> Position.quick(["MYS7", "FAN7"]).hand == Position.quick("MYS7 FAN7").hand
        True
        >>> Position.quick("MYS7", table="HOR7")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid masterpiece 'HOR7': expected OWNER:CARD or ID=OWNER:CARD such as '1:HOR7'
        """
        hand, table, held = _joined("hand", hand), _joined("table", table), _joined("held", held)
        for name, text in (("hand", hand), ("table", table), ("held", held)):
            if too_long(text):
                raise InvalidNotationError(
                    f"invalid {name} {quote(text)}: expected a notation string of at most "
                    f"{MAX_NOTATION_LENGTH:,} characters"
                )
        masterpieces = []
        for index, token in enumerate(table.split(), start=1):
            ident, _, rest = token.rpartition("=")
            owner, sep, card = rest.partition(":")
            if not sep or not (owner.isascii() and owner.isdigit()):
                raise InvalidNotationError(
                    f"invalid masterpiece {quote(token)}: expected OWNER:CARD or ID=OWNER:CARD "
                    "such as '1:HOR7'"
                )
            if owner not in NOTATION_SEATS:
                raise InvalidNotationError(
                    f"invalid masterpiece {quote(token)}: seat {quote(owner)} is not 0 to "
                    f"{NOTATION_SEATS[-1]} (R10)"
                )
            masterpieces.append(Masterpiece(ident or f"m{index}", int(owner), Card.parse(card)))
        return cls(
            player=player,
            hand=tuple(parse_cards(hand)),
            masterpieces=tuple(masterpieces),
            held_novels=frozenset(held.split()),
            supply=dict(supply or {}),
            catalogue=catalogue if catalogue is not None else Catalogue.default(),
            constraints=constraints,
        )

    def without_cards(self, cards: CardsLike) -> Position:
        """The same position with ``cards`` removed from the hand (e.g. after giving them).

        Kept cards (``constraints.keep``) that leave the hand are no longer kept.

        >>> Position.quick("SCI9 HOR7").without_cards("HOR7").hand
        (Card.parse('SCI9'),)
        """
        gone = set(as_cards(cards))
        constraints = self.constraints
        if constraints.keep & gone:
            constraints = dataclasses.replace(constraints, keep=constraints.keep - gone)
        return Position(
            self.player,
            tuple(c for c in self.hand if c not in gone),
            self.masterpieces,
            self.held_novels,
            dict(self.supply),
            self.catalogue,
            constraints,
        )


def _joined(name: str, tokens: object) -> str:
    """A notation string, or a list or tuple of tokens joined into one (the REPL's lists)."""
    if isinstance(tokens, str):
        return tokens
    if (
        isinstance(tokens, list | tuple)
        and len(tokens) <= MAX_NOTATION_LENGTH
        and all(isinstance(token, str) for token in tokens)
    ):
        return " ".join(tokens)
    raise InvalidNotationError(
        f"invalid {name} {quote(tokens)}: expected a notation string of at most "
        f"{MAX_NOTATION_LENGTH:,} characters, or a list of tokens"
    )


def position_of(view: PlayerView, catalogue: Catalogue | None = None) -> Position:
    """The publish position of the view's player, built from the view alone.

    The hand is the view's; every novel on the table with exactly one card is a
    Masterpiece with id ``"OWNER:NOVEL"`` (the game's reference, so options turn
    into moves); the player's own novels are held (R6); the supply is the
    view's publishable Novels. The catalogue is the view's unless ``catalogue``
    is given. A view that does not match the catalogue raises
    :class:`~pastiche_core.data.errors.InvalidArgumentError` naming the Novel.

    >>> from pastiche_core import Game, parse_cards
    >>> game = Game(players=3, seed=7)
    >>> position_of(game.view(1)) == game.position(1)
    True
    >>> from dataclasses import replace
    >>> from pastiche_core.engine.table import TableNovel
    >>> odd = replace(game.view(0), tables=((TableNovel(0, "run-9", tuple(parse_cards("SCI7"))),), (), ()))
    >>> position_of(odd)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: the view's table holds novel 'run-9', which catalogue 'default' does not have: give the game's catalogue
    """
    cat = catalogue if catalogue is not None else view.catalogue
    masterpieces = []
    held = set()
    for table in view.tables:
        for novel in table:
            if novel.novel not in cat:
                raise InvalidArgumentError(
                    f"the view's table holds novel {novel.novel!r}, which catalogue "
                    f"{cat.name!r} does not have: give the game's catalogue"
                )
            if novel.owner == view.player:
                held.add(novel.novel)
            if novel.masterpiece:
                masterpieces.append(Masterpiece(str(novel.ref), novel.owner, novel.cards[0]))
    supply: dict[str, int] = {}
    for novel_id, copies in view.supply:
        if novel_id not in cat:
            raise InvalidArgumentError(
                f"the view's supply holds novel {novel_id!r}, which catalogue {cat.name!r} "
                "does not have: give the game's catalogue"
            )
        if cat[novel_id].publishable:
            supply[novel_id] = copies
    return Position(
        player=view.player,
        hand=view.hand,
        masterpieces=tuple(masterpieces),
        held_novels=frozenset(held),
        supply=supply,
        catalogue=cat,
    )
