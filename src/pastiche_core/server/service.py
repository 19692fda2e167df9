"""The hint service's methods, whatever the transport: HTTP and JSON-RPC both call these.

:class:`Service` answers each method with a JSON-ready dict, or raises
:class:`~pastiche_core.server.api_errors.ApiError` with the status, the JSON path
at fault and a message. Request bodies are decoded by :meth:`Service.decode`
(:func:`pastiche_core.io.loads`: size, depth and duplicate-field checks).

>>> service = Service()
>>> body = service.decode(b'{"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}')
>>> report = service.publishes(body)
>>> report["format"], [option["novel"] for option in report["options"]]
('pastiche-publishes', ['kind-3'])
>>> service.publishes({"player": 0, "hand": ["LOV1"], "masterpieces": []})
Traceback (most recent call last):
...
pastiche_core.server.api_errors.ApiError: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)
>>> created = service.create_game({"players": 3, "seed": 7, "seats": ["human", "random", "random"]})
>>> state = service.game_state(created["game"], created["tokens"]["0"])
>>> state["to_move"], state["legal"][:2], state["over"]
(0, ['draw', 'take'], False)
>>> service.game_state(created["game"], "not-a-token")
Traceback (most recent call last):
...
pastiche_core.server.api_errors.ApiError: this token opens no seat of the game
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import logging
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Protocol

from ..data.catalogue import SHIPPED_CATALOGUES, Catalogue
from ..data.errors import IllegalMoveError, InvalidCatalogueError, PasticheError
from ..engine.moves import Move
from ..engine.rules import MAX_PLAYERS, Rules, rules_of
from ..engine.view import PlayerView
from ..io._fields import describe, document_kind, read_array, read_int, read_object
from ..io.jsontext import loads
from ..io.position_json import position_to_dict
from ..io.state_json import STATE_FORMAT
from ..io.view_json import VIEW_FORMAT, view_from_dict
from ..solver.constraints import Constraints
from ..solver.position import Position
from ..solver.queries import solve
from .api_errors import (
    BAD_REQUEST,
    CONFLICT,
    FORBIDDEN,
    NOT_FOUND,
    TOO_LARGE,
    TOO_MANY,
    UNAVAILABLE,
    ApiError,
    from_library,
)
from .bot_turns import cheap_move
from .cache import AnswerCache
from .games import BOTS, HUMAN, BotFactory, ClientQuota, GameSession, new_game_id
from .guesses import TokenGuesses
from .openapi import schema_address
from .quotas import ServerLimits
from .store import (
    GameStore,
    MemoryStore,
    StaleGameError,
    StoreFullError,
    StoreShareError,
    StoreUnavailableError,
)

if TYPE_CHECKING:
    from .workers import Ticket, WorkerPool

log = logging.getLogger("pastiche_core.server")

__all__ = [
    "ANALYSIS_MODULE",
    "GAME_BODY",
    "HINT_BODY",
    "MAX_SEED",
    "MOVE_BODY",
    "PUBLISHES_BODY",
    "Analyse",
    "Analysis",
    "Service",
    "expecting",
    "publish_request",
    "store_errors",
    "too_large",
]

ANALYSIS_MODULE = "pastiche_core.ai"
"""The module whose ``analyse`` function answers hints when none is given."""
MAX_SEED = 2**63 - 1
"""The largest seed a request may give (games and hints)."""
_MAX_ID = 64


class Analysis(Protocol):
    """What an analysis returns: its ``to_dict()`` is the ``pastiche-hint`` document.

    >>> class Fixed:
    ...     def to_dict(self) -> dict[str, Any]:
    ...         return {"format": "pastiche-hint", "version": 1, "moves": []}
    >>> Fixed().to_dict()["format"]
    'pastiche-hint'
    """

    def to_dict(self) -> dict[str, Any]:
        """The hint document (see the ``hint`` JSON Schema)."""
        ...


class Analyse(Protocol):
    """``analyse(view, *, budget_ms, seed)``: the analysis engine's entry point.

    Any callable of that shape answers hints (``Service(analyse=...)``,
    ``create_app(analyse=...)``); by default ``pastiche_core.ai.analyse``.

    >>> def nothing(view: PlayerView, *, budget_ms: int, seed: int) -> Analysis:
    ...     raise NotImplementedError
    >>> Service(analyse=nothing).analysis() is nothing
    True
    """

    def __call__(self, view: PlayerView, *, budget_ms: int, seed: int) -> Analysis:
        """Rank the moves of ``view``'s player within ``budget_ms`` milliseconds."""
        ...


