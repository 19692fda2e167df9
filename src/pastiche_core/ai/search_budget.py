"""What bounds a search's work: its settings, its counts and its safety clock.

Every bound on the work of a search (:mod:`pastiche_core.ai.search`) is a
count, the same on every machine: a budget in milliseconds becomes simulations
at a fixed rate (:func:`simulations_for`), and a simulation in which the greedy
bot plays the other seats is charged that model's work too
(:func:`rival_charge`). Wall-clock time is only a safety ceiling, read through
:func:`now` alone, so that one clock is all a test has to set.

>>> simulations_for(DEFAULT_BUDGET_MS) == round(DEFAULT_BUDGET_MS * SIMULATIONS_PER_MS)
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..data.errors import InvalidArgumentError

__all__ = [
    "ANCHOR_MARGIN",
    "DEFAULT_BUDGET_MS",
    "DEFAULT_SETTINGS",
    "EXPLORATION",
    "FINISH_ROUNDS",
    "FINISH_WITHIN",
    "HORIZON_ROUNDS",
    "MAX_BUDGET_MS",
    "MAX_SIMULATIONS",
    "PUBLISH_OPTIONS",
    "RIVAL_BUDGET_MS",
    "RIVAL_COUNTED_COST",
    "RIVAL_DECISION_COST",
    "RIVAL_LISTING_COST",
    "RIVAL_MEMO",
    "RIVAL_ROUNDS",
    "RIVAL_WEIGHED_COST",
    "SHRINK",
    "SIMULATIONS_PER_MS",
    "TREE_DEPTH",
    "TREE_WIDTH",
    "Settings",
    "ceiling",
    "check_budget",
    "check_simulations",
    "now",
    "past",
    "rival_charge",
    "settings_for",
    "simulations_for",
    "time_left",
]

DEFAULT_BUDGET_MS = 300
"""The default budget of a hint, in milliseconds."""
MAX_BUDGET_MS = 10_000
"""The largest budget accepted, in milliseconds: the latest wall-clock ceiling of an analysis."""
SIMULATIONS_PER_MS = 0.32
"""Simulations a millisecond of budget buys (96 for the default 300 ms).

A fixed rate, not a measure of the machine it runs on: a budget in milliseconds is
a number of simulations, so the same view, budget and seed give the same answer
everywhere. It is chosen so that the default budget answers within its
milliseconds on a shared two-core machine with the playouts' compiled kernels, the
wall-clock ceiling cutting few analyses short; more simulations make the search
only a little stronger (``benchmarks/bench_search.py`` measures both)."""
MAX_SIMULATIONS = 5_000
"""The most simulations one search runs (the budget cap in simulations)."""
HORIZON_ROUNDS = 2
"""Rounds of play (turns of every seat) after which a playout stops and is evaluated."""
FINISH_WITHIN = 4
"""Points from the End Flag's threshold (R12) within which a playout runs to the end of the game.

