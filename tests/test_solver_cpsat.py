"""The CP-SAT engine against the brute-force reference (R4–R9).

Options (R8 keys), Pareto fronts and lexicographic optima (R9) must be the same
as the brute force's on random positions from the real deck, with and without
hint constraints, for the default catalogue (R2) and a custom one (R3). Time
limits never raise, and importing the package does not load OR-Tools.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from brute_force import brute_option_list, brute_options, brute_pareto
from hypothesis import given
from hypothesis import strategies as st
from position_strategies import CUSTOM_CATALOGUE, constraints_for, positions

from pastiche_core import Catalogue, parse_cards
from pastiche_core.solver.cpsat import CpSatResult, optimum, options, pareto
from pastiche_core.solver.options import (
    Constraints,
    OptionKey,
    PublishOption,
    check_option,
    option_key,
)
from pastiche_core.solver.position import Position

CATALOGUES = pytest.mark.parametrize(
    "catalogue", [Catalogue.default(), CUSTOM_CATALOGUE], ids=["default", "custom"]
)

JEROME = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
"""The rulebook's Publish example: Jerome (seat 0) and Ernest's two 7s."""

BIG = Position.quick(
    "MYT1 MYT2 LOV3 SCI4 HOR5 MYS6 FAN7 MAG8 MAG9 FAN10",
    table="0:SCI7 1:HOR7 2:MYT7 1:MYS11 2:MAG12 0:LOV4 1:HOR4 2:MYS5",
)
"""A hand of 10 and 8 Masterpieces with many options (most of them Seven for 49)."""


def keys(position: Position, found: list[PublishOption]) -> list[OptionKey]:
    return [option_key(position, option) for option in found]


def draw_case(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> tuple[Position, Constraints | None]:
    position = data.draw(positions(catalogue=catalogue), label="position")
    constraints = data.draw(constraints_for(position), label="constraints") if constrained else None
    return position, constraints


# ----------------------------------------------------------------------
# Agreement with the brute force
# ----------------------------------------------------------------------
@CATALOGUES
@pytest.mark.parametrize("constrained", [False, True], ids=["free", "constrained"])
@given(data=st.data())
def test_options_are_exactly_the_brute_force_options(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> None:
    position, constraints = draw_case(data, catalogue, constrained)
    result = options(position, constraints)
    assert result.complete
    assert result.status == ("optimal" if result.value else "infeasible")
    found = keys(position, result.value)
    assert len(found) == len(set(found))  # R8: each option exactly once
    assert set(found) == brute_options(position, constraints)
    for option in result.value:
        assert check_option(position, option, constraints) is None


@CATALOGUES
@pytest.mark.parametrize("constrained", [False, True], ids=["free", "constrained"])
@given(data=st.data())
def test_pareto_fronts_are_the_brute_force_fronts(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> None:
    position, constraints = draw_case(data, catalogue, constrained)
    result = pareto(position, constraints)
    assert result.complete
    assert result.value == brute_pareto(position, constraints)
    assert list(result.value) == [n for n in position.catalogue if n in result.value]


@CATALOGUES
@given(data=st.data())
def test_optimum_is_the_end_of_the_front_with_the_smallest_key(
    data: st.DataObject, catalogue: Catalogue
) -> None:
    constrained = data.draw(st.booleans(), label="constrained")
    position, constraints = draw_case(data, catalogue, constrained)
    every = brute_option_list(position, constraints)
    fronts = brute_pareto(position, constraints)
    for spec in position.catalogue.publishable:
        front = fronts.get(spec.id)
        for order, best in ((("played", "gifts"), 0), (("gifts", "played"), -1)):
            result = optimum(position, spec.id, order, constraints)
            assert result.complete
            if front is None:
                assert result == CpSatResult(None, True, "infeasible")
                continue
            assert result.status == "optimal"
            assert result.value is not None
            assert result.value.costs == front[best]
            tied = [o for o in every if o.novel == spec.id and o.costs == front[best]]
            smallest = min(option_key(position, o) for o in tied)
            assert option_key(position, result.value) == smallest
            assert check_option(position, result.value, constraints) is None


# ----------------------------------------------------------------------
# Known positions
# ----------------------------------------------------------------------
def test_the_rulebook_example_is_found_with_its_two_gifts() -> None:
    five = [o for o in options(JEROME).value if o.novel == "kind-5"]
    assert [str(o) for o in five] == [
        "publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points"
    ]
    assert pareto(JEROME).value["kind-5"] == [(2, 2)]
    # Keeping MYT6 leaves one card for two gifts: no longer payable (R5).
    kept = Constraints(keep=frozenset(parse_cards("MYT6")))
    assert "kind-5" not in pareto(JEROME, kept).value
    assert optimum(JEROME, "kind-5", constraints=kept).value is None


def test_instant_masterpieces_and_own_citations_are_free() -> None:
    # R5: own Masterpieces cost nothing; R7: one played card.
    position = Position.quick("SCI7 MYS9", table="m1=0:HOR7 m2=0:FAN7 m3=2:MYT7", player=0)
    best = optimum(position, "kind-3").value
    assert best is not None
    assert str(best) == "publish kind-3 SCI7 cite m1 m2 for 1 point"
    assert best.instant_masterpiece
    assert best.costs == (1, 0)
    assert pareto(position).value == {"kind-3": [(1, 0)]}


def test_unavailable_novels_and_bad_arguments() -> None:
    held = Position.quick("SCI7 HOR7 MYS7", held="kind-3")
    assert options(held).value == []
    assert optimum(held, "kind-3") == CpSatResult(None, True, "infeasible")
    empty = Position.quick("SCI7 HOR7 MYS7", supply={"kind-3": 0})
    assert pareto(empty).value == {}
    assert optimum(held, "end-flag").value is None
    with pytest.raises(ValueError, match="order"):
        optimum(JEROME, "kind-3", order=("gifts", "gifts"))
    with pytest.raises(KeyError):
        optimum(JEROME, "no-such-novel")
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="time_limit"):
            options(JEROME, time_limit=bad)


def test_big_position_agrees_with_the_brute_force() -> None:
    result = options(BIG)
    assert result.complete
    assert set(keys(BIG, result.value)) == brute_options(BIG)
    assert pareto(BIG).value == brute_pareto(BIG)


# ----------------------------------------------------------------------
# Time limits
# ----------------------------------------------------------------------
@pytest.mark.parametrize("seconds", [1e-9, 1e-3, 0.02])
def test_a_time_limit_never_raises_and_flags_partial_answers(seconds: float) -> None:
    full = set(keys(BIG, options(BIG).value))
    fronts = pareto(BIG).value
    cut = options(BIG, time_limit=seconds)
    found = set(keys(BIG, cut.value))
    if cut.complete:
        assert found == full
    else:
        assert cut.status in ("feasible", "unknown")
        assert found <= full
    cut_fronts = pareto(BIG, time_limit=seconds)
    if cut_fronts.complete:
        assert cut_fronts.value == fronts
    else:
        assert all(front == fronts[n][: len(front)] for n, front in cut_fronts.value.items())
    best = optimum(BIG, "total-7", time_limit=seconds)
    assert best.complete or best.status in ("feasible", "unknown")
    if best.value is not None:
        assert check_option(BIG, best.value) is None
        if best.complete:
            assert best.value.costs == fronts["total-7"][0]


def test_the_smallest_time_limit_gives_an_incomplete_answer() -> None:
    result = options(BIG, time_limit=1e-9)
    assert result == CpSatResult([], False, "unknown")


# ----------------------------------------------------------------------
# Lazy import
# ----------------------------------------------------------------------
def test_importing_the_package_does_not_load_ortools() -> None:
    code = (
        "import sys, pastiche_core, pastiche_core.solver.cpsat; "
        "assert not any(m.split('.')[0] == 'ortools' for m in sys.modules), 'ortools loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
