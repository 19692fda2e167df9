"""The wrong kind of object, or a goal or engine given as a Novel, gets an error that says what
to pass instead: a ValueError subclass, never an AttributeError or a bare TypeError."""

from __future__ import annotations

import pytest

from pastiche_core import (
    Catalogue,
    Game,
    InvalidArgumentError,
    InvalidNotationError,
    NovelSpec,
    OfAKind,
    Position,
    best,
    is_publishable,
    solve,
    why_not,
)
from pastiche_core.io import position_to_dict

POSITION = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")


def _others() -> list[tuple[object, str]]:
    game = Game(players=3, seed=7)
    return [
        (game.view(1), "position_of(view)"),
        ("MYS7 FAN7", "Position.quick('MYS7 FAN7')"),
        (position_to_dict(POSITION), "position_from_dict(data)"),
        (42, "Position.quick("),
    ]


@pytest.mark.parametrize("call", [solve, best])
def test_a_solver_call_on_something_else_says_how_to_make_a_position(call: object) -> None:
    for value, advice in _others():
        with pytest.raises(InvalidArgumentError, match="takes a Position or a Game") as caught:
            call(value)  # type: ignore[operator]
        assert advice in str(caught.value)


def test_is_publishable_on_something_else_too() -> None:
    option = solve(POSITION).options[0]
    with pytest.raises(InvalidArgumentError, match=r"is_publishable\(\) takes a Position"):
        is_publishable(Game(players=3, seed=7).view(0), option)  # type: ignore[arg-type]


def test_an_engine_given_by_position_is_named() -> None:
    with pytest.raises(InvalidArgumentError, match=r"engine='cpsat'"):
        solve(POSITION, "cpsat")
    with pytest.raises(InvalidArgumentError, match="by name"):
        solve(POSITION, 5)


@pytest.mark.parametrize(
    ("novel", "advice"),
    [
        ("points", "is a goal; pass it as goal='points'"),
        ("cpsat", "is an engine; pass it as engine='cpsat'"),
        ("kind-9", "did you mean 'kind-5'? the ids are straight-5"),
        ("no such thing", "the ids are straight-5"),
    ],
)
def test_a_novel_that_is_not_an_id_says_what_is_r3(novel: str, advice: str) -> None:
    with pytest.raises(InvalidArgumentError, match="unknown novel id") as caught:
        best(POSITION, novel)
    assert advice in str(caught.value)


def test_a_novel_may_be_named_as_the_rulebook_names_it_r3() -> None:
    by_name = best(POSITION, "3 of a Kind")
    by_id = best(POSITION, "kind-3")
    assert by_name == by_id
    assert why_not(POSITION, "3 OF A KIND") == why_not(POSITION, "kind-3")


def test_a_name_two_novels_bear_is_refused_as_ambiguous_r3() -> None:
    specs = [
        NovelSpec("kind-3", "Trio", OfAKind(3), 1, 5, "custom"),
        NovelSpec("kind-4", "Trio", OfAKind(4), 2, 3, "custom"),
        NovelSpec("end-flag", "End Flag", None, 1, 1, "custom"),
    ]
    position = Position.quick("MYS7 FAN7 HOR7", catalogue=Catalogue(specs, name="twins"))
    with pytest.raises(InvalidArgumentError, match="ambiguous; give one of the ids kind-3, kind-4"):
        best(position, "Trio")


def test_a_position_from_a_view_is_not_from_game() -> None:
    with pytest.raises(InvalidArgumentError, match="takes a Game, got a PlayerView"):
        Position.from_game(Game(players=3, seed=7).view(0))  # type: ignore[arg-type]


def test_quick_takes_lists_of_tokens_as_well_as_strings() -> None:
    listed = Position.quick(["MYS7", "FAN7"], table=["0:SCI7", "1:HOR7"], held=["kind-3"])
    assert listed == Position.quick("MYS7 FAN7", table="0:SCI7 1:HOR7", held="kind-3")
    with pytest.raises(InvalidNotationError, match="invalid hand"):
        Position.quick([7, 8])  # type: ignore[list-item]


