"""The OpenSpiel deal in pairs (``deal_cards_per_chance=2``): exact, and half the nodes (R10)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

pytest.importorskip("pyspiel")

import pyspiel

import pastiche_core.openspiel  # noqa: F401  (registers the game)
from pastiche_core import DECK
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.openspiel import PasticheState
from pastiche_core.rl.spiel_state import deal_steps, pair_action, pair_of


def new_state(per_chance: int, players: int = 3) -> PasticheState:
    text = f"python_pastiche(players={players},deal_cards_per_chance={per_chance})"
    state: PasticheState = pyspiel.load_game(text).new_initial_state()
    return state


def test_pair_actions_are_a_combinatorial_index_of_each_unordered_pair_once() -> None:
    pairs = list(itertools.combinations(range(len(DECK)), 2))
    actions = [pair_action(low, high) for low, high in pairs]
    assert sorted(actions) == list(range(math.comb(len(DECK), 2)))
    assert [pair_of(action) for action in actions] == pairs
    assert all(pair_action(high, low) == pair_action(low, high) for low, high in pairs)
    with pytest.raises(InvalidArgumentError, match="two different cards"):
        pair_action(3, 3)
    with pytest.raises(InvalidArgumentError, match="from 0 to 1175"):
        pair_of(1176)


@pytest.mark.parametrize("dealt", [0, 3, 6])  # the pair nodes of the deals 3 3 4 (R10)
def test_a_pair_node_lists_each_unordered_pair_of_the_cards_left_once(dealt: int) -> None:
    state = new_state(2)
    state.deal(range(dealt))
    outcomes = state.chance_outcomes()
    left = range(dealt, len(DECK))
    assert [pair_of(action) for action, _ in outcomes] == sorted(
        itertools.combinations(left, 2), key=lambda pair: pair_action(*pair)
    )
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    assert {p for _, p in outcomes} == {1 / math.comb(len(left), 2)}
    low, high = pair_of(outcomes[-1][0])
    assert state.action_to_string(outcomes[-1][0]) == f"deal {DECK[low]} {DECK[high]}"


def test_pairs_never_span_two_seats_and_halve_the_deals_nodes() -> None:
    state = new_state(2, players=4)  # deals 3 3 4 4 (R10)
    nodes = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        nodes += 1
    assert nodes == 2 + 2 + 2 + 2
    assert deal_steps((3, 3, 4, 4), 2) == (2, 0, 1, 2, 0, 1, 2, 0, 2, 0, 2, 0, 2, 0)
    game = state.game
    assert game is not None
    assert [len(game.hand(seat)) for seat in range(4)] == [3, 3, 4, 4]


def hands_probability(per_chance: int, hands: list[list[int]]) -> Fraction:
    """The chance tree's probability that the first seats are dealt ``hands`` (as sets),
    summed exhaustively over every order of dealing them."""
    total = Fraction(0)
    orders = [list(itertools.permutations(hand)) for hand in hands]
    seen: set[tuple[int, ...]] = set()
    for choice in itertools.product(*orders):
        state = new_state(per_chance)
        probability = Fraction(1)
        cards = list(itertools.chain.from_iterable(choice))
        path: list[int] = []
        at = 0
        while at < len(cards):
            outcomes = dict(state.chance_outcomes())
            step = 2 if max(outcomes) >= len(DECK) else 1  # a pair node lists pairs
            action = pair_action(*cards[at : at + 2]) if step == 2 else cards[at]
            path.append(action)
            probability *= Fraction(outcomes[action]).limit_denominator(10**9)
            state.apply_action(action)
            at += step
        if tuple(path) not in seen:  # a pair is one outcome whichever order it is listed in
            seen.add(tuple(path))
            total += probability
    return total


@pytest.mark.parametrize("per_chance", [1, 2])
def test_the_first_two_hands_are_exactly_as_likely_as_in_a_shuffled_deck(
    per_chance: int,
) -> None:
    hands = [[5, 17, 40], [0, 33, 48]]  # seats 0 and 1 are dealt 3 cards each (R10)
    exact = Fraction(1, math.comb(49, 3) * math.comb(46, 3))
    assert hands_probability(per_chance, hands) == exact


def test_each_cards_seat_is_uniform_over_many_pair_deals() -> None:
    rng = random.Random(39)
    deals = 2000
    counts = [[0] * len(DECK) for _ in range(3)]  # seats 0 and 1, and the rest
    for _ in range(deals):
        state = new_state(2)
        while len(state.dealt_hand(1)) < 3:  # seats 0 and 1; the game is not built
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        dealt = [card.index for card in state.dealt_hand(0) + state.dealt_hand(1)]
        for card in range(len(DECK)):
            seat = dealt.index(card) // 3 if card in dealt else 2
            counts[seat][card] += 1
    expected = deals * 3 / 49
    tolerance = 5 * math.sqrt(expected)  # five standard deviations, per card and seat
    for seat in (0, 1):
        assert all(abs(count - expected) < tolerance for count in counts[seat])
    assert sum(counts[0]) == sum(counts[1]) == 3 * deals


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("per_chance", [1, 2])
def test_random_sim_test_with_either_deal(per_chance: int, players: int) -> None:
    text = f"python_pastiche(players={players},deal_cards_per_chance={per_chance})"
    pyspiel.random_sim_test(pyspiel.load_game(text), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("value", [0, 3])
def test_a_bad_deal_cards_per_chance_is_refused(value: int) -> None:
    with pytest.raises(InvalidArgumentError, match="deal_cards_per_chance must be 1 or 2"):
        pyspiel.load_game(f"python_pastiche(deal_cards_per_chance={value})")
