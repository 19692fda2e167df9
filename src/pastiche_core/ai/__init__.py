"""Playing and advising: search over what a player knows (R16), hints, and bots.

* :func:`analyse` answers "what should I do now, and why?" for a player's
  view: the candidate moves ranked with win chances, margins and
  explanations (the ``pastiche-hint`` document);
* :class:`SearchBot` plays the move the search ranks first;
* :func:`determinize` deals the hidden cards consistently with a view;
* :class:`PlayoutPolicy` and :class:`PolicyBot` are the fast heuristic player
  of the search's playouts.

>>> from pastiche_core import Game
>>> from pastiche_core.ai import analyse
>>> analyse(Game(players=3, seed=7).view(2), simulations=8).best
Move.parse('keep ...')
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
from .playout import PlayoutPolicy, PolicyBot, Weights, evaluate
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

__all__ = [
    "DEFAULT_BUDGET_MS",
    "HINT_FORMAT",
    "HINT_VERSION",
    "MAX_BUDGET_MS",
    "MAX_SIMULATIONS",
    "SIMULATIONS_PER_MS",
    "Analysis",
    "Knowledge",
    "PlayoutPolicy",
    "PolicyBot",
    "RankedMove",
    "SearchBot",
    "SearchResult",
    "Weights",
    "analyse",
    "candidate_moves",
    "determinize",
    "evaluate",
    "explain",
    "load_view",
    "search",
    "simulations_for",
]
