"""Project-wide pytest hooks: what needs ``../shared`` skips with the reason when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _tile_art() -> Path:
    from vision.synth.art import DEFAULT_ART

    return Path(os.environ.get("JANTAKU_TILE_ART", DEFAULT_ART))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests and doctests that draw with the CC0 tile artwork skip when it is not beside the checkout."""
    try:
        art = _tile_art()
    except ImportError:  # the renderer's extras are missing: its own tests say so
        return
    if art.is_dir():
        return
    skip = pytest.mark.skip(reason=f"tile artwork not found under {art} (../shared, or set JANTAKU_TILE_ART)")
    for item in items:
        path = str(item.path)
        if "vision/synth/" in path or path.endswith(("test_shipped_model.py", "test_shipped_classifier.py")):
            item.add_marker(skip)
