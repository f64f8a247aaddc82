"""Calls: shapes and direction, priority between claims, kuikae (001's examples), refused calls."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.game.calls import Claim, ClaimKind, call_shape_error, kuikae_forbidden, resolve_claims
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from tests.engine.game.scenario import deal, play


@pytest.mark.parametrize(
    ("kind", "called", "meld", "forbidden"),
    [
        (MeldKind.CHI, "3p", "345p", "36p"),  # 001: chi 3p with 45p: not 3p (genbutsu) nor 6p (suji)
        (MeldKind.CHI, "1m", "123m", "14m"),  # 001: chi 1m with 23m: not 1m nor 4m
        (MeldKind.CHI, "5s", "456s", "5s"),  # 001: chi 5s with 46s: 5s only, no suji for a middle call
        (MeldKind.PON, "7p", "777p", "7p"),  # 001: pon 7p: not 7p
        (MeldKind.CHI, "1p", "123p", "14p"),  # 000: call 1p for 123p, then a 4p discard is not allowed
        (MeldKind.CHI, "7s", "789s", "7s"),  # called at the low end of 7-8-9: nothing beyond 9
        (MeldKind.CHI, "9m", "789m", "69m"),
        (MeldKind.CHI, "7m", "567m", "47m"),
        (MeldKind.CHI, "3m", "123m", "3m"),  # ... 1-2-3 called on 3: no 0m below
        (MeldKind.CHI, "0p", "345p", "25p"),  # a red five is its kind; 2p is the suji
        (MeldKind.PON, "1z", "111z", "1z"),
        (MeldKind.KAN, "1z", "1111z", ""),  # a kan is followed by a replacement draw
    ],
)
def test_kuikae_forbidden(kind: MeldKind, called: str, meld: str, forbidden: str) -> None:
    got = kuikae_forbidden(kind, Tile.parse(called), parse_tiles(meld))
    assert sorted(got) == sorted({t.kind for t in parse_tiles(forbidden)})


# Seat 3 holds 2233m5667p88p456s and can chi seat 2's 4p with 56p, or pon 2m.
@pytest.mark.parametrize(
    ("script", "rules", "refused"),
    [
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p56p 3-7p", "standard", "kuikae"),  # suji of 4p-5p-6p
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p56p 3-6p", "standard", ""),  # 6p is the meld's own, allowed
        ("0+9m 0-9m 1+9p 1-9p 2+7p 2-7p 3chi:7p56p 3-7p", "standard", "kuikae"),  # genbutsu after a chi
        ("0+9m 0-9m 1+9p 1-9p 2+7p 2-7p 3chi:7p56p 3-4p", "standard", "kuikae"),  # suji below 5-6-7
        ("0+9m 0-9m 1+9p 1-9p 2+7p 2-7p 3chi:7p56p 3-4p", "wrc", "kuikae"),
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p56p 3-7p", "tenhou", ""),  # Tenhou allows kuikae
        ("0+2m 0-2m 3pon:2m22m 3-2m", "standard", "kuikae"),
        ("0+2m 0-2m 3pon:2m22m 3-3m", "standard", ""),
        ("0+2m 0-2m 2pon:2m22m", "standard", "the caller must hold"),  # seat 2 has no 2m
        ("0+2m 0-2m 2chi:2m34m", "standard", "chi only from the player on the left"),
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p57p", "standard", "three in a row"),
        ("0+9m 0-9m 0pon:9m99m", "standard", "own discard"),
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3+? 3-1s 3chi:1s23s", "standard", "own discard"),
        ("0+9m 0-9m 1+9p 1r-9p 2+2m 2-2m 1pon:2m22m", "standard", "in riichi"),
    ],
)
def test_calls_in_play(script: str, rules: str, refused: str) -> None:
    g = deal(rules)
    *before, last = script.split()
    play(g, " ".join(before))
    if refused:
        with pytest.raises(IllegalAction, match=refused):
            play(g, last)
    else:
        play(g, last)
        g.validate()


def test_claim_priority() -> None:
    claims = [Claim(1, ClaimKind.CHI), Claim(3, ClaimKind.PON), Claim(2, ClaimKind.RON)]
    assert resolve_claims(0, claims) == (Claim(2, ClaimKind.RON),)
    assert resolve_claims(0, [Claim(1, ClaimKind.CHI), Claim(3, ClaimKind.KAN)]) == (Claim(3, ClaimKind.KAN),)
    two = [Claim(3, ClaimKind.RON), Claim(2, ClaimKind.RON)]
    assert resolve_claims(1, two, preset("standard")) == (Claim(2, ClaimKind.RON), Claim(3, ClaimKind.RON))
    assert resolve_claims(1, two, preset("wrc")) == (Claim(2, ClaimKind.RON),)  # head-bump: nearest in turn
    assert resolve_claims(3, two, preset("wrc")) == (Claim(2, ClaimKind.RON),)
    assert resolve_claims(0, [Claim(0, ClaimKind.PON)]) == ()


@pytest.mark.parametrize(
    ("kind", "tiles", "caller", "discarder", "why"),
    [
        (MeldKind.CHI, "345p", 1, 0, ""),
        (MeldKind.CHI, "345p", 2, 0, "left"),
        (MeldKind.CHI, "891p", 1, 0, "three in a row"),
        (MeldKind.CHI, "123z", 1, 0, "three in a row"),
        (MeldKind.PON, "3p33p", 3, 0, ""),
        (MeldKind.PON, "3p34p", 3, 0, "of one kind"),
        (MeldKind.KAN, "3333p", 2, 0, ""),
        (MeldKind.KAN, "333p", 2, 0, "4 tiles"),
        (MeldKind.ANKAN, "3333p", 2, 0, "not called"),
    ],
)
def test_call_shapes(kind: MeldKind, tiles: str, caller: int, discarder: int, why: str) -> None:
    ts = parse_tiles(tiles)
    assert (
        (why in call_shape_error(kind, ts, ts[0], caller, discarder))
        if why
        else not call_shape_error(kind, ts, ts[0], caller, discarder)
    )


@pytest.mark.parametrize(("rules", "refused"), [("standard", True), ("tenhou", False)])
def test_a_call_that_leaves_only_forbidden_discards(rules: str, refused: bool) -> None:
    # seat 3 pons three times down to 44p56p; a chi of 4p with 56p would leave 44p, all kuikae
    hands = ("112233z6677z99s8s", "", "", "11m22m33m44p56p789s")
    g = deal(rules, hands=hands)
    play(
        g,
        "0+1m 0-1m 3pon:1m11m 3-7s 0+2m 0-2m 3pon:2m22m 3-8s 0+3m 0-3m 3pon:3m33m 3-9s 0+5z 0-5z* 1+? 1-1s 2+4p 2-4p",
    )
    if refused:
        with pytest.raises(IllegalAction, match="no tile could be discarded"):
            play(g, "3chi:4p56p")
    else:
        play(g, "3chi:4p56p 3-4p")
