"""Versioned JSON for a full game state (format ``pastiche-state``).

A *state* holds everything a :class:`~pastiche_core.game.Game` knows, the
generator's state included, so that ``state_from_dict(state_to_dict(game)) ==
game`` and play goes on exactly as it would have (R14). It is a plain JSON
object that names its format and version::

    {"format": "pastiche-state", "version": 1, ...}

Cards are written in notation (``"SCI9"``) and piles are listed bottom to top.
The catalogue is the string ``"default"`` for the default catalogue (R2) and is
embedded in full otherwise (R3).

Loading checks the data and rejects a state that cannot occur with
:class:`~pastiche_core.errors.InvalidStateError`, whose message starts with the
JSON path of the offending value:

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> data = state_to_dict(game)
>>> data["format"], data["version"], data["catalogue"], data["hands"][0]
('pastiche-state', 1, 'default', ['LOV4', 'LOV7', 'MAG8'])
>>> state_from_dict(data) == game
True
>>> data["hands"][2][1] = data["deck"][4]
>>> state_from_dict(data)
Traceback (most recent call last):
...
pastiche_core.errors.InvalidStateError: $.hands[2][1]: card SCI7 appears twice (also at $.deck[4])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..catalogue import Catalogue
from ..game import Game, Phase
from ..rng import GameRng
from ._fields import (
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
    read_move,
    read_object,
    read_pending,
    read_players,
    read_progress,
    read_rng,
    read_table,
)
from .jsontext import loads

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "state_from_dict",
    "state_from_json",
    "state_to_dict",
    "state_to_json",
]

STATE_FORMAT = "pastiche-state"
"""The ``format`` name of a full game state."""
STATE_VERSION = 1
"""The version of the game state format written and read by this library."""
_STATE_FIELDS = (
    "format",
    "version",
    "catalogue",
    "players",
    "seed",
    "rng",
    "phase",
    "to_move",
    "current",
    "turn",
    "passes",
    "trigger",
    "turns_left",
    "end_reason",
    "deck",
    "discard",
    "hands",
    "tables",
    "supply",
    "flag",
    "pending",
)


# ----------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------
def state_to_dict(game: Game) -> dict[str, Any]:
    """The full state of ``game`` as a JSON-ready dict (format ``pastiche-state``, version 1).

    The deck and the discard pile are listed bottom to top, hands sorted, each
    player's novels in publish order with their cards in play order. The
    generator's state is a decimal string (it may not fit a JSON number exactly).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> data = state_to_dict(game)
    >>> data["phase"], data["to_move"], data["discard"]
    ('action', 0, [{'card': 'FAN10', 'face_up': False}])
    >>> data["rng"] == str(game.rng.state), data["history"]
    (True, ['keep MYT1 HOR7 HOR8'])
    """
    players = game.players
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "catalogue": catalogue_to_json(game.catalogue),
        "players": players,
        "seed": game.seed,
        "rng": str(game.rng.state),
        "phase": game.phase.value,
        "to_move": game.to_move,
        "current": game.current,
        "turn": game.turn,
        "passes": game.passes,
        "trigger": game.trigger,
        "turns_left": game.turns_left,
        "end_reason": game.end_reason,
        "deck": [str(card) for card in game.deck],
        "discard": [
            {"card": str(card), "face_up": not game.is_face_down(card)} for card in game.discard
        ],
        "hands": [[str(card) for card in game.hand(p)] for p in range(players)],
        "tables": [[novel_to_json(novel) for novel in game.table(p)] for p in range(players)],
        "supply": dict(game.supply),
        "flag": flag_to_json(game.flag),
        "pending": None if game.pending is None else [str(card) for card in game.pending],
        "history": [str(move) for move in game.history],
    }


def state_to_json(game: Game, indent: int | None = None) -> str:
    """The full state of ``game`` as JSON text (see :func:`state_to_dict`).

    >>> from pastiche_core import Game
    >>> text = state_to_json(Game(players=3, seed=7))
    >>> text[:48]
    '{"format": "pastiche-state", "version": 1, "cata'
    >>> state_from_json(text) == Game(players=3, seed=7)
    True
    """
    return json.dumps(state_to_dict(game), indent=indent)


# ----------------------------------------------------------------------
def state_from_dict(data: Mapping[str, Any], *, catalogue: Catalogue | None = None) -> Game:
    """The game whose state :func:`state_to_dict` wrote, after checking it can occur.

    ``catalogue`` overrides the catalogue named or embedded in ``data`` (the
    field may then be left out). ``history`` is optional. Any impossible state
    raises :class:`~pastiche_core.errors.InvalidStateError` naming the JSON path:
    bad card notation, a card in two places or in none, an unknown or
    unpublishable Novel, a novel held twice, more Novel copies than the
    catalogue has, a Masterpiece/Published ``status`` that disagrees with the
    card count, an inconsistent phase, drawn cards or End Flag, a player index
    out of range, a player count outside 3–5, or a wrong format or version.

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=3)
    >>> data = state_to_dict(game)
    >>> state_from_dict(data) == game
    True
    >>> data["supply"]["kind-3"] = 9
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $.supply.kind-3: expected an integer from 0 to 5, got 9
    >>> data["version"] = 2
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $.version: unsupported version 2 ...
    """
    optional = ("history", "catalogue") if catalogue is not None else ("history",)
    required = tuple(name for name in _STATE_FIELDS if name not in optional)
    root = read_header(data, STATE_FORMAT, STATE_VERSION, required, optional)
    cat = catalogue if catalogue is not None else read_catalogue(root["catalogue"], "$.catalogue")

    players = read_players(root["players"], "$.players")
    seed = read_int(root["seed"], "$.seed")
    rng_state = read_rng(root["rng"], "$.rng")
    phase, to_move, current, turn, passes, trigger, turns_left, end_reason = read_progress(
        root, players
    )

    ledger = Ledger()
    deck = [
        ledger.place(value, f"$.deck[{i}]")
        for i, value in enumerate(read_array(root["deck"], "$.deck"))
    ]
    discard: list[Card] = []
    face_down: set[Card] = set()
    for i, entry in enumerate(read_array(root["discard"], "$.discard")):
        path = f"$.discard[{i}]"
        item = read_object(entry, path, ("card", "face_up"))
        card = ledger.place(item["card"], f"{path}.card")
        face_up = item["face_up"]
        if not isinstance(face_up, bool):
            raise fail(f"{path}.face_up", f"expected true or false, got {describe(face_up)}")
        discard.append(card)
        if not face_up:
            face_down.add(card)
    hands = [
        {
            ledger.place(value, f"$.hands[{p}][{i}]")
            for i, value in enumerate(read_array(hand, f"$.hands[{p}]"))
        }
        for p, hand in enumerate(per_player(root["hands"], "$.hands", players, "hands"))
    ]
    tables = [
        read_table(table, f"$.tables[{p}]", ledger, cat)
        for p, table in enumerate(per_player(root["tables"], "$.tables", players, "tables"))
    ]
    pending = read_pending(root["pending"], "$.pending", ledger)
    flag = read_flag(root["flag"], "$.flag", ledger, players)
    ledger.check_complete()
    supply = _read_supply(root["supply"], "$.supply", cat, tables)

    _check_progress(phase, to_move, current, trigger, turns_left, end_reason, pending, flag, hands)
    expected = 1 if trigger is None or phase is Phase.FLAG else 0
    if supply[cat.end_flag.id] != expected:
        where = "is still in" if expected else "has left"
        raise fail(
            member("$.supply", cat.end_flag.id),
            f"the End Flag {where} the supply at this point (R12): expected {expected}, "
            f"got {supply[cat.end_flag.id]}",
        )

    history = [
        read_move(value, f"$.history[{i}]")
        for i, value in enumerate(read_array(root.get("history", []), "$.history"))
    ]

    game = Game.__new__(Game)
    game.catalogue = cat
    game.players = players
    game.seed = seed
    game.rng = GameRng(rng_state)
    game.deck = deck
    game._discard = discard
    game._face_down = face_down
    game._hands = hands
    game._tables = tables
    game.supply = supply
    game.flag = flag
    game.phase = phase
    game.to_move = to_move
    game.current = current
    game.pending = pending
    game.turn = turn
    game.passes = passes
    game.trigger = trigger
    game.turns_left = turns_left
    game.end_reason = end_reason
    game.history = history
    game._undo = []
    return game


def state_from_json(text: str | bytes, *, catalogue: Catalogue | None = None) -> Game:
    """The game whose state :func:`state_to_json` wrote (see :func:`state_from_dict`).

    >>> state_from_json('{"format": "pastiche-record", "version": 1}')
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $.format: expected 'pastiche-state', got ...
    >>> state_from_json("{")
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidStateError: $: not valid JSON: Expecting ... (line 1, column 2)
    """
    return state_from_dict(loads(text, expected="a state JSON object"), catalogue=catalogue)


def _read_supply(
    value: object,
    path: str,
    catalogue: Catalogue,
    tables: Sequence[Mapping[str, tuple[Card, ...]]],
) -> dict[str, int]:
    data = read_object(value, path, (), None)
    for novel in data:
        if novel not in catalogue:
            raise fail(
                member(path, novel),
                f"unknown novel id {novel!r} in catalogue {catalogue.name!r} (R2)",
            )
    supply: dict[str, int] = {}
    for spec in catalogue.specs:
        where = member(path, spec.id)
        if spec.id not in data:
            raise fail(where, "missing: every Novel of the catalogue has a supply count (R6)")
        left = read_int(data[spec.id], where, 0, spec.copies)
        held = sum(1 for table in tables if spec.id in table)
        if held + left > spec.copies:
            raise fail(
                where,
                f"{left} copies of {spec.id} in the supply and {held} on the table exceed "
                f"the {spec.copies} in the catalogue (R6)",
            )
        supply[spec.id] = left
    return supply


def _check_progress(
    phase: Phase,
    to_move: int,
    current: int,
    trigger: int | None,
    turns_left: int | None,
    end_reason: str | None,
    pending: tuple[Card, Card] | None,
    flag: tuple[int, Card] | None,
    hands: Sequence[set[Card]],
) -> None:
    """Phase, drawn cards, countdown and End Flag agree with one another (R10–R12)."""
    if phase is Phase.CHOOSE and pending is None:
        raise fail("$.pending", "the choose phase needs the two drawn cards (R11), got null")
    if phase is not Phase.CHOOSE and pending is not None:
        raise fail(
            "$.pending",
            f"drawn cards wait only in the choose phase (R11), the phase is {phase.value!r}",
        )
    if (phase is Phase.OVER) != (end_reason is not None):
        raise fail(
            "$.end_reason",
            f"an end reason is given exactly when the game is over (R12), "
            f"the phase is {phase.value!r}",
        )
    if (trigger is None) != (turns_left is None):
        raise fail("$.turns_left", "the countdown runs exactly when a trigger player exists (R12)")
    if phase is Phase.KEEP and to_move < 2:
        raise fail("$.to_move", f"setup keeps are made from seat 2 on (R10), got {to_move}")
    if phase in (Phase.ACTION, Phase.CHOOSE) and to_move != current:
        raise fail(
            "$.to_move",
            f"in the {phase.value} phase the current player ({current}) is to move, got {to_move}",
        )
    if phase is Phase.FLAG:
        if to_move != trigger:
            raise fail(
                "$.to_move",
                f"in the flag phase the trigger player ({trigger}) is to move (R12), got {to_move}",
            )
        if not hands[to_move]:
            raise fail(
                f"$.hands[{to_move}]",
                "the trigger player needs a card to put under the End Flag (R12)",
            )
        if flag is not None:
            raise fail("$.flag", "the End Flag is not held while the trigger player takes it (R12)")
    if flag is not None and flag[0] != trigger:
        raise fail(
            "$.flag.player",
            f"only the trigger player takes the End Flag (R12): holder {flag[0]}, "
            f"trigger {trigger}",
        )
