"""Rule presets against the two rule documents (000 = wrc, 001 = standard) and Tenhou."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.rules import GameLength, KazoeLimit, MultipleRon, Renhou, pao_yakuman, preset

# option, wrc (000), standard (001 with its defaults), tenhou -- with where the document says so
TABLE = [
    ("start_points", 30_000, 25_000, 25_000),  # 000 "Running bank"; 001 "Each player starts with 25,000"
    ("return_points", 30_000, 30_000, 30_000),  # 000 "break-even point is 30,000"; 001 oka base 30,000
    ("oka", 0, 20_000, 20_000),  # 000 "with no oka"; 001 "5,000 x 4 = 20,000 goes to the 1st-place player"
    ("uma", (15_000, 5_000, -5_000, -15_000), (15_000, 5_000, -5_000, -15_000), (20_000, 10_000, -10_000, -20_000)),
    ("red_fives", (0, 0, 0), (1, 2, 1), (1, 1, 1)),  # 000 "WRC leaves these out"; 001 "one 5m, two 5p, one 5s"
    ("open_tanyao", True, True, True),  # 001 openTanyao default on
    ("kiriage", True, False, False),  # 000 "WRC kiriage"; 001 roundUpMangan default off
    ("double_yakuman", False, True, False),  # 000 "no double yakuman"; 001 doubleYakuman default on
    ("kazoe", KazoeLimit.YAKUMAN, KazoeLimit.YAKUMAN, KazoeLimit.YAKUMAN),  # 000 "13+ han counted yakuman"
    ("renhou", Renhou.MANGAN, Renhou.NONE, Renhou.NONE),  # 000 "Worth mangan ... not cumulative"; 001 has none
    ("nagashi_mangan", False, True, True),  # 000 "No nagashi mangan"; 001 nagashiMangan default on
    ("open_riichi", False, False, False),  # 001 openRiichi default off
    ("multiple_ron", MultipleRon.HEAD_BUMP, MultipleRon.DOUBLE, MultipleRon.DOUBLE),  # 000 head-bump
    ("abortive_draws", False, True, True),  # 000 "Aborts: None under WRC"
    # 000 §06 "still allowed below 1,000 points", no floor; 001 "at least 1,000"
    ("riichi_min_points", None, 1_000, 1_000),
    ("riichi_min_tiles_left", 0, 4, 4),  # 000 "on the wall's very last tile"; 001 "At least 4 tiles"
    ("busting", False, True, True),  # 000 "No bankruptcy"; 001 "drops below 0 points"
    ("agari_yame", False, False, True),  # 000 "No agari-yame"; 001 South 4 goes on while the dealer repeats
    ("extension", False, False, True),  # 000 "no West or North round"; Tenhou plays West
    ("game_length", GameLength.HANCHAN, GameLength.HANCHAN, GameLength.HANCHAN),
    ("pao_suukantsu", True, False, False),  # 000 liability for Four Quads too
    ("double_wind_pair_fu", 4, 4, 4),  # 000 "+4 if it's a double wind"; 001 "Double wind ... 4"
    ("honba_ron", 300, 300, 300),
    ("honba_tsumo", 100, 100, 100),
    ("noten_total", 3_000, 3_000, 3_000),
    ("kokushi_chankan_on_ankan", False, False, True),  # 000 "A concealed kan can never be robbed"
    # 000 "if East is noten, the deal rotates like a loss and all honba reset"; 001 "The honba counter resets to 0"
    ("noten_draw_adds_honba", False, False, True),
    ("pao_whole_hand", False, False, True),  # 000 "the liable player settles that yakuman in full"
    ("pao_pays_honba", False, True, True),  # 000 §09 "Honba": "+300 from the discarder alone on ron"; Tenhou
    ("final_points_step", 1_000, 1_000, 1_000),  # whole game points, 0.1 only where a lobby says
]


@pytest.mark.parametrize(("option", "wrc", "standard", "tenhou"), TABLE)
def test_presets(option, wrc, standard, tenhou):
    assert getattr(preset("wrc"), option) == wrc
    assert getattr(preset("standard"), option) == standard
    assert getattr(preset("tenhou"), option) == tenhou


@pytest.mark.parametrize(
    ("rules", "liable"),
    [
        (preset("wrc"), ("Daisangen", "Dai Suushii", "Suu Kantsu")),  # 000: liability for Four Quads too
        (preset("standard"), ("Daisangen", "Dai Suushii")),  # 001: big dragons and big winds only
        (preset("tenhou"), ("Daisangen", "Dai Suushii")),
        (preset("standard", pao_suukantsu=True), ("Daisangen", "Dai Suushii", "Suu Kantsu")),  # the option decides
        (preset("wrc", pao_suukantsu=False), ("Daisangen", "Dai Suushii")),
    ],
)
def test_the_yakuman_with_liability_follow_the_rules(rules, liable):
    assert pao_yakuman(rules) == liable


def test_uma_sums_to_zero():
    for name in ("wrc", "standard", "tenhou"):
        assert sum(preset(name).uma) == 0


def test_overrides_and_errors():
    r = preset("standard", kiriage=True, red_fives=(0, 0, 0))
    assert (r.kiriage, r.has_red_fives, r.name) == (True, False, "standard")
    assert preset("standard").kiriage is False  # the preset itself is untouched
    with pytest.raises(EngineError, match="unknown rule option"):
        preset("standard", kiryage=True)
    with pytest.raises(EngineError, match="unknown rule preset"):
        preset("mahjong-soul")


@pytest.mark.parametrize("step", [0, -100])
def test_final_points_step_is_positive(step):
    with pytest.raises(EngineError, match="final_points_step"):
        preset("tenhou", final_points_step=step)