While some seat is within ``FINISH_WITHIN`` points of the game's threshold, a playout that reaches
its horizon goes on (for at most :data:`FINISH_ROUNDS` rounds in all): the countdown is near,
and a finished game is scored exactly rather than estimated. Much of the search's edge over
the greedy bot is won at the end of the game (``benchmarks/bench_countdown.py``), so the
longer playouts near the end are worth their cost; the moves past the horizon are not
charged to the budget's simulations."""
FINISH_ROUNDS = 10
"""The most rounds a playout that runs to the end (:data:`FINISH_WITHIN`) plays in all."""
EXPLORATION = 0.35
"""The UCB1 exploration constant (rewards are win probabilities in [0, 1])."""
TREE_WIDTH = 3
"""Below the root, the number of the policy's best moves the tree considers."""
TREE_DEPTH = 3
"""The player's own decisions kept in the tree along one simulation."""
PUBLISH_OPTIONS = 12
"""The solver's options listed for the compact action set (R8), besides each goal's best."""
SHRINK = 1.0
"""Prior simulations at the search's average with which each move's estimate starts."""
ANCHOR_MARGIN = 0.02
"""How much better, in win probability on the same deals, a move must do than the anchor."""
RIVAL_ROUNDS = 1
"""Rounds at the start of a playout in which the other seats play as the greedy bot, in a
search budgeted :data:`RIVAL_BUDGET_MS` or more (:func:`settings_for`).

For those rounds the other seats' decisions are the
:class:`~pastiche_core.ai.greedy.GreedyBot`'s, each read from that seat's view
of the determinization; after them, the playout policy's. The greedy bot is a
much closer model than the policy of players who think one move ahead, as it
does, but its decisions cost more than the policy's, and the budget is charged
for them (:func:`rival_charge`): below :data:`RIVAL_BUDGET_MS` the simulations
it leaves are too few, and the policy plays every seat (``Settings.rival_rounds``
0)."""
RIVAL_DECISION_COST = 0.01
"""What one decision of the greedy rival model costs, in simulations of the playout policy
(besides its listings, :func:`rival_charge`)."""
RIVAL_LISTING_COST = 0.075
"""What the rival model's listing of one position's publish options costs, in simulations of
the playout policy, besides each option counted and weighed (:func:`rival_charge`)."""
RIVAL_COUNTED_COST = 0.00025
"""What each publish option the rival model's solver counts costs, in simulations of the policy."""
RIVAL_WEIGHED_COST = 0.0046
"""What each publish option the rival model weighs (listed or an optimum) costs, in simulations
of the policy."""
RIVAL_BUDGET_MS = 300
"""The smallest budget whose search models the other seats with the greedy bot
(:data:`RIVAL_ROUNDS` rounds, :func:`settings_for`): the default budget. Its simulations
with the model, their work charged (:func:`rival_charge`), play better than the policy's
alone in the same time; more simulations of the model buy strength steadily, more of the
policy alone little (``benchmarks/screen_search.py`` compares them)."""
RIVAL_MEMO = 256
"""Positions whose publish options the rival model remembers within one search."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The search's parameters; the defaults are the module's constants.

    ``root`` is how the root's moves share the simulations: ``"halving"``
    (sequential halving with common random numbers, the default) or
    ``"ucb"`` (UCB1, as at the other nodes). ``anchor`` makes the greedy
    bot's move a candidate that the search plays unless another move beats
    it by more than ``anchor_margin`` in win probability.

    >>> Settings().horizon_rounds == HORIZON_ROUNDS
    True
    >>> Settings(root="best-first")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: root must be 'halving' or 'ucb', got 'best-first'
    """

    root: str = "halving"
    """How the root shares the simulations: ``"halving"`` or ``"ucb"``."""
    exploration: float = EXPLORATION
    """The UCB1 exploration constant (:data:`EXPLORATION`)."""
    horizon_rounds: int = HORIZON_ROUNDS
    """Rounds a playout runs before it is evaluated (:data:`HORIZON_ROUNDS`)."""
    tree_width: int = TREE_WIDTH
    """The policy's best moves considered below the root (:data:`TREE_WIDTH`)."""
    tree_depth: int = TREE_DEPTH
    """The player's own decisions kept in the tree (:data:`TREE_DEPTH`)."""
    shrink: float = SHRINK
    """Prior simulations at the search's average for each estimate (:data:`SHRINK`)."""
    anchor: bool = True
    """Whether the greedy bot's move is a protected candidate that the search must beat."""
    anchor_margin: float = ANCHOR_MARGIN
    """How much better on the same deals a move must do than the anchor (:data:`ANCHOR_MARGIN`)."""
    finish_within: int = FINISH_WITHIN
    """Points from the End Flag within which playouts run to the end (:data:`FINISH_WITHIN`);
    negative for never."""
    finish_rounds: int = FINISH_ROUNDS
    """The most rounds a playout that runs to the end plays (:data:`FINISH_ROUNDS`)."""
    rival_rounds: int = 0
    """Rounds at the start of a playout in which the other seats play as the greedy bot
    (:data:`RIVAL_ROUNDS`); 0, the default, leaves every decision of the playout to the
    policy. :func:`settings_for` gives a budget its setting."""

    def __post_init__(self) -> None:
        if self.root not in ("halving", "ucb"):
            raise InvalidArgumentError(f"root must be 'halving' or 'ucb', got {self.root!r}")
        rounds = self.rival_rounds
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= 10:
            raise InvalidArgumentError(
                f"rival_rounds must be an integer from 0 to 10, got {rounds!r}"
            )


DEFAULT_SETTINGS = Settings()
"""The settings of :func:`search` unless others are given."""


def now() -> float:
    """The clock of the wall-clock ceiling, in seconds (:func:`time.monotonic`).

    Searches and analyses read the time through this function alone (by way of
    :func:`ceiling`, :func:`time_left` and :func:`past`), and only to stop early
    at their ceiling, never to choose between answers; a test may replace it to
    play a slower or a faster machine.

    >>> now() <= now()
    True
    """
    return time.monotonic()


