"""Reading tiles that lie turned in the photo: a hand photographed at a slant, loose tiles askew on the cloth.

The detector and the crop classifier learnt tiles upright or sideways. :class:`UprightDetector`
(``UprightDetector(inner)``; the reader's ``turned_tiles`` view) reads the photo as it is, measures how each box's tile
lies (:func:`tile_turn`: the 4-fold mean of the gradient directions inside the box, modulo a quarter turn), groups the
tiles turned alike (:func:`turn_groups`), reads the photo again turned back by each group's turn (:class:`TurnedView`),
and takes each tile from the view in which it stands straightest (a tile the photo's edge cuts as sure as the photo's
own reading of it). A photo of upright tiles is read once, and so is one whose sideways tiles stand straight, read
surely, mostly backs (a whole table's walls: :meth:`UprightDetector.calls_for_upright`). A detection read from a turned
view carries its ``turn`` (degrees counter-clockwise as the photo shows it) and the upright bounds of the turned tile;
:func:`vision.read.rows.read_tiles` reads rows along that turn. A half turn is told by
:mod:`vision.read.views.upside_down`. What was measured when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import Detection, Detector, DetectorLayer, Orientation
from vision.read.geometry import Box
from vision.read.postprocess import PAD_VALUE

#: Below this turn (degrees) the photo's own reading stands: the network reads tiles turned by 15 degrees as well
#: as upright ones.
MIN_TURN = 12.0
#: A tile of the first reading is kept over the turned view's reading of it only when it stands straighter there
#: by this much (degrees): each measure is good to about 5 degrees on a real tile.
PREFER_MARGIN = 8.0
#: The share of a turned view's tiles (weighed by confidence) that must lie sideways for it to be read a quarter
#: turn further: a whole table or a hand with melds shows both ways, and is read as the turn stood it.
SIDEWAYS_PHOTO = 2 / 3
#: What lying sideways in a view counts for, in degrees from straight, when the merge ranks readings: the network
#: reads sideways tiles less well.
SIDEWAYS_OFF = 10.0
#: A group of tiles standing straight but mostly sideways is read again upright when one of its boxes was read under
#: this confidence, for the upright reading to confirm or drop it: the demo recording's whole tables showed sideways
#: 5z phantoms at 0.52 and 0.53 that the upright reading drops, while the walls of backs of ``jantaku-lab bench
#: read``'s 640 frame are all read at 0.68 or more.
CONFIRM_BELOW = 0.6
#: The rank of the reading a turned group claims from the read's budget (:meth:`vision.read.budget.RunBudget.claim`),
#: and of the upright reading of a sideways group: before squat tiles' (low_angle's rank, 1), and after.
TILTED_RANK, UPRIGHT_RANK = 0, 2
#: How far from straight a tile counts when its turn cannot be told (the most a turn modulo a quarter can be).
UNKNOWN_TURN = 45.0
#: The side (px) a box's inside is resized to before its gradients are taken: enough for a tile's edges and strokes.
_MEASURE_SIDE = 48
#: Below this agreement of its gradients (:func:`_coherence`) a box says nothing of how its tile lies: a face of
#: pips, a blank White dragon, glare (real tiles: 95 % at 0.1 or more, turned in a row; loose ones 0.3 or more).
MIN_COHERENCE = 0.1


def _turn_sums(image: np.ndarray, box: Box, shrink: float) -> np.ndarray:
    """(sum w cos 4phi, sum w sin 4phi, sum w) over the middle ``shrink`` of ``box``: phi the gradient direction,
    w its magnitude."""
    h, w = image.shape[:2]
    cx, cy = box.center
    hw, hh = box.width * shrink / 2, box.height * shrink / 2
    x1, y1 = max(int(cx - hw), 0), max(int(cy - hh), 0)
    x2, y2 = min(math.ceil(cx + hw), w), min(math.ceil(cy + hh), h)
    if x2 - x1 < 3 or y2 - y1 < 3:
        return np.zeros(3)
    crop = image[y1:y2, x1:x2]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    s = _MEASURE_SIDE / min(grey.shape[:2])
    grey = cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    grey = grey.astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    # w cos 4phi and w sin 4phi from the gradient's components, without their angle: with r^2 = gx^2 + gy^2,
    # r^2 cos 2phi = gx^2 - gy^2 and r^2 sin 2phi = 2 gx gy, then the double angle again (a third of the time)
    xx, yy = gx * gx, gy * gy
    r2 = xx + yy
    weight = np.sqrt(r2)
    c2, s2 = xx - yy, 2 * gx * gy
    cubed = r2 * weight
    per = np.divide(1.0, cubed, out=np.zeros_like(cubed), where=cubed > 0)
    return np.array([((c2 * c2 - s2 * s2) * per).sum(), (2 * c2 * s2 * per).sum(), weight.sum()], np.float64)


def _degrees(sums: np.ndarray) -> float:
    """The turn of the sums, counter-clockwise as an image shows it (its y axis points down), in [-45, 45)."""
    if sums[2] <= 0 or (sums[0] == 0 and sums[1] == 0):
        return 0.0
    # image y points down, so a gradient angle measured with it turns clockwise: negate for counter-clockwise
    turn = -math.degrees(math.atan2(sums[1], sums[0]) / 4)
    return _folded(turn)


def _folded(degrees):
    """``degrees`` (a number or an array) modulo a quarter turn, in [-45, 45)."""
    return (degrees + 45.0) % 90.0 - 45.0


def _coherence(sums: np.ndarray) -> float:
    """How much the gradients agree on the two axes (0: no direction at all, 1: all along them)."""
    return float(math.hypot(sums[0], sums[1]) / sums[2]) if sums[2] > 0 else 0.0


def tile_turn(image: np.ndarray, box: Box, shrink: float = 0.8) -> float | None:
    """How far the tile in ``box`` is turned (degrees, counter-clockwise, modulo a quarter turn: [-45, 45)), or None
    when its gradients agree on no direction (:data:`MIN_COHERENCE`)."""
    return _turn_of(_turn_sums(image, box, shrink))


def _turn_of(sums: np.ndarray) -> float | None:
    """:func:`tile_turn` of a box's :func:`_turn_sums`."""
    return _degrees(sums) if _coherence(sums) >= MIN_COHERENCE else None


