"""Bounded work: counts without listing, fair shares under max_options, time limits, goals.

Every solver entry point takes a time limit and an output limit; past either the
answer is still valid (legal options, exact counts and fronts where it says so)
and says what cut it short. The counts are checked against the enumeration and
the enumeration against the brute force (R8, R9).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from brute_force import brute_option_list
from hypothesis import given
from hypothesis import strategies as st
from position_strategies import CUSTOM_CATALOGUE, constraints_for, positions

from pastiche_core import (
    DECK,
    GOALS,
    Catalogue,
    InvalidArgumentError,
    Masterpiece,
    Position,
    SearchLimitError,
    best,
    solve,
)
from pastiche_core.io.position_json import position_to_dict
from pastiche_core.solver import cpsat as solver_cpsat
from pastiche_core.solver import fast as solver_fast
from pastiche_core.solver.options import PublishOption, check_option, option_key, sorted_options
from pastiche_core.solver.queries import optima
from pastiche_core.solver.report import goal_key

CATALOGUES = pytest.mark.parametrize(
    "catalogue", [Catalogue.default(), CUSTOM_CATALOGUE], ids=["default", "custom"]
)


def crowded_position() -> Position:
    """Every card in play: a 19-card hand and 30 Masterpieces over five seats.

    It has 849,600 distinct options (R8) and 6,366,267 card by card.
    """
    cards = list(DECK)
    random.Random(1).shuffle(cards)
    table = tuple(Masterpiece(f"m{i}", i % 5, card) for i, card in enumerate(cards[19:]))
    return Position(player=0, hand=tuple(cards[:19]), masterpieces=table)


# ----------------------------------------------------------------------
# Counting without listing
# ----------------------------------------------------------------------
@CATALOGUES
@given(data=st.data(), card_level=st.booleans())
def test_r8_counts_are_the_number_of_options_listed(
    data: st.DataObject, catalogue: Catalogue, card_level: bool
) -> None:
    position = data.draw(positions(catalogue=catalogue), label="position")
    constraints = data.draw(st.none() | constraints_for(position), label="constraints")
    listed = solver_fast.options(position, constraints, card_level=card_level)
    assert solver_fast.counts(position, constraints, card_level=card_level) == dict(
        Counter(option.novel for option in listed)
    )


@CATALOGUES
@given(data=st.data())
def test_r8_counts_match_the_brute_force(data: st.DataObject, catalogue: Catalogue) -> None:
    position = data.draw(positions(catalogue=catalogue), label="position")
    constraints = data.draw(st.none() | constraints_for(position), label="constraints")
    brute = Counter(option.novel for option in brute_option_list(position, constraints))
    assert solver_fast.counts(position, constraints) == dict(brute)


@CATALOGUES
@given(data=st.data(), card_level=st.booleans())
def test_a_report_lists_in_catalogue_order_then_costs_then_r8_key(
    data: st.DataObject, catalogue: Catalogue, card_level: bool
) -> None:
    # R8/R9: the report's order, from each option's own costs and option_key.
    position = data.draw(positions(catalogue=catalogue), label="position")
    listed = solver_fast.options(position, card_level=card_level)
    data.draw(st.randoms(), label="shuffle").shuffle(listed)
    order = list(catalogue)

    def key(option: PublishOption) -> tuple[object, ...]:
        novel, ranks, cited = option_key(position, option)
        indexes = tuple(card.index for card in option.played)
        return (order.index(novel), *option.costs, novel, ranks, cited, indexes)

    assert sorted_options(listed, position) == sorted(listed, key=key)


def test_options_built_with_lists_are_ordered_and_given_for_as_their_tuple_twins() -> None:
    # A caller may build a PublishOption by hand with lists; the report order and the greedy
    # gift policy (R5) read it as the same option.
    from pastiche_core import Game
    from pastiche_core.ai.greedy import GreedyGiftPolicy

    pos = Position.quick("SCI7 HOR7 MYS11 LOV7 MYT3", table="1:kind-3=1:MYS7 2:pairs-3=2:FAN7")
    options = solver_fast.options(pos)
    built = [
        PublishOption(o.novel, list(o.played), list(o.cited), [list(g) for g in o.gifts], o.points)  # type: ignore[arg-type]
        for o in options
    ]
    assert [str(o) for o in sorted_options(built[::-1], pos)] == [
        str(o) for o in sorted_options(options[::-1], pos)
    ]
    policy = GreedyGiftPolicy.of_view(Game(players=3, seed=7).view(0))
    for plain, listed in zip(options, built, strict=True):
        assert policy.choose(pos, listed) == policy.choose(pos, plain)


def test_the_crowded_position_is_counted_exactly_and_quickly() -> None:
    report = solve(crowded_position(), max_options=1000)
    assert (report.total, len(report.options), report.stopped_by) == (849_600, 1000, "max_options")
    card_level = solve(crowded_position(), card_level=True, max_options=1000)
    assert card_level.total == 6_366_267
    assert len(card_level.options) == 1000


# ----------------------------------------------------------------------
# The output limit
# ----------------------------------------------------------------------
@CATALOGUES
@given(data=st.data())
def test_max_options_lists_a_fair_deterministic_share(
    data: st.DataObject, catalogue: Catalogue
) -> None:
    position = data.draw(positions(catalogue=catalogue), label="position")
    full = solve(position, max_options=None, time_limit=None)
    assert full.complete
    assert len(full.options) == full.total
    limit = data.draw(st.integers(0, full.total + 1), label="max_options")
    cut = solve(position, max_options=limit, time_limit=None)
    assert len(cut.options) == min(limit, full.total)
    assert (dict(cut.counts), dict(cut.pareto)) == (dict(full.counts), dict(full.pareto))
    assert cut.stopped_by == (None if limit >= full.total else "max_options")
    keys = {option_key(position, option) for option in full.options}
    assert {option_key(position, option) for option in cut.options} <= keys
    listed = Counter(option.novel for option in cut.options)
    if limit >= len(full.counts):
        assert set(listed) == set(full.counts), "every Novel gets a share"
    # Fair: a Novel listed short of its count has at least as many as any other.
    for novel, count in full.counts.items():
        if listed[novel] < count:
            assert all(listed[novel] >= listed[other] - 1 for other in full.counts)
    assert solve(position, max_options=limit, time_limit=None).options == cut.options


@given(data=st.data())
def test_cpsat_honours_max_options(data: st.DataObject) -> None:
    position = data.draw(positions(), label="position")
    full = solve(position, max_options=None)
    limit = data.draw(st.integers(0, full.total + 1), label="max_options")
    cut = solve(position, engine="cpsat", max_options=limit)
    assert len(cut.options) == min(limit, full.total)
    assert cut.complete == (limit >= full.total)
    assert dict(cut.pareto) == dict(full.pareto)
    keys = {option_key(position, option) for option in full.options}
    assert {option_key(position, option) for option in cut.options} <= keys


# ----------------------------------------------------------------------
# The time limit
# ----------------------------------------------------------------------
@pytest.mark.parametrize("card_level", [False, True], ids=["options", "card-level"])
def test_a_time_limit_cuts_the_crowded_position_short_with_legal_options(
    card_level: bool,
) -> None:
    position = crowded_position()
    start = time.monotonic()
    report = solve(position, card_level=card_level, time_limit=1.0, max_options=None)
    elapsed = time.monotonic() - start
    assert (report.complete, report.stopped_by) == (False, "time_limit")
    assert elapsed < 6, "the time limit must bound the call (it took 153 s before limits)"
    assert 0 < len(report.options) < report.total or not report.counts
    for option in report.options[:: max(1, len(report.options) // 200)]:
        assert check_option(position, option) is None


def test_cpsat_reports_a_time_limit_it_reached() -> None:
    report = solve(crowded_position(), engine="cpsat", time_limit=0.2, max_options=None)
    assert (report.complete, report.stopped_by) == (False, "time_limit")


def test_low_level_searches_raise_when_the_time_runs_out() -> None:
    with pytest.raises(SearchLimitError, match="time limit") as info:
        solver_fast.options(crowded_position(), time_limit=0.05)
    assert info.value.stopped_by == "time_limit"


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), 1e9, "1", True])
def test_bad_time_limits_are_refused(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="time_limit"):
        solve(Position.quick("SCI9"), time_limit=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [-1, 1.5, True, "10"])
def test_bad_output_limits_are_refused(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="max_options"):
        solve(Position.quick("SCI9"), max_options=value)  # type: ignore[arg-type]


def test_the_cli_answers_the_crowded_position_within_its_limits(tmp_path: Path) -> None:
    path = tmp_path / "crowded.json"
    path.write_text(json.dumps(position_to_dict(crowded_position())), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "publishes", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    data = json.loads(done.stdout)
    assert (data["complete"], data["stopped_by"], len(data["options"])) == (
        False,
        "max_options",
        1000,
    )
    assert sum(data["counts"].values()) == 849_600
    assert len(done.stdout) < 1_000_000


# ----------------------------------------------------------------------
# best(): goals across Novels
# ----------------------------------------------------------------------
@CATALOGUES
@given(data=st.data(), goal=st.sampled_from(sorted(GOALS)))
def test_best_follows_its_goal_over_every_option(
    data: st.DataObject, catalogue: Catalogue, goal: str
) -> None:
    position = data.draw(positions(catalogue=catalogue), label="position")
    listed = brute_option_list(position)
    choice = best(position, goal=goal)
    if not listed:
        assert choice is None
        return
    assert choice is not None
    assert choice.complete
    assert choice.goal == goal
    order = {novel: index for index, novel in enumerate(catalogue)}

    def rank(option: PublishOption) -> tuple[object, ...]:
        return (
            goal_key(goal, option.points, option.costs),
            order[option.novel],
            option_key(position, option),
        )

    assert option_key(position, choice.option) == option_key(position, min(listed, key=rank))
    assert goal in str(choice)
    cpsat = best(position, goal=goal, engine="cpsat")
    assert cpsat is not None
    assert cpsat.option == choice.option


@CATALOGUES
@given(data=st.data(), limit=st.integers(1, 6))
def test_optima_read_from_a_cut_listing_are_bests_answers_r9(
    data: st.DataObject, catalogue: Catalogue, limit: int
) -> None:
    """A report cut by max_options still has every front: each goal's optimum is best()'s."""
    position = data.draw(positions(catalogue=catalogue), label="position")
    report = solve(position, max_options=limit, time_limit=None)
    found = optima(report, GOALS)
    expected = {goal: best(position, goal=goal, time_limit=None) for goal in GOALS}
    assert found == {goal: choice for goal, choice in expected.items() if choice is not None}
    assert list(found) == [goal for goal in GOALS if goal in found]  # in the goals' order


def test_optima_under_a_tiny_time_limit_leave_out_or_mark_what_they_did_not_finish() -> None:
    report = solve(crowded_position(), max_options=1, time_limit=None)
    found = optima(report, GOALS, time_limit=1e-6)
    assert len(found) < len(GOALS) or not all(choice.complete for choice in found.values())
    assert optima(report, GOALS, time_limit=None) == {
        goal: best(crowded_position(), goal=goal, time_limit=None) for goal in GOALS
    }


@pytest.mark.parametrize(
    ("report", "goals", "message"),
    [
        ("kind-3", ("points",), "report must be a PublishReport"),
        (None, ("most-fun",), "unknown goal 'most-fun'"),
    ],
)
def test_optima_refuse_bad_arguments(report: object, goals: tuple[str, ...], message: str) -> None:
    real = solve(Position.quick("SCI7 HOR7 MYS7")) if report is None else report
    with pytest.raises(InvalidArgumentError, match=message):
        optima(real, goals)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"goal": "most-fun"}, "unknown goal 'most-fun'"),
        ({"goal": "points", "order": ("gifts", "played")}, "either goal or order"),
        ({"order": ("gifts", "gifts")}, "order must be one of"),
        ({"engine": "slow"}, "unknown engine 'slow'"),
    ],
)
def test_best_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        best(Position.quick("SCI7 HOR7 MYS7"), **kwargs)  # type: ignore[arg-type]


def test_best_under_a_tiny_time_limit_says_it_was_cut_short() -> None:
    choice = best(crowded_position(), time_limit=0.001)
    assert choice is None or not choice.complete


def test_solver_cpsat_options_stop_at_max_options() -> None:
    result = solver_cpsat.options(crowded_position(), max_options=5, time_limit=30)
    assert (len(result.value), result.complete) == (5, False)


@CATALOGUES
@given(data=st.data(), limit=st.sampled_from([1, 3, 12, 40, 200]))
def test_optima_read_from_a_listing_that_holds_the_whole_novel_are_the_searched_ones_r9(
    data: st.DataObject, catalogue: Catalogue, limit: int
) -> None:
    """Where the listing holds every option of the goal's Novel, the optimum is read from it: the
    option with those costs and the smallest R8 key, as the search for it finds (R9)."""
    position = data.draw(positions(catalogue=catalogue), label="position")
    report = solve(position, max_options=limit, time_limit=None)
    for choice in optima(report, GOALS).values():
        solver_fast._PRODUCTIVE.clear()  # the search from scratch: every multiset walked
        searched, complete = solver_fast.option_with_costs(
            position, choice.option.novel, choice.option.costs, report.constraints
        )
        assert complete
        assert searched == choice.option


@CATALOGUES
@given(data=st.data())
def test_the_optimum_search_walks_only_the_multisets_the_last_search_found_productive_r9(
    data: st.DataObject, catalogue: Catalogue
) -> None:
    """The multisets a search keeps change no optimum: every front point's option is the same
    with them as with the pattern's whole walk (R9), and a search cut by its time limit keeps
    none."""
    position = data.draw(positions(catalogue=catalogue), label="position")
    constraints = data.draw(constraints_for(position), label="constraints")
    found = solver_fast.search(position, constraints, max_options=0)
    key = (position, constraints)
    assert key in solver_fast._PRODUCTIVE
    for novel, front in found.fronts.items():
        for costs in front:
            kept = solver_fast.option_with_costs(position, novel, costs, constraints)
            solver_fast._PRODUCTIVE.pop(key, None)
            walked = solver_fast.option_with_costs(position, novel, costs, constraints)
            assert kept == walked
            assert kept[0] is not None
            solver_fast.search(position, constraints, max_options=0)


def test_the_kept_multisets_are_bounded_and_a_cut_search_keeps_none() -> None:
    for index in range(3 * solver_fast._PRODUCTIVE_KEPT):
        hand = " ".join(str(card) for card in DECK[index : index + 6])
        solver_fast.search(Position.quick(hand), max_options=0)
        assert len(solver_fast._PRODUCTIVE) <= solver_fast._PRODUCTIVE_KEPT
    position = crowded_position()
    cut = solver_fast.search(position, max_options=0, time_limit=1e-6)
    assert cut.stopped_by == "time_limit"
    assert (position, position.constraints) not in solver_fast._PRODUCTIVE
