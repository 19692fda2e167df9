"""The game kernel plays the engine's games, decision by decision (R4-R15).

``random_game`` is :func:`pastiche_core.bots.play._random_game_py`: ``play_game``
between :class:`~pastiche_core.bots.play.RandomBot` players on
:class:`~pastiche_core.engine.game.Game`, summarised. Its twin (``csrc/game.c``) keeps
the game packed and draws the same indexes with the same generators. With
``trace`` both answer every decision's count of legal moves and the index
drawn, so a twin that counts one move more or applies one differently parts
from the rule at that decision, not only in the final scores. The games are
aimed at the rules' corners (each aim checked on the engine's own game): a
reshuffle and a single card left at a draw (R11), a Read that leaves a
Masterpiece (R11), gifts (R5), the End Flag taken by a seat whose turn it is
not and lost for want of a card (R12), both endings (R11, R12), a shared win and
a tie broken by fewer Masterpieces (R13), and five seats' ordered discards
(R15); then random seeds, seat counts and a catalogue of other copies and
points. Ranges are tested at their edges.

The C homes of rulings compared here (their tags name this file): ``gm_deal``
and ``splitmix_shuffle`` (R10, R14), ``gm_keep`` (R15), ``draw_one`` (R11),
``count_reads`` and ``gm_count`` (R11), ``gm_publish`` (R5, R7), ``gm_usable``
(R6), ``end_turn`` (R11, R12) and ``gm_winners`` (R13).
"""

from __future__ import annotations

import array
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from support import agree, leaked, starved, twin

from pastiche_core import RULEBOOK, Catalogue, Game, NovelSpec, Rules
from pastiche_core.bots.play import (
    DEFAULT_MAX_DECISIONS,
    DecisionLimitError,
    RandomBot,
    _random_game,
    derive_seed,
    packed_catalogue,
    random_game,
)
from pastiche_core.bots.simulate import simulate
from pastiche_core.data.patterns import OfAKind, Pairs, Straight, Total
from pastiche_core.data.rng import GameRng
from pastiche_core.engine._kernels import Kernel, switched_off
from pastiche_core.engine.game import Phase
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.layout import packed_rules
from pastiche_core.engine.moves import Draw, Keep, Publish, Read

pytestmark = pytest.mark.kernels

GAME: Kernel[..., Any] = _random_game


def game_args(
    players: int,
    seed: int,
    catalogue: Catalogue | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    trace: bool = True,
    rules: Rules = RULEBOOK,
) -> tuple[Any, ...]:
    """The kernel's arguments for ``play_game(players, seed, rules=rules)`` with its default
    bots."""
    cat = catalogue if catalogue is not None else Catalogue.default()
    bot_seeds = tuple(derive_seed(seed, "bot", seat) for seat in range(players))
    packed = packed_rules(rules)
    return (
        cat,
        *packed_catalogue(cat),
        rules,
        packed,
        players,
        seed,
        bot_seeds,
        max_decisions,
        trace,
    )


def corners(players: int, seed: int, catalogue: Catalogue | None = None) -> set[str]:
    """The rules' corners the engine's game of ``players`` and ``seed`` reaches."""
    game = Game(players=players, seed=seed, catalogue=catalogue)
    bots = [RandomBot(derive_seed(seed, "bot", seat)) for seat in range(players)]
    found: set[str] = set()
    while not game.is_over:
        if game.phase is Phase.FLAG and game.to_move != insides(game).current:
            found.add("flag to another seat")
        move = bots[game.to_move].choose(game.view(game.to_move), game.legal_moves)
        if isinstance(move, Draw) and game.deck_size + len(game.discard) == 1:
            found.add("one card left")
        elif isinstance(move, Draw) and game.deck_size < 2:
            found.add("reshuffle")
        elif isinstance(move, Publish) and move.gifts:
            found.add("gifts")
        elif isinstance(move, Read):
            novel = insides(game).novel(move.source)
            if novel is not None and len(novel.cards) == 2:
                found.add("read to a masterpiece")
        elif isinstance(move, Keep) and move.discard and len(move.discard) >= 2:
            found.add("ordered discards")
        game.apply(move)
    result = game.result
    assert result is not None
    found.add(result.reason)
    if insides(game).flag_lost:
        found.add("flag lost")
    best = max(result.scores)
    if len(result.winners) > 1:
        found.add("shared win")
    elif result.scores.count(best) > 1:
        found.add("tie broken")
    return found


