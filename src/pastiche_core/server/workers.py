"""Heavy work isolated: hints and publishes run in a bounded pool of worker processes.

A hint or a publishes search may take seconds and memory that a hostile input
can inflate; in the server's own process it would hold a thread and grow the
process that every other client needs. :class:`WorkerPool` keeps that work in
``workers`` processes instead (numbers from :class:`PoolSettings`):

* **Warm and reused.** Each worker is started once (``spawn``: a fresh
  interpreter, no inherited threads), imports the library and the analysis
  engine and answers a small search to fill its caches, then serves request
  after request. A request goes in as its already-validated JSON text and the
  answer comes back as JSON text: nothing sent to a worker is ever unpickled,
  so data never runs code.
* **A memory cap.** A worker's address space is capped at ``memory_mb`` MiB
  (``RLIMIT_AS``, where the platform has it; Linux and the BSDs do, Windows
  does not). A request that runs out is answered 503 (``out of memory``), and
  the worker is replaced, since its heap may be in any state.
* **A hard deadline.** A request gets its own time (a hint's ``budget_ms``, a
  publishes ``time_limit``) plus ``grace`` seconds; past it the worker is
  killed (``SIGKILL``) and replaced, and the request is answered 504. A worker
  that dies (killed by the system for memory, or any crash) is replaced too,
  and its request answered 503 with the exit status. Replacement runs in the
  background; the pool stays at ``workers`` processes.
* **A bounded queue.** When every worker is busy, at most ``queue`` requests
  wait; one more is answered 503 at once with ``Retry-After``. A waiting
  request waits at most its own deadline (then 503 with ``Retry-After``).
* **A share per client.** One client (its address) holds at most
  ``client_share`` requests, running or waiting; one more is answered 429
  with ``Retry-After``. With the defaults (two workers, a share of one) a
  client that floods the service holds one worker, and the other serves
  everyone else.
* **Two lanes.** A request is *light* when its own time is at most
  :attr:`WorkerPool.light_seconds` (the service's default publishes time
  limit or hint budget, whichever is longer), else *heavy*. Heavy requests
  hold at most ``workers - 1`` workers (with one worker, they share it) and
  wait in a room of their own, ``heavy_queue``; light requests may use any
  worker, wait in ``queue``, and go first when a worker frees. So a crowd of
  heavy requests, from however many clients, never holds the last worker nor
  fills the light requests' queue.
* **Fair order.** Within a lane a free worker goes to the waiting request of
  the client served least recently (then the longest waiting), not to the
  first come, so one client with many requests waiting cannot delay others.
* **Below the server.** Each worker lowers its CPU priority by ``nice``
  (``os.nice``, where the platform has it), so the server's own process
  (connections, games, parsing) keeps answering while every worker is busy.

The worker's work is :func:`run_request` by default: the service's own
``hint`` and ``publishes`` methods, in the worker. A pool may be given another
function of the same shape (``run=``), importable by name, which is how the
tests make a request that overruns or allocates.

>>> settings = PoolSettings(workers=2, queue=4)
>>> settings.workers, settings.queue, settings.memory_mb, settings.client_share, settings.grace
(2, 4, 512, 1, 2.0)
>>> settings.heavy_queue, settings.nice
(4, 10)
>>> PoolSettings(workers=0)
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidArgumentError: workers must be at least 1, got 0
"""

from __future__ import annotations

import json
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Any

from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..io.view_json import view_to_dict
from .api_errors import INTERNAL, TOO_MANY, UNAVAILABLE, ApiError
from .quotas import ServerLimits, check_settings
from .service import Service

__all__ = [
    "DEADLINE",
    "PoolSettings",
    "Runner",
    "Ticket",
    "WorkerPool",
    "cap_memory",
    "early_refusal",
    "run_request",
    "warm",
]

log = logging.getLogger("pastiche_core.server")

DEADLINE = 504
"""A request whose worker overran its hard deadline (the worker was killed and replaced)."""

