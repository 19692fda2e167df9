"""One notation for gifts: an option is written as a publish move is, ``gift 1:?`` per card owed.

``str(option)`` reads ``publish NOVEL PLAYED... [cite ID...] [gift TO:? ...] for N points``
and :meth:`PublishOption.parse` reads it back, for every option the solver gives (R5, R8).
The readable report, the HTML and rich tables and the move parser share that form.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from position_strategies import CUSTOM_CATALOGUE, positions
from rich.console import Console

from pastiche_core import Move, Position, solve
from pastiche_core.data.errors import InvalidNotationError
from pastiche_core.io.render import options_html, rich_text
from pastiche_core.solver.options import OPTION_NOTATION, PublishOption, make_option
from pastiche_core.solver.report import format_report

JEROME = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")


@given(positions(max_hand=7, max_masterpieces=6))
def test_every_solver_option_parses_back_from_its_text(position: Position) -> None:
    for card_level in (False, True):
        report = solve(position, card_level=card_level, max_options=200)
        for option in report.options:
            text = str(option)
            assert PublishOption.parse(text) == option, text
            assert eval(repr(option), {"PublishOption": PublishOption}) == option
            # Without the points, the catalogue supplies them.
            bare = text.rsplit(" for ", 1)[0]
            assert PublishOption.parse(bare, position.catalogue) == option


@given(positions(max_hand=6, max_masterpieces=5, catalogue=CUSTOM_CATALOGUE))
def test_options_of_a_custom_catalogue_parse_back(position: Position) -> None:
    for option in solve(position, max_options=100).options:
        assert PublishOption.parse(str(option)) == option


def test_the_text_reads_like_the_move() -> None:
    option = make_option(JEROME, "kind-5", [7, 7], [(0, 7), (1, 7), (1, 7)])
    assert str(option) == "publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points"
    assert option.gift_notation == "1:? 1:?"
    single = make_option(JEROME, "kind-3", [7, 7], [(0, 7)])
    assert str(single) == "publish kind-3 MYS7 FAN7 cite m1 for 1 point"


def test_gifts_to_several_players_group_by_seat() -> None:
    pos = Position.quick("MYS7 FAN7 SCI9 HOR9", table="m1=2:HOR7 m2=1:MYT7 m3=2:SCI7")
    option = make_option(pos, "kind-5", [7, 7], [(1, 7), (2, 7), (2, 7)])
    assert option.gifts == ((1, 1), (2, 2))
    assert option.gift_notation == "1:? 2:? 2:?"
    # Any order of the gift words reads as the same owed counts.
    assert PublishOption.parse(
        "publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 2:? 1:? 2:? for 6 points"
    ).gifts == ((2, 2), (1, 1))


def test_parse_is_case_insensitive_and_spacing_free() -> None:
    text = "  PUBLISH kind-3   mys7 CITE m1 m2 GIFT 1:?  FOR 1 POINTS "
    assert PublishOption.parse(text) == make_option(JEROME, "kind-3", [7], [(0, 7), (1, 7)])


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "an option starts with 'publish'"),
        ("draw", "an option starts with 'publish'"),
        ("publish for 1 point", "'publish' needs a novel id"),
        ("publish kind-3 MYS7 gift 1:SCI9 for 1 point", "gift '1:SCI9' names a card"),
        ("publish kind-3 MYS7 gift 7:? for 1 point", "seat '7' is not 0 to 4 (R10)"),
        ("publish kind-3 MYS7 gift 1 for 1 point", "gift '1' is not 'TO:?'"),
        ("publish kind-3 MYS7 cite m1", "the ending 'for N points' is missing"),
        ("publish kind-3 MYS7 for one points", "is not 'for N points'"),
        ("publish kind-3 LOV1 for 1 point", "LOVE STORY has ranks 2-8 (R1)"),
        ("publish kind-3 MYS7 gift 1:? cite m1 for 1 point", "'cite' must come before 'gift'"),
    ],
)
def test_bad_text_names_the_input_and_the_form(text: str, reason: str) -> None:
    with pytest.raises(InvalidNotationError) as caught:
        PublishOption.parse(text)
    message = str(caught.value)
    assert message.startswith(f"invalid publish option {text!r}: ")
    assert reason in message
    assert message.endswith(f"(expected {OPTION_NOTATION})")


def test_points_that_disagree_with_the_catalogue_are_refused() -> None:
    with pytest.raises(InvalidNotationError, match="kind-5 is worth 6 points"):
        PublishOption.parse("publish kind-5 MYS7 FAN7 for 2 points", JEROME.catalogue)


def test_non_strings_and_huge_text_are_refused() -> None:
    for value in (None, 7, "publish " + "MYS7 " * 2000):
        with pytest.raises(InvalidNotationError, match="expected a string of at most"):
            PublishOption.parse(value)  # type: ignore[arg-type]


def test_a_move_with_an_unchosen_gift_points_to_the_option_parser() -> None:
    with pytest.raises(InvalidNotationError, match=r"PublishOption\.parse reads it"):
        Move.parse("publish kind-3 MYS7 cite 1:kind-3 gift 1:?")


def test_table_paragraphs_html_and_rich_use_the_notation() -> None:
    report = solve(JEROME)
    table = format_report(report)
    assert "1:? 1:?" in table
    assert " to p1" not in table
    assert "1:? a card owed to player 1, chosen when the option is played (R5)" in table
    narrow = format_report(report, width=40)
    assert "publish kind-5 MYS7 FAN7 cite m1 m2 m3" in narrow
    html = options_html(report)
    assert ">1:? 1:?<" in html
    assert "to player" not in html
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(report)
    assert "1:? 1:?" in out.getvalue()
    assert "→P" not in out.getvalue()
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(rich_text(report.options[-1]))
    assert " ".join(out.getvalue().split()) == str(report.options[-1])
