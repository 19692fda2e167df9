"""The service's outs and review methods: "how close am I?" and "where did I lose?".

Both transports call these with the :class:`~pastiche_core.server.service.Service`:

* :func:`outs` answers ``POST /v1/outs`` (``{"view": …}``, ``{"position": …}`` or
  ``{"state": …, "player": 0}``, with ``writes`` and ``seed``) with the ``pastiche-outs``
  document (:func:`pastiche_core.solver.closeness.outs`), from what the player sees alone (R16).
* :func:`review` answers ``POST /v1/review`` (``{"record": …, "player": 0 or null,
  "simulations": 64, "seed": 0}``) with the ``pastiche-review`` document
  (:func:`pastiche_core.ai.review.review`).
* :func:`game_outs` and :func:`game_review` answer the game routes for the token's seat; a
  review only once the game is over (409 before).

Each request is checked whole before any work: the fields and their types, the record
replayed move by move (a 400 names the move's path). The work is bounded: outs searches for
the limits' ``time_limit``; a review runs at most ``max_review_simulations`` simulations a
search and ``max_review_decisions`` decisions, within ``review_time_limit`` seconds, and
says ``complete: false`` when a bound cut it short. With a worker pool both run in a worker,
given only what the player may see (a view or a position) or the record the client sent.

>>> from pastiche_core import Game, view_to_dict
>>> from pastiche_core.server import Service
>>> answer = outs(Service(), {"view": view_to_dict(Game(players=3, seed=7).view(0))})
>>> answer["format"], answer["player"], answer["unseen"]
('pastiche-outs', 0, 46)
>>> outs(Service(), {"view": {}, "writes": 0})
Traceback (most recent call last):
...
pastiche_core.server.api_errors.ApiError: expected an integer from 1 to 10, got 0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..data.errors import PasticheError
from ..engine.moves import Move
from ..io._fields import describe, read_int, read_object
from ..io.position_json import position_from_dict, position_to_dict
from ..io.record import GameRecord
from ..io.state_json import STATE_FORMAT, state_from_dict
from ..io.view_json import VIEW_FORMAT, view_from_dict, view_to_dict
from ..solver.closeness import MAX_WRITES
from .api_errors import BAD_REQUEST, CONFLICT, ApiError, from_library
from .service import MAX_SEED, expecting

if TYPE_CHECKING:
    from .service import Service
    from .workers import Ticket

__all__ = [
    "OUTS_BODY",
    "OUTS_WRITES",
    "REVIEW_BODY",
    "REVIEW_SIMULATIONS",
    "game_outs",
    "game_review",
    "outs",
    "review",
    "run_outs",
    "run_review",
]

OUTS_BODY = '{"view": {...}} or {"position": {...}} or {"state": {...}, "player": 0}'
"""What ``POST /v1/outs`` and the ``outs`` method take (``writes`` and ``seed`` optional)."""
REVIEW_BODY = '{"record": {...}, "player": 0, "simulations": 64, "seed": 0}'
"""What ``POST /v1/review`` and the ``review`` method take (all but ``record`` optional)."""
OUTS_WRITES = 3
"""The writes the outs' odds look ahead unless the request asks for another number."""
REVIEW_SIMULATIONS = 64
"""The simulations a review's searches run unless the request asks for another number (at most
the limits' ``max_review_simulations``)."""


# ----------------------------------------------------------------------
# Outs
# ----------------------------------------------------------------------
def outs_request(body: object) -> tuple[dict[str, Any], int, int]:
    """The document a worker may see (a view or a position), ``writes`` and ``seed``.

    A state is replayed and answered for ``player`` (default: the player to
    move) through that player's view alone (R16); a view for its own player.
    Every error is a 400 whose path points into the body.

    >>> from pastiche_core import Game, state_to_dict
    >>> document, writes, seed = outs_request({"state": state_to_dict(Game(players=3, seed=7))})
    >>> sorted(document), document["view"]["player"], writes, seed
    (['view'], 2, 3, 0)
    >>> outs_request({"view": {}, "position": {}})
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: give one of view, position or state, not 2
    """
    kinds = ("view", "position", "state")
    try:
        root = read_object(body, "$", (), (*kinds, "player", "writes", "seed"))
    except PasticheError as error:
        raise expecting(from_library(error), body, OUTS_BODY, "outs_request") from None
    given = [kind for kind in kinds if kind in root]
    if len(given) != 1:
        message = (
            f"give one of view, position or state, not {len(given)}"
            if given
            else f"missing required field: expected {OUTS_BODY}"
        )
        raise ApiError(BAD_REQUEST, message, f"$.{given[-1]}" if given else "$")
    kind = given[0]
    if "player" in root and kind != "state":
        raise ApiError(
            BAD_REQUEST,
            f"player goes with a state; a {kind} answers for its own player (R16)",
            "$.player",
        )
    try:
        writes = read_int(root.get("writes", OUTS_WRITES), "$.writes", 1, MAX_WRITES)
        seed = read_int(root.get("seed", 0), "$.seed", 0, MAX_SEED)
        player = None if root.get("player") is None else read_int(root["player"], "$.player", 0)
    except PasticheError as error:
        raise from_library(error) from None
    document = root[kind]
    under = f"$.{kind}"
    if not isinstance(document, Mapping):
        raise ApiError(BAD_REQUEST, f"expected a {kind} object, got {describe(document)}", under)
    try:
        if kind == "position":
            if "format" in document:
                raise ApiError(
                    BAD_REQUEST, "a position document has no format field", f"{under}.format"
                )
            # Read as data only: no catalogue file is ever opened (no base folder).
            return {"position": position_to_dict(position_from_dict(document))}, writes, seed
        wanted = VIEW_FORMAT if kind == "view" else STATE_FORMAT
        if document.get("format") != wanted:
            got = describe(document.get("format")) if "format" in document else "no format"
            raise ApiError(BAD_REQUEST, f"expected {wanted!r}, got {got}", f"{under}.format")
        if kind == "view":
            return {"view": view_to_dict(view_from_dict(document))}, writes, seed
        game = state_from_dict(document)
    except PasticheError as error:
        raise from_library(error, under=under) from None
    seat = game.to_move if player is None else player
    if not 0 <= seat < game.players:
        raise ApiError(
            BAD_REQUEST,
            f"expected a seat of this {game.players}-player game, 0 to {game.players - 1}, "
            f"got {seat}",
            "$.player",
        )
    return {"view": view_to_dict(game.view(seat))}, writes, seed


