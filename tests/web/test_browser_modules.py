"""The phone pages as native ES modules, in Chromium: every script is a module, no page leaves anything on
``window`` for another to read, and the dora drawn are the ones the server names (the page computes none).

Playwright and Debian's chromium as in test_browser.py; screenshots go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import copy
import json

import pytest

from device.table.service import TableService
from tests.web.conftest import PIN, serving, shot

pytestmark = pytest.mark.browser

#: Each page, and what shows it has run its module (the live updates up, or the join form ready).
PAGES = [
    ("/", "#conn.live"),
    ("/score", "#conn.live"),
    ("/settle", "#conn.live"),
    ("/join", "#pin-form"),
]

#: What a page's scripts added to ``window``: its own property names less those of an empty page.
ADDED_GLOBALS = "(blank) => Object.getOwnPropertyNames(window).filter((n) => !blank.includes(n))"


@pytest.fixture
def site(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "g.db"), corrections_dir=str(tmp_path / "corrections"))
    with serving(service):
        yield service


def test_every_page_runs_as_modules_and_leaves_no_globals(context, site):
    base = site.url.rstrip("/")
    errors: list[str] = []
    blank = context.new_page()  # a page of the same origin with no script: the window every page starts from
    blank.route(base + "/blank", lambda route: route.fulfill(content_type="text/html", body="<!doctype html><p>blank"))
    blank.goto(base + "/blank")
    names = blank.evaluate("Object.getOwnPropertyNames(window)")
    for path, ready in PAGES:
        page = context.new_page()
        page.on("pageerror", lambda e, path=path: errors.append(f"{path}: {e}"))
        page.goto(base + path)
        page.wait_for_selector(ready, state="attached")
        scripts = page.evaluate("[...document.scripts].map((s) => [s.type, new URL(s.src).pathname])")
        assert scripts and all(kind == "module" for kind, _ in scripts), (path, scripts)
        assert page.evaluate(ADDED_GLOBALS, names) == [], path
        page.close()
    assert not errors, errors


#: The dora a state names: the engine's rule, and one no page could work out (the page computes none, it draws these).
NAMED = [
    # indicators, the dora the server names for them, the ura indicators, the ura it names
    (["9m"], ["1m"], ["0p"], ["6p"]),  # the engine's own rule: 9 wraps to 1, a red five points as a five
    (["4z"], ["7z"], ["7z"], ["2z"]),  # another server's rule: whatever it says is drawn
]


@pytest.mark.parametrize(("indicators", "dora", "ura_indicators", "ura"), NAMED)
def test_the_table_page_draws_the_dora_the_server_names(context, site, indicators, dora, ura_indicators, ura):
    base = site.url.rstrip("/")
    site.new_game(site.rules, ["Ann", "Bo", "Cy", "Di"])
    state = copy.deepcopy(site.state())
    state["game"].update(dora_indicators=indicators, dora=dora, ura_indicators=ura_indicators, ura=ura)
    body = f"retry: 60000\nid: {state['seq']}\nevent: state\ndata: {json.dumps(state)}\n\n"
    page = context.new_page()
    # the stream tells this state (once: the next try is a minute away), as a server with this rule would
    page.route("**/events?*", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body))
    page.goto(base + "/")
    page.wait_for_selector("#ura-line:not([hidden]) .tile")
    # each indicator, its arrow and its dora, as drawn in the box
    drawn = "(b) => [...document.querySelectorAll(b + ' .row')].map((r) => [...r.children].map((x) => x.dataset.tile))"
    assert page.evaluate(drawn, "#dora") == [[i, None, d] for i, d in zip(indicators, dora, strict=True)]
    assert page.evaluate(drawn, "#ura") == [[i, None, d] for i, d in zip(ura_indicators, ura, strict=True)]
    shot(page, f"24-dora-as-named-{dora[0]}")
