"""Settlement from the phones: wins, draws, abortive draws, chombo, riichi, undo, history, export, final results."""

from __future__ import annotations

import json

import pytest

WIN_RON = {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["riichi"]}


def scores(service):
    return service.state()["game"]["seats"] and [s["points"] for s in service.state()["game"]["seats"]]


def test_declared_ron_moves_points(player, service):
    r = player.post("/api/game/win", json=WIN_RON)
    assert r.status_code == 200, r.json
    # riichi pinfu tanyao 3 han 30 fu, non-dealer ron: 3900 from seat 0 (the dealer)
    assert r.json["result"]["deltas"] == [-3900, 3900, 0, 0]
    game = r.json["state"]["game"]
    assert game["round"]["name"] == "East 2" and game["dealer"] == 1
    assert game["history"][0]["result"].startswith("Seat 2 ron from Seat 1, 3 han 30 fu")


@pytest.mark.parametrize(
    ("actions", "expected_scores", "honba", "sticks", "round_name"),
    [
        # dealer tsumo: riichi tsumo pinfu tanyao 4 han 20 fu = 2600 all, the dealer repeats with a honba
        (
            [
                ("riichi", {"seat": 0}),
                ("win", {"winner": 0, "tsumo": True, "hand": "234m567p23488s678s", "win_tile": "8s"}),
            ],
            [25000 - 1000 + 7800 + 1000, 22400, 22400, 22400],
            1,
            0,
            "East 1",
        ),
        # exhaustive draw, dealer noten: 1000 from each noten player, one tenpai gets 3000; the deal passes and
        # the honba reset (001 Renchan)
        ([("draw", {"tenpai": [False, True, False, False]})], [24000, 28000, 24000, 24000], 0, 0, "East 2"),
        # nagashi mangan by a non-dealer: paid as a mangan tsumo (4000 from the dealer, 2000 from each other)
        (
            [("draw", {"tenpai": [False, False, False, False], "nagashi": [2]})],
            [21000, 23000, 33000, 23000],
            0,
            0,
            "East 2",
        ),
        # abortive draw: no points, the dealer stays, honba up; a riichi stick stays on the table
        ([("riichi", {"seat": 3}), ("abort", {"reason": "four_winds"})], [25000, 25000, 25000, 24000], 1, 1, "East 1"),
        # chombo by a non-dealer: 4000 to the dealer, 2000 to each other; the hand is replayed
        ([("chombo", {"seat": 2})], [29000, 27000, 17000, 27000], 0, 0, "East 1"),
    ],
)
def test_outcomes(player, service, actions, expected_scores, honba, sticks, round_name):
    for action, body in actions:
        r = player.post(f"/api/game/{action}", json=body)
        assert r.status_code == 200, r.json
    game = service.state()["game"]
    assert [s["points"] for s in game["seats"]] == expected_scores
    assert (game["honba"], game["sticks"], game["round"]["name"]) == (honba, sticks, round_name)


def test_undo_restores_the_points(player, service):
    before = [s["points"] for s in service.state()["game"]["seats"]]
    player.post("/api/game/win", json=WIN_RON)
    assert [s["points"] for s in service.state()["game"]["seats"]] != before
    assert player.post("/api/game/undo", json={}).status_code == 200  # the win
    assert [s["points"] for s in service.state()["game"]["seats"]] == before
    assert service.state()["game"]["history"] == []


