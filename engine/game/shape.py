"""Hand shapes on 34-count arrays: complete hands (和了形), waits (待ち) and tenpai (聴牌).

Only the shape is judged here (four sets and a pair, seven pairs, thirteen orphans); whether a
complete hand has a yaku is the scorer's business. Kept small and fast because the game engine
asks it after every event in its furiten warnings and its self-play tests.

>>> from engine.tiles import counts34, parse_tiles
>>> [str(Tile(k)) for k in waits(counts34(parse_tiles("1112345678999m")))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> is_complete(counts34(parse_tiles("11223344556677z")))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.melds import Meld
from engine.tiles import NUM_KINDS, Tile

#: Kinds of the 13 terminals and honours (么九牌).
YAOCHUU_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@lru_cache(maxsize=1 << 16)
def _suit_sets(counts: tuple[int, ...], honor: bool) -> tuple[bool, bool]:
    """Whether one suit's counts split into sets only, and into sets plus exactly one pair."""
    return _split(list(counts), honor, need_pair=False), _split(list(counts), honor, need_pair=True)


def _split(c: list[int], honor: bool, need_pair: bool) -> bool:
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return not need_pair
    if need_pair and c[i] >= 2:
        c[i] -= 2
        ok = _split(c, honor, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _split(c, honor, need_pair)
        c[i] += 3
        if ok:
            return True
    if not honor and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _split(c, honor, need_pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def is_standard_complete(counts: Sequence[int]) -> bool:
    """Sets and one pair (any number of sets: melds already on the table are not counted)."""
    if sum(counts) % 3 != 2:
        return False
    pair_suit = -1
    for s in range(4):
        part = tuple(counts[s * 9 : s * 9 + (7 if s == 3 else 9)])
        n = sum(part)
        if n % 3 == 1:
            return False
        sets_only, with_pair = _suit_sets(part, s == 3)
        if n % 3 == 2:
            if pair_suit >= 0 or not with_pair:
                return False
            pair_suit = s
        elif not sets_only:
            return False
    return pair_suit >= 0


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """七対子: seven different pairs."""
    return sum(counts) == 14 and sum(1 for n in counts if n == 2) == 7


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """国士無双: every terminal and honour, one of them twice."""
    return (
        sum(counts) == 14 and all(counts[k] >= 1 for k in YAOCHUU_KINDS) and sum(counts[k] for k in YAOCHUU_KINDS) == 14
    )


def is_complete(counts: Sequence[int]) -> bool:
    """A complete (winning-shape) set of concealed tiles, melds set aside."""
    return _complete(tuple(counts))


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...]) -> bool:
    if sum(counts) == 14:
        pairs = sum(1 for n in counts if n == 2)
        if pairs == 7 or (pairs == 1 and is_thirteen_orphans(counts)):
            return True
    return is_standard_complete(counts)


def waits(counts: Sequence[int], melded: Sequence[int] | None = None) -> tuple[int, ...]:
    """Kinds that would complete these concealed tiles (3n+1 of them), in kind order.

    ``melded``: the kind counts of the hand's melds. A kind whose four copies are all in the hand, concealed
    or in its melds, is not a wait (no fifth copy exists): 44p with pon:444p waits on no 4p.

    >>> from engine.tiles import counts34, parse_tiles
    >>> one = counts34(parse_tiles("4p"))
    >>> [str(Tile(k)) for k in waits(one)], waits(one, counts34(parse_tiles("444p")))
    (['4p'], ())
    """
    found = _waits(tuple(counts))
    if melded is None:
        return found
    return tuple(k for k in found if counts[k] + melded[k] < 4)


@lru_cache(maxsize=1 << 16)
def _waits(counts: tuple[int, ...]) -> tuple[int, ...]:
    if sum(counts) % 3 != 1:
        return ()
    # a wait is a kind held or a suit neighbour within two, or (thirteen orphans) any terminal or honour
    cand: set[int] = set()
    for k, n in enumerate(counts):
        if n:
            cand.add(k)
            if k < 27:
                cand.update(j for j in range(k - 2, k + 3) if j // 9 == k // 9 and 0 <= j < 27)
    if sum(counts) == 13 and sum(1 for k in YAOCHUU_KINDS if counts[k]) >= 12:
        cand.update(YAOCHUU_KINDS)  # a thirteen-orphans wait
    c = list(counts)
    out = []
    for k in sorted(cand):
        if c[k] >= 4:
            continue
        c[k] += 1
        if _complete(tuple(c)):
            out.append(k)
        c[k] -= 1
    return tuple(out)


def is_tenpai(counts: Sequence[int], melded: Sequence[int] | None = None) -> bool:
    """形式聴牌: some wait exists that is not made only of tiles the hand already holds all four of.

    A hand waiting only on its own fourth tile (純カラ, e.g. 1111m + 2m... waiting on 1m) is noten, and so is
    one whose fourth is in a meld (``melded``, as :func:`waits`). The one tenpai test of the engine: the draw's
    payments, riichi, the table's waits and ``engine.waits.find_waits`` all ask it.
    """
    return bool(waits(counts, melded))


def meld_counts(melds: Sequence[Meld]) -> list[int]:
    """The kind counts of the tiles in ``melds`` (for :func:`waits`' ``melded``)."""
    return kind_counts([t for m in melds for t in m.tiles])


def kind_counts(tiles: Sequence[Tile]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t.kind] += 1
    return c
