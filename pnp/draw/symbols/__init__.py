"""Vector symbols for printed cards, drawn with ReportLab canvas paths.

Each symbol is one solid silhouette, built in its own design grid (about
-50..50, y up) by a small builder function.  ``draw_symbol`` measures the
result exactly, centres it and scales it to fill a ``size`` x ``size`` box,
so builders never deal with page coordinates.  Details (dots on a mushroom,
facets of a gem, ...) are real holes, made with even-odd paths or, where
pieces overlap, with a clip that knocks them out: nothing is painted white,
so symbols work on any background and in grayscale.

Outlines are drawn as a halo: stroked at twice the requested width, with the
inner half hidden under the fill (or clipped away when there is no fill).
The outline therefore traces the silhouette, never the overlapping pieces it
was built from, and it is counted inside the box.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType

from reportlab.lib import colors
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from pnp.draw.symbols import arms, emblems, nature, suits
from pnp.draw.symbols.pen import Contour, Glyph, emit

__all__ = ["SYMBOLS", "draw_symbol", "has_symbol"]


# --------------------------------------------------------------------------
# registry and public API

_Builder = Callable[[Glyph], None]

_BUILDERS: Mapping[str, _Builder] = MappingProxyType(
    dict(sorted({**suits.BUILDERS, **arms.BUILDERS, **nature.BUILDERS, **emblems.BUILDERS}.items()))
)

SYMBOLS: tuple[str, ...] = tuple(sorted(_BUILDERS))


def has_symbol(name: str) -> bool:
    """True if ``name`` is a known symbol."""
    return name in _BUILDERS


def _builder(name: str) -> _Builder:
    try:
        return _BUILDERS[name]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(name), SYMBOLS, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(SYMBOLS)}"
        raise KeyError(f"unknown symbol {name!r}{hint}") from None


@cache
def _shape(name: str) -> tuple[Glyph, tuple[float, float, float, float]]:
    """Symbol `name` built and measured once per process (shared, never changed afterwards)."""
    g = Glyph()
    _builder(name)(g)
    return g, g.bounds()


def draw_symbol(
    c: Canvas,
    name: str,
    cx: float,
    cy: float,
    size: float,
    fill: Color | None = colors.black,
    stroke: Color | None = None,
    stroke_width: float | None = None,
) -> None:
    """Draw symbol ``name`` centred at (cx, cy) fitting a size x size box (points).

    ``fill`` and ``stroke`` are ReportLab colours or None.  The outline is
    ``stroke_width`` points wide (default: 3.5% of ``size``), runs just
    outside the silhouette and around its cut-outs, and counts towards the
    box.  With ``fill=None`` only the outline is drawn.
    """
    g, (x0, y0, x1, y1) = _shape(name)
    if size <= 0 or (fill is None and stroke is None):
        return
    sw = (
        0.0
        if stroke is None
        else max(0.25, size * 0.035)
        if stroke_width is None
        else max(float(stroke_width), 0.0)
    )
    k = max(size - 2 * sw, size * 0.5) * g.optical / max(x1 - x0, y1 - y0)  # design units -> points

    c.saveState()
    c.translate(cx, cy)
    c.scale(k, k)
    c.translate(-(x0 + x1) / 2, -(y0 + y1) / 2)
    c.setLineJoin(1)
    c.setLineCap(1)
    m = max(x1 - x0, y1 - y0)
    frame = Contour((x0 - m, y0 - m))  # generously around everything; cut-outs are subtracted from it
    frame.segs = [("L", ((x1 + m, y0 - m),)), ("L", ((x1 + m, y1 + m),)), ("L", ((x0 - m, y1 + m),))]
    parts = [(emit(c, contours), FILL_EVEN_ODD if eo else FILL_NON_ZERO) for contours, eo in g.parts]

    def punch_holes() -> None:
        for group in g.cuts:  # every clip narrows the last: frame minus this group's holes
            c.clipPath(emit(c, [frame, *group]), stroke=0, fill=0, fillMode=FILL_EVEN_ODD)

    if sw > 0:
        # The outline is stroked at twice its width and half of it is hidden:
        # under the fill, or clipped away when there is no fill.
        c.setStrokeColor(stroke)
        c.setLineWidth(2 * sw / k)
        for group in g.cuts:  # rims inside knocked-out holes
            hole = emit(c, group)
            for path, mode in parts:
                c.saveState()
                c.clipPath(path, stroke=0, fill=0, fillMode=mode)
                c.clipPath(hole, stroke=0, fill=0, fillMode=FILL_NON_ZERO)
                c.drawPath(hole, stroke=1, fill=0)
                c.restoreState()
        c.saveState()
        punch_holes()
        if fill is None:  # keep only what lies outside every part
            for contours, eo in g.parts:
                for group in [contours] if eo else [[ct] for ct in contours]:
                    c.clipPath(emit(c, [frame, *group]), stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
        for path, mode in parts:
            c.drawPath(path, stroke=1, fill=0, fillMode=mode)
        c.restoreState()
    if fill is not None:
        punch_holes()
        c.setFillColor(fill)
        for path, mode in parts:
            c.drawPath(path, stroke=0, fill=1, fillMode=mode)
    c.restoreState()
