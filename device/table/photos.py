"""Phone photos: decoded within bounds, read by the photo reader, kept for corrections, and scored with 14 tiles.

:class:`PhotoDesk` is what the table service hands a photo to (``POST /api/read``): at most ``max_pending`` reads
wait at once (more: :class:`~web.contract.Busy`), one photo is decoded at a time (:func:`decode_photo` refuses too
many pixels from the header, before decoding), and the read waits for the reader it shares with the camera.

>>> import cv2, numpy as np
>>> jpeg_size(cv2.imencode(".jpg", np.zeros((30, 50, 3), np.uint8))[1].tobytes())
(50, 30)
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from device.table.corrections import CorrectionStore, FrameTile
from engine.hand import parse_hand
from engine.scoring import score_hand
from engine.tiles import Tile, format_tiles
from vision.read.errors import UnreadableImage
from web.contract import BadRequest, Busy, NoDetector, ScoreOptions, TooLarge

if TYPE_CHECKING:
    from vision.read.detector import Detection
    from vision.read.pipeline import Reader


@dataclass(frozen=True)
class ReadTile:
    """One tile read from an image, in reading order: the tile (None: face down), its box, confidence, row."""

    tile: Tile | None
    box: tuple[float, float, float, float]
    conf: float
    row: int = 0

    def to_dict(self, index: int) -> dict[str, Any]:
        return {
            "index": index,
            "tile": "back" if self.tile is None else str(self.tile),
            "box": [round(v, 1) for v in self.box],
            "conf": round(self.conf, 3),
            "row": self.row,
        }


class PhotoDesk:
    """Reads the photos phones send: ``reader`` (None: no detector installed), photos shrunk to ``max_side``, each
    kept in ``corrections`` for a player to correct."""

    def __init__(
        self, reader: Reader | None, corrections: CorrectionStore, *, max_side: int = 2048, max_pending: int = 3
    ) -> None:
        self.reader = reader
        self.max_side = max_side
        self.corrections = corrections
        self._reads = threading.BoundedSemaphore(max_pending)  # more waiting than this: "busy", try later
        self._decoding = threading.Lock()

    def read(self, data: bytes, options: ScoreOptions) -> dict[str, Any]:
        """The tiles in an encoded image; with 14 face up also their score, by ``options`` (without a win tile the
        last tile read is the winning tile). Raises BadRequest for bytes that are no image, TooLarge for too many
        pixels, NoDetector without a reader, Busy while ``max_pending`` reads wait."""
        reader = self.reader
        if reader is None:
            raise NoDetector("no tile detector is installed on this table (see models/)")
        if not self._reads.acquire(blocking=False):
            raise Busy("the table is reading other photos: try again in a moment")
        try:
            return self._read(reader, data, options)
        finally:
            self._reads.release()

    def _read(self, reader: Reader, data: bytes, options: ScoreOptions) -> dict[str, Any]:
        t0 = time.perf_counter()
        try:
            with self._decoding:  # one photo decoded at a time: a PNG is decoded whole, up to 120 MB for 40 MP
                image = decode_photo(data, self.max_side)
        except UnreadableImage as exc:
            if isinstance(exc, TooLarge):
                raise
            raise BadRequest(str(exc)) from None
        t1 = time.perf_counter()
        reading = reader.read(image)  # waits for a read in progress (the camera's, another photo's)
        t2 = time.perf_counter()
        tiles = [
            ReadTile(d.tile, box_of(d), float(d.conf), r) for r, row in enumerate(reading.rows) for d in row.detections
        ]
        height, width = image.shape[:2]
        frame_id = self.corrections.add_frame(
            photo_encoder(data), width, height, [FrameTile(t.tile, t.box, t.conf) for t in tiles], size=len(data)
        )
        out = _reading(frame_id, tiles, options)
        out.update(width=width, height=height)
        out["ms"] = {
            "decode": round((t1 - t0) * 1000, 1),
            "detect": round((t2 - t1) * 1000, 1),
            "total": round((time.perf_counter() - t0) * 1000, 1),
        }
        return out


def _reading(frame_id: str | None, tiles: Sequence[ReadTile], options: ScoreOptions) -> dict[str, Any]:
    face_up = [t.tile for t in tiles if t.tile is not None]
    rows: dict[int, list[Tile]] = defaultdict(list)
    for t in tiles:
        if t.tile is not None:
            rows[t.row].append(t.tile)
    out: dict[str, Any] = {
        "frame_id": frame_id,
        "tiles": " ".join(format_tiles(rows[r]) for r in sorted(rows)),
        "read": [t.to_dict(i) for i, t in enumerate(tiles)],
        "count": len(face_up),
        "complete": len(face_up) == 14,
        "score": None,
    }
    if len(face_up) == 14:
        try:
            hand, ctx = options.for_hand(parse_hand(format_tiles(face_up)))
            out["score"] = score_hand(hand, ctx, options.rules).to_dict()
        except ValueError as exc:  # BadRequest, InvalidHand: a hand the options do not fit
            out["score_error"] = str(exc)
    return out


def box_of(detection: Detection) -> tuple[float, float, float, float]:
    """A detection's box as plain floats (x1, y1, x2, y2)."""
    b = detection.box
    return (float(b.x1), float(b.y1), float(b.x2), float(b.y2))


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, without decoding it; None when not a readable JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                return None
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return (width, height) if width and height else None
        i += 2 + length
    return None


