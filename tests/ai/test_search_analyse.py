"""Hints: the hint contract, legal ranked moves, factual explanations, and no peeking (R16)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from search_support import played

from pastiche_core import (
    DECK,
    Card,
    Game,
    InvalidArgumentError,
    Move,
    Phase,
    play_game,
    schema,
    state_from_dict,
    state_to_dict,
)
from pastiche_core.ai import Analysis, analyse
from pastiche_core.ai.analyse import explain
from pastiche_core.ai.determinize import Knowledge
from pastiche_core.engine.view import PlayerView

jsonschema: Any = pytest.importorskip("jsonschema")
_VALIDATOR = jsonschema.Draft202012Validator(schema("hint"))
_ROOMY = 10_000  # a ceiling far away: these tests count simulations, not milliseconds


def _check_document(analysis: Analysis, game: Game, view: PlayerView) -> dict[str, Any]:
    data = analysis.to_dict()
    _VALIDATOR.validate(data)
    assert data["player"] == view.player
    assert data["phase"] == view.phase.value
    assert json.loads(analysis.to_json()) == data
    for entry in data["moves"]:
        assert Move.parse(entry["move"]) in game.legal_moves
        assert 0 <= entry["win_probability"] <= 1
        assert entry["explanation"]
    return data


@settings(max_examples=examples(25))
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
    seat=st.integers(0, 4),
)
def test_every_analysis_follows_the_hint_contract(
    players: int, seed: int, decisions: int, seat: int
) -> None:
    game = played(players, seed, decisions)
    view = game.view(seat % players)
    analysis = analyse(view, budget_ms=_ROOMY, simulations=12, seed=seed)
    data = _check_document(analysis, game, view)
    deciding = not game.is_over and game.to_move == view.player
    assert bool(data["moves"]) == deciding
    if deciding:
        assert analysis.simulations_run == 12
        assert analysis.best in game.legal_moves


def test_the_same_input_gives_the_same_bytes() -> None:
    game = played(4, 31, 55)
    view = game.view(game.to_move)
    one = analyse(view, budget_ms=_ROOMY, simulations=20, seed=3)
    two = analyse(view, budget_ms=_ROOMY, simulations=20, seed=3)
    assert one.to_json() == two.to_json()
    assert str(one) == str(two)
    assert analyse(view, budget_ms=_ROOMY, simulations=20, seed=4).to_dict()["seed"] == 4


def test_states_differing_only_in_hidden_cards_give_the_same_analysis() -> None:
    """Swap cards the player cannot see (other hands, the deck): the hint does not move."""
    game = played(4, 17, 64)
    seat = game.to_move
    data = state_to_dict(game)
    del data["history"]  # a composed position: the swap need not replay
    other = (seat + 1) % 4
    hand = data["hands"][other]
    deck = data["deck"]
    hand[0], deck[0] = deck[0], hand[0]
    data["hands"][other] = sorted(hand, key=lambda text: Card.parse(text).index)
    changed = state_from_dict(data)
    same = state_from_dict(state_to_dict(game) | {"history": []})
    assert changed.hand(other) != same.hand(other)
    assert changed.view(seat) == same.view(seat)
    one = analyse(changed.view(seat), budget_ms=_ROOMY, simulations=24, seed=9)
    two = analyse(same.view(seat), budget_ms=_ROOMY, simulations=24, seed=9)
    assert one.to_json() == two.to_json()


def test_nothing_to_decide_gives_an_empty_ranking() -> None:
    game = play_game(players=3, seed=4)
    over = analyse(game.view(1), budget_ms=50)
    assert over.moves == ()
    assert over.complete
    assert over.best is None
    _VALIDATOR.validate(over.to_dict())
    assert "the game is over" in str(over)
    waiting = analyse(Game(players=3, seed=4).view(0), budget_ms=50)
    assert waiting.moves == ()
    assert "not this player's decision" in str(waiting)
    assert repr(waiting) == "<Analysis player 0, keep: nothing to decide, complete>"


def test_the_table_and_html_show_every_move() -> None:
    game = played(4, 6, 70)
    view = game.view(game.to_move)
    analysis = analyse(view, budget_ms=_ROOMY, simulations=16, seed=1)
    text = str(analysis)
    html = analysis._repr_html_()
    for entry in analysis.moves:
        assert str(entry.move) in text
        assert entry.explanation in text
    assert html.count("<tr>") == len(analysis.moves) + 1
    assert repr(analysis).startswith(f"<Analysis player {view.player}, {view.phase.value}:")
    assert "16 simulations, " in repr(analysis)


def test_a_complete_search_that_ran_fewer_simulations_than_its_budget_says_so_plainly() -> None:
    # A search charged the rival model's work runs fewer simulations than its budget and is
    # complete: the text must not read like a cut ("71 of 96").
    game = played(4, 6, 70)
    analysis = analyse(game.view(game.to_move), budget_ms=_ROOMY, simulations=16, seed=1)
    charged = dataclasses.replace(analysis, simulations=24, complete=True, cut=())
    assert "16 simulations (budget 24), complete>" in repr(charged)
    assert "16 simulations (budget 24), complete" in str(charged).splitlines()[0]
    assert " of " not in repr(charged).split("), ")[-1]


def test_bad_arguments_are_refused() -> None:
    view = Game(players=3, seed=7).view(2)
    for budget in (0, 10_001, 2.5, "300"):
        with pytest.raises(InvalidArgumentError, match="budget_ms"):
            analyse(view, budget_ms=budget)  # type: ignore[arg-type]
    for seed in (-1, 2**64, 1.5):
        with pytest.raises(InvalidArgumentError, match="seed"):
            analyse(view, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="simulations"):
        analyse(view, simulations=0)
    with pytest.raises(InvalidArgumentError, match="PlayerView"):
        analyse({"format": "pastiche-view"}, budget_ms=10)  # type: ignore[arg-type]


def test_a_tiny_budget_is_incomplete_but_valid() -> None:
    game = played(4, 6, 70)
    view = game.view(game.to_move)
    analysis = analyse(view, budget_ms=1, simulations=5_000, seed=1)
    assert not analysis.complete
    assert analysis.simulations_run < 5_000
    _check_document(analysis, game, view)


# ----------------------------------------------------------------------
# Explanations: facts of the position
# ----------------------------------------------------------------------
def _composed(hands: list[str], tables: list[list[tuple[str, str]]], turn: int) -> Game:
    """A 3-player position, player 0 to move: these hands and Masterpieces, the rest in the deck."""
    data = state_to_dict(Game(players=3, seed=1))
    data.pop("history")
    used = {text for hand in hands for text in hand.split()}
    used |= {card for table in tables for _, card in table}
    deck = [str(card) for card in DECK if str(card) not in used]
    others = iter(deck[-6:])
    full = [hand.split() or [next(others) for _ in range(3)] for hand in hands]
    data.update(
        phase="action",
        to_move=0,
        current=0,
        turn=turn,
        deck=[card for card in deck if all(card not in hand for hand in full)],
        hands=full,
        tables=[
            [{"novel": novel, "cards": [card], "status": "masterpiece"} for novel, card in table]
            for table in tables
        ],
    )
    for table in tables:
        for novel, _ in table:
            data["supply"][novel] -= 1
    return state_from_dict(data)


def _jerome() -> Game:
    """The rulebook's publish: Jerome (0) owns SCI7, Ernest (1) HOR7 and MYT7, as Masterpieces."""
    return _composed(
        ["MYS7 FAN7 MYT6 SCI9", "", ""],
        [[("pairs-3", "SCI7")], [("straight-5", "HOR7"), ("kind-3", "MYT7")], []],
        turn=9,
    )


