"""The table's PIN: made with secrets, at least 6 digits, and wrong guesses limited per client and per table."""

from __future__ import annotations

import pytest

from device.table.pin import PinGuard, new_pin, pin_problem
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


def test_wrong_guesses_from_many_clients_lock_the_whole_table_until_it_expires():
    clock = Clock()
    svc = TableService(pin="864213", pin_guard=PinGuard(attempts=5, table_attempts=20, table_window_s=600,
                                                        table_lock_s=300, clock=clock))
    for i in range(20):  # one guess each: no client reaches its own limit
        assert not svc.check_pin(f"{i:06d}", client=f"10.0.0.{i}")
    with pytest.raises(PinLocked, match="at this table"):
        svc.check_pin("864213", client="10.0.9.9")
    clock.now = 299.0
    with pytest.raises(PinLocked):
        svc.check_pin("864213", client="10.0.9.9")
    clock.now = 301.0
    assert svc.check_pin("864213", client="10.0.9.9")
    svc.close()


def test_wrong_guesses_spread_over_time_do_not_lock_the_table():
    clock = Clock()
    guard = PinGuard(attempts=5, table_attempts=20, table_window_s=600, table_lock_s=300, clock=clock)
    for i in range(40):  # one wrong PIN a minute: 10 in any 10 minutes
        clock.now = 60.0 * i
        guard.failed(f"10.0.0.{i}")
    assert guard.wait_s("10.0.9.9") is None


def test_the_default_table_limit_stops_a_guesser_with_many_addresses():
    guard = PinGuard()
    tries = 0
    for address in range(200):  # 200 addresses, each staying under its own limit
        for _ in range(guard.attempts - 1):
            if guard.wait_s(f"127.0.0.{address}") is not None:
                break
            guard.failed(f"127.0.0.{address}")
            tries += 1
    assert tries == guard.table_attempts  # then the whole table waits
