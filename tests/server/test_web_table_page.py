"""The web table's files: plain HTML, CSS and JavaScript that work offline and write data as text.

The browser test (``test_service_browser.py``) plays the page; these checks
read its files, so they run where no browser is installed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "pastiche_core" / "server" / "static"
PAGES = [*sorted(STATIC.glob("*.js")), STATIC / "index.html", STATIC / "table.css"]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_the_page_loads_nothing_from_elsewhere(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    # No CDN, no web font, no remote script: the table works without a network.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert not re.search(r"""(url\(|import\s+|fetch\()\s*["'](https?:)?//""", text)


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda path: path.name)
def test_the_script_writes_data_as_text_never_as_html(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in text, sink


DOCS = Path(__file__).resolve().parents[2] / "docs"
PICTURE = re.compile(r"\]\((images/[^)\s]+\.png)\)")
PICTURES_BUDGET = 400_000
"""Bytes all the web table's screenshots may take together: the docs stay light."""


def test_the_screenshots_the_frontend_page_shows_exist_and_stay_small() -> None:
    named = PICTURE.findall((DOCS / "frontend.md").read_text(encoding="utf-8"))
    # The phone's first screen, the legend's outs and the review beside the desktop picture.
    shown = {"images/web-table-phone.png", "images/web-table.png"}
    shown |= {"images/web-table-outs.png", "images/web-table-review.png"}
    assert shown <= set(named)
    sizes = {name: (DOCS / name).stat().st_size for name in named if (DOCS / name).is_file()}
    assert sorted(sizes) == sorted(set(named)), "a picture the page shows is missing"
    assert all((DOCS / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in sizes)
    assert sum(sizes.values()) <= PICTURES_BUDGET, sizes
