"""What one player knows of the hidden cards, move after move (R16).

A player's view shows the table as it is now; the history tells more. A card
taken face up from the discard pile, or read from a Published novel, lies in the
taker's hand until the taker lays it down; a card the player gave as a gift lies
in the receiver's hand. :class:`Knowledge` follows one player through the game
and keeps:

* :attr:`~Knowledge.seen` — every card the player has seen at some time: their
  hands, the cards they drew, discarded, gave or received, every card laid face
  up (discards, the table, the End Flag) and every card whose move named it;
* :attr:`~Knowledge.holders` — the cards known for certain to lie in one other
  seat's hand, with that seat;
* :attr:`~Knowledge.located` — the same cards and those that may lie in one of
  several other hands: a hidden gift between two other seats (R5) may move any
  card of the giver's hand, so each of the giver's known cards may then be in
  the giver's or the receiver's hand (and leaves :attr:`~Knowledge.holders`).

What the knowledge does not follow: a card another seat drew from the deck
(hidden), and what could be worked out by elimination.

**One way of following a move.** Every move is followed from two things the
engine produces: the move as the player knows it, and its
:class:`~pastiche_core.engine.view.MoveRecord` (what the move moved between deck,
pile and hands beyond its notation: the cards drawn, the card laid face up
after Write ①, the card taken from the pile, the setup discards). Nothing here
models the deck or the discard pile, so the rules of R10 and R11 (counts,
reshuffles mid-draw, the one-card draw) stay in :class:`~pastiche_core.engine.game.Game`
alone. The two sources:

* **a live game, move by move** (:meth:`Knowledge.update`, :meth:`Knowledge.update_all`,
  what the reinforcement-learning environments call after every move for every
  seat): the game's last move and :meth:`~pastiche_core.engine.game.Game.move_record`.
  The record is whole; the rule reads only the parts the player saw (the same
  parts :meth:`~pastiche_core.engine.view.MoveRecord.seen_by` keeps).
* **a view's public history** (:meth:`Knowledge.of`, what the determinizer
  reads): each entry of :attr:`~pastiche_core.engine.view.PlayerView.history` read by
  :func:`~pastiche_core.engine.view.read_public_notation` (the engine's parser of the
  notation :func:`~pastiche_core.engine.view.public_notation` writes, hidden cards
  ``?``), with the view's record of the move
  (:attr:`~pastiche_core.engine.view.PlayerView.records`, already cut to what the
  player saw).

Both give the same knowledge (a property test follows random games both ways
for every seat). A view's history is *used* when it fits the view: one record
per entry, by the same seat and of the same kind, every located card hidden
from the player now, and an empty history only at the deal. A view read from a
document without records (JSON) replays its notation alone: reads, publishes,
gifts and the End Flag, not the draws and takes. A history that does not fit
(a composed position, a history from another game) is not used: the knowledge
is then only what the view shows.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> knowledge = Knowledge.of(game, 2)
>>> for move in ("keep MYT1 HOR7 HOR8", "draw", "choose SCI5", "take"):
...     game.apply(move)
...     knowledge.update(game)
>>> knowledge.known_hands()  # player 1 took FAN11, which player 0 discarded face up
{1: (Card.parse('FAN11'),)}
>>> replayed = Knowledge.of(game.view(2))
>>> (replayed.seen, replayed.holders) == (knowledge.seen, knowledge.holders)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..data.cards import DECK, Card
from ..data.errors import InvalidArgumentError
from .game import Game
from .game_internals import move_record
from .moves import Move, Publish, Read, TakeFlag
from .rules import MAX_PLAYERS, Phase
from .view import MoveRecord, PlayerView, read_public_notation

__all__ = ["Knowledge", "hidden_cards"]


class Knowledge:
    """What one player knows of the hidden cards (see the module): seen cards, located cards.

    Start it with :meth:`of` (from a view, or a game and a seat) and call
    :meth:`update` after every move applied to a live game. Cards are stored by
    their index in :data:`~pastiche_core.data.cards.DECK`.

    >>> from pastiche_core import Game
    >>> knowledge = Knowledge.of(Game(players=3, seed=7), 0)
    >>> sorted(DECK[i] for i in knowledge.seen) == list(Game(players=3, seed=7).hand(0))
    True
    """

    __slots__ = ("_maybe", "history_used", "holders", "moves", "player", "seen")

    def __init__(
        self,
        player: int,
        seen: set[int],
        holders: dict[int, int] | None = None,
        maybe: dict[int, int] | None = None,
        moves: int = 0,
        history_used: bool = True,
    ) -> None:
        self.player = player
        """The seat whose knowledge this is."""
        self.seen = seen
        """Indexes of every card the player has seen."""
        self.holders: dict[int, int] = {} if holders is None else holders
        """Card index -> the other seat whose hand the player knows it lies in."""
        # Card index -> the bit set of the seats that may hold it (two or more seats).
        self._maybe: dict[int, int] = {} if maybe is None else maybe
        self.moves = moves
        """How many moves of the game it has followed."""
        self.history_used = history_used
        """Whether the history was followed (a view's history that does not fit the view is not)."""

    # ------------------------------------------------------------------
    # Making one
    # ------------------------------------------------------------------
    @classmethod
    def of(cls, source: PlayerView | Game, player: int | None = None) -> Knowledge:
        """What a player knows: from a view's public history, or from ``game`` for seat ``player``.

        ``Knowledge.of(game, seat)`` is ``Knowledge.of(game.view(seat))``; the
        view's history is replayed (see the module).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> for move in ["keep MYT1 HOR7 HOR8", "draw", "choose SCI5", "take"]:
        ...     game.apply(move)
        >>> Knowledge.of(game.view(0)).located   # player 1 took player 0's face-up discard
        ((Card.parse('FAN11'), frozenset({1})),)
        >>> Knowledge.of(game, 3)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: player must be a seat from 0 to 2, got 3
        """
        if isinstance(source, Game):
            if isinstance(player, bool) or not isinstance(player, int):
                raise InvalidArgumentError(f"player must be a seat number, got {player!r}")
            if not 0 <= player < source.players:
                raise InvalidArgumentError(
                    f"player must be a seat from 0 to {source.players - 1}, got {player}"
                )
            return cls._replay(source.view(player))
        if not isinstance(source, PlayerView):
            raise InvalidArgumentError(f"expected a PlayerView or a Game, got {source!r}")
        if player is not None and player != source.player:
            raise InvalidArgumentError(
                f"the view is player {source.player}'s, not player {player}'s"
            )
        return cls._replay(source)

    @classmethod
    def _replay(cls, view: PlayerView) -> Knowledge:
        """Follow ``view``'s public history; the view alone if it does not fit (module)."""
        me = view.player
        shown = {card.index for card in hidden_cards(view, shown=True)}
        knowledge = cls(me, set(shown) | {card.index for card in view.hand})
        history, records = view.history, view.records
        fits = _fits(view)
        if fits and history:
            try:
                for index, (seat, text) in enumerate(history):
                    public = read_public_notation(text)
                    record = records[index] if records else MoveRecord(seat, public.keyword)
                    if record.seat != seat or record.keyword != public.keyword:
                        fits = False
                        break
                    if not 0 <= seat < view.players:
                        fits = False
                        break
                    knowledge._follow(seat, public.move, public.hidden_gifts, record)
            except ValueError:  # notation that does not read
                fits = False
            located = knowledge.holders.keys() | knowledge._maybe.keys()
            if fits and not located.isdisjoint(shown):
                fits = False  # the history places in a hand a card the view shows elsewhere
        if not fits:
            knowledge = cls(me, shown, moves=len(history), history_used=False)
        knowledge.moves = len(history)
        return knowledge

    def copy(self) -> Knowledge:
        """An independent copy.

        >>> from pastiche_core import Game
        >>> one = Knowledge.of(Game(players=3, seed=7), 0)
        >>> two = one.copy(); two.seen.clear()
        >>> len(one.seen), len(two.seen)
        (3, 0)
        """
        return Knowledge(
            self.player,
            self.seen.copy(),
            self.holders.copy(),
            self._maybe.copy(),
            self.moves,
            self.history_used,
        )

    def renamed(self, cards: Mapping[Card, Card]) -> Knowledge:
        """The knowledge of the same player in ``renamed(game, cards)``
        (:func:`~pastiche_core.engine.game_records.renamed`).

        >>> from pastiche_core import Card, Game
        >>> from pastiche_core.engine.game_internals import renamed
        >>> a, b = Card.parse("LOV4"), Card.parse("MYT1")
        >>> Knowledge.of(Game(players=3, seed=7), 0).renamed({a: b, b: a}).seen == (
        ...     Knowledge.of(renamed(Game(players=3, seed=7), {a: b, b: a}), 0).seen)
        True
        """
        index = {old.index: new.index for old, new in cards.items()}
        return Knowledge(
            self.player,
            {index.get(card, card) for card in self.seen},
            {index.get(card, card): seat for card, seat in self.holders.items()},
            {index.get(card, card): bits for card, bits in self._maybe.items()},
            self.moves,
            self.history_used,
        )

    # ------------------------------------------------------------------
    # Reading it
    # ------------------------------------------------------------------
    @property
    def located(self) -> tuple[tuple[Card, frozenset[int]], ...]:
        """Each card known to lie in another seat's hand, with the seats whose hand may hold it.

        In card order; one seat for the :attr:`holders`, several after a hidden
        gift (see the module).

        >>> from pastiche_core import Game
        >>> Knowledge.of(Game(players=3, seed=7), 0).located
        ()
        """
        found = [(index, frozenset((seat,))) for index, seat in self.holders.items()]
        found.extend(
            (index, frozenset(seat for seat in range(MAX_PLAYERS) if bits >> seat & 1))
            for index, bits in self._maybe.items()
        )
        found.sort()
        return tuple((DECK[index], seats) for index, seats in found)

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards known for certain to be in ``seat``'s hand, in card order.

        >>> from pastiche_core import Game
        >>> Knowledge.of(Game(players=3, seed=7).view(0)).known_cards(1)
        ()
        """
        return tuple(
            DECK[index] for index, holder in sorted(self.holders.items()) if holder == seat
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

    # ------------------------------------------------------------------
    # Following a live game
    # ------------------------------------------------------------------
    def update(self, game: Game) -> None:
        """Follow the move just applied to ``game`` (its last move and its record).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> knowledge = Knowledge.of(game, 0)
        >>> knowledge.update(game)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: the knowledge has followed 0 moves and the game has 0: call update once after each move
        """
        self._check(game)
        self._follow_whole(game.history[-1], move_record(game))

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
        if knowledge:
            move, record = game.history[-1], move_record(game)
            seat = record.seat
            if move.__class__ is Publish:
                tos = [gift.to for gift in move.gifts]
                for each in knowledge:
                    me = each.player
                    # Gifts between two other seats are hidden from this player (R16).
                    hidden = () if seat == me else tuple(to for to in tos if to != me)
                    each._follow(seat, move, hidden, record)
            else:
                for each in knowledge:
                    each._follow(seat, move, (), record)

    def _check(self, game: Game) -> None:
        """Refuse a game that is not exactly one move ahead of this knowledge."""
        moves = len(game.history)
        if moves != self.moves + 1:
            raise InvalidArgumentError(
                f"the knowledge has followed {self.moves} moves and the game has "
                f"{moves}: call update once after each move"
            )

    def _follow_whole(self, move: Move, record: MoveRecord) -> None:
        """Follow ``move`` with its whole record: gifts between two other seats count as hidden."""
        seat = record.seat
        hidden: tuple[int, ...] = ()
        if move.__class__ is Publish and seat != self.player:
            me = self.player
            hidden = tuple(gift.to for gift in move.gifts if gift.to != me)
        self._follow(seat, move, hidden, record)

    # ------------------------------------------------------------------
    # The one rule
    # ------------------------------------------------------------------
    # home: R16.knowledge
    def _follow(
        self, seat: int, move: Move | None, hidden_to: Sequence[int], record: MoveRecord
    ) -> None:
        """Follow ``seat``'s move: ``move`` as the player may know it (``None`` when it names
        no card they may see), the seats given gift cards they did not see, and the record.

        The record may be whole (a live game): only the parts the player saw are
        read, the parts :meth:`~pastiche_core.engine.view.MoveRecord.seen_by` keeps.
        """
        self.moves += 1
        me = self.player
        seen = self.seen
        holders = self.holders
        maybe = self._maybe  # usually empty: tested before each pop
        _, _, drawn, taken, taken_from, laid_up, laid_down = record
        if seat == me:
            if drawn:
                seen.update([card.index for card in drawn])
            if laid_down:
                seen.update([card.index for card in laid_down])  # R10, R16
        if taken is not None and (taken_from is None or me in (seat, taken_from)):
            # From the discard pile, face up, or face down by the player (R10, R11).
            index = taken.index
            seen.add(index)
            if seat == me:
                holders.pop(index, None)
            else:
                holders[index] = seat
            if maybe:
                maybe.pop(index, None)
        if laid_up is not None:
            seen.add(laid_up.index)  # R11: discarded face up
        kind = move.__class__  # moves are final classes: one identity test per kind
        if kind is Publish:
            assert isinstance(move, Publish)
            for card in move.played:  # on the table now, in sight (R4)
                index = card.index
                seen.add(index)
                holders.pop(index, None)
                if maybe:
                    maybe.pop(index, None)
            for gift in move.gifts:
                if seat == me or gift.to == me:  # the player's own gift, or one to them
                    index = gift.card.index
                    seen.add(index)
                    if gift.to == me:
                        holders.pop(index, None)
                    else:
                        holders[index] = gift.to
                    if maybe:
                        maybe.pop(index, None)
                # else a gift between two other seats: hidden (R16), listed in hidden_to
            if hidden_to:  # R5: any card of the giver's hand may have gone
                self._widen(seat, hidden_to)
        elif kind is Read:
            assert isinstance(move, Read)
            index = move.card.index
            seen.add(index)
            if seat == me:
                holders.pop(index, None)
            else:
                holders[index] = seat
            if maybe:
                maybe.pop(index, None)
        elif kind is TakeFlag:
            assert isinstance(move, TakeFlag)
            index = move.card.index
            seen.add(index)  # under the End Flag, face up (R12)
            holders.pop(index, None)
            if maybe:
                maybe.pop(index, None)
        # A keep or a choose tells nothing more: the player's own cards were dealt or drawn.

    def _widen(self, giver: int, receivers: Iterable[int]) -> None:
        """A hidden gift from ``giver``: each card known in their hand may be with a receiver."""
        to = 0
        for seat in receivers:
            to |= 1 << seat
        bit = 1 << giver
        maybe = self._maybe
        if maybe:
            for index, bits in maybe.items():
                if bits & bit:
                    maybe[index] = bits | to
        holders = self.holders
        for index in [index for index, holder in holders.items() if holder == giver]:
            del holders[index]
            maybe[index] = to | bit

    def __repr__(self) -> str:
        return (
            f"<Knowledge player {self.player}, {self.moves} moves, {len(self.seen)} cards seen, "
            f"{len(self.holders)} known in other hands>"
        )


def hidden_cards(view: PlayerView, *, shown: bool = False) -> tuple[Card, ...]:
    """The cards ``view``'s player cannot see now, in card order (``shown=True``: the others).

    Hidden are the other hands, the deck, the other seats' face-down discards
    and the two cards another seat is choosing between (R16).

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(0)
    >>> len(hidden_cards(view)), hidden_cards(view, shown=True) == view.hand
    (46, True)
    """
    seen = set(view.hand)
    seen.update(card for card in view.discard if card is not None)
    for table in view.tables:
        for novel in table:
            seen.update(novel.cards)
    if view.flag is not None:
        seen.add(view.flag[1])
    if view.pending is not None:
        seen.update(view.pending)
    return tuple(card for card in DECK if (card in seen) is shown)


def _fits(view: PlayerView) -> bool:
    """Whether ``view``'s history can be its game's: records for every entry (or none at all,
    a view read from a document), and an empty history only at the deal (R10)."""
    history, records = view.history, view.records
    if records and len(records) != len(history):
        return False
    if history:
        return True
    rules = view.rules  # R10: the deal, then the first seat to keep (seat 2 by the rulebook)
    keepers = rules.keepers(view.players)
    return (
        view.phase is (Phase.KEEP if keepers else Phase.ACTION)
        and view.to_move == (keepers[0] if keepers else 0)
        and view.turn == 0
        and not view.discard
        and view.deck_size == len(DECK) - sum(rules.deal_sizes[: view.players])
    )
