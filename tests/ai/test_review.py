"""Game review: determinism, the view alone (R16), planted blunders, forced decisions, errors, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from planted import RECORD_PATH, find

from pastiche_core import (
    Card,
    Game,
    GameRecord,
    IllegalMoveError,
    InvalidArgumentError,
    Read,
    schema,
)
from pastiche_core.ai.greedy import GreedyBot
from pastiche_core.ai.review import REVIEW_LABELS, review, review_game
from pastiche_core.bots.play import play_game
from pastiche_core.cli import main
from pastiche_core.engine.game_internals import insides, renamed
from pastiche_core.engine.rules import Phase
from pastiche_core.engine.view import PlayerView

PLANTED_SEED = 161
PLANTED_PLAYER = 4
PASS_INDEX = 63
READ_INDEX = 52


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A short greedy game of three seats."""
    game = play_game(3, seed=5, bots=[GreedyBot(seat) for seat in range(3)])
    return GameRecord.of(game)


def test_same_input_same_document(record: GameRecord) -> None:
    first = review(record, player=1, simulations=6, seed=3).to_dict()
    assert review(record, player=1, simulations=6, seed=3).to_dict() == first
    assert first["reviewed"] == [1]
    assert first["complete"] is True
    assert [d["index"] for d in first["decisions"]] == [
        index for index, seat in enumerate(_seats(record)) if seat == 1
    ]


def _seats(record: GameRecord) -> list[int]:
    game = Game(record.players, record.seed, record.catalogue, rules=record.rules)
    seats = []
    for move in record.moves:
        seats.append(game.to_move)
        game.apply(move)
    return seats


def test_document_matches_schema(record: GameRecord) -> None:
    document = review(record, simulations=2).to_dict()
    jsonschema.validate(document, schema("review"))
    assert document["reviewed"] == [0, 1, 2]
    assert {entry["player"] for entry in document["summary"]} == {0, 1, 2}


def test_swapped_hidden_cards_give_the_same_review(record: GameRecord) -> None:
    # Cards seat 0 never sees in the whole game: permuting them changes the deal and
    # the other seats' hands, never seat 0's views (R16), so the review must not change.
    final = record.replay()
    start = Game(record.players, record.seed, record.catalogue, rules=record.rules)
    seen = _seen_by(start, record, 0)
    ends = set(final.hand(1)) | set(final.hand(2)) | set(insides(final).deck)
    hidden = sorted(card for card in ends if card not in seen)
    in_hands = [card for card in hidden if card in final.hand(1) or card in final.hand(2)]
    in_deck = [card for card in hidden if card in insides(final).deck]
    assert in_hands
    assert in_deck
    one, two = in_hands[0], in_deck[0]  # a card of a rival's hand and one of the deck
    perm = {one: two, two: one}
    twin_start = renamed(start, perm)
    twin_moves = renamed(final, perm).history
    assert twin_start.hand(1) != start.hand(1) or twin_start.hand(2) != start.hand(2)
    original = review(record, player=0, simulations=6).to_dict()
    swapped = review_game(twin_start, twin_moves, player=0, simulations=6).to_dict()
    assert swapped == original


def _seen_by(start: Game, record: GameRecord, player: int) -> set[Card]:
    """Every card that appears in any of ``player``'s views along the game."""
    game = start.copy()
    seen: set[Card] = set()
    for move in (*record.moves, None):
        view = game.view(player)
        seen.update(view.hand)
        seen.update(card for card in view.discard if card is not None)
        for table in view.tables:
            for novel in table:
                seen.update(novel.cards)
        for _, text in view.history:
            seen.update(card for card in DECK_CARDS if str(card) in str(text).split())
        if move is not None:
            game.apply(move)
    return seen


DECK_CARDS = tuple(
    Card.parse(f"{genre}{rank}")
    for genre, low in (
        ("MYT", 1),
        ("LOV", 2),
        ("SCI", 3),
        ("HOR", 4),
        ("MYS", 5),
        ("FAN", 6),
        ("MAG", 7),
    )
    for rank in range(low, low + 7)
)


