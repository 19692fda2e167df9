"""The hint service against spawning ``pastiche publishes``: latency, errors and memory.

Run: ``python benchmarks/bench_serve.py [--requests N] [--spawns N] [--stdio N]``.

Everything runs on this machine, over the loopback interface only, and every
loop is bounded by its count (and each request by a 30 s timeout). In one run:

1. **spawn**: ``pastiche publishes POSITION --json``, a new process per
   question, over the example positions (``examples/positions/*.json``): the
   baseline a frontend pays today;
2. **http c=1** and **http c=8**: ``POST /v1/publishes`` to a real
   ``pastiche serve`` (a child process on 127.0.0.1, a free port), the same
   positions in turn, over one and over eight kept-alive connections (a small
   asyncio client, so measuring costs little CPU); the first 100 requests warm the server up and are not
   timed; the server's resident memory is read after them and after the run;
   the same again with a server started with ``--answer-cache 0``, where
   every request searches (the answer cache serves a body asked again);
3. **stdio**: one JSON-RPC ``publishes`` round trip at a time through
   ``pastiche serve --stdio``;
4. **in process**: ``solve(...).to_dict()`` itself, the floor under every mode.

It prints one table (median and p99 per mode, and how many times faster than
a spawn the median and the p99 are, both against the spawn median measured in
the same run), then the goals: warm p99 at least 50x below a spawn, no error
in all the HTTP requests (2,000 by default), and resident memory after the
run within 1.2x of that after the first 100 requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import selectors
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchkit import process_memory_kib, stop_process

from pastiche_core import CLI_MAX_OPTIONS, solve
from pastiche_core.io import load_query

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = sorted((ROOT / "examples" / "positions").glob("*.json"))
WARM_UP = 100
TIMEOUT = 30.0


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (share in [0, 1])."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]


def pastiche_command() -> list[str]:
    """The ``pastiche`` command of this environment."""
    script = Path(sys.executable).with_name("pastiche")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pastiche_core"]


def spawn_times(count: int) -> list[float]:
    times = []
    for index in range(count):
        path = POSITIONS[index % len(POSITIONS)]
        start = time.perf_counter()
        done = subprocess.run(
            [*pastiche_command(), "publishes", str(path), "--json"],
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"pastiche publishes failed: {done.stderr.decode()}")
    return times


class Server:
    """``pastiche serve --port 0`` as a child process on 127.0.0.1, or ``command``: any
    program that prints the same ``pastiche: serving on`` line."""

    def __init__(self, *options: str, command: list[str] | None = None) -> None:
        if command is None:
            command = [*pastiche_command(), "serve", "--host", "127.0.0.1", "--port", "0"]
        self.process = subprocess.Popen(
            [*command, *options],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert self.process.stderr is not None
        line = b""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stderr, selectors.EVENT_READ)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not line.startswith(b"pastiche: serving on"):
                if selector.select(timeout=0.5):
                    line = self.process.stderr.readline()
                    if not line:
                        break
        if not line.startswith(b"pastiche: serving on"):
            self.stop()
            raise SystemExit("the server did not start")
        address = line.decode().split("http://", 1)[1].strip().rstrip("/")
        self.host, port = address.rsplit(":", 1)
        self.port = int(port)

    def rss_kib(self) -> int:
        """The server's resident memory (VmRSS), in KiB."""
        return process_memory_kib(self.process.pid, "VmRSS")[0]

    def stop(self) -> None:
        stop_process(self.process, TIMEOUT)
        if self.process.stderr is not None:
            self.process.stderr.close()


async def _client(host: str, port: int, bodies: list[bytes], times: list[float]) -> int:
    """One kept-alive HTTP/1.1 connection sending ``bodies`` in turn; returns its errors.

    A small client on asyncio streams, so that eight connections cost the
    measuring process little CPU (the server shares the machine's cores).
    """
    errors = 0
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for body in bodies:
            request = (
                b"POST /v1/publishes HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
            ) + body
            start = time.perf_counter()
            try:
                writer.write(request)
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                data = await asyncio.wait_for(reader.readexactly(length), TIMEOUT)
                ok = head.startswith(b"HTTP/1.1 200") and data.startswith(b"{")
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                ok = False
                writer.close()
                reader, writer = await asyncio.open_connection(host, port)
            times.append(time.perf_counter() - start)
            errors += not ok
    finally:
        writer.close()
    return errors


def http_run(
    server: Server, bodies: list[bytes], count: int, connections: int, offset: int
) -> tuple[list[float], int]:
    """``count`` requests over ``connections`` kept-alive connections: the times and the errors."""
    times: list[float] = []
    plans = [
        [bodies[(offset + index) % len(bodies)] for index in range(start, count, connections)]
        for start in range(connections)
    ]

    async def run() -> int:
        found = await asyncio.gather(
            *(_client(server.host, server.port, plan, times) for plan in plans)
        )
        return sum(found)

    return times, asyncio.run(run())


