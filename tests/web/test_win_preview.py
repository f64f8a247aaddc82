"""The score page's preview of a win (``POST /api/game/win/preview``) pays each seat what recording the win does.

The preview once came from the scorer alone: a yakuman with a liable player (包, pao) showed as paid all by the
discarder (ron) or split as a normal tsumo until the win was recorded. Now the engine settles the very body the
Confirm button sends, on a copy of the game: the same transfers, seat by seat, and nothing recorded.
"""

from __future__ import annotations

import pytest

# Seat 1 (South) wins; seat 2 sits on its right, seat 3 across, seat 0 (the dealer) on its left.
DAISANGEN = "234m88p pon:555z/L pon:666z pon:777z/R"  # big dragons, the third dragon pon called from seat 2
DAISANGEN_TSUUIISOU = "22z pon:111z/L pon:555z/L pon:666z pon:777z/R"  # big dragons and all honours: two yakuman
DAISUUSHII = "11m pon:111z pon:222z pon:333z/L pon:444z/R"  # big winds, the North pon called from seat 2
SUUKANTSU = "5s kan:1111m/L ankan:9999p kan:7777s kakan:3333z"  # four quads, the last kan called from seat 0
PINFU_ITTSU = "123456789m23p55s"  # 3 han 30 fu on 4p, no liability possible


def big_dragons(**kw):
    return {"winner": 1, "hand": DAISANGEN, "win_tile": "8p", **kw}


def pays(result):
    """The transfers as (payer, payee, amount): who pays whom, by seat (None: the riichi sticks on the table)."""
    return [(t["payer"], t["payee"], t["amount"]) for t in result["transfers"]]


def new_game(player, rules):
    r = player.post("/api/game/new", json={"rules": rules, "names": ["A", "B", "C", "D"]})
    assert r.status_code == 200, r.json


@pytest.mark.parametrize(
    ("rules", "body", "transfers", "deltas"),
    [
        # big dragons, ron by a third player: the liable player and the discarder pay half each (16000 + 16000)
        (
            "standard",
            big_dragons(discarder_seat=3, liable_seat=2),
            [(2, 1, 16000), (3, 1, 16000)],
            [0, 32000, -16000, -16000],
        ),
        # the liable player deals in himself: the discarder's half and the liable half are one payment
        ("standard", big_dragons(discarder_seat=2, liable_seat=2), [(2, 1, 32000)], [0, 32000, -32000, 0]),
        # big dragons by tsumo: the liable player pays it all
        ("standard", big_dragons(tsumo=True, liable_seat=2), [(2, 1, 32000)], [0, 32000, -32000, 0]),
        ("wrc", big_dragons(tsumo=True, liable_seat=2), [(2, 1, 32000)], [0, 32000, -32000, 0]),
        (
            "tenhou",
            big_dragons(discarder_seat=0, liable_seat=2),
            [(2, 1, 16000), (0, 1, 16000)],
            [-16000, 32000, -16000, 0],
        ),
        # no liable player named: the discarder pays it all, as before
        ("standard", big_dragons(discarder_seat=3), [(3, 1, 32000)], [0, 32000, 0, -32000]),
        # the dealer wins big dragons (48000) by ron from seat 1, seat 2 liable
        (
            "standard",
            {"winner": 0, "discarder_seat": 1, "hand": DAISANGEN, "win_tile": "8p", "liable_seat": 2},
            [(2, 0, 24000), (1, 0, 24000)],
            [48000, -24000, -24000, 0],
        ),
        # two yakuman, one of them fed: the liable player covers big dragons only, the rest is a normal tsumo
        (
            "standard",
            {"winner": 1, "tsumo": True, "hand": DAISANGEN_TSUUIISOU, "win_tile": "2z", "liable_seat": 2},
            [(2, 1, 32000), (0, 1, 16000), (2, 1, 8000), (3, 1, 8000)],
            [-16000, 64000, -40000, -8000],
        ),
        # big winds (a double yakuman under standard): half each on a ron, all on a tsumo
        (
            "standard",
            {"winner": 1, "discarder_seat": 3, "hand": DAISUUSHII, "win_tile": "1m", "liable_seat": 2},
            [(2, 1, 32000), (3, 1, 32000)],
            [0, 64000, -32000, -32000],
        ),
        (
            "wrc",
            {"winner": 1, "tsumo": True, "hand": DAISUUSHII, "win_tile": "1m", "liable_seat": 2},
            [(2, 1, 32000)],
            [0, 32000, -32000, 0],
        ),
        # four quads carry liability under wrc
        (
            "wrc",
            {"winner": 1, "tsumo": True, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0},
            [(0, 1, 32000)],
            [-32000, 32000, 0, 0],
        ),
        # a double ron where one winner has a liable player: each winner paid as recorded
        (
            "standard",
            {
                "discarder_seat": 3,
                "win_tile": "8p",
                "winners": [
                    {"winner": 1, "hand": DAISANGEN, "liable_seat": 2},
                    {"winner": 2, "hand": "234m567p67p88s678s"},
                ],
            },
            [(2, 1, 16000), (3, 1, 16000), (3, 2, 2000)],
            [0, 32000, -16000 + 2000, -18000],
        ),
    ],
)
def test_the_preview_pays_each_seat_what_recording_does(player, service, rules, body, transfers, deltas):
    new_game(player, rules)
    before = service.export_game()
    preview = player.post("/api/game/win/preview", json=body)
    assert preview.status_code == 200, preview.json
    assert (pays(preview.json), preview.json["deltas"]) == (transfers, deltas)
    assert service.export_game() == before  # nothing recorded

    recorded = player.post("/api/game/win", json=body)
    assert recorded.status_code == 200, recorded.json
    result = recorded.json["result"]
    assert (result["transfers"], result["deltas"]) == (preview.json["transfers"], preview.json["deltas"])
    assert result["wins"] == preview.json["wins"]


