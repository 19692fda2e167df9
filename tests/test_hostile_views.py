"""Hostile player views: each is refused up front with one clean error, or answered (R16).

A view is untrusted input. The named cases are views a hostile client sent:
a keep-phase hand far beyond its deal (R10), a supply without a Novel's key
(R6), a table Novel missing from the embedded catalogue (R2, R3), a keep phase
naming a seat with no move (R10). Each must be an
:class:`~pastiche_core.data.errors.InvalidViewError` naming its JSON path, from the
library and from the command line (exit 2, one line on stderr), and never a
``KeyError``, an ``IndexError``, a plain ``ValueError`` or a traceback. The
fuzzer mutates real views (made by playing random games) where the checks
live: counts, phases, catalogues, supplies and histories.
"""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pastiche_core import (
    DECK,
    Catalogue,
    Game,
    InvalidStateError,
    InvalidViewError,
    PasticheError,
    Phase,
    solve,
)
from pastiche_core.ai.analyse import analyse
from pastiche_core.ai.determinize import determinize
from pastiche_core.cli import main
from pastiche_core.engine.game_internals import assemble, insides
from pastiche_core.io import view_from_dict, view_from_json, view_to_dict

# ----------------------------------------------------------------------
# Views to start from
# ----------------------------------------------------------------------


def played_view(players: int, seed: int, moves: int, viewer: int | None) -> dict[str, Any]:
    """The view document of ``viewer`` (``None``: the seat to move) after ``moves`` random moves."""
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is Phase.OVER:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return view_to_dict(game.view(game.to_move if viewer is None else viewer % players))


def hidden_cards(data: dict[str, Any]) -> list[str]:
    """The cards a view document does not show, in card order."""
    seen = set(data["hand"]) | {card for card in data["discard"] if card is not None}
    seen |= {card for table in data["tables"] for novel in table for card in novel["cards"]}
    seen |= set(data["pending"] or ())
    if data["flag"] is not None:
        seen.add(data["flag"]["card"])
    return [str(card) for card in DECK if str(card) not in seen]


def swollen_keep_view(size: int) -> dict[str, Any]:
    """A keep-phase view of seat 2 (dealt 4 cards, R10) whose hand holds ``size`` cards.

    The extra cards come from the deck, so the 49 cards still add up (R1): only
    the hand size against the phase gives it away.
    """
    data = view_to_dict(Game(players=5, seed=11).view(2))
    extra = size - len(data["hand"])
    data["hand"] += hidden_cards(data)[:extra]
    data["hand_sizes"][2] = size
    data["deck_size"] -= extra
    return data


def view_with_a_table() -> dict[str, Any]:
    """A view of a random game that has a novel on a table."""
    for seed in range(200):
        data = played_view(3, seed, 60, seed)
        if any(data["tables"]):
            return data
    raise AssertionError("no random game published within 60 moves")


def refused(data: object, path: str) -> InvalidViewError:
    """The error refusing ``data``, checked to be a clean one starting with ``path``."""
    with pytest.raises(InvalidViewError) as info:
        view_from_dict(data)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message
    return info.value


# ----------------------------------------------------------------------
# The named cases
# ----------------------------------------------------------------------
@pytest.mark.parametrize("size", [12, 10])
def test_r10_a_swollen_keep_hand_is_refused_up_front(size: int) -> None:
    data = swollen_keep_view(size)
    start = time.perf_counter()
    error = refused(data, "$.hand")
    assert time.perf_counter() - start < 0.5
    assert f"holds the 4 cards dealt to it (R10), got {size}" in str(error)
    assert isinstance(error, InvalidStateError)  # the state reader's family, caught alike


@pytest.mark.parametrize("command", ["hint", "publishes"])
@pytest.mark.parametrize("size", [12, 10])
def test_r10_the_cli_refuses_a_swollen_keep_hand_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, size: int
) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(swollen_keep_view(size)), encoding="utf-8")
    start = time.perf_counter()
    status = main([command, str(path)])
    assert time.perf_counter() - start < 1.0
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("pastiche: error: "), captured.err
    assert "Traceback" not in captured.err


def test_r6_a_supply_without_a_novels_key_is_refused() -> None:
    data = view_with_a_table()
    del data["supply"]["pairs-3"]
    refused(data, "$.supply.pairs-3")
    data = view_with_a_table()
    data["supply"]["kind-9"] = 1
    refused(data, "$.supply.kind-9")


