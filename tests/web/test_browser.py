"""A real browser at a phone's width: join, upload a photo, fix a tile, score and settle a hand.

Playwright (the pip package) drives Debian's chromium (``apt-get install -y chromium``), headless, 390x844.
Screenshots of each step go to ``test-artifacts/browser/``. Skips with the reason when chromium or playwright
is missing.
"""

from __future__ import annotations

import shutil
import time

import pytest

from device.table.service import TableService
from tests.web.conftest import PIN, ScriptedDetector, jpeg, phone_write, reading_of, serving, shot
from vision.read.pipeline import Reader

pytestmark = pytest.mark.browser

# the photo is read as this hand, its first tile wrong (3m for 2m): the player fixes it
MISREAD = "334m567p23488s678s"
# the payments by seat the score page previews from the engine (POST /api/game/win/preview)
PAYMENTS = "(document.querySelector('#table-payments') || {textContent: ''}).textContent"


@pytest.fixture
def site(tmp_path):
    service = TableService(
        pin=PIN,
        photo_reader=Reader.around(ScriptedDetector(MISREAD)),
        db_path=str(tmp_path / "g.db"),
        corrections_dir=str(tmp_path / "corrections"),
    )
    with serving(service):
        yield service


def test_join_photo_fix_score_settle(context, site, tmp_path):
    base = site.url.rstrip("/")
    errors: list[str] = []
    watcher = context.new_page()  # another phone, watching the live table
    watcher.on("pageerror", lambda e: errors.append(f"watcher: {e}"))
    watcher.goto(base + "/")
    watcher.wait_for_selector(".seat .points")
    assert watcher.locator(".conn.live").count() == 1  # the event stream is up
    assert watcher.locator(".seat .points").all_inner_texts() == ["25,000"] * 4

    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"player: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)

    # join: the QR code and the PIN
    page.goto(base + "/join")
    assert page.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    shot(page, "1-join")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_url(base + "/")
    assert page.inner_text("#join-link") == "Joined"

    # score: upload a photo; the tiles appear as images
    page.goto(base + "/score")
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg(1200, 900))
    page.set_input_files("#photo", str(photo))
    page.wait_for_function("document.querySelectorAll('#hand .tile').length === 14")
    tiles = page.locator("#hand .tile")
    assert tiles.first.get_attribute("data-tile") == "3m"
    assert page.locator("#hand .tile img").first.evaluate("img => img.complete && img.naturalWidth > 0")
    shot(page, "2-read")

    # fix the misread tile: tap it, pick 2m
    tiles.first.click()
    page.wait_for_selector(".sheet")
    shot(page, "3-fix")
    page.click('.sheet .keyboard [data-tile="2m"]')
    page.wait_for_function("document.querySelector('#hand .tile').dataset.tile === '2m'")
    deadline = time.monotonic() + 5
    while not site.corrections.corrections and time.monotonic() < deadline:
        time.sleep(0.05)
    fix = site.corrections.corrections[-1]
    assert (fix.before, fix.after, fix.index) == ("3m", "2m", 0)

    # riichi, ron; score it
    page.check('input[name="flag"][value="riichi"]')
    page.click("#score-btn")
    page.wait_for_selector("#result:not([hidden]) .big-num")
    result = page.inner_text("#result")
    assert "Riichi" in result and "Pinfu" in result and "Tanyao" in result
    assert page.inner_text("#result .big-num") == "5,800"  # dealer (East) ron: riichi pinfu tanyao, 3 han 30 fu
    shot(page, "4-result")

    # settle: seat 2 (South) won on seat 1's discard
    page.select_option("#winner-seat", "1")
    page.select_option("#discarder-seat", "0")
    page.click("#score-btn")  # rescore as South (the seat wind follows the winner)
    page.wait_for_function("document.querySelector('#result .big-num').textContent === '3,900'")
    page.wait_for_function(f"{PAYMENTS}.includes('Seat 1 (East) pays Seat 2 (South)')")  # the engine's preview
    page.click("#settle-btn")
    page.wait_for_selector("#toast:not([hidden])")
    assert "recorded" in page.inner_text("#toast")
    shot(page, "5-settled")

    # the other phone saw the points move, over the event stream
    watcher.wait_for_function(
        "[...document.querySelectorAll('.seat .points')].map(e => e.textContent).join()"
        " === '21,100,28,900,25,000,25,000'"
    )
    shot(watcher, "6-live-table")

    # the hand history on the settle page
    page.goto(base + "/settle")
    page.wait_for_selector("#history tr")
    assert "Seat 2 ron from Seat 1" in page.inner_text("#history")
    assert [s["points"] for s in site.state()["game"]["seats"]] == [21100, 28900, 25000, 25000]

    # a riichi declared in the next hand: the stick shows on the other phone
    page.click('.riichi-btn[data-seat="2"]')
    watcher.wait_for_function("document.querySelector('#sticks').textContent.startsWith('1')")
    assert site.state()["game"]["sticks"] == 1
    shot(page, "7-settle")

    # the table camera's close-up: pushed by the device loop, taken onto the score page with one tap
    import numpy as np

    frame = np.zeros((720, 1280, 3), np.uint8)
    site.observe(reading_of(ScriptedDetector("123m456p789s11z222z").detect(frame), frame=frame))
    watcher.wait_for_function("document.querySelectorAll('#camera .tile').length === 14")
    shot(watcher, "8-camera-strip")
    page.goto(base + "/score")
    page.click("#from-camera")
    page.wait_for_function("document.querySelectorAll('#hand .tile').length === 14")
    assert page.locator("#hand .tile").first.get_attribute("data-tile") == "1m"

    # a hand the camera follows: ponds with the riichi tile sideways, dora, furiten and waits on the live table
    from tests.web.test_live import EVENTS

    phone_write(site, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    for event in EVENTS:
        phone_write(site, "event", event)
    watcher.wait_for_selector('.seat[data-seat="1"] .pond .tile.sideways')
    watcher.select_option("#my-seat", "1")
    assert watcher.locator("#dora .tile.dora").get_attribute("data-tile") == "1m"  # indicator 9m, as the server says
    assert "riichi furiten" in watcher.inner_text('.seat[data-seat="1"] .warn')
    assert watcher.locator('.seat[data-seat="1"] .waits li').count() == 2
    # the player's own hand, told only to their phone
    watcher.fill("#my-hand", "123m456p789s1122z")
    watcher.click("#my-hand-form button")
    watcher.wait_for_selector("#my-waits .waits li")
    assert "riichi furiten" in watcher.inner_text("#my-waits")
    shot(watcher, "9-followed-hand")

    # a whole East-only game to its end: final results with uma and oka on the settle page
    phone_write(
        site, "new", {"rules": {"preset": "standard", "game_length": "east"}, "names": ["Ann", "Bo", "Cy", "Di"]}
    )
    for dealer in range(4):
        phone_write(
            site,
            "win",
            {
                "winner": (dealer + 1) % 4,
                "discarder_seat": dealer,
                "hand": "234m567p23488s678s",
                "win_tile": "8s",
                "flags": ["riichi"],
            },
        )
    page.goto(base + "/settle")
    page.wait_for_selector("#final:not([hidden]) tbody tr")
    final = page.inner_text("#final")
    assert "Final results" in final and "+35,000" in final  # first place: uma 15,000 and oka 20,000
    shot(page, "10-final")
    assert not errors, errors


def _keyboard(page, text: str) -> None:
    """Type a hand on the score page's tile keyboard (the last tile becomes the winning tile)."""
    from engine.tiles import parse_tiles

    for t in parse_tiles(text):
        page.click(f'#keyboard [data-tile="{t}"]')


def test_double_ron_with_pao_and_import_from_the_phone(context, site, tmp_path):
    base = site.url.rstrip("/")
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"player: {e}"))
    page.on("dialog", lambda d: d.accept())  # the import asks to confirm
    page.goto(base + "/join")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_url(base + "/")

    # seat 1 (South) wins on the dealer's 4p: riichi-less pinfu ittsu, 3900
    page.goto(base + "/score")
    page.wait_for_selector("#seat-row:not([hidden])")
    _keyboard(page, "123456789m23p55s4p")
    page.select_option("#winner-seat", "1")
    page.select_option("#discarder-seat", "0")
    page.click("#score-btn")
    page.wait_for_function("(document.querySelector('#result:not([hidden]) .big-num') || {}).textContent === '3,900'")
    assert page.is_hidden("#liable-label")  # no yakuman with liability in this hand
    page.wait_for_function(f"{PAYMENTS}.includes('Seat 1 (East) pays Seat 2 (South)')")
    page.click("#add-winner-btn")
    page.wait_for_selector("#other-winners:not([hidden])")
    assert "Seat 2 (South): 123456789m23p55s4p" in page.inner_text("#other-winners")

    # seat 2 (West) wins on the same 4p with big dragons; seat 3 fed the last dragon: liable (pao)
    _keyboard(page, "23p88m4p")
    page.fill("#melds", "pon:555z pon:666z pon:777z")
    page.select_option("#winner-seat", "2")
    page.select_option("#discarder-seat", "0")
    page.click("#score-btn")
    page.wait_for_function("(document.querySelector('#result:not([hidden]) .big-num') || {}).textContent === '32,000'")
    page.wait_for_selector("#liable-label:not([hidden])")
    page.select_option("#liable-seat", "3")
    # the liable list follows the winner (anyone but them), keeping a choice still valid
    liable_options = "[...document.querySelectorAll('#liable-seat option')].map((o) => o.value).join()"
    page.select_option("#winner-seat", "1")
    assert (page.evaluate(liable_options), page.input_value("#liable-seat")) == (",0,2,3", "3")
    page.select_option("#winner-seat", "3")
    assert (page.evaluate(liable_options), page.input_value("#liable-seat")) == (",0,1,2", "")
    page.select_option("#winner-seat", "2")
    page.select_option("#liable-seat", "3")
    # the preview settles it as recording will: the liable player pays half of the big dragons before the Confirm
    page.wait_for_function(f"{PAYMENTS}.includes('Seat 4 (North) pays Seat 3 (West)')")
    previewed = page.inner_text("#table-payments")
    assert "liability (pao), half" in previewed and "16,000" in previewed and "-19,900" in previewed, previewed
    shot(page, "11-double-ron-pao")
    page.click("#settle-btn")
    page.wait_for_function("(document.querySelector('#toast') || {textContent: ''}).textContent.includes('recorded')")
    # 001: both paid by the discarder, big dragons split half-half between the liable player and the discarder
    points = [s["points"] for s in site.state()["game"]["seats"]]
    assert points == [25000 - 3900 - 16000, 25000 + 3900, 25000 + 32000, 25000 - 16000]
    assert page.is_hidden("#other-winners")

    # the game exported, a new game started, the export imported on the settle page: the points come back
    exported = tmp_path / "game.json"
    exported.write_text(page.request.get(base + "/api/game/export").text())
    phone_write(site, "new", {"names": ["", "", "", ""]})
    page.goto(base + "/settle")
    page.set_input_files("#import-file", str(exported))
    page.click("#import-form button[type=submit]")
    page.wait_for_function("(document.querySelector('#toast') || {textContent: ''}).textContent.includes('imported')")
    assert [s["points"] for s in site.state()["game"]["seats"]] == points
    page.wait_for_selector("#history tr")
    assert "ron from" in page.inner_text("#history")
    assert not errors, errors


