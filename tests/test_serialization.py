"""JSON for game states and player views: round trips, hidden information, and every check."""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from builders import MINI, QUICK_MOVE_CAP, random_game
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import Card, Catalogue, Game, InvalidStateError, Keep, Phase, PlayerView
from pastiche_core.io import (
    STATE_FORMAT,
    STATE_VERSION,
    VIEW_FORMAT,
    VIEW_VERSION,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
    view_from_dict,
    view_to_dict,
)

PLAYERS = st.sampled_from([3, 4, 5])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
STEPS = st.integers(min_value=0, max_value=150)


@functools.cache
def full_game(players: int, seed: int, catalogue: Catalogue | None = None) -> tuple[Game, ...]:
    """Every position of a random game played to its end."""
    rng = random.Random(seed)
    game = Game(players, seed, catalogue)
    positions = [game.copy()]
    while not game.is_over and len(positions) < 600:
        game.apply(rng.choice(list(itertools.islice(game.legal_moves, QUICK_MOVE_CAP))))
        positions.append(game.copy())
    return tuple(positions)


FULL_GAMES: list[tuple[int, int, Catalogue | None]] = [
    (3, 32, None),
    (3, 35, None),
    (4, 41, None),
    (4, 42, None),
    (5, 53, None),
]
FULL_GAMES += [(3, 1, MINI), (5, 2, MINI)]


def card_tokens(text: str) -> set[str]:
    """Every JSON string in ``text`` that is a card in notation."""
    return set(re.findall(r'"([A-Z]{3}[0-9]{1,2})"', text))


def assert_round_trips(game: Game) -> None:
    """State dict and JSON round trips give an equal game with the same history."""
    data = state_to_dict(game)
    loaded = state_from_dict(data)
    assert loaded == game
    assert loaded.history == game.history
    assert state_to_dict(loaded) == data
    text = state_to_json(game)
    assert json.loads(text) == data
    assert state_from_json(text) == game


def assert_views_round_trip_and_hide_secrets(game: Game) -> None:
    """Every player's view round trips, and its JSON names no card hidden from that player."""
    for player in range(game.players):
        view = game.view(player)
        data = view_to_dict(view)
        assert view_from_dict(data) == view
        text = json.dumps(data)
        assert view_from_dict(json.loads(text)) == view
        secret = {str(c) for p in range(game.players) if p != player for c in game.hand(p)}
        secret |= {str(c) for c in game.discard if game.is_face_down(c)}
        if game.pending is not None and game.to_move != player:
            secret |= {str(c) for c in game.pending}
        tokens = card_tokens(text)
        assert {str(c) for c in view.hand} <= tokens
        assert not tokens & secret


# ----------------------------------------------------------------------
# State round trips
# ----------------------------------------------------------------------
@given(players=PLAYERS, seed=SEEDS, steps=STEPS)
def test_state_and_views_round_trip_after_random_moves(players: int, seed: int, steps: int) -> None:
    game = random_game(players, seed, steps)
    assert_round_trips(game)
    assert_views_round_trip_and_hide_secrets(game)


def test_every_position_of_full_games_round_trips() -> None:
    phases: set[Phase] = set()
    for players, seed, catalogue in FULL_GAMES:
        for game in full_game(players, seed, catalogue):
            assert_round_trips(game)
            phases.add(game.phase)
    assert phases == set(Phase)


def test_loaded_game_plays_on_identically_through_reshuffles() -> None:
    # Write ① again and again empties the deck; each position goes through JSON
    # and play continues from the loaded game, so the generator state must survive (R14).
    straight = Game(players=3, seed=5)
    via_json = Game(players=3, seed=5)
    reshuffles = 0
    while straight.phase is not Phase.ACTION or straight.can_write():
        if straight.phase is Phase.KEEP:
            move: str = str(Keep(straight.hand(straight.to_move)[:3]))
        elif straight.phase is Phase.CHOOSE:
            assert straight.pending is not None
            move = f"choose {straight.pending[0]}"
        elif straight.phase is Phase.FLAG:
            move = f"flag {straight.hand(straight.to_move)[0]}"
        else:
            move = "draw"
        before = straight.deck_size
        straight.apply(move)
        via_json = state_from_json(state_to_json(via_json))
        via_json.apply(move)
        reshuffles += straight.deck_size > before
        assert via_json == straight
    assert via_json.history == straight.history
    assert reshuffles >= 2


