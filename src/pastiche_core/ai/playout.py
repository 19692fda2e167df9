"""The playout policy: a cheap heuristic player, its evaluation of a position, and playouts.

A search plays thousands of moves per second of thinking, so the moves of its
simulated futures come from a fast policy rather than from search. The policy
scores every candidate move of a decision in *points* — the same unit as the
score — and plays the best one:

* **Publish** (R4–R7): for each Novel still in the supply and not held, a few
  rank combinations of the hand and the Masterpieces on the table
  (:data:`COMBINATIONS_PER_NOVEL` per Novel), each filled two ways: fewest
  gifts (own Masterpieces, then hand cards, then other players' Masterpieces)
  and most citations (own, others', then the hand — an instant Masterpiece
  when one card is left to play, R7). A publish is worth its points times
  ``maturity`` to the power of the reads it still needs (none for an instant
  Masterpiece), less ``gift_cost`` per gift and ``card_cost`` per card played
  (:class:`PolicyWeights`). The gifts are the spare cards that fit the hand least.
* **Read** (R11): the progress the Novel makes towards a Masterpiece, at its
  full value for the player's own Novel and at ``rival_share`` of it,
  negated, for another player's, plus the fit of the card taken.
* **Write** (R11): Write ② is worth the fit of the top discard (or of an
  average card when it lies face down), Write ① ``draw_value``.
* **Keep, choose, End Flag**: the cards that fit the hand best are kept; the
  End Flag takes the card that fits worst.

A card's *fit* (:func:`card_fit`) counts the cards of the same rank in the
hand and on the table (Masterpieces to cite), the hand's ranks within two, and
how common the rank is (rank 7 has seven copies, ranks 1 and 13 one, R1),
scaled by ``fit_value``. The default weights are those that won most often in
matches of the policy against itself.

The costing of the publishes is the ``policy_publishes`` kernel: its Python
rule in :mod:`pastiche_core.ai.playout_publishes`, a compiled twin when the extension is
built (:mod:`pastiche_core.engine._kernels`);
each fill's R4 and R5 steps are :func:`~pastiche_core.engine.feasibility.fill_rank` and
:func:`~pastiche_core.engine.feasibility.settle`.

A truncated playout is valued by :func:`evaluate`: each player's expected
final score is their score plus each Published novel's points times
:data:`EVAL_MATURITY` per card above one, plus :data:`HAND_VALUE` per hand
card and :data:`PROSPECT_VALUE` times the hand's publishing prospects (the
greedy bot's :class:`~pastiche_core.ai.heuristics.Outlook`); the win
probability is a softmax of those expectations with temperature
:data:`WIN_TEMPERATURE`, and the margin is the player's expectation less the
best other one.

>>> from pastiche_core import Game
>>> game = Game(players=4, seed=3)
>>> policy = PlayoutPolicy()
>>> import random
>>> move = policy.game_move(game, random.Random(1))
>>> move in game.legal_moves
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..data.cards import Card
from ..data.catalogue import Catalogue
from ..data.errors import InvalidArgumentError
from ..engine.feasibility import fill_rank, kernel_plan, settle
from ..engine.game import Game, LegalMoves, keep_choices
from ..engine.game_internals import insides
from ..engine.moves import (
    Choose,
    Draw,
    Gift,
    Keep,
    Move,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from ..engine.rules import RULEBOOK, Phase, Rules, turn_actions
from ..engine.table import is_masterpiece
from ..engine.view import PlayerView
from .heuristics import Outlook, counts_of
from .playout_publishes import (
    Runs,
    Spec,
    Weights,
    costed_publishes,
    policy_publishes,
    publish_value,
    read_maturity,
    size_of,
)

__all__ = [
    "COMBINATIONS_PER_NOVEL",
    "DEFAULT_WEIGHTS",
    "EVAL_MATURITY",
    "HAND_VALUE",
    "PROSPECT_VALUE",
    "WIN_TEMPERATURE",
    "PlayoutPolicy",
    "PolicyBot",
    "PolicyWeights",
    "Situation",
    "card_fit",
    "evaluate",
    "playout",
]


@dataclass(frozen=True, slots=True)
class PolicyWeights:
    """The policy's valuations, in points (see the module); the defaults play best in self-play.

    * ``maturity``: how much of a Novel's points a Published novel is worth per
      card still to be read (R11);
    * ``gift_cost``: what a gift costs the giver (a card lost, and a card for a
      rival, R5);
    * ``card_cost``: what a played card costs (out of the hand until read back);
    * ``rival_share``: the weight of a rival's progress against the player's
      own (one rival among several);
    * ``draw_value``: what Write ① is worth (the better of two unknown cards);
    * ``fit_value``: points per unit of :func:`card_fit`.

    >>> PolicyWeights().maturity
    0.67
    """

    maturity: float = 0.67
    """The share of a Novel's points a Published novel keeps per card still to be read."""
    gift_cost: float = 0.25
    """Points a gift costs the giver (R5)."""
    card_cost: float = 0.03
    """Points a played card costs."""
    rival_share: float = 0.5
    """The weight of a rival's progress against the player's own."""
    draw_value: float = 0.3
    """Points Write ① is worth."""
    fit_value: float = 0.25
    """Points per unit of :func:`card_fit`."""


