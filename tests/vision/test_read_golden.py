"""The reading pinned before the re-lay of issue 30 (tests/vision/golden_reading.py wrote the golden file with the
code as it was): ``jantaku read --json`` and the camera loop must still read the same tiles, in the same boxes.
The camera loop's tables were pinned again in issue 32: the right wall's end stack at the bottom-right corner,
lying across the bottom seat's axis, had been counted in the bottom wall (18 stacks of 17). The photos were pinned
again in issue 42, read with the photos' own classifier (models/tile_classifier_photo.onnx): the same tiles in each,
but for one frame of the sou session, which now reads the 1p standing cut by its right edge (a tile the set leaves
unlabelled), with the boxes and confidences as it reads them. The photo 04 turned 30 degrees in its frame was pinned
again when a tile the photo's edge cuts took the photo's own confidence, not its turned view's
(:func:`vision.read.views.turned_tiles._sure_as_the_photo`): the same tiles and boxes, one tile surer. The photos were
pinned again when the photos' classifier became run e (models/tile_classifier_photo.md): a second frame of the sou
session reads the 1p its right edge cuts (a tile the set leaves unlabelled); two photos read as taken otherwise keep
their tiles and texts, with boxes and confidences as it reads them. All were pinned again when the detector became
`hardneg_e` (models/tiles.md): each photo reads the same tiles (one sou frame no longer reads the 1p its right edge
cuts, and one variant of it does; a photo of nine pins reads them in one row, where it read two), the 8-tile photo read
with --table groups its 7z in another seat's pond, and the camera's fourth frame reads 35 of its 36 backs. The camera
was pinned again when it got its own detector (run 5, models/tiles_camera.md): the same tiles and tables, with the
fourth frame's 36 backs, and confidences as it reads them. The tables were pinned again when a box sized unlike the
table's tiles became no tile (``not_tiles``): the camera's second frame reads a back boxed three tiles large (0.26)
as no tile, where it fit nowhere."""

from __future__ import annotations

import json

import pytest

from tests.vision import golden_reading as golden

GOLDEN = json.loads(golden.GOLDEN.read_text(encoding="utf-8"))

needs_photos = pytest.mark.skipif(
    not golden.photo_root().is_dir(),
    reason=f"real photos not found at {golden.photo_root()}: the leo-miura-robot mahjong set (CC BY 4.0), from GitHub"
    " leo-miura-robot/mahjong-detect or Roboflow Universe mahjong-bmblq, beside the checkout in ../shared/data",
)


def same_detections(got: list, want: list) -> bool:
    """Same tiles in the same order, boxes within a pixel, confidences within 0.01 (another CPU's last bits)."""
    return len(got) == len(want) and all(
        g[0] == w[0]
        and g[3] == pytest.approx(w[3], abs=0.2)
        and g[2] == pytest.approx(w[2], abs=0.01)
        and g[1] == pytest.approx(w[1], abs=1.0)
        for g, w in zip(got, want, strict=True)
    )


def assert_same_reading(got: dict, want: dict) -> None:
    assert {k: v for k, v in got.items() if k != "detections"} == {k: v for k, v in want.items() if k != "detections"}
    assert same_detections(got["detections"], want["detections"]), (got["detections"], want["detections"])


@needs_photos
def test_read_json_reads_the_held_out_photos_as_before():
    got = golden.read_json(golden.held_out())
    assert [r["file"] for r in got] == [r["file"] for r in GOLDEN["photos"]]
    for g, w in zip(got, GOLDEN["photos"], strict=True):
        assert_same_reading(g, w)


@needs_photos
def test_read_json_table_reads_tables_as_before():
    photos = golden.held_out()
    got = golden.read_json([photos[i] for i in golden.TABLE_PHOTOS], "--table")
    for g, w in zip(got, GOLDEN["tables"], strict=True):
        assert_same_reading(g, w)


@pytest.mark.parametrize("reader", ["model", "recorded"])
def test_camera_loop_reads_the_demo_frames_as_before(reader):
    read_frame = golden.camera_readers()[reader]
    got = golden.camera_readings(read_frame)
    assert len(got) == len(GOLDEN["camera"][reader])
    for g, w in zip(got, GOLDEN["camera"][reader], strict=True):
        assert_same_reading(g, w)


@needs_photos
def test_read_json_reads_photos_taken_otherwise_as_before(tmp_path):
    """Upside down, squashed, turned, under warm dim light, cut by the edge: each of the photo reader's views has
    work to do here (the upright held-out photos alone read the same without most of them)."""
    got = golden.read_variants(tmp_path)
    assert [r["file"] for r in got] == [r["file"] for r in GOLDEN["variants"]]
    for g, w in zip(got, GOLDEN["variants"], strict=True):
        assert_same_reading(g, w)
