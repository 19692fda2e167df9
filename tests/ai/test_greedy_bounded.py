"""The greedy bot's solver calls are bounded by its time limit, and the search's anchor by the
search's deadline: no hint waits on an unbounded solver."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from search_support import played

from pastiche_core import Phase, play_game
from pastiche_core.ai import GreedyBot
from pastiche_core.ai.search import ceiling, search
from pastiche_core.bots.play import Bot, RandomBot
from pastiche_core.data.errors import InvalidArgumentError

GREEDY = importlib.import_module("pastiche_core.ai.greedy")
SEARCH = importlib.import_module("pastiche_core.ai.search")


def _recording(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The time limits the greedy bot passes to the solver, recorded call by call."""
    limits: list[float | None] = []
    real_solve, real_optima = GREEDY.solve, GREEDY.optima

    def solve(*args: Any, **kwargs: Any) -> Any:
        limits.append(kwargs.get("time_limit"))
        return real_solve(*args, **kwargs)

    def optima(*args: Any, **kwargs: Any) -> Any:
        limits.append(kwargs.get("time_limit"))
        return real_optima(*args, **kwargs)

    monkeypatch.setattr(GREEDY, "solve", solve)
    monkeypatch.setattr(GREEDY, "optima", optima)
    return limits


@pytest.mark.parametrize("seed", [3, 11])
def test_every_solver_call_of_a_decision_shares_the_bots_time_limit(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    limits = _recording(monkeypatch)
    bots = [GreedyBot(seed + seat, time_limit=0.5) for seat in range(4)]
    play_game(4, seed, bots=bots)
    assert limits  # the bots published, or at least asked
    assert all(limit is not None and 0 < limit <= 0.5 for limit in limits)


def test_without_a_time_limit_the_solver_is_asked_for_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = _recording(monkeypatch)
    play_game(4, 3, bots=[GreedyBot(seat) for seat in range(4)])
    assert limits
    assert all(limit is None for limit in limits)


def test_a_greedy_bot_out_of_time_still_plays_legal_moves_to_the_end() -> None:
    bots: list[Bot] = [GreedyBot(1, time_limit=1e-6), RandomBot(2), RandomBot(3)]
    game = play_game(3, 5, bots=bots)  # play_game refuses an illegal move
    assert game.phase is Phase.OVER


@pytest.mark.parametrize("limit", [0, -1.0, 3601.0, "1"])
def test_a_time_limit_is_seconds_above_zero(limit: object) -> None:
    with pytest.raises(InvalidArgumentError, match="time_limit"):
        GreedyBot(1, time_limit=limit)  # type: ignore[arg-type]


def test_the_searchs_anchor_gets_what_is_left_of_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given: list[float | None] = []

    class Recorded(GreedyBot):
        __slots__ = ()

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            given.append(kwargs.get("time_limit"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(SEARCH, "GreedyBot", Recorded)
    game = played(4, 23, 60)
    while game.phase is not Phase.ACTION:
        game.apply(game.legal_moves[0])
    view = game.view(game.to_move)
    search(view, simulations=4, seed=1, deadline=ceiling(5.0))
    search(view, simulations=4, seed=1)
    assert len(given) == 2
    assert given[0] is not None
    assert 0 < given[0] <= 5.0
    assert given[1] is None  # counted work alone: the same answer on every machine
