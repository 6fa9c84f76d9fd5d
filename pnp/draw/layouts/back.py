"""A card back: a field of emblems around a medallion with the title; symmetric under a half turn."""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, luminance, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    base = color(s.get("color"), "#2e2548")
    accent = color(s.get("accent"), "#d9b45a")
    emblem = s.get("emblem") or "sparkle"
    pattern = s.get("pattern") or emblem

    art = s.get("art")
    if isinstance(art, Picture):
        # Full-bleed artwork (on the base colour, which shows through transparent parts);
        # the frame and medallion follow only when the back has a title.
        ctx.fill_bleed(base)
        ctx.picture(art, *ctx.bleed_rect())
        if not s.get("title"):
            return on(base, dark=color(ctx.style.ink), light=lighten(accent, 0.3))
    else:
        _lattice(ctx, base, str(art or pattern), float(s.get("spacing", 7.5)))
    # Frame inside the trim.
    for inset, width in ((pt(3.2), 1.2), (pt(4.3), 0.4)):
        ctx.round_rect(inset, inset, w - 2 * inset, h - 2 * inset, pt(2.5), stroke=accent, width=width)
    # Medallion.
    rx, ry = w * 0.33, min(h * 0.2, w * 0.42)
    c.setFillColor(darken(base, 0.25))
    c.ellipse(w / 2 - rx - pt(1.2), h / 2 - ry - pt(1.2), w / 2 + rx + pt(1.2), h / 2 + ry + pt(1.2), stroke=0, fill=1)
    c.setFillColor(color(ctx.style.paper))
    c.setStrokeColor(accent)
    c.setLineWidth(1.4)
    c.ellipse(w / 2 - rx, h / 2 - ry, w / 2 + rx, h / 2 + ry, stroke=1, fill=1)
    # On a light base the title and emblem take a deep shade so they still read on the paper medallion.
    ink = darken(base, 0.1) if luminance(base) < 0.55 else darken(base, 0.6)
    if abs(luminance(accent) - luminance(color(ctx.style.paper))) < 0.12:
        accent_on_paper = ink
    else:
        accent_on_paper = accent
    ctx.symbol(emblem, w / 2, h / 2 + ry * 0.42, ry * 0.55, fill=accent_on_paper, stroke=ink, stroke_width=0.5)
    title = str(s.get("title", ""))
    ctx.text(w / 2, h / 2 - ry * 0.12, title, "display", 12, ink, align="center", max_width=rx * 1.7)
    if s.get("subtitle"):
        ctx.text(w / 2, h / 2 - ry * 0.48, s["subtitle"], "serif-italic", 7, ink, align="center",
                 max_width=rx * 1.5)
    # Mirror the emblem below so the back has no up or down.
    ctx.symbol(emblem, w / 2, h / 2 - ry * 0.78, ry * 0.22, fill=accent_on_paper)
    return on(base, dark=color(ctx.style.ink), light=lighten(accent, 0.3))


def _lattice(ctx: CardContext, base: Color, pattern: str, spacing: float) -> None:
    """The base colour with a staggered lattice of small emblems, centred so a half turn maps it onto itself."""
    w, h = ctx.w, ctx.h
    ctx.fill_bleed(base)
    step = pt(spacing)
    x0, y0, bw, bh = ctx.bleed_rect()
    cols = int(bw / step / 2) + 2
    rows = int(bh / step / 2) + 2
    tint = lighten(base, 0.14)
    for j in range(-rows, rows + 1):
        for i in range(-cols, cols + 1):
            x = w / 2 + (i + (0.5 if j % 2 else 0.0)) * step
            y = h / 2 + j * step * 0.9
            if x0 - step < x < x0 + bw + step and y0 - step < y < y0 + bh + step:
                ctx.symbol(pattern, x, y, step * 0.42, fill=tint)


LAYOUT = Layout(
    "back", SLOTS["back"], draw,
                "Shared back: emblem lattice, double frame, central medallion with the title.")
