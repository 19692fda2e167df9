"""Where each ruling lives: the rule map, built from the code's home tags.

A ruling is *cited* all over (an error message or a comment says ``(R11)``); it
has a *home* where it is implemented. A home carries a tag, and the tags are the
only record of the homes: the maintainer guide's rule table is rendered from
them when the docs are built, and ``tests/test_rule_map.py`` checks them.

* **Python**: a comment line ``# home: R11.reads`` among the comment lines
  directly above a ``def`` or ``class`` (above its decorators). The home is the
  module and the function's or class's qualified name; the tag moves with the
  function when it moves to another module.
* **C**: a one-line comment ``/* home: R11.reads; twin test: tests/kernels/test_game.py */``
  directly above the function (other comment lines may stand between them). The
  twin test is the file of the differential test that compares the function's
  kernel with Python; it must name the C function.

A tag lists one or more rulings, separated by commas. A ruling that
``docs/rulings.toml`` splits into parts (R11: ``write``, ``read``, ...) is named
with its part (``R11.reads``); the others by number alone (``R13``). Each
ruling's part has one Python home; a second one is listed in ``rulings.toml``
under ``[[deliberate]]`` with the reason it is kept.

This module is the docs' mkdocs hook too: it replaces the line
``<!-- rule-map -->`` of ``maintainers.md`` with the table.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MARKER = "<!-- rule-map -->"
"""The line of ``maintainers.md`` that the table replaces."""

_PY_TAG = re.compile(r"^\s*#\s*home:\s*(?P<refs>.*?)\s*$")
_C_TAG = re.compile(r"^\s*/\*\s*home:\s*(?P<body>.*?)\s*\*/\s*$")
_REF = re.compile(r"^R(?P<number>\d+)(?:\.(?P<part>[a-z][a-z-]*))?$")
_C_HEAD = re.compile(r"^(?:[A-Za-z_]\w*[\s*]+)+?(?P<name>[A-Za-z_]\w*)\s*\(")
_C_WORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


@dataclass(frozen=True)
class Home:
    """One tagged home of one ruling (or of one part of it)."""

    ruling: str
    """The ruling's number as cited, ``"R11"``."""
    part: str | None
    """The part of the ruling, ``"reads"``, or ``None`` for the whole ruling."""
    language: str
    """``"python"`` or ``"c"``."""
    path: str
    """The file, relative to the package (``"game.py"``, ``"csrc/game.c"``)."""
    name: str
    """The Python module and qualified name (``"game.Game.violation"``), or the C function's
    name."""
    line: int
    """The line of the tag."""
    twin_test: str | None = None
    """A C home's differential test file, relative to the repository root."""

    @property
    def ref(self) -> str:
        """The tag's reference, ``"R11.reads"`` or ``"R13"``.

        >>> Home("R11", "reads", "python", "movegen.py", "movegen.ReadSegment", 1).ref
        'R11.reads'
        """
        return self.ruling if self.part is None else f"{self.ruling}.{self.part}"


@dataclass(frozen=True)
class Ruling:
    """A ruling as ``rulings.toml`` lists it: its short title and its parts."""

    number: str
    title: str
    parts: tuple[str, ...]


@dataclass(frozen=True)
class Deliberate:
    """A second Python home of a ruling kept on purpose, with the reason."""

    ref: str
    name: str
    reason: str


@dataclass(frozen=True)
class Tags:
    """Every home found, with the tags that are not well formed or stand on nothing."""

    homes: tuple[Home, ...]
    errors: tuple[str, ...]


def split_refs(text: str) -> list[str]:
    """The references of a tag's text, in order.

    >>> split_refs("R5, R6.supply")
    ['R5', 'R6.supply']
    """
    return [ref.strip() for ref in text.split(",") if ref.strip()]


def parse_ref(ref: str) -> tuple[str, str | None] | None:
    """``(ruling, part)`` of a reference, or ``None`` if it is not one.

    >>> parse_ref("R11.reads"), parse_ref("R7"), parse_ref("r7"), parse_ref("R 7")
    (('R11', 'reads'), ('R7', None), None, None)
    """
    match = _REF.match(ref)
    if match is None:
        return None
    return f"R{int(match['number'])}", match["part"]