def test_loaded_game_sets_every_slot_and_copies() -> None:
    game = random_game(4, 11, 40)
    loaded = state_from_dict(state_to_dict(game))
    assert all(hasattr(loaded, name) for name in Game.__slots__)
    assert loaded.copy() == game
    assert list(loaded.legal_moves) == list(game.legal_moves)


def test_default_catalogue_is_written_by_name() -> None:
    assert state_to_dict(Game(players=3, seed=1))["catalogue"] == "default"


def test_custom_catalogue_is_embedded_and_round_trips() -> None:
    game = random_game(4, 3, 60, MINI)
    data = state_to_dict(game)
    assert data["catalogue"] == MINI.to_dict()
    loaded = state_from_dict(data)
    assert loaded == game
    assert loaded.catalogue == MINI


def test_catalogue_argument_overrides_the_stored_one() -> None:
    game = random_game(3, 8, 30, MINI)
    data = state_to_dict(game)
    del data["catalogue"]
    assert state_from_dict(data, catalogue=MINI) == game
    data["catalogue"] = "default"
    assert state_from_json(json.dumps(data), catalogue=MINI) == game


def test_history_is_optional() -> None:
    game = random_game(3, 4, 20)
    data = state_to_dict(game)
    del data["history"]
    loaded = state_from_dict(data)
    assert loaded == game
    assert loaded.history == []


def test_generator_state_may_be_an_integer() -> None:
    game = random_game(5, 9, 25)
    data = state_to_dict(game)
    assert isinstance(data["rng"], str)
    data["rng"] = int(data["rng"])
    assert state_from_dict(data) == game


def test_json_layout() -> None:
    game = random_game(3, 2, 30)
    text = state_to_json(game, indent=2)
    assert "\n  " in text
    data = json.loads(text)
    assert (data["format"], data["version"]) == (STATE_FORMAT, STATE_VERSION)
    assert data["deck"] == [str(card) for card in game.deck]
    assert [entry["card"] for entry in data["discard"]] == [str(c) for c in game.discard]
    assert data["hands"] == [sorted(hand, key=Card.parse) for hand in data["hands"]]
    assert data["history"] == [str(move) for move in game.history]


# ----------------------------------------------------------------------
# Invalid states: each check names the JSON path
# ----------------------------------------------------------------------
Data = dict[str, Any]
Mutation = Callable[[Data], object]


def base_state() -> Data:
    """A valid state after setup: a face-down discard, a Masterpiece and a Published novel."""
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    data = state_to_dict(game)
    deck = data["deck"]
    data["tables"][0].append({"novel": "kind-3", "status": "masterpiece", "cards": [deck.pop()]})
    data["tables"][1].append(
        {"novel": "straight-5", "status": "published", "cards": [deck.pop(), deck.pop()]}
    )
    data["supply"]["kind-3"] -= 1
    data["supply"]["straight-5"] -= 1
    return data


def with_pending(data: Data) -> Data:
    """The base state in the choose phase, two drawn cards pending."""
    data["phase"] = "choose"
    data["pending"] = [data["deck"].pop(), data["deck"].pop()]
    return data


def with_flag(data: Data) -> Data:
    """The base state after player 1 triggered the end and took the End Flag."""
    data["trigger"], data["turns_left"] = 1, 4
    data["flag"] = {"player": 1, "card": data["deck"].pop()}
    data["supply"]["end-flag"] = 0
    return data


def in_flag_phase(data: Data) -> Data:
    """The base state with player 1 about to put a card under the End Flag."""
    data["trigger"], data["turns_left"] = 1, 5
    data["phase"], data["to_move"] = "flag", 1
    return data


def test_base_states_are_valid() -> None:
    for data in (
        base_state(),
        with_pending(base_state()),
        with_flag(base_state()),
        in_flag_phase(base_state()),
    ):
        assert state_to_dict(state_from_dict(data)) == data


INVALID: list[Any] = []


def invalid(path: str, fragment: str) -> Callable[[Mutation], Mutation]:
    """Register a mutation of the base state that must fail at ``path`` saying ``fragment``."""

    def register(mutate: Mutation) -> Mutation:
        INVALID.append(pytest.param(mutate, path, fragment, id=mutate.__name__))
        return mutate

    return register


# --- format and fields
@invalid("$", "expected a JSON object, got an array")
def not_an_object(d: Data) -> object:
    return [d]


@invalid("$.format", "expected 'pastiche-state', got 'pastiche-view'")
def wrong_format(d: Data) -> None:
    d["format"] = "pastiche-view"


