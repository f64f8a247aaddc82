"""Loading images for the detector: BGR uint8 arrays, upright as the camera saw them.

Phone photos store pixels as the sensor read them and an EXIF ``Orientation`` tag that says how to turn them;
:func:`load_image` and :func:`decode_image` apply that tag, so a portrait photo comes back portrait
(OpenCV's decoders do this unless told to ignore it; the tests check it on hand-made EXIF JPEGs).
Sizes are :class:`~vision.read.geometry.Size` (height, width), never a bare tuple.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from vision.read.errors import UnreadableImage
from vision.read.geometry import Size

#: Flags for OpenCV's decoders: 3-channel 8-bit colour, EXIF orientation applied (the default without
#: ``IMREAD_IGNORE_ORIENTATION``).
_READ_FLAGS = cv2.IMREAD_COLOR

#: ISO-BMFF brands of HEIF photos (iPhones save these by default); OpenCV cannot decode them.
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1", b"heim", b"heis", b"avif"}


def load_image(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an image file as an upright BGR ``uint8`` array of shape (height, width, 3).

    Raises :class:`UnreadableImage` for a missing path, a directory, an empty file or bytes that are no image.
    """
    path = Path(path)
    if not path.exists():
        raise UnreadableImage(f"{path}: no such file")
    if not path.is_file():
        raise UnreadableImage(f"{path}: not a file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableImage(f"{path}: cannot read ({exc.strerror})") from exc
    return decode_image(data, name=str(path))


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) as :func:`load_image` does."""
    if not data:
        raise UnreadableImage(f"{name}: empty file")
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        raise UnreadableImage(f"{name}: a HEIC/HEIF photo, which is not supported: share or export it as JPEG")
    buffer = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(buffer, _READ_FLAGS)
    except cv2.error as exc:  # some truncated files make the decoder raise instead of returning None
        raise UnreadableImage(
            f"{name}: not a readable image ({exc.msg.strip() if hasattr(exc, 'msg') else exc})"
        ) from exc
    if image is None or image.size == 0:
        raise UnreadableImage(f"{name}: not a readable image (JPEG, PNG, BMP, TIFF, WebP ...)")
    return image


def image_size(image: np.ndarray) -> Size:
    """The (height, width) of an image array."""
    return Size.of(image)
