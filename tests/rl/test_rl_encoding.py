"""The atomic action encoding: layout, masks, and sequences that match legal moves one to one.

The central property: from any position, the sequences of legal atomic actions
end in exactly the legal moves of the game, each move at the end of exactly one
sequence, and no legal action leads to a dead end. It is checked by walking
every sequence in positions with up to a few hundred legal moves; in larger
positions, sampled card-level moves and every R8 option with every gift choice
are played through :meth:`MoveBuilder.actions_for`.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("numpy")

from budget import examples
from builders import MINI, build_game, random_positions
from custom_patterns import SumOfAnySize
from hypothesis import given, settings
from hypothesis import strategies as st
from rl_common import atomic_moves, atomic_positions, complete_moves

import pastiche_core.engine.movegen
import pastiche_core.solver.fast
from pastiche_core import (
    Card,
    Catalogue,
    CustomPattern,
    Game,
    Gift,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    Keep,
    NovelRef,
    NovelSpec,
    OfAKind,
    Phase,
    Publish,
    Total,
)
from pastiche_core.rl import ActionSpace, MoveBuilder, Stage

SPACE = ActionSpace()
SMALL = 300
"""Positions with at most this many legal moves have every sequence walked."""


def builder_for(game: Game) -> MoveBuilder:
    return MoveBuilder(ActionSpace(game.catalogue), game.view(game.to_move))


def assert_one_to_one(game: Game) -> int:
    """The sequences from ``game``'s position end in its legal moves, each exactly once."""
    moves = complete_moves(builder_for(game))
    counted = Counter(moves)
    repeated = [str(move) for move, n in counted.items() if n > 1]
    assert not repeated, f"moves reached by two sequences: {repeated[:5]}"
    legal = list(game.legal_moves)
    assert counted.keys() == set(legal), (
        f"{game!r}: extra {sorted(map(str, counted.keys() - set(legal)))[:5]}, "
        f"missing {sorted(map(str, set(legal) - counted.keys()))[:5]}"
    )
    assert len(moves) == len(game.legal_moves)
    return len(moves)


# ----------------------------------------------------------------------
# The layout
# ----------------------------------------------------------------------
def test_layout_of_the_default_catalogue() -> None:
    assert len(SPACE) == SPACE.size == 4 + 7 * 49 + 10 == 357
    starts = [SPACE.block_start(name) for name in ("discard", "choose", "flag", "read")]
    starts += [SPACE.block_start(name) for name in ("play", "cite", "gift", "novel")]
    assert starts == [4, 53, 102, 151, 200, 249, 298, 347]
    card = Card.parse("SCI7")
    assert SPACE.play(card) == 200 + card.index
    assert SPACE.novel("total-7") == SPACE.size - 1


def test_every_action_describes_and_parses_back() -> None:
    kinds: Counter[str] = Counter()
    for action in range(SPACE.size):
        text = SPACE.describe(action)
        assert SPACE.parse(text) == action
        keyword, _, rest = text.partition(" ")
        assert SPACE.parse(f"{keyword.upper()} {rest}") == action
        kinds[SPACE.decode(action)[0]] += 1
    assert kinds == {
        "draw": 1,
        "take": 1,
        "pass": 1,
        "confirm": 1,
        **{name: 49 for name in ("discard", "choose", "flag", "read", "play", "cite", "gift")},
        "novel": 10,
    }


@pytest.mark.parametrize("bad", [-1, 357, 3.0, "3", None, True])
def test_decode_rejects_what_is_not_an_action(bad: object) -> None:
    with pytest.raises(InvalidArgumentError, match="action must be an integer from 0 to 356"):
        SPACE.decode(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "draw SCI7", "play", "play XYZ1", "novel", "jump"])
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises((InvalidNotationError, InvalidArgumentError)):
        SPACE.parse(text)


def test_unknown_novel_and_block() -> None:
    with pytest.raises(InvalidArgumentError, match="not a publishable Novel"):
        SPACE.novel("kind-9")
    with pytest.raises(InvalidArgumentError, match="unknown action block"):
        ActionSpace.block_start("steal")


def test_layout_follows_the_catalogue() -> None:
    space = ActionSpace(MINI)
    assert space.novels == ("pair", "run-3")
    assert space.size == 4 + 7 * 49 + 2