def test_the_whole_table_seat_by_seat(context, site):
    import dataclasses

    from tests.vision.read.test_table import FRAME, FULL, lay
    from vision.read.table import FrameSide, read_table

    base = site.url.rstrip("/")
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(base + "/")
    page.wait_for_selector(".seat .points")
    assert page.is_hidden("#camera-table")  # no camera reading yet

    # the reader's test table, its dead wall showing 9m and a red five: the dora are 1m and 6m
    seats = dict(FULL)
    seats[FrameSide.LEFT] = dataclasses.replace(seats[FrameSide.LEFT], indicators="9m0m")
    dets = lay(seats)
    table = read_table(dets, FRAME)
    phone_write(site, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    site.observe(reading_of(dets, table, FRAME))
    page.wait_for_selector("#camera-table:not([hidden]) .tseat")
    sides = page.locator("#camera-table .tseat")
    assert [sides.nth(i).get_attribute("data-side") for i in range(4)] == ["bottom", "right", "top", "left"]
    assert sides.locator(".thead strong").all_inner_texts() == ["near", "right", "far", "left"]
    assert "does not know which seat" in page.inner_text("#camera-table .tnote")
    dora = page.locator("#camera-table .tdora [data-dora]").evaluate_all("xs => xs.map(x => x.dataset.dora)")
    assert dora == ["1m", "6m"]
    assert page.locator('#camera-table .tdora .tile[data-tile="0m"] img').evaluate(
        "img => img.src.endsWith('/static/tiles/0m.png') && img.complete && img.naturalWidth > 0"
    )
    # each group has its mpsz text for a screen reader; riichi and called tiles lie sideways
    bottom = page.locator('#camera-table .tseat[data-side="bottom"]')
    assert bottom.locator(".thtiles").get_attribute("aria-label") == f"near hand: {table.seats[0].hand_text}"
    assert bottom.locator(".tpond .prow").count() == 2  # 7 discards: rows of six
    assert bottom.locator(".tpond .tile").nth(table.seats[0].riichi).get_attribute("class") == "tile sideways"
    assert "riichi on the 5th" in bottom.locator(".tpond").get_attribute("aria-label")
    assert bottom.locator(".meld .tile.sideways").count() == 1
    top = page.locator('#camera-table .tseat[data-side="top"]')
    assert top.locator('.meld .tile[data-tile="0m"]').count() == 1  # the red five in the open kan
    assert top.locator(".meld").nth(1).locator('.tile[data-tile="back"]').count() == 2  # the closed kan's ends
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    assert "null" not in page.inner_text("#camera-table") and "undefined" not in page.inner_text("#camera-table")
    shot(page, "12-camera-table")

    # the same table again: the page is left as it is (nothing redrawn, nothing jumps)
    page.evaluate("document.querySelector('#camera-table .tseat').dataset.mark = 'kept'")
    box = page.locator("#camera-table").bounding_box()
    site.observe(reading_of(dets, table, FRAME))
    page.wait_for_function("document.querySelector('#camera').dataset.at && document.querySelector('#camera details')")
    time.sleep(0.3)
    assert page.locator("#camera-table .tseat").first.get_attribute("data-mark") == "kept"
    assert page.locator("#camera-table").bounding_box() == box

    # the service knows seat 1 (East, the dealer) sits at the camera's bottom edge: the seats by wind and name
    site.set_camera_seat(0)
    site.observe(reading_of(dets, table, FRAME))
    page.wait_for_function("document.querySelector('#camera-table .thead strong').textContent === 'East · Ann'")
    assert sides.locator(".thead strong").all_inner_texts() == ["East · Ann", "South · Bo", "West · Cy", "North · Di"]
    assert page.locator("#camera-table .tnote").count() == 0
    assert "dealer" in sides.first.get_attribute("class")
    shot(page, "13-camera-table-seats")
    assert not errors, errors


def _has_cjk_font() -> bool:
    """Whether fontconfig (which Chromium on Linux asks) has a font for Japanese."""
    import subprocess

    fc = shutil.which("fc-list")
    return bool(fc and subprocess.run([fc, ":lang=ja"], capture_output=True, text=True).stdout.strip())


CJK = "[\u3040-\u30ff\u3400-\u9fff]"


def test_english_labels_with_the_japanese_beside_them(context, site):
    page = context.new_page()
    page.goto(site.url.rstrip("/") + "/")
    page.wait_for_selector(".seat .points")
    cjk = _has_cjk_font()
    badges = [page.inner_text("#honba"), page.inner_text("#sticks")]
    # English first; the Japanese beside it where a font draws it, hidden (never boxes) where none does
    assert badges == (["0 honba 本場", "0 riichi sticks 供託"] if cjk else ["0 honba", "0 riichi sticks"])
    assert page.evaluate("document.documentElement.classList.contains('no-cjk')") is (not cjk)
    # a yaku: its romanised name, the Japanese, and what it means in English
    page.goto(site.url.rstrip("/") + "/score")
    page.wait_for_selector("#seat-row:not([hidden])")
    _keyboard(page, "234m456p678s23s55p4s")
    page.check('input[name="flag"][value="riichi"]')
    page.click("#score-btn")
    page.wait_for_selector("#result:not([hidden]) .big-num")
    result = page.inner_text("#result")
    assert "Riichi" in result and "Ready hand declared" in result and "All simples" in result
    assert ("立直" in result) is cjk
    page.goto(site.url.rstrip("/") + "/settle")
    options = page.locator("#abort-kind option").all_inner_texts()
    assert options[0] == ("Nine terminals 九種九牌" if cjk else "Nine terminals")
    if not cjk:
        import re

        assert not re.search(CJK, page.inner_text("body")), "Japanese drawn without a font for it"
    shot(page, "14-labels")


def test_my_waits_are_priced_for_the_seat_picked(context, site):
    page = context.new_page()
    page.goto(site.url.rstrip("/") + "/")
    page.wait_for_selector(".seat .points")
    page.fill("#my-hand", "234m456p678s23s55p")
    page.click("#my-hand-form button")
    waits = "[...document.querySelectorAll('#my-waits .waits li')].map((li) => li.textContent).join(' | ')"
    page.wait_for_selector("#my-waits .priced-as")
    # no seat picked: a non-dealer's price (pinfu tanyao on 4s, 2,000), and the page says so
    assert "non-dealer" in page.inner_text("#my-waits .priced-as")
    assert "ron 2,000" in page.evaluate(waits)
    for seat, ron, who in [("0", "ron 2,900", "dealer"), ("1", "ron 2,000", "seat 2 (South)")]:
        page.select_option("#my-seat", seat)  # asked again at once: the old figures do not stay
        page.wait_for_function(f"({waits}).includes('{ron}')")
        assert who in page.inner_text("#my-waits .priced-as")
    shot(page, "15-my-waits")


def test_score_page_takes_the_near_hand_and_the_dora_from_the_camera(context, site):
    from engine.tiles import parse_tiles
    from tests.vision.read.test_table import FRAME, FULL, lay
    from vision.read.table import read_table

    dets = lay(FULL)
    table = read_table(dets, FRAME)
    near = table.seats[0]
    phone_write(site, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    site.observe(reading_of(dets, table, FRAME))
    page = context.new_page()
    page.goto(site.url.rstrip("/") + "/score")
    tiles = "[...document.querySelectorAll('#%s .tile')].map((t) => t.dataset.tile).join('')"
    # the dora field starts with the indicator the camera sees
    page.wait_for_function(f"{tiles % 'dora-tiles'} === '3p'")
    page.click("#from-camera")
    page.wait_for_function(f"{tiles % 'hand'} !== ''")
    hand = near.hand_text + ("" if near.drawn_tile is None else str(near.drawn_tile))
    assert page.evaluate(tiles % "hand") == "".join(str(t) for t in parse_tiles(hand))  # the hand, not the pond
    shot(page, "16-camera-hand")
