"""Fixtures for the site: an app over a TableService reading photos by a scripted detector, and clients; readings
as the camera's reader gives them (:func:`reading_of`)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from device.table.service import TableService
from engine.tiles import parse_tiles
from vision.read.detector import Detection, laid_in_rows
from vision.read.geometry import Box, Size
from vision.read.labels import class_of_tile
from vision.read.pipeline import Reader, Reading
from vision.read.rows import read_tiles
from vision.read.table import TableObservation
from web import create_app
from web.game_request import game_event, parse_new_game
from web.hand_request import parse_win_request

PIN = "246813"
#: The black frame :func:`reading_of` reads when given none.
BLACK_FRAME = Size(width=800, height=600)

#: The browser tests (marked ``browser``) drive Debian's chromium through Playwright; screenshots go to ARTIFACTS.
CHROMIUM = os.environ.get("JANTAKU_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
]


class ScriptedDetector:
    """Finds the tiles of ``text`` laid in one row across the image (whatever its size)."""

    def __init__(self, text: str = "123m456p789s11z222z"):
        self.text = text
        self.calls = 0

    def detect(self, image: np.ndarray) -> list[Detection]:
        self.calls += 1
        h, w = image.shape[:2]
        tiles = parse_tiles(self.text)
        step = w / (len(tiles) + 2)
        found = [
            Detection.of_class(
                class_of_tile(t), Box(step * (i + 1), h * 0.4, step * (i + 1.9), h * 0.6), 0.9 - 0.01 * i
            )
            for i, t in enumerate(tiles)
        ]
        return found[::-1]  # in no particular order, as a detector gives them


def reading_of(
    rows: str | Sequence[Detection] = "",
    table: TableObservation | None = None,
    frame: np.ndarray | Size = BLACK_FRAME,
) -> Reading:
    """A frame as the camera's reader reads it (what the loop hands ``TableService.observe``): ``rows`` mpsz text, a row
    per space-separated group (laid out by :func:`~vision.read.detector.laid_in_rows`), or the detections themselves;
    ``table`` the frame read seat by seat, taken as given; ``frame`` the image, or the size of a black one."""
    detections = laid_in_rows([parse_tiles(r) for r in rows.split()]) if isinstance(rows, str) else tuple(rows)
    image = np.zeros((frame.height, frame.width, 3), np.uint8) if isinstance(frame, Size) else frame
    return Reading(image, detections, read_tiles(detections).rows, table)


def phone_write(service: TableService, action: str, body: dict[str, Any]) -> Any:
    """A game write as a phone sends it (``POST /api/game/<action>``: new, win, draw, abort, chombo, riichi or event),
    read as the site reads it and handed to the service; the service's answer."""
    if action == "new":
        return service.new_game(*parse_new_game(body, service.rules))
    if action == "win":
        return service.win(parse_win_request(body, service.rules))
    return service.record(game_event(action, body))


def jpeg(width: int = 640, height: int = 360, quality: int = 85) -> bytes:
    """A small non-square JPEG with some texture."""
    rng = np.random.default_rng(width * 7 + height)
    img = rng.integers(0, 255, (height, width, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


@pytest.fixture
def detector():
    return ScriptedDetector()


@pytest.fixture
def service(detector, tmp_path):
    svc = TableService(
        pin=PIN,
        photo_reader=Reader.around(detector),
        db_path=str(tmp_path / "game.db"),
        corrections_dir=str(tmp_path / "corr"),
    )
    yield svc
    svc.close()


@pytest.fixture
def app(service):
    return create_app(
        {
            "TESTING": True,
            "JANTAKU_HEARTBEAT_S": 0.05,
            "JANTAKU_STREAM_MAX_S": 0.5,
            "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        },
        service,
    )


@pytest.fixture
def client(app):
    return app.test_client()


def token_of(client) -> str:
    """The CSRF token a page gives this client."""
    html = client.get("/join").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


class Phone:
    """A test client that behaves like the page's JavaScript: CSRF header on every POST."""

    def __init__(self, client):
        self.client = client
        self.token = token_of(client)

    def post(self, url, **kw):
        headers = kw.pop("headers", {})
        headers.setdefault("X-CSRF-Token", self.token)
        return self.client.post(url, headers=headers, **kw)

    def get(self, url, **kw):
        return self.client.get(url, **kw)

    def unlock(self, pin=PIN):
        return self.client.post("/join", data={"pin": pin, "csrf_token": self.token})


@pytest.fixture
def phone(client):
    return Phone(client)


@pytest.fixture
def player(app):
    """A phone that has entered the table's PIN."""
    p = Phone(app.test_client())
    assert p.unlock().status_code == 303
    return p


@contextlib.contextmanager
def serving(service):
    """The site over ``service`` on a free local port, served in threads as ``jantaku run`` serves it; the
    service's ``url`` names it. Closes the service on leaving."""
    from device.commands.site import Site, site_threads

    app = create_app({"JANTAKU_HEARTBEAT_S": 2.0}, service)
    site = Site(app, "127.0.0.1", 0, threads=site_threads(service))
    site.start()
    service.url = f"http://127.0.0.1:{site.port}/"
    try:
        yield service
    finally:
        service.bus.close()
        site.close()
        service.close()


@pytest.fixture
def browser():
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.skip(f"chromium not found at {CHROMIUM} (apt-get install -y chromium, or set JANTAKU_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright pip package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def phone_context(browser):
    """A new phone (its own cookies and storage): 390x844 CSS pixels, touch; bypass_csp only lets the test's
    wait_for_function evaluate its checks."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True
    )
    ctx.set_default_timeout(15_000)
    return ctx


@pytest.fixture
def context(browser, site):  # ``site``: each browser test module's running site
    ctx = phone_context(browser)
    yield ctx
    ctx.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
