"""Capability: games played by bots to the end, one at a time (:mod:`~pastiche_core.bots.play`)
or many (:mod:`~pastiche_core.bots.simulate`).

The names of :mod:`pastiche_core.bots.play` are this package's face, so
``from pastiche_core.bots import play_game, random_game`` reads as it always did.

>>> from pastiche_core.bots import random_game
>>> random_game(3, 7).reason
'countdown'
"""

from __future__ import annotations

from . import play
from .play import *  # noqa: F403  # the public face, listed once: play.__all__

__all__ = play.__all__
