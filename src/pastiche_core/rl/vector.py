"""A gymnasium vector environment: ``num_envs`` single-agent games stepped together.

:class:`PasticheVectorEnv` steps ``num_envs`` games of
:class:`~pastiche_core.rl.single.PasticheGymEnv` at once, with the same options
and the same episodes: game ``i`` of ``reset(seed=s)`` is the single
environment's ``reset(seed=s + i)``. It returns batched NumPy arrays:
observations ``(num_envs, encoder.size)`` (``float32``), rewards (``float64``),
terminations and truncations (``bool``); :meth:`PasticheVectorEnv.action_masks`
gives the masks, ``(num_envs, space.size)`` booleans.

**Autoreset** follows gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step
that ends game ``i`` returns its last observation (reward, ``terminated=True``,
an all-``False`` mask); the next step deals game ``i`` anew, ignores its action
and returns the new game's first observation with reward 0. A new game's seed is
drawn from game ``i``'s own generator, seeded ``s + i`` by ``reset(seed=s)``.

**Where the time goes.** The games are stepped by the engine directly: each
step writes every observation into its row of one preallocated batch (the
encoder writes in place), builds the masks in place in one preallocated array,
plays the other seats through the bots without any environment round trip, and
makes no dict per game; ``infos`` is empty but for ``illegal`` (with its
``_illegal`` presence mask) when an action was penalized.

>>> from pastiche_core.rl.vector import PasticheVectorEnv
>>> envs = PasticheVectorEnv(3, players=3, opponents="random")
>>> observations, infos = envs.reset(seed=7)
>>> observations.shape, envs.action_masks().shape
((3, 1541), (3, 357))
>>> actions = [int(row.nonzero()[0][0]) for row in envs.action_masks()]
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.tolist(), terminations.tolist(), infos
([0.0, 0.0, 0.0], [False, False, False], {})
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..catalogue import Catalogue
from ..errors import IllegalMoveError, InvalidArgumentError
from .single import PENALTY, RENDER_MODES, Episode, Settings, observation_space, scale_of

__all__ = ["PasticheVectorEnv"]


class PasticheVectorEnv(
    VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` single-agent Pastiche games as a :class:`gymnasium.vector.VectorEnv`.

    The options after ``num_envs`` are those of :func:`pastiche_core.gymnasium.env`.

    >>> envs = PasticheVectorEnv(2, players=4, opponents="random", normalize=True)
    >>> envs.single_observation_space.shape, envs.observation_space.shape, envs.action_space
    ((1716,), (2, 1716), MultiDiscrete([357 357]))
    >>> PasticheVectorEnv(0)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: num_envs must be a positive integer, got 0
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium's convention
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": list(RENDER_MODES),
    }
    """gymnasium's metadata: the autoreset mode (``NEXT_STEP``) and the render modes."""

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        catalogue: str | Catalogue = "default",
        opponents: object = "greedy",
        seat: int | None = None,
        illegal: str = "raise",
        normalize: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be a positive integer, got {num_envs!r}")
        settings = Settings.of(players, catalogue, opponents, seat, illegal, normalize, render_mode)
        self.settings = settings
        """The checked options, shared by every game."""
        self.num_envs = num_envs
        """The number of games stepped together."""
        self.episodes = [Episode(settings) for _ in range(num_envs)]
        """The games, each seen from its learner's seat."""
        self.render_mode = render_mode
        """``None``, ``'ansi'`` (:meth:`render` returns a text per game) or ``'human'``."""
        first = self.episodes[0]
        self.space = first.space
        """The atomic action layout; each game's action space is ``Discrete(space.size)``."""
        self.encoder = first.encoder
        """The observation layout."""
        self.single_observation_space = observation_space(self.encoder, normalize)
        """One game's observation space: ``Box(0, encoder.high)``, or ``Box(0, 1)``."""
        self.single_action_space = gymnasium.spaces.Discrete(self.space.size)
        """One game's action space: ``Discrete(space.size)``."""
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        """The batched observation space, ``(num_envs, encoder.size)``."""
        self.action_space = batch_space(self.single_action_space, num_envs)
        """The batched action space, ``MultiDiscrete`` of ``num_envs`` actions."""
        size, actions = self.encoder.size, self.space.size
        self._raw = np.zeros((num_envs, size), dtype=np.float32)
        self._scale = scale_of(self.encoder) if normalize else None
        self._masks = np.zeros((num_envs, actions), dtype=bool)
        self._flat_masks = self._masks.reshape(-1)  # a view: the masks written by index
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=bool)
        self._truncations = np.zeros(num_envs, dtype=bool)
        self._rngs: list[np.random.Generator] | None = None
        self._penalty = settings.illegal == "penalty"
        self._started = False

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every game anew: game ``i`` with seed ``seed + i`` (or ``seed[i]``).

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=0)
        >>> _ = envs.reset(seed=5)
        >>> [episode.game.seed for episode in envs.episodes]
        [5, 6]
        """
        super().reset(seed=seed if isinstance(seed, int) else None)
        count = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * count
        elif isinstance(seed, int) and not isinstance(seed, bool):
            seeds = [seed + index for index in range(count)]
        elif isinstance(seed, list | tuple) and len(seed) == count:
            seeds = list(seed)
        else:
            raise InvalidArgumentError(
                f"seed must be an integer, None or a list of {count} seeds, got {seed!r}"
            )
        rngs = self._rngs
        if rngs is None:
            rngs = self._rngs = [np.random.default_rng() for _ in range(count)]
        for index, (episode, each) in enumerate(zip(self.episodes, seeds, strict=True)):
            if each is not None:
                rngs[index] = gymnasium.utils.seeding.np_random(each)[0]
            episode.reset(rngs[index], each)
            episode.write_observation(self._raw[index])
        self._terminations.fill(False)
        self._truncations.fill(False)
        self._rewards.fill(0.0)
        self._write_masks()
        self._started = True
        return self._observations(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play one atomic action in every game (a game that ended is dealt anew instead).

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", illegal="penalty")
        >>> _ = envs.reset(seed=7)
        >>> _, rewards, terminations, _, infos = envs.step([0, 0])  # draw, at setup
        >>> rewards.tolist(), terminations.tolist(), infos["illegal"].tolist()
        ([-1.0, -1.0], [True, True], [True, True])
        """
        if not self._started:
            raise InvalidArgumentError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"actions must hold one action per game, shape ({self.num_envs},), "
                f"got {chosen.shape}"
            )
        rngs = self._rngs
        assert rngs is not None
        raw, rewards, terminations = self._raw, self._rewards, self._terminations
        illegal: npt.NDArray[np.bool_] | None = None
        for index, (episode, action) in enumerate(zip(self.episodes, chosen.tolist(), strict=True)):
            if episode.over:  # NEXT_STEP: the game that ended last step is dealt anew
                episode.reset(rngs[index])
                rewards[index] = 0.0
                terminations[index] = False
            else:
                try:
                    rewards[index], terminations[index] = episode.step(action)
                except IllegalMoveError:
                    if not self._penalty:
                        raise
                    episode.over = True
                    rewards[index] = PENALTY
                    terminations[index] = True
                    if illegal is None:
                        illegal = np.zeros(self.num_envs, dtype=bool)
                    illegal[index] = True
                    continue  # the observation stays the last one
            episode.write_observation(raw[index])
        self._write_masks()
        infos: dict[str, Any] = (
            {} if illegal is None else {"illegal": illegal, "_illegal": illegal.copy()}
        )
        return (
            self._observations(),
            rewards.copy(),
            terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def _observations(self) -> npt.NDArray[np.float32]:
        """The batch handed out: a new array (scaled when normalizing)."""
        scale = self._scale
        if scale is None:
            return self._raw.copy()
        return np.multiply(self._raw, scale)

    def _write_masks(self) -> None:
        """Every game's mask, written by index into the one preallocated array."""
        flat = self._flat_masks
        flat.fill(False)
        size = self.space.size
        where: list[int] = []
        for index, episode in enumerate(self.episodes):
            if episode.over:
                continue
            base = index * size
            where += [base + action for action in episode.builder.legal_actions()]
        flat[where] = True

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game, ``(num_envs, space.size)`` booleans (a copy);
        a game's row is all ``False`` on the step that ends it.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=2)
        >>> _ = envs.reset(seed=7)
        >>> envs.action_masks().sum(axis=1).tolist()
        [4, 4]
        """
        return self._masks.copy()

    def render(self) -> tuple[str, ...] | None:
        """Each game's learner view as text (``'ansi'``), printed (``'human'``), else ``None``.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=0, render_mode="ansi")
        >>> _ = envs.reset(seed=7)
        >>> [text.splitlines()[0] for text in envs.render()]
        ['learner: player 0', 'learner: player 0']
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        texts = tuple(episode.text() for episode in self.episodes)
        if self.render_mode == "human":
            print("\n\n".join(texts))
            return None
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
