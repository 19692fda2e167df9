"""Hints the clock cannot steer: the work is fixed by counts, the ceiling only cuts it short.

A complete analysis is the same document, byte for byte, on a fast and on a slow
machine; the machine's speed is played by replacing the search's time source
(``pastiche_core.ai.search.now``, and ``time.monotonic`` for any other clock read).
An analysis the ceiling stops says ``complete: false`` and what it cut.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from collections.abc import Callable
from typing import Any

import pytest
from search_support import played

from pastiche_core import Game, Move, schema
from pastiche_core.ai import Analysis, SearchBot, analyse
from pastiche_core.ai.analyse import CUT_REASONS, RIVAL_CHECKS, explain
from pastiche_core.ai.determinize import Knowledge
from pastiche_core.ai.search import candidate_moves, search, simulations_for
from pastiche_core.engine.moves import Publish
from pastiche_core.engine.view import PlayerView
from pastiche_core.solver import fast as solver_fast

jsonschema: Any = pytest.importorskip("jsonschema")
_VALIDATOR = jsonschema.Draft202012Validator(schema("hint"))
SEARCH_BUDGET = importlib.import_module("pastiche_core.ai.search_budget")  # the one clock
SEARCH_CANDIDATES = importlib.import_module("pastiche_core.ai.search_candidates")  # its solve
ANALYSE = importlib.import_module("pastiche_core.ai.analyse")
_REAL = time.monotonic

# Positions (players, seed, decisions of the mixed bots) whose explanations ask the solver
# what a gift's recipient could publish; the first one's rival notes used to change with
# the machine's speed.
RIVAL_VIEWS = [(4, 32, 94), (4, 23, 100), (5, 4, 100), (3, 38, 70)]


def _view(where: tuple[int, int, int]) -> tuple[Game, PlayerView]:
    game = played(*where)
    assert not game.is_over
    return game, game.view(game.to_move)


def _scaled(factor: float) -> Callable[[], float]:
    """The machine's clock run ``factor`` times as fast (100: a machine 100 times as slow)."""
    start = _REAL()
    return lambda: start + (_REAL() - start) * factor


class _Stepped:
    """A clock that stands still until its ``at``-th reading, then jumps a day ahead.

    The ceiling then passes at a chosen point of the work, the same on every machine.
    """

    def __init__(self, at: float) -> None:
        self.at = at
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads < self.at else 86_400.0


_Clock = Callable[..., None]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    """Sets the clock searches and analyses read (and, unless ``everywhere`` is false, every
    reader of ``time.monotonic``, the solver's time limits included) for the rest of the test."""

    def use(source: Callable[[], float], everywhere: bool = True) -> None:
        monkeypatch.setattr(SEARCH_BUDGET, "now", source)
        if everywhere:
            monkeypatch.setattr(time, "monotonic", source)

    return use


def _check(analysis: Analysis, game: Game) -> dict[str, Any]:
    data = analysis.to_dict()
    _VALIDATOR.validate(data)
    assert analysis.complete == (not analysis.cut)
    assert ("cut" in data) == (not analysis.complete)
    assert list(analysis.cut) == [reason for reason in CUT_REASONS if reason in analysis.cut]
    for entry in analysis.moves:
        assert entry.move in game.legal_moves
    return data


@pytest.mark.parametrize("where", RIVAL_VIEWS)
def test_a_complete_hint_is_the_same_on_a_fast_and_a_slow_machine(
    where: tuple[int, int, int], clock: _Clock
) -> None:
    game, view = _view(where)
    analyses = {}
    for factor in (0.01, 1.0, 100.0):  # a machine 100 times as fast, this one, 100 times as slow
        clock(_scaled(factor))
        analyses[factor] = analyse(view, budget_ms=10_000, simulations=32, seed=5)
        _check(analyses[factor], game)
    fast = analyses[0.01]
    assert fast.complete  # 1,000 s of this machine's time before its ceiling
    assert any("could then publish" in entry.explanation for entry in fast.moves)
    for analysis in analyses.values():
        if analysis.complete:
            assert analysis.to_json() == fast.to_json()
            assert str(analysis) == str(fast)


def test_a_default_hint_charged_the_rival_models_work_is_the_same_on_any_machine(
    clock: _Clock,
) -> None:
    """At the default budget the greedy bot plays the other seats' first round and its work is
    charged to the budget: fewer simulations run, by counts alone, and the hint is complete."""
    game, view = _view(RIVAL_VIEWS[1])
    hints = []
    for source in (_scaled(0.01), _scaled(0.0)):  # a machine 100 times as fast; a frozen clock
        clock(source)
        hint = analyse(view, budget_ms=300, seed=4)
        _check(hint, game)
        assert hint.complete
        assert hint.cut == ()
        assert 0 < hint.simulations_run < hint.simulations == simulations_for(300)
        hints.append(hint)
    assert hints[0].to_json() == hints[1].to_json()
    assert hints[0].simulations_run == hints[1].simulations_run


