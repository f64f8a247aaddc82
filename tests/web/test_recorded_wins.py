"""A win confirmed from a phone on a hand the engine follows is the engine's own checked win, whatever the hand.

The phone adds the concealed tiles; the tile won on, who discarded it, the melds, the liable seat, furiten and the
situational yaku (rinshan, chankan, haitei ...) are the record's. A win the record refuses is a 400 that says why,
and the game is unchanged. Hands are played tile by tile with ``tests.engine.game.scenario``'s script and sent as
the engine's events through ``POST /api/game/event``, as the camera's pipeline or a script does.
"""

from __future__ import annotations

import pytest

from tests.engine.game.scenario import deal, play

# Seat 1 chis 678m and waits on 1s-4s (234m567p23s66p chi:678m, open tanyao on 4s); seat 3 later discards 4s.
CHI_HANDS = ("", "234m78m567p23s66p4s", "", "")
CHI_HANDS_NO_4S = ("", "234m78m567p23s66p9s", "", "")
CHI = "0+? 0-6m 1chi:6m78m"
FURITEN = f"{CHI} 1-4s 2+? 2-9m 3+? 3-4s"  # seat 1 threw the 4s it waits on: furiten
CLEAN = f"{CHI} 1-9s 2+? 2-9m 3+? 3-4s"
SEAT1_ON_4S = {"winner": 1, "discarder_seat": 3, "hand": "234m567p23s66p chi:678m", "win_tile": "4s"}

# Seat 1 pons three dragons, the third (7z) fed by seat 0, who becomes liable (test_presets' PAO scenario).
PAO_HANDS = ("112233z6677z99s8s", "556677z23m66m9p1s8m", "", "")
PAO_SCRIPT = (
    "0+5z 0-5z 1pon:5z55z 1-9p 2+? 2-9s 3+? 3-8s "
    "0+? 0-6z 1pon:6z66z 1-1s 2+? 2-8m 3+? 3-7s "
    "0+? 0-7z 1pon:7z77z 1-8m 2+? 2-8p 3+? 3-7p 0+? 0-9p 1+? 1-2s 2+? 2-4m"
)
BIG_DRAGONS = {"winner": 1, "discarder_seat": 2, "hand": "23m66m pon:555z pon:666z pon:777z", "win_tile": "4m"}


def post_hand(player, rules: str, hands: tuple[str, ...], script: str) -> None:
    """Play ``script`` on the engine and send its events to the table one by one."""
    g = deal(rules, hands=hands)
    play(g, script)
    assert player.post("/api/game/new", json={"rules": rules}).status_code == 200
    for e in g.events:
        r = player.post("/api/game/event", json=e.to_dict())
        assert r.status_code == 200, (e, r.json)


def yaku(result: dict) -> set[str]:
    return {y["name"] for w in result["wins"] for y in w["score"]["yaku"]}


def refused(player, service, body: dict, message: str) -> None:
    """Both the preview and the win refuse ``body`` with ``message``; nothing changes."""
    before = service.export_game()
    for url in ("/api/game/win/preview", "/api/game/win"):
        r = player.post(url, json=body)
        assert r.status_code == 400, (url, r.json)
        assert message in r.json["error"], r.json
    assert service.export_game() == before


def recorded(player, service, body: dict) -> dict:
    """The preview and the win agree, and the win is the engine's own event."""
    preview = player.post("/api/game/win/preview", json=body)
    assert preview.status_code == 200, preview.json
    r = player.post("/api/game/win", json=body)
    assert r.status_code == 200, r.json
    assert r.json["result"]["deltas"] == preview.json["deltas"]
    assert service.export_game()["events"][-1]["type"] in ("ron", "tsumo")
    return r.json["result"]


def test_a_furiten_ron_is_refused(player, service):
    # 000 §06 Ron: "not be furiten"; the raw ron event was refused, the phone's win with a chi once went through
    post_hand(player, "standard", CHI_HANDS, FURITEN)
    refused(player, service, SEAT1_ON_4S, "furiten")