def python_tags(path: str, source: str) -> Tags:
    """The homes tagged in one Python module's ``source``.

    >>> tags = python_tags("m.py", "class A:\\n    # why\\n    # home: R13\\n    def f(self): ...\\n")
    >>> [(h.ruling, h.name) for h in tags.homes], tags.errors
    ([('R13', 'm.A.f')], ())
    >>> python_tags("m.py", "# home: R13\\n\\nx = 1\\n").errors
    ('m.py:1: a home tag stands above no def or class',)
    """
    lines = source.splitlines()
    tagged: dict[int, str] = {}
    for number, text in enumerate(lines, start=1):
        match = _PY_TAG.match(text)
        if match is not None:
            tagged[number] = match["refs"]
    homes: list[Home] = []
    errors: list[str] = []
    used: set[int] = set()
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    for qualname, first in _definitions(ast.parse(source)):
        name = f"{module}.{qualname}"
        above = first - 1
        while above >= 1 and lines[above - 1].lstrip().startswith("#"):
            if above in tagged:
                used.add(above)
                homes += _homes(path, "python", name, above, tagged[above], None, errors)
            above -= 1
    errors += [
        f"{path}:{number}: a home tag stands above no def or class"
        for number in sorted(set(tagged) - used)
    ]
    return Tags(tuple(homes), tuple(errors))


def c_tags(path: str, source: str) -> Tags:
    """The homes tagged in one C file's ``source``.

    >>> text = "/* home: R12; twin test: t.py */\\n/* why */\\nstatic void end(int a) {\\n}\\n"
    >>> tags = c_tags("g.c", text)
    >>> [(h.ruling, h.name, h.twin_test) for h in tags.homes], tags.errors
    ([('R12', 'end', 't.py')], ())
    >>> c_tags("g.c", "/* home: R12 */\\nint x;\\n").errors
    ('g.c:1: a home tag stands above no C function',)
    """
    lines = source.splitlines()
    homes: list[Home] = []
    errors: list[str] = []
    for number, text in enumerate(lines, start=1):
        match = _C_TAG.match(text)
        if match is None:
            continue
        refs, _, rest = match["body"].partition(";")
        twin = None
        if rest.strip():
            key, _, value = rest.partition(":")
            if key.strip() != "twin test" or not value.strip():
                errors.append(
                    f"{path}:{number}: expected '; twin test: FILE', got {rest.strip()!r}"
                )
            twin = value.strip() or None
        name = _c_function(lines, number)
        if name is None:
            errors.append(f"{path}:{number}: a home tag stands above no C function")
            continue
        homes += _homes(path, "c", name, number, refs, twin, errors)
    return Tags(tuple(homes), tuple(errors))


def scan(package: Path) -> Tags:
    """Every home tagged in the package at ``package`` (its ``*.py`` and ``csrc``)."""
    homes: list[Home] = []
    errors: list[str] = []
    for file in sorted(package.rglob("*.py")):
        found = python_tags(file.relative_to(package).as_posix(), file.read_text("utf-8"))
        homes += found.homes
        errors += found.errors
    for file in sorted([*package.glob("**/csrc/*.c"), *package.glob("**/csrc/*.h")]):
        found = c_tags(file.relative_to(package).as_posix(), file.read_text("utf-8"))
        homes += found.homes
        errors += found.errors
    return Tags(tuple(homes), tuple(errors))


def load_rulings(path: Path) -> tuple[dict[str, Ruling], tuple[Deliberate, ...]]:
    """The rulings of ``rulings.toml`` (by number) and its deliberate second homes."""
    data = tomllib.loads(path.read_text("utf-8"))
    rulings = {
        number: Ruling(number, str(entry["title"]), tuple(entry.get("parts", ())))
        for number, entry in data["rulings"].items()
    }
    deliberate = tuple(
        Deliberate(str(entry["ref"]), str(entry["home"]), str(entry["reason"]))
        for entry in data.get("deliberate", ())
    )
    return rulings, deliberate


def problems(
    tags: Tags, rulings: dict[str, Ruling], deliberate: tuple[Deliberate, ...], root: Path
) -> list[str]:
    """Everything wrong with the tags: each a sentence naming the file and line.

    ``root`` is the repository, where the C homes' twin tests lie.

    >>> rulings = {"R1": Ruling("R1", "Deck", ())}
    >>> home = Home("R2", None, "python", "m.py", "f", 3)
    >>> problems(Tags((home,), ()), rulings, (), Path("."))
    ['m.py:3: f is tagged R2, which is no ruling', 'R1 has no Python home']
    """
    found = list(tags.errors)
    python: dict[str, list[Home]] = {}
    for home in tags.homes:
        where = f"{home.path}:{home.line}: {home.name}"
        ruling = rulings.get(home.ruling)
        if ruling is None:
            found.append(f"{where} is tagged {home.ref}, which is no ruling")
            continue
        if ruling.parts and home.part not in ruling.parts:
            found.append(f"{where} is tagged {home.ref}: {home.ruling}'s parts are {ruling.parts}")
            continue
        if not ruling.parts and home.part is not None:
            found.append(f"{where} is tagged {home.ref}, but {home.ruling} has no parts")
            continue
        if home.language == "python":
            python.setdefault(home.ref, []).append(home)
        else:
            found += _twin_problems(home, where, root)
    kept = {(entry.ref, entry.name) for entry in deliberate}
    for entry in deliberate:
        if entry.name not in {home.name for home in python.get(entry.ref, [])}:
            found.append(f"the deliberate home {entry.name} of {entry.ref} is tagged no more")
    for ref, homes in sorted(python.items()):
        extra = [home for home in homes if (ref, home.name) not in kept]
        if len(extra) > 1:
            names = ", ".join(f"{home.name} ({home.path})" for home in extra)
            found.append(f"{ref} has {len(extra)} Python homes, none listed as deliberate: {names}")
    for number, ruling in rulings.items():
        for ref in [f"{number}.{part}" for part in ruling.parts] or [number]:
            if ref not in python:
                found.append(f"{ref} has no Python home")
    return found


