"""Yaku names: the English name, the Japanese name and a short gloss of every yaku the scorer reports.

``YAKU`` is keyed by Tenhou's yaku ids (0-54, as the ``mahjong`` package maps its own ids to them);
``EXTRA_YAKU`` holds the yaku that have no Tenhou id, by the ``mahjong`` package's name.

>>> YAKU[8]
YakuName(en='Tanyao', ja='断幺九', gloss='All simples')
>>> EXTRA_YAKU["Nagashi Mangan"].ja
'流し満貫'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class YakuName:
    en: str  # the usual romanised name, as the ``mahjong`` package spells it
    ja: str
    gloss: str  # a short English explanation


#: Tenhou yaku ids 0-54 (52 dora, 53 ura dora, 54 red fives).
YAKU: dict[int, YakuName] = {
    i: YakuName(en, ja, gloss)
    for i, (en, ja, gloss) in enumerate(
        [
            ("Menzen Tsumo", "門前清自摸和", "Self-draw with a closed hand"),
            ("Riichi", "立直", "Ready hand declared"),
            ("Ippatsu", "一発", "Win within one turn of riichi"),
            ("Chankan", "槍槓", "Robbing a kan"),
            ("Rinshan Kaihou", "嶺上開花", "Win on the replacement tile after a kan"),
            ("Haitei Raoyue", "海底摸月", "Win by self-draw on the last tile"),
            ("Houtei Raoyui", "河底撈魚", "Win by ron on the last discard"),
            ("Pinfu", "平和", "No-points hand"),
            ("Tanyao", "断幺九", "All simples"),
            ("Iipeiko", "一盃口", "Two identical sequences"),
            ("Yakuhai (seat wind east)", "自風 東", "Triplet of the seat wind: East"),
            ("Yakuhai (seat wind south)", "自風 南", "Triplet of the seat wind: South"),
            ("Yakuhai (seat wind west)", "自風 西", "Triplet of the seat wind: West"),
            ("Yakuhai (seat wind north)", "自風 北", "Triplet of the seat wind: North"),
            ("Yakuhai (round wind east)", "場風 東", "Triplet of the round wind: East"),
            ("Yakuhai (round wind south)", "場風 南", "Triplet of the round wind: South"),
            ("Yakuhai (round wind west)", "場風 西", "Triplet of the round wind: West"),
            ("Yakuhai (round wind north)", "場風 北", "Triplet of the round wind: North"),
            ("Yakuhai (haku)", "役牌 白", "Triplet of White dragons"),
            ("Yakuhai (hatsu)", "役牌 發", "Triplet of Green dragons"),
            ("Yakuhai (chun)", "役牌 中", "Triplet of Red dragons"),
            ("Double Riichi", "両立直", "Riichi on the first turn"),
            ("Chiitoitsu", "七対子", "Seven pairs"),
            ("Chantai", "混全帯幺九", "Terminal or honour in every set"),
            ("Ittsu", "一気通貫", "Straight 1-9 in one suit"),
            ("Sanshoku Doujun", "三色同順", "Same sequence in three suits"),
            ("Sanshoku Doukou", "三色同刻", "Same triplet in three suits"),
            ("San Kantsu", "三槓子", "Three kans"),
            ("Toitoi", "対々和", "All triplets"),
            ("San Ankou", "三暗刻", "Three concealed triplets"),
            ("Shou Sangen", "小三元", "Little three dragons"),
            ("Honroutou", "混老頭", "All terminals and honours"),
            ("Ryanpeikou", "二盃口", "Two pairs of identical sequences"),
            ("Junchan", "純全帯幺九", "Terminal in every set"),
            ("Honitsu", "混一色", "Half flush"),
            ("Chinitsu", "清一色", "Full flush"),
            ("Renhou", "人和", "Blessing of man"),
            ("Tenhou", "天和", "Blessing of heaven"),
            ("Chiihou", "地和", "Blessing of earth"),
            ("Daisangen", "大三元", "Big three dragons"),
            ("Suu Ankou", "四暗刻", "Four concealed triplets"),
            ("Suu Ankou Tanki", "四暗刻単騎", "Four concealed triplets, pair wait"),
            ("Tsuu Iisou", "字一色", "All honours"),
            ("Ryuuiisou", "緑一色", "All green"),
            ("Chinroutou", "清老頭", "All terminals"),
            ("Chuuren Poutou", "九蓮宝燈", "Nine gates"),
            ("Daburu Chuuren Poutou", "純正九蓮宝燈", "Pure nine gates, nine-sided wait"),
            ("Kokushi Musou", "国士無双", "Thirteen orphans"),
            ("Kokushi Musou Juusanmen Matchi", "国士無双１３面", "Thirteen orphans, thirteen-sided wait"),
            ("Dai Suushii", "大四喜", "Big four winds"),
            ("Shousuushii", "小四喜", "Little four winds"),
            ("Suu Kantsu", "四槓子", "Four kans"),
            ("Dora", "ドラ", "Bonus tiles"),
            ("Ura Dora", "裏ドラ", "Bonus tiles under the indicators"),
            ("Aka Dora", "赤ドラ", "Red fives"),
        ]
    )
}

#: Yaku of the ``mahjong`` package with no Tenhou id, by the package's name.
EXTRA_YAKU: dict[str, YakuName] = {
    "Open Riichi": YakuName("Open Riichi", "オープン立直", "Riichi with the hand shown"),
    "Double Open Riichi": YakuName("Double Open Riichi", "ダブルオープン立直", "Open riichi on the first turn"),
    "Nagashi Mangan": YakuName("Nagashi Mangan", "流し満貫", "Only terminals and honours discarded, none called"),
    "Renhou (yakuman)": YakuName("Renhou", "人和", "Blessing of man"),
    "Renhou (mangan)": YakuName("Renhou", "人和", "Blessing of man, a flat mangan"),
    "Sashikomi": YakuName("Sashikomi", "オープン立直放銃", "Dealing into open riichi"),
}
