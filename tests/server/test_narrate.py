"""The move log, the Novel legend and the outcome in plain words (pastiche_core.server.narrate).

The log is told from one player's view, so it may name no card that player
cannot know (R16): the cards another seat kept at setup or after drawing, the
cards it drew, a face-down card another seat took, gifts between two other
seats. The tests play whole games and check every line against the game's own
full record of what each move hid.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from service_support import bearer, make_client, new_game, validate_service

from pastiche_core import Card, Catalogue, Game
from pastiche_core.ai.roster import make_bot
from pastiche_core.engine.game import GameResult
from pastiche_core.engine.game_internals import insides, move_record
from pastiche_core.engine.moves import Choose, Keep, Publish, Read
from pastiche_core.engine.rules import END_THRESHOLD
from pastiche_core.server.narrate import (
    LogEntry,
    describe_outcome,
    narrate,
    novel_legend,
    seat_names,
)


def _played(players: int, seed: int, bot: str = "greedy") -> Game:
    game = Game(players=players, seed=seed)
    bots = [make_bot(bot, seed=seed * 10 + seat) for seat in range(players)]
    for _ in range(2000):
        if game.is_over:
            break
        game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_moves))
    assert game.is_over
    return game


def _hidden_from(game: Game, index: int, viewer: int) -> set[str]:
    """The cards move ``index`` moved out of ``viewer``'s sight (R10, R11, R5, R16)."""
    move = game.history[index]
    record = move_record(game, index)
    if record.seat == viewer:
        return set()
    hidden: set[Card] = set()
    if isinstance(move, Keep):
        hidden.update(move.cards, record.laid_down)
    elif isinstance(move, Choose):
        hidden.add(move.card)
    elif record.keyword == "draw":
        laid = move_record(game, index + 1).laid_up if index + 1 < len(game.history) else None
        hidden.update(card for card in record.drawn if card != laid)
    elif record.keyword == "take" and record.taken_from not in (None, viewer):
        assert record.taken is not None
        hidden.add(record.taken)
    elif isinstance(move, Publish):
        hidden.update(gift.card for gift in move.gifts if gift.to != viewer)
    return {str(card) for card in hidden}


def _cards_named(entry_dict: dict[str, object]) -> set[str]:
    parts = entry_dict["parts"]
    assert isinstance(parts, list)
    return {part["card"] for part in parts if isinstance(part, dict) and "card" in part}


def _leaks(game: Game, line: LogEntry, viewer: int) -> set[str]:
    """The cards ``line`` names that its moves hid from ``viewer``."""
    named = _cards_named(line.to_dict())
    return {card for index in line.moves for card in named & _hidden_from(game, index, viewer)}


@pytest.mark.parametrize(
    ("players", "seed", "bot"), [(3, 1, "random"), (4, 2, "greedy"), (5, 3, "greedy")]
)
def test_the_log_names_no_card_its_reader_cannot_know_r16(
    players: int, seed: int, bot: str
) -> None:
    game = _played(players, seed, bot)
    planted = 0
    for viewer in range(players):
        view = game.view(viewer)
        lines = narrate(view)
        told = [index for line in lines for index in line.moves]
        assert told == list(range(len(game.history)))  # every move once, in order
        for line in lines:
            assert not _leaks(game, line, viewer), (viewer, line.moves, line.text)
            # The check itself sees a hidden card when a line names one.
            for index in line.moves:
                hidden = sorted(_hidden_from(game, index, viewer))
                if hidden:
                    leaky = dataclasses.replace(line, parts=(*line.parts, ("card", hidden[0])))
                    assert _leaks(game, leaky, viewer) == {hidden[0]}
                    planted += 1
    assert planted > 10  # the game hid cards from every seat, and the check saw them


def test_the_log_tells_what_the_viewer_may_see_of_others_moves() -> None:
    game = _played(4, 2)
    view = game.view(0)
    lines = narrate(view)
    texts = [line.text for line in lines]
    # Every face-up card laid after another seat's draw and every card read is named.
    for index, move in enumerate(game.history):
        line = next(line for line in lines if index in line.moves)
        if isinstance(move, Read):
            assert str(move.card) in line.text
            assert move.source.novel in line.text
        if isinstance(move, Choose) and move_record(game, index).seat != 0:
            laid = move_record(game, index).laid_up
            assert f"laid {laid} face up" in line.text
    assert any("gave you" in text for text in texts) or not any(
        isinstance(move, Publish) and any(gift.to == 0 for gift in move.gifts)
        for move in game.history
    )


