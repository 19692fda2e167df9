"""Games played through the service: seats, bots, tokens, and what one seat is shown.

A :class:`GameSession` is one :class:`~pastiche_core.engine.game.Game` with a kind per
seat (``"human"`` or a bot name of :data:`BOTS`) and, for each human seat, the
hash of its secret token (:func:`new_token`, :func:`token_hash`): the service
never stores a token itself. After each human move the bots play until a human
is to move (:meth:`GameSession.advance`).

Bots are made per decision from :data:`BOTS`, with the game's catalogue and seeded
with ``derive_seed(game seed, "bot", seat, decision)``: a game is fully determined by
its seed and the humans' moves, so a game replayed from its record after a
restart goes on exactly as it would have (R14).

>>> session = GameSession.start("g1", players=3, seed=7, seats=("human", "random", "random"))
>>> token = session.issue_tokens()[0]
>>> session.seat_of(token), session.seat_of("wrong")
(0, None)
>>> session.advance(ServerLimits())
True
>>> session.game.to_move
0
>>> [move for move in session.legal(0, ServerLimits()).moves][:2]
['draw', 'take']
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import itertools
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..ai.roster import make_bot
from ..bots.play import Bot
from ..data.catalogue import Catalogue
from ..engine.game import Game
from ..engine.moves import Draw, Move, NovelRef, Pass, Read, TakeDiscard
from ..engine.rules import Phase
from ..io.record import GameRecord
from ..io.view_json import view_to_dict
from ..solver.gifts import LowestCardsPolicy, to_publish
from ..solver.queries import solve
from .api_errors import TOO_MANY, ApiError
from .bot_turns import play_bots
from .narrate import describe_outcome, narrate, novel_legend, seat_names
from .quotas import ServerLimits

__all__ = [
    "BOTS",
    "HUMAN",
    "BotFactory",
    "ClientQuota",
    "GameSession",
    "LegalListing",
    "new_game_id",
    "new_token",
    "token_hash",
]

HUMAN = "human"
"""The seat kind of a person, who plays through the service with a token."""

BotFactory = Callable[..., Bot]
"""Makes a bot: called as ``factory(seed, catalogue=game_catalogue)``, so that a bot judges the
Novels of the game it plays, embedded catalogues included."""

BOTS: Mapping[str, BotFactory] = MappingProxyType(
    {name: functools.partial(make_bot, name) for name in ("random", "greedy", "search")}
)
"""The bots a game may seat, by name (:mod:`pastiche_core.ai`): adding one is one line here.

>>> from pastiche_core.data.catalogue import SHIPPED_CATALOGUES
>>> BOTS["greedy"](3, catalogue=SHIPPED_CATALOGUES["default"])
GreedyBot(...)
"""


def new_game_id() -> str:
    """A fresh, unguessable game id (16 URL-safe characters).

    >>> len(new_game_id())
    16
    """
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A fresh secret token for one human seat (32 URL-safe characters).

    >>> len(new_token()), new_token() != new_token()
    (32, True)
    """
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The SHA-256 of a token, as the service stores it.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class LegalListing:
    """What a seat may play now, in notation, bounded.

    ``moves`` lists every legal move that is not a publish, then one publish per
    distinct option (R8), its gifts chosen by
    :class:`~pastiche_core.solver.gifts.LowestCardsPolicy`, at most
    ``ServerLimits.legal_publishes`` of them. ``count`` is the number of every
    legal move card by card (publishes with their gift choices included),
    ``publish_options`` the number of distinct publish options (R8) and
    ``complete`` whether every option is listed.

    >>> session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
    >>> listing = session.legal(2, ServerLimits())   # seat 2 keeps 3 of its 4 cards (R10)
    >>> listing.moves[0], listing.count, listing.complete
    ('keep MYT1 HOR7 HOR8', 4, True)
    """

    moves: tuple[str, ...] = ()
    """The moves in notation: every legal move that is not a publish, then one publish per distinct
    option (R8), at most ``legal_publishes`` of them. Outside the action phase, the first
    ``legal_publishes`` legal moves."""
    count: int = 0
    """The number of legal moves, card by card: each choice of gift cards is a move of its own."""
    publish_options: int = 0
    """The number of distinct publish options (R8) counted; 0 outside the action phase."""
    complete: bool = True
    """Whether nothing was left out: every legal move listed, or in the action phase every publish
    option."""


_NO_MOVES = LegalListing()


