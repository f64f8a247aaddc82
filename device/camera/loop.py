"""The service loop: camera frames in, table observations out.

``source -> gate -> pipeline (detector, sliced; reader) -> observe(observation)``, and ``hold()`` for each frame
the gate finds unchanged since the last read (a follower of the game counts still frames to settle a change).

* The :class:`ChangeGate` keeps the detector for frames worth reading: the table must have changed since the
  last frame that was read, and must be still (no arm moving over it). It compares small blurred grey
  thumbnails cell by cell, so one tile discarded in a large frame counts, while sensor noise and a global
  change of light do not; and it tells where the table changed (:attr:`GateResult.zones`).
* With ``zones=True`` the loop hands those zones to ``read(frame, zones)`` (None: read it whole: the first frame,
  after the camera came back), so a reader can read only round them (:mod:`vision.read.zones`).
* Reads are rate limited (``max_reads_per_second``); a changed frame that comes too soon waits for a later one.
* A camera that vanishes (:class:`~device.camera.sources.SourceLost`) is closed and reopened with exponential back-off;
  what the loop knows (the last table read, the counters) is kept, and the service is never touched.
* A frame the pipeline or the service fails on is logged and counted, and the loop goes on.
* :meth:`ServiceLoop.stop` (or the ``stop`` event) ends it within one frame or back-off step.

The loop knows nothing of detectors or web pages: it is given ``read(frame) -> observation`` and
``observe(observation)``. :class:`device.commands.run.TableRuntime` joins the real ones.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from device.camera.sources import EndOfStream, Frame, FrameSource, SourceLost, SourceUnavailable
from vision.read.geometry import Box

log = logging.getLogger(__name__)


class Decision(enum.Enum):
    """What the gate made of a frame."""

    FIRST = "first"  # nothing read yet: read it
    CHANGED = "changed"  # the table differs from the last frame read, and is still: read it
    UNCHANGED = "unchanged"  # same table as last read: skip
    MOVING = "moving"  # something moves over the table: wait until it is still

    @property
    def wants_read(self) -> bool:
        return self in (Decision.FIRST, Decision.CHANGED)


@dataclass(frozen=True)
class GateResult:
    decision: Decision
    change: float  # most-changed cell against the last frame read (grey levels, above the frame's median cell)
    motion: float  # the same against the previous frame
    #: Where a CHANGED frame differs from the last frame read (frame pixels, bounds of neighbouring changed cells);
    #: None otherwise (a FIRST frame: everything).
    zones: tuple[Box, ...] | None = None


class ChangeGate:
    """Decides which frames are worth reading, on thumbnails ``thumb_width`` pixels wide.

    The score of two thumbnails is the mean absolute grey difference in the most changed cell of
    ``cell`` x ``cell`` thumbnail pixels, minus the median cell's (a change of light moves every cell alike).

    >>> gate = ChangeGate()
    >>> table = np.full((300, 400, 3), 60, np.uint8)
    >>> gate.consider(Frame(table)).decision
    <Decision.FIRST: 'first'>
    >>> gate.accept()  # the pipeline read it
    >>> gate.consider(Frame(table.copy())).decision
    <Decision.UNCHANGED: 'unchanged'>
    >>> moved = table.copy(); moved[100:140, 200:230] = 230  # a tile put down
    >>> gate.consider(Frame(moved)).decision  # differs from the previous frame: still settling
    <Decision.MOVING: 'moving'>
    >>> result = gate.consider(Frame(moved.copy()))  # still now, and differs from what was read
    >>> result.decision, result.zones
    (<Decision.CHANGED: 'changed'>, (Box(x1=180.0, y1=80.0, x2=250.0, y2=160.0),))

    A zone is the bounds of the cells that changed by at least half ``change_threshold``, neighbours of one another,
    among them one changed by ``change_threshold``.
    """

    def __init__(
        self,
        change_threshold: float = 6.0,
        motion_threshold: float = 3.0,
        *,
        thumb_width: int = 320,
        cell: int = 8,
    ) -> None:
        self.change_threshold = change_threshold
        self.motion_threshold = motion_threshold
        self.thumb_width = thumb_width
        self.cell = cell
        self._previous: np.ndarray | None = None
        self._candidate: np.ndarray | None = None
        self._last_read: np.ndarray | None = None
        self._changed: np.ndarray | None = None  # the cells of the candidate's zones

    def thumbnail(self, frame: Frame) -> np.ndarray:
        width = min(self.thumb_width, frame.width)
        height = max(1, round(frame.height * width / frame.width))
        grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)

    def cells(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Each cell's mean absolute grey difference, above the median cell's (thumbnails of one shape)."""
        diff = cv2.absdiff(a, b)
        h, w = diff.shape
        cells = cv2.resize(diff, (max(1, w // self.cell), max(1, h // self.cell)), interpolation=cv2.INTER_AREA)
        return cells - np.median(cells)

    def score(self, a: np.ndarray, b: np.ndarray) -> float:
        if a.shape != b.shape:  # the camera changed resolution: everything changed
            return 255.0
        return float(self.cells(a, b).max())

    def zones(self, excess: np.ndarray, frame: Frame) -> tuple[np.ndarray, tuple[Box, ...]]:
        """The changed cells of a cell difference (:meth:`cells`), grown by one cell, and the bounds of each group of
        neighbouring ones in ``frame``'s pixels (see the class docstring)."""
        weak = (excess > self.change_threshold / 2).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(weak, np.ones((3, 3), np.uint8)))
        rows, cols = excess.shape
        sx, sy = frame.width / cols, frame.height / rows
        mask = np.zeros(excess.shape, bool)
        out = []
        for k in range(1, count):
            if excess[labels == k].max() <= self.change_threshold:  # only weak cells: noise, or a change to come
                continue
            mask |= labels == k
            x, y, w, h = (int(v) for v in stats[k, :4])
            out.append(Box(x * sx, y * sy, (x + w) * sx, (y + h) * sy))
        return mask, tuple(out)

    def consider(self, frame: Frame) -> GateResult:
        thumb = self.thumbnail(frame)
        motion = 0.0 if self._previous is None else self.score(thumb, self._previous)
        self._previous = thumb
        self._candidate = thumb
        self._changed = None
        if self._last_read is None or self._last_read.shape != thumb.shape:
            change, excess = 255.0, None
        else:
            excess = self.cells(thumb, self._last_read)
            change = float(excess.max())
        zones = None
        if self._last_read is None:
            decision = Decision.FIRST
        elif motion > self.motion_threshold:
            decision = Decision.MOVING
        elif change > self.change_threshold:
            decision = Decision.CHANGED
            if excess is not None:
                self._changed, zones = self.zones(excess, frame)
        else:
            decision = Decision.UNCHANGED
        return GateResult(decision, change, motion, zones)

    def accept(self) -> None:
        """The frame just considered was read: later frames are compared with it; after a CHANGED frame, only in the
        zones that changed (the rest was not read again: a slow change there adds up until it counts)."""
        if self._changed is None or self._last_read is None or self._candidate is None:
            self._last_read = self._candidate
            return
        h, w = self._candidate.shape
        inside = cv2.resize(self._changed.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).astype(bool)
        self._last_read = np.where(inside, self._candidate, self._last_read)

    def forget(self) -> None:
        """Read the next still frame whatever it shows (e.g. after the game was reset)."""
        self._last_read = None


def camera_problem(exc: Exception) -> str:
    """What a source's failure is, in the words the phones show: the cause first, then the detail.

    >>> camera_problem(SourceUnavailable("usb camera 0: no camera at /dev/video0"))
    'camera not found: check the cable (usb camera 0: no camera at /dev/video0)'
    >>> camera_problem(SourceLost("usb camera 0: no frame"))
    'camera stopped sending pictures: check the cable (usb camera 0: no frame)'
    """
    if isinstance(exc, SourceLost):
        return f"camera stopped sending pictures: check the cable ({exc})"
    return f"camera not found: check the cable ({exc})"


@dataclass
class Backoff:
    """Delays between reconnection attempts: ``first``, doubling up to ``longest`` seconds."""

    first: float = 0.5
    longest: float = 30.0
    _next: float = field(default=0.0, init=False)

    def next_delay(self) -> float:
        delay = self._next or self.first
        self._next = min(delay * 2, self.longest)
        return delay

    def reset(self) -> None:
        self._next = 0.0


@dataclass
class LoopStats:
    """Counters since the loop started (read by the status page and the logs)."""

    frames: int = 0
    reads: int = 0
    unchanged: int = 0
    moving: int = 0
    deferred: int = 0
    #: Still frames counted as seen after the read of the next one (see :class:`ServiceLoop`).
    held_before: int = 0
    errors: int = 0
    reconnects: int = 0
    last_read_ms: float = 0.0
    last_error: str = ""
    connected: bool = False


class ServiceLoop:
    """Runs ``source -> gate -> read -> observe`` until stopped or the recording ends.

    ``read(frame)`` turns a frame into an observation (detector + reader); ``observe(observation)`` hands it
    to the table service. ``hold()`` (optional) is called for each frame the gate finds unchanged once something
    has been read: the table reads as last read for one frame more; and once after a read of a changed frame whose
    frame before was still but went unread (the gate waits for a change to lie still two frames: the first one
    showed the table as read, and counts as seen). ``poll_fps`` caps how often frames are taken
    from the source (None: as fast as it delivers); ``on_frame(frame, result)`` sees every frame (a live preview).
    With ``zones``, ``read`` is called ``read(frame, zones)``: the zones the gate saw change since the last frame read
    (frame pixels), or None to read the frame whole (the first frame, a frame after the camera was lost).
    """

    def __init__(
        self,
        source: FrameSource,
        read: Callable[[Frame], Any],
        observe: Callable[[Any], Any],
        *,
        gate: ChangeGate | None = None,
        max_reads_per_second: float = 1.0,
        poll_fps: float | None = None,
        backoff: Backoff | None = None,
        stop: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_frame: Callable[[Frame, GateResult], Any] | None = None,
        hold: Callable[[], Any] | None = None,
        zones: bool = False,
        on_problem: Callable[[str | None], Any] | None = None,
    ) -> None:
        if max_reads_per_second <= 0:
            raise ValueError("max_reads_per_second must be positive")
        self.source = source
        self.read = read
        self.observe = observe
        self.gate = gate or ChangeGate()
        self.min_read_interval = 1.0 / max_reads_per_second
        self.poll_interval = None if not poll_fps else 1.0 / poll_fps
        self.backoff = backoff or Backoff()
        self.stop_event = stop or threading.Event()
        self.clock = clock
        self.on_frame = on_frame
        self.hold = hold
        self.zones = zones
        #: Told what is wrong with the source, as the phones should see it (:func:`camera_problem`), and None once
        #: frames come again.
        self.on_problem = on_problem
        self._problem_told = False
        self._read_whole = True  # the next read is of the whole frame (nothing read yet, or the camera came back)
        self.stats = LoopStats()
        self._last_read_at: float | None = None
        self._last_poll_at: float | None = None
        #: Whether the last frame taken was neither read nor held (it moved, or a read was deferred).
        self._last_unseen = False
        self._thread: threading.Thread | None = None

    # -- control ---------------------------------------------------------------------------------

    def stop(self) -> None:
        self.stop_event.set()

    @property
    def stopped(self) -> bool:
        return self.stop_event.is_set()

    def start(self) -> threading.Thread:
        """Run in a daemon thread; :meth:`stop` then :meth:`join` ends it."""
        self._thread = threading.Thread(target=self.run, name="jantaku-loop", daemon=True)
        self._thread.start()
        return self._thread

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True when it has ended."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- the loop --------------------------------------------------------------------------------

    def run(self) -> LoopStats:
        """Blocks until stopped or the source ends. The source is closed on the way out."""
        log.info("loop: starting on %s", getattr(self.source, "name", self.source))
        try:
            if not self.stats.connected:
                self._connect()
            while not self.stopped:
                if not self.stats.connected:
                    self._connect()
                    continue
                try:
                    self.step()
                except EndOfStream as exc:
                    log.info("loop: %s", exc)
                    break
        finally:
            self.source.close()
            self.stats.connected = False
            log.info(
                "loop: stopped after %d frames, %d reads, %d reconnects",
                self.stats.frames,
                self.stats.reads,
                self.stats.reconnects,
            )
        return self.stats

    def _tell_problem(self, problem: str | None) -> None:
        self._problem_told = problem is not None
        if self.on_problem is not None:
            self._guard("on_problem", self.on_problem, problem)

    def _connect(self) -> None:
        """Open the source, waiting longer after each failure; returns when open or stopped."""
        while not self.stopped:
            try:
                self.source.open()
            except SourceUnavailable as exc:
                delay = self.backoff.next_delay()
                self.stats.last_error = str(exc)
                log.warning("loop: %s; retrying in %.1f s", exc, delay)
                self._tell_problem(camera_problem(exc))
                self.stop_event.wait(delay)
                continue
            self.backoff.reset()
            self.stats.connected = True
            return

    def _pace(self) -> None:
        if self.poll_interval is None:
            return
        now = self.clock()
        if self._last_poll_at is not None:
            wait = self._last_poll_at + self.poll_interval - now
            if wait > 0:
                self.stop_event.wait(wait)
                now = self.clock()
        self._last_poll_at = now

    def step(self) -> GateResult | None:
        """Take one frame and deal with it. None when the source was lost (it will be reopened)."""
        self._pace()
        if self.stopped:
            return None
        try:
            frame = self.source.read()
        except SourceLost as exc:
            self.stats.reconnects += 1
            self.stats.connected = False
            self._read_whole = True  # the camera may have moved meanwhile
            self.stats.last_error = str(exc)
            log.warning("loop: %s; reconnecting", exc)
            self._tell_problem(camera_problem(exc))
            self.source.close()
            self.stop_event.wait(self.backoff.next_delay())
            self._last_unseen = False
            return None
        self.stats.frames += 1
        if self._problem_told:
            self._tell_problem(None)
        result = self.gate.consider(frame)
        if self.on_frame is not None:
            self._guard("on_frame", self.on_frame, frame, result)
        before_unseen, self._last_unseen = self._last_unseen, True
        if not result.decision.wants_read:
            if result.decision is Decision.MOVING:
                self.stats.moving += 1
            else:
                self.stats.unchanged += 1
                if self.hold is not None and self.stats.reads:
                    self._last_unseen = False
                    self._guard("hold", self.hold)
            log.debug(
                "loop: frame %d %s (change %.1f, motion %.1f)",
                frame.index,
                result.decision.value,
                result.change,
                result.motion,
            )
            return result
        now = self.clock()
        if self._last_read_at is not None and now - self._last_read_at < self.min_read_interval:
            self.stats.deferred += 1
            return result
        self._last_read_at = now
        started = time.perf_counter()
        if self.zones:
            observation = self._guard("read", self.read, frame, None if self._read_whole else result.zones)
        else:
            observation = self._guard("read", self.read, frame)
        self.stats.last_read_ms = (time.perf_counter() - started) * 1000
        if observation is _FAILED:
            return result
        self._read_whole = False
        self.gate.accept()
        self.stats.reads += 1
        log.info(
            "loop: read frame %d (%dx%d, %s, change %.1f) in %.0f ms",
            frame.index,
            frame.width,
            frame.height,
            frame.origin,
            result.change,
            self.stats.last_read_ms,
        )
        self._last_unseen = False
        self._guard("observe", self.observe, observation)
        if before_unseen and result.decision is Decision.CHANGED and self.hold is not None:
            # still against the frame before (else it would be MOVING): that frame showed this table too
            self.stats.held_before += 1
            self._guard("hold", self.hold)
        return result

    def _guard(self, what: str, func: Callable[..., Any], *args: Any) -> Any:
        try:
            return func(*args)
        except Exception as exc:  # one bad frame must not stop the table
            self.stats.errors += 1
            self.stats.last_error = f"{what}: {type(exc).__name__}: {exc}"
            log.exception("loop: %s failed", what)
            return _FAILED


_FAILED = object()
