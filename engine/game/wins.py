"""Wins: ron (one or several claimants on a discard or a robbed kan; head-bump, double and triple ron), tsumo,
and the wins the players declare when the discards are not on record; the hand scored with its situation
(riichi, ippatsu, rinshan, haitei, ...) and liability (包, pao) for a fed yakuman. ``on_*`` functions are
called by ``Game.apply``; each settles the hand through ``engine.game.settlement`` and ends it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError, IllegalAction, InvalidHand
from engine.game.draws import on_abortive_draw
from engine.game.events import (
    DECLARABLE,
    Abort,
    AbortiveDraw,
    DeclaredClaim,
    DeclaredRon,
    DeclaredWin,
    Event,
    Ron,
    Tsumo,
)
from engine.game.furiten import judge
from engine.game.game_end import finish_hand
from engine.game.results import HandResult, Outcome, WinRecord
from engine.game.settlement import WinPay, settle_ron, settle_tsumo
from engine.game.shape import kind_counts
from engine.game.table import Phase, Table
from engine.hand import Hand, check_tiles, parse_hand
from engine.melds import Meld, MeldKind
from engine.rules import PAO_YAKUMAN, MultipleRon, RuleSet, pao_yakuman
from engine.tiles import Tile


def win_context(
    game: Table,
    seat: int,
    win_tile: Tile,
    tsumo: bool,
    discarder: int | None,
    chankan: bool,
    ura: tuple[Tile, ...],
    honba: int,
    sticks: int,
) -> Any:
    """The scorer's ``WinContext`` for ``seat`` winning on ``win_tile`` now (riichi, ippatsu, rinshan, haitei,
    tenhou ... read from the hand in play); ``honba`` and ``sticks`` as the scorer should count them."""
    from engine.scoring import WinContext

    h = game.hand
    assert h is not None
    p = h.players[seat]
    first_turn = not h.interrupted and p.discards == 0
    return WinContext(
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=game.seat_wind(seat),
        round_wind=game.round_wind,
        riichi=p.riichi and not p.double_riichi and not p.open_riichi,
        double_riichi=p.riichi and p.double_riichi,
        open_riichi=p.riichi and p.open_riichi,
        ippatsu=p.riichi and p.ippatsu,
        rinshan=tsumo and h.rinshan,
        chankan=chankan,
        haitei=tsumo and h.live == 0 and not h.rinshan,
        houtei=not tsumo and not chankan and h.live == 0,
        tenhou=tsumo and first_turn and seat == game.dealer,
        chiihou=tsumo and first_turn and seat != game.dealer,
        renhou=not tsumo and first_turn and seat != game.dealer and p.draws == 0,
        dora_indicators=tuple(h.dora_indicators),
        ura_indicators=ura if p.riichi else (),
        honba=honba,
        sticks=sticks,
        discarder=None if discarder is None else game.seat_wind(discarder),
    )


def _score(
    game: Table,
    event: Event,
    seat: int,
    concealed: tuple[Tile, ...],
    win_tile: Tile,
    tsumo: bool,
    discarder: int | None,
    chankan: bool,
    ura: tuple[Tile, ...],
) -> tuple[Any, WinPay]:
    h = game.hand
    assert h is not None
    p = h.players[seat]
    hand = Hand(concealed, tuple(p.melds))
    ctx = win_context(game, seat, win_tile, tsumo, discarder, chankan, ura, 0, 0)
    result = _scored_win(event, seat, hand, ctx, game.rules)
    pao_base = 0
    pao_seat = None
    if p.pao is not None:
        pao_base = _pao_base(result, p.pao_yakuman)
        if pao_base:
            pao_seat = p.pao
    return result, _win_pay(seat, result, tsumo, pao_seat, pao_base, game.rules)


def _triple_ron_aborts(game: Table, claimants: int) -> bool:
    """三家和: three players ron one discard and the rules make that an abortive draw (001, Tenhou)."""
    return claimants == 3 and game.rules.abortive_draws and game.rules.multiple_ron is MultipleRon.DOUBLE


def _head_bump(game: Table, claims: list[Any]) -> tuple[list[Any], tuple[int, ...]]:
    """The claims that win (given in turn after the discarder) and the seats bumped: under head-bump (頭ハネ,
    000) the first claimant wins alone; otherwise every claimant wins (double ron, triple ron)."""
    if game.rules.multiple_ron is MultipleRon.HEAD_BUMP and len(claims) > 1:
        return claims[:1], tuple(c.seat for c in claims[1:])
    return claims, ()


def on_ron(game: Table, e: Ron) -> HandResult:
    h = game.hand
    assert h is not None
    target = h.ron_target()
    if target is None:
        raise IllegalAction(e, "a ron is on a discard (or an added kan) that lies on the table")
    discarder, win_tile, chankan = target
    if not e.claims:
        raise IllegalAction(e, "a ron needs a winner")
    seats = [c.seat for c in e.claims]
    if len(set(seats)) != len(seats) or any(not 0 <= s < 4 or s == discarder for s in seats):
        raise IllegalAction(e, "each winner is another player than the discarder, once")
    claims = sorted(e.claims, key=lambda c: (c.seat - discarder) % 4)
    if _triple_ron_aborts(game, len(claims)):
        return on_abortive_draw(game, AbortiveDraw(Abort.TRIPLE_RON), from_ron=e)
    claims, bumped = _head_bump(game, claims)
    wins: list[WinRecord] = []
    pays: list[WinPay] = []
    for c in claims:
        p = h.players[c.seat]
        shown = c.hand
        if len(shown) == p.size:
            shown = (*shown, win_tile)
        shown = game._revealed(e, c.seat, shown, p.size + 1)
        if win_tile not in shown:
            raise IllegalAction(e, "the shown hand must hold the winning tile", f"{win_tile}")
        rest = list(shown)
        rest.remove(win_tile)
        f = judge(kind_counts(rest), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)
        if f.is_furiten:
            raise IllegalAction(e, "furiten: no ron", f"seat {c.seat}: {f.explain()}")
        result, pay = _score(game, e, c.seat, shown, win_tile, False, discarder, chankan, e.ura_indicators)
        if chankan and h.kan_closed and not any(y.name.startswith("Kokushi") for y in result.yaku):
            raise IllegalAction(e, "a closed kan can only be robbed for thirteen orphans")
        wins.append(
            WinRecord(c.seat, discarder, Hand(shown, tuple(p.melds)).notation(), str(win_tile), result, pay.pao_seat)
        )
        pays.append(pay)
    revealed: dict[int, tuple[Tile, ...]] = {}
    for c in claims:
        rest_c = list(c.hand)
        if len(rest_c) == h.players[c.seat].size + 1:
            rest_c.remove(win_tile)
        revealed[c.seat] = tuple(rest_c)
    game._check_visible(e, tuple(e.ura_indicators), revealed)
    s = settle_ron(pays, discarder, game.dealer, game.honba, game.sticks, game.rules)
    h.riichi_pending = None  # a riichi declared with the winning discard is void: no deposit
    return finish_hand(
        game, Outcome.RON, s, wins=tuple(wins), bumped=bumped, dealer_repeats=any(w.seat == game.dealer for w in wins)
    )


def on_tsumo(game: Table, e: Tsumo) -> HandResult:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    if h.phase is not Phase.DISCARD or h.actor != e.seat:
        raise IllegalAction(e, "a tsumo is declared in one's own turn, after drawing")
    if p.after_call:
        raise IllegalAction(e, "no tsumo after a chi or pon: the hand was not completed by a draw")
    shown = game._revealed(e, e.seat, tuple(e.hand), p.size)
    if e.win_tile not in shown:
        raise IllegalAction(e, "the shown hand must hold the winning tile", f"{e.win_tile}")
    if isinstance(p.drawn, Tile) and p.drawn != e.win_tile:
        raise IllegalAction(e, "a tsumo wins on the drawn tile", f"drawn {p.drawn}, not {e.win_tile}")
    game._check_visible(e, tuple(e.ura_indicators), {e.seat: shown})
    result, pay = _score(game, e, e.seat, shown, e.win_tile, True, None, False, e.ura_indicators)
    win = WinRecord(e.seat, None, Hand(shown, tuple(p.melds)).notation(), str(e.win_tile), result, pay.pao_seat)
    s = settle_tsumo(pay, game.dealer, game.honba, game.sticks, game.rules)
    return finish_hand(game, Outcome.TSUMO, s, wins=(win,), dealer_repeats=e.seat == game.dealer)


def on_declared_win(game: Table, e: DeclaredWin) -> HandResult:
    game._player(e, e.seat)
    if e.discarder is not None:
        game._player(e, e.discarder)
        if e.discarder == e.seat:
            raise IllegalAction(e, "a ron is on another player's discard")
    claim = DeclaredClaim(e.seat, e.hand, e.flags, e.pao)
    return _settle_declared(game, e, e.discarder, e.win_tile, [claim], e.dora_indicators, e.ura_indicators)


def on_declared_ron(game: Table, e: DeclaredRon) -> HandResult:
    game._player(e, e.discarder)
    if not e.claims:
        raise IllegalAction(e, "a ron needs a winner")
    seats = [c.seat for c in e.claims]
    for s in seats:
        game._player(e, s)
    if len(set(seats)) != len(seats) or e.discarder in seats:
        raise IllegalAction(e, "each winner is another player than the discarder, once")
    claims = sorted(e.claims, key=lambda c: (c.seat - e.discarder) % 4)
    for c in claims:  # every claimant's hand must at least be readable, bumped or not
        _declared_hand(game, e, c, e.win_tile)
    if _triple_ron_aborts(game, len(claims)):
        return on_abortive_draw(game, AbortiveDraw(Abort.TRIPLE_RON), from_ron=e)
    winners, bumped = _head_bump(game, claims)
    return _settle_declared(
        game, e, e.discarder, e.win_tile, winners, e.dora_indicators, e.ura_indicators, bumped=bumped
    )


def _declared_hand(game: Table, e: Event, c: DeclaredClaim, win_tile: Tile) -> Hand:
    """A declared winner's hand, read and holding the winning tile."""
    unknown = sorted(set(c.flags) - set(DECLARABLE))
    if unknown:
        raise IllegalAction(e, "unknown situational yaku", ", ".join(unknown))
    try:
        hand = parse_hand(c.hand)
    except EngineError as exc:
        raise IllegalAction(e, "the hand cannot be read", f"seat {c.seat}: {exc}") from None
    if hand.size == 13:
        hand = hand.with_tile(win_tile)
    if win_tile not in hand.concealed:
        raise IllegalAction(e, "the shown hand must hold the winning tile", f"seat {c.seat}: {win_tile}")
    return hand


