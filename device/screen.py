"""The table card on an HDMI screen: drawn full-screen on the Linux framebuffer, no X or Wayland needed.

    shown = show_on_screen(card_image(url, lines, width, height))   # or: jantaku card --screen

A Raspberry Pi OS Lite has no desktop, but the kernel gives the screen as ``/dev/fb0``: its size, bits per pixel and
bytes per line are in ``/sys/class/graphics/fb0/`` (``virtual_size``, ``bits_per_pixel``, ``stride``), and a
picture is raw pixels written from its first byte (16 bits per pixel: RGB565; 24: BGR; 32: BGRX, little-endian).
:func:`screen_problem` says why there is no screen to draw on (no framebuffer, or DRM says no display is
connected), so that a table without one skips the card with one line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: Where the kernel describes the framebuffers and the display connectors (tests give a folder of their own).
SYS = Path("/sys")


class ScreenError(Exception):
    """A framebuffer that cannot be drawn on: the message names it and says why."""


@dataclass(frozen=True)
class Framebuffer:
    """A framebuffer device and its geometry: ``width`` x ``height`` pixels shown, ``bpp`` bits per pixel,
    ``stride`` bytes per line (a line may be padded)."""

    device: Path
    width: int
    height: int
    bpp: int
    stride: int

    @classmethod
    def open(cls, device: str | os.PathLike[str] = "/dev/fb0", sys_root: Path | None = None) -> Framebuffer:
        """The geometry of ``device`` (``/dev/fbN``) from ``sys_root/class/graphics/fbN``; raises ScreenError."""
        device = Path(device)
        info = (sys_root or SYS) / "class" / "graphics" / device.name
        try:
            virtual = _read(info / "virtual_size").split(",")
            width, height = int(virtual[0]), int(virtual[1])
            bpp = int(_read(info / "bits_per_pixel"))
            stride = int(_read(info / "stride"))
        except (OSError, ValueError, IndexError) as exc:
            raise ScreenError(f"{device}: cannot tell its size from {info} ({exc})") from None
        visible = _visible_mode(info)  # a virtual size taller than the mode pans: draw on what is shown
        if visible is not None and visible[0] <= width and visible[1] <= height:
            width, height = visible
        if bpp not in (16, 24, 32):
            raise ScreenError(f"{device}: {bpp} bits per pixel (16, 24 or 32 are drawn)")
        if width <= 0 or height <= 0 or stride < width * bpp // 8:
            raise ScreenError(f"{device}: a {width}x{height} screen with {stride} bytes a line does not add up")
        return cls(device, width, height, bpp, stride)

    def encode(self, bgr: np.ndarray) -> bytes:
        """A BGR image of the framebuffer's size as the device's bytes, line padding included."""
        if bgr.shape[:2] != (self.height, self.width):
            raise ValueError(f"the image is {bgr.shape[1]}x{bgr.shape[0]}, the screen {self.width}x{self.height}")
        if self.bpp == 16:
            b, g, r = (bgr[..., k].astype(np.uint16) for k in range(3))
            pixels = (((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)).astype("<u2").view(np.uint8)
        elif self.bpp == 24:
            pixels = bgr
        else:
            pixels = np.concatenate([bgr, np.full((*bgr.shape[:2], 1), 255, np.uint8)], axis=2)
        rows = np.ascontiguousarray(pixels).reshape(self.height, -1)
        lines = np.zeros((self.height, self.stride), np.uint8)
        lines[:, : rows.shape[1]] = rows
        return lines.tobytes()

    def show(self, bgr: np.ndarray) -> None:
        """Write ``bgr`` (the screen's size) to the device; raises ScreenError when it cannot."""
        data = self.encode(bgr)
        try:
            with open(self.device, "r+b", buffering=0) as fb:
                fb.write(data)
        except OSError as exc:
            raise ScreenError(f"{self.device}: cannot draw on it ({exc.strerror or exc})") from None


def _read(path: Path) -> str:
    return path.read_text(encoding="ascii").strip()


def _visible_mode(info: Path) -> tuple[int, int] | None:
    """The mode shown (``modes``' first line, ``U:1920x1080p-0``), as (width, height); None when not told."""
    try:
        first = _read(info / "modes").splitlines()[0]
        size = first.split(":", 1)[-1].split("p")[0].split("i")[0]
        width, height = size.split("x")
        return int(width), int(height)
    except (OSError, ValueError, IndexError):
        return None


def screen_problem(device: str | os.PathLike[str] = "/dev/fb0", sys_root: Path | None = None) -> str | None:
    """Why nothing can be shown on ``device`` (None: a screen is there): no such framebuffer, or the kernel's DRM
    connectors (``sys_root/class/drm/*/status``) say that none is connected."""
    device, sys_root = Path(device), sys_root or SYS
    if not device.exists() or not (sys_root / "class" / "graphics" / device.name).is_dir():
        return f"no screen attached ({device} not found)"
    statuses = sorted((sys_root / "class" / "drm").glob("card*-*/status"))
    if statuses and not any(_status(s) == "connected" for s in statuses):
        names = ", ".join(s.parent.name.split("-", 1)[1] for s in statuses)
        return f"no screen attached (nothing connected to {names})"
    return None


def _status(path: Path) -> str:
    try:
        return _read(path)
    except OSError:
        return ""


def card_image(url: str, lines: tuple[str, ...], width: int, height: int) -> np.ndarray:
    """The table card as a ``height`` x ``width`` BGR image: black on white, the join code's QR as large as the
    screen allows (whole pixels a module, with its quiet zone) and ``lines`` beside or under it."""
    import segno

    qr = segno.make(url, error="m")
    matrix = np.array([[bool(dark) for dark in row] for row in qr.matrix], bool)
    side = matrix.shape[0] + 8  # 4 modules of quiet zone each side
    landscape = width >= height
    room = min(height, width // 2) if landscape else min(width, height * 2 // 3)
    module = max(1, int(room * 0.9) // side)
    code = np.full((side * module, side * module), 255, np.uint8)
    code[4 * module : (side - 4) * module, 4 * module : (side - 4) * module] = np.where(
        np.kron(matrix, np.ones((module, module), bool)), 0, 255
    )
    image = np.full((height, width), 255, np.uint8)
    size = code.shape[0]
    if landscape:  # the code on the left half, the words on the right
        x, y = max(0, (width // 2 - size) // 2), max(0, (height - size) // 2)
        text_box = (width // 2, 0, width - width // 2, height)
    else:  # the code at the top, the words under it
        x, y = max(0, (width - size) // 2), max(0, (height * 2 // 3 - size) // 2)
        text_box = (0, height * 2 // 3, width, height - height * 2 // 3)
    h, w = min(size, height - y), min(size, width - x)
    image[y : y + h, x : x + w] = code[:h, :w]
    _write_lines(image, lines, text_box)
    return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)


def _write_lines(image: np.ndarray, lines: tuple[str, ...], box: tuple[int, int, int, int]) -> None:
    """``lines`` centred in ``box`` (x, y, width, height), each as large as fits its share of the box."""
    x0, y0, bw, bh = box
    font = cv2.FONT_HERSHEY_SIMPLEX
    share = bh / (len(lines) + 1)
    for k, line in enumerate(lines):
        (tw, th), _ = cv2.getTextSize(line, font, 1.0, 2)
        scale = max(0.3, min(0.9 * bw / max(tw, 1), 0.45 * share / max(th, 1)))
        thickness = max(1, round(scale * 2))
        (tw, th), _ = cv2.getTextSize(line, font, scale, thickness)
        cx = x0 + (bw - tw) // 2
        cy = int(y0 + share * (k + 1) + th / 2)
        cv2.putText(image, line, (cx, cy), font, scale, 0, thickness, cv2.LINE_AA)


def show_on_screen(
    url: str, lines: tuple[str, ...], device: str | os.PathLike[str] = "/dev/fb0", sys_root: Path | None = None
) -> Framebuffer | None:
    """Draw the card for ``url`` full-screen on ``device``; None (nothing drawn) when no screen is attached.
    Raises ScreenError when there is one but it cannot be drawn on."""
    if screen_problem(device, sys_root) is not None:
        return None
    fb = Framebuffer.open(device, sys_root)
    fb.show(card_image(url, lines, fb.width, fb.height))
    return fb
