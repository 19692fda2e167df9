"""Every limit of the library in one place: on catalogues, and on the work of one query.

Frontends pass the library strangers' data, so everything is bounded.

**Catalogues** (R3) are data that a stranger may send (embedded in a position, a
state or a record): how many entries, how many copies, how many points, how long
its texts are, and how many cards a pattern may need. Each limit is far above
anything a real variant needs (the reconstructed default catalogue of R2 has 11
entries, 34 cards, at most 9 points and 5 copies, and its largest Novel takes 11
cards) and low enough that no catalogue can make a search explode. An entry
beyond a limit raises :class:`~pastiche_core.data.errors.InvalidCatalogueError`
naming the entry and the limit.

>>> MAX_NOVELS, MAX_TOTAL_COPIES, MAX_PATTERN_CARDS
(64, 256, 13)
>>> from pastiche_core import Catalogue
>>> Catalogue.from_dict({"novels": [{"id": "p", "name": "P", "kind": "pairs", "pairs": 7,
...                                   "points": 1, "copies": 1}]})
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidCatalogueError: novels[0] ('p'): pairs must be an integer from 1 to 6, got 7

**Queries**: every solver entry point (:func:`~pastiche_core.solver.queries.solve`,
:func:`~pastiche_core.solver.queries.best`, the ``pastiche publishes`` command) takes a
``time_limit`` in seconds and :func:`~pastiche_core.solver.queries.solve` a
``max_options``, the most options it returns. Past either, the answer is still
valid but says so: ``complete`` is ``False`` and ``stopped_by`` names the limit
(``"time_limit"`` or ``"max_options"``). A :class:`Deadline` is the clock of one
call; engines ask it whether the time is up between units of work.

>>> deadline = Deadline(10.0)
>>> deadline.passed(), deadline.time_limit
(False, 10.0)
>>> Deadline(None).left()
inf
>>> check_time_limit(0)
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidArgumentError: time_limit must be a number of seconds > 0 or None, got 0
"""

from __future__ import annotations

import math
import time

from .errors import InvalidArgumentError

__all__ = [
    "CLI_MAX_OPTIONS",
    "DEFAULT_MAX_OPTIONS",
    "DEFAULT_TIME_LIMIT",
    "MAX_COPIES",
    "MAX_ID_LENGTH",
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
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
    "MAX_TIME_LIMIT",
    "MAX_TOTAL_COPIES",
    "STOPPED_BY",
    "Deadline",
    "check_max_options",
    "check_time_limit",
]

# Documents from outside (JSON and TOML)
MAX_JSON_BYTES = 1 << 20
"""The largest JSON document read, in bytes (1 MiB): a whole game state with its
history takes about 20 KiB."""
MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects read; the library's documents need 6."""
MAX_INT_DIGITS = 20
"""The longest integer read, in digits: every game value fits in 64 bits."""

# Catalogues (R3)
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
"""Pairs a :class:`~pastiche_core.data.patterns.Pairs` pattern may need (12 cards)."""
MAX_KIND_LENGTH = 32
"""Characters in the name of a registered pattern kind."""
MAX_PARAMS = 16
"""Parameters of one registered pattern in a catalogue entry."""
MAX_PARAM_TEXT = 200
"""Characters in one text parameter of a registered pattern."""
MAX_PARAM_ITEMS = 49
"""Items in one array parameter of a registered pattern (one per card of the deck)."""

# Queries
DEFAULT_TIME_LIMIT = 10.0
"""Seconds one solver call may take unless told otherwise (library and command line)."""
MAX_TIME_LIMIT = 3600.0
"""The longest time limit accepted, in seconds."""
DEFAULT_MAX_OPTIONS = 100_000
"""Options one :func:`~pastiche_core.solver.queries.solve` call returns at most, by default."""
CLI_MAX_OPTIONS = 1_000
"""Options ``pastiche publishes`` prints at most, by default (text and JSON)."""
STOPPED_BY = ("time_limit", "max_options")
"""The limits that can cut an answer short, as ``stopped_by`` names them."""


def check_time_limit(value: object) -> float | None:
    """A valid time limit: seconds in (0, :data:`MAX_TIME_LIMIT`], or ``None`` for none.

    >>> check_time_limit(2), check_time_limit(None)
    (2.0, None)
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgumentError(
            f"time_limit must be a number of seconds > 0 or None, got {value!r}"
        )
    seconds = float(value)
    if not 0 < seconds <= MAX_TIME_LIMIT:  # NaN fails too
        raise InvalidArgumentError(
            f"time_limit must be a number of seconds > 0 or None, got {value!r}"
            if not seconds > 0
            else f"time_limit must be at most {MAX_TIME_LIMIT:g} seconds, got {value!r}"
        )
    return seconds


def check_max_options(value: object) -> int | None:
    """A valid output limit: an integer >= 0, or ``None`` for no limit.

    >>> check_max_options(50), check_max_options(None)
    (50, None)
    >>> check_max_options(-1)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: max_options must be an integer >= 0 or None, got -1
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgumentError(f"max_options must be an integer >= 0 or None, got {value!r}")
    return value


class Deadline:
    """The clock of one call: when its ``time_limit`` (seconds, or ``None``) runs out.

    >>> deadline = Deadline(0.5)
    >>> 0 < deadline.left() <= 0.5
    True
    """

    __slots__ = ("_at", "_start", "time_limit")

    def __init__(self, time_limit: float | None) -> None:
        self.time_limit = check_time_limit(time_limit)
        self._start = time.monotonic()
        self._at = math.inf if self.time_limit is None else self._start + self.time_limit

    def share(self, fraction: float) -> Deadline:
        """An earlier deadline: ``fraction`` of this one's time limit from the same start.

        Engines stop listing early with it, so sorting and writing the answer
        still fit in the time limit.

        >>> Deadline(10.0).share(0.5).left() <= 5.0
        True
        """
        early = Deadline(None)
        early.time_limit = None if self.time_limit is None else self.time_limit * fraction
        early._start = self._start
        early._at = math.inf if early.time_limit is None else self._start + early.time_limit
        return early

    def passed(self) -> bool:
        """Whether the time is up."""
        return time.monotonic() >= self._at

    def left(self) -> float:
        """Seconds left (``inf`` without a limit; may be negative once passed)."""
        return self._at - time.monotonic()

    def __repr__(self) -> str:
        return f"<Deadline {self.time_limit!r} s, {self.left():.3g} s left>"
