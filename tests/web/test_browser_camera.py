"""A real browser at a phone's width on the camera's game: a win it laid out confirmed with the PIN, one of its
events undone and another fixed, and "I sit here" naming the camera's seat from this phone's own seat.

Against the site over a scripted camera game (tests/web/follow_fake.py); Playwright and Debian's chromium as in
test_browser.py (skips with the reason when either is missing).
"""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import PIN, ScriptedDetector, phone_context, phone_write, reading_of, serving, shot
from tests.web.follow_fake import FollowingService, camera_event
from tests.web.test_camera_routes import RON
from vision.read.pipeline import Reader

pytestmark = pytest.mark.browser

RED = "rgb(192, 38, 45)"  # --red in app.css
TOAST = "(document.querySelector('#toast') || {textContent: ''}).textContent"


@pytest.fixture
def site(tmp_path):
    service = FollowingService(
        pin=PIN,
        photo_reader=Reader.around(ScriptedDetector()),
        db_path=str(tmp_path / "g.db"),
        corrections_dir=str(tmp_path / "corrections"),
    )
    phone_write(service, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    with serving(service):
        yield service


def joined(context, site, errors):
    """A page of a phone that entered the table's PIN, on the Table page; its script errors go to ``errors``."""
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    base = site.url.rstrip("/")
    page.goto(base + "/join")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_url(base + "/")
    page.wait_for_selector(".seat .points")
    return page


def test_a_ron_the_camera_laid_out_is_confirmed_with_the_pin(context, site):
    errors: list[str] = []
    site.pend_win(RON, furiten_reason="5s is in Bo's own pond", auto_confirm_at=time.time() + 600)
    other = phone_context(context.browser)  # another phone, without the PIN
    guest = other.new_page()
    guest.goto(site.url)
    guest.wait_for_selector("#follow-pending:not([hidden]) #pending-confirm")
    assert "needs the table's PIN" in guest.inner_text("#follow-pending")
    guest.click("#pending-confirm")
    guest.wait_for_function(f"{TOAST}.includes('PIN')")
    assert site.calls == []  # refused at the door

    page = joined(context, site, errors)
    card = page.locator("#follow-pending")
    card.locator("#pending-confirm").wait_for()
    text = card.inner_text()
    assert "Ron: Bo (South) on Ann (East)'s 8s" in text
    hand = card.locator(".pending-hand .tile").evaluate_all("ts => ts.map((t) => t.dataset.tile).join('')")
    assert hand == "2m3m4m5p6p7p2s3s4s8s8s6s7s8s"  # 234m567p23488s67s, the winning 8s set apart at the end
    assert card.locator(".pending-hand .tile.win").get_attribute("data-tile") == "8s"
    assert card.locator(".big-num").inner_text() == "3,900"  # riichi pinfu tanyao, 3 han 30 fu, from the engine
    assert card.locator(".yaku td.num").all_inner_texts() == ["1 han"] * 3
    assert "Riichi" in text and "Pinfu" in text and "Tanyao" in text
    assert "base (futei)" in card.locator(".fu").inner_text()
    assert card.locator('.deltas tr[data-seat="1"] .num').inner_text() == "+3,900"
    assert card.locator('.deltas tr[data-seat="0"] .num').inner_text() == "-3,900"
    flag = card.locator(".furiten-flag")
    assert flag.inner_text() == "⚠ furiten: 5s is in Bo's own pond"
    assert flag.evaluate("e => getComputedStyle(e).color") == RED
    assert "Confirms by itself in" in card.locator("#pending-countdown").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(page, "20-camera-pending-ron")

    page.click("#pending-confirm")
    page.wait_for_selector("#follow-pending", state="hidden")
    assert site.calls == [("confirm", {})]
    page.wait_for_function(
        "[...document.querySelectorAll('.seat .points')].map(e => e.textContent).join()"
        " === '21,100,28,900,25,000,25,000'"
    )
    guest.wait_for_selector("#follow-pending", state="hidden")  # the other phone was told over the event stream
    other.close()
    assert not errors, errors


def test_a_camera_event_is_undone_and_another_fixed(context, site):
    errors: list[str] = []
    site.follow["events"] = [
        camera_event(0, "Ann discards 1z", {"type": "discard", "seat": 0, "tile": "1z"}),
        camera_event(1, "Bo discards 5p", {"type": "discard", "seat": 1, "tile": "5p"}),
        camera_event(2, "Cy discards 9s", {"type": "discard", "seat": 2, "tile": "9s"}),
    ]
    site.follow["contradictions"] = [
        {
            "clash": "vanished",
            "seat": 3,
            "side": "left",
            "frame_id": "f-9",
            "detail": "a tile left the pond",
            "frame": None,
        }
    ]
    page = joined(context, site, errors)
    page.wait_for_selector("#follow-card:not([hidden]) .fevent")
    texts = page.locator("#follow-events .ftext").all_inner_texts()
    assert texts == ["Cy discards 9s", "Bo discards 5p", "Ann discards 1z"]  # newest first
    clash = page.locator("#follow-clashes .clash")
    assert "Di (North): a tile left the pond" in clash.inner_text() and "frame f-9" in clash.inner_text()
    assert clash.locator(".error").evaluate("e => getComputedStyle(e).color") == RED
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(page, "21-camera-events")

    page.click('.fevent[data-id="2"] .undo-event')
    page.wait_for_function("document.querySelectorAll('#follow-events .fevent').length === 2")
    assert site.calls == [("undo", {"id": 2})]

    # Bo's 5p was Cy's red five: the picker, the seat, the tile
    page.click('.fevent[data-id="1"] .fix-event')
    page.wait_for_selector(".sheet .keyboard")
    assert page.input_value(".sheet .fix-seat") == "1"
    shot(page, "21b-camera-fix")
    page.select_option(".sheet .fix-seat", "2")
    page.click('.sheet .keyboard [data-tile="0p"]')
    page.wait_for_function("document.querySelector('#follow-events .ftext').textContent === 'fixed: 0p'")
    assert site.calls[-1] == ("fix", {"id": 1, "tile": "0p", "seat": 2})

    # Ann's 1z was Di's: only the seat
    page.click('.fevent[data-id="0"] .fix-event')
    page.select_option(".sheet .fix-seat", "3")
    page.click("#fix-seat-only")
    page.wait_for_function("document.querySelector('#follow-events .fevent').dataset.id === '0'")
    assert site.calls[-1] == ("fix", {"id": 0, "seat": 3})

    page.click("#resync-btn")
    page.wait_for_selector("#follow-clashes", state="hidden")
    assert site.calls[-1] == ("resync", {})
    assert not errors, errors


def test_i_sit_here_names_the_cameras_seat_from_my_own(context, site):
    from tests.vision.read.test_table import FRAME, FULL, lay
    from vision.read.table import read_table

    errors: list[str] = []
    dets = lay(FULL)
    site.observe(reading_of(dets, read_table(dets, FRAME), FRAME))
    page = joined(context, site, errors)
    page.wait_for_selector('#camera-table .tseat[data-side="right"] .sit-here')
    assert page.locator("#camera-table .sit-here").count() == 4

    # no seat chosen yet: asked first (Cy, seat 3), then Cy is at the camera's right: the camera's near seat is Bo
    page.click('.tseat[data-side="right"] .sit-here')
    page.click('.sheet .pick-seat[data-seat="2"]')
    page.wait_for_function("document.querySelector('#camera-table .thead strong').textContent === 'South · Bo'")
    assert site.calls == [("seat", 1)]
    assert page.input_value("#my-seat") == "2" and page.evaluate("localStorage.getItem('jantaku-seat')") == "2"
    right = page.locator('.tseat[data-side="right"]')
    assert right.locator(".sit-here").count() == 0 and "you" in right.locator(".thead").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "22-camera-i-sit-here")

    # Cy moves to the camera's left: the near seat is the one after Cy (Di)
    page.click('.tseat[data-side="left"] .sit-here')
    page.wait_for_function("document.querySelector('#camera-table .thead strong').textContent === 'North · Di'")
    assert site.calls == [("seat", 1), ("seat", 3)]
    assert not errors, errors


