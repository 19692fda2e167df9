"""The greedy bot: one documented heuristic for every decision, looking one move ahead.

:class:`GreedyBot` sees only its player's :class:`~pastiche_core.engine.view.PlayerView`
and the legal moves. Each decision it scores the candidate moves by what they
are worth right after they are played — points on the table, Published novels
on their way to becoming Masterpieces, and the hand's publishing prospects
(:class:`~pastiche_core.ai.heuristics.Outlook`) — and plays the best; exact
ties go to its seeded generator, so a seed replays the same game.

* **Keep** (setup, R10): the three cards with the best prospects.
* **Write ① or ②** (R11): draw is worth the expected better of two unseen
  cards (drawn from the ranks the player has not seen); taking the top discard
  is worth that card (the average unseen card if it lies face down).
* **Choose**: the drawn card that adds most to the prospects.
* **Read** (R11): a card from one of the player's own Published novels is
  worth the card plus the novel's progress (reading a novel down to one card
  makes it a Masterpiece, worth its points at once); a card from a rival's
  novel is worth the card minus a share of the rival's progress — a large
  share for the leader and for anyone near the End Flag's threshold, so the bot never hands a
  rival close to the end a Masterpiece (reading can only help a novel's owner,
  so this is how it spoils them).
* **Publish** (R4–R9): the solver (:func:`~pastiche_core.solver.queries.solve`)
  lists the options (when there are more than ``max_options``, a fair share
  of each Novel plus the best for points, fewest gifts and points per card, read
  from the listing's fronts by :func:`~pastiche_core.solver.queries.optima`); each
  is worth its points (discounted by the reads it still needs; an instant
  Masterpiece, R7, counts in full) plus the prospects of the cards it keeps,
  minus its gifts (a gift to the leader or to a player near the threshold costs
  more). The gifts are chosen by
  :class:`GreedyGiftPolicy`: the cards the player needs least, the leader
  getting those least useful to them.
* **End Flag** (R12): the card the player needs least.
* **Pass** (R11): worth nothing; legal only when neither Write nor Read is,
  so it is played when no publish is worth more.

Reaching the End Flag's threshold (R12: 15 points by the rulebook, the view's
``rules`` under house rules) earns it; the bot counts it, plus a point when it
leads and minus one when it would start the countdown behind. During
the countdown, novels and prospects that need more turns than the player has
left are worth nothing.

The bot is deterministic for a seed: the solver runs without a time limit,
bounded by ``max_options`` instead, so no decision depends on the clock.

>>> from pastiche_core import play_game
>>> from pastiche_core.bots.play import RandomBot
>>> game = play_game(players=4, seed=3, bots=[GreedyBot(1), RandomBot(2), RandomBot(3), RandomBot(4)])
>>> game.is_over
True
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Iterable, Sequence

from ..data.cards import MAX_RANK, MIN_RANK, Card
from ..data.catalogue import Catalogue
from ..data.errors import IllegalMoveError, InvalidArgumentError
from ..data.limits import Deadline, check_time_limit
from ..engine.game import LegalMoves, keep_choices
from ..engine.moves import Choose, Draw, Gift, Keep, Move, Pass, Read, TakeDiscard, TakeFlag
from ..engine.rules import Phase, turn_actions
from ..engine.table import TableNovel
from ..engine.view import PlayerView
from ..solver.gifts import gift_candidates, to_publish
from ..solver.options import Constraints, PublishOption
from ..solver.position import Position
from ..solver.queries import optima, solve
from .heuristics import Outlook, Weights, counts_of
from .visible import position_of, unseen_ranks

__all__ = ["DEFAULT_PUBLISH_OPTIONS", "GreedyBot", "GreedyGiftPolicy"]

DEFAULT_PUBLISH_OPTIONS = 200
"""Publish options the greedy bot asks the solver for, at most (a fair share per Novel)."""

_FULL_EVALUATIONS = 8
"""Options scored in full (gifts chosen, prospects after), best first by a quick score."""

_GOALS = ("points", "fewest-gifts", "points-per-card")
"""The solver's optima added to a listing cut short by ``max_options``."""

