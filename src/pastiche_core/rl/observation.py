"""Observations: what one player may know, as a fixed-size array and as text.

An observation is made from the player's :class:`~pastiche_core.engine.view.PlayerView`
(``game.view(player)``) and, for the player to move, the decision they are
building (:class:`~pastiche_core.rl.encoding.MoveBuilder`), so it never depends on
hidden cards. :class:`ObservationEncoder` fixes the layout for a number of
players and a catalogue; :meth:`~ObservationEncoder.encode` fills a ``float32``
vector and :meth:`~ObservationEncoder.text` writes the same information as text.
The encoder runs at every step of a learning environment: all but the decision
in progress is written by the kernel ``fill_public`` (compiled in
``csrc/observe.c`` when built, see :mod:`pastiche_core.engine._kernels`) from the
view's card table (:mod:`pastiche_core.engine.layout`) and a few counts.

**Layout.** Seats are *relative*: seat ``s`` of the observation is the player
``s`` places after the observer (``s = 0`` is the observer). ``n`` is the
number of players, ``k`` the number of publishable Novels; card planes hold 49
values, one per card in :data:`~pastiche_core.data.cards.DECK` order; all values
are 0/1 except the counts.

==========================  ===========  =============================================
field                       shape        content
==========================  ===========  =============================================
``hand``                    49           own hand
``drawn``                   49           the two drawn cards, while choosing (R11)
``discard_top``             49           the top discard, if face up
``discard_face_up``         49           every face-up card of the discard pile
``discard_own``             49           own face-down setup discards in the pile (R16)
``flag_card``               49           the card under the End Flag (R12)
``published``               n × 49       cards in each seat's Published novels
``masterpieces``            n × 49       the card of each seat's Masterpieces
``known_hands``             n × 49       cards known from the history to lie in each
                                         other seat's hand (R16; seat 0 stays empty)
``novel_cards``             k × 49       cards lying under each Novel (any owner)
``building_played``         49           hand cards chosen to play so far
``building_cited``          49           Masterpiece cards chosen to cite so far
``building_gifts``          49           gift cards chosen so far
``building_discards``       49           setup discards chosen so far
``held_published``          n × k        seat holds the Novel as Published
``held_masterpiece``        n × k        seat holds the Novel as a Masterpiece
``supply``                  k            copies left in the supply (count)
``hand_sizes``              n            cards in each seat's hand (count)
``scores``                  n            each seat's points (count, R13)
``piles``                   3            deck size, discard size, face-down discards
``phase``                   5            keep, action, choose, flag, over
``to_move``                 n            seat whose decision it is
``current``                 n            seat whose turn it is
``seat``                    n            the observer's own seat number (absolute)
``passes``                  1            passes in succession (count, R11)
``countdown``               2            end triggered; turns left (count, R12)
``trigger``                 n            the trigger player's seat (R12)
``flag_owner``              n            the End Flag holder's seat (R12)
``flag_lost``               1            the End Flag was lost (R12)
``stage``                   4            start, discarding, cards, gifts
``building_novel``          k            the Novel of the publish being built
``gifts_owed``              n            gifts still to choose per seat (count)
==========================  ===========  =============================================

The ``building_*``, ``stage``, ``building_novel`` and ``gifts_owed`` fields are
the player's own decision in progress; they stay empty in any other player's
observation. ``known_hands`` comes from the player's
:class:`~pastiche_core.engine.knowledge.Knowledge` (what the public history and
their own moves showed: a card taken face up from the discard pile, a card
read, a gift they gave); it stays empty when none is given.

>>> from pastiche_core import Game
>>> game = Game(players=4, seed=3)
>>> encoder = ObservationEncoder(players=4)
>>> encoder.size
1716
>>> obs = encoder.encode(game.view(0))
>>> obs.dtype, obs.shape, int(obs[encoder.slice("hand")].sum())
(dtype('float32'), (1716,), 3)
>>> print(encoder.text(game.view(0)).splitlines()[1])
hand: MYT6 LOV4 FAN8
"""

from __future__ import annotations

import operator
import typing
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..data.cards import DECK, format_cards
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from ..engine._kernels import kernel
from ..engine.game import check_deal
from ..engine.knowledge import Knowledge
from ..engine.layout import (
    CARD_TABLE_SIZE,
    CARDS,
    DRAWN,
    FLAG,
    HAND,
    MASTER,
    PILE_DOWN,
    PILE_UP,
    PLACE_MASK,
    PUBLISHED,
    SEAT_MASK,
    UNSEEN,
)
from ..engine.rules import Phase
from .encoding import MoveBuilder, Stage

if TYPE_CHECKING:
    from ..engine.view import PlayerView

__all__ = ["PHASES", "Field", "ObservationEncoder"]