#: The largest photo accepted, in pixels (a 12 MP phone photo is 12e6; a decompression bomb is far more). A JPEG is
#: decoded straight at a fraction of its size, so this bounds only the work.
MAX_PHOTO_PIXELS = 40_000_000
#: The largest PNG accepted (a phone's screenshot is 2-4 MP): a PNG is decoded whole, and OpenCV's decoder peaks at
#: about twice the decoded image, 6 bytes a pixel (100 MB at 16 MP). One photo is decoded at a time.
MAX_PNG_PIXELS = 16_000_000


class TooManyPixels(UnreadableImage, TooLarge):
    """A photo whose header gives more pixels than :data:`MAX_PHOTO_PIXELS`: refused before it is decoded (a 413)."""


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header; None when not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def decode_photo(data: bytes, max_side: int) -> Any:
    """A photo as an upright BGR array whose longer side is about ``max_side`` at most.

    A large JPEG (a 12 MP phone photo) is decoded straight at 1/2, 1/4 or 1/8 size (the JPEG decoder scales
    for free, and still applies the EXIF orientation); a PNG is decoded whole and shrunk. Other formats, and
    images over ``MAX_PHOTO_PIXELS`` (a PNG: ``MAX_PNG_PIXELS``), judged from the header before decoding, are
    refused (:class:`TooManyPixels`).
    """
    import cv2
    import numpy as np

    from vision.read.images import decode_image

    size = jpeg_size(data) or png_size(data)
    if size is None:
        raise UnreadableImage("upload: not a readable image (send a JPEG or PNG photo)")
    png = data[:2] != b"\xff\xd8"
    most = MAX_PNG_PIXELS if png else MAX_PHOTO_PIXELS
    if size[0] * size[1] > most:
        raise TooManyPixels(
            f"upload: {size[0]}x{size[1]} is too many pixels to read (at most {most // 10**6} MP"
            f"{' for a PNG' if png else ''}): send a smaller photo"
        )
    if max(size) > max_side and data[:2] == b"\xff\xd8":
        factor = next((f for f in (2, 4, 8) if max(size) / f <= max_side), 8)
        flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
        try:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
        except cv2.error:
            image = None
        if image is None or image.size == 0:
            raise UnreadableImage("upload: not a readable image (JPEG, PNG, BMP, TIFF, WebP ...)")
        return image
    image = decode_image(data, name="upload")
    h, w = image.shape[:2]
    if max(h, w) > max_side:
        scale = max_side / max(h, w)
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return image


def jpeg_encoder(image: Any) -> Callable[[], bytes]:
    """Encode a camera frame (a BGR array) as JPEG only when a correction needs it saved."""

    def encode() -> bytes:
        import cv2

        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise RuntimeError("could not encode the frame as JPEG")
        return buf.tobytes()

    return encode


def photo_encoder(original: bytes) -> Callable[[], bytes]:
    """An uploaded photo as an upright JPEG, made only when a correction needs it saved.

    Only the uploaded bytes are held (a 12 MP photo decoded would take 36 MB): a plain JPEG is kept as it
    is; anything else (EXIF-rotated, PNG ...) is decoded upright and encoded again when needed.
    """

    def encode() -> bytes:
        if original[:2] == b"\xff\xd8" and b"Exif" not in original[:4096]:
            return original
        from vision.read.images import decode_image

        return jpeg_encoder(decode_image(original))()

    return encode