def measured_turn(image: np.ndarray, box: Box, shrink: float) -> float | None:
    """:func:`tile_turn` of the middle ``shrink`` of ``box`` (clear of a row's neighbours), or of the whole box when
    the middle tells nothing: a face of pips has no direction inside, its tile's edges do (camerash's loose tiles:
    pins left unmeasured were taken from a view turned for other tiles, boxed 1.8 times too wide)."""
    turn = tile_turn(image, box, shrink)
    return tile_turn(image, box, 1.0) if turn is None and shrink < 1.0 else turn


@dataclass(frozen=True, slots=True)
class TurnedView:
    """The photo turned back by ``degrees`` (clockwise as shown, so that tiles lying turned that much
    counter-clockwise stand upright) onto a canvas that holds all of it (grey elsewhere: the letterbox's grey, which
    the network learnt as nothing); ``to_photo`` maps its pixels back to the photo's (2 x 3 affine)."""

    image: np.ndarray
    degrees: float
    to_photo: np.ndarray

    @classmethod
    def of(cls, photo: np.ndarray, degrees: float, scale: float = 1.0) -> TurnedView:
        """The view of ``photo`` turned by ``degrees``, shrunk by ``scale`` first (at most 1)."""
        full_h, full_w = photo.shape[:2]
        if scale < 1.0:
            photo = cv2.resize(
                photo, (max(1, round(full_w * scale)), max(1, round(full_h * scale))), interpolation=cv2.INTER_AREA
            )
        h, w = photo.shape[:2]
        a = math.radians(degrees)
        cos, sin = abs(math.cos(a)), abs(math.sin(a))
        out_w, out_h = math.ceil(w * cos + h * sin), math.ceil(w * sin + h * cos)
        # OpenCV's positive angle turns the picture counter-clockwise as shown; the turned view stands tiles
        # turned by ``degrees`` upright, so the photo is turned by minus that
        forward = cv2.getRotationMatrix2D((w / 2, h / 2), -degrees, 1.0)
        forward[:, 2] += [(out_w - w) / 2, (out_h - h) / 2]
        image = cv2.warpAffine(
            photo, forward, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=(PAD_VALUE, PAD_VALUE, PAD_VALUE)
        )
        back = cv2.invertAffineTransform(forward)
        back[0] *= full_w / w  # to the photo's own pixels (the resize rounds: not 1 / scale exactly)
        back[1] *= full_h / h
        return cls(image, degrees, back)

    def points_in_photo(self, points: np.ndarray) -> np.ndarray:
        """Points of this view, (n, 2), in photo pixels."""
        return np.asarray(points, np.float64) @ self.to_photo[:, :2].T + self.to_photo[:, 2]


