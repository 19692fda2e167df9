"""Versioned JSON for a full game state and for a player's view.

A *state* holds everything a :class:`~pastiche_core.game.Game` knows, the
generator's state included, so that ``state_from_dict(state_to_dict(game)) ==
game`` and play goes on exactly as it would have (R14). A *view* holds only what
one player may know (:class:`~pastiche_core.view.PlayerView`): other hands are
sizes, face-down discards are ``null`` (R10).

Both are plain JSON objects that name their format and version::

    {"format": "pastiche-state", "version": 1, ...}
    {"format": "pastiche-view", "version": 1, ...}

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
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import DECK, Card
from .catalogue import END_FLAG_ID, Catalogue
from .errors import InvalidCatalogueError, InvalidNotationError, InvalidStateError
from .game import MAX_PLAYERS, MIN_PLAYERS, Game, Phase
from .moves import Move
from .rng import GameRng
from .table import TableNovel
from .view import PlayerView

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "state_from_dict",
    "state_from_json",
    "state_to_dict",
    "state_to_json",
    "view_from_dict",
    "view_to_dict",
]

STATE_FORMAT = "pastiche-state"
"""The ``format`` name of a full game state."""
STATE_VERSION = 1
"""The version of the game state format written and read by this library."""
VIEW_FORMAT = "pastiche-view"
"""The ``format`` name of a player's view."""
VIEW_VERSION = 1
"""The version of the player's view format written and read by this library."""

_DEFAULT_CATALOGUE = "default"
_END_REASONS = ("countdown", "all-pass")
_STATUSES = ("published", "masterpiece")
_RNG_LIMIT = 1 << 64
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_CARDS = {str(card): card for card in DECK}

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
        "catalogue": _catalogue_to_json(game.catalogue),
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
        "tables": [[_novel_to_json(novel) for novel in game.table(p)] for p in range(players)],
        "supply": dict(game.supply),
        "flag": _flag_to_json(game.flag),
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
        "tables": [[_novel_to_json(novel) for novel in table] for table in view.tables],
        "supply": dict(view.supply),
        "flag": _flag_to_json(view.flag),
        "pending": None if view.pending is None else [str(card) for card in view.pending],
        "passes": view.passes,
        "trigger": view.trigger,
        "turns_left": view.turns_left,
        "end_reason": view.end_reason,
        "scores": list(view.scores),
    }


def _catalogue_to_json(catalogue: Catalogue) -> str | dict[str, Any]:
    return _DEFAULT_CATALOGUE if catalogue.is_default else catalogue.to_dict()


def _novel_to_json(novel: TableNovel) -> dict[str, Any]:
    return {
        "novel": novel.novel,
        "status": novel.status,
        "cards": [str(card) for card in novel.cards],
    }


def _flag_to_json(flag: tuple[int, Card] | None) -> dict[str, Any] | None:
    return None if flag is None else {"player": flag[0], "card": str(flag[1])}


