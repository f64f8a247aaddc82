"""Tenhou game records turned into our game events, as a camera at the table would see them.

Two formats: mjlog XML (a whole game, every player's tiles) and client-protocol session logs
(lines ``Get: <...>`` seen from one seat, other seats' draws hidden). Either way only public
events are kept: discards (with whether the drawn tile went straight out), calls, riichi, dora
flips, and the hands shown at a win or an exhaustive draw. Concealed hands stay unknown, except
the logging player's own hand in a session log (``own_hand=True``), which a player may enter.

Each game becomes a ``LoggedGame``: its rules (from the lobby's ``GO type`` bits), names, and a
list of steps: events, plus checks carrying what the server recorded (scores at each deal, score
changes ``sc`` at each hand's end, final scores ``owari``, the server's furiten flag).

Some lobbies give the final game points to 0.1 (scores rounded to hundreds, not thousands), and
nothing in the ``GO`` tag says which: the log states it only in its own final result. So a game
whose ``owari`` has any game-point value with a non-zero tenth digit is replayed with the rule
option ``final_points_step=100``; every other game keeps whole game points.

    games = parse_file("game.mjlog")          # mjlog XML or a session log
    report = replay(games[0])                 # report.agree == report.hands when every hand agrees
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.conformance.tenhou import decode_meld_ids, tile_from_136
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
from engine.game.shape import is_tenpai, kind_counts, meld_counts
from engine.melds import MeldKind
from engine.rules import GameLength, RuleSet, preset
from engine.tiles import Tile

_TAG = re.compile(r"<([A-Za-z]+)(\d*)((?:\s+[\w]+=\"[^\"]*\")*)\s*/?>")
_ATTR = re.compile(r"(\w+)=\"([^\"]*)\"")

_ABORTS = {
    "yao9": Abort.NINE_TERMINALS,
    "kaze4": Abort.FOUR_WINDS,
    "reach4": Abort.FOUR_RIICHI,
    "ron3": Abort.TRIPLE_RON,
    "kan4": Abort.FOUR_KANS,
}


@dataclass(frozen=True)
class DealCheck:
    """At a deal: what the server says the round, honba, sticks, dealer and scores are."""

    round: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, int, int, int]


@dataclass(frozen=True)
class EndCheck:
    """At a hand's end: the server's score changes (summed over a double ron) and scores after."""

    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    points: tuple[int, ...] = ()  # each winner's hand value (``ten``), in order
    owari: tuple[tuple[int, float], ...] | None = None  # final (score, game points) per seat


@dataclass(frozen=True)
class FuritenCheck:
    """The server told the logging player (seat 0) whether they are furiten now."""

    seat: int
    furiten: bool


Step = Event | DealCheck | EndCheck | FuritenCheck


@dataclass
class LoggedGame:
    source: str
    rules: RuleSet
    names: tuple[str, str, str, str]
    first_dealer: int
    steps: list[Step] = field(default_factory=list)
    skipped: str = ""  # why the game cannot be replayed (three-player ...), "" if it can


def rules_for_lobby(go_type: int, attrs: dict[str, str] | None = None) -> tuple[RuleSet, str]:
    """The ``tenhou`` preset adjusted by the lobby's ``GO type`` bits; returns (rules, reason to skip)."""
    attrs = attrs or {}
    if go_type & 0x10:
        return preset("tenhou"), "three-player game"
    over: dict[str, Any] = {}
    if go_type & 0x02:
        over["red_fives"] = (0, 0, 0)
    if go_type & 0x04:
        over["open_tanyao"] = False
    if not go_type & 0x08:
        over["game_length"] = GameLength.EAST
        over["uma"] = (10_000, 5_000, -5_000, -10_000)  # East-only games: uma 5-10
    if go_type in (553, 1569):
        over["kiriage"] = True
    if go_type & 0x200:  # chip (祝儀) lobbies: uma 10-30
        over["uma"] = (30_000, 10_000, -10_000, -30_000)
    if go_type & 0x400:  # as recorded in these lobbies' score changes: 1,500 per honba on a ron
        over.update(honba_ron=1_500, honba_tsumo=500)
    if go_type & 0x800:  # a points-ratio lobby: game points are the exact difference from the start
        over.update(uma=(0, 0, 0, 0), return_points=0, round_final_points=False)
    cs = attrs.get("csrule", "")
    if cs:  # a private lobby's own rules: start, return points and uma after the first fields
        parts = cs.split(",")
        try:
            start = int(parts[4])
            ret = int(parts[5])
            uma = [int(x) for x in parts[21:24]]
            over.update(
                start_points=start,
                return_points=ret,
                round_final_points=False,
                split_tied_uma=True,
                uma=(-sum(uma) * 1000, uma[0] * 1000, uma[1] * 1000, uma[2] * 1000),
            )
        except (IndexError, ValueError):
            return preset("tenhou"), "private lobby rules not understood"
        return preset("tenhou", **over).with_options(name="tenhou-custom"), ""
    return preset("tenhou", **over), ""


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _tags(text: str, session: bool) -> list[tuple[str, str, dict[str, str]]]:
    """(name, number, attributes) of each tag; for a session log only the server's (``Get:``) lines."""
    if session:
        text = "\n".join(line[4:] for line in text.splitlines() if line.startswith("Get:"))
    return [(m.group(1), m.group(2), dict(_ATTR.findall(m.group(3)))) for m in _TAG.finditer(text)]


