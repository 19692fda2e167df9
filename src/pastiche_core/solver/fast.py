"""The fast exact publish engine: every option (R8) and optimal pastiche (R9).

For each available Novel the engine asks the pattern for every rank multiset the
hand and the table can supply together, then splits each rank between hand
cards and Masterpieces of each owner. Splits that play no card (R4), cannot pay
their gifts from the unplayed cards (R5) or break a constraint are cut as soon
as they are known to fail, so the work is proportional to the options found.

Pareto fronts need no enumeration: per rank multiset, the reachable
(played, gifts) pairs are a sum of small per-rank sets.

>>> from pastiche_core.solver.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> [str(o) for o in options(pos) if o.novel == "kind-5"]
['publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points']
>>> pareto(pos)["kind-3"]
[(1, 1), (2, 0)]
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from ..data.cards import Card
from ..data.catalogue import NovelSpec
from ..data.errors import InvalidArgumentError, SearchLimitError
from ..data.limits import Deadline, check_max_options
from ..engine.feasibility import OWED_BITS, mark_own, owed_pairs, rank_runs, rank_shapes
from .options import Constraints, PublishOption, citation_key
from .position import Position

__all__ = [
    "SearchResult",
    "counts",
    "optimum",
    "option_with_costs",
    "options",
    "pareto",
    "search",
]

_LISTING_SHARE = 0.55  # of the time limit, for listing options (see search)
_ORDERS = (("played", "gifts"), ("gifts", "played"))


@dataclass(frozen=True, slots=True)
class _Context:
    """What the search needs, with kept cards and excluded owners already removed."""

    position: Position
    constraints: Constraints
    hand_by_rank: dict[int, list[Card]]
    masterpieces: dict[int, tuple[int, ...]]  # rank -> Masterpieces per owner
    ids: dict[tuple[int, int], list[tuple[int, str]]]  # (rank, owner) -> (table index, id)
    pool: tuple[int, ...]
    limit: int  # cards that may be played or given
    width: int
    cited_ids: dict[int, tuple[str, ...]] = field(default_factory=dict)  # mask -> ids
    pieces: dict[tuple[int, int], list[_Piece]] = field(default_factory=dict)  # (rank, need)
    # (rank, need, card by card) -> the (played, gifts) its pieces add, with their weights
    steps: dict[tuple[int, int, bool], list[tuple[int, int, int]]] = field(default_factory=dict)

    def ids_of(self, mask: int) -> tuple[str, ...]:
        """The ids of the Masterpieces whose table indexes are the bits of ``mask``."""
        table = self.position.masterpieces
        return tuple(table[index].id for index in range(len(table)) if mask >> index & 1)


def _context(position: Position, constraints: Constraints | None) -> _Context:
    cons = constraints if constraints is not None else position.constraints
    cons.check_against(position)
    hand_by_rank: dict[int, list[Card]] = {}
    for card in position.hand:
        if card not in cons.keep:
            hand_by_rank.setdefault(card.rank, []).append(card)
    width = max([position.player, *(mp.owner for mp in position.masterpieces)]) + 1
    per_rank: dict[int, list[int]] = {}
    ids: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for index, mp in enumerate(position.masterpieces):
        if cons.allows_owner(mp.owner):
            per_rank.setdefault(mp.card.rank, [0] * width)[mp.owner] += 1
            ids.setdefault((mp.card.rank, mp.owner), []).append((index, mp.id))
    counts = [0] * 14
    for rank, cards in hand_by_rank.items():
        counts[rank] += len(cards)
    for rank, owners in per_rank.items():
        counts[rank] += sum(owners)
    limit = sum(len(cards) for cards in hand_by_rank.values())
    return _Context(
        position,
        cons,
        hand_by_rank,
        {rank: tuple(owners) for rank, owners in per_rank.items()},
        ids,
        tuple(counts),
        limit,
        width,
    )


def _novels(ctx: _Context) -> Iterator[NovelSpec]:
    position, cons = ctx.position, ctx.constraints
    own = sum(1 for mp in position.masterpieces if mp.owner == position.player)
    for spec in position.catalogue.publishable:
        if not position.available(spec.id):
            continue  # R6
        if cons.min_points is not None and spec.points < cons.min_points:
            continue
        assert spec.pattern is not None
        size = spec.pattern.size
        # Each cited Masterpiece of another player costs a gift card (R5).
        if size is not None and size > ctx.limit + own:
            continue
        yield spec


_PRODUCTIVE_KEPT = 8
"""Positions whose productive rank multisets (per Novel) :func:`search` keeps for
:func:`option_with_costs`: a caller asks for the optima of the position it just searched."""
_PRODUCTIVE: dict[tuple[Position, Constraints], dict[str, tuple[tuple[int, ...], ...]]] = {}


def _marked(ctx: _Context, rank: int) -> tuple[int, ...]:
    """Masterpieces of ``rank`` per owner, the player's own marked as free (R5)."""
    return mark_own(ctx.masterpieces.get(rank, (0,) * ctx.width), ctx.position.player)


