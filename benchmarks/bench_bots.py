"""How strong and how fast the bots are: a strength ladder and decisions per second.

Run: ``python benchmarks/bench_bots.py [--games N] [--workers K] [--speed-games M] [--repeats R]``
``[--ismcts-games G [--ismcts-evaluator heuristic|score|rollout] [--ismcts-budget-ms B]``
``[--ismcts-key observation|infostate]]``.

1. **Strength ladder**, 4-player games. Each rung is a tournament
   (:func:`pastiche_core.ai.run_tournament`: seats rotate on shared deals) of
   ``N`` games (fewer for a rung that sets its own ``games``: the search's rungs
   play :data:`SEARCH_GAMES`) between a subject bot and three opponents; the table gives the
   subject's win rate with its 95 % Wilson interval, the ratio to parity (25 %),
   the mean score and the mean margin (its score minus the best other score).
   A rung is one line of :data:`LADDER`.
2. **Speed**: ``M`` games a run where every seat is the same bot, ``R`` runs,
   the bots interleaved run by run; decisions per second of the whole game
   (engine included) as the median of the runs with min and max, the ratio to
   the random bot measured in the same runs, and the median, 95th percentile
   and maximum time of one ``choose`` call over every run. The process is
   pinned to one CPU (``--cpu``) for this part, where the OS allows it.
3. **Against OpenSpiel's ISMCTS** (``--ismcts-games G``, the ``rl`` extra):
   ``G`` 4-player games of ``python_pastiche`` (explicit chance, every card
   dealt and drawn by a generator seeded per deal), the search in seat
   ``game % 4`` (four games per deal) and OpenSpiel's Python ``ISMCTSBot`` in
   the three others, with the evaluator ``--ismcts-evaluator`` names:
   ``heuristic`` (:class:`~pastiche_core.openspiel.HeuristicEvaluator`, the
   default), ``score`` (:class:`~pastiche_core.openspiel.ScoreEvaluator`) or
   ``rollout`` (OpenSpiel's ``RandomRolloutEvaluator``, one random playout to
   the end). **Equal CPU time per decision**: the search runs at
   ``--ismcts-budget-ms``; each ISMCTS decision runs simulations until it has
   used, in process CPU time, the mean CPU time of the search's decisions so
   far (the budget before the first). A decision is a call with a choice: a
   whole move for the search, an atomic action for ISMCTS (a publish is
   several), so ISMCTS gets at least as much time per move. One process,
   games one after another; the table gives the search's win rate with its
   95 % Wilson interval (a shared win counts ``1/k``, R13), the ISMCTS seats'
   together, and the CPU time each side used per decision. ISMCTS keys its
   nodes by the observation string, or with ``--ismcts-key infostate`` by the
   perfect-recall information state string (:mod:`pastiche_core.rl.spiel_infostate`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchkit import aligned, pin_one_core

from pastiche_core import Game, LegalMoves, Move, PlayerView
from pastiche_core.ai import default_workers, make_bot, run_tournament
from pastiche_core.bots.play import Bot, derive_seed, play_game
from pastiche_core.bots.simulate import game_seed
from pastiche_core.engine.movegen import clear_caches

PLAYERS = 4


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder: the subject bot (seat list's first name) against the others."""

    label: str
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    games: int | None = None
    """Games of this rung when fewer than ``--games`` will do (a searching bot is slow)."""

    def games_for(self, requested: int) -> int:
        """The games this rung plays when ``--games`` asks for ``requested``.

        >>> Rung("x", ("search", "greedy", "greedy", "greedy"), games=40).games_for(200)
        40
        >>> Rung("x", ("greedy", "random", "random", "random")).games_for(200)
        200
        """
        return requested if self.games is None else min(requested, self.games)

    @property
    def subject(self) -> str:
        """The bot whose figures the row shows.

        >>> Rung("x", ("greedy", "random", "random", "random")).subject
        'greedy'
        """
        return self.bots[0]


SEARCH_GAMES = 40
"""Games of a rung whose subject searches: about 1.5 s of thinking per game and decision
budget, so 40 games take a few minutes on two cores (``bench_search.py`` plays 200)."""

LADDER: list[Rung] = [
    Rung("greedy vs 3 random", ("greedy", "random", "random", "random")),
    Rung(
        "search vs 3 random",
        ("search", "random", "random", "random"),
        {"budget_ms": 300},
        games=SEARCH_GAMES,
    ),
    Rung(
        "search vs 3 greedy",
        ("search", "greedy", "greedy", "greedy"),
        {"budget_ms": 300},
        games=SEARCH_GAMES,
    ),
]
"""The strength ladder, weakest rung first; add a rung with one line (``games`` to play
fewer than ``--games`` games on a slow rung)."""

