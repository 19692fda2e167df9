"""The playout policy's publishes, costed from counts alone (R4-R7).

For each usable Novel, its first :data:`~pastiche_core.ai.playout.COMBINATIONS_PER_NOVEL`
rank combinations of the hand and the Masterpieces on the table, each filled the
fewest-gifts way and, when it cites another player's Masterpiece, the
most-citations way, valued in points (:func:`publish_value`): the
``policy_publishes`` kernel, whose Python rule is here and whose compiled twin
is reached through :mod:`pastiche_core.engine._kernels`. The policy itself is
:class:`~pastiche_core.ai.playout.PlayoutPolicy`.

>>> publish_value(3, 1, 0, -1, (0.67, 0.25, 0.03))
2.97
"""

from __future__ import annotations

import array
import functools
import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import cast

from ..data.errors import InvalidArgumentError
from ..data.patterns import OfAKind, Pairs, Pattern, Straight, Total
from ..engine._kernels import kernel
from ..engine.feasibility import KIND_CODES, fill_rank, rank_cost, rank_runs, settle

__all__ = [
    "Runs",
    "Spec",
    "Weights",
    "costed_publishes",
    "policy_publishes",
    "publish_value",
    "read_maturity",
    "size_of",
]


def read_maturity(cards: int, base: float) -> float:
    """The share of a Novel's points a novel with ``cards`` cards under it is worth."""
    return base ** (cards - 1)


Runs = tuple[tuple[int, int], ...]
"""A rank multiset as ``(rank, count)`` runs, ranks ascending."""
_Novel = tuple[int, Pattern, int]
"""A Novel as the costing reads it: its points, its pattern and its size (-1 when unknown)."""
Spec = tuple[str, _Novel]
"""A publishable Novel of the catalogue: its id and the Novel as the costing reads it."""
Weights = tuple[float, float, float]
"""The weights the costing reads: maturity, gift_cost, card_cost (:class:`PolicyWeights`)."""
_Costed = tuple[float, int, Runs, bool]
"""A costed publish: its value, its Novel's index in the plan, its runs, cite first."""


def size_of(pattern: Pattern) -> int:
    """A pattern's number of cards, -1 when it has no fixed size (as the plan has it)."""
    size = pattern.size
    return -1 if size is None else size


def _policy_publishes_py(
    in_hand: Sequence[int],
    own: Sequence[int],
    others: Sequence[int],
    hand_size: int,
    plan: bytes,
    usable: bytes,
    weights: Weights,
    turns_left: int,
    limit: int,
    floor: float,
) -> list[_Costed]:
    """The publishes the policy considers, costed from counts, best first (the kernel's rule).

    The ``policy_publishes`` kernel in Python: :func:`costed_publishes` over the Novels of
    ``plan`` (:mod:`pastiche_core.engine.layout`). ``in_hand``, ``own`` and ``others``
    count the hand cards and the player's and the other players' Masterpieces
    per rank; ``usable`` flags the Novels the player may publish (R6);
    ``weights`` is ``(maturity, gift_cost, card_cost)``; ``turns_left`` is -1
    before the countdown (R12); ``limit`` is the combinations per Novel.

    >>> import math
    >>> from pastiche_core import Catalogue
    >>> from pastiche_core.engine.feasibility import kernel_plan
    >>> plan = kernel_plan(Catalogue.default())
    >>> usable = bytes([0, 0, 0, 0, 1, 0, 0, 0, 0, 0])  # kind-3 alone
    >>> hand = [0] * 14; hand[7] = 3
    >>> costed = _policy_publishes_py(hand, [0] * 14, [0] * 14, 4, plan, usable,
    ...                               (0.67, 0.25, 0.03), -1, 6, -math.inf)
    >>> [(round(value, 3), index, runs, cite) for value, index, runs, cite in costed]
    [(0.359, 4, ((7, 3),), False)]
    """
    return costed_publishes(
        _plan_novels(plan),
        in_hand,
        own,
        others,
        hand_size,
        usable,
        weights,
        turns_left,
        limit,
        floor,
    )


policy_publishes = kernel("policy_publishes", _policy_publishes_py)