def run_outs(document: Mapping[str, Any], writes: int, seed: int, seconds: float) -> dict[str, Any]:
    """The ``pastiche-outs`` document for a checked view or position (in a worker or here).

    >>> position = {"player": 0, "hand": ["SCI7", "HOR7"], "masterpieces": []}
    >>> run_outs({"position": position}, 1, 0, 2.0)["novels"][0]["novel"]
    'straight-5'
    """
    from ..solver.closeness import outs as library_outs

    try:
        if "view" in document:
            source: Any = view_from_dict(document["view"])
        else:
            source = position_from_dict(document["position"])
        return library_outs(source, writes=writes, seed=seed, time_limit=seconds).to_dict()
    except PasticheError as error:
        raise from_library(error) from None


def outs(
    service: Service, body: object, client: str = "", ticket: Ticket | None = None
) -> dict[str, Any]:
    """``POST /v1/outs``: the ``pastiche-outs`` document (see the module).

    With a pool, the search runs in a worker given the view or the position alone.
    """
    document, writes, seed = outs_request(body)
    return _answer_outs(service, document, writes, seed, client, ticket)


def _answer_outs(
    service: Service,
    document: dict[str, Any],
    writes: int,
    seed: int,
    client: str,
    ticket: Ticket | None = None,
) -> dict[str, Any]:
    """The outs of a checked document, in a worker when there is a pool."""
    seconds = service.limits.time_limit
    if service.pool is not None:
        work = {**document, "writes": writes, "seed": seed}
        return service.pool.call("outs", work, seconds=seconds, client=client, ticket=ticket)
    return run_outs(document, writes, seed, seconds)


def game_outs(
    service: Service,
    game_id: str,
    token: str | None,
    client: str = "",
    ticket: Ticket | None = None,
) -> dict[str, Any]:
    """``GET /v1/games/{id}/outs``: the outs of the token's seat, from its view (R16).

    >>> from pastiche_core.server import Service
    >>> service = Service()
    >>> created = service.create_game({"players": 3, "seed": 7, "seats": ["human", "random", "random"]})
    >>> game_outs(service, created["game"], created["tokens"]["0"])["player"]
    0
    """
    session, seat = service.session(game_id, token, client)
    with session.lock:
        view = view_to_dict(session.game.view(seat))
    # The game's own view needs no checking as a stranger's would: the route's defaults.
    return _answer_outs(service, {"view": view}, OUTS_WRITES, 0, client, ticket)


# ----------------------------------------------------------------------
# Review
# ----------------------------------------------------------------------
def review_request(
    service: Service, body: object
) -> tuple[GameRecord, int | None, int, int, int | None]:
    """The record, the seat (``None``: every seat), the simulations and the seed of a review
    body, and the number of moves to review when the decisions are capped (else ``None``).

    The record is replayed move by move first: an illegal move is a 400 at
    ``$.record.moves[i]``, before any search.

    >>> from pastiche_core import GameRecord, Move
    >>> from pastiche_core.server import Service
    >>> record = GameRecord(3, 7, moves=(Move.parse("draw"),)).to_dict()
    >>> review_request(Service(), {"record": record})
    Traceback (most recent call last):
    ...
    pastiche_core.server.api_errors.ApiError: illegal move 'draw': the game is in setup: player 2 must keep 3 cards (R10)
    """
    limits = service.limits
    try:
        root = read_object(body, "$", ("record",), ("player", "simulations", "seed"))
    except PasticheError as error:
        raise expecting(from_library(error), body, REVIEW_BODY, "review_request") from None
    try:
        simulations = read_int(
            root.get("simulations", _default_simulations(service)),
            "$.simulations",
            1,
            limits.max_review_simulations,
        )
        seed = read_int(root.get("seed", 0), "$.seed", 0, MAX_SEED)
        player = None if root.get("player") is None else read_int(root["player"], "$.player", 0)
    except PasticheError as error:
        raise from_library(error) from None
    if not isinstance(root["record"], Mapping):
        raise ApiError(
            BAD_REQUEST, f"expected a record object, got {describe(root['record'])}", "$.record"
        )
    try:
        record = GameRecord.from_dict(root["record"])
    except PasticheError as error:
        raise from_library(error, under="$.record") from None
    if player is not None and player >= record.players:
        raise ApiError(
            BAD_REQUEST,
            f"expected a seat of this {record.players}-player game, 0 to {record.players - 1}, "
            f"got {player}",
            "$.player",
        )
    return record, player, simulations, seed, _capped(record, player, limits.max_review_decisions)


