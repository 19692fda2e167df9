"""Pictures of cards, positions, games and publish options: SVG, HTML and rich.

Every picture colours cards by genre with one palette, :data:`PALETTE`. The SVG
and HTML are self-contained (no stylesheet, font or image to fetch) and carry
data attributes for tools and tests: each card has ``data-card="SCI9"``, each
player of a game is a ``<g class="player" data-player="2">`` group holding that
player's hand and novels, and each novel has ``data-novel`` and
``data-status="published"`` or ``"masterpiece"``.

The terminal renderables (:func:`rich_text`, :func:`print_rich`) import rich
only when called, so importing this module does not import rich.

>>> from pastiche_core import parse_cards
>>> svg = cards_svg(parse_cards("SCI9 HOR7"))
>>> svg.startswith("<svg"), svg.count("data-card=")
(True, 2)
>>> PALETTE[Genre.SCIENCE_FICTION].fill
'#1e6fc2'
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from ..data.cards import Card, Genre
from ..engine.game_internals import insides
from ..engine.table import TableNovel
from ..solver.options import PublishOption
from ..solver.position import Position
from ..solver.report import PublishReport

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text

    from ..engine.game import Game

__all__ = [
    "PALETTE",
    "Swatch",
    "cards_svg",
    "game_html",
    "game_svg",
    "options_html",
    "position_svg",
    "print_rich",
    "rich_text",
]


class Swatch(NamedTuple):
    """The colours of one genre: card ``fill``, text ``ink`` and card ``edge``."""

    fill: str
    """The card's background colour, a CSS hex colour such as ``'#1e6fc2'``."""
    ink: str
    """The colour of the card's text, drawn on ``fill``."""
    edge: str
    """The colour of the card's border, a darker shade of ``fill``."""


PALETTE: MappingProxyType[Genre, Swatch] = MappingProxyType(
    {
        Genre.MYTHOLOGY: Swatch("#8a5a2b", "#ffffff", "#5c3b1a"),
        Genre.LOVE_STORY: Swatch("#d6336c", "#ffffff", "#9c1f4b"),
        Genre.SCIENCE_FICTION: Swatch("#1e6fc2", "#ffffff", "#134a85"),
        Genre.HORROR: Swatch("#3b3b3b", "#ffffff", "#111111"),
        Genre.MYSTERY: Swatch("#6f42c1", "#ffffff", "#4a2a85"),
        Genre.FANTASY: Swatch("#2f8f46", "#ffffff", "#1d5e2d"),
        Genre.MAGIC_REALISM: Swatch("#f0a020", "#1a1a1a", "#b0730f"),
    }
)
"""Genre colours, in rulebook order: brown, rose, blue, charcoal, purple, green, amber."""

# ----------------------------------------------------------------------
# Geometry and shared SVG pieces
# ----------------------------------------------------------------------
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_CARD_W = 56
_CARD_H = 30
_GAP = 5
_MARGIN = 12
_WIDTH = 780
_MUTED = "#5f5f5f"
_PANEL = "#f6f4ee"
_GOLD = "#c9a227"


def _esc(text: object) -> str:
    """Text or attribute value escaped for XML and HTML (quotes included)."""
    return html.escape(str(text), quote=True)


