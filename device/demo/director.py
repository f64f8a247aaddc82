"""The demo's host: between the recorded hands, other hands; after a game's end, a new game.

The recording (:data:`device.demo.RECORDING`) shows one hand: the player at the camera's bottom edge deals and wins
it by tsumo. Played again and again it is the same hand every minute, the dealer keeps the deal, and the game ends
once the others bust, the camera then following nothing. :class:`DemoDirector` watches the table's game and, after
each result the camera's hand settles, plays the next of :data:`HANDS` into the game as a phone would (a ron, a
tsumo, an exhaustive draw, each by a seat counted from the dealer), so the deal passes round and the winners vary;
it then turns the camera to the dealer (``camera_seat``), so that the recording's dealer is the game's; and when a
game is over it starts the next one. ``jantaku run --demo`` runs it beside the camera loop::

    director = DemoDirector(service)
    director.start()          # a thread looking every ``poll_s`` seconds; or call step() yourself
    ...
    director.stop()
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from engine.game.events import DECLARABLE, DeclaredDraw
from engine.hand import parse_hand
from engine.tiles import Tile
from web.contract import Winner, WinRequest

log = logging.getLogger("jantaku.demo")

#: The demo table's players, East first.
NAMES = ("Aiko", "Ben", "Chen", "Dana")


@dataclass(frozen=True)
class DemoHand:
    """One hand the director plays between the recorded ones. Seats count from the dealer (0: the dealer, 1: the
    player after them); ``winner`` None is an exhaustive draw with the ``tenpai`` seats, ``discarder`` None a
    tsumo. ``hand``: the winner's 14 tiles in mpsz, the winning tile last."""

    what: str
    winner: int | None = None
    discarder: int | None = None
    hand: str = ""
    win_tile: str = ""
    flags: tuple[str, ...] = ()
    tenpai: tuple[int, ...] = ()

    def request(self, dealer: int) -> WinRequest | DeclaredDraw:
        """This hand at a table whose dealer is ``dealer``: the service's ``win`` request, or the draw it records."""
        if self.winner is None:
            return DeclaredDraw(tuple((s - dealer) % 4 in self.tenpai for s in range(4)))
        flags = tuple(f for f in DECLARABLE if f in self.flags)
        winner = Winner((dealer + self.winner) % 4, parse_hand(self.hand), Tile.parse(self.win_tile), flags)
        return WinRequest((winner,), None if self.discarder is None else (dealer + self.discarder) % 4)


#: The hands played between the recorded ones, in turn; each passes the deal on (the dealer neither wins nor is
#: tenpai), so the recorded hand that follows is won by the next player.
HANDS = (
    DemoHand(
        "ron: riichi, pinfu, tanyao", winner=1, discarder=2, hand="234m567p23488s678s", win_tile="8s", flags=("riichi",)
    ),
    DemoHand("exhaustive draw, two tenpai", tenpai=(1, 3)),
    DemoHand("tsumo: pinfu, tanyao", winner=2, hand="234m456p678s23s55p4s", win_tile="4s"),
    DemoHand("ron: red dragons, toitoi, sanankou", winner=3, discarder=1, hand="222m444p666s99p777z", win_tile="7z"),
    DemoHand("tsumo: riichi, pinfu, iipeikou", winner=1, hand="112233m456p78s99p9s", win_tile="9s", flags=("riichi",)),
)


class DemoDirector:
    """Keeps the demo's table going: a hand of :data:`HANDS` after each result the camera settles, the camera turned
    to the dealer, a new game after the last one. ``step()`` does what is due now; ``start()`` calls it every
    ``poll_s`` seconds in a thread until ``stop()``."""

    def __init__(self, service: Any, *, hands: tuple[DemoHand, ...] = HANDS, poll_s: float = 0.2) -> None:
        self.service = service
        self.hands = hands
        self.poll_s = poll_s
        self.played = 0  #: hands of :data:`HANDS` played so far
        self.games = 0  #: new games started
        self._settled = self._results()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _results(self) -> tuple[int, int]:
        return self.service.game.game_id, len(self.service.game.game.history)

    def step(self) -> str | None:
        """Do what is due: a new game after the last one ended, else a hand after a result the camera settled.
        Returns what it did (None: nothing was due)."""
        game = self.service.game.game
        if game.over:
            self.service.new_game(self.service.rules, NAMES)
            self.games += 1
            self._face_the_dealer()
            self._settled = self._results()
            return "a new game"
        if game.hand is not None or self._results() == self._settled:
            return None  # a hand in play, or nothing settled since the last look
        hand = self.hands[self.played % len(self.hands)]
        request = hand.request(game.dealer)
        if isinstance(request, WinRequest):
            self.service.win(request)
        else:
            self.service.record(request)
        self.played += 1
        if not self.service.game.game.over:
            self._face_the_dealer()
        self._settled = self._results()
        log.info("demo: %s", hand.what)
        return hand.what

    def _face_the_dealer(self) -> None:
        """The recording's dealer sits at the camera's bottom edge: the game's dealer sits there now."""
        self.service.set_camera_seat(self.service.game.game.dealer)

    def start(self) -> None:
        """Seat the demo's players (a new game, unless one is under way), then look every ``poll_s`` seconds."""
        if not self.service.game.game.history:
            self.service.new_game(self.service.rules, NAMES)
            self._face_the_dealer()
            self._settled = self._results()
        self._thread = threading.Thread(target=self._run, name="jantaku-demo", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self.step()
            except Exception:  # the demo goes on: a refused hand is logged, the next look tries again
                log.exception("demo: the next hand could not be played")

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
