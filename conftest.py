"""Project-wide pytest hooks: tests that draw with the CC0 tile artwork skip, with the reason, only where it is
missing."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the renderer's tests when its artwork cannot be found.

    The artwork ships in ``vision/synth/artwork`` (CC0), so this happens only where ``JANTAKU_TILE_ART`` points
    at a folder without it or the files were removed.
    """
    try:
        from vision.synth.art import art_dir
    except ImportError:  # the renderer's extras are missing: its own tests say so
        return
    try:
        art_dir()
    except FileNotFoundError as exc:
        skip = pytest.mark.skip(reason=str(exc))
    else:
        return
    for item in items:
        path = str(item.path)
        if "vision/synth/" in path or path.endswith(("test_shipped_model.py", "test_shipped_classifier.py")):
            item.add_marker(skip)
