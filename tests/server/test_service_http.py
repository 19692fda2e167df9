"""Every HTTP route and every error of the service, in process (Starlette's TestClient)."""

from __future__ import annotations

import json
import random
import socket
import sqlite3
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import (
    bearer,
    make_client,
    new_game,
    running_server,
    validate_library,
    validate_service,
)
from starlette.testclient import TestClient

from pastiche_core import (
    PALETTE,
    Catalogue,
    GameRecord,
    Genre,
    Move,
    Publish,
    load_query,
    solve,
    view_to_dict,
)
from pastiche_core.data.limits import CLI_MAX_OPTIONS
from pastiche_core.server import (
    BOTS,
    MemoryStore,
    ServerLimits,
    Service,
    SqliteStore,
    create_app,
)

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = sorted((ROOT / "examples" / "positions").glob("*.json"))


@pytest.fixture
def client() -> TestClient:
    return make_client()[0]


def error_of(answer: Any, status: int) -> dict[str, Any]:
    """The error document of an answer, checked: status, shape, no traceback."""
    assert answer.status_code == status, answer.text
    data = answer.json()
    validate_service("error", data)
    assert "Traceback" not in answer.text
    error: dict[str, Any] = data["error"]
    return error


def play_out(client: TestClient, game: str, token: str, seed: int, limit: int = 600) -> Any:
    """Play the seat's listed moves at random until the game ends; the last state."""
    rng = random.Random(seed)
    state = client.get(f"/v1/games/{game}", headers=bearer(token)).json()
    for _ in range(limit):
        if state["over"]:
            return state
        assert state["legal"], state
        move = rng.choice(state["legal"])
        answer = client.post(f"/v1/games/{game}/moves", json={"move": move}, headers=bearer(token))
        assert answer.status_code == 200, answer.text
        state = answer.json()
    raise AssertionError(f"the game did not end within {limit} moves")


# ----------------------------------------------------------------------
# POST /v1/publishes
# ----------------------------------------------------------------------
@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_publishes_matches_the_solver(client: TestClient, path: Path) -> None:
    answer = client.post("/v1/publishes", content=path.read_bytes())
    assert answer.status_code == 200, answer.text
    data = answer.json()
    validate_library("publishes", data)
    position, constraints = load_query(path)
    expected = solve(position, constraints=constraints, max_options=CLI_MAX_OPTIONS).to_dict()
    assert data == expected


def test_publishes_constraints_come_from_the_document(client: TestClient) -> None:
    body = json.loads((ROOT / "examples" / "positions" / "jerome.json").read_text())
    free = client.post("/v1/publishes", json=body).json()
    body["constraints"] = {"max_gifts": 0}
    bounded = client.post("/v1/publishes", json=body).json()
    assert len(bounded["options"]) < len(free["options"])
    assert all(option["gift_count"] == 0 for option in bounded["options"])


def test_publishes_limits_from_the_query(client: TestClient) -> None:
    body = (ROOT / "examples" / "positions" / "jerome.json").read_bytes()
    cut = client.post("/v1/publishes?max_options=1", content=body).json()
    assert (cut["complete"], cut["stopped_by"], len(cut["options"])) == (False, "max_options", 1)
    quick = client.post("/v1/publishes?time_limit=0.5&max_options=0", content=body)
    assert quick.status_code == 200
    for query in ("time_limit=0", "time_limit=-1", "time_limit=11", "time_limit=nan"):
        error = error_of(client.post(f"/v1/publishes?{query}", content=body), 400)
        assert "time_limit" in error["message"]
    for query in ("max_options=10001", "max_options=-1", "max_options=many"):
        error = error_of(client.post(f"/v1/publishes?{query}", content=body), 400)
        assert "max_options" in error["message"]


