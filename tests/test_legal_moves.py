"""The enumeration of legal moves agrees with the one rule path (``violation``/``is_legal``).

Positions come from random games with 3 to 5 players. Where a position has more
legal moves than the checks can afford, only the first ones are checked.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter

import pytest
from builders import (
    as_publish,
    assert_invariants,
    build_game,
    masterpieces,
    perturbations,
    plausible_moves,
    position_pool,
)
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import Card, Game, Gift, IllegalMoveError, Keep, Move, Phase, Publish
from pastiche_core.engine.game_internals import insides, publish_moves

CAP = 2500
"""Positions with at most this many legal moves are enumerated completely."""

positions = st.integers(0, 10**6)


def enumerate_capped(game: Game) -> tuple[list[Move], bool]:
    """The first CAP + 1 legal moves, and whether that is all of them."""
    moves = list(itertools.islice(game.legal_moves, CAP + 1))
    return moves, len(moves) <= CAP


@given(index=positions)
def test_every_enumerated_move_is_legal_and_listed_once(index: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    moves, complete = enumerate_capped(game)
    assert len(set(moves)) == len(moves)
    for move in moves:
        assert game.violation(move) is None, move
        assert game.is_legal(move)
        assert move in game.legal_moves
        assert Move.parse(str(move)) == move
    assert bool(game.legal_moves) == (not game.is_over) == bool(moves)
    if complete:
        assert len(game.legal_moves) == len(moves)
    kinds = {type(m).__name__ for m in moves}
    expected = {
        Phase.KEEP: {"Keep"},
        Phase.CHOOSE: {"Choose"},
        Phase.FLAG: {"TakeFlag"},
        Phase.OVER: set(),
    }.get(game.phase)
    if expected is not None:
        assert kinds == expected
    else:
        assert kinds <= {"Draw", "TakeDiscard", "Read", "Publish", "Pass"}
        assert ("Draw" in kinds) == insides(game).can_write()
        assert ("TakeDiscard" in kinds) == bool(game.discard)
        assert ("Read" in kinds) == insides(game).can_read()
        if complete:
            assert ("Pass" in kinds) == (
                not insides(game).can_write() and not insides(game).can_read()
            )


@given(index=positions, seed=st.integers(0, 2**32 - 1))
def test_membership_agrees_with_enumeration_on_perturbed_moves(index: int, seed: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    before = game.copy()
    moves, complete = enumerate_capped(game)
    legal = set(moves)
    rng = random.Random(seed)
    candidates = plausible_moves(game, rng)
    publishes = [m for m in moves if isinstance(m, Publish)]
    for publish in rng.sample(publishes, min(5, len(publishes))):
        candidates += perturbations(game, publish, rng)
    for move in candidates:
        member = move in game.legal_moves
        assert member == game.is_legal(move) == (game.violation(move) is None), move
        if complete:
            # R15: a keep that names no discard order is the listed keep in card order.
            listed = move in legal or (
                isinstance(move, Keep)
                and not move.discard
                and any(isinstance(m, Keep) and m.cards == move.cards for m in legal)
            )
            assert member == listed, move
        elif move in legal:
            assert member, move
    assert game == before  # asking changes nothing


@given(index=positions, seed=st.integers(0, 2**32 - 1))
def test_every_enumerated_move_applies_cleanly(index: int, seed: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    moves, _ = enumerate_capped(game)
    rng = random.Random(seed)
    for move in rng.sample(moves, min(8, len(moves))):
        twin = game.copy()
        twin.apply(move)
        assert twin.history[-1] == move
        assert_invariants(twin)


def _gift_choices(cards: list[Card], owed: list[tuple[int, int]]) -> list[tuple[Gift, ...]]:
    if not owed:
        return [()]
    (owner, count), rest = owed[0], owed[1:]
    out: list[tuple[Gift, ...]] = []
    for chosen in itertools.combinations(cards, count):
        left = [c for c in cards if c not in chosen]
        out += [tuple(Gift(owner, c) for c in chosen) + tail for tail in _gift_choices(left, rest)]
    return out


def brute_force_publishes(game: Game) -> set[Publish]:
    """Every legal publish by trying all played-card and citation subsets (R4–R6)."""
    player = game.to_move
    hand = sorted(game.hand(player))
    held_masterpieces = masterpieces(game)
    held = {n.novel for n in game.table(player)}
    found: set[Publish] = set()
    for spec in game.catalogue.publishable:
        if game.supply[spec.id] <= 0 or spec.id in held or spec.pattern is None:
            continue
        for k in range(1, len(hand) + 1):
            for played in itertools.combinations(hand, k):
                for j in range(len(held_masterpieces) + 1):
                    for cited in itertools.combinations(held_masterpieces, j):
                        ranks = [c.rank for c in played] + [n.cards[0].rank for n in cited]
                        if not spec.pattern.matches(ranks):
                            continue
                        owed = Counter(n.owner for n in cited if n.owner != player)
                        rest = [c for c in hand if c not in played]
                        for gifts in _gift_choices(rest, sorted(owed.items())):
                            found.add(Publish(spec.id, played, tuple(n.ref for n in cited), gifts))
    return found


@given(index=positions)
def test_publish_enumeration_is_complete_on_small_positions(index: int) -> None:
    pool = [
        g
        for g in position_pool()
        if g.phase is Phase.ACTION and len(g.hand(g.to_move)) <= 7 and len(masterpieces(g)) <= 6
    ]
    game = pool[index % len(pool)]
    expected = brute_force_publishes(game)
    assert all(game.is_legal(m) for m in expected)
    assert set(publish_moves(game)) == expected
    assert {m for m in game.legal_moves if isinstance(m, Publish)} == expected


def test_perturbations_of_the_rulebook_publish_agree_with_enumeration() -> None:
    game = build_game(
        3,
        hands={0: "MYS7 FAN7 MYT6 SCI9 LOV2", 1: "MAG13"},
        tables={
            0: {"straight-5": "SCI7"},
            1: {"kind-3": "HOR7", "pairs-3": "MYT7", "pairs-4": "MAG8 MAG9"},
        },
    )
    move = as_publish(
        Move.parse(
            "publish kind-5 MYS7 FAN7 cite 0:straight-5 1:kind-3 1:pairs-3 gift 1:MYT6 1:SCI9"
        )
    )
    legal = set(game.legal_moves)
    assert move in legal
    seen = 0
    for seed in range(20):
        for near in perturbations(game, move, random.Random(seed)):
            assert (near in game.legal_moves) == (near in legal), near
            seen += near not in legal
    assert seen > 100


@given(index=positions, seed=st.integers(0, 2**32 - 1))
def test_indexing_and_length_agree_with_enumeration(index: int, seed: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    moves, complete = enumerate_capped(game)
    legal = game.legal_moves
    if complete:
        assert len(game.legal_moves) == len(list(game.legal_moves)) == len(moves)
    else:
        assert len(game.legal_moves) > CAP
    rng = random.Random(seed)
    for i in sorted(rng.sample(range(len(moves)), min(20, len(moves)))):
        assert legal[i] == moves[i], i
    if moves and complete:
        assert legal[len(moves) - 1] == moves[-1]


@given(index=positions, seed=st.integers(0, 2**32 - 1))
def test_every_index_of_a_long_enumeration_is_a_distinct_legal_move(index: int, seed: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    legal = game.legal_moves
    count = len(legal)
    rng = random.Random(seed)
    indices = sorted({rng.randrange(count) for _ in range(30)}) if count else []
    picked = [legal[i] for i in indices]
    assert len(set(picked)) == len(picked)
    for i, move in zip(indices, picked, strict=True):
        assert game.is_legal(move), (i, move)
    # Near the start, indexing and iteration agree even in very long enumerations.
    head = list(itertools.islice(legal, 300))
    for i in rng.sample(range(len(head)), min(10, len(head))):
        assert legal[i] == head[i]


def test_a_kept_legal_moves_view_follows_the_game() -> None:
    game = Game(4, seed=21)
    legal = game.legal_moves
    rng = random.Random(21)
    for _ in range(80):
        if game.is_over:
            break
        first = list(itertools.islice(legal, 200))
        assert first == list(itertools.islice(game.legal_moves, 200))
        if len(first) < 200:
            assert len(legal) == len(first)
        game.apply(rng.choice(first))


def test_a_move_indexed_from_the_legal_moves_is_applied_without_checking_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked: list[Move | str] = []
    original = Game.violation

    def counting(self: Game, move: Move | str) -> str | None:
        checked.append(move)
        return original(self, move)

    monkeypatch.setattr(Game, "violation", counting)
    game = Game(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(80):
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    assert checked == []  # each one was the object the legal moves gave out for that position
    move = game.legal_moves[0]
    game.apply(str(move))  # notation: checked
    assert checked == [move]
    game.undo()
    game.apply(move)  # the same position again, but a new generation: checked (never reused)
    assert checked == [move, move]
    game.undo()
    twin = game.copy()
    twin.apply(game.legal_moves[0])  # given out by another game: checked
    assert len(checked) == 3
    stale = game.legal_moves[0]
    game.apply(game.legal_moves[len(game.legal_moves) - 1])
    with contextlib.suppress(IllegalMoveError):
        game.apply(stale)  # given out before the last move: checked
    assert len(checked) == 4
