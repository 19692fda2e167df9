"""How close is each Novel? The cards needed, the outs and the odds of the next writes.

:func:`outs` answers for one player, from a view, a position or a game, and for
every Novel of the catalogue: how many more cards the player needs to publish it
(``need``, 0 when it can be published now), which unseen cards would bring it one
card closer (the *outs*, by rank, with the unseen cards of each), and the odds
that the next write, or one of the next few, makes it publishable (the model is
:mod:`pastiche_core.solver.odds`'). Only the cards the player cannot see count as
unseen: the deck, the other players' hands and the face-down discards of others
(R16). Cited Masterpieces and gifts count as the solver counts them (R4, R5).

>>> from pastiche_core.solver.position import Position
>>> report = outs(Position.quick("SCI7 HOR7 MYT2", held="kind-5"), writes=2)
>>> kind3 = report.novel("kind-3")
>>> kind3.need, [out.rank for out in kind3.outs], kind3.out_cards
(1, [7], 5)
>>> report.to_dict()["unreachable"][0]["reason"]
'the player holds kind-5 already: one copy per player (R6)'
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from ..data.cards import DECK, Card
from ..data.errors import InvalidArgumentError
from ..data.limits import Deadline
from ..data.patterns import rank_counts
from ..engine.game import Game
from ..engine.knowledge import hidden_cards
from ..engine.view import PlayerView
from .odds import NEVER, Odds, Reach, State, added, write_odds
from .position import Position, position_of

__all__ = [
    "MAX_SAMPLES",
    "MAX_WRITES",
    "OUTS_FORMAT",
    "OUTS_VERSION",
    "NovelOuts",
    "Out",
    "OutsReport",
    "Unreachable",
    "outs",
]

OUTS_FORMAT = "pastiche-outs"
"""The ``format`` of the document :meth:`OutsReport.to_dict` writes."""
OUTS_VERSION = 1
"""Its ``version``."""
MAX_WRITES = 10
"""The most writes the odds look ahead."""
MAX_SAMPLES = 100_000
"""The most sampled runs the odds take per Novel."""
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Out:
    """One rank of outs: its unseen cards, any one of which brings the Novel one card closer.

    >>> Out(7, (Card.parse("LOV7"),)).to_dict()
    {'rank': 7, 'cards': ['LOV7'], 'unseen': 1}
    """

    rank: int
    """The rank."""
    cards: tuple[Card, ...]
    """The unseen cards of that rank, in card order."""

    @property
    def unseen(self) -> int:
        """How many cards of the rank are unseen."""
        return len(self.cards)

    def to_dict(self) -> dict[str, Any]:
        """The ``outs`` entry of the ``pastiche-outs`` document."""
        return {
            "rank": self.rank,
            "cards": [str(card) for card in self.cards],
            "unseen": self.unseen,
        }


@dataclass(frozen=True, slots=True)
class NovelOuts:
    """One reachable Novel: the cards it needs, its outs and its odds.

    >>> from pastiche_core.solver.position import Position
    >>> outs(Position.quick("SCI7 HOR7 MYS7"), writes=1).novel("kind-3")
    <NovelOuts kind-3: need 0, 0 outs, publishable now>
    """

    novel: str
    """The Novel's id."""
    name: str
    """Its name."""
    points: int
    """Its points."""
    need: int
    """The fewest more cards that make it publishable; 0: publishable now."""
    outs: tuple[Out, ...]
    """The unseen ranks one card of which lowers :attr:`need` by one, by rank."""
    odds: Odds
    """The chances of the next writes (:mod:`pastiche_core.solver.odds`)."""

    @property
    def out_cards(self) -> int:
        """How many unseen cards are outs."""
        return sum(out.unseen for out in self.outs)

    def to_dict(self) -> dict[str, Any]:
        """The ``novels`` entry of the ``pastiche-outs`` document."""
        return {
            "novel": self.novel,
            "name": self.name,
            "points": self.points,
            "need": self.need,
            "outs": [out.to_dict() for out in self.outs],
            "out_cards": self.out_cards,
            "odds": self.odds.to_dict(),
        }

    def __repr__(self) -> str:
        if not self.need:
            return f"<NovelOuts {self.novel}: need 0, 0 outs, publishable now>"
        last = self.odds.within[-1]
        return (
            f"<NovelOuts {self.novel}: need {self.need}, {self.out_cards} outs, "
            f"{last.publishable:.0%} within {last.writes}>"
        )


