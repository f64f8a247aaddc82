"""Where tiles lie: layouts from real play, in millimetres on the table plane (z up, table centre at the origin).

A :class:`Body` is one tile as a 3-D box: its class, centre, rotation (the columns are the tile's own axes in world
coordinates: x to the glyph's right, y to the glyph's top, z out of the face) and its size. Seat 0 sits at -y;
seat k's layout is seat 0's turned by k quarter turns, so tiles face all four directions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.read.labels import BACK_CLASS, NUM_KINDS

RED_CLASSES = (34, 35, 36)
FIVE_CLASSES = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class TileSize:
    w: float = 26.0  # face width, mm
    h: float = 34.5  # face height
    d: float = 19.5  # thickness
    gap: float = 0.8


@dataclass(frozen=True, slots=True)
class Body:
    """One tile: ``class_id`` is what its face shows (also for a tile lying face down)."""

    class_id: int
    centre: tuple[float, float, float]
    axes: tuple[tuple[float, float, float], ...]  # 3x3, columns = local x, y, z in world
    size: TileSize

    def corners(self) -> np.ndarray:
        """The 8 corners (world, 8x3): index bits are (x+, y+, z+)."""
        s = self.size
        local = np.array(
            [[(i & 1) - 0.5, ((i >> 1) & 1) - 0.5, ((i >> 2) & 1) - 0.5] for i in range(8)], np.float64
        ) * (s.w, s.h, s.d)
        return np.asarray(self.centre) + local @ np.asarray(self.axes).T


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a body of a table layout belongs in play (ground truth for the table reader; drawing ignores it).

    ``seat`` counts quarter turns counter-clockwise from seat 0 (at -y); ``zone`` is ``hand``, ``meld``, ``pond``
    or ``wall``; ``index`` orders bodies within it (discard order in a pond, the meld's number, the wall stack).
    ``sideways`` marks a called or riichi tile; ``hidden`` one under another (a wall's lower tier, a kakan's
    called tile).
    """

    seat: int
    zone: str
    index: int
    sideways: bool = False
    hidden: bool = False


def _axes(x, y, z) -> tuple[tuple[float, float, float], ...]:
    m = np.stack([np.asarray(x, float), np.asarray(y, float), np.asarray(z, float)], axis=1)
    return tuple(tuple(float(v) for v in row) for row in m)


def lying(class_id: int, x: float, y: float, yaw: float, size: TileSize, face_up: bool = True, z0: float = 0.0):
    """A tile lying on the table (or on another tile at height ``z0``); ``yaw`` is the glyph top's direction."""
    up = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    z = np.array([0.0, 0.0, 1.0 if face_up else -1.0])
    return Body(class_id, (x, y, z0 + size.d / 2), _axes(np.cross(up, z), up, z), size)


def standing(class_id: int, x: float, y: float, facing: float, size: TileSize, lean: float = 0.0) -> Body:
    """A tile standing on its bottom edge, its face towards direction ``facing`` (a player sees it from there)."""
    n = np.array([math.cos(facing), math.sin(facing), 0.0])
    up = np.array([0.0, 0.0, 1.0])
    if lean:  # tilted back a little, as hands often are
        n, up = n * math.cos(lean) + up * math.sin(lean), up * math.cos(lean) - n * math.sin(lean)
    z = size.h / 2 * math.cos(lean) + size.d / 2 * abs(math.sin(lean))
    return Body(class_id, (x, y, z), _axes(np.cross(up, n), up, n), size)


def turned(body: Body, quarter_turns: int, centre=(0.0, 0.0)) -> Body:
    """The body turned about the vertical axis through ``centre`` by quarter turns (counter-clockwise)."""
    a = quarter_turns * math.pi / 2
    rot = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    c = np.asarray(body.centre) - (*centre, 0)
    new_centre = rot @ c + (*centre, 0)
    return Body(body.class_id, tuple(float(v) for v in new_centre), _axes(*(rot @ np.asarray(body.axes)).T), body.size)


class TileBag:
    """Draws tiles like a real set: four of each kind, one five of each suit red (sometimes none)."""

    def __init__(self, rng: np.random.Generator, reds: bool = True) -> None:
        tiles = [k for k in range(NUM_KINDS) for _ in range(4)]
        if reds:
            for red, five in zip(RED_CLASSES, FIVE_CLASSES, strict=True):
                tiles.remove(five)
                tiles.append(red)
        rng.shuffle(tiles)
        self.tiles = tiles
        self.rng = rng

    def draw(self) -> int:
        if not self.tiles:  # a scene may use more than one set's worth: refill
            self.__init__(self.rng)
        return self.tiles.pop()


def _row_x(n: int, size: TileSize, extra: float = 0.0) -> list[float]:
    step = size.w + size.gap
    start = -(n - 1) * step / 2
    return [start + i * step + (extra if i == n - 1 else 0.0) for i in range(n)]


