"""The live page says what is wrong with the table's camera, as it is, and drops it when the camera reads again."""

from __future__ import annotations

import pytest

from device.table.service import TableService
from tests.web.conftest import reading_of, serving

pytestmark = pytest.mark.browser

UNPLUGGED = "camera not found: check the cable (camera 0: no camera at /dev/video0)"


@pytest.fixture
def site(tmp_path):
    service = TableService(pin="482913", db_path=str(tmp_path / "g.db"))
    with serving(service):
        yield service


def test_the_live_page_shows_a_missing_camera_as_it_is(context, site):
    site.set_camera_problem(UNPLUGGED)
    page = context.new_page()
    page.goto(site.url)
    page.wait_for_selector("#camera-problem")
    assert page.inner_text("#camera-problem") == UNPLUGGED
    assert "No camera reading yet" not in page.inner_text("#camera")
    site.set_camera_problem(None)  # plugged in again: the first frame read
    site.observe(reading_of("123m456p789s"))
    page.wait_for_selector("#camera .tile, #camera img", timeout=10000)
    assert page.locator("#camera-problem").count() == 0
