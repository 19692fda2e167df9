"""What the command line shows on a terminal while it works, and how wide its lines may be.

:class:`ProgressBar` draws a long run's progress (with its :class:`Eta`) on
stderr when that is a terminal, and plain lines otherwise;
:func:`fit_to_terminal` cuts a table's lines to the terminal's width.

>>> Eta(10, clock=lambda: 0.0).text()
'estimating the time left'
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from ..data._text import fit_line

__all__ = [
    "Eta",
    "ProgressBar",
    "add_progress_option",
    "fit_to_terminal",
    "progress_bar",
    "terminal_columns",
]


class Eta:
    """The time left of a run of games, from the games finished and the time they took.

    At each finished game the rate is measured again (seconds so far per game
    finished) and the time left is that rate times the games to go; between two
    finished games it counts down. Before the first game ends there is no
    estimate. ``clock`` returns seconds (:func:`time.monotonic` unless a test
    gives a fake one).

    >>> now = [0.0]
    >>> eta = Eta(10, clock=lambda: now[0])
    >>> eta.text()
    'estimating the time left'
    >>> now[0] = 4.0; eta.update(2)
    >>> eta.left(), eta.text()
    (16.0, 'about 16 s left')
    >>> now[0] = 10.0; eta.left()
    10.0
    >>> now[0] = 30.0; eta.update(5); eta.text()
    'about 30 s left'
    """

    def __init__(self, total: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        """The games of the run."""
        self.done = 0
        """The games finished so far."""
        self._clock = clock
        self._start = clock()
        self._at = self._start

    def update(self, done: int, total: int | None = None) -> None:
        """Record ``done`` games finished (of ``total``, if it changed)."""
        if total is not None:
            self.total = total
        if done > self.done:
            self.done = done
            self._at = self._clock()

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return self._clock() - self._start

    def left(self) -> float | None:
        """Seconds left, ``None`` before the first game ends; 0 once every game has."""
        if self.done >= self.total:
            return 0.0
        if self.done <= 0:
            return None
        rate = (self._at - self._start) / self.done
        return max(0.0, rate * (self.total - self.done) - (self._clock() - self._at))

    def text(self) -> str:
        """The time left in words: ``'about 1 min 20 s left'``."""
        left = self.left()
        if left is None:
            return "estimating the time left"
        if self.done >= self.total:
            return "done"
        return f"about {_duration(left)} left"


def _duration(seconds: float) -> str:
    """``seconds`` for a person: ``'45 s'``, ``'3 min 05 s'``, ``'2 h 04 min'``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class ProgressBar:
    """A progress bar of games on a terminal stream, drawn by rich.

    In automatic mode (``force=False``) it draws only when ``stream`` is a
    terminal and the run has lasted ``delay`` seconds, so short runs stay
    silent; ``force=True`` draws on any stream from the start. rich is imported
    only once a bar is drawn.

    >>> import io
    >>> out = io.StringIO()
    >>> bar = ProgressBar(out, force=True, width=10)
    >>> bar(5, 10); bar(10, 10); bar.close()
    >>> "10/10 games" in out.getvalue()
    True
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        force: bool = False,
        width: int = 30,
        delay: float = 0.5,
        lines: bool = False,
        clock: Callable[[], float] = time.monotonic,
        unit: str = "games",
    ) -> None:
        self.unit = unit
        """What the bar counts (``'games'``; ``'decisions'`` for a review)."""
        self.stream = stream
        """The stream the bar is drawn on (standard error for ``pastiche simulate``)."""
        self.width = width
        """The width of the bar itself, in characters."""
        self.force = force
        """Whether the bar is drawn on any stream from the start, not only on a terminal after
        ``delay``."""
        self.delay = 0.0 if force else delay
        """Seconds the run must last before the bar appears (0 when ``force``)."""
        self.enabled = force or _is_tty(stream)
        """Whether the bar may be drawn at all: ``force``, or ``stream`` is a terminal."""
        self.lines = lines and not self.enabled
        """Whether a line per finished game is written instead (a stream that is no terminal)."""
        self.eta = Eta(0, clock=clock)
        """The estimate of the time left, updated as games finish."""
        self._start = clock()
        self._clock = clock
        self._progress: Any = None
        self._task: Any = None
        self._done = 0

    def __call__(self, done: int, total: int) -> None:
        """Report ``done`` of ``total`` games finished."""
        self.eta.update(done, total)
        if self.lines:
            if done > self._done:
                self._done = done
                print(
                    f"game {done}/{total} done, {_duration(self.eta.elapsed())} so far, "
                    f"{self.eta.text()}",
                    file=self.stream,
                    flush=True,
                )
            return
        if not self.enabled or self._clock() - self._start < self.delay:
            return
        if self._progress is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                ProgressColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.text import Text

            eta = self.eta

            class EtaColumn(ProgressColumn):
                """The time left from the games finished (rich's own waits for a steady speed)."""

                def render(self, task: Any) -> Text:
                    return Text(eta.text(), style="progress.remaining")

            tty = _is_tty(self.stream)
            console = Console(
                file=self.stream,
                force_terminal=self.force or None,
                color_system="auto" if tty else None,  # no colour codes in a log file
            )
            self._progress = Progress(
                BarColumn(bar_width=self.width),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TimeElapsedColumn(),
                EtaColumn(),
                console=console,
                transient=False,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.unit, total=total)
        self._progress.update(self._task, completed=done, total=total)

    def close(self) -> None:
        """Finish the bar's line, if one was drawn."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ----------------------------------------------------------------------
# simulate
# ----------------------------------------------------------------------
def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress`` for the commands that play many games."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: on a terminal, without --json, "
        "for runs longer than half a second)",
    )


def progress_bar(args: argparse.Namespace, lines: bool = False) -> ProgressBar:
    """The bar ``--progress`` asks for: by default on a terminal and never with ``--json``;
    with ``lines``, a line per finished game when standard error is no terminal."""
    if args.progress is None:
        bar = ProgressBar(
            sys.stderr, force=False, delay=0.0 if lines else 0.5, lines=lines and not args.json
        )
        bar.enabled = bar.enabled and not args.json
    else:
        bar = ProgressBar(sys.stderr, force=args.progress)
        bar.enabled = args.progress
    return bar


def fit_to_terminal(text: str) -> str:
    """``text`` with each line fitted to the terminal's width (:func:`terminal_columns`), if any."""
    width = terminal_columns()
    if width is None:
        return text
    return "\n".join(fit_line(line, width) for line in text.splitlines())


def terminal_columns() -> int | None:
    """The width tables must fit: ``COLUMNS`` if set, else the terminal's; ``None`` (the whole
    table) when the output goes to a file or a pipe."""
    if os.environ.get("COLUMNS", "").isdigit() or sys.stdout.isatty():
        return shutil.get_terminal_size((80, 24)).columns
    return None
