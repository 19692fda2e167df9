"""Reprs of value types paste back into Python; large objects keep a compact repr."""

from __future__ import annotations

from typing import Any

import pytest

import pastiche_core
from pastiche_core import (
    Card,
    Constraints,
    Game,
    GameRecord,
    Gift,
    Masterpiece,
    Move,
    NovelRef,
    NovelSpec,
    Position,
    PublishOption,
    Straight,
    TableNovel,
    parse_cards,
    play_game,
    solve,
)

NAMESPACE: dict[str, Any] = {name: getattr(pastiche_core, name) for name in pastiche_core.__all__}
NAMESPACE["frozenset"] = frozenset

VALUES: list[object] = [
    Card.parse("MAG13"),
    NovelRef(1, "straight-5"),
    Gift(2, Card.parse("SCI9")),
    TableNovel(0, "kind-3", tuple(parse_cards("SCI7 HOR7 MYS7"))),
    Masterpiece("m1", 1, Card.parse("HOR7")),
    PublishOption("kind-3", tuple(parse_cards("SCI7 HOR7")), ("m1",), ((1, 1),), 1),
    Constraints(keep=frozenset(parse_cards("SCI9")), no_cite=frozenset({2}), max_gifts=1),
    NovelSpec("run-3", "Short Run", Straight(3), 1, 2),
    Position.quick("MYS7 FAN7", table="m1=0:SCI7 m2=1:HOR7", held="kind-5", supply={"kind-3": 2}),
    *[
        Move.parse(text)
        for text in (
            "keep MYT1 SCI9 HOR7",
            "draw",
            "take",
            "choose SCI9",
            "publish kind-5 MYS7 FAN7 cite 0:straight-5 1:kind-3 gift 1:MYT6",
            "read 1:straight-5 SCI9",
            "pass",
            "flag SCI9",
        )
    ],
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_repr_pastes_back(value: object) -> None:
    assert eval(repr(value), NAMESPACE) == value


def test_large_objects_have_compact_reprs() -> None:
    game = play_game(4, seed=3)
    report = solve(Position.from_game(game, 0))
    for large in (game, game.legal_moves, GameRecord.of(game), report, game.view(1)):
        text = repr(large)
        assert len(text) < 200, text
        assert text.startswith("<"), text


def test_str_is_the_human_form() -> None:
    assert str(Card.parse("sci9")) == "SCI9"
    assert str(Position.quick("SCI9 SCI7 MYT6")).startswith("player 0: hand MYT6 SCI7 SCI9")
    assert str(Move.parse("read 1:straight-5 sci9")) == "read 1:straight-5 SCI9"
    assert "\n" in str(Game(players=3, seed=1))  # a board, one line per player
