"""The rule map: every home of a ruling is tagged, and the tags hold together.

``docs/rule_map.py`` finds the tags (``# home: R11.reads`` above a Python def or
class, ``/* home: R12; twin test: FILE */`` above a C function) and renders the
maintainer guide's rule table from them. These tests fail when a tag names no
ruling or no part of one, when a C home has no differential test naming it, when
a ruling's part has two Python homes that ``docs/rulings.toml`` does not list as
deliberate, and when a ruling has no Python home at all.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pastiche_core"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_map", ROOT / "docs" / "rule_map.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rule_map = _load()


def _rulings() -> tuple[dict[str, object], tuple[object, ...]]:
    rulings, deliberate = rule_map.load_rulings(ROOT / "docs" / "rulings.toml")
    return rulings, deliberate


def _problems_of(tags: object) -> list[str]:
    rulings, deliberate = _rulings()
    found: list[str] = rule_map.problems(tags, rulings, deliberate, ROOT)
    return found


def test_the_rule_map_examples_run() -> None:
    failed, tried = doctest.testmod(rule_map, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failed == 0


def test_the_titles_name_exactly_r1_to_r16() -> None:
    rulings, _ = _rulings()
    assert list(rulings) == [f"R{number}" for number in range(1, 17)]


def test_every_tag_of_the_package_holds() -> None:
    tags = rule_map.scan(PACKAGE)
    assert tags.homes, "no home tag found"
    assert _problems_of(tags) == []


def test_every_ruling_has_a_python_home_and_c_homes_are_tagged() -> None:
    homes = rule_map.scan(PACKAGE).homes
    python = {home.ruling for home in homes if home.language == "python"}
    assert python == {f"R{number}" for number in range(1, 17)}
    assert {home.path for home in homes if home.language == "c"} >= {
        "engine/csrc/game.c",
        "engine/csrc/episode.c",
        "engine/csrc/feasibility.h",
        "engine/csrc/counting.c",
        "engine/csrc/masks.c",
        "engine/csrc/observe.c",
        "engine/csrc/playouts.c",
        "engine/csrc/kernels.h",
    }


@pytest.mark.parametrize("ref", ["R0", "R17", "R11.reed", "R13.all", "Rll"])
def test_a_tag_that_names_no_ruling_or_part_fails(ref: str) -> None:
    source = f"# home: {ref}\ndef rule() -> None: ...\n"
    tags = rule_map.python_tags("extra.py", source)
    problems = _problems_of(rule_map.Tags(rule_map.scan(PACKAGE).homes + tags.homes, tags.errors))
    assert len(problems) == 1
    assert "extra.py" in problems[0]


def test_a_tag_on_no_function_fails() -> None:
    tags = rule_map.python_tags("extra.py", "def rule() -> None:\n    # home: R13\n    pass\n")
    assert tags.homes == ()
    assert tags.errors == ("extra.py:2: a home tag stands above no def or class",)


def test_r13_a_second_python_home_not_listed_as_deliberate_fails() -> None:
    extra = rule_map.python_tags("extra.py", "# home: R13\ndef winners() -> None: ...\n")
    problems = _problems_of(rule_map.Tags(rule_map.scan(PACKAGE).homes + extra.homes, ()))
    assert len(problems) == 1
    assert problems[0].startswith("R13 has 2 Python homes, none listed as deliberate")
    assert "extra.winners" in problems[0]


def test_r13_a_ruling_without_a_python_home_fails() -> None:
    homes = tuple(home for home in rule_map.scan(PACKAGE).homes if home.ruling != "R13")
    assert _problems_of(rule_map.Tags(homes, ())) == ["R13 has no Python home"]


def test_r9_a_deliberate_home_tagged_no_more_fails() -> None:
    homes = rule_map.scan(PACKAGE).homes
    kept = tuple(home for home in homes if home.name != "solver.cpsat.pareto")
    assert _problems_of(rule_map.Tags(kept, ())) == [
        "the deliberate home solver.cpsat.pareto of R9.pareto is tagged no more"
    ]


def test_r12_a_c_home_needs_a_twin_test_that_names_it() -> None:
    bare = rule_map.c_tags("csrc/extra.c", "/* home: R12 */\nstatic void end(void) {\n}\n")
    missing = rule_map.c_tags(
        "csrc/extra.c",
        "/* home: R12; twin test: tests/kernels/test_none.py */\nstatic void end(void) {\n}\n",
    )
    silent = rule_map.c_tags(
        "csrc/extra.c",
        "/* home: R12; twin test: tests/kernels/test_game.py */\n"
        "static void no_such_twin(void) {\n}\n",
    )
    homes = rule_map.scan(PACKAGE).homes
    for tags, expected in (
        (bare, "is a C home with no twin test"),
        (missing, "twin test tests/kernels/test_none.py does not exist"),
        (silent, "twin test tests/kernels/test_game.py does not name no_such_twin"),
    ):
        problems = _problems_of(rule_map.Tags(homes + tags.homes, ()))
        assert len(problems) == 1
        assert problems[0].startswith("csrc/extra.c:1: ")
        assert problems[0].endswith(expected)


def test_the_generated_table_lists_every_tagged_file_and_ruling() -> None:
    table = rule_map.rule_map(ROOT)
    rows = [line for line in table.splitlines() if line.startswith("| R")]
    assert [row.split()[1] for row in rows] == [f"R{number}" for number in range(1, 17)]
    for home in rule_map.scan(PACKAGE).homes:
        assert f"`{home.path}" in table
        assert f"`{home.name}`" in table
        if home.twin_test is not None:
            assert f"`{home.twin_test}`" in table


def test_the_maintainer_guide_takes_the_generated_table() -> None:
    guide = (ROOT / "docs" / "maintainers.md").read_text("utf-8")
    assert guide.count(rule_map.MARKER) == 1
    assert re.search(r"^\| rule \| home \|", guide, re.MULTILINE) is None  # no hand-made table
    page = rule_map.on_page_markdown(
        guide, None, {"config_file_path": str(ROOT / "mkdocs.yml")}, None
    )
    assert rule_map.MARKER not in page
    assert rule_map.rule_map(ROOT) in page
