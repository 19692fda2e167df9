"""The one gate to the compiled kernels: their import, their switches and their counts.

Some rules are computed millions of times a second by searches and learning
loops, so a few of them have a compiled twin in C (``csrc/``, built at install as
``pastiche_core.engine._speedups`` when a C compiler is present). Each rule stays
written once, in Python: the C is a second implementation of the same function,
with the same arguments (the packed arrays of :mod:`pastiche_core.engine.layout`) and
the same answer. This module is the only one that imports the extension. Each
rule with a twin registers here as a :class:`Kernel`, and its callers call that
kernel, which

* calls the compiled twin when the extension is built, loaded and the kernel
  switched on, and returns its answer;
* else, or when the twin refuses, calls the Python rule;
* counts every call, every compiled answer and every fallback by its reason
  (:class:`Fallback`): an input beyond the twin's fixed ranges (documented, and
  expected for rare large positions), the twin in use (re-entrant; no kernel of
  today's C refuses so, since none shares state between calls) or an error.

``PASTICHE_PURE_PYTHON=1`` in the environment keeps the extension unloaded;
``PASTICHE_KERNELS_OFF=name,name`` switches single kernels off; ``with
switched_off("name"):`` does the same in a block (tests and benchmarks).
``PASTICHE_STRICT_KERNELS=1`` (set by CI) turns a fallback for any reason but a
range refusal into an error, so a kernel that fails quietly cannot pass a test.
:func:`compiled_kernels` reports it all.

>>> report = compiled_kernels()
>>> isinstance(report.available, bool), "payable_totals" in report.names()
(True, True)
"""

from __future__ import annotations

import contextlib
import enum
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar

from .layout import CARD_TABLE_SIZE, LAYOUT_VERSION

