"""The Stable-Baselines3 bridge: SB3's VecEnv contract over the vector environment, and
MaskablePPO learning through it. They run where sb3-contrib is installed (it brings torch)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.rl.sb3_bridge import PasticheSb3VecEnv, sb3_vec_env
from pastiche_core.rl.vector import PasticheVectorEnv


def play(bridge: PasticheSb3VecEnv, steps: int, seed: int) -> list[Any]:
    """``steps`` steps of random legal actions; every step's (dones, infos, masks)."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        masks = bridge.action_masks()
        assert masks.dtype == np.bool_
        assert masks.shape == (bridge.num_envs, 357)
        assert masks.any(axis=1).all()  # never a row without a legal action
        scores = np.where(masks, rng.random(masks.shape), -1.0)
        bridge.step_async(scores.argmax(axis=1))
        observations, rewards, dones, infos = bridge.step_wait()
        assert observations.shape == (bridge.num_envs, 1541)
        assert observations.dtype == np.float32
        assert rewards.shape == dones.shape == (bridge.num_envs,)
        assert dones.dtype == np.bool_
        assert len(infos) == bridge.num_envs
        seen.append((dones, infos, observations))
    return seen


def test_a_finished_game_is_dealt_anew_in_the_same_step() -> None:
    bridge = sb3_vec_env(4, players=3, opponents="random")
    bridge.seed(11)
    first = bridge.reset()
    assert first.shape == (4, 1541)
    ended = 0
    for dones, infos, observations in play(bridge, 400, seed=1):
        for index in range(4):
            if dones[index]:
                ended += 1
                terminal = infos[index]["terminal_observation"]
                assert terminal.shape == (1541,)
                assert infos[index]["TimeLimit.truncated"] is False
                # SB3's autoreset: the row returned is the new game's, not the last one.
                assert not np.array_equal(terminal, observations[index])
            else:
                assert "terminal_observation" not in infos[index]
    assert ended > 0


def test_the_first_action_in_a_new_game_is_played_not_ignored() -> None:
    bridge = sb3_vec_env(1, players=3, opponents="random")
    bridge.seed(4)
    bridge.reset()
    done = False
    while not done:
        bridge.step_async(bridge.action_masks().argmax(axis=1))
        done = bool(bridge.step_wait()[2][0])
    before = bridge.envs.game_moves(0)
    bridge.step_async(bridge.action_masks().argmax(axis=1))
    bridge.step_wait()
    assert bridge.envs.game_moves(0) > before  # the agent's move went into the new game


def test_the_same_seed_replays_the_same_games() -> None:
    runs = []
    for _ in range(2):
        bridge = sb3_vec_env(2, players=3, opponents="random")
        bridge.seed(5)
        bridge.reset()
        runs.append([observations.sum() for _, _, observations in play(bridge, 150, seed=2)])
    assert runs[0] == runs[1]
    assert bridge.env_method("game_seed", indices=[0])[0] != 5  # games were dealt anew


def test_reset_without_seed_and_the_seeds_of_the_vector_environment() -> None:
    bridge = sb3_vec_env(3, players=3, opponents="random")
    assert bridge.seed(20) == [20, 21, 22]
    bridge.reset()
    assert bridge.env_method("game_seed") == [20, 21, 22]
    bridge.reset()  # the seeds serve one reset only
    assert bridge.env_method("game_seed") != [20, 21, 22]


def test_a_penalized_action_ends_its_game_and_says_so() -> None:
    bridge = sb3_vec_env(2, players=3, opponents="random", illegal="penalty", seat=0)
    bridge.reset()
    illegal = (~bridge.action_masks()).argmax(axis=1)  # an action each game may not take
    _, rewards, dones, infos = bridge.step(illegal)
    assert rewards.tolist() == [-1.0, -1.0]
    assert dones.tolist() == [True, True]
    assert all(info["illegal"] for info in infos)
    assert bridge.action_masks().any(axis=1).all()


def test_attributes_methods_and_wrappers() -> None:
    bridge = sb3_vec_env(2, players=3, opponents="random")
    bridge.reset()
    assert bridge.get_attr("render_mode") == [None, None]
    assert bridge.env_is_wrapped(object, indices=[1]) == [False]
    bridge.set_attr("note", "x", indices=0)
    assert bridge.get_attr("note", indices=[1]) == ["x"]
    rows = bridge.env_method("action_masks", indices=[1, 0])
    assert np.array_equal(np.stack(rows), bridge.action_masks()[[1, 0]])
    with pytest.raises(InvalidArgumentError, match="env_method answers"):
        bridge.env_method("close")
    with pytest.raises(AttributeError):
        bridge.get_attr("no_such_attribute")


def test_step_wait_needs_step_async() -> None:
    bridge = sb3_vec_env(1, players=3, opponents="random")
    bridge.reset()
    with pytest.raises(InvalidArgumentError, match="step_async"):
        bridge.step_wait()


def test_redeal_checks_its_game() -> None:
    envs = PasticheVectorEnv(2, players=3, opponents="random")
    with pytest.raises(InvalidArgumentError, match="reset"):
        envs.redeal(0)
    envs.reset(seed=1)
    with pytest.raises(InvalidArgumentError, match="index must be"):
        envs.redeal(2)


def test_sb3_wraps_it() -> None:
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    monitored = vec_env.VecMonitor(sb3_vec_env(2, players=3, opponents="random"))
    monitored.seed(3)
    monitored.reset()
    for _ in range(300):
        masks = monitored.env_method("action_masks")
        _, _, dones, infos = monitored.step(np.stack(masks).argmax(axis=1))
        if dones.any():
            assert "episode" in infos[int(np.flatnonzero(dones)[0])]
            return
    pytest.fail("no game ended in 300 steps")


def test_maskable_ppo_learns_through_the_bridge() -> None:
    """A few hundred learner actions: two updates, every action legal (the vector
    environment raises on an illegal one), the masks read from the bridge."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    utils = pytest.importorskip("sb3_contrib.common.maskable.utils")
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    bridge = sb3_vec_env(4, players=3, opponents="random", normalize=True)
    assert utils.is_masking_supported(bridge)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", bridge, n_steps=64, batch_size=64, n_epochs=1, seed=1, device="cpu"
    )
    start = time.process_time()
    model.learn(512)
    assert model.num_timesteps == 512
    assert time.process_time() - start < 60


def test_the_bridge_refuses_a_vector_env_that_autoresets_otherwise() -> None:
    for mode in ("SameStep", "Disabled"):
        with pytest.raises(
            InvalidArgumentError, match=f"needs autoreset_mode NextStep.*got {mode}"
        ):
            sb3_vec_env(2, players=3, autoreset_mode=mode)
