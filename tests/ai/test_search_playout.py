"""The playout policy: legal moves everywhere, sound publishes, exact results, a sane player."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_support import played

from pastiche_core import DECK, Game, Move, Phase, Publish, RandomBot, Total, play_game
from pastiche_core.ai.heuristics import Outlook, counts_of
from pastiche_core.ai.playout import (
    HAND_VALUE,
    PROSPECT_VALUE,
    PlayoutPolicy,
    PolicyBot,
    PolicyWeights,
    Situation,
    evaluate,
    expected_scores,
    playout,
)
from pastiche_core.ai.playout_publishes import _total_combinations
from pastiche_core.bots.play import derive_seed
from pastiche_core.data.patterns import rank_counts


@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
)
def test_every_move_the_policy_considers_is_legal(players: int, seed: int, decisions: int) -> None:
    game = played(players, seed, decisions)
    if game.is_over:
        assert PlayoutPolicy().ranked(Situation.of_game(game, game.to_move)) == []
        return
    policy = PlayoutPolicy()
    for sit in (Situation.of_game(game, game.to_move), Situation.of_view(game.view(game.to_move))):
        ranked = policy.ranked(sit)
        assert ranked
        for value, move in ranked:
            assert move in game.legal_moves, move
            assert policy.value(sit, move) == pytest.approx(value)
        values = [value for value, _ in ranked]
        assert values == sorted(values, reverse=True)
        assert policy.pick(sit, random.Random(0)) == ranked[0][1]


@given(cards=st.lists(st.sampled_from(DECK), min_size=0, max_size=20, unique=True))
def test_total_combinations_are_exactly_the_patterns(cards: list) -> None:  # type: ignore[type-arg]
    available = rank_counts(card.rank for card in cards)
    for count, target in ((5, 49), (7, 49), (3, 20), (2, 5)):
        mine = _total_combinations(count, target, available, 10**6)
        assert sorted(mine) == list(Total(count, target).combinations(available))
        assert _total_combinations(count, target, available, 2) == mine[:2]


def test_publishes_are_costed_as_played() -> None:
    """The policy's publishes are legal and each value follows its cards and gifts."""
    checked = 0
    policy = PlayoutPolicy()
    for seed in range(40):
        game = played(4, seed, 70)
        if game.phase is not Phase.ACTION:
            continue
        sit = Situation.of_game(game, game.to_move)
        for value, move in policy.publishes(sit, limit=5):
            assert isinstance(move, Publish)
            assert move in game.legal_moves
            assert policy.value(sit, move) == pytest.approx(value)
            checked += 1
    assert checked >= 5


def test_a_floor_keeps_only_better_publishes() -> None:
    policy = PlayoutPolicy()
    for seed in range(40):
        game = played(4, seed, 70)
        if game.phase is not Phase.ACTION:
            continue
        sit = Situation.of_game(game, game.to_move)
        everything = policy.publishes(sit, limit=50)
        if not everything:
            continue
        floor = sorted(value for value, _ in everything)[len(everything) // 2]
        kept = policy.publishes(sit, limit=50, floor=floor)
        assert {move for _, move in kept} == {m for v, m in everything if v > floor}


def test_evaluate_is_exact_once_the_game_is_over() -> None:
    game = play_game(players=4, seed=3)
    assert game.is_over
    scores = game.scores()
    for seat in range(4):
        win, margin = evaluate(game, seat)
        share = 1 / len(game.winners()) if seat in game.winners() else 0.0
        assert win == share
        assert margin == scores[seat] - max(s for p, s in enumerate(scores) if p != seat)


@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
)
def test_the_outlook_of_a_game_is_the_outlook_of_each_view(
    players: int, seed: int, decisions: int
) -> None:
    # The evaluation reads each player's prospects from the game: only what the views show.
    game = played(players, seed, decisions)
    for seat in range(players):
        assert Outlook.of_game(game, seat) == Outlook.of_view(game.view(seat), game.catalogue)


def test_the_evaluation_values_the_hand_by_its_prospects() -> None:
    game = played(4, 8, 80)
    values = expected_scores(game)
    for seat in range(4):
        hand = game.hand(seat)
        outlook = Outlook.of_game(game, seat)
        gained = outlook.prospects(counts_of(hand)) - outlook.prospects([0] * 14)
        without = expected_scores_without_hand(game, seat)
        assert gained > 0
        assert values[seat] == pytest.approx(
            without + HAND_VALUE * len(hand) + PROSPECT_VALUE * gained, abs=1e-5
        )


def expected_scores_without_hand(game: Game, seat: int) -> float:
    """The seat's expectation with an empty hand (own Masterpieces still give prospects)."""
    emptied = game.copy(history=False)
    emptied._hands[seat] = set()
    return expected_scores(emptied)[seat]


def test_evaluate_estimates_sum_to_one() -> None:
    game = played(4, 8, 80)
    assert not game.is_over
    chances = [evaluate(game, seat)[0] for seat in range(4)]
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)
    values = expected_scores(game)
    leader = max(range(4), key=lambda seat: values[seat])
    assert max(chances) == chances[leader]
    assert evaluate(game, leader)[1] >= 0


def test_playouts_stop_at_the_horizon_and_follow_the_seed() -> None:
    game = played(4, 12, 30)
    one, two = game.copy(), game.copy()
    result = playout(one, 0, PlayoutPolicy(), random.Random(4), until_turn=game.turn + 8)
    assert playout(two, 0, PlayoutPolicy(), random.Random(4), until_turn=game.turn + 8) == result
    assert one == two
    assert one.turn == game.turn + 8 or one.is_over


def test_the_policy_beats_random_players() -> None:
    """Over fixed seeds, the policy bot wins most 4-player games against 3 random bots."""
    wins = 0.0
    games = 12
    for index in range(games):
        seat = index % 4
        bots = [RandomBot(derive_seed(index, "r", s)) for s in range(4)]
        bots[seat] = PolicyBot(index)  # type: ignore[call-overload]
        game = play_game(players=4, seed=index, bots=bots)
        if seat in game.winners():
            wins += 1 / len(game.winners())
    assert wins >= games * 0.6


def test_policy_bots_pickle_and_replay() -> None:
    bot = PolicyBot(5, explore=0.2, weights=PolicyWeights(maturity=0.5))
    twin = pickle.loads(pickle.dumps(bot))
    assert twin.policy == bot.policy
    game = Game(players=4, seed=4)
    one = play_game(players=4, seed=4, bots=[PolicyBot(s, explore=0.2) for s in range(4)])
    two = play_game(players=4, seed=4, bots=[PolicyBot(s, explore=0.2) for s in range(4)])
    assert one.history == two.history
    assert game.phase is Phase.KEEP


def test_a_policy_move_applies() -> None:
    game = Game(players=5, seed=1)
    rng = random.Random(2)
    policy = PlayoutPolicy()
    while not game.is_over:
        move: Move = policy.game_move(game, rng)
        game.apply(move)
    assert game.result is not None
