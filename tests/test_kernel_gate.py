"""The gate to the compiled kernels: one registry, honest counts, no quiet fallback.

A kernel's twin is reached only through :mod:`pastiche_core.engine._kernels`; these tests
check the gate itself with stand-in twins (so they run with or without a C
compiler) and that the gate, the extension and its type stub name the same kernels.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

import pastiche_core
import pastiche_core.engine
from pastiche_core.engine import _kernels
from pastiche_core.engine._kernels import Fallback, Kernel, compiled_kernels, kernel, switched_off

# The modules whose rules register the twelve kernels (the engine's, rl's and ai's).
_RULE_MODULES = (
    "pastiche_core.engine.movegen",
    "pastiche_core.bots.play",
    "pastiche_core.ai.playout",
    "pastiche_core.ai.heuristics",
)
_STUB = Path(pastiche_core.__file__).parent / "engine" / "_speedups.pyi"


def _all_kernels() -> set[str]:
    for name in _RULE_MODULES:
        importlib.import_module(name)
    pytest.importorskip("numpy")
    importlib.import_module("pastiche_core.rl.observation")
    importlib.import_module("pastiche_core.rl.vector")
    return set(compiled_kernels().names())


def _stub_functions() -> set[str]:
    tree = ast.parse(_STUB.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def _double(x: int) -> int:
    return 2 * x


def _raising(error: BaseException) -> Any:
    def twin(x: int) -> int:
        raise error

    return twin


def test_the_gate_the_stub_and_the_extension_name_the_same_kernels() -> None:
    registered = _all_kernels()
    assert registered == _stub_functions()
    if compiled_kernels().available:
        extension = importlib.import_module("pastiche_core.engine._speedups")
        exported = {name for name in dir(extension) if callable(getattr(extension, name))}
        assert registered == exported - {"OutOfRange", "Reentrant"}
        assert all(stats.built for stats in compiled_kernels().kernels)


def test_a_kernel_is_registered_once() -> None:
    with pytest.raises(ValueError, match="'segment_count' is registered twice"):
        kernel("segment_count", _double)


def test_a_twins_answer_is_returned_and_counted() -> None:
    gate = Kernel("stand-in", _double)
    gate.compiled = lambda x: 2 * x
    assert gate(4) == 8
    stats = gate.stats()
    assert (stats.calls, stats.answered, gate.fallbacks()) == (1, 1, 0)


def test_without_a_twin_the_python_rule_answers() -> None:
    gate = Kernel("stand-in", _double)
    gate.compiled = None
    assert gate(5) == 10
    assert (gate.calls, gate.answered, gate.fallbacks()) == (1, 0, 0)


def test_a_range_refusal_falls_back_and_is_counted_even_when_strict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_kernels, "STRICT", True)
    gate = Kernel("stand-in", _double)
    gate.compiled = _raising(_kernels._OUT_OF_RANGE("beyond the twin's ranges"))
    assert gate(3) == 6
    assert gate.stats().fallbacks == {
        Fallback.OUT_OF_RANGE: 1,
        Fallback.REENTRANT: 0,
        Fallback.ERROR: 0,
    }


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (_kernels._REENTRANT("busy"), Fallback.REENTRANT),
        (TypeError("a bug in the twin"), Fallback.ERROR),
    ],
)
def test_any_other_refusal_is_counted_and_raised_when_strict(
    monkeypatch: pytest.MonkeyPatch, error: BaseException, reason: Fallback
) -> None:
    gate = Kernel("stand-in", _double)
    gate.compiled = _raising(error)
    monkeypatch.setattr(_kernels, "STRICT", False)
    assert gate(3) == 6  # lenient: the Python rule answers, and the fallback is counted
    assert gate.stats().fallbacks[reason] == 1
    monkeypatch.setattr(_kernels, "STRICT", True)
    with pytest.raises(type(error)):
        gate(3)
    assert gate.stats().fallbacks[reason] == 2


def test_switched_off_sends_every_call_to_python_and_restores_the_twins() -> None:
    _all_kernels()
    before = {stats.name: stats.compiled for stats in compiled_kernels().kernels}
    with switched_off("segment_count"):
        states = {stats.name: stats.compiled for stats in compiled_kernels().kernels}
        assert states["segment_count"] is False
        assert {n: c for n, c in states.items() if n != "segment_count"} == {
            n: c for n, c in before.items() if n != "segment_count"
        }
        with switched_off():
            assert not any(stats.compiled for stats in compiled_kernels().kernels)
    assert {stats.name: stats.compiled for stats in compiled_kernels().kernels} == before


def test_an_extension_built_for_another_layout_is_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stale = type(importlib)("pastiche_core.engine._speedups")
    stale.LAYOUT_VERSION = _kernels.LAYOUT_VERSION + 1  # type: ignore[attr-defined]
    stale.CARD_TABLE_SIZE = _kernels.CARD_TABLE_SIZE  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pastiche_core.engine._speedups", stale)
    monkeypatch.setattr(pastiche_core.engine, "_speedups", stale, raising=False)
    monkeypatch.setattr(_kernels, "PURE_PYTHON", False)
    extension, reason = _kernels._load()
    assert extension is None
    assert reason is not None
    assert "build it again" in reason


def test_the_report_says_what_is_in_use() -> None:
    report = compiled_kernels()
    assert bool(report) == report.available == (report.reason is None)
    text = str(report)
    assert text.startswith("compiled kernels: ")
    assert all(name in text for name in report.names())