@dataclass(frozen=True, slots=True, eq=False)
class _Candidate:
    detection: Detection  # in photo pixels
    outline: np.ndarray  # the tile's four corners in photo pixels, float32 (4, 2)
    turn: float | None  # how the tile lies turned in the view that read it (degrees, [-45, 45)); None: unknown
    off: float  # how far it stands from straight there, as the merge ranks it (degrees)
    view: int  # which view read it: 0 the photo itself, 1... the turned views
    sideways: bool  # whether it lies sideways in that view
    centre: tuple[float, float] = field(init=False)  # of its outline
    bounds: tuple[float, float, float, float] = field(init=False)  # its outline's (x1, y1, x2, y2)

    def __post_init__(self) -> None:
        lo, hi = self.outline.min(axis=0), self.outline.max(axis=0)
        object.__setattr__(self, "centre", _centre(self.outline))
        object.__setattr__(self, "bounds", (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])))


def _inside(point: tuple[float, float], outline: np.ndarray) -> bool:
    return cv2.pointPolygonTest(outline, point, False) >= 0


def _same_tile(a: _Candidate, b: _Candidate) -> bool:
    """Whether two readings are of one tile: either's centre lies inside the other's outline (turned boxes'
    upright bounds overlap their neighbours', their outlines do not)."""
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = a.bounds, b.bounds
    if ax1 > bx2 or bx1 > ax2 or ay1 > by2 or by1 > ay2:  # apart: neither centre can lie in the other
        return False
    return _inside(a.centre, b.outline) or _inside(b.centre, a.outline)


def _centre(outline: np.ndarray) -> tuple[float, float]:
    c = outline.mean(axis=0)
    return float(c[0]), float(c[1])


@dataclass(frozen=True, slots=True)
class TurnGroup:
    """Tiles of the first reading that lie turned alike: their turn (their gradients pooled) and themselves."""

    turn: float
    members: tuple[Detection, ...]


def turn_groups(
    image: np.ndarray,
    detections: Sequence[Detection],
    tolerance: float = 12.0,
    most: int | None = None,
    sums: Sequence[np.ndarray] | None = None,
) -> list[TurnGroup]:
    """``detections`` grouped by how their tiles lie turned (modulo a quarter), the heaviest group first (weighed by
    confidence): the tiles within ``tolerance`` degrees of the densest turn left, again and again (at most ``most``
    groups, the rest left out; all of them for None). A hand at a slant is one group; loose tiles askew are several.
    ``sums``: each detection's whole box's :func:`_turn_sums`, where the caller has them."""
    if sums is None:
        sums = [_turn_sums(image, d.box, 1.0) for d in detections]
    turns = np.array([_degrees(v) for v in sums])
    weights = np.array([d.conf for d in detections])
    left = np.array([_coherence(v) >= MIN_COHERENCE for v in sums], bool)  # the others say nothing of it
    groups = []
    while left.any() and (most is None or len(groups) < most):
        # the densest turn: the turn of a detection left with the most weight within ``tolerance`` of it
        near = np.abs(_folded(turns[:, None] - turns[None, :])) <= tolerance
        density = (near & left[None, :]) @ weights
        seed = int(np.argmax(np.where(left, density, -1.0)))
        member = left & near[seed]
        pooled = sum((sums[i] for i in np.flatnonzero(member)), np.zeros(3))
        groups.append(TurnGroup(_degrees(pooled), tuple(detections[i] for i in np.flatnonzero(member))))
        left &= ~member
    return groups


