"""The package's layout stays easy to see: no import loops, optional extras stay optional.

A module may import another inside a function (that is how the engine reaches
its renderers and readers lazily), but at module level the imports between the
package's modules form no loop, so any module can be imported first.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SOURCE / "pastiche_core"


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules ``path`` imports at module level (not in functions or TYPE_CHECKING)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        imports = [node] if isinstance(node, ast.Import | ast.ImportFrom) else []
        if isinstance(node, ast.Try):
            imports = [n for n in node.body if isinstance(n, ast.Import | ast.ImportFrom)]
        for item in imports:
            if isinstance(item, ast.Import):
                found.update(alias.name for alias in item.names if alias.name in modules)
                continue
            base = package
            for _ in range(item.level - 1):
                base = base.rpartition(".")[0]
            target = (
                (f"{base}.{item.module}" if item.module else base) if item.level else item.module
            )
            if target is None:
                continue
            for alias in item.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if candidate in modules else target)
    return {module for module in found if module in modules and module != name}


def test_no_module_level_import_loops() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    graph = {module_name(path): module_level_imports(path, modules) for path in paths}
    # A package's __init__ gathers its modules; a module importing its own package's
    # __init__ would loop back through it.
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                loop = [*stack[stack.index(target) :], target]
                raise AssertionError("module-level import loop: " + " -> ".join(loop))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_importing_the_package_loads_no_optional_extra() -> None:
    code = (
        "import sys, pastiche_core\n"
        "heavy = ['ortools', 'rich', 'starlette', 'uvicorn', 'ray', 'numpy', 'gymnasium',"
        " 'pettingzoo', 'pyspiel', 'open_spiel', 'jsonschema', 'playwright']\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
