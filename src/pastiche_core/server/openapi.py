"""The service's OpenAPI 3.1 description, built from the JSON Schemas the package ships.

Request and response bodies reference the library's schemas
(:func:`pastiche_core.io.schema`: ``position``, ``publishes``, ``hint``, ``outs``,
``review``) and the
service's own (:func:`schema`: the view, the hint request, games, records and
the error shape). Each schema's ``$defs`` become components of their own
(``position.card``), so every ``$ref`` is a plain pointer into the document.
The publishes body, a position, a view or a state, is the ``publishes_request``
component and the outs body the ``outs_request`` one (:data:`REQUEST_SCHEMAS`). Every body carries a real example, made
from a game in play (:func:`examples`), which the docs page at ``/docs`` offers.

>>> document = openapi()
>>> document["openapi"], sorted(document["paths"])[:3]
('3.1.0', ['/v1/games', '/v1/games/{game}', '/v1/games/{game}/moves'])
>>> document["components"]["schemas"]["position.card"]["type"]
'string'
>>> schema("move")["$ref"]
'#/$defs/move'
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from ..bots.play import RandomBot
from ..engine.game import Game
from ..engine.rules import Phase
from ..io.position_json import position_to_dict
from ..io.position_json import schema as library_schema
from ..io.record import GameRecord
from ..io.state_json import state_to_dict
from ..io.view_json import view_from_dict, view_to_dict
from ..solver.position import Position
from .quotas import ServerLimits

__all__ = [
    "LIBRARY_SCHEMAS",
    "REQUEST_SCHEMAS",
    "SCHEMA_BASE",
    "SERVICE_SCHEMAS",
    "examples",
    "openapi",
    "schema",
    "schema_address",
]

LIBRARY_SCHEMAS = ("position", "publishes", "hint", "outs", "review")
"""The library's schemas the service's bodies use (:func:`pastiche_core.io.schema`)."""

_DRAFT = "https://json-schema.org/draft/2020-12/schema"

SCHEMA_BASE = "/openapi.json#/components/schemas/"
"""Where the service's schemas are served: components of its OpenAPI document."""


def schema_address(name: str) -> str:
    """The address of a body's schema on the service, for error messages and clients.

    >>> schema_address("hint_request")
    '/openapi.json#/components/schemas/hint_request'
    """
    return SCHEMA_BASE + name


@cache
def _service_defs() -> dict[str, Any]:
    folder = resources.files("pastiche_core.server").joinpath("schemas")
    text = folder.joinpath("service.schema.json").read_text(encoding="utf-8")
    defs: dict[str, Any] = json.loads(text)["$defs"]
    return defs


SERVICE_SCHEMAS = (
    "view",
    "hint_request",
    "review_request",
    "game_create",
    "game_created",
    "game_state",
    "move",
    "record",
    "error",
    "health",
)
"""The service's own bodies, by :func:`schema` name."""


def schema(name: str) -> dict[str, Any]:
    """A service body's JSON Schema (draft 2020-12), standing on its own.

    Names: :data:`SERVICE_SCHEMAS`. Each call returns a fresh dict.

    >>> sorted(schema("game_created")["$defs"]["game_created"]["required"])
    ['game', 'tokens']
    >>> schema("nope")
    Traceback (most recent call last):
    ...
    ValueError: unknown service schema 'nope': expected one of view, hint_request, review_request, game_create, game_created, game_state, move, record, error, health
    """
    if name not in SERVICE_SCHEMAS:
        raise ValueError(
            f"unknown service schema {name!r}: expected one of {', '.join(SERVICE_SCHEMAS)}"
        )
    return {"$schema": _DRAFT, "$ref": f"#/$defs/{name}", "$defs": copy.deepcopy(_service_defs())}