def test_r2_a_table_novel_missing_from_the_embedded_catalogue_is_refused() -> None:
    data = view_with_a_table()
    seat = next(seat for seat, table in enumerate(data["tables"]) if table)
    novel = data["tables"][seat][0]["novel"]
    catalogue = Catalogue.default().to_dict()
    catalogue["novels"] = [spec for spec in catalogue["novels"] if spec["id"] != novel]
    data["catalogue"] = catalogue
    error = refused(data, f"$.tables[{seat}][0].novel")
    assert novel in str(error)


@pytest.mark.parametrize("seat", [0, 1])
def test_r10_a_keep_phase_naming_a_seat_with_no_move_is_refused(seat: int) -> None:
    data = view_to_dict(Game(players=4, seed=5).view(2))
    data["to_move"] = seat
    refused(data, "$.to_move")


def test_r10_a_keep_phase_after_the_keeps_is_refused() -> None:
    game = Game(players=3, seed=7)
    game.apply(game.legal_moves[0])
    data = view_to_dict(game.view(0))
    data["phase"] = "keep"
    data["to_move"] = 2
    with pytest.raises(InvalidViewError):
        view_from_dict(data)


def test_r11_hand_sizes_must_follow_a_history_from_the_deal() -> None:
    data = played_view(4, 3, 12, 1)
    assert data["phase"] == "action"
    assert len(data["history"]) > 4
    # Two seats swap a card's worth of hand: the 49 still add up, the history does not.
    sizes = data["hand_sizes"]
    give, take = (0, 2) if data["player"] not in (0, 2) else (1, 3)
    sizes[give] += 1
    sizes[take] -= 1
    error = refused(data, f"$.hand_sizes[{min(give, take)}]")
    assert "the history from the deal leaves seat" in str(error)


def test_r10_the_keeps_open_a_history_from_the_deal() -> None:
    data = played_view(3, 4, 8, 0)
    data["history"].insert(3, {"player": 1, "move": "keep ? ? ?"})
    error = refused(data, "$.history[3]")
    assert "setup keeps" in str(error)


def test_r13_scores_are_the_visible_masterpieces() -> None:
    data = played_view(3, 1, 20, 0)
    data["scores"][1] += 1
    refused(data, "$.scores[1]")


def test_every_real_view_is_accepted() -> None:
    for seed in range(4):
        players = 3 + seed % 3
        game = Game(players=players, seed=seed)
        rng = random.Random(seed)
        while game.phase is not Phase.OVER:
            for viewer in range(players):
                view = game.view(viewer)
                assert view_from_dict(view_to_dict(view)) == view
            legal = game.legal_moves
            game.apply(legal[rng.randrange(len(legal))])


def writes_only_game(players: int, seed: int) -> list[Game]:
    """Every position of a game where seats only Write (take before draw) until all pass.

    Cards then run out with nothing published: the last Write takes the one card
    left (R11), and every seat passing ends the game (R11).
    """
    game = Game(players=players, seed=seed)
    positions = [game.copy()]
    while game.phase is not Phase.OVER:
        legal = game.legal_moves
        keywords = [legal[i].keyword for i in range(min(len(legal), 2))]
        writes = [keywords.index(k) for k in ("take", "draw") if k in keywords]
        # Writes come first in the legal moves, a pass last (after any publish).
        game.apply(legal[writes[0] if writes else -1])
        positions.append(game.copy())
    return positions


def test_r11_views_of_a_game_ending_all_pass_are_accepted_and_counted() -> None:
    positions = writes_only_game(4, 3)
    final = positions[-1]
    assert insides(final).end_reason == "all-pass"
    assert "draw" in [str(move) for move in final.history[-5:]]  # the one card left (R11)
    for game in positions:
        for viewer in range(4):
            view = game.view(viewer)
            assert view_from_dict(view_to_dict(view)) == view
    data = view_to_dict(positions[-2].view(1))
    assert data["passes"] == 3
    for field, by in (("turn", 4), ("turn", -4), ("passes", -1)):
        tampered = copy.deepcopy(data)
        tampered[field] += by
        with pytest.raises(InvalidViewError, match=rf"^\$\.{field}: "):
            view_from_dict(tampered)


