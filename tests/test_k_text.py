"""CMYK output prints dark text on black ink alone: read from the PDF's own text colours."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from conftest import make_project, run


def _chars(pdf: Path, pages: int = 2) -> list[dict]:
    with pdfplumber.open(pdf) as doc:
        return [ch for page in doc.pages[:pages] for ch in page.chars]


@pytest.mark.slow
def test_small_dark_text_is_black_ink_only_in_cmyk(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ("bargains",))
    cmyk, rgb = tmp_path / "cmyk", tmp_path / "rgb"
    assert (
        run("build", "bargains", "--cmyk", "--project", str(project), "--out", str(cmyk), "--jobs", "1").code
        == 0
    )
    assert run("build", "bargains", "--project", str(project), "--out", str(rgb), "--jobs", "1").code == 0
    dark = [
        ch
        for ch in _chars(cmyk / "bargains" / "deck.pdf")
        if len(ch["non_stroking_color"] or ()) == 4 and ch["non_stroking_color"][3] > 0.8
    ]
    small = [ch for ch in dark if ch["size"] < 9]
    assert len(small) > 50  # codes, body text and labels
    rich = {tuple(ch["non_stroking_color"]) for ch in dark if any(ch["non_stroking_color"][:3])}
    assert not rich, f"dark text printed on more than black ink: {sorted(rich)[:3]}"
    # RGB output keeps the design's own colours
    plain = _chars(rgb / "bargains" / "deck.pdf")
    assert plain and all(len(ch["non_stroking_color"] or (0, 0, 0)) in (1, 3) for ch in plain)
