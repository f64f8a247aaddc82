"""``jantaku-lab conformance wins`` and ``bench score`` (:mod:`device.lab.hands`)."""

from __future__ import annotations

import gzip
import json

import pytest

from device.lab.cli import main
from tests.shared_data import TENHOU, TENHOU_MISSING

WINS = TENHOU / "wins.jsonl.gz"
needs_wins = pytest.mark.skipif(not WINS.is_file(), reason=TENHOU_MISSING)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- conformance wins --------------------------------------------------------------------------------------------


@needs_wins
def test_conformance_all_real_wins_agree(capsys):
    code, out, _ = run(capsys, "conformance", "wins", str(WINS), "--json")
    report = json.loads(out)
    assert report["disagreements"] == []
    assert report["checked"] == report["agree"] == 2139
    assert report["skipped"] == 5
    assert code == 0


def _records() -> list[dict]:
    with gzip.open(WINS, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@needs_wins
def test_conformance_reports_disagreements(tmp_path, capsys):
    records = _records()
    tampered = dict(records[1], ten="20,8000,0")  # the server said 7,800
    sanma = next(r for r in records if r["go_type"] & 0x10)
    path = tmp_path / "some.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (records[0], tampered, sanma)) + "\n")
    code, out, _ = run(capsys, "conformance", "wins", str(path))
    assert code == 1
    assert out.splitlines()[0] == ("wins: 1/2 agree (50.00%) on han, fu, points and yaku; 1 three-player skipped")
    assert "points 7800 != 8000" in out
    code, out, _ = run(capsys, "conformance", "wins", str(path), "--json")
    report = json.loads(out)
    assert (report["checked"], report["agree"], report["skipped"]) == (2, 1, 1)
    assert report["disagreements"][0]["record"] == tampered


def test_conformance_bad_file(tmp_path, capsys):
    code, _, err = run(capsys, "conformance", "wins", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    code, _, err = run(capsys, "conformance", "wins", str(bad))
    assert code == 2 and "not JSON" in err


# --- bench score -------------------------------------------------------------------------------------------------


@needs_wins
def test_bench_score_runs(tmp_path, capsys):
    path = tmp_path / "few.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _records()[:40]) + "\n")
    code, out, _ = run(capsys, "bench", "score", str(path), "--rounds", "1", "--json")
    d = json.loads(out)
    assert code == 0 and d["hands"] == 40
    assert d["ratio"] > 0 and d["ratio_to_estimate_alone"] > 0


@pytest.mark.slow
@needs_wins
def test_bench_score_ratio(capsys):
    code, out, _ = run(capsys, "bench", "score", "--json")
    assert code == 0 and json.loads(out)["ratio"] <= 1.2
