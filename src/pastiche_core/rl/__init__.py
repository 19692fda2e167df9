"""Reinforcement learning: a fixed action encoding and observations of a player's view.

The one public face of the subpackage (it needs the ``rl`` extra:
``pip install 'pastiche-core[rl]'``):

* :class:`ActionSpace`, :class:`MoveBuilder`, :class:`Stage`
  (:mod:`pastiche_core.rl.encoding`): every decision as a short sequence of
  atomic actions from one fixed space, with the mask of the legal ones;
* :class:`ObservationEncoder`, :class:`Field`
  (:mod:`pastiche_core.rl.observation`): a player's view as a fixed-size array
  with a documented layout, and as text;
* :class:`Knowledge` (:mod:`pastiche_core.engine.knowledge`, shared with the search): what a player has
  seen of the cards over the game, and the other hands they know cards of (R16).

The environments built on them live behind their own faces:
:mod:`pastiche_core.pettingzoo` (an AEC environment),
:mod:`pastiche_core.openspiel` (the ``python_pastiche`` game) and
:mod:`pastiche_core.gymnasium` (single-agent and vector environments).

>>> from pastiche_core import Game
>>> from pastiche_core.rl import ActionSpace, MoveBuilder, ObservationEncoder
>>> game = Game(players=4, seed=7)
>>> space, encoder = ActionSpace(game.catalogue), ObservationEncoder(players=4)
>>> builder = MoveBuilder(space, game.view(game.to_move))
>>> observation = encoder.encode(builder.view, builder)
>>> len(space), observation.shape, len(builder.legal_actions())
(357, (1716,), 4)
"""

from __future__ import annotations

from ..data.errors import missing_extra
from ..engine.knowledge import Knowledge
from .encoding import ActionSpace, MoveBuilder, Stage

try:
    from .observation import Field, ObservationEncoder
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise missing_extra("pastiche_core.rl", error) from error

__all__ = ["ActionSpace", "Field", "Knowledge", "MoveBuilder", "ObservationEncoder", "Stage"]
