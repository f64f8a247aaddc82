"""Data the project may not redistribute, kept beside the checkout in ``../shared``: where it is, where to get it."""

from __future__ import annotations

from pathlib import Path

#: The Tenhou game records: test data only, not to be republished (so not shipped in the project).
TENHOU = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "tenhou"
#: The skip reason of a test that needs them.
TENHOU_MISSING = (
    f"Tenhou game records not found at {TENHOU}: tenhou.net's logs may not be republished, so they do not ship;"
    " they come from the test data of the GitHub repositories mjx-project/mjx and dnovikoff/tenhou"
)
