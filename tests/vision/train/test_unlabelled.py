"""Photos whose labels leave tiles out: what a detector finds there that no label names is painted out."""

import numpy as np
import pytest

from vision.eval.real_photos import RealBox, RealPhoto
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES
from vision.read.postprocess import PAD_VALUE
from vision.train.unlabelled import painted_out, painted_photos, unlabelled_finds, write_painted_yolo

#: A test photo's size: 300 wide, 200 high (not square).
WIDTH, HEIGHT = 300, 200

TILE = CLASS_NAMES.index("3p")


def test_a_find_on_no_labelled_tile_is_unlabelled_and_one_on_a_label_is_not():
    label = Box(130, 80, 160, 120)
    on_tile = Box(132, 82, 161, 121)  # the labelled tile, boxed a little off
    discard = Box(40, 60, 70, 100)  # a discard the labels leave out
    half_over = Box(145, 80, 175, 120)  # half on the tile (IoU 0.33): that tile, boxed wide
    assert unlabelled_finds([label], [on_tile, discard, half_over]) == [discard]


def test_painting_greys_the_unlabelled_box_and_keeps_every_labelled_pixel():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (200, 300, 3), np.uint8)  # 200 high, 300 wide
    label = Box(60, 50, 100, 100)
    out = painted_out(image, [Box(20, 40, 80, 90), Box(250, 150, 310, 210)], keep=[label])
    assert np.array_equal(out[50:100, 60:100], image[50:100, 60:100])  # the labelled tile, though painted over
    assert (out[40:50, 20:80] == PAD_VALUE).all() and (out[50:90, 20:60] == PAD_VALUE).all()
    assert (out[150:200, 250:300] == PAD_VALUE).all()  # a box past the edge is painted within it
    assert np.array_equal(out[:40], image[:40]) and np.array_equal(image, image.copy())


class _Found:
    def __init__(self, boxes):
        self.boxes = boxes

    def detect(self, image):
        return [Detection.of_class(TILE, b, 0.4) for b in self.boxes]


def test_photos_are_written_painted_with_their_labels_and_repeated(tmp_path):
    import cv2

    path = tmp_path / "a.jpg"
    cv2.imwrite(str(path), np.full((200, 300, 3), 30, np.uint8))
    photo = RealPhoto(path, "alanchoi00", "train", "a", (RealBox(TILE, 0.5, 0.5, 0.1, 0.2),))
    [(_, image, painted)] = painted_photos([photo], _Found([Box(20, 20, 60, 70), Box(140, 85, 170, 115)]))
    assert painted == 1 and abs(int(image[40, 40, 0]) - PAD_VALUE) <= 1 and int(image[100, 150, 0]) < 40
    written, painted = write_painted_yolo([photo], tmp_path / "out", _Found([Box(20, 20, 60, 70)]), repeats=3)
    assert (written, painted) == (3, 1)
    labels = sorted((tmp_path / "out" / "labels").glob("*.txt"))
    assert len(labels) == 3 and all(p.read_text().startswith(f"{TILE} 0.5") for p in labels)
    images = sorted((tmp_path / "out" / "images").glob("*.jpg"))
    assert [cv2.imread(str(p)).shape for p in images] == [(200, 300, 3)] * 3


def test_a_find_far_bigger_than_the_labelled_tiles_is_no_tile_left_out():
    label = Box(130, 80, 160, 120)  # 30 x 40
    group = Box(0, 0, 120, 150)  # a box round a whole group, read from afar
    assert unlabelled_finds([label], [group, Box(40, 60, 70, 100)]) == [Box(40, 60, 70, 100)]
    assert unlabelled_finds([], [group]) == [group]


def _grey_photo(tmp_path, boxes: tuple[RealBox, ...]) -> RealPhoto:
    import cv2

    path = tmp_path / "a.jpg"
    cv2.imwrite(str(path), np.full((HEIGHT, WIDTH, 3), 30, np.uint8))
    return RealPhoto(path, "alanchoi00", "train", "a", boxes)


@pytest.mark.parametrize(
    ("label", "scale", "written"),
    [
        # a face-only label grown about its centre to the whole tile's extent
        ((0.5, 0.5, 0.1, 0.2), (1.25, 1.2), "0.500000 0.500000 0.125000 0.240000"),
        # a 3p at the bottom-left corner grows inwards only: its box stays within the photo
        ((0.04, 0.95, 0.08, 0.1), (1.25, 1.2), "0.045000 0.945000 0.090000 0.110000"),
        # 1, 1: the label as it is
        ((0.5, 0.5, 0.1, 0.2), (1.0, 1.0), "0.500000 0.500000 0.100000 0.200000"),
    ],
)
def test_a_photos_labels_are_written_grown_by_the_box_scale_and_clipped_to_the_photo(tmp_path, label, scale, written):
    photo = _grey_photo(tmp_path, (RealBox(TILE, *label),))
    assert write_painted_yolo([photo], tmp_path / "out", _Found([]), repeats=2, box_scale=scale) == (2, 0)
    for path in sorted((tmp_path / "out" / "labels").glob("*.txt")):
        assert path.read_text() == f"{TILE} {written}\n"
    assert photo.boxes == (RealBox(TILE, *label),)  # the photo itself (and so any validation copy) is untouched


def test_paint_next_to_a_grown_label_leaves_the_rim_it_took_in(tmp_path):
    """The labelled face runs 135..165 across; grown 1.25 x, 131..169. A find of the unlabelled tile beside it
    (160..200) is painted, but not over 165..169, which the grown label now calls tile."""
    import cv2

    photo = _grey_photo(tmp_path, (RealBox(TILE, 0.5, 0.5, 0.1, 0.2),))
    out = tmp_path / "out"
    write_painted_yolo([photo], out, _Found([Box(160, 76, 200, 124)]), box_scale=(1.25, 1.2))
    row = cv2.imread(str(out / "images" / "real_alanchoi00_a_0.jpg"))[100, :, 0].astype(int)
    assert abs(row[185] - PAD_VALUE) <= 6  # the neighbour, painted
    assert abs(row[167] - 30) <= 6 and abs(row[150] - 30) <= 6  # the grown label's rim and face, put back


def test_a_box_scale_out_of_range_is_refused(tmp_path):
    photo = _grey_photo(tmp_path, (RealBox(TILE, 0.5, 0.5, 0.1, 0.2),))
    with pytest.raises(ValueError, match="two factors"):
        write_painted_yolo([photo], tmp_path / "out", _Found([]), box_scale=(0.0, 1.2))