def test_each_decision_shows_its_seats_view_and_no_hidden_card() -> None:
    # R16: the hand, the top discard and the piles' sizes are the deciding seat's view at that
    # point; every card the decision names is one that seat saw by then.
    record = GameRecord.load(RECORD_PATH)  # five seats, face-down discards at the deal (R10)
    done = review(record, simulations=2)
    by_index = {decision.index: decision for decision in done.decisions}
    game = Game(record.players, record.seed, record.catalogue, rules=record.rules)
    hidden_tops = rival_cards = 0
    for index, move in enumerate(record.moves):
        decision, seat = by_index[index], game.to_move
        view = game.view(seat)
        assert decision.player == seat
        assert decision.hand == view.hand
        assert decision.top_discard == (view.discard[-1] if view.discard else None)
        assert (decision.deck_size, decision.discard_size) == (view.deck_size, len(view.discard))
        seen = _view_cards(view)
        named = {word for word in json.dumps(decision.to_dict()).replace('"', " ").split()}
        assert {str(card) for card in DECK_CARDS} & named <= seen, index
        rivals = {
            str(card) for other in range(game.players) if other != seat for card in game.hand(other)
        }
        rival_cards += len(rivals - seen)
        real = insides(game).discard
        hidden_tops += bool(real) and decision.top_discard is None
        game.apply(move)
    assert hidden_tops > 0  # some top discard lay face down to the seat, and was not shown
    assert rival_cards > 0  # the rivals held cards the seats never saw


def _view_cards(view: PlayerView) -> set[str]:
    """Every card a view shows, its move records included."""
    seen = {str(card) for card in (*view.hand, *view.discard, *(view.pending or ())) if card}
    seen |= {str(card) for table in view.tables for novel in table for card in novel.cards}
    seen |= {word for _, text in view.history for word in str(text).split()}
    for done in view.records:
        for card in (*done.drawn, done.taken, done.laid_up, *done.laid_down):
            if card is not None:
                seen.add(str(card))
    if view.flag is not None:
        seen.add(str(view.flag[1]))
    return seen


def test_forced_decisions_are_not_searched() -> None:
    record = GameRecord.load(RECORD_PATH)  # the deck runs out: some turns only Pass (R11)
    game = Game(record.players, record.seed, record.catalogue, rules=record.rules)
    forced = []
    for index, move in enumerate(record.moves):
        if len(game.legal_moves) == 1:
            forced.append(index)
        game.apply(move)
    assert forced, "the game has no forced decision"
    done = review(record, simulations=2)
    by_index = {d.index: d for d in done.decisions}
    for index in forced:
        decision = by_index[index]
        assert decision.forced
        assert decision.drop == 0
        assert decision.win_played is None
        assert decision.to_dict()["label"] is None
        assert decision.best == decision.played
    assert not any(d.forced for i, d in by_index.items() if i not in forced)


def test_progress_after_each_decision(record: GameRecord) -> None:
    calls: list[tuple[int, int]] = []
    done = review(record, player=2, simulations=2, progress=lambda a, b: calls.append((a, b)))
    total = len(done.decisions)
    assert calls == [(count, total) for count in range(1, total + 1)]


def test_deadline_stops_early(record: GameRecord) -> None:
    done = review(record, simulations=2, deadline=0.0)
    assert done.complete is False
    assert done.decisions == ()
    assert done.to_dict()["complete"] is False


