"""Rule presets: one frozen ``RuleSet`` passed to everything that depends on the rules.

Presets are data: ``wrc`` (WRC 2025 book, ``rules/000``), ``standard`` (the implementation spec,
``rules/001``, with its defaults) and ``tenhou`` (Tenhou ranked four-player rules, for conformance).
Any option can be overridden: ``preset("standard", kiriage=True)``.

>>> preset("wrc").red_fives
(0, 0, 0)
>>> preset("standard", open_riichi=True).open_riichi
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from engine.errors import EngineError


class Renhou(StrEnum):
    """人和: a non-dealer's ron before their first draw, with no call made."""

    NONE = "none"  # not a yaku (Tenhou)
    MANGAN = "mangan"  # a flat mangan, not cumulative with other yaku (WRC)
    YAKUMAN = "yakuman"
    HAN5 = "han5"  # a 5-han yaku that adds to the others (the mahjong package's default)


class MultipleRon(StrEnum):
    """What happens when several players ron the same discard."""

    HEAD_BUMP = "head_bump"  # 頭ハネ: only the first in turn after the discarder wins (WRC)
    DOUBLE = "double"  # double ron pays both; triple ron is an abortive draw (standard, Tenhou)
    ALL = "all"  # every claimant wins, triple ron included


class KazoeLimit(StrEnum):
    """What 13 or more han without a yakuman pattern is worth."""

    YAKUMAN = "yakuman"  # 数え役満
    SANBAIMAN = "sanbaiman"


class GameLength(StrEnum):
    EAST = "east"  # 東風戦
    HANCHAN = "hanchan"  # 半荘戦: East and South