def test_a_read_of_your_novel_and_a_gift_to_you_are_told_to_you() -> None:
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    lines: list[str] = []
    rng = random.Random(5)
    # Random play until some seat reads another's novel or gives a gift to seat 0.
    for _ in range(3000):
        if game.is_over:
            game = Game(players=3, seed=rng.randrange(1000))
        move = rng.choice(game.legal_moves)
        game.apply(move)
        if isinstance(move, Read) and move.source.owner == 0 and game.history[-1] is move:
            lines = [line.text for line in narrate(game.view(0)) if line.about_you]
            seat = move_record(game).seat
            if seat != 0:
                expected = f"Player {seat} read your {move.source.novel} and took {move.card}"
                assert any(text.startswith(expected) for text in lines), lines
                break
    else:
        raise AssertionError("no read of seat 0's novel in 3000 random moves")


def test_gifts_name_the_viewers_cards_and_count_the_others() -> None:
    game = _played(5, 3)
    publishes = [
        (index, move)
        for index, move in enumerate(game.history)
        if isinstance(move, Publish) and len({gift.to for gift in move.gifts}) >= 2
    ]
    assert publishes, "a publish with gifts to two seats"
    index, move = publishes[0]
    publisher = move_record(game, index).seat
    receiver = move.gifts[0].to
    line = next(line for line in narrate(game.view(receiver)) if index in line.moves)
    mine = [str(gift.card) for gift in move.gifts if gift.to == receiver]
    assert f"gave you {' '.join(mine)}" in line.text
    assert line.about_you
    others = {gift.to for gift in move.gifts} - {receiver, publisher}
    for seat in others:
        assert f"player {seat} a card" in line.text or f"player {seat} two cards" in line.text


def test_the_end_flag_taken_is_told_after_the_trigger_turn_r12() -> None:
    for seed in range(1, 20):
        game = _played(4, seed)
        if insides(game).flag is not None:
            break
    else:
        raise AssertionError("no game took the End Flag")
    view = game.view(1)
    lines = narrate(view)
    kinds = [line.kind for line in lines]
    at = kinds.index("end-game")
    assert kinds[at + 1] == "flag"
    assert game._flag is not None
    seat, card = game._flag
    assert lines[at].player == seat
    assert f"{END_THRESHOLD} points or more" in lines[at].text
    assert "End Flag" in lines[at].text
    assert (
        lines[at + 1].text
        == f"{seat_names(4, 1)[seat].capitalize()} put {card} under the End Flag."
    )
    assert kinds[-1] == "over"
    assert lines[-1].turn == view.turn
    outcome = describe_outcome(view, game.result)  # type: ignore[arg-type]
    assert outcome.flag == "taken"
    assert outcome.flag_player == seat
    assert outcome.flag_card == card


def test_the_end_flag_lost_is_told_r12() -> None:
    game = Game(players=3, seed=7)
    while not game.is_over:  # player 1 reaches the threshold with an empty hand
        game.apply(game.legal_moves[0])
    assert insides(game).flag_lost
    view = game.view(0)
    lines = narrate(view)
    trigger = next(line for line in lines if line.kind == "end-game")
    assert trigger.player == 1
    assert trigger.text == (
        "Player 1's Masterpieces are now worth 15 points or more, but player 1 has no card in hand to put "
        "under the End Flag: it is lost. The game ends after 5 more turns."
    )
    assert "flag" not in [line.kind for line in lines]
    result = game.result
    assert result is not None
    outcome = describe_outcome(view, result)
    assert outcome.flag == "lost"
    assert outcome.flag_player == 1
    assert outcome.lines[-1] == (
        "The End Flag was lost: player 1 reached 15 points with no card in hand to put under it."
    )