__all__ = [
    "Fallback",
    "Kernel",
    "KernelReport",
    "KernelStats",
    "compiled_kernels",
    "kernel",
    "switched_off",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")

PURE_PYTHON = bool(os.environ.get("PASTICHE_PURE_PYTHON"))
"""Whether the environment asked for the Python rules alone (``PASTICHE_PURE_PYTHON``)."""
STRICT = bool(os.environ.get("PASTICHE_STRICT_KERNELS"))
"""Whether a fallback for any reason but a range refusal raises (``PASTICHE_STRICT_KERNELS``)."""
_OFF = frozenset(
    name.strip() for name in os.environ.get("PASTICHE_KERNELS_OFF", "").split(",") if name.strip()
)


class Fallback(enum.Enum):
    """Why a call went to the Python rule instead of the compiled twin."""

    OUT_OF_RANGE = "out of range"
    """The input is beyond the twin's fixed ranges (documented per kernel): expected, rare."""
    REENTRANT = "re-entrant"
    """The twin was in use and could not be entered again."""
    ERROR = "error"
    """The twin raised anything else: a bug, never expected (strict mode raises it)."""


def _load() -> tuple[ModuleType | None, str | None]:
    """The extension, or None and why not."""
    if PURE_PYTHON:
        return None, "PASTICHE_PURE_PYTHON is set"
    try:
        import pastiche_core.engine._speedups as _speedups  # names the module when it is missing
    except ImportError as error:  # built without a C compiler
        return None, f"not built ({error})"
    built_for = getattr(_speedups, "LAYOUT_VERSION", None)
    if built_for != LAYOUT_VERSION or getattr(_speedups, "CARD_TABLE_SIZE", None) != (
        CARD_TABLE_SIZE
    ):
        return None, f"built for layout {built_for!r}, not {LAYOUT_VERSION}: build it again"
    return _speedups, None


_EXTENSION, _WHY_NOT = _load()
_OUT_OF_RANGE: type[BaseException] = (
    getattr(_EXTENSION, "OutOfRange", OverflowError) if _EXTENSION else OverflowError
)
_REENTRANT: type[BaseException] = (
    getattr(_EXTENSION, "Reentrant", RuntimeError) if _EXTENSION else RuntimeError
)


class Kernel(Generic[_P, _R]):
    """One rule with a compiled twin: call it as the rule itself.

    The compiled twin answers when it can; the Python rule answers otherwise.
    ``python`` is the rule (the definition, tested on its own), ``compiled``
    the twin in use now (``None`` when not built or switched off).
    """

    __slots__ = (
        "built",
        "calls",
        "compiled",
        "errors",
        "name",
        "out_of_range",
        "python",
        "python_calls",
        "reentrant",
    )

    def __init__(self, name: str, python: Callable[_P, _R]) -> None:
        self.name = name
        self.python = python
        self.built: Callable[_P, _R] | None = (
            getattr(_EXTENSION, name, None) if _EXTENSION is not None else None
        )
        self.compiled = self.built if name not in _OFF else None
        self.calls = 0
        self.python_calls = 0  # calls made while no twin was in use
        self.out_of_range = 0
        self.reentrant = 0
        self.errors = 0

    if TYPE_CHECKING:

        def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...

    else:

        def __call__(self, *args):
            # The hot path: positional arguments only (every kernel takes them so), and one
            # count per call; the compiled answers are the calls less the rest.
            self.calls += 1
            compiled = self.compiled
            if compiled is None:
                self.python_calls += 1
                return self.python(*args)
            try:
                return compiled(*args)
            except _OUT_OF_RANGE:
                self.out_of_range += 1
            except _REENTRANT:
                self.reentrant += 1
                if STRICT:
                    raise
            except Exception:
                self.errors += 1
                if STRICT:
                    raise
            return self.python(*args)

    @property
    def answered(self) -> int:
        """Calls the compiled twin answered."""
        return self.calls - self.python_calls - self.fallbacks()

    def fallbacks(self) -> int:
        """Calls the Python rule answered although the twin was in use."""
        return self.out_of_range + self.reentrant + self.errors

    def stats(self) -> KernelStats:
        """The counts so far, as a :class:`KernelStats`."""
        return KernelStats(
            self.name,
            self.built is not None,
            self.compiled is not None,
            self.calls,
            self.answered,
            {
                Fallback.OUT_OF_RANGE: self.out_of_range,
                Fallback.REENTRANT: self.reentrant,
                Fallback.ERROR: self.errors,
            },
        )

    def __repr__(self) -> str:
        state = "compiled" if self.compiled is not None else "python"
        return f"<Kernel {self.name} ({state}): {self.calls} calls, {self.answered} compiled>"


_KERNELS: dict[str, Kernel[Any, Any]] = {}


def kernel(name: str, python: Callable[_P, _R]) -> Kernel[_P, _R]:
    """The kernel ``name``: the Python rule ``python`` with its compiled twin of that name.

    Each rule registers once, where it is written; a second registration of
    one name is refused, so two rules cannot share a twin.
    """
    if name in _KERNELS:
        raise ValueError(f"kernel {name!r} is registered twice")
    made: Kernel[_P, _R] = Kernel(name, python)
    _KERNELS[name] = made
    return made


@contextlib.contextmanager
def switched_off(*names: str) -> Iterator[None]:
    """Within the block, the named kernels (all if none is named) answer in Python alone.

    >>> with switched_off():
    ...     all(not stats.compiled for stats in compiled_kernels().kernels)
    True
    """
    chosen = [_KERNELS[name] for name in names] if names else list(_KERNELS.values())
    saved = [(each, each.compiled) for each in chosen]
    for each in chosen:
        each.compiled = None
    try:
        yield
    finally:
        for each, compiled in saved:
            each.compiled = compiled


@dataclass(frozen=True, slots=True)
class KernelStats:
    """One kernel's state and counts (see :class:`Kernel`)."""

    name: str
    """The kernel's name: its Python rule's and its compiled twin's."""
    built: bool
    """Whether the extension holds its twin."""
    compiled: bool
    """Whether the twin is in use now (built, and not switched off)."""
    calls: int
    """Calls so far (the compiled twin's and the Python rule's answers together)."""
    answered: int
    """Calls the compiled twin answered."""
    fallbacks: dict[Fallback, int]
    """Calls the Python rule answered although the twin was in use, by reason."""


@dataclass(frozen=True, slots=True)
class KernelReport:
    """Whether the compiled kernels are in use, why not, and each kernel's counts.

    True when the extension is loaded (``if compiled_kernels():``).
    """

    available: bool
    """Whether the extension is loaded (built, of this layout, not turned off)."""
    reason: str | None
    """Why the extension is not in use, ``None`` when it is."""
    kernels: tuple[KernelStats, ...]
    """Every registered kernel's state and counts, by name."""

    def __bool__(self) -> bool:
        return self.available

    def names(self) -> tuple[str, ...]:
        """The registered kernels' names."""
        return tuple(stats.name for stats in self.kernels)

    def __str__(self) -> str:
        head = "compiled kernels: " + ("in use" if self.available else f"off ({self.reason})")
        rows = [
            f"  {s.name:18} {'compiled' if s.compiled else 'python':8} {s.calls:>10} calls"
            f" {s.answered:>10} compiled"
            + "".join(f" {n} {reason.value}" for reason, n in s.fallbacks.items() if n)
            for s in self.kernels
        ]
        return "\n".join([head, *rows])


def compiled_kernels() -> KernelReport:
    """Whether the compiled kernels are in use, and the calls and fallbacks of every kernel.

    Without a C compiler at install, or with ``PASTICHE_PURE_PYTHON=1``, every
    answer comes from the Python rules, the same answers more slowly. A kernel
    is listed once the module of its rule is imported (``import pastiche_core``
    imports the engine's; the ``rl`` and ``ai`` modules bring theirs).

    >>> report = compiled_kernels()
    >>> bool(report) == report.available == (report.reason is None)
    True
    """
    return KernelReport(
        _EXTENSION is not None,
        _WHY_NOT,
        tuple(each.stats() for each in sorted(_KERNELS.values(), key=lambda k: k.name)),
    )