Runner = Callable[[Service, str, Any, dict[str, Any]], dict[str, Any]]
"""A worker's work: ``run(service, method, body, options)`` → the JSON answer."""

_READY = b'{"ready": true}'
_MAX_TOLD = 65_536
"""The most clients remembered as told to wait (each for its ``Retry-After``, a second or so)."""

MAX_NICE = 19
"""The most a worker may lower its priority (POSIX niceness runs from 0 to 19 above the default)."""

LIGHT_BOTS = frozenset({"random"})
"""Bots whose turn is light: they choose among the legal moves without any search, so their turn
is given at most :attr:`WorkerPool.light_seconds` (the rest waits for the next request)."""


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """The bounds of a :class:`WorkerPool`; ``pastiche serve`` sets them from its options.

    The defaults suit a machine of two cores: two workers, eight requests
    waiting at most, 512 MiB of address space per worker, one request per
    client at a time, two seconds of grace past a request's own time.

    >>> PoolSettings(client_share=20, queue=8, workers=2)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: client_share must be at most workers + queue (10), got 20
    """

    workers: int = 2
    """Worker processes (each runs one request at a time)."""
    queue: int = 8
    """Requests that may wait for a worker at once (503 with ``Retry-After`` beyond)."""
    memory_mb: int = 512
    """Each worker's address space, in MiB (``RLIMIT_AS``); 0 for no cap."""
    client_share: int = 1
    """Requests one client may have running or waiting at once (429 with ``Retry-After``
    beyond)."""
    grace: float = 2.0
    """Seconds a request may run past its own time (budget or time limit) before its worker is
    killed (504)."""
    start_timeout: float = 60.0
    """Seconds a new worker may take to start and warm up."""
    heavy_queue: int = 4
    """Heavy requests that may wait for a worker at once, in a room of their own beside
    ``queue`` (503 with ``Retry-After`` beyond)."""
    nice: int = 10
    """How far each worker lowers its CPU priority below the server's (``os.nice``, 0 to 19)."""

    def __post_init__(self) -> None:
        check_settings(self, may_be_zero=("queue", "memory_mb", "heavy_queue", "nice"))
        if self.nice > MAX_NICE:
            raise InvalidArgumentError(f"nice must be at most {MAX_NICE}, got {self.nice}")
        top = self.workers + self.queue
        if self.client_share > top:
            raise InvalidArgumentError(
                f"client_share must be at most workers + queue ({top}), got {self.client_share}"
            )


def cap_memory(megabytes: int) -> bool:
    """Cap this process's address space at ``megabytes`` MiB; ``False`` where it cannot be.

    0 leaves the process uncapped. Called in each worker as it starts.

    >>> cap_memory(0)
    False
    """
    if megabytes <= 0:
        return False
    try:
        import resource
    except ImportError:  # no resource module (Windows): the worker runs uncapped
        return False
    cap = megabytes * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return False
    return True


def run_request(
    service: Service, method: str, body: Any, options: dict[str, Any]
) -> dict[str, Any]:
    """A worker's default work: the service's ``hint``, ``publishes``, ``outs`` or ``review``,
    or a game's bot turn (``bots``, :func:`~pastiche_core.server.bot_turns.run_bots`).

    >>> service = Service()
    >>> position = {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}
    >>> run_request(service, "publishes", position, {"time_limit": 1.0})["format"]
    'pastiche-publishes'
    """
    if method == "hint":
        return service.hint(body)
    if method == "publishes":
        return service.publishes(body, **options)
    if method == "bots":  # a game's record and seats from the service's own store
        from .bot_turns import run_bots

        limits = service.limits
        seconds = min(float(options.get("seconds", limits.bot_time_limit)), limits.bot_time_limit)
        return run_bots(body, seconds, limits.bot_decisions)
    if method in ("outs", "review"):  # checked by the server; what the player may see only
        from ..io.record import GameRecord
        from .outs_review import run_outs, run_review

        limits = service.limits
        if method == "outs":
            return run_outs(body, body["writes"], body["seed"], limits.time_limit)
        record = GameRecord.from_dict(body["record"])
        return run_review(
            record,
            body["player"],
            body["simulations"],
            body["seed"],
            body["cut"],
            limits.review_time_limit,
        )
    raise ApiError(INTERNAL, f"no such work {method[:40]!r}")


