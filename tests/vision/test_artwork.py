"""The CC0 tile artwork ships inside the project: a plain clone renders scenes with nothing beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.read.labels import BACK_CLASS, CLASS_NAMES
from vision.synth import art

PACKAGE = Path(art.__file__).resolve().parent
VARIANTS = ("Regular", "Black")


def test_default_art_is_inside_the_package():
    assert art.DEFAULT_ART.resolve().is_relative_to(PACKAGE)


def test_art_dir_defaults_to_the_shipped_artwork(monkeypatch):
    monkeypatch.delenv("JANTAKU_TILE_ART", raising=False)
    assert art.art_dir() == art.DEFAULT_ART


def test_environment_overrides_and_a_folder_without_art_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("JANTAKU_TILE_ART", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=str(tmp_path)):
        art.art_dir()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_class_has_its_glyph(variant):
    for class_id in [*range(len(CLASS_NAMES)), BACK_CLASS]:
        rgba = art.glyph(variant, class_id, str(art.DEFAULT_ART))
        assert rgba.shape == (2 * art.FACE_SIZE[1], 2 * art.FACE_SIZE[0], 4)


def test_only_what_the_renderer_and_the_demo_read_ships():
    glyphs = {f"{art.art_name(c)}.png" for c in [*range(len(CLASS_NAMES)), BACK_CLASS]}
    for variant, wanted in [("Regular", glyphs | {"Front.png"}), ("Black", glyphs)]:  # the demo draws on Front
        shipped = {p.name for p in (art.DEFAULT_ART / "Export" / variant).iterdir()}
        assert shipped == wanted, variant
    size = sum(p.stat().st_size for p in art.DEFAULT_ART.rglob("*") if p.is_file())
    assert size < 15 * 2**20


@pytest.mark.parametrize(("name", "words"), [
    ("LICENSE.md", ["public domain", "creativecommons.org/publicdomain/zero/1.0"]),
    ("README.md", ["CC0", "github.com/FluffyStuff/riichi-mahjong-tiles"]),
])  # fmt: skip
def test_licence_and_source_ship_with_it(name, words):
    text = (art.DEFAULT_ART / name).read_text()
    for word in words:
        assert word in text


@pytest.mark.parametrize("tile", ["1m", "0p", "7z", "back"])
def test_the_demo_draws_its_tiles_from_the_shipped_artwork(tile):
    from vision.synth.table_render import tile_art

    img = tile_art(tile, (51, 68))
    assert img.shape == (68, 51, 4) and img[:, :, 3].max() == 255  # a whole opaque tile, not an empty patch
