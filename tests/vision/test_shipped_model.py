"""The shipped model (with the crop classifier shipped beside it, as ``jantaku read`` reads) reads back small scenes
drawn with the renderer's tile faces, exactly.

Scenes: a hand of 14 tiles lying face up in a row, seen from above, with a called meld (its called tile sideways)
on a second row, on felt. Drawn flat with the renderer's face textures in its default style (not one of its random
training styles), so what is tested is reading, not luck with a camera pose. The same scene is also placed in a
4000 x 3000 frame with tiles of 60-70 px, as a phone or a 12 MP camera sees a table, which needs sliced inference.
Skips while ``models/tiles.onnx`` does not exist (``$JANTAKU_MODEL`` points elsewhere).
"""

from __future__ import annotations

import hashlib
import time

import cv2
import numpy as np
import pytest

from engine.tiles import parse_tiles
from vision.read.classifier import classifier_for, with_classifier
from vision.read.detector import DetectorOptions, OnnxNetwork, SlicedDetector, default_model_path
from vision.read.labels import class_of_tile
from vision.read.rows import read_tiles
from vision.read.scale import PhotoDetector

MODEL = default_model_path()
pytestmark = pytest.mark.skipif(
    not MODEL.is_file(), reason=f"no shipped model at {MODEL} yet (issue 4 ships models/tiles.onnx)"
)

#: Reading pipelines (detector + classifier, by :func:`pipeline_id`) known NOT to read some scenes exactly: the
#: ids of those tests, which become strict xfails (a pipeline that starts reading one fails the suite, so the entry
#: gets removed). Any other pipeline, and any other scene, must read exactly.
KNOWN_MISREADS = {
    # tiles.onnx of 699d564 ("YOLO11n 416, 6 CPU epochs") + tile_classifier.onnx of a51d203: the 24 px tiles of
    # the portrait frame are 16 px once letterboxed to 416 (the model card's range starts at 13 px): it reads
    # "123m4p789s11223z 7z", missing 0p, 6p and two of 777z (it reads them exactly with
    # DetectorOptions(small_slice_sides=(400,)), at a cost in precision on real photos: see vision.read.detector).
    "b5628ec04b2d3ace73bbd1f3dfac562c00f0a828e0b7b7a09d531b4341ff374b": {"24-size1"},
    # tiles.onnx of e2fd605 + tile_classifier.onnx of 82e5958 (with a none class): on the 24 px portrait scene the
    # detector finds 16 of 17 tiles (no box on 0p); the classifier names all 16 right: "123m46p789s11223z 777z".
    "18f4e570900cb633268f5d08971e3c8697ce41947366419edad0a266f7eee9a2": {"24-size1"},
    # tiles.onnx of e2fd605 + tile_classifier.onnx trained with single-tile cards (width 48): the same detector miss
    # on the 24 px portrait scene (no box on 0p); the 16 boxes are named right: "123m46p789s11223z 777z".
    "3eaffd312c0f0259a60080afb26c409d7edd96e834ad34b66285dc6f1f782b72": {"24-size1"},
    # tiles.onnx of 699d564 alone (no classifier beside it): misreads every scene.
    "590250ab6c85459aa3487ba450303c023a3c6b78092f3058210eec02560edf10": {"44-size0", "24-size1", "12mp"},
}


def _sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def pipeline_id() -> str:
    """The detector file's sha256, or with a classifier the sha256 of both files' sha256 hex digests."""
    classifier = classifier_for(MODEL)
    if classifier is None:
        return _sha256(MODEL)
    return hashlib.sha256((_sha256(MODEL) + _sha256(classifier.path)).encode()).hexdigest()


def _reads_exactly(request, case: str) -> None:
    """Mark the calling test as a strict expected failure when its pipeline is known to misread this scene."""
    if case in KNOWN_MISREADS.get(pipeline_id(), ()):
        request.applymarker(
            pytest.mark.xfail(strict=True, reason=f"this model is known not to read scene {case} (KNOWN_MISREADS)")
        )


art = pytest.importorskip("vision.synth.art", reason="the renderer (vision.synth) is not in this checkout")


def _tile(class_id: int, width: int, sideways: bool = False) -> np.ndarray:
    """A face-up tile seen from above: the face on an ivory body with a darker rim, BGR uint8."""
    style = art.FaceStyle()
    face = art.face_texture(class_id, style, np.random.default_rng(class_id))  # RGB float, h x w
    height = round(width * 4 / 3)
    face = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    rim = max(2, width // 12)
    body = np.empty((height + 2 * rim, width + 2 * rim, 3), np.float32)
    body[:] = (0.80, 0.78, 0.72)
    body[rim:-rim, rim:-rim] = face
    bgr = (body[..., ::-1] * 255).clip(0, 255).astype(np.uint8)
    return np.ascontiguousarray(np.rot90(bgr)) if sideways else bgr


def _felt(height: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    felt = np.empty((height, width, 3), np.float32)
    felt[:] = (60, 110, 40)  # green felt, BGR
    felt += rng.normal(0, 6, (height, width, 1))
    return felt.clip(0, 255).astype(np.uint8)


def scene(rows: list[tuple[str, str]], tile_w: int, size: tuple[int, int], origin: tuple[int, int]) -> np.ndarray:
    """Rows of tiles (mpsz, indexes of sideways tiles) from ``origin`` (x, y), on a felt frame of ``size`` (h, w)."""
    frame = _felt(*size)
    x0, y = origin
    for text, sideways in rows:
        x = x0
        side = {int(i) for i in sideways.split(",") if i}
        tiles = [_tile(class_of_tile(t), tile_w, i in side) for i, t in enumerate(parse_tiles(text))]
        row_h = max(t.shape[0] for t in tiles)
        for t in tiles:
            h, w = t.shape[:2]
            top = y + row_h - h  # bottom-aligned, as a called tile lies
            frame[top : top + h, x : x + w] = t
            x += w + max(1, tile_w // 20)
        y += row_h + tile_w
    return frame


HAND = [("123m406p789s1122z3z", ""), ("777z", "0")]
EXPECTED = "123m406p789s11223z 777z"


@pytest.fixture(scope="module")
def detector():
    """What ``jantaku read`` reads with: the detector reading at the photo's scale, and the crop classifier shipped
    beside it (if any)."""
    return with_classifier(PhotoDetector(OnnxNetwork(MODEL), DetectorOptions()), classifier_for(MODEL))


def test_the_model_loads_in_under_a_second():
    started = time.perf_counter()
    with_classifier(SlicedDetector(OnnxNetwork(MODEL)), classifier_for(MODEL))
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    ("tile_w", "size"),
    [
        (44, (400, 960)),  # a hand photographed close, landscape
        (24, (640, 560)),  # small tiles, portrait frame
    ],
)
def test_reads_a_rendered_hand_exactly(detector, tile_w, size, request):
    _reads_exactly(request, request.node.callspec.id)
    image = scene(HAND, tile_w, size, origin=(20, 60))
    reading = read_tiles(detector.detect(image))
    assert reading.text == EXPECTED


@pytest.mark.slow
def test_reads_a_hand_in_a_12_megapixel_frame(detector, request):
    _reads_exactly(request, "12mp")
    image = scene(HAND, 64, (3000, 4000), origin=(1500, 1300))
    reading = read_tiles(detector.detect(image))
    assert reading.text == EXPECTED