@pytest.mark.parametrize(
    ("body", "path", "words"),
    [
        (b'{"player": 0,', "$", "not valid JSON"),
        (b"", "$", "no input"),
        (b"[]", "$", "expected an object"),
        (b'{"player": 0, "player": 1, "hand": [], "masterpieces": []}', "$.player", "twice"),
        (b'{"player": 0, "hand": ["MYS7", "LOV1"], "masterpieces": []}', "$.hand[1]", "LOV1"),
        (b'{"player": 0, "hand": [], "masterpieces": [], "x": 1}', "$.x", "unknown field"),
        (b"[" * 100 + b"]" * 100, "$", "nested deeper"),
        (b'{"player": 0, "hand": [], "masterpieces": [], "catalogue": "variant.toml"}',
         "$.catalogue", "read only for a position read from a file"),
        (b'{"player": 0, "hand": [], "masterpieces": [], "catalogue": "/etc/passwd"}',
         "$.catalogue", "catalogue"),
        (b'\xff\xfe{}', "$", "UTF-8"),
    ],
)  # fmt: skip
def test_publishes_bad_input(client: TestClient, body: bytes, path: str, words: str) -> None:
    error = error_of(client.post("/v1/publishes", content=body), 400)
    assert error["path"] == path
    assert words in error["message"]


def test_publishes_embedded_catalogue(client: TestClient) -> None:
    catalogue = Catalogue.default().to_dict()
    body = {
        "player": 0,
        "hand": ["SCI7", "HOR7", "MYS7"],
        "masterpieces": [],
        "catalogue": catalogue,
    }
    data = client.post("/v1/publishes", json=body).json()
    assert [option["novel"] for option in data["options"]] == ["kind-3"]


def test_body_size_limit() -> None:
    client, _ = make_client(limits=ServerLimits(max_body_bytes=200))
    big = json.dumps({"player": 0, "hand": [], "masterpieces": [], "x": "y" * 300}).encode()
    error = error_of(client.post("/v1/publishes", content=big), 413)
    assert error["path"] == "$"
    assert "more than max_body_bytes (200)" in error["message"]

    def chunks() -> Any:  # no Content-Length: counted while reading
        for _ in range(10):
            yield b" " * 50

    error = error_of(client.post("/v1/publishes", content=chunks()), 413)
    for route in ("/v1/hint", "/v1/games"):
        error_of(client.post(route, content=big), 413)
    small = client.post("/v1/publishes", json={"player": 0, "hand": ["SCI7"], "masterpieces": []})
    assert small.status_code == 200


# ----------------------------------------------------------------------
# POST /v1/hint
# ----------------------------------------------------------------------
def _view_body(client: TestClient, **extra: Any) -> tuple[dict[str, Any], Any]:
    game, tokens = new_game(client, players=3, seed=5)
    state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    return {"view": state["view"], **extra}, game


