"""Observations: the documented layout, the values, and independence from hidden cards."""

from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("numpy")

import numpy as np
from budget import examples
from builders import build_game, random_positions
from hypothesis import given, settings
from hypothesis import strategies as st
from rl_common import atomic_positions, swap_hidden

from pastiche_core import DECK, Card, Game, InvalidArgumentError, Phase
from pastiche_core.engine.game_internals import renamed
from pastiche_core.engine.view import setup_discarders
from pastiche_core.rl import ActionSpace, Field, Knowledge, MoveBuilder, ObservationEncoder

ENCODER = ObservationEncoder(players=4)


def cards_of(plane: np.ndarray) -> list[str]:
    return [str(Card.from_index(int(i))) for i in np.flatnonzero(plane)]


def test_fields_tile_the_vector() -> None:
    for players in (3, 4, 5):
        encoder = ObservationEncoder(players)
        offset = 0
        for field in encoder.fields:
            assert field.offset == offset
            offset += field.size
        assert offset == encoder.size
        n, k = players, 10
        planes = (6 + 3 * n + k + 4) * 49
        assert encoder.size == planes + 2 * n * k + 2 * k + 8 * n + 3 + 5 + 1 + 2 + 1 + 4
    assert Field("x", 3, (2, 5)).size == 10
    assert ENCODER.high.shape == (ENCODER.size,)


def test_field_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="no observation field 'x'"):
        ENCODER.slice("x")
    with pytest.raises(InvalidArgumentError, match="expected an observation of shape"):
        ENCODER.unpack(np.zeros(3, dtype=np.float32))
    with pytest.raises(InvalidArgumentError, match="players must be an integer"):
        ObservationEncoder(players=4.0)  # type: ignore[arg-type]


def test_a_scenario_field_by_field() -> None:
    game = build_game(
        4,
        hands={0: "SCI7 HOR7", 1: "MYT1", 2: "MAG13 FAN12", 3: ""},
        tables={
            0: {"kind-3": "MYS7"},
            2: {"straight-5": "MYT3 LOV4 SCI5 HOR6 MYS8"},
            3: {"pairs-3": "FAN9"},
        },
        discard="MYT2 LOV2 LOV3",
        face_down="LOV2",
        to_move=2,
    )
    parts = ENCODER.unpack(ENCODER.encode(game.view(2)))
    assert cards_of(parts["hand"]) == ["FAN12", "MAG13"]
    assert cards_of(parts["discard_top"]) == ["LOV3"]
    assert cards_of(parts["discard_face_up"]) == ["MYT2", "LOV3"]
    assert parts["piles"].tolist() == [game.deck_size, 3, 1]
    # Seats are relative to player 2: seat 0 is player 2, seat 1 player 3, seat 2 player 0.
    assert cards_of(parts["published"][0]) == ["MYT3", "LOV4", "SCI5", "HOR6", "MYS8"]
    assert cards_of(parts["masterpieces"][1]) == ["FAN9"]
    assert cards_of(parts["masterpieces"][2]) == ["MYS7"]
    novels = ENCODER.novels
    assert cards_of(parts["novel_cards"][novels.index("kind-3")]) == ["MYS7"]
    assert parts["held_masterpiece"][2][novels.index("kind-3")] == 1
    assert parts["held_published"][0][novels.index("straight-5")] == 1
    assert parts["held_published"].sum() == 1
    assert parts["held_masterpiece"].sum() == 2
    assert parts["supply"][novels.index("kind-3")] == 4
    assert parts["hand_sizes"].tolist() == [2, 0, 2, 1]
    assert parts["scores"].tolist() == [0, 2, 1, 0]
    assert parts["phase"].tolist() == [0, 1, 0, 0, 0]
    assert parts["to_move"].tolist() == [1, 0, 0, 0]
    assert parts["seat"].tolist() == [0, 0, 1, 0]
    assert parts["stage"].tolist() == [1, 0, 0, 0]
    assert parts["drawn"].sum() == parts["flag_card"].sum() == parts["countdown"].sum() == 0
    text = ENCODER.text(game.view(2))
    assert "hand: FAN12 MAG13" in text
    assert "top LOV3, 1 face down" in text


