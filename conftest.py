"""Doctest collection: the modules of the ``rl`` extra are left out when it is not installed.

``pytest`` collects the package's doctests from ``src/pastiche_core``; importing the
modules built on numpy, gymnasium, PettingZoo or OpenSpiel would fail without the
extra, so they are not collected then (their tests in ``tests/rl`` skip).
"""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "src/pastiche_core/rl": ("numpy",),
    "src/pastiche_core/rl/aec.py": ("gymnasium", "pettingzoo"),
    "src/pastiche_core/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/pastiche_core/rl/spiel.py": ("pyspiel",),
    "src/pastiche_core/openspiel.py": ("numpy", "pyspiel"),
    "src/pastiche_core/rl/sb3_bridge.py": ("gymnasium", "stable_baselines3"),
}


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return True


collect_ignore = [
    path for path, modules in _NEEDS.items() if any(_missing(module) for module in modules)
]
