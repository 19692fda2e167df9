"""The search and its bot: legal candidates, reproducible answers, budgets, a full game."""

from __future__ import annotations

import importlib
import pickle
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_support import mixed_bots, played

from pastiche_core import (
    DECK,
    Catalogue,
    Draw,
    Game,
    InvalidArgumentError,
    Move,
    Pass,
    Phase,
    Publish,
    Read,
    TakeDiscard,
    play_game,
)
from pastiche_core.ai.analyse import analyse
from pastiche_core.ai.determinize import Knowledge, determinize
from pastiche_core.ai.greedy import GreedyBot
from pastiche_core.ai.playout import PlayoutPolicy, PolicyBot
from pastiche_core.ai.roster import search_bot
from pastiche_core.ai.search import (
    ANCHOR_MARGIN,
    FINISH_ROUNDS,
    FINISH_WITHIN,
    HORIZON_ROUNDS,
    MAX_BUDGET_MS,
    MAX_SIMULATIONS,
    PUBLISH_OPTIONS,
    RIVAL_BUDGET_MS,
    RIVAL_COUNTED_COST,
    RIVAL_DECISION_COST,
    RIVAL_LISTING_COST,
    RIVAL_ROUNDS,
    RIVAL_WEIGHED_COST,
    SIMULATIONS_PER_MS,
    LeastFitPolicy,
    SearchBot,
    Settings,
    _RivalModel,
    _Searcher,
    candidate_moves,
    ceiling,
    check_budget,
    greedy_move,
    rival_charge,
    search,
    settings_for,
    simulations_for,
)
from pastiche_core.ai.visible import position_of
from pastiche_core.bots.play import derive_seed
from pastiche_core.data.limits import Deadline
from pastiche_core.engine.game import END_THRESHOLD, LegalMoves
from pastiche_core.engine.game_internals import insides, publish_moves
from pastiche_core.engine.view import PlayerView
from pastiche_core.solver.gifts import to_publish
from pastiche_core.solver.options import PublishOption, option_key
from pastiche_core.solver.position import Position
from pastiche_core.solver.queries import best, solve
from pastiche_core.solver.report import GOALS

search_module = importlib.import_module("pastiche_core.ai.search")


@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    decisions=st.integers(0, 160),
)
def test_the_compact_action_set_is_legal_and_covers_every_kind(
    players: int, seed: int, decisions: int
) -> None:
    game = played(players, seed, decisions)
    if game.is_over:
        assert candidate_moves(game.view(0)) == ([], True)
        return
    seat = game.to_move
    assert candidate_moves(game.view((seat + 1) % players)) == ([], True)  # not their decision
    moves, whole = candidate_moves(game.view(seat))
    assert whole
    assert moves
    assert len(set(moves)) == len(moves)
    for move in moves:
        assert move in game.legal_moves, move
    if game.phase is not Phase.ACTION:  # every keep, choice and End Flag card, as they are
        assert set(moves) == set(game.legal_moves)
        return
    # Every Write, Read and Pass (built here: listing the legal moves would list every
    # card-level publish, millions in some positions), and some publish if there is one.
    others: list[Move] = [Draw(), TakeDiscard(), Pass()]
    others += [
        Read(novel.ref, card)
        for seat in range(players)
        for novel in game.table(seat)
        for card in novel.cards
    ]
    for move in others:
        assert (move in moves) == (move in game.legal_moves), move
    if next(publish_moves(game), None) is not None:
        assert any(isinstance(move, Publish) for move in moves)
    # The best publish of every solver goal is a candidate (R8, R9).
    position = position_of(game.view(seat))
    keys = {_key(game, seat, move) for move in moves if isinstance(move, Publish)}
    for goal in GOALS:
        found = best(position, goal=goal)
        if found is not None:
            assert option_key(position, found.option) in keys, goal


def _key(game: Game, seat: int, move: Publish) -> object:
    """The R8 key of a publish move: Novel, played ranks, (owner or -1, rank) of citations."""
    cited = []
    for ref in move.cited:
        novel = insides(game).novel(ref)
        assert novel is not None
        cited.append((-1 if ref.owner == seat else ref.owner, novel.cards[0].rank))
    played = tuple(sorted(card.rank for card in move.played))
    return (move.novel, played, tuple(sorted(cited)))


