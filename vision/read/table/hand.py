"""A seat's outermost row when it is a hand: split into the concealed part, the drawn tile and the open melds
(:func:`_split_hand`); a run of meld tiles cut into melds (:func:`_split_melds`, scored by :func:`_meld_score`); a
meld made a :class:`~vision.read.table.observation.MeldObservation` (:func:`_meld`).
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.read.detector import Detection
from vision.read.table.frame import _gaps, _sideways, _Span
from vision.read.table.kinds import MELD_GAP, _closed_kan
from vision.read.table.observation import FrameSide, MeldObservation

#: A gap of this many tile widths along a row splits the concealed hand from the melds (or a meld from the next).
HAND_GAP = 0.6
#: The gap (tile widths) that sets the drawn tile apart at the hand's right end: players leave a small one, and the
#: tiles of a hand touch (their boxes overlap or part by a few pixels).
DRAWN_GAP = 0.2
#: The fewest tiles of a meld (chi, pon; a kan has four).
MELD_MIN = 3


def _split_hand(
    row: list[_Span], dets: Sequence[Detection]
) -> tuple[list[_Span], _Span | None, list[list[_Span]], list[_Span]]:
    """The concealed part, the drawn tile, the melds and the tiles that fit none of them, of the outermost row
    (melds lie at its right end; the drawn tile is set apart between the concealed part and the melds)."""
    side = _sideways(row)
    gaps = _gaps(row)
    start = _melds_start(row, gaps, side, dets)
    hand, region = row[:start], row[start:]
    drawn = None
    if len(hand) >= 2 and gaps[len(hand) - 1] > DRAWN_GAP and not dets[hand[-1].index].is_back:
        hand, drawn = hand[:-1], hand[-1]
    melds: list[list[_Span]] = []
    leftover: list[_Span] = []
    for k, piece in enumerate(_split_melds(region, gaps[start:], side[start:], dets)):
        if len(piece) >= MELD_MIN:
            melds.append(piece)
            continue
        # too few for a meld: set apart right after the hand, one face-up tile (a face-down one beside it is a
        # neighbour's wall end or a misread) is the drawn tile; the rest fit nowhere
        up = [s for s in piece if not dets[s.index].is_back]
        if k == 0 and drawn is None and hand and gaps[start] > DRAWN_GAP and len(up) == 1 and len(piece) <= 2:
            drawn = up[0]
            leftover += [s for s in piece if s is not drawn]
        else:
            leftover += piece
    return hand, drawn, melds, leftover


def _melds_start(row: list[_Span], gaps: list[float], side: list[bool], dets: Sequence[Detection]) -> int:
    """Where the melds start in a hand's row (its length: none): the segments at its right that look like melds
    (apart by :data:`HAND_GAP`), a meld laid against the hand, and closed kans laid last next to the hand."""
    # segments split by gaps wide enough to set a hand apart from its melds
    cuts = [0] + [j for j in range(1, len(row)) if gaps[j] > HAND_GAP] + [len(row)]
    segments = [(cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1)]
    start = len(row)
    for a, b in reversed(segments[1:]):  # from the right, while segments look like melds
        if b - a >= 3 or any(side[a:b]):
            start = a
        else:
            break
    sideways_in_hand = [j for j in range(start) if side[j]]
    if sideways_in_hand:  # a meld laid against the hand: it starts at most three tiles before its called tile
        first = sideways_in_hand[0]

        def fit(j: int) -> tuple[int, float]:
            pieces = _split_melds(row[j:], gaps[j:], side[j:], dets)
            return sum(_meld_score(p, side[j + i : j + i + len(p)], dets) for i, p in _offsets(pieces)), gaps[j]

        start = max(range(max(0, first - 3), first + 1), key=fit)
    # closed kans laid last lie next to the hand (beside a standing hand, whose tiles show no boxes, they start the
    # row): no concealed part shows face down at both ends with two alike between
    while start >= 4 and _closed_kan(row[start - 4 : start], dets) and (start == 4 or gaps[start - 4] > MELD_GAP):
        start -= 4
    return start


def _split_melds(
    region: list[_Span], gaps: list[float], side: list[bool], dets: Sequence[Detection]
) -> list[list[_Span]]:
    """Melds from a run of meld tiles: split at visible gaps; a run too long for one meld (laid without a gap) is
    cut into threes and fours so that each piece looks most like one meld (see :func:`_meld_score`), the wider
    gaps breaking ties."""
    if not region:
        return []
    cuts = [0] + [j for j in range(1, len(region)) if gaps[j] > MELD_GAP] + [len(region)]
    melds: list[list[_Span]] = []
    for k in range(len(cuts) - 1):
        a, b = cuts[k], cuts[k + 1]
        if b - a <= 4:
            melds.append(region[a:b])
            continue
        best = max(
            _compositions(b - a),
            key=lambda sizes: (
                sum(_meld_score(region[i:j], side[i:j], dets) for i, j in _pieces(a, sizes)),
                sum(gaps[i] for i, _j in _pieces(a, sizes)[1:]),
            ),
        )
        melds += [region[i:j] for i, j in _pieces(a, best)]
    return melds


def _offsets(pieces: list[list[_Span]]) -> list[tuple[int, list[_Span]]]:
    out, i = [], 0
    for p in pieces:
        out.append((i, p))
        i += len(p)
    return out


def _compositions(n: int) -> list[tuple[int, ...]]:
    """Ways to lay ``n`` tiles as melds of three and four (with a short piece at the left when none fits)."""
    if n <= 4:
        return [(n,)]
    out = [(*rest, size) for size in (3, 4) if n - size >= 3 for rest in _compositions(n - size)]
    return out or [(n - 3, 3)]


def _pieces(start: int, sizes: tuple[int, ...]) -> list[tuple[int, int]]:
    out, i = [], start
    for size in sizes:
        out.append((i, i + size))
        i += size
    return out


def _meld_score(piece: list[_Span], side: list[bool], dets: Sequence[Detection]) -> int:
    """How much a run of tiles looks like one meld: one tile sideways (or a closed kan's face-down ends), and
    tiles of one kind (pon, kan) or a run of one suit (chi)."""
    n_side = sum(side)
    backs = [dets[s.index].is_back for s in piece]
    closed_kan = len(piece) == 4 and n_side == 0 and backs[0] and backs[-1] and not any(backs[1:-1])
    score = 2 if n_side == 1 or closed_kan else -2
    if len(piece) < 3:
        score -= 3
    kinds = sorted(t.deaka().kind for s in piece if (t := dets[s.index].tile) is not None)
    if len(kinds) >= 2 and (
        len(set(kinds)) == 1
        or (
            len(kinds) == 3
            and kinds[0] < 27
            and kinds[2] // 9 == kinds[0] // 9
            and kinds == list(range(kinds[0], kinds[0] + 3))
        )
    ):
        score += 1
    return score


def _meld(row: list[_Span], stacked: dict[int, _Span], dets: Sequence[Detection], side: FrameSide) -> MeldObservation:
    """A meld from its row, with an added kan's fourth tile (in ``stacked``, by its called tile) read in beside the
    called tile (see :class:`MeldObservation`)."""
    flags = _sideways(row)
    called = flags.index(True) if any(flags) else None
    if called is None or row[called].index not in stacked:
        return MeldObservation(tuple(dets[s.index] for s in row), called, side)
    added = called if called == len(row) - 1 else called + 1
    row = [*row[:added], stacked[row[called].index], *row[added:]]
    called += called == added
    return MeldObservation(tuple(dets[s.index] for s in row), called, side, added)
