"""The demo runs for hours: other hands between the recorded one, and a new game after each game's end.

The recorded hand is always the dealer's tsumo (the player at the camera's bottom edge deals). Between two of them
the director plays one of its hands (a ron, a draw, a tsumo, seats counted from the dealer) and turns the camera
to the new dealer; at a game's end it starts the next game.
"""

from __future__ import annotations

import io
import json
import time

from device.commands.run import RunOptions, TableRuntime
from device.config import Config
from device.demo import RECORDING
from device.demo.director import HANDS, NAMES, DemoDirector
from device.table.service import TableService
from web.hand_request import parse_win_request

MANIFEST = json.loads((RECORDING / "recording.json").read_text())
WINNER = MANIFEST["winner"]  # the recorded hand's winner: the dealer, by tsumo


def the_recorded_hand(service: TableService) -> None:
    """The recording's result as the camera settles it: the dealer's riichi tsumo."""
    dealer = service.game.game.dealer
    service.win(
        parse_win_request(
            {
                "winner": dealer,
                "tsumo": True,
                "hand": WINNER["hand"] + WINNER["win_tile"],
                "win_tile": WINNER["win_tile"],
                "flags": ["riichi"],
                "dora": WINNER["dora_indicators"],
                "ura": WINNER["ura_indicators"],
            }
        )
    )


def hands_played(service: TableService) -> list[tuple[int, str, tuple[int, ...]]]:
    """Every hand of every game the service stored: (game, outcome, deltas)."""
    store = service.game.store
    return [
        (game_id, r.outcome.value, tuple(r.deltas)) for game_id in store.games() for r in store.game(game_id).history
    ]


def test_a_hand_of_its_own_after_each_recorded_one_and_a_new_game_after_the_end(tmp_path):
    service = TableService(pin="246813", db_path=str(tmp_path / "demo.db"))
    director = DemoDirector(service)
    assert director.step() is None  # nothing settled yet: nothing to do
    played = []
    for _ in range(30):  # the recorded hand, and what the director does after it, until a game's end
        the_recorded_hand(service)
        played.append(director.step())
        if played[-1] == "a new game":
            break
        assert director.step() is None  # one hand for each recorded one, not more
        assert service.camera_seat == service.game.game.dealer  # the recording's dealer is the game's
    # the dealer's baiman tsumo (8,000 all) busts a player on its third time: two hands of the director's before
    assert played == [h.what for h in HANDS[:2]] + ["a new game"]
    assert director.games == 1 and not service.game.game.history and service.camera_seat == 0
    assert service.state()["game"]["seats"][0]["name"] == NAMES[0]
    the_recorded_hand(service)  # and the new game goes on
    assert director.step() == HANDS[2].what  # the director's hands go on in turn
    hands = hands_played(service)
    outcomes = {outcome for _game, outcome, _deltas in hands}
    assert {"tsumo", "ron", "exhaustive_draw"} <= outcomes
    winners = {deltas.index(max(deltas)) for _game, outcome, deltas in hands if outcome != "exhaustive_draw"}
    assert len(winners) >= 3  # the deal passes round: the recorded hand is won by another seat each time
    assert len(set(hands)) >= 4


def test_the_demo_plays_past_a_games_end_into_a_new_game(tmp_path):
    """``jantaku run --demo`` fast (120 frames a second, results confirmed after 0.1 s), read by the recording's own
    labels (no model): it goes past the first game's end into a new game, scoring different hands."""
    config = Config().with_overrides(
        camera={"kind": "demo", "fps": 120.0}, loop={"max_reads_per_second": 120.0}, game={"auto_confirm_s": 0.1}
    )
    table = TableRuntime(config, RunOptions(site=False, model=str(tmp_path / "none.onnx"), out=io.StringIO()))
    assert table.director is not None
    table.director.poll_s = 0.05
    try:
        table.start()
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not (table.director.games and service_hands(table) >= 1):
            time.sleep(0.2)
        hands = hands_played(table.service)
    finally:
        table.close()
    assert table.director.games >= 1, hands  # the first game ended and the next one began
    games = sorted({game for game, _outcome, _deltas in hands})
    assert len(games) >= 2 and any(game == games[-1] for game, _o, _d in hands)  # the new game is played on
    tsumo_by_camera = [d for _g, outcome, d in hands if outcome == "tsumo" and max(d) >= 24000]
    assert len({d.index(max(d)) for d in tsumo_by_camera}) >= 2  # the recorded hand, won from different seats
    assert len(set(hands)) >= 3 and {"tsumo", "ron"} <= {outcome for _g, outcome, _d in hands}


def service_hands(table: TableRuntime) -> int:
    """Hands settled in the service's current game."""
    return len(table.service.game.game.history)
