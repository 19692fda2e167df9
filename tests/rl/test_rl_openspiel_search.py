"""OpenSpiel on equal terms: the heuristic evaluator, observations made once, the light
rl_environment (PasticheEnvironment) against OpenSpiel's own."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts

from pastiche_core import Game, InvalidArgumentError, state_from_dict, state_to_dict
from pastiche_core.openspiel import (
    HeuristicEvaluator,
    PasticheEnvironment,
    PasticheState,
    ScoreEvaluator,
)
from pastiche_core.pettingzoo import winner_returns
from pastiche_core.rl import ObservationEncoder


def load(players: int = 4) -> pyspiel.Game:
    return pyspiel.load_game(f"python_pastiche(players={players})")


def random_action(state: PasticheState, rng: random.Random) -> int:
    if state.is_chance_node():
        return int(rng.choice([card for card, _ in state.chance_outcomes()]))
    return int(rng.choice(state.legal_actions()))


def played(players: int, actions: int, seed: int) -> PasticheState:
    """A state after ``actions`` random actions (chance included) from a new game."""
    rng = random.Random(seed)
    state: PasticheState = load(players).new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    return state


# ----------------------------------------------------------------------
# The heuristic evaluator
# ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_values_are_zero_sum_returns_in_range(players: int) -> None:
    rng = random.Random(players)
    evaluator = HeuristicEvaluator()
    state = load(players).new_initial_state()
    low = -1 / (players - 1)
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.3:
            values = evaluator.evaluate(state)
            assert values.shape == (players,)
            assert values.sum() == pytest.approx(0, abs=1e-9)
            assert (values >= low - 1e-12).all()
            assert (values <= 1 + 1e-12).all()
            checked += 1
        state.apply_action(random_action(state, rng))
    assert checked > 20
    game = state.game
    assert game is not None
    assert evaluator.evaluate(state).tolist() == winner_returns(players, game.winners())


def with_masterpieces(owner: int) -> Game:
    """After setup, ``owner`` holds two Masterpieces (kind-3 and total-5) taken from the deck."""
    game = Game(players=4, seed=3)
    while game.phase.value == "keep":
        game.apply(game.legal_moves[0])
    data = state_to_dict(game)
    data["history"] = []
    data["turn"] = 4  # the two cards written and published, one turn each (R11)
    first, second = data["deck"][:2]
    data["deck"] = data["deck"][2:]
    data["tables"][owner] = [
        {"novel": "kind-3", "status": "masterpiece", "cards": [first]},
        {"novel": "total-5", "status": "masterpiece", "cards": [second]},
    ]
    data["supply"]["kind-3"] -= 1
    data["supply"]["total-5"] -= 1
    return state_from_dict(data)


def test_heuristic_evaluator_prefers_a_clearly_better_state() -> None:
    evaluator = HeuristicEvaluator()
    ahead, behind = with_masterpieces(0), with_masterpieces(1)
    assert ahead.scores()[0] == behind.scores()[1] > 0
    mine, theirs = evaluator.values(ahead), evaluator.values(behind)
    assert mine[0] > theirs[0]
    assert mine[0] == max(mine) > 0
    assert theirs[1] == max(theirs)
    # A colder softmax trusts the same lead more.
    assert HeuristicEvaluator(temperature=0.5).values(ahead)[0] > mine[0]


def test_heuristic_evaluator_arguments() -> None:
    for bad in (0, -1.0, "1", True):
        with pytest.raises(InvalidArgumentError, match="temperature must be a positive number"):
            HeuristicEvaluator(temperature=bad)  # type: ignore[arg-type]
    state = played(3, 10, seed=1)
    prior = HeuristicEvaluator().prior(state)
    assert [action for action, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1)
    assert HeuristicEvaluator().evaluate(load(3).new_initial_state()).tolist() == [0.0] * 3


def test_ismcts_with_the_heuristic_evaluator_reads_sampled_states() -> None:
    """ISMCTS evaluates only states resampled from the searching player's information."""
    state = played(4, 60, seed=3)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(random_action(state, random.Random(0)))
    game = state.game
    assert game is not None
    player = state.current_player()
    hidden = [game.hand(seat) for seat in range(4) if seat != player]
    seen: list[bool] = []

    class Recording(HeuristicEvaluator):
        def evaluate(self, evaluated: PasticheState) -> Any:
            sample = evaluated.game
            assert sample is not None
            seen.append([sample.hand(s) for s in range(4) if s != player] == hidden)
            return super().evaluate(evaluated)

    bot = ismcts.ISMCTSBot(
        game=load(4),
        evaluator=Recording(),
        uct_c=2.0,
        max_simulations=12,
        random_state=np.random.RandomState(2),
        use_observation_string=True,
    )
    assert bot.step(state) in state.legal_actions()
    assert len(seen) == 12
    assert not all(seen)  # the other hands were dealt anew


