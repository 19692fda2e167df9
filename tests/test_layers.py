"""The package's layers: every import goes down, and the few conveniences that reach up are listed.

Each module of ``pastiche_core`` belongs to one layer (:data:`LAYERS`). An import,
at the top of a module or inside a function, may go to a module of the same
layer or of a layer below; the only imports that go up are the conveniences of
:data:`CONVENIENCES` (a method of a core object that hands its work to a layer
above, imported when called). Imports made only for type checking
(``if TYPE_CHECKING:``) run nothing, so they may go sideways but never up.
Beyond the layers, the imports that run (the conveniences aside) form no cycle,
so each module can be read, tested and loaded on top of the ones it names.

The same rules forbid one module from reading another's private names: no
``module._name`` and no ``from module import _name`` across modules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pastiche_core"

# --8<-- [start:layers]
LAYERS: dict[str, tuple[str, ...]] = {
    # 0. data: cards, Novels and catalogues, limits, errors; no rule of play
    "data": ("data",),
    # 1. engine: moves, the rules of play, the game; the compiled kernels' gate beside it
    "engine": ("engine",),
    # 2. solver: "what can I publish?" and how to give the gifts
    "solver": ("solver",),
    # 3. documents and pictures: JSON in and out, records, the invariants, rendering
    "documents": ("io",),
    # 4. capabilities, a folder each; the package's face and the environments' at the root
    "capabilities": (
        "bots",
        "ai",
        "rl",
        "server",
        "cli",
        "gymnasium",
        "pettingzoo",
        "openspiel",
        "__main__",
        "__init__",
        "_version",
    ),
}
"""Layer name -> its folders (the root's face modules in the top layer), lowest layer first."""

CONVENIENCES: frozenset[tuple[str, str, str]] = frozenset(
    {
        # (importing module, function that imports, imported module)
        ("data.cards", "Card._repr_svg_", "io.render"),
        ("data.cards", "Card.__rich__", "io.render"),
        ("engine.game", "Game._repr_html_", "io.render"),
        ("engine.game", "Game.__rich__", "io.render"),
        ("engine.game", "Game.position", "solver.position"),
        ("engine.game", "Game.to_json", "io.state_json"),
        ("engine.game", "Game.from_json", "io.state_json"),
        ("solver.position", "Position._repr_svg_", "io.render"),
        ("solver.position", "Position.__rich__", "io.render"),
        ("solver.report", "PublishReport._repr_html_", "io.render"),
        ("solver.report", "PublishReport.__rich__", "io.render"),
    }
)
"""The only imports that go up a layer: conveniences on core objects, imported when called."""
# --8<-- [end:layers]


def _layer_of(module: str) -> int:
    """The layer index of a module path relative to the package (``"io.state_json"``)."""
    top = module.split(".")[0]
    for index, members in enumerate(LAYERS.values()):
        if top in members:
            return index
    raise AssertionError(
        f"pastiche_core.{module} is in no layer's folder: move it into one (LAYERS)"
    )


@dataclass(frozen=True)
class _Import:
    source: str  # the importing module, relative to the package
    target: str  # the imported module, relative to the package
    where: str  # the function (qualified) that imports, or "" at module level
    typing_only: bool
    line: int


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        yield ".".join(parts), path


def _resolve(source: str, is_package: bool, level: int, name: str | None) -> str | None:
    """The package-relative module a ``from ... import`` names, or None outside the package."""
    if level == 0:
        if name is None or not (name == "pastiche_core" or name.startswith("pastiche_core.")):
            return None
        return name.removeprefix("pastiche_core").removeprefix(".") or "__init__"
    base = source.split(".") if source != "__init__" else []
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    parts = [*base, *(name.split(".") if name else [])]
    return ".".join(parts) or "__init__"


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module of the package (the compiled extension by its stub)."""
    path = PACKAGE.joinpath(*name.split("."))
    return (
        any(path.with_suffix(end).exists() for end in (".py", ".pyi"))
        or (path / "__init__.py").exists()
    )


class _Collector(ast.NodeVisitor):
    def __init__(self, source: str, is_package: bool) -> None:
        self.source = source
        self.is_package = is_package
        self.scope: list[str] = []
        self.typing = 0
        self.found: list[_Import] = []
        self.private: list[tuple[int, str]] = []
        self.defined: set[str] = set()  # private names this module defines

    def _add(self, target: str, line: int) -> None:
        self.found.append(_Import(self.source, target, ".".join(self.scope), self.typing > 0, line))

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        typing = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        )
        if typing:
            self.typing += 1
            for child in node.body:
                self.visit(child)
            self.typing -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.defined.add(node.name)
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = _scoped  # noqa: N815
    visit_AsyncFunctionDef = _scoped  # noqa: N815
    visit_ClassDef = _scoped  # noqa: N815

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            target = _resolve(self.source, self.is_package, 0, alias.name)
            if target is not None:
                self._add(target, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _resolve(self.source, self.is_package, node.level, node.module)
        if base is None:
            return
        for alias in node.names:
            sub = f"{base}.{alias.name}" if base != "__init__" else alias.name
            if _is_module(sub):
                self._add(sub, node.lineno)
            else:
                self._add(base, node.lineno)
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    self.private.append((node.lineno, f"from {base} import {alias.name}"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if name.startswith("_") and not name.startswith("__"):
            if isinstance(node.ctx, ast.Store):
                self.defined.add(name)
            owner = node.value
            # A class's own members, inherited ones included (a base class's hooks).
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                self.private.append((node.lineno, f"{ast.unparse(owner)}.{name}"))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.defined.add(node.id)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):  # names in __slots__
            self.defined.add(node.value)

    def foreign(self) -> list[tuple[int, str]]:
        """The private names read here that this module does not define itself."""
        return [
            (line, text)
            for line, text in self.private
            if text.startswith("from ") or text.rsplit(".", 1)[1] not in self.defined
        ]


def _scan() -> tuple[list[_Import], dict[str, list[tuple[int, str]]]]:
    imports: list[_Import] = []
    private: dict[str, list[tuple[int, str]]] = {}
    for module, path in _modules():
        collector = _Collector(module, path.name == "__init__.py")
        collector.visit(ast.parse(path.read_text(encoding="utf-8")))
        imports.extend(collector.found)
        if collector.foreign():
            private[module] = collector.foreign()
    return imports, private


IMPORTS, PRIVATE = _scan()


def _convenience(edge: _Import) -> bool:
    """Whether ``edge`` is a listed convenience, or the type-only import that annotates one."""
    if edge.typing_only:
        return any(
            edge.source == source and edge.target == target for source, _, target in CONVENIENCES
        )
    return (edge.source, edge.where, edge.target) in CONVENIENCES


def _package_inits(target: str) -> list[str]:
    """The modules an import of ``target`` runs: each enclosing package, then the module."""
    parts = target.split(".")
    return [".".join(parts[: index + 1]) for index in range(len(parts))]


def test_every_module_has_a_layer() -> None:
    for module, _ in _modules():
        _layer_of(module)


def test_the_folders_are_the_layers() -> None:
    """The package root holds the layers' folders and the package's faces, no other module."""
    folders = {name for members in LAYERS.values() for name in members}
    root = {
        path.stem if path.is_file() else path.name
        for path in PACKAGE.iterdir()
        if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix in (".py", ".pyi")
    }
    assert root == folders, sorted(root ^ folders)
    # The package's face, and the environments' faces the contracts name at the root.
    flat = {"__init__", "__main__", "_version", "gymnasium", "pettingzoo", "openspiel"}
    for name in folders - flat:
        assert (PACKAGE / name / "__init__.py").is_file(), f"{name} is a layer folder"


def test_no_import_goes_up_but_the_listed_conveniences() -> None:
    upward = [
        f"pastiche_core.{edge.source}:{edge.line} ({edge.where or 'module level'}) imports "
        f"pastiche_core.{edge.target}"
        for edge in IMPORTS
        if _layer_of(edge.target) > _layer_of(edge.source) and not _convenience(edge)
    ]
    assert upward == []


def test_the_conveniences_are_where_they_are_listed() -> None:
    """A convenience that moved or went away is taken off the list, so the list stays true."""
    found = {(edge.source, edge.where, edge.target) for edge in IMPORTS if not edge.typing_only}
    assert found >= CONVENIENCES, sorted(CONVENIENCES - found)


def test_no_cycle_among_the_imports_that_run() -> None:
    graph: dict[str, set[str]] = {}
    for edge in IMPORTS:
        if edge.typing_only or _convenience(edge) or edge.source == "__init__":
            continue
        ancestors = _package_inits(edge.source)
        for target in _package_inits(edge.target):
            if target not in ancestors and target != "__init__":
                graph.setdefault(edge.source, set()).add(target)
    # Depth-first search for a back edge; report one cycle in full.
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for following in sorted(graph.get(node, ())):
            if state.get(following) == 1:
                return [*stack[stack.index(following) :], following]
            if following not in state:
                found = visit(following)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("module", sorted(PRIVATE))
def test_no_module_reads_another_modules_private_names(module: str) -> None:
    assert PRIVATE[module] == []


LEFT_ALONE = [
    (
        ("pastiche_core",),
        (
            "ortools", "rich", "starlette", "uvicorn", "ray", "numpy", "gymnasium", "pettingzoo",
            "pyspiel", "open_spiel", "jsonschema", "playwright", "psycopg", "torch",
            "pastiche_core.gymnasium", "pastiche_core.server", "sqlite3", "anyio",
        ),
    ),
    (("pastiche_core.cli",), ("starlette", "uvicorn", "anyio", "pastiche_core.server", "sqlite3")),
    (("pastiche_core.server",), ("starlette", "uvicorn", "psycopg")),
    (
        ("pastiche_core.gymnasium", "pastiche_core.rl.vector", "pastiche_core.rl.rllib_env"),
        ("ray", "torch", "stable_baselines3", "sb3_contrib"),
    ),
]  # fmt: skip
"""What importing some modules must not load: the optional extras stay out until used."""


@pytest.mark.parametrize(("modules", "heavy"), LEFT_ALONE, ids=[m[0] for m, _ in LEFT_ALONE])
def test_importing_leaves_the_optional_extras_alone(
    modules: tuple[str, ...], heavy: tuple[str, ...]
) -> None:
    if modules[0] == "pastiche_core.gymnasium":
        pytest.importorskip("gymnasium")
    code = (
        f"import sys, {', '.join(modules)}\nprint(sorted(m for m in {heavy!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
