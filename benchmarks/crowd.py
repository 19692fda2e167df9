"""The crowd modes of ``bench_attack.py``: many source addresses against one server.

Run: ``python benchmarks/bench_attack.py --crowd MODE`` with MODE one of
``addresses``, ``slow-readers``, ``bots``, ``heavy``, ``games`` or ``all``.

Each mode starts its own ``pastiche serve`` on 127.0.0.1 (its defaults) and
runs three phases: quiet, attack and after (20, 40 and 20 s by default). The
crowd binds its sockets to addresses of its own across 127.0.0.0/8
(127.10.0.1, 127.10.0.2, ...) before connecting, so the server sees that many
clients; it runs in its own process, during the attack only. The honest
clients, in another process and from addresses of their own, run all the
time: health checks (127.0.0.2), small publishes of positions from random
games (127.0.0.3), and a game with a human seat and two random bots, its
state and its moves; a new player, from a new address (127.0.0.10, ...),
creates a game at the start of each phase and once halfway through the
attack, and the game played moves to it.

The crowds, per address:

* ``addresses``: 32 connections, held idle (every other one after a health
  check kept alive), each reopened a second after the server closes it;
* ``slow-readers``: 32 connections, each pipelining requests for a cached
  publishes answer of about 1.8 MB, never reading; reopened once closed;
* ``bots``: one address playing 10 games of search bots (a human seat and
  three search seats): polling each game's state and moving in turn, a new
  game when one ends;
* ``heavy``: one stream of publishes at ``time_limit=10`` (a crowded position
  in a catalogue with a 13-card Novel, each body different) and one of hints
  at ``budget_ms`` 5,000 on a crowded view;
* ``games``: game creations, one after another, a second's pause after a
  refusal.

The main process samples every 0.1 s the server's resident memory, its
workers' (the server's descendants, summed) and the kernel's TCP socket memory
(``/proc/net/sockstat``, pages), and prints one table: per mode, phase and
honest route, the requests, the share answered as expected, p50, p99 and the
p99 as a multiple of the quiet phase's; per phase, the new player's game and
the memory peaks; then the goals, PASS or FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import statistics
import struct
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench_attack import (
    CROWD_MODES,
    HOST,
    Connection,
    Honest,
    Server,
    crowded_catalogue,
    crowded_position,
    crowded_view,
    percentile,
    random_games,
)
from benchkit import aligned

from pastiche_core.io.position_json import position_to_dict

MODES = CROWD_MODES
"""The crowd modes, in the order ``all`` runs them."""
CROWD_SIZE = {"addresses": 150, "slow-readers": 16, "bots": 1, "heavy": 150, "games": 150}
"""Source addresses per mode unless ``--crowd-addresses`` says otherwise."""
PHASES = ("quiet", "attack", "after")
ROUTES = ("health", "publish", "state", "move", "create")
"""The honest routes: ``create`` is every game creation, the new players' included."""
GOAL_ROUTES = ("health", "publish", "state", "move")
"""The routes the answered and p99 goals cover: health checks, publishes and a game's moves."""
ANSWERED_GOAL = 0.95
P99_GOAL = 3.0
"""The largest p99 under attack (and after it), as a multiple of the quiet phase's."""
MEMORY_GOAL_MB = 300
"""The server's peak resident memory, and the kernel's TCP memory, in MB."""
HONEST_HEALTH = "127.0.0.2"
HONEST_PUBLISH = "127.0.0.3"
RECONNECT = 1.0
"""Seconds a crowd connection waits before reopening one the server closed or refused."""
REFUSED_PAUSE = 0.2
"""Seconds a crowd request stream waits after a refusal (429, 503) or no answer."""
TCP_ESTABLISHED = 1
"""``tcpi_state`` of a connection neither end has closed (``linux/tcp.h``)."""

Result = tuple[str, float, float, bool]
"""One honest request: route, start (monotonic), seconds taken, answered as expected."""


