"""The bots' turns in a service game: bounded by a clock, always legal, the same in a worker.

:func:`play_bots` lets the bots of a game play until a human is to move, the
game ends, ``bot_decisions`` decisions are taken or ``bot_time_limit`` seconds
pass. Every decision gets what is left of that time as its own deadline,
where the bot takes one: the greedy bot's solver calls stop at it
(``time_limit``), the search stops at it (``deadline``). A bot that fails, or
answers a move the rules forbid, plays :func:`cheap_move` instead, so a game
never stalls on a bot.

A decision that ends before its deadline is the decision the bot would take
without one (same seed, ``derive_seed(game seed, "bot", seat, decision)``), so
a game stays determined by its seed and the humans' moves (R14) whenever the
bots had their time.

The service runs this in a worker process when it has a pool
(:func:`run_bots`: the game goes in as its record, the bots' moves come back in
notation) and in its own thread otherwise.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> moves, done = play_bots(game, (None, "random", "random"), seconds=5.0, decisions=100)
>>> done, [str(move) for move in moves], game.to_move
(True, ['keep MYT1 HOR7 FAN10'], 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..ai.greedy import GreedyBot
from ..ai.roster import make_bot
from ..ai.search import SearchBot
from ..ai.search_budget import ceiling
from ..bots.play import Bot, derive_seed
from ..data.errors import PasticheError
from ..engine.game import Game
from ..engine.moves import Draw, Move, Pass, TakeDiscard
from ..engine.rules import Phase
from ..io.record import GameRecord

__all__ = ["BotMaker", "cheap_move", "decide", "play_bots", "run_bots"]

BotMaker = Mapping[str, Callable[..., Bot]]
"""Bot factories by name, each called as ``factory(seed, catalogue=game_catalogue)``."""

_SHORTEST = 0.001
"""The least time a decision is given (a solver call needs a time limit above 0)."""


def _default_bots() -> BotMaker:
    return {name: _named(name) for name in ("random", "greedy", "search")}


def _named(name: str) -> Callable[..., Bot]:
    def factory(seed: int, **options: Any) -> Bot:
        return make_bot(name, seed, **options)

    return factory


def cheap_move(game: Game) -> Move:
    """A legal move found without listing any publish: draw, take, pass, or the first move.

    What a bot plays when its own decision failed (its worker was stopped, it
    raised, it answered an illegal move). Outside the action phase the moves
    are few (keeps, choices, the End Flag's card) and the first is taken.

    >>> game = Game(players=3, seed=7)
    >>> str(cheap_move(game))
    'keep MYT1 HOR7 HOR8'
    >>> game.apply(cheap_move(game))
    >>> game.phase, str(cheap_move(game))
    (<Phase.ACTION: 'action'>, 'draw')
    """
    if game.phase is Phase.ACTION:
        for move in (Draw(), TakeDiscard(), Pass()):
            if game.is_legal(move):
                return move
    return game.legal_moves[0]


def decide(bot: Bot, game: Game, deadline: float) -> Move:
    """``bot``'s move for the player to move, thinking until ``deadline`` (an instant of
    :func:`time.monotonic`) where the bot can stop there; :func:`cheap_move` if it fails.

    >>> game = Game(players=3, seed=7)
    >>> str(decide(GreedyBot(1), game, time.monotonic() + 5))
    'keep HOR7 HOR8 FAN10'
    """
    seat = game.to_move
    view = game.view(seat)
    left = max(deadline - time.monotonic(), _SHORTEST)
    try:
        if isinstance(bot, SearchBot):
            move = bot.choose(view, game.legal_moves, deadline=ceiling(left))
        else:
            if isinstance(bot, GreedyBot) and (bot.time_limit is None or bot.time_limit > left):
                bot.time_limit = left  # its solver calls stop in time
            move = bot.choose(view, game.legal_moves)
    except PasticheError:
        return cheap_move(game)
    return move if game.is_legal(move) else cheap_move(game)


def play_bots(
    game: Game,
    bots: Sequence[str | None],
    *,
    seconds: float,
    decisions: int,
    makers: BotMaker | None = None,
) -> tuple[list[Move], bool]:
    """Let the bots play ``game`` (``bots[seat]``: a bot name, ``None`` for a human).

    At most ``decisions`` decisions within ``seconds``; returns the moves made
    (already applied to ``game``) and whether the bots are done (a human is to
    move or the game is over). ``makers`` maps names to factories (default:
    the bots of :mod:`pastiche_core.ai.roster`).
    """
    makers = _default_bots() if makers is None else makers
    deadline = time.monotonic() + seconds
    moves: list[Move] = []
    for _ in range(decisions):
        if game.is_over or bots[game.to_move] is None:
            return moves, True
        if time.monotonic() >= deadline:
            break
        seat = game.to_move
        kind = bots[seat]
        assert kind is not None
        seed = derive_seed(game.seed, "bot", seat, len(game.history))
        move = decide(makers[kind](seed, catalogue=game.catalogue), game, deadline)
        game.apply(move)
        moves.append(move)
    return moves, game.is_over or bots[game.to_move] is None


def run_bots(body: Mapping[str, Any], seconds: float, decisions: int) -> dict[str, Any]:
    """A worker's bot turn: replay ``body["record"]`` (R14), let the bots of ``body["bots"]``
    play, and answer their moves in notation and whether they are done.

    >>> record = GameRecord(3, 7).to_dict()
    >>> run_bots({"record": record, "bots": [None, "random", "random"]}, 5.0, 100)
    {'moves': ['keep MYT1 HOR7 FAN10'], 'done': True}
    """
    game = GameRecord.from_dict(body["record"]).replay()
    moves, done = play_bots(game, list(body["bots"]), seconds=seconds, decisions=decisions)
    return {"moves": [str(move) for move in moves], "done": done}
