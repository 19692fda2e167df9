"""Game review: where did each seat lose the game? (the ``pastiche-review`` document).

:func:`review` replays a :class:`~pastiche_core.io.record.GameRecord` and, at
every decision of the seats it reviews, asks the search
(:func:`~pastiche_core.ai.search.search`) what that seat could have done. It
reads only what the seat knew then: the seat's
:class:`~pastiche_core.engine.view.PlayerView` (R16), never the hidden cards.

**Each decision.** The candidates are the decision's compact action set
(:func:`~pastiche_core.ai.search.candidate_moves`) with the move played put
first (added when missing). A search of ``simulations`` simulations, seeded by
``seed`` and the decision's index, chooses the best move. When that is not the
move played, a second search of twice ``simulations`` simulations (capped at
:data:`~pastiche_core.ai.search.MAX_SIMULATIONS`) plays the two moves alone
against each other on the same deals and the same playouts (no anchor, no
shrinking of the estimates towards their mean), so the two win chances differ
by the moves and not by the luck of the deal, each from ``simulations``
simulations. ``win_played`` and ``win_best`` are the estimated chances of winning
after each move (a shared win counts as a fraction, R13), and
``drop = max(0, win_best - win_played)``. A *forced* decision (one legal
move) is not searched: its drop is 0 and its win chances are ``None``.

**What the seat saw.** Each decision also holds the deciding seat's hand,
the top discard as that seat saw it and the sizes of the deck and the
discard pile, all from its view: a reader sees the position the seat faced,
and nothing it could not see (R16).

**Labels.** By the drop in win chance: an *inaccuracy* from
:data:`REVIEW_THRESHOLDS` ``["inaccuracy"]`` (0.05), a *mistake* from 0.10, a
*blunder* from 0.20; below 0.05, no label.

**Accuracy.** Each searched decision scores
``103.1668 * exp(-4.354 * drop) - 3.1668`` (the drop as a fraction), clipped
to 0..100: 100 for a drop of 0, about 80 for 0.05, 40 for 0.2, 0 from 0.8 on
(the shape lichess gives its accuracy). A seat's accuracy is the mean over its
searched decisions, rounded to 0.1; 100 when every decision was forced.

**Bounds.** ``simulations`` is checked like a search's (1 to
:data:`~pastiche_core.ai.search.MAX_SIMULATIONS`); the record is replayed
(and its every move checked) before any search. ``deadline`` (an instant of
:func:`~pastiche_core.ai.search.now`) stops the review: the decisions not yet
reviewed are left out and the review says ``complete: false``. The same
record, seats, simulations and seed always give the same document.

>>> from pastiche_core import GameRecord, play_game
>>> from pastiche_core.ai.greedy import GreedyBot
>>> game = play_game(3, seed=5, bots=[GreedyBot(seat) for seat in range(3)])
>>> done = review(GameRecord.of(game), player=1, simulations=4)
>>> done
<GameReview of seat 1: ... decisions, ... simulations, seed 0, complete>
>>> done.to_dict()["format"], done.to_dict()["reviewed"]
('pastiche-review', [1])
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..bots.play import derive_seed
from ..data._text import fit_line, plural
from ..data.cards import Card
from ..data.errors import IllegalMoveError, InvalidArgumentError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.rules import Phase
from ..engine.view import PlayerView
from ..io.record import GameRecord
from .search import MAX_SIMULATIONS, search
from .search_budget import DEFAULT_SETTINGS, check_simulations, past
from .search_candidates import SearchResult, candidate_moves

__all__ = [
    "REVIEW_FORMAT",
    "REVIEW_LABELS",
    "REVIEW_THRESHOLDS",
    "REVIEW_VERSION",
    "GameReview",
    "ReviewedDecision",
    "SeatSummary",
    "accuracy_of",
    "label_of",
    "review",
    "review_game",
]

REVIEW_FORMAT = "pastiche-review"
"""The ``format`` name of a game review document."""
REVIEW_VERSION = 1
"""The version of the review document written by this library."""
REVIEW_THRESHOLDS: dict[str, float] = {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2}
"""The smallest drop in win chance of each label (the labels from mildest to worst)."""
REVIEW_LABELS = tuple(REVIEW_THRESHOLDS)
"""The labels, mildest first."""

_DUEL_SETTINGS = replace(DEFAULT_SETTINGS, anchor=False, shrink=0.0)
"""The second search of a decision: the move played against the best, on the same deals,
each move's win chance its plain mean (a drop shrunk towards 0 would hide blunders)."""


