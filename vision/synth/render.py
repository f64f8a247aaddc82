"""Render one labelled image: a layout of tile bodies, a camera, the table, light, props, and camera effects.

Every random choice comes from one ``numpy.random.Generator`` seeded with ``(seed, index)``, so an image and its
labels are a pure function of those two numbers (and the artwork).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.labels import BACK_CLASS, CLASS_NAMES, YoloBox, labels_text
from vision.synth.art import FACE_SIZE, back_texture, face_texture, random_back_rgb, random_style, side_texture
from vision.synth.camera import Camera
from vision.synth.distractors import draw_hands, draw_on_table, tile_footprint
from vision.synth.glyphs import can_draw, cjk_fonts, procedural_face
from vision.synth.layout import TileSize, hand_layout, loose_layout, table_layout
from vision.synth.scene import background, cast_shadows, overlays, table_props

#: Output sizes (width, height): landscape, portrait, square and wide frames.
SIZES = ((640, 480), (480, 640), (640, 640), (640, 360), (640, 512), (512, 640), (576, 432))

#: A close-up's face width on screen, as a share of the frame's short side (:func:`render`'s ``close_ups``).
CLOSE_UP_SHARE = (0.25, 0.7)
#: ... seen from this far, in table units (a tile is 23-28.5 wide; nearer than 20 is clipped).
CLOSE_UP_DISTANCE = (90.0, 220.0)

#: A tile's face counts as readable when this share of it is in view, unoccluded ...
MIN_VISIBLE = 0.5
#: ... and seen at most this far off its normal (cosine).
MIN_COSINE = 0.22
#: ... and it covers at least this many pixels.
MIN_AREA = 60.0

# Faces of a body: (corner indices as [start, end, far end, far start], local normal). See Body.corners.
_FACES = (
    ((6, 7, 5, 4), (0, 0, 1)),  # front: glyph top-left, top-right, bottom-right, bottom-left
    ((3, 2, 0, 1), (0, 0, -1)),  # back
    ((6, 7, 3, 2), (0, 1, 0)),  # top side: face edge first, back edge last
    ((4, 5, 1, 0), (0, -1, 0)),  # bottom side
    ((6, 4, 0, 2), (-1, 0, 0)),  # left side
    ((7, 5, 1, 3), (1, 0, 0)),  # right side
)
FRONT, BACK = 0, 1


@dataclass(frozen=True, slots=True)
class Label:
    """One labelled tile: class id and box in pixels (x1, y1, x2, y2); how much of its labelled face is in view
    (``visible``, of its drawn area) and how squarely the camera sees it (``facing``, the cosine off its normal)."""

    class_id: int
    box: tuple[float, float, float, float]
    visible: float = 1.0
    facing: float = 1.0

    @property
    def name(self) -> str:
        return CLASS_NAMES[self.class_id]

    def yolo(self, width: int, height: int) -> YoloBox:
        """This label as a YOLO label file's line, in an image of this size."""
        return YoloBox.of_pixels(self.class_id, self.box, width=width, height=height)


@dataclass(frozen=True)
class Sample:
    """A rendered image (BGR uint8, as OpenCV reads files), its labels, and what it shows (``distractors``: the kinds
    of unlabelled things drawn among the tiles, :mod:`vision.synth.distractors`)."""

    image: np.ndarray
    labels: tuple[Label, ...]
    kind: str
    jpeg_quality: int
    distractors: tuple[str, ...] = ()

    @property
    def width(self) -> int:
        return self.image.shape[1]

    @property
    def height(self) -> int:
        return self.image.shape[0]

    def yolo_text(self) -> str:
        return labels_text(label.yolo(self.width, self.height) for label in self.labels)

    def jpeg(self) -> bytes:
        ok, data = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        return data.tobytes()


def _edge_shading(h: int, w: int) -> np.ndarray:
    """Rounded tile edges: faces darken a little towards their border."""
    y = np.minimum(np.arange(h), np.arange(h)[::-1]) / (0.08 * h)
    x = np.minimum(np.arange(w), np.arange(w)[::-1]) / (0.08 * w)
    e = np.minimum(np.clip(y, 0, 1)[:, None], np.clip(x, 0, 1)[None, :])
    return (0.8 + 0.2 * e)[..., None].astype(np.float32)


