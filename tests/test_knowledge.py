"""One Knowledge, two sources (R16): followed move by move from a live game, or replayed from a
view's public history through the engine's records and notation reader; the same either way,
true of the real game, and blind to what the player did not see."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from budget import examples
from builders import build_game
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import DECK, Card, Game, InvalidArgumentError, RandomBot, check_invariants
from pastiche_core.ai.playout import PolicyBot
from pastiche_core.bots.play import Bot, derive_seed
from pastiche_core.data.errors import InvalidNotationError
from pastiche_core.engine.game_internals import (
    history_seats,
    insides,
    move_record,
    public_records,
    stack_deck,
)
from pastiche_core.engine.knowledge import Knowledge, hidden_cards
from pastiche_core.engine.moves import Draw, Move, Publish, TakeDiscard
from pastiche_core.engine.view import MoveRecord, PlayerView, public_notation, read_public_notation


def _state(known: Knowledge) -> tuple[object, ...]:
    return (known.player, known.seen, known.holders, known.located, known.moves)


def _bots(players: int, seed: int) -> list[Bot]:
    """Random bots (card-level publishes with gifts) and policy bots (takes, reads)."""
    return [
        RandomBot(derive_seed(seed, "knowledge", seat))
        if (seed + seat) % 2
        else PolicyBot(derive_seed(seed, "knowledge", seat), explore=0.3)
        for seat in range(players)
    ]


def _walk(players: int, seed: int, decisions: int) -> Iterator[tuple[Game, list[Knowledge]]]:
    """A game played by bots with undos now and then, each seat's knowledge followed move by move
    (an undo goes back to the knowledge kept before the move)."""
    rng = random.Random(seed)
    game = Game(players=players, seed=seed)
    bots = _bots(players, seed)
    followed = [Knowledge.of(game, seat) for seat in range(players)]
    kept = [[known.copy() for known in followed]]
    yield game, followed
    for _ in range(decisions):
        if game.is_over:
            break
        if game.history and rng.random() < 0.12:
            game.undo()
            kept.pop()
            followed = [known.copy() for known in kept[-1]]
        else:
            player = game.to_move
            game.apply(bots[player].choose(game.view(player), game.legal_moves))
            Knowledge.update_all(followed, game)
            kept.append([known.copy() for known in followed])
        yield game, followed


def _check_true(game: Game, known: Knowledge) -> None:
    """Nothing the knowledge claims is false in the real game."""
    me = known.player
    for card, seats in known.located:
        assert me not in seats
        assert any(card in insides(game).hand(seat) for seat in seats), (me, card, seats)
    for index, holder in known.holders.items():
        assert DECK[index] in insides(game).hand(holder), (me, DECK[index], holder)
        assert index in known.seen
    shown = {card.index for card in hidden_cards(game.view(me), shown=True)}
    assert shown <= known.seen


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_followed_move_by_move_or_replayed_from_the_view_the_knowledge_is_the_same(
    seed: int, players: int
) -> None:
    """For every seat at every position, undos included: the live knowledge equals the view's
    replay, and both are true of the real game."""
    located = 0
    for step, (game, followed) in enumerate(_walk(players, seed, 220)):
        check_every = step % 3 == 0 or game.is_over
        for seat, known in enumerate(followed):
            assert known.moves == len(game.history)
            _check_true(game, known)
            located += len(known.located)
            if check_every:
                replayed = Knowledge.of(game.view(seat))
                assert replayed.history_used
                assert _state(replayed) == _state(known)
    assert located


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_records_and_public_notation_read_back(seed: int, players: int) -> None:
    """The view's records are the whole records cut to what its player saw (kept move by move
    across undos and copies), and the public notation reads back to the move less its hidden
    cards."""
    copies: list[tuple[Game, list[tuple[MoveRecord, ...]]]] = []
    for step, (game, _) in enumerate(_walk(players, seed, 160)):
        whole = [move_record(game, index) for index in range(len(game.history))]
        mine = [public_records(game, viewer) for viewer in range(players)]
        for viewer in range(players):
            assert mine[viewer] == tuple(record.seen_by(viewer) for record in whole)
            assert game.view(viewer).records == mine[viewer]
        if step % 25 == 0:
            copies.append((game.copy(), mine))
        for record, move, seat in zip(whole, game.history, history_seats(game), strict=True):
            assert (record.seat, record.keyword) == (seat, move.keyword)
            for viewer in range(players):
                shown = record.seen_by(viewer)
                if viewer != seat:
                    assert shown.drawn == shown.laid_down == ()
                public = read_public_notation(public_notation(move, seat, viewer))
                assert public.keyword == move.keyword
                if isinstance(move, Publish):
                    assert isinstance(public.move, Publish)
                    seen = [g for g in move.gifts if viewer in (seat, g.to)]
                    assert public.move.gifts == tuple(seen)
                    assert public.move.played == move.played
                    assert public.move.cited == move.cited
                    assert public.hidden_gifts == tuple(
                        g.to for g in move.gifts if viewer not in (seat, g.to)
                    )
                elif public.move is not None:
                    assert public.move == move
                else:
                    assert viewer != seat
                    assert move.keyword in ("keep", "choose")
    for twin, records in copies:  # copies keep their own records
        assert [public_records(twin, viewer) for viewer in range(players)] == records


@given(st.integers(0, 2**32 - 1), st.integers(3, 5), st.randoms(use_true_random=False))
@settings(max_examples=examples(8), deadline=None)
def test_r16_a_views_records_read_late_are_the_ones_of_its_moment(
    seed: int, players: int, rng: random.Random
) -> None:
    """Views held across later moves, undos and copies, read in any order (or pickled), still
    give what their player saw when they were made."""
    import pickle

    held: list[tuple[PlayerView, tuple[MoveRecord, ...]]] = []
    for game, _ in _walk(players, seed, 120):
        viewer = rng.randrange(players)
        whole = [move_record(game, index) for index in range(len(game.history))]
        held.append((game.view(viewer), tuple(r.seen_by(viewer) for r in whole)))
        if rng.random() < 0.2:  # some are read at once
            assert tuple(held[-1][0].records) == held[-1][1]
    rng.shuffle(held)
    for view, expected in held:
        assert len(view.records) == len(expected)
        assert tuple(view.records) == expected
        assert pickle.loads(pickle.dumps(view)).records == expected


def test_the_records_say_what_the_notation_does_not() -> None:
    game = Game(players=5, seed=3)
    for _ in range(3):
        game.apply(game.legal_moves[0])
    keep = move_record(game, 2)
    assert keep.seat == 4
    assert len(keep.laid_down) == 2
    assert move_record(game, 2).seen_by(4) == keep
    assert move_record(game, 2).seen_by(3).laid_down == ()
    assert list(keep.laid_down) == list(game.discard[-2:])
    game.apply("draw")
    assert game._pending is not None
    assert move_record(game).drawn == game._pending
    pending = game._pending
    game.apply(f"choose {pending[1]}")
    assert move_record(game).laid_up == pending[0]
    assert move_record(game, -2).drawn == pending  # the pair, read from the choose now
    game.apply("take")  # player 1 takes the card laid face up
    took = move_record(game)
    assert (took.taken, took.taken_from) == (pending[0], None)
    assert took.seen_by(3) == took
    with pytest.raises(InvalidArgumentError, match="index must name a move"):
        move_record(game, len(game.history))
    with pytest.raises(InvalidArgumentError, match="player must be a seat"):
        public_records(game, 5)


def test_a_face_down_take_is_known_to_the_taker_and_the_discarder_alone() -> None:
    game = Game(5, seed=3)
    for _ in range(3):
        game.apply(game.legal_moves[0])
    top = game.discard[-1]
    game.apply("take")  # player 0 takes player 4's top setup discard, face down
    record = move_record(game)
    assert (record.taken, record.taken_from) == (top, 4)
    assert [record.seen_by(seat).taken for seat in range(5)] == [top, None, None, None, top]
    known = [Knowledge.of(game.view(seat)) for seat in range(5)]
    assert known[4].holders == {top.index: 0}
    assert all(each.holders == {} for each in known[:4])
    assert top.index not in known[2].seen


def test_the_one_card_left_drawn_from_the_pile_is_known_when_it_lay_face_up() -> None:
    """R11: with one card left in deck and pile together, Write ① takes just that card; from
    the pile it lay face up, so every seat knows where it went. From the deck it is hidden."""
    hands = {0: "MYT1 LOV2", 1: "SCI3", 2: "HOR4"}
    game = build_game(3, hands=hands, discard="MAG13", deck="", leftover=2)
    knowledge = [Knowledge.of(game, seat) for seat in range(3)]
    game.apply("draw")
    Knowledge.update_all(knowledge, game)
    card = Card.parse("MAG13")
    assert card in game.hand(0)
    assert move_record(game).taken == card
    assert [known.holders for known in knowledge] == [{}, {card.index: 0}, {card.index: 0}]
    assert [Knowledge.of(game, seat).holders for seat in range(3)] == [
        known.holders for known in knowledge
    ]
    hidden = build_game(3, hands=hands, deck="MAG13", leftover=2)
    knowledge = [Knowledge.of(hidden, seat) for seat in range(3)]
    hidden.apply("draw")
    Knowledge.update_all(knowledge, hidden)
    assert move_record(hidden).drawn == (card,)
    assert move_record(hidden).taken is None
    assert [known.holders for known in knowledge] == [{}, {}, {}]
    assert card.index in knowledge[0].seen
    assert card.index not in knowledge[1].seen


def test_a_hidden_gift_widens_where_the_givers_known_cards_may_be() -> None:
    """Player 1 read MYS7, then gave player 2 and player 3 a card each: player 0 saw neither,
    so MYS7 may be in any of the three hands; player 3 saw its own (MYS7), not player 2's."""
    game = build_game(
        4,
        hands={0: "FAN7 SCI8", 1: "MYT1 LOV2 SCI9", 2: "HOR4", 3: "MAG13"},
        tables={
            2: {"straight-5": "MYT3 LOV4 SCI5 HOR6 MYS7", "pairs-3": "HOR9"},
            3: {"pairs-4": "MYS9"},
        },
        discard="LOV3 MYT6",
        to_move=1,
    )
    knowledge = [Knowledge.of(game, seat) for seat in range(4)]
    mys7 = Card.parse("MYS7")
    for move in ("read 2:straight-5 MYS7", "take", "draw"):
        game.apply(move)
        Knowledge.update_all(knowledge, game)
    assert game._pending is not None
    game.apply(f"choose {game._pending[0]}")
    Knowledge.update_all(knowledge, game)
    game.apply("draw")
    Knowledge.update_all(knowledge, game)
    assert game._pending is not None
    game.apply(f"choose {game._pending[0]}")
    Knowledge.update_all(knowledge, game)
    assert knowledge[0].located == ((Card.parse("MYT6"), frozenset({2})), (mys7, frozenset({1})))
    game.apply("publish kind-3 SCI9 cite 2:pairs-3 3:pairs-4 gift 2:MYT1 3:MYS7")
    Knowledge.update_all(knowledge, game)
    assert dict(knowledge[0].located)[mys7] == frozenset({1, 2, 3})
    assert mys7.index not in knowledge[0].holders
    assert knowledge[3].located == ((Card.parse("MYT6"), frozenset({2})),)  # MYS7 in hand
    assert knowledge[2].holders == {}  # player 1's known card may have gone to 3
    assert dict(knowledge[2].located)[mys7] == frozenset({1, 3})
    for seat, known in enumerate(knowledge):
        replayed = Knowledge.of(game.view(seat))
        assert _state(replayed) == _state(known)
        _check_true(game, known)


