"""A packed game read back: its :data:`State` as the ``episodes`` kernel tells it, the
:class:`~pastiche_core.engine.game.Game` it holds (:func:`game_of`) and its ``'ansi'`` text
(:func:`packed_text`). :mod:`pastiche_core.rl.vector`, which plays the packed games, exports
these names too.

>>> from pastiche_core.rl.vector import PasticheVectorEnv
>>> envs = PasticheVectorEnv(1, players=3, opponents="random", seat=0, render_mode="ansi")
>>> _ = envs.reset(seed=7)
>>> envs.game(0).seed, envs.render()[0].splitlines()[0]
(7, 'learner: player 0')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.simulate import ENDINGS
from ..data.cards import DECK, Card, format_cards
from ..data.catalogue import END_FLAG_ID, Catalogue
from ..data.rng import GameRng
from ..engine.game import Game
from ..engine.game_internals import assemble
from ..engine.knowledge import Knowledge
from ..engine.rules import RULEBOOK, Phase, Rules
from .encoding import Stage
from .observation import PHASES, ObservationEncoder

__all__ = ["State", "game_of", "packed_text"]


State = tuple[Any, ...]
"""A game's state as the ``episodes`` kernel tells it (card indexes, Novels by plan index):
the generator's state, the deck and the discard pile in order (their tops last), the face-down
cards of the pile, each seat's hand, each seat's Novels as ``(Novel, cards)`` in publish
order, the copies left of each Novel, the End Flag's ``(seat, card)`` or ``None``, the phase
(:data:`~pastiche_core.rl.observation.PHASES` order), the seat to move, the seat whose turn it
is, the two cards drawn or ``None``, the turn, the passes, the trigger's seat or ``None``, the
turns left or ``None``, and the ending (0 none, 1 countdown, 2 all-pass)."""


def game_of(
    state: State, players: int, seed: int, catalogue: Catalogue, rules: Rules = RULEBOOK
) -> Game:
    """The :class:`~pastiche_core.engine.game.Game` in ``state`` (a spectator's copy, no history),
    played by ``rules``.

    >>> from pastiche_core.rl.vector import PasticheVectorEnv
    >>> envs = PasticheVectorEnv(1, players=3, opponents="greedy", seat=0)
    >>> _ = envs.reset(seed=7)
    >>> envs.game(0) == envs.episodes[0].game  # game() is game_of() of the game's state
    True
    """
    (rng, deck, discard, face_down, hands, tables, supply, flag, phase, to_move, current,
     pending, turn, passes, trigger, turns_left, ending) = state  # fmt: skip
    publishable = catalogue.publishable
    copies = {spec.id: spec.copies for spec in catalogue.specs}
    copies.update({publishable[at].id: left for at, left in enumerate(supply)})
    if flag is not None:
        copies[END_FLAG_ID] = 0
    elif trigger is not None and phase != PHASES.index(Phase.FLAG):
        copies[END_FLAG_ID] = 0  # R12: lost for want of a card
    generator = GameRng(0)
    generator.state = rng
    return assemble(
        Game,
        catalogue=catalogue,
        players=players,
        seed=seed,
        rng=generator,
        deck=_cards(deck),
        discard=_cards(discard),
        face_down=set(_cards(face_down)),
        hands=[set(_cards(hand)) for hand in hands],
        tables=[
            {publishable[at].id: tuple(_cards(cards)) for at, cards in seat} for seat in tables
        ],
        supply=copies,
        flag=None if flag is None else (flag[0], DECK[flag[1]]),
        phase=PHASES[phase],
        to_move=to_move,
        current=current,
        pending=None if pending is None else (DECK[pending[0]], DECK[pending[1]]),
        turn=turn,
        passes=passes,
        trigger=trigger,
        turns_left=turns_left,
        end_reason=None if not ending else ENDINGS[ending - 1],
        rules=rules,
    )


def _cards(indexes: Iterable[int]) -> list[Card]:
    return [DECK[index] for index in indexes]


def packed_text(
    encoder: ObservationEncoder, game: Game, seat: int, observation: npt.NDArray[np.float32]
) -> str:
    """The ``'ansi'`` rendering of a packed game: :meth:`Episode.text
    <pastiche_core.rl.single.Episode.text>` made from the game (:func:`game_of`) and the
    learner's raw observation, which holds what the learner knows of the other hands and
    the decision in progress. A gift's receiver is not in the observation: gifts are
    listed by card.

    >>> from pastiche_core.rl.episode import Episode, Settings
    >>> settings = Settings.of(players=3, seat=2)
    >>> episode = Episode(settings)
    >>> episode.reset(np.random.default_rng(0), seed=7)
    >>> row = np.empty(episode.encoder.size, dtype=np.float32)
    >>> episode.write_observation(row)
    >>> packed_text(episode.encoder, episode.game, 2, row) == episode.text()
    True
    """
    parts = encoder.unpack(observation)
    players = game.players
    holders = {
        int(card): (seat + relative) % players
        for relative, plane in enumerate(parts["known_hands"])
        for card in np.flatnonzero(plane)
    }
    knowledge = Knowledge(seat, set(), holders)
    body = encoder.text(game.view(seat, history=False), None, knowledge)
    building = _building_of(encoder, parts, seat, players)
    if building and not game.is_over:
        body += f"\nbuilding: {building}"
    return f"learner: player {seat}\n{body}"


def _building_of(
    encoder: ObservationEncoder, parts: dict[str, npt.NDArray[Any]], seat: int, players: int
) -> str:
    """The decision in progress as :meth:`ObservationEncoder.text` words it, read back from
    the observation's decision fields."""

    def cards(name: str) -> str:
        return format_cards([DECK[int(index)] for index in np.flatnonzero(parts[name])])

    stage = Stage(int(parts["stage"].argmax()))
    if stage is Stage.START:
        return ""
    if stage is Stage.DISCARDING:
        return f"keep, discarding {cards('building_discards')}"
    novel = encoder.novels[int(parts["building_novel"].argmax())]
    words = [f"publish {novel}"]
    if parts["building_played"].any():
        words.append(f"play {cards('building_played')}")
    if parts["building_cited"].any():
        words.append(f"cite {cards('building_cited')}")
    if stage is Stage.GIFTS:
        if parts["building_gifts"].any():
            words.append(f"gift {cards('building_gifts')}")
        owed = ", ".join(
            f"{int(count)} to player {(seat + relative) % players}"
            for relative, count in enumerate(parts["gifts_owed"])
            if count
        )
        words.append(f"(gifts owed: {owed})")
    return " ".join(words)
