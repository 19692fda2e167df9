"""A fixed action encoding: every decision as a short sequence of atomic actions.

A publish is chosen card by card, so a position can offer tens of thousands of
legal moves. Learning code wants one fixed, small action space with a mask of
the legal actions. :class:`ActionSpace` fixes that space for a catalogue, and
:class:`MoveBuilder` turns a sequence of atomic actions into one game move, with
the mask of the legal atomic actions at every step.

**Layout.** With ``k`` publishable Novels in the catalogue (10 in the default
one), there are ``347 + k`` atomic actions (357 by default); ``c`` is a card's
index in :data:`~pastiche_core.cards.DECK` (0 for ``MYT1`` to 48 for ``MAG13``):

==================  ==================================================================
action              meaning
==================  ==================================================================
``0``               draw: Write ① (R11)
``1``               take: Write ② (R11)
``2``               pass (R11)
``3``               confirm: the cards of the publish being built are complete
``4 + c``           discard hand card ``c`` at setup; the other cards are kept (R10)
``53 + c``          keep drawn card ``c`` (R11)
``102 + c``         put hand card ``c`` under the End Flag (R12)
``151 + c``         read card ``c`` from the Published novel it lies in (R11)
``200 + c``         play hand card ``c`` in the publish being built (R4)
``249 + c``         cite the Masterpiece whose one card is ``c`` (R4, R6)
``298 + c``         give hand card ``c`` as the next gift (R5)
``347 + i``         start a publish of the catalogue's ``i``-th publishable Novel
==================  ==================================================================

**Sequences.** Draw, take, pass, choose, flag and read are one action each. A
setup keep is one discard action per card discarded, in the order they are
discarded: a seat that discards two cards puts the second on top (R15).
A publish is: the Novel; then its cards in the *canonical order* — by rank,
hand cards before Masterpieces within a rank, then by card — each a play or a
cite; then confirm; then one gift action per card owed, to the owners in
ascending seat order (the recipient is implicit: the lowest seat still owed)
and in ascending card order per owner.

**Guarantees** (checked by the property tests): the mask is computed from the
player's view only, without listing publishes; every action the mask allows
leads on to at least one complete move (no dead ends); every sequence of legal
actions ends in exactly one legal move; and every legal move — every publish
card by card, every gift choice included — is the end of exactly one sequence,
so the sequences and the legal moves correspond one to one. The mask of a
publish in progress is exact because a partial choice is checked against the
Novel's rank multisets (R8) with a closed-form test of what the unused hand
cards and Masterpieces can still supply (see :meth:`MoveBuilder.legal_actions`).

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> space = ActionSpace(game.catalogue)
>>> len(space), space.describe(space.DRAW), space.describe(space.play(Card.parse("SCI7")))
(357, 'draw', 'play SCI7')
>>> builder = MoveBuilder(space, game.view(game.to_move))
>>> [space.describe(a) for a in builder.legal_actions()]
['discard MYT1', 'discard HOR7', 'discard HOR8', 'discard FAN10']
>>> builder.push(space.discard(Card.parse("FAN10")))
Move.parse('keep MYT1 HOR7 HOR8')
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, SupportsIndex

from .._kernels import kernel
from ..cards import DECK, Card
from ..catalogue import Catalogue, NovelSpec
from ..errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError
from ..feasibility import (
    CostTally,
    PayableTotals,
    cost_add,
    cost_finish,
    cost_tally,
    kernel_plan,
    least_cost,
    usable_flags,
)
from ..layout import HAND, MASTER, PLACE_MASK, PUBLISHED
from ..movegen import payable_groups
from ..moves import (
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
from ..patterns import Total
from ..rules import Phase, turn_actions

if TYPE_CHECKING:
    from ..view import PlayerView

__all__ = ["ActionSpace", "MoveBuilder", "Stage", "action_index", "illegal_action"]

_CARDS = len(DECK)
_RANKS = 14  # index 0 unused, ranks 1-13
_RANK = tuple(card.rank for card in DECK)
_BLOCKS = ("discard", "choose", "flag", "read", "play", "cite", "gift")
_SINGLE = ("draw", "take", "pass", "confirm")
_FIRST_BLOCK = len(_SINGLE)
_READ_BASE = _FIRST_BLOCK + _BLOCKS.index("read") * _CARDS  # the action reading card 0
_NOVEL_BASE = _FIRST_BLOCK + len(_BLOCKS) * _CARDS  # the action starting the first Novel
_PLAY = 0  # component kinds in the canonical order: hand cards first,
_CITE = 1  # then Masterpieces, within one rank
_PLAY_BASE = _FIRST_BLOCK + _BLOCKS.index("play") * _CARDS  # the action playing card 0
_CITE_BASE = _FIRST_BLOCK + _BLOCKS.index("cite") * _CARDS  # the action citing card 0


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
            novel: _NOVEL_BASE + index for novel, index in self._novel_index.items()
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
        pastiche_core.errors.InvalidArgumentError: 'end-flag' is not a publishable Novel of catalogue 'default'
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
        pastiche_core.errors.InvalidArgumentError: action must be an integer from 0 to 356, got 357
        """
        try:
            index = _as_index(action, self.size)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"action must be an integer from 0 to {self.size - 1}, got {action!r}"
            ) from None
        return self._decode(index)

    def _decode(self, action: int) -> tuple[str, Card | str | None]:
        """:meth:`decode` of an index already checked to be in the space."""
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
        pastiche_core.errors.InvalidNotationError: invalid atomic action 'hop SCI7': expected draw, take, pass, confirm, or discard/choose/flag/read/play/cite/gift CARD, or novel ID
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
    """What :class:`~pastiche_core.errors.IllegalMoveError` says of an atomic action that
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
        return _as_index(value, size)
    except (TypeError, ValueError):
        return -1


def _as_index(value: object, size: int) -> int:
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


class _Table:
    """What the masks of a publish being built read, from the card table of the player's view.

    Per rank: the hand cards, own and other players' Masterpieces (counts; the
    card indexes, ascending, with :meth:`detail`); per card, with :meth:`detail`:
    how many cards of its rank of each sort come after it in card order (the
    canonical order within a rank).
    """

    __slots__ = (
        "above_hand",
        "above_oth",
        "above_own",
        "h",
        "hand",
        "hand_by_rank",
        "limit",
        "masters",
        "oth",
        "oth_by_rank",
        "own",
        "own_by_rank",
        "own_total",
        "pool",
        "search",
    )

    def __init__(self, table: bytes, player: int) -> None:
        if not 0 <= player < len(_READ):
            raise ValueError(f"player {player} is no seat of a card table (0 to 7)")
        hand_code = HAND | player
        own_code = MASTER | player
        hand: list[int] = []
        masters: list[int] = []
        h = [0] * _RANKS
        own = [0] * _RANKS
        oth = [0] * _RANKS
        # Only the hand's cards and the Masterpieces matter: the others read as zero.
        for index in itertools.compress(range(_CARDS), table.translate(_READ[player])):
            place = table[index]
            if place == hand_code:
                hand.append(index)
                h[_RANK[index]] += 1
            else:
                if place == own_code:
                    masters.append(index)
                    own[_RANK[index]] += 1
                else:
                    masters.append(~index)
                    oth[_RANK[index]] += 1
        self.hand = hand
        self.masters = masters
        self.limit = len(hand)
        self.h, self.own, self.oth = h, own, oth
        # Cards available per rank, hand and every Masterpiece together.
        self.pool = tuple([a + b + c for a, b, c in zip(h, own, oth, strict=True)])
        self.own_total = sum(own)
        # Made by detail() when a publish is being built: the start of a turn needs only
        # the counts above.
        self.hand_by_rank: list[list[int]] = []
        self.own_by_rank: list[list[int]] = []
        self.oth_by_rank: list[list[int]] = []
        self.above_hand: list[int] = []
        self.above_own: list[int] = []
        self.above_oth: list[int] = []
        # The Total search of this table, shared by every Total Novel (Python alone).
        self.search: PayableTotals | None = None

    def detail(self) -> None:
        """Per rank, the hand's cards and the own and other Masterpieces, ascending; per card,
        how many cards of its rank come after it in card order, in the hand (for a hand
        card), and among own and other Masterpieces (for one); made once."""
        if self.hand_by_rank:
            return
        hand_by_rank: list[list[int]] = [[] for _ in range(_RANKS)]
        own_by_rank: list[list[int]] = [[] for _ in range(_RANKS)]
        oth_by_rank: list[list[int]] = [[] for _ in range(_RANKS)]
        for index in self.hand:
            hand_by_rank[_RANK[index]].append(index)
        for index in self.masters:  # ascending, another player's stored as ~index
            if index >= 0:
                own_by_rank[_RANK[index]].append(index)
            else:
                oth_by_rank[_RANK[~index]].append(~index)
        above_hand = [0] * _CARDS
        above_own = [0] * _CARDS
        above_oth = [0] * _CARDS
        for rank in range(1, _RANKS):
            group = hand_by_rank[rank]
            for position, index in enumerate(group):
                above_hand[index] = len(group) - position - 1
            mine, others = own_by_rank[rank], oth_by_rank[rank]
            for index in mine:
                above_own[index] = len(mine) - bisect.bisect_right(mine, index)
                above_oth[index] = len(others) - bisect.bisect_right(others, index)
            for index in others:
                above_own[index] = len(mine) - bisect.bisect_right(mine, index)
                above_oth[index] = len(others) - bisect.bisect_right(others, index)
        self.above_hand = above_hand
        self.above_own = above_own
        self.above_oth = above_oth
        self.hand_by_rank = hand_by_rank
        self.own_by_rank = own_by_rank
        self.oth_by_rank = oth_by_rank

    @property
    def hand_size(self) -> int:
        """The hand's cards in all (:class:`~pastiche_core.movegen.Holdings`)."""
        return self.limit

    def payable(self) -> PayableTotals:
        """The Total search of this table, made when first asked."""
        search = self.search
        if search is None:
            search = self.search = PayableTotals(self.pool, self.h, self.own, self.limit)
        return search


