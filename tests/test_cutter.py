"""`--cutter silhouette` read from the PDF: the Type 1 registration marks where the sheet's data puts
them, every card (with its bleed) clear of the marked corners, and the cut files beside the PDF."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.data.reading.sheets import sheet_named

from conftest import make_project, placements, posix_only, run

MM = 72 / 25.4


def page_rects(pdf: Path) -> list[tuple[float, float, float, float]]:
    """Rectangles the first page itself fills (not inside the cards' forms), mm."""
    reader = PdfReader(str(pdf))
    page = reader.pages[0]
    out = []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"re":
            x, y, w, h = (float(v) / MM for v in operands)
            out.append((x, y, w, h))
    return out


def faces(pdf: Path) -> list[tuple[float, float]]:
    """Lower-left corners (mm) of the card faces the first page places (conftest's `placements`)."""
    return [(p.x, p.y) for p in placements(PdfReader(str(pdf)).pages[0]) if "face" in p.name]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_silhouette_marks_and_clear_corners(tmp_path: Path, paper: str) -> None:
    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build",
        "bargains",
        "--cutter",
        "silhouette",
        "--paper",
        paper,
        "--project",
        str(project),
        "--out",
        str(out),
        "--jobs",
        "1",
    )
    assert r.code == 0, r.err
    pdf = out / "bargains" / "deck.pdf"
    box = PdfReader(str(pdf)).pages[0].mediabox
    w, h = float(box.width) / MM, float(box.height) / MM
    reg = sheet_named("silhouette").registration
    assert reg is not None
    i, n, t, q = reg.inset, reg.length, reg.thickness, reg.square
    expected = [
        (i, h - i - q, q, q),
        (w - i - n, h - i - t, n, t),
        (w - i - t, h - i - n, t, n),
        (i, i, n, t),
        (i, i, t, n),
    ]
    found = page_rects(pdf)
    for mark in expected:
        assert any(all(abs(a - b) < 0.05 for a, b in zip(mark, f)) for f in found), mark
    zone = reg.zone
    placed = faces(pdf)
    assert len(placed) >= 6
    bleed = 3.0
    for x, y in placed:  # every card and its bleed out of the three marked corners' squares
        x0, y0, x1, y1 = x - bleed, y - bleed, x + 63 + bleed, y + 88 + bleed
        for cx0, cy0, cx1, cy1 in ((0, h - zone, zone, h), (w - zone, h - zone, w, h), (0, 0, zone, zone)):
            assert x1 <= cx0 or x0 >= cx1 or y1 <= cy0 or y0 >= cy1, (x, y)
    assert (out / "bargains" / "deck-cut.dxf").is_file() and (out / "bargains" / "deck-cut.svg").is_file()
    assert len(PdfReader(str(pdf)).pages) == -(-65 // len(placed))  # fronts only


def test_cricut_pictures_and_cut_lines_share_one_frame(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from PIL import Image

    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build", "bargains", "--cutter", "cricut", "--project", str(project), "--out", str(out), "--jobs", "1"
    )
    assert r.code == 0, r.err
    folder = out / "bargains"
    pdf = folder / "deck.pdf"
    box = PdfReader(str(pdf)).pages[0].mediabox
    w, h = float(box.width) / MM, float(box.height) / MM
    aw, ah = 171.45, 234.95  # Design Space's largest print-then-cut picture
    fx, fy = (w - aw) / 2, (h - ah) / 2
    pages = len(PdfReader(str(pdf)).pages)
    pictures = sorted(folder.glob("deck-print-*.png"))
    assert len(pictures) == pages
    with Image.open(pictures[0]) as im:
        assert im.size == (round(aw / 25.4 * 300), round(ah / 25.4 * 300))
    root = ET.parse(folder / "deck-cut.svg").getroot()
    assert root.get("viewBox") == f"0 0 {aw:g} {ah:g}"
    rects = sorted(
        (float(e.get("x", 0)), ah - float(e.get("y", 0)) - float(e.get("height", 0)))
        for e in root.iter()
        if e.tag.endswith("rect")
    )
    placed = sorted((x - fx, y - fy) for x, y in faces(pdf))
    assert len(rects) == len(placed) >= 4
    for (a, b), (c, d) in zip(rects, placed):
        assert abs(a - c) < 0.05 and abs(b - d) < 0.05
    for x, y in placed:  # every card with its bleed inside the picture
        assert (
            x - 1.5 >= -1e-6 and y - 1.5 >= -1e-6 and x + 63 + 1.5 <= aw + 1e-6 and y + 88 + 1.5 <= ah + 1e-6
        )


PAGES_PEAK = """
import resource, sys
from pathlib import Path
from reportlab.pdfgen.canvas import Canvas
from pnp.buildplan.steps import write_print_images
from pnp.data.reading.sheets import sheet_named
from pnp.geometry.grid import Grid
from pnp.geometry.sizes import Size

pages, folder = int(sys.argv[1]), Path(sys.argv[2])
pdf = folder / "deck.pdf"
c = Canvas(str(pdf), pagesize=(612, 792))
for i in range(pages):  # a different picture on every page, so no page compresses to nothing
    for j in range(40):
        c.setFillColorRGB((i * 7 + j) % 10 / 10, j / 40, 0.5)
        c.rect(10 + j * 14, 10 + i * 5, 12, 700, stroke=0, fill=1)
    c.showPage()
c.save()
grid = Grid(Size(215.9, 279.4), Size(63, 88), 3, 3, 1.5, 3.0)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
write_print_images(pdf, grid, sheet_named("cricut").print_area)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before, len(list(folder.glob("deck-print-*.png"))))
"""


def _print_images_peak(tmp_path: Path, pages: int) -> int:
    """How far (KiB) writing a `pages`-page PDF's print-then-cut pictures raised a fresh process's peak memory."""
    folder = tmp_path / str(pages)
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", PAGES_PEAK, str(pages), str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    grown, written = map(int, done.stdout.split())
    assert written == pages
    return grown


@posix_only
def test_cricut_pictures_are_written_one_page_at_a_time(tmp_path: Path) -> None:
    """The pictures of a print-then-cut sheet are drawn, written and let go page by page: eight pages
    need no more memory than two (holding them all, eight letter pages at 300 dpi are 150 MB more)."""
    two, eight = _print_images_peak(tmp_path, 2), _print_images_peak(tmp_path, 8)
    assert eight - two < 40_000, (two, eight)  # KiB; one page's pixels are 25 MB
