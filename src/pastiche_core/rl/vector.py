"""A gymnasium vector environment: ``num_envs`` single-agent games stepped together.

:class:`PasticheVectorEnv` steps ``num_envs`` games of
:class:`~pastiche_core.rl.single.PasticheGymEnv` at once, with the same options
and the same episodes: game ``i`` of ``reset(seed=s)`` is the single
environment's ``reset(seed=s + i)``. It returns batched NumPy arrays:
observations ``(num_envs, encoder.size)`` (``float32``), rewards (``float64``),
terminations and truncations (``bool``); :meth:`PasticheVectorEnv.action_masks`
gives the masks, ``(num_envs, space.size)`` booleans.

**Autoreset** is gymnasium's default, ``AutoresetMode.NEXT_STEP``, unless
``autoreset_mode`` says otherwise (:mod:`~pastiche_core.rl.vector_autoreset`): the step
that ends game ``i`` returns its last observation (reward, ``terminated=True``)
and deals game ``i`` anew, so its mask is already the new game's (a row always
has a legal action); the next step ignores its action and returns the new game's
first observation with reward 0. With ``SAME_STEP`` that step returns the new game's
first observation, the last one in ``infos["final_obs"]`` and the ended game's info in
``infos["final_info"]``; with ``DISABLED`` the game stays over until
``reset(options={"reset_mask": mask})`` deals it. A new game's seed is drawn from game
``i``'s own generator, seeded ``s + i`` by ``reset(seed=s)``.

**Infos**, merged as ``SyncVectorEnv`` merges the single environment's:
``infos["action_mask"]``, every game's mask as ``int8`` (``(num_envs, space.size)``,
what ``action_space.sample(mask=...)`` takes) with ``infos["_action_mask"]``; at the
step that ends a game, ``infos["scores"]`` and ``infos["winners"]`` (each row a tuple,
``None`` for a game that did not end) with ``_scores`` and ``_winners`` marking the
games that ended; ``illegal`` and ``_illegal`` when an action was penalized.

**Where the time goes.** Each step writes every observation into its row of one
preallocated batch and the masks into one preallocated array, and makes no dict per game (the infos' arrays are made once a
step). When every other seat is a random bot, rendered or not, the games are played
packed by the compiled ``episodes`` kernel (``csrc/episode.c``, the twin of
:class:`_PythonEpisodes`; the text is made from the packed state, :func:`packed_text`);
else each is an :class:`~pastiche_core.rl.single.Episode` stepped by the engine, and
:attr:`PasticheVectorEnv.episodes` holds them (:attr:`PasticheVectorEnv.backend` says which).
The single environment plays its game as one of these (:class:`PackedEpisode`, :func:`one_game`).

>>> from pastiche_core.rl.vector import PasticheVectorEnv
>>> envs = PasticheVectorEnv(3, players=3, opponents="random")
>>> observations, infos = envs.reset(seed=7)
>>> observations.shape, envs.action_masks().shape
((3, 1541), (3, 357))
>>> actions = [int(row.nonzero()[0][0]) for row in envs.action_masks()]
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.tolist(), terminations.tolist(), sorted(infos), infos["action_mask"].dtype
([0.0, 0.0, 0.0], [False, False, False], ['_action_mask', 'action_mask'], dtype('int8'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..bots.play import packed_catalogue
from ..bots.simulate import ENDINGS
from ..data.cards import Card
from ..data.catalogue import Catalogue
from ..data.errors import IllegalMoveError, InvalidArgumentError
from ..engine._kernels import kernel
from ..engine.game import Game
from ..engine.game_internals import insides
from ..engine.layout import packed_rules
from ..engine.rules import Rules
from .encoding import ActionSpace, Stage, action_index, illegal_action
from .episode import (
    PENALTY,
    RENDER_MODES,
    Episode,
    Settings,
    observation_space,
    scale_of,
    warn_engine_path,
)
from .observation import PHASES, ObservationEncoder
from .opponents import opponent_seeds
from .vector_autoreset import autoreset_mode_of, reset_mask_of
from .vector_state import State, game_of, packed_text

__all__ = ["PackedEpisode", "PasticheVectorEnv", "State", "game_of", "one_game", "packed_text"]


class _PythonEpisodes:
    """The games of a vector environment, each an :class:`~pastiche_core.rl.single.Episode`:
    the ``episodes`` kernel's Python rule (its compiled twin, ``csrc/episode.c``, plays the
    same games packed when every other seat is a random bot).

    The arguments after ``settings`` pack the settings for the twin (this rule reads
    ``settings`` alone): the number of games, the catalogue and the rules as
    :func:`~pastiche_core.bots.play.random_game` packs them, the players, whether the games may be
    packed, the encoder's layout (its fields, size, decision fields and Novel slots) and the
    action space's size. The methods play the games as the vector environment asks:

    >>> settings = Settings.of(players=3, opponents="random", seat=0)
    >>> games = _PythonEpisodes(settings, 2, *_packed_settings(settings))
    >>> raw = np.zeros((2, 1541), dtype=np.float32)
    >>> games.deal(0, 7, 0, (None, 1, 2), raw); games.deal(1, 8, 0, (None, 3, 4), raw)
    >>> games.over(0), games.first_illegal([2, 2])  # a pass, with cards to draw: not legal
    (False, (0, 0, 1, 0))
    """

    def __init__(self, settings: Settings, count: int, *packed: object) -> None:
        self.episodes = [Episode(settings) for _ in range(count)]
        """The games."""

    def deal(
        self,
        index: int,
        seed: int,
        seat: int,
        opponent_seeds: Sequence[int | None],
        raw: npt.NDArray[np.float32],
    ) -> None:
        """Game ``index`` dealt anew (its bots seeded as :meth:`Opponents.deal
        <pastiche_core.rl.opponents.Opponents.deal>` seeds them), its observation written."""
        episode = self.episodes[index]
        episode.deal(seed, seat)
        episode.write_observation(raw[index])

    def first_illegal(self, actions: Sequence[int]) -> tuple[int, int, int, int] | None:
        """The first game not over whose action (an index, -1 for none) is not legal, with
        its learner's seat, phase and stage, or ``None``."""
        for index, (episode, action) in enumerate(zip(self.episodes, actions, strict=True)):
            if episode.over:
                continue
            builder = episode.builder
            if action < 0 or not builder.is_legal(action):
                phase = PHASES.index(builder.view.phase)
                return index, episode.seat, phase, int(builder.stage)
        return None

    def step(
        self,
        actions: Sequence[int],
        skip: Sequence[int],
        raw: npt.NDArray[np.float32],
        rewards: npt.NDArray[np.float64],
        terminations: npt.NDArray[np.bool_],
        penalty: bool,
    ) -> list[int]:
        """One action in every game not over and not in ``skip``; the games penalized."""
        penalized: list[int] = []
        skipped = set(skip)
        for index, (episode, action) in enumerate(zip(self.episodes, actions, strict=True)):
            if episode.over or index in skipped:
                continue
            try:
                rewards[index], terminations[index] = episode.step(action)
            except IllegalMoveError:
                if not penalty:
                    raise
                episode.over = True
                rewards[index] = PENALTY
                terminations[index] = True
                penalized.append(index)
                continue  # the observation stays the last one
            episode.write_observation(raw[index])
        return penalized

    def write_masks(self, masks: npt.NDArray[np.bool_]) -> None:
        """Every game's legal actions (a row of ``False`` once over)."""
        flat = masks.reshape(-1)
        flat.fill(False)
        size = masks.shape[1]
        where: list[int] = []
        for index, episode in enumerate(self.episodes):
            if not episode.over:
                base = index * size
                where += [base + action for action in episode.builder.legal_actions()]
        flat[where] = True

    def over(self, index: int) -> bool:
        """Whether game ``index`` has ended."""
        return self.episodes[index].over

    def moves(self, index: int) -> int:
        """The moves played in game ``index`` so far, every seat's."""
        return self.episodes[index].moves

    def state(self, index: int) -> State:
        """Game ``index``'s state, as :data:`State` lays it out."""
        game = self.episodes[index].game
        inside = insides(game)
        at = {spec.id: where for where, spec in enumerate(game.catalogue.publishable)}
        supply = game.supply
        ending = inside.end_reason
        return (
            inside.rng_state,
            _indexes(inside.deck),
            _indexes(game.discard),
            _indexes(sorted(inside.face_down)),
            tuple(_indexes(game.hand(seat)) for seat in range(game.players)),
            tuple(
                tuple((at[novel.novel], _indexes(novel.cards)) for novel in game.table(seat))
                for seat in range(game.players)
            ),
            tuple(supply[novel] for novel in at),
            None if inside.flag is None else (inside.flag[0], inside.flag[1].index),
            PHASES.index(game.phase),
            game.to_move,
            inside.current,
            None if inside.pending is None else (inside.pending[0].index, inside.pending[1].index),
            game.turn,
            inside.passes,
            inside.trigger,
            inside.turns_left,
            0 if ending is None else ENDINGS.index(ending) + 1,
        )