def _reads(player: int) -> bytes:
    """The translation of a card table that keeps ``player``'s hand and every Masterpiece."""
    codes = bytearray(256)
    codes[HAND | player] = 1
    for seat in range(8):
        codes[MASTER | seat] = 1
    return bytes(codes)


_READ = [_reads(player) for player in range(8)]
_PUBLISHED = bytes(int(code & PLACE_MASK == PUBLISHED) for code in range(256))


def _readable(table: bytes) -> Iterable[int]:
    """The cards under a Published novel, ascending: those a Read may take (R11)."""
    return itertools.compress(range(_CARDS), table.translate(_PUBLISHED))


@functools.lru_cache(maxsize=8)
def _table_of(table: bytes, player: int) -> _Table:
    """The masks' table of a view's card table, made once per table (only the last few
    views' are kept)."""
    return _Table(table, player)


class _Partial:
    """A publish in progress: the chosen cards and what the rest may still use."""

    __slots__ = ("chosen", "cited", "gifts_owed", "last", "played")

    def __init__(self) -> None:
        self.chosen = [0] * _RANKS  # cards of each rank chosen so far, plays and cites
        self.played: list[int] = []
        self.cited: list[int] = []
        self.gifts_owed = 0  # Masterpieces of other players cited so far (R5)
        self.last: tuple[int, int, int] = (0, _PLAY, -1)  # canonical key of the last card