def test_turns_count_from_the_view_and_keep_lines_come_first() -> None:
    game = _played(5, 4)
    view = game.view(3)
    lines = narrate(view)
    assert [line.turn for line in lines[:3]] == [0, 0, 0]  # seats 2, 3, 4 keep (R10)
    assert lines[1].text.startswith("You kept ")
    assert (
        lines[0].text == "Player 2 kept three cards and laid a card face down on the discard pile."
    )
    turns = [line.turn for line in lines]
    assert turns == sorted(turns)
    assert turns[-1] == view.turn


def test_a_drawn_pair_is_shown_to_the_drawer_only() -> None:
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    game.apply("draw")
    assert narrate(game.view(0))[-1].text == "You drew FAN11 and SCI5."
    assert narrate(game.view(1))[-1].text == "Player 0 drew two cards."
    game.apply("choose FAN11")
    assert narrate(game.view(1))[-1].text == (
        "Player 0 drew two cards, kept one and laid SCI5 face up on the discard pile."
    )


def test_the_outcome_names_the_tie_break_r13() -> None:
    view = _played(3, 1).view(0)
    names = ("you", "player 1 (greedy bot)", "player 2 (search bot)")
    alone = describe_outcome(view, GameResult((20, 18, 14), (3, 4, 2), (0,), "countdown"), names)
    assert alone.tie_break == "points"
    assert alone.lines[0] == "You win with 20 points."
    fewer = describe_outcome(view, GameResult((20, 20, 14), (5, 4, 2), (1,), "countdown"), names)
    assert fewer.tie_break == "fewer-masterpieces"
    assert fewer.lines[0] == (
        "You and player 1 (greedy bot) tie on 20 points; player 1 (greedy bot) wins with fewer Masterpieces "
        "(4 against 5)."
    )
    shared = describe_outcome(view, GameResult((20, 20, 20), (4, 4, 2), (0, 1), "all-pass"), names)
    assert shared.tie_break == "shared"
    assert (
        shared.lines[0]
        == "You and player 1 (greedy bot) share the win: 20 points and 4 Masterpieces each."
    )
    assert shared.lines[1] == "The game ended when every player passed in a row."


def test_the_outcome_agrees_with_the_game_result() -> None:
    for seed in range(3):
        game = _played(3 + seed, seed + 5)
        result = game.result
        assert result is not None
        outcome = describe_outcome(game.view(0), result)
        assert outcome.winners == result.winners
        assert outcome.scores == result.scores
        top = [seat for seat, score in enumerate(result.scores) if score == max(result.scores)]
        assert (outcome.tie_break == "points") == (len(top) == 1)


def test_the_legend_gives_every_novel_its_requirement_and_points_r2() -> None:
    catalogue = Catalogue.default()
    legend = novel_legend(catalogue, (("kind-3", 2),))
    assert [entry.id for entry in legend] == [spec.id for spec in catalogue.specs]
    kind3 = next(entry for entry in legend if entry.id == "kind-3")
    assert (kind3.requirement, kind3.points, kind3.copies, kind3.left) == (
        "3 cards of one rank",
        1,
        5,
        2,
    )
    flag = legend[-1]
    assert not flag.publishable
    assert "(R" not in flag.requirement


def test_the_service_state_carries_the_log_the_legend_and_the_outcome() -> None:
    client, _ = make_client()
    game, tokens = new_game(client, players=3, seed=7, seats=["human", "greedy", "random"])
    me = bearer(tokens["0"])
    state = client.get(f"/v1/games/{game}", headers=me).json()
    validate_service("game_state", state)
    assert state["outcome"] is None
    assert [novel["id"] for novel in state["novels"]][:2] == ["straight-5", "straight-7"]
    for _ in range(400):
        if state["over"]:
            break
        state = client.post(
            f"/v1/games/{game}/moves", json={"move": state["legal"][-1]}, headers=me
        ).json()
    assert state["over"]
    validate_service("game_state", state)
    assert state["log"][-1]["kind"] == "over"
    assert (
        state["log"][0]["text"]
        == "Player 2 kept three cards and laid a card face down on the discard pile."
    )
    outcome = state["outcome"]
    assert outcome["winners"] == state["result"]["winners"]
    assert outcome["names"] == ["you", "player 1 (greedy bot)", "player 2 (random bot)"]
    assert outcome["flag"] in ("taken", "lost", "untaken")
    assert outcome["lines"]
