"""Layer 2, solver: "what can I publish?" and how to give the gifts (R4-R9).

The public face is :mod:`pastiche_core.solver.queries` (``solve``, ``best``,
``why_not`` ...), re-exported here so ``pastiche_core.solver.queries`` and
``from pastiche_core.solver import solve`` both work; ``fast`` is the exact
enumerator, ``cpsat`` the OR-Tools model that checks it.

>>> from pastiche_core.solver import ENGINES
>>> ENGINES
('fast', 'cpsat')
"""

from __future__ import annotations

from . import queries
from .closeness import OutsReport, outs  # how close each Novel is
from .position import position_of  # a view's publish position (R16)
from .queries import *  # noqa: F403  # the public face, listed once: queries.__all__

__all__ = [*queries.__all__, "OutsReport", "outs", "position_of"]
