"""The one way a frame becomes tiles: a :class:`Reader` built once from a :class:`ReaderConfig`, and what it
returns, a :class:`Reading`.

    reader = Reader.from_config(ReaderConfig.for_photo())     # jantaku read, phone uploads
    reader = Reader.from_config(ReaderConfig.for_camera())    # the camera loop
    reading = reader.read(image)                              # a BGR uint8 array
    reading.text, reading.detections, reading.rows, reading.table, reading.runs
    reading = reader.read(image, zones=changed, previous=reading)   # a camera: read only round what changed
    camera = IncrementalReader(reader); camera.read(image, changed)  # the same, remembering the last reading

The detector reads the frame (a slice pyramid for the camera, :class:`~vision.read.scale.PhotoDetector` at the
tiles' scale for photos), the crop classifier names each box, and the extra views named in ``config.views`` wrap it,
composed in the one order of :data:`VIEWS`. The camera's reader keeps a budget of model runs
(:data:`CAMERA_MAX_RUNS`: its classifier reads every crop in two views, the other two only where it is unsure); the
photo reader's views read again only while their readings fit in its budget (:data:`PHOTO_MAX_RUNS`,
:mod:`vision.read.budget`; :attr:`Reading.left_out` names those left out). The
camera's frames are read squared to the table (:class:`~vision.read.table.square.TableTurn`, kept from frame to
frame) and, with enough tiles, seat by seat (:func:`~vision.read.table.read_table`, about the centre
:class:`~vision.read.table.geometry.TableGeometry` keeps from frame to frame). A reader runs one read at a time (its
``lock``, shareable between readers of one machine). :meth:`Reader.around` puts the same reading round a detector of
your own (recorded labels, a fake). The camera's reader reads a frame only round the zones that changed since the
reading before (``zones`` and ``previous``: :mod:`vision.read.zones`), keeping that reading's tiles elsewhere.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path

import numpy as np

from engine.tiles import Tile
from vision.read.budget import ClaimsMetDetector, RunBudget
from vision.read.classifier import SURE_IN_TWO_VIEWS, OnnxTileClassifier, classifier_for, with_classifier
from vision.read.detector import (
    Detection,
    Detector,
    DetectorOptions,
    Network,
    OnnxNetwork,
    SlicedDetector,
    default_model_path,
)
from vision.read.errors import ConfigError
from vision.read.geometry import Box, Size
from vision.read.plausible import OVERHEAD, PHOTO, Plausibility, PlausibleDetector
from vision.read.rows import Row, Rows, read_tiles
from vision.read.scale import PhotoDetector
from vision.read.table import TABLE_MIN_TILES, TableObservation, read_table
from vision.read.table.geometry import TableGeometry
from vision.read.table.square import TableTurn
from vision.read.views.low_angle import SquatDetector
from vision.read.views.photo_edge import SureAtEdgeDetector
from vision.read.views.turned_tiles import UprightDetector
from vision.read.views.upside_down import HalfTurnDetector
from vision.read.views.white_balance import BalancedDetector
from vision.read.way_up import OnnxWayUp, way_up_for
from vision.read.zones import ZonePolicy, coarse_slices, merge_slices, shifted, tile_side

log = logging.getLogger("jantaku.read")

#: The extra views a reader may run, outermost first: the order they are composed in, whatever the order named.
#: photo_edge: boxes the photo's edge cuts kept only when sure (:mod:`~vision.read.views.photo_edge`);
#: low_angle: tiles seen from a low angle read stretched taller (:mod:`~vision.read.views.low_angle`);
#: upside_down: a photo taken from across the table read turned (:mod:`~vision.read.views.upside_down`);
#: white_balance: coloured or dim photos balanced by the tiles' faces (:mod:`~vision.read.views.white_balance`);
#: turned_tiles: tiles lying turned read upright (:mod:`~vision.read.views.turned_tiles`).
VIEWS = ("photo_edge", "low_angle", "upside_down", "white_balance", "turned_tiles")

#: ``classifier`` of :class:`ReaderConfig`: the crop classifier that goes with the model (:func:`classifier_for`).
BESIDE_MODEL = "beside-model"
#: ``classifier`` of :class:`ReaderConfig`: the phone photos' crop classifier that goes with the model (the shipped
#: photo classifier where there is one, else as :data:`BESIDE_MODEL`).
PHOTOS_BESIDE_MODEL = "photos-beside-model"
#: ``way_up`` of :class:`ReaderConfig`: the shipped way-up network, where it is installed (:func:`way_up_for`).
SHIPPED = "shipped"


#: The camera's reading budget: onnxruntime runs a 640 frame is read in (the detector once, the crop classifier
#: twice: every crop in its first two views, then the unsure ones in the other two). A bigger frame is read in more
#: slices.
CAMERA_MAX_RUNS = 3
#: The photo reader's budget: the detector on the photo and the classifier on its crops (always, a 12 MP photo of
#: small tiles in as many slices as it takes), then what its measured signals call for, while it fits
#: (:mod:`vision.read.budget`): a turned group's view, a cast photo's balance, squat tiles stretched, the way-up
#: vote and the half turn, unsure crops in more views, holes and passes from afar.
PHOTO_MAX_RUNS = 6
#: Most crops one classifier run of the camera's reader reads: a whole table's tiles in two views, and its unsure ones
#: in the other two, each in one run.
CAMERA_CROP_BATCH = 1024


class TableMode(Enum):
    """How a reader's frames show a table (:attr:`ReaderConfig.table_mode`).

    >>> [(m.value, m.squares, m.keeps, m.reports_squared) for m in TableMode]
    [('none', False, True, True), ('camera', True, True, True), ('photo', True, False, False)]
    """

    #: Each frame read as it is (a camera of recorded labels, photos of hands); a table read seat by seat keeps its
    #: centre (:class:`TableGeometry`) from frame to frame.
    NONE = "none"
    #: A camera over a table: each frame squared to it (:class:`~vision.read.table.square.TableTurn`), its turn and
    #: centre kept from frame to frame, the squared frame and its boxes reported.
    CAMERA = "camera"
    #: An overhead photo of a whole table: squared to it, its turn measured anew for each image, the boxes reported
    #: as the image shows them.
    PHOTO = "photo"

    @property
    def squares(self) -> bool:
        """Each frame is read squared to the table."""
        return self is not TableMode.NONE

    @property
    def keeps(self) -> bool:
        """The table's turn and centre are kept from frame to frame (else measured anew for each image)."""
        return self is not TableMode.PHOTO

    @property
    def reports_squared(self) -> bool:
        """The reading is the squared frame and its boxes (else the boxes as the image shows them)."""
        return self is not TableMode.PHOTO


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """How a :class:`Reader` reads; :meth:`for_camera` and :meth:`for_photo` give the two shipped readers."""

    #: The detector model (None: :func:`~vision.read.detector.default_model_path`, the camera's where
    #: :attr:`camera_detector`).
    model: Path | None = None
    #: With no :attr:`model` named, read with the camera's detector (the photos' one otherwise).
    camera_detector: bool = False
    #: The crop classifier: a path, None for the detector's own names, :data:`BESIDE_MODEL` or
    #: :data:`PHOTOS_BESIDE_MODEL`.
    classifier: Path | str | None = BESIDE_MODEL
    #: The classifier reads each crop in several views (or once) ...
    crop_views: bool = True
    #: ... all of them only where its first two name its tile with less than this probability (None: every crop in
    #: every view; :attr:`~vision.read.classifier.TwoStageDetector.views_below`).
    crop_views_below: float | None = None
    #: Most crops one classifier run reads (None: the classifier's own chunk).
    crop_batch: int | None = None
    #: The reading budget: most onnxruntime runs a read is meant to take (None: no budget). The first reading is made
    #: whatever it takes; the views' extra readings only while they fit (:class:`~vision.read.budget.RunBudget`).
    #: A read over it is logged (once a reader), and every :class:`Reading` says how many it took.
    max_runs: int | None = None
    #: The way-up network of the ``upside_down`` view: a path, None, or :data:`SHIPPED`.
    way_up: Path | str | None = SHIPPED
    conf: float = DetectorOptions().conf
    #: onnxruntime threads of the detector and the crop classifier (None: onnxruntime's default).
    threads: int | None = None
    #: Read at the tiles' scale (:class:`~vision.read.scale.PhotoDetector`), else by the slice pyramid.
    at_tiles_scale: bool = False
    #: The extra views to run, by name (:data:`VIEWS`).
    views: tuple[str, ...] = ()
    #: How the frames show a table: read as they are, squared to it as a camera does, or as a photo of one
    #: (:class:`TableMode`).
    table_mode: TableMode = TableMode.NONE
    #: Read the frame seat by seat from this many tiles (None: never; 0: always).
    table_min_tiles: int | None = None
    #: Read a frame only round the zones that changed, when :meth:`Reader.read` is given them (None: always whole).
    zones: ZonePolicy | None = None
    #: Drop the boxes no tile makes by these rules (:mod:`vision.read.plausible`: a back in no row or stack; None:
    #: keep every box).
    plausibility: Plausibility | None = None

    def __post_init__(self) -> None:
        unknown = [v for v in self.views if v not in VIEWS]
        if unknown:
            raise ConfigError(f"unknown reader view {', '.join(map(repr, unknown))}: the views are {', '.join(VIEWS)}")
        if not isinstance(self.table_mode, TableMode):
            modes = ", ".join(m.value for m in TableMode)
            raise ConfigError(f"table_mode is a TableMode ({modes}), not {self.table_mode!r}")
        if not 0 < self.conf <= 1:
            raise ConfigError(f"conf must be above 0 and at most 1, not {self.conf}")
        if self.crop_views_below is not None and not 0 < self.crop_views_below <= 1:
            raise ConfigError(f"crop_views_below must be above 0 and at most 1, not {self.crop_views_below}")
        for name in ("crop_batch", "max_runs"):
            if (value := getattr(self, name)) is not None and value < 1:
                raise ConfigError(f"{name} must be at least 1, not {value}")

    @classmethod
    def for_camera(
        cls, model: Path | None = None, *, conf: float = DetectorOptions().conf, crop_views: bool = True
    ) -> ReaderConfig:
        """The camera loop's reader: the slice pyramid, squared to the table, seat by seat from
        :data:`TABLE_MIN_TILES` tiles; a 640 frame in :data:`CAMERA_MAX_RUNS` runs (only the crops its first two views
        leave unsure read in the other two, :data:`~vision.read.classifier.SURE_IN_TWO_VIEWS`). With no ``model``, the
        camera's detector (:data:`~vision.read.detector.SHIPPED_CAMERA_MODEL`)."""
        return cls(
            model,
            camera_detector=True,
            conf=conf,
            crop_views=crop_views,
            crop_views_below=SURE_IN_TWO_VIEWS,
            crop_batch=CAMERA_CROP_BATCH,
            max_runs=CAMERA_MAX_RUNS,
            table_mode=TableMode.CAMERA,
            table_min_tiles=TABLE_MIN_TILES,
            zones=ZonePolicy(),
        )

    @classmethod
    def for_photo(
        cls,
        model: Path | None = None,
        *,
        conf: float = DetectorOptions().conf,
        threads: int | None = None,
        crop_views: bool = True,
        pyramid: bool = False,
        table: bool = False,
    ) -> ReaderConfig:
        """A photo's reader (``jantaku read``, phone uploads): at its tiles' scale with every view. ``pyramid``: by the
        slice pyramid, no views. ``table``: an overhead photo of a whole table, read as the camera reads one
        (squared to it, its own turn) and seat by seat, its boxes as the photo shows them, less those no tile makes
        (:data:`~vision.read.plausible.OVERHEAD`)."""
        # every crop of a read in one classifier run (its views too): a run's cost is mostly the call, not the crops
        common = {"conf": conf, "threads": threads, "crop_views": crop_views, "crop_batch": CAMERA_CROP_BATCH}
        if table:
            return cls(model, **common, table_mode=TableMode.PHOTO, table_min_tiles=0, plausibility=OVERHEAD)
        if pyramid:
            return cls(model, **common)
        # each crop in two views, the other two only where those leave it unsure (the camera's budget)
        return cls(model, **common, classifier=PHOTOS_BESIDE_MODEL, at_tiles_scale=True, views=VIEWS,
                   plausibility=PHOTO, max_runs=PHOTO_MAX_RUNS, crop_views_below=SURE_IN_TWO_VIEWS)  # fmt: skip


