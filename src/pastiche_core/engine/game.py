"""The game state and the rules engine (R4–R14).

:class:`Game` is the mutable state; it carries every rule. Each decision of the
rules is an explicit decision point (:class:`Phase`) answered by one
:class:`~pastiche_core.engine.moves.Move`:

* ``Phase.KEEP`` — setup: from seat 2 on, each player keeps 3 cards (R10);
* ``Phase.ACTION`` — the turn action: Write ① (:class:`Draw`), Write ②
  (:class:`TakeDiscard`), :class:`Publish`, :class:`Read` or :class:`Pass` (R11);
* ``Phase.CHOOSE`` — after Write ①, which drawn card to keep (R11);
* ``Phase.FLAG`` — the trigger player's card under the End Flag (R12);
* ``Phase.OVER`` — the game has ended (R12, R13).

Every move goes through one rule path: :meth:`Game.violation` says why a move is
illegal (or ``None``), :meth:`Game.is_legal` and ``move in game.legal_moves``
ask it without enumerating, and :meth:`Game.apply` raises
:class:`~pastiche_core.data.errors.IllegalMoveError` with that reason and leaves the
state untouched.

A game shows only what a user reads or calls (:data:`PUBLIC_NAMES`); its state
cannot be changed but by its moves (its containers are read-only windows or
copies). The engine is split by concern: the state, its deal and caches
(:mod:`~pastiche_core.engine.game_state`, its plain values in
:mod:`~pastiche_core.engine.game_values`), the rules, apply and undo
(:mod:`~pastiche_core.engine.game_apply`), the records of the moves
(:mod:`~pastiche_core.engine.game_records`); the engine's other modules read a game
through :mod:`pastiche_core.engine.game_internals` (not public).

>>> game = Game(players=3, seed=7)
>>> game
<Game 3 players, seed 7, turn 0, keep: player 2 to move>
>>> game.apply(next(iter(game.legal_moves)))
>>> game.phase, game.to_move
(<Phase.ACTION: 'action'>, 0)
>>> game.apply("draw"); game.phase
<Phase.CHOOSE: 'choose'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..data.cards import format_cards
from ..data.catalogue import Catalogue
from .game_apply import MAX_KEEPS, Answer, LegalMoves, keep_choices, keep_moves
from .game_records import GameRecords
from .game_values import GameResult, check_deal
from .rules import DEAL_SIZES, END_THRESHOLD, KEEP_SIZE, MAX_PLAYERS, MIN_PLAYERS, Phase
from .view import PlayerView

if TYPE_CHECKING:
    from ..solver.position import Position

__all__ = [
    "DEAL_SIZES",
    "END_THRESHOLD",
    "KEEP_SIZE",
    "MAX_KEEPS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PUBLIC_NAMES",
    "Answer",
    "Game",
    "GameResult",
    "LegalMoves",
    "Phase",
    "check_deal",
    "keep_choices",
    "keep_moves",
]

PUBLIC_NAMES = (
    "apply",
    "catalogue",
    "copy",
    "deck_size",
    "discard",
    "from_json",
    "generation",
    "hand",
    "history",
    "is_legal",
    "is_over",
    "legal_moves",
    "phase",
    "players",
    "position",
    "replayed",
    "result",
    "rules",
    "scores",
    "seed",
    "supply",
    "table",
    "tables",
    "to_json",
    "to_move",
    "turn",
    "undo",
    "view",
    "violation",
    "winners",
)
"""Every public name of a :class:`Game`: what a user reads or calls (at most 30)."""


class Game(GameRecords):
    """A game of Pastiche for 3–5 players, dealt from a seeded shuffle (R10, R14).

    >>> game = Game(players=4, seed=1)
    >>> [len(game.hand(p)) for p in range(4)]
    [3, 3, 4, 4]
    >>> game.deck_size, len(game.discard)
    (35, 0)
    >>> sorted(name for name in dir(game) if not name.startswith("_")) == list(PUBLIC_NAMES)
    True
    """

    __slots__ = ()

    def __repr__(self) -> str:
        if self._phase is Phase.OVER:
            status = f"over ({self._end_reason}), winners {list(self.winners())}"
        else:
            status = f"{self._phase.value}: player {self._to_move} to move"
        return f"<Game {self._players} players, seed {self._seed}, turn {self._turn}, {status}>"

    def __str__(self) -> str:
        lines = [repr(self)]
        top = self._discard[-1] if self._discard else None
        top_text = "none" if top is None else ("face down" if top in self._face_down else str(top))
        lines.append(f"deck {len(self._deck)}, discard {len(self._discard)} (top: {top_text})")
        for p in range(self._players):
            novels = " ".join(str(n) for n in self.table(p)) or "-"
            flag = f" flag[{self._flag[1]}]" if self._flag and self._flag[0] == p else ""
            lines.append(
                f"P{p} score {self.scores()[p]}: hand {format_cards(self._hands[p]) or '-'}"
                f" | {novels}{flag}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------------
    # Views, records and JSON
    # ------------------------------------------------------------------
    def view(self, player: int, *, history: bool = True) -> PlayerView:
        """What ``player`` may know: see :class:`~pastiche_core.engine.view.PlayerView`.

        ``history=False`` leaves the view's :attr:`~pastiche_core.engine.view.PlayerView.history`
        empty, for callers that never read it (writing it costs the notation of
        every move since the player's last view).

        >>> game = Game(players=3, seed=7); game.apply("keep MYT1 HOR7 HOR8")
        >>> game.view(0).history, game.view(0, history=False).history
        (((2, 'keep ? ? ?'),), ())
        """
        return self._view(player, history)

    def position(self, player: int | None = None) -> Position:
        """The publish position of ``player`` (default: the player to move).

        >>> Game(players=3, seed=7).position(0).hand == Game(players=3, seed=7).hand(0)
        True
        """
        from ..solver.position import Position

        return Position.from_game(self, player)

    def _repr_html_(self) -> str:
        """Scores and the table drawn in genre colours, grouped by player (Jupyter)."""
        from ..io.render import game_html

        return game_html(self)

    def __rich__(self) -> Any:
        """The game coloured by genre in a rich console."""
        from ..io.render import rich_text

        return rich_text(self)

    def to_json(self, indent: int | None = None) -> str:
        """The versioned state JSON (see :mod:`pastiche_core.io.state_json`).

        >>> game = Game(players=3, seed=7)
        >>> Game.from_json(game.to_json()) == game
        True
        """
        from ..io.state_json import state_to_json

        return state_to_json(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes, *, catalogue: Catalogue | None = None) -> Game:
        """Load a state written by :meth:`to_json`, rejecting impossible states.

        >>> Game.from_json('{"format": "pastiche-state", "version": 9}')
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidStateError: $.version: unsupported version 9 (this library reads version 1)
        """
        from ..io.state_json import state_from_json

        return state_from_json(text, catalogue=catalogue)