def _settle_declared(
    game: Table,
    e: Event,
    discarder: int | None,
    win_tile: Tile,
    claims: list[DeclaredClaim],
    dora: tuple[Tile, ...],
    ura: tuple[Tile, ...],
    bumped: tuple[int, ...] = (),
) -> HandResult:
    """Score each declared winner (in turn after the discarder) and settle them as the engine's own wins."""
    h = game.hand
    assert h is not None
    tsumo = discarder is None
    indicators = tuple(h.dora_indicators) or dora
    wins: list[WinRecord] = []
    pays: list[WinPay] = []
    shown: list[Tile] = [*indicators, *ura]
    for c in claims:
        hand = _declared_hand(game, e, c, win_tile)
        result, pay = _score_declared(game, e, c, hand, win_tile, discarder, indicators, ura)
        wins.append(WinRecord(c.seat, discarder, hand.notation(), str(win_tile), result, pay.pao_seat))
        pays.append(pay)
        rest = list(hand.all_tiles)
        rest.remove(win_tile)  # one discard won by all: the winning tile counts once
        shown += rest
    try:
        check_tiles([*shown, win_tile], game.rules)
    except InvalidHand as exc:
        raise IllegalAction(e, "a set has four of each tile", str(exc)) from None
    if discarder is None:
        s = settle_tsumo(pays[0], game.dealer, game.honba, game.sticks, game.rules)
    else:
        s = settle_ron(pays, discarder, game.dealer, game.honba, game.sticks, game.rules)
    h.riichi_pending = None  # a riichi declared with the winning discard is void: no deposit
    return finish_hand(
        game,
        Outcome.TSUMO if tsumo else Outcome.RON,
        s,
        wins=tuple(wins),
        bumped=bumped,
        dealer_repeats=any(w.seat == game.dealer for w in wins),
    )