def parse_log(text: str, source: str = "", *, own_hand: bool = True) -> list[LoggedGame]:
    """Every game in an mjlog XML text or a session log text."""
    session = "Get:" in text[:5000] or text.lstrip().startswith("Send:")
    return _Parser(source, session, own_hand).run(_tags(text, session))


def parse_file(path: str | Path, *, own_hand: bool = True) -> list[LoggedGame]:
    p = Path(path)
    return parse_log(p.read_text(encoding="utf-8", errors="replace"), str(p), own_hand=own_hand)


class _Parser:
    def __init__(self, source: str, session: bool, own_hand: bool) -> None:
        self.source = source
        self.session = session
        self.own_hand = own_hand
        self.games: list[LoggedGame] = []
        self.game: LoggedGame | None = None
        self.red = True
        self.go: tuple[int, dict[str, str]] = (169, {})
        self.names = ("", "", "", "")
        self.dealer0 = 0
        self.last_draw: list[int | None] = [None] * 4
        self.riichi_next: set[int] = set()
        self.dora_seen = 0
        self.agari: list[dict[str, str]] = []
        self.furiten_pending: list[FuritenCheck] = []
        self.furiten_armed = False

    def _new_game(self) -> LoggedGame:
        rules, skip = rules_for_lobby(*self.go)
        g = LoggedGame(self.source, rules, self.names, self.dealer0, skipped=skip)
        self.games.append(g)
        self.red = rules.has_red_fives
        return g

    def tile(self, i: int) -> Tile:
        return tile_from_136(i, self.red)

    def tiles(self, ids: list[int]) -> tuple[Tile, ...]:
        return tuple(self.tile(i) for i in ids)

    def emit(self, step: Step) -> None:
        if self.game is None:
            self.game = self._new_game()
        if isinstance(step, FuritenCheck):
            # The server's flag describes the state once the discard that follows it has been passed
            # (or, sent with the player's own discard, once that discard is made): check it then.
            self.furiten_pending.append(step)
            return
        self.game.steps.append(step)
        if not self.furiten_pending:
            return
        if isinstance(step, Discard):
            self.furiten_armed = True
        elif self.furiten_armed and isinstance(step, Draw | Call):
            self.game.steps.extend(self.furiten_pending)
            self.furiten_pending, self.furiten_armed = [], False
        elif not isinstance(step, DoraFlip):
            self.furiten_pending, self.furiten_armed = [], False

    def run(self, tags: list[tuple[str, str, dict[str, str]]]) -> list[LoggedGame]:
        for name, num, attrs in tags:
            if self.agari and name not in ("AGARI", "PROF", "BYE", "RANKING", "FURITEN", "LN", "UN", "Z"):
                self.flush_agari()
            self.handle(name, num, attrs)
        if self.agari:
            self.flush_agari()
        return [g for g in self.games if any(isinstance(s, HandStart) for s in g.steps) or g.skipped]

    def handle(self, name: str, num: str, a: dict[str, str]) -> None:
        if name == "GO":
            self.go = (int(a.get("type", "169")), a)
            self.game = None
        elif name == "UN" and "n0" in a:
            self.names = tuple(urllib.parse.unquote(a.get(f"n{i}", "")) for i in range(4))  # type: ignore[assignment]
            if self.game is not None and not any(isinstance(s, HandStart) for s in self.game.steps):
                self.game.names = self.names
        elif name == "TAIKYOKU":
            self.dealer0 = int(a.get("oya", "0"))
            self.game = None
        elif name == "INIT":
            self.init(a)
        elif name in "TUVW" and len(name) == 1:
            seat = "TUVW".index(name)
            tid = int(num) if num else None
            self.last_draw[seat] = tid
            seen = tid is not None and (seat == 0 and self.session and self.own_hand)
            self.emit(Draw(seat, self.tile(tid) if seen and tid is not None else None))
        elif name.upper() in ("D", "E", "F", "G") and len(name) == 1 and num:
            seat = "DEFG".index(name.upper())
            tid = int(num)
            if self.session and seat != 0:
                tsumogiri: bool | None = name.islower()
            else:
                tsumogiri = self.last_draw[seat] == tid if self.last_draw[seat] is not None else False
            riichi = seat in self.riichi_next
            self.riichi_next.discard(seat)
            self.last_draw[seat] = None
            self.emit(Discard(seat, self.tile(tid), tsumogiri=tsumogiri, riichi=riichi))
        elif name == "N" and "m" in a:
            self.call(int(a["who"]), int(a["m"]))
        elif name == "REACH":
            if a.get("step") == "1":
                self.riichi_next.add(int(a["who"]))
        elif name == "DORA":
            self.dora_seen += 1
            self.emit(DoraFlip(self.tile(int(a["hai"]))))
        elif name == "AGARI":
            self.agari.append(a)
        elif name == "RYUUKYOKU":
            self.ryuukyoku(a)
        elif name == "FURITEN" and self.session and self.own_hand:
            self.emit(FuritenCheck(0, a.get("show") == "1"))

    def init(self, a: dict[str, str]) -> None:
        if self.game is None:
            self.game = self._new_game()
        seed = _ints(a["seed"])
        ten = _ints(a["ten"])
        dealer = int(a["oya"])
        self.emit(DealCheck(seed[0], seed[1], seed[2], dealer, tuple(t * 100 for t in ten)))  # type: ignore[arg-type]
        hands: list[tuple[Tile, ...] | None] = [None] * 4
        if self.session and self.own_hand and "hai" in a:
            hands[0] = self.tiles(_ints(a["hai"]))
        self.last_draw = [None] * 4
        self.riichi_next = set()
        self.dora_seen = 1
        self.emit(
            HandStart(self.tile(seed[5]), tuple(hands), round=seed[0], honba=seed[1], sticks=seed[2], dealer=dealer)
        )

    def call(self, who: int, code: int) -> None:
        d = decode_meld_ids(code, self.red)
        m = d.meld
        self.last_draw[who] = None if m.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.KAN) else self.last_draw[who]
        if m.kind is MeldKind.KAKAN:
            assert d.added_id is not None
            self.emit(AddedKan(who, self.tile(d.added_id)))
        elif m.kind is MeldKind.ANKAN:
            self.emit(ClosedKan(who, m.tiles))
        else:
            self.emit(Call(who, m.kind, m.tiles))

    def _dora_catch_up(self, a: dict[str, str]) -> None:
        ids = _ints(a.get("doraHai", ""))
        for i in ids[self.dora_seen :]:
            self.emit(DoraFlip(self.tile(i)))
        self.dora_seen = max(self.dora_seen, len(ids))

    def flush_agari(self) -> None:
        group, self.agari = self.agari, []
        first = group[0]
        self._dora_catch_up(first)
        ura = next((self.tiles(_ints(a["doraHaiUra"])) for a in group if a.get("doraHaiUra")), ())
        who, from_who = int(first["who"]), int(first["fromWho"])
        if who == from_who:
            self.emit(Tsumo(who, self.tiles(_ints(first["hai"])), self.tile(int(first["machi"])), ura))
        else:
            claims = tuple(RonClaim(int(a["who"]), self.tiles(_ints(a["hai"]))) for a in group)
            self.emit(Ron(claims, ura))
        self.end_check(group)

    def ryuukyoku(self, a: dict[str, str]) -> None:
        kind = a.get("type", "")
        hands = tuple(self.tiles(_ints(a[f"hai{i}"])) if f"hai{i}" in a else None for i in range(4))
        if kind in ("", "nm"):
            self.emit(ExhaustiveDraw(hands))
        elif kind in _ABORTS:
            reason = _ABORTS[kind]
            if reason is Abort.NINE_TERMINALS:
                seat = next((i for i in range(4) if hands[i] is not None), None)
                self.emit(AbortiveDraw(reason, seat, hands[seat] if seat is not None else None))
            else:
                self.emit(AbortiveDraw(reason))
        else:
            self.emit(AbortiveDraw(Abort.TRIPLE_RON))  # unknown type: let the engine refuse it visibly
        self.end_check([a])

    def end_check(self, group: list[dict[str, str]]) -> None:
        deltas = [0, 0, 0, 0]
        after = [0, 0, 0, 0]
        for a in group:
            sc = _ints(a["sc"])
            for i in range(4):
                deltas[i] += sc[2 * i + 1] * 100
                after[i] = (sc[2 * i] + sc[2 * i + 1]) * 100
        points = tuple(_ints(a["ten"])[1] for a in group if "ten" in a)
        owari = None
        last = group[-1]
        if "owari" in last:
            vals = last["owari"].split(",")
            owari = tuple((int(float(vals[2 * i])) * 100, float(vals[2 * i + 1])) for i in range(4))
            if self.game is not None and any(round(points * 10) % 10 for _, points in owari):
                # game points to 0.1 are the lobby's rule, stated nowhere but in the result itself
                self.game.rules = self.game.rules.with_options(final_points_step=100)
        self.emit(EndCheck(tuple(deltas), tuple(after), points, owari))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- replaying against the engine


