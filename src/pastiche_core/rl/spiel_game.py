"""The ``python_pastiche`` game: its OpenSpiel type, parameters and registration.

See :mod:`pastiche_core.rl.spiel` for the game as a whole.

>>> register()
>>> pyspiel.load_game("python_pastiche(players=3)").num_players()
3
"""

from __future__ import annotations

from typing import Any

import pyspiel

from ..data.cards import DECK
from ..data.catalogue import Catalogue, load_catalogue
from ..data.errors import InvalidArgumentError, InvalidRulesError
from ..engine.game import check_deal
from ..engine.rules import SEAT_ROOM, Rules, rules_of
from .encoding import ActionSpace
from .observation import ObservationEncoder
from .spiel_infostate import InfoStateObserver
from .spiel_state import PasticheObserver, PasticheState, deal_steps

__all__ = ["GAME_TYPE", "PasticheGame", "max_game_length", "register"]

_CARDS = len(DECK)

GAME_TYPE = pyspiel.GameType(
    short_name="python_pastiche",
    long_name="Python Pastiche: The Birth of a Masterpiece",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=SEAT_ROOM[1],
    min_num_players=SEAT_ROOM[0],
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    # The rules' parameters: 0 or "" is the catalogue's (R10, R12); OpenSpiel fills in every
    # default before the game sees them, so an unset one cannot be told apart otherwise.
    parameter_specification={
        "players": 4,
        "catalogue": "default",
        "end_threshold": 0,
        "keep_size": 0,
        "deal_sizes": "",
        # Cards a deal's chance node deals: 1, or 2 (an unordered pair, spiel_state.pair_action).
        # Both deals are exact; pairs take half the deal's nodes but were measured slower, as
        # OpenSpiel lists up to 1,176 outcomes at each of them.
        "deal_cards_per_chance": 1,
    },
)
"""The OpenSpiel game type of ``python_pastiche``."""


def max_game_length(players: int, catalogue: Catalogue, rules: Rules | None = None) -> int:
    """A bound on the actions of any game, chance nodes included (OpenSpiel needs one).

    After setup, cards in hands, on the table and under the End Flag never
    leave them, and each Write adds one: at most 49 Writes (each a draw and a
    choice, two chance nodes). Each publish takes a Novel from the supply (at
    most ``P`` publishes) and puts at most ``C`` cards on the table (the largest
    requirement), so at most ``P·C`` Reads; a publish is at most ``2C + 2``
    actions (Novel, cards, confirm, gifts). Passes come only when no Write and
    no Read is possible; once the deck and the discard pile are empty they stay
    empty, so between two other actions there are fewer than ``n`` passes.
    The deal and the setup keeps are those of ``rules`` (default the
    catalogue's, R10).

    >>> max_game_length(4, Catalogue.default())
    2960
    >>> max_game_length(4, Catalogue.default(), Rules(keep_size=2, deal_sizes=(5, 5, 5, 5, 5)))
    2976
    """
    rules = rules_of(catalogue, rules)
    deals = rules.deal_sizes[:players]
    keep = rules.keep_size
    publishes = sum(spec.copies for spec in catalogue.publishable)
    sizes = [spec.pattern.size for spec in catalogue.publishable if spec.pattern is not None]
    largest = _CARDS if any(size is None for size in sizes) else max(s or 0 for s in sizes)
    reads = publishes * largest
    keeps = sum(size - keep for size in deals if size > keep)
    writes = 2 * _CARDS
    publish_actions = publishes * (2 * largest + 2)
    passes = players * (publishes + reads + 2)
    chance = sum(deals) + 2 * _CARDS
    return keeps + writes + publish_actions + reads + passes + 1 + chance


def _catalogue(name: str) -> Catalogue:
    return load_catalogue(name)


def _rules(values: dict[str, Any], catalogue: Catalogue) -> Rules:
    """The rules of the game's parameters: each one set (not 0 or "") replaces the
    catalogue's; a ``deal_sizes`` of fewer seats than its ``max_players`` seats fewer
    (R10). Bad values raise :class:`~pastiche_core.data.errors.InvalidArgumentError`."""
    base = rules_of(catalogue)
    fields: dict[str, Any] = base.to_dict()
    for name in ("end_threshold", "keep_size"):
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
        if value:
            fields[name] = value
    text = values["deal_sizes"]
    if not isinstance(text, str):
        raise InvalidArgumentError(
            f"deal_sizes must be a string of integers such as '4 4 4' (R10), got {text!r}"
        )
    words = text.replace(",", " ").split()
    if words:
        if not all(word.isdigit() and len(word) <= 4 for word in words):
            raise InvalidArgumentError(
                f"deal_sizes must be integers apart by spaces, such as '4 4 4' (R10), "
                f"got {text[:40]!r}"
            )
        deals = [int(word) for word in words]
        fields["deal_sizes"] = deals
        if len(deals) < base.max_players:
            fields["max_players"] = len(deals)
            fields["min_players"] = min(base.min_players, len(deals))
    try:
        return Rules.from_dict(fields, "python_pastiche")
    except InvalidRulesError as error:
        raise InvalidArgumentError(str(error)) from None


class PasticheGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_pastiche`` game: parameters ``players`` (3–5), ``catalogue``, the
    rules (``end_threshold``, ``keep_size``, ``deal_sizes``; see the module) and
    ``deal_cards_per_chance`` (1, or 2 for an unordered pair per chance node of the deal).

    The game's parameters, as :meth:`get_parameters` gives them and a game string
    names them, hold the rules played by, so a saved game string loads the same game.

    >>> import pyspiel
    >>> register()
    >>> game = pyspiel.load_game("python_pastiche", {"players": 5})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (5, 357, 49)
    >>> house = pyspiel.load_game("python_pastiche(players=3,end_threshold=10,deal_sizes=4 4 4)")
    >>> house.rules
    Rules(min_players=3, max_players=3, deal_sizes=(4, 4, 4), keep_size=3, end_threshold=10)
    >>> sorted(house.get_parameters().items())[:3]
    [('catalogue', 'default'), ('deal_cards_per_chance', 1), ('deal_sizes', '4 4 4')]
    >>> pyspiel.load_game("python_pastiche(deal_cards_per_chance=2)").max_chance_outcomes()
    1176
    >>> pyspiel.load_game("python_pastiche(players=4,deal_sizes=4 4 4)")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: players must be from 3 to 3 (R10), got 4
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = dict(GAME_TYPE.parameter_specification)
        values.update(params or {})
        players = values["players"]
        catalogue = _catalogue(str(values["catalogue"]))
        rules = _rules(values, catalogue)
        check_deal(players, 0, rules, error=InvalidArgumentError)
        per_chance = values["deal_cards_per_chance"]
        if per_chance not in (1, 2) or isinstance(per_chance, bool):
            raise InvalidArgumentError(
                f"deal_cards_per_chance must be 1 or 2 (R10), got {per_chance!r}"
            )
        self.catalogue = catalogue
        """The catalogue named by the ``catalogue`` parameter (a shipped catalogue or a TOML
        file)."""
        self.rules = rules
        """The rules every game is played by (R10, R12): the rules' parameters, else the
        catalogue's ``[rules]`` table, else the rulebook's."""
        self.players: int = players  # checked by check_deal
        """The number of players, 3 to 5 (R10), from the ``players`` parameter."""
        self.space = ActionSpace(catalogue)
        """The atomic action layout: OpenSpiel's distinct actions."""
        self.deal_cards_per_chance: int = per_chance
        """Cards dealt per chance node of the deal: 2 (a pair) or 1, from the parameter."""
        self.deal_steps = (*deal_steps(rules.deal_sizes[:players], per_chance), 0)
        """How many cards the chance node after ``k`` cards deals (:func:`.deal_steps`)."""
        self.encoder = ObservationEncoder(players, catalogue)
        """The layout of every player's observation tensor."""
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=_CARDS * (_CARDS - 1) // 2 if per_chance == 2 else _CARDS,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(players, catalogue, rules),
        )
        played = {
            "players": players,
            "catalogue": values["catalogue"],
            "end_threshold": rules.end_threshold,
            "keep_size": rules.keep_size,
            "deal_sizes": " ".join(str(size) for size in rules.deal_sizes),
            "deal_cards_per_chance": per_chance,
        }
        super().__init__(GAME_TYPE, info, played)

    def new_initial_state(self) -> PasticheState:
        """A new game at its first chance node (the first card dealt)."""
        return PasticheState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PasticheObserver | InfoStateObserver:
        """The observer of one player's view, with perfect recall if ``iig_obs_type`` asks."""
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise InvalidArgumentError(
                "python_pastiche observes one player's view only: public information plus "
                "the player's own cards"
            )
        if params:
            raise InvalidArgumentError(
                f"python_pastiche observers take no parameters, got {params}"
            )
        if perfect:
            return InfoStateObserver(self.encoder, self.space)
        return PasticheObserver(self.encoder)


def register() -> None:
    """Register ``python_pastiche`` with OpenSpiel (again is harmless).

    >>> register(); "python_pastiche" in pyspiel.registered_names()
    True
    """
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, PasticheGame)
