"""Stable-Baselines3's ``VecEnv`` over the compiled vector environment.

:class:`PasticheSb3VecEnv` hands a :class:`~pastiche_core.rl.vector.PasticheVectorEnv` to
Stable-Baselines3 and sb3-contrib's ``MaskablePPO`` as the ``VecEnv`` they step, so training
reaches the packed games (compiled when every other seat is a random bot) instead of a loop
of single environments. It follows SB3's conventions, not gymnasium's: ``step`` returns
``(observations, rewards, dones, infos)`` with one info dict per game; a game that ends is
dealt anew in the same step, its last observation in ``infos[i]["terminal_observation"]``
and the returned row the new game's first; so :meth:`PasticheSb3VecEnv.action_masks`
never has a row without a legal action. ``seed(s)`` seeds game ``i`` of the next reset with
``s + i``, as ``PasticheVectorEnv.reset(seed=s)`` does.

It needs Stable-Baselines3 (``pip install 'pastiche-core[rl]' sb3-contrib``: it brings torch),
which ``import pastiche_core`` never loads.

>>> from pastiche_core.rl.sb3_bridge import sb3_vec_env
>>> bridge = sb3_vec_env(3, players=3, opponents="random")
>>> _ = bridge.seed(7); observations = bridge.reset()
>>> observations.shape, bridge.action_masks().shape
((3, 1541), (3, 357))
>>> observations, rewards, dones, infos = bridge.step(bridge.action_masks().argmax(axis=1))
>>> rewards.tolist(), dones.tolist(), infos
([0.0, 0.0, 0.0], [False, False, False], [{}, {}, {}])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from ..data.errors import InvalidArgumentError
from .vector import PasticheVectorEnv

__all__ = ["PER_GAME", "PasticheSb3VecEnv", "sb3_vec_env"]

PER_GAME = ("action_masks", "game", "game_seed", "game_over", "game_moves")
"""The methods ``env_method`` answers game by game: ``action_masks`` gives each game's row,
the others are the vector environment's methods called with the game's index."""


def sb3_vec_env(num_envs: int, **options: Any) -> PasticheSb3VecEnv:
    """A :class:`PasticheSb3VecEnv` over ``PasticheVectorEnv(num_envs, **options)``.

    >>> sb3_vec_env(4, players=4, opponents="random").num_envs
    4
    """
    return PasticheSb3VecEnv(PasticheVectorEnv(num_envs, **options))


class PasticheSb3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """``envs`` as a Stable-Baselines3 ``VecEnv``: one game per SB3 environment.

    >>> bridge = PasticheSb3VecEnv(PasticheVectorEnv(2, players=3, opponents="random"))
    >>> bridge.observation_space.shape, bridge.action_space
    ((1541,), Discrete(357))
    >>> PasticheSb3VecEnv("4 games")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: envs must be a PasticheVectorEnv, got '4 games'
    >>> sb3_vec_env(2, autoreset_mode="SameStep")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: the bridge deals ended games itself, as SB3 expects: it needs autoreset_mode NextStep (the default), got SameStep
    """

    def __init__(self, envs: PasticheVectorEnv) -> None:
        if not isinstance(envs, PasticheVectorEnv):
            raise InvalidArgumentError(f"envs must be a PasticheVectorEnv, got {envs!r}")
        if envs.autoreset_mode is not AutoresetMode.NEXT_STEP:
            # redeal() turns the NEXT_STEP game dealt at the end into SB3's same-step reset.
            raise InvalidArgumentError(
                "the bridge deals ended games itself, as SB3 expects: it needs autoreset_mode "
                f"{AutoresetMode.NEXT_STEP.value} (the default), got {envs.autoreset_mode.value}"
            )
        self.envs = envs
        """The vector environment stepped."""
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal every game anew (seeded by :meth:`seed` if it was called since the last
        reset); the first observations, ``(num_envs, size)``.

        >>> bridge = sb3_vec_env(2, players=3, opponents="random")
        >>> _ = bridge.seed(5); _ = bridge.reset(); bridge.env_method("game_seed")
        [5, 6]
        """
        seeds: list[int | None] = list(self._seeds)
        observations, _ = self.envs.reset(seed=None if seeds == [None] * self.num_envs else seeds)
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return observations

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset: game ``i`` with ``seed + i`` (a drawn seed if ``None``).

        >>> sb3_vec_env(3, players=3, opponents="random").seed(10)
        [10, 11, 12]
        """
        if seed is None:
            seed = int(np.random.randint(0, 2**31 - 1))
        self._seeds = [seed + index for index in range(self.num_envs)]
        return list(self._seeds)

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Take one action per game for the next :meth:`step_wait`.

        >>> bridge = sb3_vec_env(2, players=3, opponents="random"); _ = bridge.reset()
        >>> bridge.step_async(bridge.action_masks().argmax(axis=1)); len(bridge.step_wait())
        4
        """
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        """Play the actions of :meth:`step_async`; a game that ends is dealt anew at once,
        its last observation in its info's ``terminal_observation``.

        >>> bridge = sb3_vec_env(1, players=3, opponents="random"); _ = bridge.seed(3)
        >>> _ = bridge.reset(); done = False
        >>> while not done:
        ...     _, rewards, dones, infos = bridge.step(bridge.action_masks().argmax(axis=1))
        ...     done = bool(dones[0])
        >>> infos[0]["terminal_observation"].shape, bool(bridge.action_masks().any())
        ((1541,), True)
        """
        if self._actions is None:
            raise InvalidArgumentError("call step_async() before step_wait()")
        actions, self._actions = self._actions, None
        envs = self.envs
        observations, rewards, terminations, truncations, extra = envs.step(actions)
        dones = terminations | truncations
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        illegal = extra.get("illegal")
        for index in np.flatnonzero(dones).tolist():
            info = infos[index]
            info["terminal_observation"] = observations[index].copy()
            info["TimeLimit.truncated"] = bool(truncations[index] and not terminations[index])
            if illegal is not None and illegal[index]:
                info["illegal"] = True
            envs.redeal(index)  # SB3 resets in the same step (gymnasium's NEXT_STEP does not)
        if dones.any():
            observations = envs.observations()
        return observations, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions, ``(num_envs, n)`` booleans, as sb3-contrib's
        ``MaskablePPO`` reads them; no row is all ``False``.

        >>> bridge = sb3_vec_env(2, players=3, opponents="random", seat=2); _ = bridge.reset()
        >>> bridge.action_masks().sum(axis=1).tolist()
        [4, 4]
        """
        return self.envs.action_masks()

    def close(self) -> None:
        """Close the vector environment.

        >>> sb3_vec_env(1, opponents="random").close()
        """
        self.envs.close()

    def _indexes(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """An attribute of the vector environment (else of this bridge), once per game asked.

        >>> sb3_vec_env(2, players=3, opponents="random").get_attr("num_envs", [0])
        [2]
        """
        owner: object = self.envs if hasattr(self.envs, attr_name) else self
        value = getattr(owner, attr_name)
        return [value for _ in self._indexes(indices)]

    def set_attr(
        self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None
    ) -> None:
        """Set an attribute of the vector environment, which every game shares.

        >>> bridge = sb3_vec_env(2, players=3, opponents="random")
        >>> bridge.set_attr("note", 1); bridge.get_attr("note")
        [1, 1]
        """
        setattr(self.envs, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: int | Iterable[int] | None = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """A per-game method of :data:`PER_GAME`, for each game asked.

        >>> bridge = sb3_vec_env(2, players=3, opponents="random"); _ = bridge.reset()
        >>> [row.shape for row in bridge.env_method("action_masks")], bridge.env_method("game_over", indices=1)
        ([(357,), (357,)], [False])
        >>> bridge.env_method("render")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: env_method answers action_masks, game, game_seed, game_over, game_moves; got 'render'
        """
        indexes = self._indexes(indices)
        if method_name == "action_masks":
            masks = self.envs.action_masks()
            return [masks[index] for index in indexes]
        if method_name not in PER_GAME:
            raise InvalidArgumentError(
                f"env_method answers {', '.join(PER_GAME)}; got {method_name!r}"
            )
        method = getattr(self.envs, method_name)
        return [method(index, *method_args, **method_kwargs) for index in indexes]

    def env_is_wrapped(
        self, wrapper_class: type[Any], indices: int | Iterable[int] | None = None
    ) -> list[bool]:
        """``False`` for every game: the games are not gymnasium environments to wrap.

        >>> sb3_vec_env(2, players=3, opponents="random").env_is_wrapped(object)
        [False, False]
        """
        return [False for _ in self._indexes(indices)]
