"""How strong and how fast the search is: 4-player matches, playouts per second, hint latency.

Run: ``python benchmarks/bench_search.py [--games N] [--random-games N] [--budget-ms MS]
[--workers W] [--positions P] [--seed S]``.

1. **Matches.** The search (:class:`~pastiche_core.ai.SearchBot` at ``--budget-ms``,
   the default hint budget: a fixed number of simulations, the milliseconds a
   wall-clock ceiling) plays 4-player games against three bots of one kind, in
   the seat ``game % 4`` so that every seat is played equally. Opponents come
   from :data:`OPPONENTS` (the greedy bot, the playout policy's bot and random
   bots; a new kind of opponent is one line there). Each row gives the search's win rate (a
   shared win counts as a fraction, R13) with its 95 % confidence interval
   (normal approximation over games), its mean final margin over the best other
   player, and how many of its decisions the ceiling cut short. A reference row
   plays the policy bot itself against three random bots on the same games, so
   the search's gain over its own playout policy is measured in the same run.
   Games run in ``--workers`` processes; the result does not depend on them
   unless the ceiling cuts decisions short (the table says how many).
2. **Playouts per second.** Determinizations of ``--positions`` views from
   policy games are played out by the policy for the search's horizon, one
   process: playouts and decisions per second (median of ``--repeats`` runs).
3. **Latency.** :func:`~pastiche_core.ai.analyse` at ``--budget-ms`` on the same
   views (those with something to decide), one at a time while nothing else of
   the benchmark runs: median, 95th percentile and maximum wall-clock time, the
   median CPU time (the difference is the machine's other work), and how many
   analyses were complete.

Then the goals are checked: a win rate of at least 40 % against three
opponents of the first match (three greedy bots by default) with the lower end of the confidence interval above 25 % (the
share of a seat among four equals), and the hint answered within its budget
(95th percentile). The figures depend on the machine and on its load.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from multiprocessing.pool import Pool as WorkerPool

from pastiche_core import Game, Move, Phase, RandomBot
from pastiche_core.ai import GreedyBot, PlayoutPolicy, PolicyBot, SearchBot, analyse, determinize
from pastiche_core.ai.playout import playout
from pastiche_core.ai.search import (
    DEFAULT_BUDGET_MS,
    HORIZON_ROUNDS,
    settings_for,
    simulations_for,
)
from pastiche_core.bots.play import Bot, derive_seed, play_game
from pastiche_core.engine.game import LegalMoves
from pastiche_core.engine.view import PlayerView

PLAYERS = 4
OPPONENTS: dict[str, Callable[[int], Bot]] = {
    "policy": lambda seed: PolicyBot(seed),
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
}
"""Opponent kinds by name: a factory from a seed. A new kind of opponent is one line here."""
GOAL_WIN_RATE = 0.40
GOAL_CI_LOW = 0.25


# ----------------------------------------------------------------------
# Matches
# ----------------------------------------------------------------------
class RecordingBot:
    """A search bot that also records how long each search took and whether it was cut short."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.decisions = 0
        self.cut = 0
        self.seconds: list[float] = []

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The search bot's move, timed."""
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        result = self.bot.think(view)
        self.seconds.append(time.perf_counter() - start)
        self.decisions += 1
        self.cut += result.stopped  # the ceiling stopped its simulations
        move = result.best
        return move if move is not None and move in legal else legal[0]


@dataclass(frozen=True)
class GameResult:
    """One game of a match, from the search's seat."""

    win: float
    margin: float
    decisions: int
    cut: int
    seconds: tuple[float, ...]


def match_game(hero: Bot, opponent: str, seed: int, index: int) -> tuple[Game, int]:
    """Game ``index`` of ``seed``: ``hero`` in seat ``index % 4`` against three ``opponent`` bots.

    Returns the finished game and the hero's seat. The deal and the opponents depend only on
    ``seed``, ``opponent`` and ``index``, so every hero plays the same games.
    """
    seat = index % PLAYERS
    factory = OPPONENTS[opponent]
    bots: list[Bot] = [
        factory(derive_seed(seed, opponent, index, other)) for other in range(PLAYERS)
    ]
    bots[seat] = hero
    return play_game(players=PLAYERS, seed=derive_seed(seed, "game", index), bots=bots), seat