def test_hint_answers_the_contract() -> None:
    client, service = make_client()
    body, game = _view_body(client, budget_ms=300, seed=1)
    answer = client.post("/v1/hint", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    validate_library("hint", data)
    assert (data["player"], data["budget_ms"], data["seed"]) == (0, 300, 1)
    session = service.store.get(game)
    assert session is not None
    assert data["moves"]
    assert all(session.game.is_legal(entry["move"]) for entry in data["moves"])
    assert client.post("/v1/hint", json=body).content == answer.content  # same input, same bytes


def test_hint_defaults_and_bounds() -> None:
    client, _ = make_client()
    body, _ = _view_body(client)
    data = client.post("/v1/hint", json=body).json()
    assert (data["budget_ms"], data["seed"]) == (300, 0)
    for field, value in (("budget_ms", 5001), ("budget_ms", 0), ("seed", -1), ("seed", "1")):
        error = error_of(client.post("/v1/hint", json={**body, field: value}), 400)
        assert error["path"] == f"$.{field}"
    error = error_of(client.post("/v1/hint", json={"budget_ms": 10}), 400)
    assert error["path"] == "$.view"
    error = error_of(client.post("/v1/hint", json={**body, "extra": 1}), 400)
    assert error["path"] == "$.extra"
    broken = json.loads(json.dumps(body))
    broken["view"]["hand"][0] = "LOV1"
    error = error_of(client.post("/v1/hint", json=broken), 400)
    assert error["path"] == "$.view.hand[0]"


def test_hint_budget_cap_is_a_limit() -> None:
    client, _ = make_client(limits=ServerLimits(budget_ms=50, max_budget_ms=100))
    body, _ = _view_body(client)
    assert client.post("/v1/hint", json=body).json()["budget_ms"] == 50
    assert client.post("/v1/hint", json={**body, "budget_ms": 100}).status_code == 200
    error_of(client.post("/v1/hint", json={**body, "budget_ms": 101}), 400)


def test_hint_from_the_search_follows_the_contract() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)  # the real engine
    body, _ = _view_body(client, budget_ms=100, seed=3)
    answer = client.post("/v1/hint", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    validate_library("hint", data)
    assert (data["player"], data["budget_ms"], data["seed"]) == (0, 100, 3)
    assert data["moves"]
    assert all(move["explanation"] for move in data["moves"])
    again = client.post("/v1/hint", json=body).json()
    if data["complete"] and again["complete"]:  # only the time ceiling makes two answers differ
        assert again == data
    else:  # cut short on a busy machine: still an answer in the contract's shape
        validate_library("hint", again)


def test_hint_without_the_analysis_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pastiche_core.ai", None)  # import fails: not installed
    client = TestClient(create_app(), raise_server_exceptions=False)
    body, _ = _view_body(client)
    error = error_of(client.post("/v1/hint", json=body), 503)
    assert "pastiche_core.ai" in error["message"]
    assert error["path"] is None
    assert client.get("/v1/health").status_code == 200


def test_hint_engine_is_resolved_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    body, _ = _view_body(client)
    module = types.ModuleType("pastiche_core.ai")
    module.analyse = fake_analyse  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pastiche_core.ai", module)
    answer = client.post("/v1/hint", json=body)
    assert answer.status_code == 200, answer.text
    validate_library("hint", answer.json())
    empty = types.ModuleType("pastiche_core.ai")
    monkeypatch.setitem(sys.modules, "pastiche_core.ai", empty)
    assert client.post("/v1/hint", json=body).status_code == 200  # resolved once, kept


def test_a_failing_engine_is_an_internal_error_and_the_server_goes_on() -> None:
    def broken(view: Any, *, budget_ms: int, seed: int) -> Any:
        raise RuntimeError("secret internals")

    client, _ = make_client(analyse=broken)
    body, _ = _view_body(client)
    answer = client.post("/v1/hint", json=body)
    error = error_of(answer, 500)
    assert "secret internals" not in answer.text
    assert error["path"] is None
    assert (
        client.post("/v1/publishes", json={"player": 0, "hand": [], "masterpieces": []}).status_code
        == 200
    )


# ----------------------------------------------------------------------
# Games
# ----------------------------------------------------------------------
def test_game_defaults_and_state() -> None:
    client, service = make_client()
    game, tokens = new_game(client)
    assert list(tokens) == ["0"]
    answer = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"]))
    assert answer.status_code == 200
    state = answer.json()
    validate_service("game_state", state)
    assert (state["seat"], state["seats"], state["to_move"], state["over"]) == (
        0,
        ["human", "random", "random", "random"],
        0,
        False,
    )
    session = service.store.get(game)
    assert session is not None
    assert state["view"] == view_to_dict(session.game.view(0))
    assert state["legal"]
    assert all(session.game.is_legal(move) for move in state["legal"])
    assert state["legal_count"] == len(session.game.legal_moves)


def test_game_with_two_humans_and_turns() -> None:
    client = make_client()[0]
    game, tokens = new_game(client, players=3, seed=3, seats=["human", "human", "random"])
    assert sorted(tokens) == ["0", "1"]
    assert tokens["0"] != tokens["1"]
    other = client.get(f"/v1/games/{game}", headers=bearer(tokens["1"])).json()
    assert (other["seat"], other["legal"], other["legal_count"]) == (1, [], 0)
    error = error_of(
        client.post(f"/v1/games/{game}/moves", json={"move": "draw"}, headers=bearer(tokens["1"])),
        409,
    )
    assert error["path"] == "$.move"
    assert "turn" in error["message"]
    mine = client.post(
        f"/v1/games/{game}/moves", json={"move": "draw"}, headers=bearer(tokens["0"])
    )
    assert mine.status_code == 200
    state = mine.json()
    assert state["view"]["phase"] == "choose"
    assert state["view"]["pending"] is not None
    assert [move.split()[0] for move in state["legal"]] == ["choose", "choose"]


def test_tokens_and_unknown_games() -> None:
    client, service = make_client()
    game, tokens = new_game(client, players=3, seed=1)
    _other, other_tokens = new_game(client, players=3, seed=2)
    for headers in ({}, bearer("nope"), bearer(other_tokens["0"]), {"Authorization": tokens["0"]}):
        for method, route in (("GET", ""), ("POST", "/moves"), ("GET", "/record")):
            answer = client.request(
                method, f"/v1/games/{game}{route}", json={"move": "draw"}, headers=headers
            )
            assert error_of(answer, 403)["path"] is None
    for name in ("unknown", "x" * 65):
        error = error_of(client.get(f"/v1/games/{name}", headers=bearer(tokens["0"])), 404)
        assert error["path"] is None
    assert (
        client.get(
            f"/v1/games/{game}", headers={"authorization": f"bearer {tokens['0']}"}
        ).status_code
        == 200
    )
    assert service.store.get(game) is not None
    session = service.store.get(game)
    assert session is not None
    assert tokens["0"] not in json.dumps(session.tokens)


@pytest.mark.parametrize(
    ("body", "status", "path"),
    [
        ({"move": "jump"}, 400, "$.move"),
        ({"move": 3}, 400, "$.move"),
        ({}, 400, "$.move"),
        ({"move": "draw", "x": 1}, 400, "$.x"),
        ({"move": "choose SCI9"}, 409, "$.move"),
        ({"move": "publish kind-3 MYT1"}, 409, "$.move"),
    ],
)
def test_bad_moves(body: dict[str, Any], status: int, path: str) -> None:
    client = make_client()[0]
    game, tokens = new_game(client, players=3, seed=4)
    before = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    error = error_of(
        client.post(f"/v1/games/{game}/moves", json=body, headers=bearer(tokens["0"])), status
    )
    assert error["path"] == path
    after = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    assert after == before  # a refused move changes nothing


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"players": 6}, "$.players"),
        ({"players": "4"}, "$.players"),
        ({"seats": ["human", "genius", "random"]}, "$.seats[1]"),
        ({"seats": ["human", 1, "random"]}, "$.seats[1]"),
        ({"seats": ["random", "random", "random"]}, "$.seats"),
        ({"seats": ["human", "random"]}, "$.seats"),
        ({"players": 4, "seats": ["human", "random", "random"]}, "$.seats"),
        ({"seed": -1}, "$.seed"),
        ({"seed": 2**63}, "$.seed"),
        ({"catalogue": "variant.toml"}, "$.catalogue"),
        ({"catalogue": {"novels": []}}, "$.catalogue"),
        ({"colour": "red"}, "$.colour"),
    ],
)
def test_bad_new_games(client: TestClient, body: dict[str, Any], path: str) -> None:
    assert error_of(client.post("/v1/games", json=body), 400)["path"] == path


