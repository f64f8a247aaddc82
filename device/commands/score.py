"""Hand subcommands: ``score`` and ``waits`` (the lab's ``conformance wins`` and ``bench score``: device.lab.hands).

HAND uses the hand notation of ``engine.hand`` (concealed tiles, then melds such as ``chi:324s``,
``pon:555z/L``, ``kan:5555p/R``, ``kakan:7777z``, ``ankan:1111m``; the first tile of a called meld is
the called tile, FROM is L, A (default) or R). For ``score`` the winning tile may be in HAND (14 tiles,
kans counted as 3) or not (13 tiles: ``--win`` is added to the concealed tiles).

    jantaku score 234567m666p35s88s4s --win 4s --riichi --dora 1m --seat S --rules wrc
    jantaku score "234m567p88s chi:678s pon:555z/L" --win 2m --tsumo
    jantaku waits 123m456p789s1122z --json
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.errors import EngineError
from engine.hand import parse_hand
from engine.rules import PRESETS, RuleSet, preset
from engine.scoring import Limit, ScoreResult, WinContext, score_hand
from engine.tiles import Tile, Wind, parse_tiles
from engine.waits import WaitsResult, find_waits
from web.hand_request import (
    FLAGS,
    MAX_COUNT,
    BadRequest,
    count_text,
    indicators,
    parse_rules,
    parse_score_request,
)


def register(commands: Any) -> None:
    p = commands.top.add_parser(
        "score",
        help="score a winning hand",
        description="Score a winning hand. HAND holds the winning tile (14 tiles, kans counted as 3) "
        "or not (13 tiles: --win is added). Melds: chi:324s pon:555z/L kan:5555p/R kakan:7777z ankan:1111m "
        "(first tile = the called one; /L /A /R = from left, across (default), right). "
        "Exit 0 for a win, 1 for a complete hand with no yaku or an incomplete hand, 2 for bad input.",
    )
    p.add_argument("hand", help="hand notation, e.g. '234m567p88s chi:678s pon:555z/L' (quote it when it has spaces)")
    p.add_argument(
        "--win", help="the winning tile, e.g. 4s or 0p (red five); may be left out with 14 tiles: the last one written"
    )
    p.add_argument("--tsumo", action="store_true", help="won by self-draw (default: ron)")
    # the situational flags are checked together by the scorer, as the site's are (double riichi and open
    # riichi combine under open-riichi rules)
    p.add_argument("--riichi", action="store_true")
    p.add_argument("--double-riichi", action="store_true")
    p.add_argument("--open-riichi", action="store_true", help="needs a rule set with open riichi")
    for flag in ("ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou"):
        p.add_argument(f"--{flag}", action="store_true")
    _context_args(p)
    p.add_argument("--from", dest="discarder", metavar="E|S|W|N", help="seat wind of the discarder of a ron")
    p.add_argument("--honba", default="0", help=f"continuance counters, 0..{MAX_COUNT} (default 0)")
    p.add_argument("--sticks", default="0", help=f"riichi sticks on the table that go to the winner, 0..{MAX_COUNT}")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_score)

    w = commands.top.add_parser(
        "waits",
        help="shanten, waits and their value",
        description="Shanten of a 13-tile hand and, when tenpai, each waiting tile with how many are unseen "
        "and what the hand scores by ron and by tsumo.",
    )
    w.add_argument("hand", help="13 tiles in hand notation")
    w.add_argument("--riichi", action="store_true", help="value the waits as a riichi hand")
    _context_args(w)
    w.add_argument("--seen", default="", help="other tiles already visible (discards, melds), mpsz")
    w.add_argument("--json", action="store_true", help="one JSON object")
    w.set_defaults(func=cmd_waits)


def _context_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dora", nargs="+", default=[], metavar="IND", help="dora indicators, kan-dora included")
    p.add_argument("--ura", nargs="+", default=[], metavar="IND", help="ura-dora indicators")
    p.add_argument("--seat", default="E", metavar="E|S|W|N", help="the winner's seat wind (default E, the dealer)")
    p.add_argument("--round", default="E", metavar="E|S|W|N", help="the round wind (default E)")
    p.add_argument(
        "--rules", default="standard", type=str.lower, choices=sorted(PRESETS), help="rule preset (default standard)"
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option over the preset, as the site's rules object takes it (repeatable): open_riichi=true, "
        "renhou=yakuman, red_fives=[0,0,0]",
    )


def _rules_request(args: argparse.Namespace) -> dict[str, Any]:
    """The preset and each ``--rule KEY=VALUE`` as the site's rules object; VALUE is JSON (true, 3, [0,0,0]) or
    else plain text."""
    options: dict[str, Any] = {"preset": args.rules}
    for item in args.rule:
        key, sep, text = item.partition("=")
        if not sep:
            raise EngineError(f"--rule {item!r}: write KEY=VALUE, e.g. open_riichi=true")
        try:
            options[key] = json.loads(text)
        except ValueError:
            options[key] = text
    return options


def _rules(args: argparse.Namespace) -> RuleSet:
    """The rule set, read and checked as the site reads its rules object (``web.hand_request.parse_rules``)."""
    return parse_rules(_rules_request(args), preset("standard"))


# --- score ------------------------------------------------------------------------------------------------------


def score_request(args: argparse.Namespace) -> dict[str, Any]:
    """``jantaku score``'s options as the site's scoring request (``POST /api/score``): one reading, one set of
    checks (``web.hand_request.parse_score_request``) for both."""
    request: dict[str, Any] = {
        "hand": args.hand,
        "tsumo": args.tsumo,
        "seat_wind": args.seat,
        "round_wind": args.round,
        "dora": args.dora,
        "ura": args.ura,
        "honba": count_text(args.honba, "--honba"),
        "sticks": count_text(args.sticks, "--sticks"),
        "rules": _rules_request(args),
        "flags": [name for name in FLAGS if getattr(args, name)],
    }
    if args.win is not None:
        request["win_tile"] = args.win
    if args.discarder and not args.tsumo:
        request["discarder"] = args.discarder
    return request


#: The site's request fields by the options that give them, so that an error names what the user typed.
_OPTIONS = {
    "win_tile": "--win",
    "seat_wind": "--seat",
    "round_wind": "--round",
    "discarder": "--from",
    "dora": "--dora",
    "ura": "--ura",
    "rules": "--rules/--rule",
    "hand": "HAND",
}


def _in_option_terms(message: str) -> str:
    """The site's message about a request field, naming the option instead (``win_tile is ...`` -> ``--win is``)."""
    field, sep, rest = message.partition(" ")
    name = field.rstrip(":")
    return _OPTIONS.get(name, name) + field[len(name) :] + sep + rest


