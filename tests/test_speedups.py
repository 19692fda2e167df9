"""The compiled counting kernels agree with their Python references (R4, R5).

``pastiche_core._speedups`` is optional: a build without a C compiler uses the
Python kernels of ``movegen``, and these tests skip. Set
``PASTICHE_REQUIRE_SPEEDUPS=1`` (continuous integration does, when it has a
compiler) to make a missing module a failure instead.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterable, Iterator
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import Card, Game, Phase, movegen
from pastiche_core.feasibility import PayableTotals
from pastiche_core.feasibility import rank_shapes as _rank_shapes
from pastiche_core.feasibility import rank_table as _rank_table
from pastiche_core.movegen import _gift_count_of

MAX_SHAPES = 128
"""The compiled kernel's table of one rank's shapes (``MAX_SHAPES`` in ``_speedups.c``)."""


def _compiled() -> ModuleType:
    try:
        from pastiche_core import _speedups
    except ImportError:
        if os.environ.get("PASTICHE_REQUIRE_SPEEDUPS"):
            raise
        pytest.skip("pastiche_core._speedups is not built (no C compiler at install)")
    return _speedups


@st.composite
def rank_keys(draw: st.DrawFn, players: int) -> tuple[int, int, tuple[int, ...]]:
    """(cards needed, cards of the rank in hand, Masterpieces per owner, own marked -n-1)."""
    player = draw(st.integers(0, players - 1))
    owners = draw(st.lists(st.integers(0, 3), min_size=players, max_size=players))
    in_hand = draw(st.integers(0, 6))
    need = draw(st.integers(1, max(1, min(5, in_hand + sum(owners)))))
    marked = tuple(-n - 1 if seat == player and n else n for seat, n in enumerate(owners))
    return need, in_hand, marked


def test_a_count_beyond_64_bits_is_left_to_python() -> None:
    compiled = _compiled()
    # 8 ranks of 7 hand cards each, 2 Masterpieces of seat 1 in each: too many publishes.
    hand = [0] + [7] * 8 + [0] * 5
    marked = [(0, 0, 0)] + [(0, 2, 0)] * 8 + [(0, 0, 0)] * 5
    ranks, needs = list(range(1, 9)), [2] * 8
    reference = _gift_count_of([_rank_table((2, 7, (0, 2, 0)))] * 8, 56)
    assert reference > 1 << 64
    with pytest.raises(OverflowError):
        compiled.segment_count(ranks, needs, hand, marked, 56)


def test_publish_segments_fall_back_to_python_when_the_kernel_overflows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compiled()

    class Overflowing:
        def publish_counts(self, *args: object) -> None:
            raise OverflowError("count too large for the compiled kernel")

        def segment_count(self, *args: object) -> None:
            raise OverflowError("count too large for the compiled kernel")

        def payable_totals(self, *args: object) -> None:
            raise OverflowError("count too large for the compiled kernel")

        def decode_publish(self, *args: object) -> None:
            raise OverflowError("count too large for the compiled kernel")

    game = Game(players=4, seed=2)
    rng = random.Random(2)
    for _ in range(400):  # on to a position with at least two publishes to count
        if game.phase.value == "action" and len(game._publish_segments()) >= 2:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    expected = _counted(game._publish_segments())
    moves = [s.at(s.count - 1) for s in game._publish_segments()]
    assert expected  # the position has publishes to count
    monkeypatch.setattr(movegen, "_speedups", Overflowing())
    segments = game._publish_segments()
    assert _counted(segments) == expected
    assert [s.at(s.count - 1) for s in segments] == moves


@st.composite
def totals(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], int, int, int]:
    """A pool (hand and Masterpieces per rank), the hand, own Masterpieces, a hand size, a Total."""
    hand = [0] + [draw(st.integers(0, 2)) for _ in range(13)]
    own = [0] + [draw(st.integers(0, 1)) for _ in range(13)]
    others = [0] + [draw(st.integers(0, 2)) for _ in range(13)]
    pool = [min(4, h + o + x) for h, o, x in zip(hand, own, others, strict=True)]
    own = [min(o, p) for o, p in zip(own, pool, strict=True)]
    hand = [min(h, p - o) for h, o, p in zip(hand, own, pool, strict=True)]
    limit = sum(hand) + draw(st.integers(0, 3))
    count = draw(st.integers(1, 9))
    target = draw(st.integers(count, 13 * count))
    return pool, hand, own, limit, count, target


@given(totals(), st.booleans())
def test_payable_totals_match_the_python_walk_r4_r5(
    case: tuple[list[int], list[int], list[int], int, int, int], first: bool
) -> None:
    compiled = _compiled()
    pool, hand, own, limit, count, target = case
    reference = PayableTotals(pool, hand, own, limit)._search_py(count, target, first)
    assert compiled.payable_totals(pool, hand, own, limit, count, target, first) == reference


def _random_positions(seeds: range, rng: random.Random) -> Iterator[Game]:
    """Every position of random games of 3 to 5 players, one seed after another."""
    for seed in seeds:
        game = Game(players=3 + seed % 3, seed=seed)
        while not game.is_over:
            yield game
            legal = game.legal_moves
            game.apply(legal[rng.randrange(len(legal))])


def _counted(
    segments: Iterable[movegen.PublishSegment],
) -> list[tuple[str, list[int], list[int], int]]:
    """What two counts of a position must agree on: each segment's Novel, ranks, needs, count."""
    return [(s.novel, list(s.ranks), list(s.needs), s.count) for s in segments]


