"""Position JSON: round trips, the shipped examples and schemas, and every error path."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pastiche_core import DECK, Card, Catalogue, InvalidStateError, parse_cards
from pastiche_core.io.position_json import (
    SCHEMAS,
    load_position,
    load_query,
    position_from_dict,
    position_from_json,
    position_to_dict,
    position_to_json,
    query_from_dict,
    query_from_json,
    schema,
)
from pastiche_core.solver.options import Constraints, check_option, make_option
from pastiche_core.solver.position import Masterpiece, Position

jsonschema: Any = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions"
EXAMPLE_NAMES = ("opening", "midgame", "lategame", "jerome")

CONTRACT = {
    "player": 0,
    "hand": ["MYS7", "FAN7", "MYT6", "SCI9"],
    "masterpieces": [
        {"id": "m1", "owner": 0, "card": "SCI7"},
        {"id": "m2", "owner": 1, "card": "HOR7"},
    ],
    "held_novels": ["straight-5"],
    "supply": {"kind-3": 0},
    "catalogue": "default",
}
"""The position of the frontend contract, field for field."""

MINI_TOML = """
name = "mini"
[[novels]]
id = "pair"
name = "A Pair"
kind = "kind"
count = 2
points = 1
copies = 3
[[novels]]
id = "end-flag"
name = "End Flag"
kind = "end-flag"
points = 1
copies = 1
"""


def base() -> dict[str, Any]:
    """A fresh copy of the contract position, with constraints."""
    data = copy.deepcopy(CONTRACT)
    data["constraints"] = {"keep": ["SCI9"], "no_cite": [2], "max_gifts": 1, "min_points": 1}
    return data


def load_example(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def validator(name: str) -> Any:
    return jsonschema.Draft202012Validator(
        schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


# ----------------------------------------------------------------------
# Reading and writing
# ----------------------------------------------------------------------
def test_the_contract_position() -> None:
    pos = position_from_dict(CONTRACT)
    assert pos.player == 0
    assert pos.hand == tuple(sorted(parse_cards("MYS7 FAN7 MYT6 SCI9")))
    assert pos.masterpieces == (
        Masterpiece("m1", 0, Card.parse("SCI7")),
        Masterpiece("m2", 1, Card.parse("HOR7")),
    )
    assert pos.held_novels == frozenset({"straight-5"})
    assert pos.supply["kind-3"] == 0
    assert pos.supply["kind-5"] == 2  # missing ids keep all their copies
    assert pos.catalogue is Catalogue.default()
    assert pos == Position.quick(
        "MYS7 FAN7 MYT6 SCI9", "m1=0:SCI7 m2=1:HOR7", held="straight-5", supply={"kind-3": 0}
    )


def test_optional_fields_default() -> None:
    pos, constraints = query_from_dict({"player": 3, "hand": [], "masterpieces": []})
    assert pos == Position(player=3, hand=())
    assert constraints == Constraints()
    assert constraints.is_empty


def test_constraints_are_read() -> None:
    pos, constraints = query_from_dict(base())
    assert constraints == Constraints(
        keep=frozenset({Card.parse("SCI9")}), no_cite=frozenset({2}), max_gifts=1, min_points=1
    )
    assert position_from_dict(base()) == pos
    nulls = base()
    nulls["constraints"] = {"max_gifts": None, "min_points": None}
    assert query_from_dict(nulls)[1] == Constraints()


def test_cards_are_read_case_insensitively() -> None:
    data = base()
    data["hand"] = ["mys7", " fan7 ", "Myt6", "SCI9"]
    assert position_from_dict(data) == position_from_dict(base())


def test_to_dict_writes_every_field_in_order() -> None:
    pos = position_from_dict(CONTRACT)
    data = position_to_dict(pos)
    assert list(data) == ["player", "hand", "masterpieces", "held_novels", "supply", "catalogue"]
    assert data["hand"] == ["MYT6", "SCI9", "MYS7", "FAN7"]
    assert data["supply"] == {"kind-3": 0}
    assert data["catalogue"] == "default"
    assert "constraints" not in position_to_dict(pos, constraints=Constraints())
    with_constraints = position_to_dict(pos, constraints=Constraints(min_points=2))
    assert with_constraints["constraints"] == {"min_points": 2}


def test_json_text_round_trip() -> None:
    pos, constraints = query_from_dict(base())
    text = position_to_json(pos, constraints=constraints)
    assert query_from_json(text) == (pos, constraints)
    assert query_from_json(text.encode("utf-8")) == (pos, constraints)
    assert position_from_json(position_to_json(pos, indent=None)) == pos
    assert "\n" not in position_to_json(pos, indent=None)


def test_a_custom_catalogue_is_embedded_and_read_back() -> None:
    mini = Catalogue.from_toml(MINI_TOML)
    pos = Position.quick("SCI7 HOR7", "m1=1:MYS7", held="pair", supply={"pair": 1}, catalogue=mini)
    data = position_to_dict(pos)
    assert data["catalogue"] == mini.to_dict()
    assert position_from_dict(data) == pos
    assert position_from_dict(json.loads(json.dumps(data))).catalogue == mini


def test_r6_masterpieces_are_bounded_by_the_catalogue() -> None:
    # "mini" has one publishable Novel with 3 copies: one Masterpiece per owner, 3 in all.
    mini = Catalogue.from_toml(MINI_TOML)
    table = [{"id": f"m{i}", "owner": i, "card": card} for i, card in enumerate(["MYT1", "MYT2"])]
    data = {"player": 0, "hand": [], "masterpieces": table, "catalogue": mini.to_dict()}
    assert len(position_from_dict(data).masterpieces) == 2
    data["masterpieces"] = [*table, {"id": "m9", "owner": 1, "card": "MYT3"}]
    with pytest.raises(InvalidStateError) as info:
        position_from_dict(data)
    assert str(info.value) == (
        "$.masterpieces[2].owner: player 1 would hold more Masterpieces than the 1 publishable "
        "Novels of catalogue 'mini', and nobody holds one Novel twice (R6)"
    )
    data["masterpieces"] = [
        {"id": f"m{i}", "owner": i, "card": card}
        for i, card in enumerate(["MYT1", "MYT2", "MYT3", "MYT4"])
    ]
    with pytest.raises(InvalidStateError) as info:
        position_from_dict(data)
    assert str(info.value) == (
        "$.masterpieces: 4 Masterpieces, more than the 3 publishable copies of catalogue "
        "'mini' (R2, R6)"
    )
    with pytest.raises(InvalidStateError, match=r"^masterpieces: 4 Masterpieces, more than"):
        Position.quick("", "0:MYT1 1:MYT2 2:MYT3 3:MYT4", catalogue=mini)
    with pytest.raises(InvalidStateError, match=r"^masterpieces\[1\]\.owner: player 0 would"):
        Position.quick("", "0:MYT1 0:MYT2", catalogue=mini)


@pytest.mark.parametrize(
    "seat",
    [-1, 5, 990, 2**63, 10**18, 10**5000, True, 1.0, "1"],
    ids=["-1", "5", "990", "2**63", "10**18", "10**5000", "True", "1.0", "'1'"],
)
def test_r10_position_seats_are_0_to_4(seat: Any) -> None:
    with pytest.raises(InvalidStateError, match=r"^player: expected a seat from 0 to 4 \(R10\)"):
        Position(player=seat, hand=())
    card = Card.parse("SCI7")
    with pytest.raises(
        InvalidStateError, match=r"^masterpieces\[0\]\.owner: expected a seat from 0 to 4"
    ):
        Position(player=0, hand=(), masterpieces=(Masterpiece("m1", seat, card),))
    with pytest.raises(
        InvalidStateError, match=r"^constraints\.no_cite: expected seats from 0 to 4"
    ):
        Constraints(no_cite=frozenset({seat}))
    assert Position(player=4, hand=(), masterpieces=(Masterpiece("m1", 4, card),)).player == 4


def test_a_catalogue_path_is_relative_to_the_base_dir(tmp_path: Path) -> None:
    (tmp_path / "cats").mkdir()
    (tmp_path / "cats" / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    data = {
        "player": 0,
        "hand": ["SCI7"],
        "masterpieces": [],
        "held_novels": ["pair"],
        "catalogue": "cats/mini.toml",
    }
    pos = position_from_dict(data, base_dir=tmp_path)
    assert pos.catalogue.name == "mini"
    assert pos.held_novels == frozenset({"pair"})
    assert position_from_dict({**data, "catalogue": "./cats//mini.toml"}, base_dir=tmp_path) == pos
    # Only inside the folder of a file (R3): no absolute path, no folder for a bare document.
    absolute = {**data, "catalogue": str(tmp_path / "cats" / "mini.toml")}
    with pytest.raises(
        InvalidStateError, match=r"^\$\.catalogue: catalogue '.*'(\.\.\.)?: an absolute path"
    ):
        position_from_dict(absolute, base_dir=tmp_path)
    with pytest.raises(
        InvalidStateError,
        match=r"^\$\.catalogue: catalogue 'cats/mini.toml': a catalogue file is read only for "
        r"a position read from a file",
    ):
        position_from_dict(data)
    with pytest.raises(InvalidStateError, match=r"^\$\.catalogue: catalogue '.*': no such file"):
        position_from_dict(data, base_dir=tmp_path / "cats")


def test_load_position_reads_the_catalogue_next_to_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "positions"
    folder.mkdir()
    (folder / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    doc = {
        "player": 1,
        "hand": ["SCI7", "HOR7"],
        "masterpieces": [],
        "catalogue": "mini.toml",
        "constraints": {"keep": ["HOR7"]},
    }
    file = folder / "p.json"
    file.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.chdir(ROOT)
    pos, constraints = load_query(file)
    assert pos.catalogue.name == "mini"
    assert constraints.keep == frozenset({Card.parse("HOR7")})
    assert load_position(str(file)) == pos
    # The folder above is out of reach, even for a catalogue that is really there.
    (tmp_path / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    file.write_text(json.dumps({**doc, "catalogue": "../mini.toml"}), encoding="utf-8")
    with pytest.raises(InvalidStateError, match=r"^\$\.catalogue: catalogue '../mini.toml': '..'"):
        load_query(file)


def test_load_from_stdin() -> None:
    text = (EXAMPLES / "jerome.json").read_text(encoding="utf-8")
    expected = load_position(EXAMPLES / "jerome.json")
    assert load_position("-", stdin=io.StringIO(text)) == expected
    binary = io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + text.encode("utf-8")))
    assert load_position("-", stdin=binary) == expected  # a UTF-8 byte order mark is fine


def test_load_position_file_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidStateError, match=r"^position file '.*missing\.json': no such file$"):
        load_position(tmp_path / "missing.json")
    with pytest.raises(InvalidStateError, match=r"^position file '.*': "):
        load_position(tmp_path)  # a directory
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InvalidStateError, match=r"^\$: no input: expected a position JSON object$"):
        load_position(empty)


# ----------------------------------------------------------------------
# Examples and schemas
# ----------------------------------------------------------------------
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_validates_and_round_trips(name: str) -> None:
    data = load_example(name)
    validator("position").validate(data)
    pos, constraints = load_query(EXAMPLES / f"{name}.json")
    written = position_to_dict(pos, constraints=constraints)
    validator("position").validate(written)
    assert query_from_dict(written) == (pos, constraints)


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_is_a_position_that_can_occur(name: str) -> None:
    """Masterpiece ids are game references ``OWNER:NOVEL`` that agree with the position."""
    pos = position_from_dict(load_example(name))
    on_table: Counter[str] = Counter()
    seen: set[tuple[int, str]] = set()
    for mp in pos.masterpieces:
        owner, _, novel = mp.id.partition(":")
        assert int(owner) == mp.owner, mp.id
        assert pos.catalogue[novel].publishable, mp.id
        assert (mp.owner, novel) not in seen, "nobody holds two copies of one Novel (R6)"
        seen.add((mp.owner, novel))
        on_table[novel] += 1
        if mp.owner == pos.player:
            assert novel in pos.held_novels, mp.id
    for novel in pos.held_novels:
        if (pos.player, novel) not in seen:
            on_table[novel] += 1  # a Published novel of the player's
    for spec in pos.catalogue.specs:
        assert on_table[spec.id] + pos.supply[spec.id] <= spec.copies, spec.id
    assert len(pos.hand) + len(pos.masterpieces) <= len(DECK)


def test_jerome_is_the_rulebook_example() -> None:
    """Jerome plays MYSTERY 7 and FANTASY 7, pastiches three 7s, gives Ernest two cards."""
    pos = load_position(EXAMPLES / "jerome.json")
    assert {"MYS7", "FAN7", "MYT6", "SCI9"} <= {str(card) for card in pos.hand}
    jerome, ernest = 0, 1
    assert pos.player == jerome
    assert [(mp.owner, str(mp.card)) for mp in pos.masterpieces] == [
        (jerome, "SCI7"),
        (ernest, "HOR7"),
        (ernest, "MYT7"),
    ]
    option = make_option(pos, "kind-5", [7, 7], [(jerome, 7), (ernest, 7), (ernest, 7)])
    assert check_option(pos, option) is None
    assert [str(card) for card in option.played] == ["MYS7", "FAN7"]
    assert option.gifts == ((ernest, 2),)
    assert option.played_count + option.gift_count == 4  # "reduced a total of 4 cards"


def test_schema_names_and_copies() -> None:
    assert SCHEMAS == ("position", "publishes", "hint", "outs", "review")
    for name in SCHEMAS:
        loaded = schema(name)
        jsonschema.Draft202012Validator.check_schema(loaded)
        assert loaded["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        loaded["title"] = "changed"
        assert schema(name)["title"] != "changed"
    with pytest.raises(ValueError, match="unknown schema 'state'"):
        schema("state")


def test_schema_card_pattern_is_the_deck() -> None:
    position_schema = validator("position")
    for card in DECK:
        for text in (str(card), str(card).lower()):
            data = {"player": 0, "hand": [text], "masterpieces": []}
            position_schema.validate(data)
            assert position_from_dict(data).hand == (card,)
    for text in ("LOV1", "SCI10", "MAG14", "XYZ4", "SCI09", "SCI", "9"):
        assert not position_schema.is_valid({"player": 0, "hand": [text], "masterpieces": []})
    publishes_cards = re.compile(schema("publishes")["$defs"]["card"]["pattern"])
    assert sorted(str(card) for card in DECK if publishes_cards.search(str(card))) == sorted(
        str(card) for card in DECK
    )
    assert not publishes_cards.search("sci9")


# ----------------------------------------------------------------------
# Generated positions
# ----------------------------------------------------------------------
PUBLISHABLE = [spec for spec in Catalogue.default().specs if spec.publishable]


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, Constraints]:
    cards = draw(st.lists(st.sampled_from(DECK), unique=True, max_size=24))
    split = draw(st.integers(0, len(cards)))
    hand, table = cards[:split], cards[split:]
    owners: list[int] = []
    for _ in table:  # nobody holds more Masterpieces than there are Novels (R6)
        room = [seat for seat in range(5) if owners.count(seat) < len(PUBLISHABLE)]
        owners.append(draw(st.sampled_from(room)))
    masterpieces = tuple(
        Masterpiece(draw(st.sampled_from(["m", "0:kind-3", "x y", "é"])) + str(i), owner, card)
        for i, (owner, card) in enumerate(zip(owners, table, strict=True))
    )
    held = draw(st.frozensets(st.sampled_from([spec.id for spec in PUBLISHABLE])))
    supply = {
        spec.id: draw(st.integers(0, spec.copies))
        for spec in draw(st.lists(st.sampled_from(PUBLISHABLE), unique=True))
    }
    position = Position(draw(st.integers(0, 4)), tuple(hand), masterpieces, held, supply)
    constraints = Constraints(
        keep=frozenset(draw(st.lists(st.sampled_from(hand), unique=True)) if hand else ()),
        no_cite=draw(st.frozensets(st.integers(0, 4))),
        max_gifts=draw(st.none() | st.integers(0, 9)),
        min_points=draw(st.none() | st.integers(0, 9)),
    )
    return position, constraints


@given(positions())
def test_generated_positions_round_trip_and_validate(query: tuple[Position, Constraints]) -> None:
    position, constraints = query
    data = position_to_dict(position, constraints=constraints)
    validator("position").validate(data)
    # The document's constraints come back as the position's own, and apart.
    expected = (dataclasses.replace(position, constraints=constraints), constraints)
    assert query_from_dict(data) == expected
    text = position_to_json(position, constraints=constraints)
    assert query_from_json(text) == expected
    assert position_to_dict(expected[0]) == data


# ----------------------------------------------------------------------
# Errors: the JSON path, then what is wrong
# ----------------------------------------------------------------------
Mutation = Callable[[dict[str, Any]], Any]


def setter(*path: str | int, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data

    return mutate


def deleter(*path: str | int) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        return data

    return mutate


def replace(value: Any) -> Mutation:
    return lambda data: value


ERRORS: list[tuple[str, Mutation, str, bool]] = [
    # (case, mutation, expected message (start), also rejected by the schema)
    ("root array", replace([]), "$: expected an object, got an array", True),
    ("root null", replace(None), "$: expected an object, got null", True),
    ("unknown field", setter("seat", value=1), "$.seat: unknown field", True),
    ("no player", deleter("player"), "$.player: missing required field", True),
    ("no hand", deleter("hand"), "$.hand: missing required field", True),
    ("no masterpieces", deleter("masterpieces"), "$.masterpieces: missing required field", True),
    (
        "player string",
        setter("player", value="0"),
        "$.player: expected an integer, got the string '0'",
        True,
    ),
    (
        "player float",
        setter("player", value=0.5),
        "$.player: expected an integer, got a number",
        True,
    ),
    (
        "player bool",
        setter("player", value=True),
        "$.player: expected an integer, got a boolean",
        True,
    ),
    (
        "player negative",
        setter("player", value=-1),
        "$.player: expected an integer >= 0, got -1 (seats are 0 to 4, R10)",
        True,
    ),
    # R10: seats 0 to 4; a huge seat once recursed, overflowed or ran out of memory.
    (
        "player 5",
        setter("player", value=5),
        "$.player: expected a seat from 0 to 4 (R10), got 5",
        True,
    ),
    (
        "player 990",
        setter("player", value=990),
        "$.player: expected a seat from 0 to 4 (R10), got 990",
        True,
    ),
    (
        "player 10**18",
        setter("player", value=10**18),
        f"$.player: expected a seat from 0 to 4 (R10), got {10**18}",
        True,
    ),
    ("hand object", setter("hand", value={}), "$.hand: expected an array, got an object", True),
    (
        "unknown card",
        setter("hand", 2, value="LOV1"),
        "$.hand[2]: invalid card 'LOV1': LOVE STORY has ranks 2-8 (R1)",
        True,
    ),
    (
        "bad genre",
        setter("hand", 0, value="XYZ4"),
        "$.hand[0]: invalid card 'XYZ4': unknown genre",
        True,
    ),
    (
        "card number",
        setter("hand", 1, value=9),
        "$.hand[1]: expected a card such as 'SCI9', got an integer",
        True,
    ),
    (
        "card in hand twice",
        setter("hand", 3, value="MYS7"),
        "$.hand[3]: card MYS7 listed twice (also at $.hand[0])",
        True,
    ),
    (
        "card in hand twice, other case",
        setter("hand", 3, value="mys7"),
        "$.hand[3]: card MYS7 listed twice (also at $.hand[0])",
        False,
    ),
    (
        "masterpieces object",
        setter("masterpieces", value={}),
        "$.masterpieces: expected an array, got an object",
        True,
    ),
    (
        "masterpiece string",
        setter("masterpieces", 0, value="SCI7"),
        "$.masterpieces[0]: expected an object, got the string 'SCI7'",
        True,
    ),
    (
        "masterpiece no card",
        deleter("masterpieces", 1, "card"),
        "$.masterpieces[1].card: missing required field",
        True,
    ),
    (
        "masterpiece no id",
        deleter("masterpieces", 0, "id"),
        "$.masterpieces[0].id: missing required field",
        True,
    ),
    (
        "masterpiece no owner",
        deleter("masterpieces", 0, "owner"),
        "$.masterpieces[0].owner: missing required field",
        True,
    ),
    (
        "masterpiece extra field",
        setter("masterpieces", 0, "status", value="masterpiece"),
        "$.masterpieces[0].status: unknown field",
        True,
    ),
    (
        "masterpiece empty id",
        setter("masterpieces", 0, "id", value=""),
        "$.masterpieces[0].id: expected a non-empty string, got the string ''",
        True,
    ),
    (
        "masterpiece numeric id",
        setter("masterpieces", 0, "id", value=1),
        "$.masterpieces[0].id: expected a non-empty string, got an integer",
        True,
    ),
    (
        "masterpiece id repeated",
        setter("masterpieces", 1, "id", value="m1"),
        "$.masterpieces[1].id: masterpiece id 'm1' repeated (also at $.masterpieces[0])",
        False,
    ),
    (
        "owner negative",
        setter("masterpieces", 1, "owner", value=-2),
        "$.masterpieces[1].owner: expected an integer >= 0, got -2 (seats are 0 to 4, R10)",
        True,
    ),
    (
        "owner 2**63",
        setter("masterpieces", 1, "owner", value=2**63),
        f"$.masterpieces[1].owner: expected a seat from 0 to 4 (R10), got {2**63}",
        True,
    ),
    (
        "owner 5",
        setter("masterpieces", 0, "owner", value=5),
        "$.masterpieces[0].owner: expected a seat from 0 to 4 (R10), got 5",
        True,
    ),
    (
        "eleven masterpieces of one owner",
        setter(
            "masterpieces",
            value=[{"id": f"m{i}", "owner": 1, "card": f"MAG{i}"} for i in range(7, 14)]
            + [{"id": f"n{i}", "owner": 1, "card": f"FAN{i}"} for i in range(8, 12)],
        ),
        "$.masterpieces[10].owner: player 1 would hold more Masterpieces than the 10 publishable "
        "Novels of catalogue 'default', and nobody holds one Novel twice (R6)",
        False,
    ),
    (
        "owner string",
        setter("masterpieces", 1, "owner", value="1"),
        "$.masterpieces[1].owner: expected an integer, got the string '1'",
        True,
    ),
    (
        "masterpiece unknown card",
        setter("masterpieces", 0, "card", value="SCI2"),
        "$.masterpieces[0].card: invalid card 'SCI2': SCIENCE FICTION has ranks 3-9 (R1)",
        True,
    ),
    (
        "masterpiece card in hand",
        setter("masterpieces", 1, "card", value="FAN7"),
        "$.masterpieces[1].card: card FAN7 listed twice (also at $.hand[1])",
        False,
    ),
    (
        "masterpiece card twice",
        setter("masterpieces", 1, "card", value="SCI7"),
        "$.masterpieces[1].card: card SCI7 listed twice (also at $.masterpieces[0].card)",
        False,
    ),
    (
        "held string",
        setter("held_novels", value="kind-3"),
        "$.held_novels: expected an array, got the string 'kind-3'",
        True,
    ),
    (
        "held unknown",
        setter("held_novels", 0, value="kind-4"),
        "$.held_novels[0]: unknown novel id 'kind-4' in catalogue 'default' (R2)",
        False,
    ),
    (
        "held number",
        setter("held_novels", 0, value=3),
        "$.held_novels[0]: expected a Novel id such as 'kind-3', got an integer",
        True,
    ),
    (
        "held twice",
        setter("held_novels", value=["kind-3", "pairs-3", "kind-3"]),
        "$.held_novels[2]: novel 'kind-3' listed twice (also at $.held_novels[0])",
        True,
    ),
    (
        "supply array",
        setter("supply", value=[]),
        "$.supply: expected an object, got an array",
        True,
    ),
    (
        "supply unknown",
        setter("supply", "kind-4", value=1),
        "$.supply.kind-4: unknown novel id 'kind-4' in catalogue 'default' (R2)",
        False,
    ),
    (
        "supply odd key",
        setter("supply", "no such", value=1),
        '$.supply["no such"]: unknown novel id',
        True,
    ),
    (
        "supply too many",
        setter("supply", "kind-5", value=3),
        "$.supply.kind-5: expected an integer from 0 to 2, got 3",
        False,
    ),
    (
        "supply negative",
        setter("supply", "kind-3", value=-1),
        "$.supply.kind-3: expected an integer from 0 to 5, got -1",
        True,
    ),
    (
        "supply string",
        setter("supply", "kind-3", value="0"),
        "$.supply.kind-3: expected an integer, got the string '0'",
        True,
    ),
    (
        "catalogue number",
        setter("catalogue", value=5),
        "$.catalogue: expected 'default', a TOML catalogue path or a catalogue object, got an integer",
        True,
    ),
    ("catalogue empty", setter("catalogue", value=""), "$.catalogue: expected 'default'", True),
    (
        "catalogue path without a file",
        setter("catalogue", value="no/such.toml"),
        "$.catalogue: catalogue 'no/such.toml': a catalogue file is read only for a position "
        "read from a file",
        False,
    ),
    (
        "catalogue naming code",
        setter(
            "catalogue",
            value={
                "novels": [
                    {
                        "id": "x",
                        "name": "X",
                        "kind": "custom",
                        "factory": "os:system",
                        "params": {"command": "true"},
                        "points": 1,
                        "copies": 1,
                    }
                ]
            },
        ),
        "$.catalogue: novels[0] ('x'): catalogue data never names code",
        True,
    ),
    (
        "catalogue embedded invalid",
        setter("catalogue", value={"novels": [{"id": "x"}]}),
        "$.catalogue: novels[0] ('x'): missing field 'name'",
        True,
    ),
    (
        "catalogue embedded no flag",
        setter(
            "catalogue",
            value={
                "novels": [
                    {"id": "p", "name": "P", "kind": "kind", "count": 2, "points": 1, "copies": 1}
                ]
            },
        ),
        "$.catalogue: catalogue 'custom': needs exactly one End Flag entry",
        False,
    ),
    (
        "constraints array",
        setter("constraints", value=[]),
        "$.constraints: expected an object, got an array",
        True,
    ),
    (
        "constraints unknown",
        setter("constraints", "max_played", value=1),
        "$.constraints.max_played: unknown field",
        True,
    ),
    (
        "keep string",
        setter("constraints", "keep", value="SCI9"),
        "$.constraints.keep: expected an array, got the string 'SCI9'",
        True,
    ),
    (
        "keep not in hand",
        setter("constraints", "keep", value=["SCI9", "HOR7"]),
        "$.constraints.keep[1]: card HOR7 is not in the hand",
        False,
    ),
    (
        "keep invalid",
        setter("constraints", "keep", 0, value="SCI1"),
        "$.constraints.keep[0]: invalid card 'SCI1'",
        True,
    ),
    (
        "keep twice",
        setter("constraints", "keep", value=["SCI9", "SCI9"]),
        "$.constraints.keep[1]: card SCI9 listed twice (also at $.constraints.keep[0])",
        True,
    ),
    (
        "no_cite number",
        setter("constraints", "no_cite", value=2),
        "$.constraints.no_cite: expected an array, got an integer",
        True,
    ),
    (
        "no_cite negative",
        setter("constraints", "no_cite", 0, value=-1),
        "$.constraints.no_cite[0]: expected an integer >= 0, got -1 (seats are 0 to 4, R10)",
        True,
    ),
    (
        "no_cite 5",
        setter("constraints", "no_cite", value=[1, 5]),
        "$.constraints.no_cite[1]: expected a seat from 0 to 4 (R10), got 5",
        True,
    ),
    (
        "no_cite 2**63",
        setter("constraints", "no_cite", 0, value=2**63),
        f"$.constraints.no_cite[0]: expected a seat from 0 to 4 (R10), got {2**63}",
        True,
    ),
    (
        "no_cite twice",
        setter("constraints", "no_cite", value=[2, 2]),
        "$.constraints.no_cite[1]: player 2 listed twice (also at $.constraints.no_cite[0])",
        True,
    ),
    (
        "max_gifts negative",
        setter("constraints", "max_gifts", value=-1),
        "$.constraints.max_gifts: expected an integer >= 0, got -1",
        True,
    ),
    (
        "min_points string",
        setter("constraints", "min_points", value="2"),
        "$.constraints.min_points: expected an integer, got the string '2'",
        True,
    ),
    (
        "min_points bool",
        setter("constraints", "min_points", value=False),
        "$.constraints.min_points: expected an integer, got a boolean",
        True,
    ),
]


@pytest.mark.parametrize(
    ("mutation", "message", "schema_rejects"),
    [pytest.param(m, msg, s, id=case) for case, m, msg, s in ERRORS],
)
def test_errors_name_the_json_path(mutation: Mutation, message: str, schema_rejects: bool) -> None:
    data = mutation(base())
    with pytest.raises(InvalidStateError) as info:
        query_from_dict(data)
    assert str(info.value).startswith(message)
    path = message.split(": ", 1)[0]
    assert str(info.value).startswith(path + ": ")
    with pytest.raises(InvalidStateError, match=re.escape(message)):
        position_from_json(json.dumps(data))
    if schema_rejects:
        assert not validator("position").is_valid(data)


def test_the_schema_accepts_the_valid_base() -> None:
    validator("position").validate(base())
    validator("position").validate(CONTRACT)


def test_a_catalogue_that_does_not_parse(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("novels = [\n", encoding="utf-8")
    data = {**base(), "catalogue": "bad.toml"}
    with pytest.raises(
        InvalidStateError,
        match=r"^\$\.catalogue: catalogue 'bad.toml': catalogue TOML does not parse "
        r"\(at end of document\)$",
    ):
        position_from_dict(data, base_dir=tmp_path)
    with pytest.raises(InvalidStateError, match=r"^\$\.catalogue: .*no such file"):
        position_from_dict({**base(), "catalogue": "bad.toml"}, base_dir=tmp_path / "none")
    (tmp_path / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    data = {**base(), "catalogue": "mini.toml"}  # held straight-5: not in this catalogue
    with pytest.raises(
        InvalidStateError,
        match=re.escape("$.held_novels[0]: unknown novel id 'straight-5' in catalogue 'mini' (R2)"),
    ):
        position_from_dict(data, base_dir=tmp_path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "$: no input: expected a position JSON object"),
        ("  \n", "$: no input: expected a position JSON object"),
        (b"", "$: no input: expected a position JSON object"),
        (
            "{",
            "$: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)",
        ),
        ('{"player": 0,}', "$: not valid JSON: "),
        ("[1, 2", "$: not valid JSON: "),
        (
            '{"player": NaN, "hand": [], "masterpieces": []}',
            "$.player: NaN is not a JSON number",
        ),
        (
            '{"player": 0, "player": 1, "hand": [], "masterpieces": []}',
            "$.player: field given twice in one object",
        ),
        (
            '{"player": 0, "hand": [], "masterpieces": [{"id": "a", "id": "b", "owner": 0, "card": "SCI7"}]}',
            "$.masterpieces[0].id: field given twice in one object",
        ),
        (b'{"player": 0, "hand": ["\xff"], "masterpieces": []}', "$: not valid JSON: "),
        ("[" * 100_000 + "]" * 100_000, "$: nested deeper than 32 levels"),
        ("42", "$: expected an object, got an integer"),
    ],
)
def test_json_text_errors(text: str | bytes, message: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        position_from_json(text)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_json_text_must_be_text() -> None:
    with pytest.raises(InvalidStateError, match=r"^\$: expected JSON text, got int$"):
        position_from_json(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant: str) -> None:
    text = f'{{"player": 0, "hand": [], "masterpieces": [], "supply": {{"kind-3": {constant}}}}}'
    with pytest.raises(InvalidStateError) as info:
        position_from_json(text)
    assert str(info.value) == f"$.supply.kind-3: {constant} is not a JSON number"