def test_r11_a_history_from_the_deal_names_the_seat_whose_turn_it_is() -> None:
    data = played_view(3, 5, 10, 0)
    entry = data["history"][4]
    entry["player"] = (entry["player"] + 1) % 3
    refused(data, "$.history[4].player")
    data = played_view(3, 5, 10, 0)
    data["history"].insert(3, {"player": 0, "move": "choose ?"})
    with pytest.raises(InvalidViewError, match=r"^\$\.history\[3\]"):
        view_from_dict(data)


def test_a_broken_document_is_an_invalid_view() -> None:
    with pytest.raises(InvalidViewError, match=r"^\$: not valid JSON"):
        view_from_json("{")
    with pytest.raises(InvalidViewError, match=r"^\$: expected a JSON object"):
        view_from_dict([])  # type: ignore[arg-type]


# ----------------------------------------------------------------------
# Counting before listing (R10, R15)
# ----------------------------------------------------------------------
def test_r15_keeps_of_a_crowded_hand_are_counted_not_listed() -> None:
    game = Game(players=3, seed=2)
    cards = list(DECK)
    deal = [set(cards[:3]), set(cards[3:6]), set(cards[6:27])]
    crowded = assemble(
        Game,
        catalogue=game.catalogue,
        players=3,
        seed=0,
        rng=insides(game).rng_copy(),
        deck=cards[27:],
        discard=[],
        face_down=set(),
        hands=deal,
        tables=[{}, {}, {}],
        supply=dict(game.supply),
        flag=None,
        phase=Phase.KEEP,
        to_move=2,
        current=0,
        pending=None,
        turn=0,
        passes=0,
        trigger=None,
        turns_left=None,
        end_reason=None,
    )
    start = time.perf_counter()
    legal = crowded.legal_moves
    count = len(legal)
    last = legal[count - 1]
    assert time.perf_counter() - start < 0.05
    assert count == 1330 * 6_402_373_705_728_000  # C(21, 3) * 18!
    assert last in legal
    assert str(last).startswith("keep ")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r15_keep_counts_and_indexes_match_the_listing(players: int) -> None:
    game = Game(players=players, seed=players)
    while game.phase is Phase.KEEP:
        legal = game.legal_moves
        listed = list(legal)
        assert len(legal) == len(listed) == len(set(map(str, listed)))
        assert [legal[i] for i in range(len(legal))] == listed
        game.apply(listed[-1])


# ----------------------------------------------------------------------
# The fuzzer
# ----------------------------------------------------------------------
_NOTATIONS = (
    "keep ? ? ?",
    "keep ? ? ? discard ? ?",
    "draw",
    "choose ?",
    "take",
    "pass",
    "read 1:kind-3 SCI7",
    "publish kind-3 MYT7 LOV7 SCI7",
    "publish kind-3 MYT7 cite 1:pairs-3 gift 1:?",
    "flag MYT1",
)