def test_game_with_an_embedded_catalogue(client: TestClient) -> None:
    catalogue = Catalogue.default().to_dict()
    catalogue["name"] = "house rules"
    game, tokens = new_game(client, players=3, seed=8, catalogue=catalogue)
    state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    assert state["view"]["players"] == 3


def test_whole_game_and_its_record() -> None:
    client, service = make_client()
    game, tokens = new_game(client, players=3, seed=11)
    error = error_of(client.get(f"/v1/games/{game}/record", headers=bearer(tokens["0"])), 409)
    assert "not over" in error["message"]
    final = play_out(client, game, tokens["0"], seed=1)
    validate_service("game_state", final)
    assert final["over"]
    assert final["legal"] == []
    assert final["result"]["reason"] in ("countdown", "all-pass")
    error = error_of(
        client.post(f"/v1/games/{game}/moves", json={"move": "draw"}, headers=bearer(tokens["0"])),
        409,
    )
    assert "over" in error["message"]
    answer = client.get(f"/v1/games/{game}/record", headers=bearer(tokens["0"]))
    assert answer.status_code == 200
    record = answer.json()
    validate_service("record", record)
    session = service.store.get(game)
    assert session is not None
    assert GameRecord.from_dict(record).replay() == session.game
    assert final["result"]["scores"] == list(session.game.scores())


def test_bots_continue_deterministically() -> None:
    """A game is its seed and the humans' moves: bots are seeded per decision (R14)."""
    states = []
    for _ in range(2):
        client, _ = make_client()
        game, tokens = new_game(client, players=4, seed=21)
        drawn = client.post(
            f"/v1/games/{game}/moves", json={"move": "draw"}, headers=bearer(tokens["0"])
        )
        choose = drawn.json()["legal"][0]
        states.append(
            client.post(
                f"/v1/games/{game}/moves", json={"move": choose}, headers=bearer(tokens["0"])
            ).json()
        )
    for state in states:
        del state["game"]
    assert states[0] == states[1]