# ----------------------------------------------------------------------
# Sequences and legal moves, one to one
# ----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_sequences_are_the_legal_moves_in_random_games(players: int, seed: int) -> None:
    checked = 0
    for game in random_positions(players, seed, every=2):
        if not game.is_over and len(game.legal_moves) <= SMALL:
            assert_one_to_one(game)
            checked += 1
    assert checked >= 20


@settings(max_examples=examples(8))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_sequences_are_the_legal_moves_in_atomic_games(seed: int, players: int) -> None:
    publishes = 0
    for game in itertools.islice(atomic_positions(players, seed), 0, None, 3):
        if not game.is_over and len(game.legal_moves) <= SMALL:
            assert_one_to_one(game)
            publishes += any(isinstance(move, Publish) for move in game.legal_moves)
    assert publishes


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_random_atomic_actions_always_end_in_legal_moves(seed: int, players: int) -> None:
    game = Game(players, seed)
    space = ActionSpace(game.catalogue)
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    while not game.is_over:
        move, steps = atomic_moves(game, space, rng)
        assert move in game.legal_moves
        assert steps <= 2 + 2 * 13
        kinds[type(move).__name__] += 1
        game.apply(move)
    assert kinds["Keep"] == players - 2
    assert kinds["Draw"] >= kinds["Choose"] > 0
    assert MoveBuilder(space, game.view(0)).legal_actions() == []


def test_large_positions_every_sampled_move_is_reachable() -> None:
    rng = random.Random(5)
    large = 0
    for game in random_positions(4, 11):
        legal = game.legal_moves
        if game.is_over or len(legal) <= SMALL:
            continue
        large += 1
        builder = builder_for(game)
        for index in rng.sample(range(len(legal)), 20):
            move = legal[index]
            actions = builder.actions_for(move)
            replay = builder.copy()
            ends = [replay.push(action) for action in actions]
            assert ends[:-1] == [None] * (len(actions) - 1)
            assert ends[-1] == move
    assert large >= 3


def _gift_choices(hand: list[Card], owed: tuple[tuple[int, int], ...]) -> list[tuple[Gift, ...]]:
    if not owed:
        return [()]
    (owner, count), rest = owed[0], owed[1:]
    choices = []
    for chosen in itertools.combinations(hand, count):
        left = [card for card in hand if card not in chosen]
        for tail in _gift_choices(left, rest):
            choices.append(tuple(Gift(owner, card) for card in chosen) + tail)
    return choices


@pytest.mark.parametrize(
    ("players", "seed"), [(3, 21), (4, 22), pytest.param(5, 23, marks=pytest.mark.slow)]
)
def test_every_option_with_every_gift_choice_is_reachable(players: int, seed: int) -> None:
    checked = 0
    for game in random_positions(players, seed, every=5):
        if game.is_over or game.phase is not Phase.ACTION:
            continue
        position = game.position()
        builder = builder_for(game)
        for option in pastiche_core.solver.fast.options(position)[:15]:
            refs = tuple(NovelRef.parse(ident) for ident in option.cited)
            spare = [card for card in position.hand if card not in option.played]
            for gifts in _gift_choices(spare, option.gifts)[:12]:
                move = Publish(option.novel, option.played, refs, gifts)
                assert move in game.legal_moves
                actions = builder.actions_for(move)
                assert actions[0] == SPACE.novel(option.novel)
                assert actions[-1 - len(gifts)] == SPACE.CONFIRM
                checked += 1
    assert checked >= 50


def test_publish_with_gifts_to_two_owners() -> None:
    game = build_game(
        4,
        hands={0: "MYS7 FAN7 MYT6 SCI9 MAG13"},
        tables={0: {"pairs-3": "SCI7"}, 1: {"straight-5": "HOR7"}, 2: {"kind-3": "MYT7"}},
    )
    builder = builder_for(game)
    for text in ["novel kind-5", "play MYS7", "play FAN7", "cite MYT7", "cite SCI7"]:
        assert builder.push(SPACE.parse(text)) is None
    assert [SPACE.describe(a) for a in builder.legal_actions()] == ["cite HOR7"]
    assert builder.push(SPACE.parse("cite HOR7")) is None
    assert builder.legal_actions() == [SPACE.CONFIRM]
    assert builder.push(SPACE.CONFIRM) is None
    assert builder.stage is Stage.GIFTS
    assert builder.owed == ((1, 1), (2, 1))
    # Player 1's gift first; one card must stay for player 2, so any of the three.
    assert [SPACE.describe(a) for a in builder.legal_actions()] == [
        "gift MYT6",
        "gift SCI9",
        "gift MAG13",
    ]
    assert builder.push(SPACE.parse("gift MAG13")) is None
    assert list(builder.owed) == [(2, 1)]
    move = builder.push(SPACE.parse("gift MYT6"))
    assert move == Publish.of(
        "kind-5",
        "MYS7 FAN7",
        cite="0:pairs-3 1:straight-5 2:kind-3",
        gifts="1:MAG13 2:MYT6",
    )
    assert move in game.legal_moves
    assert_one_to_one(game)