def stdio_times(count: int, bodies: list[bytes]) -> list[float]:
    process = subprocess.Popen(
        [*pastiche_command(), "serve", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    times = []
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            for index in range(count + 10):
                params = json.loads(bodies[index % len(bodies)])
                line = json.dumps(
                    {"jsonrpc": "2.0", "id": index, "method": "publishes", "params": params}
                )
                start = time.perf_counter()
                process.stdin.write(line.encode() + b"\n")
                process.stdin.flush()
                if not selector.select(timeout=TIMEOUT):
                    raise SystemExit("no answer from pastiche serve --stdio")
                answer = json.loads(process.stdout.readline())
                if "result" not in answer:
                    raise SystemExit(f"stdio error: {answer}")
                if index >= 10:  # the first ten warm the process up
                    times.append(time.perf_counter() - start)
    finally:
        process.stdin.close()
        process.wait(timeout=TIMEOUT)
        process.stdout.close()
    return times


def in_process_times(count: int) -> list[float]:
    queries = [load_query(path) for path in POSITIONS]
    times = []
    for index in range(count):
        position, constraints = queries[index % len(queries)]
        start = time.perf_counter()
        json.dumps(solve(position, constraints=constraints, max_options=CLI_MAX_OPTIONS).to_dict())
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2_000, help="HTTP requests in all")
    parser.add_argument("--spawns", type=int, default=20, help="pastiche publishes processes")
    parser.add_argument("--stdio", type=int, default=500, help="JSON-RPC round trips")
    parser.add_argument(
        "--uncached", type=int, default=1_000, help="HTTP requests to a server without cache"
    )
    args = parser.parse_args(argv)
    if args.requests < 2 * WARM_UP or args.spawns < 1 or args.stdio < 1:
        parser.error("need --requests >= 200, --spawns >= 1 and --stdio >= 1")
    bodies = [path.read_bytes() for path in POSITIONS]
    print(
        f"positions: {', '.join(path.stem for path in POSITIONS)}; "
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}",
        flush=True,
    )

    spawned = spawn_times(args.spawns)
    server = Server()
    try:
        _, warm_errors = http_run(server, bodies, WARM_UP, 1, 0)
        rss_warm = server.rss_kib()
        rest = args.requests - WARM_UP
        serial, serial_errors = http_run(server, bodies, rest // 2, 1, WARM_UP)
        parallel, parallel_errors = http_run(server, bodies, rest - rest // 2, 8, 7)
        rss_end = server.rss_kib()
    finally:
        server.stop()
    # The same requests without the answer cache: every request searches.
    uncached = Server("--answer-cache", "0")
    try:
        http_run(uncached, bodies, WARM_UP, 1, 0)
        share = max(WARM_UP, args.uncached // 2)
        searching, searching_errors = http_run(uncached, bodies, share, 1, WARM_UP)
        searching8, searching8_errors = http_run(uncached, bodies, share, 8, 7)
    finally:
        uncached.stop()
    piped = stdio_times(args.stdio, bodies)
    direct = in_process_times(200)

    spawn_median = statistics.median(spawned)
    rows = [
        ("spawn pastiche publishes", spawned),
        ("http c=1", serial),
        ("http c=8", parallel),
        ("http c=1, no answer cache", searching),
        ("http c=8, no answer cache", searching8),
        ("stdio JSON-RPC", piped),
        ("in process (solve + JSON)", direct),
    ]
    print()
    print(f"{'mode':<30}{'runs':>6}{'p50 ms':>10}{'p99 ms':>10}{'x p50':>9}{'x p99':>9}")
    for name, times in rows:
        p50, p99 = statistics.median(times), percentile(times, 0.99)
        print(
            f"{name:<30}{len(times):>6}{p50 * 1e3:>10.2f}{p99 * 1e3:>10.2f}"
            f"{spawn_median / p50:>9.1f}{spawn_median / p99:>9.1f}"
        )
    print("(x: how many times faster than the median spawn of this run)")
    if searching_errors or searching8_errors:
        print(f"without the answer cache: {searching_errors + searching8_errors} errors")

    worst_p99 = max(percentile(serial, 0.99), percentile(parallel, 0.99))
    errors = warm_errors + serial_errors + parallel_errors
    total = WARM_UP + len(serial) + len(parallel)
    growth = rss_end / rss_warm
    goals = [
        (
            "warm p99 at least 50x below a spawn",
            f"{spawn_median / worst_p99:.1f}x (worst p99 {worst_p99 * 1e3:.2f} ms)",
            spawn_median / worst_p99 >= 50,
        ),
        ("no error in the HTTP requests", f"{errors} errors in {total:,}", errors == 0),
        (
            "memory after the run within 1.2x of after 100 requests",
            f"{rss_warm / 1024:.1f} MiB -> {rss_end / 1024:.1f} MiB ({growth:.2f}x)",
            growth <= 1.2,
        ),
    ]
    print()
    for goal, figure, met in goals:
        print(f"{'met ' if met else 'MISSED'} {goal}: {figure}")
    return 0 if all(met for _, _, met in goals) else 1


if __name__ == "__main__":
    raise SystemExit(main())
