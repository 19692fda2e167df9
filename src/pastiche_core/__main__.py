"""Run the command line as ``python -m pastiche_core``: see :mod:`pastiche_core.cli`."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
