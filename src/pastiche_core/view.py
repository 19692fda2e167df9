"""A player's view: exactly what one player may know of a game.

The view holds the player's own hand, the other hands' sizes, the deck size, the
discard pile with face-down cards hidden (R10), every novel on the table, the
supply, the End Flag and whose decision it is. The two cards drawn by Write ①
are shown only to the player choosing between them.

>>> from pastiche_core import Game
>>> view = Game(players=3, seed=7).view(0)
>>> view.hand_sizes, view.deck_size
((3, 3, 4), 39)
>>> view
<PlayerView player 0, turn 0, keep: player 2 to move, hand LOV4 LOV7 MAG8>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card, format_cards
from .table import TableNovel

if TYPE_CHECKING:
    from .game import Game, Phase

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``player`` may know at this moment, and nothing more.

    ``discard`` lists the pile bottom to top with ``None`` for a face-down card.
    ``pending`` holds the two drawn cards only when this player is choosing.
    """

    player: int
    players: int
    phase: Phase
    to_move: int
    current: int
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard: tuple[Card | None, ...]
    tables: tuple[tuple[TableNovel, ...], ...]
    supply: tuple[tuple[str, int], ...]
    flag: tuple[int, Card] | None
    pending: tuple[Card, Card] | None
    passes: int
    trigger: int | None
    turns_left: int | None
    end_reason: str | None
    scores: tuple[int, ...]

    @classmethod
    def of(cls, game: Game, player: int) -> PlayerView:
        """The view of ``player`` in ``game`` (same as ``game.view(player)``)."""
        from .game import Phase

        if not 0 <= player < game.players:
            raise ValueError(f"player must be from 0 to {game.players - 1}, got {player}")
        show_pending = game.phase is Phase.CHOOSE and game.to_move == player
        return cls(
            player=player,
            players=game.players,
            phase=game.phase,
            to_move=game.to_move,
            current=game.current,
            turn=game.turn,
            hand=game.hand(player),
            hand_sizes=tuple(len(game.hand(p)) for p in range(game.players)),
            deck_size=game.deck_size,
            discard=tuple(None if game.is_face_down(c) else c for c in game.discard),
            tables=tuple(game.table(p) for p in range(game.players)),
            supply=tuple(game.supply.items()),
            flag=game.flag,
            pending=game.pending if show_pending else None,
            passes=game.passes,
            trigger=game.trigger,
            turns_left=game.turns_left,
            end_reason=game.end_reason,
            scores=game.scores(),
        )

    def __repr__(self) -> str:
        return (
            f"<PlayerView player {self.player}, turn {self.turn}, {self.phase.value}: "
            f"player {self.to_move} to move, hand {format_cards(self.hand) or '-'}>"
        )
