"""The players of the other seats in a single-agent environment: bots by name, or callables.

The ``opponents`` option of :func:`pastiche_core.gymnasium.env` is one bot name
of :data:`~pastiche_core.ai.roster.BOTS` (``"random"``, ``"greedy"``,
``"search"``), a list with one entry per other seat, or a callable. A callable
(a *policy*) is called as ``policy(view, legal)`` with the
:class:`~pastiche_core.engine.view.PlayerView` of the seat to move and the game's
:class:`~pastiche_core.engine.game.LegalMoves`, and returns one of those moves (a
:class:`~pastiche_core.bots.play.Bot`'s ``choose`` is such a callable; a bot itself
is taken too). In a list, entry ``i`` plays the seat ``i + 1`` places after the
learner's, so the list reads in turn order from the learner's left whatever seat
the learner draws.

Named bots are made anew at every deal with :func:`~pastiche_core.ai.roster.make_bot`,
seeded from the deal's seed and their seat (:func:`~pastiche_core.bots.play.derive_seed`),
so a reset seed replays the same game. The search bot thinks
:data:`SEARCH_BUDGET_MS` per move: a few simulations, enough to play sensibly
while an environment step stays in the milliseconds.

>>> from pastiche_core import Game
>>> opponents = Opponents(["random", "greedy", "search"], players=4)
>>> opponents.names
('random', 'greedy', 'search')
>>> game = Game(players=4, seed=5)
>>> seats = opponents.deal(game, learner=1)
>>> [type(player).__name__ for player in seats]
['SearchBot', 'NoneType', 'RandomBot', 'GreedyBot']
>>> Opponents("grumpy", players=4)
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidArgumentError: opponents must be a bot name (random, greedy, search), a callable or a list of 3 of them, got 'grumpy'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..bots.play import Bot, RandomBot, derive_seed
from ..data._text import quote
from ..data.errors import InvalidArgumentError
from ..engine.game import Game, LegalMoves
from ..engine.knowledge import Knowledge
from ..engine.moves import Move

if TYPE_CHECKING:
    from ..engine.view import PlayerView

__all__ = [
    "SEARCH_BUDGET_MS",
    "Opponents",
    "Policy",
    "SeatPlayer",
    "opponent_seeds",
    "play_until",
]

SEARCH_BUDGET_MS = 10
"""The search bot's budget per move as an opponent, in milliseconds (3 simulations:
:func:`~pastiche_core.ai.search.simulations_for`), a fixed count on any machine."""

Policy = Callable[["PlayerView", LegalMoves], Move]
"""``policy(view, legal) -> Move``: plays a seat from its view and the legal moves."""

SeatPlayer = Bot | Policy | None
"""Who plays one seat in a deal: a bot, a policy, or ``None`` for the learner's seat."""


def _bot_names() -> tuple[str, ...]:
    from ..ai.roster import BOTS

    return tuple(BOTS)


def opponent_seeds(game_seed: int, players: int, learner: int) -> tuple[int | None, ...]:
    """Every seat's bot seed in the game dealt from ``game_seed`` (``None`` for the learner's):
    ``derive_seed(game_seed, "opponent", seat)``, whether the engine or the compiled games
    play the bots, so one seed replays the same game on either.

    >>> seeds = opponent_seeds(5, players=3, learner=1)
    >>> seeds[1] is None, seeds[0] == derive_seed(5, "opponent", 0)
    (True, True)
    """
    return tuple(
        None if seat == learner else derive_seed(game_seed, "opponent", seat)
        for seat in range(players)
    )


