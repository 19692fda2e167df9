"""How often the playout policy plays the greedy bot's move, decision by decision.

Run: ``python benchmarks/bench_policy_agreement.py [--games N] [--seed S]
[--weights key=value,...]``.

Four greedy bots play ``--games`` 4-player games; at every decision after setup the
playout policy (no exploration, the default weights or those given) is asked for
its move in the same position. A decision agrees when both play the same kind of
move and, for a publish, the same Novel; for a read, a choice after Write ① or an
End Flag card, the same move. The table gives the agreement per kind of move the
greedy bot played, and the time each takes per decision. This measures how well
the policy models greedy opponents inside the search's playouts (the hints page,
"What makes the search stronger").
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections import Counter
from collections.abc import Sequence

from benchkit import aligned

from pastiche_core import Game, Move, Phase, Publish
from pastiche_core.ai import GreedyBot, PlayoutPolicy
from pastiche_core.ai.playout import PolicyWeights, Situation
from pastiche_core.bots.play import derive_seed
from pastiche_core.engine.moves import Choose, Read, TakeFlag


def same(greedy: Move, policy: Move) -> bool:
    """Whether the policy's move agrees with the greedy bot's (see the module)."""
    if type(greedy) is not type(policy):
        return False
    if isinstance(greedy, Publish) and isinstance(policy, Publish):
        return greedy.novel == policy.novel
    if isinstance(greedy, Read | Choose | TakeFlag):
        return greedy == policy
    return True


def parse_weights(text: str) -> PolicyWeights:
    """``key=value,...`` as policy weights over the defaults."""
    changes = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        changes[key.strip()] = float(value)
    return dataclasses.replace(PolicyWeights(), **changes)


def main(argv: Sequence[str] | None = None) -> int:
    """Play the greedy games and print the agreement table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40, help="greedy games (40)")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the games (1000)")
    parser.add_argument("--weights", default="", help="policy weights, key=value,... (defaults)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        weights = parse_weights(args.weights)
    except (TypeError, ValueError) as error:
        parser.error(f"--weights: {error}")
    policy = PlayoutPolicy(explore=0, weights=weights)
    decisions: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    greedy_time = policy_time = 0.0
    moves = 0
    for index in range(args.games):
        game = Game(players=4, seed=derive_seed(args.seed, "game", index))
        bots = [GreedyBot(derive_seed(args.seed, "greedy", index, seat)) for seat in range(4)]
        while not game.is_over:
            player = game.to_move
            start = time.perf_counter()
            move = bots[player].choose(game.view(player), game.legal_moves)
            greedy_time += time.perf_counter() - start
            moves += 1
            if game.phase is not Phase.KEEP:
                start = time.perf_counter()
                mine = policy.pick(Situation.of_game(game, player), random.Random(0))
                policy_time += time.perf_counter() - start
                kind = type(move).__name__
                decisions[kind] += 1
                agreed[kind] += same(move, mine)
            game.apply(move)
    total = sum(decisions.values())
    rows = [
        (kind, f"{decisions[kind]:,}", f"{agreed[kind] / decisions[kind] * 100:.0f} %")
        for kind in sorted(decisions, key=lambda k: -decisions[k])
    ]
    rows.append(("all", f"{total:,}", f"{sum(agreed.values()) / total * 100:.1f} %"))
    print(f"playout policy vs greedy bot, {args.games} games of seed {args.seed}, {weights}")
    print(aligned(("greedy played", "decisions", "policy agrees"), rows, first_left=True))
    print(
        f"per decision: greedy {greedy_time / moves * 1000:.2f} ms (setup included), "
        f"policy {policy_time / total * 1000:.3f} ms (after setup)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