@dataclass(frozen=True)
class RuleSet:
    """Every rule option the engine knows. Values in points, not in 100s."""

    name: str
    start_points: int = 25_000
    #: 返し: the return points oka is counted against; oka = (return - start) * 4, to first place.
    return_points: int = 30_000
    #: Placement bonuses in points, 1st..4th; they sum to zero.
    uma: tuple[int, int, int, int] = (15_000, 5_000, -5_000, -15_000)
    #: How many red 5m, 5p, 5s are in the set (赤ドラ).
    red_fives: tuple[int, int, int] = (1, 2, 1)
    open_tanyao: bool = True  # 喰いタン
    kiriage: bool = False  # 切り上げ満貫: 4h30f and 3h60f are mangan
    double_yakuman: bool = True  # suuankou tanki, kokushi 13-wait, junsei chuuren, daisuushii count double
    kazoe: KazoeLimit = KazoeLimit.YAKUMAN
    renhou: Renhou = Renhou.MANGAN
    nagashi_mangan: bool = True  # 流し満貫
    open_riichi: bool = False  # オープン立直: +2 han; dealing into it pays as yakuman
    multiple_ron: MultipleRon = MultipleRon.DOUBLE
    abortive_draws: bool = True  # kyuushu kyuuhai, suufon renda, suukaikan, sanchahou, suucha riichi
    #: Points a player needs to declare riichi (the deposit); None: no floor, riichi even below 0 points.
    riichi_min_points: int | None = 1_000
    #: Live-wall tiles that must remain for riichi to be declared.
    riichi_min_tiles_left: int = 4
    riichi_deposit: int = 1_000
    honba_ron: int = 300  # per honba, paid by the discarder
    honba_tsumo: int = 100  # per honba, by each payer
    noten_total: int = 3_000  # 不聴罰符, split among the tenpai players
    game_length: GameLength = GameLength.HANCHAN
    #: A player below zero ends the game (飛び).
    busting: bool = True
    #: アガリ止め / 聴牌止め: after winning or being tenpai in the last hand while first (with at least the
    #: return points), the dealer may end the game or play on, the dealer's choice (``DealerStops``).
    #: 000 and 001 do not tell the two apart, so one option covers both.
    agari_yame: bool = True
    #: Extension (西入): play on past the last hand while nobody has reached return_points.
    extension: bool = False
    #: Four quads (suukantsu) carries liability (包) too (WRC); big dragons and big winds always do
    #: (``pao_yakuman``).
    pao_suukantsu: bool = False
    #: Fu for a pair of the seat and round wind at once: 4 (Tenhou) or 2.
    double_wind_pair_fu: int = 4
    #: Who gets leftover riichi sticks at the end: the first-place player, or nobody.
    leftover_sticks_to_first: bool = True
    #: A closed kan may be robbed for kokushi musou (国士無双の暗槓槍槓).
    kokushi_chankan_on_ankan: bool = False
    #: Final game points rounded to whole thousands, half away from zero (001, Tenhou); first place
    #: takes the remainder so they sum to zero. Off: exact (WRC).
    round_final_points: bool = True
    #: The unit, in points, scores are rounded to when ``round_final_points``: 1,000 for whole game points
    #: (001, Tenhou's ranked lobbies), 100 for game points to 0.1 as some Tenhou lobbies give them
    #: (53,800 -> 63.8 with oka and uma 20).
    final_points_step: int = 1_000
    #: Tied players share their placements' uma equally (WRC: "split on ties"); otherwise the seat
    #: nearer the first dealer ranks higher (Tenhou).
    split_tied_uma: bool = False
    #: 喰い替え allowed: discarding, right after a chi or pon, the called tile's kind or the chi's other
    #: end (Tenhou allows it; 000 and 001 forbid it).
    kuikae_allowed: bool = False
    #: 不聴流局の積み棒: an exhaustive draw with the dealer noten passes the deal and still adds a honba
    #: (Tenhou). Off: the honba reset to 0 as the deal passes, nagashi mangan or not (000 "Dealer
    #: repeat": "if East is noten, the deal rotates like a loss and all honba reset"; 001 "Renchan": "the
    #: deal passes to the next player ... The honba counter resets to 0"). A dealer tenpai at the draw
    #: repeats with one more honba either way.
    noten_draw_adds_honba: bool = False
    #: 包 with several yakuman in the hand: the liable player pays the whole hand, every yakuman and the
    #: honba, on a tsumo, and half of the whole on a ron (Tenhou). Off: only the yakuman the liable player
    #: fed (000 "Liability": "the liable player settles that yakuman in full on a self-draw, or splits it
    #: with the discarder on ron"); the rest is paid as usual.
    pao_whole_hand: bool = False
    #: The honba of a win with a liable player (包) are paid by the liable player (Tenhou: "honba payments
    #: paid by the player to whom pao is applied"). Off: as on any win, by the discarder alone on a ron and
    #: 100 by each player on a tsumo (000 §09 "Honba": "+100 from each player on tsumo, +300 from the
    #: discarder alone on ron"; its "Liability" moves the yakuman only).
    pao_pays_honba: bool = True

    def __post_init__(self) -> None:
        if self.final_points_step <= 0:  # it divides the final scores
            raise EngineError(f"final_points_step is a positive number of points, not {self.final_points_step}")
        if len(self.red_fives) != 3 or not all(0 <= n <= 4 for n in self.red_fives):  # a set has four of each five
            raise EngineError(f"red_fives is how many red 5m, 5p, 5s (0..4 each), not {list(self.red_fives)}")

    def with_options(self, **overrides: Any) -> RuleSet:
        """A copy with some options changed; unknown names are an error."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise EngineError(f"unknown rule option(s): {', '.join(unknown)}")
        return replace(self, **overrides)

    @property
    def has_red_fives(self) -> bool:
        return any(self.red_fives)

    @property
    def oka(self) -> int:
        """オカ: the bonus to first place."""
        return (self.return_points - self.start_points) * 4


PRESETS: dict[str, RuleSet] = {
    # 001 with its defaults. Its yaku list has no renhou; South 4 goes on while the dealer repeats
    # ("extra rounds may continue until the dealer fails to continue"), so no agari-yame and no West round;
    # chankan only on an added kan.
    "standard": RuleSet(name="standard", renhou=Renhou.NONE, agari_yame=False),
    # 000 (WRC 2025): 30,000 start and break-even, no oka, uma 15/5; no red fives; kiriage; no double
    # yakuman; renhou a flat mangan, not cumulative; 13+ han counted yakuman; double-wind pair 4 fu;
    # head-bump; no aborts, no nagashi, no busting, no agari-yame; pao also for four quads; riichi
    # allowed below 1,000 points and on the last tile; a closed kan can never be robbed.
    "wrc": RuleSet(
        name="wrc",
        start_points=30_000,
        return_points=30_000,
        uma=(15_000, 5_000, -5_000, -15_000),
        red_fives=(0, 0, 0),
        kiriage=True,
        double_yakuman=False,
        kazoe=KazoeLimit.YAKUMAN,
        renhou=Renhou.MANGAN,
        nagashi_mangan=False,
        multiple_ron=MultipleRon.HEAD_BUMP,
        abortive_draws=False,
        # 000 §06 "Declaring riichi", WRC exceptions: "Declaring is still allowed below 1,000 points"; with
        # no busting a score may be below 0, and the book sets no floor there either
        riichi_min_points=None,
        riichi_min_tiles_left=0,
        busting=False,
        agari_yame=False,
        extension=False,
        pao_suukantsu=True,
        double_wind_pair_fu=4,
        kokushi_chankan_on_ankan=False,
        round_final_points=False,
        split_tied_uma=True,
        # 000 §09 "Honba": "+300 from the discarder alone on ron", "+100 from each player on tsumo"; §09
        # "Liability" makes the liable player settle the yakuman, not the counters
        pao_pays_honba=False,
    ),
    # Tenhou ranked four-player: one red five per suit (lobby bits may turn them off), kuitan, no kiriage
    # (two special lobbies play it), single yakuman only, no renhou, double ron, West round extension,
    # uma 10-20, kokushi may rob a closed kan.
    "tenhou": RuleSet(
        name="tenhou",
        red_fives=(1, 1, 1),
        double_yakuman=False,
        renhou=Renhou.NONE,
        extension=True,
        uma=(20_000, 10_000, -10_000, -20_000),
        kokushi_chankan_on_ankan=True,
        kuikae_allowed=True,
        noten_draw_adds_honba=True,
        pao_whole_hand=True,
    ),
}


#: How a person reads a preset's name where it differs from the name (:func:`preset_title`).
PRESET_TITLES: dict[str, str] = {"wrc": "WRC", "tenhou": "Tenhou"}


def preset_title(name: str) -> str:
    """A preset's name as a person reads it (the settle page's choice).

    >>> [preset_title(name) for name in PRESETS]
    ['standard', 'WRC', 'Tenhou']
    """
    return PRESET_TITLES.get(name, name)


#: Yakuman a single player can be liable for (包, pao) under some rules, by the scorer's English names.
PAO_YAKUMAN = {"Daisangen": "big dragons", "Dai Suushii": "big winds", "Suu Kantsu": "four kans"}


def pao_yakuman(rules: RuleSet) -> tuple[str, ...]:
    """The yakuman that carry liability (包, pao) under ``rules``, by the scorer's English names.

    >>> pao_yakuman(preset("standard"))
    ('Daisangen', 'Dai Suushii')
    >>> pao_yakuman(preset("wrc"))
    ('Daisangen', 'Dai Suushii', 'Suu Kantsu')
    """
    return tuple(name for name in PAO_YAKUMAN if name != "Suu Kantsu" or rules.pao_suukantsu)


def option_value(base: RuleSet, key: str, value: Any) -> Any:
    """``value`` (as JSON gives it: enums by value, tuples as lists) checked against option ``key`` of ``base``.

    Raises EngineError naming the option. Shared by the site's ``rules`` object and ``jantaku score --rule``.

    >>> option_value(preset("standard"), "renhou", "yakuman")
    <Renhou.YAKUMAN: 'yakuman'>
    >>> option_value(preset("standard"), "red_fives", [0, 0, 0])
    (0, 0, 0)
    """
    if not isinstance(key, str) or key == "name" or key not in {f.name for f in fields(base)}:
        raise EngineError(f"unknown rule option {key!r}")
    cur = getattr(base, key)
    if value is None and _optional(base, key):
        return None
    if cur is None:  # an optional number that is unset in this preset
        cur = 0
    if isinstance(cur, Enum):
        try:
            return type(cur)(value)
        except ValueError:
            known = ", ".join(str(m.value) for m in type(cur))
            raise EngineError(f"rule option {key} is one of {known}, not {value!r}") from None
    if isinstance(cur, bool):
        if not isinstance(value, bool):
            raise EngineError(f"rule option {key} is true or false, not {value!r}")
        return value
    if isinstance(cur, int):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**7:
            raise EngineError(f"rule option {key} is a whole number, not {value!r}")
        return value
    if isinstance(cur, tuple):
        if (
            not isinstance(value, list)
            or len(value) != len(cur)
            or not all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= 10**7 for x in value)
        ):
            raise EngineError(f"rule option {key} is a list of {len(cur)} whole numbers, not {value!r}")
        return tuple(value)
    raise EngineError(f"rule option {key} cannot be set here")


def _optional(base: RuleSet, key: str) -> bool:
    """Whether option ``key`` may be None (its annotation says ``| None``)."""
    return any(f.name == key and "None" in str(f.type) for f in fields(base))


def preset(name: str, **overrides: Any) -> RuleSet:
    """A named preset, optionally with options overridden."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise EngineError(f"unknown rule preset {name!r}; choose one of {', '.join(sorted(PRESETS))}") from None
    return base.with_options(**overrides) if overrides else base
