"""RLlib: the masked environment it trains on, and the example (examples/train_rllib.py)
training PPO on a local Ray instance with two env runners, where the ``rllib`` extra is
installed."""

from __future__ import annotations

import importlib.util
import math
import os
import time

import pytest
from rl_common import load_example

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np

from pastiche_core.data.errors import IllegalMoveError, InvalidArgumentError
from pastiche_core.rl.rllib_env import RllibPasticheEnv


def test_the_observation_holds_the_mask_through_a_whole_game() -> None:
    env = RllibPasticheEnv({"players": 3, "opponents": "random", "num_envs": 1})
    rng = np.random.default_rng(3)
    observation, info = env.reset(seed=5)
    terminated, steps = False, 0
    while not terminated:
        assert env.observation_space.contains(observation)
        mask = observation["action_mask"]
        assert np.array_equal(mask, info["action_mask"])
        assert np.array_equal(mask.astype(bool), env.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, _, terminated, truncated, info = env.step(action)
        assert not truncated
        steps += 1
    assert steps > 10
    assert info["winners"]


def test_an_action_the_mask_forbids_fails_by_default() -> None:
    env = RllibPasticheEnv({"players": 3, "seat": 2})
    observation, _ = env.reset(seed=7)
    forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match="is not legal now"):
        env.step(forbidden)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="env_config has no option 'seats'"):
        RllibPasticheEnv({"seats": 1})


def test_the_example_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load_example("train_rllib")
    find_spec = importlib.util.find_spec

    def without_ray(name: str, *args: object) -> object:
        return None if name == "ray" else find_spec(name)

    monkeypatch.setattr(importlib.util, "find_spec", without_ray)
    assert example.main(["--iterations", "1"]) == 2
    err = capsys.readouterr().err  # ray, and whatever else of the extra is missing here
    assert err.startswith("this example needs ray")
    assert err.endswith(": pip install 'pastiche-core[rl,rllib]'\n")
    assert err.count("\n") == 1


@pytest.mark.slow
@pytest.mark.skipif(
    bool(os.environ.get("PASTICHE_PURE_PYTHON")),
    reason="trains on Ray once per CI run: the Python rules change nothing RLlib sees",
)
def test_ppo_trains_with_masks_on_two_env_runners() -> None:
    """Two iterations of 500 learner actions from two env runners, every action legal
    (the environment raises on an illegal one, which would fail ``train``), then the trained
    module's masked choices play two games."""
    pytest.importorskip("torch")
    pytest.importorskip("ray.rllib")
    import logging

    import ray

    example = load_example("train_rllib")
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    try:
        algo = example.build_config(players=3, env_runners=2, batch=500, seed=1).build_algo()
        try:
            training = example.train(algo, 2)
            evaluation = example.evaluate(algo, games=2, players=3)
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    assert training.step_failures == 0
    assert training.actions >= 1000
    assert training.games > 0
    learner = training.last["learners"]["default_policy"]
    assert math.isfinite(learner["total_loss"])
    assert evaluation.illegal == 0
    assert evaluation.games == 2
    assert time.perf_counter() - start < 300