def test_drawn_cards_flag_and_countdown() -> None:
    game = build_game(
        3,
        hands={0: "SCI7", 1: "MYT1 MYT2"},
        tables={1: {"kind-5": "MYS7", "pairs-4": "HOR7", "straight-9": "FAN7"}},
        phase=Phase.CHOOSE,
        pending="MAG13 FAN12",
        flag=(1, "LOV2"),
        trigger=1,
        turns_left=3,
    )
    encoder = ObservationEncoder(3)
    mine = encoder.unpack(encoder.encode(game.view(0)))
    theirs = encoder.unpack(encoder.encode(game.view(1)))
    assert cards_of(mine["drawn"]) == ["FAN12", "MAG13"]
    assert theirs["drawn"].sum() == 0  # only the chooser sees the drawn cards (R11)
    assert cards_of(mine["flag_card"]) == ["LOV2"]
    assert mine["flag_owner"].tolist() == [0, 1, 0]
    assert theirs["flag_owner"].tolist() == [1, 0, 0]
    assert mine["countdown"].tolist() == [1, 3]
    assert mine["trigger"].tolist() == [0, 1, 0]
    assert mine["scores"].tolist() == [0, 17, 0]
    assert mine["flag_lost"].tolist() == [0]


def test_the_decision_in_progress_is_the_movers_alone() -> None:
    game = build_game(3, hands={0: "SCI7 HOR7 MYS9"}, tables={1: {"kind-3": "MYS7"}})
    space = ActionSpace()
    encoder = ObservationEncoder(3)
    builder = MoveBuilder(space, game.view(0))
    for text in ["novel kind-3", "play SCI7", "play HOR7", "cite MYS7", "confirm"]:
        builder.push(space.parse(text))
    parts = encoder.unpack(encoder.encode(builder.view, builder))
    assert cards_of(parts["building_played"]) == ["SCI7", "HOR7"]
    assert cards_of(parts["building_cited"]) == ["MYS7"]
    assert parts["building_novel"][encoder.novels.index("kind-3")] == 1
    assert parts["stage"].tolist() == [0, 0, 0, 1]
    assert parts["gifts_owed"].tolist() == [0, 1, 0]
    assert "building: publish kind-3 play SCI7 HOR7 cite MYS7 (gifts owed: 1 to player 1)" in (
        encoder.text(builder.view, builder)
    )
    # Another player's observation ignores the builder, and so does a plain encode.
    other = encoder.encode(game.view(1), builder)
    assert np.array_equal(other, encoder.encode(game.view(1)))
    assert encoder.unpack(other)["stage"].tolist() == [1, 0, 0, 0]
    plain = encoder.unpack(encoder.encode(game.view(0)))
    assert plain["building_played"].sum() == 0
    # The vector without the decision is reused: the builder's bits are added to a copy.
    again = encoder.encode(builder.view, builder)
    assert np.array_equal(again, encoder.encode(builder.view, builder))
    out = np.full(encoder.size, 7.0, dtype=np.float32)
    assert encoder.encode(builder.view, builder, out=out) is out
    assert np.array_equal(out, again)


def test_discarding_at_setup_shows() -> None:
    game = Game(5, seed=4)
    game.apply(game.legal_moves[0])
    game.apply(game.legal_moves[0])
    space, encoder = ActionSpace(), ObservationEncoder(5)
    builder = MoveBuilder(space, game.view(4))
    first = builder.legal_actions()[0]
    builder.push(first)
    parts = encoder.unpack(encoder.encode(builder.view, builder))
    assert cards_of(parts["building_discards"]) == [space.describe(first).split()[1]]
    assert parts["stage"].tolist() == [0, 1, 0, 0]
    assert "keep, discarding" in encoder.text(builder.view, builder)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_values_stay_in_bounds(players: int) -> None:
    encoder = ObservationEncoder(players)
    positions = list(random_positions(players, 40 + players, every=3))
    positions += list(itertools.islice(atomic_positions(players, players), 0, None, 3))
    for game in positions:
        for player in range(players):
            vector = encoder.encode(game.view(player))
            assert vector.dtype == np.float32
            assert (vector >= 0).all()
            assert (vector <= encoder.high).all()
            parts = encoder.unpack(vector)
            assert parts["hand"].sum() == len(game.hand(player))
            assert parts["phase"].sum() == 1
            assert parts["seat"][player] == 1


