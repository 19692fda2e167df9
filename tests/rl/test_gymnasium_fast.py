"""The single environment on the compiled games: the same episodes as the engine's, its
backend named, a warning when an option needs the engine, defaults both checkers pass."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from rl_common import assert_same

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core.engine._kernels import switched_off
from pastiche_core.gymnasium import (
    BACKENDS,
    ENV_ID,
    EnginePathWarning,
    PasticheGymEnv,
    env,
    vector_env,
)
from pastiche_core.rl.encoding_space import Stage

COMPILED = env(players=3).backend == "compiled"
needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled kernels are not built")


def _play(game_env: PasticheGymEnv, seed: int, choices: list[int], illegal_every: int) -> list[Any]:
    """Everything the environment answers over a few episodes: the actions are drawn from
    ``choices`` (an index into the legal actions), every ``illegal_every``-th one illegal."""
    out: list[Any] = []
    observation, info = game_env.reset(seed=seed)
    out += [observation, info]
    stage_at = game_env.encoder.field("stage").offset
    for step, choice in enumerate(choices):
        legal = np.flatnonzero(game_env.action_masks())
        action = int(legal[choice % len(legal)])
        if illegal_every and step % illegal_every == illegal_every - 1:
            action = int(np.flatnonzero(~game_env.action_masks())[choice % 7])
        observation, reward, terminated, truncated, info = game_env.step(action)
        out += [observation, reward, terminated, truncated, info, game_env.action_masks()]
        if observation[stage_at + Stage.GIFTS] == 0:  # a gift's receiver is not in the packed text
            out.append(game_env.render())
        if terminated:
            out += [game_env.game, game_env.seat]
            observation, info = game_env.reset()
            out += [observation, info]
    out += [game_env.game, game_env.seat]
    return out


@needs_compiled
@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 5),
    seat=st.none() | st.integers(0, 2),
    normalize=st.booleans(),
    illegal_every=st.sampled_from([0, 0, 37]),
    choices=st.lists(st.integers(0, 1000), min_size=60, max_size=300),
)
def test_the_compiled_and_the_engine_single_env_give_the_same_episodes(
    seed: int,
    players: int,
    seat: int | None,
    normalize: bool,
    illegal_every: int,
    choices: list[int],
) -> None:
    """Observations, masks, rewards, infos, renderings, games and the next deals are the
    same, including the penalty of an illegal action and the reset without a seed."""
    options: dict[str, Any] = {
        "players": players,
        "seat": seat,
        "normalize": normalize,
        "render_mode": "ansi",
    }
    fast = env(**options)
    with switched_off("episodes"):
        slow = env(**options)
    assert (fast.backend, slow.backend) == ("compiled", "python twin")
    answers = _play(fast, seed, choices, illegal_every)
    expected = _play(slow, seed, choices, illegal_every)
    assert len(answers) == len(expected)
    for index, (one, two) in enumerate(zip(answers, expected, strict=True)):
        assert_same(one, two, f"answer {index}")


@needs_compiled
def test_the_game_is_rebuilt_from_the_packed_state() -> None:
    fast = env(players=4, seat=1)
    fast.reset(seed=11)
    with switched_off("episodes"):
        slow = env(players=4, seat=1)
    slow.reset(seed=11)
    for _ in range(30):
        action = int(np.flatnonzero(fast.action_masks())[0])
        fast.step(action)
        slow.step(action)
    assert fast.game == slow.game
    assert fast.game.to_move == 1
    assert len(fast.game.history) == 0  # a copy: the packed games keep no history
    with pytest.raises(ValueError, match="played packed by the compiled kernels"):
        fast.episode  # noqa: B018 - the property raises


def test_the_backend_is_named_and_the_engine_path_warns_once_per_construction() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        quick = env(players=3, render_mode="human")
        quick_vector = vector_env(2, players=3, render_mode="ansi")
    assert caught == []
    assert quick.backend == quick_vector.backend == ("compiled" if COMPILED else "python twin")
    for make in (
        lambda: env(players=3, opponents="greedy"),
        lambda: vector_env(2, players=3, opponents=["random", "search"]),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            made = make()
            made.reset(seed=1)
        assert [type(each.message) for each in caught] == [EnginePathWarning]
        assert made.backend == "engine"
        text = str(caught[0].message)
        assert "opponents=[" in text
        assert "opponents='random'" in text
    assert issubclass(EnginePathWarning, UserWarning)
    assert BACKENDS == ("compiled", "python twin", "engine")


def test_the_registered_default_passes_gymnasium_check_env_with_its_renderings() -> None:
    """No options: random opponents (the compiled games) and illegal="penalty", so the
    checker's random actions end episodes; it re-makes the env in each render mode."""
    made = gymnasium.make(ENV_ID)
    assert made.unwrapped.settings.illegal == "penalty"  # type: ignore[attr-defined]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped, skip_render_check=False)
    assert not [each for each in caught if issubclass(each.category, EnginePathWarning)]


def test_the_default_passes_stable_baselines3_check_env() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(gymnasium.make(ENV_ID).unwrapped, warn=True)
    assert [str(each.message) for each in caught] == []


def test_human_render_prints_once_per_decision(capsys: pytest.CaptureFixture[str]) -> None:
    """Not at every atomic action: at the reset, then at each step that completes a move
    or ends the episode."""
    game_env = env(players=3, seat=0, render_mode="human")
    game_env.reset(seed=3)
    expected, steps = 1, 0
    rng = np.random.default_rng(3)
    terminated = False
    while not terminated:
        moves = game_env.moves
        action = int(rng.choice(np.flatnonzero(game_env.action_masks())))
        _, _, terminated, _, _ = game_env.step(action)
        steps += 1
        expected += terminated or game_env.moves != moves
    printed = capsys.readouterr().out.count("learner: player 0")
    assert printed == expected
    assert printed < steps + 1


def test_a_greedy_opponent_chooses_the_same_without_the_history() -> None:
    """play_until hands a greedy opponent a view without history (cheaper): the greedy bot
    reads none, so its choices are those it makes with the history."""
    from pastiche_core import Game
    from pastiche_core.ai.greedy import GreedyBot

    game = Game(players=4, seed=21)
    while not game.is_over:
        seat, legal = game.to_move, game.legal_moves
        with_history = GreedyBot(seat).choose(game.view(seat), legal)
        assert GreedyBot(seat).choose(game.view(seat, history=False), legal) == with_history
        game.apply(with_history)


def test_every_gymnasium_face_takes_the_same_options_with_the_same_defaults() -> None:
    """The factories, the two classes and Settings.of list each option once, alike: a default
    changed in one place (random opponents, illegal='penalty') cannot drift from the others."""
    import inspect

    from pastiche_core import gymnasium as faces
    from pastiche_core.rl.episode import Settings
    from pastiche_core.rl.vector import PasticheVectorEnv

    def options(function: Any) -> dict[str, Any]:
        parameters = inspect.signature(function).parameters.values()
        vector_only = ("self", "num_envs", "autoreset_mode")
        return {p.name: p.default for p in parameters if p.name not in vector_only}

    expected = options(Settings.of)
    assert expected["opponents"] == "random"
    assert expected["illegal"] == "penalty"
    for function in (
        faces.make_env,
        faces.make_vector_env,
        PasticheGymEnv.__init__,
        PasticheVectorEnv.__init__,
    ):
        assert options(function) == expected, function.__qualname__
