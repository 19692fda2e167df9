"""Where a tournament's games run: in this process, in a local process pool, or on Ray.

A game is a :class:`GameTask`: the arguments of
:func:`~pastiche_core.ai.match.match_result`, plain picklable data. Every
runner takes the tasks and returns their results **in task order**, whatever
order they finish in, so a tournament's outcome never depends on the runner,
the number of workers or the timing.

* :func:`run_in_process` plays the games one after the other;
* :func:`run_in_pool` plays them in a :class:`concurrent.futures.ProcessPoolExecutor`;
* :func:`run_on_ray` sends each game as a Ray task to a local instance
  (``ray.init()``) or an existing cluster (``ray.init(address=...)``), whose
  workers must have ``pastiche_core`` installed. Ray is an optional extra
  (``pip install 'pastiche-core[ray]'``), imported only here.

>>> task = GameTask(seed=7, bots=("greedy", "random", "random"))
>>> run_in_process([task]) == [task.run()]
True
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ..bots.play import DEFAULT_MAX_DECISIONS
from ..data._text import quote
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from ..engine.game import GameResult
from .match import match_result

__all__ = [
    "MAX_WORKERS",
    "GameTask",
    "Progress",
    "Runnable",
    "default_workers",
    "ray_available",
    "run_in_pool",
    "run_in_process",
    "run_on_ray",
]

MAX_WORKERS = 256
"""The most worker processes a local pool may start."""

_IN_FLIGHT_PER_WORKER = 4
"""Games submitted ahead per worker: enough to keep workers busy, few enough to wait on cheaply."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` each time a game finishes."""

_Result = TypeVar("_Result")
_Result_co = TypeVar("_Result_co", covariant=True)


class Runnable(Protocol[_Result_co]):
    """A picklable piece of work whose ``run()`` gives its result: a :class:`GameTask`, or a
    task that plays one and measures it too (the tournament's CPU time)."""

    def run(self) -> _Result_co:
        """Do the work here and return its result."""
        ...


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: the deal's seed, one bot name per seat, the catalogue and bot options.

    >>> GameTask(seed=1, bots=("random",) * 3).run().reason in ("countdown", "all-pass")
    True
    """

    seed: int
    """The deal's seed (R14)."""
    bots: tuple[str, ...]
    """One registered bot name per seat."""
    catalogue: Catalogue | None = None
    """The Novel catalogue, ``None`` for the default one."""
    options: tuple[tuple[str, Any], ...] = ()
    """Bot options as ``(name, value)`` pairs (see :data:`~pastiche_core.ai.roster.BOT_OPTIONS`)."""
    max_decisions: int = DEFAULT_MAX_DECISIONS
    """The most decisions the game may take before it is stopped."""
    index: int = field(default=0, compare=False)
    """The game's number in its tournament, for putting results back in order."""

    def run(self) -> GameResult:
        """Play the game and return its result (:func:`~pastiche_core.ai.match.match_result`).

        >>> task = GameTask(seed=3, bots=("greedy", "random", "random"))
        >>> task.run() == task.run()
        True
        """
        return match_result(
            self.seed,
            self.bots,
            len(self.bots),
            self.catalogue,
            options=dict(self.options),
            max_decisions=self.max_decisions,
        )


def _run_task(task: Runnable[_Result]) -> _Result:
    """Module-level, so process pools and Ray find it by name in their workers."""
    return task.run()


def default_workers() -> int:
    """The CPUs this process may use (at least 1): the command line's default pool size.

    >>> default_workers() >= 1
    True
    """
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)  # pragma: no cover - platforms without affinity


def run_in_process(
    tasks: Sequence[Runnable[_Result]], progress: Progress | None = None
) -> list[_Result]:
    """Play every task here, one after the other.

    >>> len(run_in_process([GameTask(seed=s, bots=("random",) * 3) for s in range(2)]))
    2
    """
    results = []
    for done, task in enumerate(tasks, start=1):
        results.append(task.run())
        if progress is not None:
            progress(done, len(tasks))
    return results


def run_in_pool(
    tasks: Sequence[Runnable[_Result]], workers: int, progress: Progress | None = None
) -> list[_Result]:
    """Play the tasks in a pool of ``workers`` processes; results in task order.

    ``workers=1`` plays them in this process (no pool). The first game that
    fails cancels the rest and its error is raised here.

    >>> tasks = [GameTask(seed=s, bots=("random",) * 3) for s in range(2)]
    >>> run_in_pool(tasks, workers=1) == run_in_process(tasks)
    True
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise InvalidArgumentError(f"workers must be from 1 to {MAX_WORKERS}, got {workers!r}")
    if workers == 1 or len(tasks) <= 1:
        return run_in_process(tasks, progress)
    results: list[_Result | None] = [None] * len(tasks)
    queue = iter(enumerate(tasks))
    window = _IN_FLIGHT_PER_WORKER * workers
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        in_flight: dict[Future[_Result], int] = {}

        def fill() -> None:
            for index, task in itertools.islice(queue, window - len(in_flight)):
                in_flight[pool.submit(_run_task, task)] = index

        done_count = 0
        try:
            fill()
            while in_flight:
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    results[in_flight.pop(future)] = future.result()
                    done_count += 1
                    if progress is not None:
                        progress(done_count, len(tasks))
                fill()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [result for result in results if result is not None]


def ray_available() -> bool:
    """Whether the optional Ray extra is installed (without importing it).

    >>> isinstance(ray_available(), bool)
    True
    """
    return importlib.util.find_spec("ray") is not None


def _import_ray() -> Any:
    if not ray_available():
        raise InvalidArgumentError(
            "running games on Ray needs the optional extra: pip install 'pastiche-core[ray]'"
        )
    import ray

    return ray


def run_on_ray(
    tasks: Sequence[Runnable[_Result]],
    address: str | None = None,
    progress: Progress | None = None,
) -> list[_Result]:
    """Play each task as a Ray task; results in task order.

    If Ray is already initialised in this process, its instance is used and
    left running. Otherwise this connects to the cluster at ``address`` (for
    instance ``"auto"`` or ``"ray://head:10001"``) or, with ``address=None``,
    starts a local instance, and shuts it down at the end. Without the Ray
    extra, or when Ray cannot start or reach the cluster, it raises
    :class:`~pastiche_core.data.errors.InvalidArgumentError`. (Ray may retry a
    connection for a while before it gives up.) No task, no Ray:

    >>> run_on_ray([])
    []
    """
    if not tasks:
        return []
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level=logging.WARNING)
            else:
                ray.init(include_dashboard=False, logging_level=logging.WARNING)
        except Exception as error:  # Ray's own errors: connection, runtime, ...
            where = f"the Ray cluster at {quote(address)}" if address else "a local Ray instance"
            raise InvalidArgumentError(f"cannot start or reach {where}: {error}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(_run_task)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        window = _IN_FLIGHT_PER_WORKER * max(1, cpus)
        queue = iter(enumerate(tasks))
        in_flight: dict[Any, int] = {}
        results: list[_Result | None] = [None] * len(tasks)
        done_count = 0
        while True:
            for index, task in itertools.islice(queue, window - len(in_flight)):
                in_flight[remote.remote(task)] = index
            if not in_flight:
                break
            finished, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in finished:
                results[in_flight.pop(ref)] = ray.get(ref)
                done_count += 1
                if progress is not None:
                    progress(done_count, len(tasks))
        return [result for result in results if result is not None]
    finally:
        if started:
            ray.shutdown()