def test_gifts_to_one_owner_come_in_card_order() -> None:
    game = build_game(
        3,
        hands={0: "MYT1 MYT2 LOV2 SCI7"},
        tables={1: {"kind-3": "HOR7", "pairs-3": "MYS7"}},
    )
    builder = builder_for(game)
    for text in ["novel kind-3", "play SCI7", "cite HOR7", "cite MYS7", "confirm"]:
        assert builder.push(SPACE.parse(text)) is None
    # Two gifts for player 1, in card order: the last card cannot come first.
    assert [SPACE.describe(a) for a in builder.legal_actions()] == ["gift MYT1", "gift MYT2"]
    builder.push(SPACE.parse("gift MYT2"))
    assert [SPACE.describe(a) for a in builder.legal_actions()] == ["gift LOV2"]
    assert_one_to_one(game)


def test_own_masterpieces_are_free_and_a_card_must_be_played() -> None:
    # kind-3 from own Masterpieces alone is not a publish (R4): a hand card must play.
    game = build_game(
        3,
        hands={0: "SCI7"},
        tables={0: {"pairs-3": "HOR7", "straight-5": "MYS7", "total-5": "FAN7"}},
    )
    count = assert_one_to_one(game)
    publishes = [m for m in game.legal_moves if isinstance(m, Publish)]
    assert len(publishes) == count - 1  # draw is the other move
    assert all(move.played == (Card.parse("SCI7"),) for move in publishes)


class AnyRun(CustomPattern):
    """Three or more cards of consecutive ranks, any number of them (no fixed size)."""

    kind = "any-run"

    def matches(self, ranks: Sequence[int]) -> bool:
        ordered = sorted(ranks)
        return len(ordered) >= 3 and ordered == list(range(ordered[0], ordered[0] + len(ranks)))


VARIABLE = Catalogue(
    [
        NovelSpec("sum-12", "Twelve", SumOfAnySize(12), 2, 3),
        NovelSpec("run", "Any Run", AnyRun(), 1, 3),
        NovelSpec("pair", "A Pair", OfAKind(2), 1, 4),
        NovelSpec("end-flag", "End Flag", None, 1, 1),
    ],
    name="variable",
)
"""Two Novels without a fixed size: confirm decides where the cards end."""


def test_confirm_ends_a_variable_size_publish() -> None:
    space = ActionSpace(VARIABLE)
    game = build_game(
        3,
        hands={0: "MYT2 MYT3 LOV4 SCI5 HOR6 MYS9"},
        tables={1: {"pair": "FAN7"}},
        catalogue=VARIABLE,
    )
    builder = MoveBuilder(space, game.view(0))
    for text in ["novel sum-12", "play MYT2", "play MYT3"]:
        assert builder.push(space.parse(text)) is None
    assert [space.describe(a) for a in builder.legal_actions()] == ["cite FAN7"]  # 2 + 3 + 7
    builder.push(space.parse("cite FAN7"))
    assert builder.legal_actions() == [space.CONFIRM]
    run = MoveBuilder(space, game.view(0))
    for text in ["novel run", "play MYT3", "play LOV4", "play SCI5"]:
        assert run.push(space.parse(text)) is None
    # 3-4-5 is a run; 3-4-5-6 and 3-4-5-6-7 are longer ones.
    assert [space.describe(a) for a in run.legal_actions()] == ["confirm", "play HOR6"]
    assert run.copy().push(space.CONFIRM) == Publish.of("run", "MYT3 LOV4 SCI5")
    run.push(space.parse("play HOR6"))
    assert [space.describe(a) for a in run.legal_actions()] == ["confirm", "cite FAN7"]
    assert_one_to_one(game)


def test_variable_size_catalogue_games() -> None:
    for seed in range(3):
        for position in itertools.islice(atomic_positions(3, seed, VARIABLE), 0, None, 4):
            if not position.is_over and len(position.legal_moves) <= SMALL:
                assert_one_to_one(position)


