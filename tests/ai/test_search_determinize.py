"""Determinizations: every sample is a legal game consistent with the view, and no more (R16)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_support import played

from pastiche_core import DECK, Card, Game, InvalidStateError, Phase, check_invariants
from pastiche_core.ai.determinize import (
    Knowledge,
    _deal_located,
    _ways_counter,
    determinize,
)
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.knowledge import hidden_cards
from pastiche_core.engine.view import PlayerView

_PUBLIC = [
    field.name
    for field in dataclasses.fields(PlayerView)
    if field.name not in ("history", "records", "discard", "face_down")
]


def _places(game: Game) -> list[object]:
    """Where each card lies, for counting: every card once."""
    places: list[object] = []
    places.extend(insides(game).deck)
    places.extend(game.discard)
    for seat in range(game.players):
        places.extend(game.hand(seat))
        for novel in game.table(seat):
            places.extend(novel.cards)
    if game._pending is not None:
        places.extend(game._pending)
    if game._flag is not None:
        places.append(game._flag[1])
    return places


def _check_sample(game: Game, seat: int, sample_seed: int) -> Game:
    view = game.view(seat)
    knowledge = Knowledge.of(view)
    sample = determinize(view, random.Random(sample_seed), knowledge)
    # All 49 cards exactly once, and a state that can occur in play.
    places = _places(sample)
    assert sorted(places) == list(DECK)  # type: ignore[type-var]
    check_invariants(sample)
    # Everything the player sees is as in the view; the hand sizes match.
    seen = sample.view(seat)
    for name in _PUBLIC:
        assert getattr(seen, name) == getattr(view, name), name
    assert seen.face_down == view.face_down
    for mine, shown in zip(seen.discard, view.discard, strict=True):
        assert shown is None or mine == shown
    assert [len(sample.hand(p)) for p in range(game.players)] == list(view.hand_sizes)
    # Cards the history places in a hand are dealt to one of the seats it allows.
    for card, seats in knowledge.located:
        assert any(card in sample.hand(p) for p in seats), (card, seats)
    # The sample hides nothing the view shows and shows nothing the view hides.
    assert set(hidden_cards(view)).isdisjoint(view.hand)
    for card, _ in knowledge.located:
        assert card in hidden_cards(view)
    return sample


@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
    seat=st.integers(0, 4),
    sample_seed=st.integers(0, 2**32),
)
def test_every_determinization_is_consistent_with_the_view(
    players: int, seed: int, decisions: int, seat: int, sample_seed: int
) -> None:
    game = played(players, seed, decisions)
    _check_sample(game, seat % players, sample_seed)


@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
    seat=st.integers(0, 4),
)
def test_what_the_history_locates_is_true(
    players: int, seed: int, decisions: int, seat: int
) -> None:
    """Every card the history places in some hands is in one of them in the real game."""
    game = played(players, seed, decisions)
    view = game.view(seat % players)
    knowledge = Knowledge.of(view)
    assert knowledge.history_used
    for card, seats in knowledge.located:
        assert view.player not in seats
        assert any(card in game.hand(p) for p in seats), (card, seats)


def test_reads_and_gifts_are_located() -> None:
    """Over many positions the history locates cards, and samples deal them accordingly."""
    located = 0
    for seed in range(12):
        game = played(4, seed, 90)
        for seat in range(4):
            knowledge = Knowledge.of(game.view(seat))
            located += len(knowledge.located)
            for card, seats in knowledge.located:
                if len(seats) == 1:
                    (only,) = seats
                    assert card in game.hand(only)
                    assert card in knowledge.known_cards(only)
    assert located > 20


def test_a_card_read_by_another_seat_is_dealt_to_that_seat() -> None:
    for seed in range(60):
        game = played(4, seed, 110)
        view = game.view(0)
        knowledge = Knowledge.of(view)
        for seat, text in view.history:
            if seat == 0 or not text.startswith("read "):
                continue
            card = Card.parse(text.split()[-1])
            if card not in knowledge.known_cards(seat):
                continue  # played or given away since
            assert card in game.hand(seat)
            for sample_seed in range(5):
                sample = determinize(view, random.Random(sample_seed), knowledge)
                assert card in sample.hand(seat)
            return
    pytest.fail("no seat kept a card it read")  # pragma: no cover


def test_a_card_a_hidden_gift_may_have_moved_is_dealt_to_one_of_its_seats() -> None:
    """After a gift between two other seats, the giver's known cards may be in either hand:
    samples deal them to both, and never elsewhere."""
    for seed in range(40):
        game = played(4, seed, 140)
        view = game.view(seed % 4)
        knowledge = Knowledge.of(view)
        wide = [(card, seats) for card, seats in knowledge.located if len(seats) > 1]
        if wide:
            break
    else:  # pragma: no cover - the seeds above give hidden gifts
        pytest.fail("no hidden gift widened a located card")
    card, seats = wide[0]
    where = set()
    for sample_seed in range(40):
        sample = determinize(view, random.Random(sample_seed), knowledge)
        (seat,) = [seat for seat in range(4) if card in sample.hand(seat)]
        where.add(seat)
    assert where <= seats
    assert len(where) > 1


def test_a_history_from_elsewhere_is_ignored() -> None:
    game = played(4, 5, 70)
    other = played(4, 6, 70)
    view = dataclasses.replace(game.view(1), history=other.view(1).history)
    knowledge = Knowledge.of(view)
    assert not knowledge.history_used
    assert knowledge.located == ()
    _check_view_sample(view)


def _check_view_sample(view: PlayerView) -> None:
    sample = determinize(view, random.Random(0))
    check_invariants(sample)
    assert sample.hand(view.player) == view.hand


def test_a_composed_view_without_history_samples() -> None:
    game = played(5, 9, 40)
    view = dataclasses.replace(game.view(3), history=())
    knowledge = Knowledge.of(view)
    assert not knowledge.history_used
    assert knowledge.located == ()
    _check_view_sample(view)


def test_the_drawn_cards_of_another_seat_are_sampled() -> None:
    for seed in range(30):
        game = played(4, seed, 40)
        if game.phase is Phase.CHOOSE:
            break
    else:  # pragma: no cover - the seeds above reach a choice
        pytest.fail("no choose phase reached")
    other = (game.to_move + 1) % 4
    sample = _check_sample(game, other, 1)
    assert sample._pending is not None
    assert set(sample._pending) <= set(hidden_cards(game.view(other)))
    mine = _check_sample(game, game.to_move, 1)
    assert insides(mine).pending == insides(game).pending  # the chooser sees them


def test_samples_follow_the_seed() -> None:
    view = played(4, 2, 50).view(2)
    one = determinize(view, random.Random(8))
    two = determinize(view, random.Random(8))
    three = determinize(view, random.Random(9))
    assert one == two
    assert one != three


def test_a_view_that_miscounts_the_cards_is_refused() -> None:
    view = played(4, 2, 50).view(2)
    broken = dataclasses.replace(view, deck_size=view.deck_size + 1)
    with pytest.raises(InvalidStateError, match="accounts for the 49 cards wrongly"):
        determinize(broken, random.Random(0))


def _placements(
    located: list[tuple[Card, frozenset[int]]], room: list[int]
) -> dict[tuple[int, ...], int]:
    """Brute force: every way to put the located cards into free hand places, by seat."""
    deals: dict[tuple[int, ...], int] = {}

    def walk(index: int, seats: tuple[int, ...], free: list[int], ways: int) -> None:
        if index == len(located):
            deals[seats] = deals.get(seats, 0) + ways
            return
        for seat in sorted(located[index][1]):
            if free[seat]:
                free[seat] -= 1
                walk(index + 1, (*seats, seat), free, ways * (free[seat] + 1))
                free[seat] += 1

    walk(0, (), list(room), 1)
    return deals


@pytest.mark.parametrize(
    ("constraints", "room"),
    [
        # Three cards a hidden gift left in any of three hands, one hand with twice the room.
        ([("SCI7", {1, 2, 3}), ("MYS11", {1, 2, 3}), ("FAN12", {1, 2, 3})], [0, 1, 2, 1]),
        # Mixed seats: HOR7 and HOR8 fill seats 1 and 2, so HOR9 can only be in seat 3.
        ([("HOR7", {1, 2}), ("HOR8", {1, 2}), ("HOR9", {2, 3})], [0, 1, 1, 1]),
        ([("MYT4", {1}), ("MYT5", {1, 3}), ("MYT6", {2, 3}), ("LOV7", {1, 2, 3})], [0, 3, 1, 2]),
    ],
)
def test_located_cards_are_dealt_uniformly_over_the_deals_that_fit(
    constraints: list[tuple[str, set[int]]], room: list[int]
) -> None:
    """R16: a sample is a uniform draw among the deals consistent with what the player knows.

    Each placement of the located cards (card by card, seat by seat) comes up as often as
    the brute-force count of its deals says, within four standard deviations over 4,000
    seeded samples (fixed seeds: the test is deterministic).
    """
    located = sorted(
        ((Card.parse(text), frozenset(seats)) for text, seats in constraints),
        key=lambda item: item[0].index,
    )
    expected = _placements(located, room)
    total = sum(expected.values())
    # The sampler's count of the deals (a closed form when the seats are shared) is the brute force's.
    assert _ways_counter([tuple(sorted(seats)) for _, seats in located])(0, tuple(room)) == total
    samples = 4000
    seen: dict[tuple[int, ...], int] = {}
    for seed in range(samples):
        capacity = list(room)
        dealt, placed = _deal_located(located, capacity, random.Random(seed))
        assert placed == {card for card, _ in located}
        assert [len(cards) for cards in dealt] == [
            before - after for before, after in zip(room, capacity, strict=True)
        ]
        where = tuple(
            next(seat for seat, cards in enumerate(dealt) if card in cards) for card, _ in located
        )
        seen[where] = seen.get(where, 0) + 1
    assert set(seen) <= set(expected)
    for deal, ways in expected.items():
        share = ways / total
        spread = (share * (1 - share) / samples) ** 0.5
        assert abs(seen.get(deal, 0) / samples - share) <= 4 * spread + 1e-9, (deal, share)


def test_located_cards_that_cannot_all_fit_are_dealt_one_by_one() -> None:
    """An inconsistent history (two cards known in a one-card hand) drops the constraint it
    cannot keep, and the deal still fills every place."""
    located = [(Card.parse("HOR7"), frozenset({1})), (Card.parse("HOR8"), frozenset({1}))]
    capacity = [0, 1, 0, 0]
    dealt, placed = _deal_located(located, capacity, random.Random(3))
    assert capacity == [0, 0, 0, 0]
    assert dealt[1] == [Card.parse("HOR7")]
    assert placed == {Card.parse("HOR7")}