def play_one(job: tuple[str, str, int, int, int]) -> GameResult:
    """Game ``index`` of a match: ``hero`` ("search" or "policy") against three ``opponent`` bots."""
    hero, opponent, index, seed, budget_ms = job
    recorder = None
    player: Bot
    if hero == "search":
        recorder = RecordingBot(SearchBot(derive_seed(seed, "search", index), budget_ms=budget_ms))
        player = recorder
    else:
        player = PolicyBot(derive_seed(seed, "policy", index))
    game, seat = match_game(player, opponent, seed, index)
    scores = game.scores()
    winners = game.winners()
    return GameResult(
        1 / len(winners) if seat in winners else 0.0,
        scores[seat] - max(score for other, score in enumerate(scores) if other != seat),
        recorder.decisions if recorder else 0,
        recorder.cut if recorder else 0,
        tuple(recorder.seconds) if recorder else (),
    )


@dataclass
class Match:
    """A row of the match table."""

    label: str
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Mean win share."""
        return statistics.fmean(r.win for r in self.results)

    @property
    def interval(self) -> tuple[float, float]:
        """95 % confidence interval of the win rate (normal approximation over games)."""
        wins = [r.win for r in self.results]
        half = 1.96 * statistics.pstdev(wins) / math.sqrt(len(wins)) if len(wins) > 1 else 1.0
        return max(0.0, self.rate - half), min(1.0, self.rate + half)


def run_match(
    pool: WorkerPool, label: str, hero: str, opponent: str, games: int, seed: int, budget_ms: int
) -> Match:
    """Play ``games`` games of one match in the pool."""
    start = time.perf_counter()
    jobs = [(hero, opponent, index, seed, budget_ms) for index in range(games)]
    results = pool.map(play_one, jobs, chunksize=1)
    return Match(label, results, time.perf_counter() - start)


# ----------------------------------------------------------------------
# Playouts and latency
# ----------------------------------------------------------------------
def sample_views(count: int, seed: int) -> list[PlayerView]:
    """Views of the player to move along policy games, with more than one legal move."""
    views: list[PlayerView] = []
    game_index = 0
    while len(views) < count:
        game_seed = derive_seed(seed, "positions", game_index)
        record = play_game(
            players=PLAYERS,
            seed=game_seed,
            bots=[PolicyBot(derive_seed(game_seed, seat)) for seat in range(PLAYERS)],
        )
        replay = Game(players=PLAYERS, seed=game_seed)
        for step, move in enumerate(record.history):
            if step % 5 == 2 and replay.phase is not Phase.KEEP and len(replay.legal_moves) > 1:
                views.append(replay.view(replay.to_move))
            replay.apply(move)
        game_index += 1
    return views[:count]


def playouts_per_second(views: Sequence[PlayerView], repeats: int) -> tuple[float, float]:
    """Median playouts and policy decisions per second over ``repeats`` runs."""
    policy = PlayoutPolicy()
    rates: list[tuple[float, float]] = []
    for run in range(repeats):
        rng = random.Random(run)
        moves = 0
        start = time.perf_counter()
        for view in views:
            game = determinize(view, rng)
            _, played = playout(
                game,
                view.player,
                policy,
                rng,
                until_turn=game.turn + HORIZON_ROUNDS * view.players,
            )
            moves += played
        seconds = time.perf_counter() - start
        rates.append((len(views) / seconds, moves / seconds))
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


@dataclass
class Latency:
    """Wall-clock and CPU seconds of each analysis, and whether it was complete."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    complete: int = 0

    def quantile(self, share: float) -> float:
        """The wall-clock time below which ``share`` of the analyses answered."""
        ordered = sorted(self.wall)
        return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def hint_latency(views: Sequence[PlayerView], budget_ms: int) -> Latency:
    """Time :func:`analyse` at ``budget_ms`` on every view."""
    latency = Latency()
    for index, view in enumerate(views):
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse(view, budget_ms=budget_ms, seed=index)
        latency.cpu.append(time.process_time() - cpu)
        latency.wall.append(time.perf_counter() - wall)
        latency.complete += analysis.complete
    return latency


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------
def match_table(matches: Sequence[Match]) -> str:
    """The match table: win rate, confidence interval, margin, decisions cut short."""
    rows = [("match (4 players)", "games", "win rate", "95% CI", "vs 25%", "margin", "cut short")]
    for match in matches:
        low, high = match.interval
        decisions = sum(r.decisions for r in match.results)
        cut = sum(r.cut for r in match.results)
        rows.append(
            (
                match.label,
                str(len(match.results)),
                f"{match.rate:.3f}",
                f"[{low:.3f}, {high:.3f}]",
                f"{match.rate / 0.25:.2f}x",
                f"{statistics.fmean(r.margin for r in match.results):+.2f}",
                f"{cut}/{decisions}" if decisions else "-",
            )
        )
    return _format(rows)


