"""The phone pages send a write once: every tap carries its own Idempotency-Key and the game revision the page saw,
and the tapped button stays disabled until the answer comes back (Chromium at 360x740)."""

from __future__ import annotations

import pytest

from device.table.service import TableService
from tests.web.conftest import PIN, phone_write, serving
from tests.web.test_writes import DRAW

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "g.db"), corrections_dir=str(tmp_path / "corrections"))
    phone_write(service, "draw", DRAW)  # something to undo
    with serving(service):
        yield service


def test_a_double_tap_on_undo_sends_one_keyed_write_at_the_revision_seen(browser, site):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        base = site.url.rstrip("/")
        page.goto(base + "/join")
        page.fill("#pin", PIN)
        page.click("#pin-form button[type=submit]")
        page.wait_for_url(base + "/")
        page.goto(base + "/settle")
        page.wait_for_function("document.body.innerText.includes('draw, tenpai')")  # the state is in
        held = []
        page.route("**/api/game/undo", lambda route: held.append(route))  # the answer is held back
        events = site.state()["game"]["events"]
        revision = site.state()["game"]["revision"]
        page.evaluate("() => { const b = document.querySelector('#undo-btn'); b.click(); b.click(); }")  # two taps
        page.wait_for_function("document.querySelector('#undo-btn').disabled")
        page.wait_for_timeout(300)
        assert len(held) == 1  # the second tap hit a disabled button
        headers = held[0].request.headers
        assert headers["x-game-revision"] == revision and len(headers["idempotency-key"]) == 32
        held[0].continue_()
        page.wait_for_function("!document.querySelector('#undo-btn').disabled")  # enabled again with the answer
        # one write taken back: the draw, and the hand start written before it
        assert site.state()["game"]["events"] == events - 2 and site.state()["game"]["history"] == []
        assert len(held) == 1
    finally:
        ctx.close()
