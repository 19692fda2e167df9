"""The episodes kernel plays the vector environment's games as the engine does (R4-R16).

``episodes`` is :class:`pastiche_core.rl.vector._PythonEpisodes`: one
:class:`~pastiche_core.rl.single.Episode` per game (the game, the learner's
:class:`~pastiche_core.rl.encoding.MoveBuilder` and
:class:`~pastiche_core.engine.knowledge.Knowledge`, the other seats' random bots, the
observation encoder). Its twin (``csrc/episode.c``) keeps every game packed.
Both are driven with the same deals and the same atomic actions, legal ones
drawn at random from the masks and illegal ones among them, and must agree
after every call: the observations (the decision in progress and the known
hands included), the masks, the rewards and terminations, the games
penalized, which games are over and how many moves each has played. The runs
are checked to reach the rules' corners on the learner's side: setup discards
in order (R15), a choice after a draw (R11), reads (R11), publishes with
citations and gifts (R4, R5), the End Flag (R12), wins and losses (R13), and
penalized actions. Then the environment itself, with and without the kernel.

The C homes of rulings compared here (their tags name this file): ``compute_mask``
(R11's turn actions), ``viewer_table`` (R16's hidden cards) and ``follow`` (R16's
knowledge of hands).
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from support import leaked, twin

from pastiche_core.bots.play import derive_seed
from pastiche_core.data.errors import IllegalMoveError
from pastiche_core.engine._kernels import Kernel, switched_off
from pastiche_core.gymnasium import vector_env
from pastiche_core.io.invariants import check_invariants
from pastiche_core.rl import vector as vector_module
from pastiche_core.rl.encoding import Stage
from pastiche_core.rl.single import Settings

pytestmark = pytest.mark.kernels

EPISODES: Kernel[..., Any] = vector_module._episodes


def arguments(settings: Settings, count: int) -> tuple[Any, ...]:
    return (settings, count, *vector_module._packed_settings(settings))


class Pair:
    """The two twins over the same games, compared after every call."""

    def __init__(self, settings: Settings, count: int) -> None:
        self.settings = settings
        self.count = count
        args = arguments(settings, count)
        self.compiled = twin(EPISODES)(*args)
        self.python = EPISODES.python(*args)
        size = self.python.episodes[0].encoder.size
        actions = self.python.episodes[0].space.size
        self.raw = [np.zeros((count, size), dtype=np.float32) for _ in range(2)]
        self.masks = [np.zeros((count, actions), dtype=bool) for _ in range(2)]
        self.rewards = [np.zeros(count) for _ in range(2)]
        self.terminations = [np.zeros(count, dtype=bool) for _ in range(2)]
        self.seen: set[str] = set()

    def same(self) -> None:
        for name in ("raw", "masks", "rewards", "terminations"):
            compiled, python = getattr(self, name)
            assert np.array_equal(compiled, python), (
                f"{name} differ: {np.argwhere(compiled != python)[:5]}"
            )
        for name in ("masks", "terminations"):  # booleans byte for byte: 0 or 1, as numpy's
            compiled, python = getattr(self, name)
            assert compiled.tobytes() == python.tobytes(), name
        for index in range(self.count):
            assert self.compiled.over(index) == self.python.over(index)
            assert self.compiled.moves(index) == self.python.moves(index)
            assert self.compiled.state(index) == self.python.state(index)

    def deal(self, index: int, seed: int, seat: int) -> None:
        players = self.settings.players
        seeds = tuple(
            None if other == seat else derive_seed(seed, "opponent", other)
            for other in range(players)
        )
        self.compiled.deal(index, seed, seat, seeds, self.raw[0])
        self.python.deal(index, seed, seat, seeds, self.raw[1])

    def write_masks(self) -> None:
        self.compiled.write_masks(self.masks[0])
        self.python.write_masks(self.masks[1])

    def step(self, actions: list[int], skip: list[int], penalty: bool) -> None:
        for index, action in enumerate(actions):
            self.note(index, action)
        answers = [
            games.step(actions, skip, raw, rewards, terminations, penalty)
            for games, raw, rewards, terminations in zip(
                (self.compiled, self.python), self.raw, self.rewards, self.terminations, strict=True
            )
        ]
        assert answers[0] == answers[1]
        if answers[0]:
            self.seen.add("penalized")

    def note(self, index: int, action: int) -> None:
        """What the learner's action reaches (read from the engine's game)."""
        episode = self.python.episodes[index]
        if episode.over or action < 0 or not episode.builder.is_legal(action):
            return
        space, builder = episode.space, episode.builder
        kind, _ = space.decode(action)
        self.seen.add(kind)
        if kind == "gift":
            self.seen.add("gift")
        if kind == "discard" and builder.stage is Stage.DISCARDING:
            self.seen.add("ordered discards")
        if kind == "cite":
            self.seen.add("cite")


def run(pair: Pair, steps: int, rng: np.random.Generator, penalty: bool) -> None:
    """Deal every game, then step them ``steps`` times with actions from the masks."""
    players = pair.settings.players
    fixed = pair.settings.seat
    for index in range(pair.count):
        pair.deal(
            index, int(rng.integers(2**63)), int(rng.integers(players)) if fixed is None else fixed
        )
    pair.same()
    for _ in range(steps):
        pair.write_masks()
        pair.same()
        actions: list[int] = []
        for index in range(pair.count):
            legal = np.flatnonzero(pair.masks[1][index])
            # Mostly legal, and a favourite for confirm and gifts so that publishes finish.
            if penalty and rng.random() < 0.02:
                actions.append(int(rng.integers(-1, 357)))
            elif legal.size:
                actions.append(int(legal[rng.integers(legal.size)]))
            else:
                actions.append(0)
        if not penalty:
            found = [games.first_illegal(actions) for games in (pair.compiled, pair.python)]
            assert found[0] == found[1]
        dealt = []
        for index in range(pair.count):
            if pair.python.over(index):
                if pair.rewards[1][index] > 0:
                    pair.seen.add("win")
                pair.deal(
                    index,
                    int(rng.integers(2**63)),
                    int(rng.integers(players)) if fixed is None else fixed,
                )
                dealt.append(index)
        pair.step(actions, dealt, penalty)
        pair.same()


@pytest.mark.parametrize(
    ("players", "seat", "penalty"),
    [(3, None, False), (4, 0, True), (5, 4, False), (5, None, True), (4, 2, False)],
)
def test_the_games_agree_call_by_call_r4_r5_r10_r16(
    players: int, seat: int | None, penalty: bool
) -> None:
    settings = Settings.of(
        players, opponents="random", seat=seat, illegal="penalty" if penalty else "raise"
    )
    pair = Pair(settings, 6)
    run(pair, 1500, np.random.default_rng(players * 10 + (seat or 0)), penalty)
    expected = {"draw", "choose", "take", "read", "play", "confirm", "novel", "win"}
    if seat == 4:
        expected.add("ordered discards")  # R15: the fifth seat discards two
    if penalty:
        expected.add("penalized")
    assert expected <= pair.seen, expected - pair.seen


def test_publishes_with_citations_and_gifts_agree_r4_r5() -> None:
    settings = Settings.of(4, opponents="random", seat=1)
    pair = Pair(settings, 8)
    run(pair, 4000, np.random.default_rng(11), False)
    assert {"cite", "gift", "flag"} <= pair.seen, {"cite", "gift", "flag"} - pair.seen


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5]), st.booleans())
def test_random_runs_agree(seed: int, players: int, penalty: bool) -> None:
    settings_ = Settings.of(players, opponents="random", illegal="penalty" if penalty else "raise")
    pair = Pair(settings_, 3)
    run(pair, 150, np.random.default_rng(seed), penalty)


def test_the_first_illegal_action_names_the_game_and_its_decision() -> None:
    settings_ = Settings.of(3, opponents="random", seat=2)
    pair = Pair(settings_, 2)
    pair.deal(0, 7, 2)
    pair.deal(1, 8, 2)
    for games in (pair.compiled, pair.python):
        assert games.first_illegal([0, 4]) == (0, 2, 0, int(Stage.START))  # draw at setup
        assert games.first_illegal([-1, 4]) == (0, 2, 0, 0)
        assert games.first_illegal([4 + 20, 0])[0] in (0, 1)


def test_a_layout_that_is_no_encoders_is_an_error() -> None:
    args = list(arguments(Settings.of(3, opponents="random"), 2))
    compiled = twin(EPISODES)
    with pytest.raises(TypeError):
        compiled(*args[:11], (0, 1, 2, "3", 4, 5, 6), *args[12:])
    with pytest.raises(TypeError, match="the decision fields"):
        compiled(*args[:11], 5, *args[12:])  # no sequence
    with pytest.raises(ValueError, match="expected 7 integers"):
        compiled(*args[:11], (0, 1, 2), *args[12:])
    with pytest.raises(ValueError, match="a decision field is off the observation"):
        compiled(*args[:11], (0, 1, 2, 3, 4, 5, 1541), *args[12:])
    with pytest.raises(ValueError, match="not the catalogue's"):
        compiled(*args[:13], 358)
    with pytest.raises(TypeError, match="14 arguments"):
        compiled(*args[:13])


def test_refused_where_the_engine_must_play() -> None:
    for opponents, render in (("greedy", None), (["random", "greedy"], "ansi")):
        settings_ = Settings.of(3, opponents=opponents, render_mode=render)
        with pytest.raises(OverflowError, match="beyond the compiled kernel's range"):
            twin(EPISODES)(*arguments(settings_, 2))


def test_the_environment_is_the_same_with_and_without_the_kernel() -> None:
    def play(envs: Any) -> list[Any]:
        rng = np.random.default_rng(4)
        out = [envs.reset(seed=3)[0]]
        for _ in range(400):
            masks = envs.action_masks()
            scores = rng.random(masks.shape)
            scores[~masks] = -1
            observations, rewards, terminations, _, infos = envs.step(scores.argmax(axis=1))
            out += [observations, rewards, terminations, sorted(infos)]
        out.append([envs.game_seed(i) for i in range(envs.num_envs)])
        out.append([envs.game_moves(i) for i in range(envs.num_envs)])
        out.append([envs.game(i) for i in range(envs.num_envs)])
        return out

    compiled = vector_env(4, players=4, opponents="random", normalize=True)
    assert not isinstance(compiled._games, vector_module._PythonEpisodes) or EPISODES.built is None
    with switched_off("episodes"):
        python = vector_env(4, players=4, opponents="random", normalize=True)
    assert isinstance(python._games, vector_module._PythonEpisodes)
    for a, b in zip(play(compiled), play(python), strict=True):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
        else:
            assert a == b
    for index in range(compiled.num_envs):  # a copy of the packed game is a whole game
        game = compiled.game(index)
        check_invariants(game)
        assert game == python.episodes[index].game


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    envs = vector_env(3, players=3, opponents="random", seat=2, illegal="raise")
    before, _ = envs.reset(seed=7)
    masks = envs.action_masks()
    legal = [int(np.flatnonzero(row)[0]) for row in masks]
    with pytest.raises(
        IllegalMoveError, match=r"atomic action 'draw' is not legal now \(player 2, keep, start\)"
    ):
        envs.step([legal[0], 0, legal[2]])
    assert np.array_equal(envs.action_masks(), masks)
    assert [envs.game_moves(i) for i in range(3)] == [0, 0, 0]
    observations, *_ = envs.step(legal)
    assert not np.array_equal(observations, before)


def test_malformed_arguments_are_errors_and_change_no_game() -> None:
    settings_ = Settings.of(3, opponents="random", seat=0)
    games = twin(EPISODES)(*arguments(settings_, 2))
    raw = np.zeros((2, 1541), dtype=np.float32)
    games.deal(0, 1, 0, (None, 5, 6), raw)
    games.deal(1, 2, 0, (None, 5, 6), raw)
    before = [games.state(index) for index in range(2)]
    with pytest.raises(TypeError):
        games.over("0")
    with pytest.raises(IndexError, match="no game 2 of 2"):
        games.moves(2)
    with pytest.raises(TypeError):
        games.deal(0, 1, "0", (None, 5, 6), raw)  # a seat that is no integer
    with pytest.raises(TypeError, match="a seed is an integer"):
        games.deal(0, "1", 0, (None, 5, 6), raw)
    with pytest.raises(ValueError, match="seat is beyond the players"):
        games.deal(0, 1, 3, (None, 5, 6), raw)
    with pytest.raises(ValueError, match="one opponent seed per seat"):
        games.deal(0, 1, 0, (None, 5), raw)
    with pytest.raises(TypeError):
        games.deal(0, 1, 0, (None, 5, "6"), raw)
    with pytest.raises(ValueError, match="raw must hold 2 x 1541"):
        games.deal(0, 1, 0, (None, 5, 6), np.zeros((1, 1541), dtype=np.float32))
    with pytest.raises(TypeError):
        games.first_illegal(["4", 4])  # an action that is no integer
    with pytest.raises(ValueError, match="one action per game"):
        games.first_illegal([4])
    rewards, terminations = np.zeros(2), np.zeros(2, dtype=bool)
    with pytest.raises(TypeError):
        games.step([0, "0"], (), raw, rewards, terminations, True)
    with pytest.raises(ValueError, match="rewards must hold"):
        games.step([0, 0], (), raw, np.zeros(3), terminations, True)
    with pytest.raises(IndexError):
        games.step([0, 0], (5,), raw, rewards, terminations, True)
    with pytest.raises(ValueError, match="masks must hold"):
        games.write_masks(np.zeros((2, 356), dtype=bool))
    assert [games.state(index) for index in range(2)] == before


def test_calls_free_what_they_allocate() -> None:
    settings_ = Settings.of(3, opponents="random", seat=0)
    args = arguments(settings_, 2)
    games = twin(EPISODES)(*args)
    raw = np.zeros((2, 1541), dtype=np.float32)
    masks = np.zeros((2, 357), dtype=bool)
    rewards, terminations = np.zeros(2), np.zeros(2, dtype=bool)
    actions, none = [4 + 1, 4 + 2], ()

    def calls() -> None:
        games.deal(0, 1, 0, (None, 5, 6), raw)
        games.deal(1, 2, 0, (None, 5, 6), raw)
        games.write_masks(masks)
        games.first_illegal(actions)
        games.step(actions, none, raw, rewards, terminations, True)

    calls()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(20):
            calls()
        assert tracemalloc.get_traced_memory()[0] - before == 0
    finally:
        tracemalloc.stop()
    assert leaked(EPISODES, *args, calls=5) == 0  # making and dropping the object
