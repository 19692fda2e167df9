"""What a player has seen (R16): sound, complete for public takes and reads, blind to the hidden."""

from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("numpy")

from budget import examples
from builders import build_game
from hypothesis import given, settings
from hypothesis import strategies as st
from rl_common import atomic_positions

from pastiche_core import DECK, Card, Game, InvalidArgumentError
from pastiche_core.engine.game_internals import renamed
from pastiche_core.engine.view import setup_discarders
from pastiche_core.rl import Knowledge


def visible(game: Game, player: int) -> set[Card]:
    """The cards ``player``'s view shows now."""
    view = game.view(player)
    shown = set(view.hand) | {card for card in view.discard if card is not None}
    shown |= {card for table in view.tables for novel in table for card in novel.cards}
    if view.flag is not None:
        shown.add(view.flag[1])
    if view.pending is not None:
        shown |= set(view.pending)
    return shown


def followed(players: int, seed: int) -> list[tuple[Game, list[Knowledge]]]:
    """Every position of a random atomic game with each player's knowledge, followed move by move."""
    positions = list(atomic_positions(players, seed))
    first = positions[0]
    knowledge = [Knowledge.of(first, seat) for seat in range(players)]
    out = [(first, [k.copy() for k in knowledge])]
    for game in positions[1:]:
        for k in knowledge:
            k.update(game)
        out.append((game, [k.copy() for k in knowledge]))
    return out


@settings(max_examples=examples(6))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_knowledge_is_sound_and_sees_what_the_view_shows(seed: int, players: int) -> None:
    holders_seen = 0
    for game, knowledge in followed(players, seed):
        for seat, known in enumerate(knowledge):
            assert known.moves == len(game.history)
            assert {card.index for card in visible(game, seat)} <= known.seen
            for index, holder in known.holders.items():
                assert holder != seat
                assert DECK[index] in game.hand(holder), f"{DECK[index]} is not with {holder}"
                assert index in known.seen
                holders_seen += 1
    assert holders_seen


@settings(max_examples=examples(6))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_knowledge_followed_or_replayed_is_the_same(seed: int, players: int) -> None:
    for game, knowledge in itertools.islice(followed(players, seed), 0, None, 7):
        for seat, known in enumerate(knowledge):
            again = Knowledge.of(game, seat)
            assert (again.seen, again.holders, again.moves) == (
                known.seen,
                known.holders,
                known.moves,
            )


@settings(max_examples=examples(8))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]), data=st.data())
def test_knowledge_ignores_cards_the_player_never_saw(
    seed: int, players: int, data: st.DataObject
) -> None:
    """Renaming the unseen cards deals them anew: the knowledge stays the same."""
    rng = random.Random(seed)
    changed = 0
    for game, knowledge in itertools.islice(followed(players, seed), 0, None, 5):
        player = data.draw(st.integers(0, players - 1))
        known = knowledge[player]
        unseen = [card for card in DECK if card.index not in known.seen]
        shuffled = unseen.copy()
        rng.shuffle(shuffled)
        renaming = dict(zip(unseen, shuffled, strict=True))
        twin = renamed(game, renaming)
        again = Knowledge.of(twin, player)
        assert (again.seen, again.holders) == (known.seen, known.holders)
        assert twin.view(player).history == game.view(player).history
        assert visible(twin, player) == visible(game, player)
        changed += renaming != dict(zip(unseen, unseen, strict=True))
    assert changed


