"""Moves: every decision a player makes, as small frozen values with a notation.

Each decision point of the game (R10–R12) has its own move type:

=============  ===============================================  =====================
move           decision                                          notation
=============  ===============================================  =====================
:class:`Keep`  setup: the three cards to keep (R10)              ``keep MYT1 SCI9 HOR7``
:class:`Draw`  Write ①: draw two cards from the deck (R11)       ``draw``
:class:`TakeDiscard`  Write ②: take the top discard (R11)        ``take``
:class:`Choose`  which of the two drawn cards to keep (R11)      ``choose SCI9``
:class:`Publish`  publish a Novel, with pastiche (R4–R7)         see below
:class:`Read`  take a card from a Published novel (R11)          ``read 1:straight-5 SCI9``
:class:`Pass`  pass when nothing else is possible (R11)          ``pass``
:class:`TakeFlag`  the card put under the End Flag (R12)         ``flag SCI9``
=============  ===============================================  =====================

A publish is written ``publish NOVEL PLAYED... [cite REF...] [gift TO:CARD...]``,
where a reference ``1:straight-5`` names player 1's ``straight-5`` novel. A publish
option of the solver (:class:`~pastiche_core.solver.options.PublishOption`) is written the same
way, with ``?`` for each gift card still to choose (``gift 1:? 1:?``) and its points
after (``for 6 points``).
``Move.parse(str(move)) == move`` for every move, and ``repr`` pastes back.

>>> move = Move.parse("publish straight-5 MYS7 FAN7 cite 0:straight-5 1:kind-3 1:pairs-3 "
...                   "gift 1:MYT6 1:SCI9")
>>> move.gift_count, move.played_count
(2, 2)
>>> Move.parse(str(move)) == move
True
>>> Move.parse("draw")
Move.parse('draw')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..data._text import MAX_NOTATION_LENGTH, quote, too_long
from ..data.cards import Card, CardsLike, as_card, as_cards, format_cards
from ..data.errors import InvalidNotationError

__all__ = [
    "NOTATION_SEATS",
    "Choose",
    "Draw",
    "Gift",
    "Keep",
    "Move",
    "NovelRef",
    "Pass",
    "Publish",
    "Read",
    "TakeDiscard",
    "TakeFlag",
    "split_publish",
]

NOTATION_SEATS = ("0", "1", "2", "3", "4")
"""The seats a move may name: 0 to ``MAX_PLAYERS - 1`` (R10; the game says which exist).

Written out here because :mod:`pastiche_core.engine.game` imports this module."""


def _seat(text: str, what: str, whole: str, example: str) -> int:
    """A seat number in notation: one ASCII digit from 0 to 4 (R10)."""
    if text in NOTATION_SEATS:
        return int(text)
    if text.isascii() and text.isdigit():
        raise InvalidNotationError(
            f"invalid {what} {quote(whole)}: seat {quote(text)} is not 0 to "
            f"{NOTATION_SEATS[-1]} (R10)"
        )
    raise InvalidNotationError(f"invalid {what} {quote(whole)}: expected {example}")


@dataclass(frozen=True, slots=True, order=True)
class NovelRef:
    """A Novel on the table: its owner's seat and its Novel id (unique, R6).

    >>> NovelRef.parse("1:straight-5")
    NovelRef(owner=1, novel='straight-5')
    >>> str(NovelRef(0, "kind-3"))
    '0:kind-3'
    """

    owner: int
    """The seat whose table holds the novel."""
    novel: str
    """The Novel's id in the catalogue, e.g. ``'straight-5'``."""

    def __str__(self) -> str:
        return f"{self.owner}:{self.novel}"

    @classmethod
    def parse(cls, text: str) -> NovelRef:
        """Parse ``OWNER:NOVEL``.

        The owner is a seat from 0 to 4 (R10); the Novel id has no spaces, ','
        or ':' (R3).

        >>> NovelRef.parse("x:kind-3")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid novel reference 'x:kind-3': expected OWNER:NOVEL such as '1:straight-5'
        >>> NovelRef.parse("12:kind-3")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid novel reference '12:kind-3': seat '12' is not 0 to 4 (R10)
        """
        kept = cls is NovelRef and type(text) is str  # a subclass's values are its own
        known = _REFS.get(text) if kept else None
        if known is not None:
            return known
        example = "OWNER:NOVEL such as '1:straight-5'"
        if not isinstance(text, str) or too_long(text):
            raise InvalidNotationError(f"invalid novel reference {quote(text)}: expected {example}")
        owner, sep, novel = text.partition(":")
        if not sep or not novel or any(ch.isspace() or ch in ",:" for ch in novel):
            raise InvalidNotationError(f"invalid novel reference {quote(text)}: expected {example}")
        ref = cls(_seat(owner, "novel reference", text, example), novel)
        if kept:
            if len(_REFS) >= _REFS_KEPT:
                _REFS.clear()
            _REFS[text] = ref
        return ref


