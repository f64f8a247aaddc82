"""Wins declared from a phone with several winners (double and triple ron) and with a liable player (pao)."""

from __future__ import annotations

import pytest

# All wait on 4p: seat 1 pinfu + ittsu 3 han 30 fu (3900), seat 2 tanyao 1 han 40 fu (1300), seat 3 tanyao
# 1 han 40 fu (1300). The dealer, seat 0, deals in.
ITTSU = {"winner": 1, "hand": "123456789m23p55s"}
SHANPON = {"winner": 2, "hand": "345678p678s22s44p"}
TANYAO = {"winner": 3, "hand": "234m567m56p777s22m"}
DAISANGEN = "234m8p pon:555z/L pon:666z pon:777z/R"  # big dragons: 32000 for a non-dealer
SUUKANTSU = "5s kan:1111m/L ankan:9999p kan:7777s kakan:3333z"  # four quads


def ron(*winners, discarder=0, tile="4p"):
    return {"discarder_seat": discarder, "win_tile": tile, "winners": list(winners)}


def points(service):
    return [s["points"] for s in service.state()["game"]["seats"]]


def new_game(player, rules):
    r = player.post("/api/game/new", json={"rules": rules, "names": ["A", "B", "C", "D"]})
    assert r.status_code == 200, r.json


@pytest.mark.parametrize(
    ("rules", "body", "outcome", "winners", "deltas"),
    [
        # 001: double ron, both paid by the discarder
        ("standard", ron(ITTSU, SHANPON), "ron", [1, 2], [-3900 - 1300, 3900, 1300, 0]),
        # 000: head-bump, the first after the discarder wins alone; the other is recorded as bumped
        ("wrc", ron(ITTSU, SHANPON), "ron", [1], [-3900, 3900, 0, 0]),
        ("wrc", ron(ITTSU, TANYAO, discarder=2), "ron", [3], [0, 0, -1300, 1300]),
        # triple ron: an abortive draw under 001, one winner under 000, three where the rules say so
        ("standard", ron(ITTSU, SHANPON, TANYAO), "abortive_draw", [], [0, 0, 0, 0]),
        ("wrc", ron(ITTSU, SHANPON, TANYAO), "ron", [1], [-3900, 3900, 0, 0]),
        (
            {"preset": "standard", "multiple_ron": "all"},
            ron(ITTSU, SHANPON, TANYAO),
            "ron",
            [1, 2, 3],
            [-3900 - 1300 - 1300, 3900, 1300, 1300],
        ),
        # liability: on a tsumo the liable player pays it all; on a ron half, the discarder the other half
        (
            "standard",
            {"winner": 1, "tsumo": True, "hand": DAISANGEN, "win_tile": "8p", "liable_seat": 2},
            "tsumo",
            [1],
            [0, 32000, -32000, 0],
        ),
        (
            "standard",
            {"winner": 1, "discarder_seat": 3, "hand": DAISANGEN, "win_tile": "8p", "liable_seat": 0},
            "ron",
            [1],
            [-16000, 32000, 0, -16000],
        ),
        (
            "wrc",
            {"winner": 1, "tsumo": True, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0},
            "tsumo",
            [1],
            [-32000, 32000, 0, 0],
        ),
        # a double ron where one winner has a liable player (seat 2: tanyao pinfu 2 han 30 fu, 2000)
        (
            "standard",
            ron(
                {"winner": 1, "hand": DAISANGEN, "liable_seat": 0},
                {"winner": 2, "hand": "234m567p67p88s678s"},
                discarder=3,
                tile="8p",
            ),
            "ron",
            [1, 2],
            [-16000, 32000, 2000, -16000 - 2000],
        ),
    ],
)
def test_declared_wins(player, service, rules, body, outcome, winners, deltas):
    new_game(player, rules)
    r = player.post("/api/game/win", json=body)
    assert r.status_code == 200, r.json
    result = r.json["result"]
    assert result["outcome"] == outcome
    assert [w["seat"] for w in result["wins"]] == winners
    assert result["deltas"] == deltas
    assert points(service) == [x + service.game.game.rules.start_points for x in deltas]
    service.game.game.validate()