def _feasible(
    table: _Table,
    combo: Sequence[int],
    chosen: Sequence[int],
    last: tuple[int, int, int],
    played: int,
    owed: int,
) -> bool:
    """Whether the rank counts ``combo`` can be completed from a partial publish.

    The partial publish has chosen ``chosen`` cards per rank, the last of them
    with canonical key ``last`` = (rank, kind, card); ``played`` hand cards and
    ``owed`` gifts so far. Later cards come after ``last`` in the canonical
    order, so ranks below the last one are closed, and at its rank only later
    hand cards (after a play) or later Masterpieces remain. What the ranks
    still short cost is :func:`~pastiche_core.feasibility.least_cost` (own
    Masterpieces free, every other card a card of the hand, at least one hand
    card played: R4, R5); it must fit in the hand.
    """
    last_rank, last_kind, last_card = last
    h, own, oth = table.h, table.own, table.oth
    short: list[tuple[int, int, int, int]] = []
    for rank in range(1, _RANKS):
        need = combo[rank] - chosen[rank]
        if need < 0:
            return False
        if rank < last_rank:
            if need:
                return False
            continue
        if not need:
            continue
        if rank == last_rank:
            if last_kind == _PLAY:
                short.append((need, table.above_hand[last_card], own[rank], oth[rank]))
            else:
                short.append((need, 0, table.above_own[last_card], table.above_oth[last_card]))
        else:
            short.append((need, h[rank], own[rank], oth[rank]))
    cost = least_cost(short, played + owed, played > 0)
    return cost is not None and cost <= table.limit


def _fits(
    need: int,
    hand: int,
    mine: int,
    others: int,
    tally: CostTally,
    played: bool,
    limit: int,
) -> bool:
    """The last step of :func:`_feasible`: one rank's ``need`` added to the ``tally`` of the
    other ranks (:func:`~pastiche_core.feasibility.cost_add`), within the hand."""
    added = cost_add(tally, need, hand, mine, others)
    if added is None:
        return False
    total = cost_finish(added, played)
    return total is not None and total <= limit


def _combos(spec: NovelSpec, table: _Table, first: bool) -> list[bytes]:
    """The rank counts of ``spec``'s multisets that pass :func:`_feasible` (only one if ``first``)."""
    pattern = spec.pattern
    assert pattern is not None
    if type(pattern) is Total:
        # The rank multisets the hand can pay for are exactly those that pass _feasible.
        search = table.payable()
        if first:
            return [b""] if search.exists(pattern.count, pattern.target) else []
        return [bytes(counts) for counts in search.rank_counts(pattern.count, pattern.target)]
    found = []
    for combo in pattern.combinations(table.pool):
        counts = _counts(combo)
        if _feasible(table, counts, _NO_CHOICE, _START, 0, 0):
            found.append(counts)
            if first:
                break
    return found


def _counts(combo: Iterable[int]) -> bytes:
    """A rank multiset as 14 bytes: its cards per rank (index 0 unused)."""
    counts = bytearray(_RANKS)
    for rank in combo:
        counts[rank] += 1
    return bytes(counts)


_NO_CHOICE = (0,) * _RANKS
_START = (0, _PLAY, -1)


# ----------------------------------------------------------------------------
# The mask kernels: Python rules with compiled twins (csrc/masks.c)
# ----------------------------------------------------------------------------
def _start_actions_py(
    table: bytes, player: int, usable: bytes, plan: bytes, read_base: int, novel_base: int
) -> list[int]:
    """The ``start_actions`` kernel in Python: the reads and Novels a player may start.

    From the card ``table`` of the player's view: ``read_base + c`` for every
    card ``c`` under a Published novel (R11), ascending, then ``novel_base +
    i`` for every usable entry ``i`` of ``plan`` with a publish
    (:func:`~pastiche_core.movegen.payable_groups`, R4-R7), ascending.

    >>> from pastiche_core import Game
    >>> from pastiche_core.feasibility import kernel_plan
    >>> view = Game(players=3, seed=7).view(0)
    >>> _start_actions_py(view.card_table, 0, bytes([1] * 10), kernel_plan(view.catalogue),
    ...                   151, 347)
    []
    """
    actions = [read_base + index for index in _readable(table)]
    found = payable_groups(_table_of(bytes(table), player), usable, plan, True)
    actions.extend(novel_base + index for index, _, _ in found)
    return actions


