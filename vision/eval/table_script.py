"""A Tenhou game record as a camera over the table would film it: for each hand, the table scenes in order and the
public engine events they should make.

    games = script_file("game.mjlog")               # one GameScript per game in the file
    for hand in games[0].hands:
        hand.shots     # Shot(scene, frames, lands): a TableScene held for `frames` camera frames
        hand.events    # the public engine events in order, as a camera game would apply them

Seats: the camera's own seat (``camera_seat``, 0) sits at the frame's bottom edge, the others round the table in
the order of play (right is the next seat). Each change at the table is filmed as an arm frame (the table as it was,
an arm reaching in from the acting seat's side) followed by the changed table held still for ``still`` frames;
the first still frame is where the change "lands" (``Shot.lands``: the index of the event it shows in
``HandScript.events``). The arm reaches for the zone that changes (``TableScene.arm_zone``, ``arm_to``): its own
pond for a discard, the discarder's pond for a call, its melds for a kan, the dead wall for an indicator, its hand
for a win. Each hand's wall is broken where the dealer's dice (seeded by the record and the hand) say. The changes:

- a deal: the table cleared (no tiles: the tiles go into the machine), then the fresh deal: 13 standing tiles per
  seat, the live wall full (70), the first dora indicator face up;
- a turn: the draw and the discard together (the wall one shorter, the pond one longer); the riichi tile lies
  sideways (a called riichi tile: the seat's next discard lies sideways), its stick lies in front of the pond once
  the discard has passed (the next draw or call);
- a call: the meld at the caller's right, the called tile sideways pointing at the discarder (leftmost from the
  kamicha, middle from the toimen, rightmost from the shimocha), the discard gone from the pond;
- a closed kan (with the draw before it): four tiles, the two ends face down; an added kan: the fourth tile added
  to the pon (``MeldScene.added``); a kan dora indicator turned: its own change;
- a win: the winner's concealed tiles laid face up, the winning tile set apart at their right (a ron's tile taken
  from the discarder's pond, or from the added kan it robs); after a riichi win the ura indicators turned, as one
  more change;
- an exhaustive draw: the tenpai hands laid face up; nine terminals: the declarer's hand (its 14 tiles) face up.

The events (:attr:`HandScript.events`) are the record's public events as a camera game applies them: a bare
``HandStart(dora_indicator)``, ``Draw(seat)`` with the tile unknown, ``Discard(seat, tile, riichi=...)`` with
tsumogiri unknown, and ``Call``, ``AddedKan``, ``ClosedKan``, ``DoraFlip``, ``Ron``, ``Tsumo``, ``ExhaustiveDraw``,
``AbortiveDraw`` as recorded. The camera's events compared with them (:data:`COMPARED`) are those a camera sees
happen: the hand start (its dora indicator), discards (riichi included), calls, kans and dora flips; draws are the
engine's own inference, and the hands' ends are compared by the points they move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.conformance.tenhou_games import DealCheck, EndCheck, LoggedGame, parse_file, starting_game
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
    Tsumo,
)
from engine.rules import RuleSet
from engine.tiles import Tile
from vision.read.table import FrameSide
from vision.synth.table_scene import DEAD_WALL_TILES, WALL_TILES, MeldScene, SeatScene, TableScene, Zone

#: Frames the changed table is held still after each change (the gate passes the second, the follower settles on
#: the third).
STILL = 4
#: Frames a finished hand lies still (its points counted) before the table is cleared: longer than a camera game
#: waits before a result laid down confirms itself (3 s at the camera's 2 frames a second).
END_STILL = 12
#: The engine events a camera's events are compared with, in order.
COMPARED = (HandStart, Discard, Call, AddedKan, ClosedKan, DoraFlip)
#: The events that end a hand (compared by the points they move).
ENDINGS = (Ron, Tsumo, ExhaustiveDraw, AbortiveDraw)

_SIDES = tuple(FrameSide)
_LIVE_WALL = WALL_TILES - DEAD_WALL_TILES - 13 * 4


@dataclass(frozen=True)
class Shot:
    """One scene as the camera films it, held for ``frames`` frames; ``lands``: the index (into the hand's events)
    of the last event whose change this scene is the first still frame of (None: an arm frame, or no event)."""

    scene: TableScene
    frames: int = 1
    lands: int | None = None


@dataclass
class HandScript:
    """One hand: its label (``E1-0``), the record's deal and end checks, the shots, the public events."""

    label: str
    deal: DealCheck
    shots: list[Shot] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    end: EndCheck | None = None

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.shots)


