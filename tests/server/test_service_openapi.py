"""The service's OpenAPI document, its schemas, the hint contract's schema and the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fake_analysis import fake_analyse
from service_support import bearer, make_client, new_game, validate_library

from pastiche_core import Game, PlayerView, RandomBot, schema
from pastiche_core.cli import build_parser
from pastiche_core.server import ServerLimits, openapi
from pastiche_core.server import schema as service_schema
from pastiche_core.server.openapi import LIBRARY_SCHEMAS, SERVICE_SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
HINT_EXAMPLE = {
    "format": "pastiche-hint",
    "version": 1,
    "player": 2,
    "phase": "action",
    "budget_ms": 300,
    "seed": 1,
    "complete": True,
    "moves": [
        {
            "move": "publish kind-3 MYS7 FAN7 cite 0:kind-3",
            "win_probability": 0.41,
            "margin": 1.8,
            "visits": 212,
            "explanation": "3 points now; no gifts; keeps SCI9 for straight-7",
        },
        {
            "move": "draw",
            "win_probability": 0.33,
            "margin": 0.2,
            "visits": 130,
            "explanation": "...",
        },
    ],
}
"""The example of the hint contract, as the contracts page gives it."""


def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["$ref"]] if isinstance(value.get("$ref"), str) else []
        return found + [ref for item in value.values() for ref in _refs(item)]
    if isinstance(value, list):
        return [ref for item in value for ref in _refs(item)]
    return []


def _pointer(document: Any, ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_every_reference_resolves() -> None:
    document = openapi()
    refs = _refs(document)
    assert len(refs) > 30
    for ref in refs:
        _pointer(document, ref)
    schemas = document["components"]["schemas"]
    for name in (*LIBRARY_SCHEMAS, *SERVICE_SCHEMAS):
        assert name in schemas
        jsonschema.Draft202012Validator.check_schema(schemas[name])


def test_bodies_reference_the_shipped_schemas() -> None:
    paths = openapi()["paths"]

    def request_of(path: str, method: str) -> str:
        ref: str = paths[path][method]["requestBody"]["content"]["application/json"]["schema"][
            "$ref"
        ]
        return ref.rsplit("/", 1)[1]

    def answer_of(path: str, method: str, code: str) -> str:
        ref: str = paths[path][method]["responses"][code]["content"]["application/json"]["schema"][
            "$ref"
        ]
        return ref.rsplit("/", 1)[1]

    assert request_of("/v1/publishes", "post") == "publishes_request"
    assert answer_of("/v1/publishes", "post", "200") == "publishes"
    assert request_of("/v1/hint", "post") == "hint_request"
    assert answer_of("/v1/hint", "post", "200") == "hint"
    assert answer_of("/v1/hint", "post", "503") == "error"
    assert request_of("/v1/games", "post") == "game_create"
    assert answer_of("/v1/games", "post", "201") == "game_created"
    assert answer_of("/v1/games/{game}", "get", "200") == "game_state"
    assert request_of("/v1/games/{game}/moves", "post") == "move"
    assert answer_of("/v1/games/{game}/moves", "post", "409") == "error"
    assert answer_of("/v1/games/{game}/record", "get", "200") == "record"
    shipped = schema("position")
    component = openapi()["components"]["schemas"]["position"]
    assert component["required"] == shipped["required"]


def test_answers_validate_against_the_document() -> None:
    """Validated through the OpenAPI document itself, not the files behind it."""
    document = openapi()

    def validate(name: str, instance: Any) -> None:
        wrapper = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        jsonschema.Draft202012Validator(wrapper).validate(instance)

    client, _ = make_client()
    body = json.loads((ROOT / "examples" / "positions" / "midgame.json").read_text())
    validate("position", body)
    validate("publishes", client.post("/v1/publishes", json=body).json())
    game, tokens = new_game(client, players=4, seed=3)
    state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    validate("game_state", state)
    validate("view", state["view"])
    validate("hint", client.post("/v1/hint", json={"view": state["view"]}).json())
    validate("error", client.get(f"/v1/games/{game}").json())
    with pytest.raises(jsonschema.ValidationError):
        validate("game_state", {**state, "legal": "draw"})


def _shown_texts(document: dict[str, Any]) -> list[str]:
    """The summaries and descriptions of the document's operations and info: what the docs
    page (``/docs``) shows as plain text."""
    texts = [document["info"]["description"]]
    for item in document["paths"].values():
        for operation in item.values():
            texts += [operation.get("summary", ""), operation.get("description", "")]
            texts += [answer["description"] for answer in operation["responses"].values()]
    return texts


def test_the_docs_page_texts_are_plain() -> None:
    # The page shows these as text: Markdown's backticks would appear as they are.
    texts = _shown_texts(openapi())
    assert len(texts) > 20
    assert [text for text in texts if "`" in text or "**" in text] == []


def test_openapi_route() -> None:
    client, _ = make_client()
    answer = client.get("/openapi.json")
    assert answer.status_code == 200
    assert answer.json() == openapi()


# ----------------------------------------------------------------------
# The hint contract's schema
# ----------------------------------------------------------------------
def test_hint_schema_takes_the_contract_example() -> None:
    jsonschema.Draft202012Validator.check_schema(schema("hint"))
    validate_library("hint", HINT_EXAMPLE)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"format": "pastiche-hints"}, "format"),
        ({"version": 2}, "version"),
        ({"phase": "thinking"}, "phase"),
        ({"complete": "yes"}, "complete"),
        ({"budget_ms": 0}, "budget_ms"),
        ({"extra": 1}, "extra"),
    ],
)
def test_hint_schema_refuses_bad_documents(change: dict[str, Any], where: str) -> None:
    with pytest.raises(jsonschema.ValidationError, match=where):
        validate_library("hint", {**HINT_EXAMPLE, **change})


@pytest.mark.parametrize(
    "entry",
    [
        {"win_probability": 1.2},
        {"win_probability": -0.1},
        {"visits": -1},
        {"visits": 1.5},
        {"move": ""},
        {"explanation": None},
        {"why": "extra"},
    ],
)
def test_hint_schema_refuses_bad_moves(entry: dict[str, Any]) -> None:
    moves = [{**HINT_EXAMPLE["moves"][0], **entry}]  # type: ignore[index]
    with pytest.raises(jsonschema.ValidationError):
        validate_library("hint", {**HINT_EXAMPLE, "moves": moves})


def test_fake_analysis_follows_the_contract() -> None:
    """The tests' stand-in is itself checked: contract-valid, legal moves, deterministic."""
    game = Game(players=4, seed=12)
    bot = RandomBot(3)
    answered = 0
    while not game.is_over:
        seat = game.to_move
        view: PlayerView = game.view(seat)
        document = fake_analyse(view, budget_ms=50, seed=2).to_dict()
        validate_library("hint", document)
        assert document == fake_analyse(view, budget_ms=50, seed=2).to_dict()
        assert all(game.is_legal(entry["move"]) for entry in document["moves"])
        answered += bool(document["moves"])
        game.apply(bot.choose(view, game.legal_moves))
    assert answered > 50


