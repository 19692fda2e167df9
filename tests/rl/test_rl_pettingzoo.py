"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, errors."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from builders import MINI
from pettingzoo import test as pettingzoo_test

from pastiche_core import Catalogue, IllegalMoveError, InvalidArgumentError, InvalidCatalogueError
from pastiche_core.pettingzoo import PasticheEnv, env, raw_env, winner_returns


def play_out(game_env: PasticheEnv, rng: random.Random) -> int:
    """Play random legal actions until every agent is done; the actions played."""
    steps = 0
    for agent in game_env.agent_iter():
        observation, _, terminated, truncated, _ = game_env.last()
        if terminated or truncated:
            game_env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal), f"{agent} has no legal action"
        game_env.step(int(rng.choice(legal)))
        steps += 1
    return steps


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(players=players), num_cycles=300)
    assert "Passed API test" in capsys.readouterr().out
    # api_test warns about dict observations (vector and mask) unless the environment
    # is one of PettingZoo's own card and board games, which use the same dicts.
    assert {str(w.message) for w in caught} <= {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
    }


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_pettingzoo_api_test_unwrapped(capsys: pytest.CaptureFixture[str]) -> None:
    pettingzoo_test.api_test(raw_env(players=4, render_mode="ansi"), num_cycles=200)
    assert "Passed API test" in capsys.readouterr().out


def test_pettingzoo_seed_test() -> None:
    pettingzoo_test.seed_test(lambda: env(players=4), num_cycles=300)
    pettingzoo_test.seed_test(lambda: env(players=3, catalogue=MINI), num_cycles=300)


def test_whole_games_end_with_zero_sum_rewards() -> None:
    rng = random.Random(1)
    game_env = PasticheEnv(players=4)
    for seed in range(3):
        game_env.reset(seed=seed)
        returns: dict[str, float] = {}
        for agent in game_env.agent_iter():
            observation, reward, terminated, truncated, info = game_env.last()
            if terminated or truncated:
                returns[agent] = reward
                assert info["winners"] == game_env.game.winners()
                game_env.step(None)
                continue
            assert reward == 0
            legal = np.flatnonzero(observation["action_mask"])
            game_env.step(int(rng.choice(legal)))
        assert game_env.agents == []
        assert game_env.game.is_over
        expected = winner_returns(4, game_env.game.winners())
        assert [returns[f"player_{seat}"] for seat in range(4)] == expected
        assert sum(returns.values()) == pytest.approx(0)


def test_winner_returns() -> None:
    assert winner_returns(3, (1,)) == [-0.5, 1.0, -0.5]
    assert winner_returns(4, (0, 1)) == [1 / 3, 1 / 3, -1 / 3, -1 / 3]
    assert winner_returns(5, (0, 1, 2, 3, 4)) == [0.0] * 5


def test_the_same_seed_plays_the_same_game() -> None:
    first, second = PasticheEnv(players=3), PasticheEnv(players=3)
    first.reset(seed=11)
    second.reset(seed=11)
    assert play_out(first, random.Random(2)) == play_out(second, random.Random(2))
    assert first.game.history == second.game.history
    first.reset()
    second.reset()
    assert first.game.seed == second.game.seed != 11


def test_only_the_agent_to_move_has_legal_actions() -> None:
    game_env = PasticheEnv(players=4)
    game_env.reset(seed=3)
    mover = game_env.agent_selection
    for agent in game_env.agents:
        mask = game_env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)
        assert mask.dtype == np.int8
    observation = game_env.observe(mover)
    assert game_env.observe(mover) is observation  # cached until the next step


