"""Where the search leaves the greedy anchor, and what each kind of departure is worth.

Run: ``python benchmarks/bench_deviations.py [--games N] [--seed S] [--simulations N]
[--reshuffles K] [--workers W]``.

The search (:class:`~pastiche_core.ai.SearchBot`, simulations fixed) plays game ``i`` of
``--seed`` in seat ``i % 4`` against three greedy bots, as in ``bench_search.py``. At each of
its decisions where the move it plays is not its anchor (the greedy bot's move for the same
view), both moves are played on from the *true* position to the end of the game by four
greedy bots, ``--reshuffles`` times with the deck shuffled anew (the same order for both
moves, so the comparison is paired); the departure's value is the mean difference in the
search's seat's win share (a shared win counts as a fraction, R13). The game itself goes on
with the search's move.

The table groups the departures by kind: a change of action (a publish instead of a draw, a
read instead of a publish, ...), a publish of another Novel than the anchor's, a publish of
the anchor's Novel with other cards, citations or gifts, a read from another novel, a read of
another card of the anchor's novel, and the small phases. For each: how many, the mean value
of one with its standard error, and the total per game in points of win rate with its 95 %
interval. Greedy bots stand in for everyone after the departure (the search's seat too), so
this values a departure by what the greedy bot would make of it, not by what the search
would. The counts are exact; the values are noisy (about ±20 points a game in total over 60
games), too noisy on their own to choose a change of the search by.

    python benchmarks/bench_deviations.py --games 60 --seed 31
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from bench_search import PLAYERS, match_game
from benchkit import aligned

from pastiche_core import Game, Move, Publish, Read
from pastiche_core.ai import GreedyBot, SearchBot
from pastiche_core.ai.search import greedy_move, simulations_for
from pastiche_core.bots.play import derive_seed
from pastiche_core.engine.game import LegalMoves
from pastiche_core.engine.view import PlayerView


@dataclass(frozen=True)
class Departure:
    """One decision where the search did not play its anchor."""

    kind: str
    value: float


def kind_of(anchor: Move, played: Move, phase: str) -> str:
    """The kind of departure from ``anchor`` to ``played`` (see the module)."""
    if isinstance(anchor, Publish) and isinstance(played, Publish):
        return "publish, anchor's Novel" if anchor.novel == played.novel else "publish, other Novel"
    if isinstance(anchor, Read) and isinstance(played, Read):
        return "read, anchor's novel" if anchor.source == played.source else "read, other novel"
    if type(anchor) is not type(played):
        return "another action"
    return f"{phase} phase"


def finish(game: Game, seat: int, seed: int) -> float:
    """``seat``'s win share once four greedy bots have played ``game`` to its end."""
    bots = [GreedyBot(derive_seed(seed, other)) for other in range(PLAYERS)]
    while not game.is_over:
        player = game.to_move
        game.apply(bots[player].choose(game.view(player), game.legal_moves))
    winners = game.winners()
    return 1 / len(winners) if seat in winners else 0.0


def value_of(game: Game, seat: int, anchor: Move, played: Move, reshuffles: int) -> float:
    """The mean paired difference in ``seat``'s win share between ``played`` and ``anchor``."""
    total = 0.0
    for copy in range(reshuffles):
        shares = []
        for move in (anchor, played):
            branch = game.copy(history=False)
            random.Random(derive_seed(len(game.history), copy)).shuffle(
                branch._deck
            )  # a fresh copy: no move of it is held
            branch.apply(move)
            shares.append(finish(branch, seat, derive_seed(copy, "finish")))
        total += shares[1] - shares[0]
    return total / reshuffles


class DepartureRecorder:
    """The search bot, noting each decision where it does not play its anchor."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.decisions = 0
        self.departures: list[tuple[int, Move, Move, str]] = []
        """``(moves played before, anchor, move played, phase)`` per departure."""

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The search bot's move; a departure from the anchor is noted."""
        if len(legal) == 1:
            return legal[0]
        result = self.bot.think(view)
        played = result.best
        assert played is not None
        assert played in legal
        self.decisions += 1
        # The anchor exactly as the search computed it (the same view, knowledge and seed).
        seed = derive_seed(self.bot._seed_for(view), "anchor")
        anchor = greedy_move(view, result.knowledge, seed)
        if anchor is not None and played != anchor:
            self.departures.append((len(view.history), anchor, played, view.phase.value))
        return played


def play_one(job: tuple[int, int, int, int]) -> tuple[int, list[Departure]]:
    """Game ``index`` of ``seed`` (``bench_search``'s): the search's decisions, and its
    departures from its anchor, valued."""
    seed, index, simulations, reshuffles = job
    recorder = DepartureRecorder(
        SearchBot(derive_seed(seed, "search", index), simulations=simulations)
    )
    game, seat = match_game(recorder, "greedy", seed, index)
    found: list[Departure] = []
    for step, anchor, played, phase in reversed(recorder.departures):
        while len(game.history) > step:  # back to the position of the departure
            game.undo()
        found.append(
            Departure(
                kind_of(anchor, played, phase), value_of(game, seat, anchor, played, reshuffles)
            )
        )
    found.reverse()
    return recorder.decisions, found


def main(argv: Sequence[str] | None = None) -> int:
    """Play the games, value every departure, and print the table by kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=60, help="games (60)")
    parser.add_argument("--seed", type=int, default=31, help="seed of the games (31)")
    parser.add_argument(
        "--simulations",
        type=int,
        default=simulations_for(300),
        help="the search's simulations per decision (those of the 300 ms hint)",
    )
    parser.add_argument("--reshuffles", type=int, default=4, help="deck orders per departure (4)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.reshuffles < 1 or args.workers < 1:
        parser.error("--games, --reshuffles and --workers must be at least 1")
    jobs = [(args.seed, index, args.simulations, args.reshuffles) for index in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(play_one, jobs, chunksize=1)
    by_kind: dict[str, list[float]] = {}
    decisions = sum(count for count, _ in games)
    for _, departures in games:
        for departure in departures:
            by_kind.setdefault(departure.kind, []).append(departure.value)
            by_kind.setdefault("all", []).append(departure.value)
    rows = []
    for kind, values in sorted(by_kind.items(), key=lambda item: -len(item[1])):
        error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
        per_game = 100 * sum(values) / args.games
        half = 100 * 1.96 * error * len(values) / args.games
        rows.append(
            (
                kind,
                str(len(values)),
                f"{statistics.fmean(values):+.3f} ± {error:.3f}",
                f"{per_game:+.1f} ± {half:.1f}",
            )
        )
    print(
        f"the search ({args.simulations} simulations) vs 3 greedy bots, {args.games} games of "
        f"seed {args.seed}: departures from the anchor, each valued by {args.reshuffles} "
        "greedy finishes of both moves"
    )
    departed = len(by_kind.get("all", []))
    share = 100 * departed / decisions if decisions else 0.0
    print(f"{departed} departures in {decisions} search decisions ({share:.0f} %)")
    print(
        aligned(
            ("kind", "departures", "value of one (win share)", "per game (points)"),
            rows,
            first_left=True,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
