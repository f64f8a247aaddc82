"""Tenpai at an exhaustive draw counts the melds: the draw, ``/api/waits`` and ``jantaku waits`` agree.

Seat 1 is dealt 444p and pons the fourth 4p: its concealed 123m456s789s4p waits only on a 4p, and every 4p is in
its hand or its pon. That is noten (形式聴牌 needs a wait with a copy left) for the engine's one tenpai test
(``engine.game.shape.is_tenpai``), wherever it is asked.
"""

from __future__ import annotations

from collections import Counter

import pytest

from device.cli import main
from engine.game.events import Call, DeclaredDraw, Discard, Draw, Event, ExhaustiveDraw, HandStart
from engine.game.state import Game
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles

T = Tile.parse
HANDS = {
    # seat 1 after the pon: 123m456s789s4p pon:444p. Tanki on a 4p held four times: noten
    "fourth in the pon": ("123m456s789s444p5z", "4p", "123m456s789s4p"),
    # the control: 123m456s789s1z pon:444p waits on a 1z with three left: tenpai
    "a copy left": ("123m456s789s44p1z5z", "4p", "123m456s789s1z"),
}
# what the others draw and discard: simples first (no nagashi, no four winds), never a 4p, 5z, 1z or a five
POOL = parse_tiles("6789m6789p123s4m123p" * 4 + "3333z4444z6666z777z")


def wall_emptied(dealt: str, first: str, keep: str) -> list[Event]:
    """The hand from its deal to the last discard, wall empty: seat 0 feeds seat 1 a ``first`` to pon, seat 1
    discards down to ``keep``; from then on every seat discards what it draws."""
    events: list[Event] = [HandStart(T("2z"), (None, parse_tiles(dealt), None, None))]
    events += [Draw(0, None), Discard(0, T(first)), Call(1, MeldKind.PON, parse_tiles(first * 3))]
    after = Counter(parse_tiles(dealt)) - Counter(parse_tiles(first * 2))
    (extra,) = (after - Counter(parse_tiles(keep))).elements()
    events.append(Discard(1, extra))
    pool = iter(POOL)
    seat, live = 2, 69
    while live:
        tile = next(pool)
        events += [Draw(seat, tile), Discard(seat, tile, tsumogiri=True)]
        seat, live = (seat + 1) % 4, live - 1
    return events


def post_all(player, events: list[Event]) -> None:
    for e in events:
        r = player.post("/api/game/event", json=e.to_dict())
        assert r.status_code == 200, (e, r.json)


def points(player) -> list[int]:
    return [s["points"] for s in player.get("/api/state").json["game"]["seats"]]


@pytest.mark.parametrize(("case", "tenpai"), [("fourth in the pon", False), ("a copy left", True)])
def test_engine_draw_counts_the_melds(case, tenpai):
    dealt, first, keep = HANDS[case]
    g = Game(preset("standard"), ("A", "B", "C", "D"))
    for e in wall_emptied(dealt, first, keep):
        g.apply(e)
    assert sorted(g.hand.players[1].known) == sorted(parse_tiles(keep))
    shown = ExhaustiveDraw((None, parse_tiles(keep), None, None))
    if tenpai:
        assert g.apply(shown).deltas == (-1000, 3000, -1000, -1000)
    else:
        with pytest.raises(Exception, match="must be waiting"):
            g.apply(shown)


@pytest.mark.parametrize(("case", "tenpai"), [("fourth in the pon", False), ("a copy left", True)])
def test_the_draw_waits_and_the_command_line_agree(player, capsys, case, tenpai):
    dealt, first, keep = HANDS[case]
    post_all(player, wall_emptied(dealt, first, keep))
    before = points(player)
    waits = player.post("/api/waits", json={"hand": f"{keep} pon:{first * 3}", "seat": 1})
    assert waits.status_code == 200 and waits.json["tenpai"] is tenpai
    assert main(["waits", f"{keep} pon:{first * 3}"]) == 0
    assert capsys.readouterr().out.startswith("tenpai:") is tenpai

    shown = player.post("/api/game/event", json=ExhaustiveDraw((None, parse_tiles(keep), None, None)).to_dict())
    declared = DeclaredDraw((False, True, False, False)).to_dict()
    if tenpai:
        assert shown.status_code == 200, shown.json
        assert shown.json["result"]["deltas"] == [-1000, 3000, -1000, -1000]
        return
    assert shown.status_code == 400 and "must be waiting" in shown.json["error"]
    # the phone's draw button with seat 1 ticked tenpai: its hand is on record, so the same test refuses it
    r = player.post("/api/game/draw", json={"tenpai": declared["tenpai"]})
    assert r.status_code == 400 and "must be waiting" in r.json["error"], r.json
    assert points(player) == before
    r = player.post("/api/game/event", json=ExhaustiveDraw((None, None, None, None)).to_dict())
    assert r.json["result"]["deltas"] == [0, 0, 0, 0]  # all noten: nobody pays
