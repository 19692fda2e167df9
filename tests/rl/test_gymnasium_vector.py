"""The gymnasium vector environment: the same games as the single one, batched, with autoreset."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from pastiche_core import IllegalMoveError, InvalidArgumentError
from pastiche_core.gymnasium import env, vector_env


def random_actions(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[Any]:
    """A uniformly random legal action per row; action 0 for a row without any."""
    scores = rng.random(masks.shape)
    scores[~masks] = -1.0
    return np.asarray(scores.argmax(axis=1))


def test_shapes_spaces_and_metadata() -> None:
    envs = vector_env(3, players=5, opponents="random")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(357)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([357] * 3)
    observations, infos = envs.reset(seed=1)
    assert set(infos) == {"action_mask", "_action_mask"}
    assert infos["action_mask"].dtype == np.int8
    assert np.array_equal(infos["action_mask"], envs.action_masks())
    assert infos["_action_mask"].all()
    assert observations.shape == (3, 1891)
    assert observations.dtype == np.float32
    assert envs.observation_space.contains(observations)
    masks = envs.action_masks()
    assert masks.shape == (3, 357)
    assert masks.dtype == np.bool_
    assert masks.any(axis=1).all()
    masks[:] = False  # a copy: the environment's masks are untouched
    assert envs.action_masks().any(axis=1).all()
    _, rewards, terminations, truncations, _ = envs.step(
        random_actions(envs.action_masks(), np.random.default_rng(0))
    )
    assert rewards.dtype == np.float64
    assert terminations.dtype == truncations.dtype == np.bool_


@pytest.mark.parametrize("normalize", [False, True])
def test_the_vector_plays_the_single_environments_games(normalize: bool) -> None:
    """Game i of reset(seed=s) is the single environment's reset(seed=s + i), step by step,
    across autoresets: the next deal of each comes from its own seeded generator."""
    count, seed = 3, 20
    envs = vector_env(count, players=3, opponents="random", normalize=normalize)
    singles = [env(players=3, opponents="random", normalize=normalize) for _ in range(count)]
    observations, _ = envs.reset(seed=seed)
    expected = [single.reset(seed=seed + index)[0] for index, single in enumerate(singles)]
    assert np.array_equal(observations, np.stack(expected))
    rng = np.random.default_rng(0)
    done = [False] * count
    ended = 0
    for _ in range(600):
        masks = envs.action_masks()
        actions = random_actions(masks, rng)
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert set(infos) <= {"action_mask", "scores", "winners"} | {
            f"_{key}" for key in ("action_mask", "scores", "winners")
        }
        assert np.array_equal(infos["action_mask"], envs.action_masks())
        assert not truncations.any()
        for index, single in enumerate(singles):
            if done[index]:  # NEXT_STEP: this step shows the game dealt anew, action ignored
                observation, info = single.reset()
                reward, terminated = 0.0, False
                # the row's mask at the step that ended the game was the new game's
                assert np.array_equal(masks[index], info["action_mask"])
                assert masks[index].any()
            else:
                assert np.array_equal(masks[index], single.action_masks())
                observation, reward, terminated, _, info = single.step(int(actions[index]))
            if terminated:
                assert infos["_scores"][index]
                assert infos["_winners"][index]
                assert infos["scores"][index] == info["scores"]
                assert infos["winners"][index] == info["winners"]
            else:
                assert "_scores" not in infos or not infos["_scores"][index]
            assert np.array_equal(observations[index], observation)
            assert rewards[index] == reward
            assert terminations[index] == terminated
            done[index] = terminated
            ended += terminated
        assert envs.observation_space.contains(observations)
    assert ended >= 3, "the test should see games end and start again"


def test_autoreset_next_step() -> None:
    envs = vector_env(2, players=3, opponents="random", seat=0)
    envs.reset(seed=3)
    rng = np.random.default_rng(3)
    seeds = [envs.game_seed(index) for index in range(envs.num_envs)]
    while True:
        _, rewards, terminations, _, _ = envs.step(random_actions(envs.action_masks(), rng))
        if terminations.any():
            break
    index = int(np.flatnonzero(terminations)[0])
    assert rewards[index] != 0
    # dealt anew at once: the row's mask is the new game's, so a masked sampler always works
    assert envs.action_masks()[index].any()
    assert not envs.game_over(index)
    observations, rewards, terminations, _, _ = envs.step(random_actions(envs.action_masks(), rng))
    assert rewards[index] == 0.0
    assert not terminations[index]
    assert not envs.game_over(index)
    assert envs.game_seed(index) != seeds[index]
    assert envs.action_masks()[index].any()  # the learner (seat 0) is to move
    assert observations[index].any()


def test_penalties_are_reported_per_game() -> None:
    envs = vector_env(3, players=3, opponents="random", seat=2, illegal="penalty")
    before, _ = envs.reset(seed=7)
    legal = int(np.flatnonzero(envs.action_masks()[1])[0])
    observations, rewards, terminations, _, infos = envs.step([0, legal, 0])  # draw at setup
    assert rewards.tolist() == [-1.0, 0.0, -1.0]
    assert terminations.tolist() == [True, False, True]
    assert infos["illegal"].tolist() == [True, False, True]
    assert infos["_illegal"].tolist() == [True, False, True]
    assert np.array_equal(observations[0], before[0])  # the last observation stays
    assert envs.action_masks()[[0, 2]].any(axis=1).all()  # the new games' masks
    assert "_scores" not in infos  # a penalized game has no final scores
    _, rewards, terminations, _, infos = envs.step(
        random_actions(envs.action_masks(), np.random.default_rng(1))
    )
    assert rewards[0] == rewards[2] == 0.0
    assert "illegal" not in infos
    assert envs.action_masks().any(axis=1).all()


def test_an_illegal_action_raises_in_raise_mode() -> None:
    envs = vector_env(2, players=3, opponents="random", seat=2, illegal="raise")
    envs.reset(seed=7)
    with pytest.raises(IllegalMoveError, match="'draw' is not legal now"):
        envs.step([0, 0])


def test_seeds_as_a_list_and_without_a_seed() -> None:
    envs = vector_env(2, players=4, opponents="random")
    envs.reset(seed=[5, 9])
    assert [envs.game_seed(index) for index in range(2)] == [5, 9]
    envs.reset()
    assert all(envs.game_seed(index) not in (5, 9) for index in range(2))
    with pytest.raises(InvalidArgumentError, match="seed must be an integer, None or a list of 2"):
        envs.reset(seed=[1])


def test_bad_arguments() -> None:
    for count in (0, -1, 2.5, True):
        with pytest.raises(InvalidArgumentError, match="num_envs must be a positive integer"):
            vector_env(count)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="illegal must be one of"):
        vector_env(2, illegal="ignore")
    envs = vector_env(2, players=3, opponents="random")
    with pytest.raises(InvalidArgumentError, match="call reset"):
        envs.step([0, 0])
    envs.reset(seed=1)
    with pytest.raises(InvalidArgumentError, match=r"shape \(2,\), got \(3,\)"):
        envs.step([0, 0, 0])


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    envs = vector_env(2, players=3, opponents="random", render_mode="ansi")
    envs.reset(seed=2)
    texts = envs.render()
    assert texts is not None
    assert len(texts) == 2
    assert all(text.startswith("learner: player") for text in texts)
    shown = vector_env(2, players=3, opponents="random", render_mode="human")
    shown.reset(seed=2)
    assert shown.render() is None
    assert capsys.readouterr().out.count("learner: player") == 2
    envs.close()
