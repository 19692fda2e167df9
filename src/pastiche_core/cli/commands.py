"""The subcommands of the ``pastiche`` command line: each one's arguments and its run.

Every subcommand is a :class:`Command` of :data:`COMMANDS`: a name, a help
line, a function adding its arguments to its parser, and a function running it
(:func:`pastiche_core.cli.main` parses and dispatches).

>>> [command.name for command in COMMANDS]
['simulate', 'publishes', 'serve', 'tournament', 'hint', 'outs', 'review']
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..bots.simulate import simulate
from ..data._text import quote, too_long
from ..data.cards import Card, format_cards, parse_cards
from ..data.catalogue import load_catalogue
from ..data.errors import PasticheError
from ..data.limits import CLI_MAX_OPTIONS, DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS
from ..solver.options import Constraints
from ..solver.position import Position
from ..solver.queries import ENGINES, solve
from ..solver.report import format_report, stop_note
from .arguments import int_range, load_publish_query
from .outs_command import configure_outs, run_outs
from .progress import add_progress_option, fit_to_terminal, progress_bar, terminal_columns

__all__ = ["COMMANDS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "PROG", "Command"]

PROG = "pastiche"
"""The program name used in usage lines and error messages."""

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: ``configure`` adds its arguments, ``run`` executes it.

    ``run(args)`` gets the parsed arguments, writes to ``sys.stdout`` and
    ``sys.stderr``, and returns the exit status; it may raise :class:`ValueError`
    (every pastiche_core error is one) to report bad input.

    >>> [command.name for command in COMMANDS]
    ['simulate', 'publishes', 'serve', 'tournament', 'hint', 'outs', 'review']
    """

    name: str
    """The subcommand's name on the command line: ``pastiche NAME``."""
    help: str
    """The one-line description that ``pastiche --help`` lists and the subcommand's own ``--help``
    opens with."""
    configure: Callable[[argparse.ArgumentParser], None]
    """Adds the subcommand's arguments to its :class:`argparse.ArgumentParser`."""
    run: Callable[[argparse.Namespace], int]
    """Runs the subcommand on the parsed arguments and returns the exit status (0 on success)."""


def _configure_simulate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int_range("players", MIN_PLAYERS, MAX_PLAYERS, " (R10)"),
        default=4,
        help=f"seats per game, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4)",
    )
    parser.add_argument(
        "--games", type=int_range("games", 1), default=100, help="games to play (default 100)"
    )
    parser.add_argument(
        "--seed", type=int_range("seed"), default=0, help="seed of the whole run (default 0)"
    )
    parser.add_argument(
        "--catalogue",
        default="default",
        metavar="default|PATH.toml",
        help="the Novel catalogue: 'default' or a TOML file (default 'default')",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the summary as JSON (deterministic; default: a table)",
    )
    add_progress_option(parser)


def _run_simulate(args: argparse.Namespace) -> int:
    catalogue = load_catalogue(args.catalogue)
    bar = progress_bar(args)
    try:
        summary = simulate(args.players, args.games, args.seed, catalogue, progress=bar)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(summary.to_dict(), sort_keys=True, indent=2))
    else:
        print(fit_to_terminal(summary.format()))
    return EXIT_OK


# ----------------------------------------------------------------------
# publishes
# ----------------------------------------------------------------------
_SEATS = re.compile(r"[\s,;]+")


def _positive_seconds(text: str) -> float:
    # ASCII and short: float() would take '١' and '1_0', and quote any length back.
    try:
        if len(text) > 32 or not text.isascii() or "_" in text:
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"time limit must be a number of seconds, got {quote(text)}"
        ) from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"time limit must be more than 0 seconds, got {quote(text)}"
        )
    if value > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(
            f"time limit must be at most {MAX_TIME_LIMIT:g} seconds, got {quote(text)}"
        )
    return value


