"""What the OpenSpiel game's information states cost: random play and ``random_sim_test``.

Run: ``python benchmarks/bench_spiel_infostate.py [--rounds R] [--seconds S]``
``[--tree NAME=SRC ...]``.

Each ``--tree`` is a ``src`` directory of the package (an export of another
commit, with the same compiled extension copied in); the working tree's own is
``this``. Every round runs, for each tree in turn, one fresh process that
plays random 4-player games of ``python_pastiche`` for ``S`` CPU seconds
(chance outcomes and legal actions drawn uniformly, nothing else asked of the
state) and then times ``pyspiel.random_sim_test`` (3 players, 2 games, which
reads every player's strings and tensors at every state, the information
states too where the game provides them). The trees alternate round by round,
so a load on the machine falls on all of them alike; the table gives each
tree's games per CPU second and ``random_sim_test`` CPU seconds per round, and
the ratio of each median to the first tree's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from benchkit import aligned

CHILD = """
import json, random, sys, time
import pyspiel
import pastiche_core.openspiel  # registers the game

seconds = float(sys.argv[1])
game = pyspiel.load_game("python_pastiche(players=4)")
rng = random.Random(0)
games = 0
start = time.process_time()
while time.process_time() - start < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    games += 1
rate = games / (time.process_time() - start)
start = time.process_time()
pyspiel.random_sim_test(pyspiel.load_game("python_pastiche(players=3)"), num_sims=2,
                        serialize=False, verbose=False)
print(json.dumps({"rate": rate, "sim": time.process_time() - start}))
"""


def _measure(src: str, seconds: float) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(seconds)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out.splitlines()[-1])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every tree, alternately, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    parser.add_argument("--seconds", type=float, default=8.0, help="random play per run (8)")
    parser.add_argument("--tree", action="append", default=[], help="NAME=SRC, another tree")
    args = parser.parse_args(argv)
    trees = [tuple(text.split("=", 1)) for text in args.tree]
    trees.append(("this", str(Path(__file__).resolve().parents[1] / "src")))
    rates: dict[str, list[float]] = {name: [] for name, _ in trees}
    sims: dict[str, list[float]] = {name: [] for name, _ in trees}
    for round_ in range(args.rounds):
        for name, src in trees:
            result = _measure(src, args.seconds)
            rates[name].append(result["rate"])
            sims[name].append(result["sim"])
            print(f"  round {round_ + 1}: {name} {result}", file=sys.stderr, flush=True)
    first = trees[0][0]
    rows = []
    for name, _ in trees:
        rate, sim = statistics.median(rates[name]), statistics.median(sims[name])
        rows.append(
            [
                name,
                " ".join(f"{value:.2f}" for value in rates[name]),
                f"{rate / statistics.median(rates[first]):.3f}",
                " ".join(f"{value:.2f}" for value in sims[name]),
                f"{sim / statistics.median(sims[first]):.2f}",
            ]
        )
    header = ["tree", "games / CPU s", "ratio", "random_sim_test CPU s", "ratio"]
    print(aligned(header, rows, first_left=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
