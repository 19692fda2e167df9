"""The OpenSpiel game by house rules (R10, R12): its parameters, deal, keeps and end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pastiche_core.engine.game_internals import insides, stack_deck

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import pyspiel

from pastiche_core import DECK, Draw, Game, Rules
from pastiche_core.data.errors import InvalidArgumentError
from pastiche_core.io.state_json import state_from_dict, state_to_dict
from pastiche_core.openspiel import PasticheGame, PasticheState, max_game_length
from pastiche_core.rl.aec import winner_returns

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "catalogues" / "house-rules.toml"


def random_action(state: PasticheState, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, weights)[0])
    return int(rng.choice(state.legal_actions()))


def engine_replay(state: PasticheState, rules: Rules) -> tuple[Game, list[int]]:
    """The finished ``state`` played again by the engine's own Game under ``rules``: the
    hands dealt as OpenSpiel's chance dealt them, each Write drawing the cards its chance
    nodes chose. Returns the game and each seat's points when the end was triggered."""
    game = state.game
    assert game is not None
    chance = [
        item.action for item in state.full_history() if item.player == pyspiel.PlayerId.CHANCE
    ]
    players = game.players
    dealt = sum(rules.deal_sizes[:players])
    deal, draws = chance[:dealt], chance[dealt:]
    template = state_to_dict(Game(players=players, seed=0, rules=rules))
    hands, start = [], 0
    for seat in range(players):
        size = rules.deal_sizes[seat]
        hands.append([str(DECK[i]) for i in sorted(deal[start : start + size])])
        start += size
    template["hands"] = hands
    template["deck"] = [str(card) for card in DECK if card.index not in set(deal)]
    mirror = state_from_dict(template)
    assert mirror.rules == rules
    at_trigger: list[int] = []
    for move in game.history:
        if isinstance(move, Draw):
            count = min(2, mirror.deck_size + len(mirror.discard))
            stack_deck(mirror, [DECK[i] for i in draws[:count]])
            draws = draws[count:]
        mirror.apply(move)
        if insides(mirror).trigger is not None and not at_trigger:
            at_trigger = list(mirror.scores())
    assert not draws
    return mirror, at_trigger


def test_rules_are_game_parameters() -> None:
    game = pyspiel.load_game("python_pastiche(players=3,end_threshold=10,keep_size=2)")
    assert game.rules == Rules(end_threshold=10, keep_size=2)
    assert game.get_parameters()["end_threshold"] == 10
    assert game.get_parameters()["deal_sizes"] == "3 3 4 4 5"
    # The game string names the rules played by: it loads the same game again.
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules
    assert game.max_game_length() == max_game_length(3, game.catalogue, game.rules)
    assert pyspiel.load_game("python_pastiche(players=3)").rules == Rules()


def test_rules_parameters_refuse_bad_values() -> None:
    with pytest.raises(Exception, match=r"end_threshold must be an integer from 1 to 1000 \(R12\)"):
        pyspiel.load_game("python_pastiche(players=3,end_threshold=1001)")
    with pytest.raises(Exception, match=r"deal_sizes\[0\] must be an integer from 4 to 10"):
        pyspiel.load_game("python_pastiche(players=3,keep_size=4)")
    with pytest.raises(Exception, match="deal_sizes must be integers apart by spaces"):
        pyspiel.load_game("python_pastiche(players=3,deal_sizes=4 x 4)")
    with pytest.raises(Exception, match=r"players must be from 3 to 3 \(R10\), got 4"):
        pyspiel.load_game("python_pastiche(players=4,deal_sizes=4 4 4)")
    # OpenSpiel checks the parameters' types; the game checks them when made directly.
    with pytest.raises(InvalidArgumentError, match="deal_sizes must be a string"):
        PasticheGame({"players": 3, "deal_sizes": 4})
    with pytest.raises(InvalidArgumentError, match="end_threshold must be an integer"):
        PasticheGame({"players": 3, "end_threshold": True})


def test_the_deal_and_the_keeps_follow_the_rules() -> None:
    game = pyspiel.load_game("python_pastiche(players=3,keep_size=2,deal_sizes=4 3 5)")
    state = game.new_initial_state()
    dealt = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        dealt += 1
    assert dealt == 4 + 3 + 5
    engine = state.game
    assert engine is not None
    assert [len(engine.hand(seat)) for seat in range(3)] == [4, 3, 5]
    # Every seat dealt more than two keeps two, in seat order (R10): seat 0 first.
    assert state.current_player() == 0
    discards = [
        a for a in state.legal_actions() if state.action_to_string(0, a).startswith("discard")
    ]
    assert len(discards) == 4
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert len(engine.hand(0)) == 2
    assert state.current_player() == 1


def test_random_sim_test_by_house_rules() -> None:
    game = pyspiel.load_game("python_pastiche(players=3,end_threshold=10,keep_size=2)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_end_as_the_engine_ends_them_under_threshold_10(players: int) -> None:
    rules = Rules(end_threshold=10)
    game = pyspiel.load_game(f"python_pastiche(players={players},end_threshold=10)")
    rng = random.Random(players)
    below_rulebook = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
        mirror, at_trigger = engine_replay(state, rules)
        final = state.game
        assert final is not None
        assert final.rules == rules
        assert mirror.is_over
        assert mirror.scores() == final.scores()
        assert mirror.winners() == final.winners()
        assert state.returns() == winner_returns(players, mirror.winners())
        if at_trigger:  # R12: the end came at the game's threshold, not the rulebook's
            seat = insides(mirror).trigger
            assert seat is not None
            assert at_trigger[seat] >= 10
            below_rulebook += at_trigger[seat] < 15
    assert below_rulebook >= 1


def test_a_catalogue_rules_table_is_the_default() -> None:
    quick = Rules(max_players=4, deal_sizes=(3, 3, 4, 4), keep_size=2, end_threshold=10)
    game = pyspiel.load_game("python_pastiche", {"players": 3, "catalogue": str(EXAMPLE)})
    assert game.rules == quick
    assert game.new_initial_state().game is None
    # A parameter set wins over the table; the table's seats bound the players (R10).
    later = pyspiel.load_game(
        "python_pastiche", {"players": 4, "catalogue": str(EXAMPLE), "end_threshold": 12}
    )
    assert later.rules == Rules(
        max_players=4, deal_sizes=(3, 3, 4, 4), keep_size=2, end_threshold=12
    )
    with pytest.raises(InvalidArgumentError, match=r"players must be from 3 to 4 \(R10\), got 5"):
        pyspiel.load_game("python_pastiche", {"players": 5, "catalogue": str(EXAMPLE)})