def label_of(drop: float) -> str | None:
    """The label of a drop in win chance (:data:`REVIEW_THRESHOLDS`), ``None`` below the mildest.

    >>> label_of(0.049), label_of(0.05), label_of(0.15), label_of(0.5)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    chosen = None
    for name, low in REVIEW_THRESHOLDS.items():
        if drop >= low:
            chosen = name
    return chosen


def accuracy_of(drop: float) -> float:
    """A decision's accuracy, 0 to 100, from its drop in win chance (see the module).

    >>> accuracy_of(0.0), round(accuracy_of(0.05), 1), round(accuracy_of(0.2), 1), accuracy_of(1.0)
    (100.0, 79.8, 40.0, 0.0)
    """
    value = 103.1668 * math.exp(-4.354 * drop) - 3.1668
    return min(100.0, max(0.0, value))


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One reviewed decision: the move played, the search's best, their win chances.

    >>> decision = ReviewedDecision(7, 2, Phase.ACTION, Move.parse("pass"),
    ...                             Move.parse("draw"), 0.3, 0.55)
    >>> decision.drop, decision.label, decision.forced
    (0.25, 'blunder', False)
    >>> print(decision)
    #7 player 2 action: blunder, drop 25.0: played pass (30.0 %); best draw (55.0 %)
    """

    index: int
    """The decision's index in the record's move list."""
    player: int
    """The seat that decided."""
    phase: Phase
    """The phase of the decision."""
    played: Move
    """The move played."""
    best: Move
    """The search's choice (the move played when forced)."""
    win_played: float | None
    """The estimated chance of winning after the move played (``None`` when forced)."""
    win_best: float | None
    """The estimated chance of winning after the best move (``None`` when forced)."""
    hand: tuple[Card, ...] = ()
    """The deciding seat's hand as it decided: its own cards, nothing else (R16)."""
    top_discard: Card | None = None
    """The top discard as the seat saw it; ``None`` when the pile was empty or its top card
    lay face down to the seat (R10, R16)."""
    deck_size: int = 0
    """The cards left in the deck as the seat decided."""
    discard_size: int = 0
    """The cards in the discard pile as the seat decided."""

    @classmethod
    def seen(
        cls,
        view: PlayerView,
        index: int,
        played: Move,
        best: Move,
        win_played: float | None,
        win_best: float | None,
    ) -> ReviewedDecision:
        """A decision with what ``view``'s seat saw as it decided (its hand, the piles).

        >>> from pastiche_core import Game
        >>> view = Game(players=3, seed=7).view(2)
        >>> keep = Move.parse("keep MYT1 HOR7 HOR8")
        >>> decision = ReviewedDecision.seen(view, 0, keep, keep, None, None)
        >>> [str(card) for card in decision.hand], decision.deck_size, decision.top_discard
        (['MYT1', 'HOR7', 'HOR8', 'FAN10'], 39, None)
        """
        top = view.discard[-1] if view.discard else None
        return cls(
            index,
            view.player,
            view.phase,
            played,
            best,
            win_played,
            win_best,
            tuple(view.hand),
            top,
            view.deck_size,
            len(view.discard),
        )

    @property
    def forced(self) -> bool:
        """Whether the decision had one legal move (then it was not searched)."""
        return self.win_played is None

    @property
    def drop(self) -> float:
        """``max(0, win_best - win_played)``, 0 when forced; rounded to 4 places."""
        if self.win_played is None or self.win_best is None:
            return 0.0
        return round(max(0.0, self.win_best - self.win_played), 4)

    @property
    def label(self) -> str | None:
        """``'inaccuracy'``, ``'mistake'``, ``'blunder'`` or ``None`` (:func:`label_of`)."""
        return label_of(self.drop)

    def to_dict(self) -> dict[str, Any]:
        """The decision's entry of the review document.

        >>> ReviewedDecision(0, 2, Phase.KEEP, Move.parse("keep MYT1 HOR7 HOR8"),
        ...                  Move.parse("keep MYT1 HOR7 HOR8"), None, None).to_dict()["forced"]
        True
        """
        return {
            "index": self.index,
            "player": self.player,
            "phase": self.phase.value,
            "played": str(self.played),
            "best": str(self.best),
            "win_played": self.win_played,
            "win_best": self.win_best,
            "drop": self.drop,
            "label": self.label,
            "forced": self.forced,
            "hand": [str(card) for card in self.hand],
            "top_discard": None if self.top_discard is None else str(self.top_discard),
            "deck_size": self.deck_size,
            "discard_size": self.discard_size,
        }

    def __str__(self) -> str:
        # The verdict first: a line cut to a terminal's width keeps it, losing only the best move.
        head = f"#{self.index} player {self.player} {self.phase.value}"
        if self.win_played is None or self.win_best is None:
            return f"{head}: forced, {self.played}"
        verdict = f"{self.label or 'good'}, drop {100 * self.drop:.1f}"
        played = f"played {self.played} ({100 * self.win_played:.1f} %)"
        if self.best == self.played:
            return f"{head}: {verdict}: {played}, the best"
        return f"{head}: {verdict}: {played}; best {self.best} ({100 * self.win_best:.1f} %)"


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's summary: its decisions reviewed, each label's count, its accuracy.

    >>> SeatSummary(0, 40, 1, 0, 1, 91.2).to_dict()["accuracy"]
    91.2
    """

    player: int
    """The seat."""
    decisions: int
    """The seat's decisions reviewed, forced ones included."""
    inaccuracies: int
    """Decisions labelled ``inaccuracy``."""
    mistakes: int
    """Decisions labelled ``mistake``."""
    blunders: int
    """Decisions labelled ``blunder``."""
    accuracy: float
    """The mean accuracy of the seat's searched decisions (:func:`accuracy_of`), 0.1 steps."""

    def to_dict(self) -> dict[str, Any]:
        """The seat's entry of the document's ``summary``."""
        return {
            "player": self.player,
            "decisions": self.decisions,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": self.accuracy,
        }

    @classmethod
    def of(cls, player: int, decisions: Sequence[ReviewedDecision]) -> SeatSummary:
        """The summary of ``player``'s decisions among ``decisions``.

        >>> SeatSummary.of(3, [])
        SeatSummary(player=3, decisions=0, inaccuracies=0, mistakes=0, blunders=0, accuracy=100.0)
        """
        own = [decision for decision in decisions if decision.player == player]
        labels = [decision.label for decision in own]
        searched = [accuracy_of(decision.drop) for decision in own if not decision.forced]
        accuracy = round(sum(searched) / len(searched), 1) if searched else 100.0
        return cls(
            player,
            len(own),
            labels.count("inaccuracy"),
            labels.count("mistake"),
            labels.count("blunder"),
            accuracy,
        )


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of a game: every reviewed decision, and a summary per seat.

    ``complete`` is ``False`` when the deadline stopped the review (or cut a
    search short) before every decision was reviewed.
    """

    players: int
    """The game's seats."""
    reviewed: tuple[int, ...]
    """The seats reviewed, ascending."""
    simulations: int
    """The simulations of each search."""
    seed: int
    """The review's seed (each decision's searches derive theirs from it and the index)."""
    complete: bool
    """Whether every decision of the reviewed seats was reviewed in full."""
    decisions: tuple[ReviewedDecision, ...]
    """The reviewed decisions, in the order they were played."""

    @property
    def summary(self) -> tuple[SeatSummary, ...]:
        """One :class:`SeatSummary` per reviewed seat."""
        return tuple(SeatSummary.of(player, self.decisions) for player in self.reviewed)

    def worst(self, player: int, count: int = 3) -> tuple[ReviewedDecision, ...]:
        """The seat's ``count`` largest drops, largest first (earlier first on ties).

        >>> GameReview(3, (0,), 8, 0, True, ()).worst(0)
        ()
        """
        own = [decision for decision in self.decisions if decision.player == player]
        own.sort(key=lambda decision: -decision.drop)
        return tuple(own[:count])

    def to_dict(self) -> dict[str, Any]:
        """The ``pastiche-review`` document (version 1).

        >>> GameReview(3, (0,), 8, 0, True, ()).to_dict()["summary"]
        [{'player': 0, 'decisions': 0, 'inaccuracies': 0, 'mistakes': 0, 'blunders': 0,
          'accuracy': 100.0}]
        """
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "players": self.players,
            "reviewed": list(self.reviewed),
            "simulations": self.simulations,
            "seed": self.seed,
            "complete": self.complete,
            "thresholds": dict(REVIEW_THRESHOLDS),
            "decisions": [decision.to_dict() for decision in self.decisions],
            "summary": [entry.to_dict() for entry in self.summary],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The document as JSON text (see :meth:`to_dict`).

        >>> GameReview(3, (0,), 8, 0, True, ()).to_json(indent=None)[:43]
        '{"format": "pastiche-review", "version": 1,'
        """
        return json.dumps(self.to_dict(), indent=indent)

    def __repr__(self) -> str:
        """Short: a review can hold hundreds of decisions.

        >>> GameReview(4, (0, 1, 2, 3), 64, 0, False, ())
        <GameReview of seats 0, 1, 2, 3: 0 decisions, 64 simulations, seed 0, incomplete>
        """
        seats = ", ".join(map(str, self.reviewed))
        return (
            f"<GameReview of seat{'s' if len(self.reviewed) != 1 else ''} {seats}: "
            f"{len(self.decisions)} decisions, {self.simulations} simulations, "
            f"seed {self.seed}, {'complete' if self.complete else 'incomplete'}>"
        )

    def summary_lines(self) -> list[str]:
        """One line per reviewed seat: its labels and accuracy.

        >>> GameReview(3, (0,), 8, 0, True, ()).summary_lines()
        ['player 0: 0 decisions, 0 inaccuracies, 0 mistakes, 0 blunders, accuracy 100.0']
        """
        return [
            f"player {entry.player}: {plural(entry.decisions, 'decision')}, "
            f"{_count(entry.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
            f"{plural(entry.mistakes, 'mistake')}, {plural(entry.blunders, 'blunder')}, "
            f"accuracy {entry.accuracy:.1f}"
            for entry in self.summary
        ]

    def format(self, width: int | None = 80) -> str:
        """The review as text: a line per labelled decision, then the summary per seat.

        Lines are cut to ``width`` columns (``None``: not cut). Decisions without
        a label are counted in the summary, not listed.

        >>> print(GameReview(3, (0,), 8, 0, True, ()).format())
        review of player 0: 8 simulations a decision, seed 0, complete
        no inaccuracies, mistakes or blunders
        player 0: 0 decisions, 0 inaccuracies, 0 mistakes, 0 blunders, accuracy 100.0
        """
        seats = ", ".join(map(str, self.reviewed))
        lines = [
            f"review of player{'s' if len(self.reviewed) != 1 else ''} {seats}: "
            f"{self.simulations} simulations a decision, seed {self.seed}, "
            f"{'complete' if self.complete else 'incomplete (stopped by the deadline)'}"
        ]
        labelled = [str(decision) for decision in self.decisions if decision.label is not None]
        lines.extend(labelled or ["no inaccuracies, mistakes or blunders"])
        lines.extend(self.summary_lines())
        if width is None:
            return "\n".join(lines)
        return "\n".join(fit_line(line, width) for line in lines)

    def __str__(self) -> str:
        return self.format()


def _count(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _check_player(player: object, players: int) -> tuple[int, ...]:
    if player is None:
        return tuple(range(players))
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise InvalidArgumentError(
            f"player must be a seat from 0 to {players - 1} of this {players}-seat game "
            f"(R10), got {player!r}"
        )
    return (player,)


def review(
    record: GameRecord,
    *,
    player: int | None = None,
    simulations: int = 64,
    seed: int = 0,
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review the decisions of ``player`` (every seat if ``None``) in ``record`` (see the module).

    The record is replayed first: an illegal move raises
    :class:`~pastiche_core.data.errors.IllegalMoveError` naming its index,
    before any search. ``progress(done, total)`` is called after each
    decision reviewed.

    >>> review(GameRecord(3, 7), player=3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: player must be a seat from 0 to 2 of this 3-seat game (R10), got 3
    """
    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"review takes a GameRecord, got {type(record).__name__}")
    start = record.dealt()
    return review_game(
        start,
        record.moves,
        player=player,
        simulations=simulations,
        seed=seed,
        deadline=deadline,
        progress=progress,
    )


