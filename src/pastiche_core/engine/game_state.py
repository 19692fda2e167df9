"""The game's state, its deal and what it keeps between moves (R1, R10, R14).

:class:`GameState` holds every card and counter of a game and deals it from a
seeded shuffle; the layers above it add the rules (:mod:`pastiche_core.engine.game_apply`),
the records (:mod:`pastiche_core.engine.game_records`) and the user's face
(:class:`pastiche_core.engine.game.Game`). Its fields are private: a user reads a game
through :class:`~pastiche_core.engine.game.Game`'s public names, and the engine's other
modules through :func:`insides` (gathered with the other doors of the engine in
:mod:`pastiche_core.engine.game_internals`, which is not public).

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> insides(game).pending is None, len(insides(game).deck)
(True, 39)
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from ..data.cards import DECK, Card
from ..data.catalogue import END_FLAG_ID, Catalogue
from ..data.errors import InvalidArgumentError
from ..data.rng import GameRng
from .feasibility import usable_flags
from .game_values import (
    GameResult,
    Public,
    Scalars,
    Text,
    Undo,
    check_deal,
    new_generation,
    novel_points,
    novel_positions,
)
from .layout import PILE_DOWN, PLACE_MASK, SEAT_MASK, card_table, viewer_table
from .movegen import ReadSegment
from .moves import Move, NovelRef
from .rules import RULEBOOK, Phase, Rules, rules_of, setup_discarders, turn_actions
from .table import TableNovel, is_masterpiece

if TYPE_CHECKING:
    pass

__all__ = ["GameInsides", "GameState", "assemble", "insides"]


class GameState:
    """A game's cards and counters, dealt from a seeded shuffle (R10, R14); every field private.

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=1)
    >>> [len(game.hand(p)) for p in range(4)]
    [3, 3, 4, 4]
    >>> game.deck_size, len(game.discard)
    (35, 0)
    """

    __slots__ = (
        "_cards",
        "_catalogue",
        "_current",
        "_deck",
        "_discard",
        "_end_reason",
        "_everyone",
        "_face_down",
        "_flag",
        "_generation",
        "_hands",
        "_history",
        "_passes",
        "_pending",
        "_phase",
        "_players",
        "_public",
        "_published",
        "_reads",
        "_rng",
        "_rules",
        "_seat_cache",
        "_seed",
        "_supply",
        "_supply_view",
        "_tables",
        "_texts",
        "_to_move",
        "_trigger",
        "_trusted",
        "_turn",
        "_turns_left",
        "_undo",
        "_usable",
        "_usable_supply",
    )
    _cards: bytearray
    _catalogue: Catalogue
    _current: int
    _deck: list[Card]
    _discard: list[Card]
    _end_reason: str | None
    _face_down: set[Card]
    _flag: tuple[int, Card] | None
    _generation: int
    _hands: list[set[Card]]
    _history: list[Move]
    _passes: int
    _pending: tuple[Card, Card] | None
    _phase: Phase
    _players: int
    _public: list[Public | None] | None
    _rng: GameRng
    _rules: Rules
    _seed: int
    _supply: dict[str, int]
    _supply_view: Mapping[str, int]
    _tables: list[dict[str, tuple[Card, ...]]]
    _texts: list[Text]
    _to_move: int
    _trigger: int | None
    _trusted: tuple[Move, int] | None
    _turn: int
    _turns_left: int | None
    _undo: list[Undo]
    # What the game keeps of its tables and supply between moves (_forget_kept).
    _seat_cache: list[_SeatSummary | None]
    _everyone: tuple[tuple[tuple[TableNovel, ...], ...], tuple[int, ...]] | None
    _usable: list[bytes | None]
    _usable_supply: dict[str, int]
    _published: list[list[_Published] | None]
    _reads: ReadSegment | None

    # home: R10.deal
    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        catalogue: Catalogue | None = None,
        *,
        rules: Rules | None = None,
    ):
        catalogue = catalogue if catalogue is not None else Catalogue.default()
        rules = rules_of(catalogue, rules)
        check_deal(players, seed, rules)
        rng = GameRng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        hands: list[set[Card]] = [
            {deck.pop() for _ in range(rules.deal_sizes[seat])} for seat in range(players)
        ]
        keepers = rules.keepers(players)  # R10: seats 2 onward by the rulebook
        phase, first = (Phase.KEEP, keepers[0]) if keepers else (Phase.ACTION, 0)
        self._fill(
            catalogue=catalogue,
            rules=rules,
            players=players,
            seed=seed,
            rng=rng,
            deck=deck,
            discard=[],
            face_down=set(),
            hands=hands,
            tables=[{} for _ in range(players)],
            supply={spec.id: spec.copies for spec in catalogue.specs},
            scalars=Scalars(phase, first, 0, None, 0, 0, None, None, None, None, rng.state, 1),
        )

    def _fill(
        self,
        *,
        catalogue: Catalogue,
        rules: Rules,
        players: int,
        seed: int,
        rng: GameRng,
        deck: list[Card],
        discard: list[Card],
        face_down: set[Card],
        hands: list[set[Card]],
        tables: list[dict[str, tuple[Card, ...]]],
        supply: dict[str, int],
        scalars: Scalars,
    ) -> None:
        """Set every slot: these containers and scalars, no history, empty caches, a new
        generation and the card table made from them (one place, so no slot is forgotten)."""
        self._catalogue = catalogue
        self._rules = rules
        self._players = players
        self._seed = seed
        self._rng = rng
        self._deck = deck
        self._discard = discard
        self._face_down = face_down
        self._hands = hands
        self._tables = tables
        self._supply = supply
        self._supply_view = MappingProxyType(supply)
        self._forget_kept()
        self._restore(scalars, rng=False)
        self._history = []
        self._undo = []
        self._public = None
        self._texts = []
        self._renew()
        self._cards = self._locate()

    def _scalars(self) -> Scalars:
        """The counters and single values now (what an undo record keeps before a move)."""
        return _new_scalars(
            Scalars,
            (
                self._phase,
                self._to_move,
                self._current,
                self._pending,
                self._turn,
                self._passes,
                self._trigger,
                self._turns_left,
                self._end_reason,
                self._flag,
                self._rng.state,
                self._supply.get(END_FLAG_ID, 0),
            ),
        )

    def _restore(self, scalars: Scalars, *, rng: bool = True) -> None:
        """Set the counters and single values (and the generator and the End Flag's supply
        when ``rng``) from ``scalars``."""
        (
            self._phase,
            self._to_move,
            self._current,
            self._pending,
            self._turn,
            self._passes,
            self._trigger,
            self._turns_left,
            self._end_reason,
            self._flag,
            rng_state,
            flag_supply,
        ) = scalars
        if rng:
            self._rng.state = rng_state
            self._supply[END_FLAG_ID] = flag_supply

    def _renew(self) -> None:
        """Give the position a new generation, trusting no move handed out before."""
        self._generation = new_generation()
        self._trusted = None

    # ------------------------------------------------------------------
    # Reading the state: the public names
    # ------------------------------------------------------------------
    @property
    def catalogue(self) -> Catalogue:
        """The Novel catalogue the game is played with (R2, R3)."""
        return self._catalogue

    @property
    def rules(self) -> Rules:
        """The numbers the game is played by (R10–R12): the rules it was made with, else its
        catalogue's ``[rules]`` table, else the rulebook's (:class:`~pastiche_core.engine.rules.Rules`).

        >>> from pastiche_core import Game, Rules
        >>> Game(players=3).rules == Rules(), Game(players=3, rules=Rules(end_threshold=10)).rules.end_threshold
        (True, 10)
        """
        return self._rules

    @property
    def players(self) -> int:
        """The number of seats, 3 to 5 by the rulebook (R10)."""
        return self._players

    @property
    def seed(self) -> int:
        """The seed of the deal and of every reshuffle (R14)."""
        return self._seed

    @property
    def phase(self) -> Phase:
        """The decision the game waits for (:class:`~pastiche_core.engine.rules.Phase`)."""
        return self._phase

    @property
    def to_move(self) -> int:
        """The seat that makes the next decision."""
        return self._to_move

    @property
    def turn(self) -> int:
        """The number of turns played since setup."""
        return self._turn

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move played, in order (a copy: the game's own cannot be changed).

        >>> from pastiche_core import Game
        >>> Game.replayed(["keep MYT1 HOR7 HOR8"], players=3, seed=7).history
        (Move.parse('keep MYT1 HOR7 HOR8'),)
        """
        return tuple(self._history)

    @property
    def supply(self) -> Mapping[str, int]:
        """Novel id -> copies left in the supply (R6): a read-only window that follows the game.

        >>> from pastiche_core import Game
        >>> game = Game(players=3)
        >>> game.supply["straight-5"]
        4
        >>> game.supply["straight-5"] = 0
        Traceback (most recent call last):
        ...
        TypeError: 'mappingproxy' object does not support item assignment
        """
        return self._supply_view

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's hand, sorted.

        >>> from pastiche_core import Game
        >>> Game(players=3, seed=2).hand(0)
        (Card.parse('MYT3'), Card.parse('MYT5'), Card.parse('HOR9'))
        >>> Game(players=3).hand(3)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: player must be a seat from 0 to 2, got 3
        """
        if player.__class__ is not int or not 0 <= player < self._players:
            player = self._seat(player)  # the error that says why (a view asks at every decision)
        return tuple(sorted(self._hands[player], key=_INDEX))

    def _seat(self, player: object) -> int:
        """``player`` if it is a seat of this game, else a clear error."""
        if player.__class__ is int and 0 <= player < self._players:
            return player
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidArgumentError(f"player must be a seat number, got {player!r}")
        if not 0 <= player < self._players:
            raise InvalidArgumentError(
                f"player must be a seat from 0 to {self._players - 1}, got {player}"
            )
        return player

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self._deck)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top."""
        return tuple(self._discard)

    def table(self, player: int) -> tuple[TableNovel, ...]:
        """The novels in a player's play area, in the order they were published."""
        return self._summary(self._seat(player))[0]

    def tables(self) -> tuple[tuple[TableNovel, ...], ...]:
        """Every seat's :meth:`table`, in seat order.

        >>> from pastiche_core import Game
        >>> Game(players=3).tables()
        ((), (), ())
        """
        return self._all_summaries()[0]

    def _all_summaries(self) -> tuple[tuple[tuple[TableNovel, ...], ...], tuple[int, ...]]:
        """Every seat's novels and Masterpiece points, kept until a table changes."""
        everyone = self._everyone
        if everyone is None:
            summaries = [self._summary(seat) for seat in range(self._players)]
            everyone = self._everyone = (
                tuple([novels for novels, _ in summaries]),
                tuple([points for _, points in summaries]),
            )
        return everyone

    def _forget_kept(self) -> None:
        """Forget all the game keeps of its tables and supply between moves (each is made
        again when asked): the summaries, the usable flags, the Published novels, the Reads."""
        players = self._players
        self._seat_cache = [None] * players
        self._everyone = None
        self._usable = [None] * players
        self._usable_supply = {}
        self._published = [None] * players
        self._reads = None

    def _table_changed(self, seat: int) -> None:
        """Forget ``seat``'s kept summary and Published novels, everyone's summary and the
        Reads: its table has changed."""
        self._seat_cache[seat] = None
        self._everyone = None
        self._reads = None
        self._published[seat] = None

    def _read_segment(self) -> ReadSegment:
        """The Reads of every Published novel (R11), kept until a table changes (each
        seat's Published novels kept until its own does)."""
        reads = self._reads
        if reads is None:
            published = self._published
            novels: list[_Published] = []
            for owner, kept in enumerate(published):
                if kept is None:
                    kept = published[owner] = [
                        (owner, nid, cards)
                        for nid, cards in self._tables[owner].items()
                        if not is_masterpiece(cards)
                    ]
                novels += kept
            reads = self._reads = ReadSegment(novels)
        return reads

    def _usable_flags(self, seat: int) -> bytes:
        """``seat``'s usable flags (R6), kept until the supply changes.

        They are kept with a copy of the supply they were made from, and every
        seat's are made again when the supply differs from it: a publish and its
        undo change the supply with the Novels held (a read changes neither), and
        a game assembled from parts may hold a supply its caller still holds.
        """
        supply = self._supply
        if supply != self._usable_supply:
            self._usable = [None] * self._players
            self._usable_supply = supply.copy()
        flags = self._usable[seat]
        if flags is None:
            flags = self._usable[seat] = usable_flags(self._catalogue, supply, self._tables[seat])
        return flags

    def _summary(self, seat: int) -> _SeatSummary:
        """``seat``'s kept summary, made now if its table changed since."""
        summary = self._seat_cache[seat]
        return summary if summary is not None else self._summarise(seat)

    def _summarise(self, seat: int) -> _SeatSummary:
        """``seat``'s novels and Masterpiece points, kept until its table changes.

        Views are made at every decision and a table changes only when a novel is
        published or read, so the summary is made once per change (applying and
        undoing a publish or a read clear it).
        """
        made = _TABLE_NOVELS
        if len(made) > 4096:
            made.clear()
        novels = []
        for nid, cards in self._tables[seat].items():
            # The same immutable novel while its cards are the same object.
            novel = made.get((seat, nid))
            if novel is None or novel.cards is not cards:
                novel = made[seat, nid] = TableNovel(seat, nid, cards)
            novels.append(novel)
        summary = self._seat_cache[seat] = (tuple(novels), self._table_points(seat))
        return summary

    def _table_points(self, seat: int) -> int:
        """The points of ``seat``'s Masterpieces, its novels of one card (R7, R13)."""
        points = novel_points(self._catalogue)
        return sum(
            [points[nid] for nid, cards in self._tables[seat].items() if is_masterpiece(cards)]
        )

    def _novel(self, ref: NovelRef) -> TableNovel | None:
        """The novel at ``ref``, or ``None`` if there is none."""
        if not 0 <= ref.owner < self._players:
            return None
        cards = self._tables[ref.owner].get(ref.novel)
        return None if cards is None else TableNovel(ref.owner, ref.novel, cards)

    def _masterpiece_count(self, player: int) -> int:
        """Number of a player's Masterpieces (the R13 tie-break)."""
        return sum(
            1 for cards in self._tables[self._seat(player)].values() if is_masterpiece(cards)
        )

    def scores(self) -> tuple[int, ...]:
        """Every player's score: Masterpiece points plus the End Flag; Published novels score
        nothing (R13).

        >>> from pastiche_core import Game
        >>> Game(players=3).scores()
        (0, 0, 0)
        """
        if self._flag is None:
            return self._all_summaries()[1]
        scores = list(self._all_summaries()[1])
        if self._flag is not None:
            scores[self._flag[0]] += self._catalogue.end_flag.points
        return tuple(scores)

    def _seat_points(self, seat: int) -> int:
        """The points of ``seat``'s Masterpieces (R12, R13): its kept summary's, else counted
        (the end-game check after every publish and read needs no summary made)."""
        summary = self._seat_cache[seat]
        return summary[1] if summary is not None else self._table_points(seat)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase is Phase.OVER

    # home: R13
    def winners(self) -> tuple[int, ...]:
        """Most points; ties to fewer Masterpieces; a remaining tie is shared (R13).

        Meaningful at any time, final once :attr:`is_over`.
        """
        scores = self.scores()
        keys = [(scores[p], -self._masterpiece_count(p)) for p in range(self._players)]
        best = max(keys)
        return tuple(p for p, key in enumerate(keys) if key == best)

    @property
    def result(self) -> GameResult | None:
        """The :class:`GameResult` once the game is over, else ``None``."""
        if self._phase is not Phase.OVER or self._end_reason is None:
            return None
        return GameResult(
            self.scores(),
            tuple(self._masterpiece_count(p) for p in range(self._players)),
            self.winners(),
            self._end_reason,
        )

    def _can_write(self) -> bool:
        """Whether Write ① or ② is possible: a card in the deck or discard pile (R11)."""
        return turn_actions(len(self._deck), len(self._discard), 0)[0]

    def _can_read(self) -> bool:
        """Whether some Published novel (two or more cards) exists (R11)."""
        return self._read_segment().count > 0

    def _locate(self) -> bytearray:
        """The card table made anew from the hands, piles and tables."""
        discarders = setup_discarders(self._players, self._rules)
        face_down = {
            position: discarders[position]
            for position, card in enumerate(self._discard)
            if card in self._face_down and position < len(discarders)
        }
        return card_table(
            hands=dict(enumerate(self._hands)),
            tables=self._tables,
            novel_position=novel_positions(self._catalogue),
            pile=self._discard,
            face_down=face_down,
            drawn=self._pending or (),
            flag=self._flag,
        )

    @property
    def generation(self) -> int:
        """This position's number: every apply and undo gives a new one, never used before.

        Two games, or one game before and after a move and its undo, never share
        a generation, so a move or a count made for one position is trusted in
        that position alone (:class:`~pastiche_core.engine.game.LegalMoves`). Copies, pickles and
        loaded games take a new one too, and the numbers of two processes never meet: each
        process counts from its own random 64-bit start.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> first = game.generation
        >>> game.apply("keep MYT1 HOR7 HOR8"); _ = game.undo()
        >>> game.generation == first, game.copy().generation == first
        (False, False)
        """
        return self._generation

    def _discarder(self, card: Card) -> int | None:
        """The seat that laid ``card`` of the discard pile face down at setup (R10), else
        ``None`` (it lies face up), read from the card table."""
        place = self._cards[card.index]
        return place & SEAT_MASK if place & PLACE_MASK == PILE_DOWN else None

    # ------------------------------------------------------------------
    # Branching: copies, pickles and equality
    # ------------------------------------------------------------------
    def copy(self, *, history: bool = True) -> Self:
        """An independent copy, cheap enough for search (cards are shared, containers are not),
        at a new generation: no move handed out for this game is trusted by the copy.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> twin = game.copy(); twin.apply(next(iter(twin.legal_moves)))
        >>> twin == game, game.phase
        (False, <Phase.KEEP: 'keep'>)
        """
        kind = type(self)
        twin = kind.__new__(kind)
        twin._catalogue = self._catalogue
        twin._rules = self._rules
        twin._players = self._players
        twin._seed = self._seed
        twin._rng = self._rng.copy()
        twin._deck = self._deck.copy()
        twin._discard = self._discard.copy()
        twin._face_down = self._face_down.copy()
        twin._hands = [hand.copy() for hand in self._hands]
        twin._tables = [table.copy() for table in self._tables]
        twin._cards = self._cards.copy()
        twin._supply = self._supply.copy()
        twin._supply_view = MappingProxyType(twin._supply)
        twin._forget_kept()
        twin._restore(self._scalars(), rng=False)
        twin._history = self._history.copy() if history else []
        twin._undo = self._undo.copy() if history else []
        # Each viewer's public history is immutable: the copy shares them.
        twin._public = self._public.copy() if history and self._public is not None else None
        twin._texts = self._texts.copy() if history else []
        twin._renew()
        return twin

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # A copy shares only what never changes (cards, moves, the catalogue, records).
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps: the state and history, not the caches or the generation."""
        return {name: getattr(self, name) for name in _PICKLED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A loaded game: its state and history, caches made again, and a new generation
        (a move handed out before it was pickled, in any process, is not trusted)."""
        for name in _PICKLED:
            setattr(self, name, state[name])
        self._supply_view = MappingProxyType(self._supply)
        self._forget_kept()
        self._public = None
        self._texts = []
        self._renew()

    def _key(self) -> tuple[Any, ...]:
        return (
            self._catalogue,
            self._rules,
            self._players,
            self._seed,
            tuple(self._deck),
            tuple(self._discard),
            frozenset(self._face_down),
            tuple(frozenset(hand) for hand in self._hands),
            tuple(tuple(table.items()) for table in self._tables),
            tuple(sorted(self._supply.items())),
            self._scalars(),
        )

    def __eq__(self, other: object) -> bool:
        """Equal positions (same cards everywhere, same phase, same generator); history aside."""
        if not isinstance(other, GameState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable


_NOT_PICKLED = frozenset(
    {
        "_everyone",
        "_generation",
        "_public",
        "_published",
        "_reads",
        "_seat_cache",
        "_supply_view",
        "_texts",
        "_trusted",
        "_usable",
        "_usable_supply",
    }
)
"""The slots a pickle leaves out: caches, the supply's window, the generation and the trusted
move, all made again on load."""

_PICKLED = tuple(name for name in GameState.__slots__ if name not in _NOT_PICKLED)
"""The slots a pickle keeps: every other one, so a new slot is kept unless listed above."""

_S = TypeVar("_S", bound=GameState)

_new_scalars = tuple.__new__  # Scalars of a tuple, without the keyword parsing (every apply)


def assemble(
    kind: type[_S],
    *,
    catalogue: Catalogue,
    players: int,
    seed: int,
    rng: GameRng,
    deck: list[Card],
    discard: list[Card],
    face_down: set[Card],
    hands: list[set[Card]],
    tables: list[dict[str, tuple[Card, ...]]],
    supply: dict[str, int],
    flag: tuple[int, Card] | None,
    phase: Phase,
    to_move: int,
    current: int,
    pending: tuple[Card, Card] | None,
    turn: int,
    passes: int,
    trigger: int | None,
    turns_left: int | None,
    end_reason: str | None,
    rules: Rules = RULEBOOK,
) -> _S:
    """A game of class ``kind`` in exactly this state, with no history and empty caches;
    nothing is checked.

    For the state reader and for determinizations, which check what they
    assemble (:func:`~pastiche_core.io.invariants.check_invariants`); every slot is
    set so a new cache cannot be forgotten. The containers are the game's from
    now on.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> inside = insides(game)
    >>> twin = assemble(
    ...     Game, catalogue=game.catalogue, players=3, seed=7, rng=inside.rng_copy(),
    ...     deck=list(inside.deck), discard=[], face_down=set(),
    ...     hands=[set(game.hand(p)) for p in range(3)], tables=[{}, {}, {}],
    ...     supply=dict(game.supply), flag=None, phase=game.phase, to_move=2, current=0,
    ...     pending=None, turn=0, passes=0, trigger=None, turns_left=None, end_reason=None)
    >>> twin == game
    True
    """
    game = kind.__new__(kind)
    game._fill(
        catalogue=catalogue,
        rules=rules,
        players=players,
        seed=seed,
        rng=rng,
        deck=deck,
        discard=discard,
        face_down=face_down,
        hands=hands,
        tables=tables,
        supply=supply,
        scalars=Scalars(
            phase,
            to_move,
            current,
            pending,
            turn,
            passes,
            trigger,
            turns_left,
            end_reason,
            flag,
            rng.state,
            supply.get(END_FLAG_ID, 0),
        ),
    )
    return game


_Published = tuple[int, str, tuple[Card, ...]]
"""A Published novel as the Reads list it: owner, Novel id and the cards under it (R11)."""

_SeatSummary = tuple[tuple[TableNovel, ...], int]
"""A seat's novels on the table and its Masterpiece points (``GameState._summarise``)."""

_TABLE_NOVELS: dict[tuple[int, str], TableNovel] = {}
"""The novels :meth:`GameState.table` made, reused while their cards are the same tuple."""


_INDEX = operator.attrgetter("index")
"""Sort key of cards: their place in the deck (faster than comparing cards)."""


class GameInsides:
    """The engine's window on a game's private state (not public: see :func:`insides`).

    Live and read-only: the containers are the game's own, typed as read-only
    collections; read them, never change them (the game would not know, and its
    caches, card table and generation would lie).

    >>> from pastiche_core import Game
    >>> inside = insides(Game(players=3, seed=7))
    >>> inside.current, inside.passes, inside.flag, sorted(inside.hand(0)) == list(inside.game.hand(0))
    (0, 0, None, True)
    """

    __slots__ = ("game",)

    def __init__(self, game: GameState) -> None:
        self.game = game

    @property
    def deck(self) -> Sequence[Card]:
        """The deck, bottom to top (the last card is drawn first)."""
        return self.game._deck

    @property
    def scalars(self) -> Scalars:
        """The counters and single values (what an undo record keeps before a move)."""
        return self.game._scalars()

    @property
    def rng_state(self) -> int:
        """The state of the game's generator (R14)."""
        return self.game._rng.state

    def rng_copy(self) -> GameRng:
        """An independent copy of the game's generator (R14)."""
        return self.game._rng.copy()

    @property
    def discard(self) -> Sequence[Card]:
        """The discard pile, bottom to top."""
        return self.game._discard

    @property
    def face_down(self) -> AbstractSet[Card]:
        """The cards lying face down in the discard pile (R10, R16)."""
        return self.game._face_down

    def is_face_down(self, card: Card) -> bool:
        """Whether ``card`` lies face down in the discard pile (setup discards, R10)."""
        return card in self.game._face_down

    def hand(self, player: int) -> AbstractSet[Card]:
        """``player``'s hand, unordered."""
        game = self.game
        return game._hands[game._seat(player)]

    @property
    def tables(self) -> Sequence[Mapping[str, tuple[Card, ...]]]:
        """Per seat, Novel id -> the cards under it."""
        return self.game._tables

    @property
    def current(self) -> int:
        """The seat whose turn it is (the player to move may differ: R10, R12)."""
        return self.game._current

    @property
    def pending(self) -> tuple[Card, Card] | None:
        """The two cards drawn by Write ①, while their drawer chooses (R11)."""
        return self.game._pending

    @property
    def flag(self) -> tuple[int, Card] | None:
        """The End Flag's holder and the card under it, once taken (R12)."""
        return self.game._flag

    @property
    def passes(self) -> int:
        """The passes in succession so far (R11)."""
        return self.game._passes

    @property
    def trigger(self) -> int | None:
        """The trigger player, once the end is triggered (R12)."""
        return self.game._trigger

    @property
    def turns_left(self) -> int | None:
        """The turns left once the end is triggered (R12)."""
        return self.game._turns_left

    @property
    def end_reason(self) -> str | None:
        """``'countdown'`` (R12) or ``'all-pass'`` (R11) once over, else ``None``."""
        return self.game._end_reason

    @property
    def flag_lost(self) -> bool:
        """Whether the End Flag was missed because the trigger player had no card (R12)."""
        game = self.game
        return game._trigger is not None and game._flag is None and game._phase is not Phase.FLAG

    def can_write(self) -> bool:
        """Whether Write ① or ② is possible: a card in the deck or discard pile (R11)."""
        return self.game._can_write()

    def can_read(self) -> bool:
        """Whether some Published novel (two or more cards) exists (R11)."""
        return self.game._can_read()

    def novel(self, ref: NovelRef) -> TableNovel | None:
        """The novel at ``ref``, or ``None`` if there is none."""
        return self.game._novel(ref)

    def masterpiece_points(self, player: int) -> int:
        """Points of a player's Masterpieces (the R12 trigger counts only these)."""
        game = self.game
        return game._seat_points(game._seat(player))

    def masterpiece_count(self, player: int) -> int:
        """Number of a player's Masterpieces (the R13 tie-break)."""
        game = self.game
        return game._masterpiece_count(game._seat(player))

    @property
    def card_table(self) -> bytes:
        """Where every card lies, packed as :mod:`pastiche_core.engine.layout` describes (a copy).

        The game keeps it move by move; the compiled kernels read it.

        >>> from pastiche_core import Game
        >>> from pastiche_core.engine.layout import place_name
        >>> game = Game(players=3, seed=7)
        >>> place_name(insides(game).card_table[game.hand(2)[0].index])
        'HAND 2'
        """
        return bytes(self.game._cards)

    def viewer_card_table(self, viewer: int, drawn: bool = False) -> bytes:
        """:attr:`card_table` as ``viewer`` sees it (:func:`~pastiche_core.engine.layout.viewer_table`,
        R16): other hands and face-down cards hidden, the drawn cards too unless ``drawn``.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> table = insides(game).viewer_card_table(0)
        >>> [table[card.index] for card in game.hand(0)], [table[card.index] for card in game.hand(1)]
        ([16, 16, 16], [0, 0, 0])
        """
        return viewer_table(self.game._cards, viewer, drawn)

    def card_table_is_current(self) -> bool:
        """Whether the kept :attr:`card_table` says what the hands, piles and tables say.

        >>> from pastiche_core import Game
        >>> insides(Game(players=3, seed=7)).card_table_is_current()
        True
        """
        game = self.game
        return game._cards == game._locate()


def insides(game: GameState) -> GameInsides:
    """The engine's read-only window on ``game``'s private state (:class:`GameInsides`).

    Not public: for the engine's own modules (views, invariants, readers and
    writers of JSON, bots, environments), which must not read a game's private
    names. A user reads a game through its public names and its views.

    >>> from pastiche_core import Game
    >>> insides(Game(players=3, seed=7)).deck_is_hidden
    Traceback (most recent call last):
    ...
    AttributeError: 'GameInsides' object has no attribute 'deck_is_hidden'
    """
    return GameInsides(game)
