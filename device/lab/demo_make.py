"""Make the bundled demo recording: an overhead camera's view of one hand being played and won.

    python -m device.lab.demo_make [--out device/demo/recording] [--seed 2026]

East (the seat nearest the camera, at the bottom of the frame) is dealer. The four players discard in turn
(East, South on the right, West at the top, North on the left), each discard preceded by a frame with the
player's arm over the table; East declares riichi with a sideways tile and a point stick, then draws the
winning tile and lays the hand down face up. Walls shrink as tiles are drawn; the dead wall shows the dora
indicator. Tiles are the CC0 FluffyStuff artwork the renderer ships (``vision/synth/artwork``) on a felt mat.

Output: JPEG frames of 2028x1520 (non-square: a Pi HQ camera's binned mode, the default capture size),
``recording.json`` (frame order, how many times each is taken again while the table is still, and what the
scene shows) and ``labels/*.txt`` (exact YOLO boxes of every face-up and face-down tile lying flat, classes of
:mod:`vision.read.labels`). Seeded: the same seed gives the same frames.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from device.demo import RECORDING
from engine.tiles import Tile, parse_tiles
from vision.read.labels import BACK_CLASS, class_of_tile

ROOT = Path(__file__).resolve().parents[2]
OUT = RECORDING

FRAME_W, FRAME_H = 2028, 1520
S = FRAME_W / 1600  # lengths below are given for a 1600-px frame and scaled
TILE_W, TILE_H = 51, 68  # a tile lying flat, seen from above (26 x 35 mm at about 2 px/mm)
DEPTH = 38  # a standing tile's thickness seen from above
SIDE = 6  # the tile body's edge showing under a tile lying flat
CX, CY = FRAME_W // 2, FRAME_H // 2 + round(10 * S)
WALL_STACKS = 17

# seat -> rotation (quarter turns counter-clockwise of a tile's face, as the seat's player reads it)
SEATS = ("E", "S", "W", "N")
QUARTERS = {"E": 0, "S": 1, "W": 2, "N": 3}

#: The hand East wins with (13 tiles) and the tile drawn to win; the dora indicator; the discards in turn.
WINNER_HAND = "234m567m345p678s5p"
WIN_TILE = "0p"
DORA_INDICATOR = "4p"
DISCARDS = (
    ("E", "1z"), ("S", "9p"), ("W", "4z"), ("N", "6z"),
    ("E", "9m"), ("S", "1s"), ("W", "8m"), ("N", "9s"),
    ("E", "2z"), ("S", "7z"), ("W", "2p"), ("N", "3m"),
)  # fmt: skip
RIICHI_TURN = 8  # East's third discard is the riichi declaration (laid sideways)


def _art(name: str) -> np.ndarray:
    from vision.synth.art import art_dir

    path = art_dir() / "Export" / "Regular" / f"{name}.png"
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"make demo: cannot read {path} (the CC0 tile artwork of vision/synth/artwork)")
    return img


def tile_art(name: str, size: tuple[int, int]) -> np.ndarray:
    """The tile picture (BGRA) at ``size`` = (width, height): the artwork's glyph over its blank front, or its back."""
    from vision.synth.art import art_name

    if name == "back":
        img = _art("Back")
    else:
        glyph = _art(art_name(class_of_tile(Tile.parse(name)))).astype(np.float32)
        front = _art("Front").astype(np.float32)
        a = glyph[:, :, 3:] / 255
        bgr = glyph[:, :, :3] * a + front[:, :, :3] * (1 - a)
        alpha = 255 * a + front[:, :, 3:] * (1 - a)
        img = np.concatenate([bgr, alpha], axis=2).round().astype(np.uint8)
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


@dataclass
class Placed:
    """A patch (BGRA) placed at a centre, turned by quarter turns plus a small tilt; ``cls`` for labels."""

    patch: np.ndarray
    cx: float
    cy: float
    quarters: int = 0
    tilt: float = 0.0
    cls: int | None = None