@pytest.mark.parametrize(
    ("action", "body", "message"),
    [
        ("win", {"winner": 1, "discarder_seat": 1, "hand": "234m567p23488s678s", "win_tile": "8s"}, "discarder"),
        ("win", {"winner": 7, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s"}, "seat"),
        ("win", {"winner": 1, "discarder_seat": 0, "hand": "567p23488s678s chi:123m", "win_tile": "8s"}, "no yaku"),
        ("win", {"winner": 1, "discarder_seat": 0, "hand": "11111m"}, "win_tile"),
        ("draw", {"tenpai": [True]}, "four"),
        ("draw", {"tenpai": [False] * 4, "nagashi": [5]}, "seat"),
        ("abort", {"reason": "bored"}, "abortive draw"),
        ("chombo", {"seat": "x"}, "seat"),
        ("riichi", {"seat": 0, "double": "yes"}, "double"),
        ("event", {"type": "discard", "seat": 0, "tile": "1m"}, "refused"),
        ("event", {"type": "teleport"}, "unknown event type"),
        ("new", {"names": ["a"]}, "four"),
        ("new", {"rules": "nope"}, "unknown rule preset"),
    ],
)
def test_bad_actions_are_400_and_change_nothing(player, service, action, body, message):
    before = service.export_game()
    r = player.post(f"/api/game/{action}", json=body)
    assert r.status_code == 400, r.json
    assert message in r.json["error"]
    assert service.export_game() == before


def test_riichi_twice_refused(player):
    assert player.post("/api/game/riichi", json={"seat": 1}).status_code == 200
    r = player.post("/api/game/riichi", json={"seat": 1})
    assert r.status_code == 400 and "already in riichi" in r.json["error"]


def test_undo_with_nothing_to_undo(player):
    r = player.post("/api/game/undo", json={})
    assert r.status_code == 400 and "nothing to undo" in r.json["error"]


def test_abortive_draws_off_under_wrc(player):
    assert player.post("/api/game/new", json={"rules": "wrc", "names": ["A", "B", "C", "D"]}).status_code == 200
    r = player.post("/api/game/abort", json={"reason": "four_winds"})
    assert r.status_code == 400 and "no abortive draws" in r.json["error"]


def test_new_game_names_and_rules(player, service):
    r = player.post("/api/game/new", json={"rules": "wrc", "names": ["Ann", "", "Cy", "Di"]})
    game = r.json["state"]["game"]
    assert [s["name"] for s in game["seats"]] == ["Ann", "Seat 2", "Cy", "Di"]
    assert [s["points"] for s in game["seats"]] == [30000] * 4 and game["rules"] == "wrc"


def test_a_whole_east_game_ends_with_uma_and_oka(player, service):
    player.post(
        "/api/game/new", json={"rules": {"preset": "standard", "game_length": "east"}, "names": ["A", "B", "C", "D"]}
    )
    # four non-dealer wins pass the deal round the table: East 1..4, then the game ends
    for dealer in range(4):
        winner = (dealer + 1) % 4
        body = {
            "winner": winner,
            "discarder_seat": dealer,
            "hand": "234m567p23488s678s",
            "win_tile": "8s",
            "flags": ["riichi"],
        }
        r = player.post("/api/game/win", json=body)
        assert r.status_code == 200, r.json
    game = service.state()["game"]
    assert game["finished"]
    final = game["final"]
    assert [f["place"] for f in final] == [1, 2, 3, 4]
    assert sum(f["result"] for f in final) == pytest.approx(0)
    first = final[0]
    # 25000 start, 30000 return: oka 20000 and uma 15000 to first place
    assert first["bonus"] == 15000 + 20000
    assert first["result"] == pytest.approx((first["points"] - 30000 + 35000) / 1000)
    r = player.post("/api/game/win", json={**body, "winner": 1, "discarder_seat": 0})
    assert r.status_code == 400 and "over" in r.json["error"]


def test_export_round_trips(player, service, tmp_path):
    player.post("/api/game/riichi", json={"seat": 2})
    player.post("/api/game/win", json=WIN_RON)
    player.post("/api/game/draw", json={"tenpai": [True, True, False, False]})
    r = player.get("/api/game/export")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    data = json.loads(r.data)
    assert data["format"] == "jantaku-game/1"
    assert [e["type"] for e in data["events"]] == [
        "hand_start",
        "declared_riichi",
        "declared_win",
        "hand_start",
        "declared_draw",
    ]
    assert len(data["history"]) == 2 and data["scores"] == service.game.game.scores
    from engine.game.record import game_from_json

    again = game_from_json(data)  # the declared events are the engine's own
    assert again.scores == service.game.game.scores


def test_the_game_survives_a_restart(player, service, detector):
    from device.table.service import TableService

    player.post("/api/game/win", json=WIN_RON)
    scores_before = list(service.game.game.scores)
    service.close()
    again = TableService(pin="246813", db_path=service.db_path)
    try:
        assert again.game.game.scores == scores_before
        assert again.state()["game"]["round"]["name"] == "East 2"
    finally:
        again.close()


def test_tracked_ron_uses_the_engines_own_event(player, service):
    """When the engine saw the discard, a confirmed win is the engine's Ron (it judges riichi and furiten)."""
    events = [
        {"type": "hand_start", "dora_indicator": "1z"},
        {"type": "draw", "seat": 0},
        {"type": "discard", "seat": 0, "tile": "8s"},
    ]
    for e in events:
        assert player.post("/api/game/event", json=e).status_code == 200
    r = player.post(
        "/api/game/win", json={"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s67s", "win_tile": "8s"}
    )
    assert r.status_code == 200, r.json
    assert service.export_game()["events"][-1]["type"] == "ron"
    # pinfu tanyao; the first go-around ron of a non-dealer before their draw: renhou (mangan under standard)
    assert r.json["result"]["deltas"][1] > 0


def test_nagashi_refused_where_the_rules_have_none(player):
    player.post("/api/game/new", json={"rules": "wrc"})
    r = player.post("/api/game/draw", json={"tenpai": [False] * 4, "nagashi": [1]})
    assert r.status_code == 400 and "no nagashi mangan" in r.json["error"]


@pytest.mark.parametrize(
    ("rules", "draw", "honba"),
    [
        # a dealer-tenpai draw first (1 honba), then a draw with the dealer noten: the deal passes
        ("standard", {"tenpai": [False, True, False, False]}, 0),  # 001 Renchan: "The honba counter resets to 0"
        ("standard", {"tenpai": [False] * 4, "nagashi": [2]}, 0),  # nagashi mangan is a draw all the same
        ("wrc", {"tenpai": [False, True, False, False]}, 0),  # 000: "if East is noten ... all honba reset"
        ("tenhou", {"tenpai": [False, True, False, False]}, 2),  # Tenhou: every draw adds a honba
    ],
)
def test_honba_after_a_draw_with_the_dealer_noten(player, service, rules, draw, honba):
    assert player.post("/api/game/new", json={"rules": rules}).status_code == 200
    assert player.post("/api/game/draw", json={"tenpai": [True, False, False, False]}).status_code == 200
    r = player.post("/api/game/draw", json=draw)
    assert r.status_code == 200, r.json
    game = service.state()["game"]
    assert (game["dealer"], game["honba"]) == (1, honba)
