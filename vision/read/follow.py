"""Following a table: the whole-table observations of successive frames become the public events they show.

A :class:`TableFollower` keeps, per seat, the pond (tiles in order, which one lies sideways), the open melds, and
the dora indicators it has accepted, and compares each frame's :class:`~vision.read.table.TableObservation` with
them. Each frame's table is first fused with the frames before it (:mod:`vision.read.fusion`: a place's tiles change
only once a new reading has held a majority of the last frames; ``fuse=False``: the frame as read alone). A zone
(one seat's pond and melds, or the dora indicators) counts as changed only once it has read the same for ``settle``
consecutive frames, so an arm passing over a pond or one misread frame makes no event. A settled change becomes
the engine's own events (:mod:`engine.game.events`); which change makes which event, and which is a
:class:`Contradiction`, is told in :class:`TableFollower`'s docstring.

Seats: the game seat at the frame's bottom edge is ``camera_seat``; the sides follow in the order of play (right
is the next seat). Without a ``camera_seat``, seat numbers are the sides' own (bottom 0, right 1, top 2, left 3).

The change gate passes a still frame once; when it finds the table unchanged, call :meth:`TableFollower.hold`
(the last observation holds another frame), or a change never holds ``settle`` frames.

A hand laid face up (a win, or tenpai at an exhaustive draw) is a :class:`Reveal` once it has settled: the
concealed tiles, the tile set apart at their right (the winning tile), the seat's melds, and the indicators turned
beside the dora indicators meanwhile (the ura indicators: no contradiction while a hand lies open).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.game.events import AddedKan, Call, ClosedKan, Discard, DoraFlip, Event
from engine.melds import MeldKind
from engine.tiles import Tile, format_tiles
from vision.read.fusion import STEADY, WINDOW, TableFusion, one_meld_tile_otherwise
from vision.read.table import FrameSide, TableObservation
from vision.read.table_snapshot import DORA, HAND, MeldSnapshot, OpenHand, SeatSnapshot, TableSnapshot, minus

#: Consecutive frames a zone must read the same (as fused) before its change is taken: the fusion has already asked
#: a move to show on QUICK of the last frames, so one fused frame is enough (a change lying still one second, two
#: frames at the camera's rate, is taken).
SETTLE = 1
#: Consecutive frames a hand laid face up must read the same before it is revealed (a result is scored from it) ...
REVEAL_SETTLE = 2
#: ... and a pond whose new sideways tile declares riichi (a tile read sideways for a frame or two, a neighbour's edge
#: beside it, would declare a riichi nobody made).
RIICHI_SETTLE = 2
#: The contradictions of a seat's tiles after which the follower goes on by itself: once the seat's reading has held a
#: frame past the one that showed it, that reading is taken as the seat's (no event; the contradiction stays shown for
#: a person), so its next moves are followed. A discard out of turn (a call missed before it, a discard never seen) is
#: one of them: the engine's turn then goes on from the seat due, and the seats come back into turn, one discard lost
#: each, instead of every later discard out of turn. Not tiles gone missing (an arm may still be over them: their
#: return would read as many discards).
RESYNCED_CLASHES = frozenset(
    {"pond_changed", "tile_inserted", "meld_changed", "call_mismatch", "out_of_turn", "two_discarders", "many_discards"}
)
#: Consecutive frames tiles may be missing (hidden by an arm) before their loss is a contradiction.
VANISH = 8

_SIDES = tuple(FrameSide)


class Clash(enum.Enum):
    """What kind of change no event explains."""

    POND_CHANGED = "pond_changed"  # a pond's tiles read differently (not grown, not hidden)
    TILE_INSERTED = "tile_inserted"  # a tile appeared before a pond's end
    MANY_DISCARDS = "many_discards"  # a pond grew by more than one tile at once
    TWO_DISCARDERS = "two_discarders"  # two seats' ponds grew in one change
    OUT_OF_TURN = "out_of_turn"  # a discard by a seat whose turn it is not
    VANISHED = "vanished"  # tiles gone (from a pond, a meld, the dead wall) that no call explains
    MELD_CHANGED = "meld_changed"  # the melds changed in a way no call or kan explains
    CALL_MISMATCH = "call_mismatch"  # a new meld that does not fit the last discard
    DORA_CHANGED = "dora_changed"  # the dora indicators read differently
    EXTRA_INDICATOR = "extra_indicator"  # more dora indicators than the kans on the table allow (ura at a win?)


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A change the follower refuses to guess over: what, at which side (and game seat; None: the dora
    indicators), first seen settled at frame ``frame``."""

    clash: Clash
    side: FrameSide | None
    seat: int | None
    frame: int
    detail: str = ""

    def __str__(self) -> str:
        where = "dora indicators" if self.side is None else f"seat {self.seat} ({self.side.value})"
        return f"frame {self.frame}: {self.clash.value} at {where}" + (f": {self.detail}" if self.detail else "")


@dataclass(frozen=True, slots=True)
class Pending:
    """A zone that reads otherwise than accepted and is not taken yet (``side`` None: the dora indicators)."""

    side: FrameSide | None
    why: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """A hand laid face up and settled: whose (game ``seat``, frame ``side``), its concealed tiles face up (the tile
    set apart not among them), the tile set apart at their right (None: none apart), the seat's melds, the ura
    indicators turned so far, and whether the last discard has left its pond since (taken as a ron's tile), or the
    last added kan its fourth tile (robbed: 搶槓)."""

    seat: int
    side: FrameSide
    hand: tuple[Tile, ...]
    apart: Tile | None
    melds: tuple[MeldSnapshot, ...] = ()
    ura: tuple[Tile, ...] = ()
    from_pond: bool = False

    @property
    def text(self) -> str:
        shown = format_tiles(self.hand) + (f" + {self.apart}" if self.apart is not None else "")
        return shown + "".join(f" {m.text}" for m in self.melds)


