"""How many cards a Novel still needs, and the odds of the next writes (R4, R5, R11).

The cards a Novel needs are counted on ranks alone, as the Novel's patterns are
(:mod:`pastiche_core.data.patterns`). :class:`Reach` holds one Novel's rank
combinations within the player's reach (hand, Masterpieces, unseen cards) and
answers :meth:`Reach.need`: the fewest unseen cards that, added to the hand, make
the Novel publishable, its Masterpieces cited and its gifts paid as the solver
counts them (own Masterpieces free, each other player's one gift from an
unplayed hand card, at least one hand card played: R4, R5).

**The odds model.** Each write draws two cards from the unseen cards (every
unseen card equally likely, without replacement) and keeps the better for this
Novel: the one that lowers the need most; between equals, the card of the rank
found in more of the Novel's near combinations, then the lower rank. Both drawn
cards leave the unseen cards for every later count: the kept one joins the hand
and the other is laid face up, seen (R11, R16), which matters when a rank runs
out. At the first write it takes the top discard instead when the player knows
that card and it lowers the need (R11). Other players' moves between writes are
not modelled.
:func:`write_odds` follows every outcome by rank, with its multiplicity, while
their count stays within :data:`EXACT_OUTCOMES`; past it, it samples seeded runs
and gives each chance with its 95 % Wilson interval.

>>> from pastiche_core.data.patterns import OfAKind, rank_counts
>>> reach = Reach(OfAKind(3), hand=rank_counts([7, 7, 2]), own=rank_counts([]),
...               others=rank_counts([]), unseen=rank_counts([7, 9, 9]))
>>> reach.need(reach.start)
1
>>> odds = write_odds(reach, writes=2)
>>> odds.exact, round(odds.next_closer, 4), [round(w.publishable, 4) for w in odds.within]
(True, 0.6667, [0.6667, 1.0])
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..data.cards import MAX_RANK, MIN_RANK
from ..data.limits import MAX_PATTERN_CARDS, Deadline
from ..data.patterns import CustomPattern, Pattern, RankCounts, sub_multisets
from ..data.rng import GameRng

__all__ = [
    "EXACT_OUTCOMES",
    "MAX_COMBINATIONS",
    "MAX_EXAMINED",
    "NEVER",
    "Odds",
    "Reach",
    "Within",
    "wilson",
    "write_odds",
]

MAX_COMBINATIONS = 20_000
"""The most rank combinations of one Novel that :class:`Reach` looks at; past it the answer is
cut short (``complete`` false)."""
EXACT_OUTCOMES = 20_000
"""The most draw outcomes (by rank, with multiplicity) the exact odds follow; past it they are
sampled."""
MAX_EXAMINED = 100_000
"""The most rank multisets a user-defined pattern without a listing of its own is tried on."""
_RANKS = range(MIN_RANK, MAX_RANK + 1)
NEVER = 1 << 20
"""The need :meth:`Reach.need` gives a Novel that no unseen cards can complete (R4, R5)."""
_Z95 = 1.959963984540054

State = tuple[RankCounts, RankCounts]
"""Cards added to the hand and cards gone from the unseen ones, per rank."""


class Reach:
    """One Novel's rank combinations within reach, and the cards each still needs.

    ``hand``, ``own`` (the player's Masterpieces), ``others`` (other players'
    Masterpieces) and ``unseen`` are :data:`~pastiche_core.data.patterns.RankCounts`.
    ``complete`` is false when the combinations passed :data:`MAX_COMBINATIONS`
    or the ``deadline`` came first (the need is then an upper bound).

    >>> from pastiche_core.data.patterns import Straight, rank_counts
    >>> reach = Reach(Straight(3), hand=rank_counts([4, 5]), own=rank_counts([]),
    ...               others=rank_counts([6]), unseen=rank_counts([3, 9]))
    >>> reach.need(reach.start), reach.complete  # cite the 6 and pay its gift with a 3
    (1, True)
    """

    __slots__ = ("combos", "complete", "hand", "hand_size", "others", "own", "start", "unseen")

    def __init__(
        self,
        pattern: Pattern,
        *,
        hand: RankCounts,
        own: RankCounts,
        others: RankCounts,
        unseen: RankCounts,
        deadline: Deadline | None = None,
    ) -> None:
        self.hand, self.own, self.others, self.unseen = hand, own, others, unseen
        self.hand_size = sum(hand)
        self.start: State = ((0,) * (MAX_RANK + 1), (0,) * (MAX_RANK + 1))
        pool = tuple(h + a + b + u for h, a, b, u in zip(hand, own, others, unseen, strict=True))
        self.complete = True
        combos: list[tuple[tuple[int, int], ...]] = []
        for combo in _combinations(pattern, pool, deadline):
            if combo is None or len(combos) >= MAX_COMBINATIONS:
                self.complete = False  # the bound or the deadline came first
                break
            runs: dict[int, int] = {}
            for rank in combo:
                runs[rank] = runs.get(rank, 0) + 1
            combos.append(tuple(sorted(runs.items())))
        self.combos = tuple(combos)

    def combo_need(self, runs: tuple[tuple[int, int], ...], state: State) -> int | None:
        """The cards ``runs`` (one combination, ``(rank, count)`` pairs) still needs in ``state``.

        Each rank short of cards needs unseen cards of that rank; every card but an
        own Masterpiece costs a hand card, played or given (R5); one hand card must
        be played (R4); any further unseen card pays a gift. ``None``: never.
        """
        added, gone = state
        hand, own, others, unseen = self.hand, self.own, self.others, self.unseen
        short = cost = 0
        good_hand = any_hand = good_free = bad_free = False
        for rank, count in runs:
            held = hand[rank] + added[rank]
            left = unseen[rank] - gone[rank]
            lack = count - held - own[rank] - others[rank]
            if lack > 0:
                if lack > left:
                    return None
                short += lack
                held += lack
                left -= lack
            if count > own[rank]:
                cost += count - own[rank]
                if held:
                    good_hand = True  # a hand card is played at no extra cost (R4)
                elif left:
                    good_free = True
            elif held:
                any_hand = True  # an own Masterpiece gives way to this hand card (R4)
            elif left:
                bad_free = True
        size = self.hand_size + sum(added) + short
        spare = sum(unseen) - sum(gone) - short
        if good_hand:
            extra = max(0, cost - size)
        else:
            options = []
            if any_hand:
                options.append(max(0, cost + 1 - size))
            if good_free:
                options.append(max(1, cost - size))
            if bad_free:
                options.append(max(1, cost + 1 - size))
            if not options:
                return None
            extra = min(options)
        return short + extra if extra <= spare else None

    def need(self, state: State, combos: tuple[tuple[tuple[int, int], ...], ...] = ()) -> int:
        """The fewest unseen cards that make the Novel publishable in ``state``; a large number
        when none do.

        ``combos`` restricts the combinations looked at (default: all).
        """
        best = NEVER
        for runs in combos or self.combos:
            found = self.combo_need(runs, state)
            if found is not None and found < best:
                best = found
                if not best:
                    break
        return best

    def near(self, limit: int) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The combinations that need at most ``limit`` cards now: the only ones that can reach
        0 within ``limit`` cards, as one card lowers a combination's need by one at most."""
        return tuple(
            runs
            for runs in self.combos
            if (found := self.combo_need(runs, self.start)) is not None and found <= limit
        )