def test_the_same_ron_without_furiten_is_the_engines_own(player, service):
    post_hand(player, "standard", CHI_HANDS_NO_4S, CLEAN)
    result = recorded(player, service, SEAT1_ON_4S)
    assert yaku(result) == {"Tanyao"} and result["deltas"][1] > 0 and result["deltas"][3] < 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        # nobody discarded 1m: the last discard is seat 0's 9p
        ({"winner": 2, "discarder_seat": 1, "hand": "19m19p19s1234567z", "win_tile": "1m"}, "seat 0's 9p"),
        # seat 1's dealt hand is on record: kokushi is not in it
        ({"winner": 1, "discarder_seat": 0, "hand": "19m19p19s1234567z", "win_tile": "9p"}, "differs from the known"),
        # a tsumo out of turn
        ({"winner": 1, "tsumo": True, "hand": "19m19p19s1234567z9p", "win_tile": "9p"}, "own turn"),
        # the record names the seat liable, not the phone
        (
            {"winner": 2, "discarder_seat": 0, "hand": "19m19p19s1234567z", "win_tile": "9p", "liable_seat": 3},
            "no liability (pao) on record",
        ),
        # the dora indicator the table turned over is on record (2z)
        (
            {"winner": 2, "discarder_seat": 0, "hand": "19m19p19s1234567z", "win_tile": "9p", "dora": "5m"},
            "the dora indicators are on record: 2z",
        ),
        # a situational yaku the record does not have
        (
            {"winner": 2, "discarder_seat": 0, "hand": "19m19p19s1234567z", "win_tile": "9p", "riichi": True},
            "riichi is not so in the record",
        ),
    ],
)
def test_a_win_the_record_does_not_hold_is_refused(player, service, body, message):
    post_hand(player, "standard", ("", "123m456p789s55p23s", "", ""), "0+? 0-9p")
    refused(player, service, body, message)


def test_rinshan_is_scored_on_a_phones_tsumo_after_a_closed_kan(player, service):
    # the dealer kans 1111m and wins on the dead wall's replacement tile: rinshan kaihou from the record
    post_hand(player, "standard", ("1111m234p567s99s5z", "", "", ""), "0+5z 0ankan:1111m 0+9s")
    body = {"winner": 0, "tsumo": True, "hand": "234p567s999s55z ankan:1111m", "win_tile": "9s"}
    assert {"Rinshan Kaihou", "Menzen Tsumo"} <= yaku(recorded(player, service, body))


def test_chankan_is_scored_on_robbing_an_added_kan(player, service):
    # seat 2 pons 3p, later adds the fourth; seat 3 waits on 1p-2p-(3p): its only yaku is chankan
    script = "0+? 0-3p 2pon:3p33p 2-9m 3+? 3-9m 0+? 0-1z 1+? 1-1z 2+3p 2kakan:3p"
    post_hand(player, "standard", ("", "", "", ""), script)
    body = {"winner": 3, "discarder_seat": 2, "hand": "456m678m234s55s12p", "win_tile": "3p"}
    result = recorded(player, service, body)
    assert yaku(result) == {"Chankan"} and result["deltas"][2] < 0


@pytest.mark.parametrize(
    ("liable", "status"),
    [
        (None, 200),  # the record knows who fed the last dragon: seat 0 pays half
        (0, 200),
        (3, 400),  # not the seat that fed it
    ],
)
def test_liability_is_the_records(player, service, liable, status):
    post_hand(player, "standard", PAO_HANDS, PAO_SCRIPT)
    body = dict(BIG_DRAGONS) if liable is None else {**BIG_DRAGONS, "liable_seat": liable}
    if status == 400:
        refused(player, service, body, "liability (pao) falls on the player who fed the last set: seat 0")
        return
    result = recorded(player, service, body)
    assert result["deltas"] == [-16000, 32000, -16000, 0]
    assert result["wins"][0]["pao"] == 0


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("23m66m pon:555z pon:666z pon:111z", "melds differ from the record"),  # a pon the table never saw
        ("23m66m pon:555z pon:666z", "melds differ from the record"),  # a pon left out
    ],
)
def test_the_melds_are_the_records(player, service, hand, message):
    post_hand(player, "standard", PAO_HANDS, PAO_SCRIPT)
    refused(player, service, {**BIG_DRAGONS, "hand": hand}, message)


@pytest.mark.parametrize(
    "hand",
    [
        "23m66m",  # the concealed tiles alone: the melds are on record
        "23m66m pon:555z/L pon:666z/R pon:777z",  # the melds as the phone wrote them (where from is the record's)
    ],
)
def test_the_phone_may_leave_the_melds_to_the_record(player, service, hand):
    post_hand(player, "standard", PAO_HANDS, PAO_SCRIPT)
    result = recorded(player, service, {**BIG_DRAGONS, "hand": hand})
    assert result["deltas"] == [-16000, 32000, -16000, 0]


def test_a_declared_win_event_is_refused_on_a_hand_on_record(player, service):
    post_hand(player, "standard", CHI_HANDS, FURITEN)
    before = service.export_game()
    event = {"type": "declared_win", "seat": 1, "discarder": 3, "hand": "234m567p23s66p chi:678m", "win_tile": "4s"}
    r = player.post("/api/game/event", json=event)
    assert r.status_code == 400 and "the hand is on record" in r.json["error"], r.json
    assert service.export_game() == before
