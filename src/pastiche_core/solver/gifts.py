"""Which cards to give away: pluggable gift policies, and options turned into game moves.

A :class:`~pastiche_core.solver.options.PublishOption` says how many cards each other
player is owed for the Masterpieces it cites (R5), not which cards. The
publisher chooses them among the hand cards that are not played (and, under
hint constraints, not kept). A :class:`GiftPolicy` makes that choice:

* :class:`MostOptionsPolicy` (the default) keeps the cards that leave the most
  publish options for the player's next turn;
* :class:`LowestCardsPolicy` gives the lowest-ranked cards, at no search cost.

:func:`to_publish` turns an option of a position taken from a game into the
:class:`~pastiche_core.engine.moves.Publish` move the game accepts, with the gifts the
policy chose.

The rulebook's example: Jerome (player 0) owns a Masterpiece with SCI7 left,
Ernest (player 1) two, with HOR7 and MYT7. Jerome plays MYS7 and FAN7 for
5 of a Kind and, having cited two of Ernest's Masterpieces, gives him his two
other cards, MYT6 and SCI9.

>>> from pastiche_core.solver.position import Position
>>> from pastiche_core.solver.fast import options
>>> pos = Position.quick(
...     "MYS7 FAN7 MYT6 SCI9", table="0:pairs-3=0:SCI7 1:straight-5=1:HOR7 1:kind-3=1:MYT7"
... )
>>> (option,) = [o for o in options(pos) if o.novel == "kind-5"]
>>> to_publish(option, pos)
Move.parse('publish kind-5 MYS7 FAN7 cite 0:pairs-3 1:kind-3 1:straight-5 gift 1:MYT6 1:SCI9')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from ..data.cards import Card, format_cards
from ..data.errors import IllegalMoveError, InvalidNotationError, InvalidStateError
from ..data.patterns import rank_counts, sub_multisets
from ..engine.moves import Gift, NovelRef, Publish
from . import fast as solver_fast
from .options import Constraints, PublishOption, check_option
from .position import Masterpiece, Position

__all__ = [
    "DEFAULT_SEARCH_LIMIT",
    "GiftPolicy",
    "LowestCardsPolicy",
    "MostOptionsPolicy",
    "deal_gifts",
    "gift_candidates",
    "position_after",
    "to_publish",
]

DEFAULT_SEARCH_LIMIT = 16
"""How many candidate gift sets :class:`MostOptionsPolicy` evaluates at most, by default.