def test_a_clock_that_stands_still_changes_nothing(
    clock: _Clock,
) -> None:
    _, view = _view(RIVAL_VIEWS[0])
    clock(_scaled(1.0))
    here = analyse(view, budget_ms=10_000, simulations=20, seed=2)
    clock(_scaled(0.0))
    frozen = analyse(view, budget_ms=1, simulations=20, seed=2)  # one millisecond, never reached
    assert frozen.complete
    assert here.complete
    assert frozen.to_dict() | {"budget_ms": 10_000} == here.to_dict()


def test_a_slow_machine_hits_the_ceiling_and_says_so(
    clock: _Clock,
) -> None:
    game, view = _view(RIVAL_VIEWS[1])
    clock(_scaled(10_000.0))  # 300 ms of budget are 30 microseconds of this machine
    analysis = analyse(view, budget_ms=300, seed=1)
    data = _check(analysis, game)
    assert data["complete"] is False
    assert data["cut"]
    assert analysis.simulations_run < analysis.simulations == simulations_for(300)
    assert "incomplete: the time ran out" in str(analysis)
    assert f"incomplete ({', '.join(analysis.cut)})" in repr(analysis)


def _watch_solver(monkeypatch: pytest.MonkeyPatch, stepped: _Stepped) -> None:
    """The solver calls of the candidates and of the rival checks fail once the ceiling passed."""
    for module, name in ((SEARCH_CANDIDATES, "solve"), (ANALYSE, "best")):
        call = getattr(module, name)
        while hasattr(call, "watched"):
            call = call.watched

        def watching(*args: Any, _call: Any = call, **kwargs: Any) -> Any:
            assert stepped.reads < stepped.at, "a solver call started after the ceiling"
            return _call(*args, **kwargs)

        watching.watched = call  # type: ignore[attr-defined]
        monkeypatch.setattr(module, name, watching)