@invalid("$.version", "unsupported version 2")
def wrong_version(d: Data) -> None:
    d["version"] = 2


@invalid("$.version", "expected an integer, got the string '1'")
def version_not_an_integer(d: Data) -> None:
    d["version"] = "1"


@invalid("$.deck", "missing required field")
def missing_field(d: Data) -> None:
    del d["deck"]


@invalid("$.colour", "unknown field")
def unknown_field(d: Data) -> None:
    d["colour"] = "red"


@invalid("$.catalogue", "expected 'default' or a catalogue object")
def unknown_catalogue_name(d: Data) -> None:
    d["catalogue"] = "deluxe"


@invalid("$.catalogue", "novels: expected a non-empty list")
def invalid_embedded_catalogue(d: Data) -> None:
    d["catalogue"] = {"name": "empty", "novels": []}


# --- players and player indices
@invalid("$.players", "a game has 3 to 5 players (R10), got 2")
def too_few_players(d: Data) -> None:
    d["players"] = 2


@invalid("$.players", "a game has 3 to 5 players (R10), got 6")
def too_many_players(d: Data) -> None:
    d["players"] = 6


@invalid("$.players", "expected an integer, got a boolean")
def players_not_an_integer(d: Data) -> None:
    d["players"] = True


@invalid("$.hands", "expected 4 hands (one per player), got 3")
def hands_do_not_match_players(d: Data) -> None:
    d["players"] = 4


@invalid("$.tables", "expected 3 tables (one per player), got 4")
def tables_do_not_match_players(d: Data) -> None:
    d["tables"].append([])


@invalid("$.to_move", "expected a player index from 0 to 2, got 3")
def to_move_out_of_range(d: Data) -> None:
    d["to_move"] = 3


@invalid("$.current", "expected a player index from 0 to 2, got -1")
def current_out_of_range(d: Data) -> None:
    d["current"] = -1


@invalid("$.trigger", "expected a player index from 0 to 2, got 5")
def trigger_out_of_range(d: Data) -> None:
    d["trigger"], d["turns_left"] = 5, 3


@invalid("$.flag.player", "expected a player index from 0 to 2, got 3")
def flag_holder_out_of_range(d: Data) -> None:
    with_flag(d)["flag"]["player"] = 3


# --- scalars
@invalid("$.seed", "expected an integer, got the string '7'")
def seed_not_an_integer(d: Data) -> None:
    d["seed"] = "7"


@invalid("$.rng", "expected a decimal string or an integer, got '0x1f'")
def rng_not_decimal(d: Data) -> None:
    d["rng"] = "0x1f"


@invalid("$.rng", "the generator state is a 64-bit integer (R14)")
def rng_too_large(d: Data) -> None:
    d["rng"] = str(2**64)


@invalid("$.phase", "expected one of 'keep', 'action', 'choose', 'flag', 'over', got 'lunch'")
def unknown_phase(d: Data) -> None:
    d["phase"] = "lunch"


@invalid("$.turn", "expected an integer >= 0, got -1")
def negative_turn(d: Data) -> None:
    d["turn"] = -1


@invalid("$.passes", "expected an integer from 0 to 3, got 4")
def too_many_passes(d: Data) -> None:
    d["passes"] = 4


@invalid("$.turns_left", "expected an integer from 0 to 5, got 9")
def countdown_too_long(d: Data) -> None:
    d["trigger"], d["turns_left"] = 1, 9


@invalid("$.end_reason", "expected null, 'countdown' or 'all-pass', got 'boredom'")
def unknown_end_reason(d: Data) -> None:
    d["phase"], d["end_reason"] = "over", "boredom"


# --- cards
@invalid("$.deck[0]", "invalid card 'XYZ1'")
def malformed_card(d: Data) -> None:
    d["deck"][0] = "XYZ1"


@invalid("$.deck[3]", "invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)")
def card_outside_its_genre(d: Data) -> None:
    d["deck"][3] = "LOV1"


@invalid("$.hands[0][0]", "expected a card such as 'SCI9', got an integer")
def card_not_a_string(d: Data) -> None:
    d["hands"][0][0] = 7


@invalid("$.hands[2][1]", "appears twice (also at $.deck[4])")
def card_in_deck_and_hand(d: Data) -> None:
    d["hands"][2][1] = d["deck"][4]


@invalid("$.tables[0][0].cards[0]", "appears twice (also at $.hands[1][0])")
def card_in_hand_and_on_table(d: Data) -> None:
    d["tables"][0][0]["cards"][0] = d["hands"][1][0]