@dataclass
class ReplayReport:
    """What one logged game's replay found: hands, hands that agreed, and each disagreement."""

    source: str
    hands: int = 0  # hands with a recorded end (a score change), the ones compared
    partial: int = 0  # hands the record stops in the middle of (their events are still checked)
    agree: int = 0
    wins: int = 0
    furiten_checks: int = 0
    furiten_agree: int = 0
    finished: bool = False
    dealer_stops: int = 0  # games the dealer ended by choice (agari-yame, tenpai-yame)
    dealer_played_on: int = 0  # deals where the dealer could have stopped and played on
    disagreements: list[dict[str, Any]] = field(default_factory=list)


def starting_game(logged: LoggedGame, deal: DealCheck) -> Any:
    """The engine's ``Game`` for a logged game whose first deal is ``deal``: the lobby's rules, with the start
    points the scores show (and a ratio lobby's return points), joined part-way when the record starts mid-game."""
    from engine.game.state import Game
    from engine.game.table import Position

    rules = logged.rules
    if len(set(deal.scores)) == 1 and deal.round == 0 and deal.scores[0] != rules.start_points:
        rules = rules.with_options(start_points=deal.scores[0])
    if rules.return_points == 0:  # a ratio lobby counts from the start
        rules = rules.with_options(return_points=rules.start_points)
    if (deal.round, deal.honba, deal.sticks) != (0, 0, 0) or len(set(deal.scores)) != 1:
        position = Position(deal.round, deal.honba, deal.sticks, deal.dealer, deal.scores)
        return Game(rules, logged.names, logged.first_dealer, position)
    return Game(rules, logged.names, logged.first_dealer)


