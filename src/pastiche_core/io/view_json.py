"""Versioned JSON for a player's view (format ``pastiche-view``).

A *view* holds only what one player may know
(:class:`~pastiche_core.engine.view.PlayerView`): other hands are sizes, face-down
discards are ``null`` (R10). It is a plain JSON object that names its format and
version::

    {"format": "pastiche-view", "version": 1, ...}

>>> from pastiche_core import Game
>>> view = Game(players=3, seed=7).view(0)
>>> view_from_json(view_to_json(view)) == view
True

**What a loaded view guarantees.** A view is untrusted input (a file, a
request), so :func:`view_from_dict` checks it as :func:`state_from_dict
<pastiche_core.io.state_json.state_from_dict>` checks a state, as far as one
seat's side allows, and refuses it with
:class:`~pastiche_core.data.errors.InvalidViewError`, whose message starts with the
JSON path (``$.hand``, ``$.supply.kind-3``) and names the rule:

* every field has its type and range; no card is seen twice, and the cards
  the seat sees plus the counts it is told (hand sizes, deck size, discard
  pile, tables, End Flag, drawn cards) make the 49 cards (R1);
* every table Novel is a publishable Novel of the view's catalogue, and the
  supply has a count for every Novel of the catalogue and no other key (R2,
  R3, R6);
* every invariant of a game that does not depend on hidden cards holds
  (:func:`~pastiche_core.io.invariants.check_invariants`, on a game with the
  hidden cards dealt in card order): a keep-phase hand holds the cards dealt
  to its seat (3, 3, 4, 4, 5, R10) and a seat done keeping holds 3, keeps run
  from seat 2 on, the supply and the tables make every Novel's copies, the
  phase, countdown, passes, turn counter, face-down discards and trigger fit
  together, the scores are the Masterpieces and the End Flag (R13), and the
  seat to move has a legal decision;
* a history that starts at the deal (with seat 2's keep) begins with the
  setup keeps, one per seat; each later move is the move of the seat whose
  turn it is, a choose follows a draw, and the history leads to the stated
  hand sizes, turn counter and passes: each move's public notation says how
  many cards it adds to or takes from each hand and whether it ends a turn
  (R10, R11, R16).

**What one seat cannot check.** The cards another seat holds, the order of
the deck, the face-down discards of other seats and the two cards another
seat is choosing between are hidden (R16): a view can claim any of the
possible deals of the hidden cards, and nothing in it says which one is true.
A history that does not start at the deal belongs to a composed position:
only its notation is checked, not that it leads to the stated sizes. A
history from the deal is checked by counts, not by cards: whether another
seat's hidden keep, choose or gift could have been made with the cards it
really held, and whether each publish was legal when it was made, is not
replayed: the cards a publish names may be ones the seat could not have held
then (a searching bot that reads the history treats a history that does not
fit the cards as absent). Without such a history the turn counter and the
hand sizes are checked against what the table shows (cards that left the
deck, novels published, the phase), not against the moves that made them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..data._text import quote
from ..data.cards import DECK, Card
from ..data.catalogue import Catalogue
from ..data.errors import InvalidNotationError, InvalidStateError, InvalidViewError
from ..data.rng import GameRng
from ..engine.game import Game
from ..engine.game_internals import dealt
from ..engine.moves import Move, Publish
from ..engine.rules import RULEBOOK, Phase, Rules, setup_discarders
from ..engine.table import TableNovel
from ..engine.view import HIDDEN, PlayerView, PublicMove, read_public_notation
from ._fields import (
    DEFAULT_CATALOGUE,
    Ledger,
    catalogue_to_json,
    check_seats,
    describe,
    flag_to_json,
    member,
    novel_to_json,
    per_player,
    read_array,
    read_catalogue,
    read_flag,
    read_header,
    read_int,
    read_object,
    read_pending,
    read_players,
    read_progress,
    read_rules,
    read_seat,
    read_table,
)
from .jsontext import loads
from .state_json import MAX_HISTORY

__all__ = [
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "view_from_dict",
    "view_from_json",
    "view_to_dict",
    "view_to_json",
]

VIEW_FORMAT = "pastiche-view"
"""The ``format`` name of a player's view."""
VIEW_VERSION = 1
"""The version of the player's view format written and read by this library."""