def crowd_address(index: int) -> str:
    """The crowd's ``index``-th source address, away from the server's and the honest ones.

    >>> crowd_address(0), crowd_address(249), crowd_address(250)
    ('127.10.0.1', '127.10.0.250', '127.10.1.1')
    """
    return f"127.10.{index // 250}.{index % 250 + 1}"


def player_address(index: int) -> str:
    """The ``index``-th new honest player's address.

    >>> player_address(0)
    '127.0.0.10'
    """
    return f"127.0.{(10 + index) // 250}.{(10 + index) % 250}"


def request_bytes(method: str, path: str, body: bytes = b"") -> bytes:
    """One HTTP/1.1 request, kept alive.

    >>> request_bytes("GET", "/v1/health")
    b'GET /v1/health HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n'
    """
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    if method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


# ----------------------------------------------------------------------
# Bodies
# ----------------------------------------------------------------------
def crowd_bodies(seed: int, positions: int) -> dict[str, Any]:
    """Every body the modes send, made before the clock starts."""
    catalogue = crowded_catalogue().to_dict()
    return {
        "positions": [
            json.dumps(position_to_dict(game.position(game.to_move))).encode()
            for game in random_games(positions, seed)
        ],
        # max_options=10,000 on a crowded position: an answer of about 1.8 MB, complete
        # before the clock stops it, so the service keeps it in its answer cache.
        "large_answer": json.dumps(crowded_position(1)).encode(),
        "heavy_publishes": [
            json.dumps({**crowded_position(seed), "catalogue": catalogue}).encode()
            for seed in range(1, 301)
        ],
        "heavy_views": [crowded_view(seed) for seed in range(1, 9)],
    }


LARGE_ANSWER_PATH = "/v1/publishes?time_limit=10&max_options=10000"
HEAVY_PUBLISH_PATH = "/v1/publishes?time_limit=10&max_options=10000"


# ----------------------------------------------------------------------
# Honest clients
# ----------------------------------------------------------------------
async def honest(
    port: int, start: float, phases: tuple[float, float, float], pause: float, bodies: Any
) -> dict[str, Any]:
    """The honest loops from ``start`` through the three phases: every request, and the
    new players' games (event, phase, created)."""
    quiet, attack, after = phases
    until = start + quiet + attack + after
    events: list[tuple[str, str, bool]] = []
    honest_log = Honest(until, pause)
    timed, loop, results = honest_log.timed, honest_log.loop, honest_log.results

    health_line = Connection(port, HONEST_HEALTH)
    publish_line = Connection(port, HONEST_PUBLISH)

    async def health(_: int) -> None:
        await timed("health", health_line, "GET", "/v1/health")

    async def publish(index: int) -> None:
        positions = bodies["positions"]
        await timed("publish", publish_line, "POST", "/v1/publishes", body=positions[index % len(positions)])  # fmt: skip

    game: dict[str, Any] = {}
    players = iter(range(10**6))
    rng = random.Random(1)

    async def create(line: Connection) -> bool:
        body = json.dumps({"players": 3, "seats": ["human", "random", "random"]}).encode()
        data = await timed("create", line, "POST", "/v1/games", body=body, expect=201)
        if data is None:
            return False
        if game.get("line") is not None and game["line"] is not line:
            game["line"].close()
        created = json.loads(data)
        game.update(id=created["game"], token=created["tokens"]["0"], line=line)
        return True

    async def new_player(event: str, phase: str, at: float) -> None:
        # A new player tries for 5 s (a second between tries), as a person would.
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        line = Connection(port, player_address(next(players)))
        created = False
        for _ in range(5):
            created = await create(line)
            if created or time.monotonic() >= until:
                break
            await asyncio.sleep(1.0)
        events.append((event, phase, created))
        if not created:
            line.close()

    async def play(_: int) -> None:
        if not game:
            return
        line, path = game["line"], f"/v1/games/{game['id']}"
        data = await timed("state", line, "GET", path, token=game["token"])
        if data is None:
            return
        state = json.loads(data)
        if state["over"]:
            # The same player plays again; refused, they wait a second, as a person would.
            if not await create(line):
                await asyncio.sleep(1.0)
        elif state["to_move"] == 0 and state["legal"]:
            move = json.dumps({"move": rng.choice(state["legal"])}).encode()
            await timed("move", line, "POST", path + "/moves", body=move, token=game["token"])

    schedule = [
        ("quiet", "quiet", start),
        ("attack", "attack", start + quiet),
        ("attack, halfway", "attack", start + quiet + attack / 2),
        ("after", "after", start + quiet + attack),
    ]
    await asyncio.gather(
        loop(health),
        loop(publish),
        loop(play),
        *(new_player(event, phase, at) for event, phase, at in schedule),
    )
    for line in (health_line, publish_line, game.get("line")):
        if line is not None:
            line.close()
    return {"results": results, "events": events}