def test_a_history_that_does_not_fit_the_view_is_not_used() -> None:
    game = Game(players=4, seed=5)
    other = Game(players=4, seed=6)
    rng = random.Random(1)
    for each in (game, other):
        for _ in range(60):
            legal = each.legal_moves
            each.apply(legal[rng.randrange(len(legal))])
    view = game.view(1)
    for odd in (
        dataclasses.replace(view, history=other.view(1).history),
        dataclasses.replace(view, history=()),
        dataclasses.replace(view, records=other.view(1).records),
        game.view(1, history=False),
    ):
        known = Knowledge.of(odd)
        assert not known.history_used
        assert known.located == ()
        assert {card.index for card in hidden_cards(view, shown=True)} == known.seen
    assert Knowledge.of(Game(players=4, seed=5).view(1, history=False)).history_used  # at the deal


def test_a_view_without_records_replays_its_notation_alone() -> None:
    """A view read from a document carries no records: reads and gifts still place cards."""
    game = build_game(
        3,
        hands={0: "SCI7", 1: "MYT1", 2: "HOR4"},
        tables={2: {"straight-5": "MYT3 LOV4 SCI5 HOR6 MYS7"}},
        discard="LOV3",
        to_move=1,
    )
    game.apply("read 2:straight-5 MYS7")
    game.apply("take")
    view = game.view(0)
    bare = Knowledge.of(dataclasses.replace(view, records=()))
    assert bare.history_used
    assert bare.located == ((Card.parse("MYS7"), frozenset({1})),)
    assert Knowledge.of(view).known_cards(2) == (Card.parse("LOV3"),)


