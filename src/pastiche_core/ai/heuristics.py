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
still publishes it when the solver finds it.

>>> from pastiche_core import Game
>>> outlook = Outlook.of_view(Game(players=4, seed=1).view(0))
>>> hand = counts_of("HOR7 MYS7 FAN7")
>>> round(outlook.prospects(hand), 3) > round(outlook.prospects(counts_of("MYT1 HOR7 MAG13")), 3)
True
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .._kernels import PURE_PYTHON
from ..cards import MAX_RANK, MIN_RANK, Card, parse_cards
from ..catalogue import Catalogue, NovelSpec
from ..errors import InvalidArgumentError
from ..feasibility import pattern_code
from ..patterns import OfAKind, Pairs, RankCounts, Straight, Total
from ..view import PlayerView
from .visible import RANK_COPIES

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["DEFAULT_WEIGHTS", "Outlook", "Weights", "counts_of", "horizon_of"]

_RANKS = range(MIN_RANK, MAX_RANK + 1)
_INFEASIBLE = (math.inf, 0, 0)
_MEMO_SIZE = 4096
"""Hands whose prospects one outlook remembers (one decision evaluates a few hundred)."""
# Transitional: the kernels still in legacy.c, until they move behind the gate.
_speedups = (
    None
    if PURE_PYTHON or importlib.util.find_spec("pastiche_core._legacy") is None
    else importlib.import_module("pastiche_core._legacy")
)
_compiled_prospects = getattr(_speedups, "prospects", None)
"""The compiled twin of :meth:`Outlook._prospects_py`, when the kernels are built."""


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
      of rivals' novels, gifts); doubled for the leader, more near 15 points.

    >>> Weights().missing_factor
    0.5
    >>> Weights(read_factor=2.0)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: weights.read_factor must be a number from 0 to 1, got 2.0
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
    publish; ``horizon`` is :func:`horizon_of` (``None``: no countdown).

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
    _memo: dict[tuple[int, ...], float] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _plan: list[list[_Code]] = field(default_factory=list, init=False, repr=False, compare=False)
    """The compiled kernel's plan of ``novels``, once made (see :meth:`prospects`)."""

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
        return cls._of_tables(
            player,
            game._tables,
            game.flag,
            game.supply,
            game.catalogue,
            _turns_of(player, game.current, game.players, game.turns_left),
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
                if len(cards) == 1:  # a Masterpiece
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
        return self._value(spec, _Needs(self, hand))

    def prospects(self, hand: Sequence[int]) -> float:
        """The hand's publishing prospects: Novel values, best first, weighted by ``spread``.

        >>> from pastiche_core import Game
        >>> outlook = Outlook.of_view(Game(players=3, seed=7).view(0))
        >>> outlook.prospects(counts_of("SCI7 HOR7 MYS7")) > outlook.prospects(counts_of("SCI7 HOR7"))
        True
        """
        key = tuple(hand)
        known = self._memo.get(key)
        if known is not None:
            return known
        total: float | None = None
        if _compiled_prospects is not None:
            if not self._plan:
                self._plan.append([code for spec in self.novels if (code := _code_of(spec))])
            w = self.weights
            try:
                total = _compiled_prospects(
                    hand,
                    self.own,
                    self.rival,
                    self.pool,
                    self._plan[0],
                    (w.prospect, w.missing_factor, w.read_factor, w.spread, w.rival_cite),
                    -1 if self.horizon is None else self.horizon,
                )
            except OverflowError:  # beyond the kernel's ranges: the Python twin answers
                total = None
        if total is None:
            total = self._prospects_py(hand)
        if len(self._memo) < _MEMO_SIZE:
            self._memo[key] = total
        return total

    def _prospects_py(self, hand: Sequence[int]) -> float:
        """:meth:`prospects` in Python, unremembered: the definition the compiled twin follows.

        >>> from pastiche_core import Game
        >>> outlook = Outlook.of_view(Game(players=3, seed=7).view(0))
        >>> outlook._prospects_py(counts_of("SCI7 HOR7 MYS7")) == outlook.prospects(
        ...     counts_of("SCI7 HOR7 MYS7"))
        True
        """
        needs = _Needs(self, hand)
        values = sorted((self._value(spec, needs) for spec in self.novels), reverse=True)
        total = 0.0
        weight = 1.0
        for value in values:
            if value <= 0.0:
                break
            total += weight * value
            weight *= self.weights.spread
        return total

    # ------------------------------------------------------------------
    def _value(self, spec: NovelSpec, needs: _Needs) -> float:
        cost, played, missing = self._completion(spec, needs)
        if cost == math.inf:
            return 0.0
        if played == 0:  # R4: at least one card from the hand
            cost, played, missing = cost + 1, 1, missing + 1
        if self.horizon is not None and missing + played > self.horizon:
            return 0.0
        w = self.weights
        return float(w.prospect * spec.points * w.missing_factor**cost) * float(
            w.read_factor ** (played - 1)
        )

    def _completion(self, spec: NovelSpec, needs: _Needs) -> tuple[float, int, int]:
        pattern = spec.pattern
        if isinstance(pattern, Straight):
            return needs.straight(pattern.length)
        if isinstance(pattern, OfAKind):
            return min(needs.table(pattern.count)[1:])
        if isinstance(pattern, Pairs):
            return self._pairs(pattern.pairs, needs)
        if isinstance(pattern, Total):
            return self._total(pattern.count, pattern.target, needs.hand)
        return _INFEASIBLE  # a user-defined pattern: no prospects (the solver still finds it)

    def _pairs(self, pairs: int, needs: _Needs) -> tuple[float, int, int]:
        chosen = sorted(needs.table(2)[1:])[:pairs]
        if len(chosen) < pairs or chosen[-1][0] == math.inf:
            return _INFEASIBLE
        return (
            sum(n[0] for n in chosen),
            sum(n[1] for n in chosen),
            sum(n[2] for n in chosen),
        )

    def _total(self, count: int, target: int, hand: Sequence[int]) -> tuple[float, int, int]:
        # Free items: own Masterpieces (cited) and hand cards (played); rivals' are left out.
        items = [rank for rank in _RANKS for _ in range(self.own[rank])]
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
                return (0.0, count - min(own_items, count - 1), 0)
        ordered = sorted(items)
        for missing in range(1, count + 1):
            used = count - missing
            if used > len(ordered):
                continue
            low = sum(ordered[:used])
            high = sum(ordered[len(ordered) - used :]) if used else 0
            if low <= target - missing and high >= target - MAX_RANK * missing:
                return (float(missing), missing + used - min(own_items, used), missing)
        return _INFEASIBLE


_Code = tuple[int, int, int, int]
"""A Novel as the compiled prospects read it: kind code, parameters, points."""
_CODES: dict[int, tuple[NovelSpec, _Code | None]] = {}
"""Each Novel's code, by the spec's identity (the spec is kept, so the identity stays its own)."""


def _code_of(spec: NovelSpec) -> _Code | None:
    """The compiled kernel's code of ``spec``; ``None`` for a pattern without prospects.

    The kinds are told apart as :meth:`Outlook._completion` tells them (a
    subclass is valued as its kind); a user-defined pattern is worth nothing,
    so it is left out of the plan.

    >>> from pastiche_core import Catalogue
    >>> _code_of(Catalogue.default()["kind-3"])
    (1, 3, 0, 1)
    """
    entry = _CODES.get(id(spec))
    if entry is None or entry[0] is not spec:
        kind = pattern_code(spec.pattern, exact=False)
        code = None if kind is None else (*kind, spec.points)
        if len(_CODES) >= _MEMO_SIZE:
            _CODES.clear()
        entry = _CODES[id(spec)] = (spec, code)
    return entry[1]


class _Needs:
    """The costs of one hand's rank requirements, each table computed once per evaluation."""

    __slots__ = ("_outlook", "_singles", "_tables", "hand")

    def __init__(self, outlook: Outlook, hand: Sequence[int]) -> None:
        self._outlook = outlook
        self.hand = hand
        self._tables: dict[int, list[tuple[float, int, int]]] = {}
        self._singles: tuple[list[float], list[int], list[int], list[int]] | None = None

    def table(self, count: int) -> list[tuple[float, int, int]]:
        """Per rank (index 0 unused), (cost, played, missing) to have ``count`` cards of it."""
        found = self._tables.get(count)
        if found is not None:
            return found
        outlook = self._outlook
        own, rival, pool, hand = outlook.own, outlook.rival, outlook.pool, self.hand
        cite = outlook.weights.rival_cite
        found = [_INFEASIBLE]
        for rank in _RANKS:
            left = count - own[rank] if own[rank] < count else 0
            held = hand[rank]
            played = held if held < left else left
            left -= played
            cited = rival[rank] if rival[rank] < left else left
            left -= cited
            if left > pool[rank] - held:
                found.append(_INFEASIBLE)
            else:
                found.append((cited * cite + left, played + left, left))
        self._tables[count] = found
        return found

    def get(self, rank: int, count: int) -> tuple[float, int, int]:
        """(cost, played, missing) to have ``count`` cards of ``rank``."""
        return self.table(count)[rank]

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
