"""The service under attack: what honest clients get while hostile clients try to take it down.

Run: ``python benchmarks/bench_attack.py [--quiet S] [--attack S] [--after S] [--idle N] ...``.

Starts one real ``pastiche serve`` on 127.0.0.1 (a free port, its log in a
file) and runs two kinds of clients against it, over the loopback interface
only, every loop bounded by the clock and every request by a 30 s timeout:

* **honest clients**, from 127.0.0.2 (the hints from 127.0.0.3: one client runs
  one heavy request at a time), one loop per kind, all the time: health
  checks (``GET /v1/health``) on a kept-alive connection, and on a new
  connection each (it waits its turn among the attack's to be accepted);
  publishes (``POST /v1/publishes`` of positions from random games, each
  asked once, so no answer comes from the cache); hints (``POST /v1/hint`` at
  the default 300 ms on views of random games); and a game (``POST /v1/games``
  with a human seat and two random bots, then the seat's state and a random
  legal move, in turn, a new game when one ends);
* **hostile clients**, from 127.0.0.1 (``--hostile-addresses`` spreads them
  over more loopback addresses), in a separate process, for ``--attack``
  seconds after ``--quiet`` seconds of honest load alone: ``--idle``
  connections that send nothing (each reopened a second after the server
  closes it), a request head of ``--header-mb`` MB, heads and bodies dripped
  a byte every half second, ``--creations`` game creations as fast as four
  connections go, a keep-phase hint whose hand holds 12 cards, hints on a
  crowded view with a ``total-13`` Novel at 5,000 ms, and crowded publishes
  (19-card hands, 30 Masterpieces, ``time_limit=10``), each different.

The honest clients go on for ``--after`` seconds once the attack stops. It
prints, per honest kind and phase (quiet, attack, after), the requests, the
errors (anything but the expected 200 or 201, a closed connection, a timeout),
the median, p99 and longest latency; what each attack got from the server
(statuses, "closed" without an answer, "open at the end" for a connection the
server had neither answered nor closed when the attack stopped);
the server's resident memory (VmRSS sampled every 50 ms, its peak per phase,
and the kernel's high-water mark VmHWM); then the goals of the security page:
during the attack the health checks (both kinds), publishes and game answer
every request in under a second, and the server stays under 300 MB. The exit
status is 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchkit import aligned, process_memory_kib, stop_process

from pastiche_core import DECK, Catalogue, Game, Phase, RandomBot
from pastiche_core.engine.game_internals import assemble, insides
from pastiche_core.io.invariants import check_invariants
from pastiche_core.io.position_json import position_to_dict
from pastiche_core.io.view_json import view_from_dict, view_to_dict

HOST = "127.0.0.1"
"""The server's address."""
HONEST = "127.0.0.2"
HONEST_HINTS = "127.0.0.3"
"""The honest hints' address: another player, since one client runs one heavy request at a
time (the service's ``--client-share``) and the honest publishes keep 127.0.0.2 busy."""
"""The honest clients' address (another client to the server's per-client shares)."""
TIMEOUT = 30.0
"""Seconds any one request may take before it counts as an error."""
SLOW = 1.0
"""The goal: every honest health check, publish and game request within this many seconds."""
MEMORY_GOAL_MB = 300
"""The goal: the server's peak resident memory, in MB."""

CROWD_MODES = ("addresses", "slow-readers", "bots", "heavy", "games")
"""The crowd modes of ``--crowd`` (``benchmarks/crowd.py``)."""

Result = tuple[str, float, float, bool]
"""One honest request: kind, start (monotonic), seconds taken, answered as expected."""


# ----------------------------------------------------------------------
# The server
# ----------------------------------------------------------------------
def pastiche_command() -> list[str]:
    """The ``pastiche`` command of this environment."""
    script = Path(sys.executable).with_name("pastiche")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pastiche_core"]