@dataclass(eq=False)
class GameSession:
    """One game of the service: the game, the kind of each seat and the token hashes.

    ``tokens`` holds the hash of each human seat's token (``None`` for bots).
    ``lock`` serialises the requests on this game. ``touched`` is the wall-clock
    time of the last request (for expiry).
    """

    id: str
    """The game's id in the service's routes and requests (16 URL-safe characters from
    :func:`new_game_id`)."""
    game: Game
    """The game itself, with its seed and every move (R14)."""
    seats: tuple[str, ...]
    """The kind of each seat: ``'human'`` (:data:`HUMAN`) or the name of a bot of :data:`BOTS`."""
    tokens: tuple[str | None, ...] = ()
    """Per seat, the SHA-256 of its token (:func:`token_hash`), ``None`` for a bot or before
    :meth:`issue_tokens`; the tokens themselves are never kept."""
    created: float = field(default_factory=time.time)
    """When the game was created, in wall-clock seconds since the epoch."""
    touched: float = field(default_factory=time.time)
    """When a request last used the game, in wall-clock seconds by the store's clock; a game left
    alone for ``ServerLimits.game_ttl`` is dropped."""
    client: str = ""
    """The client that created the game (its address, see :class:`ClientQuota`); ``''`` when
    unknown."""
    version: int = 0
    """The version of the game's stored row this session was read at or last committed: the
    number of moves kept in the store. Moves past it are not kept yet; :meth:`rollback` undoes
    them."""
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    """Held while a request reads or changes the game, so requests on one game run one at a time."""
    _legal: tuple[int, int, LegalListing] | None = field(default=None, repr=False)

    @classmethod
    def start(
        cls,
        game_id: str,
        *,
        players: int,
        seed: int,
        seats: Sequence[str],
        catalogue: Catalogue | None = None,
        client: str = "",
    ) -> GameSession:
        """A new game, dealt from ``seed`` (R10, R14), without tokens yet, created by ``client``.

        >>> GameSession.start("g", players=3, seed=1, seats=("human",) * 3).game.phase
        <Phase.KEEP: 'keep'>
        """
        game = Game(players=players, seed=seed, catalogue=catalogue)
        return cls(game_id, game, tuple(seats), (None,) * players, client=client)

    @classmethod
    def restore(
        cls,
        game_id: str,
        record: GameRecord,
        seats: Sequence[str],
        tokens: Sequence[str | None],
        *,
        created: float,
        touched: float,
        client: str = "",
    ) -> GameSession:
        """A stored game, replayed from its record (R14).

        >>> record = GameRecord(3, 7, moves=["keep MYT1 HOR7 HOR8"])
        >>> GameSession.restore("g", record, ["human"] * 3, [None] * 3,
        ...                     created=0.0, touched=0.0).game.phase
        <Phase.ACTION: 'action'>
        """
        game = record.replay()
        return cls(
            game_id, game, tuple(seats), tuple(tokens), created, touched, client, len(record.moves)
        )

    def rollback(self) -> None:
        """Undo every move past :attr:`version`: the game as it was last committed.

        A move refused by the store (another server moved first, or the database
        failed) is never left applied in memory.

        >>> session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
        >>> session.game.apply("keep MYT1 HOR7 HOR8")
        >>> session.rollback()
        >>> len(session.game.history), session.version
        (0, 0)
        """
        history = self.game.history
        if len(history) == self.version:
            return
        record = GameRecord.of(self.game)
        self.reload(dataclasses.replace(record, moves=record.moves[: self.version]))

    def reload(self, record: GameRecord) -> None:
        """Play the game again from ``record``, which the store now holds (R14).

        Its version becomes the number of moves of ``record``.

        >>> session = GameSession.start("g", players=3, seed=7, seats=("human",) * 3)
        >>> session.reload(GameRecord(3, 7, moves=["keep MYT1 HOR7 HOR8"]))
        >>> session.version, session.game.phase
        (1, <Phase.ACTION: 'action'>)
        """
        self.game = record.replay()
        self.version = len(record.moves)
        self._legal = None

    def issue_tokens(self) -> dict[int, str]:
        """New tokens for every human seat, by seat; only their hashes are kept.

        >>> session = GameSession.start("g", players=3, seed=1, seats=("human", "random", "human"))
        >>> sorted(session.issue_tokens())
        [0, 2]
        """
        tokens = {seat: new_token() for seat, kind in enumerate(self.seats) if kind == HUMAN}
        self.tokens = tuple(
            token_hash(tokens[seat]) if seat in tokens else None for seat in range(len(self.seats))
        )
        return tokens

    def seat_of(self, token: str | None) -> int | None:
        """The human seat that ``token`` opens, or ``None``.

        Every seat's hash is compared in constant time, so the answer's timing
        does not tell which seat came close.
        """
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for seat, stored in enumerate(self.tokens):
            if stored is not None and hmac.compare_digest(stored, digest):
                found = seat
        return found

    @property
    def record(self) -> GameRecord:
        """The game's record: players, seed, catalogue and every move (R14)."""
        return GameRecord.of(self.game)

    def waiting(self) -> bool:
        """Whether a bot is still to move (the bots stopped at a request's limit)."""
        game = self.game
        return not game.is_over and self.seats[game.to_move] != HUMAN

    def advance(self, limits: ServerLimits, bots: Mapping[str, BotFactory] = BOTS) -> bool:
        """Let the bots play until a human is to move or the game ends.

        Each bot comes from ``bots`` by its seat's name, made with the game's
        catalogue (an embedded one too). Stops after
        ``limits.bot_decisions`` decisions or ``limits.bot_time_limit``
        seconds, and a decision stops at what is left of that time
        (:func:`~pastiche_core.server.bot_turns.play_bots`); returns whether
        the bots are done (``False``: a bot is still to move, and the next
        request goes on).
        """
        _, done = play_bots(
            self.game,
            self.bot_seats(),
            seconds=limits.bot_time_limit,
            decisions=limits.bot_decisions,
            makers=bots,
        )
        return done

    def bot_seats(self) -> tuple[str | None, ...]:
        """Each seat's bot name, ``None`` for a human seat.

        >>> GameSession.start("g", players=3, seed=1, seats=("human", "greedy", "random")).bot_seats()
        (None, 'greedy', 'random')
        """
        return tuple(None if kind == HUMAN else kind for kind in self.seats)

    def legal(self, seat: int, limits: ServerLimits) -> LegalListing:
        """The legal moves of ``seat`` now (none unless it is that seat's turn)."""
        game = self.game
        if game.is_over or game.to_move != seat:
            return _NO_MOVES
        stamp = len(game.history)
        if self._legal is not None and self._legal[:2] == (stamp, seat):
            return self._legal[2]
        listing = _legal_listing(game, limits)
        self._legal = (stamp, seat, listing)
        return listing

    def state(self, seat: int, limits: ServerLimits) -> dict[str, Any]:
        """What ``seat`` is shown: its view, its legal moves, whose turn, the result.

        Nothing in it is hidden from that seat (R16): the view is
        ``game.view(seat)`` and the moves use only the seat's own cards and
        the table. Beside them, in plain words (:mod:`~pastiche_core.server.narrate`):
        ``log``, the view's public history told line by line; ``novels``, every
        Novel with its requirement, points and copies left; and once the game
        is over ``outcome``, the names, scores, winners, tie-break and the End
        Flag's fate.

        >>> session = GameSession.start("g", players=3, seed=7, seats=("human", "random", "random"))
        >>> session.advance(ServerLimits())
        True
        >>> state = session.state(0, ServerLimits())
        >>> state["log"][0]["text"], state["novels"][4]["requirement"], state["outcome"]
        ('Player 2 kept three cards and laid a card face down on the discard pile.', \
'3 cards of one rank', None)
        """
        game = self.game
        listing = self.legal(seat, limits)
        result = game.result
        view = game.view(seat)
        return {
            "game": self.id,
            "seat": seat,
            "seats": list(self.seats),
            "view": view_to_dict(view),
            "legal": list(listing.moves),
            "legal_count": listing.count,
            "publish_options": listing.publish_options,
            "legal_complete": listing.complete,
            "to_move": game.to_move,
            "over": game.is_over,
            "waiting": self.waiting(),
            "result": None
            if result is None
            else {
                "scores": list(result.scores),
                "masterpieces": list(result.masterpieces),
                "winners": list(result.winners),
                "reason": result.reason,
            },
            "log": [entry.to_dict() for entry in narrate(view)],
            "novels": [
                entry.to_dict() for entry in novel_legend(view.catalogue, view.supply, view.rules)
            ],
            "outcome": None
            if result is None
            else describe_outcome(view, result, self.names(seat)).to_dict(),
        }

    def names(self, seat: int) -> tuple[str, ...]:
        """Every seat's name as ``seat`` is shown it: ``you``, ``player 1 (greedy bot)``.

        >>> GameSession.start("g", players=3, seed=1, seats=("human", "greedy", "human")).names(0)
        ('you', 'player 1 (greedy bot)', 'player 2')
        """
        return tuple(
            name if kind == HUMAN or other == seat else f"{name} ({kind} bot)"
            for other, (name, kind) in enumerate(
                zip(seat_names(len(self.seats), seat), self.seats, strict=True)
            )
        )


