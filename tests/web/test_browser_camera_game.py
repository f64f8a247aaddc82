"""End to end with the device's camera game: readings of a table played into the real TableService, the Table
page showing what the camera proposed, and the phone's taps reaching the game.

Needs the camera game (``device.table.camera_game``, issue 32's service side) and its tests' table frames; skips
until they are there. Playwright and Debian's chromium as in test_browser.py.
"""

from __future__ import annotations

import pytest

pytest.importorskip("device.table.camera_game", reason="the device's camera game is not in this tree yet")
frames = pytest.importorskip("tests.device.table.test_camera_game", reason="the camera game's table frames")

from device.table.service import TableService  # noqa: E402
from tests.vision.read.table_frames import B, table  # noqa: E402
from tests.web.conftest import PIN, phone_write, reading_of, serving, shot  # noqa: E402
from tests.web.test_browser_camera import joined  # noqa: E402

pytestmark = pytest.mark.browser


def play(service: TableService, tables: list) -> None:
    """Each table read from a frame (the loop's Reading), then held as the camera loop holds a still table (the
    frames a change takes to be fused and settled)."""
    for seen in tables:
        service.observe(reading_of(frames.detections_of(seen), seen))
        for _ in range(frames.HOLDS):
            service.hold()


@pytest.fixture
def site(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "g.db"), corrections_dir=str(tmp_path / "corrections"))
    phone_write(service, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    with serving(service):
        yield service


def test_discards_seen_are_listed_and_one_is_undone_from_the_phone(context, site):
    errors: list[str] = []
    page = joined(context, site, errors)
    play(site, frames.script("B:1z R:9p T:4z"))
    page.wait_for_function("document.querySelectorAll('#follow-events .fevent').length === 4")
    texts = page.locator("#follow-events .ftext").all_inner_texts()
    assert texts == [
        "Cy (W) discards 4z",
        "Bo (S) discards 9p",
        "Ann (E) discards 1z",
        "East 1: a new deal, dora indicator 4p",
    ]  # newest first
    page.click("#follow-events .fevent >> nth=0 >> .undo-event")
    page.wait_for_function("document.querySelectorAll('#follow-events .fevent').length === 3")
    last = site.game.game.events[-1]
    assert (last.type, last.seat, str(last.tile)) == ("discard", 1, "9p")  # back to before Cy's draw and discard
    assert [d["tile"] for d in site.state()["game"]["seats"][2]["pond"]] == []
    assert not errors, errors


def test_a_tsumo_laid_down_is_confirmed_from_the_phone(context, site):
    errors: list[str] = []
    page = joined(context, site, errors)
    hand = frames.script(frames.FIRST_GO)
    laid = table(frames.ponds_of(frames.FIRST_GO), dora="4p", hands={B: frames.WIN + "+0p"})
    play(site, [*hand, laid])
    card = page.locator("#follow-pending")
    card.locator("#pending-confirm").wait_for()
    assert "Tsumo: Ann (East)" in card.inner_text()
    tiles = card.locator(".pending-hand .tile").evaluate_all("ts => ts.map((t) => t.dataset.tile).join('')")
    assert tiles == "2m3m4m5m6m7m3p4p5p6s7s8s5p0p"  # the hand as laid, the red 5p set apart last
    assert "Riichi" in card.locator(".yaku").inner_text() and "Menzen Tsumo" in card.locator(".yaku").inner_text()
    assert card.locator('.deltas tr[data-seat="0"] .num').inner_text() == "+25,000"
    assert card.locator(".furiten-flag").count() == 0
    shot(page, "23-camera-game-tsumo")
    page.click("#pending-confirm")
    page.wait_for_selector("#follow-pending", state="hidden")
    page.wait_for_function(
        "[...document.querySelectorAll('.seat .points')].map(e => e.textContent).join()"
        " === '49,000,17,000,17,000,17,000'"
    )
    assert site.state()["game"]["history"][-1]["outcome"] == "tsumo"
    assert not errors, errors


def test_a_contradiction_shows_the_frame_it_was_seen_in_and_a_tap_enlarges_it(context, site):
    from tests.device.table.test_service_clash_frames import play as play_placed

    errors: list[str] = []
    page = joined(context, site, errors)
    play_placed(site, "B:1z T:4z")  # Cy discards out of turn
    clash = page.locator("#follow-clashes .clash")
    clash.locator("img.clash-frame").wait_for()
    assert "Cy (West)" in clash.inner_text()
    page.wait_for_function("document.querySelector('#follow-clashes img.clash-frame').naturalWidth === 1024")
    width = clash.locator("img.clash-frame").evaluate("i => i.getBoundingClientRect().width")
    assert 0 < width <= 240  # a thumbnail on the card
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(page, "24-camera-clash-frame")
    clash.locator("img.clash-frame").click()
    big = page.locator(".sheet img.clash-frame-big")
    page.wait_for_function("(document.querySelector('.sheet img.clash-frame-big') || {}).naturalWidth === 1024")
    assert big.evaluate("i => i.getBoundingClientRect().width") > width  # across the phone's width
    shot(page, "24b-camera-clash-frame-enlarged")
    assert not errors, errors
