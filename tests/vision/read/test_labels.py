"""YOLO label files, written and read in one place (:mod:`vision.read.labels`): every writer's lines read back as the
boxes it wrote, and a bad line is refused by its number."""

from __future__ import annotations

import pytest

from engine.tiles import Tile
from vision.read.labels import CLASS_NAMES, YoloBox, class_of_tile, labels_text, parse_labels


@pytest.mark.parametrize(
    ("line", "box"),
    [
        ("0 0.5 0.5 0.1 0.2", YoloBox(0, 0.5, 0.5, 0.1, 0.2)),  # 1m
        ("37 0.250000 0.750000 0.050000 0.080000", YoloBox(37, 0.25, 0.75, 0.05, 0.08)),  # back, as we write it
        ("  35\t0.1 0.2 0.3 0.4  ", YoloBox(35, 0.1, 0.2, 0.3, 0.4)),  # 0p; spaces and tabs as YOLO allows
    ],
)
def test_a_line_parses_to_its_box(line, box):
    assert YoloBox.parse(line) == box


@pytest.mark.parametrize(
    "line",
    [
        "0 0.5 0.5 0.1",  # a field short
        "0 0.5 0.5 0.1 0.2 0.9",  # a confidence: a prediction, not a label
        "1m 0.5 0.5 0.1 0.2",  # a name, not a class id
        "",
    ],
)
def test_anything_else_is_refused(line):
    with pytest.raises(ValueError, match="class cx cy w h"):
        YoloBox.parse(line)


def test_a_bad_line_of_a_file_is_named_by_its_number():
    with pytest.raises(ValueError, match="label line 3: "):
        parse_labels("0 0.5 0.5 0.1 0.2\n\n5 0.5\n")


@pytest.mark.parametrize(
    ("tile", "xyxy", "size"),
    [
        ("5m", (100.0, 40.0, 140.0, 100.0), (640, 480)),  # a landscape frame
        ("0s", (3.5, 7.25, 21.5, 33.0), (360, 640)),  # a portrait frame, off-pixel corners
        (None, (0.0, 0.0, 640.0, 480.0), (640, 480)),  # a back filling the frame
    ],
)
def test_a_box_in_pixels_round_trips_through_a_label_file(tile, xyxy, size):
    width, height = size
    cls = class_of_tile(Tile.parse(tile) if tile else None)
    text = labels_text([YoloBox.of_pixels(cls, xyxy, width=width, height=height)])
    (back,) = parse_labels(text)
    assert CLASS_NAMES[back.class_id] == (tile or "back")
    assert back.xyxy(width, height) == pytest.approx(xyxy, abs=1e-6 * max(size))


def test_the_renderers_labels_read_back_as_their_boxes():
    pytest.importorskip("PIL", reason="the renderer draws glyphs with Pillow")
    from tests.vision.synth.test_table_render import MID_HAND
    from vision.synth.table_render import render_table

    rendered = render_table(MID_HAND, size=(720, 1280), seed=1)
    read = parse_labels("\n".join(rendered.labels))
    assert [b.class_id for b in read] == [c for c, _ in rendered.boxes]
    for label, (_, box) in zip(read, rendered.boxes, strict=True):
        assert label.xyxy(1280, 720) == pytest.approx((box.x1, box.y1, box.x2, box.y2), abs=1e-3)
