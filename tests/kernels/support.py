"""What the kernel tests share: the compiled twin of a kernel, or a skip (a failure in CI).

A kernel test calls the compiled twin directly (``twin(kernel)``), not the gate,
so an answer it checks is the C's own: a twin that refused, or fell back, could
not pass as agreeing. ``agree`` compares the twin with the Python rule on one
input and returns the answer; ``starved`` makes each of the twin's allocations
fail in turn, and the twin must then raise MemoryError or still answer right;
``leaked`` measures what the twin's calls leave allocated.
"""

from __future__ import annotations

import gc
import os
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from pastiche_core.engine import _kernels

REQUIRED = bool(os.environ.get("PASTICHE_REQUIRE_SPEEDUPS"))
"""Set by CI where a C compiler built the extension: a kernel test must not skip there."""


def twin(kernel: _kernels.Kernel[Any, Any]) -> Callable[..., Any]:
    """The compiled twin of ``kernel``; the test skips without one (fails if one is required)."""
    built = kernel.built
    if built is None:
        if REQUIRED:
            pytest.fail(f"the compiled twin of {kernel.name} is not built")
        pytest.skip(f"the compiled twin of {kernel.name} is not built")
    return built


STARVED_ALLOCATIONS = 120
"""How many of a call's allocations ``starved`` makes fail, one per call."""


def starved(kernel: _kernels.Kernel[Any, Any], *args: Any) -> int:
    """Call the compiled twin with its first allocations failing, one at a time: each call
    raises MemoryError or returns the Python rule's answer, never a part of it (an error
    swallowed) or another error. Returns how many calls ran out of memory.

    CPython's ``_testcapi`` makes the allocations fail; without it the test skips.
    """
    testcapi = pytest.importorskip("_testcapi")
    compiled = twin(kernel)
    python = kernel.python(*args)
    failed = 0
    collecting = gc.isenabled()
    gc.disable()  # a collection inside the call would run Python callbacks out of memory
    # The failing allocations are the whole process's: no other thread (the test runner's
    # messaging) may take the interpreter while they fail, or its own allocation fails.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    # A thread already waiting for the interpreter waits out the old interval and then asks
    # for it: let such a thread run now, so that it next waits with the long one.
    time.sleep(0.01)
    try:
        for allocation in range(STARVED_ALLOCATIONS):
            testcapi.set_nomemory(allocation, allocation + 1)
            try:
                answer = compiled(*args)
            except MemoryError:
                failed += 1
                continue
            finally:
                testcapi.remove_mem_hooks()
            assert answer == python, (
                f"{kernel.name}{args!r} with allocation {allocation} failing: "
                f"compiled {answer!r}, python {python!r}"
            )
    finally:
        sys.setswitchinterval(interval)
        if collecting:
            gc.enable()
    return failed


def leaked(kernel: _kernels.Kernel[Any, Any], *args: Any, calls: int = 50) -> int:
    """The bytes ``calls`` calls of the compiled twin on ``args`` leave allocated, their
    answers dropped: 0 when each call frees its scratch (tracemalloc sees ``PyMem_Malloc``)."""
    compiled = twin(kernel)
    compiled(*args)  # what a first call caches (interned names, say) is not counted
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(calls):
            compiled(*args)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        if not tracing:
            tracemalloc.stop()


def agree(kernel: _kernels.Kernel[Any, Any], *args: Any) -> Any:
    """The compiled twin's answer for ``args``, checked equal to the Python rule's."""
    compiled = twin(kernel)(*args)
    python = kernel.python(*args)
    assert compiled == python, f"{kernel.name}{args!r}: compiled {compiled!r}, python {python!r}"
    return compiled