def test_publish_counts_agree_with_and_without_the_kernels_in_random_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compiled()
    positions = 0
    for game in itertools.islice(_random_positions(range(12), random.Random(11)), 600):
        player = game.to_move
        args = (player, game._hands[player], game._tables, game.supply, game.catalogue)
        fast = _counted(movegen.publish_segments(*args))
        with monkeypatch.context() as patch:
            patch.setattr(movegen, "_speedups", None)
            assert _counted(movegen.publish_segments(*args)) == fast
        positions += 1
    assert positions >= 300


@given(
    st.integers(2, 5).flatmap(lambda n: st.lists(rank_keys(n), min_size=1, max_size=6)),
    st.integers(0, 24),
)
def test_segment_count_matches_the_python_tables_and_count_r4_r5(
    keys: list[tuple[int, int, tuple[int, ...]]], limit: int
) -> None:
    compiled = _compiled()
    keys = [key for key in keys if _rank_table(key)]
    if not keys:
        return
    players = len(keys[0][2])
    keys = [key for key in keys if len(key[2]) == players]
    ranks = list(range(1, len(keys) + 1))
    needs = [need for need, _, _ in keys]
    hand = [0] * 14
    marked: list[tuple[int, ...]] = [(0,) * players] * 14
    for rank, (_, in_hand, owners) in zip(ranks, keys, strict=True):
        hand[rank] = in_hand
        marked[rank] = owners
    reference = _gift_count_of([_rank_table(key) for key in keys], limit)
    try:
        got = compiled.segment_count(ranks, needs, hand, marked, limit)
    except OverflowError:
        # Refused only beyond 64 bits or beyond the kernel's 128 shapes of one rank (more
        # cards of a rank than a deck holds): Python counts those.
        widest = max(len(_rank_shapes(key)) for key in keys)
        assert reference >= 1 << 64 or widest > MAX_SHAPES
    else:
        assert got == reference


def test_decoded_publishes_agree_with_and_without_the_kernels_in_random_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compiled()
    rng = random.Random(5)
    decoded = 0
    for game in _random_positions(range(40), rng):
        segments = [s for s in game._segments() if isinstance(s, movegen.PublishSegment)]
        for segment in segments:
            for index in {0, segment.count - 1, rng.randrange(segment.count)}:
                fast = segment.at(index)
                with monkeypatch.context() as patch:
                    patch.setattr(movegen, "_speedups", None)
                    assert segment.at(index) == fast
                decoded += 1
    assert decoded >= 1000


def test_the_encodings_novel_mask_agrees_with_and_without_the_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The atomic encoding asks the compiled counter which Novels have a publish; its own
    # closed-form test of each rank multiset must say the same (R4-R7).
    _compiled()
    pytest.importorskip("numpy")
    from pastiche_core.rl import encoding
    from pastiche_core.rl.encoding import ActionSpace, MoveBuilder

    space = ActionSpace()
    checked = with_publish = 0
    for game in _random_positions(range(16), random.Random(3)):
        if game.phase.value == "action":
            view = game.view(game.to_move)
            fast = MoveBuilder(space, view)._publishable()
            with monkeypatch.context() as patch:
                patch.setattr(encoding, "publishable_novels", lambda *args: None)
                assert MoveBuilder(space, view)._publishable() == fast
            checked += 1
            with_publish += bool(fast)
    assert checked >= 300
    assert with_publish >= 100


@st.composite
def crowded_games(draw: st.DrawFn) -> Game:
    """A game whose player 0 holds up to 20 cards facing up to 30 Masterpieces (R5, R6)."""
    from builders import build_game

    from pastiche_core import DECK, Catalogue

    players = draw(st.integers(3, 5))
    order = draw(st.permutations(range(len(DECK))))
    cards = [DECK[index] for index in order]
    tables: dict[int, dict[str, list[Card]]] = {seat: {} for seat in range(players)}
    for spec in Catalogue.default().publishable:
        owners = draw(st.lists(st.integers(0, players - 1), max_size=spec.copies, unique=True))
        for owner in owners:
            tables[owner][spec.id] = [cards.pop()]
    hand = [cards.pop() for _ in range(draw(st.integers(1, 20)))]
    return build_game(players, hands={0: hand}, tables=tables)


