"""Random legal games played by the engine against itself (for tests, demos and soak runs).

A seeded shuffle of the 136 tiles (with the rule set's red fives) is dealt and played with every
tile known: draws, riichi, chi/pon/kan, dora flips, ron and tsumo whenever the engine's scorer
says the hand wins, exhaustive and abortive draws; where the rules let the dealer stop the game
(agari-yame), the dealer stops or plays on at random. Every event goes through ``Game.apply`` (and
``validate()`` when asked), so a bug shows up as a refused event or a broken invariant.

>>> from engine.rules import preset
>>> g = play_game(preset("standard"), seed=1, max_hands=2)
>>> len(g.history) >= 1
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from engine.errors import IllegalAction
from engine.game.events import (
    Abort,
    AbortiveDraw,
    AddedKan,
    Call,
    ClosedKan,
    DealerStops,
    Discard,
    DoraFlip,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStart,
    Ron,
    RonClaim,
    Tsumo,
)
from engine.game.furiten import judge
from engine.game.shape import YAOCHUU_KINDS, is_complete, is_tenpai, kind_counts, meld_counts
from engine.game.state import Game
from engine.game.table import Phase
from engine.game.wins import win_context
from engine.hand import Hand
from engine.melds import MeldKind
from engine.rules import RuleSet
from engine.tiles import FIVE_KINDS, Tile


def full_set(rules: RuleSet) -> list[Tile]:
    """The 136 tiles, with the rule set's red fives in place of plain ones."""
    tiles = [Tile(k) for k in range(34) for _ in range(4)]
    for suit, kind in enumerate(FIVE_KINDS):
        for i in range(rules.red_fives[suit]):
            tiles[kind * 4 + i] = Tile(kind, red=True)
    return tiles


