"""The Novel catalogue: which Novels exist, what they need and what they score (R2, R3).

The sources print only part of the Novel table, so the default catalogue is a
*reconstruction* (R2): each :class:`NovelSpec` carries a ``provenance`` saying
whether it is printed or reconstructed. A catalogue is data; build one in Python
or load one from TOML or JSON (R3). Loading never imports or calls code named by
the data: an entry names a built-in pattern kind or one the program registered
with :func:`~pastiche_core.data.registry.register_pattern`. Every catalogue stays
within the limits of :mod:`pastiche_core.data.limits`.

>>> cat = Catalogue.default()
>>> len(cat), cat.total_copies
(11, 34)
>>> cat["straight-5"]
NovelSpec(id='straight-5', name='5-Card Straight', pattern=Straight(length=5),
          points=1, copies=4, provenance='printed')
>>> [spec.id for spec in cat.publishable][:3]
['straight-5', 'straight-7', 'straight-9']
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import InvalidCatalogueError
from .files import read_text
from .limits import (
    MAX_COPIES,
    MAX_ID_LENGTH,
    MAX_JSON_BYTES,
    MAX_NAME_LENGTH,
    MAX_NOVELS,
    MAX_PARAM_ITEMS,
    MAX_PARAM_TEXT,
    MAX_PARAMS,
    MAX_PATTERN_CARDS,
    MAX_POINTS,
    MAX_PROVENANCE_LENGTH,
    MAX_TOTAL_COPIES,
)
from .patterns import OfAKind, Pairs, Pattern, Straight, Total
from .registry import BUILTIN_KINDS, pattern_factory, registered_patterns

__all__ = [
    "END_FLAG_ID",
    "SHIPPED_CATALOGUES",
    "Catalogue",
    "NovelSpec",
    "load_catalogue",
]

END_FLAG_ID = "end-flag"
"""The id of the End Flag entry, which every catalogue has exactly once (R12)."""


@dataclass(frozen=True, slots=True)
class NovelSpec:
    """One Novel card type: id, printed name, requirement, points and copies.

    ``pattern`` is ``None`` only for the End Flag, which is never published (R12).

    >>> spec = Catalogue.default()["kind-3"]
    >>> spec.points, spec.copies, spec.publishable, spec.requirement
    (1, 5, True, '3 cards of one rank')
    """

    id: str
    """The unique id that moves, positions and files name the Novel by (``'straight-5'``):
    non-empty, at most 32 characters, without spaces, ``,`` or ``:`` (R3)."""
    name: str
    """The name printed on the card (``'5-Card Straight'``): non-empty, at most 64 characters."""
    pattern: Pattern | None
    """The requirement the played and cited cards must meet exactly (R4); ``None`` only for the End
    Flag, which is never published (R12)."""
    points: int
    """The points the Novel scores as a Masterpiece (R13), or the End Flag's (R12): 0 to 99 in a
    catalogue; the sources print 1 to 9 (R2)."""
    copies: int
    """The copies of the card in the supply, first come, first served (R2, R6): 1 to 20 in a
    catalogue, exactly 1 for the End Flag."""
    provenance: str = "custom"
    """Where the entry comes from, free text of at most 200 characters: in the default catalogue
    ``'printed'`` or ``'reconstructed'`` (with a note for the totals, R2); ``'custom'`` unless
    given."""

    @property
    def publishable(self) -> bool:
        """Whether the Novel can be published (everything but the End Flag)."""
        return self.pattern is not None

    @property
    def requirement(self) -> str:
        """The requirement in words."""
        if self.pattern is None:
            return "not publishable (R12)"
        return self.pattern.describe()

    def to_dict(self) -> dict[str, Any]:
        """The TOML/JSON form of this entry (see :meth:`Catalogue.from_dict`)."""
        data: dict[str, Any] = {"id": self.id, "name": self.name}
        data.update({"kind": "end-flag"} if self.pattern is None else self.pattern.to_dict())
        data.update(points=self.points, copies=self.copies, provenance=self.provenance)
        return data


_PATTERN_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    "straight": (Straight, ("length",)),
    "kind": (OfAKind, ("count",)),
    "pairs": (Pairs, ("pairs",)),
    "total": (Total, ("count", "target")),
}
_BUILTIN_PATTERNS = (Straight, OfAKind, Pairs, Total)
_COMMON_FIELDS = ("id", "name", "kind", "points", "copies", "provenance")
_PARAM_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")
_INT64 = 1 << 63
_NO_CODE = (
    "catalogue data never names code, so no 'factory' and no kind 'custom'; register the "
    "pattern in Python with register_pattern(kind, factory) and name that kind here, "
    "its parameters under 'params' (R3)"
)


class Catalogue(Mapping[str, NovelSpec]):
    """An ordered, validated, immutable collection of :class:`NovelSpec` keyed by id.

    Validation (R3): ids are unique, non-empty, printable and without spaces,
    ``,`` or ``:``; names are printable; points, copies, text lengths and pattern
    sizes stay within :mod:`pastiche_core.data.limits`; and there is exactly one End
    Flag entry with one copy (R12).

    >>> from pastiche_core import Straight
    >>> small = Catalogue([
    ...     NovelSpec("run-3", "Short Run", Straight(3), points=1, copies=2),
    ...     NovelSpec(END_FLAG_ID, "End Flag", None, points=1, copies=1),
    ... ], name="small")
    >>> small
    <Catalogue 'small': 2 novels, 3 cards>
    >>> "run-3" in small
    True
    """

    __slots__ = ("_by_id", "_publishable", "_specs", "name", "rules_table")

    def __init__(
        self,
        novels: Sequence[NovelSpec],
        *,
        name: str = "custom",
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        _check_text("catalogue name", name, "catalogue", MAX_NAME_LENGTH)
        table = _rules_table(rules, f"catalogue {name!r}: rules") if rules is not None else None
        specs = tuple(novels)
        if len(specs) > MAX_NOVELS:
            raise InvalidCatalogueError(
                f"catalogue {name!r}: has {len(specs)} entries, more than {MAX_NOVELS} (R3)"
            )
        by_id: dict[str, NovelSpec] = {}
        flags = 0
        for index, spec in enumerate(specs):
            where = f"novels[{index}] ({_show(getattr(spec, 'id', '?'))})"
            if not isinstance(spec, NovelSpec):
                raise InvalidCatalogueError(f"{where}: expected a NovelSpec, got {spec!r}")
            _validate_spec(spec, where)
            if spec.id in by_id:
                raise InvalidCatalogueError(f"{where}: duplicate id {spec.id!r}")
            by_id[spec.id] = spec
            if spec.pattern is None:
                flags += 1
                if spec.id != END_FLAG_ID or spec.copies != 1:
                    raise InvalidCatalogueError(
                        f"{where}: the End Flag must have id {END_FLAG_ID!r} and 1 copy (R12)"
                    )
        if flags != 1:
            raise InvalidCatalogueError(
                f"catalogue {name!r}: needs exactly one End Flag entry (kind 'end-flag', R12), "
                f"found {flags}"
            )
        if not any(spec.publishable for spec in specs):
            raise InvalidCatalogueError(f"catalogue {name!r}: has no publishable novel")
        copies = sum(spec.copies for spec in specs)
        if copies > MAX_TOTAL_COPIES:
            raise InvalidCatalogueError(
                f"catalogue {name!r}: has {copies} Novel cards, more than {MAX_TOTAL_COPIES} (R3)"
            )
        self._specs = specs
        self._by_id = by_id
        self._publishable = tuple(spec for spec in specs if spec.publishable)
        self.name = name
        """The catalogue's name (``'default'`` for R2's), as messages, records and simulation
        summaries name it: non-empty, at most 64 characters."""
        self.rules_table = table
        """The house rules the catalogue's games are played by: its ``[rules]`` table as read,
        ``(field, value)`` pairs (each a field of :class:`~pastiche_core.engine.rules.Rules`, a list
        made a tuple), or ``None`` for the rulebook's. :func:`~pastiche_core.engine.rules.rules_of` makes the ``Rules`` of it; the
        Novels alone make a catalogue's equality."""

    # Mapping interface -------------------------------------------------
    def __getitem__(self, novel_id: str) -> NovelSpec:
        try:
            return self._by_id[novel_id]
        except KeyError:
            raise KeyError(f"unknown novel id {novel_id!r} in catalogue {self.name!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, novel_id: object) -> bool:
        return novel_id in self._by_id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalogue):
            return NotImplemented
        return self._specs == other._specs

    def __hash__(self) -> int:
        return hash(self._specs)

    def __repr__(self) -> str:
        return f"<Catalogue {self.name!r}: {len(self)} novels, {self.total_copies} cards>"

    # Queries -----------------------------------------------------------
    @property
    def specs(self) -> tuple[NovelSpec, ...]:
        """All entries in catalogue order."""
        return self._specs

    @property
    def publishable(self) -> tuple[NovelSpec, ...]:
        """The entries that can be published (all but the End Flag)."""
        return self._publishable

    @property
    def end_flag(self) -> NovelSpec:
        """The End Flag entry (R12)."""
        return self._by_id[END_FLAG_ID]

    @property
    def total_copies(self) -> int:
        """Number of physical Novel cards, End Flag included."""
        return sum(spec.copies for spec in self._specs)

    @property
    def is_default(self) -> bool:
        """Whether this is the reconstructed default catalogue of R2."""
        return self == _DEFAULT

    # Construction ------------------------------------------------------
    # home: R2
    @classmethod
    def default(cls) -> Catalogue:
        """The reconstructed default catalogue of R2 (34 cards with the End Flag)."""
        return _DEFAULT

    # home: R3
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, name: str | None = None) -> Catalogue:
        """Build a catalogue from its TOML/JSON form, naming the entry on any error.

        The form is ``{"name": ..., "novels": [entry, ...]}``; each entry has
        ``id``, ``name``, ``kind``, the kind's parameters, ``points``, ``copies``
        and optionally ``provenance``. Built-in kinds and their parameters (fields
        of the entry): ``straight`` (``length``), ``kind`` (``count``), ``pairs``
        (``pairs``), ``total`` (``count``, ``target``) and ``end-flag`` (none). Any
        other kind must be registered with
        :func:`~pastiche_core.data.registry.register_pattern`; its parameters are plain
        values in an optional ``params`` table, passed to the registered factory as
        keyword arguments. Data never names code: a ``factory`` field or kind
        ``custom`` is refused.

        >>> cat = Catalogue.from_dict({"name": "mini", "novels": [
        ...     {"id": "pair", "name": "A Pair", "kind": "kind", "count": 2,
        ...      "points": 1, "copies": 9},
        ...     {"id": "end-flag", "name": "End Flag", "kind": "end-flag",
        ...      "points": 1, "copies": 1},
        ... ]})
        >>> cat["pair"].pattern
        OfAKind(count=2)
        >>> Catalogue.from_dict({"novels": [{"id": "p", "name": "P", "kind": "pairs",
        ...     "pairs": 0, "points": 1, "copies": 1}]})
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidCatalogueError: novels[0] ('p'):
            pairs must be an integer from 1 to 6, got 0
        >>> Catalogue.from_dict({"novels": [{"id": "x", "name": "X", "kind": "custom",
        ...     "factory": "os:system", "points": 1, "copies": 1}]})
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.InvalidCatalogueError: novels[0] ('x'): catalogue data never names
            code, so no 'factory' and no kind 'custom'; register the pattern in Python with
            register_pattern(kind, factory) and name that kind here, its parameters under
            'params' (R3)
        """
        if not isinstance(data, Mapping):
            raise InvalidCatalogueError(f"catalogue: expected a table, got {type(data).__name__}")
        cat_name = name if name is not None else data.get("name", "custom")
        if not isinstance(cat_name, str):
            raise InvalidCatalogueError(f"name: expected a string, got {_show(cat_name)}")
        unknown = set(data) - {"name", "novels", "rules"}
        if unknown:
            raise InvalidCatalogueError(f"catalogue: unknown field(s) {_fields(unknown)}")
        novels = data.get("novels")
        if not isinstance(novels, list) or not novels:
            raise InvalidCatalogueError("novels: expected a non-empty list of novel entries")
        if len(novels) > MAX_NOVELS:
            raise InvalidCatalogueError(
                f"novels: {len(novels)} entries, more than {MAX_NOVELS} (R3)"
            )
        specs = [_spec_from_dict(entry, index) for index, entry in enumerate(novels)]
        rules = data.get("rules")
        if "rules" in data and not isinstance(rules, Mapping):
            raise InvalidCatalogueError(f"rules: expected a table, got {_show(rules)}")
        return cls(specs, name=cat_name, rules=rules)

    @classmethod
    def from_toml(cls, text: str, *, name: str | None = None) -> Catalogue:
        """Parse a TOML catalogue (``[[novels]]`` tables, see :meth:`from_dict`).

        An optional ``[rules]`` table sets house rules for the catalogue's games
        (fields of :class:`~pastiche_core.engine.rules.Rules`, such as ``end_threshold = 10``):
        its shape is checked here, its numbers when a game is made
        (:func:`~pastiche_core.engine.rules.rules_of`).

        >>> cat = Catalogue.from_toml('''
        ... name = "tiny"
        ... [[novels]]
        ... id = "run-4"
        ... name = "Four in a Row"
        ... kind = "straight"
        ... length = 4
        ... points = 2
        ... copies = 3
        ... [[novels]]
        ... id = "end-flag"
        ... name = "End Flag"
        ... kind = "end-flag"
        ... points = 1
        ... copies = 1
        ... ''')
        >>> cat
        <Catalogue 'tiny': 2 novels, 4 cards>
        """
        if not isinstance(text, str):
            raise InvalidCatalogueError(f"catalogue TOML: expected a string, got {_show(text)}")
        if len(text) > MAX_JSON_BYTES:
            raise InvalidCatalogueError(
                f"catalogue TOML: {len(text):,} characters, more than {MAX_JSON_BYTES:,}"
            )
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InvalidCatalogueError(f"catalogue TOML does not parse: {error}") from None
        except ValueError as error:  # e.g. an integer of thousands of digits
            raise InvalidCatalogueError(f"catalogue TOML does not parse: {error}") from None
        except RecursionError:
            raise InvalidCatalogueError(
                "catalogue TOML does not parse: nested too deeply"
            ) from None
        return cls.from_dict(data, name=name)

    def to_dict(self) -> dict[str, Any]:
        """The TOML/JSON form; :meth:`from_dict` reads it back.

        >>> Catalogue.from_dict(Catalogue.default().to_dict()) == Catalogue.default()
        True
        """
        data: dict[str, Any] = {
            "name": self.name,
            "novels": [spec.to_dict() for spec in self._specs],
        }
        if self.rules_table is not None:
            data["rules"] = {
                key: list(value) if isinstance(value, tuple) else value
                for key, value in self.rules_table
            }
        return data