def warm(service: Service) -> None:
    """Load what the first request would otherwise load: a small search and a short hint.

    The hint is on a game's opening view, with a budget of a few milliseconds;
    the game is not kept.

    >>> warm(Service())
    """
    service.publishes(
        {"player": 0, "hand": ["SCI7", "HOR7", "MYS7", "FAN7"], "masterpieces": []},
        time_limit=1.0,
    )
    game = Game(players=4, seed=1)
    view = view_to_dict(game.view(game.to_move))
    with suppress(ApiError):  # no analysis engine here: hints answer 503, publishes still work
        service.hint({"view": view, "budget_ms": 20, "seed": 0})


def lower_priority(steps: int) -> bool:
    """Lower this process's CPU priority by ``steps`` (``os.nice``); ``False`` where it cannot.

    Called in each worker as it starts, so that the server's own process is
    scheduled first while the workers compute. 0 leaves the priority alone.

    >>> lower_priority(0)
    False
    """
    if steps <= 0 or not hasattr(os, "nice"):  # Windows has no nice
        return False
    try:
        os.nice(steps)
    except OSError:
        return False
    return True


def _worker_main(
    conn: Connection, limits: dict[str, Any], memory_mb: int, run: Runner, nice: int = 0
) -> None:
    """A worker's life: cap, lower its priority, warm up, then answer JSON requests until the
    pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    # Standard output may be the JSON-RPC stream (serve --stdio): nothing a worker
    # writes, from Python or from C, may land in it.
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), 1)
    cap_memory(memory_mb)
    lower_priority(nice)
    service = Service(limits=ServerLimits(**limits))
    warm(service)
    try:
        conn.send_bytes(_READY)
    except OSError:  # the server stopped while this worker warmed up: nothing to answer
        return
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        retire = False
        try:
            request = json.loads(data)
            reply: dict[str, Any] = {
                "result": run(service, request["method"], request["body"], request["options"])
            }
        except ApiError as error:
            reply = {"error": _error_fields(error)}
        except MemoryError:
            reply = {
                "error": {
                    "status": UNAVAILABLE,
                    "message": f"the request ran out of memory (each worker has at most "
                    f"{memory_mb} MiB, memory_mb)",
                    "retry_after": 1,
                }
            }
            retire = True  # the heap may be in any state: a fresh worker takes over
            reply["retire"] = True
        except Exception:  # a fault of the service: logged here, never sent
            log.exception("internal error in a worker")
            reply = {"error": {"status": INTERNAL, "message": "internal error in a worker"}}
        try:
            conn.send_bytes(json.dumps(reply, separators=(",", ":")).encode("utf-8"))
        except MemoryError:
            return  # the server sees a lost worker (503) and replaces it
        except OSError:
            return  # the server went away: no one waits for the answer
        if retire:
            return


def _error_fields(error: ApiError) -> dict[str, Any]:
    return {
        "status": error.status,
        "message": error.message,
        "path": error.path,
        "retry_after": error.retry_after,
    }


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class _Waiter:
    """A request waiting for a worker: its client, its lane, its place in line, its worker once
    one is handed to it."""

    __slots__ = ("client", "heavy", "order", "worker")

    def __init__(self, client: str, heavy: bool, order: int) -> None:
        self.client = client
        self.heavy = heavy
        self.order = order
        self.worker: _Worker | None = None


def early_refusal(wait: int) -> ApiError:
    """The 429 for a client back ``wait`` seconds before the ``Retry-After`` it was given.

    >>> early_refusal(1).message
    'this client was told to retry after 1 s and came back sooner'
    """
    return ApiError(
        TOO_MANY,
        f"this client was told to retry after {wait} s and came back sooner",
        None,
        retry_after=wait,
    )


class Ticket:
    """One client's place in a :class:`WorkerPool`, taken by :meth:`WorkerPool.admit` before
    a request's body is read; released once (``with`` block or :meth:`release`).

    >>> pool = WorkerPool()
    >>> with pool.admit("10.0.0.1") as ticket:
    ...     pool.stats()["admitted"]
    1
    >>> pool.stats()["admitted"], ticket.released
    (0, True)
    """

    __slots__ = ("client", "pool", "released")

    def __init__(self, pool: WorkerPool, client: str) -> None:
        self.pool = pool
        """The pool that admitted the client."""
        self.client = client
        """The client (its address) whose share this ticket holds."""
        self.released = False
        """Whether the share was given back."""

    def release(self) -> None:
        """Give the client's share back (a second call does nothing)."""
        if not self.released:
            self.released = True
            self.pool._release(self.client)

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class WorkerPool:
    """A bounded pool of warm worker processes answering hints and publishes.

    ``limits`` are the service's (each worker builds its own service with
    them); ``run`` is the work (default :func:`run_request`), a function
    importable by name, since each worker imports it afresh. :meth:`start`
    starts the workers; :meth:`call` runs one request; :meth:`close` stops them.

    >>> pool = WorkerPool(PoolSettings(workers=1), ServerLimits())
    >>> pool.stats()["workers"], pool.stats()["ready"]
    (1, 0)
    >>> pool.close()
    """

    def __init__(
        self,
        settings: PoolSettings | None = None,
        limits: ServerLimits | None = None,
        *,
        run: Runner = run_request,
    ) -> None:
        self.settings = settings if settings is not None else PoolSettings()
        """The pool's bounds."""
        self.limits = limits if limits is not None else ServerLimits()
        """The limits each worker's service is held to."""
        self.run = run
        """The work each worker does on a request."""
        self.replaced: dict[str, int] = {}
        """Workers replaced so far, by reason (``deadline``, ``memory``, ``lost``)."""
        self.refused: dict[str, int] = {}
        """Requests refused so far, by what refused them (``queue``, ``heavy_queue``,
        ``client_share``, ``early`` for a client back before its ``Retry-After``, and
        ``queue_wait`` for a request that waited its whole deadline)."""
        self._context = get_context("spawn")
        self._ready = threading.Condition()
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._heavy: set[_Worker] = set()  # the busy workers running a heavy request
        self._lines: dict[bool, list[_Waiter]] = {False: [], True: []}  # by lane: heavy?
        self._arrivals = 0
        self._served: dict[str, int] = {}  # when each admitted client last got a worker
        self._turns = 0
        self._held: dict[str, int] = {}
        self._told: dict[str, float] = {}  # until when each refused client was told to wait
        self._closed = False

    @property
    def light_seconds(self) -> float:
        """The longest own time of a light request: the service's default publishes time limit
        or default hint budget, whichever is longer; a longer request is heavy.

        >>> WorkerPool().light_seconds
        2.0
        """
        return max(self.limits.time_limit, self.limits.budget_ms / 1000)

    @property
    def heavy_workers(self) -> int:
        """The most workers heavy requests hold at once: all but one (the only one, if one).

        >>> WorkerPool(PoolSettings(workers=3)).heavy_workers, WorkerPool(PoolSettings(workers=1)).heavy_workers
        (2, 1)
        """
        return max(1, self.settings.workers - 1)

    # ------------------------------------------------------------------
    # Life
    # ------------------------------------------------------------------
    def start(self) -> None:
        """Start the workers and wait until each is warm; ``OSError`` if one cannot start.

        A program calling it must do so under ``if __name__ == "__main__":``
        (workers are spawned, and a spawned process imports the main module).
        See :meth:`call` for an example.
        """
        threads = [
            threading.Thread(target=self._add_worker, daemon=True)
            for _ in range(self.settings.workers)
        ]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                thread.join()
        except BaseException:  # interrupted (Ctrl-C, SIGTERM): the workers go too
            self.close()
            raise
        with self._ready:
            ready = len(self._idle)
        if ready < self.settings.workers:
            self.close()
            raise OSError(
                f"only {ready} of {self.settings.workers} worker processes started within "
                f"{self.settings.start_timeout:g} seconds"
            )

    def _spawn(self) -> _Worker | None:
        """A new warm worker, or ``None`` if it did not become ready in time."""
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main,
            args=(
                theirs,
                asdict(self.limits),
                self.settings.memory_mb,
                self.run,
                self.settings.nice,
            ),
            name="pastiche-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        try:
            if ours.poll(self.settings.start_timeout) and ours.recv_bytes() == _READY:
                return worker
        except (EOFError, OSError):
            pass
        if not self._closed:  # a pool closing stops its workers as they start: no fault
            log.error("a worker process did not start (exit code %s)", process.exitcode)
        worker.stop()
        return None

    def _add_worker(self) -> None:
        worker = self._spawn()
        with self._ready:
            if worker is None:
                return
            if self._closed:
                worker.stop()
                return
            self._idle.append(worker)
            self._dispatch()

    def _replace(self, worker: _Worker, reason: str) -> None:
        """Stop ``worker`` and start another in the background."""
        with self._ready:
            self._busy.discard(worker)
            self._heavy.discard(worker)
            self.replaced[reason] = self.replaced.get(reason, 0) + 1
            closed = self._closed
        worker.stop()
        if not closed:
            threading.Thread(target=self._refill, daemon=True).start()

    def _refill(self) -> None:
        """Start a replacement, trying again a few seconds apart until it starts."""
        while True:
            worker = self._spawn()
            with self._ready:
                if self._closed:
                    if worker is not None:
                        worker.stop()
                    return
                if worker is not None:
                    self._idle.append(worker)
                    self._dispatch()
                    return
            time.sleep(2.0)

    def close(self) -> None:
        """Stop every worker; waiting requests are answered 503.

        >>> pool = WorkerPool()
        >>> pool.close()
        >>> pool.call("hint", {}, seconds=1.0)
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: the service is stopping
        """
        with self._ready:
            self._closed = True
            workers = self._idle + list(self._busy)
            self._idle.clear()
            self._ready.notify_all()
        for worker in workers:
            worker.stop()

    def stats(self) -> dict[str, Any]:
        """What the pool holds now: workers, ready ones, running and waiting requests (and the
        heavy ones among them), and the places admitted clients hold (:meth:`admit`: running,
        waiting or reading their body).

        >>> pool = WorkerPool()
        >>> sorted(pool.stats())  # doctest: +NORMALIZE_WHITESPACE
        ['admitted', 'heavy_running', 'heavy_waiting', 'ready', 'refused', 'replaced',
         'running', 'waiting', 'workers']
        """
        with self._ready:
            return {
                "workers": self.settings.workers,
                "ready": len(self._idle),
                "running": len(self._busy),
                "waiting": len(self._lines[False]) + len(self._lines[True]),
                "heavy_running": len(self._heavy),
                "heavy_waiting": len(self._lines[True]),
                "replaced": dict(self.replaced),
                "refused": dict(self.refused),
                "admitted": sum(self._held.values()),
            }

    # ------------------------------------------------------------------
    # Requests
    # ------------------------------------------------------------------
    def call(
        self,
        method: str,
        body: Any,
        *,
        seconds: float,
        client: str = "",
        options: dict[str, Any] | None = None,
        ticket: Ticket | None = None,
    ) -> dict[str, Any]:
        """Run ``method`` on a validated ``body`` in a worker; its JSON answer.

        ``seconds`` is the request's own time, which also sets its lane (heavy
        past :attr:`light_seconds`); the worker is killed past ``seconds +
        grace`` (504). ``client`` is who asks, for its share (429) and its
        turn, unless a ``ticket`` of :meth:`admit` already holds its place. A
        full queue (the lane's) is 503 at once with ``Retry-After``.

        >>> pool = WorkerPool(PoolSettings(workers=1, queue=0))
        >>> pool.start()
        >>> position = {"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}
        >>> answer = pool.call("publishes", position, seconds=1.0, options={"time_limit": 1.0})
        >>> [option["novel"] for option in answer["options"]], pool.stats()["ready"]
        (['kind-3'], 1)
        >>> pool.close()
        """
        if ticket is not None:
            return self._run(method, body, seconds, options, ticket.client)
        with self.admit(client, seconds):
            return self._run(method, body, seconds, options, client)

    def admit(self, client: str, seconds: float | None = None) -> Ticket:
        """Take one place of ``client``'s share, before anything of its request is read.

        429 past the client's share, 503 when the request would wait and its
        lane's queue is full, 503 once the pool is closing (each with
        ``Retry-After``). ``seconds``, the request's own time where it is known
        before its body (a publishes ``time_limit`` is in the query), sets the
        lane checked; unknown, the light lane is (:meth:`call` checks the
        request's own lane again once its body is read). The ticket is handed
        to :meth:`call` and released after it (``with pool.admit(client) as
        ticket: ...``), so a refused request costs no body reading and no
        decoding.

        >>> pool = WorkerPool(PoolSettings(workers=1, queue=1))
        >>> first = pool.admit("10.0.0.1")
        >>> pool.admit("10.0.0.1")
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: this client has 1 requests for the workers running or waiting, the most client_share allows
        >>> first.release()
        """
        settings = self.settings
        with self._ready:
            if self._closed:
                raise ApiError(UNAVAILABLE, "the service is stopping", None, retry_after=5)
            self._not_early(client)
            held = self._held.get(client, 0)
            if held >= settings.client_share:
                self._count("client_share")
                raise self._told_to_wait(
                    client,
                    ApiError(
                        TOO_MANY,
                        f"this client has {held} requests for the workers running or waiting, "
                        f"the most client_share allows",
                        None,
                        retry_after=1,
                    ),
                )
            self._check_queue(self._is_heavy(seconds), client)
            self._held[client] = held + 1
        return Ticket(self, client)

    def check(self, seconds: float, client: str = "") -> None:
        """503 at once (``Retry-After``) if a request of ``seconds`` of its own would wait and
        its lane's queue is full: what :meth:`call` checks first, for a caller that learns a
        request's time from its body and has more of it to check before the call.

        >>> pool = WorkerPool(PoolSettings(workers=1, heavy_queue=0))
        >>> pool.check(1.0)
        >>> pool.check(5.0)
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: no worker is free for a heavy request (0 of at most 1 running) and 0 wait, the most heavy_queue allows (0)
        """
        with self._ready:
            self._check_queue(self._is_heavy(seconds), client)

    def _is_heavy(self, seconds: float | None) -> bool:
        return seconds is not None and seconds > self.light_seconds

    def _free_for(self, heavy: bool) -> bool:
        """Whether a request of this lane would get a worker now (called holding the lock)."""
        return bool(self._idle) and (not heavy or len(self._heavy) < self.heavy_workers)

    def _check_queue(self, heavy: bool, client: str = "") -> None:
        """503 when the request would wait and its lane's queue is full (holding the lock)."""
        room = self.settings.heavy_queue if heavy else self.settings.queue
        waiting = len(self._lines[heavy])
        if self._free_for(heavy) or waiting < room:
            return
        self._count("heavy_queue" if heavy else "queue")
        if heavy:
            why = (
                f"no worker is free for a heavy request ({len(self._heavy)} of at most "
                f"{self.heavy_workers} running) and {waiting} wait, the most heavy_queue "
                f"allows ({room})"
            )
        else:
            why = (
                f"every worker is busy and {waiting} requests wait, the most the queue "
                f"allows ({room})"
            )
        raise self._told_to_wait(client, ApiError(UNAVAILABLE, why, None, retry_after=1))

    def _told_to_wait(self, client: str, error: ApiError) -> ApiError:
        """``error``, remembering until when it tells ``client`` to wait (holding the lock)."""
        if client and error.retry_after:
            now = time.monotonic()
            if len(self._told) >= _MAX_TOLD:  # past waits go; the table stays bounded
                self._told = {other: until for other, until in self._told.items() if until > now}
            if len(self._told) < _MAX_TOLD:
                self._told[client] = now + error.retry_after
        return error

    def _not_early(self, client: str) -> None:
        """429 for a client back before the ``Retry-After`` it was given (holding the lock):
        refused again at once, before its body is read, so a crowd that does not wait costs
        no decoding."""
        wait = self._early(client)
        if wait is not None:
            raise early_refusal(wait)

    def _early(self, client: str) -> int | None:
        """The seconds ``client`` was told to wait and has left, counted as ``early``; ``None``
        when it was told nothing or its time is up (holding the lock)."""
        until = self._told.get(client)
        if until is None:
            return None
        left = until - time.monotonic()
        if left <= 0:
            del self._told[client]
            return None
        self._count("early")
        return max(1, math.ceil(left))

    def retry_after(self, client: str) -> int | None:
        """The seconds left of the ``Retry-After`` the pool gave ``client`` when it refused it,
        or ``None``: what the service checks before it routes a heavy request.

        >>> pool = WorkerPool(PoolSettings(workers=1))
        >>> held = pool.admit("10.0.0.1")
        >>> pool.admit("10.0.0.1")
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: this client has 1 requests for the workers running or waiting, the most client_share allows
        >>> pool.retry_after("10.0.0.1"), pool.retry_after("10.0.0.2")
        (1, None)
        >>> held.release()
        """
        with self._ready:
            return self._early(client)

    def _release(self, client: str) -> None:
        with self._ready:
            left = self._held.get(client, 1) - 1
            if left > 0:
                self._held[client] = left
            else:
                self._held.pop(client, None)
                self._served.pop(client, None)  # bounded by the clients admitted now

    def _run(
        self,
        method: str,
        body: Any,
        seconds: float,
        options: dict[str, Any] | None,
        client: str,
    ) -> dict[str, Any]:
        deadline = seconds + self.settings.grace
        heavy = self._is_heavy(seconds)
        with self._ready:  # the queue may have filled while the body was read
            self._check_queue(heavy)
        worker = self._take(deadline, heavy, client)
        return self._exchange(worker, method, body, options or {}, deadline)

    def play_bots(
        self, work: dict[str, Any], *, seconds: float, client: str
    ) -> dict[str, Any] | None:
        """A game's bot turn (``{"record", "bots"}``) in a worker: ``{"moves", "done"}``, or
        ``None`` when the pool refused it before any work (``client``'s share, a full queue,
        no worker free within the deadline), so the bots wait for the next request.

        A turn of :data:`LIGHT_BOTS` only is light: it is given at most
        :attr:`light_seconds` of its ``seconds``. Any other bot makes it heavy.

        A worker that fails mid-turn raises as :meth:`call` does (504 stopped at
        ``seconds`` plus the grace, 503 lost or out of memory).

        >>> pool = WorkerPool(PoolSettings(workers=1, queue=1))
        >>> held = pool.admit("10.0.0.1")
        >>> pool.play_bots({}, seconds=1.0, client="10.0.0.1") is None
        True
        >>> held.release()
        """
        if {kind for kind in work.get("bots", ()) if kind is not None} <= LIGHT_BOTS:
            seconds = min(seconds, self.light_seconds)
        deadline = seconds + self.settings.grace
        heavy = self._is_heavy(seconds)
        try:
            ticket = self.admit(client, seconds)
        except ApiError:
            return None
        with ticket:
            try:
                worker = self._take(deadline, heavy, client)
            except ApiError:
                return None
            return self._exchange(worker, "bots", work, {"seconds": seconds}, deadline)

    def _count(self, limit: str) -> None:
        self.refused[limit] = self.refused.get(limit, 0) + 1

    def _take(self, deadline: float, heavy: bool, client: str) -> _Worker:
        """A worker for a request of ``client`` in its lane, waiting in line at most
        ``deadline`` seconds (503 past it)."""
        end = time.monotonic() + deadline
        with self._ready:
            waiter = _Waiter(client, heavy, self._arrivals)
            self._arrivals += 1
            self._lines[heavy].append(waiter)
            try:
                self._dispatch()
                while waiter.worker is None:
                    left = end - time.monotonic()
                    if self._closed:
                        raise ApiError(UNAVAILABLE, "the service is stopping", None, retry_after=5)
                    if left <= 0:
                        self._count("queue_wait")
                        raise ApiError(
                            UNAVAILABLE,
                            f"no worker was free within {deadline:g} seconds",
                            None,
                            retry_after=1,
                        )
                    self._ready.wait(left)
            except BaseException:
                if waiter.worker is None:
                    self._lines[heavy].remove(waiter)
                else:  # handed a worker as it gave up: the worker goes to the next
                    self._give_back(waiter.worker)
                raise
            return waiter.worker

    def _dispatch(self) -> None:
        """Hand idle workers to waiting requests: light ones first, then heavy ones while they
        hold fewer than :attr:`heavy_workers`; within a lane, the client served least recently
        first, then the longest waiting (called holding the lock)."""
        handed = False
        while self._idle:
            waiter = self._next(False)
            if waiter is None and len(self._heavy) < self.heavy_workers:
                waiter = self._next(True)
            if waiter is None:
                break
            self._lines[waiter.heavy].remove(waiter)
            worker = self._idle.pop()
            self._busy.add(worker)
            if waiter.heavy:
                self._heavy.add(worker)
            waiter.worker = worker
            self._served[waiter.client] = self._turns
            self._turns += 1
            handed = True
        if handed:
            self._ready.notify_all()

    def _next(self, heavy: bool) -> _Waiter | None:
        served = self._served
        return min(
            self._lines[heavy], key=lambda w: (served.get(w.client, -1), w.order), default=None
        )

    def _give_back(self, worker: _Worker) -> None:
        """A worker done with its request goes idle, to the next waiting (holding the lock)."""
        self._busy.discard(worker)
        self._heavy.discard(worker)
        if self._closed:
            worker.stop()
        else:
            self._idle.append(worker)
            self._dispatch()

    def _exchange(
        self, worker: _Worker, method: str, body: Any, options: dict[str, Any], deadline: float
    ) -> dict[str, Any]:
        """Send the request to ``worker`` and read its answer within ``deadline`` seconds."""
        payload = {"method": method, "body": body, "options": options}
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        try:
            worker.conn.send_bytes(text.encode("utf-8", "surrogatepass"))
            arrived = worker.conn.poll(deadline)
            data = worker.conn.recv_bytes() if arrived else b""
        except (EOFError, OSError):
            self._replace(worker, "lost")
            code = worker.process.exitcode  # read once reaped: a signal shows as negative
            raise ApiError(
                UNAVAILABLE,
                f"the worker answering this request was lost (exit status {code}); "
                "a new one is starting",
                None,
                retry_after=1,
            ) from None
        if not arrived:
            self._replace(worker, "deadline")
            raise ApiError(
                DEADLINE,
                f"the {method} request did not finish within {deadline:g} seconds (its own "
                f"time and {self.settings.grace:g} s of grace); its worker was stopped",
                None,
            )
        reply = json.loads(data)
        error = reply.get("error")
        if reply.get("retire"):
            self._replace(worker, "memory")
        else:
            with self._ready:
                self._give_back(worker)
        if error is not None:
            raise ApiError(
                error["status"],
                error["message"],
                error.get("path"),
                retry_after=error.get("retry_after"),
            )
        result: dict[str, Any] = reply["result"]
        return result