def review_game(
    start: Game,
    moves: Sequence[Move],
    *,
    player: int | None = None,
    simulations: int = 64,
    seed: int = 0,
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_decision: Callable[[ReviewedDecision], None] | None = None,
) -> GameReview:
    """Review ``moves`` played from ``start`` on, as :func:`review` does a record's.

    ``start`` is not changed; ``moves[i]`` is the decision of index ``i``.
    ``on_decision`` is given each decision as soon as it is reviewed (before
    ``progress`` is called).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> done = review_game(game, [Move.parse("keep MYT1 HOR7 HOR8")], simulations=4)
    >>> [(d.player, d.phase.value, d.forced) for d in done.decisions], game.history
    ([(2, 'keep', False)], ())
    """
    reviewed = _check_player(player, start.players)
    check_simulations(simulations)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an integer, got {seed!r}")
    # Replay first: a damaged record fails before any search, and the total is known.
    game = start.copy()
    seats: list[int] = []
    for index, move in enumerate(moves):
        seats.append(game.to_move)
        try:
            game.apply(move)
        except IllegalMoveError:
            raise IllegalMoveError(f"moves[{index}] '{move}': {game.violation(move)}") from None
    total = sum(1 for seat in seats if seat in reviewed)
    game = start.copy()
    decisions: list[ReviewedDecision] = []
    complete = True
    for index, move in enumerate(moves):
        seat = seats[index]
        if seat in reviewed:
            if past(deadline):
                complete = False
                break
            decision, whole = _review_one(game, index, move, simulations, seed, deadline)
            decisions.append(decision)
            complete = complete and whole
            if on_decision is not None:
                on_decision(decision)
            if progress is not None:
                progress(len(decisions), total)
        game.apply(move)
    return GameReview(start.players, reviewed, simulations, seed, complete, tuple(decisions))


