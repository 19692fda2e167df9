"""What verifying a loaded game state costs: the history replayed, or the invariants alone.

Run: ``python benchmarks/bench_state_load.py [--games N] [--repeats R]``.

States come from ``N`` real 4-player games (:func:`pastiche_core.bots.play.play_game`,
seeds 0 to N - 1), taken after 0, 25, 50, 75 and 100 moves and at each game's
end, written with :func:`~pastiche_core.io.state_json.state_to_json`. One table row
per length, every figure the median over ``R`` runs of the time per state (the
modes interleaved run by run, so they share the machine's conditions):

* ``no history``: :func:`~pastiche_core.io.state_json.state_from_json` of the state
  with ``"history": []``, a composed position: parsing, reading and
  :func:`~pastiche_core.io.invariants.check_invariants`; the baseline;
* ``invariants``: :func:`~pastiche_core.io.invariants.check_invariants` alone, on
  the loaded game;
* ``history``: the same state with its history: the baseline's work plus
  parsing the moves, replaying them from the deal (R14) and comparing every
  field;
* ``history/none``: the ratio of the two loads, measured in the same runs;
* ``µs/move``: the extra cost of the history per move it holds.

The last line projects the cost of the longest history a state may carry
(:data:`~pastiche_core.io.state_json.MAX_HISTORY` moves) from the largest row's
cost per move. The process is pinned to one CPU (``--cpu``) where the OS
allows it.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from benchkit import aligned, pin_one_core

from pastiche_core import Game, check_invariants, play_game
from pastiche_core.io import MAX_HISTORY, state_from_json, state_to_json

PLAYERS = 4
LENGTHS = (0, 25, 50, 75, 100)
END = -1
"""The row of the games' final states."""

_T = TypeVar("_T")


# ----------------------------------------------------------------------
# States
# ----------------------------------------------------------------------
def states_at(games: Sequence[Game], length: int) -> list[Game]:
    """Each game's position after ``length`` moves (``END``: its end); games too short are left out.

    >>> game = play_game(players=3, seed=1)
    >>> [len(g.history) for g in states_at([game], 10)], states_at([game], 10_000)
    ([10], [])
    >>> states_at([game], END)[0] == game
    True
    """
    found = []
    for game in games:
        moves = game.history if length == END else game.history[:length]
        if length != END and len(moves) < length:
            continue
        replay = Game(game.players, game.seed, game.catalogue)
        for move in moves:
            replay.apply(move)
        found.append(replay)
    return found


def without_history(text: str) -> str:
    """The same state JSON with an empty history: a composed position.

    >>> without_history('{"turn": 3, "history": ["draw"]}')
    '{"turn": 3, "history": []}'
    """
    data = json.loads(text)
    data["history"] = []
    return json.dumps(data)


# ----------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------
@dataclass
class Row:
    """The states of one length and the seconds each mode took, run by run."""

    label: str
    moves: float
    states: int
    times: dict[str, list[float]] = field(default_factory=dict)

    def median(self, mode: str) -> float:
        """Median seconds per state of ``mode``.

        >>> row = Row("end", 100.0, 2, {"history": [0.2, 0.4, 0.3]})
        >>> row.median("history")
        0.15
        """
        return statistics.median(self.times[mode]) / self.states


def time_all(run: Callable[[_T], object], items: Sequence[_T]) -> float:
    """Seconds to run ``run`` on every item once."""
    gc.collect()
    start = time.perf_counter()
    for item in items:
        run(item)
    return time.perf_counter() - start


def measure(label: str, states: Sequence[Game], repeats: int) -> Row:
    """One row: every mode over ``states``, ``repeats`` interleaved runs."""
    full = [state_to_json(game) for game in states]
    bare = [without_history(text) for text in full]
    games = [state_from_json(text) for text in bare]
    for game, text in zip(states, full, strict=True):
        assert state_from_json(text) == game  # verification passes before it is timed
    moves = statistics.mean(len(game.history) for game in states)
    row = Row(label, moves, len(states))
    modes: dict[str, Callable[[], float]] = {
        "no history": lambda: time_all(state_from_json, bare),
        "invariants": lambda: time_all(check_invariants, games),
        "history": lambda: time_all(state_from_json, full),
    }
    for _ in range(repeats):
        for mode, run in modes.items():
            row.times.setdefault(mode, []).append(run())
    return row


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------
def table(rows: Sequence[Row]) -> str:
    """The result table, one row per length."""
    header = (
        "states after",
        "moves",
        "states",
        "no history ms",
        "invariants ms",
        "history ms",
        "history/none",
        "µs/move",
    )
    lines = [header]
    for row in rows:
        bare, full = row.median("no history"), row.median("history")
        per_move = "n/a" if not row.moves else f"{(full - bare) / row.moves * 1e6:.1f}"
        lines.append(
            (
                row.label,
                f"{row.moves:.0f}",
                str(row.states),
                f"{bare * 1000:.3f}",
                f"{row.median('invariants') * 1000:.3f}",
                f"{full * 1000:.3f}",
                f"{full / bare:.1f}x",
                per_move,
            )
        )
    return aligned(header, lines[1:])


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every length, print the table and the projection for the longest history."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games played (20)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per mode (7)")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (-1: do not pin)")
    args = parser.parse_args(argv)
    where = pin_one_core(args.cpu)
    print(
        f"state load benchmark: {args.games} games of {PLAYERS} players, "
        f"{args.repeats} runs, {where}"
    )
    games = [play_game(players=PLAYERS, seed=seed) for seed in range(args.games)]
    rows = []
    for length in (*LENGTHS, END):
        label = "end" if length == END else str(length)
        rows.append(measure(label, states_at(games, length), args.repeats))
        print(f"  measured {label}", file=sys.stderr)
    print()
    print(table(rows))
    print()
    print("times are medians per state; ratios are measured in the same runs")
    longest = max(rows, key=lambda row: row.moves)
    per_move = (longest.median("history") - longest.median("no history")) / longest.moves
    print(
        f"a history of MAX_HISTORY = {MAX_HISTORY} moves would add about "
        f"{per_move * MAX_HISTORY * 1000:.0f} ms (at {per_move * 1e6:.1f} µs per move)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
