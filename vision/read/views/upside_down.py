"""Reading a photo taken from across the table: tiles upside down, a hand facing the other way.

:class:`HalfTurnDetector` (``HalfTurnDetector(inner, probe, way_up)``; the reader's ``upside_down`` view) reads the
photo and its half turn with ``probe`` (the detector at the tiles' scale, no classifier), pairs the boxes of the two
readings, and reads the photo turned a half turn when the half turn reads surer
(:func:`vision.read.views.compare.reads_surer`); the tiles are mapped back with ``turn`` 180 more, so that a hand
reads in its owner's order. When the probe leaves a photo as it is, the way-up network (:mod:`vision.read.way_up`)
votes on its tiles' faces, and a vote over :data:`WAY_UP_VOTE` reads it turned; when the probe would turn it, faces
voted surely upright (:data:`WAY_UP_VETO`) keep the order they stand in. The probe built by
:meth:`vision.read.pipeline.Reader.from_config` is the reader inside the crop classifier and remembers its readings for
the call (:meth:`vision.read.scale.PhotoDetector.remembering`), so the chosen view is not read a third time. What was
measured when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

from collections import deque
from contextlib import nullcontext
from dataclasses import replace

import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import Detection, Detector, DetectorLayer
from vision.read.table import TABLE_MIN_TILES
from vision.read.views.compare import reads_surer

#: A photo the probe leaves as it is is read turned when its tiles' way-up vote is over this (1: every tile surely
#: upside down; tiles that look the same both ways give about 0).
WAY_UP_VOTE = 0.2
#: ... and a photo the probe reads surer turned is read so, but its tiles in the order they stand, when their vote
#: is under minus this: faces surely upright outvote a detector a little surer of another set's tiles upside down.
WAY_UP_VETO = 0.3


def half_turned(image: np.ndarray) -> np.ndarray:
    """``image`` turned a half turn (a copy)."""
    return np.ascontiguousarray(image[::-1, ::-1])


def wrapped(degrees: float) -> float:
    """``degrees`` in (-180, 180].

    >>> wrapped(190.0), wrapped(-180.0), wrapped(180.0), wrapped(30.0)
    (-170.0, 180.0, 180.0, 30.0)
    """
    out = (degrees + 180.0) % 360.0 - 180.0
    return 180.0 if out == -180.0 else out


def half_turn_affine(height: int, width: int) -> list[list[float]]:
    """The 2 x 3 affine of a half turn of a ``height`` x ``width`` image (its own inverse)."""
    return [[-1.0, 0.0, float(width)], [0.0, -1.0, float(height)]]


def detection_back(d: Detection, height: int, width: int) -> Detection:
    """A detection read on the half turn of a ``height`` x ``width`` photo, in the photo's pixels: its box turned
    back and its ``turn`` a half turn more."""
    return replace(d, box=d.box.moved(half_turn_affine(height, width)), turn=wrapped(d.turn + 180.0))


class HalfTurnDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reads a photo its half turn shows upright turned that way (see the
    module's docstring). ``probe`` reads both ways to tell; ``detector`` reads the photo; ``way_up`` (a
    :class:`~vision.read.way_up.OnnxWayUp`, or None) tells a photo the probe does not turn by its tiles' faces: turned
    when their vote (:func:`~vision.read.way_up.upside_down_vote`) is over :data:`WAY_UP_VOTE`. A photo the probe reads
    surer turned whose faces the network votes surely upright is read on its half turn all the same, its tiles in
    the order their faces stand. ``turned`` records, per photo read (the last 64), whether its tiles were taken to
    lie upside down, and ``votes`` the way-up vote (None: not asked, or no tile to ask about)."""

    def __init__(
        self,
        detector: Detector,
        probe: Detector,
        way_up=None,
        *,
        vote_first: bool = True,
        budget: RunBudget | None = None,
    ) -> None:
        self.detector = detector
        self.probe = probe
        self.way_up = way_up
        #: The read's model runs: the way-up vote and the half turn's probe are made only while they fit with what
        #: reading the chosen view takes beyond the probe's pass (:attr:`.RunBudget.rest_of_reading`).
        self.budget = budget or RunBudget()
        #: Ask the way-up network before reading the half turn, and read it only when the vote is unsure: a photo's
        #: tiles voted surely upright or upside down cost no second reading.
        self.vote_first = vote_first
        self.turned: deque[bool] = deque(maxlen=64)
        self.votes: deque[float | None] = deque(maxlen=64)

    def reads_turned(self, image: np.ndarray, turned: np.ndarray | None = None) -> bool:
        """Whether ``image``'s tiles lie upside down: the probe reads its half turn (``turned``, made when None)
        surer (:func:`vision.read.views.compare.reads_surer`) and the way-up network does not vote them surely upright
        (:data:`WAY_UP_VETO`), or else the network votes them upside down (:data:`WAY_UP_VOTE`)."""
        return self.tell(image, turned)[1]

    def tell(self, image: np.ndarray, turned: np.ndarray | None = None) -> tuple[bool, bool]:
        """(whether to read ``image`` on its half turn, whether its tiles lie upside down). They differ only for a
        photo the probe reads surer turned and whose faces vote surely upright: read turned, its tiles upright. A whole
        table (:data:`~vision.read.table.TABLE_MIN_TILES` boxes or more) is read as it is. With :attr:`vote_first`, a
        way-up vote past :data:`WAY_UP_VOTE` either way decides alone (the half turn is not read)."""
        h, w = image.shape[:2]
        as_is = self.probe.detect(image)
        self.budget.meet_claims(image, as_is)  # the read's first detections: what the views outside this one call for
        if len(as_is) >= TABLE_MIN_TILES:  # a whole table: its tiles face every seat, none is upside down
            self.votes.append(None)
            return False, False
        vote = None
        # the way-up network: one run
        if self.way_up is not None and self.budget.affords(1, "upside_down", leaving=self.budget.rest_of_reading):
            from vision.read.way_up import upside_down_vote

            vote = upside_down_vote(image, as_is, self.way_up)
        self.votes.append(vote)
        if self.vote_first and vote is not None and abs(vote) > WAY_UP_VOTE:
            return vote > 0, vote > 0
        # the half turn's pass, then the reading's classifier run, and still a view's reading (the turned or squat
        # photo's own views come first); else the vote alone, unsure as it is
        if not self.budget.affords(1, "upside_down", leaving=self.budget.rest_of_reading + self.budget.least_reading):
            voted = vote is not None and vote > WAY_UP_VOTE
            return voted, voted
        turned = half_turned(image) if turned is None else turned
        back = [detection_back(d, h, w) for d in self.probe.detect(turned)]
        surer_turned = reads_surer(as_is, back)
        if vote is None:
            return surer_turned, surer_turned
        if surer_turned:
            return True, vote >= -WAY_UP_VETO
        return vote > WAY_UP_VOTE, vote > WAY_UP_VOTE

    def detect(self, image: np.ndarray) -> list[Detection]:
        turned = half_turned(image)
        remembering = getattr(self.probe, "remembering", None)
        # a probe inside ``detector`` (vision.read.pipeline.Reader.from_config) answers its reading of the chosen view
        # again
        with remembering(image, turned) if remembering else nullcontext():
            on_half_turn, upside_down = self.tell(image, turned)
            self.turned.append(upside_down)
            if not on_half_turn:
                return self.detector.detect(image)
            h, w = image.shape[:2]
            found = self.detector.detect(turned)
            if upside_down:
                return [detection_back(d, h, w) for d in found]
            # read surer on its half turn, its faces upright (another set's tiles): the boxes of that reading
            # mapped back, their turns as read, so that the rows run as the faces stand
            back = half_turn_affine(h, w)
            return [replace(d, box=d.box.moved(back)) for d in found]
