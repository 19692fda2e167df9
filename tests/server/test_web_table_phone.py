"""The web table on a phone (390×844) in Chromium: a quick whole game, outs, the End Flag, a review.

Playwright drives Debian's Chromium against a uvicorn server on 127.0.0.1, as
``test_service_browser.py`` does. The game is played by house rules
(``examples/catalogues/house-rules.toml``: the End Flag at 10 points, R12),
put into the page's new-game request, against two greedy bots, so it ends in
a few dozen moves. The test checks what a new player trips over: the hand and
the moves on the first screen, a refused move told beside the controls to
"you" with its ruling only in a tooltip, the legend's distance to each Novel
with the outs and odds a tap opens, the End Flag beside its holder, and the
review of the finished game with a decision opened. At each of the visitor's
turns the legend is checked against :func:`pastiche_core.outs` of the same
view, and the review panel against :func:`pastiche_core.review` of the
game's record (``web_table_agreement.py``).

``PASTICHE_SCREENSHOTS=docs/images`` writes the pictures the docs show:
``web-table-phone.png`` (the first screen), ``web-table-outs.png`` (the
legend with a Novel's outs open) and ``web-table-review.png`` (the review).
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_support import running_server
from test_service_browser import CHROMIUM, CHROMIUM_ARGS, RULING
from web_table_agreement import (
    LIMITS,
    check_outs_agree,
    check_review_agrees,
    check_sampled_odds_shown,
)

from pastiche_core.data.catalogue import Catalogue
from pastiche_core.server import BOTS, Service

PHONE = {"width": 390, "height": 844}
HOUSE_RULES = Path(__file__).resolve().parents[2] / "examples" / "catalogues" / "house-rules.toml"
SEED = 5
"""The deal: with the visitor's moves drawn from ``random.Random(SEED)`` the End Flag is taken."""
MAX_MOVES = 200
"""The visitor's moves at most: a quick game ends long before."""
SAMPLED_FROM = 6
"""The visitor's turn from which sampled odds are shown once (fewer unseen cards: quicker)."""

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)",
)


@pytest.fixture
def server_url() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 (a free port) with the named bots."""
    service = Service(bots=dict(BOTS), limits=LIMITS)
    with running_server(service) as url:
        yield url
    service.close()


def _house_rules(route: Any) -> None:
    """The page's new game, played by the house rules' catalogue (R12: the End Flag at 10)."""
    if route.request.method != "POST":
        route.continue_()
        return
    body = json.loads(route.request.post_data or "{}")
    body["catalogue"] = Catalogue.from_toml(HOUSE_RULES.read_text(encoding="utf-8")).to_dict()
    route.continue_(post_data=json.dumps(body))


def _on_first_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    scrolled = page.evaluate("window.scrollY")
    return box is not None and scrolled == 0 and box["y"] + box["height"] <= PHONE["height"]


# The elements that stick out of a phone's width, named when a page scrolls sideways.
WIDE = (
    "[...document.querySelectorAll('body *')]"
    ".filter((n) => n.getBoundingClientRect().right > 392).slice(0, 12)"
    ".map((n) => `${n.tagName}#${n.id}.${n.className} ${n.getBoundingClientRect().right}`)"
)


def _clip(page: Any, frame: str, top: str, bottom: str, path: Path) -> None:
    """A picture as wide as ``frame``, from the top of ``top`` to the bottom of ``bottom``."""
    page.locator(bottom).first.scroll_into_view_if_needed()
    boxes = [page.locator(selector).first.bounding_box() for selector in (frame, top, bottom)]
    assert None not in boxes
    side, first, last = boxes
    # Bounding boxes are in the viewport; a full-page clip is in the page.
    scrolled = page.evaluate("window.scrollY")
    height = last["y"] + last["height"] - first["y"] + 14
    top_y = first["y"] + scrolled - 6
    clip = {"x": side["x"], "y": top_y, "width": side["width"], "height": height}
    page.screenshot(path=str(path), clip=clip, full_page=True)


def _check_refusal(page: Any) -> None:
    """A move the visitor types that breaks a rule: told beside the controls, in their words."""
    hand = page.locator("#hand .card").all_inner_texts()
    missing = next(c for c in ("MYT3", "MYT4", "MYT5", "MYT6") if c not in hand)
    page.fill("#move-text", f"publish kind-3 {missing}")
    page.click("#move-form button")
    page.wait_for_function("document.body.dataset.state !== 'busy'")
    error = page.locator("#move-error")
    assert error.is_visible()
    text = error.inner_text()
    assert text == f"You cannot play “publish kind-3 {missing}”: {missing} not in your hand."
    assert not RULING.search(text)
    assert error.get_attribute("title") == "the rule: R4"
    assert page.locator("#error").inner_text() == ""
    # Beside the controls: on the first screen, just above the moves.
    assert _on_first_screen(page, "#move-error")


def _outs_ready(page: Any) -> bool:
    """Whether the page's outs for this position came (it asks once per new position)."""
    page.wait_for_function("document.body.dataset.outs !== 'asking'", timeout=30_000)
    return bool(page.get_attribute("body", "data-outs") == "ready")