def test_the_liable_player_pays_the_honba_and_the_sticks_go_to_the_winner(player):
    new_game(player, "standard")
    # the dealer tenpai alone: East 1 again with 1 honba; seat 3's riichi stick stays on the table
    assert player.post("/api/game/riichi", json={"seat": 3}).status_code == 200
    assert player.post("/api/game/draw", json={"tenpai": [True, False, False, True]}).status_code == 200
    body = big_dragons(discarder_seat=3, liable_seat=2)
    preview = player.post("/api/game/win/preview", json=body).json
    assert pays(preview) == [(2, 1, 16000 + 300), (3, 1, 16000), (None, 1, 1000)]
    recorded = player.post("/api/game/win", json=body).json["result"]
    assert (recorded["transfers"], recorded["deltas"]) == (preview["transfers"], preview["deltas"])


def test_a_win_on_a_discard_the_engine_saw_is_previewed_as_its_own_ron(player, service):
    for e in ({"type": "hand_start"}, {"type": "draw", "seat": 0}, {"type": "discard", "seat": 0, "tile": "4p"}):
        assert player.post("/api/game/event", json=e).status_code == 200
    body = {"winner": 1, "discarder_seat": 0, "hand": PINFU_ITTSU, "win_tile": "4p"}
    preview = player.post("/api/game/win/preview", json=body).json
    assert pays(preview) == [(0, 1, 3900)]
    assert player.post("/api/game/win", json=body).json["result"]["transfers"] == preview["transfers"]
    assert service.export_game()["events"][-1]["type"] == "ron"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (big_dragons(tsumo=True, liable_seat=1), "another player than the winner"),
        (
            {"winner": 1, "discarder_seat": 0, "hand": PINFU_ITTSU, "win_tile": "4p", "liable_seat": 2},
            "liability (pao) is only for big dragons, big winds",
        ),
        (big_dragons(discarder_seat=0, liable_seat=9), "liable_seat is a seat"),
    ],
)
def test_a_preview_refuses_what_recording_refuses(player, service, body, message):
    before = service.export_game()
    preview = player.post("/api/game/win/preview", json=body)
    recorded = player.post("/api/game/win", json=body)
    assert (preview.status_code, recorded.status_code) == (400, 400)
    assert message in preview.json["error"] and preview.json["error"] == recorded.json["error"]
    assert service.export_game() == before


@pytest.mark.parametrize(
    ("who", "headers", "status"),
    [
        ("phone", {}, 200),  # a preview changes nothing: no PIN needed
        ("phone", {"X-CSRF-Token": "wrong"}, 403),  # but it is a POST from a page: the CSRF token is
    ],
)
def test_a_preview_needs_no_pin_but_the_csrf_token(request, service, who, headers, status):
    client = request.getfixturevalue(who)
    before = service.export_game()
    r = client.post("/api/game/win/preview", json=big_dragons(discarder_seat=3, liable_seat=2), headers=headers)
    assert r.status_code == status, r.json
    assert service.export_game() == before


@pytest.mark.parametrize(
    ("rules", "liable"),
    [
        ("wrc", ["Daisangen", "Dai Suushii", "Suu Kantsu"]),  # 000: four quads carry liability too
        ("standard", ["Daisangen", "Dai Suushii"]),
        ("tenhou", ["Daisangen", "Dai Suushii"]),
        ({"preset": "standard", "pao_suukantsu": True}, ["Daisangen", "Dai Suushii", "Suu Kantsu"]),
        ({"preset": "wrc", "pao_suukantsu": False}, ["Daisangen", "Dai Suushii"]),
    ],
)
def test_the_state_names_the_yakuman_the_rules_make_liable(player, rules, liable):
    """The score page offers a liable player only for these (the page once offered four quads under every preset)."""
    new_game(player, rules)
    assert player.get("/api/state").json["game"]["pao_yakuman"] == liable


@pytest.mark.parametrize(
    ("rules", "body", "status", "message"),
    [
        # four quads with a liable player: only where the preset makes four quads liable
        ("wrc", {"winner": 1, "tsumo": True, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0}, 200, None),
        (
            "standard",
            {"winner": 1, "tsumo": True, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0},
            400,
            "liability (pao) is only for big dragons, big winds under the standard rules",
        ),
        (
            "tenhou",
            {"winner": 1, "discarder_seat": 3, "hand": SUUKANTSU, "win_tile": "5s", "liable_seat": 0},
            400,
            "liability (pao) is only for big dragons, big winds under the tenhou rules",
        ),
        # big dragons and big winds under every preset
        ("standard", big_dragons(tsumo=True, liable_seat=2), 200, None),
        ("tenhou", big_dragons(tsumo=True, liable_seat=2), 200, None),
        ("tenhou", {"winner": 1, "tsumo": True, "hand": DAISUUSHII, "win_tile": "1m", "liable_seat": 2}, 200, None),
    ],
)
def test_liability_is_taken_for_the_yakuman_the_state_names(player, rules, body, status, message):
    new_game(player, rules)
    scored = player.post(
        "/api/score",
        json={"hand": body["hand"], "win_tile": body["win_tile"], "tsumo": body.get("tsumo", False), "seat_wind": "S"},
    )
    liable = player.get("/api/state").json["game"]["pao_yakuman"]
    offered = any(y["name"] in liable for y in scored.json["yaku"])  # what the score page offers a liable player for
    preview = player.post("/api/game/win/preview", json=body)
    assert (preview.status_code, offered) == (status, status == 200), preview.json
    if message:
        assert message in preview.json["error"]
