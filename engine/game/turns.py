"""The deal and the turns: a hand starts, a seat draws (a kan's replacement tile too) and discards, a kan's
dora indicator is turned over, a concealed hand is shown. Each ``on_*`` function checks the event against the
rules first and only then changes the table; ``Game.apply`` calls it.
"""

from __future__ import annotations

from engine.errors import IllegalAction, InvalidHand
from engine.game.draws import abort_due
from engine.game.events import Discard, DoraFlip, Draw, HandStart, ShowHand
from engine.game.riichi import check_riichi
from engine.game.table import UNSEEN, HandState, Phase, Player, PondTile, Table
from engine.hand import check_tiles
from engine.tiles import Tile, format_tiles


def on_hand_start(game: Table, e: HandStart) -> None:
    if game.hand is not None:
        raise IllegalAction(e, "a hand is in progress")
    expect = {"round": game.round, "honba": game.honba, "sticks": game.sticks, "dealer": game.dealer}
    for key, want in expect.items():
        got = getattr(e, key)
        if got is not None and got != want:
            raise IllegalAction(
                e,
                "the deal must follow the game",
                f"{key} is {want} ({game.round_name}, {game.honba} honba, {game.sticks} sticks, dealer "
                f"seat {game.dealer}), not {got}",
            )
    if len(e.hands) != 4:
        raise IllegalAction(e, "a deal has four hands")
    players = []
    for hand in e.hands:
        if hand is None:
            players.append(Player(unknown=13))
        elif len(hand) != 13:
            raise IllegalAction(e, "each player is dealt 13 tiles", f"got {len(hand)}")
        else:
            players.append(Player(known=list(hand)))
    state = HandState(
        dora_indicators=[e.dora_indicator] if e.dora_indicator else [],
        players=players,
        actor=game.dealer,
        phase=Phase.DRAW,
    )
    old, game.hand = game.hand, state
    try:
        game._check_visible(e)
        dealt = [t for hand in e.hands if hand is not None for t in hand]
        check_tiles(dealt, game.rules, plain_fives=True)  # every dealt five written red or plain
    except InvalidHand as exc:
        game.hand = old
        raise IllegalAction(e, "a set has four of each tile", str(exc)) from None
    except IllegalAction:
        game.hand = old
        raise
    game.dealer_may_stop = False  # a deal where the dealer could have stopped: the dealer plays on


def on_draw(game: Table, e: Draw) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    rinshan = False
    if h.phase is Phase.REACT:
        assert h.discarder is not None
        if e.seat != (h.discarder + 1) % 4:
            raise IllegalAction(e, "turn order", f"seat {(h.discarder + 1) % 4} draws next, not seat {e.seat}")
        if h.live == 0:
            raise IllegalAction(e, "the wall is empty: the hand ends in an exhaustive draw")
        due = abort_due(game)
        if due is not None:
            raise IllegalAction(e, f"abortive draw due ({due.value}): the hand ends, no more draws")
    elif h.phase is Phase.DRAW:
        if e.seat != h.actor:
            raise IllegalAction(e, "turn order", f"seat {h.actor} draws next, not seat {e.seat}")
        rinshan = bool(h.kans)  # a draw phase after the deal's first draw is a kan's replacement
    elif h.phase is Phase.KAN:
        if e.seat != h.actor:
            raise IllegalAction(e, "turn order", f"seat {h.actor} draws the kan's replacement tile")
        rinshan = True
    else:
        raise IllegalAction(e, "turn order", f"seat {h.actor} must discard first")
    if e.tile is not None:
        game._check_visible(e, (e.tile,))
    # -- change the state
    if h.phase is Phase.REACT:
        game._react_resolve()
    elif h.phase is Phase.KAN:
        assert h.kan_tile is not None
        for s, q in enumerate(h.players):
            if s != h.actor:
                q.passed.append(h.kan_tile)
                if q.riichi:
                    q.passed_since_riichi.append(h.kan_tile)
        for q in h.players:
            q.ippatsu = False
        h.kan_tile = None
    h.live -= 1
    if e.tile is None:
        p.unknown += 1
        p.drawn = UNSEEN
    else:
        p.known.append(e.tile)
        p.drawn = e.tile
    p.draws += 1
    p.passed = []  # temporary furiten ends with the player's own draw
    p.after_call = False
    p.kuikae = frozenset()
    h.rinshan = rinshan
    h.actor = e.seat
    h.phase = Phase.DISCARD


def on_discard(game: Table, e: Discard) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    if h.phase is not Phase.DISCARD or h.actor != e.seat:
        raise IllegalAction(e, "turn order", f"it is not seat {e.seat}'s turn to discard")
    if e.tile.kind in p.kuikae:
        raise IllegalAction(
            e,
            "kuikae (swap-calling) is forbidden",
            f"after this call {format_tiles(game.kuikae_forbidden(e.seat))} may not be discarded",
        )
    drawn = p.drawn
    if e.tsumogiri and drawn is None:
        raise IllegalAction(e, "no tile was drawn (after a call the discard comes from the hand)")
    if e.tsumogiri and isinstance(drawn, Tile) and drawn != e.tile:
        raise IllegalAction(e, "tsumogiri discards the drawn tile", f"drawn {drawn}, discarded {e.tile}")
    prefer_unknown = bool(e.tsumogiri) and drawn == UNSEEN
    if not (e.tile in p.known or p.unknown > 0):
        raise IllegalAction(
            e, "the discarded tile must be in the hand", f"{e.tile} not in {format_tiles(p.known, sort=True)}"
        )
    if p.riichi and (e.tsumogiri is False or (isinstance(drawn, Tile) and drawn != e.tile)):
        raise IllegalAction(e, "after riichi the hand is locked: only the drawn tile may be discarded")
    if e.riichi or e.open_riichi:
        check_riichi(game, e, p)
    if e.tile not in p.known:
        game._check_visible(e, (e.tile,))
    # -- change the state
    p.take(e.tile, prefer_unknown=prefer_unknown)
    first = p.discards == 0 and not h.interrupted
    p.pond.append(PondTile(e.tile, e.tsumogiri, e.riichi or e.open_riichi))
    p.discards += 1
    if p.ippatsu and not (e.riichi or e.open_riichi):
        p.ippatsu = False  # the go-around after riichi ended without a win
    if e.riichi or e.open_riichi:
        h.riichi_pending = e.seat
        p.double_riichi = first
        p.open_riichi = e.open_riichi
    if not h.interrupted and len(h.first_discards) < 4:
        h.first_discards.append(e.tile)
    p.drawn = None
    p.kuikae = frozenset()
    p.after_call = False
    p.passed = []
    h.last_discard = e.tile
    h.discarder = e.seat
    h.rinshan = False
    h.phase = Phase.REACT


def on_dora_flip(game: Table, e: DoraFlip) -> None:
    h = game.hand
    assert h is not None
    if h.pending_kan_dora <= 0:
        raise IllegalAction(e, "a new dora indicator is turned over only after a kan")
    game._check_visible(e, (e.indicator,))
    h.dora_indicators.append(e.indicator)
    h.pending_kan_dora -= 1


def on_show_hand(game: Table, e: ShowHand) -> None:
    p = game._player(e, e.seat)
    shown = game._revealed(e, e.seat, tuple(e.tiles), p.size)
    game._check_visible(e, (), {e.seat: shown})
    p.known = list(shown)  # a drawn tile that was not seen stays unnamed: a tsumogiri takes any copy
    p.unknown = 0
