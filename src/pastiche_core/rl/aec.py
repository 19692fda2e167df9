"""A PettingZoo AEC environment: one agent per seat, atomic actions with masks.

Each step plays one atomic action of :class:`~pastiche_core.rl.encoding.ActionSpace`
for the agent to move; a player's decision may take several steps in a row
(a publish, a setup keep). An observation is a dict with the
:class:`~pastiche_core.rl.observation.ObservationEncoder` vector under
``"observation"`` and the legal actions under ``"action_mask"`` (all zeros for an
agent who is not to move). With ``normalize=True`` every observation value is
divided by its largest possible one
(:attr:`~pastiche_core.rl.observation.ObservationEncoder.high`), as in the
gymnasium environments, so the observation space is ``Box(0, 1)``. The deal and the draws use the game's own seeded
generator (R14): ``reset(seed=s)`` plays the game ``Game(players, seed=s)``.

**Rewards** come at the end of the game, zero-sum: with ``w`` winners (R13, a
shared win counts for each), each winner gets ``(n/w - 1)/(n - 1)`` and every
other player ``-1/(n - 1)``, so a sole winner gets 1.

>>> from pastiche_core.rl.aec import PasticheEnv
>>> env = PasticheEnv(players=3)
>>> env.reset(seed=7)
>>> env.agent_selection
'player_2'
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((1541,), 4)
>>> env.step(env.space.discard(env.game.hand(2)[0]))
>>> env.agent_selection, env.game.phase.value
('player_0', 'action')
"""

from __future__ import annotations

import random
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from ..data.catalogue import Catalogue, load_catalogue
from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..engine.game_internals import apply_built
from ..engine.knowledge import Knowledge
from ..engine.rules import Rules, rules_of
from .encoding import ActionSpace, MoveBuilder
from .observation import ObservationEncoder
from .scaling import observation_space, scale_of

__all__ = ["PasticheEnv", "returns", "winner_returns"]

Observation = dict[str, npt.NDArray[Any]]


def winner_returns(players: int, winners: tuple[int, ...]) -> list[float]:
    """Zero-sum returns: ``(n/w - 1)/(n - 1)`` per winner, ``-1/(n - 1)`` per other player.

    >>> winner_returns(4, (2,))
    [-0.3333333333333333, -0.3333333333333333, 1.0, -0.3333333333333333]
    >>> sum(winner_returns(3, (0, 1)))
    0.0
    """
    share = (players / len(winners) - 1) / (players - 1)
    lose = -1 / (players - 1)
    return [share if seat in winners else lose for seat in range(players)]


def returns(game: Game) -> list[float]:
    """The zero-sum returns of a finished game (:func:`winner_returns`), zeros before the end.

    >>> returns(Game(players=3))
    [0.0, 0.0, 0.0]
    """
    if not game.is_over:
        return [0.0] * game.players
    return winner_returns(game.players, game.winners())


def _catalogue(catalogue: str | Catalogue) -> Catalogue:
    if isinstance(catalogue, Catalogue):
        return catalogue
    if isinstance(catalogue, str):
        return load_catalogue(catalogue)
    raise InvalidArgumentError(
        f"catalogue must be a Catalogue, a shipped catalogue name or a TOML file, got {catalogue!r}"
    )


class PasticheEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Pastiche as a PettingZoo AEC environment (see the module docstring).

    ``catalogue`` is a :class:`~pastiche_core.data.catalogue.Catalogue`, a shipped
    catalogue's name or a TOML catalogue file; ``render_mode`` is ``None``,
    ``"ansi"`` (:meth:`render` then returns the whole table as text) or
    ``"human"`` (:meth:`render` prints that text to standard output);
    ``normalize=True`` scales observations into [0, 1].

    >>> PasticheEnv(players=3, normalize=True).observation_space("player_0")["observation"]
    Box(0.0, 1.0, (1541,), float32)
    >>> PasticheEnv(players=2)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: players must be from 3 to 5 (R10), got 2
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "name": "pastiche_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }
    """PettingZoo's metadata: the name ``'pastiche_v0'``, the render modes (``'ansi'`` and
    ``'human'``) and ``is_parallelizable`` (``False``)."""

    def __init__(
        self,
        players: int = 4,
        catalogue: str | Catalogue = "default",
        render_mode: str | None = None,
        rules: Rules | None = None,
        normalize: bool = False,
    ) -> None:
        super().__init__()
        if normalize is not True and normalize is not False:
            raise InvalidArgumentError(f"normalize must be True or False, got {normalize!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InvalidArgumentError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        cat = _catalogue(catalogue)
        self.encoder = ObservationEncoder(players, cat)
        """The observation layout for this environment's players and catalogue."""
        self.space = ActionSpace(cat)
        """The atomic action layout of the catalogue; every action space is
        ``Discrete(space.size)``."""
        self.catalogue = cat
        """The catalogue every game is played with."""
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules, got {rules!r}")
        self.rules = rules_of(cat, rules)
        """The numbers every game is played by (R10–R12): the ``rules`` option, else the
        catalogue's ``[rules]`` table, else the rulebook's."""
        self.players = players
        """The number of seats, 3 to 5 (R10)."""
        self.render_mode = render_mode
        """``None``, ``'ansi'`` (:meth:`render` returns the table as text) or ``'human'``
        (:meth:`render` prints it)."""
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        """The agent names, one per seat: agent ``'player_i'`` plays seat ``i``."""
        self.agents = list(self.possible_agents)
        """The agents still in the episode: all of them until the game ends, then each leaves after
        its last ``step(None)``."""
        self.normalize = normalize
        """Whether observations are scaled into [0, 1] (each value over its bound)."""
        self._scale = scale_of(self.encoder) if normalize else None  # the gymnasium envs' scaling
        space = gymnasium.spaces.Dict(
            {
                "observation": observation_space(self.encoder, normalize),
                "action_mask": gymnasium.spaces.Box(
                    low=0, high=1, shape=(self.space.size,), dtype=np.int8
                ),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        """Per agent, the same ``Dict`` space: ``'observation'`` (``float32``, from 0 to
        ``encoder.high``, or to 1 with ``normalize=True``) and ``'action_mask'`` (``int8``, 0 or 1 per action)."""
        self.action_spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            agent: gymnasium.spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        """Per agent, ``Discrete(space.size)``."""
        self._seeds = random.Random()
        self.game = Game(players=players, seed=0, catalogue=cat, rules=self.rules)
        """The game being played, dealt by :meth:`reset` (seed 0 before the first reset)."""
        self._builder = MoveBuilder(self.space, self.game.view(self.game.to_move, history=False))
        self._built_at = self.game.generation
        self._knowledge = [Knowledge.of(self.game, seat) for seat in range(players)]
        self._stamp = 0  # counts steps and resets: observations are cached per stamp
        self._cache: dict[str, Observation] = {}
        self._cache_at = -1
        self._start()

    # ------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(len(ActionSpace))``."""
        return self.action_spaces[agent]

    @property
    def builder(self) -> MoveBuilder:
        """The decision being built by the agent to move.

        Its view leaves the public history empty (``game.view(seat, history=False)``):
        neither the mask nor the observation reads it; ``env.game.view(seat)`` has it.
        """
        return self._builder

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``Game(players, seed)``, or the next seed of the env's generator.

        >>> env = PasticheEnv(players=3); env.reset(seed=1)
        >>> env.game.seed
        1
        """
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = Game(
            players=self.players, seed=game_seed, catalogue=self.catalogue, rules=self.rules
        )
        self._start()

    def knowledge(self, agent: str) -> Knowledge:
        """What ``agent`` has seen of the cards so far (the observation's ``known_hands``).

        >>> env = PasticheEnv(players=3); env.reset(seed=7)
        >>> env.knowledge("player_2").moves
        0
        """
        seat = self._seat_named(agent)
        return self._knowledge[seat]

    def _seat_named(self, agent: str) -> int:
        """The seat of ``agent``, or an error naming it."""
        seat = self._seat_of.get(agent)
        if seat is None:
            raise InvalidArgumentError(
                f"no agent {agent!r}: expected one of {self.possible_agents}"
            )
        return seat

    def _start(self) -> None:
        self._knowledge = [Knowledge.of(self.game, seat) for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._stamp += 1
        self._next_decision()

    def _next_decision(self) -> None:
        game = self.game
        self._builder = MoveBuilder(self.space, game.view(game.to_move, history=False))
        self._built_at = game.generation
        self.agent_selection = self.possible_agents[game.to_move]

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: its vector and its action mask.

        >>> env = PasticheEnv(players=3); env.reset(seed=7)
        >>> int(env.observe("player_0")["action_mask"].sum())
        0
        """
        if self._cache_at != self._stamp:
            self._cache.clear()
            self._cache_at = self._stamp
        else:
            cached = self._cache.get(agent)
            if cached is not None:
                return cached
        seat = self._seat_named(agent)
        builder = self._builder
        knowledge = self._knowledge[seat]
        mask: npt.NDArray[np.int8]
        if seat == builder.view.player and not self.game.is_over:
            view = builder.view
            mask = np.frombuffer(builder.mask(), dtype=np.int8)  # writable: it owns the bytes
            vector = self.encoder.encode(view, builder, knowledge=knowledge)
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
            vector = self.encoder.encode(self.game.view(seat, history=False), knowledge=knowledge)
        if self._scale is not None:
            vector = vector * self._scale
        observation: Observation = {"observation": vector, "action_mask": mask}
        self._cache[agent] = observation
        return observation

    def step(self, action: SupportsIndex | None) -> None:
        """Play one atomic action for :attr:`agent_selection` (``None`` once it is done).

        An illegal action raises :class:`~pastiche_core.data.errors.IllegalMoveError`.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidArgumentError(f"{agent} is to move: expected an action, got None")
        self._cumulative_rewards[agent] = 0.0
        move = self._builder.push(action)
        self._stamp += 1
        if move is not None:
            game = self.game
            # Built from this position's view: legal by construction, so applied unchecked
            # unless the game was changed since (then checked like any move).
            apply_built(game, move, self._built_at)
            Knowledge.update_all(self._knowledge, game)
            if game.is_over:
                for seat, value in enumerate(returns(game)):
                    self.rewards[self.possible_agents[seat]] = value
                self.terminations = dict.fromkeys(self.agents, True)
                for name in self.agents:
                    self.infos[name] = {"scores": game.scores(), "winners": game.winners()}
                self._accumulate_rewards()  # the only rewards: zero until the end
            else:
                self._next_decision()

    def render(self) -> str | None:
        """The whole table as text: returned (``"ansi"``) or printed (``"human"``).

        This is a spectator's view: it shows every hand. With ``render_mode="human"``
        the text goes to standard output when :meth:`render` is called (not at
        every step) and ``None`` is returned; without a render mode, ``None``
        comes with a warning.

        >>> env = PasticheEnv(players=3, render_mode="ansi"); env.reset(seed=7)
        >>> print(env.render().splitlines()[0])
        <Game 3 players, seed 7, turn 0, keep: player 2 to move>
        >>> env = PasticheEnv(players=3, render_mode="human"); env.reset(seed=7)
        >>> env.render()  # doctest: +ELLIPSIS
        <Game 3 players, seed 7, turn 0, keep: player 2 to move>
        ...
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; use render_mode='ansi' or 'human'"
            )
            return None
        text = str(self.game)
        if not self.game.is_over and self._builder.stage:
            text += f"\nbuilding: {self._builder!r}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return "pastiche_v0"
