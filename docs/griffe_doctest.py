"""Render the package's reST-flavoured docstrings as Markdown for the API reference.

Doctest examples become ``pycon`` code blocks (Markdown would read their output as
block quotes and reference links), and Sphinx roles such as ``:class:`~x.Card``` become
inline code.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

_ROLE = re.compile(
    r":(?:class|func|meth|attr|mod|data|exc|obj):`(?:~?([^`<]*?)\s*<[^`>]*>|~([^`]*?)|([^`]*?))`"
)


def _role(match: re.Match[str]) -> str:
    text = match.group(1) or match.group(3)
    if text is None:
        text = match.group(2).rsplit(".", 1)[-1]
    return f"`{text.strip()}`"


def to_markdown(text: str) -> str:
    """Fence doctest runs and flatten Sphinx roles.

    A doctest run starts at a ``>>>`` line and ends at the first blank line.
    """
    out: list[str] = []
    in_doctest = False
    fence_indent = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not in_doctest and stripped.startswith(">>>"):
            in_doctest = True
            fence_indent = line[: len(line) - len(stripped)]
            out.append(f"{fence_indent}```pycon")
        elif in_doctest and not stripped:
            out.append(f"{fence_indent}```")
            in_doctest = False
        if in_doctest:
            out.append(line)
        else:
            out.append(_ROLE.sub(_role, line))
    if in_doctest:
        out.append(f"{fence_indent}```")
    return "\n".join(out)


class DoctestMarkdown(Extension):
    """Convert every docstring once its object is loaded."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