class SelfPlay:
    """Plays one game; ``events()`` yields each event just applied."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int = 0,
        *,
        check: bool = True,
        call_rate: float = 0.3,
        riichi_rate: float = 0.6,
        kan_rate: float = 0.5,
        stop_rate: float = 0.5,
    ) -> None:
        self.rng = random.Random(seed)
        self.game = Game(rules, ("A", "B", "C", "D"))
        self.check = check
        self.call_rate = call_rate
        self.riichi_rate = riichi_rate
        self.kan_rate = kan_rate
        self.stop_rate = stop_rate  # how often the dealer stops where the rules allow it (agari-yame)
        self.wall: list[Tile] = []
        self.dead: list[Tile] = []

    def apply(self, event: Event) -> Event:
        self.game.apply(event)
        if self.check:
            self.game.validate()
        return event

    def events(self, max_hands: int = 100) -> Iterator[Event]:
        hands = 0
        while not self.game.over and hands < max_hands:
            if self.game.dealer_may_stop and self.rng.random() < self.stop_rate:
                yield self.apply(DealerStops(self.game.dealer))
                break
            yield from self._hand()
            hands += 1

    # -------------------------------------------------------------- one hand

    def _hand(self) -> Iterator[Event]:
        g = self.game
        tiles = full_set(g.rules)
        self.rng.shuffle(tiles)
        dead, rest = tiles[:14], tiles[14:]
        self.indicators, self.ura, self.rinshan = dead[0:5], dead[5:10], dead[10:14]
        hands = [rest[i * 13 : (i + 1) * 13] for i in range(4)]
        self.wall = rest[52:]
        self.dora_next = 1
        order = [(g.dealer + i) % 4 for i in range(4)]
        dealt = [None] * 4
        for i, s in enumerate(order):
            dealt[s] = tuple(hands[i])  # type: ignore[call-overload]
        yield self.apply(HandStart(self.indicators[0], tuple(dealt)))
        yield self.apply(Draw(g.dealer, self.wall.pop()))
        while g.hand is not None:
            yield from self._turn()

    def _turn(self) -> Iterator[Event]:
        g = self.game
        h = g.hand
        assert h is not None
        seat = h.actor
        p = h.players[seat]
        if h.phase is Phase.DRAW:
            yield self.apply(Draw(seat, self._rinshan()))
            return
        if h.phase is Phase.KAN:
            yield from self._after_kan()
            return
        # Phase.DISCARD: win, nine terminals, kans, riichi, discard
        drawn = p.drawn if isinstance(p.drawn, Tile) else None
        if drawn is not None and is_complete(kind_counts(p.known)):
            ev = Tsumo(seat, tuple(p.known), drawn, tuple(self.ura[: len(h.dora_indicators)]))
            if self._try(ev):
                yield ev
                return
        if (
            g.rules.abortive_draws
            and p.discards == 0
            and not h.interrupted
            and not p.after_call
            and len({t.kind for t in p.known if t.kind in YAOCHUU_KINDS}) >= 9
            and self.rng.random() < 0.5
        ):
            yield self.apply(AbortiveDraw(Abort.NINE_TERMINALS, seat, tuple(p.known)))
            return
        if not p.after_call and h.live > 0 and len(h.kans) < 4 and self.rng.random() < self.kan_rate:
            for ev in self._kan_options(seat):
                if self._try(ev):
                    yield ev
                    yield from self._flip_if(ankan=isinstance(ev, ClosedKan))
                    return
        riichi = False
        candidates = [t for t in dict.fromkeys(p.known) if t.kind not in p.kuikae]
        if p.riichi:
            candidates = [drawn] if drawn is not None else candidates[:1]
        elif (
            p.is_closed
            and h.live >= g.rules.riichi_min_tiles_left
            and not p.after_call
            and (g.rules.riichi_min_points is None or g.scores[seat] >= g.rules.riichi_min_points)
            and self.rng.random() < self.riichi_rate
        ):
            tenpai_discards = []
            for t in candidates:
                rest = list(p.known)
                rest.remove(t)
                if is_tenpai(kind_counts(rest)):
                    tenpai_discards.append(t)
            if tenpai_discards:
                candidates, riichi = tenpai_discards, True
        tile = self._choose_discard(p.known, candidates)
        yield self.apply(
            Discard(seat, tile, tsumogiri=(tile == drawn and p.known.count(tile) == 1) or None, riichi=riichi)
        )
        yield from self._react()

    def _choose_discard(self, known: list[Tile], candidates: list[Tile]) -> Tile:
        """Mostly a greedy discard (keep tenpai, pairs and neighbours), sometimes a random one."""
        if len(candidates) == 1 or self.rng.random() < 0.15:
            return self.rng.choice(candidates)

        def value(t: Tile) -> float:
            rest = list(known)
            rest.remove(t)
            c = kind_counts(rest)
            if is_tenpai(c):
                return 1000.0
            v = 0.0
            for k, n in enumerate(c):
                if not n:
                    continue
                v += {1: 0, 2: 3, 3: 6, 4: 6}[n]
                if k < 27:
                    num = k % 9
                    if num <= 7 and c[k + 1]:
                        v += 2
                    if num <= 6 and c[k + 2]:
                        v += 1
            return v + self.rng.random()

        return max(candidates, key=value)

    def _rinshan(self) -> Tile:
        """A kan's replacement tile; the live wall's last tile moves to the dead wall to keep it at 14."""
        self.wall.pop(0)
        return self.rinshan.pop()

    def _flip_if(self, ankan: bool) -> Iterator[Event]:
        h = self.game.hand
        if h is not None and h.pending_kan_dora > 0:
            ev = DoraFlip(self.indicators[self.dora_next])
            self.dora_next += 1
            yield self.apply(ev)

    def _try(self, ev: Event) -> bool:
        try:
            self.apply(ev)
        except IllegalAction:
            return False
        return True

    def _kan_options(self, seat: int) -> list[Event]:
        p = self.game.hand.players[seat]  # type: ignore[union-attr]
        out: list[Event] = []
        counts = kind_counts(p.known)
        for k, n in enumerate(counts):
            if n == 4:
                out.append(ClosedKan(seat, tuple(t for t in p.known if t.kind == k)))
        for m in p.melds:
            if m.kind is MeldKind.PON:
                for t in p.known:
                    if t.kind == m.kind_index:
                        out.append(AddedKan(seat, t))
                        break
        return out

    def _ron_claims(self, tile: Tile, discarder: int, chankan: bool) -> list[RonClaim]:
        g = self.game
        h = g.hand
        assert h is not None
        claims = []
        for s in range(4):
            if s == discarder:
                continue
            p = h.players[s]
            shown = (*p.known, tile)
            if not is_complete(kind_counts(shown)):
                continue
            if judge(kind_counts(p.known), [x.tile for x in p.pond], p.passed, p.passed_since_riichi).is_furiten:
                continue
            from engine.scoring import score_hand

            ctx = win_context(g, s, tile, False, discarder, chankan, (), 0, 0)
            if score_hand(Hand(shown, tuple(p.melds)), ctx, g.rules).is_win:
                claims.append(RonClaim(s, shown))
        return claims

    def _after_kan(self) -> Iterator[Event]:
        g = self.game
        h = g.hand
        assert h is not None and h.kan_tile is not None
        claims = self._ron_claims(h.kan_tile, h.actor, True)
        if claims:
            ev = Ron(tuple(claims), ())
            if self._try(ev):
                yield ev
                return
        yield self.apply(Draw(h.actor, self._rinshan()))
        yield from self._flip_if(ankan=False)

    def _react(self) -> Iterator[Event]:
        g = self.game
        h = g.hand
        assert h is not None and h.last_discard is not None and h.discarder is not None
        tile, d = h.last_discard, h.discarder
        claims = self._ron_claims(tile, d, False)
        if claims:
            ev = Ron(tuple(claims), tuple(self.ura[: len(h.dora_indicators)]))
            if self._try(ev):
                yield ev
                return
        due = g.abort_due()
        if due is not None:
            yield self.apply(AbortiveDraw(due))
            return
        if h.live == 0:
            shown = tuple(
                tuple(p.known) if is_tenpai(kind_counts(p.known), meld_counts(p.melds)) else None for p in h.players
            )
            yield self.apply(ExhaustiveDraw(shown))
            return
        if self.rng.random() < self.call_rate:
            for ev in self._call_options(tile, d):
                if self._try(ev):
                    yield ev
                    if ev.kind is MeldKind.KAN:
                        yield from self._flip_if(ankan=False)
                    return
        nxt = (d + 1) % 4
        yield self.apply(Draw(nxt, self.wall.pop()))

    def _call_options(self, tile: Tile, d: int) -> list[Call]:
        h = self.game.hand
        assert h is not None
        out: list[Call] = []
        for s in range(4):
            if s == d or h.players[s].riichi:
                continue
            known = h.players[s].known
            same = [t for t in known if t.kind == tile.kind]
            if len(same) >= 3 and self.rng.random() < self.kan_rate:
                out.append(Call(s, MeldKind.KAN, (tile, *same[:3])))
            if len(same) >= 2:
                out.append(Call(s, MeldKind.PON, (tile, *same[:2])))
            if s == (d + 1) % 4 and tile.kind < 27:
                n = tile.kind % 9
                for a, b in ((-2, -1), (-1, 1), (1, 2)):
                    if 0 <= n + a <= 8 and 0 <= n + b <= 8:
                        ta = next((t for t in known if t.kind == tile.kind + a), None)
                        tb = next((t for t in known if t.kind == tile.kind + b), None)
                        if ta and tb:
                            out.append(Call(s, MeldKind.CHI, (tile, ta, tb)))
        self.rng.shuffle(out)
        return out


def play_game(
    rules: RuleSet,
    seed: int = 0,
    *,
    max_hands: int = 100,
    check: bool = True,
    on_event: Callable[[Game, Event], None] | None = None,
) -> Game:
    """Play a whole game (or ``max_hands`` hands) and return it."""
    sp = SelfPlay(rules, seed, check=check)
    for ev in sp.events(max_hands):
        if on_event is not None:
            on_event(sp.game, ev)
    return sp.game
