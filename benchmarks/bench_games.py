"""Complete random games per second on one core.

Run: ``python benchmarks/bench_games.py [--games N] [--repeats R] [--baseline-games B]``.

Two tables, each the median (and min/max) of ``R`` runs over fixed game seeds
(the seeds of ``simulate``), so every run plays exactly the same games:

1. Throughput of random 4-player games (``N`` games a run) as the library plays
   them: :class:`RandomBot` choosing by index (``legal[rng.randrange(len(legal))]``)
   with the lazily built view of :func:`play_game`, next to the same games with
   a full :class:`PlayerView` built every decision, and the same games played by
   :func:`~pastiche_core.bots.play.random_game` (the compiled game kernel when it is
   built: no :class:`Game` is made; it answers each game's summary). Ratio:
   against the first row.
2. The baseline: the same random choices made by enumerating every legal move
   first (``moves = list(game.legal_moves)``), against the indexed choice, on
   the first ``B`` games (at most 3 runs: enumeration is slow). Both make the
   same choices, so they play the same games (checked); the ratio is the
   speed-up of indexed choice over enumeration.

The process is pinned to one CPU (``--cpu``) where the OS allows it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchkit import pin_one_core

from pastiche_core.bots.play import Bot, RandomBot, derive_seed, play_game, random_game
from pastiche_core.bots.simulate import game_seed
from pastiche_core.engine.game import Game, LegalMoves
from pastiche_core.engine.movegen import clear_caches
from pastiche_core.engine.moves import Move
from pastiche_core.engine.view import PlayerView

PLAYERS = 4


class EnumeratingBot:
    """The baseline: list every legal move, then pick one with the same draw as RandomBot."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """Enumerate, then pick uniformly."""
        moves = list(legal)
        return moves[self._rng.randrange(len(moves))]


class EagerViewBot:
    """RandomBot that reads its view (building every field) before choosing."""

    def __init__(self, seed: int) -> None:
        self._bot = RandomBot(seed)

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """Read the view, then pick by index."""
        _ = view.hand
        return self._bot.choose(view, legal)


BotFactory = Callable[[int], Bot]


@dataclass(frozen=True)
class Row:
    """One measured mode: games/s and decisions/s of each run."""

    label: str
    games: int
    rates: list[float]
    decision_rates: list[float]

    @property
    def median(self) -> float:
        """Median games per second over the runs."""
        return statistics.median(self.rates)


def _seeds(count: int, seed: int) -> list[int]:
    return [game_seed(seed, index) for index in range(count)]


def _play(seeds: Sequence[int], factory: BotFactory) -> tuple[float, int, list[Game]]:
    games = []
    decisions = 0
    # Every run starts with cold counting caches: replaying the same games would
    # otherwise find every position already counted and flatter the figures.
    clear_caches()
    start = time.perf_counter()
    for seed in seeds:
        bots = [factory(derive_seed(seed, "bot", seat)) for seat in range(PLAYERS)]
        game = play_game(PLAYERS, seed, bots=bots)
        decisions += len(game.history)
        games.append(game)
    return time.perf_counter() - start, decisions, games


def _play_kernel(seeds: Sequence[int]) -> tuple[float, int]:
    """The same games by ``random_game``: elapsed seconds and decisions."""
    clear_caches()
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        decisions += random_game(PLAYERS, seed).decisions
    return time.perf_counter() - start, decisions


Runner = Callable[[Sequence[int]], tuple[float, int]]
"""Play the games of some seeds: elapsed seconds and decisions."""


def _bots(factory: BotFactory) -> Runner:
    """The games played by ``play_game`` with bots from ``factory``."""

    def run(seeds: Sequence[int]) -> tuple[float, int]:
        elapsed, decisions, _games = _play(seeds, factory)
        return elapsed, decisions

    return run


def measure(modes: Sequence[tuple[str, Runner]], seeds: Sequence[int], repeats: int) -> list[Row]:
    """Play ``seeds`` ``repeats`` times per mode, interleaving the modes run by run."""
    rates: list[list[float]] = [[] for _ in modes]
    decision_rates: list[list[float]] = [[] for _ in modes]
    for _ in range(repeats):
        for index, (_label, runner) in enumerate(modes):
            elapsed, decisions = runner(seeds)
            rates[index].append(len(seeds) / elapsed)
            decision_rates[index].append(decisions / elapsed)
    return [
        Row(label, len(seeds), rates[index], decision_rates[index])
        for index, (label, _factory) in enumerate(modes)
    ]


def _table(title: str, rows: Sequence[Row], reference: Row, ratio_label: str) -> str:
    header = (
        f"{'mode':<44} {'games':>5} {'median g/s':>10} {'min':>8} {'max':>8} "
        f"{'decisions/s':>11} {ratio_label:>12}"
    )
    lines = [title, header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.label:<44} {row.games:>5} {row.median:>10.2f} {min(row.rates):>8.2f} "
            f"{max(row.rates):>8.2f} {statistics.median(row.decision_rates):>11.0f} "
            f"{row.median / reference.median:>11.2f}x"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per mode (default 5)")
    parser.add_argument(
        "--baseline-games",
        type=int,
        default=2,
        help="games per run for the enumeration baseline, 0 to skip (default 2; slow)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the game seeds (default 0)")
    parser.add_argument(
        "--cpu",
        type=int,
        default=None,
        help="CPU to pin the process to (default: the lowest allowed; -1: do not pin)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1 or args.baseline_games < 0:
        parser.error("--games and --repeats must be at least 1, --baseline-games at least 0")

    where = pin_one_core(args.cpu)
    print(
        f"Random {PLAYERS}-player games, Python {sys.version.split()[0]}, {where}, "
        f"seed {args.seed}, median of {args.repeats} runs",
        flush=True,
    )
    seeds = _seeds(args.games, args.seed)
    rows = measure(
        [
            ("indexed choice, lazy view (play_game)", _bots(RandomBot)),
            ("indexed choice, full view every decision", _bots(EagerViewBot)),
            ("game kernel, summaries only (random_game)", _play_kernel),
        ],
        seeds,
        args.repeats,
    )
    print()
    print(_table(f"Throughput ({args.games} games a run)", rows, rows[0], "vs row 1"))

    if args.baseline_games:
        few = _seeds(args.baseline_games, args.seed)
        _, _, fast_games = _play(few, RandomBot)
        _, _, slow_games = _play(few, EnumeratingBot)
        same = all(a.history == b.history for a, b in zip(fast_games, slow_games, strict=True))
        if not same:
            print("error: enumeration and indexed choice played different games", file=sys.stderr)
            return 1
        slow, fast = measure(
            [
                ("baseline: enumerate list(legal_moves)", _bots(EnumeratingBot)),
                ("indexed choice, lazy view (play_game)", _bots(RandomBot)),
            ],
            few,
            min(args.repeats, 3),
        )
        print()
        print(
            _table(
                f"Baseline ({len(few)} games a run, the same games in both rows)",
                [slow, fast],
                slow,
                "vs baseline",
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