@settings(max_examples=examples(20))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]), data=st.data())
def test_observations_and_masks_ignore_hidden_cards(
    seed: int, players: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    encoder = ObservationEncoder(players)
    space = ActionSpace()
    compared = 0
    for game in itertools.islice(atomic_positions(players, seed), 0, None, 4):
        player = data.draw(st.integers(0, players - 1))
        pair = swap_hidden(game, player, rng)
        if pair is None:
            continue
        same, twin = pair
        assert same != twin
        view, other = same.view(player), twin.view(player)
        assert np.array_equal(encoder.encode(view), encoder.encode(other))
        assert encoder.text(view) == encoder.text(other)
        if player == same.to_move and not same.is_over:
            mine, theirs = MoveBuilder(space, view), MoveBuilder(space, other)
            for _ in range(30):
                actions = mine.legal_actions()
                assert actions == theirs.legal_actions()
                assert np.array_equal(encoder.encode(view, mine), encoder.encode(other, theirs))
                action = rng.choice(actions)
                done, done_too = mine.push(action), theirs.push(action)
                assert done == done_too
                if done is not None:
                    break
        compared += 1
    assert compared >= 3


def test_encoder_rejects_a_view_of_another_size() -> None:
    with pytest.raises(InvalidArgumentError, match="this encoder is for 4 players"):
        ENCODER.encode(Game(3).view(0))
    assert repr(ENCODER) == f"<ObservationEncoder 4 players, {ENCODER.size} values>"


def test_own_face_down_discards_have_their_plane() -> None:
    game = Game(5, seed=3)
    for _ in range(3):
        game.apply(game.legal_moves[0])
    encoder = ObservationEncoder(5)
    discarders = setup_discarders(5)
    for player in range(5):
        parts = encoder.unpack(encoder.encode(game.view(player)))
        mine = [str(c) for i, c in enumerate(game.discard) if discarders[i] == player]
        assert sorted(cards_of(parts["discard_own"])) == sorted(mine)
        assert parts["discard_face_up"].sum() == parts["discard_top"].sum() == 0
        assert parts["piles"].tolist()[1:] == [4, 4]
    text = encoder.text(game.view(4))
    own = " ".join(str(c) for c in game.discard[2:])
    assert f"(top face down, 4 face down), own face down (bottom first): {own}" in text


def test_known_hands_come_from_the_knowledge() -> None:
    game = build_game(
        3,
        hands={0: "SCI7 HOR7", 1: "MYT1", 2: "MAG13 FAN12"},
        tables={2: {"straight-5": "MYT3 LOV4 SCI5 HOR6 MYS7"}},
        discard="MYT2 LOV3",
    )
    knowledge = Knowledge.of(game, 2)
    game.apply("take")  # player 0 takes LOV3
    knowledge.update(game)
    game.apply("read 2:straight-5 MYS7")  # player 1 reads MYS7
    knowledge.update(game)
    encoder = ObservationEncoder(3)
    view = game.view(2)
    parts = encoder.unpack(encoder.encode(view, knowledge=knowledge))
    # Seats relative to player 2: player 0 is seat 1, player 1 seat 2.
    assert [cards_of(row) for row in parts["known_hands"]] == [[], ["LOV3"], ["MYS7"]]
    assert encoder.unpack(encoder.encode(view))["known_hands"].sum() == 0
    assert "known in hands: P0 LOV3, P1 MYS7" in encoder.text(view, knowledge=knowledge)
    with pytest.raises(InvalidArgumentError, match="the knowledge is player 0's"):
        encoder.encode(view, knowledge=Knowledge.of(game, 0))


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]), data=st.data())
def test_observations_with_knowledge_ignore_unseen_cards(
    seed: int, players: int, data: st.DataObject
) -> None:
    """Renaming the cards a player never saw (a new deal of them) changes nothing they observe."""
    rng = random.Random(seed)
    encoder = ObservationEncoder(players)
    compared = 0
    for game in itertools.islice(atomic_positions(players, seed), 0, None, 6):
        player = data.draw(st.integers(0, players - 1))
        knowledge = Knowledge.of(game, player)
        unseen = [card for card in DECK if card.index not in knowledge.seen]
        dealt = unseen.copy()
        rng.shuffle(dealt)
        twin = renamed(game, dict(zip(unseen, dealt, strict=True)))
        other = Knowledge.of(twin, player)
        view, twin_view = game.view(player), twin.view(player)
        assert view == twin_view
        assert np.array_equal(
            encoder.encode(view, knowledge=knowledge), encoder.encode(twin_view, knowledge=other)
        )
        assert encoder.text(view, knowledge=knowledge) == encoder.text(twin_view, knowledge=other)
        compared += unseen != dealt
    assert compared