def test_illegal_actions_and_bad_arguments() -> None:
    game_env = PasticheEnv(players=3)
    game_env.reset(seed=7)
    with pytest.raises(IllegalMoveError, match="not legal now"):
        game_env.step(game_env.space.DRAW)
    with pytest.raises(InvalidArgumentError, match="expected an action, got None"):
        game_env.step(None)
    with pytest.raises(InvalidArgumentError, match="render_mode must be None, 'ansi' or 'human'"):
        PasticheEnv(render_mode="rgb_array")
    with pytest.raises(InvalidCatalogueError):
        PasticheEnv(catalogue="no-such-catalogue.toml")
    with pytest.raises(InvalidArgumentError, match="catalogue must be"):
        PasticheEnv(catalogue=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="players must be from 3 to 5"):
        env(players=6)


def test_numpy_actions_are_accepted() -> None:
    game_env = PasticheEnv(players=3)
    game_env.reset(seed=7)
    action = np.flatnonzero(game_env.observe("player_2")["action_mask"])[0]
    game_env.step(np.int64(action))
    assert game_env.agent_selection == "player_0"


def test_catalogues_and_render() -> None:
    game_env = PasticheEnv(players=3, catalogue=MINI, render_mode="ansi")
    assert game_env.space.novels == ("pair", "run-3")
    game_env.reset(seed=2)
    text = game_env.render()
    assert text is not None
    assert text.startswith("<Game 3 players, seed 2")
    assert PasticheEnv(catalogue="default").catalogue is Catalogue.default()
    quiet = PasticheEnv(players=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert quiet.render() is None
    assert caught
    assert str(quiet) == "pastiche_v0"


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test: every mode of the metadata, "human" printing the table."""
    assert env(players=3).metadata["render_modes"] == ["ansi", "human"]
    pettingzoo_test.render_test(env)
    printed = capsys.readouterr().out
    # render_test renders five times in "human" mode: the table each time, every hand shown.
    assert printed.count("<Game 4 players") == 5
    assert all(f"P{seat} score" in printed for seat in range(4))


def test_human_render_prints_what_ansi_returns(capsys: pytest.CaptureFixture[str]) -> None:
    shown, printed = (
        PasticheEnv(players=3, render_mode="ansi"),
        PasticheEnv(players=3, render_mode="human"),
    )
    for game_env in (shown, printed):
        game_env.reset(seed=5)
        game_env.step(int(np.flatnonzero(game_env.observe("player_2")["action_mask"])[0]))
    text = shown.render()
    capsys.readouterr()
    assert printed.render() is None
    assert capsys.readouterr().out == f"{text}\n"


def test_render_shows_a_decision_in_progress() -> None:
    game_env = PasticheEnv(players=5, render_mode="ansi")
    game_env.reset(seed=4)
    for _ in range(2):  # seats 2 and 3 discard one card each
        game_env.step(
            int(np.flatnonzero(game_env.observe(game_env.agent_selection)["action_mask"])[0])
        )
    game_env.step(int(np.flatnonzero(game_env.observe("player_4")["action_mask"])[0]))
    assert game_env.agent_selection == "player_4"  # seat 4 discards a second card
    text = game_env.render()
    assert text is not None
    assert "building: <MoveBuilder player 4, discarding" in text


def test_the_wrapper_keeps_its_order_checks(caplog: pytest.LogCaptureFixture) -> None:
    """The direct agents, agent_selection and step refuse and warn as PettingZoo's do."""
    game_env = env(players=3)
    for name in ("agents", "agent_selection"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(game_env, name)
    with pytest.raises(AssertionError, match="reset"):
        game_env.step(0)
    with pytest.raises(AssertionError, match="reset"):
        game_env.agent_iter()
    game_env.reset(seed=4)
    agents = iter(game_env.agent_iter())
    assert next(agents) == game_env.agent_selection
    with pytest.raises(AssertionError, match="step"):
        next(agents)  # no step since the last agent
    game_env.reset(seed=4)
    assert game_env.agents == game_env.unwrapped.agents
    assert game_env.agent_selection == game_env.unwrapped.agent_selection
    rng = random.Random(4)
    for _agent in game_env.agent_iter():
        observation, _, terminated, truncated, _ = game_env.last()
        if terminated or truncated:
            game_env.step(None)
            continue
        assert observation is not None
        game_env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game_env.agents == []
    game_env.step(None)
    assert "after all agents are terminated" in caplog.text


def test_a_game_changed_behind_the_env_gets_its_moves_checked() -> None:
    """The env applies the moves it builds unchecked only while the game is where the
    decision began; changed behind its back, the move is checked like any other."""
    game_env = raw_env(players=3)
    game_env.reset(seed=7)
    seat = game_env.game.to_move
    hand = game_env.game.hand(seat)
    game_env.game.apply(game_env.game.legal_moves[0])  # the keep, played around the env
    with pytest.raises(IllegalMoveError):
        game_env.step(game_env.space.discard(hand[0]))


def test_an_unknown_agent_is_named_in_the_error() -> None:
    game_env = raw_env(players=3)
    game_env.reset(seed=1)
    for ask in (game_env.observe, game_env.knowledge):
        with pytest.raises(InvalidArgumentError, match="no agent 'player_3'"):
            ask("player_3")


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_normalized_observations_pass_api_test_within_zero_and_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pettingzoo_test.api_test(env(players=3, normalize=True), num_cycles=300)
    assert "Passed API test" in capsys.readouterr().out
    game_env = raw_env(players=4, normalize=True)
    space = game_env.observation_spaces["player_0"]["observation"]
    assert isinstance(space, gymnasium.spaces.Box)
    assert (float(space.low.min()), float(space.high.max())) == (0.0, 1.0)
    plain = raw_env(players=4)
    game_env.reset(seed=3)
    plain.reset(seed=3)
    peak = 0.0
    for _ in range(150):
        if not game_env.agents or game_env.game.is_over:
            break
        agent = game_env.agent_selection
        scaled, raw = game_env.observe(agent), plain.observe(agent)
        assert space.contains(scaled["observation"])
        # The same values over their bounds (ObservationEncoder.high), the same mask.
        expected = raw["observation"] / plain.encoder.high
        np.testing.assert_allclose(scaled["observation"], expected, rtol=1e-6)
        np.testing.assert_array_equal(scaled["action_mask"], raw["action_mask"])
        peak = max(peak, float(raw["observation"].max()))
        action = int(np.flatnonzero(raw["action_mask"])[0])
        game_env.step(action)
        plain.step(action)
    assert peak > 1.0  # unscaled values do leave [0, 1]


def test_normalize_must_be_a_bool() -> None:
    with pytest.raises(InvalidArgumentError, match="normalize must be True or False, got 1"):
        raw_env(players=3, normalize=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_aec_mask_is_gymnasiums_info_action_mask_at_the_same_game_and_seat(
    seed: int,
) -> None:
    """Both are int8, one per atomic action of the same ActionSpace: at the learner's every
    atomic step, PettingZoo's observation["action_mask"] equals gymnasium's info["action_mask"]
    (the other seats' moves replayed into the AEC game from the gymnasium game's history)."""
    from pastiche_core.engine._kernels import switched_off
    from pastiche_core.rl.single import PasticheGymEnv

    with switched_off("episodes"):  # the Python twin: its game keeps the history replayed here
        gym_env = PasticheGymEnv(players=3, opponents="random", seat=seed % 3)
    learner = gym_env
    _, info = gym_env.reset(seed=seed)
    aec = raw_env(players=3)
    aec.reset(seed=learner.game.seed)
    agent = f"player_{learner.seat}"
    rng = random.Random(seed)
    compared = 0
    for _ in range(400):
        for move in learner.game.history[len(aec.game.history) :]:
            for action in aec.builder.actions_for(move):
                aec.step(action)
        assert aec.agent_selection == agent
        mask = aec.observe(agent)["action_mask"]
        assert mask.dtype == info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(mask, info["action_mask"])
        compared += 1
        action = rng.choice(np.flatnonzero(mask).tolist())
        aec.step(action)
        _, _, terminated, _, info = gym_env.step(action)
        if terminated:
            break
    assert compared > 20