_CARDS = len(DECK)
_PHASES = (Phase.KEEP, Phase.ACTION, Phase.CHOOSE, Phase.FLAG, Phase.OVER)
PHASES = _PHASES
"""The phases in the order of the observation's ``phase`` field."""
_FLAG_PHASE = _PHASES.index(Phase.FLAG)
_OVER_PHASE = _PHASES.index(Phase.OVER)
# The fields fill_public writes, in the order of its (offset, size) pairs.
_PUBLIC_FIELDS = (
    "hand",
    "drawn",
    "discard_top",
    "discard_face_up",
    "discard_own",
    "flag_card",
    "published",
    "masterpieces",
    "known_hands",
    "novel_cards",
    "held_published",
    "held_masterpiece",
    "supply",
    "hand_sizes",
    "scores",
    "piles",
    "phase",
    "to_move",
    "current",
    "seat",
    "passes",
    "countdown",
    "trigger",
    "flag_owner",
    "flag_lost",
)
# The integers of fill_public's ``state``, in order.
_STATE = (
    "seat",
    "phase",
    "to_move",
    "current",
    "deck",
    "discard",
    "face_down",
    "top",
    "passes",
    "trigger",
    "turns_left",
)
_NO_SLOT = 0xFF
_NOTHING_KNOWN = bytes(CARDS)
_FIELDS_BYTES = 2 * len(_PUBLIC_FIELDS) * array("i").itemsize
_Places = list[tuple[int, int, int]]
_LAYOUTS: dict[bytes, tuple[tuple[int, ...], int, int, int, dict[int, _Places]]] = {}
"""fill_public's layouts checked so far: offsets, players, Novel slots and the end of the last."""
_ZEROS: dict[int, memoryview[float]] = {}
# What a place code of a card table makes fill_public write (see _places).
_ONE, _NOVEL, _FLAG, _BAD = range(4)
_TABLE_ERRORS = (
    "fill_public: a card table's byte is no place code",
    "fill_public: a card table's seat is beyond the players",
    "fill_public: the card table shows another seat's hidden card (R16)",
)
_NO_PLACE, _NO_SEAT, _HIDDEN = range(3)
_NOVEL_CARDS = _PUBLIC_FIELDS.index("novel_cards")
_KNOWN_HANDS = _PUBLIC_FIELDS.index("known_hands")
_KNOWN_CODES: dict[int, bytes] = {}
"""Per number of players, the bytes a ``known`` may hold: UNSEEN and HAND | s of each seat s."""

_Bytes = bytes | bytearray | memoryview


