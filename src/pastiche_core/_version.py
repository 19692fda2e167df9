"""The version of pastiche_core, in one place.

``pyproject.toml`` reads it at build time (``[tool.setuptools.dynamic]``), the
package exports it as ``pastiche_core.__version__``, the service's OpenAPI
document states it and ``pastiche --version`` prints it, so a release changes
this line alone.

>>> import pastiche_core
>>> pastiche_core.__version__ == __version__
True
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
"""The release number, ``MAJOR.MINOR.PATCH``."""