def costed_publishes(
    novels: Sequence[_Novel],
    in_hand: Sequence[int],
    own: Sequence[int],
    others: Sequence[int],
    hand_size: int,
    usable: bytes,
    weights: Weights,
    turns_left: int,
    limit: int,
    floor: float,
) -> list[_Costed]:
    """The publishes :meth:`PlayoutPolicy.publishes` considers, costed from counts, best first.

    Each is ``(value, Novel index, runs, cite_first)``: for each usable Novel,
    its first ``limit`` rank combinations, each filled the fewest-gifts way
    and, when it could cite another player's Masterpiece, the most-citations
    way; the fills R4 and R5 allow that are worth more than ``floor``. Ties
    keep the order found.

    >>> novels = [(1, Straight(3), 3), (2, OfAKind(2), 2)]
    >>> hand = [0] * 14; hand[4:7] = [2, 1, 1]
    >>> [(round(value, 3), index, runs) for value, index, runs, _ in costed_publishes(
    ...     novels, hand, [0] * 14, [0] * 14, 4, b"\x01\x01", (0.67, 0.25, 0.03), -1, 6, 0.0)]
    [(1.28, 1, ((4, 2),)), (0.359, 0, ((4, 1), (5, 1), (6, 1)))]
    """
    if len(usable) != len(novels):
        raise InvalidArgumentError(
            f"usable flags: one per Novel of the plan ({len(novels)}), got {len(usable)}"
        )
    available = tuple(in_hand[rank] + own[rank] + others[rank] for rank in range(14))
    mine = sum(own)
    citable = mine + sum(others)
    maturity, _, card_cost = weights
    best: list[tuple[float, int, int, Runs, bool]] = []
    order = 0
    for index, (points, pattern, size) in enumerate(novels):
        if not usable[index]:
            continue
        if size > 0:
            if rank_cost(size, mine) > hand_size:
                continue  # R5: every card but the own Masterpieces costs a hand card
            fewest = _fewest_played(size, citable)
            bound = points * read_maturity(fewest, maturity) - card_cost * fewest
            if bound <= floor:
                continue
        for runs in _combinations(pattern, available, limit):
            pastiche = False
            for rank, _ in runs:
                if others[rank]:
                    pastiche = True
                    break
            for cite_first in (False, True) if pastiche else (False,):
                costs = _costs(runs, in_hand, own, others, cite_first, hand_size)
                if costs is None:
                    continue
                value = publish_value(points, costs[0], costs[1], turns_left, weights)
                if value <= floor:
                    continue
                order += 1
                best.append((-value, order, index, runs, cite_first))
    best.sort()
    return [(-negative, index, runs, cite_first) for negative, _, index, runs, cite_first in best]


def _fewest_played(size: int, citable: int) -> int:
    """The fewest hand cards a publish of ``size`` cards plays with ``citable`` Masterpieces.

    Every Masterpiece cited, the rest played; at least one card played (R4).

    >>> _fewest_played(5, 2), _fewest_played(3, 4)
    (3, 1)
    """
    settled = settle(rank_cost(size, citable), 0, True, size)
    return 1 if settled is None else settled[0]


_PLAN_NOVELS: dict[bytes, tuple[_Novel, ...]] = {}
"""The Novels of the plans read, by plan."""
_PATTERNS: dict[int, Callable[[int, int], Pattern]] = {
    KIND_CODES[Straight]: lambda first, _: Straight(first),
    KIND_CODES[OfAKind]: lambda first, _: OfAKind(first),
    KIND_CODES[Pairs]: lambda first, _: Pairs(first),
    KIND_CODES[Total]: Total,
}
"""Each kind code's pattern from the plan's first and second parameters."""


def _plan_novels(plan: bytes) -> tuple[_Novel, ...]:
    """The Novels of a plan (:mod:`pastiche_core.engine.layout`) as the costing reads them.

    >>> _plan_novels(array.array("i", [3, 5, 49, 5, 2]).tobytes())
    ((2, Total(count=5, target=49), 5),)
    """
    found = _PLAN_NOVELS.get(plan)
    if found is None:
        if len(plan) % 20:
            raise InvalidArgumentError(f"a plan holds five int32 per Novel, got {len(plan)} bytes")
        values = array.array("i", plan)
        novels: list[_Novel] = []
        for at in range(0, len(values), 5):
            kind, first, second, size, points = values[at : at + 5]
            make = _PATTERNS.get(kind)
            try:
                if make is None:
                    raise ValueError(f"kind {kind} is not a built-in pattern kind")
                pattern: Pattern = make(first, second)
            except ValueError as error:
                raise InvalidArgumentError(f"plan entry {at // 5}: {error}") from None
            novels.append((points, pattern, size))
        found = tuple(novels)
        if len(_PLAN_NOVELS) >= 64:
            _PLAN_NOVELS.clear()
        _PLAN_NOVELS[bytes(plan)] = found
    return found


def _combinations(pattern: Pattern, available: tuple[int, ...], limit: int) -> tuple[Runs, ...]:
    """The first ``limit`` rank combinations of ``pattern`` over ``available``, as runs.

    Cached for hashable patterns (every built-in kind); a user-defined pattern
    that cannot be hashed is asked each time.
    """
    if type(pattern) is Total:
        found = _total_combinations(pattern.count, pattern.target, available, limit)
        return tuple(rank_runs(combo) for combo in found)
    try:
        return _cached_combinations(cast(Hashable, pattern), available, limit)
    except TypeError:
        listed = itertools.islice(pattern.combinations(available), limit)
        return tuple(rank_runs(combo) for combo in listed)