def load_catalogue(source: str | os.PathLike[str]) -> Catalogue:
    """A shipped catalogue by name (``"default"``) or a TOML catalogue file.

    The file is read safely (:func:`~pastiche_core.data.files.read_text`): a regular
    file of at most 1 MiB of UTF-8 text, never a folder, device or pipe. Errors
    name the file and the entry.

    >>> load_catalogue("default") is Catalogue.default()
    True
    >>> load_catalogue("no/such/file.toml")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: catalogue 'no/such/file.toml': no such file
    >>> load_catalogue("/dev/zero")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: catalogue '/dev/zero': not a regular file (a character device)
    """
    if isinstance(source, str) and source in SHIPPED_CATALOGUES:
        return SHIPPED_CATALOGUES[source]
    text = read_text(source, what="catalogue", error=InvalidCatalogueError)
    try:
        return Catalogue.from_toml(text, name=None)
    except InvalidCatalogueError as error:
        raise InvalidCatalogueError(f"{os.fspath(source)}: {error}") from None


def _show(value: object, limit: int = 40) -> str:
    """A short repr of a value from the data: long texts are clipped."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}..."


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else f"{text[:limit]}..."


def _fields(names: set[Any]) -> str:
    shown = sorted(_show(name) for name in names)
    return f"[{', '.join(shown[:8])}{', ...' if len(shown) > 8 else ''}]"


def _check_text(field: str, value: object, where: str, limit: int, *, empty: bool = False) -> None:
    if not isinstance(value, str):
        raise InvalidCatalogueError(f"{where}: {field} must be a string, got {_show(value)}")
    if not empty and not value.strip():
        raise InvalidCatalogueError(f"{where}: {field} must be a non-empty string")
    if len(value) > limit:
        raise InvalidCatalogueError(
            f"{where}: {field} has {len(value)} characters, more than {limit} (R3)"
        )
    if not value.isprintable():
        raise InvalidCatalogueError(
            f"{where}: {field} {_show(value)} holds a control character, a NUL or a lone "
            "surrogate (R3)"
        )


def _check_int(field: str, value: object, where: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidCatalogueError(
            f"{where}: {field} must be an integer from {low} to {high}, got {_show(value)}"
        )


def _validate_spec(spec: NovelSpec, where: str) -> None:
    if not isinstance(spec.id, str) or not spec.id.strip() or spec.id != spec.id.strip():
        raise InvalidCatalogueError(f"{where}: id must be a non-empty string without spaces")
    if len(spec.id) > MAX_ID_LENGTH:
        raise InvalidCatalogueError(
            f"{where}: id has {len(spec.id)} characters, more than {MAX_ID_LENGTH} (R3)"
        )
    if any(ch.isspace() or ch in ",:" for ch in spec.id):
        raise InvalidCatalogueError(f"{where}: id {spec.id!r} may not contain spaces, ',' or ':'")
    if not spec.id.isprintable():
        raise InvalidCatalogueError(
            f"{where}: id {spec.id!r} holds a control character, a NUL or a lone surrogate (R3)"
        )
    _check_text("name", spec.name, where, MAX_NAME_LENGTH)
    _check_int("points", spec.points, where, 0, MAX_POINTS)
    _check_int("copies", spec.copies, where, 1, MAX_COPIES)
    pattern = spec.pattern
    if pattern is not None:
        if isinstance(pattern, type) or not isinstance(pattern, Pattern):
            raise InvalidCatalogueError(
                f"{where}: pattern {_show(pattern)} does not follow Pattern"
            )
        size = pattern.size
        if size is not None and (
            isinstance(size, bool)
            or not isinstance(size, int)
            or not 1 <= size <= MAX_PATTERN_CARDS
        ):
            raise InvalidCatalogueError(
                f"{where}: the pattern needs {_show(size)} cards; a pattern needs 1 to "
                f"{MAX_PATTERN_CARDS} cards (R3)"
            )
    _check_text("provenance", spec.provenance, where, MAX_PROVENANCE_LENGTH, empty=True)


def _spec_from_dict(entry: object, index: int) -> NovelSpec:
    raw_id = entry.get("id", "?") if isinstance(entry, Mapping) else "?"
    where = f"novels[{index}] ({_show(raw_id)})"
    if not isinstance(entry, Mapping):
        raise InvalidCatalogueError(f"novels[{index}]: expected a table, got {_show(entry)}")
    if "factory" in entry or entry.get("kind") == "custom":
        raise InvalidCatalogueError(f"{where}: {_NO_CODE}")
    for field in ("id", "name", "kind", "points", "copies"):
        if field not in entry:
            raise InvalidCatalogueError(f"{where}: missing field {field!r}")
    kind = entry["kind"]
    if not isinstance(kind, str):  # an unhashable kind would escape as a raw TypeError
        raise InvalidCatalogueError(f"{where}: kind must be a string, got {_show(kind)}")
    pattern: Pattern | None
    if kind == "end-flag":
        params: tuple[str, ...] = ()
        pattern = None
    elif kind in _PATTERN_FIELDS:
        factory, params = _PATTERN_FIELDS[kind]
        missing = [p for p in params if p not in entry]
        if missing:
            raise InvalidCatalogueError(f"{where}: kind {kind!r} needs field {missing[0]!r}")
        try:
            pattern = factory(*(entry[p] for p in params))
        except ValueError as error:
            raise InvalidCatalogueError(f"{where}: {error}") from None
    else:
        params = ("params",)
        pattern = _registered_pattern(kind, entry.get("params", {}), where)
    unknown = set(entry) - set(_COMMON_FIELDS) - set(params)
    if unknown:
        raise InvalidCatalogueError(f"{where}: unknown field(s) {_fields(unknown)}")
    spec = NovelSpec(
        id=entry["id"],
        name=entry["name"],
        pattern=pattern,
        points=entry["points"],
        copies=entry["copies"],
        provenance=entry.get("provenance", "custom"),
    )
    _validate_spec(spec, where)
    return spec


def _registered_pattern(kind: str, params: object, where: str) -> Pattern:
    """The pattern of a registered kind, from the entry's plain ``params`` (R3)."""
    factory = pattern_factory(kind)
    if factory is None:
        known = list(registered_patterns())
        listed = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "") if known else "none"
        raise InvalidCatalogueError(
            f"{where}: unknown kind {_show(kind)}: expected a built-in kind "
            f"({', '.join(BUILTIN_KINDS)}) or one registered with register_pattern "
            f"(registered: {listed})"
        )
    arguments = _plain_params(params, where)
    try:
        pattern = factory(**arguments)
    except Exception as error:  # a registered factory's refusal of the data is reported
        raise InvalidCatalogueError(
            f"{where}: kind {kind!r} refused its params: {type(error).__name__}: "
            f"{_clip(str(error))}"
        ) from None
    if isinstance(pattern, type) or not isinstance(pattern, Pattern):
        raise InvalidCatalogueError(
            f"{where}: the factory of kind {kind!r} did not return a Pattern"
        )
    if pattern.kind != kind and not isinstance(pattern, _BUILTIN_PATTERNS):
        raise InvalidCatalogueError(
            f"{where}: the factory of kind {kind!r} returned a pattern of kind "
            f"{_show(pattern.kind)}, which would not load back (R3)"
        )
    return pattern