@dataclass(frozen=True)
class Models:
    """The networks a reader runs, loaded once; readers of one machine may share them."""

    network: Network
    classifier: OnnxTileClassifier | None = None
    way_up: OnnxWayUp | None = None

    @classmethod
    def load(cls, config: ReaderConfig, beside: Models | None = None) -> Models:
        """The networks ``config`` names (a missing or bad file: :class:`~vision.read.errors.ModelError`). ``beside``:
        another reader's networks, loaded first; its detector is shared, not loaded again, where ``config`` names the
        same file (readers of one machine, one read at a time between them)."""
        path = cls.detector_path(config)
        beside_path = getattr(beside.network, "path", None) if beside is not None else None
        if beside is not None and beside_path is not None and Path(beside_path).resolve() == Path(path).resolve():
            network = beside.network
        else:
            network = OnnxNetwork(path, threads=config.threads)
        classifier = cls.classifier_of(config)
        way_up = None
        if "upside_down" in config.views and config.way_up is not None:
            way_up = way_up_for() if config.way_up == SHIPPED else OnnxWayUp(config.way_up)
        return cls(network, classifier, way_up)

    @staticmethod
    def detector_path(config: ReaderConfig) -> Path:
        """The detector model ``config`` reads with (its own, else the shipped one for its reader)."""
        return config.model or default_model_path(camera=config.camera_detector)

    @staticmethod
    def classifier_of(config: ReaderConfig) -> OnnxTileClassifier | None:
        """The crop classifier ``config`` names, loaded."""
        if config.classifier in (BESIDE_MODEL, PHOTOS_BESIDE_MODEL):
            photos = config.classifier == PHOTOS_BESIDE_MODEL
            return classifier_for(config.model, views=config.crop_views, threads=config.threads, for_photos=photos)
        if config.classifier is None:
            return None
        return OnnxTileClassifier(config.classifier, threads=config.threads)

    def runs(self) -> int:
        """onnxruntime runs made so far by these networks (a stand-in network that does not count adds 0)."""
        models = (self.network, self.classifier, self.way_up)
        return sum(int(getattr(m, "runs", 0)) for m in models if m is not None)

    def passes(self) -> int:
        """The detector network's runs so far (0 for a stand-in network that does not count)."""
        return int(getattr(self.network, "runs", 0))


