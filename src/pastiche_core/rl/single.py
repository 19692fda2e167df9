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
sole winner, ``-1/(n - 1)`` for a loser. An illegal action raises
:class:`~pastiche_core.data.errors.IllegalMoveError` (``illegal="raise"``) or ends
the episode with reward -1 and ``info["illegal"] = True`` (``"penalty"``).

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

import warnings
from dataclasses import dataclass
from typing import Any, SupportsIndex, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from ..data._text import quote
from ..data.catalogue import Catalogue, load_catalogue
from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..engine.game_internals import apply_built
from ..engine.knowledge import Knowledge
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS, RULEBOOK, Rules, rules_of
from .aec import winner_returns
from .encoding import ActionSpace, MoveBuilder, action_index
from .observation import ObservationEncoder
from .opponents import Opponents, SeatPlayer, play_until

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

ILLEGAL_MODES = ("raise", "penalty")
"""What an illegal action does: raise :class:`~pastiche_core.data.errors.IllegalMoveError`,
or end the episode with reward -1."""

RENDER_MODES = ("ansi", "human")
"""The render modes: ``'ansi'`` returns the learner's view as text, ``'human'`` prints it."""

PENALTY = -1.0
"""The reward of an illegal action under ``illegal="penalty"``."""

BACKENDS = ("compiled", "python twin", "engine")
"""What plays an environment's games (its ``backend``): ``'compiled'``, the ``episodes``
kernel on packed games (every other seat a random bot); ``'python twin'``, the same games
when the compiled kernels are not built (``PASTICHE_PURE_PYTHON``, no C compiler), played by
the kernel's Python rule on the engine; ``'engine'``, where an option needs the engine (other
seats that are not all random bots)."""


class EnginePathWarning(UserWarning):
    """An option makes the engine play every step (``backend == 'engine'``), several times
    slower than the compiled games: issued once when such an environment is made."""


def warn_engine_path(settings: Settings, stacklevel: int = 3) -> None:
    """Warn (:class:`EnginePathWarning`) when the settings' opponents need the engine.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_engine_path(Settings.of(players=3, opponents="greedy"))
    >>> print(caught[0].message)
    opponents=['greedy', 'greedy'] makes the engine play every step (backend 'engine'); opponents='random' plays on the compiled games, several times as fast
    """
    opponents = settings.opponents
    if not opponents.packable:
        warnings.warn(
            EnginePathWarning(
                f"opponents={list(opponents.names)!r} makes the engine play every step "
                "(backend 'engine'); opponents='random' plays on the compiled games, "
                "several times as fast"
            ),
            stacklevel=stacklevel,
        )


def _choice(name: str, value: object, valid: tuple[object, ...]) -> None:
    """Refuse ``value`` unless it is one of ``valid``, naming the option and the values."""
    if not any(
        value is option or (type(value) is type(option) and value == option) for option in valid
    ):
        listed = ", ".join(repr(option) for option in valid)
        raise InvalidArgumentError(f"{name} must be one of {listed}, got {quote(value)}")


@dataclass(frozen=True)
class Settings:
    """The checked options of a single-agent or vector environment.

    :meth:`of` checks the options as :func:`pastiche_core.gymnasium.env` takes
    them; a bad one raises :class:`~pastiche_core.data.errors.InvalidArgumentError`
    naming it and its valid values.

    >>> Settings.of(players=3).opponents.names, Settings.of(players=3).illegal
    (('random', 'random'), 'penalty')
    >>> Settings.of(illegal="ignore")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: illegal must be one of 'raise', 'penalty', got 'ignore'
    """

    players: int
    """The number of seats, 3 to 5 (R10)."""
    catalogue: Catalogue
    """The catalogue every game is played with."""
    opponents: Opponents
    """Who plays the other seats."""
    seat: int | None
    """The learner's seat, or ``None`` to draw it at every reset."""
    illegal: str
    """``'raise'`` or ``'penalty'`` (:data:`ILLEGAL_MODES`)."""
    normalize: bool
    """Whether observations are scaled into [0, 1]."""
    render_mode: str | None
    """``None``, ``'ansi'`` or ``'human'``."""
    rules: Rules = RULEBOOK
    """The numbers every game is played by (R10–R12): the option, else the catalogue's
    ``[rules]`` table, else the rulebook."""

    def next_deal(self, rng: np.random.Generator, seed: int | None = None) -> tuple[int, int]:
        """The next game's seed (``seed``, or one drawn from ``rng``) and the learner's seat
        (the fixed one, or one drawn from ``rng``).

        >>> Settings.of(players=3, seat=1).next_deal(np.random.default_rng(0), seed=4)
        (4, 1)
        """
        game_seed = int(rng.integers(2**63)) if seed is None else seed
        seat = int(rng.integers(self.players)) if self.seat is None else self.seat
        return game_seed, seat

    @classmethod
    def of(
        cls,
        players: int = 4,
        catalogue: str | Catalogue = "default",
        opponents: object = "random",
        seat: int | None = None,
        illegal: str = "penalty",
        normalize: bool = False,
        render_mode: str | None = None,
        rules: Rules | None = None,
    ) -> Settings:
        """The options checked, with the catalogue loaded and the opponents resolved.

        ``rules`` are house rules (:class:`~pastiche_core.engine.rules.Rules`); without them
        the games follow the catalogue's ``[rules]`` table, or the rulebook.

        >>> Settings.of(players=6)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: players must be one of 3, 4, 5, got 6
        >>> Settings.of(players=3, seat=3)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: seat must be one of None, 0, 1, 2, got 3
        >>> Settings.of(players=3, rules=Rules(end_threshold=10)).rules.end_threshold
        10
        """
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules, got {quote(rules)}")
        _choice("players", players, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)))
        _choice("seat", seat, (None, *range(players)))
        _choice("illegal", illegal, ILLEGAL_MODES)
        _choice("normalize", normalize, (False, True))
        _choice("render_mode", render_mode, (None, *RENDER_MODES))
        if isinstance(catalogue, str):
            cat = load_catalogue(catalogue)
        elif isinstance(catalogue, Catalogue):
            cat = catalogue
        else:
            raise InvalidArgumentError(
                "catalogue must be a Catalogue, a shipped catalogue name or a TOML file, "
                f"got {quote(catalogue)}"
            )
        played = rules_of(cat, rules)
        _choice("players", players, tuple(range(played.min_players, played.max_players + 1)))
        return cls(
            players,
            cat,
            Opponents(opponents, players),
            seat,
            illegal,
            normalize,
            render_mode,
            played,
        )