def test_takes_reads_and_gifts_are_known_until_a_hidden_gift() -> None:
    game = build_game(
        4,
        hands={0: "FAN7 SCI8", 1: "MYT1 LOV2 SCI9", 2: "HOR4", 3: "MAG13"},
        tables={
            2: {"straight-5": "MYT3 LOV4 SCI5 HOR6 MYS7", "pairs-3": "HOR9"},
            3: {"pairs-4": "MYS9"},
        },
        discard="LOV3 MYT6",
    )
    knowledge = [Knowledge.of(game, seat) for seat in range(4)]

    def play(move: str) -> None:
        if move == "choose":
            assert game._pending is not None
            move = f"choose {game._pending[0]}"
        game.apply(move)
        for known in knowledge:
            known.update(game)

    def cards(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(word) for word in text.split())

    play("take")  # player 0 takes MYT6, face up
    assert knowledge[1].known_hands() == {0: cards("MYT6")}
    assert knowledge[0].known_hands() == {}
    play("read 2:straight-5 MYS7")  # player 1 reads MYS7
    play("take")  # player 2 takes LOV3, face up
    assert knowledge[3].known_hands() == {0: cards("MYT6"), 1: cards("MYS7"), 2: cards("LOV3")}
    for move in ("draw", "choose", "draw", "choose"):  # players 3 and 0
        play(move)
    # Player 1 gives a card to player 2 and one to player 3: each receiver sees only
    # their own gift, player 0 neither, so they forget which cards player 1 holds.
    play("publish kind-3 SCI9 cite 2:pairs-3 3:pairs-4 gift 2:MYT1 3:MYS7")
    assert knowledge[0].known_hands() == {2: cards("LOV3")}
    assert knowledge[2].known_hands() == {0: cards("MYT6")}
    assert knowledge[3].known_hands() == {0: cards("MYT6"), 2: cards("LOV3")}
    assert knowledge[1].known_hands() == {0: cards("MYT6"), 2: cards("MYT1 LOV3"), 3: cards("MYS7")}
    for seat, known in enumerate(knowledge):
        for index, holder in known.holders.items():
            assert DECK[index] in game.hand(holder), (seat, DECK[index])


@settings(max_examples=examples(4))
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_update_all_is_each_update(seed: int, players: int) -> None:
    positions = list(atomic_positions(players, seed))
    each = [Knowledge.of(positions[0], seat) for seat in range(players)]
    together = [known.copy() for known in each]
    for game in positions[1:]:
        for known in each:
            known.update(game)
        Knowledge.update_all(together, game)
        for one, other in zip(each, together, strict=True):
            assert (one.seen, one.holders, one.moves) == (other.seen, other.holders, other.moves)


def test_update_all_refuses_before_following_any() -> None:
    game = Game(3, seed=7)
    ahead = Knowledge.of(game, 0)
    game.apply("keep MYT1 HOR7 HOR8")
    behind = Knowledge.of(game, 1)  # already at the keep
    with pytest.raises(InvalidArgumentError, match="followed 1 moves and the game has 1"):
        Knowledge.update_all([ahead, behind], game)
    assert ahead.moves == 0  # nothing followed: the first was not changed either


def test_update_refuses_to_skip_a_move() -> None:
    game = Game(3, seed=7)
    knowledge = Knowledge.of(game, 0)
    game.apply("keep MYT1 HOR7 HOR8")
    game.apply("draw")
    with pytest.raises(InvalidArgumentError, match="followed 0 moves and the game has 2"):
        knowledge.update(game)
    with pytest.raises(InvalidArgumentError, match="player must be a seat from 0 to 2"):
        Knowledge.of(game, 5)
    assert "player 0, 0 moves" in repr(knowledge)


def test_own_setup_discards_are_seen_and_known_when_taken() -> None:
    game = Game(5, seed=3)
    for _ in range(3):
        game.apply(game.legal_moves[0])
    knowledge = Knowledge.of(game, 4)
    discarders = setup_discarders(5)
    mine = {c.index for i, c in enumerate(game.discard) if discarders[i] == 4}
    assert len(mine) == 2
    assert mine <= knowledge.seen
    top = game.discard[-1]
    game.apply("take")  # player 0 takes player 4's top discard, face down
    knowledge.update(game)
    assert knowledge.holders == {top.index: 0}
    assert Knowledge.of(game, 1).holders == {}


def test_the_environments_and_the_search_share_one_knowledge() -> None:
    """One class follows a move for the observation and for the determinizer (R16)."""
    import importlib

    shared = importlib.import_module("pastiche_core.engine.knowledge").Knowledge
    assert Knowledge is shared is importlib.import_module("pastiche_core.ai.determinize").Knowledge
    game = Game(4, seed=11)
    followed = [Knowledge.of(game, seat) for seat in range(4)]
    rng = random.Random(11)
    for _ in range(80):
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
        Knowledge.update_all(followed, game)
    for seat, known in enumerate(followed):
        replayed = Knowledge.of(game.view(seat))
        assert (replayed.seen, replayed.holders, replayed.located) == (
            known.seen,
            known.holders,
            known.located,
        )
