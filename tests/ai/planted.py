"""A game with two planted blunders of one player, for the review's tests and docs.

The search is bounded and deterministic: seeds in order, greedy bots at every
seat, house rules that deal most of the deck (:data:`HOUSE_RULES`: five seats
dealt 9, 9, 9, 10 and 10 cards, so the deck and the discard pile run out
early). In each game it looks, in order, for a decision where the player to
move can *read away a Masterpiece* (:func:`_read_blunder`): they have a
two-card Published novel of their own, and a rival has one worth
:data:`RIVAL_POINTS` or more whose Masterpiece would put that rival ahead of
every other seat within :data:`NEAR_FLAG` points of the End Flag (R12), while
reading their own would put the player level with or ahead of every other
seat. There it plants the *read blunder*: the player reads the rival's novel
down to one card, making it the rival's Masterpiece (a Masterpiece itself can
never be read, R11), taking a card that no publish of theirs can use then.
The greedy bots (dealt their seeds by :data:`VARIANTS` variants in turn) play
on; the first time the same player may Pass (R11: no Write and no Read left)
while a one-card publish (an instant Masterpiece, R7) of
:data:`BIG_POINTS` points or more is legal that would put them ahead of
every rival, it plants the *pass blunder*: a Pass. The bots play the game to
its end.

``python tests/ai/planted.py`` writes the record to :data:`RECORD_PATH`; the
tests check that this search still rebuilds exactly that file.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pastiche_core import Game, GameRecord, Move, Pass, Read, Rules, solve
from pastiche_core.ai.greedy import GreedyBot
from pastiche_core.bots.play import derive_seed
from pastiche_core.engine.rules import Phase

HOUSE_RULES = Rules(min_players=5, max_players=5, deal_sizes=(9, 9, 9, 10, 10), keep_size=9)
"""Five seats dealt 9, 9, 9, 10 and 10 cards, each keeping 9 (R10): two cards left to draw."""
RECORD_PATH = Path(__file__).resolve().parents[2] / "examples" / "records" / "planted-blunders.json"
"""Where the record is shipped."""
MAX_SEEDS = 200
"""The seeds tried, at most."""
MAX_DECISIONS = 400
"""The decisions a game may last, at most."""
BIG_POINTS = 6
"""The points of the publish passed over."""
RIVAL_POINTS = 3
"""The least points of the rival's novel read down to a Masterpiece."""
NEAR_FLAG = 1
"""How near the End Flag's threshold (R12) the read puts the rival, at most."""
VARIANTS = 3
"""The seedings of the bots that play on after the read, tried in turn."""


@dataclass(frozen=True)
class Planted:
    """The game found: its record, the player, and the indices of the two planted moves."""

    record: GameRecord
    player: int
    read_index: int
    pass_index: int


def _bots(seed: int, game: Game, variant: int = 0) -> list[GreedyBot]:
    def bot_seed(seat: int) -> int:
        if variant == 0:
            return derive_seed(seed, "planted", seat)
        return derive_seed(seed, "planted", variant, seat)

    return [GreedyBot(bot_seed(seat), catalogue=game.catalogue) for seat in range(game.players)]


def _helps(game: Game, read: Read) -> bool:
    """Whether a publish of the reader's, after ``read``, plays the card read (or its rank's
    extra copy)."""
    player = game.to_move
    had = Counter(card.rank for card in game.hand(player))[read.card.rank]
    after = game.copy()
    after.apply(read)
    report = solve(after.position(player), max_options=500, time_limit=None)
    return any(
        Counter(card.rank for card in option.played)[read.card.rank] > had
        for option in report.options
    )


def _read_blunder(game: Game) -> Read | None:
    """The planted read for the player to move, if the situation is here (see the module)."""
    if game.phase is not Phase.ACTION:
        return None
    player = game.to_move
    catalogue = game.catalogue
    scores, threshold = game.scores(), game.rules.end_threshold
    own = [n for n in game.table(player) if not n.masterpiece and len(n.cards) == 2]
    if not own or max(scores) >= threshold:
        return None
    mine = max(catalogue[novel.novel].points for novel in own)
    if scores[player] + mine < max(s for seat, s in enumerate(scores) if seat != player):
        return None  # reading their own would not make the player lead: nothing at stake
    chosen: tuple[tuple[int, int], Read] | None = None
    for seat in range(game.players):
        ahead = max(s for other, s in enumerate(scores) if other != seat)
        for novel in game.table(seat) if seat != player else ():
            points = catalogue[novel.novel].points
            after = scores[seat] + points
            if novel.masterpiece or len(novel.cards) != 2 or points < RIVAL_POINTS:
                continue
            if after <= ahead or after < threshold - NEAR_FLAG:
                continue  # the rival's Masterpiece must make them lead, at the End Flag's door
            for card in novel.cards:
                read = Read(novel.ref, card)
                better = chosen is None or (points, after) > chosen[0]
                if better and game.is_legal(read) and not _helps(game, read):
                    chosen = ((points, after), read)
    return None if chosen is None else chosen[1]


def _pass_blunder(game: Game, player: int) -> bool:
    """Whether ``player``, to move, may Pass while a one-card publish of 6+ points is legal
    that would put them strictly ahead of every rival."""
    if game.phase is not Phase.ACTION or game.to_move != player or not game.is_legal(Pass()):
        return False
    report = solve(game.position(player), max_options=500, time_limit=None)
    catalogue = game.catalogue
    scores = game.scores()
    ahead = max(score for seat, score in enumerate(scores) if seat != player)
    return any(
        catalogue[option.novel].points >= BIG_POINTS
        and len(option.played) == 1
        and scores[player] + catalogue[option.novel].points > ahead
        for option in report.options
    )


def _play_on(game: Game, bots: list[GreedyBot], player: int | None) -> int | None:
    """Play ``game`` on with ``bots``; plant a Pass at ``player``'s first pass blunder.

    Returns the index of the planted Pass, or ``None`` if there was none.
    """
    planted = None
    while not game.is_over and len(game.history) < MAX_DECISIONS:
        if planted is None and player is not None and _pass_blunder(game, player):
            planted = len(game.history)
            game.apply(Pass())
            continue
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat), game.legal_moves))
    return planted if game.is_over else None


def find(seeds: range = range(MAX_SEEDS)) -> Planted | None:
    """The first game, by seed, in which both blunders can be planted for one player."""
    for seed in seeds:
        base = Game(HOUSE_RULES.max_players, seed, rules=HOUSE_RULES)
        _play_on(base, _bots(seed, base), None)
        moves: list[Move] = list(base.history)
        game = Game(HOUSE_RULES.max_players, seed, rules=HOUSE_RULES)
        for index, move in enumerate(moves):
            read = _read_blunder(game)
            for variant in range(VARIANTS if read is not None else 0):
                assert read is not None
                trial = game.copy()
                player = trial.to_move
                trial.apply(read)
                pass_index = _play_on(trial, _bots(seed, trial, variant), player)
                if pass_index is not None:
                    return Planted(GameRecord.of(trial), player, index, pass_index)
            game.apply(move)
    return None


def main() -> int:
    """Write the record found to :data:`RECORD_PATH` and print where the blunders are."""
    found = find()
    if found is None:
        print("no game found", file=sys.stderr)
        return 1
    RECORD_PATH.parent.mkdir(parents=True, exist_ok=True)
    found.record.save(RECORD_PATH)
    print(
        f"seed {found.record.seed}: player {found.player}, read blunder at move "
        f"{found.read_index}, pass blunder at move {found.pass_index}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
