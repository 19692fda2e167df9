"""The answers of the solver: a :class:`PublishReport` per query and a :class:`Best` choice.

A report holds the options listed, the number of options of each Novel, the
Pareto front of each Novel (R8, R9) and whether anything was cut short by a
limit (:mod:`pastiche_core.data.limits`). Its ``str`` is the readable table that
``pastiche publishes`` prints; its :meth:`~PublishReport.to_dict` is the JSON
contract for frontends.

>>> from pastiche_core import Position, solve
>>> report = solve(Position.quick("SCI7 HOR7 MYS7"))
>>> report
<PublishReport fast: 1 option over 1 novel, complete>
>>> print(report)
player 0, engine fast
hand: SCI7 HOR7 MYS7
masterpieces: none
<BLANKLINE>
1 publish option:
novel   cards played    cited  gifts owed  played  gifts  points
kind-3  SCI7 HOR7 MYS7  -      -                3      0       1
<BLANKLINE>
options and Pareto front of (played, gifts) per novel (R9):
  kind-3  1 option  (3, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ..data._text import fit_line, plural
from ..data.cards import format_cards
from ..data.errors import InvalidArgumentError
from ..engine.moves import Publish
from .options import Constraints, PublishOption
from .position import Position

__all__ = [
    "GOALS",
    "PUBLISHES_FORMAT",
    "PUBLISHES_VERSION",
    "Best",
    "PublishReport",
    "format_report",
    "goal_key",
]

PUBLISHES_FORMAT = "pastiche-publishes"
"""The ``format`` name of a report's JSON form."""
PUBLISHES_VERSION = 1
"""The version of the report's JSON form."""

GOALS: Mapping[str, str] = MappingProxyType(
    {
        "points": "most points, then fewest gifts, then fewest cards played",
        "fewest-gifts": "fewest gifts, then most points, then fewest cards played",
        "fewest-played": "fewest cards played, then most points, then fewest gifts",
        "points-per-card": "most points per card played, then fewest gifts, then most points",
    }
)
"""What :func:`~pastiche_core.solver.queries.best` can optimise, and what each goal means."""

_EMPTY: MappingProxyType[str, Any] = MappingProxyType({})
_NO_CONSTRAINTS = Constraints()


def goal_key(goal: str, points: int, costs: tuple[int, int]) -> tuple[Fraction | int, ...]:
    """The sort key of an option's (points, (played, gifts)) under ``goal``: smaller is better.

    >>> goal_key("points", 6, (2, 2)) < goal_key("points", 1, (1, 0))
    True
    >>> goal_key("fewest-gifts", 6, (2, 2)) < goal_key("fewest-gifts", 1, (1, 0))
    False
    """
    played, gifts = costs
    if goal == "points":
        return (-points, gifts, played)
    if goal == "fewest-gifts":
        return (gifts, -points, played)
    if goal == "fewest-played":
        return (played, -points, gifts)
    if goal == "points-per-card":
        return (-Fraction(points, max(played, 1)), gifts, -points)
    names = ", ".join(GOALS)
    raise InvalidArgumentError(f"unknown goal {goal!r}: expected one of {names}")


