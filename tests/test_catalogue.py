"""The Novel catalogue: the reconstructed default (R2), custom catalogues and their limits (R3)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import custom_patterns
import pytest
from custom_patterns import AllOdd, SumOfAnySize
from hypothesis import given
from hypothesis import strategies as st
from position_strategies import CUSTOM_CATALOGUE
from strategies import patterns

from pastiche_core import (
    BUILTIN_KINDS,
    END_FLAG_ID,
    SHIPPED_CATALOGUES,
    Catalogue,
    CustomPattern,
    InvalidCatalogueError,
    NovelSpec,
    OfAKind,
    Pairs,
    PasticheError,
    Pattern,
    Straight,
    Total,
    load_catalogue,
    pattern_factory,
    register_pattern,
    registered_patterns,
    unregister_pattern,
)
from pastiche_core.data import limits

TESTS_DIR = Path(__file__).resolve().parent
VARIANT = TESTS_DIR.parent / "examples" / "catalogues" / "variant.toml"

# R2's table, row by row: id, name, requirement, points, copies, provenance.
R2_TABLE: list[tuple[str, str, object, int, int, str]] = [
    ("straight-5", "5-Card Straight", Straight(5), 1, 4, "printed"),
    ("straight-7", "7-Card Straight", Straight(7), 3, 3, "reconstructed"),
    ("straight-9", "9-Card Straight", Straight(9), 6, 2, "reconstructed"),
    ("straight-11", "11-Card Straight", Straight(11), 9, 1, "reconstructed"),
    ("kind-3", "3 of a Kind", OfAKind(3), 1, 5, "reconstructed"),
    ("kind-5", "5 of a Kind", OfAKind(5), 6, 2, "reconstructed"),
    ("pairs-3", "Three Pairs", Pairs(3), 2, 5, "reconstructed"),
    ("pairs-4", "Four Pairs", Pairs(4), 4, 3, "reconstructed"),
    ("total-5", "Five for 49", Total(5, 49), 2, 5, "reconstructed from note *4"),
    ("total-7", "Seven for 49", Total(7, 49), 3, 3, "reconstructed from note *4"),
    ("end-flag", "End Flag", None, 1, 1, "printed"),
]


@pytest.fixture
def register() -> Iterator[Callable[[str, Callable[..., Pattern]], None]]:
    """Register pattern kinds for one test; they are unregistered afterwards."""
    added: list[str] = []

    def add(kind: str, factory: Callable[..., Pattern]) -> None:
        register_pattern(kind, factory)
        added.append(kind)

    yield add
    for kind in added:
        unregister_pattern(kind)


def entry(novel_id: str, kind: str = "straight", **fields: Any) -> dict[str, Any]:
    """A valid catalogue entry, with ``fields`` overriding the defaults."""
    params_by_kind: dict[str, dict[str, Any]] = {
        "straight": {"length": 3},
        "kind": {"count": 2},
        "pairs": {"pairs": 2},
        "total": {"count": 3, "target": 20},
        "end-flag": {},
        "all-odd": {"params": {"count": 3}},
    }
    params = params_by_kind[kind]
    data: dict[str, Any] = {"id": novel_id, "name": novel_id.title(), "kind": kind}
    data.update(params)
    data.update(points=1, copies=1 if kind == "end-flag" else 2)
    data.update(fields)
    return data


def valid_data() -> dict[str, Any]:
    """A small valid catalogue form; tests break one thing at a time."""
    return {
        "name": "small",
        "novels": [
            entry("run-3"),
            entry("pair-2", "kind"),
            entry("two-pairs", "pairs"),
            entry("three-20", "total"),
            entry(END_FLAG_ID, "end-flag"),
        ],
    }


# --- the default catalogue (R2) ------------------------------------------------------------


def test_r2_default_catalogue_matches_the_table_exactly() -> None:
    cat = Catalogue.default()
    rows = [
        (spec.id, spec.name, spec.pattern, spec.points, spec.copies, spec.provenance)
        for spec in cat.specs
    ]
    assert rows == R2_TABLE
    assert list(cat) == [row[0] for row in R2_TABLE]
    assert cat.name == "default"


def test_r2_default_catalogue_has_34_cards_with_the_end_flag() -> None:
    cat = Catalogue.default()
    assert len(cat) == 11
    assert cat.total_copies == 34
    assert sum(spec.copies for spec in cat.publishable) == 33
    assert [spec.id for spec in cat.publishable] == [row[0] for row in R2_TABLE[:-1]]
    assert cat.end_flag is cat[END_FLAG_ID]
    assert END_FLAG_ID == "end-flag"
    assert not cat.end_flag.publishable
    assert cat.end_flag.requirement == "not publishable (R12)"
    assert (cat.end_flag.points, cat.end_flag.copies) == (1, 1)


def test_r2_default_points_stay_within_1_to_9() -> None:
    assert all(1 <= spec.points <= 9 for spec in Catalogue.default().specs)


def test_r2_only_the_5_card_straight_and_end_flag_are_printed() -> None:
    printed = [spec.id for spec in Catalogue.default().specs if spec.provenance == "printed"]
    assert printed == ["straight-5", "end-flag"]
    for spec in Catalogue.default().specs:
        assert spec.provenance == "printed" or spec.provenance.startswith("reconstructed")


def test_r2_default_requirements_in_words() -> None:
    cat = Catalogue.default()
    assert cat["straight-5"].requirement == "5 cards of consecutive ranks"
    assert cat["kind-3"].requirement == "3 cards of one rank"
    assert cat["pairs-4"].requirement == "4 pairs of 4 different ranks"
    assert cat["total-7"].requirement == "7 cards whose ranks add up to 49"


def test_default_is_a_single_shared_value() -> None:
    assert Catalogue.default() is Catalogue.default()
    assert load_catalogue("default") is Catalogue.default()
    assert Catalogue.default().is_default
    assert repr(Catalogue.default()) == "<Catalogue 'default': 11 novels, 34 cards>"


# --- the mapping ----------------------------------------------------------------------


def test_catalogue_is_a_read_only_mapping() -> None:
    cat = Catalogue.default()
    assert "kind-3" in cat
    assert "kind-4" not in cat
    not_an_id: object = 3
    assert not_an_id not in cat
    assert cat.get("kind-4") is None
    assert dict(cat.items())["pairs-3"].pattern == Pairs(3)
    with pytest.raises(KeyError, match="unknown novel id 'kind-4'"):
        cat["kind-4"]
    with pytest.raises(TypeError):
        cat["kind-3"] = cat["kind-5"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        cat.colour = "red"  # type: ignore[attr-defined]


def test_novel_specs_are_immutable_values() -> None:
    spec = Catalogue.default()["kind-3"]
    with pytest.raises(AttributeError):
        spec.points = 9  # type: ignore[misc]
    twin = NovelSpec("kind-3", "3 of a Kind", OfAKind(3), 1, 5, "reconstructed")
    assert twin == spec
    assert hash(twin) == hash(spec)
    assert copy.deepcopy(spec) == spec


def test_equality_ignores_the_name_but_not_the_entries() -> None:
    default = Catalogue.default()
    renamed = Catalogue(default.specs, name="other")
    assert renamed == default
    assert hash(renamed) == hash(default)
    assert renamed.is_default
    changed = Catalogue(
        [
            NovelSpec("straight-5", "5-Card Straight", Straight(5), 2, 4, "printed"),
            *default.specs[1:],
        ]
    )
    assert changed != default
    assert not changed.is_default
    assert default != "default"


# --- round trips ------------------------------------------------------------------------


def test_r3_default_to_dict_round_trips() -> None:
    data = Catalogue.default().to_dict()
    assert data["name"] == "default"
    assert data["novels"][0] == {
        "id": "straight-5",
        "name": "5-Card Straight",
        "kind": "straight",
        "length": 5,
        "points": 1,
        "copies": 4,
        "provenance": "printed",
    }
    assert data["novels"][-1] == {
        "id": "end-flag",
        "name": "End Flag",
        "kind": "end-flag",
        "points": 1,
        "copies": 1,
        "provenance": "printed",
    }
    again = Catalogue.from_dict(data)
    assert again == Catalogue.default()
    assert again.name == "default"
    assert again.specs == Catalogue.default().specs
    # Through JSON text too: the form is plain data.
    assert Catalogue.from_dict(json.loads(json.dumps(data))) == Catalogue.default()


def test_from_dict_name_override_and_default_name() -> None:
    data = valid_data()
    assert Catalogue.from_dict(data).name == "small"
    assert Catalogue.from_dict(data, name="renamed").name == "renamed"
    del data["name"]
    assert Catalogue.from_dict(data).name == "custom"


def printable_text(min_size: int = 1, max_size: int = 20) -> st.SearchStrategy[str]:
    """Printable text (R3): no control, format or surrogate character; not blank."""
    return st.text(
        st.characters(categories=["L", "M", "N", "P", "S"], include_characters=" "),
        min_size=min_size,
        max_size=max_size,
    ).filter(lambda text: text.strip() != "" or min_size == 0)


@st.composite
def catalogues(draw: st.DrawFn) -> Catalogue:
    """Random valid catalogues of built-in and registered patterns with an End Flag somewhere."""
    ids = draw(
        st.lists(
            st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12),
            min_size=1,
            max_size=8,
            unique=True,
        ).filter(lambda xs: END_FLAG_ID not in xs)
    )
    registered = st.one_of(
        st.builds(AllOdd, st.integers(1, limits.MAX_PATTERN_CARDS)),
        st.builds(SumOfAnySize, st.integers(2, 40)),
    )
    specs = [
        NovelSpec(
            novel_id,
            draw(printable_text()),
            draw(patterns() | registered),
            draw(st.integers(0, limits.MAX_POINTS)),
            draw(st.integers(1, limits.MAX_COPIES)),
            draw(st.sampled_from(["custom", "printed", "reconstructed", "variant", ""])),
        )
        for novel_id in ids
    ]
    flag = NovelSpec(END_FLAG_ID, "End Flag", None, draw(st.integers(0, 3)), 1, "printed")
    specs.insert(draw(st.integers(0, len(specs))), flag)
    return Catalogue(specs, name=draw(printable_text(max_size=10)))


@given(catalogues())
def test_r3_random_catalogues_round_trip(cat: Catalogue) -> None:
    data = cat.to_dict()
    again = Catalogue.from_dict(json.loads(json.dumps(data)))
    assert again == cat
    assert again.name == cat.name
    assert again.to_dict() == data
    assert list(again) == list(cat)
    assert again.total_copies == sum(spec.copies for spec in cat.specs)
    assert len(again.publishable) == len(cat) - 1


def test_catalogue_built_in_python() -> None:
    small = Catalogue(
        [
            NovelSpec("run-3", "Short Run", Straight(3), points=1, copies=2),
            NovelSpec(END_FLAG_ID, "End Flag", None, points=1, copies=1),
        ],
        name="small",
    )
    assert repr(small) == "<Catalogue 'small': 2 novels, 3 cards>"
    assert small["run-3"].provenance == "custom"
    assert small.to_dict()["novels"][0] == {
        "id": "run-3",
        "name": "Short Run",
        "kind": "straight",
        "length": 3,
        "points": 1,
        "copies": 2,
        "provenance": "custom",
    }


# --- TOML and the example variant (R3) --------------------------------------------------


def test_r3_variant_toml_loads_with_built_in_kinds_only() -> None:
    cat = load_catalogue(VARIANT)
    assert cat.name == "variant"
    assert list(cat) == [
        "straight-4",
        "straight-6",
        "kind-2",
        "kind-4",
        "pairs-2",
        "total-3",
        "total-5",
        "end-flag",
    ]
    assert cat["straight-4"].pattern == Straight(4)
    assert cat["kind-2"].points == 0
    assert cat["total-3"].pattern == Total(3, 21)
    five = cat["total-5"]
    assert five.pattern == Total(5, 35)
    assert (five.name, five.points, five.copies, five.provenance) == (
        "Five for 35",
        4,
        2,
        "variant",
    )
    assert cat["straight-6"].provenance == "custom"  # the default provenance
    assert cat.total_copies == 4 + 3 + 6 + 2 + 5 + 4 + 2 + 1
    assert not cat.is_default
    assert all(spec.pattern is None or spec.pattern.kind in BUILTIN_KINDS for spec in cat.specs)
    assert Catalogue.from_toml(VARIANT.read_text(encoding="utf-8")) == cat
    assert load_catalogue(str(VARIANT)) == cat
    assert Catalogue.from_dict(cat.to_dict()) == cat


def registered_data() -> dict[str, Any]:
    """``valid_data()`` plus an entry of the registered kind ``all-odd``."""
    data = valid_data()
    data["novels"].insert(2, entry("odd", "all-odd"))
    return data


def test_r3_a_registered_kind_loads_and_round_trips_without_naming_code() -> None:
    cat = Catalogue.from_dict(registered_data())
    assert cat["odd"].pattern == AllOdd(3)
    data = cat.to_dict()
    assert data["novels"][2] == {
        "id": "odd",
        "name": "Odd",
        "kind": "all-odd",
        "params": {"count": 3},
        "points": 1,
        "copies": 2,
        "provenance": "custom",
    }
    assert "factory" not in json.dumps(data)
    assert Catalogue.from_dict(json.loads(json.dumps(data))) == cat
    toml = Catalogue.from_toml(
        'name = "odd"\n'
        '[[novels]]\nid = "odd-5"\nname = "Odd Tales"\nkind = "all-odd"\n'
        "params = { count = 5 }\npoints = 5\ncopies = 2\n"
        '[[novels]]\nid = "end-flag"\nname = "End Flag"\nkind = "end-flag"\n'
        "points = 1\ncopies = 1\n"
    )
    assert toml["odd-5"].pattern == AllOdd(5)
    assert toml["odd-5"].requirement == "5 cards of odd ranks"


def test_r3_the_test_catalogue_of_user_defined_patterns_round_trips() -> None:
    # The three-way solver tests' catalogue: its patterns are registered kinds.
    data = json.loads(json.dumps(CUSTOM_CATALOGUE.to_dict()))
    assert [entry["kind"] for entry in data["novels"]] == [
        "straight",
        "kind",
        "pairs",
        "total",
        "sandwich",
        "small-sum",
        "end-flag",
    ]
    assert Catalogue.from_dict(data) == CUSTOM_CATALOGUE


def test_r3_registered_factories_without_params_and_plain_functions(
    register: Callable[[str, Callable[..., Pattern]], None],
) -> None:
    register("short-run", custom_patterns.straight_factory)
    data = valid_data()
    data["novels"].append(entry("odd", "all-odd", params={}))
    data["novels"].append(entry("odd-default", "all-odd"))
    del data["novels"][-1]["params"]
    data["novels"].append(entry("fn", "all-odd"))
    data["novels"][-1]["kind"] = "short-run"
    del data["novels"][-1]["params"]
    data["novels"].append(entry("fn-4", "all-odd", params={"length": 4}))
    data["novels"][-1]["kind"] = "short-run"
    cat = Catalogue.from_dict(data)
    assert cat["odd"].pattern == AllOdd(5)
    assert cat["odd-default"].pattern == AllOdd(5)
    # A factory may return a built-in pattern: it is written back in its built-in form.
    assert cat["fn"].pattern == Straight(3)
    assert cat["fn-4"].pattern == Straight(4)
    assert cat.to_dict()["novels"][-1]["kind"] == "straight"
    assert Catalogue.from_dict(cat.to_dict()) == cat


def test_from_toml_minimal() -> None:
    text = """
