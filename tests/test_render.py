"""SVG, HTML and rich rendering: structure of a midgame picture, escaping, lazy rich."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from builders import build_game

from pastiche_core import Card, Game, Genre, Phase, Position, parse_cards, solve
from pastiche_core.engine.game_internals import insides
from pastiche_core.io.render import (
    PALETTE,
    cards_svg,
    game_html,
    game_svg,
    options_html,
    position_svg,
    print_rich,
    rich_text,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"

SVG = "{http://www.w3.org/2000/svg}"


def midgame(seed: int, players: int = 4, novels: int = 3) -> Game:
    """Random legal play from a fixed seed until ``novels`` novels are on the table."""
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and sum(len(game.table(p)) for p in range(players)) < novels:
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    assert sum(len(game.table(p)) for p in range(players)) >= novels
    return game


def shown_cards(game: Game) -> Counter[str]:
    """The face-up cards a full picture of ``game`` shows: hands, table, flag, discard top."""
    shown: Counter[str] = Counter()
    for p in range(game.players):
        shown.update(str(c) for c in game.hand(p))
        for novel in game.table(p):
            shown.update(str(c) for c in novel.cards)
    if game._flag is not None:
        shown[str(game._flag[1])] += 1
    if game.discard and not insides(game).is_face_down(game.discard[-1]):
        shown[str(game.discard[-1])] += 1
    if game._pending is not None:
        shown.update(str(c) for c in game._pending)
    return shown


def card_elements(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "data-card" in el.attrib]


def card_text(el: ET.Element) -> str:
    texts = [t.text for t in el.iter(f"{SVG}text")]
    assert len(texts) == 1
    return texts[0] or ""


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5])
def test_game_svg_structure(seed: int) -> None:
    game = midgame(seed)
    root = ET.fromstring(game_svg(game))
    assert root.tag == f"{SVG}svg"
    cards = card_elements(root)
    assert Counter(el.attrib["data-card"] for el in cards) == shown_cards(game)
    for el in cards:
        card = Card.parse(el.attrib["data-card"])
        assert card_text(el) == str(card)
        assert el.attrib["data-genre"] == card.genre.code
        rect = el.find(f"{SVG}rect")
        assert rect is not None
        assert rect.attrib["fill"] == PALETTE[card.genre].fill

    groups = root.findall(f".//{SVG}g[@class='player']")
    assert [g.attrib["data-player"] for g in groups] == [str(p) for p in range(game.players)]
    for p, group in enumerate(groups):
        assert group.attrib["data-score"] == str(game.scores()[p])
        assert group.attrib["data-hand-size"] == str(len(game.hand(p)))
        facts = group.find(f".//{SVG}text[@class='player-facts']")
        assert facts is not None
        assert f"{len(game.hand(p))} card" in (facts.text or "")
        assert f"{game.scores()[p]} point" in (facts.text or "")
        hands = group.findall(f".//{SVG}g[@class='hand']")
        assert len(hands) == 1
        assert hands[0].attrib["data-player"] == str(p)
        assert [el.attrib["data-card"] for el in card_elements(hands[0])] == [
            str(c) for c in game.hand(p)
        ]
        novels = group.findall(f".//{SVG}g[@class='novel']")
        table = game.table(p)
        assert [n.attrib["data-novel"] for n in novels] == [t.novel for t in table]
        for element, novel in zip(novels, table, strict=True):
            assert element.attrib["data-status"] == novel.status
            assert element.attrib["data-owner"] == str(p)
            assert [el.attrib["data-card"] for el in card_elements(element)] == [
                str(c) for c in novel.cards
            ]
    statuses = {n.attrib["data-status"] for n in root.iter() if "data-status" in n.attrib}
    assert statuses <= {"published", "masterpiece"}


def test_midgame_has_both_statuses_somewhere() -> None:
    statuses = set()
    for seed in range(6):
        root = ET.fromstring(game_svg(midgame(seed)))
        statuses |= {n.attrib["data-status"] for n in root.iter() if "data-status" in n.attrib}
    assert statuses == {"published", "masterpiece"}


def test_game_svg_flag_pending_and_hidden_hands() -> None:
    game = build_game(
        3,
        hands={0: "SCI9 HOR7", 1: "MYT1", 2: ""},
        tables={0: {"kind-3": "SCI7"}, 1: {"pairs-3": "LOV2 LOV3 LOV4 LOV5 LOV6 LOV7"}},
        flag=(1, "MAG13"),
        trigger=1,
        turns_left=3,
        discard="FAN7 MYS7",
        face_down="MYS7",
        pending="MYT2 MYT3",
        phase=Phase.CHOOSE,
        to_move=2,
        leftover=2,
    )
    root = ET.fromstring(game_svg(game))
    assert Counter(el.attrib["data-card"] for el in card_elements(root)) == shown_cards(game)
    flag = root.find(f".//{SVG}g[@data-player='1'][@class='player']//{SVG}g[@class='flag']")
    assert flag is not None
    assert [el.attrib["data-card"] for el in card_elements(flag)] == ["MAG13"]
    assert root.find(f".//{SVG}g[@class='card-back']") is not None  # face-down discard top
    hidden = ET.fromstring(game_svg(game, hands=False))
    shown = Counter(el.attrib["data-card"] for el in card_elements(hidden))
    assert shown == shown_cards(game) - Counter(
        [str(c) for p in range(3) for c in game.hand(p)] + ["MYT2", "MYT3"]
    )
    backs = hidden.findall(f".//{SVG}g[@class='hand']/{SVG}g[@class='card-back']")
    assert len(backs) == sum(len(game.hand(p)) for p in range(3))


class Collector(HTMLParser):
    """Records every start tag and its attributes, and checks tags are balanced."""

    VOID = frozenset({"rect", "br", "img", "meta"})

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, tag
        assert self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_html(page: str) -> Collector:
    parser = Collector()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    return parser


def test_game_html() -> None:
    game = midgame(0)
    parsed = parse_html(game_html(game))
    cards = Counter(a["data-card"] for _, a in parsed.tags if "data-card" in a)
    assert cards == shown_cards(game)
    rows = [a["data-player"] for tag, a in parsed.tags if tag == "tr" and "data-player" in a]
    assert rows == [str(p) for p in range(game.players)]
    players = [a["data-player"] for tag, a in parsed.tags if a.get("class") == "player"]
    assert players == [str(p) for p in range(game.players)]


def test_options_html_report() -> None:
    pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    report = solve(pos)
    parsed = parse_html(options_html(report))
    rows = [a["data-novel"] for tag, a in parsed.tags if tag == "tr" and "data-novel" in a]
    assert rows == [o.novel for o in report.options]
    cards = Counter(a["data-card"] for _, a in parsed.tags if "data-card" in a)
    expected = Counter(str(c) for o in report.options for c in o.played)
    expected.update(str(pos.masterpiece(i).card) for o in report.options for i in o.cited)
    assert cards == expected
    assert "★" in "".join(parsed.text)
    plain = parse_html(options_html(list(report.options)))
    assert Counter(a["data-card"] for _, a in plain.tags if "data-card" in a) == Counter(
        str(c) for o in report.options for c in o.played
    )


def test_position_svg() -> None:
    pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7", held="kind-3")
    root = ET.fromstring(position_svg(pos))
    hand = root.find(f".//{SVG}g[@class='hand']")
    assert hand is not None
    assert [el.attrib["data-card"] for el in card_elements(hand)] == [str(c) for c in pos.hand]
    tiles = root.findall(f".//{SVG}g[@class='masterpiece']")
    assert [(t.attrib["data-masterpiece"], t.attrib["data-owner"]) for t in tiles] == [
        ("m1", "0"),
        ("m2", "1"),
    ]
    assert [card_elements(t)[0].attrib["data-card"] for t in tiles] == ["SCI7", "HOR7"]
    held = root.find(f".//{SVG}text[@class='held']")
    assert held is not None
    assert held.text == "kind-3"


def test_cards_svg_keeps_order_and_palette_is_distinct() -> None:
    cards = parse_cards("MAG13 MYT1 SCI9")
    root = ET.fromstring(cards_svg(cards))
    assert [el.attrib["data-card"] for el in card_elements(root)] == ["MAG13", "MYT1", "SCI9"]
    assert ET.fromstring(cards_svg([])).tag == f"{SVG}svg"
    assert list(PALETTE) == list(Genre)
    assert len({swatch.fill for swatch in PALETTE.values()}) == len(Genre)


NASTY = "x<&>\"'y"


def test_escaping() -> None:
    pos = Position.quick("SCI9", table=f"{NASTY}=1:HOR7")
    svg = position_svg(pos)
    root = ET.fromstring(svg)  # well-formed despite the markup characters
    tile = root.find(f".//{SVG}g[@class='masterpiece']")
    assert tile is not None
    assert tile.attrib["data-masterpiece"] == NASTY
    assert any(NASTY in (t.text or "") for t in root.iter(f"{SVG}text"))
    assert "<&>" not in svg

    option = solve(Position.quick("SCI7 HOR7 MAG9", table=f"{NASTY}=1:MYS7")).options[0]
    assert option.cited == (NASTY,)
    page = options_html([option])
    parsed = parse_html(page)
    assert NASTY in "".join(parsed.text)
    assert "<&>" not in page


def record(obj: object, width: int = 120) -> str:
    from rich.console import Console

    console = Console(record=True, width=width, color_system="truecolor", file=io.StringIO())
    print_rich(obj, console=console)
    return console.export_text()


def test_rich_game_and_position() -> None:
    game = midgame(1)
    text = record(game)
    for notation in shown_cards(game):
        assert notation in text
    for p in range(game.players):
        for novel in game.table(p):
            assert novel.novel in text
    pos = game.position()
    text = record(pos)
    for card in pos.hand:
        assert str(card) in text
    for mp in pos.masterpieces:
        assert mp.id in text
        assert str(mp.card) in text


def test_rich_options_and_colours() -> None:
    from rich.console import Console
    from rich.text import Text

    pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    report = solve(pos)
    text = record(report, width=160)
    for option in report.options:
        for card in option.played:
            assert str(card) in text
    assert record(list(report.options), width=160).count("kind-") == sum(
        o.novel.startswith("kind-") for o in report.options
    )
    chip = rich_text(Card.parse("SCI9"))
    assert isinstance(chip, Text)
    assert chip.plain.strip() == "SCI9"
    console = Console(record=True, width=40, color_system="truecolor", file=io.StringIO())
    console.print(chip)
    assert "48;2;30;111;194" in console.export_text(styles=True)  # the SCI fill, #1e6fc2
    markup = solve(Position.quick("SCI7 HOR7 MAG9", table="[bold]=1:MYS7")).options
    assert "[bold]" in record(list(markup), width=160)  # ids are text, never markup
    with pytest.raises(TypeError):
        rich_text("SCI9")


def test_importing_does_not_import_rich() -> None:
    code = (
        "import sys, pastiche_core, pastiche_core.io.render as r\n"
        "from pastiche_core import Game, Position, parse_cards, solve\n"
        "g = Game(players=3, seed=1)\n"
        "r.game_svg(g); r.game_html(g); r.cards_svg(parse_cards('SCI9'))\n"
        "p = Position.quick('SCI7 HOR7 MYS7')\n"
        "r.position_svg(p); r.options_html(solve(p))\n"
        "assert 'rich' not in sys.modules, sorted(m for m in sys.modules if 'rich' in m)\n"
        "r.rich_text(g)\n"
        "assert 'rich' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", ["midgame", "lategame", "jerome"])
def test_rich_report_reads_well_at_80_columns(name: str) -> None:
    from pastiche_core.io import load_query

    position, constraints = load_query(EXAMPLES / f"{name}.json")
    report = solve(position, constraints=constraints)
    text = record(report, width=80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = [line for line in lines if line.split() and line.split()[0] in report.counts]
    assert len(rows) == len(report.options), "every option has a row with its whole Novel id"
    for row, option in zip(rows, report.options, strict=True):
        cells = row.split()
        assert cells[0] == option.novel
        assert cells[1] == str(option.points)
        assert f"{option.played_count},{option.gift_count}" in cells
        assert row.rstrip().endswith("★") == (option.costs in report.pareto[option.novel])
