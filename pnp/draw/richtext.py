"""Card text with inline markup drawn: one line of styled runs, icons as symbol forms in reading order.

The runs and the lines come from `pnp.resolve.text`, which read, wrapped and
fitted them; text without any markup character never comes here.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.inks import color, faded, text_ink
from pnp.resolve.fonts import ICON_ADVANCE, Fonts, emphasis
from pnp.resolve.inline_markup import span_style
from pnp.resolve.text import Run, serialize

ICON_SIZE = 0.85  # ems: the box an inline icon's symbol fills
ICON_RISE = 0.34  # ems: the icon's centre above the baseline (about half the cap height)

IconFn = Callable[[str, float, float, float, Color], None]


def draw_line(
    c: Canvas,
    fonts: Fonts,
    x: float,
    y: float,
    parts: list[Run],
    role: str,
    size: float,
    fill: Color,
    align: str,
    icon: IconFn,
) -> None:
    """One line of runs from (x, y) on the baseline, aligned left, centre or right of x; a span's
    colour, size and font apply to its runs."""
    for r in parts:
        if r.text:
            fonts.check(r.text, emphasis(span_style(r.span).font or role, r.bold, r.italic))
    total = fonts.width(serialize(parts), role, size)
    x = x - total / 2 if align == "center" else x - total if align == "right" else x
    for r in parts:
        style = span_style(r.span)
        own = style.size_of(size)
        ink = faded_like(color(style.colour), fill) if style.colour else fill
        if r.icon:
            advance = ICON_ADVANCE * own
            icon(r.icon, x + advance / 2, y + ICON_RISE * own, ICON_SIZE * own, ink)
            x += advance
            continue
        face = emphasis(style.font or role, r.bold, r.italic)
        c.setFont(fonts.name(face), own)
        c.setFillColor(text_ink(c, ink))
        c.drawString(x, y, r.text)
        x += stringWidth(r.text, fonts.name(face), own)


def faded_like(ink: Color, fill: Color) -> Color:
    """A span's colour at the text's own alpha (an element's opacity reaches its spans)."""
    alpha = float(getattr(fill, "alpha", 1.0))
    if alpha >= 1:
        return ink
    return faded(ink, alpha)
