"""Pastiche as an OpenSpiel game, ``python_pastiche``, with explicit chance nodes.

:func:`register` (run when :mod:`pastiche_core.openspiel` is imported) makes
``pyspiel.load_game("python_pastiche(players=4)")`` work; the ``catalogue``
parameter names a shipped catalogue or a TOML file
(``python_pastiche(players=3,catalogue=default)``). House rules (R10, R12) are
parameters too: ``end_threshold``, ``keep_size`` and ``deal_sizes`` (the seats'
deals as one string, ``"4 4 4"``), each left at ``0`` or ``""`` for the
catalogue's ``[rules]`` table, else the rulebook's
(``python_pastiche(players=3,end_threshold=10)``); the deal's chance nodes and
the setup keeps follow them.

* **Sequential, imperfect information, zero-sum**, terminal rewards as in
  :func:`~pastiche_core.rl.aec.winner_returns`.
* **Actions** are the atomic actions of
  :class:`~pastiche_core.rl.encoding.ActionSpace`: a decision may take several
  actions of the same player in a row.
* **Chance is explicit.** The deal is one chance node per card dealt (the
  outcome is the card, ``0`` to ``48``, uniform over the cards not dealt yet),
  seat by seat (R10). The deck is then an unordered set of unseen cards: each
  card drawn by Write ① is a chance node, uniform over the deck's cards, or
  over the discard pile's when the deck is empty — which is the reshuffle of
  R11, mid-draw if need be. Dealing card by card and drawing uniformly from
  what is left give exactly the distribution of a shuffled deck, and the game
  tree then shows every random event where it happens. The game's own
  generator (R14) is never used.
* **Observations** are :class:`~pastiche_core.rl.observation.ObservationEncoder`
  tensors and texts of the view (:mod:`.spiel_infostate` adds perfect recall).
* :meth:`PasticheState.resample_from_infostate` deals anew, at random, the
  cards the player has never seen (R16: other hands, the deck, other players'
  face-down discards and drawn cards), so OpenSpiel's ISMCTS bot can search.
  Every card the player has seen stays where it is — a card taken face up
  from the discard pile stays in the taker's hand — and the history is
  renamed with the cards (:meth:`~pastiche_core.engine.game.Game.renamed`), so the
  sampled state is a whole game the player cannot tell from this one. (A seen
  card that a later hidden move may have moved — a gift between two other
  players, a draw after the pile was reshuffled into the deck — also stays:
  there the sample knows a little more than the player.)
* :data:`GAME_TYPE` ``max_game_length`` is a true bound (see :func:`max_game_length`).

>>> import pyspiel
>>> from pastiche_core.rl.spiel import register
>>> register()
>>> game = pyspiel.load_game("python_pastiche(players=3)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 49)
>>> for card in (0, 1, 2, 10, 11, 12, 20, 21, 22, 23):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(2, ['discard SCI9', 'discard HOR4', 'discard HOR5', 'discard HOR6'])
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python import rl_environment

from ..ai.playout import WIN_TEMPERATURE, expected_scores
from ..data.cards import DECK, Card, format_cards
from ..data.catalogue import Catalogue, load_catalogue
from ..data.errors import InvalidArgumentError, InvalidRulesError
from ..engine.game import Game, check_deal
from ..engine.game_internals import insides, renamed, stack_deck
from ..engine.knowledge import Knowledge
from ..engine.moves import Draw, Move
from ..engine.rules import SEAT_ROOM, Rules, rules_of, setup_discarders
from ..engine.view import PlayerView
from ..io.state_json import state_from_dict, state_to_dict
from .aec import winner_returns
from .encoding import ActionSpace, MoveBuilder
from .observation import ObservationEncoder
from .spiel_infostate import InfoStateObserver, Recall

__all__ = [
    "GAME_TYPE",
    "HeuristicEvaluator",
    "PasticheEnvironment",
    "PasticheGame",
    "PasticheObserver",
    "PasticheState",
    "ScoreEvaluator",
    "max_game_length",
    "register",
]

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
    """The ``python_pastiche`` game: parameters ``players`` (3–5), ``catalogue`` and the
    rules (``end_threshold``, ``keep_size``, ``deal_sizes``; see the module).

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
    [('catalogue', 'default'), ('deal_sizes', '4 4 4'), ('end_threshold', 10)]
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
        self.encoder = ObservationEncoder(players, catalogue)
        """The layout of every player's observation tensor."""
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=_CARDS,
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


