"""Hints: "what should I do now, and why?" for one player's view (R16).

:func:`analyse` searches the view's decision (:func:`~pastiche_core.ai.search.search`)
and returns an :class:`Analysis`: the candidate moves ranked best first, each
with its estimated chance of winning, its expected final score margin (the
player's score less the best other score), the simulations behind the
estimates and a one-line explanation built from facts of the position — the
points a publish scores now or once read down, the gifts and to whom, the
copies of the Novel left in the supply, the cards kept, what a rival could
publish with the gifts (the solver run on the cards the player knows to be in
that rival's hand), the countdown of the end game.

Its :meth:`~Analysis.to_dict` is the ``pastiche-hint`` document of the hint
contract (``pastiche_core.io.schema("hint")``); it depends on nothing the
player cannot see. Every bound on the work is a count (simulations, the
solver's options, :data:`RIVAL_CHECKS`), so a complete analysis of the same
view, budget and seed is the same document, byte for byte, on a fast or a
slow machine. The budget's milliseconds are only a ceiling: once they have
passed, the analysis stops where it is, says ``complete: false`` and lists
what it cut short (:data:`CUT_REASONS`); the clock never chooses between
answers.

>>> from pastiche_core import Game
>>> game = Game(players=4, seed=3)
>>> analysis = analyse(game.view(2), simulations=16, seed=1)
>>> analysis.moves[0].move in game.legal_moves, analysis.to_dict()["format"]
(True, 'pastiche-hint')
>>> analyse(game.view(0), budget_ms=50).moves   # not player 0's decision
()
"""

from __future__ import annotations

import html
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from ..data._text import fit_line, plural
from ..data.cards import Card, format_cards
from ..data.errors import InvalidArgumentError, InvalidStateError
from ..data.files import read_file
from ..engine.moves import Choose, Draw, Keep, Move, Pass, Publish, Read, TakeDiscard, TakeFlag
from ..engine.rules import Phase
from ..engine.table import is_masterpiece
from ..engine.view import PlayerView
from ..io.jsontext import MAX_JSON_BYTES, loads
from ..io.state_json import STATE_FORMAT, state_from_dict
from ..io.view_json import VIEW_FORMAT, view_from_dict, view_to_dict
from ..solver.position import Masterpiece, Position
from ..solver.queries import best
from .determinize import Knowledge
from .playout import PlayoutPolicy
from .search import (
    DEFAULT_BUDGET_MS,
    DEFAULT_SETTINGS,
    SearchResult,
    candidate_moves,
    ceiling,
    check_budget,
    check_simulations,
    past,
    search,
    settings_for,
    simulations_for,
    time_left,
)

__all__ = [
    "CUT_REASONS",
    "HINT_FORMAT",
    "HINT_VERSION",
    "MAX_SEED",
    "RIVAL_CHECKS",
    "Analysis",
    "RankedMove",
    "analyse",
    "explain",
    "load_view",
    "ranking_key",
]

HINT_FORMAT = "pastiche-hint"
"""The ``format`` of the hint document."""
HINT_VERSION = 1
"""The version of the hint document."""
MAX_SEED = 2**64 - 1
"""The largest seed an analysis accepts (seeds are 64-bit, from 0)."""
RIVAL_CHECKS = 6
"""Publishes, from the top of the ranking, whose explanation asks the solver what the
gifts' recipients could publish with them (one solver call per recipient).

A count, not a time, so that every machine checks the same publishes; the solver on a
rival's known cards is quick, and six keeps the explanations of the moves a player
reads first informative without the checks of a long ranking weighing on the budget."""
CUT_REASONS = ("publishes", "simulations", "moves", "rivals")
"""What an incomplete analysis may have cut short, in this order (the hint document's ``cut``).

``"publishes"``: the ceiling passed before the solver had found every candidate publish;
``"simulations"``: it passed before the budget's simulations had run; ``"moves"``: some
candidate moves were never simulated (the ceiling, or fewer simulations than moves);
``"rivals"``: it passed before the rival checks (:data:`RIVAL_CHECKS`), and some
explanations leave out what a gift's recipient could publish."""
_CUT_WORDS = {
    "publishes": "the time ran out before every publish was found",
    "simulations": "the time ran out before every simulation had run",
    "moves": "some moves were not simulated",
    "rivals": "the time ran out before every rival was checked",
}


