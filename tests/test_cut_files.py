"""Cut files read back: every outline in the SVG and the DXF lies on a card's trim in the PDF to
0.05 mm, with the corner radius asked for."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import make_project, placements, run

MM = 72 / 25.4


def trims(pdf: Path) -> list[tuple[float, float]]:
    """Lower-left corners (mm) of the card faces the first page places (conftest's `placements`)."""
    return [(p.x, p.y) for p in placements(PdfReader(str(pdf)).pages[0]) if "face" in p.name]


@pytest.mark.parametrize("sheet", ["duplex", "gutterfold"])
def test_cut_outlines_lie_on_the_trims(tmp_path: Path, sheet: str) -> None:
    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build",
        "bargains",
        "--sheet",
        sheet,
        "--cut-files",
        "--corner-radius",
        "3",
        "--project",
        str(project),
        "--out",
        str(out),
        "--jobs",
        "1",
    )
    assert r.code == 0, r.err
    folder = out / "bargains"
    corners = sorted((round(x, 2), round(y, 2)) for x, y in trims(folder / "deck.pdf"))
    page_h = float(PdfReader(str(folder / "deck.pdf")).pages[0].mediabox.height) / MM
    root = ET.parse(folder / "deck-cut.svg").getroot()
    assert root.get("viewBox", "").endswith(f"{page_h:g}")
    rects = [e for e in root.iter() if e.tag.endswith("rect")]
    svg = sorted(
        (round(float(e.get("x", 0)), 2), round(page_h - float(e.get("y", 0)) - float(e.get("height", 0)), 2))
        for e in rects
    )
    assert len(svg) == len(corners) and all(
        abs(a - c) <= 0.05 and abs(b - d) <= 0.05 for (a, b), (c, d) in zip(svg, corners)
    )
    assert all(float(e.get("width", 0)) == pytest.approx(63) and float(e.get("rx", 0)) == 3 for e in rects)
    lines = (folder / "deck-cut.dxf").read_text().splitlines()
    assert lines.count("LINE") == 4 * len(rects) and lines.count("ARC") == 4 * len(rects)
    starts = [float(lines[i + 4]) for i, v in enumerate(lines) if v == "LINE"]  # each line's first x
    assert min(starts) == pytest.approx(min(x for x, _ in corners), abs=0.05)  # the left edges, on the trims


def test_no_cut_files_unless_asked(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    r = run("build", "bargains", "--project", str(project), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert r.code == 0 and not list((tmp_path / "out" / "bargains").glob("*-cut.*"))
