"""Game play and position tools shared by the reinforcement-learning tests.

* :func:`complete_moves` walks every sequence of legal atomic actions from a
  builder and returns the move each one ends in (failing on a dead end);
* :func:`atomic_positions` plays a game with uniformly random atomic actions and
  returns copies of its positions;
* :func:`swap_hidden` exchanges cards a player cannot see, through the state JSON;
* :func:`load_example` imports a script of ``examples/`` as a module, without running it;
* :func:`assert_same` compares environments' answers: dicts key by key, arrays by dtype and value.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from pastiche_core import Catalogue, Game, Move, state_from_dict, state_to_dict
from pastiche_core.engine.view import setup_discarders
from pastiche_core.rl import ActionSpace, MoveBuilder

__all__ = [
    "EXAMPLES",
    "assert_same",
    "atomic_moves",
    "atomic_positions",
    "complete_moves",
    "hidden_slots",
    "load_example",
    "swap_hidden",
]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
"""The shipped example scripts."""


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py`` imported as a module (its ``main`` not called)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def assert_same(ours: Any, theirs: Any, where: str = "infos") -> None:
    """The same value, recursively: dicts key by key, arrays element by element (with the
    same dtype), anything else by ``==``; a difference names where it lies."""
    import numpy as np  # here: the scripts' tests import this module without NumPy

    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        assert set(ours) == set(theirs), f"{where}: {sorted(ours)} != {sorted(theirs)}"
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, np.ndarray) and theirs.dtype == object:
        assert isinstance(ours, np.ndarray), where
        assert ours.dtype == object, where
        assert ours.shape == theirs.shape, where
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(mine, other, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), where
        assert ours.dtype == theirs.dtype, f"{where}: {ours.dtype} != {theirs.dtype}"
        assert np.array_equal(ours, theirs), where
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def complete_moves(builder: MoveBuilder, limit: int = 100_000) -> list[Move]:
    """The move at the end of every sequence of legal atomic actions from ``builder``.

    Fails if some legal action leads to a state with no legal action (a dead
    end) or if a sequence runs longer than any decision can.
    """
    found: list[Move] = []

    def walk(current: MoveBuilder, depth: int) -> None:
        actions = current.legal_actions()
        assert actions, f"dead end after {depth} actions: {current!r}"
        assert depth < 64, f"a decision longer than 64 actions: {current!r}"
        for action in actions:
            twin = current.copy()
            move = twin.push(action)
            if move is None:
                walk(twin, depth + 1)
            else:
                found.append(move)
                assert len(found) <= limit, "more sequences than the test allows"

    walk(builder, 0)
    return found


def atomic_moves(game: Game, space: ActionSpace, rng: random.Random) -> tuple[Move, int]:
    """One move chosen by uniformly random atomic actions, and how many actions it took."""
    builder = MoveBuilder(space, game.view(game.to_move))
    steps = 0
    while True:
        actions = builder.legal_actions()
        assert actions, f"dead end: {builder!r}"
        move = builder.push(rng.choice(actions))
        steps += 1
        if move is not None:
            return move, steps


def atomic_positions(
    players: int, seed: int, catalogue: Catalogue | None = None, max_moves: int = 5000
) -> Iterator[Game]:
    """Copies of each position of a game played by random atomic actions, then the end."""
    game = Game(players, seed, catalogue)
    space = ActionSpace(game.catalogue)
    rng = random.Random(seed)
    for _ in range(max_moves):
        yield game.copy()
        if game.is_over:
            return
        move, _ = atomic_moves(game, space, rng)
        game.apply(move)
    raise AssertionError(f"game {seed} did not end within {max_moves} moves")


Slot = tuple[str, int, int]


def hidden_slots(data: dict[str, Any], player: int) -> list[Slot]:
    """Places of the state JSON ``data`` holding a card ``player`` cannot see."""
    slots: list[Slot] = []
    for seat, hand in enumerate(data["hands"]):
        if seat != player:
            slots.extend(("hands", seat, i) for i in range(len(hand)))
    slots.extend(("deck", 0, i) for i in range(len(data["deck"])))
    # Face-down cards are setup discards; the player's own are shown to them (R16).
    discarders = setup_discarders(data["players"])
    slots.extend(
        ("discard", 0, i)
        for i, entry in enumerate(data["discard"])
        if not entry["face_up"] and not (i < len(discarders) and discarders[i] == player)
    )
    if data["pending"] is not None and data["to_move"] != player:
        slots.extend(("pending", 0, i) for i in range(2))
    return slots


def _get(data: dict[str, Any], slot: Slot) -> str:
    field, seat, index = slot
    if field == "hands":
        return str(data["hands"][seat][index])
    if field == "discard":
        return str(data["discard"][index]["card"])
    return str(data[field][index])


def _put(data: dict[str, Any], slot: Slot, card: str) -> None:
    field, seat, index = slot
    if field == "hands":
        data["hands"][seat][index] = card
    elif field == "discard":
        data["discard"][index]["card"] = card
    else:
        data[field][index] = card


def swap_hidden(game: Game, player: int, rng: random.Random) -> tuple[Game, Game] | None:
    """``game`` twice, the second time with the cards ``player`` cannot see dealt anew.

    Both come from the state JSON without the history (whose setup moves name
    hidden cards); ``None`` if no card is hidden from ``player`` or the new deal
    is the same (cards moved only within one hand, say).
    """
    data = state_to_dict(game)
    data.pop("history")
    same = state_from_dict(data, catalogue=game.catalogue)
    slots = hidden_slots(data, player)
    cards = [_get(data, slot) for slot in slots]
    shuffled = cards.copy()
    rng.shuffle(shuffled)
    if shuffled == cards:
        return None
    for slot, card in zip(slots, shuffled, strict=True):
        _put(data, slot, card)
    twin = state_from_dict(data, catalogue=game.catalogue)
    return None if twin == same else (same, twin)
