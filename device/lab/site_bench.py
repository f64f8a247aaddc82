"""The site's benches: ``jantaku-lab bench soak`` and ``jantaku-lab bench photo``.

    jantaku-lab bench soak [--clients 16] [--seconds 600] [--rate 4] [--json]
    jantaku-lab bench photo [--image JPEG] [--model ONNX] [--runs 5] [--json]

``bench soak`` starts the site on localhost, opens ``--clients`` event streams, and for ``--seconds`` pushes
updates the way a table does (camera readings from the loop, game changes from a phone over HTTP, with
scoring requests beside them); each client measures how long every update took from publication to arrival.
It passes when the 95th percentile is under 250 ms and no client lost an update.

``bench photo`` posts a 12 MP JPEG to ``POST /api/read`` over HTTP, as a phone does, and measures the time
from upload to score; it passes when the median is under 1.5 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.cli import UserError
from device.commands.serve import photo_reader
from device.commands.site import Site, site_threads


def register(commands: Any) -> None:
    s = commands.bench.add_parser("soak", help="N phones on the event stream: update latency (p95 < 250 ms)")
    s.add_argument("--clients", type=int, default=16)
    s.add_argument("--seconds", type=float, default=600.0, help="how long (default 10 minutes)")
    s.add_argument("--rate", type=float, default=4.0, help="updates per second")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=soak_command)

    ph = commands.bench.add_parser("photo", help="a 12 MP photo to its score over HTTP (median < 1.5 s)")
    ph.add_argument("--image", default=None, help="a JPEG (default: a generated 4000x3000 photo of a hand)")
    ph.add_argument("--model", default=None, help="detector ONNX (default: models/tiles.onnx)")
    ph.add_argument("--runs", type=int, default=5)
    ph.add_argument("--json", action="store_true")
    ph.set_defaults(func=photo_command)


@dataclass
class StreamClient:
    """One phone's event stream: reconnects with Last-Event-ID, records each update's latency."""

    host: str
    port: int
    stop: threading.Event
    latencies: list[float] = field(default_factory=list)
    updates: int = 0
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    last_id: str | None = None

    def run(self) -> None:
        while not self.stop.is_set():
            conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                headers = {"Accept": "text/event-stream"}
                if self.last_id is not None:
                    headers["Last-Event-ID"] = self.last_id
                conn.request("GET", "/events", headers=headers)
                resp = conn.getresponse()
                if resp.status != 200:
                    self.errors.append(f"HTTP {resp.status}")
                    time.sleep(1)
                    continue
                self._read(resp)
            except (OSError, http.client.HTTPException) as exc:
                if not self.stop.is_set():
                    self.errors.append(f"{type(exc).__name__}: {exc}")
            finally:
                conn.close()
            if not self.stop.is_set():
                self.reconnects += 1

    def _read(self, resp: Any) -> None:
        event, data, ident = "", "", None
        while not self.stop.is_set():
            line = resp.fp.readline()
            if not line:
                return
            now = time.time()
            text = line.decode("utf-8").rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: "):
                data += text[6:]
            elif text.startswith("id: "):
                ident = text[4:]
            elif text == "":
                if ident is not None:
                    self.last_id = ident
                if event in ("camera", "state") and data:
                    at = json.loads(data).get("at")
                    if at is not None:
                        self.latencies.append(now - at)
                        self.updates += 1
                event, data, ident = "", "", None


class Phone:
    """A phone over HTTP with a cookie: joins with the PIN and sends the CSRF token, as the page does."""

    def __init__(self, host: str, port: int, pin: str):
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.cookie = ""
        page = self.request("GET", "/join")[1].decode()
        marker = 'name="csrf-token" content="'
        self.token = page.split(marker, 1)[1].split('"', 1)[0]
        body = f"pin={pin}&csrf_token={self.token}".encode()
        status, _ = self.request("POST", "/join", body, {"Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            raise RuntimeError(f"could not join the table (HTTP {status})")

    def request(self, method: str, url: str, body: bytes | None = None, headers: dict | None = None):
        h = {"Cookie": self.cookie} if self.cookie else {}
        h.update(headers or {})
        self.conn.request(method, url, body=body, headers=h)
        resp = self.conn.getresponse()
        data = resp.read()
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return resp.status, data

    def post_json(self, url: str, payload: dict) -> int:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.token}
        return self.request("POST", url, json.dumps(payload).encode(), headers)[0]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)
    10
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def soak(clients: int = 16, seconds: float = 600.0, rate: float = 4.0, heartbeat: float = 15.0) -> dict[str, Any]:
    """Run the soak and return its figures (see the module doc)."""
    import numpy as np

    from device.table.service import TableService
    from engine.tiles import Tile
    from vision.read.detector import FakeDetector, laid_in_rows
    from vision.read.pipeline import Reader
    from web import create_app

    pin = "258025"
    service = TableService(pin=pin, max_streams=max(clients, 1) + 4)
    # every simulated phone comes from this machine's one address: allow it all their streams and connections
    app = create_app(
        {
            "JANTAKU_HEARTBEAT_S": heartbeat,
            "JANTAKU_STREAMS_PER_ADDRESS": clients,
            "JANTAKU_STREAMS_RESERVED": 1,
            "JANTAKU_SESSIONS_PER_ADDRESS": clients,
            "JANTAKU_JOINS_PER_MINUTE": clients,
        },
        service,
    )
    site = Site(app, "127.0.0.1", 0, threads=site_threads(service), per_address=clients + 8)
    site.start()
    stop = threading.Event()
    streams = [StreamClient("127.0.0.1", site.port, stop) for _ in range(clients)]
    threads = [threading.Thread(target=s.run, name=f"soak-client-{i}", daemon=True) for i, s in enumerate(streams)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while service.bus.subscribers < clients and time.monotonic() < deadline:
        time.sleep(0.05)
    connected = service.bus.subscribers
    phone = Phone("127.0.0.1", site.port, pin)
    rng = random.Random(7)
    frame = np.zeros((600, 800, 3), np.uint8)  # the camera's frame, read as a fake detector lays out the rows
    published = {"camera": 0, "state": 0}
    request_ms: list[float] = []
    errors: list[str] = []
    threads_before = threading.active_count()
    start = time.monotonic()
    end = start + seconds
    n = 0
    riichi: list[int] = []
    try:
        while time.monotonic() < end:
            n += 1
            if n % 4 == 0:  # a phone changes the game: riichi, then undo it
                t0 = time.perf_counter()
                if riichi:
                    status = phone.post_json("/api/game/undo", {})
                    riichi.pop()
                else:
                    seat = rng.randrange(4)
                    status = phone.post_json("/api/game/riichi", {"seat": seat})
                    riichi.append(seat)
                request_ms.append((time.perf_counter() - t0) * 1000)
                if status != 200:
                    errors.append(f"game action: HTTP {status}")
                published["state"] += 1
            else:  # the camera loop reports a reading
                rows = (
                    tuple(Tile(rng.randrange(34)) for _ in range(rng.randrange(10, 15))),
                    tuple(Tile(rng.randrange(34)) for _ in range(rng.randrange(0, 7))),
                )
                service.observe(Reader.around(FakeDetector(laid_in_rows(rows))).read(frame))
                published["camera"] += 1
            if n % 8 == 1:  # and someone scores a hand meanwhile
                t0 = time.perf_counter()
                status = phone.post_json("/api/score", {"hand": "234m567p23488s678s", "win_tile": "8s", "riichi": True})
                request_ms.append((time.perf_counter() - t0) * 1000)
                if status != 200:
                    errors.append(f"score: HTTP {status}")
            time.sleep(max(0.0, start + n / rate - time.monotonic()))
        time.sleep(1.0)  # let the last updates arrive
    finally:
        stop.set()
        service.bus.close()
        for t in threads:
            t.join(5)
        threads_after = threading.active_count()
        site.close()
        service.close()
    total = sum(published.values())
    lat = [x * 1000 for s in streams for x in s.latencies]
    got = [s.updates for s in streams]
    # each client also receives the whole state once per connection: count only what was published
    lost = [max(0, total - min(g, total)) for g in got]
    p95 = percentile(lat, 95)
    return {
        "clients": clients,
        "connected": connected,
        "seconds": round(time.monotonic() - start, 1),
        "updates_published": total,
        "published": published,
        "received_per_client": {"min": min(got, default=0), "max": max(got, default=0)},
        "lost_updates": sum(lost),
        "latency_ms": {
            "p50": round(percentile(lat, 50), 1),
            "p95": round(p95, 1),
            "p99": round(percentile(lat, 99), 1),
            "max": round(max(lat, default=float("nan")), 1),
            "mean": round(statistics.fmean(lat), 1) if lat else None,
        },
        "request_ms": {"p50": round(percentile(request_ms, 50), 1), "p95": round(percentile(request_ms, 95), 1)},
        "reconnects": sum(s.reconnects for s in streams),
        "errors": errors + [e for s in streams for e in s.errors][:20],
        "threads": {"before": threads_before, "after": threads_after},
        "pass": bool(lat) and p95 < 250 and connected == clients and sum(lost) == 0 and not errors,
    }


def soak_command(args: argparse.Namespace) -> int:
    if not 1 <= args.clients <= 256:
        raise UserError("--clients is 1..256")
    if not 1 <= args.seconds <= 3600:
        raise UserError("--seconds is 1..3600")
    if not 0.1 <= args.rate <= 100:
        raise UserError("--rate is 0.1..100 updates per second")
    result = soak(args.clients, args.seconds, args.rate)
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(
            f"soak: {result['clients']} clients ({result['connected']} connected), {result['seconds']} s, "
            f"{result['updates_published']} updates, lost {result['lost_updates']}, "
            f"reconnects {result['reconnects']}"
        )
        req = result["request_ms"]
        print(
            f"  update latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}"
            f"   (HTTP requests meanwhile: p50 {req['p50']} ms, p95 {req['p95']} ms)"
        )
        print(
            f"  {'PASS' if result['pass'] else 'FAIL'}: p95 < 250 ms, every client got every update"
            + (f"; errors: {result['errors'][:3]}" if result["errors"] else "")
        )
    return 0 if result["pass"] else 1


#: The hand laid out in the generated photo (a complete hand, so the read is scored).
PHOTO_HAND = "234m567p23488s678s"


def make_photo(width: int = 4000, height: int = 3000, hand: str = PHOTO_HAND, seed: int = 1) -> bytes:
    """A 12 MP JPEG like a phone's close-up of a hand: the hand's tiles in a row on a green cloth.

    Drawn from the CC0 tile artwork at full resolution when ``../shared`` has it, else from the site's own small
    tile images enlarged; the row spans most of the width.
    """
    import cv2
    import numpy as np

    from engine.tiles import parse_tiles

    rng = np.random.default_rng(seed)
    img = np.empty((height, width, 3), np.uint8)
    img[:] = (60, 110, 40)
    noise = rng.normal(0, 8, (height // 8, width // 8, 3))
    img = np.clip(img + cv2.resize(noise, (width, height), interpolation=cv2.INTER_LINEAR), 0, 255).astype(np.uint8)
    root = Path(__file__).resolve().parents[2]
    tiles_dir = root.parent / "shared" / "data" / "tiles" / "fluffystuff" / "composited" / "Regular"
    if not tiles_dir.is_dir():
        tiles_dir = root / "web" / "static" / "tiles"
    tiles = parse_tiles(hand)
    tw = int(width * 0.8 / len(tiles))
    th = int(tw * 4 / 3)
    x = (width - tw * len(tiles)) // 2
    y = (height - th) // 2
    for t in tiles:
        face = cv2.imread(str(tiles_dir / f"{t}.png"), cv2.IMREAD_UNCHANGED)
        if face is None:
            raise UserError(f"missing tile image {tiles_dir / f'{t}.png'}")
        if face.ndim == 2:
            face = cv2.cvtColor(face, cv2.COLOR_GRAY2BGRA)
        elif face.shape[2] == 3:
            face = cv2.cvtColor(face, cv2.COLOR_BGR2BGRA)
        face = cv2.resize(face, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)
        alpha = face[:, :, 3:] / 255.0
        under = img[y : y + th, x : x + tw].astype(np.float32)
        img[y : y + th, x : x + tw] = (face[:, :, :3] * alpha + under * (1 - alpha)).astype(np.uint8)
        cv2.rectangle(img, (x, y), (x + tw - 1, y + th - 1), (90, 90, 90), 3)
        x += tw
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def multipart(field_name: str, filename: str, data: bytes, fields: dict[str, str] | None = None) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for k, v in (fields or {}).items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field_name}"; filename="{filename}"\r\n'
        f"Content-Type: image/jpeg\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def photo_bench(image: bytes, model: str | None, runs: int = 5) -> dict[str, Any]:
    from device.table.service import TableService
    from web import create_app

    reader = photo_reader(model)
    if reader is None:
        from vision.read.detector import default_model_path

        raise UserError(f"no detector model at {model or default_model_path()}: pass --model PATH")
    service = TableService(pin="258025", photo_reader=reader)
    site = Site(create_app(None, service), "127.0.0.1", 0, threads=site_threads(service))
    site.start()
    body, ctype = multipart("image", "photo.jpg", image, {"tsumo": "true", "riichi": "true"})
    times: list[float] = []
    last: dict[str, Any] = {}
    try:
        phone = Phone("127.0.0.1", site.port, "258025")  # a photo read carries the page's CSRF token
        for i in range(runs + 1):  # the first is a warm-up
            t0 = time.perf_counter()
            status, data = phone.request(
                "POST", "/api/read", body, {"Content-Type": ctype, "X-CSRF-Token": phone.token}
            )
            elapsed = time.perf_counter() - t0
            if status != 200:
                raise UserError(f"POST /api/read: HTTP {status}: {data[:200]!r}")
            last = json.loads(data)
            if i:
                times.append(elapsed)
        phone.conn.close()
    finally:
        site.close()
        service.close()
    median = statistics.median(times)
    score = last.get("score") or {}
    return {
        "image_bytes": len(image),
        "runs": runs,
        "seconds": {"median": round(median, 3), "max": round(max(times), 3), "min": round(min(times), 3)},
        "server_ms": last.get("ms"),
        "decoded": [last.get("width"), last.get("height")],
        "tiles": last.get("tiles"),
        "count": last.get("count"),
        "score": {k: score.get(k) for k in ("is_win", "han", "fu", "total", "reason")} if score else None,
        "pass": median < 1.5,
    }


def photo_command(args: argparse.Namespace) -> int:
    if args.image:
        try:
            image = Path(args.image).read_bytes()
        except OSError as exc:
            raise UserError(f"--image: cannot read {args.image} ({exc.strerror})") from None
    else:
        image = make_photo()
    if not 1 <= args.runs <= 100:
        raise UserError("--runs is 1..100")
    result = photo_bench(image, args.model, args.runs)
    if args.json:
        print(json.dumps(result))
    else:
        s = result["seconds"]
        print(
            f"photo to score: {result['image_bytes'] / 1e6:.1f} MB JPEG, median {s['median']:.3f} s "
            f"(min {s['min']:.3f}, max {s['max']:.3f}) over {result['runs']} runs; server {result['server_ms']}"
        )
        print(f"  read {result['count']} tiles: {result['tiles']!r}; score {result['score']}")
        print(f"  {'PASS' if result['pass'] else 'FAIL'}: median < 1.5 s")
    return 0 if result["pass"] else 1