def test_bot_time_and_decision_limits() -> None:
    client = make_client(limits=ServerLimits(bot_decisions=1))[0]
    game, tokens = new_game(client, players=5, seed=2)  # seats 2, 3 and 4 keep first (R10)
    waits = []
    for _ in range(5):
        state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
        waits.append(state["waiting"])
        if not state["waiting"]:
            break
    assert waits == [True, False]  # seat 3 kept at the first request, seat 4 at the second
    assert state["to_move"] == 0
    assert state["legal"]


def test_bot_table_takes_new_bots() -> None:
    class FirstMoveBot:
        def __init__(self, seed: int, catalogue: Any = None) -> None:
            self.seed = seed

        def choose(self, view: Any, legal: Any) -> Move:
            move: Move = legal[0]
            return move

    client, _ = make_client(bots={"random": BOTS["random"], "first": FirstMoveBot})
    game, tokens = new_game(client, players=3, seed=5, seats=["human", "first", "random"])
    state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    assert state["seats"] == ["human", "first", "random"]
    error = error_of(client.post("/v1/games", json={"seats": ["human", "nobody", "random"]}), 400)
    assert "'first'" in error["message"]


def test_publish_listing_is_bounded() -> None:
    limits = ServerLimits(legal_publishes=2)
    client = make_client(limits=limits)[0]
    seen_cut = False
    for seed in range(40):
        game, tokens = new_game(client, players=3, seed=seed)
        rng = random.Random(seed)
        state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
        for _ in range(150):
            if state["over"]:
                break
            publishes = [move for move in state["legal"] if move.startswith("publish")]
            assert len(publishes) <= 2
            assert state["publish_options"] >= len(publishes)
            if state["publish_options"] > 2:
                assert not state["legal_complete"]
                seen_cut = True
            for move in publishes:
                assert isinstance(Move.parse(move), Publish)
            move = rng.choice(publishes or state["legal"])
            state = client.post(
                f"/v1/games/{game}/moves", json={"move": move}, headers=bearer(tokens["0"])
            ).json()
        if seen_cut:
            break
    assert seen_cut, "no position with more than two publish options was met"


def test_games_are_capped_and_none_in_play_is_dropped() -> None:
    client, service = make_client(limits=ServerLimits(max_games=2))
    first, first_tokens = new_game(client, players=3, seed=1)
    # Half full: this client keeps a game, so another client (address) makes the second.
    other = TestClient(
        create_app(service=service), raise_server_exceptions=False, client=("10.0.0.2", 50000)
    )
    second, second_tokens = new_game(other, players=3, seed=2)
    # Full of games in play: the new game is refused, nobody's game is dropped.
    answer = client.post("/v1/games", json={"players": 3, "seed": 3})
    error = error_of(answer, 503)
    assert "max_games" in error["message"]
    assert 1 <= int(answer.headers["retry-after"]) <= 3600
    assert len(service.store) == 2
    for game, tokens in ((first, first_tokens), (second, second_tokens)):
        assert client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).status_code == 200


def test_game_expiry_through_the_service() -> None:
    now = [1000.0]
    store = MemoryStore(max_games=10, ttl=60.0, clock=lambda: now[0])
    service = Service(analyse=fake_analyse, store=store)
    client = TestClient(create_app(service=service), raise_server_exceptions=False)
    game, tokens = new_game(client, players=3, seed=1)
    now[0] += 59
    assert client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).status_code == 200
    now[0] += 61
    error_of(client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])), 404)


# ----------------------------------------------------------------------
# Routes, pages and robustness
# ----------------------------------------------------------------------
def test_unknown_routes_and_methods(client: TestClient) -> None:
    error_of(client.get("/v2/nothing"), 404)
    error_of(client.get("/v1/publishes"), 405)
    error_of(client.delete("/v1/games"), 405)