def _total_combinations(
    count: int, target: int, available: Sequence[int], limit: int
) -> tuple[tuple[int, ...], ...]:
    """Up to ``limit`` multisets of ``count`` available ranks adding up to ``target``.

    A depth-first search from the highest rank that stops at ``limit``
    answers: the built-in walk of :class:`~pastiche_core.data.patterns.Total` lists
    them all in sorted order, which a playout does not need.

    >>> from pastiche_core.data.patterns import rank_counts
    >>> _total_combinations(2, 5, rank_counts([1, 2, 3, 4]), 9)
    ((1, 4), (2, 3))
    """
    if limit < 1:
        return ()
    ranks = [rank for rank in range(13, 0, -1) if available[rank]]
    # The cards highest first; prefix sums bound what the cards from a rank down can add to.
    cards = [rank for rank in ranks for _ in range(min(available[rank], count))]
    prefix = [0]
    for rank in cards:
        prefix.append(prefix[-1] + rank)
    start = {}
    for position in range(len(cards) - 1, -1, -1):
        start[cards[position]] = position
    end = len(cards)
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def walk(index: int, left: int, need: int) -> None:
        if left == 0:
            if need == 0:
                found.append(tuple(sorted(chosen)))
            return
        if index == len(ranks):
            return
        rank = ranks[index]
        first = start[rank]
        if end - first < left:
            return
        highest = prefix[first + left] - prefix[first]
        lowest = prefix[end] - prefix[end - left]
        if need > highest or need < lowest:
            return  # the cards left cannot make the sum
        for taken in range(min(available[rank], left, need // rank), -1, -1):
            chosen.extend([rank] * taken)
            walk(index + 1, left - taken, need - taken * rank)
            del chosen[len(chosen) - taken :]
            if len(found) >= limit:
                return

    walk(0, count, target)
    return tuple(found)


@functools.lru_cache(maxsize=8192)
def _cached_combinations(
    pattern: Hashable, available: tuple[int, ...], limit: int
) -> tuple[Runs, ...]:
    combinations = cast(Pattern, pattern).combinations(available)
    return tuple(rank_runs(combo) for combo in itertools.islice(combinations, limit))


def _costs(
    runs: Runs,
    in_hand: Sequence[int],
    own: Sequence[int],
    others: Sequence[int],
    cite_first: bool,
    hand_size: int,
) -> tuple[int, int] | None:
    """``(cards played, gifts)`` of filling ``runs`` one way, or ``None`` if R4 or R5 fails.

    Each rank is filled by :func:`~pastiche_core.engine.feasibility.fill_rank` (own
    Masterpieces, then the hand or, with ``cite_first``, other players'
    Masterpieces first); :func:`~pastiche_core.engine.feasibility.settle` applies R4
    (an own Masterpiece gives way to a hand card of its rank when none is
    played) and R5 (the gifts fit the cards not played).

    >>> hand = [0] * 14; hand[7] = 1
    >>> own = [0] * 14; own[7] = 1
    >>> _costs(((7, 2),), hand, own, [0] * 14, False, 3), _costs(((7, 1),), hand, own, own, False, 1)
    ((1, 0), (1, 0))
    """
    played = gifts = 0
    spare = False
    for rank, need in runs:
        cards = in_hand[rank]
        mine, from_hand, cited, short = fill_rank(
            need, cards, own[rank], others[rank], cite_first=cite_first
        )
        if short:
            return None
        if mine and cards:
            spare = True  # an own citation that a hand card of its rank may replace (R4)
        played += from_hand
        gifts += cited
    return settle(played, gifts, spare, hand_size)


def publish_value(points: int, played: int, gifts: int, turns_left: int, weights: Weights) -> float:
    """A publish's value: points by maturity, less its gifts and cards (R5, R7, R12).

    ``turns_left`` is -1 before the countdown; ``weights`` is ``(maturity,
    gift_cost, card_cost)``.

    >>> publish_value(3, 1, 0, -1, (0.67, 0.25, 0.03)), publish_value(3, 2, 1, 1, (0.5, 0.25, 0.0))
    (2.97, 0.125)
    """
    maturity, gift_cost, card_cost = weights
    value = points * read_maturity(played, maturity)
    if played > 1 and 0 <= turns_left < played:
        value *= 0.25  # the countdown may end before it is read down (R12)
    return value - gift_cost * gifts - card_cost * played