def _format(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[col]) for row in rows) for col in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if col == 0 else cell.rjust(width)
            for col, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    )


def _pool_size(workers: int) -> int:
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return max(1, min(workers, available))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matches, the playout and latency measures; print the tables and the goals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games against each bot (200)")
    parser.add_argument(
        "--random-games", type=int, default=60, help="games against random bots (60)"
    )
    parser.add_argument(
        "--opponent",
        default="greedy",
        choices=sorted(OPPONENTS),
        help="the opponents of the main match (greedy)",
    )
    parser.add_argument(
        "--budget-ms", type=int, default=DEFAULT_BUDGET_MS, help="the search's budget (300)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes for the matches (2)")
    parser.add_argument("--positions", type=int, default=60, help="views timed (60)")
    parser.add_argument("--repeats", type=int, default=3, help="playout runs (3)")
    parser.add_argument("--seed", type=int, default=2025, help="seed of the games (2025)")
    args = parser.parse_args(argv)
    budget = args.budget_ms
    settings = settings_for(budget)
    rounds = settings.rival_rounds
    rivals = f", the other seats' first {rounds} round(s) greedy" if rounds else ""
    print(
        f"search benchmark: budget {budget} ms = {simulations_for(budget)} simulations"
        f"{rivals}, "
        f"{args.games} games against 3 {args.opponent} bots, {args.random_games} against 3 "
        f"random bots, {_pool_size(args.workers)} workers, seed {args.seed}"
    )
    matches = []
    with Pool(_pool_size(args.workers)) as pool:
        plan = [
            (f"search {budget} ms vs 3 {args.opponent}", "search", args.opponent, args.games),
            (f"search {budget} ms vs 3 random", "search", "random", args.random_games),
            ("policy bot vs 3 random (reference)", "policy", "random", args.random_games),
        ]
        for label, hero, opponent, games in plan:
            if games > 0:
                matches.append(run_match(pool, label, hero, opponent, games, args.seed, budget))
                print(f"  {label}: {matches[-1].seconds:.0f} s", file=sys.stderr)
    views = sample_views(args.positions, args.seed)
    playouts, decisions = playouts_per_second(views, args.repeats)
    latency = hint_latency(views, budget)
    print()
    print(match_table(matches))
    print()
    print(
        f"playouts: {playouts:.0f} per second ({decisions:,.0f} policy decisions per second), "
        f"horizon {HORIZON_ROUNDS} rounds, one process, median of {args.repeats} runs"
    )
    print(
        f"hint latency at {budget} ms over {len(views)} positions: median "
        f"{statistics.median(latency.wall) * 1000:.0f} ms, p95 {latency.quantile(0.95) * 1000:.0f}"
        f" ms, max {max(latency.wall) * 1000:.0f} ms (median CPU "
        f"{statistics.median(latency.cpu) * 1000:.0f} ms); {latency.complete}/{len(views)} "
        "complete"
    )
    search_rows = [m for m in matches if m.label.startswith("search") and args.opponent in m.label]
    print("goals:")
    if search_rows:
        main_match = search_rows[0]
        low, _ = main_match.interval
        met = main_match.rate >= GOAL_WIN_RATE and low > GOAL_CI_LOW
        print(
            f"  win rate vs 3 {args.opponent} >= {GOAL_WIN_RATE:.0%} with CI low > "
            f"{GOAL_CI_LOW:.0%}: {main_match.rate:.1%} [{low:.1%}, ...] "
            f"{'met' if met else 'NOT met'}"
        )
    p95 = latency.quantile(0.95)
    print(
        f"  hint within {budget} ms (p95): {p95 * 1000:.0f} ms "
        f"{'met' if p95 * 1000 <= budget else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
