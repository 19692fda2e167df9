"""The masks of a publish being built, from the player's view alone (R4-R8).

A publish is chosen card by card (:class:`~pastiche_core.rl.encoding.MoveBuilder`);
the legal next actions are found here: the Novels and reads a player may start,
the rank multisets a partial publish can still complete, and the plays, cites
and confirm that keep one of them within reach. The four kernels
(``start_actions``, ``publish_start``, ``feasible_combos``, ``cards_mask``) have
compiled twins (:mod:`pastiche_core.engine._kernels`).

>>> from pastiche_core import Game
>>> from pastiche_core.engine.feasibility import kernel_plan
>>> view = Game(players=3, seed=7).view(0)
>>> publish_start(view.card_table, 0, bytes([1] * 10), kernel_plan(view.catalogue))
[]
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Iterable, Sequence

from ..data.cards import DECK
from ..data.catalogue import NovelSpec
from ..data.patterns import Total
from ..engine._kernels import kernel
from ..engine.feasibility import (
    CostTally,
    PayableTotals,
    cost_add,
    cost_finish,
    cost_tally,
    least_cost,
)
from ..engine.layout import HAND, MASTER, PLACE_MASK, PUBLISHED
from ..engine.movegen import payable_groups
from .encoding_space import CITE, PLAY

__all__ = [
    "Partial",
    "Table",
    "cards_mask",
    "feasible_combos",
    "publish_start",
    "rank_combos",
    "readable",
    "start_actions",
    "table_of",
]

_CARDS = len(DECK)
_RANKS = 14  # index 0 unused, ranks 1-13
_RANK = tuple(card.rank for card in DECK)


class Table:
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
        """The hand's cards in all (:class:`~pastiche_core.engine.movegen.Holdings`)."""
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


def readable(table: bytes) -> Iterable[int]:
    """The cards under a Published novel, ascending: those a Read may take (R11)."""
    return itertools.compress(range(_CARDS), table.translate(_PUBLISHED))


@functools.lru_cache(maxsize=8)
def table_of(table: bytes, player: int) -> Table:
    """The masks' table of a view's card table, made once per table (only the last few
    views' are kept)."""
    return Table(table, player)


class Partial:
    """A publish in progress: the chosen cards and what the rest may still use."""

    __slots__ = ("chosen", "cited", "gifts_owed", "last", "played")

    def __init__(self) -> None:
        self.chosen = [0] * _RANKS  # cards of each rank chosen so far, plays and cites
        self.played: list[int] = []
        self.cited: list[int] = []
        self.gifts_owed = 0  # Masterpieces of other players cited so far (R5)
        self.last: tuple[int, int, int] = (0, PLAY, -1)  # canonical key of the last card


def _feasible(
    table: Table,
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
    still short cost is :func:`~pastiche_core.engine.feasibility.least_cost` (own
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
            if last_kind == PLAY:
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
    other ranks (:func:`~pastiche_core.engine.feasibility.cost_add`), within the hand."""
    added = cost_add(tally, need, hand, mine, others)
    if added is None:
        return False
    total = cost_finish(added, played)
    return total is not None and total <= limit


def rank_combos(spec: NovelSpec, table: Table, first: bool) -> list[bytes]:
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
_START = (0, PLAY, -1)


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
    (:func:`~pastiche_core.engine.movegen.payable_groups`, R4-R7), ascending.

    >>> from pastiche_core import Game
    >>> from pastiche_core.engine.feasibility import kernel_plan
    >>> view = Game(players=3, seed=7).view(0)
    >>> _start_actions_py(view.card_table, 0, bytes([1] * 10), kernel_plan(view.catalogue),
    ...                   151, 347)
    []
    """
    actions = [read_base + index for index in readable(table)]
    found = payable_groups(table_of(bytes(table), player), usable, plan, True)
    actions.extend(novel_base + index for index, _, _ in found)
    return actions


start_actions = kernel("start_actions", _start_actions_py)


def _publish_start_py(table: bytes, player: int, usable: bytes, plan: bytes) -> list[bytes]:
    """The ``publish_start`` kernel in Python: the rank multisets of a publish being started.

    Every rank multiset with a publish (R4-R7) of the plan's usable entries
    (the caller sets the one Novel started), in the counting kernel's order
    (:func:`~pastiche_core.engine.movegen.payable_groups`),
    each as 14 bytes: its cards per rank.

    >>> from pastiche_core import Game
    >>> from pastiche_core.engine.feasibility import kernel_plan
    >>> view = Game(players=3, seed=7).view(0)
    >>> _publish_start_py(view.card_table, 0, bytes([1] * 10), kernel_plan(view.catalogue))
    []
    """
    found = []
    for _, ranks, needs in payable_groups(table_of(bytes(table), player), usable, plan, False):
        counts = bytearray(_RANKS)
        for rank, need in zip(ranks, needs, strict=True):
            counts[rank] = need
        found.append(bytes(counts))
    return found


publish_start = kernel("publish_start", _publish_start_py)


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
    derived = table_of(bytes(table), player)
    derived.detail()
    last = (last_rank, last_kind, last_card)
    return [combo for combo in combos if _feasible(derived, combo, chosen, last, played, owed)]


feasible_combos = kernel("feasible_combos", _feasible_combos_py)


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
    derived = table_of(bytes(table), player)
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
        if last_rank < low or last_kind == PLAY:
            skip = last_card if last_rank == low else -1
            for index in derived.hand_by_rank[low]:
                if index <= skip or index in plays:
                    continue
                if not _fits(need, above_hand[index], own[low], oth[low], paid, True, limit):
                    break
                plays.add(index)
        skip = last_card if last_rank == low and last_kind == CITE else -1
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


cards_mask = kernel("cards_mask", _cards_mask_py)