@dataclass
class GameScript:
    """A logged game filmed: where it came from, its rules and names, its hands in order."""

    source: str
    logged: LoggedGame
    hands: list[HandScript] = field(default_factory=list)

    @property
    def rules(self) -> RuleSet:
        return self.logged.rules

    def start_game(self) -> Any:
        """A fresh ``engine.game.state.Game`` as the record starts (the lobby's rules, joined part-way if the record
        starts mid-game); None for a game with no hand."""
        return starting_game(self.logged, self.hands[0].deal) if self.hands else None


def script_file(
    path: str | Path, *, still: int = STILL, end_still: int = END_STILL, camera_seat: int = 0
) -> list[GameScript]:
    """Every replayable game of a Tenhou mjlog XML file, filmed (games the engine cannot play, such as
    three-player ones, are left out)."""
    return [
        script_game(g, still=still, end_still=end_still, camera_seat=camera_seat)
        for g in parse_file(path)
        if not g.skipped
    ]


def script_game(
    logged: LoggedGame, *, still: int = STILL, end_still: int = END_STILL, camera_seat: int = 0
) -> GameScript:
    """One logged game filmed hand by hand (a hand the record stops in the middle of is kept as far as it goes); a
    hand's last scene (its end laid down) is held ``end_still`` frames."""
    if still < 1 or end_still < still:
        raise ValueError(f"a change lies still at least one frame, a hand's end as long: not {still}, {end_still}")
    out = GameScript(logged.source, logged)
    film: _Film | None = None
    for step in logged.steps:
        if isinstance(step, DealCheck):
            hand = HandScript(f"{'ESWN'[step.round // 4 % 4]}{step.round % 4 + 1}-{step.honba}", step)
            out.hands.append(hand)
            dice = random.Random(f"{Path(logged.source).name}#{len(out.hands)}")  # the same wherever the file lies
            film = _Film(hand, still, camera_seat, dice.randint(1, 6) + dice.randint(1, 6))
        elif isinstance(step, EndCheck):
            if out.hands:
                out.hands[-1].end = step
                shots = out.hands[-1].shots
                shots[-1] = replace(shots[-1], frames=max(shots[-1].frames, end_still))
        elif isinstance(step, Event) and film is not None:
            film.take(step)
    return out


def expected_game(script: GameScript) -> Any:
    """The engine ``Game`` after every hand's events, as the record played them (the dealer stopping where the
    record ends the game and the rules let the dealer choose). Raises ``IllegalAction`` at an event the engine
    refuses."""
    game = script.start_game()
    for hand in script.hands:
        for event in hand.events:
            game.apply(event)
        if hand.end is not None and hand.end.owari is not None and game.dealer_may_stop:
            game.apply(DealerStops(dealer=game.dealer))
    return game


def compared(events: Iterable[Event]) -> list[Event]:
    """The events a camera's are compared with (:data:`COMPARED`), in order."""
    return [e for e in events if isinstance(e, COMPARED)]


def event_key(event: Event) -> tuple:
    """What must agree for a camera's event to recover an expected one: the kind, the seat, the tiles (red fives
    told apart; a meld's in any order), riichi; not tsumogiri (a camera cannot always see it) nor a hand start's
    cross-checks."""
    if isinstance(event, HandStart):
        return ("hand_start", str(event.dora_indicator))
    if isinstance(event, Discard):
        return ("discard", event.seat, str(event.tile), event.riichi)
    if isinstance(event, Call):
        return ("call", event.seat, event.kind.value, tuple(sorted(map(str, event.tiles))))
    if isinstance(event, ClosedKan):
        return ("closed_kan", event.seat, tuple(sorted(map(str, event.tiles))))
    if isinstance(event, AddedKan):
        return ("added_kan", event.seat, str(event.tile))
    if isinstance(event, DoraFlip):
        return ("dora_flip", str(event.indicator))
    return (event.type, repr(event))


def scene_tiles(scene: TableScene) -> int:
    """The tiles a scene accounts for: hands (set-apart tiles included), melds, ponds, the live wall and the dead
    wall (its indicators among its 14); 0 for a cleared table."""
    total = 0
    for seat in scene.seats:
        total += seat.hand if isinstance(seat.hand, int) else len(seat.hand)
        total += 0 if seat.apart is None or seat.apart is False else 1
        total += sum(len(m.tiles) + (m.added is not None) for m in seat.melds) + len(seat.pond)
    if total == 0 and scene.live_wall == 0 and not scene.dora_indicators:
        return 0
    return total + scene.live_wall + DEAD_WALL_TILES


# --- filming one hand ------------------------------------------------------------------------------------------


def _minus_one(tiles: Sequence[Tile], tile: Tile) -> tuple[Tile, ...]:
    """``tiles`` without one copy of ``tile`` (the same red-ness first, else any of its kind)."""
    rest = list(tiles)
    for same in (lambda t: t == tile, lambda t: t.deaka() == tile.deaka()):
        at = next((i for i, t in enumerate(rest) if same(t)), None)
        if at is not None:
            del rest[at]
            return tuple(rest)
    raise ValueError(f"{tile} is not among the tiles shown")


