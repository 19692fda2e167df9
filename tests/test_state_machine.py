"""Random legal games for 3, 4 and 5 players, checking the invariants after every step.

A Hypothesis state machine plays legal moves chosen by a drawn index, and tries
plausible moves that must either be legal or be rejected without changing
anything. After every step the state passes the library's invariants
(:func:`~pastiche_core.io.invariants.check_invariants`) and loads back from its
JSON without its history. At the end it finishes the game (which always
terminates), loads its state with the history (replayed, R14) and replays it
from the seed and the history.
"""

from __future__ import annotations

import itertools
import random

from builders import (
    MAX_GAME_MOVES,
    MOVE_CAP,
    assert_invariants,
    assert_rejected,
    legal_prefix,
    plausible_moves,
    play_random,
)
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from pastiche_core import Game, Keep, Move, Phase, Publish, check_invariants
from pastiche_core.engine.game_internals import insides
from pastiche_core.io import state_from_dict, state_to_dict


def listed_form(game: Game, move: Move) -> Move:
    """``move`` as the legal moves list it: a keep states its discard order only for two (R15).

    A keep without an order is accepted as the card-order discard; a keep that
    orders a single discard is the plain keep.
    """
    if not isinstance(move, Keep) or game.phase is not Phase.KEEP:
        return move
    dropped = sorted(set(game.hand(game.to_move)) - set(move.cards))
    if len(dropped) == 2 and not move.discard:
        return Keep(move.cards, tuple(dropped))
    if len(dropped) == 1 and move.discard and list(move.discard) == dropped:
        return Keep(move.cards)
    return move


class PasticheMachine(RuleBasedStateMachine):
    """One game, driven by Hypothesis."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game(3, 0)
        self.legal = self.game.legal_moves
        self.players = 3
        self.seed = 0

    @initialize(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1))
    def deal(self, players: int, seed: int) -> None:
        self.players, self.seed = players, seed
        self.game = Game(players, seed)
        self.legal = self.game.legal_moves  # a view kept across moves follows the game

    def _not_over(self) -> bool:
        return not self.game.is_over

    @precondition(_not_over)
    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """Any legal move, by index into the enumeration.

        Past MOVE_CAP moves the enumeration is not built: the index then goes
        through ``legal_moves[i]`` when the legal moves can be indexed.
        """
        game = self.game
        moves = legal_prefix(game, MOVE_CAP + 1)
        assert moves
        legal = game.legal_moves
        if len(moves) > MOVE_CAP and hasattr(legal, "__getitem__"):
            index = data.draw(st.integers(0, len(legal) - 1), label="index")
            move = legal[index]
            if index < len(moves):
                assert move == moves[index]
        else:
            moves = moves[:MOVE_CAP]
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="index")]
        self._play(move)

    @precondition(_not_over)
    @rule(data=st.data())
    def play_quiet_move(self, data: st.DataObject) -> None:
        """A legal move other than a publish, so that games also run the deck down."""
        moves = [m for m in legal_prefix(self.game) if not isinstance(m, Publish)]
        if moves:
            self._play(moves[data.draw(st.integers(0, len(moves) - 1), label="index")])

    def _play(self, move: Move) -> None:
        game = self.game
        assert game.is_legal(move)
        assert move in game.legal_moves
        turn, history = game.turn, len(game.history)
        game.apply(move)
        assert game.history[-1] == move
        assert len(game.history) == history + 1
        assert game.turn in (turn, turn + 1)

    @rule(data=st.data())
    def try_illegal_move(self, data: st.DataObject) -> None:
        """An illegal move from a pool of plausible ones is rejected and changes nothing."""
        game = self.game
        rng = data.draw(st.randoms(use_true_random=False), label="rng")
        pool = plausible_moves(game, rng)
        enumerated = legal_prefix(game, MOVE_CAP + 1)
        complete = len(enumerated) <= MOVE_CAP
        legal_set = set(enumerated)
        illegal: list[Move] = []
        for move in pool:
            legal = game.is_legal(move)
            assert legal == (move in game.legal_moves), move
            if complete:  # the enumeration is complete: it must agree with the rule path
                assert legal == (listed_form(game, move) in legal_set), move
            if not legal:
                illegal.append(move)
        if illegal:
            assert_rejected(game, illegal[data.draw(st.integers(0, len(illegal) - 1))])

    @invariant()
    def state_is_consistent(self) -> None:
        game = self.game
        assert_invariants(game)
        check_invariants(game)  # every reachable state passes them
        assert state_from_dict({**state_to_dict(game), "history": []}) == game
        assert game.players == self.players
        # Scores come from Masterpieces and the End Flag only (R13).
        for p in range(game.players):
            points = insides(game).masterpiece_points(p)
            if game._flag is not None and game._flag[0] == p:
                points += game.catalogue.end_flag.points
            assert game.scores()[p] == points
        # Exactly the over game has no legal move.
        assert game.is_over == (not game.legal_moves)
        fresh = legal_prefix(game, 50)
        assert list(itertools.islice(self.legal, 50)) == fresh
        if len(fresh) < 50:
            assert len(self.legal) == len(fresh)
        if game.phase is Phase.KEEP:
            assert game.turn == 0
            assert game.deck_size >= 49 - 19
        if game._trigger is not None:
            assert insides(game).masterpiece_points(game._trigger) >= 15

    def teardown(self) -> None:
        game = self.game
        played = play_random(game, random.Random(self.seed))
        assert game.is_over, f"not over after {played} more moves"
        assert len(game.history) <= MAX_GAME_MOVES
        assert_invariants(game)
        check_invariants(game)
        assert state_from_dict(state_to_dict(game)) == game
        replay = Game(self.players, self.seed)
        for move in game.history:
            replay.apply(move)
        assert replay == game
        assert replay.result == game.result


PasticheMachine.TestCase.settings = settings(stateful_step_count=50)
TestPasticheMachine = PasticheMachine.TestCase
