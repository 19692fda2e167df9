"""The fast exact publish engine: every option (R8) and optimal pastiche (R9).

For each available Novel the engine asks the pattern for every rank multiset the
hand and the table can supply together, then splits each rank between hand
cards and Masterpieces of each owner. Splits that play no card (R4), cannot pay
their gifts from the unplayed cards (R5) or break a constraint are cut as soon
as they are known to fail, so the work is proportional to the options found.

Pareto fronts need no enumeration: per rank multiset, the reachable
(played, gifts) pairs are a sum of small per-rank sets.

>>> from pastiche_core.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> [str(o) for o in options(pos) if o.novel == "kind-5"]
['kind-5: MYS7 FAN7 cite m1 m2 m3 gifts 1x2']
>>> pareto(pos)["kind-3"]
[(1, 1), (2, 0)]
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import Card
from .catalogue import NovelSpec
from .movegen import _OWED_BITS, _mark_own, _owed_pairs, _rank_shapes
from .options import Constraints, PublishOption, option_key
from .position import Position

__all__ = ["optimum", "options", "pareto"]

_NO_CONSTRAINTS = Constraints()
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

    def ids_of(self, mask: int) -> tuple[str, ...]:
        """The ids of the Masterpieces whose table indexes are the bits of ``mask``."""
        table = self.position.masterpieces
        return tuple(table[index].id for index in range(len(table)) if mask >> index & 1)


def _context(position: Position, constraints: Constraints | None) -> _Context:
    cons = constraints if constraints is not None else _NO_CONSTRAINTS
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


def _runs(combo: tuple[int, ...]) -> list[tuple[int, int]]:
    """(rank, count) for each distinct rank of a sorted rank multiset."""
    runs: list[tuple[int, int]] = []
    previous = 0
    for rank in combo:
        if rank == previous:
            runs[-1] = (rank, runs[-1][1] + 1)
        else:
            runs.append((rank, 1))
            previous = rank
    return runs


def _marked(ctx: _Context, rank: int) -> tuple[int, ...]:
    """Masterpieces of ``rank`` per owner, the player's own marked as free (R5)."""
    return _mark_own(ctx.masterpieces.get(rank, (0,) * ctx.width), ctx.position.player)