_CHOSEN_MEMO = 64
"""Gift choices a :class:`GreedyGiftPolicy` remembers (one decision weighs a few publishes)."""

_RANKS = range(MIN_RANK, MAX_RANK + 1)
_TIE = 1e-9
_LEAST_TIME = 1e-6
"""The time limit of a solver call started when its decision's time is up (it stops at once)."""


def _left(clock: Deadline) -> float | None:
    """The seconds ``clock`` leaves a solver call (``None``: no limit; never 0, which a
    time limit cannot be: a call started at the limit stops at once)."""
    left = clock.left()
    return None if left == math.inf else max(left, _LEAST_TIME)


def _help_weight(view: PlayerView, owner: int, weights: Weights) -> float:
    """The share of ``owner``'s gain counted against the view's player.

    Doubled for the leading rival (with points, and not behind the player); one
    more share for a rival within 4 points of the game's End Flag threshold (R12).
    """
    scores = view.scores
    rivals = [scores[p] for p in range(view.players) if p != view.player]
    share = weights.help
    if scores[owner] == max(rivals) and scores[owner] >= max(1, scores[view.player]):
        share *= 2
    if scores[owner] >= view.rules.end_threshold - 4:  # R12: the game's own threshold
        share += weights.help
    return share


def _danger(card: Card, masterpiece_ranks: Sequence[int]) -> float:
    """How useful ``card`` may be to a player with these Masterpiece ranks (to cite them)."""
    danger = 0.0
    for rank in masterpiece_ranks:
        gap = abs(rank - card.rank)
        if gap == 0:
            danger += 1.0
        elif gap <= 2:
            danger += 0.5
    return danger


def _least_useful(
    outlook: Outlook, hand: list[int], cards: Sequence[Card], count: int
) -> list[Card]:
    """``count`` of ``cards`` whose loss hurts the prospects least, chosen one at a time.

    ``hand`` (rank counts, including ``cards``) is not changed. Ties go to the
    lower rank, then to canonical card order.
    """
    counts = list(hand)
    left = sorted(cards, key=lambda card: (card.rank, card.index))
    chosen: list[Card] = []
    for _ in range(count):
        before = outlook.prospects(counts)
        lowest: tuple[float, int] | None = None
        pick = 0
        seen: set[int] = set()
        for index, card in enumerate(left):
            if card.rank in seen:
                continue
            seen.add(card.rank)
            counts[card.rank] -= 1
            loss = before - outlook.prospects(counts)
            counts[card.rank] += 1
            key = (loss, card.rank)
            if lowest is None or key < lowest:
                lowest, pick = key, index
        card = left.pop(pick)
        counts[card.rank] -= 1
        chosen.append(card)
    return chosen


