"""A portrait card: title, a large illustration disc, corner indices, optional badges and a text box.

Corner indices (a value over a symbol and a short label) sit top-left and,
turned half round, bottom-right, so a card reads in a fanned hand. A row of
badges under the title shows small labelled symbols (a badge may be crossed
out, e.g. something a character dislikes, or empty when it says nothing).
A ribbon across the foot of the illustration names the card's colour or kind
in words and with a symbol, so no fact is told by colour alone.
"""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, luminance, mix, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout

PANEL = pt(3.4)        # inset of the paper panel from the trim
CORNER_W = pt(8.6)     # width kept for each corner index


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(s.get("ink") or ctx.style.ink)
    deep = darken(theme, 0.45)

    ctx.fill_bleed(theme)
    ctx.round_rect(pt(1.6), pt(1.6), w - pt(3.2), h - pt(3.2), pt(3.4), stroke=lighten(theme, 0.5), width=0.45)
    pw = w - 2 * PANEL
    ctx.round_rect(PANEL, PANEL, pw, h - 2 * PANEL, pt(2.6), fill=paper, stroke=deep, width=0.8)

    has_corner = bool(s.get("value") or s.get("index_symbol"))
    if has_corner:
        _corner(ctx, s, theme, deep)
        c.saveState()
        c.translate(w, h)
        c.rotate(180)
        _corner(ctx, s, theme, deep)
        c.restoreState()

    # Measure the head (title, subtitle, badges) and the text box, draw the illustration
    # into the space between, then the head and text on top of its backdrop.
    side = CORNER_W + pt(1.5) if has_corner else pt(3)
    if ctx.mark:
        side = max(side, pt(7))
    top = h - PANEL - pt(1.6)
    title_w = w - 2 * (PANEL + side)
    title = str(s.get("title", ""))
    y = _title(ctx, title, w / 2, top, title_w, ink, draw=False)
    sub_y = y - pt(0.6) - 7
    if s.get("subtitle"):
        y = sub_y - pt(1.2)
    badges = [b for b in (s.get("badges") or []) if isinstance(b, Mapping)]
    badge_top = y - pt(1.5)
    if badges:
        y = _badges(ctx, badges, PANEL + pt(2), badge_top, pw - pt(4), ink, theme, draw=False)

    bottom = PANEL + ctx.footer_h + pt(3.4) + (pt(8.6) if has_corner else 0)
    text = str(s.get("text") or "").strip()
    box_bottom = PANEL + ctx.footer_h + pt(2.4)
    box_h = 0.0
    if text:
        box_h = pt(float(s["text_height"])) if s.get("text_height") else _text_height(ctx, text, pw, s)
        bottom = box_bottom + box_h + pt(2.2)
    _art(ctx, s, theme, deep, y - pt(1.5), bottom, pw)

    _title(ctx, title, w / 2, top, title_w, ink, draw=True)
    if s.get("subtitle"):
        ctx.text(w / 2, sub_y, str(s["subtitle"]), "serif-italic", 7.2, darken(theme, 0.55), align="center",
                 max_width=title_w, min_size=6.5)
    if badges:
        _badges(ctx, badges, PANEL + pt(2), badge_top, pw - pt(4), ink, theme, draw=True)
    if text:
        bx = PANEL + (CORNER_W if has_corner else pt(2))
        bw = w - 2 * bx
        ctx.round_rect(bx, box_bottom, bw, box_h, pt(1.8), fill=lighten(theme, 0.86), stroke=lighten(theme, 0.4),
                       width=0.5)
        role = s.get("text_role") or "serif-italic"
        ctx.paragraph(bx + pt(1.6), box_bottom + box_h - pt(1.4), bw - pt(3.2), box_h - pt(2.4), text, role,
                      float(s.get("text_size", 7.6)), min_size=7.0, fill=ink, align="center", valign="middle")
    return darken(theme, 0.5)


def _title(ctx: CardContext, title: str, cx: float, top: float, width: float, ink: Color,
           draw: bool = True) -> float:
    """Draw (or only measure) the title below `top`; returns the y under it."""
    if not title:
        return top
    size = ctx.fonts.fit(title, "display", width, 11)
    if size >= 8.6:
        if draw:
            ctx.text(cx, top - size, title, "display", size, ink, align="center")
        return top - size * 1.3
    size = 9.0
    lines = ctx.wrap(title, "display", size, width)
    while len(lines) > 2 and size > 7.2:
        size -= 0.3
        lines = ctx.wrap(title, "display", size, width)
    y = top - size
    for line in lines:
        if draw:
            ctx.text(cx, y, line, "display", size, ink, align="center", max_width=width)
        y -= size * 1.12
    return y + size * 1.12 - size * 0.35


def _corner(ctx: CardContext, s: Mapping[str, Any], theme: Color, deep: Color) -> None:
    """Value, symbol and label stacked in the top-left corner of the panel."""
    cx = PANEL + CORNER_W / 2 + pt(0.5)
    y = ctx.h - PANEL - pt(1.4)
    value = str(s.get("value") or "")
    if value:
        size = ctx.fonts.fit(value, "display", CORNER_W - pt(1), 16, 9)
        ctx.text(cx, y - size * 0.78, value, "display", size, deep, align="center")
        y -= size * 0.78 + pt(1.2)
    if s.get("index_symbol"):
        sym = pt(5.0)
        fill = color(s.get("index_color") or theme)
        ctx.symbol(str(s["index_symbol"]), cx, y - sym / 2, sym, fill=fill, stroke=deep, stroke_width=0.45)
        y -= sym + pt(0.6)
    if s.get("index_label"):
        ctx.text(cx, y - 5.6, str(s["index_label"]), "condensed", 6.0, deep, align="center",
                 max_width=CORNER_W + pt(0.4), min_size=5.2)