def _card_list(text: str) -> frozenset[Card]:
    try:
        return frozenset(parse_cards(text))
    except PasticheError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seat_list(text: str) -> frozenset[int]:
    if too_long(text):
        raise argparse.ArgumentTypeError(f"expected player seats such as '1,2', got {quote(text)}")
    seats = set()
    for token in _SEATS.split(text.strip()):
        if not token:
            continue
        if not token.isascii() or not token.isdigit():
            raise argparse.ArgumentTypeError(
                f"expected player seats such as '1,2', got {quote(token)} in {quote(text)}"
            )
        if len(token) > 1 or int(token) >= MAX_PLAYERS:
            raise argparse.ArgumentTypeError(
                f"player seats are 0 to {MAX_PLAYERS - 1} (R10), got {quote(token)}"
            )
        seats.add(int(token))
    return frozenset(seats)


def _configure_publishes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        metavar="POSITION.json",
        help="a position (see the package's position.schema.json), a player's view "
        "(pastiche-view) or a game state (pastiche-state, seen by --player); '-' reads stdin",
    )
    parser.add_argument(
        "--player",
        type=int_range("player", 0, MAX_PLAYERS - 1, " (R10)"),
        metavar="N",
        help="whose options they are: for a state, only that player's view of it is used "
        "(default: the player to move); checked against a view or a position",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the report as JSON (deterministic; see publishes.schema.json; "
        "default: a table)",
    )
    parser.add_argument(
        "--engine", choices=ENGINES, default="fast", help="the search engine (default fast)"
    )
    parser.add_argument(
        "--card-level",
        action="store_true",
        help="list options per physical card rather than per distinct option (R8; fast engine; "
        "default: per distinct option)",
    )
    parser.add_argument(
        "--time-limit",
        type=_positive_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds the whole search may take (default {DEFAULT_TIME_LIMIT:g}); "
        "an answer cut short says so",
    )
    parser.add_argument(
        "--max-options",
        type=int_range("max options", 0),
        default=CLI_MAX_OPTIONS,
        metavar="N",
        help=f"list at most N options (default {CLI_MAX_OPTIONS:,}); every novel is still "
        "counted and its Pareto front found",
    )
    group = parser.add_argument_group(
        "constraints", "each replaces the same constraint of the position file, if any"
    )
    group.add_argument(
        "--keep",
        type=_card_list,
        metavar="CARDS",
        help="cards to keep in hand, neither played nor given, e.g. 'SCI9,MYT6' "
        "(default: the position's, else none)",
    )
    group.add_argument(
        "--no-cite",
        type=_seat_list,
        metavar="P,..",
        help="players whose Masterpieces must not be cited, e.g. '1,2' "
        "(default: the position's, else none)",
    )
    group.add_argument(
        "--max-gifts",
        type=int_range("max gifts", 0),
        metavar="N",
        help="at most N cards given away (default: the position's, else no limit)",
    )
    group.add_argument(
        "--min-points",
        type=int_range("min points", 0),
        metavar="N",
        help="only Novels worth at least N points (default: the position's, else any)",
    )


def _constraints(position: Position, given: Constraints, args: argparse.Namespace) -> Constraints:
    """The position file's constraints with the command line's replacing theirs."""
    keep = given.keep if args.keep is None else args.keep
    missing = sorted(keep - set(position.hand))
    if args.keep is not None and missing:
        raise ValueError(f"argument --keep: {format_cards(missing)} not in the hand")
    return Constraints(
        keep=keep,
        no_cite=given.no_cite if args.no_cite is None else args.no_cite,
        max_gifts=given.max_gifts if args.max_gifts is None else args.max_gifts,
        min_points=given.min_points if args.min_points is None else args.min_points,
    )


def _run_publishes(args: argparse.Namespace) -> int:
    position, given = load_publish_query(args.position, args.player)
    constraints = _constraints(position, given, args)
    report = solve(
        position,
        engine=args.engine,
        constraints=constraints,
        card_level=args.card_level,
        time_limit=args.time_limit,
        max_options=args.max_options,
    )
    if args.json:
        print(json.dumps(report.to_dict(), sort_keys=True, indent=2))
        if report.stopped_by == "time_limit":  # the JSON says so too; a person may be watching
            print(f"{PROG}: {stop_note(report)}", file=sys.stderr)
    else:
        print(format_report(report, width=terminal_columns()))
    return EXIT_OK


# ----------------------------------------------------------------------
# serve
# ----------------------------------------------------------------------
def _configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int_range("port", 0, 65535),
        default=8000,
        help="the port to listen on (default 8000; 0 picks a free one)",
    )
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="speak JSON-RPC 2.0 on standard input and output, one message per line, "
        "instead of HTTP (default: HTTP)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="do not log a line per request (default: log them on standard error)",
    )
    parser.add_argument(
        "--store",
        metavar="FILE|URL",
        help="keep games in this SQLite file, or in PostgreSQL given a postgresql:// "
        "address, so a restarted server loses none and several servers may share them "
        "(default: in memory)",
    )
    parser.add_argument(
        "--max-games",
        type=int_range("max games", 1),
        default=1000,
        metavar="N",
        help="games in play kept at most; one per client past half (default 1,000)",
    )
    parser.add_argument(
        "--game-ttl",
        type=_positive_seconds,
        default=6 * 3600.0,
        metavar="S",
        help="seconds after which a game nobody touched is dropped (default 21,600: 6 hours)",
    )
    parser.add_argument(
        "--time-limit",
        type=_positive_seconds,
        default=2.0,
        metavar="S",
        help="seconds one publishes search may take unless the request asks for less "
        "(default 2, at most 10)",
    )
    parser.add_argument(
        "--answer-cache",
        type=int_range("answer cache", 0, 4096),
        default=16,
        metavar="MIB",
        help="MiB of publishes answers kept for bodies asked again (default 16; 0: none)",
    )
    heavy = parser.add_argument_group(
        "worker processes", "hints and publishes run in warm worker processes"
    )
    heavy.add_argument(
        "--workers",
        type=int_range("workers", 0),
        default=2,
        metavar="N",
        help="worker processes (default 2; 0: run them in the server's threads)",
    )
    heavy.add_argument(
        "--queue",
        type=int_range("queue", 0),
        default=8,
        metavar="N",
        help="requests that may wait for a busy worker (default 8; 503 beyond)",
    )
    heavy.add_argument(
        "--worker-memory",
        type=int_range("worker memory", 0),
        default=512,
        metavar="MIB",
        help="address space of each worker (default 512; 0: no cap; 503 when a request runs out)",
    )
    heavy.add_argument(
        "--client-share",
        type=int_range("client share", 1),
        default=1,
        metavar="N",
        help="hint and publishes requests one client has running or waiting (default 1; "
        "429 beyond)",
    )
    heavy.add_argument(
        "--heavy-queue",
        type=int_range("heavy queue", 0),
        default=4,
        metavar="N",
        help="requests longer than the default time limit or budget that may wait, apart "
        "from --queue (default 4; 503 beyond)",
    )
    clients = parser.add_argument_group(
        "clients and connections", "a client is its address (see --trust-proxy)"
    )
    clients.add_argument(
        "--client-games",
        type=int_range("client games", 1),
        default=10,
        metavar="N",
        help="unfinished games one client keeps at once (default 10; 429 beyond)",
    )
    clients.add_argument(
        "--client-creations",
        type=int_range("client creations", 1),
        default=20,
        metavar="N",
        help="games one client may create a minute (default 20; 429 beyond)",
    )
    clients.add_argument(
        "--client-connections",
        type=int_range("client connections", 1),
        default=32,
        metavar="N",
        help="connections one client address holds at once (default 32; 503 beyond); "
        "behind a reverse proxy, the proxy's share",
    )
    clients.add_argument(
        "--header-timeout",
        type=_positive_seconds,
        default=5.0,
        metavar="S",
        help="seconds a request's headers may take to arrive (default 5; 408, then closed)",
    )
    clients.add_argument(
        "--keep-alive",
        type=_positive_seconds,
        default=5.0,
        metavar="S",
        help="seconds an idle connection is kept between requests (default 5)",
    )
    clients.add_argument(
        "--body-timeout",
        type=_positive_seconds,
        default=30.0,
        metavar="S",
        help="seconds a request body may take to arrive (default 30; 408, then closed)",
    )
    clients.add_argument(
        "--trust-proxy",
        type=_proxy_addresses,
        metavar="ADDRESSES",
        help="reverse proxies (comma-separated addresses) whose X-Forwarded-For names the "
        "client; by default the client is the connection's peer",
    )