class Service:
    """The hint service: publish options, hints and games, bounded by ``limits``.

    ``analyse`` answers hints; ``None`` loads ``pastiche_core.ai.analyse`` on the
    first hint (503 while it is not installed). ``store`` keeps the games
    (default: in memory, :class:`~pastiche_core.server.store.MemoryStore`).
    ``answers`` keeps encoded publishes answers
    (:class:`~pastiche_core.server.cache.AnswerCache`).
    ``bots`` maps bot names to factories (default
    :data:`~pastiche_core.server.games.BOTS`). ``pool``, when given, runs
    hints and publishes searches in its worker processes
    (:class:`~pastiche_core.server.workers.WorkerPool`: a memory cap, a hard
    deadline, a bounded queue, a share per client); without one they run in
    the calling thread, as in a library or a test. Either way the request is
    validated here first, so a bad one never reaches a worker.

    >>> service = Service(limits=ServerLimits(max_games=10))
    >>> game = service.create_game({"players": 3, "seed": 4, "seats": ["human", "human", "random"]})
    >>> sorted(game["tokens"]), len(service.store)
    (['0', '1'], 1)
    >>> service.move(game["game"], game["tokens"]["1"], {"move": "draw"})
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: it is player 0's turn, not player 1's
    """

    def __init__(
        self,
        *,
        analyse: Analyse | None = None,
        store: GameStore | None = None,
        limits: ServerLimits | None = None,
        bots: Mapping[str, BotFactory] | None = None,
        pool: WorkerPool | None = None,
    ) -> None:
        self.limits = limits if limits is not None else ServerLimits()
        """The bounds every request is held to."""
        self.store: GameStore = (
            store
            if store is not None
            else MemoryStore(
                max_games=self.limits.max_games,
                ttl=self.limits.game_ttl,
                max_records=min(self.limits.max_records, self.limits.max_games),
                record_ttl=self.limits.record_ttl,
            )
        )
        """Where the games are kept: in memory unless a store is given."""
        self.bots = BOTS if bots is None else bots
        """The bots a game may seat: factories by name, each making a bot from its seed."""
        self.answers = AnswerCache(self.limits.answer_cache_bytes)
        """Encoded HTTP publishes answers, at most ``limits.answer_cache_bytes`` of them."""
        self.quota = ClientQuota(
            creations=self.limits.client_creations, live=self.limits.client_games
        )
        """Each client's share of games: ``limits.client_creations`` a minute,
        ``limits.client_games`` unfinished at once."""
        self.pool = pool
        """The worker processes that run hints, publishes and the bots, or ``None`` to run them
        here."""
        self.guesses = TokenGuesses(self.limits.token_guesses)
        """Each client's wrong tokens this minute (``limits.token_guesses`` at most)."""
        self.bot_turns: dict[str, int] = {}
        """Bot turns so far, by where they ran: ``pool`` (in a worker), ``here`` (in this
        process, without a pool), ``fallback`` (a worker failed: one cheap move here)."""
        self._analyse = analyse
        self._analyse_lock = threading.Lock()

    def admit(
        self, client: str, seconds: float | None = None
    ) -> AbstractContextManager[Ticket | None]:
        """A place in the worker pool for ``client``'s heavy request, taken before its body
        is read (:meth:`WorkerPool.admit <pastiche_core.server.workers.WorkerPool.admit>`:
        429 past the client's share, 503 for a full queue of the request's lane, set by
        ``seconds`` where known); without a pool, nothing to take.

        >>> with Service().admit("10.0.0.1") as ticket:
        ...     ticket is None
        True
        """
        if self.pool is None:
            return nullcontext(None)
        return self.pool.admit(client, seconds)

    # ------------------------------------------------------------------
    # Decoding
    # ------------------------------------------------------------------
    def decode(self, body: bytes | str, *, limit: str = "max_body_bytes") -> Any:
        """A request body decoded under the limits: 413 past the size, 400 for bad JSON.

        ``limit`` names the size limit of :class:`ServerLimits` that applies
        (``max_line_bytes`` for a JSON-RPC line); a "too large" error names it.

        >>> Service().decode(b'{"a": 1, "a": 2}')
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: field given twice in one object
        >>> Service(limits=ServerLimits(max_body_bytes=10)).decode(b'{"player": 0}')
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: the request body has 13 bytes, more than max_body_bytes (10)
        """
        cap = getattr(self.limits, limit)
        if len(body) > cap:
            raise too_large("the request body", limit, cap, len(body))
        try:
            return loads(body, max_bytes=cap, expected="a JSON object")
        except PasticheError as error:
            raise from_library(error) from None

    def check_params(self, params: object) -> None:
        """A JSON-RPC request's params held to the size rule of an HTTP body (413 past it).

        An HTTP body has at most ``max_body_bytes``; params are measured the
        same way, as their JSON text without spaces, so that whatever HTTP
        accepts, JSON-RPC on stdio accepts too.

        >>> Service(limits=ServerLimits(max_body_bytes=10)).check_params({"player": 0})
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: the params have 12 bytes, more than max_body_bytes (10)
        """
        cap = self.limits.max_body_bytes
        text = json.dumps(params, ensure_ascii=False, separators=(",", ":"))
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > cap:
            raise too_large("the params", "max_body_bytes", cap, size)

    # ------------------------------------------------------------------
    # Publishes
    # ------------------------------------------------------------------
    def _publish_limits(
        self, time_limit: float | None, max_options: int | None
    ) -> tuple[float, int]:
        limits = self.limits
        seconds = limits.time_limit if time_limit is None else time_limit
        if not 0 < seconds <= limits.max_time_limit:
            raise ApiError(
                BAD_REQUEST,
                f"time_limit must be more than 0 and at most {limits.max_time_limit:g} "
                f"seconds, got {seconds!r}",
                None,
            )
        listed = limits.max_options if max_options is None else max_options
        if not 0 <= listed <= limits.max_max_options:
            raise ApiError(
                BAD_REQUEST,
                f"max_options must be from 0 to {limits.max_max_options}, got {listed!r}",
                None,
            )
        return seconds, listed

    def publishes(
        self,
        body: object,
        *,
        time_limit: float | None = None,
        max_options: int | None = None,
        client: str = "",
        ticket: Ticket | None = None,
    ) -> dict[str, Any]:
        """The publishes contract (``PublishReport.to_dict()``) for a position, a view or a state.

        The body is one of (:func:`publish_request`): a position document
        (constraints come from it); a player's view (``"format":
        "pastiche-view"``, bare or as ``{"view": …}``), answered for the viewer;
        or a game state (``"format": "pastiche-state"``, bare or as ``{"state":
        …, "player": 2}``), answered for ``player`` (default: the player to
        move) from that player's view alone (R16). Views and states are checked
        as the hint's views are, before any work. ``time_limit`` (seconds) and
        ``max_options`` default to the limits' and may not exceed their caps. A
        position may not name a catalogue file: only ``"default"`` or an
        embedded catalogue (no base folder is given to the reader). With a
        :attr:`pool`, the search runs in a worker (given the position alone),
        counted in ``client``'s share.

        >>> from pastiche_core import Game, view_to_dict
        >>> view = view_to_dict(Game(players=3, seed=7).view(1))
        >>> Service().publishes({"view": view})["player"]
        1
        """
        seconds, listed = self._publish_limits(time_limit, max_options)
        position, constraints, document = publish_request(body)
        if self.pool is not None:
            return self.pool.call(
                "publishes",
                document,
                seconds=seconds,
                client=client,
                options={"time_limit": seconds, "max_options": listed},
                ticket=ticket,
            )
        try:
            report = solve(
                position, constraints=constraints, time_limit=seconds, max_options=listed
            )
        except PasticheError as error:
            raise from_library(error) from None
        return report.to_dict()

    def _answer_key(
        self, raw: bytes, time_limit: float | None, max_options: int | None
    ) -> tuple[bytes, float, int]:
        seconds, listed = self._publish_limits(time_limit, max_options)
        return hashlib.blake2b(raw, digest_size=16).digest(), seconds, listed

    def cached_publishes(
        self, raw: bytes, *, time_limit: float | None = None, max_options: int | None = None
    ) -> bytes | None:
        """The stored answer to this exact body under these limits, if any (no search).

        >>> service = Service()
        >>> body = b'{"player": 0, "hand": ["SCI7", "HOR7", "MYS7"], "masterpieces": []}'
        >>> service.cached_publishes(body) is None
        True
        >>> answer = service.publishes_bytes(body)
        >>> service.cached_publishes(body) == answer
        True
        """
        return self.answers.get(self._answer_key(raw, time_limit, max_options))

    def publishes_bytes(
        self,
        raw: bytes,
        *,
        time_limit: float | None = None,
        max_options: int | None = None,
        client: str = "",
        ticket: Ticket | None = None,
    ) -> bytes:
        """:meth:`publishes` for a raw body, as JSON bytes, kept in the answer cache.

        Answers cut short by the clock are not kept: another try may find more.
        """
        key = self._answer_key(raw, time_limit, max_options)
        found = self.answers.get(key)
        if found is not None:
            return found
        data = self.publishes(
            self.decode(raw), time_limit=key[1], max_options=key[2], client=client, ticket=ticket
        )
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if data["stopped_by"] != "time_limit":
            self.answers.put(key, encoded)
        return encoded

    # ------------------------------------------------------------------
    # Hints
    # ------------------------------------------------------------------
    def analysis(self) -> Analyse:
        """The analysis function, loaded on first use; 503 if it is not installed."""
        with self._analyse_lock:
            if self._analyse is None:
                try:
                    module = importlib.import_module(ANALYSIS_MODULE)
                except ImportError as error:
                    raise ApiError(
                        UNAVAILABLE,
                        f"hints need the analysis engine ({ANALYSIS_MODULE}), which is not "
                        f"installed here ({error})",
                        None,
                    ) from None
                found = getattr(module, "analyse", None)
                if not callable(found):
                    raise ApiError(UNAVAILABLE, f"{ANALYSIS_MODULE} has no analyse function", None)
                self._analyse = found
            return self._analyse

    def hint(self, body: object, client: str = "", ticket: Ticket | None = None) -> dict[str, Any]:
        """The ``hint`` contract for ``{"view": …, "budget_ms": 300, "seed": 1}``.

        ``budget_ms`` defaults to the limits' ``budget_ms`` and may not exceed
        ``max_budget_ms``; ``seed`` defaults to 0. With a :attr:`pool`, the
        analysis runs in a worker, counted in ``client``'s share.

        >>> Service().hint({"view": {}, "budget_ms": 10**9})
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: expected an integer from 1 to 5000, got 1000000000
        """
        limits = self.limits
        try:
            root = read_object(body, "$", ("view",), ("budget_ms", "seed"))
        except PasticheError as error:
            raise expecting(from_library(error), body, HINT_BODY, "hint_request") from None
        try:
            budget = read_int(
                root.get("budget_ms", limits.budget_ms), "$.budget_ms", 1, limits.max_budget_ms
            )
            seed = read_int(root.get("seed", 0), "$.seed", 0, MAX_SEED)
        except PasticheError as error:
            raise from_library(error) from None
        if self.pool is not None:  # a full lane refuses before the view is checked
            self.pool.check(budget / 1000, client)
        try:
            view = view_from_dict(root["view"])
        except PasticheError as error:
            raise from_library(error, under="$.view") from None
        if self.pool is not None:
            return self.pool.call("hint", body, seconds=budget / 1000, client=client, ticket=ticket)
        analyse = self.analysis()
        try:
            analysis = analyse(view, budget_ms=budget, seed=seed)
        except PasticheError as error:
            raise from_library(error, under="$.view") from None
        return analysis.to_dict()

    # ------------------------------------------------------------------
    # Games
    # ------------------------------------------------------------------
    def create_game(self, body: object, client: str = "") -> dict[str, Any]:
        """A new game: ``{"game": id, "tokens": {"0": token, …}}``, one token per human seat.

        Body fields, all optional: ``players`` (3–5, default the number of
        seats or 4), ``seed`` (default: drawn at random), ``catalogue``
        (``"default"`` or an embedded catalogue object, never a file) and
        ``seats`` (``"human"`` or a bot name per seat; default a human in seat
        0 and ``"random"`` bots). The bots, made with the game's catalogue,
        then play until a human is to move.

        ``client`` is who asks (HTTP: the client's address): past its share of
        games (:class:`~pastiche_core.server.games.ClientQuota`) the answer is
        a 429, and so is a second game of one client once half of
        ``max_games`` are in play; a service full of games in play answers
        503, and so does a failing store (nothing is kept). All carry
        ``retry_after``.

        >>> service = Service(limits=ServerLimits(max_games=1))
        >>> _ = service.create_game({"players": 3}, client="10.0.0.1")
        >>> service.create_game({"players": 3}, client="10.0.0.2")
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: the service keeps 1 games in play, the most max_games allows; try again in 3600 seconds
        """
        try:
            root = read_object(body, "$", (), ("players", "seed", "catalogue", "seats"))
        except PasticheError as error:
            raise expecting(from_library(error), body, GAME_BODY, "game_create") from None
        try:
            catalogue = _read_catalogue(root.get("catalogue", "default"))
            rules = rules_of(catalogue)  # R10: a catalogue's [rules] may seat fewer
            seats = self._read_seats(root, rules)
            default = max(rules.min_players, min(4, rules.max_players))
            players = read_int(
                root.get("players", len(seats) if seats else default),
                "$.players",
                rules.min_players,
                rules.max_players,
            )
            if seats and len(seats) != players:
                raise ApiError(
                    BAD_REQUEST,
                    f"expected {players} seats (one per player), got {len(seats)}",
                    "$.seats",
                )
            if not seats:
                seats = [HUMAN] + ["random"] * (players - 1)
            seed = read_int(
                root["seed"] if "seed" in root else secrets.randbelow(2**32), "$.seed", 0, MAX_SEED
            )
        except PasticheError as error:
            raise from_library(error) from None
        with store_errors():
            self.quota.reserve(client, self.store.live_games)
        try:
            with store_errors():  # a game the store would refuse is not dealt, nor its bots run
                self.store.room(client)
            session = GameSession.start(
                new_game_id(),
                players=players,
                seed=seed,
                seats=seats,
                catalogue=catalogue,
                client=client,
            )
            tokens = session.issue_tokens()
            with session.lock:
                self.advance_bots(session)
                with store_errors():
                    self.store.add(session)
        finally:
            self.quota.release(client)
        return {"game": session.id, "tokens": {str(seat): token for seat, token in tokens.items()}}

    def _read_seats(self, root: Mapping[str, Any], rules: Rules) -> list[str]:
        if "seats" not in root:
            return []
        seats = read_array(root["seats"], "$.seats")
        low, high = rules.min_players, rules.max_players
        if not low <= len(seats) <= high:
            raise ApiError(
                BAD_REQUEST,
                f"a game has {low} to {high} players (R10), got {len(seats)} seats",
                "$.seats",
            )
        kinds = (HUMAN, *self.bots)
        for index, kind in enumerate(seats):
            if kind not in kinds:
                shown = describe(kind)
                names = ", ".join(repr(name) for name in kinds)
                raise ApiError(
                    BAD_REQUEST,
                    f"unknown seat {shown}: expected one of {names}",
                    f"$.seats[{index}]",
                )
        if HUMAN not in seats:
            raise ApiError(BAD_REQUEST, "a game needs at least one 'human' seat", "$.seats")
        return [str(kind) for kind in seats]

    def session(self, game_id: str, token: str | None, client: str = "") -> tuple[GameSession, int]:
        """The game and the seat that ``token`` opens: 404 for no game, 403 for a wrong token.

        ``client`` (the address asking) is counted for each 403; past
        ``limits.token_guesses`` of them in a minute it gets 429 before any
        game is looked up or token checked (:class:`~.guesses.TokenGuesses`).

        >>> service = Service(limits=ServerLimits(token_guesses=1))
        >>> game = service.create_game({"players": 3})["game"]
        >>> service.session(game, "guess", "10.0.0.9")
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: this token opens no seat of the game
        >>> service.session(game, "guess", "10.0.0.9")
        Traceback (most recent call last):
        ...
        pastiche_core.server.api_errors.ApiError: this client gave 1 wrong tokens in the last 60 seconds, the most token_guesses allows; try again in 60 seconds
        """
        self.guesses.check(client)
        session = None
        if isinstance(game_id, str) and 0 < len(game_id) <= _MAX_ID:
            with store_errors():
                session = self.store.get(game_id)
        if session is None:
            shown = describe(game_id) if isinstance(game_id, str) else "this id"
            raise ApiError(NOT_FOUND, f"no game {shown.removeprefix('the string ')}", None)
        if not isinstance(token, str) or not token:
            raise ApiError(FORBIDDEN, "a token is needed: Authorization: Bearer <token>", None)
        seat = session.seat_of(token)
        if seat is None:
            self.guesses.wrong(client)
            raise ApiError(FORBIDDEN, "this token opens no seat of the game", None)
        return session, seat

    def advance_bots(self, session: GameSession) -> None:
        """Let the bots of ``session`` play until a human is to move (the caller holds its lock).

        With a :attr:`pool`, a worker replays the game from its record and runs
        the bots under the pool's memory cap and a hard deadline of
        ``limits.bot_time_limit`` plus the grace; their moves come back in
        notation and are applied here, each checked by the rules. The work
        counts in the share of the client that created the game, so one
        client's bot games hold at most its share of the workers; refused (a
        full share or queue), the bots wait and the next request goes on. A
        worker stopped or lost mid-turn leaves the game to a cheap legal move
        (:func:`~.bot_turns.cheap_move`) for the bot to move, played here.
        Without a pool the bots play in this thread, each decision bounded by
        what is left of ``limits.bot_time_limit``.

        >>> service = Service()
        >>> session = GameSession.start("g", players=3, seed=7, seats=("human", "greedy", "greedy"))
        >>> service.advance_bots(session)
        >>> session.waiting(), service.bot_turns
        (False, {'here': 1})
        """
        if not session.waiting():
            return
        if self.pool is None or self.bots is not BOTS:
            session.advance(self.limits, self.bots)
            self._count_turn("here")
            return
        work = {"record": session.record.to_dict(), "bots": list(session.bot_seats())}
        try:
            answer = self.pool.play_bots(
                work, seconds=self.limits.bot_time_limit, client=session.client
            )
        except ApiError as error:  # the worker was stopped, lost or out of memory
            log.warning("bot turn of game %s failed in its worker: %s", session.id, error)
            session.game.apply(cheap_move(session.game))
            self._count_turn("fallback")
            return
        if answer is None:
            return  # refused before any work: the bots wait for the next request
        self._count_turn("pool")
        game = session.game
        for text in answer["moves"]:
            game.apply(Move.parse(text))  # checked by the rules here too

    def _count_turn(self, where: str) -> None:
        self.bot_turns[where] = self.bot_turns.get(where, 0) + 1

    def _commit(self, session: GameSession, expected: int) -> None:
        """Commit ``session`` against version ``expected``, or undo its new moves and raise.

        A failing store is a 503: the moves past the committed version are
        undone. A stale version (another server moved first) is a 409: the
        session is read again from the store, in the one object other requests
        may be waiting on.
        """
        try:
            self.store.save(session, expected)
        except StaleGameError as error:
            session.rollback()
            try:
                fresh = self.store.get(session.id)
            except StoreUnavailableError:
                fresh = None
            if fresh is not None and fresh is not session:
                session.reload(fresh.record)
            raise ApiError(CONFLICT, str(error), None) from None
        except BaseException:
            session.rollback()
            raise

    def game_state(self, game_id: str, token: str | None, client: str = "") -> dict[str, Any]:
        """What the token's seat is shown: view, legal moves, ``to_move``, ``over``.

        Bots still to move play first and their moves are committed; if
        another server moved the game meanwhile, the game is read again and
        its current state answered (no 409 for a read).
        """
        session, seat = self.session(game_id, token, client)
        with session.lock:
            if session.waiting():
                expected = session.version
                try:
                    self.advance_bots(session)
                finally:
                    if len(session.game.history) != expected:
                        try:
                            with store_errors():
                                self._commit(session, expected)
                        except ApiError as error:
                            if error.status != CONFLICT:
                                raise
            return session.state(seat, self.limits)

    def move(
        self, game_id: str, token: str | None, body: object, client: str = ""
    ) -> dict[str, Any]:
        """Play ``{"move": "draw"}`` for the token's seat, then let the bots play.

        A move that does not parse is a 400, a move the rules forbid now (or
        out of turn) a 409, both at ``$.move``. The answer is the seat's new
        state (as :meth:`game_state`), written to the store before it is sent.
        """
        session, seat = self.session(game_id, token, client)
        try:
            root = read_object(body, "$", ("move",), ())
        except PasticheError as error:
            raise expecting(from_library(error), body, MOVE_BODY, "move") from None
        text = root["move"]
        if not isinstance(text, str):
            raise ApiError(
                BAD_REQUEST, f"expected a move such as 'draw', got {describe(text)}", "$.move"
            )
        try:
            move = Move.parse(text)
        except PasticheError as error:
            raise from_library(error, under="$.move") from None
        with session.lock:
            game = session.game
            if game.is_over:
                raise ApiError(CONFLICT, "the game is over (R12)", "$.move")
            if game.to_move != seat:
                raise ApiError(
                    CONFLICT,
                    f"it is player {game.to_move}'s turn, not player {seat}'s",
                    "$.move",
                )
            expected = session.version
            try:
                game.apply(move)
            except IllegalMoveError as error:
                raise from_library(error, status=CONFLICT, under="$.move") from None
            try:
                self.advance_bots(session)
            finally:  # the human's move is kept even if a bot fails
                with store_errors():
                    self._commit(session, expected)
            return session.state(seat, self.limits)

    def record(self, game_id: str, token: str | None, client: str = "") -> dict[str, Any]:
        """The game's record (``pastiche-record``) once it is over; 409 before."""
        session, _ = self.session(game_id, token, client)
        with session.lock:
            if not session.game.is_over:
                raise ApiError(
                    CONFLICT, "the game is not over: its record is given once it ends", None
                )
            return session.record.to_dict()

    def close(self) -> None:
        """Stop the worker processes, if any, and close the store."""
        if self.pool is not None:
            self.pool.close()
        self.store.close()


