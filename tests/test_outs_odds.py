"""Outs: the odds against an independent Monte Carlo run of the deck, and the command (R11).

The simulation shuffles the unseen cards, draws pairs, keeps the better card for
the Novel (the need it leaves, then the rank found in more near combinations,
then the lower rank) and notes the write after which the Novel is publishable.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pastiche_core import DECK, Position, load_position, outs, schema
from pastiche_core.cli import main
from pastiche_core.data.patterns import Pairs, Pattern, Straight, rank_counts
from pastiche_core.solver import odds as odds_module
from pastiche_core.solver.odds import Reach, wilson, write_odds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _reach(hand: str, novel: str) -> Reach:
    position = Position.quick(hand)
    seen = set(position.hand)
    unseen = rank_counts(card.rank for card in DECK if card not in seen)
    spec = position.catalogue[novel]
    assert spec.pattern is not None
    empty = rank_counts([])
    return Reach(
        spec.pattern,
        hand=rank_counts(card.rank for card in position.hand),
        own=empty,
        others=empty,
        unseen=unseen,
    )


def _simulate(reach: Reach, writes: int, runs: int, seed: int) -> list[int]:
    """Per number of writes, how many runs were publishable by then.

    Both cards a write draws leave the unseen cards, the one laid face up too (R11, R16).
    """
    base = reach.need(reach.start)
    near = reach.near(max(base, writes))
    weight = [sum(1 for runs_ in near for rank, _ in runs_ if rank == r) for r in range(14)]
    rng = random.Random(seed)
    deck = [r for r in range(1, 14) for _ in range(reach.unseen[r])]
    hits = [0] * (writes + 1)
    for _ in range(runs):
        rng.shuffle(deck)
        kept = [0] * 14
        drawn = [0] * 14
        for write in range(1, writes + 1):
            pair = deck[2 * write - 2 : 2 * write]
            for rank in pair:
                drawn[rank] += 1

            def need_with(rank: int, kept: list[int] = kept, drawn: list[int] = drawn) -> int:
                grown = list(kept)
                grown[rank] += 1
                return reach.need((tuple(grown), tuple(drawn)), near)

            if pair:
                kept[min(pair, key=lambda r: (need_with(r), -weight[r], r))] += 1
            if reach.need((tuple(kept), tuple(drawn)), near) == 0:
                for later in range(write, writes + 1):
                    hits[later] += 1
                break
    return hits


def _small(pattern: Pattern, hand: list[int], unseen: list[int]) -> Reach:
    empty = rank_counts([])
    return Reach(
        pattern, hand=rank_counts(hand), own=empty, others=empty, unseen=rank_counts(unseen)
    )


@pytest.mark.parametrize(
    ("reach", "writes"),
    [
        (_reach("SCI7 HOR7 MYT2 LOV3", "kind-3"), 3),
        (_reach("SCI4 HOR5 MYS6 LOV8", "straight-5"), 3),
        # Ranks run out: a 4 laid face up leaves no 4 for 2-3-4 (R11, R16), so the write
        # keeps the 5 for 4-5-6 instead (0.2 if the 4 laid face up still counted).
        (_small(Straight(3), [2], [4, 4, 4, 5, 6]), 3),
        (_small(Pairs(2), [1, 3], [1, 1, 6, 7, 7]), 3),
    ],
    ids=["kind-3", "straight-5", "straight-3-runs-out", "pairs-2-runs-out"],
)
def test_r11_r16_exact_odds_agree_with_a_monte_carlo_run_of_the_deck(
    reach: Reach, writes: int
) -> None:
    found = write_odds(reach, writes=writes)
    assert found.exact
    runs = 3000
    hits = _simulate(reach, writes, runs, seed=11)
    for within in found.within:
        low, high = wilson(hits[within.writes], runs)
        # a 95 % interval each; the margin keeps the fixed seed's run well inside
        assert low - 0.02 <= within.publishable <= high + 0.02, (within, hits)


def test_r11_sampled_odds_hold_the_exact_value_in_their_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reach = _reach("SCI7 HOR7 MYT2 LOV3", "kind-3")
    exact = write_odds(reach, writes=3)
    monkeypatch.setattr(odds_module, "EXACT_OUTCOMES", 0)
    sampled = write_odds(reach, writes=3, samples=2000, seed=5)
    assert not sampled.exact
    assert sampled.samples == 2000
    for one, two in zip(exact.within, sampled.within, strict=True):
        assert two.low <= one.publishable <= two.high


@pytest.mark.parametrize(
    "reach",
    [_small(Straight(3), [2], [4, 4, 4, 5, 6]), _small(Pairs(2), [1, 3], [1, 1, 6, 7, 7])],
    ids=["straight-3-runs-out", "pairs-2-runs-out"],
)
def test_r11_r16_sampled_runs_lay_the_other_card_face_up_as_the_exact_count_does(
    monkeypatch: pytest.MonkeyPatch, reach: Reach
) -> None:
    exact = write_odds(reach, writes=3)
    monkeypatch.setattr(odds_module, "EXACT_OUTCOMES", 0)
    sampled = write_odds(reach, writes=3, samples=2000, seed=3)
    assert not sampled.exact
    for one, two in zip(exact.within, sampled.within, strict=True):
        assert two.low <= one.publishable <= two.high, (one, two)


def test_ten_writes_complete_on_the_midgame_example_and_repeat_for_a_seed() -> None:
    position = load_position(EXAMPLES / "positions" / "midgame.json")
    first = outs(position, writes=10, seed=4)
    assert first.complete
    assert any(not entry.odds.exact for entry in first.novels)  # the sampled path ran
    assert outs(position, writes=10, seed=4).to_dict() == first.to_dict()


def test_r11_the_top_discard_is_taken_when_it_is_an_out() -> None:
    reach = _reach("SCI7 HOR7", "kind-3")
    assert write_odds(reach, writes=1, discard=7).next_publishable == 1.0
    assert write_odds(reach, writes=1, discard=9).next_publishable < 0.5


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_prints_the_table_within_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "outs", str(EXAMPLES / "positions" / "midgame.json"))
    assert status == 0
    assert err == ""
    assert out.startswith("Player 1: 36 unseen cards")
    assert all(len(line) <= 80 for line in out.splitlines())


def test_cli_json_follows_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema: Any = pytest.importorskip("jsonschema")
    for name, extra in (("view.json", ()), ("state.json", ("--player", "1"))):
        status, out, _ = _run(
            capsys, "outs", str(EXAMPLES / "hints" / name), "--json", "--writes", "2", *extra
        )
        assert status == 0
        data = json.loads(out)
        jsonschema.Draft202012Validator(schema("outs")).validate(data)
        assert data["writes"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--writes", "0"), "writes must be from 1 to 10"),
        (("--player", "3"), "3 is not the view's player"),
        (("--seed", "x"), "seed must be an integer"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = _run(capsys, "outs", str(EXAMPLES / "hints" / "view.json"), *args)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert message in err


def test_cli_refuses_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = _run(capsys, "outs", str(tmp_path / "none.json"))
    assert status == 2
    assert err.startswith("pastiche: error:")


def test_outs_of_a_view_file_match_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    from pastiche_core import view_from_dict

    path = EXAMPLES / "hints" / "view.json"
    status, out, _ = _run(capsys, "outs", str(path), "--json", "--writes", "1")
    assert status == 0
    view = view_from_dict(json.loads(path.read_text()))
    assert json.loads(out) == outs(view, writes=1).to_dict()
