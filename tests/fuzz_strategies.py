"""Hypothesis strategies for hostile input: valid notation and documents, then mutated.

Notation:

* :func:`hostile_text` — arbitrary text, or valid notation with characters
  inserted, deleted or replaced (Unicode digits, NUL, lone surrogates,
  separators), huge numbers spliced in, or repeated to a megabyte;
* :func:`notations` — valid notation of one kind (``card``, ``cards``,
  ``move``, ``ref``, ``gift``, ``table``);
* :func:`non_strings` — values of other types.

Documents:

* :func:`mutated_documents` — the JSON text of a valid document after a few
  mutations of its tree (a field deleted or added, a value replaced by any
  JSON value, huge integers and deep nesting included, two cards swapped, a
  card in lower case, a number moved by one, a key given twice, a list item
  repeated) and of its text (cut short, a character inserted, invalid UTF-8).

>>> encode({"a": [1, Raw("9" * 3)], "b": Dup({"c": 1}, [("c", 2)])})
'{"a": [1, 999], "b": {"c": 1, "c": 2}}'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from pastiche_core import (
    DECK,
    Choose,
    Draw,
    Gift,
    Keep,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from pastiche_core.engine.moves import Move

__all__ = [
    "HUGE_NUMBERS",
    "SPECIAL_CHARACTERS",
    "Dup",
    "Raw",
    "encode",
    "hostile_text",
    "json_values",
    "moves",
    "mutated_documents",
    "non_strings",
    "notations",
]

SPECIAL_CHARACTERS = (
    "\u00b2",  # superscript two: str.isdigit() is True, int() fails
    "\u00b3",
    "\u0663",  # Arabic-Indic three: int() reads it as 3
    "\u0669",
    "\uff19",  # full-width nine
    "\U0001d7d7",  # mathematical bold nine
    "0",
    "4",
    "5",
    "9",
    ":",
    "=",
    ",",
    ";",
    " ",
    "\t",
    "\n",
    "\x00",
    "\x1b",
    "\ud800",  # lone surrogates
    "\udfff",
    "\u212a",  # Kelvin sign: lowers to 'k'
    "\u017f",  # long s: uppers to 'S'
    "\u0130",  # I with dot: lowers to two characters
    "\u2028",  # line separator: str.split() splits on it
    "\x85",
    "\u00a0",
    "-",
    "_",
    "'",
    "\\",
)
"""Characters that have broken parsers: look-alike digits, separators, NUL, surrogates."""

HUGE_NUMBERS = (
    "990",
    "5",
    "-1",
    "00",
    "01",
    "9" * 20,
    "9" * 21,
    str(2**63),
    str(10**18),
    "1" * 4301,
    "9" * 4402,
    "9" * 5000,
)
"""Numbers as text: seats just out of range, 64-bit edges, past int()'s 4,300 digits."""

NOVEL_IDS = (
    "straight-5",
    "kind-3",
    "pairs-3",
    "total-7",
    "end-flag",
    "pair",
    "run-3",
    "x",
)


# ----------------------------------------------------------------------
# Notation
# ----------------------------------------------------------------------
def _cards() -> SearchStrategy[str]:
    return st.sampled_from(DECK).map(str)


def _any_case(text: str, flips: Sequence[bool]) -> str:
    return "".join(ch.lower() if flip else ch for ch, flip in zip(text, flips, strict=False))


def _seats() -> SearchStrategy[int]:
    return st.integers(0, 4)


def _novels() -> SearchStrategy[str]:
    return st.sampled_from(NOVEL_IDS)


def moves() -> SearchStrategy[Move]:
    """Valid moves of every kind (their seats and Novels need not exist in a game)."""
    card = st.sampled_from(DECK)
    ref = st.builds(NovelRef, _seats(), _novels())
    gift = st.builds(Gift, _seats(), card)
    return st.one_of(
        st.builds(Keep, st.lists(card, max_size=5).map(tuple)),
        st.just(Draw()),
        st.just(TakeDiscard()),
        st.just(Pass()),
        st.builds(Choose, card),
        st.builds(TakeFlag, card),
        st.builds(Read, ref, card),
        st.builds(
            Publish,
            _novels(),
            st.lists(card, max_size=7).map(tuple),
            st.lists(ref, max_size=4).map(tuple),
            st.lists(gift, max_size=4).map(tuple),
        ),
    )


