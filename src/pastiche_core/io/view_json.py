"""Versioned JSON for a player's view (format ``pastiche-view``).

A *view* holds only what one player may know
(:class:`~pastiche_core.view.PlayerView`): other hands are sizes, face-down
discards are ``null`` (R10). It is a plain JSON object that names its format and
version::

    {"format": "pastiche-view", "version": 1, ...}

>>> from pastiche_core import Game
>>> view = Game(players=3, seed=7).view(0)
>>> view_from_json(view_to_json(view)) == view
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._fields import (
    DEFAULT_CATALOGUE,
    Ledger,
    catalogue_to_json,
    describe,
    fail,
    flag_to_json,
    member,
    novel_to_json,
    per_player,
    read_array,
    read_catalogue,
    read_flag,
    read_header,
    read_int,
    read_object,
    read_pending,
    read_players,
    read_progress,
    read_seat,
    read_table,
)
from ..cards import DECK, Card
from ..errors import InvalidNotationError
from ..moves import Move
from ..rules import Phase, setup_discarders
from ..table import TableNovel
from ..view import HIDDEN, PlayerView
from .jsontext import loads
from .state_json import MAX_HISTORY

__all__ = [
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "view_from_dict",
    "view_from_json",
    "view_to_dict",
    "view_to_json",
]

VIEW_FORMAT = "pastiche-view"
"""The ``format`` name of a player's view."""
VIEW_VERSION = 1
"""The version of the player's view format written and read by this library."""

_VIEW_FIELDS = (
    "format",
    "version",
    "player",
    "players",
    "phase",
    "to_move",
    "current",
    "turn",
    "hand",
    "hand_sizes",
    "deck_size",
    "discard",
    "tables",
    "supply",
    "flag",
    "pending",
    "passes",
    "trigger",
    "turns_left",
    "end_reason",
    "scores",
)
# Written since R16; a view without them has no history, its null discards face down
# and the default catalogue.
_VIEW_OPTIONAL = ("face_down", "history", "catalogue")
_PUBLIC_KEYWORDS = frozenset(("keep", "draw", "take", "choose", "publish", "read", "pass", "flag"))


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """A player's view as a JSON-ready dict (format ``pastiche-view``, version 1).

    Face-down discards are ``null``; other players' hands appear only as sizes.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> data = view_to_dict(game.view(0))
    >>> data["format"], data["hand"], data["hand_sizes"], data["discard"]
    ('pastiche-view', ['LOV4', 'LOV7', 'MAG8'], [3, 3, 3], [None])
    """
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "player": view.player,
        "players": view.players,
        "phase": view.phase.value,
        "to_move": view.to_move,
        "current": view.current,
        "turn": view.turn,
        "hand": [str(card) for card in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "deck_size": view.deck_size,
        "discard": [None if card is None else str(card) for card in view.discard],
        "tables": [[novel_to_json(novel) for novel in table] for table in view.tables],
        "supply": dict(view.supply),
        "flag": flag_to_json(view.flag),
        "pending": None if view.pending is None else [str(card) for card in view.pending],
        "passes": view.passes,
        "trigger": view.trigger,
        "turns_left": view.turns_left,
        "end_reason": view.end_reason,
        "scores": list(view.scores),
        "face_down": list(view.face_down),
        "history": [{"player": seat, "move": move} for seat, move in view.history],
        "catalogue": catalogue_to_json(view.catalogue),
    }


def view_from_dict(data: Mapping[str, Any]) -> PlayerView:
    """The :class:`~pastiche_core.view.PlayerView` that :func:`view_to_dict` wrote.

    Checks what a view can check: field types, player indices, a card seen in
    two places, the player's hand against its size, the drawn cards shown only
    to the player choosing, and all 49 cards accounted for. Errors raise
    :class:`~pastiche_core.errors.InvalidStateError` naming the JSON path.

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(1)
    >>> view_from_dict(view_to_dict(view)) == view
    True
    >>> data = view_to_dict(view)
    >>> data["hand_sizes"][1] = 4
    >>> view_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $.hand_sizes[1]: the player's hand has 3 cards, not 4
    """
    root = read_header(data, VIEW_FORMAT, VIEW_VERSION, _VIEW_FIELDS, _VIEW_OPTIONAL)
    players = read_players(root["players"], "$.players")
    player = read_seat(root["player"], "$.player", players)
    phase, to_move, current, turn, passes, trigger, turns_left, end_reason = read_progress(
        root, players
    )

    ledger = Ledger()
    hand = tuple(
        sorted(
            ledger.place(value, f"$.hand[{i}]")
            for i, value in enumerate(read_array(root["hand"], "$.hand"))
        )
    )
    hand_sizes = tuple(
        read_int(value, f"$.hand_sizes[{p}]", 0, len(DECK))
        for p, value in enumerate(per_player(root["hand_sizes"], "$.hand_sizes", players, "sizes"))
    )
    if hand_sizes[player] != len(hand):
        raise fail(
            f"$.hand_sizes[{player}]",
            f"the player's hand has {len(hand)} cards, not {hand_sizes[player]}",
        )
    deck_size = read_int(root["deck_size"], "$.deck_size", 0, len(DECK))
    discard = tuple(
        None if value is None else ledger.place(value, f"$.discard[{i}]")
        for i, value in enumerate(read_array(root["discard"], "$.discard"))
    )
    tables = tuple(
        tuple(
            TableNovel(p, novel, cards)
            for novel, cards in read_table(table, f"$.tables[{p}]", ledger, None).items()
        )
        for p, table in enumerate(per_player(root["tables"], "$.tables", players, "tables"))
    )
    supply_data = read_object(root["supply"], "$.supply", (), None)
    supply = tuple(
        (novel, read_int(count, member("$.supply", novel), 0))
        for novel, count in supply_data.items()
    )
    flag = read_flag(root["flag"], "$.flag", ledger, players)
    pending = read_pending(root["pending"], "$.pending", ledger)
    choosing = phase is Phase.CHOOSE and to_move == player
    if pending is not None and not choosing:
        raise fail("$.pending", "the drawn cards are shown only to the player choosing (R11)")
    if pending is None and choosing:
        raise fail("$.pending", "the player choosing sees the two drawn cards (R11), got null")
    scores = tuple(
        read_int(value, f"$.scores[{p}]", 0)
        for p, value in enumerate(per_player(root["scores"], "$.scores", players, "scores"))
    )
    counted = (
        sum(hand_sizes)
        + deck_size
        + len(discard)
        + sum(len(novel.cards) for table in tables for novel in table)
        + (flag is not None)
        + (2 if phase is Phase.CHOOSE else 0)
    )
    if counted != len(DECK):
        raise fail("$", f"the view accounts for {counted} cards, the game has {len(DECK)} (R1)")
    face_down = _read_face_down(root, discard, players, player)
    history = _read_history(root.get("history", []), players)
    catalogue = read_catalogue(root.get("catalogue", DEFAULT_CATALOGUE), "$.catalogue")
    return PlayerView(
        player=player,
        players=players,
        phase=phase,
        to_move=to_move,
        current=current,
        turn=turn,
        hand=hand,
        hand_sizes=hand_sizes,
        deck_size=deck_size,
        discard=discard,
        tables=tables,
        supply=supply,
        flag=flag,
        pending=pending,
        passes=passes,
        trigger=trigger,
        turns_left=turns_left,
        end_reason=end_reason,
        scores=scores,
        face_down=face_down,
        history=history,
        catalogue=catalogue,
    )