_VIEW_FIELDS = (
    "format",
    "version",
    "player",
    "players",
    "phase",
    "to_move",
    "current",
    "turn",
    "hand",
    "hand_sizes",
    "deck_size",
    "discard",
    "tables",
    "supply",
    "flag",
    "pending",
    "passes",
    "trigger",
    "turns_left",
    "end_reason",
    "scores",
)
# Written since R16; a view without them has no history, its null discards face down
# and the default catalogue.
_VIEW_OPTIONAL = ("face_down", "history", "catalogue", "rules")
_PUBLIC_KEYWORDS = frozenset(("keep", "draw", "take", "choose", "publish", "read", "pass", "flag"))


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """A player's view as a JSON-ready dict (format ``pastiche-view``, version 1).

    Face-down discards are ``null``; other players' hands appear only as sizes.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> data = view_to_dict(game.view(0))
    >>> data["format"], data["hand"], data["hand_sizes"], data["discard"]
    ('pastiche-view', ['LOV4', 'LOV7', 'MAG8'], [3, 3, 3], [None])
    """
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "player": view.player,
        "players": view.players,
        "phase": view.phase.value,
        "to_move": view.to_move,
        "current": view.current,
        "turn": view.turn,
        "hand": [str(card) for card in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "deck_size": view.deck_size,
        "discard": [None if card is None else str(card) for card in view.discard],
        "tables": [[novel_to_json(novel) for novel in table] for table in view.tables],
        "supply": dict(view.supply),
        "flag": flag_to_json(view.flag),
        "pending": None if view.pending is None else [str(card) for card in view.pending],
        "passes": view.passes,
        "trigger": view.trigger,
        "turns_left": view.turns_left,
        "end_reason": view.end_reason,
        "scores": list(view.scores),
        "face_down": list(view.face_down),
        "history": [{"player": seat, "move": move} for seat, move in view.history],
        "catalogue": catalogue_to_json(view.catalogue),
        **({} if view.rules == RULEBOOK else {"rules": view.rules.to_dict()}),
    }


def view_from_dict(data: Mapping[str, Any]) -> PlayerView:
    """The :class:`~pastiche_core.engine.view.PlayerView` that :func:`view_to_dict` wrote, once checked.

    A view is untrusted input: it is checked as far as one seat's side allows
    (see the module) before anything plays from it. Errors raise
    :class:`~pastiche_core.data.errors.InvalidViewError` whose message starts with
    the JSON path and names the rule.

    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(1)
    >>> view_from_dict(view_to_dict(view)) == view
    True
    >>> data = view_to_dict(view)
    >>> data["hand_sizes"][1] = 4
    >>> view_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidViewError: $.hand_sizes[1]: the player's hand has 3 cards, not 4
    >>> data = view_to_dict(Game(players=3, seed=7).view(2))
    >>> del data["supply"]["kind-3"]
    >>> view_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidViewError: $.supply.kind-3: missing: every Novel of the catalogue has a supply count (R6)
    """
    try:
        return _read_view(data)
    except InvalidViewError:
        raise
    except InvalidStateError as error:  # the shared field readers' errors, already with a path
        raise InvalidViewError(str(error)) from None


