"""Field readers shared by the JSON loaders: each names the JSON path of a bad value.

Private to the package: the public loaders are in :mod:`pastiche_core.io`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..data._text import quote
from ..data.cards import DECK, Card
from ..data.catalogue import END_FLAG_ID, SHIPPED_CATALOGUES, Catalogue
from ..data.errors import (
    InvalidCatalogueError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
)
from ..engine.moves import Move
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS, RULEBOOK, Phase, Rules, rules_of
from ..engine.table import TableNovel

DEFAULT_CATALOGUE = "default"
_END_REASONS = ("countdown", "all-pass")
_STATUSES = ("published", "masterpiece")
_RNG_LIMIT = 1 << 64
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_CARDS = {str(card): card for card in DECK}


_KINDS = {
    "pastiche-view": "a player's view: `pastiche hint` ranks its moves",
    "pastiche-state": "a whole game state: `pastiche hint` reads one player's view of it",
    "pastiche-record": "a game record: it replays with GameRecord",
    "pastiche-hint": "an answer of `pastiche hint`, not a question",
    "pastiche-publishes": "an answer of `pastiche publishes`, not a question",
}
_POSITION_KIND = "a publish position: `pastiche publishes` answers it"


def document_kind(data: Mapping[str, Any]) -> str | None:
    """What a document of another kind is, and the command that reads it (for error messages).

    >>> document_kind({"format": "pastiche-view"})
    "a player's view: `pastiche hint` ranks its moves"
    >>> document_kind({"player": 0, "hand": [], "masterpieces": []})
    'a publish position: `pastiche publishes` answers it'
    """
    found = data.get("format")
    if isinstance(found, str):
        return _KINDS.get(found)
    if found is None and {"player", "hand", "masterpieces"} <= data.keys():
        return _POSITION_KIND
    return None


def read_header(
    data: object,
    format_name: str,
    version: int,
    required: Sequence[str],
    optional: Sequence[str],
) -> Mapping[str, Any]:
    """Check the root object, its ``format`` and ``version``, and its fields."""
    if not isinstance(data, Mapping):
        raise fail("$", f"expected a JSON object, got {describe(data)}")
    if "format" in data and data["format"] != format_name:
        kind = document_kind(data)
        also = f": this is {kind}" if kind else ""
        raise fail("$.format", f"expected {format_name!r}, got {quote(data['format'])}{also}")
    if "format" not in data and document_kind(data) == _POSITION_KIND:
        raise fail("$", f"expected a {format_name!r} document: this is {_POSITION_KIND}")
    if "version" in data:
        found = data["version"]
        if isinstance(found, bool) or not isinstance(found, int):
            raise fail("$.version", f"expected an integer, got {describe(found)}")
        if found != version:
            raise fail(
                "$.version", f"unsupported version {found} (this library reads version {version})"
            )
    return read_object(data, "$", required, optional)


def read_catalogue(value: object, path: str) -> Catalogue:
    """A shipped catalogue's name (``"default"``) or an embedded catalogue object.

    A state or a record never names a file: its catalogue is data
    (:meth:`Catalogue.from_dict`), which never names code either (R3).
    """
    if isinstance(value, str) and value in SHIPPED_CATALOGUES:
        return SHIPPED_CATALOGUES[value]
    if not isinstance(value, Mapping):
        names = ", ".join(repr(name) for name in SHIPPED_CATALOGUES)
        got = describe(value[:40] if isinstance(value, str) else value)
        clipped = "..." if isinstance(value, str) and len(value) > 40 else ""
        raise fail(path, f"expected {names} or a catalogue object, got {got}{clipped}")
    try:
        return Catalogue.from_dict(value)
    except InvalidCatalogueError as error:
        raise fail(path, str(error)) from None


def read_players(value: object, path: str) -> int:
    """A player count: an integer from 3 to 5 (R10), the seats any rules may have; a reader
    then checks it against the document's own rules (:func:`check_seats`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(path, f"expected an integer, got {describe(value)}")
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise fail(path, f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (R10), got {value}")
    return value


def read_int(value: object, path: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (never a boolean) within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(path, f"expected an integer, got {describe(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise fail(path, f"expected an integer >= {low}, got {quote(value)}")
        raise fail(path, f"expected an integer from {low} to {high}, got {quote(value)}")
    return value


SEED_RANGE = (-(1 << 63), (1 << 64) - 1)
"""The seeds a document may hold: what fits the generator's 64 bits (R14)."""


def read_seed(value: object, path: str) -> int:
    """A game seed: a 64-bit integer (R14)."""
    return read_int(value, path, *SEED_RANGE)


def read_array(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail(path, f"expected an array, got {describe(value)}")
    return value


def read_object(
    value: object, path: str, required: Sequence[str], optional: Sequence[str] | None = ()
) -> Mapping[str, Any]:
    """A JSON object with exactly the given fields (any fields if ``optional`` is None)."""
    if not isinstance(value, Mapping):
        raise fail(path, f"expected an object, got {describe(value)}")
    for key in value:
        if not isinstance(key, str):
            raise fail(path, f"field names must be strings, got {quote(key)}")
        if optional is not None and key not in required and key not in optional:
            raise fail(member(path, key), "unknown field")
    for key in required:
        if key not in value:
            raise fail(member(path, key), "missing required field")
    return value


def per_player(value: object, path: str, players: int, what: str) -> list[Any]:
    items = read_array(value, path)
    if len(items) != players:
        raise fail(path, f"expected {players} {what} (one per player), got {len(items)}")
    return items


def read_seat(value: object, path: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(path, f"expected a player index, got {describe(value)}")
    if not 0 <= value < players:
        raise fail(path, f"expected a player index from 0 to {players - 1}, got {value}")
    return value


def read_optional_seat(value: object, path: str, players: int) -> int | None:
    return None if value is None else read_seat(value, path, players)


def read_turns_left(value: object, path: str, players: int) -> int | None:
    # R12: 2n - 1 more turns are counted down from the trigger.
    return None if value is None else read_int(value, path, 0, 2 * players - 1)


def read_end_reason(value: object, path: str) -> str | None:
    if value is not None and value not in _END_REASONS:
        raise fail(path, f"expected null, 'countdown' or 'all-pass', got {quote(value)}")
    return value


def read_progress(
    root: Mapping[str, Any], players: int
) -> tuple[Phase, int, int, int, int, int | None, int | None, str | None]:
    """Where the game stands, common to states and views: (phase, to_move, current, turn,
    passes, trigger, turns_left, end_reason)."""
    return (
        read_phase(root["phase"], "$.phase"),
        read_seat(root["to_move"], "$.to_move", players),
        read_seat(root["current"], "$.current", players),
        read_int(root["turn"], "$.turn", 0),
        read_int(root["passes"], "$.passes", 0, players),
        read_optional_seat(root["trigger"], "$.trigger", players),
        read_turns_left(root["turns_left"], "$.turns_left", players),
        read_end_reason(root["end_reason"], "$.end_reason"),
    )


def read_phase(value: object, path: str) -> Phase:
    for phase in Phase:
        if value == phase.value:
            return phase
    names = ", ".join(repr(phase.value) for phase in Phase)
    raise fail(path, f"expected one of {names}, got {quote(value)}")


def read_rng(value: object, path: str) -> int:
    if isinstance(value, str) and len(value) <= 20 and _DECIMAL.fullmatch(value):
        state = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        state = value
    else:
        raise fail(
            path,
            f"expected a decimal string of at most 20 digits or an integer, got {describe(value)}",
        )
    if not 0 <= state < _RNG_LIMIT:
        raise fail(path, f"the generator state is a 64-bit integer (R14), got {quote(state)}")
    return state


def read_card(value: object, path: str) -> Card:
    card = _CARDS.get(value) if isinstance(value, str) else None
    if card is not None:
        return card  # canonical notation: the common case, without parsing
    if not isinstance(value, str):
        raise fail(path, f"expected a card such as 'SCI9', got {describe(value)}")
    try:
        return Card.parse(value)
    except InvalidNotationError as error:
        raise fail(path, str(error)) from None


def read_move(value: object, path: str) -> Move:
    if not isinstance(value, str):
        raise fail(path, f"expected a move such as 'draw', got {describe(value)}")
    try:
        return Move.parse(value)
    except InvalidNotationError as error:
        raise fail(path, str(error)) from None


class Ledger:
    """Where each card was seen, to report a card in two places or in none (R1)."""

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: dict[Card, str] = {}

    def place(self, value: object, path: str) -> Card:
        card = read_card(value, path)
        first = self._where.get(card)
        if first is not None:
            raise fail(path, f"card {card} appears twice (also at {first})")
        self._where[card] = path
        return card

    def check_complete(self) -> None:
        missing = [str(card) for card in DECK if card not in self._where]
        if missing:
            what = (
                f"card {missing[0]} is" if len(missing) == 1 else f"cards {' '.join(missing)} are"
            )
            raise fail(
                "$",
                f"{what} missing: each of the {len(DECK)} Story cards is in exactly one place (R1)",
            )


def read_table(
    value: object, path: str, ledger: Ledger, catalogue: Catalogue | None
) -> dict[str, tuple[Card, ...]]:
    table: dict[str, tuple[Card, ...]] = {}
    seen: dict[str, str] = {}
    for i, entry in enumerate(read_array(value, path)):
        where = f"{path}[{i}]"
        item = read_object(entry, where, ("novel", "cards"), ("status",))
        novel = item["novel"]
        if not isinstance(novel, str) or not novel:
            raise fail(f"{where}.novel", f"expected a Novel id, got {describe(novel)}")
        if novel == END_FLAG_ID:
            raise fail(f"{where}.novel", "the End Flag cannot be published (R12)")
        if catalogue is not None:
            if novel not in catalogue:
                raise fail(
                    f"{where}.novel",
                    f"unknown novel id {quote(novel)} in catalogue {catalogue.name!r} (R2)",
                )
            if not catalogue[novel].publishable:
                raise fail(f"{where}.novel", f"{novel} cannot be published (R12)")
        if novel in seen:
            raise fail(
                f"{where}.novel",
                f"the player already holds {novel} (at {seen[novel]}); "
                "nobody holds two copies of one Novel (R6)",
            )
        seen[novel] = where
        cards = tuple(
            ledger.place(card, f"{where}.cards[{j}]")
            for j, card in enumerate(read_array(item["cards"], f"{where}.cards"))
        )
        if not cards:
            raise fail(f"{where}.cards", "a novel on the table keeps at least one card (R11)")
        if catalogue is not None:
            pattern = catalogue[novel].pattern
            size = None if pattern is None else pattern.size
            if size is not None and len(cards) > size:
                raise fail(
                    f"{where}.cards",
                    f"{novel} takes {size} cards, this novel has {len(cards)} (R4)",
                )
        if "status" in item:
            check_status(item["status"], f"{where}.status", len(cards))
        table[novel] = cards
    return table


def check_status(status: object, path: str, count: int) -> None:
    if status not in _STATUSES:
        raise fail(path, f"expected 'published' or 'masterpiece', got {quote(status)}")
    if status == "masterpiece" and count != 1:
        raise fail(path, f"a Masterpiece has exactly one card (R7, R11), this novel has {count}")
    if status == "published" and count < 2:
        raise fail(path, f"a Published novel has two or more cards (R11), this novel has {count}")


def read_pending(value: object, path: str, ledger: Ledger) -> tuple[Card, Card] | None:
    if value is None:
        return None
    cards = read_array(value, path)
    if len(cards) != 2:
        raise fail(path, f"expected the two drawn cards or null, got {len(cards)} cards (R11)")
    return (ledger.place(cards[0], f"{path}[0]"), ledger.place(cards[1], f"{path}[1]"))


def read_flag(value: object, path: str, ledger: Ledger, players: int) -> tuple[int, Card] | None:
    if value is None:
        return None
    item = read_object(value, path, ("player", "card"))
    holder = read_seat(item["player"], f"{path}.player", players)
    return (holder, ledger.place(item["card"], f"{path}.card"))


def fail(path: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"{path}: {message}")


def member(path: str, key: str) -> str:
    if _SIMPLE_KEY.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def describe(value: object) -> str:
    """What ``value`` is, for an error message; strings are quoted, at most 40 characters."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


# Writers shared by the state and the view
def read_rules(value: object, path: str, catalogue: Catalogue) -> Rules:
    """A document's ``rules`` (house rules, R10, R12): absent (``None``) means the
    catalogue's, else the rulebook's, so documents written before house rules still load."""
    if value is None:
        try:
            return rules_of(catalogue)
        except InvalidRulesError as error:
            raise fail("$.catalogue.rules", str(error)) from None
    try:
        return Rules.from_dict(value, path)
    except InvalidRulesError as error:
        raise InvalidStateError(str(error)) from None


def rules_to_json(rules: Rules) -> dict[str, Any] | None:
    """``rules`` as a document writes them: ``None`` (left out) for the rulebook's."""
    return None if rules == RULEBOOK else rules.to_dict()


def check_seats(players: int, rules: Rules, path: str) -> None:
    """Refuse a player count the rules do not seat (R10)."""
    if not rules.min_players <= players <= rules.max_players:
        raise fail(
            path,
            f"the rules seat {rules.min_players} to {rules.max_players} players (R10), "
            f"got {players}",
        )


def catalogue_to_json(catalogue: Catalogue) -> str | dict[str, Any]:
    return DEFAULT_CATALOGUE if catalogue.is_default else catalogue.to_dict()


def novel_to_json(novel: TableNovel) -> dict[str, Any]:
    return {
        "novel": novel.novel,
        "status": novel.status,
        "cards": [str(card) for card in novel.cards],
    }


def flag_to_json(flag: tuple[int, Card] | None) -> dict[str, Any] | None:
    return None if flag is None else {"player": flag[0], "card": str(flag[1])}


# ----------------------------------------------------------------------
# Reading