def seat_layout(
    rng: np.random.Generator, bag: TileBag, size: TileSize, hand_y: float, tags: list[Placement] | None = None
) -> list[Body]:
    """One player's hand, melds and discards in seat-0 coordinates (player at -y, facing +y).

    With ``tags``, one :class:`Placement` (seat 0) per body is appended to it; the bodies do not change.
    """
    bodies: list[Body] = []
    tags = [] if tags is None else tags
    w, h, g = size.w, size.h, size.gap
    melds = int(rng.choice([0, 0, 0, 1, 1, 2, 3, 4]))
    n_hand = 13 - 3 * melds + int(rng.random() < 0.4)
    mode = rng.choice(["standing", "standing", "standing", "open", "down"])
    xs = _row_x(n_hand, size, extra=w * 0.4 if n_hand % 3 == 2 else 0.0)
    shift = float(rng.normal(0, 10)) - 2.2 * melds * w / 2
    lean = float(rng.uniform(0, 0.25))
    for i, x in enumerate(xs):
        cls = bag.draw()
        if mode == "standing":
            bodies.append(standing(cls, x + shift, hand_y, -math.pi / 2, size, lean=lean))
        else:
            bodies.append(lying(cls, x + shift, hand_y, math.pi / 2, size, face_up=mode == "open"))
        tags.append(Placement(0, "hand", i))
    # melds, right of the hand, laid from the table's edge leftwards
    x = shift + xs[-1] + w * 1.5 + float(rng.uniform(20, 50))
    for k in range(melds):
        x = _meld(rng, bag, size, x, hand_y - h / 2, bodies, tags, k)
    # discards: rows of six from the centre side, riichi tile sideways
    n_disc = int(rng.integers(0, 21))
    riichi = int(rng.integers(0, n_disc)) if n_disc and rng.random() < 0.35 else -1
    y0 = float(rng.uniform(90, 130))
    row_x = -3 * (w + g) + w / 2
    cx = row_x
    for i in range(n_disc):
        row, col = divmod(i, 6)
        if row > 2:
            row, col = 2, i - 12
        if col == 0:
            cx = row_x
        y = -(y0 + row * (h + g) + h / 2)
        if i == riichi:
            bodies.append(lying(bag.draw(), cx + h / 2, y - (h - w) / 2, math.pi, size))
            cx += h + g
        else:
            bodies.append(lying(bag.draw(), cx + w / 2, y, math.pi / 2, size))
            cx += w + g
        tags.append(Placement(0, "pond", i, sideways=i == riichi))
    return bodies


def _meld(
    rng: np.random.Generator,
    bag: TileBag,
    size: TileSize,
    right: float,
    front_y: float,
    out: list,
    tags: list[Placement],
    number: int,
) -> float:
    """Lay one meld ending at x=``right`` (its front edge at ``front_y``); return the next meld's right edge."""
    w, h, g = size.w, size.h, size.gap
    kind = rng.choice(["pon", "chi", "daiminkan", "kakan", "ankan"])
    first = bag.draw()
    count = 4 if kind in ("daiminkan", "ankan") else 3
    classes = [first] + [bag.draw() for _ in range(count - 1)]
    sideways = -1 if kind == "ankan" else int(rng.integers(0, 3 if count == 3 else 4))
    x = right
    for i in reversed(range(count)):
        if i == sideways:
            cx = x - h / 2
            y = front_y + w / 2
            out.append(lying(classes[i], cx, y, math.pi, size))  # turned: glyph top to the left
            tags.append(Placement(0, "meld", number, sideways=True, hidden=kind == "kakan"))
            if kind == "kakan":
                out.append(lying(bag.draw(), cx, y, math.pi, size, z0=size.d))  # added tile stacked on it
                tags.append(Placement(0, "meld", number, sideways=True))
            x -= h + g
        else:
            face_up = not (kind == "ankan" and i in (0, 3))
            out.append(lying(classes[i], x - w / 2, front_y + h / 2, math.pi / 2, size, face_up=face_up))
            tags.append(Placement(0, "meld", number))
            x -= w + g
    return x - float(rng.uniform(3, 12))


