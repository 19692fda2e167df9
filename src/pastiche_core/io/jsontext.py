"""Strict, bounded JSON decoding for documents that strangers wrote.

Every JSON reader of the library decodes through :func:`loads`, so every
document gets the same checks before any field is read: a size cap, a nesting
cap, no field given twice in one object, no ``NaN`` or ``Infinity``, no integer
too long to be a game value, no lone surrogate in a string, and UTF-8 bytes.
Each failure is an :class:`~pastiche_core.data.errors.InvalidStateError` whose
message starts with the JSON path of the offending value:

>>> loads('{"player": 0, "hand": ["SCI9"]}')
{'player': 0, 'hand': ['SCI9']}
>>> loads('{"player": 0, "player": 1}')
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: $.player: field given twice in one object
>>> loads('{"seed": ' + "9" * 400 + '}')
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: $.seed: an integer of 400 digits is out of range (at most 20 digits)
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: $: nested deeper than 32 levels
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..data.limits import MAX_INT_DIGITS, MAX_JSON_BYTES, MAX_JSON_DEPTH
from ._fields import fail, member

__all__ = ["MAX_INT_DIGITS", "MAX_JSON_BYTES", "MAX_JSON_DEPTH", "loads"]


_SURROGATE = re.compile("[\ud800-\udfff]")


class _Invalid:
    """A decoded value JSON allows but a game document never holds (reported with its path)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _JsonObject(dict[str, Any]):
    """A decoded JSON object that remembers the first field its text gave twice."""

    __slots__ = ("duplicate",)

    def __init__(self) -> None:
        super().__init__()
        self.duplicate: str | None = None


def _object(pairs: list[tuple[str, Any]]) -> _JsonObject:
    obj = _JsonObject()
    for key, value in pairs:
        if key in obj and obj.duplicate is None:
            obj.duplicate = key
        obj[key] = value
    return obj


def _integer(text: str) -> int | _Invalid:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        return _Invalid(
            f"an integer of {digits} digits is out of range (at most {MAX_INT_DIGITS} digits)"
        )
    return int(text)


def _number(text: str) -> float | _Invalid:
    value = float(text)
    if not math.isfinite(value):
        return _Invalid(f"the number {_clip(text)} is out of range")
    return value


def _constant(name: str) -> _Invalid:
    return _Invalid(f"{name} is not a JSON number")


def _clip(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else f"{text[:limit]}..."


def loads(
    text: str | bytes | bytearray,
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
    expected: str = "a JSON object",
) -> Any:
    """Decode one JSON document under the library's limits (see the module docs).

    ``text`` is a string or UTF-8 bytes; ``expected`` names the document in the
    error for empty input. Objects come back as dicts, arrays as
    lists; every check failure raises
    :class:`~pastiche_core.data.errors.InvalidStateError` naming the JSON path.

    >>> loads(b'{"rng": "12"}')
    {'rng': '12'}
    >>> loads('{"x": NaN}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.x: NaN is not a JSON number
    >>> loads('{"id": "\\\\ud800"}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.id: the string '\\ud800' holds a lone surrogate (not Unicode text)
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > max_bytes:
            raise fail("$", f"the document has {len(text):,} bytes, more than {max_bytes:,}")
        try:
            decoded = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise fail(
                "$",
                f"not valid JSON: not UTF-8 text (at byte {error.start})",
            ) from None
    elif isinstance(text, str):
        if len(text) > max_bytes:
            raise fail("$", f"the document has {len(text):,} characters, more than {max_bytes:,}")
        decoded = text
    else:
        raise fail("$", f"expected JSON text, got {type(text).__name__}")
    if not decoded.strip():
        raise fail("$", f"no input: expected {expected}")
    try:
        data = json.loads(
            decoded,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_float=_number,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise fail(
            "$", f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise fail("$", f"nested deeper than {max_depth} levels") from None
    _check(data, max_depth)
    return data


def _check(data: Any, max_depth: int) -> None:
    """Walk the decoded tree without recursion, reporting the first bad value by path."""
    stack: list[tuple[Any, str, int]] = [(data, "$", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, _Invalid):
            raise fail(path, value.reason)
        if isinstance(value, str):
            _check_text(value, path)
            continue
        if isinstance(value, _JsonObject | list):
            if depth >= max_depth:
                raise fail("$", f"nested deeper than {max_depth} levels")
            if isinstance(value, list):
                # Reversed, so the first bad item is the first reported.
                for index in range(len(value) - 1, -1, -1):
                    stack.append((value[index], f"{path}[{index}]", depth + 1))
                continue
            if value.duplicate is not None:
                raise fail(member(path, value.duplicate), "field given twice in one object")
            for key, item in reversed(value.items()):
                _check_text(key, f"{path} (a field name)")
                stack.append((item, member(path, key), depth + 1))


def _check_text(value: str, path: str) -> None:
    if _SURROGATE.search(value):
        raise fail(path, f"the string {_clip(value)!r} holds a lone surrogate (not Unicode text)")
