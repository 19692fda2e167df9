"""An exact publish engine on OR-Tools CP-SAT, with time limits (R4–R9).

It answers the same questions as :mod:`pastiche_core.solver.fast` — every
distinct option (R8), the Pareto front of (played, gifts) per Novel and the
lexicographic optimum (R9) — from one integer model per Novel:

* ``x[r]``: hand cards of rank ``r`` played (kept cards excluded);
* ``y[o, r]``: Masterpieces of rank ``r`` of owner ``o`` cited (none of an
  excluded owner); the player's own Masterpieces are one owner (R8);
* ``t[r] = x[r] + sum_o y[o, r]`` must satisfy the Novel's pattern exactly (R4);
* at least one card played (R4); one gift per cited Masterpiece of another
  player, paid from the unplayed, unkept cards (R5); the Novel in supply and not
  held (R6); and the hint constraints.

Every answer is a :class:`CpSatResult`: the value, whether it is proven
complete, and a status. A time limit that cuts the search short gives
``complete=False``, never an exception. OR-Tools is imported on first use only.

>>> from pastiche_core.solver.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> [str(o) for o in options(pos).value if o.novel == "kind-5"]
['publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points']
>>> pareto(pos).value["kind-3"]
[(1, 1), (2, 0)]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from ..data.errors import InvalidArgumentError
from ..data.limits import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, Deadline, check_max_options
from ..data.patterns import OfAKind, Pairs, Pattern, Straight, Total
from .options import (
    Constraints,
    OptionKey,
    PublishOption,
    make_option,
    option_key,
    sorted_options,
)
from .position import Position

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["CpSatResult", "optimum", "options", "pareto"]

T = TypeVar("T")

_SEED = 20240229  # every solve: one worker and a fixed seed, so results are reproducible

_ORDERS = (("played", "gifts"), ("gifts", "played"))


@dataclass(frozen=True, slots=True)
class CpSatResult(Generic[T]):
    """A CP-SAT answer: the value, whether it is complete, and the solver status.

    ``status`` is ``'optimal'`` (complete, with an answer), ``'infeasible'``
    (complete, nothing to publish), ``'feasible'`` (cut short by the time limit,
    or by ``max_options`` when listing, with a partial answer) or ``'unknown'``
    (cut short with nothing found).

    >>> CpSatResult([], complete=True, status="infeasible")
    CpSatResult(value=[], complete=True, status='infeasible')
    """

    value: T
    """The answer: the options, the fronts per Novel or the optimum, as the query gives it (``None``
    for an optimum when the Novel has no option)."""
    complete: bool
    """Whether the answer is proven whole: ``False`` when the time limit cut it short (or, for
    :func:`options`, ``max_options``)."""
    status: str
    """``'optimal'`` (complete, with an answer), ``'infeasible'`` (complete, nothing to publish),
    ``'feasible'`` (cut short with a partial answer) or ``'unknown'`` (cut short with nothing
    found)."""


# ----------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Context:
    """The position with kept cards and excluded owners removed."""

    position: Position
    constraints: Constraints
    hand: dict[int, int]  # rank -> playable hand cards
    table: dict[tuple[int, int], int]  # (owner, rank) -> citable Masterpieces
    pool: tuple[int, ...]  # RankCounts of everything usable
    limit: int  # cards that may be played or given (R5)


def _context(position: Position, constraints: Constraints | None) -> _Context:
    cons = constraints if constraints is not None else position.constraints
    cons.check_against(position)
    hand: dict[int, int] = {}
    for card in position.hand:
        if card not in cons.keep:
            hand[card.rank] = hand.get(card.rank, 0) + 1
    table: dict[tuple[int, int], int] = {}
    for mp in position.masterpieces:
        if cons.allows_owner(mp.owner):
            table[(mp.owner, mp.rank)] = table.get((mp.owner, mp.rank), 0) + 1
    pool = [0] * 14
    for rank, count in hand.items():
        pool[rank] += count
    for (_, rank), count in table.items():
        pool[rank] += count
    return _Context(position, cons, hand, table, tuple(pool), sum(hand.values()))


def _novels(ctx: _Context) -> list[str]:
    """Novels the player may publish (R6) that meet ``min_points``."""
    cons = ctx.constraints
    return [
        spec.id
        for spec in ctx.position.catalogue.publishable
        if ctx.position.available(spec.id)
        and (cons.min_points is None or spec.points >= cons.min_points)
    ]


@dataclass(frozen=True, slots=True)
class _Model:
    model: cp_model.CpModel
    x: dict[int, cp_model.IntVar]
    y: dict[tuple[int, int], cp_model.IntVar]
    played: cp_model.LinearExpr
    gifts: cp_model.LinearExpr

    @property
    def decision_vars(self) -> list[cp_model.IntVar]:
        return [*self.x.values(), *self.y.values()]


@functools.cache
def _model_class() -> type[cp_model.CpModel]:
    """CpModel without its camelCase aliases: adding them to every new model costs
    about 0.15 ms, a tenth of a typical Pareto solve here, and nothing here uses them."""
    from ortools.sat.python import cp_model

    class Model(cp_model.CpModel):
        def _add_pre_pep8_methods(self) -> None:
            pass

    return Model


def _new_model() -> cp_model.CpModel:
    return _model_class()()


def _build(ctx: _Context, novel: str) -> _Model | None:
    """The model of one Novel, or ``None`` when its pattern has nothing to match."""
    from ortools.sat.python import cp_model

    if not ctx.limit:
        return None  # R4: nothing can be played
    pattern = ctx.position.catalogue[novel].pattern
    assert pattern is not None
    # Cheap exits before any solve: every cited Masterpiece of another player
    # costs a gift card (R5), and a pattern with no rank multiset in the pool
    # has no solution (each solve has a fixed cost of about a millisecond).
    own = sum(n for (o, _), n in ctx.table.items() if o == ctx.position.player)
    if pattern.size is not None and pattern.size > ctx.limit + own:
        return None
    if next(iter(pattern.combinations(ctx.pool)), None) is None:
        return None
    m = _new_model()
    x = {r: m.new_int_var(0, n, f"x{r}") for r, n in sorted(ctx.hand.items())}
    y = {(o, r): m.new_int_var(0, n, f"y{o}_{r}") for (o, r), n in sorted(ctx.table.items())}
    # t[r]: cards of rank r in the publish, as an expression (no variable of its
    # own): the models stay small, and each solve's fixed cost with them.
    parts: dict[int, list[cp_model.IntVar]] = {}
    for r, var in x.items():
        parts.setdefault(r, []).append(var)
    for (_, r), var in y.items():
        parts.setdefault(r, []).append(var)
    t = {r: cp_model.LinearExpr.sum(vars_) for r, vars_ in sorted(parts.items())}
    played = cp_model.LinearExpr.sum(list(x.values()))
    owner = ctx.position.player
    gifts = cp_model.LinearExpr.sum([v for (o, _), v in y.items() if o != owner])
    m.add(played >= 1)  # R4: no publish by pastiche alone
    m.add(played + gifts <= ctx.limit)  # R5: gifts from unplayed, unkept cards
    if ctx.constraints.max_gifts is not None:
        m.add(gifts <= ctx.constraints.max_gifts)
    if not _add_pattern(m, t, pattern, ctx.pool):
        return None
    return _Model(m, x, y, played, gifts)


def _add_pattern(
    m: cp_model.CpModel,
    t: dict[int, cp_model.LinearExpr],
    pattern: Pattern,
    pool: tuple[int, ...],
) -> bool:
    """Constrain the rank counts ``t`` (ranks with usable cards) to ``pattern``.

    Returns ``False`` if nothing can match. Ranks absent from ``t`` have no
    usable card, so only the choices that avoid them get a variable.
    """
    from ortools.sat.python import cp_model

    kind = type(pattern)
    if kind is Straight:
        assert isinstance(pattern, Straight)
        length = pattern.length
        starts = {
            a: m.new_bool_var(f"s{a}")
            for a in range(1, 15 - length)
            if all(r in t for r in range(a, a + length))
        }
        if not starts:
            return False
        m.add_exactly_one(starts.values())
        for r, total in t.items():
            covering = [s for a, s in starts.items() if a <= r < a + length]
            m.add(total == cp_model.LinearExpr.sum(covering))
    elif kind is OfAKind or kind is Pairs:
        assert isinstance(pattern, OfAKind | Pairs)
        per_rank, ranks = (pattern.count, 1) if isinstance(pattern, OfAKind) else (2, pattern.pairs)
        chosen = {r: m.new_bool_var(f"b{r}") for r in t if pool[r] >= per_rank}
        if len(chosen) < ranks:
            return False
        m.add(cp_model.LinearExpr.sum(list(chosen.values())) == ranks)
        for r, total in t.items():
            m.add(total == (per_rank * chosen[r] if r in chosen else 0))
    elif kind is Total:
        assert isinstance(pattern, Total)
        m.add(cp_model.LinearExpr.sum(list(t.values())) == pattern.count)
        m.add(cp_model.LinearExpr.weighted_sum(list(t.values()), list(t)) == pattern.target)
    else:  # any other pattern: exactly the rank multisets it accepts
        allowed = [[combo.count(r) for r in t] for combo in pattern.combinations(pool)]
        if not allowed:
            return False
        counts = [m.new_int_var(0, pool[r], f"t{r}") for r in t]
        for var, total in zip(counts, t.values(), strict=True):
            m.add(var == total)
        m.add_allowed_assignments(counts, allowed)
    return True


# ----------------------------------------------------------------------
# Solving within one time budget
# ----------------------------------------------------------------------
def _clock(time_limit: float | None, deadline: Deadline | None) -> Deadline:
    return deadline if deadline is not None else Deadline(time_limit)


def _solve(
    clock: Deadline,
    built: _Model,
    every: list[list[int]] | None = None,
    most: int | None = None,
) -> tuple[str, list[int] | None]:
    """Solve ``built`` (minimising its objective, if any) or, given ``every``, list
    its solutions into it (at most ``most``). Returns the status in lower case and
    the values of the decision variables in the solution found (``None`` if none
    or enumerating).
    """
    from ortools.sat.python import cp_model

    seconds = min(clock.left(), MAX_TIME_LIMIT)
    if seconds <= 0:
        return "unknown", None
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1  # deterministic; several workers may repeat solutions
    params.random_seed = _SEED
    params.max_time_in_seconds = seconds
    # The models are tiny (a few dozen variables): presolve, probing, symmetry
    # detection, the LP relaxation and in-processing cost more than the search
    # itself. Switching them off cut the Pareto benchmark by about a third.
    params.cp_model_presolve = False
    params.cp_model_probing_level = 0
    params.symmetry_level = 0
    params.linearization_level = 0
    params.use_sat_inprocessing = False
    variables = built.decision_vars
    callback = None
    if every is not None:
        params.enumerate_all_solutions = True
        # No presolve reduction may drop a feasible solution; the models are tiny,
        # so presolve is simply off. The LP relaxation only slows enumeration down.
        params.cp_model_presolve = False
        params.keep_all_feasible_solutions_in_presolve = True
        params.linearization_level = 0
        callback = _collector(variables, every, most)
    status = solver.solve(built.model, callback)
    if status == cp_model.MODEL_INVALID:  # a bug in this module, never a user error
        raise RuntimeError(f"invalid CP-SAT model: {built.model.validate()}")
    values = None
    if every is None and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [int(solver.value(v)) for v in variables]
    return str(solver.status_name(status)).lower(), values


def _collector(
    variables: list[cp_model.IntVar], into: list[list[int]], most: int | None
) -> cp_model.CpSolverSolutionCallback:
    """A solution callback appending each solution's values to ``into``, up to ``most``."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            into.append([int(self.value(v)) for v in variables])
            if most is not None and len(into) >= most:
                self.stop_search()

    return Collector()


