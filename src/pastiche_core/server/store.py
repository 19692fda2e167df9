"""Where the service keeps its games: in memory, or in an SQLite file that survives restarts.

Both stores keep at most ``max_games`` games and drop a game nobody has
touched for ``ttl`` seconds; a new game beyond the cap drops the game left
alone longest (least recently used). :class:`SqliteStore` writes one row per
game — players, seed, catalogue, seat kinds, token hashes (never the tokens)
and the move list — before the service answers, and replays a game from its
moves when it is asked for after a restart (R14).

>>> from pastiche_core.server.games import GameSession
>>> store = MemoryStore(max_games=2)
>>> for name in ("a", "b", "c"):
...     store.add(GameSession.start(name, players=3, seed=1, seats=("human",) * 3))
>>> store.get("a") is None, store.get("c").id, len(store)
(True, 'c', 2)
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..catalogue import SHIPPED_CATALOGUES, Catalogue
from ..errors import PasticheError
from ..record import GameRecord
from .games import GameSession

__all__ = ["GameStore", "MemoryStore", "SqliteStore", "StoreError"]

Clock = Callable[[], float]


class StoreError(PasticheError):
    """A store file that cannot be opened or read as the service's game store.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     SqliteStore(pathlib.Path(folder) / "missing" / "games.sqlite")
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreError: store file '...games.sqlite': unable to open database file
    """


@runtime_checkable
class GameStore(Protocol):
    """What the service needs from a store of games.

    >>> isinstance(MemoryStore(), GameStore)
    True
    """

    def add(self, session: GameSession) -> None:
        """Keep a new game (dropping others past the cap)."""
        ...

    def get(self, game_id: str) -> GameSession | None:
        """The game with this id, or ``None`` (unknown, dropped or expired)."""
        ...

    def save(self, session: GameSession) -> None:
        """Record the game's moves; called before the service answers a move."""
        ...

    def __len__(self) -> int:
        """The number of games kept."""
        ...

    def close(self) -> None:
        """Release the store's resources."""
        ...


class MemoryStore:
    """Games in memory, least recently used first out, expiring after ``ttl`` seconds idle.

    >>> store = MemoryStore(ttl=60.0, clock=lambda: 1000.0)
    >>> store.add(GameSession.start("g", players=3, seed=1, seats=("human",) * 3))
    >>> store.clock = lambda: 1061.0
    >>> store.get("g") is None
    True
    """

    def __init__(
        self, max_games: int = 1_000, ttl: float = 6 * 3600.0, clock: Clock = time.time
    ) -> None:
        self.max_games = max_games
        """The most games kept; a new game beyond drops the one left alone longest."""
        self.ttl = ttl
        """Seconds a game nobody touches is kept."""
        self.clock = clock
        """The wall clock, in seconds since the epoch (:func:`time.time` unless given)."""
        self._games: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    def _sweep(self, now: float) -> None:
        while self._games:
            oldest = next(iter(self._games.values()))
            if now - oldest.touched <= self.ttl:
                break
            self._games.popitem(last=False)

    def add(self, session: GameSession) -> None:
        """Keep ``session``, dropping expired games and the least recently used past the cap."""
        with self._lock:
            now = self.clock()
            session.touched = now
            self._sweep(now)
            self._games[session.id] = session
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> GameSession | None:
        """The game, touched now; ``None`` if unknown or expired."""
        with self._lock:
            now = self.clock()
            self._sweep(now)
            session = self._games.get(game_id)
            if session is None:
                return None
            session.touched = now
            self._games.move_to_end(game_id)
            return session

    def save(self, session: GameSession) -> None:
        """Nothing to write: the game lives in memory."""
        session.touched = self.clock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def close(self) -> None:
        """Forget every game."""
        with self._lock:
            self._games.clear()

    def __repr__(self) -> str:
        return f"<MemoryStore {len(self)} games, max {self.max_games}, ttl {self.ttl:g} s>"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    catalogue TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    moves TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_touched ON games (touched);
"""
_TOUCH_EVERY = 60.0
"""Seconds between two writes of a game's last-use time when it is only read."""


