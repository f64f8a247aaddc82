"""The table service, its event bus, its correction store and its game store."""

from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from device.table.bus import RESYNC, EventBus, TooManySubscribers
from device.table.corrections import CorrectionStore, FrameTile, UnknownFrame
from device.table.service import PinLocked, TableService
from device.table.storage import GameStore
from engine.game.events import DeclaredRiichi, HandStart
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from tests.serve_command import start_serve
from tests.web.conftest import phone_write, reading_of
from vision.read.detector import laid_in_rows
from vision.read.pipeline import Reader
from web.hand_request import BadRequest, parse_score_options

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


@pytest.mark.parametrize(
    ("pin", "taken"),
    [
        ("1234", False),  # four digits: the service took these, the config did not
        ("12345", False),
        ("123456", True),
        ("024680", True),  # a leading zero kept
        ("123456789012", True),
        ("1234567890123", False),
        ("\u0663\u0663\u0663\u0663\u0663\u0663", False),  # six Arabic-Indic digits: str.isdigit() says yes
    ],
)
def test_the_service_and_the_config_take_the_same_pins(pin, taken):
    """One PIN rule (``device.table.pin.pin_problem``): 6 to 12 ASCII digits, for the config and the service."""
    from device.config import ConfigError, parse_config

    try:
        parse_config({"site": {"pin": pin}})
        config_took = True
    except ConfigError:
        config_took = False
    try:
        TableService(pin=pin).close()
        service_took = True
    except ValueError as exc:
        assert str(exc) == "the table PIN is 6 to 12 digits"
        service_took = False
    assert (config_took, service_took) == (taken, taken)


def test_pin_lockout_is_per_client_and_expires():
    svc = TableService(pin="123456", pin_attempts=2, pin_window_s=0.2)
    assert not svc.check_pin("1111", client="a")
    assert not svc.check_pin("2222", client="a")
    with pytest.raises(PinLocked):
        svc.check_pin("123456", client="a")
    assert svc.check_pin("123456", client="b")  # another phone is not locked
    time.sleep(0.25)
    assert svc.check_pin("123456", client="a")
    assert not svc.check_pin(1234, client="c")  # not a string


def test_observe_publishes_the_camera_reading_and_keeps_the_frame():
    svc = TableService(pin="123456")
    sub = svc.bus.subscribe()
    frame = np.zeros((480, 640, 3), np.uint8)
    svc.observe(reading_of("123m 55z", frame=frame))
    (msg,) = sub.next(timeout=0)
    assert msg.kind == "camera"
    assert msg.data["rows"] == ["123m", "55z"]
    fid = msg.data["frame_id"]
    assert svc.state()["camera"]["frame_id"] == fid
    assert msg.data["read"] == [
        {"index": i, "tile": t, "row": r}
        for i, (t, r) in enumerate([("1m", 0), ("2m", 0), ("3m", 0), ("5z", 1), ("5z", 1)])
    ]
    fix = svc.correct(fid, 1, Tile.parse("3m"))
    assert (fix["before"], fix["after"]) == ("2m", "3m")
    assert svc.corrections.labels(fid)[1].startswith("2 ")  # 3m is class 2


def test_observe_carries_the_table_seat_by_seat():
    from tests.vision.read.test_table import FRAME, FULL, lay
    from vision.read.table import read_table

    svc = TableService(pin="123456")
    sub = svc.bus.subscribe()
    table = read_table(lay(FULL), FRAME)
    svc.observe(reading_of("123m", table))
    (msg,) = sub.next(timeout=0)
    assert msg.data["rows"] == ["123m"]  # the camera strip as before
    assert msg.data["table"] == table.as_json() == svc.state()["camera"]["table"]
    assert [s["side"] for s in msg.data["table"]["seats"]] == ["bottom", "right", "top", "left"]
    svc.observe(reading_of("1m"))
    assert svc.state()["camera"]["table"] is None  # a close-up: no table


