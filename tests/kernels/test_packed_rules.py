"""Games by house rules are the same compiled and pure, decision by decision (R10, R12, R15).

The C reads every rule number from the packed rules Python builds
(:func:`pastiche_core.engine.layout.packed_rules`), so a game by other rules - an End
Flag threshold of 10 or 25, a keep of 2 (every seat then keeps, seats 0 and 1
included), other deal sizes, fewer seats - must be played by the game kernel
(``random_game``, with ``play_game``'s bots) and by the episodes of the vector
environment exactly as the engine plays it. A test also reads the C sources:
no copy of a rule number may come back into them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support import agree, twin
from test_episodes import Pair, run
from test_game import GAME, game_args

from pastiche_core import RULEBOOK, Catalogue, Rules
from pastiche_core.bots.play import play_game, random_game
from pastiche_core.engine.game_internals import insides
from pastiche_core.rl.single import Settings

pytestmark = pytest.mark.kernels

HOUSE_RULES = {
    "threshold 10": Rules(end_threshold=10),
    "threshold 25": Rules(end_threshold=25),
    "keep 2": Rules(keep_size=2),
    "keep 4, deals 4 4 5 5 6": Rules(keep_size=4, deal_sizes=(4, 4, 5, 5, 6)),
    "keep 1, deals 2 to 6": Rules(keep_size=1, deal_sizes=(2, 3, 4, 5, 6), end_threshold=12),
    "deals 5 each, none keeps": Rules(keep_size=5, deal_sizes=(5, 5, 5, 5, 5)),
}
"""House rules, by what they change (R10, R12)."""

CSRC = Path(__file__).resolve().parents[2] / "src" / "pastiche_core" / "engine" / "csrc"


@pytest.mark.parametrize("name", list(HOUSE_RULES))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_by_house_rules_agree_decision_by_decision_r10_r12_r15(
    name: str, players: int
) -> None:
    rules = HOUSE_RULES[name]
    for seed in range(3):
        summary, steps = agree(GAME, *game_args(players, seed, rules=rules))
        # The summary is the one of the engine's own game by these rules.
        game = play_game(players, seed, rules=rules)
        assert summary[1] == len(game.history) == len(steps)
        assert summary[2] == game.scores()


def test_the_house_rules_change_the_games_the_kernel_plays_r10_r12() -> None:
    # Without the packed rules reaching the C, these would be the rulebook's games.
    base = twin(GAME)(*game_args(4, 2))
    for name, rules in HOUSE_RULES.items():
        assert twin(GAME)(*game_args(4, 2, rules=rules)) != base, name


def test_a_keep_of_two_makes_seats_0_and_1_discard_r10_r15() -> None:
    _, steps = agree(GAME, *game_args(3, 4, rules=Rules(keep_size=2)))
    # Seat 0 keeps 2 of 3 (3 choices), seat 1 as well, seat 2 2 of 4 in both orders (12).
    assert [count for count, _ in steps[:3]] == [3, 3, 12]
    rulebook = twin(GAME)(*game_args(3, 4))[1]
    assert rulebook[0][0] == 4  # by the rulebook seat 2 keeps 3 of 4 first


def test_the_threshold_is_the_rules_r12() -> None:
    for threshold in (10, 25):
        rules = Rules(end_threshold=threshold)
        for seed in range(4):
            game = play_game(4, seed, rules=rules)
            inside = insides(game)
            if inside.trigger is not None:
                points = inside.masterpiece_points(inside.trigger)
                assert points >= threshold
            summary = random_game(4, seed, rules=rules)
            assert summary.scores == game.scores()


def test_fewer_seats_by_house_rules_r10() -> None:
    rules = Rules(min_players=3, max_players=4)
    agree(GAME, *game_args(4, 1, rules=rules))
    with pytest.raises(ValueError, match="players must be from 3 to 4"):
        random_game(5, 1, rules=rules)
    args = list(game_args(3, 1, rules=rules))
    with pytest.raises(OverflowError, match="beyond the compiled kernel's range"):
        twin(GAME)(*args[:7], 5, args[8], (1, 2, 3, 4, 5), *args[10:])


@pytest.mark.parametrize(
    "packed",
    [
        (0, 5, 3, 15, 3, 3, 4, 4, 5),  # no fewest seats
        (3, 5, 0, 15, 3, 3, 4, 4, 5),  # keep nothing
        (3, 5, 3, 0, 3, 3, 4, 4, 5),  # no threshold
        (3, 5, 3, 10**6 + 1, 3, 3, 4, 4, 5),
        (4, 3, 3, 15, 3, 3, 4, 4, 5),  # fewer most seats than fewest
        (3, 6, 3, 15, 3, 3, 4, 4, 5),  # more seats than the game holds
        (3, 5, 4, 15, 3, 3, 4, 4, 5),  # a seat dealt fewer than it keeps
        (3, 4, 3, 15, 3, 3, 4, 4, 5),  # a deal for a seat beyond the most
        (3, 5, 3, 15, 10, 10, 10, 10, 10),  # more than the deck leaves a Write
    ],
)
def test_packed_rules_no_game_is_played_by_are_refused(packed: tuple[int, ...]) -> None:
    args = list(game_args(3, 1))
    with pytest.raises(OverflowError, match="beyond the compiled kernel's range"):
        twin(GAME)(*args[:6], packed, *args[7:])


@pytest.mark.parametrize(
    "packed",
    [
        (1, 5, 3, 15, 3, 3, 4, 4, 5),  # one seat at the fewest
        (3, 3, 3, 15, 3, 3, 4, 0, 0),  # exactly three seats
        (3, 5, 1, 15, 3, 3, 4, 4, 5),  # keep one card
        (3, 5, 3, 1, 3, 3, 4, 4, 5),  # a threshold of one point
    ],
)
def test_packed_rules_at_their_edges_are_played(packed: tuple[int, ...]) -> None:
    """The kernel's own bounds on the packed rules stop at the edges (mutants of them too)."""
    args = list(game_args(3, 1))
    summary, _ = twin(GAME)(*args[:6], packed, *args[7:])
    assert summary[-1] in ("countdown", "all-pass")  # played to its end


