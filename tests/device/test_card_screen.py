"""``jantaku card --screen``: the table card full-screen on the HDMI screen's framebuffer, and one line (nothing
drawn, exit 0) when no screen is attached. A fake ``/sys/class/graphics/fb0`` and a fake ``/dev/fb0`` file stand for
the kernel's; the pixels written are decoded here, independently of the code that wrote them, and OpenCV reads the
join URL back from the QR code on them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import device.screen
from device.cli import main
from device.table.access import TableAccess


def fake_screen(tmp_path: Path, monkeypatch, width: int, height: int, bpp: int, stride: int, *, pan: int = 1,
                connectors: dict[str, str] | None = None) -> Path:  # fmt: skip
    """A framebuffer of ``width`` x ``height`` shown pixels (``pan`` times as tall virtually), a file of its bytes."""
    sys_root = tmp_path / "sys"
    info = sys_root / "class" / "graphics" / "fb0"
    info.mkdir(parents=True)
    (info / "virtual_size").write_text(f"{width},{height * pan}\n")
    (info / "bits_per_pixel").write_text(f"{bpp}\n")
    (info / "stride").write_text(f"{stride}\n")
    (info / "modes").write_text(f"U:{width}x{height}p-0\n")
    for name, status in (connectors or {}).items():
        (sys_root / "class" / "drm" / f"card1-{name}").mkdir(parents=True)
        (sys_root / "class" / "drm" / f"card1-{name}" / "status").write_text(status + "\n")
    monkeypatch.setattr(device.screen, "SYS", sys_root)
    fb = tmp_path / "dev" / "fb0"
    fb.parent.mkdir()
    fb.write_bytes(b"\x00" * stride * height * pan)
    return fb


def shown(data: bytes, width: int, height: int, bpp: int, stride: int) -> np.ndarray:
    """The grey picture the framebuffer's bytes show (RGB565 at 16 bits; B, G, R, X bytes at 32; B, G, R at 24)."""
    lines = np.frombuffer(data, np.uint8)[: height * stride].reshape(height, stride)[:, : width * bpp // 8]
    if bpp == 16:
        v = lines.copy().view("<u2").astype(np.uint32)
        bgr = np.stack([(v & 0x1F) << 3, ((v >> 5) & 0x3F) << 2, (v >> 11) << 3], axis=2)
    else:
        bgr = lines.reshape(height, width, bpp // 8)[..., :3].astype(np.uint32)
    return cv2.cvtColor(bgr.astype(np.uint8), cv2.COLOR_BGR2GRAY)


def table_db(tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "t.db"
    access = TableAccess(db)
    token = access.join_token()
    access.close()
    return db, token


@pytest.mark.parametrize(
    ("width", "height", "bpp", "stride", "pan"),
    [
        (1920, 1080, 16, 3840, 1),  # a TV at 16 bits, as a Pi's KMS framebuffer comes
        (1280, 720, 32, 5120, 2),  # 32 bits, a virtual screen twice as tall (panning): drawn on the shown part
        (800, 480, 32, 3328, 1),  # the 7" touch screen, its lines padded to 3328 bytes
        (480, 800, 24, 1440, 1),  # a screen turned upright, 24 bits
    ],
)
def test_the_card_fills_the_screen_and_its_code_joins(tmp_path, monkeypatch, capsys, width, height, bpp, stride, pan):
    fb = fake_screen(tmp_path, monkeypatch, width, height, bpp, stride, pan=pan, connectors={"HDMI-A-1": "connected"})
    db, token = table_db(tmp_path)
    args = ["card", "--screen", "--fb", str(fb), "--db", str(db), "--name", "jantaku.local"]
    assert main(args) == 0
    assert capsys.readouterr().out == f"jantaku card: shown on {fb} ({width}x{height}, {bpp} bits a pixel)\n"
    data = fb.read_bytes()
    assert len(data) == stride * height * pan  # the device's size: written in place, not grown
    grey = shown(data, width, height, bpp, stride)
    # (OpenCV's ArUco-based QR reader: its classic one misses codes of more than 5 pixels a module)
    assert cv2.QRCodeDetectorAruco().detectAndDecode(grey)[0] == f"http://jantaku.local:8000/join/{token}"
    dark = grey < 128
    rows, cols = np.nonzero(dark)
    assert cols.max() - cols.min() > width / 2 or rows.max() - rows.min() > height / 2  # full-screen, not a stamp
    assert dark.mean() < 0.5  # black on white


@pytest.mark.parametrize(
    ("fb_exists", "connectors", "said"),
    [
        (False, None, "no screen attached ({fb} not found)"),
        (
            True,
            {"HDMI-A-1": "disconnected", "HDMI-A-2": "disconnected"},
            "no screen attached (nothing connected to HDMI-A-1, HDMI-A-2)",
        ),
    ],
)  # fmt: skip
def test_without_a_screen_the_card_is_one_line_and_nothing_drawn(tmp_path, monkeypatch, capsys, fb_exists, connectors,
                                                                 said):  # fmt: skip
    fb = fake_screen(tmp_path, monkeypatch, 1920, 1080, 32, 7680, connectors=connectors)
    if not fb_exists:
        fb.unlink()
    before = fb.read_bytes() if fb_exists else None
    # no table database either: a Pi booting without a screen skips the card before it looks for one
    assert main(["card", "--screen", "--fb", str(fb), "--db", str(tmp_path / "none.db")]) == 0
    out = capsys.readouterr().out
    assert out == f"jantaku card: {said.format(fb=fb)}: the card is not shown\n"
    assert (fb.read_bytes() if fb_exists else None) == before


@pytest.mark.parametrize(
    ("bpp", "stride", "message"),
    [
        (8, 1920, "8 bits per pixel (16, 24 or 32 are drawn)"),
        (32, 1000, "a 1920x1080 screen with 1000 bytes a line does not add up"),
    ],
)
def test_a_screen_that_cannot_be_drawn_on_is_one_line(tmp_path, monkeypatch, capsys, bpp, stride, message):
    fb = fake_screen(tmp_path, monkeypatch, 1920, 1080, bpp, stride)
    db, _ = table_db(tmp_path)
    assert main(["card", "--screen", "--fb", str(fb), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err == f"jantaku card: --screen: {fb}: {message}\n"


def test_card_asks_for_where_to_put_it(tmp_path, capsys):
    db, _ = table_db(tmp_path)
    assert main(["card", "--db", str(db)]) == 2
    assert capsys.readouterr().err == (
        "jantaku card: give --out FILE (a card to print) or --screen (the card on the HDMI screen)\n"
    )
