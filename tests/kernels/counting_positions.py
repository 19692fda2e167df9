"""Card tables and plans aimed at the corners of the counting and mask kernels (R4-R7).

A built position is a card table (:mod:`pastiche_core.engine.layout`) made card by card:
the kernels read only where each card lies, so the tables need not come from a
game (any number of Masterpieces per seat, hands of 0 to 20 cards, five seats).
The strategies aim at what the rules of R4 and R5 turn on: the ranks of a
publish held at once in the hand, in the player's own Masterpieces and in other
players' (the R4 swap of an own Masterpiece for a hand card; gifts to several
owners that just fit, or just do not fit, the unplayed cards: R5), crowded
tables, and plans whose Totals sit at the edges of their targets.
"""

from __future__ import annotations

import array
import random
from dataclasses import dataclass

from hypothesis import strategies as st

from pastiche_core import Catalogue, Game
from pastiche_core.engine.feasibility import kernel_plan, usable_flags
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.layout import CARDS, HAND, MASTER, NO_NOVEL, PILE_UP, PUBLISHED, rank_of

DEFAULT_PLAN = kernel_plan(Catalogue.default())
"""The plan of the default catalogue."""

RANK_CARDS = {rank: [c for c in range(CARDS) if rank_of(c) == rank] for rank in range(1, 14)}
"""The cards of each rank, by card index."""


@dataclass(frozen=True)
class Position:
    """A card table seen by ``player``, with a plan and the player's usable flags."""

    table: bytes
    """The card table."""
    player: int
    """The seat whose hand and Masterpieces count."""
    plan: bytes
    """The plan the counts follow."""
    usable: bytes
    """One flag per plan entry (R6)."""

    def hand(self) -> list[int]:
        """The player's hand cards."""
        return [c for c in range(CARDS) if self.table[c] == HAND | self.player]


def plan_of(entries: list[tuple[int, int, int, int, int]]) -> bytes:
    """A plan from its entries (kind, first, second, size, points)."""
    return array.array("i", [value for entry in entries for value in entry]).tobytes()


