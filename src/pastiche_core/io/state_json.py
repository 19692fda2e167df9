"""Versioned JSON for a full game state (format ``pastiche-state``).

A *state* holds everything a :class:`~pastiche_core.engine.game.Game` knows, the
generator's state included, so that ``state_from_dict(state_to_dict(game)) ==
game`` and play goes on exactly as it would have (R14). It is a plain JSON
object that names its format and version::

    {"format": "pastiche-state", "version": 1, ...}

Cards are written in notation (``"SCI9"``) and piles are listed bottom to top.
The catalogue is the string ``"default"`` for the default catalogue (R2) and is
embedded in full otherwise (R3).

Loading checks the data and rejects a state that cannot occur with
:class:`~pastiche_core.data.errors.InvalidStateError`, whose message starts with the
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
pastiche_core.data.errors.InvalidStateError: $.hands[2][1]: card SCI7 appears twice (also at $.deck[4])

**What a loaded state guarantees.** Whatever the document, a game that :func:`state_from_dict` returns

* is well formed: every field has its type and range, each of the 49 Story
  cards is in exactly one place (R1), every Novel is one of the catalogue's
  (R2, R3);
* passes :func:`~pastiche_core.io.invariants.check_invariants`: it could occur in
  play as far as the state itself tells (cards, supply, phase, seats, turn
  counter, passes, countdown, End Flag, discard pile, the cards under each
  novel), and the player to move has a legal move unless the game is over;
* if the document has a non-empty ``history``, *is* the game that history
  makes: the deal of ``seed`` (R10, R14) is replayed move by move, an illegal
  move is reported at its index (``$.history[17]: illegal move 'draw': ...``),
  and the replayed game must equal the stated one in every field, the first
  that differs being reported (``$.hands[2]: the history replays to [...], the
  state says [...]``). At most :data:`MAX_HISTORY` moves are replayed.

A state without a history, or with an empty one, is a *composed* position: it is
taken as it is, checked by the invariants only, and its deal and shuffles need
not come from its seed. Drop the history to load such a position on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..data._text import quote
from ..data.cards import Card
from ..data.catalogue import Catalogue
from ..data.errors import IllegalMoveError
from ..data.rng import GameRng
from ..engine.game import Game
from ..engine.game_internals import assemble, insides
from ..engine.moves import Move
from ._fields import (
    Ledger,
    catalogue_to_json,
    check_seats,
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
    read_rules,
    read_seed,
    read_table,
    rules_to_json,
)
from .jsontext import loads

__all__ = [
    "MAX_HISTORY",
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
MAX_HISTORY = 2_000
"""The longest ``history`` a state may carry, in moves; loading replays it (R14).