class _Core:
    """Everything a state holds; copying it is what cloning a state costs.

    ``texts`` and ``tensors`` hold each player's observation once it is made:
    a search asks for the same one several times per visit (OpenSpiel's node
    lookup makes its key twice), and OpenSpiel's binding fills a tensor twice
    per call. Every action clears them.
    """

    __slots__ = (
        "builder",
        "dealt",
        "drawn",
        "game",
        "knowledge",
        "partial",
        "recall",
        "spec",
        "tensors",
        "texts",
    )

    def __init__(self, spec: PasticheGame) -> None:
        self.spec = spec  # shared by every copy
        self.dealt: list[int] = []  # the cards dealt so far, in dealing order
        self.game: Game | None = None  # once the deal is complete
        self.drawn: list[int] | None = None  # the cards of a Write ① being drawn
        self.builder: MoveBuilder | None = None
        self.partial: list[int] = []  # the atomic actions of the decision in progress
        self.knowledge: list[Knowledge] = []  # what each player has seen (R16)
        self.recall: Recall | None = None  # and done, in order: information states
        self.texts: dict[int, str] = {}  # observation strings made since the last action
        self.tensors: dict[int, npt.NDArray[np.float32]] = {}  # never written once cached

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        twin = _Core(self.spec)
        twin.dealt = self.dealt.copy()
        twin.game = None if self.game is None else self.game.copy()
        twin.drawn = None if self.drawn is None else self.drawn.copy()
        twin.partial = self.partial.copy()
        twin.knowledge = [knowledge.copy() for knowledge in self.knowledge]
        twin.recall = self.recall  # immutable
        twin.texts = self.texts.copy()
        twin.tensors = self.tensors.copy()
        return twin

    def forget_observations(self, keep: int | None = None) -> None:
        """Drop the observations made so far, but ``keep``'s (its view did not change)."""
        texts, tensors = self.texts, self.tensors
        self.texts = {} if keep not in texts else {keep: texts[keep]}
        self.tensors = {} if keep not in tensors else {keep: tensors[keep]}

    def applied(self) -> None:
        """Let every player's knowledge follow the move just applied to the game."""
        assert self.game is not None
        Knowledge.update_all(self.knowledge, self.game)
        if self.recall is not None:
            self.recall = self.recall.seen(self.game, self.knowledge, self.spec.encoder)


