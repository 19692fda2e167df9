"""Fuzzers and a hostile corpus: any input gives a clean PasticheError or a valid value.

Every notation parser (cards, card lists, moves, novel references, gifts,
:meth:`Position.quick`) and every JSON reader (positions, states, views,
records) is fed text from Hypothesis and mutations of valid input. The only
exception allowed is a :class:`~pastiche_core.data.errors.PasticheError`; a value
that parses must round-trip, a loaded state must write back to itself and a
loaded position must solve. The corpus in ``tests/data/hostile`` keeps the
inputs that escaped as something else (its ``manifest.json`` says what each
is; a case that escapes again can be marked a strict xfail there, naming the work it
waits for).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from builders import MINI, random_game
from fuzz_strategies import (
    SPECIAL_CHARACTERS,
    hostile_text,
    moves,
    mutated_documents,
    non_strings,
)
from hypothesis import event, example, given
from hypothesis import strategies as st

from pastiche_core import (
    Card,
    Game,
    Genre,
    Gift,
    Keep,
    Move,
    NovelRef,
    Publish,
    format_cards,
    parse_cards,
    solve,
)
from pastiche_core.data.errors import InvalidNotationError, PasticheError
from pastiche_core.engine.game import MAX_PLAYERS
from pastiche_core.engine.moves import NOTATION_SEATS
from pastiche_core.io.position_json import position_to_dict, query_from_dict, query_from_json
from pastiche_core.io.record import GameRecord
from pastiche_core.io.state_json import state_from_dict, state_from_json, state_to_dict
from pastiche_core.io.view_json import view_from_dict, view_from_json, view_to_dict
from pastiche_core.solver.options import Constraints
from pastiche_core.solver.position import Position

T = TypeVar("T")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples" / "positions"
HOSTILE = TESTS / "data" / "hostile"
MESSAGE_LIMIT = 600
"""The longest notation error message: inputs are quoted by a bounded prefix."""


def outcome(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """``call``'s value, or ``None`` for a PasticheError; any other exception fails the test."""
    try:
        value = call(*args, **kwargs)
    except PasticheError as error:
        event(f"refused: {type(error).__name__}")
        return None
    event("valid")
    return value


