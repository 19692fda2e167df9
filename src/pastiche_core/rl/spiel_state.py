"""The states of ``python_pastiche`` and their observer: the deal, a game, a draw or a decision.

See :mod:`pastiche_core.rl.spiel` for the chance model and the resampler.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..data.cards import DECK, Card, format_cards
from ..data.errors import InvalidArgumentError
from ..engine.game import Game
from ..engine.game_internals import insides, renamed, stack_deck
from ..engine.knowledge import Knowledge
from ..engine.moves import Draw, Move
from ..engine.rules import setup_discarders
from ..engine.view import PlayerView
from ..io.state_json import state_from_dict, state_to_dict
from .aec import winner_returns
from .encoding import MoveBuilder
from .observation import ObservationEncoder
from .spiel_infostate import Chain, fold_moves

if TYPE_CHECKING:  # the game module imports this one
    from .spiel_game import PasticheGame

__all__ = ["PasticheObserver", "PasticheState", "deal_steps", "pair_action", "pair_of"]

_CARDS = len(DECK)


def pair_action(first: int, second: int) -> int:
    """The chance action that deals the unordered pair of cards ``first`` and ``second``.

    The combinatorial (colex) index of the pair: ``high·(high − 1)/2 + low``
    with ``low < high`` the two card indexes, so the pairs of the 49 cards are
    the actions ``0`` to ``C(49, 2) − 1 = 1,175``, each pair once.

    >>> pair_action(0, 1), pair_action(2, 0), pair_action(47, 48)
    (0, 1, 1175)
    """
    low, high = sorted((first, second))
    if not 0 <= low < high < _CARDS:
        raise InvalidArgumentError(
            f"a pair dealt must be two different cards from 0 to {_CARDS - 1} (R10), "
            f"got {first!r} and {second!r}"
        )
    return high * (high - 1) // 2 + low


def pair_of(action: int) -> tuple[int, int]:
    """The two card indexes, lower first, that the chance action ``action`` deals.

    >>> pair_of(0), pair_of(1), pair_of(1175), pair_of(pair_action(12, 30))
    ((0, 1), (0, 2), (47, 48), (12, 30))
    """
    if not 0 <= action < _CARDS * (_CARDS - 1) // 2:
        raise InvalidArgumentError(
            f"a pair's chance action must be from 0 to {_CARDS * (_CARDS - 1) // 2 - 1} (R10), "
            f"got {action!r}"
        )
    high = (1 + math.isqrt(1 + 8 * action)) // 2
    if high * (high - 1) // 2 > action:  # pragma: no cover - isqrt is exact
        high -= 1
    return action - high * (high - 1) // 2, high


def deal_steps(deals: Iterable[int], per_chance: int) -> tuple[int, ...]:
    """How many cards the deal's chance node after ``k`` cards deals, for each ``k``.

    Seat by seat (R10), ``per_chance`` cards a node, a seat's odd card alone;
    a pair never spans two seats, so which of its cards goes where is never a
    choice. ``0`` marks a count that falls inside a pair.

    >>> deal_steps((3, 4), 2), deal_steps((3, 4), 1)
    ((2, 0, 1, 2, 0, 2, 0), (1, 1, 1, 1, 1, 1, 1))
    """
    steps: list[int] = []
    for size in deals:
        for start in range(0, size, per_chance):
            group = min(per_chance, size - start)
            steps.extend([group] + [0] * (group - 1))
    return tuple(steps)


class _Core:
    """Everything a state holds; copying it is what cloning a state costs.

    ``texts`` and ``tensors`` hold each player's observation once it is made:
    a search asks for the same one several times per visit (OpenSpiel's node
    lookup makes its key twice), and OpenSpiel's binding fills a tensor twice
    per call. Every action clears them.
    """

    __slots__ = (
        "builder",
        "chains",
        "dealt",
        "drawn",
        "game",
        "infos",
        "knowledge",
        "own",
        "partial",
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
        self.texts: dict[int, str] = {}  # observation strings made since the last action
        self.infos: dict[int, str] = {}  # information state strings, the same way
        self.chains: dict[int, Chain] = {}  # per seat, the digest of the moves it saw
        # Per seat, its own actions: None until an information state is first asked for.
        self.own: list[tuple[int, ...]] | None = None
        self.tensors: dict[int, npt.NDArray[np.float32]] = {}  # never written once cached

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        twin = _Core(self.spec)
        twin.dealt = self.dealt.copy()
        twin.game = None if self.game is None else self.game.copy()
        twin.drawn = None if self.drawn is None else self.drawn.copy()
        twin.partial = self.partial.copy()
        twin.knowledge = [knowledge.copy() for knowledge in self.knowledge]
        twin.texts = self.texts.copy()
        twin.infos = self.infos.copy()
        twin.chains = self.chains.copy()  # immutable values: a child extends its parent's
        twin.own = None if self.own is None else self.own.copy()
        twin.tensors = self.tensors.copy()
        return twin

    def forget_observations(self, keep: int | None = None) -> None:
        """Drop the observations made so far, but ``keep``'s (its view did not change)."""
        texts, tensors, infos = self.texts, self.tensors, self.infos
        self.texts = {} if keep not in texts else {keep: texts[keep]}
        self.infos = {} if keep not in infos else {keep: infos[keep]}
        self.tensors = {} if keep not in tensors else {keep: tensors[keep]}

    def applied(self) -> None:
        """Let every player's knowledge follow the move just applied to the game."""
        assert self.game is not None
        Knowledge.update_all(self.knowledge, self.game)


