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
from custom_patterns import AllOdd, SumOfAnySize
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import (
    DEAL_SIZES,
    END_FLAG_ID,
    Card,
    Catalogue,
    Choose,
    Game,
    InvalidStateError,
    Keep,
    NovelSpec,
    Phase,
    PlayerView,
    check_invariants,
)
from pastiche_core.engine.game_internals import history_seats, insides
from pastiche_core.engine.game_state import GameState
from pastiche_core.engine.moves import Publish, Read, TakeFlag
from pastiche_core.engine.view import setup_discarders
from pastiche_core.io import (
    MAX_HISTORY,
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


def assert_round_trips(game: Game, *, replay: bool = True) -> None:
    """The game passes the invariants; state dict and JSON round trips give an equal game
    without the history (the invariants alone) and, if ``replay``, with the history (replayed
    from the deal, R14)."""
    check_invariants(game)
    data = state_to_dict(game)
    composed = state_from_dict({**data, "history": []})
    assert composed == game
    assert composed.history == ()
    if not replay:
        return
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
        discarders = setup_discarders(game.players)
        secret |= {
            str(c)
            for i, c in enumerate(game.discard)
            if insides(game).is_face_down(c) and discarders[i] != player
        }
        if game._pending is not None and game.to_move != player:
            secret |= {str(c) for c in game._pending}
        present = {key: value for key, value in data.items() if key != "history"}
        tokens = card_tokens(json.dumps(present))
        assert {str(c) for c in view.hand} <= tokens
        assert not tokens & secret
        # The history shows another seat's cards only where the move laid them face up (R16).
        assert [seat for seat, _ in view.history] == history_seats(game)
        for (seat, shown), move in zip(view.history, game.history, strict=True):
            if seat == player:
                assert shown == str(move)
                continue
            public = set()
            if isinstance(move, Publish):
                public |= {str(c) for c in move.played}
                public |= {str(g.card) for g in move.gifts if g.to == player}
            elif isinstance(move, Read | TakeFlag):
                public.add(str(move.card))
            assert card_tokens(shown) <= public, (shown, move)


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
    while straight.phase is not Phase.ACTION or insides(straight).can_write():
        if straight.phase is Phase.KEEP:
            move: str = str(Keep(straight.hand(straight.to_move)[:3]))
        elif straight.phase is Phase.CHOOSE:
            assert straight._pending is not None
            move = f"choose {straight._pending[0]}"
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
    assert all(hasattr(loaded, name) for name in GameState.__slots__)
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
    assert loaded.history == ()


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
    assert data["deck"] == [str(card) for card in insides(game).deck]
    assert [entry["card"] for entry in data["discard"]] == [str(c) for c in game.discard]
    assert data["hands"] == [sorted(hand, key=Card.parse) for hand in data["hands"]]
    assert data["history"] == [str(move) for move in game.history]


# ----------------------------------------------------------------------
# Invalid states: each check names the JSON path
# ----------------------------------------------------------------------
Data = dict[str, Any]
Mutation = Callable[[Data], object]


def take(data: Data, card: str) -> str:
    """Remove ``card`` from the deck and return it."""
    data["deck"].remove(card)
    return card


def base_state() -> Data:
    """A valid composed state (no history) at turn 6, seat 0 to move: a face-down discard,
    a Masterpiece and a Published novel."""
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    data = state_to_dict(game)
    data["history"] = []
    data["tables"][0].append(
        {"novel": "kind-3", "status": "masterpiece", "cards": [take(data, "FAN11")]}
    )
    data["tables"][1].append(
        {
            "novel": "straight-5",
            "status": "published",
            "cards": [take(data, c) for c in ("SCI5", "FAN9")],
        }
    )
    data["supply"]["kind-3"] -= 1
    data["supply"]["straight-5"] -= 1
    data["turn"] = 6  # at least the 3 Writes and 2 publishes the state shows, seat 0's turn
    return data


def with_pending(data: Data) -> Data:
    """The base state in the choose phase, two drawn cards pending."""
    data["phase"] = "choose"
    data["pending"] = [data["deck"].pop(), data["deck"].pop()]
    return data


def with_fifteen_points(data: Data, player: int) -> Data:
    """``player`` gets Masterpieces worth 15 points (9 + 6) and the turn moves on to match."""
    data["tables"][player] += [
        {"novel": "straight-11", "status": "masterpiece", "cards": [take(data, "LOV8")]},
        {"novel": "kind-5", "status": "masterpiece", "cards": [take(data, "MYS7")]},
    ]
    data["supply"]["straight-11"] -= 1
    data["supply"]["kind-5"] -= 1
    data["turn"] = 12
    return data


def with_flag(data: Data) -> Data:
    """The base state after player 1 triggered the end and took the End Flag."""
    with_fifteen_points(data, 1)
    data["trigger"], data["turns_left"] = 1, 4
    data["flag"] = {"player": 1, "card": data["deck"].pop()}
    data["supply"]["end-flag"] = 0
    return data


def in_flag_phase(data: Data) -> Data:
    """The base state with player 1 about to put a card under the End Flag."""
    with_fifteen_points(data, 1)
    data["trigger"], data["turns_left"] = 1, 5
    data["phase"], data["to_move"] = "flag", 1
    data["turn"], data["current"] = 11, 1  # player 1's turn, turn 10, just ended
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


@invalid(
    "$.rng", "expected a decimal string of at most 20 digits or an integer, got the string '0x1f'"
)
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
    "5 in the supply and 1 on the tables make 6 copies of kind-3, the catalogue has 5: "
    "every Novel card is in the supply or on a table (R6)",
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
    d["phase"], d["to_move"], d["turn"] = "keep", 1, 0


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
@invalid("$.history[0]", "invalid move 'jump'")
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
# Every reachable state passes the invariants and round trips
# ----------------------------------------------------------------------
@functools.cache
def played(players: int, seed: int, catalogue: Catalogue | None = None) -> tuple[Game, ...]:
    """Every position of a game played to its end by a uniform choice among all legal moves."""
    rng = random.Random(seed)
    game = Game(players, seed, catalogue)
    positions = [game.copy()]
    while not game.is_over:
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
        positions.append(game.copy())
    return tuple(positions)


REACHABLE: list[tuple[int, int, Catalogue | None]] = [
    *((players, seed, None) for players in (3, 4, 5) for seed in range(4)),
    (5, 45, None),  # ends by all-pass under the default catalogue
    *((players, seed, MINI) for players in (3, 4, 5) for seed in range(2)),
]


def reachable_positions() -> list[Game]:
    """Every position of the REACHABLE games."""
    return [position for game in REACHABLE for position in played(*game)]


def test_every_reachable_state_passes_the_invariants_and_round_trips() -> None:
    seen: set[str] = set()
    for index, game in enumerate(reachable_positions()):
        # Replaying costs a game's length: every fourth position and each game's end suffice.
        assert_round_trips(game, replay=index % 4 == 0 or game.is_over)
        assert len(game.history) <= MAX_HISTORY // 10
        seen.add(game.phase.value)
        if game._end_reason is not None:
            seen.add(game._end_reason)
        if insides(game).flag_lost:
            seen.add("flag lost")
        if insides(game).passes:
            seen.add("passes")
        if game.turn and game.discard and not any(map(insides(game).is_face_down, game.discard)):
            seen.add("no face-down card")
        if any(len(n.cards) >= 2 for p in range(game.players) for n in game.table(p)):
            seen.add("published")
    # The games reach every kind of state the invariants tell apart.
    assert seen >= {phase.value for phase in Phase} | {
        "countdown",
        "all-pass",
        "flag lost",
        "passes",
        "no face-down card",
        "published",
    }


# ----------------------------------------------------------------------
# Tampered states: each is rejected at the path of the tampered value
# ----------------------------------------------------------------------
def first_position(test: Callable[[Game], bool]) -> Game:
    """The first position of the REACHABLE games that passes ``test``."""
    for game in reachable_positions():
        if test(game):
            return game
    raise AssertionError("no position found")  # pragma: no cover


def midgame() -> Game:
    """A position in the middle of a game: the action phase at turn 20, 4 players."""
    return first_position(
        lambda g: (
            g.players == 4
            and g.turn == 20
            and g.phase is Phase.ACTION
            and insides(g).trigger is None
        )
    )


def triggered() -> Game:
    """A position in the action phase after the End Flag was taken."""
    return first_position(lambda g: g.phase is Phase.ACTION and insides(g).flag is not None)


def assert_rejected_state(data: Data, path: str, ruling: str, fragment: str = "") -> None:
    """``data`` is rejected at ``path`` naming ``ruling``, with its history and without."""
    for variant in ({**data}, {**data, "history": []}):
        with pytest.raises(InvalidStateError) as info:
            state_from_dict(variant)
        message = str(info.value)
        assert message.startswith(f"{path}: "), message
        assert re.search(rf"\({ruling}[,)]|\(R\d+, {ruling}\)", message), message
        assert fragment in message, message


def test_tampered_states_start_valid() -> None:
    for game in (midgame(), triggered(), Game(players=3, seed=7)):
        data = state_to_dict(game)
        assert state_from_dict(data) == game
        assert state_from_dict({**data, "history": []}) == game


def test_r10_current_and_to_move_advanced_together_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["current"] = data["to_move"] = (data["current"] + 1) % 4
    assert_rejected_state(data, "$.current", "R10", "turn 20 is seat 0's, got 1")


def test_r11_turn_reset_mid_game_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["turn"] = 0
    assert_rejected_state(data, "$.turn", "R11", "0 turns are too few")


def test_r10_keep_phase_mid_game_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["phase"] = "keep"
    assert_rejected_state(data, "$.phase", "R10", "setup (the keep phase) comes before")


def test_r11_all_pass_end_without_passes_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["phase"], data["end_reason"] = "over", "all-pass"
    assert_rejected_state(data, "$.passes", "R11", "all 4 players pass in succession")


def test_r12_countdown_end_without_trigger_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["phase"], data["end_reason"] = "over", "countdown"
    assert_rejected_state(data, "$.end_reason", "R12", "a countdown end needs a trigger player")


def test_r11_as_many_passes_as_players_while_not_over_is_rejected() -> None:
    data = state_to_dict(midgame())
    data["passes"] = 4
    assert_rejected_state(data, "$.passes", "R11", "4 passes in succession end the game")


def test_r12_fifteen_masterpiece_points_without_trigger_is_rejected() -> None:
    game = triggered()
    assert game._flag is not None
    holder, card = game._flag
    data = state_to_dict(game)
    data["trigger"] = data["turns_left"] = data["flag"] = None
    data["hands"][holder].append(str(card))
    data["supply"]["end-flag"] = 1
    points = insides(game).masterpiece_points(holder)
    assert points >= 15
    assert_rejected_state(data, "$.trigger", "R12", f"player {holder} has {points} Masterpiece")


def test_r12_trigger_without_the_points_is_rejected() -> None:
    game = midgame()
    data = state_to_dict(game)
    data["trigger"], data["turns_left"] = 2, 3
    data["supply"]["end-flag"] = 0  # as if the flag had been lost
    points = insides(game).masterpiece_points(2)
    assert points < 15
    assert_rejected_state(
        data, "$.trigger", "R12", f"player 2 triggered the end with {points} Masterpiece points"
    )


def test_r12_no_turn_left_while_not_over_is_rejected() -> None:
    data = state_to_dict(triggered())
    data["turns_left"] = 0
    assert_rejected_state(data, "$.turns_left", "R12", "0 turns left, but the phase is 'action'")


def test_r4_published_straight_holding_cards_it_cannot_hold_is_rejected() -> None:
    def published_straight(game: Game) -> bool:
        cards = {str(c) for p in range(game.players) for n in game.table(p) for c in n.cards}
        return not cards & {"MYT1", "MAG13"} and any(
            n.novel == "straight-5" and len(n.cards) >= 2
            for p in range(game.players)
            for n in game.table(p)
        )

    game = first_position(published_straight)
    owner, index, novel = next(
        (p, i, n)
        for p in range(game.players)
        for i, n in enumerate(game.table(p))
        if n.novel == "straight-5" and len(n.cards) >= 2
    )
    text = state_to_json(game)
    # Swap two of its cards with MYT1 and MAG13, wherever those lie.
    swaps = {str(novel.cards[0]): "MYT1", "MYT1": str(novel.cards[0])}
    swaps |= {str(novel.cards[1]): "MAG13", "MAG13": str(novel.cards[1])}
    data = json.loads(
        re.sub(r'"([A-Z]{3}[0-9]{1,2})"', lambda m: f'"{swaps.get(m[1], m[1])}"', text)
    )
    assert {"MYT1", "MAG13"} <= set(data["tables"][owner][index]["cards"])
    assert_rejected_state(
        data,
        f"$.tables[{owner}][{index}].cards",
        "R4",
        "cannot all be part of one 5-Card Straight (5 cards of consecutive ranks)",
    )


def test_r10_face_down_discards_on_top_of_face_up_ones_is_rejected() -> None:
    game = first_position(
        lambda g: (
            any(map(insides(g).is_face_down, g.discard))
            and not insides(g).is_face_down(g.discard[-1])
        )
    )
    data = state_to_dict(game)
    data["discard"].reverse()
    face_up = sum(1 for entry in data["discard"] if entry["face_up"])
    assert_rejected_state(
        data, f"$.discard[{face_up}].face_up", "R10", "lie below every face-up card"
    )


def test_r6_supply_that_lost_novel_cards_is_rejected() -> None:
    game = midgame()
    assert game.supply["kind-5"] == 2
    data = state_to_dict(game)
    data["supply"]["kind-5"] = 0
    assert_rejected_state(
        data, "$.supply.kind-5", "R6", "0 in the supply and 0 on the tables make 0 copies"
    )


def test_r10_keep_phase_whose_player_holds_two_cards_is_rejected() -> None:
    data = state_to_dict(Game(players=3, seed=7))
    data["deck"] += [data["hands"][2].pop(), data["hands"][2].pop()]
    assert_rejected_state(
        data, "$.hands[2]", "R10", "during setup seat 2 holds the 4 cards dealt to it"
    )


def refill_deck(data: Data) -> None:
    """Put face-up discards, then hand cards, into the deck until it holds one card more than
    the deal left there."""
    dealt = 49 - sum(DEAL_SIZES[: data["players"]])
    while len(data["deck"]) <= dealt:
        if data["discard"][-1]["face_up"]:
            data["deck"].append(data["discard"].pop()["card"])
        else:
            data["deck"].append(max(data["hands"], key=len).pop())


@pytest.mark.parametrize(
    ("pick", "mutate", "path", "ruling", "fragment"),
    [
        pytest.param(
            lambda: first_position(
                lambda g: (
                    g.turn > 5
                    and len(g.discard) > 4
                    and not any(map(insides(g).is_face_down, g.discard))
                )
            ),
            lambda d: [entry.update(face_up=False) for entry in d["discard"]],
            "$.discard",
            "R10",
            "setup discards of",
            id="r10_more_face_down_cards_than_setup_discards",
        ),
        pytest.param(
            lambda: first_position(
                lambda g: (
                    0 < g.turn < 5
                    and g.phase is Phase.ACTION
                    and any(map(insides(g).is_face_down, g.discard))
                )
            ),
            refill_deck,
            "$.deck",
            "R11",
            "so the discard pile was never reshuffled",
            id="r11_face_down_discards_under_a_refilled_deck",
        ),
        pytest.param(
            lambda: first_position(lambda g: g.turn == 0 and g.phase is Phase.ACTION),
            lambda d: d["hands"][1].append(d["hands"][0].pop()),
            "$.hands[0]",
            "R10",
            "at turn 0 every player holds the 3 cards kept at setup",
            id="r10_uneven_hands_at_turn_0",
        ),
        pytest.param(
            lambda: first_position(lambda g: g.turn == 0 and g.phase is Phase.ACTION),
            lambda d: d["deck"].append(d["hands"][0].pop()),
            "$.deck",
            "R11",
            "hold at most",
            id="r11_deck_and_discard_grew_after_setup",
        ),
        pytest.param(
            lambda: first_position(
                lambda g: 0 < g.turn < 5 and g.phase is Phase.ACTION and g.players == 3
            ),
            lambda d: d.update(turn=d["turn"] + 3),
            "$.turn",
            "R11",
            "every turn was a Write",
            id="r11_turns_that_did_nothing",
        ),
        pytest.param(
            midgame,
            lambda d: d.update(passes=1),
            "$.passes",
            "R11",
            "cards in the deck",
            id="r11_pass_while_cards_are_left",
        ),
        pytest.param(
            lambda: first_position(lambda g: g.phase is Phase.FLAG),
            lambda d: d.update(turns_left=3),
            "$.turns_left",
            "R12",
            "the End Flag is taken before the",
            id="r12_flag_phase_after_the_countdown_began",
        ),
        pytest.param(
            lambda: first_position(lambda g: g.phase is Phase.FLAG),
            lambda d: d.update(passes=1),
            "$.passes",
            "R12",
            "the end is triggered by a publish or a Read",
            id="r12_flag_phase_after_a_pass",
        ),
        pytest.param(
            lambda: first_position(lambda g: insides(g).end_reason == "countdown"),
            lambda d: d.update(to_move=(d["to_move"] + 1) % d["players"]),
            "$.to_move",
            "R12",
            "a game ends on the turn of the current player",
            id="r12_finished_game_with_another_player_to_move",
        ),
    ],
)
def test_more_invariants_reject_tampered_states(
    pick: Callable[[], Game], mutate: Mutation, path: str, ruling: str, fragment: str
) -> None:
    data = state_to_dict(pick())
    mutate(data)
    assert_rejected_state(data, path, ruling, fragment)


# ----------------------------------------------------------------------
# Histories: replayed from the deal, compared field by field (R14)
# ----------------------------------------------------------------------
def rejection(data: Data, catalogue: Catalogue | None = None) -> str:
    """The message of the InvalidStateError that loading ``data`` raises."""
    with pytest.raises(InvalidStateError) as info:
        state_from_dict(data, catalogue=catalogue)
    return str(info.value)


def after_a_choose() -> Game:
    """A position whose last move kept one of two drawn cards."""
    return first_position(
        lambda g: g.turn > 20 and g.phase is Phase.ACTION and isinstance(g.history[-1], Choose)
    )


def test_r14_truncated_history_is_rejected_naming_the_first_difference() -> None:
    data = state_to_dict(after_a_choose())
    data["history"].pop()
    assert rejection(data) == '$.phase: the history replays to "choose", the state says "action"'


def test_r14_altered_history_is_rejected_naming_the_first_difference() -> None:
    game = after_a_choose()
    before = Game(game.players, game.seed)
    for move in game.history[:-1]:
        before.apply(move)
    assert before._pending is not None
    kept = str(game.history[-1]).split()[1]
    other = next(str(card) for card in before._pending if str(card) != kept)
    data = state_to_dict(game)
    data["history"][-1] = f"choose {other}"
    top = len(data["discard"]) - 1
    assert rejection(data) == (
        f'$.discard[{top}].card: the history replays to "{kept}", the state says "{other}"'
    )


def test_r14_state_whose_hands_differ_from_its_history_is_rejected() -> None:
    data = state_to_dict(midgame())
    replayed = list(data["hands"][0])
    assert data["hands"][0]
    assert data["hands"][1]
    data["hands"][0][0], data["hands"][1][0] = data["hands"][1][0], data["hands"][0][0]
    stated = [str(card) for card in sorted(map(Card.parse, data["hands"][0]))]
    assert rejection(data) == (
        f"$.hands[0]: the history replays to {json.dumps(replayed)}, "
        f"the state says {json.dumps(stated)}"
    )


def test_r14_illegal_move_in_the_history_is_rejected_at_its_index() -> None:
    game = after_a_choose()
    data = state_to_dict(game)
    index = len(data["history"]) - 1
    chooser = (insides(game).current - 1) % game.players
    data["history"][index] = "draw"
    assert rejection(data) == (
        f"$.history[{index}]: illegal move 'draw': player {chooser} must first choose one of "
        "the two drawn cards (R11)"
    )


def test_r14_history_is_bounded() -> None:
    data = state_to_dict(Game(players=3, seed=7))
    data["history"] = ["draw"] * MAX_HISTORY  # replayed: the first move is illegal
    assert rejection(data).startswith("$.history[0]: illegal move 'draw': the game is in setup")
    data["history"].append("draw")
    assert rejection(data) == (
        f"$.history: {MAX_HISTORY + 1} moves are more than a game takes: at most "
        f"{MAX_HISTORY} are replayed (R14); leave the history out to load the position alone"
    )


def test_composed_state_needs_no_history_but_a_history_must_replay() -> None:
    data = base_state()  # composed: its history is empty
    game = state_from_dict(data)
    assert game.history == ()
    del data["history"]
    assert state_from_dict(data) == game
    data["history"] = ["keep MYT1 HOR7 HOR8"]  # the real first move, but not this position
    assert rejection(data) == "$.turn: the history replays to 0, the state says 6"


# ----------------------------------------------------------------------
# check_invariants on games built in Python
# ----------------------------------------------------------------------
ODD = Catalogue(
    [
        NovelSpec("odd-3", "Odd Three", AllOdd(3), points=2, copies=4),
        NovelSpec("sum-20", "Twenty", SumOfAnySize(20), points=3, copies=3),
        NovelSpec(END_FLAG_ID, "End Flag", None, points=1, copies=1),
    ],
    name="odd",
)
"""A catalogue of user-defined patterns (R3), one of them of no fixed size."""


@pytest.mark.parametrize(
    ("novel", "cards", "fits"),
    [
        ("odd-3", ["SCI5"], True),
        ("odd-3", ["SCI5", "HOR7", "MYS9"], True),
        ("odd-3", ["SCI4"], False),
        ("odd-3", ["SCI5", "SCI4"], False),
        ("sum-20", ["SCI5", "HOR7"], True),  # one more card: an 8
        ("sum-20", ["MYT1"], True),  # two more cards: 6 and 13
    ],
)
def test_r4_novels_of_user_defined_patterns_must_be_completable(
    novel: str, cards: list[str], fits: bool
) -> None:
    game = Game(players=3, seed=7, catalogue=ODD)
    game.apply("keep MYT1 HOR7 HOR8")
    data = state_to_dict(game)
    data["history"] = []
    writes = 0
    for card in cards:
        for place in [data["deck"], *data["hands"]]:
            if card in place:
                place.remove(card)
                writes += place is data["deck"]
    data["tables"][0].append({"novel": novel, "cards": cards})
    data["supply"][novel] -= 1
    data["turn"] = 3 * (writes // 3 + 1)  # seat 0's turn, after the Writes and the publish
    if fits:
        assert state_from_dict(data, catalogue=ODD).table(0)[0].cards == tuple(
            map(Card.parse, cards)
        )
    else:
        message = rejection(data, catalogue=ODD)
        assert message.startswith(
            f"$.tables[0][0].cards: {' '.join(cards)} cannot all be part of one Odd Three "
            "(3 cards of odd ranks)"
        ), message
        assert message.endswith("(R4, R11)")


def test_check_invariants_on_games_built_in_python() -> None:
    game = Game(players=4, seed=2)
    check_invariants(game)
    hand = game.hand(3)
    game._deck.append(hand[0])  # a card in the deck and in a hand
    with pytest.raises(
        InvalidStateError,
        match=re.escape(
            f"$.hands[3][0]: card {hand[0]} appears twice (also at $.deck[{len(game._deck) - 1}])"
        ),
    ):
        check_invariants(game)
    game._deck.pop()
    game._turn = -1
    with pytest.raises(InvalidStateError, match=r"^\$\.turn: expected an integer >= 0, got -1"):
        check_invariants(game)


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
    assert data["pending"] == [str(card) for card in insides(game).pending or ()]
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


@invalid_view("$.supply.kind-3", "expected an integer from 0 to 5, got -2")
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