No game under the default catalogue (R2) reaches it: at most 3 setup keeps,
40 Writes (the 49 - 3n cards left after setup, two moves each), 33 publishes,
162 Reads (a Published novel keeps one of at most its size in cards), the End
Flag and 4 passes between any two of the publishes and Reads (passes need an
empty deck) make 1,063 moves. Random games (``play_game``) take 68 to 155. A
longer game, possible only with a custom catalogue (R3), loads without its
history, as a composed position."""
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
    "rules",
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
    >>> data["rng"] == str(insides(game).rng_state), data["history"]
    (True, ['keep MYT1 HOR7 HOR8'])

    House rules are written under ``rules`` (left out for the rulebook's, R10, R12):

    >>> from pastiche_core import Rules
    >>> state_to_dict(Game(players=3, seed=7, rules=Rules(end_threshold=10)))["rules"]["end_threshold"]
    10
    """
    inside = insides(game)
    players = game.players
    data: dict[str, Any] = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "catalogue": catalogue_to_json(game.catalogue),
        "players": players,
        "seed": game.seed,
        "rng": str(inside.rng_state),
        "phase": game.phase.value,
        "to_move": game.to_move,
        "current": inside.current,
        "turn": game.turn,
        "passes": inside.passes,
        "trigger": inside.trigger,
        "turns_left": inside.turns_left,
        "end_reason": inside.end_reason,
        "deck": [str(card) for card in inside.deck],
        "discard": [
            {"card": str(card), "face_up": not inside.is_face_down(card)} for card in game.discard
        ],
        "hands": [[str(card) for card in game.hand(p)] for p in range(players)],
        "tables": [[novel_to_json(novel) for novel in game.table(p)] for p in range(players)],
        "supply": dict(game.supply),
        "flag": flag_to_json(inside.flag),
        "pending": None if inside.pending is None else [str(card) for card in inside.pending],
        "history": [str(move) for move in game.history],
    }
    rules = rules_to_json(game.rules)
    if rules is not None:
        data["rules"] = rules
    return data


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
    field may then be left out). ``history`` is optional; when present and not
    empty it is replayed from the deal and must lead to exactly this state
    (R14). Any impossible state raises
    :class:`~pastiche_core.data.errors.InvalidStateError` naming the JSON path and,
    where one applies, the ruling: a wrong format or version, a field of the
    wrong type or out of range, bad card notation, a card in two places or in
    none, an unknown or unpublishable Novel, a novel held twice, a
    Masterpiece/Published ``status`` that disagrees with the card count, then
    any broken invariant (:func:`~pastiche_core.io.invariants.check_invariants`),
    then an illegal or inconsistent history (see the module).

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=3)
    >>> for move in ["keep MYT3 LOV3 MYS5", "keep MYT1 MYS11 MAG8", "draw"]:
    ...     game.apply(move)
    >>> data = state_to_dict(game)
    >>> state_from_dict(data) == game
    True
    >>> data["history"][2] = "take"
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.phase: the history replays to "action", the state says "choose"
    >>> data["history"][1] = "keep MYT1 MYT2 MYT3"
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.history[1]: illegal move 'keep MYT1 MYT2 MYT3': ...
    >>> data["supply"]["kind-3"] = 9
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.supply.kind-3: expected an integer from 0 to 5, got 9
    >>> data["version"] = 2
    >>> state_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.version: unsupported version 2 ...
    """
    optional = ("history", "rules", "catalogue") if catalogue is not None else ("history", "rules")
    required = tuple(name for name in _STATE_FIELDS if name not in optional)
    root = read_header(data, STATE_FORMAT, STATE_VERSION, required, optional)
    cat = catalogue if catalogue is not None else read_catalogue(root["catalogue"], "$.catalogue")

    players = read_players(root["players"], "$.players")
    rules = read_rules(root.get("rules"), "$.rules", cat)
    check_seats(players, rules, "$.players")
    seed = read_seed(root["seed"], "$.seed")
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
    supply = _read_supply(root["supply"], "$.supply", cat)
    history = _read_history(root.get("history", []), "$.history")

    game = assemble(
        Game,
        catalogue=cat,
        players=players,
        seed=seed,
        rng=GameRng(rng_state),
        deck=deck,
        discard=discard,
        face_down=face_down,
        hands=hands,
        tables=tables,
        supply=supply,
        flag=flag,
        phase=phase,
        to_move=to_move,
        current=current,
        pending=pending,
        turn=turn,
        passes=passes,
        trigger=trigger,
        turns_left=turns_left,
        end_reason=end_reason,
        rules=rules,
    )
    from .invariants import check_invariants  # here: it imports this package in turn

    check_invariants(game)
    if history:
        # The replayed game is the stated one, field by field, and it can undo cheaply.
        return _verify_history(game, history)
    return game


def state_from_json(text: str | bytes, *, catalogue: Catalogue | None = None) -> Game:
    """The game whose state :func:`state_to_json` wrote (see :func:`state_from_dict`).

    >>> state_from_json('{"format": "pastiche-record", "version": 1}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.format: expected 'pastiche-state', got ...
    >>> state_from_json("{")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $: not valid JSON: Expecting ... (line 1, column 2)
    """
    return state_from_dict(loads(text, expected="a state JSON object"), catalogue=catalogue)


def _read_supply(value: object, path: str, catalogue: Catalogue) -> dict[str, int]:
    data = read_object(value, path, (), None)
    for novel in data:
        if novel not in catalogue:
            raise fail(
                member(path, novel),
                f"unknown novel id {quote(novel)} in catalogue {catalogue.name!r} (R2)",
            )
    supply: dict[str, int] = {}
    for spec in catalogue.specs:
        where = member(path, spec.id)
        if spec.id not in data:
            raise fail(where, "missing: every Novel of the catalogue has a supply count (R6)")
        supply[spec.id] = read_int(data[spec.id], where, 0, spec.copies)
    return supply


def _read_history(value: object, path: str) -> list[Move]:
    moves = read_array(value, path)
    if len(moves) > MAX_HISTORY:
        raise fail(
            path,
            f"{len(moves)} moves are more than a game takes: at most {MAX_HISTORY} are "
            "replayed (R14); leave the history out to load the position alone",
        )
    return [read_move(move, f"{path}[{i}]") for i, move in enumerate(moves)]


def _verify_history(game: Game, history: Sequence[Move]) -> Game:
    """Replay the deal and ``history`` (R14); the result must be ``game``, field by field."""
    replay = Game(game.players, game.seed, game.catalogue, rules=game.rules)
    for i, move in enumerate(history):
        try:
            replay.apply(move)
        except IllegalMoveError as error:
            raise fail(f"$.history[{i}]", str(error)) from None
    replayed, stated = state_to_dict(replay), state_to_dict(game)
    for name in _STATE_FIELDS:
        _compare(replayed.get(name), stated.get(name), f"$.{name}")
    return replay


def _compare(replayed: object, stated: object, path: str) -> None:
    """Raise at the first place where the replayed and the stated values differ."""
    if replayed == stated:
        return
    if isinstance(replayed, Mapping) and isinstance(stated, Mapping):
        if replayed.keys() == stated.keys():
            for key in replayed:
                _compare(replayed[key], stated[key], member(path, key))
    elif isinstance(replayed, list) and isinstance(stated, list):
        # Piles of objects and the deck go down to the first differing entry; a hand is a
        # set and a novel's cards are read whole.
        nested = any(isinstance(item, list | Mapping) for item in (*replayed, *stated))
        if len(replayed) == len(stated) and (nested or path == "$.deck"):
            for index, (one, two) in enumerate(zip(replayed, stated, strict=True)):
                _compare(one, two, f"{path}[{index}]")
    raise fail(path, f"the history replays to {_show(replayed)}, the state says {_show(stated)}")


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 240 else f"{text[:236]} ..."