def _capped(record: GameRecord, player: int | None, most: int) -> int | None:
    """Replay ``record`` (a 400 at the first illegal move); the moves holding the first
    ``most`` decisions of the seats reviewed when there are more, else ``None``."""
    game = record.dealt()
    decisions, cut = 0, None
    for index, move in enumerate(record.moves):
        if player is None or game.to_move == player:
            decisions += 1
            if decisions == most + 1:
                cut = index
        reason = game.violation(move)
        if reason is not None:
            raise ApiError(
                BAD_REQUEST, f"illegal move '{move}': {reason}", f"$.record.moves[{index}]"
            )
        game.apply(move)
    return cut


def run_review(
    record: GameRecord,
    player: int | None,
    simulations: int,
    seed: int,
    cut: int | None,
    seconds: float,
) -> dict[str, Any]:
    """The ``pastiche-review`` document of a checked request, within ``seconds`` (in a worker
    or here); ``complete`` is false when the decisions were capped or the time ran out.

    >>> from pastiche_core import GameRecord, Move
    >>> record = GameRecord(3, 7, moves=(Move.parse("keep MYT1 HOR7 HOR8"),))
    >>> done = run_review(record, None, 4, 0, None, 10.0)
    >>> done["reviewed"], len(done["decisions"]), done["complete"]
    ([0, 1, 2], 1, True)
    >>> run_review(record, None, 4, 0, 0, 10.0)["complete"]
    False
    """
    from ..ai.review import review_game
    from ..ai.search_budget import now

    start = record.dealt()
    moves: tuple[Move, ...] = record.moves if cut is None else record.moves[:cut]
    try:
        done = review_game(
            start,
            moves,
            player=player,
            simulations=simulations,
            seed=seed,
            deadline=now() + seconds,
        )
    except PasticheError as error:
        raise from_library(error, under="$.record") from None
    answer = done.to_dict()
    answer["complete"] = done.complete and cut is None
    return answer


def review(
    service: Service, body: object, client: str = "", ticket: Ticket | None = None
) -> dict[str, Any]:
    """``POST /v1/review``: the ``pastiche-review`` document (see the module).

    >>> from pastiche_core import GameRecord, Move
    >>> from pastiche_core.server import Service
    >>> record = GameRecord(3, 7, moves=(Move.parse("keep MYT1 HOR7 HOR8"),)).to_dict()
    >>> review(Service(), {"record": record, "player": 2, "simulations": 4})["summary"][0]["player"]
    2
    """
    record, player, simulations, seed, cut = review_request(service, body)
    return _answer_review(service, record, player, simulations, seed, cut, client, ticket)


def _default_simulations(service: Service) -> int:
    """The simulations of a review that asks for none: :data:`REVIEW_SIMULATIONS`, capped."""
    return min(REVIEW_SIMULATIONS, service.limits.max_review_simulations)


def _answer_review(
    service: Service,
    record: GameRecord,
    player: int | None,
    simulations: int,
    seed: int,
    cut: int | None,
    client: str,
    ticket: Ticket | None = None,
) -> dict[str, Any]:
    """The review of a checked request, in a worker when there is a pool."""
    seconds = service.limits.review_time_limit
    if service.pool is not None:
        work = {
            "record": record.to_dict(),
            "player": player,
            "simulations": simulations,
            "seed": seed,
            "cut": cut,
        }
        return service.pool.call("review", work, seconds=seconds, client=client, ticket=ticket)
    return run_review(record, player, simulations, seed, cut, seconds)


def game_review(
    service: Service,
    game_id: str,
    token: str | None,
    client: str = "",
    ticket: Ticket | None = None,
) -> dict[str, Any]:
    """``GET /v1/games/{id}/review``: the review of the token's seat only, once the game is
    over (409 before: a review reads every move of the game)."""
    session, seat = service.session(game_id, token, client)
    with session.lock:
        if not session.game.is_over:
            raise ApiError(CONFLICT, "the game is not over: its review is given once it ends", None)
        record = session.record
    # The game's own record needs no checking as a stranger's would; only the decisions' cap.
    cut = _capped(record, seat, service.limits.max_review_decisions)
    simulations = _default_simulations(service)
    return _answer_review(service, record, seat, simulations, 0, cut, client, ticket)