def _rank_keys(ctx: _Context, combo: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
    """(rank, needed, shapes key) per distinct rank of ``combo``."""
    return [(rank, need, _marked(ctx, rank)) for rank, need in _runs(combo)]


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


_Split = tuple[_Piece, ...]


def _pieces(ctx: _Context, rank: int, need: int, marked: tuple[int, ...]) -> list[_Piece]:
    """The ways to fill ``need`` cards of ``rank`` (cached per position: combos share ranks)."""
    cached = ctx.pieces.get((rank, need))
    if cached is not None:
        return cached
    hand = ctx.hand_by_rank.get(rank, [])
    player = ctx.position.player
    pieces = []
    for from_hand, per_owner, _, _, extra in _rank_shapes((need, len(hand), marked)):
        cited: list[tuple[int, str]] = []
        gifts = []
        for owner, taken in enumerate(per_owner):
            if taken:
                cited.extend(ctx.ids[(rank, owner)][:taken])
                if owner != player:
                    gifts.append((owner, taken))
        mask = sum(1 << index for index, _ in cited)
        code = sum(count << (_OWED_BITS * owner) for owner, count in gifts)
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


def _splits(ctx: _Context, combo: tuple[int, ...]) -> Iterator[tuple[_Split, int, int]]:
    """Every legal split of ``combo``: (one piece per rank, cards played, gifts)."""
    options = [_pieces(ctx, *key) for key in _rank_keys(ctx, combo)]
    limit = ctx.limit
    max_gifts = ctx.constraints.max_gifts
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
            if max_gifts is not None and now_gifts > max_gifts:
                continue
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
    for rank, need in _runs(combo):
        pieces = ctx.pieces.get((rank, need))
        if pieces is None:
            pieces = _pieces(ctx, rank, need, _marked(ctx, rank))
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
                novel, tuple(sorted(cards, key=_BY_INDEX)), cited, _owed_pairs(code), points
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


def options(
    position: Position, constraints: Constraints | None = None, *, card_level: bool = False
) -> list[PublishOption]:
    """Every distinct legal publish option (R8), in catalogue order.

    With ``card_level=True`` every choice of physical hand cards is listed too
    (cited Masterpieces and gifts stay as in the default mode).

    >>> from pastiche_core.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7 FAN7")
    >>> len(options(pos)), len(options(pos, card_level=True))
    (1, 4)
    """
    ctx = _context(position, constraints)
    found: list[PublishOption] = []
    for spec in _novels(ctx):
        assert spec.pattern is not None
        for combo in spec.pattern.combinations(ctx.pool):
            if not card_level:
                found.extend(_combo_options(ctx, spec.id, spec.points, combo))
                continue
            for split, _, _ in _splits(ctx, combo):
                option = _option(spec.id, spec.points, split)
                found.extend(_card_level(ctx, option, split))
    return found


def _costs(ctx: _Context, spec: NovelSpec) -> set[tuple[int, int]]:
    """Every reachable (played, gifts) pair of one Novel, without listing options."""
    assert spec.pattern is not None
    reachable: set[tuple[int, int]] = set()
    limit = ctx.limit
    max_gifts = ctx.constraints.max_gifts
    for combo in spec.pattern.combinations(ctx.pool):
        states = {(0, 0)}
        for rank, need, marked in _rank_keys(ctx, combo):
            in_hand = len(ctx.hand_by_rank.get(rank, ()))
            steps = {(s[0], s[4]) for s in _rank_shapes((need, in_hand, marked))}
            states = {
                (p + dp, g + dg)
                for p, g in states
                for dp, dg in steps
                if p + dp + g + dg <= limit and (max_gifts is None or g + dg <= max_gifts)
            }
            if not states:
                break
        reachable.update(state for state in states if state[0])
    return reachable


def _front(points: set[tuple[int, int]]) -> list[tuple[int, int]]:
    front: list[tuple[int, int]] = []
    for played, gifts in sorted(points):
        if not front or gifts < front[-1][1]:
            front.append((played, gifts))
    return front


def pareto(
    position: Position, constraints: Constraints | None = None
) -> dict[str, list[tuple[int, int]]]:
    """Per Novel with an option, the Pareto front of (played, gifts), ascending (R9).

    >>> from pastiche_core.position import Position
    >>> pareto(Position.quick("SCI7 HOR7", table="m1=1:MYS7 m2=0:FAN7"))
    {'kind-3': [(1, 1), (2, 0)]}
    """
    ctx = _context(position, constraints)
    fronts = {}
    for spec in _novels(ctx):
        points = _costs(ctx, spec)
        if points:
            fronts[spec.id] = _front(points)
    return fronts


def optimum(
    position: Position,
    novel: str,
    order: tuple[str, str] = ("played", "gifts"),
    constraints: Constraints | None = None,
) -> PublishOption | None:
    """The lexicographic optimum for ``novel`` (R9), or ``None`` if it has no option.

    ``order`` is ``("played", "gifts")`` (fewest cards played, then fewest
    gifts) or ``("gifts", "played")``. Ties go to the smallest
    :func:`~pastiche_core.options.option_key`.

    >>> from pastiche_core.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> str(optimum(pos, "kind-3"))
    'kind-3: MYS7 cite m1 m2 gifts 1x1'
    >>> str(optimum(pos, "kind-3", order=("gifts", "played")))
    'kind-3: MYS7 FAN7 cite m1'
    """
    if order not in _ORDERS:
        raise ValueError(f"order must be one of {_ORDERS}, got {order!r}")
    ctx = _context(position, constraints)
    spec = position.catalogue[novel]
    if spec not in list(_novels(ctx)):
        return None
    points = _costs(ctx, spec)
    if not points:
        return None
    if order == ("played", "gifts"):
        target = min(points)
    else:
        target = min(points, key=lambda pg: (pg[1], pg[0]))
    assert spec.pattern is not None
    best: PublishOption | None = None
    for combo in spec.pattern.combinations(ctx.pool):
        for split, played, gifts in _splits(ctx, combo):
            if (played, gifts) == target:
                option = _option(novel, spec.points, split)
                if best is None or option_key(position, option) < option_key(position, best):
                    best = option
    return best