DEFAULT_WEIGHTS = PolicyWeights()
"""The weights of the default policy."""
EVAL_MATURITY = 0.67
"""In :func:`evaluate`: the share of its points a Published novel is worth per card above one."""
HAND_VALUE = 0.08
"""In :func:`evaluate`: points per hand card (cards become publishes)."""
WIN_TEMPERATURE = 1.5
"""In :func:`evaluate`: points of expected score that multiply a player's odds of winning by e.

It and :data:`HAND_VALUE` are chosen for the search's play, not for predicting the
winner: a higher value per hand card (with a softer temperature) predicts the winner a
little better, but then the search keeps cards rather than publish them."""
PROSPECT_VALUE = 1.0
"""In :func:`evaluate`: the weight of a hand's publishing prospects, in points of prospects.

The prospects are the greedy bot's (:meth:`~pastiche_core.ai.heuristics.Outlook.prospects`:
what the Novels the hand is closest to are worth, discounted per missing card and per
read still needed), so a hand is worth the Novels it is close to, not only its number of
cards; the search plays better with them than without, and with a weight of 1 than 2."""
COMBINATIONS_PER_NOVEL = 6
"""Rank combinations tried per Novel when looking for a publish."""
_AVERAGE_FIT = 0.6
"""The fit assumed for a card the player cannot see (a face-down discard)."""


def _copies(rank: int) -> int:
    """How many Story cards have ``rank`` (R1): ``min(r, 14 - r, 7)``."""
    return min(rank, 14 - rank, 7)


def card_fit(card: Card, hand_counts: Sequence[int], table_counts: Sequence[int]) -> float:
    """How well ``card`` fits a hand: same ranks, citable Masterpieces, near ranks, common ranks.

    ``hand_counts`` and ``table_counts`` count cards per rank (index 0 unused)
    in the hand (without ``card``) and among the Masterpieces on the table.

    >>> from pastiche_core import Card
    >>> counts = [0] * 14; counts[9] = 1
    >>> card_fit(Card.parse("SCI9"), counts, [0] * 14) > card_fit(Card.parse("MYT1"), counts, [0] * 14)
    True
    """
    rank = card.rank
    near = 0
    for other in (rank - 2, rank - 1, rank + 1, rank + 2):
        if 1 <= other <= 13 and hand_counts[other]:
            near += 1
    return 1.0 * hand_counts[rank] + 0.5 * table_counts[rank] + 0.3 * near + 0.06 * _copies(rank)