name = "tiny"
[[novels]]
id = "run-4"
name = "Four in a Row"
kind = "straight"
length = 4
points = 2
copies = 3
[[novels]]
id = "end-flag"
name = "End Flag"
kind = "end-flag"
points = 1
copies = 1
"""
    cat = Catalogue.from_toml(text)
    assert repr(cat) == "<Catalogue 'tiny': 2 novels, 4 cards>"
    assert Catalogue.from_toml(text, name="renamed").name == "renamed"
    assert cat["run-4"].pattern == Straight(4)


# --- validation: every error names the offending entry (R3) ---------------------------------


def where(index: int, novel_id: str) -> str:
    return re.escape(f"novels[{index}] ({novel_id!r})")


def broken(index: int, **changes: Any) -> dict[str, Any]:
    """``valid_data()`` with entry ``index`` changed; a value of ``...`` deletes the field."""
    data = valid_data()
    for field, value in changes.items():
        if value is ...:
            del data["novels"][index][field]
        else:
            data["novels"][index][field] = value
    return data


ENTRY_ERRORS: list[tuple[str, dict[str, Any], int, str, str]] = [
    # (test id, changes, index, id shown, message)
    ("missing name", {"name": ...}, 1, "pair-2", "missing field 'name'"),
    ("missing kind", {"kind": ...}, 2, "two-pairs", "missing field 'kind'"),
    ("missing points", {"points": ...}, 0, "run-3", "missing field 'points'"),
    ("missing copies", {"copies": ...}, 3, "three-20", "missing field 'copies'"),
    ("missing id", {"id": ...}, 1, "?", "missing field 'id'"),
    ("missing parameter", {"length": ...}, 0, "run-3", "kind 'straight' needs field 'length'"),
    ("missing target", {"target": ...}, 3, "three-20", "needs field 'target'"),
    ("unknown kind", {"kind": "flush"}, 0, "run-3", "unknown kind 'flush'"),
    ("kind not a string", {"kind": ["straight"]}, 0, "run-3", "kind must be a string"),
    ("straight too long", {"length": 14}, 0, "run-3", "length must be an integer from 2 to 13"),
    ("length as string", {"length": "3"}, 0, "run-3", "length must be an integer"),
    ("length as float", {"length": 3.0}, 0, "run-3", "length must be an integer"),
    ("length as bool", {"length": True}, 0, "run-3", "length must be an integer"),
    ("one of a kind", {"count": 1}, 1, "pair-2", "count must be an integer from 2 to 7"),
    ("zero pairs", {"pairs": 0}, 2, "two-pairs", "pairs must be an integer from 1 to 6"),
    ("zero target", {"target": 0}, 3, "three-20", "target must be an integer from 3 to 39"),
    ("zero copies", {"copies": 0}, 0, "run-3", "copies must be an integer from 1 to 20, got 0"),
    ("negative copies", {"copies": -2}, 1, "pair-2", "copies must be an integer from 1 to 20"),
    ("copies as string", {"copies": "2"}, 1, "pair-2", "copies must be an integer from 1"),
    ("negative points", {"points": -1}, 2, "two-pairs", "points must be an integer from 0 to 99"),
    ("points as float", {"points": 1.5}, 2, "two-pairs", "points must be an integer from 0"),
    ("points as bool", {"points": True}, 2, "two-pairs", "points must be an integer from 0"),
    # The limits (R3): each message names the entry and the limit.
    (
        "too many copies",
        {"copies": 21},
        0,
        "run-3",
        "copies must be an integer from 1 to 20, got 21",
    ),
    ("too many points", {"points": 100}, 0, "run-3", "points must be an integer from 0 to 99"),
    ("7 pairs", {"pairs": 7}, 2, "two-pairs", "pairs must be an integer from 1 to 6, got 7"),
    ("8 of a kind", {"count": 8}, 1, "pair-2", "count must be an integer from 2 to 7, got 8"),
    ("total of 14", {"count": 14}, 3, "three-20", "count must be an integer from 1 to 13"),
    (
        "20 cards for 140",
        {"count": 20, "target": 140},
        3,
        "three-20",
        "count must be an integer from 1 to 13, got 20",
    ),
    (
        "target above 13 each",
        {"target": 40},
        3,
        "three-20",
        "target must be an integer from 3 to 39 (a sum 3 ranks of 1 to 13 can make), got 40",
    ),
    ("long id", {"id": "x" * 33}, 0, "x" * 33, "id has 33 characters, more than 32"),
    ("id with NUL", {"id": "run\x003"}, 0, "run\x003", "holds a control character, a NUL"),
    ("id with a control", {"id": "run\x1b3"}, 0, "run\x1b3", "holds a control character"),
    ("id with surrogate", {"id": "run\ud8003"}, 0, "run\ud8003", "a lone surrogate"),
    ("id with comma", {"id": "run,3"}, 0, "run,3", "may not contain spaces, ',' or ':'"),
    ("long name", {"name": "N" * 65}, 0, "run-3", "name has 65 characters, more than 64"),
    ("blank name", {"name": "   "}, 0, "run-3", "name must be a non-empty string"),
    ("name with NUL", {"name": "Run\x00"}, 0, "run-3", "name 'Run\\x00' holds a control"),
    ("name with newline", {"name": "Run\nThree"}, 0, "run-3", "holds a control character"),
    ("name with surrogate", {"name": "Run\udc00"}, 0, "run-3", "a lone surrogate"),
    ("name with bidi", {"name": "Run\u202e"}, 0, "run-3", "holds a control character"),
    ("long provenance", {"provenance": "p" * 201}, 0, "run-3", "more than 200"),
    ("provenance control", {"provenance": "a\tb"}, 0, "run-3", "provenance 'a\\tb' holds"),
    ("unknown field", {"colour": "red"}, 0, "run-3", "unknown field(s) ['colour']"),
    ("other kind's field", {"target": 9}, 0, "run-3", "unknown field(s) ['target']"),
    ("end flag parameter", {"length": 3}, 4, "end-flag", "unknown field(s) ['length']"),
    ("end flag copies", {"copies": 2}, 4, "end-flag", "End Flag must have id 'end-flag' and 1"),
    ("end flag id", {"id": "flag"}, 4, "flag", "End Flag must have id 'end-flag'"),
    ("empty id", {"id": ""}, 0, "", "id must be a non-empty string"),
    ("id with space", {"id": "run 3"}, 0, "run 3", "may not contain spaces"),
    ("id with colon", {"id": "run:3"}, 0, "run:3", "may not contain"),
    ("id not a string", {"id": 7}, 0, 7, "id must be a non-empty string"),  # type: ignore[list-item]
    ("empty name", {"name": ""}, 0, "run-3", "name must be a non-empty string"),
    ("provenance", {"provenance": 3}, 0, "run-3", "provenance must be a string"),
]


@pytest.mark.parametrize(
    ("changes", "index", "novel_id", "message"),
    [row[1:] for row in ENTRY_ERRORS],
    ids=[row[0] for row in ENTRY_ERRORS],
)
def test_r3_invalid_entries_are_named(
    changes: dict[str, Any], index: int, novel_id: Any, message: str
) -> None:
    data = broken(index, **changes)
    with pytest.raises(
        InvalidCatalogueError, match=where(index, novel_id) + ".*" + re.escape(message)
    ):
        Catalogue.from_dict(data)


def test_r3_duplicate_id_names_the_second_entry() -> None:
    data = valid_data()
    data["novels"].insert(3, entry("pair-2", "kind", count=3))
    with pytest.raises(InvalidCatalogueError, match=where(3, "pair-2") + ": duplicate id 'pair-2'"):
        Catalogue.from_dict(data)


def test_r3_no_end_flag() -> None:
    data = valid_data()
    del data["novels"][4]
    with pytest.raises(InvalidCatalogueError, match=r"'small'.*exactly one End Flag.*found 0"):
        Catalogue.from_dict(data)


def test_r3_two_end_flags() -> None:
    data = valid_data()
    data["novels"].append(entry(END_FLAG_ID, "end-flag"))
    with pytest.raises(InvalidCatalogueError, match=where(5, "end-flag") + ": duplicate id"):
        Catalogue.from_dict(data)
    data = valid_data()
    data["novels"].insert(1, entry("second-flag", "end-flag"))
    with pytest.raises(InvalidCatalogueError, match=where(1, "second-flag") + ".*End Flag"):
        Catalogue.from_dict(data)


def test_r3_end_flag_id_on_a_publishable_novel() -> None:
    data = valid_data()
    data["novels"][4] = entry(END_FLAG_ID, "straight")
    with pytest.raises(InvalidCatalogueError, match=r"exactly one End Flag.*found 0"):
        Catalogue.from_dict(data)


def test_r3_a_catalogue_needs_a_publishable_novel() -> None:
    with pytest.raises(InvalidCatalogueError, match="no publishable novel"):
        Catalogue.from_dict({"name": "flag", "novels": [entry(END_FLAG_ID, "end-flag")]})


def many(count: int, copies: int = 1) -> dict[str, Any]:
    """A catalogue form of ``count`` entries (End Flag included) of ``copies`` copies each."""
    novels = [entry(f"run-{i}", copies=copies) for i in range(count - 1)]
    return {"name": "many", "novels": [*novels, entry(END_FLAG_ID, "end-flag")]}


def test_r3_limits_on_the_whole_catalogue() -> None:
    assert len(Catalogue.from_dict(many(limits.MAX_NOVELS))) == 64
    with pytest.raises(InvalidCatalogueError, match=r"^novels: 65 entries, more than 64 \(R3\)"):
        Catalogue.from_dict(many(65))
    specs = Catalogue.from_dict(many(64)).specs
    with pytest.raises(InvalidCatalogueError, match="'many': has 65 entries, more than 64"):
        Catalogue([*specs, NovelSpec("one-more", "One More", Straight(3), 1, 1)], name="many")
    # 12 entries of 20 copies and the End Flag: 241 cards; 13 of them: 261.
    assert Catalogue.from_dict(many(13, copies=20)).total_copies == 241
    with pytest.raises(
        InvalidCatalogueError, match="catalogue 'many': has 261 Novel cards, more than 256"
    ):
        Catalogue.from_dict(many(14, copies=20))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "catalogue name must be a non-empty string"),
        ("n" * 65, "catalogue name has 65 characters, more than 64"),
        ("bad\x00name", "holds a control character, a NUL or a lone surrogate"),
        ("bad\ud800", "a lone surrogate"),
        (3, "catalogue name must be a string, got 3"),
    ],
)
def test_r3_the_catalogue_name_is_short_printable_text(name: Any, message: str) -> None:
    with pytest.raises(InvalidCatalogueError, match=re.escape(message)):
        Catalogue(Catalogue.default().specs, name=name)
    with pytest.raises(InvalidCatalogueError, match="name"):
        Catalogue.from_dict({**valid_data(), "name": name})


def test_r3_a_20_card_total_is_refused_at_once() -> None:
    # This entry, embedded in a position, used to take 43 s and 1.9 GB to search.
    data = valid_data()
    data["novels"][3].update(count=20, target=140)
    with pytest.raises(InvalidCatalogueError, match=r"count must be an integer from 1 to 13"):
        Catalogue.from_dict(data)


def test_shipped_catalogues() -> None:
    assert dict(SHIPPED_CATALOGUES) == {"default": Catalogue.default()}
    assert SHIPPED_CATALOGUES["default"] is Catalogue.default()
    with pytest.raises(TypeError):
        SHIPPED_CATALOGUES["mine"] = Catalogue.default()  # type: ignore[index]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a table"),
        ("novels", "expected a table"),
        ({"name": "x"}, "novels: expected a non-empty list"),
        ({"novels": []}, "novels: expected a non-empty list"),
        ({"novels": {"a": 1}}, "novels: expected a non-empty list"),
        ({"novels": [entry("a")], "version": 2}, r"unknown field\(s\) \['version'\]"),
        ({"name": 3, "novels": [entry("a")]}, "name: expected a string"),
        ({"novels": ["straight-5"]}, r"novels\[0\]: expected a table"),
    ],
)
def test_r3_invalid_catalogue_shapes(data: Any, message: str) -> None:
    with pytest.raises(InvalidCatalogueError, match=message):
        Catalogue.from_dict(data)


@pytest.mark.parametrize(
    "text",
    [
        "[[novels]\nid = 'x'",
        "name = ",
        'name = "a"\nname = "b"',
        "[[novels]]\nid = x",
    ],
)
def test_r3_bad_toml_syntax(text: str) -> None:
    with pytest.raises(InvalidCatalogueError, match="catalogue TOML does not parse"):
        Catalogue.from_toml(text)


def test_r3_from_toml_rejects_non_text() -> None:
    with pytest.raises(InvalidCatalogueError, match="expected a string"):
        Catalogue.from_toml(b"name = 'x'")  # type: ignore[arg-type]


def test_r3_toml_that_breaks_the_parser_is_a_catalogue_error() -> None:
    # An integer of thousands of digits and deep nesting fail inside tomllib itself.
    with pytest.raises(InvalidCatalogueError, match="catalogue TOML does not parse"):
        Catalogue.from_toml("points = " + "9" * 5000)
    with pytest.raises(InvalidCatalogueError, match="nested too deeply"):
        Catalogue.from_toml("x = " + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidCatalogueError, match="more than 1,048,576"):
        Catalogue.from_toml("#" * (1 << 20) + "\n")


# Registered kinds: the data gives plain params, the program's factory refuses them.
REGISTERED_ERRORS: list[tuple[str, dict[str, Any], str]] = [
    (
        "bad params",
        {"params": {"count": 0}},
        "kind 'all-odd' refused its params: ValueError: count",
    ),
    ("unknown param", {"params": {"colour": 1}}, "refused its params: TypeError"),
    ("params not a table", {"params": [3]}, "params must be a table, got [3]"),
    ("params null", {"params": None}, "params must be a table, got None"),
    ("nested table", {"params": {"count": {"n": 3}}}, "params.count must be text, a number"),
    ("null value", {"params": {"count": None}}, "params.count must be text, a number"),
    ("nested array", {"params": {"count": [[3]]}}, "params.count[0] must be text, a number"),
    ("infinite", {"params": {"count": float("inf")}}, "params.count must be a finite number"),
    ("huge integer", {"params": {"count": 1 << 70}}, "out of the 64-bit integer range"),
    ("long text", {"params": {"count": "x" * 201}}, "params.count has 201 characters"),
    ("text with NUL", {"params": {"count": "a\x00"}}, "holds a control character"),
    ("long array", {"params": {"count": [1] * 50}}, "params.count has 50 items, more than 49"),
    ("too many", {"params": {f"p{i}": i for i in range(17)}}, "17 entries, more than 16"),
    ("private name", {"params": {"_count": 3}}, "params name '_count' is not a plain name"),
    ("dunder name", {"params": {"__class__": 3}}, "is not a plain name"),
    ("unknown field", {"length": 3}, "unknown field(s) ['length']"),
    ("too big", {"params": {"count": 14}}, "the pattern needs 14 cards; a pattern needs 1 to 13"),
]


@pytest.mark.parametrize(
    ("changes", "message"),
    [row[1:] for row in REGISTERED_ERRORS],
    ids=[row[0] for row in REGISTERED_ERRORS],
)
def test_r3_registered_kind_errors_are_named(changes: dict[str, Any], message: str) -> None:
    data = registered_data()
    data["novels"][2].update(changes)
    with pytest.raises(InvalidCatalogueError, match=where(2, "odd") + ".*" + re.escape(message)):
        Catalogue.from_dict(data)


BROKEN_FACTORIES: list[tuple[str, Callable[..., Any], str]] = [
    ("raises", custom_patterns.failing_factory, "RuntimeError: the muse has left"),
    ("not a pattern", custom_patterns.not_a_pattern, "did not return a Pattern"),
    ("a class", custom_patterns.pattern_class, "did not return a Pattern"),
    ("wrong kind", custom_patterns.wrong_kind_factory, "a pattern of kind 'all-odd'"),
]


@pytest.mark.parametrize(
    ("factory", "message"),
    [row[1:] for row in BROKEN_FACTORIES],
    ids=[row[0] for row in BROKEN_FACTORIES],
)
def test_r3_a_broken_registered_factory_is_named(
    register: Callable[[str, Callable[..., Pattern]], None],
    factory: Callable[..., Pattern],
    message: str,
) -> None:
    register("broken", factory)
    data = valid_data()
    data["novels"].insert(1, {**entry("odd", "all-odd", params={}), "kind": "broken"})
    with pytest.raises(InvalidCatalogueError, match=where(1, "odd") + ".*" + re.escape(message)):
        Catalogue.from_dict(data)


CODE_IN_DATA: list[tuple[str, dict[str, Any]]] = [
    ("custom with factory", {"kind": "custom", "factory": "custom_patterns:AllOdd"}),
    ("custom without factory", {"kind": "custom", "params": {"count": 3}}),
    ("factory on a built-in kind", {"kind": "straight", "factory": "os:system"}),
    ("factory on a registered kind", {"factory": "custom_patterns:AllOdd"}),
]


@pytest.mark.parametrize(
    "changes", [row[1] for row in CODE_IN_DATA], ids=[row[0] for row in CODE_IN_DATA]
)
def test_r3_data_that_names_code_is_refused_with_a_pointer_to_register_pattern(
    changes: dict[str, Any],
) -> None:
    data = registered_data()
    data["novels"][2].update(changes)
    message = "catalogue data never names code, so no 'factory' and no kind 'custom'"
    with pytest.raises(InvalidCatalogueError, match=where(2, "odd") + ": " + re.escape(message)):
        Catalogue.from_dict(data)
    with pytest.raises(InvalidCatalogueError, match=r"register_pattern\(kind, factory\)"):
        Catalogue.from_dict(data)


def test_r3_an_unregistered_kind_lists_what_may_be_named() -> None:
    data = registered_data()
    data["novels"][2]["kind"] = "all-even"
    with pytest.raises(InvalidCatalogueError) as caught:
        Catalogue.from_dict(data)
    message = str(caught.value)
    assert message.startswith("novels[2] ('odd'): unknown kind 'all-even': expected a built-in")
    assert "straight, kind, pairs, total, end-flag" in message
    assert "registered: all-odd, sum-any, sandwich, small-sum" in message


# --- the registry (R3) ---------------------------------------------------------------------


def test_register_and_unregister_a_pattern_kind() -> None:
    assert "evens" not in registered_patterns()
    register_pattern("evens", AllOdd)
    try:
        assert registered_patterns()["evens"] is AllOdd
        assert pattern_factory("evens") is AllOdd
        register_pattern("evens", AllOdd)  # the same factory again: nothing changes
        with pytest.raises(InvalidCatalogueError, match="'evens' is already registered"):
            register_pattern("evens", SumOfAnySize)
        assert pattern_factory("evens") is AllOdd
        register_pattern("evens", SumOfAnySize, replace=True)
        assert pattern_factory("evens") is SumOfAnySize
    finally:
        unregister_pattern("evens")
    assert "evens" not in registered_patterns()
    assert pattern_factory("evens") is None
    with pytest.raises(InvalidCatalogueError, match="'evens' is not registered"):
        unregister_pattern("evens")


def test_registered_patterns_is_a_read_only_snapshot() -> None:
    snapshot = registered_patterns()
    with pytest.raises(TypeError):
        snapshot["x"] = AllOdd  # type: ignore[index]
    register_pattern("later", AllOdd)
    try:
        assert "later" not in snapshot
        assert "later" in registered_patterns()
    finally:
        unregister_pattern("later")


@pytest.mark.parametrize("kind", [*BUILTIN_KINDS, "custom"])
def test_built_in_kinds_cannot_be_registered_or_unregistered(kind: str) -> None:
    with pytest.raises(InvalidCatalogueError, match=re.escape(f"pattern kind {kind!r} is")):
        register_pattern(kind, AllOdd)
    with pytest.raises(InvalidCatalogueError, match="cannot be unregistered"):
        unregister_pattern(kind)
    assert kind not in registered_patterns()


@pytest.mark.parametrize(
    "kind",
    [
        "",
        "All-Odd",
        "all odd",
        "os:system",
        "custom_patterns.AllOdd",
        "1odd",
        "-odd",
        "odd-",
        "odd--even",
        "odd\x00",
        "odd\n",
        "ödd",
        "x" * 33,
    ],
)
def test_only_clean_identifiers_can_be_registered(kind: str) -> None:
    with pytest.raises(InvalidCatalogueError, match="pattern kind"):
        register_pattern(kind, AllOdd)
    assert kind not in registered_patterns()


def test_a_factory_must_be_callable_and_a_kind_a_string() -> None:
    with pytest.raises(InvalidCatalogueError, match="must be a class or callable"):
        register_pattern("odd-five", AllOdd(5))  # type: ignore[arg-type]
    with pytest.raises(InvalidCatalogueError, match="must be a string"):
        register_pattern(3, AllOdd)  # type: ignore[arg-type]
    assert "odd-five" not in registered_patterns()


def test_all_catalogue_errors_are_value_errors() -> None:
    assert issubclass(InvalidCatalogueError, PasticheError)
    assert issubclass(InvalidCatalogueError, ValueError)
    with pytest.raises(ValueError, match=r"novels\[0\]"):
        Catalogue.from_dict(broken(0, copies=0))


# --- catalogues built in Python ----------------------------------------------------------


class Half(CustomPattern):
    size = 2

    def matches(self, ranks: Any) -> bool:
        return len(ranks) == 2


class Big(CustomPattern):
    size = 0

    def matches(self, ranks: Any) -> bool:
        return False


def python_specs() -> Iterator[NovelSpec]:
    yield NovelSpec("half", "Half", Half(), 1, 2)
    yield NovelSpec(END_FLAG_ID, "End Flag", None, 1, 1)


def test_python_catalogue_with_a_custom_pattern() -> None:
    cat = Catalogue(list(python_specs()))
    assert isinstance(cat["half"].pattern, Half)
    assert cat["half"].requirement == "Half"
    assert cat.name == "custom"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (NovelSpec("x", "X", Straight(3), 1, 0), r"novels\[0\] \('x'\): copies must be"),
        (NovelSpec("x", "X", Straight(3), -1, 1), r"novels\[0\] \('x'\): points must be"),
        (NovelSpec("x", "X", "straight", 1, 1), "does not follow Pattern"),  # type: ignore[arg-type]
        (NovelSpec("x", "X", Half, 1, 1), "does not follow Pattern"),  # type: ignore[arg-type]
        (NovelSpec("x x", "X", Straight(3), 1, 1), "may not contain spaces"),
        (NovelSpec("x", "X", Straight(3), 1, 1, provenance=None), "provenance"),  # type: ignore[arg-type]
        ("straight-5", r"novels\[0\] \('\?'\): expected a NovelSpec"),
        (
            NovelSpec("x", "X", AllOdd(14), 1, 1),
            "the pattern needs 14 cards; a pattern needs 1 to 13",
        ),
        (NovelSpec("x", "X", Big(), 1, 1), "the pattern needs 0 cards"),
    ],
)
def test_python_catalogue_validation(spec: Any, message: str) -> None:
    with pytest.raises(InvalidCatalogueError, match=message):
        Catalogue([spec, NovelSpec(END_FLAG_ID, "End Flag", None, 1, 1)])


# --- load_catalogue -----------------------------------------------------------------------


def test_load_catalogue_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(InvalidCatalogueError, match="no such file"):
        load_catalogue(missing)
    with pytest.raises(
        InvalidCatalogueError,
        match=re.escape(f"catalogue {str(tmp_path)!r}: not a regular file (a directory)"),
    ):
        load_catalogue(tmp_path)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(InvalidCatalogueError, match="not UTF-8"):
        load_catalogue(binary)
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[[novels]]\nid = "x"\nname = "X"\n', encoding="utf-8")
    with pytest.raises(InvalidCatalogueError, match=re.escape(f"{bad}: novels[0] ('x')")):
        load_catalogue(bad)
    syntax = tmp_path / "syntax.toml"
    syntax.write_text("name = = 3", encoding="utf-8")
    with pytest.raises(InvalidCatalogueError, match=re.escape(f"{syntax}: catalogue TOML")):
        load_catalogue(syntax)


def test_load_catalogue_from_a_written_file(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(
        '[[novels]]\nid = "pair"\nname = "A Pair"\nkind = "kind"\ncount = 2\n'
        "points = 1\ncopies = 9\n"
        '[[novels]]\nid = "end-flag"\nname = "End Flag"\nkind = "end-flag"\n'
        "points = 1\ncopies = 1\n",
        encoding="utf-8",
    )
    cat = load_catalogue(path)
    assert cat.name == "custom"
    assert cat["pair"].pattern == OfAKind(2)
    assert cat.total_copies == 10
