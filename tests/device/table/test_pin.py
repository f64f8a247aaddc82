"""The table's PIN: made with secrets, at least 6 digits, and wrong guesses slowed per address (never for everyone)."""

from __future__ import annotations

import heapq

import pytest

from device.table.pin import PinGuard, guess_days, new_pin, pin_problem
from device.table.service import PinLocked, TableService


@pytest.mark.parametrize(
    ("pin", "ok"),
    [
        ("024680", True),  # six digits, a leading zero kept
        ("123456789012", True),  # twelve
        ("2468", False),  # four: 822 guesses found one from 200 addresses
        ("24680", False),
        ("1234567890123", False),  # thirteen
        ("１２３４５６", False),  # full-width digits are digits to isdigit(), not to a keypad
        ("12a456", False),
    ],
)
def test_pin_problem(pin, ok):
    assert (pin_problem(pin) is None) is ok


@pytest.mark.parametrize("digits", [6, 8])
def test_new_pin_is_random_digits(digits):
    pins = {new_pin(digits) for _ in range(20)}
    assert all(len(p) == digits and pin_problem(p) is None for p in pins) and len(pins) > 1


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("wrong", "wait_s"),
    [
        (1, 0.0),  # typos are free ...
        (4, 0.0),
        (5, 2.0),  # ... until the ``attempts``-th: the first wait
        (6, 4.0),  # doubling
        (15, 2048.0),
        (16, 3600.0),  # up to max_wait_s
        (1000, 3600.0),
    ],
)
def test_each_wrong_pin_doubles_the_wait_of_its_address(wrong, wait_s):
    assert PinGuard().wait_after(wrong) == wait_s


def test_wrong_pins_from_many_addresses_never_stop_another_address():
    clock = Clock()
    svc = TableService(pin="864213", pin_guard=PinGuard(clock=clock))
    for address in range(40):
        for guess in range(10):  # each address guesses until it waits
            try:
                assert not svc.check_pin(f"{address:03d}{guess:03d}", client=f"10.0.0.{address}")
            except PinLocked:
                break
    with pytest.raises(PinLocked, match="from this phone"):
        svc.check_pin("864213", client="10.0.0.7")  # a guessing address waits, even with the right PIN
    assert svc.check_pin("864213", client="10.0.9.9")  # any other address tries at once
    svc.close()


def test_the_right_pin_starts_an_address_afresh():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for _ in range(guard.attempts):
        guard.failed("10.0.0.1")
    guard.succeeded("10.0.0.1")
    guard.failed("10.0.0.1")
    assert guard.wait_s("10.0.0.1") is None


def test_an_address_that_stops_guessing_is_forgotten_after_a_day():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for _ in range(guard.attempts + 3):
        guard.failed("10.0.0.1")
    clock.now = guard.forget_after_s + 1
    guard.failed("10.0.0.1")  # counts as the first again
    assert guard.wait_s("10.0.0.1") is None


def test_ipv6_addresses_of_one_network_count_as_one():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for i in range(guard.attempts):
        guard.failed(f"2001:db8:0:1::{i + 1:x}")  # a fresh privacy address for each guess
    assert guard.wait_s("2001:db8:0:1::ffff") == 2
    assert guard.wait_s("2001:db8:0:2::1") is None


#: The issue's bar: the expected time to guess a 6-digit PIN from 200 loopback addresses is at least 30 days.
ADDRESSES, DAYS = 200, 30


def test_expected_time_to_guess_the_pin_from_200_addresses_is_over_30_days():
    service = TableService(pin="482913")
    guard = service.pin_guard  # the limits the table runs with
    service.close()
    # The arithmetic, from the limiter's own parameters: each address's start (its free tries, then waits that
    # double from first_wait_s) until the wait reaches max_wait_s, then one guess per max_wait_s.
    ramp = [guard.wait_after(n) for n in range(1, 100)]
    ramp_guesses = next(n for n, wait in enumerate(ramp, 1) if wait >= guard.max_wait_s)
    ramp_s = sum(ramp[: ramp_guesses - 1])
    needed = 10**6 / 2  # on average the search ends halfway through the million PINs
    per_address = needed / ADDRESSES
    expected_s = ramp_s + (per_address - ramp_guesses) * guard.max_wait_s
    assert (guard.attempts, guard.first_wait_s, guard.max_wait_s) == (5, 2.0, 3600.0)
    assert (ramp_guesses, ramp_s) == (16, 4094.0)
    assert expected_s / 86400 == pytest.approx(guess_days(guard, ADDRESSES))
    assert expected_s / 86400 >= DAYS  # 103.5 days

    # The same by running the real guard: 200 addresses, each guessing the moment it may, for 30 days.
    clock = Clock()
    guard = PinGuard(attempts=guard.attempts, first_wait_s=guard.first_wait_s, max_wait_s=guard.max_wait_s,
                     forget_after_s=guard.forget_after_s, clock=clock)  # fmt: skip
    waiting = [(0.0, f"127.0.0.{i}") for i in range(ADDRESSES)]
    heapq.heapify(waiting)
    guesses = 0
    while waiting[0][0] < DAYS * 86400:
        clock.now, address = heapq.heappop(waiting)
        assert guard.wait_s(address) is None
        guard.failed(address)
        guesses += 1
        heapq.heappush(waiting, (clock.now + (guard.wait_s(address) or 0), address))
    # fewer than the expected 500,000 guesses in 30 days: the expected time to the PIN is over 30 days
    assert guesses < needed
    assert guesses == ADDRESSES * (ramp_guesses + int((DAYS * 86400 - ramp_s) // guard.max_wait_s))
