"""Cut outlines of a card sheet for cutting machines and laser cutters: every card's trim (with rounded
corners when asked) or token's outline (a circle, a hexagon) on a full fronts page, as SVG (millimetres,
y down) and DXF (R12: lines, arcs and circles, millimetres, y up). Both are drawn in one frame: the
page (its lower left at 0, 0) or a print-then-cut picture's area. They match the PDF's fronts page one
to one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.draw.context import color
from pnp.draw.shapes import hex_corners
from pnp.geometry.grid import Grid
from pnp.geometry.sizes import pt

Outline = tuple[float, float, float, float]  # x, y (lower left, mm from the page's lower left), w, h


def outlines(grid: Grid, fold_backs: bool = True) -> list[Outline]:
    """The trim of every position on a page: fronts, and on a fold sheet the backs (cut through both
    layers once folded, their outlines coincide: the fronts' are enough, `fold_backs` False)."""
    slots = [grid.slot(i) for i in range(grid.per_page)]
    if grid.fold and fold_backs:
        slots += [grid.back_slot(i, "long") for i in range(grid.per_page)]
    return [(s.x, s.y, grid.card.w, grid.card.h) for s in slots]


def area_frame(grid: Grid, area: tuple[float, float] | None) -> tuple[float, float, float, float]:
    """The part of the page the cut files and print images cover (x, y from the page's lower left, w, h):
    the whole page, or `area` centred on it (a machine's print-then-cut image)."""
    if area is None:
        return 0.0, 0.0, grid.page.w, grid.page.h
    w, h = min(area[0], grid.page.w), min(area[1], grid.page.h)
    return (grid.page.w - w) / 2, (grid.page.h - h) / 2, w, h


def _corner_arcs(x: float, y: float, w: float, h: float, r: float) -> list[tuple[float, float, int]]:
    """The centre and start angle (degrees, counter-clockwise from +x) of each rounded corner's quarter circle."""
    return [(x + w - r, y + r, 270), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)]


def _hexagon(x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """A hex token's six corners (mm, y up), as the sheet's cut line draws it: flat top and bottom."""
    return hex_corners((x, y, w, h), pointy=False)


def svg(grid: Grid, radius: float = 0.0, area: tuple[float, float] | None = None, shape: str = "rect") -> str:
    """The outlines as an SVG the size of the page, or of `area` (1 unit = 1 mm), hairline red strokes:
    rectangles (rounded by `radius`), or the tokens' circles or hexagons (`shape`)."""
    r = max(0.0, radius)
    fx, fy, fw, fh = area_frame(grid, area)
    items = []
    for x, y, w, h in outlines(grid, fold_backs=False):
        if shape == "circle":
            items.append(
                f'  <circle cx="{x + w / 2 - fx:.3f}" cy="{fy + fh - y - h / 2:.3f}" r="{w / 2:.3f}"/>'
            )
        elif shape == "hex":
            points = " ".join(f"{px - fx:.3f},{fy + fh - py:.3f}" for px, py in _hexagon(x, y, w, h))
            items.append(f'  <polygon points="{points}"/>')
        else:
            items.append(
                f'  <rect x="{x - fx:.3f}" y="{fy + fh - y - h:.3f}" width="{w:.3f}" height="{h:.3f}" '
                f'rx="{r:.3f}" ry="{r:.3f}"/>'
            )
    rects = "\n".join(items)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fw:g}mm" height="{fh:g}mm" '
        f'viewBox="0 0 {fw:g} {fh:g}">\n'
        f'<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">\n{rects}\n</g>\n</svg>\n'
    )


def print_images(
    pdf: Path, grid: Grid, area: tuple[float, float], dpi: float = 300.0
) -> Iterator[tuple[int, bytes]]:
    """Each page of the PDF file cut to `area` (centred) as PNG at `dpi`, numbered from 1: the pictures a
    print-then-cut app prints. One page at a time: its pixels are gone before the next is drawn."""
    from pnp.output.exports.raster import pages_png  # lazy: only a print-then-cut sheet makes pictures

    fx, fy, fw, fh = area_frame(grid, area)
    k = dpi / 25.4
    box = (
        round(fx * k),
        round((grid.page.h - fy - fh) * k),
        round((fx + fw) * k),
        round((grid.page.h - fy) * k),
    )
    yield from enumerate(pages_png(pdf, dpi, box), 1)


def _line(x0: float, y0: float, x1: float, y1: float) -> list[str]:
    return [
        "0",
        "LINE",
        "8",
        "CUT",
        "10",
        f"{x0:.4f}",
        "20",
        f"{y0:.4f}",
        "11",
        f"{x1:.4f}",
        "21",
        f"{y1:.4f}",
    ]


def dxf(grid: Grid, radius: float = 0.0, area: tuple[float, float] | None = None, shape: str = "rect") -> str:
    """The outlines as an ASCII DXF (R12) in millimetres, in the frame of the page or of `area` (as the
    SVG): each card four lines and, rounded, four arcs; a circle token a circle, a hex token six lines."""
    fx, fy, _, _ = area_frame(grid, area)
    out = [
        "0",
        "SECTION",
        "2",
        "HEADER",
        "9",
        "$ACADVER",
        "1",
        "AC1009",
        "9",
        "$MEASUREMENT",
        "70",
        "1",
        "9",
        "$INSUNITS",
        "70",
        "4",
        "0",
        "ENDSEC",
        "0",
        "SECTION",
        "2",
        "ENTITIES",
    ]
    for x, y, w, h in outlines(grid, fold_backs=False):
        x, y = x - fx, y - fy
        if shape == "circle":
            out += [
                "0",
                "CIRCLE",
                "8",
                "CUT",
                "10",
                f"{x + w / 2:.4f}",
                "20",
                f"{y + h / 2:.4f}",
                "40",
                f"{w / 2:.4f}",
            ]
            continue
        if shape == "hex":
            corners = _hexagon(x, y, w, h)
            for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
                out += _line(x0, y0, x1, y1)
            continue
        r = min(max(0.0, radius), w / 2, h / 2)
        for (x0, y0), (x1, y1) in (
            ((x + r, y), (x + w - r, y)),
            ((x + w, y + r), (x + w, y + h - r)),
            ((x + w - r, y + h), (x + r, y + h)),
            ((x, y + h - r), (x, y + r)),
        ):
            out += _line(x0, y0, x1, y1)
        if r > 0:
            for cx, cy, start in _corner_arcs(x, y, w, h, r):
                out += [
                    "0",
                    "ARC",
                    "8",
                    "CUT",
                    "10",
                    f"{cx:.4f}",
                    "20",
                    f"{cy:.4f}",
                    "40",
                    f"{r:.4f}",
                    "50",
                    f"{start:g}",
                    "51",
                    f"{(start + 90) % 360:g}",
                ]
    out += ["0", "ENDSEC", "0", "EOF"]
    return "\n".join(out) + "\n"


def corner_guides(c: Canvas, grid: Grid, radius: float, taken: list[tuple[float, float]]) -> None:
    """On the fronts page: a hairline quarter circle at each corner of each card, where a corner
    punch or scissors round it (`taken`: the lower-left corners, mm, of the cards on the page)."""
    r, w, h = radius, grid.card.w, grid.card.h
    c.saveState()
    c.setStrokeColor(color("#9a9a9a"))
    c.setLineWidth(0.25)
    for x, y in taken:
        for cx, cy, start in _corner_arcs(x, y, w, h, r):
            c.arc(pt(cx - r), pt(cy - r), pt(cx + r), pt(cy + r), start, 90)
    c.restoreState()
