"""Bots: players that answer every decision of a game, and a helper to play games out.

A :class:`Bot` gets the :class:`~pastiche_core.engine.view.PlayerView` of the player to
move and the game's lazy :class:`~pastiche_core.engine.game.LegalMoves`, and returns one
of those moves. :class:`RandomBot` picks uniformly at random; :func:`play_game`
plays a whole game with one bot per seat.

>>> game = play_game(players=3, seed=11)
>>> game.is_over, game.result.reason in ("countdown", "all-pass")
(True, True)
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from ..data.catalogue import Catalogue
from ..data.errors import PasticheError
from ..engine._kernels import kernel
from ..engine.feasibility import kernel_plan
from ..engine.game import Game, LegalMoves, check_deal
from ..engine.layout import packed_rules
from ..engine.moves import Move
from ..engine.rules import Rules, rules_of
from ..engine.view import PlayerView

__all__ = [
    "DEFAULT_MAX_DECISIONS",
    "Bot",
    "DecisionLimitError",
    "GameSummary",
    "RandomBot",
    "derive_seed",
    "packed_catalogue",
    "play_game",
    "random_game",
]

DEFAULT_MAX_DECISIONS = 100_000
"""Decisions after which :func:`play_game` gives up on a game that does not end."""


class DecisionLimitError(PasticheError):
    """A game did not end within the decision limit given to :func:`play_game`.

    >>> issubclass(DecisionLimitError, ValueError)
    True
    """


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``choose(view, legal) -> Move`` method can play a seat.

    ``view`` is what the player to move may know; ``legal`` is the lazy view of
    the legal moves (``len(legal)`` and ``legal[i]`` index them). The move
    returned must be one of them.

    >>> class FirstMoveBot:
    ...     def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
    ...         return legal[0]
    >>> isinstance(FirstMoveBot(), Bot), isinstance(RandomBot(1), Bot)
    (True, True)
    """

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The move to play; it must be in ``legal``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal moves, with its own seeded generator.

    The view is not looked at. ``seed=None`` seeds from the operating system.

    >>> game = Game(players=3, seed=7)
    >>> move = RandomBot(seed=1).choose(game.view(game.to_move), game.legal_moves)
    >>> move in game.legal_moves
    True
    >>> RandomBot(5).choose(game.view(2), game.legal_moves) == RandomBot(5).choose(
    ...     game.view(2), game.legal_moves)
    True
    """

    __slots__ = ("_rng", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """A legal move drawn uniformly at random, by index (no enumeration)."""
        return legal[self.index(len(legal))]

    def index(self, count: int) -> int:
        """The index of the next move among ``count`` legal moves: ``randrange(count)``.

        >>> RandomBot(3).index(10) == RandomBot(3).index(10)
        True
        """
        return self._rng.randrange(count)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


def derive_seed(seed: int, *keys: int | str) -> int:
    """A 64-bit seed derived deterministically from ``seed`` and ``keys``.

    It is stable across runs, platforms and Python versions (BLAKE2b of the
    decimal text), so derived games and bots replay exactly.

    >>> derive_seed(7, "game", 0) == derive_seed(7, "game", 0)
    True
    >>> derive_seed(7, "game", 0) != derive_seed(7, "game", 1)
    True
    >>> 0 <= derive_seed(-3, "bot", 2) < 2**64
    True
    """
    text = ":".join([str(int(seed)), *(str(key) for key in keys)])
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play_game(
    players: int = 4,
    seed: int = 0,
    bots: Sequence[Bot] | None = None,
    catalogue: Catalogue | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    *,
    rules: Rules | None = None,
) -> Game:
    """Play a game of ``players`` seats from ``seed`` to its end and return it.

    ``bots`` has one bot per seat; by default each seat gets a :class:`RandomBot`
    seeded with ``derive_seed(seed, "bot", seat)``, so one seed replays the same
    game. Each decision, the bot of ``game.to_move`` gets that player's view and
    ``game.legal_moves``. The view is built lazily, on the first read of one of
    its fields, so bots that ignore it cost nothing; read it during ``choose``
    (it describes the position at that moment). Raises
    :class:`DecisionLimitError` if the game has not ended after ``max_decisions``
    decisions, and :class:`~pastiche_core.data.errors.IllegalMoveError` if a bot
    returns an illegal move. ``rules`` are house rules
    (:class:`~pastiche_core.engine.rules.Rules`; by default the catalogue's, else the rulebook's).

    >>> game = play_game(players=4, seed=3)
    >>> game.is_over, len(game.result.scores)
    (True, 4)
    >>> play_game(players=4, seed=3).history == game.history
    True
    >>> play_game(players=3, seed=3, rules=Rules(end_threshold=10)).rules.end_threshold
    10
    """
    _check_max_decisions(max_decisions)
    game = Game(players=players, seed=seed, catalogue=catalogue, rules=rules)
    if bots is None:
        seats: Sequence[Bot] = [
            RandomBot(derive_seed(seed, "bot", seat)) for seat in range(players)
        ]
    else:
        seats = list(bots)
        if len(seats) != players:
            raise PasticheError(f"expected one bot per seat ({players}), got {len(seats)}")
    decisions = 0
    while not game.is_over:
        if decisions >= max_decisions:
            raise DecisionLimitError(
                f"game with seed {seed} did not end within {max_decisions} decisions"
            )
        player = game.to_move
        view = _LazyView.of_game(game, player, game.generation)
        game.apply(seats[player].choose(view, game.legal_moves))
        decisions += 1
    return game


def _check_max_decisions(max_decisions: object) -> None:
    """Refuse a decision limit that is no integer of at least 1."""
    if isinstance(max_decisions, bool) or not isinstance(max_decisions, int):
        raise PasticheError(f"max_decisions must be an integer, got {max_decisions!r}")
    if max_decisions < 1:
        raise PasticheError(f"max_decisions must be at least 1, got {max_decisions}")


class GameSummary(NamedTuple):
    """What :func:`random_game` tells of a finished game (the figures :func:`play_game`'s
    :class:`~pastiche_core.engine.game.Game` gives).

    >>> random_game(players=3, seed=11).reason in ("countdown", "all-pass")
    True
    """

    turns: int
    """:attr:`Game.turn <pastiche_core.engine.game.Game.turn>`: the turns played, setup excluded (R11)."""
    decisions: int
    """The moves of the game's history, setup keeps and choices included."""
    scores: tuple[int, ...]
    """Every seat's score (R13)."""
    masterpieces: tuple[int, ...]
    """Every seat's Masterpieces (the R13 tie-break)."""
    winners: tuple[int, ...]
    """The winning seats (R13: a tie that remains is shared)."""
    reason: str
    """How the game ended: ``'countdown'`` (R12) or ``'all-pass'`` (R11)."""