def test_public_notation_puts_question_marks_only_where_it_hides_cards() -> None:
    for text in (
        "read 1:kind-3 ?",
        "flag ?",
        "draw ?",
        "publish kind-3 ? cite 1:kind-5",
        "keep ? MYT1",
    ):
        with pytest.raises(InvalidNotationError, match="invalid public move"):
            read_public_notation(text)
    with pytest.raises(InvalidNotationError):
        read_public_notation("publish kind-3 MYS7 gift 9:?")
    assert read_public_notation("choose ?").move is None


def test_knowledge_of_refuses_what_is_not_a_seat_or_a_view() -> None:
    game = Game(3, seed=7)
    with pytest.raises(InvalidArgumentError, match="player must be a seat from 0 to 2, got 3"):
        Knowledge.of(game, 3)
    with pytest.raises(InvalidArgumentError, match="player must be a seat number"):
        Knowledge.of(game)
    with pytest.raises(InvalidArgumentError, match="the view is player 0's, not player 1's"):
        Knowledge.of(game.view(0), 1)
    with pytest.raises(InvalidArgumentError, match="expected a PlayerView or a Game"):
        Knowledge.of("game")  # type: ignore[arg-type]


# ----------------------------------------------------------------------
# Stacking the deck for an outside chance (OpenSpiel)
# ----------------------------------------------------------------------
def _draw_ready(deck: str, discard: str, face_down: str = "") -> Game:
    """Player 0 to act with exactly this deck and pile (read back whole, card table included)."""
    built = build_game(
        3,
        hands={0: "MYT1", 1: "LOV2", 2: "SCI3"},
        deck=deck,
        discard=discard,
        face_down=face_down,
        leftover=1,
        turn=40 - len(deck.split()) - len(discard.split()),  # every turn a Write (R11)
    )
    game = Game.from_json(built.to_json())
    check_invariants(game)
    return game


