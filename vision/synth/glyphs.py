"""Faces drawn from scratch: CJK fonts for characters and honours, procedural pins and bamboo sticks.

Domain randomisation aimed at what differs between real sets (the calligraphy of 萬 and of the honours, the pins'
and sticks' colours and stroke widths). Characters need a CJK font: :func:`cjk_fonts` lists the ones installed
(Debian: ``fonts-ipafont-mincho fonts-ipafont-gothic fonts-arphic-ukai fonts-arphic-uming fonts-noto-cjk``); without
one, only suits that need no font (pins, sticks 2-9) are drawn here and the rest falls back to the artwork. The
1 of bamboo (a bird) always comes from the artwork.
"""

from __future__ import annotations

import functools
import subprocess

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.read.labels import CLASS_NAMES
from vision.synth.art import FACE_SIZE, HAKU_MARK_SALT, MakerMark, maker_mark, side_stream

_NUMBERS = "一二三四五六七八九"
_HONOURS = "東南西北白發中"

_PIN_LAYOUT = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.24), (0.72, 0.24), (0.5, 0.5), (0.28, 0.76), (0.72, 0.76)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
    7: [(0.22, 0.14), (0.5, 0.24), (0.78, 0.34), (0.3, 0.6), (0.7, 0.6), (0.3, 0.84), (0.7, 0.84)],
    8: [(x, y) for y in (0.16, 0.39, 0.62, 0.85) for x in (0.3, 0.7)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)],
}
_SOU_LAYOUT = {  # stick centres; every stick is upright
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.5, 0.28), (0.3, 0.72), (0.7, 0.72)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.25, 0.28), (0.75, 0.28), (0.5, 0.5), (0.25, 0.72), (0.75, 0.72)],
    6: [(x, y) for y in (0.28, 0.72) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.16), *[(x, y) for y in (0.5, 0.82) for x in (0.22, 0.5, 0.78)]],
    8: [(x, y) for y in (0.28, 0.72) for x in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}


