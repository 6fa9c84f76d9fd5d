"""Card sheets stay printable on a home printer: nothing within the 5 mm margin, crop marks at least
3 mm long inside the printable area, the registration target wholly printable and mirrored behind,
and a card beside an empty slot keeps its bleed. Read from the PDFs and their pixels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from pnp.data.reading.loader import load_game

from conftest import ROOT

MM = 72 / 25.4
GAMES = sorted(p.stem for p in (ROOT / "card_data").glob("*.yaml"))


class _Builds:
    """Every game built on one paper and sheet kind ("a4", "letter-gutterfold"...), each when first asked
    for, through the run's shared builds (A4 duplex is the default build other modules read too)."""

    def __init__(self, build: Callable[..., Path]) -> None:
        self.build = build

    def __getitem__(self, key: str) -> Path:
        paper, _, sheet = key.partition("-")
        options = () if key == "a4" else ("--paper", paper) + (("--sheet", sheet) if sheet else ())
        return self.build(*options)


@pytest.fixture(scope="module")
def built(shared_build: Callable[..., Path]) -> _Builds:
    return _Builds(shared_build)


def _page_segments(pdf: Path, index: int, width: float) -> list[tuple[float, float, float, float]]:
    """Straight lines drawn on the page itself (not inside the cards' forms) at line width `width`."""
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    page = PdfReader(str(pdf)).pages[index]
    ops = ContentStream(page.get_contents(), page.pdf).operations
    out, start, lw = [], (0.0, 0.0), 1.0
    for operands, op in ops:
        if op == b"w":
            lw = float(operands[0])
        elif op == b"m":
            start = (float(operands[0]), float(operands[1]))
        elif op == b"l" and abs(lw - width) < 1e-6:
            out.append((*start, float(operands[0]), float(operands[1])))
    return out


def _page_points(pdf: Path, index: int, width: float) -> list[tuple[float, float]]:
    """Every point of the paths the page itself draws at line width `width` (curves' control points too)."""
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    page = PdfReader(str(pdf)).pages[index]
    out, lw = [], 1.0
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"w":
            lw = float(operands[0])
        elif op in (b"m", b"l", b"c") and abs(lw - width) < 1e-6:
            values = [float(v) for v in operands]
            out += list(zip(values[::2], values[1::2]))
    return out


def _sheet_pdfs(out: Path) -> list[Path]:
    pdfs = []
    for game in GAMES:
        loaded = load_game(ROOT / "card_data" / f"{game}.yaml")
        pdfs += [out / loaded.slug / f"{c.key}.pdf" for c in loaded.components if c.is_cards]
    return [p for p in pdfs if p.is_file()]


# Each paper and sheet kind once across the two papers by default; the whole matrix in the slow tier.
FAST_SHEETS = ("a4", "letter", "letter-gutterfold", "a4-silhouette", "letter-cricut")
SHEETS = [f"{p}{s}" for p in ("a4", "letter") for s in ("", "-gutterfold", "-silhouette", "-cricut")]


@pytest.mark.parametrize(
    "paper", [k if k in FAST_SHEETS else pytest.param(k, marks=pytest.mark.slow) for k in SHEETS]
)
def test_nothing_is_printed_within_the_margin(built: _Builds, paper: str) -> None:
    pdfs = _sheet_pdfs(built[paper])
    assert len(pdfs) >= 10
    dpi, band = 50, round(4.7 / 25.4 * 50)  # 5 mm less a rasterising pixel
    for pdf in pdfs:
        doc = pypdfium2.PdfDocument(pdf)
        try:
            for i in range(len(doc)):
                image = doc[i].render(scale=dpi / 72).to_pil().convert("L")
                w, h = image.size
                for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
                    assert image.crop(box).getextrema()[0] >= 250, (
                        f"{pdf.name} page {i + 1}: ink in the margin"
                    )
        finally:
            doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_and_target_are_printable(built: _Builds, paper: str) -> None:
    with pdfplumber.open(built[paper] / "bargains" / "deck.pdf") as doc:
        w, h = float(doc.pages[0].width), float(doc.pages[0].height)
        marks = _page_segments(
            built[paper] / "bargains" / "deck.pdf", 0, 0.3
        )  # the page's own, not the cards'
        assert len(marks) >= 16
        for x0, y0, x1, y1 in marks:
            assert max(abs(x1 - x0), abs(y1 - y0)) / MM >= 3.0 - 1e-6
            for x, y in ((x0, y0), (x1, y1)):
                assert 5 * MM - 0.01 <= x <= w - 5 * MM + 0.01 and 5 * MM - 0.01 <= y <= h - 5 * MM + 0.01
    pdf = built[paper] / "bargains" / "deck.pdf"
    boxes = []
    for index in (0, 1):  # the target: everything the page itself draws at 0.25 pt (rings, cross, ticks)
        points = _page_points(pdf, index, 0.25)
        assert len(points) > (8 if index == 0 else 30)
        xs, ys = [x for x, _ in points], [y for _, y in points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
        assert min(xs) >= 5 * MM and min(ys) >= 5 * MM and max(xs) <= w - 5 * MM and max(ys) <= h - 5 * MM
    (fx0, fy0, fx1, fy1), (bx0, by0, bx1, by1) = boxes
    front_c, back_c = ((fx0 + fx1) / 2, (fy0 + fy1) / 2), ((bx0 + bx1) / 2, (by0 + by1) / 2)
    mirror_cols = h >= w  # the default long-edge flip mirrors columns on portrait paper, rows on landscape
    expected = (w - front_c[0], front_c[1]) if mirror_cols else (front_c[0], h - front_c[1])
    assert back_c == pytest.approx(expected, abs=0.05 * MM)  # the back's target sits behind the front's


def test_a_card_beside_an_empty_slot_keeps_its_bleed(built: _Builds) -> None:
    """Fairy Bargains' 65 cards on A4: the last sheet holds two; the second's bleed runs on to the
    right and below, where no neighbour is cut against it."""
    pdf = built["a4"] / "bargains" / "deck.pdf"
    with pdfplumber.open(pdf) as doc:
        n = len(doc.pages)
    document = pypdfium2.PdfDocument(pdf)
    image = document[n - 2].render(scale=150 / 72).to_pil().convert("RGB")  # the last fronts page
    document.close()
    px = 150 / 25.4
    left = (210 - 3 * 63) / 2
    top = (297 - 3 * 88) / 2
    right_edge = left + 2 * 63  # the second card's right trim
    mid_y = top + 44
    for mm in (0.5, 1.5, 2.5):  # inside its 3 mm bleed: the card's colour, not paper
        assert image.getpixel((round((right_edge + mm) * px), round(mid_y * px))) != (255, 255, 255), mm
        assert image.getpixel((round((left + 31) * px), round((top + 88 + mm) * px))) != (255, 255, 255), mm
    assert image.getpixel((round((right_edge + 5) * px), round(mid_y * px))) == (255, 255, 255)