class Opponents:
    """The ``opponents`` option, checked: one entry per other seat (see the module docstring).

    >>> Opponents("greedy", players=3).names
    ('greedy', 'greedy')
    >>> Opponents(["random"], players=3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: opponents must list one entry per other seat (2), got 1
    """

    __slots__ = ("entries", "names")

    def __init__(self, opponents: object, players: int) -> None:
        others = players - 1
        names = _bot_names()
        if isinstance(opponents, str) or callable(opponents) or isinstance(opponents, Bot):
            listed: list[object] = [opponents] * others
        elif isinstance(opponents, list | tuple):
            listed = list(opponents)
            if len(listed) != others:
                raise InvalidArgumentError(
                    f"opponents must list one entry per other seat ({others}), got {len(listed)}"
                )
        else:
            listed = [opponents]
        entries: list[str | Bot | Policy] = []
        for entry in listed:
            if isinstance(entry, str) and entry in names:
                entries.append(entry)
            elif isinstance(entry, Bot) or callable(entry):
                entries.append(cast("Bot | Policy", entry))
            else:
                raise InvalidArgumentError(
                    f"opponents must be a bot name ({', '.join(names)}), a callable or a list "
                    f"of {others} of them, got {quote(entry)}"
                )
        self.entries: tuple[str | Bot | Policy, ...] = tuple(entries)
        """The player of each other seat, from the learner's left: a bot name, a bot or a
        policy."""
        self.names: tuple[str, ...] = tuple(
            entry if isinstance(entry, str) else getattr(entry, "__name__", type(entry).__name__)
            for entry in entries
        )
        """A name per entry: the bot name, or the callable's (its type's for a bot)."""

    @property
    def packable(self) -> bool:
        """Whether every other seat is a random bot: the games can then be played packed by
        the compiled ``episodes`` kernel instead of the engine.

        >>> Opponents("random", players=3).packable, Opponents("greedy", players=3).packable
        (True, False)
        """
        return all(isinstance(entry, str) and entry == "random" for entry in self.entries)

    def deal(self, game: Game, learner: int) -> list[SeatPlayer]:
        """The player of every seat of ``game`` (``None`` for the learner's), bots made anew.

        A named bot is seeded with its seat's :func:`opponent_seeds`.

        >>> from pastiche_core import Game
        >>> players = Opponents("random", players=3).deal(Game(players=3, seed=2), learner=0)
        >>> players[0] is None, players[1]
        (True, RandomBot(seed=...))
        """
        from ..ai.roster import make_bot

        seats: list[SeatPlayer] = [None] * game.players
        seeds = opponent_seeds(game.seed, game.players, learner)
        for offset, entry in enumerate(self.entries, start=1):
            seat = (learner + offset) % game.players
            seed = seeds[seat]
            assert seed is not None  # only the learner's seat has none
            if entry == "random":
                # make_bot's RandomBot, made directly: it takes no option, and a deal of
                # short games should not pay for make_bot's look at the factory's signature.
                seats[seat] = RandomBot(seed)
            elif isinstance(entry, str):
                seats[seat] = make_bot(
                    entry,
                    seed,
                    budget_ms=SEARCH_BUDGET_MS,
                    catalogue=game.catalogue,
                )
            else:
                seats[seat] = entry
        return seats

    def __repr__(self) -> str:
        return f"Opponents({list(self.names)!r})"


def play_until(
    game: Game, seats: list[SeatPlayer], learner: int, knowledge: Knowledge | None = None
) -> int:
    """Play the other seats' moves until ``learner`` is to move or the game is over.

    Each bot or policy gets its seat's view and the legal moves; a move that is
    not legal raises :class:`~pastiche_core.data.errors.IllegalMoveError`. A
    :class:`~pastiche_core.bots.play.RandomBot` never reads the view (its documented
    behaviour), so none is built for it, and a
    :class:`~pastiche_core.ai.greedy.GreedyBot`'s has no history (it reads none). ``knowledge`` (the learner's) follows
    every move. Returns the number of moves played.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> seats = Opponents("random", players=3).deal(game, learner=0)
    >>> play_until(game, seats, learner=0), game.to_move
    (1, 0)
    """
    from ..ai.greedy import GreedyBot

    played = 0
    while not game.is_over:
        seat = game.to_move
        if seat == learner:
            break
        player = seats[seat]
        legal = game.legal_moves
        if player.__class__ is RandomBot:
            move = player.choose(cast("PlayerView", None), legal)
        elif player.__class__ is GreedyBot:
            # It reads no history: writing the notation of every move since the seat's last
            # view cost about 5 % of a greedy opponent's time.
            move = player.choose(game.view(seat, history=False), legal)
        elif isinstance(player, Bot):
            move = player.choose(game.view(seat), legal)
        else:
            move = cast(Callable[..., Any], player)(game.view(seat), legal)
        game.apply(move)
        if knowledge is not None:
            knowledge.update(game)
        played += 1
    return played
