"""The corrections store on disk: bounded, oldest frames first, and exported without holding its lock."""

from __future__ import annotations

import io
import zipfile

import pytest

from device.table.corrections import CorrectionStore, FrameTile
from engine.tiles import Tile

TILE = FrameTile(Tile.parse("1m"), (10, 20, 50, 80), 0.9)


def corrected_frames(store: CorrectionStore, count: int, size: int = 1000) -> list[str]:
    """``count`` frames read and corrected, each with a JPEG of ``size`` bytes; their ids in that order."""
    ids = []
    for i in range(count):
        fid = store.add_frame(b"\xff\xd8" + bytes([i]) * (size - 2), 400, 300, [TILE])
        store.correct(fid, 0, Tile.parse("2m"))
        ids.append(fid)
    return ids


def saved(store: CorrectionStore) -> set[str]:
    return {p.stem for p in (store.root / "images").glob("*.jpg")}


@pytest.mark.parametrize(
    ("max_frames", "max_bytes", "kept"),
    [
        (3, 10**9, 3),  # the count bound
        (100, 2500, 2),  # the bytes bound: two 1,000-byte frames fit in 2,500
        (100, 10**9, 5),  # within both: all kept
    ],
)
def test_the_store_keeps_the_newest_frames_within_its_bounds(tmp_path, max_frames, max_bytes, kept):
    store = CorrectionStore(tmp_path, max_frames=max_frames, max_bytes=max_bytes)
    ids = corrected_frames(store, 5)
    assert saved(store) == set(ids[-kept:])
    assert {p.stem for p in (tmp_path / "labels").glob("*.txt")} == set(ids[-kept:])


def test_the_bounds_hold_across_a_restart(tmp_path):
    corrected_frames(CorrectionStore(tmp_path), 4)
    store = CorrectionStore(tmp_path, max_frames=3)
    newest = corrected_frames(store, 1)
    assert len(saved(store)) == 3 and newest[0] in saved(store)


def test_the_export_packs_frames_without_holding_the_stores_lock(tmp_path, monkeypatch):
    store = CorrectionStore(tmp_path)
    ids = corrected_frames(store, 3)
    locked_while_packing = []
    for method in ("write", "writestr"):
        original = getattr(zipfile.ZipFile, method)

        def spy(self, name, *args, _original=original, **kwargs):
            if "images/" in str(name):
                locked_while_packing.append(store._lock.locked())
            return _original(self, name, *args, **kwargs)

        monkeypatch.setattr(zipfile.ZipFile, method, spy)
    data = store.export_yolo()
    assert locked_while_packing == [False, False, False]
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert sorted(n for n in names if n.startswith("images/")) == sorted(f"images/{fid}.jpg" for fid in ids)


def test_the_export_streams_piece_by_piece(tmp_path):
    store = CorrectionStore(tmp_path)
    corrected_frames(store, 3, size=50_000)
    chunks = [c for c in store.export_yolo_chunks() if c]
    assert len(chunks) >= 4  # the header files, then one piece per frame
    assert max(map(len, chunks)) < 2 * 50_000
    assert zipfile.ZipFile(io.BytesIO(b"".join(chunks))).testzip() is None