def _plain_params(params: object, where: str) -> dict[str, Any]:
    """The ``params`` table: names to plain values (text, numbers, booleans, arrays of them)."""
    if not isinstance(params, Mapping):
        raise InvalidCatalogueError(f"{where}: params must be a table, got {_show(params)}")
    if len(params) > MAX_PARAMS:
        raise InvalidCatalogueError(
            f"{where}: params has {len(params)} entries, more than {MAX_PARAMS} (R3)"
        )
    plain: dict[str, Any] = {}
    for key, value in params.items():
        if not isinstance(key, str) or not _PARAM_NAME.fullmatch(key):
            raise InvalidCatalogueError(
                f"{where}: params name {_show(key)} is not a plain name "
                "(a letter, then up to 31 letters, digits or '_')"
            )
        field = f"params.{key}"
        if isinstance(value, list):
            if len(value) > MAX_PARAM_ITEMS:
                raise InvalidCatalogueError(
                    f"{where}: {field} has {len(value)} items, more than {MAX_PARAM_ITEMS} (R3)"
                )
            for item_index, item in enumerate(value):
                _check_scalar(f"{field}[{item_index}]", item, where)
            plain[key] = list(value)
        else:
            _check_scalar(field, value, where)
            plain[key] = value
    return plain


def _check_scalar(field: str, value: object, where: str) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -_INT64 <= value < _INT64:
            raise InvalidCatalogueError(f"{where}: {field} is out of the 64-bit integer range")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidCatalogueError(f"{where}: {field} must be a finite number")
        return
    if isinstance(value, str):
        _check_text(field, value, where, MAX_PARAM_TEXT, empty=True)
        return
    raise InvalidCatalogueError(
        f"{where}: {field} must be text, a number, a boolean or an array of them, "
        f"got {type(value).__name__}"
    )