class Server:
    """``pastiche serve --port 0`` as a child process on 127.0.0.1, its log in a file.

    The log goes to a file rather than a pipe: a pipe nobody reads would fill
    up under attack and stop the server on its next log line.
    """

    def __init__(self, *options: str) -> None:
        handle, name = tempfile.mkstemp(prefix="pastiche-attack-", suffix=".log")
        os.close(handle)
        self.log = Path(name)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*pastiche_command(), "serve", "--host", HOST, "--port", "0", *options],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + 60
        address = ""
        while time.monotonic() < deadline and self.process.poll() is None:
            for line in self.log.read_text(errors="replace").splitlines():
                if line.startswith("pastiche: serving on"):
                    address = line.split("http://", 1)[1].strip().rstrip("/")
            if address:
                break
            time.sleep(0.1)
        if not address:
            self.stop()
            raise SystemExit(f"the server did not start: {self.log.read_text()[-2000:]}")
        self.port = int(address.rsplit(":", 1)[1])

    def memory_kib(self) -> tuple[int, int]:
        """The server's resident memory now and at its highest (VmRSS, VmHWM), in KiB."""
        rss, hwm = process_memory_kib(self.process.pid, "VmRSS", "VmHWM")
        return rss, hwm

    def stop(self) -> str:
        """Stop the server; its log."""
        stop_process(self.process, TIMEOUT)
        text = self.log.read_text(errors="replace")
        self.log.unlink()
        return text


class MemorySampler(threading.Thread):
    """Reads the server's VmRSS every 50 ms; :attr:`samples` are (monotonic time, KiB)."""

    def __init__(self, server: Server) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.samples: list[tuple[float, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            try:
                self.samples.append((time.monotonic(), self.server.memory_kib()[0]))
            except (OSError, KeyError):
                return


# ----------------------------------------------------------------------
# A small HTTP/1.1 client
# ----------------------------------------------------------------------
async def read_answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One response: its status, headers (lower-case names) and body (by Content-Length)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


class Connection:
    """A kept-alive HTTP/1.1 connection from ``source``, reopened when the server closes it."""

    def __init__(self, port: int, source: str) -> None:
        self.port = port
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: bytes = b"", token: str | None = None
    ) -> tuple[int, bytes]:
        """Send one request; its status and body, status 0 for no answer."""
        # A connection idle near the server's keep-alive may be closing: start afresh.
        if self.reader is None or self.reader.at_eof() or time.monotonic() - self.used > 3.0:
            self.close()
            try:
                self.reader, self.writer = await asyncio.wait_for(
                    asyncio.open_connection(HOST, self.port, local_addr=(self.source, 0)), TIMEOUT
                )
            except (OSError, TimeoutError):
                return 0, b""
        assert self.reader is not None
        assert self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
        if method == "POST":
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        try:
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            status, headers, data = await asyncio.wait_for(read_answer(self.reader), TIMEOUT)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            self.close()
            return 0, b""
        except (ValueError, IndexError):
            self.close()
            return 0, b""
        self.used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, data


# ----------------------------------------------------------------------
# What the clients send
# ----------------------------------------------------------------------
def random_games(count: int, seed: int) -> list[Game]:
    """``count`` games of random bots, each stopped at a random decision in the action phase."""
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < count:
        players = rng.choice((3, 4, 5))
        game = Game(players=players, seed=rng.randrange(2**32))
        bots = [RandomBot(rng.randrange(2**32)) for _ in range(players)]
        for _ in range(rng.randrange(10, 120)):
            if game.is_over:
                break
            game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_moves))
        if game.phase is Phase.ACTION:
            games.append(game)
    return games


def crowded_catalogue() -> Catalogue:
    """The default Novels with more copies, and ``total-13``: thirteen cards adding up to 91."""
    novels = []
    for entry in Catalogue.default().to_dict()["novels"]:
        if entry["id"] != "end-flag":
            entry = {**entry, "copies": max(entry["copies"], 6), "points": min(entry["points"], 2)}
        novels.append(entry)
    novels.insert(-1, {
        "id": "total-13", "name": "Thirteen for 91", "kind": "total", "count": 13,
        "target": 91, "points": 9, "copies": 2, "provenance": "load test",
    })  # fmt: skip
    return Catalogue.from_dict({"name": "crowded", "novels": novels})


