"""Memory on a 2 GB Pi: a photo with too many pixels is refused from its header (413) before it is decoded, photos are
decoded one at a time, and the photos held for corrections are capped by bytes.

``test_peak_rss_of_the_server_under_the_photo_attacks`` (slow) is the measurement: a real threaded server in its own
process over loopback, its peak RSS (``VmHWM``, reset before each attack) while three 50 MP PNGs of about 143 KB
each are read at once, three of 39.7 MP and three of 16 MP, and its RSS after sixteen 12 MP photos of 10 MB each;
run it with ``-m slow -s`` to see the figures.
"""

from __future__ import annotations

import http.client
import io
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.web.conftest import Phone, jpeg

ROOT = Path(__file__).resolve().parents[2]


def png_header(width: int, height: int) -> bytes:
    """The first bytes of a PNG that says it is ``width`` x ``height`` (no body: it is refused before one is read)."""
    return b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"\x08\x02\0\0\0"


def jpeg_header(width: int, height: int) -> bytes:
    return b"\xff\xd8\xff\xc0\0\x11\x08" + height.to_bytes(2, "big") + width.to_bytes(2, "big") + b"\x03" + b"\0" * 20


@pytest.mark.parametrize(
    ("case", "data", "most"),
    [
        ("50 MP PNG", png_header(7072, 7072), "16 MP for a PNG"),
        ("16.1 MP PNG", png_header(4000, 4025), "16 MP for a PNG"),
        ("a 65535-wide PNG sliver", png_header(65535, 300), "16 MP for a PNG"),
        ("50 MP JPEG", jpeg_header(8165, 6124), "40 MP"),
        ("40.1 MP JPEG", jpeg_header(8000, 5010), "40 MP"),
    ],
)
def test_a_photo_with_too_many_pixels_is_a_413_before_decoding(player, detector, case, data, most):
    r = player.post("/api/read", data={"image": (io.BytesIO(data), "big.png")}, content_type="multipart/form-data")
    assert r.status_code == 413, case
    assert r.json["error"].endswith(f"is too many pixels to read (at most {most}): send a smaller photo")
    assert detector.calls == 0


def test_the_photos_held_for_corrections_are_capped_by_bytes(player, service):
    service.corrections.keep_bytes = 3 * 1024 * 1024
    photo = jpeg(1200, 900, 95)  # about 1 MB of noise
    ids = []
    for _ in range(8):
        r = player.post("/api/read", data={"image": (io.BytesIO(photo), "p.jpg")}, content_type="multipart/form-data")
        assert r.status_code == 200
        ids.append(r.json["frame_id"])
    assert service.corrections.held_bytes <= 3 * 1024 * 1024
    assert service.corrections.summary()["held"] == 3 * 1024 * 1024 // len(photo)
    fix = {"index": 0, "tile": "2m"}
    assert player.post("/api/corrections", json={"frame_id": ids[-1], **fix}).status_code == 200  # the newest
    assert player.post("/api/corrections", json={"frame_id": ids[0], **fix}).status_code == 404  # let go


def test_photos_sent_at_once_are_decoded_one_at_a_time(app, service, monkeypatch):
    from device.table import photos as module

    decoding, most = [0], [0]
    real = module.decode_photo

    def counted(data, max_side):
        decoding[0] += 1
        most[0] = max(most[0], decoding[0])
        try:
            time.sleep(0.2)  # long enough for the others to arrive
            return real(data, max_side)
        finally:
            decoding[0] -= 1

    monkeypatch.setattr(module, "decode_photo", counted)
    phones = [Phone(app.test_client()) for _ in range(3)]
    photo = jpeg()
    codes = []

    def read(phone):
        r = phone.post("/api/read", data={"image": (io.BytesIO(photo), "p.jpg")}, content_type="multipart/form-data")
        codes.append(r.status_code)

    threads = [threading.Thread(target=read, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert codes == [200] * 3 and most == [1]


# --- the measurement ------------------------------------------------------------------------------------------------

SERVER = """
import sys
from device.commands.site import Site
from device.table.service import TableService
from vision.read.pipeline import Reader
from web import create_app

class FindsNothing:  # what is measured is the upload, its decoding and what is held, not a network
    def detect(self, image):
        return []

service = TableService(pin="246813", photo_reader=Reader.around(FindsNothing()))
site = Site(create_app(None, service), "127.0.0.1", 0, threads=8)
site.start()
print(site.port, flush=True)
sys.stdin.read()
"""


class Server:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"},
        )
        self.port = int(self.proc.stdout.readline())

    def mb(self, field: str) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(rf"{field}:\s+(\d+) kB", status).group(1)) / 1024

    def reset_peak(self) -> None:
        Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")  # VmHWM back to the RSS now

    def read(self, photo: bytes) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", "/join")
        r = conn.getresponse()
        page = r.read().decode()
        cookie = r.getheader("Set-Cookie").split(";", 1)[0]
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="p"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode()
            + photo
            + f"\r\n--{boundary}--\r\n".encode()
        )
        conn.request(
            "POST",
            "/api/read",
            body,
            {"Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        r = conn.getresponse()
        r.read()
        return r.status

    def at_once(self, photos: list[bytes]) -> list[int]:
        codes = [0] * len(photos)
        barrier = threading.Barrier(len(photos))

        def send(i: int) -> None:
            barrier.wait()
            codes[i] = self.read(photos[i])

        threads = [threading.Thread(target=send, args=(i,)) for i in range(len(photos))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        return codes

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.kill()
        self.proc.wait(10)


def flat_png(side: int) -> bytes:
    image = np.zeros((side, side, 3), np.uint8)
    image[::97] = 200  # a few lines: it compresses to about 143 KB at 50 MP
    return cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])[1].tobytes()


@pytest.mark.slow
def test_peak_rss_of_the_server_under_the_photo_attacks():
    pngs = {"50 MP": flat_png(7071), "39.7 MP": flat_png(6300), "16 MP": flat_png(4000)}
    noise = np.random.default_rng(1).integers(0, 255, (3000, 4000, 3), dtype=np.uint8)
    photo = cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    server = Server()
    try:
        print(f"server at start: RSS {server.mb('VmRSS'):.0f} MB")
        for name, png in pngs.items():
            server.reset_peak()
            codes = server.at_once([png] * 3)
            print(
                f"three {name} PNGs of {len(png) // 1024} KB at once: answers {codes}, "
                f"peak RSS {server.mb('VmHWM'):.0f} MB, after {server.mb('VmRSS'):.0f} MB"
            )
        server.reset_peak()
        codes = [server.read(photo) for _ in range(16)]
        print(
            f"sixteen 12 MP photos of {len(photo) / 2**20:.1f} MB one after another: answers {set(codes)}, "
            f"peak RSS {server.mb('VmHWM'):.0f} MB, after {server.mb('VmRSS'):.0f} MB"
        )
    finally:
        server.close()
