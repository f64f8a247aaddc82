"""The table around the tiles: backgrounds (felt, cloth, wood, the room beyond), shadows, props and hands."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.camera import Camera

_FELT = (
    (0.10, 0.42, 0.22),
    (0.08, 0.30, 0.45),
    (0.12, 0.55, 0.58),
    (0.30, 0.32, 0.34),
    (0.45, 0.10, 0.12),
    (0.08, 0.09, 0.10),
    (0.20, 0.25, 0.50),
    (0.55, 0.50, 0.42),
    (0.16, 0.60, 0.70),
)
_WOOD = ((0.55, 0.36, 0.20), (0.40, 0.25, 0.14), (0.70, 0.52, 0.33), (0.28, 0.18, 0.11), (0.80, 0.68, 0.50))


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    small = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def table_texture(rng: np.random.Generator, size: int = 512) -> np.ndarray:
    """A square texture of the table top (float32 RGB): felt, cloth or wood, with a rim at its edge."""
    kind = rng.choice(["felt", "felt", "felt", "cloth", "wood"])
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    if kind == "wood":
        base = np.asarray(_WOOD[rng.integers(len(_WOOD))], np.float32) * rng.uniform(0.85, 1.15, 3)
        warp = _smooth_noise(rng, (size, size), 6) * rng.uniform(2, 8)
        freq = rng.uniform(20, 70)
        along = xx if rng.random() < 0.5 else yy
        grain = 0.5 + 0.5 * np.sin((along * freq + warp) * 2 * math.pi)
        tex = base * (0.82 + 0.25 * grain[..., None])
        planks = rng.integers(3, 9)
        across = yy if along is xx else xx
        seams = np.abs(((across * planks) % 1.0) - 0.5) > 0.495
        tex[seams] *= 0.6
    else:
        base = np.asarray(_FELT[rng.integers(len(_FELT))], np.float32) * rng.uniform(0.8, 1.2, 3)
        tex = np.broadcast_to(base, (size, size, 3)).astype(np.float32).copy()
        tex *= (0.9 + 0.2 * _smooth_noise(rng, (size, size), 5))[..., None]
        if kind == "cloth":
            k = rng.uniform(80, 200)
            weave = np.sin(xx * k * math.pi) * np.sin(yy * k * math.pi)
            tex *= (1 + 0.08 * weave)[..., None]
            if rng.random() < 0.5:  # a plaid or striped cloth
                other = rng.uniform(0.2, 0.9, 3).astype(np.float32)
                n = rng.uniform(4, 14)
                stripes = (np.sin(xx * n * 2 * math.pi) > 0.6) | (np.sin(yy * n * 2 * math.pi) > 0.6)
                tex[stripes] = tex[stripes] * 0.5 + other * 0.5
    grain = rng.normal(0, rng.uniform(0.005, 0.03), (size, size, 1)).astype(np.float32)
    tex = tex + grain
    rim = int(size * rng.uniform(0.02, 0.06))
    rim_rgb = ((0.08, 0.08, 0.09), (0.3, 0.2, 0.12), (0.4, 0.42, 0.45), (0.7, 0.7, 0.68))[int(rng.integers(4))]
    tex[:rim], tex[-rim:], tex[:, :rim], tex[:, -rim:] = rim_rgb, rim_rgb, rim_rgb, rim_rgb
    return np.clip(tex, 0, 1).astype(np.float32)


def room_image(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """What lies beyond the table: a wall or floor with shelves and clutter, out of focus."""
    top = rng.uniform(0.1, 0.9, 3)
    bottom = rng.uniform(0.05, 0.7, 3)
    t = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    img = (top * (1 - t) + bottom * t).astype(np.float32) * np.ones((1, width, 1), np.float32)
    for _ in range(int(rng.integers(0, 40))):
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        w, h = int(rng.integers(4, width // 4 + 5)), int(rng.integers(8, height // 2 + 9))
        cv2.rectangle(img, (x, y), (x + w, y + h), tuple(float(c) for c in rng.uniform(0, 1, 3)), -1)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 3.0))


def background(rng: np.random.Generator, cam: Camera, half_size: float) -> np.ndarray:
    """The table plane (z=0) seen by the camera, and the room where rays miss it (float32 RGB, H x W x 3)."""
    tex = table_texture(rng)
    rays = cam.rays()
    dz = rays[..., 2]
    t = np.where(dz < -1e-6, -cam.pos[2] / np.where(dz < -1e-6, dz, -1.0), -1.0)
    x = cam.pos[0] + t * rays[..., 0]
    y = cam.pos[1] + t * rays[..., 1]
    n = tex.shape[0]
    map_x = ((x + half_size) / (2 * half_size) * n - 0.5).astype(np.float32)
    map_y = ((half_size - y) / (2 * half_size) * n - 0.5).astype(np.float32)
    hit = (t > 0) & (np.abs(x) < half_size) & (np.abs(y) < half_size)
    table = cv2.remap(tex, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    room = room_image(rng, cam.width, cam.height)
    return np.where(hit[..., None], table, room)


#: Quarter-pixel coordinates at or past this do not fit OpenCV's int32 points.
_INT32_LIMIT = 2**31 - 1


def cast_shadows(image: np.ndarray, cam: Camera, corners: list[np.ndarray], light: np.ndarray, rng) -> None:
    """Darken the table under each body, along the light direction, with soft edges (in place)."""
    mask = np.zeros(image.shape[:2], np.float32)
    for pts in corners:
        on_table = pts - light[None, :] * (pts[:, 2:3] / light[2])
        uv, z = cam.project(on_table)
        # a shadow reaching almost to the camera's plane can project past int32 in quarter pixels (once in 1,000
        # renders): it lies all but wholly out of view, and drew nothing as the overflow left it
        if (z <= 1).any() or not np.abs(uv * 4).max() < _INT32_LIMIT:
            continue
        hull = cv2.convexHull(np.round(uv * 4).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0, lineType=cv2.LINE_8, shift=2)
    if not mask.any():
        return
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1.0, 4.0))
    image *= (1 - rng.uniform(0.25, 0.6) * np.clip(mask, 0, 1))[..., None]


def table_props(rng: np.random.Generator, image: np.ndarray, cam: Camera, area: float) -> None:
    """Flat things on the table (point sticks, a phone, coins), drawn before the tiles (in place)."""
    for _ in range(int(rng.poisson(1.5))):
        kind = rng.choice(["stick", "stick", "phone", "coin"])
        cx, cy = rng.uniform(-area, area, 2)
        yaw = rng.uniform(0, math.pi)
        if kind == "stick":
            w, h, colour = rng.uniform(80, 110), rng.uniform(8, 12), (0.95, 0.95, 0.93)
        elif kind == "phone":
            w, h, colour = rng.uniform(140, 165), rng.uniform(68, 78), tuple(rng.uniform(0, 0.25, 3))
        else:
            w = h = rng.uniform(18, 28)
            colour = tuple(rng.uniform(0.5, 0.9, 3))
        c, s = math.cos(yaw), math.sin(yaw)
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        world = np.c_[cx + local[:, 0] * c - local[:, 1] * s, cy + local[:, 0] * s + local[:, 1] * c, np.full(4, 1.0)]
        uv, z = cam.project(world)
        if (z <= 1).any():
            continue
        pts = np.round(uv * 16).astype(np.int32)
        if kind == "coin":
            centre, _ = cam.project(np.array([[cx, cy, 1.0]]))
            radius = max(1, int(np.linalg.norm(uv[0] - uv[2]) / 2.8))
            cv2.circle(image, tuple(int(v) for v in centre[0]), radius, colour, -1, cv2.LINE_AA)
            continue
        cv2.fillConvexPoly(image, pts, colour, cv2.LINE_AA, shift=4)
        if kind == "stick":  # the dots that give a stick its value
            for f in ([0.5], [0.3, 0.7], [0.2, 0.4, 0.6, 0.8])[int(rng.integers(3))]:
                p, _ = cam.project(np.array([[cx + (f - 0.5) * w * c, cy + (f - 0.5) * w * s, 1.0]]))
                dot = ((0.8, 0.1, 0.1), (0.1, 0.1, 0.1), (0.1, 0.2, 0.7))[int(rng.integers(3))]
                cv2.circle(image, tuple(int(v) for v in p[0]), max(1, int(np.linalg.norm(uv[1] - uv[2]) / 5)), dot, -1)
        elif kind == "phone":
            inner = uv + (uv.mean(axis=0) - uv) * 0.12
            screen = tuple(float(v) for v in rng.uniform(0.05, 0.6, 3))
            cv2.fillConvexPoly(image, np.round(inner * 16).astype(np.int32), screen, cv2.LINE_AA, shift=4)


def overlays(rng: np.random.Generator, image: np.ndarray, ids: np.ndarray) -> None:
    """Things between the camera and the tiles: hands and arms, a cup. Marks their pixels in ``ids`` as -2."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    if rng.random() < 0.3:  # an arm reaching in from an edge, a hand at its end
        edge = rng.integers(4)
        # all four drawn whichever edge is picked, so that the draws after it do not depend on the edge
        starts = [
            (rng.uniform(0, w), h + 20),
            (rng.uniform(0, w), -20),
            (-20, rng.uniform(0, h)),
            (w + 20, rng.uniform(0, h)),
        ]
        start = starts[edge]
        end = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h])
        start = np.array(start)
        scale = rng.uniform(0.06, 0.16) * max(w, h)
        skin = np.array([rng.uniform(0.55, 0.95), rng.uniform(0.38, 0.75), rng.uniform(0.28, 0.6)], np.float32)
        sleeve = tuple(float(v) for v in rng.uniform(0, 1, 3))
        layer = np.zeros((h, w), np.uint8)
        mid = start + (end - start) * rng.uniform(0.3, 0.6)
        cv2.line(layer, tuple(int(v) for v in start), tuple(int(v) for v in end), 255, int(scale * 0.6), cv2.LINE_AA)
        direction = (end - start) / (np.linalg.norm(end - start) + 1e-6)
        normal = np.array([-direction[1], direction[0]])
        cv2.ellipse(
            layer,
            tuple(int(v) for v in end),
            (int(scale * 0.55), int(scale * 0.45)),
            math.degrees(math.atan2(direction[1], direction[0])),
            0,
            360,
            255,
            -1,
            cv2.LINE_AA,
        )
        for k in range(int(rng.integers(2, 6))):
            base = end + direction * scale * 0.3 + normal * scale * (k - 1.5) * 0.22
            tip = base + direction * scale * rng.uniform(0.4, 0.7) + normal * rng.normal(0, 0.1) * scale
            finger = max(2, int(scale * 0.15))
            cv2.line(layer, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, finger, cv2.LINE_AA)
        alpha = (layer.astype(np.float32) / 255)[..., None]
        shade = 0.75 + 0.35 * _smooth_noise(rng, (h, w), 4)[..., None]
        colour = skin * shade
        sleeve_layer = np.zeros((h, w), np.uint8)
        sleeve_ends = tuple(int(v) for v in start), tuple(int(v) for v in mid)
        cv2.line(sleeve_layer, *sleeve_ends, 255, int(scale * 0.75), cv2.LINE_AA)
        colour = np.where(sleeve_layer[..., None] > 0, np.asarray(sleeve, np.float32) * shade, colour)
        alpha = np.maximum(alpha, (sleeve_layer.astype(np.float32) / 255)[..., None])
        image[:] = image * (1 - alpha) + colour * alpha
        mask |= (alpha[..., 0] > 0.3).astype(np.uint8)
    if rng.random() < 0.15:  # a cup seen from above or aside
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(rng.uniform(0.05, 0.14) * max(w, h))
        squash = rng.uniform(0.4, 1.0)
        body = tuple(float(v) for v in rng.uniform(0.1, 0.95, 3))
        cv2.ellipse(image, c, (r, int(r * squash)), 0, 0, 360, body, -1, cv2.LINE_AA)
        cv2.ellipse(
            image,
            c,
            (int(r * 0.82), int(r * 0.82 * squash)),
            0,
            0,
            360,
            tuple(float(v) for v in rng.uniform(0.05, 0.5, 3)),
            -1,
            cv2.LINE_AA,
        )
        cv2.ellipse(mask, c, (r, int(r * squash)), 0, 0, 360, 1, -1)
    ids[mask > 0] = -2