@invalid("$.discard[0].card", "appears twice (also at $.deck[0])")
def card_in_deck_and_discard(d: Data) -> None:
    d["discard"][0]["card"] = d["deck"][0]


@invalid("$.discard[0].face_up", "expected true or false, got the string 'no'")
def face_up_not_a_boolean(d: Data) -> None:
    d["discard"][0]["face_up"] = "no"


@invalid("$.discard[0].card", "missing required field")
def discard_entry_without_card(d: Data) -> None:
    del d["discard"][0]["card"]


@invalid("$", "card SCI7 is missing: each of the 49 Story cards is in exactly one place (R1)")
def card_missing(d: Data) -> None:
    d["deck"].remove("SCI7")


@invalid("$", "cards MYT2 MAG13 are missing")
def cards_missing(d: Data) -> None:
    for card in ("MAG13", "MYT2"):
        for place in [d["deck"], *d["hands"]]:
            if card in place:
                place.remove(card)


# --- novels on the table
@invalid("$.tables[0][0].novel", "unknown novel id 'kind-4' in catalogue 'default' (R2)")
def unknown_novel(d: Data) -> None:
    d["tables"][0][0]["novel"] = "kind-4"


@invalid("$.tables[0][1].novel", "the End Flag cannot be published (R12)")
def end_flag_on_the_table(d: Data) -> None:
    d["tables"][0].append({"novel": "end-flag", "cards": [d["deck"].pop()]})


@invalid("$.tables[1][1].novel", "the player already holds straight-5 (at $.tables[1][0])")
def novel_held_twice(d: Data) -> None:
    d["tables"][1].append({"novel": "straight-5", "cards": [d["deck"].pop()]})


@invalid("$.tables[0][0].cards", "a novel on the table keeps at least one card")
def novel_without_cards(d: Data) -> None:
    d["deck"].extend(d["tables"][0][0]["cards"])
    d["tables"][0][0]["cards"] = []


@invalid("$.tables[0][0].cards", "kind-3 takes 3 cards, this novel has 4 (R4)")
def novel_with_too_many_cards(d: Data) -> None:
    novel = d["tables"][0][0]
    novel["cards"] += [d["deck"].pop() for _ in range(3)]
    novel["status"] = "published"


@invalid("$.tables[1][0].status", "a Masterpiece has exactly one card (R7, R11), this novel has 2")
def masterpiece_with_two_cards(d: Data) -> None:
    d["tables"][1][0]["status"] = "masterpiece"


@invalid("$.tables[0][0].status", "a Published novel has two or more cards (R11), this novel has 1")
def published_with_one_card(d: Data) -> None:
    d["tables"][0][0]["status"] = "published"


@invalid("$.tables[0][0].status", "expected 'published' or 'masterpiece', got 'draft'")
def unknown_status(d: Data) -> None:
    d["tables"][0][0]["status"] = "draft"


@invalid("$.tables[0][0].colour", "unknown field")
def unknown_novel_field(d: Data) -> None:
    d["tables"][0][0]["colour"] = "red"


# --- supply
@invalid("$.supply.kind-3", "expected an integer from 0 to 5, got -1")
def negative_supply(d: Data) -> None:
    d["supply"]["kind-3"] = -1


@invalid("$.supply.straight-5", "expected an integer from 0 to 4, got 5")
def supply_above_copies(d: Data) -> None:
    d["supply"]["straight-5"] = 5


@invalid(
    "$.supply.kind-3",
    "5 copies of kind-3 in the supply and 1 on the table exceed the 5 in the catalogue (R6)",
)
def more_copies_than_the_catalogue(d: Data) -> None:
    d["supply"]["kind-3"] = 5


@invalid("$.supply.kind-9", "unknown novel id 'kind-9'")
def supply_of_unknown_novel(d: Data) -> None:
    d["supply"]["kind-9"] = 1


@invalid("$.supply.pairs-4", "missing")
def supply_without_a_novel(d: Data) -> None:
    del d["supply"]["pairs-4"]


@invalid("$.supply.end-flag", "the End Flag is still in the supply at this point (R12)")
def end_flag_gone_without_trigger(d: Data) -> None:
    d["supply"]["end-flag"] = 0


@invalid("$.supply.end-flag", "the End Flag has left the supply at this point (R12)")
def end_flag_taken_but_in_supply(d: Data) -> None:
    with_flag(d)["supply"]["end-flag"] = 1


