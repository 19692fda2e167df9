"""What the benchmark scripts share: pinning to one CPU and aligned text tables.

The scripts run as ``python benchmarks/bench_x.py``, so this module is found
beside them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence


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