@dataclass(slots=True)
class Situation:
    """What the policy looks at for one decision of ``player``: public cards and their own.

    Built from a game (:meth:`of_game`, for playouts) or from a view
    (:meth:`of_view`, for a bot); ``top`` is the top discard when the player
    can see it.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> Situation.of_view(game.view(2)).hand == Situation.of_game(game, 2).hand
    True
    """

    player: int
    """The player deciding."""
    players: int
    """The number of players."""
    phase: Phase
    """The phase of the decision."""
    hand: tuple[Card, ...]
    """The player's hand."""
    tables: Sequence[Mapping[str, tuple[Card, ...]]]
    """Each seat's novels on the table: Novel id to the cards under it."""
    supply: Mapping[str, int]
    """Copies of each Novel left in the supply (R6)."""
    catalogue: Catalogue
    """The game's Novel catalogue."""
    pending: tuple[Card, Card] | None
    """The two drawn cards to choose between after Write ①, if any."""
    top: Card | None
    """The top discard when the player can see it, else ``None``."""
    discard_size: int
    """Cards in the discard pile."""
    deck_size: int
    """Cards in the deck."""
    turns_left: int | None
    """Turns left in the end game (R12), ``None`` before it."""
    rules: Rules = RULEBOOK
    """The numbers the game is played by (R10–R12)."""

    @classmethod
    def of_game(cls, game: Game, player: int) -> Situation:
        """The situation of ``player`` in ``game`` (a determinization: every card is known).

        >>> from pastiche_core import Game
        >>> Situation.of_game(Game(players=3, seed=7), 2).phase
        <Phase.KEEP: 'keep'>
        """
        inside = insides(game)
        discard = inside.discard
        top = discard[-1] if discard else None
        if top is not None and inside.is_face_down(top):
            top = None
        return cls(
            player,
            game.players,
            game.phase,
            tuple(sorted(inside.hand(player))),
            inside.tables,
            game.supply,
            game.catalogue,
            inside.pending if game.to_move == player else None,
            top,
            len(discard),
            len(inside.deck),
            inside.turns_left,
            game.rules,
        )

    @classmethod
    def of_view(cls, view: PlayerView) -> Situation:
        """The situation of the view's player.

        >>> from pastiche_core import Game
        >>> len(Situation.of_view(Game(players=3, seed=7).view(1)).hand)
        3
        """
        return cls(
            view.player,
            view.players,
            view.phase,
            tuple(view.hand),
            [{novel.novel: novel.cards for novel in table} for table in view.tables],
            dict(view.supply),
            view.catalogue,
            view.pending,
            view.discard[-1] if view.discard else None,
            len(view.discard),
            view.deck_size,
            view.turns_left,
            view.rules,
        )


class _Counts:
    """Cards per rank in a hand and among the Masterpieces on the table.

    A card's fit depends on its rank alone, so each is computed once per rank
    (the counts do not change during a decision).
    """

    __slots__ = ("_fits", "hand", "table")

    def __init__(self, hand: Iterable[Card], tables: Sequence[Mapping[str, tuple[Card, ...]]]):
        self.hand = counts_of(hand)
        self.table = [0] * 14
        for table in tables:
            for cards in table.values():
                if len(cards) == 1:
                    self.table[cards[0].rank] += 1
        self._fits: dict[tuple[int, bool], float] = {}

    def fit(self, card: Card, in_hand: bool) -> float:
        """The card's fit, leaving it out of the hand counts if it is in the hand."""
        key = (card.rank, in_hand)
        value = self._fits.get(key)
        if value is None:
            if in_hand:
                self.hand[card.rank] -= 1
                value = card_fit(card, self.hand, self.table)
                self.hand[card.rank] += 1
            else:
                value = card_fit(card, self.hand, self.table)
            self._fits[key] = value
        return value