class _Piece(NamedTuple):
    """One rank's share of an option: its split and what the split contributes."""

    rank: int
    from_hand: int
    extra: int  # gifts owed
    cards: tuple[Card, ...]  # the canonical (lowest) hand cards played
    cited: tuple[tuple[int, str], ...]  # (table index, id) of the cited Masterpieces
    gifts: tuple[tuple[int, int], ...]  # (owner, count) owed for them
    mask: int  # the cited Masterpieces as bits of their table index
    code: int  # the gifts packed as in the move generator (adding merges owners)

    @property
    def rank_cards(self) -> tuple[int, ...]:
        """The rank of each hand card played (``from_hand`` times the rank)."""
        return (self.rank,) * self.from_hand


_Split = tuple[_Piece, ...]


def _pieces(ctx: _Context, rank: int, need: int) -> list[_Piece]:
    """The ways to fill ``need`` cards of ``rank`` (cached per position: combos share ranks)."""
    cached = ctx.pieces.get((rank, need))
    if cached is not None:
        return cached
    marked = _marked(ctx, rank)
    hand = ctx.hand_by_rank.get(rank, [])
    player = ctx.position.player
    pieces = []
    for from_hand, per_owner, _, _, extra in rank_shapes((need, len(hand), marked)):
        cited: list[tuple[int, str]] = []
        gifts = []
        for owner, taken in enumerate(per_owner):
            if taken:
                cited.extend(ctx.ids[(rank, owner)][:taken])
                if owner != player:
                    gifts.append((owner, taken))
        mask = sum(1 << index for index, _ in cited)
        code = sum(count << (OWED_BITS * owner) for owner, count in gifts)
        pieces.append(
            _Piece(
                rank,
                from_hand,
                extra,
                tuple(hand[:from_hand]),
                tuple(cited),
                tuple(gifts),
                mask,
                code,
            )
        )
    ctx.pieces[(rank, need)] = pieces
    return pieces


def _splits(
    ctx: _Context, combo: tuple[int, ...], most: tuple[int, int] | None = None
) -> Iterator[tuple[_Split, int, int]]:
    """Every legal split of ``combo``: (one piece per rank, cards played, gifts).

    ``most`` bounds the (played, gifts) of the splits wanted: a branch past
    either is cut (both only grow along the walk), so a search for one cost
    pair does not walk the splits that cost more.
    """
    options = [_pieces(ctx, rank, need) for rank, need in rank_runs(combo)]
    limit = ctx.limit
    max_gifts = ctx.constraints.max_gifts
    most_played, most_gifts = most if most is not None else (limit, limit)
    if max_gifts is not None:
        most_gifts = min(most_gifts, max_gifts)
    chosen: list[_Piece] = []
    last = len(options)

    def walk(index: int, played: int, gifts: int) -> Iterator[tuple[_Split, int, int]]:
        if index == last:
            if played:  # R4: pastiche alone is not a publish
                yield tuple(chosen), played, gifts
            return
        for piece in options[index]:
            now_played, now_gifts = played + piece.from_hand, gifts + piece.extra
            if now_played + now_gifts > limit:
                continue  # R5: the gifts could not all be paid
            if now_gifts > most_gifts or now_played > most_played:
                continue  # the constraints' max_gifts, or past the costs wanted
            chosen.append(piece)
            yield from walk(index + 1, now_played, now_gifts)
            chosen.pop()

    yield from walk(0, 0, 0)


_BY_INDEX = operator.attrgetter("index")