def _option(ctx: _Context, built: _Model, novel: str, values: Sequence[int]) -> PublishOption:
    """The canonical option of one solution (built by :func:`make_option`)."""
    counts = dict(zip([*built.x, *built.y], values, strict=True))
    played = [r for r in built.x for _ in range(counts[r])]
    cited = [key for key in built.y for _ in range(counts[key])]
    return make_option(ctx.position, novel, played, cited, keep=ctx.constraints.keep)


def _overall(complete: bool, found: bool) -> str:
    if complete:
        return "optimal" if found else "infeasible"
    return "feasible" if found else "unknown"


# ----------------------------------------------------------------------
# Public queries
# ----------------------------------------------------------------------
def options(
    position: Position,
    constraints: Constraints | None = None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_options: int | None = None,
    deadline: Deadline | None = None,
) -> CpSatResult[list[PublishOption]]:
    """Every distinct legal publish option (R8), in canonical report order.

    Enumerates all solutions of each Novel's model (one worker, fixed seed).
    ``time_limit`` (seconds) bounds the whole call and ``max_options`` the
    options listed; when either runs out the options found so far come back
    with ``complete=False`` (``deadline`` replaces ``time_limit`` to share one
    clock between calls).

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7 FAN7", table="m1=1:MAG7")
    >>> result = options(pos)
    >>> result.complete, result.status, [str(o) for o in result.value]
    (True, 'optimal', ['publish kind-3 SCI7 HOR7 cite m1 gift 1:? for 1 point', 'publish kind-3 SCI7 HOR7 MYS7 for 1 point'])
    >>> options(Position.quick("SCI9")).status
    'infeasible'
    """
    clock = _clock(time_limit, deadline)
    most = check_max_options(max_options)
    ctx = _context(position, constraints)
    found: dict[OptionKey, PublishOption] = {}
    complete = True
    cut = False
    for novel in _novels(ctx):
        if cut:
            break
        left = None if most is None else most - len(found)
        built = _build(ctx, novel)
        if built is None:
            continue
        rows: list[list[int]] = []
        # One solution more than is left tells a full listing from a cut one.
        status, _ = _solve(clock, built, rows, None if left is None else left + 1)
        complete = complete and status in ("optimal", "infeasible")
        if left is not None and len(rows) > left:
            rows = rows[:left]
            cut, complete = True, False
        for row in rows:
            option = _option(ctx, built, novel, row)
            found.setdefault(option_key(position, option), option)
    value = sorted_options(list(found.values()), position)
    return CpSatResult(value, complete, _overall(complete, bool(value)))