def test_malformed_packed_rules_are_errors() -> None:
    args = list(game_args(3, 1))
    with pytest.raises(ValueError, match="expected 9 integers of packed rules"):
        twin(GAME)(*args[:6], (3, 5, 3, 15), *args[7:])
    with pytest.raises(TypeError):
        twin(GAME)(*args[:6], 15, *args[7:])


@pytest.mark.parametrize(
    ("name", "players", "seat"),
    [
        ("threshold 10", 3, None),
        ("keep 2", 4, 0),
        ("threshold 25", 5, 1),
        ("keep 1, deals 2 to 6", 5, 4),
    ],
)
def test_the_vector_environments_games_by_house_rules_agree_call_by_call_r10_r12(
    name: str, players: int, seat: int | None
) -> None:
    rules = HOUSE_RULES[name]
    settings = Settings.of(players, opponents="random", seat=seat, rules=rules)
    pair = Pair(settings, 4)
    run(pair, 600, np.random.default_rng(players), False)
    expected = {"draw", "play"}
    if seat is None or seat in rules.keepers(players):
        expected.add("discard")  # R10: the learner keeps at setup
    assert expected <= pair.seen, expected - pair.seen


def test_the_vector_environment_plays_its_catalogues_rules() -> None:
    house = Catalogue.from_dict(
        {**Catalogue.default().to_dict(), "name": "house", "rules": {"end_threshold": 10}}
    )
    settings = Settings.of(3, house, opponents="random", seat=0)
    assert settings.rules == Rules(end_threshold=10)
    pair = Pair(settings, 2)
    run(pair, 200, np.random.default_rng(1), False)


def _c_sources() -> dict[str, str]:
    """Every C source and header, its comments left out (a comment may name a rule), but
    layout.h: its numbers are the packed layout's positions (tests/test_packed_layout.py)."""
    sources = {}
    for path in sorted(CSRC.glob("*.[ch]")):
        if path.name == "layout.h":
            continue
        text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.DOTALL)
        sources[path.name] = re.sub(r"//[^\n]*", " ", text)
    return sources


OLD_FORMS = (
    r"\bGM_KEEP\b",
    r"\bGM_THRESHOLD\b",
    r"\bdeal_sizes\b",
    r"\bDEAL_SIZES\b",
    r"#define\s+\w*(?:KEEP|THRESHOLD|DEAL)\w*\s+\d",  # R10, R12 as constants
    r"(?<![<>])[<>=]=?\s*15\b",  # a comparison or assignment, not a shift
    r"\{\s*3,\s*3,\s*4,\s*4,\s*5\s*\}",  # the deals (R10)
    r"players\s*[<>]=?\s*[35]\b",  # the seats (R10)
    r"to_move\s*=\s*2\b",  # the first seat to keep (R10)
)
"""A rule number copied into C, in the forms it had before the rules were packed."""


def rule_numbers_in(code: str) -> list[str]:
    """The old forms of :data:`OLD_FORMS` that ``code`` holds."""
    return [form for form in OLD_FORMS if re.search(form, code)]


def test_no_rule_number_is_written_in_c_r10_r12() -> None:
    sources = _c_sources()
    assert {"game.c", "game.h", "episode.c", "observe.c"} <= set(sources)
    for name, code in sources.items():
        assert rule_numbers_in(code) == [], name


@pytest.mark.parametrize(
    "line",
    [
        "#define GM_KEEP 3",
        "#define GM_THRESHOLD 15",
        "if (seat_points(g, changed) >= 15) {",
        "static const int deal_sizes[5] = {3, 3, 4, 4, 5};",
        "if (players < 3 || players > 5) {",
        "g->to_move = 2;",
    ],
)
def test_the_check_of_the_c_sources_finds_each_old_form(line: str) -> None:
    assert rule_numbers_in(line)


def test_the_rulebooks_packed_rules_are_the_defaults() -> None:
    args: list[Any] = list(game_args(4, 3))
    assert args[5] is RULEBOOK
    assert args[6] == (3, 5, 3, 15, 3, 3, 4, 4, 5)