def _fill_public_py(
    out: npt.NDArray[np.float32] | memoryview,
    fields: _Bytes,
    table: _Bytes,
    slots: _Bytes,
    known: _Bytes,
    supply: Sequence[int],
    hand_sizes: Sequence[int],
    scores: Sequence[int],
    state: Sequence[int],
) -> None:
    """Write one player's observation, all but the decision in progress, into ``out``.

    The rule of the kernel ``fill_public`` (compiled twin in ``csrc/observe.c``):
    :class:`ObservationEncoder` builds its packed inputs from a view. ``out``
    (a writable C-contiguous ``float32`` buffer) is zeroed, then the fields of
    the module's layout table but the decision in progress are written:

    * ``fields``: ``int32`` (native order) pairs ``(offset, size)`` of the 25
      fields written, in layout order (``hand`` ... ``flag_lost``); the size of
      ``hand_sizes`` is the number of players ``n``, that of ``supply`` the
      number of Novel slots ``k``, and every other size must be its shape's;
    * ``table``: the observer's card table (:mod:`pastiche_core.engine.layout`, the
      view's :attr:`~pastiche_core.engine.view.PlayerView.card_table`): their hand,
      the drawn cards while they choose, the face-up discards, their own
      face-down discards, the End Flag's card and holder, every novel's cards,
      owner and Novel; another seat's hand or face-down card is an error (R16);
    * ``slots``: per Novel position of the table, the Novel's slot (its place
      among the catalogue's publishable Novels), ``0xFF`` for none;
    * ``known``: 49 bytes, ``HAND | s`` for a card known to lie in seat ``s``'s
      hand (``known_hands``), else ``UNSEEN``;
    * ``supply``: ``k`` counts, the copies left per slot; ``hand_sizes`` and
      ``scores``: ``n`` counts by absolute seat;
    * ``state``: 11 integers: the observer's seat, the phase (its place in
      keep, action, choose, flag, over), the seat to move, the current seat,
      the deck size, the discard size, the face-down discards, the top discard
      if it lies face up (its card index), passes in succession, the trigger's
      seat and the turns left (the last three negative, -1, for none).

    Seats are written relative to the observer's; the seats to move are left
    out once the game is over. The End Flag was lost (R12) when the end is
    triggered, no card lies under the flag and the phase is not the flag's.
    Malformed input raises and leaves ``out`` as it was: ``TypeError`` for a
    buffer or sequence of the wrong type or size, a ``ValueError`` for a value
    beyond its field (a seat, the phase, a place code, a Novel without a slot,
    a top discard not face up). The compiled twin also refuses (``OutOfRange``,
    and this rule answers) more than 8 players, more than 64 slots and an
    integer beyond 2**24 either way (the integers a ``float32`` holds exactly).

    >>> from pastiche_core import Game
    >>> encoder = ObservationEncoder(players=3)
    >>> fields, table, slots, known, supply, hand_sizes, scores, state = encoder._inputs(
    ...     Game(players=3, seed=7).view(1), None)
    >>> state
    (1, 0, 2, 0, 39, 0, 0, -1, 0, -1, -1)
    >>> out = np.empty(encoder.size, dtype=np.float32)
    >>> _fill_public_py(out, fields, table, slots, known, supply, hand_sizes, scores, state)
    >>> int(out[encoder.slice("hand")].sum()), out[encoder.slice("hand_sizes")].tolist()
    (3, [3.0, 4.0, 3.0])
    >>> _fill_public_py(out, fields, table, slots, known, supply, hand_sizes, scores,
    ...                 (3, *state[1:]))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: fill_public: the observer's seat is beyond the players
    """
    floats = _float_buffer(out)
    at, n, k, plans = _public_layout(_packed(fields, _FIELDS_BYTES, "fields"), len(floats))
    cards = _packed(table, CARD_TABLE_SIZE, "the card table")
    slot_of = _packed(slots, None, "slots")
    known_cards = _packed(known, CARDS, "known")
    me, phase, to_move, current, deck, discard, face_down, top, passes, trigger, turns_left = (
        _integers(state, len(_STATE), "state")
    )
    copies = _integers(supply, k, "supply")
    sizes = _integers(hand_sizes, n, "hand_sizes")
    points = _integers(scores, n, "scores")
    if not 0 <= me < n:
        raise InvalidArgumentError("fill_public: the observer's seat is beyond the players")
    if not 0 <= phase < len(_PHASES):
        raise InvalidArgumentError("fill_public: the phase is beyond the phases")
    if not (0 <= to_move < n and 0 <= current < n) or trigger >= n:
        raise InvalidArgumentError(
            "fill_public: a seat to move, current or trigger beyond the players"
        )
    if top >= CARDS or (top >= 0 and cards[top] != PILE_UP):
        raise InvalidArgumentError("fill_public: the top discard is not a face-up card of the pile")
    places = plans.get(me)
    if places is None:
        places = plans[me] = _places(at, n, k, me)
    (
        _hand,
        _drawn,
        discard_top,
        _face_up,
        _own,
        _flag_card,
        _published,
        _masterpieces,
        _known_hands,
        _novel_cards,
        _held_published,
        _held_masterpiece,
        supply_at,
        hand_sizes_at,
        scores_at,
        piles,
        phase_at,
        to_move_at,
        current_at,
        seat_at,
        passes_at,
        countdown,
        trigger_at,
        _flag_owner,
        flag_lost,
    ) = at
    # Written as read; the buffer is restored if the table or the knowledge is malformed.
    saved = floats.tobytes()
    floats[:] = _zeros(len(floats))
    try:
        flagged = _write_cards(floats, cards, slot_of, known_cards, places, at, n, k, me)
    except InvalidArgumentError:
        floats.cast("B")[:] = saved
        raise
    if top >= 0:
        floats[discard_top + top] = 1.0
    floats[phase_at + phase] = 1.0
    if phase != _OVER_PHASE:
        floats[to_move_at + (to_move - me) % n] = 1.0
        floats[current_at + (current - me) % n] = 1.0
    floats[seat_at + me] = 1.0
    if turns_left >= 0:
        floats[countdown] = 1.0
    if trigger >= 0:
        floats[trigger_at + (trigger - me) % n] = 1.0
        if not flagged and phase != _FLAG_PHASE:  # R12: the End Flag was lost
            floats[flag_lost] = 1.0
    for slot in range(k):
        floats[supply_at + slot] = copies[slot]
    for owner in range(n):
        relative = (owner - me) % n
        floats[hand_sizes_at + relative] = sizes[owner]
        floats[scores_at + relative] = points[owner]
    floats[piles] = deck
    floats[piles + 1] = discard
    floats[piles + 2] = face_down
    floats[passes_at] = passes
    if turns_left >= 0:
        floats[countdown + 1] = turns_left


_fill_public = kernel("fill_public", _fill_public_py)