@dataclass(frozen=True, slots=True)
class Unreachable:
    """A Novel the player cannot reach, and why (R4, R6).

    >>> Unreachable("kind-5", "5 of a Kind", "no copy of kind-5 is left in the supply (R6)").novel
    'kind-5'
    """

    novel: str
    """The Novel's id."""
    name: str
    """Its name."""
    reason: str
    """Why, naming the ruling."""

    def to_dict(self) -> dict[str, str]:
        """The ``unreachable`` entry of the ``pastiche-outs`` document."""
        return {"novel": self.novel, "name": self.name, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class OutsReport:
    """:func:`outs`' answer: every reachable Novel in catalogue order, and the others.

    >>> from pastiche_core.solver.position import Position
    >>> report = outs(Position.quick("SCI7 HOR7 MYS7"), writes=1)
    >>> report
    <OutsReport player 0: 10 reachable, 0 unreachable, 46 unseen, 1 write>
    >>> print(report.format().splitlines()[0])
    Player 0: 46 unseen cards; odds of publishing within 1 write (exact).
    """

    player: int
    """The seat asking."""
    unseen: int
    """How many cards the player cannot see (R16)."""
    writes: int
    """How many writes the odds look ahead."""
    complete: bool
    """False when a time limit (or a bound) cut the answer short."""
    novels: tuple[NovelOuts, ...]
    """The reachable Novels, in catalogue order."""
    unreachable: tuple[Unreachable, ...]
    """The others but the End Flag (R12), in catalogue order, each with its reason."""

    def novel(self, novel: str) -> NovelOuts:
        """The entry of the reachable Novel ``novel`` (``KeyError`` if it is not reachable)."""
        for entry in self.novels:
            if entry.novel == novel:
                return entry
        raise KeyError(f"{novel!r} is not a reachable Novel of the report")

    def to_dict(self) -> dict[str, Any]:
        """The ``pastiche-outs`` document (``io/schemas/outs.schema.json``)."""
        return {
            "format": OUTS_FORMAT,
            "version": OUTS_VERSION,
            "player": self.player,
            "unseen": self.unseen,
            "writes": self.writes,
            "complete": self.complete,
            "novels": [entry.to_dict() for entry in self.novels],
            "unreachable": [entry.to_dict() for entry in self.unreachable],
        }

    def __repr__(self) -> str:
        s = "" if self.writes == 1 else "s"
        cut = "" if self.complete else ", cut short"
        return (
            f"<OutsReport player {self.player}: {len(self.novels)} reachable, "
            f"{len(self.unreachable)} unreachable, {self.unseen} unseen, {self.writes} write{s}"
            f"{cut}>"
        )

    def __str__(self) -> str:
        return self.format()

    def format(self, width: int = 80) -> str:
        """The text table the ``pastiche outs`` command prints, at most ``width`` columns.

        >>> from pastiche_core.solver.position import Position
        >>> print(outs(Position.quick("SCI7 HOR7 MYT2 LOV3"), writes=2).format())
        ... # doctest: +ELLIPSIS
        Player 0: 45 unseen cards; odds of publishing within 1-2 writes (exact).
        Novel               pts need outs  closer    <=1    <=2
        5-Card Straight       1    3   16   59.0%   0.0%   0.0%
        ...
        3 of a Kind           1    1    5   21.2%  21.2%  39.0%
          outs: 7 (MYT7 LOV7 MYS7 FAN7 MAG7)
        ...
        """
        return _format(self, max(40, width))


def _format(report: OutsReport, width: int) -> str:
    exact = all(entry.odds.exact for entry in report.novels)
    span = "1 write" if report.writes == 1 else f"1-{report.writes} writes"
    how = "exact" if exact else "sampled where marked ~, 95% intervals in JSON"
    lines = textwrap.wrap(
        f"Player {report.player}: {report.unseen} unseen cards; odds of publishing within "
        f"{span} ({how}){'' if report.complete else '; cut short by the time limit'}.",
        width,
    )
    fixed = 19 + 4 + 5 + 5 + 8
    shown = max(1, min(report.writes, (width - fixed) // 7))
    head = f"{'Novel':<19}{'pts':>4}{'need':>5}{'outs':>5}{'closer':>8}"
    head += "".join(f"{'<=' + str(w):>7}" for w in range(1, shown + 1))
    lines.append(head)
    for entry in report.novels:
        odds = entry.odds
        mark = "" if odds.exact else "~"
        row = f"{entry.name[:18]:<19}{entry.points:>4}{entry.need:>5}{entry.out_cards:>5}"
        row += f"{_percent(odds.next_closer):>8}"
        row += "".join(f"{mark + _percent(w.publishable):>7}" for w in odds.within[:shown])
        lines.append(row)
        if entry.outs:
            listed = ", ".join(
                f"{out.rank} ({' '.join(str(card) for card in out.cards)})" for out in entry.outs
            )
            lines.extend(
                textwrap.wrap(
                    f"outs: {listed}", width, initial_indent="  ", subsequent_indent="    "
                )
            )
    for gone in report.unreachable:
        lines.extend(
            textwrap.wrap(
                f"{gone.name}: {gone.reason}", width, initial_indent="x ", subsequent_indent="    "
            )
        )
    return "\n".join(lines)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidArgumentError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


def _source(source: object, player: int | None) -> tuple[Position, tuple[Card, ...], Card | None]:
    """The position, the unseen cards and the known top discard that ``source`` gives."""
    if isinstance(source, Game):
        seat = source.to_move if player is None else player
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < source.players:
            raise InvalidArgumentError(
                f"player must be a seat from 0 to {source.players - 1} (R10), got {seat!r}"
            )
        source = source.view(seat)
    if isinstance(source, PlayerView):
        if player is not None and player != source.player:
            raise InvalidArgumentError(
                f"player {player!r} differs from the view's player {source.player}: a view "
                "answers for its own player only (R16)"
            )
        top = source.discard[-1] if source.discard else None
        return position_of(source), hidden_cards(source), top
    if isinstance(source, Position):
        if player is not None and player != source.player:
            raise InvalidArgumentError(
                f"player {player!r} differs from the position's player {source.player}"
            )
        seen = set(source.hand) | {mp.card for mp in source.masterpieces}
        return source, tuple(card for card in DECK if card not in seen), None
    raise InvalidArgumentError(
        f"outs() takes a PlayerView, a Position or a Game, got a {type(source).__name__}"
    )


def outs(
    source: PlayerView | Position | Game,
    *,
    player: int | None = None,
    writes: int = 3,
    samples: int = 2000,
    seed: int = 0,
    time_limit: float | None = 10.0,
) -> OutsReport:
    """For each Novel: the cards needed, the outs and the odds of the next ``writes`` writes.

    A :class:`~pastiche_core.engine.game.Game` answers for ``player`` (default: the
    player to move) through that player's view; a
    :class:`~pastiche_core.engine.view.PlayerView` for its own player; a
    :class:`~pastiche_core.solver.position.Position` for its player, every card
    not in its hand nor on its table being unseen. Only unseen cards count (R16):
    swapping the hidden cards of the other players changes nothing. The odds
    follow :mod:`pastiche_core.solver.odds`' model, sampled with ``samples`` runs
    seeded by ``seed`` past its bound; a ``time_limit`` that runs out gives
    ``complete`` false. The position's own hint constraints are not applied.

    >>> from pastiche_core import Game
    >>> report = outs(Game(players=3, seed=7), player=0, writes=2, seed=1)
    >>> report.player, report.unseen, report.novels[0].novel
    (0, 46, 'straight-5')
    >>> outs(Game(players=3, seed=7), writes=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: writes must be an integer from 1 to 10, got 0
    """
    _check_int("writes", writes, 1, MAX_WRITES)
    _check_int("samples", samples, 1, MAX_SAMPLES)
    _check_int("seed", seed, 0, _MASK)
    clock = Deadline(time_limit)
    position, unseen_cards, top = _source(source, player)
    hand = rank_counts(card.rank for card in position.hand)
    own = rank_counts(mp.rank for mp in position.masterpieces if mp.owner == position.player)
    others = rank_counts(mp.rank for mp in position.masterpieces if mp.owner != position.player)
    unseen = rank_counts(card.rank for card in unseen_cards)
    by_rank: dict[int, list[Card]] = {}
    for card in unseen_cards:
        by_rank.setdefault(card.rank, []).append(card)
    complete = True
    reachable: list[NovelOuts] = []
    unreachable: list[Unreachable] = []
    for index, spec in enumerate(position.catalogue.specs):
        if spec.pattern is None:
            continue  # the End Flag is taken, never published (R12)
        if spec.id in position.held_novels:
            reason = f"the player holds {spec.id} already: one copy per player (R6)"
        elif position.supply.get(spec.id, 0) <= 0:
            reason = f"no copy of {spec.id} is left in the supply (R6)"
        else:
            reason = ""
        if reason or clock.passed():
            complete = complete and bool(reason)
            if reason:
                unreachable.append(Unreachable(spec.id, spec.name, reason))
            continue
        reach = Reach(
            spec.pattern, hand=hand, own=own, others=others, unseen=unseen, deadline=clock
        )
        complete = complete and reach.complete
        need = reach.need(reach.start)
        if need >= NEVER:
            unreachable.append(
                Unreachable(
                    spec.id,
                    spec.name,
                    f"the hand, the Masterpieces and the unseen cards cannot make {spec.name} "
                    "(R4, R5)",
                )
            )
            continue
        found = _outs(reach, need, by_rank)
        odds = write_odds(
            reach,
            writes=writes,
            discard=None if top is None else top.rank,
            samples=samples,
            seed=(seed + index * 0x9E3779B97F4A7C15) & _MASK,
            deadline=clock,
        )
        complete = complete and not (odds.samples and odds.samples < samples)
        reachable.append(NovelOuts(spec.id, spec.name, spec.points, need, found, odds))
    return OutsReport(
        player=position.player,
        unseen=len(unseen_cards),
        writes=writes,
        complete=complete,
        novels=tuple(reachable),
        unreachable=tuple(unreachable),
    )


def _outs(reach: Reach, need: int, by_rank: dict[int, list[Card]]) -> tuple[Out, ...]:
    """The unseen ranks one card of which lowers the need by one."""
    if not need:
        return ()
    combos = reach.near(need)  # only these can reach need - 1 with one card
    start: State = reach.start
    found = []
    for rank, cards in sorted(by_rank.items()):
        after = added(start, rank, drawn=(rank,))
        if reach.need(after, combos) < need:
            found.append(Out(rank, tuple(cards)))
    return tuple(found)
