"""The engine's door into a game: not public.

A :class:`~pastiche_core.engine.game.Game` shows a user only what a user reads or calls
(:data:`~pastiche_core.engine.game.PUBLIC_NAMES`). The engine's other modules (views,
knowledge, the invariants, the JSON readers and writers, renderers, bots, the
environments, the server) need more: the live containers, the counters, the card
table, the records of each move, a few ways to build or arrange a game. They
reach them here, and only here, so no module reads a game's private names.

Nothing here is part of the public API: names and signatures may change
without notice. What changes a game (:func:`assemble`, :func:`dealt`,
:func:`stack_deck`, :func:`apply_built`, :func:`renamed`) keeps its caches, card
table and generation consistent, which
:func:`~pastiche_core.io.invariants.check_invariants` verifies.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> game.apply("keep MYT1 HOR7 HOR8")
>>> insides(game).current, history_seats(game), public_history(game, 0)
(0, [2], ((2, 'keep ? ? ?'),))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..data.cards import Card
from ..data.rng import GameRng
from .game_apply import apply_built, publish_moves, stack_deck
from .game_records import (
    history_seats,
    move_record,
    public_history,
    public_records,
    renamed,
    stale_summary,
    viewer_public,
)
from .game_state import GameInsides, GameState, assemble, insides
from .game_values import Scalars, new_generation

__all__ = [
    "GameInsides",
    "Scalars",
    "apply_built",
    "assemble",
    "dealt",
    "history_seats",
    "insides",
    "move_record",
    "new_generation",
    "public_history",
    "public_records",
    "publish_moves",
    "renamed",
    "stack_deck",
    "stale_summary",
    "viewer_public",
]

if TYPE_CHECKING:
    from .view import PlayerView

_S = TypeVar("_S", bound=GameState)


def dealt(
    kind: type[_S],
    view: PlayerView,
    *,
    deck: list[Card],
    discard: list[Card],
    face_down: set[Card],
    hands: Sequence[Iterable[Card]],
    pending: tuple[Card, Card] | None,
    rng: GameRng,
) -> _S:
    """A game of class ``kind`` in ``view``'s public state with these hidden cards (see
    :func:`assemble`).

    The view gives everything public; ``deck``, ``discard`` (the face-down
    cards filled in), ``hands`` and ``pending`` place the cards the view's
    player cannot see (R16). Nothing is checked: a determinization or the
    view reader checks what it deals.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> view = game.view(0)
    >>> twin = dealt(Game, view, deck=list(insides(game).deck), discard=[], face_down=set(),
    ...              hands=[game.hand(p) for p in range(3)], pending=None,
    ...              rng=insides(game).rng_copy())
    >>> twin.view(0) == view
    True
    """
    return assemble(
        kind,
        catalogue=view.catalogue,
        players=view.players,
        seed=0,
        rng=rng,
        deck=deck,
        discard=discard,
        face_down=face_down,
        hands=[set(hand) for hand in hands],
        tables=[{novel.novel: novel.cards for novel in table} for table in view.tables],
        supply=dict(view.supply),
        flag=view.flag,
        phase=view.phase,
        to_move=view.to_move,
        current=view.current,
        pending=pending,
        turn=view.turn,
        passes=view.passes,
        trigger=view.trigger,
        turns_left=view.turns_left,
        end_reason=view.end_reason,
        rules=view.rules,
    )