@dataclass(frozen=True, slots=True)
class FollowUpdate:
    """What one frame brought: the engine events taken (in the order to apply them), the contradictions first
    seen, the zones still waiting, the hand's first dora indicator when it was just taken, the hands laid face up
    that settled (or changed: more ura indicators, the ron tile taken) this frame, and the sides (None: the dora
    indicators) whose reported contradictions no longer hold (the zone reads as accepted again); ``inferred``: the
    events whose order was inferred."""

    events: tuple[Event, ...] = ()
    contradictions: tuple[Contradiction, ...] = ()
    pending: tuple[Pending, ...] = ()
    opening_indicator: Tile | None = None
    revealed: tuple[Reveal, ...] = ()
    resolved: tuple[FrameSide | None, ...] = ()
    #: Those of ``events`` whose order the follower inferred: discards by several seats settled in one change (the
    #: reads fell behind), taken in turn from the seat due.
    inferred: tuple[Event, ...] = ()
    #: Discards taken upright whose tile has since settled sideways in a seat that had not declared riichi: each
    #: (seat, its index among the seat's pond tiles, the tile), a riichi read late, for the game to correct.
    late_riichi: tuple[tuple[int, int, Tile], ...] = ()
    #: Discards taken whose tile has since settled as another (read wrong as it landed, read right for
    #: :data:`~vision.read.fusion.STEADY` frames since): each (seat, its index among the seat's pond tiles, the tile
    #: taken, the tile it is), for the game to correct.
    misread: tuple[tuple[int, int, Tile, Tile], ...] = ()
    #: Riichi taken on a discard whose neighbour in the pond has since settled sideways instead: each (seat, the tile
    #: the riichi was taken on, the tile that lies sideways), for the game to move the riichi to.
    moved_riichi: tuple[tuple[int, Tile, Tile], ...] = ()


def _one_pond_tile_otherwise(now: SeatSnapshot, was: SeatSnapshot) -> int | None:
    """The index of the one pond tile that reads otherwise than accepted, the pond and its riichi tile else alike;
    None when the change is any other."""
    if len(now.pond) != len(was.pond) or now.riichi != was.riichi or now.melds != was.melds:
        return None
    differ = [i for i, (a, b) in enumerate(zip(now.pond, was.pond, strict=True)) if a != b]
    return differ[0] if len(differ) == 1 else None


def _is_subsequence(short: Sequence, long: Sequence) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


# --- how one zone changed -------------------------------------------------------------------------------------


class _Pond(enum.Enum):
    SAME = "same"
    GREW = "grew"  # one tile more at the end
    GREW_MANY = "grew_many"  # several tiles more at the end (reads fell behind: taken when turn order explains them)
    TAKEN = "taken"  # the last tile gone (a call, or an arm over it)
    HIDDEN = "hidden"  # tiles missing, the rest in order


def _pond_change(now: SeatSnapshot, was: SeatSnapshot) -> _Pond | tuple[Clash, str]:
    if now.pond == was.pond:
        return _Pond.SAME
    n, m = len(now.pond), len(was.pond)
    if n == m + 1 and now.pond[:m] == was.pond:
        return _Pond.GREW
    if m and now.pond == was.pond[:-1]:
        return _Pond.TAKEN
    if n < m and _is_subsequence(now.pond, was.pond):
        return _Pond.HIDDEN
    shown = f"{format_tiles(was.pond) or '-'} -> {format_tiles(now.pond) or '-'}"
    if n > m + 1 and now.pond[:m] == was.pond:
        return _Pond.GREW_MANY
    if n > m and _is_subsequence(was.pond, now.pond):
        return Clash.TILE_INSERTED, shown
    return Clash.POND_CHANGED, shown


@dataclass(frozen=True, slots=True)
class _Melds:
    """How a seat's melds changed: a new one, or a pon grown to four (index into the old melds), or none; tiles
    missing (``hidden``), among them an open kan back to three of its kind (``shrunk``, index into the old melds: an
    added kan's tile robbed by a ron, or an arm over it), or old melds not seen beside a new one."""

    new: MeldSnapshot | None = None
    grown: int | None = None
    hidden: bool = False
    shrunk: int | None = None
    #: An old meld misread (:func:`_misread_meld`: a blank tile boxed twice, a tile read otherwise): no event, no
    #: tile missing; it waits to be read right.
    misread: bool = False


def _misread_meld(now: MeldSnapshot, old: MeldSnapshot) -> bool:
    """Whether ``now`` is ``old`` misread: with one tile more of its own kinds and no tile sideways, with one tile
    read otherwise (:func:`~vision.read.fusion.one_meld_tile_otherwise`), or with one tile more of another kind (a tile
    beside it read into its row). No move makes any of them (an added kan keeps its called tile sideways and adds
    the meld's own kind, a closed kan shows its ends face down; no move changes a tile of a meld)."""
    if one_meld_tile_otherwise(now, old):
        return True
    extra = minus(now.face_up, old.face_up) if len(now.tiles) == len(old.tiles) + 1 else None
    if extra is not None and len(extra) == 1 and extra[0].deaka() not in {t.deaka() for t in old.face_up}:
        return True
    return (
        now.called is None
        and None not in now.tiles
        and len(now.tiles) == len(old.tiles) + 1
        and {t.deaka() for t in now.face_up} == {t.deaka() for t in old.face_up}
    )


def _meld_change(now: SeatSnapshot, was: SeatSnapshot) -> _Melds | tuple[Clash, str]:
    if Counter(now.melds) == Counter(was.melds):
        return _Melds()
    # each old meld still there, read alike, tile for tile (its sideways tile or its source read otherwise is no
    # move), or misread (:func:`_misread_meld`): what is left is new
    rest, misread = list(now.melds), False
    for old in was.melds:
        same = [m for m in rest if m == old] or [m for m in rest if Counter(m.tiles) == Counter(old.tiles)]
        wrong = [] if same else [m for m in rest if _misread_meld(m, old)]
        if not same and not wrong:
            break
        rest.remove((same or wrong)[0])
        misread |= not same
    else:
        if len(rest) <= 1:
            return _Melds(new=rest[0] if rest else None, misread=misread)
    gone = minus(was.melds, now.melds)
    if gone is not None:
        return _Melds(hidden=True)
    # one meld replaced, the others as they were: each old meld with the one that replaced it
    replaced = []
    for i, old in enumerate(was.melds):
        rest = minus(now.melds, [m for k, m in enumerate(was.melds) if k != i])
        if rest is not None and len(rest) == 1:
            replaced.append((i, old, rest[0]))
    # an open kan back to three of its kind, its sideways tile kept: its fourth tile taken (robbed, or hidden)
    for i, kan, pon in replaced:
        if (
            len(kan.tiles) == 4
            and kan.called is not None
            and len({t.deaka() for t in kan.face_up}) == 1
            and len(pon.tiles) == 3
            and pon.called is not None
            and None not in pon.tiles
            and minus(kan.face_up, pon.face_up) is not None
        ):
            return _Melds(hidden=True, shrunk=i)
    # an added kan: one pon replaced by four of its kind (the fourth tile laid in the meld's row), its called tile
    # still sideways (four of a kind read with none sideways is a pon misread: a blank 5z boxed twice)
    for i, pon, kan in replaced:
        if (
            len(pon.tiles) == 3
            and len(kan.tiles) == 4
            and kan.called is not None
            and minus(kan.face_up, pon.face_up) is not None
            and len({t.deaka() for t in kan.face_up}) == 1
            and len({t.deaka() for t in pon.face_up}) == 1
        ):
            return _Melds(new=kan, grown=i)
    # a new meld while others are not seen (an arm, a meld the reader misses): the new one, the others hidden
    kept = list((Counter(now.melds) & Counter(was.melds)).elements())
    new = minus(now.melds, kept)
    if new is not None and len(new) == 1 and len(kept) < len(was.melds):
        return _Melds(new=new[0], hidden=True)
    shown = f"{' '.join(m.text for m in was.melds) or '-'} -> {' '.join(m.text for m in now.melds) or '-'}"
    return Clash.MELD_CHANGED, shown


