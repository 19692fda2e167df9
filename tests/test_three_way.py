"""Fast engine, CP-SAT engine and brute force: the same options, fronts and optima (R4–R9).

Both engines build options with :func:`~pastiche_core.solver.options.make_option`, so
they must agree option for option (same cards, ids and gifts), not only on R8
keys; both break ties between optima by the smallest key. The brute force is
the judge when they differ.
"""

from __future__ import annotations

import pytest
from brute_force import brute_card_level, brute_option_list, brute_pareto
from hypothesis import given
from hypothesis import strategies as st
from position_strategies import CUSTOM_CATALOGUE, constraints_for, positions

from pastiche_core import Catalogue
from pastiche_core.solver import cpsat as solver_cpsat
from pastiche_core.solver import fast as solver_fast
from pastiche_core.solver.options import Constraints, OptionKey, PublishOption, option_key
from pastiche_core.solver.position import Position

CATALOGUES = pytest.mark.parametrize(
    "catalogue", [Catalogue.default(), CUSTOM_CATALOGUE], ids=["default", "custom"]
)
CONSTRAINED = pytest.mark.parametrize("constrained", [False, True], ids=["free", "constrained"])


def by_key(position: Position, found: list[PublishOption]) -> dict[OptionKey, PublishOption]:
    table = {option_key(position, option): option for option in found}
    assert len(table) == len(found), "an option is listed twice (R8)"
    return table


def draw_case(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> tuple[Position, Constraints | None]:
    position = data.draw(positions(catalogue=catalogue), label="position")
    constraints = data.draw(constraints_for(position), label="constraints") if constrained else None
    return position, constraints


@CATALOGUES
@CONSTRAINED
@given(data=st.data())
def test_the_three_agree_on_options_fronts_and_optima(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> None:
    position, constraints = draw_case(data, catalogue, constrained)
    brute = by_key(position, brute_option_list(position, constraints))
    fast = by_key(position, solver_fast.options(position, constraints))
    cpsat = solver_cpsat.options(position, constraints)
    assert cpsat.complete
    assert set(fast) == set(brute)
    assert fast == by_key(position, cpsat.value)
    fronts = brute_pareto(position, constraints)
    assert solver_fast.pareto(position, constraints) == fronts
    assert solver_cpsat.pareto(position, constraints).value == fronts
    for novel in position.catalogue:
        for order in (("played", "gifts"), ("gifts", "played")):
            expected = solver_fast.optimum(position, novel, order, constraints)
            result = solver_cpsat.optimum(position, novel, order, constraints)
            assert result.complete
            assert result.value == expected, (novel, order)


@CATALOGUES
@CONSTRAINED
@given(data=st.data())
def test_card_level_options_are_every_choice_of_physical_cards(
    data: st.DataObject, catalogue: Catalogue, constrained: bool
) -> None:
    position, constraints = draw_case(data, catalogue, constrained)
    found = solver_fast.options(position, constraints, card_level=True)
    listed = [(o.novel, o.played, option_key(position, o)[2]) for o in found]
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_card_level(position, constraints)
