"""Publish options (R8), hint constraints, and the one legality check for options.

A :class:`PublishOption` is one distinct way to publish in a
:class:`~pastiche_core.solver.position.Position`: a Novel, the cards played, the
Masterpieces cited and the gifts owed per owner (R4–R7). Two publishes are the
same option when they name the same Novel, play the same ranks and cite the same
multiset of (owner, rank) — the player's own Masterpieces counting as one owner,
"self" (R8). Every engine builds its options with :func:`make_option`, which
picks canonical representatives (the lowest cards of each rank, the first
Masterpieces of each owner and rank), so engines agree option for option.

An option is written as a :class:`~pastiche_core.engine.moves.Publish` move is
(``publish NOVEL PLAYED... [cite ID...] [gift TO:? ...]``), with one ``TO:?`` per
card owed to player ``TO`` — ``?`` because the card is chosen when the option is
applied (:mod:`pastiche_core.solver.gifts`) — and its points at the end (``for 6
points``). :meth:`PublishOption.parse` reads that text back.

>>> from pastiche_core.solver.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> option = make_option(pos, "kind-5", [7, 7], [(0, 7), (1, 7), (1, 7)])
>>> option
PublishOption.parse('publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points')
>>> option.gifts
((1, 2),)
>>> option.played_count, option.gift_count, option.instant_masterpiece
(2, 2, False)
>>> check_option(pos, option) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..data._text import MAX_NOTATION_LENGTH, quote, too_long
from ..data.cards import Card, format_cards
from ..data.catalogue import Catalogue
from ..data.errors import InvalidNotationError
from ..engine.feasibility import owed_text, publish_violation
from ..engine.moves import NOTATION_SEATS, split_publish
from .constraints import Constraints
from .position import Masterpiece, Position

__all__ = [
    "OPTION_NOTATION",
    "Constraints",
    "PublishOption",
    "check_option",
    "citation_key",
    "make_option",
    "option_key",
]

OPTION_NOTATION = "publish NOVEL PLAYED... [cite ID...] [gift TO:? ...] for N points"
"""The form of an option's text, as error messages name it (one ``TO:?`` per card owed, R5)."""

OptionKey = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]
"""R8 identity: (novel, played ranks, sorted (owner or -1 for self, rank) of citations)."""


