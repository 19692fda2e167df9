"""The masks kernels (csrc/masks.c) answer as their Python rules (R4-R8, R11).

``start_actions``, ``publish_start``, ``feasible_combos`` and ``cards_mask``
(rl.encoding), compiled against Python, on the card tables of
``counting_positions``: publishes built card by card along the masks' own
choices, partial publishes made up at random (closed ranks, the last card's
rank, own and others' Masterpieces), and the ranges each kernel refuses.

The C homes of rulings compared here (their tags name this file): ``pk_mask_table``
(R6: only Masterpieces are cited), ``pk_combo_feasible`` (R4: a partial publish
that can still meet its Novel), ``pk_cards_choices`` (R4, R5: the plays, cites and
confirm, the gifts paid from the hand) and ``start_actions`` (R11: the reads).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from counting_positions import (
    DEFAULT_PLAN,
    RANK_CARDS,
    Position,
    built_positions,
    game_positions,
    plan_of,
    rank_corners,
)
from hypothesis import given
from hypothesis import strategies as st
from support import agree, starved, twin

from pastiche_core.engine._kernels import Kernel
from pastiche_core.engine.layout import CARDS, HAND, MASTER, NO_NOVEL, PUBLISHED, rank_of

pytest.importorskip("numpy")  # the rl extra
from pastiche_core.rl import encoding_masks

pytestmark = pytest.mark.kernels

start_actions = encoding_masks.start_actions
publish_start = encoding_masks.publish_start
feasible_combos = encoding_masks.feasible_combos
cards_mask = encoding_masks.cards_mask

CONFIRM, PLAY, CITE = 3, 200, 249  # the action space's bases
READ, NOVEL = 151, 347


def _novels(position: Position) -> list[bytes]:
    """Per usable plan entry, the usable flags of that entry alone."""
    alone = []
    for index, flag in enumerate(position.usable):
        if flag:
            usable = bytearray(len(position.usable))
            usable[index] = 1
            alone.append(bytes(usable))
    return alone


def _build(position: Position, combos: list[bytes], rng: random.Random, steps: int = 14) -> int:
    """Build a publish card by card along the masks, compiled against Python at every step;
    returns the cards chosen."""
    table, player = position.table, position.player
    chosen = [0] * 14
    last = (0, 0, -1)
    played = owed = 0
    for step in range(steps):
        actions = agree(
            cards_mask, table, player, combos, chosen, *last, played, owed, CONFIRM, PLAY, CITE
        )
        picks = [action for action in actions if action != CONFIRM]
        if not picks:
            return step
        action = rng.choice(picks)
        if action >= CITE:
            card, kind = action - CITE, 1
            owed += table[card] != MASTER | player  # R5: another's Masterpiece owes a gift
        else:
            card, kind = action - PLAY, 0
            played += 1
        chosen[rank_of(card)] += 1
        last = (rank_of(card), kind, card)
        combos = agree(feasible_combos, table, player, combos, chosen, *last, played, owed)
        assert combos
    return steps


def _random_combos(rng: random.Random, count: int) -> list[bytes]:
    """Rank multisets of a few ranks, most of them beyond what the position holds."""
    found = []
    for _ in range(count):
        combo = bytearray(14)
        for rank in rng.sample(range(1, 14), rng.randint(1, 4)):
            combo[rank] = rng.randint(1, 3)
        found.append(bytes(combo))
    return found


def _check_position(position: Position, rng: random.Random, novels: int = 3) -> None:
    table, player, plan = position.table, position.player, position.plan
    agree(start_actions, table, player, position.usable, plan, READ, NOVEL)
    agree(start_actions, table, player, position.usable, plan, 0, 0)
    agree(publish_start, table, player, position.usable, plan)
    for usable in rng.sample(_novels(position), min(novels, len(_novels(position)))):
        combos = agree(publish_start, table, player, usable, plan)
        assert all(len(combo) == 14 for combo in combos)
        if combos:
            _build(position, combos, rng)
            _build(position, combos + _random_combos(rng, 4), rng)


@given(built_positions(), st.randoms(use_true_random=False))
def test_starts_and_masks_agree_on_built_positions_r4_r5_r11(
    position: Position, rng: random.Random
) -> None:
    _check_position(position, rng)


@given(game_positions(), st.randoms(use_true_random=False))
def test_starts_and_masks_agree_in_random_games(position: Position, rng: random.Random) -> None:
    _check_position(position, rng)


@given(rank_corners(), st.randoms(use_true_random=False))
def test_one_ranks_masks_r4_swap_and_r5_gifts(
    corner: tuple[Position, int], rng: random.Random
) -> None:
    position, rank = corner
    _check_position(position, rng)
    # Every multiset of the rank alone and with its neighbours, from a fresh start.
    combos = []
    for need in range(1, 8):
        for below in range(3):
            combo = bytearray(14)
            combo[rank], combo[rank - 1] = need, below
            combos.append(bytes(combo))
    table, player = position.table, position.player
    agree(feasible_combos, table, player, combos, [0] * 14, 0, 0, -1, 0, 0)
    for _ in range(3):
        _build(position, list(combos), rng)


@st.composite
def partials(draw: st.DrawFn) -> tuple[list[int], int, int, int, int, int]:
    """A partial publish made up at random: chosen counts, the last card's key, played, owed."""
    chosen = [0] + [draw(st.sampled_from([0, 0, 1, 2])) for _ in range(13)]
    last_rank = draw(st.integers(0, 13))
    if last_rank:
        last_kind = draw(st.integers(0, 1))
        last_card = draw(st.sampled_from(RANK_CARDS[last_rank]))
    else:
        last_kind, last_card = 0, -1
    return chosen, last_rank, last_kind, last_card, draw(st.integers(0, 6)), draw(st.integers(0, 4))