class PlayoutPolicy:
    """The heuristic player of playouts (see the module): scores the moves, plays the best.

    ``explore`` is the chance of playing the second-best move instead, so that
    playouts from one position do not all follow the same line; it is drawn
    from the generator given, so a seed replays the same playout.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> [str(move) for _, move in PlayoutPolicy().ranked(Situation.of_game(game, 2))][:2]
    ['keep HOR7 HOR8 FAN10', 'keep MYT1 HOR7 HOR8']
    """

    __slots__ = ("_specs", "combinations", "explore", "weights")

    def __init__(
        self,
        *,
        explore: float = 0.1,
        combinations: int = COMBINATIONS_PER_NOVEL,
        weights: PolicyWeights = DEFAULT_WEIGHTS,
    ) -> None:
        if type(combinations) is not int or combinations < 1:
            raise InvalidArgumentError(
                f"combinations must be a whole number of at least 1, got {combinations!r}"
            )
        self.explore = explore
        self.combinations = combinations
        self.weights = weights
        self._specs: tuple[Catalogue, tuple[Spec, ...], bytes | None] | None = None

    def __repr__(self) -> str:
        return (
            f"PlayoutPolicy(explore={self.explore}, combinations={self.combinations}, "
            f"weights={self.weights})"
        )

    def _key(self) -> tuple[float, int, PolicyWeights]:
        return (self.explore, self.combinations, self.weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayoutPolicy):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __getstate__(self) -> tuple[float, int, PolicyWeights]:
        return self._key()

    def __setstate__(self, state: tuple[float, int, PolicyWeights]) -> None:
        self.explore, self.combinations, self.weights = state
        self._specs = None

    def _publishable(self, catalogue: Catalogue) -> tuple[tuple[Spec, ...], bytes | None]:
        """The catalogue's publishable Novels as ``(id, (points, pattern, size))``, kept per policy.

        With them, the catalogue's plan (:func:`~pastiche_core.engine.feasibility.kernel_plan`,
        in the same order), which the ``policy_publishes`` kernel reads; ``None``
        when a pattern is of a kind only Python lists (a user-defined one).

        >>> specs, plan = PlayoutPolicy()._publishable(Catalogue.default())
        >>> specs[0], len(plan) == 20 * len(specs)
        (('straight-5', (1, Straight(length=5), 5)), True)
        """
        cached = self._specs
        if cached is None or cached[0] is not catalogue:
            specs = tuple(
                (spec.id, (spec.points, spec.pattern, size_of(spec.pattern)))
                for spec in catalogue.publishable
                if spec.pattern is not None
            )
            cached = self._specs = (catalogue, specs, kernel_plan(catalogue))
        return cached[1], cached[2]

    # ------------------------------------------------------------------
    def ranked(self, sit: Situation, *, publishes: int = 3) -> list[tuple[float, Move]]:
        """Every move the policy considers, with its value in points, best first.

        At most ``publishes`` publishes are included (the best). Ties keep the
        order in which the moves were generated.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> value, move = PlayoutPolicy().ranked(Situation.of_game(game, 2))[0]
        >>> str(move), round(value, 2)
        ('keep HOR7 HOR8 FAN10', 0.41)
        """
        if sit.phase is Phase.KEEP:
            scored = self._keeps(sit)
        elif sit.phase is Phase.CHOOSE:
            scored = self._chooses(sit)
        elif sit.phase is Phase.FLAG:
            scored = self._flags(sit)
        elif sit.phase is Phase.ACTION:
            scored = self._actions(sit, publishes)
        else:
            return []
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return [scored[i] for i in order]

    def pick(self, sit: Situation, rng: random.Random) -> Move:
        """The policy's move: the best, or the second best with probability ``explore``.

        >>> from pastiche_core import Game
        >>> sit = Situation.of_game(Game(players=3, seed=7), 2)
        >>> PlayoutPolicy(explore=0).pick(sit, random.Random(0))
        Move.parse('keep HOR7 HOR8 FAN10')
        """
        ranked = self.ranked(sit, publishes=1)
        if not ranked:
            raise ValueError(f"player {sit.player} has no move in the {sit.phase.value} phase")
        if len(ranked) > 1 and self.explore and rng.random() < self.explore:
            return ranked[1][1]
        return ranked[0][1]

    def game_move(self, game: Game, rng: random.Random) -> Move:
        """The policy's move for the player to move in ``game``.

        >>> from pastiche_core import Game
        >>> PlayoutPolicy(explore=0).game_move(Game(players=3, seed=7), random.Random(0))
        Move.parse('keep HOR7 HOR8 FAN10')
        """
        return self.pick(Situation.of_game(game, game.to_move), rng)

    def value(self, sit: Situation, move: Move) -> float:
        """The policy's value of any legal ``move`` of the decision, in points (see the module).

        >>> from pastiche_core import Game, Move
        >>> sit = Situation.of_game(Game(players=3, seed=7), 2)
        >>> policy = PlayoutPolicy()
        >>> policy.value(sit, Move.parse("keep HOR7 HOR8 FAN10")) > policy.value(
        ...     sit, Move.parse("keep MYT1 HOR8 FAN10"))
        True
        """
        w = self.weights
        counts = _Counts(sit.hand, sit.tables)
        if isinstance(move, Keep):
            return _keep_value(move.cards, _Counts((), sit.tables), w)
        if isinstance(move, Choose):
            return w.fit_value * counts.fit(move.card, False)
        if isinstance(move, TakeFlag):
            return -w.fit_value * counts.fit(move.card, True)
        if isinstance(move, Draw):
            return w.draw_value
        if isinstance(move, TakeDiscard):
            return w.fit_value * (_AVERAGE_FIT if sit.top is None else counts.fit(sit.top, False))
        if isinstance(move, Read):
            cards = sit.tables[move.source.owner][move.source.novel]
            points = sit.catalogue[move.source.novel].points
            progress = _read_progress(points, len(cards), move.source.owner, sit.player, w)
            return progress + w.fit_value * counts.fit(move.card, False)
        if isinstance(move, Publish):
            points = sit.catalogue[move.novel].points
            turns_left = -1 if sit.turns_left is None else sit.turns_left
            return publish_value(
                points, len(move.played), len(move.gifts), turns_left, _costing_weights(w)
            )
        return -1.0  # pass

    # ------------------------------------------------------------------
    def _keeps(self, sit: Situation) -> list[tuple[float, Move]]:
        counts = _Counts((), sit.tables)
        values: dict[tuple[Card, ...], float] = {}
        scored: list[tuple[float, Move]] = []
        # R15: the discard order matters only to who can take the top card; either will do
        for move in keep_choices(sit.hand, sit.rules.keep_size):
            value = values.get(move.cards)
            if value is None:
                value = values[move.cards] = _keep_value(move.cards, counts, self.weights)
            scored.append((value, move))
        return scored

    def _chooses(self, sit: Situation) -> list[tuple[float, Move]]:
        assert sit.pending is not None
        counts = _Counts(sit.hand, sit.tables)
        fit_value = self.weights.fit_value
        return [(fit_value * counts.fit(card, False), Choose(card)) for card in sit.pending]

    def _flags(self, sit: Situation) -> list[tuple[float, Move]]:
        counts = _Counts(sit.hand, sit.tables)
        fit_value = self.weights.fit_value
        return [(-fit_value * counts.fit(card, True), TakeFlag(card)) for card in sit.hand]

    def _actions(self, sit: Situation, publishes: int) -> list[tuple[float, Move]]:
        w = self.weights
        counts = _Counts(sit.hand, sit.tables)
        scored: list[tuple[float, Move]] = []
        published = [
            (owner, novel, cards)
            for owner, table in enumerate(sit.tables)
            for novel, cards in table.items()
            if not is_masterpiece(cards)
        ]
        reads = sum(len(cards) for _, _, cards in published)
        draw, take, may_pass = turn_actions(sit.deck_size, sit.discard_size, reads)
        if draw:
            scored.append((w.draw_value, Draw()))
        if take:
            fit = _AVERAGE_FIT if sit.top is None else counts.fit(sit.top, False)
            scored.append((w.fit_value * fit, TakeDiscard()))
        catalogue = sit.catalogue
        for owner, novel, cards in published:
            progress = _read_progress(catalogue[novel].points, len(cards), owner, sit.player, w)
            best: tuple[float, Card] | None = None
            for card in cards:
                fit = counts.fit(card, False)
                if best is None or fit > best[0]:
                    best = (fit, card)
            assert best is not None
            scored.append((progress + w.fit_value * best[0], Read(NovelRef(owner, novel), best[1])))
        floor = max(value for value, _ in scored) if publishes == 1 and scored else -math.inf
        scored.extend(self.publishes(sit, counts, limit=publishes, floor=floor))
        if may_pass:
            scored.append((-1.0, Pass()))
        return scored

    # ------------------------------------------------------------------
    def publishes(
        self,
        sit: Situation,
        counts: _Counts | None = None,
        *,
        limit: int = 3,
        floor: float = -math.inf,
    ) -> list[tuple[float, Publish]]:
        """The best ``limit`` publishes the policy considers (see the module), with their values.

        Each candidate is costed from counts alone (the ``policy_publishes``
        kernel); only the best are built as moves. Publishes worth no more than
        ``floor`` are not wanted: a Novel whose best imaginable publish (the
        fewest cards the Masterpieces on the table could leave to play, no gift)
        is worth no more is skipped unseen.

        >>> from pastiche_core import Game, Position
        >>> game = Game(players=3, seed=7)
        >>> PlayoutPolicy().publishes(Situation.of_game(game, 0))
        []
        """
        hand = sit.hand
        if not hand:
            return []
        if counts is None:
            counts = _Counts(hand, sit.tables)
        player = sit.player
        own = [0] * 14
        others = [0] * 14
        for owner, table in enumerate(sit.tables):
            for cards in table.values():
                if len(cards) == 1:
                    (own if owner == player else others)[cards[0].rank] += 1
        held = sit.tables[player]
        supply = sit.supply
        specs, plan = self._publishable(sit.catalogue)
        usable = bytes(supply.get(novel, 0) > 0 and novel not in held for novel, _ in specs)  # R6
        weights = _costing_weights(self.weights)
        turns_left = -1 if sit.turns_left is None else sit.turns_left
        if plan is not None:
            costed = policy_publishes(
                counts.hand,
                own,
                others,
                len(hand),
                plan,
                usable,
                weights,
                turns_left,
                self.combinations,
                floor,
            )
        else:  # a pattern only Python lists: the same rule over the patterns themselves
            novels = [novel for _, novel in specs]
            costed = costed_publishes(
                novels,
                counts.hand,
                own,
                others,
                len(hand),
                usable,
                weights,
                turns_left,
                self.combinations,
                floor,
            )
        if not costed:
            return []
        found: dict[Publish, float] = {}
        lookup = _Lookup(sit)
        for value, index, runs, cite_first in costed:
            move = _fill(specs[index][0], runs, lookup, cite_first, counts)
            if move is not None and move not in found:
                found[move] = value
                if len(found) >= limit:
                    break
        return [(value, move) for move, value in found.items()]


