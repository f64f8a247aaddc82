"""The model runs one read may take, shared by the parts of a reader that read a photo again.

A reader's first reading of a photo (the detector's pass, the crop classifier's run on its boxes) is always made.
Everything else a read may do costs runs that the photo may not need: the views' extra readings (turned back,
white-balanced, stretched taller), the way-up vote and the half turn's probe, holes in rows read close up, passes
from afar, unsure crops read in more views. A :class:`RunBudget` counts the reader's runs over one read; before such
a part the reader asks whether it still fits (:meth:`RunBudget.affords`, :meth:`RunBudget.affords_read` for a whole
extra reading), and the parts that do not fit are left out and named (:attr:`RunBudget.left_out`). An extra reading
is started only when its least cost fits (:attr:`RunBudget.least_reading`: a detector pass, the classifier's run, its
unsure crops' run), and its own further parts ask in turn, so a read keeps to its limit. The limit is for a photo
the detector reads in one pass; one its first reading slices in k passes (a whole table's photo, its tiles small)
may take k times as many (:attr:`RunBudget.limit`), so that its views read it as they would a small photo.

A view outside others reads again only after they have read (its signal is in their reading), so it claims its
reading from the read's first detections (:meth:`RunBudget.claim`): from then on a reading is kept back for it.

    budget = RunBudget(models.runs, least_reading=2, passes=models.passes)   # the networks' runs, the detector's
    budget.claim("low_angle", squat)                   # a view outside others: its reading kept back when called for
    with budget.reading(6):                            # one read of at most 6 runs
        budget.meet_claims(image, first_detections)    # the first detections (a probe's, or the first reading's)
        if budget.affords(1, "holes", leaving=3):      # a part, leaving room for a reading after it
            ...
        if budget.affords_read("turned_tiles"):        # an extra reading, at its least cost
            ...
    budget.left_out                                    # ('turned_tiles',): the parts the budget refused
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from vision.read.detector import Detection, Detector, DetectorLayer

#: Whether a photo (the image) whose first detections are these calls for a view's reading.
Claim = Callable[[np.ndarray, list[Detection]], bool]


def _no_runs() -> int:
    return 0


@dataclass
class RunBudget:
    """Model runs counted by ``runs`` (the reader's networks together, :meth:`vision.read.pipeline.Models.runs`),
    and the most one read may take. Outside :meth:`reading`, or with no limit, everything fits."""

    runs: Callable[[], int] = _no_runs
    #: The runs the cheapest reading of a photo or view makes: the detector's pass, and what follows it (the crop
    #: classifier's run, its unsure crops' run).
    least_reading: int = 1
    #: The detector's runs alone, where the reader counts them: a photo whose first pass takes several (a big photo
    #: of small tiles, read in slices) may take as many times the limit (:attr:`limit`).
    passes: Callable[[], int] = _no_runs
    _limit: int | None = field(default=None, init=False, repr=False)
    _start: int = field(default=0, init=False, repr=False)
    _passes_start: int = field(default=0, init=False, repr=False)
    #: The detector's runs the read's first pass took, once something asked or its first detections were met.
    _first_passes: int | None = field(default=None, init=False, repr=False)
    _left_out: list[str] = field(default_factory=list, init=False, repr=False)
    #: Views that may claim a reading from a read's first detections: (view, whether those call for it).
    _claims: list[tuple[int, str, Claim]] = field(default_factory=list, init=False, repr=False)
    #: The views whose claim this read's first detections met, a reading kept back for each.
    _claimed: set[str] = field(default_factory=set, init=False, repr=False)
    #: The views that asked for their reading or released it in this read: their claims are over.
    _given_up: set[str] = field(default_factory=set, init=False, repr=False)
    #: The first detections (the image, them, the runs spent then), until the claims are weighed on them: only when
    #: something asks beside the readings kept back (a claim's signal may cost a pass over the photo's boxes).
    _pending: tuple[np.ndarray, list[Detection], int] | None = field(default=None, init=False, repr=False)
    _claims_met: bool = field(default=False, init=False, repr=False)
    _first_reading_done: bool = field(default=False, init=False, repr=False)

    @contextmanager
    def reading(self, limit: int | None) -> Iterator[RunBudget]:
        """One read of at most ``limit`` runs for a photo read in one pass (None: no limit; :attr:`limit`);
        :attr:`left_out` is this read's from its start."""
        self._limit, self._start = limit, self.runs()
        self._passes_start, self._first_passes = self.passes(), None
        self._left_out, self._claimed, self._given_up, self._pending = [], set(), set(), None
        self._claims_met, self._first_reading_done = False, False
        try:
            yield self
        finally:
            self._limit = None

    @property
    def limit(self) -> int | None:
        """This read's most runs: the limit :meth:`reading` was given, times the detector's runs of the read's first
        pass (counted when a part first asks, or the first detections are met: after that pass): a photo its first
        reading slices in k (a whole table, tiles small in a big photo) may be read again as often as one read
        whole. None outside a read with a limit."""
        return None if self._limit is None else self._limit * self._count_first_passes()

    @property
    def first_passes(self) -> int | None:
        """The detector's runs of the read's first pass (1: the photo read whole; k: sliced in k), counted as
        :attr:`limit` counts them. None outside a read with a limit."""
        return None if self._limit is None else self._count_first_passes()

    def _count_first_passes(self) -> int:
        # counted once a read, when first asked: after the first pass, whatever passes follow
        if self._first_passes is None:
            self._first_passes = max(1, self.passes() - self._passes_start)
        return self._first_passes

    @property
    def spent(self) -> int:
        """Runs made since the read began."""
        return self.runs() - self._start

    @property
    def first_reading_done(self) -> bool:
        """Whether the read's first reading (the photo's, its classifier's included) is over: its own parts do not
        yield to the readings kept back for views (:meth:`affords`' ``first_reading_part``)."""
        return self._first_reading_done

    def end_first_reading(self) -> None:
        """The read's first reading is over (:attr:`first_reading_done`)."""
        self._first_reading_done = True

    @property
    def rest_of_reading(self) -> int:
        """The runs a reading still makes after its detector's pass (at its least)."""
        return self.least_reading - 1

    @property
    def kept(self) -> int:
        """The runs kept back for the views whose claim was met (a reading each, at :attr:`least_reading`)."""
        self._weigh_claims()
        return len(self._claimed) * self.least_reading

    @property
    def left_out(self) -> tuple[str, ...]:
        """The parts this read's budget refused, by name, each once, in the order first refused."""
        return tuple(dict.fromkeys(self._left_out))

    def claim(self, view: str, calls_for: Claim, rank: int = 0) -> None:
        """``view`` (one that reads again after its inner reading, outside others that may) wants another reading
        of a photo whose first detections ``calls_for`` it: from those on (:meth:`meet_claims`), a reading is kept
        back for it, so that what runs before it (the views inside it, a probe) spends only the rest; it is given up
        when the view asks for it (:meth:`affords_read`) or :meth:`release` s it. Claims are met lowest ``rank``
        first, while they fit (a view may claim under several ranks: for what its signal says, several ways)."""
        self._claims.append((rank, view, calls_for))
        self._claims.sort(key=lambda c: c[0])

    def meet_claims(self, image: np.ndarray, found: list[Detection]) -> None:
        """The read's first detections of ``image`` (a probe's, or the first reading's): the claims they call for
        are kept back, lowest rank first, each only while it fits after the rest of the first reading
        (:attr:`rest_of_reading`). Only the first call of a read with a limit counts."""
        if self.limit is None or self._claims_met:
            return
        self._claims_met = True
        self._pending = (image, found, self.spent)

    def _weigh_claims(self) -> None:
        limit = self.limit
        if self._pending is None or limit is None:
            return
        image, found, spent = self._pending
        self._pending = None
        for _, view, calls_for in self._claims:
            if view in self._claimed or view in self._given_up:
                continue
            kept = len(self._claimed) * self.least_reading
            if spent + self.rest_of_reading + kept + self.least_reading <= limit and calls_for(image, found):
                self._claimed.add(view)

    def release(self, view: str) -> None:
        """The reading kept back for ``view`` in this read is free again (its signal no longer calls for it)."""
        self._given_up.add(view)
        self._claimed.discard(view)

    def affords(self, runs: int, part: str, *, leaving: int = 0, first_reading_part: bool = False) -> bool:
        """Whether ``runs`` more for ``part`` fit in this read with ``leaving`` runs to spare after it (what its
        reading still takes, a reading to follow), beside the readings kept back for other views (but for a part
        of the first reading: its passes from afar, its unsure crops, which the claims were met after); if not,
        ``part`` is noted as left out. A reading kept back for ``part`` is given up either way."""
        self._given_up.add(part)
        self._claimed.discard(part)
        kept = 0 if first_reading_part else self.kept
        limit = self.limit
        if limit is None or self.spent + runs + leaving + kept <= limit:
            return True
        self._left_out.append(part)
        return False

    def affords_read(self, view: str) -> bool:
        """Whether one more reading fits at its least cost (:attr:`least_reading`); if not, ``view`` is noted as
        left out."""
        return self.affords(self.least_reading, view)


class ClaimsMetDetector(DetectorLayer):
    """``detector`` (the reader's core: the detector and its crop classifier) whose first detections in a read meet
    ``budget`` 's claims (:meth:`RunBudget.meet_claims`), where no probe met them before, and end its first
    reading (:meth:`RunBudget.end_first_reading`)."""

    own_attributes = DetectorLayer.own_attributes | {"budget"}

    def __init__(self, detector: Detector, budget: RunBudget) -> None:
        self.detector = detector
        self.budget = budget

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.detector.detect(image)
        self.budget.meet_claims(image, found)
        self.budget.end_first_reading()
        return found