def _win_of(result: SearchResult, move: Move) -> float:
    return next(stats.win for stats in result.moves if stats.move == move)


def _review_one(
    game: Game, index: int, played: Move, simulations: int, seed: int, deadline: float | None
) -> tuple[ReviewedDecision, bool]:
    """The review of the decision ``played`` in ``game``, and whether its searches were whole.

    Only the deciding seat's view is searched (R16), and it alone gives the seat,
    the phase and what the decision shows the seat saw; the game itself says
    whether the decision is forced (its own legal moves).
    """
    view = game.view(game.to_move)
    if len(game.legal_moves) == 1:
        return ReviewedDecision.seen(view, index, played, played, None, None), True
    found, whole = candidate_moves(view, deadline=deadline)
    moves = [played, *(move for move in found if move != played)]
    first = search(
        view,
        simulations=simulations,
        seed=derive_seed(seed, "review", index),
        deadline=deadline,
        candidates=(moves, whole),
    )
    best = first.best if first.best is not None else played
    if best == played:
        win = round(_win_of(first, played), 4)
        decision = ReviewedDecision.seen(view, index, played, best, win, win)
        return decision, whole and not first.stopped
    duel = search(
        view,
        simulations=min(2 * simulations, MAX_SIMULATIONS),
        seed=derive_seed(seed, "duel", index),
        deadline=deadline,
        candidates=([best, played], True),
        settings=_DUEL_SETTINGS,
    )
    win_played = round(_win_of(duel, played), 4)
    win_best = round(_win_of(duel, best), 4)
    decision = ReviewedDecision.seen(view, index, played, best, win_played, win_best)
    return decision, whole and not first.stopped and not duel.stopped