class ClientQuota:
    """How many games one client may create per minute and keep unfinished at once.

    A client is the address a request comes from (HTTP: the peer's address, or
    the address a trusted reverse proxy forwards; JSON-RPC on stdio: one
    client). :meth:`reserve` is called before a game is created and
    :meth:`release` once it is kept (or refused): creations under way count
    as live games, so simultaneous requests cannot pass the cap together.
    Past either share the answer is a 429 with ``Retry-After``.

    >>> now = [0.0]
    >>> quota = ClientQuota(creations=2, live=5, clock=lambda: now[0])
    >>> for _ in range(2):
    ...     quota.reserve("10.0.0.1", lambda client: 0); quota.release("10.0.0.1")
    >>> quota.reserve("10.0.0.1", lambda client: 0)
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: this client created 2 games in the last 60 seconds, the most client_creations allows; try again in 60 seconds
    >>> quota.reserve("10.0.0.2", lambda client: 5)
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: this client has 5 unfinished games, the most client_games allows; finish one or try again in 60 seconds
    >>> now[0] = 60.5
    >>> quota.reserve("10.0.0.1", lambda client: 0)
    """

    WINDOW = 60.0
    """The span, in seconds, over which creations are counted."""

    def __init__(
        self, *, creations: int, live: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.creations = creations
        """Games one client may create within :attr:`WINDOW` seconds."""
        self.live = live
        """Unfinished games one client may keep at once (creations under way included)."""
        self.clock = clock
        """A monotonic clock in seconds (:func:`time.monotonic` unless given)."""
        self._stamps: dict[str, deque[float]] = {}
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()

    def _forget_old(self, now: float) -> None:
        # Clients quiet for a whole window are forgotten, so the table stays as
        # small as the last minute's traffic.
        for client in [c for c, stamps in self._stamps.items() if now - stamps[-1] >= self.WINDOW]:
            del self._stamps[client]

    def reserve(self, client: str, live_games: Callable[[str], int]) -> None:
        """Count one creation by ``client``, or raise a 429 past its share.

        ``live_games(client)`` is the number of unfinished games the store
        keeps for it.
        """
        with self._lock:
            now = self.clock()
            stamps = self._stamps.get(client)
            if stamps is not None:
                while stamps and now - stamps[0] >= self.WINDOW:
                    stamps.popleft()
                if len(stamps) >= self.creations:
                    wait = max(1, math.ceil(self.WINDOW - (now - stamps[0])))
                    raise ApiError(
                        TOO_MANY,
                        f"this client created {len(stamps)} games in the last "
                        f"{self.WINDOW:g} seconds, the most client_creations allows; "
                        f"try again in {wait} seconds",
                        None,
                        retry_after=wait,
                    )
            live = live_games(client) + self._pending.get(client, 0)
            if live >= self.live:
                wait = int(self.WINDOW)
                raise ApiError(
                    TOO_MANY,
                    f"this client has {live} unfinished games, the most client_games allows; "
                    f"finish one or try again in {wait} seconds",
                    None,
                    retry_after=wait,
                )
            if len(self._stamps) > 4 * self.creations + 1024:
                self._forget_old(now)
            self._stamps.setdefault(client, deque()).append(now)
            self._pending[client] = self._pending.get(client, 0) + 1

    def release(self, client: str) -> None:
        """The creation :meth:`reserve` counted is over: its game is kept, or was refused."""
        with self._lock:
            left = self._pending.get(client, 0) - 1
            if left > 0:
                self._pending[client] = left
            else:
                self._pending.pop(client, None)


def _legal_listing(game: Game, limits: ServerLimits) -> LegalListing:
    legal = game.legal_moves
    count = len(legal)
    if game.phase is not Phase.ACTION:
        # Keep, choose and flag: a few moves (at most one per hand card or per
        # choice of three of five cards), listed whole up to the cap.
        cap = limits.legal_publishes
        moves = tuple(str(move) for move in itertools.islice(legal, cap))
        return LegalListing(moves, count, 0, count <= cap)
    seat = game.to_move
    candidates: list[Move] = [Draw(), TakeDiscard()]
    for owner in range(game.players):
        for novel in game.table(owner):
            if len(novel.cards) >= 2:
                ref = NovelRef(owner, novel.novel)
                candidates.extend(Read(ref, card) for card in novel.cards)
    candidates.append(Pass())
    listed = [str(move) for move in candidates if game.is_legal(move)]
    position = game.position(seat)
    report = solve(
        position,
        time_limit=limits.legal_time_limit,
        max_options=limits.legal_publishes,
    )
    policy = LowestCardsPolicy()
    listed.extend(str(to_publish(option, position, policy)) for option in report.options)
    return LegalListing(tuple(listed), count, report.total, report.complete)
