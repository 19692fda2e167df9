"""One game between registered bots, from a seed: the unit of work of a tournament.

:func:`play_match` deals a game from ``seed`` (R10, R14), gives seat ``i`` the
bot ``make_bot(bots[i], derive_seed(seed, "bot", i))``, plays it to its end and
returns its :class:`~pastiche_core.io.record.GameRecord`. It is pure: the same
arguments give the same record, in any process or on any machine (it pickles
for process pools and Ray), as long as the bots are deterministic — the
registered ones are, whatever time they are given.

>>> record = play_match(7, ["greedy", "random", "random"])
>>> record.players, record.seed, record.replay().is_over
(3, 7, True)
>>> play_match(7, ["greedy", "random", "random"]) == record
True
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots.play import DEFAULT_MAX_DECISIONS, Bot, derive_seed, play_game
from ..data._text import quote
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from ..engine.game import Game, GameResult, LegalMoves, check_deal
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..io.record import GameRecord
from .roster import check_bot_names, check_options, make_bot

__all__ = ["CpuTimedBot", "match_result", "play_match", "timed_match_result"]


class CpuTimedBot:
    """A bot that adds up the CPU time (``time.process_time``) its ``choose`` calls take.

    >>> from pastiche_core.bots.play import RandomBot
    >>> game = Game(players=3, seed=7)
    >>> timed = CpuTimedBot(RandomBot(1))
    >>> timed.choose(game.view(game.to_move), game.legal_moves) in game.legal_moves
    True
    >>> timed.decisions, timed.cpu_seconds >= 0
    (1, True)
    """

    __slots__ = ("bot", "cpu_seconds", "decisions")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        """The bot that chooses."""
        self.cpu_seconds = 0.0
        """The CPU seconds its choices have taken so far."""
        self.decisions = 0
        """The choices it has made so far."""

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The bot's move, its CPU time added to :attr:`cpu_seconds`."""
        start = time.process_time()
        try:
            return self.bot.choose(view, legal)
        finally:
            self.cpu_seconds += time.process_time() - start
            self.decisions += 1


def _checked(
    seed: int,
    bots: Sequence[str],
    players: int | None,
    catalogue: Catalogue | None,
    options: Mapping[str, Any] | None,
) -> tuple[tuple[str, ...], int, Catalogue, dict[str, Any]]:
    names = check_bot_names(bots)
    seats = len(names) if players is None else players
    check_deal(seats, seed, error=InvalidArgumentError)
    if len(names) != seats:
        raise InvalidArgumentError(f"expected one bot per seat ({seats}), got {len(names)}")
    if catalogue is not None and not isinstance(catalogue, Catalogue):
        raise InvalidArgumentError(f"catalogue must be a Catalogue, got {quote(catalogue)}")
    cat = catalogue if catalogue is not None else Catalogue.default()
    extra = dict(options or {})
    if "catalogue" in extra:
        raise InvalidArgumentError("give the catalogue as the catalogue argument, not an option")
    check_options(extra)
    return names, seats, cat, extra


def _play(
    seed: int,
    bots: Sequence[str],
    players: int | None,
    catalogue: Catalogue | None,
    options: Mapping[str, Any] | None,
    max_decisions: int,
    timed: list[CpuTimedBot] | None = None,
) -> Game:
    names, seats, cat, extra = _checked(seed, bots, players, catalogue, options)
    seated: list[Bot] = [
        make_bot(name, derive_seed(seed, "bot", seat), catalogue=cat, **extra)
        for seat, name in enumerate(names)
    ]
    if timed is not None:  # the same bots and moves, each choice's CPU time added up
        timed.extend(CpuTimedBot(bot) for bot in seated)
        seated = list(timed)
    return play_game(seats, seed, bots=seated, catalogue=cat, max_decisions=max_decisions)


def play_match(
    seed: int,
    bots: Sequence[str],
    players: int | None = None,
    catalogue: Catalogue | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> GameRecord:
    """Play one game of the registered ``bots`` (one name per seat) dealt from ``seed``.

    ``players`` defaults to ``len(bots)``; ``catalogue`` to the default one.
    ``options`` go to every bot (:data:`~pastiche_core.ai.roster.BOT_OPTIONS`,
    e.g. ``{"budget_ms": 300}``; each bot takes those it uses), and so does the
    catalogue. The game is bounded: past ``max_decisions`` decisions it raises
    :class:`~pastiche_core.bots.play.DecisionLimitError`. Bad arguments raise
    :class:`~pastiche_core.data.errors.InvalidArgumentError` before any card is dealt.

    >>> record = play_match(3, ["random"] * 4, options={"budget_ms": 50})
    >>> len(record.moves) > 20
    True
    >>> play_match(3, ["random", "random"])
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: players must be from 3 to 5 (R10), got 2
    """
    return GameRecord.of(_play(seed, bots, players, catalogue, options, max_decisions))


def match_result(
    seed: int,
    bots: Sequence[str],
    players: int | None = None,
    catalogue: Catalogue | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> GameResult:
    """The result of the game :func:`play_match` plays with the same arguments (R13).

    Tournaments run this: the same game, without the record's moves to send
    back.

    >>> result = match_result(7, ["greedy", "random", "random"])
    >>> result == play_match(7, ["greedy", "random", "random"]).replay().result
    True
    """
    result = _play(seed, bots, players, catalogue, options, max_decisions).result
    assert result is not None  # play_game returns only finished games
    return result


def timed_match_result(
    seed: int,
    bots: Sequence[str],
    players: int | None = None,
    catalogue: Catalogue | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> tuple[GameResult, tuple[float, ...], float]:
    """:func:`match_result`, with the CPU seconds each seat's bot spent choosing and the
    CPU seconds of the whole game (the deal, the rules and the bots).

    The result is the same as :func:`match_result`'s; the times are this process's.

    >>> result, seats, whole = timed_match_result(7, ["greedy", "random", "random"])
    >>> result == match_result(7, ["greedy", "random", "random"])
    True
    >>> len(seats), sum(seats) <= whole
    (3, True)
    """
    start = time.process_time()
    timed: list[CpuTimedBot] = []
    result = _play(seed, bots, players, catalogue, options, max_decisions, timed).result
    assert result is not None  # play_game returns only finished games
    whole = time.process_time() - start
    return result, tuple(bot.cpu_seconds for bot in timed), whole
