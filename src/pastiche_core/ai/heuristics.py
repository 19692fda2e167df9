"""How promising a hand is: the publishing prospects behind the greedy bot's decisions.

Every pattern of the built-in kinds looks at ranks only (R2), so a hand is
valued by its rank counts. For each Novel the player may still publish (in
supply, not held, R6), :class:`Outlook` finds the cheapest way to complete it
from the hand and the Masterpieces on the table:

* the player's own Masterpieces are cited first (free, and they need no
  reading, R5);
* then hand cards are played;
* then other players' Masterpieces are cited, each costing a gift (R5), counted
  as :attr:`Weights.rival_cite` of a missing card;
* every card still needed is *missing*, possible only while enough cards of its
  rank are not locked in Masterpieces or under the End Flag.

A Novel needing ``missing`` cards (plus the rival citations' share) and
``played`` cards from the hand is worth:

    prospect × points × missing_factor ** cost × read_factor ** (played − 1)

``played − 1`` is the number of reads the new novel needs before it is a
Masterpiece (R7, R11). During the end-game countdown (R12) a Novel that needs
more turns than the player has left (one per missing card, one to publish, one
per read) is worth nothing. The hand's *prospects* add the Novels' values, best
first, each weighted by :attr:`Weights.spread` to the power of its place (one
card rarely serves two Novels).

Patterns of the built-in kinds are valued (straights, of-a-kind, pairs, totals
— the latter approximately: an exact subset sum for a complete Novel, a range
test otherwise); a user-defined pattern (R3) has no prospects, though the bot
still publishes it when the solver finds it. A subclass of a built-in pattern
is valued as its kind.

The prospects are the ``prospects`` kernel (:mod:`pastiche_core.engine._kernels`): its
Python rule here reads the rank vectors, the catalogue's plan
(:func:`~pastiche_core.engine.feasibility.kernel_plan`, the playout policy's too) and
its usable flags, as the compiled twin does; each rank's fill is
:func:`~pastiche_core.engine.feasibility.fill_rank` and the R4 step
:func:`~pastiche_core.engine.feasibility.settle`.

>>> from pastiche_core import Game
>>> outlook = Outlook.of_view(Game(players=4, seed=1).view(0))
>>> hand = counts_of("HOR7 MYS7 FAN7")
>>> round(outlook.prospects(hand), 3) > round(outlook.prospects(counts_of("MYT1 HOR7 MAG13")), 3)
True
"""

from __future__ import annotations

import array
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..data.cards import MAX_RANK, MIN_RANK, Card, parse_cards
from ..data.catalogue import Catalogue, NovelSpec
from ..data.errors import InvalidArgumentError
from ..data.patterns import OfAKind, Pairs, RankCounts, Straight, Total
from ..engine._kernels import kernel
from ..engine.feasibility import KIND_CODES, fill_rank, kernel_plan, pattern_code, rank_cost, settle
from ..engine.game_internals import insides
from ..engine.table import is_masterpiece
from ..engine.view import PlayerView
from .visible import RANK_COPIES

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["DEFAULT_WEIGHTS", "Outlook", "Weights", "counts_of", "horizon_of"]

_RANKS = range(MIN_RANK, MAX_RANK + 1)
_INFEASIBLE = (math.inf, 0, 0)
_MEMO_SIZE = 4096
"""Hands whose prospects one outlook remembers (one decision evaluates a few hundred)."""
_STRAIGHT, _OF_A_KIND, _PAIRS, _TOTAL = (
    KIND_CODES[Straight],
    KIND_CODES[OfAKind],
    KIND_CODES[Pairs],
    KIND_CODES[Total],
)