class Episode:
    """One game seen from the learner's seat: the state both environments step.

    It writes the learner's observation and mask into rows the caller owns
    (:meth:`write_observation`, :meth:`write_mask`), so a vector environment
    fills its batch in place; the other seats are played by the engine directly.

    >>> episode = Episode(Settings.of(players=3, opponents="random", seat=1))
    >>> episode.reset(np.random.default_rng(0), seed=4)
    >>> episode.game.to_move, episode.seat, len(episode.legal_actions())
    (1, 1, 2)
    """

    __slots__ = (
        "_built_at",
        "builder",
        "encoder",
        "game",
        "knowledge",
        "moves",
        "over",
        "players",
        "seat",
        "settings",
        "space",
    )

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        """The environment's options."""
        self.space = ActionSpace(settings.catalogue)
        """The atomic action layout."""
        self.encoder = ObservationEncoder(settings.players, settings.catalogue)
        """The observation layout (one per game: it keeps the last view it encoded)."""
        self.game = Game(
            players=settings.players, seed=0, catalogue=settings.catalogue, rules=settings.rules
        )
        """The game being played (dealt anew by :meth:`reset`)."""
        self.seat = 0 if settings.seat is None else settings.seat
        """The learner's seat in this game."""
        self.players: list[SeatPlayer] = []
        """Who plays each seat in this game (``None`` for the learner's)."""
        self.knowledge = Knowledge.of(self.game, self.seat)
        """What the learner has seen of the cards (the observation's ``known_hands``)."""
        self.builder = MoveBuilder(self.space, self.game.view(self.game.to_move, history=False))
        """The learner's decision being built (a finished game's last builder once over)."""
        self.over = True
        """Whether the episode has ended (the game is over, or an illegal action was
        penalized); :meth:`reset` starts the next one."""
        self.moves = 0
        """The moves played in this game so far, every seat's."""
        self._built_at = -1

    def reset(self, rng: np.random.Generator, seed: int | None = None) -> None:
        """Deal the next game: ``Game(players, seed)``, or a seed drawn from ``rng``;
        the learner's seat is drawn from ``rng`` when the settings leave it open.

        >>> episode = Episode(Settings.of(players=3, opponents="random"))
        >>> episode.reset(np.random.default_rng(1), seed=9); episode.game.seed
        9
        """
        self.deal(*self.settings.next_deal(rng, seed))

    def deal(self, seed: int, seat: int) -> None:
        """Deal ``Game(players, seed)`` with the learner at ``seat``, played to their first
        decision.

        >>> episode = Episode(Settings.of(players=3, opponents="random"))
        >>> episode.deal(9, 2); episode.game.seed, episode.seat, episode.game.to_move
        (9, 2, 2)
        """
        settings = self.settings
        game = Game(
            players=settings.players, seed=seed, catalogue=settings.catalogue, rules=settings.rules
        )
        self.game = game
        self.seat = seat
        self.players = settings.opponents.deal(game, seat)
        self.knowledge = knowledge = Knowledge.of(game, seat)
        self.moves = play_until(game, self.players, seat, knowledge)
        self.over = False
        self._decide()

    def _decide(self) -> None:
        """The learner's next decision, or the end of the episode."""
        game = self.game
        if game.is_over:
            self.over = True
            return
        self.builder = MoveBuilder(self.space, game.view(self.seat, history=False))
        self._built_at = game.generation

    def legal_actions(self) -> list[int]:
        """The learner's legal actions now (none once the episode is over).

        >>> Episode(Settings.of(players=3)).legal_actions()
        []
        """
        return [] if self.over else self.builder.legal_actions()

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is one of the learner's legal actions now.

        >>> episode = Episode(Settings.of(players=3, seat=2))
        >>> episode.reset(np.random.default_rng(0), seed=7)
        >>> episode.is_legal(0), episode.is_legal(4), episode.is_legal("4")
        (False, True, False)
        """
        index = action_index(action, self.space.size)
        return not self.over and index >= 0 and self.builder.is_legal(index)

    def step(self, action: SupportsIndex) -> tuple[float, bool]:
        """Play one atomic action for the learner: (reward, whether the episode ended).

        An illegal action raises :class:`~pastiche_core.data.errors.IllegalMoveError`
        and changes nothing (the environments apply their ``illegal`` mode).

        >>> episode = Episode(Settings.of(players=3, opponents="random", seat=2))
        >>> episode.reset(np.random.default_rng(0), seed=7)
        >>> episode.step(0)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: atomic action 'draw' is not legal now (player 2, keep, start)
        """
        if self.over:
            raise InvalidArgumentError("the episode is over: call reset() before step()")
        move = self.builder.push(action)
        if move is None:
            return 0.0, False
        game, seat, knowledge = self.game, self.seat, self.knowledge
        apply_built(game, move, self._built_at)
        knowledge.update(game)
        self.moves += 1 + play_until(game, self.players, seat, knowledge)
        self._decide()
        if self.over:
            return winner_returns(game.players, game.winners())[seat], True
        return 0.0, False

    def write_observation(self, out: npt.NDArray[np.float32]) -> None:
        """Write the learner's observation into ``out`` (a row of the encoder's size).

        >>> episode = Episode(Settings.of(players=3, opponents="random", seat=2))
        >>> episode.reset(np.random.default_rng(0), seed=7)
        >>> row = np.empty(episode.encoder.size, dtype=np.float32)
        >>> episode.write_observation(row); int(row[episode.encoder.slice("hand")].sum())
        4
        """
        if self.over and self.game.is_over:
            view = self.game.view(self.seat, history=False)
            self.encoder.encode(view, None, out=out, knowledge=self.knowledge)
        else:
            builder = self.builder
            self.encoder.encode(builder.view, builder, out=out, knowledge=self.knowledge)

    def write_mask(self, out: npt.NDArray[np.bool_]) -> None:
        """Write the learner's legal actions into ``out`` (a row of ``space.size`` booleans).

        >>> episode = Episode(Settings.of(players=3, opponents="random", seat=2))
        >>> episode.reset(np.random.default_rng(0), seed=7)
        >>> row = np.empty(episode.space.size, dtype=bool)
        >>> episode.write_mask(row); int(row.sum())
        4
        """
        out.fill(False)
        if not self.over:
            out[self.builder.legal_actions()] = True

    def text(self) -> str:
        """The learner's view as text (the ``'ansi'`` rendering), their seat first.

        >>> episode = Episode(Settings.of(players=3, opponents="random", seat=2))
        >>> episode.reset(np.random.default_rng(0), seed=7)
        >>> print(episode.text().splitlines()[0])
        learner: player 2
        """
        game, seat = self.game, self.seat
        if self.over and game.is_over:
            body = self.encoder.text(game.view(seat), knowledge=self.knowledge)
        else:
            body = self.encoder.text(self.builder.view, self.builder, knowledge=self.knowledge)
        return f"learner: player {seat}\n{body}"


def scale_of(encoder: ObservationEncoder) -> npt.NDArray[np.float32]:
    """The factors that bring every observation value into [0, 1]: one over its bound.

    >>> scale = scale_of(ObservationEncoder(players=3))
    >>> float(scale.min()) > 0, float(scale.max())
    (True, 1.0)
    """
    return (1.0 / encoder.high).astype(np.float32)


def observation_space(encoder: ObservationEncoder, normalize: bool) -> gymnasium.spaces.Box:
    """``Box(0, encoder.high)`` of the encoder's size, or ``Box(0, 1)`` when normalized.

    >>> observation_space(ObservationEncoder(players=3), True)
    Box(0.0, 1.0, (1541,), float32)
    """
    high = np.ones(encoder.size, dtype=np.float32) if normalize else encoder.high.copy()
    return gymnasium.spaces.Box(
        low=np.zeros(encoder.size, dtype=np.float32), high=high, dtype=np.float32
    )


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
        from .vector import one_game  # the packed games live there, and it imports this module

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
        # Only the learner's action is penalized: an opponent's illegal move (a policy's
        # bug) raises in either mode.
        if self.settings.illegal == "raise" or episode.is_legal(action):
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
