"""Make the bundled demo recording: an overhead camera filming one whole hand, played and won.

    python -m device.lab.demo_make [--out device/demo/recording] [--seed 2026]

East (the seat nearest the camera, at the bottom of the frame) is dealer; South sits on the right, West at the
top, North on the left. The players draw and discard in turn; South pons North's 6z (the called tile sideways in
the middle: from across the table) and the discard leaves North's pond; East declares riichi with a sideways tile
and a point stick; South adds the fourth 6z to its pon (an added kan), draws its replacement from the dead wall
and turns the kan dora indicator; East draws the winning tile and lays the hand down face up, the winning tile set
apart, and turns the ura indicators. Each change is one frame with the player's arm over the table, then the
still table, taken again ``hold`` times. The events are checked against the engine as the recording is made.

Output: JPEG frames of 2028x1520 (non-square: a Pi HQ camera's binned mode, the default capture size) drawn by
:func:`vision.synth.table_render.render_table`, ``labels/*.txt`` (exact YOLO boxes of every tile lying in view,
classes of :mod:`vision.read.labels`) and ``recording.json``::

    {"about", "seed", "size": {"width", "height"}, "fps": 2, "camera_seat": 0,
     "winner": {"seat", "hand", "win_tile", "tsumo", "riichi", "dora_indicators", "ura_indicators", "payments"},
     "frames": [{"file": "000.jpg", "hold": 4, "arm": null | "bottom" | ..., "shows": "...",
                 "events": [engine events in their JSON form (engine.game.events), the change this frame shows]}]}

An arm frame's events are empty: the change shows (and its events are due) once the arm has left. Seeded: the same
seed gives the same frames. ``fps``: the frames a second the holds are counted in (a still table between two
discards 1.5 s); the hand laid down lies open :data:`WIN_HOLD` frames.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from device.demo import RECORDING
from engine.game.events import (
    AddedKan,
    Call,
    Discard,
    DoraFlip,
    Draw,
    Event,
    HandStart,
    Tsumo,
)
from engine.game.state import Game
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from vision.read.table import FrameSide
from vision.synth.table_render import FRAME, TableStyle, render_table
from vision.synth.table_scene import MeldScene, SeatScene, TableScene, Zone

OUT = RECORDING
SEATS = ("E", "S", "W", "N")
#: The game seat at the frame's bottom edge (East): seat s sits at side s.
CAMERA_SEAT = 0
#: Frames a second of the recording: the rate ``hold`` counts in (the camera's default rate).
FPS = 2
#: Frames the winning hand lies open: 5 s, so that ``jantaku run --demo`` settles it (3 frames) and the demo's
#: 3 s to confirm it (:data:`device.commands.run.DEMO_AUTO_CONFIRM_S`, counted on the recording's clock) pass while
#: it lies there, with a frame to spare.
WIN_HOLD = 10

#: The hand East wins with (13 tiles), the tile drawn to win, and the indicators (dora, kan dora; ura under them).
WINNER_HAND = "234m567m345p678s5p"
WIN_TILE = "0p"
DORA_INDICATOR = "4p"
KAN_DORA = "2m"
URA_INDICATORS = "7s1z"

#: The hand, one change a step: ``S-9p`` a draw and discard (``E-2z!`` with riichi), ``S+6z`` a pon of the last
#: discard (``S.1m`` the caller's discard after it: no draw), ``S#6z`` a draw and an added kan with its replacement
#: draw and kan dora, ``E*`` the winning draw laid down.
SCRIPT = (  # noqa: SIM905 - one line of moves reads as the game it plays
    "E-1z S-9p W-4z N-9s E-9m S-1s W-8m N-3m E-2z! S-7z W-2p N-6z S+6z S.1m W-8p N-3z E-4s S#6z S.5s W-1p N-7p E*"
).split()


@dataclass
class Table:
    """What lies on the table, by game seat; :meth:`scene` shows it with :data:`CAMERA_SEAT` at the bottom."""

    hands: list[int] = field(default_factory=lambda: [13] * 4)
    apart: list[bool] = field(default_factory=lambda: [False] * 4)
    ponds: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(4)])
    riichi: list[int | None] = field(default_factory=lambda: [None] * 4)
    melds: list[list[MeldScene]] = field(default_factory=lambda: [[] for _ in range(4)])
    live: int = 70
    dora: list[Tile] = field(default_factory=lambda: [Tile.parse(DORA_INDICATOR)])
    shown: tuple[Tile, ...] | None = None  # the winner's hand laid down
    ura: tuple[Tile, ...] = ()

    def seat(self, s: int) -> SeatScene:
        hand: int | tuple[Tile, ...] = self.hands[s]
        apart: Tile | bool | None = self.apart[s] or None
        if s == 0 and self.shown is not None:
            hand, apart = self.shown, Tile.parse(WIN_TILE)
        riichi = self.riichi[s]
        return SeatScene(hand, apart, tuple(self.melds[s]), tuple(self.ponds[s]), riichi, riichi is not None)

    def scene(self, arm: int | None = None, zone: Zone = Zone.POND, to: int | None = None) -> TableScene:
        return TableScene(
            tuple(self.seat((CAMERA_SEAT + k) % 4) for k in range(4)),  # type: ignore[arg-type]
            live_wall=self.live,
            dora_indicators=tuple(self.dora),
            ura_indicators=self.ura,
            arm=side_of(arm),
            arm_zone=zone,
            arm_to=side_of(to),
        )


def side_of(seat: int | None) -> FrameSide | None:
    """The frame edge a game seat sits at."""
    return None if seat is None else tuple(FrameSide)[(seat - CAMERA_SEAT) % 4]


@dataclass(frozen=True)
class Change:
    """One step of :data:`SCRIPT`: who reaches for what, the events it makes, and what the frame shows."""

    seat: int
    zone: Zone
    to: int | None
    events: tuple[Event, ...]
    shows: str


def play(table: Table, game: Game, token: str, last: tuple[int, Tile] | None) -> Change:
    """Apply one step of :data:`SCRIPT` to ``table`` and ``game`` (which checks it is legal); ``last``: the last
    discard (seat, tile)."""
    seat, op, arg = SEATS.index(token[0]), token[1], token[2:]
    name = SEATS[seat]
    events: list[Event] = []

    def apply(*new: Event) -> None:
        for e in new:
            game.apply(e)
            events.append(e)

    if op in "-.":
        riichi = arg.endswith("!")
        tile = Tile.parse(arg.rstrip("!"))
        if op == "-":
            apply(Draw(seat))
        apply(Discard(seat, tile, riichi=riichi))
        table.ponds[seat].append(tile)
        table.apart[seat] = False
        if riichi:
            table.riichi[seat] = len(table.ponds[seat]) - 1
        shows = f"{name} discards {tile}" + (" declaring riichi" if riichi else "")
        change = Change(seat, Zone.POND, None, (), shows)
    elif op == "+":
        assert last is not None
        source, tile = last
        called = {3: 0, 2: 1, 1: 2}[(source - seat) % 4]  # from the kamicha leftmost, the toimen middle, ...
        apply(Call(seat, MeldKind.PON, (tile,) * 3))
        table.ponds[source].pop()
        table.melds[seat].append(MeldScene((tile,) * 3, called))
        table.hands[seat] -= 2
        change = Change(seat, Zone.POND, source, (), f"{name} pons {SEATS[source]}'s {tile}")
    elif op == "#":
        tile = Tile.parse(arg)
        apply(Draw(seat), AddedKan(seat, tile), Draw(seat), DoraFlip(Tile.parse(KAN_DORA)))
        k = next(i for i, m in enumerate(table.melds[seat]) if m.tiles[0].deaka() == tile.deaka())
        table.melds[seat][k] = dataclasses.replace(table.melds[seat][k], added=tile)
        table.apart[seat] = True
        table.dora.append(Tile.parse(KAN_DORA))
        shows = f"{name} adds {tile} to its pon, draws a replacement tile, turns the kan dora indicator {KAN_DORA}"
        change = Change(seat, Zone.MELDS, None, (), shows)
    elif op == "*":
        apply(Draw(seat))
        hand = parse_tiles(WINNER_HAND)
        win = Tile.parse(WIN_TILE)
        table.live = game.hand.live if game.hand is not None else table.live
        apply(Tsumo(seat, (*hand, win), win, parse_tiles(URA_INDICATORS)))
        table.shown, table.ura = hand, parse_tiles(URA_INDICATORS)
        shows = f"{name} wins by tsumo on {WIN_TILE}: {WINNER_HAND} + {WIN_TILE}, ura indicators {URA_INDICATORS}"
        change = Change(seat, Zone.HAND, None, (), shows)
    else:
        raise ValueError(f"make demo: no step {token!r}")
    if game.hand is not None and op != "*":
        table.live = game.hand.live
    return dataclasses.replace(change, events=tuple(events))


@dataclass(frozen=True)
class Shot:
    """One frame of the recording: the scene, how many times it is taken, what it shows, its events."""

    scene: TableScene
    hold: int
    shows: str
    events: tuple[Event, ...] = ()


def shots() -> tuple[list[Shot], Game]:
    """The recording's frames, in order, and the game the events were applied to (each checked legal)."""
    game = Game(preset("standard"), ("East", "South", "West", "North"))
    table = Table()
    start = HandStart(dora_indicator=Tile.parse(DORA_INDICATOR))
    game.apply(start)
    out = [Shot(table.scene(), 4, f"East 1, dealer East; hands dealt; dora indicator {DORA_INDICATOR}", (start,))]
    last: tuple[int, Tile] | None = None
    for token in SCRIPT:
        before = table.scene()
        change = play(table, game, token, last)
        arm = dataclasses.replace(before, arm=side_of(change.seat), arm_zone=change.zone, arm_to=side_of(change.to))
        out.append(Shot(arm, 1, f"{SEATS[change.seat]} reaches in"))
        out.append(Shot(table.scene(), WIN_HOLD if token.endswith("*") else 3, change.shows, change.events))
        discards = [e for e in change.events if isinstance(e, Discard)]
        last = (discards[-1].seat, discards[-1].tile) if discards else None
    return out, game