_REFS_KEPT = 512
"""Parsed novel references kept (a game names a few dozen; values are immutable)."""
_REFS: dict[str, NovelRef] = {}


@dataclass(frozen=True, slots=True, order=True)
class Gift:
    """One gift card for one player (R5).

    >>> Gift.parse("1:sci9")
    Gift(to=1, card=Card.parse('SCI9'))
    """

    to: int
    """The seat that receives the card (a Masterpiece's owner, R5)."""
    card: Card
    """The hand card given."""

    def __post_init__(self) -> None:
        if self.card.__class__ is not Card:
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"{self.to}:{self.card}"

    @classmethod
    def parse(cls, text: str) -> Gift:
        """Parse ``TO:CARD``: a seat from 0 to 4 (R10) and a card (R1).

        >>> Gift.parse("٣:SCI9")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid gift '٣:SCI9': expected PLAYER:CARD such as '1:SCI9'
        """
        example = "PLAYER:CARD such as '1:SCI9'"
        if not isinstance(text, str) or too_long(text):
            raise InvalidNotationError(f"invalid gift {quote(text)}: expected {example}")
        to, sep, card = text.partition(":")
        if not sep:
            raise InvalidNotationError(f"invalid gift {quote(text)}: expected {example}")
        return cls(_seat(to, "gift", text, example), Card.parse(card))


class Move:
    """Base class of all moves. Use :meth:`parse` to read any move's notation."""

    __slots__ = ()
    keyword: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    @staticmethod
    def parse(text: str) -> Move:
        """Parse a move from its notation (case-insensitive keywords and cards).

        >>> Move.parse("read 2:kind-3 mys7")
        Move.parse('read 2:kind-3 MYS7')
        >>> Move.parse("jump")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid move 'jump': unknown keyword 'jump' (expected keep, draw, take, choose, publish, read, pass, flag)
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid move {quote(text)}: expected a string")
        if too_long(text):
            raise InvalidNotationError(
                f"invalid move {quote(text)}: longer than {MAX_NOTATION_LENGTH:,} characters"
            )
        words = text.split()
        if not words:
            raise InvalidNotationError(f"invalid move {quote(text)}: empty notation")
        # ASCII only: the Kelvin sign (U+212A) lowers to 'k', so would spell 'keep'.
        keyword, args = words[0].lower() if words[0].isascii() else "", words[1:]
        try:
            parser = _PARSERS[keyword]
        except KeyError:
            keywords = ", ".join(_PARSERS)
            raise InvalidNotationError(
                f"invalid move {quote(text)}: unknown keyword {quote(words[0])} "
                f"(expected {keywords})"
            ) from None
        try:
            return parser(args)
        except InvalidNotationError as error:
            raise InvalidNotationError(f"invalid move {quote(text)}: {error}") from None


@dataclass(frozen=True, slots=True, repr=False)
class Keep(Move):
    """Setup: the cards a player keeps; the rest are discarded face down (R10).

    A seat that discards two cards also says in which order (R15): ``discard``
    lists them as they are discarded, so the last lies on top. Without it the
    discards go down in card order.

    >>> Keep.of("SCI9 MYT1 HOR7")
    Move.parse('keep MYT1 SCI9 HOR7')
    >>> Move.parse("keep MYT1 SCI9 HOR7 discard MAG13 LOV2").discard
    (Card.parse('MAG13'), Card.parse('LOV2'))
    """

    keyword: ClassVar[str] = "keep"
    cards: tuple[Card, ...]
    """The three cards kept, sorted (R10)."""
    discard: tuple[Card, ...] = ()
    """The cards discarded face down in the order they go down, the last on top; empty for card order (R15)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(_cards(self.cards))))
        object.__setattr__(self, "discard", _cards(self.discard))

    @classmethod
    def of(cls, cards: str) -> Keep:
        """Build from card notation (``"A B C"`` or ``"A B C discard X Y"``)."""
        return _parse_keep(_words(cards, "cards"))

    def __str__(self) -> str:
        text = f"keep {format_cards(self.cards)}".rstrip()
        if self.discard:
            text += f" discard {format_cards(self.discard, sort=False)}"
        return text


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Move):
    """Write ①: draw two cards from the deck, then :class:`Choose` one (R11)."""

    keyword: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, repr=False)
