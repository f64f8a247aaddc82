"""The red-five colour check: drawn fives (always), crops of the CC0 artwork's fives under varied ink, white balance,
blur, size and shape (skipped without the artwork), the unsure cases, and the check in the reading pipeline."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.fakes import BLACK, BLUE, FELT, GREEN, artwork, colour_model, drawn_five
from vision.read.classifier import (
    OnnxTileClassifier,
    RedFiveChecked,
    TwoStageDetector,
    check_red_fives,
    native_crop,
)
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES
from vision.read.red_fives import RedFiveOptions, Verdict, check_red_five, is_five


def expected(text: str) -> Verdict:
    return Verdict.RED if Tile.parse(text).red else Verdict.PLAIN


@pytest.mark.parametrize(
    ("text", "outer", "gains", "size"),
    [
        ("5m", BLUE, (1.0, 1.0, 1.0), (120, 90)),  # the numeral black, 萬 red
        ("0m", BLUE, (1.0, 1.0, 1.0), (120, 90)),  # both red
        ("5p", BLUE, (1.0, 1.0, 1.0), (120, 90)),  # blue pins, red centre
        ("0p", BLUE, (1.0, 1.0, 1.0), (120, 90)),
        ("5s", GREEN, (1.0, 1.0, 1.0), (120, 90)),  # green sticks, red centre
        ("0s", GREEN, (1.0, 1.0, 1.0), (120, 90)),
        ("5p", GREEN, (0.8, 0.95, 1.2), (96, 60)),  # warm light: a yellow face, non-square crop
        ("0p", GREEN, (1.2, 1.0, 0.8), (96, 60)),  # cool light: a blue face
        ("5s", BLACK, (1.15, 0.9, 1.0), (40, 30)),  # small, a purple cast
        ("0s", BLACK, (0.9, 1.1, 0.9), (40, 30)),
        ("5m", BLUE, (0.85, 1.0, 1.15), (64, 48)),
        ("0m", BLUE, (1.15, 1.0, 0.85), (64, 48)),
    ],
)
def test_drawn_fives_are_read_red_or_plain(text, outer, gains, size):
    img = drawn_five(text, 240, 180, outer)
    img = np.clip(img * np.asarray(gains), 0, 255).astype(np.uint8)
    img = cv2.resize(img, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    check = check_red_five(img, Tile.parse(text).deaka())
    assert check.verdict is expected(text), check
    assert check.key_share is not None and str(check.verdict.value) in str(check)


@pytest.mark.parametrize("text", ["5m", "0m", "5p", "0p", "5s", "0s"])
def test_upside_down_fives_read_the_same(text):
    img = drawn_five(text)[::-1, ::-1].copy()  # a sideways tile turned upright may come out upside down
    assert check_red_five(img, Tile.parse(text)).verdict is expected(text)


@pytest.mark.parametrize(
    ("case", "text", "why"),
    [
        ("tiny", "0m", "too small"),  # a 14 x 10 crop: strokes blur into the face
        ("grey", "0p", "no coloured ink"),  # a grey image: red cannot be seen, so a red five is not called plain
        ("grey", "5s", "no coloured ink"),
        ("dark", "0s", "too dark"),
        ("blank", "5p", "ink"),  # a face with nothing on it
    ],
)
def test_weak_evidence_keeps_the_networks_answer(case, text, why):
    img = drawn_five(text)
    if case == "tiny":
        img = cv2.resize(img, (10, 14), interpolation=cv2.INTER_AREA)
    elif case == "grey":
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    elif case == "dark":
        img = (img * 0.12).astype(np.uint8)
    else:
        img = np.full_like(img, 230)
    check = check_red_five(img, Tile.parse(text))
    assert check.verdict is Verdict.UNSURE and why in check.reason, check
    assert check.tile(Tile.parse(text)) == Tile.parse(text)


@pytest.mark.parametrize("shape", [(0, 0, 3), (0, 30, 3), (40, 0, 3)])
@pytest.mark.parametrize("min_side", [RedFiveOptions().min_side, 0])
def test_an_empty_crop_is_unsure(shape, min_side):
    # with min_side 0 an empty crop once reached OpenCV's colour conversion, which raises on an empty image
    check = check_red_five(np.zeros(shape, np.uint8), Tile.parse("0m"), RedFiveOptions(min_side=min_side))
    assert check.verdict is Verdict.UNSURE and "too small" in check.reason


def test_a_sure_check_sets_the_red_flag_of_the_five_read():
    red = check_red_five(drawn_five("0p"), Tile.parse("5p"))
    plain = check_red_five(drawn_five("5p"), Tile.parse("0p"))
    assert (red.tile(Tile.parse("5p")), plain.tile(Tile.parse("0p"))) == (Tile.parse("0p"), Tile.parse("5p"))


@pytest.mark.parametrize(
    ("crop", "tile", "message"),
    [
        (np.zeros((40, 30), np.uint8), "5m", "BGR"),
        (np.zeros((40, 30, 3), np.float32), "5m", "BGR"),
        (np.zeros((40, 30, 3), np.uint8), "4m", "only a five"),
        (np.zeros((40, 30, 3), np.uint8), "5z", "only a five"),
    ],
)
def test_bad_input_is_refused(crop, tile, message):
    with pytest.raises(ValueError, match=message):
        check_red_five(crop, Tile.parse(tile))


# --- crops of the CC0 artwork -------------------------------------------------------------------------------------


def art_five(art, text: str, variant: str, seed: int, size, *, gains=None, blur: float = 0.0, turn=False):
    """A crop of an artwork five as the reader cuts it: a random ink style of ``variant`` on a tile body, felt
    around, a white-balance cast, glare (sometimes), blur, then resized to ``size`` (height, width)."""
    rng = np.random.default_rng(seed)
    style = replace(art.random_style(rng), variant=variant, dark_face=False)
    face = art.face_texture(CLASS_NAMES.index(text), style, rng)
    fh, fw = face.shape[:2]
    border, margin = int(rng.integers(3, 10)), int(rng.integers(6, 16))
    body = np.empty((fh + 2 * border, fw + 2 * border, 3), np.float32)
    body[:] = np.asarray(style.face_rgb, np.float32) * 0.8
    body[border : border + fh, border : border + fw] = face
    out = np.empty((body.shape[0] + 2 * margin, body.shape[1] + 2 * margin, 3), np.float32)
    out[:] = rng.uniform(0.1, 0.6, 3)
    out[margin : margin + body.shape[0], margin : margin + body.shape[1]] = body
    cast = np.asarray(gains, np.float32) if gains is not None else rng.uniform(0.82, 1.18, 3).astype(np.float32)
    out = out * cast * rng.uniform(0.7, 1.2)
    if rng.random() < 0.3:  # a glare patch
        yy, xx = np.mgrid[0 : out.shape[0], 0 : out.shape[1]]
        cx, cy, s = rng.uniform(0, out.shape[1]), rng.uniform(0, out.shape[0]), rng.uniform(0.1, 0.4) * out.shape[1]
        out = out + rng.uniform(0.1, 0.4) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))[..., None]
    if turn:
        out = out[::-1, ::-1]
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    out = cv2.resize(np.clip(out, 0, 1), (size[1], size[0]), interpolation=cv2.INTER_AREA)
    out = out + rng.normal(0, 0.01, out.shape)
    return np.clip(out[..., ::-1] * 255 + 0.5, 0, 255).astype(np.uint8)


ART_CASES = [
    # (five, artwork, size (h, w), white balance (R, G, B), blur, upside down)
    *[
        (t, v, (96, 72), (1.0, 1.0, 1.0), 0.0, False)
        for t in ("5m", "0m", "5p", "0p", "5s", "0s")
        for v in ("Regular", "Black")
    ],
    *[(t, "Regular", (110, 64), (1.15, 1.0, 0.82), 0.0, False) for t in ("5m", "0m", "5p", "0p", "5s", "0s")],  # warm
    *[(t, "Black", (80, 70), (0.85, 1.0, 1.18), 0.0, True) for t in ("5m", "0m", "5p", "0p", "5s", "0s")],  # cool
    *[(t, "Regular", (64, 48), (1.0, 1.0, 1.0), 1.5, False) for t in ("5m", "0m", "5p", "0p", "5s", "0s")],  # blur
    *[(t, "Black", (40, 30), (1.05, 0.95, 1.0), 0.8, False) for t in ("5m", "0m", "5p", "0p", "5s", "0s")],  # small
]


@pytest.mark.parametrize(("text", "variant", "size", "gains", "blur", "turn"), ART_CASES)
def test_artwork_fives_plain_stay_plain_and_red_are_found(text, variant, size, gains, blur, turn):
    art = artwork()
    crop = art_five(
        art,
        text,
        variant,
        seed=ART_CASES.index((text, variant, size, gains, blur, turn)),
        size=size,
        gains=gains,
        blur=blur,
        turn=turn,
    )
    read = Tile.parse(text)
    for network in (read, Tile(read.kind, red=not read.red)):  # whatever the network said
        check = check_red_five(crop, network)
        assert check.verdict is expected(text), check


@pytest.mark.parametrize("text", ["5m", "0m", "5p", "0p", "5s", "0s"])
def test_random_artwork_fives_are_never_called_wrong(text):
    art = artwork()
    verdicts: Counter = Counter()
    for seed in range(40):
        rng = np.random.default_rng([seed, 7])
        h = int(rng.integers(20, 140))
        size = (h, int(h * rng.uniform(0.6, 0.95)))
        variant = "Black" if rng.random() < 0.4 else "Regular"
        crop = art_five(
            art,
            text,
            variant,
            seed + 1000,
            size,
            blur=float(rng.choice([0.0, rng.uniform(0.5, 2.0)])),
            turn=bool(rng.random() < 0.3),
        )
        verdicts[check_red_five(crop, Tile.parse(text)).verdict] += 1
    wrong = Verdict.PLAIN if Tile.parse(text).red else Verdict.RED
    assert verdicts[wrong] == 0, verdicts
    assert verdicts[expected(text)] >= 0.75 * sum(verdicts.values()), verdicts  # unsure mostly when tiny


# --- in the reading pipeline ------------------------------------------------------------------------------------


def table_with(tiles: dict[str, tuple[int, int]], h: int = 300, w: int = 640) -> tuple[np.ndarray, list[Box]]:
    """A non-square felt frame with drawn fives (100 x 75 px, centred at the given points) and their boxes."""
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = FELT
    boxes = []
    for text, (cx, cy) in tiles.items():
        tile = drawn_five(text, 100, 75, margin=0.0)
        frame[cy - 50 : cy + 50, cx - 37 : cx + 38] = tile
        boxes.append(Box(float(cx - 37), float(cy - 50), float(cx + 38), float(cy + 50)))
    return frame, boxes


@pytest.mark.parametrize(("drawn", "read", "out"), [("0m", "5m", "0m"), ("5m", "0m", "5m"), ("5m", "5m", "5m")])
def test_two_stage_fives_follow_the_colour_check(tmp_path, drawn, read, out):
    frame, boxes = table_with({drawn: (500, 120)})
    found = [Detection.of_class(CLASS_NAMES.index("1p"), boxes[0], 0.6)]
    two = TwoStageDetector(FakeDetector(found), OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=(read,))))
    assert [d.label for d in two.detect(frame)] == [out]
    assert two.last_red_checks[0] is not None and two.last_red_checks[0].verdict is expected(drawn)
    off = TwoStageDetector(FakeDetector(found), two.classifier, red_check=None)
    assert [d.label for d in off.detect(frame)] == [read]  # without the check: the network's answer


def test_detector_alone_with_the_check_and_non_fives_untouched():
    frame, boxes = table_with({"0s": (100, 150), "5p": (300, 150), "0m": (500, 150)})
    labels = ["5s", "0p", "7z"]  # the detector calls the red 0s plain and the plain 5p red; 7z is no five
    found = [Detection.of_class(CLASS_NAMES.index(t), b, 0.8) for t, b in zip(labels, boxes, strict=True)]
    checked = RedFiveChecked(FakeDetector(found))
    assert [d.label for d in checked.detect(frame)] == ["0s", "5p", "7z"]
    assert [c is None for c in checked.last_red_checks] == [False, False, True]
    out, checks = check_red_fives(frame, found)
    assert [d.label for d in out] == ["0s", "5p", "7z"] and [d.box for d in out] == boxes
    assert [c and c.verdict for c in checks] == [Verdict.RED, Verdict.PLAIN, None]


@pytest.mark.parametrize(
    ("box", "why"),
    [
        (Box(100.0, 100.0, 100.0, 100.0), "empty box"),  # no area: once a ZeroDivisionError in native_crop
        (Box(100.0, 100.0, 100.0, 140.0), "empty box"),  # no width
        (Box(900.0, 100.0, 930.0, 140.0), "outside"),  # off the 640 px wide frame
    ],
)
def test_a_five_that_cannot_be_cropped_keeps_its_read(box, why):
    frame, _ = table_with({})
    found = [Detection.of_class(CLASS_NAMES.index("0p"), box, 0.8), Detection.of_class(0, box, 0.8)]
    out, checks = check_red_fives(frame, found)
    assert [d.label for d in out] == ["0p", "1m"] and checks[1] is None
    assert checks[0] is not None and checks[0].verdict is Verdict.UNSURE and why in checks[0].reason
    assert [d.label for d in RedFiveChecked(FakeDetector(found)).detect(frame)] == ["0p", "1m"]
    with pytest.raises(ValueError, match=why):
        native_crop(frame, box)


def test_the_check_refuses_a_frame_that_is_no_bgr_image():
    with pytest.raises(ValueError, match="BGR uint8"):
        check_red_fives(np.zeros((30, 40), np.uint8), [])


@pytest.mark.parametrize(
    ("box", "shape"),
    [
        (Box(10.0, 10.0, 40.0, 50.0), (46, 35)),  # upright, small: kept at its size (with the 8 % margin)
        (Box(10.0, 10.0, 310.0, 210.0), (96, 64)),  # sideways and big: turned, long side 96
    ],
)
def test_native_crop_keeps_small_tiles_small(box, shape):
    assert native_crop(np.zeros((300, 400, 3), np.uint8), box).shape[:2] == shape


def test_is_five():
    assert [is_five(Tile.parse(t)) for t in ("5m", "0p", "5s", "4m", "5z")] == [True, True, True, False, False]
    assert not is_five(None)


@pytest.mark.parametrize(
    ("truth", "read", "verdict", "counted", "before", "after"),
    [
        ("0m", "5m", Verdict.RED, 1, (0, 1), (0, 0)),  # the check finds the red five the network missed
        ("5p", "0p", Verdict.PLAIN, 1, (1, 0), (0, 0)),  # the check undoes a false red
        ("5s", "0s", Verdict.UNSURE, 1, (1, 0), (1, 0)),  # unsure: the network's false red stands
        ("0s", "0s", Verdict.PLAIN, 1, (0, 0), (0, 1)),  # the check's own mistake
        ("5m", "5p", Verdict.PLAIN, 0, (0, 0), (0, 0)),  # another five: not counted for red vs plain
    ],
)
def test_red_flag_result_counts_false_reds_and_plains(truth, read, verdict, counted, before, after):
    from vision.eval.red_five_evaluation import RedFlagResult

    result = RedFlagResult()
    network = Tile.parse(read)
    checked = network if verdict is Verdict.UNSURE else Tile(network.kind, red=verdict is Verdict.RED)
    result.add(Tile.parse(truth), network, verdict, checked)
    assert (result.n, result.wrong_kind) == (counted, 1 - counted)
    assert result.errors(after=False) == before and result.errors(after=True) == after


def test_fives_inked_red_are_red_fives_to_the_check_and_a_light_casts_every_frame():
    from vision.eval.red_five_evaluation import inked_fives, lit, verdicts
    from vision.read.geometry import Box

    frame = np.empty((200, 260, 3), np.uint8)
    frame[:] = FELT
    samples = []
    for text, outer in (("5m", BLUE), ("5p", BLACK), ("5s", GREEN)):
        f = frame.copy()
        f[40:160, 90:180] = drawn_five(text, 120, 90, outer)
        samples.append((f, Box(90.0, 40.0, 180.0, 160.0), Tile.parse(text)))
    assert verdicts(samples) == {("plain", "plain"): 3}
    inked = list(inked_fives(samples, seed=1))
    assert [t for _, _, t in inked] == [Tile.parse(t) for t in ("0m", "0p", "0s")]
    assert verdicts(inked) == {("red", "red"): 3}
    (warm, box, tile), *_ = lit(samples, (0.5, 1.0, 1.2))
    assert (box, tile) == samples[0][1:]
    assert tuple(warm[0, 0]) == (30, 110, 48)  # felt (60, 110, 40) BGR: blue halved, red up a fifth
