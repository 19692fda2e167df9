"""The game in plain words, as one player may follow it: a move log, a Novel legend, the outcome.

A web page (or any frontend) shows these beside the table so that a player can
follow the game without reading move notation or the rulebook's numbers:

* :func:`narrate` turns a view's public history into :class:`LogEntry` lines,
  oldest first ("Player 2 read your kind-3 and took FAN9", "Player 1 gave you HOR4", "the
  End Flag is lost");
* :func:`novel_legend` lists every Novel of the catalogue with its requirement,
  points and the copies left (:class:`LegendEntry`);
* :func:`describe_outcome` says who won a finished game, by which tie-break, and
  what became of the End Flag (:class:`Outcome`).

Everything is built from a :class:`~pastiche_core.engine.view.PlayerView`, which
holds only what its player may know (R16): the public history hides the cards
another seat kept at setup or after drawing and the gifts between two other
seats, and the view's move records show a card taken from the discard pile
only when it lay face up or the viewer laid it there. So a log never names a
card its reader may not know.

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> for move in ("keep MYT1 HOR7 HOR8", "draw", "choose SCI5", "draw"):
...     game.apply(move)
>>> [entry.text for entry in narrate(game.view(0))]
['Player 2 kept three cards and laid a card face down on the discard pile.', \
'You drew FAN11 and SCI5, kept SCI5 and laid FAN11 face up on the discard pile.', \
'Player 1 drew two cards.']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..data._text import plural
from ..data.cards import Card
from ..data.catalogue import Catalogue
from ..engine.game import GameResult
from ..engine.moves import Choose, Keep, Publish, Read, TakeFlag
from ..engine.rules import END_THRESHOLD, Phase, Rules, rules_of
from ..engine.table import is_masterpiece
from ..engine.view import MoveRecord, PlayerView, PublicMove, read_public_notation

__all__ = [
    "LegendEntry",
    "LogEntry",
    "Outcome",
    "describe_outcome",
    "narrate",
    "novel_legend",
    "seat_names",
]

Part = str | tuple[str, str]
"""A piece of a log line: plain text, or ``("card", "MYS7")`` / ``("novel", "kind-3")``."""


def seat_names(players: int, viewer: int | None = None) -> tuple[str, ...]:
    """The short name of every seat: ``player 0``, ``player 1``…, and ``you`` for ``viewer``.

    The hints' explanations name seats the same way, so a page reads alike throughout.

    >>> seat_names(3, viewer=1)
    ('player 0', 'you', 'player 2')
    """
    return tuple("you" if seat == viewer else f"player {seat}" for seat in range(players))


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the move log: who did what, in plain words.

    >>> entry = LogEntry(3, 1, "read", ("Player 1 read your ", ("novel", "kind-3"), " and took ",
    ...                                  ("card", "FAN9"), "."), (12,), True)
    >>> entry.text
    'Player 1 read your kind-3 and took FAN9.'
    >>> entry.to_dict()["parts"][1]
    {'novel': 'kind-3'}
    """

    turn: int
    """The turn the line belongs to, counted from 1; 0 for the setup keeps (R10)."""
    player: int | None
    """The seat that acted (the trigger player for the end-game lines), ``None`` for the game's end."""
    kind: str
    """The move's keyword (``keep``, ``draw``, ``take``, ``publish``, ``read``, ``pass``, ``flag``;
    a draw and its choose make one ``draw`` line), or ``end-game`` (the countdown starts, R12) or
    ``over`` (the game has ended)."""
    parts: tuple[Part, ...]
    """The line in pieces: text, and cards and Novels a page can draw or explain on hover."""
    moves: tuple[int, ...]
    """The indexes in the view's history of the moves the line tells (none for ``end-game`` and
    ``over``)."""
    about_you: bool
    """Whether the line concerns the viewer: their move, their novel read or cited, a gift to them."""

    @property
    def text(self) -> str:
        """The line as plain text.

        >>> LogEntry(1, 0, "pass", ("You passed.",), (4,), True).text
        'You passed.'
        """
        return "".join(part if isinstance(part, str) else part[1] for part in self.parts)

    def to_dict(self) -> dict[str, Any]:
        """The line as JSON: ``parts`` holds strings and ``{"card": …}`` or ``{"novel": …}``.

        >>> LogEntry(1, 0, "pass", ("You passed.",), (4,), True).to_dict()["text"]
        'You passed.'
        """
        return {
            "turn": self.turn,
            "player": self.player,
            "kind": self.kind,
            "text": self.text,
            "parts": [part if isinstance(part, str) else {part[0]: part[1]} for part in self.parts],
            "moves": list(self.moves),
            "about_you": self.about_you,
        }


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One Novel of the catalogue as a legend shows it.

    >>> novel_legend(Catalogue.default())[0].to_dict()
    {'id': 'straight-5', 'name': '5-Card Straight', 'requirement': '5 cards of consecutive \
ranks', 'points': 1, 'copies': 4, 'left': 4, 'publishable': True}
    """

    id: str
    """The Novel's id, as moves and tables name it (``'kind-3'``)."""
    name: str
    """The name printed on the card (``'3 of a Kind'``)."""
    requirement: str
    """What the played and cited cards must make, exactly (R4), in words; for the End Flag how
    it is taken (R12)."""
    points: int
    """The points it scores as a Masterpiece (R13), or the End Flag's."""
    copies: int
    """The copies of the card in the game (R2, R6)."""
    left: int
    """The copies still in the supply: first come, first served (R6)."""
    publishable: bool
    """Whether it can be published (every Novel but the End Flag)."""

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON.

        >>> novel_legend(Catalogue.default())[-1].to_dict()["id"]
        'end-flag'
        """
        return {
            "id": self.id,
            "name": self.name,
            "requirement": self.requirement,
            "points": self.points,
            "copies": self.copies,
            "left": self.left,
            "publishable": self.publishable,
        }


def _flag_rule(threshold: int) -> str:
    return (
        f"taken by the first player whose Masterpieces are worth {threshold} points or more, "
        "with a card of their hand under it; never published, read or cited"
    )


FLAG_RULE = _flag_rule(END_THRESHOLD)
"""How the End Flag is taken by the rulebook, in words (R12): the legend's requirement for it
(a game by house rules says its own threshold)."""


def novel_legend(
    catalogue: Catalogue,
    supply: Sequence[tuple[str, int]] | None = None,
    rules: Rules | None = None,
) -> tuple[LegendEntry, ...]:
    """Every Novel of ``catalogue``, in catalogue order, with the copies ``supply`` has left.

    ``supply`` is ``(novel, copies)`` pairs, as a view holds it; without it
    every copy is left. The End Flag's entry says the threshold of ``rules``
    (a game's own, house rules too; default the catalogue's, R12).

    >>> from pastiche_core import Game, Rules
    >>> view = Game(players=3, seed=7).view(0)
    >>> [(e.id, e.requirement, e.points) for e in novel_legend(view.catalogue, view.supply)][4]
    ('kind-3', '3 cards of one rank', 1)
    >>> novel_legend(view.catalogue, rules=Rules(end_threshold=10))[-1].requirement[:60]
    'taken by the first player whose Masterpieces are worth 10 po'
    """
    left = dict(supply) if supply is not None else {}
    rules = rules_of(catalogue, rules)
    flag_rule = FLAG_RULE if rules.is_rulebook else _flag_rule(rules.end_threshold)
    return tuple(
        LegendEntry(
            spec.id,
            spec.name,
            spec.requirement if spec.publishable else flag_rule,
            spec.points,
            spec.copies,
            left.get(spec.id, spec.copies),
            spec.publishable,
        )
        for spec in catalogue.specs
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, for a game-over panel (R11, R12, R13).

    ``tie_break`` says what decided the winner: ``'points'`` (one player had
    the most points), ``'fewer-masterpieces'`` (a tie on points went to fewer
    Masterpieces, R13) or ``'shared'`` (a tie on both: a shared win). ``flag``
    is the End Flag's fate (R12): ``'taken'``, ``'lost'`` (the trigger player
    had no card to put under it) or ``'untaken'`` (nobody reached the
    threshold).
    """

    reason: str
    """How the game ended: ``'countdown'`` (R12) or ``'all-pass'`` (R11)."""
    names: tuple[str, ...]
    """Every seat's name, as the lines write it."""
    scores: tuple[int, ...]
    """Every seat's points: Masterpieces plus the End Flag (R13)."""
    masterpieces: tuple[int, ...]
    """Every seat's number of Masterpieces, the tie-break (R13)."""
    winners: tuple[int, ...]
    """The winning seats; more than one for a shared win (R13)."""
    tie_break: str
    """What decided the winner: ``'points'``, ``'fewer-masterpieces'`` or ``'shared'`` (R13)."""
    flag: str
    """The End Flag's fate: ``'taken'``, ``'lost'`` or ``'untaken'`` (R12)."""
    flag_player: int | None
    """The seat that took the End Flag or lost it (the trigger player), else ``None``."""
    flag_card: Card | None
    """The card under the End Flag once taken (it lies face up), else ``None``."""
    lines: tuple[str, ...]
    """The outcome in plain words: the winner, how the game ended, the End Flag."""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON (cards in notation).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> while not game.is_over:
        ...     game.apply(game.legal_moves[0])
        >>> outcome = describe_outcome(game.view(0), game.result)
        >>> sorted(outcome.to_dict())[:4]
        ['flag', 'flag_card', 'flag_player', 'lines']
        """
        return {
            "reason": self.reason,
            "names": list(self.names),
            "scores": list(self.scores),
            "masterpieces": list(self.masterpieces),
            "winners": list(self.winners),
            "tie_break": self.tie_break,
            "flag": self.flag,
            "flag_player": self.flag_player,
            "flag_card": None if self.flag_card is None else str(self.flag_card),
            "lines": list(self.lines),
        }


def _join(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(value: int, noun: str) -> str:
    """``a card``, ``two cards``, ``12 cards``."""
    number = _NUMBERS[value] if value < len(_NUMBERS) else str(value)
    return f"{number} {noun}" + ("" if value == 1 else "s")


def _title(name: str) -> str:
    """Words at the start of a sentence: ``you`` becomes ``You``, ``player 2`` ``Player 2``."""
    return name[:1].upper() + name[1:]


def describe_outcome(
    view: PlayerView, result: GameResult, names: Sequence[str] | None = None
) -> Outcome:
    """The finished game of ``result`` told from ``view`` (any seat's: the outcome is public).

    ``names`` names the seats (default :func:`seat_names` with the view's
    player as ``you``). The winners are ``result``'s (R13); the tie-break
    says which rule picked them among the seats with the most points.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> while not game.is_over:
    ...     game.apply(game.legal_moves[0])
    >>> outcome = describe_outcome(game.view(0), game.result)
    >>> outcome.reason, outcome.winners, outcome.tie_break, outcome.flag
    ('countdown', (1, 2), 'shared', 'lost')
    >>> print("\\n".join(outcome.lines))
    Player 1 and player 2 share the win: 17 points and 6 Masterpieces each.
    The game ended when the end-game countdown ran out.
    The End Flag was lost: player 1 reached 15 points with no card in hand to put under it.
    """
    names = tuple(names) if names is not None else seat_names(view.players, view.player)
    scores, counts, winners = result.scores, result.masterpieces, result.winners
    best = max(scores)
    top = [seat for seat, score in enumerate(scores) if score == best]
    first = names[winners[0]]
    title = _title(first)
    verb = "win" if names[winners[0]] == "you" else "wins"
    if len(top) == 1:
        tie_break = "points"
        lines = [f"{title} {verb} with {plural(best, 'point')}."]
    elif len(winners) == 1:
        # R13: a tie on points goes to the player with fewer Masterpieces.
        tie_break = "fewer-masterpieces"
        others = [counts[seat] for seat in top if seat != winners[0]]
        lines = [
            f"{_title(_join([names[seat] for seat in top]))} tie on {plural(best, 'point')}; "
            f"{first} {verb} with fewer Masterpieces ({counts[winners[0]]} against "
            f"{_join([str(count) for count in others])})."
        ]
    else:
        tie_break = "shared"
        shared = _join([names[seat] for seat in winners])
        lines = [
            f"{_title(shared)} share the win: {plural(best, 'point')} and "
            f"{counts[winners[0]]} Masterpieces each."
        ]
    lines.append(
        "The game ended when the end-game countdown ran out."
        if result.reason == "countdown"
        else "The game ended when every player passed in a row."
    )
    flag_points = view.catalogue.end_flag.points
    threshold = view.rules.end_threshold  # R12: the game's own
    flag_player: int | None
    flag_card: Card | None = None
    if view.flag is not None:
        flag, (flag_player, flag_card) = "taken", view.flag
        who = names[flag_player]
        lines.append(
            f"{_title(who)} took the End Flag (+{plural(flag_points, 'point')}) with {flag_card} under it."
        )
    elif view.trigger is not None:
        flag, flag_player = "lost", view.trigger
        lines.append(
            f"The End Flag was lost: {names[flag_player]} reached {threshold} points "
            "with no card in hand to put under it."
        )
    else:
        flag, flag_player = "untaken", None
        lines.append(
            f"Nobody's Masterpieces reached {threshold} points: the End Flag was never taken."
        )
    return Outcome(
        result.reason,
        names,
        scores,
        counts,
        winners,
        tie_break,
        flag,
        flag_player,
        flag_card,
        tuple(lines),
    )


class _Teller:
    """Writes the lines of one view's log, with the view's names and tables at hand."""

    def __init__(self, view: PlayerView, names: tuple[str, ...]) -> None:
        self.view = view
        self.names = names
        self.me = view.player
        # A Masterpiece keeps its one card for good (it can be neither read nor moved, R6,
        # R11), so a citation's card is the one it shows now.
        self.tables = {
            (novel.owner, novel.novel): novel.cards for seat in view.tables for novel in seat
        }

    def subject(self, seat: int) -> str:
        return _title(self.names[seat])

    def whose(self, owner: int, actor: int) -> str:
        if owner == actor:
            return "your own " if owner == self.me else "their own "
        return "your " if owner == self.me else f"{self.names[owner]}'s "

    def cards(self, cards: Sequence[Card], last: str = " ") -> list[Part]:
        """The cards as parts, apart by spaces (``last`` before the last one)."""
        parts: list[Part] = []
        for index, card in enumerate(cards):
            if index:
                parts.append(last if index == len(cards) - 1 else " ")
            parts.append(("card", str(card)))
        return parts


def narrate(view: PlayerView, names: Sequence[str] | None = None) -> tuple[LogEntry, ...]:
    """The move log of ``view``'s public history in plain words, oldest line first.

    One line per move, a Write ① and its choice together (R11); a line when a
    player's Masterpieces first reach the threshold (the End Flag taken or
    lost, R12) and one when the game is over. ``names`` names the seats
    (default :func:`seat_names`: ``player 1``…, ``you`` for the view's player). Only
    the view is read, so the lines name no card the player may not know (R16).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("take")   # seat 2 laid FAN10 face down
    >>> [narrate(game.view(seat))[-1].text for seat in range(3)]
    ['You took FAN10 from the discard pile.', 'Player 0 took a face-down card from the discard \
pile.', 'Player 0 took FAN10 from the discard pile: you had laid it face down.']
    """
    names = tuple(names) if names is not None else seat_names(view.players, view.player)
    history = view.history
    records: Sequence[MoveRecord | None] = (
        view.records if len(view.records) == len(history) else [None] * len(history)
    )
    teller = _Teller(view, names)
    publics = [read_public_notation(text) for _, text in history]
    keywords = [public.keyword for public in publics]

    def two_card_draw(index: int) -> bool:
        # A draw is a two-card Write ① when its choose follows (or is awaited now, R11).
        if keywords[index] != "draw":
            return False
        if index + 1 < len(history):
            return keywords[index + 1] == "choose"
        return view.phase is Phase.CHOOSE

    # The turn each move belongs to: the moves that end a turn are counted back from the
    # view's turn counter, so a history that does not start at the deal numbers right too.
    ends = [
        keyword not in ("keep", "flag") and not two_card_draw(index)
        for index, keyword in enumerate(keywords)
    ]
    turn = view.turn - sum(ends)
    trigger_turn = None
    if view.trigger is not None and view.turns_left is not None:
        # The countdown starts at 2n - 1 turns when the trigger turn ends (R12).
        trigger_turn = view.turn - (2 * view.players - 1) + view.turns_left
    # The last read of a novel that now has one card made it a Masterpiece (R11).
    last_read: dict[tuple[int, str], int] = {}
    for index, public in enumerate(publics):
        if isinstance(public.move, Read):
            last_read[(public.move.source.owner, public.move.source.novel)] = index

    lines: list[LogEntry] = []
    index = 0
    while index < len(history):
        seat = history[index][0]
        keyword = keywords[index]
        # The End Flag is taken between turns, just after the turn that triggered it (R12).
        line_turn = 0 if keyword == "keep" else turn if keyword == "flag" else turn + 1
        covered = [index]
        if two_card_draw(index) and index + 1 < len(history):
            covered.append(index + 1)
        parts, about = _tell(teller, index, seat, publics, records, covered, last_read)
        lines.append(LogEntry(line_turn, seat, keyword, tuple(parts), tuple(covered), about))
        for at in covered:
            turn += ends[at]
        if trigger_turn is not None and turn == trigger_turn and ends[covered[-1]]:
            lines.append(_trigger_line(teller, view, turn))
            trigger_turn = None
        index = covered[-1] + 1
    if view.phase is Phase.OVER:
        lines.append(LogEntry(turn, None, "over", (_over_text(view),), (), False))
    return tuple(lines)


def _trigger_line(teller: _Teller, view: PlayerView, turn: int) -> LogEntry:
    """The end game starts: the trigger player's Masterpieces reached the threshold (R12)."""
    seat = view.trigger
    assert seat is not None
    mine = seat == teller.me
    name = teller.names[seat]
    whose = "Your" if mine else f"{teller.subject(seat)}'s"
    text = f"{whose} Masterpieces are now worth {view.rules.end_threshold} points or more"
    if view.flag is not None or view.phase is Phase.FLAG:
        text += f": {name} {'take' if mine else 'takes'} the End Flag"
    else:
        has = "have" if mine else "has"
        text += f", but {name} {has} no card in hand to put under the End Flag: it is lost"
    text += f". The game ends after {2 * view.players - 1} more turns."
    return LogEntry(turn, seat, "end-game", (text,), (), mine)


def _over_text(view: PlayerView) -> str:
    if view.end_reason == "all-pass":
        return "The game is over: every player passed in a row."
    return "The game is over: the end-game countdown ran out."


def _tell(
    teller: _Teller,
    index: int,
    seat: int,
    publics: Sequence[PublicMove],
    records: Sequence[MoveRecord | None],
    covered: Sequence[int],
    last_read: dict[tuple[int, str], int],
) -> tuple[list[Part], bool]:
    """One move's line (a draw with its choose) and whether it concerns the viewer."""
    me = teller.me
    mine = seat == me
    who = teller.subject(seat)
    public = publics[index]
    move = public.move
    record = records[index]
    keyword = public.keyword
    if keyword == "keep":
        # A seat dealt more than the game's keep size keeps that many and lays the rest face
        # down (R10: seats 2 on keep 3); another seat's keep shows none of them (R16).
        rules = teller.view.rules
        down = rules.deal_sizes[seat] - rules.keep_size
        if isinstance(move, Keep) and mine:
            laid = record.laid_down if record is not None and record.laid_down else move.discard
            parts: list[Part] = [f"{who} kept ", *teller.cards(move.cards)]
            if laid:
                parts += [" and laid ", *teller.cards(laid), " face down on the discard pile"]
            return [*parts, "."], True
        text = f"{who} kept {_count(rules.keep_size, 'card')}"
        if down > 0:
            text += f" and laid {_count(down, 'card')} face down on the discard pile"
        return [text + "."], False
    if keyword == "draw":
        if len(covered) == 1:
            drawn = record.drawn if record is not None else ()
            taken = record.taken if record is not None else None
            pending = teller.view.pending if index == len(publics) - 1 and mine else None
            if pending is not None or len(drawn) == 2:
                shown = pending if pending is not None else drawn
                return [f"{who} drew ", *teller.cards(shown, " and "), "."], mine
            if teller.view.phase is Phase.CHOOSE and index == len(publics) - 1:
                return [f"{who} drew two cards."], mine
            # A one-card Write ①: deck and pile held just that card (R11).
            card = drawn[0] if drawn else taken
            if card is not None:
                return [f"{who} drew the last card, ", ("card", str(card)), "."], mine
            return [f"{who} drew the last card."], mine
        choose = publics[covered[1]].move
        chosen = records[covered[1]]
        laid_up = chosen.laid_up if chosen is not None else None
        parts = [f"{who} drew "]
        if mine and record is not None and record.drawn:
            parts += teller.cards(record.drawn, " and ")
        else:
            parts.append("two cards")
        if mine and isinstance(choose, Choose):
            parts += [", kept ", ("card", str(choose.card))]
        else:
            parts.append(", kept one")
        if laid_up is not None:
            parts += [" and laid ", ("card", str(laid_up)), " face up on the discard pile"]
        return [*parts, "."], mine
    if keyword == "take":
        taken = record.taken if record is not None else None
        if taken is None:
            # Face down and laid by another seat (R10, R16), or a view without move records.
            hidden = record is not None and record.taken_from is not None
            what = "a face-down card from" if hidden else "the top card of"
            return [f"{who} took {what} the discard pile."], mine
        parts = [f"{who} took ", ("card", str(taken)), " from the discard pile"]
        if record is not None and record.taken_from == me and not mine:
            parts.append(": you had laid it face down")
        return [*parts, "."], mine
    if keyword == "pass":
        return [f"{who} passed."], mine
    if isinstance(move, TakeFlag):
        return [f"{who} put ", ("card", str(move.card)), " under the End Flag."], mine
    if isinstance(move, Read):
        source = move.source
        parts = [
            f"{who} read {teller.whose(source.owner, seat)}",
            ("novel", source.novel),
            " and took ",
            ("card", str(move.card)),
        ]
        cards = teller.tables.get((source.owner, source.novel))
        if (
            cards is not None
            and is_masterpiece(cards)
            and last_read.get((source.owner, source.novel)) == index
        ):
            parts.append(": it is now a Masterpiece")
        return [*parts, "."], mine or source.owner == me
    if isinstance(move, Publish):
        return _tell_publish(teller, seat, move, public.hidden_gifts)
    return [f"{who} played {teller.view.history[index][1]}."], mine  # pragma: no cover


def _tell_publish(
    teller: _Teller, seat: int, move: Publish, hidden_gifts: Sequence[int]
) -> tuple[list[Part], bool]:
    me = teller.me
    who = teller.subject(seat)
    parts: list[Part] = [
        f"{who} published ",
        ("novel", move.novel),
        " with ",
        *teller.cards(move.played),
    ]
    about = seat == me
    if move.cited:
        parts.append(", citing ")
        for number, ref in enumerate(move.cited):
            if number:
                parts.append(" and " if number == len(move.cited) - 1 else ", ")
            parts += [teller.whose(ref.owner, seat), ("novel", ref.novel)]
            cards = teller.tables.get((ref.owner, ref.novel))
            if cards is not None and is_masterpiece(cards):
                parts += [" (", ("card", str(cards[0])), ")"]
            about = about or ref.owner == me
    # The gifts by recipient, in the order the move names them (R5); the cards the viewer
    # did not see (between two other seats) are only counted (R16).
    given: dict[int, tuple[list[Card], list[int]]] = {}
    for gift in move.gifts:
        given.setdefault(gift.to, ([], [0]))[0].append(gift.card)
        about = about or gift.to == me
    for to_seat in hidden_gifts:
        given.setdefault(to_seat, ([], [0]))[1][0] += 1
    if given:
        parts.append("; gave ")
        for number, (to_seat, (shown, hidden)) in enumerate(given.items()):
            if number:
                parts.append(" and " if number == len(given) - 1 else ", ")
            parts.append("you " if to_seat == me else f"{teller.names[to_seat]} ")
            if shown:
                parts += teller.cards(shown)
            else:
                parts.append(_count(hidden[0], "card"))
    if is_masterpiece(move.played):
        # R7: a novel published with one played card is a Masterpiece at once.
        points = teller.view.catalogue[move.novel].points
        parts.append(f": a Masterpiece at once, worth {plural(points, 'point')}")
    return [*parts, "."], about
