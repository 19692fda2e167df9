"""What a publish costs and whether it can be made (R4–R7): the one home of these rules.

Everything in the library that asks whether a publish is possible, or what it
costs, asks here: the rules engine (:mod:`~pastiche_core.engine.game` and
:mod:`~pastiche_core.engine.movegen`), the solvers, the atomic actions of
:mod:`~pastiche_core.rl` and the bots' playouts and evaluations. The compiled
kernels are twins of these functions, tested against them. (The CP-SAT model
keeps its own formulation and the brute force of the tests stays independent:
they are the checks.)

**A publish's cards** (R4): the played cards plus one card per cited
Masterpiece make the Novel's rank multiset. **Its cost** (R5): every card but
the player's own Masterpieces is a card of the hand, played or given as a gift,
so filling a rank of ``need`` cards with ``own`` of the player's Masterpieces
there costs at least ``need - own`` hand cards (:func:`rank_cost`); a publish
plays at least one hand card (R4), so when the player's own Masterpieces would
fill it all, one of them gives way to a hand card of its rank (:func:`settle`).
:func:`least_cost` and :func:`fill_rank` build on these two.

**One rank's fills** (:func:`rank_shapes`): every way to take a rank's cards
from the hand and from each owner's Masterpieces, with the ways to choose the
cards and the gifts it owes, packed per owner (:data:`OWED_BITS`, R5).

**The pattern kinds the kernels know** (:func:`pattern_code`, :func:`kernel_plan`).

>>> from pastiche_core import Catalogue, parse_cards
>>> hand = parse_cards("SCI7 HOR7 MYS7")
>>> publish_violation(Catalogue.default(), "kind-3", supply={"kind-3": 5}, holds=False,
...                   hand=hand, played=hand[:2], cited=[(1, 7)], resolve=lambda c: c,
...                   player=0, who="player 0")
(None, {1: 1})
>>> least_cost([(3, 2, 0, 1)])  # three 7s: two in hand, one Masterpiece of another player
3
"""

from __future__ import annotations

import array
import functools
import itertools
import math
import operator
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from ..data.cards import Card, format_cards
from ..data.catalogue import Catalogue
from ..data.patterns import OfAKind, Pairs, Straight, Total
from ._kernels import kernel

__all__ = [
    "KIND_CODES",
    "OWED_BITS",
    "CostTally",
    "Entry",
    "PayableTotals",
    "RankKey",
    "Shape",
    "cost_add",
    "cost_finish",
    "cost_floor",
    "cost_tally",
    "fill_rank",
    "gift_count",
    "gift_ways",
    "kernel_plan",
    "least_cost",
    "mark_own",
    "owed_pairs",
    "owed_text",
    "pattern_code",
    "publish_violation",
    "rank_cost",
    "rank_runs",
    "rank_shapes",
    "rank_table",
    "settle",
    "usable_flags",
]

_Ref = TypeVar("_Ref")


