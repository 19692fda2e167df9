"""The registered id: ``gymnasium.make`` and ``make_vec`` build the environments, and the
factories have distinct names."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np

from pastiche_core import gymnasium as gym_face
from pastiche_core import pettingzoo as zoo_face
from pastiche_core.rl.single import PasticheGymEnv
from pastiche_core.rl.vector import PasticheVectorEnv

# Greedy and search opponents here are chosen on purpose: their warning is not news.
pytestmark = pytest.mark.filterwarnings("ignore::pastiche_core.rl.episode.EnginePathWarning")


def test_the_id_names_pastiche_and_is_registered_on_import() -> None:
    assert "astiche" in gym_face.ENV_ID
    spec = gymnasium.spec(gym_face.ENV_ID)
    assert spec.entry_point == "pastiche_core.gymnasium:make_env"
    assert spec.vector_entry_point == "pastiche_core.gymnasium:make_vector_env"


def test_an_id_naming_the_module_needs_no_import_first() -> None:
    """gymnasium loads no plugins; ``module:id`` makes it import the module that registers."""
    import subprocess
    import sys

    code = (
        "import sys, gymnasium\n"
        "assert 'pastiche_core.gymnasium' not in sys.modules\n"
        "made = gymnasium.make('pastiche_core.gymnasium:pastiche/Pastiche-v0', players=3)\n"
        "envs = gymnasium.make_vec('pastiche_core.gymnasium:pastiche/Pastiche-v0', 2,\n"
        "                          vectorization_mode='vector_entry_point')\n"
        "print(made.spec.id, type(made.unwrapped).__name__, type(envs).__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["pastiche/Pastiche-v0", "PasticheGymEnv", "PasticheVectorEnv"]


def test_registering_again_keeps_one_spec() -> None:
    before = gymnasium.spec(gym_face.ENV_ID)
    gym_face._register()
    assert gymnasium.spec(gym_face.ENV_ID) is before


def test_make_passes_the_options_and_the_spec_records_them() -> None:
    made = gymnasium.make(gym_face.ENV_ID, players=3, opponents="random", seat=1)
    inner = made.unwrapped
    assert isinstance(inner, PasticheGymEnv)
    assert (inner.settings.players, inner.seat) == (3, 1)
    assert made.spec is not None
    assert made.spec.kwargs == {"players": 3, "opponents": "random", "seat": 1}
    observation, info = made.reset(seed=3)
    assert observation.shape == made.observation_space.shape
    assert info["action_mask"].any()


def test_make_vec_with_the_vector_entry_point_gives_the_compiled_vector_env() -> None:
    envs = gymnasium.make_vec(
        gym_face.ENV_ID,
        num_envs=4,
        vectorization_mode="vector_entry_point",
        players=3,
        opponents="random",
    )
    assert isinstance(envs, PasticheVectorEnv)
    assert envs.num_envs == 4
    assert envs.settings.players == 3
    assert envs.spec is not None
    assert envs.spec.kwargs["opponents"] == "random"
    observations, _ = envs.reset(seed=5)
    assert observations.shape == (4, envs.encoder.size)


def test_make_vec_sync_mode_wraps_single_environments() -> None:
    envs = gymnasium.make_vec(
        gym_face.ENV_ID, num_envs=2, vectorization_mode="sync", players=3, opponents="random"
    )
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    _, infos = envs.reset(seed=5)
    assert infos["action_mask"].shape == (2, gym_face.env(players=3, opponents="random").space.size)


def test_gymnasium_and_pettingzoo_factories_have_distinct_names_and_old_ones_work() -> None:
    assert gym_face.make_env is gym_face.env
    assert gym_face.make_vector_env is gym_face.vector_env
    assert zoo_face.make_aec_env is zoo_face.env
    assert not {"make_env", "make_vector_env"} & set(zoo_face.__all__)
    assert "make_aec_env" not in gym_face.__all__


def test_the_single_info_mask_is_int8_and_gymnasiums_sampler_takes_it() -> None:
    made = gymnasium.make(gym_face.ENV_ID, players=3, opponents="random")
    inner = made.unwrapped
    assert isinstance(inner, PasticheGymEnv)
    _, info = made.reset(seed=11)
    for _ in range(20):
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert np.array_equal(mask.astype(bool), inner.action_masks())
        action = made.action_space.sample(mask=mask)
        assert mask[action] == 1
        _, _, terminated, _, info = made.step(action)
        if terminated:
            break


def test_the_vector_info_masks_feed_the_batched_sampler_across_autoresets() -> None:
    """Every row, an autoreset row too, has a legal action, so the batched sampler never
    meets an empty mask; each finished game reports its scores and winners."""
    envs = gym_face.make_vector_env(4, players=3, opponents="random")
    envs.action_space.seed(0)
    _, infos = envs.reset(seed=2)
    finished = 0
    for _ in range(400):
        masks = infos["action_mask"]
        assert masks.dtype == np.int8
        assert masks.any(axis=1).all()
        actions = envs.action_space.sample(mask=tuple(masks))
        assert all(masks[row, action] for row, action in enumerate(actions))
        _, _rewards, terminations, _, infos = envs.step(actions)
        for row in np.flatnonzero(terminations):
            finished += 1
            scores, winners = infos["scores"][row], infos["winners"][row]
            assert infos["_scores"][row]
            assert infos["_winners"][row]
            assert len(scores) == 3
            assert set(winners) <= {0, 1, 2}
            assert winners
        if "_scores" in infos:
            assert not infos["_scores"][~terminations].any()
    assert finished >= 2, "the test should see games end"


def test_the_engine_played_vector_deals_anew_at_once_too() -> None:
    envs = gym_face.make_vector_env(2, players=3, opponents="greedy", seat=0)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=4)
    seeds = [envs.game_seed(row) for row in range(2)]
    for _ in range(2000):
        masks = infos["action_mask"].astype(bool)
        assert masks.any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(row))) for row in masks]
        _, _, terminations, _, infos = envs.step(actions)
        if terminations.any():
            row = int(np.flatnonzero(terminations)[0])
            assert not envs.game_over(row)
            assert envs.game_seed(row) != seeds[row]
            assert not envs.episodes[row].over
            assert infos["_scores"][row]
            return
    pytest.fail("no game ended")
