"""The packed arrays the compiled kernels read: one documented layout, built by Python.

The compiled kernels (:mod:`pastiche_core.engine._kernels`) never read a
:class:`~pastiche_core.engine.game.Game`, a :class:`~pastiche_core.engine.view.PlayerView` or a
card object: Python hands them flat arrays of small integers laid out as below,
and ``csrc/layout.h`` states the same numbers for the C (a test compares them).

**The card table** (``bytes`` or ``bytearray`` of :data:`CARD_TABLE_SIZE` = 98
bytes). Byte ``i`` (``0 <= i < 49``) says where card ``i`` of
:data:`~pastiche_core.data.cards.DECK` lies, as a :data:`PLACE` code below (the seat
``s`` in the low three bits); byte ``49 + i`` is the position, in the game's
catalogue, of the Novel the card lies under (a Masterpiece's or a Published
novel's card), else :data:`NO_NOVEL`. A game keeps its table up to date move by
move (:attr:`Game.card_table <pastiche_core.engine.game.Game.card_table>`); a player's
view shows the same table with what that player cannot see marked
:data:`UNSEEN` (R16). A card's rank is not stored: card ``i`` has rank
``i % 7 + i // 7 + 1`` (R1).

==============  ============  ==================================================
code            name          the card lies
==============  ============  ==================================================
``0x00``        ``UNSEEN``    in the deck, or where the table's reader cannot see
``0x01``        ``PILE_UP``   face up in the discard pile (R11)
``0x02``        ``DRAWN``     among the two cards drawn by Write ① (R11)
``0x08 | s``    ``PILE_DOWN`` face down in the discard pile, discarded by seat s (R10)
``0x10 | s``    ``HAND``      in seat s's hand
``0x20 | s``    ``MASTER``    alone under one of seat s's novels: a Masterpiece (R7)
``0x30 | s``    ``PUBLISHED`` under one of seat s's Published novels (R11)
``0x40 | s``    ``FLAG``      under the End Flag, which seat s holds (R12)
==============  ============  ==================================================

**Rank vectors**: 14 integers, entry ``r`` for rank ``r`` (entry 0 unused).

**The plan** of a catalogue: per publishable Novel, in catalogue order, the
pattern's kernel code (:func:`~pastiche_core.engine.feasibility.pattern_code`) as
``(kind, first, second, size, points)``; a catalogue whose patterns are not all
of the built-in kinds has no plan, and Python alone answers for it.

**The usable flags** of a player: one byte per entry of the plan, 1 when the
player may publish that Novel now (a copy in the supply and not held, R6).

**The rules** of a game (:func:`packed_rules`): :data:`RULES_SIZE` integers,
the fewest and the most players, the keep size, the End Flag threshold, then
the cards dealt to each of :data:`RULE_SEATS` seats (0 for a seat beyond the
most players): :class:`~pastiche_core.engine.rules.Rules` in the order of
:data:`RULE_FIELDS` (R10, R12). The kernels read them once per game or batch
of games, and no rule number is written in C.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> from pastiche_core.engine.game_internals import insides
>>> table = insides(game).card_table
>>> [hex(table[card.index]) for card in game.hand(0)]
['0x10', '0x10', '0x10']
>>> place_name(table[game.hand(1)[0].index]), rank_of(48)
('HAND 1', 13)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..data.cards import Card
from .rules import SEAT_ROOM, Rules
from .table import is_masterpiece

__all__ = [
    "CARDS",
    "CARD_TABLE_SIZE",
    "DRAWN",
    "FLAG",
    "HAND",
    "LAYOUT_VERSION",
    "MASTER",
    "NO_NOVEL",
    "PILE_DOWN",
    "PILE_UP",
    "PLACE",
    "PUBLISHED",
    "RULES_SIZE",
    "RULE_FIELDS",
    "RULE_SEATS",
    "UNSEEN",
    "card_table",
    "packed_rules",
    "place_name",
    "rank_of",
    "viewer_table",
]

LAYOUT_VERSION = 1
"""The layout's version: the compiled extension states the one it was built for."""
CARDS = 49
"""Cards in the deck (R1): the card table's entries per half."""
CARD_TABLE_SIZE = 2 * CARDS
"""Bytes of a card table: a place per card, then a Novel position per card."""
NO_NOVEL = 0xFF
"""The Novel position of a card that lies under no novel."""

UNSEEN = 0x00
PILE_UP = 0x01
DRAWN = 0x02
PILE_DOWN = 0x08
HAND = 0x10
MASTER = 0x20
PUBLISHED = 0x30
FLAG = 0x40
SEAT_MASK = 0x07
PLACE_MASK = 0xF8

PLACE = {
    "UNSEEN": UNSEEN,
    "PILE_UP": PILE_UP,
    "DRAWN": DRAWN,
    "PILE_DOWN": PILE_DOWN,
    "HAND": HAND,
    "MASTER": MASTER,
    "PUBLISHED": PUBLISHED,
    "FLAG": FLAG,
}
"""Every place code by name; those of 0x08 and up take a seat in their low three bits."""

_SEATED = {PILE_DOWN, HAND, MASTER, PUBLISHED, FLAG}

RULE_SEATS = SEAT_ROOM[1]
"""The deal sizes the packed rules hold: one per seat a game may have."""
RULE_FIELDS = (
    "min_players",
    "max_players",
    "keep_size",
    "end_threshold",
    *(f"deal_sizes[{seat}]" for seat in range(RULE_SEATS)),
)
"""The packed rules' entries in order, named after the fields of :class:`Rules`."""
RULES_SIZE = len(RULE_FIELDS)
"""Integers in the packed rules."""


