"""Games in a database, one row each, committed with optimistic versions: SQLite here.

:class:`SqlStore` holds the SQL logic every database shares (sweeping, making
room, versioned commits, cache checks); a subclass gives the dialect: how to
connect, its error classes, its schema. :class:`SqliteStore` uses the standard
library's :mod:`sqlite3`; :class:`~pastiche_core.server.pg_store.PostgresStore`
uses psycopg.

A row's ``version`` is the number of moves it holds. A move is committed with
``UPDATE … WHERE id = ? AND version = ?``: when another server (or another store
on the same database) moved first, no row changes and :meth:`SqlStore.save`
raises :class:`~pastiche_core.server.store.StaleGameError`. Any database error
(a read-only or full disk, a lost connection) is a
:class:`~pastiche_core.server.store.StoreUnavailableError`, never a half-kept
move. A replayed game stays cached in memory and is reused only while its row's
version is the one it was read at, so servers sharing a database never answer
from a stale game.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .games import GameSession
from .store import (
    CLOCK_SLACK,
    ROW_COLUMNS,
    StaleGameError,
    StoreError,
    StoreUnavailableError,
    check_room,
    restore_row,
)

__all__ = ["SqlStore", "SqliteStore"]

log = logging.getLogger("pastiche_core.server")

Clock = Callable[[], float]

TOUCH_EVERY = 60.0
"""Seconds between two writes of a game's last-use time when it is only read."""

_COLUMNS = (
    "id, players, seed, catalogue, seats, tokens, moves, created, touched, client, over, version"
)