def test_mini_catalogue_games() -> None:
    for seed in range(4):
        for game in atomic_positions(4, seed, MINI):
            if not game.is_over and len(game.legal_moves) <= SMALL:
                assert_one_to_one(game)


# ----------------------------------------------------------------------
# Masks without enumeration
# ----------------------------------------------------------------------
def _huge_position() -> Game:
    return build_game(
        4,
        hands={0: "MYT5 MYT6 MYT7 LOV5 LOV6 LOV7 LOV8 SCI5 SCI6 SCI7 SCI8 SCI9 HOR6 HOR7 HOR8"},
        tables={
            1: {"kind-3": "MYS7", "pairs-3": "FAN6"},
            2: {"straight-5": "MAG7", "kind-5": "MYS5"},
            3: {"pairs-4": "FAN8", "total-5": "HOR9"},
        },
    )


def test_masks_never_list_publishes(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _huge_position()
    assert len(game.legal_moves) > 1_000_000  # card-level publishes
    publishable = sorted(pastiche_core.solver.fast.counts(game.position()))
    made: list[Publish] = []
    original = Publish.__post_init__

    canonical = Publish.canonical

    def counting(self: Publish) -> None:
        made.append(self)
        original(self)

    def counting_canonical(*fields: Any) -> Publish:
        move = canonical(*fields)
        made.append(move)
        return move

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the mask must not list publishes")

    monkeypatch.setattr(Publish, "__post_init__", counting)
    monkeypatch.setattr(Publish, "canonical", counting_canonical)
    monkeypatch.setattr(pastiche_core.engine.movegen, "publish_segments", forbidden)
    monkeypatch.setattr(pastiche_core.solver.fast, "options", forbidden)
    monkeypatch.setattr(pastiche_core.solver.fast, "search", forbidden)
    builder = builder_for(game)
    rng = random.Random(3)
    novels = [a for a in builder.legal_actions() if SPACE.decode(a)[0] == "novel"]
    assert sorted(str(SPACE.decode(a)[1]) for a in novels) == publishable
    assert len(novels) >= 5
    for novel in novels:
        current = builder.copy()
        move = current.push(novel)
        while move is None:
            move = current.push(rng.choice(current.legal_actions()))
        assert isinstance(move, Publish)
    assert len(made) == len(novels)  # one Publish per sequence: the move it ends in
    monkeypatch.undo()
    for move in made:
        assert move in game.legal_moves


# ----------------------------------------------------------------------
# Errors and the partial state
# ----------------------------------------------------------------------
def test_push_rejects_illegal_actions_and_keeps_the_state() -> None:
    game = Game(4, seed=9)
    builder = builder_for(game)
    with pytest.raises(IllegalMoveError, match="atomic action 'draw' is not legal now"):
        builder.push(SPACE.DRAW)
    with pytest.raises(IllegalMoveError, match="atomic action 999"):
        builder.push(999)
    assert builder.stage is Stage.START
    assert not builder.is_legal(-1)
    assert not builder.is_legal("0")  # type: ignore[arg-type]


def test_builder_needs_the_player_to_move() -> None:
    game = Game(4, seed=9)
    with pytest.raises(InvalidArgumentError, match="view of the player to move"):
        MoveBuilder(SPACE, game.view(0))


def test_actions_for_rejects_illegal_moves() -> None:
    game = Game(4, seed=9)
    builder = builder_for(game)
    hand = game.hand(2)
    for move in ["draw", f"keep {hand[0]} {hand[1]}", "publish kind-3 SCI7", "pass"]:
        with pytest.raises(IllegalMoveError, match="is not a legal move of player 2"):
            builder.actions_for(move)
    keep = next(iter(game.legal_moves))
    assert builder.actions_for(keep) == [SPACE.discard(c) for c in hand if c not in keep.cards]  # type: ignore[attr-defined]
    builder.push(builder.legal_actions()[0])
    with pytest.raises(IllegalMoveError, match="at the start of a decision"):
        builder.actions_for(keep)


def test_partial_state_is_reported() -> None:
    game = build_game(3, hands={0: "SCI7 HOR7 MYS9"}, tables={1: {"kind-3": "MYS7"}})
    builder = builder_for(game)
    builder.push(SPACE.parse("novel kind-3"))
    builder.push(SPACE.parse("play SCI7"))
    # Hand cards of a rank come before its Masterpieces (the canonical order): citing
    # MYS7 now would leave HOR7, the third 7, unplayable.
    assert [SPACE.describe(a) for a in builder.legal_actions()] == ["play HOR7"]
    assert sum(builder.mask()) == 1
    assert len(builder.mask()) == SPACE.size
    builder.push(SPACE.parse("play HOR7"))
    builder.push(SPACE.parse("cite MYS7"))
    assert (builder.stage, builder.novel) == (Stage.CARDS, "kind-3")
    assert builder.played == (Card.parse("SCI7"), Card.parse("HOR7"))
    assert builder.cited == (Card.parse("MYS7"),)
    assert repr(builder) == ("<MoveBuilder player 0, cards, kind-3, play SCI7 play HOR7 cite MYS7>")
    builder.push(SPACE.CONFIRM)
    assert builder.owed == ((1, 1),)
    assert builder.gifts == ()
    assert [SPACE.describe(a) for a in builder.legal_actions()] == ["gift MYS9"]
    assert builder.discards == ()
    assert builder.push(SPACE.parse("gift MYS9")) == Publish.of(
        "kind-3", "SCI7 HOR7", cite="1:kind-3", gifts="1:MYS9"
    )


# ----------------------------------------------------------------------
# The Total search of the mask agrees with the pattern's own search
# ----------------------------------------------------------------------
@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_total_search_matches_the_pattern(seed: int, players: int) -> None:
    from pastiche_core.rl.encoding_masks import (
        _NO_CHOICE,
        _START,
        Table,
        _counts,
        _feasible,
        rank_combos,
    )

    specs = [
        NovelSpec(f"total-{count}-{target}", "Total", Total(count, target), 1, 1)
        for count, target in [(5, 49), (7, 49), (3, 20), (2, 14), (1, 7), (4, 10), (9, 70)]
    ]
    compared = 0
    for game in itertools.islice(atomic_positions(players, seed), 0, None, 2):
        if game.is_over:
            continue
        view = game.view(game.to_move)
        table = Table(view.card_table, view.player)
        for spec in specs:
            assert spec.pattern is not None
            generic = [
                counts
                for counts in map(_counts, spec.pattern.combinations(table.pool))
                if _feasible(table, counts, _NO_CHOICE, _START, 0, 0)
            ]
            assert sorted(rank_combos(spec, table, first=False)) == sorted(generic)
            assert bool(rank_combos(spec, table, first=True)) == bool(generic)
            compared += bool(generic)
    assert compared


# ----------------------------------------------------------------------
# R15: the setup discards come in the order they are discarded
# ----------------------------------------------------------------------
def test_a_seat_discarding_two_chooses_their_order() -> None:
    game = Game(5, seed=3)
    game.apply(game.legal_moves[0])
    game.apply(game.legal_moves[0])
    assert game.to_move == 4
    hand = game.hand(4)
    builder = builder_for(game)
    assert builder.legal_actions() == [SPACE.discard(card) for card in hand]
    # Any card first, then any other: the second discarded lies on top (R15).
    first, second = hand[3], hand[0]
    assert builder.push(SPACE.discard(first)) is None
    assert builder.legal_actions() == [SPACE.discard(c) for c in hand if c != first]
    keep = builder.push(SPACE.discard(second))
    assert keep == Keep(hand[1:3] + hand[4:], (first, second))
    assert keep in game.legal_moves
    assert_one_to_one(game)
    # A keep written without an order is the card-order discard, as the game records it.
    assert builder_for(game).actions_for(f"keep {hand[1]} {hand[2]} {hand[4]}") == [
        SPACE.discard(hand[0]),
        SPACE.discard(hand[3]),
    ]
    ordered = f"keep {hand[1]} {hand[2]} {hand[4]} discard {hand[3]} {hand[0]}"
    assert builder_for(game).actions_for(ordered) == [SPACE.discard(first), SPACE.discard(second)]
    game.apply(keep)
    assert game.discard[-2:] == (first, second)


def test_a_seat_discarding_one_has_one_keep_per_card() -> None:
    game = Game(4, seed=8)
    hand = game.hand(2)
    builder = builder_for(game)
    for card in hand:
        keep = builder.copy().push(SPACE.discard(card))
        assert keep == Keep(tuple(c for c in hand if c != card))
        assert keep is not None
        assert keep.discard == ()
    kept = [c for c in hand if c != hand[0]]
    written = f"keep {' '.join(map(str, kept))} discard {hand[0]}"
    assert builder.actions_for(written) == [SPACE.discard(hand[0])]
    assert_one_to_one(game)
