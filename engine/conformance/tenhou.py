"""Tenhou formats, decoded: 136-ids, meld codes (``m``) and yaku ids. Pure functions, no I/O.

A 136-id is ``kind * 4 + copy``. With red fives on, ids 16, 52 and 88 (copy 0 of 5m, 5p, 5s) are
the red fives; with red fives off they are plain fives.

>>> tile_from_136(16, red=True), tile_from_136(16, red=False), tile_from_136(17, red=True)
(Tile.parse('0m'), Tile.parse('5m'), Tile.parse('5m'))
>>> decode_meld(47625, who=3).notation()    # a pon of White called from the right
'pon:5z55z/R'
>>> decode_meld(20073, who=2).notation()    # a pon of 5p, the red one called, from the right
'pon:0p55p/R'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError, InvalidNotation
from engine.melds import Meld, MeldKind, Relative
from engine.tiles import FIVE_KINDS, Tile
from engine.yaku_names import YAKU

#: The 136-ids of the red 5m, 5p and 5s when red fives are played.
RED_IDS = frozenset(k * 4 for k in FIVE_KINDS)


def tile_from_136(tile_id: int, red: bool) -> Tile:
    """The tile with this 136-id; ``red`` says whether the game plays red fives."""
    if not 0 <= tile_id < 136:
        raise InvalidNotation(f"a 136-id is 0..135, not {tile_id}")
    return Tile(tile_id // 4, red=red and tile_id in RED_IDS)


def tiles_from_136(ids: str | list[int] | tuple[int, ...], red: bool) -> tuple[Tile, ...]:
    """Tiles from a list of 136-ids, or a comma-separated string of them as in Tenhou logs."""
    if isinstance(ids, str):
        ids = [int(x) for x in ids.split(",") if x.strip()]
    return tuple(tile_from_136(i, red) for i in ids)


@dataclass(frozen=True)
class DecodedMeld:
    """A Tenhou meld code decoded: our ``Meld`` plus the raw 136-ids (for the ``mahjong`` package)."""

    meld: Meld
    ids: tuple[int, ...]  # every tile of the meld, all four of a kan
    called_id: int | None  # the called tile's id (for kakan: the tile of the original pon that was called)
    added_id: int | None = None  # kakan only: the tile added to the pon


def decode_meld_ids(code: int, red: bool = True) -> DecodedMeld:
    """Decode a Tenhou meld code (the numbers in an ``m`` attribute).

    The low two bits say where the called tile came from, relative to the caller
    (0 self, 1 right, 2 across, 3 left), which is exactly ``Relative``.
    """
    rel = Relative(code & 3)
    if code & 0x4:  # chi
        pattern = code >> 10
        called_pos = pattern % 3
        base = pattern // 3
        base = (base // 7) * 9 + base % 7
        ids = tuple(4 * (base + i) + ((code >> (3 + 2 * i)) & 3) for i in range(3))
        called = ids[called_pos]
        tiles = tuple(tile_from_136(i, red) for i in ids)
        return DecodedMeld(Meld(MeldKind.CHI, tiles, tile_from_136(called, red), Relative.LEFT), ids, called)
    if code & 0x18:  # pon (0x8) or added kan (0x10)
        unused = (code >> 5) & 3
        pattern = code >> 9
        called_pos = pattern % 3
        kind = pattern // 3
        pon_ids = tuple(4 * kind + c for c in range(4) if c != unused)
        called = pon_ids[called_pos]
        if code & 0x8:
            tiles = tuple(tile_from_136(i, red) for i in pon_ids)
            return DecodedMeld(Meld(MeldKind.PON, tiles, tile_from_136(called, red), rel), pon_ids, called)
        added = 4 * kind + unused
        ids = (*pon_ids, added)
        tiles = tuple(tile_from_136(i, red) for i in ids)
        return DecodedMeld(Meld(MeldKind.KAKAN, tiles, tile_from_136(called, red), rel), ids, called, added)
    if code & 0x20:
        raise InvalidNotation(f"meld code {code} is a north-wind extraction (nukidora), a three-player meld")
    # a kan from the hand (ankan, rel 0) or on a discard (daiminkan)
    tile_id = code >> 8
    kind = tile_id // 4
    ids = tuple(4 * kind + c for c in range(4))
    tiles = tuple(tile_from_136(i, red) for i in ids)
    if rel is Relative.SELF:
        return DecodedMeld(Meld(MeldKind.ANKAN, tiles, None, Relative.SELF), ids, None)
    return DecodedMeld(Meld(MeldKind.KAN, tiles, tile_from_136(tile_id, red), rel), ids, tile_id)


def decode_meld(code: int, who: int = 0, red: bool = True) -> Meld:
    """Decode a Tenhou meld code into our ``Meld``. ``who`` (the caller's seat) is only for
    ``meld_source_seat``; the meld itself records the source relative to the caller."""
    del who
    return decode_meld_ids(code, red).meld


def meld_source_seat(code: int, who: int) -> int:
    """The absolute seat (0..3) the called tile came from; ``who`` itself for a closed kan."""
    return (who + (code & 3)) % 4


#: Tenhou's ``ten`` limit field: 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman.
LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")


def parse_yaku(yaku: str | None, yakuman: str | None) -> dict[int, int]:
    """Tenhou's ``yaku`` (``id,han,...``) or ``yakuman`` (``id,...``) attribute as ``{id: han}``.

    Zero-han entries (ura dora that missed) are dropped; a yakuman gets 13 han.

    >>> parse_yaku("1,1,0,1,52,1,53,0", None)
    {1: 1, 0: 1, 52: 1}
    >>> parse_yaku(None, "39")
    {39: 13}
    """
    out: dict[int, int] = {}
    if yaku:
        nums = [int(x) for x in yaku.split(",")]
        for i in range(0, len(nums) - 1, 2):
            if nums[i + 1]:
                out[nums[i]] = nums[i + 1]
    if yakuman:
        for x in yakuman.split(","):
            if x.strip():
                out[int(x)] = 13
    return out


# --- win records (``<AGARI>`` tags with the round's context), as in ../shared/data/tenhou/wins.jsonl.gz -----------

#: Tenhou yaku ids that are situations, not patterns in the tiles: they come from the record.
_SITUATION_FLAGS = {
    1: "riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    21: "double_riichi",
    36: "renhou",
    37: "tenhou",
    38: "chiihou",
}
#: Lobbies that play kiriage mangan.
KIRIAGE_GO_TYPES = frozenset({553, 1569})


@dataclass(frozen=True)
class WinRecord:
    """A Tenhou win decoded into our inputs, with what the server recorded."""

    hand: Any  # engine.hand.Hand
    ctx: Any  # engine.scoring.WinContext
    rules: Any  # engine.rules.RuleSet
    yaku: dict[int, int]  # recorded {tenhou yaku id: han}
    fu: int
    points: int  # without honba and sticks; a tsumo's payments summed
    limit: int  # 0 none .. 5 yakuman
    decoded_melds: tuple[DecodedMeld, ...] = ()

    @property
    def han(self) -> int:
        return sum(self.yaku.values())


def is_three_player(record: dict[str, Any]) -> bool:
    return bool(int(record.get("go_type", 0)) & 0x10)


def rules_for_go_type(go_type: int) -> Any:
    """The ``tenhou`` preset adjusted by the lobby's bits: 0x02 no red fives, 0x04 no open tanyao."""
    from engine.rules import preset

    overrides: dict[str, Any] = {}
    if go_type & 0x02:
        overrides["red_fives"] = (0, 0, 0)
    if go_type & 0x04:
        overrides["open_tanyao"] = False
    if go_type in KIRIAGE_GO_TYPES:
        overrides["kiriage"] = True
    return preset("tenhou", **overrides)


def decode_win(record: dict[str, Any]) -> WinRecord:
    """Decode one four-player win record into ``Hand``, ``WinContext`` and ``RuleSet``.

    Situational flags (riichi, ippatsu, haitei, ...) are taken from the record's own yaku list.
    """
    from engine.hand import Hand
    from engine.scoring import WinContext
    from engine.tiles import Wind

    if is_three_player(record):
        raise InvalidNotation("three-player (sanma) record")
    go_type = int(record["go_type"])
    rules = rules_for_go_type(go_type)
    red = rules.has_red_fives
    who, from_who, oya = int(record["who"]), int(record["fromWho"]), int(record["oya"])
    concealed = tiles_from_136(record["hai"], red)
    decoded = tuple(decode_meld_ids(int(c), red) for c in record.get("m", "").split(",") if c.strip())
    yaku = parse_yaku(record.get("yaku"), record.get("yakuman"))
    flags = {name: True for tid, name in _SITUATION_FLAGS.items() if tid in yaku}
    if flags.get("double_riichi"):
        flags.pop("riichi", None)
    honba, sticks = (int(x) for x in record.get("ba", "0,0").split(","))
    tsumo = who == from_who
    ctx = WinContext(
        win_tile=tile_from_136(int(record["machi"]), red),
        tsumo=tsumo,
        seat_wind=Wind((who - oya) % 4),
        round_wind=Wind(int(record.get("round", 0)) // 4 % 4),
        dora_indicators=tiles_from_136(record.get("doraHai", ""), red),
        ura_indicators=tiles_from_136(record.get("doraHaiUra", ""), red),
        honba=honba,
        sticks=sticks,
        discarder=None if tsumo else Wind((from_who - oya) % 4),
        **flags,
    )
    fu, points, limit = (int(x) for x in record["ten"].split(","))
    hand = Hand(concealed, tuple(d.meld for d in decoded))
    return WinRecord(hand, ctx, rules, yaku, fu, points, limit, decoded)


#: Tenhou yaku id of each name in ``YAKU`` and ``EXTRA_YAKU`` (to compare our results with a record).
YAKU_ID_BY_NAME: dict[str, int] = {name.en: i for i, name in YAKU.items()}


@dataclass(frozen=True)
class WinCheck:
    """Our score of a recorded win beside the server's: ``agrees`` when han, fu, points and yaku match."""

    record: dict[str, Any]
    ours: dict[str, Any]
    theirs: dict[str, Any]
    differences: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return not self.differences


def check_win(record: dict[str, Any]) -> WinCheck:
    """Rescore a four-player win record with the ``tenhou`` preset and compare with the server's result."""
    from engine.scoring import score_hand

    win = decode_win(record)
    theirs = {
        "han": win.han,
        "fu": win.fu,
        "points": win.points,
        "limit": LIMIT_NAMES[win.limit],
        "yaku": {YAKU[i].en: h for i, h in sorted(win.yaku.items())},
    }
    try:
        res = score_hand(win.hand, win.ctx, win.rules)
    except EngineError as exc:
        return WinCheck(record, {"error": str(exc)}, theirs, (f"error: {exc}",))
    if not res.is_win:
        return WinCheck(record, {"error": res.reason}, theirs, (f"not a win: {res.reason}",))
    ours_yaku = {y.name: y.han for y in res.yaku}
    ours = {"han": res.han, "fu": res.fu, "points": res.points, "limit": res.limit_name, "yaku": ours_yaku}
    diffs = []
    for key in ("han", "fu", "points"):
        if ours[key] != theirs[key]:
            diffs.append(f"{key} {ours[key]} != {theirs[key]}")
    # Tenhou writes a kiriage mangan with limit 0 (its points are the mangan's): compare it as such
    limit = "yakuman" if res.limit_name.endswith("yakuman") else "" if res.kiriage else res.limit_name
    if limit != theirs["limit"]:
        diffs.append(f"limit {res.limit_name or '-'} != {theirs['limit'] or '-'}")
    if ours_yaku != theirs["yaku"]:
        diffs.append(f"yaku {ours_yaku} != {theirs['yaku']}")
    return WinCheck(record, ours, theirs, tuple(diffs))