def _combinations(
    pattern: Pattern, pool: RankCounts, deadline: Deadline | None
) -> Iterator[tuple[int, ...] | None]:
    """The pattern's combinations within ``pool``, then ``None`` if the listing was cut short.

    A user-defined pattern that lists its combinations with the generic
    :class:`~pastiche_core.data.patterns.CustomPattern` search is searched here
    instead, size by size, so that the clock and :data:`MAX_EXAMINED` bound the
    rank multisets tried: with the unseen cards in the pool they can be very many.
    """
    if not (
        isinstance(pattern, CustomPattern)
        and type(pattern).combinations is CustomPattern.combinations
    ):
        for index, combo in enumerate(pattern.combinations(pool)):
            if index % 256 == 255 and deadline is not None and deadline.passed():
                yield None
                return
            yield combo
        return
    sizes = range(1, MAX_PATTERN_CARDS + 1) if pattern.size is None else (pattern.size,)
    tried = 0
    for size in sizes:
        for ranks in sub_multisets(pool, size):
            tried += 1
            if tried > MAX_EXAMINED or (
                tried % 1024 == 0 and deadline is not None and deadline.passed()
            ):
                yield None
                return
            if pattern.matches(ranks):
                yield ranks


def added(state: State, rank: int, *, drawn: tuple[int, ...] = ()) -> State:
    """``state`` with a card of ``rank`` kept and the ``drawn`` ranks gone from the unseen."""
    hand, gone = list(state[0]), list(state[1])
    hand[rank] += 1
    for other in drawn:
        gone[other] += 1
    return tuple(hand), tuple(gone)


