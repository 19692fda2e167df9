"""Quoting untrusted input in error messages: short, printable, never failing.

An error message may quote what the user wrote, but never all of a megabyte
string, never a raw control character or lone surrogate, and never an integer
too long for :func:`str` (Python refuses to print more than 4,300 digits).

>>> quote("SCI9")
"'SCI9'"
>>> quote("x" * 1000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1,000 characters)"
>>> quote("a\\x00b\\ud800")
"'a\\\\x00b\\\\ud800'"
>>> quote(10**5000), quote(True), quote([1, 2])
('an integer of more than 40 digits', 'True', 'a list')
"""

from __future__ import annotations

import textwrap

__all__ = ["MAX_NOTATION_LENGTH", "QUOTE_LIMIT", "fit_line", "quote", "too_long"]

MAX_NOTATION_LENGTH = 4096
"""The longest notation string parsed (a move, a card list, a table), in characters.

The longest move a game can make, a Publish playing and citing many cards, takes
a few hundred characters; anything much longer is refused before it is split."""

QUOTE_LIMIT = 40
"""The most characters of an input that an error message quotes."""

_BIG = 10**QUOTE_LIMIT


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A short, printable rendering of an input for an error message.

    A string is quoted with :func:`repr` (control characters and lone surrogates
    escaped), cut after ``limit`` characters; an integer is written out unless it
    is huge; any other value is named by its type.

    >>> quote("ab", limit=1)
    "'a'... (2 characters)"
    >>> quote(None), quote(2.5), quote(-7)
    ('None', '2.5', '-7')
    """
    if isinstance(value, str):
        text = str.__str__(value)  # a str subclass must not choose its own repr
        if len(text) <= limit:
            return repr(text)
        return f"{text[:limit]!r}... ({len(text):,} characters)"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        number = int(value)
        if -_BIG < number < _BIG:
            return str(number)
        return f"an integer of more than {QUOTE_LIMIT} digits"
    if isinstance(value, float):
        return repr(float(value))
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article} {name}"


def too_long(text: str, limit: int = MAX_NOTATION_LENGTH) -> bool:
    """Whether ``text`` is longer than any notation the library parses.

    >>> too_long("draw"), too_long("x" * 5000)
    (False, True)
    """
    return len(text) > limit


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless the count is one.

    >>> plural(1, "point"), plural(3, "point"), plural(21529, "option")
    ('1 point', '3 points', '21,529 options')
    """
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def fit_line(line: str, width: int) -> str:
    """``line`` wrapped to ``width`` columns (at least 20), its continuation lines indented two
    more than it: the readable tables' rule for a terminal's width.

    >>> print(fit_line("  one two three four five six seven", 20))
      one two three four
        five six seven
    """
    if len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip()))
    return textwrap.fill(
        line.strip(),
        width=max(width, 20),
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
    )