def crowded_view(seed: int) -> dict[str, Any]:
    """A crowded five-seat view (about 4 KB): 30 Masterpieces, a 7-card hand, ``total-13``.

    Composed as a state, checked like any state, then seen from seat 0; the
    view passes the service's view checks.
    """
    catalogue = crowded_catalogue()
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    novels = [spec.id for spec in catalogue.specs if spec.publishable][:6]
    tables: list[dict[str, tuple[Any, ...]]] = [{} for _ in range(5)]
    for seat in range(5):
        for novel in novels:
            low, high = (5, 9) if novel == "kind-5" else (3, 11) if novel == "kind-3" else (1, 13)
            card = next(card for card in cards if low <= card.rank <= high)
            cards.remove(card)
            tables[seat][novel] = (card,)
    hands = [set(cards[:7])] + [{card} for card in cards[7:11]]
    supply = {
        spec.id: spec.copies - sum(spec.id in table for table in tables) for spec in catalogue.specs
    }
    start = Game(players=5, seed=seed, catalogue=catalogue)
    game = assemble(
        Game, catalogue=catalogue, players=5, seed=seed, rng=insides(start).rng_copy(), deck=cards[11:],
        discard=[], face_down=set(), hands=hands, tables=tables, supply=supply, flag=None,
        phase=Phase.ACTION, to_move=0, current=0, pending=None, turn=100, passes=0,
        trigger=None, turns_left=None, end_reason=None,
    )  # fmt: skip
    check_invariants(game)
    data = view_to_dict(game.view(0))
    view_from_dict(data)  # the service's checks
    return data


def keep_view_of_twelve() -> dict[str, Any]:
    """A keep-phase view whose hand holds 12 cards (a seat is dealt at most 5, R10)."""
    data = view_to_dict(Game(players=5, seed=7).view(2))
    extra = [str(card) for card in DECK if str(card) not in data["hand"]][:8]
    data["hand"] = data["hand"] + extra
    data["hand_sizes"][2] = len(data["hand"])
    data["deck_size"] -= len(extra)
    return data


def crowded_position(seed: int) -> dict[str, Any]:
    """Every card in play: a 19-card hand and 30 Masterpieces over five seats."""
    cards = [str(card) for card in DECK]
    random.Random(seed).shuffle(cards)
    return {
        "player": 0,
        "hand": cards[:19],
        "masterpieces": [
            {"id": f"m{i}", "owner": i % 5, "card": card} for i, card in enumerate(cards[19:])
        ],
    }


def payloads(args: argparse.Namespace) -> dict[str, Any]:
    """Every body the clients send, made before the clock starts."""
    games = random_games(120, args.seed)
    return {
        "positions": [
            json.dumps(position_to_dict(game.position(game.to_move))).encode() for game in games
        ],
        "views": [
            json.dumps({"view": view_to_dict(game.view(game.to_move)), "seed": i}).encode()
            for i, game in enumerate(games)
        ],
        "keep12": json.dumps({"view": keep_view_of_twelve(), "budget_ms": 5000}).encode(),
        "crowded_hints": [
            json.dumps({"view": crowded_view(seed), "budget_ms": 5000}).encode()
            for seed in range(1, 9)
        ],
        "crowded_publishes": [
            json.dumps(crowded_position(seed)).encode() for seed in range(1, 1001)
        ],
    }


# ----------------------------------------------------------------------
# Honest clients
# ----------------------------------------------------------------------
class Honest:
    """Honest requests, each timed into :attr:`results`, in loops that run until ``until``
    (monotonic seconds) with ``pause`` seconds between two requests."""

    def __init__(self, until: float, pause: float) -> None:
        self.until = until
        self.pause = pause
        self.results: list[Result] = []
        """Every request's kind, start, time and whether it was answered as expected."""

    async def timed(
        self, kind: str, connection: Connection, method: str, path: str, *, body: bytes = b"",
        token: str | None = None, expect: int = 200,
    ) -> bytes | None:  # fmt: skip
        """One request, timed; its body when answered ``expect``, else ``None``."""
        start = time.monotonic()
        status, data = await connection.request(method, path, body, token)
        self.results.append((kind, start, time.monotonic() - start, status == expect))
        return data if status == expect else None

    async def loop(self, step: Callable[[int], Awaitable[None]]) -> None:
        """``step(0)``, ``step(1)``, … with the pause between them, until the end."""
        index = 0
        while time.monotonic() < self.until:
            await step(index)
            index += 1
            await asyncio.sleep(self.pause)


