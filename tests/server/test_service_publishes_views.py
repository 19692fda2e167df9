"""Publishes from a view or a state, bodies that say what they want, and real examples.

* ``POST /v1/publishes`` (and the ``publishes`` JSON-RPC method) takes a position, a player's
  view (bare or as ``{"view": …}``) or a game state (bare or as ``{"state": …, "player": N}``);
  a view answers for its viewer, a state for ``player`` (default: the player to move) from that
  player's view alone (R16), checked before any work, and a worker only ever gets a position.
* A body of the wrong shape gets a 400 naming the expected body and its schema's address.
* Every route that takes a body carries a real example in the OpenAPI document, valid against
  its schema and answered by the service.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from service_support import bearer, make_client, new_game
from test_service_stdio import call, request

from pastiche_core import Game, view_to_dict
from pastiche_core.ai.visible import position_of
from pastiche_core.io.position_json import position_to_dict
from pastiche_core.server import Service, openapi
from pastiche_core.server.api_errors import ApiError
from pastiche_core.server.openapi import SCHEMA_BASE, examples
from pastiche_core.server.service import publish_request

ROOT = Path(__file__).resolve().parents[2]
STATE = json.loads((ROOT / "examples" / "hints" / "state.json").read_text(encoding="utf-8"))
VIEW = json.loads((ROOT / "examples" / "hints" / "view.json").read_text(encoding="utf-8"))


def _game() -> Game:
    game = Game.from_json(json.dumps(STATE))
    return game


def _validate(name: str, instance: Any) -> None:
    document = openapi()
    wrapper = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    jsonschema.Draft202012Validator(wrapper).validate(instance)


# ----------------------------------------------------------------------
# The bodies
# ----------------------------------------------------------------------
def test_every_kind_of_body_gets_the_answer_of_the_players_position() -> None:
    client, _ = make_client()
    game = _game()
    for seat in range(game.players):
        view = view_to_dict(game.view(seat))
        position = position_to_dict(position_of(game.view(seat)))
        expected = client.post("/v1/publishes", json=position).json()
        assert expected["player"] == seat
        for body in (view, {"view": view}, {"state": STATE, "player": seat}):
            answer = client.post("/v1/publishes", json=body)
            assert answer.status_code == 200, answer.text
            assert answer.json() == expected
            _validate("publishes_request", body)
    to_move = client.post("/v1/publishes", json={"state": STATE}).json()
    assert to_move["player"] == game.to_move
    assert client.post("/v1/publishes", json=STATE).json() == to_move


def test_json_rpc_takes_the_same_bodies() -> None:
    service = Service()
    by_view = call(service, request(1, "publishes", VIEW))["result"]
    by_state = call(service, request(2, "publishes", {"state": STATE, "player": 0}))["result"]
    assert by_view == by_state
    assert by_view["player"] == VIEW["player"] == 0
    error = call(service, request(3, "publishes", {"state": STATE, "player": 9}))["error"]
    assert error["code"] == -32602
    assert error["data"]["path"] == "$.player"


def test_a_worker_gets_the_position_never_the_state() -> None:
    seen: list[Any] = []

    class Pool:
        def call(self, method: str, body: Any, **options: Any) -> dict[str, Any]:
            seen.append(body)
            return {"stopped_by": None}

        def close(self) -> None:
            pass

    service = Service(pool=Pool())  # type: ignore[arg-type]
    service.publishes({"state": STATE, "player": 1})
    service.publishes(VIEW)
    game = _game()
    assert seen == [
        position_to_dict(position_of(game.view(1))),
        position_to_dict(position_of(game.view(0))),
    ]
    # Nothing of another player's hand reaches the worker.
    others = {card for seat in (0, 2, 3) for card in STATE["hands"][seat]}
    assert not others & set(seen[0]["hand"])


@pytest.mark.parametrize(
    ("body", "path", "says"),
    [
        ({"state": STATE, "player": 4}, "$.player", "expected a seat of this 4-player game"),
        ({"state": STATE, "player": -1}, "$.player", "expected an integer"),
        ({"view": VIEW, "state": STATE}, "$.state", "give a view or a state, not both"),
        ({"view": STATE}, "$.view.format", "expected 'pastiche-view'"),
        ({"view": {**VIEW, "format": None}}, "$.view.format", "expected 'pastiche-view'"),
        ({"view": {k: v for k, v in VIEW.items() if k != "format"}}, "$.view.format", "missing"),
        ({"view": VIEW, "player": 1}, "$.player", "1 is not the view's player, 0"),
        ({"view": "x"}, "$.view", "expected a view object"),
        ({"view": VIEW, "budget_ms": 3}, "$.budget_ms", "unknown field; expected a position"),
        ({**VIEW, "hand": [*VIEW["hand"], VIEW["hand"][0]]}, "$.hand", ""),
        ({"view": {**VIEW, "hand": ["LOV1"]}}, "$.view.hand[0]", "invalid card 'LOV1'"),
        ({"format": "pastiche-record"}, "$.format", "this is a game record"),
    ],
)
def test_bad_bodies_are_refused_before_any_work(body: Any, path: str, says: str) -> None:
    with pytest.raises(ApiError) as caught:
        publish_request(body)
    assert caught.value.status == 400
    assert caught.value.path is not None
    assert caught.value.path.startswith(path), caught.value
    assert says in caught.value.message


def test_a_hidden_card_changes_nothing_for_the_viewer() -> None:
    # One of player 3's cards swapped with the deck's: player 2 sees no difference (R16).
    swapped = json.loads(json.dumps(STATE))
    swapped.pop("history")
    hand, deck = swapped["hands"][3], swapped["deck"]
    hand[0], deck[0] = deck[0], hand[0]
    plain = {k: v for k, v in STATE.items() if k != "history"}
    assert (
        publish_request({"state": plain, "player": 2})[2]
        == publish_request({"state": swapped, "player": 2})[2]
    )
    assert (
        publish_request({"state": plain, "player": 3})[2]
        != publish_request({"state": swapped, "player": 3})[2]
    )


# ----------------------------------------------------------------------
# Saying what is expected
# ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("route", "body", "path", "expected", "schema"),
    [
        ("/v1/hint", VIEW, "$", '{"view": {...}, "budget_ms": 300, "seed": 1}', "hint_request"),
        ("/v1/hint", [], "$", '{"view": {...}, "budget_ms": 300, "seed": 1}', "hint_request"),
        ("/v1/hint", {"veiw": VIEW}, "$.veiw", '{"view": {...}', "hint_request"),
        ("/v1/publishes", [], "$", "a position document, a view", "publishes_request"),
        ("/v1/publishes", {"hand": []}, "$.", "a position document, a view", "publishes_request"),
        ("/v1/games", ["human"], "$", '{"players": 4, "seed": 7', "game_create"),
    ],
)
def test_a_wrong_shape_names_the_expected_body_and_its_schema(
    route: str, body: Any, path: str, expected: str, schema: str
) -> None:
    client, _ = make_client()
    answer = client.post(route, json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["path"].startswith(path)
    assert f"expected {expected}" in error["message"]
    assert f"(schema: {SCHEMA_BASE}{schema})" in error["message"]
    # The address resolves in the served document.
    document = client.get("/openapi.json").json()
    assert schema in document["components"]["schemas"]


def test_a_bare_view_posted_for_a_hint_is_named() -> None:
    client, _ = make_client()
    error = client.post("/v1/hint", json=VIEW).json()["error"]
    assert error["message"].startswith("this is a player's view")


def test_a_move_of_the_wrong_shape_names_the_move_body() -> None:
    client, _ = make_client()
    game, tokens = new_game(client, players=3, seed=1)
    answer = client.post(f"/v1/games/{game}/moves", json="draw", headers=bearer(tokens["0"]))
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert f'expected {{"move": "draw"}} (schema: {SCHEMA_BASE}move)' in message


# ----------------------------------------------------------------------
# Real examples in the interactive docs
# ----------------------------------------------------------------------
def test_every_body_route_has_real_examples_that_validate_and_work() -> None:
    document = openapi()
    client, _ = make_client()
    game, tokens = new_game(client, players=4, seed=7)
    with_body = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if "requestBody" not in operation:
                continue
            with_body += 1
            media = operation["requestBody"]["content"]["application/json"]
            name = media["schema"]["$ref"].rsplit("/", 1)[1]
            bodies = [media["example"]] + [e["value"] for e in media.get("examples", {}).values()]
            for body in bodies:
                assert body, f"{path}: an empty example"
                _validate(name, body)
                url = path.replace("{game}", game)
                answer = client.request(method, url, json=body, headers=bearer(tokens["0"]))
                assert answer.status_code in (200, 201, 409), (path, answer.text)
                if answer.status_code == 409:  # a move example of another game: legal there
                    assert path.endswith("/moves")
    assert with_body == 6  # publishes, hint, games, moves, outs, review
    publishes = examples()["publishes"]
    assert publishes["view"]["view"]["format"] == "pastiche-view"
    assert publishes["state"]["state"]["format"] == "pastiche-state"


def test_the_docs_page_shows_the_examples() -> None:
    page = (ROOT / "src" / "pastiche_core" / "server" / "static" / "api.html").read_text()
    assert ': "{}"' not in page
    assert "media.examples" in page
