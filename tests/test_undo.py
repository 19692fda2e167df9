"""Undo: every move taken back restores the exact previous state, generator included (R14)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import (
    Game,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    Publish,
)
from pastiche_core.engine.game_internals import (
    history_seats,
    insides,
    public_history,
    renamed,
    stale_summary,
)
from pastiche_core.engine.movegen import ReadSegment
from pastiche_core.engine.view import public_notation
from pastiche_core.io import state_from_json, state_to_json


def play(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        legal = game.legal_moves
        if game.is_over:
            return
        game.apply(legal[rng.randrange(len(legal))])


@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**32 - 1),
    choices=st.integers(0, 2**32 - 1),
)
def test_r14_undo_restores_every_position_of_a_random_game(
    players: int, seed: int, choices: int
) -> None:
    game = Game(players=players, seed=seed)
    rng = random.Random(choices)
    snapshots = [game.copy()]
    while not game.is_over and len(game.history) < 400:
        legal = game.legal_moves
        move = legal[rng.randrange(len(legal))]
        game.apply(move)
        snapshots.append(game.copy())
        if rng.random() < 0.3:  # undo and replay: the same move leads to the same state
            assert game.undo() == move
            assert game == snapshots[-2]
            game.apply(move)
            assert game == snapshots[-1]
    while game.history:
        snapshots.pop()
        game.undo()
        assert game == snapshots[-1]
        assert game.history == snapshots[-1].history
    assert game == Game(players=players, seed=seed)


def test_r11_undo_takes_back_a_draw_that_reshuffled_the_discard_pile() -> None:
    rng = random.Random(5)
    for seed in range(200):
        game = Game(players=5, seed=seed)
        while not game.is_over:
            legal = game.legal_moves
            move = legal[rng.randrange(len(legal))]
            if str(move) == "draw" and game.deck_size < 2 and game.discard:
                before = game.copy()
                game.apply(move)
                assert game.undo() == move
                assert game == before
                assert insides(game).rng_state == insides(before).rng_state
                return
            game.apply(move)
    pytest.fail("no reshuffling draw found in 200 games")


def test_a_loaded_game_undoes_by_replaying_its_history() -> None:
    game = Game(players=4, seed=11)
    play(game, random.Random(3), 40)
    loaded = state_from_json(state_to_json(game))
    twin = game.copy()
    assert loaded.undo() == twin.undo()
    assert loaded == twin
    assert loaded.undo() == twin.undo()
    assert loaded == twin


def test_nothing_to_undo_leaves_the_game_untouched() -> None:
    game = Game(players=3, seed=1)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    assert game == Game(players=3, seed=1)


@pytest.mark.parametrize("seat", [3, -1, 10**18, True, "0"])
def test_a_seat_outside_the_game_is_a_clear_error(seat: object) -> None:
    game = Game(players=3, seed=1)
    for query in (
        game.hand,
        game.table,
        insides(game).masterpiece_points,
        insides(game).masterpiece_count,
    ):
        with pytest.raises(InvalidArgumentError, match="player must be a seat"):
            query(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("move", [42, None, 3.5, b"draw", ["draw"]])
def test_applying_something_that_is_not_a_move_says_so(move: object) -> None:
    game = Game(players=3, seed=1)
    said = "no move to apply" if move is None else "expected a Move or its notation"
    with pytest.raises(InvalidNotationError, match=said):
        game.apply(move)  # type: ignore[arg-type]
    assert game == Game(players=3, seed=1)


def test_legal_moves_kept_across_an_undo_follow_the_game() -> None:
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    legal = game.legal_moves
    game.apply("draw")
    assert all(str(move).startswith("choose") for move in legal)
    game.undo()
    game.apply("take")
    assert not any(str(move).startswith("choose") for move in legal)
    assert list(legal) == list(game.legal_moves)


def test_a_copy_undoing_and_replaying_a_draw_leaves_the_original_untouched() -> None:
    """Undo records are shared by copies: taking back a draw must not hand the record out."""
    game = Game(players=3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    before = game.copy()
    game.apply("draw")
    twin = game.copy()
    twin.undo()
    twin.apply("draw")  # draws from the deck the undo restored
    game.undo()
    assert game == before


def test_the_seats_of_a_history_come_from_its_records_whatever_the_deal() -> None:
    game = Game(players=4, seed=5)
    play(game, random.Random(5), 30)
    seats = history_seats(game)
    # Deal the hidden cards anew: the game is no longer its seed's, its records still tell.
    cards = [c for p in (1, 2, 3) for c in game.hand(p)] + list(insides(game).deck)
    shuffled = cards.copy()
    random.Random(1).shuffle(shuffled)
    twin = renamed(game, dict(zip(cards, shuffled, strict=True)))
    assert history_seats(twin) == seats
    # Without records the seats come from replaying the seed, which fails here.
    twin._undo = []
    with pytest.raises(InvalidStateError, match="replaying them from seed 5 fails"):
        history_seats(twin)
    with pytest.raises(InvalidStateError, match="replaying them from seed 5 fails"):
        twin.view(0)
    plain = game.copy()
    plain._undo = []
    assert history_seats(plain) == seats
    # A view of it reads its texts and records from the replay, once; later moves add theirs.
    assert [plain.view(p).records for p in range(4)] == [game.view(p).records for p in range(4)]
    for each in (plain, game):
        each.apply(each.legal_moves[0])
    assert len(plain._undo) == 1
    for p in range(4):
        assert (plain.view(p).history, plain.view(p).records) == (
            game.view(p).history,
            game.view(p).records,
        )


@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_a_renamed_game_plays_and_undoes_as_the_original(seed: int, choices: int) -> None:
    game = Game(players=4, seed=seed)
    play(game, random.Random(choices), 60)
    rng = random.Random(seed)
    hidden = [c for p in (1, 2, 3) for c in game.hand(p)] + list(insides(game).deck)
    shuffled = hidden.copy()
    rng.shuffle(shuffled)
    renaming = dict(zip(hidden, shuffled, strict=True))
    back = {new: old for old, new in renaming.items()}
    twin = renamed(game, renaming)
    assert renamed(twin, back) == game
    assert renamed(twin, back).history == game.history
    assert [len(twin.hand(p)) for p in range(4)] == [len(game.hand(p)) for p in range(4)]
    while game.history:
        game.undo()
        twin.undo()
        assert renamed(twin, back) == game


def test_a_renaming_must_be_a_permutation_of_cards() -> None:
    game = Game(players=3, seed=1)
    with pytest.raises(InvalidArgumentError, match="a permutation"):
        renamed(game, {insides(game).deck[0]: insides(game).deck[1]})
    with pytest.raises(InvalidArgumentError, match="maps cards to cards"):
        renamed(game, {"SCI7": "SCI7"})  # type: ignore[dict-item]
    assert renamed(game, {}) == game


def test_r11_r14_the_kept_table_summaries_follow_publishes_reads_and_undos() -> None:
    # Views read every seat's novels and points from summaries kept between table
    # changes (R11 reads, R7 publishes); an undo (R14) must forget them too.
    rng = random.Random(5)
    game = Game(players=4, seed=5)
    seen = 0
    while not game.is_over and seen < 400:
        before = (game.tables(), game.scores())
        legal = list(game.legal_moves)
        game.apply(legal[rng.randrange(len(legal))])
        after = (game.tables(), game.scores())
        seats = range(game.players)
        assert after == (
            tuple(game.table(s) for s in seats),
            tuple(game.scores()[s] for s in seats),
        )
        assert stale_summary(game) is None
        assert (game.tables(), game.scores()) == after
        if rng.random() < 0.2:
            game.undo()
            assert (game.tables(), game.scores()) == before
            assert game.tables() == tuple(game.table(s) for s in range(game.players))
            assert stale_summary(game) is None
        seen += 1


def test_r6_r14_the_kept_usable_flags_follow_publishes_undos_and_outside_changes() -> None:
    # Move generation keeps each seat's usable flags (R6: a Novel with a copy left, not on
    # the seat's table) until a table or the supply changes, an undo included (R14).
    rng = random.Random(8)
    game = Game(players=4, seed=8)
    published = 0
    while not game.is_over and published < 6:
        legal = list(game.legal_moves)
        publishes = [m for m in legal if isinstance(m, Publish)]
        move = publishes[0] if publishes else legal[rng.randrange(len(legal))]
        game.apply(move)
        assert stale_summary(game) is None
        if isinstance(move, Publish):
            published += 1
            if published % 2:
                game.undo()
                assert move in game.legal_moves  # its copy is back in the supply
                assert stale_summary(game) is None
    assert published == 6


def test_r6_a_supply_changed_from_outside_changes_the_publishes() -> None:
    # The supply is a public dictionary: emptying a Novel's copies from outside must take
    # its publishes away at once (R6), although the flags were kept from before.
    rng = random.Random(3)
    game = Game(players=4, seed=3)
    while not any(isinstance(m, Publish) for m in game.legal_moves):
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    novel = next(m for m in game.legal_moves if isinstance(m, Publish)).novel
    game._supply[novel] = 0
    assert not any(isinstance(m, Publish) and m.novel == novel for m in game.legal_moves)
    assert stale_summary(game) is None


def test_stale_summary_sees_kept_usable_flags_that_disagree() -> None:
    game = Game(players=3, seed=2)
    list(game.legal_moves)
    game._usable[1] = bytes(len(game.catalogue.publishable))  # planted: nothing usable
    game._usable_supply = game._supply.copy()
    assert stale_summary(game) == 1
    assert stale_summary(game) is None  # made anew on the way


def _game_with_reads(seed: int) -> Game:
    """A 3-player game played at random from ``seed`` until some card can be read (R11)."""
    rng = random.Random(seed)
    game = Game(players=3, seed=seed)
    while not game._read_segment().count:
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return game


def test_stale_summary_sees_kept_reads_that_disagree() -> None:
    # R11: the Reads are kept until a table changes; a planted one must be seen.
    game = _game_with_reads(4)
    novels = game._read_segment().novels
    owner = novels[0][0]
    game._reads = ReadSegment(novels[1:])  # planted: one Published novel left out
    assert stale_summary(game) == owner
    assert stale_summary(game) is None


def test_r14_r16_public_histories_follow_undos_and_replays() -> None:
    # Each move's public text is kept beside the history; an undo and another move in its
    # place (R14) must not leave the old text, and a gift to a third seat stays hidden (R16).
    rng = random.Random(11)
    game = Game(players=4, seed=11)
    for _ in range(300):
        if game.is_over:
            break
        legal = list(game.legal_moves)
        game.apply(legal[rng.randrange(len(legal))])
        public_history(game, rng.randrange(game.players))  # its text is kept now
        if rng.random() < 0.25:
            game.undo()
            legal = list(game.legal_moves)
            game.apply(legal[-1 - rng.randrange(len(legal))])
        viewer = rng.randrange(game.players)
        seats = history_seats(game)
        fresh = tuple(
            (seat, public_notation(move, seat, viewer))
            for move, seat in zip(game.history, seats, strict=True)
        )
        assert public_history(game, viewer) == fresh
        assert public_history(game.copy(), viewer) == fresh


def test_r16_stale_summary_sees_kept_public_texts_and_histories_that_disagree() -> None:
    # Each move's public texts and each seat's public history are kept between views; a
    # planted text or record must be seen, and named by the seat it misleads.
    rng = random.Random(6)
    game = Game(players=4, seed=6)
    for _ in range(40):
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    views = [game.view(seat) for seat in range(4)]
    assert stale_summary(game) is None
    move, seat, own, public, whole, shown = game._texts[5]
    game._texts[5] = (move, seat, own, public + " ?", whole, shown)  # planted
    assert stale_summary(game) == seat
    assert stale_summary(game) is None  # made anew on the way
    assert [game.view(seat) for seat in range(4)] == views
    kept = game._public
    assert kept is not None
    assert kept[2] is not None
    notes, records, last = kept[2]
    kept[2] = (notes, (*records[:-1], records[0]), last)  # planted
    assert stale_summary(game) == 2
    assert game.view(2).records == views[2].records


def test_r11_stale_summary_sees_a_seats_kept_published_novels_that_disagree() -> None:
    # Each seat's Published novels are kept until its own table changes; a planted list
    # must be seen even while the Reads of the position are not made yet.
    game = _game_with_reads(4)
    owner = game._read_segment().novels[0][0]
    kept = game._published[owner]
    assert kept
    game._published[owner] = kept[1:]  # planted: one Published novel left out
    game._reads = None
    assert stale_summary(game) == owner
    assert stale_summary(game) is None
    assert game._read_segment().novels[0] == kept[0]