Each evaluation enumerates the options of the position after the publish, so
the limit bounds the cost of one choice to 16 runs of the fast engine."""


@runtime_checkable
class GiftPolicy(Protocol):
    """Chooses the concrete gift cards of a publish option (R5).

    ``choose`` returns one :class:`~pastiche_core.engine.moves.Gift` per card owed:
    exactly ``count`` cards for each ``(owner, count)`` of ``option.gifts``,
    all different, drawn from :func:`gift_candidates` (hand cards neither
    played nor kept by ``constraints``). It raises
    :class:`~pastiche_core.data.errors.IllegalMoveError` when the gifts cannot be
    paid.

    Any object with such a ``choose`` method is a policy; for instance one that
    gives the highest cards instead:

    >>> class HighestCards:
    ...     def choose(self, position, option, constraints=None):
    ...         spare = gift_candidates(position, option, constraints)
    ...         cards = sorted(spare[::-1][: option.gift_count])
    ...         owners = [owner for owner, count in option.gifts for _ in range(count)]
    ...         return tuple(Gift(owner, card) for owner, card in zip(owners, cards))
    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("SCI7 HOR7 MYT1 MAG13", table="1:kind-3=1:MYS7")
    >>> option = make_option(pos, "kind-3", [7, 7], [(1, 7)])
    >>> str(to_publish(option, pos, HighestCards()))
    'publish kind-3 SCI7 HOR7 cite 1:kind-3 gift 1:MAG13'
    >>> isinstance(HighestCards(), GiftPolicy), isinstance(MostOptionsPolicy(), GiftPolicy)
    (True, True)
    """

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        """The gift cards of ``option`` in ``position``, per owner (R5).

        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYT1", table="1:MYS7")
        >>> policy: GiftPolicy = LowestCardsPolicy()
        >>> policy.choose(pos, make_option(pos, "kind-3", [7, 7], [(1, 7)]))
        (Gift(to=1, card=Card.parse('MYT1')),)
        """
        ...


def gift_candidates(
    position: Position, option: PublishOption, constraints: Constraints | None = None
) -> list[Card]:
    """The cards ``option`` may give away, lowest rank first (ties in canonical order).

    They are the hand cards that are not played and not kept (``constraints.keep``).
    Raises :class:`~pastiche_core.data.errors.IllegalMoveError` if they are fewer
    than the gifts owed (R5).

    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("MAG13 SCI7 HOR7 MYT6", table="1:MYS7")
    >>> option = make_option(pos, "kind-3", [7, 7], [(1, 7)])
    >>> gift_candidates(pos, option)
    [Card.parse('MYT6'), Card.parse('MAG13')]
    >>> gift_candidates(pos, option, Constraints(keep=frozenset({Card.parse("MYT6")})))
    [Card.parse('MAG13')]
    """
    kept = (constraints if constraints is not None else position.constraints).keep
    played = set(option.played)
    spare = sorted(
        (card for card in position.hand if card not in played and card not in kept),
        key=_low_first,
    )
    owed = option.gift_count
    if owed > len(spare):
        extra = " and not kept" if kept else ""
        raise IllegalMoveError(
            f"{option}: {owed} gift(s) owed but only {len(spare)} card(s) not played{extra} (R5)"
        )
    return spare


def _low_first(card: Card) -> tuple[int, int]:
    return (card.rank, card.index)


def deal_gifts(cards: Sequence[Card], option: PublishOption) -> tuple[Gift, ...]:
    """The chosen gift ``cards``, sorted, dealt to the owners in ascending owner order (R5).

    ``option.gifts`` says how many cards each owner is owed; ``cards`` are
    exactly that many. Every gift policy ends with this.

    >>> from pastiche_core import Position, parse_cards
    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("SCI7 HOR7 MYT1 MAG13 LOV2", table="1:kind-3=1:MYS7 2:pairs-3=2:FAN7")
    >>> option = make_option(pos, "kind-3", [7], [(1, 7), (2, 7)])
    >>> deal_gifts(parse_cards("MAG13 MYT1"), option)
    (Gift(to=1, card=Card.parse('MYT1')), Gift(to=2, card=Card.parse('MAG13')))
    """
    ordered = sorted(cards)
    gifts: list[Gift] = []
    start = 0
    for owner, count in sorted(option.gifts):
        gifts.extend(Gift(owner, card) for card in ordered[start : start + count])
        start += count
    return tuple(gifts)


class LowestCardsPolicy:
    """Give the lowest-ranked spare cards (ties in canonical card order); no search.

    The chosen cards are then dealt in canonical order to the owners in
    ascending seat order.

    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("MAG13 SCI7 HOR7 MYT6 MYT2", table="1:MYS7 2:FAN7")
    >>> option = make_option(pos, "kind-3", [7], [(1, 7), (2, 7)])
    >>> LowestCardsPolicy().choose(pos, option)
    (Gift(to=1, card=Card.parse('MYT2')), Gift(to=2, card=Card.parse('MYT6')))
    """

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        """The lowest spare cards, per owner (R5).

        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYS7")
        >>> LowestCardsPolicy().choose(pos, make_option(pos, "kind-3", [7, 7, 7], []))
        ()
        """
        spare = gift_candidates(position, option, constraints)
        return deal_gifts(spare[: option.gift_count], option)

    def __repr__(self) -> str:
        return "LowestCardsPolicy()"


class MostOptionsPolicy:
    """Keep the cards that leave the player the most publish options (the default).

    Every candidate set of gift cards is scored by
    ``len(solver_fast.options(position_after(position, option, given)))``: the
    distinct options (R8) the player would have in the position after the
    publish — the hand minus the played and the given cards, the Novel now
    held, its supply one copy lower and, for an instant Masterpiece (R7), the
    played card on the table as a new own Masterpiece. The player's next
    decision of this kind is their own next turn, so that position's options
    are what counts (hint constraints are not applied to it; other players'
    moves in between are not foreseen).

    **Search.** Options depend on ranks only (R8), so cards of the same rank are
    interchangeable: the candidates are the distinct *rank multisets* of the
    right size among the spare cards, each realised by the lowest cards of
    those ranks (canonical order). They are visited in the order of
    :class:`LowestCardsPolicy` (lexicographic in rank), and the first one
    with the most options wins, so ties go to the lowest cards. The search is
    bounded: at most ``limit`` candidates (default
    :data:`DEFAULT_SEARCH_LIMIT`) are evaluated. When there are more, only the
    first ``limit`` in that order are, so the choice is the best among the
    lowest candidates, not necessarily the best of all — with ``limit=1`` the
    policy is exactly :class:`LowestCardsPolicy`. Each evaluation is one run
    of the fast engine on a hand smaller than the current one: cheap on
    ordinary hands, tens of milliseconds on a 15-card hand facing a dozen
    Masterpieces, which is why the default limit is small. Raise it for a
    more thorough search, lower it for speed.

    Here MYT7 alone, citing the player's own MAG7 and player 1's FAN7, makes
    3 of a Kind — an instant Masterpiece (R7) — and one card is owed. Giving
    the lowest card, HOR7, leaves no option; giving MYS10 keeps HOR7 and MYS7,
    which next turn make 5 of a Kind with MAG7, the new MYT7 Masterpiece and
    FAN7 (paying MYS11 as the gift):

    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("MYT7 HOR7 MYS7 MYS10 MYS11", table="m1=0:MAG7 m2=1:FAN7 m3=1:FAN12")
    >>> option = make_option(pos, "kind-3", [7], [(0, 7), (1, 7)])
    >>> LowestCardsPolicy().choose(pos, option)
    (Gift(to=1, card=Card.parse('HOR7')),)
    >>> MostOptionsPolicy().choose(pos, option)
    (Gift(to=1, card=Card.parse('MYS10')),)
    >>> from pastiche_core.data.cards import parse_cards
    >>> [str(o) for o in solver_fast.options(position_after(pos, option, parse_cards("MYS10")))]
    ['publish kind-5 HOR7 MYS7 cite m1 m2 0:kind-3 gift 1:? for 6 points']
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int = DEFAULT_SEARCH_LIMIT) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be an integer >= 1, got {limit!r}")
        self.limit = limit

    def __repr__(self) -> str:
        return f"MostOptionsPolicy(limit={self.limit})"

    def candidates(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> Iterator[tuple[Card, ...]]:
        """The candidate gift sets in search order, at most ``limit`` of them.

        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYT1 MYT2 LOV2", table="1:MYS7")
        >>> option = make_option(pos, "kind-3", [7, 7], [(1, 7)])
        >>> [format_cards(c) for c in MostOptionsPolicy().candidates(pos, option)]
        ['MYT1', 'MYT2']
        """
        spare = gift_candidates(position, option, constraints)
        owed = option.gift_count
        if owed == 0:
            yield ()
            return
        by_rank: dict[int, list[Card]] = {}
        for card in spare:
            by_rank.setdefault(card.rank, []).append(card)
        multisets = sub_multisets(rank_counts(card.rank for card in spare), owed)
        for ranks in itertools.islice(multisets, self.limit):
            taken: dict[int, int] = {}
            chosen: list[Card] = []
            for rank in ranks:
                chosen.append(by_rank[rank][taken.get(rank, 0)])
                taken[rank] = taken.get(rank, 0) + 1
            yield tuple(chosen)

    def score(self, position: Position, option: PublishOption, given: Sequence[Card]) -> int:
        """How many options (R8) the player has after publishing and giving ``given``.

        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYS7 FAN7")
        >>> MostOptionsPolicy().score(pos, make_option(pos, "kind-3", [7, 7, 7], []), ())
        0
        """
        return len(solver_fast.options(position_after(position, option, given)))

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        """The gift cards that keep the most options, per owner (R5).

        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYT1 LOV2 MYT2", table="1:MYS7")
        >>> MostOptionsPolicy().choose(pos, make_option(pos, "kind-3", [7, 7], [(1, 7)]))
        (Gift(to=1, card=Card.parse('MYT1')),)
        """
        if option.gift_count == 0:
            gift_candidates(position, option, constraints)  # still reject unpayable input
            return ()
        best: tuple[Card, ...] | None = None
        best_score = -1
        for given in self.candidates(position, option, constraints):
            value = self.score(position, option, given)
            if value > best_score:
                best, best_score = given, value
        assert best is not None  # gift_candidates guarantees at least one candidate
        return deal_gifts(best, option)


def position_after(
    position: Position, option: PublishOption, given: Sequence[Card] = ()
) -> Position:
    """The player's position after publishing ``option`` and giving away ``given``.

    The hand loses the played and the given cards; the Novel is now held and
    its supply is one copy lower (R6); with exactly one card played the new
    Novel is a Masterpiece at once (R7) and joins the table as the player's
    own, with the game's reference ``PLAYER:NOVEL`` as its id.

    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("SCI7 HOR7 MAG13", table="m1=1:MYS7 m2=0:FAN7")
    >>> after = position_after(pos, make_option(pos, "kind-3", [7], [(1, 7), (0, 7)]), ())
    >>> after
    Position.quick('HOR7 MAG13', table='m1=1:MYS7 m2=0:FAN7 0:kind-3=0:SCI7', player=0, held='kind-3', supply={'kind-3': 4})
    >>> after.supply["kind-3"]
    4
    """
    gone = set(option.played) | set(given)
    masterpieces = position.masterpieces
    if option.instant_masterpiece:
        ident = f"{position.player}:{option.novel}"
        ids = {mp.id for mp in masterpieces}
        suffix = 1
        while ident in ids:  # only for hand-built positions with clashing ids
            suffix += 1
            ident = f"{position.player}:{option.novel}#{suffix}"
        masterpieces = (*masterpieces, Masterpiece(ident, position.player, option.played[0]))
    supply = dict(position.supply)
    supply[option.novel] = max(0, supply[option.novel] - 1)
    return Position(
        player=position.player,
        hand=tuple(card for card in position.hand if card not in gone),
        masterpieces=masterpieces,
        held_novels=position.held_novels | {option.novel},
        supply=supply,
        catalogue=position.catalogue,
    )


def _novel_ref(position: Position, ident: str) -> NovelRef:
    try:
        ref = NovelRef.parse(ident)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"cited Masterpiece id {ident!r} is not a game novel reference OWNER:NOVEL "
            "such as '1:straight-5'; take the position from the game "
            "(game.position() or Position.from_game) to build a Publish move"
        ) from None
    owner = position.masterpiece(ident).owner
    if ref.owner != owner:
        raise InvalidStateError(
            f"cited Masterpiece id {ident!r} names player {ref.owner}, "
            f"but the position says player {owner} owns it"
        )
    return ref