def scenes() -> list[TableScene]:
    """The scenes of the recording's frames, in order."""
    return [shot.scene for shot in shots()[0]]


def make(out: Path, seed: int = 2026, quality: int = 88) -> dict:
    style = TableStyle()
    out.mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(exist_ok=True)
    for old in list(out.glob("*.jpg")) + list((out / "labels").glob("*.txt")):
        old.unlink()
    recorded, game = shots()
    frames: list[dict] = []
    for k, shot in enumerate(recorded):
        rendered = render_table(shot.scene, size=FRAME, seed=seed, style=style)
        name = f"{k:03}.jpg"
        cv2.imwrite(str(out / name), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / "labels" / f"{k:03}.txt").write_text("\n".join(rendered.labels) + "\n")
        arm = None if shot.scene.arm is None else shot.scene.arm.value
        events = [e.to_dict() for e in shot.events]
        frames.append({"file": name, "hold": shot.hold, "arm": arm, "shows": shot.shows, "events": events})
    if len(game.history) != 1:
        raise AssertionError("make demo: the hand did not end")
    manifest = {
        "about": "jantaku demo: one whole hand of riichi mahjong seen by an overhead camera (rendered, CC0 tile art)",
        "seed": seed,
        "size": {"width": FRAME[1], "height": FRAME[0]},
        "fps": FPS,
        "camera_seat": CAMERA_SEAT,
        "winner": {"seat": "E", "hand": WINNER_HAND, "win_tile": WIN_TILE, "tsumo": True, "riichi": True,
                   "dora_indicators": DORA_INDICATOR + KAN_DORA, "ura_indicators": URA_INDICATORS,
                   "deltas": list(game.history[0].deltas)},
        "frames": frames,
    }  # fmt: skip
    (out / "recording.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    manifest = make(args.out, args.seed)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"{len(manifest['frames'])} frames, {size / 1e6:.1f} MB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