AIMED = [
    ("reshuffle", 3, 11),  # R11
    ("one card left", 4, 251),  # R11
    ("read to a masterpiece", 3, 0),  # R11
    ("gifts", 3, 2),  # R5
    ("flag to another seat", 3, 4),  # R12
    ("flag lost", 3, 1),  # R12
    ("all-pass", 5, 75),  # R11
    ("countdown", 4, 0),  # R12
    ("shared win", 3, 20),  # R13
    ("tie broken", 3, 26),  # R13
    ("ordered discards", 5, 2),  # R15
]


@pytest.mark.parametrize(("corner", "players", "seed"), AIMED)
def test_games_at_the_rules_corners_agree_decision_by_decision_r5_r11_r12_r13_r15(
    corner: str, players: int, seed: int
) -> None:
    assert corner in corners(players, seed)  # the aim holds on the engine's game
    summary, steps = agree(GAME, *game_args(players, seed))
    assert summary[1] == len(steps)


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(3, 5))
def test_random_games_agree_decision_by_decision_r10_r11_r12(seed: int, players: int) -> None:
    agree(GAME, *game_args(players, seed))


@pytest.mark.parametrize("bot_seeds", [(0, 1, 2), (2**32 - 1, 2**32, 2**64 - 1)])
def test_bot_seeds_of_one_word_and_two_agree(bot_seeds: tuple[int, ...]) -> None:
    # random.Random(seed) keys its generator with the seed's 32-bit words: one or two.
    args = list(game_args(3, 5))
    agree(GAME, *args[:9], bot_seeds, *args[10:])


MASK = 2**64 - 1
GAMMA = 0x9E3779B97F4A7C15


def unmix(z: int) -> int:
    """The SplitMix64 state whose next output is ``z`` (its finalizer inverted)."""

    def unshift(y: int, shift: int) -> int:
        x = y
        for _ in range(64 // shift + 1):
            x = y ^ (x >> shift)
        return x & MASK

    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 2**64)) & MASK
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & MASK
    z = unshift(z, 30)
    return (z - GAMMA) & MASK


def test_a_draw_at_the_rejection_boundary_is_drawn_again_r14() -> None:
    # GameRng.below(49) redraws a value at or past 2^64 - (2^64 mod 49); a game seeded so
    # that its first shuffle draw is exactly that value deals as the engine deals.
    seed = unmix(2**64 - 2**64 % 49)
    assert (GameRng(seed).next_u64()) == 2**64 - 2**64 % 49
    for players in (3, 5):
        agree(GAME, *game_args(players, seed))


def other_catalogue(flag_points: int = 9) -> Catalogue:
    """A catalogue of other patterns, copies and points, a flag of other points, each
    publishable Novel at another position among the specs (the flag first)."""
    flag = Catalogue.default().end_flag
    specs = [
        NovelSpec(id="pairs-1", name="Pair", pattern=Pairs(1), points=0, copies=3),
        NovelSpec(id="kind-2", name="Two", pattern=OfAKind(2), points=2, copies=1),
        NovelSpec(id="run-3", name="Run", pattern=Straight(3), points=4, copies=2),
        NovelSpec(id="total-2", name="Sum", pattern=Total(2, 20), points=7, copies=1),
    ]
    other_flag = NovelSpec(id=flag.id, name=flag.name, pattern=None, points=flag_points, copies=1)
    return Catalogue([other_flag, *specs], name="other")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_catalogue_of_other_patterns_copies_points_and_positions_r6_r12_r13(
    players: int,
) -> None:
    catalogue = other_catalogue()
    for seed in range(6):
        summary, _ = agree(GAME, *game_args(players, seed, catalogue))
        assert summary == random_game(players, seed, catalogue)


def test_the_summary_is_the_engines_game() -> None:
    from pastiche_core.bots.play import play_game

    for seed in range(5):
        game = play_game(players=4, seed=seed)
        summary = random_game(players=4, seed=seed)
        assert summary.scores == game.scores()
        assert summary.decisions == len(game.history)
        assert summary.turns == game.turn
        assert game.result is not None
        assert summary.winners == game.result.winners


def test_simulate_is_the_same_with_and_without_the_kernel() -> None:
    with switched_off("random_game"):
        python = simulate(players=4, games=12, seed=5)
    assert simulate(players=4, games=12, seed=5) == python