# --- phase, drawn cards and countdown
@invalid("$.pending", "drawn cards wait only in the choose phase (R11), the phase is 'action'")
def pending_outside_choose_phase(d: Data) -> None:
    with_pending(d)["phase"] = "action"


@invalid("$.pending", "the choose phase needs the two drawn cards (R11), got null")
def choose_phase_without_pending(d: Data) -> None:
    with_pending(d)
    d["deck"].extend(d["pending"])
    d["pending"] = None


@invalid("$.pending[1]", "appears twice (also at $.hands[0][0])")
def pending_card_also_in_hand(d: Data) -> None:
    with_pending(d)["pending"][1] = d["hands"][0][0]


@invalid("$.pending", "expected the two drawn cards or null, got 3 cards (R11)")
def three_pending_cards(d: Data) -> None:
    with_pending(d)["pending"].append(d["deck"].pop())


@invalid("$.end_reason", "an end reason is given exactly when the game is over (R12)")
def end_reason_before_the_end(d: Data) -> None:
    d["end_reason"] = "countdown"


@invalid("$.end_reason", "an end reason is given exactly when the game is over (R12)")
def over_without_end_reason(d: Data) -> None:
    d["phase"] = "over"


@invalid("$.turns_left", "the countdown runs exactly when a trigger player exists (R12)")
def countdown_without_trigger(d: Data) -> None:
    d["turns_left"] = 3


@invalid("$.to_move", "in the action phase the current player (0) is to move, got 1")
def wrong_player_to_move(d: Data) -> None:
    d["to_move"] = 1


@invalid("$.to_move", "setup keeps are made from seat 2 on (R10), got 1")
def keep_by_an_early_seat(d: Data) -> None:
    d["phase"], d["to_move"] = "keep", 1


@invalid("$.to_move", "in the flag phase the trigger player (1) is to move (R12), got 2")
def flag_phase_for_another_player(d: Data) -> None:
    in_flag_phase(d)["to_move"] = 2


@invalid("$.hands[1]", "the trigger player needs a card to put under the End Flag (R12)")
def flag_phase_with_empty_hand(d: Data) -> None:
    in_flag_phase(d)
    d["deck"].extend(d["hands"][1])
    d["hands"][1] = []


# --- the End Flag
@invalid("$.flag.card", "appears twice (also at $.hands[0][0])")
def flag_card_also_in_hand(d: Data) -> None:
    with_flag(d)["flag"]["card"] = d["hands"][0][0]


@invalid("$.flag.player", "only the trigger player takes the End Flag (R12): holder 0, trigger 1")
def flag_held_by_another_player(d: Data) -> None:
    with_flag(d)["flag"]["player"] = 0


@invalid(
    "$.flag.player", "only the trigger player takes the End Flag (R12): holder 1, trigger None"
)
def flag_without_trigger(d: Data) -> None:
    with_flag(d)
    d["trigger"] = d["turns_left"] = None


@invalid("$.flag", "the End Flag is not held while the trigger player takes it (R12)")
def flag_held_in_flag_phase(d: Data) -> None:
    in_flag_phase(d)["flag"] = {"player": 1, "card": d["deck"].pop()}


@invalid("$.flag.card", "missing required field")
def flag_without_card(d: Data) -> None:
    with_flag(d)
    d["deck"].append(d["flag"].pop("card"))


# --- history
@invalid("$.history[1]", "invalid move 'jump'")
def history_with_bad_notation(d: Data) -> None:
    d["history"].append("jump")


@invalid("$.history", "expected an array, got the string 'draw'")
def history_not_an_array(d: Data) -> None:
    d["history"] = "draw"


@pytest.mark.parametrize(("mutate", "path", "fragment"), INVALID)
def test_invalid_state_is_rejected(mutate: Mutation, path: str, fragment: str) -> None:
    data = base_state()
    replaced = mutate(data)
    with pytest.raises(InvalidStateError) as info:
        state_from_dict(data if replaced is None else replaced)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert fragment in message, message


def test_invalid_json_text_is_rejected() -> None:
    with pytest.raises(InvalidStateError, match=r"^\$: not valid JSON: .*line 1, column 2"):
        state_from_json("{")
    with pytest.raises(InvalidStateError, match=r"^\$: expected a JSON object, got an array"):
        state_from_json("[]")


def test_invalid_state_errors_are_value_errors() -> None:
    data = base_state()
    data["deck"][0] = "SCI10"
    with pytest.raises(ValueError, match=r"^\$\.deck\[0\]: invalid card 'SCI10'"):
        state_from_dict(data)


