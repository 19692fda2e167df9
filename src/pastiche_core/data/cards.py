"""Story cards, genres and card notation (R1).

The deck has 49 Story cards: 7 genres of 7 consecutive ranks each. A card is
written as its genre code followed by its rank (``SCI9``, ``MAG13``); parsing is
case-insensitive and formatting is canonical upper case.

Cards are interned: there is exactly one :class:`Card` object per genre and rank,
so cards compare by identity, hash in constant time and can be used freely as
dictionary keys and set members.

>>> Card.parse("sci9")
Card.parse('SCI9')
>>> str(Card(Genre.MAGIC_REALISM, 13))
'MAG13'
>>> len(DECK)
49
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import Any, ClassVar

from ._text import MAX_NOTATION_LENGTH, quote, too_long
from .errors import InvalidNotationError

__all__ = [
    "DECK",
    "MAX_RANK",
    "MIN_RANK",
    "Card",
    "CardsLike",
    "Genre",
    "as_card",
    "as_cards",
    "format_cards",
    "parse_cards",
]

MIN_RANK = 1
MAX_RANK = 13

_INDEX = operator.attrgetter("index")


# home: R1
class Genre(Enum):
    """The seven genres with their rank ranges, in rulebook order (R1).

    >>> Genre.SCIENCE_FICTION.code, Genre.SCIENCE_FICTION.low, Genre.SCIENCE_FICTION.high
    ('SCI', 3, 9)
    >>> Genre.from_code("hor")
    <Genre.HORROR: 'HOR'>
    """

    MYTHOLOGY = "MYT"
    LOVE_STORY = "LOV"
    SCIENCE_FICTION = "SCI"
    HORROR = "HOR"
    MYSTERY = "MYS"
    FANTASY = "FAN"
    MAGIC_REALISM = "MAG"

    @property
    def code(self) -> str:
        """The three-letter code used in card notation."""
        return self.value

    @property
    def order(self) -> int:
        """Position in rulebook order, 0 for MYTHOLOGY to 6 for MAGIC REALISM."""
        return _GENRE_ORDER[self]

    @property
    def low(self) -> int:
        """The lowest rank of this genre (R1: the genre's order plus one)."""
        return self.order + 1

    @property
    def high(self) -> int:
        """The highest rank of this genre (R1: six above :attr:`low`)."""
        return self.order + 7

    @property
    def title(self) -> str:
        """The genre's printed name, e.g. ``'SCIENCE FICTION'``."""
        return self.name.replace("_", " ")

    def ranks(self) -> range:
        """The ranks this genre has.

        >>> list(Genre.MYTHOLOGY.ranks())
        [1, 2, 3, 4, 5, 6, 7]
        """
        return range(self.low, self.high + 1)

    @classmethod
    def from_code(cls, code: str) -> Genre:
        """The genre with the given code, case-insensitive.

        >>> Genre.from_code("XYZ")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: unknown genre code 'XYZ'
            (R1: MYT LOV SCI HOR MYS FAN MAG)
        """
        try:
            if not isinstance(code, str) or not code.isascii():
                raise ValueError(code)  # e.g. 'ſci'.upper() == 'SCI': only ASCII codes (R1)
            return cls(code.upper())
        except ValueError:
            codes = " ".join(g.code for g in cls)
            raise InvalidNotationError(f"unknown genre code {quote(code)} (R1: {codes})") from None

    def __repr__(self) -> str:
        return f"<Genre.{self.name}: {self.value!r}>"


_GENRE_ORDER = {genre: index for index, genre in enumerate(Genre)}
# ASCII only: \d would also match other scripts' digits such as '٣' (R1).
_CARD_RE = re.compile(r"([A-Za-z]{3})([0-9]{1,2})", re.ASCII)
_MAX_CARD_LENGTH = 64
"""The longest card string parsed, surrounding spaces included."""
_SEPARATORS = re.compile(r"[\s,;]+")


class Card:
    """One Story card: a genre and a rank. Immutable, hashable and interned.

    ``Card(genre, rank)`` returns the unique card object; cards are ordered by
    genre (rulebook order) and then rank, which is the order of :data:`DECK`.

    >>> Card(Genre.HORROR, 7)
    Card.parse('HOR7')
    >>> Card(Genre.LOVE_STORY, 1)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)
    >>> sorted(parse_cards("SCI9 MYT6 SCI7"))
    [Card.parse('MYT6'), Card.parse('SCI7'), Card.parse('SCI9')]
    """

    __slots__ = ("_text", "genre", "index", "rank")
    genre: Genre
    """The card's genre, which fixes its colour and its ranks (R1)."""
    rank: int
    """The card's rank, 1 to 13 (R1)."""
    index: int
    """The card's place in :data:`DECK` (0 to 48): a total order and a compact key."""
    _text: str
    _cache: ClassVar[dict[tuple[Genre, int], Card]] = {}

    def __new__(cls, genre: Genre, rank: int) -> Card:
        # Only a plain int may hit the cache: True == 1 and 7.0 == 7 hash alike (R1).
        if type(rank) is int:
            try:
                return cls._cache[(genre, rank)]
            except (KeyError, TypeError):
                pass
        if not isinstance(genre, Genre):
            raise InvalidNotationError(f"invalid card genre {quote(genre)}: expected a Genre (R1)")
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in genre.ranks():
            small = type(rank) is int and -1000 < rank < 1000
            label = f"'{genre.code}{rank}'" if small else f"{genre.code} of rank {quote(rank)}"
            raise InvalidNotationError(
                f"invalid card {label}: {genre.title} has ranks {genre.low}-{genre.high} (R1)"
            )
        rank = int(rank)  # an int subclass must not replace the interned card
        cached = cls._cache.get((genre, rank))
        if cached is not None:
            return cached
        card = object.__new__(cls)
        object.__setattr__(card, "genre", genre)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", genre.order * 7 + rank - genre.low)
        object.__setattr__(card, "_text", f"{genre.code}{rank}")  # notation, made once
        cls._cache[(genre, rank)] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.genre, self.rank))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def _repr_svg_(self) -> str:
        """The card drawn in its genre colour (Jupyter)."""
        from ..io.render import cards_svg

        return cards_svg([self])

    def __rich__(self) -> Any:
        """The card coloured by genre in a rich console."""
        from ..io.render import rich_text

        return rich_text(self)

    @property
    def notation(self) -> str:
        """Canonical notation, e.g. ``'SCI9'``."""
        return str(self)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card in notation (case-insensitive, surrounding spaces ignored).

        >>> Card.parse(" mag13 ")
        Card.parse('MAG13')
        >>> Card.parse("SCI10")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid card 'SCI10':
            SCIENCE FICTION has ranks 3-9 (R1)
        >>> Card.parse("")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid card '':
            expected a genre code and a rank such as 'SCI9' (R1)
        """
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"invalid card {quote(text)}: expected a string such as 'SCI9' (R1)"
            )
        if too_long(text, _MAX_CARD_LENGTH):
            raise InvalidNotationError(
                f"invalid card {quote(text)}: too long for a card such as 'SCI9' (R1)"
            )
        match = _CARD_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidNotationError(
                f"invalid card {quote(text)}: expected a genre code and a rank such as 'SCI9' (R1)"
            )
        code, digits = match.groups()
        try:
            genre = Genre.from_code(code)
        except InvalidNotationError:
            codes = " ".join(g.code for g in Genre)
            raise InvalidNotationError(
                f"invalid card {quote(text)}: unknown genre code {code!r} (R1: {codes})"
            ) from None
        rank = int(digits)
        if digits != str(rank) or rank not in genre.ranks():
            raise InvalidNotationError(
                f"invalid card {text.strip().upper()!r}: {genre.title} has ranks "
                f"{genre.low}-{genre.high} (R1)"
            )
        return cls(genre, rank)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at position ``index`` (0–48) of :data:`DECK`.

        >>> Card.from_index(48)
        Card.parse('MAG13')
        """
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(DECK):
            raise InvalidNotationError(f"invalid card index {quote(index)}: expected 0-48 (R1)")
        return DECK[index]


