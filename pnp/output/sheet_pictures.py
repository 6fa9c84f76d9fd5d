"""A sheet as a picture: where fronts and backs of one card size go on one paper (for `pnp sheets`)."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.sheetspec import SheetSpec
from pnp.draw.context import color
from pnp.geometry.grid import MARGIN, Grid, Slot, choose_grid
from pnp.geometry.sizes import Size, pt
from pnp.output.sheet_marks import registration_marks

GAP = 12.0  # mm between the pages of a duplex sheet's picture
FRONT, BACK = "#f3e6b3", "#3f2d66"
DPI = 40.0


def sheet_grid(spec: SheetSpec, paper: Size, card: Size, bleed: float = 3.0, margin: float = MARGIN) -> Grid:
    """The grid a deck of `card` gets on `paper` with this sheet (as `pnp build --sheet` lays it out)."""
    return choose_grid(
        paper,
        card,
        bleed,
        margin,
        marks=spec.marks != "none",
        fold_gap=spec.fold_gap if spec.backs == "fold" else None,
        corners=spec.registration.zone if spec.registration else 0.0,
        area=spec.print_area,
        frame=spec.registration.frame if spec.registration else 0.0,
    )


def sheet_picture(spec: SheetSpec, grid: Grid) -> bytes:
    """PNG of the sheet's page (a duplex sheet: its fronts page and its backs page): the paper, the
    printable area, each front numbered in pale, each back with its front's number in dark, the fold."""
    from pnp.output.exports.pngfile import png_bytes  # lazy: only `pnp sheets` draws pictures
    from pnp.output.exports.raster import rasterise

    pages = 2 if spec.backs == "duplex" else 1
    w, h = grid.page.w, grid.page.h
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(pt(pages * w + (pages - 1) * GAP + 8), pt(h + 8)), invariant=1)
    c.setFillColor(color("#d9d4c8"))
    c.rect(0, 0, pt(pages * w + (pages - 1) * GAP + 8), pt(h + 8), stroke=0, fill=1)
    for page in range(pages):
        c.saveState()
        c.translate(pt(4 + page * (w + GAP)), pt(4))
        _paper(c, grid)
        if spec.registration is not None:
            registration_marks(c, grid, spec.registration)
        n = grid.per_page
        if page == 0:
            for i in range(n):
                _card(c, grid, grid.slot(i), str(i + 1), FRONT, "#3a3326")
        if spec.backs == "fold" or page == 1:
            for i in range(n):
                _card(c, grid, grid.back_slot(i, "long"), str(i + 1), BACK, "#ffffff")
        if grid.fold:
            c.setDash([3, 2], 0)
            c.setStrokeColor(color("#c0392b"))
            c.setLineWidth(1.2)
            if grid.fold == "vertical":
                c.line(pt(w / 2), pt(grid.margin), pt(w / 2), pt(h - grid.margin))
            else:
                c.line(pt(grid.margin), pt(h / 2), pt(w - grid.margin), pt(h / 2))
        c.restoreState()
    c.showPage()
    c.save()
    return png_bytes(rasterise(buf.getvalue(), DPI)[0], DPI)


def _paper(c: Canvas, grid: Grid) -> None:
    """The sheet of paper, and its printable area dotted."""
    c.setFillColor(color("#ffffff"))
    c.setStrokeColor(color("#8a8375"))
    c.setLineWidth(0.8)
    c.rect(0, 0, pt(grid.page.w), pt(grid.page.h), stroke=1, fill=1)
    c.setDash([1, 3], 0)
    m = grid.margin
    c.rect(pt(m), pt(m), pt(grid.page.w - 2 * m), pt(grid.page.h - 2 * m), stroke=1, fill=0)
    c.setDash([], 0)


def _card(c: Canvas, grid: Grid, slot: Slot, label: str, fill: str, ink: str) -> None:
    """One card's trim, filled, with its number (upside down when the card is drawn turned)."""
    cw, ch = grid.card.w, grid.card.h
    c.setFillColor(color(fill))
    c.setStrokeColor(color("#6b6475"))
    c.setLineWidth(0.8)
    c.rect(pt(slot.x), pt(slot.y), pt(cw), pt(ch), stroke=1, fill=1)
    c.saveState()
    c.translate(pt(slot.x + cw / 2), pt(slot.y + ch / 2))
    if slot.turned:
        c.rotate(180)
    c.setFillColor(color(ink))
    c.setFont("Helvetica-Bold", min(pt(cw), pt(ch)) * 0.45)
    c.drawCentredString(0, -min(pt(cw), pt(ch)) * 0.16, label)
    c.restoreState()