@given(built_positions(), partials(), st.randoms(use_true_random=False))
def test_masks_agree_on_made_up_partial_publishes_r4_r5(
    position: Position, partial: tuple[list[int], int, int, int, int, int], rng: random.Random
) -> None:
    table, player = position.table, position.player
    combos = _random_combos(rng, 12)
    for combo in list(combos):  # and each with the chosen cards added: still open
        combos.append(bytes(min(255, a + b) for a, b in zip(combo, partial[0], strict=True)))
    agree(feasible_combos, table, player, combos, *partial)
    agree(cards_mask, table, player, combos, *partial, CONFIRM, PLAY, CITE)


# ----------------------------------------------------------------------------
# Ranges: refused by the compiled twin, answered by the gate in Python
# ----------------------------------------------------------------------------
def _refused(kernel: Kernel[Any, Any], *args: Any) -> None:
    """The twin refuses ``args`` (OutOfRange); the gate answers as the Python rule, counted."""
    compiled = twin(kernel)
    with pytest.raises(compiled.__self__.OutOfRange):  # type: ignore[attr-defined]
        compiled(*args)
    before = kernel.out_of_range
    try:
        expected: Any = kernel.python(*args)
    except Exception as error:  # the rule's own answer to such input
        with pytest.raises(type(error)):
            kernel(*args)
    else:
        assert kernel(*args) == expected
    assert kernel.out_of_range == before + (kernel.compiled is not None)


def _position() -> Position:
    """Three sevens in hand, a seven Masterpiece of each of seats 0 and 1, a Published pair."""
    table = bytearray(2 * CARDS)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    sevens = RANK_CARDS[7]
    for card in sevens[:3]:
        table[card] = HAND
    table[sevens[3]], table[sevens[4]] = MASTER, MASTER | 1
    table[0] = table[1] = PUBLISHED | 2
    assert DEFAULT_PLAN is not None
    return Position(bytes(table), 0, DEFAULT_PLAN, b"\x01" * 10)


def test_mask_inputs_beyond_their_ranges_are_refused() -> None:
    position = _position()
    table = position.table
    kind_4 = bytearray(14)
    kind_4[7] = 4  # three sevens in hand and the own Masterpiece (R4, R5)
    combos = [bytes(kind_4)]
    good: list[Any] = [table, 0, combos, [0] * 14, 0, 0, -1, 0, 0]
    assert agree(feasible_combos, *good) == combos
    assert agree(cards_mask, *good, CONFIRM, PLAY, CITE)
    for at, beyond in [
        (1, 8),  # a player beyond the seats of a card table
        (1, -1),
        (2, [tuple(kind_4)]),  # a multiset that is not 14 bytes
        (2, [bytes(kind_4)[:13]]),
        (3, [0] * 13),  # chosen counts of 13 ranks
        (3, [0] * 13 + [256]),
        (3, [0] * 13 + [-1]),
        (4, 14),  # a last rank beyond 13
        (5, 2),  # a last kind neither play nor cite
        (6, CARDS),  # a last card beyond the deck
        (7, 1 << 21),  # cards played beyond 2^20
        (8, -1),
    ]:
        bad = list(good)
        bad[at] = beyond
        _refused(feasible_combos, *bad)
        _refused(cards_mask, *bad, CONFIRM, PLAY, CITE)
    after_a_card = list(good)
    after_a_card[4] = 7  # a last rank without its card
    _refused(feasible_combos, *after_a_card)
    _refused(cards_mask, *good, CONFIRM, PLAY, 2**70)
    _refused(cards_mask, *good, -1, PLAY, CITE)
    assert agree(cards_mask, *good, 0, 1 << 20, 0)


