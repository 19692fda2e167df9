"""The packed layout the compiled kernels read: one set of numbers, kept by games and views (R16).

``layout.py`` documents the card table, the plan and the rank vectors;
``csrc/layout.h`` states the same numbers for the C. A game keeps its card table
move by move (the invariants check it after every move of the state machine);
a view's table, made from the game's by hiding what its player cannot see, is
the one its own fields describe.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Game
from pastiche_core.data.cards import DECK
from pastiche_core.data.patterns import OfAKind, Pairs, Straight, Total
from pastiche_core.engine import layout
from pastiche_core.engine.feasibility import KIND_CODES, OWED_BITS
from pastiche_core.engine.game_internals import insides

HEADER = (
    Path(__file__).resolve().parents[1] / "src" / "pastiche_core" / "engine" / "csrc" / "layout.h"
)


def _defines() -> dict[str, int]:
    found = {}
    for name, value in re.findall(r"#define (PK_\w+) (0x[0-9A-Fa-f]+|\d+)\b", HEADER.read_text()):
        found[name] = int(value, 0)
    return found


def test_the_c_header_states_the_layout_of_layout_py() -> None:
    defines = _defines()
    assert defines["PK_LAYOUT_VERSION"] == layout.LAYOUT_VERSION
    assert defines["PK_CARDS"] == layout.CARDS == len(DECK)
    assert defines["PK_NO_NOVEL"] == layout.NO_NOVEL
    for name, code in layout.PLACE.items():
        assert defines[f"PK_{name}"] == code, name
    assert defines["PK_SEAT_MASK"] == layout.SEAT_MASK
    assert defines["PK_PLACE_MASK"] == layout.PLACE_MASK
    assert defines["PK_OWED_BITS"] == OWED_BITS
    # The packed rules (R10, R12): each field's position, the seats, the size.
    for at, field in enumerate(layout.RULE_FIELDS[: layout.RULES_SIZE - layout.RULE_SEATS]):
        assert defines[f"PK_RULE_{field.upper()}"] == at, field
    assert defines["PK_RULE_DEAL_SIZES"] == layout.RULE_FIELDS.index("deal_sizes[0]")
    assert defines["PK_RULE_SEATS"] == layout.RULE_SEATS
    assert defines["PK_RULES_SIZE"] == layout.RULES_SIZE
    kinds = {Straight: "STRAIGHT", OfAKind: "OF_A_KIND", Pairs: "PAIRS", Total: "TOTAL"}
    for kind, code in KIND_CODES.items():
        assert defines[f"PK_KIND_{kinds[kind]}"] == code


def test_r1_a_cards_rank_follows_from_its_index() -> None:
    assert [layout.rank_of(card.index) for card in DECK] == [card.rank for card in DECK]


@settings(deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5), moves=st.integers(0, 200))
def test_r16_a_views_card_table_is_the_one_its_fields_describe(
    seed: int, players: int, moves: int
) -> None:
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves
        if game.is_over or not legal:
            break
        game.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.05 and game.history:
            game.undo()
    assert insides(game).card_table_is_current()
    for seat in range(players):
        view = game.view(seat)
        rebuilt = dataclasses.replace(view)  # no kept table: made from the fields
        assert rebuilt.card_table == view.card_table
        table = view.card_table
        hidden = {layout.HAND | other for other in range(players) if other != seat}
        hidden |= {layout.PILE_DOWN | other for other in range(players) if other != seat}
        assert not hidden & set(table[: layout.CARDS])  # nothing of another hand (R16)
        assert sorted(layout.hand_of(table, seat)) == [card.index for card in view.hand]