class _Textures:
    """The textures of one tile set (per image): faces per class on demand, one back, the sides.

    With ``drawn`` (a generator of its own, so the main random stream is the same either way) faces that
    :mod:`vision.synth.glyphs` can draw come from fonts and procedural pins and sticks instead of the artwork.
    """

    def __init__(self, rng: np.random.Generator, drawn: np.random.Generator | None = None) -> None:
        self.rng = rng
        self.drawn = drawn
        self.fonts = cjk_fonts() if drawn is not None else ()
        self.styles = [random_style(rng)]
        if rng.random() < 0.15:  # a table with tiles from two sets
            self.styles.append(random_style(rng))
        self.back_rgb = random_back_rgb(rng)
        self.back = back_texture(self.back_rgb, rng) * _edge_shading(FACE_SIZE[1], FACE_SIZE[0])
        share = float(rng.uniform(0.45, 0.75))
        self.side = side_texture(np.asarray(self.styles[0].face_rgb, np.float32), self.back_rgb, share)
        self.faces: dict[tuple[int, int], np.ndarray] = {}
        self.edge = _edge_shading(FACE_SIZE[1], FACE_SIZE[0])

    def face(self, class_id: int, style_index: int) -> np.ndarray:
        key = (class_id, style_index)
        if key not in self.faces:
            style = self.styles[style_index]
            if self.drawn is not None and can_draw(class_id, self.fonts):
                face = procedural_face(class_id, style.face_rgb, self.drawn, self.fonts)
            else:
                face = face_texture(class_id, style, self.rng)
            self.faces[key] = face * self.edge
        return self.faces[key]


def _draw_quad(image, ids, tex, dst, value, shade, spec) -> float:
    """Warp a texture onto an image quad (in place) and mark its pixels in ``ids``; returns the quad's area."""
    h, w = image.shape[:2]
    x0, y0 = np.floor(dst.min(axis=0)).astype(int)
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
    area = 0.5 * abs(float(np.dot(dst[:, 0], np.roll(dst[:, 1], 1)) - np.dot(dst[:, 1], np.roll(dst[:, 0], 1))))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0 or area < 0.5:
        return area
    th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    local = (dst - (x0, y0)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, local)
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round(local * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA, shift=4)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    roi = image[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha) + np.clip(warped * shade + spec, 0, 1) * alpha
    ids[y0:y1, x0:x1][mask > 127] = value
    return area


def _choose_camera(
    rng: np.random.Generator,
    width: int,
    height: int,
    bodies,
    kind: str,
    tile_w: float,
    close: tuple[float, float] | None = None,
):
    """The camera, and the point on the table it looks at. ``close``: a close-up, the camera aimed at one tile from
    (the face's width on screen as a share of the frame's short side, the distance in table units), its field of
    view narrowed to fit, as a phone zooms; None: a face 20-80 px wide."""
    if kind in ("hand", "loose") and rng.random() < 0.5:  # from the seat the tiles face, as a phone shot
        elevation = math.radians(rng.uniform(10, 50))
        azimuth = -math.pi / 2 + rng.normal(0, 0.4)
    elif rng.random() < 0.4:
        elevation = math.radians(rng.uniform(65, 89.5))
        azimuth = rng.uniform(0, 2 * math.pi)
    else:
        elevation = math.radians(rng.uniform(14, 65))
        azimuth = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(-math.pi, math.pi) if elevation > math.radians(70) else rng.normal(0, 0.08)
    if bodies:
        anchor = np.asarray(bodies[int(rng.integers(len(bodies)))].centre)
        target = anchor + np.array([*rng.normal(0, 40, 2), 0.0])
        target[2] = 0.0
    else:
        target = np.zeros(3)
    fov = math.radians(rng.uniform(45, 78))
    fx = (width / 2) / math.tan(fov / 2)
    tile_px = math.exp(rng.uniform(math.log(20), math.log(80)))  # face width on screen, pixels
    distance = fx * tile_w / tile_px
    aspect = rng.uniform(0.78, 1.28) if rng.random() < 0.3 else 1.0  # frames stretched by an export
    k1 = rng.uniform(-0.15, 0.06) if rng.random() < 0.5 else 0.0
    offset = tuple(rng.normal(0, 0.15, 2) * (width, height))
    if close is not None and bodies:  # after the scene's own draws, which stay as they were
        share, distance = close
        # as near as the wide lens would need clips the tile at the camera's near plane: a longer lens instead
        fov = 2 * math.atan((width / 2) / (distance * share * min(width, height) / tile_w))
        target = anchor.copy()
        offset = (offset[0] * 0.3, offset[1] * 0.3)
    cam = Camera.looking_at(width, height, target, distance, elevation, azimuth, roll, fov, aspect, k1, 0.0, offset)
    return cam, target


