"""The examples of the AI and RL page run (its ``pycon`` blocks, as one doctest).

The page's examples need the ``rl`` extra, so they are fenced as ``pycon`` (which
``tests/test_docs.py`` leaves alone) and run here, where they skip without it.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

# Greedy and search opponents here are chosen on purpose: their warning is not news.
pytestmark = pytest.mark.filterwarnings("ignore::pastiche_core.rl.episode.EnginePathWarning")

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ai-rl.md"
FENCE = re.compile(r"^```pycon[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def test_the_page_has_examples_for_every_part() -> None:
    text = PAGE.read_text(encoding="utf-8")
    bodies = [match["body"] for match in FENCE.finditer(text)]
    assert len(bodies) >= 5
    joined = "\n".join(bodies)
    for needle in ("MoveBuilder", "ObservationEncoder", "pastiche_core.pettingzoo", "pyspiel"):
        assert needle in joined


def test_ai_rl_page_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = PAGE.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    examples: list[doctest.Example] = []
    for match in FENCE.finditer(text):
        line = text[: match.start()].count("\n") + 1
        for example in parser.get_examples(match["body"], PAGE.name):
            example.lineno += line
            examples.append(example)
    test = doctest.DocTest(examples, {}, PAGE.name, str(PAGE), 0, None)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(output)