def test_a_stacked_deck_draws_the_chosen_cards() -> None:
    game = _draw_ready("MAG13 MAG12 MAG11", "HOR4")
    stack_deck(game, [Card.parse("MAG11"), "MAG13"])
    assert insides(game).deck[-2:] == [Card.parse("MAG13"), Card.parse("MAG11")]
    check_invariants(game)
    game.apply(Draw())
    assert insides(game).pending == (Card.parse("MAG11"), Card.parse("MAG13"))
    check_invariants(game)


def test_stacking_past_the_deck_reshuffles_the_pile_now() -> None:
    """R11: the deck's card comes first, then one of the pile's (the pile is reshuffled)."""
    game = _draw_ready("MAG13", "HOR4 HOR5 HOR6", face_down="HOR4")
    before = game.generation
    assert Move.parse("take") in game.legal_moves
    stack_deck(game, ["MAG13", "HOR5"])
    assert game.generation != before
    assert not game.discard
    assert not insides(game).is_face_down(Card.parse("HOR4"))
    assert sorted(insides(game).deck) == sorted(
        Card.parse(c) for c in ("MAG13", "HOR4", "HOR5", "HOR6")
    )
    assert TakeDiscard() not in game.legal_moves  # the legal moves follow
    check_invariants(game)
    game.apply("draw")
    assert insides(game).pending == (Card.parse("MAG13"), Card.parse("HOR5"))
    check_invariants(game)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["MAG13"], "the draw takes 2 different cards"),
        (["MAG13", "MAG13"], "the draw takes 2 different cards"),
        (["HOR5", "MAG13"], "takes the deck's cards MAG13 first"),
        (["MAG13", "MYT1"], "takes the deck's cards MAG13 first"),
        (["MAG13", 7], "cards must be cards or their notation"),
    ],
)
def test_a_bad_stack_is_refused_and_changes_nothing(cards: list[object], message: str) -> None:
    game = _draw_ready("MAG13", "HOR4 HOR5 HOR6", face_down="HOR4")
    twin = game.copy()
    generation = game.generation
    with pytest.raises(InvalidArgumentError, match=message):
        stack_deck(game, cards)  # type: ignore[arg-type]
    assert game == twin
    assert game.generation == generation
    assert insides(game).card_table == insides(twin).card_table


def test_only_a_player_about_to_draw_gets_a_stacked_deck() -> None:
    game = Game(3, seed=7)
    with pytest.raises(InvalidArgumentError, match="the game is in the keep phase"):
        stack_deck(game, ["MYT1", "LOV2"])
    empty = build_game(3, hands={0: "MYT1"}, deck="", leftover=1)
    with pytest.raises(InvalidArgumentError, match="the deck and the discard pile are empty"):
        stack_deck(empty, [])
    one = _draw_ready("", "HOR4")
    stack_deck(one, ["HOR4"])  # the one card left: nothing to arrange
    with pytest.raises(InvalidArgumentError, match="takes the one card left, HOR4, got HOR5"):
        stack_deck(one, ["HOR5"])
    one.apply("draw")
    assert Card.parse("HOR4") in one.hand(0)
    assert move_record(one).taken == Card.parse("HOR4")