def _costing_weights(w: PolicyWeights) -> Weights:
    """The weights the costing reads, as floats (the compiled twin's doubles)."""
    return (float(w.maturity), float(w.gift_cost), float(w.card_cost))


def _keep_value(kept: Sequence[Card], counts: _Counts, w: PolicyWeights) -> float:
    """Setup (R10): pairs and near ranks among the kept cards, common ranks, citable ranks."""
    value = 0.0
    for one, two in itertools.combinations(kept, 2):
        gap = abs(one.rank - two.rank)
        value += 1.0 if gap == 0 else 0.3 if gap <= 2 else 0.0
    value += sum(0.06 * _copies(card.rank) + 0.5 * counts.table[card.rank] for card in kept)
    return w.fit_value * value


def _read_progress(points: int, cards: int, owner: int, player: int, w: PolicyWeights) -> float:
    """What reading one card from a novel of ``cards`` cards is worth in progress (R11)."""
    progress = points * (read_maturity(cards - 1, w.maturity) - read_maturity(cards, w.maturity))
    return progress if owner == player else -w.rival_share * progress


class _Lookup:
    """A situation's hand cards and Masterpieces by rank, for building publishes."""

    __slots__ = ("by_rank", "hand", "others", "own")

    def __init__(self, sit: Situation) -> None:
        self.hand = sorted(sit.hand)
        self.by_rank: dict[int, list[Card]] = {}
        for card in self.hand:
            self.by_rank.setdefault(card.rank, []).append(card)
        self.own: dict[int, list[NovelRef]] = {}
        self.others: dict[int, list[NovelRef]] = {}
        for owner, table in enumerate(sit.tables):
            for name, under in table.items():
                if len(under) == 1:
                    target = self.own if owner == sit.player else self.others
                    target.setdefault(under[0].rank, []).append(NovelRef(owner, name))