def _laid(tiles: Sequence[Tile], called: Tile, index: int) -> tuple[Tile, ...]:
    """A called meld in its owner's reading order: the called tile at ``index``, the others in order beside it."""
    others = list(_minus_one(tiles, called))
    others.sort(key=lambda t: (t.deaka().kind, t != t.deaka()))
    return (*others[:index], called, *others[index:])


def _closed_kan(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """A closed kan's four tiles with any red five in the middle, face up (the ends lie face down)."""
    ordered = sorted(tiles, key=lambda t: t == t.deaka())
    return (ordered[2], ordered[0], ordered[1], ordered[3])


class _Film:
    """The table of one hand as events change it, and the shots that show each change."""

    def __init__(self, hand: HandScript, still: int, camera_seat: int, dice: int) -> None:
        self.hand = hand
        self.still = still
        self.camera_seat = camera_seat
        # the dealer's dice: the wall in front of the seat they count to is broken that many stacks from its right
        self.wall_break = (self.side((hand.deal.dealer + dice - 1) % 4), dice)
        self.counts = [13] * 4  # concealed tiles standing
        self.shown: dict[int, tuple[tuple[Tile, ...], Tile | None]] = {}  # seat -> (tiles face up, set apart)
        self.melds: list[list[MeldScene]] = [[] for _ in range(4)]
        self.ponds: list[list[Tile]] = [[] for _ in range(4)]
        self.riichi: list[int | None] = [None] * 4
        self.sideways_next = [False] * 4  # the riichi tile was called: the next discard lies sideways
        self.sticks = [False] * 4
        self.declaring: int | None = None  # a riichi discard not passed yet
        self.live = _LIVE_WALL
        self.dora: list[Tile] = []
        self.ura: tuple[Tile, ...] = ()
        self.last_discard: int | None = None
        self.last_added: tuple[int, int] | None = None  # (seat, meld index) of an added kan open to a chankan
        self.kan_seat = 0
        self.scene = TableScene(seats=(SeatScene(hand=0),) * 4, live_wall=0)  # the cleared table

    def side(self, seat: int) -> FrameSide:
        return _SIDES[(seat - self.camera_seat) % 4]

    def seat_scene(self, seat: int) -> SeatScene:
        hand: int | tuple[Tile, ...] = self.counts[seat]
        apart: Tile | None = None
        if seat in self.shown:
            hand, apart = self.shown[seat]
        return SeatScene(
            hand=hand,
            apart=apart,
            melds=tuple(self.melds[seat]),
            pond=tuple(self.ponds[seat]),
            riichi=self.riichi[seat],
            stick=self.sticks[seat],
        )

    def film(self, actor: int | None, lands: int, zone: Zone = Zone.POND, at: int | None = None) -> None:
        """The change just made: an arm from ``actor``'s side over ``zone`` of seat ``at`` (None: the actor's own;
        the dead wall: where the wall was broken) on the table as it was, then the new table held still."""
        if actor is not None:
            to = self.wall_break[0] if zone is Zone.DEAD_WALL else None if at is None else self.side(at)
            self.hand.shots.append(Shot(replace(self.scene, arm=self.side(actor), arm_zone=zone, arm_to=to)))
        seats = tuple(self.seat_scene((self.camera_seat + turns) % 4) for turns in range(4))
        self.scene = TableScene(
            seats=seats,  # type: ignore[arg-type]
            live_wall=self.live,
            dora_indicators=tuple(self.dora),
            ura_indicators=self.ura,
            wall_break=self.wall_break,
        )
        self.hand.shots.append(Shot(self.scene, self.still, lands))

    def record(self, event: Event) -> int:
        self.hand.events.append(event)
        return len(self.hand.events) - 1

    def passed(self) -> None:
        """A riichi discard not robbed: its stick goes down."""
        if self.declaring is not None:
            self.sticks[self.declaring] = True
            self.declaring = None

    def take(self, event: Event) -> None:
        if isinstance(event, HandStart):
            self.hand.shots.append(Shot(self.scene, self.still))  # the table cleared
            assert event.dora_indicator is not None
            self.dora = [event.dora_indicator]
            self.film(None, self.record(HandStart(dora_indicator=event.dora_indicator)))
        elif isinstance(event, Draw):
            self.passed()
            self.live -= 1
            self.counts[event.seat] += 1
            self.record(Draw(event.seat))
        elif isinstance(event, Discard):
            self.discard(event)
        elif isinstance(event, Call):
            self.passed()
            self.call(event)
        elif isinstance(event, AddedKan):
            self.added_kan(event)
        elif isinstance(event, ClosedKan):
            self.counts[event.seat] -= 4
            self.melds[event.seat].append(MeldScene(_closed_kan(event.tiles)))
            self.kan_seat = event.seat
            self.film(event.seat, self.record(event), Zone.MELDS)
        elif isinstance(event, DoraFlip):
            self.dora.append(event.indicator)
            self.film(self.kan_seat, self.record(event), Zone.DEAD_WALL)
        elif isinstance(event, Tsumo):
            self.show(event.seat, _minus_one(event.hand, event.win_tile), event.win_tile)
            self.film(event.seat, self.record(event), Zone.HAND)
            self.turn_ura(event.seat, event.ura_indicators)
        elif isinstance(event, Ron):
            self.ron(event)
        elif isinstance(event, ExhaustiveDraw):
            self.passed()
            for seat, tiles in enumerate(event.hands):
                if tiles is not None:
                    self.show(seat, tuple(tiles), None)
            self.film(None, self.record(event), Zone.HAND)
        elif isinstance(event, AbortiveDraw):
            self.passed()
            if event.reason is Abort.NINE_TERMINALS and event.seat is not None and event.hand is not None:
                self.show(event.seat, tuple(event.hand), None)
                self.film(event.seat, self.record(event), Zone.HAND)
            else:
                self.record(event)

    def show(self, seat: int, tiles: tuple[Tile, ...], apart: Tile | None) -> None:
        self.shown[seat] = (tiles, apart)

    def discard(self, event: Discard) -> None:
        s = event.seat
        self.counts[s] -= 1
        self.ponds[s].append(event.tile)
        if event.riichi or self.sideways_next[s]:
            self.riichi[s] = len(self.ponds[s]) - 1
            self.sideways_next[s] = False
        if event.riichi:
            self.declaring = s
        self.last_discard, self.last_added = s, None
        self.film(s, self.record(Discard(s, event.tile, riichi=event.riichi)))

    def call(self, event: Call) -> None:
        s, source = event.seat, self.last_discard
        if source is None or not self.ponds[source]:
            raise ValueError(f"{event} with no discard to call")
        called = self.ponds[source].pop()
        if self.riichi[source] == len(self.ponds[source]):
            self.riichi[source] = None
            self.sideways_next[source] = True
        relative = (source - s) % 4  # 3: kamicha (leftmost), 2: toimen (middle), 1: shimocha (rightmost)
        index = {3: 0, 2: 1, 1: len(event.tiles) - 1}[relative]
        self.melds[s].append(MeldScene(_laid(event.tiles, called, index), called=index))
        self.counts[s] -= len(event.tiles) - 1
        self.last_discard = None
        self.kan_seat = s
        self.film(s, self.record(event), Zone.POND, source)  # the arm takes the tile from the discarder's pond

    def added_kan(self, event: AddedKan) -> None:
        s = event.seat
        kind = event.tile.deaka()
        at = next(
            i
            for i, m in enumerate(self.melds[s])
            if m.added is None and m.called is not None and len(m.tiles) == 3 and m.tiles[0].deaka() == kind
        )
        self.melds[s][at] = replace(self.melds[s][at], added=event.tile)
        self.counts[s] -= 1
        self.last_added, self.kan_seat = (s, at), s
        self.film(s, self.record(event), Zone.MELDS)

    def ron(self, event: Ron) -> None:
        if self.last_added is not None:  # 搶槓: the added tile is robbed, the kan goes back to a pon
            seat, at = self.last_added
            tile = self.melds[seat][at].added
            assert tile is not None
            self.melds[seat][at] = replace(self.melds[seat][at], added=None)
        else:
            if self.last_discard is None:
                raise ValueError(f"{event} with no discard to win on")
            pond = self.ponds[self.last_discard]
            tile = pond.pop()
            if self.riichi[self.last_discard] == len(pond):  # a riichi discard robbed: no riichi, no stick
                self.riichi[self.last_discard] = None
                self.declaring = None
        for i, claim in enumerate(event.claims):
            concealed = _minus_one(claim.hand, tile) if len(claim.hand) % 3 == 2 else tuple(claim.hand)
            self.show(claim.seat, concealed, tile if i == 0 else None)  # one tile: set apart by the first winner
        self.film(event.claims[0].seat, self.record(event), Zone.HAND)
        self.turn_ura(event.claims[0].seat, event.ura_indicators)

    def turn_ura(self, seat: int, ura: tuple[Tile, ...]) -> None:
        if ura:
            self.ura = tuple(ura)
            self.film(seat, len(self.hand.events) - 1, Zone.DEAD_WALL)