def _read_face_down(
    root: Mapping[str, Any], discard: tuple[Card | None, ...], players: int, player: int
) -> tuple[int, ...]:
    """The face-down indexes: a bottom block of setup discards, shown only to their discarder."""
    if "face_down" not in root:
        return tuple(i for i, card in enumerate(discard) if card is None)
    discarders = setup_discarders(players)
    indexes = []
    for position, value in enumerate(read_array(root["face_down"], "$.face_down")):
        index = read_int(value, f"$.face_down[{position}]", 0, len(discard) - 1)
        if index != position:
            raise fail(
                f"$.face_down[{position}]",
                "face-down cards are the setup discards at the bottom of the pile (R10), "
                f"expected index {position}, got {index}",
            )
        indexes.append(index)
    if len(indexes) > len(discarders):
        raise fail("$.face_down", f"only {len(discarders)} cards are discarded at setup (R10)")
    for index, card in enumerate(discard):
        down = index < len(indexes)
        mine = down and discarders[index] == player
        if down and not mine and card is not None:
            raise fail(
                f"$.discard[{index}]",
                "a face-down card shows only to the player who discarded it (R16)",
            )
        if card is None and not (down and not mine):
            raise fail(f"$.discard[{index}]", "only a hidden face-down card is null (R16)")
    return tuple(indexes)


def _read_history(value: object, players: int) -> tuple[tuple[int, str], ...]:
    """The public history: ``{"player": seat, "move": notation}`` per move (R16)."""
    entries = read_array(value, "$.history")
    if len(entries) > MAX_HISTORY:
        raise fail("$.history", f"more than {MAX_HISTORY} moves")
    history = []
    for index, entry in enumerate(entries):
        where = f"$.history[{index}]"
        item = read_object(entry, where, ("player", "move"))
        seat = read_seat(item["player"], f"{where}.player", players)
        history.append((seat, _read_public_move(item["move"], f"{where}.move")))
    return tuple(history)


def _read_public_move(value: object, path: str) -> str:
    """A move in notation with hidden cards written ``?``: checked as far as it shows."""
    if not isinstance(value, str) or not value or len(value) > 400:
        raise fail(path, f"expected a move in notation, got {describe(value)}")
    words = value.split()
    if not words or words[0] not in _PUBLIC_KEYWORDS:
        raise fail(path, f"expected a move in notation, got {describe(value)}")
    hidden = any(word == HIDDEN or word.endswith(":" + HIDDEN) for word in words)
    if not hidden:
        try:
            Move.parse(value)
        except InvalidNotationError as error:
            raise fail(path, str(error)) from None
    elif words[0] not in ("keep", "choose", "publish"):
        raise fail(path, f"'{words[0]}' hides no card (R16), got {describe(value)}")
    return value


def view_to_json(view: PlayerView, indent: int | None = None) -> str:
    """A player's view as JSON text (see :func:`view_to_dict`).

    >>> from pastiche_core import Game
    >>> view_to_json(Game(players=3, seed=7).view(0))[:47]
    '{"format": "pastiche-view", "version": 1, "play'
    """
    return json.dumps(view_to_dict(view), indent=indent)


def view_from_json(text: str | bytes) -> PlayerView:
    """The view a JSON document describes (see :func:`view_from_dict`).

    >>> view_from_json('{"format": "pastiche-view", "version": 1, "x": 1}')
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $.x: unknown field
    """
    return view_from_dict(loads(text, expected="a view JSON object"))