class SqliteStore:
    """Games in an SQLite file (stdlib :mod:`sqlite3`), one row each, replayed on demand.

    At most ``cached`` games stay replayed in memory. A row is written when a
    game is created and after every move, before the service answers, in
    write-ahead-log mode: a server killed at any moment loses no answered move.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "games.sqlite"
    ...     store = SqliteStore(path)
    ...     session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
    ...     store.add(session)
    ...     session.game.apply("keep MYT1 HOR7 HOR8"); store.save(session)
    ...     store.close()
    ...     again = SqliteStore(path)
    ...     [str(move) for move in again.get("g").game.history]
    ...     again.close()
    ['keep MYT1 HOR7 HOR8']
    """

    def __init__(
        self,
        path: str | Path,
        max_games: int = 1_000,
        ttl: float = 6 * 3600.0,
        cached: int = 256,
        clock: Clock = time.time,
    ) -> None:
        self.path = Path(path)
        """The SQLite file, created if missing (its folder must exist)."""
        self.max_games = max_games
        """The most games kept; a new game beyond drops the one left alone longest."""
        self.ttl = ttl
        """Seconds a game nobody touches is kept."""
        self.cached = cached
        """The most games kept replayed in memory; the others are replayed from their moves when
        asked for (R14)."""
        self.clock = clock
        """The wall clock, in seconds since the epoch (:func:`time.time` unless given)."""
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, GameSession] = OrderedDict()
        # Sessions still used by a request stay the one copy of their game.
        self._live: weakref.WeakValueDictionary[str, GameSession] = weakref.WeakValueDictionary()
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"store file {str(self.path)!r}: {error}") from None

    def _sweep(self, now: float) -> None:
        cutoff = now - self.ttl
        gone = [
            row[0] for row in self._db.execute("SELECT id FROM games WHERE touched < ?", (cutoff,))
        ]
        excess = self._count() - len(gone) - self.max_games
        if excess > 0:
            gone += [
                row[0]
                for row in self._db.execute(
                    "SELECT id FROM games WHERE touched >= ? ORDER BY touched LIMIT ?",
                    (cutoff, excess),
                )
            ]
        if gone:
            self._db.executemany("DELETE FROM games WHERE id = ?", [(ident,) for ident in gone])
            for ident in gone:
                self._cache.pop(ident, None)
                self._live.pop(ident, None)

    def _count(self) -> int:
        (count,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(count)

    def _remember(self, session: GameSession) -> None:
        self._cache[session.id] = session
        self._cache.move_to_end(session.id)
        self._live[session.id] = session
        while len(self._cache) > self.cached:
            self._cache.popitem(last=False)

    def add(self, session: GameSession) -> None:
        """Write the new game's row, then drop expired games and the oldest past the cap."""
        with self._lock:
            now = self.clock()
            session.created = session.touched = now
            game = session.game
            catalogue = "default" if game.catalogue.is_default else game.catalogue.to_dict()
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session.id,
                    game.players,
                    game.seed,
                    json.dumps(catalogue),
                    json.dumps(list(session.seats)),
                    json.dumps(list(session.tokens)),
                    json.dumps([str(move) for move in game.history]),
                    now,
                    now,
                ),
            )
            self._sweep(now)
            self._remember(session)

    def get(self, game_id: str) -> GameSession | None:
        """The game, from memory or replayed from its row; ``None`` if unknown or expired."""
        with self._lock:
            now = self.clock()
            session = self._cache.get(game_id) or self._live.get(game_id)
            if session is None:
                row = self._db.execute(
                    "SELECT players, seed, catalogue, seats, tokens, moves, created, touched "
                    "FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                if row is None:
                    return None
                session = _restore(game_id, row)
            if now - session.touched > self.ttl:
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
                self._cache.pop(game_id, None)
                self._live.pop(game_id, None)
                return None
            if now - session.touched > _TOUCH_EVERY:
                self._db.execute("UPDATE games SET touched = ? WHERE id = ?", (now, game_id))
            session.touched = now
            self._remember(session)
            return session

    def save(self, session: GameSession) -> None:
        """Write the game's moves (and its last-use time)."""
        with self._lock:
            now = self.clock()
            session.touched = now
            moves = json.dumps([str(move) for move in session.game.history])
            self._db.execute(
                "UPDATE games SET moves = ?, touched = ? WHERE id = ?", (moves, now, session.id)
            )

    def __len__(self) -> int:
        with self._lock:
            return self._count()

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._cache.clear()
            self._db.close()

    def __repr__(self) -> str:
        return f"<SqliteStore {str(self.path)!r}, max {self.max_games}, ttl {self.ttl:g} s>"


def _restore(game_id: str, row: tuple[Any, ...]) -> GameSession:
    players, seed, catalogue_text, seats, tokens, moves, created, touched = row
    try:
        data = json.loads(catalogue_text)
        catalogue = SHIPPED_CATALOGUES[data] if isinstance(data, str) else Catalogue.from_dict(data)
        record = GameRecord(int(players), int(seed), catalogue, tuple(json.loads(moves)))
        return GameSession.restore(
            game_id,
            record,
            json.loads(seats),
            json.loads(tokens),
            created=float(created),
            touched=float(touched),
        )
    except (ValueError, TypeError, KeyError) as error:
        raise StoreError(f"stored game {game_id!r} cannot be replayed: {error}") from None