def test_applying_a_solver_answer_says_how_to_make_the_move_r5() -> None:
    game = Game(players=3, seed=7)
    answer = best(POSITION)
    assert answer is not None
    with pytest.raises(InvalidNotationError, match=r"to_publish\(best.option, game.position\(\)\)"):
        Game(players=3, seed=7).apply(answer)
    with pytest.raises(InvalidNotationError, match=r"to_publish\(option, game.position\(\)\)"):
        game.apply(answer.option)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError) as caught:
        game.apply(list(range(1000)))  # type: ignore[arg-type]
    assert len(str(caught.value)) < 160


def _publishing_game() -> Game:
    """A game whose player to move can publish (random play until one can)."""
    import random

    for seed in range(200):
        game, rng = Game(players=4, seed=seed), random.Random(seed)
        while not game.is_over:
            if best(game) is not None:
                return game
            moves = game.legal_moves
            game.apply(moves[rng.randrange(len(moves))])
    raise AssertionError("no game reached a publish")  # pragma: no cover


def test_best_and_solve_of_a_game_answer_for_its_player_to_move_and_apply_r5() -> None:
    game = _publishing_game()
    assert solve(game) == solve(game.position())
    choice = best(game)
    assert choice is not None
    assert choice.option == best(game.position()).option  # type: ignore[union-attr]
    assert choice.move is not None
    assert choice.move in game.legal_moves
    twin = game.copy()
    game.apply(choice)  # the answer itself is taken as its move
    twin.apply(choice.move)
    assert game.history == twin.history


@pytest.mark.parametrize(
    ("position", "novel", "reasons"),
    [
        (Position.quick("MYS7 FAN7 HOR7"), "kind-3", []),
        (Position.quick("MYS7"), "end-flag", ["is the End Flag", "(R12)"]),
        (Position.quick("MYS7 FAN7 HOR7", held="kind-3"), "kind-3", ["holds kind-3", "(R6)"]),
        (Position.quick("MYS7 FAN7 HOR7", supply={"kind-3": 0}), "kind-3", ["no copy", "(R6)"]),
        (Position.quick(""), "kind-3", ["hand is empty", "(R4)"]),
        (Position.quick("MYS7 FAN7"), "kind-3", ["cannot make 3 of a Kind (R4)"]),
        # three Masterpieces of rank 7, none of the hand's ranks: no hand card can play (R4)
        (
            Position.quick("SCI9", table="1:MYS7 1:FAN7 2:HOR7"),
            "kind-3",
            ["plays no card of the hand (R4)"],
        ),
        # one hand 7 and two rivals' 7s: two gifts owed, nothing left to give them (R5)
        (Position.quick("MYS7", table="1:FAN7 2:HOR7"), "kind-3", ["cannot pay (R5)"]),
    ],
)
def test_why_not_names_each_reason_and_its_ruling(
    position: Position, novel: str, reasons: list[str]
) -> None:
    found = why_not(position, novel)
    assert len(found) == (1 if reasons else 0), found
    for part in reasons:
        assert part in found[0]
    assert (best(position, novel) is None) == bool(found) or novel == "end-flag"


def test_why_not_of_a_game_and_of_an_unknown_id() -> None:
    game = Game(players=3, seed=7)  # a keep (R10): the phase first, then the cards' reasons
    assert why_not(game, "kind-3") == [
        "player 2 is keeping 3 cards of the deal: a publish is a turn action (R10, R11)",
        *why_not(game.position(), "kind-3"),
    ]
    for move in ("keep MYT1 HOR7 HOR8", "draw", "choose SCI5"):
        game.apply(move)
    assert why_not(game, "kind-3") == why_not(game.position(), "kind-3")  # a turn (R11)
    with pytest.raises(InvalidArgumentError, match="the ids are"):
        why_not(game, "kind-99")
