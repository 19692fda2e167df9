"""The engine's door into a game: not public.

A :class:`~pastiche_core.game.Game` shows a user only what a user reads or calls
(:data:`~pastiche_core.game.PUBLIC_NAMES`). The engine's other modules (views,
knowledge, the invariants, the JSON readers and writers, renderers, bots, the
environments, the server) need more: the live containers, the counters, the card
table, the records of each move, a few ways to build or arrange a game. They
reach them here, and only here, so no module reads a game's private names.

Nothing here is part of the public API: names and signatures may change
without notice. What changes a game (:func:`assemble`, :func:`dealt`,
:func:`stack_deck`, :func:`apply_built`, :func:`renamed`) keeps its caches, card
table and generation consistent, which
:func:`~pastiche_core.invariants.check_invariants` verifies.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> game.apply("keep MYT1 HOR7 HOR8")
>>> insides(game).current, history_seats(game), public_history(game, 0)
(0, [2], ((2, 'keep ? ? ?'),))
"""

from __future__ import annotations

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
from .game_state import GameInsides, assemble, dealt, insides
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
