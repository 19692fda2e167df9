"""OpenSpiel: importing this module registers the game ``python_pastiche`` (the ``rl`` extra).

See :mod:`pastiche_core.rl.spiel` for the game: explicit chance nodes for the
deal and the draws, the atomic actions of
:class:`~pastiche_core.rl.encoding.ActionSpace`, observation tensors and strings
of a player's view, and a resampler for OpenSpiel's ISMCTS bot.

>>> import pyspiel
>>> import pastiche_core.openspiel
>>> game = pyspiel.load_game("python_pastiche(players=4)")
>>> game.num_players(), game.get_type().short_name
(4, 'python_pastiche')
"""

from __future__ import annotations

from .data.errors import missing_extra

try:
    import pyspiel  # noqa: F401 - fail early, with the extra named
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise missing_extra("pastiche_core.openspiel", error) from error

from .rl.spiel import (
    GAME_TYPE,
    HeuristicEvaluator,
    PasticheEnvironment,
    PasticheGame,
    PasticheObserver,
    PasticheState,
    ScoreEvaluator,
    max_game_length,
    register,
)

__all__ = [
    "GAME_TYPE",
    "HeuristicEvaluator",
    "PasticheEnvironment",
    "PasticheGame",
    "PasticheObserver",
    "PasticheState",
    "ScoreEvaluator",
    "max_game_length",
    "register",
]

register()
