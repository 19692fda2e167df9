"""The observation vector against a slow reference written field by field from the layout.

The encoder keeps parts of its vectors between calls (the tables, the supply and
the scores of each observer; the public part while a decision is built); the
reference builds every field from scratch, so any stale part shows.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import pytest

pytest.importorskip("numpy")

import numpy as np
from budget import examples
from builders import MINI
from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Catalogue, Game, Phase
from pastiche_core.engine._kernels import switched_off
from pastiche_core.engine.view import PlayerView
from pastiche_core.rl import ActionSpace, Knowledge, MoveBuilder, ObservationEncoder
from pastiche_core.rl.encoding import Stage

_PHASES = [Phase.KEEP, Phase.ACTION, Phase.CHOOSE, Phase.FLAG, Phase.OVER]


def reference(
    encoder: ObservationEncoder,
    view: PlayerView,
    builder: MoveBuilder | None = None,
    knowledge: Knowledge | None = None,
) -> np.ndarray:
    """The observation as the module docstring's layout table describes it."""
    n, me = view.players, view.player
    part = {field.name: np.zeros(field.shape, np.float32) for field in encoder.fields}

    def seat(owner: int) -> int:
        return (owner - me) % n

    for card in view.hand:
        part["hand"][card.index] = 1
    for card in view.pending or ():
        part["drawn"][card.index] = 1
    for index, shown in enumerate(view.discard):
        if shown is not None:
            plane = "discard_own" if index in view.face_down else "discard_face_up"
            part[plane][shown.index] = 1
    if view.discard and len(view.discard) - 1 not in view.face_down:
        top = view.discard[-1]
        assert top is not None
        part["discard_top"][top.index] = 1
    if view.flag is not None:
        part["flag_card"][view.flag[1].index] = 1
        part["flag_owner"][seat(view.flag[0])] = 1
    for owner, table in enumerate(view.tables):
        for novel in table:
            slot = encoder.novels.index(novel.novel)
            if len(novel.cards) == 1:
                part["masterpieces"][seat(owner), novel.cards[0].index] = 1
                part["held_masterpiece"][seat(owner), slot] = 1
            else:
                for card in novel.cards:
                    part["published"][seat(owner), card.index] = 1
                part["held_published"][seat(owner), slot] = 1
            for card in novel.cards:
                part["novel_cards"][slot, card.index] = 1
    if knowledge is not None:
        for holder, cards in knowledge.known_hands().items():
            for card in cards:
                part["known_hands"][seat(holder), card.index] = 1
    for novel_id, copies in view.supply:
        if novel_id in encoder.novels:
            part["supply"][encoder.novels.index(novel_id)] = copies
    for owner in range(n):
        part["hand_sizes"][seat(owner)] = view.hand_sizes[owner]
        part["scores"][seat(owner)] = view.scores[owner]
    part["piles"][:] = [view.deck_size, len(view.discard), len(view.face_down)]
    part["phase"][_PHASES.index(view.phase)] = 1
    if view.phase is not Phase.OVER:
        part["to_move"][seat(view.to_move)] = 1
        part["current"][seat(view.current)] = 1
    part["seat"][me] = 1
    part["passes"][0] = view.passes
    if view.turns_left is not None:
        part["countdown"][:] = [1, view.turns_left]
    if view.trigger is not None:
        part["trigger"][seat(view.trigger)] = 1
        if view.flag is None and view.phase is not Phase.FLAG:
            part["flag_lost"][0] = 1
    if builder is not None and builder.view.player == me and builder.stage:
        part["stage"][int(builder.stage)] = 1
        for name, chosen in (
            ("building_played", builder.played),
            ("building_cited", builder.cited),
            ("building_gifts", tuple(gift.card for gift in builder.gifts)),
            ("building_discards", builder.discards),
        ):
            for card in chosen:
                part[name][card.index] = 1
        if builder.novel is not None:
            part["building_novel"][encoder.novels.index(builder.novel)] = 1
        if builder.stage is Stage.GIFTS:
            for owner, count in builder.owed:
                part["gifts_owed"][seat(owner)] = count
    else:
        part["stage"][int(Stage.START)] = 1
    return np.concatenate([part[field.name].reshape(-1) for field in encoder.fields])


@contextmanager
def python_encoder(python: bool) -> Iterator[None]:
    """Encode with the pure-Python twin of the compiled encoder while inside (if ``python``)."""
    with switched_off("fill_public") if python else nullcontext():
        yield


def _walk(players: int, seed: int, catalogue: Catalogue | None = None) -> int:
    """Play a game by random atomic actions, checking every observer at every step."""
    game = Game(players=players, seed=seed, catalogue=catalogue)
    encoder = ObservationEncoder(players, game.catalogue)
    space = ActionSpace(game.catalogue)
    knowledge = [Knowledge.of(game, player) for player in range(players)]
    rng = random.Random(seed)
    checked = 0
    while True:
        views = [game.view(player, history=rng.random() < 0.5) for player in range(players)]
        builder = None if game.is_over else MoveBuilder(space, views[game.to_move])
        while True:
            for player in rng.sample(range(players), players):
                mover = builder if builder is not None and player == game.to_move else None
                known = knowledge[player] if rng.random() < 0.8 else None
                got = encoder.encode(views[player], mover, knowledge=known)
                want = reference(encoder, views[player], mover, known)
                assert np.array_equal(got, want), (seed, game.turn, player, builder)
                checked += 1
            if builder is None:
                return checked
            move = builder.push(rng.choice(builder.legal_actions()))
            if move is not None:
                break
        game.apply(move)
        for each in knowledge:
            each.update(game)


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]), python=st.booleans())
def test_every_observation_along_a_game_is_the_references(
    seed: int, players: int, python: bool
) -> None:
    """Both encoders, the compiled one (when built) and its Python twin."""
    with python_encoder(python):
        assert _walk(players, seed) > 100


@pytest.mark.parametrize("python", [False, True])
def test_the_reference_holds_with_another_catalogue(python: bool) -> None:
    with python_encoder(python):
        assert _walk(4, 11, MINI) > 100
