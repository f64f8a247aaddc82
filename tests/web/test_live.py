"""The live table's data when the engine follows the hand: ponds with riichi marks, dora, furiten, waits."""

from __future__ import annotations

import pytest

EVENTS = [
    {"type": "hand_start", "dora_indicator": "9m", "hands": [None, "123m456p789s1122z", None, None]},
    {"type": "draw", "seat": 0},
    {"type": "discard", "seat": 0, "tile": "9p"},
    {"type": "draw", "seat": 1, "tile": "3z"},
    {"type": "discard", "seat": 1, "tile": "3z", "riichi": True},
    {"type": "draw", "seat": 2},
    {"type": "discard", "seat": 2, "tile": "1z"},  # seat 1 waits on 1z and passes it: riichi furiten
    {"type": "draw", "seat": 3},
]


def test_the_live_page_of_a_followed_hand(player, client):
    for e in EVENTS:
        r = player.post("/api/game/event", json=e)
        assert r.status_code == 200, (e, r.json)
    game = client.get("/api/state").json["game"]
    assert (game["round"]["name"], game["dealer"], game["sticks"]) == ("East 1", 0, 1)
    assert game["dora_indicators"] == ["9m"] and game["dora"] == ["1m"]
    assert game["wall_left"] == 70 - 4
    seat1 = game["seats"][1]
    assert seat1["riichi"] and seat1["points"] == 24000
    assert seat1["pond"] == [{"tile": "3z", "riichi": True, "called": False, "tsumogiri": False}]
    assert seat1["hand"] == "123m456p789s1122z"
    assert seat1["furiten"]["kind"] == "riichi" and "1z" in seat1["furiten"]["detail"]
    waits = {w["tile"]: w["score"] for w in seat1["waits"]}
    assert set(waits) == {"1z", "2z"}
    # seat 1 sits South in an East round: a ron on 1z is riichi + round wind + dora 1m; on 2z riichi + seat wind
    assert waits["1z"]["han"] >= 3 and waits["2z"]["han"] >= 2
    assert game["seats"][0]["furiten"] is None and game["seats"][0]["waits"] == []  # hand unknown
    assert game["to_act"] == 3


def test_live_page_renders(client):
    html = client.get("/").get_data(as_text=True)
    for marker in ('id="round-name"', 'id="dora"', 'id="seats"', 'id="camera"', 'id="my-seat"', "/static/live.js"):
        assert marker in html


PAGE_MODULES = [
    # the page, its own module (each imports shared.js); a browser runs a module only when it is served as JavaScript
    ("/", "live.js"),
    ("/score", "score.js"),
    ("/settle", "settle.js"),
    ("/join", "join.js"),
]


@pytest.mark.parametrize(("path", "module"), PAGE_MODULES)
def test_each_page_loads_its_own_module_served_as_javascript(client, path, module):
    html = client.get(path).get_data(as_text=True)
    assert html.count("<script") == 1 and f'<script type="module" src="/static/{module}">' in html
    for name in (module, "shared.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.mimetype == "text/javascript", (name, r.mimetype)


@pytest.mark.parametrize(("indicator", "ura"), [
    ("3s", "4s"),
    ("9m", "1m"),  # 9 wraps round to 1
    ("0p", "6p"),  # a red five points as a five
    ("4z", "1z"),  # North -> East
    ("7z", "5z"),  # Red dragon -> White dragon
])  # fmt: skip
def test_the_state_names_the_ura_dora_the_engine_gives(player, client, indicator, ura):
    r = player.post(
        "/api/game/win",
        json={"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s",
              "flags": ["riichi"], "ura": indicator},
    )  # fmt: skip
    assert r.status_code == 200, r.json
    game = client.get("/api/state").json["game"]
    assert (game["ura_indicators"], game["ura"]) == ([indicator], [ura])


def test_my_hand_waits_and_furiten_are_told_and_not_kept(player, client, service):
    for e in EVENTS:
        player.post("/api/game/event", json=e)
    before = service.export_game()
    r = client.post("/api/waits", json={"hand": "123m456p789s1122z", "seat": 1})
    assert r.status_code == 200, r.json
    body = r.json
    assert body["tenpai"] and [w["tile"] for w in body["waits"]] == ["1z", "2z"]
    assert [w["unseen"] for w in body["waits"]] == [1, 2]  # one 1z lies in seat 2's pond
    assert body["furiten"]["kind"] == "riichi"
    assert service.export_game() == before  # nothing recorded


def test_my_hand_without_a_seat_or_a_game(client):
    r = client.post("/api/waits", json={"hand": "123m456p789s1123z"})
    assert r.json["shanten"] == 1 and not r.json["tenpai"] and r.json["furiten"] is None
    r = client.post("/api/waits", json={"hand": "234m567p23488s67s", "seat": 2})
    assert [w["tile"] for w in r.json["waits"]] == ["5s", "8s"] and r.json["waits"][0]["ron"]["is_win"]


def test_my_hand_errors(client):
    assert client.post("/api/waits", json={"hand": "123m"}).status_code == 400  # not 13 tiles
    assert client.post("/api/waits", json={"hand": "123m456p789s1122z", "seat": 9}).status_code == 400
    assert client.post("/api/waits", json={"hand": "123m456p789s1122z", "hand2": 1}).status_code == 400
    assert client.post("/api/waits", json={}).status_code == 400


@pytest.mark.parametrize(("seat", "priced_as", "ron_on_4s"), [
    (None, {"seat": None, "seat_wind": "S", "dealer": False}, 2000),  # no seat told: a non-dealer, as 3 in 4 are
    (0, {"seat": 0, "seat_wind": "E", "dealer": True}, 2900),  # seat 1 deals the first hand
    (1, {"seat": 1, "seat_wind": "S", "dealer": False}, 2000),
])  # fmt: skip
def test_my_hand_is_priced_for_the_seat_told(client, seat, priced_as, ron_on_4s):
    # pinfu tanyao on 4s: 2 han 30 fu, 2,000 from a non-dealer, 2,900 from the dealer
    r = client.post("/api/waits", json={"hand": "234m456p678s23s55p", "seat": seat})
    assert r.status_code == 200, r.json
    assert r.json["priced_as"] == priced_as
    ron = {w["tile"]: w["ron"]["total"] for w in r.json["waits"]}
    assert ron["4s"] == ron_on_4s


def test_badges_and_yaku_read_in_english_first(client):
    html = client.get("/").get_data(as_text=True)
    assert '0 honba <span lang="ja" class="ja">本場</span>' in html
    assert '0 riichi sticks <span lang="ja" class="ja">供託</span>' in html
    r = client.post("/api/score", json={"hand": "234m456p678s23s55p4s", "win_tile": "4s", "riichi": True})
    assert [(y["name"], y["name_ja"], y["gloss"]) for y in r.json["yaku"]] == [
        ("Riichi", "立直", "Ready hand declared"),
        ("Pinfu", "平和", "No-points hand"),
        ("Tanyao", "断幺九", "All simples"),
    ]
