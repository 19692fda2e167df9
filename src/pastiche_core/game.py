"""The game state and the rules engine (R4–R14).

:class:`Game` is the mutable state; it carries every rule. Each decision of the
rules is an explicit decision point (:class:`Phase`) answered by one
:class:`~pastiche_core.moves.Move`:

* ``Phase.KEEP`` — setup: from seat 2 on, each player keeps 3 cards (R10);
* ``Phase.ACTION`` — the turn action: Write ① (:class:`Draw`), Write ②
  (:class:`TakeDiscard`), :class:`Publish`, :class:`Read` or :class:`Pass` (R11);
* ``Phase.CHOOSE`` — after Write ①, which drawn card to keep (R11);
* ``Phase.FLAG`` — the trigger player's card under the End Flag (R12);
* ``Phase.OVER`` — the game has ended (R12, R13).

Every move goes through one rule path: :meth:`Game.violation` says why a move is
illegal (or ``None``), :meth:`Game.is_legal` and ``move in game.legal_moves``
ask it without enumerating, and :meth:`Game.apply` raises
:class:`~pastiche_core.errors.IllegalMoveError` with that reason and leaves the
state untouched.

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

import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .cards import DECK, Card, format_cards
from .catalogue import END_FLAG_ID, Catalogue
from .errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    PasticheError,
)
from .feasibility import owed_text, publish_violation, usable_flags
from .layout import (
    CARDS,
    DRAWN,
    FLAG,
    HAND,
    MASTER,
    NO_NOVEL,
    PILE_DOWN,
    PILE_UP,
    PLACE_MASK,
    PUBLISHED,
    SEAT_MASK,
    UNSEEN,
    card_table,
    viewer_table,
)
from .movegen import (
    KeepSegment,
    ListSegment,
    PublishSegment,
    ReadSegment,
    Segment,
    publish_segments,
)
from .moves import (
    Choose,
    Draw,
    Gift,
    Keep,
    Move,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from .rng import GameRng
from .rules import (
    DEAL_SIZES,
    END_THRESHOLD,
    KEEP_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULEBOOK,
    Phase,
    Rules,
    rules_of,
    setup_discarders,
    turn_actions,
)
from .table import TableNovel, is_masterpiece
from .view import MoveRecord, PlayerView, public_notation

if TYPE_CHECKING:
    from .position import Position

__all__ = [
    "DEAL_SIZES",
    "END_THRESHOLD",
    "KEEP_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Game",
    "GameResult",
    "LegalMoves",
    "Phase",
    "check_deal",
    "keep_moves",
]


# home: R10.check
def check_deal(
    players: object,
    seed: object = 0,
    rules: object = RULEBOOK,
    *,
    error: type[PasticheError] = InvalidStateError,
) -> None:
    """Refuse a deal :class:`Game` cannot make: ``players`` beyond the rules' seats (3 to 5
    by R10), a ``seed`` that is no integer, or ``rules`` that are no
    :class:`~pastiche_core.rules.Rules`. The one check of a deal's players and seed: every
    face that takes them calls it, raising ``error``
    (:class:`~pastiche_core.errors.InvalidStateError` unless told).

    >>> check_deal(4, 7)
    >>> check_deal(6, 7)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: players must be from 3 to 5 (R10), got 6
    >>> check_deal(5, 7, Rules(max_players=4))
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: players must be from 3 to 4 (R10), got 5
    >>> from pastiche_core.errors import InvalidArgumentError
    >>> check_deal("4", error=InvalidArgumentError)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: players must be an integer from 3 to 5, got '4'
    """
    if not isinstance(rules, Rules):
        raise InvalidStateError(f"rules must be a Rules, got {type(rules).__name__}")
    low, high = rules.min_players, rules.max_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise error(f"players must be an integer from {low} to {high}, got {players!r}")
    if not low <= players <= high:
        raise error(f"players must be from {low} to {high} (R10), got {players}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise error(f"seed must be an integer, got {seed!r}")


def keep_moves(hand: Iterable[Card]) -> list[Keep]:
    """Every setup keep of ``hand``, in enumeration order (R10, R15).

    Kept cards go by combinations of the sorted hand; a seat that discards two
    also chooses which lies on top, so both orders are listed. Only a hand a
    deal gives is listed: one of more than the largest deal's 5 cards (R10)
    would list ``C(n, 3) * (n - 3)!`` keeps and raises
    :class:`~pastiche_core.errors.InvalidArgumentError` (a game counts such
    keeps without listing them, :class:`~pastiche_core.movegen.KeepSegment`).

    >>> from pastiche_core import parse_cards
    >>> [str(move) for move in keep_moves(parse_cards("SCI9 MYT1 HOR7 LOV2"))]
    ['keep MYT1 LOV2 SCI9', 'keep MYT1 LOV2 HOR7', 'keep MYT1 SCI9 HOR7', 'keep LOV2 SCI9 HOR7']
    >>> keep_moves(parse_cards("MYT1 LOV2 SCI3 HOR4 MYS5 FAN6"))
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: a setup keep is made from at most 5 cards (R10), got a hand of 6
    """
    segment = KeepSegment(hand)
    if len(segment.cards) > _LARGEST_DEAL:
        raise InvalidArgumentError(
            f"a setup keep is made from at most {_LARGEST_DEAL} cards (R10), "
            f"got a hand of {len(segment.cards)}"
        )
    return list(segment)


_LARGEST_DEAL = max(DEAL_SIZES)


class Answer(Protocol):
    """A solver answer that carries its move (:class:`~pastiche_core.report.Best` of
    ``best(game)``): :meth:`Game.apply` plays that move."""

    @property
    def move(self) -> Publish | None:
        """The move the answer stands for, when it was made for a game."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final result: scores, Masterpiece counts, winners and how the game ended (R13).

    ``reason`` is ``'countdown'`` (R12) or ``'all-pass'`` (R11).
    """

    scores: tuple[int, ...]
    """Every player's final score: Masterpiece points plus the End Flag (R13)."""
    masterpieces: tuple[int, ...]
    """Every player's number of Masterpieces, the first tie-break (R13)."""
    winners: tuple[int, ...]
    """The winning seats: more than one when the tie-breaks leave a shared win (R13)."""
    reason: str
    """How the game ended: ``'countdown'`` (R12) or ``'all-pass'`` (R11)."""