def _write_cards(
    floats: memoryview[float],
    cards: bytes,
    slot_of: bytes,
    known_cards: bytes,
    places: _Places,
    at: Sequence[int],
    n: int,
    k: int,
    me: int,
) -> bool:
    """fill_public's card planes from the table and ``known``; whether a card lies under the flag."""
    novel_cards, known_hands = at[_NOVEL_CARDS], at[_KNOWN_HANDS]
    one, novel, flag, cards_per_plane, no_slot = _ONE, _NOVEL, _FLAG, CARDS, _NO_SLOT
    slot_count = len(slot_of)
    flagged = False
    for card, code in enumerate(cards[:CARDS]):
        if not code:
            continue
        kind, first, second = places[code]
        if kind == one:
            floats[first + card] = 1.0
        elif kind == novel:
            position = cards[cards_per_plane + card]
            slot = slot_of[position] if position < slot_count else no_slot
            if slot == no_slot or slot >= k:
                raise InvalidArgumentError("fill_public: a card lies under a Novel without a slot")
            floats[first + card] = 1.0
            floats[novel_cards + slot * cards_per_plane + card] = 1.0
            floats[second + slot] = 1.0
        elif kind == flag:
            floats[first + card] = 1.0
            floats[second] = 1.0
            flagged = True
        else:
            raise InvalidArgumentError(_TABLE_ERRORS[first])
    if known_cards != _NOTHING_KNOWN:
        codes = _KNOWN_CODES.get(n)
        if codes is None:
            codes = _KNOWN_CODES[n] = bytes([UNSEEN, *(HAND | s for s in range(min(n, 8)))])
        if known_cards.translate(None, codes):
            raise InvalidArgumentError("fill_public: a known card is not in a seat's hand")
        for seat in range(min(n, 8)):
            code = HAND | seat
            card = known_cards.find(code)
            if card >= 0:
                plane = known_hands + (seat - me) % n * CARDS
                while card >= 0:
                    floats[plane + card] = 1.0
                    card = known_cards.find(code, card + 1)
    return flagged


def _float_buffer(out: object) -> memoryview[float]:
    """``out`` as a flat writable ``float32`` memoryview (else ``TypeError``)."""
    try:
        view = memoryview(out)  # type: ignore[arg-type]
    except TypeError:
        view = None
    if view is None or view.readonly or view.format != "f" or not view.c_contiguous:
        raise TypeError("fill_public: out must be a writable C-contiguous float32 buffer")
    return typing.cast("memoryview[float]", view) if view.ndim == 1 else view.cast("B").cast("f")


def _zeros(length: int) -> memoryview[float]:
    """``length`` zero floats, to clear an ``out`` of that length at once."""
    zeros = _ZEROS.get(length)
    if zeros is None:
        if len(_ZEROS) >= 64:
            _ZEROS.clear()
        zeros = _ZEROS[length] = memoryview(bytes(4 * length)).cast("f")
    return zeros


def _packed(source: _Bytes, size: int | None, what: str) -> bytes:
    """The bytes of a bytes-like ``source`` of exactly ``size`` bytes (any if ``None``)."""
    data = source if type(source) is bytes else memoryview(source).tobytes()
    if size is not None and len(data) != size:
        raise TypeError(f"fill_public: {what} holds {len(data)} bytes, not {size}")
    return data


def _integers(source: Sequence[int], size: int, what: str) -> list[int]:
    """The integers of ``source``, exactly ``size`` of them (else ``TypeError``)."""
    values = list(map(operator.index, source))
    if len(values) != size:
        raise TypeError(f"fill_public: {what} holds {len(values)} integers, not {size}")
    return values


def _public_layout(
    fields: bytes, length: int
) -> tuple[tuple[int, ...], int, int, dict[int, _Places]]:
    """fill_public's ``fields`` checked for ``length`` floats: offsets, players, Novel slots.

    The last item keeps, per observer, the :func:`_places` of that layout.
    """
    known = _LAYOUTS.get(fields)
    if known is None:
        pairs = array("i", fields)
        n, k = (pairs[2 * _PUBLIC_FIELDS.index(name) + 1] for name in ("hand_sizes", "supply"))
        if n < 1 or k < 0:
            raise InvalidArgumentError("fill_public: no seats in the layout")
        shapes = dict.fromkeys(_PUBLIC_FIELDS[:6], _CARDS)
        shapes.update(published=n * _CARDS, masterpieces=n * _CARDS, known_hands=n * _CARDS)
        shapes.update(novel_cards=k * _CARDS, held_published=n * k, held_masterpiece=n * k)
        shapes.update(supply=k, hand_sizes=n, scores=n, piles=3, phase=len(_PHASES))
        shapes.update(to_move=n, current=n, seat=n, passes=1, countdown=2, trigger=n)
        shapes.update(flag_owner=n, flag_lost=1)
        for index, name in enumerate(_PUBLIC_FIELDS):
            offset, size = pairs[2 * index], pairs[2 * index + 1]
            if size != shapes[name]:
                raise InvalidArgumentError("fill_public: a field's size is not its shape's")
            if offset < 0:
                raise InvalidArgumentError("fill_public: a field lies beyond the array")
        end = max(pairs[2 * i] + pairs[2 * i + 1] for i in range(len(_PUBLIC_FIELDS)))
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        known = _LAYOUTS[fields] = (tuple(pairs[::2]), n, k, end, {})
    offsets, n, k, end, plans = known
    if end > length:
        raise InvalidArgumentError("fill_public: a field lies beyond the array")
    return offsets, n, k, plans


