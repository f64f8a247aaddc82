"""``bench camera``'s figures (:class:`device.lab.video.CameraBench`): whole and zone reads apart, the share of zone
reads, and the Pi 5 estimate taking each discard's own read at its multiply-accumulates' time."""

from __future__ import annotations

import pytest

from device.lab.video import CameraBench, ReadCost

GMACS = 10.0  # 10^9 multiply-accumulates a second: 1 GMAC takes 100 ms

READS = [
    ReadCost(started=0.0, ms=1500.0, runs=16, macs=30_000_000_000, zoned=False),  # the first frame: whole
    ReadCost(started=10.0, ms=200.0, runs=4, macs=4_000_000_000, zoned=True),  # discard 1's read
    ReadCost(started=20.0, ms=300.0, runs=6, macs=6_000_000_000, zoned=True),  # discard 2's read
    ReadCost(started=30.0, ms=250.0, runs=5, macs=5_000_000_000, zoned=True),
]


def bench() -> CameraBench:
    return CameraBench(READS, latencies=[1.0, 1.5], discards=3, landed=[9.5, 19.0])


@pytest.mark.parametrize(
    ("latency", "landed", "expected"),
    [
        (1.0, 9.5, 1.0 + (400 - 200) / 1000),  # its read (begun at 10.0) takes 400 ms on the Pi, 200 here
        (1.5, 19.0, 1.5 + (600 - 300) / 1000),
        (0.3, 9.5, 0.3),  # the event came before any read began: nothing to scale
        (1.0, 40.0, 1.0),  # no read after the landing
    ],
)
def test_the_pi5_estimate_scales_each_discards_own_read(latency, landed, expected):
    assert bench().pi5_latency(latency, landed, GMACS) == pytest.approx(expected)


def test_whole_and_zone_reads_are_told_apart():
    report = bench().as_json(GMACS)
    assert (report["reads"], report["zone_reads_share"], report["runs_per_read"]) == (4, 0.75, 7.75)
    whole, zones = report["by_kind"]["whole"], report["by_kind"]["zones"]
    assert (whole["reads"], whole["runs_mean"], whole["gmacs_mean"], whole["pi5_read_ms"]) == (1, 16, 30.0, 3000.0)
    assert (zones["reads"], zones["runs_mean"], zones["gmacs_mean"], zones["pi5_read_ms"]) == (3, 5, 5.0, 500.0)
    assert zones["read_ms_median"] == 250.0
    assert report["discard_to_bus_s"] == {"median": 1.25, "worst": 1.5}
    assert report["pi5"]["discard_to_bus_s"] == {"median": 1.5, "worst": 1.8}
    assert report["changed_frames_per_s"] == round(4 / 2.25, 2)  # 4 reads in 2.25 s of reading
    assert report["pi5"]["changed_frames_per_s"] == round(4 / 4.5, 2)  # 45 GMAC at 10 a second
