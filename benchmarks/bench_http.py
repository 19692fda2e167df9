"""HTTP throughput: this server's guarded protocols against a plain uvicorn with httptools.

Run: ``python benchmarks/bench_http.py [--runs N] [--seconds S]``.

Three servers serve the same application (``make_service`` with the default
limits and worker pool, as ``pastiche serve`` runs it, without the request
log), each a child process on 127.0.0.1:

* **guarded httptools**: ``serve()`` as it is, the guard on uvicorn's
  httptools protocol (head size and clock, shares, fair admission, write
  timeout);
* **guarded h11**: ``serve()`` with the same guard on uvicorn's h11 protocol;
* **plain httptools**: ``uvicorn.Server`` with ``http="httptools"`` and
  uvicorn's defaults, none of the guard's limits.

The load comes from a separate process: ``C`` kept-alive connections (an
asyncio client on uvloop when present), each from its own loopback address
(127.0.0.10 and up, so that per-address shares do not refuse it), each
sending its next request when the last is answered, for ``--seconds``. Two
routes: ``GET /v1/health`` and ``POST /v1/publishes`` of small positions
(five cards in hand, no masterpiece), every body distinct, so that no
answer comes from the answer cache. Connections: 1, 8 and 32. The three
servers take turns within each run (their order rotates from run to run),
and each cell is the median over ``--runs`` runs of requests answered per
second and of the p99 latency. Every loop is bounded by its clock or count;
each request by a 30 s timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import bench_serve
from bench_attack import read_answer
from benchkit import aligned

from pastiche_core.data.cards import DECK

VARIANTS = ("guarded httptools", "guarded h11", "plain httptools")
ROUTES = ("health", "publishes")
CONNECTIONS = (1, 8, 32)
TIMEOUT = 30.0
CARDS = [str(card) for card in DECK]


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (share in [0, 1]); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]


def run_server(variant: str) -> None:
    """Serve the application as ``variant`` on a free port (in this child process)."""
    import socket

    import uvicorn

    from pastiche_core.server import PoolSettings, ServerLimits, create_app, make_service, serve
    from pastiche_core.server.connections import guarded_protocol

    limits = ServerLimits()
    service = make_service(limits=limits, pool=PoolSettings())
    if variant == "guarded httptools":
        serve(service, port=0, quiet=True)
    elif variant == "guarded h11":
        serve(service, port=0, quiet=True, http=guarded_protocol(limits, "h11"))
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        sock.listen(2048)
        port = sock.getsockname()[1]
        print(f"pastiche: serving on http://127.0.0.1:{port}/", file=sys.stderr, flush=True)
        config = uvicorn.Config(
            create_app(service=service), http="httptools", log_level="warning", access_log=False
        )
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            service.close()


class Server(bench_serve.Server):
    """One variant's server as a child process (this script with ``--serve VARIANT``)."""

    def __init__(self, variant: str) -> None:
        super().__init__(command=[sys.executable, __file__, "--serve", variant])
        self.variant = variant
        """Which server it is (see ``VARIANTS``)."""


def per_connection(seconds: float, connections: int) -> int:
    """Distinct publishes bodies one connection may send in ``seconds`` (more than it can)."""
    return int(4_000 * seconds / connections) + 100


def publish_bodies(start: int, count: int) -> list[bytes]:
    """``count`` distinct small publishes bodies, from the ``start``-th hand of five cards."""
    hands = itertools.islice(itertools.combinations(CARDS, 5), start, start + count)
    return [
        json.dumps({"player": 0, "hand": list(hand), "masterpieces": []}).encode() for hand in hands
    ]


