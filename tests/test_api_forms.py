"""The API takes cards in every form a user types them, and a position file keeps its question.

Wherever the API takes cards it accepts notation (``"SCI9 HOR7"``), Cards, or
an iterable of either, as ``game.apply("draw")`` accepts a move's notation; and
loading a position file gives the position the file describes, constraints
included, so ``solve(load_position(path))`` is the command line's answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pastiche_core import (
    Card,
    Choose,
    Constraints,
    InvalidStateError,
    Keep,
    Masterpiece,
    NovelRef,
    Position,
    Publish,
    Read,
    TakeFlag,
    load_position,
    solve,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"
SCI9, HOR7 = Card.parse("SCI9"), Card.parse("HOR7")


@pytest.mark.parametrize(
    "keep", ["SCI9", "sci9", ["SCI9"], SCI9, [SCI9], ("SCI9",), frozenset({SCI9})]
)
def test_constraints_keep_takes_cards_in_every_form(keep: object) -> None:
    constraints = Constraints(keep=keep)  # type: ignore[arg-type]
    assert constraints.keep == frozenset({SCI9})
    position = Position.quick("SCI9 HOR7 MYS7")
    constraints.check_against(position)  # SCI9 is in the hand, however it was written


def test_constraints_name_what_is_wrong() -> None:
    with pytest.raises(InvalidStateError, match=r"^constraints\.keep: invalid card 'XYZ9'"):
        Constraints(keep="XYZ9")
    with pytest.raises(
        InvalidStateError, match=r"^constraints\.no_cite: expected seats from 0 to 4"
    ):
        Constraints(no_cite=[7])
    with pytest.raises(InvalidStateError, match=r"not in the hand"):
        Position.quick("HOR7", constraints=Constraints(keep="SCI9"))
    assert Constraints(no_cite=2).no_cite == frozenset({2})


def test_positions_and_moves_take_card_notation() -> None:
    assert Position(0, "SCI9 HOR7").hand == Position(0, [SCI9, HOR7]).hand
    cited = Masterpiece("m1", 1, "HOR7")  # type: ignore[arg-type]
    assert Position(0, "SCI9", masterpieces=[cited]).masterpieces[0].card is HOR7
    assert Position.quick("SCI9 HOR7").without_cards("HOR7").hand == (SCI9,)
    assert Keep("SCI9 HOR7 MYS7") == Keep.of("SCI9 HOR7 MYS7")  # type: ignore[arg-type]
    assert Publish("kind-3", "SCI7 HOR7", ("1:kind-5",)) == Publish.of(  # type: ignore[arg-type]
        "kind-3", "SCI7 HOR7", cite="1:kind-5"
    )
    assert Choose("SCI9") == Choose(SCI9)  # type: ignore[arg-type]
    assert TakeFlag("sci9") == TakeFlag(SCI9)  # type: ignore[arg-type]
    assert Read("1:straight-5", "SCI9") == Read(NovelRef(1, "straight-5"), SCI9)  # type: ignore[arg-type]


def test_loading_a_position_file_keeps_its_constraints() -> None:
    path = EXAMPLES / "midgame.json"
    position = load_position(path)
    assert not position.constraints.is_empty
    report = solve(position, max_options=None)
    done = subprocess.run(
        [sys.executable, "-m", "pastiche_core", "publishes", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    cli = json.loads(done.stdout)
    assert [option.to_dict() for option in report.options] == cli["options"]
    assert len(report.options) == 31
    # Other constraints given to solve replace the position's own, as on the command line.
    assert len(solve(position, constraints=Constraints(), max_options=None).options) == 62