@given(crowded_games(), st.randoms(use_true_random=False))
def test_crowded_positions_count_and_decode_alike_with_and_without_the_kernels_r4_r5(
    game: Game, rng: random.Random
) -> None:
    _compiled()
    segments = game._publish_segments()
    fast = _counted(segments)
    picks = [(s, rng.randrange(s.count)) for s in segments for _ in range(2)]
    moves = [segment.at(index) for segment, index in picks]
    movegen_kernels = movegen._speedups
    movegen._speedups = None
    try:
        slow = _counted(game._publish_segments())
        assert [segment.at(index) for segment, index in picks] == moves
    finally:
        movegen._speedups = movegen_kernels
    assert fast == slow


def test_the_publish_masks_refuse_malformed_input() -> None:
    """The compiled masks of a publish being built: wrong shapes raise, never read past."""
    compiled = _compiled()
    game = Game(players=4, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        moves = game.legal_moves
        game.apply(moves[rng.randrange(len(moves))])
    player = game.to_move
    tables = [dict(table) for table in game._tables]
    blob = compiled.publish_table(player, sorted(game._hands[player]), tables)
    assert isinstance(blob, bytes)
    combo = bytes(14)
    good = [blob, [combo], [0] * 14, 0, 0, -1, 0, 0]
    assert compiled.feasible_combos(*good) == []
    assert compiled.cards_mask(*good, 3, 200, 249) == []

    class Fake:
        rank = 14
        index = 3

    for position, value, error in [
        (0, blob[:-1], TypeError),  # a table of another size
        (0, "x" * len(blob), TypeError),
        (1, [bytes(13)], TypeError),  # a multiset of 13 ranks
        (1, [(0,) * 14], TypeError),
        (2, [0] * 13, OverflowError),  # chosen counts of 13 ranks
        (2, [0] * 13 + [99], OverflowError),
        (3, 14, OverflowError),  # a last rank beyond 13
        (4, 2, OverflowError),  # a last kind neither play nor cite
        (5, 49, OverflowError),  # a last card beyond the deck
        (6, -1, OverflowError),  # played cards below zero
    ]:
        bad = list(good)
        bad[position] = value
        with pytest.raises(error):
            compiled.feasible_combos(*bad)
        with pytest.raises(error):
            compiled.cards_mask(*bad, 3, 200, 249)
    for hand, seats, error in [
        ([Fake()], tables, OverflowError),  # a rank beyond 13
        (sorted(game._hands[player]) * 2, tables, OverflowError),  # a card twice
        ([], [tables[0]], OverflowError),  # the player beyond the seats
        ([], [[], [], [], []], TypeError),  # a table that is not a dict
    ]:
        with pytest.raises(error):
            compiled.publish_table(player, hand, seats)


def test_start_actions_and_publish_start_refuse_malformed_tables() -> None:
    compiled = _compiled()
    plan = movegen._compiled_plan(Game(players=4).catalogue)
    assert plan is not None
    for game in _random_positions(range(5), random.Random(5)):
        player = game.to_move
        if game.phase is Phase.ACTION and movegen.publishable_novels(
            player, game._hands[player], game._tables, game.supply, game.catalogue
        ):
            break
    else:
        raise AssertionError("no position with a publish")
    view = game.view(player)
    args = [player, set(view.hand), view.tables, dict(view.supply), plan, 151, {}]
    with pytest.raises(OverflowError):  # a Novel with a publish but no action to name it
        compiled.start_actions(*args)

    class NoCards:
        novel = "kind-3"

    class ListCards:
        novel = "kind-3"

        def __init__(self) -> None:
            self.cards = [game.deck[0], game.deck[1]]  # a list, not a tuple

    for tables, error in [
        (((NoCards(),),), AttributeError),
        (((ListCards(),),), TypeError),
        ((5,), TypeError),
    ]:
        bad = list(args)
        bad[2] = tables
        with pytest.raises(error):
            compiled.start_actions(*bad)
        with pytest.raises(error):
            compiled.publish_start(*bad[:5])
    blob, combos = compiled.publish_start(*args[:5])
    assert blob == compiled.publish_table(player, sorted(view.hand), list(map(dict, game._tables)))
    assert combos
    assert all(len(combo) == 14 for combo in combos)
