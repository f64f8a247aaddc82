"""The table service, its event bus, its correction store and its game store."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
import pytest

from device.corrections import CorrectionStore, FrameTile, UnknownFrame
from device.events import RESYNC, EventBus, TooManySubscribers
from device.game_store import GameStore
from device.hand_request import BadRequest
from device.service import PinLocked, TableService
from engine.tiles import Tile, parse_tiles
from vision.detector import Detection
from vision.geometry import Box
from vision.labels import class_of_tile

# --- the event bus -------------------------------------------------------------------------------------------


def test_bus_fans_out_to_every_subscriber():
    bus = EventBus()
    subs = [bus.subscribe() for _ in range(16)]
    got: list[list[int]] = [[] for _ in subs]

    def reader(i):
        while len(got[i]) < 3:
            got[i].extend(m.data for m in subs[i].next(timeout=2))

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for n in range(3):
        bus.publish("state", n)
        time.sleep(0.01)
    for t in threads:
        t.join(5)
    assert got == [[0, 1, 2]] * 16


def test_bus_heartbeat_timeout_returns_empty():
    sub = EventBus().subscribe()
    t0 = time.monotonic()
    assert sub.next(timeout=0.05) == []
    assert time.monotonic() - t0 >= 0.04


def test_bus_resync_when_behind_the_backlog():
    bus = EventBus(backlog=3)
    sub = bus.subscribe()
    for i in range(5):
        bus.publish("camera", i)
    (msg,) = sub.next(timeout=0)
    assert msg.kind == RESYNC and msg.seq == 5
    assert sub.next(timeout=0) == []


def test_bus_resume_from_an_id():
    bus = EventBus()
    for i in range(4):
        bus.publish("camera", i)
    assert [m.data for m in bus.subscribe(2).next(timeout=0)] == [2, 3]
    assert bus.subscribe(99).next(timeout=0) == []  # an id from the future (server restarted): start now


def test_bus_limits_subscribers_and_releases_them():
    bus = EventBus(max_subscribers=2)
    a, b = bus.subscribe(), bus.subscribe()
    with pytest.raises(TooManySubscribers):
        bus.subscribe()
    a.close()
    a.close()  # twice is harmless
    with bus.subscribe():
        assert bus.subscribers == 2
    b.close()
    assert bus.subscribers == 0


def test_bus_close_wakes_waiters():
    bus = EventBus()
    sub = bus.subscribe()
    threading.Timer(0.05, bus.close).start()
    t0 = time.monotonic()
    assert sub.next(timeout=5) == []
    assert time.monotonic() - t0 < 2 and sub.ended


def test_sse_frame_format():
    bus = EventBus()
    msg = bus.publish("state", {"a": "x\ny"})
    assert msg.sse() == 'id: 1\nevent: state\ndata: {"a":"x\\ny"}\n\n'


# --- the service ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pin", ["", "12", "abcd", "1234567890123"])
def test_service_refuses_a_weak_pin(pin):
    with pytest.raises(ValueError):
        TableService(pin=pin)


def test_pin_lockout_is_per_client_and_expires():
    svc = TableService(pin="1234", pin_attempts=2, pin_window_s=0.2)
    assert not svc.check_pin("1111", client="a")
    assert not svc.check_pin("2222", client="a")
    with pytest.raises(PinLocked):
        svc.check_pin("1234", client="a")
    assert svc.check_pin("1234", client="b")  # another phone is not locked
    time.sleep(0.25)
    assert svc.check_pin("1234", client="a")
    assert not svc.check_pin(1234, client="c")  # not a string


@dataclass
class Observation:
    rows: list
    frame: np.ndarray | None = None
    detections: list | None = None
    zones: dict | None = None


def dets(text: str, y: float = 100) -> list[Detection]:
    return [Detection.of_class(class_of_tile(t), Box(40.0 * i, y, 40.0 * i + 30, y + 40), 0.8)
            for i, t in enumerate(parse_tiles(text))]


def test_observe_publishes_the_camera_view_and_keeps_the_frame():
    svc = TableService(pin="1234")
    sub = svc.bus.subscribe()
    frame = np.zeros((480, 640, 3), np.uint8)
    svc.observe(Observation(rows=["123m", parse_tiles("55z")], frame=frame, detections=dets("123m"),
                            zones={"dora": parse_tiles("3p")}))
    (msg,) = sub.next(timeout=0)
    assert msg.kind == "camera"
    assert msg.data["rows"] == ["123m", "55z"] and msg.data["zones"] == {"dora": "3p"}
    fid = msg.data["frame_id"]
    assert svc.state()["camera"]["frame_id"] == fid
    fix = svc.correct(fid, 1, Tile.parse("3m"))
    assert (fix["before"], fix["after"]) == ("2m", "3m")
    assert svc.corrections.labels(fid)[1].startswith("2 ")  # 3m is class 2


def test_observe_without_a_frame():
    svc = TableService(pin="1234")
    svc.observe(Observation(rows=[parse_tiles("1z")]))
    assert svc.state()["camera"]["frame_id"] is None
    assert svc.camera is not None and svc.camera.rows == ((Tile.parse("1z"),),)


class RowDetector:
    def detect(self, image):
        h, _w = image.shape[:2]
        return dets("234m567p23488s678s", y=h / 2)


def test_read_image_decodes_detects_reads_and_scores():
    import cv2

    svc = TableService(pin="1234", detector=RowDetector())
    _ok, buf = cv2.imencode(".png", np.full((300, 900, 3), 200, np.uint8))
    out = svc.read_image(buf.tobytes(), {"riichi": True, "tsumo": True})
    assert out["tiles"] == "234m567p23488678s" and out["complete"]
    assert out["score"]["han"] == 4 and out["score"]["tsumo"]  # riichi tsumo pinfu tanyao
    assert set(out["ms"]) == {"decode", "detect", "total"}
    with pytest.raises(BadRequest):
        svc.read_image(b"GIF89a nonsense")


def test_read_image_score_error_is_reported_not_raised():
    svc = TableService(pin="1234", detector=RowDetector())
    import cv2

    _ok, buf = cv2.imencode(".jpg", np.zeros((100, 200, 3), np.uint8))
    out = svc.read_image(buf.tobytes(), {"win_tile": "1z"})
    assert out["score"] is None and "1z" in out["score_error"]


# --- the stores ----------------------------------------------------------------------------------------------


def test_corrections_persist_and_reload(tmp_path):
    store = CorrectionStore(tmp_path)
    fid = store.add_frame(b"\xff\xd8jpeg", 100, 50, [FrameTile(Tile.parse("1m"), (0, 0, 10, 10))])
    store.correct(fid, 0, None)  # face down
    again = CorrectionStore(tmp_path)
    assert [c.after for c in again.corrections] == ["back"]
    assert (tmp_path / "labels" / f"{fid}.txt").read_text().startswith("37 ")
    with pytest.raises(UnknownFrame):
        again.correct(fid, 0, None)  # frames are held in memory only


def test_corrections_keep_a_bounded_number_of_frames():
    store = CorrectionStore(None, keep=2)
    ids = [store.add_frame(b"", 10, 10, []) for _ in range(3)]
    with pytest.raises(UnknownFrame):
        store.frame_tiles(ids[0])
    assert store.frame_tiles(ids[2]) == []
    cam1 = store.add_frame(b"", 10, 10, [], camera=True)
    cam2 = store.add_frame(b"", 10, 10, [], camera=True)
    with pytest.raises(UnknownFrame):
        store.frame_tiles(cam1)
    assert store.frame_tiles(cam2) == [] and store.frame_tiles(ids[2]) == []


def test_game_store_survives_reopening(tmp_path):
    path = str(tmp_path / "g.db")
    s = GameStore(path)
    s.reset({"seats": ["a", "b", "c", "d"]})
    s.append({"type": "hand_start"})
    s.close()
    meta, events = GameStore(path).load()
    assert meta["seats"] == ["a", "b", "c", "d"] and events == [{"type": "hand_start"}]