def cmd_score(args: argparse.Namespace) -> int:
    try:
        hand, ctx, rules = parse_score_request(score_request(args))
    except BadRequest as exc:
        raise BadRequest(_in_option_terms(str(exc))) from None
    result = score_hand(hand, ctx, rules)
    if args.json:
        print(
            json.dumps(
                {"hand": hand.notation(), "win": str(ctx.win_tile), "rules": rules.name, **result.to_dict()},
                ensure_ascii=False,
            )
        )
    else:
        print(format_result(result, ctx))
    return 0 if result.is_win else 1


def format_result(r: ScoreResult, ctx: WinContext) -> str:
    """A score for people: yaku with han, fu items, han/fu, limit, points and who pays what."""
    if not r.is_win:
        return f"not a win: {r.reason}"
    lines = []
    width = max(len(f"{y.name} ({y.name_ja})") for y in r.yaku)
    for y in r.yaku:
        value = (
            f"{y.han} han"
            if not y.yakuman_multiple
            else ("yakuman" if y.yakuman_multiple == 1 else f"{y.yakuman_multiple}x yakuman")
        )
        lines.append(f"  {f'{y.name} ({y.name_ja})':<{width}}  {value}")
    by_fu = r.limit is Limit.NONE or (r.han < 5 and r.limit is Limit.MANGAN)  # fu decide below 5 han
    if r.fu_items and by_fu:
        lines.append("fu: " + ", ".join(f"{f.fu} {f.reason}" for f in r.fu_items) + f" = {r.fu}")
    head = f"{r.han} han {r.fu} fu" if by_fu else f"{r.han} han"
    if r.limit_name:
        head += f", {r.limit_name}"
    lines.append(head)
    who = "dealer" if ctx.is_dealer else "non-dealer"
    if r.tsumo:
        dealer, other = r.tsumo_points
        split = f"{other:,} all" if ctx.is_dealer else f"{other:,}/{dealer:,}"
        lines.append(f"{who} tsumo {r.points:,} ({split})")
    else:
        lines.append(f"{who} ron {r.ron_points:,}")
    for p in r.payments:
        payer = f"{p.payer.name.title()} pays" if p.payer is not None else "the discarder pays"
        lines.append(f"  {payer} {p.amount:,}")
    if r.sticks_won:
        lines.append(f"  riichi sticks {r.sticks_won:,}")
    lines.append(f"total {r.total:,}")
    lines.extend(f"note: {n}" for n in r.notes)
    return "\n".join(lines)


# --- waits ------------------------------------------------------------------------------------------------------


def cmd_waits(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hand = parse_hand(args.hand)
    ctx = WinContext(
        win_tile=Tile(0),  # replaced by each wait
        seat_wind=Wind.parse(args.seat),
        round_wind=Wind.parse(args.round),
        riichi=args.riichi,
        dora_indicators=indicators(args.dora, "dora"),
        ura_indicators=indicators(args.ura, "ura"),
    )
    result = find_waits(hand, parse_tiles(args.seen), ctx, rules)
    if args.json:
        print(json.dumps({"hand": hand.notation(), "rules": rules.name, **result.to_dict()}, ensure_ascii=False))
    else:
        print(format_waits(result, ctx))
    return 0


def format_waits(w: WaitsResult, ctx: WinContext) -> str:
    if w.shanten < 0:
        return "complete hand (shanten -1): score it with `jantaku score`"
    if not w.tenpai:
        if w.shanten == 0:
            return "not tenpai: every winning tile is already in the hand"
        return f"{w.shanten}-shanten (not tenpai)"
    lines = [f"tenpai: {len(w.waits)} wait(s), {w.unseen} tile(s) unseen"]
    for x in w.waits:
        lines.append(f"  {x.tile}  unseen {x.unseen}  ron {_short(x.ron)}  tsumo {_short(x.tsumo)}")
    return "\n".join(lines)


def _short(r: ScoreResult | None) -> str:
    if r is None:
        return "-"
    if not r.is_win:
        return f"({r.reason})"
    text = f"{r.points:,}" if not r.limit_name else f"{r.points:,} {r.limit_name}"
    return f"{text} [{r.han}h{r.fu}f]" if r.fu and r.han < 5 else text
