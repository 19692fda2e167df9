"""Test configuration: Hypothesis profiles and the tests' registered pattern kinds.

Three Hypothesis profiles: ``dev``, the default, is quick (15 examples per
property) so that ``./run tests`` stays quick (the README gives its time);
``ci`` (selected when the CI environment variable is set) checks 60 examples
per property, derandomized, as CI always has; ``thorough`` is for long runs
(``HYPOTHESIS_PROFILE=thorough``, 2,000 examples).

Tests marked ``kernels`` compare a compiled kernel with its Python twin
(``./run tests -m kernels``); with ``PASTICHE_STRICT_KERNELS=1`` (CI) a test in
which a kernel fell back to Python for anything but a documented range refusal
fails.

Tests marked ``slow`` (a Ray cluster's start, a whole game in a browser, the
largest exhaustive case) run in CI and with ``PASTICHE_SLOW=1``; a quick run
lists them as skipped.

The user-defined patterns of ``custom_patterns`` and ``position_strategies`` are
registered under their kinds (R3), so that catalogues holding them load back from
their JSON and TOML forms, as a program that defines patterns would do.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from custom_patterns import AllOdd, SumOfAnySize
from hypothesis import HealthCheck, settings
from position_strategies import Sandwich, SmallSum

from pastiche_core import register_pattern
from pastiche_core.engine import _kernels

TEST_KINDS = {
    "all-odd": AllOdd,
    "sum-any": SumOfAnySize,
    "sandwich": Sandwich,
    "small-sum": SmallSum,
}
"""The pattern kinds every test may name, registered once for the session."""

for _kind, _factory in TEST_KINDS.items():
    register_pattern(_kind, _factory)

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.register_profile(
    "dev",
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


RUN_SLOW = bool(os.environ.get("CI") or os.environ.get("PASTICHE_SLOW"))
"""Whether tests marked ``slow`` run: in CI, or when asked for."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the ``slow`` tests in a quick run (they run in CI)."""
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow: runs in CI (CI set) or with PASTICHE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _whole_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output goes to a pipe in tests: tables are whole unless a test sets ``COLUMNS``."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture(autouse=True)
def _strict_kernels() -> Iterator[None]:
    """With ``PASTICHE_STRICT_KERNELS`` (CI), a test fails if a kernel fell back but for range.

    The gate raises such a fallback at once in strict mode; this fixture also
    catches one that the code under test swallowed.
    """
    if not _kernels.STRICT:
        yield
        return
    report = _kernels.compiled_kernels()
    before = {s.name: _unexpected(s) for s in report.kernels}
    yield
    after = {s.name: _unexpected(s) for s in _kernels.compiled_kernels().kernels}
    fell = {name: n - before.get(name, 0) for name, n in after.items() if n > before.get(name, 0)}
    assert not fell, f"compiled kernels fell back to Python (re-entrant or error): {fell}"


def _unexpected(stats: _kernels.KernelStats) -> int:
    """A kernel's fallbacks for any reason but a documented range refusal."""
    return sum(
        n for reason, n in stats.fallbacks.items() if reason is not _kernels.Fallback.OUT_OF_RANGE
    )