def test_publish_candidates_carry_the_least_fit_gifts() -> None:
    # R5: each solver option owing gifts becomes a candidate with LeastFitPolicy's gifts
    # (the greedy bot's were tried instead and won fewer games on fresh seeds, benchmarks/results/).
    game = played(4, 0, 40)
    view = game.view(game.to_move)
    position = position_of(view)
    options = [o for o in solve(position, max_options=PUBLISH_OPTIONS).options if o.gift_count]
    assert len(options) >= 2
    moves, _ = candidate_moves(view)
    for option in options:
        move = to_publish(option, position, LeastFitPolicy())
        assert move in moves, option
        assert len(move.gifts) == option.gift_count


def test_search_is_reproducible_and_follows_the_seed() -> None:
    view = played(4, 21, 44).view(played(4, 21, 44).to_move)
    one = search(view, simulations=30, seed=5)
    assert search(view, simulations=30, seed=5) == one
    assert one.simulations_run == 30
    assert sum(item.visits for item in one.moves) == 30
    other = search(view, simulations=30, seed=6)
    assert [m.visits for m in other.moves] != [m.visits for m in one.moves] or (
        [m.win for m in other.moves] != [m.win for m in one.moves]
    )


def test_ranking_puts_tried_moves_first_by_round_then_estimate() -> None:
    game = played(4, 3, 60)
    view = game.view(game.to_move)
    result = search(view, simulations=40, seed=1)
    assert len(result.moves) > 2
    tried = [item for item in result.moves if item.visits]
    keys = [(item.rounds, item.win) for item in tried]
    assert keys == sorted(keys, reverse=True)
    assert tried[0].rounds > tried[-1].rounds
    assert all(0.0 <= item.win <= 1.0 for item in result.moves)
    assert result.moves[: len(tried)] == tuple(tried)
    # The halving shares the budget on common deals; survivors get more simulations.
    assert tried[0].visits >= max(item.visits for item in tried[1:])
    ucb = search(view, simulations=40, seed=1, settings=Settings(root="ucb"))
    wins = [item.win for item in ucb.moves if item.visits]
    assert wins[1:] == sorted(wins[1:], reverse=True)  # the move played, then by estimate
    assert {item.rounds for item in ucb.moves} == {0}


def test_too_few_simulations_leave_moves_untried_and_say_so() -> None:
    game = Game(players=5, seed=2)  # seat 2 keeps 3 of 4: 4 keeps; seat 4 has 20 keeps
    for _ in range(2):
        game.apply(game.legal_moves[0])
    view = game.view(4)
    result = search(view, simulations=5, seed=0)
    assert len(result.moves) == 20
    assert not result.complete
    assert [item.visits for item in result.moves].count(0) == 15
    assert search(view, simulations=40, seed=0).complete


def test_the_deadline_is_a_ceiling() -> None:
    view = played(4, 3, 60).view(played(4, 3, 60).to_move)
    result = search(view, simulations=50, seed=1, deadline=time.monotonic() - 1)
    assert result.simulations_run == 0
    assert not result.complete
    assert result.moves  # still ranked, by the policy


def test_budgets_map_to_simulations_and_are_bounded() -> None:
    assert simulations_for(300) == round(300 * SIMULATIONS_PER_MS)
    assert simulations_for(MAX_BUDGET_MS) <= MAX_SIMULATIONS
    # With the greedy rival model the budget is the same; its work is charged as it runs.
    for rounds in (1, 2):
        rivals = Settings(rival_rounds=rounds)
        game = played(4, 3, 40)
        thought = SearchBot(1, budget_ms=300, settings=rivals).think(game.view(game.to_move))
        assert thought.simulations == simulations_for(300)
        counted = SearchBot(1, simulations=96, settings=rivals).think(game.view(game.to_move))
        assert counted.complete
        assert not counted.stopped
        assert 0 < counted.simulations_run < counted.simulations
    for bad in (0, -5, MAX_BUDGET_MS + 1, 2.5, "300", True, None):
        with pytest.raises(InvalidArgumentError, match="budget_ms"):
            check_budget(bad)
    with pytest.raises(InvalidArgumentError, match="simulations"):
        search(Game(players=3).view(2), simulations=0)
    with pytest.raises(InvalidArgumentError, match="not both"):
        SearchBot(budget_ms=10, simulations=10)


