"""Where the service keeps its games: in memory, or in an SQLite file that survives restarts.

Both stores keep at most ``max_games`` games. A game nobody has touched for
``ttl`` seconds is dropped, a finished one after ``finished_ttl`` seconds.
When the store is full, finished games make room first (least recently used
first); if none is finished, :meth:`GameStore.add` refuses the new game with
:class:`StoreFullError`: a game in play is never dropped for someone else's.
:class:`SqliteStore` writes one row per game — players, seed, catalogue,
seat kinds, token hashes (never the tokens), the creating client and the
move list — before the service answers, and replays a game from its moves
when it is asked for after a restart (R14). A row is checked as it is read,
like any other input: one that does not hold up is refused with a log line.

>>> from pastiche_core.server.games import GameSession
>>> store = MemoryStore(max_games=2)
>>> for name in ("a", "b"):
...     store.add(GameSession.start(name, players=3, seed=1, seats=("human",) * 3))
>>> store.add(GameSession.start("c", players=3, seed=1, seats=("human",) * 3))
Traceback (most recent call last):
...
pastiche_core.server.store.StoreFullError: the service keeps 2 games, the most max_games allows, none of them finished; try again in 3600 seconds
>>> store.get("a").id, len(store)
('a', 2)
"""

from __future__ import annotations

import json
import logging
import math
import re
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..data.catalogue import SHIPPED_CATALOGUES, Catalogue
from ..data.errors import PasticheError
from ..engine.game import check_deal
from ..engine.rules import RULEBOOK, Rules, rules_of
from ..io import jsontext
from ..io.record import GameRecord
from .games import BOTS, HUMAN, GameSession

__all__ = ["GameStore", "MemoryStore", "SqliteStore", "StoreError", "StoreFullError"]

log = logging.getLogger("pastiche_core.server")

Clock = Callable[[], float]

_FINISHED_TTL = 900.0
_MAX_RETRY_AFTER = 3600


class StoreError(PasticheError):
    """A store file that cannot be opened or read as the service's game store.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     SqliteStore(pathlib.Path(folder) / "missing" / "games.sqlite")
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreError: store file '...games.sqlite': unable to open database file
    """


class StoreFullError(StoreError):
    """A new game refused: the store keeps ``max_games`` games and none of them is finished.

    ``retry_after`` is the number of seconds until the first game expires (at
    most an hour); the service answers 503 with it as ``Retry-After``.

    >>> StoreFullError(10, 30.2).retry_after
    31
    """

    def __init__(self, max_games: int, seconds: float) -> None:
        self.retry_after = max(1, min(_MAX_RETRY_AFTER, math.ceil(seconds)))
        """Seconds until a game expires and makes room, at least 1 and at most 3,600."""
        super().__init__(
            f"the service keeps {max_games:,} games, the most max_games allows, none of them "
            f"finished; try again in {self.retry_after} seconds"
        )


@runtime_checkable
class GameStore(Protocol):
    """What the service needs from a store of games.

    >>> isinstance(MemoryStore(), GameStore)
    True
    """

    def add(self, session: GameSession) -> None:
        """Keep a new game; finished games make room past the cap, else :class:`StoreFullError`."""
        ...

    def get(self, game_id: str) -> GameSession | None:
        """The game with this id, or ``None`` (unknown, dropped, expired or refused)."""
        ...

    def save(self, session: GameSession) -> None:
        """Record the game's moves; called before the service answers a move."""
        ...

    def live_games(self, client: str) -> int:
        """The number of unfinished games kept that ``client`` created."""
        ...

    def __len__(self) -> int:
        """The number of games kept."""
        ...

    def close(self) -> None:
        """Release the store's resources."""
        ...


def _expires(session: GameSession, ttl: float, finished_ttl: float) -> float:
    """When ``session`` expires if nobody touches it, on the store's clock."""
    return session.touched + (finished_ttl if session.game.is_over else ttl)


