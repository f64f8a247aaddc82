"""The table's PIN and join code from the command line: the PIN from a file (never printed), ``jantaku token``,
``jantaku card``, and a real ``jantaku serve`` killed with SIGKILL that logs nobody out."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from device.cli import main
from device.commands.access import table_pin
from device.table.access import TableAccess
from tests.serve_command import serve_args, takes_ctrl_c

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("explicit", "configured", "file_text", "pin", "where"),
    [
        ("482913", "", None, "482913", "--pin"),
        (None, "975318", "111111", "975318", "config file"),
        (None, "", "024680\n", "024680", "pin_file"),
        (None, "", None, None, "pin_file"),  # no file: made, with a random PIN
    ],
)
def test_where_the_pin_comes_from(tmp_path, explicit, configured, file_text, pin, where):
    pin_file = tmp_path / "data" / "pin"
    if file_text is not None:
        pin_file.parent.mkdir()
        pin_file.write_text(file_text)
    got, said = table_pin(explicit, configured, pin_file)
    assert got == pin if pin else (len(got) == 6 and got.isdigit() and pin_file.read_text().strip() == got)
    assert got not in said and (where in said or str(pin_file) in said)
    if file_text is None and pin is None:
        assert pin_file.stat().st_mode & 0o777 == 0o600  # the owner's alone
        assert table_pin(None, "", pin_file)[0] == got  # kept: the same PIN next start


def test_a_pin_file_that_will_not_do_is_one_line(tmp_path, capsys):
    pin_file = tmp_path / "pin"
    pin_file.write_text("12\n")
    code = main(["serve", "--port", "0", "--db", str(tmp_path / "t.db"), "--pin-file", str(pin_file)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(f"{pin_file}: the table PIN is 6 to 12 digits\n"), err


def make_table_db(path: Path) -> str:
    access = TableAccess(path)
    token = access.join_token()
    access.close()
    return token


def test_token_show_and_rotate(tmp_path, capsys):
    db = tmp_path / "t.db"
    old = make_table_db(db)
    assert main(["token", "show", "--db", str(db), "--name", "jantaku.local"]) == 0
    assert capsys.readouterr().out.strip() == f"http://jantaku.local:8000/join/{old}"
    assert main(["token", "rotate", "--db", str(db), "--name", "jantaku.local"]) == 0
    new = capsys.readouterr().out.strip().splitlines()[-1].rsplit("/", 1)[1]
    access = TableAccess(db)
    assert new != old and access.is_join_token(new) and not access.is_join_token(old)
    access.close()


def test_token_without_a_table_database_is_one_line(tmp_path, capsys):
    assert main(["token", "show", "--db", str(tmp_path / "none.db")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("suffix", ["pdf", "svg", "png"])
def test_the_table_card_carries_the_join_code_and_the_address(tmp_path, capsys, suffix):
    db = tmp_path / "t.db"
    token = make_table_db(db)
    out = tmp_path / f"card.{suffix}"
    assert main(["card", "--out", str(out), "--db", str(db), "--name", "jantaku.local"]) == 0
    data = out.read_bytes()
    if suffix == "pdf":
        assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
        assert b"(http://jantaku.local:8000) Tj" in data
        xref = int(data.rsplit(b"startxref\n", 1)[1].split()[0])
        assert data[xref:].startswith(b"xref")  # the offsets a reader seeks by are right
    elif suffix == "svg":
        assert b"http://jantaku.local:8000</text>" in data
    else:
        assert data.startswith(b"\x89PNG")
    assert decoded(suffix, data) == f"http://jantaku.local:8000/join/{token}"


def decoded(suffix: str, data: bytes) -> str:
    """The QR code on a card, read by OpenCV: the PNG as it is; the PDF's and the SVG's squares drawn again."""
    import cv2
    import numpy as np

    if suffix == "png":
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    else:
        if suffix == "pdf":
            squares = [tuple(map(float, m)) for m in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) [\d.]+ re", data)]
            squares = [(x, -y, w) for x, y, w in squares]  # PDF's y runs up
        else:
            found = re.findall(rb'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', data)
            squares = [tuple(map(float, m)) for m in found]
        left, top, size = min(s[0] for s in squares), min(s[1] for s in squares), squares[0][2]
        cells = round((max(s[0] for s in squares) - left) / size) + 1
        image = np.full((cells + 8, cells + 8), 255, np.uint8)
        for x, y, _w in squares:
            image[round((y - top) / size) + 4, round((x - left) / size) + 4] = 0
        image = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    # the Aruco-based detector: the classic one fails on some codes drawn larger than 5 px a module
    return cv2.QRCodeDetectorAruco().detectAndDecode(image)[0]


def test_a_card_of_another_kind_is_one_line(tmp_path, capsys):
    db = tmp_path / "t.db"
    make_table_db(db)
    assert main(["card", "--out", str(tmp_path / "card.docx"), "--db", str(db)]) == 2
    assert "expected a .pdf, .svg or .png" in capsys.readouterr().err


# --- kill -9 and a restart: a joined phone still writes -----------------------------------------------------------


def start_serve(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    (tmp_path / "pin").write_text("482913\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", *serve_args(tmp_path / "g.db", pin_file=tmp_path / "pin")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=takes_ctrl_c,
    )
    line = proc.stdout.readline()
    assert line.startswith("Jantaku table: http://127.0.0.1:"), line
    return proc, line.split()[2]


def test_after_kill_9_and_a_restart_a_joined_phone_still_writes(tmp_path):
    jar = http.cookiejar.CookieJar()
    phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    proc, url = start_serve(tmp_path)
    try:
        page = phone.open(url + "join", timeout=10).read().decode()
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        token = TableAccess(tmp_path / "g.db").join_token()  # what the QR code carries
        phone.open(url + f"join/{token}", timeout=10).read()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    proc, url = start_serve(tmp_path)  # a new process, a new port; the same database
    try:

        def chombo(seat: int) -> dict:
            request = urllib.request.Request(
                url + "api/game/chombo",
                data=json.dumps({"seat": seat}).encode(),
                method="POST",
                headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
            )
            return json.load(phone.open(request, timeout=10))

        for cookie in jar:  # the cookie names the old port's host; the new server is the same host
            cookie.port = None
        started = time.monotonic()
        assert chombo(2)["result"]["scores"][2] < 25000  # written without joining again
        assert time.monotonic() - started < 10
        stranger = urllib.request.build_opener()
        with pytest.raises(urllib.error.HTTPError) as refused:
            stranger.open(
                urllib.request.Request(
                    url + "api/game/chombo", data=b"{}", method="POST", headers={"Content-Type": "application/json"}
                ),
                timeout=10,
            )
        assert refused.value.code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