class PasticheState(pyspiel.State):  # type: ignore[misc]
    """One ``python_pastiche`` state: the deal, a game, a draw or a decision in progress.

    >>> register()
    >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    >>> state.game is None, state.current_player() == pyspiel.PlayerId.CHANCE
    (True, True)
    """

    def __init__(self, game: PasticheGame) -> None:
        super().__init__(game)
        self._core = _Core(game)

    # ------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The pastiche :class:`~pastiche_core.engine.game.Game`, once the deal is complete."""
        return self._core.game

    def _players(self) -> int:
        return self._core.spec.players

    def _deal_size(self) -> int:
        return sum(self._core.spec.rules.deal_sizes[: self._players()])

    def builder(self) -> MoveBuilder:
        """The decision in progress of the player to move.

        Its view leaves the public history empty (``game.view(seat, history=False)``):
        neither the legal actions nor the observations read it.
        """
        core = self._core
        game = core.game
        if game is None or core.drawn is not None or game.is_over:
            raise InvalidArgumentError("no player is to move in this state")
        if core.builder is None:
            core.builder = MoveBuilder(core.spec.space, game.view(game.to_move, history=False))
            for action in core.partial:
                core.builder.push(action)
        return core.builder

    def current_player(self) -> int:
        """The player to move, or ``CHANCE`` during the deal and draws, or ``TERMINAL``."""
        core = self._core
        game = core.game
        if game is None or core.drawn is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return game.to_move

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        game = self._core.game
        return game is not None and game.is_over

    def returns(self) -> list[float]:
        """Zero-sum returns at the end (:func:`~pastiche_core.rl.aec.winner_returns`), else zeros."""
        game = self._core.game
        if game is None or not game.is_over:
            return [0.0] * self._players()
        return winner_returns(game.players, game.winners())

    def _legal_actions(self, player: int) -> list[int]:
        return self.builder().legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next, each equally likely."""
        cards = self._chance_cards()
        if not cards:
            return []
        p = 1.0 / len(cards)
        return [(card, p) for card in cards]

    def _chance_cards(self) -> list[int]:
        core = self._core
        game = core.game
        if game is None:
            dealt = set(core.dealt)
            return [index for index in range(_CARDS) if index not in dealt]
        if core.drawn is None:
            return []
        drawn = set(core.drawn)
        deck = sorted(card.index for card in insides(game).deck if card.index not in drawn)
        if deck:
            return deck
        return sorted(card.index for card in game.discard if card.index not in drawn)

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.texts or core.tensors:
            core.forget_observations()
        if core.game is None:
            core.dealt.append(int(action))
            if len(core.dealt) == self._deal_size():
                core.game = game = self._dealt_game()
                core.knowledge = [Knowledge.of(game, seat) for seat in range(game.players)]
                core.recall = Recall.start(game, core.knowledge, core.spec.encoder)
            return
        if core.drawn is not None:
            core.drawn.append(int(action))
            game = core.game
            if len(core.drawn) == min(2, game.deck_size + len(game.discard)):
                self._finish_draw()
            return
        if core.recall is not None:
            core.recall = core.recall.acted(core.game.to_move, int(action), core.spec.space)
        move = self.builder().push(int(action))
        if move is None:
            core.partial.append(int(action))
            return
        core.builder = None
        core.partial = []
        if isinstance(move, Draw):
            core.drawn = []  # the cards drawn are chance nodes
            return
        core.game.apply(move)
        core.applied()

    def _dealt_game(self) -> Game:
        """The game after the deal: hands as dealt, the deck the cards left (order unused)."""
        players = self._players()
        spec = self._core.spec
        deals = spec.rules.deal_sizes  # R10: the game's own deal
        template = state_to_dict(
            Game(players=players, seed=0, catalogue=spec.catalogue, rules=spec.rules)
        )
        cards = [DECK[index] for index in self._core.dealt]
        hands: list[list[str]] = []
        start = 0
        for seat in range(players):
            size = deals[seat]
            hands.append([str(card) for card in sorted(cards[start : start + size])])
            start += size
        dealt = set(self._core.dealt)
        template["hands"] = hands
        template["deck"] = [str(card) for card in DECK if card.index not in dealt]
        return state_from_dict(template, catalogue=spec.catalogue)

    def _finish_draw(self) -> None:
        """Apply Write ① with the cards chance chose, in the order they were drawn."""
        core = self._core
        game = core.game
        assert game is not None
        assert core.drawn is not None
        inside = insides(game)
        drawn = [DECK[index] for index in core.drawn]
        core.drawn = None
        # The deck's cards first, then the discard pile's after a reshuffle (R11), as
        # chance drew them (_chance_cards).
        stack_deck(game, drawn)
        player = game.to_move
        game.apply(Draw())
        core.applied()
        if inside.pending is not None:
            got = list(inside.pending)
        else:
            got = [card for card in drawn if card in game.hand(player)]
        if got != drawn:  # pragma: no cover - the engine's draw order changed
            raise AssertionError(f"the engine drew {got}, chance chose {drawn}")

    # ------------------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            verb = "deal" if self._core.game is None else "draw"
            return f"{verb} {DECK[action]}"
        return self._core.spec.space.describe(action)

    def __str__(self) -> str:
        core = self._core
        game = core.game
        if game is None:
            return f"dealing: {format_cards([DECK[i] for i in core.dealt], sort=False) or '-'}"
        text = str(game)
        if core.drawn is not None:
            text += f"\ndrawing: {format_cards([DECK[i] for i in core.drawn], sort=False) or '-'}"
        elif core.partial:
            text += f"\nbuilding: {self.builder()!r}"
        return text

    # ------------------------------------------------------------------
    def view_builder(
        self, player: int, *, history: bool = True
    ) -> tuple[PlayerView | None, MoveBuilder | None]:
        """The view of ``player`` and, if they are to move, their decision in progress.

        ``history=False`` leaves the view's public history empty (the observations
        do not read it: the player's :class:`~pastiche_core.engine.knowledge.Knowledge`
        carries what it taught them).

        >>> register()
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> for card in range(10):
        ...     state.apply_action(card)
        >>> view, builder = state.view_builder(2, history=False)
        >>> view.history, builder is not None, state.view_builder(0)[1]
        ((), True, None)
        """
        game = self._core.game
        if game is None:
            return None, None
        if self.current_player() != player:
            return game.view(player, history=history), None
        builder = self.builder()
        # The decision's own view has no history: it serves when none is asked for.
        return (game.view(player) if history else builder.view), builder

    def observation_array(self, player: int) -> npt.NDArray[np.float32]:
        """``player``'s observation tensor as a read-only array, made once per state and player.

        The same numbers as ``observation_tensor(player)`` without OpenSpiel's
        copies (into C++, then into a list of floats); zeros while dealing.

        >>> register()
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> for card in range(10):
        ...     state.apply_action(card)
        >>> array = state.observation_array(2)
        >>> array.tolist() == state.observation_tensor(2), array.flags.writeable
        (True, False)
        """
        core = self._core
        made = core.tensors.get(player)
        if made is not None:
            return made
        players = core.spec.players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            raise InvalidArgumentError(
                f"player must be a seat from 0 to {players - 1}, got {player!r}"
            )
        encoder = core.spec.encoder
        made = np.zeros(encoder.size, dtype=np.float32)
        view, builder = self.view_builder(player, history=False)
        if view is not None:
            encoder.encode(view, builder, out=made, knowledge=self.knowledge(player))
        made.flags.writeable = False
        core.tensors[player] = made
        return made

    def actions_for(self, move: Move | str) -> list[int]:
        """The atomic actions that play ``move`` for the player to move (from the start).

        >>> register()
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> for card in range(10):
        ...     state.apply_action(card)
        >>> [state.action_to_string(a) for a in state.actions_for("keep LOV2 LOV3 LOV4")]
        ['discard MYT7']
        """
        return self.builder().actions_for(move)

    def resample_from_infostate(self, player: int, sampler: Any) -> PasticheState:
        """A state the player cannot tell from this one, the cards they never saw dealt anew.

        ``sampler`` is called for one number in [0, 1) that seeds the deal. The
        cards in places hidden from ``player`` (other hands, the deck, other
        players' face-down discards, drawn cards they do not choose from) that
        ``player`` has never seen are shuffled among those places; the seen ones
        stay (see the module docstring). The whole game is renamed with them
        (:meth:`~pastiche_core.engine.game.Game.renamed`): history, undo records and
        every player's knowledge. Only states where a player is to move are
        resampled; any other is returned as a copy.

        The sample keeps ``player``'s observation if it was made (it is the same);
        the game and the knowledge are copied once, renamed.
        """
        mine: _Core = self._core
        game = mine.game
        if game is None or mine.drawn is not None or game.is_over:
            return self.clone()  # type: ignore[no-any-return]
        inside = insides(game)
        rng = random.Random(float(sampler()))
        seen = mine.knowledge[player].seen
        hidden: list[Card] = []
        for seat in range(game.players):
            if seat != player:
                hidden.extend(game.hand(seat))
        hidden.extend(inside.deck)
        discarders = setup_discarders(game.players, game.rules)
        for index, card in enumerate(game.discard):
            if inside.is_face_down(card) and not (
                index < len(discarders) and discarders[index] == player
            ):
                hidden.append(card)
        if inside.pending is not None and game.to_move != player:
            hidden.extend(inside.pending)
        unseen = [card for card in hidden if card.index not in seen]
        dealt = unseen.copy()
        rng.shuffle(dealt)
        renaming = {old: new for old, new in zip(unseen, dealt, strict=True) if old != new}
        knowledge = mine.knowledge
        # The clone copies neither the game nor the knowledge: the sample's are made here.
        mine.game, mine.knowledge = None, []
        try:
            state = self.clone()
        finally:
            mine.game, mine.knowledge = game, knowledge
        core: _Core = state._core
        if renaming:
            core.game = renamed(game, renaming)
            core.knowledge = [each.renamed(renaming) for each in knowledge]
            indexes = {old.index: new.index for old, new in renaming.items()}
            core.dealt = [indexes.get(card, card) for card in core.dealt]
            core.forget_observations(keep=player)
        else:
            core.game = game.copy()
            core.knowledge = [each.copy() for each in knowledge]
        core.builder = None
        return state  # type: ignore[no-any-return]

    @property
    def recall(self) -> Recall | None:
        """What each player has seen and done, in order, once the deal is complete.

        >>> register()
        >>> pyspiel.load_game("python_pastiche(players=3)").new_initial_state().recall is None
        True
        """
        return self._core.recall

    def knowledge(self, player: int) -> Knowledge | None:
        """What ``player`` has seen of the cards (R16), once the deal is complete."""
        core = self._core
        return core.knowledge[player] if core.knowledge else None


class PasticheObserver:
    """OpenSpiel's observer for ``python_pastiche``: one player's view, as tensor and text.

    ``tensor`` is the flat :class:`~pastiche_core.rl.observation.ObservationEncoder`
    vector and ``dict`` its fields, each in its shape.

    >>> register()
    >>> game = pyspiel.load_game("python_pastiche(players=3)")
    >>> observer = game.make_py_observer()
    >>> sorted(observer.dict)[:3], observer.tensor.shape
    (['building_cited', 'building_discards', 'building_gifts'], (1541,))
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        """The observation layout."""
        self.tensor: npt.NDArray[np.float32] = np.zeros(encoder.size, dtype=np.float32)
        """The flat observation vector that :meth:`set_from` fills (zeros while dealing)."""
        self.dict: dict[str, npt.NDArray[np.float32]] = encoder.unpack(self.tensor)
        """The fields of :attr:`tensor` by name, each in its shape; views of the tensor, so they
        change with it."""

    def set_from(self, state: PasticheState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state`` (zeros while dealing).

        The observation is made once per state and player, then copied.
        """
        np.copyto(self.tensor, state.observation_array(player))

    def string_from(self, state: PasticheState, player: int) -> str:
        """``player``'s observation of ``state`` as text (made once per state and player)."""
        core = state._core
        text = core.texts.get(player)
        if text is None:
            view, builder = state.view_builder(player, history=False)
            if view is None:
                own = _dealt_to(state, player)
                text = f"player {player}, dealing: hand {format_cards(own) or '-'}"
            else:
                text = self.encoder.text(view, builder, knowledge=state.knowledge(player))
            core.texts[player] = text
        return text


def _dealt_to(state: PasticheState, player: int) -> list[Card]:
    dealt = state._core.dealt
    deals = state._core.spec.rules.deal_sizes
    start = sum(deals[:player])
    return [DECK[i] for i in dealt[start : start + deals[player]]]


class ScoreEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots: the current scores, no rollout.

    :meth:`evaluate` gives each player ``(score - mean) / scale`` clipped to
    [-1, 1] (the final returns at the end); :meth:`prior` is uniform. Cheap, so
    a search of a few dozen simulations per decision plays a game in seconds.

    >>> register()
    >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    >>> ScoreEvaluator().evaluate(state).tolist()
    [0.0, 0.0, 0.0]
    """

    def __init__(self, scale: float = 10.0) -> None:
        if not scale > 0:
            raise InvalidArgumentError(f"scale must be positive, got {scale!r}")
        self.scale = scale
        """The score margin over the mean that counts as 1 (positive); larger margins are
        clipped."""

    def evaluate(self, state: PasticheState) -> npt.NDArray[np.float64]:
        """Per player, the score margin over the mean, scaled into [-1, 1]."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=np.float64)
        game = state.game
        if game is None:
            return np.zeros(state.num_players(), dtype=np.float64)
        scores = np.array(game.scores(), dtype=np.float64)
        margins: npt.NDArray[np.float64] = np.clip((scores - scores.mean()) / self.scale, -1, 1)
        return margins

    def prior(self, state: PasticheState) -> Sequence[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node)."""
        return _uniform_prior(state)


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots: each player's chances, by our heuristics.

    :meth:`evaluate` values a state the way the library's own search values the
    end of a playout (:func:`~pastiche_core.ai.playout.evaluate`): each
    player's expected final score
    (:func:`~pastiche_core.ai.playout.expected_scores`: the score, each
    Published novel by how near it is to a Masterpiece, the hand's cards and
    its publishing prospects by the greedy bot's
    :class:`~pastiche_core.ai.heuristics.Outlook`) goes through a softmax of
    temperature ``temperature`` to give win chances ``p``, and each chance
    becomes the return :func:`~pastiche_core.rl.aec.winner_returns` would give
    on average, ``(n·p - 1)/(n - 1)``: from ``-1/(n - 1)`` to 1, summing to 0,
    on the scale of the terminal returns (which a finished game gives).
    :meth:`prior` is uniform.

    **What it reads.** It evaluates the state it is given, every hand included.
    OpenSpiel's ISMCTS calls it only on sampled states: each simulation starts
    from :meth:`PasticheState.resample_from_infostate`, which deals anew every
    card the player to move has never seen, so the hands it reads are a sample
    consistent with that player's information state, never the true hidden
    ones (as the library's search evaluates its determinizations). Called on a
    true state, it reads the true hands.

    >>> register()
    >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
    >>> HeuristicEvaluator().evaluate(state).tolist()  # dealing: nothing to tell apart
    [0.0, 0.0, 0.0]
    >>> for card in range(10):
    ...     state.apply_action(card)
    >>> values = HeuristicEvaluator().evaluate(state)
    >>> bool(abs(values.sum()) < 1e-9 and (values >= -0.5).all() and (values <= 1).all())
    True
    """

    def __init__(self, temperature: float = WIN_TEMPERATURE) -> None:
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, int | float)
            or not temperature > 0
        ):
            raise InvalidArgumentError(
                f"temperature must be a positive number, got {temperature!r}"
            )
        self.temperature = float(temperature)
        """The softmax temperature, in points of expected score: lower trusts small leads
        more (the search's playouts use :data:`~pastiche_core.ai.playout.WIN_TEMPERATURE`)."""

    def values(self, game: Game) -> npt.NDArray[np.float64]:
        """Per player, the expected return of ``game`` (its returns once it is over).

        >>> from pastiche_core import Game
        >>> values = HeuristicEvaluator().values(Game(players=4, seed=3))
        >>> values.shape, bool(abs(values.sum()) < 1e-9)
        ((4,), True)
        """
        players = game.players
        if game.is_over:
            return np.array(winner_returns(players, game.winners()), dtype=np.float64)
        expected = np.array(expected_scores(game), dtype=np.float64)
        weights = np.exp((expected - expected.max()) / self.temperature)
        chances = weights / weights.sum()
        values: npt.NDArray[np.float64] = (players * chances - 1.0) / (players - 1)
        return values

    def evaluate(self, state: PasticheState) -> npt.NDArray[np.float64]:
        """Per player, the expected return of ``state`` (zeros while dealing; see the class)."""
        game = state.game
        if game is None:
            return np.zeros(state.num_players(), dtype=np.float64)
        return self.values(game)

    def prior(self, state: PasticheState) -> Sequence[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node).

        >>> register()
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> len(HeuristicEvaluator().prior(state))
        49
        """
        return _uniform_prior(state)


def _uniform_prior(state: PasticheState) -> Sequence[tuple[int, float]]:
    if state.is_chance_node():
        return state.chance_outcomes()
    legal = state.legal_actions(state.current_player())
    return [(action, 1.0 / len(legal)) for action in legal]


class PasticheEnvironment(rl_environment.Environment):  # type: ignore[misc]
    """OpenSpiel's ``rl_environment.Environment`` for ``python_pastiche``, without its copies.

    The base class makes every player's observation tensor at every step, each
    copied from the game into C++ and then into a list of floats, and asks
    every player for legal actions. This one gives the same time steps but:

    * ``observations["info_state"]`` is a sequence whose item ``p`` is
      :meth:`PasticheState.observation_array`, a read-only ``float32`` array made
      when it is first read: an agent that reads only its own observation pays
      for one per step (the time step keeps a copy of the state once the
      environment moves on, so an observation read later is still the one of
      its step);
    * only the player to move is asked for legal actions: the others get ``[]``,
      as they do from the base class.

    ``game`` is a game string (``"python_pastiche(players=4)"``) or a loaded
    :class:`PasticheGame`; every other argument is the base class's
    (``observation_type`` may only be ``OBSERVATION``, the default here).

    >>> env = PasticheEnvironment("python_pastiche(players=3)")
    >>> env.seed(1)
    >>> step = env.reset()
    >>> player = step.observations["current_player"]
    >>> step.observations["info_state"][player].shape, step.observations["legal_actions"][0]
    ((1541,), [])
    >>> step = env.step([step.observations["legal_actions"][player][0]])
    >>> step.step_type.mid()
    True
    """

    _state: PasticheState

    def __init__(self, game: str | PasticheGame = "python_pastiche", **kwargs: Any) -> None:
        register()
        kind = kwargs.setdefault("observation_type", rl_environment.ObservationType.OBSERVATION)
        if kind != rl_environment.ObservationType.OBSERVATION:
            raise InvalidArgumentError(f"PasticheEnvironment gives observations only, not {kind}")
        super().__init__(game, **kwargs)
        if not isinstance(self._game, PasticheGame):
            raise InvalidArgumentError(
                f"PasticheEnvironment plays python_pastiche, got {self.name!r}"
            )
        self._observed: _Observations | None = None

    def step(self, actions: Sequence[int]) -> rl_environment.TimeStep:
        """Apply the player to move's action (``[action]``) and return the next time step.

        >>> env = PasticheEnvironment("python_pastiche(players=3)")
        >>> step = env.reset()
        >>> first = step.observations["info_state"]
        >>> step = env.step([step.observations["legal_actions"][2][0]])
        >>> first[0].tolist() == step.observations["info_state"][0].tolist()  # 2 kept, 0 saw it
        False
        """
        if self._observed is not None and not self._should_reset:
            self._observed.detach()  # before the state changes under it
        return super().step(actions)

    def _observations(self) -> dict[str, Any]:
        state: PasticheState = self._state
        players = self._num_players
        player = state.current_player()
        legal: list[list[int]] = [[] for _ in range(players)]
        if 0 <= player < players:
            legal[player] = state.legal_actions(player)
        self._observed = _Observations(state)
        observations: dict[str, Any] = {
            "info_state": self._observed,
            "legal_actions": legal,
            "current_player": player,
            "serialized_state": [],
        }
        if self._include_full_state:
            observations["serialized_state"] = pyspiel.serialize_game_and_state(self._game, state)
        return observations

    def get_time_step(self) -> rl_environment.TimeStep:
        """The current time step (see the class for how it differs from the base class's).

        >>> env = PasticheEnvironment("python_pastiche(players=3)")
        >>> env.reset().observations["current_player"] == env.get_time_step().current_player()
        True
        """
        state: PasticheState = self._state
        last = state.is_terminal()
        step_type = rl_environment.StepType.LAST if last else rl_environment.StepType.MID
        self._should_reset = last
        rewards = state.returns() if last else [0.0] * self._num_players
        discounts = [0.0] * self._num_players if last else self._discounts
        return rl_environment.TimeStep(
            observations=self._observations(),
            rewards=rewards,
            discounts=discounts,
            step_type=step_type,
        )

    def reset(self) -> rl_environment.TimeStep:
        """A new game, dealt by the chance sampler, at its first decision.

        >>> PasticheEnvironment("python_pastiche(players=4)").reset().first()
        True
        """
        self._should_reset = False
        state: PasticheState = self._game.new_initial_state()
        self._state = state
        self._sample_external_events()
        return rl_environment.TimeStep(
            observations=self._observations(),
            rewards=None,
            discounts=None,
            step_type=rl_environment.StepType.FIRST,
        )


class _Observations(Sequence[npt.NDArray[np.float32]]):
    """Each player's observation tensor in one state, made when first read."""

    __slots__ = ("state",)

    def __init__(self, state: PasticheState) -> None:
        self.state = state

    def detach(self) -> None:
        """Keep reading the state as it is now, whatever happens to the environment's."""
        self.state = self.state.clone()

    def __len__(self) -> int:
        return int(self.state.num_players())

    @overload
    def __getitem__(self, index: int) -> npt.NDArray[np.float32]: ...

    @overload
    def __getitem__(self, index: slice) -> list[npt.NDArray[np.float32]]: ...

    def __getitem__(
        self, index: int | slice
    ) -> npt.NDArray[np.float32] | list[npt.NDArray[np.float32]]:
        if isinstance(index, slice):
            return [self[seat] for seat in range(len(self))[index]]
        seat = range(len(self))[index]  # an IndexError past the players, as a list gives
        return self.state.observation_array(seat)

    def __iter__(self) -> Iterator[npt.NDArray[np.float32]]:
        return (self[seat] for seat in range(len(self)))


def register() -> None:
    """Register ``python_pastiche`` with OpenSpiel (again is harmless).

    >>> register(); "python_pastiche" in pyspiel.registered_names()
    True
    """
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, PasticheGame)