def _combo_options(
    ctx: _Context, novel: str, points: int, combo: tuple[int, ...]
) -> Iterator[PublishOption]:
    """The options of one rank multiset, built along the search (the hot path).

    The same search as :func:`_splits`, iterative and carrying the option's
    parts down the tree, so each option costs a few tuple operations.
    """
    limit = ctx.limit
    max_gifts = ctx.constraints.max_gifts if ctx.constraints.max_gifts is not None else limit
    empty: tuple[Card, ...] = ()
    # Ranks with a single way to fill them are folded into the root once.
    base: tuple[int, int, tuple[Card, ...], int, int] = (0, 0, empty, 0, 0)
    options: list[list[_Piece]] = []
    for rank, need in rank_runs(combo):
        pieces = _pieces(ctx, rank, need)
        if not pieces:
            return
        if len(pieces) == 1:
            (piece,) = pieces
            played0, gifts0, cards0, mask0, code0 = base
            base = (
                played0 + piece.from_hand,
                gifts0 + piece.extra,
                cards0 + piece.cards,
                mask0 + piece.mask,
                code0 + piece.code,
            )
        else:
            options.append(pieces)
    if base[0] + base[1] > limit or base[1] > max_gifts:
        return  # R5: the forced ranks alone owe more gifts than can be paid
    cited_ids = ctx.cited_ids
    last = len(options)
    stack = [(0, *base)]
    while stack:
        index, played, gifts, cards, mask, code = stack.pop()
        if index == last:
            if not played:
                continue  # R4: pastiche alone is not a publish
            cited = cited_ids.get(mask)
            if cited is None:
                cited = cited_ids[mask] = ctx.ids_of(mask)
            yield PublishOption(
                novel, tuple(sorted(cards, key=_BY_INDEX)), cited, owed_pairs(code), points
            )
            continue
        for piece in reversed(options[index]):
            now_played, now_gifts = played + piece.from_hand, gifts + piece.extra
            if now_played + now_gifts > limit or now_gifts > max_gifts:
                continue  # R5: the gifts could not all be paid
            stack.append(
                (
                    index + 1,
                    now_played,
                    now_gifts,
                    cards + piece.cards,
                    mask + piece.mask,
                    code + piece.code,
                )
            )


def _option(novel: str, points: int, split: _Split) -> PublishOption:
    """The canonical option of a split: what :func:`make_option` builds, made faster."""
    played: list[Card] = []
    cited: list[tuple[int, str]] = []
    gifts: dict[int, int] = {}
    for piece in split:
        played.extend(piece.cards)
        if piece.cited:
            cited.extend(piece.cited)
            for owner, count in piece.gifts:
                gifts[owner] = gifts.get(owner, 0) + count
    played.sort(key=_BY_INDEX)
    if len(cited) > 1:
        cited.sort()
    return PublishOption(
        novel,
        tuple(played),
        tuple(ident for _, ident in cited),
        tuple(sorted(gifts.items())) if gifts else (),
        points,
    )


def _card_level(ctx: _Context, option: PublishOption, split: _Split) -> Iterator[PublishOption]:
    choices = [
        itertools.combinations(ctx.hand_by_rank[piece.rank], piece.from_hand)
        for piece in split
        if piece.from_hand
    ]
    for picked in itertools.product(*choices):
        cards = tuple(sorted(card for group in picked for card in group))
        yield PublishOption(option.novel, cards, option.cited, option.gifts, option.points)


class _StoppedError(Exception):
    """Internal: the deadline passed in the middle of a search."""


def _check(deadline: Deadline | None) -> None:
    if deadline is not None and deadline.passed():
        raise _StoppedError


def _novel_options(
    ctx: _Context,
    spec: NovelSpec,
    card_level: bool,
    deadline: Deadline | None,
    combos: Iterable[tuple[int, ...]] | None = None,
) -> Iterator[PublishOption]:
    """The options of one Novel in engine order (lazy; the deadline is checked per combo).

    ``combos`` are the rank multisets to split (by default every one the pattern
    finds in the pool); :func:`search` passes those its count found productive.
    """
    assert spec.pattern is not None
    for combo in spec.pattern.combinations(ctx.pool) if combos is None else combos:
        _check(deadline)
        if not card_level:
            yield from _combo_options(ctx, spec.id, spec.points, combo)
            continue
        for split, _, _ in _splits(ctx, combo):
            yield from _card_level(ctx, _option(spec.id, spec.points, split), split)


