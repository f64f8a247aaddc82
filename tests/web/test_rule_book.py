"""The ``wrc`` preset against the WRC 2025 book (``rules/000``), through the table's routes.

* §06 "Declaring riichi", WRC exceptions: "Declaring is still allowed below 1,000 points": no floor, below 0 too.
* §09 "Honba": "+300 from the discarder alone on ron"; "Liability" moves the yakuman, not the counters.
"""

from __future__ import annotations

import pytest

from tests.engine.game.scenario import deal, play

# Seat 1 pons three dragons, the third (7z) fed by seat 0 (liable); seat 2 then deals in 4m (test_presets' scenario).
PAO_HANDS = ("112233z6677z99s8s", "556677z23m66m9p1s8m", "", "")
PAO_SCRIPT = (
    "0+5z 0-5z 1pon:5z55z 1-9p 2+? 2-9s 3+? 3-8s "
    "0+? 0-6z 1pon:6z66z 1-1s 2+? 2-8m 3+? 3-7s "
    "0+? 0-7z 1pon:7z77z 1-8m 2+? 2-8p 3+? 3-7p 0+? 0-9p 1+? 1-2s 2+? 2-4m"
)


def points(player) -> list[int]:
    return [s["points"] for s in player.get("/api/state").json["game"]["seats"]]


@pytest.mark.parametrize("chombos", [1, 3])
def test_riichi_below_1000_and_below_zero(player, chombos):
    assert player.post("/api/game/new", json={"rules": "wrc"}).status_code == 200
    for _ in range(chombos):  # the dealer's chombo: 12,000 each, and the hand is played again (000: no busting)
        assert player.post("/api/game/chombo", json={"seat": 0}).status_code == 200
    assert points(player)[0] == 30_000 - 12_000 * chombos  # 18,000, then -6,000
    r = player.post("/api/game/riichi", json={"seat": 0})
    assert r.status_code == 200, r.json
    assert points(player)[0] == 30_000 - 12_000 * chombos - 1000


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [
        # 000 §09: the discarder (seat 2) pays the honba, the liable player (seat 0) half the yakuman
        ("wrc", [-16000, 32300, -16300, 0]),
        # Tenhou's "honba payments paid by the player to whom pao is applied" (001 says nothing of pao)
        ("standard", [-16300, 32300, -16000, 0]),
    ],
)
def test_who_pays_the_honba_of_a_ron_with_a_liable_player(player, service, rules, deltas):
    assert player.post("/api/game/new", json={"rules": rules}).status_code == 200
    # the dealer wins East 1: one honba on the table for the next hand
    dealer = {"winner": 0, "tsumo": True, "hand": "123456789m23p55s", "win_tile": "1p"}
    assert player.post("/api/game/win", json=dealer).status_code == 200
    g = deal(rules, hands=PAO_HANDS)
    play(g, PAO_SCRIPT)
    for e in g.events:
        assert player.post("/api/game/event", json=e.to_dict()).status_code == 200, e
    assert service.export_game()["events"][-1]["type"] == "discard"
    win = {"winner": 1, "discarder_seat": 2, "hand": "23m66m pon:555z pon:666z pon:777z", "win_tile": "4m"}
    r = player.post("/api/game/win", json=win)
    assert r.status_code == 200, r.json
    assert r.json["result"]["honba"] == 1 and r.json["result"]["deltas"] == deltas
