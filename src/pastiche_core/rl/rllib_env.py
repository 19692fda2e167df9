"""The single-agent environment with its mask inside the observation, as RLlib masks actions.

RLlib's action-masking module for PPO (``ActionMaskingTorchRLModule``, shipped in
``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) reads a
:class:`gymnasium.spaces.Dict` observation of two keys: ``"observations"``, what
the network sees, and ``"action_mask"``, one value per action (1 legal, 0 not),
which it turns into ``-inf`` logits. :class:`RllibPasticheEnv` gives
:class:`~pastiche_core.rl.single.PasticheGymEnv`'s observation and mask that
way, and takes its options as one mapping, as RLlib's env runners call an
environment class (``config.environment(env=RllibPasticheEnv, env_config={...})``).
It needs neither Ray nor torch: the ``rllib`` extra is for the training around it.

>>> env = RllibPasticheEnv({"players": 3, "opponents": "random", "seat": 2})
>>> sorted(env.observation_space.spaces), env.action_space
(['action_mask', 'observations'], Discrete(357))
>>> observation, info = env.reset(seed=7)
>>> observation["action_mask"].nonzero()[0].tolist(), observation["observations"].max() <= 1
([4, 28, 29, 43], np.True_)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsIndex, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from ..data.errors import InvalidArgumentError
from .single import PasticheGymEnv

__all__ = ["DEFAULTS", "IGNORED", "RllibPasticheEnv"]

DEFAULTS: Mapping[str, object] = {
    "players": 4,
    "catalogue": "default",
    "opponents": "random",
    "seat": None,
    "illegal": "raise",
    "normalize": True,
}
"""The options and their values when ``env_config`` leaves them out. ``"raise"``
makes an action the mask forbids fail the env runner, so training that finishes
took none; ``"random"`` opponents keep the other seats on the compiled games."""

IGNORED = frozenset({"num_envs"})
"""Keys RLlib may add to ``env_config`` on its own (the vector entry point's size)."""

Observation = dict[str, npt.NDArray[np.float32]]
"""``{"observations": ..., "action_mask": ...}``, both float32."""


class RllibPasticheEnv(gymnasium.Env[Observation, np.int64]):
    """:class:`~pastiche_core.rl.single.PasticheGymEnv` with a Dict observation holding its mask.

    ``config`` maps option names of :func:`pastiche_core.gymnasium.env` to values
    (missing ones take :data:`DEFAULTS`); an unknown name is refused.

    >>> RllibPasticheEnv({"player": 3})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: env_config has no option 'player' (options: catalogue, illegal, normalize, opponents, players, seat)
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        given = dict(config or {})
        unknown = sorted(set(given) - set(DEFAULTS) - IGNORED)
        if unknown:
            raise InvalidArgumentError(
                f"env_config has no option {unknown[0]!r} (options: {', '.join(sorted(DEFAULTS))})"
            )
        options: dict[str, Any] = {
            name: given.get(name, default) for name, default in DEFAULTS.items()
        }
        self.inner = PasticheGymEnv(**options)
        """The environment whose observation and mask this one packs together."""
        self.action_space = self.inner.action_space
        """The inner environment's ``Discrete(357)``."""
        masked = gymnasium.spaces.Dict(
            {
                "action_mask": gymnasium.spaces.Box(
                    0.0, 1.0, shape=(self.inner.space.size,), dtype=np.float32
                ),
                "observations": self.inner.observation_space,
            }
        )
        self.observation_space = cast("gymnasium.spaces.Space[Observation]", masked)
        """``Dict(action_mask=Box(0, 1, (357,)), observations=<the inner space>)``."""

    def _pack(self, observation: npt.NDArray[np.float32]) -> Observation:
        mask = self.inner.action_masks().astype(np.float32)
        return {"action_mask": mask, "observations": observation}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (see :meth:`PasticheGymEnv.reset`); the mask is in the observation.

        >>> env = RllibPasticheEnv({"players": 3, "seat": 0})
        >>> observation, info = env.reset(seed=1)
        >>> bool((observation["action_mask"] == info["action_mask"]).all())
        True
        """
        super().reset(seed=seed)
        observation, info = self.inner.reset(seed=seed, options=options)
        return self._pack(observation), info

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play one atomic action (see :meth:`PasticheGymEnv.step`).

        >>> env = RllibPasticheEnv({"players": 3, "seat": 2})
        >>> observation, _ = env.reset(seed=7)
        >>> observation, reward, terminated, truncated, info = env.step(4)
        >>> observation["action_mask"].shape, terminated
        ((357,), False)
        """
        observation, reward, terminated, truncated, info = self.inner.step(action)
        return self._pack(observation), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (the inner environment's mask).

        >>> env = RllibPasticheEnv({"players": 3, "seat": 2})
        >>> _ = env.reset(seed=7)
        >>> int(env.action_masks().sum())
        4
        """
        return self.inner.action_masks()
