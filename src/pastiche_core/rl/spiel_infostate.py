"""Information states of ``python_pastiche``: each seat's own knowledge, with perfect recall.

A seat's information state is everything it has seen and done, in order, and
nothing hidden from it (R16):

* **What it saw.** After the deal and after every move the game applies, the
  seat's observation tensor (:meth:`~pastiche_core.rl.observation.ObservationEncoder.encode`
  of its view and its :class:`~pastiche_core.engine.knowledge.Knowledge`) is
  folded into a running SHA-256 digest, one per seat. The digest stands for the
  whole sequence of observations at a fixed size, so information-state keys stay
  short over games of hundreds of actions.
* **What it did.** Its own atomic actions, each marked with the number of
  observations made before it (the moves applied so far, which every seat sees).

:meth:`InfoStateObserver.string_from` gives the seat's own actions, the digest
and its current observation text; two histories that differ only in cards the
seat never saw give the same string, and different own actions give different
strings. The tensor (:meth:`InfoStateObserver.set_from`) is a fixed-size
summary, not an injective one: the observation tensor (which carries the
seat's knowledge of every card) followed by how often the seat took each
action. Algorithms that key tables by information state (CFR, MCCFR) use the
string. A state resampled for ISMCTS keeps the recall it had: exact for the
player it was resampled for, while the other seats' digests stay those of the
game it was drawn from.

>>> import pyspiel
>>> from pastiche_core.rl.spiel import register
>>> register()
>>> game = pyspiel.load_game("python_pastiche(players=3)")
>>> state = game.new_initial_state()
>>> for card in range(10):
...     state.apply_action(card)
>>> print(state.information_state_string(2).splitlines()[1])
own actions: -
>>> state.apply_action(state.legal_actions()[0])
>>> print(state.information_state_string(2).splitlines()[1])
own actions: 0:discard MYT7
>>> game.information_state_tensor_shape() == [game.encoder.size + game.space.size]
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..engine.game import Game
from ..engine.knowledge import Knowledge
from .encoding import ActionSpace
from .observation import ObservationEncoder

if TYPE_CHECKING:  # the game module imports this one
    from .spiel import PasticheState

__all__ = ["InfoStateObserver", "Recall", "information_state_size"]


@dataclass(frozen=True, slots=True)
class Recall:
    """What every seat has seen and done so far; immutable, so a cloned state shares it.

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=1)
    >>> encoder = ObservationEncoder(3)
    >>> knowledge = [Knowledge.of(game, seat) for seat in range(3)]
    >>> recall = Recall.start(game, knowledge, encoder)
    >>> recall.moves, len(recall.digests), recall.acted(2, ActionSpace.DRAW, ActionSpace()).own[2]
    (0, 3, ('0:draw',))
    """

    digests: tuple[bytes, ...]
    """Per seat, the SHA-256 digest of its observations so far, in order."""
    moves: int
    """The observations made so far, after the deal: one per move applied (public)."""
    own: tuple[tuple[str, ...], ...]
    """Per seat, its own atomic actions, each as ``moves:description``."""

    @staticmethod
    def start(game: Game, knowledge: list[Knowledge], encoder: ObservationEncoder) -> Recall:
        """The recall right after the deal: each seat has seen its hand.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=1)
        >>> knowledge = [Knowledge.of(game, seat) for seat in range(3)]
        >>> Recall.start(game, knowledge, ObservationEncoder(3)).own
        ((), (), ())
        """
        blank = Recall(tuple(b"" for _ in knowledge), -1, tuple(() for _ in knowledge))
        return blank.seen(game, knowledge, encoder)

    def seen(self, game: Game, knowledge: list[Knowledge], encoder: ObservationEncoder) -> Recall:
        """The recall once every seat has observed ``game`` as it is now.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=1)
        >>> knowledge = [Knowledge.of(game, seat) for seat in range(3)]
        >>> first = Recall.start(game, knowledge, ObservationEncoder(3))
        >>> later = first.seen(game, knowledge, ObservationEncoder(3))
        >>> later.moves, later.digests[0] != first.digests[0]
        (1, True)
        """
        digests = []
        tensor = np.empty(encoder.size, dtype=np.float32)
        for seat, (digest, known) in enumerate(zip(self.digests, knowledge, strict=True)):
            encoder.encode(game.view(seat, history=False), None, out=tensor, knowledge=known)
            digests.append(hashlib.sha256(digest + tensor.tobytes()).digest())
        return Recall(tuple(digests), self.moves + 1, self.own)

    def acted(self, seat: int, action: int, space: ActionSpace) -> Recall:
        """The recall once ``seat`` has taken the atomic ``action`` of ``space``.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=1)
        >>> knowledge = [Knowledge.of(game, seat) for seat in range(3)]
        >>> Recall.start(game, knowledge, ObservationEncoder(3)).acted(0, ActionSpace.TAKE, ActionSpace()).own[0]
        ('0:take',)
        """
        own = list(self.own)
        own[seat] = (*own[seat], f"{self.moves}:{space.describe(action)}")
        return Recall(self.digests, self.moves, tuple(own))


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
        for step in state.full_history():
            if step.player == player:
                counts[step.action] += 1.0

    def string_from(self, state: PasticheState, player: int) -> str:
        """``player``'s information state as text: own actions, recall digest, observation."""
        recall = state.recall
        header = f"player {player} of {state.num_players()}"
        observation = state.observation_string(player)
        if recall is None:  # dealing: only the own cards dealt so far
            return f"{header}\nown actions: -\nrecall -\n{observation}"
        own = " | ".join(recall.own[player]) or "-"
        digest = recall.digests[player].hex()[:32]
        return f"{header}\nown actions: {own}\nrecall {recall.moves} {digest}\n{observation}"