async def honest(port: int, until: float, bodies: dict[str, Any], pause: float) -> list[Result]:
    """The honest loops until ``until``: every request's kind, start, time and outcome."""
    honest_log = Honest(until, pause)
    timed, loop, results = honest_log.timed, honest_log.loop, honest_log.results

    health_line, publish_line, game_line = (Connection(port, HONEST) for _ in range(3))
    hint_line = Connection(port, HONEST_HINTS)

    async def health(index: int) -> None:
        await timed("health", health_line, "GET", "/v1/health")

    async def connect(index: int) -> None:
        # A client's first request: the connection waits its turn to be accepted.
        line = Connection(port, HONEST)
        await timed("new connection", line, "GET", "/v1/health")
        line.close()

    async def publish(index: int) -> None:
        positions = bodies["positions"]
        await timed(
            "publishes",
            publish_line,
            "POST",
            "/v1/publishes",
            body=positions[index % len(positions)],
        )

    async def hint(index: int) -> None:
        views = bodies["views"]
        await timed("hint", hint_line, "POST", "/v1/hint", body=views[index % len(views)])

    game: dict[str, str] = {}
    rng = random.Random(1)

    async def play(index: int) -> None:
        if not game:
            body = json.dumps({"players": 3, "seats": ["human", "random", "random"]}).encode()
            data = await timed("game", game_line, "POST", "/v1/games", body=body, expect=201)
            if data is not None:
                created = json.loads(data)
                game.update(id=created["game"], token=created["tokens"]["0"])
            return
        path = f"/v1/games/{game['id']}"
        data = await timed("game", game_line, "GET", path, token=game["token"])
        if data is None:
            return
        state = json.loads(data)
        if state["over"]:
            game.clear()
        elif state["to_move"] == 0 and state["legal"]:
            move = json.dumps({"move": rng.choice(state["legal"])}).encode()
            await timed("game", game_line, "POST", path + "/moves", body=move, token=game["token"])

    await asyncio.gather(loop(health), loop(connect), loop(publish), loop(hint), loop(play))
    for line in (health_line, publish_line, hint_line, game_line):
        line.close()
    return results


# ----------------------------------------------------------------------
# Hostile clients
# ----------------------------------------------------------------------
def outcome(data: bytes) -> str:
    """What the server answered on a connection: its status, or how it ended."""
    if data.startswith(b"HTTP/1.1 "):
        return data[9:12].decode()
    return "closed" if data == b"" else "other"


