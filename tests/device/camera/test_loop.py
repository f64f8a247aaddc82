"""The service loop: change/motion gating, rate limiting, reconnecting, failures, stopping."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest

from device.camera.loop import Backoff, ChangeGate, Decision, ServiceLoop
from device.camera.sources import FakeSource, Frame, SourceLost, SourceUnavailable

H, W = 600, 800  # non-square, like a 4:3 camera
TILE_H, TILE_W = 48, 36  # a tile as seen from above in such a frame


def felt(seed: int = 0, noise: float = 4.0) -> np.ndarray:
    """A green table with sensor noise (a new seed: the same table taken again)."""
    rng = np.random.default_rng(seed)
    img = np.empty((H, W, 3), np.float32)
    img[:] = (50, 120, 45)
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def with_tile(img: np.ndarray, y: int = 300, x: int = 420) -> np.ndarray:
    out = img.copy()
    out[y : y + TILE_H, x : x + TILE_W] = (225, 230, 235)
    return out


def with_arm(img: np.ndarray, x: int) -> np.ndarray:
    out = img.copy()
    out[250:H, x : x + 120] = (120, 160, 205)  # skin, reaching in from the bottom edge
    return out


def brighter(img: np.ndarray, by: int) -> np.ndarray:
    return np.clip(img.astype(np.int16) + by, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (lambda: felt(1), Decision.UNCHANGED),  # sensor noise only
        (lambda: brighter(felt(1), 25), Decision.UNCHANGED),  # the room's light changed, the table did not
        (lambda: with_tile(felt(1)), Decision.CHANGED),  # one tile discarded, all still
        (lambda: with_tile(felt(1), y=0, x=W - TILE_W), Decision.CHANGED),  # a tile at the very corner
        (lambda: np.ascontiguousarray(felt(1)[:, : W - 100]), Decision.CHANGED),  # the camera changed resolution
    ],
)
def test_gate_on_a_still_second_frame(after, expected):
    gate = ChangeGate()
    assert gate.consider(Frame(felt(0))).decision is Decision.FIRST
    gate.accept()
    image = after()
    gate.consider(Frame(image))  # first sight of the new table: may be "moving"
    assert gate.consider(Frame(image)).decision is expected


def test_gate_waits_for_the_arm_to_leave():
    gate = ChangeGate()
    gate.consider(Frame(felt(0)))
    gate.accept()
    seen = [gate.consider(Frame(img)).decision for img in (with_arm(felt(1), 300), with_arm(felt(2), 340))]
    assert seen == [Decision.MOVING, Decision.MOVING]
    # the arm leaves a tile behind: moving on the first still frame's arrival, then changed
    assert gate.consider(Frame(with_tile(felt(3)))).decision is Decision.MOVING
    assert gate.consider(Frame(with_tile(felt(4)))).decision is Decision.CHANGED


def test_gate_compares_with_the_last_frame_read_not_the_last_seen():
    gate = ChangeGate()
    gate.consider(Frame(felt(0)))
    gate.accept()
    tile = with_tile(felt(1))
    gate.consider(Frame(tile))
    assert gate.consider(Frame(with_tile(felt(2)))).decision is Decision.CHANGED
    # not accepted (e.g. deferred by the rate limit): the same table is still "changed" later on
    assert gate.consider(Frame(with_tile(felt(3)))).decision is Decision.CHANGED
    gate.accept()
    assert gate.consider(Frame(with_tile(felt(4)))).decision is Decision.UNCHANGED
    gate.forget()
    assert gate.consider(Frame(with_tile(felt(5)))).decision is Decision.FIRST


def script_of_a_discard() -> list[np.ndarray]:
    """Still table, an arm comes and goes leaving a tile, still table again."""
    return [
        felt(0),
        felt(1),
        felt(2),
        with_arm(felt(3), 200),
        with_arm(with_tile(felt(4)), 380),
        with_tile(felt(5)),
        with_tile(felt(6)),
        with_tile(felt(7)),
    ]


class Recorder:
    """A stand-in pipeline: the "observation" of a frame is its origin."""

    def __init__(self, fail_on: frozenset[int] = frozenset()) -> None:
        self.read_frames: list[int] = []
        self.observed: list[str] = []
        self.fail_on = fail_on

    def read(self, frame: Frame) -> str:
        self.read_frames.append(frame.index)
        if frame.index in self.fail_on:
            raise RuntimeError(f"detector choked on frame {frame.index}")
        assert (frame.height, frame.width) == (H, W)
        return frame.origin

    def observe(self, observation: str) -> None:
        self.observed.append(observation)


def make_loop(source, recorder, **kwargs) -> ServiceLoop:
    kwargs.setdefault("max_reads_per_second", 1000.0)
    kwargs.setdefault("backoff", Backoff(first=0.001, longest=0.004))
    return ServiceLoop(source, recorder.read, recorder.observe, **kwargs)


def test_loop_reads_only_new_still_tables():
    rec = Recorder()
    stats = make_loop(FakeSource(script_of_a_discard()), rec).run()
    assert rec.read_frames == [0, 6]  # the first frame, and the first still frame showing the new tile
    assert rec.observed == ["fake#0", "fake#6"]
    assert (stats.frames, stats.reads, stats.unchanged, stats.moving, stats.errors) == (8, 2, 3, 3, 0)


def test_loop_reconnects_and_keeps_what_it_knows():
    steps = [felt(0), felt(1), SourceLost("fake: unplugged"), felt(2), with_tile(felt(3)), with_tile(felt(4))]
    source = FakeSource(steps, open_failures=0)
    rec = Recorder()
    loop = make_loop(source, rec)
    # the camera is also missing for the first two attempts to reopen it
    real_open = source.open

    def open_flaky():
        if source.opens in (1, 2):
            source.opens += 1
            raise SourceUnavailable("fake: still unplugged")
        real_open()

    source.open = open_flaky
    stats = loop.run()
    assert stats.reconnects == 1
    assert source.opens == 4  # first open, two failures, then back
    # after reconnecting the same table is not read again; the new tile is, once still (frame 4)
    assert rec.read_frames == [0, 4]
    assert stats.frames == 5 and stats.reads == 2


def test_backoff_doubles_up_to_a_ceiling_and_resets():
    b = Backoff(first=0.5, longest=3.0)
    assert [b.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    b.reset()
    assert b.next_delay() == 0.5


class FakeClock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_reads_are_rate_limited_and_deferred_frames_read_later():
    # a new tile appears on every other frame, frames arrive every 0.25 s, at most one read per second
    frames, table = [], felt(0)
    for i in range(12):
        if i % 2 == 0:
            table = with_tile(table, y=20 + 50 * (i // 2), x=40)
        frames += [table]
    rec = Recorder()
    stats = make_loop(FakeSource(frames), rec, max_reads_per_second=1.0, clock=FakeClock(0.25)).run()
    assert stats.deferred > 0
    assert stats.reads == len(rec.read_frames) <= 4
    gaps = np.diff(rec.read_frames)
    assert (gaps >= 4).all(), rec.read_frames  # 4 frames of 0.25 s = 1 s apart at least
    assert rec.read_frames[-1] >= 8  # the later tables were still read, not lost


def test_a_failing_read_is_counted_and_the_loop_goes_on():
    rec = Recorder(fail_on=frozenset({0}))
    stats = make_loop(FakeSource([felt(0), felt(1), felt(2)]), rec).run()
    # frame 0 failed: not marked read, so frame 1 (same table) is read instead
    assert rec.read_frames == [0, 1]
    assert rec.observed == ["fake#1"]
    assert stats.errors == 1 and "detector choked on frame 0" in stats.last_error


def test_a_failing_service_does_not_stop_the_loop():
    seen = []

    def observe(obs):
        seen.append(obs)
        raise ValueError("service refused")

    loop = ServiceLoop(FakeSource(script_of_a_discard()), lambda f: f.index, observe, max_reads_per_second=1e3)
    stats = loop.run()
    assert seen == [0, 6] and stats.errors == 2


@pytest.mark.parametrize(
    ("frames", "fail_on", "expected"),
    [
        # read, held twice, an arm (no hold while it moves), the new table read and its first still frame (5) held
        # after it, then held once more
        (script_of_a_discard(), frozenset(), ["read 0", "hold", "hold", "read 6", "hold", "hold"]),
        # nothing read yet (the first read failed): no hold until a frame is read
        ([felt(0), felt(1), felt(2)], frozenset({0}), ["read 1", "hold"]),
    ],
)
def test_each_unchanged_frame_after_a_read_is_a_hold(frames, fail_on, expected):
    rec = Recorder(fail_on=fail_on)
    calls: list[str] = []
    seconds = itertools.count()  # a second between frames: no read is deferred by the rate limit
    loop = make_loop(FakeSource(frames), rec, hold=lambda: calls.append("hold"), clock=lambda: float(next(seconds)))
    loop.observe = lambda obs: calls.append(f"read {obs.split('#')[1]}")
    stats = loop.run()
    assert calls == expected
    assert stats.unchanged + stats.held_before == expected.count("hold")


@pytest.mark.parametrize(
    ("frames", "read_times", "expected", "held_before"),
    [
        # the new table lies still two frames (5, 6) before the next arm: read on the second, the first held after it
        (
            [*script_of_a_discard()[:7], with_arm(with_tile(felt(7)), 100)],
            None,
            ["read 0", "hold", "hold", "read 6", "hold"],
            1,
        ),
        # the first frame read has no frame before it
        ([felt(0), with_arm(felt(1), 100)], None, ["read 0"], 0),
        # a changed frame whose read the rate limit (one a second) deferred, 0.5 s after the last read, showed the
        # table read on the next frame
        (script_of_a_discard(), [0.0, 0.5, 1.5], ["read 0", "hold", "hold", "read 7", "hold"], 1),
    ],
)
def test_the_still_frame_before_a_read_is_held_after_it(frames, read_times, expected, held_before):
    calls: list[str] = []
    seconds = iter(read_times) if read_times else itertools.count()  # the clock is asked once per frame to read
    loop = ServiceLoop(
        FakeSource(frames), lambda f: f.origin, lambda obs: calls.append(f"read {obs.split('#')[1]}"),
        hold=lambda: calls.append("hold"), max_reads_per_second=1.0, clock=lambda: float(next(seconds)),
    )  # fmt: skip
    stats = loop.run()
    assert calls == expected
    assert stats.held_before == held_before


def test_a_failing_hold_is_counted_and_the_loop_goes_on():
    def hold():
        raise ValueError("follower refused")

    rec = Recorder()
    stats = make_loop(FakeSource(script_of_a_discard()), rec, hold=hold).run()
    assert rec.observed == ["fake#0", "fake#6"]
    # frames 1, 2 and 7 held, and frame 5 (still, before frame 6 was read)
    assert stats.errors == 4 and "hold: ValueError: follower refused" in stats.last_error


def test_stop_from_another_thread_is_prompt():
    source = FakeSource([felt(0), with_tile(felt(1))], loop=True)
    rec = Recorder()
    loop = make_loop(source, rec, poll_fps=50)
    loop.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    loop.stop()
    assert loop.join(timeout=5)
    assert time.monotonic() - t0 < 1.0
    assert loop.stats.frames >= 3 and source.closes >= 1
    assert not loop.stats.connected


def test_stop_while_waiting_for_a_missing_camera():
    source = FakeSource([felt(0)], open_failures=10**6)
    loop = ServiceLoop(source, lambda f: f, lambda o: None, backoff=Backoff(first=10.0))
    thread = loop.start()
    time.sleep(0.2)
    loop.stop()
    thread.join(timeout=2)
    assert not thread.is_alive()
    assert loop.stats.frames == 0 and "still" not in loop.stats.last_error
    assert "not there" in loop.stats.last_error


def test_poll_rate_is_respected():
    source = FakeSource([felt(0)], loop=True)
    loop = ServiceLoop(source, lambda f: f, lambda o: None, poll_fps=20)
    timer = threading.Timer(0.5, loop.stop)
    timer.start()
    loop.run()
    timer.join()
    assert 6 <= loop.stats.frames <= 12  # about 10 in half a second at 20 per second


def test_frames_keep_their_shape_through_the_loop():
    shapes = []
    changed = np.zeros((480, 1200, 3), np.uint8)
    changed[100:200, 300:400] = 200
    images = [np.zeros((480, 1200, 3), np.uint8), changed, changed]
    loop = ServiceLoop(FakeSource(images), lambda f: f.size, shapes.append, max_reads_per_second=1e3)
    loop.run()
    assert shapes == [(480, 1200), (480, 1200)]


def test_on_the_demo_recording_each_still_table_is_read_once_and_no_arm():
    import json

    from device.camera.sources import FileReplaySource
    from device.demo import RECORDING

    manifest = json.loads((RECORDING / "recording.json").read_text())
    arms = {f["file"]: f["arm"] for f in manifest["frames"]}
    read: list[str] = []
    stats = ServiceLoop(FileReplaySource(RECORDING), lambda f: f.origin, read.append, max_reads_per_second=1e3).run()
    assert stats.frames == sum(f["hold"] for f in manifest["frames"])
    assert not any(arms[name] for name in read)  # never an arm
    still = [f["file"] for f in manifest["frames"] if f["hold"] > 1]
    assert read == still  # the dealt table, each of the 21 changes (19 discards, a pon, an added kan), the win: once
    assert len(read) == 23
    assert sum(p.stat().st_size for p in RECORDING.rglob("*") if p.is_file()) <= 20e6