def refused(*args: Any) -> None:
    """The twin refuses ``args`` (beyond its ranges), so the gate asks the Python rule."""
    with pytest.raises(OverflowError, match="beyond the compiled kernel's range"):
        twin(GAME)(*args)


def test_inputs_beyond_the_ranges_are_refused_and_the_rule_answers() -> None:
    args = list(game_args(4, 3))
    for players in (2, 6):  # R10
        refused(*args[:7], players, 3, (1,) * players, *args[10:])
    for seed in (-1, 2**64 + 3, -(2**70)):  # taken modulo 2^64, as GameRng takes it
        agree(GAME, *args[:8], seed, *args[9:])
    refused(*args[:9], (1, 2, -3, 4), *args[10:])
    refused(*args[:9], (1, 2, 2**64, 4), *args[10:])
    refused(args[0], None, *args[2:])  # a catalogue without a plan
    positions, copies = list(args[2]), list(args[3])
    refused(*args[:2], (*positions[:-1], 255), *args[3:])
    refused(*args[:3], (*copies[:-1], 256), *args[4:])
    refused(*args[:3], (*copies[:-1], -1), *args[4:])
    refused(*args[:4], -1, *args[5:])
    refused(*args[:4], 10**6 + 1, *args[5:])
    agree(GAME, *game_args(4, 3, other_catalogue(flag_points=0)))  # an End Flag of no points
    plan = array.array("i", args[1])
    plan[-1] = 10**6  # the last Novel's points: the largest within the range
    assert twin(GAME)(args[0], plan.tobytes(), *args[2:])[0][5] in ("countdown", "all-pass")
    plan[-1] = 10**6 + 1
    refused(args[0], plan.tobytes(), *args[2:])
    # The largest within the ranges: a position of 254, 255 copies, 10^6 points.
    answer = twin(GAME)(*args[:2], (*positions[:-1], 254), (*copies[:-1], 255), 10**6, *args[5:])
    assert answer[0][5] in ("countdown", "all-pass")
    # A game longer than max_decisions: refused by the twin, the rule raises.
    summary, steps = agree(GAME, *game_args(4, 3))
    refused(*game_args(4, 3, max_decisions=len(steps) - 1))
    assert twin(GAME)(*game_args(4, 3, max_decisions=len(steps))) == (summary, steps)
    with pytest.raises(DecisionLimitError, match="did not end within 5 decisions"):
        random_game(players=4, seed=3, max_decisions=5)


def test_malformed_arguments_are_errors_not_refusals() -> None:
    args = list(game_args(3, 1))
    compiled = twin(GAME)
    with pytest.raises(TypeError, match="12 arguments"):
        compiled(*args[:-1])
    with pytest.raises(TypeError, match="five int32"):
        compiled(args[0], b"\x00" * 7, *args[2:])
    with pytest.raises(ValueError, match=r"catalogue position: expected [0-9]+ integers"):
        compiled(*args[:2], args[2][:-1], *args[3:])
    with pytest.raises(TypeError, match="sequence"):
        compiled(*args[:3], 5, *args[4:])
    with pytest.raises(ValueError, match="one bot seed per seat"):
        compiled(*args[:9], args[9][:-1], *args[10:])
    with pytest.raises(TypeError, match="a seed is an integer"):
        compiled(*args[:8], 1.5, *args[9:])
    with pytest.raises(TypeError, match="a seed is an integer"):
        compiled(*args[:9], (1, "2", 3), *args[10:])
    with pytest.raises(TypeError):
        compiled(*args[:7], "three", *args[8:])


def test_the_api_checks_its_arguments_before_any_game() -> None:
    with pytest.raises(ValueError, match="R10"):
        random_game(players=6)
    with pytest.raises(ValueError, match="seed must be an integer"):
        random_game(seed="7")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_decisions must be at least 1"):
        random_game(max_decisions=0)


def test_an_allocation_that_fails_is_a_memory_error_never_a_part_of_the_answer() -> None:
    assert starved(GAME, *game_args(3, 11, trace=False)) >= 0
    assert starved(GAME, *game_args(3, 11)) >= 0


def test_calls_free_what_they_allocate() -> None:
    assert leaked(GAME, *game_args(3, 11), calls=10) == 0
    assert leaked(GAME, *game_args(4, 2, trace=False), calls=10) == 0
