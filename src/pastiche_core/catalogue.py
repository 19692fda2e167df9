"""The Novel catalogue: which Novels exist, what they need and what they score (R2, R3).

The sources print only part of the Novel table, so the default catalogue is a
*reconstruction* (R2): each :class:`NovelSpec` carries a ``provenance`` saying
whether it is printed or reconstructed. A catalogue is data; build one in Python
or load one from TOML (R3).

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

import importlib
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InvalidCatalogueError
from .patterns import OfAKind, Pairs, Pattern, Straight, Total

__all__ = [
    "END_FLAG_ID",
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
    name: str
    pattern: Pattern | None
    points: int
    copies: int
    provenance: str = "custom"

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
_COMMON_FIELDS = ("id", "name", "kind", "points", "copies", "provenance")


class Catalogue(Mapping[str, NovelSpec]):
    """An ordered, validated, immutable collection of :class:`NovelSpec` keyed by id.

    Validation (R3): ids are unique non-empty strings, points are integers >= 0,
    copies are integers >= 1, and there is exactly one End Flag entry with one copy.

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

    __slots__ = ("_by_id", "_specs", "name")

    def __init__(self, novels: Sequence[NovelSpec], *, name: str = "custom") -> None:
        specs = tuple(novels)
        by_id: dict[str, NovelSpec] = {}
        flags = 0
        for index, spec in enumerate(specs):
            where = f"novels[{index}] ({getattr(spec, 'id', '?')!r})"
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
        self._specs = specs
        self._by_id = by_id
        self.name = name

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
        return tuple(spec for spec in self._specs if spec.publishable)

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
    @classmethod
    def default(cls) -> Catalogue:
        """The reconstructed default catalogue of R2 (34 cards with the End Flag)."""
        return _DEFAULT

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, name: str | None = None) -> Catalogue:
        """Build a catalogue from its TOML/JSON form, naming the entry on any error.

        The form is ``{"name": ..., "novels": [entry, ...]}``; each entry has
        ``id``, ``name``, ``kind``, the kind's parameters, ``points``, ``copies``
        and optionally ``provenance``. Kinds and parameters: ``straight``
        (``length``), ``kind`` (``count``), ``pairs`` (``pairs``), ``total``
        (``count``, ``target``), ``end-flag`` (none), and ``custom`` (``factory``
        as ``"module:callable"`` returning a :class:`Pattern`, and an optional
        ``params`` table passed as keyword arguments).

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
        pastiche_core.errors.InvalidCatalogueError: novels[0] ('p'):
            pairs must be an integer from 1 to 13, got 0
        """
        if not isinstance(data, Mapping):
            raise InvalidCatalogueError(f"catalogue: expected a table, got {type(data).__name__}")
        cat_name = name if name is not None else data.get("name", "custom")
        if not isinstance(cat_name, str):
            raise InvalidCatalogueError(f"name: expected a string, got {cat_name!r}")
        unknown = set(data) - {"name", "novels"}
        if unknown:
            raise InvalidCatalogueError(f"catalogue: unknown field(s) {sorted(unknown)}")
        novels = data.get("novels")
        if not isinstance(novels, list) or not novels:
            raise InvalidCatalogueError("novels: expected a non-empty list of novel entries")
        specs = [_spec_from_dict(entry, index) for index, entry in enumerate(novels)]
        return cls(specs, name=cat_name)

    @classmethod
    def from_toml(cls, text: str, *, name: str | None = None) -> Catalogue:
        """Parse a TOML catalogue (``[[novels]]`` tables, see :meth:`from_dict`).

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
            raise InvalidCatalogueError(f"catalogue TOML: expected a string, got {text!r}")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InvalidCatalogueError(f"catalogue TOML does not parse: {error}") from None
        return cls.from_dict(data, name=name)

    def to_dict(self) -> dict[str, Any]:
        """The TOML/JSON form; :meth:`from_dict` reads it back.

        >>> Catalogue.from_dict(Catalogue.default().to_dict()) == Catalogue.default()
        True
        """
        return {"name": self.name, "novels": [spec.to_dict() for spec in self._specs]}


def load_catalogue(source: str | Path) -> Catalogue:
    """A catalogue by name (``"default"``) or from a TOML file path.

    >>> load_catalogue("default") is Catalogue.default()
    True
    >>> load_catalogue("no/such/file.toml")
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidCatalogueError: catalogue 'no/such/file.toml': no such file
    """
    if source == "default":
        return _DEFAULT
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidCatalogueError(f"catalogue {str(source)!r}: no such file") from None
    except OSError as error:
        raise InvalidCatalogueError(f"catalogue {str(source)!r}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise InvalidCatalogueError(
            f"catalogue {str(source)!r}: not UTF-8 text ({error})"
        ) from None
    try:
        return Catalogue.from_toml(text, name=None)
    except InvalidCatalogueError as error:
        raise InvalidCatalogueError(f"{path}: {error}") from None


def _validate_spec(spec: NovelSpec, where: str) -> None:
    if not isinstance(spec.id, str) or not spec.id.strip() or spec.id != spec.id.strip():
        raise InvalidCatalogueError(f"{where}: id must be a non-empty string without spaces")
    if any(ch.isspace() or ch in ",:" for ch in spec.id):
        raise InvalidCatalogueError(f"{where}: id {spec.id!r} may not contain spaces, ',' or ':'")
    if not isinstance(spec.name, str) or not spec.name:
        raise InvalidCatalogueError(f"{where}: name must be a non-empty string")
    for field in ("points", "copies"):
        value = getattr(spec, field)
        low = 0 if field == "points" else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InvalidCatalogueError(
                f"{where}: {field} must be an integer >= {low}, got {value!r}"
            )
    if spec.pattern is not None and (
        isinstance(spec.pattern, type) or not isinstance(spec.pattern, Pattern)
    ):
        raise InvalidCatalogueError(f"{where}: pattern {spec.pattern!r} does not follow Pattern")
    if not isinstance(spec.provenance, str):
        raise InvalidCatalogueError(f"{where}: provenance must be a string")


def _spec_from_dict(entry: object, index: int) -> NovelSpec:
    raw_id = entry.get("id", "?") if isinstance(entry, Mapping) else "?"
    where = f"novels[{index}] ({raw_id!r})"
    if not isinstance(entry, Mapping):
        raise InvalidCatalogueError(f"novels[{index}]: expected a table, got {entry!r}")
    for field in ("id", "name", "kind", "points", "copies"):
        if field not in entry:
            raise InvalidCatalogueError(f"{where}: missing field {field!r}")
    kind = entry["kind"]
    if not isinstance(kind, str):  # an unhashable kind would escape as a raw TypeError
        raise InvalidCatalogueError(f"{where}: kind must be a string, got {kind!r}")
    pattern: Pattern | None
    if kind == "end-flag":
        params: tuple[str, ...] = ()
        pattern = None
    elif kind == "custom":
        params = ("factory", "params")
        pattern = _custom_pattern(entry, where)
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
        kinds = ", ".join([*_PATTERN_FIELDS, "custom", "end-flag"])
        raise InvalidCatalogueError(f"{where}: unknown kind {kind!r} (expected one of {kinds})")
    unknown = set(entry) - set(_COMMON_FIELDS) - set(params)
    if unknown:
        raise InvalidCatalogueError(f"{where}: unknown field(s) {sorted(unknown)}")
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


def _custom_pattern(entry: Mapping[str, Any], where: str) -> Pattern:
    factory_path = entry.get("factory")
    if not isinstance(factory_path, str) or ":" not in factory_path:
        raise InvalidCatalogueError(f"{where}: kind 'custom' needs factory = 'module:callable'")
    module_name, _, attr = factory_path.partition(":")
    params = entry.get("params", {})
    if not isinstance(params, Mapping):
        raise InvalidCatalogueError(f"{where}: params must be a table")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
        pattern = target(**params)
    except Exception as error:  # any failure of user code is reported, not raised raw
        raise InvalidCatalogueError(
            f"{where}: factory {factory_path!r} failed: {type(error).__name__}: {error}"
        ) from None
    if isinstance(pattern, type) or not isinstance(pattern, Pattern):
        raise InvalidCatalogueError(f"{where}: factory {factory_path!r} did not return a Pattern")
    return pattern


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