def _indexes(cards: Iterable[Card]) -> tuple[int, ...]:
    return tuple(card.index for card in cards)


_episodes = kernel("episodes", _PythonEpisodes)
"""The games of a vector environment (compiled when every other seat is a random bot)."""


class PackedEpisode:
    """One game played packed by a one-game ``episodes`` kernel, with the interface of
    :class:`~pastiche_core.rl.single.Episode` that the single environment steps: the same
    deals, observations, masks, rewards and errors (the vector environment's games are
    these, many at once).

    >>> settings = Settings.of(players=3, seat=2)
    >>> compiled = _episodes(settings, 1, *_packed_settings(settings))
    >>> episode = PackedEpisode(settings, compiled)
    >>> episode.reset(np.random.default_rng(0), seed=7)
    >>> episode.game.to_move, len(episode.legal_actions()), episode.over
    (2, 4, False)
    """

    __slots__ = (
        "_games",
        "_masks",
        "_raw",
        "_rewards",
        "_terminations",
        "encoder",
        "over",
        "seat",
        "seed",
        "settings",
        "space",
    )

    def __init__(self, settings: Settings, games: _PythonEpisodes) -> None:
        self.settings = settings
        """The environment's options."""
        self.space = ActionSpace(settings.catalogue)
        """The atomic action layout."""
        self.encoder = ObservationEncoder(settings.players, settings.catalogue)
        """The observation layout."""
        self._games = games
        self._raw = np.zeros((1, self.encoder.size), dtype=np.float32)
        self._masks = np.zeros((1, self.space.size), dtype=bool)
        self._rewards = np.zeros(1, dtype=np.float64)
        self._terminations = np.zeros(1, dtype=bool)
        self.seat = 0 if settings.seat is None else settings.seat
        """The learner's seat in this game."""
        self.seed = 0
        """The seed this game was dealt with."""
        self.over = True
        """Whether the episode has ended (as :attr:`Episode.over
        <pastiche_core.rl.single.Episode.over>`)."""

    def reset(self, rng: np.random.Generator, seed: int | None = None) -> None:
        """Deal the next game, as :meth:`Episode.reset <pastiche_core.rl.single.Episode.reset>`.

        >>> episode = _packed(Settings.of(players=3))
        >>> episode.reset(np.random.default_rng(1), seed=9); episode.seed
        9
        """
        self.deal(*self.settings.next_deal(rng, seed))

    def deal(self, seed: int, seat: int) -> None:
        """Deal ``Game(players, seed)`` with the learner at ``seat``, the other seats' random
        bots seeded as :meth:`~pastiche_core.rl.opponents.Opponents.deal` seeds them.

        >>> episode = _packed(Settings.of(players=3))
        >>> episode.deal(9, 2); episode.seat, episode.game.to_move
        (2, 2)
        """
        opponents = opponent_seeds(seed, self.settings.players, seat)
        self._games.deal(0, seed, seat, opponents, self._raw)
        self.seat, self.seed = seat, seed
        self.over = bool(self._games.over(0))

    @property
    def game(self) -> Game:
        """A copy of the game as it stands, without its history (:func:`game_of`).

        >>> episode = _packed(Settings.of(players=3)); episode.deal(9, 2)
        >>> episode.game.seed, len(episode.game.history)
        (9, 0)
        """
        settings = self.settings
        return game_of(
            self._games.state(0), settings.players, self.seed, settings.catalogue, settings.rules
        )

    @property
    def moves(self) -> int:
        """The moves played in this game so far, every seat's.

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2); episode.moves
        0
        """
        return int(self._games.moves(0))

    def legal_actions(self) -> list[int]:
        """The learner's legal actions now (none once the episode is over).

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2)
        >>> episode.legal_actions()
        [4, 28, 29, 43]
        """
        if self.over:
            return []
        self._games.write_masks(self._masks)
        return [int(index) for index in np.flatnonzero(self._masks[0])]

    def step(self, action: object) -> tuple[float, bool]:
        """Play one atomic action, as :meth:`Episode.step <pastiche_core.rl.single.Episode.step>`:
        an illegal action raises :class:`~pastiche_core.data.errors.IllegalMoveError` and
        changes nothing.

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2)
        >>> episode.step(0)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: atomic action 'draw' is not legal now (player 2, keep, start)
        >>> episode.step(4)
        (0.0, False)
        """
        if self.over:
            raise InvalidArgumentError("the episode is over: call reset() before step()")
        games = self._games
        index = action_index(action, self.space.size)
        found = games.first_illegal([index])
        if found is not None:
            _, player, phase, stage = found
            raise IllegalMoveError(
                illegal_action(self.space, action, player, PHASES[phase], Stage(stage))
            )
        rewards, terminations = self._rewards, self._terminations
        games.step([index], (), self._raw, rewards, terminations, False)
        self.over = bool(terminations[0])
        return float(rewards[0]), self.over

    def write_observation(self, out: npt.NDArray[np.float32]) -> None:
        """Write the learner's observation into ``out``.

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2)
        >>> row = np.empty(episode.encoder.size, dtype=np.float32)
        >>> episode.write_observation(row); int(row[episode.encoder.slice("hand")].sum())
        4
        """
        out[:] = self._raw[0]

    def write_mask(self, out: npt.NDArray[np.bool_]) -> None:
        """Write the learner's legal actions into ``out`` (all ``False`` once over).

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2)
        >>> row = np.empty(episode.space.size, dtype=bool)
        >>> episode.write_mask(row); int(row.sum())
        4
        """
        if self.over:
            out.fill(False)
            return
        self._games.write_masks(self._masks)
        out[:] = self._masks[0]

    def text(self) -> str:
        """The learner's view as text (:func:`packed_text`).

        >>> episode = _packed(Settings.of(players=3)); episode.deal(7, 2)
        >>> print(episode.text().splitlines()[0])
        learner: player 2
        """
        return packed_text(self.encoder, self.game, self.seat, self._raw[0])


