"""The dealer's choice at the end of the game (agari-yame, tenpai-yame) from the phones: stop, or play on."""

from __future__ import annotations

import pytest

DEALER_TSUMO = {"winner": 0, "tsumo": True, "hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["riichi"]}


def _last_hand(player, rules: str) -> None:
    """An East-only game; three non-dealer wins bring it to East 4, where seat 3 deals."""
    r = player.post(
        "/api/game/new", json={"rules": {"preset": rules, "game_length": "east"}, "names": ["A", "B", "C", "D"]}
    )
    assert r.status_code == 200, r.json
    for dealer in range(3):
        body = {
            "winner": (dealer + 1) % 4,
            "discarder_seat": dealer,
            "hand": "234m567p23488s678s",
            "win_tile": "8s",
            "flags": ["riichi"],
        }
        assert player.post("/api/game/win", json=body).status_code == 200
    # seat 3 (the dealer now) wins big enough to be first: riichi tsumo pinfu tanyao, 2600 all
    r = player.post("/api/game/win", json={**DEALER_TSUMO, "winner": 3})
    assert r.status_code == 200, r.json


@pytest.mark.parametrize(("rules", "may_stop"), [("tenhou", True), ("standard", False), ("wrc", False)])
def test_dealer_first_in_the_last_hand(player, service, rules: str, may_stop: bool) -> None:
    _last_hand(player, rules)
    game = service.state()["game"]
    assert game["round"]["name"] == "East 4" and game["dealer"] == 3 and game["honba"] == 1
    assert not game["finished"] and game["dealer_may_stop"] is may_stop
    r = player.post("/api/game/event", json={"type": "dealer_stops", "dealer": 3})
    if not may_stop:
        assert r.status_code == 400 and "agari-yame" in r.json["error"]
        assert not service.state()["game"]["finished"]
        return
    assert r.status_code == 200, r.json
    game = r.json["state"]["game"]
    assert game["finished"] and not game["dealer_may_stop"]
    assert game["final"][0]["seat"] == 3 and game["final"][0]["place"] == 1
    # undo takes the stop back: the dealer may still choose
    assert player.post("/api/game/undo").status_code == 200
    assert service.state()["game"]["dealer_may_stop"] and not service.state()["game"]["finished"]


def test_playing_on_is_recording_the_next_hand(player, service) -> None:
    _last_hand(player, "tenhou")
    r = player.post("/api/game/draw", json={"tenpai": [False, True, False, False]})  # the dealer played on
    assert r.status_code == 200, r.json
    game = r.json["state"]["game"]
    assert game["finished"]  # the dealer was noten: the deal would pass, and East 4 is the last hand
    assert not game["dealer_may_stop"]


def test_the_settle_page_has_room_for_the_choice(player) -> None:
    r = player.get("/settle")
    assert r.status_code == 200 and b'id="dealer-choice"' in r.data