def wall_layout(
    rng: np.random.Generator,
    bag: TileBag,
    size: TileSize,
    wall_y: float,
    dead: bool,
    tags: list[Placement] | None = None,
) -> list[Body]:
    """A face-down wall of two tiers in seat-0 coordinates, partly drawn; the dead wall shows dora indicators."""
    bodies: list[Body] = []
    tags = [] if tags is None else tags
    stacks = 17
    xs = _row_x(stacks, size)
    keep = sorted(rng.choice(stacks, size=stacks - int(rng.integers(0, 12)), replace=False)) if not dead else []
    start = int(rng.integers(0, stacks - 7)) if dead else 0
    dead_range = range(start, start + 7) if dead else range(0)
    indicators = set(range(start + 2, start + 2 + int(rng.integers(1, 4)))) if dead else set()
    run = range(stacks) if dead else range(int(rng.integers(0, 6)), stacks - int(rng.integers(0, 6)))
    for i in run:
        if not dead and i not in keep and rng.random() < 0.3:
            continue
        for tier in (0, 1):
            face_up = tier == 1 and i in indicators
            if dead and i not in dead_range and rng.random() < 0.2:
                continue
            bodies.append(lying(bag.draw(), xs[i], wall_y, math.pi / 2, size, face_up=face_up, z0=tier * size.d))
            tags.append(Placement(0, "wall", i))
    # a lower tier under an upper one is hidden from above
    tops = {t.index for t, b in zip(tags[len(tags) - len(bodies) :], bodies, strict=True) if b.centre[2] > size.d}
    for k in range(len(tags) - len(bodies), len(tags)):
        body = bodies[k - (len(tags) - len(bodies))]
        if body.centre[2] < size.d and tags[k].index in tops:
            tags[k] = Placement(0, "wall", tags[k].index, hidden=True)
    return bodies


def table_layout(rng: np.random.Generator, size: TileSize, tags: list[Placement] | None = None) -> list[Body]:
    """A whole table mid-game: four seats' hands, melds and ponds, the walls and the dead wall.

    With ``tags``, one :class:`Placement` per body is appended to it (draws nothing from ``rng``: the layout is the
    same with or without).
    """
    bag = TileBag(rng, reds=rng.random() < 0.8)
    bodies: list[Body] = []
    scale = size.h / 34.5
    hand_y = -float(rng.uniform(300, 360)) * scale
    wall_y = -float(rng.uniform(215, 250)) * scale
    walls = rng.random() < 0.75
    dead_seat = int(rng.integers(0, 4))
    for seat in range(4):
        part_tags: list[Placement] = []
        part = seat_layout(rng, bag, size, hand_y, part_tags)
        if walls:
            part += wall_layout(rng, bag, size, wall_y, dead=seat == dead_seat, tags=part_tags)
        bodies += [turned(b, seat) for b in part]
        if tags is not None:
            tags += [Placement(seat, t.zone, t.index, t.sideways, t.hidden) for t in part_tags]
    return bodies


def loose_layout(rng: np.random.Generator, size: TileSize) -> list[Body]:
    """Tiles on a mat outside play: scattered face up, face down, and short standing rows facing one way."""
    bag = TileBag(rng, reds=rng.random() < 0.7)
    bodies: list[Body] = []
    occupied: list[tuple[float, float, float]] = []
    area = float(rng.uniform(150, 350))
    facing = -math.pi / 2 + float(rng.normal(0, 0.3))  # rows face seat 0, where cameras often stand

    def free(x: float, y: float, r: float) -> bool:
        return all((x - a) ** 2 + (y - b) ** 2 > (r + c) ** 2 for a, b, c in occupied)

    for _ in range(int(rng.integers(0, 4))):  # standing rows, like photos of sorted tiles
        n = int(rng.integers(3, 12))
        x0, y0 = rng.uniform(-area, area, 2)
        spread = float(rng.choice([0.0, 0.0, rng.uniform(2, 25)]))
        ux, uy = -math.sin(facing), math.cos(facing)
        for i in range(n):
            off = (i - n / 2) * (size.w + size.gap + spread)
            x, y = x0 + ux * off + rng.normal(0, spread / 3 + 0.01), y0 + uy * off + rng.normal(0, spread / 3 + 0.01)
            if free(x, y, size.h * 0.6):
                occupied.append((x, y, size.h * 0.6))
                bodies.append(standing(bag.draw(), x, y, facing + rng.normal(0, 0.12), size))
    for _ in range(int(rng.integers(4, 40))):
        x, y = rng.uniform(-area, area, 2)
        if not free(x, y, size.h * 0.62):
            continue
        occupied.append((x, y, size.h * 0.62))
        r = rng.random()
        if r < 0.75:
            bodies.append(lying(bag.draw(), x, y, float(rng.uniform(0, 2 * math.pi)), size))
        elif r < 0.9:
            bodies.append(lying(bag.draw(), x, y, float(rng.uniform(0, 2 * math.pi)), size, face_up=False))
        else:
            bodies.append(standing(bag.draw(), x, y, float(rng.uniform(0, 2 * math.pi)), size))
    return bodies


def hand_layout(rng: np.random.Generator, size: TileSize) -> list[Body]:
    """One player's corner close up: a hand (standing or laid down) with its melds, as a phone shot of a hand."""
    bag = TileBag(rng, reds=rng.random() < 0.8)
    bodies = seat_layout(rng, bag, size, hand_y=0.0)
    return [b for b in bodies if b.centre[1] > -60] if rng.random() < 0.5 else bodies


def is_back_class(class_id: int) -> bool:
    return class_id == BACK_CLASS
