"""What the web table shows of the outs and the review, checked against the library.

The phone test (``test_web_table_phone.py``) calls these with its Chromium
page and the server's URL. They read the page's game and token (the page's
``table``), ask the service over HTTP for the same view or record the page
was answered from, compute :func:`pastiche_core.outs` and
:func:`pastiche_core.review` in this process with the parameters the game
routes use, and compare:

* the document the page fetched with the library's, field for field;
* the Novel legend: each Novel's distance is its ``need`` ("ready", "N to go"),
  a Novel out of reach says why in short ("yours", "none left", "out of
  reach", R4 and R6), the End Flag says nothing (R12); each Novel with cards
  to go, opened by a tap, shows the outs' cards by rank and the odds rounded
  as the page rounds (``percent`` in ``insight.js``);
* sampled odds (:func:`check_sampled_odds_shown`): their intervals as well;
* the review panel: the visitor's labelled drops, largest first, with the
  label, the drop, the better move and both win chances as the document has them.
"""

from __future__ import annotations

import json
import math
import re
import urllib.request
from collections import Counter
from typing import Any

from pastiche_core import GameRecord, outs, review, view_from_dict
from pastiche_core.server import ServerLimits
from pastiche_core.server.outs_review import REVIEW_SIMULATIONS

REVIEW_SHOWN = 5
"""The drops the panel lists (``REVIEW_SHOWN`` in ``insight.js``)."""
SAMPLED_WRITES = 10
"""Writes ahead at which these deals' odds are sampled (the route's 3 keep them exact)."""
LIMITS = ServerLimits(time_limit=60.0, max_time_limit=60.0, review_time_limit=300.0)
"""The limits of the test's service: the defaults, but time enough that a loaded machine still
counts every outs and review whole (the comparison needs the whole count; the clock never
chooses between answers, it only cuts them short)."""


def percent(value: float) -> str:
    """A chance as the page shows it: whole percents, rounded half up as ``Math.round`` does.

    >>> [percent(v) for v in (0.0, 0.004, 0.125, 0.135, 0.996, 1.0)]
    ['0%', '<1%', '13%', '14%', '>99%', '100%']
    """
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 < value < 1:
        return ">99%"
    scaled = value * 100
    whole = math.floor(scaled)
    return f"{whole + (1 if scaled - whole >= 0.5 else 0)}%"


