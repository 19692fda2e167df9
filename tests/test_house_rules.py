"""House rules: one frozen value of the rulebook's numbers, carried by games and documents (R10, R12).

``Rules()`` is the rulebook; other rules reach a game through ``Game(..., rules=...)`` or a
catalogue's ``[rules]`` table, are checked on construction (the error names the field and the
ruling), and travel in state, record and view JSON, which leave them out for the rulebook's so
that older documents load unchanged.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pastiche_core import (
    DEAL_SIZES,
    END_THRESHOLD,
    KEEP_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULEBOOK,
    Catalogue,
    Game,
    GameRecord,
    InvalidCatalogueError,
    InvalidRulesError,
    InvalidStateError,
    Rules,
    load_catalogue,
    play_game,
    rules_of,
)
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.rules import setup_discarders
from pastiche_core.io.invariants import check_invariants
from pastiche_core.io.state_json import state_from_json, state_to_dict, state_to_json
from pastiche_core.io.view_json import view_from_dict, view_to_dict

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "catalogues" / "house-rules.toml"

HOUSE = (
    Rules(end_threshold=10),
    Rules(end_threshold=25),
    Rules(keep_size=2),
    Rules(keep_size=1, deal_sizes=(2, 3, 4, 5, 6), end_threshold=12),
    Rules(keep_size=5, deal_sizes=(5, 5, 5, 5, 5)),
    Rules(max_players=4),
)


def played(game: Game, moves: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return game


def test_the_default_is_the_rulebook_and_the_module_constants_r10_r12() -> None:
    rules = Rules()
    assert rules == RULEBOOK
    assert rules.is_rulebook
    assert (rules.min_players, rules.max_players) == (MIN_PLAYERS, MAX_PLAYERS) == (3, 5)
    assert rules.deal_sizes == DEAL_SIZES == (3, 3, 4, 4, 5)
    assert rules.keep_size == KEEP_SIZE == 3
    assert rules.end_threshold == END_THRESHOLD == 15
    assert rules.keepers(5) == (2, 3, 4)
    assert Game(players=4, seed=1).rules is RULEBOOK


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules(end_threshold=10)
    with pytest.raises(AttributeError):
        rules.end_threshold = 11  # type: ignore[misc]
    assert {rules: 1}[Rules(end_threshold=10)] == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"min_players": 2}, "min_players must be an integer from 3 to 5 (R10), got 2"),
        ({"max_players": 6}, "max_players must be an integer from 3 to 5 (R10), got 6"),
        ({"min_players": 4, "max_players": 3}, "max_players must be an integer from 4 to 5"),
        ({"keep_size": 0}, "keep_size must be an integer from 1 to 10 (R10), got 0"),
        ({"keep_size": True}, "keep_size must be an integer from 1 to 10 (R10), got True"),
        ({"keep_size": 4}, "deal_sizes[0] must be an integer from 4 to 10 (R10), got 3"),
        ({"deal_sizes": (3, 3, 4)}, "deal_sizes must list a deal for each of the 5 seats"),
        ({"deal_sizes": [3, 3, 4, 4, 5]}, "deal_sizes must be a tuple of integers"),
        ({"deal_sizes": (10, 10, 10, 10, 10)}, "more than the 47 that leave a Write"),
        ({"end_threshold": 0}, "end_threshold must be an integer from 1 to 1000 (R12), got 0"),
        ({"end_threshold": 1001}, "(R12), got 1001"),
        ({"end_threshold": "15"}, "(R12), got '15'"),
    ],
)
def test_bad_rules_are_refused_naming_the_field_and_the_ruling(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidRulesError) as error:
        Rules(**fields)
    assert message in str(error.value)


def test_fewer_seats_cut_the_deals() -> None:
    assert Rules(max_players=4).deal_sizes == (3, 3, 4, 4)
    assert Rules.from_dict({"max_players": 3}).deal_sizes == (3, 3, 4)


@pytest.mark.parametrize("rules", HOUSE, ids=repr)
def test_games_by_house_rules_keep_every_invariant_r10_r11_r12(rules: Rules) -> None:
    for players in range(rules.min_players, rules.max_players + 1):
        game = Game(players=players, seed=players, rules=rules)
        keepers = rules.keepers(players)
        assert game.to_move == (keepers[0] if keepers else 0)
        assert [len(game.hand(p)) for p in range(players)] == list(rules.deal_sizes[:players])
        for _ in range(400):
            check_invariants(game)
            if game.is_over:
                break
            legal = game.legal_moves
            game.apply(legal[(game.turn * 7 + len(game.history)) % len(legal)])
        inside = insides(game)
        if inside.trigger is not None:
            assert inside.masterpiece_points(inside.trigger) >= rules.end_threshold


def test_the_threshold_ends_the_game_sooner_or_later_r12() -> None:
    def mean_turns(rules: Rules) -> float:
        return sum(play_game(4, seed, rules=rules).turn for seed in range(6)) / 6

    assert (
        mean_turns(Rules(end_threshold=8))
        < mean_turns(RULEBOOK)
        < mean_turns(Rules(end_threshold=40))
    )


def test_a_keep_of_two_has_every_seat_keep_and_discard_face_down_r10_r15() -> None:
    rules = Rules(keep_size=2)
    game = Game(players=3, seed=4, rules=rules)
    assert game.violation("draw") == "the game is in setup: player 0 must keep 2 cards (R10)"
    assert setup_discarders(3, rules) == (0, 1, 2, 2)
    for seat in (0, 1, 2):
        assert game.to_move == seat
        legal = game.legal_moves
        game.apply(legal[len(legal) - 1])
    assert [len(game.hand(p)) for p in range(3)] == [2, 2, 2]
    assert len(game.discard) == 4
    assert all(insides(game).is_face_down(card) for card in game.discard)
    check_invariants(game)


def test_undo_and_replay_keep_the_rules() -> None:
    rules = Rules(keep_size=2, end_threshold=10)
    game = played(Game(players=4, seed=9, rules=rules), 30, 9)
    twin = game.copy()
    assert twin.rules is rules
    assert twin == game
    before = game.copy()
    game.apply(game.legal_moves[0])
    game.undo()
    assert game == before
    replayed = Game.replayed(game.history, 4, 9, rules=rules)
    assert replayed == game
    assert replayed != Game.replayed([], 4, 9)


@pytest.mark.parametrize("rules", HOUSE, ids=repr)
def test_a_state_by_house_rules_round_trips_through_json(rules: Rules) -> None:
    game = played(Game(players=3, seed=5, rules=rules), 25, 5)
    data = state_to_dict(game)
    assert data["rules"] == rules.to_dict()
    loaded = state_from_json(json.dumps(data))
    assert loaded == game
    assert loaded.rules == rules
    assert loaded.history == game.history


def test_a_state_without_rules_is_the_rulebooks_and_is_written_without_them() -> None:
    game = played(Game(players=4, seed=2), 20, 2)
    data = state_to_dict(game)
    assert "rules" not in data  # as written before house rules
    assert state_from_json(json.dumps(data)).rules is RULEBOOK


def test_a_state_whose_rules_disagree_with_it_is_refused() -> None:
    game = played(Game(players=3, seed=5, rules=Rules(keep_size=2)), 10, 5)
    data = state_to_dict(game)
    del data["rules"]  # the rulebook's rules do not lead to this state
    with pytest.raises(InvalidStateError):
        state_from_json(json.dumps(data))
    data["rules"] = {"keep_size": 0}
    with pytest.raises(InvalidStateError, match=r"\$\.rules: keep_size must be an integer"):
        state_from_json(json.dumps(data))
    data["rules"] = {"keep": 2}
    with pytest.raises(InvalidStateError, match=r"\$\.rules: unknown field\(s\) 'keep'"):
        state_from_json(json.dumps(data))
    five = state_to_dict(Game(players=5, seed=1))
    five["rules"] = Rules(max_players=4).to_dict()
    with pytest.raises(InvalidStateError, match=r"\$\.players: the rules seat 3 to 4 players"):
        state_from_json(json.dumps(five))


def test_a_record_by_house_rules_round_trips_and_replays() -> None:
    rules = Rules(end_threshold=25, keep_size=2)
    game = play_game(4, 3, rules=rules)
    record = GameRecord.of(game)
    data = record.to_dict()
    assert data["rules"] == rules.to_dict()
    loaded = GameRecord.from_json(json.dumps(data))
    assert loaded == record
    assert loaded.rules == rules
    assert loaded.replay() == game
    old = dict(data)
    del old["rules"]
    assert GameRecord.from_dict(old).rules is RULEBOOK
    assert "rules" not in GameRecord.of(play_game(3, 1)).to_dict()


def test_a_view_by_house_rules_round_trips_and_old_views_load() -> None:
    rules = Rules(keep_size=2, end_threshold=10)
    game = played(Game(players=3, seed=8, rules=rules), 12, 8)
    for seat in range(3):
        view = game.view(seat)
        assert view.rules == rules
        data = view_to_dict(view)
        assert data["rules"] == rules.to_dict()
        assert view_from_dict(json.loads(json.dumps(data))) == view
    plain = view_to_dict(played(Game(players=3, seed=8), 12, 8).view(1))
    assert "rules" not in plain
    assert view_from_dict(plain).rules is RULEBOOK


def test_the_example_catalogues_rules_reach_its_games() -> None:
    quick = load_catalogue(EXAMPLE)
    rules = rules_of(quick)
    assert rules == Rules(max_players=4, keep_size=2, end_threshold=10)
    game = Game(players=4, seed=1, catalogue=quick)
    assert game.rules == rules
    assert game.to_move == 0
    assert Game(players=4, seed=1, catalogue=quick, rules=RULEBOOK).rules is RULEBOOK
    assert state_from_json(state_to_json(game)) == game
    assert Catalogue.from_dict(quick.to_dict()).rules_table == quick.rules_table


def _catalogue(rules: object) -> dict[str, Any]:
    return {**Catalogue.default().to_dict(), "name": "house", "rules": rules}


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("fast", "rules: expected a table, got 'fast'"),
        ({f"f{n}": 1 for n in "abcdefghi"}, "9 entries, more than 8 (R3)"),
        ({"Keep Size": 2}, "'Keep Size' is not a field name"),
        ({"keep_size": -1}, "keep_size must be an integer from 0 to 1,000,000"),
        ({"keep_size": 10**7}, "keep_size must be an integer from 0 to 1,000,000"),
        ({"keep_size": 2.5}, "keep_size must be an integer"),
        ({"keep_size": True}, "keep_size must be an integer"),
        ({"deal_sizes": [3] * 9}, "deal_sizes lists 9 numbers, more than 8"),
        ({"deal_sizes": [3, [3]]}, "deal_sizes must be an integer"),
    ],
)
def test_a_rules_table_of_a_bad_shape_is_refused_on_load_r3(rules: object, message: str) -> None:
    with pytest.raises(InvalidCatalogueError) as error:
        Catalogue.from_dict(_catalogue(rules))
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"threshold": 10}, "unknown field(s) 'threshold'"),
        ({"keep_size": 6}, "deal_sizes[0] must be an integer from 6 to 10 (R10), got 3"),
        ({"end_threshold": 0}, "end_threshold must be an integer from 1 to 1000 (R12)"),
        ({"deal_sizes": [3, 3, 4, 4, 5, 6]}, "more than the 5 seats a game may have (R10)"),
        ({"max_players": 4, "deal_sizes": [3, 3, 4]}, "for each of the 4 seats"),
    ],
)
def test_rules_no_game_is_played_by_are_refused_naming_the_catalogue(
    rules: dict[str, Any], message: str
) -> None:
    house = Catalogue.from_dict(_catalogue(rules))
    for attempt in (lambda: rules_of(house), lambda: Game(players=3, catalogue=house)):
        with pytest.raises(InvalidRulesError) as error:
            attempt()
        assert str(error.value).startswith("catalogue 'house': [rules]: ")
        assert message in str(error.value)


def test_a_toml_rules_table_is_read() -> None:
    text = EXAMPLE.read_text().replace("end_threshold = 10", "end_threshold = 12")
    assert rules_of(Catalogue.from_toml(text)).end_threshold == 12
    with pytest.raises(InvalidCatalogueError, match="rules: expected a table"):
        Catalogue.from_toml(
            'rules = 3\n[[novels]]\nid = "end-flag"\nname = "E"\n'
            'kind = "end-flag"\npoints = 1\ncopies = 1\n'
        )
