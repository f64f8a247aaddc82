"""Frames fused over time: the table's public tiles believed place by place, so that one misread frame never
reaches the follower.

A :class:`TableFusion` keeps a belief for each place on the table — each seat's pond slot (by its index in the
pond), each seat's melds, the dora indicators, each seat's hand laid face up — and what the last :data:`WINDOW`
frames read there. Each frame's :class:`~vision.read.table.TableObservation` votes place by place, and a belief
changes only when another reading has held long enough:

- a change the game makes — one tile landing at a pond's end or the last one leaving it (a call, a ron), a new meld,
  a pon grown to four or a kan back to three (robbed), one more dora indicator, a hand laid face up or picked up —
  once the new reading holds :data:`QUICK` of the last :data:`RECENT` frames;
- any other — a pond tile read as another, a pond longer by two tiles or short of more than its last one, a meld
  or an indicator gone or read otherwise — once it holds :data:`STEADY` of the last :data:`WINDOW` frames (no move
  of the game does this: it is an arm, a misread, or a contradiction that must hold before the follower is shown
  it). A frame with no table read counts only towards these: it shows no move.

Before voting, a pond read is laid against the believed pond: tiles missing from inside it (an arm over its start
or middle, the rest read in order) say nothing of the slots they hide, and a tile read between believed ones (a
box read twice, a tile of the next row) is left out, until the pond has read alike for :data:`STEADY` frames;
tiles read beyond the believed end are the candidates for new slots, and tiles long missing come back as quickly
as a move once the pond reads again as it was. A meld read with a believed meld's tiles is that meld, however its
tiles lie (whence it came does not change). Each frame's vote weighs its detections' mean
confidence, and a reading must also weigh more than all the others read there meanwhile together: doubtful reads
against sure ones wait until the sure ones have left the window (a place seen empty weighs 1: an empty read is
waited out by the frame count alone).

So a tile misread or inserted for a frame or two never reaches the fused snapshot, a steady tile stays through
:data:`STEADY` - 1 frames misnaming it, and a zone read empty or short (an arm over it) keeps its tiles for a
while; what the follower still sees missing it waits out as hidden.

    fusion = TableFusion()
    fusion.reset(TableSnapshot.of(first))     # a table taken as true (optional: empty at first)
    snapshot = fusion.fuse(observation)       # each frame, held ones again (None: no table read): the fused snapshot
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.tiles import Tile
from vision.read.detector import Detection
from vision.read.table import FrameSide, TableObservation
from vision.read.table_snapshot import MeldSnapshot, OpenHand, SeatSnapshot, TableSnapshot, minus

#: Frames a change the game makes (a discard, a call, a kan, a dora flip, a hand laid down) must hold ...
QUICK = 2
#: ... among the last this many (a discard called at once is still for two frames: one read, one held).
RECENT = 3
#: Frames any other change (a tile read otherwise, tiles missing) must hold ...
STEADY = 6
#: ... among the last this many: the frames kept for each place.
WINDOW = 11

_SIDES = tuple(FrameSide)


@dataclass(frozen=True, slots=True)
class Slot:
    """One place in a pond: the tile lying there and whether it lies sideways (a riichi declaration)."""

    tile: Tile
    sideways: bool = False


#: One frame's reading of a place: its value and its weight (the detections' mean confidence).
Vote = tuple[object, float]
#: No value holds a majority.
NONE = object()


def _weight(detections: Sequence[Detection]) -> float:
    return sum(d.conf for d in detections) / len(detections) if detections else 1.0


def majority(votes: Sequence[Vote | None], frames: int) -> object:
    """The value read in at least ``frames`` of ``votes`` (None: the place not read that frame) and weighing more
    than all the others read there together; :data:`NONE` when no value does.

    >>> majority([("1z", 0.9), ("1z", 0.9), None, ("2z", 0.5), ("1z", 0.8)], 3)
    '1z'
    >>> majority([("9m", 0.9), ("8m", 0.3), ("8m", 0.3)], 2) is NONE  # two doubtful reads against a sure one
    True
    """
    tally: dict[object, tuple[int, float]] = {}
    for vote in votes:
        if vote is not None:
            n, w = tally.get(vote[0], (0, 0.0))
            tally[vote[0]] = (n + 1, w + vote[1])
    total = sum(w for _, w in tally.values())
    return next((v for v, (n, w) in tally.items() if n >= frames and w > total / 2), NONE)


@dataclass
class _Place:
    """A place read as one value (a seat's melds, the dora indicators, a hand laid face up): the belief, the
    frames' votes, and which changes the game makes (``moved(belief, reading)``)."""

    belief: object
    moved: Callable[[object, object], bool]
    #: Each frame's vote, and whether the frame showed a table.
    votes: deque[tuple[Vote, bool]] = field(default_factory=lambda: deque(maxlen=WINDOW))

    def fuse(self, value: object, weight: float, seen: bool = True) -> object:
        """One frame's reading (``seen`` False: no table read; it counts only towards what waits :data:`STEADY`
        frames: a frame that shows nothing shows no move)."""
        self.votes.append(((value, weight), seen))
        quick = majority([v if s else None for v, s in list(self.votes)[-RECENT:]], QUICK)
        if quick is not NONE and quick != self.belief and self.moved(self.belief, quick):
            self.belief = quick
            _restart(self.votes)
            return self.belief
        steady = majority([v for v, _ in self.votes], STEADY)
        if steady is not NONE and steady != self.belief:
            self.belief = steady
            _restart(self.votes)
        return self.belief


def _restart(votes: deque) -> None:
    """A belief changed: the frames before the new reading began to hold no longer count against it."""
    kept = list(votes)[-RECENT:]
    votes.clear()
    votes.extend(kept)


@dataclass(frozen=True, slots=True)
class _PondRead:
    """One frame's pond laid against the believed one: the length it says the pond has, its vote for each slot it
    shows (by index), and the pond as read (its slots in order, and their mean confidence; ``confs``: each one's)."""

    length: int
    slots: dict[int, Vote]
    whole: Vote
    confs: tuple[float, ...]
    #: Whether the frame showed a table (a frame with none shows no move: it counts only towards steady changes).
    seen: bool = True

    def __deepcopy__(self, memo: dict) -> _PondRead:
        return self  # never changed once made (the camera game copies its follower every frame)


def _subsequence_at(short: Sequence[object], long: Sequence[object]) -> list[int] | None:
    """Where each of ``short`` lies in ``long``, in order (the leftmost fit), or None when it does not fit."""
    at, j = [], 0
    for tile in short:
        while j < len(long) and long[j] != tile:
            j += 1
        if j == len(long):
            return None
        at.append(j)
        j += 1
    return at


def _laid_against(read: Sequence[Slot], confs: Sequence[float], believed: Sequence[Slot], seen: bool) -> _PondRead:
    """A pond read laid against the believed pond (see the module's docstring); ``seen``: the frame showed a table."""
    tiles, belief = [s.tile for s in read], [s.tile for s in believed]
    votes = {i: (s, c) for i, (s, c) in enumerate(zip(read, confs, strict=True))}
    whole = (tuple(read), sum(confs) / len(confs) if confs else 1.0)
    inside = _subsequence_at(belief, tiles)
    if inside is not None:  # every believed tile read, in order: extra tiles inside are left out, after it are new
        last = inside[-1] if inside else -1
        slots = {i: votes[j] for i, j in enumerate(inside)}
        slots |= {len(belief) + k: votes[j] for k, j in enumerate(range(last + 1, len(tiles)))}
        return _PondRead(len(belief) + len(tiles) - last - 1, slots, whole, tuple(confs), seen)
    shown = _subsequence_at(tiles, belief)
    if shown is not None:  # tiles missing, the rest in order: the hidden ones inside say nothing
        slots = {i: votes[j] for j, i in enumerate(shown)}
        return _PondRead(shown[-1] + 1 if shown else 0, slots, whole, tuple(confs), seen)
    overlap = _end_overlap(belief, tiles)
    if overlap:  # the believed pond's last tiles, then new ones: its start hidden (an arm over it as a tile lands)
        start = len(belief) - overlap
        slots = {start + j: votes[j] for j in range(len(tiles))}
        return _PondRead(start + len(tiles), slots, whole, tuple(confs), seen)
    return _PondRead(len(tiles), votes, whole, tuple(confs), seen)  # read otherwise: slot by slot


def _end_overlap(belief: Sequence[object], tiles: Sequence[object]) -> int:
    """The most tiles (at least one, fewer than the belief holds) that end ``belief`` and begin ``tiles``, with more
    read after them; 0 when none do."""
    for k in range(min(len(belief) - 1, len(tiles) - 1), 0, -1):
        if list(belief[-k:]) == list(tiles[:k]):
            return k
    return 0


@dataclass
class _PondPlace:
    """One seat's pond: the believed slots and the last :data:`WINDOW` frames' reads of it."""

    slots: list[Slot]
    reads: deque[_PondRead] = field(default_factory=lambda: deque(maxlen=WINDOW))
    #: The longest pond lately believed that the believed one lies within (tiles since missing from it, for a call
    #: or for an arm): read again, it comes back as quickly as a move of the game.
    former: list[Slot] | None = None

    def fuse(self, read: Sequence[Slot], confs: Sequence[float], seen: bool = True) -> tuple[Slot, ...]:
        """One frame's read of the pond, its tiles' confidences (``seen`` False: no table read)."""
        self.reads.append(_laid_against(read, confs, self.slots, seen))
        before = list(self.slots)
        if self._restored() or self._grown() or self._shrunk() or self._read_otherwise() or self._steady():
            if self.former is None or not _inside(self.slots, self.former):
                self.former = before if _inside(self.slots, before) else None
            # the frames kept, laid again against the new belief (a slot's index may now name another place)
            kept = list(self.reads)[-RECENT:]
            self.reads.clear()
            self.reads.extend(_laid_against(r.whole[0], r.confs, self.slots, r.seen) for r in kept)  # type: ignore[arg-type]
        return tuple(self.slots)

    def last_tile_read(self) -> int:
        """How many of the frames kept read the pond as long as believed, its last tile as believed (0: none
        believed)."""
        size = len(self.slots)
        if not size:
            return 0
        last = self.slots[-1]
        return sum(
            1 for r in self.reads if r.seen and r.length == size and (v := r.slots.get(size - 1)) and v[0] == last
        )

    def _restored(self) -> bool:
        """The pond read again as :attr:`former`, for :data:`QUICK` of the last :data:`RECENT` frames (tiles long
        hidden, shown again: no tile read twice, no two discards at once)."""
        found = majority([r.whole if r.seen else None for r in list(self.reads)[-RECENT:]], QUICK)
        if found is NONE or self.former is None or list(found) != self.former:  # type: ignore[call-overload]
            return False
        self.slots = list(self.former)
        return True

    def _grown(self) -> bool:
        """Read one tile longer, that tile read alike, for :data:`QUICK` of the last :data:`RECENT` frames (a discard:
        one at a time; longer, as any other change)."""
        recent = list(self.reads)[-RECENT:]
        size = len(self.slots)
        found = majority([r.slots.get(size) if r.seen and r.length == size + 1 else None for r in recent], QUICK)
        if found is NONE:
            return False
        self.slots.append(found)  # type: ignore[arg-type]
        return True

    def _shrunk(self) -> bool:
        """Read one tile short for :data:`QUICK` of the last :data:`RECENT` frames (a call takes the last tile), or
        shorter for :data:`STEADY` of the last :data:`WINDOW`."""
        size = len(self.slots)
        recent = [r.length for r in list(self.reads)[-RECENT:] if r.seen]
        lengths = sorted(r.length for r in self.reads)
        to = size - 1 if sum(n == size - 1 for n in recent) >= QUICK else size
        if len(lengths) >= STEADY:
            to = min(to, lengths[STEADY - 1])  # STEADY frames read the pond this short or shorter
        if to >= size:
            return False
        del self.slots[to:]
        return True

    def _read_otherwise(self) -> bool:
        """Slots read as another tile for :data:`STEADY` of the last :data:`WINDOW` frames."""
        changed = False
        for i, slot in enumerate(self.slots):
            found = majority([r.slots.get(i) for r in self.reads], STEADY)
            if found is not NONE and found != slot:
                self.slots[i] = found  # type: ignore[assignment]
                changed = True
        return changed

    def _steady(self) -> bool:
        """The pond read alike, otherwise than believed, for :data:`STEADY` of the last :data:`WINDOW` frames (tiles
        missing inside it for good, which its slots alone never say)."""
        found = majority([r.whole for r in self.reads], STEADY)
        if found is NONE or list(found) == self.slots:  # type: ignore[call-overload]
            return False
        self.slots = list(found)  # type: ignore[call-overload]
        return True


def _inside(short: Sequence[Slot], long: Sequence[Slot]) -> bool:
    """Whether ``short`` is ``long`` with tiles missing (fewer, the rest in order)."""
    return len(short) < len(long) and _subsequence_at(short, long) is not None


def _slots(seat: SeatSnapshot) -> list[Slot]:
    return [Slot(t, i == seat.riichi) for i, t in enumerate(seat.pond)]


def _melds_moved(was: object, now: object) -> bool:
    """Whether the melds changed as the game changes them: a new meld, a pon grown to four, or a kan back to its pon
    (its fourth tile robbed by a ron, 搶槓) — not a meld gone."""
    return _melds_within(was, now) or (len(now) == len(was) and _melds_within(now, was))  # type: ignore[arg-type]


def _melds_within(was: object, now: object) -> bool:
    """Whether every meld of ``was`` lies within its own meld of ``now`` (its tiles among that one's)."""
    rest = list(now)  # type: ignore[call-overload]
    for meld in was:  # type: ignore[attr-defined]
        fit = next((m for m in rest if _within(meld.face_up, m.face_up)), None)
        if fit is None:
            return False
        rest.remove(fit)
    return True


def _as_believed(read: tuple[MeldSnapshot, ...], believed: object) -> tuple[MeldSnapshot, ...]:
    """The melds read, each with the tiles of a believed meld taken as that meld: a meld once laid keeps whence it
    came (its sideways tile read upright for a while is no other meld). Beside a new meld, the believed ones not
    read are taken as there (a meld is laid while another is not seen, not one for the other)."""
    rest = list(believed)  # type: ignore[call-overload]
    out, new = [], []
    for meld in read:
        same = next((m for m in rest if len(m.tiles) == len(meld.tiles) and sorted(m.face_up) == sorted(meld.face_up)),
                    None) or next((m for m in rest if one_meld_tile_otherwise(meld, m)), None)  # fmt: skip
        if same is not None:
            rest.remove(same)
        else:
            new.append(meld)
        out.append(meld if same is None else same)
    # a pon grown to four, or a kan back to three, is that meld changed: no meld beside it
    changed = any(_within(m.face_up, n.face_up) or _within(n.face_up, m.face_up) for m in rest for n in new)
    return tuple(out + rest) if new and not changed else tuple(out)


def one_meld_tile_otherwise(now: MeldSnapshot, believed: MeldSnapshot) -> bool:
    """Whether ``now`` is the ``believed`` meld with one tile read otherwise (its sideways tile wherever it is read):
    a misreading, for no move changes a tile of a meld (a call lays a new one, a kan adds a fourth)."""
    if len(now.tiles) != len(believed.tiles) or len(now.tiles) < 3:
        return False
    read, held = Counter(_kind(t) for t in now.tiles), Counter(_kind(t) for t in believed.tiles)
    return sum((read - held).values()) == 1


def _kind(tile: Tile | None) -> Tile | None:
    return tile.deaka() if tile is not None else None


def _within(small: Sequence[Tile], big: Sequence[Tile]) -> bool:
    return minus(big, small) is not None


def _more_indicators(was: object, now: object) -> bool:
    return len(now) > len(was) and _within(was, now)  # type: ignore[arg-type]


def _any(was: object, now: object) -> bool:
    return True


@dataclass
class TableFusion:
    """The table believed place by place over the last frames (the module's docstring says how).

    :meth:`fuse` each frame's observation (held frames too) and compare what it returns; :meth:`reset` to a table
    taken as true. Pure: no I/O, no clock; frames are counted by the calls to :meth:`fuse`.
    """

    _ponds: list[_PondPlace] = field(default_factory=list, repr=False)
    _melds: list[_Place] = field(default_factory=list, repr=False)
    _dora: _Place = field(default_factory=lambda: _Place((), _more_indicators), repr=False)
    _hands: list[_Place] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.reset(TableSnapshot())

    def reset(self, snapshot: TableSnapshot) -> None:
        """Believe ``snapshot`` (a table taken as true), every frame read so far forgotten."""
        self._ponds = [_PondPlace(_slots(s)) for s in snapshot.seats]
        self._melds = [_Place(s.melds, _melds_moved) for s in snapshot.seats]
        self._dora = _Place(snapshot.indicators, _more_indicators)
        self._hands = [_Place(h, _any) for h in snapshot.hands]

    def last_tile_read(self, side: FrameSide) -> int:
        """How many frames read ``side``'s pond as long as believed, ending in the believed last tile: of the frames
        kept there (at most :data:`WINDOW`: those since its belief last changed, and the :data:`RECENT` before).
        A tile landing at a pond's end is believed after :data:`QUICK` frames, as a move of the game; :data:`STEADY`
        frames say it is no misread either (the follower asks so of a discard no rule allows next)."""
        return self._ponds[side.turns].last_tile_read()

    def fuse(self, observation: TableObservation | None) -> TableSnapshot:
        """One frame's read (None: no table read: every place read empty, though no move is seen in it): the table as
        believed after it.

        >>> from vision.read.geometry import Box
        >>> from vision.read.labels import class_of_tile
        >>> from vision.read.table import SeatObservation
        >>> def read(text):
        ...     pond = tuple(Detection.of_class(class_of_tile(Tile.parse(t)), Box(30 * i, 0, 30 * i + 28, 38), 0.9)
        ...                  for i, t in enumerate(text.split()))
        ...     return TableObservation(tuple(SeatObservation(s, pond=pond if s is FrameSide.BOTTOM else ())
        ...                                   for s in FrameSide), (0.0, 0.0))
        >>> fusion = TableFusion()
        >>> frames = ["1z", "1z", "1z 9m", "1z 8m", "1z 9m", "1z 9m 9m", "1z 9m 2z", "1z 9m 2z"]  # 8m: 9m misread
        >>> [len(fusion.fuse(read(text)).seats[0].pond) for text in frames]
        [0, 1, 1, 1, 2, 2, 2, 3]
        >>> fusion.fuse(read("1z 9m 2z")).seats[0].pond
        (Tile.parse('1z'), Tile.parse('9m'), Tile.parse('2z'))
        """
        seen = observation is not None
        seats = [None] * 4 if observation is None else [observation.seat(s) for s in _SIDES]
        fused = []
        for i, seat in enumerate(seats):
            snapshot = SeatSnapshot() if seat is None else SeatSnapshot.of(seat)
            pond = self._ponds[i].fuse(_slots(snapshot), [] if seat is None else _face_up_confs(seat.pond), seen)
            shown = () if seat is None else [d for m in seat.melds for d in m.detections]
            melds = self._melds[i].fuse(_as_believed(snapshot.melds, self._melds[i].belief), _weight(shown), seen)
            riichi = max((k for k, s in enumerate(pond) if s.sideways), default=None)
            fused.append(SeatSnapshot(tuple(s.tile for s in pond), riichi, melds))  # type: ignore[arg-type]
        walls = () if observation is None else [d for s in observation.seats for d in s.wall if d.tile is not None]
        dora = self._dora.fuse(tuple(d.tile for d in walls), _weight(walls), seen)
        hands = []
        for place, seat in zip(self._hands, seats, strict=True):
            hand = None if seat is None else OpenHand.of(seat)
            hands.append(place.fuse(hand, 1.0 if seat is None else _weight(seat.hand), seen))
        return TableSnapshot(tuple(fused), dora, tuple(hands))  # type: ignore[arg-type]


def _face_up_confs(detections: Sequence[Detection]) -> list[float]:
    return [d.conf for d in detections if d.tile is not None]


__all__ = ["NONE", "QUICK", "RECENT", "STEADY", "WINDOW", "Slot", "TableFusion", "majority"]
