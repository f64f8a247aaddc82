"""The phone pages in Chromium at a small phone's size (360x740): a 13-tile hand asks for its winning tile, the
Table page says whose turn it is and shows the final results, the Settle history fits the width, and quick page
switches keep the live updates (each page's stream goes when the page goes, and comes back when it is shown).

Playwright and Debian's chromium as in test_browser.py; screenshots go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import time

import pytest

from device.table.service import TableService
from tests.web.conftest import PIN, phone_write, serving, shot
from tests.web.test_live import EVENTS

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 360, 740
NAMES = ["Annabelle-Christina", "Bartholomew Jones", "Cy", "Di"]  # names as long as the page allows (20)


@pytest.fixture
def site(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "g.db"), corrections_dir=str(tmp_path / "corrections"))
    with serving(service):
        yield service


@pytest.fixture
def phone(browser, site):
    """A small phone: 360x740 CSS pixels, touch."""
    ctx = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        bypass_csp=True,
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def page_of(phone, errors: list[str]):
    page = phone.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def join(page, base: str) -> None:
    page.goto(base + "/join")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_url(base + "/")


def keyboard(page, text: str) -> None:
    from engine.tiles import parse_tiles

    for t in parse_tiles(text):
        page.click(f'#keyboard [data-tile="{t}"]')


def tiles_of(page, selector: str) -> str:
    return page.evaluate(f"[...document.querySelectorAll('{selector} .tile')].map((t) => t.dataset.tile).join('')")


def fits(page) -> int:
    """How wide the page is drawn (CSS pixels): more than the screen means it scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


# --- 12: a hand of 13 tiles asks for the winning tile ------------------------------------------------------------

THIRTEEN = [
    # tapped (13 with the melds), melds, waits offered, tile picked, what East (dealer) scores on a ron
    ("234m456p678s23s55p", "", "1s4s", "4s", "2,900"),  # pinfu tanyao, 30 fu 2 han
    ("23p88m", "pon:555z pon:666z pon:777z", "1p4p", "1p", "48,000"),  # big three dragons (daisangen)
]


@pytest.mark.parametrize(("tapped", "melds", "waits", "picked", "total"), THIRTEEN)
def test_thirteen_tiles_ask_for_the_winning_tile(phone, site, tapped, melds, waits, picked, total):
    base = site.url.rstrip("/")
    errors: list[str] = []
    page = page_of(phone, errors)
    scored: list[str] = []
    page.on("request", lambda r: scored.append(r.post_data or "") if r.url.endswith("/api/score") else None)
    page.goto(base + "/score")
    keyboard(page, tapped)
    if melds:
        page.fill("#melds", melds)
    page.click("#score-btn")
    # not scored as it is: the page asks which tile won, the hand's waits first
    page.wait_for_selector('.sheet[aria-label="winning tile"]')
    page.wait_for_selector("#win-waits .tile")
    assert tiles_of(page, "#win-waits") == waits
    assert scored == [] and page.is_hidden("#result")
    shot(page, "20-thirteen-tiles-360")
    page.click(f'#win-waits [data-tile="{picked}"]')
    page.wait_for_selector("#result:not([hidden]) .big-num")
    assert page.inner_text("#result .big-num") == total
    assert page.locator("#hand .tile").count() == len(tapped.replace("m", "").replace("p", "").replace("s", "")) + 1
    assert page.locator("#hand .tile").last.get_attribute("class").split() == ["tile", "win"]
    assert len(scored) == 1 and f'"win_tile":"{picked}"' in scored[0]
    assert fits(page) <= WIDTH
    assert not errors, errors


def test_fourteen_tiles_are_scored_at_once(phone, site):
    page = page_of(phone, [])
    page.goto(site.url.rstrip("/") + "/score")
    keyboard(page, "234m456p678s23s55p4s")
    page.click("#score-btn")
    page.wait_for_selector("#result:not([hidden]) .big-num")
    assert page.inner_text("#result .big-num") == "2,900" and page.locator(".sheet").count() == 0


# --- 14: whose turn, and the game's end with its final results, on the Table page ---------------------------------


def test_the_table_page_says_whose_turn_it_is(phone, site):
    base = site.url.rstrip("/")
    errors: list[str] = []
    phone_write(site, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})
    page = page_of(phone, errors)
    page.goto(base + "/")
    page.wait_for_selector("#turn:not([hidden])")
    assert page.inner_text("#turn") == "Between hands: Ann (East) deals next."
    turns = [  # the events played so far, whose turn the engine says it is, and what the page says
        (EVENTS, 3, "Di (North)'s turn to discard"),
        ([{"type": "discard", "seat": 3, "tile": "9s"}], 0, "Ann (East)'s turn to draw (or a call / ron on the discard)"),  # noqa: E501
    ]  # fmt: skip
    for events, to_act, text in turns:
        for event in events:
            phone_write(site, "event", event)
        assert site.state()["game"]["to_act"] == to_act
        page.wait_for_function(f"document.querySelector('#turn').textContent === {text!r}")
        assert page.locator(".seat.acting").get_attribute("data-seat") == str(to_act)
        assert page.locator(".seat .to-act").count() == 1
    shot(page, "21-table-turn-360")
    assert not errors, errors


