"""Bots that play Pastiche, matches between them and tournaments (the ``pastiche_core.ai`` face).

* :mod:`~pastiche_core.ai.greedy`: :class:`GreedyBot`, a one-move-ahead heuristic
  player, and its gift policy;
* :mod:`~pastiche_core.ai.heuristics`: the publishing prospects of a hand
  (:class:`Outlook`) and their :class:`Weights`;
* :mod:`~pastiche_core.ai.observation`: what a bot sees, from a
  :class:`~pastiche_core.view.PlayerView` alone (:func:`position_of`);
* :mod:`~pastiche_core.ai.registry`: the bots by name (:data:`BOTS`,
  :func:`make_bot`);
* :mod:`~pastiche_core.ai.match`: one game between named bots from a seed
  (:func:`play_match`);
* :mod:`~pastiche_core.ai.tournament` and :mod:`~pastiche_core.ai.runners`:
  many games, seats rotated, win rates with confidence intervals, run here,
  in a process pool or on Ray (:func:`run_tournament`).

``import pastiche_core`` does not load this package, and this package loads
Ray only when a tournament runs on it.

>>> from pastiche_core.ai import play_match, run_tournament
>>> play_match(5, ["greedy", "random", "random", "random"]).replay().is_over
True
>>> run_tournament(["random", "random", "random"], games=2, seed=2).standing("random").games
6
"""

from __future__ import annotations

from .greedy import DEFAULT_PUBLISH_OPTIONS, GreedyBot, GreedyGiftPolicy
from .heuristics import Outlook, Weights, counts_of, horizon_of
from .match import match_result, play_match
from .observation import RANK_COPIES, position_of, unseen_ranks
from .registry import BOT_OPTIONS, BOTS, MAX_BUDGET_MS, BotFactory, check_bot_names, make_bot
from .runners import (
    MAX_WORKERS,
    GameTask,
    default_workers,
    ray_available,
    run_in_pool,
    run_in_process,
    run_on_ray,
)
from .tournament import (
    BACKENDS,
    MAX_TOURNAMENT_GAMES,
    TOURNAMENT_FORMAT,
    TOURNAMENT_VERSION,
    BotStanding,
    TournamentResult,
    run_tournament,
    schedule,
    wilson_interval,
)

__all__ = [
    "BACKENDS",
    "BOTS",
    "BOT_OPTIONS",
    "DEFAULT_PUBLISH_OPTIONS",
    "MAX_BUDGET_MS",
    "MAX_TOURNAMENT_GAMES",
    "MAX_WORKERS",
    "RANK_COPIES",
    "TOURNAMENT_FORMAT",
    "TOURNAMENT_VERSION",
    "BotFactory",
    "BotStanding",
    "GameTask",
    "GreedyBot",
    "GreedyGiftPolicy",
    "Outlook",
    "TournamentResult",
    "Weights",
    "check_bot_names",
    "counts_of",
    "default_workers",
    "horizon_of",
    "make_bot",
    "match_result",
    "play_match",
    "position_of",
    "ray_available",
    "run_in_pool",
    "run_in_process",
    "run_on_ray",
    "run_tournament",
    "schedule",
    "unseen_ranks",
    "wilson_interval",
]