def test_head_bump_records_the_bumped_winner(player):
    new_game(player, "wrc")
    r = player.post("/api/game/win", json=ron(ITTSU, SHANPON))
    assert r.json["result"]["bumped"] == [2]
    assert r.json["state"]["game"]["history"][0]["result"] == "B ron from A, 3 han 30 fu"


def test_a_double_ron_on_a_discard_the_engine_saw_is_its_own_ron(player, service):
    for e in ({"type": "hand_start"}, {"type": "draw", "seat": 0}, {"type": "discard", "seat": 0, "tile": "4p"}):
        assert player.post("/api/game/event", json=e).status_code == 200
    r = player.post("/api/game/win", json=ron(ITTSU, SHANPON))
    assert r.status_code == 200, r.json
    last = service.export_game()["events"][-1]
    assert last["type"] == "ron" and [c["seat"] for c in last["claims"]] == [1, 2]
    assert r.json["result"]["deltas"] == [-3900 - 1300, 3900, 1300, 0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({**ron(ITTSU, SHANPON), "tsumo": True}, "a tsumo has one winner"),
        (ron(ITTSU, SHANPON, discarder=1), "the discarder cannot be the winner"),
        (ron(ITTSU, {**ITTSU, "hand": "123456789m23p55s"}), "each winner is named once"),
        (ron(ITTSU, {**SHANPON, "win_tile": "1p"}), "the same tile"),
        ({**ron(ITTSU, SHANPON), "winner": 1}, "either in 'winners'"),
        (ron(), "one to three"),
        (ron(ITTSU, SHANPON, TANYAO, {"winner": 0, "hand": "123456789m23p55s"}), "one to three"),
        ({**ron(ITTSU), "winners": "1,2"}, "one to three"),
        (ron(ITTSU, {**SHANPON, "dora": "1m"}), "unknown field"),
        (ron(ITTSU, {**SHANPON, "hand": "345678p678s22s45p", "win_tile": "4p"}), "not a win"),
        (ron(ITTSU, {"winner": 2}), "hand is required"),
        (
            {"winner": 1, "tsumo": True, "hand": DAISANGEN, "win_tile": "8p", "liable_seat": 1},
            "another player than the winner",
        ),
        (
            {"winner": 1, "discarder_seat": 0, **{"hand": ITTSU["hand"]}, "win_tile": "4p", "liable_seat": 2},
            "liability (pao) is only for big dragons, big winds",
        ),
        (
            {"winner": 1, "discarder_seat": 0, "hand": "234m8p555666777z", "win_tile": "8p", "liable_seat": 2},
            "last set called",
        ),
        (
            {"winner": 1, "tsumo": True, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0},
            "under the standard rules",
        ),  # four quads carry liability only under wrc
        ({"winner": 1, "tsumo": True, "hand": DAISANGEN, "win_tile": "8p", "liable_seat": 9}, "liable_seat is a seat"),
        ({"winner": 1, "tsumo": "yes", "hand": DAISANGEN, "win_tile": "8p"}, "tsumo is true or false"),
    ],
)
def test_impossible_wins_are_400_and_change_nothing(player, service, body, message):
    before = service.export_game()
    r = player.post("/api/game/win", json=body)
    assert r.status_code == 400, r.json
    assert message in r.json["error"]
    assert service.export_game() == before


@pytest.mark.parametrize(
    ("who", "headers", "status"),
    [
        ("phone", {}, 403),  # no PIN
        ("player", {"X-CSRF-Token": "wrong"}, 403),  # the PIN, but no valid CSRF token
        ("player", {}, 200),
    ],
)
def test_several_winners_need_the_pin_and_csrf(request, service, who, headers, status):
    client = request.getfixturevalue(who)
    before = service.export_game()
    r = client.post("/api/game/win", json=ron(ITTSU, SHANPON), headers=headers)
    assert r.status_code == status, r.json
    assert (service.export_game() == before) == (status != 200)
