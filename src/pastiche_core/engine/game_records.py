"""A game's records: who made each move, what it moved, and what each seat may know of it (R16).

:class:`GameRecords` adds to the rules (:class:`~pastiche_core.engine.game_apply.GameMoves`)
the records a move leaves beside the history: each move's whole
:class:`~pastiche_core.engine.view.MoveRecord`, read from its undo record, and each seat's
public history and records, kept per seat and extended move by move. The
functions below are the engine's doors to them (gathered in
:mod:`pastiche_core.engine.game_internals`, not public).

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
>>> public_history(game, 1)
((2, 'keep ? ? ?'), (0, 'draw'))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from ..data.cards import Card
from ..data.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError
from .game_apply import GameMoves
from .game_values import Text, Undo
from .layout import viewer_table
from .moves import Choose, Draw, Gift, Keep, Move, Publish, Read, TakeDiscard, TakeFlag
from .rules import Phase, setup_discarders
from .view import MoveRecord, PlayerView, make_view, public_notation

__all__ = [
    "GameRecords",
    "history_seats",
    "move_record",
    "public_history",
    "public_records",
    "renamed",
    "stale_summary",
    "viewer_public",
]


class GameRecords(GameMoves):
    """A game with the records of its moves (R16): see the module's functions.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> move_record(game).laid_down
    (Card.parse('FAN10'),)
    """

    __slots__ = ()

    def _history_seats(self) -> list[int]:
        """See :func:`history_seats`."""
        return [before.to_move for before, _ in self._undo_from(0)]

    def _undo_from(self, start: int) -> Sequence[Undo]:
        """The undo records of the moves from ``start`` on: the game's own, or, for moves
        that carry none (a game loaded with its history), those of a replay (R14)."""
        undo = self._undo
        offset = len(self._history) - len(undo)  # undo records cover the last moves
        if start >= offset:
            return undo[start - offset :]
        try:
            replayed = self.replayed(
                self._history, self._players, self._seed, self._catalogue, rules=self._rules
            )
        except IllegalMoveError as error:
            raise InvalidStateError(
                f"the moves' seats and records are unknown: they carry no undo records and "
                f"replaying them from seed {self._seed} fails ({error})"
            ) from None
        return replayed._undo_from(start)

    def _view(self, player: int, history: bool) -> PlayerView:
        """What ``player`` may know (see ``Game.view``), read straight from the state: a view
        is made at every decision.

        >>> from pastiche_core import Game
        >>> Game(players=3, seed=7).view(3)
        Traceback (most recent call last):
        ...
        ValueError: player must be from 0 to 2, got 3
        """
        players = self._players
        if player.__class__ is not int or not 0 <= player < players:
            raise ValueError(f"player must be from 0 to {players - 1}, got {player}")
        phase, to_move, pending = self._phase, self._to_move, self._pending
        show_pending = phase is Phase.CHOOSE and to_move == player
        # Face-down cards are setup discards, a bottom block in seat order (R10, R15).
        pile = self._discard
        hidden = self._face_down
        discard: tuple[Card | None, ...]
        face_down: tuple[int, ...] = ()
        if hidden:
            discarders = setup_discarders(players, self._rules)
            shown: list[Card | None] = []
            down: list[int] = []
            for index, card in enumerate(pile):
                if card in hidden:
                    down.append(index)
                    mine = index < len(discarders) and discarders[index] == player
                    shown.append(card if mine else None)
                else:
                    shown.append(card)
            discard, face_down = tuple(shown), tuple(down)
        else:
            discard = tuple(pile)
        # Both extend the ones kept with the player's last view.
        notes, records = self._viewer_public(player) if history else ((), ())
        return make_view(
            player,
            players,
            phase,
            to_move,
            self._current,
            self._turn,
            self.hand(player),  # sorted by card index
            tuple(map(len, self._hands)),
            len(self._deck),
            discard,
            self.tables(),
            tuple(self._supply.items()),
            self._flag,
            pending if show_pending else None,
            self._passes,
            self._trigger,
            self._turns_left,
            self._end_reason,
            self.scores(),
            face_down,
            notes,
            self._catalogue,
            self._rules,
            records,
            viewer_table(self._cards, player, show_pending),
        )

    def _viewer_public(
        self, viewer: int
    ) -> tuple[tuple[tuple[int, str], ...], tuple[MoveRecord, ...]]:
        """See :func:`viewer_public`."""
        history = self._history
        count = len(history)
        public = self._public
        if public is None:
            public = self._public = [None] * self._players
        cached = public[viewer]
        done = 0
        notes: tuple[tuple[int, str], ...] = ()
        records: tuple[MoveRecord, ...] = ()
        if cached is not None:
            notes, records, last = cached
            done = len(notes)
            if done == count and (not done or history[-1] is last):
                return notes, records
            if done > count or (done and history[done - 1] is not last):
                done = 0  # the history was replaced: read it again
                notes, records = (), ()
        texts = self._public_texts()[done:]
        notes += tuple(
            [
                (seat, own if seat == viewer else public or public_notation(move, seat, viewer))
                for move, seat, own, public, _, _ in texts
            ]
        )
        records += tuple(
            [
                whole
                if seat == viewer
                else shown
                if viewer != whole.taken_from
                else whole.seen_by(viewer)
                for _, seat, _, _, whole, shown in texts
            ]
        )
        public[viewer] = (notes, records, history[-1] if history else None)
        return notes, records

    def _public_texts(self) -> list[Text]:
        """Every move's public notation and record as each seat may know them (R16),
        brought up to date.

        Each move's are made once per game and kept beside the history (an undo cuts
        both). A move reads the same to every other seat but for a publish with gifts
        (the gifts to a third seat are hidden), and shows the same to every other seat
        but a card taken from the discard pile, seen by the seat that laid it face
        down (R10).
        """
        history = self._history
        texts = self._texts
        have = len(texts)
        if have > len(history) or (have and texts[have - 1][0] is not history[have - 1]):
            texts.clear()  # the history was replaced: make its texts again
            have = 0
        if have < len(history):
            for move, whole in zip(
                history[have:], self._move_records(have, len(history)), strict=True
            ):
                seat = whole.seat
                own = str(move)
                # What any other seat (-1 is none) reads and sees of the move; a publish's
                # gifts read differently to each other seat, and a card taken from the pile
                # shows to the seat that laid it face down (R10).
                gifts = move.__class__ is Publish and bool(move.gifts)
                public = "" if gifts else public_notation(move, seat, -1, notation=own)
                texts.append((move, seat, own, public, whole, whole.seen_by(-1)))
        return texts

    def _move_record(self, index: int) -> MoveRecord:
        """See :func:`move_record`."""
        count = len(self._history)
        if index == -1 and count and len(self._undo) == count:  # after each move: one record
            return _record_of(self._history[-1], self._undo[-1], self._pending)
        if isinstance(index, bool) or not isinstance(index, int) or not -count <= index < count:
            raise InvalidArgumentError(
                f"index must name a move of the history, from {-count} to {count - 1}, "
                f"got {index!r}"
            )
        if index < 0:
            index += count
        return self._move_records(index, index + 1)[0]

    def _move_records(self, start: int, stop: int) -> list[MoveRecord]:
        """The whole records of moves ``start`` to ``stop - 1``, read from their undo records.

        A two-card draw's pair is the next move's pending pair, or the game's if
        the draw is the last move.
        """
        history, undo = self._history, self._undo_from(start)
        last = len(undo) - 1
        return [
            _record_of(
                history[start + at],
                undo[at],
                undo[at + 1][0].pending if at < last else self._pending,
            )
            for at in range(stop - start)
        ]

    def _rename(self, one: Callable[[Card], Card]) -> None:
        """Rename every card in place by ``one`` (see :func:`renamed`); a fresh copy only."""

        def many(group: Iterable[Card]) -> list[Card]:
            return [one(card) for card in group]

        self._deck = many(self._deck)
        self._discard = many(self._discard)
        self._face_down = set(many(self._face_down))
        self._hands = [set(many(hand)) for hand in self._hands]
        self._tables = [
            {nid: tuple(many(held)) for nid, held in table.items()} for table in self._tables
        ]
        self._flag = None if self._flag is None else (self._flag[0], one(self._flag[1]))
        self._pending = (
            None if self._pending is None else (one(self._pending[0]), one(self._pending[1]))
        )
        history = self._history
        self._history = [_rename_move(move, one) for move in history]
        if len(self._undo) == len(history):
            self._undo = [
                _rename_undo(move, record, one)
                for move, record in zip(history, self._undo, strict=True)
            ]
        else:
            self._undo = []
        self._public, self._texts = None, []
        self._forget_kept()
        self._cards = self._locate()
        self._renew()

    def _stale(self) -> int | None:
        """See :func:`stale_summary`."""
        stale = self._stale_tables()
        public_stale = self._stale_public()
        return stale if stale is not None else public_stale

    def _seat_public(
        self, viewer: int
    ) -> tuple[tuple[tuple[int, str], ...], tuple[MoveRecord, ...]]:
        """:meth:`_viewer_public` of ``viewer``, checked to be a seat."""
        return self._viewer_public(self._seat(viewer))

    def _stale_tables(self) -> int | None:
        """The first seat whose kept table summary, usable flags, Published novels or Reads
        disagree with the game, else ``None``; every one is made anew on the way."""
        stale = None
        everyone = self._everyone
        reads, published = self._reads, list(self._published)
        for seat in range(self._players):
            kept = self._seat_cache[seat]
            flags = self._usable[seat] if self._supply == self._usable_supply else None
            self._table_changed(seat)
            self._usable[seat] = None
            if kept is not None and kept != self._summarise(seat) and stale is None:
                stale = seat
            if flags is not None and flags != self._usable_flags(seat) and stale is None:
                stale = seat
        fresh_reads = set(self._read_segment().novels)
        if reads is not None and stale is None:
            kept_reads = set(reads.novels)
            stale = min((owner for owner, _, _ in kept_reads ^ fresh_reads), default=None)
        if stale is None:
            stale = next(
                (
                    seat
                    for seat, kept in enumerate(published)
                    if kept is not None and kept != self._published[seat]
                ),
                None,
            )
        if everyone is not None and stale is None:
            self._everyone = None
            fresh = self._all_summaries()
            stale = next(
                (
                    seat
                    for seat in range(self._players)
                    if (everyone[0][seat], everyone[1][seat]) != (fresh[0][seat], fresh[1][seat])
                ),
                None,
            )
        return stale

    def _stale_public(self) -> int | None:
        """The first seat whose kept public texts (its moves') or public history and records
        (its own) disagree with ones made anew, else ``None``; both are made anew."""
        history, texts, cached = self._history, self._texts, self._public
        self._texts, self._public = [], None
        if not texts and not cached:
            return None
        fresh = self._public_texts()
        for kept, made in zip(texts, fresh, strict=False):
            if kept[0] is not made[0]:
                break  # a replaced history: its texts are made again, not trusted
            if kept[1:] != made[1:]:
                return made[1]
        for viewer, entry in enumerate(cached or ()):
            if entry is None:
                continue
            notes, records, last = entry
            done = len(notes)
            if done <= len(history) and (not done or history[done - 1] is last):
                made_notes, made_records = self._viewer_public(viewer)
                if (notes, records) != (made_notes[:done], made_records[:done]):
                    return viewer
        return None


def _record_of(move: Move, undo: Undo, following: tuple[Card, Card] | None) -> MoveRecord:
    """The whole record of ``move`` from its undo record ``(before, change)``.

    ``following`` is the pair drawn when the move is a two-card draw: the next
    move's pending pair, or the game's if the draw is the last move. A card
    taken from the pile carries the seat that laid it face down at setup (R10),
    kept in the undo record when it was taken.
    """
    before, change = undo
    seat = before.to_move
    kind = move.__class__
    if kind is Draw:
        if change is None or change[3] is None:  # two cards drawn: the pair then chosen from
            return MoveRecord(seat, "draw", following or ())
        deck, _pile, _face_down, taken, down = change
        if deck:  # R11: the one card left, from the deck
            return MoveRecord(seat, "draw", (taken,))
        # R11: the one card left, from the discard pile
        return MoveRecord(seat, "draw", (taken,), taken, down)
    if kind is Choose and before.pending is not None:
        first, second = before.pending
        laid = second if first == move.card else first  # type: ignore[attr-defined]
        return MoveRecord(seat, "choose", (), None, None, laid)
    if kind is TakeDiscard:
        card, down = change
        return MoveRecord(seat, "take", (), card, down)
    if kind is Keep:
        return MoveRecord(seat, "keep", laid_down=tuple(change))
    # Nothing beyond the notation: one shared record per seat and kind.
    plain = _PLAIN_RECORDS.get((seat, move.keyword))
    if plain is None:
        plain = _PLAIN_RECORDS[seat, move.keyword] = MoveRecord(seat, move.keyword)
    return plain


_PLAIN_RECORDS: dict[tuple[int, str], MoveRecord] = {}
"""(seat, keyword) -> the record of a move that moves nothing its notation does not say."""


_G = TypeVar("_G", bound=GameRecords)


def history_seats(game: GameRecords) -> list[int]:
    """The seat that made each move of ``game``'s history, in order.

    Each move keeps its seat in its undo record, so this works for any game
    built by ``apply``, whatever its deal. A game whose moves carry no records
    (one assembled field by field) replays its seed and history instead; if
    that replay fails (the game was not dealt from its seed),
    :class:`~pastiche_core.data.errors.InvalidStateError` says so.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw"); game.apply("choose SCI5")
    >>> history_seats(game)
    [2, 0, 0]
    """
    return game._history_seats()


def public_history(game: GameRecords, viewer: int) -> tuple[tuple[int, str], ...]:
    """The history as ``viewer`` may know it (R16), built once per move: ``(seat, notation)``.

    Each viewer's is a tuple extended by the moves played since it was last
    asked for; an undo cuts it back, and copies share it (it is immutable).
    The last move it covers is kept with it, so a history replaced in place
    is noticed and read again. A view carries it
    (:attr:`PlayerView.history <pastiche_core.engine.view.PlayerView.history>`).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
    >>> public_history(game, 1)
    ((2, 'keep ? ? ?'), (0, 'draw'))
    """
    return game._seat_public(viewer)[0]


def public_records(game: GameRecords, viewer: int) -> tuple[MoveRecord, ...]:
    """Every move's :func:`move_record` as ``viewer`` saw it (R16), in history order.

    A view carries them (:attr:`PlayerView.records <pastiche_core.engine.view.PlayerView.records>`)
    beside the public history. Each move's whole record is made once per game,
    and what each seat saw of it once per seat; nothing hidden from ``viewer``
    is kept with the tuple.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw"); game.apply("choose SCI5")
    >>> [record.drawn for record in public_records(game, 1)]
    [(), (), ()]
    >>> public_records(game, 0)[2].laid_up == public_records(game, 1)[2].laid_up
    True
    """
    # Kept with the viewer's public history (shared by copies, cut back by an undo).
    return game._seat_public(viewer)[1]


def viewer_public(
    game: GameRecords, viewer: int
) -> tuple[tuple[tuple[int, str], ...], tuple[MoveRecord, ...]]:
    """:func:`public_history` and :func:`public_records` of a seat, made together.

    What a view made at every decision asks for: ``viewer`` must be a seat
    (unchecked). Both are kept with the viewer and extended by the moves since
    the last request.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> notes, records = viewer_public(game, 1)
    >>> notes, records[0].laid_down
    (((2, 'keep ? ? ?'),), ())
    """
    return game._viewer_public(viewer)


def move_record(game: GameRecords, index: int = -1) -> MoveRecord:
    """What move ``index`` of ``game``'s history moved between deck, pile and hands, whole.

    The cards drawn by Write ① (the pair, or the one card left, R11), the
    card laid face up after it, the card taken from the discard pile (and
    the seat that laid it face down at setup, if it lay face down) and the
    setup discards: what a move's notation does not say. It reveals hidden
    cards: :meth:`MoveRecord.seen_by <pastiche_core.engine.view.MoveRecord.seen_by>`
    keeps what one player saw, as :func:`public_records` does.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("take")
    >>> move_record(game)
    MoveRecord(seat=0, keyword='take', drawn=(), taken=Card.parse('FAN10'), \
taken_from=2, laid_up=None, laid_down=())
    >>> move_record(game, 0).laid_down, move_record(game, -1).seen_by(1).taken
    ((Card.parse('FAN10'),), None)
    >>> move_record(game, 2)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: index must name a move of the history, from -2 to 1, got 2
    """
    return game._move_record(index)


def stale_summary(game: GameRecords) -> int | None:
    """The first seat whose kept table summary, usable flags, Published novels, Reads,
    public texts or public history disagree with ``game``, else ``None``.

    Views read summaries kept between changes of a table (each seat's, and
    everyone's together) and each seat's public history and records (R16),
    and move generation the usable flags (R6) and the Reads of each seat's
    Published novels (R11); the invariants check them with this. Every one is
    made anew on the way.

    >>> from pastiche_core import Game
    >>> stale_summary(Game(players=3)) is None
    True
    """
    return game._stale()


def renamed(game: _G, cards: Mapping[Card, Card]) -> _G:
    """A copy of ``game`` in which every card is renamed by the permutation ``cards``.

    Cards not in ``cards`` keep their names. The renaming reaches every place a
    card is named: hands, deck, discard pile, table, End Flag, the drawn
    cards, the history and the undo records, so the copy is a game that
    could have been dealt and played that way — provided the renaming keeps
    every public fact (a search renames only cards the searching player has
    not seen, which deals the unseen cards anew, R16). ``cards`` must map a
    set of cards onto itself.

    >>> from pastiche_core import Card, Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> a, b = Card.parse("MYT1"), Card.parse("LOV4")
    >>> twin = renamed(game, {a: b, b: a})
    >>> twin.hand(2)[:1], twin.history
    ((Card.parse('LOV4'),), (Move.parse('keep LOV4 HOR7 HOR8'),))
    >>> renamed(game, {a: b})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: a renaming must map a set of cards onto itself (a permutation)
    """
    if set(cards) != set(cards.values()):
        raise InvalidArgumentError("a renaming must map a set of cards onto itself (a permutation)")
    for card in itertools.chain(cards, cards.values()):
        if not isinstance(card, Card):
            raise InvalidArgumentError(f"a renaming maps cards to cards, got {card!r}")
    twin = game.copy()
    if not cards:
        return twin
    twin._rename(lambda card: cards.get(card, card))
    return twin


def _rename_move(move: Move, one: Callable[[Card], Card]) -> Move:
    """``move`` with its cards renamed by ``one`` (see :func:`renamed`)."""
    if isinstance(move, Keep):
        return Keep(tuple(map(one, move.cards)), tuple(map(one, move.discard)))
    if isinstance(move, Choose):
        return Choose(one(move.card))
    if isinstance(move, TakeFlag):
        return TakeFlag(one(move.card))
    if isinstance(move, Read):
        return Read(move.source, one(move.card))
    if isinstance(move, Publish):
        return Publish(
            move.novel,
            tuple(map(one, move.played)),
            move.cited,
            tuple(Gift(gift.to, one(gift.card)) for gift in move.gifts),
        )
    return move  # draw, take and pass name no card


def _rename_undo(move: Move, record: Undo, one: Callable[[Card], Card]) -> Undo:
    """An undo record of ``move`` with its cards renamed by ``one``."""
    before, change = record
    before = before.renamed(one)
    if isinstance(move, Keep):
        change = [one(card) for card in change]
    elif isinstance(move, Draw) and change is not None:
        deck, discard, face_down, taken, down = change
        change = (
            [one(card) for card in deck],
            [one(card) for card in discard],
            {one(card) for card in face_down},
            None if taken is None else one(taken),
            down,
        )
    elif isinstance(move, TakeDiscard):
        change = (one(change[0]), change[1])
    elif isinstance(move, Read):
        change = tuple(one(card) for card in change)
    return before, change