def render(tags: Tags, rulings: dict[str, Ruling], deliberate: tuple[Deliberate, ...]) -> str:
    """The rule map as a Markdown table: per ruling, its Python homes, its C twins with
    their differential tests, and the deliberate second homes' reasons.

    >>> rulings = {"R13": Ruling("R13", "Winner", ())}
    >>> homes = (Home("R13", None, "python", "game.py", "game.Game.winners", 9),
    ...          Home("R13", None, "c", "csrc/game.c", "gm_winners", 5, "tests/kernels/test_game.py"))
    >>> print(render(Tags(homes, ()), rulings, ()))
    | ruling | Python home | C twin (differential test) | notes |
    |---|---|---|---|
    | R13 Winner | `game.Game.winners` (`game.py`) | `gm_winners` (`csrc/game.c`; `tests/kernels/test_game.py`) |  |
    """
    reasons = {(entry.ref, entry.name): entry.reason for entry in deliberate}
    rows = [
        "| ruling | Python home | C twin (differential test) | notes |",
        "|---|---|---|---|",
    ]
    for number, ruling in sorted(rulings.items(), key=lambda item: int(item[0][1:])):
        mine = [home for home in tags.homes if home.ruling == number]
        python: list[str] = []
        c: list[str] = []
        notes: list[str] = []
        for home in sorted(mine, key=lambda home: (home.part or "", home.path, home.line)):
            label = f"{home.part}: " if home.part is not None else ""
            if home.language == "python":
                python.append(f"{label}`{home.name}` (`{home.path}`)")
                reason = reasons.get((home.ref, home.name))
                if reason is not None:
                    notes.append(f"`{home.name}` is kept on purpose: {reason}")
            else:
                c.append(f"{label}`{home.name}` (`{home.path}`; `{home.twin_test}`)")
        cells = [f"{number} {ruling.title}", *("<br>".join(cell) for cell in (python, c, notes))]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def rule_map(root: Path) -> str:
    """The rule map of the repository at ``root``, as :func:`render` writes it."""
    rulings, deliberate = load_rulings(root / "docs" / "rulings.toml")
    return render(scan(root / "src" / "pastiche_core"), rulings, deliberate)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: put the rule map in place of ``MARKER`` on the maintainer guide."""
    if MARKER not in markdown:
        return markdown
    root = Path(config["config_file_path"]).parent
    return markdown.replace(MARKER, rule_map(root))


def _definitions(tree: ast.Module) -> list[tuple[str, int]]:
    """``(qualified name, first line)`` of every def and class, decorators included."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append((name, first))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _c_function(lines: list[str], tag: int) -> str | None:
    """The name of the C function whose head follows the tag on line ``tag``, past any
    comment lines."""
    comment = False
    for text in lines[tag:]:
        stripped = text.strip()
        if comment:
            comment = "*/" not in stripped
            continue
        if stripped.startswith("/*"):
            comment = "*/" not in stripped
            continue
        if stripped.startswith("//"):
            continue
        match = _C_HEAD.match(stripped)
        if match is None or match["name"] in _C_WORDS or stripped.endswith(";"):
            return None
        return match["name"]
    return None


def _homes(
    path: str,
    language: str,
    name: str,
    line: int,
    refs: str,
    twin: str | None,
    errors: list[str],
) -> list[Home]:
    homes = []
    for ref in split_refs(refs) or [""]:
        parsed = parse_ref(ref)
        if parsed is None:
            errors.append(f"{path}:{line}: {name}'s tag names {ref!r}, not a ruling like R11")
            continue
        homes.append(Home(parsed[0], parsed[1], language, path, name, line, twin))
    return homes


def _twin_problems(home: Home, where: str, root: Path) -> list[str]:
    if home.twin_test is None:
        return [f"{where} is a C home with no twin test"]
    test = root / home.twin_test
    if not test.is_file():
        return [f"{where}'s twin test {home.twin_test} does not exist"]
    if re.search(rf"\b{re.escape(home.name)}\b", test.read_text("utf-8")) is None:
        return [f"{where}'s twin test {home.twin_test} does not name {home.name}"]
    return []