def _mutate(data: dict[str, Any], source: st.DataObject) -> None:
    """One mutation aimed at what a view check reads."""
    players = data["players"]
    seat = source.draw(st.integers(0, players - 1), label="seat")
    kind = source.draw(
        st.sampled_from(
            [
                "swell",
                "size",
                "deck",
                "phase",
                "to_move",
                "counters",
                "supply-drop",
                "supply-count",
                "supply-extra",
                "catalogue",
                "history-drop",
                "history-seat",
                "history-move",
                "history-dup",
                "table",
                "discard",
                "pending",
                "scores",
            ]
        ),
        label="mutation",
    )
    hidden = hidden_cards(data)
    if kind == "swell" and hidden:
        extra = source.draw(st.integers(1, min(len(hidden), 20)), label="extra")
        data["hand"] += hidden[:extra]
        data["hand_sizes"][data["player"]] += extra
        if source.draw(st.booleans(), label="balance"):
            data["deck_size"] -= extra
    elif kind == "size":
        by = source.draw(st.integers(-3, 3), label="by")
        data["hand_sizes"][seat] += by
        if source.draw(st.booleans(), label="balance"):
            data["deck_size"] -= by
    elif kind == "deck":
        data["deck_size"] += source.draw(st.integers(-5, 5), label="by")
    elif kind == "phase":
        data["phase"] = source.draw(
            st.sampled_from([phase.value for phase in Phase]), label="phase"
        )
        if source.draw(st.booleans(), label="mine"):
            data["to_move"] = data["current"] = data["player"]
    elif kind == "to_move":
        data["to_move"] = seat
    elif kind == "counters":
        field = source.draw(st.sampled_from(["turn", "passes", "current", "turns_left", "trigger"]))
        data[field] = source.draw(st.none() | st.integers(-1, 12), label="value")
    elif kind == "supply-drop":
        del data["supply"][source.draw(st.sampled_from(sorted(data["supply"])), label="novel")]
    elif kind == "supply-count":
        novel = source.draw(st.sampled_from(sorted(data["supply"])), label="novel")
        data["supply"][novel] += source.draw(st.integers(-2, 2), label="by")
    elif kind == "supply-extra":
        data["supply"][source.draw(st.sampled_from(["kind-9", "end-flag", ""]))] = 1
    elif kind == "catalogue":
        catalogue = Catalogue.default().to_dict()
        drop = source.draw(st.integers(0, len(catalogue["novels"]) - 1), label="drop")
        change = source.draw(st.sampled_from(["remove", "copies", "break"]), label="change")
        if change == "remove":
            del catalogue["novels"][drop]
        elif change == "copies":
            catalogue["novels"][drop]["copies"] = source.draw(st.integers(1, 6), label="copies")
        else:
            del catalogue["novels"][drop]["points"]
        data["catalogue"] = catalogue

    elif kind.startswith("history") and data["history"]:
        history = data["history"]
        at = source.draw(st.integers(0, len(history) - 1), label="at")
        if kind == "history-drop":
            del history[at]
        elif kind == "history-seat":
            history[at]["player"] = seat
        elif kind == "history-move":
            history[at]["move"] = source.draw(st.sampled_from(_NOTATIONS), label="move")
        else:
            history.insert(at, copy.deepcopy(history[at]))
    elif kind == "table" and any(data["tables"]):
        owner = next(p for p, table in enumerate(data["tables"]) if table)
        novel = data["tables"][owner][0]
        if source.draw(st.booleans(), label="to-hand"):
            data["hand"].append(novel["cards"].pop())
            data["hand_sizes"][data["player"]] += 1
            if not novel["cards"]:
                del data["tables"][owner][0]
        else:
            data["tables"][seat].append(copy.deepcopy(novel))
            del data["tables"][owner][0]
    elif kind == "discard":
        if data["discard"] and source.draw(st.booleans(), label="pop"):
            data["discard"].pop()
        else:
            data["discard"].append(None)
        if source.draw(st.booleans(), label="balance"):
            data["deck_size"] += 1 if len(data["discard"]) else -1
    elif kind == "pending" and len(hidden) >= 2:
        data["pending"] = hidden[:2]
    elif kind == "scores":
        data["scores"][seat] += source.draw(st.integers(-2, 2), label="by")


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    moves=st.sampled_from([0, 1, 2, 3, 8, 25, 60]),
    viewer=st.none() | st.integers(0, 4),
    data=st.data(),
)
def test_mutated_views_are_answered_or_refused_cleanly(
    players: int, seed: int, moves: int, viewer: int | None, data: st.DataObject
) -> None:
    document = played_view(players, seed, moves, viewer)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        _mutate(document, data)
    if data.draw(st.integers(0, 7), label="retype") == 0:  # last: the mutations read the fields
        field = data.draw(st.sampled_from(sorted(document)), label="field")
        document[field] = data.draw(
            st.sampled_from([None, "x", -1, 10**6, [], {}, [None], True]), label="junk"
        )
    try:
        view = view_from_dict(document)
    except InvalidViewError as error:
        refusal = str(error)
    else:
        refusal = ""
    if refusal:
        assert refusal.startswith("$"), refusal
        event("refused")
        return
    event("accepted")
    # Accepted: everything that plays from a view answers, or refuses with our errors.
    try:
        analysis = analyse(view, simulations=4, budget_ms=2000)
        event("ranked moves" if analysis.moves else "nothing to rank")
        if view.hand:
            sample = determinize(view, random.Random(seed))
            solve(sample.position(view.player), max_options=50, time_limit=0.5)
    except PasticheError:
        pass