def test_the_bot_plays_a_whole_game_reproducibly() -> None:
    def game() -> Game:
        bots = [PolicyBot(seat) for seat in range(4)]
        bots[1] = SearchBot(7, simulations=6)  # type: ignore[call-overload]
        return play_game(players=4, seed=9, bots=bots)

    first = game()
    assert first.is_over
    assert game().history == first.history


def test_the_bot_pickles() -> None:
    bot = SearchBot(3, simulations=12)
    twin = pickle.loads(pickle.dumps(bot))
    assert repr(twin) == repr(bot) == "SearchBot(seed=3, simulations=12)"
    game = played(4, 14, 50)
    view = game.view(game.to_move)
    assert twin.choose(view, game.legal_moves) == bot.choose(view, game.legal_moves)
    timed = pickle.loads(pickle.dumps(SearchBot(3, budget_ms=40)))
    assert timed.budget_ms == 40
    assert timed.choose(view, game.legal_moves) in game.legal_moves


# ----------------------------------------------------------------------
# The anchor: the greedy bot's move, which the search must beat to play another
# ----------------------------------------------------------------------
ANCHOR_POSITIONS = [(4, 3, 60), (4, 21, 44), (4, 14, 50), (3, 8, 30), (5, 11, 70)]


@pytest.mark.parametrize(("players", "seed", "decisions"), ANCHOR_POSITIONS)
def test_the_anchor_is_the_greedy_bots_move_and_always_a_candidate(
    players: int, seed: int, decisions: int
) -> None:
    game = played(players, seed, decisions)
    view = game.view(game.to_move)
    anchor = greedy_move(view, Knowledge.of(view), 9)
    assert anchor is not None
    assert anchor in game.legal_moves
    # The greedy bot reads the view only (R16): the same move as the bot at the table.
    assert anchor == GreedyBot(9).choose(view, game.legal_moves)
    result = search(view, simulations=30, seed=4)
    moves = [item.move for item in result.moves]
    assert len(moves) == len(set(moves))
    tried = [item for item in result.moves if item.visits]
    # Never dropped by the halving: it took part in every round the search ran.
    rounds = max(item.rounds for item in tried)
    mine = greedy_move(view, result.knowledge, _anchor_seed(4))
    assert mine in moves
    assert next(item for item in result.moves if item.move == mine).rounds == rounds


def _anchor_seed(seed: int) -> int:
    """The seed :func:`search` gives the anchor's greedy bot."""
    return derive_seed(seed, "anchor")


@pytest.mark.parametrize(("players", "seed", "decisions"), ANCHOR_POSITIONS)
def test_the_search_plays_the_anchor_unless_another_move_does_clearly_better(
    players: int, seed: int, decisions: int
) -> None:
    game = played(players, seed, decisions)
    view = game.view(game.to_move)
    anchor = greedy_move(view, Knowledge.of(view), _anchor_seed(2))
    # A margin no move can beat (win probabilities are in [0, 1]): the anchor is played.
    stubborn = search(view, simulations=30, seed=2, settings=Settings(anchor_margin=1.0))
    assert stubborn.best == anchor
    # With the default margin the best move either is the anchor or beat it on the same deals.
    result = search(view, simulations=30, seed=2)
    assert result.best is not None
    assert result.best in game.legal_moves
    assert search(view, simulations=30, seed=2) == result
    assert 0 < ANCHOR_MARGIN < 0.1


def test_the_anchor_can_be_turned_off() -> None:
    game = played(4, 3, 60)
    view = game.view(game.to_move)
    plain = search(view, simulations=30, seed=1, settings=Settings(anchor=False))
    candidates, _ = candidate_moves(view)
    assert {item.move for item in plain.moves} == set(candidates)
    assert plain.simulations_run == 30
    ucb = search(view, simulations=30, seed=1, settings=Settings(root="ucb"))
    assert ucb.best is not None
    assert ucb.best in game.legal_moves


