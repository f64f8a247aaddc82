"""Event-stream slots (:class:`web.guard.StreamSlots`): a new stream of the same tab replaces the old one, a phone
at its address's limit gives up its own oldest stream, and streams whose client has gone are given back first."""

from __future__ import annotations

import pytest

from web.guard import NoStreamSlot, StreamSlots

A, B = "10.0.0.1", "10.0.0.2"

CASES = [
    # held before (address, tab, phone, gone), the new stream (address, tab, phone), what happens to each held one
    # (None: kept; else why it ended), or "429" when the new one is refused
    ([(A, "t1", "p1", False)], (A, "t1", "p1"), ["replaced"]),  # the same tab: the newest stream wins
    ([(A, "t1", "p1", False)], (A, "t2", "p1"), [None]),  # another tab with room: both kept
    ([(A, "t1", "p1", False)], (B, "t1", "p1"), [None]),  # a tab id is an address's own
    ([(A, "t1", "p1", False), (A, "t2", "p1", False)], (A, "t3", "p1"), ["replaced", None]),  # full: its oldest
    ([(A, "t1", "p2", False), (A, "t2", "p1", False)], (A, "t3", "p1"), [None, "replaced"]),  # its own, not p2's
    ([(A, "t1", "p2", False), (A, "t2", "p2", False)], (A, "t3", "p1"), "429"),  # another phone's: refused
    ([(A, "t1", "p2", True), (A, "t2", "p2", False)], (A, "t3", "p1"), ["gone", None]),  # a gone client's freed
    ([(A, None, None, False), (A, None, None, False)], (A, None, None), "429"),  # nothing known: refused
]


@pytest.mark.parametrize(("held", "new", "expected"), CASES)
def test_who_gives_way_to_a_new_stream(held, new, expected):
    slots = StreamSlots(total=8, reserved=1, per_address=2)
    taken = [slots.take(a, joined=True, tab=t, phone=p, gone=(lambda g=gone: g)) for a, t, p, gone in held]
    address, tab, phone = new
    if expected == "429":
        with pytest.raises(NoStreamSlot, match="already has 2"):
            slots.take(address, joined=True, tab=tab, phone=phone)
        assert [s.ended.is_set() for s in taken] == [False] * len(taken)
        return
    slots.take(address, joined=True, tab=tab, phone=phone)
    assert [s.why or None for s in taken] == expected
    assert [s.ended.is_set() for s in taken] == [why is not None for why in expected]
    assert slots.held() == len(held) + 1 - sum(why is not None for why in expected)


def test_a_slot_given_back_twice_counts_once():
    slots = StreamSlots(total=4, reserved=1, per_address=2)
    slot = slots.take(A, joined=False)
    slot()
    slot()
    assert (slots.held(), slots.guests) == (0, 0)
