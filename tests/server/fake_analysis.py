"""A small deterministic stand-in for the analysis engine, for the service's tests.

``fake_analyse(view, budget_ms=..., seed=...)`` ranks moves it builds from the
view alone (the hand, the drawn cards, the table and the publish options of a
position made from the view) and returns a document that follows the ``hint``
contract: same input, same bytes. It knows nothing the view does not show.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from pastiche_core import Catalogue, Masterpiece, Phase, PlayerView, Position, solve
from pastiche_core.solver.gifts import LowestCardsPolicy, to_publish

HINT_FORMAT = "pastiche-hint"


@dataclass(frozen=True)
class FakeAnalysis:
    """The answer: its ``to_dict()`` is the hint document."""

    document: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.document)


def _position(view: PlayerView) -> Position:
    masterpieces = tuple(
        Masterpiece(f"{owner}:{novel.novel}", owner, novel.cards[0])
        for owner, table in enumerate(view.tables)
        for novel in table
        if len(novel.cards) == 1
    )
    catalogue = Catalogue.default()
    return Position(
        player=view.player,
        hand=view.hand,
        masterpieces=masterpieces,
        held_novels=frozenset(novel.novel for novel in view.tables[view.player]),
        supply={
            novel: copies
            for novel, copies in view.supply
            if novel in catalogue and catalogue[novel].publishable
        },
        catalogue=catalogue,
    )


def candidate_moves(view: PlayerView) -> list[str]:
    """Moves the view's player may make, in notation (every kind, publishes as R8 options)."""
    if view.to_move != view.player or view.phase is Phase.OVER:
        return []
    if view.phase is Phase.KEEP:
        return ["keep " + " ".join(map(str, kept)) for kept in itertools.combinations(view.hand, 3)]
    if view.phase is Phase.CHOOSE:
        assert view.pending is not None
        return [f"choose {card}" for card in view.pending]
    if view.phase is Phase.FLAG:
        return [f"flag {card}" for card in view.hand]
    moves: list[str] = []
    if view.deck_size or view.discard:
        moves.append("draw")
    if view.discard:
        moves.append("take")
    reads = [
        f"read {owner}:{novel.novel} {card}"
        for owner, table in enumerate(view.tables)
        for novel in table
        if len(novel.cards) >= 2
        for card in novel.cards
    ]
    moves.extend(reads)
    position = _position(view)
    report = solve(position, time_limit=1.0, max_options=20)
    policy = LowestCardsPolicy()
    moves.extend(str(to_publish(option, position, policy)) for option in report.options)
    if not moves:
        moves.append("pass")
    return moves


def fake_analyse(view: PlayerView, *, budget_ms: int, seed: int) -> FakeAnalysis:
    """Rank the view's moves: publishes first by points, the rest in a seeded order."""
    moves = candidate_moves(view)
    rng = random.Random(f"{seed}:{view.turn}:{view.player}")
    shuffled = moves[:]
    rng.shuffle(shuffled)
    ranked = sorted(shuffled, key=lambda move: (not move.startswith("publish"), -len(move)))[:5]
    count = len(ranked)
    entries = [
        {
            "move": move,
            "win_probability": round((count - index) / (count + 1), 3),
            "margin": round(1.5 - index, 1),
            "visits": 100 - 10 * index,
            "explanation": f"fake analysis: choice {index + 1} of {len(moves)}",
        }
        for index, move in enumerate(ranked)
    ]
    return FakeAnalysis(
        {
            "format": HINT_FORMAT,
            "version": 1,
            "player": view.player,
            "phase": view.phase.value,
            "budget_ms": budget_ms,
            "seed": seed,
            "complete": True,
            "moves": entries,
        }
    )
