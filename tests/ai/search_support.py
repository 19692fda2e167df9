"""Games and positions for the search's tests: played by a mix of policy and random bots.

Random bots publish card-level publishes with pastiche and gifts that the policy
rarely plays; policy bots read, take and publish as a player would. A seed and a
number of decisions always give the same game.
"""

from __future__ import annotations

from pastiche_core import Game, RandomBot
from pastiche_core.ai.playout import PolicyBot
from pastiche_core.bots.play import Bot, derive_seed


def mixed_bots(players: int, seed: int) -> list[Bot]:
    """One bot per seat: a random bot in every third seat (by seed), policy bots elsewhere."""
    bots: list[Bot] = []
    for seat in range(players):
        bot_seed = derive_seed(seed, "test-bot", seat)
        if (seed + seat) % 3 == 0:
            bots.append(RandomBot(bot_seed))
        else:
            bots.append(PolicyBot(bot_seed, explore=0.3))
    return bots


def played(players: int, seed: int, decisions: int) -> Game:
    """The game of ``seed`` after at most ``decisions`` decisions of :func:`mixed_bots`."""
    game = Game(players=players, seed=seed)
    bots = mixed_bots(players, seed)
    for _ in range(decisions):
        if game.is_over:
            break
        player = game.to_move
        game.apply(bots[player].choose(game.view(player), game.legal_moves))
    return game
