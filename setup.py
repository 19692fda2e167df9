"""Build configuration beyond pyproject.toml: the optional compiled kernels.

``src/pastiche_core/_speedups.c`` holds compiled twins of two counting kernels of
``pastiche_core.movegen``. The extension is optional: without a C compiler (or
Python's headers) the build goes on and the pure-Python kernels are used.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pastiche_core._speedups",
            sources=["src/pastiche_core/_speedups.c"],
            optional=True,
        )
    ]
)