class SqlStore:
    """The SQL logic shared by the database stores; a subclass gives the connection.

    ``max_games`` unfinished games at most (see
    :func:`~pastiche_core.server.store.check_room`), each dropped after ``ttl``
    seconds idle; finished games kept ``record_ttl`` seconds idle, at most
    ``max_records`` of them (the least recently used go first); at most
    ``cached`` games kept replayed in memory.

    >>> SqlStore().errors
    ()
    """

    errors: tuple[type[BaseException], ...] = ()
    """The database's error classes: any of them is a
    :class:`~pastiche_core.server.store.StoreUnavailableError`."""
    where: str = "store"
    """How errors name the database (a file, or an address without its password)."""

    def __init__(
        self,
        *,
        max_games: int = 1_000,
        ttl: float = 6 * 3600.0,
        cached: int = 256,
        clock: Clock = time.time,
        max_records: int = 100_000,
        record_ttl: float = 30 * 86_400.0,
    ) -> None:
        self.max_games = max_games
        """The most unfinished games kept; past half of it one game per client, past it none."""
        self.ttl = ttl
        """Seconds a game in play nobody touches is kept."""
        self.max_records = max_records
        """The most finished games kept; past it the least recently used goes."""
        self.record_ttl = record_ttl
        """Seconds a finished game nobody touches is kept (its record stays readable)."""
        self.cached = cached
        """The most games kept replayed in memory; the others are replayed from their moves when
        asked for (R14)."""
        self.clock = clock
        """The wall clock, in seconds since the epoch (:func:`time.time` unless given)."""
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, GameSession] = OrderedDict()
        # Sessions still used by a request stay the one copy of their game.
        self._live: weakref.WeakValueDictionary[str, GameSession] = weakref.WeakValueDictionary()

    # -- the dialect -----------------------------------------------------------------------
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (``?`` placeholders), committed at once; returns a cursor."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise :class:`~pastiche_core.server.store.StoreUnavailableError` if the database
        cannot be used safely now; called before each piece of work."""

    def lost(self, error: BaseException) -> bool:
        """Whether ``error`` lost the connection (then it is made again and the work retried)."""
        return False

    def damaged_times(self) -> str:
        """The SQL condition of a row whose times are not numbers (besides out of range)."""
        return "FALSE"

    # -- shared logic ----------------------------------------------------------------------
    def _run(self, work: Callable[[], Any]) -> Any:
        """``work()`` under the database's errors: a lost connection is tried once more, any
        other error is a :class:`StoreUnavailableError`."""
        for attempt in (0, 1):
            try:
                self.check()
                return work()
            except self.errors as error:
                if attempt == 0 and self.lost(error):
                    continue
                raise StoreUnavailableError(f"{self.where}: {_first_line(error)}") from None
            except OSError as error:
                raise StoreUnavailableError(f"{self.where}: {error.strerror or error}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _drop(self, idents: Iterable[str]) -> None:
        gone = list(idents)
        for ident in gone:
            self.execute("DELETE FROM games WHERE id = ?", (ident,))
            self._forget(ident)

    def _forget(self, ident: str) -> None:
        self._cache.pop(ident, None)
        self._live.pop(ident, None)

    def _sweep(self, now: float) -> None:
        # A last-use time that is not a number from 0 to now (and a little) is damage: such a
        # row would never expire (1e308, NaN), so it goes with a warning.
        damaged = [
            row[0]
            for row in self.execute(
                f"SELECT id FROM games WHERE {self.damaged_times()} OR touched < 0 "
                "OR touched > ? OR created < 0 OR created > ?",
                (now + CLOCK_SLACK, now + CLOCK_SLACK),
            ).fetchall()
        ]
        for ident in damaged:
            log.warning(
                "stored game %r has no sane last-use time; the game is refused", str(ident)[:64]
            )
        self._drop(damaged)
        self._drop(
            row[0]
            for row in self.execute(
                "SELECT id FROM games WHERE (over = 0 AND touched < ?) OR (over <> 0 AND touched < ?)",
                (now - self.ttl, now - self.record_ttl),
            ).fetchall()
        )
        (finished,) = self.execute("SELECT COUNT(*) FROM games WHERE over <> 0").fetchone()
        if int(finished) > self.max_records:
            self._drop(
                row[0]
                for row in self.execute(
                    "SELECT id FROM games WHERE over <> 0 ORDER BY touched LIMIT ?",
                    (int(finished) - self.max_records,),
                ).fetchall()
            )

    def _check_room(self, client: str, now: float) -> None:
        (live, oldest) = self.execute(
            "SELECT COUNT(*), MIN(touched) FROM games WHERE over = 0"
        ).fetchone()
        mine = 0
        if client:  # a game without a client is a library's own: no share
            (mine,) = self.execute(
                "SELECT COUNT(*) FROM games WHERE over = 0 AND client = ?", (client,)
            ).fetchone()
        soonest = now if oldest is None else float(oldest) + self.ttl
        check_room(int(live), int(mine), self.max_games, soonest - now)

    def _remember(self, session: GameSession) -> None:
        self._cache[session.id] = session
        self._cache.move_to_end(session.id)
        self._live[session.id] = session
        while len(self._cache) > self.cached:
            self._cache.popitem(last=False)

    def room(self, client: str) -> None:
        """Raise what :meth:`add` would for a new game of ``client`` now, expired games dropped
        first (see :func:`~pastiche_core.server.store.check_room`)."""
        with self._lock:
            now = self.clock()

            def check() -> None:
                self._sweep(now)
                self._check_room(client, now)

            self._run(check)

    def add(self, session: GameSession) -> None:
        """Write the new game's row, after dropping expired games; refused when full.

        Past ``max_games`` games in play, or half of it for a client that keeps
        one, :func:`~pastiche_core.server.store.check_room` refuses it.
        """
        with self._lock:
            now = self.clock()
            game = session.game
            catalogue = "default" if game.catalogue.is_default else game.catalogue.to_dict()
            values = (
                session.id,
                game.players,
                game.seed,
                json.dumps(catalogue),
                json.dumps(list(session.seats)),
                json.dumps(list(session.tokens)),
                json.dumps([str(move) for move in game.history]),
                now,
                now,
                session.client,
                int(game.is_over),
                len(game.history),
            )

            def insert() -> None:
                self._sweep(now)
                self._check_room(session.client, now)
                # A retry after a lost connection may find its own row written: ids are random.
                self.execute(
                    f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (id) DO NOTHING",
                    values,
                )

            self._run(insert)
            session.created = session.touched = now
            session.version = len(game.history)
            self._remember(session)

    def get(self, game_id: str) -> GameSession | None:
        """The game at its row's version, from memory or replayed; ``None`` if unknown or expired.

        A cached game is reused only when its version is the row's.
        """
        with self._lock:
            now = self.clock()
            found = self._run(
                lambda: self.execute(
                    "SELECT version, touched, over FROM games WHERE id = ?", (game_id,)
                ).fetchone()
            )
            if found is None:
                self._forget(game_id)
                return None
            version, touched, over = found
            sane = _number(touched) and 0 <= touched <= now + CLOCK_SLACK  # else refused below
            if sane and now > touched + (self.record_ttl if over else self.ttl):
                self._run(lambda: self.execute("DELETE FROM games WHERE id = ?", (game_id,)))
                self._forget(game_id)
                return None
            session = self._cache.get(game_id) or self._live.get(game_id)
            if session is None or session.version != version:
                row = self._run(
                    lambda: self.execute(
                        f"SELECT {ROW_COLUMNS} FROM games WHERE id = ?", (game_id,)
                    ).fetchone()
                )
                if row is None:
                    return None
                try:
                    session = restore_row(game_id, tuple(row), now)
                except StoreError as error:
                    log.warning("%s; the game is refused", error)
                    return None
            if now - session.touched > TOUCH_EVERY:
                self._run(
                    lambda: self.execute(
                        "UPDATE games SET touched = ? WHERE id = ?", (now, game_id)
                    )
                )
            session.touched = now
            self._remember(session)
            return session

    def save(self, session: GameSession, expected: int) -> None:
        """Commit the game's moves if its row is still at version ``expected``.

        :class:`~pastiche_core.server.store.StaleGameError` when another server
        moved first (the game is dropped from the cache, so the next request
        reads it again); :class:`~pastiche_core.server.store.StoreUnavailableError`
        when the database fails. Either way nothing of this session is kept.
        """
        with self._lock:
            now = self.clock()
            moves = json.dumps([str(move) for move in session.game.history])
            version = len(session.game.history)

            def commit() -> bool:
                changed = self.execute(
                    "UPDATE games SET moves = ?, touched = ?, over = ?, version = ? "
                    "WHERE id = ? AND version = ?",
                    (moves, now, int(session.game.is_over), version, session.id, expected),
                ).rowcount
                if changed == 1:
                    return True
                # A retry after a lost connection may find its own commit already kept.
                row = self.execute(
                    "SELECT version, moves FROM games WHERE id = ?", (session.id,)
                ).fetchone()
                return row is not None and tuple(row) == (version, moves)

            if not self._run(commit):
                self._forget(session.id)
                raise StaleGameError(session.id, expected)
            session.touched = now
            session.version = version

    def live_games(self, client: str) -> int:
        """The unfinished games ``client`` created that are kept (not yet expired)."""
        with self._lock:
            (count,) = self._run(
                lambda: self.execute(
                    "SELECT COUNT(*) FROM games WHERE client = ? AND over = 0 AND touched >= ?",
                    (client, self.clock() - self.ttl),
                ).fetchone()
            )
            return int(count)

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._run(lambda: self.execute("SELECT COUNT(*) FROM games").fetchone())
            return int(count)

    def close(self) -> None:
        """Forget the cached games (a subclass closes its connection)."""
        with self._lock:
            self._cache.clear()


def _unwritable(name: str) -> str:
    """Why the file ``name`` cannot be opened for writing (``''`` if it can, or is missing)."""
    try:
        os.close(os.open(name, os.O_RDWR | os.O_APPEND))
    except FileNotFoundError:
        return ""
    except OSError as error:
        return error.strerror or str(error)
    return ""


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


SQLITE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    catalogue TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    moves TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL,
    client TEXT NOT NULL DEFAULT '',
    over INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS games_touched ON games (touched)",
)
"""The SQLite table of games, one row each."""
_ADDED_COLUMNS = (
    ("client", "ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT ''"),
    ("over", "ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0"),
    ("version", "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0"),
)
"""Columns a store file written before them lacks: added when it is opened."""
_VERSION_FROM_MOVES = (
    "UPDATE games SET version = json_array_length(moves) WHERE json_valid(moves) "
    "AND json_type(moves) = 'array'"
)


class SqliteStore(SqlStore):
    """Games in an SQLite file (stdlib :mod:`sqlite3`), one row each, replayed on demand.

    A row is written when a game is created and after every move, before the
    service answers, in write-ahead-log mode: a server killed at any moment
    loses no answered move, and several servers may share the file (each commit
    checks the row's version). A row read back is checked (players, seats, token
    hashes, catalogue, moves, times, version); one that fails is refused with a
    warning on the ``pastiche_core.server`` log and the game is answered as
    unknown. The file and its ``-wal`` and ``-shm`` companions must be writable:
    one that is not stops the start with a :class:`~pastiche_core.server.store.StoreError`,
    and later makes every request answer 503 (:meth:`check`).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "games.sqlite"
    ...     store = SqliteStore(path)
    ...     session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
    ...     store.add(session)
    ...     session.game.apply("keep MYT1 HOR7 HOR8"); store.save(session, 0)
    ...     store.close()
    ...     again = SqliteStore(path)
    ...     [str(move) for move in again.get("g").game.history]
    ...     again.close()
    ['keep MYT1 HOR7 HOR8']
    """

    errors = (sqlite3.Error,)

    def __init__(
        self,
        path: str | Path,
        max_games: int = 1_000,
        ttl: float = 6 * 3600.0,
        cached: int = 256,
        clock: Clock = time.time,
        *,
        max_records: int = 100_000,
        record_ttl: float = 30 * 86_400.0,
    ) -> None:
        super().__init__(
            max_games=max_games,
            ttl=ttl,
            cached=cached,
            clock=clock,
            max_records=max_records,
            record_ttl=record_ttl,
        )
        self.path = Path(path)
        """The SQLite file, created if missing (its folder must exist)."""
        self.where = f"store file {str(self.path)!r}"
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for statement in SQLITE_SCHEMA:
                self._db.execute(statement)
            present = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            for column, statement in _ADDED_COLUMNS:
                if column not in present:
                    self._db.execute(statement)
                    if column == "version":
                        self._db.execute(_VERSION_FROM_MOVES)
            self._check_writable()
        except sqlite3.Error as error:
            raise StoreError(f"{self.where}: {error}") from None
        except UnicodeDecodeError:  # sqlite's own message quotes the damaged bytes
            raise StoreError(f"{self.where}: damaged (its schema is not UTF-8 text)") from None

    def _check_writable(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            name = f"{self.path}{suffix}"
            problem = _unwritable(name)
            if problem:
                raise StoreError(f"{self.where}: {name!r} is not writable ({problem})")

    def check(self) -> None:
        """Refuse the work while the ``-shm`` file cannot be written.

        SQLite writes that file through a shared memory map; once it is made
        immutable (``chattr +i``) the next write to the map kills the process
        with SIGBUS, which no error handling can catch. Opening it for writing
        first (a few microseconds) turns that into a 503.
        """
        name = f"{self.path}-shm"
        problem = _unwritable(name)
        if problem:
            raise StoreUnavailableError(f"{self.where}: {name!r} is not writable ({problem})")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement on the file, committed at once; returns the cursor."""
        return self._db.execute(sql, params)

    def damaged_times(self) -> str:
        """Times stored as text or blobs, which SQLite's loose types let a damaged row hold."""
        return "typeof(touched) NOT IN ('integer', 'real') OR typeof(created) NOT IN ('integer', 'real')"

    def close(self) -> None:
        """Close the file."""
        super().close()
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"<SqliteStore {str(self.path)!r}, max {self.max_games}, ttl {self.ttl:g} s>"