# ----------------------------------------------------------------------
# Observations made once per state and player
# ----------------------------------------------------------------------
def test_observation_strings_are_made_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(4)
    calls: list[int] = []
    text = ObservationEncoder.text

    def counted(self: ObservationEncoder, *args: Any, **kwargs: Any) -> str:
        calls.append(1)
        return text(self, *args, **kwargs)

    monkeypatch.setattr(ObservationEncoder, "text", counted)
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.game is None or state.game.turn < 6 or state.is_chance_node():
        state.apply_action(random_action(state, rng))
    player = state.current_player()
    first = state.observation_string(player)
    assert state.observation_string() == state.observation_string(player) == first
    assert len(calls) == 1
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.observation_string(player) == first
    assert len(calls) == 1  # the sample keeps the player's observation: it is the same
    other = (player + 1) % 4
    sample.observation_string(other)
    assert len(calls) == 2  # not another player's: their cards may have been renamed
    twin = state.clone()
    twin.apply_action(random_action(twin, rng))
    assert state.observation_string(player) == first
    assert len(calls) == 2


def test_cached_observations_follow_every_action() -> None:
    """Observations asked at every step, for every player, are those of the step."""
    game = load(3)
    encoder = ObservationEncoder(3)
    rng = random.Random(6)
    state = game.new_initial_state()
    compared = 0
    while not state.is_terminal():
        for seat in range(3):
            tensor = state.observation_tensor(seat)
            state.observation_string(seat)
            pastiche = state.game
            if pastiche is not None and rng.random() < 0.1:
                view, builder = state.view_builder(seat)
                expected = encoder.encode(view, builder, knowledge=state.knowledge(seat))
                assert np.array_equal(np.asarray(tensor, np.float32), expected)
                assert state.observation_string(seat) == encoder.text(
                    view, builder, knowledge=state.knowledge(seat)
                )
                assert state.observation_array(seat).tolist() == tensor
                compared += 1
        state.apply_action(random_action(state, rng))
    assert compared > 30
    with pytest.raises(InvalidArgumentError, match="player must be a seat from 0 to 2"):
        state.observation_array(3)
    array = state.observation_array(0)
    with pytest.raises(ValueError, match="read-only"):
        array[0] = 1.0


# ----------------------------------------------------------------------
# PasticheEnvironment against OpenSpiel's rl_environment
# ----------------------------------------------------------------------
def test_the_light_environment_gives_the_base_class_time_steps() -> None:
    base = rl_environment.Environment(
        "python_pastiche(players=3)", observation_type=rl_environment.ObservationType.OBSERVATION
    )
    light = PasticheEnvironment("python_pastiche(players=3)")
    base.seed(8)
    light.seed(8)
    rng = random.Random(8)
    for _ in range(2):
        expected, got = base.reset(), light.reset()
        steps = 0
        while True:
            assert got.step_type == expected.step_type
            assert got.rewards == expected.rewards
            assert got.discounts == expected.discounts
            assert got.current_player() == expected.current_player()
            assert len(got.observations["info_state"]) == 3
            for seat in range(3):
                assert (
                    got.observations["info_state"][seat].tolist()
                    == (expected.observations["info_state"][seat])
                )
                assert (
                    got.observations["legal_actions"][seat]
                    == (expected.observations["legal_actions"][seat])
                )
            if got.last():
                break
            legal = got.observations["legal_actions"][got.current_player()]
            action = rng.choice(legal)
            expected, got = base.step([action]), light.step([action])
            steps += 1
        assert steps > 100
        assert sum(got.rewards) == pytest.approx(0)


def test_a_time_step_keeps_its_observations_after_the_environment_moves_on() -> None:
    env = PasticheEnvironment("python_pastiche(players=4)")
    env.seed(3)
    step = env.reset()
    rng = random.Random(3)
    kept: list[tuple[Any, list[list[float]]]] = []
    for _ in range(40):
        state = env.get_state
        kept.append(
            (step.observations["info_state"], [state.observation_tensor(s) for s in range(4)])
        )
        legal = step.observations["legal_actions"][step.current_player()]
        step = env.step([rng.choice(legal)])
    for lazy, tensors in kept:  # read only now, many steps later
        assert [lazy[seat].tolist() for seat in range(4)] == tensors
        assert [array.tolist() for array in lazy] == tensors
        assert [array.tolist() for array in lazy[1:3]] == tensors[1:3]
        assert lazy[-1].tolist() == tensors[3]
        with pytest.raises(IndexError):
            lazy[4]


def test_the_light_environment_refuses_other_games_and_information_states() -> None:
    with pytest.raises(InvalidArgumentError, match="plays python_pastiche, got 'kuhn_poker'"):
        PasticheEnvironment("kuhn_poker")
    with pytest.raises(InvalidArgumentError, match="gives observations only"):
        PasticheEnvironment(
            "python_pastiche(players=3)",
            observation_type=rl_environment.ObservationType.INFORMATION_STATE,
        )
    env = PasticheEnvironment(load(3), include_full_state=True)
    step = env.reset()
    assert step.observations["serialized_state"]
    assert ScoreEvaluator().evaluate(env.get_state).shape == (3,)