async def _connection(
    port: int, source: str, route: str, bodies: list[bytes], stop: float, found: dict[str, Any]
) -> None:
    """One kept-alive connection sending requests until ``stop`` (monotonic seconds)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    index = 0
    try:
        while time.monotonic() < stop and index < len(bodies):
            if route == "health":
                request = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            else:
                body = bodies[index]
                request = (
                    b"POST /v1/publishes HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
                ) + body
            index += 1
            start = time.perf_counter()
            try:
                writer.write(request)
                code, headers, _ = await asyncio.wait_for(read_answer(reader), TIMEOUT)
                status = str(code)
                closing = headers.get("connection", "").lower() == "close"
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                status, closing = "error", True
            found["times"].append(time.perf_counter() - start)
            found["statuses"][status] += 1
            if closing:
                writer.close()
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
    finally:
        writer.close()


def run_load(port: int, route: str, connections: int, seconds: float, first: int, out: str) -> None:
    """Load one server (in this child process); write the times and statuses as JSON to
    the file ``out``."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    per = per_connection(seconds, connections)
    bodies = publish_bodies(first, per * connections) if route == "publishes" else [b""] * 10**7
    found: dict[str, Any] = {"times": [], "statuses": Counter()}

    async def run() -> float:
        stop = time.monotonic() + seconds
        started = time.perf_counter()
        await asyncio.gather(
            *(
                _connection(
                    port,
                    f"127.0.0.{10 + index}",
                    route,
                    bodies[index * per : (index + 1) * per] if route == "publishes" else bodies,
                    stop,
                    found,
                )
                for index in range(connections)
            )
        )
        return time.perf_counter() - started

    took = asyncio.run(run())
    times = [round(value, 6) for value in found["times"]]
    result = {"seconds": took, "times": times, "statuses": found["statuses"]}
    Path(out).write_text(json.dumps(result), encoding="utf-8")


def measure(
    server: Server, route: str, connections: int, seconds: float, first: int
) -> dict[str, Any]:
    """One cell's run from a separate load process: req/s (200s only), p99 ms, statuses."""
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "load.json")
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--load",
                json.dumps([server.port, route, connections, seconds, first, out]),
            ],
            capture_output=True,
            timeout=seconds + 120,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the load process failed: {done.stderr.decode()[-2000:]}")
        found = json.loads(Path(out).read_text(encoding="utf-8"))
    ok = found["statuses"].get("200", 0)
    return {
        "rate": ok / found["seconds"],
        "p99": percentile(found["times"], 0.99) * 1e3,
        "statuses": found["statuses"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of every cell (median)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of load per cell")
    parser.add_argument("--serve", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--load", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        run_server(args.serve)
        return 0
    if args.load:
        run_load(*json.loads(args.load))
        return 0
    if args.runs < 1 or not 0.5 <= args.seconds <= 60:
        parser.error("need --runs >= 1 and --seconds from 0.5 to 60")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; load average before: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.runs} runs of {args.seconds:g} s",
        flush=True,
    )
    servers = [Server(variant) for variant in VARIANTS]
    cells: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    first = dict.fromkeys(VARIANTS, 0)  # each server's own bodies, never asked twice
    try:
        for run in range(args.runs):
            order = servers[run % len(servers) :] + servers[: run % len(servers)]
            for route in ROUTES:
                for connections in CONNECTIONS:
                    for server in order:
                        start = first[server.variant]
                        found = measure(server, route, connections, args.seconds, start)
                        if route == "publishes":
                            first[server.variant] += per_connection(args.seconds, connections) * (
                                connections
                            )
                        cells.setdefault((route, server.variant, connections), []).append(found)
                        print(
                            f"run {run + 1} {route:<9} c={connections:<2} {server.variant:<17} "
                            f"{found['rate']:>8.0f} req/s  p99 {found['p99']:>7.2f} ms  "
                            f"{dict(found['statuses'])}",
                            flush=True,
                        )
    finally:
        for server in servers:
            server.stop()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    header = ["route", "conns", *(f"{variant} req/s, p99 ms" for variant in VARIANTS)]
    rows = []
    for route in ROUTES:
        for connections in CONNECTIONS:
            row = [route, str(connections)]
            for variant in VARIANTS:
                runs = cells[(route, variant, connections)]
                rate = statistics.median(item["rate"] for item in runs)
                p99 = statistics.median(item["p99"] for item in runs)
                row.append(f"{rate:,.0f}, {p99:.1f}")
            rows.append(row)
    print()
    print(aligned(header, rows, first_left=True))
    refused: Counter[str] = Counter()
    for (route, variant, connections), runs in cells.items():
        for item in runs:
            for status, count in item["statuses"].items():
                if status != "200":
                    refused[f"{route} c={connections} {variant}: {status}"] += count
    for what, count in sorted(refused.items()):
        print(f"not 200: {what} x{count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