@dataclass(frozen=True, eq=False)
class Reading:
    """What a reader made of one image: its tiles in reading order, and how it got them."""

    #: The frame the boxes are in: the image, or it squared to the table (a camera's reader).
    image: np.ndarray
    detections: tuple[Detection, ...]
    #: The detections row by row, top to bottom, each left to right (:func:`~vision.read.rows.read_tiles`).
    rows: tuple[Row, ...]
    #: The frame read seat by seat, when the reader reads tables and it showed enough tiles.
    table: TableObservation | None = None
    #: How the table lay turned (degrees; 0 when not squared).
    turn: float = 0.0
    ms: float = 0.0
    #: onnxruntime runs the reading took (detector, classifier and way-up networks together).
    runs: int = 0
    #: Where the frame was read (in :attr:`image`'s pixels), the rest kept from the reading before; empty: read whole.
    slices: tuple[Box, ...] = ()
    #: Readings since the last one read whole (0: this one was).
    since_whole: int = 0
    #: The views whose extra readings the budget left out (:attr:`ReaderConfig.max_runs`), in order.
    left_out: tuple[str, ...] = ()

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return Rows(self.rows).tiles

    @property
    def backs(self) -> int:
        return Rows(self.rows).backs

    @property
    def text(self) -> str:
        """One mpsz group per row that has face-up tiles, separated by spaces."""
        return Rows(self.rows).text

    @property
    def tile_rows(self) -> tuple[tuple[Tile, ...], ...]:
        """The face-up tiles of each row that has any."""
        return tuple(row.tiles for row in self.rows if row.tiles)