def replay(logged: LoggedGame) -> ReplayReport:
    """Replay a logged game through the engine and compare every hand with the server's record.

    Where the engine gives the dealer the choice to stop (agari-yame, tenpai-yame), the server's final
    scores (``owari``) mean the dealer stopped (a ``DealerStops`` event) and its next deal that the
    dealer played on.

    A hand agrees when every event is accepted (every real win judged legal: not furiten, with a
    yaku), the deal matches the engine's round, honba, sticks, dealer and scores, and the hand's
    score changes and the scores after it equal the server's. After a disagreement the engine is
    set to the server's next deal, so one error costs one hand.
    """
    from engine.errors import EngineError
    from engine.game.state import Game
    from engine.game.table import Position

    rep = ReplayReport(logged.source)
    game: Game | None = None
    label = ""
    failed = False
    open_hand = False

    def fail(kind: str, detail: str, **extra: Any) -> None:
        nonlocal failed
        if not failed:
            rep.disagreements.append({"source": logged.source, "hand": label, "kind": kind, "detail": detail, **extra})
        failed = True

    for step in logged.steps:
        if isinstance(step, DealCheck):
            rep.partial += 1
            open_hand = True
            label = f"{'ESWN'[step.round // 4 % 4]}{step.round % 4 + 1}-{step.honba}"
            resync = failed
            failed = False
            pos = Position(step.round, step.honba, step.sticks, step.dealer, step.scores)
            if game is None:
                game = starting_game(logged, step)
            elif resync:
                game = Game(game.rules, logged.names, logged.first_dealer, pos)
            elif game.over or (game.round, game.honba, game.sticks, game.dealer, tuple(game.scores)) != (
                step.round,
                step.honba,
                step.sticks,
                step.dealer,
                step.scores,
            ):
                fail(
                    "deal",
                    "the engine's next deal differs from the server's",
                    expected=[step.round, step.honba, step.sticks, step.dealer, list(step.scores)],
                    got=[game.round, game.honba, game.sticks, game.dealer, list(game.scores), game.over],
                )
                game = Game(game.rules, logged.names, logged.first_dealer, pos)
        elif isinstance(step, FuritenCheck):
            if game is None or failed or game.hand is None:
                continue
            f = game.furiten(step.seat)
            if f is None:
                continue
            rep.furiten_checks += 1
            if f.is_furiten == step.furiten:
                rep.furiten_agree += 1
            else:
                rep.disagreements.append(
                    {
                        "source": logged.source,
                        "hand": label,
                        "kind": "furiten-warning",
                        "detail": f"server says furiten={step.furiten}, engine: {f.explain()}",
                    }
                )
        elif isinstance(step, EndCheck):
            if open_hand:
                rep.partial -= 1
                rep.hands += 1
                open_hand = False
            if game is None or failed:
                continue
            last = game.history[-1] if game.history else None
            if last is None:
                fail("end", "the hand did not end in the engine")
                continue
            if tuple(last.deltas) != step.deltas:
                fail("score-change", last.summary(), expected=list(step.deltas), got=list(last.deltas))
                continue
            scores = tuple(last.scores)
            if game.over and game.final_results():
                scores = tuple(r.score - r.sticks for r in sorted(game.final_results() or (), key=lambda r: r.seat))
            if scores != step.scores:
                fail("scores", last.summary(), expected=list(step.scores), got=list(scores))
                continue
            if step.owari is not None and game.dealer_may_stop:
                # the server ended the game where the dealer may stop (agari-yame / tenpai-yame): the dealer stopped
                try:
                    game.apply(DealerStops(dealer=game.dealer))
                except EngineError as exc:
                    fail("refused", str(exc))
                    continue
                rep.dealer_stops += 1
            if step.owari is not None:
                finals = game.final_results()
                if not game.over or finals is None:
                    fail("game-end", "the server ended the game here, the engine did not")
                    continue
                got = [(r.score, r.points) for r in sorted(finals, key=lambda r: r.seat)]
                want = [(s, p) for s, p in step.owari]
                if any(g[0] != w[0] or abs(g[1] - w[1]) > 1e-6 for g, w in zip(got, want, strict=True)):
                    fail("final", "final scores or game points differ", expected=want, got=got)
                    continue
                rep.finished = True
            elif game.over:
                fail("game-end", "the engine ended the game, the server played on")
                continue
            rep.agree += 1
        else:
            if game is None or failed:
                continue
            if isinstance(step, HandStart) and game.dealer_may_stop:
                rep.dealer_played_on += 1
            own = game.known_hand(0) if isinstance(step, ExhaustiveDraw) and step.hands[0] is None else None
            # Tenhou shows every tenpai hand, but a session log does not repeat the logging player's own
            if own is not None and own.size == 13 and is_tenpai(kind_counts(own.concealed), meld_counts(own.melds)):
                step = ExhaustiveDraw((own.concealed, *step.hands[1:]))
            try:
                result = game.apply(step)
            except EngineError as exc:
                if open_hand:  # a refusal is a disagreement, even in a hand the record does not finish
                    rep.hands += 1
                    rep.partial -= 1
                    open_hand = False
                fail("refused", str(exc))
                continue
            if result is not None:
                rep.wins += len(result.wins)
    return rep