def test_observe_keeps_no_frame_without_tiles():
    svc = TableService(pin="123456")
    svc.observe(reading_of(""))
    assert svc.state()["camera"]["frame_id"] is None
    assert svc.camera is not None and svc.camera.rows == () and svc.camera.read == ()


@pytest.mark.parametrize(
    "loose",
    [
        None,
        {"rows": ["123m"]},
        SimpleNamespace(rows=["123m"], table={"seats": [], "dora_indicators": "3p"}),  # rows and a table as JSON
        reading_of("123m").rows,  # a reading's rows without the reading
    ],
)
def test_observe_takes_only_the_camera_readers_reading(loose):
    svc = TableService(pin="123456")
    with pytest.raises(TypeError, match="observe takes the camera reader's Reading"):
        svc.observe(loose)
    assert svc.state()["camera"] is None


class RowDetector:
    def detect(self, image):
        h, _w = image.shape[:2]
        return list(laid_in_rows([parse_tiles("234m567p23488s678s")], top=h / 2))


def test_read_image_decodes_detects_reads_and_scores():
    import cv2

    svc = TableService(pin="123456", photo_reader=Reader.around(RowDetector()))
    _ok, buf = cv2.imencode(".png", np.full((300, 900, 3), 200, np.uint8))
    out = svc.read_image(buf.tobytes(), parse_score_options({"riichi": True, "tsumo": True}, svc.rules))
    assert out["tiles"] == "234m567p23488678s" and out["complete"]
    assert out["score"]["han"] == 4 and out["score"]["tsumo"]  # riichi tsumo pinfu tanyao
    assert set(out["ms"]) == {"decode", "detect", "total"}
    with pytest.raises(BadRequest):
        svc.read_image(b"GIF89a nonsense")


def test_read_image_score_error_is_reported_not_raised():
    svc = TableService(pin="123456", photo_reader=Reader.around(RowDetector()))
    import cv2

    _ok, buf = cv2.imencode(".jpg", np.zeros((100, 200, 3), np.uint8))
    out = svc.read_image(buf.tobytes(), parse_score_options({"win_tile": "1z"}, svc.rules))
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
    gid = s.create(preset("standard"), ("a", "b", "c", "d"))
    s.append(gid, HandStart())
    s.append(gid, DeclaredRiichi(2))
    s.close()
    again = GameStore(path)
    try:
        g = again.game(gid)
        assert g.seats == ("a", "b", "c", "d") and [e.type for e in g.events] == ["hand_start", "declared_riichi"]
        assert g.scores == [25000, 25000, 24000, 25000] and g.sticks == 1
    finally:
        again.close()


def _log(path: str) -> list[tuple[str, str | None]]:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return [(k, d and json.loads(d)["type"]) for k, d in db.execute("SELECT kind, data FROM log ORDER BY seq")]
    finally:
        db.close()


def test_service_undo_keeps_the_row(tmp_path):
    """Undo is append-only: the undone event stays in the log, an undo row takes it back."""
    path = str(tmp_path / "g.db")
    svc = TableService(pin="246813", db_path=path)
    try:
        phone_write(svc, "riichi", {"seat": 1})
        assert svc.state()["game"]["sticks"] == 1
        svc.undo()  # the write taken back: the riichi and the hand start written before it
        assert svc.state()["game"]["sticks"] == 0 and [e.type for e in svc.game.game.events] == []
    finally:
        svc.close()
    assert _log(path) == [("event", "hand_start"), ("event", "declared_riichi"), ("undo", None), ("undo", None)]


