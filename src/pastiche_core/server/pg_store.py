"""Games in PostgreSQL (psycopg 3), shared by any number of servers.

``pastiche serve --store postgresql://user@host/db`` keeps its games here; it
needs the ``postgres`` extra (``pip install 'pastiche-core[postgres]'``), which
is imported only when such a store is opened. The SQL logic, the row checks and
the guarantees are :class:`~pastiche_core.server.sql_store.SqlStore`'s: every
move committed with ``UPDATE … WHERE id = %s AND version = %s`` before it is
answered (another server's move first: 409), every database error a 503 with
nothing kept. One connection per store, guarded by the store's lock: a lost
connection is made again on the next request (which is tried once more on
the new connection, so the first request after the database is back succeeds).

>>> PostgresStore.shown("postgresql://me:secret@db.example:5432/games")
'postgresql://me@db.example:5432/games'
"""

from __future__ import annotations

import contextlib
import time
import urllib.parse
from collections.abc import Sequence
from typing import Any

from .sql_store import Clock, SqlStore
from .store import StoreError

__all__ = ["PG_SCHEMA", "PostgresStore"]

PG_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    players BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    catalogue TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    moves TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    touched DOUBLE PRECISION NOT NULL,
    client TEXT NOT NULL DEFAULT '',
    over INTEGER NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS games_touched ON games (touched)",
    "CREATE INDEX IF NOT EXISTS games_client ON games (client, over)",
)
"""The PostgreSQL table of games: the SQLite one's columns, typed."""
CONNECT_TIMEOUT = 5
"""Seconds to wait for the database when connecting."""
STATEMENT_TIMEOUT_MS = 10_000
"""Milliseconds a statement may run (a locked row waits no longer)."""


class PostgresStore(SqlStore):
    """Games in a PostgreSQL database, one row each, replayed on demand (R14).

    ``url`` is a ``postgresql://`` (or ``postgres://``) address; the table is
    created if missing. A database that cannot be reached at the start raises
    :class:`~pastiche_core.server.store.StoreError` naming the address
    (without its password). See :class:`~pastiche_core.server.sql_store.SqlStore`
    for the other settings.

    >>> PostgresStore("mysql://nowhere")
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreError: store 'mysql://nowhere': expected a postgresql:// address
    """

    def __init__(
        self,
        url: str,
        *,
        max_games: int = 1_000,
        ttl: float = 6 * 3600.0,
        cached: int = 256,
        clock: Clock = time.time,
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
        self.url = url
        """The database's address, as given (it may hold a password: never shown)."""
        self.where = f"store {self.shown(url)!r}"
        if not url.startswith(("postgresql://", "postgres://")):
            raise StoreError(f"{self.where}: expected a postgresql:// address")
        try:
            import psycopg
        except ImportError as error:
            raise StoreError(
                f"{self.where}: PostgreSQL needs the postgres extra: "
                f"pip install 'pastiche-core[postgres]' ({error})"
            ) from None
        self._psycopg = psycopg
        self.errors = (psycopg.Error,)
        self._db: Any = None
        try:
            for statement in PG_SCHEMA:
                self.execute(statement)
        except psycopg.Error as error:
            self._disconnect()
            first = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise StoreError(f"{self.where}: {first[:200]}") from None

    @staticmethod
    def shown(url: str) -> str:
        """``url`` without its password, to name the database in errors and logs."""
        try:
            parts = urllib.parse.urlsplit(url)
            if parts.password is None:
                return url
            host = parts.hostname or ""
            user = f"{parts.username}@" if parts.username else ""
            port = f":{parts.port}" if parts.port else ""
            netloc = f"{user}{host}{port}"
            return urllib.parse.urlunsplit(
                (parts.scheme, netloc, parts.path, parts.query, parts.fragment)
            )
        except ValueError:
            return "postgresql://…"

    def _connection(self) -> Any:
        if self._db is None or self._db.closed or self._db.broken:
            self._disconnect()
            self._db = self._psycopg.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
            self._db.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        return self._db

    def _disconnect(self) -> None:
        if self._db is not None:
            with contextlib.suppress(self._psycopg.Error):
                self._db.close()
            self._db = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (autocommit), connecting first if needed; returns the cursor."""
        return self._connection().execute(sql.replace("?", "%s"), tuple(params))

    def lost(self, error: BaseException) -> bool:
        """Whether the connection is gone (then it is dropped, and made again on the retry)."""
        broken = self._db is None or self._db.closed or self._db.broken
        if broken or isinstance(error, self._psycopg.OperationalError):
            self._disconnect()
            return True
        return False

    def damaged_times(self) -> str:
        """Times that are not finite (``NaN`` compares above every number in PostgreSQL)."""
        return "touched = 'NaN' OR created = 'NaN'"

    def close(self) -> None:
        """Close the connection."""
        super().close()
        with self._lock:
            self._disconnect()

    def __repr__(self) -> str:
        return f"<PostgresStore {self.shown(self.url)!r}, max {self.max_games}, ttl {self.ttl:g} s>"
