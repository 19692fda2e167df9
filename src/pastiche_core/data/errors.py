"""The exceptions of pastiche_core.

Every error a user can cause is a subclass of :class:`PasticheError`, itself a
:class:`ValueError`, so ``except ValueError`` catches them all. Messages name the
offending input and, where one applies, the ruling (R1–R16) it breaks.

>>> issubclass(IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidCatalogueError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidViewError",
    "PasticheError",
    "SearchLimitError",
    "missing_extra",
]


class PasticheError(ValueError):
    """Base class of every error raised for bad input.

    >>> raise PasticheError("example")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.PasticheError: example
    """


class InvalidNotationError(PasticheError):
    """A card, move or record string that does not parse (R1).

    >>> from pastiche_core import Card
    >>> Card.parse("LOV1")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidNotationError: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)
    """


class InvalidCatalogueError(PasticheError):
    """A Novel catalogue that breaks R2/R3; the message names the entry.

    >>> from pastiche_core import Catalogue
    >>> Catalogue.from_dict({"novels": [{"id": "x", "points": 1}]})
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidCatalogueError: novels[0] ('x'): missing field 'name'
    """


class InvalidStateError(PasticheError):
    """A game state or position that cannot occur; the message names the JSON path."""


class InvalidViewError(InvalidStateError):
    """A player's view that no game could show; the message starts with its JSON path (R16).

    A view comes from outside (a file, a request) and is read by
    :func:`~pastiche_core.io.view_json.view_from_dict`, which checks it as far
    as one seat's side allows before anything plays from it.

    >>> from pastiche_core import Game, view_from_dict, view_to_dict
    >>> data = view_to_dict(Game(players=3, seed=7).view(2))
    >>> data["to_move"] = 0
    >>> view_from_dict(data)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidViewError: $.to_move: setup keeps are made from seat 2 on (R10), got 0
    """


class IllegalMoveError(PasticheError):
    """A move that the rules forbid in the current state; the state is left unchanged.

    The message names the move and the ruling it breaks.
    """


class InvalidArgumentError(PasticheError):
    """An argument of a library call that is out of its range (a limit, an engine, a goal).

    >>> from pastiche_core import Position, solve
    >>> solve(Position.quick("SCI9"), engine="nope")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: unknown engine 'nope': expected one of fast, cpsat
    """


class InvalidRulesError(PasticheError):
    """House rules that no game can be played by; the message names the field and the
    ruling (R10, R12) it bends too far.

    >>> from pastiche_core import Rules
    >>> Rules(keep_size=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidRulesError: keep_size must be an integer from 1 to 10 (R10), got 0
    """


class SearchLimitError(PasticheError):
    """A low-level search that reached its time or output limit before its exact answer.

    The bounded entry points (:func:`~pastiche_core.solver.queries.solve`,
    :func:`~pastiche_core.solver.queries.best`) never raise it: they return what they
    found with ``complete=False``. ``stopped_by`` names the limit
    (``"time_limit"`` or ``"max_options"``).
    """

    def __init__(self, message: str, stopped_by: str) -> None:
        super().__init__(message)
        self.stopped_by = stopped_by


def missing_extra(face: str, error: ModuleNotFoundError, extra: str = "rl") -> ModuleNotFoundError:
    """The error an optional face raises when a package of its extra is missing.

    It names the face, the missing package and the install command, and keeps
    the package's name for ``except ModuleNotFoundError`` handlers.

    >>> error = missing_extra("pastiche_core.gymnasium", ModuleNotFoundError(name="gymnasium"))
    >>> str(error), error.name
    ("pastiche_core.gymnasium needs gymnasium: install the rl extra, pip install 'pastiche-core[rl]'", 'gymnasium')
    """
    return ModuleNotFoundError(
        f"{face} needs {error.name}: install the {extra} extra, "
        f"pip install 'pastiche-core[{extra}]'",
        name=error.name,
    )
