"""Golden positions: a perft-like file of publish questions and their exact answers (R4–R9).

``tests/data/golden_positions.json`` holds positions in the frontend's position
format (``player``, ``hand``, ``masterpieces``, ``held_novels``, ``supply``,
``catalogue``, ``constraints``), each with the expected number of distinct
options (R8) in total and per Novel, and the Pareto front of (played, gifts)
per Novel (R9). The expected values come from :func:`brute_force` below, a slow
search written from the rulings alone: every combination of hand cards with
every combination of Masterpieces, checked with the Novel's ``pattern.matches``
and R4–R6 directly. Regenerate them with::

    python tests/test_golden.py --write

Both engines are checked against the file, the brute force re-derives it (so it
cannot silently rot), and on a mismatch the message shows the per-Novel
breakdown, expected against found.

The rulebook's example (entry ``rulebook-jerome-ernest``), checked by hand:
Jerome (player 0) owns a Masterpiece with SCI7, Ernest (player 1) two, with
HOR7 and MYT7; Jerome holds MYS7 FAN7 MYT6 SCI9. 5 of a Kind needs five cards of
one rank. Only rank 7 has five cards within reach — MYS7 and FAN7 in hand, SCI7,
HOR7 and MYT7 on the table — and exactly five, so all of them are used: 2 cards
played, 3 Masterpieces cited. Citing SCI7 is free; HOR7 and MYT7 are Ernest's,
so Jerome owes him 2 gifts (R5), and he has exactly 2 unplayed cards, MYT6 and
SCI9, to pay them. Hence exactly one kind-5 option, costing (played 2, gifts 2),
which is also its whole Pareto front — the rulebook's "reduced a total of 4
cards from his hand".
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import re
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pastiche_core import Card, Catalogue
from pastiche_core.solver.fast import options, pareto
from pastiche_core.solver.options import Constraints, PublishOption, option_key
from pastiche_core.solver.position import Masterpiece, Position
from pastiche_core.solver.queries import solve

GOLDEN = Path(__file__).parent / "data" / "golden_positions.json"

OptionKey = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]
Front = list[tuple[int, int]]
Answer = dict[str, Any]
"""``{"total": int, "per_novel": {novel: count}, "pareto": {novel: [[played, gifts], ...]}}``."""


# ----------------------------------------------------------------------
# Reading the file (a small reader of the frontend position format)
# ----------------------------------------------------------------------
def read_query(doc: Mapping[str, Any]) -> tuple[Position, Constraints]:
    """The position and constraints of one position document."""
    raw_catalogue = doc.get("catalogue", "default")
    catalogue = (
        Catalogue.default() if raw_catalogue == "default" else Catalogue.from_dict(raw_catalogue)
    )
    position = Position(
        player=doc["player"],
        hand=tuple(Card.parse(card) for card in doc["hand"]),
        masterpieces=tuple(
            Masterpiece(mp["id"], mp["owner"], Card.parse(mp["card"])) for mp in doc["masterpieces"]
        ),
        held_novels=frozenset(doc.get("held_novels", ())),
        supply=dict(doc.get("supply", {})),
        catalogue=catalogue,
    )
    raw = doc.get("constraints", {})
    constraints = Constraints(
        keep=frozenset(Card.parse(card) for card in raw.get("keep", ())),
        no_cite=frozenset(raw.get("no_cite", ())),
        max_gifts=raw.get("max_gifts"),
        min_points=raw.get("min_points"),
    )
    # The document's constraints are the position's own.
    return dataclasses.replace(position, constraints=constraints), constraints


def load_golden() -> list[dict[str, Any]]:
    """Every entry of the golden file."""
    entries: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["positions"]
    return entries


# ----------------------------------------------------------------------
# The independent brute force
# ----------------------------------------------------------------------
def brute_force(position: Position, constraints: Constraints) -> dict[OptionKey, tuple[int, int]]:
    """Every distinct option's R8 key with its (played, gifts), by exhaustive search.

    For every Novel still in the supply and not held (R6), every non-empty
    combination of hand cards (R4) with every combination of Masterpieces is
    tested with ``pattern.matches`` on all their ranks; a match owes one gift
    per cited Masterpiece of another player, payable from the unplayed cards
    (R5). When a pattern has a fixed size, only combinations of that size are
    formed (a mere shortcut: ``matches`` rejects every other size).

    >>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
    >>> [(key, cost) for key, cost in brute_force(pos, Constraints()).items() if key[0] == "kind-5"]
    [(('kind-5', (7, 7), ((-1, 7), (1, 7), (1, 7))), (2, 2))]
    """
    player = position.player
    hand = position.hand
    masterpieces = position.masterpieces
    kept = constraints.keep & set(hand)
    found: dict[OptionKey, tuple[int, int]] = {}
    for spec in position.catalogue.specs:
        pattern = spec.pattern
        if pattern is None:
            continue  # the End Flag is never published (R12)
        if position.supply[spec.id] <= 0 or spec.id in position.held_novels:
            continue  # R6
        if constraints.min_points is not None and spec.points < constraints.min_points:
            continue
        size = pattern.size
        for count in range(1, len(hand) + 1):  # R4: at least one card from the hand
            cited_sizes = range(len(masterpieces) + 1) if size is None else [size - count]
            for played in itertools.combinations(hand, count):
                if kept & set(played):
                    continue
                for cited_count in cited_sizes:
                    if not 0 <= cited_count <= len(masterpieces):
                        continue
                    for cited in itertools.combinations(masterpieces, cited_count):
                        if any(not constraints.allows_owner(mp.owner) for mp in cited):
                            continue
                        ranks = [card.rank for card in played] + [mp.card.rank for mp in cited]
                        if not pattern.matches(ranks):
                            continue
                        gifts = sum(1 for mp in cited if mp.owner != player)  # R5
                        if gifts > len(hand) - count - len(kept):
                            continue  # R5: not enough unplayed (unkept) cards to give
                        if constraints.max_gifts is not None and gifts > constraints.max_gifts:
                            continue
                        key = (
                            spec.id,
                            tuple(sorted(card.rank for card in played)),
                            tuple(
                                sorted(
                                    (-1 if mp.owner == player else mp.owner, mp.card.rank)
                                    for mp in cited
                                )
                            ),
                        )
                        found[key] = (count, gifts)
    return found


def front_of(costs: set[tuple[int, int]]) -> Front:
    """The Pareto-minimal (played, gifts) pairs, ascending in played.

    >>> front_of({(1, 2), (2, 0), (2, 1), (3, 0)})
    [(1, 2), (2, 0)]
    """
    return sorted(
        cost
        for cost in costs
        if not any(o != cost and o[0] <= cost[0] and o[1] <= cost[1] for o in costs)
    )


def answer_of(position: Position, found: Mapping[OptionKey, tuple[int, int]]) -> Answer:
    """Totals, per-Novel counts and fronts of a set of options, in catalogue order."""
    order = list(position.catalogue)
    per_novel = Counter(key[0] for key in found)
    costs: dict[str, set[tuple[int, int]]] = {}
    for key, cost in found.items():
        costs.setdefault(key[0], set()).add(cost)
    novels = sorted(per_novel, key=order.index)
    return {
        "total": len(found),
        "per_novel": {novel: per_novel[novel] for novel in novels},
        "pareto": {novel: [list(p) for p in front_of(costs[novel])] for novel in novels},
    }


def engine_answer(
    position: Position, found: list[PublishOption], fronts: Mapping[str, Any]
) -> Answer:
    """The same summary from an engine's options and fronts."""
    per_novel = Counter(option.novel for option in found)
    order = list(position.catalogue)
    return {
        "total": len(found),
        "per_novel": {novel: per_novel[novel] for novel in sorted(per_novel, key=order.index)},
        "pareto": {
            novel: [list(point) for point in front]
            for novel, front in sorted(fronts.items(), key=lambda item: order.index(item[0]))
        },
    }