@dataclass(frozen=True, slots=True)
class Within:
    """The chance the Novel is publishable within ``writes`` writes, with its 95 % interval.

    >>> Within(1, 0.25, 0.25, 0.25).to_dict()
    {'writes': 1, 'publishable': 0.25, 'low': 0.25, 'high': 0.25}
    """

    writes: int
    """How many writes."""
    publishable: float
    """The chance, 0 to 1."""
    low: float
    """The interval's low end (the chance itself when exact)."""
    high: float
    """The interval's high end (the chance itself when exact)."""

    def to_dict(self) -> dict[str, float | int]:
        """The ``within`` entry of the ``pastiche-outs`` document."""
        return {
            "writes": self.writes,
            "publishable": _rounded(self.publishable),
            "low": _rounded(self.low),
            "high": _rounded(self.high),
        }


@dataclass(frozen=True, slots=True)
class Odds:
    """A Novel's odds: after the next write, and within each number of writes.

    >>> Odds(True, 0, 1.0, 1.0, (Within(1, 1.0, 1.0, 1.0),)).to_dict()["next_write"]
    {'closer': 1.0, 'publishable': 1.0}
    """

    exact: bool
    """Whether every chance was counted exactly (else sampled)."""
    samples: int
    """The runs sampled (0 when exact)."""
    next_closer: float
    """The chance the next write lowers the need (1 when it is 0 already)."""
    next_publishable: float
    """The chance the Novel is publishable after the next write."""
    within: tuple[Within, ...]
    """Per number of writes, 1 to the writes asked."""

    def to_dict(self) -> dict[str, object]:
        """The ``odds`` object of the ``pastiche-outs`` document."""
        return {
            "exact": self.exact,
            "samples": self.samples,
            "next_write": {
                "closer": _rounded(self.next_closer),
                "publishable": _rounded(self.next_publishable),
            },
            "within": [entry.to_dict() for entry in self.within],
        }


def _rounded(value: float) -> float:
    return round(value, 6)