@dataclass(frozen=True, slots=True)
class PublishReport:
    """The answer to one query: options, counts and Pareto fronts per Novel, completeness.

    ``counts`` has the exact number of options of every Novel that has any
    (card by card when ``card_level``); ``pareto`` their fronts; ``options``
    lists them, or at most ``max_options`` of them. ``stopped_by`` is ``None``
    when nothing was cut short, else ``"max_options"`` (the fronts are still
    complete, and so are the counts of the fast engine, which counts without
    listing; the CP-SAT engine counts only a complete listing, so its
    ``counts`` are then empty) or ``"time_limit"`` (Novels missing from
    ``counts`` were not examined and more options may exist).
    """

    position: Position
    """The position asked about: hand, table, held Novels, supply and catalogue."""
    engine: str
    """The engine that answered: ``'fast'`` or ``'cpsat'``
    (:data:`~pastiche_core.solver.queries.ENGINES`)."""
    options: tuple[PublishOption, ...]
    """The options listed, each distinct (R8), Novel by Novel in catalogue order, then by cards
    played, gifts and R8 key: every option, unless ``stopped_by`` is set."""
    pareto: Mapping[str, tuple[tuple[int, int], ...]]
    """Per Novel with an option, its Pareto front of ``(played, gifts)`` (R9), played ascending and
    gifts descending; complete unless ``stopped_by`` is ``'time_limit'``."""
    counts: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    """Per Novel with an option, the exact number of its options (card by card when ``card_level``).
    A Novel is missing when the time limit cut the search first, or when the CP-SAT engine's listing
    was cut short (it counts by listing)."""
    stopped_by: str | None = None
    """``None`` for a complete answer, else the limit that cut it short: ``'max_options'`` or
    ``'time_limit'`` (:data:`~pastiche_core.data.limits.STOPPED_BY`)."""
    constraints: Constraints = _NO_CONSTRAINTS
    """The hint constraints the answer honours: the position's own unless others were given."""
    card_level: bool = False
    """Whether options tell physical cards apart rather than ranks (R8's separate mode, fast engine
    only)."""
    time_limit: float | None = None
    """The time limit of the query in seconds, ``None`` for none."""
    max_options: int | None = None
    """The most options the query would list, ``None`` for all."""

    @property
    def complete(self) -> bool:
        """Whether every option is listed (no limit cut the answer short)."""
        return self.stopped_by is None

    @property
    def total(self) -> int:
        """The number of options counted over all Novels."""
        return sum(self.counts.values())

    def __repr__(self) -> str:
        state = "complete" if self.complete else f"stopped by {self.stopped_by}"
        listed = plural(len(self.options), "option")
        if self.total > len(self.options):
            listed += f" of {self.total:,}"
        return (
            f"<PublishReport {self.engine}: {listed} over "
            f"{plural(len(self.pareto), 'novel')}, {state}>"
        )

    def __str__(self) -> str:
        return format_report(self)

    def _repr_html_(self) -> str:
        """The options as a table of coloured cards, Pareto-optimal ones starred (Jupyter)."""
        from ..io.render import options_html

        return options_html(self)

    def __rich__(self) -> Any:
        """The options coloured by genre in a rich console."""
        from ..io.render import rich_text

        return rich_text(self)

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON output (``pastiche publishes --json``).

        >>> from pastiche_core import Position, solve
        >>> data = solve(Position.quick("SCI7 HOR7 MYS7")).to_dict()
        >>> data["options"][0]["novel"], data["pareto"], data["counts"], data["stopped_by"]
        ('kind-3', {'kind-3': [[3, 0]]}, {'kind-3': 1}, None)
        """
        return {
            "format": PUBLISHES_FORMAT,
            "version": PUBLISHES_VERSION,
            "player": self.position.player,
            "engine": self.engine,
            "complete": self.complete,
            "stopped_by": self.stopped_by,
            "card_level": self.card_level,
            "counts": dict(self.counts),
            "options": [option.to_dict() for option in self.options],
            "pareto": {
                novel: [list(point) for point in front] for novel, front in self.pareto.items()
            },
        }


@dataclass(frozen=True, slots=True)
class Best:
    """The best publish for a goal (see :data:`GOALS`): the option and why it was chosen.

    ``complete`` is ``False`` when the time limit cut the search short: the
    option is then the best found, not necessarily the best there is.

    >>> from pastiche_core import Position, best
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> choice = best(pos)
    >>> print(choice)
    publish kind-5 MYS7 FAN7 cite m1 m2 m3 gift 1:? 1:? for 6 points (best for points: 2 gifts, 2 cards played)
    >>> choice.option.novel, choice.goal, choice.complete
    ('kind-5', 'points', True)
    """

    option: PublishOption
    """The option chosen: best for ``goal``, ties going to catalogue order, then to the smallest R8
    key."""
    goal: str
    """What the option is best for: a key of :data:`GOALS` (``'points'``, ``'fewest-gifts'``,
    ``'fewest-played'`` or ``'points-per-card'``)."""
    complete: bool = True
    """``False`` when the time limit cut the search short: the option is then the best found, not
    necessarily the best there is."""
    move: Publish | None = field(default=None, compare=False)
    """The game move of :attr:`option` when :func:`~pastiche_core.solver.queries.best` was asked of a
    game (its gift cards chosen as :func:`~pastiche_core.solver.gifts.to_publish` chooses them, R5):
    ``game.apply(choice)`` plays it. ``None`` for a position not taken from a game."""

    def __str__(self) -> str:
        option = self.option
        facts = f"{plural(option.gift_count, 'gift')}, {plural(option.played_count, 'card')} played"
        cut = "" if self.complete else "; the time limit cut the search short"
        return f"{option} (best for {self.goal}: {facts}{cut})"


# ----------------------------------------------------------------------
# The readable table
# ----------------------------------------------------------------------
def format_report(report: PublishReport, width: int | None = None) -> str:
    """The readable report of ``pastiche publishes``: options, then counts and fronts (R8, R9).

    One row per option (Novel, cards played, Masterpieces cited, gifts owed
    in the option notation's ``TO:?`` form, the two costs, points, and ``*``
    for an instant Masterpiece, R7),
    then per Novel the number of options and the front of (played, gifts), then
    a note if a limit cut the answer short. With ``width`` (a terminal's
    columns) no line is longer: a table that would be wider gives each option
    its own short paragraph, and long lines wrap.

    >>> from pastiche_core import Position, solve
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> print(format_report(solve(pos)))
    player 0, engine fast
    hand: MYT6 SCI9 MYS7 FAN7
    masterpieces: m1 SCI7 (player 0), m2 HOR7 (player 1), m3 MYT7 (player 1)
    <BLANKLINE>
    5 publish options:
    novel   cards played  cited     gifts owed  played  gifts  points
    kind-3  MYS7          m1 m2     1:?              1      1       1  *
    kind-3  MYS7          m2 m3     1:? 1:?          1      2       1  *
    kind-3  MYS7 FAN7     m1        -                2      0       1
    kind-3  MYS7 FAN7     m2        1:?              2      1       1
    kind-5  MYS7 FAN7     m1 m2 m3  1:? 1:?          2      2       6
    * instant Masterpiece: one card played (R7)
    1:? a card owed to player 1, chosen when the option is played (R5)
    <BLANKLINE>
    options and Pareto front of (played, gifts) per novel (R9):
      kind-3  4 options  (1, 1) (2, 0)
      kind-5  1 option   (2, 2)
    >>> print(format_report(solve(pos, max_options=2)))
    player 0, engine fast
    ...
    2 of 5 publish options (max_options 2):
    ...
    note: the listing stopped at max_options (2); the counts and fronts are complete
    >>> print(format_report(solve(pos, max_options=1), width=40))
    player 0, engine fast
    hand: MYT6 SCI9 MYS7 FAN7
    masterpieces: m1 SCI7 (player 0), m2
      HOR7 (player 1), m3 MYT7 (player 1)
    <BLANKLINE>
    1 of 5 publish options (max_options 1):
    publish kind-3 MYS7 cite m1 m2 gift 1:?
      1 played, 1 gift, 1 point, instant
        Masterpiece (R7)
    <BLANKLINE>
    options and Pareto front of (played,
      gifts) per novel (R9):
      kind-3  4 options  (1, 1) (2, 0)
      kind-5  1 option   (2, 2)
    <BLANKLINE>
    note: the listing stopped at max_options
      (1); the counts and fronts are
      complete
    """
    position = report.position
    lines = [
        f"player {position.player}, engine {report.engine}"
        + (", card by card (R8)" if report.card_level else ""),
        f"hand: {format_cards(position.hand, sort=False) or '(empty)'}",
        "masterpieces: "
        + (
            ", ".join(f"{mp.id} {mp.card} (player {mp.owner})" for mp in position.masterpieces)
            or "none"
        ),
    ]
    if not report.constraints.is_empty:
        lines.append(f"constraints: {describe_constraints(report.constraints)}")
    lines.append("")
    options: Sequence[PublishOption] = report.options
    if not report.counts and not options:
        lines.append("no publish option")
    else:
        title = plural(len(options), "publish option")
        if report.total > len(options) and report.stopped_by == "max_options":
            title = f"{len(options):,} of {plural(report.total, 'publish option')}"
            title += f" (max_options {report.max_options})"
        lines.append(f"{title}:")
        rows = _option_rows(options)
        if width is not None and max(len(row) for row in rows) > width:
            rows = [line for option in options for line in _option_paragraph(option)]
        lines.extend(rows)
        lines.append("")
        lines.append("options and Pareto front of (played, gifts) per novel (R9):")
        order = {novel: index for index, novel in enumerate(position.catalogue)}
        novels = sorted(report.pareto, key=lambda novel: (order.get(novel, len(order)), novel))
        counted = [
            plural(report.counts[novel], "option") if novel in report.counts else "not counted"
            for novel in novels
        ]
        novel_width = max((len(novel) for novel in novels), default=0)
        count_width = max((len(text) for text in counted), default=0)
        for novel, text in zip(novels, counted, strict=True):
            front = " ".join(f"({played}, {gifts})" for played, gifts in report.pareto[novel])
            lines.append(f"  {novel.ljust(novel_width)}  {text.ljust(count_width)}  {front}")
    if report.stopped_by is not None:
        lines.append("")
        lines.append(stop_note(report))
    if width is None:
        return "\n".join(lines)
    return "\n".join(fit_line(line, width) for line in lines)


def _option_paragraph(option: PublishOption) -> list[str]:
    """One option in two short lines: its notation without the points; then its costs."""
    head = f"publish {option.novel} {format_cards(option.played, sort=False)}"
    if option.cited:
        head += " cite " + " ".join(option.cited)
    if option.gifts:
        head += " gift " + option.gift_notation
    costs = (
        f"{option.played_count} played, {plural(option.gift_count, 'gift')}, "
        f"{plural(option.points, 'point')}"
    )
    if option.instant_masterpiece:
        costs += ", instant Masterpiece (R7)"
    return [head, "  " + costs]


def stop_note(report: PublishReport) -> str:
    """One line saying which limit cut ``report`` short, and what that means."""
    if report.stopped_by == "max_options":
        counted = all(novel in report.counts for novel in report.pareto)
        return f"note: the listing stopped at max_options ({report.max_options}); " + (
            "the counts and fronts are complete" if counted else "the fronts are complete"
        )
    limit = "" if report.time_limit is None else f" ({report.time_limit:g} s)"
    return (
        f"warning: the search stopped at the time limit{limit}: novels without a count were "
        "not examined and more options may exist"
    )


def _option_rows(options: Sequence[PublishOption]) -> list[str]:
    header = ("novel", "cards played", "cited", "gifts owed", "played", "gifts", "points", "")
    rows = [
        (
            option.novel,
            format_cards(option.played, sort=False),
            " ".join(option.cited) or "-",
            option.gift_notation or "-",
            str(option.played_count),
            str(option.gift_count),
            str(option.points),
            "*" if option.instant_masterpiece else "",
        )
        for option in options
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    lines = []
    for row in (header, *rows):
        cells = [row[i].ljust(widths[i]) for i in range(4)]
        cells += [row[i].rjust(widths[i]) for i in range(4, 7)]
        lines.append("  ".join([*cells, row[7]]).rstrip())
    if any(option.instant_masterpiece for option in options):
        lines.append("* instant Masterpiece: one card played (R7)")
    if any(option.gifts for option in options):
        lines.append("1:? a card owed to player 1, chosen when the option is played (R5)")
    return lines


def describe_constraints(constraints: Constraints) -> str:
    """The constraints in words.

    >>> describe_constraints(Constraints(max_gifts=1, min_points=2))
    'at most 1 gift; at least 2 points'
    """
    parts = []
    if constraints.keep:
        parts.append(f"keep {format_cards(constraints.keep)}")
    if constraints.no_cite:
        parts.append("not citing player " + ", ".join(map(str, sorted(constraints.no_cite))))
    if constraints.max_gifts is not None:
        parts.append(f"at most {plural(constraints.max_gifts, 'gift')}")
    if constraints.min_points is not None:
        parts.append(f"at least {plural(constraints.min_points, 'point')}")
    return "; ".join(parts)