def _score_declared(
    game: Table,
    e: Event,
    c: DeclaredClaim,
    hand: Hand,
    win_tile: Tile,
    discarder: int | None,
    dora: tuple[Tile, ...],
    ura: tuple[Tile, ...],
) -> tuple[Any, WinPay]:
    from engine.scoring import WinContext

    h = game.hand
    assert h is not None
    p = h.players[c.seat]
    tsumo = discarder is None
    flags = set(c.flags)
    riichi = p.riichi or bool(flags & {"riichi", "double_riichi", "open_riichi"})
    double = "double_riichi" in flags or p.double_riichi
    ctx = WinContext(
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=game.seat_wind(c.seat),
        round_wind=game.round_wind,
        riichi=riichi and not double,
        double_riichi=double,
        open_riichi="open_riichi" in flags,
        ippatsu="ippatsu" in flags,
        rinshan="rinshan" in flags and tsumo,
        chankan="chankan" in flags and not tsumo,
        haitei="haitei" in flags and tsumo,
        houtei="houtei" in flags and not tsumo,
        tenhou="tenhou" in flags and tsumo and c.seat == game.dealer,
        chiihou="chiihou" in flags and tsumo and c.seat != game.dealer,
        renhou="renhou" in flags and not tsumo and c.seat != game.dealer,
        dora_indicators=dora,
        ura_indicators=ura if riichi else (),
        discarder=None if discarder is None else game.seat_wind(discarder),
    )
    result = _scored_win(e, c.seat, hand, ctx, game.rules)
    pao_seat, pao_base = _declared_pao(game, e, c, hand, result)
    return result, _win_pay(c.seat, result, tsumo, pao_seat, pao_base, game.rules)