def _places(at: Sequence[int], n: int, k: int, me: int) -> _Places:
    """Per place code of a card table, what fill_public writes for card ``c`` lying there.

    ``(_ONE, base, 0)``: a 1 at ``base + c``; ``(_NOVEL, plane, held)``: a 1 at
    ``plane + c``, under the Novel's slot ``s`` in ``novel_cards`` and at
    ``held + s``; ``(_FLAG, flag_card, owner)``: a 1 at ``flag_card + c`` and at
    ``owner``; ``(_BAD, error, 0)``: the code is an error (:data:`_TABLE_ERRORS`).
    """
    field = dict(zip(_PUBLIC_FIELDS, at, strict=True))
    places = [(_BAD, _NO_PLACE, 0)] * 256
    places[PILE_UP] = (_ONE, field["discard_face_up"], 0)
    places[DRAWN] = (_ONE, field["drawn"], 0)
    for code in range(DRAWN + 1, 256):
        seat, place = code & SEAT_MASK, code & PLACE_MASK
        relative = (seat - me) % n
        if seat >= n:
            places[code] = (_BAD, _NO_SEAT, 0)
        elif place in (HAND, PILE_DOWN) and seat != me:
            places[code] = (_BAD, _HIDDEN, 0)
        elif place in (HAND, PILE_DOWN):
            places[code] = (_ONE, field["hand" if place == HAND else "discard_own"], 0)
        elif place == FLAG:
            places[code] = (_FLAG, field["flag_card"], field["flag_owner"] + relative)
        elif place in (MASTER, PUBLISHED):
            kind = "masterpiece" if place == MASTER else "published"
            places[code] = (
                _NOVEL,
                field["masterpieces" if place == MASTER else "published"] + relative * _CARDS,
                field[f"held_{kind}"] + relative * k,
            )
    return places


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of the observation vector: where it starts and its shape.

    >>> Field("hand", 0, (49,)).size
    49
    """

    name: str
    """The field's name, as the module's layout table gives it (``'hand'``, ``'scores'``, ...)."""
    offset: int
    """The position of the field's first value in the observation vector."""
    shape: tuple[int, ...]
    """The field's shape: ``(49,)`` for a card plane, ``(n, 49)`` for one plane per seat, and so
    on."""

    @property
    def size(self) -> int:
        """Number of values."""
        size = 1
        for extent in self.shape:
            size *= extent
        return size