def test_service_schemas_stand_alone() -> None:
    for name in SERVICE_SCHEMAS:
        loaded = service_schema(name)
        jsonschema.Draft202012Validator.check_schema(loaded)
        loaded["$defs"].clear()
        assert service_schema(name)["$defs"]


# ----------------------------------------------------------------------
# The command, and what importing the library costs
# ----------------------------------------------------------------------
def test_serve_command_options() -> None:
    args = build_parser().parse_args(["serve"])
    assert (
        args.host,
        args.port,
        args.stdio,
        args.store,
        args.max_games,
        args.game_ttl,
        args.time_limit,
    ) == (
        "127.0.0.1",
        8000,
        False,
        None,
        1000,
        21600.0,
        2.0,
    )
    args = build_parser().parse_args(["serve", "--stdio", "--store", "g.sqlite", "--port", "0"])
    assert (args.stdio, args.store, args.port) == (True, "g.sqlite", 0)


def test_the_document_tells_the_app_limits() -> None:
    limits = ServerLimits(time_limit=1.0, max_time_limit=5.0, max_max_options=50, max_options=20)
    client, _ = make_client(limits=limits)
    document = client.get("/openapi.json").json()
    post = document["paths"]["/v1/publishes"]["post"]
    maxima = {parameter["name"]: parameter["schema"]["maximum"] for parameter in post["parameters"]}
    assert maxima == {"time_limit": 5.0, "max_options": 50}
    assert "default 1, at most 5" in post["description"]
    assert document == openapi(limits)
    assert openapi()["paths"]["/v1/publishes"]["post"]["parameters"][0]["schema"]["maximum"] == 10.0
