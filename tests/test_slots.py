"""Documented slots: `pnp schema` has one branch per layout, `pnp layouts` lists them with a sample picture."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import yaml
from PIL import Image

from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.reading.layouts import layout_slots

from conftest import ROOT, run

SLOTS = layout_slots()


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(run("schema").out))


def test_schema_branches_name_each_layouts_slots() -> None:
    schema = json.loads(run("schema").out)
    branches = schema["$defs"]["Design"]["allOf"]
    by_layout = {b["if"]["properties"]["layout"]["const"]: b["then"]["properties"]["slots"] for b in branches}
    assert set(by_layout) == set(SLOTS)
    for layout, slots in by_layout.items():
        assert set(slots["properties"]) == set(SLOTS[layout])
        assert slots["additionalProperties"] is (layout in FREE_SLOTS)  # custom designs name their own slots
        assert all(p["description"] for p in slots["properties"].values())


def test_built_in_games_validate_and_a_misspelt_slot_does_not() -> None:
    validator = _validator()
    for path in sorted((ROOT / "card_data").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not list(validator.iter_errors(data)), path.name
    data = yaml.safe_load((ROOT / "card_data" / "bargains.yaml").read_text(encoding="utf-8"))
    data["faces"]["bargain"]["slots"]["titel"] = "x"
    errors = [e.message for e in validator.iter_errors(data)]
    assert any("titel" in m for m in errors), errors
    data["faces"]["bargain"]["slots"].pop("titel")
    data["components"][0]["cards"] = {"from": "deck.csv"}
    assert not list(validator.iter_errors(data))
    data["components"][0]["cards"] = {"from": "deck.txt"}
    assert list(validator.iter_errors(data))


def test_layouts_lists_slots_types_and_sample_pictures() -> None:
    r = run("layouts")
    assert r.code == 0
    for layout, slots in SLOTS.items():
        if layout in FREE_SLOTS:
            assert f"sample: {ROOT / 'docs' / 'layouts' / (layout + '.png')}" in r.out
            continue
        block = r.out.split(f"\n{layout}: " if layout != min(SLOTS) else f"{layout}: ", 1)[1].split(
            "\n\n", 1
        )[0]
        picture = ROOT / "docs" / "layouts" / f"{layout}.png"
        assert f"sample: {picture}" in block, block
        with Image.open(picture) as image:
            assert image.width > 200 and image.height > 300
        for slot, spec in slots.items():
            assert any(line.split()[:2] == [slot, spec.type] for line in block.splitlines()), (layout, slot)


def test_layout_samples_are_drawn_from_the_project(tmp_path: Path) -> None:
    r = run("layouts", "--project", str(ROOT), "--write-samples", str(tmp_path))
    assert r.code == 0, r.err
    assert sorted(p.stem for p in tmp_path.glob("*.png")) == sorted(set(SLOTS) - FREE_SLOTS)