def _cost_counts(
    ctx: _Context,
    spec: NovelSpec,
    card_level: bool,
    deadline: Deadline | None,
    productive: list[tuple[int, ...]] | None = None,
) -> dict[tuple[int, int], int]:
    """How many options of one Novel have each (played, gifts), counted without listing them.

    Per rank multiset, a dynamic programme over its ranks: each rank's pieces
    add their costs, and the states that break R5 or ``max_gifts`` are dropped
    exactly where the enumeration prunes them, so the counts are the lengths of
    the lists :func:`options` would return. Card by card (R8's separate mode), a
    piece counts once per choice of its hand cards. The rank multisets with at
    least one option are appended to ``productive``, so listing them later needs
    neither the pattern's search again nor the multisets without options.
    """
    assert spec.pattern is not None
    limit = ctx.limit
    max_gifts = ctx.constraints.max_gifts if ctx.constraints.max_gifts is not None else limit
    totals: dict[tuple[int, int], int] = {}
    for combo in spec.pattern.combinations(ctx.pool):
        _check(deadline)
        states = {(0, 0): 1}
        for rank, need in rank_runs(combo):
            steps = _steps(ctx, rank, need, card_level)
            following: dict[tuple[int, int], int] = {}
            for (played, gifts), ways in states.items():
                for more_played, more_gifts, weight in steps:
                    now_played, now_gifts = played + more_played, gifts + more_gifts
                    if now_played + now_gifts > limit or now_gifts > max_gifts:
                        continue  # R5: the gifts could not all be paid
                    now = (now_played, now_gifts)
                    following[now] = following.get(now, 0) + ways * weight
            states = following
            if not states:
                break
        found = False
        for costs, ways in states.items():
            if costs[0]:  # R4: pastiche alone is not a publish
                totals[costs] = totals.get(costs, 0) + ways
                found = True
        if found and productive is not None:
            productive.append(combo)
    return totals