class GreedyGiftPolicy:
    """Gives away the cards the player needs least; the leader gets those least useful to them.

    A :class:`~pastiche_core.solver.gifts.GiftPolicy` for the publishes of the view's
    player. The gift cards are chosen one at a time, each time the spare card
    whose loss lowers the prospects least (after the publish: the Novel held,
    an instant Masterpiece on the table). They are then dealt to the owners,
    the most feared first (the leader, a player near the threshold), each taking
    the cards least related to their own Masterpieces' ranks.

    >>> from pastiche_core import Game, Position
    >>> from pastiche_core.solver.options import make_option
    >>> game = Game(players=3, seed=7)
    >>> policy = GreedyGiftPolicy.of_view(game.view(0))
    >>> pos = Position.quick("SCI7 HOR7 MYS11 LOV7", table="1:kind-3=1:MYS7")
    >>> policy.choose(pos, make_option(pos, "kind-3", [7, 7], [(1, 7)]))
    (Gift(to=1, card=Card.parse('MYS11')),)
    """

    __slots__ = ("_chosen", "feared", "masterpieces", "outlook")

    def __init__(
        self,
        outlook: Outlook,
        feared: dict[int, float] | None = None,
        masterpieces: dict[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.outlook = outlook
        self.feared = dict(feared or {})
        self.masterpieces = dict(masterpieces or {})
        # The cards given, per hand, kept cards, Novel, cards played and gifts owed: the
        # options of one publish that differ only in whom they cite give the same cards.
        self._chosen: dict[tuple[object, ...], tuple[Card, ...]] = {}

    @classmethod
    def of_view(
        cls, view: PlayerView, catalogue: Catalogue | None = None, weights: Weights | None = None
    ) -> GreedyGiftPolicy:
        """The policy of the view's player, seen from right after this turn.

        >>> from pastiche_core import Game
        >>> GreedyGiftPolicy.of_view(Game(players=3, seed=7).view(0)).feared
        {1: 0.4, 2: 0.4}
        """
        w = weights if weights is not None else Weights()
        return cls._of(view, Outlook.of_view(view, catalogue, w).after_turns(1), w)

    @classmethod
    def _of(cls, view: PlayerView, outlook: Outlook, weights: Weights) -> GreedyGiftPolicy:
        """:meth:`of_view` with its outlook (the view's, one turn on) already made."""
        feared = {
            owner: _help_weight(view, owner, weights)
            for owner in range(view.players)
            if owner != view.player
        }
        masterpieces = {
            owner: tuple(novel.cards[0].rank for novel in view.tables[owner] if novel.masterpiece)
            for owner in range(view.players)
        }
        return cls(outlook, feared, masterpieces)

    def __repr__(self) -> str:
        return "GreedyGiftPolicy()"

    def choose(
        self, position: Position, option: PublishOption, constraints: Constraints | None = None
    ) -> tuple[Gift, ...]:
        """The gift cards of ``option``, per owner (R5).

        >>> from pastiche_core import Game, Position
        >>> from pastiche_core.solver.options import make_option
        >>> pos = Position.quick("SCI7 HOR7 MYS7")
        >>> GreedyGiftPolicy.of_view(Game(players=3, seed=7).view(0)).choose(
        ...     pos, make_option(pos, "kind-3", [7, 7, 7], []))
        ()
        """
        if option.gift_count == 0:
            return ()
        kept = (constraints if constraints is not None else position.constraints).keep
        key = (position.hand, kept, option.novel, tuple(option.played), option.gift_count)
        known = self._chosen.get(key)
        if known is None:
            spare = gift_candidates(position, option, constraints)
            instant = option.played[0] if option.instant_masterpiece else None
            outlook = self.outlook.after_publish(option.novel, instant)
            hand = counts_of(position.hand)
            for card in option.played:
                hand[card.rank] -= 1
            known = tuple(_least_useful(outlook, hand, spare, option.gift_count))
            if len(self._chosen) >= _CHOSEN_MEMO:
                self._chosen.clear()
            self._chosen[key] = known
        chosen = list(known)
        owners = sorted(option.gifts, key=lambda item: (-self.feared.get(item[0], 0.0), item[0]))
        gifts: list[Gift] = []
        for owner, count in owners:
            ranks = self.masterpieces.get(owner, ())
            chosen.sort(key=lambda card: (_danger(card, ranks), card.rank, card.index))
            gifts.extend(Gift(owner, card) for card in chosen[:count])
            del chosen[:count]
        return tuple(sorted(gifts))


class GreedyBot:
    """A one-move-ahead heuristic player (see the module for every decision).

    ``seed`` seeds the generator that breaks exact ties (``None``: from the
    operating system). ``catalogue`` is the game's (the view does not carry
    it; default: the default catalogue). ``weights`` tunes the heuristic;
    ``max_options`` bounds the publish options asked of the solver per
    decision (a fair share per Novel, deterministic). ``time_limit`` bounds the
    seconds a decision's solver calls take together (``None``: no limit, the
    same answer on every machine); past it the bot chooses among the publishes
    found so far, so a caller with a deadline (the search's anchor) stays
    within it.

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=1)
    >>> import pickle
    >>> bot = GreedyBot(seed=7)
    >>> twin = pickle.loads(pickle.dumps(bot))  # picklable, generator state included
    >>> move = bot.choose(game.view(game.to_move), game.legal_moves)
    >>> move in game.legal_moves, type(move).__name__
    (True, 'Keep')
    >>> twin.choose(game.view(2), game.legal_moves) == move
    True
    """

    __slots__ = ("_rng", "catalogue", "max_options", "seed", "time_limit", "weights")

    def __init__(
        self,
        seed: int | None = None,
        *,
        catalogue: Catalogue | None = None,
        weights: Weights | None = None,
        max_options: int = DEFAULT_PUBLISH_OPTIONS,
        time_limit: float | None = None,
    ) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidArgumentError(f"seed must be an integer or None, got {seed!r}")
        if catalogue is not None and not isinstance(catalogue, Catalogue):
            raise InvalidArgumentError(f"catalogue must be a Catalogue, got {catalogue!r}")
        if weights is not None and not isinstance(weights, Weights):
            raise InvalidArgumentError(f"weights must be a Weights, got {weights!r}")
        if isinstance(max_options, bool) or not isinstance(max_options, int) or max_options < 1:
            raise InvalidArgumentError(f"max_options must be an integer >= 1, got {max_options!r}")
        self.seed = seed
        self.catalogue = catalogue if catalogue is not None else Catalogue.default()
        self.weights = weights if weights is not None else Weights()
        self.max_options = max_options
        self.time_limit = check_time_limit(time_limit)
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r})"

    # ------------------------------------------------------------------
    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The best move by the heuristic; exact ties broken by the seeded generator.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> game.apply("keep MYT1 HOR7 HOR8")
        >>> GreedyBot(1).choose(game.view(0), game.legal_moves) in game.legal_moves
        True
        """
        phase = view.phase
        if phase is Phase.ACTION:
            scored = self._action(view, legal)
        elif phase is Phase.KEEP:  # counted before listed: a house rule's deal may be large
            scored = self._small_phase(view, [*keep_choices(view.hand, view.rules.keep_size)])
        else:
            scored = self._small_phase(view, list(legal))
        move = self._pick(scored, legal)
        if move is None:  # pragma: no cover - every phase scores at least one legal move
            return legal[self._rng.randrange(len(legal))]
        return move

    def _pick(self, scored: list[tuple[float, Move]], legal: LegalMoves) -> Move | None:
        """The best scored move that is legal; exact ties go to the generator."""
        scored = sorted(scored, key=lambda item: -item[0])  # stable: candidate order kept
        while scored:
            top = scored[0][0]
            ties = [move for value, move in scored if value >= top - _TIE]
            move = ties[0] if len(ties) == 1 else ties[self._rng.randrange(len(ties))]
            if move in legal:
                return move
            scored = [item for item in scored if item[1] != move]
        return None

    def _small_phase(self, view: PlayerView, moves: list[Move]) -> list[tuple[float, Move]]:
        """Keep, choose and flag: the hand after the move with the best prospects."""
        outlook = Outlook.of_view(view, self.catalogue, self.weights)
        hand = counts_of(view.hand)
        scored: list[tuple[float, Move]] = []
        for move in moves:
            if isinstance(move, Keep):
                value = outlook.prospects(counts_of(move.cards))
            elif isinstance(move, TakeFlag):
                hand[move.card.rank] -= 1
                value = outlook.prospects(hand)
                hand[move.card.rank] += 1
            elif isinstance(move, Choose):
                hand[move.card.rank] += 1
                value = outlook.prospects(hand)
                hand[move.card.rank] -= 1
            else:  # pragma: no cover - no other move outside the action phase
                value = 0.0
            scored.append((value, move))
        return scored

    # ------------------------------------------------------------------
    def _action(self, view: PlayerView, legal: LegalMoves) -> list[tuple[float, Move]]:
        w = self.weights
        now = Outlook.of_view(view, self.catalogue, w)
        after = now.after_turns(1)
        hand = counts_of(view.hand)
        base = after.prospects(hand)
        gains = [0.0] * (MAX_RANK + 1)
        for rank in _RANKS:
            hand[rank] += 1
            gains[rank] = after.prospects(hand) - base
            hand[rank] -= 1
        unseen = unseen_ranks(view)
        scored: list[tuple[float, Move]] = []
        published = [novel for table in view.tables for novel in table if not novel.masterpiece]
        reads = sum(len(novel.cards) for novel in published)
        draw, take, may_pass = turn_actions(view.deck_size, len(view.discard), reads)
        if draw:
            scored.append((self._draw_value(view, gains, unseen), Draw()))
        if take:
            top = view.discard[-1]
            value = gains[top.rank] if top is not None else _mean(gains, unseen)
            scored.append((value, TakeDiscard()))
        for novel in published:
            scored.extend(self._reads(view, novel, gains, now))
        if may_pass:  # worth nothing
            scored.append((0.0, Pass()))
        scored.extend(self._publishes(view, position_of(view, self.catalogue), hand, base, after))
        return scored

    def _draw_value(self, view: PlayerView, gains: list[float], unseen: Sequence[int]) -> float:
        """The expected better of two cards from the deck (or the reshuffled discards)."""
        pool = list(unseen)
        if view.deck_size == 0:  # R11: the draw reshuffles the discard pile
            pool = [0] * (MAX_RANK + 1)
            for card in view.discard:
                if card is not None:
                    pool[card.rank] += 1
            if not any(pool):
                pool = list(unseen)
        total = sum(pool)
        if total == 0:
            return 0.0
        expected = 0.0
        below = 0.0
        for rank in sorted(_RANKS, key=lambda r: gains[r]):
            if not pool[rank]:
                continue
            upto = below + pool[rank] / total
            expected += gains[rank] * (upto * upto - below * below)
            below = upto
        return expected

    def _pending(self, points: int, cards: int, turns: int | None) -> float:
        """A Published novel of ``cards`` cards, for its owner with ``turns`` turns to read it."""
        if cards <= 1:
            return float(points)
        if turns is not None and cards - 1 > turns:
            return 0.0
        return points * self.weights.read_factor ** (cards - 1)

    def _trigger(self, view: PlayerView, gained: int) -> float:
        """What reaching the End Flag's threshold (R12, the view's rules) with ``gained`` more
        points is worth: flag and lead."""
        if view.trigger is not None or not gained:
            return 0.0
        mine = view.scores[view.player]
        if view.flag is None and mine < view.rules.end_threshold <= mine + gained:
            best_rival = max(s for p, s in enumerate(view.scores) if p != view.player)
            lead = 1.0 if mine + gained + 1 > best_rival else -1.0
            return float(self.catalogue.end_flag.points) + lead
        return 0.0

    def _reads(
        self, view: PlayerView, novel: TableNovel, gains: list[float], now: Outlook
    ) -> list[tuple[float, Move]]:
        points = self.catalogue[novel.novel].points
        n = len(novel.cards)
        if novel.owner == view.player:
            turns = now.horizon
            after_turns = None if turns is None else turns - 1
            progress = self._pending(points, n - 1, after_turns) - self._pending(points, n, turns)
            if n == 2:
                progress += self._trigger(view, points)
        else:
            share = _help_weight(view, novel.owner, self.weights)
            progress = -share * (
                self._pending(points, n - 1, None) - self._pending(points, n, None)
            )
            if n == 2 and view.scores[novel.owner] + points >= view.rules.end_threshold:
                progress -= points  # never hand a rival the points that end the game
        scored: list[tuple[float, Move]] = []
        seen: set[int] = set()
        for card in novel.cards:
            if card.rank in seen:
                continue
            seen.add(card.rank)
            scored.append((gains[card.rank] + progress, Read(novel.ref, card)))
        return scored

    def _options(
        self, position: Position, clock: Deadline
    ) -> tuple[list[PublishOption], bool, int]:
        """The publish options weighed (the solver's listing, and its optima when it is a
        sample), whether they are whole (``False``: ``clock`` cut a solver call short), and
        how many options the solver counted (the listing's work, which a caller may charge).

        A whole answer depends on the position alone, so a subclass may remember it.
        """
        report = solve(position, max_options=self.max_options, time_limit=_left(clock))
        options = list(report.options)
        counted = report.total
        whole = report.stopped_by != "time_limit"
        if report.stopped_by == "max_options":
            # The listing is a sample: add the optima, read from the report's complete fronts.
            found = optima(report, _GOALS, time_limit=_left(clock)) if not clock.passed() else {}
            whole = len(found) == len(_GOALS) and all(c.complete for c in found.values())
            for choice in found.values():
                if choice.option not in options:
                    options.append(choice.option)
        return options, whole, counted

    def _publishes(
        self, view: PlayerView, position: Position, hand: list[int], base: float, after: Outlook
    ) -> list[tuple[float, Move]]:
        """The publishes weighed, each with its value; ``position`` is the view's."""
        clock = Deadline(self.time_limit)  # one limit for the decision's solver calls
        options, _, _ = self._options(position, clock)  # past the limit: the options found so far
        if not options:
            return []
        w = self.weights
        turns = after.horizon
        feared = {
            owner: _help_weight(view, owner, w)
            for owner in range(view.players)
            if owner != view.player
        }

        def worth(option: PublishOption) -> float:
            value = self._pending(option.points, option.played_count, turns)
            if option.instant_masterpiece:
                value += self._trigger(view, option.points)
            return value

        def gift_cost(option: PublishOption) -> float:
            return sum(
                count * w.gift * feared.get(owner, w.help) / max(w.help, _TIE)
                for owner, count in option.gifts
            )

        # The quick score depends on the points, the cards played and the gifts alone.
        quick_scores: dict[tuple[int, int, tuple[tuple[int, int], ...]], float] = {}

        def quick_score(o: PublishOption) -> float:
            key = (o.points, len(o.played), o.gifts)
            score = quick_scores.get(key)
            if score is None:
                score = -(worth(o) - gift_cost(o) - 0.05 * (o.played_count + o.gift_count))
                quick_scores[key] = score
            return score

        # nsmallest is sorted(...)[:n]: ties keep the listing's order.
        quick = heapq.nsmallest(_FULL_EVALUATIONS, options, key=quick_score)
        policy = GreedyGiftPolicy._of(view, after, w)
        scored: list[tuple[float, Move]] = []
        for option in quick:
            instant = option.played[0] if option.instant_masterpiece else None
            outlook = after.after_publish(option.novel, instant)
            kept = list(hand)
            for card in option.played:
                kept[card.rank] -= 1
            try:
                move = to_publish(option, position, policy)
            except IllegalMoveError:  # pragma: no cover - the solver lists legal options
                continue
            for gift in move.gifts:
                kept[gift.card.rank] -= 1
            value = worth(option) + outlook.prospects(kept) - base - gift_cost(option)
            scored.append((value, move))
        return scored


def _mean(gains: Sequence[float], weights: Iterable[int]) -> float:
    """The average gain of a card drawn with these weights per rank."""
    pairs = [(gain, weight) for gain, weight in zip(gains, weights, strict=True) if weight]
    total = sum(weight for _, weight in pairs)
    return sum(gain * weight for gain, weight in pairs) / total if total else 0.0
