"""The single-agent gymnasium environment: gymnasium's checker, seeds, rewards, masks, options."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
import numpy.typing as npt
from builders import MINI
from gymnasium.utils.env_checker import check_env

from pastiche_core import Game, IllegalMoveError, InvalidArgumentError, Move
from pastiche_core.bots.play import RandomBot
from pastiche_core.engine._kernels import switched_off
from pastiche_core.engine.game import LegalMoves
from pastiche_core.engine.knowledge import Knowledge
from pastiche_core.engine.view import PlayerView
from pastiche_core.gymnasium import PasticheGymEnv, env, winner_returns
from pastiche_core.rl import ObservationEncoder

# Greedy and search opponents here are chosen on purpose: their warning is not news.
pytestmark = pytest.mark.filterwarnings("ignore::pastiche_core.rl.episode.EnginePathWarning")

# check_env cannot find the alternative render modes of an environment made without
# gymnasium.make (it reads them from the registry's spec); the modes are tested below.
NO_SPEC = "Not able to test alternative render modes"


def random_action(game_env: PasticheGymEnv, rng: random.Random) -> int:
    legal = np.flatnonzero(game_env.action_masks())
    assert len(legal), "no legal action while the episode goes on"
    return int(rng.choice(legal))


def play_episode(
    game_env: PasticheGymEnv, seed: int, rng: random.Random
) -> tuple[list[float], dict[str, Any], list[npt.NDArray[np.float32]]]:
    """One episode of random legal actions: the rewards, the last info, the observations."""
    observation, info = game_env.reset(seed=seed)
    observations, rewards = [observation], []
    terminated = False
    while not terminated:
        assert np.array_equal(info["action_mask"], game_env.action_masks())
        observation, reward, terminated, truncated, info = game_env.step(
            random_action(game_env, rng)
        )
        assert not truncated
        observations.append(observation)
        rewards.append(reward)
    return rewards, info, observations


@pytest.mark.parametrize("normalize", [False, True])
def test_gymnasium_check_env_passes_in_penalty_mode(normalize: bool) -> None:
    """check_env steps random actions, most of them illegal: in penalty mode each ends its
    episode with reward -1, which the checker accepts."""
    game_env = env(players=4, opponents="random", illegal="penalty", normalize=normalize)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(game_env)
    assert all(NO_SPEC in str(warning.message) for warning in caught)


def test_gymnasium_check_env_in_raise_mode() -> None:
    """In raise mode the checker's random actions raise, as they must; with an action
    space that samples from the mask (as a masked policy acts), check_env passes."""
    with pytest.raises(IllegalMoveError, match="is not legal now"):
        check_env(env(players=3, opponents="random", illegal="raise"))
    game_env = env(players=3, opponents="random", illegal="raise")
    space = game_env.action_space
    assert isinstance(space, gymnasium.spaces.Discrete)

    def sample(mask: Any = None, probability: Any = None) -> np.int64:
        return gymnasium.spaces.Discrete.sample(space, mask=game_env.action_masks().astype(np.int8))

    space.sample = sample  # type: ignore[method-assign]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(game_env)
    assert all(NO_SPEC in str(warning.message) for warning in caught)


@pytest.mark.parametrize("normalize", [False, True])
def test_stable_baselines3_check_env_passes_without_a_warning(normalize: bool) -> None:
    """Stable-Baselines3's checker (installed with sb3-contrib, in no extra) steps random
    actions too, so it runs in penalty mode; it finds nothing to warn about either way."""
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    game_env = env(players=4, opponents="random", illegal="penalty", normalize=normalize)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(game_env, warn=True)
    assert [str(warning.message) for warning in caught] == []


def test_whole_episodes_reward_the_learner_at_the_end_only() -> None:
    rng = random.Random(3)
    game_env = env(players=4, opponents="random")
    for seed in range(3):
        rewards, info, observations = play_episode(game_env, seed, rng)
        game = game_env.game
        assert game.is_over
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == winner_returns(4, game.winners())[game_env.seat]
        assert info["winners"] == game.winners()
        assert info["scores"] == game.scores()
        assert not info["action_mask"].any()
        assert not game_env.action_masks().any()
        assert all(game_env.observation_space.contains(each) for each in observations)
        with pytest.raises(InvalidArgumentError, match="call reset"):
            game_env.step(0)


def test_the_observation_is_the_learners_with_their_knowledge() -> None:
    """Each observation is the encoder's, for the learner's view and decision in progress,
    with the knowledge replayed from the game's history (not the one the env follows)."""
    rng = random.Random(5)
    with switched_off("episodes"):  # the engine's game, with its history
        game_env = env(players=3, opponents="random", seat=1)
    encoder = ObservationEncoder(players=3)
    observation, _ = game_env.reset(seed=5)
    for _ in range(40):
        game = game_env.game
        builder = game_env.episode.builder
        assert game.to_move == 1
        expected = encoder.encode(game.view(1), builder, knowledge=Knowledge.of(game, 1))
        assert np.array_equal(observation, expected)
        observation, _, terminated, _, _ = game_env.step(random_action(game_env, rng))
        if terminated:
            break


