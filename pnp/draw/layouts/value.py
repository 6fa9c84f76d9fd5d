"""A card whose point is one big value: medallion numeral, corner indices, emblem and colour."""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(ctx.style.ink)
    deep = darken(theme, 0.35)
    emblem = s.get("emblem") or "sparkle"
    value = str(s.get("value", ""))
    index = str(s.get("index") or value)

    # Border art: the theme colour runs out into the bleed, with a fine inner rule.
    ctx.fill_bleed(theme)
    inset = pt(1.5)
    ctx.round_rect(inset, inset, w - 2 * inset, h - 2 * inset, pt(3.2), stroke=lighten(theme, 0.45), width=0.5)
    # A quiet band of emblems along the border, symmetric so it reads either way up.
    step = pt(9)
    n = int((w - pt(14)) // step)
    for i in range(n + 1):
        x = w / 2 + (i - n / 2) * step
        for y in (pt(0.75), h - pt(0.75)):
            ctx.symbol(emblem, x, y, pt(1.2), fill=lighten(theme, 0.3))

    panel = pt(3.0)
    pw, ph = w - 2 * panel, h - 2 * panel
    ctx.round_rect(panel, panel, pw, ph, pt(2.6), fill=paper, stroke=deep, width=0.8)

    # Corner indices: value with its emblem, mirrored at the opposite corner.
    def corner() -> None:
        ix, top = panel + pt(4.6), h - panel - pt(1.3)
        size = ctx.text(ix, top - pt(5.6), index, "display", 17, deep, align="center", max_width=pt(8.4))
        ctx.symbol(emblem, ix, top - pt(5.6) - pt(3.1) - size * 0.05, pt(4.2), fill=theme, stroke=deep,
                   stroke_width=0.4)

    corner()
    c.saveState()
    c.translate(w, h)
    c.rotate(180)
    corner()
    c.restoreState()

    # Title and subtitle between the indices.
    title = s.get("title", "")
    ctx.text(w / 2, h - panel - pt(5.4), title, "display", 10.5, ink, align="center", max_width=pw - pt(22))
    if s.get("subtitle"):
        ctx.text(w / 2, h - panel - pt(9.2), s["subtitle"], "serif-italic", 7.2, darken(theme, 0.5),
                 align="center", max_width=pw - pt(22))

    # Medallion with the big numeral over a watermark emblem.
    cx, cy, r = w / 2, h * 0.54, min(pw, ph) * 0.36
    ctx.medallion(cx, cy, r, theme, deep, 1.0, halo=lighten(theme, 0.55), halo_width=pt(1.6))
    art = s.get("art")
    if isinstance(art, Picture):  # the picture fills the medallion
        ctx.picture(art, cx - r, cy - r, 2 * r, 2 * r, shape="ellipse")
    else:
        ctx.symbol(str(art or emblem), cx, cy, r * 1.45,
                   fill=lighten(theme, 0.18) if on(theme) == color("#ffffff") else darken(theme, 0.08))
    numeral_ink = on(theme, dark=color("#17131f"), light=color("#ffffff"))
    size = ctx.fonts.fit(value, "display", r * 1.55, 58)
    c.setFont(ctx.fonts.name("display"), size)
    if isinstance(art, Picture):  # a halo in the deep shade keeps the numeral legible on any picture
        c.saveState()
        c.setStrokeColor(darken(theme, 0.5) if numeral_ink == color("#ffffff") else lighten(theme, 0.8))
        c.setLineWidth(size * 0.09)
        c.setLineJoin(1)
        c.drawCentredString(cx, cy - size * 0.36, value, mode=1)
        c.restoreState()
    ctx.text(cx, cy - size * 0.36, value, "display", size, numeral_ink, align="center")

    # Flavour or rules text under the medallion.
    text = s.get("text", "")
    if text:
        box_top = cy - r - pt(3.2)
        box_bottom = panel + ctx.footer_h + pt(2.8)
        ctx.paragraph(panel + pt(5), box_top, pw - pt(10), box_top - box_bottom, text, "serif-italic", 7.4,
                      min_size=6.2, fill=ink, align="center")
    return darken(theme, 0.4)


LAYOUT = Layout(
    "value", SLOTS["value"], draw,
                "Big central value in a medallion, corner indices with the emblem, coloured border.")
