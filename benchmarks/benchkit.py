"""What the benchmark scripts share: pinning to one CPU, aligned text tables, the server
process a service benchmark starts (its memory, its stop), and a random game of the
PettingZoo environment.

The scripts run as ``python benchmarks/bench_x.py``, so this module is found
beside them.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any


def pin_one_core(cpu: int | None) -> str:
    """Pin the process to ``cpu`` (default: the lowest allowed CPU), where the OS allows.

    Returns how the process now runs, for the benchmark's header line.

    >>> pin_one_core(-1)
    'not pinned'
    """
    if cpu is not None and cpu < 0:
        return "not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (unsupported)"
    chosen = min(os.sched_getaffinity(0)) if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen}"


def aligned(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, first_left: bool = False
) -> str:
    """Columns right-aligned, a rule under the header; ``first_left`` left-aligns the first
    column of the rows.

    >>> print(aligned(["bot", "n"], [["greedy", "12"]], first_left=True))
       bot   n
    ------  --
    greedy  12
    """
    lines = [list(header), *[list(row) for row in rows]]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        cells = [cell.rjust(width) for cell, width in zip(line, widths, strict=True)]
        if first_left and index:
            cells[0] = line[0].ljust(widths[0])
        out.append("  ".join(cells))
        if index == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def process_memory_kib(pid: int, *fields: str) -> list[int]:
    """The named fields of a Linux process's memory status (``VmRSS``, ``VmHWM``...), in KiB."""
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in fields:
            found[name] = int(value.split()[0])
    missing = [field for field in fields if field not in found]
    if missing:
        raise SystemExit(f"no {', '.join(missing)} for process {pid}")
    return [found[field] for field in fields]


def stop_process(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Terminate ``process``, killing it if it has not ended within ``timeout`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


def random_env_game(game_env: Any, seed: int) -> Iterator[None]:
    """One game of a PettingZoo environment dealt from ``seed``, each decision a random legal
    action from its observation's mask (``random.Random(seed)``); yields after each decision.

    It reads only the environment's interface, so it plays any checkout's environment.
    """
    import numpy as np

    game_env.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in game_env.agent_iter():
        observation, _, terminated, truncated, _ = game_env.last()
        if terminated or truncated or observation is None:
            game_env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game_env.step(int(legal[rng.randrange(len(legal))]))
        yield


def package_module(path: str, before: str) -> Any:
    """``pastiche_core.<path>``, or ``pastiche_core.<before>`` in a checkout from before the
    layer folders: ``bench_ab.py`` runs one script against two checkouts."""
    try:
        return importlib.import_module(f"pastiche_core.{path}")
    except ModuleNotFoundError:
        return importlib.import_module(f"pastiche_core.{before}")
