"""Where the search wins its games: before the countdown, or in it (R12).

Run: ``python benchmarks/bench_countdown.py [--games N] [--seed S] [--simulations N]
[--workers W] [--heroes search,greedy,hybrid] [--finish-within P]``.

Each hero plays game ``i`` of ``--seed`` in seat ``i % 4`` against three greedy bots, the
games of ``bench_search.py`` (the same deals and opponents for every hero):

* ``search``: the search (:class:`~pastiche_core.ai.SearchBot`, simulations fixed, no
  wall-clock ceiling, so the games replay exactly; ``--finish-within`` sets how near the End
  Flag its playouts run to the end, ``-1`` for never, as before that setting existed);
* ``greedy``: a greedy bot in the hero's seat;
* ``hybrid``: the greedy bot until the countdown begins, the search from then on.

The game is replayed to the turn in which a seat first reached the End Flag's 15 points (the
countdown's start, R12). The table gives, per hero: the win rate (a shared win counts as a
fraction, R13), how often the hero led when the countdown began (the trigger's End Flag
included), and the win rate when it led and when it did not, with the mean score then and at
the end. Comparing the heroes separates what the search gains before the countdown (a better
position when it begins) from what it gains in it (more wins from the same position).

    python benchmarks/bench_countdown.py --games 100 --seed 83 --finish-within -1
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from bench_search import match_game
from benchkit import aligned

from pastiche_core import Game
from pastiche_core.ai import GreedyBot, SearchBot
from pastiche_core.ai.search import FINISH_WITHIN, Settings, simulations_for
from pastiche_core.bots.play import Bot, derive_seed
from pastiche_core.engine.game import LegalMoves
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.moves import Move
from pastiche_core.engine.view import PlayerView

HEROES = ("search", "greedy", "hybrid")


class Hybrid:
    """The greedy bot until the countdown begins (R12), the search from then on."""

    def __init__(self, search: SearchBot, greedy: GreedyBot) -> None:
        self.search = search
        self.greedy = greedy

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The greedy bot's move before the countdown, the search's in it."""
        bot: Bot = self.greedy if view.turns_left is None else self.search
        return bot.choose(view, legal)


@dataclass(frozen=True)
class Outcome:
    """One game of one hero."""

    hero: str
    win: float
    led: bool | None
    """Whether the hero led when the countdown began; ``None``: it never began."""
    score_then: int
    score: int


def play_one(job: tuple[str, int, int, int, int]) -> Outcome:
    """Game ``index`` of ``seed`` with ``hero`` in seat ``index % 4``."""
    hero, simulations, finish_within, seed, index = job
    settings = Settings(finish_within=finish_within)
    search = SearchBot(
        derive_seed(seed, "search", index), simulations=simulations, settings=settings
    )
    greedy = GreedyBot(derive_seed(seed, "hero", index))
    bots: dict[str, Bot] = {"search": search, "greedy": greedy, "hybrid": Hybrid(search, greedy)}
    bot = bots[hero]
    game, seat = match_game(bot, "greedy", seed, index)
    replay = Game(players=game.players, seed=game.seed, catalogue=game.catalogue)
    led: bool | None = None
    score_then = 0
    for move in game.history:
        replay.apply(move)
        if insides(replay).turns_left is not None:
            scores = replay.scores()
            led = scores[seat] > max(s for other, s in enumerate(scores) if other != seat)
            score_then = scores[seat]
            break
    winners = game.winners()
    win = 1 / len(winners) if seat in winners else 0.0
    return Outcome(hero, win, led, score_then, game.scores()[seat])


def _rate(outcomes: Sequence[Outcome]) -> str:
    if not outcomes:
        return "-"
    return f"{statistics.fmean(o.win for o in outcomes) * 100:.1f} % of {len(outcomes)}"


def main(argv: Sequence[str] | None = None) -> int:
    """Play the heroes' games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="games per hero (100)")
    parser.add_argument("--seed", type=int, default=83, help="seed of the games (83)")
    parser.add_argument(
        "--simulations",
        type=int,
        default=simulations_for(300),
        help="the search's simulations per decision (those of the 300 ms hint)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--heroes", default=",".join(HEROES), help="search,greedy,hybrid")
    parser.add_argument(
        "--finish-within",
        type=int,
        default=FINISH_WITHIN,
        help=f"the search's finish_within setting ({FINISH_WITHIN}; -1: never)",
    )
    args = parser.parse_args(argv)
    heroes = [name for name in args.heroes.split(",") if name]
    if args.games < 1 or args.workers < 1 or not set(heroes) <= set(HEROES) or not heroes:
        parser.error("--games and --workers must be positive, --heroes from search,greedy,hybrid")
    jobs = [
        (hero, args.simulations, args.finish_within, args.seed, i)
        for hero in heroes
        for i in range(args.games)
    ]
    with Pool(args.workers) as pool:
        outcomes = pool.map(play_one, jobs, chunksize=1)
    rows = []
    for hero in heroes:
        mine = [o for o in outcomes if o.hero == hero]
        began = [o for o in mine if o.led is not None]
        leading = [o for o in began if o.led]
        behind = [o for o in began if not o.led]
        rows.append(
            (
                hero,
                _rate(mine),
                f"{len(leading) / len(began) * 100:.0f} %" if began else "-",
                _rate(leading),
                _rate(behind),
                f"{statistics.fmean(o.score_then for o in began):.1f}" if began else "-",
                f"{statistics.fmean(o.score for o in mine):.1f}",
            )
        )
    print(
        f"{args.games} games of seed {args.seed} against three greedy bots, "
        f"search at {args.simulations} simulations (no ceiling), finish_within "
        f"{args.finish_within}"
    )
    header = (
        "hero",
        "win rate",
        "led at countdown",
        "wins when leading",
        "wins when not",
        "score then",
        "final score",
    )
    print(aligned(header, rows, first_left=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
