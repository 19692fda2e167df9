"""The documentation's examples run: doctest blocks, CLI commands and the Node example.

* every fenced Python block (``python``, ``py``, ``pycon``; backticks or tildes, indented or
  not, with attributes or not) of every page under ``docs/`` runs with doctest (one test per
  page, fresh globals, the repository root as working directory); a Python block with no
  example, text after a closing fence or a fence never closed fails;
* every ``pastiche ...`` line of a ``sh`` block preceded by ``<!-- test-command -->`` runs
  through ``python -m pastiche_core`` and must exit with status 0;
* every ``js`` block preceded by ``<!-- test-node -->`` runs under Node (when installed) and
  prints the ``text`` block that follows it;
* every public name of ``pastiche_core`` is covered by a ``::: module`` reference page;
* every public attribute of a public class has a docstring, so the reference describes it.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pastiche_core

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKER = re.compile(r"<!--\s*(?P<name>[\w-]+)\s*-->\s*\Z")
PYTHON = frozenset({"python", "py", "python3", "pycon"})
"""The languages of the blocks that run as doctests."""

# Public names documented somewhere other than the page of their defining module.
EXPLICIT: frozenset[str] = frozenset()


def _language(info: str) -> str:
    """The language of a fence's info string, in any form the site's Markdown reads:
    ``python``, ``python title="x"``, ``{ .python }``, ``{.python .numberLines}``."""
    info = info.strip()
    if info.startswith("{"):
        classes = re.findall(r"(?:^|\s)\.([\w-]+)", info.strip("{} "))
        return classes[0].lower() if classes else ""
    match = re.match(r"[\w+-]+", info)
    return match[0].lower() if match else ""


def _fences(text: str, name: str) -> tuple[list[tuple[str, str, str | None, int]], list[str]]:
    """Every fenced block of ``text`` (language, body, marker, line of the opening fence)
    and every malformed fence (``name:line: why``).

    A fence is three or more backticks or tildes, indented or not, with any info
    string; the block ends at a line of the same character, at least as long, with
    nothing else on it. Such a line with text after it (``` ``` From here ```), or an
    opening fence left open, would garble the page: each is an error, not a block.
    """
    lines = text.split("\n")
    blocks: list[tuple[str, str, str | None, int]] = []
    errors: list[str] = []
    index = 0
    while index < len(lines):
        opening = _OPEN.match(lines[index])
        if opening is None or (opening["fence"][0] == "`" and "`" in opening["info"]):
            index += 1
            continue
        fence, indent, start = opening["fence"], len(opening["indent"]), index
        before = "\n".join(lines[:start])
        marker = _MARKER.search(before.rstrip())
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}(?P<rest>.*)$")
        body: list[str] = []
        index += 1
        while index < len(lines):
            close = closing.match(lines[index])
            if close is not None:
                if not close["rest"].strip():
                    break
                errors.append(
                    f"{name}:{index + 1}: text after a fence: {lines[index].strip()[:40]!r} "
                    "(a closing fence stands alone on its line)"
                )
            line = lines[index]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            index += 1
        else:
            errors.append(f"{name}:{start + 1}: the fence {fence!r} is never closed")
        language = _language(opening["info"])
        blocks.append(
            (language, "\n".join(body) + "\n", marker["name"] if marker else None, start + 1)
        )
        index += 1
    return blocks, errors


def _blocks(page: Path) -> list[tuple[str, str, str | None, int]]:
    """Every fenced block of ``page``: language, body, marker and line number."""
    return _fences(page.read_text(encoding="utf-8"), _name(page))[0]


def _name(page: Path) -> str:
    return page.relative_to(DOCS).as_posix() if page.is_relative_to(DOCS) else page.name


def _doctest(page: Path) -> doctest.DocTest:
    """The page's Python doctest blocks as one doctest, with line numbers from the page."""
    parser = doctest.DocTestParser()
    examples: list[doctest.Example] = []
    for lang, body, _, line in _blocks(page):
        if lang in PYTHON:
            for example in parser.get_examples(body, _name(page)):
                example.lineno += line
                examples.append(example)
    return doctest.DocTest(examples, {}, _name(page), str(page), 0, None)


def _python_without_examples(page: Path) -> list[str]:
    """The Python blocks of ``page`` that hold no example: each must run, or only include
    a file's text (``--8<--``), which is tested where it lives."""
    parser = doctest.DocTestParser()
    found = []
    for lang, body, _, line in _blocks(page):
        if lang not in PYTHON or parser.get_examples(body):
            continue
        included = [text for text in body.splitlines() if text.strip()]
        if not included or not all(text.strip().startswith("--8<--") for text in included):
            found.append(f"{_name(page)}:{line}: a {lang} block with no >>> example")
    return found


def _marked(marker: str, lang: str) -> list[tuple[Path, int, str]]:
    return [
        (page, line, body)
        for page in PAGES
        for block_lang, body, name, line in _blocks(page)
        if name == marker and block_lang == lang
    ]


def _commands() -> list[tuple[str, list[str]]]:
    commands: list[tuple[str, list[str]]] = []
    for page, line, body in _marked("test-command", "sh"):
        for offset, text in enumerate(body.splitlines()):
            words = shlex.split(text, comments=True)
            if words and words[0] == "pastiche":
                commands.append((f"{_name(page)}:{line + 1 + offset}", words[1:]))
    return commands


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))


def test_pages_exist() -> None:
    names = {page.name for page in PAGES}
    for required in (
        "index.md",
        "tutorial.md",
        "rules.md",
        "catalogues.md",
        "frontend.md",
        "simulation.md",
        "performance.md",
    ):
        assert required in names


@pytest.mark.parametrize("page", [p for p in PAGES if _doctest(p).examples], ids=_name)
@pytest.mark.usefixtures("in_root")
# The RL page makes greedy opponents on purpose, to show them: their warning is not news.
@pytest.mark.filterwarnings("ignore:opponents=.*makes the engine play every step")
def test_page_examples(page: Path) -> None:
    test = _doctest(page)
    assert test.examples, f"{_name(page)}: no doctest examples"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(output)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_fences_are_well_formed(page: Path) -> None:
    errors = _fences(page.read_text(encoding="utf-8"), _name(page))[1]
    assert not errors, "\n".join(errors)


def test_every_python_block_runs() -> None:
    found = [where for page in PAGES for where in _python_without_examples(page)]
    assert not found, "\n".join(found)


FENCE_FORMS = """\
# Every fence form

```python
>>> 1 + 1
2
```

```pycon
>>> 2 + 2
4
```

~~~python
>>> 3 + 3
6
~~~

```python title="six.py" linenums="1"
>>> 4 + 4
8
```

``` { .python }
>>> 5 + 5
10
```

1. In a list:

    ```py
    >>> 6 + 6
    12
    ```

````python
>>> print("```")
```
````

<!-- test-command -->
```sh
pastiche --version
```
"""


def test_every_fence_form_is_found(tmp_path: Path) -> None:
    page = tmp_path / "forms.md"
    page.write_text(FENCE_FORMS, encoding="utf-8")
    blocks, errors = _fences(FENCE_FORMS, "forms.md")
    assert errors == []
    assert [lang for lang, *_ in blocks] == [
        *("python", "pycon", "python", "python", "python", "py", "python"),
        "sh",
    ]
    assert blocks[-1][2] == "test-command"
    test = _doctest(page)
    assert [example.want for example in test.examples] == [
        *(f"{2 * n}\n" for n in range(1, 7)),
        "```\n",
    ]
    assert [example.lineno for example in test.examples][:2] == [3, 8]
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 0