DECK: tuple[Card, ...] = tuple(Card(genre, rank) for genre in Genre for rank in genre.ranks())
"""The 49 Story cards in canonical order (genre, then rank)."""


def parse_cards(text: str) -> list[Card]:
    """Parse several cards separated by spaces, commas or semicolons.

    Duplicates are kept as written; an empty string gives no cards.

    >>> parse_cards("SCI9 hor7, MYS7")
    [Card.parse('SCI9'), Card.parse('HOR7'), Card.parse('MYS7')]
    >>> parse_cards("SCI9 XYZ4")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid card 'XYZ4':
        unknown genre code 'XYZ' (R1: MYT LOV SCI HOR MYS FAN MAG)
    """
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"invalid cards {quote(text)}: expected a string such as 'SCI9 HOR7' (R1)"
        )
    if too_long(text):
        raise InvalidNotationError(
            f"invalid cards {quote(text)}: longer than {MAX_NOTATION_LENGTH:,} characters"
        )
    return [Card.parse(token) for token in _SEPARATORS.split(text.strip()) if token]


CardsLike = str | Card | Iterable[str | Card]
"""What the API accepts wherever it takes cards: notation (``"SCI9 HOR7"``), a
:class:`Card`, or an iterable of either."""


def as_card(value: str | Card) -> Card:
    """A :class:`Card` from a card or its notation (R1).

    >>> as_card("sci9") is as_card(Card.parse("SCI9"))
    True
    >>> as_card(9)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid card 9: expected a Card or notation such as 'SCI9' (R1)
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise InvalidNotationError(
        f"invalid card {quote(value)}: expected a Card or notation such as 'SCI9' (R1)"
    )


def as_cards(value: CardsLike) -> tuple[Card, ...]:
    """Cards from notation, a card, or an iterable of cards and notation, in the order given.

    A string is card notation, never an iterable of characters.

    >>> as_cards("SCI9 HOR7")
    (Card.parse('SCI9'), Card.parse('HOR7'))
    >>> as_cards(["SCI9", Card.parse("HOR7")]) == as_cards("SCI9, HOR7")
    True
    >>> as_cards(Card.parse("MAG13"))
    (Card.parse('MAG13'),)
    >>> as_cards(7)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid cards 7: expected notation such as 'SCI9 HOR7', a Card or an iterable of them (R1)
    """
    if isinstance(value, str):
        return tuple(parse_cards(value))
    if isinstance(value, Card):
        return (value,)
    if isinstance(value, bytes | bytearray) or not isinstance(value, Iterable):
        raise InvalidNotationError(
            f"invalid cards {quote(value)}: expected notation such as 'SCI9 HOR7', a Card "
            "or an iterable of them (R1)"
        )
    cards = []
    for index, item in enumerate(value):
        if index >= len(DECK):
            raise InvalidNotationError(f"invalid cards: more than the {len(DECK)} of the deck")
        cards.append(as_card(item))
    return tuple(cards)


def format_cards(cards: Iterable[Card], *, sort: bool = True) -> str:
    """Format cards as space-separated notation, in canonical order unless ``sort=False``.

    >>> format_cards(parse_cards("SCI9 MYT6 SCI7"))
    'MYT6 SCI7 SCI9'
    """
    items: Iterator[Card] | list[Card] = sorted(cards, key=_INDEX) if sort else iter(cards)
    return " ".join([str(card) for card in items])