def _proxy_addresses(text: str) -> str:
    """The proxies ``--trust-proxy`` names; never every address (``*``, ``0.0.0.0/0``), with
    which any client could claim to be any other.

    >>> _proxy_addresses("10.0.0.2, 10.0.0.3")
    '10.0.0.2, 10.0.0.3'
    >>> _proxy_addresses("10.0.0.2,*")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '*' trusts every address: name the proxies' addresses
    """
    for entry in (part.strip() for part in text.split(",")):
        if entry in ("*", "0.0.0.0/0", "::/0"):
            raise argparse.ArgumentTypeError(
                f"{quote(entry)} trusts every address: name the proxies' addresses"
            )
    return text


@contextlib.contextmanager
def _terminate_interrupts() -> Iterator[None]:
    """SIGTERM, while the block runs, interrupts it as Ctrl-C does: the workers starting are
    stopped and the command ends with one line (uvicorn handles SIGTERM once it serves).

    >>> with _terminate_interrupts():
    ...     signal.getsignal(signal.SIGTERM) is _interrupt
    True
    >>> signal.getsignal(signal.SIGTERM) is _interrupt
    False
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; a thread's caller keeps its own
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run_serve(args: argparse.Namespace) -> int:
    try:
        from ..server import PoolSettings, ServerLimits, make_service, serve, serve_stdio
    except ImportError as error:  # the server extra is not installed
        raise ValueError(
            f"pastiche serve needs the server extra: pip install 'pastiche-core[server]' ({error})"
        ) from None
    limits = ServerLimits(
        max_games=args.max_games,
        game_ttl=args.game_ttl,
        time_limit=min(args.time_limit, 10.0),
        answer_cache_bytes=args.answer_cache * 2**20,
        client_games=args.client_games,
        client_creations=args.client_creations,
        client_connections=args.client_connections,
        header_timeout=args.header_timeout,
        keep_alive=args.keep_alive,
        body_time_limit=args.body_timeout,
    )
    if args.time_limit > limits.max_time_limit:
        raise ValueError(
            f"argument --time-limit: at most {limits.max_time_limit:g} seconds, "
            f"got {args.time_limit:g}"
        )
    pool = None
    if args.workers:
        pool = PoolSettings(
            workers=args.workers,
            queue=args.queue,
            memory_mb=args.worker_memory,
            client_share=args.client_share,
            heavy_queue=args.heavy_queue,
        )
    try:
        with _terminate_interrupts():
            service = make_service(store_path=args.store, limits=limits, pool=pool)
    except OSError as error:
        raise ValueError(str(error)) from None
    if args.stdio:
        try:
            serve_stdio(service, sys.stdin.buffer, sys.stdout)
        finally:
            service.close()
        return EXIT_OK
    try:
        serve(
            service,
            host=args.host,
            port=args.port,
            trust_proxy=args.trust_proxy,
            quiet=args.quiet,
        )
    except OSError as error:
        raise ValueError(str(error)) from None
    except ImportError as error:
        raise ValueError(
            f"pastiche serve needs the server extra: pip install 'pastiche-core[server]' ({error})"
        ) from None
    return EXIT_OK


# ----------------------------------------------------------------------
# tournament
# ----------------------------------------------------------------------
def _bot_list(text: str) -> list[str]:
    from ..ai.roster import check_bot_names

    if too_long(text):
        raise argparse.ArgumentTypeError(
            f"expected bot names such as 'greedy,random', got {quote(text)}"
        )
    names = [name.strip() for name in text.split(",")]
    try:
        checked = check_bot_names(names)
    except PasticheError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not MIN_PLAYERS <= len(checked) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"expected one bot per seat, {MIN_PLAYERS} to {MAX_PLAYERS} names (R10), "
            f"got {len(checked)} in {quote(text)}"
        )
    return list(checked)


def _configure_tournament(parser: argparse.ArgumentParser) -> None:
    from ..ai.roster import BOTS, MAX_BUDGET_MS
    from ..ai.runners import MAX_WORKERS
    from ..ai.search import DEFAULT_BUDGET_MS
    from ..ai.tournament import MAX_TOURNAMENT_GAMES

    parser.add_argument(
        "--bots",
        type=_bot_list,
        required=True,
        metavar="NAME,NAME,...",
        help=f"one bot per seat, 3 to 5 names among {', '.join(BOTS)}; seats rotate game "
        "by game so each bot plays every seat",
    )
    parser.add_argument(
        "--games",
        type=int_range("games", 1, MAX_TOURNAMENT_GAMES),
        default=100,
        help=f"games to play, at most {MAX_TOURNAMENT_GAMES:,} (default 100)",
    )
    parser.add_argument(
        "--seed", type=int_range("seed"), default=0, help="seed of the whole run (default 0)"
    )
    parser.add_argument(
        "--budget-ms",
        type=int_range("budget ms", 1, MAX_BUDGET_MS),
        metavar="N",
        help="thinking budget per decision for the bots that search, turned into a fixed number "
        "of simulations so results do not depend on the machine (the other bots ignore it; "
        f"default: each bot's own, {DEFAULT_BUDGET_MS} ms for search)",
    )
    parser.add_argument(
        "--catalogue",
        default="default",
        metavar="default|PATH.toml",
        help="the Novel catalogue: 'default' or a TOML file (default 'default')",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int_range("workers", 1, MAX_WORKERS),
        metavar="K",
        help="local worker processes (default: one per CPU; 1 plays in this process)",
    )
    where.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the games as Ray tasks: on a local instance, or on the cluster at ADDRESS "
        "(needs the 'ray' extra; default: local processes, see --workers)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON, the same for a seed however run (default: a table)",
    )
    parser.add_argument(
        "--cpu-times",
        action="store_true",
        help="add each bot's CPU seconds and the games' total to the JSON; they vary from run "
        "to run, so the document is then no longer the same for a seed (default: left out)",
    )
    add_progress_option(parser)


def _run_tournament(args: argparse.Namespace) -> int:
    from ..ai.runners import default_workers
    from ..ai.tournament import run_tournament

    catalogue = load_catalogue(args.catalogue)
    options = {} if args.budget_ms is None else {"budget_ms": args.budget_ms}
    bar = progress_bar(args, lines=True)  # games take seconds: show them from the start
    bar(0, args.games)
    try:
        result = run_tournament(
            args.bots,
            args.games,
            args.seed,
            catalogue=catalogue,
            options=options,
            workers=args.workers if args.workers is not None else default_workers(),
            backend="process" if args.ray is None else "ray",
            address=args.ray or None,
            progress=bar,
        )
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result.to_dict(cpu=args.cpu_times), indent=2))
    else:
        print(fit_to_terminal(result.format()))
    return EXIT_OK


# ----------------------------------------------------------------------
# hint
# ----------------------------------------------------------------------
def _configure_hint(parser: argparse.ArgumentParser) -> None:
    from ..ai.analyse import MAX_SEED
    from ..ai.search import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, MAX_SIMULATIONS

    parser.add_argument(
        "file",
        metavar="FILE.json",
        help="a player's view (pastiche-view) or a game state (pastiche-state, with --player); "
        "'-' reads stdin",
    )
    parser.add_argument(
        "--player",
        type=int_range("player", 0, MAX_PLAYERS - 1, " (R10)"),
        metavar="N",
        help="whose hint it is: needed for a state, of which only that player's view is used "
        "(default: the view's player)",
    )
    parser.add_argument(
        "--budget-ms",
        type=int_range("budget", 1, MAX_BUDGET_MS),
        default=DEFAULT_BUDGET_MS,
        metavar="N",
        help=f"milliseconds of thinking, 1 to {MAX_BUDGET_MS:,} (default {DEFAULT_BUDGET_MS}); "
        "turned into a fixed number of simulations, the time being only a ceiling",
    )
    parser.add_argument(
        "--simulations",
        type=int_range("simulations", 1, MAX_SIMULATIONS),
        metavar="N",
        help="run N simulations instead of the number the budget buys (the budget stays the "
        "ceiling; default: what the budget buys)",
    )
    parser.add_argument(
        "--seed",
        type=int_range("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="the analysis seed (default 0): same input and seed, same output",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the pastiche-hint document (see the package's hint.schema.json; "
        "default: a table)",
    )


def _run_hint(args: argparse.Namespace) -> int:
    from ..ai.analyse import analyse, load_view

    view = load_view(args.file, player=args.player)
    analysis = analyse(view, budget_ms=args.budget_ms, seed=args.seed, simulations=args.simulations)
    print(analysis.to_json() if args.json else analysis.format(width=terminal_columns()))
    return EXIT_OK


# ----------------------------------------------------------------------
# review
# ----------------------------------------------------------------------
def _configure_review(parser: argparse.ArgumentParser) -> None:
    from ..ai.analyse import MAX_SEED
    from ..ai.search import MAX_SIMULATIONS

    parser.add_argument("record", metavar="RECORD.json", help="a game record (pastiche-record)")
    parser.add_argument(
        "--player",
        type=int_range("player", 0, MAX_PLAYERS - 1, " (R10)"),
        metavar="N",
        help="the seat to review (default: every seat)",
    )
    parser.add_argument(
        "--simulations",
        type=int_range("simulations", 1, MAX_SIMULATIONS),
        default=64,
        metavar="N",
        help=f"simulations of each search, 1 to {MAX_SIMULATIONS:,} (default 64)",
    )
    parser.add_argument(
        "--seed",
        type=int_range("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="the review seed (default 0): same record and seed, same output",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the pastiche-review document (see review.schema.json; default: text)",
    )


def _run_review(args: argparse.Namespace) -> int:
    from .review import run_review

    return run_review(args)


COMMANDS: tuple[Command, ...] = (
    Command(
        "simulate",
        "play many random games and summarise wins, scores and endings",
        _configure_simulate,
        _run_simulate,
    ),
    Command(
        "publishes",
        "list every publish option of a position (JSON) and the Pareto fronts",
        _configure_publishes,
        _run_publishes,
    ),
    Command(
        "serve",
        "serve publish options, hints and games over HTTP (or JSON-RPC on stdio), "
        "with a web table at /",
        _configure_serve,
        _run_serve,
    ),
    Command(
        "tournament",
        "play bots against each other, seats rotated; win rates with confidence intervals",
        _configure_tournament,
        _run_tournament,
    ),
    Command(
        "hint",
        "rank the moves of a player's decision with win chances and explanations (search)",
        _configure_hint,
        _run_hint,
    ),
    Command(
        "outs",
        "how close each Novel is: cards still needed, the unseen cards that help, the odds",
        configure_outs,
        run_outs,
    ),
    Command(
        "review",
        "review a recorded game: each decision's win chance against the best (search)",
        _configure_review,
        _run_review,
    ),
)
"""The subcommands, in the order ``--help`` lists them."""
