"""Publish options (R8), hint constraints, and the one legality check for options.

A :class:`PublishOption` is one distinct way to publish in a
:class:`~pastiche_core.position.Position`: a Novel, the cards played, the
Masterpieces cited and the gifts owed per owner (R4–R7). Two publishes are the
same option when they name the same Novel, play the same ranks and cite the same
multiset of (owner, rank) — the player's own Masterpieces counting as one owner,
"self" (R8). Every engine builds its options with :func:`make_option`, which
picks canonical representatives (the lowest cards of each rank, the first
Masterpieces of each owner and rank), so engines agree option for option.

>>> from pastiche_core.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> option = make_option(pos, "kind-5", [7, 7], [(0, 7), (1, 7), (1, 7)])
>>> option
PublishOption(novel='kind-5', played=(Card.parse('MYS7'), Card.parse('FAN7')), cited=('m1', 'm2', 'm3'), gifts=((1, 2),), points=6)
>>> option.played_count, option.gift_count, option.instant_masterpiece
(2, 2, False)
>>> check_option(pos, option) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, format_cards
from .constraints import Constraints
from .feasibility import owed_text, publish_violation
from .position import Position

__all__ = [
    "Constraints",
    "PublishOption",
    "check_option",
    "make_option",
    "option_key",
]

OptionKey = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]
"""R8 identity: (novel, played ranks, sorted (owner or -1 for self, rank) of citations)."""


@dataclass(frozen=True, slots=True)
class PublishOption:
    """One publish option: novel, played cards, cited Masterpiece ids, gifts per owner.

    ``gifts`` is a sorted tuple of ``(owner, count)``: the number of cards owed
    to each other player whose Masterpieces are cited (R5). Which cards are
    given is chosen when the option is applied (see :mod:`pastiche_core.gifts`).
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

        >>> from pastiche_core.position import Position
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

    def __str__(self) -> str:
        text = f"{self.novel}: {format_cards(self.played)}"
        if self.cited:
            text += f" cite {' '.join(self.cited)}"
        if self.gifts:
            text += " gifts " + " ".join(f"{owner}x{count}" for owner, count in self.gifts)
        return text


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


def option_key(position: Position, option: PublishOption) -> OptionKey:
    """The R8 identity of ``option`` in ``position`` (own Masterpieces as owner -1).

    >>> pos = Position.quick("SCI7 HOR7", table="m1=0:MYS7 m2=0:FAN7")
    >>> a = PublishOption("kind-3", tuple(pos.hand), ("m1",), (), 1)
    >>> b = PublishOption("kind-3", tuple(pos.hand), ("m2",), (), 1)
    >>> option_key(pos, a) == option_key(pos, b)
    True
    """
    cited = []
    for ident in option.cited:
        mp = position.masterpiece(ident)
        cited.append((-1 if mp.owner == position.player else mp.owner, mp.card.rank))
    return (option.novel, tuple(sorted(c.rank for c in option.played)), tuple(sorted(cited)))


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
    player = position.player
    cites = {
        mp.id: (-1 if mp.owner == player else mp.owner, mp.card.rank)
        for mp in position.masterpieces
    }

    def key(o: PublishOption) -> tuple[Any, ...]:
        ranks = tuple(sorted(card.rank for card in o.played))
        return (
            order[o.novel],
            len(o.played),
            o.gift_count,
            o.novel,
            ranks,
            tuple(sorted(cites[ident] for ident in o.cited)),
            tuple(card.index for card in o.played),
        )

    return sorted(options, key=key)