@pytest.mark.parametrize(
    ("actions", "types"),
    [
        (
            [
                ("riichi", {"seat": 2}),
                (
                    "win",
                    {
                        "winner": 1,
                        "discarder_seat": 0,
                        "hand": "234m567p23488s678s",
                        "win_tile": "8s",
                        "flags": ["riichi"],
                    },
                ),
                ("draw", {"tenpai": [True, False, False, True]}),
                ("abort", {"reason": "four_riichi"}),
            ],
            [
                "hand_start",
                "declared_riichi",
                "declared_win",
                "hand_start",
                "declared_draw",
                "hand_start",
                "declared_abort",
            ],
        ),
        (
            [
                ("win", {"winner": 0, "tsumo": True, "hand": "234m567p23488s678s", "win_tile": "8s"}),
                ("riichi", {"seat": 3}),
                ("chombo", {"seat": 3}),
            ],
            ["hand_start", "declared_win", "hand_start", "declared_riichi", "chombo"],
        ),
    ],
)
def test_service_restart_recovers_declared_events(tmp_path, actions, types):
    path = str(tmp_path / "g.db")
    svc = TableService(pin="246813", db_path=path)
    for action, body in actions:
        phone_write(svc, action, body)
    svc.undo()
    phone_write(svc, *actions[-1])  # undone and done again: the log holds both
    before = svc.state()["game"]
    svc.close()
    again = TableService(pin="246813", db_path=path)
    try:
        after = again.state()["game"]
        assert [e.type for e in again.game.game.events] == types
        assert after == before and after["history"] and any(h["deltas"] != [0, 0, 0, 0] for h in after["history"])
        again.game.game.validate()
    finally:
        again.close()


def test_a_game_in_the_earlier_log_is_brought_over(tmp_path):
    """A table upgraded mid-game: the game left in the old tables (meta, events) is replayed into the one log."""
    import sqlite3

    path = str(tmp_path / "g.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)")
    db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)")
    meta = {"rules": {"name": "standard"}, "seats": ["a", "b", "c", "d"], "first_dealer": 0}
    db.execute("INSERT INTO meta VALUES (1, ?)", (json.dumps(meta),))
    for e in ({"type": "hand_start"}, {"type": "declared_riichi", "seat": 3, "double": False}):
        db.execute("INSERT INTO events (data) VALUES (?)", (json.dumps(e),))
    db.commit()
    db.close()
    for _ in range(2):  # brought over once: the second start finds it in the one log
        svc = TableService(pin="246813", db_path=path)
        try:
            assert [s["name"] for s in svc.state()["game"]["seats"]] == ["a", "b", "c", "d"]
            assert svc.state()["game"]["sticks"] == 1 and svc.game.store.games() == [1]
        finally:
            svc.close()


def test_service_imports_an_exported_game(tmp_path):
    svc = TableService(pin="246813", db_path=str(tmp_path / "g.db"))
    try:
        phone_write(svc, "riichi", {"seat": 0})
        phone_write(svc, "draw", {"tenpai": [True, False, False, False]})
        data = json.loads(json.dumps(svc.export_game()))
        svc.new_game(preset("standard"), ["", "", "", ""])
        assert svc.state()["game"]["history"] == []
        assert svc.import_game(data)["events"] == 3
        assert svc.state()["game"]["seats"][0]["points"] == data["scores"][0] == 25000 - 1000 + 3000
    finally:
        svc.close()


# --- photos --------------------------------------------------------------------------------------------------


def test_jpeg_size_and_reduced_decode():
    import cv2

    from device.table.photos import decode_photo, jpeg_size

    img = np.zeros((1500, 4000, 3), np.uint8)
    img[:, :2000] = 255
    data = cv2.imencode(".jpg", img)[1].tobytes()
    assert jpeg_size(data) == (4000, 1500)
    assert jpeg_size(b"\xff\xd8\xff") is None and jpeg_size(b"GIF89a") is None
    assert decode_photo(data, 2048).shape == (750, 2000, 3)  # decoded at half size
    assert decode_photo(data, 1000).shape == (375, 1000, 3)  # a quarter
    png = cv2.imencode(".png", img)[1].tobytes()
    assert decode_photo(png, 2048).shape == (768, 2048, 3)  # decoded whole, then shrunk
    assert decode_photo(data, 5000).shape == (1500, 4000, 3)


