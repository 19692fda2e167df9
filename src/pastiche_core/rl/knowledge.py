"""What one player has seen of the cards, move after move (R16).

A player's view shows the table as it is now; the history tells more. A card
taken face up from the discard pile, or read from a Published novel, lies in the
taker's hand until the taker lays it down; a card the player gave as a gift lies
in the receiver's hand. :class:`Knowledge` follows one player through the game
and keeps:

* :attr:`~Knowledge.seen` — every card the player has seen at some time: their
  hands, the cards they drew, discarded, gave or received, every card laid face
  up (discards, the table, the End Flag) and every card whose move named it;
* :attr:`~Knowledge.holders` — the cards they know to lie in another seat's hand,
  with that seat. A hidden gift between two other seats (R5) may move any card
  of the giver's hand, so the giver's known cards are forgotten then.

It reads only what the player saw (public moves, their own moves, the cards laid
face up), so an observation built from it depends on nothing hidden.
:meth:`Knowledge.update` follows one move from the game's last undo record;
:meth:`Knowledge.of` replays a whole game.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> knowledge = Knowledge.of(game, 2)
>>> for move in ("keep MYT1 HOR7 HOR8", "draw", "choose SCI5", "take"):
...     game.apply(move)
...     knowledge.update(game)
>>> knowledge.known_hands()  # player 1 took FAN11, which player 0 discarded face up
{1: (Card.parse('FAN11'),)}
>>> Knowledge.of(game, 0).known_hands(), Knowledge.of(game, 1).known_hands()
({1: (Card.parse('FAN11'),)}, {})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import DECK, Card
from ..errors import InvalidArgumentError
from ..game import Game
from ..moves import Choose, Draw, Keep, Move, Publish, Read, TakeDiscard, TakeFlag

__all__ = ["Knowledge"]


class Knowledge:
    """The cards one player has seen, and the other hands they know cards of (module docstring).

    Start it with :meth:`of` and call :meth:`update` after every move applied to
    the game. Cards are stored by their index in :data:`~pastiche_core.cards.DECK`.

    >>> from pastiche_core import Game
    >>> knowledge = Knowledge.of(Game(players=3, seed=7), 0)
    >>> sorted(DECK[i] for i in knowledge.seen) == list(Game(players=3, seed=7).hand(0))
    True
    """

    __slots__ = ("holders", "moves", "player", "seen")

    def __init__(self, player: int, seen: set[int], holders: dict[int, int], moves: int = 0):
        self.player = player
        self.seen = seen
        """Indexes of every card the player has seen."""
        self.holders = holders
        """Card index -> the other seat whose hand the player knows it lies in."""
        self.moves = moves
        """How many moves of the game it has followed."""

    @classmethod
    def of(cls, game: Game, player: int) -> Knowledge:
        """What ``player`` knows in ``game``, following its history from the deal.

        A game with a history is taken back to its deal on a copy (with
        :meth:`~pastiche_core.game.Game.undo`) and played forward again.

        >>> from pastiche_core import Game
        >>> Knowledge.of(Game(players=3), 3)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: player must be a seat from 0 to 2, got 3
        """
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidArgumentError(f"player must be a seat number, got {player!r}")
        if not 0 <= player < game.players:
            raise InvalidArgumentError(
                f"player must be a seat from 0 to {game.players - 1}, got {player}"
            )
        if not game.history:
            return cls(player, {card.index for card in game.hand(player)}, {})
        start = game.copy()
        moves = []
        while start.history:
            moves.append(start.undo())
        knowledge = cls(player, {card.index for card in start.hand(player)}, {})
        for move in reversed(moves):
            start.apply(move)
            knowledge.update(start)
        return knowledge

    def copy(self) -> Knowledge:
        """An independent copy."""
        return Knowledge(self.player, self.seen.copy(), self.holders.copy(), self.moves)

    def renamed(self, cards: Mapping[Card, Card]) -> Knowledge:
        """The knowledge of the same player in ``game.renamed(cards)``.

        >>> from pastiche_core import Card, Game
        >>> a, b = Card.parse("LOV4"), Card.parse("MYT1")
        >>> Knowledge.of(Game(players=3, seed=7), 0).renamed({a: b, b: a}).seen == (
        ...     Knowledge.of(Game(players=3, seed=7).renamed({a: b, b: a}), 0).seen)
        True
        """
        index = {old.index: new.index for old, new in cards.items()}
        return Knowledge(
            self.player,
            {index.get(card, card) for card in self.seen},
            {index.get(card, card): seat for card, seat in self.holders.items()},
            self.moves,
        )

    def known_hands(self) -> dict[int, tuple[Card, ...]]:
        """The cards the player knows to lie in each other seat's hand, by seat.

        >>> from pastiche_core import Game
        >>> Knowledge.of(Game(players=3), 0).known_hands()
        {}
        """
        hands: dict[int, list[Card]] = {}
        for card, seat in sorted(self.holders.items()):
            hands.setdefault(seat, []).append(DECK[card])
        return {seat: tuple(cards) for seat, cards in sorted(hands.items())}

    def update(self, game: Game) -> None:
        """Follow the move just applied to ``game`` (its last move and undo record).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> knowledge = Knowledge.of(game, 0)
        >>> knowledge.update(game)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: the knowledge has followed 0 moves and the game has 0: call update once after each move
        """
        self._check(game)
        self._follow(game.history[-1], game._undo[-1], game)

    @staticmethod
    def update_all(knowledge: Sequence[Knowledge], game: Game) -> None:
        """:meth:`update` of each of ``knowledge`` (the move is read once for them all).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> every = [Knowledge.of(game, seat) for seat in range(3)]
        >>> game.apply("keep MYT1 HOR7 HOR8"); Knowledge.update_all(every, game)
        >>> [each.moves for each in every]
        [1, 1, 1]
        """
        for each in knowledge:
            each._check(game)
        move, record = game.history[-1], game._undo[-1]
        for each in knowledge:
            each._follow(move, record, game)

    def _check(self, game: Game) -> None:
        """Refuse a game that is not exactly one move ahead of this knowledge."""
        moves = len(game.history)
        if moves != self.moves + 1 or len(game._undo) != moves:
            raise InvalidArgumentError(
                f"the knowledge has followed {self.moves} moves and the game has "
                f"{moves}: call update once after each move"
            )

    def _follow(self, move: Move, record: Any, game: Game) -> None:
        """Follow ``move`` with its undo record (checked by :meth:`_check`)."""
        self.moves += 1
        before, change = record
        seat: int = before[1]
        me = self.player
        seen = self.seen
        holders = self.holders
        kind = move.__class__  # moves are final classes: one identity test per kind
        if kind is Keep:
            if seat == me:
                seen.update(card.index for card in change)  # own discards (R10, R16)
        elif kind is Draw:
            deck, _pile, face_down, taken = change
            if seat == me:
                if game.pending is not None:
                    seen.update(card.index for card in game.pending)
                elif taken is not None:
                    seen.add(taken.index)
            elif taken is not None:
                # One card left in all (R11): it went to the drawer, from the deck or the pile.
                face_up = not deck and taken not in face_down
                if face_up or taken.index in seen:
                    seen.add(taken.index)
                    holders[taken.index] = seat
        elif kind is Choose:
            assert isinstance(move, Choose)
            first, second = before[3]
            other = second if first == move.card else first
            seen.add(other.index)  # discarded face up (R11)
            if seat == me:
                seen.add(move.card.index)
        elif kind is TakeDiscard:
            card, was_face_down = change
            if seat == me:
                seen.add(card.index)
            elif not was_face_down or card.index in seen:
                seen.add(card.index)
                holders[card.index] = seat
        elif kind is Publish:
            assert isinstance(move, Publish)
            for card in move.played:
                seen.add(card.index)
                holders.pop(card.index, None)
            hidden = False
            for gift in move.gifts:
                index = gift.card.index
                if seat == me:
                    seen.add(index)
                    holders[index] = gift.to
                elif gift.to == me:
                    seen.add(index)
                    holders.pop(index, None)
                else:
                    hidden = True
            if hidden:  # R5: any card of the giver's hand may have gone
                for index in [card for card, holder in holders.items() if holder == seat]:
                    del holders[index]
        elif kind is Read:
            assert isinstance(move, Read)
            seen.add(move.card.index)
            if seat != me:
                holders[move.card.index] = seat
        elif kind is TakeFlag:
            assert isinstance(move, TakeFlag)
            seen.add(move.card.index)
            holders.pop(move.card.index, None)

    def __repr__(self) -> str:
        return (
            f"<Knowledge player {self.player}, {self.moves} moves, {len(self.seen)} cards seen, "
            f"{len(self.holders)} known in other hands>"
        )