def _packed(settings: Settings) -> PackedEpisode:
    """A :class:`PackedEpisode` for ``settings`` (the examples'; over the Python twin when the
    kernels are not built)."""
    return PackedEpisode(settings, _episodes(settings, 1, *_packed_settings(settings)))


def one_game(settings: Settings) -> tuple[Episode | PackedEpisode, str]:
    """The single environment's game and its backend (:data:`~pastiche_core.rl.single.BACKENDS`):
    packed when every other seat is a random bot and the kernels are built, else an
    :class:`~pastiche_core.rl.single.Episode`.

    >>> episode, backend = one_game(Settings.of(players=3, opponents="greedy"))
    >>> type(episode).__name__, backend
    ('Episode', 'engine')
    """
    if not settings.opponents.packable:
        return Episode(settings), "engine"
    games = _episodes(settings, 1, *_packed_settings(settings))
    if isinstance(games, _PythonEpisodes):
        return games.episodes[0], "python twin"
    return PackedEpisode(settings, games), "compiled"


def _packed_settings(
    settings: Settings,
    encoder: ObservationEncoder | None = None,
    space: ActionSpace | None = None,
) -> tuple[object, ...]:
    """The ``episodes`` kernel's arguments after the settings and the number of games:
    ``settings`` packed, with ``encoder`` and ``space`` (made for the settings if not given)."""
    if encoder is None:
        encoder = ObservationEncoder(settings.players, settings.catalogue)
    if space is None:
        space = ActionSpace(settings.catalogue)
    plan, positions, copies, flag_points = packed_catalogue(settings.catalogue)
    packed = settings.opponents.packable  # rendered from the packed state too
    return (
        plan,
        positions,
        copies,
        flag_points,
        packed_rules(settings.rules),
        settings.players,
        packed,
        encoder.layout(),
        encoder.size,
        encoder.decision_fields(),
        encoder.slots(),
        space.size,
    )


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
    pastiche_core.data.errors.InvalidArgumentError: num_envs must be a positive integer, got 0
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium's convention
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": list(RENDER_MODES),
    }
    """gymnasium's metadata: the autoreset mode (the class's ``NEXT_STEP``; an instance's
    says its own :attr:`autoreset_mode`) and the render modes."""

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        catalogue: str | Catalogue = "default",
        opponents: object = "random",
        seat: int | None = None,
        illegal: str = "penalty",
        normalize: bool = False,
        render_mode: str | None = None,
        rules: Rules | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        mode = autoreset_mode_of(autoreset_mode)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be a positive integer, got {num_envs!r}")
        settings = Settings.of(
            players, catalogue, opponents, seat, illegal, normalize, render_mode, rules
        )
        self.settings = settings
        """The checked options, shared by every game."""
        self.autoreset_mode = mode
        """What a game that ends becomes (:mod:`~pastiche_core.rl.vector_autoreset`)."""
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.num_envs = num_envs
        """The number of games stepped together."""
        self.render_mode = render_mode
        """``None``, ``'ansi'`` (:meth:`render` returns a text per game) or ``'human'``."""
        self.space = ActionSpace(settings.catalogue)
        """The atomic action layout; each game's action space is ``Discrete(space.size)``."""
        self.encoder = ObservationEncoder(settings.players, settings.catalogue)
        """The observation layout."""
        warn_engine_path(settings)
        packed = _packed_settings(settings, self.encoder, self.space)
        self._games: _PythonEpisodes = _episodes(settings, num_envs, *packed)
        self._seeds: list[int] = [0] * num_envs
        self._seats: list[int] = [0] * num_envs
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
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=bool)
        self._truncations = np.zeros(num_envs, dtype=bool)
        self._rngs: list[np.random.Generator] | None = None
        self._pending = np.zeros(num_envs, dtype=bool)  # dealt anew, shown at the next step
        self._ended = np.zeros(num_envs, dtype=bool)  # DISABLED: over until reset_mask deals it
        self._penalty = settings.illegal == "penalty"
        self._started = False

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every game anew: game ``i`` with seed ``seed + i`` (or ``seed[i]``; ``None``
        draws it from game ``i``'s generator). ``options={"reset_mask": mask}`` deals only the
        games where ``mask`` (``bool``, shape ``(num_envs,)``) is ``True``, with the same seeds,
        in any autoreset mode; the others keep their games, and the infos tell of the games
        dealt only, as ``SyncVectorEnv``'s do. Any other option is refused.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=0)
        >>> _ = envs.reset(seed=5)
        >>> [envs.game_seed(index) for index in range(2)]
        [5, 6]
        >>> _, infos = envs.reset(seed=9, options={"reset_mask": np.array([False, True])})
        >>> [envs.game_seed(index) for index in range(2)], infos["_action_mask"].tolist()
        ([5, 10], [False, True])
        """
        mask = reset_mask_of(options, self.num_envs)  # checked first: a refusal changes nothing
        if mask is not None and not self._started:
            raise InvalidArgumentError("options['reset_mask'] needs games: call reset() first")
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
        super().reset(seed=seed if isinstance(seed, int) else None)
        rngs = self._rngs
        if rngs is None:
            rngs = self._rngs = [np.random.default_rng() for _ in range(count)]
        dealt = np.ones(count, dtype=bool) if mask is None else mask
        for index in np.flatnonzero(dealt).tolist():
            each = seeds[index]
            if each is not None:
                rngs[index] = gymnasium.utils.seeding.np_random(each)[0]
            self._deal(index, each)
        for flags in (self._terminations, self._truncations, self._pending, self._ended):
            flags[dealt] = False
        self._rewards[dealt] = 0.0
        self._write_masks()
        self._started = True
        infos = self._with_masks({})
        if mask is not None:  # as SyncVectorEnv merges the infos of the games reset alone
            infos["action_mask"][~mask] = 0
            infos["_action_mask"] = mask
        return self._observations(), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play one atomic action in every game; a game that ended is dealt anew as
        :attr:`autoreset_mode` says (see the module docstring). With ``DISABLED``, stepping
        while a game that ended is not dealt again is refused, as ``SyncVectorEnv`` refuses it.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", illegal="penalty")
        >>> _ = envs.reset(seed=7)
        >>> _, rewards, terminations, _, infos = envs.step([0, 0])  # draw, at setup
        >>> rewards.tolist(), terminations.tolist(), infos["illegal"].tolist()
        ([-1.0, -1.0], [True, True], [True, True])
        """
        if not self._started:
            raise InvalidArgumentError("call reset() before step()")
        if self._ended.any():
            raise InvalidArgumentError(
                f"games {np.flatnonzero(self._ended).tolist()} ended and autoreset_mode is "
                "Disabled: deal them with reset(options={'reset_mask': ...}) before step()"
            )
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"actions must hold one action per game, shape ({self.num_envs},), "
                f"got {chosen.shape}"
            )
        games, size = self._games, self.space.size
        values = chosen.tolist()
        indexes = [action_index(value, size) for value in values]
        for index in np.flatnonzero(self._pending).tolist():  # ignored: any action will do
            indexes[index] = int(self._masks[index].argmax())
        if not self._penalty:  # checked first: an illegal action changes no game
            found = games.first_illegal(indexes)
            if found is not None:
                index, player, phase, stage = found
                raise IllegalMoveError(
                    illegal_action(self.space, values[index], player, PHASES[phase], Stage(stage))
                )
        rewards, terminations = self._rewards, self._terminations
        dealt = np.flatnonzero(self._pending).tolist()
        for index in dealt:  # NEXT_STEP: dealt when it ended; this step ignores its action
            rewards[index] = 0.0
            terminations[index] = False
        penalized = games.step(indexes, dealt, self._raw, rewards, terminations, self._penalty)
        observations = self._observations()  # before the games that ended are dealt anew
        infos: dict[str, Any] = {}
        if penalized:
            illegal = np.zeros(self.num_envs, dtype=bool)
            illegal[penalized] = True
            infos = {"illegal": illegal, "_illegal": illegal.copy()}
        self._pending.fill(False)
        mode = self.autoreset_mode
        if mode is AutoresetMode.SAME_STEP:
            infos = {}  # the ended games' infos go into final_info, as SyncVectorEnv's
        for index in np.flatnonzero(terminations).tolist():
            if index in penalized:
                info: dict[str, Any] = {"illegal": True}
            else:  # a finished game: its scores, as the single env's info
                game = self.game(index)
                info = {"scores": game.scores(), "winners": game.winners()}
            if mode is AutoresetMode.SAME_STEP:
                ended = {"action_mask": np.zeros(self.space.size, dtype=np.int8), **info}
                self._add_info(
                    infos, {"final_obs": observations[index], "final_info": ended}, index
                )
            elif index not in penalized:
                self._add_info(infos, info, index)
            if mode is AutoresetMode.DISABLED:
                self._ended[index] = True
                continue
            # dealt now, so that the row's mask is the new game's: an autoreset row always
            # has a legal action (with NEXT_STEP, its action is ignored at the next step)
            self._deal(index, None)
            self._pending[index] = mode is AutoresetMode.NEXT_STEP
        if mode is AutoresetMode.SAME_STEP and terminations.any():
            observations = self._observations()  # the new games' first observations
        self._write_masks()
        return (
            observations,
            rewards.copy(),
            terminations.copy(),
            self._truncations.copy(),
            self._with_masks(infos),
        )

    def _with_masks(self, infos: dict[str, Any]) -> dict[str, Any]:
        """``infos`` with every game's mask, ``int8`` (gymnasium's sampler takes it), under
        ``action_mask`` with its ``_action_mask`` presence mask, as ``SyncVectorEnv`` merges them."""
        infos["action_mask"] = self._masks.astype(np.int8)
        infos["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        return infos

    def _deal(self, index: int, seed: int | None) -> None:
        """Deal game ``index`` anew: ``seed``, or one drawn from the game's generator."""
        rngs = self._rngs
        assert rngs is not None
        game_seed, seat = self.settings.next_deal(rngs[index], seed)
        opponents = opponent_seeds(game_seed, self.settings.players, seat)
        self._games.deal(index, game_seed, seat, opponents, self._raw)
        self._seeds[index] = game_seed
        self._seats[index] = seat

    def _observations(self) -> npt.NDArray[np.float32]:
        """The batch handed out: a new array (scaled when normalizing)."""
        scale = self._scale
        if scale is None:
            return self._raw.copy()
        return np.multiply(self._raw, scale)

    def _write_masks(self) -> None:
        """Every game's mask, written into the one preallocated array (a game that ended
        and waits for ``reset_mask`` has none)."""
        self._games.write_masks(self._masks)
        if self._ended.any():
            self._masks[self._ended] = False

    @property
    def backend(self) -> str:
        """What plays the games (:data:`~pastiche_core.rl.single.BACKENDS`): ``'compiled'``,
        ``'python twin'`` or ``'engine'``.

        >>> PasticheVectorEnv(2, players=3, opponents="random", render_mode="ansi").backend in (
        ...     "compiled", "python twin")
        True
        """
        if not isinstance(self._games, _PythonEpisodes):
            return "compiled"
        return "python twin" if self.settings.opponents.packable else "engine"

    @property
    def episodes(self) -> list[Episode]:
        """The games as :class:`~pastiche_core.rl.single.Episode` objects, each seen from its
        learner's seat, when the engine plays them (other seats that are not all random
        bots, or no compiled kernels): with random bots alone the compiled kernels play them
        packed, and :meth:`game`, :meth:`game_seed`, :meth:`game_over` and
        :meth:`game_moves` tell of them.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="greedy", seat=0)
        >>> _ = envs.reset(seed=5); envs.episodes[1].game.seed
        6
        """
        games = self._games
        if not isinstance(games, _PythonEpisodes):
            raise InvalidArgumentError(
                "the games are played packed by the compiled kernels (every other seat a "
                "random bot): read game(), game_seed(), game_over() and game_moves()"
            )
        return games.episodes

    def game_seed(self, index: int) -> int:
        """The seed game ``index`` was dealt with.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random")
        >>> _ = envs.reset(seed=5); envs.game_seed(1)
        6
        """
        return self._seeds[index]

    def game_over(self, index: int) -> bool:
        """Whether game ``index`` has ended; :meth:`step` deals a game that ends anew at
        once (its mask is then the new game's), so between steps this is ``False``, but with
        autoreset ``DISABLED``, where the game stays over until ``reset_mask`` deals it.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random")
        >>> _ = envs.reset(seed=5); envs.game_over(0)
        False
        """
        return bool(self._games.over(index))

    def game(self, index: int) -> Game:
        """A copy of game ``index`` as it stands, without its history (a spectator's object:
        it holds every hand), whoever plays the games.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=0)
        >>> _ = envs.reset(seed=5); game = envs.game(1)
        >>> game.seed, game.to_move, len(game.history)
        (6, 0, 0)
        """
        settings = self.settings
        return game_of(
            self._games.state(index),
            settings.players,
            self._seeds[index],
            settings.catalogue,
            settings.rules,
        )

    def game_moves(self, index: int) -> int:
        """The moves played in game ``index`` so far, every seat's.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=2)
        >>> _ = envs.reset(seed=7); envs.game_moves(0)  # seat 2 keeps first
        0
        """
        return int(self._games.moves(index))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game, ``(num_envs, space.size)`` booleans (a copy);
        on the step that ends a game, its row is the next game's (it is dealt then).

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=2)
        >>> _ = envs.reset(seed=7)
        >>> envs.action_masks().sum(axis=1).tolist()
        [4, 4]
        """
        return self._masks.copy()

    def redeal(self, index: int) -> None:
        """Start game ``index``'s next game now rather than at the next step: the same-step
        autoreset that Stable-Baselines3's ``VecEnv`` expects. A game that just ended was dealt
        anew already (its seed drawn from its own generator), so its next action is played, not
        ignored; any other game is dealt anew now. Its reward and termination are cleared; read
        the new game from :meth:`action_masks` and :meth:`observations`.

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random", seat=0)
        >>> _ = envs.reset(seed=5); envs.redeal(1); envs.game_seed(1) != 6
        True
        """
        if not self._started:
            raise InvalidArgumentError("call reset() before redeal()")
        if not 0 <= index < self.num_envs:
            raise InvalidArgumentError(
                f"index must be a game of 0..{self.num_envs - 1}, got {index}"
            )
        if self._pending[index]:
            self._pending[index] = False  # dealt as it ended: it starts now
        else:
            self._ended[index] = False
            self._deal(index, None)
            self._write_masks()
        self._rewards[index] = 0.0
        self._terminations[index] = False

    def observations(self) -> npt.NDArray[np.float32]:
        """Every game's current observation, as :meth:`step` would return it (a new array).

        >>> envs = PasticheVectorEnv(2, players=3, opponents="random")
        >>> first, _ = envs.reset(seed=5); bool((envs.observations() == first).all())
        True
        """
        return self._observations()

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
        games = self._games
        if isinstance(games, _PythonEpisodes):
            texts = tuple(episode.text() for episode in games.episodes)
        else:
            texts = tuple(
                packed_text(self.encoder, self.game(index), self._seats[index], self._raw[index])
                for index in range(self.num_envs)
            )
        if self.render_mode == "human":
            print("\n\n".join(texts))
            return None
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
