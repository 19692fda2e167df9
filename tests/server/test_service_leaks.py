"""No answer to a seat shows a card hidden from that seat (R16).

During random games with two human seats and random bots, every answer a seat
gets — its state after each move, refused moves' errors, hints — may name only
cards that the seat's own view (``game.view(seat)``) names, or that the
request itself named. Other hands, the deck, the other player's drawn cards and
face-down discards never appear.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from service_support import bearer, cards_in, make_client, new_game

from pastiche_core import DECK, view_to_dict
from pastiche_core.server import Service

GAMES = [(3, 1), (4, 2), (5, 3), (4, 4)]
"""(players, seed) of the games played."""


def _visible(service: Service, game: str, seat: int) -> set[str]:
    session = service.store.get(game)
    assert session is not None
    view = session.game.view(seat)
    # The view's move records hold what the seat saw move that the history does not name
    # (a face-up discard since taken, its own draws, R16): the state's log may tell them.
    seen = {
        str(card)
        for record in view.records
        for card in (*record.drawn, record.taken, record.laid_up, *record.laid_down)
        if card is not None
    }
    return cards_in(view_to_dict(view)) | seen


def _hidden_somewhere(service: Service, game: str, seat: int) -> set[str]:
    """Cards the seat cannot see now: a leak check that could fail must have some."""
    return {str(card) for card in DECK} - _visible(service, game, seat)


def _junk_move(rng: random.Random) -> str:
    cards = [str(card) for card in rng.sample(DECK, 3)]
    return rng.choice(
        [
            f"choose {cards[0]}",
            f"flag {cards[0]}",
            f"keep {' '.join(cards)}",
            f"read 1:kind-3 {cards[0]}",
            f"read 0:straight-5 {cards[1]}",
            f"publish kind-3 {' '.join(cards)}",
            f"publish pairs-3 {cards[0]} cite 1:kind-3 gift 1:{cards[1]}",
            "take",
            "pass",
            "draw",
        ]
    )


def _check(service: Service, game: str, seat: int, answer: Any, asked: str = "") -> dict[str, Any]:
    data: dict[str, Any] = answer.json()
    shown = cards_in(data)
    allowed = _visible(service, game, seat) | cards_in(asked)
    assert shown <= allowed, f"seat {seat} was shown {sorted(shown - allowed)}: {data}"
    return data


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_no_answer_shows_a_hidden_card(players: int, seed: int) -> None:
    client, service = make_client()
    seats = ["human", "human"] + ["random"] * (players - 2)
    game, tokens = new_game(client, players=players, seed=seed, seats=seats)
    rng = random.Random(seed)
    checked = hidden = 0
    for _ in range(1_000):
        states = {
            seat: _check(
                service,
                game,
                seat,
                client.get(f"/v1/games/{game}", headers=bearer(tokens[str(seat)])),
            )
            for seat in (0, 1)
        }
        checked += 2
        hidden += min(len(_hidden_somewhere(service, game, seat)) for seat in (0, 1))
        if states[0]["over"]:
            break
        seat = states[0]["to_move"]
        assert seat in (0, 1), "the bots play until a human is to move"
        other = 1 - seat
        headers = bearer(tokens[str(seat)])
        # A refused move (random cards, often hidden ones) and a move out of turn.
        junk = _junk_move(rng)
        refused = client.post(f"/v1/games/{game}/moves", json={"move": junk}, headers=headers)
        if refused.status_code != 200:
            _check(service, game, seat, refused, junk)
        else:
            continue  # the junk was legal: it was played
        out_of_turn = client.post(
            f"/v1/games/{game}/moves", json={"move": junk}, headers=bearer(tokens[str(other)])
        )
        assert out_of_turn.status_code == 409
        _check(service, game, other, out_of_turn, junk)
        if rng.random() < 0.1:
            view = states[seat]["view"]
            _check(service, game, seat, client.post("/v1/hint", json={"view": view, "seed": 3}))
        move = rng.choice(states[seat]["legal"])
        _check(
            service,
            game,
            seat,
            client.post(f"/v1/games/{game}/moves", json={"move": move}, headers=headers),
            move,
        )
        checked += 3
    else:
        raise AssertionError("the game did not end")
    assert checked > 100
    assert hidden > 0


def test_the_check_sees_a_leak() -> None:
    """The check above fails on an answer that names a card the seat cannot see."""
    client, service = make_client()
    game, _tokens = new_game(client, players=3, seed=9)
    session = service.store.get(game)
    assert session is not None
    hidden = str(session.game.hand(1)[0])

    class Leaky:
        def json(self) -> dict[str, Any]:
            return {"hand of player 1": [hidden]}

    with pytest.raises(AssertionError, match="was shown"):
        _check(service, game, 0, Leaky())


def test_views_match_the_game() -> None:
    """The view a seat gets is exactly ``game.view(seat)``."""
    client, service = make_client()
    game, tokens = new_game(client, players=4, seed=6, seats=["human", "random", "human", "random"])
    for seat in (0, 2):
        state = client.get(f"/v1/games/{game}", headers=bearer(tokens[str(seat)])).json()
        session = service.store.get(game)
        assert session is not None
        assert state["view"] == view_to_dict(session.game.view(seat))