def _near_end_position() -> Game:
    """The first position of the mixed games with a seat 4 points or less from the End Flag."""
    for seed in range(40):
        game = Game(players=4, seed=seed)
        bots = mixed_bots(4, seed)
        while not game.is_over and insides(game).turns_left is None:
            if max(game.scores()) >= END_THRESHOLD - FINISH_WITHIN:
                return game
            player = game.to_move
            game.apply(bots[player].choose(game.view(player), game.legal_moves))
    raise AssertionError("no mixed game came near the End Flag")  # pragma: no cover


def test_near_the_end_flag_playouts_run_to_the_end_of_the_game_r12() -> None:
    """R12: within FINISH_WITHIN points of the End Flag a playout is scored at the game's end."""
    game = _near_end_position()
    view = game.view(game.to_move)
    knowledge = Knowledge.of(view)
    moves, _ = candidate_moves(view)
    dealt = determinize(view, random.Random(3), knowledge)
    ends = []
    for settings in (Settings(), Settings(finish_within=-1)):
        searcher = _Searcher(view, knowledge, moves, PlayoutPolicy(), settings, None)
        played_on = dealt.copy(history=False)
        searcher.simulate(moves[0], played_on, random.Random(5))
        ends.append(played_on)
    finished, stopped = ends
    limit = game.turn + FINISH_ROUNDS * 4
    assert finished.is_over or finished.turn == limit
    # Without it, the same playout stops at the horizon, before the end.
    assert not stopped.is_over
    assert stopped.turn == game.turn + HORIZON_ROUNDS * 4
    assert finished.turn > stopped.turn
    assert Settings().finish_within == FINISH_WITHIN
    assert FINISH_ROUNDS > HORIZON_ROUNDS


# ----------------------------------------------------------------------
# The rival model: the greedy bot for the other seats' first decisions
# ----------------------------------------------------------------------
def _record_rival_decisions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The greedy rival model's decisions from now on, as (seat, turn)."""
    calls: list[tuple[int, int]] = []
    real = _RivalModel.choose

    def choose(self: _RivalModel, view: PlayerView, legal: LegalMoves) -> Move:
        calls.append((view.player, view.turn))
        return real(self, view, legal)

    monkeypatch.setattr(_RivalModel, "choose", choose)
    return calls


def _rival_calls(
    monkeypatch: pytest.MonkeyPatch, rounds: int, players: int = 4, seed: int = 3
) -> tuple[Game, list[tuple[int, int]]]:
    """A mid-game search's greedy rival decisions, as (seat, turn), for ``rival_rounds=rounds``."""
    calls = _record_rival_decisions(monkeypatch)
    game = played(players, seed, 60)
    search(game.view(game.to_move), simulations=12, seed=1, settings=Settings(rival_rounds=rounds))
    return game, calls


@pytest.mark.parametrize("rounds", [0, 1, 2])
def test_rival_rounds_play_the_other_seats_as_the_greedy_bot_until_then(
    monkeypatch: pytest.MonkeyPatch, rounds: int
) -> None:
    game, calls = _rival_calls(monkeypatch, rounds)
    assert bool(calls) == (rounds > 0)
    assert all(seat != game.to_move for seat, _ in calls)  # never the searching player
    assert all(game.turn <= turn < game.turn + rounds * 4 for _, turn in calls)
    assert Settings().rival_rounds == 0  # the policy alone unless a budget or a caller asks


def test_the_rival_model_reads_each_seats_view_and_its_memory_changes_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = played(4, 5, 70)
    view = game.view(game.to_move)
    settings = Settings(rival_rounds=1)
    remembered = search(view, simulations=16, seed=2, settings=settings)
    assert remembered == search(view, simulations=16, seed=2, settings=settings)
    assert remembered.best in game.legal_moves
    # Without the memories every decision lists and weighs anew, and is charged as much:
    # the same search, move for move.
    real = _RivalModel.choose

    def forgetful(self: _RivalModel, view: PlayerView, legal: LegalMoves) -> Move:
        self._memo.clear()
        self._weighed.clear()
        return real(self, view, legal)

    monkeypatch.setattr(_RivalModel, "choose", forgetful)
    assert search(view, simulations=16, seed=2, settings=settings) == remembered