# ----------------------------------------------------------------------
# Reading
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
    root = _read_header(data, STATE_FORMAT, STATE_VERSION, required, optional)
    cat = catalogue if catalogue is not None else _read_catalogue(root["catalogue"], "$.catalogue")

    players = _read_players(root["players"], "$.players")
    seed = _read_int(root["seed"], "$.seed")
    rng_state = _read_rng(root["rng"], "$.rng")
    phase, to_move, current, turn, passes, trigger, turns_left, end_reason = _read_progress(
        root, players
    )

    ledger = _Ledger()
    deck = [
        ledger.place(value, f"$.deck[{i}]")
        for i, value in enumerate(_array(root["deck"], "$.deck"))
    ]
    discard: list[Card] = []
    face_down: set[Card] = set()
    for i, entry in enumerate(_array(root["discard"], "$.discard")):
        path = f"$.discard[{i}]"
        item = _object(entry, path, ("card", "face_up"))
        card = ledger.place(item["card"], f"{path}.card")
        face_up = item["face_up"]
        if not isinstance(face_up, bool):
            raise _fail(f"{path}.face_up", f"expected true or false, got {_describe(face_up)}")
        discard.append(card)
        if not face_up:
            face_down.add(card)
    hands = [
        {
            ledger.place(value, f"$.hands[{p}][{i}]")
            for i, value in enumerate(_array(hand, f"$.hands[{p}]"))
        }
        for p, hand in enumerate(_per_player(root["hands"], "$.hands", players, "hands"))
    ]
    tables = [
        _read_table(table, f"$.tables[{p}]", ledger, cat)
        for p, table in enumerate(_per_player(root["tables"], "$.tables", players, "tables"))
    ]
    pending = _read_pending(root["pending"], "$.pending", ledger)
    flag = _read_flag(root["flag"], "$.flag", ledger, players)
    ledger.check_complete()
    supply = _read_supply(root["supply"], "$.supply", cat, tables)

    _check_progress(phase, to_move, current, trigger, turns_left, end_reason, pending, flag, hands)
    expected = 1 if trigger is None or phase is Phase.FLAG else 0
    if supply[cat.end_flag.id] != expected:
        where = "is still in" if expected else "has left"
        raise _fail(
            _member("$.supply", cat.end_flag.id),
            f"the End Flag {where} the supply at this point (R12): expected {expected}, "
            f"got {supply[cat.end_flag.id]}",
        )

    history = [
        _read_move(value, f"$.history[{i}]")
        for i, value in enumerate(_array(root.get("history", []), "$.history"))
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
    return state_from_dict(_parse_json(text), catalogue=catalogue)


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
    root = _read_header(data, VIEW_FORMAT, VIEW_VERSION, _VIEW_FIELDS, ())
    players = _read_players(root["players"], "$.players")
    player = _read_seat(root["player"], "$.player", players)
    phase, to_move, current, turn, passes, trigger, turns_left, end_reason = _read_progress(
        root, players
    )

    ledger = _Ledger()
    hand = tuple(
        sorted(
            ledger.place(value, f"$.hand[{i}]")
            for i, value in enumerate(_array(root["hand"], "$.hand"))
        )
    )
    hand_sizes = tuple(
        _read_int(value, f"$.hand_sizes[{p}]", 0, len(DECK))
        for p, value in enumerate(_per_player(root["hand_sizes"], "$.hand_sizes", players, "sizes"))
    )
    if hand_sizes[player] != len(hand):
        raise _fail(
            f"$.hand_sizes[{player}]",
            f"the player's hand has {len(hand)} cards, not {hand_sizes[player]}",
        )
    deck_size = _read_int(root["deck_size"], "$.deck_size", 0, len(DECK))
    discard = tuple(
        None if value is None else ledger.place(value, f"$.discard[{i}]")
        for i, value in enumerate(_array(root["discard"], "$.discard"))
    )
    tables = tuple(
        tuple(
            TableNovel(p, novel, cards)
            for novel, cards in _read_table(table, f"$.tables[{p}]", ledger, None).items()
        )
        for p, table in enumerate(_per_player(root["tables"], "$.tables", players, "tables"))
    )
    supply_data = _object(root["supply"], "$.supply", (), None)
    supply = tuple(
        (novel, _read_int(count, _member("$.supply", novel), 0))
        for novel, count in supply_data.items()
    )
    flag = _read_flag(root["flag"], "$.flag", ledger, players)
    pending = _read_pending(root["pending"], "$.pending", ledger)
    choosing = phase is Phase.CHOOSE and to_move == player
    if pending is not None and not choosing:
        raise _fail("$.pending", "the drawn cards are shown only to the player choosing (R11)")
    if pending is None and choosing:
        raise _fail("$.pending", "the player choosing sees the two drawn cards (R11), got null")
    scores = tuple(
        _read_int(value, f"$.scores[{p}]", 0)
        for p, value in enumerate(_per_player(root["scores"], "$.scores", players, "scores"))
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
        raise _fail("$", f"the view accounts for {counted} cards, the game has {len(DECK)} (R1)")
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
    )


# ----------------------------------------------------------------------
# Checks (shared with the game record)
# ----------------------------------------------------------------------
def _parse_json(text: str | bytes) -> Any:
    """Decode JSON text, reporting a syntax error as an InvalidStateError at ``$``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(
            "$", f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except UnicodeDecodeError as error:
        raise _fail("$", f"not valid JSON: {error}") from None


def _read_header(
    data: object,
    format_name: str,
    version: int,
    required: Sequence[str],
    optional: Sequence[str],
) -> Mapping[str, Any]:
    """Check the root object, its ``format`` and ``version``, and its fields."""
    if not isinstance(data, Mapping):
        raise _fail("$", f"expected a JSON object, got {_describe(data)}")
    if "format" in data and data["format"] != format_name:
        raise _fail("$.format", f"expected {format_name!r}, got {data['format']!r}")
    if "version" in data:
        found = data["version"]
        if isinstance(found, bool) or not isinstance(found, int):
            raise _fail("$.version", f"expected an integer, got {_describe(found)}")
        if found != version:
            raise _fail(
                "$.version", f"unsupported version {found} (this library reads version {version})"
            )
    return _object(data, "$", required, optional)


def _read_catalogue(value: object, path: str) -> Catalogue:
    """``"default"`` or an embedded catalogue (:meth:`Catalogue.from_dict`)."""
    if value == _DEFAULT_CATALOGUE:
        return Catalogue.default()
    if not isinstance(value, Mapping):
        raise _fail(path, f"expected 'default' or a catalogue object, got {_describe(value)}")
    try:
        return Catalogue.from_dict(value)
    except InvalidCatalogueError as error:
        raise _fail(path, str(error)) from None


def _read_players(value: object, path: str) -> int:
    """A player count: an integer from 3 to 5 (R10)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected an integer, got {_describe(value)}")
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise _fail(path, f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (R10), got {value}")
    return value


def _read_int(value: object, path: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (never a boolean) within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected an integer, got {_describe(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise _fail(path, f"expected an integer >= {low}, got {value}")
        raise _fail(path, f"expected an integer from {low} to {high}, got {value}")
    return value


def _array(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"expected an array, got {_describe(value)}")
    return value


def _object(
    value: object, path: str, required: Sequence[str], optional: Sequence[str] | None = ()
) -> Mapping[str, Any]:
    """A JSON object with exactly the given fields (any fields if ``optional`` is None)."""
    if not isinstance(value, Mapping):
        raise _fail(path, f"expected an object, got {_describe(value)}")
    for key in value:
        if not isinstance(key, str):
            raise _fail(path, f"field names must be strings, got {key!r}")
        if optional is not None and key not in required and key not in optional:
            raise _fail(_member(path, key), "unknown field")
    for key in required:
        if key not in value:
            raise _fail(_member(path, key), "missing required field")
    return value


def _per_player(value: object, path: str, players: int, what: str) -> list[Any]:
    items = _array(value, path)
    if len(items) != players:
        raise _fail(path, f"expected {players} {what} (one per player), got {len(items)}")
    return items


def _read_seat(value: object, path: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected a player index, got {_describe(value)}")
    if not 0 <= value < players:
        raise _fail(path, f"expected a player index from 0 to {players - 1}, got {value}")
    return value


def _read_optional_seat(value: object, path: str, players: int) -> int | None:
    return None if value is None else _read_seat(value, path, players)


def _read_turns_left(value: object, path: str, players: int) -> int | None:
    # R12: 2n - 1 more turns are counted down from the trigger.
    return None if value is None else _read_int(value, path, 0, 2 * players - 1)


def _read_end_reason(value: object, path: str) -> str | None:
    if value is not None and value not in _END_REASONS:
        raise _fail(path, f"expected null, 'countdown' or 'all-pass', got {value!r}")
    return value


def _read_progress(
    root: Mapping[str, Any], players: int
) -> tuple[Phase, int, int, int, int, int | None, int | None, str | None]:
    """Where the game stands, common to states and views: (phase, to_move, current, turn,
    passes, trigger, turns_left, end_reason)."""
    return (
        _read_phase(root["phase"], "$.phase"),
        _read_seat(root["to_move"], "$.to_move", players),
        _read_seat(root["current"], "$.current", players),
        _read_int(root["turn"], "$.turn", 0),
        _read_int(root["passes"], "$.passes", 0, players),
        _read_optional_seat(root["trigger"], "$.trigger", players),
        _read_turns_left(root["turns_left"], "$.turns_left", players),
        _read_end_reason(root["end_reason"], "$.end_reason"),
    )


def _read_phase(value: object, path: str) -> Phase:
    for phase in Phase:
        if value == phase.value:
            return phase
    names = ", ".join(repr(phase.value) for phase in Phase)
    raise _fail(path, f"expected one of {names}, got {value!r}")


def _read_rng(value: object, path: str) -> int:
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        state = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        state = value
    else:
        raise _fail(path, f"expected a decimal string or an integer, got {value!r}")
    if not 0 <= state < _RNG_LIMIT:
        raise _fail(path, f"the generator state is a 64-bit integer (R14), got {state}")
    return state


def _read_card(value: object, path: str) -> Card:
    card = _CARDS.get(value) if isinstance(value, str) else None
    if card is not None:
        return card  # canonical notation: the common case, without parsing
    if not isinstance(value, str):
        raise _fail(path, f"expected a card such as 'SCI9', got {_describe(value)}")
    try:
        return Card.parse(value)
    except InvalidNotationError as error:
        raise _fail(path, str(error)) from None


def _read_move(value: object, path: str) -> Move:
    if not isinstance(value, str):
        raise _fail(path, f"expected a move such as 'draw', got {_describe(value)}")
    try:
        return Move.parse(value)
    except InvalidNotationError as error:
        raise _fail(path, str(error)) from None


class _Ledger:
    """Where each card was seen, to report a card in two places or in none (R1)."""

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: dict[Card, str] = {}

    def place(self, value: object, path: str) -> Card:
        card = _read_card(value, path)
        first = self._where.get(card)
        if first is not None:
            raise _fail(path, f"card {card} appears twice (also at {first})")
        self._where[card] = path
        return card

    def check_complete(self) -> None:
        missing = [str(card) for card in DECK if card not in self._where]
        if missing:
            what = (
                f"card {missing[0]} is" if len(missing) == 1 else f"cards {' '.join(missing)} are"
            )
            raise _fail(
                "$",
                f"{what} missing: each of the {len(DECK)} Story cards is in exactly one place (R1)",
            )


def _read_table(
    value: object, path: str, ledger: _Ledger, catalogue: Catalogue | None
) -> dict[str, tuple[Card, ...]]:
    table: dict[str, tuple[Card, ...]] = {}
    seen: dict[str, str] = {}
    for i, entry in enumerate(_array(value, path)):
        where = f"{path}[{i}]"
        item = _object(entry, where, ("novel", "cards"), ("status",))
        novel = item["novel"]
        if not isinstance(novel, str) or not novel:
            raise _fail(f"{where}.novel", f"expected a Novel id, got {_describe(novel)}")
        if novel == END_FLAG_ID:
            raise _fail(f"{where}.novel", "the End Flag cannot be published (R12)")
        if catalogue is not None:
            if novel not in catalogue:
                raise _fail(
                    f"{where}.novel",
                    f"unknown novel id {novel!r} in catalogue {catalogue.name!r} (R2)",
                )
            if not catalogue[novel].publishable:
                raise _fail(f"{where}.novel", f"{novel} cannot be published (R12)")
        if novel in seen:
            raise _fail(
                f"{where}.novel",
                f"the player already holds {novel} (at {seen[novel]}); "
                "nobody holds two copies of one Novel (R6)",
            )
        seen[novel] = where
        cards = tuple(
            ledger.place(card, f"{where}.cards[{j}]")
            for j, card in enumerate(_array(item["cards"], f"{where}.cards"))
        )
        if not cards:
            raise _fail(f"{where}.cards", "a novel on the table keeps at least one card (R11)")
        if catalogue is not None:
            pattern = catalogue[novel].pattern
            size = None if pattern is None else pattern.size
            if size is not None and len(cards) > size:
                raise _fail(
                    f"{where}.cards",
                    f"{novel} takes {size} cards, this novel has {len(cards)} (R4)",
                )
        if "status" in item:
            _check_status(item["status"], f"{where}.status", len(cards))
        table[novel] = cards
    return table


def _check_status(status: object, path: str, count: int) -> None:
    if status not in _STATUSES:
        raise _fail(path, f"expected 'published' or 'masterpiece', got {status!r}")
    if status == "masterpiece" and count != 1:
        raise _fail(path, f"a Masterpiece has exactly one card (R7, R11), this novel has {count}")
    if status == "published" and count < 2:
        raise _fail(path, f"a Published novel has two or more cards (R11), this novel has {count}")


def _read_pending(value: object, path: str, ledger: _Ledger) -> tuple[Card, Card] | None:
    if value is None:
        return None
    cards = _array(value, path)
    if len(cards) != 2:
        raise _fail(path, f"expected the two drawn cards or null, got {len(cards)} cards (R11)")
    return (ledger.place(cards[0], f"{path}[0]"), ledger.place(cards[1], f"{path}[1]"))


def _read_flag(value: object, path: str, ledger: _Ledger, players: int) -> tuple[int, Card] | None:
    if value is None:
        return None
    item = _object(value, path, ("player", "card"))
    holder = _read_seat(item["player"], f"{path}.player", players)
    return (holder, ledger.place(item["card"], f"{path}.card"))


def _read_supply(
    value: object,
    path: str,
    catalogue: Catalogue,
    tables: Sequence[Mapping[str, tuple[Card, ...]]],
) -> dict[str, int]:
    data = _object(value, path, (), None)
    for novel in data:
        if novel not in catalogue:
            raise _fail(
                _member(path, novel),
                f"unknown novel id {novel!r} in catalogue {catalogue.name!r} (R2)",
            )
    supply: dict[str, int] = {}
    for spec in catalogue.specs:
        where = _member(path, spec.id)
        if spec.id not in data:
            raise _fail(where, "missing: every Novel of the catalogue has a supply count (R6)")
        left = _read_int(data[spec.id], where, 0, spec.copies)
        held = sum(1 for table in tables if spec.id in table)
        if held + left > spec.copies:
            raise _fail(
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
        raise _fail("$.pending", "the choose phase needs the two drawn cards (R11), got null")
    if phase is not Phase.CHOOSE and pending is not None:
        raise _fail(
            "$.pending",
            f"drawn cards wait only in the choose phase (R11), the phase is {phase.value!r}",
        )
    if (phase is Phase.OVER) != (end_reason is not None):
        raise _fail(
            "$.end_reason",
            f"an end reason is given exactly when the game is over (R12), "
            f"the phase is {phase.value!r}",
        )
    if (trigger is None) != (turns_left is None):
        raise _fail("$.turns_left", "the countdown runs exactly when a trigger player exists (R12)")
    if phase is Phase.KEEP and to_move < 2:
        raise _fail("$.to_move", f"setup keeps are made from seat 2 on (R10), got {to_move}")
    if phase in (Phase.ACTION, Phase.CHOOSE) and to_move != current:
        raise _fail(
            "$.to_move",
            f"in the {phase.value} phase the current player ({current}) is to move, got {to_move}",
        )
    if phase is Phase.FLAG:
        if to_move != trigger:
            raise _fail(
                "$.to_move",
                f"in the flag phase the trigger player ({trigger}) is to move (R12), got {to_move}",
            )
        if not hands[to_move]:
            raise _fail(
                f"$.hands[{to_move}]",
                "the trigger player needs a card to put under the End Flag (R12)",
            )
        if flag is not None:
            raise _fail(
                "$.flag", "the End Flag is not held while the trigger player takes it (R12)"
            )
    if flag is not None and flag[0] != trigger:
        raise _fail(
            "$.flag.player",
            f"only the trigger player takes the End Flag (R12): holder {flag[0]}, "
            f"trigger {trigger}",
        )


def _fail(path: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"{path}: {message}")


def _member(path: str, key: str) -> str:
    if _SIMPLE_KEY.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__
