"""Where the service keeps its games: in memory, or in a database that survives restarts.

A store keeps at most ``max_games`` unfinished games. A game in play nobody has
touched for ``ttl`` seconds is dropped; a game in play is never dropped to make
room for someone else's. When unfinished games reach half of ``max_games``, a
client that already keeps one may not create another (:class:`StoreShareError`,
429); at ``max_games`` every new game is refused (:class:`StoreFullError`, 503),
so a crowd of new addresses cannot lock every new player out. Finished games do
not count against ``max_games``: their records stay readable for ``record_ttl``
seconds idle, at most ``max_records`` of them (the least recently used go first).

Every change is committed with :meth:`GameStore.save` against the version the
session was read at (:attr:`~pastiche_core.server.games.GameSession.version`):
another server that moved first makes it raise :class:`StaleGameError`, and a
failing database :class:`StoreUnavailableError`; the service then rolls the
session back, so a refused move is never applied and an answered one never
lost. The database stores live in :mod:`~pastiche_core.server.sql_store`
(SQLite) and :mod:`~pastiche_core.server.pg_store` (PostgreSQL); a row read
back is checked like any other input (:func:`restore_row`).

>>> from pastiche_core.server.games import GameSession
>>> store = MemoryStore(max_games=2)
>>> for name in ("a", "b"):
...     store.add(GameSession.start(name, players=3, seed=1, seats=("human",) * 3, client=name))
>>> store.add(GameSession.start("c", players=3, seed=1, seats=("human",) * 3))
Traceback (most recent call last):
...
pastiche_core.server.store.StoreFullError: the service keeps 2 games in play, the most max_games allows; try again in 3600 seconds
>>> store.get("a").id, len(store)
('a', 2)
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..data.catalogue import SHIPPED_CATALOGUES, Catalogue
from ..data.errors import PasticheError
from ..engine.game import check_deal
from ..engine.rules import RULEBOOK, Rules, rules_of
from ..io import jsontext
from ..io.record import GameRecord
from .games import BOTS, HUMAN, GameSession

__all__ = [
    "GameStore",
    "MemoryStore",
    "StaleGameError",
    "StoreError",
    "StoreFullError",
    "StoreShareError",
    "StoreUnavailableError",
    "restore_row",
]

Clock = Callable[[], float]

MAX_RETRY_AFTER = 3600
"""The longest ``Retry-After`` a full store gives, in seconds."""
SHARE_RETRY_AFTER = 60
"""The ``Retry-After`` of a creation refused by client share, in seconds."""
CLOCK_SLACK = 86_400.0
"""Seconds a stored time may lie ahead of the clock (a clock set back) before the row is
taken as damaged."""


class StoreError(PasticheError):
    """A store that cannot be opened or read as the service's game store.

    >>> import tempfile, pathlib
    >>> from pastiche_core.server.sql_store import SqliteStore
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     SqliteStore(pathlib.Path(folder) / "missing" / "games.sqlite")
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreError: store file '...games.sqlite': unable to open database file
    """


class StoreFullError(StoreError):
    """A new game refused: the store keeps ``max_games`` games in play.

    ``retry_after`` is the number of seconds until the first game expires (at
    most an hour); the service answers 503 with it as ``Retry-After``.

    >>> StoreFullError(10, 30.2).retry_after
    31
    """

    def __init__(self, max_games: int, seconds: float) -> None:
        self.retry_after = max(1, min(MAX_RETRY_AFTER, math.ceil(seconds)))
        """Seconds until a game expires and makes room, at least 1 and at most 3,600."""
        super().__init__(
            f"the service keeps {max_games:,} games in play, the most max_games allows; "
            f"try again in {self.retry_after} seconds"
        )


class StoreShareError(StoreError):
    """A new game refused by client share: the store is half full and this client keeps one.

    The service answers 429 with ``retry_after`` (60 seconds) as ``Retry-After``.

    >>> print(StoreShareError(1000, 2))
    half of max_games (1,000) games are in play and this client keeps 2: one game per client until some end; try again in 60 seconds
    """

    def __init__(self, max_games: int, live: int) -> None:
        self.retry_after = SHARE_RETRY_AFTER
        """Seconds after which the same request may succeed."""
        super().__init__(
            f"half of max_games ({max_games:,}) games are in play and this client keeps {live}: "
            f"one game per client until some end; try again in {SHARE_RETRY_AFTER} seconds"
        )


class StaleGameError(StoreError):
    """A commit refused: the game's stored row is no longer at the version the session was read at.

    Another server (or another store on the same database) moved first; the
    service answers 409 and reads the game again.

    >>> print(StaleGameError("g", 3))
    game 'g' was changed by another server since version 3; read it again
    """

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(
            f"game {game_id[:64]!r} was changed by another server since version {expected}; "
            "read it again"
        )


class StoreUnavailableError(StoreError):
    """The database failed (disk full, read-only file, lost connection): nothing was kept.

    The service answers 503 with ``retry_after`` as ``Retry-After``.

    >>> StoreUnavailableError("store file 'g.sqlite': disk is full").retry_after
    5
    """

    def __init__(self, message: str, retry_after: int = 5) -> None:
        self.retry_after = retry_after
        """Seconds after which the same request may succeed."""
        super().__init__(f"{message}; nothing was kept, try again in {retry_after} seconds")


@runtime_checkable
class GameStore(Protocol):
    """What the service needs from a store of games.

    >>> isinstance(MemoryStore(), GameStore)
    True
    """

    def add(self, session: GameSession) -> None:
        """Keep a new game: :class:`StoreFullError` or :class:`StoreShareError` when full."""
        ...

    def room(self, client: str) -> None:
        """Raise what :meth:`add` would raise now for a new game of ``client``
        (:class:`StoreFullError`, :class:`StoreShareError`), before the game is dealt and its
        bots play; :meth:`add` checks again."""
        ...

    def get(self, game_id: str) -> GameSession | None:
        """The game with this id at its stored version, or ``None`` (unknown, expired, refused)."""
        ...

    def save(self, session: GameSession, expected: int) -> None:
        """Commit the game's moves if its stored row is still at version ``expected``.

        Raises :class:`StaleGameError` when another server moved first and
        :class:`StoreUnavailableError` when the database fails; on success
        ``session.version`` is the new version.
        """
        ...

    def live_games(self, client: str) -> int:
        """The number of unfinished games kept that ``client`` created."""
        ...

    def __len__(self) -> int:
        """The number of games kept, finished ones included."""
        ...

    def close(self) -> None:
        """Release the store's resources."""
        ...