def _less_one_tile(meld: MeldSnapshot) -> tuple[MeldSnapshot, MeldKind | None]:
    """A new meld of four read with a tile beside it in its row (``2m4s2m2m``): the one call its tiles make less one
    tile other than the sideways one, as that meld; else ``meld`` and None (none, or two ways: a guess)."""
    ways = []
    if len(meld.tiles) == 4 and meld.called is not None and None not in meld.tiles:
        for k in range(4):
            if k == meld.called:
                continue
            tiles = meld.tiles[:k] + meld.tiles[k + 1 :]
            kind = _call_kind(tiles)  # type: ignore[arg-type]
            if kind in (MeldKind.PON, MeldKind.CHI):
                called = meld.called - (k < meld.called)
                ways.append((MeldSnapshot(tiles, called, meld.source), kind))
    if len({(w.tiles, k) for w, k in ways}) == 1:
        return ways[0]
    return meld, None


def _call_kind(tiles: Sequence[Tile]) -> MeldKind | None:
    kinds = sorted(t.deaka().kind for t in tiles)
    if len(set(kinds)) == 1:
        return {3: MeldKind.PON, 4: MeldKind.KAN}.get(len(kinds))
    run = [kinds[0], kinds[0] + 1, kinds[0] + 2]
    if len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9 and kinds == run:
        return MeldKind.CHI
    return None


# --- the follower -------------------------------------------------------------------------------------------


@dataclass
class _Run:
    """A zone's reading of the latest frames: the value and for how many consecutive frames it has held."""

    value: object = None
    frames: int = 0


