"""Rule presets are named once, by the engine's ``PRESETS``: the settle page offers each, a request's
``{"preset": name, ...}`` starts from it, and ``jantaku serve --rules`` takes it. A preset added to the engine
reaches all three."""

from __future__ import annotations

import re

import pytest

from engine.rules import PRESETS, preset
from web.hand_request import parse_rules

#: A preset the engine might gain: one more row in PRESETS, nothing anywhere else.
CLUB = preset("standard").with_options(name="club", kiriage=True)


@pytest.fixture
def club(monkeypatch):
    monkeypatch.setitem(PRESETS, "club", CLUB)
    return CLUB


def test_the_settle_page_offers_each_preset_by_its_title(player):
    html = player.get("/settle").get_data(as_text=True)
    select = re.search(r'<select id="new-rules">(.*?)</select>', html).group(1)
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', select) == [
        ("standard", "standard"),
        ("wrc", "WRC"),
        ("tenhou", "Tenhou"),
    ]


def test_a_preset_added_to_the_engine_is_offered_on_the_settle_page(player, club):
    html = player.get("/settle").get_data(as_text=True)
    assert '<option value="club">club</option>' in html


def test_a_preset_added_to_the_engine_is_a_requests_base(club):
    rules = parse_rules({"preset": "club", "double_yakuman": False}, preset("wrc"))
    assert rules.name == "club" and rules.kiriage and not rules.double_yakuman


def test_a_preset_added_to_the_engine_is_a_serve_choice(club):
    from device.cli import build_parser

    assert build_parser().parse_args(["serve", "--rules", "club"]).rules == "club"


def test_serve_refuses_a_preset_the_engine_lacks(capsys):
    from device.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--rules", "mleague"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'mleague'" in err