def _check_gifts(
    position: Position,
    option: PublishOption,
    gifts: tuple[Gift, ...],
    policy: GiftPolicy,
    constraints: Constraints | None,
) -> None:
    spare = set(gift_candidates(position, option, constraints))
    given: dict[int, int] = {}
    for gift in gifts:
        given[gift.to] = given.get(gift.to, 0) + 1
    cards = [gift.card for gift in gifts]
    if (
        given != dict(option.gifts)
        or len(set(cards)) != len(cards)
        or any(card not in spare for card in cards)
    ):
        want = ", ".join(f"{n} to player {p}" for p, n in option.gifts) or "none"
        got = " ".join(map(str, sorted(gifts))) or "none"
        raise IllegalMoveError(
            f"{policy!r} chose gifts {got} for {option}: expected {want}, different cards "
            f"from the unplayed, unkept hand cards {format_cards(spare) or '(none)'} (R5)"
        )


def to_publish(
    option: PublishOption,
    position: Position,
    policy: GiftPolicy | None = None,
    constraints: Constraints | None = None,
) -> Publish:
    """The game move for ``option``, with gift cards chosen by ``policy`` (R4–R7).

    ``position`` must come from a game
    (:meth:`~pastiche_core.engine.game.Game.position`), whose Masterpiece ids are novel
    references ``OWNER:NOVEL``; any other id raises
    :class:`~pastiche_core.data.errors.InvalidNotationError` naming it. An option
    that is not legal in ``position`` (under ``constraints``) raises
    :class:`~pastiche_core.data.errors.IllegalMoveError` with the reason, and so do
    gifts from ``policy`` (default :class:`MostOptionsPolicy`) that break R5.

    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("SCI7 HOR7 MYT1", table="1:kind-3=1:MYS7")
    >>> option = make_option(pos, "kind-3", [7, 7], [(1, 7)])
    >>> str(to_publish(option, pos, LowestCardsPolicy()))
    'publish kind-3 SCI7 HOR7 cite 1:kind-3 gift 1:MYT1'
    >>> pos = Position.quick("SCI7 HOR7 MYT1", table="m1=1:MYS7")
    >>> to_publish(make_option(pos, "kind-3", [7, 7], [(1, 7)]), pos)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: cited Masterpiece id 'm1' is not a game novel reference OWNER:NOVEL such as '1:straight-5'; take the position from the game (game.position() or Position.from_game) to build a Publish move
    """
    reason = check_option(position, option, constraints)
    if reason is not None:
        raise IllegalMoveError(f"option '{option}' cannot be published here: {reason}")
    refs = tuple(_novel_ref(position, ident) for ident in option.cited)
    chooser: GiftPolicy = policy if policy is not None else MostOptionsPolicy()
    gifts = tuple(chooser.choose(position, option, constraints))
    _check_gifts(position, option, gifts, chooser, constraints)
    return Publish(option.novel, option.played, refs, gifts)