def notations(kind: str) -> SearchStrategy[str]:
    """Valid notation: ``card``, ``cards``, ``move``, ``ref``, ``gift`` or ``table``."""
    if kind == "card":
        return st.tuples(_cards(), st.lists(st.booleans(), max_size=5)).map(
            lambda pair: _any_case(*pair)
        )
    if kind == "cards":
        return st.tuples(
            st.lists(_cards(), max_size=8), st.sampled_from([" ", ",", ";", ", ", "\t"])
        ).map(lambda pair: pair[1].join(pair[0]))
    if kind == "move":
        return moves().map(str)
    if kind == "ref":
        return st.builds(NovelRef, _seats(), _novels()).map(str)
    if kind == "gift":
        return st.builds(Gift, _seats(), st.sampled_from(DECK)).map(str)
    if kind == "table":
        entry = st.tuples(
            st.sampled_from(["", "m9=", "0:kind-3=", "a=b="]), _seats(), _cards()
        ).map(lambda parts: f"{parts[0]}{parts[1]}:{parts[2]}")
        return st.lists(entry, max_size=5).map(" ".join)
    raise ValueError(f"unknown notation kind {kind!r}")


@st.composite
def _mutated(draw: st.DrawFn, base: str) -> str:
    text = base
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "number", "repeat", "case"]))
        at = draw(st.integers(0, len(text)))
        if op == "insert":
            piece = draw(st.sampled_from(SPECIAL_CHARACTERS) | st.characters())
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1 :]
        elif op == "replace":
            piece = draw(st.sampled_from(SPECIAL_CHARACTERS) | st.characters())
            text = text[:at] + piece + text[at + 1 :]
        elif op == "number":
            text = text[:at] + draw(st.sampled_from(HUGE_NUMBERS)) + text[at:]
        elif op == "repeat":  # up to about a megabyte, never more
            times = draw(st.sampled_from([2, 3, 1000, 1_000_000]))
            text = text * max(1, min(times, 1_000_000 // max(len(text), 1)))
        else:
            text = text.swapcase()
    return text


def hostile_text(kind: str) -> SearchStrategy[str]:
    """Arbitrary text, or valid ``kind`` notation mutated (see the module docs)."""
    return st.one_of(
        st.text(),
        st.text(st.sampled_from(SPECIAL_CHARACTERS)),
        notations(kind).flatmap(_mutated),
        notations(kind),
    )


def non_strings() -> SearchStrategy[object]:
    """Values that are not strings: numbers (huge too), bytes, containers, None, objects."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.just(10**5000),
        st.floats(),
        st.binary(max_size=8),
        st.lists(st.text(max_size=4), max_size=3),
        st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
        st.builds(object),
        st.sampled_from(DECK),
    )


# ----------------------------------------------------------------------
# Documents
# ----------------------------------------------------------------------
@dataclass(frozen=True)
class Raw:
    """JSON text inserted as it is: a huge integer, deep nesting."""

    text: str


class Dup(dict[str, Any]):
    """A JSON object whose text gives some keys a second time."""

    def __init__(self, items: dict[str, Any], again: list[tuple[str, Any]]) -> None:
        super().__init__(items)
        self.again = again


def encode(value: Any) -> str:
    """JSON text of ``value``, with :class:`Raw` pieces and :class:`Dup` keys as given."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        pairs = list(value.items()) + (value.again if isinstance(value, Dup) else [])
        return "{" + ", ".join(f"{json.dumps(k)}: {encode(v)}" for k, v in pairs) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(encode(item) for item in value) + "]"
    return json.dumps(value)  # NaN and Infinity come out as such: JSON has no such numbers


def json_values() -> SearchStrategy[Any]:
    """Any JSON value, and the values a game document holds, and hostile ones."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(),
        st.text(st.sampled_from(SPECIAL_CHARACTERS), max_size=6),
        _cards(),
        st.sampled_from(NOVEL_IDS),
        st.sampled_from(["default", "draw", "pass", "action", "setup", "masterpiece"]),
        st.integers(-2, 6),
        st.sampled_from(HUGE_NUMBERS).map(Raw),
        st.sampled_from([33, 1000, 100_000]).map(lambda n: Raw("[" * n + "]" * n)),
    )
    return st.recursive(
        leaves,
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(
                st.text(max_size=8) | st.sampled_from(NOVEL_IDS), children, max_size=4
            )
        ),
        max_leaves=8,
    )


Location = tuple[Any, Any]
"""A container and a key (dict) or an index (list) in it."""


def _locations(tree: Any) -> list[Location]:
    found: list[Location] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            items: list[tuple[Any, Any]] = list(node.items())
        elif isinstance(node, list):
            items = list(enumerate(node))
        else:
            continue
        for key, child in items:
            found.append((node, key))
            stack.append(child)
    return found


def _is_card(value: object) -> bool:
    return isinstance(value, str) and value.upper() in {str(card) for card in DECK}


@st.composite
def _mutate_tree(draw: st.DrawFn, tree: Any, protect: frozenset[str]) -> Any:
    """``tree`` (a fresh copy) after one to three mutations."""
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):  # one mutation keeps more valid
        places = [
            (node, key) for node, key in _locations(tree) if not (node is tree and key in protect)
        ]
        # Swapping cards and writing them in lower case often keep a document valid.
        op = draw(
            st.sampled_from(
                [
                    *("swap", "swap", "swap", "recase"),
                    *("delete", "replace", "bump", "add", "duplicate", "hostile", "copy"),
                ]
            )
        )
        if op == "recase":
            cards = [(node, key) for node, key in places if _is_card(node[key])]
            if cards:
                node, key = draw(st.sampled_from(cards))
                node[key] = node[key].lower()
                continue
            op = "replace"
        if op == "swap":
            cards = [(node, key) for node, key in places if _is_card(node[key])]
            if len(cards) >= 2:
                first, second = draw(
                    st.lists(st.integers(0, len(cards) - 1), min_size=2, max_size=2, unique=True)
                )
                (a, i), (b, j) = cards[first], cards[second]
                a[i], b[j] = b[j], a[i]
                continue
            op = "replace"
        if op == "bump":
            numbers = [
                (node, key)
                for node, key in places
                if isinstance(node[key], int) and not isinstance(node[key], bool)
            ]
            if numbers:
                node, key = draw(st.sampled_from(numbers))
                node[key] += draw(st.sampled_from([-1, 1, -2, 2, 5, 1000]))
                continue
            op = "replace"
        if op == "add":
            objects = [tree] if isinstance(tree, dict) else []
            objects += [n[k] for n, k in places if isinstance(n[k], dict)]
            if objects:
                target = draw(st.sampled_from(objects))
                target[draw(st.text(max_size=8) | st.sampled_from(NOVEL_IDS))] = draw(json_values())
                continue
            op = "replace"
        if op == "duplicate":
            keyed = [(n, k) for n, k in places if isinstance(n, dict)]
            if keyed:
                node, key = draw(st.sampled_from(keyed))
                again = draw(st.sampled_from([node[key], 0, None, "x"]))
                tree = _replace_node(tree, node, Dup(node, [(key, again)]))
                continue
            op = "replace"
        if not places:
            return draw(json_values())
        node, key = draw(st.sampled_from(places))
        if op == "delete":
            del node[key]
        elif op == "hostile" and isinstance(node[key], str):
            node[key] = draw(_mutated(node[key]))
        elif op == "copy" and isinstance(node, list) and node:
            node.insert(draw(st.integers(0, len(node))), node[key])
        else:
            node[key] = draw(json_values())
    return tree


def _replace_node(tree: Any, old: Any, new: Any) -> Any:
    if tree is old:
        return new
    for node, key in _locations(tree):
        if node[key] is old:
            node[key] = new
    return tree


def _copy(tree: Any) -> Any:
    loaded = json.loads(json.dumps(tree))
    return loaded


@st.composite
def mutated_documents(
    draw: st.DrawFn, bases: Sequence[dict[str, Any]], protect: frozenset[str] = frozenset()
) -> str | bytes:
    """The text of one of ``bases`` mutated; root fields in ``protect`` keep their value."""
    tree = _mutate_tree(_copy(draw(st.sampled_from(bases))), protect)
    text = encode(draw(tree))
    op = draw(st.sampled_from(["none"] * 4 + ["cut", "insert", "bytes", "bad-utf8"]))
    if op == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if op == "insert":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from(SPECIAL_CHARACTERS)) + text[at:]
    if op == "bytes":
        return text.encode("utf-8", "surrogatepass")
    if op == "bad-utf8":
        data = text.encode("utf-8")
        at = draw(st.integers(0, len(data)))
        return (
            data[:at] + draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b"\xc0\xaf"])) + data[at:]
        )
    return text