def plural(count: int, noun: str) -> str:
    """``plural`` in ``table.js``.

    >>> plural(1, "write"), plural(3, "write")
    ('1 write', '3 writes')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def short_reason(reason: str) -> str:
    """Why a Novel is out of reach, in the legend's words (``shortReason`` in ``insight.js``).

    >>> short_reason("the player holds kind-3 already: one copy per player (R6)")
    'yours'
    """
    if re.search(r"\bhold", reason):
        return "yours"
    if "no copy" in reason:
        return "none left"
    return "out of reach"


def _get(url: str, path: str, token: str) -> Any:
    """A GET of the service with the seat's token, as the page sends it."""
    request = urllib.request.Request(f"{url}/{path}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _post(url: str, path: str, body: object) -> Any:
    """A POST of a JSON body to the service."""
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(f"{url}/{path}", data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _seat(page: Any) -> tuple[str, str, int]:
    """The page's game, its token and its seat."""
    game, token, seat = page.evaluate("[table.game, table.token, table.state.seat]")
    return str(game), str(token), int(seat)


def expected_distance(document: dict[str, Any], novel: str) -> str:
    """The legend's last cell for ``novel`` by the outs ``document``.

    >>> document = {"novels": [{"novel": "kind-3", "need": 2}], "unreachable": []}
    >>> expected_distance(document, "kind-3"), expected_distance(document, "flag")
    ('2 to go', '')
    """
    for entry in document["novels"]:
        if entry["novel"] == novel:
            return "ready" if entry["need"] == 0 else f"{entry['need']} to go"
    for entry in document["unreachable"]:
        if entry["novel"] == novel:
            return short_reason(entry["reason"])
    return ""  # the End Flag: neither list (R12)


def check_outs_agree(page: Any, url: str, *, open_all: bool) -> Counter[str]:
    """The legend against ``pastiche_core.outs`` of the visitor's view.

    Call it once the page's outs are ready. With ``open_all`` it opens (and
    closes again) every Novel with cards to go. It counts what it compared: the
    distances shown ("ready", "to go", "yours"...) and the Novels "opened".
    """
    game, token, seat = _seat(page)
    state = _get(url, f"v1/games/{game}", token)
    view = view_from_dict(state["view"])
    assert view.player == seat
    # The game route's parameters: 3 writes, seed 0, the service's time limit.
    mine = outs(view, writes=3, seed=0, time_limit=LIMITS.time_limit)
    document = mine.to_dict()
    assert mine.complete, "the outs were cut short: the comparison needs the whole count"
    assert page.evaluate("table.outs") == document
    rows = page.locator("#legend tbody tr[data-novel]:not(.outs-detail)")
    ids = [rows.nth(i).get_attribute("data-novel") or "" for i in range(rows.count())]
    shown = page.locator(
        "#legend tbody tr[data-novel]:not(.outs-detail) td.distance"
    ).all_inner_texts()
    assert [text.strip() for text in shown] == [expected_distance(document, i) for i in ids]
    listed = [entry["novel"] for entry in document["novels"]]
    assert listed == [novel for novel in ids if novel in listed]  # catalogue order
    seen = Counter(re.sub(r"^\d+ ", "", text.strip()) for text in shown if text.strip())
    for entry in document["novels"] if open_all else ():
        if entry["need"] == 0:
            continue
        row = page.locator(f"#legend tbody tr.tappable[data-novel='{entry['novel']}']")
        row.click()
        _check_opened(page, entry)
        row.click()
        seen["opened"] += 1
    assert page.locator("#legend tr.outs-detail").count() == 0
    return seen


def check_sampled_odds_shown(page: Any, url: str) -> int:
    """Sampled odds on the page: the Monte Carlo's figures and intervals as the library's.

    The game route counts 3 writes, where these deals keep the odds exact; here
    the page's outs request is answered instead by ``POST /v1/outs`` of the same
    view at :data:`SAMPLED_WRITES` writes, where the odds are sampled (seeded),
    which must equal :func:`pastiche_core.outs` of that view. Every Novel with
    sampled odds is opened; the count opened is returned, 0 when a time limit
    cut either count short (then nothing is compared). The page asks for its own
    outs again before returning.
    """
    game, token, _ = _seat(page)
    view = _get(url, f"v1/games/{game}", token)["view"]
    served = _post(url, "v1/outs", {"view": view, "writes": SAMPLED_WRITES})
    mine = outs(view_from_dict(view), writes=SAMPLED_WRITES, seed=0, time_limit=LIMITS.time_limit)
    if not (served["complete"] and mine.complete):
        return 0
    assert served == mine.to_dict()
    sampled = [entry for entry in served["novels"] if entry["need"] and not entry["odds"]["exact"]]
    pattern = "**/v1/games/*/outs"
    page.route(pattern, lambda route: route.fulfill(json=served))
    try:
        page.evaluate("table.outsKey = null; askOuts(table.state)")
        page.wait_for_function("document.body.dataset.outs === 'ready'", timeout=30_000)
        assert page.evaluate("table.outs") == served
        for entry in sampled:
            row = page.locator(f"#legend tbody tr.tappable[data-novel='{entry['novel']}']")
            row.click()
            _check_opened(page, entry)
            row.click()
    finally:
        page.unroute(pattern)
    page.evaluate("table.outsKey = null; askOuts(table.state)")
    page.wait_for_function("document.body.dataset.outs === 'ready'", timeout=30_000)
    return len(sampled)


def _check_opened(page: Any, entry: dict[str, Any]) -> None:
    """A Novel's opened outs: its cards by rank, then each figure as the page rounds it."""
    detail = page.locator(f"#legend tr.outs-detail[data-novel='{entry['novel']}']")
    assert (
        detail.locator("p").first.inner_text() == f"You need {plural(entry['need'], 'more card')}."
    )
    groups = detail.locator(".outs .out")
    assert groups.count() == len(entry["outs"])
    for index, out in enumerate(entry["outs"]):
        group = groups.nth(index)
        assert group.locator(".card").all_inner_texts() == out["cards"]
        unseen = f"rank {out['rank']}: {out['unseen']} unseen (in the deck or another hand)"
        assert group.get_attribute("title") == unseen
    assert entry["out_cards"] == sum(len(out["cards"]) for out in entry["outs"])
    odds = entry["odds"]
    closer = f"Odds: next write brings you closer {percent(odds['next_write']['closer'])}"
    assert detail.locator(".odds").inner_text().startswith(closer)
    chances = detail.locator(".odds .chance")
    assert chances.all_inner_texts() == [
        f"· within {plural(step['writes'], 'write')}: {percent(step['publishable'])}"
        for step in odds["within"]
    ]
    for index, step in enumerate(odds["within"]):
        title = chances.nth(index).get_attribute("title")
        if odds["exact"]:
            assert title is None
            assert step["low"] == step["publishable"] == step["high"]
        else:
            interval = f"{percent(step['low'])}–{percent(step['high'])}"
            assert (
                title == f"95% interval {interval} from {plural(odds['samples'], 'sampled deal')}"
            )


def check_review_agrees(page: Any, url: str) -> int:
    """The review panel against ``pastiche_core.review`` of the game's record for the visitor.

    Call it once the panel is drawn. It opens every drop listed and returns how
    many the panel lists.
    """
    game, token, seat = _seat(page)
    record = GameRecord.from_dict(_get(url, f"v1/games/{game}/record", token))
    simulations = min(REVIEW_SIMULATIONS, LIMITS.max_review_simulations)
    decisions = sum(1 for _ in record.moves)  # every seat's: a bound on the visitor's
    assert decisions <= LIMITS.max_review_decisions, "the route would cap the review"
    document = review(record, player=seat, simulations=simulations, seed=0).to_dict()
    assert document["complete"]
    assert page.evaluate("table.review.doc") == document
    drops = [
        decision
        for decision in document["decisions"]
        if decision["player"] == seat and decision["label"] is not None and not decision["forced"]
    ]
    drops.sort(key=lambda decision: (-decision["drop"], decision["index"]))
    items = page.locator("#review .drops > li")
    assert items.count() == min(len(drops), REVIEW_SHOWN)
    for number, decision in enumerate(drops[:REVIEW_SHOWN]):
        item = items.nth(number)
        assert item.get_attribute("data-index") == str(decision["index"])
        assert item.get_attribute("data-label") == decision["label"]
        summary = item.locator("summary")
        assert summary.locator(".label").inner_text() == decision["label"]
        assert f": −{percent(decision['drop'])} win chance" in summary.inner_text()
        assert summary.locator(".better .move-words").get_attribute("data-move") == decision["best"]
        if not item.locator("details").evaluate("(node) => node.open"):
            summary.click()
        lines = item.locator(".decision > p")
        played, best = lines.nth(0), lines.nth(1)
        assert played.locator(".move-words").get_attribute("data-move") == decision["played"]
        assert best.locator(".move-words").get_attribute("data-move") == decision["best"]
        for line, chance in ((played, decision["win_played"]), (best, decision["win_best"])):
            assert line.locator("span.muted").inner_text().strip() == f"· wins {percent(chance)}"
    return int(items.count())