PUBLISHES_BODY = (
    'a position document, a view ({"format": "pastiche-view", ...} or {"view": {...}}) or a '
    'state ({"format": "pastiche-state", ...} or {"state": {...}, "player": 2})'
)
"""What ``POST /v1/publishes`` and the ``publishes`` method take, in words."""
HINT_BODY = '{"view": {...}, "budget_ms": 300, "seed": 1}'
"""What ``POST /v1/hint`` and the ``hint`` method take."""
GAME_BODY = '{"players": 4, "seed": 7, "catalogue": "default", "seats": ["human", ...]}'
"""What ``POST /v1/games`` takes (every field optional)."""
MOVE_BODY = '{"move": "draw"}'
"""What ``POST /v1/games/{id}/moves`` takes."""


def expecting(error: ApiError, body: object, expected: str, schema_name: str) -> ApiError:
    """``error`` saying what the route expects and where its schema is, when the body's shape
    is wrong (not an object, a field missing or unknown at the top); other errors as they are.

    A document of another kind (one with a ``format``) is named, so a bare view
    sent where ``{"view": …}`` is wanted says so.

    >>> error = ApiError(400, "missing required field", "$.view")
    >>> print(expecting(error, {"format": "pastiche-view"}, HINT_BODY, "hint_request").message)
    this is a player's view: `pastiche hint` ranks its moves; expected {"view": {...}, "budget_ms": 300, "seed": 1} (schema: /openapi.json#/components/schemas/hint_request)
    """
    top = error.path in ("$", "$.format") or (
        error.path is not None
        and error.path.count(".") == 1
        and error.message in ("missing required field", "unknown field")
    )
    if error.status != BAD_REQUEST or not top:
        return error
    message = error.message
    shape = error.message in ("missing required field", "unknown field")
    if isinstance(body, Mapping) and "format" in body and shape:
        kind = document_kind(body)
        if kind is not None:
            message = f"this is {kind}"
    return ApiError(
        error.status,
        f"{message}; expected {expected} (schema: {schema_address(schema_name)})",
        error.path,
        retry_after=error.retry_after,
    )


