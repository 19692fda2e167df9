"""The OpenSpiel game: OpenSpiel's own checks, explicit chance, resampling and ISMCTS games."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from pastiche_core import DECK, Card, Draw, RandomBot
from pastiche_core.engine.game_internals import history_seats, insides
from pastiche_core.openspiel import PasticheState, ScoreEvaluator, max_game_length
from pastiche_core.rl import ActionSpace, ObservationEncoder, Stage


def load(players: int = 4) -> pyspiel.Game:
    return pyspiel.load_game(f"python_pastiche(players={players})")


def random_action(state: PasticheState, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, weights)[0])
    return int(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_sim_test(players: int) -> None:
    pyspiel.random_sim_test(load(players), num_sims=2, serialize=False, verbose=False)


def test_game_parameters_and_sizes() -> None:
    game = load(4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 357
    assert game.max_chance_outcomes() == 49
    assert game.max_game_length() == max_game_length(4, game.catalogue)
    assert game.observation_tensor_shape() == [ObservationEncoder(4).size]
    assert game.min_utility() == pytest.approx(-1 / 3)
    assert game.max_utility() == 1
    mini = pyspiel.load_game("python_pastiche(players=3,catalogue=default)")
    assert mini.num_players() == 3
    with pytest.raises(Exception, match="players must be from 3 to 5"):
        pyspiel.load_game("python_pastiche(players=6)")


def test_the_deal_is_one_chance_node_per_card() -> None:
    state = load(4).new_initial_state()
    dealt: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 49 - len(dealt)
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        dealt.append(outcomes[-1][0])
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, dealt[-1]).startswith("deal ")
        state.apply_action(dealt[-1])
    assert len(dealt) == 3 + 3 + 4 + 4
    game = state.game
    assert game is not None
    assert game.hand(0) == tuple(sorted(DECK[i] for i in dealt[:3]))
    assert state.current_player() == 2
    assert sorted(insides(game).deck) == sorted(c for c in DECK if c.index not in dealt)


def test_draws_are_chance_nodes_including_the_reshuffle() -> None:
    rng = random.Random(4)
    seen_plain = seen_reshuffle = 0
    for _ in range(6):
        state = load(3).new_initial_state()
        while not state.is_terminal():
            game = state.game
            if (
                game is not None
                and not state.is_chance_node()
                and state.builder().stage is Stage.START
                and ActionSpace.DRAW in state.legal_actions()
                and rng.random() < 0.5
            ):
                deck, pile = set(insides(game).deck), list(game.discard)
                state.apply_action(ActionSpace.DRAW)
                assert state.is_chance_node()
                drawn: list[Card] = []
                while state.is_chance_node():
                    outcomes = [DECK[a] for a, _ in state.chance_outcomes()]
                    source = deck - set(drawn)
                    assert set(outcomes) == (source if source else set(pile) - set(drawn))
                    drawn.append(rng.choice(outcomes))
                    state.apply_action(drawn[-1].index)
                after = state.game
                assert after is not None
                if after._pending is not None:
                    assert list(after._pending) == drawn
                if any(card not in deck for card in drawn):
                    seen_reshuffle += 1
                    # The game keeps its history and the seat of every move.
                    assert len(history_seats(after)) == len(after.history)
                    assert after.view(0).history[-1][1] in ("draw", "choose ?")
                else:
                    seen_plain += 1
                continue
            state.apply_action(random_action(state, rng))
    assert seen_plain > 10
    assert seen_reshuffle >= 1


def test_games_stay_within_the_declared_length() -> None:
    rng = random.Random(9)
    game = load(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
        assert len(state.history()) <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(0)
        assert max(state.returns()) > 0


def test_observations_are_the_encoder_of_the_view() -> None:
    rng = random.Random(5)
    game = load(4)
    encoder = ObservationEncoder(4)
    state = game.new_initial_state()
    assert state.observation_tensor(0) == [0.0] * encoder.size
    assert state.observation_string(1).startswith("player 1, dealing: hand")
    while state.game is None or state.game.turn < 12:
        state.apply_action(random_action(state, rng))
    view = state.game.view(2)
    knowledge = state.knowledge(2)
    assert knowledge is not None
    assert knowledge.moves == len(state.game.history)
    vector = encoder.encode(view, knowledge=knowledge)
    assert np.array_equal(np.array(state.observation_tensor(2), np.float32), vector)
    assert state.observation_string(2) == encoder.text(view, knowledge=knowledge)
    observer = game.make_py_observer()
    observer.set_from(state, 2)
    assert observer.dict["hand"].sum() == len(view.hand)
    with pytest.raises(Exception, match="one player's view only"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def test_clones_are_independent() -> None:
    rng = random.Random(6)
    state = load(3).new_initial_state()
    while state.game is None or state.game.turn < 5:
        state.apply_action(random_action(state, rng))
    twin = state.clone()
    before = str(state)
    while not twin.is_terminal():
        twin.apply_action(random_action(twin, rng))
    assert str(state) == before
    assert not state.is_terminal()


def test_resampling_keeps_what_the_player_sees() -> None:
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = held_known = 0
    for _ in range(3):
        state = load(4).new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and rng.random() < 0.2:
                player = state.current_player()
                other = state.resample_from_infostate(player, sampler)
                assert other.observation_string(player) == state.observation_string(player)
                assert other.legal_actions() == state.legal_actions()
                assert other.observation_tensor(player) == state.observation_tensor(player)
                mine = state.game.hand(player)
                assert other.game.hand(player) == mine
                # R16: the whole view is the same, public history included, and every
                # card the player has seen stays where it is.
                assert other.game.view(player) == state.game.view(player)
                assert history_seats(other.game) == history_seats(state.game)
                known = state.knowledge(player)
                assert known is not None
                for index, holder in known.holders.items():
                    assert DECK[index] in other.game.hand(holder)
                    held_known += 1
                for seat in range(4):
                    for index, holder in other.knowledge(seat).holders.items():
                        assert DECK[index] in other.game.hand(holder)
                changed += str(other) != str(state)
                probe = other.clone()
                for _ in range(30):
                    if probe.is_terminal():
                        break
                    probe.apply_action(random_action(probe, rng))
            state.apply_action(random_action(state, rng))
    assert changed > 10
    assert held_known


def test_bots_play_through_atomic_actions() -> None:
    game = load(3)
    state = game.new_initial_state()
    rng = random.Random(2)
    bot = RandomBot(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        pastiche = state.game
        assert pastiche is not None
        move = bot.choose(pastiche.view(pastiche.to_move), pastiche.legal_moves)
        actions = state.actions_for(move)
        for action in actions:
            state.apply_action(action)
        if move == Draw():
            assert state.is_chance_node()
        else:
            assert pastiche.history[-1] == move


@pytest.mark.parametrize("seed", [0, 1])
def test_ismcts_plays_whole_games_against_our_bots(seed: int) -> None:
    game = load(3)
    random_state = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(
        game=game,
        evaluator=ScoreEvaluator(),
        uct_c=2.0,
        max_simulations=8,
        random_state=random_state,
        use_observation_string=True,
    )
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 10)}
    state = game.new_initial_state()
    queue: list[int] = []
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(random_state.choice(outcomes, p=weights)))
        elif state.current_player() == 0:
            state.apply_action(int(searcher.step(state)))
            searched += 1
        else:
            if not queue:
                pastiche = state.game
                player = state.current_player()
                move = bots[player].choose(pastiche.view(player), pastiche.legal_moves)
                queue = state.actions_for(move)
            state.apply_action(queue.pop(0))
    assert searched > 20
    returns = state.returns()
    assert sum(returns) == pytest.approx(0)
    assert max(returns) > 0
    assert state.game is not None
    assert state.game.result is not None


def test_score_evaluator() -> None:
    with pytest.raises(ValueError, match="scale must be positive"):
        ScoreEvaluator(scale=0)
    state = load(3).new_initial_state()
    assert ScoreEvaluator().prior(state)[0][1] == pytest.approx(1 / 49)
