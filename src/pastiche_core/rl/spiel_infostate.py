"""Information states of ``python_pastiche``: each seat's own knowledge, with perfect recall.

A seat's information state is everything it has seen and done, in order, and
nothing hidden from it (R16):

* **What it saw**: the cards dealt to it, then every move of the game as the
  seat may know it: the public history's notation and record
  (:func:`~pastiche_core.engine.game_internals.viewer_public`, hidden cards
  left out), which is what the game keeps anyway. They are folded into a
  SHA-256 digest that stands for the whole sequence at a fixed size, so keys
  stay short over games of hundreds of actions.
* **What it did**: its own atomic actions, in order.

Nothing is recorded while the game is played: the string is made when first
asked for in a state (and kept until the next action), and the digest of a
state's moves is kept with it, so a state reached by a few more moves extends
its parent's digest instead of reading the whole history again.

:meth:`InfoStateObserver.string_from` gives the seat's own actions, the digest
and its current observation text; two histories that differ only in cards the
seat never saw give the same string, and different own actions give different
strings. The tensor (:meth:`InfoStateObserver.set_from`) is a fixed-size
summary, not an injective one: the observation tensor (which carries the
seat's knowledge of every card) followed by how often the seat took each
action. Algorithms that key tables by information state (CFR, MCCFR) use the
string. A state resampled for ISMCTS keeps the player's information state:
the cards dealt anew are ones the player never saw.

>>> import pyspiel
>>> import pastiche_core.openspiel
>>> game = pyspiel.load_game("python_pastiche(players=3)")
>>> state = game.new_initial_state()
>>> state.deal(range(10))
>>> print(state.information_state_string(2).splitlines()[1])
own actions: -
>>> state.apply_action(state.legal_actions()[0])
>>> print(state.information_state_string(2).splitlines()[1])
own actions: discard MYT7
>>> game.information_state_tensor_shape() == [game.encoder.size + game.space.size]
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..data.cards import Card
from ..engine.game import Game
from ..engine.game_internals import viewer_public
from .encoding import ActionSpace
from .observation import ObservationEncoder

if TYPE_CHECKING:  # the state module imports this one
    from .spiel_state import PasticheState

__all__ = ["InfoStateObserver", "fold_moves", "information_state_size"]

Chain = tuple[int, bytes]
"""A seat's digest of the moves it saw: how many moves it covers, and the digest."""


def fold_moves(game: Game, seat: int, dealt: Sequence[Card], chain: Chain | None) -> Chain:
    """``chain`` extended by the moves of ``game`` it does not cover yet, as ``seat`` saw them.

    ``None`` starts from the cards dealt to ``seat``. The result depends only on
    what ``seat`` may know: hidden cards are not in the notes and records (R16).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> first = fold_moves(game, 0, game.hand(0), None)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> later = fold_moves(game, 0, game.hand(0), first)
    >>> first[0], later[0], later == fold_moves(game, 0, game.hand(0), None)
    (0, 1, True)
    """
    notes, records = viewer_public(game, seat)
    if chain is None:
        chain = (0, hashlib.sha256(repr(list(dealt)).encode()).digest())
    done, digest = chain
    if done >= len(notes):
        return chain
    for (who, note), record in zip(notes[done:], records[done:], strict=True):
        digest = hashlib.sha256(digest + f"{who} {note} {record!r}".encode()).digest()
    return len(notes), digest


def information_state_size(encoder: ObservationEncoder, space: ActionSpace) -> int:
    """The length of the information-state tensor: the observation, then the action counts.

    >>> information_state_size(ObservationEncoder(3), ActionSpace())
    1898
    """
    return encoder.size + space.size


class InfoStateObserver:
    """OpenSpiel's perfect-recall observer for ``python_pastiche`` (see the module).

    >>> import pyspiel
    >>> from pastiche_core.rl.spiel import register
    >>> register()
    >>> game = pyspiel.load_game("python_pastiche(players=3)")
    >>> observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    >>> sorted(observer.dict), observer.tensor.shape
    (['actions', 'observation'], (1898,))
    """

    def __init__(self, encoder: ObservationEncoder, space: ActionSpace) -> None:
        self.encoder = encoder
        """The observation layout."""
        self.space = space
        """The atomic action layout."""
        self.names = [space.describe(action) for action in range(space.size)]
        """Each action's description, made once."""
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            information_state_size(encoder, space), dtype=np.float32
        )
        """The information-state vector that :meth:`set_from` fills."""
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            "observation": self.tensor[: encoder.size],
            "actions": self.tensor[encoder.size :],
        }
        """The observation and the action counts: views of :attr:`tensor`."""

    def set_from(self, state: PasticheState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation and own action counts."""
        np.copyto(self.dict["observation"], state.observation_array(player))
        counts = self.dict["actions"]
        counts.fill(0.0)
        np.add.at(counts, list(state.own_actions(player)), 1.0)

    def string_from(self, state: PasticheState, player: int) -> str:
        """``player``'s information state as text: own actions, recall digest, observation.

        Made on the first request in a state (see the module).
        """
        return state.information_string(player, lambda: self._make_string(state, player))

    def _make_string(self, state: PasticheState, player: int) -> str:
        header = f"player {player} of {state.num_players()}"
        own = " | ".join(map(self.names.__getitem__, state.own_actions(player)))
        chain = state.recall_chain(player)
        recall = "-" if chain is None else f"{chain[0]} {chain[1].hex()[:32]}"
        observation = state.observation_string(player)
        return f"{header}\nown actions: {own or '-'}\nrecall {recall}\n{observation}"
