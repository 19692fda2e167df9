"""The interactive API docs (``/docs``) in a real browser: a real example in every body, and a
publishes request sent from each of its examples (a position, a view, a state) is answered."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fake_analysis import fake_analyse
from service_support import running_server
from test_service_browser import CHROMIUM, CHROMIUM_ARGS

from pastiche_core.server import Service

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


@pytest.fixture
def docs_url() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 with a fake analysis, in a thread; the docs' address."""
    service = Service(analyse=fake_analyse)
    with running_server(service) as url:
        yield f"{url}/docs"
    service.close()


def test_every_body_has_a_real_example_and_publishes_answers_each(docs_url: str) -> None:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(docs_url)
            page.wait_for_selector(".route textarea")
            shown = page.locator(".route p").all_inner_texts()
            assert len(shown) > 10
            assert [text for text in shown if "`" in text] == []  # plain text, no Markdown
            bodies = page.locator(".route textarea")
            assert bodies.count() == 6  # publishes, hint, games, moves, outs, review
            for index in range(bodies.count()):
                text = bodies.nth(index).input_value()
                assert json.loads(text), f"body {index} is empty: {text!r}"
            route = page.locator(".route", has_text="/v1/publishes")
            choices = route.locator("select option")
            assert [choices.nth(i).inner_text() for i in range(choices.count())] == [
                "position",
                "view",
                "state",
            ]
            for name in ("position", "view", "state"):
                route.locator("select").select_option(name)
                body = json.loads(route.locator("textarea").input_value())
                assert ("view" in body) == (name == "view")
                assert ("state" in body) == (name == "state")
                route.locator("button", has_text="Send").click()
                page.wait_for_function(
                    "node => !node.hidden && node.textContent.length > 0",
                    arg=route.locator("pre").element_handle(),
                )
                answer = route.locator("pre").inner_text()
                assert answer.startswith("200\n"), answer[:200]
                assert '"format": "pastiche-publishes"' in answer
                route.locator("pre").evaluate(
                    "node => { node.hidden = true; node.textContent = ''; }"
                )
        finally:
            browser.close()
    assert errors == []
