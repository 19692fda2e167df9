"""Gift policies and options turned into moves (R5, R7).

The search of :class:`~pastiche_core.solver.gifts.MostOptionsPolicy` works on rank
multisets; here it is checked against a plain search over every set of cards
(``itertools.combinations``), including its tie-break.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from pastiche_core import DECK, Card, IllegalMoveError, InvalidNotationError, InvalidStateError
from pastiche_core.data.cards import parse_cards
from pastiche_core.engine.moves import Gift, Publish
from pastiche_core.solver.fast import options
from pastiche_core.solver.gifts import (
    GiftPolicy,
    LowestCardsPolicy,
    MostOptionsPolicy,
    gift_candidates,
    position_after,
    to_publish,
)
from pastiche_core.solver.options import Constraints, PublishOption, make_option
from pastiche_core.solver.position import Masterpiece, Position

JEROME = Position.quick(
    "MYS7 FAN7 MYT6 SCI9", table="0:pairs-3=0:SCI7 1:straight-5=1:HOR7 1:kind-3=1:MYT7"
)


def random_position(rng: random.Random, hand: int, table: int, players: int = 4) -> Position:
    """Distinct cards of the real deck: a hand and Masterpieces of random owners."""
    cards = rng.sample(DECK, hand + table)
    masterpieces = tuple(
        Masterpiece(f"{owner}:mp-{index}", owner, card)
        for index, (owner, card) in enumerate(
            (rng.randrange(players), card) for card in cards[hand:]
        )
    )
    return Position(player=0, hand=tuple(cards[:hand]), masterpieces=masterpieces)


def gift_options(seed: int, count: int) -> list[tuple[Position, PublishOption]]:
    """Options that owe gifts, from random positions."""
    rng = random.Random(seed)
    found: list[tuple[Position, PublishOption]] = []
    while len(found) < count:
        position = random_position(rng, rng.randint(5, 9), rng.randint(2, 7))
        owing = [o for o in options(position) if o.gift_count]
        found += [(position, o) for o in rng.sample(owing, min(2, len(owing)))]
    return found


def after_score(position: Position, option: PublishOption, given: tuple[Card, ...]) -> int:
    return len(options(position_after(position, option, given)))


# ----------------------------------------------------------------------
# The rulebook example
# ----------------------------------------------------------------------
def test_jerome_gives_his_two_other_cards_to_ernest() -> None:
    (option,) = [o for o in options(JEROME) if o.novel == "kind-5"]
    for policy in (LowestCardsPolicy(), MostOptionsPolicy()):
        move = to_publish(option, JEROME, policy)
        assert move == Publish.of(
            "kind-5",
            "MYS7 FAN7",
            cite="0:pairs-3 1:straight-5 1:kind-3",
            gifts="1:MYT6 1:SCI9",
        )


# ----------------------------------------------------------------------
# Policies
# ----------------------------------------------------------------------
def assert_valid_gifts(
    position: Position, option: PublishOption, gifts: tuple[Gift, ...], keep: frozenset[Card]
) -> None:
    spare = set(position.hand) - set(option.played) - keep
    cards = [gift.card for gift in gifts]
    assert len(set(cards)) == len(cards)
    assert set(cards) <= spare
    assert Counter(gift.to for gift in gifts) == Counter(dict(option.gifts))
    # Sorted cards go to the owners in ascending order.
    assert [gift.card for gift in sorted(gifts, key=lambda g: g.to)] == sorted(cards)


@pytest.mark.parametrize("policy", [LowestCardsPolicy(), MostOptionsPolicy()], ids=repr)
def test_policies_pay_exactly_the_gifts_owed(policy: GiftPolicy) -> None:
    for position, option in gift_options(1, 40):
        gifts = policy.choose(position, option)
        assert_valid_gifts(position, option, gifts, frozenset())
        assert policy.choose(position, option) == gifts  # deterministic


def test_lowest_cards_gives_the_lowest_ranks() -> None:
    for position, option in gift_options(2, 30):
        gifts = LowestCardsPolicy().choose(position, option)
        spare = sorted(
            set(position.hand) - set(option.played), key=lambda card: (card.rank, card.index)
        )
        assert sorted(gift.card for gift in gifts) == sorted(spare[: option.gift_count])


def test_most_options_is_the_best_set_of_cards_with_ties_to_the_lowest() -> None:
    """Against every ``itertools.combinations`` of spare cards, in LowestCards order."""
    policy = MostOptionsPolicy(limit=10_000)
    differs = 0
    for position, option in gift_options(3, 40):
        spare = sorted(
            set(position.hand) - set(option.played), key=lambda card: (card.rank, card.index)
        )
        scored = [
            (after_score(position, option, given), given)
            for given in itertools.combinations(spare, option.gift_count)
        ]
        top = max(score for score, _ in scored)
        first = next(given for score, given in scored if score == top)
        chosen = policy.choose(position, option)
        assert sorted(gift.card for gift in chosen) == sorted(first)
        differs += chosen != LowestCardsPolicy().choose(position, option)
    assert differs  # the search does change some choices


def test_most_options_never_leaves_fewer_options_than_lowest_cards() -> None:
    for position, option in gift_options(4, 30):
        best = MostOptionsPolicy().choose(position, option)
        low = LowestCardsPolicy().choose(position, option)
        assert after_score(position, option, tuple(g.card for g in best)) >= after_score(
            position, option, tuple(g.card for g in low)
        )


def test_search_limit_is_honoured() -> None:
    position, option = next((p, o) for p, o in gift_options(5, 40) if o.gift_count >= 2)
    assert len(list(MostOptionsPolicy(limit=1).candidates(position, option))) == 1
    assert MostOptionsPolicy(limit=1).choose(position, option) == LowestCardsPolicy().choose(
        position, option
    )
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError, match="limit must be an integer"):
            MostOptionsPolicy(limit=bad)  # type: ignore[arg-type]


def test_kept_cards_are_never_given() -> None:
    position = Position.quick("SCI7 HOR7 MYT1 LOV2 MAG13", table="1:kind-3=1:MYS7")
    option = make_option(position, "kind-3", [7, 7], [(1, 7)])
    keep = frozenset(parse_cards("MYT1 LOV2"))
    for policy in (LowestCardsPolicy(), MostOptionsPolicy()):
        move = to_publish(option, position, policy, Constraints(keep=keep))
        assert move.gifts == (Gift(1, Card.parse("MAG13")),)
    everything = Constraints(keep=frozenset(parse_cards("MYT1 LOV2 MAG13")))
    with pytest.raises(IllegalMoveError, match="R5"):
        gift_candidates(position, option, everything)
    with pytest.raises(IllegalMoveError, match="kept"):
        to_publish(option, position, constraints=everything)


# ----------------------------------------------------------------------
# The position after a publish
# ----------------------------------------------------------------------
def test_position_after_an_instant_masterpiece() -> None:
    position = Position.quick("SCI7 HOR7 MAG13", table="1:kind-3=1:MYS7 0:pairs-3=0:FAN7")
    option = make_option(position, "kind-3", [7], [(1, 7), (0, 7)])
    after = position_after(position, option, parse_cards("MAG13"))
    assert after.hand == (Card.parse("HOR7"),)
    assert after.held_novels == {"kind-3"}
    assert after.supply["kind-3"] == position.supply["kind-3"] - 1
    assert after.masterpiece("0:kind-3") == Masterpiece("0:kind-3", 0, Card.parse("SCI7"))
    assert after.masterpieces[:2] == position.masterpieces


def test_position_after_a_published_novel() -> None:
    position = Position.quick("SCI7 HOR7 MYS7 MAG13", held="pairs-3")
    option = make_option(position, "kind-3", [7, 7, 7], [])
    after = position_after(position, option)
    assert after.hand == (Card.parse("MAG13"),)
    assert after.masterpieces == ()
    assert after.held_novels == {"kind-3", "pairs-3"}


def test_position_after_avoids_clashing_ids() -> None:
    position = Position.quick("SCI7 HOR7", table="0:kind-3=1:MYS7")
    option = make_option(position, "kind-3", [7], [(1, 7)])
    after = position_after(position, option, parse_cards("HOR7"))
    assert [mp.id for mp in after.masterpieces] == ["0:kind-3", "0:kind-3#2"]


# ----------------------------------------------------------------------
# to_publish errors
# ----------------------------------------------------------------------
def test_ids_that_are_not_novel_references_are_named() -> None:
    position = Position.quick("SCI7 HOR7 MYT1", table="m1=1:MYS7")
    option = make_option(position, "kind-3", [7, 7], [(1, 7)])
    with pytest.raises(InvalidNotationError, match="'m1'") as info:
        to_publish(option, position)
    assert isinstance(info.value, ValueError)


def test_reference_owner_must_match_the_masterpiece() -> None:
    position = Position.quick("SCI7 HOR7 MYT1", table="2:kind-3=1:MYS7")
    option = make_option(position, "kind-3", [7, 7], [(1, 7)])
    with pytest.raises(InvalidStateError, match="names player 2"):
        to_publish(option, position)


def test_illegal_options_are_refused_with_the_reason() -> None:
    position = Position.quick("SCI7 HOR7", table="1:kind-3=1:MYS7")
    option = make_option(position, "kind-3", [7, 7], [(1, 7)])  # no card left to give
    with pytest.raises(IllegalMoveError, match=r"cannot be published here: .*\(R5\)"):
        to_publish(option, position)


class _Broken:
    def __init__(self, gifts: tuple[Gift, ...]) -> None:
        self.gifts = gifts

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        return self.gifts


@pytest.mark.parametrize(
    "gifts",
    [
        (),  # too few
        (Gift(2, Card.parse("MYT1")),),  # wrong owner
        (Gift(1, Card.parse("SCI7")),),  # a played card
        (Gift(1, Card.parse("MAG13")),),  # not in the hand
        (Gift(1, Card.parse("MYT1")), Gift(1, Card.parse("MYT1"))),  # twice
    ],
    ids=str,
)
def test_policies_that_break_r5_are_caught(gifts: tuple[Gift, ...]) -> None:
    position = Position.quick("SCI7 HOR7 MYT1 LOV2", table="1:kind-3=1:MYS7")
    option = make_option(position, "kind-3", [7, 7], [(1, 7)])
    with pytest.raises(IllegalMoveError, match=r"_Broken.*\(R5\)"):
        to_publish(option, position, _Broken(gifts))
