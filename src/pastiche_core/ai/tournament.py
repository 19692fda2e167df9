"""Tournaments: many games between registered bots, seats rotated, with confidence intervals.

**The scheme.** With ``n`` players the bot list names one bot per seat. Games
come in groups of ``n`` that share one deal: game ``g`` is dealt from
``game_seed(seed, g // n)`` (the seeds of :func:`~pastiche_core.bots.simulate.simulate`)
and seats the list rotated by ``g mod n`` — seat ``i`` plays
``bots[(i + g) mod n]``. So each bot plays each seat equally often (exactly,
when ``games`` is a multiple of ``n``), and on the same cards as its rivals
did from the other seats, which cancels most of the luck of the deal. Seat
``i``'s bot is seeded with ``derive_seed(deal, "bot", i)``
(:func:`~pastiche_core.ai.match.play_match`).

**The figures**, per distinct bot name (a name listed for several seats
counts every seat it played): ``games`` (seats played), ``wins`` (a shared
win, R13, counts ``1/k`` for each of its ``k`` winners), ``win_rate`` with its
95 % Wilson confidence interval ``ci95`` (each seat's game an independent
trial), ``mean_score`` and ``mean_margin`` — the bot's score minus the best
other score of the game, averaged. Parity is ``1/n``. Each bot's ``limits``
are what bounds its thinking (a searching bot's ``budget_ms`` and the
``simulations`` it buys; nothing for bots that do not search), and
``cpu_seconds`` the CPU time its choices took, added up over its seats; the
document's own ``cpu_seconds`` is the CPU time of all its games (deals, rules
and bots), and ``max_decisions`` bounds each game.

**Bounds.** At most :data:`MAX_TOURNAMENT_GAMES` games; bot names and options
are checked before any game starts; each game is bounded by
:data:`~pastiche_core.bots.play.DEFAULT_MAX_DECISIONS` decisions.

The result is the same for a seed whatever runs the games (in process, a
process pool, Ray) but for its CPU times, measured where each game ran:
:meth:`TournamentResult.to_dict` is the ``pastiche-tournament`` JSON document,
with no host details, and ``to_dict(cpu=False)`` (or :func:`without_cpu` of a
document) leaves the CPU times out, which is identical for a seed.

>>> result = run_tournament(["greedy", "random", "random"], games=3, seed=1)
>>> [(bot.name, bot.games) for bot in result.bots]
[('greedy', 3), ('random', 6)]
>>> result.bots[0].wins + result.bots[1].wins
3.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.play import DEFAULT_MAX_DECISIONS
from ..bots.simulate import game_seed
from ..data._text import quote
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError, InvalidRulesError
from ..engine.game import GameResult
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS, rules_of
from .match import timed_match_result
from .roster import check_bot_names, make_bot
from .runners import GameTask, Progress, run_in_pool, run_on_ray
from .search import DEFAULT_BUDGET_MS, SearchBot

__all__ = [
    "BACKENDS",
    "MAX_TOURNAMENT_GAMES",
    "TOURNAMENT_FORMAT",
    "TOURNAMENT_VERSION",
    "BotStanding",
    "TimedGame",
    "TimedTask",
    "TournamentResult",
    "bot_limits",
    "run_tournament",
    "schedule",
    "wilson_interval",
    "without_cpu",
]

TOURNAMENT_FORMAT = "pastiche-tournament"
"""The ``format`` name of a tournament result document."""
TOURNAMENT_VERSION = 1
"""The version of the tournament result document."""
MAX_TOURNAMENT_GAMES = 100_000
"""The most games one tournament may play (a greedy game takes about a fifth of a second)."""
BACKENDS = ("process", "ray")
"""Where games run: ``"process"`` (this process or a local pool) or ``"ray"``."""

_Z95 = 1.959963984540054
_DIGITS = 4
_CPU_DIGITS = 3
_CPU_KEY = "cpu_seconds"


def without_cpu(document: Mapping[str, Any]) -> dict[str, Any]:
    """A ``pastiche-tournament`` document without its CPU times: the same for a seed however
    its games ran (in process, a pool, Ray), so two runs compare equal.

    >>> without_cpu({"games": 3, "cpu_seconds": 1.5, "bots": [{"name": "greedy", "cpu_seconds": 1.2}]})
    {'games': 3, 'bots': [{'name': 'greedy'}]}
    """
    kept = {key: value for key, value in document.items() if key != _CPU_KEY}
    if isinstance(kept.get("bots"), list):
        kept["bots"] = [
            {key: value for key, value in bot.items() if key != _CPU_KEY} for bot in kept["bots"]
        ]
    return kept


def bot_limits(name: str, options: Mapping[str, Any] | None = None) -> dict[str, int]:
    """What bounds bot ``name``'s thinking with these options: a searching bot's ``budget_ms``
    and the fixed number of ``simulations`` it buys, nothing for bots that do not search.

    >>> bot_limits("search", {"budget_ms": 100})
    {'budget_ms': 100, 'simulations': ...}
    >>> bot_limits("greedy", {"budget_ms": 100})
    {}
    """
    extra = dict(options or {})
    bot = make_bot(name, 0, **extra)
    if not isinstance(bot, SearchBot):
        return {}
    budget = extra.get("budget_ms")
    limits = {"budget_ms": DEFAULT_BUDGET_MS if budget is None else int(budget)}
    if bot.simulations is not None:  # the registered search: a fixed count, no clock
        limits["simulations"] = bot.simulations
    return limits


def wilson_interval(wins: float, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default); ``wins`` may be fractional.

    >>> [round(x, 4) for x in wilson_interval(151.5, 200)]
    [0.6936, 0.8117]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if games <= 0:
        return (0.0, 1.0)
    rate = wins / games
    z2 = z * z
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot name's figures over a tournament (see the module for their meaning).

    >>> BotStanding("greedy", 4, 3.5, 1.0, 0.5).win_rate
    0.875
    """

    name: str
    """The bot's registered name."""
    games: int
    """Seats it played (one per game per seat it held)."""
    wins: float
    """Wins, a shared win counting ``1/k`` for each of its ``k`` winners (R13)."""
    score_total: float
    """The sum of its final scores."""
    margin_total: float
    """The sum of its margins: its score minus the best other score of each game."""
    limits: Mapping[str, int] = field(default_factory=dict)
    """What bounds its thinking (:func:`bot_limits`): empty for bots that do not search."""
    cpu_seconds: float = field(default=0.0, compare=False)
    """The CPU time its choices took, over all its seats (measured where each game ran)."""

    @property
    def win_rate(self) -> float:
        """Wins per seat played.

        >>> BotStanding("random", 0, 0.0, 0.0, 0.0).win_rate
        0.0
        """
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % Wilson interval of :attr:`win_rate`.

        >>> [round(x, 3) for x in BotStanding("greedy", 10, 10.0, 0.0, 0.0).ci95]
        [0.722, 1.0]
        """
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """The bot's final score, averaged over the seats it played.

        >>> BotStanding("greedy", 4, 3.5, 70.0, 9.0).mean_score
        17.5
        """
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Its score minus the best other score of the game, averaged.

        >>> BotStanding("greedy", 4, 3.5, 70.0, 9.0).mean_margin
        2.25
        """
        return self.margin_total / self.games if self.games else 0.0

    def to_dict(self, *, cpu: bool = True) -> dict[str, Any]:
        """The contract's entry, figures rounded to 4 decimals, CPU seconds to 3.

        >>> BotStanding("greedy", 4, 3.5, 70.0, 9.0, cpu_seconds=0.25).to_dict()
        {'name': 'greedy', 'games': 4, 'wins': 3.5, 'win_rate': 0.875, 'ci95': [0.3958, 0.9868], 'mean_score': 17.5, 'mean_margin': 2.25, 'limits': {}, 'cpu_seconds': 0.25}
        """
        low, high = self.ci95
        entry = {
            "name": self.name,
            "games": self.games,
            "wins": round(self.wins, _DIGITS),
            "win_rate": round(self.win_rate, _DIGITS),
            "ci95": [round(low, _DIGITS), round(high, _DIGITS)],
            "mean_score": round(self.mean_score, _DIGITS),
            "mean_margin": round(self.mean_margin, _DIGITS),
            "limits": dict(self.limits),
        }
        if cpu:
            entry[_CPU_KEY] = round(self.cpu_seconds, _CPU_DIGITS)
        return entry


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """What :func:`run_tournament` returns: the settings and one standing per bot name.

    >>> result = run_tournament(["random"] * 3, games=2, seed=4)
    >>> sorted(result.to_dict())
    ['bots', 'catalogue', 'cpu_seconds', 'format', 'games', 'max_decisions', 'players', 'seed', 'version']
    """

    players: int
    """Seats per game."""
    games: int
    """Games played."""
    seed: int
    """The seed of the whole run."""
    catalogue: str
    """The catalogue's name."""
    bots: tuple[BotStanding, ...]
    """One standing per distinct bot name, in the order the bot list first names them."""
    max_decisions: int = DEFAULT_MAX_DECISIONS
    """The most decisions each game could take."""
    cpu_seconds: float = field(default=0.0, compare=False)
    """The CPU time of all the games (deals, rules and bots), measured where each ran."""

    def standing(self, name: str) -> BotStanding:
        """The standing of bot ``name`` (``KeyError`` if it did not play).

        >>> run_tournament(["random"] * 3, games=2, seed=4).standing("random").games
        6
        """
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise KeyError(f"bot {name!r} did not play in this tournament")

    def to_dict(self, *, cpu: bool = True) -> dict[str, Any]:
        """The ``pastiche-tournament`` document (version 1); ``cpu=False`` leaves out the CPU
        times, and what is left is the same for a seed, however run.

        >>> result = run_tournament(["random"] * 3, games=2, seed=4)
        >>> result.to_dict()["format"], result.to_dict()["bots"][0]["games"]
        ('pastiche-tournament', 6)
        >>> "cpu_seconds" in result.to_dict(cpu=False)["bots"][0]
        False
        """
        document: dict[str, Any] = {
            "format": TOURNAMENT_FORMAT,
            "version": TOURNAMENT_VERSION,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "catalogue": self.catalogue,
            "bots": [bot.to_dict(cpu=cpu) for bot in self.bots],
            "max_decisions": self.max_decisions,
        }
        if cpu:
            document[_CPU_KEY] = round(self.cpu_seconds, _CPU_DIGITS)
        return document

    def format(self) -> str:
        """A plain-text table, one row per bot name.

        >>> print(run_tournament(["greedy", "random", "random"], games=3, seed=1).format())
        3 games, 3 players, seed 1, catalogue 'default'; seats rotate, parity 33.3 %
        bot     seats  wins  win %  95 % CI        mean score  mean margin
        greedy      3  ...
        random      6  ...
        """
        parity = 100 / self.players
        lines = [
            f"{self.games:,} games, {self.players} players, seed {self.seed}, catalogue "
            f"{self.catalogue!r}; seats rotate, parity {parity:.1f} %"
        ]
        rows = [("bot", "seats", "wins", "win %", "95 % CI", "mean score", "mean margin")]
        for bot in self.bots:
            low, high = bot.ci95
            rows.append(
                (
                    bot.name,
                    f"{bot.games:,}",
                    f"{bot.wins:g}",
                    f"{100 * bot.win_rate:.1f}",
                    f"[{100 * low:.1f}, {100 * high:.1f}]",
                    f"{bot.mean_score:.2f}",
                    f"{bot.mean_margin:+.2f}",
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [row[0].ljust(widths[0])]
            cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{name} must be an integer, got {quote(value)}")
    if value < low or (high is not None and value > high):
        bounds = f"at least {low}" if high is None else f"from {low} to {high:,}"
        raise InvalidArgumentError(f"{name} must be {bounds}, got {value}")
    return value


def schedule(
    bots: Sequence[str],
    games: int,
    seed: int,
    catalogue: Catalogue | None = None,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> list[GameTask]:
    """The tournament's games in order: deal ``g // n``, the bot list rotated by ``g mod n``.

    >>> [task.bots for task in schedule(["greedy", "random", "random"], 4, seed=1)]
    [('greedy', 'random', 'random'), ('random', 'random', 'greedy'), ('random', 'greedy', 'random'), ('greedy', 'random', 'random')]
    >>> [task.seed for task in schedule(["a", "b", "c"], 4, seed=1)][2:] == [game_seed(1, 0), game_seed(1, 1)]
    True
    """
    seats = len(bots)
    extra = tuple(sorted((options or {}).items()))
    tasks = []
    for index in range(games):
        turn = index % seats
        rotated = tuple(bots[turn:]) + tuple(bots[:turn])
        tasks.append(
            GameTask(
                seed=game_seed(seed, index // seats),
                bots=rotated,
                catalogue=catalogue,
                options=extra,
                max_decisions=max_decisions,
                index=index,
            )
        )
    return tasks


@dataclass(frozen=True, slots=True)
class TimedGame:
    """A tournament game's result with the CPU time it took where it ran.

    >>> game = TimedTask(GameTask(seed=7, bots=("greedy", "random", "random"))).run()
    >>> len(game.seat_cpu), sum(game.seat_cpu) <= game.cpu
    (3, True)
    """

    result: GameResult
    """The game's result (R13)."""
    seat_cpu: tuple[float, ...]
    """The CPU seconds each seat's bot spent choosing its moves."""
    cpu: float
    """The CPU seconds of the whole game: the deal, the rules and the bots."""


@dataclass(frozen=True, slots=True)
class TimedTask:
    """A :class:`~pastiche_core.ai.runners.GameTask` played with its CPU time measured.

    It runs wherever the runners send it (a pool's process, a Ray worker), so the
    time is that process's; the result is the task's own.

    >>> task = GameTask(seed=3, bots=("greedy", "random", "random"))
    >>> TimedTask(task).run().result == task.run()
    True
    """

    task: GameTask
    """The game to play."""

    def run(self) -> TimedGame:
        """Play the game (:func:`~pastiche_core.ai.match.timed_match_result`)."""
        task = self.task
        result, seats, whole = timed_match_result(
            task.seed,
            task.bots,
            len(task.bots),
            task.catalogue,
            options=dict(task.options),
            max_decisions=task.max_decisions,
        )
        return TimedGame(result, seats, whole)


def _standings(
    tasks: Sequence[GameTask],
    results: Sequence[GameResult],
    limits: Mapping[str, Mapping[str, int]] | None = None,
    seat_cpu: Sequence[Sequence[float]] | None = None,
) -> tuple[BotStanding, ...]:
    if seat_cpu is None:
        seat_cpu = [(0.0,) * len(task.bots) for task in tasks]
    order: list[str] = []
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    scores: dict[str, float] = {}
    margins: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for task in tasks:
        for name in task.bots:
            if name not in games:
                order.append(name)
                games[name] = 0
                wins[name] = scores[name] = margins[name] = cpu[name] = 0.0
    for task, result, times in zip(tasks, results, seat_cpu, strict=True):
        for seat, name in enumerate(task.bots):
            cpu[name] += times[seat]
            score = result.scores[seat]
            best_other = max(s for other, s in enumerate(result.scores) if other != seat)
            games[name] += 1
            scores[name] += score
            margins[name] += score - best_other
            if seat in result.winners:
                wins[name] += 1 / len(result.winners)
    return tuple(
        BotStanding(
            name,
            games[name],
            wins[name],
            scores[name],
            margins[name],
            limits=limits[name] if limits is not None else {},
            cpu_seconds=cpu[name],
        )
        for name in order
    )


def run_tournament(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    catalogue: Catalogue | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Progress | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> TournamentResult:
    """Play ``games`` games of the registered ``bots`` (one name per seat) and sum them up.

    ``options`` go to every bot (for instance ``{"budget_ms": 300}``).
    ``backend="process"`` plays the games in this process (``workers=1``, the
    default) or in a pool of ``workers`` processes; ``backend="ray"`` sends
    them to Ray (a local instance, or the cluster at ``address``; see
    :func:`~pastiche_core.ai.runners.run_on_ray`). ``progress(done, games)``
    is called as games finish. Names, options and bounds are checked before
    any game starts; errors are :class:`~pastiche_core.data.errors.InvalidArgumentError`.

    >>> run_tournament(["greedy", "random", "robot"], games=3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown bot 'robot': expected one of random, greedy, search
    >>> run_tournament(["greedy", "random", "random"], games=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: games must be from 1 to 100,000, got 0
    """
    names = check_bot_names(bots)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"a tournament needs one bot per seat, {MIN_PLAYERS} to {MAX_PLAYERS} (R10), "
            f"got {len(names)}"
        )
    _check_int("games", games, 1, MAX_TOURNAMENT_GAMES)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an integer, got {quote(seed)}")
    _check_int("max_decisions", max_decisions, 1)
    if backend not in BACKENDS:
        raise InvalidArgumentError(
            f"unknown backend {quote(backend)}: expected one of {', '.join(BACKENDS)}"
        )
    if catalogue is not None and not isinstance(catalogue, Catalogue):
        raise InvalidArgumentError(f"catalogue must be a Catalogue, got {quote(catalogue)}")
    if catalogue is not None:  # R10: the catalogue's [rules] may seat fewer
        try:
            rules = rules_of(catalogue)
        except InvalidRulesError as error:
            raise InvalidArgumentError(str(error)) from None
        if not rules.min_players <= len(names) <= rules.max_players:
            raise InvalidArgumentError(
                f"a tournament needs one bot per seat, {rules.min_players} to "
                f"{rules.max_players} by the rules of catalogue {catalogue.name!r} (R10), "
                f"got {len(names)}"
            )
    extra = dict(options or {})
    if "catalogue" in extra:
        raise InvalidArgumentError("give the catalogue as the catalogue argument, not an option")
    limits = {}
    for name in dict.fromkeys(names):  # every option checked once per bot, before any game
        make_bot(name, 0, catalogue=catalogue, **extra)
        limits[name] = bot_limits(name, extra)
    tasks = schedule(names, games, seed, catalogue, extra, max_decisions)
    timed = [TimedTask(task) for task in tasks]
    if backend == "ray":
        played = run_on_ray(timed, address, progress)
    else:
        played = run_in_pool(timed, workers, progress)
    results = [game.result for game in played]
    standings = _standings(tasks, results, limits, [game.seat_cpu for game in played])
    cat = catalogue if catalogue is not None else Catalogue.default()
    return TournamentResult(
        len(names),
        games,
        seed,
        cat.name,
        standings,
        max_decisions=max_decisions,
        cpu_seconds=sum(game.cpu for game in played),
    )