def test_the_seat_is_drawn_from_the_reset_seed() -> None:
    first, second = env(players=4, opponents="random"), env(players=4, opponents="random")
    seats = set()
    for seed in range(12):
        one, _ = first.reset(seed=seed)
        two, _ = second.reset(seed=seed)
        assert first.seat == second.seat
        assert np.array_equal(one, two)
        assert first.game.seed == seed
        seats.add(first.seat)
    assert seats == {0, 1, 2, 3}
    first.reset(seed=1)
    second.reset(seed=1)
    first.reset()
    second.reset()  # the next deal comes from the seeded generator
    assert first.game.seed == second.game.seed != 1
    assert first.seat == second.seat


def test_a_fixed_seat_and_a_replayed_episode() -> None:
    game_env = env(players=3, opponents="greedy", seat=2)
    once = play_episode(game_env, 8, random.Random(1))
    history = game_env.game.history
    again = play_episode(game_env, 8, random.Random(1))
    assert game_env.seat == 2
    assert game_env.game.history == history
    assert once[0] == again[0]


def test_normalized_observations_stay_in_the_unit_box() -> None:
    raw_env = env(players=5, opponents="random", seat=0)
    scaled_env = env(players=5, opponents="random", seat=0, normalize=True)
    box = scaled_env.observation_space
    assert isinstance(box, gymnasium.spaces.Box)
    assert (box.low == 0).all()
    assert (box.high == 1).all()
    high = raw_env.encoder.high
    for seed in range(3):
        _, _, raw = play_episode(raw_env, seed, random.Random(seed))
        _, _, scaled = play_episode(scaled_env, seed, random.Random(seed))
        assert len(raw) == len(scaled)
        for plain, unit in zip(raw, scaled, strict=True):
            assert box.contains(unit), "a normalized observation left [0, 1]"
            assert np.allclose(unit * high, plain)


def test_an_illegal_action_raises_or_is_penalized() -> None:
    game_env = env(players=3, opponents="random", seat=2, illegal="raise")
    observation, _ = game_env.reset(seed=7)
    with pytest.raises(IllegalMoveError, match="'draw' is not legal now"):
        game_env.step(game_env.space.DRAW)
    with pytest.raises(IllegalMoveError):
        game_env.step(10_000)
    assert game_env.action_masks().sum() == 4  # nothing changed: the keep goes on
    after, reward, terminated, _, _ = game_env.step(int(np.flatnonzero(game_env.action_masks())[0]))
    assert reward == 0
    assert not terminated
    assert not np.array_equal(after, observation)

    penalized = env(players=3, opponents="random", seat=2, illegal="penalty")
    observation, _ = penalized.reset(seed=7)
    last, reward, terminated, truncated, info = penalized.step(penalized.space.DRAW)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert np.array_equal(last, observation)
    assert not info["action_mask"].any()
    with pytest.raises(InvalidArgumentError, match="call reset"):
        penalized.step(0)
    penalized.reset(seed=7)
    assert penalized.action_masks().sum() == 4