def breakdown(name: str, engine: str, expected: Answer, got: Answer) -> str:
    """A per-Novel table of expected against found, for assertion messages."""
    lines = [
        f"{name}: {engine} disagrees with the golden file "
        f"(total expected {expected['total']}, got {got['total']})",
        f"  {'novel':<14} {'expected':>8} {'got':>8}  expected front / got front",
    ]
    novels = list(dict.fromkeys([*expected["per_novel"], *got["per_novel"], *got["pareto"]]))
    for novel in novels:
        want = expected["per_novel"].get(novel, 0)
        have = got["per_novel"].get(novel, 0)
        want_front = expected["pareto"].get(novel, [])
        have_front = got["pareto"].get(novel, [])
        mark = "  " if (want, want_front) == (have, have_front) else "!!"
        lines.append(f"{mark}{novel:<14} {want:>8} {have:>8}  {want_front} / {have_front}")
    return "\n".join(lines)


def assert_answer(name: str, engine: str, expected: Answer, got: Answer) -> None:
    assert got == expected, breakdown(name, engine, expected, got)


# ----------------------------------------------------------------------
# Tests
# ----------------------------------------------------------------------
def golden_entries() -> list[Any]:
    """The entries as test parameters, named."""
    return [pytest.param(entry, id=entry["name"]) for entry in load_golden()]


