"""Evaluators of ``python_pastiche`` states for OpenSpiel's MCTS and ISMCTS bots."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..ai.playout import WIN_TEMPERATURE, expected_scores
from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..engine.moves import Move
from .aec import winner_returns
from .encoding_space import Stage
from .spiel_state import PasticheState

__all__ = ["HeuristicEvaluator", "ScoreEvaluator"]


class ScoreEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots: the current scores, no rollout.

    :meth:`evaluate` gives each player ``(score - mean) / scale`` clipped to
    [-1, 1] (the final returns at the end); :meth:`prior` is uniform. Cheap, so
    a search of a few dozen simulations per decision plays a game in seconds.

    >>> import pyspiel
    >>> import pastiche_core.openspiel
    >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    >>> ScoreEvaluator().evaluate(state).tolist()
    [0.0, 0.0, 0.0]
    """

    def __init__(self, scale: float = 10.0) -> None:
        if not scale > 0:
            raise InvalidArgumentError(f"scale must be positive, got {scale!r}")
        self.scale = scale
        """The score margin over the mean that counts as 1 (positive); larger margins are
        clipped."""

    def evaluate(self, state: PasticheState) -> npt.NDArray[np.float64]:
        """Per player, the score margin over the mean, scaled into [-1, 1]."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=np.float64)
        game = state.game
        if game is None:
            return np.zeros(state.num_players(), dtype=np.float64)
        scores = np.array(game.scores(), dtype=np.float64)
        margins: npt.NDArray[np.float64] = np.clip((scores - scores.mean()) / self.scale, -1, 1)
        return margins

    def prior(self, state: PasticheState) -> Sequence[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node)."""
        return _uniform_prior(state)


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots: each player's chances, by our heuristics.

    :meth:`evaluate` values a state the way the library's own search values the
    end of a playout (:func:`~pastiche_core.ai.playout.evaluate`): each
    player's expected final score
    (:func:`~pastiche_core.ai.playout.expected_scores`: the score, each
    Published novel by how near it is to a Masterpiece, the hand's cards and
    its publishing prospects by the greedy bot's
    :class:`~pastiche_core.ai.heuristics.Outlook`) goes through a softmax of
    temperature ``temperature`` to give win chances ``p``, and each chance
    becomes the return :func:`~pastiche_core.rl.aec.winner_returns` would give
    on average, ``(n·p - 1)/(n - 1)``: from ``-1/(n - 1)`` to 1, summing to 0,
    on the scale of the terminal returns (which a finished game gives).
    :meth:`prior` is uniform.

    **A decision in progress** (a publish whose Novel or cards are chosen, a
    setup discard of several cards) is valued as its best completion for the
    player to move: up to ``completions`` finished moves that extend the
    actions chosen so far are applied to copies of the game and the best for
    the mover gives the values (:meth:`completed`). The game itself changes
    only once the move is finished, so without this every atomic step of a
    publish would look the same as before it began.

    **What it reads.** It evaluates the state it is given, every hand included.
    OpenSpiel's ISMCTS calls it only on sampled states: each simulation starts
    from :meth:`PasticheState.resample_from_infostate`, which deals anew every
    card the player to move has never seen, so the hands it reads are a sample
    consistent with that player's information state, never the true hidden
    ones (as the library's search evaluates its determinizations). Called on a
    true state, it reads the true hands.

    >>> import pyspiel
    >>> import pastiche_core.openspiel
    >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    >>> HeuristicEvaluator().evaluate(state).tolist()  # dealing: nothing to tell apart
    [0.0, 0.0, 0.0]
    >>> for card in range(10):
    ...     state.apply_action(card)
    >>> values = HeuristicEvaluator().evaluate(state)
    >>> bool(abs(values.sum()) < 1e-9 and (values >= -0.5).all() and (values <= 1).all())
    True
    """

    def __init__(self, temperature: float = WIN_TEMPERATURE, completions: int = 8) -> None:
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, int | float)
            or not temperature > 0
        ):
            raise InvalidArgumentError(
                f"temperature must be a positive number, got {temperature!r}"
            )
        if isinstance(completions, bool) or not isinstance(completions, int) or completions < 1:
            raise InvalidArgumentError(
                f"completions must be an integer of at least 1, got {completions!r}"
            )
        self.completions = completions
        """How many finished moves :meth:`completed` values at most (the first found)."""
        self.temperature = float(temperature)
        """The softmax temperature, in points of expected score: lower trusts small leads
        more (the search's playouts use :data:`~pastiche_core.ai.playout.WIN_TEMPERATURE`)."""

    def values(self, game: Game) -> npt.NDArray[np.float64]:
        """Per player, the expected return of ``game`` (its returns once it is over).

        >>> from pastiche_core import Game
        >>> values = HeuristicEvaluator().values(Game(players=4, seed=3))
        >>> values.shape, bool(abs(values.sum()) < 1e-9)
        ((4,), True)
        """
        players = game.players
        if game.is_over:
            return np.array(winner_returns(players, game.winners()), dtype=np.float64)
        expected = np.array(expected_scores(game), dtype=np.float64)
        weights = np.exp((expected - expected.max()) / self.temperature)
        chances = weights / weights.sum()
        values: npt.NDArray[np.float64] = (players * chances - 1.0) / (players - 1)
        return values

    def evaluate(self, state: PasticheState) -> npt.NDArray[np.float64]:
        """Per player, the expected return of ``state`` (zeros while dealing; see the class)."""
        game = state.game
        if game is None:
            return np.zeros(state.num_players(), dtype=np.float64)
        if state.current_player() >= 0 and state.builder().stage is not Stage.START:
            return self.completed(state)
        return self.values(game)

    def completed(self, state: PasticheState) -> npt.NDArray[np.float64]:
        """The values of the best completion, for the player to move, of their decision.

        Finished moves are found depth first from the decision in progress, at most
        :attr:`completions` of them and ``16 * completions`` atomic steps (the
        search is bounded); each is applied to a copy of the game and valued by
        :meth:`values`. With none found in the bound, the game as it is.

        >>> import pyspiel
        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3,deal_sizes=5 5 5)").new_initial_state()
        >>> for card in range(15):
        ...     state.apply_action(card)
        >>> state.apply_action(state.legal_actions()[0])  # the first of two discards
        >>> evaluator = HeuristicEvaluator()
        >>> bool((evaluator.completed(state) == evaluator.evaluate(state)).all())
        True
        >>> bool((evaluator.evaluate(state) != evaluator.values(state.game)).any())
        True
        """
        game = state.game
        assert game is not None
        mover = game.to_move
        moves: list[Move] = []
        stack = [state.builder().copy()]
        steps = 16 * self.completions
        while stack and len(moves) < self.completions and steps > 0:
            builder = stack.pop()
            for action in builder.legal_actions():
                child = builder.copy()
                move = child.push(action)
                steps -= 1
                if move is not None:
                    moves.append(move)
                else:
                    stack.append(child)
                if len(moves) >= self.completions or steps <= 0:
                    break
        best: npt.NDArray[np.float64] | None = None
        for move in moves:
            after = game.copy()
            after.apply(move)
            values = self.values(after)
            if best is None or values[mover] > best[mover]:
                best = values
        return self.values(game) if best is None else best

    def prior(self, state: PasticheState) -> Sequence[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node).

        >>> import pyspiel
        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> len(HeuristicEvaluator().prior(state))
        49
        """
        return _uniform_prior(state)


def _uniform_prior(state: PasticheState) -> Sequence[tuple[int, float]]:
    if state.is_chance_node():
        return state.chance_outcomes()
    legal = state.legal_actions(state.current_player())
    return [(action, 1.0 / len(legal)) for action in legal]