def test_starts_beyond_their_ranges_are_refused() -> None:
    position = _position()
    table, plan, usable = position.table, position.plan, position.usable
    assert agree(start_actions, table, 0, usable, plan, READ, NOVEL)[:2] == [READ, READ + 1]
    assert agree(publish_start, table, 0, usable, plan)
    _refused(start_actions, table, 0, usable, plan, -1, NOVEL)
    _refused(start_actions, table, 0, usable, plan, READ, 2**70)
    beyond = bytearray(table)
    beyond[RANK_CARDS[7][4]] = MASTER | 6  # a Masterpiece of seat 6
    _refused(start_actions, bytes(beyond), 0, usable, plan, READ, NOVEL)
    _refused(publish_start, bytes(beyond), 0, usable, plan)
    six = bytes(HAND | 6 if place == HAND else place for place in table)
    _refused(start_actions, six, 6, usable, plan, READ, NOVEL)
    _refused(publish_start, six, 6, usable, plan)
    with pytest.raises(TypeError):  # a card table of another size: an error, not a range
        twin(start_actions)(table[:-1], 0, usable, plan, READ, NOVEL)
    with pytest.raises(TypeError):
        twin(cards_mask)(table[:-1], 0, [], [0] * 14, 0, 0, -1, 0, 0, CONFIRM, PLAY, CITE)
    with pytest.raises(ValueError, match="usable flags"):  # a flag per plan entry
        twin(publish_start)(table, 0, usable[:-1], plan)
    with pytest.raises(ValueError, match="usable flags"):
        publish_start.python(table, 0, usable[:-1], plan)
    agree(publish_start, table, 0, b"\x01", plan_of([(1, 5, 0, 5, 6)]))


def test_the_tables_second_half_is_never_read_as_places() -> None:
    # Cards 0 and 1 lie under Novels whose positions read like place codes (a hand card of
    # seat 0, a Published novel's card): a kernel that read past the 49 places would see them.
    position = _position()
    table = bytearray(position.table)
    table[0], table[CARDS + 0] = MASTER | 1, PUBLISHED
    table[1], table[CARDS + 1] = MASTER | 1, HAND
    nines = bytearray(14)
    nines[9] = 1  # a 9 would be card 50's rank: none of the player's
    combos = [bytes(nines)]
    agree(start_actions, bytes(table), 0, position.usable, position.plan, READ, NOVEL)
    assert agree(feasible_combos, bytes(table), 0, combos, [0] * 14, 0, 0, -1, 0, 0) == []
    assert agree(cards_mask, bytes(table), 0, combos, [0] * 14, 0, 0, -1, 0, 0, 3, 200, 249) == []


def test_mask_inputs_that_are_not_integers_are_errors() -> None:
    position = _position()
    args: list[Any] = [position.table, 0, [], [0] * 14, 0, 0, -1, "1", 0]
    with pytest.raises(TypeError):
        twin(feasible_combos)(*args)
    with pytest.raises(TypeError):
        twin(cards_mask)(*args, CONFIRM, PLAY, CITE)
    for chosen in (7, None):  # chosen counts that are no sequence
        args = [position.table, 0, [], chosen, 0, 0, -1, 0, 0]
        with pytest.raises(TypeError):
            twin(feasible_combos)(*args)
        with pytest.raises(TypeError):
            twin(cards_mask)(*args, CONFIRM, PLAY, CITE)


def test_an_allocation_that_fails_is_a_memory_error_never_a_part_of_the_answer() -> None:
    # The rulebook's Total 2, 10, 12, 12, 13 in hand and a ten of seat 1 (R5: a gift), the
    # Total last in the plan: each allocation fails in turn, the Total's walk among them.
    cards = [RANK_CARDS[2][0], RANK_CARDS[10][0], *RANK_CARDS[12][:2], RANK_CARDS[13][0]]
    table = bytearray(2 * CARDS)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    for card in cards:
        table[card] = HAND
    table[RANK_CARDS[10][1]] = MASTER | 1
    table[RANK_CARDS[5][0]] = table[RANK_CARDS[5][1]] = PUBLISHED | 2  # a novel to read
    plan = plan_of([(1, 2, 0, 2, 1), (3, 5, 49, 5, 2)])
    combos = agree(publish_start, bytes(table), 0, b"\x01\x01", plan)
    assert len(combos) == 3  # two pairs, and the Total
    assert agree(start_actions, bytes(table), 0, b"\x01\x01", plan, READ, NOVEL)[-1] == NOVEL + 1
    failed = starved(publish_start, bytes(table), 0, b"\x01\x01", plan)
    failed += starved(start_actions, bytes(table), 0, b"\x01\x01", plan, READ, NOVEL)
    partial: list[Any] = [bytes(table), 0, combos, [0] * 14, 0, 0, -1, 0, 0]
    failed += starved(feasible_combos, *partial)
    failed += starved(cards_mask, *partial, CONFIRM, PLAY, CITE)
    assert failed  # the allocations did fail


def test_chosen_counts_are_read_from_rank_zero_on() -> None:
    # Entry 0 is no rank and the rule does not read it, but the twin checks all 14 counts:
    # one beyond 0-255 there is refused as anywhere else, and the gate answers in Python.
    position = _position()
    kind_4 = bytearray(14)
    kind_4[7] = 4
    for first in (256, -1):
        chosen = [first] + [0] * 13
        args: list[Any] = [position.table, 0, [bytes(kind_4)], chosen, 0, 0, -1, 0, 0]
        _refused(feasible_combos, *args)
        _refused(cards_mask, *args, CONFIRM, PLAY, CITE)
