"""Outs: the cards each Novel needs and its outs, checked against the solver (R4, R5, R6, R16).

The brute force adds every multiset of one or two unseen cards (by rank: R8) to
the hand and asks the solver whether the Novel is then publishable; the cards
needed and the outs must agree with :func:`pastiche_core.outs`.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from position_strategies import CUSTOM_CATALOGUE, positions

from pastiche_core import (
    DECK,
    Card,
    Catalogue,
    Game,
    InvalidArgumentError,
    NovelSpec,
    OutsReport,
    Position,
    Straight,
    outs,
    solve,
)
from pastiche_core.engine.game_internals import renamed
from pastiche_core.engine.knowledge import Knowledge
from pastiche_core.solver.odds import NEVER

_SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _publishable(position: Position, extra: tuple[Card, ...]) -> set[str]:
    """The Novels the solver finds publishable with ``extra`` added to the hand."""
    grown = Position(
        player=position.player,
        hand=position.hand + extra,
        masterpieces=position.masterpieces,
        held_novels=position.held_novels,
        supply=dict(position.supply),
        catalogue=position.catalogue,
    )
    counts = solve(grown, max_options=0, time_limit=None).counts
    return {novel for novel, count in counts.items() if count}


def _check_against_solver(position: Position) -> None:
    report = outs(position, writes=1, time_limit=None)
    assert report.complete
    seen = set(position.hand) | {mp.card for mp in position.masterpieces}
    unseen = [card for card in DECK if card not in seen]
    by_rank: dict[int, list[Card]] = {}
    for card in unseen:
        by_rank.setdefault(card.rank, []).append(card)
    now = _publishable(position, ())
    ones = {rank: _publishable(position, (cards[0],)) for rank, cards in by_rank.items()}
    twos: dict[tuple[int, int], set[str]] = {}
    for first, second in itertools.combinations_with_replacement(sorted(by_rank), 2):
        if first == second and len(by_rank[first]) < 2:
            continue
        pair = (by_rank[first][0], by_rank[second][1 if first == second else 0])
        twos[first, second] = _publishable(position, pair)
    reachable = {entry.novel: entry for entry in report.novels}
    for spec in position.catalogue.publishable:
        novel = spec.id
        if not position.available(novel):
            assert novel not in reachable  # held, or no copy left (R6)
            continue
        with_one = {rank for rank, found in ones.items() if novel in found}
        with_two = {pair for pair, found in twos.items() if novel in found}
        if novel in now:
            expected = 0
        elif with_one:
            expected = 1
        elif with_two:
            expected = 2
        else:
            expected = 3  # three or more, or never
        if novel not in reachable:
            assert expected == 3, (novel, expected)
            continue
        entry = reachable[novel]
        assert min(entry.need, 3) == expected, (novel, entry.need, expected)
        ranks = {out.rank for out in entry.outs}
        if expected == 0:
            assert not ranks
        elif expected == 1:
            assert ranks == with_one, novel
        elif expected == 2:
            assert ranks == {rank for pair in with_two for rank in pair}, novel
        for out in entry.outs:
            assert list(out.cards) == by_rank[out.rank]


@_SETTINGS
@given(positions(max_hand=7, max_masterpieces=5))
def test_r4_r5_need_and_outs_agree_with_the_solver(position: Position) -> None:
    _check_against_solver(position)


# Small Sum takes any number of cards: with the unseen cards its search passes the bound.
_SIZED = Catalogue([spec for spec in CUSTOM_CATALOGUE.specs if spec.id != "small-sum"])


@_SETTINGS
@given(positions(max_hand=6, max_masterpieces=4, catalogue=_SIZED))
def test_r3_need_and_outs_agree_with_the_solver_on_a_custom_catalogue(position: Position) -> None:
    _check_against_solver(position)


def test_r5_gifts_a_cited_masterpiece_needs_a_card_to_pay_its_gift() -> None:
    # 4 5 in hand and another player's 6: the straight is made, but the gift needs a card.
    catalogue = Catalogue(
        [
            NovelSpec("run-3", "Short Run", Straight(3), points=1, copies=1),
            NovelSpec("end-flag", "End Flag", None, points=1, copies=1),
        ]
    )
    position = Position.quick("HOR4 MYS5", table="1:FAN6", catalogue=catalogue)
    entry = outs(position, writes=1).novel("run-3")
    assert entry.need == 1
    assert entry.out_cards == len(DECK) - 3  # any card pays the gift (R5)
    own = Position.quick("HOR4 MYS5", table="0:FAN6", catalogue=catalogue)
    assert outs(own, writes=1).novel("run-3").need == 0  # an own Masterpiece is free


def test_r6_held_and_sold_out_novels_are_unreachable_with_their_reason() -> None:
    position = Position.quick("SCI7 HOR7", held="kind-3", supply={"pairs-3": 0})
    report = outs(position, writes=1)
    reasons = {entry.novel: entry.reason for entry in report.unreachable}
    assert "(R6)" in reasons["kind-3"]
    assert "holds kind-3" in reasons["kind-3"]
    assert reasons["pairs-3"] == "no copy of pairs-3 is left in the supply (R6)"
    assert "end-flag" not in reasons  # R12: neither reachable nor unreachable
    assert all(entry.novel != "end-flag" for entry in report.novels)


def test_r3_an_unbounded_custom_search_says_it_was_cut_short() -> None:
    position = Position.quick("SCI7 HOR7 MYT2 LOV3 FAN10 MAG12", catalogue=CUSTOM_CATALOGUE)
    report = outs(position, writes=1)
    assert not report.complete
    assert report.novel("small-sum").need == 0  # 2 + 3 + 7 is found early, and is exact


def test_r4_a_novel_no_unseen_cards_can_complete_is_unreachable() -> None:
    # Every 11 lies face up on the discard pile: each 11-card straight needs one (R4).
    view = Game(players=3, seed=7).view(0)
    elevens = tuple(card for card in DECK if card.rank == 11)
    report = outs(dataclasses.replace(view, discard=elevens), writes=1)
    reasons = {entry.novel: entry.reason for entry in report.unreachable}
    assert reasons["straight-11"] == (
        "the hand, the Masterpieces and the unseen cards cannot make 11-Card Straight (R4, R5)"
    )
    assert report.unseen == len(DECK) - 3 - 3
    assert all(entry.need < NEVER for entry in report.novels)


def _random_game(seed: int, moves: int) -> Game:
    game = Game(players=4, seed=seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = list(game.legal_moves)
        game.apply(legal[pick.randrange(len(legal))])
    return game


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 40), st.randoms(use_true_random=False))
def test_r16_swapping_hidden_cards_of_others_changes_nothing(
    seed: int, moves: int, pick: random.Random
) -> None:
    game = _random_game(seed, moves)
    viewer = 0
    known = Knowledge.of(game, viewer).seen
    view = game.view(viewer)
    hidden = [card for card in DECK if card not in known and card not in view.hand]
    assume(len(hidden) >= 2)
    first, second = pick.sample(hidden, 2)
    twin = renamed(game, {first: second, second: first})
    assume(twin.view(viewer) == view)
    before = outs(view, writes=2, samples=200, seed=3).to_dict()
    assert outs(twin.view(viewer), writes=2, samples=200, seed=3).to_dict() == before
    assert outs(twin, player=viewer, writes=2, samples=200, seed=3).to_dict() == before


def test_r16_a_game_answers_through_its_players_view() -> None:
    game = _random_game(5, 12)
    seat = (game.to_move + 1) % game.players
    assert outs(game, player=seat, writes=2).to_dict() == outs(game.view(seat), writes=2).to_dict()
    assert outs(game, writes=1).player == game.to_move


def test_the_document_has_the_agreed_shape() -> None:
    position = Position.quick("SCI7 HOR7 MYT2 LOV3")
    data = outs(position, writes=3).to_dict()
    assert list(data) == [
        "format",
        "version",
        "player",
        "unseen",
        "writes",
        "complete",
        "novels",
        "unreachable",
    ]
    assert (data["format"], data["version"], data["unseen"]) == ("pastiche-outs", 1, 45)
    entry = next(item for item in data["novels"] if item["novel"] == "kind-3")
    assert entry["need"] == 1
    assert entry["out_cards"] == 5
    assert entry["outs"] == [
        {"rank": 7, "cards": ["MYT7", "LOV7", "MYS7", "FAN7", "MAG7"], "unseen": 5}
    ]
    odds = entry["odds"]
    assert set(odds) == {"exact", "samples", "next_write", "within"}
    assert [w["writes"] for w in odds["within"]] == [1, 2, 3]
    assert odds["next_write"]["publishable"] == odds["within"][0]["publishable"]
    assert all(isinstance(item["need"], int) for item in data["novels"])


def test_a_novel_publishable_now_has_odds_of_one() -> None:
    entry = outs(Position.quick("SCI7 HOR7 MYS7"), writes=2).novel("kind-3")
    assert entry.need == 0
    assert entry.outs == ()
    assert entry.odds.next_closer == entry.odds.next_publishable == 1.0
    assert all(w.publishable == w.low == w.high == 1.0 for w in entry.odds.within)


def test_the_text_table_fits_80_columns() -> None:
    report = outs(Position.quick("SCI7 HOR7 MYT2 LOV3 FAN10 MAG12"), writes=6, samples=64)
    text = report.format()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert str(report) == text
    assert all(len(line) <= 60 for line in report.format(width=60).splitlines())
    assert isinstance(report, OutsReport)
    assert repr(report).startswith("<OutsReport player 0")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"writes": 0}, "writes must be an integer from 1 to 10, got 0"),
        ({"writes": True}, "writes must be an integer from 1 to 10, got True"),
        ({"samples": 0}, "samples must be an integer from 1 to 100000, got 0"),
        ({"seed": -1}, "seed must be an integer"),
        ({"time_limit": 0}, "time_limit must be a number of seconds > 0"),
        ({"player": 1}, "player 1 differs from the position's player 0"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        outs(Position.quick("SCI7"), **kwargs)  # type: ignore[arg-type]


def test_bad_sources_and_players_are_refused() -> None:
    game = Game(players=3, seed=7)
    with pytest.raises(InvalidArgumentError, match="a view answers for its own player only"):
        outs(game.view(0), player=1)
    with pytest.raises(InvalidArgumentError, match=r"player must be a seat from 0 to 2 \(R10\)"):
        outs(game, player=3)
    with pytest.raises(InvalidArgumentError, match="takes a PlayerView, a Position or a Game"):
        outs("SCI7 HOR7")  # type: ignore[arg-type]