def _text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` in the sans-serif font."""
    return len(text) * size * (0.66 if bold else 0.6)


@dataclass(frozen=True, slots=True)
class _Box:
    """An SVG fragment drawn from the origin, with its size."""

    svg: str
    width: float
    height: float


def _num(value: float) -> str:
    return f"{value:g}"


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    bold: bool = False,
    fill: str = "#1a1a1a",
    anchor: str = "start",
    cls: str = "",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text{klass} x="{_num(x)}" y="{_num(y)}" font-family="{_FONT}" '
        f'font-size="{_num(size)}"{weight} fill="{fill}" text-anchor="{anchor}">'
        f"{_esc(text)}</text>"
    )


def _card(card: Card, x: float = 0, y: float = 0, cls: str = "card") -> str:
    swatch = PALETTE[card.genre]
    notation = _esc(card.notation)
    return (
        f'<g class="{cls}" data-card="{notation}" data-genre="{card.genre.code}" '
        f'transform="translate({_num(x)},{_num(y)})">'
        f'<rect width="{_CARD_W}" height="{_CARD_H}" rx="5" ry="5" fill="{swatch.fill}" '
        f'stroke="{swatch.edge}" stroke-width="1.5"/>'
        + _text(_CARD_W / 2, _CARD_H / 2 + 4.5, card.notation, size=12, bold=True,
                fill=swatch.ink, anchor="middle")
        + "</g>"
    )  # fmt: skip


def _card_back(x: float = 0, y: float = 0) -> str:
    return (
        f'<g class="card-back" transform="translate({_num(x)},{_num(y)})">'
        f'<rect width="{_CARD_W}" height="{_CARD_H}" rx="5" ry="5" fill="#9a9a9a" '
        f'stroke="#6a6a6a" stroke-width="1.5"/>'
        + _text(_CARD_W / 2, _CARD_H / 2 + 4.5, "?", size=13, bold=True, fill="#ffffff",
                anchor="middle")
        + "</g>"
    )  # fmt: skip


def _flow(
    sizes: Sequence[tuple[float, float]], max_width: float, gap: float = _GAP
) -> tuple[list[tuple[float, float]], float, float]:
    """Place boxes left to right, wrapping at ``max_width``: positions, width, height."""
    places: list[tuple[float, float]] = []
    x = y = row_height = used = 0.0
    for width, height in sizes:
        if x > 0 and x + width > max_width:
            x, y, row_height = 0.0, y + row_height + gap, 0.0
        places.append((x, y))
        x += width + gap
        row_height = max(row_height, height)
        used = max(used, x - gap)
    return places, used, (y + row_height if sizes else 0.0)


def _card_row(cards: Iterable[Card], max_width: float, cls: str = "card") -> _Box:
    items = list(cards)
    places, width, height = _flow([(_CARD_W, _CARD_H)] * len(items), max_width)
    svg = "".join(_card(card, x, y, cls) for card, (x, y) in zip(items, places, strict=True))
    return _Box(svg, width, height)


def _place(box: _Box, x: float, y: float, attrs: str = "") -> str:
    return f'<g{attrs} transform="translate({_num(x)},{_num(y)})">{box.svg}</g>'


def _document(body: str, width: float, height: float, title: str) -> str:
    width, height = round(width), round(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">'
        f"<title>{_esc(title)}</title>"
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>{body}</svg>'
    )


def _novel_box(novel: TableNovel, points: int | None, max_width: float) -> _Box:
    """A novel: its id, points and status above its cards, framed by status."""
    pad = 6
    label = novel.novel if points is None else f"{novel.novel} · {points} pt"
    badge = "★ masterpiece" if novel.masterpiece else "published"
    cards = _card_row(novel.cards, max_width - 2 * pad)
    label_width = _text_width(label, 12, bold=True) + 8 + _text_width(badge, 10.5)
    width = max(cards.width, label_width) + 2 * pad
    height = 20 + cards.height + pad
    frame, stroke = ("#fff8e1", _GOLD) if novel.masterpiece else ("#ffffff", "#b5b5b5")
    body = (
        f'<rect width="{_num(width)}" height="{_num(height)}" rx="7" ry="7" fill="{frame}" '
        f'stroke="{stroke}" stroke-width="{2.5 if novel.masterpiece else 1.2}"/>'
        + _text(pad, 14, label, bold=True)
        + _text(width - pad, 14, badge, size=10.5, fill=_MUTED, anchor="end", cls="status")
        + _place(cards, pad, 20)
    )  # fmt: skip
    return _Box(body, width, height)


# ----------------------------------------------------------------------
# SVG
# ----------------------------------------------------------------------
def cards_svg(cards: Iterable[Card]) -> str:
    """An SVG row of cards (a hand, a single card in a list, a novel's cards), in the order given.

    >>> from pastiche_core import Card, parse_cards
    >>> svg = cards_svg([Card.parse("MAG13")])
    >>> 'data-card="MAG13"' in svg and PALETTE[Genre.MAGIC_REALISM].fill in svg
    True
    >>> cards_svg(parse_cards("SCI9 HOR7 MYS7")).count('class="card"')
    3
    """
    items = list(cards)
    row = _card_row(items, _WIDTH - 2 * _MARGIN)
    width = max(row.width, _CARD_W) + 2 * 4
    height = max(row.height, _CARD_H) + 2 * 4
    title = " ".join(card.notation for card in items) or "no cards"
    return _document(_place(row, 4, 4, ' class="cards"'), width, height, title)


def position_svg(position: Position) -> str:
    """An SVG of a publish position: the hand, the Masterpieces on the table, the held Novels.

    Each Masterpiece is a ``<g class="masterpiece" data-masterpiece=ID data-owner=SEAT>``
    holding its card.

    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7")
    >>> svg = position_svg(pos)
    >>> svg.count("data-card="), 'data-masterpiece="m2" data-owner="1"' in svg
    (6, True)
    """
    inner = _WIDTH - 2 * _MARGIN
    parts: list[str] = []
    y = 22.0
    parts.append(
        _text(_MARGIN, y, f"Player {position.player} to publish", size=15, bold=True, cls="title")
    )
    y += 14
    parts.append(_text(_MARGIN, y + 19, f"Hand ({len(position.hand)})", bold=True))
    hand = _card_row(position.hand, inner - 112)
    parts.append(_place(hand, _MARGIN + 112, y, f' class="hand" data-player="{position.player}"'))
    y += max(hand.height, _CARD_H) + 14
    parts.append(_text(_MARGIN, y + 11, "Masterpieces", bold=True))
    tiles: list[_Box] = []
    for mp in position.masterpieces:
        label = f"{mp.id} · P{mp.owner}"
        width = max(_CARD_W, _text_width(label, 11))
        svg = _text(width / 2, 11, label, size=11, fill=_MUTED, anchor="middle") + _card(
            mp.card, (width - _CARD_W) / 2, 16
        )
        tiles.append(_Box(svg, width, 16 + _CARD_H))
    places, _, height = _flow([(t.width, t.height) for t in tiles], inner - 112, 10)
    table = "".join(
        _place(
            tile,
            x,
            ty,
            f' class="masterpiece" data-masterpiece="{_esc(mp.id)}" data-owner="{mp.owner}"',
        )
        for tile, mp, (x, ty) in zip(tiles, position.masterpieces, places, strict=True)
    )
    if not tiles:
        table = _text(0, 12, "none on the table", fill=_MUTED)
        height = 16
    parts.append(f'<g class="table" transform="translate({_MARGIN + 112},{_num(y)})">{table}</g>')
    y += height + 20
    held = ", ".join(sorted(position.held_novels)) or "none"
    parts.append(_text(_MARGIN, y, "Holds", bold=True))
    parts.append(_text(_MARGIN + 112, y, held, fill=_MUTED, cls="held"))
    y += 12
    return _document("".join(parts), _WIDTH, y, f"Publish position of player {position.player}")


def _player_panel(game: Game, player: int, width: float, *, hands: bool) -> _Box:
    inside = insides(game)
    pad = 10
    label_col = 62
    inner = width - 2 * pad - label_col
    to_move = game.to_move == player and not game.is_over
    hand = game.hand(player)
    title = f"Player {player}"
    score = game.scores()[player]
    facts = f"{score} point{'' if score == 1 else 's'} · {len(hand)} card{'' if len(hand) == 1 else 's'} in hand"
    if to_move:
        facts += f" · to move ({game.phase.value})"
    parts = [
        _text(pad, 20, title, size=14.5, bold=True, cls="player-name"),
        _text(pad + _text_width(title, 14.5, bold=True) + 10, 20, facts, size=12, fill=_MUTED,
              cls="player-facts"),
    ]  # fmt: skip
    y = 32.0
    parts.append(_text(pad, y + 19, "Hand", size=11, bold=True, fill=_MUTED))
    if hands:
        row = _card_row(hand, inner)
        if not hand:
            row = _Box(_text(0, 19, "empty", size=11, fill=_MUTED), 0, _CARD_H)
    else:
        places, w, h = _flow([(_CARD_W, _CARD_H)] * len(hand), inner)
        row = _Box("".join(_card_back(x, yy) for x, yy in places), w, max(h, _CARD_H))
    parts.append(_place(row, pad + label_col, y, f' class="hand" data-player="{player}"'))
    y += max(row.height, _CARD_H) + 10
    parts.append(_text(pad, y + 19, "Table", size=11, bold=True, fill=_MUTED))
    novels = game.table(player)
    boxes = [_novel_box(n, game.catalogue[n.novel].points, inner) for n in novels]
    extra: list[_Box] = []
    if inside.flag is not None and inside.flag[0] == player:
        flag_points = game.catalogue.end_flag.points
        label = f"End Flag · {flag_points} pt"
        w = max(_CARD_W, _text_width(label, 12, bold=True)) + 12
        flag_svg = (
            f'<rect width="{_num(w)}" height="{20 + _CARD_H + 6}" rx="7" ry="7" fill="#eef4ff" '
            f'stroke="#5b7fb8" stroke-width="1.5"/>'
            + _text(6, 14, label, bold=True)
            + _card(inside.flag[1], 6, 20, "card flag-card")
        )  # fmt: skip
        extra.append(_Box(flag_svg, w, 20 + _CARD_H + 6))
    places, _, height = _flow([(b.width, b.height) for b in [*boxes, *extra]], inner, 8)
    shown: list[str] = []
    for novel, box, (x, ny) in zip(novels, boxes, places, strict=False):
        attrs = (
            f' class="novel" data-novel="{_esc(novel.novel)}" data-owner="{player}"'
            f' data-status="{novel.status}"'
        )
        shown.append(_place(box, x, ny, attrs))
    for box, (x, ny) in zip(extra, places[len(boxes) :], strict=True):
        shown.append(_place(box, x, ny, f' class="flag" data-player="{player}"'))
    if not shown:
        shown.append(_text(0, 19, "no novels", size=11, fill=_MUTED))
        height = _CARD_H
    parts.append(f'<g class="novels" transform="translate({pad + label_col},{_num(y)})">')
    parts.extend(shown)
    parts.append("</g>")
    y += height + pad
    stroke = ' stroke="#2f6fd0" stroke-width="2.5"' if to_move else ' stroke="#d4d0c4"'
    frame = (
        f'<rect width="{_num(width)}" height="{_num(y)}" rx="9" ry="9" fill="{_PANEL}"{stroke}/>'
    )
    return _Box(frame + "".join(parts), width, y)


def game_svg(game: Game, *, hands: bool = True) -> str:
    """An SVG of a whole game state: one panel per player with hand, score and novels.

    Each player is a ``<g class="player" data-player=SEAT data-score=... data-hand-size=...>``
    group; each of its novels a ``<g class="novel" data-novel=ID data-status=...>`` group.
    With ``hands=False`` the hands are drawn face down (sizes only). The header
    shows the turn, the decision, the deck, the discard pile's top card and the
    two cards drawn by Write ① while a player chooses.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> svg = game_svg(game)
    >>> svg.count('class="player"'), svg.count("data-card=") == sum(len(game.hand(p)) for p in range(3))
    (3, True)
    >>> "data-card" in game_svg(game, hands=False)
    False
    """
    inside = insides(game)
    inner = _WIDTH - 2 * _MARGIN
    parts: list[str] = []
    if game.is_over:
        status = f"game over ({inside.end_reason}) · winners: " + ", ".join(
            f"player {p}" for p in game.winners()
        )
    else:
        status = f"{game.phase.value}: player {game.to_move} to move"
    parts.append(
        _text(_MARGIN, 24, f"Pastiche · {game.players} players · turn {game.turn}", size=16,
              bold=True, cls="title")
    )  # fmt: skip
    parts.append(_text(_MARGIN, 44, status, size=12.5, cls="status"))
    line = f"deck {game.deck_size} · discard {len(game.discard)}"
    parts.append(_text(_MARGIN, 64, line, size=12.5, fill=_MUTED))
    x = _MARGIN + len(line) * 12.5 * 0.55 + 12
    header_cards: list[str] = []
    if game.discard:
        top = game.discard[-1]
        parts.append(_text(x, 64, "top:", size=12.5, fill=_MUTED))
        x += 34
        if inside.is_face_down(top):
            header_cards.append(_card_back(x, 45))
        else:
            header_cards.append(_card(top, x, 45, "card discard-top"))
        x += _CARD_W + 16
    if inside.pending is not None and hands:
        parts.append(_text(x, 64, f"drawn by player {game.to_move}:", size=12.5, fill=_MUTED))
        x += _text_width(f"drawn by player {game.to_move}:", 12.5) + 6
        for card in inside.pending:
            header_cards.append(_card(card, x, 45, "card pending"))
            x += _CARD_W + _GAP
    parts.extend(header_cards)
    y = 45 + _CARD_H + 12.0
    for player in range(game.players):
        panel = _player_panel(game, player, inner, hands=hands)
        attrs = (
            f' class="player" data-player="{player}" data-score="{game.scores()[player]}"'
            f' data-hand-size="{len(game.hand(player))}"'
        )
        parts.append(_place(panel, _MARGIN, y, attrs))
        y += panel.height + 10
    title = f"Pastiche game, {game.players} players, turn {game.turn}, {status}"
    return _document("".join(parts), _WIDTH, y + _MARGIN - 10, title)


# ----------------------------------------------------------------------
# HTML
# ----------------------------------------------------------------------
def _card_html(card: Card) -> str:
    swatch = PALETTE[card.genre]
    return (
        f'<span class="card" data-card="{_esc(card.notation)}" style="display:inline-block;'
        f"padding:1px 6px;margin:1px 2px;border-radius:4px;border:1px solid {swatch.edge};"
        f'background:{swatch.fill};color:{swatch.ink};font:bold 12px {_FONT}">'
        f"{_esc(card.notation)}</span>"
    )


_CELL = 'style="padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top"'


def options_html(options: PublishReport | Iterable[PublishOption]) -> str:
    """An HTML table of publish options, one row each; with a report, a caption and Pareto marks.

    Given a :class:`~pastiche_core.solver.queries.PublishReport`, cited Masterpieces are
    shown as their cards with their owners, and options on their Novel's Pareto
    front (R9) are marked ★.

    >>> from pastiche_core import Position, solve
    >>> report = solve(Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7"))
    >>> page = options_html(report)
    >>> page.count("<tr data-novel="), 'data-card="MYS7"' in page
    (3, True)
    >>> options_html([])
    '<div class="pastiche-options"><p>No publish option.</p></div>'
    """
    if isinstance(options, PublishReport):
        report: PublishReport | None = options
        items = list(options.options)
    else:
        report, items = None, list(options)
    parts = ['<div class="pastiche-options">']
    if report is not None:
        state = "complete" if report.complete else f"stopped by {report.stopped_by}"
        parts.append(
            f'<p style="font:bold 13px {_FONT};margin:4px 0">Player {report.position.player}: '
            f"{len(items)} option(s) over {len(report.pareto)} novel(s), "
            f"{_esc(report.engine)} engine, {state}</p>"
        )
    if not items:
        parts.append("<p>No publish option.</p></div>")
        return "".join(parts)
    heads = ["Novel", "Points", "Played", "Cited", "Gifts", "Cost (played, gifts)"]
    if report is not None:
        heads.append("Pareto")
    parts.append(f'<table style="border-collapse:collapse;font:13px {_FONT}"><thead><tr>')
    parts.extend(f"<th {_CELL}>{_esc(h)}</th>" for h in heads)
    parts.append("</tr></thead><tbody>")
    for option in items:
        cells = [
            _esc(option.novel),
            str(option.points),
            "".join(_card_html(c) for c in option.played),
            _cited_html(option, report),
            _esc(option.gift_notation) or "none",
            f"{option.played_count}, {option.gift_count}",
        ]
        if report is not None:
            front = report.pareto.get(option.novel, ())
            cells.append("★" if option.costs in front else "")
        parts.append(f'<tr data-novel="{_esc(option.novel)}">')
        parts.extend(f"<td {_CELL}>{cell}</td>" for cell in cells)
        parts.append("</tr>")
    parts.append("</tbody></table></div>")
    return "".join(parts)


def _cited_html(option: PublishOption, report: PublishReport | None) -> str:
    if not option.cited:
        return "none"
    out = []
    for ident in option.cited:
        try:
            mp = report.position.masterpiece(ident) if report is not None else None
        except KeyError:
            mp = None
        if mp is None:
            out.append(f'<span class="cited">{_esc(ident)}</span>')
        else:
            out.append(
                f'<span class="cited" data-masterpiece="{_esc(ident)}" title="{_esc(ident)}">'
                f"{_card_html(mp.card)}<small>P{mp.owner}</small></span>"
            )
    return " ".join(out)


def game_html(game: Game, *, hands: bool = True) -> str:
    """HTML for a game: a score table followed by the :func:`game_svg` picture, inline.

    >>> from pastiche_core import Game
    >>> page = game_html(Game(players=3, seed=7))
    >>> page.startswith('<div class="pastiche-game">'), page.count("<svg")
    (True, 1)
    """
    inside = insides(game)
    rows = []
    for p in range(game.players):
        marker = " ◀" if game.to_move == p and not game.is_over else ""
        cells = [
            f"Player {p}{marker}",
            str(game.scores()[p]),
            str(len(game.hand(p))),
            str(inside.masterpiece_count(p)),
            str(len(game.table(p)) - inside.masterpiece_count(p)),
        ]
        rows.append(
            f'<tr data-player="{p}">' + "".join(f"<td {_CELL}>{_esc(c)}</td>" for c in cells)
            + "</tr>"
        )  # fmt: skip
    heads = ["Player", "Score", "Hand", "Masterpieces", "Published"]
    return (
        '<div class="pastiche-game">'
        f'<table class="scores" style="border-collapse:collapse;font:13px {_FONT};'
        'margin-bottom:6px"><thead><tr>'
        + "".join(f"<th {_CELL}>{h}</th>" for h in heads)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
        + game_svg(game, hands=hands)
        + "</div>"
    )  # fmt: skip


# ----------------------------------------------------------------------
# rich
# ----------------------------------------------------------------------
def _rich_card(card: Card, *, pad: bool = True) -> Text:
    from rich.text import Text

    swatch = PALETTE[card.genre]
    text = f" {card.notation} " if pad else card.notation
    return Text(text, style=f"bold {swatch.ink} on {swatch.fill}")


def _rich_cards(cards: Iterable[Card], *, pad: bool = True) -> Text:
    from rich.text import Text

    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        text.append_text(_rich_card(card, pad=pad))
    return text


def _rich_novel(novel: TableNovel) -> Text:
    from rich.text import Text

    mark = "★ " if novel.masterpiece else ""
    text = Text(f"{mark}{novel.novel}: ", style="bold yellow" if novel.masterpiece else "bold")
    text.append_text(_rich_cards(novel.cards))
    return text


def _rich_option(option: PublishOption) -> Text:
    from rich.text import Text

    # The option's notation (str(option)), its cards coloured.
    text = Text("publish ", style="dim")
    text.append(f"{option.novel} ", style="bold")
    text.append_text(_rich_cards(option.played))
    if option.cited:
        text.append(" cite " + " ".join(option.cited))
    if option.gifts:
        text.append(" gift " + option.gift_notation)
    text.append(f" for {option.points} point{'' if option.points == 1 else 's'}", style="dim")
    return text


def _rich_options(options: Sequence[PublishOption], report: PublishReport | None) -> RenderableType:
    """The options as a compact table that reads well at 80 columns.

    The Novel, points, costs and Pareto mark never wrap; the cards played and
    cited wrap onto more lines when the terminal is narrow.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    title = None
    if report is not None:
        state = "complete" if report.complete else f"stopped by {report.stopped_by}"
        shown = f"{len(options):,}"
        if report.total > len(options):
            shown += f" of {report.total:,}"
        title = f"Player {report.position.player}: {shown} options, {report.engine} engine, {state}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    novel_width = max((len(option.novel) for option in options), default=5)
    table.add_column("Novel", no_wrap=True, min_width=max(novel_width, 5))
    table.add_column("Pts", justify="right", no_wrap=True)
    table.add_column("Played", overflow="fold", ratio=3)
    table.add_column("Cited", overflow="fold", ratio=3)
    table.add_column("Gifts", no_wrap=True)
    table.add_column("Cost", justify="right", no_wrap=True)
    if report is not None:
        table.add_column("★", no_wrap=True)
    for option in options:
        cited = Text()
        for index, ident in enumerate(option.cited):
            if index:
                cited.append(" ")
            try:
                mp = report.position.masterpiece(ident) if report is not None else None
            except KeyError:
                mp = None
            if mp is None:
                cited.append(ident)
            else:
                cited.append(f"P{mp.owner}:", style="dim")
                cited.append_text(_rich_card(mp.card, pad=False))
        row: list[RenderableType] = [
            Text(option.novel, style="bold"),
            str(option.points),
            _rich_cards(option.played, pad=False),
            cited,
            Text(option.gift_notation or "-"),
            f"{option.played_count},{option.gift_count}",
        ]
        if report is not None:
            row.append("★" if option.costs in report.pareto.get(option.novel, ()) else "")
        table.add_row(*row)
    if report is not None:
        table.caption = (
            "Cost: cards played, gifts (R9); ★ on the Pareto front; "
            "Gifts 1:? a card owed to player 1 (R5)"
        )
        table.caption_justify = "left"
    return table


def _rich_position(position: Position) -> RenderableType:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    lines: list[RenderableType] = []
    hand = Text("Hand: ", style="bold")
    hand.append_text(_rich_cards(position.hand))
    lines.append(hand)
    table = Text("Masterpieces: ", style="bold")
    for index, mp in enumerate(position.masterpieces):
        if index:
            table.append("  ")
        table.append(f"{mp.id} (P{mp.owner}) ", style="dim")
        table.append_text(_rich_card(mp.card))
    if not position.masterpieces:
        table.append("none", style="dim")
    lines.append(table)
    held = Text("Holds: ", style="bold")
    held.append(", ".join(sorted(position.held_novels)) or "none")
    lines.append(held)
    return Panel(Group(*lines), title=f"Player {position.player} to publish", title_align="left")


def _rich_game(game: Game) -> RenderableType:
    inside = insides(game)
    from rich.table import Table
    from rich.text import Text

    if game.is_over:
        status = f"over ({inside.end_reason}), winners {', '.join(map(str, game.winners()))}"
    else:
        status = f"{game.phase.value}: player {game.to_move} to move"
    top = game.discard[-1] if game.discard else None
    caption = Text(f"deck {game.deck_size}, discard {len(game.discard)}")
    if top is not None:
        caption.append(", top ")
        if inside.is_face_down(top):
            caption.append("face down")
        else:
            caption.append_text(_rich_card(top))
    if inside.pending is not None:
        caption.append(", drawn ")
        caption.append_text(_rich_cards(inside.pending))
    table = Table(
        title=f"Pastiche, {game.players} players, turn {game.turn}: {status}",
        caption=caption,
        title_justify="left",
        caption_justify="left",
        show_lines=True,
    )
    table.add_column("Player", no_wrap=True)
    table.add_column("Score", justify="right")
    table.add_column("Hand", ratio=1)
    table.add_column("Table", ratio=1)
    for p in range(game.players):
        novels = Text()
        for index, novel in enumerate(game.table(p)):
            if index:
                novels.append("\n")
            novels.append_text(_rich_novel(novel))
        if inside.flag is not None and inside.flag[0] == p:
            if novels:
                novels.append("\n")
            novels.append("End Flag: ", style="bold blue")
            novels.append_text(_rich_card(inside.flag[1]))
        name = f"P{p}" + (" ◀" if game.to_move == p and not game.is_over else "")
        hand = game.hand(p)
        hand_text = _rich_cards(hand)
        hand_text.append(f" ({len(hand)})", style="dim")
        table.add_row(name, str(game.scores()[p]), hand_text, novels or Text("-", style="dim"))
    return table


def rich_text(obj: object) -> RenderableType:
    """A rich renderable for a card, cards, a novel, publish options or report, a position or game.

    Cards are coloured by genre (:data:`PALETTE`); a card, a sequence of cards,
    a :class:`~pastiche_core.engine.table.TableNovel` and a single option give a
    :class:`rich.text.Text`; options, a report, a position and a game give
    tables and panels. Other objects raise :class:`TypeError`.

    >>> from pastiche_core import parse_cards
    >>> rich_text(parse_cards("SCI9 HOR7")).plain
    ' SCI9   HOR7 '
    >>> rich_text(42)
    Traceback (most recent call last):
    ...
    TypeError: cannot render int: expected a card, cards, novel, option(s), report, position or game
    """
    from ..engine.game import Game

    if isinstance(obj, Card):
        return _rich_card(obj)
    if isinstance(obj, TableNovel):
        return _rich_novel(obj)
    if isinstance(obj, PublishOption):
        return _rich_option(obj)
    if isinstance(obj, PublishReport):
        return _rich_options(obj.options, obj)
    if isinstance(obj, Position):
        return _rich_position(obj)
    if isinstance(obj, Game):
        return _rich_game(obj)
    if isinstance(obj, Iterable) and not isinstance(obj, str | bytes):
        items = list(obj)
        if all(isinstance(item, Card) for item in items):
            return _rich_cards(items)
        if all(isinstance(item, PublishOption) for item in items):
            return _rich_options(items, None)
    raise TypeError(
        f"cannot render {type(obj).__name__}: expected a card, cards, novel, option(s), "
        "report, position or game"
    )


def print_rich(obj: object, console: Console | None = None) -> None:
    """Print :func:`rich_text` of ``obj`` to ``console`` (default: a new standard console).

    >>> from rich.console import Console
    >>> from pastiche_core import parse_cards
    >>> print_rich(parse_cards("SCI9 HOR7"), Console(width=40, color_system=None))
    SCI9   HOR7
    """
    if console is None:
        from rich.console import Console

        console = Console()
    console.print(rich_text(obj))