def publish_request(body: object) -> tuple[Position, Constraints, dict[str, Any]]:
    """The position a publishes body asks about, its constraints, and the position document.

    See :meth:`Service.publishes` for the bodies taken; the document returned is
    the position's (a view's or a state's is rewritten as one), so a worker
    never sees more than the player may. Errors are 400s whose path points into
    the body; a body of the wrong shape says what is expected and where its
    schema is.

    >>> from pastiche_core import Game, state_to_dict
    >>> state = state_to_dict(Game(players=3, seed=7))
    >>> publish_request({"state": state, "player": 2})[0].player
    2
    >>> publish_request({"state": state, "player": 4})
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: expected a seat of this 3-player game, 0 to 2, got 4
    >>> publish_request([])
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: expected an object, got an array; expected a position document, a view ({"format": "pastiche-view", ...} or {"view": {...}}) or a state ({"format": "pastiche-state", ...} or {"state": {...}, "player": 2}) (schema: /openapi.json#/components/schemas/publishes_request)
    """
    from ..ai.visible import publish_query

    under, document, player = "$", body, None
    if isinstance(body, Mapping) and "format" not in body and ({"view", "state"} & body.keys()):
        try:
            root = read_object(body, "$", (), ("view", "state", "player"))
            if "view" in root and "state" in root:
                raise ApiError(BAD_REQUEST, "give a view or a state, not both", "$.state")
            key = "view" if "view" in root else "state"
            if "player" in root:
                player = read_int(root["player"], "$.player", 0, MAX_PLAYERS - 1)
            document, under = root[key], f"$.{key}"
            if not isinstance(document, Mapping):
                raise ApiError(
                    BAD_REQUEST, f"expected a {key} object, got {describe(document)}", under
                )
            wanted = VIEW_FORMAT if key == "view" else STATE_FORMAT
            if "format" not in document:
                raise ApiError(BAD_REQUEST, "missing required field", f"{under}.format")
            if document["format"] != wanted:
                raise ApiError(
                    BAD_REQUEST,
                    f"expected {wanted!r}, got {describe(document['format'])}",
                    f"{under}.format",
                )
        except PasticheError as error:
            raise expecting(
                from_library(error), body, PUBLISHES_BODY, "publishes_request"
            ) from None
    try:
        position, constraints = publish_query(document, player=player)
    except PasticheError as error:
        text = str(error)
        if text.startswith("player: "):
            raise ApiError(BAD_REQUEST, text.removeprefix("player: "), "$.player") from None
        raise expecting(
            from_library(error, under=under), body, PUBLISHES_BODY, "publishes_request"
        ) from None
    if isinstance(document, Mapping) and "format" not in document:
        return position, constraints, dict(document)  # a position document, as it came
    return position, constraints, position_to_dict(position)