def test_a_malformed_fence_is_an_error() -> None:
    text = "```python\n>>> 1\n1\n``` From here, text.\n\n~~~python\n>>> 2\n2\n~~~\n"
    blocks, errors = _fences(text, "bad.md")
    assert errors == [
        "bad.md:4: text after a fence: '``` From here, text.' "
        "(a closing fence stands alone on its line)",
        "bad.md:1: the fence '```' is never closed",
    ]
    assert len(blocks) == 1
    assert _fences("~~~python\n>>> 2\n2\n~~~\n", "good.md")[1] == []


def test_doc_commands_are_found() -> None:
    assert len(_commands()) >= 4


@pytest.mark.parametrize(("where", "args"), _commands(), ids=[w for w, _ in _commands()])
def test_doc_command(where: str, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pastiche_core", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{where}: {shlex.join(args)}\n{done.stderr}"
    assert done.stdout.strip(), f"{where}: no output"


def _node_examples() -> list[tuple[str, str, str]]:
    examples: list[tuple[str, str, str]] = []
    for page in PAGES:
        blocks = _blocks(page)
        for index, (lang, body, name, line) in enumerate(blocks):
            if name == "test-node" and lang == "js":
                after = [b for b in blocks[index + 1 :] if b[0] == "text"]
                expected = after[0][1] if after else ""
                examples.append((f"{_name(page)}:{line}", body, expected))
    return examples


@pytest.mark.parametrize(
    ("where", "script", "expected"), _node_examples(), ids=[w for w, _, _ in _node_examples()]
)
def test_node_example(where: str, script: str, expected: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run(
        [node, "-e", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHON": sys.executable},
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr}"
    assert done.stderr == "", f"{where}:\n{done.stderr}"
    assert done.stdout == expected, f"{where}:\n{done.stdout}"


def _reference_modules() -> set[str]:
    modules: set[str] = set()
    for page in sorted((DOCS / "reference").glob("*.md")):
        for match in re.finditer(
            r"^:::\s+(\S+)\s*$", page.read_text(encoding="utf-8"), re.MULTILINE
        ):
            modules.add(match[1])
    return modules


def _defining_module(name: str) -> str:
    """The submodule of ``pastiche_core`` that defines the public ``name``."""
    value = getattr(pastiche_core, name)
    module = getattr(value, "__module__", None)
    if isinstance(module, str) and module.startswith("pastiche_core.") and isinstance(value, type):
        return module
    if callable(value) and isinstance(module, str) and module.startswith("pastiche_core."):
        return module
    definition = re.compile(rf"^{re.escape(name)}\b[^=\n]*=", re.MULTILINE)
    package = ROOT / "src"
    for path in sorted((package / "pastiche_core").rglob("*.py")):
        if definition.search(path.read_text(encoding="utf-8")):
            return ".".join(path.relative_to(package).with_suffix("").parts)
    raise AssertionError(f"cannot find the module defining {name}")


def test_reference_covers_public_api() -> None:
    modules = _reference_modules()
    missing = [
        name
        for name in pastiche_core.__all__
        if name not in EXPLICIT and _defining_module(name) not in modules
    ]
    assert not missing, f"public names without a reference page: {missing}"


PACKAGE = ROOT / "src" / "pastiche_core"


def _public_classes(body: list[ast.stmt]) -> list[ast.ClassDef]:
    """The public classes defined in ``body``, nested public classes included."""
    found: list[ast.ClassDef] = []
    for node in body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.append(node)
            found.extend(_public_classes(node.body))
        elif isinstance(node, ast.If | ast.Try):
            found.extend(_public_classes([*node.body, *node.orelse]))
    return found


def _is_docstring(node: ast.stmt | None) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _undocumented_attributes(path: Path) -> list[str]:
    """``Class.attribute`` (with its line) for each public annotated class attribute of
    ``path`` that no docstring follows; ``ClassVar`` annotations are not attributes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing: list[str] = []
    for cls in _public_classes(tree.body):
        for index, node in enumerate(cls.body):
            if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
                continue
            name = node.target.id
            if name.startswith("_") or "ClassVar" in ast.unparse(node.annotation):
                continue
            after = cls.body[index + 1] if index + 1 < len(cls.body) else None
            if not _is_docstring(after):
                missing.append(f"{cls.name}.{name} (line {node.lineno})")
    return missing


def test_public_attributes_have_docstrings() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 30
    missing = []
    for path in modules:
        relative = path.relative_to(PACKAGE).as_posix()
        missing += [f"{relative}: {where}" for where in _undocumented_attributes(path)]
    listed = "\n".join(missing)
    assert not missing, f"public attributes without a docstring on the next line:\n{listed}"


def test_pictures_are_made_from_the_examples_and_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "make_pictures", DOCS / "images" / "make_pictures.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pictures: dict[str, str] = module.pictures()
    assert set(pictures) == {"midgame.svg", "game.svg", "jerome.svg", "jerome-report.html"}
    for name, text in pictures.items():
        path = DOCS / "images" / name
        assert path.read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python docs/images/make_pictures.py"
        )
    pages = {_name(page): page.read_text(encoding="utf-8") for page in PAGES}
    assert "](images/midgame.svg)" in pages["index.md"]
    for name in ("game.svg", "jerome.svg"):
        assert f"](images/{name})" in pages["tutorial.md"]
    assert '--8<-- "docs/images/jerome-report.html"' in pages["tutorial.md"]


def test_the_header_links_the_repository_of_the_clone(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("repository", DOCS / "repository.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.web_address("git@github.com:o/p.git") == "https://github.com/o/p"
    assert (
        module.web_address("https://user:secret@example.org/o/p.git") == "https://example.org/o/p"
    )
    assert module.web_address("/local/p.git") is None
    clone = tmp_path / "clone"
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    assert module.origin_address(clone) is None
    subprocess.run(
        ["git", "-C", str(clone), "remote", "add", "origin", "git@github.com:o/pastiche.git"],
        check=True,
    )
    assert module.origin_address(clone) == "https://github.com/o/pastiche"
    config = {"repo_url": None, "config_file_path": str(clone / "mkdocs.yml")}
    assert module.on_config(config)["repo_url"] == "https://github.com/o/pastiche"
