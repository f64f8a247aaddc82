"""The bundled demo recording (``python -m device.lab.demo_make``): a whole hand the engine accepts, drawn as its
manifest says, and followed frame by frame from its own labels.

The manifest lists, per frame, the engine events the change it shows makes (an arm frame: none). The engine
replays them (hands unknown: draws without tiles) to the win the manifest states; the table follower, fed the
recording's exact labels through ``read_table`` (each still frame ``hold`` times), gives the same events in order,
draws aside (the engine inserts them) and the win aside (the reveal is read elsewhere).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from device.camera.sources import Frame
from device.commands.run import RecordedLabels
from device.demo import RECORDING
from device.lab import demo_make
from engine.game.events import Draw, HandStart, Tsumo, event_from_dict
from engine.game.state import Game
from engine.rules import preset
from vision.read.follow import TableFollower
from vision.read.geometry import Size
from vision.read.table import read_table

MANIFEST = json.loads((RECORDING / "recording.json").read_text())
FRAMES = MANIFEST["frames"]


def events_of(frame: dict) -> list:
    return [event_from_dict(e) for e in frame["events"]]


def test_the_manifest_plays_as_one_legal_hand_won_by_east():
    game = Game(preset("standard"), ("East", "South", "West", "North"))
    results = [game.apply(e) for f in FRAMES for e in events_of(f)]
    assert [type(e) for e in events_of(FRAMES[0])] == [HandStart]
    won = [r for r in results if r is not None]
    assert len(won) == 1 and won[0] is results[-1]
    assert list(won[0].deltas) == MANIFEST["winner"]["deltas"] == [25000, -8000, -8000, -8000]  # baiman, the stick


def test_every_change_is_an_arm_frame_then_the_still_table():
    for arm, still in zip(FRAMES[1::2], FRAMES[2::2], strict=True):
        assert arm["arm"] is not None and arm["hold"] == 1 and arm["events"] == []
        assert still["arm"] is None and still["hold"] > 1 and still["events"]
    kinds = {e["type"] for f in FRAMES for e in f["events"]}
    assert {"call", "added_kan", "dora_flip", "tsumo"} <= kinds
    assert any(e.get("riichi") for f in FRAMES for e in f["events"])


def test_the_recording_is_what_demo_make_renders():
    """The last frame's labels, rendered again from the script: the recording is current and reproducible."""
    from vision.synth.table_render import render_table

    last = demo_make.scenes()[-1]
    labels = (RECORDING / "labels" / f"{len(FRAMES) - 1:03}.txt").read_text().split("\n")[:-1]
    assert render_table(last, seed=MANIFEST["seed"]).labels == labels


def test_the_follower_reads_the_demo_from_its_labels():
    labels = RecordedLabels(RECORDING)
    size = Size(height=MANIFEST["size"]["height"], width=MANIFEST["size"]["width"])
    blank = np.zeros((size.height, size.width, 3), np.uint8)
    follower = TableFollower(camera_seat=MANIFEST["camera_seat"])
    got, want, index = [], [], 0
    for frame in FRAMES:
        observation = read_table(labels(Frame(blank, origin=frame["file"])), size)
        updates = [follower.update(observation, index)]
        updates += [follower.hold(index + k) for k in range(1, frame["hold"])]
        index += frame["hold"]
        opening = [u.opening_indicator for u in updates if u.opening_indicator is not None]
        events = [e for u in updates for e in u.events]
        expected = [e for e in events_of(frame) if not isinstance(e, Draw | Tsumo)]
        if any(isinstance(e, Tsumo) for e in events_of(frame)):
            assert events == [], events  # the win: no discard or call made of the hand laid down
            continue
        if any(isinstance(e, HandStart) for e in expected):
            assert opening == [expected[0].dora_indicator]
            expected = expected[1:]
        got += events
        want += expected
        assert [c for u in updates for c in u.contradictions] == [], frame["file"]
    assert got == want
    assert {type(e).__name__ for e in want} == {"Discard", "Call", "AddedKan", "DoraFlip"}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["026.jpg", "036.jpg", "044.jpg"])
def test_the_camera_reader_reads_demo_frames_as_their_labels(name):
    """The pon, the added kan with its kan dora, the win: the shipped models read the table as the labels do."""
    import cv2

    from vision.read.pipeline import Reader, ReaderConfig

    try:
        reader = Reader.from_config(ReaderConfig.for_camera())
    except Exception as exc:  # no shipped model: nothing to check
        pytest.skip(f"no camera reader: {exc}")
    image = cv2.imread(str(RECORDING / name))
    by_models = reader.read(image).table
    by_labels = read_table(RecordedLabels(RECORDING)(Frame(image, origin=name)), Size.of(image))
    for a, b in zip(by_models.seats, by_labels.seats, strict=True):
        assert (a.pond_tiles, a.riichi, [m.text for m in a.melds], a.hand_tiles, a.drawn_tile) == (
            b.pond_tiles, b.riichi, [m.text for m in b.melds], b.hand_tiles, b.drawn_tile)  # fmt: skip
    assert by_models.dora_indicators == by_labels.dora_indicators


@pytest.mark.slow
def test_the_camera_reader_follows_the_pon_and_the_added_kan():
    """The shipped models over the still frames from North's 6z to South's discard after its added kan, the
    follower started on the table read just before: the same events as the manifest lists."""
    import cv2

    from vision.read.pipeline import Reader, ReaderConfig

    try:
        reader = Reader.from_config(ReaderConfig.for_camera())
    except Exception as exc:  # no shipped model: nothing to check
        pytest.skip(f"no camera reader: {exc}")
    names = [f["file"] for f in FRAMES]
    first, last = names.index("022.jpg"), names.index("038.jpg")
    follower = TableFollower(camera_seat=MANIFEST["camera_seat"])
    follower.accept(reader.read(cv2.imread(str(RECORDING / names[first]))).table)
    got, want, index = [], [], 0
    for frame in FRAMES[first + 2 : last + 1 : 2]:  # the still tables (arm frames are never read: the gate)
        table_read = reader.read(cv2.imread(str(RECORDING / frame["file"]))).table
        updates = [follower.update(table_read, index)] + [follower.hold(index + k) for k in range(1, frame["hold"])]
        index += frame["hold"]
        got += [e for u in updates for e in u.events]
        want += [e for e in events_of(frame) if not isinstance(e, Draw)]
        assert [c for u in updates for c in u.contradictions] == [], frame["file"]
    assert got == want
