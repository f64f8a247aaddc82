"""Corrections: every tile a player fixes is kept with its frame as a labelled example.

A frame that was read (a phone photo or a camera close-up) is held in memory for a while; when a
player corrects one of its tiles, the frame is written to disk once (``images/<id>.jpg``) and its labels
(``labels/<id>.txt``, YOLO format, classes of :mod:`vision.read.labels`) are rewritten with every correction.
Each correction is also appended to ``corrections.jsonl`` (what was read, what the player said, when), and every
file is synced to the disk before the phone is told (as the game's writes are). A log whose last line was cut short
by a power cut is repaired when the store opens: the whole lines are kept, the torn bytes set aside in
``corrections.jsonl.torn``, and one warning logged.
:meth:`CorrectionStore.export_yolo_chunks` packs it all as a zip a YOLO trainer reads directly, streamed file by
file. The store on disk is bounded (``max_frames`` frames, ``max_bytes`` of images): past either, the oldest
frames are deleted.

>>> store = CorrectionStore(None)
>>> fid = store.add_frame(b"jpeg", 400, 300, [FrameTile(Tile.parse("1m"), (10, 20, 50, 80), 0.9)])
>>> store.correct(fid, 0, Tile.parse("2m")).after
'2m'
>>> store.labels(fid)
['1 0.075000 0.166667 0.100000 0.200000']
"""

from __future__ import annotations

import io
import json
import logging
import os
import secrets
import threading
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.tiles import Tile
from vision.read.labels import CLASS_NAMES, YoloBox, class_of_tile
from web.contract import UnknownFrame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FrameTile:
    """One tile found in a frame: what it was read as (None: face down), its box in pixels, confidence."""

    tile: Tile | None
    box: tuple[float, float, float, float]
    conf: float = 1.0


@dataclass(frozen=True)
class Correction:
    frame_id: str
    index: int
    before: str
    after: str
    at: float

    def to_dict(self) -> dict:
        return {
            "frame_id": self.frame_id,
            "index": self.index,
            "before": self.before,
            "after": self.after,
            "at": self.at,
        }


@dataclass
class _Frame:
    jpeg: bytes | Callable[[], bytes]
    width: int
    height: int
    tiles: list[FrameTile]
    removed: set[int]
    saved: bool = False
    #: The bytes held for the picture (the upload behind ``jpeg`` while it is not encoded yet).
    size: int = 0


def _bytes(frame: _Frame) -> bytes:
    if callable(frame.jpeg):
        frame.jpeg = frame.jpeg()
        frame.size = len(frame.jpeg)
    return frame.jpeg


def _tile_text(tile: Tile | None) -> str:
    return "back" if tile is None else str(tile)


#: The photos' bytes held in memory for corrections at most (a 12 MP JPEG is 3-8 MB): a Pi has 2 GB.
KEEP_BYTES = 24 * 1024 * 1024


