"""The build configuration tells the truth: one version, every C file built, every data file shipped.

``.ci/package`` builds and installs the sdist and the wheel (minutes); these tests
check, in a moment, the configuration those builds read: ``pyproject.toml``
takes the version from ``pastiche_core/_version.py``, ``setup.py`` compiles every
C file of ``csrc/`` into exactly one extension, ``MANIFEST.in`` brings every C
file into the sdist, and ``pyproject.toml``'s package data names every data file
of the package (schemas, static files, the stubs) so that the wheel holds them.
"""

from __future__ import annotations

import fnmatch
import runpy
import tomllib
from pathlib import Path
from typing import Any

import pytest

import pastiche_core
from pastiche_core import _version

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pastiche_core"
CSRC = PACKAGE / "engine" / "csrc"
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS: dict[str, Any] = PYPROJECT["tool"]["setuptools"]
setuptools = pytest.importorskip("setuptools")  # in every build environment; not always in a venv


def _extensions(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The extensions ``setup.py`` declares, read by running it with ``setup()`` replaced."""
    found: list[Any] = []
    monkeypatch.chdir(ROOT)  # setup.py names its sources relative to the repository
    monkeypatch.setattr(setuptools, "setup", lambda **kw: found.extend(kw.get("ext_modules", [])))
    runpy.run_path(str(ROOT / "setup.py"))
    return found


def test_the_version_has_one_home_read_by_the_build() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "pastiche_core._version.__version__"}
    assert pastiche_core.__version__ is _version.__version__


def test_the_openapi_document_states_the_version() -> None:
    pytest.importorskip("starlette")
    from pastiche_core.server.openapi import openapi

    assert openapi()["info"]["version"] == _version.__version__


def test_setup_py_builds_every_c_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    extensions = _extensions(monkeypatch)
    names = [ext.name for ext in extensions]
    assert "pastiche_core.engine._speedups" in names
    assert len(set(names)) == len(names)
    sources = [Path(source) for ext in extensions for source in ext.sources]
    assert all((ROOT / source).is_file() for source in sources), sources
    # A kernel file left out of setup.py would build nothing and leave its twin silently off.
    assert sorted(sources) == sorted(path.relative_to(ROOT) for path in CSRC.glob("*.c"))
    assert all(ext.optional for ext in extensions)  # no C compiler: the Python rules answer


def test_manifest_brings_every_c_source_and_header_into_the_sdist() -> None:
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    patterns = [
        line.split()[2:]
        for line in lines
        if line.startswith("recursive-include ")
        and line.split()[1] == "src/pastiche_core/engine/csrc"
    ]
    files = sorted(CSRC.glob("*.[ch]"))
    assert any(path.suffix == ".h" for path in files)
    for path in files:
        assert any(fnmatch.fnmatch(path.name, p) for group in patterns for p in group), path


def _data_files() -> list[Path]:
    """Every file of the package that is neither Python, nor built, nor a C source."""
    return sorted(
        path.relative_to(PACKAGE)
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix not in {".py", ".pyc", ".so", ".pyd"}
        and "__pycache__" not in path.parts
        and CSRC not in path.parents
    )


def test_package_data_names_every_data_file_of_the_package() -> None:
    patterns = SETUPTOOLS["package-data"]["pastiche_core"]
    files = _data_files()
    for required in ("py.typed", "engine/_speedups.pyi"):
        assert Path(required) in files
    assert any(path.parts[0] == "server" and path.parent.name == "static" for path in files)
    for path in files:
        assert any(fnmatch.fnmatch(path.as_posix(), pattern) for pattern in patterns), path
