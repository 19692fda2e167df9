"""The hint's ranking: by reported win chance, then visits, then notation; stable and sensible.

A move with a higher reported chance is never listed below one with a lower chance, in the
document or the table, whatever order the search kept its moves in (the search puts its own
choice and the moves of its last round first; the hint ranks by the estimates it shows).
"""

from __future__ import annotations

import re

import pytest
from search_support import played

from pastiche_core import Move
from pastiche_core.ai import Analysis, analyse
from pastiche_core.ai.analyse import RankedMove, ranking_key

_ROOMY = 10_000  # a ceiling far away: these tests count simulations, not milliseconds


def _analyses() -> list[Analysis]:
    found = []
    for seed in (1, 4, 9):
        for decisions in (6, 30, 60):
            game = played(4, seed, decisions)
            if game.is_over:
                continue
            found.append(
                analyse(game.view(game.to_move), budget_ms=_ROOMY, simulations=40, seed=seed)
            )
    return [analysis for analysis in found if len(analysis.moves) > 1]


ANALYSES = _analyses()


def test_there_are_rankings_to_check() -> None:
    assert len(ANALYSES) >= 5
    # Some ranking has moves whose reported chances differ, so the order says something.
    assert any(len({entry.win_probability for entry in a.moves}) > 2 for a in ANALYSES)


@pytest.mark.parametrize("analysis", ANALYSES, ids=lambda a: f"p{a.player}-{a.phase.value}")
def test_moves_rank_by_win_then_visits_then_notation(analysis: Analysis) -> None:
    keys = [ranking_key(e.win_probability, e.visits, e.move) for e in analysis.moves]
    assert keys == sorted(keys)
    for above, below in zip(analysis.moves, analysis.moves[1:], strict=False):
        assert above.win_probability >= below.win_probability
        if above.win_probability == below.win_probability:
            assert (above.visits, str(below.move)) >= (below.visits, str(above.move))


@pytest.mark.parametrize("analysis", ANALYSES, ids=lambda a: f"p{a.player}-{a.phase.value}")
def test_the_table_never_shows_a_higher_chance_below_a_lower_one(analysis: Analysis) -> None:
    shown = [int(m[1]) for m in re.finditer(r"\s(\d+)% ±", analysis.format())]
    assert len(shown) == len(analysis.moves)
    assert shown == sorted(shown, reverse=True)
    assert analysis.best == analysis.moves[0].move


def test_ties_order_by_visits_then_notation() -> None:
    entries = [
        RankedMove(Move.parse("take"), 0.2, 0.0, 40, ""),
        RankedMove(Move.parse("pass"), 0.2, 0.0, 40, ""),
        RankedMove(Move.parse("read 1:kind-3 SCI9"), 0.2, 0.0, 90, ""),
        RankedMove(Move.parse("draw"), 0.21, -3.0, 5, ""),
    ]
    ranked = sorted(entries, key=lambda e: ranking_key(e.win_probability, e.visits, e.move))
    assert [str(e.move) for e in ranked] == ["draw", "read 1:kind-3 SCI9", "pass", "take"]


def test_the_ranking_is_the_same_on_every_run() -> None:
    game = played(4, 4, 30)
    view = game.view(game.to_move)
    first = analyse(view, budget_ms=_ROOMY, simulations=40, seed=3)
    again = analyse(view, budget_ms=_ROOMY, simulations=40, seed=3)
    assert first.to_json() == again.to_json()
