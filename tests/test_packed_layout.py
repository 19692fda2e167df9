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
import struct
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pastiche_core import Game
from pastiche_core.data.cards import DECK, MAX_RANK
from pastiche_core.data.patterns import OfAKind, Pairs, Straight, Total
from pastiche_core.engine import layout
from pastiche_core.engine.feasibility import KIND_CODES, OWED_BITS
from pastiche_core.engine.game_internals import insides
from pastiche_core.rl import encoding_space
from pastiche_core.rl.encoding_space import ActionSpace, Stage
from pastiche_core.rl.observation import PHASES, ObservationEncoder

CSRC = Path(__file__).resolve().parents[1] / "src" / "pastiche_core" / "engine" / "csrc"
HEADER = CSRC / "layout.h"


def _defines(path: Path = HEADER, prefix: str = "PK_") -> dict[str, int]:
    """The ``#define NAME number`` lines of ``path`` whose name starts with ``prefix``."""
    found = {}
    pattern = rf"#define ({prefix}\w+) (0x[0-9A-Fa-f]+|\d+)\b"
    for name, value in re.findall(pattern, path.read_text()):
        found[name] = int(value, 0)
    return found


def _enum(path: Path, first: str) -> list[str]:
    """The names of the C ``enum { ... }`` of ``path`` that starts with ``first``, in order
    (each worth its position: these enums give no values)."""
    found = re.search(rf"enum\s*{{\s*({first}\b[^}}]*)}}", path.read_text())
    assert found is not None, f"no enum starting with {first} in {path.name}"
    names = [name.strip() for name in found.group(1).split(",")]
    assert all(re.fullmatch(r"[A-Z_]+", name) for name in names), names
    return names


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


def test_r16_the_c_episodes_number_the_actions_as_the_action_space_does() -> None:
    # episode.c copies rl/encoding_space.py's action layout: a change on one side fails here.
    episode = CSRC / "episode.c"
    defines = _defines(episode, "EP_")
    for name in ("DRAW", "TAKE", "PASS", "CONFIRM"):
        assert defines[f"EP_{name}"] == getattr(ActionSpace, name), name
    blocks = _enum(episode, "EP_DISCARD")
    assert blocks[-1] == "EP_BLOCK_COUNT"
    cards = _defines()["PK_CARDS"]
    for at, block in enumerate(blocks[:-1]):
        # EP_BASE(block): EP_BLOCKS + block * PK_CARDS
        start = defines["EP_BLOCKS"] + at * cards
        assert start == ActionSpace.block_start(block.removeprefix("EP_").lower()), block
    # EP_NOVEL_BASE: EP_BLOCKS + EP_BLOCK_COUNT * PK_CARDS
    novel_base = defines["EP_BLOCKS"] + (len(blocks) - 1) * cards
    assert novel_base == encoding_space.NOVEL_BASE == ActionSpace.block_start("novel")
    for name in ("READ", "PLAY", "CITE"):
        start = defines["EP_BLOCKS"] + blocks.index(f"EP_{name}") * cards
        assert start == getattr(encoding_space, f"{name}_BASE"), name
    stages = _enum(episode, "EP_START")
    assert [stage.removeprefix("EP_") for stage in stages] == [stage.name for stage in Stage]
    assert [stages.index(f"EP_{stage.name}") for stage in Stage] == [int(s) for s in Stage]


def test_r16_the_c_kernels_number_phases_and_components_as_python_does() -> None:
    # masks.h: the kinds of a builder's last card, encoding_space.PLAY and CITE.
    masks = _defines(CSRC / "masks.h", "MK_")
    assert (masks["MK_PLAY"], masks["MK_CITE"]) == (encoding_space.PLAY, encoding_space.CITE)
    # game.h: the phases, in the order the observation one-hots them (observation.PHASES).
    phases = _enum(CSRC / "game.h", "GM_KEEP_PHASE")
    named = [phase.removeprefix("GM_").removesuffix("_PHASE").lower() for phase in phases]
    assert named == [phase.value for phase in PHASES]
    # observe.c: the phase count and the two phases it tests for.
    observe = _defines(CSRC / "observe.c", "OBS_PHASE")
    assert observe["OBS_PHASES"] == len(PHASES)
    assert observe["OBS_PHASE_FLAG"] == [phase.name for phase in PHASES].index("FLAG")
    assert observe["OBS_PHASE_OVER"] == [phase.name for phase in PHASES].index("OVER")


def test_r16_the_c_observation_writes_the_fields_in_the_encoders_order() -> None:
    # observe.c's field enum and episode.c's decision enum name the encoder's fields by position.
    encoder = ObservationEncoder(players=4)
    fields = _enum(CSRC / "observe.c", "F_HAND")
    assert fields[-1] == "OBS_FIELDS"
    pairs = encoder.layout()
    assert len(pairs) // 8 == len(fields) - 1
    for at, name in enumerate(fields[:-1]):
        field = encoder.field(name.removeprefix("F_").lower())
        assert struct.unpack_from("=ii", pairs, 8 * at) == (field.offset, field.size), name
    building = _enum(CSRC / "episode.c", "B_STAGE")
    assert building[-1] == "B_FIELDS"
    names = ["stage", *(f"building_{n}" for n in ("played", "cited", "gifts", "discards"))]
    names += ["building_novel", "gifts_owed"]
    assert [name.removeprefix("B_").lower() for name in building[:-1]] == [
        name.split("_")[-1] for name in names
    ]
    assert encoder.decision_fields() == tuple(encoder.field(name).offset for name in names)


def _one_parameter(kind: type, value: int) -> object:
    """A pattern of ``kind`` of size parameter ``value`` (a Total's target: the count's least)."""
    return Total(value, value) if kind is Total else kind(value)


def test_r3_the_c_kernels_take_the_pattern_sizes_the_patterns_allow() -> None:
    """counting.c's and playouts.c's bounds of each kind's parameter are the patterns' own
    (``data.patterns`` checks them against ``data.limits``): a kernel bound narrower than the
    pattern would refuse catalogues Python plays, a wider one would read beyond its tables."""
    counting = _defines(CSRC / "counting.c", "PC_")
    playouts = _defines(CSRC / "playouts.c", "PP_")
    for name, kind in (
        ("STRAIGHT", Straight),
        ("OF_A_KIND", OfAKind),
        ("PAIRS", Pairs),
        ("TOTAL", Total),
    ):
        low, high = counting[f"PC_{name}_LOW"], counting[f"PC_{name}_HIGH"]
        _one_parameter(kind, low)
        _one_parameter(kind, high)
        for outside in (low - 1, high + 1):
            try:
                _one_parameter(kind, outside)
            except ValueError:
                continue
            raise AssertionError(f"{kind.__name__}({outside}) is a pattern: PC_{name} is narrower")
        if name != "STRAIGHT":
            assert playouts[f"PP_MAX_{name}"] == high, name
    assert playouts["PP_MAX_RANK"] == counting["PC_STRAIGHT_HIGH"] == MAX_RANK