_RULE_ENTRIES = 8
"""The most entries a ``[rules]`` table may have (R3: data is bounded)."""
_RULE_ITEMS = 8
"""The most integers one entry of a ``[rules]`` table may list."""
_RULE_VALUE = 10**6
"""The largest integer a ``[rules]`` table may hold."""


def _rules_table(table: object, where: str) -> tuple[tuple[str, Any], ...]:
    """A ``[rules]`` table checked as untrusted data: at most 8 entries named by short
    identifiers, each an integer or a list of at most 8 integers, all within 0..10^6;
    what they mean is the rules' check (:func:`~pastiche_core.engine.rules.rules_of`)."""
    if not isinstance(table, Mapping):
        raise InvalidCatalogueError(f"{where}: expected a table, got {_show(table)}")
    if len(table) > _RULE_ENTRIES:
        raise InvalidCatalogueError(
            f"{where}: {len(table)} entries, more than {_RULE_ENTRIES} (R3)"
        )
    checked: list[tuple[str, Any]] = []
    for key, value in table.items():
        if not isinstance(key, str) or not _RULE_KEY.fullmatch(key):
            raise InvalidCatalogueError(f"{where}: {_show(key)} is not a field name")
        items = value if isinstance(value, list | tuple) else [value]
        if isinstance(value, list | tuple) and len(value) > _RULE_ITEMS:
            raise InvalidCatalogueError(
                f"{where}: {key} lists {len(value)} numbers, more than {_RULE_ITEMS}"
            )
        for item in items:
            if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= _RULE_VALUE:
                raise InvalidCatalogueError(
                    f"{where}: {key} must be an integer from 0 to {_RULE_VALUE:,} or a list of "
                    f"them, got {_show(value)}"
                )
        checked.append((key, tuple(value) if isinstance(value, list | tuple) else value))
    return tuple(checked)


