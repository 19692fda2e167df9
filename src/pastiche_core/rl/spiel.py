"""Pastiche as an OpenSpiel game, ``python_pastiche``, with explicit chance nodes.

:func:`register` (run when :mod:`pastiche_core.openspiel` is imported) makes
``pyspiel.load_game("python_pastiche(players=4)")`` work; the ``catalogue``
parameter names a shipped catalogue or a TOML file
(``python_pastiche(players=3,catalogue=default)``). House rules (R10, R12) are
parameters too: ``end_threshold``, ``keep_size`` and ``deal_sizes`` (the seats'
deals as one string, ``"4 4 4"``), each left at ``0`` or ``""`` for the
catalogue's ``[rules]`` table, else the rulebook's
(``python_pastiche(players=3,end_threshold=10)``); the deal's chance nodes and
the setup keeps follow them.

* **Sequential, imperfect information, zero-sum**, terminal rewards as in
  :func:`~pastiche_core.rl.aec.winner_returns`.
* **Actions** are the atomic actions of
  :class:`~pastiche_core.rl.encoding.ActionSpace`: a decision may take several
  actions of the same player in a row.
* **Chance is explicit.** The deal is one chance node per card dealt (the
  outcome is the card, ``0`` to ``48``, uniform over the cards not dealt yet),
  seat by seat (R10). The deck is then an unordered set of unseen cards: each
  card drawn by Write ① is a chance node, uniform over the deck's cards, or
  over the discard pile's when the deck is empty — which is the reshuffle of
  R11, mid-draw if need be. Dealing card by card and drawing uniformly from
  what is left give exactly the distribution of a shuffled deck, and the game
  tree then shows every random event where it happens. The game's own
  generator (R14) is never used.
* **Observations** are :class:`~pastiche_core.rl.observation.ObservationEncoder`
  tensors and texts of the view (:mod:`.spiel_infostate` adds perfect recall).
* :meth:`PasticheState.resample_from_infostate` deals anew, at random, the
  cards the player has never seen (R16: other hands, the deck, other players'
  face-down discards and drawn cards), so OpenSpiel's ISMCTS bot can search.
  Every card the player has seen stays where it is — a card taken face up
  from the discard pile stays in the taker's hand — and the history is
  renamed with the cards (:meth:`~pastiche_core.engine.game.Game.renamed`), so the
  sampled state is a whole game the player cannot tell from this one. (A seen
  card that a later hidden move may have moved — a gift between two other
  players, a draw after the pile was reshuffled into the deck — also stays:
  there the sample knows a little more than the player.)
* :data:`GAME_TYPE` ``max_game_length`` is a true bound (see :func:`max_game_length`).

>>> import pyspiel
>>> from pastiche_core.rl.spiel import register
>>> register()
>>> game = pyspiel.load_game("python_pastiche(players=3)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 49)
>>> for card in (0, 1, 2, 10, 11, 12, 20, 21, 22, 23):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(2, ['discard SCI9', 'discard HOR4', 'discard HOR5', 'discard HOR6'])
"""

from __future__ import annotations

from .spiel_env import PasticheEnvironment
from .spiel_eval import HeuristicEvaluator, ScoreEvaluator
from .spiel_game import GAME_TYPE, PasticheGame, max_game_length, register
from .spiel_state import PasticheObserver, PasticheState

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