class MemoryStore:
    """Games in memory, expiring after ``ttl`` seconds idle (finished ones after ``finished_ttl``).

    >>> store = MemoryStore(ttl=60.0, clock=lambda: 1000.0)
    >>> store.add(GameSession.start("g", players=3, seed=1, seats=("human",) * 3))
    >>> store.clock = lambda: 1061.0
    >>> store.get("g") is None
    True
    """

    def __init__(
        self,
        max_games: int = 1_000,
        ttl: float = 6 * 3600.0,
        clock: Clock = time.time,
        finished_ttl: float = _FINISHED_TTL,
    ) -> None:
        self.max_games = max_games
        """The most games kept; past it finished games make room, else a new game is refused."""
        self.ttl = ttl
        """Seconds a game nobody touches is kept."""
        self.finished_ttl = finished_ttl
        """Seconds a finished game nobody touches is kept."""
        self.clock = clock
        """The wall clock, in seconds since the epoch (:func:`time.time` unless given)."""
        self._games: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    def _sweep(self, now: float) -> None:
        # Least recently used first: nothing after the first game within both
        # clocks can be past the longer one.
        gone = []
        for ident, session in self._games.items():
            if now - session.touched <= min(self.ttl, self.finished_ttl):
                break
            if now > _expires(session, self.ttl, self.finished_ttl):
                gone.append(ident)
        for ident in gone:
            del self._games[ident]

    def _make_room(self, now: float) -> None:
        finished = (ident for ident, session in self._games.items() if session.game.is_over)
        excess = len(self._games) - self.max_games + 1
        for ident in [ident for ident, _ in zip(finished, range(excess), strict=False)]:
            del self._games[ident]
        if len(self._games) >= self.max_games:
            soonest = min(_expires(s, self.ttl, self.finished_ttl) for s in self._games.values())
            raise StoreFullError(self.max_games, soonest - now)

    def add(self, session: GameSession) -> None:
        """Keep ``session``; past the cap finished games go first, else :class:`StoreFullError`."""
        with self._lock:
            now = self.clock()
            self._sweep(now)
            if len(self._games) >= self.max_games:
                self._make_room(now)
            session.touched = now
            self._games[session.id] = session

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
        """Nothing to write: the game lives in memory (it is touched now)."""
        with self._lock:
            session.touched = self.clock()
            if session.id in self._games:
                self._games.move_to_end(session.id)

    def live_games(self, client: str) -> int:
        """The unfinished games ``client`` created that are kept.

        >>> store = MemoryStore()
        >>> store.add(GameSession.start("g", players=3, seed=1, seats=("human",) * 3, client="a"))
        >>> store.live_games("a"), store.live_games("b")
        (1, 0)
        """
        with self._lock:
            self._sweep(self.clock())
            return sum(
                1
                for session in self._games.values()
                if session.client == client and not session.game.is_over
            )

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
    touched REAL NOT NULL,
    client TEXT NOT NULL DEFAULT '',
    over INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_touched ON games (touched);
"""
_ADDED_COLUMNS = (
    ("client", "ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT ''"),
    ("over", "ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0"),
)
"""Columns a store file written before them lacks: added when it is opened."""
_TOUCH_EVERY = 60.0
"""Seconds between two writes of a game's last-use time when it is only read."""
_CLOCK_SLACK = 86_400.0
"""Seconds a stored time may lie ahead of the clock (a clock set back) before the row is
taken as damaged."""


