"""SIGTERM while ``pastiche serve`` starts its workers ends it with one line, no traceback, and
no worker left behind; a worker whose server went away while it warmed up ends quietly. Child
processes only, every wait bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import asdict
from multiprocessing import get_context
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from pastiche_core.server import ServerLimits
from pastiche_core.server.workers import _worker_main, run_request


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _is_worker(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_sigterm_during_start_up_ends_with_one_line_and_no_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pastiche_core", "serve", "--port", "0", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2 and process.poll() is None:
            workers = [pid for pid in _children(process.pid) if _is_worker(pid)]
            time.sleep(0.01)
        assert len(workers) == 2, "the workers did not start"
        process.send_signal(signal.SIGTERM)  # the workers are still importing and warming up
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=10)
    text = err.decode()
    assert "Traceback" not in text, text
    assert "serving on" not in text  # the signal came during start-up
    assert text == "pastiche: interrupted\n"
    assert process.returncode == 130
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)


def test_a_worker_whose_server_went_away_while_it_warmed_up_ends_quietly() -> None:
    context = get_context("spawn")
    ours, theirs = context.Pipe(duplex=True)
    worker = context.Process(
        target=_worker_main, args=(theirs, asdict(ServerLimits()), 0, run_request), daemon=True
    )
    worker.start()
    theirs.close()
    ours.close()  # before the worker says it is ready
    worker.join(timeout=60)
    assert worker.exitcode == 0  # an uncaught BrokenPipeError would exit with 1
