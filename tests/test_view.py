"""A player's view shows what that player may know, and nothing more.

Hidden information is the other hands, the deck (and the generator that will
reshuffle it), the face-down discards (R10) and the two cards drawn by Write ①
while another player chooses (R11). Rearranging hidden cards must not change a
player's view; changing anything visible must.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from builders import assert_invariants, position_pool
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import Card, Game, Phase


def hidden_cards(game: Game, player: int) -> list[Card]:
    """The cards ``player`` cannot see, in a fixed order of their places."""
    cards: list[Card] = []
    for q in range(game.players):
        if q != player:
            cards += sorted(game._hands[q])
    cards += game.deck
    cards += [c for c in game._discard if c in game._face_down]
    if game.pending is not None and game.to_move != player:
        cards += game.pending
    return cards


def with_hidden(game: Game, player: int, cards: list[Card]) -> Game:
    """A copy of ``game`` with the hidden places of ``player`` refilled from ``cards`` in order."""
    twin = game.copy()
    it = iter(cards)
    for q in range(game.players):
        if q != player:
            twin._hands[q] = {next(it) for _ in range(len(game._hands[q]))}
    twin.deck = [next(it) for _ in game.deck]
    down = [i for i, c in enumerate(game._discard) if c in game._face_down]
    for i in down:
        twin._discard[i] = next(it)
    twin._face_down = {twin._discard[i] for i in down}
    if game.pending is not None and game.to_move != player:
        twin.pending = (next(it), next(it))
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
    twin.rng.state = rng.getrandbits(64)  # the generator's state is hidden too (R14)
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

    twin.deck = [swapped(c) for c in twin.deck]
    twin._discard = [swapped(c) for c in twin._discard]
    twin._face_down = {swapped(c) for c in twin._face_down}
    twin._hands = [{swapped(c) for c in hand} for hand in twin._hands]
    twin._tables = [
        {nid: tuple(swapped(c) for c in cards) for nid, cards in table.items()}
        for table in twin._tables
    ]
    if twin.flag is not None:
        twin.flag = (twin.flag[0], swapped(twin.flag[1]))
    if twin.pending is not None:
        twin.pending = (swapped(twin.pending[0]), swapped(twin.pending[1]))
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
    if game.flag is not None:
        visible.append(game.flag[1])
    if game.pending is not None and game.to_move == player:
        visible += game.pending
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
        assert game.pending is not None
        for p in range(game.players):
            view = game.view(p)
            assert view.pending == (game.pending if p == game.to_move else None)
            assert not set(game.pending) & set(view.hand)
            assert not set(game.pending) & {c for c in view.discard if c is not None}
        # Exchanging a drawn card with a hidden one: only the chooser notices.
        chooser = game.to_move
        other = hidden_cards(game, chooser)
        if other:
            twin = _swap(game, game.pending[0], other[0])
            assert twin.view(chooser) != game.view(chooser)
            for p in range(game.players):
                if p != chooser and other[0] not in game._hands[p]:
                    assert twin.view(p) == game.view(p)


def test_setup_discards_are_face_down_for_everyone() -> None:
    for players in (3, 4, 5):
        game = Game(players, seed=players)
        while game.phase is Phase.KEEP:
            game.apply(next(iter(game.legal_moves)))
        assert game.discard
        for p in range(players):
            assert game.view(p).discard == (None,) * len(game.discard)
        # The face-down discards may be any hidden cards.
        rng = random.Random(players)
        for p in range(players):
            shuffled = hidden_cards(game, p)
            rng.shuffle(shuffled)
            assert with_hidden(game, p, shuffled).view(p) == game.view(p)
