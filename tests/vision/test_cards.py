"""Single-tile training cards (:mod:`vision.synth.cards`): seeded, the runtime's crop size, every class, no tile."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.fakes import artwork
from vision.read.classifier import CROP_SIZE
from vision.read.geometry import Size
from vision.read.labels import BACK_CLASS, CLASS_NAMES, NUM_CLASSES
from vision.synth import art, cards
from vision.train.classifier_training import NONE_CLASS, crops_bonus_cards, crops_cards


@pytest.fixture(autouse=True)
def _artwork():
    artwork()


@pytest.mark.parametrize(
    "size",
    [CROP_SIZE, Size(height=40, width=30), Size(height=32, width=56)],  # the runtime's, a smaller one, a wide one
)
def test_cards_have_the_asked_size(size):
    for seed in range(3):
        crop = cards.card(seed * 7 % NUM_CLASSES, np.random.default_rng(seed), size)
        assert crop.shape == (size.height, size.width, 3) and crop.dtype == np.uint8
        none = cards.none_card(np.random.default_rng(seed), size)
        assert none.shape == (size.height, size.width, 3) and none.dtype == np.uint8
        bonus = cards.none_card(np.random.default_rng(seed), size, kind="bonus")
        assert bonus.shape == (size.height, size.width, 3) and bonus.dtype == np.uint8


@pytest.mark.parametrize("class_id", range(NUM_CLASSES))
def test_every_class_renders_and_is_seeded(class_id):
    a = cards.card(class_id, np.random.default_rng([4, class_id]))
    b = cards.card(class_id, np.random.default_rng([4, class_id]))
    assert a.shape == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert np.array_equal(a, b)
    assert float(a.std()) > 2.0  # not a flat image


def test_other_seeds_give_other_cards():
    a = cards.card(0, np.random.default_rng(1))
    b = cards.card(0, np.random.default_rng(2))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("kind", cards.NONE_KINDS)
def test_none_cards_of_every_kind(kind):
    a = cards.none_card(np.random.default_rng(3), kind=kind)
    assert a.shape == (CROP_SIZE.height, CROP_SIZE.width, 3) and a.dtype == np.uint8
    assert np.array_equal(a, cards.none_card(np.random.default_rng(3), kind=kind))


def test_standing_tops_are_none_cards_of_their_kind():
    for seed in range(3):
        top = cards.standing_top_card(np.random.default_rng(seed))
        assert np.array_equal(top, cards.none_card(np.random.default_rng(seed), kind="standing"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cards.card(NUM_CLASSES, np.random.default_rng(0)), "no class"),
        (lambda: cards.card(-1, np.random.default_rng(0)), "no class"),
        (lambda: cards.none_card(np.random.default_rng(0), kind="table"), "unknown none card kind"),
        (lambda: cards.drawn_face(BACK_CLASS, (1.0, 1.0, 1.0), np.random.default_rng(0)), "no face"),
        (lambda: cards.card_set(3, 0, none_share=1.5), "none_share"),
        (lambda: cards.bonus_card_set(-1, 0), "n >= 0"),
    ],
)
def test_bad_requests_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_card_set_takes_the_classes_in_turn_and_depends_on_the_index_only():
    x, y = cards.card_set(80, seed=11, none_share=0.25)
    assert x.shape == (80, CROP_SIZE.height, CROP_SIZE.width, 3) and y.shape == (80,)
    faces = np.flatnonzero(y != NUM_CLASSES)
    assert np.array_equal(y[faces], faces % NUM_CLASSES)
    assert 5 <= int((y == NUM_CLASSES).sum()) <= 40  # about a quarter are no tile
    tail_x, tail_y = cards.card_set(30, seed=11, none_share=0.25, start=50)
    assert np.array_equal(tail_x, x[50:]) and np.array_equal(tail_y, y[50:])


@pytest.mark.parametrize("class_id", [c for c in range(NUM_CLASSES) if c != BACK_CLASS])
def test_drawn_faces_of_every_face_class(class_id):
    if CLASS_NAMES[class_id][1] in "mz" and not cards.cjk_fonts():
        with pytest.raises(ValueError, match="needs a CJK font"):
            cards.drawn_face(class_id, (0.95, 0.93, 0.85), np.random.default_rng(class_id))
        pytest.skip("no CJK font installed (fonts-arphic-ukai and others): its characters cannot be drawn")
    face = cards.drawn_face(class_id, (0.95, 0.93, 0.85), np.random.default_rng(class_id))
    w, h = art.FACE_SIZE
    assert face.shape == (h, w, 3) and face.dtype == np.float32
    assert float(face.min()) >= 0.0 and float(face.max()) <= 1.0
    assert float(face.std()) > 0.01 or CLASS_NAMES[class_id] == "5z"  # a White dragon may be blank


def test_crops_cards_is_a_crop_set_with_the_none_class():
    data = crops_cards(40, seed=2, none_share=0.3)
    assert len(data) == 40 and data.x.shape[1:] == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert set(np.unique(data.y)) <= set(range(NUM_CLASSES)) | {NONE_CLASS}
    assert (data.y == NONE_CLASS).any()
    again = crops_cards(40, seed=2, none_share=0.3)
    assert np.array_equal(again.x, data.x) and np.array_equal(again.y, data.y)


@pytest.mark.parametrize(
    ("kind", "seed", "next_draw"),
    [
        # kind=None: the random kinds and their draws, as before the bonus kind came
        (None, 0, 248875996668723529),
        (None, 1, 4498258947336114737),
        (None, 2, 3779161829170937657),
        (None, 3, 4049980515889409473),
        (None, 4, 2083971983442363147),
        (None, 5, 523009042745661465),
        (None, 6, 2630750583319673758),
        (None, 7, 170901161451629795),
        # each kind asked for
        ("cloth", 3, 3781919955905259524),
        ("gap", 3, 4445954980968335655),
        ("half", 3, 1632336469947486596),
        ("standing", 3, 4285602956577771037),
        # backs (face cards are left out: their draws depend on the CJK fonts installed)
        ("back", 0, 2032433605049665312),
        ("back", 1, 2353521322517352521),
        ("back", 2, 171781664491976312),
    ],
)
def test_cards_draw_as_they_did(kind, seed, next_draw):
    """The generator's next draw after a card, recorded before bonus cards came (and checked then to give the same
    bytes): a new kind must not shift an old seed's draws. Draws, not pixels: numpy's generator is stable across
    versions, OpenCV's and Pillow's pixels need not be."""
    rng = np.random.default_rng(seed)
    if kind == "back":
        cards.card(BACK_CLASS, rng)
    else:
        cards.none_card(rng, kind=kind)
    assert int(rng.integers(1 << 62)) == next_draw


@pytest.mark.parametrize("fonts", [None, ()])  # the installed CJK fonts; none (the picture alone)
def test_bonus_faces_are_drawn_and_seeded(fonts):
    for seed in range(6):
        face = cards.bonus_face((0.95, 0.93, 0.85), np.random.default_rng(seed), fonts)
        w, h = art.FACE_SIZE
        assert face.shape == (h, w, 3) and face.dtype == np.float32
        assert float(face.min()) >= 0.0 and float(face.max()) <= 1.0
        assert float(face.std()) > 0.01  # something is drawn
        again = cards.bonus_face((0.95, 0.93, 0.85), np.random.default_rng(seed), fonts)
        assert np.array_equal(face, again)


def test_bonus_card_set_is_all_none_and_depends_on_the_index_only():
    x, y = cards.bonus_card_set(12, seed=5)
    assert x.shape == (12, CROP_SIZE.height, CROP_SIZE.width, 3) and x.dtype == np.uint8
    assert (y == NUM_CLASSES).all()
    assert np.array_equal(x[3], cards.none_card(np.random.default_rng([5, 3]), kind="bonus"))
    tail_x, _ = cards.bonus_card_set(4, seed=5, start=8)
    assert np.array_equal(tail_x, x[8:])
    assert len({c.tobytes() for c in x}) == 12


def test_crops_bonus_cards_are_seeded_none_crops():
    data = crops_bonus_cards(10, seed=4)
    assert len(data) == 10 and data.x.shape[1:] == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert (data.y == NONE_CLASS).all()
    again = crops_bonus_cards(10, seed=4)
    assert np.array_equal(again.x, data.x)


def _cross(h: int = 120, w: int = 100) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    mask[20:100, 45:55] = 255  # a stroke down ...
    mask[55:65, 15:85] = 255  # ... and one across: a 十
    return mask


@pytest.mark.parametrize("seed", range(8))
def test_a_brushed_glyph_is_the_same_character_drawn_otherwise(seed):
    mask = _cross()
    out = cards._brushed(mask, (50.0, 60.0), 80.0, np.random.default_rng(seed))
    assert out.shape == mask.shape and out.dtype == np.uint8
    assert not np.array_equal(out, mask)
    ink, before = float((out > 127).sum()), float((mask > 127).sum())
    assert 0.4 * before < ink < 2.5 * before  # thinner or bolder, not lost, not a blot
    ys, xs = np.nonzero(out > 127)
    assert abs(xs.mean() - 50) < 10 and abs(ys.mean() - 60) < 10  # where it was drawn
    again = cards._brushed(mask, (50.0, 60.0), 80.0, np.random.default_rng(seed))
    assert np.array_equal(out, again)


@pytest.mark.skipif(not cards.cjk_fonts(), reason="no CJK font installed (fonts-arphic-ukai and others)")
@pytest.mark.parametrize("text", ["萬", "西", "三"])
def test_a_brushed_glyph_of_a_real_font_keeps_its_strokes(text):
    """Thin strokes (a Mincho font's 三 is lines 2-3 px thick at 80 px) survive the brush: a glyph is not thinned
    where that would break its strokes, and keeps a third of its ink or more however the warp squeezes it."""
    from PIL import Image, ImageDraw

    for font in cards.cjk_fonts():
        mask = Image.new("L", (160, 160), 0)
        ImageDraw.Draw(mask).text((80, 80), text, font=cards._sized(font, 80), fill=255, anchor="mm")
        before = np.asarray(mask)
        for seed in range(12):
            after = cards._brushed(before, (80.0, 80.0), 80.0, np.random.default_rng(seed))
            assert (after > 127).sum() >= 0.35 * (before > 127).sum(), (font, seed)


def test_brushed_cards_are_of_characters_the_bird_and_the_six_of_dots():
    with pytest.raises(ValueError, match="characters, 1s and 6p"):
        cards.brush_card(CLASS_NAMES.index("1p"), np.random.default_rng(0))
    assert [CLASS_NAMES[c] for c in cards.BRUSHED_CLASSES] == [
        *(f"{n}m" for n in range(1, 10)),
        "6p",
        "1s",
        "1z",
        "2z",
        "3z",
        "4z",
        "6z",
        "7z",
        "0m",
    ]


@pytest.mark.skipif(not cards.cjk_fonts(), reason="no CJK font installed (fonts-arphic-ukai and others)")
def test_brush_card_set_takes_the_character_classes_in_turn_and_depends_on_the_index_only():
    x, y = cards.brush_card_set(20, seed=3)
    assert x.shape == (20, CROP_SIZE.height, CROP_SIZE.width, 3) and x.dtype == np.uint8
    k = len(cards.BRUSHED_CLASSES)
    assert list(y) == [cards.BRUSHED_CLASSES[i % k] for i in range(20)]
    tail_x, tail_y = cards.brush_card_set(5, seed=3, start=15)
    assert np.array_equal(tail_x, x[15:]) and np.array_equal(tail_y, y[15:])
    west = CLASS_NAMES.index("3z")
    plain = cards.drawn_face(west, (0.95, 0.93, 0.85), np.random.default_rng(9))
    brushed = cards.drawn_face(west, (0.95, 0.93, 0.85), np.random.default_rng(9), brush=True)
    assert not np.array_equal(plain, brushed)  # same draws up to the glyph, which the brush varies


@pytest.mark.parametrize("seed", range(6))
def test_an_ornate_bird_is_drawn_on_the_face_in_several_inks(seed):
    """Chinese sets' sparrows: a figure of a few inks covering a fair share of the face, none of it off the face,
    the same for the same seed."""
    from PIL import Image, ImageDraw

    def drawn(s: int) -> np.ndarray:
        w, h = cards._DRAW
        img = Image.new("RGB", (w, h), (255, 255, 255))
        cards._ornate_bird(ImageDraw.Draw(img), w, h, np.random.default_rng(s))
        return np.asarray(img)

    face = drawn(seed)
    ink = (face < 200).any(axis=2)
    assert 0.04 < ink.mean() < 0.45
    rows = np.nonzero(ink)[0]
    assert rows.max() - rows.min() > 0.5 * ink.shape[0]  # a figure from crest to tail, not a blot
    colours = {tuple(int(v) // 64 for v in px) for px in face[ink][:: max(1, int(ink.sum()) // 500)]}
    assert len(colours) >= 2
    assert np.array_equal(face, drawn(seed))


def test_brushed_birds_come_ornate_in_line_art_and_filled_and_plain_faces_keep_their_filled_bird(monkeypatch):
    drawn = []
    monkeypatch.setattr(cards, "_ornate_bird", lambda *a, **k: drawn.append("ornate"))
    monkeypatch.setattr(cards, "_bird", lambda *a, line_art=False: drawn.append("line" if line_art else "filled"))
    one_sou = CLASS_NAMES.index("1s")
    for s in range(60):
        cards.drawn_face(one_sou, (0.95, 0.93, 0.85), np.random.default_rng(s), fonts=(), brush=True)
    brushed = {k: drawn.count(k) for k in ("ornate", "line", "filled")}
    assert brushed["ornate"] > brushed["line"] > brushed["filled"] > 0, brushed
    drawn.clear()
    for s in range(20):
        cards.drawn_face(one_sou, (0.95, 0.93, 0.85), np.random.default_rng(s), fonts=())
    assert drawn == ["filled"] * 20


def _blank_row_runs(ink: np.ndarray) -> list[int]:
    """Lengths of the runs of rows without ink between a drawing's first and last inked rows."""
    rows = ink.any(axis=1)
    inked = np.flatnonzero(rows)
    runs, run = [], 0
    for has_ink in rows[inked[0] : inked[-1] + 1]:
        if not has_ink:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    return runs


@pytest.mark.skipif(not cards.cjk_fonts(), reason="no CJK font installed (fonts-arphic-ukai and others)")
@pytest.mark.parametrize("seed", range(4))
def test_a_lifted_top_stroke_floats_clear_of_the_rest_of_the_west_wind(seed):
    """Every font joins 西's top stroke to the strokes under it; Chinese sets write it apart. Lifted, a band of
    blank rows opens under the stroke, and no ink is lost or added beyond the stroke's widening."""
    from PIL import Image, ImageDraw

    for font in cards.cjk_fonts():
        mask = Image.new("L", (160, 160), 0)
        ImageDraw.Draw(mask).text((80, 80), "西", font=cards._sized(font, 80), fill=255, anchor="mm")
        before = np.asarray(mask)
        after = cards._lifted_top(before, 80.0, np.random.default_rng(seed))
        assert _blank_row_runs(before > 127) == [], font
        gaps = _blank_row_runs(after > 127)
        assert len(gaps) == 1 and gaps[0] >= 2, (font, gaps)  # one band, under the top stroke
        assert 0.9 * (before > 127).sum() < (after > 127).sum() < 1.4 * (before > 127).sum(), font
        assert np.array_equal(after, cards._lifted_top(before, 80.0, np.random.default_rng(seed)))


def test_a_glyph_without_ink_is_not_lifted():
    blank = np.zeros((40, 30), np.uint8)
    assert np.array_equal(cards._lifted_top(blank, 20.0, np.random.default_rng(0)), blank)


@pytest.mark.parametrize("seed", range(20))
def test_a_packed_six_of_dots_is_a_pair_apart_over_four_together(seed):
    """Chinese sets' 6 of dots: the pair at the top stands apart (a blank band of rows at least 3 % of the face
    under it), the four below it touch or nearly (no blank band among them over 2 %)."""
    from PIL import Image, ImageDraw

    w, h = cards._DRAW
    img = Image.new("RGB", (w, h), (255, 255, 255))
    rng = np.random.default_rng(seed)
    inks = (cards._INKS["green"], cards._INKS["red"], cards._INKS["blue"])
    cards._packed_six(ImageDraw.Draw(img), w, h, 0.12 * w, 0.1 * h, "ring", inks, (1.0, 1.0, 1.0), rng)
    ink = (np.asarray(img) < 200).any(axis=2)
    pair_gap, *among_four = _blank_row_runs(ink)
    assert pair_gap >= 0.03 * h
    assert all(run <= 0.02 * h for run in among_four)
    rows = np.flatnonzero(ink.any(axis=1))
    assert rows[0] >= 0.1 * h - 1 and rows[-1] <= 0.9 * h + 1  # inside the face's margins


def test_only_a_brushed_plain_six_of_dots_is_packed(monkeypatch):
    packed = []
    monkeypatch.setattr(cards, "_packed_six", lambda *a: packed.append(1))
    for name, brush, expected in [("6p", True, 1), ("6p", False, 0), ("4p", True, 0)]:
        packed.clear()
        cards.drawn_face(CLASS_NAMES.index(name), (0.95, 0.93, 0.85), np.random.default_rng(0), fonts=(), brush=brush)
        assert len(packed) == expected, (name, brush)


def test_way_up_cards_are_faces_of_every_kind_and_depend_on_the_index_only():
    x, y = cards.way_up_card_set(12, seed=5)
    assert x.shape == (12, CROP_SIZE.height, CROP_SIZE.width, 3) and x.dtype == np.uint8
    assert BACK_CLASS not in y
    if cards.cjk_fonts():  # every third a brushed face
        assert all(y[i] in cards.BRUSHED_CLASSES for i in range(2, 12, 3))
    tail_x, tail_y = cards.way_up_card_set(4, seed=5, start=8)
    assert np.array_equal(tail_x, x[8:]) and np.array_equal(tail_y, y[8:])
    with pytest.raises(ValueError, match="face class"):
        cards.way_up_card(BACK_CLASS, np.random.default_rng(0))


@pytest.mark.parametrize("face_down", [False, True])
def test_a_band_over_the_face_is_the_same_tile_seen_from_its_other_edge(face_down):
    """``band_over``: the band (front colour, then back colour, outward) over the face, the face still upright."""
    face = np.zeros((40, 30, 3), np.float32)
    face[:10] = 1.0  # a bright top: which way up the face is
    front, back = (0.9, 0.9, 0.8), (0.1, 0.4, 0.9)
    under, _ = cards._tile_image(face, 30, 40, 8, 0.5, front, back, np.random.default_rng(1), face_down=face_down)
    over, _ = cards._tile_image(
        face, 30, 40, 8, 0.5, front, back, np.random.default_rng(1), face_down=face_down, band_over=True
    )
    assert over.shape == under.shape == (48, 30, 3)
    assert np.allclose(over[:8][::-1, ::-1], under[40:])  # the band, mirrored to the top
    if not face_down:
        assert over[8:18].mean() > over[38:48].mean()  # the face's bright top is still at its top
    assert np.allclose(over[0, 15], np.asarray(front if face_down else back) * 0.85)  # outermost: the other colour
