"""Each shipped model has a card in the shape the ecosystem uses: a YAML header (licence, datasets with their
licences, metrics), then a screenful or two. The history of what was tried lives in docs/experiments/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
SHIPPED = sorted(p.stem for p in MODELS.glob("*.onnx"))


def front_matter(text: str) -> tuple[dict[str, list[str]], str]:
    """The header's top-level keys, each with its lines, and the body after it."""
    head, sep, body = text.removeprefix("---\n").partition("\n---\n")
    assert text.startswith("---\n") and sep, "the card starts with a YAML header between --- lines"
    keys: dict[str, list[str]] = {}
    key = None
    for line in head.splitlines():
        top = re.match(r"^([a-z_]+):(.*)$", line)
        if top:
            key = top[1]
            keys[key] = [top[2].strip()] if top[2].strip() else []
        else:
            assert key is not None and line.startswith("  "), f"not YAML of this header's shape: {line!r}"
            keys[key].append(line.strip())
    return keys, body


def test_every_shipped_model_has_a_card():
    assert SHIPPED == ["tile_classifier", "tile_classifier_photo", "tile_way_up", "tiles", "tiles_camera"]
    assert not (MODELS / "MODEL_CARD.md").exists()  # the old notebook moved to docs/experiments/


@pytest.mark.parametrize("model", SHIPPED)
def test_card_header_names_licence_datasets_and_metrics(model):
    keys, body = front_matter((MODELS / f"{model}.md").read_text())
    assert keys["file"] == [f"models/{model}.onnx"]
    assert keys["license"] == ["agpl-3.0"]
    datasets = " ".join(keys["datasets"])
    assert "license: cc0-1.0" in datasets and "license: cc-by-4.0" in datasets
    assert "credit: leomiurarobot, Roboflow Universe, CC BY 4.0" in datasets
    metrics = [m for m in keys["metrics"] if m.startswith("- {")]
    assert metrics and all("value:" in m and "set:" in m for m in metrics)
    for heading in (
        "## Intended use",
        "## Input and output",
        "## Data and licences",
        "## Recipe",
        "## Results",
        "## Limitations",
    ):
        assert f"\n{heading}\n" in body, heading


@pytest.mark.parametrize("model", SHIPPED)
def test_card_is_a_card_not_a_notebook(model):
    text = (MODELS / f"{model}.md").read_text()
    assert len(text.splitlines()) <= 200
    assert not re.search(r"\bstops? \d", text, re.IGNORECASE)  # work sessions belong to docs/experiments/
    assert text.count("\n## Results\n") == 1 and "jantaku-lab " in text.split("## Recipe")[1].split("## Results")[0]