class PasticheState(pyspiel.State):  # type: ignore[misc]
    """One ``python_pastiche`` state: the deal, a game, a draw or a decision in progress.

    >>> import pastiche_core.openspiel
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
        """The cards, or the unordered pairs of cards (:func:`pair_action`), that may come
        next, each equally likely.

        >>> import pastiche_core.openspiel
        >>> game = pyspiel.load_game("python_pastiche(players=3,deal_cards_per_chance=2)")
        >>> state = game.new_initial_state()
        >>> outcomes = state.chance_outcomes()
        >>> len(outcomes), outcomes[0], state.action_to_string(outcomes[-1][0])
        (1176, (0, 0.0008503401360544217), 'deal MAG12 MAG13')
        """
        cards = self._chance_cards()
        if not cards:
            return []
        if self._deal_step() == 2:
            p = 1.0 / math.comb(len(cards), 2)
            return [
                (high * (high - 1) // 2 + low, p)
                for index, high in enumerate(cards)
                for low in cards[:index]
            ]
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

    def _deal_step(self) -> int:
        """How many cards the chance node deals: 1 or 2 while dealing, else 0."""
        core = self._core
        if core.game is not None:
            return 0
        return core.spec.deal_steps[len(core.dealt)]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.texts or core.tensors or core.infos:
            core.forget_observations()
        if core.game is None:
            if self._deal_step() == 2:
                core.dealt.extend(pair_of(int(action)))
            else:
                core.dealt.append(int(action))
            if len(core.dealt) == self._deal_size():
                core.game = game = self._dealt_game()
                core.knowledge = [Knowledge.of(game, seat) for seat in range(game.players)]
            return
        if core.drawn is not None:
            core.drawn.append(int(action))
            game = core.game
            if len(core.drawn) == min(2, game.deck_size + len(game.discard)):
                self._finish_draw()
            return
        if core.own is not None:  # kept once asked for: each state then reads it at once
            seat = core.game.to_move
            core.own[seat] = (*core.own[seat], int(action))
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
            if self._deal_step() == 2:
                return f"deal {format_cards([DECK[card] for card in pair_of(action)])}"
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

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.deal(range(10))
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

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.deal(range(10))
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

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.deal(range(10))
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
            # Another seat may have seen a card renamed: its digest is made again if asked.
            core.chains = {player: core.chains[player]} if player in core.chains else {}
        else:
            core.game = game.copy()
            core.knowledge = [each.copy() for each in knowledge]
        core.builder = None
        return state  # type: ignore[no-any-return]

    def deal(self, cards: Iterable[int]) -> None:
        """Apply the chance actions that deal ``cards`` (card indexes), seat by seat (R10).

        One action per card or per pair, as the game's ``deal_cards_per_chance``
        says; a pair is dealt lower card first (it is unordered).

        >>> import pastiche_core.openspiel
        >>> game = pyspiel.load_game("python_pastiche(players=3,deal_cards_per_chance=2)")
        >>> state = game.new_initial_state()
        >>> state.deal([4, 3, 2])
        >>> format_cards(state.dealt_hand(0), sort=False), state.history()
        ('MYT4 MYT5 MYT3', [9, 2])
        """
        cards = [int(card) for card in cards]
        at = 0
        while at < len(cards):
            step = self._deal_step()
            if step == 0:
                raise InvalidArgumentError(
                    f"the deal is complete: {len(cards) - at} cards left of {cards[:8]!r} (R10)"
                )
            if at + step > len(cards):
                raise InvalidArgumentError(
                    f"cards must end on a whole chance node: {cards[at]} is half a pair (R10)"
                )
            if step == 2:
                self.apply_action(pair_action(cards[at], cards[at + 1]))
            else:
                self.apply_action(cards[at])
            at += step

    def dealt_hand(self, player: int) -> list[Card]:
        """The cards dealt to ``player`` so far, in dealing order (R10).

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.deal(range(5))
        >>> format_cards(state.dealt_hand(0)), format_cards(state.dealt_hand(1))
        ('MYT1 MYT2 MYT3', 'MYT4 MYT5')
        """
        core = self._core
        deals = core.spec.rules.deal_sizes
        start = sum(deals[:player])
        return [DECK[i] for i in core.dealt[start : start + deals[player]]]

    def information_string(self, player: int, make: Callable[[], str]) -> str:
        """``player``'s information state string, ``make()`` on the first request in this state.

        The information state changes with every action, so the cache is the state's own.
        """
        core = self._core
        text = core.infos.get(player)
        if text is None:
            text = core.infos[player] = make()
        return text

    def own_actions(self, player: int) -> tuple[int, ...]:
        """``player``'s own actions so far, in order (the chance nodes' are no one's).

        Read from the history on the first request in a game's line of states; the
        state and the states that follow it then keep them up to date.

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.deal(range(10))
        >>> state.apply_action(state.legal_actions()[0])
        >>> state.own_actions(2), state.own_actions(0)
        ((10,), ())
        """
        core = self._core
        if core.own is None:
            own: list[list[int]] = [[] for _ in range(core.spec.players)]
            for step in self.full_history():
                if step.player >= 0:
                    own[step.player].append(step.action)
            core.own = [tuple(each) for each in own]
        return core.own[player]

    def recall_chain(self, player: int) -> Chain | None:
        """The digest of the moves ``player`` saw so far (:func:`.spiel_infostate.fold_moves`).

        ``None`` while dealing. Made when asked, from the digest this state
        inherited from its parent, and kept.

        >>> import pastiche_core.openspiel
        >>> state = pyspiel.load_game("python_pastiche(players=3)").new_initial_state()
        >>> state.recall_chain(0) is None
        True
        >>> state.deal(range(10))
        >>> state.recall_chain(0)[0], len(state.recall_chain(0)[1])
        (0, 32)
        """
        core = self._core
        game = core.game
        if game is None:
            return None
        chain = fold_moves(game, player, self.dealt_hand(player), core.chains.get(player))
        core.chains[player] = chain
        return chain

    def knowledge(self, player: int) -> Knowledge | None:
        """What ``player`` has seen of the cards (R16), once the deal is complete."""
        core = self._core
        return core.knowledge[player] if core.knowledge else None


class PasticheObserver:
    """OpenSpiel's observer for ``python_pastiche``: one player's view, as tensor and text.

    ``tensor`` is the flat :class:`~pastiche_core.rl.observation.ObservationEncoder`
    vector and ``dict`` its fields, each in its shape.

    >>> import pastiche_core.openspiel
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
                own = state.dealt_hand(player)
                text = f"player {player}, dealing: hand {format_cards(own) or '-'}"
            else:
                text = self.encoder.text(view, builder, knowledge=state.knowledge(player))
            core.texts[player] = text
        return text