def render(
    seed: int,
    index: int = 0,
    size: tuple[int, int] | None = None,
    drawn_faces: float = 0.0,
    distractors: float = 0.0,
    close_ups: float = 0.0,
) -> Sample:
    """Render image ``index`` of the set seeded ``seed``: a pure function of its arguments (and installed fonts).

    ``drawn_faces`` is the share of images whose tile set is drawn by :mod:`vision.synth.glyphs` (fonts, procedural
    pins and sticks) rather than the artwork; 0 (the default) keeps images independent of the fonts installed.
    ``distractors`` is the share of images that also show things that are not tiles, unlabelled
    (:mod:`vision.synth.distractors`: keyboards, white boxes and cups, phones, an automatic table's panel, rim and
    slots, sticks, chips, dice, hands); 0 (the default) leaves every image as it was.
    ``close_ups`` is the share of images taken close up: the camera aimed at one tile whose face then spans 25-70 %
    of the frame's short side, as a phone photo of a single tile (:data:`CLOSE_UP_SHARE`); 0 (the default) leaves
    every image as it was.
    """
    rng = np.random.default_rng([seed, index])
    side = np.random.default_rng([seed, index, 1])
    drawn = side if drawn_faces > 0 and side.random() < drawn_faces else None
    # a stream of its own, as the drawn faces have: the scene's own draws are the same with or without them
    clutter = np.random.default_rng([seed, index, 2])
    clutter = clutter if distractors > 0 and clutter.random() < distractors else None
    near_stream = np.random.default_rng([seed, index, 3])
    close = None
    if close_ups > 0 and near_stream.random() < close_ups:
        close = float(near_stream.uniform(*CLOSE_UP_SHARE)), float(near_stream.uniform(*CLOSE_UP_DISTANCE))
    width, height = size if size is not None else SIZES[int(rng.integers(len(SIZES)))]
    kind = str(rng.choice(["table", "table", "loose", "loose", "hand"]))
    tw = float(rng.uniform(23, 28.5))
    tsize = TileSize(
        tw, tw * float(rng.uniform(1.26, 1.40)), tw * float(rng.uniform(0.6, 0.85)), float(rng.uniform(0.2, 2.0))
    )
    builders = {"table": table_layout, "loose": loose_layout, "hand": hand_layout}
    bodies = builders[kind](rng, tsize)
    cam, cam_target = _choose_camera(rng, width, height, bodies, kind, tw, close)
    half = float(rng.uniform(480, 800))
    # nothing on screen more than about twice the chosen tile size: drop bodies much nearer than the target
    near = 0.5 * float(np.linalg.norm(cam.pos - cam_target))
    bodies = [
        b
        for b in bodies
        if max(abs(b.centre[0]), abs(b.centre[1])) < half - 30 and np.linalg.norm(np.asarray(b.centre) - cam.pos) > near
    ]

    # light: a direction for shading and shadows
    light_el = math.radians(rng.uniform(35, 85))
    light_az = rng.uniform(0, 2 * math.pi)
    light = np.array(
        [math.cos(light_el) * math.cos(light_az), math.cos(light_el) * math.sin(light_az), math.sin(light_el)]
    )
    ambient, diffuse = float(rng.uniform(0.45, 0.75)), float(rng.uniform(0.25, 0.55))
    gloss = float(rng.uniform(0.0, 0.5))
    shininess = float(rng.uniform(8, 60))

    image = background(rng, cam, half)
    corners = [b.corners() for b in bodies]
    distractors_drawn: tuple[str, ...] = ()
    if clutter is not None:  # under the tiles' shadows: a tile's shadow falls on a keyboard as on the felt
        distractors_drawn = draw_on_table(clutter, image, cam, tile_footprint(cam, corners, (height, width)))
    cast_shadows(image, cam, corners, light, rng)
    table_props(rng, image, cam, half * 0.8)

    ids = np.full((height, width), -1, np.int32)
    tex = _Textures(rng, drawn)
    style_of = [int(rng.integers(len(tex.styles))) for _ in bodies]
    order = np.argsort([-np.linalg.norm(np.asarray(b.centre) - cam.pos) for b in bodies], kind="stable")
    drawn: dict[int, dict[int, tuple[float, float]]] = {}
    boxes: dict[int, tuple[int, int, int, int]] = {}
    for i in order:
        body, pts = bodies[i], corners[i]
        uv, z = cam.project(pts)
        if (z < 20).any():
            continue
        lo, hi = uv.min(axis=0), uv.max(axis=0)
        if hi[0] < 0 or hi[1] < 0 or lo[0] >= width or lo[1] >= height:
            continue
        boxes[i] = (
            int(max(lo[0] - 2, 0)),
            int(max(lo[1] - 2, 0)),
            int(min(hi[0] + 3, width)),
            int(min(hi[1] + 3, height)),
        )
        axes = np.asarray(body.axes)
        faces: dict[int, tuple[float, float]] = {}
        for f, (idx, local_n) in enumerate(_FACES):
            normal = axes @ np.asarray(local_n, float)
            centre = pts[list(idx)].mean(axis=0)
            to_camera = cam.pos - centre
            cosine = float(normal @ to_camera) / float(np.linalg.norm(to_camera))
            if cosine <= 0.02:
                continue
            if f == FRONT:
                texture = tex.face(body.class_id, style_of[i])
            elif f == BACK:
                texture = tex.back
            else:
                texture = tex.side
            lambert = ambient + diffuse * max(0.0, float(normal @ light))
            reflect = 2 * float(normal @ light) * normal - light
            spec = gloss * max(0.0, float(reflect @ to_camera) / float(np.linalg.norm(to_camera))) ** shininess
            area = _draw_quad(image, ids, texture, uv[list(idx)].astype(np.float32), i * 8 + f, lambert, spec)
            faces[f] = (area, cosine)
        drawn[i] = faces

    overlays(rng, image, ids)
    if clutter is not None and clutter.random() < 0.35:  # hands over the tiles hide some: labels follow as for arms
        distractors_drawn += draw_hands(clutter, image, ids, cam)
    labels = _labels(ids, bodies, drawn, boxes)
    quality = int(rng.integers(40, 96))
    out = _camera_effects(rng, image)
    return Sample(out, tuple(labels), kind, quality, distractors_drawn)