def ceiling(seconds: float) -> float:
    """The instant ``seconds`` from now on :func:`now`'s clock: a ``deadline`` for :func:`search`.

    >>> past(ceiling(60.0)), past(ceiling(-1.0))
    (False, True)
    """
    return now() + seconds


def time_left(deadline: float | None) -> float | None:
    """The seconds left before the ceiling ``deadline``, ``0.0`` once it has passed.

    ``None`` without a ceiling. It is the time limit of a solver call under the
    ceiling (none is started at ``0.0``): the solver's own clock starts after this
    reading, so a call it cuts short ends past ``deadline``, and its answer, which
    says it was cut short, is never taken as complete.

    >>> time_left(None), 59 < time_left(ceiling(60.0)) <= 60, time_left(ceiling(-1.0))
    (None, True, 0.0)
    """
    if deadline is None:
        return None
    return max(0.0, deadline - now())


def past(deadline: float | None) -> bool:
    """Whether the clock has reached ``deadline`` (an instant of :func:`now`; ``None``: never).

    >>> past(None), past(now())
    (False, True)
    """
    return deadline is not None and now() >= deadline


def _whole_number(name: str, value: object, high: int) -> int:
    """``value`` if it is an integer (not a bool) from 1 to ``high``, else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise InvalidArgumentError(f"{name} must be an integer from 1 to {high}, got {value!r}")
    return value


def check_budget(budget_ms: object) -> int:
    """``budget_ms`` if it is a whole number of milliseconds from 1 to :data:`MAX_BUDGET_MS`.

    >>> check_budget(300)
    300
    >>> check_budget(0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: budget_ms must be an integer from 1 to 10000, got 0
    """
    return _whole_number("budget_ms", budget_ms, MAX_BUDGET_MS)


def check_simulations(simulations: object) -> int:
    """``simulations`` if it is a whole number from 1 to :data:`MAX_SIMULATIONS`.

    >>> check_simulations(-1)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: simulations must be an integer from 1 to 5000, got -1
    """
    return _whole_number("simulations", simulations, MAX_SIMULATIONS)


def simulations_for(budget_ms: int) -> int:
    """A budget of ``budget_ms`` milliseconds in simulations of the playout policy
    (:data:`SIMULATIONS_PER_MS`).

    A simulation whose other seats play as the greedy bot (``Settings.rival_rounds``)
    is charged that work too (:func:`rival_charge`), so the same budget runs fewer of them.

    >>> simulations_for(300), simulations_for(1)
    (96, 1)
    """
    check_budget(budget_ms)
    return min(MAX_SIMULATIONS, max(1, round(budget_ms * SIMULATIONS_PER_MS)))


def rival_charge(
    *, decisions: int = 0, listings: int = 0, counted: int = 0, weighed: int = 0
) -> float:
    """What the greedy rival model's work costs, in simulations of the playout policy.

    A search charges its budget one simulation per simulation run, plus this for
    the rival model's ``decisions``, the ``listings`` of publish options they ask
    for (one per decision of the action phase, charged whether the model
    remembers the position or lists it again), and the options each listing
    ``counted`` and ``weighed``. The charge is a count of work, the
    same on every machine, so a crowded position buys fewer simulations than a
    quiet one and a search's time follows its budget.

    >>> rival_charge(decisions=1) == RIVAL_DECISION_COST
    True
    >>> round(rival_charge(listings=1, counted=1000, weighed=200), 2)
    1.24
    """
    return (
        decisions * RIVAL_DECISION_COST
        + listings * RIVAL_LISTING_COST
        + counted * RIVAL_COUNTED_COST
        + weighed * RIVAL_WEIGHED_COST
    )


def settings_for(budget_ms: int) -> Settings:
    """The search's settings for a budget of ``budget_ms`` milliseconds.

    From :data:`RIVAL_BUDGET_MS` up the other seats play their first
    :data:`RIVAL_ROUNDS` rounds of each playout as the greedy bot; below it,
    :data:`DEFAULT_SETTINGS` (the playout policy throughout). The budget is
    :func:`simulations_for` simulations of the policy, charged the model's work.

    >>> settings_for(299).rival_rounds, settings_for(300).rival_rounds
    (0, 1)
    """
    check_budget(budget_ms)
    if budget_ms < RIVAL_BUDGET_MS:
        return DEFAULT_SETTINGS
    return replace(DEFAULT_SETTINGS, rival_rounds=RIVAL_ROUNDS)