def test_the_file_is_well_formed() -> None:
    entries = load_golden()
    names = [entry["name"] for entry in entries]
    assert len(names) == len(set(names))
    assert len(entries) >= 12
    for entry in entries:
        expected = entry["expected"]
        assert expected["total"] == sum(expected["per_novel"].values())
        assert set(expected["pareto"]) == set(expected["per_novel"])


@pytest.mark.parametrize("entry", golden_entries())
def test_fast_engine_matches_the_golden_file(entry: dict[str, Any]) -> None:
    position, constraints = read_query(entry["position"])
    got = engine_answer(position, options(position, constraints), pareto(position, constraints))
    assert_answer(entry["name"], "fast engine", entry["expected"], got)


@pytest.mark.parametrize("entry", golden_entries())
def test_fast_engine_lists_the_brute_force_options(entry: dict[str, Any]) -> None:
    """Option by option, not only in number: the same R8 keys with the same costs."""
    position, constraints = read_query(entry["position"])
    found = options(position, constraints)
    got = {option_key(position, option): option.costs for option in found}
    assert len(got) == len(found), "an option is listed twice (R8)"
    expected = brute_force(position, constraints)
    assert got == expected, (
        f"missing: {sorted(set(expected) - set(got))[:5]}\n"
        f"extra: {sorted(set(got) - set(expected))[:5]}"
    )


@pytest.mark.skipif(
    importlib.util.find_spec("pastiche_core.solver.cpsat") is None,
    reason="the CP-SAT engine is not available",
)
@pytest.mark.parametrize("entry", golden_entries())
def test_cpsat_engine_matches_the_golden_file(entry: dict[str, Any]) -> None:
    position, constraints = read_query(entry["position"])
    report = solve(position, engine="cpsat", constraints=constraints)
    assert report.complete
    got = engine_answer(position, list(report.options), report.pareto)
    assert_answer(entry["name"], "CP-SAT engine", entry["expected"], got)


@pytest.mark.parametrize("entry", golden_entries())
def test_brute_force_rederives_the_golden_file(entry: dict[str, Any]) -> None:
    position, constraints = read_query(entry["position"])
    got = answer_of(position, brute_force(position, constraints))
    assert_answer(entry["name"], "the brute force", entry["expected"], got)


@pytest.mark.parametrize("entry", golden_entries())
def test_position_json_reads_the_same_query(entry: dict[str, Any]) -> None:
    from pastiche_core.io import position_json as position

    assert position.query_from_dict(entry["position"]) == read_query(entry["position"])


def test_rulebook_example_by_hand() -> None:
    """The hand-checked figures of the module docstring, independent of the file's numbers."""
    (entry,) = [e for e in load_golden() if e["name"] == "rulebook-jerome-ernest"]
    position, constraints = read_query(entry["position"])
    kind5 = [o for o in options(position, constraints) if o.novel == "kind-5"]
    assert [str(o) for o in kind5] == [
        "publish kind-5 MYS7 FAN7 cite 0:pairs-3 1:straight-5 1:kind-3 gift 1:? 1:? for 6 points"
    ]
    assert entry["expected"]["per_novel"]["kind-5"] == 1
    assert entry["expected"]["pareto"]["kind-5"] == [[2, 2]]


def write_golden() -> None:
    """Recompute every entry's expected answer with the brute force and rewrite the file."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for entry in data["positions"]:
        position, constraints = read_query(entry["position"])
        entry["expected"] = answer_of(position, brute_force(position, constraints))
    GOLDEN.write_text(compact_json(data) + "\n", encoding="utf-8")


def compact_json(data: object) -> str:
    """Indented JSON with every innermost list and object on one line.

    >>> print(compact_json({"a": [[1, 2]], "b": {"c": 3}}))
    {
      "a": [
        [1, 2]
      ],
      "b": {"c": 3}
    }
    """
    text = json.dumps(data, indent=2)
    innermost = re.compile(r"([\[{])\s*([^\[\]{}]*?)\s*([\]}])")
    return innermost.sub(
        lambda m: m.group(1) + re.sub(r",\s+", ", ", m.group(2)) + m.group(3), text
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_golden.py --write")
    import conftest  # noqa: F401  registers the pattern kinds the file names (R3)

    write_golden()
