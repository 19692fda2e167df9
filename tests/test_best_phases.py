"""``best``, ``solve`` and ``why_not`` asked of a game agree with its legal moves in every phase.

A publish is a turn action (R11): while a seat keeps its deal (R10), chooses which drawn card
to keep (R11) or puts a card under the End Flag (R12), and once the game is over, no publish is
legal, so ``best(game)`` answers ``None``, ``solve(game)`` lists nothing and ``why_not`` gives
the phase. Random games of 3 to 5 seats walk through every phase.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from pastiche_core import Game, best, is_publishable, solve, why_not
from pastiche_core.data.errors import InvalidNotationError
from pastiche_core.engine.moves import Publish
from pastiche_core.engine.rules import Phase
from pastiche_core.solver.position import Position

GAMES = 12
"""Random games walked, seeds 0 to GAMES - 1 (each to its end: a few hundred decisions)."""
MOST_MOVES = 3000
"""The legal moves listed to tell which Novels have a legal publish (the rest are counted)."""


def _decisions(seed: int) -> Iterator[Game]:
    """The game of ``seed`` (3 to 5 seats) at each of its decisions, then over."""
    game = Game(players=3 + seed % 3, seed=seed)
    rng = random.Random(seed)
    while True:
        yield game
        if game.phase is Phase.OVER:
            return
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])


def _publishable(game: Game) -> set[str]:
    """The Novels of which some publish is legal now, read from the legal moves."""
    return {move.novel for move in game.legal_moves if isinstance(move, Publish)}


def test_r10_r11_r12_best_answers_only_legal_moves_in_every_phase() -> None:
    phases: Counter[Phase] = Counter()
    answered = 0
    for seed in range(GAMES):
        for game in _decisions(seed):
            phases[game.phase] += 1
            choice = best(game, time_limit=None)
            if game.phase is not Phase.ACTION:
                assert choice is None, (seed, game.phase, choice)
                continue
            if choice is not None:
                answered += 1
                assert choice.move in game.legal_moves, (seed, game.turn, choice)
    assert set(phases) == set(Phase)
    assert answered > 50


def test_r11_why_not_is_empty_exactly_when_a_publish_of_the_novel_is_legal() -> None:
    checked = Counter[Phase]()
    for seed in range(GAMES):
        for step, game in enumerate(_decisions(seed)):
            outside = game.phase is not Phase.ACTION
            if not (outside or step % 4 == 0) or len(game.legal_moves) > MOST_MOVES:
                continue
            legal = _publishable(game)
            checked[game.phase] += 1
            for spec in game.catalogue.specs:
                reasons = why_not(game, spec.id)
                assert (reasons == []) == (spec.id in legal), (seed, step, spec.id, reasons)
    assert set(checked) == set(Phase)
    assert checked[Phase.ACTION] > 100


@pytest.mark.parametrize(
    ("phase", "ruling"),
    [
        (Phase.KEEP, "(R10, R11)"),
        (Phase.CHOOSE, "(R11)"),
        (Phase.FLAG, "(R11, R12)"),
        (Phase.OVER, "(R12)"),
    ],
)
def test_r10_r11_r12_outside_a_turn_nothing_is_offered_and_why_not_names_the_phase(
    phase: Phase, ruling: str
) -> None:
    game = next(g for seed in range(GAMES) for g in _decisions(seed) if g.phase is phase)
    report = solve(game)
    assert report.options == ()
    assert report.complete
    assert dict(report.counts) == {}
    assert report.position == game.position()
    for spec in game.catalogue.specs:
        if spec.publishable:
            first = why_not(game, spec.id)[0]
            assert first.endswith(ruling), first
            assert ("game is over" in first) == (phase is Phase.OVER)
    # The same hand as a bare position (no phase) is answered as in a turn.
    free = solve(game.position(), max_options=1)
    for option in free.options:
        assert not is_publishable(game, option)
        assert is_publishable(game.position(), option)


def test_r11_the_issue_case_keep_phase_answers_none_and_apply_none_says_why() -> None:
    game = Game(players=4, seed=7)
    game.apply(game.legal_moves[0])
    assert game.phase is Phase.KEEP
    assert best(game) is None
    bare = solve(Position.from_game(game))
    assert bare.counts["kind-3"] > 0  # the hand could make one, were it a turn
    assert not is_publishable(game, bare.options[0])
    assert why_not(game, "kind-3") == [
        "player 3 is keeping 3 cards of the deal: a publish is a turn action (R10, R11)"
    ]
    before = game.to_json()
    with pytest.raises(InvalidNotationError, match=r"no move to apply \(None\): best\(game\)"):
        game.apply(best(game))  # type: ignore[arg-type]
    assert game.to_json() == before
    assert not game.is_legal(None)  # type: ignore[arg-type]