def _declared_pao(game: Table, e: Event, c: DeclaredClaim, hand: Hand, result: Any) -> tuple[int | None, int]:
    """包 on a declared win: the liable seat named with it, or the one the engine saw feed the last set.

    Checked: a seat other than the winner; a yakuman with liability under the rules in the scored hand; its
    last set called (a pon or open kan; for four quads an open kan), since a concealed set was fed by no one.
    """
    h = game.hand
    assert h is not None
    p = h.players[c.seat]
    if c.pao is None:
        if p.pao is None:
            return None, 0
        base = _pao_base(result, p.pao_yakuman)
        return (p.pao, base) if base else (None, 0)
    game._player(e, c.pao)
    if c.pao == c.seat:
        raise IllegalAction(e, "the liable player (pao) is another player than the winner", f"seat {c.seat}")
    if p.pao is not None and p.pao != c.pao:
        raise IllegalAction(
            e, "liability (pao) falls on the player who fed the last set", f"seat {p.pao} fed it, not {c.pao}"
        )
    names = pao_yakuman(game.rules)
    held = [n for n in names if _pao_base(result, n)]
    for name in held:  # a hand holding two (big dragons and four quads): the first one fed is covered
        if any(_pao_meld(name, m) for m in hand.melds):
            return c.pao, _pao_base(result, name)
    if held:
        raise IllegalAction(
            e,
            "liability (pao) needs the yakuman's last set called from the liable player",
            f"{', '.join(held)}: no called set of it in {hand.notation()}",
        )
    raise IllegalAction(
        e,
        f"liability (pao) is only for {', '.join(PAO_YAKUMAN[n] for n in names)} under the {game.rules.name} rules",
        f"none in seat {c.seat}'s scored hand",
    )


def _scored_win(event: Event, seat: int, hand: Hand, ctx: Any, rules: RuleSet) -> Any:
    """The hand scored; a hand that is no win refuses ``event``."""
    from engine.scoring import score_hand

    result = score_hand(hand, ctx, rules)
    if not result.is_win:
        raise IllegalAction(event, f"not a win: {result.reason}", f"seat {seat}: {hand.notation()}")
    return result


def _win_pay(seat: int, result: Any, tsumo: bool, pao_seat: int | None, pao_base: int, rules: RuleSet) -> WinPay:
    """What a scored win is paid, as settlement reads it: with ``rules.pao_whole_hand``, the liable player covers
    the whole hand (every yakuman in it), else the one it fed."""
    if pao_seat is not None and pao_base and rules.pao_whole_hand:
        pao_base = result.base_points
    return WinPay(
        seat,
        result.ron_points,
        result.tsumo_points,
        result.base_points,
        pao_seat,
        pao_base,
        label=f"seat {seat} " + ("tsumo" if tsumo else "ron"),
    )


def _pao_base(result: Any, yakuman: str) -> int:
    """The base points a liable player covers: the named yakuman's, when the scored hand holds it."""
    fed = [y for y in result.yaku if y.name == yakuman and y.yakuman_multiple]
    return 8000 * fed[0].yakuman_multiple if fed else 0


def _pao_meld(yakuman: str, m: Meld) -> bool:
    """Whether ``m`` can be the set a liable player fed: called dragons, called winds, or (four quads) an open kan."""
    if yakuman == "Daisangen":
        return m.is_open and m.kind is not MeldKind.CHI and m.kind_index in (31, 32, 33)
    if yakuman == "Dai Suushii":
        return m.is_open and m.kind is not MeldKind.CHI and m.kind_index in (27, 28, 29, 30)
    return m.kind is MeldKind.KAN
