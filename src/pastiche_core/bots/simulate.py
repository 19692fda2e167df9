"""Many random games at once: who wins, by how much, and how games end.

:func:`simulate` plays ``games`` games between :class:`~pastiche_core.bots.play.RandomBot`
players; game ``i`` is dealt from ``derive_seed(seed, "game", i)``, so one seed
reproduces the whole run. The :class:`SimulationSummary` it returns is plain
data: :meth:`SimulationSummary.to_dict` is deterministic (no timings, no dates)
and :meth:`SimulationSummary.format` is a readable table.

>>> summary = simulate(players=3, games=2, seed=1)
>>> summary.games, sum(summary.endings.values())
(2, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..data.catalogue import Catalogue
from ..data.errors import PasticheError
from ..engine.game import check_deal
from ..engine.rules import Rules, rules_of
from .play import derive_seed, random_game

__all__ = ["ENDINGS", "SimulationSummary", "game_seed", "simulate"]

ENDINGS = ("countdown", "all-pass")
"""The ways a game ends (R11, R12), in the order summaries list them."""

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each game."""


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """The outcome of :func:`simulate`: averages per game and win counts per seat.

    ``wins_by_seat`` counts a shared win (R13) once for each winner, so its sum
    is ``games`` plus the extra winners of the ``shared_games``. ``endings``
    counts games per ending (``'countdown'``, ``'all-pass'``).

    >>> s = simulate(players=3, games=2, seed=5)
    >>> sum(s.wins_by_seat) >= s.games, len(s.mean_scores)
    (True, 3)
    """

    players: int
    """The number of seats in every game, 3 to 5 (R10)."""
    games: int
    """The number of games played, at least 1."""
    seed: int
    """The seed of the run: game ``i`` is dealt from :func:`game_seed` ``(seed, i)`` (R14)."""
    catalogue: str
    """The name of the catalogue the games were played with."""
    mean_turns: float
    """Turns per game on average, setup excluded: each Write, Read, Publish or Pass is one turn
    (R11)."""
    mean_decisions: float
    """Decisions per game on average: every move of the game's history, setup keeps, the choice
    after a draw and the End Flag's card included."""
    mean_scores: tuple[float, ...]
    """Each seat's final points on average, Masterpieces plus the End Flag (R13), by seat."""
    mean_masterpieces: tuple[float, ...]
    """Each seat's number of Masterpieces at the end on average, by seat."""
    wins_by_seat: tuple[int, ...]
    """Games won by each seat, by seat; a shared win (R13) counts once for each winner."""
    shared_games: int
    """The number of games that ended in a shared win (R13)."""
    endings: dict[str, int] = field(hash=False)
    """Games per ending: ``'countdown'`` (R12) and ``'all-pass'`` (R11), both always present
    (:data:`ENDINGS`)."""
    max_turns: int
    """The most turns one game took."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the same run always gives the same dict.

        >>> d = simulate(players=3, games=1, seed=2).to_dict()
        >>> sorted(d)  # doctest: +NORMALIZE_WHITESPACE
        ['catalogue', 'endings', 'games', 'max_turns', 'mean_decisions', 'mean_masterpieces',
         'mean_scores', 'mean_turns', 'players', 'seed', 'shared_games', 'win_rates',
         'wins_by_seat']
        """
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "catalogue": self.catalogue,
            "mean_turns": self.mean_turns,
            "mean_decisions": self.mean_decisions,
            "max_turns": self.max_turns,
            "mean_scores": list(self.mean_scores),
            "mean_masterpieces": list(self.mean_masterpieces),
            "wins_by_seat": list(self.wins_by_seat),
            "win_rates": list(self.win_rates),
            "shared_games": self.shared_games,
            "endings": {ending: self.endings.get(ending, 0) for ending in ENDINGS},
        }

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Wins per game for each seat (shared wins count for every winner).

        >>> rates = simulate(players=3, games=2, seed=2).win_rates
        >>> len(rates), sum(rates) >= 1.0, all(0.0 <= r <= 1.0 for r in rates)
        (3, True, True)
        """
        return tuple(wins / self.games for wins in self.wins_by_seat)

    def format(self) -> str:
        """A plain-text table: one row per seat, then the game averages and endings.

        >>> print(simulate(players=3, games=2, seed=1).format())  # doctest: +ELLIPSIS
        2 games, 3 players, seed 1, catalogue 'default'
        seat   wins   win %   mean score   mean masterpieces
           0 ...
        """
        lines = [
            f"{self.games} games, {self.players} players, seed {self.seed}, "
            f"catalogue {self.catalogue!r}",
            f"{'seat':>4}  {'wins':>5}  {'win %':>6}  {'mean score':>11}  "
            f"{'mean masterpieces':>18}",
        ]
        for seat in range(self.players):
            lines.append(
                f"{seat:>4}  {self.wins_by_seat[seat]:>5}  {100 * self.win_rates[seat]:>6.1f}  "
                f"{self.mean_scores[seat]:>11.2f}  {self.mean_masterpieces[seat]:>18.2f}"
            )
        endings = ", ".join(f"{ending} {self.endings.get(ending, 0)}" for ending in ENDINGS)
        lines += [
            f"shared wins: {self.shared_games} of {self.games} games",
            f"turns per game: mean {self.mean_turns:.1f}, max {self.max_turns}; "
            f"decisions per game: mean {self.mean_decisions:.1f}",
            f"endings: {endings}",
        ]
        return "\n".join(lines)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run of :func:`simulate` with ``seed``.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    return derive_seed(seed, "game", index)


def simulate(
    players: int,
    games: int,
    seed: int,
    catalogue: Catalogue | None = None,
    progress: ProgressCallback | None = None,
    *,
    rules: Rules | None = None,
) -> SimulationSummary:
    """Play ``games`` random games of ``players`` seats and summarise them.

    Game ``i`` uses :func:`game_seed` ``(seed, i)`` and the default bots of
    :func:`~pastiche_core.bots.play.play_game`, played by
    :func:`~pastiche_core.bots.play.random_game` (the compiled game kernel when it is
    built). ``progress(done, games)`` is called after each game. ``rules`` are
    house rules (:class:`~pastiche_core.engine.rules.Rules`; by default the catalogue's,
    else the rulebook's).

    >>> a = simulate(players=4, games=2, seed=9)
    >>> a == simulate(players=4, games=2, seed=9), a.endings["countdown"] + a.endings["all-pass"]
    (True, 2)
    >>> simulate(players=7, games=1, seed=0)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: players must be from 3 to 5 (R10), got 7
    """
    cat = catalogue if catalogue is not None else Catalogue.default()
    check_deal(players, seed, rules_of(cat, rules))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise PasticheError(f"games must be a positive integer, got {games!r}")
    turns = decisions = max_turns = shared = 0
    scores = [0] * players
    masterpieces = [0] * players
    wins = [0] * players
    endings = dict.fromkeys(ENDINGS, 0)
    for index in range(games):
        result = random_game(players, game_seed(seed, index), cat, rules=rules)
        turns += result.turns
        max_turns = max(max_turns, result.turns)
        decisions += result.decisions
        for seat in range(players):
            scores[seat] += result.scores[seat]
            masterpieces[seat] += result.masterpieces[seat]
        for winner in result.winners:
            wins[winner] += 1
        if len(result.winners) > 1:
            shared += 1
        endings[result.reason] = endings.get(result.reason, 0) + 1
        if progress is not None:
            progress(index + 1, games)
    return SimulationSummary(
        players=players,
        games=games,
        seed=seed,
        catalogue=cat.name,
        mean_turns=turns / games,
        mean_decisions=decisions / games,
        mean_scores=tuple(total / games for total in scores),
        mean_masterpieces=tuple(total / games for total in masterpieces),
        wins_by_seat=tuple(wins),
        shared_games=shared,
        endings=endings,
        max_turns=max_turns,
    )
