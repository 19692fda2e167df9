"""The greedy bot: each decision's heuristic, playing from the view alone, reproducibility, strength."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import cast

import pytest
from builders import build_game

from pastiche_core import (
    DECK,
    Card,
    Catalogue,
    Choose,
    Draw,
    Game,
    Keep,
    LegalMoves,
    Move,
    Pass,
    Phase,
    Position,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
    load_catalogue,
    parse_cards,
)
from pastiche_core.ai import (
    GreedyBot,
    GreedyGiftPolicy,
    Outlook,
    Weights,
    counts_of,
    horizon_of,
    position_of,
    unseen_ranks,
)
from pastiche_core.bots.play import Bot, RandomBot, derive_seed, play_game
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.engine.view import PlayerView
from pastiche_core.solver.fast import options
from pastiche_core.solver.options import Constraints, make_option


class OpaqueLegal:
    """The legal moves and nothing else: no attribute leads back to the game."""

    __slots__ = ("_moves",)

    def __init__(self, legal: LegalMoves) -> None:
        self._moves = legal

    def __len__(self) -> int:
        return len(self._moves)

    def __getitem__(self, index: int) -> Move:
        return self._moves[index]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def __contains__(self, move: object) -> bool:
        return move in self._moves


def decide(game: Game, bot: GreedyBot | None = None) -> Move:
    """The greedy move of the player to move, from a plain view and opaque legal moves."""
    chooser = bot if bot is not None else GreedyBot(1)
    view = PlayerView.of(game, game.to_move)
    move = chooser.choose(view, cast(LegalMoves, OpaqueLegal(game.legal_moves)))
    assert move in game.legal_moves
    return move


# ----------------------------------------------------------------------
# One decision at a time
# ----------------------------------------------------------------------
def test_keeps_the_three_of_a_kind() -> None:
    game = build_game(
        4,
        phase=Phase.KEEP,
        to_move=2,
        hands={
            0: "MYT1 LOV2 SCI3",
            1: "HOR4 MYS5 FAN6",
            2: "SCI7 HOR7 MAG13 MYS7",
            3: "LOV8 SCI9 HOR10 MYS11",
        },
    )
    move = decide(game)
    assert isinstance(move, Keep)
    assert set(move.cards) == set(parse_cards("SCI7 HOR7 MYS7"))


def test_chooses_the_drawn_card_that_completes_a_novel() -> None:
    game = build_game(4, phase=Phase.CHOOSE, hands={0: "SCI7 HOR7 MAG13"}, pending="LOV2 MYS7")
    assert decide(game) == Choose(Card.parse("MYS7"))
    game = build_game(4, phase=Phase.CHOOSE, hands={0: "SCI7 HOR7 MAG13"}, pending="MYS7 LOV2")
    assert decide(game) == Choose(Card.parse("MYS7"))


def test_takes_a_useful_discard_and_draws_otherwise() -> None:
    useful = build_game(4, hands={0: "SCI7 HOR7 MAG13"}, discard="LOV2 MYS7")
    assert decide(useful) == TakeDiscard()
    useless = build_game(4, hands={0: "SCI7 HOR7 MAG13"}, discard="MYS7 LOV2")
    assert decide(useless) == Draw()


def test_passes_when_nothing_else_is_legal() -> None:
    # No deck, no discard, no Published novel: only a pass (R11).
    game = build_game(4, hands={0: "MYT1 MAG13"}, deck="", leftover=1)
    assert list(game.legal_moves) == [Pass()]
    assert decide(game) == Pass()


def test_flags_the_least_useful_card() -> None:
    game = build_game(
        4,
        phase=Phase.FLAG,
        trigger=0,
        turns_left=7,
        hands={0: "SCI7 HOR7 MAG13"},
        tables={0: {"kind-5": "MYS7"}},
    )
    assert decide(game) == TakeFlag(Card.parse("MAG13"))


def test_reads_its_own_novel_into_a_masterpiece() -> None:
    game = build_game(4, hands={0: "MYT1 MAG13 LOV2"}, tables={0: {"kind-5": "SCI7 HOR7"}})
    move = decide(game)
    assert isinstance(move, Read)
    assert str(move.source) == "0:kind-5"


def test_reads_a_rivals_card_it_needs() -> None:
    game = build_game(4, hands={0: "SCI7 HOR7 MAG13"}, tables={1: {"straight-5": "MYS7 LOV2 MYT3"}})
    assert decide(game) == Read(game.table(1)[0].ref, Card.parse("MYS7"))


@pytest.mark.parametrize("cards", ["MYS7 LOV2", "MYS7 LOV2 MYT3"])
def test_does_not_help_a_rival_near_the_end(cards: str) -> None:
    # Player 1 has 14 points: reading their straight-5 brings it closer to a Masterpiece
    # (with two cards, to one that would give them 15 and start the countdown, R12).
    near = {"straight-11": "MAG12", "pairs-4": "FAN11", "kind-3": "MYT4", "straight-5": cards}
    game = build_game(4, hands={0: "SCI7 HOR7 MAG13"}, tables={1: near})
    assert game.scores()[1] == 14
    assert not isinstance(decide(game), Read)
    # The same card from the same novel of a player far from the end is taken.
    calm = build_game(4, hands={0: "SCI7 HOR7 MAG13"}, tables={1: {"straight-5": "MYS7 LOV2 MYT3"}})
    assert decide(calm) == Read(calm.table(1)[0].ref, Card.parse("MYS7"))


@pytest.mark.parametrize("max_options", [200, 1])
def test_publishes_an_instant_masterpiece_citing_its_own_first(max_options: int) -> None:
    # With max_options=1 the listing is cut short: the solver's optima are added to it.
    tables = {
        0: {"kind-3": "SCI7", "pairs-3": "HOR7", "straight-5": "MYT7"},
        1: {"total-5": "MAG7"},
    }
    game = build_game(4, hands={0: "MYS7 FAN12 LOV3 LOV6 MYS6 FAN6"}, tables=tables)
    move = decide(game, GreedyBot(1, max_options=max_options))
    assert isinstance(move, Publish)
    assert move.novel == "kind-5"
    assert move.played == (Card.parse("MYS7"),)
    assert move.gift_count == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_does_not_cite_the_leader_when_others_will_do(seed: int) -> None:
    # 3 of a Kind from SCI7 alone: two of the three 7s on the table must be cited (R5).
    tables = {
        1: {"straight-11": "MAG12", "kind-3": "HOR7"},  # the leader, 9 points
        2: {"kind-3": "MYT7"},
        3: {"kind-3": "LOV7"},
    }
    game = build_game(4, hands={0: "SCI7 LOV2 MYT3 FAN10"}, tables=tables)
    move = decide(game, GreedyBot(seed))
    assert isinstance(move, Publish)
    assert move.played == (Card.parse("SCI7"),)
    assert sorted(gift.to for gift in move.gifts) == [2, 3]


def test_gift_policy_keeps_what_it_needs_and_spares_the_leader() -> None:
    position = Position.quick(
        "SCI7 HOR7 MAG12 FAN12 MYT1", table="1:kind-3=1:MYS7 2:kind-3=2:MYT7 1:pairs-3=1:LOV8"
    )
    option = make_option(position, "kind-5", [7, 7], [(1, 7), (2, 7)])
    view = build_game(4, hands={0: "SCI7 HOR7 MAG12 FAN12 MYT1"}).view(0)
    outlook = Outlook.of_view(view)
    policy = GreedyGiftPolicy(outlook, feared={1: 1.6, 2: 0.4}, masterpieces={1: (12,), 2: (7,)})
    given = {gift.to: gift.card for gift in policy.choose(position, option)}
    # MYT1 is useless; one 12 of the pair must go too. The leader owns a 12: it gets MYT1.
    assert given[1] == Card.parse("MYT1")
    assert given[2].rank == 12
    fair = GreedyGiftPolicy(outlook, feared={1: 0.4, 2: 1.6}, masterpieces={1: (12,), 2: (7,)})
    assert {gift.to: gift.card for gift in fair.choose(position, option)}[2] == Card.parse("MYT1")


def test_a_gift_policy_used_again_gives_what_a_fresh_one_gives() -> None:
    # R5: the policy remembers the cards chosen per hand, kept cards, Novel, cards played and
    # gifts owed; positions, constraints and options that differ in any of them are not mixed.
    rng = random.Random(11)
    outlook = Outlook.of_view(build_game(4).view(0))
    masterpieces: dict[int, tuple[int, ...]] = {1: (12,), 2: (7,), 3: (3,)}
    reused = GreedyGiftPolicy(outlook, feared={1: 1.6, 2: 0.4}, masterpieces=masterpieces)
    asked = 0
    for _ in range(40):
        cards = rng.sample(DECK, rng.randint(12, 16))
        mps = " ".join(f"n{i}={rng.randrange(4)}:{card}" for i, card in enumerate(cards[:5]))
        hand = " ".join(map(str, cards[5:]))
        position = Position.quick(hand, table=mps)
        # The same options from a hand with one card more or less: other cards to give.
        extra = next(card for card in DECK if card not in cards)
        more = Position.quick(f"{hand} {extra}", table=mps)
        keeps = [None, Constraints(keep=frozenset(cards[5:7]))]
        for constraints in keeps:
            for option in [o for o in options(position, constraints) if o.gift_count][:6]:
                for where in (position, more):
                    fresh = GreedyGiftPolicy(
                        outlook, feared={1: 1.6, 2: 0.4}, masterpieces=masterpieces
                    )
                    assert reused.choose(where, option, constraints) == fresh.choose(
                        where, option, constraints
                    )
                    asked += 1
    assert asked > 100


# ----------------------------------------------------------------------
# The heuristic's building blocks
# ----------------------------------------------------------------------
def test_prospects_grow_with_progress_towards_a_novel() -> None:
    outlook = Outlook.of_view(Game(players=4, seed=1).view(0))
    none = outlook.prospects(counts_of("MYT1 LOV4 MAG13"))
    pair = outlook.prospects(counts_of("SCI7 HOR7 MAG13"))
    three = outlook.prospects(counts_of("SCI7 HOR7 MYS7"))
    assert 0 < none < pair < three


def test_novels_that_cannot_be_finished_in_time_are_worth_nothing() -> None:
    spec = Catalogue.default()["kind-3"]
    outlook = Outlook.of_view(Game(players=4, seed=1).view(0))
    hand = counts_of("SCI7 HOR7 MYS7")
    assert outlook.novel_value(spec, hand) > 0
    assert outlook.after_turns(0).novel_value(spec, hand) > 0
    late = Outlook(outlook.novels, outlook.own, outlook.rival, outlook.pool, horizon=2)
    assert late.novel_value(spec, hand) == 0  # publish + 2 reads = 3 turns


def test_locked_ranks_cannot_be_missing_cards() -> None:
    # Rank 1 has one card: kind-3 of 1s is impossible; rank 13 locked in a Masterpiece.
    outlook = Outlook.of_view(build_game(4, tables={1: {"kind-3": "MAG13"}}).view(0))
    assert outlook.pool[13] == 0
    straight = Catalogue.default()["straight-5"]
    assert outlook.novel_value(straight, counts_of("MYS9 MYS10 MYS11 FAN12")) > 0


def test_totals_find_an_exact_sum() -> None:
    outlook = Outlook.of_view(Game(players=4, seed=1).view(0))
    total5 = Catalogue.default()["total-5"]
    exact = outlook.novel_value(total5, counts_of("LOV2 HOR10 FAN12 MAG12 MAG13"))
    off = outlook.novel_value(total5, counts_of("LOV2 HOR10 FAN12 MAG12 FAN11"))
    assert exact > off > 0


def test_custom_patterns_have_no_prospects_but_are_still_published() -> None:
    catalogue = load_catalogue("examples/catalogues/variant.toml")
    game = Game(players=3, seed=2, catalogue=catalogue)
    bots = [GreedyBot(seat, catalogue=catalogue) for seat in range(3)]
    while not game.is_over:
        game.apply(decide(game, bots[game.to_move]))
    assert any(isinstance(move, Publish) for move in game.history)


def test_horizon_counts_the_players_own_turns() -> None:
    view = Game(players=4, seed=1).view(0)
    assert horizon_of(view) is None
    from dataclasses import replace

    assert [horizon_of(replace(view, turns_left=t, current=0)) for t in (1, 4, 5, 7, 8)] == [
        1,
        1,
        2,
        2,
        2,
    ]
    assert horizon_of(replace(view, turns_left=3, current=1)) == 0


def test_the_view_position_matches_the_games() -> None:
    game = Game(players=4, seed=9)
    bots = [GreedyBot(seat) for seat in range(4)]
    for _ in range(60):
        player = game.to_move
        view = game.view(player)
        assert position_of(view) == game.position(player)
        assert sum(unseen_ranks(view)) >= game.deck_size
        game.apply(decide(game, bots[player]))


def test_weights_are_checked() -> None:
    with pytest.raises(InvalidArgumentError, match=r"weights\.spread"):
        Weights(spread=-1)
    with pytest.raises(InvalidArgumentError, match=r"weights\.gift"):
        Weights(gift=11)
    with pytest.raises(InvalidArgumentError, match="max_options"):
        GreedyBot(1, max_options=0)
    with pytest.raises(InvalidArgumentError, match="seed"):
        GreedyBot("one")  # type: ignore[arg-type]


# ----------------------------------------------------------------------
# Whole games
# ----------------------------------------------------------------------
def _greedy_game(seed: int, players: int = 3) -> Game:
    game = Game(players=players, seed=seed)
    bots = [GreedyBot(derive_seed(seed, "bot", seat)) for seat in range(players)]
    while not game.is_over:
        game.apply(decide(game, bots[game.to_move]))
    return game


def test_plays_whole_games_from_the_view_alone_and_reproducibly() -> None:
    first = _greedy_game(4)
    assert first.is_over
    assert _greedy_game(4).history == first.history


def test_a_pickled_bot_plays_on_identically() -> None:
    game = Game(players=3, seed=6)
    bots = [GreedyBot(seat) for seat in range(3)]
    for _ in range(30):
        game.apply(decide(game, bots[game.to_move]))
    twins = [pickle.loads(pickle.dumps(bot)) for bot in bots]
    other = game.copy()
    for _ in range(30):
        if game.is_over:
            break
        game.apply(decide(game, bots[game.to_move]))
        other.apply(decide(other, twins[other.to_move]))
    assert game.history == other.history


def test_beats_three_random_players() -> None:
    # Two deals, each played with the greedy bot in every seat: deterministic, far above
    # parity (25 %).
    wins = 0.0
    margin = 0
    for deal in (11, 12):
        for seat in range(4):
            bots: list[Bot] = [RandomBot(derive_seed(deal, "bot", i)) for i in range(4)]
            bots[seat] = GreedyBot(derive_seed(deal, "bot", seat))
            result = play_game(4, deal, bots=bots).result
            assert result is not None
            wins += 1 / len(result.winners) if seat in result.winners else 0
            margin += result.scores[seat] - max(
                score for other, score in enumerate(result.scores) if other != seat
            )
    assert wins >= 6
    assert margin > 0


def test_random_bot_is_still_a_legal_opponent() -> None:
    game = Game(players=4, seed=2)
    greedy = GreedyBot(1)
    others = {seat: RandomBot(seat) for seat in (1, 2, 3)}
    while not game.is_over:
        player = game.to_move
        if player == 0:
            game.apply(decide(game, greedy))
        else:
            game.apply(others[player].choose(game.view(player), game.legal_moves))
    assert game.result is not None
