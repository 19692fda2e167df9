"""Build configuration beyond pyproject.toml: the optional compiled kernels.

``src/pastiche_core/engine/csrc/`` holds the C twins of a few rules (see
``pastiche_core/engine/_kernels.py``, the one gate that loads them, and the maintainer
guide). The extension is optional: without a C compiler (or Python's headers) the
build goes on, and the Python rules answer alone.
"""

from pathlib import Path

from setuptools import Extension, setup

_CSRC = Path("src/pastiche_core/engine/csrc")
_SUBSYSTEMS = ["module", "counting", "masks", "observe", "playouts", "game", "episode"]

setup(
    ext_modules=[
        Extension(
            "pastiche_core.engine._speedups",
            sources=[str(_CSRC / f"{name}.c") for name in _SUBSYSTEMS],
            depends=[str(path) for path in sorted(_CSRC.glob("*.h"))],
            include_dirs=[str(_CSRC)],
            optional=True,
        ),
    ]
)