def _badges(ctx: CardContext, badges: list[Mapping[str, Any]], x: float, top: float, width: float, ink: Color,
            theme: Color, draw: bool = True) -> float:
    """A row of labelled symbol discs (drawn, or only measured); returns the y under it."""
    n = len(badges)
    cell = width / n
    r = min(cell * 0.32, pt(5.2))
    cap_h = 6.4 + pt(0.8) if any(b.get("caption") for b in badges) else 0.0
    cy = top - cap_h - r
    if not draw:
        return cy - r - 7.2 - pt(1.2)
    for i, b in enumerate(badges):
        cx = x + cell * (i + 0.5)
        fill = color(b.get("color") or "#ffffff")
        edge = darken(theme, 0.5)
        ctx.c.setFillColor(fill)
        ctx.c.setStrokeColor(edge)
        ctx.c.setLineWidth(0.8)
        if b.get("empty"):
            ctx.c.setDash(1.5, 1.5)
            ctx.c.setFillColor(color(ctx.style.paper))
        ctx.c.circle(cx, cy, r, stroke=1, fill=1)
        ctx.c.setDash()
        if b.get("symbol") and not b.get("empty"):
            sym_ink = on(fill, dark=color("#1b1622"), light=color("#ffffff"))
            ctx.symbol(str(b["symbol"]), cx, cy, r * (1.1 if b.get("cross") else 1.25), fill=sym_ink)
        if b.get("cross"):
            ctx.symbol("dislike", cx, cy, r * 2.15, fill=color(b.get("cross_color") or "#b3202a"))
        if b.get("caption"):
            ctx.text(cx, top - 6.4 * 0.8, str(b["caption"]), "condensed", 6.4, darken(theme, 0.5), align="center",
                     max_width=cell - pt(1), min_size=6.0)
        ctx.text(cx, cy - r - 7.2, str(b.get("label", "")), "bold", 7.0, ink, align="center",
                 max_width=cell - pt(0.6), min_size=6.4)
    return cy - r - 7.2 - pt(1.2)


def _text_height(ctx: CardContext, text: str, pw: float, s: Mapping[str, Any]) -> float:
    """Height for the text box: its lines at the preferred size, within a third of the card."""
    role = s.get("text_role") or "serif-italic"
    size = float(s.get("text_size", 7.6))
    lines = ctx.wrap(text, role, size, pw - 2 * CORNER_W - pt(3.2))
    return min(ctx.h * 0.36, len(lines) * size * 1.2 + pt(2.6))


def _art(ctx: CardContext, s: Mapping[str, Any], theme: Color, deep: Color, top: float, bottom: float,
         pw: float) -> None:
    """The illustration disc with its symbol, an optional faint backdrop symbol and the ribbon."""
    c, w = ctx.c, ctx.w
    ribbon = str(s.get("ribbon") or "")
    rib_h = pt(5.4) if ribbon else 0.0
    avail = top - bottom - rib_h * 0.5
    r = max(pt(6), min(avail / 2, pw / 2 - CORNER_W * 0.7))
    cx, cy = w / 2, bottom + rib_h * 0.5 + (avail) / 2
    if s.get("backdrop"):
        c.saveState()
        clip = c.beginPath()
        clip.roundRect(PANEL, PANEL, pw, ctx.h - 2 * PANEL, pt(2.6))
        c.clipPath(clip, stroke=0, fill=0)
        ctx.symbol(str(s["backdrop"]), cx, cy, r * 2.5, fill=lighten(theme, 0.8))
        c.restoreState()
    fill = color(s.get("art_color") or theme)
    # A light picture gets a dark disc and a dark one a light disc, so it stands out in grayscale too.
    light_art = luminance(fill) > 0.6
    night = mix(color(ctx.style.ink), theme, 0.22)
    ctx.medallion(cx, cy, r - pt(1.1), night if light_art else lighten(theme, 0.78), theme, 1.6,
                  halo=darken(theme, 0.25) if light_art else lighten(theme, 0.62), halo_width=pt(1.1))
    if isinstance(s.get("art"), Picture):  # the picture fills the disc
        disc = r - pt(1.1)
        ctx.picture(s["art"], cx - disc, cy - disc, 2 * disc, 2 * disc, shape="ellipse")
    elif s.get("art"):
        ctx.symbol(str(s["art"]), cx, cy + (rib_h * 0.25), r * 1.32, fill=fill, stroke=deep, stroke_width=0.9)
    if ribbon:
        rw = min(pw - pt(6), max(r * 2.1, ctx.fonts.width(ribbon, "condensed", 8) + pt(12)))
        ry = cy - r - rib_h * 0.35
        band = color(s.get("ribbon_color") or theme)
        ctx.round_rect(cx - rw / 2, ry, rw, rib_h, rib_h / 2, fill=band, stroke=darken(band, 0.45), width=0.7)
        text_ink = on(band, dark=color("#17131f"), light=color("#ffffff"))
        tx = cx
        if s.get("ribbon_symbol"):
            ctx.symbol(str(s["ribbon_symbol"]), cx - rw / 2 + rib_h * 0.62, ry + rib_h / 2, rib_h * 0.72,
                       fill=text_ink)
            tx += rib_h * 0.3
        ctx.text(tx, ry + rib_h / 2 - 2.9, ribbon, "condensed", 8, text_ink, align="center",
                 max_width=rw - rib_h * 1.5, min_size=6.5)


LAYOUT = Layout(
    "portrait", SLOTS["portrait"],
    draw,
    "Title, large illustration disc with a naming ribbon, corner indices (value, symbol, label), "
    "optional row of badges (symbol, label, crossed or empty) and a text box.")
