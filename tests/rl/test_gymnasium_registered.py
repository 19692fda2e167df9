"""The registered id: ``gymnasium.make`` and ``make_vec`` build the environments, and the
factories have distinct names."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium

from pastiche_core import gymnasium as gym_face
from pastiche_core import pettingzoo as zoo_face
from pastiche_core.rl.single import PasticheGymEnv
from pastiche_core.rl.vector import PasticheVectorEnv


def test_the_id_names_pastiche_and_is_registered_on_import() -> None:
    assert "astiche" in gym_face.ENV_ID
    spec = gymnasium.spec(gym_face.ENV_ID)
    assert spec.entry_point == "pastiche_core.gymnasium:make_env"
    assert spec.vector_entry_point == "pastiche_core.gymnasium:make_vector_env"


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
