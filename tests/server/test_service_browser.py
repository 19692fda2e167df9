"""The web table in a real browser: a whole game through the page, with a hint.

Playwright drives Debian's Chromium (never a downloaded browser) against a
uvicorn server on 127.0.0.1 in a thread of this process, with the real
analysis engine (the search, :mod:`pastiche_core.ai`). The screenshot taken while the hint is shown goes to the
test's folder; with ``UPDATE_SCREENSHOTS=1`` it also replaces
``docs/images/web-table.png``, the picture the docs show.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from service_support import running_server

from pastiche_core.server import Service

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "images" / "web-table.png"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


CHROMIUM = _chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)",
)


@pytest.fixture
def server_url() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 (a free port) with the real analysis, in a thread."""
    service = Service()
    with running_server(service) as url:
        yield url
    service.close()


@pytest.mark.slow
def test_a_whole_game_in_the_browser(server_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    rng = random.Random(4)
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: errors.append(message.text) if message.type == "error" else None,
            )
            page.goto(f"{server_url}/?players=3&seed=7")
            page.wait_for_selector("body[data-state=ready]")
            # The visitor sits at seat 0 of a new game, and sees their hand at once.
            assert page.locator("#hand .card").count() == 3
            assert page.locator("#players .player").count() == 3
            assert page.locator(".player.me h3").inner_text().startswith("You")
            colour = page.locator("#hand .card").first.evaluate(
                "node => getComputedStyle(node).backgroundColor"
            )
            assert colour not in ("rgb(221, 221, 221)", "")  # a genre colour from the palette
            hinted = False
            shot = tmp_path / "web-table.png"
            for _ in range(400):
                state = page.get_attribute("body", "data-state")
                if state == "over":
                    break
                assert state == "ready"
                phase = page.get_attribute("body", "data-phase")
                turn = int(page.locator("#summary .fact").first.inner_text().split()[-1])
                novels = page.locator("#players .novel").count()
                can_publish = page.locator("#moves button[data-move^=publish]").count() > 0
                interesting = novels >= 2 and can_publish  # a picture worth showing in the docs
                if not hinted and phase == "action" and (interesting or turn >= 40):
                    page.click("#hint")
                    page.wait_for_selector("#hints li button")
                    page.wait_for_selector("body[data-state=ready]")
                    assert page.locator("#hints li").first.inner_text().strip()
                    assert "win " in page.locator("#hints .stats").first.inner_text()
                    page.screenshot(path=str(shot), full_page=True)
                    hinted = True
                    page.locator("#hints li button").first.click()  # play the best suggestion
                else:
                    buttons = page.locator("#moves button")
                    count = buttons.count()
                    assert count > 0
                    moves = [
                        buttons.nth(index).get_attribute("data-move") or ""
                        for index in range(count)
                    ]
                    publishes = [
                        index for index, move in enumerate(moves) if move.startswith("publish")
                    ]
                    index = (
                        rng.choice(publishes)
                        if publishes and rng.random() < 0.7
                        else rng.randrange(count)
                    )
                    buttons.nth(index).click()
                page.wait_for_function("document.body.dataset.state !== 'busy'")
                assert page.locator("#error").inner_text() == ""
            else:
                raise AssertionError("the game did not end within 400 moves")
            assert hinted, "no hint was asked for"
            assert "Game over" in page.locator("#result").inner_text()
            page.click("#result summary")
            page.wait_for_function(
                "document.querySelector('#result pre').textContent.includes('pastiche-record')"
            )
            assert errors == []
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        shutil.copyfile(shot, SCREENSHOT)