@pytest.mark.parametrize("where", RIVAL_VIEWS[:2])
def test_the_ceiling_cuts_every_stage_and_only_cuts(
    where: tuple[int, int, int], clock: _Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ceiling passed at each reading of the clock in turn: publishes, simulations, rivals."""
    game, view = _view(where)
    counter = _Stepped(float("inf"))
    clock(counter, everywhere=False)
    reference = analyse(view, budget_ms=300, simulations=30, seed=4)
    assert reference.complete
    reads = counter.reads
    # Every reading among the first (the publishes) and the last (the rival checks), one in
    # seven in between (the simulations); the first reading sets the ceiling.
    points = sorted({*range(2, 8), *range(8, reads - 12, 7), *range(max(2, reads - 12), reads + 1)})
    seen: set[str] = set()
    for at in points:
        stepped = _Stepped(at)
        clock(stepped, everywhere=False)
        _watch_solver(monkeypatch, stepped)
        analysis = analyse(view, budget_ms=300, simulations=30, seed=4)
        data = _check(analysis, game)
        seen.update(analysis.cut)
        if analysis.complete:
            assert data == reference.to_dict()
            continue
        if analysis.cut == ("rivals",):  # cut while explaining: the ranking is the same
            assert [(e.move, e.win_probability, e.margin, e.visits) for e in analysis.moves] == [
                (e.move, e.win_probability, e.margin, e.visits) for e in reference.moves
            ]
            kept = [e.explanation for e in analysis.moves]
            full = [e.explanation for e in reference.moves]
            for short, long in zip(kept, full, strict=True):
                assert short == long or "could then publish" in long
                assert "could then publish" not in short or short == long
        if "simulations" in analysis.cut:
            assert analysis.simulations_run < analysis.simulations
    assert seen == set(CUT_REASONS)


def test_a_solver_call_the_ceiling_cuts_short_is_said(clock: _Clock) -> None:
    """The clock jumps while the solver lists the publishes: the solver's own limit sees it."""
    game, view = _view(RIVAL_VIEWS[0])
    for at in range(4, 10):
        clock(_Stepped(at))  # the analysis' reads, then the solver's
        analysis = analyse(view, budget_ms=300, simulations=30, seed=4)
        _check(analysis, game)
        assert analysis.cut[0] == "publishes"
        assert analysis.simulations_run == 0


def test_without_a_ceiling_the_clock_is_never_read(
    clock: _Clock,
) -> None:
    """The search, its candidates, the explanations and the bot in simulations need no clock."""

    def no_clock() -> float:
        raise AssertionError("the clock was read")

    game, view = _view(RIVAL_VIEWS[0])
    clock(no_clock, everywhere=False)
    moves, whole = candidate_moves(view)
    assert whole
    assert moves
    result = search(view, simulations=10, seed=3)
    assert result.simulations_run == 10
    knowledge = Knowledge.of(view)
    texts = [explain(view, move, knowledge) for move in moves]
    assert any("could then publish" in text for text in texts)
    bot = SearchBot(3, simulations=10)
    assert bot.choose(view, game.legal_moves) in game.legal_moves


def test_a_budget_in_milliseconds_is_a_number_of_simulations(
    clock: _Clock,
) -> None:
    _, view = _view(RIVAL_VIEWS[2])
    clock(_scaled(0.0))
    by_time = SearchBot(8, budget_ms=50).think(view)
    by_count = SearchBot(8, simulations=simulations_for(50)).think(view)
    assert by_time.simulations_run == simulations_for(50)
    assert by_time == by_count


def test_the_rival_checks_are_counted_not_timed(
    monkeypatch: pytest.MonkeyPatch, clock: _Clock
) -> None:
    """The solver is asked about the recipients of the first RIVAL_CHECKS publishes with gifts."""
    _, view = _view(RIVAL_VIEWS[1])
    clock(_scaled(0.0))
    asked: list[int] = []
    solver_best = ANALYSE.best

    def counting(position: Any, *args: Any, **kwargs: Any) -> Any:
        assert kwargs["time_limit"] == 10.0  # what is left of the ceiling: all of it
        asked.append(position.player)
        return solver_best(position, *args, **kwargs)

    monkeypatch.setattr(ANALYSE, "best", counting)
    analysis = analyse(view, budget_ms=10_000, simulations=30, seed=1)
    assert analysis.complete
    gifted = [
        entry.move
        for entry in analysis.moves
        if isinstance(entry.move, Publish) and entry.move.gifts
    ]
    assert len(gifted) > RIVAL_CHECKS
    expected = [
        owner
        for move in gifted[:RIVAL_CHECKS]
        for owner in sorted({gift.to for gift in move.gifts})
    ]
    assert asked == expected
    for entry in analysis.moves:
        if entry.move in gifted[RIVAL_CHECKS:]:
            assert "could then publish" not in entry.explanation


def test_solver_answers_cut_short_are_never_taken_as_complete(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solver answer that says it was cut short (as on a slow machine) makes the hint incomplete."""
    game, view = _view(RIVAL_VIEWS[0])

    def analysed() -> Analysis:
        analysis = analyse(view, budget_ms=10_000, simulations=30, seed=4)
        _check(analysis, game)
        return analysis

    assert analysed().complete
    with monkeypatch.context() as patch:
        solve = SEARCH_CANDIDATES.solve
        patch.setattr(
            SEARCH_CANDIDATES,
            "solve",
            lambda *a, **k: dataclasses.replace(solve(*a, **k), stopped_by="time_limit"),
        )
        assert analysed().cut == ("publishes",)
    with monkeypatch.context() as patch:
        costs = solver_fast.option_with_costs
        patch.setattr(solver_fast, "option_with_costs", lambda *a, **k: (costs(*a, **k)[0], False))
        assert analysed().cut[0] == "publishes"
    with monkeypatch.context() as patch:
        best = ANALYSE.best

        def cut_short(*args: Any, **kwargs: Any) -> Any:
            found = best(*args, **kwargs)
            return None if found is None else dataclasses.replace(found, complete=False)

        patch.setattr(ANALYSE, "best", cut_short)
        analysis = analysed()
        assert analysis.cut == ("rivals",)
        assert not any("could then publish" in entry.explanation for entry in analysis.moves)


def test_no_answer_from_a_rival_check_the_ceiling_may_have_cut_is_trusted(
    monkeypatch: pytest.MonkeyPatch, clock: _Clock
) -> None:
    """The last rival check ends past the ceiling with no option: the hint says it is cut."""
    game, view = _view(RIVAL_VIEWS[0])
    jumped = [False]
    clock(lambda: _REAL() + (86_400.0 if jumped[0] else 0.0), everywhere=False)
    calls: list[int] = []
    best = ANALYSE.best

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return best(*args, **kwargs)

    monkeypatch.setattr(ANALYSE, "best", counted)
    reference = analyse(view, budget_ms=10_000, simulations=30, seed=4)
    assert reference.complete
    last = len(calls)
    calls.clear()

    def slow_at_the_last(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) < last:
            return best(*args, **kwargs)
        jumped[0] = True  # the call took longer than the time left, and found nothing yet
        return None

    monkeypatch.setattr(ANALYSE, "best", slow_at_the_last)
    analysis = analyse(view, budget_ms=10_000, simulations=30, seed=4)
    _check(analysis, game)
    assert analysis.cut == ("rivals",)


def test_an_incomplete_document_names_what_was_cut() -> None:
    game, view = _view(RIVAL_VIEWS[0])
    analysis = analyse(view, budget_ms=10_000, simulations=2, seed=1)  # fewer than the moves
    data = _check(analysis, game)
    assert (data["complete"], data["cut"]) == (False, ["moves"])
    assert "some moves were not simulated" in str(analysis)
    assert Move.parse(data["moves"][0]["move"]) in game.legal_moves
    bad = {**data, "cut": ["tea"]}
    with pytest.raises(jsonschema.ValidationError):
        _VALIDATOR.validate(bad)