@dataclass
class Reader:
    """Reads images into :class:`Reading` s; build it with :meth:`from_config` (or :meth:`around`).

    It is also a :class:`~vision.read.detector.Detector` (:meth:`detect`), for the evaluations."""

    config: ReaderConfig
    #: The composed detector: core, classifier and views.
    detector: Detector
    models: Models | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The model runs of each read, shared by the views (:attr:`ReaderConfig.max_runs`).
    budget: RunBudget = field(default_factory=RunBudget)
    _table_turn: TableTurn | None = field(default=None, init=False, repr=False)
    _table_geometry: TableGeometry | None = field(default=None, init=False, repr=False)
    _over_budget_told: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.config.table_mode.squares and self.config.table_mode.keeps:
            self._table_turn = TableTurn()
        if self.config.table_min_tiles is not None and self.config.table_mode.keeps:
            self._table_geometry = TableGeometry()

    @classmethod
    def from_config(
        cls, config: ReaderConfig, *, models: Models | None = None, lock: threading.Lock | None = None
    ) -> Reader:
        """The reader ``config`` describes, on ``models`` (loaded from ``config`` when None)."""
        models = models or Models.load(config)
        options = DetectorOptions(conf=config.conf)
        # a reading at its least: a detector pass, the classifier's run, and the run of its unsure crops' other views
        # (a view read without them names its unsure tiles worse than the photo's own reading did)
        unsure_in_views = config.crop_views and config.crop_views_below is not None
        rest = 0 if models.classifier is None else 2 if unsure_in_views else 1
        budget = RunBudget(models.runs, least_reading=1 + rest, passes=models.passes)
        if config.at_tiles_scale:
            if models.classifier is None:  # weak boxes are for a classifier to judge: with none, not worked out
                options = replace(options, weak_conf=None)
            core: Detector = PhotoDetector(models.network, options, budget=budget)
        else:
            core = SlicedDetector(models.network, options)
        # the upside-down view's probe: the reader inside the classifier when it reads at the tiles' scale, so that
        # its readings serve both
        probe = core if isinstance(core, PhotoDetector) else PhotoDetector(models.network, options, budget=budget)
        staged = with_classifier(
            core,
            models.classifier,
            views_below=config.crop_views_below,
            batch=config.crop_batch,
            budget=budget if config.views else None,  # the camera's crops are read as its own budget says
        )
        if config.views:  # the first reading's detections meet the views' claims where no probe met them first
            staged = ClaimsMetDetector(staged, budget)
        detector = compose_views(staged, config.views, probe, models.way_up, budget)
        if config.plausibility is not None:
            detector = PlausibleDetector(detector, config.plausibility)
        return cls(config, detector, models, lock or threading.Lock(), budget)

    @classmethod
    def around(
        cls,
        detector: Detector,
        config: ReaderConfig | None = None,
        *,
        lock: threading.Lock | None = None,
        reads_pixels: bool = False,
    ) -> Reader:
        """A reader whose detections come from ``detector`` (recorded labels, a test's fake): the same squaring,
        rows and table reading as ``config`` asks (views need a network: none here). It reads frames whole unless
        ``reads_pixels`` (the detector finds in a slice of a frame what the slice shows, as a network does; recorded
        labels do not), then round the zones that changed as ``config`` asks."""
        config = config or ReaderConfig()
        if config.views:
            raise ConfigError(f"views {', '.join(config.views)} need a network: a reader around a detector runs none")
        if not reads_pixels:
            config = replace(config, zones=None)
        return cls(config, detector, None, lock or threading.Lock())

    def detect(self, image: np.ndarray) -> list[Detection]:
        """The composed detector's tiles of ``image``, one read at a time (a :class:`Detector` for evaluations)."""
        with self.lock:
            return list(self.detector.detect(image))

    def read(
        self, image: np.ndarray, *, zones: Sequence[Box] | None = None, previous: Reading | None = None
    ) -> Reading:
        """``image`` (BGR uint8, height x width x 3) read as the configuration says. With ``zones`` (the parts of
        ``image`` that changed, in its pixels) and ``previous`` (this reader's reading of the frame before), a camera's
        reader (:attr:`ReaderConfig.zones`) reads it only round them and keeps the rest of ``previous``
        (:mod:`vision.read.zones`; :attr:`Reading.slices` says where it read), unless its policy reads it whole."""
        config = self.config
        started = time.perf_counter()
        with self.lock, self.budget.reading(config.max_runs):
            runs = self.models.runs() if self.models else 0
            mode = config.table_mode
            turn = self._table_turn if mode.keeps else TableTurn() if mode.squares else None
            slices, squared_zones = self._slices(image, zones, previous, turn)
            if slices:
                assert previous is not None  # a slice is read only after a reading
                frame, found = self._read_slices(image, slices, squared_zones, previous, turn)
            elif turn is None:
                frame, found = image, list(self.detector.detect(image))
            else:
                updates = turn.updates
                frame, found = turn.read(image, self.detector.detect)
                if mode.keeps and turn.updates != updates:
                    log.info("the table lies turned %.1f degrees in the camera's frames: reading them squared to it",
                             turn.turn)  # fmt: skip
                    if self._table_geometry is not None:  # the squared frames now lie turned otherwise
                        self._table_geometry.reset()
            runs = (self.models.runs() if self.models else 0) - runs
            limit = self.budget.limit if config.max_runs is not None else None
            if limit is not None and runs > limit and not self._over_budget_told:
                self._over_budget_told = True
                log.warning("a %dx%d image took %d model runs, over the reader's budget of %d (told once)",
                            image.shape[1], image.shape[0], runs, limit)  # fmt: skip
            # the kept turn may change with the next frame read: this reading's turn is taken while it holds
            turned = turn.turn if turn is not None else 0.0
            left_out = self.budget.left_out
            squared = found
            if turn is not None and not mode.reports_squared:
                found = turn.in_frame(found, *frame.shape[:2])  # the boxes as the image shows them
        table = None
        if config.table_min_tiles is not None and len(squared) >= config.table_min_tiles:
            size = Size.of(frame)
            centre = self._table_geometry.observe(squared, size) if self._table_geometry is not None else None
            table = read_table(squared, size, centre=centre)
        if turn is not None and not config.table_mode.reports_squared:
            frame = image
        detections = tuple(found)
        return Reading(
            image=frame,
            detections=detections,
            rows=read_tiles(detections).rows,
            table=table,
            turn=turned,
            ms=(time.perf_counter() - started) * 1000,
            runs=runs,
            slices=slices,
            since_whole=previous.since_whole + 1 if slices and previous is not None else 0,
            left_out=left_out,
        )

    def _slices(
        self, image: np.ndarray, zones: Sequence[Box] | None, previous: Reading | None, turn: TableTurn | None
    ) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
        """Where to read ``image`` (in the frame its boxes are in), the rest kept from ``previous``, and the zones
        there; () to read it whole: no zones, a reader that reads whole frames, or a turn other than ``previous``'s."""
        policy = self.config.zones
        if policy is None or zones is None or previous is None:
            return (), ()
        if turn is not None and (not self.config.table_mode.keeps or not self.config.table_mode.reports_squared):
            return (), ()  # each image squared anew, or the boxes reported as the image shows them: read whole
        if turn is not None and turn.turn != previous.turn:
            return (), ()
        if turn is not None:  # the zones as the squared frame shows them
            zones = turn.to_squared(zones, *image.shape[:2])
        why, slices = policy.whole_read_why(zones, previous, Size.of(image))
        if why:
            log.debug("read whole: %s", why)
        return slices, tuple(zones)

    def _read_slices(
        self,
        image: np.ndarray,
        slices: tuple[Box, ...],
        zones: tuple[Box, ...],
        previous: Reading,
        turn: TableTurn | None,
    ) -> tuple[np.ndarray, list[Detection]]:
        """``image`` (squared by ``turn``) read in ``slices`` only (round ``zones``), merged into ``previous``'s
        detections."""
        policy = self.config.zones
        assert policy is not None
        frame = image if turn is None else turn.straightened(image)
        corners = _corners(slices)
        tile = tile_side(previous.detections) or 0.0
        # the detector's own method (a view layer wrapping it would hand it down, its view skipped)
        if callable(getattr(type(self.detector), "detect_in_slices", None)):  # the boxes named in one classifier run
            coarse = coarse_slices(zones, Size.of(frame), tile, policy)
            found = self.detector.detect_in_slices(frame, corners, _corners(coarse))
            fresh = [found] * len(slices)  # each slice takes those centred in its own inner part
        else:
            fresh = [shifted(self.detector.detect(frame[y1:y2, x1:x2]), x1, y1) for x1, y1, x2, y2 in corners]
        merged = merge_slices(
            previous.detections, fresh, slices, Size.of(frame), policy.margin(tile), policy.padded(zones, tile)
        )
        return frame, merged