def _random_game_py(
    catalogue: Catalogue,
    plan: bytes | None,
    positions: Sequence[int],
    copies: Sequence[int],
    flag_points: int,
    rules: Rules,
    packed_rules: Sequence[int],
    players: int,
    seed: int,
    bot_seeds: Sequence[int],
    max_decisions: int,
    trace: bool,
) -> Any:
    """The ``random_game`` kernel in Python: :func:`play_game` between :class:`RandomBot` s.

    Game ``Game(players, seed, catalogue, rules=rules)``, seat ``i`` played by
    ``RandomBot(bot_seeds[i])``; the answer is ``(turns, decisions, scores,
    masterpieces, winners, reason)`` (:class:`GameSummary`'s fields), and with
    ``trace`` a pair of it and every decision's ``(legal moves, index drawn)``.
    ``plan``, ``positions``, ``copies`` and ``flag_points`` pack ``catalogue``
    for the compiled twin (:func:`kernel_plan`, each publishable Novel's
    position among the catalogue's specs and its copies, the End Flag's
    points), and ``packed_rules`` packs ``rules``
    (:func:`~pastiche_core.engine.layout.packed_rules`); this rule reads the catalogue
    and the rules themselves.

    >>> from pastiche_core import RULEBOOK, Catalogue
    >>> answer = _random_game_py(
    ...     Catalogue.default(), None, (), (), 0, RULEBOOK, (), 3, 11, (1, 2, 3), 10**5, True)
    >>> answer[0][1] == len(answer[1])
    True
    """
    steps: list[tuple[int, int]] = []

    class Traced(RandomBot):
        __slots__ = ()

        def index(self, count: int) -> int:
            drawn = super().index(count)
            steps.append((count, drawn))
            return drawn

    bots = [Traced(bot_seed) for bot_seed in bot_seeds]
    game = play_game(players, seed, bots, catalogue, max_decisions, rules=rules)
    result = game.result
    assert result is not None
    summary = (
        game.turn,
        len(game.history),
        result.scores,
        result.masterpieces,
        result.winners,
        result.reason,
    )
    return (summary, tuple(steps)) if trace else summary


_random_game = kernel("random_game", _random_game_py)
"""Whole games between random bots, summarised (``simulate``'s games)."""