def test_a_ron_the_rules_refuse_shows_why_and_is_dismissed(context, site):
    errors: list[str] = []
    site.pend_win(RON, furiten_reason="Bo: 8s was passed since the riichi", refused="Ron refused: furiten")
    page = joined(context, site, errors)
    card = page.locator("#follow-pending")
    card.locator("#pending-confirm").wait_for()
    assert card.locator(".pending-error").inner_text() == "The rules refuse it as it is: Ron refused: furiten"
    assert card.locator(".furiten-flag").evaluate("e => getComputedStyle(e).color") == RED
    assert card.locator(".big-num").inner_text() == "3,900"  # what the hand would be worth, from the scorer
    assert card.locator(".deltas").count() == 0  # nothing would move
    assert page.is_disabled("#pending-confirm")
    page.click("#pending-dismiss")
    page.wait_for_selector("#follow-pending", state="hidden")
    assert site.calls == [("dismiss", {})]
    assert not errors, errors


#: Bo (seat 2) discards 1z, then waits on 1z and 2z: furiten by a discard of its own, judged from the game's ponds.
PONDS = [
    {"type": "hand_start", "dora_indicator": "9m"},
    {"type": "draw", "seat": 0},
    {"type": "discard", "seat": 0, "tile": "9p"},
    {"type": "draw", "seat": 1},
    {"type": "discard", "seat": 1, "tile": "1z"},
    {"type": "draw", "seat": 2},
]


def test_my_hand_gets_its_waits_and_a_red_furiten_from_the_games_ponds(context, site):
    errors: list[str] = []
    page = joined(context, site, errors)
    page.select_option("#my-seat", "1")
    page.fill("#my-hand", "123m456p789s1122z")
    page.click("#my-hand-form button")
    page.wait_for_selector("#my-waits .waits li")
    assert "furiten" not in page.inner_text("#my-waits")
    for event in PONDS:  # as the camera game applies them: each publishes the state, and the phone asks again
        phone_write(site, "event", event)
    page.wait_for_selector("#my-waits .warn")
    warn = page.locator("#my-waits .warn")
    assert "discard furiten" in warn.inner_text() and warn.evaluate("e => getComputedStyle(e).color") == RED
    waits = page.locator("#my-waits .waits li [data-tile]").evaluate_all("ts => ts.map((t) => t.dataset.tile)")
    assert waits == ["1z", "2z"]
    assert not errors, errors


def test_a_frame_picture_dropped_meanwhile_leaves_the_frame_number(context, site):
    """The state offered the picture (``image``), but the table kept newer ones since: the card names the frame."""
    errors: list[str] = []
    site.follow["contradictions"] = [
        {
            "clash": "vanished",
            "seat": 3,
            "side": "left",
            "frame_id": "f-gone",
            "detail": "a tile left the pond",
            "frame": 7,
            "image": True,
        }
    ]
    page = joined(context, site, errors)
    page.wait_for_function(
        "(document.querySelector('#follow-clashes .clash') || {textContent: ''}).textContent.includes('(frame f-gone)')"
    )
    assert page.locator("#follow-clashes .clash img").count() == 0
    assert [e for e in errors if "404" not in e] == []  # the browser logs the picture's 404, nothing else
