"""The bots by name: the registry that matches, tournaments and the command line use.

:data:`BOTS` maps a name to a factory called as ``factory(seed, **options)``
that returns a :class:`~pastiche_core.bots.play.Bot`. A factory takes the options
it uses as keyword parameters; :func:`make_bot` passes it only those (the
others are for other bots: a time budget means nothing to a random player).
Adding a bot is one entry in :data:`BOTS`.

>>> sorted(BOTS)
['greedy', 'random', 'search']
>>> make_bot("greedy", seed=3)
GreedyBot(seed=3)
>>> make_bot("random", seed=3, budget_ms=300)  # a budget is for bots that search
RandomBot(seed=3)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..bots.play import Bot, RandomBot
from ..data._text import quote
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from .greedy import GreedyBot
from .search import (
    DEFAULT_BUDGET_MS,
    MAX_BUDGET_MS,
    SearchBot,
    check_budget,
    settings_for,
    simulations_for,
)

__all__ = [
    "BOTS",
    "BOT_OPTIONS",
    "MAX_BUDGET_MS",
    "BotFactory",
    "check_bot_names",
    "check_options",
    "make_bot",
    "search_bot",
]

BotFactory = Callable[..., Bot]
"""``factory(seed: int, **options) -> Bot``: builds one seat's bot."""


def search_bot(seed: int, budget_ms: int | None = None) -> SearchBot:
    """The search as a seat of matches and tournaments: the simulations ``budget_ms`` buys.

    The budget is turned into its settings
    (:func:`~pastiche_core.ai.search.settings_for`) and its fixed number of
    simulations (:func:`~pastiche_core.ai.search.simulations_for`) with no
    wall-clock ceiling, so a game between named bots is the same on any machine and under
    any load (a tournament's result depends only on its seed).

    >>> search_bot(3, budget_ms=100)
    SearchBot(seed=3, simulations=...)
    """
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    settings = settings_for(budget)
    return SearchBot(seed, simulations=simulations_for(budget), settings=settings)


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": search_bot,
}
"""The registered bots by name, in the order the command line lists them."""

BOT_OPTIONS = ("budget_ms", "catalogue")
"""The options :func:`make_bot` accepts: each bot takes those it uses and ignores the rest.

``budget_ms`` is a thinking budget per decision in milliseconds (for bots that
search); ``catalogue`` is the game's :class:`~pastiche_core.data.catalogue.Catalogue`."""


def check_bot_names(names: object) -> tuple[str, ...]:
    """``names`` as a tuple of registered bot names, or an error naming the first unknown one.

    >>> check_bot_names(["greedy", "random"])
    ('greedy', 'random')
    >>> check_bot_names(["greedy", "grumpy"])
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown bot 'grumpy': expected one of random, greedy, search
    """
    if isinstance(names, str | bytes) or not hasattr(names, "__iter__"):
        raise InvalidArgumentError(f"bots must be a list of bot names, got {quote(names)}")
    checked = []
    for name in names:
        if not isinstance(name, str) or name not in BOTS:
            raise InvalidArgumentError(
                f"unknown bot {quote(name)}: expected one of {', '.join(BOTS)}"
            )
        checked.append(name)
    return tuple(checked)


def check_options(options: dict[str, Any]) -> None:
    """Refuse a bot option that no bot takes (:data:`BOT_OPTIONS` lists them).

    >>> check_options({"budget_ms": 300})
    >>> check_options({"depth": 3})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown bot option 'depth': expected one of ...
    """
    for key, value in options.items():
        if key not in BOT_OPTIONS:
            raise InvalidArgumentError(
                f"unknown bot option {quote(key)}: expected one of {', '.join(BOT_OPTIONS)}"
            )
        if key == "budget_ms" and value is not None:
            check_budget(value)  # one rule and one message with the search's own check
        if key == "catalogue" and value is not None and not isinstance(value, Catalogue):
            raise InvalidArgumentError(f"catalogue must be a Catalogue, got {quote(value)}")


def _accepted(factory: BotFactory, options: dict[str, Any]) -> dict[str, Any]:
    """The options ``factory`` takes as keyword parameters (all of them if it takes ``**``)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return dict(options)
    names = {
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    return {key: value for key, value in options.items() if key in names}


def make_bot(name: str, seed: int, **options: Any) -> Bot:
    """The bot registered as ``name``, seeded with ``seed``, with the options it takes.

    Unknown names and options, and option values out of range, raise
    :class:`~pastiche_core.data.errors.InvalidArgumentError` naming them.

    >>> make_bot("search", 1, budget_ms=100)
    SearchBot(seed=1, simulations=...)
    >>> make_bot("grumpy", 1)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown bot 'grumpy': expected one of random, greedy, search
    >>> make_bot("greedy", 1, budget_ms=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: budget_ms must be an integer from 1 to 10000, got 0
    >>> make_bot("greedy", 1, depth=3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown bot option 'depth': expected one of budget_ms, catalogue
    """
    (checked,) = check_bot_names([name])
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an integer, got {quote(seed)}")
    check_options(options)
    factory = BOTS[checked]
    return factory(seed, **_accepted(factory, options))
