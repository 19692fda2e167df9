"""The limits on catalogues and patterns, in one place (R3).

A catalogue is data that a stranger may send (embedded in a position, a state or
a record), so everything in it is bounded: how many entries, how many copies,
how many points, how long its texts are, and how many cards a pattern may need.
Each limit is far above anything a real variant needs (the reconstructed default
catalogue of R2 has 11 entries, 34 cards, at most 9 points and 5 copies, and its
largest Novel takes 11 cards) and low enough that no catalogue can make a
search explode. An entry beyond a limit raises
:class:`~pastiche_core.errors.InvalidCatalogueError` naming the entry and the
limit.

>>> MAX_NOVELS, MAX_TOTAL_COPIES, MAX_PATTERN_CARDS
(64, 256, 13)
>>> from pastiche_core import Catalogue
>>> Catalogue.from_dict({"novels": [{"id": "p", "name": "P", "kind": "pairs", "pairs": 7,
...                                   "points": 1, "copies": 1}]})
Traceback (most recent call last):
...
pastiche_core.errors.InvalidCatalogueError: novels[0] ('p'): pairs must be an integer from 1 to 6, got 7
"""

from __future__ import annotations

__all__ = [
    "MAX_COPIES",
    "MAX_ID_LENGTH",
    "MAX_KIND_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_NOVELS",
    "MAX_OF_A_KIND",
    "MAX_PAIRS",
    "MAX_PARAMS",
    "MAX_PARAM_ITEMS",
    "MAX_PARAM_TEXT",
    "MAX_PATTERN_CARDS",
    "MAX_POINTS",
    "MAX_PROVENANCE_LENGTH",
    "MAX_TOTAL_COPIES",
]

MAX_NOVELS = 64
"""Entries in one catalogue, End Flag included: the default has 11, a printed game
rarely has more than 20 kinds of Novel card."""
MAX_COPIES = 20
"""Copies of one Novel. Nobody holds two copies of one Novel (R6) and a game has at
most 5 players, so no more than 5 copies are ever published; 20 leaves room for
any printed supply."""
MAX_TOTAL_COPIES = 256
"""Novel cards in the whole catalogue (the default has 34)."""
MAX_POINTS = 99
"""Points of one Novel. The sources print 1 to 9 points and 15 ends the game (R12);
two digits are plenty for any variant."""
MAX_ID_LENGTH = 32
"""Characters in a Novel id (``straight-11`` has 11); ids appear in every move."""
MAX_NAME_LENGTH = 64
"""Characters in a Novel's printed name and in a catalogue's name."""
MAX_PROVENANCE_LENGTH = 200
"""Characters in an entry's free-text provenance."""
MAX_PATTERN_CARDS = 13
"""Cards a pattern may need. The longest run of ranks is 13 (a straight of every
rank), the default's largest Novel takes 11 cards, and a publish is made from one
hand plus the cited Masterpieces; the search for a pattern's combinations grows
quickly with its size, so nothing larger is accepted."""
MAX_OF_A_KIND = 7
"""Cards of one rank a pattern may need: no rank has more than 7 cards (R1)."""
MAX_PAIRS = MAX_PATTERN_CARDS // 2
"""Pairs a :class:`~pastiche_core.patterns.Pairs` pattern may need (12 cards)."""
MAX_KIND_LENGTH = 32
"""Characters in the name of a registered pattern kind."""
MAX_PARAMS = 16
"""Parameters of one registered pattern in a catalogue entry."""
MAX_PARAM_TEXT = 200
"""Characters in one text parameter of a registered pattern."""
MAX_PARAM_ITEMS = 49
"""Items in one array parameter of a registered pattern (one per card of the deck)."""