class TakeDiscard(Move):
    """Write ②: add the top card of the discard pile to the hand (R11)."""

    keyword: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True, repr=False)
class Choose(Move):
    """After :class:`Draw`: the drawn card to keep; the other is discarded face up (R11)."""

    keyword: ClassVar[str] = "choose"
    card: Card
    """The drawn card kept in hand; the other goes face up on the discard pile (R11)."""

    def __post_init__(self) -> None:
        if self.card.__class__ is not Card:
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"choose {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Publish(Move):
    """Publish ``novel`` with ``played`` hand cards, citing Masterpieces, paying gifts (R4–R7).

    Fields are stored sorted, so equal publishes compare and hash equal.

    >>> Publish.of("kind-3", "SCI7 HOR7", cite="1:straight-5", gifts="1:MAG13")
    Move.parse('publish kind-3 SCI7 HOR7 cite 1:straight-5 gift 1:MAG13')
    """

    keyword: ClassVar[str] = "publish"
    novel: str
    """The Novel published, by its id in the catalogue."""
    played: tuple[Card, ...]
    """The hand cards played into it, sorted."""
    cited: tuple[NovelRef, ...] = ()
    """The Masterpieces cited as pastiche, sorted (R5)."""
    gifts: tuple[Gift, ...] = ()
    """The gift cards paid to the cited Masterpieces' owners, sorted (R5)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "played", tuple(sorted(_cards(self.played))))
        cited = self.cited
        if any(ref.__class__ is not NovelRef for ref in cited):
            cited = tuple(NovelRef.parse(ref) if isinstance(ref, str) else ref for ref in cited)
        object.__setattr__(self, "cited", tuple(sorted(cited)))
        gifts = self.gifts
        if any(gift.__class__ is not Gift for gift in gifts):
            gifts = tuple(Gift.parse(gift) if isinstance(gift, str) else gift for gift in gifts)
        object.__setattr__(self, "gifts", tuple(sorted(gifts)))

    @classmethod
    def canonical(
        cls,
        novel: str,
        played: tuple[Card, ...],
        cited: tuple[NovelRef, ...],
        gifts: tuple[Gift, ...],
    ) -> Publish:
        """A publish from fields already canonical: Cards, NovelRefs and Gifts, each sorted.

        The move generator's fast path (it builds them so); nothing is checked.

        >>> move = Publish.of("kind-3", "SCI7 HOR7")
        >>> Publish.canonical(move.novel, move.played, move.cited, move.gifts) == move
        True
        """
        move = object.__new__(cls)
        object.__setattr__(move, "novel", novel)
        object.__setattr__(move, "played", played)
        object.__setattr__(move, "cited", cited)
        object.__setattr__(move, "gifts", gifts)
        return move

    @classmethod
    def of(cls, novel: str, played: str, *, cite: str = "", gifts: str = "") -> Publish:
        """Build from notation strings (space-separated lists)."""
        if not isinstance(novel, str) or not novel or too_long(novel):
            raise InvalidNotationError(
                f"invalid novel id {quote(novel)}: expected such as 'kind-3'"
            )
        return cls(
            novel,
            tuple(Card.parse(c) for c in _words(played, "played cards")),
            tuple(NovelRef.parse(r) for r in _words(cite, "citations")),
            tuple(Gift.parse(g) for g in _words(gifts, "gifts")),
        )

    @property
    def played_count(self) -> int:
        """Cards played from the hand (R9's first cost)."""
        return len(self.played)

    @property
    def gift_count(self) -> int:
        """Cards given away (R9's second cost)."""
        return len(self.gifts)

    def __str__(self) -> str:
        parts = ["publish", self.novel, format_cards(self.played)]
        if self.cited:
            parts += ["cite", *map(str, self.cited)]
        if self.gifts:
            parts += ["gift", *map(str, self.gifts)]
        return " ".join(part for part in parts if part)


@dataclass(frozen=True, slots=True, repr=False)
class Read(Move):
    """Take ``card`` from the Published novel ``source`` (R11).

    >>> Read(NovelRef(1, "straight-5"), Card.parse("SCI9"))
    Move.parse('read 1:straight-5 SCI9')
    """

    keyword: ClassVar[str] = "read"
    source: NovelRef
    """The Published novel read from."""
    card: Card
    """The card taken from it into the hand."""

    def __post_init__(self) -> None:
        if isinstance(self.source, str):
            object.__setattr__(self, "source", NovelRef.parse(self.source))
        if self.card.__class__ is not Card:
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"read {self.source} {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Move):
    """Pass: allowed only when neither Write nor Read is possible (R11)."""

    keyword: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class TakeFlag(Move):
    """The trigger player's card placed under the End Flag (R12)."""

    keyword: ClassVar[str] = "flag"
    card: Card
    """The hand card placed under the End Flag (R12)."""

    def __post_init__(self) -> None:
        if self.card.__class__ is not Card:
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"flag {self.card}"


def _words(text: str, what: str) -> list[str]:
    if not isinstance(text, str) or too_long(text):
        raise InvalidNotationError(f"invalid {what} {quote(text)}: expected a notation string")
    return text.split()


def _cards(value: CardsLike) -> tuple[Card, ...]:
    """Cards given to a move: a tuple of Cards as it is (the engine's fast path), else parsed."""
    if isinstance(value, tuple) and all(card.__class__ is Card for card in value):
        return value
    return as_cards(value)


def _no_args(move: Move) -> Callable[[list[str]], Move]:
    def parse(args: list[str]) -> Move:
        if args:
            raise InvalidNotationError(f"'{move}' takes no arguments")
        return move

    return parse


def _one_card(factory: type[Choose] | type[TakeFlag]) -> Callable[[list[str]], Move]:
    def parse(args: list[str]) -> Move:
        if len(args) != 1:
            raise InvalidNotationError(f"'{factory.keyword}' takes exactly one card")
        return factory(Card.parse(args[0]))

    return parse


def _parse_keep(args: list[str]) -> Keep:
    lowered = [word.lower() for word in args]
    if "discard" not in lowered:
        return Keep(tuple(Card.parse(word) for word in args))
    split = lowered.index("discard")
    if "discard" in lowered[split + 1 :]:
        raise InvalidNotationError("'discard' appears twice")
    return Keep(
        tuple(Card.parse(word) for word in args[:split]),
        tuple(Card.parse(word) for word in args[split + 1 :]),
    )


def _parse_read(args: list[str]) -> Read:
    if len(args) != 2:
        raise InvalidNotationError("'read' takes a novel reference and a card")
    return Read(NovelRef.parse(args[0]), Card.parse(args[1]))


def split_publish(words: Sequence[str]) -> tuple[str, list[str], list[str], list[str]]:
    """The words after ``publish`` split into the Novel id and its played, cite and gift words.

    One grammar for a :class:`Publish` move and a publish option
    (:meth:`pastiche_core.solver.options.PublishOption.parse`): ``NOVEL PLAYED...
    [cite REF...] [gift TO:CARD...]``, the keywords case-insensitive, each at
    most once and ``cite`` before ``gift``.

    >>> split_publish("kind-5 MYS7 FAN7 cite m1 m2 gift 1:? 1:?".split())
    ('kind-5', ['MYS7', 'FAN7'], ['m1', 'm2'], ['1:?', '1:?'])
    >>> split_publish(["kind-3", "gift", "1:SCI9", "cite", "m1"])
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: 'cite' must come before 'gift'
    """
    if not words or words[0].lower() in ("cite", "gift"):
        raise InvalidNotationError("'publish' needs a novel id")
    novel, rest = words[0], words[1:]
    sections: dict[str, list[str]] = {"played": [], "cite": [], "gift": []}
    current = "played"
    order = ["played"]
    for word in rest:
        lowered = word.lower()
        if lowered in ("cite", "gift"):
            if lowered in order:
                raise InvalidNotationError(f"'{lowered}' appears twice")
            if lowered == "cite" and "gift" in order:
                raise InvalidNotationError("'cite' must come before 'gift'")
            current = lowered
            order.append(lowered)
            continue
        sections[current].append(word)
    return novel, sections["played"], sections["cite"], sections["gift"]


def _parse_publish(args: list[str]) -> Publish:
    novel, played, cite, gift = split_publish(args)
    for word in gift:
        if word.endswith(":?"):
            # An option's notation: the gift card is chosen when the option is applied (R5).
            raise InvalidNotationError(
                f"gift {quote(word)} leaves its card to choose, as a publish option does "
                "(PublishOption.parse reads it); a move names the card, such as '1:SCI9'"
            )
    return Publish(
        novel,
        tuple(Card.parse(word) for word in played),
        tuple(NovelRef.parse(word) for word in cite),
        tuple(Gift.parse(word) for word in gift),
    )


_PARSERS: dict[str, Callable[[list[str]], Move]] = {
    "keep": _parse_keep,
    "draw": _no_args(Draw()),
    "take": _no_args(TakeDiscard()),
    "choose": _one_card(Choose),
    "publish": _parse_publish,
    "read": _parse_read,
    "pass": _no_args(Pass()),
    "flag": _one_card(TakeFlag),
}