class SqliteStore:
    """Games in an SQLite file (stdlib :mod:`sqlite3`), one row each, replayed on demand.

    At most ``cached`` games stay replayed in memory. A row is written when a
    game is created and after every move, before the service answers, in
    write-ahead-log mode: a server killed at any moment loses no answered move.
    A row read back is checked (players, seats, token hashes, catalogue,
    moves); one that fails is refused with a warning on the
    ``pastiche_core.server`` log and the game is answered as unknown.

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
        finished_ttl: float = _FINISHED_TTL,
    ) -> None:
        self.path = Path(path)
        """The SQLite file, created if missing (its folder must exist)."""
        self.max_games = max_games
        """The most games kept; past it finished games make room, else a new game is refused."""
        self.ttl = ttl
        """Seconds a game nobody touches is kept."""
        self.finished_ttl = finished_ttl
        """Seconds a finished game nobody touches is kept."""
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
            present = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            for column, statement in _ADDED_COLUMNS:
                if column not in present:
                    self._db.execute(statement)
        except sqlite3.Error as error:
            raise StoreError(f"store file {str(self.path)!r}: {error}") from None
        except UnicodeDecodeError:  # sqlite's own message quotes the damaged bytes
            raise StoreError(
                f"store file {str(self.path)!r}: damaged (its schema is not UTF-8 text)"
            ) from None

    def _drop(self, idents: Iterable[str]) -> None:
        gone = list(idents)
        if gone:
            self._db.executemany("DELETE FROM games WHERE id = ?", [(ident,) for ident in gone])
            for ident in gone:
                self._cache.pop(ident, None)
                self._live.pop(ident, None)

    def _sweep(self, now: float) -> None:
        # A last-use time that is not a number from 0 to now (and a little) is damage: such a
        # row would never expire (1e308, NaN read back as NULL), so it goes with a warning.
        damaged = [
            row[0]
            for row in self._db.execute(
                "SELECT id FROM games WHERE typeof(touched) NOT IN ('integer', 'real') "
                "OR touched < 0 OR touched > ? OR typeof(created) NOT IN ('integer', 'real') "
                "OR created < 0 OR created > ?",
                (now + _CLOCK_SLACK, now + _CLOCK_SLACK),
            )
        ]
        for ident in damaged:
            log.warning(
                "stored game %r has no sane last-use time; the game is refused", str(ident)[:64]
            )
        self._drop(damaged)
        self._drop(
            row[0]
            for row in self._db.execute(
                "SELECT id FROM games WHERE touched < ? OR (over AND touched < ?)",
                (now - self.ttl, now - self.finished_ttl),
            )
        )

    def _make_room(self, now: float) -> None:
        excess = self._count() - self.max_games + 1
        self._drop(
            row[0]
            for row in self._db.execute(
                "SELECT id FROM games WHERE over ORDER BY touched LIMIT ?", (excess,)
            ).fetchall()
        )
        if self._count() >= self.max_games:
            (oldest,) = self._db.execute("SELECT MIN(touched) FROM games").fetchone()
            raise StoreFullError(self.max_games, float(oldest) + self.ttl - now)

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
        """Write the new game's row, after dropping expired games and making room.

        Past the cap the least recently used finished games go; if none is
        finished, :class:`StoreFullError`.
        """
        with self._lock:
            now = self.clock()
            self._sweep(now)
            if self._count() >= self.max_games:
                self._make_room(now)
            session.created = session.touched = now
            game = session.game
            catalogue = "default" if game.catalogue.is_default else game.catalogue.to_dict()
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    session.client,
                    int(game.is_over),
                ),
            )
            self._remember(session)

    def get(self, game_id: str) -> GameSession | None:
        """The game, from memory or replayed from its row; ``None`` if unknown or expired."""
        with self._lock:
            now = self.clock()
            session = self._cache.get(game_id) or self._live.get(game_id)
            if session is None:
                row = self._db.execute(
                    "SELECT players, seed, catalogue, seats, tokens, moves, created, touched, "
                    "client FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                if row is None:
                    return None
                try:
                    session = _restore(game_id, row, now)
                except StoreError as error:
                    log.warning("%s; the game is refused", error)
                    return None
            if now > _expires(session, self.ttl, self.finished_ttl):
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
                "UPDATE games SET moves = ?, touched = ?, over = ? WHERE id = ?",
                (moves, now, int(session.game.is_over), session.id),
            )

    def live_games(self, client: str) -> int:
        """The unfinished games ``client`` created that are kept (not yet expired)."""
        with self._lock:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM games WHERE client = ? AND NOT over AND touched >= ?",
                (client, self.clock() - self.ttl),
            ).fetchone()
            return int(count)

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


_TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


def _check_row(
    players: object, seats: object, tokens: object, rules: Rules = RULEBOOK
) -> tuple[list[str], list[Any]]:
    """The seats and token hashes of a stored row, checked like a request's."""
    check_deal(players, 0, rules)  # R10: the seats of the game's catalogue's rules
    if not isinstance(seats, list) or len(seats) != players:
        raise ValueError(f"seats must be a list of {players} seat kinds")
    for index, kind in enumerate(seats):
        if kind != HUMAN and not (isinstance(kind, str) and kind in BOTS):
            names = ", ".join(repr(name) for name in (HUMAN, *BOTS))
            raise ValueError(f"unknown seat {str(kind)[:40]!r} at seats[{index}]: expected {names}")
    if not isinstance(tokens, list) or len(tokens) != players:
        raise ValueError(f"tokens must be a list of {players} token hashes or nulls")
    for index, (kind, token) in enumerate(zip(seats, tokens, strict=True)):
        if token is None:
            continue  # a seat without a token: nobody opens it
        if kind != HUMAN or not (isinstance(token, str) and _TOKEN_HASH.fullmatch(token)):
            raise ValueError(f"tokens[{index}] must be a SHA-256 for a human seat, null for a bot")
    return seats, tokens


def _restore(game_id: str, row: tuple[Any, ...], now: float) -> GameSession:
    players, seed, catalogue_text, seats, tokens, moves, created, touched, client = row
    try:
        # The library's reader bounds the depth: a row nested 100,000 deep is refused, not a
        # RecursionError.
        data = jsontext.loads(catalogue_text, expected="a catalogue")
        catalogue = SHIPPED_CATALOGUES[data] if isinstance(data, str) else Catalogue.from_dict(data)
        rules = rules_of(catalogue)
        seat_kinds, hashes = _check_row(
            players, jsontext.loads(seats), jsontext.loads(tokens), rules
        )
        for name, time_value in (("created", created), ("touched", touched)):
            if not (isinstance(time_value, int | float) and not isinstance(time_value, bool)):
                raise ValueError(f"{name} must be a time in seconds")
            if not 0 <= time_value <= now + _CLOCK_SLACK:  # False for NaN
                raise ValueError(f"{name} must be a time from 0 to now, got {time_value!r}")
        record = GameRecord(int(players), int(seed), catalogue, tuple(jsontext.loads(moves)))
        return GameSession.restore(
            game_id,
            record,
            seat_kinds,
            hashes,
            created=float(created),
            touched=float(touched),
            client=str(client),
        )
    except (ValueError, TypeError, KeyError, PasticheError) as error:
        raise StoreError(f"stored game {game_id[:64]!r} cannot be replayed: {error}") from None
