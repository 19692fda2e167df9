"""OpenSpiel's ``rl_environment`` for ``python_pastiche``, without its copies."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python import rl_environment

from ..data.errors import InvalidArgumentError
from .spiel_game import PasticheGame, register
from .spiel_state import PasticheState

__all__ = ["PasticheEnvironment"]


class PasticheEnvironment(rl_environment.Environment):  # type: ignore[misc]
    """OpenSpiel's ``rl_environment.Environment`` for ``python_pastiche``, without its copies.

    The base class makes every player's observation tensor at every step, each
    copied from the game into C++ and then into a list of floats, and asks
    every player for legal actions. This one gives the same time steps but:

    * ``observations["info_state"]`` is a sequence whose item ``p`` is
      :meth:`PasticheState.observation_array`, a read-only ``float32`` array made
      when it is first read: an agent that reads only its own observation pays
      for one per step (the time step keeps a copy of the state once the
      environment moves on, so an observation read later is still the one of
      its step);
    * only the player to move is asked for legal actions: the others get ``[]``,
      as they do from the base class.

    ``game`` is a game string (``"python_pastiche(players=4)"``) or a loaded
    :class:`PasticheGame`; every other argument is the base class's
    (``observation_type`` may only be ``OBSERVATION``, the default here).

    >>> env = PasticheEnvironment("python_pastiche(players=3)")
    >>> env.seed(1)
    >>> step = env.reset()
    >>> player = step.observations["current_player"]
    >>> step.observations["info_state"][player].shape, step.observations["legal_actions"][0]
    ((1541,), [])
    >>> step = env.step([step.observations["legal_actions"][player][0]])
    >>> step.step_type.mid()
    True
    """

    _state: PasticheState

    def __init__(self, game: str | PasticheGame = "python_pastiche", **kwargs: Any) -> None:
        register()
        kind = kwargs.setdefault("observation_type", rl_environment.ObservationType.OBSERVATION)
        if kind != rl_environment.ObservationType.OBSERVATION:
            raise InvalidArgumentError(f"PasticheEnvironment gives observations only, not {kind}")
        super().__init__(game, **kwargs)
        if not isinstance(self._game, PasticheGame):
            raise InvalidArgumentError(
                f"PasticheEnvironment plays python_pastiche, got {self.name!r}"
            )
        self._observed: _Observations | None = None

    def step(self, actions: Sequence[int]) -> rl_environment.TimeStep:
        """Apply the player to move's action (``[action]``) and return the next time step.

        >>> env = PasticheEnvironment("python_pastiche(players=3)")
        >>> step = env.reset()
        >>> first = step.observations["info_state"]
        >>> step = env.step([step.observations["legal_actions"][2][0]])
        >>> first[0].tolist() == step.observations["info_state"][0].tolist()  # 2 kept, 0 saw it
        False
        """
        if self._observed is not None and not self._should_reset:
            self._observed.detach()  # before the state changes under it
        return super().step(actions)

    def _observations(self) -> dict[str, Any]:
        state: PasticheState = self._state
        players = self._num_players
        player = state.current_player()
        legal: list[list[int]] = [[] for _ in range(players)]
        if 0 <= player < players:
            legal[player] = state.legal_actions(player)
        self._observed = _Observations(state)
        observations: dict[str, Any] = {
            "info_state": self._observed,
            "legal_actions": legal,
            "current_player": player,
            "serialized_state": [],
        }
        if self._include_full_state:
            observations["serialized_state"] = pyspiel.serialize_game_and_state(self._game, state)
        return observations

    def get_time_step(self) -> rl_environment.TimeStep:
        """The current time step (see the class for how it differs from the base class's).

        >>> env = PasticheEnvironment("python_pastiche(players=3)")
        >>> env.reset().observations["current_player"] == env.get_time_step().current_player()
        True
        """
        state: PasticheState = self._state
        last = state.is_terminal()
        step_type = rl_environment.StepType.LAST if last else rl_environment.StepType.MID
        self._should_reset = last
        rewards = state.returns() if last else [0.0] * self._num_players
        discounts = [0.0] * self._num_players if last else self._discounts
        return rl_environment.TimeStep(
            observations=self._observations(),
            rewards=rewards,
            discounts=discounts,
            step_type=step_type,
        )

    def reset(self) -> rl_environment.TimeStep:
        """A new game, dealt by the chance sampler, at its first decision.

        >>> PasticheEnvironment("python_pastiche(players=4)").reset().first()
        True
        """
        self._should_reset = False
        state: PasticheState = self._game.new_initial_state()
        self._state = state
        self._sample_external_events()
        return rl_environment.TimeStep(
            observations=self._observations(),
            rewards=None,
            discounts=None,
            step_type=rl_environment.StepType.FIRST,
        )


class _Observations(Sequence[npt.NDArray[np.float32]]):
    """Each player's observation tensor in one state, made when first read."""

    __slots__ = ("state",)

    def __init__(self, state: PasticheState) -> None:
        self.state = state

    def detach(self) -> None:
        """Keep reading the state as it is now, whatever happens to the environment's."""
        self.state = self.state.clone()

    def __len__(self) -> int:
        return int(self.state.num_players())

    @overload
    def __getitem__(self, index: int) -> npt.NDArray[np.float32]: ...

    @overload
    def __getitem__(self, index: slice) -> list[npt.NDArray[np.float32]]: ...

    def __getitem__(
        self, index: int | slice
    ) -> npt.NDArray[np.float32] | list[npt.NDArray[np.float32]]:
        if isinstance(index, slice):
            return [self[seat] for seat in range(len(self))[index]]
        seat = range(len(self))[index]  # an IndexError past the players, as a list gives
        return self.state.observation_array(seat)

    def __iter__(self) -> Iterator[npt.NDArray[np.float32]]:
        return (self[seat] for seat in range(len(self)))
