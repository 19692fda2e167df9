"""The OpenSpiel game beside the rest: the evaluator of a decision in progress, and the
action indexes shared with the gymnasium environment."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")

import numpy as np
import pyspiel

import pastiche_core.openspiel  # noqa: F401 - registers the game
from pastiche_core import Game
from pastiche_core.engine.rules import Rules
from pastiche_core.openspiel import HeuristicEvaluator, PasticheState
from pastiche_core.rl.encoding_space import Stage
from pastiche_core.rl.single import PasticheGymEnv

HOUSE = Rules(min_players=3, max_players=3, deal_sizes=(5, 5, 5))  # two discards each (R10)


def random_action(state: PasticheState, rng: random.Random) -> int:
    if state.is_chance_node():
        return int(rng.choice([action for action, _ in state.chance_outcomes()]))
    return int(rng.choice(state.legal_actions()))


def deal_like(game: Game, text: str) -> PasticheState:
    """An OpenSpiel state dealt the hands ``game`` began with (seat by seat, R10)."""
    state: PasticheState = pyspiel.load_game(text).new_initial_state()
    for seat in range(game.players):
        for card in game.hand(seat):
            state.apply_action(card.index)
    return state


def in_a_publish(seed: int) -> PasticheState | None:
    """A random 3-player game's first state with a publish's cards being chosen."""
    rng = random.Random(seed)
    state: PasticheState = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    while not state.is_terminal():
        if state.current_player() >= 0 and state.builder().stage is Stage.CARDS:
            return state
        state.apply_action(random_action(state, rng))
    return None


def test_the_openspiel_actions_are_the_gymnasium_mask_at_the_same_state() -> None:
    # A seed whose game starts with seat 0, as the OpenSpiel deal's does.
    seed = next(s for s in range(50) if Game(players=3, seed=s, rules=HOUSE).to_move == 0)
    env = PasticheGymEnv(players=3, opponents="random", seat=0, rules=HOUSE)
    _, info = env.reset(seed=seed)
    state = deal_like(
        Game(players=3, seed=seed, rules=HOUSE), "python_pastiche(players=3,deal_sizes=5 5 5)"
    )
    assert state.current_player() == env.seat == env.game.to_move
    for _ in range(2):  # the two discards of one setup keep: one decision, two actions
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        action = state.legal_actions()[-1]
        state.apply_action(action)
        _, _, _, _, info = env.step(action)
    assert state.game is not None
    assert state.game.hand(env.seat) == env.game.hand(env.seat)


def test_a_publish_in_progress_is_valued_by_its_best_completion() -> None:
    evaluator = HeuristicEvaluator()
    state = next(s for s in map(in_a_publish, range(40)) if s is not None)
    game = state.game
    assert game is not None
    mover = game.to_move
    moves = len(game.history)
    # The game has not changed yet, the evaluation has: the publish counts.
    before = evaluator.values(game)
    during = evaluator.evaluate(state)
    assert not np.allclose(before, during)
    # Follow the actions of the completion the evaluator chose: once the publish is
    # applied, the plain value of the game is the value it gave the publish in progress.
    for _ in range(60):
        if state.is_chance_node() or state.game is None or state.game.to_move != mover:
            break
        if state.builder().stage is Stage.START:
            break
        options = []
        for action in state.legal_actions():
            child = state.child(action)
            options.append((evaluator.evaluate(child)[mover], action))
        value, action = max(options)
        assert value == pytest.approx(evaluator.evaluate(state)[mover])
        state.apply_action(action)
    assert state.game is not None
    assert len(state.game.history) == moves + 1


def test_the_completions_bound_is_checked() -> None:
    with pytest.raises(ValueError, match="completions"):
        HeuristicEvaluator(completions=0)
