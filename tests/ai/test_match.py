"""The bot registry and one match between named bots: validation, options, determinism, bounds."""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

import pytest

from pastiche_core import Catalogue, GameRecord, LegalMoves, Move, load_catalogue
from pastiche_core.ai import (
    BOT_OPTIONS,
    BOTS,
    GreedyBot,
    SearchBot,
    make_bot,
    match_result,
    play_match,
    roster,
    simulations_for,
)
from pastiche_core.bots.play import Bot, DecisionLimitError, RandomBot, derive_seed
from pastiche_core.data.errors import InvalidArgumentError, PasticheError
from pastiche_core.engine.view import PlayerView


class FirstMove:
    """A test bot that plays the first legal move and remembers the options it was given."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, seed: int, *, budget_ms: int | None = None) -> None:
        self.seed = seed
        FirstMove.made.append({"seed": seed, "budget_ms": budget_ms})

    def choose(self, view: PlayerView, legal: LegalMoves) -> Move:
        return legal[0]


@pytest.fixture
def first_move_bot(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``BOTS["first"]``: adding a bot is one entry in the registry."""
    monkeypatch.setitem(roster.BOTS, "first", FirstMove)
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(FirstMove, "made", made)
    return made


def test_the_registry_names_the_bots() -> None:
    assert list(BOTS) == ["random", "greedy", "search"]
    assert isinstance(make_bot("random", 4), RandomBot)
    assert isinstance(make_bot("greedy", 4), GreedyBot)
    searching = make_bot("search", 4, budget_ms=120)
    assert isinstance(searching, SearchBot)
    # a fixed number of simulations and no wall-clock ceiling: the same game under any load
    assert (searching.seed, searching.budget_ms) == (4, None)
    assert searching.simulations == simulations_for(120)
    assert BOT_OPTIONS == ("budget_ms", "catalogue")


def test_make_bot_passes_each_bot_only_the_options_it_takes() -> None:
    catalogue = load_catalogue("examples/catalogues/variant.toml")
    bot = make_bot("greedy", 5, catalogue=catalogue, budget_ms=300)
    assert isinstance(bot, GreedyBot)
    assert bot.catalogue == catalogue
    assert bot.seed == 5


@pytest.mark.parametrize(
    ("name", "seed", "options", "message"),
    [
        ("robot", 1, {}, "unknown bot 'robot': expected one of random, greedy, search"),
        (3, 1, {}, "unknown bot 3"),
        ("greedy", "1", {}, "seed must be an integer"),
        ("greedy", True, {}, "seed must be an integer"),
        ("greedy", 1, {"depth": 2}, "unknown bot option 'depth'"),
        ("greedy", 1, {"budget_ms": 0}, "budget_ms must be an integer from 1 to 10000, got 0"),
        ("greedy", 1, {"budget_ms": 1.5}, "budget_ms must be an integer from 1 to 10000, got 1.5"),
        ("greedy", 1, {"catalogue": "default"}, "catalogue must be a Catalogue"),
    ],
)
def test_make_bot_rejects_bad_input(
    name: Any, seed: Any, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make_bot(name, seed, **options)


def test_a_registered_bot_gets_its_seed_and_options(first_move_bot: list[dict[str, Any]]) -> None:
    record = play_match(9, ["first", "random", "first"], options={"budget_ms": 250})
    assert record.replay().is_over
    assert first_move_bot == [
        {"seed": derive_seed(9, "bot", 0), "budget_ms": 250},
        {"seed": derive_seed(9, "bot", 2), "budget_ms": 250},
    ]


def test_play_match_is_pure_and_replays() -> None:
    record = play_match(21, ["greedy", "random", "greedy", "random"])
    assert isinstance(record, GameRecord)
    assert (record.players, record.seed) == (4, 21)
    assert play_match(21, ["greedy", "random", "greedy", "random"]) == record
    assert play_match(22, ["greedy", "random", "greedy", "random"]) != record
    game = record.replay()
    assert game.is_over
    assert match_result(21, ["greedy", "random", "greedy", "random"]) == game.result


def test_play_match_seats_the_bots_from_the_seed() -> None:
    from pastiche_core import play_game

    bots: list[Bot] = [GreedyBot(derive_seed(8, "bot", 0))]
    bots += [RandomBot(derive_seed(8, "bot", seat)) for seat in (1, 2)]
    game = play_game(3, 8, bots=bots)
    assert play_match(8, ["greedy", "random", "random"]).moves == tuple(game.history)


def test_play_match_and_its_arguments_pickle() -> None:
    catalogue = Catalogue.default()
    args = (4, ("greedy", "random", "random"), 3, catalogue)
    again = pickle.loads(pickle.dumps((play_match, args)))
    assert again[0](*again[1]) == play_match(*args)


def test_play_match_with_a_custom_catalogue() -> None:
    catalogue = load_catalogue("examples/catalogues/variant.toml")
    record = play_match(3, ["greedy", "greedy", "random"], catalogue=catalogue)
    assert record.catalogue == catalogue
    assert record.replay().is_over


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["greedy", "random"]}, r"players must be from 3 to 5 \(R10\), got 2"),
        ({"bots": ["greedy"] * 3, "players": 4}, r"expected one bot per seat \(4\), got 3"),
        ({"bots": ["greedy"] * 3, "players": "3"}, "players must be an integer"),
        ({"bots": "greedy"}, "bots must be a list of bot names"),
        ({"bots": ["greedy", "random", "nobody"]}, "unknown bot 'nobody'"),
        ({"bots": ["greedy"] * 3, "seed": 1.5}, "seed must be an integer"),
        ({"bots": ["greedy"] * 3, "catalogue": "default"}, "catalogue must be a Catalogue"),
        ({"bots": ["greedy"] * 3, "options": {"speed": 1}}, "unknown bot option 'speed'"),
        ({"bots": ["greedy"] * 3, "options": {"catalogue": None}}, "catalogue argument"),
    ],
)
def test_play_match_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    call: dict[str, Any] = {"seed": 1, **kwargs}
    with pytest.raises(InvalidArgumentError, match=message):
        play_match(**call)


def test_play_match_is_bounded() -> None:
    with pytest.raises(DecisionLimitError, match="did not end within 10 decisions"):
        play_match(1, ["greedy", "random", "random"], max_decisions=10)
    assert issubclass(DecisionLimitError, PasticheError)
