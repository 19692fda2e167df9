"""PettingZoo: Pastiche as an AEC environment (the ``rl`` extra).

``env(players=4, catalogue="default", render_mode=None, rules=None, normalize=False)``
makes the environment of :mod:`pastiche_core.rl.aec`, wrapped in PettingZoo's
order-enforcing wrapper as PettingZoo's own environments are
(:class:`OrderEnforcing`); ``raw_env`` is the environment class itself. Observations are dicts with ``"observation"`` (a
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

from .data.errors import missing_extra

try:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    from pettingzoo.utils.wrappers.order_enforcing import (
        AECOrderEnforcingIterable,
        AECOrderEnforcingIterator,
    )
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise missing_extra("pastiche_core.pettingzoo", error) from error

from typing import Any

from .data.catalogue import Catalogue
from .engine.rules import Rules
from .rl.aec import Observation, PasticheEnv, returns, winner_returns

__all__ = [
    "OrderEnforcing",
    "PasticheEnv",
    "env",
    "make_aec_env",
    "raw_env",
    "returns",
    "winner_returns",
]

raw_env = PasticheEnv
"""The environment class, unwrapped."""


class OrderEnforcing(OrderEnforcingWrapper[str, Observation, int]):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with direct ``last()``, ``step()``, ``agents``
    and ``agent_selection``.

    The inherited ones go through the wrapper's attribute forwarding (two
    ``__getattr__`` calls per attribute; ``last()`` reads five), which costs
    as much as a step of a small game; these ask the environment directly and
    keep the wrapper's checks: they refuse before ``reset`` and warn on a step
    after the game.

    >>> wrapped = OrderEnforcing(PasticheEnv(players=3))
    >>> wrapped.last()
    Traceback (most recent call last):
    ...
    AttributeError: agent_selection cannot be accessed before reset
    """

    @property
    def agents(self) -> list[str]:
        """The agents still in the episode (the environment's list)."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        """The agent to act now."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        """Play ``action`` for :attr:`agent_selection` (the wrapper's checks first)."""
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _Agents:
        """The agents in turn, as PettingZoo's ``agent_iter`` (with its order check)."""
        if not self._has_reset:
            return super().agent_iter(max_iter)  # type: ignore[no-any-return]  # its error
        return _Agents(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        """The observation, reward, termination, truncation and info of the agent to move."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]


class _Agents(AECOrderEnforcingIterable[str, Observation, int]):  # type: ignore[misc]
    """:meth:`OrderEnforcing.agent_iter`: PettingZoo's iterable with a direct iterator."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator[str, Observation, int]):  # type: ignore[misc]
    """The next agent read from the environment itself, not through the wrapper's
    attribute forwarding; a step or a reset is still required between two agents."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


def env(
    players: int = 4,
    catalogue: str | Catalogue = "default",
    render_mode: str | None = None,
    rules: Rules | None = None,
    normalize: bool = False,
) -> OrderEnforcing:
    """A Pastiche AEC environment for ``players`` seats (3–5).

    ``catalogue`` is a :class:`~pastiche_core.data.catalogue.Catalogue`, a shipped
    catalogue's name or a TOML catalogue file; ``render_mode`` is ``None``,
    ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (``render()``
    prints it). ``rules`` are house rules (:class:`~pastiche_core.engine.rules.Rules`; by
    default the catalogue's, else the rulebook's). ``normalize=True`` scales every
    observation value into [0, 1], as the gymnasium environments' option does.

    >>> env(players=4).unwrapped.space.size
    357
    >>> env(players=3, rules=Rules(end_threshold=10)).unwrapped.game.rules.end_threshold
    10
    >>> game_env = env(players=3, normalize=True); game_env.reset(seed=7)
    >>> float(game_env.observe("player_2")["observation"].max()) <= 1.0
    True
    """
    return OrderEnforcing(
        PasticheEnv(
            players=players,
            catalogue=catalogue,
            render_mode=render_mode,
            rules=rules,
            normalize=normalize,
        )
    )


make_aec_env = env
"""The PettingZoo factory (:func:`env`, its older name), distinct from gymnasium's
:func:`pastiche_core.gymnasium.make_env`.

>>> make_aec_env(players=3).unwrapped.possible_agents
['player_0', 'player_1', 'player_2']
"""
