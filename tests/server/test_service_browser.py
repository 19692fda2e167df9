"""The web table in a real browser: a whole game against a greedy and a search bot.

Playwright drives Debian's Chromium (never a downloaded browser) against a
uvicorn server on 127.0.0.1 in a thread of this process, with the real
analysis engine (:mod:`pastiche_core.ai`) for the hint and a search bot held
to a small budget, so the game takes seconds. The test follows the game as a
player would: the move log in plain words, the Novel legend (and a Novel's
requirement on hover), no ruling numbers or solver terms in the main text,
then the game-over panel with names, scores, the winner, the tie-break and the
End Flag's fate.

The pictures the docs show are written from here only when asked:
``PASTICHE_SCREENSHOTS=docs/images`` writes ``web-table.png`` (mid-game, with
a hint) into that folder; the game-over panel's picture is the phone test's.
"""

from __future__ import annotations

import functools
import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_support import running_server

from pastiche_core.ai.roster import make_bot
from pastiche_core.server import BOTS, Service
from pastiche_core.server.games import BotFactory

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SEARCH_BUDGET_MS = 20
"""The search bot's budget per decision here: a few simulations, so a whole game stays short."""
RULING = re.compile(r"\(R\d|\bR\d+\b")
"""A ruling number in text a player reads (they belong in tooltips and the help panel)."""


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
    """A real HTTP server on 127.0.0.1 (a free port), the real analysis, a quick search bot."""
    bots: dict[str, BotFactory] = {
        **BOTS,
        "search": functools.partial(make_bot, "search", budget_ms=SEARCH_BUDGET_MS),
    }
    service = Service(bots=bots)
    with running_server(service) as url:
        yield url
    service.close()


def _main_text(page: Any) -> str:
    """The text a player reads on the page: the status, the table, the log, the moves, the hints."""
    parts = [
        page.locator(selector).inner_text()
        for selector in ("#status", "#summary", "#players", "#log", "#turn-box", "#result")
        if page.locator(selector).is_visible()
    ]
    return "\n".join(parts)