# home: R4.check
def publish_violation(
    catalogue: Catalogue,
    novel: str,
    *,
    supply: Mapping[str, int],
    holds: bool,
    hand: Collection[Card],
    played: Sequence[Card],
    cited: Sequence[_Ref],
    resolve: Callable[[_Ref], tuple[int, int] | str],
    player: int,
    who: str,
) -> tuple[str | None, dict[int, int]]:
    """Check a publish against R2, R4, R6 and R12; return (violation, gifts owed per owner).

    ``resolve`` turns a citation into the cited Masterpiece's (owner, rank), or
    into the reason it cannot be cited. ``who`` names the publisher in messages
    (``"player 2"`` or ``"the player"``). The violation is ``None`` when the
    publish is legal up to its gifts, which the caller checks against the
    returned owed counts (R5).

    >>> from pastiche_core import Catalogue, parse_cards
    >>> publish_violation(Catalogue.default(), "kind-3", supply={"kind-3": 5}, holds=False,
    ...                   hand=[], played=[], cited=[], resolve=lambda c: c, player=0,
    ...                   who="the player")
    ('a publish must play at least one card from the hand (R4)', {})
    """
    if novel not in catalogue:
        return f"unknown novel {novel!r} in catalogue {catalogue.name!r} (R2)", {}
    spec = catalogue[novel]
    if spec.pattern is None:
        return "the End Flag cannot be published (R12)", {}
    if supply[novel] <= 0:
        return f"no copy of {novel} is left in the supply (R6)", {}
    if holds:
        return f"{who} already holds {novel} (R6)", {}
    if not played:
        return "a publish must play at least one card from the hand (R4)", {}
    if len(set(played)) != len(played):
        return "a card is played twice (R4)", {}
    missing = [card for card in played if card not in hand]
    if missing:
        whose = "the hand" if who == "the player" else f"{who}'s hand"
        return f"{format_cards(missing)} not in {whose} (R4)", {}
    if len(set(cited)) != len(cited):
        return "a Masterpiece is cited twice (R4)", {}
    ranks = [card.rank for card in played]
    owed: dict[int, int] = {}
    for ref in cited:
        found = resolve(ref)
        if isinstance(found, str):
            return found, {}
        owner, rank = found
        ranks.append(rank)
        if owner != player:  # R5: citing one's own Masterpiece is free
            owed[owner] = owed.get(owner, 0) + 1
    if not spec.pattern.matches(ranks):
        return (
            f"ranks {' '.join(map(str, sorted(ranks)))} do not satisfy {novel}: "
            f"{spec.requirement}, nothing more (R4)"
        ), {}
    return None, owed


def owed_text(owed: Mapping[int, int]) -> str:
    """The R5 message for gifts that do not match the citations.

    >>> owed_text({1: 2})
    'gifts must be one card per cited Masterpiece of another player: 2 to player 1 (R5)'
    """
    want = ", ".join(f"{n} to player {p}" for p, n in sorted(owed.items())) or "none"
    return f"gifts must be one card per cited Masterpiece of another player: {want} (R5)"


