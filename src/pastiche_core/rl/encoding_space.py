"""The fixed action space: which atomic action means what, for one catalogue.

:class:`ActionSpace` numbers the atomic actions of
:mod:`pastiche_core.rl.encoding` (its layout table) and names each one;
:class:`Stage` says which part of a decision a builder is in.

>>> from pastiche_core import Catalogue
>>> space = ActionSpace(Catalogue.default())
>>> len(space), space.describe(space.DRAW)
(357, 'draw')
"""

from __future__ import annotations

from enum import IntEnum
from typing import SupportsIndex

from ..data.cards import DECK, Card
from ..data.catalogue import Catalogue, NovelSpec
from ..data.errors import InvalidArgumentError, InvalidNotationError
from ..engine.rules import Phase

__all__ = [
    "CITE",
    "CITE_BASE",
    "NOVEL_BASE",
    "PLAY",
    "PLAY_BASE",
    "READ_BASE",
    "ActionSpace",
    "Stage",
    "action_index",
    "as_index",
    "illegal_action",
]

_CARDS = len(DECK)
_RANKS = 14  # index 0 unused, ranks 1-13
_RANK = tuple(card.rank for card in DECK)
_BLOCKS = ("discard", "choose", "flag", "read", "play", "cite", "gift")
_SINGLE = ("draw", "take", "pass", "confirm")
_FIRST_BLOCK = len(_SINGLE)
READ_BASE = _FIRST_BLOCK + _BLOCKS.index("read") * _CARDS  # the action reading card 0
NOVEL_BASE = _FIRST_BLOCK + len(_BLOCKS) * _CARDS  # the action starting the first Novel
PLAY = 0  # component kinds in the canonical order: hand cards first,
CITE = 1  # then Masterpieces, within one rank
PLAY_BASE = _FIRST_BLOCK + _BLOCKS.index("play") * _CARDS  # the action playing card 0
CITE_BASE = _FIRST_BLOCK + _BLOCKS.index("cite") * _CARDS  # the action citing card 0


class Stage(IntEnum):
    """How far the decision being built has come (part of the observation).

    >>> Stage.CARDS.name, int(Stage.GIFTS)
    ('CARDS', 3)
    """

    START = 0
    """Nothing chosen yet."""
    DISCARDING = 1
    """Setup: some of the cards to discard are chosen (R10)."""
    CARDS = 2
    """A publish: the Novel is chosen, its cards (plays and cites) are being chosen."""
    GIFTS = 3
    """A publish: the cards are confirmed, gift cards are being chosen (R5)."""


