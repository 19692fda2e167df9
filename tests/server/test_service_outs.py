"""``POST /v1/outs``, the ``outs`` JSON-RPC method and ``GET /v1/games/{id}/outs``: the answers
equal the library's, every bad request is refused with its path before any work, and a seat is
answered from its view alone (R16). In-process clients; a real worker pool in one test."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from service_support import bearer, make_client, new_game, validate_library

from pastiche_core import Game, outs, position_to_dict, state_to_dict, view_to_dict
from pastiche_core.engine.view import PlayerView
from pastiche_core.io.view_json import view_from_dict
from pastiche_core.server import PoolSettings, ServerLimits, Service, WorkerPool
from pastiche_core.server.outs_review import run_outs
from pastiche_core.server.stdio import INVALID_PARAMS, handle_line
from pastiche_core.solver.position import Position


def _played(players: int, seed: int, decisions: int) -> Game:
    """A game after ``decisions`` random legal moves (or at its end)."""
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return game


GAME = _played(4, 7, 60)
SEAT = GAME.to_move


def _rpc(service: Service, method: str, params: Any) -> dict[str, Any]:
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    answer: dict[str, Any] = json.loads(handle_line(service, line))
    return answer


UNHURRIED = ServerLimits(time_limit=10.0)
"""The library's own time limit: answers compared with the library's must not be cut short by a
busy machine."""


def _library(source: PlayerView | Position, **options: Any) -> dict[str, Any]:
    return outs(source, **options).to_dict()


def test_outs_of_a_view_a_position_and_a_state_equal_the_librarys() -> None:
    client, service = make_client(limits=UNHURRIED)
    view = GAME.view(SEAT)
    position = Position.from_game(GAME, SEAT)
    asked = [
        ({"view": view_to_dict(view)}, _library(view)),
        ({"view": view_to_dict(view), "writes": 5, "seed": 9}, _library(view, writes=5, seed=9)),
        ({"position": position_to_dict(position)}, _library(position)),
        ({"state": state_to_dict(GAME), "player": 1}, _library(GAME.view(1))),
        ({"state": state_to_dict(GAME)}, _library(view)),  # the player to move
    ]
    for body, expected in asked:
        answer = client.post("/v1/outs", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json() == expected
        assert expected["complete"]
        validate_library("outs", answer.json())
        rpc = _rpc(service, "outs", body)
        assert rpc["result"] == expected


@pytest.mark.parametrize(
    ("body", "path", "message"),
    [
        ([], "$", "expected an object, got an array"),
        ({}, "$", "missing required field"),
        ({"view": {}, "position": {}}, "$.position", "give one of view, position or state, not 2"),
        ({"hand": ["SCI7"]}, "$.hand", "unknown field"),
        ({"view": "x"}, "$.view", "expected a view object"),
        ({"view": {"format": "pastiche-state"}}, "$.view.format", "expected 'pastiche-view'"),
        ({"view": {}, "player": 0}, "$.player", "player goes with a state"),
        ({"view": {}, "writes": 0}, "$.writes", "from 1 to 10, got 0"),
        ({"view": {}, "writes": 11}, "$.writes", "from 1 to 10, got 11"),
        ({"view": {}, "writes": True}, "$.writes", "expected an integer"),
        ({"view": {}, "seed": -1}, "$.seed", "got -1"),
        ({"position": {"format": "pastiche-view"}}, "$.position.format", "no format field"),
        (
            {"position": {"player": 0, "hand": ["LOV1"], "masterpieces": []}},
            "$.position.hand[0]",
            "LOV1",
        ),
        (
            {"position": {"player": 0, "hand": [], "masterpieces": [], "catalogue": "x.toml"}},
            "$.position.catalogue",
            "x.toml",
        ),
        ({"state": state_to_dict(GAME), "player": 4}, "$.player", "0 to 3, got 4"),
    ],
)
def test_bad_requests_are_refused_with_their_path(body: Any, path: str, message: str) -> None:
    client, service = make_client()
    answer = client.post("/v1/outs", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["path"] == path
    assert message in error["message"]
    rpc = _rpc(service, "outs", body)["error"]
    assert rpc["code"] == INVALID_PARAMS
    assert rpc["data"] == {"path": path, "status": 400}


def test_a_view_holding_a_card_it_cannot_hold_is_refused_in_the_view() -> None:
    client, _ = make_client()
    view = view_to_dict(GAME.view(SEAT))
    view["hand"][0] = "LOV1"
    answer = client.post("/v1/outs", json={"view": view})
    assert answer.status_code == 400
    assert answer.json()["error"]["path"] == "$.view.hand[0]"


def test_a_body_over_the_size_limit_is_413_before_it_is_read() -> None:
    client, _ = make_client(limits=ServerLimits(max_body_bytes=1000))
    answer = client.post("/v1/outs", json={"view": view_to_dict(GAME.view(SEAT))})
    assert answer.status_code == 413


def test_the_search_is_held_to_the_services_time_limit() -> None:
    calls: list[float] = []

    def clocked(document: Any, writes: int, seed: int, seconds: float) -> dict[str, Any]:
        calls.append(seconds)
        return run_outs(document, writes, seed, seconds)

    _, service = make_client(limits=ServerLimits(time_limit=0.5))
    monkey = pytest.MonkeyPatch()
    monkey.setattr("pastiche_core.server.outs_review.run_outs", clocked)
    try:
        _rpc(service, "outs", {"view": view_to_dict(GAME.view(SEAT))})
    finally:
        monkey.undo()
    assert calls == [0.5]


def test_the_game_route_answers_the_tokens_seat_from_its_view() -> None:
    client, service = make_client(limits=UNHURRIED)
    game, tokens = new_game(client, players=4, seed=3, seats=["human", "random", "human", "random"])
    for seat in (0, 2):
        answer = client.get(f"/v1/games/{game}/outs", headers=bearer(tokens[str(seat)]))
        assert answer.status_code == 200, answer.text
        session = service.store.get(game)
        assert session is not None
        assert answer.json() == _library(session.game.view(seat))
        assert answer.json()["player"] == seat
        rpc = _rpc(service, "games.outs", {"game": game, "token": tokens[str(seat)]})
        assert rpc["result"] == answer.json()
    assert client.get(f"/v1/games/{game}/outs").status_code == 403
    assert client.get(f"/v1/games/{game}/outs", headers=bearer("nope")).status_code == 403
    assert client.get("/v1/games/nope/outs", headers=bearer(tokens["0"])).status_code == 404
    assert client.post(f"/v1/games/{game}/outs", headers=bearer(tokens["0"])).status_code == 405


def test_r16_a_seats_outs_read_its_view_alone() -> None:
    """Over random games, what a worker is given holds no card the seat cannot see, and the
    answer for a whole state is the answer for the seat's view (the hidden cards unread)."""
    given: list[Any] = []

    class Recording:
        def admit(self, client: str, seconds: float | None = None) -> Any:
            return contextlib.nullcontext()

        def retry_after(self, client: str) -> int | None:
            return None  # nobody was refused

        def call(self, method: str, body: Any, **options: Any) -> dict[str, Any]:
            given.append(body)
            return run_outs(body, body["writes"], body["seed"], UNHURRIED.time_limit)

    client, service = make_client()
    service.pool = Recording()  # type: ignore[assignment]
    checked = 0
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        game = _played(players, seed, 40)
        for seat in range(players):
            view = game.view(seat)
            answer = client.post("/v1/outs", json={"state": state_to_dict(game), "player": seat})
            assert answer.status_code == 200, answer.text
            assert answer.json() == _library(view_from_dict(view_to_dict(view)))
            assert set(given[-1]) == {"view", "writes", "seed"}
            assert given[-1]["view"] == view_to_dict(view)  # nothing but what the seat sees
            checked += 1
    assert checked == 12


def test_outs_in_a_worker_equal_those_in_process() -> None:
    pool = WorkerPool(PoolSettings(workers=1, queue=1, client_share=1), UNHURRIED)
    pool.start()
    service = Service(pool=pool, limits=UNHURRIED)
    try:
        body = {"view": view_to_dict(GAME.view(SEAT)), "writes": 2}
        assert _rpc(service, "outs", body)["result"] == _library(GAME.view(SEAT), writes=2)
    finally:
        service.close()