def random_game(
    players: int = 4,
    seed: int = 0,
    catalogue: Catalogue | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    *,
    rules: Rules | None = None,
) -> GameSummary:
    """Play :func:`play_game` ``(players, seed)`` with its default bots and summarise it.

    The same game as :func:`play_game` with ``bots=None`` (a
    :class:`RandomBot` seeded ``derive_seed(seed, "bot", seat)`` per seat),
    played by the compiled game kernel when it is built, without making a
    :class:`~pastiche_core.engine.game.Game`; :func:`~pastiche_core.bots.simulate.simulate`
    plays its games so. Raises :class:`DecisionLimitError` as :func:`play_game` does.
    ``rules`` are house rules, as :func:`play_game` takes them.

    >>> summary = random_game(players=4, seed=3)
    >>> game = play_game(players=4, seed=3)
    >>> summary.scores == game.scores() and summary.decisions == len(game.history)
    True
    >>> house = Rules(end_threshold=25)
    >>> random_game(3, 5, rules=house) == random_game(3, 5, rules=house)
    True
    """
    _check_max_decisions(max_decisions)  # checked as play_game checks them, in its order
    cat = catalogue if catalogue is not None else Catalogue.default()
    played = rules_of(cat, rules)
    check_deal(players, seed, played)
    plan, positions, copies, flag_points = packed_catalogue(cat)
    bot_seeds = tuple(derive_seed(seed, "bot", seat) for seat in range(players))
    answer = _random_game(
        cat,
        plan,
        positions,
        copies,
        flag_points,
        played,
        packed_rules(played),
        players,
        seed,
        bot_seeds,
        max_decisions,
        False,
    )
    return GameSummary(*answer)


def packed_catalogue(
    catalogue: Catalogue,
) -> tuple[bytes | None, tuple[int, ...], tuple[int, ...], int]:
    """``catalogue`` packed for the compiled game kernels: its plan
    (:func:`~pastiche_core.engine.feasibility.kernel_plan`, ``None`` when a pattern is of no
    built-in kind), each publishable Novel's position among the specs and its copies,
    and the End Flag's points (made once per catalogue).

    >>> plan, positions, copies, flag = packed_catalogue(Catalogue.default())
    >>> len(plan) == 20 * len(positions), copies[:3], flag
    (True, (4, 3, 2), 1)
    """
    entry = _PACKED.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_PACKED) >= 64:
            _PACKED.clear()
        at = {spec.id: index for index, spec in enumerate(catalogue.specs)}
        publishable = catalogue.publishable
        entry = _PACKED[id(catalogue)] = (
            catalogue,
            (
                kernel_plan(catalogue),
                tuple(at[spec.id] for spec in publishable),
                tuple(spec.copies for spec in publishable),
                catalogue.end_flag.points,
            ),
        )
    return entry[1]


_PACKED: dict[
    int, tuple[Catalogue, tuple[bytes | None, tuple[int, ...], tuple[int, ...], int]]
] = {}


_VIEW_FIELDS = tuple(field.name for field in dataclasses.fields(PlayerView))
_COMPARED = tuple(field.name for field in dataclasses.fields(PlayerView) if field.compare)
"""The fields a view's equality and hash read (the kept card table and records are derived)."""


class _LazyView(PlayerView):
    """A :class:`PlayerView` whose fields are computed on first access.

    Building a full view costs tens of microseconds per decision, as much as the
    rest of a random decision; a bot that never reads it should not pay for it.
    The first read of any field builds every field at once from the game, then
    the view behaves exactly like a plain one (and compares equal to it).
    """

    __slots__ = ("_game", "_mark", "_seat")

    @classmethod
    def of_game(cls, game: Game, player: int, mark: int) -> _LazyView:
        view = object.__new__(cls)
        object.__setattr__(view, "_game", game)
        object.__setattr__(view, "_seat", player)
        object.__setattr__(view, "_mark", mark)
        return view

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: a field slot not filled yet.
        if name not in _VIEW_FIELDS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        game: Game | None = object.__getattribute__(self, "_game")
        if game is None:  # pragma: no cover - every field is filled once built
            raise AttributeError(name)
        if game.generation != object.__getattribute__(self, "_mark"):
            raise RuntimeError(
                "this view describes a position the game has left: read it during choose()"
            )
        full = PlayerView.of(game, object.__getattribute__(self, "_seat"))
        for field in _VIEW_FIELDS:
            object.__setattr__(self, field, getattr(full, field))
        object.__setattr__(self, "_game", None)
        return getattr(full, name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in _COMPARED))