@contextlib.contextmanager
def store_errors() -> Iterator[None]:
    """The store's refusals as answers: a full store 503, a client's share or a half-full
    store 429, another server's move 409, a failing database 503; all but 409 with
    ``retry_after``.

    >>> with store_errors():
    ...     raise StoreUnavailableError("store file 'g.sqlite': disk is full")
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: store file 'g.sqlite': disk is full; nothing was kept, try again in 5 seconds
    """
    try:
        yield
    except StaleGameError as error:
        raise ApiError(CONFLICT, str(error), None) from None
    except StoreShareError as error:
        raise ApiError(TOO_MANY, str(error), None, retry_after=error.retry_after) from None
    except (StoreFullError, StoreUnavailableError) as error:
        raise ApiError(UNAVAILABLE, str(error), None, retry_after=error.retry_after) from None


def too_large(what: str, limit: str, cap: int, size: int | None = None) -> ApiError:
    """The 413 error for ``what`` past the size limit ``limit`` of ``cap`` bytes, naming it.

    ``size`` is the size seen, when it is known (else the reading stopped at the limit).

    >>> too_large("the request body", "max_body_bytes", 1024).message
    'the request body has more than max_body_bytes (1,024) bytes'
    """
    if size is None:
        return ApiError(TOO_LARGE, f"{what} has more than {limit} ({cap:,}) bytes", "$")
    verb = "have" if what.endswith("s") else "has"
    return ApiError(TOO_LARGE, f"{what} {verb} {size:,} bytes, more than {limit} ({cap:,})", "$")


def _read_catalogue(value: object) -> Catalogue:
    path = "$.catalogue"
    if isinstance(value, str):
        if value in SHIPPED_CATALOGUES:
            return SHIPPED_CATALOGUES[value]
        names = ", ".join(repr(name) for name in SHIPPED_CATALOGUES)
        raise ApiError(
            BAD_REQUEST,
            f"expected {names} or a catalogue object, got {describe(value)} "
            "(a game never reads a catalogue file)",
            path,
        )
    if not isinstance(value, Mapping):
        raise ApiError(
            BAD_REQUEST, f"expected 'default' or a catalogue object, got {describe(value)}", path
        )
    try:
        return Catalogue.from_dict(value)
    except InvalidCatalogueError as error:
        raise ApiError(BAD_REQUEST, str(error), path) from None