_start_actions = kernel("start_actions", _start_actions_py)


def _publish_start_py(table: bytes, player: int, usable: bytes, plan: bytes) -> list[bytes]:
    """The ``publish_start`` kernel in Python: the rank multisets of a publish being started.

    Every rank multiset with a publish (R4-R7) of the plan's usable entries
    (the caller sets the one Novel started), in the counting kernel's order
    (:func:`~pastiche_core.movegen.payable_groups`),
    each as 14 bytes: its cards per rank.

    >>> from pastiche_core import Game
    >>> from pastiche_core.feasibility import kernel_plan
    >>> view = Game(players=3, seed=7).view(0)
    >>> _publish_start_py(view.card_table, 0, bytes([1] * 10), kernel_plan(view.catalogue))
    []
    """
    found = []
    for _, ranks, needs in payable_groups(_table_of(bytes(table), player), usable, plan, False):
        counts = bytearray(_RANKS)
        for rank, need in zip(ranks, needs, strict=True):
            counts[rank] = need
        found.append(bytes(counts))
    return found


_publish_start = kernel("publish_start", _publish_start_py)


def _feasible_combos_py(
    table: bytes,
    player: int,
    combos: list[bytes],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
) -> list[bytes]:
    """The ``feasible_combos`` kernel in Python: the rank multisets a partial publish can
    still complete (:func:`_feasible`), from the card ``table`` of the player's view.

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(0)
    >>> _feasible_combos_py(view.card_table, 0, [bytes(14)], [0] * 14, 0, 0, -1, 0, 0)
    []
    """
    derived = _table_of(bytes(table), player)
    derived.detail()
    last = (last_rank, last_kind, last_card)
    return [combo for combo in combos if _feasible(derived, combo, chosen, last, played, owed)]


_feasible_combos = kernel("feasible_combos", _feasible_combos_py)


def _cards_mask_py(
    table: bytes,
    player: int,
    combos: list[bytes],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
    confirm: int,
    play_base: int,
    cite_base: int,
) -> list[int]:
    """The ``cards_mask`` kernel in Python: the plays, cites and confirm of a partial publish.

    A pick is legal when some rank multiset of ``combos`` still fits after it
    and can be completed (:func:`_feasible`). The next card of a multiset must
    be of its lowest rank still short (a later card would close that rank), so
    each multiset is checked only for the cards of that one rank: the tally of
    the ranks above it is shared by them. Returns ``confirm`` when the cards
    are complete, then ``play_base + c`` and ``cite_base + c``, ascending.

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(0)
    >>> _cards_mask_py(view.card_table, 0, [], [0] * 14, 0, 0, -1, 0, 0, 3, 200, 249)
    []
    """
    derived = _table_of(bytes(table), player)
    derived.detail()
    base_cost = played + owed
    limit = derived.limit
    h, own, oth = derived.h, derived.own, derived.oth
    above_hand, above_own, above_oth = derived.above_hand, derived.above_own, derived.above_oth
    plays: set[int] = set()
    cites: set[int] = set()
    complete = False
    for combo in combos:
        low = 0
        for rank in range(max(last_rank, 1), _RANKS):
            if combo[rank] > chosen[rank]:
                low = rank
                break
        if not low:
            complete = complete or (played > 0 and base_cost <= limit)
            continue
        tally = cost_tally(
            [
                (short, h[rank], own[rank], oth[rank])
                for rank in range(low + 1, _RANKS)
                if (short := combo[rank] - chosen[rank])
            ],
            base_cost,
        )
        if tally is None:
            continue  # a rank above cannot be filled
        need = combo[low] - chosen[low] - 1  # still short at the low rank after the pick
        paid = (tally[0] + 1, tally[1], tally[2])  # a pick that costs a hand card
        # Within a group, later cards leave fewer cards of the rank after them, and a pick
        # that cannot be completed makes every later one fail too: the loops stop there.
        if last_rank < low or last_kind == _PLAY:
            skip = last_card if last_rank == low else -1
            for index in derived.hand_by_rank[low]:
                if index <= skip or index in plays:
                    continue
                if not _fits(need, above_hand[index], own[low], oth[low], paid, True, limit):
                    break
                plays.add(index)
        skip = last_card if last_rank == low and last_kind == _CITE else -1
        for group, spent in ((derived.own_by_rank[low], tally), (derived.oth_by_rank[low], paid)):
            for index in group:  # an own Masterpiece is free, another's owes a gift (R5)
                if index <= skip or index in cites:
                    continue
                if not _fits(need, 0, above_own[index], above_oth[index], spent, played > 0, limit):
                    break
                cites.add(index)
    actions = [confirm] if complete else []
    actions.extend(play_base + index for index in sorted(plays))
    actions.extend(cite_base + index for index in sorted(cites))
    return actions


_cards_mask = kernel("cards_mask", _cards_mask_py)


