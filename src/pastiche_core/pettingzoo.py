"""PettingZoo: Pastiche as an AEC environment (the ``rl`` extra).

``env(players=4, catalogue="default", render_mode=None)`` makes the environment
of :mod:`pastiche_core.rl.aec`, wrapped in PettingZoo's order-enforcing wrapper
as PettingZoo's own environments are; ``raw_env`` is the environment class
itself. Observations are dicts with ``"observation"`` (a
:class:`~pastiche_core.rl.observation.ObservationEncoder` vector) and
``"action_mask"`` (the legal atomic actions of
:class:`~pastiche_core.rl.encoding.ActionSpace`).

>>> from pastiche_core.pettingzoo import env
>>> game_env = env(players=3)
>>> game_env.reset(seed=42)
>>> observation, reward, terminated, truncated, info = game_env.last()
>>> game_env.agent_selection, int(observation["action_mask"].sum()) > 0
('player_2', True)
"""

from __future__ import annotations

try:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise ModuleNotFoundError(
        f"pastiche_core.pettingzoo needs {error.name}: install the rl extra, "
        "pip install 'pastiche-core[rl]'",
        name=error.name,
    ) from error

from .catalogue import Catalogue
from .rl.aec import Observation, PasticheEnv, returns, winner_returns

__all__ = ["PasticheEnv", "env", "raw_env", "returns", "winner_returns"]

raw_env = PasticheEnv
"""The environment class, unwrapped."""


def env(
    players: int = 4,
    catalogue: str | Catalogue = "default",
    render_mode: str | None = None,
) -> OrderEnforcingWrapper[str, Observation, int]:
    """A Pastiche AEC environment for ``players`` seats (3–5).

    ``catalogue`` is a :class:`~pastiche_core.catalogue.Catalogue`, a shipped
    catalogue's name or a TOML catalogue file; ``render_mode`` is ``None`` or
    ``"ansi"``.

    >>> env(players=4).unwrapped.space.size
    357
    """
    return OrderEnforcingWrapper(
        PasticheEnv(players=players, catalogue=catalogue, render_mode=render_mode)
    )
