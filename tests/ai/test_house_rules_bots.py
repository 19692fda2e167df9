"""The bots, the hints and the web table's words by house rules: the game's own End Flag
threshold (R12) and keep (R10), not the rulebook's."""

from __future__ import annotations

from dataclasses import replace

from pastiche_core import DECK, Game, Publish, RandomBot, Rules, play_game
from pastiche_core.ai import GreedyBot
from pastiche_core.ai.analyse import explain
from pastiche_core.ai.greedy import GreedyGiftPolicy
from pastiche_core.data.cards import Card
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.knowledge import Knowledge
from pastiche_core.engine.table import TableNovel
from pastiche_core.io.state_json import state_from_dict, state_to_dict
from pastiche_core.server.narrate import describe_outcome, narrate, novel_legend

QUICK = Rules(end_threshold=10)


def only_reads(rules: Rules) -> Game:
    """Seat 0 to move with 9 points, the deck and the pile empty: it must read. Seat 1 has 8
    points and a Published pairs-3 (2 points) one read from a Masterpiece; seat 2 has no points
    and a Published pairs-4 (4 points) one read from a Masterpiece."""
    data = state_to_dict(Game(players=3, seed=7))
    data.pop("history", None)
    tables = [
        [{"novel": "straight-9", "cards": ["SCI9"]}, {"novel": "straight-7", "cards": ["LOV2"]}],
        [
            {"novel": "kind-5", "cards": ["MAG9"]},
            {"novel": "total-5", "cards": ["FAN6"]},
            {"novel": "pairs-3", "cards": ["MYS7", "MAG12"]},
        ],
        [{"novel": "pairs-4", "cards": ["MYT3", "SCI3"]}],
    ]
    mine = ["SCI7", "HOR7"]
    used = set(mine) | {card for table in tables for novel in table for card in novel["cards"]}
    rest = [str(card) for card in DECK if str(card) not in used]
    data.update(
        hands=[mine, rest[::2], rest[1::2]],
        tables=tables,
        discard=[],
        deck=[],
        phase="action",
        to_move=0,
        current=0,
        turn=81,
    )
    data["supply"].update(
        {"straight-9": 1, "straight-7": 2, "kind-5": 1, "total-5": 4, "pairs-3": 4, "pairs-4": 2}
    )
    if not rules.is_rulebook:
        data["rules"] = rules.to_dict()
    return state_from_dict(data)


def test_greedy_never_reads_a_rival_to_the_games_own_threshold() -> None:
    # R12: by the rulebook seat 1 would reach 10 points, far from 15: reading its pairs-3 (a
    # card seat 0 can use) is the best read. At threshold 10 that read hands seat 1 the end.
    choices = {}
    for rules in (Rules(), QUICK):
        game = only_reads(rules)
        assert game.rules == rules
        assert game.scores() == (9, 8, 0)
        choices[rules.end_threshold] = GreedyBot(1).choose(game.view(0), game.legal_moves)
    assert str(choices[15]) == "read 1:pairs-3 MYS7"
    assert str(choices[10]).startswith("read 2:pairs-4")


def test_greedy_fears_a_rival_near_the_games_own_threshold() -> None:
    view = replace(Game(players=3, seed=7).view(0), scores=(0, 6, 2))
    rulebook = GreedyGiftPolicy.of_view(view).feared
    quick = GreedyGiftPolicy.of_view(replace(view, rules=QUICK)).feared
    assert quick[2] == rulebook[2]
    # Seat 1 is within 4 points of 10 but not of 15 (R12): one more share.
    assert quick[1] > rulebook[1]


def test_a_hint_says_the_games_own_threshold() -> None:
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    base = game.view(0)
    # Seat 0 holds Masterpieces worth 9 points; an instant kind-3 (1 point, R7) reaches 10.
    table = (
        TableNovel(0, "straight-9", (Card.parse("SCI9"),)),
        TableNovel(0, "straight-7", (Card.parse("LOV2"),)),
    )
    move = Publish.of("kind-3", "LOV7", cite="0:straight-9 0:straight-7")
    texts = {}
    for rules in (Rules(), QUICK):
        view = replace(base, tables=(table, (), ()), rules=rules)
        texts[rules.end_threshold] = explain(view, move, Knowledge.of(view), rivals=False)
    assert "reaching 10: the end is triggered (R12)" in texts[10]
    assert "the end is triggered" not in texts[15]


def test_the_web_tables_words_follow_the_games_rules() -> None:
    rules = Rules(end_threshold=10, keep_size=2)
    game = play_game(
        players=3, seed=4, bots=[RandomBot(1), RandomBot(2), RandomBot(3)], rules=rules
    )
    assert game.rules == rules
    assert insides(game).trigger is not None
    view = game.view(0)
    entries = narrate(view)
    lines = [entry.text for entry in entries]
    # R10: every seat keeps two cards, laying the rest face down: seat 2 was dealt four.
    keeps = [entry.text for entry in entries if entry.kind == "keep"]
    assert keeps[1:] == [
        "Player 1 kept two cards and laid a card face down on the discard pile.",
        "Player 2 kept two cards and laid two cards face down on the discard pile.",
    ]
    assert any("Masterpieces are now worth 10 points or more" in line for line in lines)
    assert not any("15 points" in line for line in lines)
    assert game.result is not None
    outcome = describe_outcome(view, game.result)
    if outcome.flag == "lost":
        assert "reached 10 points" in outcome.lines[-1]
    legend = novel_legend(view.catalogue, view.supply, view.rules)
    assert "worth 10 points or more" in legend[-1].requirement
    assert "worth 15 points or more" in novel_legend(view.catalogue)[-1].requirement


def test_r10_bots_weigh_a_bounded_list_of_keeps_under_a_large_deal() -> None:
    """Ten cards dealt, three kept: 604,800 keeps with their discard orders, so the bots weigh
    one keep per choice of kept cards (R15: the order only decides who may take the top card)."""
    from pastiche_core.ai.search import SearchBot
    from pastiche_core.bots import Bot
    from pastiche_core.engine.game import MAX_KEEPS, keep_choices, keep_moves

    rules = Rules(deal_sizes=(10, 10, 10, 10, 7), keep_size=3)
    game = Game(players=3, seed=1, rules=rules)
    assert len(game.legal_moves) > MAX_KEEPS
    choices = keep_choices(game.hand(0), rules.keep_size)
    assert len(choices) == 120
    assert all(move in game.legal_moves for move in choices)
    assert keep_choices(game.hand(0)[:5]) == keep_moves(game.hand(0)[:5])
    lineups: list[list[Bot]] = [
        [GreedyBot(1), GreedyBot(2), GreedyBot(3)],
        [SearchBot(seed=1, budget_ms=20), RandomBot(2), RandomBot(3)],
    ]
    for bots in lineups:
        played = play_game(3, 1, bots=bots, rules=rules, max_decisions=3000)
        assert played.is_over
        assert played.rules == rules