def test_pages_and_palette(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "static/table.js" in page.text
    for asset in ("/static/table.js", "/static/table.css", "/docs"):
        assert client.get(asset).status_code == 200
    css = client.get("/palette.css")
    assert "text/css" in css.headers["content-type"]
    for genre in Genre:
        assert f".card.{genre.code} {{ background: {PALETTE[genre].fill};" in css.text
    error_of(client.get("/static/../pyproject.toml"), 404)


def test_the_server_goes_on_after_bad_requests(client: TestClient) -> None:
    rng = random.Random(5)
    bodies = [
        b"",
        b"{",
        b"null",
        b"[]",
        b'{"a":' * 40,
        bytes(rng.randrange(256) for _ in range(64)),
    ]
    for body in bodies:
        for route in ("/v1/publishes", "/v1/hint", "/v1/games", "/v1/games/x/moves"):
            answer = client.post(route, content=body)
            assert answer.status_code in (400, 404), (route, body, answer.text)
            validate_service("error", answer.json())
    ok = client.post(
        "/v1/publishes", json={"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}
    )
    assert ok.status_code == 200


# ----------------------------------------------------------------------
# The answer cache
# ----------------------------------------------------------------------
def test_answers_to_a_body_asked_again_come_from_the_cache() -> None:
    client, service = make_client()
    body = (ROOT / "examples" / "positions" / "midgame.json").read_bytes()
    first = client.post("/v1/publishes", content=body)
    assert (service.answers.hits, len(service.answers)) == (0, 1)
    again = client.post("/v1/publishes", content=body)
    assert again.content == first.content
    assert again.headers["content-type"] == "application/json"
    assert service.answers.hits == 1
    limited = client.post("/v1/publishes?max_options=2", content=body)
    assert len(limited.json()["options"]) == 2  # other limits, another answer
    assert len(service.answers) == 2
    for _ in range(2):
        error_of(client.post("/v1/publishes", content=body[:-2]), 400)
    assert len(service.answers) == 2  # errors are never kept


def test_answers_cut_by_the_clock_are_not_kept() -> None:
    client, service = make_client()
    body = b'{"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}'
    slow = {"stopped_by": "time_limit", "complete": False}
    original = service.publishes

    def cut(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {**original(*args, **kwargs), **slow}

    service.publishes = cut  # type: ignore[method-assign]
    assert client.post("/v1/publishes", content=body).json()["stopped_by"] == "time_limit"
    assert len(service.answers) == 0


def test_the_cache_can_be_turned_off() -> None:
    client, service = make_client(limits=ServerLimits(answer_cache_bytes=0))
    body = (ROOT / "examples" / "positions" / "jerome.json").read_bytes()
    for _ in range(3):
        assert client.post("/v1/publishes", content=body).status_code == 200
    assert (len(service.answers), service.answers.hits) == (0, 0)


def test_a_body_that_does_not_arrive_in_time() -> None:
    """A real server: the test client would read the whole body before the app sees it."""
    service = Service(limits=ServerLimits(body_time_limit=0.3))
    with running_server(service) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(
                b"POST /v1/publishes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"
            )
            started = time.monotonic()
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = connection.recv(4096)
                if not chunk:
                    break
                answer += chunk
            waited = time.monotonic() - started
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer
    assert json.loads(body)["error"]["message"].startswith("the request body did not arrive")
    assert 0.2 < waited < 5


def test_a_failing_bot_is_an_internal_error_and_the_move_is_kept(tmp_path: Path) -> None:
    class Cheat:
        def __init__(self, seed: int, catalogue: Any = None) -> None:
            self.seed = seed

        def choose(self, view: Any, legal: Any) -> Move:
            return Move.parse("pass")  # never legal while a card can be drawn (R11)

    store = SqliteStore(tmp_path / "games.sqlite")
    client, service = make_client(bots={"random": BOTS["random"], "cheat": Cheat}, store=store)
    # The cheat keeps first at setup (seat 2, R10): the game cannot even start.
    error_of(
        client.post("/v1/games", json={"players": 3, "seats": ["human", "random", "cheat"]}), 500
    )
    # Here the cheat (seat 1) fails only after the human's move.
    game, tokens = new_game(client, players=3, seed=2, seats=["human", "cheat", "random"])
    state = client.get(f"/v1/games/{game}", headers=bearer(tokens["0"])).json()
    assert state["legal"] == ["draw", "take"]
    answer = client.post(
        f"/v1/games/{game}/moves", json={"move": "take"}, headers=bearer(tokens["0"])
    )
    error = error_of(answer, 500)
    assert error["path"] is None
    assert "internal error" in error["message"]
    session = service.store.get(game)
    assert session is not None
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        (moves,) = db.execute("SELECT moves FROM games WHERE id = ?", (game,)).fetchone()
    assert json.loads(moves) == [str(played) for played in session.game.history]
    assert json.loads(moves)[-1] == "take"
    assert client.get("/v1/health").status_code == 200