LADDER_HEADER = ("rung", "games", "win %", "95 % CI", "vs parity", "mean score", "mean margin")

ISMCTS_EVALUATORS = ("heuristic", "score", "rollout")
"""The evaluators ``--ismcts-evaluator`` takes (see the module)."""

SPEED_BOTS: list[str] = ["random", "greedy"]
"""The bots whose decisions per second are measured (the first is the ratios' reference)."""


# ----------------------------------------------------------------------
# Strength
# ----------------------------------------------------------------------
def ladder(games: int, seed: int, workers: int) -> list[list[str]]:
    """The ladder's rows as table cells, one tournament per rung."""
    rows = []
    for rung in LADDER:
        start = time.perf_counter()
        played = rung.games_for(games)
        result = run_tournament(rung.bots, played, seed, options=rung.options, workers=workers)
        bot = result.standing(rung.subject)
        low, high = bot.ci95
        parity = 1 / PLAYERS
        rows.append(
            [
                rung.label,
                f"{played:,}",
                f"{100 * bot.win_rate:.1f}",
                f"[{100 * low:.1f}, {100 * high:.1f}]",
                f"{bot.win_rate / parity:.2f}x",
                f"{bot.mean_score:.2f}",
                f"{bot.mean_margin:+.2f}",
            ]
        )
        print(f"  {rung.label}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return rows


# ----------------------------------------------------------------------
# Speed
# ----------------------------------------------------------------------
class Timed:
    """Wraps a bot and records the time of each of its decisions."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The wrapped bot's move, timed."""
        start = time.perf_counter()
        move = self.bot.choose(view, legal)
        self.times.append(time.perf_counter() - start)
        return move


@dataclass
class Speed:
    """One bot's runs: decisions per second of each run and every decision's time."""

    name: str
    rates: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """Median decisions per second over the runs."""
        return statistics.median(self.rates)


def _run_games(name: str, seeds: Sequence[int], times: list[float]) -> tuple[float, int]:
    clear_caches()  # every run starts cold, as a fresh process would
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        bots: list[Bot] = [
            Timed(make_bot(name, derive_seed(seed, "bot", seat)), times) for seat in range(PLAYERS)
        ]
        game: Game = play_game(PLAYERS, seed, bots=bots)
        decisions += len(game.history)
    return time.perf_counter() - start, decisions


def speed(games: int, repeats: int, seed: int) -> list[Speed]:
    """Every speed bot plays the same games ``repeats`` times, interleaved run by run."""
    seeds = [game_seed(seed, index) for index in range(games)]
    found = [Speed(name) for name in SPEED_BOTS]
    for _ in range(repeats):
        for row in found:
            elapsed, decisions = _run_games(row.name, seeds, row.times)
            row.rates.append(decisions / elapsed)
    return found


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.95), percentile([5.0], 0.5)
    (4.0, 5.0)
    """
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))
    return ordered[index]


# ----------------------------------------------------------------------
# Against OpenSpiel's ISMCTS
# ----------------------------------------------------------------------
@dataclass
class Clock:
    """CPU seconds of every decision each side took (a decision: a call with a choice)."""

    budget: float
    """The search's budget in seconds: ISMCTS's time per decision before the search's first."""
    search: list[float] = field(default_factory=list)
    """The search's decisions."""
    ismcts: list[float] = field(default_factory=list)
    """ISMCTS's decisions."""
    simulations: list[int] = field(default_factory=list)
    """The simulations of each ISMCTS decision."""

    def allowance(self) -> float:
        """The CPU seconds of ISMCTS's next decision: the search's mean so far.

        >>> Clock(0.05).allowance(), Clock(0.05, [0.02, 0.04]).allowance()
        (0.05, 0.03)
        """
        return statistics.fmean(self.search) if self.search else self.budget


def _timed_ismcts(
    game: Any, evaluator: Any, uct_c: float, seed: int, clock: Clock, key: str = "observation"
) -> Any:
    """OpenSpiel's Python ``ISMCTSBot``, searching each decision for :meth:`Clock.allowance`."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """``run_search`` as OpenSpiel's, simulations until the CPU time is used (two at
        least: with one, OpenSpiel's final policy fails on an unvisited root)."""

        def run_search(self, state: Any) -> Any:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.process_time() + clock.allowance()
            runs = 0
            # The first simulation only expands the root: a choice needs a second.
            while runs < 2 or time.process_time() < deadline:
                self.run_simulation(self.sample_root_state(state))
                runs += 1
            clock.simulations.append(runs)
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTS(
        game,
        evaluator,
        uct_c=uct_c,
        max_simulations=1,
        random_state=np.random.RandomState(seed % 2**32),
        use_observation_string=key == "observation",
    )


