"""Letterbox, decode and NMS on hand-made tensors, with non-square frames and non-square network inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read import postprocess
from vision.read.geometry import Size
from vision.read.postprocess import PAD_VALUE, Letterbox, Raw, decode, ios_matrix, iou_matrix, nms, to_tensor


@pytest.mark.parametrize(
    ("source", "target", "scale", "pad_top", "pad_left", "resized"),
    [
        # landscape frame into a square input: bars above and below
        ((3000, 4000), (640, 640), 0.16, 80, 0, (480, 640)),
        # portrait frame (a phone photo turned by EXIF): bars left and right
        ((4000, 3000), (640, 640), 0.16, 0, 80, (640, 480)),
        # a small frame is scaled up to fill the input
        ((240, 320), (640, 640), 2.0, 80, 0, (480, 640)),
        # non-square input: height 384, width 640; a square frame is limited by the height
        ((1000, 1000), (384, 640), 0.384, 0, 128, (384, 384)),
        # same aspect: no padding at all
        ((768, 1280), (384, 640), 0.5, 0, 0, (384, 640)),
        # odd sizes: padding splits with the extra pixel at the bottom / right
        ((101, 333), (64, 64), 64 / 333, 22, 0, (19, 64)),
    ],
)
def test_letterbox_fit(source, target, scale, pad_top, pad_left, resized):
    lb = Letterbox.fit(Size(*source), Size(*target))
    assert lb.scale == pytest.approx(scale)
    assert (lb.pad_top, lb.pad_left) == (pad_top, pad_left)
    assert lb.resized == Size(*resized)


def test_letterbox_apply_places_the_frame_and_pads_grey():
    frame = np.zeros((300, 600, 3), np.uint8)  # h 300, w 600
    frame[:, :300] = (255, 0, 0)  # left half blue (BGR)
    lb = Letterbox.fit(Size.of(frame), Size(height=320, width=320))
    out = lb.apply(frame)
    assert out.shape == (320, 320, 3)
    assert (out[: lb.pad_top] == PAD_VALUE).all() and (out[lb.pad_top + 160 :] == PAD_VALUE).all()
    assert (out[lb.pad_top + 10, 10] == (255, 0, 0)).all()  # left stays left
    assert (out[lb.pad_top + 10, 310] == (0, 0, 0)).all()


def test_letterbox_rejects_a_frame_of_another_size():
    lb = Letterbox.fit(Size(height=300, width=600), Size(height=320, width=320))
    with pytest.raises(ValueError, match="600x300"):
        lb.apply(np.zeros((600, 300, 3), np.uint8))  # height and width swapped


@pytest.mark.parametrize(
    ("source", "target"),
    [((3000, 4000), (640, 640)), ((4000, 3000), (640, 640)), ((480, 1000), (384, 640)), ((500, 300), (320, 416))],
)
def test_boxes_map_back_to_the_frame(source, target):
    src, dst = Size(*source), Size(*target)
    lb = Letterbox.fit(src, dst)
    truth = np.array([[0.1, 0.2, 0.3, 0.5], [0.6, 0.55, 0.9, 0.95]]) * [src.width, src.height, src.width, src.height]
    in_net = truth * lb.scale + [lb.pad_left, lb.pad_top, lb.pad_left, lb.pad_top]
    np.testing.assert_allclose(lb.to_source(in_net), truth, atol=1e-6)


def test_boxes_in_the_padding_are_clipped_to_the_frame():
    lb = Letterbox.fit(Size(height=300, width=600), Size(height=320, width=320))  # pads 80 above and below
    back = lb.to_source(np.array([[-10.0, 0.0, 330.0, 320.0]]))
    assert back.tolist() == [[0.0, 0.0, 600.0, 300.0]]


def test_to_tensor_is_rgb_chw_in_unit_range():
    bgr = np.zeros((2, 3, 3), np.uint8)
    bgr[..., 0] = 255  # blue
    t = to_tensor([bgr, bgr])
    assert t.shape == (2, 3, 2, 3) and t.dtype == np.float32
    assert t[:, 2].min() == 1.0 and t[:, 0].max() == 0.0  # blue is the third channel in RGB


def _head(nc: int, anchors: list[tuple[float, float, float, float, int, float]], n: int = 8) -> np.ndarray:
    out = np.zeros((1, 4 + nc, n), np.float32)
    for k, (cx, cy, w, h, cls, score) in enumerate(anchors):
        out[0, :4, k] = (cx, cy, w, h)
        out[0, 4 + cls, k] = score
    return out


def test_decode_takes_the_best_class_and_converts_centres_to_corners():
    out = _head(38, [(100, 50, 20, 30, 37, 0.8), (10, 10, 4, 6, 3, 0.3), (5, 5, 2, 2, 1, 0.1)])
    out[0, 4 + 5, 0] = 0.4  # a weaker second class on anchor 0
    raw = decode(out, 38, conf_threshold=0.25)
    assert raw.classes.tolist() == [37, 3]
    np.testing.assert_allclose(raw.scores, [0.8, 0.3], rtol=1e-6)
    assert raw.boxes.tolist() == [[90.0, 35.0, 110.0, 65.0], [8.0, 7.0, 12.0, 13.0]]


def test_decode_of_nothing_is_empty():
    raw = decode(_head(38, []), 38)
    assert len(raw) == 0 and raw.boxes.shape == (0, 4)


@pytest.mark.parametrize(
    ("shape", "message"),
    [((1, 38, 8400), r"\[42, N\]"), ((2, 42, 10), "batch of 2"), ((8400, 42), r"\[42, N\]"), ((42,), r"\[42, N\]")],
)
def test_decode_rejects_other_shapes(shape, message):
    with pytest.raises(ValueError, match=message):
        decode(np.zeros(shape, np.float32), 38)


def _raw(rows):
    boxes = np.array([r[:4] for r in rows], float).reshape(-1, 4)
    return Raw(boxes, np.array([r[4] for r in rows], float), np.array([r[5] for r in rows], np.int64))


@pytest.mark.parametrize(
    ("rows", "class_aware", "kept"),
    [
        # two boxes on one tile, same class: the better one stays
        ([(0, 0, 10, 14, 0.7, 1), (1, 0, 11, 14, 0.9, 1)], True, [1]),
        # same place, different classes: class-aware NMS keeps both ...
        ([(0, 0, 10, 14, 0.7, 1), (1, 0, 11, 14, 0.9, 2)], True, [1, 0]),
        # ... a class-agnostic pass keeps one
        ([(0, 0, 10, 14, 0.7, 1), (1, 0, 11, 14, 0.9, 2)], False, [1]),
        # neighbouring tiles in a row touch but do not overlap: all stay
        ([(0, 0, 10, 14, 0.9, 1), (10, 0, 20, 14, 0.8, 1), (20, 0, 30, 14, 0.7, 1)], True, [0, 1, 2]),
        # a chain: a suppresses b, b would suppress c, but b is gone so c stays
        ([(0, 0, 10, 10, 0.9, 0), (3, 0, 13, 10, 0.8, 0), (6, 0, 16, 10, 0.7, 0)], True, [0, 2]),
        # overlap just under the threshold (IoU 1/3): both stay
        ([(0, 0, 10, 10, 0.9, 0), (5, 0, 15, 10, 0.8, 0)], True, [0, 1]),
        # nothing
        ([], True, []),
    ],
)
def test_nms(rows, class_aware, kept):
    assert nms(_raw(rows), 0.5, class_aware=class_aware).tolist() == kept


@given(st.integers(0, 2**32 - 1), st.integers(1, 120), st.booleans())
@settings(max_examples=60, deadline=None)
def test_nms_keeps_the_same_boxes_over_pairs_at_once_as_one_by_one(seed, n, class_aware):
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 200, (n, 2))
    wh = rng.uniform(0, 40, (n, 2))
    scores = rng.choice([0.3, 0.5, 0.7, 0.9], n)  # ties: both keep the stable order
    raw = Raw(np.hstack([xy, xy + wh]), scores, rng.integers(0, 3, n))
    at_once = nms(raw, 0.45, class_aware=class_aware)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(postprocess, "NMS_MATRIX_MOST", 0)
        one_by_one = nms(raw, 0.45, class_aware=class_aware)
    assert at_once.tolist() == one_by_one.tolist()


def test_iou_and_ios():
    a = np.array([[0, 0, 10, 10]], float)
    b = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [2, 2, 4, 4], [20, 20, 30, 30]], float)
    np.testing.assert_allclose(iou_matrix(a, b), [[1.0, 1 / 3, 0.04, 0.0]])
    np.testing.assert_allclose(ios_matrix(a, b), [[1.0, 0.5, 1.0, 0.0]])


def test_decode_drops_boxes_under_a_pixel():
    out = _head(38, [(100, 50, 0.5, 30, 2, 0.9), (100, 50, 20, 0.2, 2, 0.9), (100, 50, 1, 1, 2, 0.9)])
    assert decode(out, 38).boxes.tolist() == [[99.5, 49.5, 100.5, 50.5]]


def test_decode_multi_label_keeps_every_class_above_the_threshold():
    out = _head(38, [(100, 50, 20, 30, 37, 0.8)])
    out[0, 4 + 5, 0] = 0.4
    raw = decode(out, 38, conf_threshold=0.25, multi_label=True)
    assert sorted(raw.classes.tolist()) == [5, 37] and raw.boxes.tolist() == [[90.0, 35.0, 110.0, 65.0]] * 2