class Game:
    """A game of Pastiche for 3–5 players, dealt from a seeded shuffle (R10, R14).

    >>> game = Game(players=4, seed=1)
    >>> [len(game.hand(p)) for p in range(4)]
    [3, 3, 4, 4]
    >>> game.deck_size, len(game.discard)
    (35, 0)
    """

    __slots__ = (
        "_cards",
        "_discard",
        "_everyone",
        "_face_down",
        "_generation",
        "_hands",
        "_public",
        "_published",
        "_reads",
        "_seat_cache",
        "_tables",
        "_texts",
        "_trusted",
        "_undo",
        "_usable",
        "_usable_supply",
        "catalogue",
        "current",
        "deck",
        "end_reason",
        "flag",
        "history",
        "passes",
        "pending",
        "phase",
        "players",
        "rng",
        "rules",
        "seed",
        "supply",
        "to_move",
        "trigger",
        "turn",
        "turns_left",
    )
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
        rules = rules if rules is not None else rules_of(catalogue)
        check_deal(players, seed, rules)
        self.catalogue = catalogue
        self.rules = rules
        """The numbers this game is played by (R10–R12): ``rules``, else the catalogue's
        ``[rules]`` table, else the rulebook's."""
        self.players = players
        self.seed = seed
        self.rng = GameRng(seed)
        self.deck: list[Card] = list(DECK)
        self.rng.shuffle(self.deck)
        self._discard: list[Card] = []
        self._face_down: set[Card] = set()
        self._hands: list[set[Card]] = []
        self._cards = bytearray(_EMPTY_TABLE)  # where each card lies (pastiche_core.layout)
        for seat in range(players):
            hand = {self.deck.pop() for _ in range(rules.deal_sizes[seat])}
            self._hands.append(hand)
            for card in hand:
                self._cards[card.index] = HAND | seat
        self._tables: list[dict[str, tuple[Card, ...]]] = [{} for _ in range(players)]
        self.supply: dict[str, int] = {spec.id: spec.copies for spec in self.catalogue.specs}
        self._forget_kept()
        self.flag: tuple[int, Card] | None = None
        keepers = rules.keepers(players)  # R10: seats 2 onward by the rulebook
        self.phase = Phase.KEEP if keepers else Phase.ACTION
        self.to_move = keepers[0] if keepers else 0
        self.current = 0
        self.pending: tuple[Card, Card] | None = None
        self.turn = 0
        self.passes = 0
        self.trigger: int | None = None
        self.turns_left: int | None = None
        self.end_reason: str | None = None
        self.history: list[Move] = []
        self._undo: list[_Undo] = []
        self._public: list[_Public | None] | None = None
        self._texts: list[_Text] = []
        self._generation = next(_GENERATIONS)
        self._trusted: tuple[Move, int] | None = None

    @classmethod
    def assemble(
        cls,
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
    ) -> Game:
        """A game in exactly this state, with no history and empty caches; nothing is checked.

        For the state reader and for determinizations, which check what they
        assemble (:func:`~pastiche_core.invariants.check_invariants`); every
        slot is set here so a new cache cannot be forgotten. The containers are
        the game's from now on.

        >>> game = Game(players=3, seed=7)
        >>> twin = Game.assemble(
        ...     catalogue=game.catalogue, players=3, seed=7, rng=game.rng.copy(),
        ...     deck=list(game.deck), discard=[], face_down=set(),
        ...     hands=[set(game.hand(p)) for p in range(3)], tables=[{}, {}, {}],
        ...     supply=dict(game.supply), flag=None, phase=game.phase, to_move=2, current=0,
        ...     pending=None, turn=0, passes=0, trigger=None, turns_left=None, end_reason=None)
        >>> twin == game
        True
        """
        game = cls.__new__(cls)
        game.catalogue = catalogue
        game.rules = rules
        game.players = players
        game.seed = seed
        game.rng = rng
        game.deck = deck
        game._discard = discard
        game._face_down = face_down
        game._hands = hands
        game._tables = tables
        game.supply = supply
        game._forget_kept()
        game.flag = flag
        game.phase = phase
        game.to_move = to_move
        game.current = current
        game.pending = pending
        game.turn = turn
        game.passes = passes
        game.trigger = trigger
        game.turns_left = turns_left
        game.end_reason = end_reason
        game.history = []
        game._undo = []
        game._public = None
        game._texts = []
        game._generation = next(_GENERATIONS)
        game._trusted = None
        game._cards = game._locate()
        return game

    @classmethod
    def dealt(
        cls,
        view: PlayerView,
        *,
        deck: list[Card],
        discard: list[Card],
        face_down: set[Card],
        hands: Sequence[Iterable[Card]],
        pending: tuple[Card, Card] | None,
        rng: GameRng,
    ) -> Game:
        """A game in ``view``'s public state with these hidden cards (see :meth:`assemble`).

        The view gives everything public; ``deck``, ``discard`` (the face-down
        cards filled in), ``hands`` and ``pending`` place the cards the view's
        player cannot see (R16). Nothing is checked: a determinization or the
        view reader checks what it deals.

        >>> game = Game(players=3, seed=7)
        >>> view = game.view(0)
        >>> twin = Game.dealt(view, deck=list(game.deck), discard=[], face_down=set(),
        ...                   hands=[game.hand(p) for p in range(3)], pending=None,
        ...                   rng=game.rng.copy())
        >>> twin.view(0) == view
        True
        """
        return cls.assemble(
            catalogue=view.catalogue,
            players=view.players,
            seed=0,
            rng=rng,
            deck=deck,
            discard=discard,
            face_down=face_down,
            hands=[set(hand) for hand in hands],
            tables=[{novel.novel: novel.cards for novel in table} for table in view.tables],
            supply=dict(view.supply),
            flag=view.flag,
            phase=view.phase,
            to_move=view.to_move,
            current=view.current,
            pending=pending,
            turn=view.turn,
            passes=view.passes,
            trigger=view.trigger,
            turns_left=view.turns_left,
            end_reason=view.end_reason,
            rules=view.rules,
        )

    @classmethod
    def replayed(
        cls,
        moves: Iterable[Move | str],
        players: int = 4,
        seed: int = 0,
        catalogue: Catalogue | None = None,
        *,
        rules: Rules | None = None,
    ) -> Game:
        """A new game dealt from ``seed`` with ``moves`` applied in order (R14).

        An illegal move raises :class:`~pastiche_core.errors.IllegalMoveError`
        naming its index, its notation and the rule it breaks.

        >>> Game.replayed(["keep MYT1 HOR7 HOR8", "take"], players=3, seed=7).hand(0)
        (Card.parse('LOV4'), Card.parse('LOV7'), Card.parse('FAN10'), Card.parse('MAG8'))
        >>> Game.replayed(["draw"], players=3, seed=7)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.IllegalMoveError: moves[0] 'draw': the game is in setup: ...
        """
        game = cls(players, seed, catalogue, rules=rules)
        for index, move in enumerate(moves):
            try:
                game.apply(move)
            except IllegalMoveError:
                raise IllegalMoveError(f"moves[{index}] '{move}': {game.violation(move)}") from None
        return game

    # ------------------------------------------------------------------
    # Reading the state
    # ------------------------------------------------------------------
    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's hand, sorted.

        >>> Game(players=3, seed=2).hand(0)
        (Card.parse('MYT3'), Card.parse('MYT5'), Card.parse('HOR9'))
        >>> Game(players=3).hand(3)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: player must be a seat from 0 to 2, got 3
        """
        if player.__class__ is not int or not 0 <= player < self.players:
            player = self._seat(player)  # the error that says why (a view asks at every decision)
        return tuple(sorted(self._hands[player], key=_INDEX))

    def _seat(self, player: object) -> int:
        """``player`` if it is a seat of this game, else a clear error."""
        if player.__class__ is int and 0 <= player < self.players:
            return player
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidArgumentError(f"player must be a seat number, got {player!r}")
        if not 0 <= player < self.players:
            raise InvalidArgumentError(
                f"player must be a seat from 0 to {self.players - 1}, got {player}"
            )
        return player

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self.deck)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top."""
        return tuple(self._discard)

    def is_face_down(self, card: Card) -> bool:
        """Whether ``card`` lies face down in the discard pile (setup discards, R10)."""
        return card in self._face_down

    # Live, read-only windows on the state, for code that reads it at every decision
    # (views, bots, environments): no copy is made, so they change with the game.
    def hand_cards(self, player: int) -> AbstractSet[Card]:
        """``player``'s hand as the game holds it: live and unordered; read it, never change it.

        >>> game = Game(players=3, seed=2)
        >>> sorted(game.hand_cards(0)) == list(game.hand(0))
        True
        """
        return self._hands[self._seat(player)]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Every seat's number of cards in hand (public, R16).

        >>> Game(players=4, seed=1).hand_sizes
        (3, 3, 4, 4)
        """
        return tuple(map(len, self._hands))

    @property
    def table_cards(self) -> Sequence[Mapping[str, tuple[Card, ...]]]:
        """Per seat, Novel id -> the cards under it, as the game holds them (live, read-only).

        >>> Game(players=3).table_cards
        [{}, {}, {}]
        """
        return self._tables

    @property
    def discard_cards(self) -> Sequence[Card]:
        """The discard pile, bottom to top, as the game holds it (live, read-only).

        >>> list(Game(players=3).discard_cards)
        []
        """
        return self._discard

    @property
    def face_down_cards(self) -> AbstractSet[Card]:
        """The cards lying face down in the discard pile (live, read-only; R10, R16).

        >>> set(Game(players=3).face_down_cards)
        set()
        """
        return self._face_down

    def table(self, player: int) -> tuple[TableNovel, ...]:
        """The novels in a player's play area, in the order they were published."""
        return self._summary(self._seat(player))[0]

    def tables(self) -> tuple[tuple[TableNovel, ...], ...]:
        """Every seat's :meth:`table`, in seat order.

        >>> Game(players=3).tables()
        ((), (), ())
        """
        return self._all_summaries()[0]

    def _all_summaries(self) -> tuple[tuple[tuple[TableNovel, ...], ...], tuple[int, ...]]:
        """Every seat's novels and Masterpiece points, kept until a table changes."""
        everyone = self._everyone
        if everyone is None:
            summaries = [self._summary(seat) for seat in range(self.players)]
            everyone = self._everyone = (
                tuple([novels for novels, _ in summaries]),
                tuple([points for _, points in summaries]),
            )
        return everyone

    def _forget_kept(self) -> None:
        """Forget all the game keeps of its tables and supply between moves (each is made
        again when asked): the summaries, the usable flags, the Published novels, the Reads."""
        players = self.players
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
        the supply is a public dictionary that a caller may change too (a
        scenario's builder does).
        """
        supply = self.supply
        if supply != self._usable_supply:
            self._usable = [None] * self.players
            self._usable_supply = supply.copy()
        flags = self._usable[seat]
        if flags is None:
            flags = self._usable[seat] = usable_flags(self.catalogue, supply, self._tables[seat])
        return flags

    def _summary(self, seat: int) -> _SeatSummary:
        """``seat``'s kept summary, made now if its table changed since."""
        summary = self._seat_cache[seat]
        return summary if summary is not None else self._summarise(seat)

    def stale_summary(self) -> int | None:
        """The first seat whose kept table summary, usable flags, Published novels, Reads,
        public texts or public history disagree with the game, else ``None``.

        Views read summaries kept between changes of a table (each seat's, and
        everyone's together) and each seat's public history and records (R16),
        and move generation the usable flags (R6) and the Reads of each seat's
        Published novels (R11); the invariants check them with this. Every one is
        made anew on the way.

        >>> Game(players=3).stale_summary() is None
        True
        """
        stale = None
        everyone = self._everyone
        reads, published = self._reads, list(self._published)
        for seat in range(self.players):
            kept = self._seat_cache[seat]
            flags = self._usable[seat] if self.supply == self._usable_supply else None
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
                    for seat in range(self.players)
                    if (everyone[0][seat], everyone[1][seat]) != (fresh[0][seat], fresh[1][seat])
                ),
                None,
            )
        public_stale = self._stale_public()
        return stale if stale is not None else public_stale

    def _stale_public(self) -> int | None:
        """The first seat whose kept public texts (its moves') or public history and records
        (its own) disagree with ones made anew, else ``None``; both are made anew."""
        history, texts, cached = self.history, self._texts, self._public
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
                made_notes, made_records = self.viewer_public(viewer)
                if (notes, records) != (made_notes[:done], made_records[:done]):
                    return viewer
        return None

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
        points = _points(self.catalogue)
        return sum(
            [points[nid] for nid, cards in self._tables[seat].items() if is_masterpiece(cards)]
        )

    def novel(self, ref: NovelRef) -> TableNovel | None:
        """The novel at ``ref``, or ``None`` if there is none."""
        if not 0 <= ref.owner < self.players:
            return None
        cards = self._tables[ref.owner].get(ref.novel)
        return None if cards is None else TableNovel(ref.owner, ref.novel, cards)

    def masterpieces(self) -> list[TableNovel]:
        """Every Masterpiece on the table, by owner and publish order."""
        return [novel for p in range(self.players) for novel in self.table(p) if novel.masterpiece]

    def masterpiece_points(self, player: int) -> int:
        """Points of a player's Masterpieces (the R12 trigger counts only these)."""
        return self._seat_points(self._seat(player))

    def masterpiece_count(self, player: int) -> int:
        """Number of a player's Masterpieces (the R13 tie-break)."""
        return sum(
            1 for cards in self._tables[self._seat(player)].values() if is_masterpiece(cards)
        )

    def score(self, player: int) -> int:
        """Masterpiece points plus the End Flag; Published novels score nothing (R13).

        >>> Game(players=3).score(0)
        0
        """
        flag_points = self.catalogue.end_flag.points if self.flag and self.flag[0] == player else 0
        return self.masterpiece_points(player) + flag_points

    def scores(self) -> tuple[int, ...]:
        """Every player's :meth:`score`.

        >>> Game(players=3).scores()
        (0, 0, 0)
        """
        if self.flag is None:
            return self._all_summaries()[1]
        scores = list(self._all_summaries()[1])
        if self.flag is not None:
            scores[self.flag[0]] += self.catalogue.end_flag.points
        return tuple(scores)

    def _masterpiece_points(self) -> list[int]:
        """Every seat's :meth:`masterpiece_points`."""
        return [self._seat_points(seat) for seat in range(self.players)]

    def _seat_points(self, seat: int) -> int:
        """The points of ``seat``'s Masterpieces (R12, R13): its kept summary's, else counted
        (the end-game check after every publish and read needs no summary made)."""
        summary = self._seat_cache[seat]
        return summary[1] if summary is not None else self._table_points(seat)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    @property
    def flag_lost(self) -> bool:
        """Whether the End Flag was missed because the trigger player had no card (R12)."""
        return self.trigger is not None and self.flag is None and self.phase is not Phase.FLAG

    # home: R13
    def winners(self) -> tuple[int, ...]:
        """Most points; ties to fewer Masterpieces; a remaining tie is shared (R13).

        Meaningful at any time, final once :attr:`is_over`.
        """
        keys = [(self.score(p), -self.masterpiece_count(p)) for p in range(self.players)]
        best = max(keys)
        return tuple(p for p, key in enumerate(keys) if key == best)

    @property
    def result(self) -> GameResult | None:
        """The :class:`GameResult` once the game is over, else ``None``."""
        if self.phase is not Phase.OVER or self.end_reason is None:
            return None
        return GameResult(
            self.scores(),
            tuple(self.masterpiece_count(p) for p in range(self.players)),
            self.winners(),
            self.end_reason,
        )

    def can_write(self) -> bool:
        """Whether Write ① or ② is possible: a card in the deck or discard pile (R11)."""
        return turn_actions(len(self.deck), len(self._discard), 0)[0]

    def can_read(self) -> bool:
        """Whether some Published novel (two or more cards) exists (R11)."""
        return self._read_segment().count > 0

    # ------------------------------------------------------------------
    # The one rule path
    # ------------------------------------------------------------------
    def violation(self, move: Move | str) -> str | None:
        """Why ``move`` is illegal now, naming the ruling; ``None`` if it is legal.

        >>> game = Game(players=3, seed=7)
        >>> game.violation("draw")
        'the game is in setup: player 2 must keep 3 cards (R10)'
        """
        move = _as_move(move)
        phase = self.phase
        if phase is Phase.OVER:
            return "the game is over (R12)"
        if phase is Phase.KEEP:
            if not isinstance(move, Keep):
                return (
                    f"the game is in setup: player {self.to_move} must keep "
                    f"{self.rules.keep_size} cards (R10)"
                )
            return self._keep_violation(move)
        if phase is Phase.CHOOSE:
            if not isinstance(move, Choose):
                return f"player {self.to_move} must first choose one of the two drawn cards (R11)"
            assert self.pending is not None
            if move.card not in self.pending:
                drawn = format_cards(self.pending, sort=False)
                return f"{move.card} is not one of the drawn cards {drawn} (R11)"
            return None
        if phase is Phase.FLAG:
            if not isinstance(move, TakeFlag):
                return f"player {self.to_move} must put a card under the End Flag (R12)"
            if move.card not in self._hands[self.to_move]:
                return f"{move.card} is not in player {self.to_move}'s hand (R12)"
            return None
        return self._action_violation(move)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` is legal now (the same check as :meth:`apply`).

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

        >>> game = Game(players=3, seed=7)
        >>> game.apply("take")
        Traceback (most recent call last):
        ...
        pastiche_core.errors.IllegalMoveError: illegal move 'take': the game is in setup: player 2 must keep 3 cards (R10)
        >>> game.apply(42)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidNotationError: invalid move 42: expected a Move or its notation, such as 'draw'
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

    def apply_built(self, move: Move, generation: int) -> None:
        """Apply ``move``, built for this game's position at ``generation`` by code that
        builds only legal moves in their canonical form (the atomic action encoding of
        :mod:`pastiche_core.rl`, whose property tests check it): unchecked while the game
        is still at that generation, else checked as :meth:`apply` checks any move.

        >>> game = Game(players=3, seed=7)
        >>> at = game.generation
        >>> game.apply_built(Move.parse("keep MYT1 HOR7 HOR8"), at)
        >>> game.apply_built(Move.parse("keep MYT1 HOR7 HOR8"), at)  # built before that
        Traceback (most recent call last):
        ...
        pastiche_core.errors.IllegalMoveError: illegal move 'keep MYT1 HOR7 HOR8': ...
        """
        if generation == self._generation and self.phase is not Phase.OVER:
            self._apply_legal(move)
        else:
            self.apply(move)

    def stack_deck(self, cards: Sequence[Card | str]) -> None:
        """Make the next Write ① draw exactly ``cards``, in this order (an outside chance's draw).

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
        Bad input raises :class:`~pastiche_core.errors.InvalidArgumentError`
        and changes nothing.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> game.stack_deck(["MAG13", "LOV2"]); game.apply("draw")
        >>> game.pending
        (Card.parse('MAG13'), Card.parse('LOV2'))
        >>> game.stack_deck(["MAG12"])
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: player 0 is not about to draw: the game is in the choose phase (R11)
        """
        if self.phase is not Phase.ACTION or not self.can_write():
            reason = (
                f"the game is in the {self.phase.value} phase"
                if self.phase is not Phase.ACTION
                else "the deck and the discard pile are empty"
            )
            raise InvalidArgumentError(
                f"player {self.to_move} is not about to draw: {reason} (R11)"
            )
        try:
            wanted = [card if isinstance(card, Card) else Card.parse(card) for card in cards]
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"cards must be cards or their notation, got {cards!r}"
            ) from None
        deck, pile = self.deck, self._discard
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
            self.rng.shuffle(rest)
            for card in pile:
                self._cards[card.index] = UNSEEN
            self.deck = rest + wanted[::-1]
            self._discard = []
            self._face_down = set()
        self._generation = next(_GENERATIONS)
        self._trusted = None

    @property
    def card_table(self) -> bytes:
        """Where every card lies, packed as :mod:`pastiche_core.layout` describes (a copy).

        The game keeps it move by move; the compiled kernels read it.

        >>> from pastiche_core.layout import place_name
        >>> game = Game(players=3, seed=7)
        >>> place_name(game.card_table[game.hand(2)[0].index])
        'HAND 2'
        """
        return bytes(self._cards)

    def viewer_card_table(self, viewer: int, drawn: bool = False) -> bytes:
        """:attr:`card_table` as ``viewer`` sees it (:func:`~pastiche_core.layout.viewer_table`,
        R16): other hands and face-down cards hidden, the drawn cards too unless ``drawn``.

        >>> game = Game(players=3, seed=7)
        >>> table = game.viewer_card_table(0)
        >>> [table[card.index] for card in game.hand(0)], [table[card.index] for card in game.hand(1)]
        ([16, 16, 16], [0, 0, 0])
        """
        return viewer_table(self._cards, viewer, drawn)

    def card_table_is_current(self) -> bool:
        """Whether the kept :attr:`card_table` says what the hands, piles and tables say.

        >>> Game(players=3, seed=7).card_table_is_current()
        True
        """
        return self._cards == self._locate()

    def _locate(self) -> bytearray:
        """The card table made anew from the hands, piles and tables."""
        discarders = setup_discarders(self.players, self.rules)
        face_down = {
            position: discarders[position]
            for position, card in enumerate(self._discard)
            if card in self._face_down and position < len(discarders)
        }
        return card_table(
            hands=dict(enumerate(self._hands)),
            tables=self._tables,
            novel_position=_positions(self.catalogue),
            pile=self._discard,
            face_down=face_down,
            drawn=self.pending or (),
            flag=self.flag,
        )

    @property
    def generation(self) -> int:
        """This position's number: every apply and undo gives a new one, never used before.

        Two games, or one game before and after a move and its undo, never share
        a generation, so a move or a count made for one position is trusted in
        that position alone (:class:`LegalMoves`, :meth:`apply_built`).

        >>> game = Game(players=3, seed=7)
        >>> first = game.generation
        >>> game.apply("keep MYT1 HOR7 HOR8"); _ = game.undo()
        >>> game.generation == first, game.copy().generation == first
        (False, False)
        """
        return self._generation

    def _canonical_keep(self, move: Keep) -> Keep:
        """The keep as the legal moves list it: the discard order given only for two (R15).

        A keep without an order discards in card order, so old records replay as
        they always did.
        """
        dropped = sorted(self._hands[self.to_move].difference(move.cards))
        if len(dropped) < 2:
            return Keep(move.cards) if move.discard else move
        return move if move.discard else Keep(move.cards, tuple(dropped))

    @property
    def legal_moves(self) -> LegalMoves:
        """A lazy view of the legal moves: iterate to enumerate, ``in`` to check one.

        >>> game = Game(players=3, seed=7)
        >>> len(game.legal_moves)
        4
        >>> Keep.of("MYT1 LOV2 SCI3") in game.legal_moves
        False
        """
        return LegalMoves(self)

    # ------------------------------------------------------------------
    # Branching
    # ------------------------------------------------------------------
    def copy(self, *, history: bool = True) -> Game:
        """An independent copy, cheap enough for search (cards are shared, containers are not).

        >>> game = Game(players=3, seed=7)
        >>> twin = game.copy(); twin.apply(next(iter(twin.legal_moves)))
        >>> twin == game, game.phase
        (False, <Phase.KEEP: 'keep'>)
        """
        twin = Game.__new__(Game)
        twin.catalogue = self.catalogue
        twin.rules = self.rules
        twin.players = self.players
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.deck = self.deck.copy()
        twin._discard = self._discard.copy()
        twin._face_down = self._face_down.copy()
        twin._hands = [hand.copy() for hand in self._hands]
        twin._tables = [table.copy() for table in self._tables]
        twin._cards = self._cards.copy()
        twin.supply = self.supply.copy()
        twin._forget_kept()  # made again: callers may replace the tables
        twin.flag = self.flag
        twin.phase = self.phase
        twin.to_move = self.to_move
        twin.current = self.current
        twin.pending = self.pending
        twin.turn = self.turn
        twin.passes = self.passes
        twin.trigger = self.trigger
        twin.turns_left = self.turns_left
        twin.end_reason = self.end_reason
        twin.history = self.history.copy() if history else []
        twin._undo = self._undo.copy() if history else []
        # Each viewer's public history is immutable: the copy shares them.
        twin._public = self._public.copy() if history and self._public is not None else None
        twin._texts = self._texts.copy() if history else []
        twin._generation = next(_GENERATIONS)
        twin._trusted = None
        return twin

    __copy__ = copy

    def _key(self) -> tuple[Any, ...]:
        return (
            self.catalogue,
            self.rules,
            self.players,
            self.seed,
            self.rng.state,
            tuple(self.deck),
            tuple(self._discard),
            frozenset(self._face_down),
            tuple(frozenset(hand) for hand in self._hands),
            tuple(tuple(table.items()) for table in self._tables),
            tuple(sorted(self.supply.items())),
            self.flag,
            self.phase,
            self.to_move,
            self.current,
            self.pending,
            self.turn,
            self.passes,
            self.trigger,
            self.turns_left,
            self.end_reason,
        )

    def __eq__(self, other: object) -> bool:
        """Equal positions (same cards everywhere, same phase, same generator); history aside."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        if self.phase is Phase.OVER:
            status = f"over ({self.end_reason}), winners {list(self.winners())}"
        else:
            status = f"{self.phase.value}: player {self.to_move} to move"
        return f"<Game {self.players} players, seed {self.seed}, turn {self.turn}, {status}>"

    def __str__(self) -> str:
        lines = [repr(self)]
        top = self._discard[-1] if self._discard else None
        top_text = "none" if top is None else ("face down" if top in self._face_down else str(top))
        lines.append(f"deck {len(self.deck)}, discard {len(self._discard)} (top: {top_text})")
        for p in range(self.players):
            novels = " ".join(str(n) for n in self.table(p)) or "-"
            flag = f" flag[{self.flag[1]}]" if self.flag and self.flag[0] == p else ""
            lines.append(
                f"P{p} score {self.score(p)}: hand {format_cards(self._hands[p]) or '-'}"
                f" | {novels}{flag}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------------
    # Views, records and JSON
    # ------------------------------------------------------------------
    def view(self, player: int, *, history: bool = True) -> PlayerView:
        """What ``player`` may know: see :class:`~pastiche_core.view.PlayerView`.

        ``history=False`` leaves the view's :attr:`~pastiche_core.view.PlayerView.history`
        empty, for callers that never read it (writing it costs the notation of
        every move since the player's last view).

        >>> game = Game(players=3, seed=7); game.apply("keep MYT1 HOR7 HOR8")
        >>> game.view(0).history, game.view(0, history=False).history
        (((2, 'keep ? ? ?'),), ())
        """
        return PlayerView.of(self, player, history=history)

    def position(self, player: int | None = None) -> Position:
        """The publish position of ``player`` (default: the player to move).

        >>> Game(players=3, seed=7).position(0).hand == Game(players=3, seed=7).hand(0)
        True
        """
        from .position import Position

        return Position.from_game(self, player)

    def _repr_html_(self) -> str:
        """Scores and the table drawn in genre colours, grouped by player (Jupyter)."""
        from .render import game_html

        return game_html(self)

    def __rich__(self) -> Any:
        """The game coloured by genre in a rich console."""
        from .render import rich_text

        return rich_text(self)

    def to_json(self, indent: int | None = None) -> str:
        """The versioned state JSON (see :mod:`pastiche_core.io.state_json`).

        >>> game = Game(players=3, seed=7)
        >>> Game.from_json(game.to_json()) == game
        True
        """
        from .io.state_json import state_to_json

        return state_to_json(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes, *, catalogue: Catalogue | None = None) -> Game:
        """Load a state written by :meth:`to_json`, rejecting impossible states.

        >>> Game.from_json('{"format": "pastiche-state", "version": 9}')
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidStateError: $.version: unsupported version 9 (this library reads version 1)
        """
        from .io.state_json import state_from_json

        return state_from_json(text, catalogue=catalogue)

    # ------------------------------------------------------------------
    # Legality per phase
    # ------------------------------------------------------------------
    # home: R10.keep
    def _keep_violation(self, move: Keep) -> str | None:
        player = self.to_move
        keep = self.rules.keep_size
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
        player = self.to_move
        if isinstance(move, Draw):
            if not self.can_write():
                return "Write ① needs a card in the deck or the discard pile (R11)"
            return None
        if isinstance(move, TakeDiscard):
            if not turn_actions(len(self.deck), len(self._discard), 0)[1]:
                return "Write ② needs a card in the discard pile (R11)"
            return None
        if isinstance(move, Publish):
            return self._publish_violation(move, player)
        if isinstance(move, Read):
            if move.source.novel == END_FLAG_ID:
                return "the End Flag cannot be read (R12)"
            novel = self.novel(move.source)
            if novel is None:
                return f"there is no novel {move.source} on the table (R11)"
            if novel.masterpiece:
                return f"{move.source} is a Masterpiece: only Published novels can be read (R11)"
            if move.card not in novel.cards:
                return f"{move.card} is not in {move.source} (R11)"
            return None
        if isinstance(move, Pass):
            if self.can_write():
                return "cannot pass while Write is possible (R11)"
            if self.can_read():
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
            self.catalogue,
            move.novel,
            supply=self.supply,
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
        novel = self.novel(ref)
        if novel is None:
            return f"there is no novel {ref} to cite (R4)"
        if not novel.masterpiece:
            return f"{ref} is Published, not a Masterpiece: it cannot be cited (R6)"
        return (ref.owner, novel.cards[0].rank)

    # ------------------------------------------------------------------
    # Applying legal moves
    # ------------------------------------------------------------------
    def _apply_legal(self, move: Move) -> None:
        self._generation = next(_GENERATIONS)
        self._trusted = None
        self.history.append(move)
        player = self.to_move
        hand = self._hands[player]
        flag_id = END_FLAG_ID
        # What undo() needs: the scalars before the move and the move's own changes.
        before = (
            self.phase,
            self.to_move,
            self.current,
            self.pending,
            self.turn,
            self.passes,
            self.trigger,
            self.turns_left,
            self.end_reason,
            self.flag,
            self.rng.state,
            self.supply[flag_id],
        )
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
            following = [seat for seat in self.rules.keepers(self.players) if seat > player]
            if following:
                self.to_move = following[0]
            else:
                self.phase = Phase.ACTION
                self.current = self.to_move = 0
        elif isinstance(move, Draw):
            deck = self.deck
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
                self.pending = (first, self._draw_one())  # R11: reshuffle mid-draw if need be
                table[first.index] = table[self.pending[1].index] = DRAWN
                self.phase = Phase.CHOOSE
        elif isinstance(move, Choose):
            assert self.pending is not None
            other = self.pending[1] if self.pending[0] is move.card else self.pending[0]
            hand.add(move.card)
            self._discard.append(other)
            table[move.card.index] = HAND | player
            table[other.index] = PILE_UP
            self.pending = None
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
            at = _positions(self.catalogue)[move.novel]
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
            self.supply[move.novel] -= 1
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
            self.flag = (player, move.card)
            self.supply[flag_id] = 0
            self._next_turn()
        else:  # pragma: no cover - violation() admits no other move
            raise AssertionError(move)
        self._undo.append((before, change))

    def history_seats(self) -> list[int]:
        """The seat that made each move of :attr:`history`, in order.

        Each move keeps its seat in its undo record, so this works for any game
        built by :meth:`apply`, whatever its deal. A game whose moves carry no
        records (one assembled field by field) replays its seed and history
        instead; if that replay fails (the game was not dealt from its seed),
        :class:`~pastiche_core.errors.InvalidStateError` says so.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw"); game.apply("choose SCI5")
        >>> game.history_seats()
        [2, 0, 0]
        """
        return [before[1] for before, _ in self._undo_from(0)]

    def _undo_from(self, start: int) -> Sequence[_Undo]:
        """The undo records of the moves from ``start`` on: the game's own, or, for moves
        that carry none (a game loaded with its history), those of a replay (R14)."""
        undo = self._undo
        offset = len(self.history) - len(undo)  # undo records cover the last moves
        if start >= offset:
            return undo[start - offset :]
        try:
            replayed = Game.replayed(
                self.history, self.players, self.seed, self.catalogue, rules=self.rules
            )
        except IllegalMoveError as error:
            raise InvalidStateError(
                f"the moves' seats and records are unknown: they carry no undo records and "
                f"replaying them from seed {self.seed} fails ({error})"
            ) from None
        return replayed._undo[start:]

    def public_history(self, viewer: int) -> tuple[tuple[int, str], ...]:
        """The history as ``viewer`` may know it (R16), built once per move: ``(seat, notation)``.

        Each viewer's is a tuple extended by the moves played since it was last
        asked for; an undo cuts it back, and copies share it (it is immutable).
        The last move it covers is kept with it, so a history replaced in place
        is noticed and read again.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
        >>> game.public_history(1)
        ((2, 'keep ? ? ?'), (0, 'draw'))
        """
        return self.viewer_public(self._seat(viewer))[0]

    def viewer_public(
        self, viewer: int
    ) -> tuple[tuple[tuple[int, str], ...], tuple[MoveRecord, ...]]:
        """:meth:`public_history` and :meth:`public_records` of a seat, made together.

        What a view made at every decision asks for: ``viewer`` must be a seat
        (unchecked). Both are kept with the viewer and extended by the moves since
        the last request.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> notes, records = game.viewer_public(1)
        >>> notes, records[0].laid_down
        (((2, 'keep ? ? ?'),), ())
        """
        history = self.history
        count = len(history)
        public = self._public
        if public is None:
            public = self._public = [None] * self.players
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

    def _public_texts(self) -> list[_Text]:
        """Every move's public notation and record as each seat may know them (R16),
        brought up to date.

        Each move's are made once per game and kept beside the history (an undo cuts
        both). A move reads the same to every other seat but for a publish with gifts
        (the gifts to a third seat are hidden), and shows the same to every other seat
        but a card taken from the discard pile, seen by the seat that laid it face
        down (R10).
        """
        history = self.history
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

    def move_record(self, index: int = -1) -> MoveRecord:
        """What move ``index`` of :attr:`history` moved between deck, pile and hands, whole.

        The cards drawn by Write ① (the pair, or the one card left, R11), the
        card laid face up after it, the card taken from the discard pile (and
        the seat that laid it face down at setup, if it lay face down) and the
        setup discards: what a move's notation does not say. It reveals hidden
        cards: :meth:`MoveRecord.seen_by <pastiche_core.view.MoveRecord.seen_by>`
        keeps what one player saw, as :meth:`public_records` does.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("take")
        >>> game.move_record()
        MoveRecord(seat=0, keyword='take', drawn=(), taken=Card.parse('FAN10'), \
taken_from=2, laid_up=None, laid_down=())
        >>> game.move_record(0).laid_down, game.move_record(-1).seen_by(1).taken
        ((Card.parse('FAN10'),), None)
        >>> game.move_record(2)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: index must name a move of the history, from -2 to 1, got 2
        """
        count = len(self.history)
        if index == -1 and count and len(self._undo) == count:  # after each move: one record
            return _record_of(self.history[-1], self._undo[-1], self.pending)
        if isinstance(index, bool) or not isinstance(index, int) or not -count <= index < count:
            raise InvalidArgumentError(
                f"index must name a move of the history, from {-count} to {count - 1}, "
                f"got {index!r}"
            )
        if index < 0:
            index += count
        return self._move_records(index, index + 1)[0]

    def public_records(self, viewer: int) -> tuple[MoveRecord, ...]:
        """Every move's :meth:`move_record` as ``viewer`` saw it (R16), in history order.

        A view carries them (:attr:`PlayerView.records <pastiche_core.view.PlayerView.records>`)
        beside the public history. Each move's whole record is made once per game,
        and what each seat saw of it once per seat; nothing hidden from ``viewer``
        is kept with the tuple.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw"); game.apply("choose SCI5")
        >>> [record.drawn for record in game.public_records(1)]
        [(), (), ()]
        >>> game.public_records(0)[2].laid_up == game.public_records(1)[2].laid_up
        True
        """
        # Kept with the viewer's public history (shared by copies, cut back by an undo).
        return self.viewer_public(self._seat(viewer))[1]

    def _move_records(self, start: int, stop: int) -> list[MoveRecord]:
        """The whole records of moves ``start`` to ``stop - 1``, read from their undo records.

        A two-card draw's pair is the next move's pending pair, or the game's if
        the draw is the last move.
        """
        history, undo = self.history, self._undo_from(start)
        last = len(undo) - 1
        return [
            _record_of(
                history[start + at], undo[at], undo[at + 1][0][3] if at < last else self.pending
            )
            for at in range(stop - start)
        ]

    def _discarder(self, card: Card) -> int | None:
        """The seat that laid ``card`` of the discard pile face down at setup (R10), else
        ``None`` (it lies face up), read from the card table."""
        place = self._cards[card.index]
        return place & SEAT_MASK if place & PLACE_MASK == PILE_DOWN else None

    def renamed(self, cards: Mapping[Card, Card]) -> Game:
        """A copy in which every card is renamed by the permutation ``cards``.

        Cards not in ``cards`` keep their names. The renaming reaches every place a
        card is named: hands, deck, discard pile, table, End Flag, the drawn
        cards, the history and the undo records, so the copy is a game that
        could have been dealt and played that way — provided the renaming keeps
        every public fact (a search renames only cards the searching player has
        not seen, which deals the unseen cards anew, R16). ``cards`` must map a
        set of cards onto itself.

        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> a, b = Card.parse("MYT1"), Card.parse("LOV4")
        >>> twin = game.renamed({a: b, b: a})
        >>> twin.hand(2)[:1], twin.history
        ((Card.parse('LOV4'),), [Move.parse('keep LOV4 HOR7 HOR8')])
        >>> game.renamed({a: b})
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: a renaming must map a set of cards onto itself (a permutation)
        """
        if set(cards) != set(cards.values()):
            raise InvalidArgumentError(
                "a renaming must map a set of cards onto itself (a permutation)"
            )
        for card in itertools.chain(cards, cards.values()):
            if not isinstance(card, Card):
                raise InvalidArgumentError(f"a renaming maps cards to cards, got {card!r}")
        if not cards:
            return self.copy()

        def one(card: Card) -> Card:
            return cards.get(card, card)

        def many(group: Iterable[Card]) -> list[Card]:
            return [cards.get(card, card) for card in group]

        twin = self.copy(history=False)
        twin.deck = many(self.deck)
        twin._discard = many(self._discard)
        twin._face_down = set(many(self._face_down))
        twin._hands = [set(many(hand)) for hand in self._hands]
        twin._tables = [
            {nid: tuple(many(held)) for nid, held in table.items()} for table in self._tables
        ]
        twin.flag = None if self.flag is None else (self.flag[0], one(self.flag[1]))
        twin.pending = (
            None if self.pending is None else (one(self.pending[0]), one(self.pending[1]))
        )
        twin.history = [_rename_move(move, one) for move in self.history]
        twin._undo = [
            _rename_undo(move, record, one)
            for move, record in zip(self.history, self._undo, strict=False)
        ]
        if len(self._undo) != len(self.history):
            twin._undo = []
        twin._cards = twin._locate()
        return twin

    # ------------------------------------------------------------------
    # Taking moves back
    # ------------------------------------------------------------------
    def undo(self) -> Move:
        """Take back the last move and return it; the state is exactly as before it.

        Cards, phase, counters and the generator (R14) all return, so playing the
        same move again gives the same result. Cheap: each move keeps what it
        changed. A game loaded from JSON replays its history instead (R14).

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
        pastiche_core.errors.IllegalMoveError: nothing to undo: no move has been played
        """
        if not self.history:
            raise IllegalMoveError("nothing to undo: no move has been played")
        self._generation = next(_GENERATIONS)
        self._trusted = None
        if len(self._undo) != len(self.history):
            return self._undo_by_replay()
        move = self.history.pop()
        before, change = self._undo.pop()
        drawn = self.pending
        del self._texts[len(self.history) :]
        if self._public is not None:
            kept, last = len(self.history), self.history[-1] if self.history else None
            self._public = [
                (cached[0][:kept], cached[1][:kept], last)
                if cached is not None and len(cached[0]) > kept
                else cached
                for cached in self._public
            ]
        (
            self.phase,
            self.to_move,
            self.current,
            self.pending,
            self.turn,
            self.passes,
            self.trigger,
            self.turns_left,
            self.end_reason,
            self.flag,
            rng_state,
            flag_supply,
        ) = before
        self.rng.state = rng_state
        self.supply[END_FLAG_ID] = flag_supply
        player = self.to_move
        hand = self._hands[player]
        table = self._cards
        if isinstance(move, Keep):
            hand.update(change)
            del self._discard[len(self._discard) - len(change) :]
            self._face_down.difference_update(change)
            for card in change:
                table[card.index] = HAND | player
        elif isinstance(move, Draw) and change is None:
            # Two cards off the deck (R11): back on it, the first on top.
            assert drawn is not None
            first, second = drawn
            self.deck.append(second)
            self.deck.append(first)
            table[first.index] = table[second.index] = UNSEEN
        elif isinstance(move, Draw):
            deck, discard, face_down, taken, _ = change
            # Copies: the record may be shared with a copy of the game (copy() is shallow).
            self.deck, self._discard, self._face_down = (
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
            for card in self.pending or ():
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
            self.supply[move.novel] += 1
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
            at = _positions(self.catalogue)[move.source.novel]
            for card in change:
                table[card.index] = place
                table[CARDS + card.index] = at
        elif isinstance(move, TakeFlag):
            hand.add(move.card)
            table[move.card.index] = HAND | player
        return move

    def _undo_by_replay(self) -> Move:
        """Undo without undo records (a loaded game): replay the history but its last move."""
        move = self.history[-1]
        replayed = Game.replayed(
            self.history[:-1], self.players, self.seed, self.catalogue, rules=self.rules
        )
        for name in Game.__slots__:
            setattr(self, name, getattr(replayed, name))
        self._generation = next(_GENERATIONS)
        return move

    def _locate_pile(self, start: int) -> None:
        """Mark the discard pile's cards from position ``start`` up in the card table."""
        table = self._cards
        discarders = setup_discarders(self.players, self.rules)
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
        if not self.deck:
            # R11: the discard pile is reshuffled only when a draw needs a card.
            self.deck = self._discard
            self._discard = []
            self._face_down.clear()
            for card in self.deck:
                self._cards[card.index] = UNSEEN
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    # home: R11.all-pass, R12
    def _end_turn(self, *, passed: bool, changed: int | None = None) -> None:
        """End the turn; ``changed`` is the seat whose table the turn changed, if any."""
        self.turn += 1
        self.passes = self.passes + 1 if passed else 0
        if self.passes >= self.players:
            self._finish("all-pass")  # R11: every player passed in succession
            return
        if self.turns_left is not None:
            self.turns_left -= 1
            if self.turns_left <= 0:
                self._finish("countdown")
                return
        elif (
            self.trigger is None
            and changed is not None
            and self._seat_points(changed) >= self.rules.end_threshold
        ):
            # Only the seat whose table this turn changed can reach the threshold (R12):
            # before it no seat had (a state with one and no trigger fails check_invariants).
            # The trigger player, whoever's turn it was; 2n - 1 more turns.
            self.trigger = changed
            self.turns_left = 2 * self.players - 1
            if self._hands[changed]:
                self.phase = Phase.FLAG
                self.to_move = changed
                return
            self.supply[END_FLAG_ID] = 0  # R12: the flag is lost
        self._next_turn()

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self.to_move = self.current
        self.phase = Phase.ACTION

    def _finish(self, reason: str) -> None:
        self.phase = Phase.OVER
        self.end_reason = reason
        self.pending = None

    # ------------------------------------------------------------------
    # Move generation
    # ------------------------------------------------------------------
    def _segments(self) -> list[Segment]:
        """The legal moves as countable, indexable segments, in enumeration order."""
        phase = self.phase
        player = self.to_move
        if phase is Phase.KEEP:
            return [KeepSegment(self._hands[player], self.rules.keep_size)]  # counted, not listed
        if phase is Phase.CHOOSE:
            assert self.pending is not None
            return [ListSegment([Choose(self.pending[0]), Choose(self.pending[1])])]
        if phase is Phase.FLAG:
            return [ListSegment([TakeFlag(card) for card in sorted(self._hands[player])])]
        if phase is not Phase.ACTION:
            return []
        segments: list[Segment] = []
        reads = self._read_segment()
        draw, take, may_pass = turn_actions(len(self.deck), len(self._discard), reads.count)
        writes: list[Move] = [move for move, legal in ((_DRAW, draw), (_TAKE, take)) if legal]
        if writes:
            segments.append(ListSegment(writes))
        if reads.count:
            segments.append(reads)
        segments.extend(self._publish_segments())
        if may_pass:
            segments.append(ListSegment([_PASS]))
        return segments

    def publish_moves(self) -> Iterator[Publish]:
        """Every legal :class:`Publish` of the player to move, card by card with gifts.

        This is the rules engine's exhaustive card-level generator: two publishes
        that differ only in which physical card is played or given are both
        listed. (R8's distinct options, one per rank multiset, are the solver's.)

        >>> game = Game(players=3, seed=7)
        >>> list(game.publish_moves())
        []
        """
        if self.phase is not Phase.ACTION:
            return
        for segment in self._publish_segments():
            yield from segment

    def _publish_segments(self) -> list[PublishSegment]:
        player = self.to_move
        if not self._hands[player]:
            return []
        return publish_segments(
            bytes(self._cards),
            player,
            self.supply,
            self._tables[player],
            self.catalogue,
            self._usable_flags(player),
        )


_Undo = tuple[tuple[Any, ...], Any]
"""An undo record: the scalars before a move and what the move changed in the containers."""

_Public = tuple[tuple[tuple[int, str], ...], tuple[MoveRecord, ...], Move | None]
"""A viewer's public history (``(seat, notation)`` per move, R16), their records of its moves
(:meth:`Game.public_records`) and the last move it covers."""

_Text = tuple[Move, int, str, str, MoveRecord, MoveRecord]
"""A move as the public history keeps it (``Game._public_texts``): the move, its seat, its
notation, what any other seat reads of it (empty when that differs by seat: a publish with
gifts), its whole record and what any other seat sees of that (R16)."""

_TABLE_NOVELS: dict[tuple[int, str], TableNovel] = {}

_Published = tuple[int, str, tuple[Card, ...]]
"""A Published novel as the Reads list it: owner, Novel id and the cards under it (R11)."""

_SeatSummary = tuple[tuple[TableNovel, ...], int]
"""A seat's novels on the table and its Masterpiece points (``Game._summarise``)."""
"""The novels :meth:`Game.table` made, reused while their cards are the same tuple."""

_POSITIONS: dict[int, tuple[Catalogue, dict[str, int]]] = {}


def _record_of(
    move: Move, undo: tuple[Any, Any], following: tuple[Card, Card] | None
) -> MoveRecord:
    """The whole record of ``move`` from its undo record ``(before, change)``.

    ``following`` is the pair drawn when the move is a two-card draw: the next
    move's pending pair, or the game's if the draw is the last move. A card
    taken from the pile carries the seat that laid it face down at setup (R10),
    kept in the undo record when it was taken.
    """
    before, change = undo
    seat: int = before[1]
    kind = move.__class__
    if kind is Draw:
        if change is None or change[3] is None:  # two cards drawn: the pair then chosen from
            assert following is not None
            return MoveRecord(seat, "draw", following)
        deck, _pile, _face_down, taken, down = change
        if deck:  # R11: the one card left, from the deck
            return MoveRecord(seat, "draw", (taken,))
        # R11: the one card left, from the discard pile
        return MoveRecord(seat, "draw", (taken,), taken, down)
    if kind is Choose:
        first, second = before[3]
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


def _positions(catalogue: Catalogue) -> dict[str, int]:
    """Novel id -> its position in the catalogue (the card table's Novel numbers), made once."""
    entry = _POSITIONS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_POSITIONS) >= 64:
            _POSITIONS.clear()
        entry = _POSITIONS[id(catalogue)] = (
            catalogue,
            {spec.id: index for index, spec in enumerate(catalogue.specs)},
        )
    return entry[1]


_EMPTY_TABLE = bytes(CARDS) + bytes([NO_NOVEL]) * CARDS

_POINTS: dict[int, tuple[Catalogue, dict[str, int]]] = {}


def _points(catalogue: Catalogue) -> dict[str, int]:
    """Novel id -> points, made once per catalogue."""
    entry = _POINTS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_POINTS) >= 64:
            _POINTS.clear()
        entry = _POINTS[id(catalogue)] = (
            catalogue,
            {spec.id: spec.points for spec in catalogue.specs},
        )
    return entry[1]


_GENERATIONS = itertools.count()
"""Every position's :attr:`Game.generation`, unique in the process."""

_INDEX = operator.attrgetter("index")
"""Sort key of cards: their place in the deck (faster than comparing cards)."""

# The moves without fields, made once (they are equal whoever makes them).
_DRAW = Draw()
_TAKE = TakeDiscard()
_PASS = Pass()


def _rename_move(move: Move, one: Callable[[Card], Card]) -> Move:
    """``move`` with its cards renamed by ``one`` (see :meth:`Game.renamed`)."""
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


def _rename_undo(move: Move, record: _Undo, one: Callable[[Card], Card]) -> _Undo:
    """An undo record of ``move`` with its cards renamed by ``one``."""
    before, change = record
    pending, flag = before[3], before[9]
    before = (
        *before[:3],
        None if pending is None else (one(pending[0]), one(pending[1])),
        *before[4:9],
        None if flag is None else (flag[0], one(flag[1])),
        *before[10:],
    )
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


def _as_move(move: object) -> Move:
    """``move`` as a :class:`Move`: a move, or notation parsed (R11's moves), else a clear error."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
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
    game's :attr:`~Game.generation` at the time, and a move it hands out is
    trusted by :meth:`Game.apply` in that position alone: in any other, even
    one that looks the same, the move is checked like any other.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> legal = game.legal_moves
    >>> len(legal), legal[0], legal[-1] == list(legal)[-1]
    (4, Move.parse('keep MYT1 HOR7 HOR8'), True)
    """

    __slots__ = ("_count", "_game", "_plan", "_plan_at")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._plan: list[Segment] = []
        self._count = 0
        self._plan_at = -1  # the game's generation the plan was made at (never one of them)

    def _segments(self) -> list[Segment]:
        game = self._game
        if game._generation != self._plan_at:  # the game moved on since the plan was made
            self._plan = game._segments()
            self._count = sum([segment.count for segment in self._plan])
            self._plan_at = game._generation
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
                    self._game._trusted = (move, self._plan_at)
                    return move
                index -= segment.count
        raise IndexError("legal move index out of range")

    def __repr__(self) -> str:
        moves = list(itertools.islice(self, 6))
        more = ", ..." if len(moves) > 5 else ""
        return f"<LegalMoves {len(self)}: {', '.join(map(str, moves[:5]))}{more}>"
