"""A single-agent gymnasium environment: one learning seat, bots at the others.

:class:`PasticheGymEnv` is a :class:`gymnasium.Env`. Each step plays one atomic
action of :class:`~pastiche_core.rl.encoding.ActionSpace` for the learner; when
it completes a move, the move is applied and the other seats play (see
:mod:`pastiche_core.rl.opponents`) until the learner is to move again or the
game is over. The observation is the learner's
:class:`~pastiche_core.rl.observation.ObservationEncoder` vector (with what the
learner has seen over the game, :class:`~pastiche_core.engine.knowledge.Knowledge`);
:meth:`PasticheGymEnv.action_masks` gives the legal actions as booleans (the
sb3-contrib convention), ``info["action_mask"]`` the same as ``int8`` (what
gymnasium's ``action_space.sample(mask=...)`` takes).

**Rewards** are zero until the end, then the learner's zero-sum return of the
PettingZoo environment (:func:`~pastiche_core.rl.aec.winner_returns`): 1 for a
sole winner, ``-1/(n - 1)`` for a loser. An illegal action ends the episode with
reward -1 and ``info["illegal"] = True`` (``illegal="penalty"``, the default) or
raises :class:`~pastiche_core.data.errors.IllegalMoveError` (``"raise"``).

**Where it plays.** With random bots at every other seat (the default) the game
is played packed by the compiled ``episodes`` kernel, as one game of the vector
environment (:class:`~pastiche_core.rl.vector.PackedEpisode`), rendered or not;
other opponents need the engine (an :class:`~pastiche_core.rl.episode.Episode`)
and warn (:class:`~pastiche_core.rl.episode.EnginePathWarning`).
:attr:`PasticheGymEnv.backend` names the path (:data:`BACKENDS`).

**Seeds.** ``reset(seed=s)`` deals ``Game(players, seed=s)`` and, with
``seat=None``, draws the learner's seat from the environment's generator seeded
with ``s``; a reset without a seed draws the next game seed from that generator,
so one seed replays a whole sequence of episodes. The bots are seeded from the
game seed and their seat.

**Scaled observations.** ``normalize=True`` divides every value by its largest
possible one (:attr:`~pastiche_core.rl.observation.ObservationEncoder.high`, the
fields' known bounds), so the observation space is ``Box(0, 1)``.

>>> from pastiche_core.rl.single import PasticheGymEnv
>>> env = PasticheGymEnv(players=3, opponents="random", seat=2)
>>> observation, info = env.reset(seed=7)
>>> observation.shape, int(info["action_mask"].sum()), env.game.to_move
((1541,), 4, 2)
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated, env.game.to_move
(0.0, False, 2)
>>> env.action_space.sample(mask=info["action_mask"]) in info["action_mask"].nonzero()[0]
True
"""

from __future__ import annotations

from typing import Any, SupportsIndex, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..engine.rules import Rules
from .encoding import action_index
from .episode import (
    BACKENDS,
    ILLEGAL_MODES,
    PENALTY,
    RENDER_MODES,
    EnginePathWarning,
    Episode,
    Settings,
    observation_space,
    scale_of,
    warn_engine_path,
)
from .vector import one_game

__all__ = [
    "BACKENDS",
    "ILLEGAL_MODES",
    "PENALTY",
    "RENDER_MODES",
    "EnginePathWarning",
    "Episode",
    "PasticheGymEnv",
    "Settings",
    "observation_space",
    "scale_of",
    "warn_engine_path",
]


class PasticheGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Pastiche for one learning seat as a :class:`gymnasium.Env` (see the module docstring).

    The options are those of :func:`pastiche_core.gymnasium.env`.

    >>> env = PasticheGymEnv(players=4, opponents=["random", "greedy", "random"])
    >>> env.action_space, env.observation_space.shape
    (Discrete(357), (1716,))
    >>> PasticheGymEnv(opponents="nobody")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: opponents must be a bot name (random, greedy, search), a callable or a list of 3 of them, got 'nobody'
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 - gymnasium's convention
    """gymnasium's metadata: the render modes (``'ansi'``, ``'human'``)."""

    def __init__(
        self,
        players: int = 4,
        catalogue: str | Catalogue = "default",
        opponents: object = "random",
        seat: int | None = None,
        illegal: str = "penalty",
        normalize: bool = False,
        render_mode: str | None = None,
        rules: Rules | None = None,
    ) -> None:
        settings = Settings.of(
            players, catalogue, opponents, seat, illegal, normalize, render_mode, rules
        )
        self.settings = settings
        """The checked options."""
        warn_engine_path(settings)
        self._episode, backend = one_game(settings)
        self.backend = backend
        """What plays the games (:data:`BACKENDS`): ``'compiled'`` when every other seat is a
        random bot and the kernels are built, whatever the render mode."""
        self.render_mode = render_mode
        """``None``, ``'ansi'`` (:meth:`render` returns text) or ``'human'`` (it prints at
        :meth:`reset` and at every step that completes a move or ends the episode: once per
        decision of the learner, not once per atomic action)."""
        self.space = self._episode.space
        """The atomic action layout; the action space is ``Discrete(space.size)``."""
        self.encoder = self._episode.encoder
        """The observation layout."""
        self.action_space = gymnasium.spaces.Discrete(self.space.size)
        """``Discrete(space.size)``: one atomic action per step."""
        self.observation_space = cast(
            "gymnasium.spaces.Space[npt.NDArray[np.float32]]",
            observation_space(self.encoder, normalize),
        )
        """``Box(0, encoder.high)``, or ``Box(0, 1)`` with ``normalize=True``."""
        self._scale = scale_of(self.encoder) if normalize else None
        self._mask = np.zeros(self.space.size, dtype=bool)
        self._observation = np.zeros(self.encoder.size, dtype=np.float32)
        self._started = False

    @property
    def episode(self) -> Episode:
        """The game in progress as an :class:`Episode`, when the engine plays it (``backend``
        not ``'compiled'``); the compiled games tell of it through :attr:`game`.

        >>> PasticheGymEnv(players=3, opponents="greedy").episode.seat
        0
        """
        episode = self._episode
        if not isinstance(episode, Episode):
            raise InvalidArgumentError(
                "the game is played packed by the compiled kernels (every other seat a random "
                "bot): read game, seat and action_masks()"
            )
        return episode

    @property
    def game(self) -> Game:
        """The game being played (a spectator's object: it holds every hand); with the
        compiled games, a copy rebuilt from the packed state, without history."""
        return self._episode.game

    @property
    def moves(self) -> int:
        """The moves played in the current game so far, every seat's.

        >>> game_env = PasticheGymEnv(players=3, seat=2)
        >>> _ = game_env.reset(seed=7); game_env.moves  # seat 2 keeps first
        0
        """
        return self._episode.moves

    @property
    def seat(self) -> int:
        """The learner's seat in the current game."""
        return self._episode.seat

    def _observe(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        observation = np.empty(self.encoder.size, dtype=np.float32)
        self._episode.write_observation(observation)
        if self._scale is not None:
            np.multiply(observation, self._scale, out=observation)
        self._observation = observation
        mask = np.zeros(self.space.size, dtype=bool)
        self._episode.write_mask(mask)
        self._mask = mask
        return observation, {"action_mask": mask.astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play the other seats up to the learner's first decision.

        >>> env = PasticheGymEnv(players=3, opponents="random", seat=2)
        >>> observation, info = env.reset(seed=7)
        >>> env.game.seed, env.game.to_move
        (7, 2)
        """
        super().reset(seed=seed)
        self._episode.reset(self.np_random, seed)
        self._started = True
        result = self._observe()
        if self.render_mode == "human":
            self.render()
        return result

    def step(
        self, action: SupportsIndex
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play one atomic action for the learner (see the module docstring).

        >>> env = PasticheGymEnv(players=3, opponents="random", seat=2, illegal="penalty")
        >>> observation, info = env.reset(seed=7)
        >>> _, reward, terminated, truncated, info = env.step(0)  # draw, at setup
        >>> reward, terminated, info["illegal"]
        (-1.0, True, True)
        """
        episode = self._episode
        if not self._started or episode.over:
            raise InvalidArgumentError("the episode is over: call reset() before step()")
        moves = episode.moves
        # Only the learner's action is penalized, read from the mask already held: an
        # opponent's illegal move (a policy's bug) raises in either mode.
        index = action_index(action, self.space.size)
        if self.settings.illegal == "raise" or (index >= 0 and self._mask[index]):
            reward, terminated = episode.step(action)
        else:
            episode.over = True
            mask = np.zeros(self.space.size, dtype=bool)
            self._mask = mask
            info: dict[str, Any] = {"action_mask": mask.astype(np.int8), "illegal": True}
            return self._observation.copy(), PENALTY, True, False, info
        observation, info = self._observe()
        if terminated:
            game = episode.game
            info["scores"] = game.scores()
            info["winners"] = game.winners()
        if self.render_mode == "human" and (terminated or episode.moves != moves):
            self.render()  # once per decision, not at every atomic action
        return observation, reward, terminated, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, one boolean per action (sb3-contrib's
        ``MaskablePPO`` reads it); all ``False`` once the episode is over.

        >>> env = PasticheGymEnv(players=3, opponents="random", seat=2)
        >>> _ = env.reset(seed=7)
        >>> env.action_masks().nonzero()[0].tolist()
        [4, 28, 29, 43]
        """
        return self._mask

    def render(self) -> str | None:
        """The learner's view as text (``'ansi'``), printed (``'human'``), else ``None``.

        >>> env = PasticheGymEnv(players=3, opponents="random", seat=2, render_mode="ansi")
        >>> _ = env.reset(seed=7)
        >>> print(env.render().splitlines()[1])
        player 2 of 3, turn 0, keep: player 2 to move
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        text = self._episode.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