class MoveBuilder:
    """The decision of the player to move, built one atomic action at a time.

    Made from the view of the player to move (``game.view(game.to_move)``), so
    the mask never depends on what the player cannot see. :meth:`legal_actions`
    lists the legal atomic actions; :meth:`push` plays one and returns the
    finished :class:`~pastiche_core.moves.Move` (for the caller to apply to the
    game) or ``None`` while the decision goes on. Use a new builder for each
    new position.

    >>> from pastiche_core import Game, parse_cards
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
    >>> space = ActionSpace(game.catalogue)
    >>> builder = MoveBuilder(space, game.view(0))
    >>> [space.describe(a) for a in builder.legal_actions()]
    ['choose SCI5', 'choose FAN11']
    >>> builder.push(space.choose(Card.parse("FAN11")))
    Move.parse('choose FAN11')
    """

    __slots__ = (
        "_combos",
        "_discards",
        "_gifts",
        "_legal",
        "_legal_set",
        "_mps",
        "_novel",
        "_novel_mask",
        "_owed",
        "_partial",
        "_stage",
        "_table",
        "_usable",
        "space",
        "view",
    )

    def __init__(self, space: ActionSpace, view: PlayerView) -> None:
        if view.phase is not Phase.OVER and view.player != view.to_move:
            raise InvalidArgumentError(
                f"a move builder needs the view of the player to move ({view.to_move}), "
                f"got the view of player {view.player}"
            )
        self.space = space
        """The action layout the actions are read in."""
        self.view = view
        """The view of the player to move, whose decision is being built."""
        self._stage = Stage.START
        self._table: _Table | None = None
        self._mps: dict[int, tuple[int, str]] | None = None
        self._usable: bytes | None = None
        self._novel_mask: list[int] | None = None
        self._novel: NovelSpec | None = None
        self._combos: list[bytes] = []  # the Novel's rank multisets still open, 14 bytes each
        self._partial = _Partial()
        self._discards: list[int] = []
        self._owed: list[int] = []  # the owner of each gift owed, in the order asked (R5)
        self._gifts: list[tuple[int, int]] = []
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] = frozenset()

    # ------------------------------------------------------------------
    # What has been chosen (the partial-action state)
    # ------------------------------------------------------------------
    @property
    def stage(self) -> Stage:
        """How far the decision has come."""
        return self._stage

    @property
    def novel(self) -> str | None:
        """The Novel of the publish being built, if any."""
        return None if self._novel is None else self._novel.id

    @property
    def played(self) -> tuple[Card, ...]:
        """Hand cards chosen to play so far."""
        return tuple(DECK[index] for index in self._partial.played)

    @property
    def cited(self) -> tuple[Card, ...]:
        """Cards of the Masterpieces chosen to cite so far."""
        return tuple(DECK[index] for index in self._partial.cited)

    @property
    def gifts(self) -> tuple[Gift, ...]:
        """Gifts chosen so far."""
        return tuple(Gift(owner, DECK[index]) for owner, index in self._gifts)

    @property
    def discards(self) -> tuple[Card, ...]:
        """Setup discards chosen so far."""
        return tuple(DECK[index] for index in self._discards)

    @property
    def owed(self) -> tuple[tuple[int, int], ...]:
        """Gifts still to choose, as (owner, count) in the order they are asked for."""
        left: list[tuple[int, int]] = []
        for owner in self._owed[len(self._gifts) :]:
            if left and left[-1][0] == owner:
                left[-1] = (owner, left[-1][1] + 1)
            else:
                left.append((owner, 1))
        return tuple(left)

    def progress(self) -> tuple[Stage, list[int], list[int], list[int], list[int]]:
        """The stage and the card indexes chosen so far: played, cited, given, discarded.

        The lists are the builder's own (read them, do not change them).

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> builder.progress()
        (<Stage.START: 0>, [], [], [], [])
        """
        partial = self._partial
        gifts = [index for _, index in self._gifts]
        return self._stage, partial.played, partial.cited, gifts, self._discards

    def __repr__(self) -> str:
        parts = [f"player {self.view.player}", self._stage.name.lower()]
        if self._novel is not None:
            parts.append(self._novel.id)
        if self._partial.played or self._partial.cited:
            chosen = " ".join(
                f"{'play' if kind == _PLAY else 'cite'} {DECK[index]}"
                for kind, index in self._components()
            )
            parts.append(chosen)
        if self._discards:
            parts.append("discard " + " ".join(str(DECK[i]) for i in self._discards))
        if self._gifts:
            parts.append("gift " + " ".join(f"{o}:{DECK[i]}" for o, i in self._gifts))
        return f"<MoveBuilder {', '.join(parts)}>"

    def _components(self) -> list[tuple[int, int]]:
        partial = self._partial
        keyed = [(_RANK[i], _PLAY, i) for i in partial.played]
        keyed += [(_RANK[i], _CITE, i) for i in partial.cited]
        keyed.sort()
        return [(kind, index) for _, kind, index in keyed]

    def copy(self) -> MoveBuilder:
        """An independent builder at the same point of the same decision (for search).

        >>> from pastiche_core import Game
        >>> game = Game(players=5, seed=3)
        >>> game.apply(game.legal_moves[0]); game.apply(game.legal_moves[0])
        >>> builder = MoveBuilder(ActionSpace(), game.view(4))  # seat 4 discards two cards
        >>> twin = builder.copy(); twin.push(twin.legal_actions()[0]) is None
        True
        >>> builder.stage, twin.stage
        (<Stage.START: 0>, <Stage.DISCARDING: 1>)
        """
        twin = MoveBuilder(self.space, self.view)
        twin._stage = self._stage
        twin._table = self._table  # read-only once built
        twin._mps = self._mps
        twin._usable = self._usable
        twin._novel_mask = self._novel_mask
        twin._novel = self._novel
        twin._combos = self._combos  # replaced, never changed in place
        partial, copied = self._partial, twin._partial
        copied.chosen = partial.chosen.copy()
        copied.played = partial.played.copy()
        copied.cited = partial.cited.copy()
        copied.gifts_owed = partial.gifts_owed
        copied.last = partial.last
        twin._discards = self._discards.copy()
        twin._owed = self._owed.copy()
        twin._gifts = self._gifts.copy()
        twin._legal = self._legal
        twin._legal_set = self._legal_set
        return twin

    # ------------------------------------------------------------------
    # The mask
    # ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal atomic actions now, ascending; empty only when the game is over.

        In a publish, a play or cite is legal when some rank multiset of the
        Novel (R8) still fits the cards chosen so far and can be completed from
        the unused hand cards and Masterpieces after it in the canonical order,
        paying the gifts from the hand (R4, R5) — a closed-form test per rank
        multiset, so no publish is ever listed.

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> len(builder.legal_actions())
        4
        """
        return list(self._actions())

    def _actions(self) -> list[int]:
        """The legal actions, computed once per step (the caller must not change the list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
            self._legal_set = frozenset(legal)
        return legal

    def _compute_legal(self) -> list[int]:
        view = self.view
        phase = view.phase
        stage = self._stage
        if phase is Phase.ACTION:
            if stage is Stage.START:
                return self._action_mask()
            if stage is Stage.CARDS:
                return self._cards_mask()
            return self._gifts_mask()
        if phase is Phase.KEEP:
            return self._keep_mask()
        if phase is Phase.CHOOSE:
            pending = view.pending
            assert pending is not None  # the view of the chooser shows both cards
            base = self.space.choose(DECK[0])
            return sorted(base + card.index for card in pending)
        if phase is Phase.FLAG:
            base = self.space.flag(DECK[0])
            return [base + card.index for card in view.hand]
        return []

    def mask(self) -> bytearray:
        """The legal actions as a byte per action (1 legal, 0 not), :attr:`ActionSpace.size` long.

        >>> from pastiche_core import Game
        >>> mask = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2)).mask()
        >>> len(mask), sum(mask)
        (357, 4)
        """
        out = bytearray(self.space.size)
        for action in self._actions():
            out[action] = 1
        return out

    def _table_now(self) -> _Table:
        if self._table is None:
            view = self.view
            self._table = _table_of(view.card_table, view.player)
        return self._table

    def _usable_flags(self) -> bytes:
        """The player's usable flags (R6), as the kernels read them."""
        usable = self._usable
        if usable is None:
            view = self.view
            held = {novel.novel for novel in view.tables[view.player]}
            usable = self._usable = usable_flags(view.catalogue, dict(view.supply), held)
        return usable

    def _action_mask(self) -> list[int]:
        view = self.view
        plan = kernel_plan(view.catalogue)
        if plan is None:  # a catalogue without a plan: the reads, then the Novels
            started = [_READ_BASE + index for index in _readable(view.card_table)]
            started += [_NOVEL_BASE + index for index in self._publishable()]
        else:
            started = _start_actions(
                view.card_table, view.player, self._usable_flags(), plan, _READ_BASE, _NOVEL_BASE
            )
        reads = bisect.bisect_left(started, _NOVEL_BASE)
        draw, take, may_pass = turn_actions(view.deck_size, len(view.discard), reads)
        writes = ((ActionSpace.DRAW, draw), (ActionSpace.TAKE, take), (ActionSpace.PASS, may_pass))
        return [action for action, legal in writes if legal] + started

    def _source(self, card: Card) -> NovelRef:
        """The Published novel ``card`` lies in (a legal read's, R11)."""
        for owner, table in enumerate(self.view.tables):
            for novel in table:
                if card in novel.cards:
                    return NovelRef(owner, novel.novel)
        raise AssertionError(f"{card} lies in no novel")  # the mask offered it: unreachable

    def _masterpieces(self) -> dict[int, tuple[int, str]]:
        """Every Masterpiece's card with its (owner, Novel id) (R4, R6)."""
        mps = self._mps
        if mps is None:
            mps = self._mps = {
                novel.cards[0].index: (owner, novel.novel)
                for owner, table in enumerate(self.view.tables)
                for novel in table
                if novel.masterpiece
            }
        return mps

    def _publishable(self) -> list[int]:
        """Indexes (in :attr:`ActionSpace.novels`) of the Novels with a legal publish."""
        if self._novel_mask is not None:
            return self._novel_mask
        found: list[int] = []
        view = self.view
        if view.hand:
            usable = self._usable_flags()
            plan = kernel_plan(view.catalogue)
            if plan is not None:
                payable = payable_groups(self._table_now(), usable, plan, True)
                found = [index for index, _, _ in payable]
            else:
                table = self._table_now()
                own_total = sum(table.own)
                for index, spec in enumerate(self.space.novel_specs):
                    pattern = spec.pattern
                    if pattern is None or not usable[index]:
                        continue  # R6
                    size = pattern.size
                    if size is not None and size > table.limit + own_total:
                        continue  # R5: every card but own Masterpieces costs a hand card
                    if _combos(spec, table, first=True):
                        found.append(index)
        self._novel_mask = found
        return found

    def _cards_mask(self) -> list[int]:
        """Plays, cites and confirm that keep some rank multiset of the Novel completable
        (the ``cards_mask`` kernel)."""
        partial = self._partial
        view = self.view
        return _cards_mask(
            view.card_table,
            view.player,
            self._combos,
            partial.chosen,
            *partial.last,
            len(partial.played),
            partial.gifts_owed,
            ActionSpace.CONFIRM,
            _PLAY_BASE,
            _CITE_BASE,
        )

    def _gifts_mask(self) -> list[int]:
        available, owner_left, later, previous = self._gift_state()
        base = self.space.gift(DECK[0])
        actions = []
        for position, index in enumerate(available):
            if index <= previous:
                continue
            above = len(available) - position - 1
            if above >= owner_left - 1 and len(available) - 1 >= owner_left - 1 + later:
                actions.append(base + index)
        return actions

    def _gift_state(self) -> tuple[list[int], int, int, int]:
        """(cards that may still be given, gifts left for the current owner, gifts
        for later owners, the card given last to the current owner or -1)."""
        used = set(self._partial.played)
        used.update(index for _, index in self._gifts)
        available = [card.index for card in self.view.hand if card.index not in used]
        queue, given = self._owed, len(self._gifts)
        owner = queue[given]
        owner_left = 1
        while given + owner_left < len(queue) and queue[given + owner_left] == owner:
            owner_left += 1
        later = len(queue) - given - owner_left
        previous = -1
        if self._gifts and self._gifts[-1][0] == owner:
            previous = self._gifts[-1][1]
        return available, owner_left, later, previous

    def _keep_mask(self) -> list[int]:
        # R15: the discards come in the order they are discarded, any card first.
        chosen = self._discards
        base = self.space.discard(DECK[0])
        return sorted(base + card.index for card in self.view.hand if card.index not in chosen)

    # ------------------------------------------------------------------
    # Playing actions
    # ------------------------------------------------------------------
    def is_legal(self, action: SupportsIndex) -> bool:
        """Whether ``action`` is legal now.

        >>> from pastiche_core import Game
        >>> MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2)).is_legal(0)
        False
        """
        try:
            index = _as_index(action, self.space.size)
        except (TypeError, ValueError):
            return False
        self._actions()
        return index in self._legal_set

    def push(self, action: SupportsIndex) -> Move | None:
        """Play one atomic action; return the finished move, or ``None`` if more are needed.

        An illegal action raises :class:`~pastiche_core.errors.IllegalMoveError`
        and changes nothing. The move returned is legal in the game the view was
        taken from; apply it there, then build the next decision with a new builder.

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> builder.push(ActionSpace.DRAW)
        Traceback (most recent call last):
        ...
        pastiche_core.errors.IllegalMoveError: atomic action 'draw' is not legal now (player 2, keep, start)
        """
        space = self.space
        try:
            index = _as_index(action, space.size)
        except (TypeError, ValueError):
            index = -1
        self._actions()
        if index not in self._legal_set:
            raise IllegalMoveError(
                illegal_action(space, action, self.view.player, self.view.phase, self._stage)
            )
        kind, argument = space._decode(index)
        view = self.view
        self._legal = None
        if kind == "draw":
            return Draw()
        if kind == "take":
            return TakeDiscard()
        if kind == "pass":
            return Pass()
        if kind == "choose":
            assert isinstance(argument, Card)
            return Choose(argument)
        if kind == "flag":
            assert isinstance(argument, Card)
            return TakeFlag(argument)
        if kind == "read":
            assert isinstance(argument, Card)
            return Read(self._source(argument), argument)
        if kind == "discard":
            assert isinstance(argument, Card)
            self._discards.append(argument.index)
            self._stage = Stage.DISCARDING
            if len(view.hand) - len(self._discards) > view.rules.keep_size:
                return None
            gone = self._discards
            kept = tuple(card for card in view.hand if card.index not in gone)
            if len(gone) < 2:
                return Keep(kept)  # R15: one discard has no order to choose
            return Keep(kept, tuple(DECK[index] for index in gone))
        if kind == "novel":
            assert isinstance(argument, str)
            self._start_publish(space.novel_specs[space.novels.index(argument)])
            return None
        if kind in ("play", "cite"):
            assert isinstance(argument, Card)
            self._choose_card(argument.index, _PLAY if kind == "play" else _CITE)
            return None
        if kind == "confirm":
            return self._confirm()
        assert kind == "gift"
        assert isinstance(argument, Card)
        given = len(self._gifts)
        self._gifts.append((self._owed[given], argument.index))
        if given + 1 < len(self._owed):
            return None
        return self._publish()

    def _start_publish(self, spec: NovelSpec) -> None:
        assert spec.pattern is not None
        self._novel = spec
        self._stage = Stage.CARDS
        view = self.view
        plan = kernel_plan(view.catalogue)
        if plan is None:
            self._combos = _combos(spec, self._table_now(), first=False)
            return
        index = self.space.novel_specs.index(spec)
        only = bytearray(len(self.space.novel_specs))
        only[index] = 1
        self._combos = _publish_start(view.card_table, view.player, bytes(only), plan)

    def _choose_card(self, index: int, kind: int) -> None:
        partial = self._partial
        rank = _RANK[index]
        partial.chosen[rank] += 1
        partial.last = (rank, kind, index)
        if kind == _PLAY:
            partial.played.append(index)
        else:
            partial.cited.append(index)
            if self._masterpieces()[index][0] != self.view.player:
                partial.gifts_owed += 1
        view = self.view
        self._combos = _feasible_combos(
            view.card_table,
            view.player,
            self._combos,
            partial.chosen,
            *partial.last,
            len(partial.played),
            partial.gifts_owed,
        )

    def _confirm(self) -> Move | None:
        mps = self._masterpieces()
        owed: dict[int, int] = {}
        for index in self._partial.cited:
            owner = mps[index][0]
            if owner != self.view.player:
                owed[owner] = owed.get(owner, 0) + 1
        self._owed = [owner for owner, count in sorted(owed.items()) for _ in range(count)]
        if self._owed:
            self._stage = Stage.GIFTS
            return None
        return self._publish()

    def _publish(self) -> Publish:
        mps = self._masterpieces()
        assert self._novel is not None
        # Sorted here as Publish stores them (cards by index, references and gifts by
        # owner first), so no comparison of move objects is needed.
        return Publish.canonical(
            self._novel.id,
            tuple([DECK[index] for index in sorted(self._partial.played)]),
            tuple([NovelRef(*where) for where in sorted([mps[i] for i in self._partial.cited])]),
            tuple([Gift(owner, DECK[index]) for owner, index in sorted(self._gifts)]),
        )

    # ------------------------------------------------------------------
    # From moves to actions
    # ------------------------------------------------------------------
    def actions_for(self, move: Move | str) -> list[int]:
        """The one sequence of atomic actions that ends in ``move`` (from the start).

        Raises :class:`~pastiche_core.errors.IllegalMoveError` if ``move`` is not
        legal in this position, or if this builder has already started a decision.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> space = ActionSpace(game.catalogue)
        >>> [space.describe(a) for a in MoveBuilder(space, game.view(2)).actions_for(
        ...     "keep MYT1 HOR7 HOR8")]
        ['discard FAN10']
        """
        if self._stage is not Stage.START:
            raise IllegalMoveError("actions_for needs a builder at the start of a decision")
        if isinstance(move, str):
            move = Move.parse(move)
        if isinstance(move, Keep):
            move = self._ordered_keep(move)
        actions = self._sequence(move)
        twin = MoveBuilder(self.space, self.view)
        twin._table = self._table
        twin._novel_mask = self._novel_mask
        result: Move | None = None
        for _step, action in enumerate(actions):
            if result is not None or not twin.is_legal(action):
                result = None
                break
            result = twin.push(action)
        if result is None or result != move:
            raise IllegalMoveError(f"'{move}' is not a legal move of player {self.view.player} now")
        return actions

    def _ordered_keep(self, move: Keep) -> Keep:
        """The keep as the game records it (R15): a discard order only for two cards,
        the card order when none is given."""
        kept = set(move.cards)
        dropped = tuple(card for card in self.view.hand if card not in kept)
        if len(dropped) < 2:
            return Keep(move.cards) if move.discard else move
        return move if move.discard else Keep(move.cards, dropped)

    def _sequence(self, move: Move) -> list[int]:
        space = self.space
        if isinstance(move, Draw):
            return [space.DRAW]
        if isinstance(move, TakeDiscard):
            return [space.TAKE]
        if isinstance(move, Pass):
            return [space.PASS]
        if isinstance(move, Choose):
            return [space.choose(move.card)]
        if isinstance(move, TakeFlag):
            return [space.flag(move.card)]
        if isinstance(move, Read):
            return [space.read(move.card)]
        if isinstance(move, Keep):
            if move.discard:
                return [space.discard(card) for card in move.discard]
            kept = set(move.cards)
            return [space.discard(card) for card in self.view.hand if card not in kept]
        if isinstance(move, Publish):
            if move.novel not in space.novels:
                return []
            by_ref = {NovelRef(*where): index for index, where in self._masterpieces().items()}
            keyed = [(card.rank, _PLAY, card.index) for card in move.played]
            for ref in move.cited:
                if ref not in by_ref:
                    return []
                index = by_ref[ref]
                keyed.append((_RANK[index], _CITE, index))
            keyed.sort()
            actions = [space.novel(move.novel)]
            for _, kind, index in keyed:
                card = DECK[index]
                actions.append(space.play(card) if kind == _PLAY else space.cite(card))
            actions.append(space.CONFIRM)
            actions.extend(space.gift(gift.card) for gift in sorted(move.gifts, key=_gift_order))
            return actions
        return []


def _gift_order(gift: Gift) -> tuple[int, int]:
    return (gift.to, gift.card.index)