_RULE_KEY = re.compile(r"[a-z_]{1,32}")


_DEFAULT = Catalogue(
    [
        NovelSpec("straight-5", "5-Card Straight", Straight(5), 1, 4, "printed"),
        NovelSpec("straight-7", "7-Card Straight", Straight(7), 3, 3, "reconstructed"),
        NovelSpec("straight-9", "9-Card Straight", Straight(9), 6, 2, "reconstructed"),
        NovelSpec("straight-11", "11-Card Straight", Straight(11), 9, 1, "reconstructed"),
        NovelSpec("kind-3", "3 of a Kind", OfAKind(3), 1, 5, "reconstructed"),
        NovelSpec("kind-5", "5 of a Kind", OfAKind(5), 6, 2, "reconstructed"),
        NovelSpec("pairs-3", "Three Pairs", Pairs(3), 2, 5, "reconstructed"),
        NovelSpec("pairs-4", "Four Pairs", Pairs(4), 4, 3, "reconstructed"),
        NovelSpec("total-5", "Five for 49", Total(5, 49), 2, 5, "reconstructed from note *4"),
        NovelSpec("total-7", "Seven for 49", Total(7, 49), 3, 3, "reconstructed from note *4"),
        NovelSpec(END_FLAG_ID, "End Flag", None, 1, 1, "printed"),
    ],
    name="default",
)

SHIPPED_CATALOGUES: Mapping[str, Catalogue] = MappingProxyType({"default": _DEFAULT})
"""The catalogues shipped with the package, by the name a document may give instead
of embedding one (``"catalogue": "default"``)."""