def _tally_rival_work(monkeypatch: pytest.MonkeyPatch) -> tuple[list[float], list[dict[str, int]]]:
    """What every simulation from now on starts with spent, and the rival model's work in it."""
    starts: list[float] = []
    work: list[dict[str, int]] = []
    simulate, charge = _Searcher.simulate, rival_charge

    def watched(self: _Searcher, *args: object) -> float | None:
        starts.append(self.spent())
        work.append({})
        return simulate(self, *args)  # type: ignore[arg-type]

    def tallied(**parts: int) -> float:
        for name, count in parts.items():
            work[-1][name] = work[-1].get(name, 0) + count
        return charge(**parts)

    monkeypatch.setattr(_Searcher, "simulate", watched)
    monkeypatch.setattr(search_module, "rival_charge", tallied)
    return starts, work


@pytest.mark.parametrize(("seed", "root"), [(5, "halving"), (8, "halving"), (5, "ucb")])
def test_the_rival_models_work_is_charged_to_the_budget_until_it_is_spent(
    monkeypatch: pytest.MonkeyPatch, seed: int, root: str
) -> None:
    game = played(4, seed, 70)
    view = game.view(game.to_move)
    starts, work = _tally_rival_work(monkeypatch)
    budget = 96
    result = search(view, simulations=budget, seed=1, settings=Settings(rival_rounds=1, root=root))
    assert result.complete
    assert not result.stopped
    assert len(starts) == result.simulations_run < budget
    # Each simulation costs one, plus its decisions and the listings they ask for.
    costs = [1 + rival_charge(**parts) for parts in work]
    assert all(parts.get("decisions") for parts in work)
    assert any(parts.get("listings") for parts in work)
    spent = [0.0]
    for cost in costs:
        spent.append(spent[-1] + cost)
    assert starts == pytest.approx(spent[:-1])
    # Every simulation started with at least one simulation of budget left, and the budget
    # is spent: less than one is left at the end.
    assert all(start <= budget - 1 for start in starts)
    assert spent[-1] > budget - 1


def test_a_crowded_position_buys_fewer_simulations_with_the_rival_model() -> None:
    """The charge follows the listings: the rival's cost is not a fixed multiple of a simulation."""
    runs = set()
    for seed in (3, 5, 8, 13):
        game = played(4, seed, 70)
        result = search(
            game.view(game.to_move), simulations=40, seed=1, settings=Settings(rival_rounds=1)
        )
        runs.add(result.simulations_run)
    assert len(runs) > 1


def test_rival_charges_add_up_their_parts() -> None:
    assert rival_charge() == 0
    assert rival_charge(decisions=3) == pytest.approx(3 * RIVAL_DECISION_COST)
    listing = rival_charge(listings=1, counted=500, weighed=40)
    assert listing == pytest.approx(
        RIVAL_LISTING_COST + 500 * RIVAL_COUNTED_COST + 40 * RIVAL_WEIGHED_COST
    )
    assert all(
        cost > 0
        for cost in (
            RIVAL_DECISION_COST,
            RIVAL_LISTING_COST,
            RIVAL_COUNTED_COST,
            RIVAL_WEIGHED_COST,
        )
    )