async def attack(
    port: int, until: float, args: argparse.Namespace, bodies: dict[str, Any]
) -> dict[str, Any]:
    """Every attack at once until ``until``; what each got (outcomes, counts, times)."""
    sources = [HOST] + [f"127.0.1.{i}" for i in range(1, args.hostile_addresses)]
    tally: dict[str, Counter[str]] = {}
    times: dict[str, list[float]] = {}
    header_sent: list[int] = []

    def count(kind: str, what: str) -> None:
        tally.setdefault(kind, Counter())[what] += 1

    async def connect(index: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        source = sources[index % len(sources)]
        try:
            return await asyncio.wait_for(
                asyncio.open_connection(HOST, port, local_addr=(source, 0)), 5
            )
        except (OSError, TimeoutError):
            return None

    async def read_end(reader: asyncio.StreamReader, seconds: float) -> bytes:
        try:
            return await asyncio.wait_for(reader.read(256), max(0.01, seconds))
        except TimeoutError:
            return b"held"
        except OSError:
            return b""

    async def idle(index: int) -> None:
        while time.monotonic() < until:
            opened = await connect(index)
            if opened is None:
                count("idle connections", "connect failed")
            else:
                reader, writer = opened
                data = await read_end(reader, until - time.monotonic())
                count("idle connections", "open at the end" if data == b"held" else outcome(data))
                writer.close()
            await asyncio.sleep(1.0)

    async def big_header(index: int) -> None:
        filler = b"a" * 65_536
        while time.monotonic() < until:
            opened = await connect(index)
            if opened is None:
                count("64 MB header", "connect failed")
                await asyncio.sleep(0.5)
                continue
            reader, writer = opened
            sent = 0
            try:
                writer.write(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Filler: ")
                while sent < args.header_mb * 2**20 and time.monotonic() < until:
                    writer.write(filler)
                    await writer.drain()
                    sent += len(filler)
                writer.write(b"\r\n\r\n")
                await writer.drain()
            except OSError:
                pass
            header_sent.append(sent)
            count("64 MB header", outcome(await read_end(reader, 5)))
            writer.close()
            await asyncio.sleep(0.2)

    async def drip(index: int, kind: str, head: bytes, trickle: bytes) -> None:
        while time.monotonic() < until:
            opened = await connect(index)
            if opened is None:
                count(kind, "connect failed")
                await asyncio.sleep(1.0)
                continue
            reader, writer = opened
            start = time.monotonic()
            answered = asyncio.ensure_future(read_end(reader, until - start + 1.0))
            try:
                writer.write(head)
                for byte in trickle:
                    if time.monotonic() >= until or answered.done():
                        break
                    await asyncio.sleep(0.5)
                    writer.write(bytes([byte]))
                    await writer.drain()
            except OSError:
                pass
            if not answered.done() and time.monotonic() >= until:
                answered.cancel()
                answer = b"held"
            else:
                answer = await answered
            shown = outcome(answer) if answer != b"held" else "open at the end"
            count(kind, shown)
            times.setdefault(kind, []).append(time.monotonic() - start)
            writer.close()

    async def requests(kind: str, index: int, make: Callable[[int], tuple[str, bytes]]) -> None:
        line = Connection(port, sources[index % len(sources)])
        sent = 0
        while time.monotonic() < until:
            path, body = make(sent)
            if not path:
                break
            start = time.monotonic()
            status, _ = await line.request("POST", path, body)
            sent += 1
            count(kind, str(status) if status else "no answer")
            times.setdefault(kind, []).append(time.monotonic() - start)
            if status in (0, 503):
                await asyncio.sleep(0.2)
        line.close()

    creations_left = [args.creations]

    def creation(_: int) -> tuple[str, bytes]:
        if creations_left[0] <= 0:
            return "", b""
        creations_left[0] -= 1
        return "/v1/games", b'{"players": 3}'

    def keep12(_: int) -> tuple[str, bytes]:
        return "/v1/hint", bodies["keep12"]

    def crowded_hint(sent: int) -> tuple[str, bytes]:
        return "/v1/hint", bodies["crowded_hints"][sent % len(bodies["crowded_hints"])]

    streams = iter(range(10**6))

    def crowded_publish_of(stream: int) -> Callable[[int], tuple[str, bytes]]:
        def make(sent: int) -> tuple[str, bytes]:
            found = bodies["crowded_publishes"]
            body = found[(stream * 997 + sent) % len(found)]
            return "/v1/publishes?time_limit=10&max_options=10000", body

        return make

    tasks: list[Awaitable[None]] = []
    tasks += [requests("game creations", i, creation) for i in range(4)]
    tasks += [requests("12-card keep hint", 0, keep12)]
    tasks += [requests("crowded hint 5,000 ms", i, crowded_hint) for i in range(args.crowded_hints)]
    tasks += [
        requests("crowded publish 10 s", i, crowded_publish_of(next(streams)))
        for i in range(args.crowded_publishes)
    ]
    tasks += [big_header(i) for i in range(1)]
    slow_head = (b"GET /v1/health HTTP/1.1\r\n", b"X-Slow: " + b"a" * 200)
    slow_body = (
        b"POST /v1/publishes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000\r\n\r\n",
        b'{"player": 0, "hand": [' + b" " * 1000,
    )
    tasks += [drip(i, "slow-drip head", *slow_head) for i in range(args.slow)]
    tasks += [drip(i, "slow-drip body", *slow_body) for i in range(args.slow)]
    tasks += [idle(i) for i in range(args.idle)]
    await asyncio.gather(*tasks)
    return {
        "tally": {kind: dict(found) for kind, found in tally.items()},
        "times": times,
        "header_sent": header_sent,
    }


def hostile_process(
    port: int, until: float, args: argparse.Namespace, bodies: dict[str, Any], out: Any
) -> None:
    """The attack in its own process (own event loop and CPU time), its report sent on ``out``."""
    out.send(asyncio.run(attack(port, until, args, bodies)))
    out.close()


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------
def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (share in [0, 1])."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]


def ms(seconds: float) -> str:
    """Seconds as milliseconds for the tables."""
    return f"{seconds * 1e3:,.0f}" if seconds >= 0.1 else f"{seconds * 1e3:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", type=float, help="seconds of honest load alone (8; crowd 20)")
    parser.add_argument("--attack", type=float, default=40.0, help="seconds of attack")
    parser.add_argument("--after", type=float, help="seconds after the attack (6; crowd 20)")
    parser.add_argument("--idle", type=int, default=600, help="idle connections held")
    parser.add_argument("--header-mb", type=int, default=64, help="MB of the large head")
    parser.add_argument("--slow", type=int, default=4, help="slow-drip heads, and bodies")
    parser.add_argument("--creations", type=int, default=1_100, help="games created")
    parser.add_argument("--crowded-hints", type=int, default=2, help="crowded hint streams")
    parser.add_argument("--crowded-publishes", type=int, default=4, help="crowded publish streams")
    parser.add_argument(
        "--hostile-addresses", type=int, default=1, help="loopback addresses the attack uses"
    )
    parser.add_argument("--pause", type=float, default=0.05, help="honest pause between requests")
    parser.add_argument("--seed", type=int, default=1, help="seed of the honest positions")
    parser.add_argument("--log", metavar="FILE", help="keep the server's log in FILE")
    parser.add_argument(
        "--serve-option", action="append", default=[], metavar="OPTION",
        help="an option for pastiche serve (repeat for more, e.g. --serve-option=--keep-alive=2)",
    )  # fmt: skip
    crowd = parser.add_argument_group("the crowd (benchmarks/crowd.py), one server per mode")
    crowd.add_argument(
        "--crowd", choices=(*CROWD_MODES, "all"), help="run a crowd mode instead of the attacks"
    )
    crowd.add_argument("--crowd-addresses", type=int, help="crowd addresses (mode's default)")
    crowd.add_argument("--crowd-connections", type=int, default=32, help="connections an address")
    crowd.add_argument("--pipeline", type=int, default=8, help="requests a slow reader pipelines")
    crowd.add_argument("--bot-games", type=int, default=10, help="games of search bots (bots)")
    crowd.add_argument("--json", metavar="FILE", help="also write the crowd's figures to FILE")
    args = parser.parse_args(argv)
    crowded = args.crowd is not None
    args.quiet = (20.0 if crowded else 8.0) if args.quiet is None else args.quiet
    args.after = (20.0 if crowded else 6.0) if args.after is None else args.after
    if crowded:
        sizes = [args.crowd_connections, args.pipeline, args.bot_games]
        if args.crowd_addresses is not None:
            sizes.append(args.crowd_addresses)
        if min(args.quiet, args.attack, args.after, args.pause) <= 0 or min(sizes) < 1:
            parser.error("durations must be positive and crowd sizes at least 1")
        if (args.crowd_addresses or 0) > 10_000:
            parser.error("--crowd-addresses must be at most 10,000")
        import crowd as crowd_modes  # imports this module: only when asked for

        return crowd_modes.run(args)
    if min(args.quiet, args.attack, args.after) <= 0 or min(args.idle, args.slow) < 0:
        parser.error("durations must be positive and counts at least 0")
    if not 1 <= args.hostile_addresses <= 100:
        parser.error("--hostile-addresses must be from 1 to 100")
    bodies = payloads(args)
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; quiet {args.quiet:g} s, "
        f"attack {args.attack:g} s, after {args.after:g} s; {args.idle} idle connections, "
        f"{args.hostile_addresses} hostile address(es)",
        flush=True,
    )
    server = Server(*args.serve_option)
    sampler = MemorySampler(server)
    sampler.start()
    try:
        start = time.monotonic()
        attack_from = start + args.quiet
        attack_to = attack_from + args.attack
        end = attack_to + args.after
        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        attacker = context.Process(
            target=hostile_process, args=(server.port, attack_to, args, bodies, send), daemon=True
        )

        async def run() -> list[Result]:
            honest_task = asyncio.ensure_future(honest(server.port, end, bodies, args.pause))
            await asyncio.sleep(max(0.0, attack_from - time.monotonic()))
            attacker.start()
            return await honest_task

        results = asyncio.run(run())
        report = receive.recv() if receive.poll(TIMEOUT) else {"tally": {}, "times": {}}
        attacker.join(TIMEOUT)
        sampler.done.set()
        sampler.join()
        rss_now, hwm = server.memory_kib()
    finally:
        sampler.done.set()
        log = server.stop()

    def phase(moment: float) -> str:
        return "quiet" if moment < attack_from else "attack" if moment < attack_to else "after"

    rows = []
    by_kind: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        by_kind.setdefault((result[0], phase(result[1])), []).append(result)
    for kind in ("health", "new connection", "publishes", "hint", "game"):
        for when in ("quiet", "attack", "after"):
            found = by_kind.get((kind, when), [])
            if not found:
                continue
            taken = [seconds for _, _, seconds, _ in found]
            errors = sum(not ok for *_, ok in found)
            rows.append(
                [kind, when, f"{len(found):,}", str(errors), ms(statistics.median(taken)),
                 ms(percentile(taken, 0.99)), ms(max(taken))]
            )  # fmt: skip
    print()
    print(f"honest clients ({HONEST}; hints from {HONEST_HINTS})")
    print(
        aligned(
            ["kind", "phase", "requests", "errors", "p50 ms", "p99 ms", "max ms"],
            rows,
            first_left=True,
        )
    )

    print()
    print("hostile clients: what each attack got")
    hostile_rows = []
    for kind, found in report["tally"].items():
        spent = report["times"].get(kind, [])
        shown = ", ".join(f"{what} x{number:,}" for what, number in sorted(found.items()))
        longest = ms(max(spent)) if spent else "-"
        hostile_rows.append([kind, f"{sum(found.values()):,}", longest, shown])
    print(aligned(["attack", "tries", "max ms", "outcomes"], hostile_rows, first_left=True))
    if report.get("header_sent"):
        print(
            f"large head: at most {max(report['header_sent']) / 2**20:.2f} MB sent "
            "before the server closed"
        )

    peaks = {}
    for when in ("quiet", "attack", "after"):
        sampled = [kib for moment, kib in sampler.samples if phase(moment) == when]
        peaks[when] = max(sampled) / 1024 if sampled else 0.0
    print()
    print(
        "server memory (VmRSS, MB): peak quiet {quiet:.0f}, attack {attack:.0f}, after {after:.0f}; "
        "at the end {now:.0f}; high-water mark (VmHWM) {hwm:.0f}".format(
            **peaks, now=rss_now / 1024, hwm=hwm / 1024
        )
    )
    tracebacks = log.count("Traceback")
    print(f"server log: {len(log.splitlines())} lines, {tracebacks} tracebacks")
    lines = log.splitlines()
    # A traceback ends at its first line that is not indented: the exception.
    failures = Counter(
        next((later for later in lines[i + 1 :] if not later.startswith(" ")), line)
        for i, line in enumerate(lines)
        if line.startswith("Traceback")
    )
    for line, _ in failures.most_common(5):
        print(f"  {line[:150]}")
    if args.log:
        Path(args.log).write_text(log)

    goals = []
    for kind in ("health", "new connection", "publishes", "game"):
        found = by_kind.get((kind, "attack"), [])
        slow = sum(seconds >= SLOW for _, _, seconds, _ in found)
        errors = sum(not ok for *_, ok in found)
        goals.append(
            (
                f"{kind}: every request during the attack answered, in under {SLOW:g} s",
                f"{len(found):,} requests, {errors} errors, {slow} slower",
                bool(found) and not errors and not slow,
            )
        )
    goals.append(
        (
            f"server under {MEMORY_GOAL_MB} MB",
            f"high-water mark {hwm / 1024:.0f} MB",
            hwm / 1024 < MEMORY_GOAL_MB,
        )
    )
    print()
    for goal, figure, met in goals:
        print(f"{'met ' if met else 'MISSED'} {goal}: {figure}")
    return 0 if all(met for _, _, met in goals) else 1


if __name__ == "__main__":
    raise SystemExit(main())