def _rebased(value: Any, prefix: str) -> Any:
    """``value`` with every local ``#/$defs/x`` reference pointing at component ``prefix + x``."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str) and item.startswith("#/$defs/"):
                out[key] = "#/components/schemas/" + prefix + item[len("#/$defs/") :]
            elif key != "$schema":
                out[key] = _rebased(item, prefix)
        return out
    if isinstance(value, list):
        return [_rebased(item, prefix) for item in value]
    return value


def _components() -> dict[str, Any]:
    components: dict[str, Any] = {}
    for name in LIBRARY_SCHEMAS:
        loaded = library_schema(name)
        defs = loaded.pop("$defs", {})
        components[name] = _rebased(loaded, f"{name}.")
        for key, value in defs.items():
            components[f"{name}.{key}"] = _rebased(value, f"{name}.")
    for key, value in _service_defs().items():
        components[key] = _rebased(value, "")
    components["state"] = copy.deepcopy(_STATE)
    components["publishes_request"] = copy.deepcopy(_PUBLISHES_REQUEST)
    components["outs_request"] = copy.deepcopy(_OUTS_REQUEST)
    return components


_STATE = {
    "type": "object",
    "title": "A whole game state (format pastiche-state)",
    "description": "Every card of a game, as pastiche_core.io.state_to_dict writes it; the service "
    "checks it (and replays its history, if any) before it answers, and answers from one "
    "player's view of it alone (R16).",
    "required": ["format"],
    "properties": {"format": {"const": "pastiche-state"}, "version": {"const": 1}},
}
_PUBLISHES_REQUEST = {
    "title": "A publishes request: a position, a view, or a state and a player",
    "description": "A position document (constraints come from it); a player's view, bare or as "
    '{"view": ...}, answered for the viewer; or a game state, bare or as {"state": ..., '
    '"player": 2}, answered for player (default: the player to move) from that player\'s view.',
    "anyOf": [
        {"$ref": "#/components/schemas/position"},
        {"$ref": "#/components/schemas/view"},
        {
            "type": "object",
            "required": ["view"],
            "additionalProperties": False,
            "properties": {"view": {"$ref": "#/components/schemas/view"}},
        },
        {"$ref": "#/components/schemas/state"},
        {
            "type": "object",
            "required": ["state"],
            "additionalProperties": False,
            "properties": {
                "state": {"$ref": "#/components/schemas/state"},
                "player": {"type": "integer", "minimum": 0, "maximum": 4},
            },
        },
    ],
}
_OUTS_REQUEST = {
    "title": "An outs request: a view, a position, or a state and a player",
    "description": 'One of {"view": ...} (answered for the viewer), {"position": ...} (every card '
    'not in its hand nor on its table unseen) or {"state": ..., "player": 0} (answered for player, '
    "by default the player to move, from that player's view alone, R16); writes (1 to 10, "
    "default 3) and seed (default 0) are optional.",
    "type": "object",
    "minProperties": 1,
    "additionalProperties": False,
    "properties": {
        "view": {"$ref": "#/components/schemas/view"},
        "position": {"$ref": "#/components/schemas/position"},
        "state": {"$ref": "#/components/schemas/state"},
        "player": {"type": "integer", "minimum": 0, "maximum": 4},
        "writes": {"type": "integer", "minimum": 1, "maximum": 10},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    },
    "oneOf": [{"required": ["view"]}, {"required": ["position"]}, {"required": ["state"]}],
}
REQUEST_SCHEMAS = ("publishes_request", "outs_request", "state")
"""Components the OpenAPI document adds for its own bodies: the publishes request and the
state it may carry (no file of their own: they gather the shipped schemas)."""


def _example_game() -> Game:
    """A real game in play for the docs' examples: random legal play of seed 7 until three novels
    are on the table and the player to move has an action to choose."""
    game = Game(players=4, seed=7)
    bots = [RandomBot(seed) for seed in range(game.players)]
    while not game.is_over and (
        sum(len(game.table(seat)) for seat in range(game.players)) < 3
        or game.phase is not Phase.ACTION
    ):
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat), game.legal_moves))
    return game


def examples() -> dict[str, Any]:
    """Real request bodies for every route that takes one, from :func:`_example_game`.

    ``publishes`` has one per kind of body (a position, a view, a state and a
    player); every example is valid against its route's schema (the tests check it).

    >>> sorted(examples())
    ['games', 'hint', 'moves', 'outs', 'publishes', 'review']
    >>> sorted(examples()["publishes"]), sorted(examples()["outs"])
    (['position', 'state', 'view'], ['position', 'state', 'view'])
    """
    game = _example_game()
    seat = game.to_move
    view = view_to_dict(game.view(seat))
    position = position_to_dict(Position.from_game(game, seat))
    return {
        "outs": {
            "view": {"view": view, "writes": 3, "seed": 0},
            "position": {"position": position, "writes": 2},
            "state": {"state": state_to_dict(game), "player": seat},
        },
        "review": {
            "record": GameRecord.of(game).to_dict(),
            "player": seat,
            "simulations": _REVIEW_EXAMPLE_SIMULATIONS,
            "seed": 0,
        },
        "publishes": {
            "position": position_to_dict(Position.from_game(game, seat)),
            "view": {"view": view},
            "state": {"state": state_to_dict(game), "player": seat},
        },
        "hint": {"view": view, "budget_ms": 300, "seed": 1},
        "games": {"players": 4, "seed": 7, "seats": ["human", "random", "random", "random"]},
        "moves": {"move": str(game.legal_moves[0])},
    }


_REVIEW_EXAMPLE_SIMULATIONS = 4
"""The review example's simulations: few, so that trying it on the docs page answers at once."""


