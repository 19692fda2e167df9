"""Answer "what can I publish?" with either engine, within a time and an output limit.

Two engines give the same answers: ``"fast"`` (an exact enumerator, the
default) and ``"cpsat"`` (an OR-Tools CP-SAT model, loaded only when used).
:func:`solve` runs a whole query and returns a
:class:`~pastiche_core.solver.report.PublishReport`; :func:`best` picks one option for
a goal. Both take a ``time_limit`` and :func:`solve` a ``max_options``
(:mod:`pastiche_core.data.limits`): past either, the answer is still valid and says
it was cut short.

>>> from pastiche_core.solver.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> report = solve(pos)
>>> len(report.options), report.pareto["kind-5"], report.counts["kind-3"]
(5, ((2, 2),), 4)
>>> str(best(pos, "kind-3").option)
'publish kind-3 MYS7 cite m1 m2 gift 1:? for 1 point'
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from ..data.errors import InvalidArgumentError
from ..data.limits import DEFAULT_MAX_OPTIONS, DEFAULT_TIME_LIMIT, Deadline, check_max_options
from ..data.patterns import rank_counts
from ..engine.game import Game
from ..engine.rules import publish_closed
from . import fast as solver_fast
from .gifts import to_publish
from .options import Constraints, PublishOption, check_option, option_key, sorted_options
from .position import Position
from .report import GOALS, PUBLISHES_FORMAT, PUBLISHES_VERSION, Best, PublishReport, goal_key

__all__ = [
    "ENGINES",
    "PUBLISHES_FORMAT",
    "PUBLISHES_VERSION",
    "best",
    "is_publishable",
    "novel_id",
    "optima",
    "solve",
    "why_not",
]

_WHY_COMBINATIONS = 10_000
"""The rank combinations :func:`why_not` looks at to tell R4 from R5 (a bound, not a count)."""
ENGINES = ("fast", "cpsat")
"""The engine names :func:`solve` and :func:`best` accept."""
_ORDER_GOALS = {("played", "gifts"): "fewest-played", ("gifts", "played"): "fewest-gifts"}


def _check_position(position: object, call: str) -> Position:
    """``position`` if it is a :class:`Position`, a game's for its player to move; else an error
    that says how to make one."""
    if isinstance(position, Position):
        return position
    if isinstance(position, Game):
        return position.position()
    kind = type(position).__name__
    if kind == "PlayerView":
        how = "pastiche_core.solver.position_of(view)"
    elif isinstance(position, str):
        how = f"Position.quick({position[:40]!r}) (a hand in card notation, R1)"
    elif isinstance(position, dict):
        how = "position_from_dict(data) (a position document)"
    else:
        how = "Position.quick('MYS7 FAN7') or game.position()"
    raise InvalidArgumentError(
        f"{call}() takes a Position or a Game, got a {kind}: make a Position with {how}"
    )


def _no_publish_reason(game: Game) -> str | None:
    """Why no publish can be played in ``game`` now (:func:`~pastiche_core.engine.rules.publish_closed`).

    >>> game = Game(players=3, seed=7)
    >>> _no_publish_reason(game)
    'player 2 is keeping 3 cards of the deal: a publish is a turn action (R10, R11)'
    """
    return publish_closed(game.phase, game.to_move, game.rules)


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise InvalidArgumentError(
            f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}"
        )


def solve(
    position: Position | Game,
    *extra: object,
    engine: str = "fast",
    constraints: Constraints | None = None,
    card_level: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_options: int | None = DEFAULT_MAX_OPTIONS,
) -> PublishReport:
    """Every publish option of ``position``, counted per Novel, with its Pareto fronts (R8, R9).

    ``card_level=True`` lists every choice of physical hand cards (fast engine
    only; CP-SAT works on ranks). ``time_limit`` (seconds, ``None`` for none)
    bounds the whole call and ``max_options`` the options listed (``None`` for
    all). When the options outnumber ``max_options`` the fast engine still
    counts every Novel's options and finds every front, and lists a fair share
    of each Novel; ``stopped_by`` then says ``"max_options"``. When the time
    runs out, what was found is returned with ``stopped_by="time_limit"``.

    A game answers for its player to move. Outside a turn (a keep, a choice of
    drawn card, the End Flag's card, the game over) no publish can be played
    (R10–R12), and the answer is a complete report with no option;
    :func:`why_not` says why.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> cut = solve(pos, max_options=2)
    >>> cut.complete, cut.stopped_by, len(cut.options), dict(cut.counts)
    (False, 'max_options', 2, {'kind-3': 4, 'kind-5': 1})
    >>> solve(pos, engine="nope")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown engine 'nope': expected one of fast, cpsat
    """
    game = position if isinstance(position, Game) else None
    position = _check_position(position, "solve")
    if extra:
        named = "engine" if extra[0] in ENGINES else "constraints, time_limit or max_options"
        raise InvalidArgumentError(
            f"solve() takes only the position by position; give {named} by name, "
            f"e.g. solve(position, engine={extra[0]!r})"
            if named == "engine"
            else f"solve() takes only the position by position; give {named} by name"
        )
    _check_engine(engine)
    limit = check_max_options(max_options)
    clock = Deadline(time_limit)
    cons = constraints if constraints is not None else position.constraints
    if game is not None and _no_publish_reason(game) is not None:
        # Outside a turn no publish is legal (R11): a complete answer with no option.
        return PublishReport(
            position=position,
            engine=engine,
            options=(),
            pareto=MappingProxyType({}),
            constraints=cons,
            card_level=card_level,
            time_limit=clock.time_limit,
            max_options=limit,
        )
    if engine == "fast":
        found = solver_fast.search(
            position, cons, card_level=card_level, max_options=limit, deadline=clock
        )
        options, fronts, counts, stopped_by = (
            found.options,
            found.fronts,
            found.counts,
            found.stopped_by,
        )
    else:
        if card_level:
            raise InvalidArgumentError("card-level enumeration is offered by the fast engine only")
        from . import cpsat as solver_cpsat

        listed = solver_cpsat.options(position, cons, max_options=limit, deadline=clock)
        fronted = solver_cpsat.pareto(position, cons, deadline=clock)
        options, fronts = listed.value, fronted.value
        stopped_by = None
        if not (listed.complete and fronted.complete):
            full = limit is not None and len(options) >= limit
            stopped_by = "max_options" if full and not clock.passed() else "time_limit"
        # Counted by listing: exact only for a complete listing.
        counts = {}
        if listed.complete:
            for option in options:
                counts[option.novel] = counts.get(option.novel, 0) + 1
    return PublishReport(
        position=position,
        engine=engine,
        options=tuple(sorted_options(options, position)),
        pareto=MappingProxyType({novel: tuple(front) for novel, front in fronts.items()}),
        counts=MappingProxyType(counts),
        stopped_by=stopped_by,
        constraints=cons,
        card_level=card_level,
        time_limit=clock.time_limit,
        max_options=limit,
    )


def best(
    position: Position | Game,
    novel: str | None = None,
    *,
    goal: str | None = None,
    order: tuple[str, str] | None = None,
    engine: str = "fast",
    constraints: Constraints | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Best | None:
    """The best publish for ``goal``, over every Novel or only ``novel``; ``None`` if none.

    It answers "which publish scores best by this measure, now?", not "which move wins?": the
    hint (:func:`pastiche_core.ai.analyse`) estimates each move's chance to win by playing the
    game out, and may prefer another publish, or no publish at all. A game answers for its
    player to move, and the answer then carries its move (:attr:`Best.move`), one that
    ``game.apply`` takes. Outside a turn (while a seat keeps its deal, chooses a drawn
    card or puts a card under the End Flag, and once the game is over) no publish can
    be played and the answer is ``None`` (R10–R12); :func:`why_not` says why a Novel has
    no answer, the phase included.

    Goals (:data:`~pastiche_core.solver.report.GOALS`): ``"points"`` (the default:
    most points, then fewest gifts, then fewest cards played),
    ``"fewest-gifts"``, ``"fewest-played"`` and ``"points-per-card"``. For one
    Novel, R9's lexicographic ``order`` may be given instead:
    ``("played", "gifts")`` is ``"fewest-played"`` (the default with a Novel)
    and ``("gifts", "played")`` is ``"fewest-gifts"``. Ties between Novels go
    to catalogue order; ties within a Novel to the smallest R8 key. The answer's
    ``str`` says the goal; ``complete`` is ``False`` if ``time_limit`` cut the
    search short.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> str(best(pos).option)
    'publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points'
    >>> str(best(pos, goal="fewest-gifts").option)
    'publish kind-3 MYS7 FAN7 cite m1 for 1 point'
    >>> print(best(pos, "kind-3", order=("gifts", "played")))
    publish kind-3 MYS7 FAN7 cite m1 for 1 point (best for fewest-gifts: 0 gifts, 2 cards played)
    >>> best(pos, "straight-5") is None
    True
    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> best(game) is None  # the game's player to move keeps a deal: no publish now (R10)
    True
    >>> for move in ("keep MYT1 HOR7 HOR8", "draw"):
    ...     game.apply(move)
    >>> best(game) is None, game.phase  # choosing a drawn card (R11)
    (True, <Phase.CHOOSE: 'choose'>)
    >>> best(pos, "points")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown novel id 'points' in catalogue 'default': 'points' is a goal; pass it as goal='points'
    """
    game = position if isinstance(position, Game) else None
    position = _check_position(position, "best")
    _check_engine(engine)
    if novel is not None:
        novel = novel_id(novel, position)
    if order is not None:
        if goal is not None:
            raise InvalidArgumentError("give either goal or order, not both")
        if order not in _ORDER_GOALS:
            raise InvalidArgumentError(f"order must be one of {tuple(_ORDER_GOALS)}, got {order!r}")
        goal = _ORDER_GOALS[order]
    if goal is None:
        goal = "points" if novel is None else "fewest-played"
    if goal not in GOALS:
        raise InvalidArgumentError(f"unknown goal {goal!r}: expected one of {', '.join(GOALS)}")
    if game is not None and _no_publish_reason(game) is not None:
        return None  # no publish is legal outside a turn (R11); why_not says why
    clock = Deadline(time_limit)
    if engine == "cpsat":
        return _moved(_best_cpsat(position, novel, goal, constraints, clock), position, game)
    found = solver_fast.search(position, constraints, max_options=0, deadline=clock)
    target = _target(position, found.fronts, novel, goal)
    if target is None:
        return None
    option, finished = solver_fast.option_with_costs(
        position, target[0], target[1], constraints, deadline=clock
    )
    if option is None:  # the clock ran out before the option with the best costs was met
        return None
    chosen = Best(option, goal, complete=finished and found.stopped_by != "time_limit")
    return _moved(chosen, position, game)


def optima(
    report: PublishReport,
    goals: Iterable[str] = GOALS,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> dict[str, Best]:
    """:func:`best` for each of ``goals`` over every Novel, read from a :func:`solve` report (R9).

    The report already holds every Pareto front (even when ``max_options`` cut
    its listing short), so the fronts are not searched again: each goal's
    answer is :func:`best`'s for the report's position and constraints, and an
    option that is best for several goals is searched for once. The answers
    come in the order of ``goals``; none if the report has no option. When
    ``time_limit`` runs out, the goals not reached are left out and the last
    answer may say ``complete=False`` (as it does when the report itself was
    cut short by its time limit and may lack fronts).

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> report = solve(pos, max_options=1)
    >>> found = optima(report, ("points", "fewest-gifts"))
    >>> str(found["fewest-gifts"].option)
    'publish kind-3 MYS7 FAN7 cite m1 for 1 point'
    >>> found["points"] == best(pos, goal="points")
    True
    >>> optima(report, ("most",))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown goal 'most': expected one of points, fewest-gifts, fewest-played, points-per-card
    """
    if not isinstance(report, PublishReport):
        raise InvalidArgumentError(f"report must be a PublishReport from solve(), got {report!r}")
    goals = tuple(goals)
    for goal in goals:
        if goal not in GOALS:
            raise InvalidArgumentError(f"unknown goal {goal!r}: expected one of {', '.join(GOALS)}")
    position, clock = report.position, Deadline(time_limit)
    whole = report.stopped_by != "time_limit"
    found: dict[tuple[str, tuple[int, int]], tuple[PublishOption, bool]] = {}
    answers: dict[str, Best] = {}
    for goal in goals:
        target = _target(position, report.pareto, None, goal)
        if target is None:
            break  # no front at all: no goal has an answer
        if target not in found and (listed := _listed_optimum(report, *target)) is not None:
            found[target] = (listed, True)
        if target not in found:
            if clock.passed():
                break
            option, finished = solver_fast.option_with_costs(
                position, *target, report.constraints, deadline=clock
            )
            if option is None:  # the clock ran out before the option was met
                break
            found[target] = (option, finished)
        option, finished = found[target]
        answers[goal] = Best(option, goal, complete=finished and whole)
        if not finished:
            break
    return answers


def _listed_optimum(
    report: PublishReport, novel: str, costs: tuple[int, int]
) -> PublishOption | None:
    """:func:`~pastiche_core.solver.fast.option_with_costs`' answer read from the report, when
    the fast engine's report lists every option of ``novel`` (R8, not card by card); else
    ``None``.

    Every option of that Novel with these costs is then in the listing, each built as the
    search builds it, so the one with the smallest R8 key is among them: no search is
    needed. (The CP-SAT engine may cite other Masterpieces of the same owner and rank.)
    """
    if report.engine != "fast" or report.card_level or report.stopped_by == "time_limit":
        return None
    mine = [option for option in report.options if option.novel == novel]
    if len(mine) != report.counts.get(novel):
        return None  # the listing holds a share of the Novel's options, or none were counted
    position = report.position
    wanted = [o for o in mine if (o.played_count, o.gift_count) == costs]
    return min(wanted, key=lambda o: option_key(position, o)) if wanted else None


def _moved(chosen: Best | None, position: Position, game: Game | None) -> Best | None:
    """``chosen`` with its game move when it was asked of a game (gifts as to_publish gives)."""
    if chosen is None or game is None:
        return chosen
    return Best(chosen.option, chosen.goal, chosen.complete, to_publish(chosen.option, position))


def novel_id(novel: object, position: Position) -> str:
    """The id of the Novel ``novel`` names in the position's catalogue: its id, or its name.

    A name (the rulebook's, any case) is taken when exactly one Novel bears it.
    Anything else raises :class:`~pastiche_core.data.errors.InvalidArgumentError`
    listing the ids, with the closest one, or saying that a goal or an engine
    was passed where a Novel goes.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7")
    >>> novel_id("kind-3", pos), novel_id("3 of a kind", pos)
    ('kind-3', 'kind-3')
    >>> novel_id("kind-9", pos)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown novel id 'kind-9' in catalogue 'default': did you mean 'kind-5'? the ids are straight-5, straight-7, straight-9, straight-11, kind-3, kind-5, pairs-3, pairs-4, total-5, total-7, end-flag
    """
    catalogue = position.catalogue
    named: list[str] = []
    if isinstance(novel, str):
        if novel in catalogue:
            return novel
        named = [spec.id for spec in catalogue.specs if spec.name.lower() == novel.lower()]
        if len(named) == 1:
            return named[0]
    raise InvalidArgumentError(_unknown_novel(novel, position, named))


def _unknown_novel(novel: object, position: Position, named: list[str]) -> str:
    """Why ``novel`` names no Novel of the position's catalogue (``named``: the ids of the
    Novels bearing it as a name, never one), and what would."""
    catalogue = position.catalogue
    ids = [spec.id for spec in catalogue.specs]
    text = f"unknown novel id {novel!r} in catalogue {catalogue.name!r}"
    if isinstance(novel, str):
        if named:  # more than one Novel bears the name
            return (
                f"{text}: the name {novel!r} is ambiguous; give one of the ids {', '.join(named)}"
            )
        if novel in GOALS:
            return f"{text}: {novel!r} is a goal; pass it as goal={novel!r}"
        if novel in ENGINES:
            return f"{text}: {novel!r} is an engine; pass it as engine={novel!r}"
        close = difflib.get_close_matches(novel, ids, n=1)
        if close:
            return f"{text}: did you mean {close[0]!r}? the ids are {', '.join(ids)}"
    return f"{text}; the ids are {', '.join(ids)}"


def _target(
    position: Position,
    fronts: Mapping[str, Sequence[tuple[int, int]]],
    novel: str | None,
    goal: str,
) -> tuple[str, tuple[int, int]] | None:
    """The (novel, costs) the goal prefers; for these goals it is always on a front (R9)."""
    catalogue = position.catalogue
    order = {name: index for index, name in enumerate(catalogue)}
    candidates = [
        (goal_key(goal, catalogue[name].points, costs), order[name], name, costs)
        for name, front in fronts.items()
        if novel is None or name == novel
        for costs in front
    ]
    if not candidates:
        return None
    _, _, name, costs = min(candidates)
    return name, costs


def _best_cpsat(
    position: Position,
    novel: str | None,
    goal: str,
    constraints: Constraints | None,
    clock: Deadline,
) -> Best | None:
    from . import cpsat as solver_cpsat

    # Within one Novel every goal prefers an end of the front (R9): fewest gifts
    # for "points" and "fewest-gifts", fewest cards played for the other two.
    order = ("gifts", "played") if goal in ("points", "fewest-gifts") else ("played", "gifts")
    fronted = solver_cpsat.pareto(position, constraints, deadline=clock)
    target = _target(position, fronted.value, novel, goal)
    if target is None:
        return None
    name = target[0]
    result = solver_cpsat.optimum(position, name, order, constraints, deadline=clock)
    if result.value is None:
        return None
    return Best(result.value, goal, complete=fronted.complete and result.complete)


def is_publishable(
    position: Position | Game, option: PublishOption, constraints: Constraints | None = None
) -> bool:
    """Whether ``option`` is legal here, checked directly without enumerating.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7")
    >>> is_publishable(pos, solve(pos).options[0])
    True
    """
    if isinstance(position, Game) and _no_publish_reason(position) is not None:
        return False  # a publish is a turn action (R11)
    position = _check_position(position, "is_publishable")
    return check_option(position, option, constraints) is None


def why_not(position: Position | Game, novel: str) -> list[str]:
    """Each reason ``novel`` cannot be published now, naming its ruling; ``[]`` when it can.

    The reasons: the End Flag is never published (R12); the player holds the
    Novel already, or no copy is left (R6); the hand is empty, or the hand and
    the Masterpieces cannot make the requirement (R4); every way to make it
    plays no hand card (R4) or cites more Masterpieces of others than the rest
    of the hand can pay for (R5); the position's constraints rule out every
    option. A game answers for its player to move, and outside a turn its first
    reason is the phase: a publish is a turn action (R11), so while a seat keeps
    its deal, chooses a drawn card or puts a card under the End Flag, and once
    the game is over, no publish is legal.

    >>> from pastiche_core.solver.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6", table="m1=1:SCI7")
    >>> why_not(pos, "kind-3")
    []
    >>> why_not(Position.quick("MYS7 FAN7 HOR7", held="kind-3"), "kind-3")
    ['the player holds kind-3 already: one copy per player (R6)']
    >>> why_not(pos, "straight-5")
    ['the hand and the Masterpieces on the table cannot make 5-Card Straight (R4)']
    >>> why_not(Game(players=3, seed=7), "kind-3")  # doctest: +NORMALIZE_WHITESPACE
    ['player 2 is keeping 3 cards of the deal: a publish is a turn action (R10, R11)',
     'the hand and the Masterpieces on the table cannot make 3 of a Kind (R4)']
    """
    game = position if isinstance(position, Game) else None
    position = _check_position(position, "why_not")
    catalogue = position.catalogue
    novel = novel_id(novel, position)
    spec = catalogue[novel]
    if not spec.publishable:
        return [f"{novel} is the End Flag: it is taken at the game's end, never published (R12)"]
    reasons = []
    outside = _no_publish_reason(game) if game is not None else None
    if outside is not None:
        reasons.append(outside)
    if novel in position.held_novels:
        reasons.append(f"the player holds {novel} already: one copy per player (R6)")
    if position.supply.get(novel, 0) <= 0:
        reasons.append(f"no copy of {novel} is left in the supply (R6)")
    if not position.hand:
        return [*reasons, "the hand is empty: a publish plays at least one hand card (R4)"]
    # The cards alone: the same position with a copy left and the Novel not held.
    free = Position(
        player=position.player,
        hand=position.hand,
        masterpieces=position.masterpieces,
        supply={**position.supply, novel: max(1, position.supply.get(novel, 0))},
        catalogue=catalogue,
    )
    if solve(free, max_options=1).counts.get(novel):
        if not reasons and not solve(position, max_options=1).counts.get(novel):
            reasons.append(
                "the position's constraints (cards to keep, players not to cite, bounds) "
                "rule out every option"
            )
        return reasons
    pattern = spec.pattern
    assert pattern is not None  # publishable
    pool = rank_counts(
        [card.rank for card in position.hand] + [m.card.rank for m in position.masterpieces]
    )
    in_hand = {card.rank for card in position.hand}
    combos = list(itertools.islice(pattern.combinations(pool), _WHY_COMBINATIONS))
    if not combos:
        reasons.append(f"the hand and the Masterpieces on the table cannot make {spec.name} (R4)")
    elif not any(in_hand.intersection(combo) for combo in combos):
        reasons.append(f"every way to make {spec.name} plays no card of the hand (R4)")
    else:
        reasons.append(
            f"every way to make {spec.name} cites other players' Masterpieces whose gifts the "
            "rest of the hand cannot pay (R5)"
        )
    return reasons