def _check_outs(page: Any, shots: Path) -> bool:
    """The legend's distance per Novel, and a Novel's outs and odds on a tap."""
    if not _outs_ready(page):
        return False
    distances = page.locator("#legend td.distance").all_inner_texts()
    assert any(re.fullmatch(r"\d+ to go|ready", text) for text in distances), distances
    near = page.locator("#legend tbody tr:has(td.near)")
    if not near.count():
        return False
    row = near.first
    novel = row.get_attribute("data-novel")
    assert "needed; your outs:" in (row.get_attribute("title") or "")
    row.click()
    detail = page.locator(f"#legend tr.outs-detail[data-novel='{novel}']")
    assert "You need" in detail.inner_text()
    assert "Odds:" in detail.inner_text()
    assert re.search(r"within 3 writes: (<1|>99|\d+)%", detail.inner_text())
    # The opened outs fit the phone's width: nothing scrolls sideways.
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], page.evaluate(WIDE)
    # The legend's head down to the opened outs: the picture stays small.
    detail_row = f"#legend tr.outs-detail[data-novel='{novel}']"
    _clip(page, "#legend-box", "#legend-box", detail_row, shots / "web-table-outs.png")
    row.click()  # closed again
    assert page.locator("#legend tr.outs-detail").count() == 0
    return True


def _check_review(page: Any, shots: Path) -> None:
    """The game-over panel's review: the largest drops, one opened."""
    page.click("#review-button")
    page.wait_for_selector("#review h3", timeout=120_000)
    review = page.locator("#review")
    assert "Accuracy" in review.inner_text()
    drops = review.locator(".drops li")
    assert drops.count() >= 1, review.inner_text()
    labels = [drops.nth(i).get_attribute("data-label") for i in range(drops.count())]
    assert set(labels) <= {"inaccuracy", "mistake", "blunder"}
    assert "better" in drops.first.inner_text()
    drops.first.locator("summary").click()
    decision = drops.first.locator(".decision")
    text = decision.inner_text()
    # The moves in words, as the log tells them, not in notation ("You played take").
    verbs = "drew|took|kept|published|read|passed|put"
    assert re.search(rf"^You ({verbs}) ", text, re.M), text
    assert re.search(r"^Better: (draw|take|keep|publish|read|pass|put) ", text, re.M), text
    assert "You played" not in text
    assert re.search(r"wins (<1|>99|\d+)%", text)
    # What you saw as you decided (R16): your hand as cards, and the piles.
    index = int(drops.first.get_attribute("data-index") or "-1")
    seen = page.evaluate(
        f"table.review.doc.decisions.find((decision) => decision.index === {index})"
    )
    hand = decision.locator("p:has-text('Your hand') .card")
    assert [hand.nth(i).inner_text() for i in range(hand.count())] == seen["hand"]
    assert re.search(r"deck \d+ cards? · discard pile ", text), text
    # The review's head and the opened decision: the picture stays small.
    _clip(page, "#result", "#review", "#review .drops > li", shots / "web-table-review.png")