# ----------------------------------------------------------------------------
# The cost of a publish (R4, R5)
# ----------------------------------------------------------------------------
def rank_runs(combo: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``(rank, count)`` for each distinct rank of a sorted rank multiset, in order.

    Kept for the last :data:`_RUNS_KEPT` multisets: the counting, the listing and the
    optima of one position split the same multisets, and so do a playout's publishes.
    A user-defined pattern may give a list rather than a tuple (R3); it is read as one.

    >>> rank_runs((7, 7, 9))
    ((7, 2), (9, 1))
    >>> rank_runs([3, 4, 4]) == rank_runs((3, 4, 4))
    True
    """
    key = combo if type(combo) is tuple else tuple(combo)
    known = _RUNS.get(key)
    if known is not None:
        return known
    runs: list[tuple[int, int]] = []
    for rank in key:
        if runs and runs[-1][0] == rank:
            runs[-1] = (rank, runs[-1][1] + 1)
        else:
            runs.append((rank, 1))
    if len(_RUNS) >= _RUNS_KEPT:
        _RUNS.clear()
    found = _RUNS[key] = tuple(runs)
    return found


_RUNS_KEPT = 4096
"""Rank multisets whose runs :func:`rank_runs` keeps (the values are immutable)."""
_RUNS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}


# home: R5.cost
def rank_cost(need: int, own: int) -> int:
    """The fewest hand cards (played or given, R5) that ``need`` cards of one rank cost.

    Only the player's own Masterpieces are free to cite; any other card of the
    rank is a hand card played, or another player's Masterpiece paid with a
    gift from the hand.

    >>> rank_cost(3, 1), rank_cost(1, 2)
    (2, 0)
    """
    return need - own if need > own else 0


def fill_rank(
    need: int, hand: int, own: int, others: int, *, cite_first: bool = False
) -> tuple[int, int, int, int]:
    """One way to fill ``need`` cards of a rank: ``(own cited, played, others cited, short)``.

    The player's own Masterpieces first (free, R5); then hand cards before
    other players' Masterpieces, or the reverse with ``cite_first``; ``short``
    cards are left that none of them can supply (the fill is then impossible).

    >>> fill_rank(3, 1, 1, 2)
    (1, 1, 1, 0)
    >>> fill_rank(3, 1, 1, 2, cite_first=True), fill_rank(4, 1, 0, 1)
    ((1, 0, 2, 0), (0, 1, 1, 2))
    """
    mine = need if need < own else own
    left = need - mine
    if cite_first:
        cited = left if left < others else others
        played = min(left - cited, hand)
    else:
        played = left if left < hand else hand
        cited = min(left - played, others)
    return mine, played, cited, left - played - cited


def settle(played: int, gifts: int, spare: bool, hand_size: int) -> tuple[int, int] | None:
    """A fill's ``(played, gifts)`` once R4 and R5 are applied, or ``None`` if it breaks one.

    R4: a publish plays at least one hand card; when a fill plays none, one of
    the player's own Masterpieces it cites gives way to a hand card of the
    same rank, if there is such a ``spare`` pair. R5: every gift is a hand
    card that is not played.

    >>> settle(0, 1, True, 3), settle(0, 0, False, 3), settle(2, 2, False, 3)
    ((1, 1), None, None)
    """
    if not played:
        if not spare:
            return None
        played = 1
    if gifts > hand_size - played:
        return None
    return played, gifts


CostTally = tuple[int, bool, bool]
"""A publish's cost so far, rank by rank: (hand cards, a rank has a hand card, a hand card is
played at no extra cost); :func:`cost_add` adds a rank, :func:`cost_finish` closes it."""


def cost_add(tally: CostTally, need: int, hand: int, own: int, others: int) -> CostTally | None:
    """The tally with one more rank of ``need`` cards, or ``None`` if they cannot all be found.

    ``hand``, ``own`` and ``others`` are the rank's hand cards, own Masterpieces
    and other players' Masterpieces that may fill it. Every card but an own
    Masterpiece costs a hand card (:func:`rank_cost`, R5); the flags remember
    whether the rank could take a hand card (R4) and whether one is played at
    no extra cost. The order of the ranks does not matter.

    >>> cost_add((0, False, False), 3, 1, 1, 2)
    (2, True, True)
    >>> cost_add((0, False, False), 3, 1, 1, 0) is None, cost_add((5, True, False), 0, 0, 0, 0)
    (True, (5, True, False))
    """
    return _tally(tally, ((need, hand, own, others),))


# home: R4.cost
def cost_finish(tally: CostTally, played: bool) -> int | None:
    """The fewest hand cards of the tallied publish, or ``None`` when R4 cannot be met.

    ``played`` says whether a hand card is already played. Otherwise one must
    be (R4): none can when no rank has a hand card; when every rank is filled
    by own Masterpieces, one of them gives way to a hand card of its rank,
    which costs one more card.

    >>> cost_finish((2, True, False), False), cost_finish((2, False, False), False)
    (3, None)
    >>> cost_finish((2, False, False), True)
    2
    """
    cost, any_hand, excess = tally
    if played:
        return cost
    if not any_hand:
        return None  # R4: no hand card can be played
    return cost if excess else cost + 1  # R4: an own Masterpiece gives way to a hand card


def cost_tally(ranks: Iterable[tuple[int, int, int, int]], spent: int = 0) -> CostTally | None:
    """The tally of several ranks at once: :func:`cost_add` of each, from ``spent`` hand cards.

    ``None`` when a rank cannot be filled.

    >>> cost_tally([(3, 1, 1, 2), (1, 1, 0, 0)])
    (3, True, True)
    """
    return _tally((spent, False, False), ranks)


def _tally(tally: CostTally, ranks: Iterable[tuple[int, int, int, int]]) -> CostTally | None:
    """:func:`cost_add` of each rank in turn: the definition, one loop for the hot paths."""
    cost, any_hand, excess = tally
    for need, hand, own, others in ranks:
        if not need:
            continue
        if need > hand + own + others:
            return None
        if need > own:
            cost += need - own  # rank_cost(need, own)
            if hand:
                excess = True  # a hand card is played at no extra cost
        if hand:
            any_hand = True
    return cost, any_hand, excess


def least_cost(
    ranks: Iterable[tuple[int, int, int, int]], spent: int = 0, played: bool = False
) -> int | None:
    """The fewest hand cards a publish of these ranks costs (R4, R5), or ``None`` if impossible.

    Each item is one rank: ``(need, hand, own, others)`` cards needed, and the
    hand cards, own Masterpieces and other players' Masterpieces that may fill
    it. ``spent`` hand cards are already played or owed, and ``played`` says
    whether a hand card is among them. The publish can be paid for when the
    cost is at most the hand size (R5). The ranks' :func:`cost_tally`, closed
    by :func:`cost_finish`.

    >>> least_cost([(2, 1, 2, 0)])  # two own Masterpieces would do: one gives way (R4)
    1
    >>> least_cost([(2, 0, 2, 0)]) is None, least_cost([(3, 1, 0, 1)]) is None
    (True, True)
    """
    tally = cost_tally(ranks, spent)
    return None if tally is None else cost_finish(tally, played)


# ----------------------------------------------------------------------------
# One rank's fills and their gifts (R4, R5); the pattern kinds of the kernels
# ----------------------------------------------------------------------------
OWED_BITS = 8  # gifts owed per owner, packed into one integer (adding merges)


Shape = tuple[int, tuple[int, ...], int, int, int]


RankKey = tuple[int, int, tuple[int, ...]]


Entry = tuple[int, int, int]


def cost_floor(ranks: Sequence[int], needs: Sequence[int], own: Sequence[int]) -> list[int]:
    """Per index, the fewest hand cards the ranks from there on cost (R5), then 0.

    Every card but the player's own Masterpieces is a hand card, played or given.

    >>> cost_floor([4, 5, 6], [1, 1, 1], [0] * 5 + [1] + [0] * 8)  # own Masterpiece of rank 5
    [2, 1, 1, 0]
    """
    width = len(ranks)
    floor = [0] * (width + 1)
    cost = 0
    for index in range(width - 1, -1, -1):
        cost += rank_cost(needs[index], own[ranks[index]])
        floor[index] = cost
    return floor


@functools.lru_cache(maxsize=1 << 14)
def rank_table(key: RankKey) -> tuple[Entry, ...]:
    """The shapes of a rank merged by (hand cards, gifts owed per owner), cheapest first.

    >>> table = rank_table((2, 1, (0, 2)))  # a pair: 1 in hand, 2 Masterpieces of seat 1
    >>> [(cost, weight) for cost, _, weight in table]  # the card and one; both Masterpieces
    [(2, 2), (2, 1)]
    """
    merged: dict[tuple[int, int, int], int] = {}
    for from_hand, _, weight, code, extra in rank_shapes(key):
        slot = (from_hand + extra, (code << 16) + ((from_hand + extra) << 8) + from_hand, 0)
        merged[slot] = merged.get(slot, 0) + weight
    return tuple(sorted((cost, step, weight) for (cost, step, _), weight in merged.items()))


KIND_CODES = {Straight: 0, OfAKind: 1, Pairs: 2, Total: 3}
"""The pattern kinds the compiled kernel counts, by its codes (exact types: a subclass may differ)."""


def pattern_code(pattern: object, *, exact: bool = True) -> tuple[int, int, int] | None:
    """A built-in pattern as the compiled kernels read it: (kind code, first, second parameter).

    ``exact``: only the built-in classes themselves (a subclass may list its
    combinations otherwise); else a subclass is coded as its kind. ``None`` for
    any other pattern.

    >>> pattern_code(Total(5, 49)), pattern_code(Pairs(2)), pattern_code("x")
    ((3, 5, 49), (2, 2, 0), None)
    """
    kind = KIND_CODES.get(type(pattern))
    if kind is None and not exact:
        kind = next((code for cls, code in KIND_CODES.items() if isinstance(pattern, cls)), None)
    if kind is None:
        return None
    if isinstance(pattern, Straight):
        return kind, pattern.length, 0
    if isinstance(pattern, OfAKind):
        return kind, pattern.count, 0
    if isinstance(pattern, Pairs):
        return kind, pattern.pairs, 0
    assert isinstance(pattern, Total)
    return kind, pattern.count, pattern.target


def mark_own(owners: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Mark the player's own Masterpiece count as ``-n - 1``: citing them is free (R5)."""
    if not owners[player]:
        return owners
    return tuple(-n - 1 if owner == player else n for owner, n in enumerate(owners))


