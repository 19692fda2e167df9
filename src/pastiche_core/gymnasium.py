"""gymnasium: Pastiche for one learning seat, alone or many games at once (the ``rl`` extra).

``env(...)`` makes a :class:`gymnasium.Env` for one learning seat
(:class:`~pastiche_core.rl.single.PasticheGymEnv`), the other seats played by
bots or callables (:mod:`pastiche_core.rl.opponents`); ``vector_env(num_envs, ...)``
steps ``num_envs`` such games at once as a :class:`gymnasium.vector.VectorEnv`
(:class:`~pastiche_core.rl.vector.PasticheVectorEnv`, autoreset ``NEXT_STEP``, ``SAME_STEP``
or ``DISABLED``).
Actions are the atomic actions of :class:`~pastiche_core.rl.encoding.ActionSpace`
and observations :class:`~pastiche_core.rl.observation.ObservationEncoder`
vectors; ``action_masks()`` gives the legal actions (the sb3-contrib convention).

Importing this module registers :data:`ENV_ID` with gymnasium: ``gymnasium.make``
gives :func:`make_env`'s environment, and ``gymnasium.make_vec(ENV_ID, num_envs,
vectorization_mode="vector_entry_point")`` :func:`make_vector_env`'s; the options go
through as keywords, and the spec records them. ``env`` and ``vector_env`` are the
older names of the two factories.

>>> import gymnasium
>>> made = gymnasium.make(ENV_ID, players=3, opponents="random")
>>> made.spec.id, made.spec.kwargs["players"], made.unwrapped.settings.players
('pastiche/Pastiche-v0', 3, 3)
>>> from pastiche_core.gymnasium import env, vector_env
>>> game_env = env(players=3, opponents="random")
>>> observation, info = game_env.reset(seed=42)
>>> observation.shape, bool(game_env.action_masks().any())
((1541,), True)
>>> envs = vector_env(4, players=3, opponents="random")
>>> observations, infos = envs.reset(seed=42)
>>> observations.shape, envs.action_masks().shape
((4, 1541), (4, 357))
"""

from __future__ import annotations

from .data.errors import missing_extra

try:
    import gymnasium
    import numpy  # noqa: F401
    from gymnasium.vector import AutoresetMode
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise missing_extra("pastiche_core.gymnasium", error) from error

from .data.catalogue import Catalogue
from .engine.rules import Rules
from .rl.aec import returns, winner_returns
from .rl.opponents import SEARCH_BUDGET_MS, Opponents, Policy
from .rl.single import BACKENDS, ILLEGAL_MODES, RENDER_MODES, EnginePathWarning, PasticheGymEnv
from .rl.vector import PasticheVectorEnv

__all__ = [
    "BACKENDS",
    "ENV_ID",
    "ILLEGAL_MODES",
    "RENDER_MODES",
    "SEARCH_BUDGET_MS",
    "EnginePathWarning",
    "Opponents",
    "PasticheGymEnv",
    "PasticheVectorEnv",
    "Policy",
    "env",
    "make_env",
    "make_vector_env",
    "returns",
    "vector_env",
    "winner_returns",
]


def env(
    players: int = 4,
    catalogue: str | Catalogue = "default",
    opponents: object = "random",
    seat: int | None = None,
    illegal: str = "penalty",
    normalize: bool = False,
    render_mode: str | None = None,
    rules: Rules | None = None,
) -> PasticheGymEnv:
    """A single-agent Pastiche environment for ``players`` seats (3–5).

    ``catalogue`` is a :class:`~pastiche_core.data.catalogue.Catalogue`, a shipped
    catalogue's name or a TOML catalogue file. ``opponents`` is a bot name
    (``"random"``, ``"greedy"``, ``"search"``; the search thinks
    :data:`~pastiche_core.rl.opponents.SEARCH_BUDGET_MS` a move), a callable
    ``policy(view, legal) -> Move``, or a list of them, one per other seat from
    the learner's left; the default, random bots, plays on the compiled games
    (``backend``, :data:`BACKENDS`), and any other opponent needs the engine and
    warns so (:class:`EnginePathWarning`). ``seat`` fixes the learner's seat
    (``None``: drawn at each reset, from the reset seed). ``illegal`` is
    ``"penalty"`` (the default: the episode ends with reward -1 and
    ``info["illegal"] = True``) or ``"raise"``
    (:class:`~pastiche_core.data.errors.IllegalMoveError`).
    ``normalize=True`` scales observations into [0, 1]. ``render_mode`` is
    ``None``, ``"ansi"`` or ``"human"``. ``rules`` are house rules
    (:class:`~pastiche_core.engine.rules.Rules`; by default the catalogue's, else the rulebook's).

    >>> env(players=4).action_space
    Discrete(357)
    >>> env(illegal="maybe")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: illegal must be one of 'raise', 'penalty', got 'maybe'
    """
    return PasticheGymEnv(
        players, catalogue, opponents, seat, illegal, normalize, render_mode, rules
    )


def vector_env(
    num_envs: int,
    players: int = 4,
    catalogue: str | Catalogue = "default",
    opponents: object = "random",
    seat: int | None = None,
    illegal: str = "penalty",
    normalize: bool = False,
    render_mode: str | None = None,
    rules: Rules | None = None,
    autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
) -> PasticheVectorEnv:
    """``num_envs`` games of :func:`env` (same options) stepped at once, with autoreset.

    ``reset(seed=s)`` deals game ``i`` as ``env(...).reset(seed=s + i)`` would;
    a finished game is dealt anew as ``autoreset_mode`` says (a
    :class:`gymnasium.vector.AutoresetMode` or its value): at the next step
    (``NEXT_STEP``, the default), in the same step (``SAME_STEP``), or by
    ``reset(options={"reset_mask": mask})`` alone (``DISABLED``).

    >>> vector_env(8, opponents="random").action_space.shape
    (8,)
    >>> vector_env(2, opponents="random", rules=Rules(keep_size=2)).settings.rules.keep_size
    2
    >>> vector_env(2, autoreset_mode="SameStep").metadata["autoreset_mode"]
    <AutoresetMode.SAME_STEP: 'SameStep'>
    """
    return PasticheVectorEnv(
        num_envs,
        players,
        catalogue,
        opponents,
        seat,
        illegal,
        normalize,
        render_mode,
        rules,
        autoreset_mode,
    )


make_env = env
"""The gymnasium factory of a single environment (:func:`env`; distinct from
:func:`pastiche_core.pettingzoo.make_aec_env`), ``gymnasium.make``'s entry point."""

make_vector_env = vector_env
"""The gymnasium factory of the compiled vector environment (:func:`vector_env`),
``gymnasium.make_vec``'s ``vector_entry_point``."""

ENV_ID = "pastiche/Pastiche-v0"
"""The id registered with gymnasium on importing this module."""


def _register() -> None:
    """Register :data:`ENV_ID` once (importing again, or reloading, keeps the first).

    >>> _register(); ENV_ID in gymnasium.registry
    True
    """
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point=f"{__name__}:make_env",
            vector_entry_point=f"{__name__}:make_vector_env",
        )


_register()