class ObservationEncoder:
    """The observation layout for ``players`` seats and a catalogue (module docstring).

    >>> encoder = ObservationEncoder(players=3)
    >>> encoder.field("published")
    Field(name='published', offset=294, shape=(3, 49))
    >>> ObservationEncoder(players=6)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: players must be from 3 to 5 (R10), got 6
    """

    __slots__ = (
        "_at",
        "_base",
        "_building",
        "_fields",
        "_last",
        "_novel_index",
        "_other",
        "_out",
        "_slots",
        "_supply",
        "catalogue",
        "fields",
        "high",
        "novels",
        "players",
        "size",
    )

    def __init__(self, players: int = 4, catalogue: Catalogue | None = None) -> None:
        check_deal(players, error=InvalidArgumentError)
        self.players = players
        """The number of players, 3 to 5 (R10)."""
        self.catalogue = catalogue if catalogue is not None else Catalogue.default()
        """The catalogue; its publishable Novels make the ``k`` Novel slots."""
        self.novels = tuple(spec.id for spec in self.catalogue.publishable)
        """The ids of the publishable Novels in catalogue order: the ``k`` Novel slots."""
        n, k = players, len(self.novels)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (_CARDS,)),
            ("drawn", (_CARDS,)),
            ("discard_top", (_CARDS,)),
            ("discard_face_up", (_CARDS,)),
            ("discard_own", (_CARDS,)),
            ("flag_card", (_CARDS,)),
            ("published", (n, _CARDS)),
            ("masterpieces", (n, _CARDS)),
            ("known_hands", (n, _CARDS)),
            ("novel_cards", (k, _CARDS)),
            ("building_played", (_CARDS,)),
            ("building_cited", (_CARDS,)),
            ("building_gifts", (_CARDS,)),
            ("building_discards", (_CARDS,)),
            ("held_published", (n, k)),
            ("held_masterpiece", (n, k)),
            ("supply", (k,)),
            ("hand_sizes", (n,)),
            ("scores", (n,)),
            ("piles", (3,)),
            ("phase", (len(_PHASES),)),
            ("to_move", (n,)),
            ("current", (n,)),
            ("seat", (n,)),
            ("passes", (1,)),
            ("countdown", (2,)),
            ("trigger", (n,)),
            ("flag_owner", (n,)),
            ("flag_lost", (1,)),
            ("stage", (len(Stage),)),
            ("building_novel", (k,)),
            ("gifts_owed", (n,)),
        ]
        fields: list[Field] = []
        offset = 0
        for name, shape in shapes:
            field = Field(name, offset, shape)
            fields.append(field)
            offset += field.size
        self.fields: tuple[Field, ...] = tuple(fields)
        """Every field of the layout, in vector order."""
        self.size = offset
        """The length of the observation vector (1716 for 4 players and the default catalogue)."""
        self._at = {field.name: field.offset for field in fields}
        # (offset, size) of each field the compiled encoder writes, in its order.
        # Where the decision in progress goes (written at every action).
        self._building = tuple(
            self._at[name]
            for name in (
                "stage",
                "building_played",
                "building_cited",
                "building_gifts",
                "building_discards",
                "building_novel",
                "gifts_owed",
            )
        )
        # fill_public's packed inputs that depend on the encoder alone.
        self._fields = array(
            "i",
            [
                value
                for field in (self.field(name) for name in _PUBLIC_FIELDS)
                for value in (field.offset, field.size)
            ],
        ).tobytes()
        self._novel_index = {novel: index for index, novel in enumerate(self.novels)}
        self._other: tuple[Catalogue, bytes] | None = None  # the slots of another catalogue
        self._slots = self._slots_of(self.catalogue)
        self._supply: tuple[tuple[tuple[str, int], ...], tuple[int, ...]] = ((), ())
        """The last supply seen and its counts by slot (fill_public's ``supply``)."""
        self._base = np.empty(self.size, dtype=np.float32)  # the last public part made
        # The kernel writes through a memoryview: numpy's own buffer export costs more.
        self._out = self._base.data
        # The last view encoded (with its knowledge) and its vector without the
        # decision in progress: a decision of several actions re-encodes the same
        # view at every action.
        self._last: (
            tuple[PlayerView, tuple[Knowledge, int] | None, npt.NDArray[np.float32]] | None
        ) = None
        high = np.ones(self.size, dtype=np.float32)
        specs = self.catalogue.publishable
        points = sum(spec.points * spec.copies for spec in self.catalogue.specs)
        for name, value in (
            ("hand_sizes", _CARDS),
            ("scores", points),
            ("piles", _CARDS),
            ("passes", n),
            ("countdown", 2 * n - 1),
            ("gifts_owed", _CARDS),
        ):
            high[self.slice(name)] = value
        high[self.slice("supply")] = [spec.copies for spec in specs]
        self.high: npt.NDArray[np.float32] = high
        """The largest value each position of the vector can take: 1, or the bound of a count."""

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.players} players, {self.size} values>"

    def field(self, name: str) -> Field:
        """The :class:`Field` called ``name``.

        >>> ObservationEncoder().field("nothing")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: no observation field 'nothing'
        """
        for field in self.fields:
            if field.name == name:
                return field
        raise InvalidArgumentError(f"no observation field {name!r}")

    def layout(self) -> bytes:
        """The fields the compiled kernels write (``fill_public``'s), as native int32
        ``(offset, size)`` pairs.

        >>> len(ObservationEncoder(players=3).layout()) // 8
        25
        """
        return self._fields

    def decision_fields(self) -> tuple[int, ...]:
        """Where the decision in progress goes: the offsets of ``stage``,
        ``building_played``, ``building_cited``, ``building_gifts``,
        ``building_discards``, ``building_novel`` and ``gifts_owed``.

        >>> encoder = ObservationEncoder(players=3)
        >>> encoder.decision_fields()[0] == encoder.field("stage").offset
        True
        """
        return self._building

    def slots(self) -> bytes:
        """Per Novel of the catalogue (its position among the specs), the Novel's slot in
        the observation, 0xFF for none (the End Flag): ``fill_public``'s ``slots``.

        >>> list(ObservationEncoder(players=3).slots())[:3]
        [0, 1, 2]
        """
        return self._slots

    def slice(self, name: str) -> slice:
        """The positions of field ``name`` in the vector.

        >>> ObservationEncoder().slice("drawn")
        slice(49, 98, None)
        """
        field = self.field(name)
        return slice(field.offset, field.offset + field.size)

    def unpack(self, observation: npt.NDArray[Any]) -> dict[str, npt.NDArray[Any]]:
        """The observation split into its fields, each in its shape.

        >>> from pastiche_core import Game
        >>> encoder = ObservationEncoder(players=3)
        >>> parts = encoder.unpack(encoder.encode(Game(players=3, seed=1).view(1)))
        >>> parts["hand_sizes"].tolist(), parts["seat"].tolist()
        ([3.0, 4.0, 3.0], [0.0, 1.0, 0.0])
        """
        if observation.shape != (self.size,):
            raise InvalidArgumentError(
                f"expected an observation of shape ({self.size},), got {observation.shape}"
            )
        return {
            field.name: observation[field.offset : field.offset + field.size].reshape(field.shape)
            for field in self.fields
        }

    # ------------------------------------------------------------------
    def encode(
        self,
        view: PlayerView,
        builder: MoveBuilder | None = None,
        out: npt.NDArray[np.float32] | None = None,
        knowledge: Knowledge | None = None,
    ) -> npt.NDArray[np.float32]:
        """The observation of ``view``'s player; ``builder`` adds their decision in progress.

        ``builder`` is used only when it belongs to the same player (the one to
        move); ``knowledge`` (the same player's, at the same moment) fills
        ``known_hands``. The result is a new array unless ``out`` is given (then
        ``out`` is filled and returned).

        >>> from pastiche_core import Game
        >>> encoder = ObservationEncoder(players=3)
        >>> encoder.encode(Game(players=4, seed=1).view(0))
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: this encoder is for 3 players, the view has 4
        """
        if view.players != self.players:
            raise InvalidArgumentError(
                f"this encoder is for {self.players} players, the view has {view.players}"
            )
        if knowledge is not None and knowledge.player != view.player:
            raise InvalidArgumentError(
                f"the knowledge is player {knowledge.player}'s, the view player {view.player}'s"
            )
        stamp = None if knowledge is None else (knowledge, knowledge.moves)
        last = self._last
        if last is not None and last[0] is view and last[1] == stamp:
            base = last[2]
        else:
            base = self._public(view, knowledge)
            self._last = (view, stamp, base)
        if out is None:
            out = base.copy()
        else:
            out[:] = base
        stage_at, played_at, cited_at, gifts_at, discards_at, novel_at, owed_at = self._building
        if builder is None or builder.view.player != view.player:
            out[stage_at] = 1.0
            return out
        stage, played, cited, gifts, discards = builder.progress()
        out[stage_at + stage] = 1.0
        if not stage:
            return out
        # A handful of values: single writes cost less than an index array.
        for index in played:
            out[played_at + index] = 1.0
        for index in cited:
            out[cited_at + index] = 1.0
        for index in gifts:
            out[gifts_at + index] = 1.0
        for index in discards:
            out[discards_at + index] = 1.0
        novel = builder.novel
        if novel is not None:
            out[novel_at + self._novel_index[novel]] = 1.0
        if stage is Stage.GIFTS:
            n, me = self.players, view.player
            for owner, count in builder.owed:
                out[owed_at + (owner - me) % n] = count
        return out

    def _public(self, view: PlayerView, knowledge: Knowledge | None) -> npt.NDArray[np.float32]:
        """The vector of everything but the decision in progress (in the encoder's buffer)."""
        _fill_public(self._out, *self._inputs(view, knowledge))
        return self._base

    def _inputs(
        self, view: PlayerView, knowledge: Knowledge | None
    ) -> tuple[
        bytes,
        bytes,
        bytes,
        bytes | bytearray,
        tuple[int, ...],
        tuple[int, ...],
        tuple[int, ...],
        tuple[int, ...],
    ]:
        """fill_public's packed inputs for ``view`` but ``out`` (made at every step: kept cheap)."""
        catalogue = view.catalogue
        slots = self._slots if catalogue is self.catalogue else self._slots_of(catalogue)
        holders = None if knowledge is None else knowledge.holders
        known: bytes | bytearray = _NOTHING_KNOWN
        if holders:
            known = bytearray(_CARDS)
            for card, seat in holders.items():
                known[card] = HAND | seat
        supply = self._supply
        if supply[0] != view.supply:  # it changes at a publish only
            counts = [0] * len(self.novels)
            novel_index = self._novel_index
            for novel, copies in view.supply:
                slot = novel_index.get(novel)
                if slot is not None:
                    counts[slot] = copies
            supply = self._supply = (view.supply, tuple(counts))
        discard = view.discard
        top = -1
        if discard:
            last = discard[-1]
            if last is not None and len(discard) - 1 not in view.face_down:
                top = last.index
        trigger, turns_left = view.trigger, view.turns_left
        state = (
            view.player,
            _PHASES.index(view.phase),
            view.to_move,
            view.current,
            view.deck_size,
            len(discard),
            len(view.face_down),
            top,
            view.passes,
            -1 if trigger is None else trigger,
            -1 if turns_left is None else turns_left,
        )
        return (
            self._fields,
            view.card_table,
            slots,
            known,
            supply[1],
            view.hand_sizes,
            view.scores,
            state,
        )

    def _slots_of(self, catalogue: Catalogue) -> bytes:
        """fill_public's ``slots`` for a table of ``catalogue``: each Novel's slot, 0xFF if none."""
        other = self._other
        if other is not None and other[0] is catalogue:
            return other[1]
        index = self._novel_index
        slots = bytes(index.get(spec.id, _NO_SLOT) for spec in catalogue.specs)
        if catalogue is not self.catalogue:
            self._other = (catalogue, slots)
        return slots

    # ------------------------------------------------------------------
    def text(
        self,
        view: PlayerView,
        builder: MoveBuilder | None = None,
        knowledge: Knowledge | None = None,
    ) -> str:
        """The same information as :meth:`encode`, as readable text (seats absolute).

        >>> from pastiche_core import Game
        >>> print(ObservationEncoder(players=3).text(Game(players=3, seed=7).view(1)))
        player 1 of 3, turn 0, keep: player 2 to move
        hand: HOR4 MYS6 MYS11
        deck 39, discard 0
        P0 3 cards, 0 points: -
        P1 3 cards, 0 points: -
        P2 4 cards, 0 points: -
        supply: straight-5 4, straight-7 3, straight-9 2, straight-11 1, kind-3 5, kind-5 2, pairs-3 5, pairs-4 3, total-5 5, total-7 3, end-flag 1
        """
        status = (
            f"over ({view.end_reason})"
            if view.phase is Phase.OVER
            else f"{view.phase.value}: player {view.to_move} to move"
        )
        lines = [
            f"player {view.player} of {view.players}, turn {view.turn}, {status}",
            f"hand: {format_cards(view.hand) or '-'}",
        ]
        if view.pending is not None:
            lines.append(f"drawn: {format_cards(view.pending, sort=False)}")
        piles = f"deck {view.deck_size}, discard {len(view.discard)}"
        if view.discard:
            hidden = view.face_down
            last = len(view.discard) - 1
            top = "face down" if last in hidden else str(view.discard[last])
            piles += f" (top {top}, {len(hidden)} face down)"
            own = [card for index in hidden if (card := view.discard[index]) is not None]
            if own:
                piles += f", own face down (bottom first): {format_cards(own, sort=False)}"
        lines.append(piles)
        for owner, seat_table in enumerate(view.tables):
            novels = " ".join(str(novel) for novel in seat_table) or "-"
            flag = ""
            if view.flag is not None and view.flag[0] == owner:
                flag = f" flag[{view.flag[1]}]"
            lines.append(
                f"P{owner} {view.hand_sizes[owner]} cards, {view.scores[owner]} points: "
                f"{novels}{flag}"
            )
        lines.append(
            "supply: " + ", ".join(f"{novel} {copies}" for novel, copies in view.supply if copies)
        )
        if knowledge is not None and knowledge.holders:
            known = knowledge.known_hands()
            lines.append(
                "known in hands: "
                + ", ".join(f"P{seat} {format_cards(cards)}" for seat, cards in known.items())
            )
        if view.passes:
            lines.append(f"passes in succession: {view.passes}")
        if view.trigger is not None:
            end = f"end triggered by player {view.trigger}"
            if view.turns_left is not None:
                end += f", {view.turns_left} turns left"
            lines.append(end)
        if builder is not None and builder.view.player == view.player:
            building = _building_text(builder)
            if building:
                lines.append(f"building: {building}")
        return "\n".join(lines)


def _building_text(builder: MoveBuilder) -> str:
    stage = builder.stage
    if stage is Stage.START:
        return ""
    if stage is Stage.DISCARDING:
        return f"keep, discarding {format_cards(builder.discards)}"
    parts: list[str] = [f"publish {builder.novel}"]
    if builder.played:
        parts.append(f"play {format_cards(builder.played)}")
    if builder.cited:
        parts.append(f"cite {format_cards(builder.cited)}")
    if stage is Stage.GIFTS:
        given: Sequence[str] = [str(gift) for gift in builder.gifts]
        if given:
            parts.append(f"gift {' '.join(given)}")
        owed = ", ".join(f"{count} to player {owner}" for owner, count in builder.owed)
        parts.append(f"(gifts owed: {owed})")
    return " ".join(parts)