@dataclass
class Scene:
    rng: np.random.Generator
    placed: list[Placed] = field(default_factory=list)

    def add(self, patch, cx, cy, quarters=0, cls=None, tilt=None):
        if tilt is None:
            tilt = float(self.rng.normal(0, 1.2))
        self.placed.append(Placed(patch, cx, cy, quarters % 4, tilt, cls))


class Art:
    """Tile patches, made once."""

    def __init__(self) -> None:
        self._flat: dict[str, np.ndarray] = {}
        self.back_colour = (40, 120, 235)  # BGR of the fluffystuff back (orange)

    def flat(self, name: str) -> np.ndarray:
        """A tile lying flat (face up, or ``back``), with its body's edge showing below it."""
        if name not in self._flat:
            face = tile_art(name, (TILE_W, TILE_H))
            patch = np.zeros((TILE_H + SIDE, TILE_W, 4), np.uint8)
            patch[SIDE:, :, :3] = (70, 140, 225) if name == "back" else (200, 215, 225)
            patch[SIDE:, :, 3] = 255
            patch[TILE_H - 4 :, :, :3] = (60, 125, 215)  # the back layer of the body
            alpha = face[:, :, 3:4].astype(np.float32) / 255
            top = patch[:TILE_H].astype(np.float32)
            top[:, :, :3] = face[:, :, :3] * alpha + top[:, :, :3] * (1 - alpha)
            top[:, :, 3] = np.maximum(top[:, :, 3], face[:, :, 3])
            patch[:TILE_H] = top.astype(np.uint8)
            self._flat[name] = patch
        return self._flat[name]

    def standing(self) -> np.ndarray:
        """A standing tile seen from above: its top edge, ivory in front and the back colour behind."""
        patch = np.zeros((DEPTH, TILE_W, 4), np.uint8)
        patch[:, :, 3] = 255
        patch[: DEPTH * 2 // 5, :, :3] = (60, 125, 225)
        patch[DEPTH * 2 // 5 :, :, :3] = (212, 226, 234)
        patch[DEPTH * 2 // 5 - 1, :, :3] = (150, 160, 170)
        cv2.rectangle(patch, (0, 0), (TILE_W - 1, DEPTH - 1), (120, 130, 140, 255), 1)
        return patch

    @staticmethod
    def stick(points: int = 1000) -> np.ndarray:
        """A riichi point stick (white with a red dot)."""
        h, w = round(14 * S), round(190 * S)
        patch = np.zeros((h, w, 4), np.uint8)
        cv2.rectangle(patch, (0, 0), (w - 1, h - 1), (238, 240, 242, 255), -1)
        cv2.circle(patch, (w // 2, h // 2), round(5 * S), (40, 40, 210, 255), -1)
        return patch


def felt(rng: np.random.Generator) -> np.ndarray:
    """A green felt mat with texture and a light falling off to the edges, in a wooden frame."""
    h, w = FRAME_H, FRAME_W
    base = np.empty((h, w, 3), np.float32)
    base[:] = (58, 112, 46)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3) * 18
    blotch = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 4
    base += (grain + blotch)[:, :, None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.08 - 0.22 * (((xx - w * 0.45) / w) ** 2 + ((yy - h * 0.4) / h) ** 2) * 2.2
    base *= light[:, :, None]
    rim = round(46 * S)
    wood = np.empty((h, w, 3), np.float32)
    wood[:] = (40, 75, 120)
    wood += (cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (41, 1), 0) * 30)[:, :, None]
    mask = np.zeros((h, w), np.uint8)
    mask[rim:-rim, rim:-rim] = 1
    base = np.where(mask[:, :, None] == 1, base, wood)
    return np.clip(base, 0, 255).astype(np.uint8)


def turned(patch: np.ndarray, quarters: int, tilt: float) -> tuple[np.ndarray, np.ndarray]:
    """The patch turned by quarter turns and a tilt (degrees); and the corners of its face, turned."""
    p = np.rot90(patch, quarters).copy() if quarters else patch
    h, w = p.shape[:2]
    diag = math.ceil(math.hypot(w, h)) + 4
    m = cv2.getRotationMatrix2D((w / 2, h / 2), tilt, 1.0)
    m[0, 2] += (diag - w) / 2
    m[1, 2] += (diag - h) / 2
    out = cv2.warpAffine(p, m, (diag, diag), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return out, corners @ m[:, :2].T + m[:, 2]


def shadow(canvas: np.ndarray, alpha: np.ndarray, x0: int, y0: int, strength: float = 0.35) -> None:
    """A soft shadow of a patch's alpha, cast down and to the right."""
    h, w = alpha.shape
    blurred = cv2.GaussianBlur(alpha.astype(np.float32) / 255, (0, 0), 3) * strength
    _blend(canvas, np.zeros((h, w, 3), np.float32), blurred, x0 + 4, y0 + 5)


def _blend(canvas: np.ndarray, rgb: np.ndarray, a: np.ndarray, x0: int, y0: int) -> None:
    h, w = a.shape
    cy0, cx0 = max(0, y0), max(0, x0)
    cy1, cx1 = min(canvas.shape[0], y0 + h), min(canvas.shape[1], x0 + w)
    if cy1 <= cy0 or cx1 <= cx0:
        return
    sub = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    aa = a[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]
    sub = rgb[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] * aa + sub * (1 - aa)
    canvas[cy0:cy1, cx0:cx1] = np.clip(sub, 0, 255).astype(np.uint8)


def render(scene: Scene, background: np.ndarray, extra=None) -> tuple[np.ndarray, list[str]]:
    """Draw the scene; returns the image and its YOLO label lines."""
    canvas = background.copy()
    labels: list[str] = []
    for p in scene.placed:
        img, corners = turned(p.patch, p.quarters, p.tilt)
        x0 = round(p.cx - img.shape[1] / 2)
        y0 = round(p.cy - img.shape[0] / 2)
        shadow(canvas, img[:, :, 3], x0, y0)
        _blend(canvas, img[:, :, :3].astype(np.float32), img[:, :, 3].astype(np.float32) / 255, x0, y0)
        if p.cls is not None:
            pts = corners + np.array([x0, y0], np.float64)
            x1, y1 = np.clip(pts.min(axis=0), 0, (FRAME_W, FRAME_H))
            x2, y2 = np.clip(pts.max(axis=0), 0, (FRAME_W, FRAME_H))
            labels.append(
                f"{p.cls} {(x1 + x2) / 2 / FRAME_W:.6f} {(y1 + y2) / 2 / FRAME_H:.6f} "
                f"{(x2 - x1) / FRAME_W:.6f} {(y2 - y1) / FRAME_H:.6f}"
            )
    if extra is not None:
        extra(canvas)
    return canvas, labels


def jitter(*key: object) -> float:
    """A small tilt in degrees, the same for the same tile place in every frame (still tiles never move)."""
    return float(np.random.default_rng(zlib.crc32(repr(key).encode())).normal(0, 1.2))


def to_table(seat: str, u: float, v: float) -> tuple[float, float]:
    """A point in a seat's own frame (u to the seat's right, v away from the seat, centre at 0) in pixels."""
    q = QUARTERS[seat]
    # East looks up the frame (v -> -y); South on the right looks left (v -> -x); and so on.
    dx, dy = [(u, -v), (-v, -u), (-u, v), (v, u)][q]
    return CX + dx, CY + dy


@dataclass
class Table:
    """What lies on the table at one moment."""

    ponds: dict[str, list[tuple[str, bool]]] = field(default_factory=lambda: {s: [] for s in SEATS})
    sticks: set[str] = field(default_factory=set)
    drawn: int = 0  # tiles taken from the live wall
    revealed: bool = False


def wall_stacks() -> list[tuple[str, int]]:
    """Every stack of the four walls (seat, position 0..16 from the seat's right), in drawing order.

    The break is in North's wall; tiles are drawn clockwise from it, the dead wall (7 stacks) lies before it.
    """
    order = [(s, i) for s in ("N", "W", "S", "E") for i in range(WALL_STACKS)]
    start = 7 + 7  # the dead wall is North's stacks 7..13 (wall positions counted from the seat's right)
    return order[start:] + order[:start]


def build_scene(table: Table, art: Art, rng: np.random.Generator) -> Scene:
    scene = Scene(rng)
    # walls: the stacks still standing
    stacks = wall_stacks()
    live = stacks[:-7]
    dead = stacks[-7:]
    taken_stacks = table.drawn // 2
    remaining = set(live[taken_stacks:]) | set(dead)
    half = WALL_STACKS * TILE_W / 2
    wall_v = half - TILE_H / 2 + 6 * S
    for seat in SEATS:
        for i in range(WALL_STACKS):
            if (seat, i) not in remaining:
                continue
            tilt = jitter("wall", seat, i)
            u = half - TILE_W * (i + 0.5) - (TILE_H + 4)  # from the seat's right; walls make a pinwheel
            x, y = to_table(seat, u, -wall_v)
            name = "back"
            if (seat, i) == dead[2]:
                name = DORA_INDICATOR
            cls = BACK_CLASS if name == "back" else class_of_tile(Tile.parse(name))
            scene.add(art.flat(name), x, y, QUARTERS[seat], cls, tilt * 0.4)
    # ponds: six to a row, the riichi tile sideways
    for seat in SEATS:
        u0 = -3 * TILE_W
        for n, (name, sideways) in enumerate(table.ponds[seat]):
            row, col = divmod(n, 6)
            tilt = jitter("pond", seat, n)
            offset = 0.0
            for m in range(n - col, n):
                if table.ponds[seat][m][1]:
                    offset += TILE_H - TILE_W
            w = TILE_H if sideways else TILE_W
            u = u0 + col * TILE_W + offset + w / 2
            v = -(TILE_H * 2.1 + row * (TILE_H + SIDE) + TILE_H / 2)
            x, y = to_table(seat, u, v)
            quarters = QUARTERS[seat] + (1 if sideways else 0)
            scene.add(art.flat(name), x, y, quarters, class_of_tile(Tile.parse(name)), tilt)
    # riichi sticks in front of the pond
    for seat in table.sticks:
        x, y = to_table(seat, 0, -TILE_H * 1.35)
        scene.add(art.stick(), x, y, QUARTERS[seat], None, 0.8)
    # hands: standing tiles (tops seen from above), East's laid down face up at the end
    for seat in SEATS:
        n = 13
        hand_v = wall_v + TILE_H / 2 + 45 * S
        if seat == "E" and table.revealed:
            tiles = [str(t) for t in parse_tiles(WINNER_HAND)] + [WIN_TILE]
            for k, name in enumerate(tiles):
                gap = 14 * S if k == 13 else 0
                u = -6.5 * TILE_W + k * TILE_W + gap
                x, y = to_table(seat, u, -(hand_v + 10 * S))
                scene.add(art.flat(name), x, y, 0, class_of_tile(Tile.parse(name)), jitter("shown", k) * 0.3)
            continue
        for k in range(n):
            u = -6 * TILE_W + k * TILE_W
            x, y = to_table(seat, u, -hand_v)
            scene.add(art.standing(), x, y, QUARTERS[seat], None, jitter("hand", seat, k) * 0.3)
    return scene


def arm(seat: str, target_u: float, target_v: float, rng: np.random.Generator):
    """A function drawing a player's forearm and hand reaching from their edge of the frame to a point."""
    tx, ty = to_table(seat, target_u, target_v)
    sx, sy = to_table(seat, target_u * 0.6 + 120 * S, -900 * S)
    tone = np.array((120, 160, 205), np.float32) + rng.normal(0, 8, 3)

    def draw(canvas: np.ndarray) -> None:
        layer = np.zeros(canvas.shape[:2], np.uint8)
        cv2.line(layer, (round(sx), round(sy)), (round(tx), round(ty)), 255, round(95 * S))
        cv2.ellipse(layer, (round(tx), round(ty)), (round(62 * S), round(54 * S)), 0, 0, 360, 255, -1)
        soft = cv2.GaussianBlur(layer, (0, 0), 4).astype(np.float32) / 255
        shade = cv2.GaussianBlur(layer, (0, 0), 25).astype(np.float32) / 255
        colour = np.empty(canvas.shape, np.float32)
        colour[:] = tone
        colour *= (0.75 + 0.3 * shade)[:, :, None]
        dark = np.zeros_like(soft)
        dy, dx = round(18 * S), round(14 * S)
        dark[dy:, dx:] = soft[:-dy, :-dx] * 0.45  # the arm's shadow, down and to the right
        _blend(canvas, np.zeros(canvas.shape, np.float32), dark, 0, 0)
        _blend(canvas, colour, soft, 0, 0)

    return draw


def make(out: Path, seed: int = 2026, quality: int = 88) -> dict:
    rng = np.random.default_rng(seed)
    art = Art()
    background = felt(rng)
    sensor = np.random.default_rng(seed + 1)
    out.mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(exist_ok=True)
    for old in list(out.glob("*.jpg")) + list((out / "labels").glob("*.txt")):
        old.unlink()
    frames: list[dict] = []

    def emit(table: Table, hold: int, what: str, extra=None) -> None:
        image, labels = render(build_scene(table, art, rng), background, extra)
        noise = sensor.normal(0, 1.6, image.shape).astype(np.float32)
        image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        name = f"{len(frames):03}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / "labels" / f"{len(frames):03}.txt").write_text("\n".join(labels) + "\n")
        frames.append({"file": name, "hold": hold, "shows": what})

    table = Table(drawn=13 * 4 + 1)
    emit(table, 4, "East 1, dealer East; hands dealt; dora indicator " + DORA_INDICATOR)
    for turn, (seat, tile) in enumerate(DISCARDS):
        riichi = turn == RIICHI_TURN
        n = len(table.ponds[seat])
        emit(
            table,
            1,
            f"{seat} reaches to discard",
            arm(seat, -3 * TILE_W + (n % 6) * TILE_W + 20 * S, -(TILE_H * 2.1 + (n // 6) * TILE_H), rng),
        )
        table.ponds[seat].append((tile, riichi))
        if riichi:
            table.sticks.add(seat)
        if turn > 0:
            table.drawn += 1
        emit(table, 3, f"{seat} discards {tile}" + (" declaring riichi" if riichi else ""))
    table.drawn += 1
    emit(table, 1, "E draws and reveals", arm("E", 0, -(WALL_STACKS * TILE_W / 2 + 60 * S), rng))
    table.revealed = True
    emit(
        table, 8, f"E wins by tsumo on {WIN_TILE}: {WINNER_HAND} + {WIN_TILE}, riichi, dora indicator {DORA_INDICATOR}"
    )
    manifest = {
        "about": "jantaku demo: one hand of riichi mahjong seen by an overhead camera (rendered, CC0 tile art)",
        "seed": seed,
        "size": {"width": FRAME_W, "height": FRAME_H},
        "winner": {"seat": "E", "hand": WINNER_HAND, "win_tile": WIN_TILE, "tsumo": True, "riichi": True,
                   "dora_indicators": DORA_INDICATOR},
        "frames": frames,
    }  # fmt: skip
    (out / "recording.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    manifest = make(args.out, args.seed)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"{len(manifest['frames'])} frames, {size / 1e6:.1f} MB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
