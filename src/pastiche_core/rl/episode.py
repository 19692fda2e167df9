"""The game a single-agent environment steps, seen from the learner's seat, and its options.

:class:`Settings` checks the options of :class:`~pastiche_core.rl.single.PasticheGymEnv` and
:class:`~pastiche_core.rl.vector.PasticheVectorEnv`; :class:`Episode` is one game played by the
engine from the learner's seat (the other seats' bots asked directly), which both environments
step when the engine plays (:data:`BACKENDS`); :func:`warn_engine_path` says when an option
needs it (:class:`EnginePathWarning`).

>>> settings = Settings.of(players=3, seat=0)
>>> episode = Episode(settings)
>>> episode.reset(np.random.default_rng(0), seed=7)
>>> episode.game.to_move, len(episode.legal_actions()) > 0
(0, True)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import SupportsIndex

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
from .encoding import ActionSpace, MoveBuilder
from .observation import ObservationEncoder
from .opponents import Opponents, SeatPlayer, play_until
from .scaling import observation_space, scale_of

__all__ = [
    "BACKENDS",
    "ILLEGAL_MODES",
    "PENALTY",
    "RENDER_MODES",
    "EnginePathWarning",
    "Episode",
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
    slower than the compiled games: issued once when such an environment is made.

    >>> import warnings
    >>> from pastiche_core.gymnasium import env
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", EnginePathWarning)
    ...     env(players=3, opponents="greedy")
    Traceback (most recent call last):
    ...
    pastiche_core.rl.episode.EnginePathWarning: opponents=['greedy', 'greedy'] makes the engine play every step (backend 'engine'); opponents='random' plays on the compiled games, several times as fast
    """


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
