"""Answer "what can I publish?" with either engine: options, Pareto fronts, optima.

Two engines give the same answers: ``"fast"`` (an exact enumerator, the
default) and ``"cpsat"`` (an OR-Tools CP-SAT model, loaded only when used).
:func:`solve` runs a whole query and returns a :class:`PublishReport`, whose
:meth:`~PublishReport.to_dict` is the JSON contract for frontends.

>>> from pastiche_core.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> report = solve(pos)
>>> len(report.options), report.pareto["kind-5"]
(5, ((2, 2),))
>>> str(best(pos, "kind-3"))
'kind-3: MYS7 cite m1 m2 gifts 1x1'
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from . import solver_fast
from .options import Constraints, PublishOption, check_option, sorted_options
from .position import Position

__all__ = [
    "ENGINES",
    "PUBLISHES_FORMAT",
    "PUBLISHES_VERSION",
    "PublishReport",
    "best",
    "is_publishable",
    "solve",
]

ENGINES = ("fast", "cpsat")
PUBLISHES_FORMAT = "pastiche-publishes"
PUBLISHES_VERSION = 1


@dataclass(frozen=True, slots=True)
class PublishReport:
    """The answer to one query: every option, the Pareto fronts, and completeness.

    ``complete`` is ``False`` only when a CP-SAT time limit cut the search short;
    the options and fronts found so far are still reported.
    """

    position: Position
    engine: str
    options: tuple[PublishOption, ...]
    pareto: MappingProxyType[str, tuple[tuple[int, int], ...]]
    complete: bool

    def __repr__(self) -> str:
        state = "complete" if self.complete else "INCOMPLETE"
        return (
            f"<PublishReport {self.engine}: {len(self.options)} options over "
            f"{len(self.pareto)} novels, {state}>"
        )

    def _repr_html_(self) -> str:
        """The options as a table of coloured cards, Pareto-optimal ones starred (Jupyter)."""
        from .render import options_html

        return options_html(self)

    def __rich__(self) -> Any:
        """The options coloured by genre in a rich console."""
        from .render import rich_text

        return rich_text(self)

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON output (``pastiche publishes --json``).

        >>> from pastiche_core.position import Position
        >>> data = solve(Position.quick("SCI7 HOR7 MYS7")).to_dict()
        >>> data["options"][0]["novel"], data["pareto"]
        ('kind-3', {'kind-3': [[3, 0]]})
        """
        return {
            "format": PUBLISHES_FORMAT,
            "version": PUBLISHES_VERSION,
            "player": self.position.player,
            "engine": self.engine,
            "complete": self.complete,
            "options": [option.to_dict() for option in self.options],
            "pareto": {
                novel: [list(point) for point in front] for novel, front in self.pareto.items()
            },
        }


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")


def solve(
    position: Position,
    *,
    engine: str = "fast",
    constraints: Constraints | None = None,
    card_level: bool = False,
    time_limit: float = 10.0,
) -> PublishReport:
    """Every publish option of ``position`` and the Pareto front of each Novel (R8, R9).

    ``card_level=True`` lists every choice of physical hand cards (fast engine
    only; CP-SAT works on ranks). ``time_limit`` bounds each CP-SAT solve.

    >>> from pastiche_core.position import Position
    >>> solve(Position.quick("SCI7 HOR7 MYS7"), engine="nope")
    Traceback (most recent call last):
    ...
    ValueError: unknown engine 'nope': expected one of fast, cpsat
    """
    _check_engine(engine)
    if engine == "fast":
        found = solver_fast.options(position, constraints, card_level=card_level)
        fronts = solver_fast.pareto(position, constraints)
        complete = True
    else:
        if card_level:
            raise ValueError("card-level enumeration is offered by the fast engine only")
        from . import solver_cpsat

        listed = solver_cpsat.options(position, constraints, time_limit=time_limit)
        fronted = solver_cpsat.pareto(position, constraints, time_limit=time_limit)
        found, fronts = listed.value, fronted.value
        complete = listed.complete and fronted.complete
    return PublishReport(
        position=position,
        engine=engine,
        options=tuple(sorted_options(found, position)),
        pareto=MappingProxyType({novel: tuple(front) for novel, front in fronts.items()}),
        complete=complete,
    )


def best(
    position: Position,
    novel: str,
    *,
    order: tuple[str, str] = ("played", "gifts"),
    engine: str = "fast",
    constraints: Constraints | None = None,
    time_limit: float = 10.0,
) -> PublishOption | None:
    """The lexicographic optimum for ``novel`` (R9), ``None`` if it cannot be published.

    >>> from pastiche_core.position import Position
    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> str(best(pos, "kind-3", order=("gifts", "played")))
    'kind-3: MYS7 FAN7 cite m1'
    """
    _check_engine(engine)
    if engine == "fast":
        return solver_fast.optimum(position, novel, order, constraints)
    from . import solver_cpsat

    result = solver_cpsat.optimum(position, novel, order, constraints, time_limit=time_limit)
    return result.value


def is_publishable(
    position: Position, option: PublishOption, constraints: Constraints | None = None
) -> bool:
    """Whether ``option`` is legal here, checked directly without enumerating.

    >>> from pastiche_core.position import Position
    >>> pos = Position.quick("SCI7 HOR7 MYS7")
    >>> is_publishable(pos, solve(pos).options[0])
    True
    """
    return check_option(position, option, constraints) is None