@st.composite
def plan_entries(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """One pattern's code: Straights, of-a-kinds, pairs, and Totals near their target edges."""
    kind = draw(st.sampled_from([0, 1, 2, 3, 3]))
    points = draw(st.integers(1, 9))
    if kind == 0:
        length = draw(st.sampled_from([2, 3, 4, 5, 7, 9, 11, 13]))
        return 0, length, 0, length, points
    if kind == 1:
        count = draw(st.integers(2, 7))
        return 1, count, 0, count, points
    if kind == 2:
        pairs = draw(st.integers(1, 6))
        return 2, pairs, 0, 2 * pairs, points
    count = draw(st.integers(1, 7))
    target = draw(
        st.sampled_from([count, count + 1, 7 * count, 13 * count - 1, 13 * count])
        | st.integers(count, 13 * count)
    )
    size = draw(st.sampled_from([count, count, -1]))  # -1: a size the plan does not state
    return 3, count, min(target, 13 * count), size, points


@st.composite
def plans(draw: st.DrawFn) -> bytes:
    """A plan: the default catalogue's, or a few random patterns' codes."""
    if draw(st.booleans()):
        assert DEFAULT_PLAN is not None
        return DEFAULT_PLAN
    return plan_of(draw(st.lists(plan_entries(), min_size=1, max_size=5)))


def _entries(plan: bytes) -> int:
    return len(plan) // 20


@st.composite
def built_positions(draw: st.DrawFn, plan: bytes | None = None, seats: int = 5) -> Position:
    """A card table built card by card: one or two focus ranks whose cards lie in the hand and
    in own and others' Masterpieces, then a hand of up to 20 cards, up to 30 Masterpieces of
    any seat, Published novels, other hands and the pile."""
    players = draw(st.integers(3, seats))
    player = draw(st.integers(0, players - 1))
    table = bytearray(2 * CARDS)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    focus = draw(st.lists(st.integers(1, 13), max_size=2, unique=True))
    others = [seat for seat in range(players) if seat != player]

    def master(card: int, owner: int) -> None:
        table[card] = MASTER | owner
        table[CARDS + card] = rng.randrange(34)

    for rank in focus:
        for card in RANK_CARDS[rank]:
            where = rng.choice(["hand", "hand", "own", "other", "other", "pile"])
            if where == "hand":
                table[card] = HAND | player
            elif where == "own":
                master(card, player)
            elif where == "other":
                master(card, rng.choice(others))
            else:
                table[card] = PILE_UP
    rest = [card for card in range(CARDS) if rank_of(card) not in focus]
    rng.shuffle(rest)
    for _ in range(draw(st.integers(0, 20))):
        if rest:
            table[rest.pop()] = HAND | player
    own_share = draw(st.sampled_from([0.0, 0.2, 0.5]))
    for _ in range(draw(st.integers(0, 30))):
        if rest:
            master(rest.pop(), player if rng.random() < own_share else rng.choice(others))
    for _ in range(draw(st.integers(0, 3))):  # Published novels: readable, never cited
        if len(rest) >= 2:
            owner = rng.randrange(players)
            for _ in range(2):
                card = rest.pop()
                table[card] = PUBLISHED | owner
                table[CARDS + card] = 0
    for card in rest:
        table[card] = rng.choice([0, 0, PILE_UP, HAND | rng.choice(others)])
    chosen = plan if plan is not None else draw(plans())
    usable = bytes(draw(st.sampled_from([1, 1, 1, 0])) for _ in range(_entries(chosen)))
    return Position(bytes(table), player, chosen, usable)


@st.composite
def game_positions(draw: st.DrawFn) -> Position:
    """A position of a random game of 3 to 5 players, with the default catalogue's plan."""
    players = draw(st.integers(3, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    moves = draw(st.integers(0, 160))
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    player = game.to_move
    held = {novel.novel for novel in game.table(player)}
    usable = usable_flags(game.catalogue, game.supply, held)
    assert DEFAULT_PLAN is not None
    return Position(insides(game).card_table, player, DEFAULT_PLAN, usable)


@st.composite
def rank_corners(draw: st.DrawFn) -> tuple[Position, int]:
    """One rank's cards split between the hand, own and others' Masterpieces (several owners),
    with spare hand cards of other ranks: an of-a-kind or pairs of that rank needs the R4 swap
    of an own Masterpiece, or gifts (R5) that just fit or just do not fit the unplayed cards.
    Returns the position and the rank."""
    players = draw(st.integers(3, 5))
    player = draw(st.integers(0, players - 1))
    rank = draw(st.sampled_from([5, 6, 7, 8, 9]))  # ranks of 5 to 7 cards
    cards = RANK_CARDS[rank]
    in_hand = draw(st.integers(0, 3))
    own = draw(st.integers(0, len(cards) - in_hand))
    table = bytearray(2 * CARDS)
    table[CARDS:] = bytes([NO_NOVEL]) * CARDS
    others = [seat for seat in range(players) if seat != player]
    for at, card in enumerate(cards):
        if at < in_hand:
            table[card] = HAND | player
        elif at < in_hand + own:
            table[card] = MASTER | player
        else:
            table[card] = MASTER | draw(st.sampled_from(others))
    spare = draw(st.integers(0, 6))  # hand cards of other ranks: the gifts' room
    rest = [card for card in range(CARDS) if rank_of(card) != rank]
    for card in draw(st.permutations(rest))[:spare]:
        table[card] = HAND | player
    need = draw(st.integers(2, 7))
    plan = plan_of(
        [
            (1, need, 0, need, 3),
            (2, draw(st.integers(1, 2)), 0, 2, 2),
            (3, need, need * rank, need, 2),
        ]
    )
    return Position(bytes(table), player, plan, b"\x01\x01\x01"), rank