def _labels(ids: np.ndarray, bodies, drawn, boxes) -> list[Label]:
    counts = np.bincount(ids[ids >= 0].ravel(), minlength=len(bodies) * 8)
    labels = []
    for i, faces in drawn.items():
        cls = None
        for face, label_cls in ((FRONT, bodies[i].class_id), (BACK, BACK_CLASS)):
            if face not in faces:
                continue
            area, cosine = faces[face]
            if area >= MIN_AREA and cosine >= MIN_COSINE and counts[i * 8 + face] >= MIN_VISIBLE * area:
                cls, visible, facing = label_cls, min(1.0, float(counts[i * 8 + face] / area)), cosine
                break
        if cls is None:
            continue
        x0, y0, x1, y1 = boxes[i]
        mine = (ids[y0:y1, x0:x1] // 8) == i
        rows, cols = np.flatnonzero(mine.any(axis=1)), np.flatnonzero(mine.any(axis=0))
        if rows.size == 0:
            continue
        box = (float(x0 + cols[0]), float(y0 + rows[0]), float(x0 + cols[-1] + 1), float(y0 + rows[-1] + 1))
        labels.append(Label(cls, box, visible, facing))
    return labels


def _camera_effects(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Light falloff, colour cast, highlights, blur, noise; returns BGR uint8 (JPEG comes when it is encoded)."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a)) * rng.uniform(0, 0.6)
    r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
    vignette = 1 - rng.uniform(0, 0.4) * r2
    image = image * ((1 + ramp) * vignette)[..., None]
    image = image * rng.uniform(0.82, 1.18, 3).astype(np.float32) * rng.uniform(0.7, 1.25)
    if rng.random() < 0.2:  # a glare patch
        cx, cy, s = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * max(w, h)
        image = image + rng.uniform(0.1, 0.5) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))[..., None]
    image = np.clip(image, 0, 1) ** rng.uniform(0.8, 1.25)
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.15:
        n = int(rng.integers(3, 12))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    image = image + rng.normal(0, rng.uniform(0, 0.03), image.shape).astype(np.float32)
    out = np.clip(image * 255 + 0.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(out[..., ::-1])