class CorrectionStore:
    """Frames awaiting correction (the last ``keep`` of them, ``keep_bytes`` of pictures at most, the newest always)
    and the corrections made so far.

    ``root`` None keeps everything in memory (tests); otherwise files go under ``root``, at most ``max_frames``
    frames and ``max_bytes`` of images, the oldest deleted first.
    """

    def __init__(
        self,
        root: str | os.PathLike | None,
        *,
        keep: int = 16,
        max_frames: int = 2000,
        max_bytes: int = 512 * 1024 * 1024,
        keep_bytes: int = KEEP_BYTES,
    ):
        self.root = Path(root) if root is not None else None
        self._keep = keep
        self.keep_bytes = keep_bytes
        self.max_frames, self.max_bytes = max_frames, max_bytes
        #: Frames saved on disk, oldest first (ids begin with the time), and their images' sizes.
        self._stored: OrderedDict[str, int] = OrderedDict()
        self._frames: OrderedDict[str, _Frame] = OrderedDict()
        self._camera: tuple[str, _Frame] | None = None
        self._lock = threading.Lock()
        self._log: list[Correction] = []
        if self.root is not None:
            (self.root / "images").mkdir(parents=True, exist_ok=True)
            (self.root / "labels").mkdir(parents=True, exist_ok=True)
            for img in sorted((self.root / "images").glob("*.jpg")):
                self._stored[img.stem] = img.stat().st_size
            self._log = read_corrections_log(self.root / "corrections.jsonl")

    def add_frame(
        self,
        jpeg: bytes | Callable[[], bytes],
        width: int,
        height: int,
        tiles: list[FrameTile],
        *,
        camera: bool = False,
        size: int | None = None,
    ) -> str:
        """Hold a read frame for possible corrections; returns its id.

        ``jpeg`` is the upright frame as JPEG bytes, or a function that makes them when first needed (``size``: the
        bytes it holds meanwhile, the upload's). Photos are held ``keep`` at a time and ``keep_bytes`` together, the
        oldest dropped first; a camera frame replaces the previous camera frame.
        """
        frame_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(4)
        held = len(jpeg) if isinstance(jpeg, bytes) else size or 0
        frame = _Frame(jpeg, width, height, list(tiles), set(), size=held)
        with self._lock:
            if camera:  # the previous camera frame is dropped (its corrections, if any, are saved already)
                self._camera = (frame_id, frame)
            else:
                self._frames[frame_id] = frame
                while len(self._frames) > 1 and (
                    len(self._frames) > self._keep or sum(f.size for f in self._frames.values()) > self.keep_bytes
                ):
                    self._frames.popitem(last=False)
        return frame_id

    @property
    def held_bytes(self) -> int:
        """The bytes of the photos held for corrections now."""
        with self._lock:
            return sum(f.size for f in self._frames.values())

    def frame_tiles(self, frame_id: str) -> list[FrameTile]:
        with self._lock:
            return list(self._get(frame_id).tiles)

    def _get(self, frame_id: str) -> _Frame:
        if self._camera is not None and self._camera[0] == frame_id:
            return self._camera[1]
        try:
            return self._frames[frame_id]
        except KeyError:
            raise UnknownFrame(f"frame {frame_id!r} is not held any more (read the image again)") from None

    def correct(self, frame_id: str, index: int, tile: Tile | None, *, remove: bool = False) -> Correction:
        """Record that tile ``index`` of the frame is really ``tile`` (or, with ``remove``, not a tile at all)."""
        with self._lock:
            frame = self._get(frame_id)
            if not 0 <= index < len(frame.tiles):
                raise IndexError(f"frame {frame_id} has {len(frame.tiles)} tiles, no tile {index}")
            old = frame.tiles[index]
            before = "none" if index in frame.removed else _tile_text(old.tile)
            if remove:
                frame.removed.add(index)
                after = "none"
            else:
                frame.removed.discard(index)
                frame.tiles[index] = replace(old, tile=tile)
                after = _tile_text(tile)
            fix = Correction(frame_id, index, before, after, round(time.time(), 3))
            self._log.append(fix)
            self._save(frame_id, frame, fix)
        return fix

    def labels(self, frame_id: str) -> list[str]:
        """The frame's YOLO label lines (class cx cy w h, normalised)."""
        with self._lock:
            return self._labels(self._get(frame_id))

    @staticmethod
    def _labels(frame: _Frame) -> list[str]:
        out = []
        for i, t in enumerate(frame.tiles):
            if i in frame.removed:
                continue
            x1, y1, x2, y2 = t.box
            x1, x2 = max(0.0, min(x1, x2)), min(float(frame.width), max(x1, x2))
            y1, y2 = max(0.0, min(y1, y2)), min(float(frame.height), max(y1, y2))
            if x2 <= x1 or y2 <= y1:
                continue
            out.append(
                str(YoloBox.of_pixels(class_of_tile(t.tile), (x1, y1, x2, y2), width=frame.width, height=frame.height))
            )
        return out

    def _save(self, frame_id: str, frame: _Frame, fix: Correction) -> None:
        if self.root is None:
            _bytes(frame)
            frame.saved = True
            return
        if not frame.saved:
            _replace_synced(self.root / "images" / f"{frame_id}.jpg", _bytes(frame))
            frame.saved = True
            self._stored[frame_id] = len(_bytes(frame))
            self._drop_oldest(keep=frame_id)
        labels = "".join(line + "\n" for line in self._labels(frame))
        _replace_synced(self.root / "labels" / f"{frame_id}.txt", labels.encode())
        with open(self.root / "corrections.jsonl", "ab") as out:
            out.write((json.dumps(fix.to_dict()) + "\n").encode())
            out.flush()
            os.fsync(out.fileno())

    @property
    def corrections(self) -> list[Correction]:
        with self._lock:
            return list(self._log)

    def summary(self) -> dict:
        with self._lock:
            frames = {c.frame_id for c in self._log}
            return {"corrections": len(self._log), "frames": len(frames), "held": len(self._frames)}

    def _drop_oldest(self, keep: str) -> None:
        """Delete the oldest saved frames (never ``keep``) until the store is within its bounds."""
        assert self.root is not None
        while len(self._stored) > self.max_frames or sum(self._stored.values()) > self.max_bytes:
            oldest = next((fid for fid in self._stored if fid != keep), None)
            if oldest is None:
                return
            del self._stored[oldest]
            for path in (self.root / "images" / f"{oldest}.jpg", self.root / "labels" / f"{oldest}.txt"):
                path.unlink(missing_ok=True)
            camera = self._camera[1] if self._camera is not None and self._camera[0] == oldest else None
            held = camera or self._frames.get(oldest)
            if held is not None:  # corrected again, it is saved again
                held.saved = False

    def export_yolo(self) -> bytes:
        """The whole zip of :meth:`export_yolo_chunks` at once."""
        return b"".join(self.export_yolo_chunks())

    def export_yolo_chunks(self) -> Iterator[bytes]:
        """A zip, piece by piece: ``images/``, ``labels/``, ``data.yaml`` (38 classes of vision.read.labels) and
        ``corrections.jsonl``. Only the list of frames is taken under the store's lock; the files are read and
        packed one at a time without it (a frame deleted meanwhile is left out)."""
        names = "\n".join(f"  {i}: '{n}'" for i, n in enumerate(CLASS_NAMES))
        data_yaml = f"# Jantaku player corrections, YOLO format\npath: .\ntrain: images\nval: images\nnames:\n{names}\n"
        with self._lock:
            log = "".join(json.dumps(c.to_dict()) + "\n" for c in self._log)
            if self.root is not None:
                frames: list[tuple[str, Any]] = [(fid, None) for fid in self._stored]
            else:
                frames = [(fid, (_bytes(f), self._labels(f))) for fid, f in self._frames.items() if f.saved]
        sink = _Chunks()
        with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("data.yaml", data_yaml)
            z.writestr("corrections.jsonl", log)
            yield sink.take()
            for fid, held in frames:
                image, labels = held if held is not None else self._read_saved(fid)
                if image is None:
                    continue
                z.writestr(f"images/{fid}.jpg", image, compress_type=zipfile.ZIP_STORED)  # JPEG: compressed already
                z.writestr(f"labels/{fid}.txt", "".join(line + "\n" for line in labels))
                yield sink.take()
        yield sink.take()

    def _read_saved(self, frame_id: str) -> tuple[bytes | None, list[str]]:
        assert self.root is not None
        try:
            image = (self.root / "images" / f"{frame_id}.jpg").read_bytes()
        except FileNotFoundError:  # deleted since the list was taken
            return None, []
        try:
            labels = (self.root / "labels" / f"{frame_id}.txt").read_text().splitlines()
        except FileNotFoundError:
            labels = []
        return image, labels