# home: R1
def rank_of(index: int) -> int:
    """The rank of card ``index`` of :data:`~pastiche_core.data.cards.DECK` (R1).

    >>> from pastiche_core.data.cards import DECK
    >>> all(rank_of(card.index) == card.rank for card in DECK)
    True
    """
    return index % 7 + index // 7 + 1


def place_name(code: int) -> str:
    """A place code as text: ``"HAND 2"``, ``"PILE_UP"``.

    >>> place_name(0x22), place_name(0)
    ('MASTER 2', 'UNSEEN')
    """
    base = code & PLACE_MASK if code >= PILE_DOWN else code
    for name, value in PLACE.items():
        if value == base:
            return f"{name} {code & SEAT_MASK}" if value in _SEATED else name
    raise ValueError(f"not a place code: {code!r}")


def card_table(
    *,
    hands: Mapping[int, Iterable[Card]],
    tables: Sequence[Mapping[str, Sequence[Card]]],
    novel_position: Mapping[str, int],
    pile: Sequence[Card | None] = (),
    face_down: Mapping[int, int] | None = None,
    drawn: Iterable[Card] = (),
    flag: tuple[int, Card] | None = None,
) -> bytearray:
    """A card table built from where the cards are (every card not named is :data:`UNSEEN`).

    ``hands`` maps a seat to the hand cards known; ``pile`` lists the discard
    pile bottom to top (``None`` for a card the reader cannot see);
    ``face_down`` maps a pile position to the seat that discarded it face down
    (R10); ``novel_position`` gives each Novel id its position in the catalogue.

    >>> from pastiche_core import Card
    >>> table = card_table(hands={0: [Card.parse("SCI9")]}, tables=[{}, {}, {}],
    ...                    novel_position={})
    >>> table[Card.parse("SCI9").index], len(table)
    (16, 98)
    """
    table = bytearray(CARD_TABLE_SIZE)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    for seat, cards in hands.items():
        for card in cards:
            table[card.index] = HAND | seat
    down = face_down or {}
    for position, shown in enumerate(pile):
        if shown is not None:
            discarder = down.get(position)
            table[shown.index] = PILE_UP if discarder is None else PILE_DOWN | discarder
    for card in drawn:
        table[card.index] = DRAWN
    for owner, novels in enumerate(tables):
        for novel, cards in novels.items():
            place = (MASTER if is_masterpiece(cards) else PUBLISHED) | owner
            for card in cards:
                table[card.index] = place
                table[CARDS + card.index] = novel_position[novel]
    if flag is not None:
        table[flag[1].index] = FLAG | flag[0]
    return table


def _viewer_codes(viewer: int, drawn: bool) -> bytes:
    """The translation of place codes for :func:`viewer_table`: what ``viewer`` may not see
    becomes ``UNSEEN`` (R16)."""
    codes = bytearray(range(256))
    for seat in range(SEAT_MASK + 1):
        if seat != viewer:
            codes[HAND | seat] = UNSEEN
            codes[PILE_DOWN | seat] = UNSEEN
    if not drawn:
        codes[DRAWN] = UNSEEN
    return bytes(codes)


_VIEWER_CODES = [
    _viewer_codes(seat, drawn) for seat in range(SEAT_MASK + 1) for drawn in (False, True)
]
"""``_viewer_codes(seat, drawn)`` at ``2 * seat + drawn``: a view is made at every decision."""


# home: R16.cards
def viewer_table(table: bytes | bytearray, viewer: int, drawn: bool = False) -> bytes:
    """What ``viewer`` sees of a game's card table (R16): other hands and face-down cards hidden.

    The viewer sees their own hand and their own face-down discards; the two
    drawn cards only while choosing between them (``drawn``). Everything else
    of the table is public.

    >>> game_table = bytes([HAND | 0, HAND | 1, PILE_DOWN | 1, DRAWN]) + bytes(94)
    >>> list(viewer_table(game_table, 0, drawn=False)[:4])
    [16, 0, 0, 0]
    >>> list(viewer_table(game_table, 1, drawn=True)[:4])
    [0, 17, 9, 2]
    """
    if 0 <= viewer <= SEAT_MASK:
        codes = _VIEWER_CODES[2 * viewer + bool(drawn)]
    else:
        codes = _viewer_codes(viewer, drawn)
    return bytes(table[:CARDS].translate(codes)) + table[CARDS:]


def hand_of(table: bytes | bytearray, seat: int) -> list[int]:
    """The indexes of the cards the table puts in ``seat``'s hand, ascending.

    >>> hand_of(bytes([HAND | 1, HAND, HAND | 1]) + bytes(95), 1)
    [0, 2]
    """
    code = HAND | seat
    return [index for index in range(CARDS) if table[index] == code]


def packed_rules(rules: Rules) -> tuple[int, ...]:
    """``rules`` packed for the compiled kernels, in the order of :data:`RULE_FIELDS`.

    >>> packed_rules(Rules())
    (3, 5, 3, 15, 3, 3, 4, 4, 5)
    >>> packed_rules(Rules(max_players=4, end_threshold=10))
    (3, 4, 3, 10, 3, 3, 4, 4, 0)
    """
    deals = rules.deal_sizes + (0,) * (RULE_SEATS - len(rules.deal_sizes))
    return (rules.min_players, rules.max_players, rules.keep_size, rules.end_threshold, *deals)
