"""A large mat card: title banner, an emblem, a marked space where another card is laid, and a text panel."""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, on
from pnp.geometry.sizes import card_size, pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(ctx.style.ink)
    deep = darken(theme, 0.4)
    ctx.fill_bleed(theme)
    # A scattered pattern of the emblem in the border.
    picture = s.get("art") if isinstance(s.get("art"), Picture) else None
    art = "sparkle" if picture else str(s.get("art") or "sparkle")
    step = pt(9)
    for i in range(int(w / step) + 2):
        for y in (pt(1.6), h - pt(1.6)):
            ctx.symbol(art if i % 2 else "sparkle", i * step, y, pt(2.2), fill=lighten(theme, 0.25))
    for j in range(int(h / step) + 2):
        for x in (pt(1.6), w - pt(1.6)):
            ctx.symbol("sparkle" if j % 2 else art, x, j * step, pt(2.2), fill=lighten(theme, 0.25))
    panel = pt(4)
    ctx.round_rect(panel, panel, w - 2 * panel, h - 2 * panel, pt(4), fill=paper, stroke=deep, width=1.2)
    ctx.round_rect(panel + pt(1.2), panel + pt(1.2), w - 2 * panel - pt(2.4), h - 2 * panel - pt(2.4), pt(3),
                   stroke=lighten(theme, 0.3), width=0.5)

    # Title banner with the emblem on either side.
    top = h - panel - pt(3)
    band_h = pt(14)
    ctx.round_rect(panel + pt(6), top - band_h, w - 2 * panel - pt(12), band_h, pt(3), fill=theme,
                   stroke=deep, width=0.8)
    title_ink = on(theme)
    ctx.text(w / 2, top - band_h / 2 - pt(2.2), str(s.get("title", "")), "display", 20, title_ink,
             align="center", max_width=w - 2 * panel - pt(36))
    for x in (panel + pt(12), w - panel - pt(12)):
        ctx.symbol(art, x, top - band_h / 2, pt(9), fill=title_ink)
    y = top - band_h - pt(2)
    if s.get("subtitle"):
        ctx.text(w / 2, y - 9, str(s["subtitle"]), "serif-italic", 9.5, deep, align="center",
                 max_width=w - 2 * panel - pt(8))
        y -= 9 + pt(3)

    # The marked space for a card, drawn as a dashed outline with a label.
    space = card_size(str(s.get("space") or "poker"))
    sw, sh = pt(space.w), pt(space.h)
    text = str(s.get("text") or "").strip()
    text_h = pt(30) if text else 0.0
    floor = panel + ctx.footer_h + pt(4) + text_h
    sy = max(floor + pt(3), (y + floor) / 2 - sh / 2)
    sx = w / 2 - sw / 2
    if sy + sh > y:
        raise ValueError(f"the {space.label()} space does not fit under the title")
    # The emblem as a large, faint picture behind the space.
    if picture:  # the picture fills the area around the space
        ctx.picture(picture, panel + pt(5), floor, w - 2 * panel - pt(10), y - floor, shape="round", radius=pt(3))
    else:
        ctx.symbol(art, w / 2, (y + floor) / 2, min(w - 2 * panel - pt(10), y - floor), fill=lighten(theme, 0.78))
    ctx.round_rect(sx - pt(2.5), sy - pt(2.5), sw + pt(5), sh + pt(5), pt(4.5), fill=lighten(theme, 0.88),
                   stroke=lighten(theme, 0.4), width=0.6)
    c.setDash(4, 3)
    ctx.round_rect(sx, sy, sw, sh, pt(3), stroke=deep, width=1.2)
    c.setDash()
    if s.get("space_symbol"):
        ctx.symbol(str(s["space_symbol"]), w / 2, sy + sh * 0.58, min(sw, sh) * 0.4, fill=lighten(theme, 0.55))
    if s.get("space_label"):
        ctx.paragraph(sx + pt(5), sy + sh * 0.3, sw - pt(10), sh * 0.22, str(s["space_label"]), "display", 10,
                      min_size=8, fill=deep, align="center")
    if text:
        ctx.round_rect(panel + pt(5), panel + ctx.footer_h + pt(3), w - 2 * panel - pt(10), text_h - pt(1),
                       pt(3), fill=lighten(theme, 0.88), stroke=lighten(theme, 0.4), width=0.6)
        ctx.paragraph(panel + pt(8), floor - pt(1.5), w - 2 * panel - pt(16), text_h - pt(2), text, "serif", 9.5,
                      min_size=8, fill=ink, align="center", valign="middle")
    return deep


LAYOUT = Layout(
    "mat", SLOTS["mat"],
                draw, "Large card: title banner, a dashed space sized for another card, and a text panel.")