@dataclass(frozen=True, slots=True)
class Weights:
    """The tunable numbers of the greedy heuristic, all in Masterpiece points.

    * ``missing_factor``: value kept per card still missing (γ);
    * ``read_factor``: value kept per read a Published novel still needs (ρ);
    * ``rival_cite``: citing another player's Masterpiece, in missing cards;
    * ``spread``: weight of the second best Novel of a hand, squared for the
      third, and so on;
    * ``prospect``: what a prospect is worth against points on the table;
    * ``gift``: what one card given to an ordinary rival costs;
    * ``help``: the share of a rival's gain counted against the player (reads
      of rivals' novels, gifts); doubled for the leader, more near the End Flag's threshold.

    >>> Weights().missing_factor
    0.5
    >>> Weights(read_factor=2.0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: weights.read_factor must be a number from 0 to 1, got 2.0
    """

    missing_factor: float = 0.5
    """Value kept per card a Novel still misses (γ)."""
    read_factor: float = 0.6
    """Value kept per read a Published novel still needs (ρ)."""
    rival_cite: float = 0.5
    """What citing another player's Masterpiece costs, in missing cards."""
    spread: float = 0.5
    """Weight of a hand's second best Novel, squared for the third, and so on."""
    prospect: float = 0.7
    """What a prospect is worth against points on the table."""
    gift: float = 0.25
    """What one card given to an ordinary rival costs."""
    help: float = 0.4
    """The share of a rival's gain counted against the player; doubled for the leader."""

    def __post_init__(self) -> None:
        for name in ("missing_factor", "read_factor", "spread", "prospect"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 <= value <= 1:
                raise InvalidArgumentError(
                    f"weights.{name} must be a number from 0 to 1, got {value!r}"
                )
        for name in ("rival_cite", "gift", "help"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 <= value <= 10:
                raise InvalidArgumentError(
                    f"weights.{name} must be a number from 0 to 10, got {value!r}"
                )


DEFAULT_WEIGHTS = Weights()
"""The greedy heuristic's default :class:`Weights` (one instance, shared)."""


def counts_of(cards: Iterable[Card] | str) -> list[int]:
    """Cards per rank (index 0 unused), from cards or their notation.

    >>> counts_of("SCI7 HOR7 MAG13")[7], counts_of("SCI7 HOR7 MAG13")[13]
    (2, 1)
    """
    counts = [0] * (MAX_RANK + 1)
    for card in parse_cards(cards) if isinstance(cards, str) else cards:
        counts[card.rank] += 1
    return counts


def horizon_of(view: PlayerView) -> int | None:
    """The turns the view's player still gets, this one included; ``None`` before the countdown.

    During the countdown (R12) ``turns_left`` turns remain, starting with the
    current player's; the player gets one in every ``players`` of them.

    >>> from dataclasses import replace
    >>> from pastiche_core import Game
    >>> view = Game(players=4, seed=1).view(0)
    >>> horizon_of(view) is None
    True
    >>> horizon_of(replace(view, turns_left=7, current=0)), horizon_of(replace(view, turns_left=7, current=1))
    (2, 1)
    """
    return _turns_of(view.player, view.current, view.players, view.turns_left)


def _turns_of(player: int, current: int, players: int, turns_left: int | None) -> int | None:
    """:func:`horizon_of` from the numbers it needs."""
    if turns_left is None:
        return None
    offset = (player - current) % players
    if turns_left <= offset:
        return 0
    return (turns_left - offset - 1) // players + 1


@dataclass(frozen=True, slots=True)
class Outlook:
    """What one player's prospects depend on besides the hand: the table and the supply.

    ``own`` and ``rival`` count the Masterpiece ranks of the player and of the
    others; ``pool`` counts, per rank, the cards not locked in a Masterpiece or
    under the End Flag (hand cards included: a card of the hand is counted
    there, not as obtainable); ``novels`` lists the Novels the player may still
    publish; ``horizon`` is :func:`horizon_of` (``None``: no countdown);
    ``catalogue``, when known, is the catalogue the novels come from.

    >>> outlook = Outlook.of_view(__import__("pastiche_core").Game(players=3, seed=7).view(0))
    >>> len(outlook.novels), outlook.horizon
    (10, None)
    """

    novels: tuple[NovelSpec, ...]
    """The Novels the player may still publish."""
    own: RankCounts
    """Per rank, the player's Masterpieces (cards that may be cited for free)."""
    rival: RankCounts
    """Per rank, the other players' Masterpieces (citing them costs gifts, R5)."""
    pool: RankCounts
    """Per rank, the cards not locked in a Masterpiece or under the End Flag."""
    horizon: int | None = None
    """The player's turns left in the countdown (:func:`horizon_of`), ``None`` without one."""
    weights: Weights = DEFAULT_WEIGHTS
    """The heuristic's :class:`Weights`."""
    catalogue: Catalogue | None = field(default=None, repr=False, compare=False)
    """The catalogue ``novels`` come from, ``None`` if unknown: the prospects then read its
    plan (:func:`~pastiche_core.engine.feasibility.kernel_plan`, the one the playout policy reads),
    the novels flagged in it, rather than a plan of the novels alone."""
    _memo: dict[tuple[int, ...], float] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _packed: list[_Packed] = field(default_factory=list, init=False, repr=False, compare=False)
    """The prospects kernel's arguments but the hand, once made (see :meth:`prospects`)."""

    @classmethod
    def of_view(
        cls, view: PlayerView, catalogue: Catalogue | None = None, weights: Weights | None = None
    ) -> Outlook:
        """The outlook of the view's player.

        >>> from pastiche_core import Game
        >>> Outlook.of_view(Game(players=3, seed=7).view(0)).own[7]
        0
        """
        return cls._of_tables(
            view.player,
            [{novel.novel: novel.cards for novel in table} for table in view.tables],
            view.flag,
            dict(view.supply),
            catalogue if catalogue is not None else Catalogue.default(),
            horizon_of(view),
            weights,
        )

    @classmethod
    def of_game(cls, game: Game, player: int, weights: Weights | None = None) -> Outlook:
        """The outlook of ``player`` in ``game`` (what the player's view would give).

        It reads only what every player sees (the tables, the supply, the End
        Flag, the countdown), so it equals :meth:`of_view` of the player's view.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> Outlook.of_game(game, 1) == Outlook.of_view(game.view(1), game.catalogue)
        True
        """
        inside = insides(game)
        return cls._of_tables(
            player,
            inside.tables,
            inside.flag,
            game.supply,
            game.catalogue,
            _turns_of(player, inside.current, game.players, inside.turns_left),
            weights,
        )

    @classmethod
    def _of_tables(
        cls,
        player: int,
        tables: Sequence[Mapping[str, tuple[Card, ...]]],
        flag: tuple[int, Card] | None,
        supply: Mapping[str, int],
        catalogue: Catalogue,
        horizon: int | None,
        weights: Weights | None,
    ) -> Outlook:
        own = [0] * (MAX_RANK + 1)
        rival = [0] * (MAX_RANK + 1)
        pool = list(RANK_COPIES)
        for owner, table in enumerate(tables):
            for cards in table.values():
                if is_masterpiece(cards):
                    rank = cards[0].rank
                    (own if owner == player else rival)[rank] += 1
                    pool[rank] -= 1
        if flag is not None:
            pool[flag[1].rank] -= 1
        held = tables[player]
        novels = tuple(
            spec
            for spec in catalogue.publishable
            if supply.get(spec.id, 0) > 0 and spec.id not in held
        )
        return cls(
            novels=novels,
            own=tuple(own),
            rival=tuple(rival),
            pool=tuple(max(0, n) for n in pool),
            horizon=horizon,
            weights=weights if weights is not None else DEFAULT_WEIGHTS,
            catalogue=catalogue,
        )

    def after_publish(self, novel: str, instant: Card | None) -> Outlook:
        """The outlook after publishing ``novel`` (now held, R6); ``instant``: its one card (R7).

        >>> from pastiche_core import Game, Card
        >>> outlook = Outlook.of_view(Game(players=3, seed=7).view(0))
        >>> after = outlook.after_publish("kind-3", Card.parse("SCI7"))
        >>> len(after.novels), after.own[7], after.pool[7]
        (9, 1, 6)
        """
        own, pool = list(self.own), list(self.pool)
        if instant is not None:
            own[instant.rank] += 1
            pool[instant.rank] -= 1
        return replace(
            self,
            novels=tuple(spec for spec in self.novels if spec.id != novel),
            own=tuple(own),
            pool=tuple(pool),
        )

    def after_turns(self, turns: int) -> Outlook:
        """The outlook ``turns`` of the player's own turns later (the countdown runs on).

        >>> from pastiche_core import Game
        >>> Outlook.of_view(Game(players=3, seed=7).view(0)).after_turns(1).horizon is None
        True
        """
        if self.horizon is None:
            return self
        return replace(self, horizon=max(0, self.horizon - turns))

    # ------------------------------------------------------------------
    def novel_value(self, spec: NovelSpec, hand: Sequence[int]) -> float:
        """What completing ``spec`` from ``hand`` is worth now, in points (see the module).

        >>> from pastiche_core import Catalogue, Game
        >>> outlook = Outlook.of_view(Game(players=3, seed=7).view(0))
        >>> spec = Catalogue.default()["kind-3"]
        >>> outlook.novel_value(spec, counts_of("SCI7 HOR7 MYS7"))  # ready: 3 cards, 2 reads
        0.252
        >>> outlook.novel_value(spec, counts_of("SCI7 HOR7"))  # one card missing
        0.126
        """
        code = pattern_code(spec.pattern, exact=False)  # a subclass is valued as its kind
        if code is None:
            return 0.0  # a user-defined pattern: no prospects (the solver still finds it)
        _, _, weights, horizon = self._arguments()
        needs = _Needs(hand, self.own, self.rival, self.pool, weights[4])
        return _novel_value(*code, spec.points, needs, weights, horizon)

    def prospects(self, hand: Sequence[int]) -> float:
        """The hand's publishing prospects: Novel values, best first, weighted by ``spread``.

        The ``prospects`` kernel answers (its Python rule is :func:`_prospects_py`),
        remembered per hand.

        >>> from pastiche_core import Game
        >>> outlook = Outlook.of_view(Game(players=3, seed=7).view(0))
        >>> outlook.prospects(counts_of("SCI7 HOR7 MYS7")) > outlook.prospects(counts_of("SCI7 HOR7"))
        True
        """
        key = tuple(hand)
        known = self._memo.get(key)
        if known is not None:
            return known
        plan, usable, weights, horizon = self._arguments()
        total = _prospects(key, self.own, self.rival, self.pool, plan, usable, weights, horizon)
        if len(self._memo) < _MEMO_SIZE:
            self._memo[key] = total
        return total

    def _arguments(self) -> _Packed:
        """The prospects kernel's plan, usable flags, weights and horizon, made once."""
        if not self._packed:
            plan, usable = _plan_of(self.novels, self.catalogue)
            w = self.weights
            weights = (
                float(w.prospect),
                float(w.missing_factor),
                float(w.read_factor),
                float(w.spread),
                float(w.rival_cite),
            )
            horizon = -1 if self.horizon is None else self.horizon
            self._packed.append((plan, usable, weights, horizon))
        return self._packed[0]


_Weights = tuple[float, float, float, float, float]
"""The weights the prospects kernel reads: prospect, missing_factor, read_factor, spread, rival_cite."""
_Packed = tuple[bytes, bytes, _Weights, int]
"""The prospects kernel's arguments but the rank vectors: plan, usable flags, weights, horizon."""
_Entry = tuple[int, int, int, int, int]
"""A plan entry: kind, first, second, size, points (:mod:`pastiche_core.engine.layout`)."""
_LOOSE: dict[int, tuple[NovelSpec, bytes]] = {}
"""Each Novel's plan entry as the outlook codes it, by the spec's identity (the spec is kept)."""
_ENTRIES: dict[bytes, tuple[_Entry, ...]] = {}
"""The entries of the plans read, by plan."""


def _plan_of(novels: Sequence[NovelSpec], catalogue: Catalogue | None) -> tuple[bytes, bytes]:
    """The plan and usable flags of ``novels``, as the prospects kernel reads them.

    The catalogue's plan (the playout policy's too) with the novels flagged, when the
    catalogue has one and holds the novels; otherwise a plan of the novels alone, all
    flagged, a subclass of a built-in kind coded as its kind (the outlook values it so)
    and a user-defined pattern left out (it has no prospects).

    >>> default = Catalogue.default()
    >>> plan, usable = _plan_of(default.publishable[:2], default)
    >>> plan == kernel_plan(default), list(usable)
    (True, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    >>> plan, usable = _plan_of(default.publishable[:2], None)
    >>> list(array.array("i", plan)), list(usable)
    ([0, 5, 0, 5, 1, 0, 7, 0, 7, 3], [1, 1])
    """
    plan = kernel_plan(catalogue) if catalogue is not None else None
    if plan is not None and catalogue is not None:
        chosen = {spec.id: spec for spec in novels}
        usable = bytes(chosen.get(spec.id) is spec for spec in catalogue.publishable)
        if sum(usable) == len(novels):
            return plan, usable
    entries = [entry for spec in novels if (entry := _loose_entry(spec))]
    return b"".join(entries), b"\x01" * len(entries)


def _loose_entry(spec: NovelSpec) -> bytes:
    """``spec``'s plan entry, a subclass of a built-in kind coded as its kind; empty if none.

    >>> list(array.array("i", _loose_entry(Catalogue.default()["total-5"])))
    [3, 5, 49, 5, 2]
    """
    cached = _LOOSE.get(id(spec))
    if cached is None or cached[0] is not spec:
        code = pattern_code(spec.pattern, exact=False)
        size = spec.pattern.size if spec.pattern is not None else None
        entry = b""
        if code is not None:
            fields = (*code, -1 if size is None else size, spec.points)
            entry = array.array("i", fields).tobytes()
        if len(_LOOSE) >= _MEMO_SIZE:
            _LOOSE.clear()
        cached = _LOOSE[id(spec)] = (spec, entry)
    return cached[1]


def _entries(plan: bytes) -> tuple[_Entry, ...]:
    """A plan's entries as tuples (remembered per plan).

    >>> _entries(array.array("i", [2, 3, 0, 6, 2]).tobytes())
    ((2, 3, 0, 6, 2),)
    """
    found = _ENTRIES.get(plan)
    if found is None:
        if len(plan) % 20:
            raise InvalidArgumentError(f"a plan holds five int32 per Novel, got {len(plan)} bytes")
        values = array.array("i", plan)
        found = tuple(
            (values[at], values[at + 1], values[at + 2], values[at + 3], values[at + 4])
            for at in range(0, len(values), 5)
        )
        if len(_ENTRIES) >= 64:
            _ENTRIES.clear()
        _ENTRIES[bytes(plan)] = found
    return found


def _prospects_py(
    hand: Sequence[int],
    own: Sequence[int],
    rival: Sequence[int],
    pool: Sequence[int],
    plan: bytes,
    usable: bytes,
    weights: _Weights,
    horizon: int,
) -> float:
    """A hand's prospects (the ``prospects`` kernel in Python, the definition its twin follows).

    ``hand``, ``own``, ``rival`` and ``pool`` are the rank vectors of
    :class:`Outlook`; ``plan`` and ``usable`` a plan and its usable flags
    (:mod:`pastiche_core.engine.layout`); ``weights`` is (prospect, missing_factor,
    read_factor, spread, rival_cite); ``horizon`` the player's turns left, -1
    before the countdown. The flagged Novels are valued (see the module), and
    the values summed best first, each weighted by ``spread`` to the power of
    its place.

    >>> from pastiche_core import Catalogue
    >>> plan = kernel_plan(Catalogue.default())
    >>> usable = bytes([0, 0, 0, 0, 1, 0, 0, 0, 0, 0])  # kind-3 alone
    >>> hand = counts_of("SCI7 HOR7 MYS7")
    >>> _prospects_py(hand, [0] * 14, [0] * 14, list(RANK_COPIES), plan, usable,
    ...               (0.7, 0.5, 0.6, 0.5, 0.5), -1)  # 0.7 x 1 point x 0.6 ** 2 reads
    0.252
    """
    entries = _entries(plan)
    if len(usable) != len(entries):
        raise InvalidArgumentError(
            f"usable flags: one per plan entry ({len(entries)}), got {len(usable)}"
        )
    needs = _Needs(hand, own, rival, pool, weights[4])
    values = sorted(
        (
            _novel_value(kind, first, second, points, needs, weights, horizon)
            for (kind, first, second, _, points), flag in zip(entries, usable, strict=True)
            if flag
        ),
        reverse=True,
    )
    spread = weights[3]
    total = 0.0
    weight = 1.0
    for value in values:
        if value <= 0.0:
            break
        total += weight * value
        weight *= spread
    return total


def _novel_value(
    kind: int,
    first: int,
    second: int,
    points: int,
    needs: _Needs,
    weights: _Weights,
    horizon: int,
) -> float:
    """What completing a Novel of this kind code is worth (see the module); 0 if it cannot be."""
    cost, played, missing = needs.completion(kind, first, second)
    if cost == math.inf:
        return 0.0
    # R4: a publish plays a hand card. A completion that plays none cites a card that gives
    # way to one of its rank still to be drawn (a spare is always assumed, and missing);
    # gifts are priced in the cost, so the R5 step has none to fit.
    settled = settle(played, 0, True, played + 1)
    if settled is None:
        return 0.0
    if settled[0] != played:
        cost, played, missing = cost + 1, settled[0], missing + 1
    if horizon >= 0 and missing + played > horizon:
        return 0.0
    prospect, missing_factor, read_factor, _, _ = weights
    return float(prospect * points * missing_factor**cost) * float(read_factor ** (played - 1))


class _Needs:
    """The costs of one hand's rank requirements, each table computed once per evaluation."""

    __slots__ = ("_singles", "_tables", "cite", "hand", "own", "pool", "rival")

    def __init__(
        self,
        hand: Sequence[int],
        own: Sequence[int],
        rival: Sequence[int],
        pool: Sequence[int],
        cite: float,
    ) -> None:
        self.hand, self.own, self.rival, self.pool, self.cite = hand, own, rival, pool, cite
        self._tables: dict[int, list[tuple[float, int, int]]] = {}
        self._singles: tuple[list[float], list[int], list[int], list[int]] | None = None

    def completion(self, kind: int, first: int, second: int) -> tuple[float, int, int]:
        """(cost, played, missing) of the cheapest completion of a pattern of this kind code."""
        if kind == _STRAIGHT:
            return self.straight(first)
        if kind == _OF_A_KIND:
            return min(self.table(first)[1:])
        if kind == _PAIRS:
            return self.pairs(first)
        if kind == _TOTAL:
            return self.total(first, second)
        return _INFEASIBLE  # not a kind the outlook values

    def table(self, count: int) -> list[tuple[float, int, int]]:
        """Per rank (index 0 unused), (cost, played, missing) to have ``count`` cards of it.

        Own Masterpieces first, then hand cards, then other players' Masterpieces
        (:func:`~pastiche_core.engine.feasibility.fill_rank`); the rest is missing, possible
        while the rank has enough cards not locked away.
        """
        found = self._tables.get(count)
        if found is not None:
            return found
        own, rival, pool, hand, cite = self.own, self.rival, self.pool, self.hand, self.cite
        found = [_INFEASIBLE]
        for rank in _RANKS:
            held = hand[rank]
            _, played, cited, left = fill_rank(count, held, own[rank], rival[rank])
            if left > pool[rank] - held:
                found.append(_INFEASIBLE)
            else:
                found.append((cited * cite + left, played + left, left))
        self._tables[count] = found
        return found

    def straight(self, length: int) -> tuple[float, int, int]:
        """The cheapest run of ``length`` ranks, by prefix sums over the ranks."""
        if length > MAX_RANK or length < 1:
            return _INFEASIBLE
        if self._singles is None:
            costs, played, missing, blocked = [0.0], [0], [0], [0]
            for c, p, m in self.table(1)[1:]:
                out = c == math.inf
                costs.append(costs[-1] + (0.0 if out else c))
                played.append(played[-1] + p)
                missing.append(missing[-1] + m)
                blocked.append(blocked[-1] + out)
            self._singles = (costs, played, missing, blocked)
        costs, played, missing, blocked = self._singles
        best = _INFEASIBLE
        for low in range(MIN_RANK - 1, MAX_RANK - length + 1):
            high = low + length
            if blocked[high] != blocked[low]:
                continue
            key = (costs[high] - costs[low], played[high] - played[low])
            if key < best[:2]:
                best = (key[0], key[1], missing[high] - missing[low])
        return best

    def pairs(self, pairs: int) -> tuple[float, int, int]:
        """The cheapest ``pairs`` pairs: the cheapest two cards of as many ranks."""
        chosen = sorted(self.table(2)[1:])[:pairs]
        if pairs < 1 or len(chosen) < pairs or chosen[-1][0] == math.inf:
            return _INFEASIBLE
        cost = 0.0
        played = missing = 0
        for each in chosen:  # added in order, as the compiled twin adds them
            cost += each[0]
            played += each[1]
            missing += each[2]
        return cost, played, missing

    def total(self, count: int, target: int) -> tuple[float, int, int]:
        """A :class:`~pastiche_core.data.patterns.Total`: exact from the free cards, else a range test."""
        # Free items: own Masterpieces (cited) and hand cards (played); rivals' are left out.
        own, hand = self.own, self.hand
        items = [rank for rank in _RANKS for _ in range(own[rank])]
        own_items = len(items)
        items += [rank for rank in _RANKS for _ in range(hand[rank])]
        if not items:
            return (float(count), count, count)
        # Exact: can `count` free items add up to `target`? (bitsets of reachable sums)
        if len(items) >= count:
            reach = [1] + [0] * count
            for index, rank in enumerate(items):
                for size in range(min(index + 1, count), 0, -1):
                    reach[size] |= reach[size - 1] << rank
            if reach[count] >> target & 1:
                # R4, R5: own Masterpieces are free, but one hand card is played
                settled = settle(rank_cost(count, own_items), 0, True, count)
                return _INFEASIBLE if settled is None else (0.0, settled[0], 0)
        ordered = sorted(items)
        for missing in range(1, count + 1):
            used = count - missing
            if used > len(ordered):
                continue
            low = sum(ordered[:used])
            high = sum(ordered[len(ordered) - used :]) if used else 0
            if low <= target - missing and high >= target - MAX_RANK * missing:
                return (float(missing), missing + rank_cost(used, own_items), missing)
        return _INFEASIBLE


_prospects = kernel("prospects", _prospects_py)