def _replace_synced(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a synced temporary file put in its place."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    tmp.replace(path)


def read_corrections_log(path: Path) -> list[Correction]:
    """The corrections in ``corrections.jsonl`` (none when it does not exist).

    A line that is not a whole correction (the last one, cut short by a power cut; or any other) is set aside,
    appended to ``corrections.jsonl.torn``, and the log rewritten with the whole lines only; one warning says so.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    kept: list[Correction] = []
    whole: list[bytes] = []
    torn: list[bytes] = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            fields = json.loads(line)
            kept.append(Correction(**fields))
            whole.append(line)
        except (ValueError, TypeError):  # not JSON (UnicodeDecodeError is a ValueError), or not a correction
            torn.append(line)
    if torn or (data.strip() and not data.endswith(b"\n")):
        aside = path.with_name(path.name + ".torn")
        if torn:
            with open(aside, "ab") as out:
                out.write(b"".join(line + b"\n" for line in torn))
                out.flush()
                os.fsync(out.fileno())
        _replace_synced(path, b"".join(line + b"\n" for line in whole))
        log.warning(
            "%s: %d torn line(s) (%d bytes) set aside in %s; %d corrections kept",
            path,
            len(torn),
            sum(len(line) for line in torn),
            aside.name,
            len(kept),
        )
    return kept


class _Chunks(io.RawIOBase):
    """A write-only stream that keeps what is written until :meth:`take` (zipfile writes to it unseekably)."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[override]
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out = b"".join(self._parts)
        self._parts.clear()
        return out