def test_explanations_name_points_gifts_supply_kept_cards_and_rivals() -> None:
    game = _jerome()
    view = game.view(0)
    knowledge = Knowledge.of(view)
    move = Move.parse(
        "publish kind-5 MYS7 FAN7 cite 0:pairs-3 1:kind-3 1:straight-5 gift 1:MYT6 1:SCI9"
    )
    assert move in game.legal_moves
    text = explain(view, move, knowledge)
    assert text.startswith("6 points once read down from 2 cards to one (1 read)")
    assert "gives MYT6 SCI9 to player 1" in text
    assert "1 kind-5 left after" in text
    assert "empties the hand" in text
    instant = Move.parse("publish kind-3 MYS7 cite 0:pairs-3 1:kind-3 gift 1:MYT6")
    text = explain(view, instant, knowledge)
    assert "a Masterpiece at once: +1 point now (R7)" in text
    assert "keeps SCI9 FAN7" in text
    analysis = analyse(view, budget_ms=_ROOMY, simulations=30, seed=2)
    assert any("gives" in entry.explanation for entry in analysis.moves)
    _check_document(analysis, game, view)


def test_a_rival_who_could_use_the_gifts_is_named() -> None:
    """Giving player 1 a 9 while they own two Masterpieces of 9s gives them 3 of a Kind."""
    game = _composed(
        ["SCI9 HOR9 MYS9 LOV2", "", ""],
        [[], [("straight-5", "MAG9"), ("pairs-3", "FAN9")], []],
        turn=6,
    )
    view = game.view(0)
    knowledge = Knowledge.of(view)
    nine = Move.parse("publish kind-3 SCI9 HOR9 cite 1:straight-5 gift 1:MYS9")
    two = Move.parse("publish kind-3 SCI9 HOR9 cite 1:straight-5 gift 1:LOV2")
    assert nine in game.legal_moves
    assert two in game.legal_moves
    text = explain(view, nine, knowledge)
    assert "gives MYS9 to player 1" in text
    assert "player 1 could then publish kind-3 (1 point) with MYS9" in text
    assert "could then publish" not in explain(view, two, knowledge)
    assert "could then publish" not in explain(view, nine, knowledge, rivals=False)


def test_other_moves_are_explained_from_the_view() -> None:
    seen: set[str] = set()
    for seed in range(30):
        game = played(4, seed, 20 + seed * 3)
        if game.is_over:
            continue
        view = game.view(game.to_move)
        analysis = analyse(view, budget_ms=_ROOMY, simulations=4, seed=0)
        for entry in analysis.moves:
            seen.add(type(entry.move).__name__)
            if entry.move == Move.parse("draw"):
                assert "draws two" in entry.explanation or "last card" in entry.explanation
            if type(entry.move).__name__ == "Read":
                assert entry.explanation.startswith("takes ")
            if type(entry.move).__name__ == "Choose":
                assert entry.explanation.startswith("keeps ")
    assert {"Draw", "TakeDiscard", "Read", "Publish", "Choose"} <= seen
    keep_view = Game(players=5, seed=3).view(2)
    assert keep_view.phase is Phase.KEEP
    assert "face down" in analyse(keep_view, simulations=4, budget_ms=_ROOMY).moves[0].explanation
