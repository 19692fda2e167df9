"""Playing and advising: bots, hints, matches and tournaments (the ``pastiche_core.ai`` face).

* :func:`analyse` answers "what should I do now, and why?" for a player's view
  (R16): the candidate moves ranked with win chances, margins and
  explanations (the ``pastiche-hint`` document);
* :class:`SearchBot` plays the move the search ranks first
  (:mod:`~pastiche_core.ai.search`); :func:`determinize` deals the hidden
  cards consistently with a view (:mod:`~pastiche_core.ai.determinize`);
  :class:`PlayoutPolicy` and :class:`PolicyBot` are the fast heuristic player
  of its playouts (:mod:`~pastiche_core.ai.playout`);
* :class:`GreedyBot`, a one-move-ahead heuristic player, and its gift policy
  (:mod:`~pastiche_core.ai.greedy`); the publishing prospects of a hand
  (:class:`Outlook`) and their :class:`Weights`
  (:mod:`~pastiche_core.ai.heuristics`); what a bot sees from a
  :class:`~pastiche_core.engine.view.PlayerView` alone
  (:mod:`~pastiche_core.ai.visible`);
* :func:`review`: where each seat lost a game, decision by decision, from
  its own views (the ``pastiche-review`` document, :mod:`~pastiche_core.ai.review`);
* the bots by name (:data:`BOTS`, :func:`make_bot`,
  :mod:`~pastiche_core.ai.roster`); one game between named bots from a seed
  (:func:`play_match`, :mod:`~pastiche_core.ai.match`); many games, seats
  rotated, win rates with confidence intervals, run here, in a process pool
  or on Ray (:func:`run_tournament`, :mod:`~pastiche_core.ai.tournament` and
  :mod:`~pastiche_core.ai.runners`).

``import pastiche_core`` does not load this package, and this package loads
Ray only when a tournament runs on it.

>>> from pastiche_core import Game
>>> from pastiche_core.ai import analyse, play_match, run_tournament
>>> analyse(Game(players=3, seed=7).view(2), simulations=8).best
Move.parse('keep ...')
>>> play_match(5, ["greedy", "random", "random", "random"]).replay().is_over
True
>>> run_tournament(["random", "random", "random"], games=2, seed=2).standing("random").games
6
"""

from __future__ import annotations

from .analyse import (
    HINT_FORMAT,
    HINT_VERSION,
    Analysis,
    RankedMove,
    analyse,
    explain,
    load_view,
)
from .determinize import Knowledge, determinize
from .greedy import DEFAULT_PUBLISH_OPTIONS, GreedyBot, GreedyGiftPolicy
from .heuristics import Outlook, Weights, counts_of, horizon_of
from .match import match_result, play_match
from .playout import PlayoutPolicy, PolicyBot, PolicyWeights, evaluate
from .review import (
    REVIEW_FORMAT,
    REVIEW_THRESHOLDS,
    REVIEW_VERSION,
    GameReview,
    ReviewedDecision,
    SeatSummary,
    review,
    review_game,
)
from .roster import BOT_OPTIONS, BOTS, BotFactory, check_bot_names, make_bot
from .runners import (
    MAX_WORKERS,
    GameTask,
    default_workers,
    ray_available,
    run_in_pool,
    run_in_process,
    run_on_ray,
)
from .search import (
    DEFAULT_BUDGET_MS,
    MAX_BUDGET_MS,
    MAX_SIMULATIONS,
    SIMULATIONS_PER_MS,
    SearchBot,
    SearchResult,
    candidate_moves,
    search,
    simulations_for,
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
from .visible import RANK_COPIES, position_of, unseen_ranks

__all__ = [
    "BACKENDS",
    "BOTS",
    "BOT_OPTIONS",
    "DEFAULT_BUDGET_MS",
    "DEFAULT_PUBLISH_OPTIONS",
    "HINT_FORMAT",
    "HINT_VERSION",
    "MAX_BUDGET_MS",
    "MAX_SIMULATIONS",
    "MAX_TOURNAMENT_GAMES",
    "MAX_WORKERS",
    "RANK_COPIES",
    "REVIEW_FORMAT",
    "REVIEW_THRESHOLDS",
    "REVIEW_VERSION",
    "SIMULATIONS_PER_MS",
    "TOURNAMENT_FORMAT",
    "TOURNAMENT_VERSION",
    "Analysis",
    "BotFactory",
    "BotStanding",
    "GameReview",
    "GameTask",
    "GreedyBot",
    "GreedyGiftPolicy",
    "Knowledge",
    "Outlook",
    "PlayoutPolicy",
    "PolicyBot",
    "PolicyWeights",
    "RankedMove",
    "ReviewedDecision",
    "SearchBot",
    "SearchResult",
    "SeatSummary",
    "TournamentResult",
    "Weights",
    "analyse",
    "candidate_moves",
    "check_bot_names",
    "counts_of",
    "default_workers",
    "determinize",
    "evaluate",
    "explain",
    "horizon_of",
    "load_view",
    "make_bot",
    "match_result",
    "play_match",
    "position_of",
    "ray_available",
    "review",
    "review_game",
    "run_in_pool",
    "run_in_process",
    "run_on_ray",
    "run_tournament",
    "schedule",
    "search",
    "simulations_for",
    "unseen_ranks",
    "wilson_interval",
]