@dataclass(frozen=True, slots=True)
class RankedMove:
    """One ranked move of an :class:`Analysis` (one entry of the hint document's ``moves``).

    >>> from pastiche_core import Move
    >>> RankedMove(Move.parse("draw"), 0.4, 1.25, 30, "draws").to_dict()["move"]
    'draw'
    """

    move: Move
    """The move, legal in the view's position."""
    win_probability: float
    """The estimated chance of winning after the move, in [0, 1] (R13: a shared win counts as a fraction)."""
    margin: float
    """The expected final score less the best other player's score."""
    visits: int
    """The simulations the estimates rest on."""
    explanation: str
    """Why, in a line of facts of the position."""

    def to_dict(self) -> dict[str, Any]:
        """The entry as the hint document writes it.

        >>> from pastiche_core import Move
        >>> RankedMove(Move.parse("pass"), 0.5, -1.0, 3, "nothing else").to_dict()
        {'move': 'pass', 'win_probability': 0.5, 'margin': -1.0, 'visits': 3, 'explanation': 'nothing else'}
        """
        return {
            "move": str(self.move),
            "win_probability": self.win_probability,
            "margin": self.margin,
            "visits": self.visits,
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The answer to "what should I do now, and why?" for one view.

    ``moves`` are ranked best first, by :func:`ranking_key` (empty when the player has nothing to
    decide: not their move, or the game is over). ``simulations`` is the budget,
    in simulations of the playout policy, and ``simulations_run`` the simulations
    run (fewer when the greedy rival model's work was charged to the budget:
    :func:`~pastiche_core.ai.search.rival_charge`); ``complete`` is
    ``False`` when something was cut short, and ``cut`` then says what
    (:data:`CUT_REASONS`): only an incomplete analysis may differ from another
    of the same input. ``str`` is a table; ``to_dict`` is the hint document.

    >>> from pastiche_core import Game
    >>> analysis = analyse(Game(players=3, seed=7).view(2), simulations=8, seed=2)
    >>> analysis
    <Analysis player 2, keep: 4 moves, best 'keep ...' ...% (...), 8 simulations, complete>
    """

    player: int
    """The view's player, whose decision this is."""
    phase: Phase
    """The phase of the decision."""
    budget_ms: int
    """The budget in milliseconds (simulations and wall-clock ceiling)."""
    seed: int
    """The seed of the search."""
    complete: bool
    """Whether the analysis ran in full (only then is it reproducible byte for byte)."""
    moves: tuple[RankedMove, ...]
    """The ranked moves, best first."""
    simulations: int
    """The budget, in simulations of the playout policy."""
    simulations_run: int
    """The simulations run (fewer than the budget's when the rival model's work was charged)."""
    cut: tuple[str, ...] = ()
    """What was cut short (names from :data:`CUT_REASONS`, in that order); empty when complete."""

    @property
    def best(self) -> Move | None:
        """The top-ranked move, ``None`` when there is nothing to decide.

        >>> from pastiche_core import Game
        >>> analyse(Game(players=3, seed=7).view(0), budget_ms=20).best is None
        True
        """
        return self.moves[0].move if self.moves else None

    def to_dict(self) -> dict[str, Any]:
        """The ``pastiche-hint`` document (see ``pastiche_core.io.schema("hint")``).

        An incomplete analysis also writes ``cut``, the list of what was cut short.

        >>> from pastiche_core import Game
        >>> data = analyse(Game(players=3, seed=7).view(0), budget_ms=20).to_dict()
        >>> data
        {'format': 'pastiche-hint', 'version': 1, 'player': 0, 'phase': 'keep', 'budget_ms': 20, 'seed': 0, 'complete': True, 'moves': []}
        >>> analyse(Game(players=3, seed=7).view(2), simulations=2).to_dict()["cut"]
        ['moves']
        """
        data: dict[str, Any] = {
            "format": HINT_FORMAT,
            "version": HINT_VERSION,
            "player": self.player,
            "phase": self.phase.value,
            "budget_ms": self.budget_ms,
            "seed": self.seed,
            "complete": self.complete,
            "moves": [move.to_dict() for move in self.moves],
        }
        if not self.complete:
            data["cut"] = list(self.cut)
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """The hint document as JSON text, keys in contract order.

        >>> from pastiche_core import Game
        >>> print(analyse(Game(players=3, seed=7).view(0), budget_ms=20).to_json(None))
        {"format": "pastiche-hint", "version": 1, "player": 0, "phase": "keep", "budget_ms": 20, "seed": 0, "complete": true, "moves": []}
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def _simulations_words(self) -> str:
        # A search charged the rival model's work runs fewer simulations than its budget
        # and is still complete: "71 of 96" would read as cut short.
        run, budget = self.simulations_run, self.simulations
        return f"{run} simulations" if run == budget else f"{run} simulations (budget {budget})"

    def _status(self) -> str:
        if self.complete:
            return "complete"
        return f"incomplete ({', '.join(self.cut)})" if self.cut else "incomplete"

    def _status_words(self) -> str:
        if self.complete or not self.cut:
            return self._status()
        return "incomplete: " + "; ".join(_CUT_WORDS.get(reason, reason) for reason in self.cut)

    def __repr__(self) -> str:
        if not self.moves:
            return (
                f"<Analysis player {self.player}, {self.phase.value}: nothing to decide, "
                f"{self._status()}>"
            )
        top = self.moves[0]
        return (
            f"<Analysis player {self.player}, {self.phase.value}: {len(self.moves)} moves, "
            f"best '{top.move}' {top.win_probability:.0%} ({top.margin:+.2f}), "
            f"{self._simulations_words()}, {self._status()}>"
        )

    def _header(self) -> str:
        return (
            f"hint for player {self.player} ({self.phase.value}), budget {self.budget_ms} ms, "
            f"seed {self.seed}: {self._simulations_words()}, "
            f"{self._status_words()}"
        )

    def __str__(self) -> str:
        """The ranking as a table: rank, move, win chance, margin, visits, explanation.

        >>> from pastiche_core import Game
        >>> print(analyse(Game(players=3, seed=7).view(0), budget_ms=20))
        hint for player 0 (keep), budget 20 ms, seed 0: 0 simulations, complete
        nothing to decide: it is not this player's decision
        """
        return self.format()

    def format(self, width: int | None = None) -> str:
        """The ranking as text; with ``width`` (a terminal's columns) no line is longer.

        A table wider than ``width`` gives each move a short paragraph: its rank
        and move, then its win chance, margin and visits, then why.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> text = analyse(game.view(0), simulations=8).format(width=60)
        >>> max(len(line) for line in text.splitlines()) <= 60
        True
        """
        lines = [self._header()]
        if not self.moves:
            lines.append(self._nothing)
            return _wrapped(lines, width)
        rows = [("#", "move", "win", "margin", "visits", "why")]
        for rank, entry in enumerate(self.moves, start=1):
            rows.append(
                (
                    str(rank),
                    str(entry.move),
                    f"{entry.win_probability:.0%} ±{_spread(entry):.0%}",
                    f"{entry.margin:+.2f}",
                    str(entry.visits),
                    entry.explanation,
                )
            )
        widths = [max(len(row[col]) for row in rows) for col in range(5)]
        right = (True, False, True, True, True)
        table = []
        for row in rows:
            cells = [
                row[col].rjust(widths[col]) if right[col] else row[col].ljust(widths[col])
                for col in range(5)
            ]
            table.append("  ".join([*cells, row[5]]).rstrip())
        legend = (
            "win: the chance of winning, ± a 95 % interval over its visits (simulations); "
            "margin: the expected final score against the best rival"
        )
        if width is None or max(len(line) for line in table) <= width:
            return "\n".join([*lines, *table, legend])
        for place, move, win, margin, visits, why in rows[1:]:
            lines.append(f"{place}. {move}")
            lines.append(f"   win {win}, margin {margin}, {visits} visits")
            lines.append(f"   {why}")
        lines.append(legend)
        return _wrapped(lines, width)

    @property
    def _nothing(self) -> str:
        if self.phase is Phase.OVER:
            return "nothing to decide: the game is over"
        return "nothing to decide: it is not this player's decision"

    def _repr_html_(self) -> str:
        """The ranking as an HTML table (Jupyter).

        >>> from pastiche_core import Game
        >>> "<table" in analyse(Game(players=3, seed=7).view(2), simulations=4)._repr_html_()
        True
        """
        head = f"<p>{html.escape(self._header())}</p>"
        if not self.moves:
            return head + f"<p>{html.escape(self._nothing)}</p>"
        cells = "".join(
            "<tr>"
            f"<td>{rank}</td><td><code>{html.escape(str(entry.move))}</code></td>"
            f"<td>{entry.win_probability:.0%}</td><td>{entry.margin:+.2f}</td>"
            f"<td>{entry.visits}</td><td>{html.escape(entry.explanation)}</td>"
            "</tr>"
            for rank, entry in enumerate(self.moves, start=1)
        )
        return (
            head + "<table><thead><tr><th>#</th><th>move</th><th>win</th><th>margin</th>"
            f"<th>visits</th><th>why</th></tr></thead><tbody>{cells}</tbody></table>"
        )


def load_view(
    source: str | os.PathLike[str], *, player: int | None = None, stdin: IO[Any] | None = None
) -> PlayerView:
    """The view a hint is asked for: a view JSON, or a state JSON and a ``player``.

    ``source`` is a file (read with the library's bounded file reader) or
    ``"-"`` for standard input. A ``pastiche-view`` document is read by
    :func:`~pastiche_core.io.view_json.view_from_dict`; ``player``, if given, must be
    its player. A ``pastiche-state`` document is read (and verified) by
    :func:`~pastiche_core.io.state_json.state_from_dict` and needs ``player``: only
    ``game.view(player)`` is used, so the hint is exactly the one the view
    would get. Anything else raises
    :class:`~pastiche_core.data.errors.InvalidStateError` naming the problem.

    >>> import io
    >>> from pastiche_core import Game
    >>> state = Game(players=3, seed=7).to_json()
    >>> load_view("-", player=1, stdin=io.StringIO(state)) == Game(players=3, seed=7).view(1)
    True
    >>> load_view("-", stdin=io.StringIO(state))
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: a state holds every player's cards: say whose hint it is with --player
    """
    if str(source) == "-":
        stream = sys.stdin if stdin is None else stdin
        buffer = getattr(stream, "buffer", None)
        raw: str | bytes = (
            buffer.read(MAX_JSON_BYTES + 1)
            if buffer is not None
            else stream.read(MAX_JSON_BYTES + 1)
        )
    else:
        raw = read_file(source, what="hint file")
    data = loads(raw, expected="a view or state JSON object")
    kind = data.get("format") if isinstance(data, Mapping) else None
    if kind == STATE_FORMAT:
        if player is None:
            raise InvalidStateError(
                "a state holds every player's cards: say whose hint it is with --player"
            )
        game = state_from_dict(data)
        if not 0 <= player < game.players:
            raise InvalidStateError(
                f"--player must be a seat from 0 to {game.players - 1}, got {player}"
            )
        # The view as its document carries it: the hint a state gets is its view file's.
        return view_from_dict(view_to_dict(game.view(player)))
    if kind == VIEW_FORMAT or kind is None:
        view = view_from_dict(data)
        if player is not None and player != view.player:
            raise InvalidStateError(
                f"--player {player} does not match the view, which is player {view.player}'s"
            )
        return view
    raise InvalidStateError(
        f"$.format: expected {VIEW_FORMAT!r} or {STATE_FORMAT!r}, got {json.dumps(kind)[:60]}"
    )


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidArgumentError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    return seed


def analyse(
    view: PlayerView,
    *,
    budget_ms: int = DEFAULT_BUDGET_MS,
    seed: int = 0,
    simulations: int | None = None,
) -> Analysis:
    """Rank the moves of the view's decision, with estimates and explanations (see the module).

    ``budget_ms`` (1 to :data:`~pastiche_core.ai.search.MAX_BUDGET_MS`) buys
    :func:`~pastiche_core.ai.search.simulations_for` simulations with the
    settings :func:`~pastiche_core.ai.search.settings_for` gives it (from
    :data:`~pastiche_core.ai.search.RIVAL_BUDGET_MS` the other seats' first
    round of each playout is played by the greedy bot, its work charged to the
    budget) and is the wall-clock ceiling of the whole call; ``simulations`` (1
    to :data:`~pastiche_core.ai.search.MAX_SIMULATIONS`) replaces the number the
    budget buys, with the default settings, the ceiling staying ``budget_ms``.
    The work is fixed by these counts alone: the same view, budget, simulations
    and seed give the same analysis on any machine unless the ceiling cuts it
    short (then ``complete`` is ``False`` and ``cut`` says what: the ceiling is checked
    between solver calls, simulations and rival checks, and stops them, never
    anything else). A view with nothing to decide for its player gives an
    empty ranking. Bad arguments raise
    :class:`~pastiche_core.data.errors.InvalidArgumentError`.

    >>> from pastiche_core import Game
    >>> analyse(Game(players=3, seed=7).view(2), seed=-1)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: seed must be an integer from 0 to 2**64 - 1, got -1
    """
    budget = check_budget(budget_ms)
    seed = _check_seed(seed)
    if simulations is None:  # the budget chooses its settings and buys its simulations
        settings = settings_for(budget)
        planned = simulations_for(budget)
    else:  # a count of simulations keeps the default settings
        settings = DEFAULT_SETTINGS
        planned = check_simulations(simulations)
    if not isinstance(view, PlayerView):
        raise InvalidArgumentError(f"view must be a PlayerView, got {type(view).__name__}")
    deadline = ceiling(budget / 1000)
    policy = PlayoutPolicy()
    moves, whole = candidate_moves(view, policy=policy, deadline=deadline)
    if not moves:
        cut = () if whole else ("publishes",)
        return Analysis(view.player, view.phase, budget, seed, whole, (), 0, 0, cut)
    result = search(
        view,
        simulations=planned,
        seed=seed,
        deadline=deadline,
        policy=policy,
        candidates=(moves, whole),
        settings=settings,
    )
    return _analysis(view, result, budget, seed, deadline, whole)


def _analysis(
    view: PlayerView,
    result: SearchResult,
    budget: int,
    seed: int,
    deadline: float,
    whole: bool,
) -> Analysis:
    """The analysis of a search: its moves explained, and what was cut short."""
    ranked = []
    rivals = RIVAL_CHECKS
    checked = True
    # Ranked before the explanations, so the rival checks go to the moves shown first.
    estimates = [(_win(stats.win), round(stats.margin, 2), stats) for stats in result.moves]
    estimates.sort(key=lambda item: ranking_key(item[0], item[2].visits, item[2].move))
    for win, margin, stats in estimates:
        move = stats.move
        if isinstance(move, Publish):
            check = bool(move.gifts) and rivals > 0
            if check:
                rivals -= 1
            text, finished = _explain_publish(view, move, result.knowledge, check, deadline)
            checked = checked and finished
        else:
            text = explain(view, move, result.knowledge)
        ranked.append(RankedMove(move, win, margin, stats.visits, text))
    cut = []
    if not whole:
        cut.append("publishes")
    if result.stopped:
        cut.append("simulations")
    if any(not stats.visits for stats in result.moves):
        cut.append("moves")
    if not checked:
        cut.append("rivals")
    return Analysis(
        view.player,
        view.phase,
        budget,
        seed,
        not cut,
        tuple(ranked),
        result.simulations,
        result.simulations_run,
        tuple(cut),
    )


def _win(value: float) -> float:
    """A win chance as the hint reports it: in [0, 1], to three decimals."""
    return round(min(1.0, max(0.0, value)), 3)


def ranking_key(win_probability: float, visits: int, move: Move) -> tuple[float, int, str]:
    """The order of a hint's moves, smallest first: the win chance as reported, then visits,
    then the move's notation.

    A higher reported chance always ranks higher (a 21 % move is never below a
    20 % one, whatever the search chose or how the intervals overlap); moves of
    the same reported chance rank by the simulations behind them, and moves
    with both equal by their notation, so the order never depends on how the
    search listed them.

    >>> from pastiche_core import Move
    >>> moves = [("take", 0.2, 40), ("draw", 0.21, 10), ("pass", 0.2, 40), ("read 1:kind-3 SCI9", 0.2, 90)]
    >>> [text for text, win, visits in sorted(moves, key=lambda m: ranking_key(m[1], m[2], Move.parse(m[0])))]
    ['draw', 'read 1:kind-3 SCI9', 'pass', 'take']
    """
    return (-win_probability, -visits, str(move))


# ----------------------------------------------------------------------
# Explanations
# ----------------------------------------------------------------------
def _fit(card: Card, hand: Sequence[Card]) -> str:
    """How ``card`` fits the hand: same rank, or a neighbour for a straight."""
    same = [other for other in hand if other.rank == card.rank and other is not card]
    if len(same) == 1:
        return f"pairs with {same[0]}"
    if same:
        return f"a {_ordinal(len(same) + 1)} {card.rank} with {format_cards(same)}"
    near = sorted({other.rank for other in hand if abs(other.rank - card.rank) == 1})
    if near:
        return "next to the " + " and ".join(f"{rank}s" for rank in near) + " in hand"
    return ""


def _ordinal(number: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}.get(
        number, f"{number}th"
    )


def _join(parts: Sequence[str]) -> str:
    return "; ".join(part for part in parts if part)


def _countdown(view: PlayerView) -> str:
    if view.turns_left is None:
        return ""
    return f"{view.turns_left} turn{'s' if view.turns_left != 1 else ''} left"


def _whose(view: PlayerView, owner: int) -> str:
    return "your" if owner == view.player else f"player {owner}'s"


def explain(view: PlayerView, move: Move, knowledge: Knowledge, *, rivals: bool = True) -> str:
    """A one-line explanation of ``move`` in ``view``, from facts of the position.

    With ``rivals``, a publish with gifts also says what each recipient could
    then publish, from the gifts and the cards the player knows to be in
    their hand (:class:`~pastiche_core.ai.determinize.Knowledge`), by the
    solver.

    >>> from pastiche_core import Game, Move
    >>> game = Game(players=3, seed=7)
    >>> view = game.view(2)
    >>> explain(view, Move.parse("keep HOR7 HOR8 FAN10"), Knowledge.of(view))
    'keeps HOR7 HOR8 FAN10, discards MYT1 face down'
    """
    if isinstance(move, Publish):
        return _explain_publish(view, move, knowledge, rivals, None)[0]
    if isinstance(move, Read):
        return _explain_read(view, move)
    if isinstance(move, Draw):
        if view.deck_size + len(view.discard) == 1:
            return "takes the last card of the deck and the discard pile"
        if view.deck_size < 2:
            return _join(
                [
                    f"draws two cards, keeps one; the deck has {view.deck_size}, so the "
                    "discard pile is reshuffled (R11)",
                    _countdown(view),
                ]
            )
        return _join([f"draws two of the {view.deck_size} deck cards, keeps one", _countdown(view)])
    if isinstance(move, TakeDiscard):
        top = view.discard[-1] if view.discard else None
        if top is None:
            return _join(["takes the face-down top discard, unseen", _countdown(view)])
        return _join([f"takes {top} from the discard pile", _fit(top, view.hand), _countdown(view)])
    if isinstance(move, Keep):
        dropped = [card for card in view.hand if card not in move.cards]
        text = f"keeps {format_cards(move.cards)}, discards {format_cards(dropped)} face down"
        if len(move.discard) > 1:
            text += f" with {move.discard[-1]} on top"
        return text
    if isinstance(move, Choose):
        assert view.pending is not None
        other = view.pending[1] if view.pending[0] is move.card else view.pending[0]
        after = (view.player + 1) % view.players
        return _join(
            [
                f"keeps {move.card}, discards {other} face up for player {after} to take",
                _fit(move.card, view.hand),
            ]
        )
    if isinstance(move, TakeFlag):
        flag = view.catalogue.end_flag.points
        rest = [card for card in view.hand if card is not move.card]
        return _join(
            [
                f"puts {move.card} under the End Flag: +{plural(flag, 'point')} (R12)",
                f"keeps {format_cards(rest)}" if rest else "",
            ]
        )
    if isinstance(move, Pass):
        return "no Write or Read is possible (R11)"
    return str(move)  # pragma: no cover - every move kind is explained above


def _explain_read(view: PlayerView, move: Read) -> str:
    owner = move.source.owner
    novel = move.source.novel
    cards = next(item.cards for item in view.tables[owner] if item.novel == novel)
    points = view.catalogue[novel].points
    parts = [f"takes {move.card} from {_whose(view, owner)} {novel} ({len(cards)} cards)"]
    if len(cards) == 2:
        if owner == view.player:
            parts.append(f"your {novel} becomes a Masterpiece: +{plural(points, 'point')}")
        else:
            parts.append(
                f"player {owner}'s {novel} becomes a Masterpiece: +{plural(points, 'point')} for them"
            )
    parts.append(_fit(move.card, view.hand))
    parts.append(_countdown(view))
    return _join(parts)


def _explain_publish(
    view: PlayerView, move: Publish, knowledge: Knowledge, rivals: bool, deadline: float | None
) -> tuple[str, bool]:
    """The explanation of a publish, and whether its rival checks ran before ``deadline``.

    Rival notes are written only when every recipient was checked (R5's gifts).
    """
    spec = view.catalogue[move.novel]
    played = len(move.played)
    parts: list[str] = []
    if played == 1:
        now = sum(
            view.catalogue[novel.novel].points
            for novel in view.tables[view.player]
            if novel.masterpiece
        )
        text = f"a Masterpiece at once: +{plural(spec.points, 'point')} now (R7)"
        threshold = view.rules.end_threshold  # R12: the game's own, house rules too
        if view.trigger is None and now < threshold <= now + spec.points:
            text += f", reaching {threshold}: the end is triggered (R12)"
        parts.append(text)
    else:
        parts.append(
            f"{plural(spec.points, 'point')} once read down from {played} cards to one ({played - 1} "
            f"read{'s' if played > 2 else ''})"
        )
    if move.gifts:
        by_owner: dict[int, list[Card]] = {}
        for gift in move.gifts:
            by_owner.setdefault(gift.to, []).append(gift.card)
        parts.append(
            "gives "
            + ", ".join(
                f"{format_cards(cards)} to player {owner}" for owner, cards in by_owner.items()
            )
        )
    else:
        parts.append("no gifts")
    left = dict(view.supply).get(move.novel, 1) - 1
    parts.append(f"the last {move.novel}" if left <= 0 else f"{left} {move.novel} left after")
    gone = set(move.played) | {gift.card for gift in move.gifts}
    kept = [card for card in view.hand if card not in gone]
    parts.append(f"keeps {format_cards(kept)}" if kept else "empties the hand")
    finished = True
    if rivals and move.gifts:
        notes = _rival_notes(view, move, knowledge, deadline)
        finished = notes is not None
        parts.extend(notes or ())
    countdown = _countdown(view)
    if countdown and played > 1 and view.turns_left is not None and view.turns_left < played:
        countdown += ": it may not be read down in time"
    parts.append(countdown)
    return _join(parts), finished


def _rival_notes(
    view: PlayerView, move: Publish, knowledge: Knowledge, deadline: float | None
) -> list[str] | None:
    """What each recipient could publish with the gifts and their known cards (the solver).

    Each recipient is one solver call, bounded by the position's size alone, so
    that its answer is the same on every machine; under the ceiling
    ``deadline`` it gets what is left of it, and the notes are ``None`` once the
    ceiling has passed or cut a call short.
    """
    catalogue = view.catalogue
    masterpieces = [
        Masterpiece(str(novel.ref), novel.owner, novel.cards[0])
        for table in view.tables
        for novel in table
        if novel.masterpiece
    ]
    if is_masterpiece(move.played):  # the new Masterpiece can be cited at once
        masterpieces.append(Masterpiece(f"{view.player}:{move.novel}", view.player, move.played[0]))
    supply = {
        novel: copies
        for novel, copies in view.supply
        if novel in catalogue and catalogue[novel].publishable
    }
    supply[move.novel] = max(0, supply.get(move.novel, 1) - 1)
    notes = []
    recipients = sorted({gift.to for gift in move.gifts})
    for owner in recipients:
        left = time_left(deadline)
        if left == 0:
            return None
        given = [gift.card for gift in move.gifts if gift.to == owner]
        known = [card for card in knowledge.known_cards(owner) if card not in given]
        position = Position(
            player=owner,
            hand=(*given, *known),
            masterpieces=tuple(masterpieces),
            held_novels=frozenset(novel.novel for novel in view.tables[owner]),
            supply=supply,
            catalogue=catalogue,
        )
        found = best(position, time_limit=left)
        if found is not None and not found.complete:
            return None
        if found is None:
            if past(deadline):  # "nothing" from a call the ceiling may have cut short
                return None
            continue
        option = found.option
        what = f"{option.novel} ({plural(option.points, 'point')})"
        notes.append(f"player {owner} could then publish {what} with {format_cards(option.played)}")
    return notes


def _spread(entry: RankedMove) -> float:
    """The half-width of a 95 % interval of the move's win chance over its visits (normal
    approximation; the whole range when it has none): how far the estimate may be off."""
    if entry.visits <= 0:
        return 1.0
    p = min(max(entry.win_probability, 0.0), 1.0)
    return min(1.0, 1.96 * math.sqrt(max(p * (1 - p), 0.25 / entry.visits) / entry.visits))


def _wrapped(lines: list[str], width: int | None) -> str:
    """``lines`` joined, each fitted to ``width`` columns (:func:`~pastiche_core.data._text.fit_line`)."""
    if width is None:
        return "\n".join(lines)
    return "\n".join(fit_line(line, width) for line in lines)
