"""Bots that play Pastiche and matches between them (the ``pastiche_core.ai`` face).

* :mod:`~pastiche_core.ai.greedy`: :class:`GreedyBot`, a one-move-ahead heuristic
  player, and its gift policy;
* :mod:`~pastiche_core.ai.heuristics`: the publishing prospects of a hand
  (:class:`Outlook`) and their :class:`Weights`;
* :mod:`~pastiche_core.ai.observation`: what a bot sees, from a
  :class:`~pastiche_core.view.PlayerView` alone (:func:`position_of`);
* :mod:`~pastiche_core.ai.registry`: the bots by name (:data:`BOTS`,
  :func:`make_bot`);
* :mod:`~pastiche_core.ai.match`: one game between named bots from a seed
  (:func:`play_match`).

``import pastiche_core`` does not load this package.

>>> from pastiche_core.ai import play_match
>>> play_match(5, ["greedy", "random", "random", "random"]).replay().is_over
True
"""

from __future__ import annotations

from .greedy import DEFAULT_PUBLISH_OPTIONS, GreedyBot, GreedyGiftPolicy
from .heuristics import Outlook, Weights, counts_of, horizon_of
from .match import match_result, play_match
from .observation import RANK_COPIES, position_of, unseen_ranks
from .registry import BOT_OPTIONS, BOTS, MAX_BUDGET_MS, BotFactory, check_bot_names, make_bot

__all__ = [
    "BOTS",
    "BOT_OPTIONS",
    "DEFAULT_PUBLISH_OPTIONS",
    "MAX_BUDGET_MS",
    "RANK_COPIES",
    "BotFactory",
    "GreedyBot",
    "GreedyGiftPolicy",
    "Outlook",
    "Weights",
    "check_bot_names",
    "counts_of",
    "horizon_of",
    "make_bot",
    "match_result",
    "play_match",
    "position_of",
    "unseen_ranks",
]