def _evaluator(name: str, seed: int) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from pastiche_core.openspiel import HeuristicEvaluator, ScoreEvaluator

    if name == "heuristic":
        return HeuristicEvaluator()
    if name == "score":
        return ScoreEvaluator()
    return mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed % 2**32))


def _ismcts_game(
    spiel: Any, seat: int, deal_seed: int, search: Bot, ismcts_bot: Any, clock: Clock
) -> Game:
    """One game: the search in ``seat``, ISMCTS elsewhere, chance from ``deal_seed``."""
    import random

    chance = random.Random(deal_seed)
    state = spiel.new_initial_state()
    queue: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.choice([card for card, _ in state.chance_outcomes()]))
            continue
        if state.current_player() == seat:
            if not queue:
                game = state.game
                legal = game.legal_moves
                if len(legal) == 1:
                    move = legal[0]
                else:
                    start = time.process_time()
                    move = search.choose(game.view(seat), legal)
                    clock.search.append(time.process_time() - start)
                queue = state.actions_for(move)
            state.apply_action(queue.pop(0))
            continue
        actions = state.legal_actions()
        if len(actions) == 1:
            state.apply_action(actions[0])
            continue
        start = time.process_time()
        action = int(ismcts_bot.step(state))
        clock.ismcts.append(time.process_time() - start)
        state.apply_action(action)
    finished: Game = state.game
    return finished