def check_room(live: int, client_live: int, max_games: int, seconds: float) -> None:
    """Refuse a new game when the store is full, or half full and its client keeps a game.

    ``live`` is the number of unfinished games kept, ``client_live`` the new
    game's client's (0 for a game without a client: a library's own), ``seconds``
    the time until the first game in play expires.

    >>> check_room(4, 1, 10, 60.0)
    >>> check_room(5, 0, 10, 60.0)
    >>> check_room(5, 1, 10, 60.0)
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreShareError: half of max_games (10) games are in play and this client keeps 1: one game per client until some end; try again in 60 seconds
    """
    if live >= max_games:
        raise StoreFullError(max_games, seconds)
    if client_live and 2 * live >= max_games:
        raise StoreShareError(max_games, client_live)


class MemoryStore:
    """Games in memory: in play until ``ttl`` seconds idle, finished ones ``record_ttl``.

    At most ``max_records`` finished games are kept (the least recently used go
    first); in memory they are whole sessions, so the default keeps as many as
    ``max_games``.

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
        *,
        max_records: int | None = None,
        record_ttl: float = 30 * 86_400.0,
    ) -> None:
        self.max_games = max_games
        """The most unfinished games kept; past half of it one game per client, past it none."""
        self.ttl = ttl
        """Seconds a game in play nobody touches is kept."""
        self.max_records = max_games if max_records is None else max_records
        """The most finished games kept; past it the least recently used goes."""
        self.record_ttl = record_ttl
        """Seconds a finished game nobody touches is kept."""
        self.clock = clock
        """The wall clock, in seconds since the epoch (:func:`time.time` unless given)."""
        self._games: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    def _expires(self, session: GameSession) -> float:
        return session.touched + (self.record_ttl if session.game.is_over else self.ttl)

    def _sweep(self, now: float) -> None:
        # Least recently used first: nothing after the first game within both
        # clocks can be past the longer one.
        gone = []
        for ident, session in self._games.items():
            if now - session.touched <= min(self.ttl, self.record_ttl):
                break
            if now > self._expires(session):
                gone.append(ident)
        for ident in gone:
            del self._games[ident]
        finished = [ident for ident, session in self._games.items() if session.game.is_over]
        for ident in finished[: max(0, len(finished) - self.max_records)]:
            del self._games[ident]

    def _check_room(self, client: str, now: float) -> None:
        self._sweep(now)
        playing = [s for s in self._games.values() if not s.game.is_over]
        client_live = sum(1 for s in playing if s.client == client) if client else 0
        soonest = min((self._expires(s) for s in playing), default=now)
        check_room(len(playing), client_live, self.max_games, soonest - now)

    def room(self, client: str) -> None:
        """Raise what :meth:`add` would for a new game of ``client`` now (see :func:`check_room`).

        >>> store = MemoryStore(max_games=2)
        >>> store.add(GameSession.start("g", players=3, seed=1, seats=("human",) * 3, client="a"))
        >>> store.room("b")
        >>> store.room("a")
        Traceback (most recent call last):
        ...
        pastiche_core.server.store.StoreShareError: half of max_games (2) games are in play and this client keeps 1: one game per client until some end; try again in 60 seconds
        """
        with self._lock:
            self._check_room(client, self.clock())

    def add(self, session: GameSession) -> None:
        """Keep ``session``, or :class:`StoreFullError` / :class:`StoreShareError` (see
        :func:`check_room`)."""
        with self._lock:
            now = self.clock()
            self._check_room(session.client, now)
            session.touched = now
            session.version = len(session.game.history)
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

    def save(self, session: GameSession, expected: int) -> None:
        """Commit in memory: the session is the game, so only its version is checked and moved.

        >>> store = MemoryStore()
        >>> session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
        >>> store.add(session)
        >>> session.game.apply("keep MYT1 HOR7 HOR8"); store.save(session, 0)
        >>> session.version
        1
        >>> store.save(session, 0)
        Traceback (most recent call last):
        ...
        pastiche_core.server.store.StaleGameError: game 'g' was changed by another server since version 0; read it again
        """
        with self._lock:
            if session.version != expected:
                raise StaleGameError(session.id, expected)
            session.touched = self.clock()
            session.version = len(session.game.history)
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


ROW_COLUMNS = "players, seed, catalogue, seats, tokens, moves, created, touched, client, version"
"""The columns :func:`restore_row` reads, in its order."""


def restore_row(game_id: str, row: tuple[Any, ...], now: float) -> GameSession:
    """The game of a stored row (:data:`ROW_COLUMNS`), checked like a request and replayed (R14).

    A row that does not hold up (players, seats, token hashes, catalogue, moves,
    nesting depth, times from 0 to now, version) raises :class:`StoreError`.

    >>> row = (3, 7, '"default"', '["human", "human", "human"]', '[null, null, null]',
    ...        '["keep MYT1 HOR7 HOR8"]', 10.0, 20.0, "", 1)
    >>> restore_row("g", row, 100.0).version
    1
    >>> restore_row("g", row[:-1] + (5,), 100.0)
    Traceback (most recent call last):
    ...
    pastiche_core.server.store.StoreError: stored game 'g' cannot be replayed: version must be the number of moves (1), got 5
    """
    players, seed, catalogue_text, seats, tokens, moves, created, touched, client, version = row
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
            if not 0 <= time_value <= now + CLOCK_SLACK:  # False for NaN
                raise ValueError(f"{name} must be a time from 0 to now, got {time_value!r}")
        record = GameRecord(int(players), int(seed), catalogue, tuple(jsontext.loads(moves)))
        if version != len(record.moves):
            raise ValueError(
                f"version must be the number of moves ({len(record.moves)}), got {version!r}"
            )
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
