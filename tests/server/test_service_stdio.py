"""JSON-RPC 2.0 on standard input and output: every method and error, in process and as a child."""

from __future__ import annotations

import io
import json
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fake_analysis import fake_analyse
from service_support import validate_library, validate_service

from pastiche_core import Move, solve
from pastiche_core.data.limits import CLI_MAX_OPTIONS
from pastiche_core.io import load_query
from pastiche_core.server import ServerLimits, Service
from pastiche_core.server.stdio import handle_line, serve_stdio

ROOT = Path(__file__).resolve().parents[2]
JEROME = ROOT / "examples" / "positions" / "jerome.json"


def request(ident: Any, method: str, params: Any = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message)


def call(service: Service, line: str | bytes) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle_line(service, line))
    assert answer["jsonrpc"] == "2.0"
    return answer


def error_of(answer: dict[str, Any], code: int) -> dict[str, Any]:
    assert "result" not in answer, answer
    error: dict[str, Any] = answer["error"]
    assert error["code"] == code, error
    assert isinstance(error["message"], str)
    assert error["message"]
    return error


def test_publishes_and_hint() -> None:
    service = Service(analyse=fake_analyse)
    position = json.loads(JEROME.read_text())
    answer = call(service, request(1, "publishes", position))
    assert answer["id"] == 1
    validate_library("publishes", answer["result"])
    position_read, constraints = load_query(JEROME)
    expected = solve(position_read, constraints=constraints, max_options=CLI_MAX_OPTIONS)
    assert answer["result"] == expected.to_dict()
    created = call(service, request("a", "games.create", {"players": 3, "seed": 2}))["result"]
    state = call(
        service,
        request(2, "games.view", {"game": created["game"], "token": created["tokens"]["0"]}),
    )["result"]
    hint = call(service, request(3, "hint", {"view": state["view"], "budget_ms": 100, "seed": 4}))
    validate_library("hint", hint["result"])


def test_games_over_json_rpc() -> None:
    service = Service()
    created = call(service, request(1, "games.create", {"players": 3, "seed": 6}))["result"]
    validate_service("game_created", created)
    game, token = created["game"], created["tokens"]["0"]
    state = call(service, request(2, "games.view", {"game": game, "token": token}))["result"]
    validate_service("game_state", state)
    for index in range(400):
        if state["over"]:
            break
        answer = call(
            service,
            request(
                10 + index, "games.move", {"game": game, "token": token, "move": state["legal"][-1]}
            ),
        )
        state = answer["result"]
    assert state["over"]
    record = call(service, request(3, "games.record", {"game": game, "token": token}))["result"]
    validate_service("record", record)


@pytest.mark.parametrize(
    ("line", "code", "ident"),
    [
        ("not json", -32700, None),
        ('{"jsonrpc": "2.0", "id": 1, "method": "publishes", "id": 2}', -32700, None),
        ("[]", -32600, None),
        ('[{"jsonrpc": "2.0", "id": 1, "method": "publishes"}]', -32600, None),
        ('"publishes"', -32600, None),
        ('{"jsonrpc": "2.0", "method": "publishes", "params": {}}', -32600, None),
        ('{"jsonrpc": "2.0", "id": null, "method": "publishes"}', -32600, None),
        ('{"jsonrpc": "2.0", "id": true, "method": "publishes"}', -32600, None),
        ('{"jsonrpc": "2.0", "id": 1.5, "method": "publishes"}', -32600, None),
        ('{"jsonrpc": "1.0", "id": 1, "method": "publishes"}', -32600, 1),
        ('{"id": "x", "method": "publishes"}', -32600, "x"),
        ('{"jsonrpc": "2.0", "id": 1, "method": 5}', -32600, 1),
        ('{"jsonrpc": "2.0", "id": 1, "method": "publishes", "extra": 1}', -32600, 1),
        ('{"jsonrpc": "2.0", "id": 1, "method": "solve"}', -32601, 1),
        ('{"jsonrpc": "2.0", "id": 1, "method": "publishes"}', -32602, 1),
        ('{"jsonrpc": "2.0", "id": 1, "method": "publishes", "params": [1]}', -32602, 1),
    ],
)
def test_bad_requests(line: str, code: int, ident: Any) -> None:
    answer = call(Service(), line)
    error_of(answer, code)
    assert answer["id"] == ident


def test_invalid_params_name_the_path() -> None:
    service = Service()
    bad = {"player": 0, "hand": ["MYS7", "LOV1"], "masterpieces": []}
    error = error_of(call(service, request(1, "publishes", bad)), -32602)
    assert error["data"] == {"path": "$.hand[1]", "status": 400}
    assert "LOV1" in error["message"]
    created = call(service, request(2, "games.create", {"players": 3, "seed": 1}))["result"]
    game, token = created["game"], created["tokens"]["0"]
    cases = [
        ("games.view", {"game": "nope", "token": token}, "$.game", 404),
        ("games.view", {"game": game, "token": "nope"}, "$.token", 403),
        ("games.view", {"game": game}, "$.token", 400),
        ("games.view", {"game": game, "token": 5}, "$.token", 400),
        ("games.move", {"game": game, "token": token}, "$.move", 400),
        ("games.move", {"game": game, "token": token, "move": "jump"}, "$.move", 400),
        ("games.move", {"game": game, "token": token, "move": "pass"}, "$.move", 409),
        ("games.record", {"game": game, "token": token}, None, 409),
        ("games.create", {"players": 9}, "$.players", 400),
        ("hint", {"view": {}}, "$.view.format", 400),
    ]
    for method, params, path, status in cases:
        error = error_of(call(service, request(3, method, params)), -32602)
        assert error["data"] == {"path": path, "status": status}, (method, params, error)