@dataclass(frozen=True, slots=True, repr=False)
class PublishOption:
    """One publish option: novel, played cards, cited Masterpiece ids, gifts per owner.

    ``gifts`` is a sorted tuple of ``(owner, count)``: the number of cards owed
    to each other player whose Masterpieces are cited (R5). Which cards are
    given is chosen when the option is applied (see :mod:`pastiche_core.solver.gifts`).
    """

    novel: str
    """The id of the Novel published, in the position's catalogue."""
    played: tuple[Card, ...]
    """The hand cards played, in deck order (R4): the lowest cards of each rank unless options are
    listed card by card (R8). One card makes an instant Masterpiece (R7)."""
    cited: tuple[str, ...]
    """The ids of the Masterpieces cited (R4), in the position's table order; empty when none is."""
    gifts: tuple[tuple[int, int], ...]
    """``(owner, count)`` pairs sorted by owner: the cards owed to each other player, one per cited
    Masterpiece of theirs (R5). Citing one's own is free."""
    points: int
    """The points the Novel is worth, from its catalogue entry (scored while it is a Masterpiece,
    R13)."""

    @property
    def played_count(self) -> int:
        """Cards played from the hand (R9's first cost)."""
        return len(self.played)

    @property
    def gift_count(self) -> int:
        """Cards given away (R9's second cost)."""
        return sum(count for _, count in self.gifts)

    @property
    def costs(self) -> tuple[int, int]:
        """``(played, gifts)``, the pair R9 optimises."""
        return (self.played_count, self.gift_count)

    @property
    def instant_masterpiece(self) -> bool:
        """Exactly one card played: a Masterpiece at once (R7)."""
        return len(self.played) == 1

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the frontend contract.

        >>> from pastiche_core.solver.position import Position
        >>> pos = Position.quick("SCI7 HOR7 MYS7")
        >>> make_option(pos, "kind-3", [7, 7, 7], []).to_dict()["played"]
        ['SCI7', 'HOR7', 'MYS7']
        """
        return {
            "novel": self.novel,
            "played": [str(card) for card in self.played],
            "cited": list(self.cited),
            "gifts": {str(owner): count for owner, count in self.gifts},
            "played_count": self.played_count,
            "gift_count": self.gift_count,
            "points": self.points,
            "instant_masterpiece": self.instant_masterpiece,
        }

    @property
    def gift_notation(self) -> str:
        """The gifts owed in notation: one ``TO:?`` per card owed to player ``TO`` (R5).

        >>> from pastiche_core.solver.position import Position
        >>> pos = Position.quick("MYS7 FAN7 SCI9", table="m1=1:HOR7 m2=1:MYT7 m3=2:SCI7")
        >>> make_option(pos, "kind-5", [7, 7], [(1, 7), (1, 7), (2, 7)]).gift_notation
        '1:? 1:? 2:?'
        """
        return " ".join(f"{owner}:?" for owner, count in self.gifts for _ in range(count))

    def __str__(self) -> str:
        parts = ["publish", self.novel, format_cards(self.played, sort=False)]
        if self.cited:
            parts += ["cite", *self.cited]
        if self.gifts:
            parts += ["gift", self.gift_notation]
        parts.append(f"for {self.points} point{'' if self.points == 1 else 's'}")
        return " ".join(part for part in parts if part)

    def __repr__(self) -> str:
        return f"PublishOption.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, catalogue: Catalogue | None = None) -> PublishOption:
        """Read an option's notation: ``PublishOption.parse(str(option)) == option``.

        The form is :data:`OPTION_NOTATION`, the move grammar of
        :func:`~pastiche_core.engine.moves.split_publish` with ``?`` for each gift card
        (R5). The ``for N points`` ending may be left out when a ``catalogue``
        gives the Novel's points. Only the notation is checked here; whether the
        option is legal in a position is :func:`check_option`'s question.

        >>> PublishOption.parse("publish kind-3 MYS7 cite m1 m2 gift 1:? for 1 point").gifts
        ((1, 1),)
        >>> from pastiche_core.data.catalogue import SHIPPED_CATALOGUES
        >>> PublishOption.parse("PUBLISH kind-5 mys7 fan7 cite m1", SHIPPED_CATALOGUES["default"]).points
        6
        >>> PublishOption.parse("publish kind-3 MYS7 gift 1:SCI9 for 1 point")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid publish option 'publish kind-3 MYS7 gift 1:SCI9 for 1 point': gift '1:SCI9' names a card; an option owes 'TO:?' per card, such as '1:?' (expected publish NOVEL PLAYED... [cite ID...] [gift TO:? ...] for N points)
        """
        shown = quote(text, limit=120)
        if not isinstance(text, str) or too_long(text):
            raise InvalidNotationError(
                f"invalid publish option {shown}: expected a string of at most "
                f"{MAX_NOTATION_LENGTH:,} characters such as {OPTION_NOTATION!r}"
            )
        try:
            return cls._parse_words(text.split(), catalogue)
        except InvalidNotationError as error:
            raise InvalidNotationError(
                f"invalid publish option {shown}: {error} (expected {OPTION_NOTATION})"
            ) from None

    @classmethod
    def _parse_words(cls, words: list[str], catalogue: Catalogue | None) -> PublishOption:
        if not words or not words[0].isascii() or words[0].lower() != "publish":
            raise InvalidNotationError("an option starts with 'publish'")
        words = words[1:]
        points: int | None = None
        if len(words) >= 3 and words[-3].lower() == "for":
            count, unit = words[-2], words[-1].lower()
            if unit not in ("point", "points") or not (count.isascii() and count.isdigit()):
                raise InvalidNotationError(
                    f"the ending {quote(' '.join(words[-3:]))} is not 'for N points'"
                )
            if len(count) > 6:
                raise InvalidNotationError(f"{quote(count)} points is more than any Novel has")
            points = int(count)
            words = words[:-3]
        novel, played, cited, given = split_publish(words)
        if catalogue is not None and novel in catalogue:
            known = catalogue[novel].points
            if points is not None and points != known:
                raise InvalidNotationError(
                    f"{novel} is worth {known} points in catalogue {catalogue.name!r}, not {points}"
                )
            points = known
        if points is None:
            raise InvalidNotationError("the ending 'for N points' is missing")
        owed: dict[int, int] = {}
        for word in given:
            seat, sep, card = word.partition(":")
            if not sep or card != "?":
                raise InvalidNotationError(
                    f"gift {quote(word)} names a card; an option owes 'TO:?' per card, such as '1:?'"
                    if sep
                    else f"gift {quote(word)} is not 'TO:?', such as '1:?'"
                )
            if seat not in NOTATION_SEATS:
                raise InvalidNotationError(
                    f"gift {quote(word)}: seat {quote(seat)} is not 0 to {NOTATION_SEATS[-1]} (R10)"
                )
            owed[int(seat)] = owed.get(int(seat), 0) + 1
        return cls(
            novel=novel,
            played=tuple(Card.parse(word) for word in played),
            cited=tuple(cited),
            gifts=tuple(owed.items()),
            points=points,
        )


def make_option(
    position: Position,
    novel: str,
    played_ranks: Iterable[int],
    cited: Iterable[tuple[int, int]],
    *,
    keep: Iterable[Card] = (),
) -> PublishOption:
    """Build the canonical option for ranks played and (owner, rank) citations.

    Played cards are the lowest cards of each rank in the hand, ``keep`` cards
    excepted; cited ids are the first Masterpieces (in position order) of each
    owner and rank. Raises :class:`ValueError` if the hand or the table lacks them.
    """
    kept = frozenset(keep)
    by_rank: dict[int, list[Card]] = {}
    for card in position.hand:
        if card not in kept:
            by_rank.setdefault(card.rank, []).append(card)
    wanted: dict[int, int] = {}
    for rank in played_ranks:
        wanted[rank] = wanted.get(rank, 0) + 1
    played: list[Card] = []
    for rank, count in sorted(wanted.items()):
        cards = by_rank.get(rank, [])
        if len(cards) < count:
            raise ValueError(f"the hand has {len(cards)} card(s) of rank {rank}, not {count}")
        played.extend(cards[:count])
    need: dict[tuple[int, int], int] = {}
    for owner, rank in cited:
        need[(owner, rank)] = need.get((owner, rank), 0) + 1
    ids: list[str] = []
    gifts: dict[int, int] = {}
    for mp in position.masterpieces:
        key = (mp.owner, mp.card.rank)
        if need.get(key, 0) > 0:
            need[key] -= 1
            ids.append(mp.id)
            if mp.owner != position.player:
                gifts[mp.owner] = gifts.get(mp.owner, 0) + 1
    short = [key for key, count in need.items() if count > 0]
    if short:
        raise ValueError(f"the table lacks Masterpieces of (owner, rank) {sorted(short)}")
    return PublishOption(
        novel=novel,
        played=tuple(sorted(played)),
        cited=tuple(ids),
        gifts=tuple(sorted(gifts.items())),
        points=position.catalogue[novel].points,
    )


# home: R8
def option_key(position: Position, option: PublishOption) -> OptionKey:
    """The R8 identity of ``option`` in ``position`` (own Masterpieces as owner -1).

    >>> pos = Position.quick("SCI7 HOR7", table="m1=0:MYS7 m2=0:FAN7")
    >>> a = PublishOption("kind-3", tuple(pos.hand), ("m1",), (), 1)
    >>> b = PublishOption("kind-3", tuple(pos.hand), ("m2",), (), 1)
    >>> option_key(pos, a) == option_key(pos, b)
    True
    """
    cited = sorted(citation_key(position, position.masterpiece(ident)) for ident in option.cited)
    return (option.novel, tuple(sorted(c.rank for c in option.played)), tuple(cited))


def citation_key(position: Position, masterpiece: Masterpiece) -> tuple[int, int]:
    """What R8 tells apart of a cited Masterpiece: its owner (-1 for the player's own) and rank.

    >>> pos = Position.quick("SCI7 HOR7", table="m1=0:MYS7 m2=2:FAN7")
    >>> [citation_key(pos, mp) for mp in pos.masterpieces]
    [(-1, 7), (2, 7)]
    """
    owner = masterpiece.owner
    return (-1 if owner == position.player else owner, masterpiece.card.rank)


def check_option(
    position: Position, option: PublishOption, constraints: Constraints | None = None
) -> str | None:
    """Why ``option`` is not a legal publish here (naming the ruling), or ``None``.

    Checks one option without enumerating: R4 (cards from the hand, at least
    one played, the pattern matched exactly), R5 (gifts per owner, payable),
    R6 (supply, not held, only Masterpieces cited) and the constraints.

    >>> pos = Position.quick("SCI7 HOR7", table="m1=1:MYS7")
    >>> check_option(pos, PublishOption("kind-3", tuple(pos.hand), ("m1",), (), 1))
    'gifts must be one card per cited Masterpiece of another player: 1 to player 1 (R5)'
    """

    def resolve(ident: str) -> tuple[int, int] | str:
        try:
            mp = position.masterpiece(ident)
        except KeyError:
            return f"there is no Masterpiece {ident!r} to cite (R6)"
        return (mp.owner, mp.card.rank)

    hand = set(position.hand)
    reason, owed = publish_violation(
        position.catalogue,
        option.novel,
        supply=position.supply,
        holds=option.novel in position.held_novels,
        hand=hand,
        played=option.played,
        cited=option.cited,
        resolve=resolve,
        player=position.player,
        who="the player",
    )
    if reason is not None:
        return reason
    if dict(option.gifts) != owed or any(count <= 0 for _, count in option.gifts):
        return owed_text(owed)
    spec = position.catalogue[option.novel]
    if option.points != spec.points:
        return f"{option.novel} is worth {spec.points} points, not {option.points}"
    spare = len(hand) - len(option.played)
    if option.gift_count > spare:
        return f"{option.gift_count} gifts owed but only {spare} unplayed card(s) (R5)"
    cons = constraints if constraints is not None else position.constraints
    if not cons.is_empty:
        return _constraint_violation(position, option, cons, spare)
    return None


def _constraint_violation(
    position: Position, option: PublishOption, constraints: Constraints, spare: int
) -> str | None:
    kept = constraints.keep & set(position.hand)
    if kept & set(option.played):
        return f"plays kept card(s) {format_cards(kept & set(option.played))}"
    if option.gift_count > spare - len(kept):
        return "the gifts would have to include kept cards"
    for ident in option.cited:
        owner = position.masterpiece(ident).owner
        if not constraints.allows_owner(owner):
            return f"cites player {owner}, who is excluded"
    if constraints.max_gifts is not None and option.gift_count > constraints.max_gifts:
        return f"{option.gift_count} gifts exceed the maximum of {constraints.max_gifts}"
    if constraints.min_points is not None and option.points < constraints.min_points:
        return f"{option.points} points are below the minimum of {constraints.min_points}"
    return None


def sorted_options(options: Sequence[PublishOption], position: Position) -> list[PublishOption]:
    """Options in the canonical report order: catalogue order, then costs, then key.

    The key is :func:`option_key`'s, computed here with one table lookup per
    citation: reports can hold a hundred thousand options.
    """
    order = {novel: index for index, novel in enumerate(position.catalogue)}
    cites = {mp.id: citation_key(position, mp) for mp in position.masterpieces}

    # The parts of a key repeat across options (the same cards cite other Masterpieces):
    # each is made once per distinct value.
    played_keys: dict[tuple[Card, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    cited_keys: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}

    def key(o: PublishOption) -> tuple[Any, ...]:
        # tuple() is the option's own tuple, or a copy of a list a caller built it with.
        played, cited = tuple(o.played), tuple(o.cited)
        cards = played_keys.get(played)
        if cards is None:
            cards = played_keys[played] = (
                tuple(sorted(card.rank for card in played)),
                tuple(card.index for card in played),
            )
        by_owner = cited_keys.get(cited)
        if by_owner is None:
            by_owner = cited_keys[cited] = tuple(sorted(cites[ident] for ident in cited))
        return (order[o.novel], len(played), o.gift_count, o.novel, cards[0], by_owner, cards[1])

    return sorted(options, key=key)
