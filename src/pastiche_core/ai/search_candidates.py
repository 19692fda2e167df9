"""The root of a search: the decision's compact action set, and what a search answers.

Keeps, chooses, End Flag cards, Writes, Reads and Pass are the decision's moves
as they are; publishes are R8 options of the solver and of the playout policy,
turned into moves with :class:`LeastFitPolicy` choosing the gifts (R5)
(:func:`candidate_moves`). :class:`SearchResult` and :class:`MoveStats` are a
search's answer (:mod:`pastiche_core.ai.search`).

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> moves, whole = candidate_moves(game.view(game.to_move))
>>> whole, len(moves) > 0
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..data.cards import Card
from ..engine.game import keep_choices
from ..engine.moves import (
    Choose,
    Draw,
    Gift,
    Move,
    Pass,
    Read,
    TakeDiscard,
    TakeFlag,
)
from ..engine.rules import Phase, turn_actions
from ..engine.view import PlayerView
from ..solver.gifts import deal_gifts, gift_candidates, to_publish
from ..solver.options import Constraints, PublishOption, option_key
from ..solver.position import Position
from ..solver.queries import optima, solve
from ..solver.report import GOALS
from .determinize import Knowledge
from .playout import PlayoutPolicy, Situation, card_fit
from .search_budget import PUBLISH_OPTIONS, time_left
from .visible import position_of

__all__ = ["LeastFitPolicy", "MoveStats", "SearchResult", "candidate_moves"]


# ----------------------------------------------------------------------
# The compact action set
# ----------------------------------------------------------------------
class LeastFitPolicy:
    """A gift policy (R5): give the spare cards that fit the rest of the hand least.

    A card's fit is the playout policy's
    (:func:`~pastiche_core.ai.playout.card_fit`): cards of the same rank,
    citable Masterpieces of that rank, near ranks, common ranks. No search, so
    it is cheap enough for every option of an action set. The cards chosen
    go to the owners in ascending seat order.

    >>> from pastiche_core import Position
    >>> from pastiche_core.solver.options import make_option
    >>> pos = Position.quick("SCI7 HOR7 MYT1 FAN9 MYS9", table="1:kind-3=1:MYS7")
    >>> option = make_option(pos, "kind-3", [7, 7], [(1, 7)])
    >>> LeastFitPolicy().choose(pos, option)
    (Gift(to=1, card=Card.parse('MYT1')),)
    """

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        """The spare cards that fit least, per owner (R5).

        >>> from pastiche_core import Position
        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYT1 MAG13 LOV2", table="1:kind-3=1:MYS7 2:pairs-3=2:FAN7")
        >>> LeastFitPolicy().choose(pos, make_option(pos, "kind-3", [7], [(1, 7), (2, 7)]))
        (Gift(to=1, card=Card.parse('MYT1')), Gift(to=2, card=Card.parse('MAG13')))
        """
        spare = gift_candidates(position, option, constraints)
        owed = option.gift_count
        if not owed:
            return ()
        played = set(option.played)
        hand = [0] * 14
        for card in position.hand:
            if card not in played:
                hand[card.rank] += 1
        table = [0] * 14
        for masterpiece in position.masterpieces:
            table[masterpiece.card.rank] += 1

        def fit(card: Card) -> tuple[float, int]:
            hand[card.rank] -= 1
            value = card_fit(card, hand, table)
            hand[card.rank] += 1
            return (value, card.index)

        return deal_gifts(sorted(spare, key=fit)[:owed], option)

    def __repr__(self) -> str:
        return "LeastFitPolicy()"


def candidate_moves(
    view: PlayerView, *, policy: PlayoutPolicy | None = None, deadline: float | None = None
) -> tuple[list[Move], bool]:
    """The compact action set of the view's decision (see the module), and whether it is whole.

    The moves are legal in the view's position (they depend on nothing hidden)
    and come in the policy's order of preference, best first. The solver's
    work is bounded by counts (:data:`PUBLISH_OPTIONS`, one option per goal),
    not by time; ``deadline`` (an instant of :func:`now`, ``None`` for none) is
    the ceiling that may cut its calls short, and the flag is ``False`` when it
    did, before every publish was found. A view with nothing to decide for its
    player gives no moves.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> moves, whole = candidate_moves(game.view(2))
    >>> len(moves), whole, all(move in game.legal_moves for move in moves)
    (4, True, True)
    >>> candidate_moves(game.view(0))
    ([], True)
    """
    chooser = policy if policy is not None else PlayoutPolicy()
    if view.phase is Phase.OVER or view.to_move != view.player:
        return [], True
    whole = True
    moves: list[Move] = []
    if view.phase is Phase.KEEP:
        moves.extend(keep_choices(view.hand, view.rules.keep_size))  # R15: orders included
    elif view.phase is Phase.CHOOSE:
        assert view.pending is not None
        moves.extend(Choose(card) for card in view.pending)
    elif view.phase is Phase.FLAG:
        moves.extend(TakeFlag(card) for card in view.hand)
    else:
        published = [novel for table in view.tables for novel in table if not novel.masterpiece]
        reads = sum(len(novel.cards) for novel in published)
        draw, take, may_pass = turn_actions(view.deck_size, len(view.discard), reads)
        if draw:
            moves.append(Draw())
        if take:
            moves.append(TakeDiscard())
        for novel in published:
            moves.extend(Read(novel.ref, card) for card in novel.cards)
        publishes, whole = _publishes(view, chooser, deadline)
        moves.extend(publishes)
        if may_pass:
            moves.append(Pass())
    sit = Situation.of_view(view)
    values = [chooser.value(sit, move) for move in moves]
    order = sorted(range(len(moves)), key=lambda i: -values[i])
    return [moves[i] for i in order], whole


def _publishes(
    view: PlayerView, policy: PlayoutPolicy, deadline: float | None
) -> tuple[list[Move], bool]:
    """Publishes for the action set: solver options, each goal's best, the policy's own.

    The solver's work is bounded by counts; under a ceiling each call is given
    what is left of it (:func:`time_left`) and, once a call is cut short or the
    ceiling has passed, the publishes found so far are returned with ``False``.
    """
    if not view.hand:
        return [], True
    left = time_left(deadline)
    if left == 0:
        return [], False
    position = position_of(view)
    report = solve(position, max_options=PUBLISH_OPTIONS, time_limit=left)
    whole = report.stopped_by != "time_limit"
    options: dict[object, PublishOption] = {}
    for option in report.options:
        options.setdefault(option_key(position, option), option)
    # Each goal's best (R9), read from the fronts the report already has.
    if whole and report.pareto:
        left = time_left(deadline)
        chosen = optima(report, GOALS, time_limit=left) if left != 0 else {}
        whole = len(chosen) == len(GOALS) and all(choice.complete for choice in chosen.values())
        for choice in chosen.values():
            if choice.complete:  # a search cut short may not have met the best key
                options.setdefault(option_key(position, choice.option), choice.option)
    gifts = LeastFitPolicy()
    moves: dict[Move, None] = {}
    for option in options.values():
        moves.setdefault(to_publish(option, position, gifts), None)
    for _, move in policy.publishes(Situation.of_view(view), limit=3):
        moves.setdefault(move, None)
    return list(moves), whole


# ----------------------------------------------------------------------
# The search
# ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveStats:
    """One candidate move of a search: its estimates and the simulations behind them.

    ``win`` is the estimated probability of winning after the move (a shared
    win counts as a fraction, R13) and ``margin`` the expected final score
    less the best other player's; both start from the search's average with
    the weight of :data:`SHRINK` simulations, so a move tried once is not
    ranked on one lucky playout. ``prior`` is the playout policy's value of
    the move, in points. ``rounds`` is how many rounds of sequential halving
    the move took part in (0 with a UCB root).

    >>> from pastiche_core.ai.search import search
    >>> from pastiche_core import Game
    >>> stats = search(Game(players=3, seed=7).view(2), simulations=8).moves[0]
    >>> stats.visits, stats.rounds, 0 <= stats.win <= 1
    (3, 2, True)
    """

    move: Move
    """The candidate move, legal in the view's position."""
    visits: int
    """The simulations that started with this move."""
    win: float
    """The estimated probability of winning after the move, shrunk towards the average."""
    margin: float
    """The expected final score less the best other player's, shrunk likewise."""
    prior: float
    """The playout policy's value of the move, in points."""
    rounds: int = 0
    """The rounds of sequential halving the move took part in (0 with a UCB root)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of :func:`search`: the candidate moves ranked best first, and the work done.

    The move the search plays comes first (the halving's last survivor, or
    the greedy anchor when the survivor did not beat it clearly). Then come
    the moves that some simulation tried: by the number of halving
    rounds they survived, then by estimated win probability (then visits). A
    move dropped in an early round may show a higher estimate, from fewer
    simulations, than one that went on: the halving compared them on the same
    deals. Moves the budget did not reach follow in the policy's order with 0
    visits and the search's average estimates. ``complete`` is
    ``False`` when the wall-clock ceiling stopped the solver calls or the
    simulations, or when a candidate was never tried.

    >>> from pastiche_core.ai.search import search
    >>> from pastiche_core import Game
    >>> result = search(Game(players=3, seed=7).view(2), simulations=8)
    >>> len(result.moves), result.simulations_run, result.complete
    (4, 8, True)
    """

    player: int
    """The view's player, whose decision was searched."""
    phase: Phase
    """The phase of the decision."""
    moves: tuple[MoveStats, ...]
    """The candidate moves with their estimates, best first."""
    simulations: int
    """The budget, in simulations of the playout policy."""
    simulations_run: int
    """The simulations run: the budget's count, fewer when the rival model's work was charged
    to it (:func:`rival_charge`) or when the wall-clock ceiling stopped the search."""
    complete: bool
    """Whether the whole budget ran, every candidate was tried and every publish was found."""
    knowledge: Knowledge = field(compare=False, repr=False)
    """What the player knows of the hidden cards (for explanations)."""
    stopped: bool = False
    """Whether the wall-clock ceiling stopped the simulations before the budget was spent."""

    @property
    def best(self) -> Move | None:
        """The top-ranked move, or ``None`` when there is nothing to decide.

        >>> from pastiche_core.ai.search import search
        >>> from pastiche_core import Game
        >>> search(Game(players=3, seed=7).view(0), simulations=8).best is None
        True
        """
        return self.moves[0].move if self.moves else None