def notation_outcome(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """As :func:`outcome`, and an error message must be short and printable."""
    try:
        value = call(*args, **kwargs)
    except PasticheError as error:
        message = str(error)
        assert len(message) <= MESSAGE_LIMIT, message[:200]
        assert message.isprintable(), message[:200]
        event(f"refused: {type(error).__name__}")
        return None
    event("valid")
    return value


def test_notation_seats_are_the_seats_of_a_game() -> None:
    # moves.py spells the seats out: game.py imports it, so it cannot import MAX_PLAYERS.
    assert tuple(str(seat) for seat in range(MAX_PLAYERS)) == NOTATION_SEATS


# ----------------------------------------------------------------------
# Notation fuzzers
# ----------------------------------------------------------------------
@given(hostile_text("card"))
@example("SCI\u00b2")
@example("SCI\u0669")
@example("SCI" + "9" * 5000)
@example("SCI9\x00")
@example("\ud800")
@example("SCI9 " * 200_000)
def test_fuzz_card_parse(text: str) -> None:
    card = notation_outcome(Card.parse, text)
    if card is not None:
        assert Card.parse(str(card)) is card
        assert str(card) == text.strip().upper()


@given(hostile_text("cards"))
@example("SCI9 HOR\u00b2")
@example("SCI9 " * 200_000)
def test_fuzz_parse_cards(text: str) -> None:
    cards = notation_outcome(parse_cards, text)
    if cards is not None:
        assert parse_cards(format_cards(cards, sort=False)) == cards
        assert all(Card.parse(str(card)) is card for card in cards)


@given(hostile_text("move"))
@example("read \u00b2:kind-3 SCI9")
@example("read 99999999999999999999:kind-3 SCI9")
@example("read " + "9" * 5000 + ":kind-3 SCI9")
@example("publish kind-3 SCI7 gift \u0661:SCI9")
@example("\u212aeep MYT1 SCI9 HOR7")
@example("publish kind-3 SCI7 \ud800 cite 1:x\x00")
@example("keep " + "SCI9 " * 200_000)
def test_fuzz_move_parse(text: str) -> None:
    move = notation_outcome(Move.parse, text)
    if move is not None:
        assert Move.parse(str(move)) == move


@given(moves())
def test_every_move_round_trips(move: Move) -> None:
    assert Move.parse(str(move)) == move


@given(hostile_text("ref"))
@example("\u00b2:kind-3")
@example("99999999999999999999:kind-3")
@example("1:kind 3")
def test_fuzz_novel_ref_parse(text: str) -> None:
    ref = notation_outcome(NovelRef.parse, text)
    if ref is not None:
        assert NovelRef.parse(str(ref)) == ref
        assert 0 <= ref.owner < MAX_PLAYERS


def test_parsed_novel_references_are_kept_a_bounded_number_and_answer_as_parsed() -> None:
    # R6's references: parsing one again gives the same value; a subclass gets its own
    # instance; a bad one is still refused after good ones; strangers' texts cannot grow it.
    from pastiche_core.engine import moves

    class Tagged(NovelRef):
        __slots__ = ()

    first = NovelRef.parse("2:kind-3")
    assert NovelRef.parse("2:kind-3") == first == NovelRef(2, "kind-3")
    assert type(Tagged.parse("2:kind-3")) is Tagged
    assert type(NovelRef.parse("2:kind-3")) is NovelRef
    for index in range(3 * moves._REFS_KEPT):
        assert NovelRef.parse(f"1:n{index}") == NovelRef(1, f"n{index}")
    assert len(moves._REFS) <= moves._REFS_KEPT
    with pytest.raises(InvalidNotationError, match="invalid novel reference '7:kind-3'"):
        NovelRef.parse("7:kind-3")


@given(hostile_text("gift"))
@example("\u00b2:SCI9")
@example("9" * 5000 + ":SCI9")
def test_fuzz_gift_parse(text: str) -> None:
    gift = notation_outcome(Gift.parse, text)
    if gift is not None:
        assert Gift.parse(str(gift)) == gift
        assert 0 <= gift.to < MAX_PLAYERS


@given(
    hand=hostile_text("cards"),
    table=hostile_text("table"),
    held=st.text() | st.sampled_from(["kind-3", "kind-3 kind-3", "end-flag", "x"]),
    player=st.integers(-2, 6) | st.integers() | st.sampled_from([990, 2**63, 10**18]),
)
@example(hand="MYS7", table="\u00b2:HOR7", held="", player=0)
@example(hand="MYS7", table="9" * 5000 + ":HOR7", held="", player=0)
@example(hand="MYS7", table="\ud800=1:HOR7", held="", player=0)
@example(hand="MYS7", table="", held="", player=990)
def test_fuzz_position_quick(hand: str, table: str, held: str, player: int) -> None:
    position = notation_outcome(Position.quick, hand, table, player=player, held=held)
    if position is not None:
        again = Position.quick(
            format_cards(position.hand),
            " ".join(f"{mp.id}={mp.owner}:{mp.card}" for mp in position.masterpieces),
            player=position.player,
            held=" ".join(sorted(position.held_novels)),
        )
        assert again == position


PARSERS: list[tuple[str, Callable[[Any], object]]] = [
    ("Card.parse", Card.parse),
    ("Card.from_index", Card.from_index),
    ("Genre.from_code", Genre.from_code),
    ("parse_cards", parse_cards),
    ("Move.parse", Move.parse),
    ("NovelRef.parse", NovelRef.parse),
    ("Gift.parse", Gift.parse),
    ("Keep.of", Keep.of),
    ("Publish.of", lambda value: Publish.of(value, "SCI9")),
    ("Publish.of played", lambda value: Publish.of("kind-3", value)),
    ("Position.quick hand", Position.quick),
    ("Position.quick table", lambda value: Position.quick("", value)),
    ("Position.quick held", lambda value: Position.quick("", held=value)),
    ("Position.quick player", lambda value: Position.quick("", player=value)),
    ("Constraints no_cite", lambda value: Constraints(no_cite=value)),
    ("Constraints keep", lambda value: Constraints(keep=value)),
]


@pytest.mark.parametrize("parse", [p for _, p in PARSERS], ids=[name for name, _ in PARSERS])
@given(value=non_strings())
def test_fuzz_non_strings_are_clean_errors(parse: Callable[[Any], object], value: object) -> None:
    # Card.from_index takes ints; Constraints take collections: valid ones may pass.
    notation_outcome(parse, value)


# ----------------------------------------------------------------------
# JSON document fuzzers: mutations of valid documents
# ----------------------------------------------------------------------
@functools.cache
def games() -> tuple[Game, ...]:
    """Games at the deal, in the middle and at the end, default and custom catalogues."""
    return (
        random_game(3, 1, 0),
        random_game(4, 2, 25),
        random_game(5, 3, 90),
        random_game(3, 4, 40, MINI),
        random_game(4, 5, 3000, MINI),  # played to the end
        random_game(3, 6, 3000),  # played to the end
    )


@functools.cache
def position_documents() -> tuple[dict[str, Any], ...]:
    documents = [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted(EXAMPLES.glob("*.json"))
    ]
    for game in games():
        for player in range(game.players):
            keep = frozenset(game.hand(player)[:1])
            constraints = Constraints(keep=keep, no_cite=frozenset({player}), max_gifts=2)
            documents.append(position_to_dict(game.position(player), constraints=constraints))
    return tuple(documents)


@functools.cache
def state_documents() -> tuple[dict[str, Any], ...]:
    return tuple(state_to_dict(game) for game in games())


@functools.cache
def view_documents() -> tuple[dict[str, Any], ...]:
    return tuple(view_to_dict(game.view(p)) for game in games() for p in range(game.players))


@functools.cache
def record_documents() -> tuple[dict[str, Any], ...]:
    return tuple(GameRecord.of(game).to_dict() for game in games())


def test_the_base_documents_are_valid() -> None:
    # Mutations start from valid documents, or the fuzzers would test nothing but errors.
    assert games()[-1].is_over
    assert games()[-2].is_over
    for data in position_documents():
        position, constraints = query_from_dict(data, base_dir=EXAMPLES)
        assert query_from_dict(position_to_dict(position, constraints=constraints)) == (
            position,
            constraints,
        )
    for data in state_documents():
        assert state_to_dict(state_from_dict(data)) == data
    for data in view_documents():
        assert view_to_dict(view_from_dict(data)) == data
    for data in record_documents():
        assert GameRecord.from_dict(data).to_dict() == data


@given(st.data())
def test_fuzz_position_json(data: st.DataObject) -> None:
    # Catalogue paths are fuzzed by the corpus: a NUL byte in one still escapes (see there).
    text = data.draw(mutated_documents(position_documents()))
    found = outcome(query_from_json, text, base_dir=EXAMPLES)
    if found is None:
        return
    position, constraints = found
    assert query_from_dict(position_to_dict(position, constraints=constraints)) == found
    report = outcome(
        solve, position, constraints=None if constraints.is_empty else constraints, time_limit=5.0
    )
    assert report is None or report.position == position


@given(
    path=st.text()
    | st.text(st.sampled_from(SPECIAL_CHARACTERS))
    | st.sampled_from(["", " ", ".", "/", "..", "DEFAULT", "default\x00", "no/such.toml"])
)
@example(path="a\x00b")
def test_fuzz_position_catalogue_paths(path: str) -> None:
    data = {"player": 0, "hand": ["SCI9"], "masterpieces": [], "catalogue": path}
    outcome(query_from_json, json.dumps(data), base_dir=EXAMPLES)


@given(st.data())
def test_fuzz_state_json(data: st.DataObject) -> None:
    text = data.draw(mutated_documents(state_documents()))
    game = outcome(state_from_json, text)
    if game is not None:
        assert state_from_dict(state_to_dict(game)) == game


@given(st.data())
def test_fuzz_view_json(data: st.DataObject) -> None:
    text = data.draw(mutated_documents(view_documents()))
    view = outcome(view_from_json, text)
    if view is not None:
        assert view_from_dict(view_to_dict(view)) == view


@given(st.data())
def test_fuzz_record_json(data: st.DataObject) -> None:
    text = data.draw(mutated_documents(record_documents()))
    record = outcome(GameRecord.from_json, text)
    if record is not None:
        assert GameRecord.from_json(record.to_json()) == record
        game = outcome(record.replay)
        assert game is None or GameRecord.of(game) == record


# ----------------------------------------------------------------------
# The hostile corpus
# ----------------------------------------------------------------------
MANIFEST: dict[str, dict[str, Any]] = json.loads(
    (HOSTILE / "manifest.json").read_text(encoding="utf-8")
)
SECONDS = 5.0
"""How long one hostile input may take to be refused in this process."""
TIMEOUT = 20.0
"""How long a run in its own process may take (the interpreter starts first)."""
MARKER = "hostile-factory-ran"
"""The file that the os:system case's shell command creates if it runs."""


def test_the_manifest_lists_every_corpus_file() -> None:
    files = {path.name for path in HOSTILE.iterdir()} - {"manifest.json"}
    assert files == set(MANIFEST)
    for name, entry in MANIFEST.items():
        assert set(entry) <= {"about", "isolate", "xfail", "cli_xfail"}, name
        assert name.partition("-")[0] in {
            "position",
            "state",
            "view",
            "record",
            "catalogue",
            "moves",
            "quick",
        }


def _cases(cli: bool) -> list[Any]:
    params = []
    for name, entry in sorted(MANIFEST.items()):
        if cli and not name.startswith(("position-", "catalogue-", "view-")):
            continue
        reason = entry.get("cli_xfail" if cli else "xfail")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def _run_alone(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` run by Python in ``cwd``, its memory capped, within :data:`TIMEOUT`."""
    return subprocess.run(
        [sys.executable, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, "PYTHONPATH": str(TESTS)},
    )


@pytest.mark.parametrize("name", _cases(cli=False))
def test_hostile_corpus_is_refused_cleanly(name: str, tmp_path: Path) -> None:
    import hostile_loaders

    path = HOSTILE / name
    if MANIFEST[name].get("isolate"):
        # Code named in data may exit or abort, and device files never end: another process.
        done = _run_alone([str(TESTS / "hostile_loaders.py"), str(path)], tmp_path)
        assert done.stdout.strip() == "clean", (done.returncode, done.stdout, done.stderr[-500:])
    else:
        start = time.monotonic()
        assert hostile_loaders.outcome(path) == "clean"
        assert time.monotonic() - start < SECONDS
    assert not (tmp_path / MARKER).exists(), "a command named in the data ran"


_LIMITED_CLI = (
    "import resource, runpy, sys\n"
    "resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
    "resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
    "sys.argv = ['pastiche', *sys.argv[1:]]\n"
    "runpy.run_module('pastiche_core', run_name='__main__')\n"
)


def _cli_argv(path: Path) -> list[str]:
    import hostile_loaders

    script = _LIMITED_CLI.format(limit=hostile_loaders.MEMORY_LIMIT)
    if path.name.startswith("catalogue-"):
        return [
            "-c",
            script,
            "simulate",
            "--players",
            "3",
            "--games",
            "1",
            "--catalogue",
            str(path),
        ]
    if path.name.startswith("view-"):
        return ["-c", script, "hint", str(path)]
    return ["-c", script, "publishes", str(path)]


def _assert_one_error_line(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr[-500:]
    assert done.stderr.startswith("pastiche: error: ")
    assert done.stderr.rstrip("\n").isprintable()


@pytest.mark.parametrize("name", _cases(cli=True))
def test_hostile_corpus_through_the_cli(name: str, tmp_path: Path) -> None:
    done = _run_alone(_cli_argv(HOSTILE / name), tmp_path)
    _assert_one_error_line(done)
    assert not (tmp_path / MARKER).exists(), "a command named in the data ran"


DEEP = 100_000


def _deep(prefix: str) -> str:
    return prefix + "[" * DEEP + "]" * DEEP + "}"


DEEP_DOCUMENTS: dict[str, tuple[str, Callable[[str], object]]] = {
    "position": ('{"player": 0, "hand": [], "masterpieces": ', query_from_json),
    "state": ('{"format": "pastiche-state", "hands": ', state_from_json),
    "view": ('{"format": "pastiche-view", "tables": ', view_from_json),
    "record": ('{"format": "pastiche-record", "moves": ', GameRecord.from_json),
}


@pytest.mark.parametrize("kind", DEEP_DOCUMENTS)
def test_100000_deep_nesting_is_refused_cleanly(kind: str) -> None:
    prefix, load = DEEP_DOCUMENTS[kind]
    start = time.monotonic()
    with pytest.raises(PasticheError, match=r"nested deeper than"):
        load(_deep(prefix))
    assert time.monotonic() - start < SECONDS


def test_100000_deep_nesting_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(_deep(DEEP_DOCUMENTS["position"][0]), encoding="utf-8")
    _assert_one_error_line(_run_alone(_cli_argv(path), tmp_path))


@pytest.mark.parametrize("character", SPECIAL_CHARACTERS[:6], ids=lambda ch: f"U+{ord(ch):04X}")
def test_look_alike_digits_are_clean_errors_everywhere(character: str) -> None:
    # The first hostile-input review's finding, for each digit that is not ASCII.
    for call in (
        lambda: Move.parse(f"read {character}:kind-3 SCI9"),
        lambda: Move.parse(f"publish kind-3 SCI7 gift {character}:SCI9"),
        lambda: Position.quick("MYS7", table=f"{character}:HOR7"),
        lambda: Card.parse(f"SCI{character}"),
    ):
        with pytest.raises(PasticheError):
            call()