def _costs(ctx: _Context, built: _Model, values: Sequence[int]) -> tuple[int, int]:
    counts = dict(zip([*built.x, *built.y], values, strict=True))
    played = sum(counts[r] for r in built.x)
    gifts = sum(counts[key] for key in built.y if key[0] != ctx.position.player)
    return played, gifts


# home: R9.pareto
def pareto(
    position: Position,
    constraints: Constraints | None = None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    deadline: Deadline | None = None,
) -> CpSatResult[dict[str, list[tuple[int, int]]]]:
    """Per Novel with an option, the Pareto front of (played, gifts), ascending (R9).

    Epsilon-constraint method: minimise played then gifts; then ask for fewer
    gifts than the last point, until infeasible. One solve per front point.

    >>> from pastiche_core.solver.position import Position
    >>> pareto(Position.quick("SCI7 HOR7", table="m1=1:MYS7 m2=0:FAN7")).value
    {'kind-3': [(1, 1), (2, 0)]}
    """
    clock = _clock(time_limit, deadline)
    ctx = _context(position, constraints)
    fronts: dict[str, list[tuple[int, int]]] = {}
    complete = True
    for novel in _novels(ctx):
        built = _build(ctx, novel)
        if built is None:
            continue
        built.model.minimize(built.played * (ctx.limit + 1) + built.gifts)
        front: list[tuple[int, int]] = []
        while True:
            status, values = _solve(clock, built)
            if status != "optimal" or values is None:
                complete = complete and status == "infeasible"
                break
            played, gifts = _costs(ctx, built, values)
            front.append((played, gifts))
            if gifts == 0:
                break
            built.model.add(built.gifts <= gifts - 1)
        if front:
            fronts[novel] = front
    return CpSatResult(fronts, complete, _overall(complete, bool(fronts)))


