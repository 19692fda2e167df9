"""The rules of play on a game: the one rule path, apply and undo, move generation (R4–R14).

:class:`GameMoves` adds to :class:`~pastiche_core.engine.game_state.GameState` every
decision of the rules: :meth:`GameMoves.violation` says why a move is illegal
(or ``None``), :meth:`GameMoves.apply` plays a legal one and
:meth:`GameMoves.undo` takes it back; :class:`LegalMoves` counts and indexes the
legal moves without listing them. Every check is made before the state
changes, and a move handed out by :class:`LegalMoves` is trusted in the very
position (generation) it was handed out in, nowhere else.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> game.apply(game.legal_moves[0]); game.phase, game.to_move
(<Phase.ACTION: 'action'>, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, Self

from ..data.cards import Card, format_cards
from ..data.catalogue import END_FLAG_ID, Catalogue
from ..data.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
)
from .feasibility import owed_text, publish_violation
from .game_state import GameState
from .game_values import novel_positions
from .layout import (
    CARDS,
    DRAWN,
    FLAG,
    HAND,
    MASTER,
    NO_NOVEL,
    PILE_DOWN,
    PILE_UP,
    PUBLISHED,
    UNSEEN,
)
from .movegen import KeepSegment, ListSegment, PublishSegment, Segment, publish_segments
from .moves import (
    Choose,
    Draw,
    Keep,
    Move,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from .rules import KEEP_SIZE, Phase, Rules, setup_discarders, turn_actions
from .table import is_masterpiece

__all__ = [
    "MAX_KEEPS",
    "Answer",
    "GameMoves",
    "LegalMoves",
    "apply_built",
    "keep_choices",
    "keep_moves",
    "publish_moves",
    "stack_deck",
]


def keep_moves(hand: Iterable[Card], keep: int = KEEP_SIZE) -> list[Keep]:
    """Every setup keep of ``keep`` cards of ``hand``, in enumeration order (R10, R15).

    Kept cards go by combinations of the sorted hand; a seat that discards two
    or more also chooses their order, so every order is listed. The keeps are
    counted before they are listed: more than :data:`MAX_KEEPS` (a house rule's
    large deal) raise :class:`~pastiche_core.data.errors.InvalidArgumentError` (a game
    counts such keeps without listing them, :class:`~pastiche_core.engine.movegen.KeepSegment`).

    >>> from pastiche_core import parse_cards
    >>> [str(move) for move in keep_moves(parse_cards("SCI9 MYT1 HOR7 LOV2"))]
    ['keep MYT1 LOV2 SCI9', 'keep MYT1 LOV2 HOR7', 'keep MYT1 SCI9 HOR7', 'keep LOV2 SCI9 HOR7']
    >>> len(keep_moves(parse_cards("MYT1 LOV2 SCI3 HOR4"), keep=2))
    12
    >>> keep_moves(parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5 FAN6 MAG7 MAG8 MAG9 MAG10"))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: a setup keep of 3 of 10 cards has 604800 orders, more than the 5040 listed (R10)
    """
    segment = KeepSegment(hand, keep)
    if segment.count > MAX_KEEPS:
        raise InvalidArgumentError(
            f"a setup keep of {keep} of {len(segment.cards)} cards has {segment.count} orders, "
            f"more than the {MAX_KEEPS} listed (R10)"
        )
    return list(segment)


MAX_KEEPS = 5040
"""The most setup keeps :func:`keep_moves` lists (the rulebook's largest hand has 20)."""


def keep_choices(hand: Iterable[Card], keep: int = KEEP_SIZE) -> list[Keep]:
    """The setup keeps a bot weighs: every keep of :func:`keep_moves` while they are at most
    :data:`MAX_KEEPS`; beyond (a house rule's large deal), one keep per choice of kept cards,
    its discards in card order (R15: the order matters only to who may take the top card).
    Every keep listed is legal (a keep without an order discards in card order).

    >>> from pastiche_core import parse_cards
    >>> hand = parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5")
    >>> keep_choices(hand) == keep_moves(hand), len(keep_choices(hand))
    (True, 20)
    >>> len(keep_choices(parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5 FAN6 MAG7 MAG8 MAG9 MAG10")))
    120
    """
    segment = KeepSegment(hand, keep)
    if segment.count <= MAX_KEEPS:
        return list(segment)
    return [Keep(kept) for kept in itertools.combinations(segment.cards, keep)]


class Answer(Protocol):
    """A solver answer that carries its move (:class:`~pastiche_core.solver.report.Best` of
    ``best(game)``): :meth:`Game.apply` plays that move."""

    @property
    def move(self) -> Publish | None:
        """The move the answer stands for, when it was made for a game."""


class GameMoves(GameState):
    """A game state with the rules of play: check, apply and undo moves, list the legal ones.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.violation("draw")
    'the game is in setup: player 2 must keep 3 cards (R10)'
    """

    __slots__ = ()

    @classmethod
    def replayed(
        cls,
        moves: Iterable[Move | str],
        players: int = 4,
        seed: int = 0,
        catalogue: Catalogue | None = None,
        *,
        rules: Rules | None = None,
    ) -> Self:
        """A new game dealt from ``seed`` with ``moves`` applied in order (R14).

        An illegal move raises :class:`~pastiche_core.data.errors.IllegalMoveError`
        naming its index, its notation and the rule it breaks.

        >>> from pastiche_core import Game
        >>> Game.replayed(["keep MYT1 HOR7 HOR8", "take"], players=3, seed=7).hand(0)
        (Card.parse('LOV4'), Card.parse('LOV7'), Card.parse('FAN10'), Card.parse('MAG8'))
        >>> Game.replayed(["draw"], players=3, seed=7)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: moves[0] 'draw': the game is in setup: ...
        """
        game = cls(players, seed, catalogue, rules=rules)
        for index, move in enumerate(moves):
            try:
                game.apply(move)
            except IllegalMoveError:
                raise IllegalMoveError(f"moves[{index}] '{move}': {game.violation(move)}") from None
        return game

    # ------------------------------------------------------------------
    # The one rule path
    # ------------------------------------------------------------------
    def violation(self, move: Move | str) -> str | None:
        """Why ``move`` is illegal now, naming the ruling; ``None`` if it is legal.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> game.violation("draw")
        'the game is in setup: player 2 must keep 3 cards (R10)'
        """
        move = _as_move(move)
        phase = self._phase
        if phase is Phase.OVER:
            return "the game is over (R12)"
        if phase is Phase.KEEP:
            if not isinstance(move, Keep):
                return (
                    f"the game is in setup: player {self._to_move} must keep "
                    f"{self._rules.keep_size} cards (R10)"
                )
            return self._keep_violation(move)
        if phase is Phase.CHOOSE:
            if not isinstance(move, Choose):
                return f"player {self._to_move} must first choose one of the two drawn cards (R11)"
            pending = self._pending
            if pending is None:  # a state assembled without its drawn pair
                return f"player {self._to_move} has drawn no cards to choose from (R11)"
            if move.card not in pending:
                drawn = format_cards(pending, sort=False)
                return f"{move.card} is not one of the drawn cards {drawn} (R11)"
            return None
        if phase is Phase.FLAG:
            if not isinstance(move, TakeFlag):
                return f"player {self._to_move} must put a card under the End Flag (R12)"
            if move.card not in self._hands[self._to_move]:
                return f"{move.card} is not in player {self._to_move}'s hand (R12)"
            return None
        return self._action_violation(move)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` is legal now (the same check as :meth:`apply`).

        >>> from pastiche_core import Game
        >>> Game(players=3, seed=7).is_legal("pass")
        False
        """
        try:
            return self.violation(move) is None
        except ValueError:
            return False

    def apply(self, move: Move | str | Answer) -> None:
        """Play ``move`` (a :class:`Move`, its notation, or ``best(game)``'s answer) for the
        player to move.

        Raises :class:`IllegalMoveError` naming the rule, and then the state is
        exactly as before.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> game.apply("take")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: illegal move 'take': the game is in setup: player 2 must keep 3 cards (R10)
        >>> game.apply(42)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid move 42: expected a Move or its notation, such as 'draw'
        >>> game.apply(None)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: no move to apply (None): best(game) found nothing to publish now, and why_not(game, novel) says why; expected a Move or its notation, such as 'draw'
        """
        trusted = self._trusted
        if trusted is not None and trusted[0] is move and trusted[1] == self._generation:
            # The very move object the legal moves of this very position gave out (see
            # LegalMoves.__getitem__): legal by construction, canonical already.
            self._apply_legal(move)
            return
        move = _as_move(move)
        reason = self.violation(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move '{move}': {reason}")
        if isinstance(move, Keep):
            move = self._canonical_keep(move)
        self._apply_legal(move)

    def _canonical_keep(self, move: Keep) -> Keep:
        """The keep as the legal moves list it: the discard order given only for two (R15).

        A keep without an order discards in card order, so old records replay as
        they always did.
        """
        dropped = sorted(self._hands[self._to_move].difference(move.cards))
        if len(dropped) < 2:
            return Keep(move.cards) if move.discard else move
        return move if move.discard else Keep(move.cards, tuple(dropped))

    @property
    def legal_moves(self) -> LegalMoves:
        """A lazy view of the legal moves: iterate to enumerate, ``in`` to check one.

        >>> from pastiche_core import Game, Keep
        >>> game = Game(players=3, seed=7)
        >>> len(game.legal_moves)
        4
        >>> Keep.of("MYT1 LOV2 SCI3") in game.legal_moves
        False
        """
        return LegalMoves(self)

    # ------------------------------------------------------------------
    # Legality per phase
    # ------------------------------------------------------------------
    # home: R10.keep
    def _keep_violation(self, move: Keep) -> str | None:
        player = self._to_move
        keep = self._rules.keep_size
        if len(move.cards) != keep or len(set(move.cards)) != keep:
            return f"player {player} must keep exactly {keep} different cards (R10)"
        missing = [c for c in move.cards if c not in self._hands[player]]
        if missing:
            return f"{format_cards(missing)} not in player {player}'s hand (R10)"
        if move.discard:
            dropped = self._hands[player].difference(move.cards)
            if len(move.discard) != len(dropped) or set(move.discard) != dropped:
                return (
                    f"the discard order must list the cards player {player} does not keep, "
                    f"{format_cards(dropped)}, each once (R15)"
                )
        return None

    def _action_violation(self, move: Move) -> str | None:
        player = self._to_move
        if isinstance(move, Draw):
            if not self._can_write():
                return "Write ① needs a card in the deck or the discard pile (R11)"
            return None
        if isinstance(move, TakeDiscard):
            if not turn_actions(len(self._deck), len(self._discard), 0)[1]:
                return "Write ② needs a card in the discard pile (R11)"
            return None
        if isinstance(move, Publish):
            return self._publish_violation(move, player)
        if isinstance(move, Read):
            if move.source.novel == END_FLAG_ID:
                return "the End Flag cannot be read (R12)"
            novel = self._novel(move.source)
            if novel is None:
                return f"there is no novel {move.source} on the table (R11)"
            if novel.masterpiece:
                return f"{move.source} is a Masterpiece: only Published novels can be read (R11)"
            if move.card not in novel.cards:
                return f"{move.card} is not in {move.source} (R11)"
            return None
        if isinstance(move, Pass):
            if self._can_write():
                return "cannot pass while Write is possible (R11)"
            if self._can_read():
                return "cannot pass while Read is possible (R11)"
            return None
        if isinstance(move, TakeFlag):
            return (
                "the End Flag is taken only by the trigger player when the end is triggered (R12)"
            )
        return f"player {player} must take a turn action: draw, take, publish, read or pass (R11)"

    # home: R5.gifts
    def _publish_violation(self, move: Publish, player: int) -> str | None:
        reason, owed = publish_violation(
            self._catalogue,
            move.novel,
            supply=self._supply,
            holds=move.novel in self._tables[player],
            hand=self._hands[player],
            played=move.played,
            cited=move.cited,
            resolve=self._citation,
            player=player,
            who=f"player {player}",
        )
        if reason is not None:
            return reason
        hand = self._hands[player]
        given: dict[int, int] = {}
        for gift in move.gifts:
            given[gift.to] = given.get(gift.to, 0) + 1
        if given != owed:
            return owed_text(owed)
        gift_cards = [gift.card for gift in move.gifts]
        if len(set(gift_cards)) != len(gift_cards):
            return "a card is given twice (R5)"
        played = set(move.played)
        bad = [c for c in gift_cards if c not in hand or c in played]
        if bad:
            return (
                f"gift {format_cards(bad)} is not an unplayed card of player {player}'s hand (R5)"
            )
        return None

    # home: R6.cite
    def _citation(self, ref: NovelRef) -> tuple[int, int] | str:
        """The (owner, rank) a citation contributes, or why it cannot be cited (R6, R12)."""
        if ref.novel == END_FLAG_ID:
            return "the End Flag cannot be cited (R12): only Masterpieces can (R6)"
        novel = self._novel(ref)
        if novel is None:
            return f"there is no novel {ref} to cite (R4)"
        if not novel.masterpiece:
            return f"{ref} is Published, not a Masterpiece: it cannot be cited (R6)"
        return (ref.owner, novel.cards[0].rank)

    # ------------------------------------------------------------------
    # Applying legal moves
    # ------------------------------------------------------------------
    def _apply_legal(self, move: Move) -> None:
        """Play ``move``, legal in this position (checked, or handed out here by the legal
        moves); the history, the undo record and a new generation come last, once the move
        has been played, so nothing is recorded of a move that was refused."""
        player = self._to_move
        hand = self._hands[player]
        pending = self._pending
        if isinstance(move, Choose) and (pending is None or move.card not in pending):
            # Refused before anything changes (violation() says the same of a checked move).
            raise IllegalMoveError(f"illegal move '{move}': {self.violation(move)}")
        # What undo() needs: the scalars before the move and the move's own changes.
        before = self._scalars()
        change: Any = None
        table = self._cards
        if isinstance(move, Keep):
            kept = set(move.cards)
            dropped = list(move.discard) if move.discard else sorted(hand - kept)
            hand.intersection_update(kept)
            # R10, R15: discards go face down in the order given; the last seat's end on top.
            self._discard.extend(dropped)
            self._face_down.update(dropped)
            for card in dropped:
                table[card.index] = PILE_DOWN | player
            change = dropped
            following = [seat for seat in self._rules.keepers(self._players) if seat > player]
            if following:
                self._to_move = following[0]
            else:
                self._phase = Phase.ACTION
                self._current = self._to_move = 0
        elif isinstance(move, Draw):
            deck = self._deck
            # Two cards off the deck keep no record beyond the pair, which an undo puts back;
            # a draw that may reshuffle the discard pile into the deck (R11) keeps all three.
            if len(deck) < 2:
                change = (deck.copy(), self._discard.copy(), self._face_down.copy(), None, None)
            if len(deck) + len(self._discard) == 1:
                down = None if deck else self._discarder(self._discard[0])
                card = self._draw_one()
                hand.add(card)  # R11: only one card left in all: just take it
                table[card.index] = HAND | player
                change = (*change[:3], card, down)
                self._end_turn(passed=False)
            else:
                first = self._draw_one()
                self._pending = (first, self._draw_one())  # R11: reshuffle mid-draw if need be
                table[first.index] = table[self._pending[1].index] = DRAWN
                self._phase = Phase.CHOOSE
        elif isinstance(move, Choose) and pending is not None:  # checked above
            other = pending[1] if pending[0] is move.card else pending[0]
            hand.add(move.card)
            self._discard.append(other)
            table[move.card.index] = HAND | player
            table[other.index] = PILE_UP
            self._pending = None
            self._end_turn(passed=False)
        elif isinstance(move, TakeDiscard):
            card = self._discard.pop()
            change = (card, self._discarder(card))
            self._face_down.discard(card)
            hand.add(card)
            table[card.index] = HAND | player
            self._end_turn(passed=False)
        elif isinstance(move, Publish):
            place = (MASTER if is_masterpiece(move.played) else PUBLISHED) | player
            at = novel_positions(self._catalogue)[move.novel]
            for card in move.played:
                hand.remove(card)
                table[card.index] = place
                table[CARDS + card.index] = at
            for gift in move.gifts:
                hand.remove(gift.card)
                self._hands[gift.to].add(gift.card)
                table[gift.card.index] = HAND | gift.to
            self._tables[player][move.novel] = move.played  # one card: a Masterpiece (R7)
            self._table_changed(player)
            self._supply[move.novel] -= 1
            self._end_turn(passed=False, changed=player)
        elif isinstance(move, Read):
            ref = move.source
            cards = self._tables[ref.owner][ref.novel]
            change = cards
            left = self._tables[ref.owner][ref.novel] = tuple(
                c for c in cards if c is not move.card
            )
            table[move.card.index] = HAND | player
            table[CARDS + move.card.index] = NO_NOVEL
            if is_masterpiece(left):  # R11: one card left
                table[left[0].index] = MASTER | ref.owner
            self._table_changed(ref.owner)
            hand.add(move.card)
            self._end_turn(passed=False, changed=ref.owner)
        elif isinstance(move, Pass):
            self._end_turn(passed=True)
        elif isinstance(move, TakeFlag):
            hand.remove(move.card)
            table[move.card.index] = FLAG | player
            self._flag = (player, move.card)
            self._supply[END_FLAG_ID] = 0
            self._next_turn()
        else:  # pragma: no cover - violation() admits no other move; nothing changed yet
            raise IllegalMoveError(f"illegal move {move!r}: not a move of the game")
        self._history.append(move)
        self._undo.append((before, change))
        self._renew()

    # ------------------------------------------------------------------
    # Taking moves back
    # ------------------------------------------------------------------
    def undo(self) -> Move:
        """Take back the last move and return it; the state is exactly as before it.

        Cards, phase, counters and the generator (R14) all return, so playing the
        same move again gives the same result. Cheap: each move keeps what it
        changed. A game loaded from JSON replays its history instead (R14).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> before = game.copy()
        >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
        >>> game.undo(), game.undo()
        (Move.parse('draw'), Move.parse('keep MYT1 HOR7 HOR8'))
        >>> game == before
        True
        >>> game.undo()
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: nothing to undo: no move has been played
        """
        if not self._history:
            raise IllegalMoveError("nothing to undo: no move has been played")
        if len(self._undo) != len(self._history):
            return self._undo_by_replay()
        drawn = self._pending
        move = self._history[-1]
        if move.__class__ is Draw and self._undo[-1][1] is None and drawn is None:
            # A two-card draw is undone from the pair it drew; without it nothing changes.
            raise InvalidStateError("cannot undo the draw: the drawn cards are not pending (R11)")
        self._renew()
        self._history.pop()
        before, change = self._undo.pop()
        del self._texts[len(self._history) :]
        if self._public is not None:
            kept, last = len(self._history), self._history[-1] if self._history else None
            self._public = [
                (cached[0][:kept], cached[1][:kept], last)
                if cached is not None and len(cached[0]) > kept
                else cached
                for cached in self._public
            ]
        self._restore(before)
        player = self._to_move
        hand = self._hands[player]
        table = self._cards
        if isinstance(move, Keep):
            hand.update(change)
            del self._discard[len(self._discard) - len(change) :]
            self._face_down.difference_update(change)
            for card in change:
                table[card.index] = HAND | player
        elif isinstance(move, Draw) and change is None and drawn is not None:  # checked above
            # Two cards off the deck (R11): back on it, the first on top.
            first, second = drawn
            self._deck.append(second)
            self._deck.append(first)
            table[first.index] = table[second.index] = UNSEEN
        elif isinstance(move, Draw):
            deck, discard, face_down, taken, _ = change
            # Copies: the record may be shared with a copy of the game (copy() is shallow).
            self._deck, self._discard, self._face_down = (
                deck.copy(),
                discard.copy(),
                face_down.copy(),
            )
            if taken is not None:
                hand.remove(taken)
            for card in deck:
                table[card.index] = UNSEEN
            self._locate_pile(0)
        elif isinstance(move, Choose):
            hand.remove(move.card)
            self._discard.pop()
            for card in self._pending or ():
                table[card.index] = DRAWN
        elif isinstance(move, TakeDiscard):
            card, down = change
            hand.remove(card)
            self._discard.append(card)
            if down is not None:
                self._face_down.add(card)
            self._locate_pile(len(self._discard) - 1)
        elif isinstance(move, Publish):
            del self._tables[player][move.novel]
            self._table_changed(player)
            self._supply[move.novel] += 1
            hand.update(move.played)
            for card in move.played:
                table[card.index] = HAND | player
                table[CARDS + card.index] = NO_NOVEL
            for gift in move.gifts:
                self._hands[gift.to].remove(gift.card)
                hand.add(gift.card)
                table[gift.card.index] = HAND | player
        elif isinstance(move, Read):
            self._tables[move.source.owner][move.source.novel] = change
            self._table_changed(move.source.owner)
            hand.remove(move.card)
            place = PUBLISHED | move.source.owner  # it had two or more cards (R11)
            at = novel_positions(self._catalogue)[move.source.novel]
            for card in change:
                table[card.index] = place
                table[CARDS + card.index] = at
        elif isinstance(move, TakeFlag):
            hand.add(move.card)
            table[move.card.index] = HAND | player
        return move

    def _undo_by_replay(self) -> Move:
        """Undo without undo records (a loaded game): replay the history but its last move."""
        move = self._history[-1]
        replayed = self.replayed(
            self._history[:-1], self._players, self._seed, self._catalogue, rules=self._rules
        )
        for name in GameState.__slots__:
            setattr(self, name, getattr(replayed, name))
        self._renew()
        return move

    def _locate_pile(self, start: int) -> None:
        """Mark the discard pile's cards from position ``start`` up in the card table."""
        table = self._cards
        discarders = setup_discarders(self._players, self._rules)
        face_down = self._face_down
        pile = self._discard
        for position in range(start, len(pile)):
            card = pile[position]
            if card in face_down and position < len(discarders):
                table[card.index] = PILE_DOWN | discarders[position]
            else:
                table[card.index] = PILE_UP

    # home: R11.draw
    def _draw_one(self) -> Card:
        if not self._deck:
            # R11: the discard pile is reshuffled only when a draw needs a card.
            self._deck = self._discard
            self._discard = []
            self._face_down.clear()
            for card in self._deck:
                self._cards[card.index] = UNSEEN
            self._rng.shuffle(self._deck)
        return self._deck.pop()

    # home: R11.all-pass, R12
    def _end_turn(self, *, passed: bool, changed: int | None = None) -> None:
        """End the turn; ``changed`` is the seat whose table the turn changed, if any."""
        self._turn += 1
        self._passes = self._passes + 1 if passed else 0
        if self._passes >= self._players:
            self._finish("all-pass")  # R11: every player passed in succession
            return
        if self._turns_left is not None:
            self._turns_left -= 1
            if self._turns_left <= 0:
                self._finish("countdown")
                return
        elif (
            self._trigger is None
            and changed is not None
            and self._seat_points(changed) >= self._rules.end_threshold
        ):
            # Only the seat whose table this turn changed can reach the threshold (R12):
            # before it no seat had (a state with one and no trigger fails check_invariants).
            # The trigger player, whoever's turn it was; 2n - 1 more turns.
            self._trigger = changed
            self._turns_left = 2 * self._players - 1
            if self._hands[changed]:
                self._phase = Phase.FLAG
                self._to_move = changed
                return
            self._supply[END_FLAG_ID] = 0  # R12: the flag is lost
        self._next_turn()

    def _next_turn(self) -> None:
        self._current = (self._current + 1) % self._players
        self._to_move = self._current
        self._phase = Phase.ACTION

    def _finish(self, reason: str) -> None:
        self._phase = Phase.OVER
        self._end_reason = reason
        self._pending = None

    # ------------------------------------------------------------------
    # Move generation
    # ------------------------------------------------------------------
    def _segments(self) -> list[Segment]:
        """The legal moves as countable, indexable segments, in enumeration order."""
        phase = self._phase
        player = self._to_move
        if phase is Phase.KEEP:
            return [KeepSegment(self._hands[player], self._rules.keep_size)]  # counted, not listed
        if phase is Phase.CHOOSE:
            pending = self._pending
            return [] if pending is None else [ListSegment([Choose(card) for card in pending])]
        if phase is Phase.FLAG:
            return [ListSegment([TakeFlag(card) for card in sorted(self._hands[player])])]
        if phase is not Phase.ACTION:
            return []
        reads = self._read_segment()
        draw, take, may_pass = turn_actions(len(self._deck), len(self._discard), reads.count)
        writes = _WRITES.get((draw, take))
        segments: list[Segment] = [] if writes is None else [writes]
        if reads.count:
            segments.append(reads)
        segments += self._publish_segments()
        if may_pass:
            segments.append(_PASSES)
        return segments

    def _publish_segments(self) -> list[PublishSegment]:
        player = self._to_move
        if not self._hands[player]:
            return []
        return publish_segments(
            bytes(self._cards),
            player,
            self._supply,
            self._tables[player],
            self._catalogue,
            self._usable_flags(player),
        )

    def _trust(self, move: Move, generation: int) -> None:
        """Trust ``move``, handed out by the legal moves of the position at ``generation``."""
        self._trusted = (move, generation)

    def _apply_built(self, move: Move, generation: int) -> None:
        """See :func:`apply_built`."""
        if generation == self._generation and self._phase is not Phase.OVER:
            self._apply_legal(move)
        else:
            self.apply(move)

    def _stack_deck(self, cards: Sequence[Card | str]) -> None:
        """Make the next Write ① draw exactly ``cards``, in this order (see :func:`stack_deck`).

        For a caller that draws for the game (OpenSpiel's chance nodes): the
        player to move is about to draw, and ``cards`` are what chance chose:
        as many as the draw takes (two, or the one card left in deck and pile,
        R11; the one card left stays where it lies). Cards in the deck are put on
        top. When the deck holds fewer cards
        than the draw takes, its cards must come first and the rest from the
        discard pile: the pile is reshuffled into the deck now, as the draw
        would (R11, R14: the game's generator orders the cards not drawn), and
        the chosen ones go on top. The card table and the legal moves follow;
        the history does not change (the draw itself is then applied as usual).
        Bad input raises :class:`~pastiche_core.data.errors.InvalidArgumentError`
        and changes nothing.

        >>> from pastiche_core import Game
        >>> from pastiche_core.engine.game_state import insides
        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> stack_deck(game, ["MAG13", "LOV2"]); game.apply("draw")
        >>> insides(game).pending
        (Card.parse('MAG13'), Card.parse('LOV2'))
        >>> stack_deck(game, ["MAG12"])
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: player 0 is not about to draw: the game is in the choose phase (R11)
        """
        if self._phase is not Phase.ACTION or not self._can_write():
            reason = (
                f"the game is in the {self._phase.value} phase"
                if self._phase is not Phase.ACTION
                else "the deck and the discard pile are empty"
            )
            raise InvalidArgumentError(
                f"player {self._to_move} is not about to draw: {reason} (R11)"
            )
        try:
            wanted = [card if isinstance(card, Card) else Card.parse(card) for card in cards]
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"cards must be cards or their notation, got {cards!r}"
            ) from None
        deck, pile = self._deck, self._discard
        size = min(2, len(deck) + len(pile))
        if len(wanted) != size or len(set(wanted)) != size:
            raise InvalidArgumentError(
                f"the draw takes {size} different card{'s' if size > 1 else ''} (R11), "
                f"got {format_cards(wanted, sort=False) or 'none'}"
            )
        in_deck = set(deck)
        if size == 1:  # R11: the one card left, where it lies: nothing to arrange
            if wanted[0] not in in_deck and wanted[0] not in pile:
                raise InvalidArgumentError(
                    f"the draw takes the one card left, {format_cards([*deck, *pile])}, "
                    f"got {wanted[0]} (R11)"
                )
            return
        if all(card in in_deck for card in wanted):
            rest = [card for card in deck if card not in wanted]
            deck[:] = rest + wanted[::-1]  # the top of the deck is the end of the list
        else:
            first = wanted[: len(deck)]
            if set(first) != in_deck or not all(card in pile for card in wanted[len(deck) :]):
                raise InvalidArgumentError(
                    f"the draw takes the deck's cards {format_cards(deck) or '(none)'} first, "
                    f"then cards of the discard pile (R11); got {format_cards(wanted, sort=False)}"
                )
            # R11: the deck runs out during this draw: the pile is reshuffled into it now.
            rest = [card for card in pile if card not in wanted]
            self._rng.shuffle(rest)
            for card in pile:
                self._cards[card.index] = UNSEEN
            self._deck = rest + wanted[::-1]
            self._discard = []
            self._face_down = set()
        self._renew()


def apply_built(game: GameMoves, move: Move, generation: int) -> None:
    """Apply ``move``, built for ``game``'s position at ``generation`` by code that builds only
    legal moves in their canonical form (the atomic action encoding of
    :mod:`pastiche_core.rl`, whose property tests check it): unchecked while the game is
    still at that generation, else checked as :meth:`GameMoves.apply` checks any move.

    >>> from pastiche_core import Game, Move
    >>> game = Game(players=3, seed=7)
    >>> at = game.generation
    >>> apply_built(game, Move.parse("keep MYT1 HOR7 HOR8"), at)
    >>> apply_built(game, Move.parse("keep MYT1 HOR7 HOR8"), at)  # built before that
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.IllegalMoveError: illegal move 'keep MYT1 HOR7 HOR8': ...
    """
    game._apply_built(move, generation)


def stack_deck(game: GameMoves, cards: Sequence[Card | str]) -> None:
    """Make ``game``'s next Write ① draw exactly ``cards``, in this order (an outside
    chance's draw, R11): see :meth:`GameMoves._stack_deck`.

    >>> from pastiche_core import Game
    >>> stack_deck(Game(players=3, seed=7), ["MAG13", "LOV2"])
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: player 2 is not about to draw: the game is in the keep phase (R11)
    """
    game._stack_deck(cards)


def publish_moves(game: GameMoves) -> Iterator[Publish]:
    """Every legal :class:`~pastiche_core.engine.moves.Publish` of the player to move, card by card
    with gifts.

    This is the rules engine's exhaustive card-level generator: two publishes
    that differ only in which physical card is played or given are both
    listed. (R8's distinct options, one per rank multiset, are the solver's.)

    >>> from pastiche_core import Game
    >>> list(publish_moves(Game(players=3, seed=7)))
    []
    """
    if game.phase is not Phase.ACTION:
        return
    for segment in game._publish_segments():
        yield from segment


# The moves without fields, made once (they are equal whoever makes them).
_DRAW = Draw()
_TAKE = TakeDiscard()
_PASS = Pass()
# The writes and the pass as segments, made once: a segment is never changed once made.
_WRITES = {
    (True, False): ListSegment((_DRAW,)),
    (True, True): ListSegment((_DRAW, _TAKE)),
    (False, True): ListSegment((_TAKE,)),
}
_PASSES = ListSegment((_PASS,))


def _as_move(move: object) -> Move:
    """``move`` as a :class:`Move`: a move, or notation parsed (R11's moves), else a clear error."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    if move is None:  # best(game)'s answer when nothing can be published
        raise InvalidNotationError(
            "no move to apply (None): best(game) found nothing to publish now, and "
            "why_not(game, novel) says why; expected a Move or its notation, such as 'draw'"
        )
    kind = type(move).__name__
    made = getattr(move, "move", None) if kind == "Best" else None
    if isinstance(made, Move):  # best(game)'s answer carries its move
        return made
    if kind in ("Best", "PublishOption"):  # answers of the solver, not moves yet
        option = "best.option" if kind == "Best" else "option"
        raise InvalidNotationError(
            f"invalid move: a {kind} is an answer of the solver, not a move; make the move "
            f"with to_publish({option}, game.position()) (it chooses the gift cards, R5)"
        )
    shown = repr(move)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise InvalidNotationError(
        f"invalid move {shown}: expected a Move or its notation, such as 'draw'"
    )


class LegalMoves:
    """A lazy view of a game's legal moves, in the manner of a sequence.

    Iterating enumerates; ``move in legal_moves`` checks one move through the
    rule path without enumerating; ``len`` and ``legal_moves[i]`` count and
    index without building the moves (the i-th move is the one iteration
    yields i-th), so a uniform random choice costs no enumeration. The view
    follows the game: after a move or an undo it shows the new position's
    moves. What it has counted is kept for one position only, the one of the
    game's :attr:`~GameState.generation` at the time, and a move it hands out is
    trusted by :meth:`GameMoves.apply` in that position alone: in any other, even
    one that looks the same, the move is checked like any other.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> legal = game.legal_moves
    >>> len(legal), legal[0], legal[-1] == list(legal)[-1]
    (4, Move.parse('keep MYT1 HOR7 HOR8'), True)
    """

    __slots__ = ("_count", "_game", "_plan", "_plan_at")

    def __init__(self, game: GameMoves) -> None:
        self._game = game
        self._plan: list[Segment] = []
        self._count = 0
        self._plan_at = -1  # the game's generation the plan was made at (never one of them)

    def _segments(self) -> list[Segment]:
        game = self._game
        at = game.generation
        if at != self._plan_at:  # the game moved on since the plan was made
            self._plan = game._segments()
            self._count = sum([segment.count for segment in self._plan])
            self._plan_at = at
        return self._plan

    def __iter__(self) -> Iterator[Move]:
        for segment in self._segments():
            yield from segment

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move | str):
            return False
        return self._game.is_legal(move)

    def __len__(self) -> int:
        self._segments()
        return self._count

    def __bool__(self) -> bool:
        self._segments()
        return self._count > 0

    def __getitem__(self, index: int) -> Move:
        if index < 0:
            index += len(self)
        if index >= 0:
            for segment in self._segments():
                if index < segment.count:
                    move = segment.at(index)
                    # Game.apply trusts this very object in this very position.
                    self._game._trust(move, self._plan_at)
                    return move
                index -= segment.count
        raise IndexError("legal move index out of range")

    def __repr__(self) -> str:
        moves = list(itertools.islice(self, 6))
        more = ", ..." if len(moves) > 5 else ""
        return f"<LegalMoves {len(self)}: {', '.join(map(str, moves[:5]))}{more}>"