def wilson(hits: int, runs: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``hits`` successes in ``runs`` runs.

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 0), wilson(0, 2000)[0], wilson(2000, 2000)[1]
    ((0.0, 1.0), 0.0, 1.0)
    """
    if runs <= 0:
        return 0.0, 1.0
    share = hits / runs
    z2 = _Z95 * _Z95
    centre = (share + z2 / (2 * runs)) / (1 + z2 / runs)
    half = _Z95 * math.sqrt(share * (1 - share) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    # no hit (or no miss) bounds the interval at 0 (or 1) exactly, not a rounding off it
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    return low, 1.0 if hits == runs else min(1.0, centre + half)


_Row = tuple[int, int, bool, int, int]
"""One rank of a combination as :class:`_Walk` counts it: the rank, the cards short before
any draw, whether it costs hand cards (more than the own Masterpieces), and the hand's and
the unseen cards of that rank."""


_Rows = tuple[int, int, tuple[_Row, ...]]
"""One combination as :class:`_Walk` counts it: its need at the start (or one more than
after the top discard, if lower), its cost in hand cards, and its ranks."""


class _Walk:
    """The write model over one :class:`Reach`: which card a write keeps, and the needs.

    A state is a :data:`State`: the cards added to the hand (kept, or the top discard
    taken) and every card drawn from the unseen cards, the kept ones and the ones laid
    face up alike, as a card laid face up is seen (R11, R16). Its need is
    :meth:`Reach.need` over the near combinations, memoised by state and counted with
    two bounds that never change it: a card added lowers a combination's need by one
    at most and a card gone from the unseen ones never lowers it, so a combination
    that needed ``n`` at the start needs ``n - k`` at least after ``k`` cards added,
    and a kept card leaves the need of the state it was drawn in one lower at best.
    """

    def __init__(self, reach: Reach, writes: int, discard: int | None) -> None:
        self.reach = reach
        self.start: State = reach.start
        self.base = base = reach.need(reach.start)
        self.discard = discard
        taken = None if discard is None else (_plus(self.start[0], discard), self.start[1])
        limit = max(base, writes)
        hand, own, others, unseen = reach.hand, reach.own, reach.others, reach.unseen
        rows: list[_Rows] = []
        weight = [0] * (MAX_RANK + 1)
        for runs in reach.combos:
            found = reach.combo_need(runs, self.start)
            floor = NEVER if found is None else found
            if taken is not None:
                # the top discard is not an unseen card: it may lower a need by more than one
                found = reach.combo_need(runs, taken)
                floor = floor if found is None else min(floor, found + 1)
            if floor > limit:
                continue  # needs more cards than the writes add: it cannot finish in time
            for rank, _ in runs:
                weight[rank] += 1
            cost = sum(count - own[rank] for rank, count in runs if count > own[rank])
            folded = tuple(
                (rank, count - hand[rank] - own[rank] - others[rank], count > own[rank], *held)
                for rank, count in runs
                for held in ((hand[rank], unseen[rank]),)
            )
            rows.append((floor, cost, folded))
        self.weight = weight
        self.unseen_total = sum(unseen)
        rows.sort(key=lambda row: row[0])  # the likeliest first; the bound stops the rest
        self.rows = tuple(rows)
        self.memo: dict[State, int] = {}
        self.atleast: dict[State, int] = {}  # a need known to be this much at least

    def need(self, state: State, low: int = 0, high: int = NEVER) -> int:
        """The need of ``state`` if below ``high``, else ``high``; ``low`` is a need it cannot
        be below, to stop at."""
        found = self.memo.get(state)
        if found is not None:
            return min(found, high)
        known = self.atleast.get(state, 0)
        if known >= high:
            return high
        found = self._count(state, max(low, known), high)
        if found < high:
            self.memo[state] = found
        else:
            self.atleast[state] = high
        return found

    def _count(self, state: State, low: int, high: int) -> int:
        """:meth:`Reach.combo_need`'s count over the rows, bounded (see the class)."""
        added, gone = state
        cards = sum(added)
        hand_size = self.reach.hand_size + cards
        unseen = self.unseen_total - sum(gone)
        best = high
        for start, cost, runs in self.rows:
            if start - cards >= best:
                break  # the rows are by start need: none further does better
            short = 0
            good_hand = any_hand = good_free = bad_free = False
            for rank, lack, costs, held, left in runs:
                held += added[rank]
                left -= gone[rank]
                lack -= added[rank]
                if lack > 0:
                    short += lack
                    if lack > left or short >= best:
                        break  # never, or no better than the best so far
                    held += lack
                    left -= lack
                if costs:
                    if held:
                        good_hand = True
                    elif left:
                        good_free = True
                elif held:
                    any_hand = True
                elif left:
                    bad_free = True
            else:
                size = hand_size + short
                if good_hand:
                    extra = max(0, cost - size)
                else:
                    extra = NEVER
                    if any_hand:
                        extra = max(0, cost + 1 - size)
                    if good_free:
                        extra = min(extra, max(1, cost - size))
                    if bad_free:
                        extra = min(extra, max(1, cost + 1 - size))
                if extra <= unseen - short and short + extra < best:
                    best = short + extra
                    if best <= low:
                        break
        return best

    def keep(self, state: State, first: int, second: int, high: int = NEVER) -> State:
        """The state after drawing ``first`` and ``second`` and keeping the better (the model).

        A need of ``high`` or more fails the run whichever card is kept, so the needs
        are counted below it only: the kept card then differs from the model's only
        where both fail alike.
        """
        added, gone = state
        drawn = _plus(_plus(gone, first), second)
        if second == first:
            return (_plus(added, first), drawn)
        if (-self.weight[second], second) < (-self.weight[first], first):
            first, second = second, first  # the card kept between equal needs first
        one = (_plus(added, first), drawn)
        low = self.need(state, 0, high) - 1  # one card lowers it by one at most
        need = self.need(one, low, high)
        if need <= low:
            return one
        two = (_plus(added, second), drawn)
        return two if self.need(two, low, need) < need else one

    def taken(self, state: State) -> State | None:
        """The state after taking the top discard at the first write, if the model takes it."""
        if self.discard is None or state != self.start:
            return None
        after = (_plus(state[0], self.discard), state[1])
        return after if self.need(after) < self.need(state) else None

    def left(self, state: State) -> RankCounts:
        return tuple(u - g for u, g in zip(self.reach.unseen, state[1], strict=True))

    def outcomes(self, state: State, high: int = NEVER) -> Iterator[tuple[float, State]]:
        """Each outcome of one write from ``state``, by rank, with its chance; ``high`` as for
        :meth:`keep`."""
        took = self.taken(state)
        if took is not None:
            yield 1.0, took
            return
        left = self.left(state)
        total = sum(left)
        if total == 0:
            yield 1.0, state  # nothing to draw (R11)
            return
        if total == 1:
            rank = next(r for r in _RANKS if left[r])
            yield 1.0, (_plus(state[0], rank), _plus(state[1], rank))
            return
        pairs = total * (total - 1) / 2
        for first in _RANKS:
            if not left[first]:
                continue
            if left[first] >= 2:
                same = self.keep(state, first, first, high)
                yield left[first] * (left[first] - 1) / 2 / pairs, same
            for second in range(first + 1, MAX_RANK + 1):
                if left[second]:
                    yield left[first] * left[second] / pairs, self.keep(state, first, second, high)

    def finishing(self, state: State) -> float:
        """The chance that one write from ``state`` makes the Novel publishable.

        Whether a kept card finishes it does not hang on the other card drawn: a need
        of 0 asks for no unseen card, so the card laid face up cannot undo it.
        """
        took = self.taken(state)
        if took is not None:
            return 0.0 if self.need(took) else 1.0
        left = self.left(state)
        total = sum(left)
        if total == 0:
            return 0.0
        added, gone = state
        low = self.need(state) - 1
        good = sum(
            left[r]
            for r in _RANKS
            if left[r] and not self.need((_plus(added, r), _plus(gone, r)), low, 1)
        )
        if total == 1:
            return float(good)
        miss = total - good
        return 1.0 - (miss * (miss - 1) / 2) / (total * (total - 1) / 2)

    def branching(self) -> int:
        left = self.left(self.start)
        ranks = sum(1 for r in _RANKS if left[r])
        return ranks * (ranks + 1) // 2

    def sample(self, rng: GameRng, writes: int) -> int:
        """One seeded run: the write after which the Novel became publishable, else 0."""
        state = self.start
        pool = [r for r in _RANKS for _ in range(self.reach.unseen[r])]
        for write in range(1, writes + 1):
            left = writes - write + 1
            if self.need(state, 0, left + 1) > left:
                return 0  # one card lowers the need by one at most
            took = self.taken(state)
            if took is not None:
                state = took
            elif len(pool) >= 2:
                first = pool.pop(rng.below(len(pool)))
                second = pool.pop(rng.below(len(pool)))
                state = self.keep(state, first, second, left)
            elif pool:
                rank = pool.pop()
                state = (_plus(state[0], rank), _plus(state[1], rank))
            if not self.need(state, 0, 1):
                return write
        return 0