def test_the_rival_models_memory_of_publishes_weighed_is_the_greedy_bots_answer() -> None:
    # The memory is keyed by the position and what else the weighing reads: the scores, the
    # End Flag (R12), its trigger and the countdown. Views that differ in one of them only
    # are asked in turn; the model answers each as a fresh greedy bot does, move for move.
    from dataclasses import replace

    model = _RivalModel(1, Catalogue.default())
    bot = GreedyBot(1)
    weighed = 0
    for seed in (3, 8, 21, 34):
        game = played(4, seed, 90)
        if game.phase is not Phase.ACTION:
            continue
        view = game.view(game.to_move)
        leader = max(range(4), key=lambda seat: view.scores[seat])
        rival = (view.player + 1) % 4
        feared = list(view.scores)
        feared[rival] = END_THRESHOLD - 1  # a rival near the end: gifts to it cost more
        near = list(view.scores)
        near[view.player] = END_THRESHOLD - 2  # a publish now would earn the End Flag (R12)
        close = replace(view, scores=tuple(near))
        unseen = next(card for card in DECK if card not in view.hand)
        # Each variant differs from the one before it in one part of the memory's key.
        variants = [
            view,
            replace(view, hand=view.hand[1:]),  # the position
            replace(view, scores=tuple(feared)),  # the scores
            close,
            replace(close, flag=(leader, unseen)),  # the End Flag taken, no countdown yet
            replace(close, trigger=leader),  # a countdown's trigger without the Flag
            replace(view, turns_left=2, trigger=leader),  # the countdown
            replace(view, turns_left=9, trigger=leader),
        ]
        for variant in variants * 2:
            # Every value weighed, not only the move chosen, is the greedy bot's.
            assert model._action(variant, game.legal_moves) == bot._action(
                variant, game.legal_moves
            )
            assert model.choose(variant, game.legal_moves) == bot.choose(variant, game.legal_moves)
        weighed += 1
    assert weighed >= 3
    assert model._weighed  # the memory was used


@pytest.mark.parametrize("rounds", [-1, 11, 1.5, True, "1"])
def test_rival_rounds_are_a_whole_number_of_rounds_from_0_to_10(rounds: object) -> None:
    with pytest.raises(InvalidArgumentError, match="rival_rounds must be an integer"):
        Settings(rival_rounds=rounds)  # type: ignore[arg-type]


def test_a_budget_from_rival_budget_ms_models_the_other_seats_with_the_greedy_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert settings_for(RIVAL_BUDGET_MS - 1) == Settings()
    assert settings_for(RIVAL_BUDGET_MS) == Settings(rival_rounds=RIVAL_ROUNDS)
    assert RIVAL_ROUNDS >= 1
    # Every way to budget a search takes the budget's settings; a count of simulations does not.
    assert SearchBot(1, budget_ms=RIVAL_BUDGET_MS).settings == settings_for(RIVAL_BUDGET_MS)
    assert SearchBot(1, simulations=10).settings == Settings()
    named = search_bot(1, budget_ms=RIVAL_BUDGET_MS)
    assert named.settings == settings_for(RIVAL_BUDGET_MS)
    assert named.simulations == simulations_for(RIVAL_BUDGET_MS)
    with pytest.raises(InvalidArgumentError, match="settings must be a Settings"):
        SearchBot(1, settings="rivals")  # type: ignore[arg-type]
    calls = _record_rival_decisions(monkeypatch)
    game = played(4, 3, 60)
    view = game.view(game.to_move)
    below = analyse(view, budget_ms=RIVAL_BUDGET_MS - 1, seed=1)
    assert below.simulations == simulations_for(RIVAL_BUDGET_MS - 1)
    assert not calls
    rivals = analyse(view, budget_ms=RIVAL_BUDGET_MS, seed=1)
    assert rivals.simulations == simulations_for(RIVAL_BUDGET_MS)
    assert calls
    assert game.to_move not in {seat for seat, _ in calls}


def test_a_rival_solver_call_cut_by_the_ceiling_voids_its_simulation_and_stops_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The clock only ever stops a search: a hint that ran to its end is the same on any machine."""
    game = played(4, 5, 70)
    view = game.view(game.to_move)
    settings = Settings(rival_rounds=1)
    calls = 0
    real = GreedyBot._options

    def cut_on_the_third(
        self: GreedyBot, position: Position, clock: Deadline
    ) -> tuple[list[PublishOption], bool, int]:
        nonlocal calls
        calls += 1
        options, _, counted = real(self, position, clock)
        return options, calls < 3, counted  # the third listing is "cut short by the ceiling"

    monkeypatch.setattr(GreedyBot, "_options", cut_on_the_third)
    stopped = search(view, simulations=40, seed=2, settings=settings, deadline=ceiling(60))
    assert calls == 3
    assert not stopped.complete
    assert stopped.stopped
    assert stopped.simulations_run < 40
    assert stopped.best in game.legal_moves
    assert sum(item.visits for item in stopped.moves) == stopped.simulations_run
