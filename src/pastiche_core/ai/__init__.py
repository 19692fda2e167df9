"""Bots that play Pastiche (the ``pastiche_core.ai`` face).

* :mod:`~pastiche_core.ai.greedy`: :class:`GreedyBot`, a one-move-ahead heuristic
  player, and its gift policy;
* :mod:`~pastiche_core.ai.heuristics`: the publishing prospects of a hand
  (:class:`Outlook`) and their :class:`Weights`;
* :mod:`~pastiche_core.ai.observation`: what a bot sees, from a
  :class:`~pastiche_core.view.PlayerView` alone (:func:`position_of`).

``import pastiche_core`` does not load this package.

>>> from pastiche_core import play_game
>>> play_game(players=3, seed=5, bots=[GreedyBot(seat) for seat in range(3)]).is_over
True
"""

from __future__ import annotations

from .greedy import DEFAULT_PUBLISH_OPTIONS, GreedyBot, GreedyGiftPolicy
from .heuristics import Outlook, Weights, counts_of, horizon_of
from .observation import RANK_COPIES, position_of, unseen_ranks

__all__ = [
    "DEFAULT_PUBLISH_OPTIONS",
    "RANK_COPIES",
    "GreedyBot",
    "GreedyGiftPolicy",
    "Outlook",
    "Weights",
    "counts_of",
    "horizon_of",
    "position_of",
    "unseen_ranks",
]