FINALS = [
    # preset, the bonus column's name, first place's bonus (uma, and oka where the rules have it)
    ("standard", "Uma/oka", "+35,000"),  # 001: uma 15,000 / 5,000, oka 20,000
    ("wrc", "Uma", "+15,000"),  # 000: uma 15,000 / 5,000, no oka (30,000 start and target)
]


@pytest.mark.parametrize(("preset", "column", "first_bonus"), FINALS)
def test_the_table_page_shows_the_game_over_with_the_final_results(phone, site, preset, column, first_bonus):
    base = site.url.rstrip("/")
    errors: list[str] = []
    phone_write(site, "new", {"rules": {"preset": preset, "game_length": "east"}, "names": ["Ann", "Bo", "Cy", "Di"]})
    page = page_of(phone, errors)
    page.goto(base + "/")
    page.wait_for_selector("#turn:not([hidden])")
    assert page.is_hidden("#final")
    for dealer, dora in enumerate(["7s", "", "", ""]):  # an East-only game: a ron each hand, the first one dearer
        win = {"winner": (dealer + 1) % 4, "discarder_seat": dealer, "hand": "234m567p23488s678s", "win_tile": "8s"}
        phone_write(site, "win", {**win, "flags": ["riichi"], "dora": dora})
    game = site.state()["game"]
    assert game["finished"]
    page.wait_for_function("document.querySelector('#turn').textContent.startsWith('Game over')")
    assert page.inner_text("#round-name") == "Game over"  # not the engine's next round, never played
    assert page.locator(".seat.acting").count() == 0
    rows = page.locator("#final tbody tr")
    assert page.inner_text("#final h2") == "Final results"
    assert page.locator("#final thead th").all_inner_texts() == ["", "Player", "Points", column, "Result"]
    # the server's figures as they are (placement, final points, uma with any oka, the result), best first
    shown = [rows.nth(i).locator("td").all_inner_texts() for i in range(4)]
    assert shown == [
        [
            f"{f['place']}{['st', 'nd', 'rd', 'th'][f['place'] - 1]}",
            f["name"],
            f"{f['points']:,}",
            f"{'+' if f['uma'] + f['oka'] > 0 else ''}{f['uma'] + f['oka']:,}",
            f"{'+' if f['result'] > 0 else ''}{f['result']:.1f}",
        ]
        for f in game["final"]
    ]
    assert [f["place"] for f in game["final"]] == [1, 2, 3, 4] and shown[0][3] == first_bonus
    assert fits(page) <= WIDTH
    shot(page, f"22-table-final-{preset}-360")
    assert not errors, errors


# --- 15: the Settle history fits a 360-px phone ----------------------------------------------------------------


def test_the_settle_history_and_final_results_fit_a_360_px_phone(phone, site):
    phone_write(site, "new", {"names": NAMES})
    phone_write(site, "riichi", {"seat": 1})
    for dora in ("7s", "7s", "7s", "7s7s"):  # the dealer's tsumo again and again: the others bust
        phone_write(
            site,
            "win",
            {
                "winner": 0,
                "tsumo": True,
                "hand": "234m567p23488s678s",
                "win_tile": "8s",
                "flags": ["riichi"],
                "dora": dora,
            },
        )
    assert site.state()["game"]["finished"]
    page = page_of(phone, [])
    page.goto(site.url.rstrip("/") + "/settle")
    page.wait_for_selector("#final:not([hidden]) tbody tr")
    assert page.locator("#history tr").count() == 4
    assert fits(page) <= WIDTH  # 430 px before: the four figures of a row side by side
    assert page.locator("#history tr").first.locator("td.deltas span").all_inner_texts() == [
        "+19,000",
        "-6,000",
        "-6,000",
        "-6,000",
    ]  # one seat a line
    shot(page, "23-settle-history-360")


# --- 13: quick page switches keep the live updates ---------------------------------------------------------------


def _live_within(page, seconds: float) -> bool:
    try:
        page.wait_for_function("document.querySelector('#conn.live') !== null", timeout=seconds * 1000)
        return True
    except Exception:  # playwright's TimeoutError
        return False


def _streams_within(service, count: int, seconds: float) -> int:
    """The streams the site holds once they are ``count``, or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while service.bus.subscribers != count and time.monotonic() < deadline:
        time.sleep(0.05)
    return service.bus.subscribers


def test_quick_page_switches_keep_the_live_updates(phone, site):
    base = site.url.rstrip("/")
    errors: list[str] = []
    page = page_of(phone, errors)
    for path in ["/", "/settle", "/score", "/"] * 3:  # faster than any heartbeat: each page's stream left open
        page.goto(base + path, wait_until="commit")
        time.sleep(0.15)
    page.goto(base + "/settle")
    assert _live_within(page, 1.5), "the page got no live updates at once"
    page.wait_for_selector("#standings div")
    # the streams of the pages left are freed within a check of the server (0.5 s), not held until a heartbeat
    assert _streams_within(site, 1, 1.5) == 1

    # hidden (another app, the screen off): the page gives its stream back; shown again, it takes one
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    assert _streams_within(site, 0, 1.5) == 0 and page.locator("#conn.down").count() == 1
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    assert _live_within(page, 1.5)
    phone_write(site, "new", {"names": ["Ann", "Bo", "Cy", "Di"]})  # and the updates flow again
    page.wait_for_function("document.querySelector('#standings').textContent.includes('Ann')")
    assert not errors, errors