@dataclass
class UprightDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reads turned tiles upright (see the module's docstring).

    ``last_turns`` are the turns the last photo was read again at (none when its own reading stood).
    """

    detector: Detector
    min_turn: float = MIN_TURN
    prefer_margin: float = PREFER_MARGIN
    #: Confidence from which a detection speaks for how tiles lie, and a tile only the first reading found is kept.
    sure: float = 0.5
    #: A sideways group with a box read under this confidence is read again upright (:meth:`calls_for_upright`).
    confirm_below: float = CONFIRM_BELOW
    #: The most views read turned besides the photo itself (one per group of tiles turned alike).
    most_views: int = 3
    #: The short side (px) the tiles are shown at in a turned view, at most (the crop classifier reads 64 x 48, the
    #: red-five check 96 px): a photo with bigger tiles is shrunk before it is turned.
    view_tile: float = 128.0
    #: The read's model runs: a turned view is read only while another reading fits (the heaviest groups first),
    #: one kept back for it from the read's first detections when they lie turned.
    budget: RunBudget = field(default_factory=RunBudget)
    last_turns: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        # a group lying turned claims its reading before squat tiles do; sideways tiles read upright, after them:
        # squat faces lie wide, and their stretched reading is the one that reads them
        tilted, upright = TILTED_RANK, UPRIGHT_RANK
        self.budget.claim("turned_tiles", lambda im, found: self._calls_for(im, found, True), tilted)
        self.budget.claim("turned_tiles", lambda im, found: self._calls_for(im, found, False), upright)

    def _calls_for(self, image: np.ndarray, found: Sequence[Detection], tilted: bool) -> bool:
        """Whether ``found`` calls for a turned view of a group lying turned (``tilted``) or of sideways tiles."""
        return any((abs(g.turn) >= self.min_turn) is tilted for g, _ in self.views_called_for(image, found))

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.detector.detect(image)
        self.last_turns = ()
        views: list[tuple[TurnedView, list[Detection], tuple[Detection, ...]]] = []
        # views need no more pixels than show the tiles at ``view_tile`` px (turning a 12 MP photo costs 0.1 s)
        tile = float(np.median([min(d.box.width, d.box.height) for d in self._sure(found)])) if found else 0.0
        scale = min(1.0, self.view_tile / tile) if tile > 0 else 1.0
        # each box's gradients, once: they say how the groups lie and how each tile of the photo's reading does
        sums = [_turn_sums(image, d.box, 1.0) for d in found]
        for group, turn in self.views_called_for(image, found, sums):
            if not self.budget.affords_read("turned_tiles"):
                break
            view, read = self._read_turned(image, turn, scale)
            # the turn stood them sideways (near 45 degrees, or past it): a quarter turn more; a group that lies
            # both ways (a whole table, a hand with its melds' called tiles) is read as the turn stood it
            if _mostly_sideways(
                self._sure(_over(view, read, group.members) or read), SIDEWAYS_PHOTO
            ) and self.budget.affords_read("turned_tiles"):
                view, read = self._read_turned(image, turn - 90.0 if turn > 0 else turn + 90.0, scale)
            views.append((view, read, group.members))
        if not views:
            return found
        self.last_turns = tuple(round(view.degrees, 1) for view, _, _ in views)
        shape = image.shape[:2]
        first = []
        for d, box_sums in zip(found, sums, strict=True):
            if d.box.area > 0:
                # the whole box: loose tiles' edges tell how they lie, where their glyphs may not (a 7m's strokes
                # measured 24 degrees in its middle, 3 in its box), and a row's neighbours lie alike
                turn = _turn_of(box_sums)
                off = UNKNOWN_TURN if turn is None else abs(turn)
                first.append(_Candidate(d, _outline(d.box), turn, off, 0, d.orientation is Orientation.SIDEWAYS))
        again = []
        for k, (view, read, members) in enumerate(views, start=1):
            own = {id(d) for d in _over(view, read, members)}
            again += [c for d in read if (c := self._from_view(view, d, id(d) in own, shape, k)) is not None]
        return self._merged([view for view, _, _ in views], first + again, shape)

    def views_called_for(
        self, image: np.ndarray, found: Sequence[Detection], sums: Sequence[np.ndarray] | None = None
    ) -> list[tuple[TurnGroup, float]]:
        """The groups of ``found`` to read in a turned view, heaviest first (at most ``most_views``), each with the
        turn it is read at; none for a photo whose own reading stands. ``sums``: as :func:`turn_groups` takes them."""
        out = []
        # turned tiles are often read unsurely: every box speaks for how tiles lie, by its confidence; a group too
        # light to be one sure tile is clutter (a shelf, a book's edge), and the sure boxes alone say how it lies
        groups = [g for g in turn_groups(image, found, sums=sums) if sum(d.conf for d in g.members) >= self.sure]
        for group in groups[: self.most_views]:
            turn = group.turn
            if abs(turn) < self.min_turn:
                # sideways tiles (a photo taken from the side) are read better upright
                if not _mostly_sideways(self._sure(list(group.members))):
                    continue  # the photo's own reading reads these
                if not self.calls_for_upright(group):
                    continue  # read surely sideways: the upright reading would be a second run of the same
                turn += 90.0
            out.append((group, turn))
        return out

    def calls_for_upright(self, group: TurnGroup) -> bool:
        """Whether a group of tiles standing straight but mostly sideways is worth reading again a quarter turn
        further (about three more model runs): one of its boxes was read unsurely (under ``confirm_below``), for the
        upright reading to confirm or drop, in a photo read whole (not in slices: :attr:`RunBudget.first_passes`), or
        most of its sideways tiles show faces (a photo taken from the side), which the network reads better upright.
        A group read surely whose sideways tiles are mostly backs (a whole table's walls; the 640 frame of
        ``jantaku-lab bench read``) has nothing to read better upright."""
        # a photo its first reading sliced (a whole table, its tiles small) would be read whole again to confirm a few
        # boxes: there an unsure group is dropped as no tile (vision.read.plausible), and an unsure box calls for no
        # upright reading
        sliced = (self.budget.first_passes or 1) > 1
        if not sliced and any(d.conf < self.confirm_below for d in group.members):
            return True
        sideways = [d for d in group.members if d.orientation is Orientation.SIDEWAYS]
        return 2 * sum(not d.is_back for d in sideways) > len(sideways)

    def _sure(self, detections: list[Detection]) -> list[Detection]:
        """The detections read with ``sure`` confidence or more; all of them when none is."""
        return [d for d in detections if d.conf >= self.sure] or detections

    def _read_turned(self, image: np.ndarray, degrees: float, scale: float) -> tuple[TurnedView, list[Detection]]:
        view = TurnedView.of(image, degrees, scale)
        return view, self.detector.detect(view.image)

    def _from_view(
        self, view: TurnedView, d: Detection, own: bool, shape: tuple[int, int], k: int
    ) -> _Candidate | None:
        turn = measured_turn(view.image, d.box, 0.8)
        # a tile of the group the view was turned for stands straight in it, whatever its measure says (a few
        # degrees measured there are its thickness seen from the side, or its neighbours'), and its box is its
        # outline; so is the box of one measured near straight
        off = 0.0 if own else abs(turn) if turn is not None else UNKNOWN_TURN
        tight = not own and turn is not None and abs(turn) >= self.min_turn
        corners = view.points_in_photo(_tile_outline(d.box, turn) if tight else _outline(d.box))
        h, w = shape
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        box = Box(max(float(lo[0]), 0.0), max(float(lo[1]), 0.0), min(float(hi[0]), w), min(float(hi[1]), h))
        if box.width <= 0 or box.height <= 0:  # on the view's grey margin only
            return None
        # the turn of the view that stood it upright: the reader's rows run along it
        along = (view.degrees + 180.0) % 360.0 - 180.0
        turned = replace(d, box=box, orientation=Orientation.of_box(d.box), turn=round(along, 1))
        return _Candidate(turned, corners.astype(np.float32), turn, off, k, turned.orientation is Orientation.SIDEWAYS)

    def _merged(self, views: list[TurnedView], candidates: list[_Candidate], shape: tuple[int, int]) -> list[Detection]:
        """Each tile as read in the view where it stands straightest (the photo's own reading only when straighter
        by ``prefer_margin``, or standing straight in it and read surer); tiles read in one view only are kept, but for
        the photo's own unsure or turned ones. A tile the photo's edge cuts is as sure as the photo's own reading
        of it (:func:`_sure_as_the_photo`)."""
        kept: list[_Candidate] = []

        def rank(c: _Candidate) -> tuple[float, float]:
            sideways = SIDEWAYS_OFF if c.sideways else 0.0
            return c.off + sideways + (self.prefer_margin if c.view == 0 else 0.0), -c.detection.conf

        ranked = sorted(candidates, key=rank)
        # tiles the photo's own reading found surely, standing straight and upright (sideways ones read better
        # upright in a view)
        standing = [
            c
            for c in candidates
            if c.view == 0 and not c.sideways and c.off <= self.min_turn / 2 and c.detection.conf >= self.sure
        ]
        for c in ranked:
            if any(k.view != c.view and _same_tile(c, k) for k in kept):
                continue  # read straighter in another view
            if c.view != 0 and any(o.detection.conf > c.detection.conf and _same_tile(c, o) for o in standing):
                # a turned view's box does not take the place of a standing tile read surer: a view turned for one
                # odd face (camerash's 8 of pins measures 45 degrees) boxes its row's straight tiles together, less
                # surely, and took three tiles' place
                continue
            if c.view == 0 and not any(o.view != 0 and _same_tile(c, o) for o in candidates):
                # a tile no turned view read: kept when it stands straight here (or its turn cannot be told) but
                # turned well past ``min_turn`` in every view (so they may well have missed it), and was read surely
                # (a reading of turned tiles boxes their halves and pips, unsurely); or a back read past
                # ``confirm_below``: a view reads faces upright, and a wall seen edge on reads as nothing in it
                turn = c.turn or 0.0
                missed = all(abs(_folded(turn - v.degrees)) >= 2 * self.min_turn for v in views)
                stands = abs(turn) < self.min_turn and missed and c.detection.conf >= self.sure
                if not stands and not (c.detection.is_back and c.detection.conf >= self.confirm_below):
                    continue
            kept.append(c)
        first = [c for c in candidates if c.view == 0]
        out = (_sure_as_the_photo(c, first, shape) for c in kept)
        return sorted(out, key=lambda d: (d.box.y1, d.box.x1))


def _sure_as_the_photo(chosen: _Candidate, first: Sequence[_Candidate], shape: tuple[int, int]) -> Detection:
    """``chosen``'s detection; for a tile of a turned view that the photo's edge cuts, as sure as the photo's own
    reading of it when that named it alike. The edge cuts it square in the photo, as the network's training images
    cut tiles, but slantwise into the grey in a turned view, which no training image shows; the edge rule
    (:mod:`vision.read.views.photo_edge`) keeps a cut tile by how sure it is. Only cut tiles: a tile's confidence
    is otherwise its view's, as the views' comparisons (:mod:`vision.read.views.compare`) read it."""
    if chosen.view == 0 or not _cut_by_frame(chosen.outline, shape):
        return chosen.detection
    alike = [c for c in first if c.detection.tile == chosen.detection.tile and _same_tile(c, chosen)]
    conf = max((c.detection.conf for c in alike), default=0.0)
    return replace(chosen.detection, conf=conf) if conf > chosen.detection.conf else chosen.detection


def _cut_by_frame(outline: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether the tile of ``outline`` (photo pixels) runs out of a photo of ``shape`` (height, width) by more than a
    pixel."""
    h, w = shape
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    return bool(lo[0] < -1.0 or lo[1] < -1.0 or hi[0] > w + 1.0 or hi[1] > h + 1.0)


def _over(view: TurnedView, read: Sequence[Detection], members: Sequence[Detection]) -> list[Detection]:
    """The detections of ``view`` whose centres lie inside the boxes of ``members`` (photo pixels)."""
    out = []
    for d in read:
        x, y = view.points_in_photo(np.array([d.box.center]))[0]
        if any(m.box.x1 <= x <= m.box.x2 and m.box.y1 <= y <= m.box.y2 for m in members):
            out.append(d)
    return out


def _mostly_sideways(detections: Sequence[Detection], share: float = 0.5) -> bool:
    """Whether more than ``share`` of ``detections``, weighed by confidence, lie sideways (boxes wider than tall)."""
    sideways = sum(d.conf for d in detections if d.orientation is Orientation.SIDEWAYS)
    return sideways > share * sum(d.conf for d in detections)


def _tile_outline(box: Box, turn: float) -> np.ndarray:
    """The corners of the tile inside ``box`` lying turned by ``turn`` degrees (counter-clockwise as shown): the
    rectangle whose turned bounds are the box, (4, 2). A box bounds a turned tile loosely, and its corners taken
    for the tile's would bound it more loosely again once turned back; past 30 degrees (where the sizes can no
    longer be told apart well) and for a turn under one degree, the box itself."""
    a = math.radians(abs(turn))
    cos, sin = math.cos(a), math.sin(a)
    det = cos * cos - sin * sin
    width, height = box.width, box.height
    if det < 0.5 or abs(turn) < 1.0:
        return _outline(box)
    w, h = (width * cos - height * sin) / det, (height * cos - width * sin) / det
    if w <= 0.3 * width or h <= 0.3 * height:  # the box is not a turned tile's (two tiles, a tile and its shadow)
        return _outline(box)
    t = math.radians(turn)
    c, s = math.cos(t), math.sin(t)
    cx, cy = box.center
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    # counter-clockwise as shown, with y pointing down
    return np.stack([cx + half[:, 0] * c + half[:, 1] * s, cy - half[:, 0] * s + half[:, 1] * c], axis=1)


def _outline(box: Box) -> np.ndarray:
    return np.array(box.corners, np.float32)
