"""What a bot can see: a publish position and card counts, from a player's view alone.

A :class:`~pastiche_core.engine.view.PlayerView` holds only what its player may know
(R16). :func:`position_of` turns it into the
:class:`~pastiche_core.solver.position.Position` the solver answers, with the game's
novel references (``"1:kind-3"``) as Masterpiece ids, so an option of that
position becomes a legal :class:`~pastiche_core.engine.moves.Publish` through
:func:`~pastiche_core.solver.gifts.to_publish`. :func:`unseen_ranks` counts, per rank,
the cards the player has not seen anywhere: the cards a draw may bring.

>>> from pastiche_core import Game
>>> view = Game(players=3, seed=7).view(0)
>>> position_of(view)
Position.quick('LOV4 LOV7 MAG8', player=0)
>>> unseen_ranks(view)[7]  # seven cards of rank 7, one of them in the hand
6
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..data._text import quote
from ..data.cards import MAX_RANK, MIN_RANK
from ..data.errors import InvalidStateError
from ..data.patterns import RankCounts
from ..engine.view import PlayerView
from ..io._fields import document_kind
from ..io.position_json import query_from_dict
from ..io.state_json import STATE_FORMAT, state_from_dict
from ..io.view_json import VIEW_FORMAT, view_from_dict
from ..solver.constraints import Constraints
from ..solver.position import Position, position_of

__all__ = ["RANK_COPIES", "position_of", "publish_query", "seat_query", "unseen_ranks"]

RANK_COPIES: RankCounts = tuple(
    min(rank, 14 - rank, 7) if MIN_RANK <= rank <= MAX_RANK else 0 for rank in range(MAX_RANK + 1)
)
"""Cards of each rank in the deck (R1): ranks 1 and 13 once, rank 7 seven times (index 0 unused)."""


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


def publish_query(
    data: object, *, player: int | None = None, base_dir: str | Path | None = None
) -> tuple[Position, Constraints]:
    """The publish question a decoded document asks: a position, a view, or a state and a seat.

    The document's ``format`` says its kind. A position (no ``format``) is read
    by :func:`~pastiche_core.io.position_json.query_from_dict` (``base_dir`` for
    a catalogue file) with its constraints; ``player``, if given, must be its
    player. A view (``pastiche-view``) is checked as any view from outside is
    (:func:`~pastiche_core.io.view_json.view_from_dict`, R16) and answers for its
    viewer; ``player``, if given, must be the viewer. A state
    (``pastiche-state``) is checked and replayed
    (:func:`~pastiche_core.io.state_json.state_from_dict`) and answers for
    ``player`` (default: the player to move) from that player's view alone
    (:func:`position_of`), never from the cards hidden from them. Errors start
    with the JSON path (``$.format``); a bad ``player`` names ``player``.

    >>> from pastiche_core import Game, state_to_dict, view_to_dict
    >>> game = Game(players=3, seed=7)
    >>> publish_query(view_to_dict(game.view(1)))[0] == game.position(1)
    True
    >>> publish_query(state_to_dict(game), player=2)[0] == game.position(2)
    True
    >>> publish_query(state_to_dict(game), player=3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: player: expected a seat of this 3-player game, 0 to 2, got 3
    >>> publish_query({"format": "pastiche-record"})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.format: expected a position (no format), 'pastiche-view' or 'pastiche-state' document, got 'pastiche-record': this is a game record: it replays with GameRecord
    """
    source, constraints = seat_query(data, player=player, base_dir=base_dir)
    if isinstance(source, PlayerView):
        return position_of(source), constraints
    return source, constraints


def seat_query(
    data: object, *, player: int | None = None, base_dir: str | Path | None = None
) -> tuple[PlayerView | Position, Constraints]:
    """The question a decoded document asks for one seat: a position, or a seat's view.

    As :func:`publish_query`, but a view or a state answers with the seat's
    :class:`~pastiche_core.engine.view.PlayerView` itself (a state's for ``player``, by
    default the player to move), for questions that need more than the publish
    position (the cards the seat cannot see, the top discard).

    >>> from pastiche_core import Game, state_to_dict
    >>> game = Game(players=3, seed=7)
    >>> seat_query(state_to_dict(game), player=1)[0] == game.view(1)
    True
    """
    kind = data.get("format") if isinstance(data, Mapping) else None
    if kind is None or not isinstance(data, Mapping):
        position, constraints = query_from_dict(data, base_dir=base_dir)
        _same_player(player, position.player, "the position")
        return position, constraints
    if kind == VIEW_FORMAT:
        view = view_from_dict(data)
        _same_player(player, view.player, "the view")
        return view, Constraints()
    if kind == STATE_FORMAT:
        game = state_from_dict(data)
        seat = game.to_move if player is None else player
        if not 0 <= seat < game.players:
            raise InvalidStateError(
                f"player: expected a seat of this {game.players}-player game, "
                f"0 to {game.players - 1}, got {seat}"
            )
        return game.view(seat), Constraints()
    known = document_kind(data)
    raise InvalidStateError(
        f"$.format: expected a position (no format), {VIEW_FORMAT!r} or {STATE_FORMAT!r} "
        f"document, got {quote(kind)}" + (f": this is {known}" if known else "")
    )


def _same_player(asked: int | None, found: int, where: str) -> None:
    if asked is not None and asked != found:
        raise InvalidStateError(f"player: {asked} is not {where}'s player, {found}")
