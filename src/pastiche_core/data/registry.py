"""Pattern kinds a catalogue may name: the built-in ones and those registered in Python (R3).

A catalogue is data. Each entry names its pattern by *kind*: one of the
:data:`BUILTIN_KINDS`, or a kind the program registered with
:func:`register_pattern`. Loading a catalogue (from a dict, TOML, a position, a
state or a record) never imports or calls code chosen by the data: it looks the
kind up here and calls the factory the program registered, with the entry's
plain ``params`` as keyword arguments.

>>> from pastiche_core import Catalogue, CustomPattern
>>> class Sevens(CustomPattern):
...     kind = "sevens"
...     def __init__(self, count=3):
...         self.count = self.size = count
...     def matches(self, ranks):
...         return len(ranks) == self.count and set(ranks) == {7}
...     def to_dict(self):
...         return {"kind": "sevens", "params": {"count": self.count}}
>>> register_pattern("sevens", Sevens)
>>> cat = Catalogue.from_dict({"novels": [
...     {"id": "sevens-4", "name": "Lucky", "kind": "sevens", "params": {"count": 4},
...      "points": 3, "copies": 2},
...     {"id": "end-flag", "name": "End Flag", "kind": "end-flag", "points": 1, "copies": 1},
... ]})
>>> cat["sevens-4"].pattern.count
4
>>> cat.to_dict()["novels"][0]
{'id': 'sevens-4', 'name': 'Lucky', 'kind': 'sevens', 'params': {'count': 4},
 'points': 3, 'copies': 2, 'provenance': 'custom'}
>>> Catalogue.from_dict(cat.to_dict())["sevens-4"].pattern.count
4
>>> unregister_pattern("sevens")
>>> "sevens" in registered_patterns()
False
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType

from .errors import InvalidCatalogueError
from .limits import MAX_KIND_LENGTH
from .patterns import Pattern

__all__ = [
    "BUILTIN_KINDS",
    "PatternFactory",
    "pattern_factory",
    "register_pattern",
    "registered_patterns",
    "unregister_pattern",
]

BUILTIN_KINDS = ("straight", "kind", "pairs", "total", "end-flag")
"""The kinds every catalogue may name without registration (R2, R3)."""

PatternFactory = Callable[..., Pattern]
"""A class or callable that takes keyword parameters and returns a :class:`~pastiche_core.data.patterns.Pattern`."""

# "custom" named code in older catalogues; it stays reserved so such an entry is
# always refused with a message, never matched by a registration.
_RESERVED = frozenset((*BUILTIN_KINDS, "custom"))
_KIND = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
_lock = threading.Lock()
_factories: dict[str, PatternFactory] = {}


def register_pattern(kind: str, factory: PatternFactory, *, replace: bool = False) -> None:
    """Let catalogue entries of ``kind`` build their pattern with ``factory`` (R3).

    ``kind`` is a clean identifier: lower-case ASCII letters and digits, words
    joined by ``-`` or ``_``, starting with a letter, at most
    :data:`~pastiche_core.data.limits.MAX_KIND_LENGTH` characters, and not a built-in
    kind. ``factory`` is a class or callable taking the entry's ``params`` as
    keyword arguments and returning a pattern whose ``kind`` is ``kind`` (or a
    built-in pattern). Registering the same factory again does nothing; another
    factory for a registered kind is refused unless ``replace`` is true.

    >>> from pastiche_core import Straight
    >>> register_pattern("short-run", lambda length=3: Straight(length))
    >>> register_pattern("straight", Straight)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: pattern kind 'straight' is built in and cannot be registered (R3)
    >>> register_pattern("os:system", Straight)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: pattern kind 'os:system' is not a clean identifier: use lower-case letters and digits, words joined by '-' or '_', starting with a letter (R3)
    >>> unregister_pattern("short-run")
    """
    _check_kind(kind)
    if not callable(factory):
        raise InvalidCatalogueError(
            f"pattern kind {kind!r}: the factory must be a class or callable, got {factory!r} (R3)"
        )
    with _lock:
        known = _factories.get(kind)
        if known is not None and known is not factory and not replace:
            raise InvalidCatalogueError(
                f"pattern kind {kind!r} is already registered to {known!r}; "
                "pass replace=True to change it (R3)"
            )
        _factories[kind] = factory


def unregister_pattern(kind: str) -> None:
    """Forget a registered pattern kind; catalogues naming it no longer load.

    >>> unregister_pattern("no-such-kind")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: pattern kind 'no-such-kind' is not registered (R3)
    """
    if isinstance(kind, str) and kind in _RESERVED:
        raise InvalidCatalogueError(f"pattern kind {kind!r} is built in and cannot be unregistered")
    with _lock:
        if not isinstance(kind, str) or kind not in _factories:
            raise InvalidCatalogueError(f"pattern kind {kind!r} is not registered (R3)")
        del _factories[kind]


def registered_patterns() -> Mapping[str, PatternFactory]:
    """The registered kinds and their factories, in registration order (a read-only copy).

    >>> register_pattern("any-two", lambda: None)
    >>> list(registered_patterns())[-1]
    'any-two'
    >>> unregister_pattern("any-two")
    """
    with _lock:
        return MappingProxyType(dict(_factories))


def pattern_factory(kind: str) -> PatternFactory | None:
    """The factory registered for ``kind``, or ``None`` (also for every built-in kind).

    >>> pattern_factory("straight") is None
    True
    """
    with _lock:
        return _factories.get(kind)


def _check_kind(kind: object) -> None:
    if not isinstance(kind, str):
        raise InvalidCatalogueError(f"a pattern kind must be a string, got {kind!r} (R3)")
    if kind == "custom":
        raise InvalidCatalogueError(
            "pattern kind 'custom' is reserved: it named code in older catalogues (R3)"
        )
    if kind in _RESERVED:
        raise InvalidCatalogueError(
            f"pattern kind {kind!r} is built in and cannot be registered (R3)"
        )
    if len(kind) > MAX_KIND_LENGTH:
        raise InvalidCatalogueError(
            f"pattern kind {kind[:MAX_KIND_LENGTH]!r}... is longer than "
            f"{MAX_KIND_LENGTH} characters (R3)"
        )
    if not _KIND.fullmatch(kind):
        raise InvalidCatalogueError(
            f"pattern kind {kind!r} is not a clean identifier: use lower-case letters and "
            "digits, words joined by '-' or '_', starting with a letter (R3)"
        )