def _fill(
    novel: str, runs: Runs, lookup: _Lookup, cite_first: bool, counts: _Counts
) -> Publish | None:
    """The publish that :func:`_costs` costed, with its cards, citations and gifts."""
    hand, by_rank, own, others = lookup.hand, lookup.by_rank, lookup.own, lookup.others
    played: list[Card] = []
    cited: list[NovelRef] = []
    owed: dict[int, int] = {}
    spare: tuple[int, NovelRef] | None = None
    for rank, need in runs:
        mine = own.get(rank, [])
        cards = by_rank.get(rank, [])
        theirs = others.get(rank, [])
        taken, from_hand, cite, short = fill_rank(
            need, len(cards), len(mine), len(theirs), cite_first=cite_first
        )
        if short:
            return None
        cited.extend(mine[:taken])
        if taken and cards and spare is None:
            spare = (rank, mine[0])  # the first own citation a hand card may replace (R4)
        played.extend(cards[:from_hand])
        for ref in theirs[:cite]:
            cited.append(ref)
            owed[ref.owner] = owed.get(ref.owner, 0) + 1
    settled = settle(len(played), sum(owed.values()), spare is not None, len(hand))
    if settled is None:
        return None  # R4 or R5
    if not played and spare is not None:  # R4: play a hand card instead of one own citation
        rank, ref = spare
        played.append(by_rank[rank][0])
        cited.remove(ref)
    gifts: list[Gift] = []
    if settled[1]:
        spare_cards = [card for card in hand if card not in played]
        spare_cards.sort(key=lambda card: (counts.fit(card, True), card.index))
        given = iter(sorted(spare_cards[: settled[1]]))
        for owner in sorted(owed):
            gifts.extend(Gift(owner, next(given)) for _ in range(owed[owner]))
    return Publish(novel, tuple(played), tuple(cited), tuple(gifts))