def test_missing_engine_is_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pastiche_core.ai", None)
    service = Service()
    created = call(service, request(1, "games.create", {"players": 3, "seed": 1}))["result"]
    view = call(
        service,
        request(2, "games.view", {"game": created["game"], "token": created["tokens"]["0"]}),
    )
    error = error_of(call(service, request(3, "hint", {"view": view["result"]["view"]})), -32000)
    assert error["data"] == {"status": 503}


def test_internal_errors_are_not_shown() -> None:
    def broken(view: Any, *, budget_ms: int, seed: int) -> Any:
        raise RuntimeError("secret internals")

    service = Service(analyse=broken)
    created = call(service, request(1, "games.create", {"players": 3, "seed": 1}))["result"]
    view = call(
        service,
        request(2, "games.view", {"game": created["game"], "token": created["tokens"]["0"]}),
    )
    line = handle_line(service, request(3, "hint", {"view": view["result"]["view"]}))
    assert "secret" not in line
    error_of(json.loads(line), -32603)


def test_the_loop_reads_on_after_bad_lines() -> None:
    service = Service(limits=ServerLimits(max_line_bytes=300))
    good = request(
        1, "publishes", {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}
    )
    lines = [
        b"{oops}",
        b"   ",
        b"x" * 1000,
        good.encode(),
        b'{"jsonrpc": "2.0", "id": 2, "method": "nope"}',
    ]
    out = io.StringIO()
    serve_stdio(service, io.BytesIO(b"\n".join(lines) + b"\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [answer.get("id") for answer in answers] == [None, None, 1, 2]
    assert answers[0]["error"]["code"] == -32700
    assert answers[1]["error"]["code"] == -32600
    assert answers[1]["error"]["data"] == {"path": "$", "status": 413}
    assert answers[2]["result"]["options"][0]["novel"] == "kind-3"
    assert answers[3]["error"]["code"] == -32601


def test_a_long_last_line_without_newline() -> None:
    service = Service(limits=ServerLimits(max_line_bytes=100))
    out = io.StringIO()
    serve_stdio(service, io.BytesIO(b"y" * 450), out)
    (answer,) = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answer["error"]["code"] == -32600


# ----------------------------------------------------------------------
# The command, as a child process
# ----------------------------------------------------------------------
class Child:
    """``python -m pastiche_core serve --stdio``: a line in, a line out, with a deadline."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pastiche_core", "serve", "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)

    def ask(self, line: str | bytes, timeout: float = 60.0) -> dict[str, Any]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        data = line.encode() if isinstance(line, str) else line
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.selector.select(timeout=0.5):
                answer = self.process.stdout.readline()
                assert answer.endswith(b"\n"), answer
                loaded: dict[str, Any] = json.loads(answer)
                return loaded
            assert self.process.poll() is None, "the child stopped"
        raise AssertionError("no answer in time")

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            code = self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=30)
            self.selector.close()
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
        return code


def test_serve_stdio_as_a_child_process() -> None:
    child = Child()
    try:
        position = JEROME.read_text().replace("\n", " ")
        first = child.ask(request(1, "publishes", json.loads(position)))
        assert first["id"] == 1
        validate_library("publishes", first["result"])
        assert child.ask("this is not json")["error"]["code"] == -32700
        assert child.ask(b"\xff\xfe\x00")["error"]["code"] == -32700
        assert child.ask(request(2, "nope"))["error"]["code"] == -32601
        created = child.ask(request(3, "games.create", {"players": 3, "seed": 9}))["result"]
        game, token = created["game"], created["tokens"]["0"]
        state = child.ask(request(4, "games.view", {"game": game, "token": token}))["result"]
        moved = child.ask(
            request(5, "games.move", {"game": game, "token": token, "move": state["legal"][0]})
        )
        assert moved["id"] == 5
        assert "result" in moved
        bad = child.ask(
            request(6, "games.move", {"game": game, "token": token, "move": "flag SCI9"})
        )
        assert bad["error"]["data"] == {"path": "$.move", "status": 409}
        hint = child.ask(request(7, "hint", {"view": state["view"]}))
        assert hint["id"] == 7
        assert "result" in hint or hint["error"]["code"] == -32000  # the engine may be absent
        again = child.ask(request(8, "publishes", json.loads(position)))
        assert again["result"] == first["result"]
    finally:
        code = child.close()
    assert code == 0


def test_a_crashing_bot_is_an_internal_error() -> None:
    class Cheat:
        def __init__(self, seed: int, catalogue: Any = None) -> None:
            self.seed = seed

        def choose(self, view: Any, legal: Any) -> Move:
            raise RuntimeError("a fault of the bot, not of the game")  # no move to fall back on

    service = Service(bots={"cheat": Cheat})
    line = handle_line(
        service, request(1, "games.create", {"players": 3, "seats": ["human", "cheat", "cheat"]})
    )
    assert "Traceback" not in line
    error_of(json.loads(line), -32603)
