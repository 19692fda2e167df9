"""A player's view shows what that player may know, and nothing more.

Hidden information is the other hands, the deck (and the generator that will
reshuffle it), the face-down discards (R10) and the two cards drawn by Write ①
while another player chooses (R11). Rearranging hidden cards must not change a
player's view; changing anything visible must.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import random
import types
from collections.abc import Callable

import pytest
from builders import assert_invariants, position_pool
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import Card, Catalogue, Game, InvalidStateError, Move, Phase
from pastiche_core.engine.game_internals import history_seats, insides
from pastiche_core.engine.view import PlayerView, public_notation, setup_discarders
from pastiche_core.io import view_from_dict, view_to_dict


def hidden_cards(game: Game, player: int) -> list[Card]:
    """The cards ``player`` cannot see, in a fixed order of their places."""
    cards: list[Card] = []
    for q in range(game.players):
        if q != player:
            cards += sorted(game._hands[q])
    cards += game._deck
    cards += [game._discard[i] for i in _hidden_discards(game, player)]
    if game._pending is not None and game.to_move != player:
        cards += game._pending
    return cards


def _hidden_discards(game: Game, player: int) -> list[int]:
    """Indexes of the face-down discards ``player`` did not discard (R16)."""
    discarders = setup_discarders(game.players)
    return [
        i for i, c in enumerate(game._discard) if c in game._face_down and discarders[i] != player
    ]


def with_hidden(game: Game, player: int, cards: list[Card]) -> Game:
    """A copy of ``game`` with the hidden places of ``player`` refilled from ``cards`` in order."""
    twin = game.copy()
    it = iter(cards)
    for q in range(game.players):
        if q != player:
            twin._hands[q] = {next(it) for _ in range(len(game._hands[q]))}
    twin._deck = [next(it) for _ in insides(game).deck]
    down = [i for i, c in enumerate(game._discard) if c in game._face_down]
    for i in _hidden_discards(game, player):
        twin._discard[i] = next(it)
    twin._face_down = {twin._discard[i] for i in down}
    if insides(game).pending is not None and game.to_move != player:
        twin._pending = (next(it), next(it))
    assert next(it, None) is None
    return twin


positions = st.integers(0, 10**6)


@given(index=positions, player=st.integers(0, 4), seed=st.integers(0, 2**32 - 1))
def test_rearranging_hidden_cards_leaves_the_view_unchanged(
    index: int, player: int, seed: int
) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    player %= game.players
    rng = random.Random(seed)
    shuffled = hidden_cards(game, player)
    rng.shuffle(shuffled)
    twin = with_hidden(game, player, shuffled)
    twin._rng.state = rng.getrandbits(64)  # the generator's state is hidden too (R14)
    assert_invariants(twin)
    assert twin.view(player) == game.view(player)
    # The same rearrangement is seen by every opponent whose own hand changed.
    for q in range(game.players):
        if q != player and twin._hands[q] != game._hands[q]:
            assert twin.view(q) != game.view(q)


def _swap(game: Game, a: Card, b: Card) -> Game:
    """A copy with cards ``a`` and ``b`` exchanged wherever they lie."""
    twin = game.copy()

    def swapped(card: Card) -> Card:
        return b if card is a else a if card is b else card

    twin._deck = [swapped(c) for c in insides(twin).deck]
    twin._discard = [swapped(c) for c in twin._discard]
    twin._face_down = {swapped(c) for c in twin._face_down}
    twin._hands = [{swapped(c) for c in hand} for hand in twin._hands]
    twin._tables = [
        {nid: tuple(swapped(c) for c in cards) for nid, cards in table.items()}
        for table in twin._tables
    ]
    if twin._flag is not None:
        twin._flag = (twin._flag[0], swapped(twin._flag[1]))
    if twin._pending is not None:
        twin._pending = (swapped(twin._pending[0]), swapped(twin._pending[1]))
    twin._cards = twin._locate()
    return twin


def visible_changes(game: Game, player: int) -> list[Callable[[random.Random], Game]]:
    """Ways to change something ``player`` can see, each keeping all 49 cards in place."""
    hidden = hidden_cards(game, player)
    changes: list[Callable[[random.Random], Game]] = []
    if not hidden:
        return changes
    visible: list[Card] = list(game._hands[player])
    visible += [c for c in game._discard if c not in game._face_down]
    visible += [c for p in range(game.players) for cards in game._tables[p].values() for c in cards]
    if game._flag is not None:
        visible.append(game._flag[1])
    if game._pending is not None and game.to_move == player:
        visible += game._pending
    if visible:
        changes.append(lambda rng: _swap(game, rng.choice(visible), rng.choice(hidden)))
    opponents = [q for q in range(game.players) if q != player and game._hands[q]]
    if opponents:

        def move_between_hands(rng: random.Random) -> Game:
            giver = rng.choice(opponents)
            taker = rng.choice([q for q in range(game.players) if q != giver])
            twin = game.copy()
            card = rng.choice(sorted(twin._hands[giver]))
            twin._hands[giver].discard(card)
            twin._hands[taker].add(card)
            return twin

        changes.append(move_between_hands)
    down = [c for c in game._discard if c in game._face_down]
    if down:

        def turn_face_up(rng: random.Random) -> Game:
            twin = game.copy()
            twin._face_down.discard(rng.choice(down))
            return twin

        changes.append(turn_face_up)
    return changes


@given(index=positions, player=st.integers(0, 4), seed=st.integers(0, 2**32 - 1))
def test_changing_visible_things_changes_the_view(index: int, player: int, seed: int) -> None:
    pool = position_pool()
    game = pool[index % len(pool)]
    player %= game.players
    rng = random.Random(seed)
    changes = visible_changes(game, player)
    if not changes:
        return
    twin = rng.choice(changes)(rng)
    assert sum(len(twin.hand(p)) for p in range(twin.players)) + twin.deck_size + len(
        twin.discard
    ) == sum(len(game.hand(p)) for p in range(game.players)) + game.deck_size + len(game.discard)
    assert twin.view(player) != game.view(player)


def test_pending_drawn_cards_are_visible_only_to_the_chooser() -> None:
    choosing = [g for g in position_pool() if g.phase is Phase.CHOOSE]
    assert choosing
    for game in choosing:
        assert game._pending is not None
        for p in range(game.players):
            view = game.view(p)
            assert view.pending == (game._pending if p == game.to_move else None)
            assert not set(game._pending) & set(view.hand)
            assert not set(game._pending) & {c for c in view.discard if c is not None}
        # Exchanging a drawn card with a hidden one: only the chooser notices.
        chooser = game.to_move
        other = hidden_cards(game, chooser)
        if other:
            twin = _swap(game, game._pending[0], other[0])
            assert twin.view(chooser) != game.view(chooser)
            for p in range(game.players):
                if p != chooser and other[0] not in game._hands[p]:
                    assert twin.view(p) == game.view(p)


def test_r16_setup_discards_are_face_down_for_all_but_their_discarder() -> None:
    for players in (3, 4, 5):
        game = Game(players, seed=players)
        while game.phase is Phase.KEEP:
            game.apply(next(iter(game.legal_moves)))
        assert game.discard
        discarders = setup_discarders(players)
        assert len(discarders) == len(game.discard)
        for p in range(players):
            view = game.view(p)
            assert view.face_down == tuple(range(len(game.discard)))
            assert view.discard == tuple(
                card if discarders[i] == p else None for i, card in enumerate(game.discard)
            )
        # The face-down discards may be any hidden cards.
        rng = random.Random(players)
        for p in range(players):
            shuffled = hidden_cards(game, p)
            rng.shuffle(shuffled)
            assert with_hidden(game, p, shuffled).view(p) == game.view(p)


def test_r16_public_history_hides_exactly_what_a_seat_cannot_know() -> None:
    move = Move.parse("publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:SCI9 2:HOR4")
    assert public_notation(move, 0, 0) == str(move)
    assert public_notation(move, 0, 1) == (
        "publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:SCI9 2:?"
    )
    assert public_notation(move, 0, 3) == "publish kind-3 MYS7 cite 1:pairs-3 2:kind-5 gift 1:? 2:?"
    keep = Move.parse("keep MYT1 SCI9 HOR7 discard MAG13 LOV2")
    assert public_notation(keep, 4, 0) == "keep ? ? ? discard ? ?"
    assert public_notation(Move.parse("choose SCI9"), 1, 0) == "choose ?"
    for public in ("draw", "take", "pass", "read 1:kind-3 SCI9", "flag SCI9"):
        assert public_notation(Move.parse(public), 1, 0) == public


def test_r16_a_view_carries_the_public_history_of_the_game() -> None:
    game = Game(4, seed=12)
    rng = random.Random(4)
    for _ in range(60):
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    seats = history_seats(game)
    for p in range(game.players):
        view = game.view(p)
        assert len(view.history) == len(game.history)
        assert [seat for seat, _ in view.history] == seats
        for (seat, text), move in zip(view.history, game.history, strict=True):
            assert text == public_notation(move, seat, p)
        assert view_from_dict(view_to_dict(view)) == view


def test_a_view_written_before_r16_still_loads() -> None:
    game = Game(3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    data = view_to_dict(game.view(0))
    for key in ("face_down", "history", "catalogue"):
        del data[key]
    view = view_from_dict(data)
    assert view.history == ()
    assert view.face_down == (0,)
    assert view.catalogue == Catalogue.default()


def test_r16_a_view_cannot_show_another_seats_face_down_card() -> None:
    game = Game(3, seed=7)
    game.apply("keep MYT1 HOR7 HOR8")
    assert view_to_dict(game.view(2))["discard"] == ["FAN10"]
    other = view_to_dict(game.view(0))
    other["discard"] = ["FAN10"]
    with pytest.raises(InvalidStateError, match=r"^\$\.discard\[0\]: a face-down card shows only"):
        view_from_dict(other)


def test_r16_the_public_history_follows_undo_copies_and_replaced_histories() -> None:
    """The public history is built once per move and shared; it stays exact however the game moves."""

    def expected(game: Game, player: int) -> tuple[tuple[int, str], ...]:
        seats = history_seats(game)
        return tuple(
            (seat, public_notation(move, seat, player))
            for seat, move in zip(seats, game.history, strict=True)
        )

    game = Game(4, seed=21)
    rng = random.Random(21)
    copies: list[tuple[Game, list[tuple[tuple[int, str], ...]]]] = []
    for step in range(150):
        if game.is_over:
            break
        if game.history and rng.random() < 0.25:
            game.undo()
        else:
            legal = game.legal_moves
            game.apply(legal[rng.randrange(len(legal))])
        player = rng.randrange(4)
        assert game.view(player).history == expected(game, player)
        if step % 20 == 0:
            copies.append((game.copy(), [game.view(p).history for p in range(4)]))
    for twin, histories in copies:  # the original moved on: the copies did not
        assert [twin.view(p).history for p in range(4)] == histories
    # A history replaced in place is read again.
    game._history = list(game.history)
    game._history[-1:] = []
    game._undo = game._undo[: len(game.history)]
    assert game.view(0).history == expected(game, 0)


def test_every_field_of_the_view_is_the_games() -> None:
    """The view sets its fields directly: each must hold what the game says (R16)."""
    for game in position_pool():
        for player in range(game.players):
            view = game.view(player)
            assert (view.player, view.players, view.phase) == (player, game.players, game.phase)
            assert (view.to_move, view.current, view.turn) == (
                game.to_move,
                insides(game).current,
                game.turn,
            )
            assert view.hand == game.hand(player)
            assert view.hand_sizes == tuple(len(game.hand(p)) for p in range(game.players))
            assert view.deck_size == game.deck_size
            assert len(view.discard) == len(game.discard)
            assert view.tables == tuple(game.table(p) for p in range(game.players))
            assert view.supply == tuple(game.supply.items())
            assert (view.flag, view.passes, view.trigger) == (
                insides(game).flag,
                insides(game).passes,
                insides(game).trigger,
            )
            assert (view.turns_left, view.end_reason) == (
                insides(game).turns_left,
                insides(game).end_reason,
            )
            assert view.scores == game.scores()
            assert view.catalogue is game.catalogue
            assert len(view.history) == len(game.history)
            assert game.view(player, history=False) == dataclasses.replace(view, history=())


def _known_to(view: PlayerView) -> set[Card]:
    """Every card the view's public fields name: what its player may know (R16)."""
    known = set(view.hand) | {card for card in view.discard if card is not None}
    known |= {card for seat in view.tables for novel in seat for card in novel.cards}
    known |= set(view.pending or ()) | ({view.flag[1]} if view.flag else set())
    for _, text in view.history:
        for word in text.replace(":", " ").split():
            with contextlib.suppress(ValueError):
                known.add(Card.parse(word))
    for record in view.records:
        known |= {*record.drawn, *record.laid_down}
        known |= {card for card in (record.taken, record.laid_up) if card is not None}
    return known


def _reachable(root: object, skip: object) -> list[object]:
    """Every object ``root`` holds, directly or not, but classes, modules, functions and ``skip``."""
    seen: set[int] = set()
    found: list[object] = []
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or item is skip or isinstance(item, type | types.ModuleType):
            continue
        if isinstance(item, types.FunctionType | types.BuiltinFunctionType):
            continue
        seen.add(id(item))
        found.append(item)
        todo.extend(gc.get_referents(item))
    return found


@pytest.mark.parametrize("seed", [3, 8])
def test_r16_nothing_a_view_holds_names_a_card_its_player_may_not_know(seed: int) -> None:
    """Not even a private attribute of a view, or of its history and records, reaches a
    hidden card or the game: a bot handed a view can learn nothing more from it."""
    game = Game(4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        player = rng.randrange(4) if rng.random() < 0.3 else game.to_move
        view = game.view(player)
        held = _reachable(view, view.catalogue)
        assert not any(isinstance(item, Game) for item in held)
        cards = {item for item in held if isinstance(item, Card)}
        assert cards <= _known_to(view), (game.turn, player, sorted(cards - _known_to(view)))
        if game.history and rng.random() < 0.1:
            game.undo()
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