class ActionSpace:
    """The fixed atomic action layout for one catalogue (see the module docstring).

    >>> space = ActionSpace()
    >>> len(space), space.novels[:2]
    (357, ('straight-5', 'straight-7'))
    >>> space.novel("kind-3"), space.describe(351)
    (351, 'novel kind-3')
    >>> space.parse("cite SCI7") == space.cite(Card.parse("SCI7"))
    True
    """

    DRAW = 0
    """Write ①: draw two cards (R11)."""
    TAKE = 1
    """Write ②: take the top discard (R11)."""
    PASS = 2
    """Pass (R11)."""
    CONFIRM = 3
    """The cards of the publish being built are complete."""

    __slots__ = ("_novel_actions", "_novel_index", "catalogue", "novel_specs", "novels", "size")

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue if catalogue is not None else Catalogue.default()
        """The catalogue whose publishable Novels make the ``novel`` block."""
        self.novel_specs: tuple[NovelSpec, ...] = self.catalogue.publishable
        """The publishable Novels, in catalogue order."""
        self.novels: tuple[str, ...] = tuple(spec.id for spec in self.novel_specs)
        """Their ids, in the order of the ``novel`` block's actions."""
        self._novel_index = {novel: index for index, novel in enumerate(self.novels)}
        self._novel_actions = {
            novel: NOVEL_BASE + index for novel, index in self._novel_index.items()
        }
        self.size = _FIRST_BLOCK + len(_BLOCKS) * _CARDS + len(self.novels)
        """The number of actions (357 for the default catalogue)."""

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ActionSpace {self.size} actions, catalogue {self.catalogue.name!r}>"

    @staticmethod
    def block_start(name: str) -> int:
        """The first action of a card block (``'discard'``, ``'play'``, …), or of ``'novel'``.

        >>> ActionSpace.block_start("play"), ActionSpace.block_start("novel")
        (200, 347)
        """
        if name == "novel":
            return _FIRST_BLOCK + len(_BLOCKS) * _CARDS
        try:
            return _FIRST_BLOCK + _BLOCKS.index(name) * _CARDS
        except ValueError:
            raise InvalidArgumentError(
                f"unknown action block {name!r} (expected one of {', '.join(_BLOCKS)}, novel)"
            ) from None

    def discard(self, card: Card) -> int:
        """Discard ``card`` at setup (R10).

        >>> ActionSpace().discard(Card.parse("MYT1"))
        4
        """
        return _FIRST_BLOCK + card.index

    def choose(self, card: Card) -> int:
        """Keep the drawn ``card`` (R11).

        >>> ActionSpace().choose(Card.parse("MYT1"))
        53
        """
        return _FIRST_BLOCK + _CARDS + card.index

    def flag(self, card: Card) -> int:
        """Put ``card`` under the End Flag (R12).

        >>> ActionSpace().flag(Card.parse("MYT1"))
        102
        """
        return _FIRST_BLOCK + 2 * _CARDS + card.index

    def read(self, card: Card) -> int:
        """Read ``card`` from the Published novel it lies in (R11).

        >>> ActionSpace().read(Card.parse("MYT1"))
        151
        """
        return _FIRST_BLOCK + 3 * _CARDS + card.index

    def play(self, card: Card) -> int:
        """Play hand card ``card`` in the publish being built (R4).

        >>> ActionSpace().play(Card.parse("MAG13"))
        248
        """
        return _FIRST_BLOCK + 4 * _CARDS + card.index

    def cite(self, card: Card) -> int:
        """Cite the Masterpiece whose one card is ``card`` (R4, R6).

        >>> ActionSpace().cite(Card.parse("MYT1"))
        249
        """
        return _FIRST_BLOCK + 5 * _CARDS + card.index

    def gift(self, card: Card) -> int:
        """Give ``card`` as the next gift (R5).

        >>> ActionSpace().gift(Card.parse("MYT1"))
        298
        """
        return _FIRST_BLOCK + 6 * _CARDS + card.index

    def novel(self, novel: str) -> int:
        """Start a publish of ``novel``; an unknown or unpublishable id raises.

        >>> ActionSpace().novel("end-flag")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: 'end-flag' is not a publishable Novel of catalogue 'default'
        """
        try:
            return _FIRST_BLOCK + len(_BLOCKS) * _CARDS + self._novel_index[novel]
        except KeyError:
            raise InvalidArgumentError(
                f"{novel!r} is not a publishable Novel of catalogue {self.catalogue.name!r}"
            ) from None

    def decode(self, action: SupportsIndex) -> tuple[str, Card | str | None]:
        """The kind of ``action`` and its argument: a card, a Novel id or ``None``.

        >>> ActionSpace().decode(200), ActionSpace().decode(0), ActionSpace().decode(356)
        (('play', Card.parse('MYT1')), ('draw', None), ('novel', 'total-7'))
        >>> ActionSpace().decode(357)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidArgumentError: action must be an integer from 0 to 356, got 357
        """
        try:
            index = as_index(action, self.size)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"action must be an integer from 0 to {self.size - 1}, got {action!r}"
            ) from None
        return self.decode_index(index)

    def decode_index(self, action: int) -> tuple[str, Card | str | None]:
        """:meth:`decode` of an index already checked to be in the space (no check: a builder's
        legal actions are).

        >>> ActionSpace().decode_index(3)
        ('confirm', None)
        """
        if action < _FIRST_BLOCK:
            return _SINGLE[action], None
        offset = action - _FIRST_BLOCK
        block, index = divmod(offset, _CARDS)
        if block < len(_BLOCKS):
            return _BLOCKS[block], DECK[index]
        return "novel", self.novels[offset - len(_BLOCKS) * _CARDS]

    def describe(self, action: SupportsIndex) -> str:
        """The action in words, e.g. ``'play SCI7'`` (:meth:`parse` reads it back).

        >>> ActionSpace().describe(3)
        'confirm'
        """
        kind, argument = self.decode(action)
        return kind if argument is None else f"{kind} {argument}"

    def parse(self, text: str) -> int:
        """The action :meth:`describe` writes as ``text`` (keywords and cards in any case).

        >>> ActionSpace().parse("Novel kind-3")
        351
        >>> ActionSpace().parse("hop SCI7")
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidNotationError: invalid atomic action 'hop SCI7': expected draw, take, pass, confirm, or discard/choose/flag/read/play/cite/gift CARD, or novel ID
        """
        words = text.split() if isinstance(text, str) else []
        kind = words[0].lower() if words else ""
        if len(words) == 1 and kind in _SINGLE:
            return _SINGLE.index(kind)
        if len(words) == 2 and kind in _BLOCKS:
            return self.block_start(kind) + Card.parse(words[1]).index
        if len(words) == 2 and kind == "novel":
            return self.novel(words[1])
        raise InvalidNotationError(
            f"invalid atomic action {text!r}: expected draw, take, pass, confirm, or "
            f"{'/'.join(_BLOCKS)} CARD, or novel ID"
        )


def illegal_action(
    space: ActionSpace, action: object, player: int, phase: Phase, stage: Stage
) -> str:
    """What :class:`~pastiche_core.data.errors.IllegalMoveError` says of an atomic action that
    is not legal in ``player``'s decision at ``phase`` and ``stage``.

    >>> illegal_action(ActionSpace(), 0, 2, Phase.KEEP, Stage.START)
    "atomic action 'draw' is not legal now (player 2, keep, start)"
    """
    try:
        text = repr(space.describe(action))  # type: ignore[arg-type]
    except InvalidArgumentError:
        text = repr(action)
    return f"atomic action {text} is not legal now (player {player}, {phase.value}, " + (
        f"{stage.name.lower()})"
    )


def action_index(value: object, size: int) -> int:
    """``value`` as an action index below ``size``, or -1 when it is none (an illegal action).

    >>> action_index(3, 357), action_index(2.0, 357), action_index(400, 357)
    (3, -1, -1)
    """
    try:
        return as_index(value, size)
    except (TypeError, ValueError):
        return -1


def as_index(value: object, size: int) -> int:
    """An integer-like value (a NumPy integer, say) as an action index, else an error."""
    if value.__class__ is int:
        index: int = value
    elif isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(value)
    else:
        index = int(value.__index__())
    if not 0 <= index < size:
        raise ValueError(index)
    return index