@functools.lru_cache(maxsize=1)
def cjk_fonts() -> tuple[str, ...]:
    """Installed fonts that can draw 萬 and 發 (sorted paths; empty when there are none)."""
    paths: set[str] = set()
    for lang in ("ja", "zh-cn", "zh-tw"):
        try:
            out = subprocess.run(["fc-list", f":lang={lang}", "file"], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return ()
        paths |= {line.split(":")[0].strip() for line in out.stdout.splitlines() if line.strip()}
    return tuple(sorted(p for p in paths if p.lower().endswith((".ttf", ".otf", ".ttc"))))


def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    """A font at ``size`` rounded to 8 px (loading a CJK font is slow: few sizes, cached)."""
    return _load_font(path, max(8, round(size / 8) * 8))


@functools.lru_cache(maxsize=128)
def _load_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def can_draw(class_id: int, fonts: tuple[str, ...]) -> bool:
    name = CLASS_NAMES[class_id]
    if name == "1s" or name == "back":
        return False
    return name[1] in "ps" or bool(fonts)


def _rgb(c) -> tuple[int, int, int]:
    return tuple(int(255 * min(max(v, 0.0), 1.0)) for v in c)


def _palette(rng: np.random.Generator) -> dict[str, tuple[float, float, float]]:
    jitter = lambda base: tuple(float(v) for v in np.clip(np.asarray(base) * rng.uniform(0.75, 1.2, 3), 0, 1))  # noqa: E731
    return {
        "ink": jitter([(0.08, 0.08, 0.1), (0.1, 0.12, 0.35), (0.05, 0.15, 0.45)][int(rng.integers(3))]),
        "red": jitter((0.8, 0.12, 0.12)),
        "green": jitter([(0.05, 0.45, 0.2), (0.1, 0.55, 0.35)][int(rng.integers(2))]),
        "blue": jitter([(0.1, 0.25, 0.6), (0.1, 0.35, 0.75)][int(rng.integers(2))]),
    }


def procedural_face(class_id: int, face_rgb, rng: np.random.Generator, fonts: tuple[str, ...]) -> np.ndarray:
    """A face of ``class_id`` drawn here (float32 RGB 0..1, :data:`FACE_SIZE`); see :func:`can_draw`."""
    w, h = FACE_SIZE[0] * 2, FACE_SIZE[1] * 2
    img = Image.new("RGB", (w, h), _rgb(face_rgb))
    draw = ImageDraw.Draw(img)
    pal = _palette(rng)
    name = CLASS_NAMES[class_id]
    number, suit = (5 if name[0] == "0" else int(name[0])), name[1]
    red = name[0] == "0"
    stroke = int(rng.integers(0, 3))
    mx, my = w * rng.uniform(0.1, 0.16), h * rng.uniform(0.08, 0.13)

    def at(x: float, y: float) -> tuple[float, float]:
        return mx + x * (w - 2 * mx), my + y * (h - 2 * my)

    if suit == "p":
        n = len(_PIN_LAYOUT[number])
        r = (w - 2 * mx) * (0.42 if n == 1 else 0.2 if n <= 4 else 0.16 if n <= 6 else 0.13) * rng.uniform(0.9, 1.08)
        for k, (x, y) in enumerate(_PIN_LAYOUT[number]):
            cx, cy = at(x, y)
            outer = (
                pal["red"]
                if red or (number in (1, 5) and k == len(_PIN_LAYOUT[number]) // 2)
                else (
                    pal["green"]
                    if (number in (6, 7) and k < (2 if number == 6 else 3)) or (number == 9 and k < 3)
                    else pal["blue"]
                    if k % 2 == 0 or number in (2, 8)
                    else pal["red"]
                )
            )
            width = max(2, int(r * rng.uniform(0.18, 0.32)))
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=_rgb(outer), width=width)
            ri = r * rng.uniform(0.3, 0.5)
            draw.ellipse((cx - ri, cy - ri, cx + ri, cy + ri), fill=_rgb(outer if rng.random() < 0.5 else pal["red"]))
    elif suit == "s":
        layout = _SOU_LAYOUT[number]
        sh = (h - 2 * my) * (0.38 if number in (2, 3, 4, 5, 6, 8) else 0.27)
        sw = (w - 2 * mx) * (0.11 if len(layout) > 6 else 0.14) * rng.uniform(0.85, 1.15)
        for k, (x, y) in enumerate(layout):
            cx, cy = at(x, y)
            colour = (
                pal["red"]
                if red or (number == 5 and k == 2) or (number == 7 and k == 0) or (number == 9 and x == 0.5)
                else pal["green"]
                if k % 3 != 2
                else pal["blue"]
            )
            draw.rounded_rectangle(
                (cx - sw / 2, cy - sh / 2, cx + sw / 2, cy + sh / 2), radius=sw / 2, fill=_rgb(colour)
            )
            for node in (0.33, 0.67):
                ny = cy - sh / 2 + node * sh
                draw.line((cx - sw / 2, ny, cx + sw / 2, ny), fill=_rgb(face_rgb), width=max(1, int(sw * 0.15)))
    else:
        font = fonts[int(rng.integers(len(fonts)))]
        if suit == "m":
            size = int(min((h - 2 * my) * 0.47, (w - 2 * mx) * 0.95) * rng.uniform(0.8, 1.0))
            ink = pal["red"] if red else pal["ink"]
            _text(draw, at(0.5, 0.24), _NUMBERS[number - 1], _font(font, size), ink, stroke)
            _text(draw, at(0.5, 0.72), "萬" if rng.random() < 0.8 else "万", _font(font, size), pal["red"], stroke)
        elif number == 5:  # white dragon: blank, a frame, or a frame round a maker's mark
            make = _haku_make(rng)
            if make != "blank":
                frame = pal["blue"] if rng.random() < 0.7 else pal["ink"]
                x0, y0 = at(0.08, 0.1)
                x1, y1 = at(0.92, 0.9)
                draw.rectangle((x0, y0, x1, y1), outline=_rgb(frame), width=max(3, int(w * rng.uniform(0.03, 0.07))))
            if make == "mark":
                draw_maker_mark(draw, at(0.5, 0.5), maker_mark(rng, w))
        else:
            colour = {6: pal["green"], 7: pal["red"]}.get(number, pal["ink"])
            size = int((w - 2 * mx) * rng.uniform(0.85, 1.05))
            _text(draw, at(0.5, 0.5), _HONOURS[number - 1], _font(font, size), colour, stroke)
    face = np.asarray(img, np.float32) / 255.0
    return np.asarray(Image.fromarray((face * 255).astype(np.uint8)).resize(FACE_SIZE, Image.LANCZOS), np.float32) / 255


def _haku_make(rng: np.random.Generator) -> str:
    """How a White dragon is drawn here: "blank" (40 %), "frame" (36 %) or "mark" (24 %, a frame round a maker's
    mark). One draw of ``rng``, as before the mark: whether a frame gets one is drawn aside (``side_stream``)."""
    if rng.random() >= 0.6:
        return "blank"
    return "mark" if side_stream(rng, HAKU_MARK_SALT).random() < 0.4 else "frame"


def draw_maker_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], mark: MakerMark) -> None:
    """``mark`` (:func:`~vision.synth.art.maker_mark`) drawn about ``centre``."""
    (cx, cy), half, red = centre, mark.half, _rgb(mark.red)
    if mark.shape == "disc":
        draw.ellipse((cx - half, cy - half, cx + half, cy + half), fill=red)
    elif mark.shape == "seal":
        draw.rectangle((cx - half, cy - half, cx + half, cy + half), fill=red)
    else:
        draw.line((cx, cy - half, cx, cy + half), fill=red, width=mark.thick)
        for dy, reach in mark.across:
            draw.line((cx - reach, cy + dy, cx + reach, cy + dy), fill=red, width=mark.thick)


def _text(draw: ImageDraw.ImageDraw, centre, text: str, font, colour, stroke: int = 0) -> None:
    draw.text(centre, text, font=font, fill=_rgb(colour), anchor="mm", stroke_width=stroke, stroke_fill=_rgb(colour))
