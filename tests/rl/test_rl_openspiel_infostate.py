"""The OpenSpiel game's information states: perfect recall of the seat's own knowledge (R16)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import pastiche_core.openspiel  # noqa: F401 - registers the game
from pastiche_core.openspiel import PasticheState
from pastiche_core.rl import ActionSpace
from pastiche_core.rl.spiel_infostate import InfoStateObserver


def load(players: int = 3) -> pyspiel.Game:
    return pyspiel.load_game(f"python_pastiche(players={players})")


def random_action(state: PasticheState, rng: random.Random) -> int:
    if state.is_chance_node():
        return int(rng.choice([action for action, _ in state.chance_outcomes()]))
    return int(rng.choice(state.legal_actions()))


def dealt(cards: list[int], players: int = 3) -> PasticheState:
    state: PasticheState = load(players).new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


def test_the_game_type_provides_information_states() -> None:
    game = load(4)
    kind = game.get_type()
    assert kind.provides_information_state_string
    assert kind.provides_information_state_tensor
    assert game.information_state_tensor_shape() == [game.encoder.size + game.space.size]
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert isinstance(observer, InfoStateObserver)


@pytest.mark.parametrize("players", [3, 5])
def test_random_sim_test_with_information_states(players: int) -> None:
    # pyspiel's own check reads every player's information state string and tensor at each state.
    pyspiel.random_sim_test(load(players), num_sims=1, serialize=True, verbose=False)


def test_the_tensor_has_the_declared_shape_and_counts_own_actions() -> None:
    rng = random.Random(3)
    game = load(3)
    state = game.new_initial_state()
    size = game.information_state_tensor_shape()[0]
    for _ in range(80):
        state.apply_action(random_action(state, rng))
    for seat in range(3):
        tensor = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
        assert tensor.shape == (size,)
        assert tensor[: game.encoder.size].tolist() == state.observation_array(seat).tolist()
        own = [step.action for step in state.full_history() if step.player == seat]
        assert tensor[game.encoder.size :].sum() == len(own) > 0


def test_hidden_cards_do_not_change_another_seats_information_state() -> None:
    # Seat 0's third card is 2 in one deal and 40 in the other (undealt there): seats 1 and 2
    # never see it (R16), seat 0 does; then seat 2 keeps and seat 0 draws the same cards.
    first = dealt([0, 1, 2, 10, 11, 12, 20, 21, 22, 23])
    second = dealt([0, 1, 40, 10, 11, 12, 20, 21, 22, 23])
    for state in (first, second):
        assert state.current_player() == 2
        state.apply_action(state.legal_actions()[0])  # the same discard
        assert state.current_player() == 0
        state.apply_action(ActionSpace.DRAW)
        for card in (30, 31):
            assert state.is_chance_node()
            state.apply_action(card)
        assert state.current_player() == 0
    for seat in (1, 2):
        assert first.information_state_string(seat) == second.information_state_string(seat)
        assert first.information_state_tensor(seat) == second.information_state_tensor(seat)
    assert first.information_state_string(0) != second.information_state_string(0)


def test_different_own_actions_give_different_information_states() -> None:
    cards = [0, 1, 2, 10, 11, 12, 20, 21, 22, 23]
    first, second = dealt(cards), dealt(cards)
    legal = first.legal_actions()
    first.apply_action(legal[0])
    second.apply_action(legal[1])
    assert first.information_state_string(2) != second.information_state_string(2)
    assert first.information_state_string(2).splitlines()[1] == "own actions: discard SCI9"
    # Another seat cannot tell them apart: the discards are face down.
    assert first.information_state_string(0) == second.information_state_string(0)


def test_the_mover_never_meets_the_same_information_state_twice_in_a_game() -> None:
    # Perfect recall: every own action is remembered, so a seat's decisions along one
    # history all have different information states.
    rng = random.Random(11)
    state = load(3).new_initial_state()
    seen: set[str] = set()
    decisions = 0
    while not state.is_terminal() and decisions < 150:
        if not state.is_chance_node():
            key = state.information_state_string()
            assert key not in seen
            seen.add(key)
            decisions += 1
        state.apply_action(random_action(state, rng))
    assert decisions > 20


def test_clones_resamples_and_replays_keep_the_information_state() -> None:
    rng = random.Random(5)
    game = load(4)
    state = game.new_initial_state()
    for _ in range(120):
        state.apply_action(random_action(state, rng))
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    player = state.current_player()
    text = state.information_state_string(player)
    assert state.clone().information_state_string(player) == text
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert replayed.information_state_string(player) == text
    sample = state.resample_from_infostate(player, random.Random(2).random)
    assert sample.information_state_string(player) == text


@pytest.mark.slow
def test_outcome_sampling_mccfr_runs_on_the_smallest_game() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("python_pastiche(players=3,deal_sizes=4 4 4)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(1)
    for _ in range(200):
        solver.iteration()
    # The tables are keyed by information state strings (one per seat's decision visited).
    assert len(solver._infostates) > 200
    assert all(key.startswith("player ") for key in solver._infostates)
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1)