class PolicyBot:
    """A :class:`~pastiche_core.bots.play.Bot` that plays the playout policy from its view alone.

    It is the opponent of the benchmarks before a stronger baseline exists,
    and the search's fallback. Reproducible for a seed (the exploration draws
    from a generator seeded by ``seed``); picklable.

    >>> from pastiche_core import play_game
    >>> game = play_game(players=4, seed=5, bots=[PolicyBot(seat) for seat in range(4)])
    >>> game.is_over
    True
    """

    __slots__ = ("_rng", "policy", "seed")

    def __init__(
        self, seed: int = 0, *, explore: float = 0.0, weights: PolicyWeights = DEFAULT_WEIGHTS
    ) -> None:
        self.seed = seed
        self.policy = PlayoutPolicy(explore=explore, weights=weights)
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"PolicyBot(seed={self.seed!r}, explore={self.policy.explore!r})"

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        """The policy's move for the view's player; the first legal move if it finds none legal.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> PolicyBot(1).choose(game.view(2), game.legal_moves)
        Move.parse('keep HOR7 HOR8 FAN10')
        """
        move = self.policy.pick(Situation.of_view(view), self._rng)
        return move if move in legal else legal[0]


# ----------------------------------------------------------------------
# Evaluation and playouts
# ----------------------------------------------------------------------
def expected_scores(game: Game) -> list[float]:
    """Each player's expected final score: score, Published novels by maturity, the hand.

    >>> from pastiche_core import Game
    >>> expected_scores(Game(players=3, seed=7))  # 3 or 4 cards, each hand's prospects
    [0.329676, 0.328353, 0.418373]
    """
    inside = insides(game)
    catalogue = game.catalogue
    ending = inside.turns_left
    values = []
    for player in range(game.players):
        hand = inside.hand(player)
        value = float(game.scores()[player])
        for novel, cards in inside.tables[player].items():
            if len(cards) > 1:
                share = read_maturity(len(cards), EVAL_MATURITY)
                if ending is not None and ending < len(cards):
                    share *= 0.25
                value += catalogue[novel].points * share
        value += HAND_VALUE * len(hand)
        value += PROSPECT_VALUE * Outlook.of_game(game, player).prospects(counts_of(hand))
        values.append(round(value, 6))
    return values


def evaluate(game: Game, player: int) -> tuple[float, float]:
    """``(win probability, margin)`` of ``player``: exact once the game is over, else estimated.

    A finished game gives 1 for a sole win, ``1/k`` for a win shared by k
    players (R13), 0 otherwise, and the final margin over the best other score.
    Otherwise the expectations of :func:`expected_scores` go through a softmax
    (see the module).

    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=1)
    >>> game.apply("keep HOR6 HOR7 MYS7"); game.apply("keep MYT5 LOV5 FAN7")
    >>> evaluate(game, 0)   # after setup: alike but for the hands' prospects
    (0.242419112, -0.087047)
    """
    if game.is_over:
        scores = game.scores()
        winners = game.winners()
        win = 1.0 / len(winners) if player in winners else 0.0
        best = max(score for seat, score in enumerate(scores) if seat != player)
        return win, float(scores[player] - best)
    values = expected_scores(game)
    top = max(values)
    weights = [math.exp((value - top) / WIN_TEMPERATURE) for value in values]
    chance = weights[player] / sum(weights)
    rival = max(value for seat, value in enumerate(values) if seat != player)
    return round(chance, 9), round(values[player] - rival, 6)


def playout(
    game: Game,
    player: int,
    policy: PlayoutPolicy,
    rng: random.Random,
    *,
    until_turn: int,
    max_moves: int = 400,
) -> tuple[tuple[float, float], int]:
    """Play ``game`` on with ``policy`` until it ends or reaches turn ``until_turn``.

    Returns ``(evaluate(game, player), moves played)``. ``game`` is changed.

    >>> import random
    >>> from pastiche_core import Game
    >>> game = Game(players=4, seed=2)
    >>> (win, margin), moves = playout(game, 0, PlayoutPolicy(), random.Random(0), until_turn=8)
    >>> 0 <= win <= 1, game.turn
    (True, 8)
    """
    moves = 0
    while not game.is_over and game.turn < until_turn and moves < max_moves:
        game.apply(policy.game_move(game, rng))
        moves += 1
    return evaluate(game, player), moves