@cache
def _answer_examples() -> str:
    """Real answers to the outs and review examples (JSON text, made once)."""
    from ..ai.review import review
    from ..solver.closeness import outs

    bodies = examples()
    view = view_from_dict(bodies["outs"]["view"]["view"])
    asked = bodies["review"]
    record = GameRecord.from_dict(asked["record"])
    reviewed = review(record, player=asked["player"], simulations=asked["simulations"])
    return json.dumps({"outs": outs(view).to_dict(), "review": reviewed.to_dict()})


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _body(name: str, example: Any, named: dict[str, Any] | None = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": _ref(name), "example": example}
    if named is not None:
        media["examples"] = {key: {"value": value} for key, value in named.items()}
    return {"required": True, "content": {"application/json": media}}


def _answer(description: str, name: str, example: Any = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": _ref(name)}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}}


_ERRORS = {
    "400": "bad input: JSON that does not parse, a wrong field or value (path says where)",
    "403": "no token, or a token that opens no seat of this game",
    "404": "no such game",
    "409": "a move the rules forbid now, or out of turn; a record or a review before the game ends",
    "408": "a body that did not arrive within the time limit",
    "413": "a body over the size limit",
    "429": "past this client's share of games (Retry-After says when to try again)",
    "503": "the analysis engine is not installed",
    "503 games": "the service keeps as many games as it may, none finished (Retry-After says "
    "when to try again)",
    "429 work": "past this client's share of hint and publishes requests running or waiting "
    "(Retry-After says when to try again)",
    "503 work": "every worker busy and the queue full, a worker out of memory or lost, or the "
    "analysis engine not installed (Retry-After says when to try again)",
    "504": "the request's worker ran past its own time and the grace; the worker was stopped",
}


def _errors(*codes: str) -> dict[str, Any]:
    # A key's first word is the status: "503 games" is 503 with another reason.
    return {code.split()[0]: _answer(_ERRORS[code], "error") for code in codes}


_GAME = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
_TOKEN: list[dict[str, list[str]]] = [{"bearer": []}]


@cache
def _document(limits: ServerLimits) -> str:
    from .._version import __version__

    bodies = examples()
    answers = json.loads(_answer_examples())
    paths: dict[str, Any] = {
        "/v1/publishes": {
            "post": {
                "summary": "Every publish option of a position, with the Pareto fronts",
                "description": "A position document as the publishes command reads it (constraints "
                'come from it), a player\'s view (bare or as {"view": ...}) answered for the '
                'viewer, or a game state (bare or as {"state": ..., "player": 2}) answered for '
                "player, by default the player to move, from that player's view alone. A "
                'catalogue may be "default" or embedded, never a file. '
                f"The search stops at time_limit seconds (default {limits.time_limit:g}, at most "
                f"{limits.max_time_limit:g}) and lists at most max_options options (default "
                f"{limits.max_options}, at most {limits.max_max_options}); an answer cut short "
                "says so (complete false, stopped_by). The same body under the same limits gets "
                "the same answer, kept and given again at once.",
                "parameters": [
                    {
                        "name": "time_limit",
                        "in": "query",
                        "schema": {
                            "type": "number",
                            "exclusiveMinimum": 0,
                            "maximum": limits.max_time_limit,
                        },
                    },
                    {
                        "name": "max_options",
                        "in": "query",
                        "schema": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": limits.max_max_options,
                        },
                    },
                ],
                "requestBody": _body(
                    "publishes_request", bodies["publishes"]["position"], bodies["publishes"]
                ),
                "responses": {
                    "200": _answer("the publishes contract", "publishes"),
                    **_errors("400", "408", "413", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/hint": {
            "post": {
                "summary": "The moves of a player's view, ranked, with explanations",
                "description": f"budget_ms defaults to {limits.budget_ms} and may not exceed "
                f"{limits.max_budget_ms}; the same view, budget and seed give the same answer.",
                "requestBody": _body("hint_request", bodies["hint"]),
                "responses": {
                    "200": _answer("the hint contract", "hint"),
                    **_errors("400", "408", "413", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/games": {
            "post": {
                "summary": "Start a game against bots",
                "description": "The bots play until a human is to move. At most "
                f"{limits.max_games} games in play are kept (one per client once half are in "
                f"play; a game in play is never dropped for a new one), a game untouched for "
                f"{limits.game_ttl:g} seconds is dropped ({limits.record_ttl:g} once finished), "
                f"and one client keeps at most {limits.client_games} unfinished games and creates "
                f"at most {limits.client_creations} a minute.",
                "requestBody": _body("game_create", bodies["games"]),
                "responses": {
                    "201": _answer("the game's id and one token per human seat", "game_created"),
                    **_errors("400", "408", "413", "429", "503 games"),
                },
            }
        },
        "/v1/games/{game}": {
            "get": {
                "summary": "What the token's seat is shown",
                "parameters": [_GAME],
                "security": _TOKEN,
                "responses": {
                    "200": _answer("the seat's view, legal moves and turn", "game_state"),
                    **_errors("403", "404"),
                },
            }
        },
        "/v1/games/{game}/moves": {
            "post": {
                "summary": "Play a move for the token's seat; then the bots play",
                "parameters": [_GAME],
                "security": _TOKEN,
                "requestBody": _body("move", bodies["moves"]),
                "responses": {
                    "200": _answer("the seat's new state", "game_state"),
                    **_errors("400", "403", "404", "408", "409", "413"),
                },
            }
        },
        "/v1/games/{game}/record": {
            "get": {
                "summary": "The record of a finished game (R14)",
                "parameters": [_GAME],
                "security": _TOKEN,
                "responses": {
                    "200": _answer("the game record", "record"),
                    **_errors("403", "404", "409"),
                },
            }
        },
        "/v1/outs": {
            "post": {
                "summary": "How close each Novel is: the cards still needed, the outs, the odds",
                "description": 'A player\'s view ({"view": ...}), a position ({"position": ...}) '
                'or a game state and a seat ({"state": ..., "player": 0}, answered from that '
                "seat's view alone, R16). The odds are for the next writes (1 to 10, default 3), "
                f"sampled with seed (default 0). The search stops at {limits.time_limit:g} "
                "seconds; an answer cut short says complete false.",
                "requestBody": _body("outs_request", bodies["outs"]["view"], {**bodies["outs"]}),
                "responses": {
                    "200": _answer("the outs document", "outs", answers["outs"]),
                    **_errors("400", "408", "413", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/review": {
            "post": {
                "summary": "Where each seat lost: every decision's win chance against the best",
                "description": "A game record, the seat to review (null: every seat), the "
                f"simulations of each search (default {min(64, limits.max_review_simulations)}, "
                f"at most {limits.max_review_simulations}) and the seed. The record is replayed "
                "before any search (an illegal move is refused at its path). At most "
                f"{limits.max_review_decisions} decisions are reviewed, for at most "
                f"{limits.review_time_limit:g} seconds; past either the review says complete "
                "false. Each decision is searched from the seat's view then (R16).",
                "requestBody": _body("review_request", bodies["review"]),
                "responses": {
                    "200": _answer("the review document", "review", answers["review"]),
                    **_errors("400", "408", "413", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/games/{game}/outs": {
            "get": {
                "summary": "The outs of the token's seat, from its view",
                "parameters": [_GAME],
                "security": _TOKEN,
                "responses": {
                    "200": _answer("the outs document", "outs"),
                    **_errors("403", "404", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/games/{game}/review": {
            "get": {
                "summary": "The review of the token's seat, once the game is over",
                "parameters": [_GAME],
                "security": _TOKEN,
                "responses": {
                    "200": _answer("the review document", "review"),
                    **_errors("403", "404", "409", "429 work", "503 work", "504"),
                },
            }
        },
        "/v1/health": {
            "get": {
                "summary": "Whether the service answers",
                "responses": {"200": _answer("always ok", "health")},
            }
        },
    }
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": "pastiche_core hint service",
            "version": __version__,
            "description": "Publish options, hints and games of Pastiche: The Birth of a "
            'Masterpiece. Every error is {"error": {"path", "message"}}.',
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": _components(),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat's token, from POST /v1/games.",
                }
            },
        },
    }
    return json.dumps(document)


def openapi(limits: ServerLimits | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of a service with these limits (a fresh dict each call).

    >>> post = openapi()["paths"]["/v1/games/{game}/moves"]["post"]
    >>> post["requestBody"]["content"]["application/json"]["schema"], sorted(post["responses"])
    ({'$ref': '#/components/schemas/move'}, ['200', '400', '403', '404', '408', '409', '413'])
    """
    loaded: dict[str, Any] = json.loads(_document(limits or ServerLimits()))
    return loaded
