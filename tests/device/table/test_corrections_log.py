"""A torn ``corrections.jsonl`` (a power cut mid-line) is repaired when the table starts, never stops it; each
correction is synced to the disk before the phone is told."""

from __future__ import annotations

import json
import logging

import pytest

from device.table.corrections import CorrectionStore, read_corrections_log
from tests.web.test_writes import Table

A = {"frame_id": "20261206-031700-aaaa", "index": 0, "before": "1m", "after": "2m", "at": 1.0}
B = {"frame_id": "20261206-031701-bbbb", "index": 3, "before": "5p", "after": "0p", "at": 2.0}


def line(fix: dict) -> bytes:
    return json.dumps(fix).encode() + b"\n"


@pytest.mark.parametrize(
    ("case", "log", "kept", "torn"),
    [
        ("whole", line(A) + line(B), [A, B], b""),
        ("cut mid-line", line(A) + line(B)[:17], [A], line(B)[:17] + b"\n"),
        ("cut before its newline", line(A) + line(B)[:-1], [A, B], b""),
        ("cut mid-character", line(A) + '{"after": "東'.encode()[:-1], [A], '{"after": "東'.encode()[:-1] + b"\n"),
        ("a line that is no correction", line(A) + b'{"frame": 1}\n' + line(B), [A, B], b'{"frame": 1}\n'),
        ("zeros after a power cut", line(A) + b"\0" * 40, [A], b"\0" * 40 + b"\n"),
    ],
)
def test_a_torn_log_keeps_its_whole_lines_and_sets_the_rest_aside(tmp_path, caplog, case, log, kept, torn):
    path = tmp_path / "corrections.jsonl"
    path.write_bytes(log)
    with caplog.at_level(logging.WARNING, "device.table.corrections"):
        store = CorrectionStore(tmp_path)
    assert [c.to_dict() for c in store.corrections] == kept, case
    assert path.read_bytes() == b"".join(line(fix) for fix in kept)  # repaired: the next append starts a line
    aside = tmp_path / "corrections.jsonl.torn"
    assert (aside.read_bytes() if aside.exists() else b"") == torn
    assert len(caplog.records) == (log != line(A) + line(B))
    assert [c.to_dict() for c in read_corrections_log(path)] == kept  # and it reads the same again, silently


def test_serve_starts_on_a_torn_log(tmp_path):
    corrections = tmp_path / "table" / "corrections"
    corrections.mkdir(parents=True)
    (corrections / "corrections.jsonl").write_bytes(line(A) + line(B)[:25])
    table = Table(tmp_path)  # it starts: it answers, with the one whole correction
    try:
        assert json.loads(table.opener.open(table.url + "api/corrections", timeout=10).read())["corrections"] == 1
    finally:
        table.kill()
    assert (corrections / "corrections.jsonl.torn").read_bytes() == line(B)[:25] + b"\n"


def test_each_correction_is_synced_before_it_is_answered(tmp_path, monkeypatch):
    from device.table import corrections as module
    from engine.tiles import Tile

    synced = []
    real_fsync = module.os.fsync
    monkeypatch.setattr(module.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    store = CorrectionStore(tmp_path)
    fid = store.add_frame(b"jpeg", 400, 300, [module.FrameTile(Tile.parse("1m"), (10, 20, 50, 80), 0.9)])
    store.correct(fid, 0, Tile.parse("2m"))
    assert len(synced) == 3  # the image, its labels, the log line