# home: R9.optimum
def optimum(
    position: Position,
    novel: str,
    order: tuple[str, str] = ("played", "gifts"),
    constraints: Constraints | None = None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    deadline: Deadline | None = None,
) -> CpSatResult[PublishOption | None]:
    """The lexicographic optimum for ``novel`` (R9); value ``None`` if it has no option.

    ``order`` is ``("played", "gifts")`` (fewest cards played, then fewest
    gifts) or ``("gifts", "played")``. Among options tied on both costs the one
    with the smallest :func:`~pastiche_core.solver.options.option_key` wins, as in the
    fast engine: the tied options are enumerated after the optimal costs are
    known. If the time limit cuts either stage short, the best option found
    comes back with ``complete=False`` and status ``'feasible'``.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> str(optimum(pos, "kind-3").value)
    'publish kind-3 MYS7 cite m1 m2 gift 1:? for 1 point'
    >>> str(optimum(pos, "kind-3", order=("gifts", "played")).value)
    'publish kind-3 MYS7 FAN7 cite m1 for 1 point'
    >>> optimum(pos, "straight-5")
    CpSatResult(value=None, complete=True, status='infeasible')
    """
    if order not in _ORDERS:
        raise InvalidArgumentError(f"order must be one of {_ORDERS}, got {order!r}")
    clock = _clock(time_limit, deadline)
    ctx = _context(position, constraints)
    position.catalogue[novel]  # an unknown novel is a KeyError
    built = _build(ctx, novel) if novel in _novels(ctx) else None
    if built is None:
        return CpSatResult(None, True, "infeasible")
    if order[0] == "played":
        built.model.minimize(built.played * (ctx.limit + 1) + built.gifts)
    else:
        built.model.minimize(built.gifts * (ctx.limit + 1) + built.played)
    status, values = _solve(clock, built)
    if values is None:
        return CpSatResult(None, status == "infeasible", status)
    best = _option(ctx, built, novel, values)
    if status != "optimal":
        return CpSatResult(best, False, "feasible")
    # Every option with the optimal costs; the smallest R8 key breaks the tie.
    played, gifts = _costs(ctx, built, values)
    tied = _build(ctx, novel)  # the same model without an objective
    assert tied is not None
    tied.model.add(tied.played == played)
    tied.model.add(tied.gifts == gifts)
    rows: list[list[int]] = []
    status, _ = _solve(clock, tied, rows)
    for row in rows:
        option = _option(ctx, tied, novel, row)
        if option_key(position, option) < option_key(position, best):
            best = option
    complete = status == "optimal"
    return CpSatResult(best, complete, "optimal" if complete else "feasible")
