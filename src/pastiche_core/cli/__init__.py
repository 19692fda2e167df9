"""The ``pastiche`` command line.

Usage: ``pastiche simulate --players 4 --games 1000 --seed 1 [--json]``,
``pastiche publishes POSITION.json [--json] [--engine fast|cpsat] ...``,
``pastiche serve [--host H] [--port P] [--stdio]`` and
``pastiche tournament --bots greedy,random,random,random --games 200 [--json] ...``
(also ``python -m pastiche_core ...``); ``pastiche --version`` prints the version
and whether the compiled kernels are in use. Every error in the input prints one line,
``pastiche: error: ...``, on stderr and exits with status 2.

Subcommands are :class:`Command` entries of :data:`COMMANDS`: a name, a help
line, a function adding the subcommand's arguments to its parser, and a function
running it. Adding a subcommand is writing those two functions and listing a
new :class:`Command`.

>>> main(["simulate", "--players", "3", "--games", "1", "--seed", "4", "--json"])
{
  "catalogue": "default",
  ...
0
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .._version import __version__
from ..engine._kernels import compiled_kernels
from ..solver.queries import ENGINES
from .commands import COMMANDS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PROG, Command
from .progress import Eta, ProgressBar

__all__ = [
    "COMMANDS",
    "ENGINES",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "PROG",
    "Command",
    "Eta",
    "ProgressBar",
    "build_parser",
    "main",
]


class _UsageError(Exception):
    """Raised by the parser instead of printing usage and exiting."""


class _ParserExitError(Exception):
    """Raised by the parser instead of calling :func:`sys.exit` (after ``--help``)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so :func:`main` returns."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _ParserExitError(status)


def _version_line() -> str:
    """What ``pastiche --version`` prints: the version, and whether the compiled kernels answer.

    The same answers come either way; the line says which, so a slow install (one
    built without a C compiler) shows itself.

    >>> _version_line().startswith(f"{PROG} {__version__} (compiled kernels: ")
    True
    """
    report = compiled_kernels()
    state = "in use" if report.available else f"off: {report.reason}"
    return f"{PROG} {__version__} (compiled kernels: {state})"


class _VersionAction(argparse.Action):
    """``--version``: print :func:`_version_line` and stop, status 0 (before any subcommand)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        # Printed as it is: argparse's own version action would rewrap a long reason.
        print(_version_line())
        parser.exit(EXIT_OK)


def build_parser(commands: Sequence[Command] = COMMANDS) -> argparse.ArgumentParser:
    """The argument parser with one subparser per command.

    >>> args = build_parser().parse_args(["simulate", "--players", "5"])
    >>> args.command, args.players, args.games
    ('simulate', 5, 100)
    """
    parser = _Parser(
        prog=PROG, description="Pastiche: The Birth of a Masterpiece — rules engine tools."
    )
    parser.add_argument(
        "--version",
        action=_VersionAction,
        help="print the version and whether the compiled kernels are in use, and exit",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        command.configure(sub)
        sub.set_defaults(run=command.run)
    return parser


_ERROR_LINE_LIMIT = 400
"""The most characters of a message an error line shows."""


def _error_line(message: object) -> str:
    """The one printable line that reports ``message``, whatever it holds.

    Line breaks become spaces; control characters, lone surrogates and every
    other unprintable character are escaped; a long message is cut.

    >>> _error_line("bad\\nmove '\\x1b[2J\\ud800'")
    "pastiche: error: bad move '\\\\x1b[2J\\\\ud800'"
    >>> len(_error_line("x" * 10_000)) < 500
    True
    """
    text = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    shown: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch.isprintable() else ascii(ch)[1:-1]
        if size + len(piece) > _ERROR_LINE_LIMIT:
            shown.append(f"... ({len(text):,} characters)")
            break
        shown.append(piece)
        size += len(piece)
    return f"{PROG}: error: {''.join(shown) or 'unknown error'}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    Bad input prints one ``pastiche: error: ...`` line on stderr and returns 2,
    also when the input is nested too deeply or too large to hold in memory.

    With no argument at all it prints the usage and the commands on stdout, and the one
    error line.

    >>> main(["simulate", "--players", "7"])
    2
    """
    parser = build_parser()
    given = list(argv) if argv is not None else sys.argv[1:]
    if not given:  # a first try: show what there is to run, not only what is missing
        print(parser.format_help(), end="")
        return _fail("no command given: choose one of the commands above")
    try:
        args = parser.parse_args(given)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except _ParserExitError as done:
        return done.status
    except (_UsageError, ValueError) as error:
        # ValueError covers every PasticheError, and the few errors Python raises on bad text.
        return _fail(str(error))
    except RecursionError:
        return _fail("the input is nested too deeply to read")
    except MemoryError:
        return _fail("the input is too large to hold in memory")
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _fail(message: str) -> int:
    print(_error_line(message), file=sys.stderr)
    return EXIT_USAGE