@dataclass
class TableFollower:
    """Turns successive :class:`TableObservation` s into engine events (the module's docstring: settling, seats).

    ``camera_seat``: the game seat at the frame's bottom edge (None: seats are the sides' numbers). ``settle``:
    frames a change must hold; ``vanish``: frames tiles may stay hidden before their loss is a contradiction.
    ``fuse``: compare each frame's table as fused with the frames before it (:class:`~vision.read.fusion.TableFusion`:
    a slip of a frame or two never reaches the comparison; a change the game makes then takes
    :data:`~vision.read.fusion.QUICK` - 1 frames more to show), not as that frame alone read it.

    A settled change of a zone becomes:

    - a pond grown by one tile at its end: ``Discard`` (``riichi=True`` when the new tile lies sideways and the seat
      has not declared before: after a riichi tile is called, the next discard lies sideways instead); the ponds of
      several seats grown so in one change, when they are the seat due (``expected_seat``) and the seats after it:
      their ``Discard`` s in turn order (the reads fell behind; :attr:`FollowUpdate.inferred`);
    - a new meld whose sideways tile points at the seat of the last discard, with that discard gone from its pond
      (a call takes the last discard out of the discarder's pond): ``Call`` (chi, pon or open kan; the engine takes
      the source from its own last discard, the follower checks the meld agrees); a pon grown to four: ``AddedKan``;
      a new meld of four with face-down ends: ``ClosedKan``;
    - one more dora indicator, where a kan on the table (a meld of four) allows it: ``DoraFlip`` (the hand's first
      indicator is the engine's ``HandStart``'s; the follower gives it apart, as
      :attr:`FollowUpdate.opening_indicator`). Indicators turned while a hand lies face up are the ura indicators
      (they go with the :class:`Reveal`); otherwise more indicators than kans allow (an added kan whose fourth tile
      the reader sees stacked, as one box) are a contradiction;
    - a concealed hand laid face up (at least 13 tiles, three fewer per meld, read face up): a :class:`Reveal` once it
      has settled, again when it changes (ura indicators turned, the ron tile taken from its pond); the last discard
      leaving its pond while a hand lies open is that ron tile, no contradiction, and so is the fourth tile leaving the
      added kan taken last (robbing the kan: its meld goes back to the pon).

    Tiles missing from a pond, a meld or the dead wall read as hidden (an arm, a sleeve): no event, until they have
    been missing for ``vanish`` frames, which makes a :class:`Contradiction`; a seat's melds hidden hold up none of
    its pond's changes. Any other settled change that no event
    explains (a pond tile read differently, a tile appearing mid-pond, a pond grown by two, two seats discarding in
    one change out of turn order, a discard out of turn, a meld that no discard explains) is a :class:`Contradiction`
    too, never guessed over: the accepted state stays as it was until the table reads as something that explains it,
    or a person fixes it and :meth:`TableFollower.accept` resyncs to a frame.

    >>> from engine.tiles import parse_tiles
    >>> from vision.read.detector import Detection
    >>> from vision.read.geometry import Box
    >>> from vision.read.labels import class_of_tile
    >>> from vision.read.table import SeatObservation
    >>> def pond(text):
    ...     return tuple(Detection.of_class(class_of_tile(t), Box(30 * i, 0, 30 * i + 28, 38), 0.9)
    ...                  for i, t in enumerate(parse_tiles(text)))
    >>> def table(bottom):
    ...     return TableObservation(tuple(SeatObservation(s, pond=pond(bottom) if s is FrameSide.BOTTOM else ())
    ...                                   for s in FrameSide), (0.0, 0.0))
    >>> follower = TableFollower(camera_seat=2)
    >>> [follower.update(table(text), i).events for i, text in enumerate(["", "1z", "1z", "1z"])]
    [(), (), (Discard(seat=2, tile=Tile.parse('1z'), tsumogiri=None, riichi=False, open_riichi=False),), ()]
    """

    camera_seat: int | None = None
    settle: int = SETTLE
    vanish: int = VANISH
    fuse: bool = True
    #: What the follower has taken so far.
    accepted: TableSnapshot = field(default_factory=TableSnapshot)
    #: Seats (by side index) that declared riichi this hand.
    declared: list[bool] = field(default_factory=lambda: [False] * 4)
    #: The last discard taken: its side and tile (None after a call took it, or after :meth:`accept`).
    last_discard: tuple[FrameSide, Tile] | None = None
    #: The added kan taken last, while no event has followed it: its side and meld (open to a robbing ron, 搶槓).
    last_added: tuple[FrameSide, MeldSnapshot] | None = None
    #: Indicators turned while a hand lies open (the ura indicators), and whether the last discard left its pond
    #: (or the last added kan its fourth tile) meanwhile: a ron's tile set apart by the winner.
    ura: tuple[Tile, ...] = ()
    ron_taken: bool = False
    #: The hands reported open, by side.
    revealed: dict[FrameSide, Reveal] = field(default_factory=dict)
    _runs: list[_Run] = field(default_factory=lambda: [_Run() for _ in range(HAND + 4)], repr=False)
    _hidden: list[int] = field(default_factory=lambda: [0] * 5, repr=False)
    _reported: dict[int, set[object]] = field(default_factory=dict, repr=False)
    #: Seats (by zone) whose reading made a contradiction in :data:`RESYNCED_CLASHES`: that reading, and the frames it
    #: had held when shown.
    _refused: dict[int, tuple[object, int]] = field(default_factory=dict, repr=False)
    #: Each seat's (by zone) last discard taken: its index in the pond and the update it was taken on.
    _landed: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)
    #: Updates (frames read or held) so far.
    _updates: int = field(default=0, repr=False)
    #: Seats (by zone) taken as read after a contradiction: the seat as accepted before, and as taken then.
    _resynced: dict[int, tuple[SeatSnapshot, SeatSnapshot]] = field(default_factory=dict, repr=False)
    #: Seats (by zone) whose one new pond tile came out of turn: the seat as accepted before it. Once the seat due has
    #: discarded, that tile is the next seat's discard in turn (a discard read late), taken then.
    _early: dict[int, SeatSnapshot] = field(default_factory=dict, repr=False)
    _last: TableObservation | None = field(default=None, repr=False)
    _seen: bool = field(default=False, repr=False)
    _fusion: TableFusion = field(default_factory=TableFusion, repr=False)

    def __post_init__(self) -> None:
        if self.camera_seat is not None and self.camera_seat not in range(4):
            raise ValueError(f"camera_seat is a game seat 0..3 (or None), not {self.camera_seat!r}")
        if self.settle < 1 or self.vanish < 1:
            raise ValueError(f"settle and vanish are at least 1 frame, not {self.settle} and {self.vanish}")

    def seat_of(self, side: FrameSide) -> int:
        """The game seat sitting at ``side`` of the frame."""
        return (side.turns + (self.camera_seat or 0)) % 4

    def accept(self, observation: TableObservation) -> None:
        """Take ``observation`` as the table's true state (a person corrected it, or a hand starts mid-way):
        every zone counts as settled on it, the contradictions are forgotten, no discard is open to a call."""
        snapshot = TableSnapshot.of(observation)
        self._fusion.reset(snapshot)
        self.accepted = snapshot
        self.declared = [s.riichi is not None for s in snapshot.seats]
        self.last_discard = self.last_added = None
        self.ura, self.ron_taken, self.revealed = (), False, {}
        self._runs = [_Run(snapshot.zone(i), self.settle) for i in range(HAND + 4)]
        self._hidden = [0] * 5
        self._reported = {}
        self._refused = {}
        self._resynced = {}
        self._early = {}
        self._landed = {}
        self._last, self._seen = observation, True

    def hold(self, frame_index: int, expected_seat: int | None = None) -> FollowUpdate:
        """The table reads as in the last frame for one frame more (the change gate found it unchanged)."""
        if not self._seen:
            return FollowUpdate()
        return self.update(self._last, frame_index, expected_seat)

    def update(
        self, observation: TableObservation | None, frame_index: int, expected_seat: int | None = None
    ) -> FollowUpdate:
        """One frame's table read: the events it settles, the contradictions it shows first, what waits.

        ``observation`` None: the frame showed too few tiles to read a table (a hand over the lens): all is hidden.

        ``expected_seat``: the game seat whose discard is due (from the engine), to refuse one by another seat.
        """
        self._last, self._seen = observation, True
        self._updates += 1
        read = TableSnapshot() if observation is None else TableSnapshot.of(observation)
        snapshot = self._fusion.fuse(observation) if self.fuse else read
        # ponds read longer than believed: a change the fusion has not taken yet (several discards at once wait
        # longer than one), not to be judged without
        changing = observation is not None and any(
            len(r.pond) > len(v.pond) for r, v in zip(read.seats, snapshot.seats, strict=True)
        )
        for i, run in enumerate(self._runs):
            value = snapshot.zone(i)
            if value == run.value:
                run.frames += 1
            else:
                run.value, run.frames = value, 1
        return _Step(self, snapshot, frame_index, expected_seat, changing).run()


