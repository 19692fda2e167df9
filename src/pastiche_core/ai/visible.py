"""What a bot can see: a publish position and card counts, from a player's view alone.

A :class:`~pastiche_core.view.PlayerView` holds only what its player may know
(R16). :func:`position_of` turns it into the
:class:`~pastiche_core.position.Position` the solver answers, with the game's
novel references (``"1:kind-3"``) as Masterpiece ids, so an option of that
position becomes a legal :class:`~pastiche_core.moves.Publish` through
:func:`~pastiche_core.gifts.to_publish`. :func:`unseen_ranks` counts, per rank,
the cards the player has not seen anywhere: the cards a draw may bring.

>>> from pastiche_core import Game
>>> view = Game(players=3, seed=7).view(0)
>>> position_of(view)
Position.quick('LOV4 LOV7 MAG8', player=0)
>>> unseen_ranks(view)[7]  # seven cards of rank 7, one of them in the hand
6
"""

from __future__ import annotations

from ..cards import MAX_RANK, MIN_RANK
from ..catalogue import Catalogue
from ..errors import InvalidArgumentError
from ..patterns import RankCounts
from ..position import Masterpiece, Position
from ..view import PlayerView

__all__ = ["RANK_COPIES", "position_of", "unseen_ranks"]

RANK_COPIES: RankCounts = tuple(
    min(rank, 14 - rank, 7) if MIN_RANK <= rank <= MAX_RANK else 0 for rank in range(MAX_RANK + 1)
)
"""Cards of each rank in the deck (R1): ranks 1 and 13 once, rank 7 seven times (index 0 unused)."""


def position_of(view: PlayerView, catalogue: Catalogue | None = None) -> Position:
    """The publish position of the view's player, built from the view alone.

    The hand is the view's; every novel on the table with exactly one card is a
    Masterpiece with id ``"OWNER:NOVEL"`` (the game's reference, so options turn
    into moves); the player's own novels are held (R6); the supply is the
    view's publishable Novels. The catalogue is the view's unless ``catalogue``
    is given. A view that does not match the catalogue raises
    :class:`~pastiche_core.errors.InvalidArgumentError` naming the Novel.

    >>> from pastiche_core import Game, parse_cards
    >>> game = Game(players=3, seed=7)
    >>> position_of(game.view(1)) == game.position(1)
    True
    >>> from dataclasses import replace
    >>> from pastiche_core.table import TableNovel
    >>> odd = replace(game.view(0), tables=((TableNovel(0, "run-9", tuple(parse_cards("SCI7"))),), (), ()))
    >>> position_of(odd)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: the view's table holds novel 'run-9', which catalogue 'default' does not have: give the game's catalogue
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


def unseen_ranks(view: PlayerView) -> RankCounts:
    """Per rank, the cards the view's player has seen nowhere (index 0 unused).

    Seen cards are the player's hand, every card on the table, the face-up
    discards, the End Flag's card and the two drawn cards being chosen from.
    The rest — the deck, the other hands and the face-down discards — is what a
    draw may bring.

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=1)
    >>> sum(unseen_ranks(game.view(0))), len(game.hand(0))
    (46, 3)
    """
    counts = list(RANK_COPIES)
    seen = list(view.hand)
    for table in view.tables:
        for novel in table:
            seen.extend(novel.cards)
    seen.extend(card for card in view.discard if card is not None)
    if view.flag is not None:
        seen.append(view.flag[1])
    if view.pending is not None:
        seen.extend(view.pending)
    for card in seen:
        counts[card.rank] -= 1
    return tuple(max(0, count) for count in counts)
