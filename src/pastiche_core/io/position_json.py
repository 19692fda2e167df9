"""Position JSON: a player's publish question as a frontend sends it, read and written.

A position document is one JSON object::

    {"player": 0,
     "hand": ["MYS7", "FAN7", "MYT6", "SCI9"],
     "masterpieces": [{"id": "m1", "owner": 0, "card": "SCI7"},
                      {"id": "m2", "owner": 1, "card": "HOR7"}],
     "held_novels": ["pairs-3"],
     "supply": {"kind-3": 0},
     "catalogue": "default",
     "constraints": {"keep": ["SCI9"], "no_cite": [2], "max_gifts": 1, "min_points": 2}}

``player``, ``hand`` and ``masterpieces`` are required. ``held_novels`` lists the
Novels the player already holds (R6); ``supply`` gives the copies left of some
Novels (the others keep all their copies); ``catalogue`` is ``"default"`` (R2), an
embedded catalogue object (R3) or, for a document read from a file, the
relative path of a TOML catalogue inside that file's folder (``base_dir``);
``constraints`` restricts the answer (:class:`~pastiche_core.solver.options.Constraints`)
and is returned by the ``query_*`` and :func:`load_query` functions. Cards are written in
notation (``"SCI9"``, R1). The schema ships with the package: :func:`schema`.

Every error raises :class:`~pastiche_core.data.errors.InvalidStateError` whose message
starts with the JSON path of the offending value:

>>> pos = position_from_json('{"player": 0, "hand": ["MYS7", "FAN7"], "masterpieces": []}')
>>> pos
Position.quick('MYS7 FAN7', player=0)
>>> position_to_dict(pos)["hand"]
['MYS7', 'FAN7']
>>> position_from_json('{"player": 0, "hand": ["MYS7", "LOV1"], "masterpieces": []}')
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: $.hand[1]: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import IO, Any

from ..data._text import quote
from ..data.cards import Card
from ..data.catalogue import SHIPPED_CATALOGUES, Catalogue
from ..data.errors import InvalidCatalogueError, InvalidStateError
from ..data.files import read_file, read_text
from ..engine.rules import MAX_PLAYERS
from ..solver.options import Constraints
from ..solver.position import Masterpiece, Position
from ._fields import (
    describe,
    document_kind,
    fail,
    member,
    read_array,
    read_card,
    read_int,
    read_object,
)
from .jsontext import loads

__all__ = [
    "SCHEMAS",
    "load_position",
    "load_query",
    "position_from_dict",
    "position_from_json",
    "position_to_dict",
    "position_to_json",
    "query_from_dict",
    "query_from_json",
    "schema",
]

SCHEMAS = ("position", "publishes", "hint", "outs", "review")
"""The JSON Schemas (draft 2020-12) shipped with the package, by :func:`schema` name."""

_DEFAULT_CATALOGUE = "default"
_REQUIRED = ("player", "hand", "masterpieces")
_OPTIONAL = ("held_novels", "supply", "catalogue", "constraints")
_MASTERPIECE_FIELDS = ("id", "owner", "card")
_CONSTRAINT_FIELDS = ("keep", "no_cite", "max_gifts", "min_points")


# ----------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------
def position_from_dict(data: object, *, base_dir: str | Path | None = None) -> Position:
    """The :class:`~pastiche_core.solver.position.Position` a decoded position document describes.

    A ``constraints`` field becomes the position's own
    (:attr:`~pastiche_core.solver.position.Position.constraints`), so solving the loaded
    position answers what the document asks.
    A catalogue path is read only when ``base_dir`` is given, and only from inside
    that folder. Errors name the JSON path.

    >>> data = {"player": 0, "hand": ["MYS7", "FAN7", "MYT6", "SCI9"],
    ...         "masterpieces": [{"id": "m1", "owner": 0, "card": "SCI7"},
    ...                          {"id": "m2", "owner": 1, "card": "HOR7"}],
    ...         "held_novels": ["pairs-3"], "supply": {"kind-3": 0}}
    >>> pos = position_from_dict(data)
    >>> pos.masterpiece("m2").owner, pos.supply["kind-3"], pos.supply["kind-5"]
    (1, 0, 2)
    >>> data["masterpieces"][1]["card"] = "MYS7"
    >>> position_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.masterpieces[1].card: card MYS7 listed twice (also at $.hand[0])
    """
    return query_from_dict(data, base_dir=base_dir)[0]


def query_from_dict(
    data: object, *, base_dir: str | Path | None = None
) -> tuple[Position, Constraints]:
    """The position and its constraints (empty if none are given) of a decoded document.

    The position carries the constraints too; they are returned apart for
    callers that combine them with others (the command line's options).

    >>> pos, constraints = query_from_dict({
    ...     "player": 0, "hand": ["MYS7", "FAN7", "SCI9"], "masterpieces": [],
    ...     "constraints": {"keep": ["SCI9"], "max_gifts": 1}})
    >>> constraints
    Constraints(keep=frozenset({Card.parse('SCI9')}), no_cite=frozenset(), max_gifts=1, min_points=None)
    >>> query_from_dict({"player": 0, "hand": ["MYS7"], "masterpieces": [],
    ...                  "constraints": {"keep": ["SCI9"]}})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.constraints.keep[0]: card SCI9 is not in the hand
    """
    if isinstance(data, Mapping) and "format" in data:
        kind = document_kind(data)
        raise fail(
            "$.format",
            f"a position document has no format field; this is {kind}"
            if kind
            else "unknown field (a position document has no format field)",
        )
    root = read_object(data, "$", _REQUIRED, _OPTIONAL)
    catalogue = _read_catalogue(root.get("catalogue", _DEFAULT_CATALOGUE), base_dir)
    player = _read_seat(root["player"], "$.player")
    seen: dict[Card, str] = {}
    hand = tuple(
        _place(value, f"$.hand[{i}]", seen)
        for i, value in enumerate(read_array(root["hand"], "$.hand"))
    )
    masterpieces = _read_masterpieces(root["masterpieces"], "$.masterpieces", seen, catalogue)
    held = _read_held(root.get("held_novels", []), "$.held_novels", catalogue)
    supply = _read_supply(root.get("supply", {}), "$.supply", catalogue)
    constraints = _read_constraints(root.get("constraints", {}), "$.constraints", set(hand))
    try:
        position = Position(player, hand, masterpieces, held, supply, catalogue, constraints)
    except InvalidStateError as error:  # the checks above leave nothing to Position; be safe
        raise InvalidStateError(f"$.{error}") from None
    return position, constraints


def position_from_json(text: str | bytes, *, base_dir: str | Path | None = None) -> Position:
    """The position a JSON document describes (see :func:`position_from_dict`).

    >>> position_from_json('{"player": 1, "hand": ["SCI9"], "masterpieces": [], "seat": 2}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.seat: unknown field
    >>> position_from_json('{"player": 1,')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 14)
    """
    return position_from_dict(loads(text, expected="a position JSON object"), base_dir=base_dir)


def query_from_json(
    text: str | bytes, *, base_dir: str | Path | None = None
) -> tuple[Position, Constraints]:
    """The position and constraints of a JSON document (see :func:`query_from_dict`).

    >>> query_from_json('{"player": 0, "hand": [], "masterpieces": [], '
    ...                 '"constraints": {"no_cite": [1, 1]}}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.constraints.no_cite[1]: player 1 listed twice (also at $.constraints.no_cite[0])
    """
    return query_from_dict(loads(text, expected="a position JSON object"), base_dir=base_dir)


def load_position(source: str | Path, *, stdin: IO[Any] | None = None) -> Position:
    """The position in a JSON file, or on standard input when ``source`` is ``"-"``.

    A catalogue path in the file is read from inside the file's folder; a document
    on standard input has no folder, so it names ``"default"`` or embeds its
    catalogue. The file is read safely
    (:func:`~pastiche_core.data.files.read_file`).

    >>> import io
    >>> load_position("-", stdin=io.StringIO('{"player": 2, "hand": ["HOR7"], "masterpieces": []}'))
    Position.quick('HOR7', player=2)
    >>> load_position("-", stdin=io.StringIO(""))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $: no input: expected a position JSON object
    >>> load_position("no/such/position.json")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: position file 'no/such/position.json': no such file
    """
    return load_query(source, stdin=stdin)[0]


def load_query(source: str | Path, *, stdin: IO[Any] | None = None) -> tuple[Position, Constraints]:
    """The position and constraints in a JSON file, or on standard input for ``"-"``.

    >>> import io
    >>> text = '{"player": 0, "hand": ["HOR7"], "masterpieces": [], "constraints": {"min_points": 2}}'
    >>> load_query("-", stdin=io.StringIO(text))[1].min_points
    2
    """
    if str(source) == "-":
        stream = sys.stdin if stdin is None else stdin
        buffer = getattr(stream, "buffer", None)
        raw: str | bytes = buffer.read() if buffer is not None else stream.read()
        return query_from_json(raw)
    path = Path(source)
    data = read_file(path, what="position file", error=InvalidStateError)
    return query_from_json(data, base_dir=path.parent)


_MAX_CATALOGUE_PATH = 1024
_TOML_WHERE = re.compile(r"\((?:at line \d+, column \d+|at end of document)\)$")


def _read_catalogue(value: object, base_dir: str | Path | None) -> Catalogue:
    """A shipped catalogue's name, an embedded catalogue, or a file inside ``base_dir``."""
    path = "$.catalogue"
    if isinstance(value, str) and value in SHIPPED_CATALOGUES:
        return SHIPPED_CATALOGUES[value]
    if isinstance(value, str) and value.strip():
        return _catalogue_file(value, base_dir)
    if isinstance(value, Mapping):
        try:
            return Catalogue.from_dict(value)
        except InvalidCatalogueError as error:
            raise fail(path, str(error)) from None
    got = describe(value[:40] if isinstance(value, str) else value)
    raise fail(path, f"expected 'default', a TOML catalogue path or a catalogue object, got {got}")


def _catalogue_file(value: str, base_dir: str | Path | None) -> Catalogue:
    """The TOML catalogue a position names: a relative path that stays inside ``base_dir``.

    The file's content never appears in an error: the document may name a file
    its author cannot read otherwise.
    """
    path = "$.catalogue"
    shown = repr(value) if len(value) <= 80 else f"{value[:80]!r}..."
    where = f"catalogue {shown}"
    if "\0" in value:
        raise fail(path, f"{where}: a file name never holds a NUL character")
    if base_dir is None:
        raise fail(
            path,
            f"{where}: a catalogue file is read only for a position read from a file "
            "(from its folder); name 'default' or embed the catalogue object (R3)",
        )
    if len(value) > _MAX_CATALOGUE_PATH:
        raise fail(path, f"{where}: a path of more than {_MAX_CATALOGUE_PATH} characters")
    relative = Path(value)
    if relative.is_absolute() or value.startswith(("/", "\\")) or relative.drive:
        raise fail(
            path, f"{where}: an absolute path; name a file inside the position's folder (R3)"
        )
    if ".." in relative.parts:
        raise fail(path, f"{where}: '..' leaves the position's folder; name a file inside it (R3)")
    try:
        folder = Path(base_dir).resolve()
        file = (folder / relative).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop
        raise fail(path, f"{where}: the path cannot be resolved") from None
    if not file.is_relative_to(folder):
        raise fail(
            path,
            f"{where}: resolves outside the position's folder (through a symbolic link) (R3)",
        )
    try:
        text = read_text(
            file,
            what="catalogue",
            error=InvalidCatalogueError,
            follow_symlinks=False,
            label=value,
            one_name=True,  # a hard link would bring in a file from outside the folder (R3)
        )
    except InvalidCatalogueError as error:
        raise fail(path, str(error)) from None
    try:
        return Catalogue.from_toml(text)
    except InvalidCatalogueError as error:
        # tomllib quotes the text it stops at; keep only its line and column.
        message = str(error)
        if message.startswith("catalogue TOML does not parse"):
            found = _TOML_WHERE.search(message)
            at = f" {found[0]}" if found else ""
            raise fail(path, f"{where}: catalogue TOML does not parse{at}") from None
        raise fail(
            path,
            f"{where}: not a valid catalogue (R3); the details are not shown, since they "
            "would quote the file: check it with load_catalogue",
        ) from None


def _place(value: object, path: str, seen: dict[Card, str]) -> Card:
    card = read_card(value, path)
    if card in seen:
        raise fail(path, f"card {card} listed twice (also at {seen[card]})")
    seen[card] = path
    return card


def _read_seat(value: object, path: str) -> int:
    """A seat of a game: 0 to ``MAX_PLAYERS - 1`` (R10)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(path, f"expected an integer, got {_describe(value)}")
    last = MAX_PLAYERS - 1
    if value < 0:
        raise fail(
            path, f"expected an integer >= 0, got {quote(value)} (seats are 0 to {last}, R10)"
        )
    if value > last:
        raise fail(path, f"expected a seat from 0 to {last} (R10), got {quote(value)}")
    return value


def _describe(value: object) -> str:
    return f"the string {quote(value)}" if isinstance(value, str) else describe(value)


def _read_masterpieces(
    value: object, path: str, seen: dict[Card, str], catalogue: Catalogue
) -> tuple[Masterpiece, ...]:
    masterpieces: list[Masterpiece] = []
    ids: dict[str, str] = {}
    per_owner: dict[int, int] = {}
    novels = len(catalogue.publishable)
    copies = sum(spec.copies for spec in catalogue.publishable)
    items = read_array(value, path)
    if len(items) > copies:
        raise fail(
            path,
            f"{len(items)} Masterpieces, more than the {copies} publishable copies of "
            f"catalogue {quote(catalogue.name)} (R2, R6)",
        )
    for index, entry in enumerate(items):
        where = f"{path}[{index}]"
        item = read_object(entry, where, _MASTERPIECE_FIELDS)
        ident = item["id"]
        if not isinstance(ident, str) or not ident:
            raise fail(f"{where}.id", f"expected a non-empty string, got {describe(ident)}")
        if ident in ids:
            raise fail(
                f"{where}.id", f"masterpiece id {quote(ident)} repeated (also at {ids[ident]})"
            )
        ids[ident] = where
        owner = _read_seat(item["owner"], f"{where}.owner")
        per_owner[owner] = per_owner.get(owner, 0) + 1
        if per_owner[owner] > novels:
            raise fail(
                f"{where}.owner",
                f"player {owner} would hold more Masterpieces than the {novels} publishable "
                f"Novels of catalogue {quote(catalogue.name)}, and nobody holds one Novel "
                "twice (R6)",
            )
        card = _place(item["card"], f"{where}.card", seen)
        masterpieces.append(Masterpiece(ident, owner, card))
    return tuple(masterpieces)


def _read_novel_id(value: object, path: str, catalogue: Catalogue) -> str:
    if not isinstance(value, str):
        raise fail(path, f"expected a Novel id such as 'kind-3', got {describe(value)}")
    if value not in catalogue:
        raise fail(path, f"unknown novel id {quote(value)} in catalogue {catalogue.name!r} (R2)")
    return value


def _read_held(value: object, path: str, catalogue: Catalogue) -> frozenset[str]:
    held: dict[str, str] = {}
    for index, entry in enumerate(read_array(value, path)):
        where = f"{path}[{index}]"
        novel = _read_novel_id(entry, where, catalogue)
        if novel in held:
            raise fail(
                where,
                f"novel {quote(novel)} listed twice (also at {held[novel]}); "
                "nobody holds two copies of one Novel (R6)",
            )
        held[novel] = where
    return frozenset(held)


def _read_supply(value: object, path: str, catalogue: Catalogue) -> dict[str, int]:
    data = read_object(value, path, (), None)
    supply: dict[str, int] = {}
    for novel, copies in data.items():
        where = member(path, novel)
        if novel not in catalogue:
            raise fail(
                where, f"unknown novel id {quote(novel)} in catalogue {catalogue.name!r} (R2)"
            )
        supply[novel] = read_int(copies, where, 0, catalogue[novel].copies)
    return supply


def _read_constraints(value: object, path: str, hand: set[Card]) -> Constraints:
    data = read_object(value, path, (), _CONSTRAINT_FIELDS)
    keep: dict[Card, str] = {}
    for index, entry in enumerate(read_array(data.get("keep", []), f"{path}.keep")):
        where = f"{path}.keep[{index}]"
        card = _place(entry, where, keep)
        if card not in hand:
            raise fail(where, f"card {card} is not in the hand")
    no_cite: dict[int, str] = {}
    for index, entry in enumerate(read_array(data.get("no_cite", []), f"{path}.no_cite")):
        where = f"{path}.no_cite[{index}]"
        seat = _read_seat(entry, where)
        if seat in no_cite:
            raise fail(where, f"player {seat} listed twice (also at {no_cite[seat]})")
        no_cite[seat] = where
    limits: dict[str, int | None] = {}
    for name in ("max_gifts", "min_points"):
        raw = data.get(name)
        limits[name] = None if raw is None else read_int(raw, f"{path}.{name}", 0)
    return Constraints(
        keep=frozenset(keep),
        no_cite=frozenset(no_cite),
        max_gifts=limits["max_gifts"],
        min_points=limits["min_points"],
    )


# ----------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------
def position_to_dict(
    position: Position, *, constraints: Constraints | None = None
) -> dict[str, Any]:
    """The JSON form of ``position`` (and of ``constraints``, when any is set).

    Every field is written: the hand in canonical order, the Masterpieces in
    position order, held Novels and supply entries in catalogue order (only
    the Novels with copies gone), and the catalogue as ``"default"`` or embedded
    in full. :func:`query_from_dict` reads it back.

    >>> pos = Position.quick("MYS7 FAN7", table="m1=0:SCI7", held="pairs-3", supply={"kind-3": 0})
    >>> data = position_to_dict(pos, constraints=Constraints(max_gifts=0))
    >>> data
    {'player': 0, 'hand': ['MYS7', 'FAN7'], 'masterpieces': [{'id': 'm1', 'owner': 0, 'card': 'SCI7'}],
     'held_novels': ['pairs-3'], 'supply': {'kind-3': 0}, 'catalogue': 'default',
     'constraints': {'max_gifts': 0}}
    >>> loaded, constraints = query_from_dict(data)
    >>> loaded.constraints == constraints == Constraints(max_gifts=0)
    True
    >>> loaded == Position.quick("MYS7 FAN7", table="m1=0:SCI7", held="pairs-3",
    ...                          supply={"kind-3": 0}, constraints=constraints)
    True
    """
    catalogue = position.catalogue
    data: dict[str, Any] = {
        "player": position.player,
        "hand": [str(card) for card in position.hand],
        "masterpieces": [
            {"id": mp.id, "owner": mp.owner, "card": str(mp.card)} for mp in position.masterpieces
        ],
        "held_novels": [novel for novel in catalogue if novel in position.held_novels],
        "supply": {
            spec.id: position.supply[spec.id]
            for spec in catalogue.specs
            if position.supply[spec.id] != spec.copies
        },
        "catalogue": _DEFAULT_CATALOGUE if catalogue.is_default else catalogue.to_dict(),
    }
    cons = constraints if constraints is not None else position.constraints
    if not cons.is_empty:
        data["constraints"] = cons.to_dict()
    return data


def position_to_json(
    position: Position, *, constraints: Constraints | None = None, indent: int | None = 2
) -> str:
    """The JSON text of :func:`position_to_dict` (keys in the documented order).

    >>> print(position_to_json(Position.quick("HOR7", player=1), indent=None))
    {"player": 1, "hand": ["HOR7"], "masterpieces": [], "held_novels": [], "supply": {}, "catalogue": "default"}
    """
    return json.dumps(position_to_dict(position, constraints=constraints), indent=indent)


# ----------------------------------------------------------------------
# Schemas
# ----------------------------------------------------------------------
def schema(name: str) -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) shipped with the package: ``"position"``, ``"publishes"``,
    ``"hint"``, ``"outs"`` or ``"review"``.

    ``position`` describes the documents this module reads; ``publishes`` the
    report of ``pastiche publishes --json``; ``hint`` the ranked moves of
    ``POST /v1/hint``; ``outs`` the document of ``pastiche outs --json``; ``review`` the
    ``pastiche review --json`` document. Each call returns a fresh dict.

    >>> schema("position")["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    >>> sorted(schema("publishes")["required"])
    ['complete', 'engine', 'format', 'options', 'pareto', 'player', 'version']
    >>> schema("state")
    Traceback (most recent call last):
    ...
    ValueError: unknown schema 'state': expected one of 'position', 'publishes', 'hint', 'outs', 'review'
    """
    if name not in SCHEMAS:
        names = ", ".join(repr(known) for known in SCHEMAS)
        raise ValueError(f"unknown schema {name!r}: expected one of {names}")
    folder = resources.files("pastiche_core.io").joinpath("schemas")
    text = folder.joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