# ----------------------------------------------------------------------
# The crowd
# ----------------------------------------------------------------------
class Crowd:
    """One mode's crowd until ``until``: what it got (:attr:`tally`) and its peak of open
    connections."""

    def __init__(self, port: int, until: float, args: argparse.Namespace, bodies: Any) -> None:
        self.port = port
        self.until = until
        self.args = args
        self.bodies = bodies
        self.tally: Counter[str] = Counter()
        self.open = 0
        self.peak = 0

    def left(self) -> float:
        return self.until - time.monotonic()

    async def connect(self, source: str) -> socket.socket | None:
        """A non-blocking socket from ``source`` connected to the server, or None."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            await asyncio.wait_for(
                asyncio.get_running_loop().sock_connect(sock, (HOST, self.port)), 5
            )
        except (OSError, TimeoutError):
            sock.close()
            self.tally["connect failed"] += 1
            return None
        self.tally["opened"] += 1
        self.open += 1
        self.peak = max(self.peak, self.open)
        return sock

    def closed(self, sock: socket.socket) -> None:
        sock.close()
        self.open -= 1

    def status(self, data: bytes) -> None:
        if data.startswith(b"HTTP/1.1 "):
            self.tally[f"answered {data[9:12].decode()}"] += 1

    async def hold(self, source: str, index: int) -> None:
        """``addresses``: a connection held idle (odd ones after a kept-alive health check)."""
        loop = asyncio.get_running_loop()
        while self.left() > 0:
            sock = await self.connect(source)
            if sock is None:
                await asyncio.sleep(RECONNECT)
                continue
            try:
                if index % 2:
                    await loop.sock_sendall(sock, request_bytes("GET", "/v1/health"))
                while True:
                    data = await asyncio.wait_for(loop.sock_recv(sock, 4096), self.left())
                    if not data:
                        self.tally["closed by the server"] += 1
                        break
                    self.status(data)
            except TimeoutError:
                self.tally["open at the end"] += 1
            except OSError:
                self.tally["reset"] += 1
            finally:
                self.closed(sock)
            await asyncio.sleep(min(RECONNECT, max(0.0, self.left())))

    async def slow_reader(self, source: str) -> None:
        """``slow-readers``: pipelined requests for the large answer, never read."""
        loop = asyncio.get_running_loop()
        pipelined = request_bytes("POST", LARGE_ANSWER_PATH, self.bodies["large_answer"])
        while self.left() > 0:
            sock = await self.connect(source)
            if sock is None:
                await asyncio.sleep(RECONNECT)
                continue
            # The server stops reading once its answers back up: then just hold.
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(
                    loop.sock_sendall(sock, pipelined * self.args.pipeline), min(5.0, self.left())
                )
            # Whether the server closed it, without reading a byte: the kernel's TCP state.
            while self.left() > 0:
                info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
                if struct.unpack("B", info[:1])[0] != TCP_ESTABLISHED:
                    self.tally["closed by the server"] += 1
                    break
                await asyncio.sleep(min(1.0, max(0.0, self.left())))
            else:
                self.tally["open at the end"] += 1
            self.closed(sock)
            await asyncio.sleep(min(RECONNECT, max(0.0, self.left())))

    async def stream(self, source: str, make: Callable[[int], tuple[str, bytes]]) -> None:
        """Requests one after another on a kept-alive connection (a pause after a refusal)."""
        line = Connection(self.port, source)
        self.open += 1  # one kept-alive connection, reopened when closed
        self.peak = max(self.peak, self.open)
        sent = 0
        while self.left() > 0:
            path, body = make(sent)
            status, _ = await line.request("POST", path, body)
            sent += 1
            self.tally[f"answered {status}" if status else "no answer"] += 1
            if status in (0, 429, 503):
                await asyncio.sleep(REFUSED_PAUSE if status != 429 else RECONNECT)
        line.close()

    async def bot_games(self, source: str, seed: int) -> None:
        """``bots``: one game of search bots after another, polled and moved in turn."""
        line = Connection(self.port, source)
        self.open += 1
        self.peak = max(self.peak, self.open)
        rng = random.Random(seed)
        game: dict[str, str] = {}
        body = json.dumps({"players": 4, "seats": ["human", "search", "search", "search"]})
        while self.left() > 0:
            if not game:
                status, data = await line.request("POST", "/v1/games", body.encode())
                self.tally[f"create {status}"] += 1
                if status != 201:
                    await asyncio.sleep(RECONNECT)
                    continue
                created = json.loads(data)
                game.update(id=created["game"], token=created["tokens"]["0"])
            path = f"/v1/games/{game['id']}"
            status, data = await line.request("GET", path, token=game["token"])
            self.tally[f"state {status}"] += 1
            if status != 200:
                game.clear()
                await asyncio.sleep(REFUSED_PAUSE)
                continue
            state = json.loads(data)
            if state["over"]:
                game.clear()
            elif state["to_move"] == 0 and state["legal"]:
                move = json.dumps({"move": rng.choice(state["legal"])}).encode()
                status, _ = await line.request("POST", path + "/moves", move, game["token"])
                self.tally[f"move {status}"] += 1
            await asyncio.sleep(0.1)
        line.close()

    async def run(self, mode: str) -> None:
        sources = [crowd_address(i) for i in range(self.args.crowd_size)]
        tasks: list[Awaitable[None]] = []
        if mode == "addresses":
            tasks = [
                self.hold(source, index)
                for source in sources
                for index in range(self.args.crowd_connections)
            ]
        elif mode == "slow-readers":
            # One ordinary request first, so that the answer is in the service's cache.
            warm = Connection(self.port, HOST)
            status, data = await warm.request("POST", LARGE_ANSWER_PATH, self.bodies["large_answer"])  # fmt: skip
            warm.close()
            self.tally[f"large answer: {status}, {len(data) / 1e6:.1f} MB"] += 1
            tasks = [
                self.slow_reader(source)
                for source in sources
                for _ in range(self.args.crowd_connections)
            ]
        elif mode == "bots":
            tasks = [
                self.bot_games(sources[game % len(sources)], game)
                for game in range(self.args.bot_games)
            ]
        elif mode == "heavy":
            publishes, views = self.bodies["heavy_publishes"], self.bodies["heavy_views"]

            def publish_of(index: int) -> Callable[[int], tuple[str, bytes]]:
                return lambda sent: (
                    HEAVY_PUBLISH_PATH,
                    publishes[(index * 7 + sent) % len(publishes)],
                )

            def hint_of(index: int) -> Callable[[int], tuple[str, bytes]]:
                def make(sent: int) -> tuple[str, bytes]:
                    view = views[(index + sent) % len(views)]
                    body = {"view": view, "budget_ms": 5000, "seed": index * 10**6 + sent}
                    return "/v1/hint", json.dumps(body).encode()

                return make

            tasks = [self.stream(source, publish_of(i)) for i, source in enumerate(sources)]
            tasks += [self.stream(source, hint_of(i)) for i, source in enumerate(sources)]
        elif mode == "games":

            def creation(_: int) -> tuple[str, bytes]:
                return "/v1/games", b'{"players": 3}'

            tasks = [self.stream(source, creation) for source in sources]
        await asyncio.gather(*tasks)


def crowd_process(
    mode: str, port: int, start: float, until: float, args: Any, bodies: Any, out: Any
) -> None:
    """The crowd in its own process, from ``start`` until ``until``; its tally sent on ``out``."""
    time.sleep(max(0.0, start - time.monotonic()))
    crowd = Crowd(port, until, args, bodies)
    asyncio.run(crowd.run(mode))
    out.send({"tally": dict(crowd.tally), "peak_connections": crowd.peak})
    out.close()


def honest_process(
    port: int, start: float, phases: tuple[float, float, float], pause: float, bodies: Any, out: Any
) -> None:
    """The honest clients in their own process; their results sent on ``out``."""
    out.send(asyncio.run(honest(port, start, phases, pause, bodies)))
    out.close()


# ----------------------------------------------------------------------
# Measuring the server
# ----------------------------------------------------------------------
def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (its workers and theirs), from ``/proc``."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                pids = [int(word) for word in children.read_text().split()]
            except OSError:
                continue
            found += pids
            pending += pids
    return found


def rss_kib(pid: int) -> int:
    """A process's resident memory (VmRSS) in KiB; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def socket_memory_bytes() -> int:
    """The kernel's TCP buffer memory now: ``/proc/net/sockstat``'s ``TCP: ... mem`` pages."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            words = line.split()
            return int(words[words.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


class Sampler(threading.Thread):
    """Every 0.1 s: (time, server KiB, workers' KiB, kernel TCP bytes) in :attr:`samples`."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[tuple[float, int, int, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1):
            workers = sum(rss_kib(child) for child in descendants(self.pid))
            self.samples.append(
                (time.monotonic(), rss_kib(self.pid), workers, socket_memory_bytes())
            )


# ----------------------------------------------------------------------
# One mode
# ----------------------------------------------------------------------
def run_mode(mode: str, args: argparse.Namespace, bodies: Any) -> dict[str, Any]:
    """One mode: its server, honest clients and crowd; the figures of its report."""
    args.crowd_size = args.crowd_addresses if args.crowd_addresses else CROWD_SIZE[mode]
    server = Server(*args.serve_option)
    context = multiprocessing.get_context("fork")
    phases = (args.quiet, args.attack, args.after)
    try:
        start = time.monotonic() + 1.0  # time for the processes to start
        attack_from, attack_to = start + args.quiet, start + args.quiet + args.attack
        end = attack_to + args.after
        honest_in, honest_out = context.Pipe(duplex=False)
        crowd_in, crowd_out = context.Pipe(duplex=False)
        honest_runner = context.Process(
            target=honest_process,
            args=(server.port, start, phases, args.pause, bodies, honest_out),
            daemon=True,
        )
        crowd_runner = context.Process(
            target=crowd_process,
            args=(mode, server.port, attack_from, attack_to, args, bodies, crowd_out),
            daemon=True,
        )
        honest_runner.start()
        crowd_runner.start()
        sampler = Sampler(server.process.pid)
        sampler.start()
        wait = end - time.monotonic() + 60
        honest_report = honest_in.recv() if honest_in.poll(wait) else {"results": [], "events": []}
        crowd_report = (
            crowd_in.recv() if crowd_in.poll(60) else {"tally": {}, "peak_connections": 0}
        )
        sampler.done.set()
        sampler.join()
        for runner in (honest_runner, crowd_runner):
            runner.join(10)
            if runner.is_alive():
                runner.kill()
    finally:
        log = server.stop()

    def phase(moment: float) -> str:
        return "quiet" if moment < attack_from else "attack" if moment < attack_to else "after"

    return summarise(mode, args, honest_report, crowd_report, sampler.samples, phase, log)


def summarise(
    mode: str,
    args: argparse.Namespace,
    honest_report: dict[str, Any],
    crowd_report: dict[str, Any],
    samples: list[tuple[float, int, int, int]],
    phase: Callable[[float], str],
    log: str,
) -> dict[str, Any]:
    """A mode's figures: per phase and route, per phase, and its goals."""
    grouped: dict[tuple[str, str], list[Result]] = {}
    for result in honest_report["results"]:
        grouped.setdefault((phase(result[1]), result[0]), []).append(result)
    phases: dict[str, Any] = {}
    for when in PHASES:
        routes: dict[str, Any] = {}
        for route in ROUTES:
            found = grouped.get((when, route), [])
            taken = [seconds for _, _, seconds, _ in found]
            routes[route] = {
                "requests": len(found),
                "answered": sum(ok for *_, ok in found) / len(found) if found else None,
                "p50_ms": statistics.median(taken) * 1e3 if taken else None,
                "p99_ms": percentile(taken, 0.99) * 1e3 if taken else None,
            }
        events = [created for _, at, created in honest_report["events"] if at == when]
        sampled = [sample for sample in samples if phase(sample[0]) == when]
        phases[when] = {
            "routes": routes,
            "new_game": f"{sum(events)}/{len(events)}" if events else "-",
            "server_mb": max((s[1] for s in sampled), default=0) / 1024,
            "workers_mb": max((s[2] for s in sampled), default=0) / 1024,
            "socket_mb": max((s[3] for s in sampled), default=0) / 2**20,
        }
    for when in PHASES:
        for route in ROUTES:
            quiet = phases["quiet"]["routes"][route]["p99_ms"]
            here = phases[when]["routes"][route]["p99_ms"]
            phases[when]["routes"][route]["p99_x_quiet"] = (
                here / quiet if here is not None and quiet else None
            )
    return {
        "mode": mode,
        "crowd_addresses": args.crowd_size,
        "phases": phases,
        "events": [list(event) for event in honest_report["events"]],
        "crowd": crowd_report,
        "tracebacks": log.count("Traceback"),
        "goals": goals(phases, honest_report["events"]),
    }


def goals(phases: dict[str, Any], events: list[tuple[str, str, bool]]) -> list[dict[str, Any]]:
    """The issue's goals under attack and after it, each with its figure and PASS or FAIL."""
    under = ("attack", "after")
    shares = [
        (phases[when]["routes"][route]["answered"], route, when)
        for when in under
        for route in GOAL_ROUTES
        if phases[when]["routes"][route]["answered"] is not None
    ]
    ratios = [
        (phases[when]["routes"][route]["p99_x_quiet"], route, when)
        for when in under
        for route in GOAL_ROUTES
        if phases[when]["routes"][route]["p99_x_quiet"] is not None
    ]
    worst_share = min(shares, default=(0.0, "none", "-"))
    worst_ratio = max(ratios, default=(float("inf"), "none", "-"))
    created = sum(made for *_, made in events)
    server = max(phases[when]["server_mb"] for when in PHASES)
    sockets = max(phases[when]["socket_mb"] for when in PHASES)
    return [
        {
            "goal": f"answered >= {ANSWERED_GOAL:.0%}",
            "figure": f"{worst_share[0]:.1%} ({worst_share[1]}, {worst_share[2]})",
            "pass": bool(shares) and worst_share[0] >= ANSWERED_GOAL,
        },
        {
            "goal": f"p99 <= {P99_GOAL:g}x quiet",
            "figure": f"x{worst_ratio[0]:.1f} ({worst_ratio[1]}, {worst_ratio[2]})",
            "pass": bool(ratios) and worst_ratio[0] <= P99_GOAL,
        },
        {
            "goal": "new player creates a game",
            "figure": f"{created} of {len(events)}",
            "pass": bool(events) and created == len(events),
        },
        {
            "goal": f"server < {MEMORY_GOAL_MB} MB",
            "figure": f"{server:.0f} MB",
            "pass": server < MEMORY_GOAL_MB,
        },
        {
            "goal": f"socket memory < {MEMORY_GOAL_MB} MB",
            "figure": f"{sockets:.0f} MB",
            "pass": sockets < MEMORY_GOAL_MB,
        },
    ]


# ----------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------
def number(value: float | None, digits: int = 0, suffix: str = "") -> str:
    """A table cell: ``-`` for no figure.

    >>> number(None), number(12.345, 1), number(2.0, 1, "x")
    ('-', '12.3', '2.0x')
    """
    return "-" if value is None else f"{value:,.{digits}f}{suffix}"


def short(value: float | None) -> str:
    """A table cell of at most 6 characters below a million: a decimal below 100.

    >>> short(None), short(4.25), short(1234.5)
    ('-', '4.2', '1,234')
    """
    return number(value, 1 if value is not None and value < 100 else 0)


def table(reports: list[dict[str, Any]]) -> str:
    """Every mode's report as one table of at most 80 columns: a line naming the mode, a row per
    phase and route (the phase's new games and memory peaks on its first row), its goals."""
    header = ["phase", "route", "sent", "ans%", "p50ms", "p99ms", "xq99",
              "new", "srvMB", "wrkMB", "tcpMB"]  # fmt: skip
    items: list[str | list[str]] = []
    for report in reports:
        items.append(f"{report['mode']}: {report['crowd_addresses']} crowd address(es)")
        for when in PHASES:
            figures = report["phases"][when]
            for index, route in enumerate(ROUTES):
                found = figures["routes"][route]
                share = found["answered"]
                first = index == 0
                items.append([
                    when if first else "", route, str(found["requests"]),
                    number(None if share is None else share * 100, 1),
                    short(found["p50_ms"]), short(found["p99_ms"]), short(found["p99_x_quiet"]),
                    figures["new_game"] if first else "",
                    number(figures["server_mb"]) if first else "",
                    number(figures["workers_mb"]) if first else "",
                    number(figures["socket_mb"]) if first else "",
                ])  # fmt: skip
        for goal in report["goals"]:
            verdict = "PASS" if goal["pass"] else "FAIL"
            items.append(f"  {verdict} {goal['goal']}: {goal['figure']}")
    rows = [item for item in items if isinstance(item, list)]
    lines = [line.rstrip() for line in aligned(header, rows, first_left=True).splitlines()]
    cells = iter(lines[2:])
    legend = [
        "ans%: answered as expected; xq99: p99 over the quiet phase's; new: new players'",
        "games created; peaks (MB): the server, its workers (summed), the kernel's TCP",
        "memory",
    ]
    return "\n".join(
        [*lines[:2], *(next(cells) if isinstance(item, list) else item for item in items), *legend]
    )


def run(args: argparse.Namespace) -> int:
    """``bench_attack.py --crowd MODE``: the modes asked for, their table; 1 if a goal fails."""
    modes = list(MODES) if args.crowd == "all" else [args.crowd]
    positions = max(40, min(800, round((args.quiet + args.attack + args.after) / args.pause)))
    bodies = crowd_bodies(args.seed, positions)
    heading = (
        f"{os.cpu_count()} CPUs; phases {args.quiet:g} + {args.attack:g} + {args.after:g} s; "
        f"crowd modes: {', '.join(modes)}"
    )
    print(textwrap.fill(heading, 80, subsequent_indent="  "), flush=True)
    reports = []
    for mode in modes:
        report = run_mode(mode, args, bodies)
        reports.append(report)
        tally = ", ".join(f"{what} x{count:,}" for what, count in sorted(report["crowd"]["tally"].items()))  # fmt: skip
        line = (
            f"{mode}: the crowd held at most {report['crowd']['peak_connections']:,} connections; "
            f"{tally}; the server's log: {report['tracebacks']} tracebacks"
        )
        print(textwrap.fill(line, 80, subsequent_indent="  "), flush=True)
    print()
    print(table(reports))
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1) + "\n")
    return 0 if all(goal["pass"] for report in reports for goal in report["goals"]) else 1
