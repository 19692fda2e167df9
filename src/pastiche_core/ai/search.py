"""Information-set Monte Carlo tree search over determinizations, and the bot that uses it.

The search answers one decision of one player from their
:class:`~pastiche_core.engine.view.PlayerView` alone (R16); it never sees the hidden
state. Each *simulation*:

1. samples a determinization of the view (:func:`~pastiche_core.ai.determinize.determinize`):
   the hidden cards dealt consistently with everything the player has seen;
2. plays one of the root's candidate moves (see below), then walks down the
   tree of the player's own later decisions: at each, the moves legal in this
   determinization are *available*; an available move never tried is tried
   first, else the one with the best upper confidence bound (UCB1 with
   availability counts, as information-set MCTS does);
3. lets the :class:`~pastiche_core.ai.playout.PlayoutPolicy` play every other
   seat's decisions (the opponents are modelled by the policy, or, with a
   budget of :data:`RIVAL_BUDGET_MS` or more, for their first
   :data:`RIVAL_ROUNDS` rounds by the greedy bot), and every
   decision once a new tree node is added, for :data:`HORIZON_ROUNDS` rounds
   or to the end of the game; near the end (a seat within
   :data:`FINISH_WITHIN` points of the End Flag, R12) the playout goes on to
   the end of the game, for at most :data:`FINISH_ROUNDS` rounds;
4. scores the end of the playout with
   :func:`~pastiche_core.ai.playout.evaluate` — the real result if the game
   ended, else a win probability and margin estimated from the position — and
   adds it to every node of the walk.

The tree holds only the player's own information sets: nodes are keyed by the
player's moves, whatever the other seats did in between. At the root the moves
are the decision's *compact action set* (:func:`candidate_moves`); below it,
the policy's :data:`TREE_WIDTH` best moves, for :data:`TREE_DEPTH` decisions.

**The root: sequential halving.** With a few dozen simulations and a dozen
candidates, the estimates are noisy, and most of the noise is the deal. The
root therefore shares its budget by sequential halving with common random
numbers: in rounds of equal budget, every remaining candidate is simulated on
the same deals with the same playout draws (a *batch* per deal), and after
each round the better half (by mean win probability) goes on; the last
survivor is the answer. ``Settings(root="ucb")`` uses UCB1 at the root too.

**The anchor.** The greedy bot (:class:`~pastiche_core.ai.greedy.GreedyBot`,
reading the same view) is a strong one-move-ahead player, and a search with a
few dozen noisy simulations should never play worse than it. Its move
(:func:`greedy_move`) is therefore always a candidate, and the halving never
drops it: the last survivor is played only if, on the deals both were
simulated on, its mean win probability beats the anchor's by more than
:data:`ANCHOR_MARGIN`; otherwise the anchor is played.
``Settings(anchor=False)`` turns this off.

**Compact action set.** Keeps, chooses, End Flag cards, Writes, Reads and Pass
are the decision's moves as they are. Publishes are not the card-level
publishes (there can be millions) but R8 options: the solver's options
(:func:`~pastiche_core.solver.queries.solve` with ``max_options`` =
:data:`PUBLISH_OPTIONS`), the best option for each goal of
:func:`~pastiche_core.solver.queries.best` (found from the same report's Pareto fronts,
R9), and the policy's own best publishes, each
turned into a move by :func:`~pastiche_core.solver.gifts.to_publish` with
:class:`LeastFitPolicy` choosing the gifts; and the anchor, the greedy bot's
move (with its own gifts).

**Budgets and determinism.** Every bound on the work of a search is a count,
the same on every machine: simulations, the solver's listed options
(:data:`PUBLISH_OPTIONS`), the tree's width and depth, the playouts' rounds. A
budget in milliseconds is turned into simulations of the playout policy at a
fixed rate, :data:`SIMULATIONS_PER_MS` (:func:`simulations_for`). A simulation
in which the greedy bot plays the other seats is charged that model's work
too, counted in its decisions and in the publish options they list
(:func:`rival_charge`): a crowded position buys fewer such simulations than a
quiet one, for about the same time. No solver call is bounded by time
alone, so the same view, budget and seed always do the same work and give the
same answer, whatever the machine. Wall-clock time is only a
safety ceiling, read through :func:`now`: it is checked before each solver call
and simulation, and a solver call under it gets what is left
(:func:`time_left`). Once it has passed, or has cut a solver call short, the
search stops there and says it is not complete. The clock never chooses
between answers; it can only cut one short.

>>> from pastiche_core import Game
>>> game = Game(players=4, seed=3)
>>> result = search(game.view(2), simulations=24, seed=1)
>>> result.simulations_run, result.complete, result.best in game.legal_moves
(24, True, True)
>>> search(game.view(2), simulations=24, seed=1) == result
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..bots.play import derive_seed
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError, PasticheError
from ..data.limits import Deadline
from ..engine.game import Game, LegalMoves
from ..engine.moves import (
    Move,
)
from ..engine.rules import Phase
from ..engine.view import PlayerView
from ..solver.options import PublishOption
from ..solver.position import Position
from . import search_budget
from .determinize import Knowledge, determinize
from .greedy import GreedyBot
from .heuristics import Outlook
from .playout import PlayoutPolicy, Situation, evaluate
from .search_budget import *  # noqa: F403  # re-exported: their home before the split
from .search_budget import (
    DEFAULT_BUDGET_MS,
    DEFAULT_SETTINGS,
    RIVAL_MEMO,
    Settings,
    ceiling,
    check_budget,
    check_simulations,
    past,
    rival_charge,
    settings_for,
    simulations_for,
    time_left,
)
from .search_candidates import LeastFitPolicy, MoveStats, SearchResult, candidate_moves

__all__ = [
    "LeastFitPolicy",
    "MoveStats",
    "SearchBot",
    "SearchResult",
    "candidate_moves",
    "greedy_move",
    "search",
]
__all__ += search_budget.__all__


class _Node:
    """A node of the tree: one of the player's moves after the moves above it."""

    __slots__ = ("available", "children", "margin", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.wins = 0.0
        self.margin = 0.0

    def select(self, moves: Sequence[Move], exploration: float) -> tuple[Move, _Node, bool]:
        """The move to follow among ``moves`` (available here), its node, and whether it is new."""
        children = self.children
        fresh: Move | None = None
        for move in moves:
            child = children.get(move)
            if child is None:
                if fresh is None:
                    fresh = move
            else:
                child.available += 1
        if fresh is not None:
            child = _Node()
            child.available = 1
            children[fresh] = child
            return fresh, child, True
        chosen: Move = moves[0]
        best_score = -math.inf
        for move in moves:
            child = children[move]
            score = child.wins / child.visits + exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                chosen, best_score = move, score
        return chosen, children[chosen], False


class _RivalOutOfTimeError(Exception):
    """The search's ceiling cut a solver call of the rival model short: the simulation is void."""


class _RivalModel(GreedyBot):
    """The greedy bot as the model of the other seats inside the playouts (``rival_rounds``).

    ``work`` adds up what its decisions cost, in simulations of the playout
    policy (:func:`rival_charge`): the search charges it to its budget. Each
    decision is charged for the publish listing its position asks for, whether
    the memory below kept it or not, so the memory saves time and changes no
    answer.

    Its solver calls get what is left of the search's ``deadline``; a call cut
    short voids the simulation (:class:`_RivalOutOfTimeError`), so the clock only
    ever stops a search, never steers it. It remembers the publish options of
    the last :data:`RIVAL_MEMO` positions: a seat meets the same hand and
    table on every candidate of a deal, and listing the options is most of a
    greedy decision's cost. Those options depend on the position alone, so
    the memory never changes an answer. It remembers the publishes weighed
    too, by all they depend on: the position, the scores, the End Flag, the
    countdown and its trigger (the candidates that publish nothing leave them
    as they were).
    """

    __slots__ = ("_memo", "_weighed", "deadline", "work")

    def __init__(self, seed: int, catalogue: Catalogue, deadline: float | None = None) -> None:
        super().__init__(seed, catalogue=catalogue)
        self.deadline = deadline
        self.work = 0.0
        # Per position: its options and how many the solver counted.
        self._memo: dict[Position, tuple[list[PublishOption], int]] = {}
        # Per position and what else the weighing reads: the publishes weighed, and what
        # their listing counted and weighed.
        self._weighed: dict[tuple[object, ...], tuple[list[tuple[float, Move]], tuple[int, int]]]
        self._weighed = {}

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        self.work += rival_charge(decisions=1)
        return super().choose(view, legal)

    def _publishes(
        self, view: PlayerView, position: Position, hand: list[int], base: float, after: Outlook
    ) -> list[tuple[float, Move]]:
        key = (position, view.scores, view.flag, view.trigger, after.horizon)
        known = self._weighed.get(key)
        if known is None:
            weighed = super()._publishes(view, position, hand, base, after)
            options, counted = self._memo[position]  # the listing _options just made or found
            known = (weighed, (counted, len(options)))
            if len(self._weighed) >= RIVAL_MEMO:
                self._weighed.clear()
            self._weighed[key] = known
        else:
            self._charge_listing(*known[1])
        return list(known[0])

    def _charge_listing(self, counted: int, weighed: int) -> None:
        """Charge a listing of publish options, made or remembered (:func:`rival_charge`)."""
        self.work += rival_charge(listings=1, counted=counted, weighed=weighed)

    def _options(
        self, position: Position, clock: Deadline
    ) -> tuple[list[PublishOption], bool, int]:
        memo = self._memo
        known = memo.get(position)
        if known is None:
            left = time_left(self.deadline)
            if left == 0:
                raise _RivalOutOfTimeError
            found, whole, counted = super()._options(position, Deadline(left))
            if not whole:
                raise _RivalOutOfTimeError
            if len(memo) >= RIVAL_MEMO:
                memo.clear()
            known = memo[position] = (found, counted)
        options, counted = known
        self._charge_listing(counted, len(options))
        return options, True, counted


class _Searcher:
    """The state of one search: the view, the tree, the policy and the settings."""

    def __init__(
        self,
        view: PlayerView,
        knowledge: Knowledge,
        moves: Sequence[Move],
        policy: PlayoutPolicy,
        settings: Settings,
        deadline: float | None,
        seed: int = 0,
    ) -> None:
        self.view = view
        self.knowledge = knowledge
        self.moves = moves
        self.policy = policy
        self.settings = settings
        self.deadline = deadline
        self.root = _Node()
        self.run = 0
        self.stopped = False
        self.rivals = (  # made only for a search that uses it
            _RivalModel(derive_seed(seed, "rivals"), view.catalogue, deadline)
            if settings.rival_rounds
            else None
        )

    def spent(self) -> float:
        """The budget used so far, in simulations: one per simulation run, plus the rival
        model's work (:func:`rival_charge`; none without the model)."""
        return self.run + self.rivals.work if self.rivals is not None else self.run

    def per_simulation(self) -> float:
        """What a simulation has cost on average so far (1 before any has run)."""
        return self.spent() / self.run if self.run else 1

    def out_of_time(self) -> bool:
        """Whether the wall-clock ceiling has passed (then the search stops)."""
        if past(self.deadline):
            self.stopped = True
        return self.stopped

    def deal(self, rng: random.Random) -> Game:
        """A determinization of the view (see :func:`determinize`)."""
        return determinize(self.view, rng, self.knowledge)

    def simulate(self, first: Move | None, game: Game, play: random.Random) -> float | None:
        """One simulation from the determinization ``game``: the tree, a playout from ``play``.

        ``first`` forces the root move (sequential halving); ``None`` lets UCB
        choose it. ``game`` is played on. Returns the win probability, or
        ``None`` (and the search stops) when the ceiling cut the rival model's
        solver short: then nothing of the simulation is counted.
        """
        settings, policy, player, rivals = self.settings, self.policy, self.view.player, self.rivals
        rivals_until = game.turn + settings.rival_rounds * self.view.players
        until = game.turn + settings.horizon_rounds * self.view.players
        last = game.turn + max(settings.horizon_rounds, settings.finish_rounds) * self.view.players
        path: list[_Node] = []
        node = self.root
        grow = True
        while not game.is_over and (
            game.turn < until or (game.turn < last and _near_end(game, settings.finish_within))
        ):
            if grow and game.to_move == player and len(path) < settings.tree_depth:
                if not path and first is not None:
                    move = first
                    child = node.children.get(move)
                    new = child is None
                    if child is None:
                        child = node.children[move] = _Node()
                    child.available += 1
                    node = child
                else:
                    if path:
                        ranked = policy.ranked(Situation.of_game(game, player))
                        available = [move for _, move in ranked[: settings.tree_width]]
                    else:
                        available = list(self.moves)
                    move, node, new = node.select(available, settings.exploration)
                path.append(node)
                grow = not new
            elif rivals is not None and game.turn < rivals_until and game.to_move != player:
                try:
                    move = rivals.choose(game.view(game.to_move), game.legal_moves)
                except _RivalOutOfTimeError:
                    self.stopped = True  # the ceiling passed: this simulation counts for nothing
                    return None
            else:
                move = policy.game_move(game, play)
            game.apply(move)
        win, margin = evaluate(game, player)
        for node in (self.root, *path):
            node.visits += 1
            node.wins += win
            node.margin += margin
        self.run += 1
        return win

    def ucb(self, simulations: int, seed: int) -> None:
        """UCB1 at the root: one generator for every simulation."""
        rng = random.Random(seed)
        while simulations - self.spent() >= 1:  # as the halving: a whole simulation left
            if self.out_of_time():
                return
            if self.simulate(None, self.deal(rng), rng) is None:
                return

    def halving(
        self, simulations: int, seed: int, anchor: Move | None = None
    ) -> tuple[dict[Move, int], Move | None]:
        """Sequential halving at the root, with common random numbers.

        Rounds split the budget evenly; in a round every remaining move is
        simulated on the same deals and the same playout draws (one *batch* per
        deal), then the better half (by mean win probability) goes on. The
        budget is ``simulations``, each charged what it cost (:meth:`spent`); a
        round runs as many batches as its share buys at the cost per simulation
        so far. The
        ``anchor`` (the greedy bot's move) is never dropped: the last survivor
        is preferred to it only if it did better on the same deals by more than
        the settings' ``anchor_margin``. Returns the round each move reached
        and the move chosen (``None`` when nothing was simulated).
        """
        remaining = list(self.moves)
        reached = dict.fromkeys(remaining, 0)
        results: dict[Move, dict[int, float]] = {move: {} for move in remaining}
        contenders = len(remaining) - (anchor is not None and len(remaining) > 1)
        rounds = max(1, math.ceil(math.log2(max(1, contenders))))
        left = simulations - self.spent()
        batch = 0
        children = self.root.children

        def run_batch(moves: Sequence[Move]) -> None:
            nonlocal batch, left
            dealt = self.deal(random.Random(derive_seed(seed, "deal", batch)))
            play_seed = derive_seed(seed, "play", batch)
            for move in moves:
                if left < 1 or self.out_of_time():
                    break
                win = self.simulate(move, dealt.copy(history=False), random.Random(play_seed))
                if win is None:
                    break
                results[move][batch] = win
                left = simulations - self.spent()
            batch += 1

        for round_index in range(rounds):
            share = left // (rounds - round_index)
            start = left
            while left >= 1 and not self.out_of_time():
                run_batch(remaining[: math.ceil(left)])  # a short budget: the first moves only
                # Another batch if the share buys it at the cost per simulation so far.
                if start - left + len(remaining) * self.per_simulation() > share:
                    break
            for move in remaining:
                reached[move] = round_index + 1
            if len(remaining) <= 1 + (anchor is not None) or self.stopped or left < 1:
                break
            remaining.sort(key=lambda move: -_mean(children.get(move)))
            kept = [move for move in remaining if move != anchor]
            kept = kept[: math.ceil(len(kept) / 2)]
            remaining = [move for move in remaining if move in kept or move == anchor]
        # What the rounds left over (rounding) goes to the moves still in the race.
        while left >= len(remaining) * self.per_simulation() and not self.out_of_time():
            run_batch(remaining)
        if left >= 1 and not self.out_of_time():  # the last few: the leaders, on one more deal
            remaining.sort(key=lambda move: -_mean(children.get(move)))
            run_batch(remaining)
        tried = [move for move in remaining if children.get(move) is not None]
        if not tried:
            return reached, None
        tried.sort(key=lambda move: -_mean(children.get(move)))
        best = next((move for move in tried if move != anchor), tried[0])
        if anchor is None or best == anchor or anchor not in results:
            return reached, best
        common = [b for b in results[best] if b in results[anchor]]
        if not common:
            return reached, best
        gain = sum(results[best][b] - results[anchor][b] for b in common) / len(common)
        return reached, best if gain > self.settings.anchor_margin else anchor


def _near_end(game: Game, within: int) -> bool:
    """Whether some seat of ``game`` is within ``within`` points of the End Flag (R12: the
    game's own threshold).

    >>> from pastiche_core import Game, Rules
    >>> _near_end(Game(players=3, seed=7), 15), _near_end(Game(players=3, seed=7), 4)
    (True, False)
    >>> _near_end(Game(players=3, seed=7, rules=Rules(end_threshold=4)), 4)
    True
    """
    return within >= 0 and max(game.scores()) >= game.rules.end_threshold - within


def _mean(node: _Node | None) -> float:
    return node.wins / node.visits if node is not None and node.visits else -1.0


def _ucb_choice(
    root: _Node, moves: Sequence[Move], anchor: Move | None, margin: float
) -> Move | None:
    """With a UCB root: the best mean, unless it beats the anchor by no more than ``margin``."""
    tried = [move for move in moves if root.children.get(move) is not None]
    if not tried:
        return None
    best = max(tried, key=lambda move: _mean(root.children.get(move)))
    if anchor is None or anchor not in tried or best == anchor:
        return best
    gain = _mean(root.children.get(best)) - _mean(root.children.get(anchor))
    return best if gain > margin else anchor


def greedy_move(
    view: PlayerView, knowledge: Knowledge, seed: int, deadline: float | None = None
) -> Move | None:
    """The :class:`~pastiche_core.ai.greedy.GreedyBot`'s move for the view: the search's anchor.

    The greedy bot reads the view only; a determinization (dealt from
    ``seed``) provides the legal moves it checks its choice against, which
    depend on nothing hidden. ``None`` when the view has nothing to decide.
    Its solver calls end by ``deadline`` (an instant of :func:`now`), if any.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> greedy_move(game.view(2), Knowledge.of(game.view(2)), 1) in game.legal_moves
    True
    """
    if view.phase is Phase.OVER or view.to_move != view.player:
        return None
    game = determinize(view, random.Random(seed), knowledge)
    left = time_left(deadline)
    bot = GreedyBot(
        seed, catalogue=view.catalogue, time_limit=None if left is None else max(left, 1e-6)
    )
    return bot.choose(view, game.legal_moves)


def search(
    view: PlayerView,
    *,
    simulations: int,
    seed: int = 0,
    deadline: float | None = None,
    policy: PlayoutPolicy | None = None,
    candidates: tuple[list[Move], bool] | None = None,
    settings: Settings = DEFAULT_SETTINGS,
) -> SearchResult:
    """Search the view's decision with ``simulations`` simulations (see the module).

    ``seed`` seeds every random choice, so the same view, budget and seed give
    the same result. ``deadline`` is an instant of :func:`now` (see
    :func:`ceiling`) after which no new solver call or simulation starts (the
    safety ceiling; the result then says it is not complete); ``None`` for none.
    ``candidates`` is :func:`candidate_moves`' answer, if already known. A
    view with nothing to decide for its player gives no moves.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> search(game.view(0), simulations=10).moves
    ()
    """
    check_simulations(simulations)
    chooser = policy if policy is not None else PlayoutPolicy()
    knowledge = Knowledge.of(view)
    moves, whole = (
        candidates
        if candidates is not None
        else candidate_moves(view, policy=chooser, deadline=deadline)
    )
    if not moves:
        return SearchResult(view.player, view.phase, (), 0, 0, whole, knowledge)
    anchor = None
    late = past(deadline)  # then nothing is simulated
    if settings.anchor and len(moves) > 1 and not late:
        anchor = greedy_move(view, knowledge, derive_seed(seed, "anchor"), deadline)
        if anchor is not None:
            moves = [anchor, *(move for move in moves if move != anchor)]
    sit = Situation.of_view(view)
    priors = {move: chooser.value(sit, move) for move in moves}
    searcher = _Searcher(view, knowledge, moves, chooser, settings, deadline, seed)
    if settings.root == "halving":
        reached, chosen = searcher.halving(simulations, seed, anchor)
    else:
        searcher.ucb(simulations, seed)
        reached = dict.fromkeys(moves, 0)
        chosen = _ucb_choice(searcher.root, moves, anchor, settings.anchor_margin)
    stats = _rank(moves, searcher.root, priors, settings.shrink, reached, chosen)
    complete = whole and not searcher.stopped and all(item.visits for item in stats)
    return SearchResult(
        view.player,
        view.phase,
        stats,
        simulations,
        searcher.run,
        complete,
        knowledge,
        searcher.stopped,
    )


def _rank(
    moves: Sequence[Move],
    root: _Node,
    priors: dict[Move, float],
    shrink: float,
    reached: dict[Move, int],
    chosen: Move | None = None,
) -> tuple[MoveStats, ...]:
    """The root's moves with their estimates: the chosen move, then tried moves by round, estimate."""
    mean_win = root.wins / root.visits if root.visits else 0.0
    mean_margin = root.margin / root.visits if root.visits else 0.0
    tried: list[tuple[tuple[bool, int, float, int, int], MoveStats]] = []
    untried: list[MoveStats] = []
    for index, move in enumerate(moves):
        child = root.children.get(move)
        visits = child.visits if child is not None else 0
        if child is None or not visits:
            untried.append(MoveStats(move, 0, mean_win, mean_margin, priors[move], 0))
            continue
        win = (child.wins + shrink * mean_win) / (visits + shrink)
        margin = (child.margin + shrink * mean_margin) / (visits + shrink)
        key = (move != chosen, -reached[move], -win, -visits, index)
        stats = MoveStats(move, visits, win, margin, priors[move], reached[move])
        tried.append((key, stats))
    tried.sort(key=lambda item: item[0])
    return tuple(item for _, item in tried) + tuple(untried)


# ----------------------------------------------------------------------
# The bot
# ----------------------------------------------------------------------
class SearchBot:
    """A :class:`~pastiche_core.bots.play.Bot` that plays the move :func:`search` ranks first.

    Give ``budget_ms`` (turned into simulations by :func:`simulations_for`,
    with the milliseconds as a wall-clock ceiling) or ``simulations`` (no
    ceiling: fully reproducible on any machine). ``settings`` default to
    :func:`settings_for` the budget, or to :data:`DEFAULT_SETTINGS` with
    ``simulations``. Each decision is searched
    with a seed derived from ``seed`` and the view (``derive_seed``), so a bot
    replays the same game for the same seed, and it only ever reads the view
    it is given. A decision with one candidate is answered without search.
    Picklable.

    >>> from pastiche_core import play_game
    >>> from pastiche_core.ai.playout import PolicyBot
    >>> bots = [SearchBot(1, simulations=8)] + [PolicyBot(seat) for seat in range(1, 4)]
    >>> game = play_game(players=4, seed=2, bots=bots)
    >>> game.is_over
    True
    """

    __slots__ = ("budget_ms", "seed", "settings", "simulations")

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: int | None = None,
        simulations: int | None = None,
        settings: Settings | None = None,
    ) -> None:
        if budget_ms is not None and simulations is not None:
            raise InvalidArgumentError("give either budget_ms or simulations, not both")
        if settings is not None and not isinstance(settings, Settings):
            raise InvalidArgumentError(f"settings must be a Settings, got {settings!r}")
        if simulations is not None:
            check_simulations(simulations)
        else:
            budget_ms = check_budget(DEFAULT_BUDGET_MS if budget_ms is None else budget_ms)
        self.seed = seed
        self.budget_ms = budget_ms
        self.simulations = simulations
        if settings is None:
            settings = DEFAULT_SETTINGS if budget_ms is None else settings_for(budget_ms)
        self.settings = settings

    def __repr__(self) -> str:
        budget = (
            f"simulations={self.simulations}"
            if self.simulations is not None
            else f"budget_ms={self.budget_ms}"
        )
        return f"SearchBot(seed={self.seed!r}, {budget})"

    def __getstate__(self) -> tuple[int, int | None, int | None, Settings]:
        return (self.seed, self.budget_ms, self.simulations, self.settings)

    def __setstate__(self, state: tuple[int, int | None, int | None, Settings]) -> None:
        self.seed, self.budget_ms, self.simulations, self.settings = state

    def think(self, view: PlayerView, *, deadline: float | None = None) -> SearchResult:
        """The search this bot runs for ``view``: seeded and budgeted as the bot is.

        ``deadline`` (an instant of :func:`now`) stops it sooner than its own
        ceiling; a search that ends before it is the same search as without.

        >>> from pastiche_core import Game
        >>> SearchBot(2, simulations=6).think(Game(players=3, seed=7).view(2)).simulations_run
        6
        """
        seed = self._seed_for(view)
        if self.simulations is not None:
            simulations = self.simulations
        else:
            assert self.budget_ms is not None
            simulations = simulations_for(self.budget_ms)
            own = ceiling(self.budget_ms / 1000)
            deadline = own if deadline is None else min(own, deadline)
        return search(
            view, simulations=simulations, seed=seed, deadline=deadline, settings=self.settings
        )

    def _seed_for(self, view: PlayerView) -> int:
        """The seed of the search :meth:`think` runs for ``view``."""
        return derive_seed(self.seed, "search", view.player, view.turn, len(view.history))

    def choose(self, view: PlayerView, legal: LegalMoves, *, deadline: float | None = None) -> Move:
        """The search's best move for ``view`` (one of ``legal``), searched until ``deadline``
        at the latest (an instant of :func:`now`; see :meth:`think`).

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> SearchBot(1, simulations=8).choose(game.view(2), game.legal_moves) in game.legal_moves
        True
        """
        if len(legal) == 1:
            return legal[0]
        try:
            move = self.think(view, deadline=deadline).best
        except PasticheError:  # pragma: no cover - a view from a game is always consistent
            move = None
        if move is None or move not in legal:
            return legal[0]
        return move
