"""A player's view: exactly what one player may know of a game (R16).

The view holds the player's own hand, the other hands' sizes, the deck size, the
discard pile with the face-down cards hidden (R10) except those the player
discarded, every novel on the table, the supply, the End Flag, whose decision it
is, and the public history. The two cards drawn by Write ① are shown only to the
player choosing between them.

The history lists every move so far as ``(seat, notation)``, with each card the
player may not know written ``?`` (see :func:`public_notation`): another seat's
setup keep, the card another seat kept after Write ①, and gift cards between
two other seats. :func:`read_public_notation` reads it back. Beside it,
:attr:`PlayerView.records` holds one :class:`MoveRecord` per move: what the move
moved between the deck, the discard pile and the hands that its notation does
not say (the cards drawn, the card laid face up after Write ①, the card taken
from the pile), as far as the player saw it.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> view = game.view(0)
>>> view.hand_sizes, view.deck_size
((3, 3, 4), 39)
>>> view
<PlayerView player 0, turn 0, keep: player 2 to move, hand LOV4 LOV7 MAG8>
>>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
>>> game.view(0).history
((2, 'keep ? ? ?'), (0, 'draw'))
>>> game.view(2).history[0], game.view(2).discard
((2, 'keep MYT1 HOR7 HOR8'), (Card.parse('FAN10'),))
>>> game.view(1).discard
(None,)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..data.cards import Card, format_cards
from ..data.catalogue import Catalogue
from ..data.errors import InvalidNotationError
from .layout import card_table
from .moves import NOTATION_SEATS, Choose, Keep, Move, Publish
from .rules import RULEBOOK, Phase, Rules, setup_discarders
from .table import TableNovel

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "MoveRecord",
    "PlayerView",
    "PublicMove",
    "make_view",
    "public_notation",
    "read_public_notation",
    "setup_discarders",
]

_INDEX = operator.attrgetter("index")

HIDDEN = "?"
"""How the public history writes a card the player may not know (R16)."""


class MoveRecord(NamedTuple):
    """What one move did to the deck, the discard pile and the hands beyond its notation.

    :func:`~pastiche_core.engine.game_records.move_record` makes the
    whole record; :meth:`seen_by` keeps what one player saw (R16), and a view
    carries those (:attr:`PlayerView.records`). Fields a move does not use are
    empty. ``taken`` is the card that left the discard pile for ``seat``'s hand:
    by Write ② or by a Write ① that found only that card, the deck empty (R11);
    ``taken_from`` is the seat that laid it face down at setup (R10), or
    ``None`` when it lay face up.

    >>> from pastiche_core import Game
    >>> from pastiche_core.engine.game_internals import move_record
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw"); game.apply("choose SCI5")
    >>> move_record(game, 1)
    MoveRecord(seat=0, keyword='draw', drawn=(Card.parse('FAN11'), Card.parse('SCI5')), \
taken=None, taken_from=None, laid_up=None, laid_down=())
    >>> move_record(game, 2).laid_up, move_record(game, 1).seen_by(1).drawn
    (Card.parse('FAN11'), ())
    """

    seat: int
    """The seat that made the move."""
    keyword: str
    """The move's keyword: ``keep``, ``draw``, ``choose``, ``take``, ``publish``, ``read``, ``pass`` or ``flag``."""
    drawn: tuple[Card, ...] = ()
    """Write ①: the cards drawn, in order: two, or the one card left (R11); only the drawer sees them."""
    taken: Card | None = None
    """The card taken from the discard pile into ``seat``'s hand (Write ②, or a one-card Write ①, R11)."""
    taken_from: int | None = None
    """The seat that discarded ``taken`` face down at setup (R10), or ``None`` if it lay face up."""
    laid_up: Card | None = None
    """The drawn card not chosen, laid face up on the discard pile (R11)."""
    laid_down: tuple[Card, ...] = ()
    """The setup discards laid face down, in the order they went down (R10, R15)."""

    def seen_by(self, viewer: int) -> MoveRecord:
        """The record as ``viewer`` saw the move: what was hidden from them left out (R16).

        The drawn cards and the setup discards show to the mover alone; a card
        taken from the pile shows to everyone if it lay face up, else to the
        taker and to the seat that discarded it.

        >>> record = MoveRecord(3, "take", taken=Card.parse("MYT1"), taken_from=2)
        >>> record.seen_by(1).taken, record.seen_by(2).taken, record.seen_by(3).taken
        (None, Card.parse('MYT1'), Card.parse('MYT1'))
        """
        seat, keyword, drawn, taken, taken_from, laid_up, laid_down = self
        hide_taken = (
            taken is not None and taken_from is not None and viewer not in (seat, taken_from)
        )
        mine = viewer == seat
        if (mine or not (drawn or laid_down)) and not hide_taken:
            return self
        return MoveRecord(
            seat,
            keyword,
            drawn if mine else (),
            None if hide_taken else taken,
            taken_from,
            laid_up,
            laid_down if mine else (),
        )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``player`` may know at this moment, and nothing more.

    ``discard`` lists the pile bottom to top with ``None`` for a face-down card
    the player did not discard; ``face_down`` gives the indexes of the face-down
    cards. ``pending`` holds the two drawn cards only when this player is
    choosing. ``history`` is the public history: ``(seat, notation)`` per move,
    hidden cards written ``?`` (R16), and ``records`` what each move moved
    between deck, pile and hands as this player saw it (:class:`MoveRecord`).
    ``catalogue`` is the game's (public) Novel catalogue and ``rules`` the
    numbers it is played by (public too: house rules or the rulebook's).
    """

    player: int
    """The seat whose view this is."""
    players: int
    """The number of seats (3 to 5)."""
    phase: Phase
    """The game's phase: keep, action, choose, flag or over."""
    to_move: int
    """The seat that decides now (at setup the keeping seat; in the flag phase the trigger player)."""
    current: int
    """The seat whose turn it is."""
    turn: int
    """Turns played since setup."""
    hand: tuple[Card, ...]
    """The player's own hand, sorted."""
    hand_sizes: tuple[int, ...]
    """Every seat's number of hand cards (public)."""
    deck_size: int
    """Cards left in the deck."""
    discard: tuple[Card | None, ...]
    """The discard pile, bottom to top; ``None`` for a face-down card the player did not discard (R16)."""
    tables: tuple[tuple[TableNovel, ...], ...]
    """Each seat's novels on the table (Published and Masterpieces), all public."""
    supply: tuple[tuple[str, int], ...]
    """``(novel, copies)`` of the Novel cards not yet taken."""
    flag: tuple[int, Card] | None
    """``(seat, card)`` once the End Flag is taken (R12), else ``None``."""
    pending: tuple[Card, Card] | None
    """The two drawn cards while this player chooses (R11), else ``None``."""
    passes: int
    """Passes in succession; every seat passing ends the game (R11)."""
    trigger: int | None
    """The seat that triggered the end game (R12), else ``None``."""
    turns_left: int | None
    """Turns left in the countdown (R12), else ``None``."""
    end_reason: str | None
    """How the game ended (``'countdown'`` or ``'all-pass'``), else ``None``."""
    scores: tuple[int, ...]
    """Every seat's score now: Masterpiece points plus the End Flag (R13)."""
    face_down: tuple[int, ...] = ()
    """Indexes into :attr:`discard` of the face-down cards, the player's own included (R16)."""
    history: tuple[tuple[int, str], ...] = ()
    """The public history: ``(seat, notation)`` per move, hidden cards written ``?`` (R16)."""
    catalogue: Catalogue = field(default_factory=Catalogue.default, repr=False)
    """The game's Novel catalogue (public)."""
    rules: Rules = field(default=RULEBOOK, repr=False)
    """The numbers the game is played by (R10–R12; public): ``Rules()`` by the rulebook."""
    records: Sequence[MoveRecord] = field(default=(), repr=False, compare=False)
    """Per move of :attr:`history`, what it moved as this player saw it (:meth:`MoveRecord.seen_by`).

    Empty when the history is, or when the view was read from a document that
    does not carry them; like the card table it says nothing the other fields
    and the history do not already imply, so it takes no part in equality.
    """
    _card_table: bytes | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def card_table(self) -> bytes:
        """Where every card lies as this player sees it: :mod:`pastiche_core.engine.layout`'s card table.

        What the player cannot see (other hands, the deck, others' face-down
        discards, the drawn cards of another seat) is ``UNSEEN`` (R16).

        >>> from pastiche_core import Game
        >>> view = Game(players=3, seed=7).view(0)
        >>> [view.card_table[card.index] for card in view.hand], sum(view.card_table[:49])
        ([16, 16, 16], 48)
        """
        table = self._card_table
        if table is None:
            discard = self.discard
            table = bytes(
                card_table(
                    hands={self.player: self.hand},
                    tables=[{novel.novel: novel.cards for novel in seat} for seat in self.tables],
                    novel_position={spec.id: i for i, spec in enumerate(self.catalogue.specs)},
                    pile=discard,
                    face_down={at: self.player for at in self.face_down if discard[at] is not None},
                    drawn=self.pending or (),
                    flag=self.flag,
                )
            )
            object.__setattr__(self, "_card_table", table)
        return table

    @classmethod
    def of(cls, game: Game, player: int, *, history: bool = True) -> PlayerView:
        """The view of ``player`` in ``game`` (same as ``game.view(player, history=history)``).

        >>> from pastiche_core import Game
        >>> PlayerView.of(Game(players=3, seed=7), 0) == Game(players=3, seed=7).view(0)
        True
        """
        return game.view(player, history=history)

    def __repr__(self) -> str:
        return (
            f"<PlayerView player {self.player}, turn {self.turn}, {self.phase.value}: "
            f"player {self.to_move} to move, hand {format_cards(self.hand) or '-'}>"
        )


# The slot setters of PlayerView's fields, in field order (for make_view).
(
    _set_player,
    _set_players,
    _set_phase,
    _set_to_move,
    _set_current,
    _set_turn,
    _set_hand,
    _set_hand_sizes,
    _set_deck_size,
    _set_discard,
    _set_tables,
    _set_supply,
    _set_flag,
    _set_pending,
    _set_passes,
    _set_trigger,
    _set_turns_left,
    _set_end_reason,
    _set_scores,
    _set_face_down,
    _set_history,
    _set_catalogue,
    _set_rules,
    _set_records,
    _set_card_table,
) = (getattr(PlayerView, name).__set__ for name in PlayerView.__dataclass_fields__)


# home: R16.history
def public_notation(move: Move, seat: int, viewer: int, *, notation: str | None = None) -> str:
    """The notation of ``seat``'s ``move`` as ``viewer`` may know it, hidden cards as ``?`` (R16).

    A seat's own moves are shown whole. Of another seat, the cards kept at
    setup (and the order of the discards), the card kept after Write ① and the
    gift cards given to a third seat are hidden; everything else lies face up.
    ``notation`` is ``str(move)`` when the caller has it already.

    >>> from pastiche_core import Move
    >>> move = Move.parse("publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:SCI9 2:HOR4")
    >>> public_notation(move, 0, 1)
    'publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:SCI9 2:?'
    >>> public_notation(Move.parse("choose SCI9"), 0, 2)
    'choose ?'
    """
    if seat == viewer:
        return str(move) if notation is None else notation
    if isinstance(move, Keep):
        text = "keep " + " ".join([HIDDEN] * len(move.cards))
        if move.discard:
            text += " discard " + " ".join([HIDDEN] * len(move.discard))
        return text
    if isinstance(move, Choose):
        return f"choose {HIDDEN}"
    if isinstance(move, Publish) and move.gifts:
        parts = ["publish", move.novel, format_cards(move.played)]
        if move.cited:
            parts += ["cite", *map(str, move.cited)]
        parts.append("gift")
        parts += [str(gift) if gift.to == viewer else f"{gift.to}:{HIDDEN}" for gift in move.gifts]
        return " ".join([part for part in parts if part])
    return str(move) if notation is None else notation


@dataclass(frozen=True, slots=True)
class PublicMove:
    """A move as the public history writes it for one player (R16), read back.

    ``move`` is the move with the cards the player may not know left out: a
    publish keeps only the gifts the player saw, and a keep or a choose whose
    cards are all hidden has none (``None``). ``hidden_gifts`` lists, in order,
    the seats given a card the player did not see.
    """

    keyword: str
    """The move's keyword (``keep``, ``draw``, ``choose``, ``take``, ``publish``, ``read``, ``pass``, ``flag``)."""
    move: Move | None
    """The move without its hidden cards, or ``None`` when it names none (another seat's keep or choose)."""
    hidden_gifts: tuple[int, ...] = ()
    """The seats given a gift card the player did not see, in notation order (R5, R16)."""


def read_public_notation(text: str) -> PublicMove:
    """Read one entry of a view's public history, written by :func:`public_notation`.

    Notation without ``?`` is read by :meth:`Move.parse <pastiche_core.engine.moves.Move.parse>`;
    ``?`` stands only where :func:`public_notation` writes it (every card of a
    keep, the card of a choose, gift cards), else
    :class:`~pastiche_core.data.errors.InvalidNotationError` says where it is.

    >>> read_public_notation("publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:SCI9 2:?")
    PublicMove(keyword='publish', move=Move.parse('publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 \
gift 1:SCI9'), hidden_gifts=(2,))
    >>> read_public_notation("keep ? ? ? discard ? ?"), read_public_notation("draw").move
    (PublicMove(keyword='keep', move=None, hidden_gifts=()), Move.parse('draw'))
    >>> read_public_notation("read 1:kind-3 ?")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid public move 'read 1:kind-3 ?': a read names its card (R16)
    """
    if not isinstance(text, str) or HIDDEN not in text:
        move = Move.parse(text)
        return PublicMove(move.keyword, move)
    words = text.split()
    keyword = words[0].lower()
    if keyword == "keep" and all(word in (HIDDEN, "discard") for word in words[1:]):
        return PublicMove(keyword, None)
    if keyword == "choose" and words[1:] == [HIDDEN]:
        return PublicMove(keyword, None)
    if keyword == "publish":
        lowered = [word.lower() for word in words]
        start = lowered.index("gift") if "gift" in lowered else len(words)
        hidden: list[int] = []
        shown: list[str] = []
        for position, word in enumerate(words):
            to, colon, card = word.partition(":")
            if HIDDEN not in word:
                shown.append(word)
            elif colon and card == HIDDEN and position > start and to in NOTATION_SEATS:
                hidden.append(int(to))
            else:
                break
        else:
            move = Move.parse(" ".join(shown))
            return PublicMove(keyword, move, tuple(hidden))
    raise InvalidNotationError(
        f"invalid public move {text!r}: "
        + (
            f"a {keyword} names its card (R16)"
            if keyword in ("read", "flag")
            else "'?' stands only for the cards of another seat's keep or choose and for gift "
            "cards between two other seats (R16)"
        )
    )


def make_view(
    player: int,
    players: int,
    phase: Phase,
    to_move: int,
    current: int,
    turn: int,
    hand: tuple[Card, ...],
    hand_sizes: tuple[int, ...],
    deck_size: int,
    discard: tuple[Card | None, ...],
    tables: tuple[tuple[TableNovel, ...], ...],
    supply: tuple[tuple[str, int], ...],
    flag: tuple[int, Card] | None,
    pending: tuple[Card, Card] | None,
    passes: int,
    trigger: int | None,
    turns_left: int | None,
    end_reason: str | None,
    scores: tuple[int, ...],
    face_down: tuple[int, ...],
    history: tuple[tuple[int, str], ...],
    catalogue: Catalogue,
    rules: Rules,
    records: tuple[MoveRecord, ...],
    card_table: bytes,
) -> PlayerView:
    """A view of these fields, in :class:`PlayerView`'s field order, unchecked: the game's
    fast constructor (a view is made at every decision; the dataclass's own constructor
    sets its frozen fields one by one through ``object.__setattr__``).

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(0)
    >>> make_view(*(getattr(view, name) for name in PlayerView.__dataclass_fields__)) == view
    True
    """
    view = object.__new__(PlayerView)
    _set_player(view, player)
    _set_players(view, players)
    _set_phase(view, phase)
    _set_to_move(view, to_move)
    _set_current(view, current)
    _set_turn(view, turn)
    _set_hand(view, hand)
    _set_hand_sizes(view, hand_sizes)
    _set_deck_size(view, deck_size)
    _set_discard(view, discard)
    _set_tables(view, tables)
    _set_supply(view, supply)
    _set_flag(view, flag)
    _set_pending(view, pending)
    _set_passes(view, passes)
    _set_trigger(view, trigger)
    _set_turns_left(view, turns_left)
    _set_end_reason(view, end_reason)
    _set_scores(view, scores)
    _set_face_down(view, face_down)
    _set_history(view, history)
    _set_catalogue(view, catalogue)
    _set_rules(view, rules)
    _set_records(view, records)
    _set_card_table(view, card_table)
    return view