@dataclass
class _Step:
    """One update's work: compare the settled zones with the accepted state, take what events explain."""

    follower: TableFollower
    snapshot: TableSnapshot
    frame: int
    expected_seat: int | None
    #: A pond reads longer than the fused table believes it (a change still being taken).
    changing: bool = False
    events: list[Event] = field(default_factory=list)
    clashes: list[Contradiction] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    opening: Tile | None = None
    resolved: list[FrameSide | None] = field(default_factory=list)
    inferred: list[Event] = field(default_factory=list)
    late_riichi: list[tuple[int, int, Tile]] = field(default_factory=list)
    misread: list[tuple[int, int, Tile, Tile]] = field(default_factory=list)
    moved_riichi: list[tuple[int, Tile, Tile]] = field(default_factory=list)

    def settled(self, zone: int) -> bool:
        f = self.follower
        need = max(f.settle, RIICHI_SETTLE) if zone < DORA and self._declares_riichi(zone) else f.settle
        return f._runs[zone].frames >= need

    def _declares_riichi(self, zone: int) -> bool:
        """Whether the seat's pond as read now lies sideways at a tile it did not before, the seat not in riichi."""
        f = self.follower
        now, was = f._runs[zone].value, f.accepted.seats[zone]
        return (
            isinstance(now, SeatSnapshot)
            and now.riichi is not None
            and now.riichi != was.riichi
            and now.riichi >= len(was.pond)
            and not f.declared[zone]
        )

    def clash(self, zone: int, clash: Clash, detail: str) -> None:
        """Report a contradiction once for the zone's reading that shows it (tiles vanished: once until the zone
        reads as accepted again, however the hidden part looks meanwhile)."""
        f = self.follower
        key = (clash, None if clash is Clash.VANISHED else f._runs[zone].value)
        seen = f._reported.setdefault(zone, set())
        if key in seen:
            return
        seen.add(key)
        if zone < DORA and clash.value in RESYNCED_CLASHES:
            f._refused[zone] = (f._runs[zone].value, f._runs[zone].frames)
        side = None if zone == DORA else _SIDES[zone]
        self.clashes.append(Contradiction(clash, side, None if side is None else f.seat_of(side), self.frame, detail))

    def hidden(self, zone: int, what: str) -> None:
        """Tiles missing in ``zone``: wait, until they have been missing too long."""
        f = self.follower
        f._hidden[zone] += 1
        side = None if zone == DORA else _SIDES[zone]
        if f._hidden[zone] >= f.vanish:
            self.clash(zone, Clash.VANISHED, f"{what} for {f._hidden[zone]} frames")
        else:
            self.pending.append(Pending(side, f"{what} (hidden?) for {f._hidden[zone]} frame(s)"))

    def run(self) -> FollowUpdate:
        f = self.follower
        self._back_to_before_resync()
        was = f.accepted
        seats = list(was.seats)
        ponds: dict[FrameSide, _Pond] = {}
        melds: dict[FrameSide, _Melds] = {}
        for side in _SIDES:
            zone, now = side.turns, self.snapshot.seat(side)
            if now == was.seat(side):
                self.settle_zone(zone)
                continue
            pond, meld = _pond_change(now, was.seat(side)), _meld_change(now, was.seat(side))
            if pond is _Pond.TAKEN and self._ron_tile_taken(side, seats):
                continue
            shrunk = meld.shrunk if isinstance(meld, _Melds) and pond is _Pond.SAME else None
            if shrunk is not None and self._kan_tile_robbed(side, seats, shrunk):
                continue
            if isinstance(meld, _Melds) and meld.misread:
                self.pending.append(Pending(side, "a meld read otherwise (read again)"))
            if (isinstance(pond, _Pond) and pond in (_Pond.TAKEN, _Pond.HIDDEN)) or (
                isinstance(meld, _Melds) and meld.hidden
            ):
                self.hidden(zone, "pond tiles missing" if pond in (_Pond.TAKEN, _Pond.HIDDEN) else "meld tiles missing")
                if pond in (_Pond.TAKEN, _Pond.HIDDEN):  # a tile read in its slot later is another one (a call took
                    f._landed.pop(zone, None)  # it, an arm hid it), not the last discard read wrong
            else:
                f._hidden[zone] = 0
            if not self.settled(zone):
                self.pending.append(Pending(side, f"changed, seen for {f._runs[zone].frames} frame(s)"))
                continue
            # a discard read wrong as it landed, read right since (the fusion's steady reading): corrected, no clash
            slot = _one_pond_tile_otherwise(now, was.seat(side)) if f.fuse and isinstance(pond, tuple) else None
            if slot is not None and self._read_wrong_as_it_landed(zone, slot):
                old = seats[zone]
                self.misread.append((f.seat_of(side), slot, old.pond[slot], now.pond[slot]))
                seats[zone] = SeatSnapshot(now.pond, old.riichi, old.melds)
                continue
            for change in (pond, meld):
                if isinstance(change, tuple):
                    self.clash(zone, *change)
            if pond is _Pond.SAME:
                self._riichi_read_since(side, now, seats)
            if isinstance(pond, _Pond) and isinstance(meld, _Melds):
                ponds[side] = pond  # melds partly hidden (an arm, a meld the reader missed) hold up no discard
                if not meld.hidden or meld.new is not None:  # ... nor a new meld beside them
                    melds[side] = meld
        self._melds(seats, ponds, melds)
        self._dora(seats)
        self._discards(seats, ponds)
        self._go_on_after_refusals(seats)
        moves = [e for e in self.events if not isinstance(e, DoraFlip)]
        if len(moves) > 1:  # several moves settled in one change (the reads fell behind): their order is inferred
            self.inferred += [e for e in moves if not any(e is i for i in self.inferred)]
        f.accepted = TableSnapshot(tuple(seats), f.accepted.indicators)
        revealed = self._reveals()
        return FollowUpdate(
            tuple(self.events),
            tuple(self.clashes),
            tuple(self.pending),
            self.opening,
            revealed,
            tuple(self.resolved),
            tuple(self.inferred),
            tuple(self.late_riichi),
            tuple(self.misread),
            tuple(self.moved_riichi),
        )

    def _read_wrong_as_it_landed(self, zone: int, slot: int) -> bool:
        """Whether pond ``slot`` holds the seat's last discard taken, taken within the frames a reading needs to be
        believed otherwise (:data:`~vision.read.fusion.WINDOW` + :data:`~vision.read.fusion.STEADY`): a tile read
        otherwise later (its last discard called, and the seat's next one seen in its place) is a contradiction, and
        so is a riichi read on an older discard (a pond read askew: a riichi is declared with the discard)."""
        landed = self.follower._landed.get(zone)
        return landed is not None and landed[0] == slot and self.follower._updates - landed[1] <= WINDOW + STEADY

    def _riichi_read_since(self, side: FrameSide, now: SeatSnapshot, seats: list[SeatSnapshot]) -> None:
        """A pond read with its tiles as accepted but its sideways tile elsewhere: a discard taken upright settled
        sideways since (a riichi read late), or the riichi taken on the discard beside the one that settled sideways
        (moved to it)."""
        f, zone = self.follower, side.turns
        before = f.accepted.seat(side).riichi
        if now.riichi is None or now.riichi >= len(now.pond) or now.riichi == before:
            return
        old = seats[zone]
        if before is None and not f.declared[zone]:
            if not self._read_wrong_as_it_landed(zone, now.riichi):
                return
            self.late_riichi.append((f.seat_of(side), now.riichi, now.pond[now.riichi]))
            f.declared[zone] = True
        elif before is not None:
            self.moved_riichi.append((f.seat_of(side), old.pond[before], now.pond[now.riichi]))
        else:
            return
        seats[zone] = SeatSnapshot(old.pond, now.riichi, old.melds)

    def _go_on_after_refusals(self, seats: list[SeatSnapshot]) -> None:
        """Each seat whose contradiction (:data:`RESYNCED_CLASHES`) still reads as it did, a frame past the one that
        showed it: taken as that seat's tiles now, so that its next moves are followed; the contradiction is not
        resolved by it (a person sees it until the table or a person settles it)."""
        f = self.follower
        for zone, (value, frames) in list(f._refused.items()):
            run = f._runs[zone]
            if run.value != value:
                if run.value == f.accepted.zone(zone):  # read as accepted again: nothing to take
                    del f._refused[zone]
                continue
            if run.frames > frames and isinstance(value, SeatSnapshot) and not self.snapshot.open_hand:
                f._resynced[zone] = (seats[zone], value)
                seats[zone] = value
                del f._refused[zone]
                f._hidden[zone] = 0
                f._reported.pop(zone, None)  # its contradiction stays shown: no "resolved" when it reads alike next
        for zone, (before, taken) in list(f._resynced.items()):
            now, n = seats[zone], len(taken.pond)
            if now == taken:
                continue
            if now.melds == taken.melds and now.pond[:n] == taken.pond:  # discards followed since: on both
                f._resynced[zone] = (SeatSnapshot(before.pond + now.pond[n:], before.riichi, before.melds), now)
            else:  # the table went on otherwise from what was taken
                del f._resynced[zone]

    def _back_to_before_resync(self) -> None:
        """A seat taken as read after a contradiction that now reads as it did before it, or as that and one discard
        more (the contradiction was a misreading, read right again): back to its state before, its contradiction
        resolved, and the change judged from there."""
        f = self.follower
        for zone, (before, taken) in list(f._resynced.items()):
            now = self.snapshot.seats[zone]
            if now == taken:
                continue
            if _pond_change(now, before) in (_Pond.SAME, _Pond.GREW) and _meld_change(now, before) == _Melds():
                seats = list(f.accepted.seats)
                seats[zone] = before
                f.accepted = TableSnapshot(tuple(seats), f.accepted.indicators, f.accepted.hands)
                del f._resynced[zone]
                f._early.pop(zone, None)
                self.resolved.append(_SIDES[zone])

    def settle_zone(self, zone: int) -> None:
        """The zone reads as accepted: nothing hidden, its contradictions (if any were reported) no longer hold."""
        f = self.follower
        f._hidden[zone] = 0
        if f._reported.pop(zone, None):
            self.resolved.append(None if zone == DORA else _SIDES[zone])

    # -- hands laid face up
    def _ron_tile_taken(self, side: FrameSide, seats: list[SeatSnapshot]) -> bool:
        """The last discard left its pond while a hand lies open: the winner took it (a ron). Taken once settled."""
        f = self.follower
        if f.last_discard is None or f.last_discard[0] is not side or not self.snapshot.open_hand:
            return False
        if self.settled(side.turns):
            old = seats[side.turns]
            riichi = None if old.riichi == len(old.pond) - 1 else old.riichi
            seats[side.turns] = SeatSnapshot(old.pond[:-1], riichi, old.melds)
            f.ron_taken = True
            self.settle_zone(side.turns)
        return True

    def _kan_tile_robbed(self, side: FrameSide, seats: list[SeatSnapshot], kan: int) -> bool:
        """The added kan taken last is back to its pon while a hand lies open: the winner robbed its fourth tile
        (搶槓, a ron on it). Taken once settled."""
        f = self.follower
        if f.last_added is None or f.last_added[0] is not side or not self.snapshot.open_hand:
            return False
        old = seats[side.turns]
        if old.melds[kan] != f.last_added[1]:
            return False
        if self.settled(side.turns):
            seats[side.turns] = SeatSnapshot(old.pond, old.riichi, self.snapshot.seat(side).melds)
            f.ron_taken, f.last_added = True, None
            self.settle_zone(side.turns)
        return True

    def _reveals(self) -> tuple[Reveal, ...]:
        f, out = self.follower, []
        for side in _SIDES:
            zone = HAND + side.turns
            hand = f._runs[zone].value
            if f._runs[zone].frames < max(f.settle, REVEAL_SETTLE):  # a result is at stake: held a frame longer
                continue
            if not isinstance(hand, OpenHand):
                f.revealed.pop(side, None)
                continue
            seat = f.accepted.seat(side)
            reveal = Reveal(f.seat_of(side), side, hand.tiles, hand.apart, seat.melds, f.ura, f.ron_taken)
            if f.revealed.get(side) != reveal:
                f.revealed[side] = reveal
                out.append(reveal)
        return tuple(out)

    # -- calls and kans
    def _melds(self, seats: list[SeatSnapshot], ponds: dict[FrameSide, _Pond], melds: dict[FrameSide, _Melds]) -> None:
        f = self.follower
        for side, change in melds.items():
            if change.new is None:
                continue
            zone, meld, old = side.turns, change.new, seats[side.turns]
            if change.grown is None and (pon := self._pon_boxed_twice(side, meld, ponds)) is not None:
                self._call(side, pon, seats, ponds)
                continue
            kan = change.grown is not None or meld.called is None
            if kan and self.expected_seat is not None and f.seat_of(side) != self.expected_seat:
                # a kan is made on its seat's own turn: one seen out of turn is a misread (a blank 5z boxed twice)
                # until the table shows otherwise; the seat's pond, and every other seat, go on meanwhile
                self.pending.append(Pending(side, f"a kan by seat {f.seat_of(side)} out of turn: {meld.text}"))
                continue
            if change.grown is not None:
                kept = [m for i, m in enumerate(old.melds) if i != change.grown]
                tile = minus(meld.face_up, old.melds[change.grown].face_up)
                self.events.append(AddedKan(f.seat_of(side), tile[0] if tile else meld.face_up[0]))
                seats[zone] = SeatSnapshot(old.pond, old.riichi, (*kept, meld))
                f.last_added = (side, meld)
                continue
            if meld.called is None:
                up = meld.face_up
                ends_down = len(meld.tiles) == 4 and meld.tiles[0] is None and meld.tiles[-1] is None
                if not (ends_down and len(up) == 2 and up[0].deaka() == up[1].deaka()):
                    why = f"a meld with no sideways tile that is no closed kan: {meld.text}"
                    self.clash(zone, Clash.MELD_CHANGED, why)
                    ponds.pop(side, None)
                    continue
                self.events.append(ClosedKan(f.seat_of(side), (*up, up[0].deaka(), up[0].deaka())))
                f.last_added = None
                seats[zone] = SeatSnapshot(old.pond, old.riichi, (*old.melds, meld))
                continue
            self._call(side, meld, seats, ponds)

    def _pon_boxed_twice(
        self, side: FrameSide, meld: MeldSnapshot, ponds: dict[FrameSide, _Pond]
    ) -> MeldSnapshot | None:
        """A new meld of four alike, all face up and none sideways, of the last discard's tile, which has left another
        seat's pond: no meld a move makes (a closed kan shows its ends face down, an added kan keeps its called tile
        sideways) but a pon of that discard with a blank tile boxed twice (a White dragon's face is plain). The pon,
        its called tile where whence it came puts it; None for any other meld."""
        f, last = self.follower, self.follower.last_discard
        if last is None or meld.called is not None or len(meld.tiles) != 4 or None in meld.tiles:
            return None
        source, tile = last
        if (
            source is side
            or ponds.get(source) is not _Pond.TAKEN
            or {t.deaka() for t in meld.face_up} != {tile.deaka()}
        ):
            return None
        # whence: the seat before the caller (kamicha) lays it leftmost, the one across in the middle, the one after
        # (shimocha) rightmost
        called = {3: 0, 2: 1, 1: 2}[(f.seat_of(source) - f.seat_of(side)) % 4]
        return MeldSnapshot((tile, tile, tile), called, source)

    def _call(
        self, side: FrameSide, meld: MeldSnapshot, seats: list[SeatSnapshot], ponds: dict[FrameSide, _Pond]
    ) -> None:
        f, zone = self.follower, side.turns
        last = f.last_discard
        called = meld.tiles[meld.called] if meld.called is not None else None
        own = ponds.pop(side, None)  # the caller's own discard waits for its call
        if last is None or called is None or None in meld.tiles:
            self.clash(zone, Clash.CALL_MISMATCH, f"a new meld {meld.text} and no discard open to a call")
            return
        source, tile = last
        kind = _call_kind(meld.face_up)
        if kind is None and called.deaka() == tile.deaka():
            meld, kind = _less_one_tile(meld)
        if source is side or meld.source is not source or called.deaka() != tile.deaka() or kind is None:
            self.clash(
                zone,
                Clash.CALL_MISMATCH,
                f"meld {meld.text} from {meld.source.value if meld.source else '-'}; "
                f"last discard {tile} by {source.value}",
            )
            return
        if ponds.get(source) is not _Pond.TAKEN:  # the discard still shows in its pond (or it is unsettled)
            self.pending.append(Pending(side, f"a call of {tile}: waiting for it to leave the {source.value} pond"))
            return
        tiles = tuple(tile if i == meld.called else t for i, t in enumerate(meld.tiles))
        if own is not None:
            ponds[side] = own
        self.events.append(Call(f.seat_of(side), kind, tiles))  # type: ignore[arg-type]
        old = seats[zone]
        seats[zone] = SeatSnapshot(old.pond, old.riichi, (*old.melds, meld))
        discarder = seats[source.turns]
        riichi = None if discarder.riichi == len(discarder.pond) - 1 else discarder.riichi
        seats[source.turns] = SeatSnapshot(discarder.pond[:-1], riichi, discarder.melds)
        ponds[source] = _Pond.SAME
        f._hidden[source.turns] = 0
        self.pending = [p for p in self.pending if p.side is not source]
        f.last_discard = f.last_added = None
        self.expected_seat = f.seat_of(side)  # the caller discards next (maybe in this same change)

    # -- dora indicators
    def _dora(self, seats: list[SeatSnapshot]) -> None:
        f = self.follower
        was, now = f.accepted.indicators, self.snapshot.indicators
        if now == was:
            self.settle_zone(DORA)
            return
        new = minus(now, was)
        if new is None and minus(was, now) is not None:
            self.hidden(DORA, "dora indicators missing")
            return
        f._hidden[DORA] = 0
        if not self.settled(DORA):
            self.pending.append(Pending(None, f"changed, seen for {f._runs[DORA].frames} frame(s)"))
            return
        if new is None:
            self.clash(DORA, Clash.DORA_CHANGED, f"{format_tiles(was) or '-'} -> {format_tiles(now) or '-'}")
            return
        if was and self.snapshot.open_hand:  # indicators turned while a hand lies open: the ura indicators
            f.ura = tuple(new)
            return
        kans = sum(len(m.tiles) == 4 for s in seats for m in s.melds)
        if len(now) > 1 + kans:  # one indicator per kan after the first: the others are no kan dora
            why = f"{format_tiles(now)} with {kans} kan(s) on the table"
            self.clash(DORA, Clash.EXTRA_INDICATOR, why)
            return
        if not was:
            self.opening, new = new[0], new[1:]
        self.events += [DoraFlip(t) for t in new]
        f.accepted = TableSnapshot(f.accepted.seats, now)

    # -- discards
    def _discards(self, seats: list[SeatSnapshot], ponds: dict[FrameSide, _Pond]) -> None:
        f = self.follower
        grown = [side for side, change in ponds.items() if change in (_Pond.GREW, _Pond.GREW_MANY)]
        if len(grown) > 1 or any(ponds[side] is _Pond.GREW_MANY for side in grown):
            new = {side: len(self.snapshot.seat(side).pond) - len(seats[side.turns].pond) for side in grown}
            in_turn = self._in_turn(new)
            if in_turn is None and self._still_changing():  # a pond still changing may yet put them in turn
                return
            if in_turn is None:
                due = next((s for s in grown if f.seat_of(s) == self.expected_seat and new[s] == 1), None)
                if due is not None:  # the seat due discarded: taken; the others' new tiles are out of turn
                    self._discard(due, seats)
                    for side in grown:
                        if side is not due and new[side] == 1:
                            tile = self.snapshot.seat(side).pond[-1]
                            why = f"{tile} by seat {f.seat_of(side)} with seat {f.seat_of(due)}'s discard"
                            self._out_of_turn(side, seats, why)
                    grown = [s for s in grown if s is not due and new[s] > 1]
                for side in grown:
                    pond = self.snapshot.seat(side).pond
                    if new[side] > 1:
                        shown = f"{format_tiles(seats[side.turns].pond) or '-'} -> {format_tiles(pond)}"
                        self.clash(side.turns, Clash.MANY_DISCARDS, f"{new[side]} new tiles: {shown}")
                if due is None and (sum(n == 1 for n in new.values()) > 1 or len(grown) > 1):
                    names = ", ".join(f"{s.value} {format_tiles(self.snapshot.seat(s).pond[-new[s] :])}" for s in grown)
                    for side in grown:
                        if new[side] == 1:
                            self.clash(side.turns, Clash.TWO_DISCARDERS, f"discards at once: {names}")
                return
            for side in in_turn:  # the reads fell behind: each new tile a discard, in turn from the seat due
                self._discard(side, seats)
                self.inferred.append(self.events[-1])
            self._early_in_turn(in_turn[-1], seats)
            return
        if not grown:
            return
        side = grown[0]
        tile = self.snapshot.seat(side).pond[-1]
        if self.expected_seat is not None and f.seat_of(side) != self.expected_seat:
            if self._still_changing():
                return  # the seat due's pond is still changing: its discard may come in before this one
            self._out_of_turn(side, seats, f"{tile} by seat {f.seat_of(side)}, seat {self.expected_seat} is due")
            return
        self._discard(side, seats)
        self._early_in_turn(side, seats)

    def _held_early(self, side: FrameSide, seats: list[SeatSnapshot]) -> None:
        """Keep ``side``'s seat as accepted before its discard out of turn (:attr:`TableFollower._early`), unless the
        last discard has left its pond: then a call was missed (the seat out of turn its caller), and the tile is no
        discard read before the seat due's."""
        f = self.follower
        last = f.last_discard
        if last is not None and f._hidden[last[0].turns] > 0:
            return
        f._early.setdefault(side.turns, seats[side.turns])

    def _early_in_turn(self, after: FrameSide, seats: list[SeatSnapshot]) -> None:
        """After ``after``'s discard: the next seat's one tile that came out of turn and was taken as read since
        (:attr:`TableFollower._early`) is its discard in turn (read before the seat due's was seen): taken now,
        both marked inferred, its contradiction resolved; and so on round the table."""
        f = self.follower
        side = after
        while True:
            nxt = _SIDES[(side.turns + 1) % 4]  # the seat after (a side's seat is its turns, rotated)
            early = f._early.get(nxt.turns)
            held = seats[nxt.turns]
            if early is None or held.pond[:-1] != early.pond or held.melds != early.melds:
                return
            del f._early[nxt.turns]
            f._resynced.pop(nxt.turns, None)
            f._reported.pop(nxt.turns, None)
            seats[nxt.turns] = early
            taken = self.events[-1]
            self._discard_of(nxt, held, seats)
            self.inferred += [e for e in (taken, self.events[-1]) if not any(e is i for i in self.inferred)]
            self.resolved.append(nxt)
            side = nxt

    def _out_of_turn(self, side: FrameSide, seats: list[SeatSnapshot], why: str) -> None:
        """``side``'s one new pond tile, a discard by a seat not due: no move the rules allow next, so a misread (a
        tile boxed twice) until the pond has read ending in it for STEADY frames, as long as any other change no move
        makes must hold (fused: as the fusion counts them; else the frames its zone has read alike); pending until
        then (the seat due's discard may come in meanwhile and put it in turn), then a contradiction (``why``), the
        seat held as before it."""
        f = self.follower
        seen = f._fusion.last_tile_read(side) if f.fuse else f._runs[side.turns].frames
        if seen < STEADY:
            tile = self.snapshot.seat(side).pond[-1]
            self.pending.append(Pending(side, f"a discard out of turn? {tile}, seen for {seen} frame(s)"))
            return
        self.clash(side.turns, Clash.OUT_OF_TURN, why)
        self._held_early(side, seats)

    def _still_changing(self) -> bool:
        """Whether a pond reads longer than the fused table believes, or a seat's change has not settled yet."""
        return self.changing or any(p.side is not None and not self.settled(p.side.turns) for p in self.pending)

    def _in_turn(self, new: dict[FrameSide, int]) -> list[FrameSide] | None:
        """The sides whose ponds grew (``new``: by how many tiles), one a discard, in turn order from the seat due,
        when turn order explains them: N discards in all are the seat due's and the N - 1 turns after it, each seat
        as many as it had turns; else None (no seat is known to be due, a seat's turn skipped, or a call between)."""
        f = self.follower
        if self.expected_seat is None:
            return None
        by_seat = {f.seat_of(side): side for side in new}
        order = [(self.expected_seat + k) % 4 for k in range(sum(new.values()))]
        if Counter(order) != Counter({f.seat_of(side): n for side, n in new.items()}):
            return None
        return [by_seat[seat] for seat in order]

    def _discard(self, side: FrameSide, seats: list[SeatSnapshot]) -> None:
        """Take the next tile of ``side``'s pond (the first not taken yet) as its discard."""
        self._discard_of(side, self.snapshot.seat(side), seats)

    def _discard_of(self, side: FrameSide, now: SeatSnapshot, seats: list[SeatSnapshot]) -> None:
        """Take the next tile of ``side``'s pond as ``now`` shows it (the first not taken yet) as its discard."""
        f = self.follower
        f._early.pop(side.turns, None)
        old = seats[side.turns]
        at = len(old.pond)
        tile = now.pond[at]
        sideways = now.riichi == at
        riichi = sideways and not f.declared[side.turns]
        self.events.append(Discard(f.seat_of(side), tile, riichi=riichi))
        f._landed[side.turns] = (at, f._updates)
        f.declared[side.turns] |= riichi
        f.last_added = None
        seats[side.turns] = SeatSnapshot(now.pond[: at + 1], at if sideways else old.riichi, old.melds)
        f.last_discard = (side, tile)