@pytest.mark.slow
def test_a_whole_game_against_greedy_and_search_bots(server_url: str, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pictures = os.environ.get("PASTICHE_SCREENSHOTS")
    shots = Path(pictures) if pictures else tmp_path
    rng = random.Random(4)
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: errors.append(message.text) if message.type == "error" else None,
            )
            page.goto(f"{server_url}/?players=3&seed=7&bots=greedy,search")
            page.wait_for_selector("body[data-state=ready]")
            # The visitor sits at seat 0 of a new game against the bots the address chose.
            assert page.locator("#hand .card").count() == 3
            names = page.locator("#players .player h3").all_inner_texts()
            assert names == ["You (player 0)", "Player 1 · greedy bot", "Player 2 · search bot"]
            colour = page.locator("#hand .card").first.evaluate(
                "node => getComputedStyle(node).backgroundColor"
            )
            assert colour not in ("rgb(221, 221, 221)", "")  # a genre colour from the palette
            # The form offers the same choices, filled from the address.
            page.click("#new-game")
            assert page.locator("#setup-players").input_value() == "3"
            bots = page.locator("#setup-bots select")
            assert [bots.nth(i).input_value() for i in range(bots.count())] == ["greedy", "search"]
            page.select_option("#setup-players", "5")
            assert page.locator("#setup-bots select").count() == 4
            page.select_option("#setup-players", "3")
            page.click("#new-game")  # closed again, the game goes on
            # The legend: every Novel with its requirement and points, and on hover.
            legend = page.locator("#legend tbody tr")
            assert legend.count() == 11
            kind3 = page.locator("#legend tr[data-novel=kind-3]").inner_text()
            assert kind3.startswith("3 of a Kind\nkind-3")  # the name, the id below it
            assert "3 cards of one rank" in kind3
            assert "\t1\t" in kind3  # one point
            hover = page.locator("#summary abbr[data-novel=total-7]").get_attribute("title")
            assert hover == (
                "Seven for 49 (total-7): 7 cards whose ranks add up to 49 · 3 points as a Masterpiece"
            )
            # The log tells the setup: player 2 kept three cards (a 3-player deal, R10).
            assert "Player 2 kept three cards" in page.locator("#log li").last.inner_text()
            hinted = False
            log_sizes: list[int] = []
            for _ in range(300):
                state = page.get_attribute("body", "data-state")
                if state == "over":
                    break
                assert state == "ready"
                log_sizes.append(page.locator("#log li").count())
                text = _main_text(page)
                assert not RULING.search(text), RULING.search(text)
                phase = page.get_attribute("body", "data-phase")
                novels = page.locator("#players .novel").count()
                can_publish = page.locator("#moves button[data-move^=publish]").count() > 0
                citing = page.locator("#moves button[data-move*=' cite ']")
                if citing.count():
                    # A cited Masterpiece is drawn as its card, not as "1:kind-3".
                    assert citing.first.locator(".cite .card").count() >= 1
                if not hinted and phase == "action" and novels >= 2 and can_publish:
                    page.click("#hint")
                    page.wait_for_selector("#hints li button")
                    page.wait_for_selector("body[data-state=ready]")
                    stats = page.locator("#hints .stats").first
                    assert "% · " in stats.inner_text()
                    assert "margin" not in stats.inner_text()
                    assert "visits" in (stats.get_attribute("title") or "")
                    assert not RULING.search(_main_text(page))
                    page.screenshot(path=str(shots / "web-table.png"))
                    hinted = True
                    page.locator("#hints li button").first.click()  # the best suggestion
                else:
                    buttons = page.locator("#moves button")
                    count = buttons.count()
                    assert count > 0
                    moves = [buttons.nth(i).get_attribute("data-move") or "" for i in range(count)]
                    publishes = [i for i, move in enumerate(moves) if move.startswith("publish")]
                    index = (
                        rng.choice(publishes)
                        if publishes and rng.random() < 0.7
                        else rng.randrange(count)
                    )
                    buttons.nth(index).click()
                page.wait_for_function("document.body.dataset.state !== 'busy'")
                assert page.locator("#error").inner_text() == ""
                assert page.locator("#move-error").inner_text() == ""
            else:
                raise AssertionError("the game did not end within 300 of the visitor's moves")
            assert hinted, "no hint was asked for"
            # The log was kept through the game, newest line first.
            assert log_sizes == sorted(log_sizes)
            assert log_sizes[-1] > 20
            lines = page.locator("#log li")
            assert lines.first.get_attribute("data-kind") == "over"
            assert "The game is over" in lines.first.inner_text()
            assert "Player 2 kept three cards" in lines.last.inner_text()
            log = page.locator("#log").inner_text()
            assert "You " in log
            assert "Player 1 " in log
            assert "Player 2 " in log
            # The game-over panel: names, scores, the winner, the tie-break, the End Flag.
            result = page.locator("#result")
            assert result.is_visible()
            assert page.locator("#turn-box").is_hidden()
            panel = result.inner_text()
            assert "Game over" in panel
            assert re.search(r"(wins?|share the win|tie on)", panel)
            rows = page.locator("#result .scores tr[data-seat]")
            assert rows.count() == 3
            shown = " ".join(rows.all_inner_texts())
            assert "Player 1 (greedy bot)" in shown
            assert "Player 2 (search bot)" in shown
            assert "You" in shown
            assert page.locator("#result .scores tr.won").count() >= 1
            assert result.get_attribute("data-tie-break") in (
                "points",
                "fewer-masterpieces",
                "shared",
            )
            flag = result.get_attribute("data-flag")
            assert flag in ("taken", "lost", "untaken")
            assert "End Flag" in panel
            assert page.locator("#status").inner_text().startswith("Game over: ")
            page.click("#result summary")
            page.wait_for_function(
                "document.querySelector('#result pre').textContent.includes('pastiche-record')"
            )
            # The help panel explains what the tooltips and the hints name.
            page.click("#help-button")
            help_text = page.locator("#help").inner_text()
            assert "margin" in help_text
            assert "visits" in help_text
            page.click("#help summary")
            assert "R13" in page.locator("#rulings").inner_text()
            assert errors == []
        finally:
            browser.close()
    assert (shots / "web-table.png").stat().st_size > 10_000
