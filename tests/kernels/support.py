"""What the kernel tests share: the compiled twin of a kernel, or a skip (a failure in CI).

A kernel test calls the compiled twin directly (``twin(kernel)``), not the gate,
so an answer it checks is the C's own: a twin that refused, or fell back, could
not pass as agreeing. ``agree`` compares the twin with the Python rule on one
input and returns the answer.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from pastiche_core import _kernels

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


def agree(kernel: _kernels.Kernel[Any, Any], *args: Any) -> Any:
    """The compiled twin's answer for ``args``, checked equal to the Python rule's."""
    compiled = twin(kernel)(*args)
    python = kernel.python(*args)
    assert compiled == python, f"{kernel.name}{args!r}: compiled {compiled!r}, python {python!r}"
    return compiled