@dataclass
class IncrementalReader:
    """A camera's reader that remembers its last reading and reads each frame only round the zones that changed
    since (:meth:`read`); :meth:`forget` makes the next read whole (the camera moved or reconnected)."""

    reader: Reader
    last: Reading | None = None

    def read(self, image: np.ndarray, zones: Sequence[Box] | None = None) -> Reading:
        """``image`` read round ``zones`` (frame pixels; None: whole) after the last reading, as
        :meth:`vision.read.pipeline.Reader.read` does it."""
        self.last = self.reader.read(image, zones=zones, previous=self.last)
        return self.last

    def forget(self) -> None:
        self.last = None


def _corners(slices: Sequence[Box]) -> list[tuple[int, int, int, int]]:
    """Each slice's (x1, y1, x2, y2) in whole pixels, to cut it from the frame."""
    return [(int(w.x1), int(w.y1), int(w.x2), int(w.y2)) for w in slices]


def compose_views(
    detector: Detector,
    views: Sequence[str],
    probe: Detector,
    way_up: OnnxWayUp | None,
    budget: RunBudget | None = None,
) -> Detector:
    """``detector`` wrapped in the ``views`` named, in :data:`VIEWS`' order (its last innermost). ``probe`` and
    ``way_up`` tell the ``upside_down`` view which way up a photo lies; the views read again only while ``budget``
    affords it (None: always)."""
    budget = budget or RunBudget()
    makers: dict[str, Callable[[Detector], Detector]] = {
        "photo_edge": SureAtEdgeDetector,
        "low_angle": lambda inner: SquatDetector(inner, budget),
        "upside_down": lambda inner: HalfTurnDetector(inner, probe, way_up, budget=budget),
        "white_balance": lambda inner: BalancedDetector(inner, budget=budget),
        "turned_tiles": lambda inner: UprightDetector(inner, budget=budget),
    }
    for name in reversed(VIEWS):
        if name in views:
            detector = makers[name](detector)
    return detector