def _plus(counts: RankCounts, rank: int) -> RankCounts:
    grown = list(counts)
    grown[rank] += 1
    return tuple(grown)


def write_odds(
    reach: Reach,
    *,
    writes: int,
    discard: int | None = None,
    samples: int = 2000,
    seed: int = 0,
    deadline: Deadline | None = None,
) -> Odds:
    """The odds of the write model (see the module) for one Novel; ``discard`` is the rank of
    the top discard when the player knows that card.

    Exact while the outcomes stay within :data:`EXACT_OUTCOMES`; else ``samples``
    seeded runs. A ``deadline`` that passes stops the runs early (fewer samples,
    wider intervals).

    >>> from pastiche_core.data.patterns import OfAKind, rank_counts
    >>> reach = Reach(OfAKind(3), hand=rank_counts([7, 7]), own=rank_counts([]),
    ...               others=rank_counts([]), unseen=rank_counts([7, 9, 9, 9]))
    >>> write_odds(reach, writes=1, discard=7).next_publishable  # takes the 7 (R11)
    1.0
    """
    walk = _Walk(reach, writes, discard)
    base = walk.base
    if base == 0:
        ones = tuple(Within(w, 1.0, 1.0, 1.0) for w in range(1, writes + 1))
        return Odds(True, 0, 1.0, 1.0, ones)
    first = list(walk.outcomes(walk.start)) if base < NEVER else []
    closer = sum(p for p, state in first if walk.need(state) < base)
    now = sum(p for p, state in first if walk.need(state) == 0)
    if base > writes or base >= NEVER:
        zeros = tuple(Within(w, 0.0, 0.0, 0.0) for w in range(1, writes + 1))
        return Odds(True, 0, closer, now, zeros)
    branching = walk.branching()
    estimate = sum(branching**w for w in range(1, writes))
    if estimate <= EXACT_OUTCOMES:
        chances = _exact(walk, first, writes)
        within = tuple(Within(w + 1, c, c, c) for w, c in enumerate(chances))
        return Odds(True, 0, closer, now, within)
    rng = GameRng(seed)
    firsts = [0] * (writes + 1)
    runs = 0
    while runs < samples:
        firsts[walk.sample(rng, writes)] += 1
        runs += 1
        if deadline is not None and runs % 64 == 0 and deadline.passed():
            break
    hits = 0
    within_list = [Within(1, now, now, now)]
    for w in range(1, writes + 1):
        hits += firsts[w]
        if w > 1:
            low, high = wilson(hits, runs)
            within_list.append(Within(w, hits / runs if runs else 0.0, low, high))
    return Odds(False, runs, closer, now, tuple(within_list))


def _exact(walk: _Walk, first: list[tuple[float, State]], writes: int) -> list[float]:
    """The chance of being publishable after each write, every outcome followed by rank; the
    last write is counted in closed form (does either drawn card finish it?)."""
    done = 0.0  # publishable already: it stays so, as a card never raises a need
    spread: dict[State, float] = {}
    for chance, state in first:
        if walk.need(state, 0, 1):
            spread[state] = spread.get(state, 0.0) + chance
        else:
            done += chance
    chances = [done]
    for write in range(2, writes + 1):
        moved: dict[State, float] = {}
        for state, chance in spread.items():
            left = writes - write + 1
            if walk.need(state, 0, left + 1) > left:
                continue  # cannot reach 0 in the writes left: counts for none
            if write == writes:
                done += chance * walk.finishing(state)
                continue
            for step, after in walk.outcomes(state, left):
                if walk.need(after, 0, 1):
                    moved[after] = moved.get(after, 0.0) + chance * step
                else:
                    done += chance * step
        chances.append(min(1.0, done))
        spread = moved
    return chances