# ----------------------------------------------------------------------
# Player views
# ----------------------------------------------------------------------
def test_views_of_every_position_of_full_games() -> None:
    for players, seed, catalogue in FULL_GAMES[:3]:
        for game in full_game(players, seed, catalogue):
            assert_views_round_trip_and_hide_secrets(game)


def test_view_json_layout() -> None:
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    game.apply("draw")
    data = view_to_dict(game.view(0))
    assert (data["format"], data["version"]) == (VIEW_FORMAT, VIEW_VERSION)
    assert data["discard"] == [None]
    assert data["pending"] == [str(card) for card in game.pending or ()]
    assert view_to_dict(game.view(1))["pending"] is None
    assert data["hand"] == [str(card) for card in game.hand(0)]
    assert data["hand_sizes"] == [3, 3, 3]


def base_view() -> Data:
    """Player 0's view of :func:`base_state` in the choose phase."""
    game = state_from_dict(with_pending(base_state()))
    return view_to_dict(game.view(0))


INVALID_VIEWS: list[Any] = []


def invalid_view(path: str, fragment: str) -> Callable[[Mutation], Mutation]:
    """Register a mutation of the base view that must fail at ``path`` saying ``fragment``."""

    def register(mutate: Mutation) -> Mutation:
        INVALID_VIEWS.append(pytest.param(mutate, path, fragment, id=mutate.__name__))
        return mutate

    return register


@invalid_view("$.format", "expected 'pastiche-view', got 'pastiche-state'")
def view_wrong_format(d: Data) -> None:
    d["format"] = "pastiche-state"


@invalid_view("$.version", "unsupported version 0")
def view_wrong_version(d: Data) -> None:
    d["version"] = 0


@invalid_view("$.scores", "missing required field")
def view_missing_field(d: Data) -> None:
    del d["scores"]


@invalid_view("$.player", "expected a player index from 0 to 2, got 3")
def view_player_out_of_range(d: Data) -> None:
    d["player"] = 3


@invalid_view("$.players", "a game has 3 to 5 players (R10), got 7")
def view_too_many_players(d: Data) -> None:
    d["players"] = 7


@invalid_view("$.hand_sizes[0]", "the player's hand has 3 cards, not 4")
def view_hand_size_mismatch(d: Data) -> None:
    d["hand_sizes"][0] = 4


@invalid_view("$.scores", "expected 3 scores (one per player), got 2")
def view_scores_per_player(d: Data) -> None:
    d["scores"].pop()


@invalid_view("$.discard[0]", "appears twice (also at $.hand[0])")
def view_card_in_hand_and_discard(d: Data) -> None:
    d["discard"][0] = d["hand"][0]


@invalid_view("$.hand[1]", "invalid card 'MAG6'")
def view_bad_card(d: Data) -> None:
    d["hand"][1] = "MAG6"


@invalid_view("$.tables[1][0].status", "a Masterpiece has exactly one card (R7, R11)")
def view_masterpiece_with_two_cards(d: Data) -> None:
    d["tables"][1][0]["status"] = "masterpiece"


@invalid_view("$.tables[0][1].novel", "the End Flag cannot be published (R12)")
def view_end_flag_on_table(d: Data) -> None:
    d["tables"][0].append({"novel": "end-flag", "cards": ["MAG13"]})
    d["deck_size"] -= 1


@invalid_view("$.pending", "the drawn cards are shown only to the player choosing (R11)")
def view_pending_of_another_player(d: Data) -> None:
    d["player"], d["hand"] = 1, []
    d["hand_sizes"][1] = 0


@invalid_view("$.pending", "the player choosing sees the two drawn cards (R11), got null")
def view_pending_hidden_from_chooser(d: Data) -> None:
    d["pending"] = None


@invalid_view("$", "the view accounts for 50 cards, the game has 49 (R1)")
def view_card_count(d: Data) -> None:
    d["deck_size"] += 1


@invalid_view("$.supply.kind-3", "expected an integer >= 0, got -2")
def view_negative_supply(d: Data) -> None:
    d["supply"]["kind-3"] = -2


@pytest.mark.parametrize(("mutate", "path", "fragment"), INVALID_VIEWS)
def test_invalid_view_is_rejected(mutate: Mutation, path: str, fragment: str) -> None:
    data = base_view()
    assert isinstance(view_from_dict(data), PlayerView)
    mutate(data)
    with pytest.raises(InvalidStateError) as info:
        view_from_dict(data)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert fragment in message, message
