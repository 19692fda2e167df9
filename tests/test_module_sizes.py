"""Every module of the package stays under 1,000 lines, so each can be read as one concept.

A module that grows past the limit is split by concern into modules beside it,
the old module re-exporting its names (``movegen`` and ``movegen_count`` are one
example).
"""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pastiche_core"
MAX_LINES = 1_000


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _modules() -> list[str]:
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("module", _modules())
def test_no_module_is_over_the_limit(module: str) -> None:
    lines = _lines(PACKAGE / module)
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it by concern"


def test_the_count_sees_a_long_module(tmp_path: Path) -> None:
    long = tmp_path / "long.py"
    long.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert _lines(long) > MAX_LINES
