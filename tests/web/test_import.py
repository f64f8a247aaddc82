"""Importing a game file (the export) from a phone: PIN and CSRF, a size cap, clear errors, nothing lost."""

from __future__ import annotations

import io
import json

import pytest

from tests.web.conftest import Phone
from web import create_app

WIN = {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["riichi"]}


def played(player, service) -> dict:
    """A short game on the table, exported; then a new, empty game is started."""
    assert player.post("/api/game/riichi", json={"seat": 2}).status_code == 200
    assert player.post("/api/game/win", json=WIN).status_code == 200
    assert player.post("/api/game/draw", json={"tenpai": [True, False, False, True]}).status_code == 200
    data = json.loads(player.get("/api/game/export").data)
    assert player.post("/api/game/new", json={"rules": "wrc"}).status_code == 200
    return data


def current(service) -> tuple:
    """What must not change when an import is refused: the games stored and the current game's file."""
    return service.game.store.games(), service.game.game_id, service.export_game()


@pytest.mark.parametrize("as_upload", [False, True])
def test_an_exported_game_comes_back(player, service, as_upload):
    data = played(player, service)
    games = len(service.game.store.games())
    if as_upload:
        body = {"game": (io.BytesIO(json.dumps(data).encode()), "jantaku-game.json")}
        r = player.post("/api/game/import", data=body, content_type="multipart/form-data")
    else:
        r = player.post("/api/game/import", json=data)
    assert r.status_code == 200, r.json
    assert r.json["result"] == {"imported": True, "events": len(data["events"])}
    assert len(service.game.store.games()) == games + 1  # the game it replaced is kept
    again = service.export_game()
    assert again["events"] == data["events"] and again["scores"] == data["scores"]
    assert r.json["state"]["game"]["rules"] == "standard"  # the file's rules, not the last game's
    service.game.game.validate()


def _edit(data: dict, **changes) -> dict:
    out = json.loads(json.dumps(data))
    for key, value in changes.items():
        if key.startswith("rules_"):
            out["rules"][key[6:]] = value
        else:
            out[key] = value
    return out


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: b"{not json", "not valid JSON"),
        (lambda d: b"", "empty"),
        (lambda d: b"[" * 50_000 + b"]" * 50_000, "not valid JSON"),  # nested too deep to parse
        (lambda d: b"[1, 2]", "a game file is an object"),
        (lambda d: json.dumps({"rules": d["rules"]}).encode(), "a game file is an object"),
        (lambda d: json.dumps(_edit(d, format="mahjong-soul/9")).encode(), "unknown game file format"),
        (lambda d: json.dumps(_edit(d, rules="standard")).encode(), "rules is an object"),
        (lambda d: json.dumps(_edit(d, rules_multiple_ron="lots")).encode(), "multiple_ron is one of"),
        (lambda d: json.dumps(_edit(d, rules_start_points="many")).encode(), "start_points is a whole number"),
        (lambda d: json.dumps(_edit(d, rules_colour="red")).encode(), "unknown rule option"),
        (lambda d: json.dumps(_edit(d, rules_name="mahjong soul")).encode(), "unknown rule preset 'mahjong soul'"),
        # deep enough to parse, too deep to keep (its replay or its storage would recurse)
        (
            lambda d: json.dumps(_edit(d, seats=[[[[[[[[[[[[[["A"]]]]]]]]]]]]], "B", "C", "D"])).encode(),
            "nested too deeply",
        ),
        (lambda d: json.dumps(_edit(d, seats=["A", "B", "C"])).encode(), "four short names"),
        (lambda d: json.dumps(_edit(d, seats=[{}, 1, None, []])).encode(), "four short names"),
        (lambda d: json.dumps(_edit(d, events="hand_start")).encode(), "events is a list"),
        (lambda d: json.dumps(_edit(d, events=[{"type": "draw", "seat": 1}])).encode(), "refused"),
        (
            lambda d: json.dumps(_edit(d, events=[{"type": "hand_start"}, {"type": "draw", "seat": True}])).encode(),
            "event 1: draw: seat has the wrong type",
        ),
        (lambda d: json.dumps(_edit(d, events=[*d["events"], {"type": "teleport"}])).encode(), "unknown event type"),
        # the last event does not fit the game: the whole file is refused, not imported up to it
        (
            lambda d: json.dumps(
                _edit(
                    d,
                    events=[
                        *d["events"],
                        {"type": "hand_start"},
                        {"type": "declared_riichi", "seat": 0},
                        {"type": "declared_riichi", "seat": 0},
                    ],
                )
            ).encode(),
            "already in riichi",
        ),
        (lambda d: json.dumps(_edit(d, first_dealer="x")).encode(), "not a game file"),
    ],
)
def test_bad_files_are_400_and_change_nothing(player, service, make, message):
    data = played(player, service)
    before = current(service)
    r = player.post("/api/game/import", data=make(data), content_type="application/json")
    assert r.status_code == 400, r.json
    assert message in r.json["error"]
    assert current(service) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"data": "{}", "content_type": "text/plain"}, "send the game file as JSON"),
        ({"data": {"file": (io.BytesIO(b"{}"), "g.json")}, "content_type": "multipart/form-data"}, "no game file"),
    ],
)
def test_the_file_must_come_as_json_or_in_the_field_game(player, service, kwargs, message):
    before = current(service)
    r = player.post("/api/game/import", **kwargs)
    assert r.status_code == 400 and message in r.json["error"]
    assert current(service) == before


@pytest.fixture
def small_player(service):
    """A phone with the PIN on a site that reads game files of at most 4 KB."""
    app = create_app({"TESTING": True, "JANTAKU_IMPORT_MAX_BYTES": 4096}, service)
    p = Phone(app.test_client())
    assert p.unlock().status_code == 303
    return p


@pytest.mark.parametrize(
    ("size", "status"),
    [
        (4096 - 200, 400),  # under the cap: read (and refused for what it says, not for its size)
        (4096 + 10, 413),  # over the cap, though within the room left for a form's fields
        (200_000, 413),  # refused on its declared length, unread
    ],
)
def test_the_size_is_capped(small_player, service, size, status):
    before = current(service)
    body = json.dumps({"rules": {"name": "standard"}, "events": [], "pad": "x" * size})[:size] + "}"
    r = small_player.post("/api/game/import", data=body, content_type="application/json")
    assert r.status_code == status, r.json
    if status == 413:
        assert "too large (at most 4 KB)" in r.json["error"]
    assert current(service) == before


@pytest.mark.parametrize(
    ("who", "headers", "status"),
    [
        ("phone", {}, 403),  # no PIN
        ("player", {"X-CSRF-Token": "wrong"}, 403),
        ("player", {"Origin": "http://elsewhere.example"}, 403),
    ],
)
def test_importing_needs_the_pin_and_csrf(request, service, who, headers, status):
    data = service.export_game()
    before = current(service)
    r = request.getfixturevalue(who).post("/api/game/import", json=data, headers=headers)
    assert r.status_code == status
    assert current(service) == before