def ismcts_match(
    games: int, seed: int, budget_ms: int, evaluator: str, uct_c: float, key: str = "observation"
) -> tuple[list[list[str]], Clock]:
    """The search against three ISMCTS bots: the table's rows and the CPU times."""
    import pyspiel

    import pastiche_core.openspiel  # noqa: F401 - registers python_pastiche
    from pastiche_core.ai.tournament import wilson_interval

    spiel = pyspiel.load_game(f"python_pastiche(players={PLAYERS})")
    clock = Clock(budget_ms / 1000)
    search = make_bot("search", derive_seed(seed, "search"), budget_ms=budget_ms)
    bot = _timed_ismcts(
        spiel, _evaluator(evaluator, derive_seed(seed, "rollout")), uct_c, seed, clock, key
    )
    wins = {"search": 0.0, "ismcts": 0.0}
    scores: list[int] = []
    margins: list[int] = []
    start = time.perf_counter()
    for index in range(games):
        seat = index % PLAYERS
        game = _ismcts_game(spiel, seat, game_seed(seed, index // PLAYERS), search, bot, clock)
        winners = game.winners()
        for player in winners:
            wins["search" if player == seat else "ismcts"] += 1 / len(winners)
        points = game.scores()
        scores.append(points[seat])
        margins.append(points[seat] - max(p for s, p in enumerate(points) if s != seat))
        done = index + 1
        left = (time.perf_counter() - start) / done * (games - done)
        print(
            f"  game {done}/{games}: search {'won' if seat in winners else 'lost'}, "
            f"{wins['search']:.1f} wins so far, about {left / 60:.0f} min left",
            file=sys.stderr,
            flush=True,
        )
    rows = []
    for side, trials in (("search", games), ("ismcts", games * (PLAYERS - 1))):
        low, high = wilson_interval(wins[side], trials)
        rate = wins[side] / trials
        label = (
            f"search {budget_ms} ms vs 3 ISMCTS ({evaluator})"
            if side == "search"
            else f"ISMCTS ({evaluator}), each of 3 seats"
        )
        mine = side == "search"
        rows.append(
            [
                label,
                f"{trials:,}",
                f"{100 * rate:.1f}",
                f"[{100 * low:.1f}, {100 * high:.1f}]",
                f"{rate * PLAYERS:.2f}x",
                f"{statistics.fmean(scores):.2f}" if mine else "",
                f"{statistics.fmean(margins):+.2f}" if mine else "",
            ]
        )
    return rows, clock


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the ladder, then the speed, and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=_positive, default=200, help="games per rung (200)")
    parser.add_argument(
        "--workers", type=_positive, default=None, help="processes for the ladder (one per CPU)"
    )
    parser.add_argument("--speed-games", type=_positive, default=6, help="games per speed run (6)")
    parser.add_argument("--repeats", type=_positive, default=5, help="speed runs per bot (5)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the games (2024)")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (-1: do not pin)")
    parser.add_argument("--skip-ladder", action="store_true", help="no strength ladder")
    parser.add_argument("--skip-speed", action="store_true", help="no speed measurement")
    parser.add_argument(
        "--ismcts-games",
        type=int,
        default=0,
        help="games of the search against OpenSpiel's ISMCTS (0: none; the rl extra)",
    )
    parser.add_argument(
        "--ismcts-evaluator",
        choices=ISMCTS_EVALUATORS,
        default="heuristic",
        help="ISMCTS's evaluator (heuristic)",
    )
    parser.add_argument(
        "--ismcts-budget-ms",
        type=_positive,
        default=50,
        help="the search's budget against ISMCTS, whose CPU time per decision follows (50)",
    )
    parser.add_argument(
        "--ismcts-uct", type=float, default=2.0, help="ISMCTS's UCT exploration constant (2)"
    )
    parser.add_argument(
        "--ismcts-key",
        choices=("observation", "infostate"),
        default="observation",
        help="what ISMCTS keys its nodes by (observation)",
    )
    args = parser.parse_args(argv)
    workers = args.workers if args.workers is not None else default_workers()
    print(f"bot benchmark: Python {sys.version.split()[0]}, seed {args.seed}")
    if not args.skip_ladder:
        print(
            f"\nStrength ladder: {PLAYERS}-player games, {args.games:,} per rung (the search's "
            f"rungs at most {SEARCH_GAMES}), seats rotated on shared deals, {workers} worker(s)"
        )
        rows = ladder(args.games, args.seed, workers)
        print(aligned(LADDER_HEADER, rows, first_left=True))
        print(f"parity: {100 / PLAYERS:.1f} %; intervals: Wilson, each seat's game a trial")
    if args.ismcts_games > 0:
        print(
            f"\nAgainst OpenSpiel's ISMCTS: {args.ismcts_games:,} {PLAYERS}-player games, the "
            f"search ({args.ismcts_budget_ms} ms) in seat game % {PLAYERS}, ISMCTS "
            f"(evaluator {args.ismcts_evaluator}, UCT c = {args.ismcts_uct:g}, keyed by "
            f"{args.ismcts_key}) in the others, "
            "equal CPU time per decision, one process"
        )
        rows, clock = ismcts_match(
            args.ismcts_games,
            args.seed,
            args.ismcts_budget_ms,
            args.ismcts_evaluator,
            args.ismcts_uct,
            args.ismcts_key,
        )
        print(aligned(LADDER_HEADER, rows, first_left=True))
        print(
            f"parity: {100 / PLAYERS:.1f} %; intervals: Wilson, each seat's game a trial\n"
            f"CPU ms per decision: search mean {1000 * statistics.fmean(clock.search):.1f} "
            f"over {len(clock.search):,} decisions (p95 "
            f"{1000 * percentile(clock.search, 0.95):.1f}), ISMCTS mean "
            f"{1000 * statistics.fmean(clock.ismcts):.1f} over {len(clock.ismcts):,} "
            f"(p95 {1000 * percentile(clock.ismcts, 0.95):.1f}); ISMCTS simulations per "
            f"decision: mean {statistics.fmean(clock.simulations):.1f}, median "
            f"{statistics.median(clock.simulations):.0f}"
        )
    if args.skip_speed:
        return 0
    where = pin_one_core(args.cpu)
    print(
        f"\nSpeed: {args.speed_games} games a run, every seat the same bot, "
        f"median of {args.repeats} runs, {where}"
    )
    found = speed(args.speed_games, args.repeats, args.seed)
    reference = found[0]
    cells = []
    for row in found:
        ms = [1000 * t for t in row.times]
        cells.append(
            [
                row.name,
                f"{row.median:,.0f}",
                f"{min(row.rates):,.0f}",
                f"{max(row.rates):,.0f}",
                f"{reference.median / row.median:,.1f}x",
                f"{statistics.median(ms):.3f}",
                f"{percentile(ms, 0.95):.3f}",
                f"{max(ms):.1f}",
            ]
        )
    header = [
        "bot",
        "decisions/s",
        "min",
        "max",
        f"slower than {reference.name}",
        "choose ms p50",
        "p95",
        "max",
    ]
    print(aligned(header, cells, first_left=True))
    print("decisions/s: whole games, engine included; choose ms: the bot's own time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
