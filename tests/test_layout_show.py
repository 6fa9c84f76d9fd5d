"""`pnp layouts --show NAME` prints a built-in layout as data a database can hold and change."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_layout_pixels import draw

from pnp.data.reading.layouts import builtin

from conftest import ROOT, run


def test_show_prints_every_built_in_layout_as_its_file() -> None:
    for name in builtin():
        r = run("layouts", "--show", name)
        assert r.code == 0, r.err
        data = yaml.safe_load(r.out)
        assert set(data) >= {"doc", "slots", "let", "elements"}, name
    r = run("layouts", "--show", "nonesuch")
    assert r.code == 2 and "value" in r.err


@pytest.mark.parametrize("game,layout,design", [("bargains", "value", "bargain")])
def test_a_copied_layout_draws_the_same_card(tmp_path: Path, game: str, layout: str, design: str) -> None:
    """The value layout pasted into the database as `layout: custom` (its let, frames, elements and
    code_color beside the design's own slots) draws the card exactly as the built-in layout does."""
    shown = yaml.safe_load(run("layouts", "--show", layout).out)
    for folder in ("card_data", "fonts", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    path = tmp_path / "card_data" / f"{game}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    face = data["faces"][design]
    assert face["layout"] == layout
    face.update(
        layout="custom",
        let=shown["let"],
        frames=shown["frames"],
        elements=shown["elements"],
        code_color=shown["code_color"],
    )
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    before = draw(game, "deck", 0, "face")
    after = draw(game, "deck", 0, "face", root=tmp_path)
    assert np.abs(after - before).max() <= 1