@functools.lru_cache(maxsize=1 << 12)
def gift_ways(cards: int, code: int) -> int:
    """Ways to give the gifts of packed ``code`` from ``cards`` unplayed cards (R5)."""
    return gift_count(cards, owed_pairs(code))


class PayableTotals:
    """The rank multisets of a :class:`~pastiche_core.data.patterns.Total` the hand can pay for.

    A multiset of ``pool`` (cards per rank: hand and every Masterpiece) can be
    published when, per rank, the hand and the Masterpieces hold enough cards;
    every card but the player's own Masterpieces costs a card of the hand
    (played, or given as a gift, R5), at most ``limit`` in all; and at least one
    hand card is played (R4: a free own Masterpiece then gives way to one).
    These are exactly the multisets with at least one card-level publish.

    The pattern's own search counts every completion before it yields one; this
    one walks the ranks from the highest down and prunes on the sum (each card
    left is worth 1 to the current rank), on the cards left, on the cost (own
    Masterpieces are the only free cards) and on failures already seen, so
    asking whether one exists stops at the first.

    >>> from pastiche_core.data.patterns import rank_counts
    >>> hand = rank_counts([12, 13, 12, 10])
    >>> search = PayableTotals(hand, hand, (0,) * 14, limit=4)
    >>> search.every(4, 47), search.exists(4, 48)
    ([(10, 12, 12, 13)], False)
    """

    __slots__ = (
        "cap",
        "counts",
        "fails",
        "first",
        "found",
        "h",
        "limit",
        "lowest",
        "own",
        "own_pre",
        "pool",
    )

    def __init__(
        self, pool: Sequence[int], hand: Sequence[int], own: Sequence[int], limit: int
    ) -> None:
        self.pool, self.h, self.own, self.limit = pool, hand, own, limit
        self.cap: list[int] = []
        self.own_pre: list[int] = []
        self.lowest: list[int] | None = None
        self.counts = [0] * 14
        self.fails: dict[int, int] = {}
        self.found: list[tuple[int, ...]] = []
        self.first = False

    def _prepare(self) -> None:
        """The Python walk's tables, made on its first use."""
        pool, own = self.pool, self.own
        cap = [0] * 14
        own_pre = [0] * 14
        for rank in range(1, 14):
            cap[rank] = cap[rank - 1] + pool[rank]
            own_pre[rank] = own_pre[rank - 1] + own[rank]
        self.cap, self.own_pre = cap, own_pre
        # lowest[k]: the sum of the k lowest cards of all, so the k highest cards of
        # ranks up to r add up to lowest[cap[r]] - lowest[cap[r] - k].
        self.lowest = list(
            itertools.accumulate(
                itertools.chain.from_iterable(
                    itertools.repeat(rank, pool[rank]) for rank in range(1, 14)
                ),
                initial=0,
            )
        )

    def exists(self, count: int, target: int) -> bool:
        """Whether some multiset of ``count`` ranks adding up to ``target`` can be paid for."""
        return bool(self._search(count, target, first=True))

    def first_found(self, count: int, target: int) -> tuple[int, ...] | None:
        """The first multiset the walk finds, as cards per rank (14 counts), or ``None``.

        >>> from pastiche_core.data.patterns import rank_counts
        >>> hand = rank_counts([12, 13, 12, 10])
        >>> PayableTotals(hand, hand, (0,) * 14, limit=4).first_found(2, 25)[12:]
        (1, 1)
        """
        found = self._search(count, target, first=True)
        return found[0] if found else None

    def every(self, count: int, target: int) -> list[tuple[int, ...]]:
        """Every such multiset as a sorted tuple of ranks, in sorted order (as the pattern's)."""
        found = [
            tuple(rank for rank in range(1, 14) for _ in range(counts[rank]))
            for counts in self._search(count, target)
        ]
        found.sort()
        return found

    def groups(self, count: int, target: int) -> list[tuple[list[int], list[int]]]:
        """Every such multiset as its distinct ranks and how many of each, in sorted order."""
        found = self._search(count, target)
        if len(found) > 1:
            # Cards per rank in descending order are the sorted ranks in ascending order
            # (the multisets all have `count` cards).
            found.sort(reverse=True)
        return [
            ([rank for rank in range(1, 14) if counts[rank]], [n for n in counts[1:] if n])
            for counts in found
        ]

    def rank_counts(self, count: int, target: int) -> list[tuple[int, ...]]:
        """Every such multiset as cards per rank (14 counts, index 0 unused)."""
        return self._search(count, target)

    def _search(self, count: int, target: int, first: bool = False) -> list[tuple[int, ...]]:
        """The multisets as cards per rank, in walk order; only the first one if ``first``.

        The ``payable_totals`` kernel: the compiled twin when in use, else
        :meth:`_search_py` (the walk below, the definition).
        """
        if _payable_totals.compiled is None:  # Python alone: keep this walk's failures
            _payable_totals.calls += 1
            _payable_totals.python_calls += 1
            return self._search_py(count, target, first)
        return _payable_totals(self.pool, self.h, self.own, self.limit, count, target, first)

    def _search_py(self, count: int, target: int, first: bool = False) -> list[tuple[int, ...]]:
        """:meth:`_search` in Python: the walk from the highest rank down."""
        if self.lowest is None:
            self._prepare()
        self.found = []
        self.first = first
        self._walk(13, count, target, 0, False, False)
        return self.found

    def _walk(self, rank: int, left: int, need: int, cost: int, free: bool, hand: bool) -> bool:
        limit = self.limit
        if not left:
            if need or not hand or cost + (0 if free else 1) > limit:
                return False
            self.found.append(tuple(self.counts))
            return True
        below = self.cap[rank]  # the cards of this rank and below
        lowest = self.lowest
        assert lowest is not None
        if (
            left > below
            or need > lowest[below] - lowest[below - left]  # the highest of them are too few
            or need < lowest[left]  # the lowest of all are too much
            or cost + left - self.own_pre[rank] > limit
        ):
            return False
        key = (need << 12) | (left << 6) | (rank << 2) | (free << 1) | hand
        failed = self.fails.get(key)
        if failed is not None and cost >= failed:
            return False
        pool = self.pool
        h, mine = self.h[rank], self.own[rank]
        found = False
        counts = self.counts
        for taken in range(min(pool[rank], left, need // rank), -1, -1):
            spent = cost + rank_cost(taken, mine)
            if spent > limit:
                continue
            counts[rank] = taken
            if self._walk(
                rank - 1,
                left - taken,
                need - taken * rank,
                spent,
                free or (taken > mine and h > 0),
                hand or (taken > 0 and h > 0),
            ):
                found = True
                if self.first:
                    counts[rank] = 0
                    return True
        counts[rank] = 0
        if not found:
            self.fails[key] = cost if failed is None else min(failed, cost)
        return found


@functools.lru_cache(maxsize=1 << 14)
def rank_shapes(key: RankKey) -> tuple[Shape, ...]:
    """Every way to fill one rank: cards from the hand, then Masterpieces per owner.

    ``key`` is (needed, in hand, Masterpieces per owner with the player's own
    count stored as ``-n - 1``).
    """
    need, in_hand, marked = key
    owners = [(-n - 1 if n < 0 else n) for n in marked]
    own = [n < 0 for n in marked]
    on_table = sum(owners)
    shapes: list[Shape] = []
    for from_hand in range(max(0, need - on_table), min(need, in_hand) + 1):
        for split in _distributions(need - from_hand, owners):
            weight = math.comb(in_hand, from_hand)
            code = 0
            owed = 0
            for owner, taken in enumerate(split):
                weight *= math.comb(owners[owner], taken)
                if taken and not own[owner]:
                    code += taken << (OWED_BITS * owner)
                    owed += taken
            shapes.append((from_hand, split, weight, code, owed))
    return tuple(shapes)


def _distributions(total: int, bounds: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` items with at most ``bounds[i]`` from owner i, first owner most.

    >>> list(_distributions(2, [1, 0, 2]))
    [(1, 0, 1), (0, 0, 2)]
    """
    # Each owner's count descending, the last owner's varying fastest.
    ranges = [range(bound if bound < total else total, -1, -1) for bound in bounds]
    return (split for split in itertools.product(*ranges) if sum(split) == total)


@functools.lru_cache(maxsize=4096)
def owed_pairs(code: int) -> tuple[tuple[int, int], ...]:
    """Unpack a packed gift code into sorted (owner, count) pairs."""
    pairs = []
    owner = 0
    mask = (1 << OWED_BITS) - 1
    while code:
        if code & mask:
            pairs.append((owner, code & mask))
        code >>= OWED_BITS
        owner += 1
    return tuple(pairs)


def gift_count(cards: int, owed: Sequence[tuple[int, int]]) -> int:
    """Ways to hand out the owed gifts from ``cards`` unplayed cards (0 if impossible)."""
    ways = 1
    for _, count in owed:
        if count > cards:
            return 0
        ways *= math.comb(cards, count)
        cards -= count
    return ways


def kernel_plan(catalogue: Catalogue) -> bytes | None:
    """The plan of ``catalogue`` as the compiled kernels read it (:mod:`pastiche_core.engine.layout`).

    Per publishable Novel in catalogue order, ``(kind, first, second, size,
    points)`` as native 32-bit integers; ``None`` when a pattern is not of a
    built-in kind (exactly: a subclass may list its combinations otherwise).
    Made once per catalogue.

    >>> plan = kernel_plan(Catalogue.default())
    >>> list(array.array("i", plan)[:5])  # straight-5: kind 0, 5 cards, 1 point
    [0, 5, 0, 5, 1]
    """
    entry = _PLANS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        values: list[int] | None = []
        for spec in catalogue.publishable:
            code = pattern_code(spec.pattern)
            size = spec.pattern.size if spec.pattern is not None else None
            if code is None or values is None:
                values = None
                continue
            values.extend((*code, -1 if size is None else size, spec.points))
        made = None if values is None else array.array("i", values).tobytes()
        entry = _PLANS[id(catalogue)] = (catalogue, made)
    return entry[1]


_PLANS: dict[int, tuple[Catalogue, bytes | None]] = {}


# home: R6.supply
def usable_flags(catalogue: Catalogue, supply: Mapping[str, int], held: Collection[str]) -> bytes:
    """A player's usable flags (:mod:`pastiche_core.engine.layout`): per publishable Novel, in
    catalogue order, 1 when a copy is left in ``supply`` and ``held`` (the Novels on the
    player's table) does not hold it, else 0 (R6).

    >>> list(usable_flags(Catalogue.default(), {"straight-5": 4, "kind-3": 0}, {"straight-7"}))
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    """
    entry = _IDS.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        if len(_IDS) >= 64:
            _IDS.clear()
        ids = tuple(spec.id for spec in catalogue.publishable)
        positions = {novel: at for at, novel in enumerate(ids)}
        entry = _IDS[id(catalogue)] = (catalogue, ids, operator.itemgetter(*ids), positions)
    _, ids, copies, positions = entry
    try:  # the copies left of every publishable Novel, read at once
        left = copies(supply) if len(ids) > 1 else (supply[ids[0]],)
    except KeyError:
        left = tuple(supply.get(novel, 0) for novel in ids)
    flags = bytearray(map(bool, left))  # a count is never negative: a copy is left when not 0
    for novel in held:  # one copy per player
        at = positions.get(novel)
        if at is not None:
            flags[at] = 0
    return bytes(flags)


_IDS: dict[
    int, tuple[Catalogue, tuple[str, ...], Callable[[Mapping[str, int]], Any], dict[str, int]]
] = {}


def _payable_totals_py(
    pool: Sequence[int],
    hand: Sequence[int],
    own: Sequence[int],
    limit: int,
    count: int,
    target: int,
    first: bool,
) -> list[tuple[int, ...]]:
    """The ``payable_totals`` kernel in Python: :meth:`PayableTotals._search_py` on a new search."""
    return PayableTotals(pool, hand, own, limit)._search_py(count, target, first)


_payable_totals = kernel("payable_totals", _payable_totals_py)