# --- the commands --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--pin", "12"], "--pin: the table PIN is 6 to 12 digits"),
        (["serve", "--pin", "123456", "--streams", "0"], "--streams"),
    ],
)
def test_command_errors_are_one_line(argv, message, capsys):
    from device.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_soak_bench_over_real_http():
    """A short soak through waitress: every client gets every update, quickly."""
    from device.lab.site_bench import soak

    result = soak(clients=16, seconds=2.0, rate=8.0)
    assert result["connected"] == 16 and result["lost_updates"] == 0 and not result["errors"]
    assert result["updates_published"] >= 12
    # every client measured every update (the 250 ms target itself is the bench's, on a quiet machine)
    assert result["received_per_client"]["min"] >= result["updates_published"]
    assert 0 <= result["latency_ms"]["p50"] <= result["latency_ms"]["p95"] <= result["latency_ms"]["max"]


def test_generated_photo_is_12_megapixels_and_reads_through_the_api():
    import cv2

    from device.lab.site_bench import PHOTO_HAND, make_photo, multipart
    from tests.web.conftest import Phone
    from web import create_app

    data = make_photo()
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_COLOR_4)
    assert img.shape == (750, 1000, 3)
    body, ctype = multipart("image", "p.jpg", data, {"tsumo": "true"})
    svc = TableService(pin="123456", photo_reader=Reader.around(RowDetector()))
    phone = Phone(create_app(None, svc).test_client())
    r = phone.post("/api/read", data=body, content_type=ctype)
    assert r.status_code == 200, r.json
    assert (r.json["width"], r.json["height"]) == (2000, 1500)  # decoded at half size
    assert PHOTO_HAND == "234m567p23488s678s"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"BM" + b"\0" * 100, "JPEG or PNG"),
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + (40000).to_bytes(4, "big") * 2 + b"\x08\x02\0\0\0", "too many pixels"),
        (b"\xff\xd8\xff\xc0\0\x11\x08" + (20000).to_bytes(2, "big") * 2 + b"\x03" + b"\0" * 20, "too many pixels"),
    ],
)
def test_decode_photo_refuses_before_decoding(data, message):
    from device.table.photos import decode_photo
    from vision.read.errors import UnreadableImage

    with pytest.raises(UnreadableImage, match=message):
        decode_photo(data, 2048)


def test_jantaku_serve_starts_prints_the_url_and_stops_on_ctrl_c(tmp_path):
    import json as _json
    import signal
    import urllib.request

    proc, line = start_serve(tmp_path / "g.db", "864213")
    try:
        url = line.split()[2]
        where = proc.stdout.readline()
        assert "(the PIN given by --pin)" in where and "864213" not in line + where, where  # never printed
        with urllib.request.urlopen(url + "api/state", timeout=10) as r:
            assert _json.load(r)["game"]["round"]["name"] == "East 1"
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "no detector model" in err
    assert (tmp_path / "g.db").exists()


def test_photos_are_read_by_the_photo_reader_the_service_is_handed():
    """The service reads a photo by its :class:`~vision.read.pipeline.Reader` once, under the reader's lock, and
    takes the rows as the reader read them."""
    import cv2

    from vision.read.pipeline import Reader

    class Counting(RowDetector):
        reads = 0

        def detect(self, image):
            assert reader.lock.locked()  # one read at a time with the camera's reader
            Counting.reads += 1
            return super().detect(image)

    reader = Reader.around(Counting())
    svc = TableService(pin="123456", photo_reader=reader)
    _ok, buf = cv2.imencode(".png", np.full((300, 900, 3), 200, np.uint8))
    out = svc.read_image(buf.tobytes())
    assert out["tiles"] == "234m567p23488678s" and Counting.reads == 1
    assert [t["row"] for t in out["read"]] == [0] * 14
