"""What the table renderer draws, pinned pixel for pixel: a table of scenes, each rendered in a non-square frame,
its image and its exact boxes compared with digests kept in ``tests/vision/synth/data/table_pixels.json``.

The digests were written by the renderer before its compositing was made faster (caches, work on each tile's own
region), so that a change to how it draws, not only where, fails here. A change of drawing that is meant (a new
layout) writes them anew:

    python -m tests.vision.synth.test_table_pixels      # rewrite the digests from the renderer as it is now
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import parse_tiles
from tests.vision.synth.test_table_render import seat, table
from vision.read.table import FrameSide
from vision.synth.table_render import FRAME, RenderedTable, TableStyle, blurred_within, render_table
from vision.synth.table_scene import TableScene, Zone

PINNED = Path(__file__).parent / "data" / "table_pixels.json"
B, R, T, L = FrameSide.BOTTOM, FrameSide.RIGHT, FrameSide.TOP, FrameSide.LEFT
QUIET = TableStyle(noise=0.0)
#: An angled camera from the right (a perspective warp), light, white balance, blur and noise.
ANGLED = TableStyle.seeded(4)
MID_HAND = table(seat("19m4z2p3s5s", riichi=3), seat("9p1s7z", melds="666z^"), seat("4z8m2p"), seat("9s3m6z"), live=50)

#: name -> (scene, frame size (height, width), seed, style)
CASES: dict[str, tuple[TableScene, tuple[int, int], int, TableStyle]] = {
    "fresh_deal": (TableScene(dora_indicators=parse_tiles("3m")), (760, 1014), 1, TableStyle()),
    "fresh_deal_full_frame_quiet": (TableScene(wall_break=(B, 3)), FRAME, 2, QUIET),
    "ponds_riichi": (table(seat("19m4z2p3s5s7z", riichi=2), seat("1234567899m12p", riichi=6), seat("5z"),
                           seat("123456789s12345z", riichi=13), live=40), FRAME, 0, TableStyle.seeded(0)),
    "added_and_closed_kans": (table(seat("19m", melds="666z<+ 5555p="), seat("2z", melds="345s^ 7777m="),
                                    seat("3z", melds="111z>+"), seat("4z", melds="2222s^ 888p^+"), dora="4p1s7z"),
                              (720, 1280), 3, TableStyle.seeded(1)),
    "hand_open_ura_beyond_break": (table(seat("19m4z", riichi=2, hand="234567m345p678s5p", apart="0p"), seat("1z2z"),
                                         seat("3z4z"), seat("5z6z"), dora="4p1s", ura="9s2m", live=30),
                                   FRAME, 5, TableStyle.seeded(3)),
    "hand_open_ura_under_dora": (table(seat("1z"), seat("2345m11p", hand="2345m11p", apart="5m", melds="5555s= 777z>"),
                                       seat("2z"), seat("3z"), dora="4p1s7z", ura="9s2m3z", live=20, wall_break=(T, 9)),
                                 (1200, 900), 6, TableStyle.seeded(2)),
    "arm_bottom_to_pond": (dataclasses.replace(MID_HAND, arm=B), FRAME, 7, TableStyle.seeded(0)),
    "arm_left_to_wall": (dataclasses.replace(MID_HAND, arm=L, arm_zone=Zone.WALL), (600, 800), 8, TableStyle()),
    "arm_top_to_right_melds": (dataclasses.replace(MID_HAND, arm=T, arm_zone=Zone.MELDS, arm_to=R), (720, 1280), 9,
                               TableStyle.seeded(5)),
    "arm_right_to_dead_wall": (dataclasses.replace(MID_HAND, arm=R, arm_zone=Zone.DEAD_WALL), FRAME, 10, ANGLED),
    "angled_camera": (MID_HAND, FRAME, 11, ANGLED),
    "small_frame": (MID_HAND, (380, 507), 12, TableStyle.seeded(6)),
}  # fmt: skip


def fingerprint(rendered: RenderedTable) -> dict:
    """What is pinned of a rendered frame: its shape, a digest of its pixels, its mean per channel (to tell how far
    a changed image moved), its boxes' count and a digest of them (exact floats), and the table's centre."""
    image = np.ascontiguousarray(rendered.image)
    boxes = repr([(c, b.x1, b.y1, b.x2, b.y2) for c, b in rendered.boxes])
    return {
        "shape": list(image.shape),
        "pixels": hashlib.sha256(image.tobytes()).hexdigest()[:32],
        "mean": [round(float(m), 3) for m in image.reshape(-1, 3).mean(axis=0)],
        "boxes": len(rendered.boxes),
        "boxes_digest": hashlib.sha256(boxes.encode()).hexdigest()[:32],
        "centre": list(rendered.centre),
    }


def rendered(name: str) -> RenderedTable:
    scene, size, seed, style = CASES[name]
    return render_table(scene, size=size, seed=seed, style=style)


@pytest.mark.parametrize("name", CASES)
def test_the_renderer_draws_the_pinned_pixels_and_boxes(name):
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert fingerprint(rendered(name)) == pinned[name]


def test_a_repeated_render_is_the_same():
    """The caches behind the renderer give back what a first render drew (the same frame drawn twice, another in
    between)."""
    first = rendered("arm_bottom_to_pond")
    rendered("angled_camera")
    again = rendered("arm_bottom_to_pond")
    assert np.array_equal(first.image, again.image) and first.boxes == again.boxes


@pytest.mark.parametrize(("dtype", "sigma", "region"), [
    (np.uint8, 4, (0, 0, 60, 40)),  # a corner: the frame's own border on two sides
    (np.uint8, 25, (150, 90, 260, 200)),  # inside, a kernel wider than the region
    (np.uint8, 25, (300, 250, 400, 300)),  # the bottom right corner
    (np.float32, 0.515, (0, 32, 400, 64)),  # a band of rows, as the camera's blur is worked
    (np.float32, 1.2, (0, 288, 400, 300)),  # the last band
    (np.float32, 3, (10, 0, 37, 300)),  # a column
])  # fmt: skip
def test_a_region_blurred_is_that_region_of_the_frame_blurred(dtype, sigma, region):
    """What the renderer blurs region by region (the arm's masks, the camera's blur) is what blurring the whole
    frame gives there, to the bit."""
    rng = np.random.default_rng(5)
    image = (rng.random((300, 400, 3) if dtype is np.float32 else (300, 400)) * 255).astype(dtype)
    x0, y0, x1, y1 = region
    whole = cv2.GaussianBlur(image, (0, 0), sigma)
    assert np.array_equal(blurred_within(image, sigma, region), whole[y0:y1, x0:x1])


def write() -> None:
    PINNED.parent.mkdir(exist_ok=True)
    pinned = {name: fingerprint(rendered(name)) for name in CASES}
    PINNED.write_text(json.dumps(pinned, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(pinned)} digests to {PINNED}", file=sys.stderr)


if __name__ == "__main__":
    write()