def test_opponents_by_name_per_seat_and_callables() -> None:
    seen: list[tuple[int, int]] = []

    def first_move(view: PlayerView, legal: LegalMoves) -> Move:
        seen.append((view.player, view.to_move))
        return legal[0]

    game_env = env(players=4, opponents=["random", first_move, "greedy"], seat=1)
    play_episode(game_env, 2, random.Random(2))
    assert seen
    assert all(player == to_move == 3 for player, to_move in seen)
    assert [type(p).__name__ for p in game_env.episode.players] == [
        "GreedyBot",
        "NoneType",
        "RandomBot",
        "function",
    ]

    shared = env(players=3, opponents=RandomBot(5), seat=0)  # a bot object plays both seats
    assert shared.settings.opponents.names == ("RandomBot", "RandomBot")
    play_episode(shared, 3, random.Random(3))
    assert shared.game.is_over

    def cheat(view: PlayerView, legal: LegalMoves) -> Move:
        return Move.parse("pass")

    with pytest.raises(IllegalMoveError):
        play_episode(env(players=3, opponents=cheat, seat=2), 7, random.Random(0))


def test_search_opponents_play_a_whole_episode() -> None:
    game_env = env(players=3, opponents="search")
    rewards, _, _ = play_episode(game_env, 4, random.Random(4))
    assert game_env.game.is_over
    assert rewards[-1] != 0


def test_other_catalogues_and_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    game_env = env(players=3, catalogue=MINI, opponents="random", seat=2, render_mode="ansi")
    assert game_env.action_space == gymnasium.spaces.Discrete(game_env.space.size)
    game_env.reset(seed=2)
    text = game_env.render()
    assert text is not None
    assert text.startswith("learner: player 2\nplayer 2 of 3")
    shown = env(players=3, opponents="random", render_mode="human")
    shown.reset(seed=2)
    assert shown.render() is None
    assert capsys.readouterr().out.startswith("learner: player")
    quiet = env(players=3)
    quiet.reset(seed=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert quiet.render() is None
    assert caught


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2}, "players must be one of 3, 4, 5, got 2"),
        ({"players": "4"}, "players must be one of 3, 4, 5, got '4'"),
        ({"seat": 4}, "seat must be one of None, 0, 1, 2, 3, got 4"),
        ({"illegal": "skip"}, "illegal must be one of 'raise', 'penalty', got 'skip'"),
        ({"normalize": 1}, "normalize must be one of False, True, got 1"),
        ({"render_mode": "rgb_array"}, "render_mode must be one of None, 'ansi', 'human'"),
        ({"opponents": "alphazero"}, "opponents must be a bot name (random, greedy, search)"),
        ({"opponents": ["random"]}, "opponents must list one entry per other seat (3), got 1"),
        ({"opponents": ["random", 3, "greedy"]}, "a callable or a list of 3 of them, got 3"),
        ({"opponents": None}, "opponents must be a bot name"),
        ({"catalogue": 3}, "catalogue must be a Catalogue"),
    ],
)
def test_bad_options_name_the_option_and_its_values(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        env(**options)


def test_step_before_reset_and_numpy_actions() -> None:
    game_env = env(players=3, opponents="random", seat=2)
    with pytest.raises(InvalidArgumentError, match="call reset"):
        game_env.step(0)
    game_env.reset(seed=7)
    _, reward, _, _, _ = game_env.step(np.int64(np.flatnonzero(game_env.action_masks())[0]))
    assert reward == 0.0
    assert isinstance(game_env.game, Game)