def _steps(ctx: _Context, rank: int, need: int, card_level: bool) -> list[tuple[int, int, int]]:
    """What filling ``need`` cards of ``rank`` adds to an option's (played, gifts), with the
    number of ways to do it (card by card, a piece counts once per choice of its hand cards);
    cached per position, as :func:`_pieces` is."""
    key = (rank, need, card_level)
    cached = ctx.steps.get(key)
    if cached is not None:
        return cached
    steps: dict[tuple[int, int], int] = {}
    in_hand = len(ctx.hand_by_rank.get(rank, ()))
    for piece in _pieces(ctx, rank, need):
        weight = math.comb(in_hand, piece.from_hand) if card_level else 1
        step = (piece.from_hand, piece.extra)
        steps[step] = steps.get(step, 0) + weight
    found = ctx.steps[key] = [(played, gifts, ways) for (played, gifts), ways in steps.items()]
    return found


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one bounded :func:`search` found.

    ``counts`` holds the exact number of options of each Novel that was counted
    (all of them unless the time ran out), ``fronts`` their Pareto fronts, and
    ``options`` the options listed, at most ``max_options``; ``stopped_by`` is
    ``None`` for a complete answer, else the limit that cut it short.
    """

    options: list[PublishOption]
    """The options listed, Novel by Novel in catalogue order, each distinct (R8) unless card by
    card: every option, or a fair share of ``max_options`` per Novel."""
    fronts: dict[str, list[tuple[int, int]]]
    """Per Novel counted, its Pareto front of ``(played, gifts)`` (R9), played ascending and gifts
    descending."""
    counts: dict[str, int]
    """Per Novel with an option, the exact number of its options; Novels the time limit kept from
    being counted are missing."""
    stopped_by: str | None
    """``None`` for a complete answer, else ``'max_options'`` (counts and fronts still complete) or
    ``'time_limit'``."""

    @property
    def complete(self) -> bool:
        """Whether every option is listed and every Novel counted."""
        return self.stopped_by is None


def search(
    position: Position,
    constraints: Constraints | None = None,
    *,
    card_level: bool = False,
    time_limit: float | None = None,
    max_options: int | None = None,
    deadline: Deadline | None = None,
) -> SearchResult:
    """Count, front and list the options of every Novel within a time and an output limit.

    First every Novel's options are counted and its Pareto front found without
    listing them (cheap: a dynamic programme per rank multiset); then options
    are listed, Novel by Novel. When ``max_options`` is smaller than the total,
    each Novel gets a fair share (Novels with few options keep them all, the
    rest is split evenly), so a cut answer still shows every Novel. The listing
    order is the engine's, so a cut by ``max_options`` is deterministic.
    ``deadline`` (a :class:`~pastiche_core.data.limits.Deadline`) replaces
    ``time_limit`` when a caller shares one clock between several calls.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> found = search(pos, max_options=2)
    >>> found.counts, found.stopped_by
    ({'kind-3': 4, 'kind-5': 1}, 'max_options')
    >>> [str(option) for option in found.options]
    ['publish kind-3 MYS7 cite m1 m2 gift 1:? for 1 point', 'publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points']
    """
    limit = check_max_options(max_options)
    clock = deadline if deadline is not None else Deadline(time_limit)
    ctx = _context(position, constraints)
    specs = list(_novels(ctx))
    costs: dict[str, dict[tuple[int, int], int]] = {}
    productive: dict[str, list[tuple[int, ...]]] = {}
    stopped_by: str | None = None
    try:
        for spec in specs:
            combos = productive[spec.id] = []
            counted = _cost_counts(ctx, spec, card_level, clock, combos)
            if counted:
                costs[spec.id] = counted
    except _StoppedError:
        stopped_by = "time_limit"
    if stopped_by is None:  # every Novel counted: its productive multisets are all known
        if len(_PRODUCTIVE) >= _PRODUCTIVE_KEPT:
            _PRODUCTIVE.clear()
        _PRODUCTIVE[(position, ctx.constraints)] = {
            novel: tuple(combos) for novel, combos in productive.items()
        }
    counts = {novel: sum(counted.values()) for novel, counted in costs.items()}
    fronts = {novel: _front(set(counted)) for novel, counted in costs.items()}
    shares = _shares(counts, limit)
    if stopped_by is None and any(shares[n] < counts[n] for n in counts):
        stopped_by = "max_options"
    found: list[PublishOption] = []
    # Sorting and writing a long listing costs about as much as making it:
    # listing stops early enough for both to fit in the time limit.
    listing = clock.share(_LISTING_SHARE)
    try:
        for spec in specs:
            share = shares.get(spec.id, 0)
            if not share:
                continue
            listed = _novel_options(ctx, spec, card_level, listing, productive[spec.id])
            for count, option in enumerate(listed, start=1):
                found.append(option)
                if count == share:
                    break
                if not count & 0xFF:
                    _check(listing)
    except _StoppedError:
        stopped_by = "time_limit"
    return SearchResult(found, fronts, counts, stopped_by)


def _shares(counts: dict[str, int], limit: int | None) -> dict[str, int]:
    """How many options of each Novel to list: all, or fair shares of ``limit``."""
    if limit is None or sum(counts.values()) <= limit:
        return dict(counts)
    shares: dict[str, int] = {}
    left = limit
    pending = sorted(counts, key=lambda novel: (counts[novel], novel))
    for index, novel in enumerate(pending):
        share = min(counts[novel], left // (len(pending) - index))
        shares[novel] = share
        left -= share
    return shares


def _exact(found: SearchResult, time_limit: float | None) -> SearchResult:
    if found.stopped_by == "time_limit":
        raise SearchLimitError(
            f"the search stopped at the time limit ({time_limit:g} s) after "
            f"{len(found.options):,} options",
            "time_limit",
        )
    return found


def options(
    position: Position,
    constraints: Constraints | None = None,
    *,
    card_level: bool = False,
    time_limit: float | None = None,
) -> list[PublishOption]:
    """Every distinct legal publish option (R8), in catalogue order.

    With ``card_level=True`` every choice of physical hand cards is listed too
    (cited Masterpieces and gifts stay as in the default mode). This is the
    exact building block: it lists everything, and raises
    :class:`~pastiche_core.data.errors.SearchLimitError` if ``time_limit`` runs out
    first (:func:`~pastiche_core.solver.queries.solve` returns a bounded answer instead).

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7 FAN7")
    >>> len(options(pos)), len(options(pos, card_level=True))
    (1, 4)
    """
    ctx = _context(position, constraints)
    clock = Deadline(time_limit)
    found: list[PublishOption] = []
    try:
        for spec in _novels(ctx):
            found.extend(_novel_options(ctx, spec, card_level, clock))
    except _StoppedError:
        _exact(SearchResult(found, {}, {}, "time_limit"), time_limit)
    return found


def counts(
    position: Position,
    constraints: Constraints | None = None,
    *,
    card_level: bool = False,
    time_limit: float | None = None,
) -> dict[str, int]:
    """The number of options of each Novel that has any, counted without listing them.

    Equal to counting :func:`options` by Novel, at the cost of the Pareto fronts.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7 FAN7")
    >>> counts(pos), counts(pos, card_level=True)
    ({'kind-3': 1}, {'kind-3': 4})
    """
    return _exact(
        search(position, constraints, card_level=card_level, time_limit=time_limit, max_options=0),
        time_limit,
    ).counts


def _front(points: set[tuple[int, int]]) -> list[tuple[int, int]]:
    front: list[tuple[int, int]] = []
    for played, gifts in sorted(points):
        if not front or gifts < front[-1][1]:
            front.append((played, gifts))
    return front


# home: R9.pareto
def pareto(
    position: Position, constraints: Constraints | None = None, *, time_limit: float | None = None
) -> dict[str, list[tuple[int, int]]]:
    """Per Novel with an option, the Pareto front of (played, gifts), ascending (R9).

    Exact; raises :class:`~pastiche_core.data.errors.SearchLimitError` if
    ``time_limit`` runs out first.

    >>> from pastiche_core.solver.position import Position
    >>> pareto(Position.quick("SCI7 HOR7", table="m1=1:MYS7 m2=0:FAN7"))
    {'kind-3': [(1, 1), (2, 0)]}
    """
    return _exact(
        search(position, constraints, time_limit=time_limit, max_options=0), time_limit
    ).fronts


# home: R9.optimum
def optimum(
    position: Position,
    novel: str,
    order: tuple[str, str] = ("played", "gifts"),
    constraints: Constraints | None = None,
    *,
    time_limit: float | None = None,
) -> PublishOption | None:
    """The lexicographic optimum for ``novel`` (R9), or ``None`` if it has no option.

    ``order`` is ``("played", "gifts")`` (fewest cards played, then fewest
    gifts) or ``("gifts", "played")``. Ties go to the smallest
    :func:`~pastiche_core.solver.options.option_key`. Exact; raises
    :class:`~pastiche_core.data.errors.SearchLimitError` if ``time_limit`` runs out.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> str(optimum(pos, "kind-3"))
    'publish kind-3 MYS7 cite m1 m2 gift 1:? for 1 point'
    >>> str(optimum(pos, "kind-3", order=("gifts", "played")))
    'publish kind-3 MYS7 FAN7 cite m1 for 1 point'
    """
    if order not in _ORDERS:
        raise InvalidArgumentError(f"order must be one of {_ORDERS}, got {order!r}")
    spec = position.catalogue[novel]
    clock = Deadline(time_limit)
    found = search(position, constraints, max_options=0, deadline=clock)
    front = found.fronts.get(spec.id)
    if found.stopped_by == "time_limit" and front is None and spec.id not in found.counts:
        _exact(found, time_limit)
    if not front:
        return None
    target = front[0] if order == ("played", "gifts") else front[-1]
    option, complete = option_with_costs(position, novel, target, constraints, deadline=clock)
    if not complete:
        _exact(SearchResult([], {}, {}, "time_limit"), time_limit)
    return option


def option_with_costs(
    position: Position,
    novel: str,
    costs: tuple[int, int],
    constraints: Constraints | None = None,
    *,
    deadline: Deadline | None = None,
) -> tuple[PublishOption | None, bool]:
    """The option of ``novel`` with these (played, gifts) and the smallest R8 key.

    Returns the option (``None`` if there is none) and whether the search
    finished before ``deadline``; if not, the option is the best found so far.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> option, complete = option_with_costs(pos, "kind-3", (2, 1))
    >>> str(option), complete
    ('publish kind-3 MYS7 FAN7 cite m2 gift 1:? for 1 point', True)
    """
    ctx = _context(position, constraints)
    spec = position.catalogue[novel]
    if spec not in list(_novels(ctx)):
        return None, True
    assert spec.pattern is not None
    # option_key's parts but the Novel, read from a split: its played ranks (the pieces come
    # in ascending rank) and its citations' keys, by table index.
    cite_keys = [citation_key(position, mp) for mp in position.masterpieces]
    best: _Split | None = None
    best_key: tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None = None
    finished = True
    # The multisets a search of this position found productive, in the pattern's order, if
    # it was the last searched: the others have no option at all, so none is skipped.
    known = _PRODUCTIVE.get((position, ctx.constraints))
    combos = known.get(spec.id, ()) if known is not None else spec.pattern.combinations(ctx.pool)
    try:
        for combo in combos:
            _check(deadline)
            if len(combo) < costs[0]:
                continue  # too few cards to play that many
            for split, played, gifts in _splits(ctx, combo, costs):
                if (played, gifts) == costs:
                    ranks = tuple(rank for piece in split for rank in piece.rank_cards)
                    cited = sorted(cite_keys[index] for piece in split for index, _ in piece.cited)
                    key = (ranks, tuple(cited))
                    if best_key is None or key < best_key:
                        best, best_key = split, key
    except _StoppedError:
        finished = False
    return (None if best is None else _option(novel, spec.points, best)), finished