@pytest.mark.slow
def test_a_quick_game_on_a_phone(server_url: str, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pictures = os.environ.get("PASTICHE_SCREENSHOTS")
    shots = Path(pictures) if pictures else tmp_path
    rng = random.Random(SEED)
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport=PHONE, device_scale_factor=1)
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: errors.append(message.text) if message.type == "error" else None,
            )
            page.route("**/v1/games", _house_rules)
            page.goto(f"{server_url}/?players=3&seed={SEED}&bots=greedy,greedy")
            page.wait_for_selector("body[data-state=ready]")
            # The first screen: your hand and your moves, before the table and the log.
            assert _on_first_screen(page, "#hand")
            assert _on_first_screen(page, "#moves button")
            assert not _on_first_screen(page, "#log-box")
            page.screenshot(path=str(shots / "web-table-phone.png"))
            # House rules: seat 0 is dealt three cards and keeps two (R10).
            assert page.locator("#status").inner_text().startswith("Your turn: keep some")
            # Novels by the rulebook's names, the id secondary (on hover and in the legend).
            chip = page.locator("#summary abbr[data-novel=kind-3]")
            assert chip.inner_text() == "3 of a Kind"
            assert (chip.get_attribute("title") or "").startswith("3 of a Kind (kind-3): ")
            refused = False
            outs_seen = False
            agreed: Counter[str] = Counter()  # what the legend showed, matching the library
            turns, sampled = 0, 0
            writes_only = False
            for _ in range(MAX_MOVES):
                state = page.get_attribute("body", "data-state")
                if state == "over":
                    break
                assert state == "ready"
                assert not RULING.search(page.locator("#log").inner_text())
                action = page.get_attribute("body", "data-phase") == "action"
                if not refused and action:
                    before = len(errors)
                    _check_refusal(page)
                    # The browser logs the refusal's answer (409) as a failed load: that one only.
                    assert all("409" in error for error in errors[before:]), errors
                    del errors[before:]
                    refused = True
                if not outs_seen and action:
                    outs_seen = _check_outs(page, shots)
                if action and _outs_ready(page):
                    # Every Novel opened at every fourth turn: the checks stay quick.
                    agreed += check_outs_agree(page, server_url, open_all=turns % 4 == 0)
                    turns += 1
                    if not sampled and turns >= SAMPLED_FROM:
                        sampled = check_sampled_odds_shown(page, server_url)
                flags = page.locator("#players .player .flag")
                if flags.count():
                    assert flags.count() == 1
                    assert "the card under it" in (flags.first.get_attribute("title") or "")
                buttons = page.locator("#moves button")
                count = buttons.count()
                assert count > 0
                moves = [buttons.nth(i).get_attribute("data-move") or "" for i in range(count)]
                if set(moves) == {"draw", "take"}:
                    # The status names only the turn actions legal now (R11).
                    assert page.locator("#status").inner_text() == (
                        "Your turn: draw two cards and keep one or take the top discard"
                    )
                    writes_only = True
                publishes = [i for i, move in enumerate(moves) if move.startswith("publish")]
                index = (
                    rng.choice(publishes)
                    if publishes and rng.random() < 0.7
                    else rng.randrange(count)
                )
                buttons.nth(index).click()
                page.wait_for_function("document.body.dataset.state !== 'busy'")
                assert page.locator("#move-error").inner_text() == ""
            else:
                raise AssertionError(
                    f"the game did not end within {MAX_MOVES} of the visitor's moves"
                )
            assert outs_seen, "no Novel was ever within reach"
            assert writes_only, "no turn allowed only a write"
            # The game is over: the End Flag beside whoever took it (R12).
            result = page.locator("#result")
            assert result.get_attribute("data-flag") == "taken"
            holder = result.get_attribute("data-flag-player")
            flag = page.locator(f"#players .player[data-player='{holder}'] .flag")
            assert flag.is_visible()
            assert re.fullmatch(r"End Flag\s+[A-Z]{3}\d{1,2}", flag.inner_text().strip())
            # On a phone the game-over panel comes first.
            assert _on_first_screen(page, "#result h2")
            _check_review(page, shots)
            assert check_review_agrees(page, server_url) >= 1
            # The deal shows each kind of distance: ready, cards to go, held already (R6).
            assert {"ready", "to go", "yours", "opened"} <= set(agreed), agreed
            assert sampled >= 1, "no sampled odds were shown"
            assert errors == [], errors
        finally:
            browser.close()
    for name in ("web-table-phone.png", "web-table-outs.png", "web-table-review.png"):
        assert (shots / name).stat().st_size > 5_000, name