@pytest.mark.parametrize("player", [3, -1, True, "0"])
def test_bad_player(record: GameRecord, player: object) -> None:
    with pytest.raises(InvalidArgumentError, match="player must be a seat"):
        review(record, player=player, simulations=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("simulations", [0, 5001, 2.5, None])
def test_bad_simulations(record: GameRecord, simulations: object) -> None:
    with pytest.raises(InvalidArgumentError, match="simulations must be an integer"):
        review(record, simulations=simulations)  # type: ignore[arg-type]


def test_damaged_record_fails_before_any_search(record: GameRecord) -> None:
    moves = list(record.moves)
    moves[10], moves[11] = moves[11], moves[10]
    damaged = GameRecord(record.players, record.seed, record.catalogue, tuple(moves))
    calls: list[int] = []
    with pytest.raises(IllegalMoveError, match=r"moves\[1[01]\]"):
        review(damaged, simulations=2, progress=lambda a, b: calls.append(a))
    assert calls == []


def test_planted_record_is_rebuilt_exactly() -> None:
    found = find(seeds=range(PLANTED_SEED, PLANTED_SEED + 1))
    assert found is not None
    assert (found.player, found.read_index, found.pass_index) == (
        PLANTED_PLAYER,
        READ_INDEX,
        PASS_INDEX,
    )
    assert found.record == GameRecord.load(RECORD_PATH)


def test_planted_pass_and_read_are_the_two_worst_decisions() -> None:
    planted = GameRecord.load(RECORD_PATH)
    game = planted.replay()
    read = planted.moves[READ_INDEX]
    assert str(planted.moves[PASS_INDEX]) == "pass"
    assert isinstance(read, Read)
    assert read.source.owner != PLANTED_PLAYER  # a rival's novel read down to a Masterpiece
    done = review(planted, player=PLANTED_PLAYER, simulations=64)
    worst = done.worst(PLANTED_PLAYER, 2)
    assert {decision.index for decision in worst} == {PASS_INDEX, READ_INDEX}
    assert all(REVIEW_LABELS.index(d.label or "") >= 1 for d in worst)  # a mistake or worse
    by_index = {decision.index: decision for decision in worst}
    assert by_index[PASS_INDEX].label == "blunder"
    assert str(by_index[PASS_INDEX].best).startswith("publish")
    assert all(decision.phase is Phase.ACTION for decision in worst)
    assert PLANTED_PLAYER not in game.winners()


# ----------------------------------------------------------------------
# The command line
# ----------------------------------------------------------------------
def _record_file(tmp_path: Path, record: GameRecord) -> str:
    path = tmp_path / "game.json"
    record.save(path)
    return str(path)


def test_cli_json_is_the_document(
    record: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, record)
    assert main(["review", path, "--player", "1", "--simulations", "4", "--json"]) == 0
    out = capsys.readouterr()
    document = json.loads(out.out)
    jsonschema.validate(document, schema("review"))
    assert document == review(record, player=1, simulations=4).to_dict()
    assert out.err == ""


def test_cli_piped_prints_a_line_per_decision(
    record: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, record)
    assert main(["review", path, "--player", "2", "--simulations", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    decisions = review(record, player=2, simulations=2).decisions
    assert len(lines) == len(decisions) + 1
    assert all(
        line.startswith(f"#{d.index} player 2 ") for line, d in zip(lines, decisions, strict=False)
    )
    assert lines[-1].startswith("player 2: ")
    assert max(map(len, lines)) <= 80


def test_cli_terminal_shows_a_bar_then_the_review(
    record: GameRecord,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    path = _record_file(tmp_path, record)
    assert main(["review", path, "--player", "0", "--simulations", "2"]) == 0
    out = capsys.readouterr()
    assert "decisions" in out.err
    assert out.out.startswith("review of player 0: 2 simulations a decision")
    assert max(map(len, out.out.splitlines())) <= 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "7"], "player must be from 0 to 4"),
        (["--simulations", "0"], "simulations must be from 1"),
        (["--player", "4"], "player must be a seat from 0 to 2"),
    ],
)
def test_cli_errors(
    record: GameRecord,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    path = _record_file(tmp_path, record)
    assert main(["review", path, *args]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert message in err[0]


def test_cli_damaged_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pastiche-record", "version": 1}')
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert "$.players" in err[0]