def _read_view(data: Mapping[str, Any]) -> PlayerView:
    """The view of ``data``, every check of the module made."""
    root = read_header(data, VIEW_FORMAT, VIEW_VERSION, _VIEW_FIELDS, _VIEW_OPTIONAL)
    # The catalogue first: the tables and the supply are read against it (R2, R3).
    catalogue = read_catalogue(root.get("catalogue", DEFAULT_CATALOGUE), "$.catalogue")
    players = read_players(root["players"], "$.players")
    rules = read_rules(root.get("rules"), "$.rules", catalogue)  # absent: the rulebook's
    check_seats(players, rules, "$.players")
    player = read_seat(root["player"], "$.player", players)
    phase, to_move, current, turn, passes, trigger, turns_left, end_reason = read_progress(
        root, players
    )

    ledger = Ledger()
    hand = tuple(
        sorted(
            ledger.place(value, f"$.hand[{i}]")
            for i, value in enumerate(read_array(root["hand"], "$.hand"))
        )
    )
    hand_sizes = tuple(
        read_int(value, f"$.hand_sizes[{p}]", 0, len(DECK))
        for p, value in enumerate(per_player(root["hand_sizes"], "$.hand_sizes", players, "sizes"))
    )
    if hand_sizes[player] != len(hand):
        raise _fail(
            f"$.hand_sizes[{player}]",
            f"the player's hand has {len(hand)} cards, not {hand_sizes[player]}",
        )
    deck_size = read_int(root["deck_size"], "$.deck_size", 0, len(DECK))
    discard = tuple(
        None if value is None else ledger.place(value, f"$.discard[{i}]")
        for i, value in enumerate(read_array(root["discard"], "$.discard"))
    )
    tables = tuple(
        tuple(
            TableNovel(p, novel, cards)
            for novel, cards in read_table(table, f"$.tables[{p}]", ledger, catalogue).items()
        )
        for p, table in enumerate(per_player(root["tables"], "$.tables", players, "tables"))
    )
    supply = _read_supply(root["supply"], catalogue)
    flag = read_flag(root["flag"], "$.flag", ledger, players)
    pending = read_pending(root["pending"], "$.pending", ledger)
    choosing = phase is Phase.CHOOSE and to_move == player
    if pending is not None and not choosing:
        raise _fail("$.pending", "the drawn cards are shown only to the player choosing (R11)")
    if pending is None and choosing:
        raise _fail("$.pending", "the player choosing sees the two drawn cards (R11), got null")
    scores = tuple(
        read_int(value, f"$.scores[{p}]", 0)
        for p, value in enumerate(per_player(root["scores"], "$.scores", players, "scores"))
    )
    counted = (
        sum(hand_sizes)
        + deck_size
        + len(discard)
        + sum(len(novel.cards) for table in tables for novel in table)
        + (flag is not None)
        + (2 if phase is Phase.CHOOSE else 0)
    )
    if counted != len(DECK):
        raise _fail("$", f"the view accounts for {counted} cards, the game has {len(DECK)} (R1)")
    face_down = _read_face_down(root, discard, players, player, rules)
    history = _read_history(root.get("history", []), players)
    view = PlayerView(
        player=player,
        players=players,
        phase=phase,
        to_move=to_move,
        current=current,
        turn=turn,
        hand=hand,
        hand_sizes=hand_sizes,
        deck_size=deck_size,
        discard=discard,
        tables=tables,
        supply=supply,
        flag=flag,
        pending=pending,
        passes=passes,
        trigger=trigger,
        turns_left=turns_left,
        end_reason=end_reason,
        scores=scores,
        face_down=face_down,
        history=history,
        catalogue=catalogue,
        rules=rules,
    )
    _check_public_state(view)
    _check_history(view)
    return view


def _fail(path: str, message: str) -> InvalidViewError:
    return InvalidViewError(f"{path}: {message}")


