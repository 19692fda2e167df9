"""``POST /v1/review``, the ``review`` JSON-RPC method and ``GET /v1/games/{id}/review``: the
answers equal the library's, every bad request is refused with its path before any search, the
work is bounded (simulations, decisions, time: ``complete`` false past a bound), and a seat's
review names no card it never saw (R16). In-process clients; a real worker pool in one test."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from service_support import bearer, cards_in, make_client, new_game, validate_library

from pastiche_core import Game, GameRecord, play_game, review, view_to_dict
from pastiche_core.ai.greedy import GreedyBot
from pastiche_core.server import PoolSettings, ServerLimits, Service, WorkerPool, openapi
from pastiche_core.server.stdio import INVALID_PARAMS, handle_line

GAME = play_game(3, seed=5, bots=[GreedyBot(seat) for seat in range(3)])
RECORD = GameRecord.of(GAME)
SMALL = ServerLimits(max_review_simulations=4)
"""Reviews of four simulations a search: the tests' games are reviewed in a second or two."""


def _rpc(service: Service, method: str, params: Any) -> dict[str, Any]:
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    answer: dict[str, Any] = json.loads(handle_line(service, line))
    return answer


def test_a_review_equals_the_librarys() -> None:
    client, service = make_client(limits=SMALL)
    for body, expected in [
        ({"record": RECORD.to_dict(), "player": 1, "simulations": 3, "seed": 2}, (1, 3, 2)),
        ({"record": RECORD.to_dict(), "player": None}, (None, 4, 0)),
        ({"record": RECORD.to_dict(), "player": 0}, (0, 4, 0)),  # simulations: the cap
    ]:
        player, simulations, seed = expected
        library = review(RECORD, player=player, simulations=simulations, seed=seed).to_dict()
        assert library["complete"]
        answer = client.post("/v1/review", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json() == library
        validate_library("review", answer.json())
        assert _rpc(service, "review", body)["result"] == library


def test_the_default_is_64_simulations_within_the_cap() -> None:
    _, service = make_client()
    record = GameRecord(3, 5, moves=RECORD.moves[:2]).to_dict()
    assert _rpc(service, "review", {"record": record})["result"]["simulations"] == 64


def _illegal_record() -> dict[str, Any]:
    data = RECORD.to_dict()
    data["moves"] = [*data["moves"][:5], "pass", *data["moves"][5:]]
    return data


@pytest.mark.parametrize(
    ("body", "path", "message"),
    [
        ([], "$", "expected an object, got an array"),
        ({}, "$.record", "missing required field"),
        ({"record": RECORD.to_dict(), "budget_ms": 3}, "$.budget_ms", "unknown field"),
        ({"record": "game.json"}, "$.record", "expected a record object"),
        ({"record": {**RECORD.to_dict(), "format": "pastiche-view"}}, "$.record.format", ""),
        ({"record": {**RECORD.to_dict(), "moves": ["jump"]}}, "$.record.moves[0]", "jump"),
        ({"record": _illegal_record()}, "$.record.moves[5]", "illegal move 'pass'"),
        ({"record": RECORD.to_dict(), "player": 3}, "$.player", "0 to 2, got 3"),
        ({"record": RECORD.to_dict(), "player": "0"}, "$.player", "expected an integer"),
        ({"record": RECORD.to_dict(), "simulations": 0}, "$.simulations", "from 1 to 4, got 0"),
        ({"record": RECORD.to_dict(), "simulations": 5}, "$.simulations", "from 1 to 4, got 5"),
        ({"record": RECORD.to_dict(), "seed": -1}, "$.seed", "got -1"),
        ({"record": {**RECORD.to_dict(), "catalogue": "my.toml"}}, "$.record.catalogue", "my.toml"),
    ],
)
def test_bad_requests_are_refused_with_their_path(body: Any, path: str, message: str) -> None:
    searched: list[object] = []
    client, service = make_client(limits=SMALL)
    monkey = pytest.MonkeyPatch()
    monkey.setattr("pastiche_core.server.outs_review.run_review", lambda *a: searched.append(a))
    try:
        answer = client.post("/v1/review", json=body)
        rpc = _rpc(service, "review", body)["error"]
    finally:
        monkey.undo()
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["path"] == path
    assert message in error["message"]
    assert rpc["code"] == INVALID_PARAMS
    assert rpc["data"] == {"path": path, "status": 400}
    assert searched == []  # refused before any search


def test_the_decisions_are_capped_and_the_review_says_it_is_incomplete() -> None:
    client, _ = make_client(limits=ServerLimits(max_review_simulations=4, max_review_decisions=5))
    answer = client.post("/v1/review", json={"record": RECORD.to_dict(), "player": 2}).json()
    assert [decision["player"] for decision in answer["decisions"]] == [2] * 5
    assert answer["complete"] is False
    whole = review(RECORD, player=2, simulations=4).to_dict()
    assert answer["decisions"] == whole["decisions"][:5]


def test_the_time_ceiling_answers_an_incomplete_review() -> None:
    limits = ServerLimits(max_review_simulations=4, review_time_limit=0.001)
    client, _ = make_client(limits=limits)
    answer = client.post("/v1/review", json={"record": RECORD.to_dict()})
    assert answer.status_code == 200
    assert answer.json()["complete"] is False
    assert len(answer.json()["decisions"]) < len(RECORD.moves)


def _finish(client: Any, game: str, token: str) -> None:
    """Play seat 0's first legal move at each of its turns until the game ends (bounded)."""
    for _ in range(2_000):
        state = client.get(f"/v1/games/{game}", headers=bearer(token)).json()
        if state["over"]:
            return
        move = {"move": state["legal"][0]}
        answer = client.post(f"/v1/games/{game}/moves", json=move, headers=bearer(token))
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def test_the_game_route_reviews_the_tokens_seat_once_the_game_is_over() -> None:
    client, service = make_client(limits=SMALL)
    game, tokens = new_game(client, players=3, seed=4, seats=["human", "greedy", "greedy"])
    early = client.get(f"/v1/games/{game}/review", headers=bearer(tokens["0"]))
    assert early.status_code == 409
    assert "not over" in early.json()["error"]["message"]
    rpc = _rpc(service, "games.review", {"game": game, "token": tokens["0"]})
    assert rpc["error"]["data"]["status"] == 409
    _finish(client, game, tokens["0"])
    answer = client.get(f"/v1/games/{game}/review", headers=bearer(tokens["0"]))
    assert answer.status_code == 200, answer.text
    session = service.store.get(game)
    assert session is not None
    expected = review(session.record, player=0, simulations=4).to_dict()
    assert answer.json() == expected
    assert answer.json()["reviewed"] == [0]
    assert {decision["player"] for decision in expected["decisions"]} == {0}
    assert client.get(f"/v1/games/{game}/review").status_code == 403
    assert client.get("/v1/games/nope/review", headers=bearer(tokens["0"])).status_code == 404
    # R16: each decision names only cards its seat saw when it decided.
    replay = Game(3, 4, session.record.catalogue, rules=session.record.rules)
    decisions = {decision["index"]: decision for decision in expected["decisions"]}
    checked = 0
    for index, move in enumerate(session.record.moves):
        if index in decisions:
            view = replay.view(0)
            seen = cards_in(view_to_dict(view)) | {
                str(card)
                for record in view.records
                for card in (*record.drawn, record.taken, record.laid_up, *record.laid_down)
                if card is not None
            }
            assert cards_in(decisions[index]) <= seen, decisions[index]
            assert decisions[index]["hand"] == [str(card) for card in view.hand]
            checked += 1
        replay.apply(move)
    assert checked == len(decisions) > 10


def test_a_review_in_a_worker_equals_the_one_in_process() -> None:
    pool = WorkerPool(PoolSettings(workers=1, queue=1, client_share=1), SMALL)
    pool.start()
    service = Service(pool=pool, limits=SMALL)
    try:
        body = {"record": RECORD.to_dict(), "player": 1}
        expected = review(RECORD, player=1, simulations=4).to_dict()
        assert _rpc(service, "review", body)["result"] == expected
    finally:
        service.close()


def test_the_openapi_document_describes_outs_and_review_with_examples() -> None:
    document = openapi(SMALL)

    def validate(name: str, instance: Any) -> None:
        wrapper = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        jsonschema.Draft202012Validator(wrapper).validate(instance)

    for path, asked, answered in (
        ("/v1/outs", "outs_request", "outs"),
        ("/v1/review", "review_request", "review"),
    ):
        post = document["paths"][path]["post"]
        media = post["requestBody"]["content"]["application/json"]
        assert media["schema"]["$ref"].endswith(f"/{asked}")
        for body in [media["example"], *(e["value"] for e in media.get("examples", {}).values())]:
            validate(asked, body)
        answer = post["responses"]["200"]["content"]["application/json"]
        assert answer["schema"]["$ref"].endswith(f"/{answered}")
        validate(answered, answer["example"])
    assert "at most 4" in document["paths"]["/v1/review"]["post"]["description"]
    for route in ("outs", "review"):
        get = document["paths"][f"/v1/games/{{game}}/{route}"]["get"]
        assert get["security"] == [{"bearer": []}]
        assert get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
            f"/{route}"
        )
    assert "409" in document["paths"]["/v1/games/{game}/review"]["get"]["responses"]
    with pytest.raises(jsonschema.ValidationError):
        validate("outs_request", {"view": {}, "position": {}})