def _read_supply(value: object, catalogue: Catalogue) -> tuple[tuple[str, int], ...]:
    """The supply in catalogue order: a count for every Novel of the catalogue, no other (R6)."""
    data = read_object(value, "$.supply", (), None)
    for novel in data:
        if novel not in catalogue:
            raise _fail(
                member("$.supply", novel),
                f"unknown novel id {quote(novel)} in catalogue {catalogue.name!r} (R2)",
            )
    supply = []
    for spec in catalogue.specs:
        where = member("$.supply", spec.id)
        if spec.id not in data:
            raise _fail(where, "missing: every Novel of the catalogue has a supply count (R6)")
        supply.append((spec.id, read_int(data[spec.id], where, 0, spec.copies)))
    return tuple(supply)


def _check_public_state(view: PlayerView) -> None:
    """Every invariant of a game that one seat can see, on a game made of the view (R1-R12).

    The hidden cards are dealt in card order to the hidden places: the
    invariants (:func:`~pastiche_core.io.invariants.check_invariants`) read only
    what the seat sees and how many cards lie where, so any deal answers alike.
    Their state paths are told as the view's (``$.hands[2]`` is
    ``$.hand_sizes[2]``, ``$.deck`` is ``$.deck_size``).
    """
    from .invariants import check_invariants  # here: it imports this package in turn

    seen = {*view.hand, *(view.pending or ()), *(c for c in view.discard if c is not None)}
    seen.update(card for table in view.tables for novel in table for card in novel.cards)
    if view.flag is not None:
        seen.add(view.flag[1])
    hidden = [card for card in DECK if card not in seen]
    hands: list[set[Card]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.player:
            hands.append(set(view.hand))
        else:
            hands.append(set(hidden[:size]))
            del hidden[:size]
    discard: list[Card] = []
    for card in view.discard:
        if card is None:
            card = hidden.pop()
        discard.append(card)
    pending = view.pending
    if view.phase is Phase.CHOOSE and pending is None:
        pending = (hidden.pop(), hidden.pop())
    game = dealt(
        Game,
        view,
        deck=hidden,
        discard=discard,
        face_down={discard[index] for index in view.face_down},
        hands=hands,
        pending=pending,
        rng=GameRng(0),
    )
    try:
        check_invariants(game)
    except InvalidStateError as error:
        path, _, message = str(error).partition(": ")
        raise _fail(_view_path(path, view.player), message) from None
    for seat, (score, stated) in enumerate(zip(game.scores(), view.scores, strict=True)):
        if score != stated:
            raise _fail(
                f"$.scores[{seat}]",
                f"seat {seat}'s Masterpieces and End Flag make {score} points (R13), got {stated}",
            )


_STATE_PATH = re.compile(r"\$\.(hands|deck|discard)(?:\[(\d+)\])?(.*)")


def _view_path(path: str, player: int) -> str:
    """The view's JSON path of a state path the invariants name."""
    found = _STATE_PATH.fullmatch(path)
    if found is None:
        return path
    name, index, rest = found.groups()
    if name == "hands" and index is not None:
        return "$.hand" + rest if int(index) == player else f"$.hand_sizes[{index}]"
    if name == "deck":
        return "$.deck_size"
    if name == "discard" and index is not None:
        return "$.face_down" if rest == ".face_up" else f"$.discard[{index}]"
    return path


def _check_history(view: PlayerView) -> None:
    """A history that starts at the deal must lead to the view's hand sizes and counters (R10, R11).

    A history that does not start with seat 2's setup keep belongs to a
    composed position (it starts wherever the position was loaded), so only
    its notation is checked. From the deal, the keeps are the first moves, one
    per seat from seat 2 on; then each move is made by the seat whose turn it
    is (the End Flag's by the trigger player), a choose follows its seat's
    draw, and each move's public notation says how hand sizes change (a keep
    leaves three cards, a Write or a Read adds one, a publish removes the
    played and given cards and adds one to each recipient, the End Flag takes
    one) and whether it ends a turn (every move but a two-card draw, whose
    choose does, and the End Flag) or is a pass. So every seat's hand size,
    the turn counter and the passes in succession are known.
    """
    history = view.history
    players, rules = view.players, view.rules
    keepers = rules.keepers(players)  # seats 2 onward by the rulebook (R10)
    first = keepers[0] if keepers else None
    if not history or history[0][0] != first or not history[0][1].startswith("keep"):
        for index, (_, text) in enumerate(history):
            _parse_public(text, index)
        return
    if view.phase is Phase.KEEP:
        keeps = sum(1 for seat in keepers if seat < view.to_move)
    else:
        keeps = len(keepers)
    if len(history) < keeps:
        raise _fail(
            "$.history",
            f"the {view.phase.value} phase follows {keeps} setup keeps (R10), "
            f"the history has {len(history)} moves",
        )
    sizes = list(rules.deal_sizes[:players])
    turn = passes = 0
    moves = [_parse_public(text, index).keyword for index, (_, text) in enumerate(history)]
    for index, (seat, text) in enumerate(history):
        where = f"$.history[{index}]"
        keyword = moves[index]
        if index < keeps:
            if keyword != "keep" or seat != keepers[index]:
                raise _fail(
                    where,
                    f"setup keeps come first, one per seat that keeps (from seat 2 on by the "
                    f"rulebook, R10): expected seat {keepers[index]}'s keep, got seat {seat}'s "
                    f"{keyword!r}",
                )
            sizes[seat] = rules.keep_size
            continue
        if keyword == "keep":
            raise _fail(
                where,
                f"the {view.phase.value} phase follows {keeps} setup keeps (R10), "
                f"this is keep number {index + 1}",
            )
        if keyword != "flag" and seat != turn % players:
            raise _fail(
                f"{where}.player",
                f"turn {turn} is seat {turn % players}'s (R10, R11), got seat {seat}",
            )
        if keyword == "choose" and (index == keeps or moves[index - 1] != "draw"):
            raise _fail(where, "a choose follows its seat's two-card draw (R11)")
        follows = moves[index + 1] if index + 1 < len(history) else None
        drawing = keyword == "draw" and (
            follows == "choose" or (follows is None and view.phase is Phase.CHOOSE)
        )
        if keyword in ("take", "read", "choose") or (keyword == "draw" and not drawing):
            sizes[seat] += 1
        elif keyword == "flag":
            sizes[seat] -= 1
        elif keyword == "publish":
            _publish_sizes(read_public_notation(text), seat, sizes, where)
        if sizes[seat] < 0:
            raise _fail(where, f"seat {seat} plays or gives more cards than it holds (R4, R5)")
        if keyword != "flag" and not drawing:
            turn += 1
            passes = passes + 1 if keyword == "pass" else 0
    for seat, (size, stated) in enumerate(zip(sizes, view.hand_sizes, strict=True)):
        if size != stated:
            raise _fail(
                f"$.hand_sizes[{seat}]",
                f"the history from the deal leaves seat {seat} {size} cards (R10, R11), "
                f"the view says {stated}",
            )
    if turn != view.turn:
        raise _fail(
            "$.turn", f"the history from the deal plays {turn} turns (R11), got {view.turn}"
        )
    if passes != view.passes:
        raise _fail(
            "$.passes",
            f"the history from the deal ends with {passes} passes in succession (R11), "
            f"got {view.passes}",
        )


def _publish_sizes(public: PublicMove, seat: int, sizes: list[int], where: str) -> None:
    """A publish takes its played and given cards from ``seat``'s hand; each recipient gains one."""
    move = public.move
    assert isinstance(move, Publish)
    sizes[seat] -= len(move.played) + len(move.gifts) + len(public.hidden_gifts)
    for to in (*(gift.to for gift in move.gifts), *public.hidden_gifts):
        if not 0 <= to < len(sizes):
            raise _fail(where, f"a gift goes to seat {to}, the game has {len(sizes)} (R5)")
        sizes[to] += 1


def _parse_public(text: str, index: int) -> PublicMove:
    try:
        return read_public_notation(text)
    except InvalidNotationError as error:
        raise _fail(f"$.history[{index}].move", str(error)) from None


def _read_face_down(
    root: Mapping[str, Any],
    discard: tuple[Card | None, ...],
    players: int,
    player: int,
    rules: Rules,
) -> tuple[int, ...]:
    """The face-down indexes: a bottom block of setup discards, shown only to their discarder."""
    if "face_down" not in root:
        return tuple(i for i, card in enumerate(discard) if card is None)
    discarders = setup_discarders(players, rules)
    indexes = []
    for position, value in enumerate(read_array(root["face_down"], "$.face_down")):
        index = read_int(value, f"$.face_down[{position}]", 0, len(discard) - 1)
        if index != position:
            raise _fail(
                f"$.face_down[{position}]",
                "face-down cards are the setup discards at the bottom of the pile (R10), "
                f"expected index {position}, got {index}",
            )
        indexes.append(index)
    if len(indexes) > len(discarders):
        raise _fail("$.face_down", f"only {len(discarders)} cards are discarded at setup (R10)")
    for index, card in enumerate(discard):
        down = index < len(indexes)
        mine = down and discarders[index] == player
        if down and not mine and card is not None:
            raise _fail(
                f"$.discard[{index}]",
                "a face-down card shows only to the player who discarded it (R16)",
            )
        if card is None and not (down and not mine):
            raise _fail(f"$.discard[{index}]", "only a hidden face-down card is null (R16)")
    return tuple(indexes)


def _read_history(value: object, players: int) -> tuple[tuple[int, str], ...]:
    """The public history: ``{"player": seat, "move": notation}`` per move (R16)."""
    entries = read_array(value, "$.history")
    if len(entries) > MAX_HISTORY:
        raise _fail("$.history", f"more than {MAX_HISTORY} moves")
    history = []
    for index, entry in enumerate(entries):
        where = f"$.history[{index}]"
        item = read_object(entry, where, ("player", "move"))
        seat = read_seat(item["player"], f"{where}.player", players)
        history.append((seat, _read_public_move(item["move"], f"{where}.move")))
    return tuple(history)


def _read_public_move(value: object, path: str) -> str:
    """A move in notation with hidden cards written ``?``: checked as far as it shows."""
    if not isinstance(value, str) or not value or len(value) > 400:
        raise _fail(path, f"expected a move in notation, got {describe(value)}")
    words = value.split()
    if not words or words[0] not in _PUBLIC_KEYWORDS:
        raise _fail(path, f"expected a move in notation, got {describe(value)}")
    hidden = any(word == HIDDEN or word.endswith(":" + HIDDEN) for word in words)
    if not hidden:
        try:
            Move.parse(value)
        except InvalidNotationError as error:
            raise _fail(path, str(error)) from None
    elif words[0] not in ("keep", "choose", "publish"):
        raise _fail(path, f"'{words[0]}' hides no card (R16), got {describe(value)}")
    return value


def view_to_json(view: PlayerView, indent: int | None = None) -> str:
    """A player's view as JSON text (see :func:`view_to_dict`).

    >>> from pastiche_core import Game
    >>> view_to_json(Game(players=3, seed=7).view(0))[:47]
    '{"format": "pastiche-view", "version": 1, "play'
    """
    return json.dumps(view_to_dict(view), indent=indent)


def view_from_json(text: str | bytes) -> PlayerView:
    """The view a JSON document describes (see :func:`view_from_dict`).

    >>> view_from_json('{"format": "pastiche-view", "version": 1, "x": 1}')
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidViewError: $.x: unknown field
    >>> view_from_json("[")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidViewError: $: not valid JSON: Expecting value (line 1, column 2)
    """
    try:
        data = loads(text, expected="a view JSON object")
    except InvalidStateError as error:
        raise InvalidViewError(str(error)) from None
    return view_from_dict(data)
