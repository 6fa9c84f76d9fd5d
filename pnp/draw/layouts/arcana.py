"""A tarot-size character card: roman numeral, an arched window with the element emblem,
the character's name, link rows, a line of text and the arcana name on a ribbon."""
from __future__ import annotations

import math
from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, luminance, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.data.templating.engine import numeral
from pnp.draw.layouts import Layout

def link_rows(value: Any) -> list[tuple[str, str]]:
    """(label, text) pairs from a list of pairs, skipping rows with no text."""
    rows = []
    for row in value or []:
        items = list(row) if isinstance(row, (list, tuple)) else [row]
        label = str(items[0]) if items else ""
        text = str(items[1]) if len(items) > 1 else ""
        if text.strip():
            rows.append((label, text))
    return rows


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    w, h = ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    gold = color(s.get("accent"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(ctx.style.ink)
    deep = darken(theme, 0.35) if luminance(theme) > 0.35 else theme
    emblem = s.get("emblem") or "star"

    # Coloured border with a fine gold frame, then the paper panel.
    ctx.fill_bleed(theme)
    ctx.round_rect(pt(1.6), pt(1.6), w - pt(3.2), h - pt(3.2), pt(3), stroke=lighten(gold, 0.25), width=0.6)
    panel = pt(3.2)
    pw = w - 2 * panel
    ctx.round_rect(panel, panel, pw, h - 2 * panel, pt(2.4), fill=paper, stroke=darken(gold, 0.2), width=0.9)
    ctx.round_rect(panel + pt(0.9), panel + pt(0.9), pw - pt(1.8), h - 2 * panel - pt(1.8), pt(1.8),
                   stroke=lighten(gold, 0.35), width=0.35)

    # Numeral in a cartouche at the top (the top-right corner stays free for the deck mark).
    top = h - ctx.safe
    number = numeral(s.get("number"))
    cy_num = top - pt(5.4)
    cart_w, cart_h = pt(24), pt(8.2)
    ctx.round_rect(w / 2 - cart_w / 2, cy_num - cart_h / 2, cart_w, cart_h, cart_h / 2, fill=lighten(theme, 0.86),
                   stroke=deep, width=0.7)
    for side in (-1, 1):
        ctx.symbol("sparkle", w / 2 + side * (cart_w / 2 + pt(3.2)), cy_num, pt(3.2), fill=gold)
    if number:
        ctx.text(w / 2, cy_num - pt(2.0), number, "display", 15, deep, align="center", max_width=cart_w - pt(4))
    else:
        ctx.symbol("star", w / 2, cy_num, pt(5), fill=deep)

    # Arched window: rays behind a medallion holding the element emblem.
    win_top = cy_num - cart_h / 2 - pt(2.2)
    win_w = pw - pt(8)
    win_x = w / 2 - win_w / 2
    win_bottom = h * 0.45
    _window(ctx, win_x, win_bottom, win_w, win_top - win_bottom, theme, gold, emblem, s.get("art"))

    # Element label pill straddling the window's bottom edge.
    label = str(s.get("element", "")).strip()
    if label:
        lw = ctx.fonts.width(label.upper(), "condensed", 7.5) + pt(9)
        ph = pt(5)
        ctx.round_rect(w / 2 - lw / 2, win_bottom - ph / 2, lw, ph, ph / 2, fill=deep, stroke=gold, width=0.6)
        ctx.symbol(emblem, w / 2 - lw / 2 + pt(3), win_bottom, pt(3.2), fill=on(deep))
        ctx.text(w / 2 + pt(1.8), win_bottom - pt(0.95), label.upper(), "condensed", 7.5, on(deep), align="center")

    # Ribbon with the arcana name above the footer.
    ribbon_h = pt(7.4)
    ribbon_y = ctx.safe + ctx.footer_h + pt(0.8)
    _ribbon(ctx, ribbon_y, ribbon_h, pw - pt(6), deep, gold)
    ctx.text(w / 2, ribbon_y + ribbon_h / 2 - pt(1.25), str(s.get("title", "")).upper(), "display", 9.5,
             on(deep), align="center", max_width=pw - pt(18))

    # Name, epithet, links and text flow down from the window to the ribbon.
    inner_x = ctx.safe + pt(2.2)
    inner_w = w - 2 * inner_x
    y = win_bottom - pt(4.6) - pt(4.6)
    used = ctx.text(w / 2, y, str(s.get("name", "")), "display", 13, ink, align="center", max_width=inner_w)
    y -= used * 0.35 + pt(3.2)
    if s.get("subtitle"):
        ctx.text(w / 2, y, str(s["subtitle"]), "serif-italic", 8, darken(theme, 0.3) if luminance(theme) > 0.5
                 else theme, align="center", max_width=inner_w)
        y -= pt(2.6)
    _rule(ctx, w / 2, y, pt(26), gold)
    y -= pt(2.2)

    rows = link_rows(s.get("links"))
    bottom = ribbon_y + ribbon_h + pt(1.5)
    if rows:
        y = _rows(ctx, rows, inner_x, y, inner_w, theme, deep, ink)
    text = str(s.get("text", "")).strip()
    if text and y - bottom > pt(3):
        ctx.paragraph(inner_x, y - pt(0.6), inner_w, y - bottom - pt(0.6), text, "serif-italic", 8, min_size=7,
                      fill=ink, align="center", valign="middle")
    return darken(theme, 0.5)


def _window(ctx: CardContext, x: float, y: float, w: float, h: float, theme: Color, gold: Color,
            emblem: str, art: Any = None) -> None:
    """An arch-topped panel with rays and a medallion in its lower part."""
    c = ctx.c
    r = w / 2
    path = c.beginPath()
    path.moveTo(x, y)
    path.lineTo(x, y + h - r)
    path.arcTo(x, y + h - 2 * r, x + w, y + h, startAng=180, extent=-180)
    path.lineTo(x + w, y)
    path.close()
    c.saveState()
    c.setFillColor(lighten(theme, 0.78))
    c.setStrokeColor(darken(gold, 0.1))
    c.setLineWidth(0.9)
    c.drawPath(path, stroke=1, fill=1)
    c.clipPath(path, stroke=0, fill=0)
    cx, cy = x + w / 2, y + h * 0.44
    # Rays: alternating wedges.
    c.setFillColor(lighten(theme, 0.62))
    reach = h * 1.2
    for i in range(24):
        if i % 2:
            continue
        a0, a1 = math.radians(i * 15), math.radians((i + 1) * 15)
        p = c.beginPath()
        p.moveTo(cx, cy)
        p.lineTo(cx + reach * math.cos(a0), cy + reach * math.sin(a0))
        p.lineTo(cx + reach * math.cos(a1), cy + reach * math.sin(a1))
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    c.restoreState()
    # Medallion.
    mr = min(w * 0.36, h * 0.36)
    ctx.medallion(cx, cy, mr, theme, gold, 1.4, halo=lighten(theme, 0.45), halo_width=pt(1.8))
    c.setLineWidth(0.4)
    c.setStrokeColor(lighten(gold, 0.4))
    c.circle(cx, cy, mr - pt(1.1), stroke=1, fill=0)
    if isinstance(art, Picture):  # the picture fills the medallion
        disc = mr - pt(1.1)
        ctx.picture(art, cx - disc, cy - disc, 2 * disc, 2 * disc, shape="ellipse")
    else:
        ctx.symbol(str(art or emblem), cx, cy, mr * 1.25,
                   fill=on(theme, dark=darken(theme, 0.75), light=color("#ffffff")))
    # Small stars in the arch's shoulders.
    for side in (-1, 1):
        ctx.symbol("star", cx + side * (mr + pt(5)), cy + mr + pt(3), pt(2.6), fill=gold)


def _ribbon(ctx: CardContext, y: float, h: float, width: float, fill: Color, gold: Color) -> None:
    """A banner with notched tails."""
    c = ctx.c
    x0, x1 = ctx.w / 2 - width / 2, ctx.w / 2 + width / 2
    notch = h * 0.45
    p = c.beginPath()
    p.moveTo(x0, y)
    p.lineTo(x1, y)
    p.lineTo(x1 - notch, y + h / 2)
    p.lineTo(x1, y + h)
    p.lineTo(x0, y + h)
    p.lineTo(x0 + notch, y + h / 2)
    p.close()
    c.setFillColor(fill)
    c.setStrokeColor(gold)
    c.setLineWidth(0.7)
    c.drawPath(p, stroke=1, fill=1)


def _rule(ctx: CardContext, cx: float, y: float, width: float, gold: Color) -> None:
    c = ctx.c
    c.setStrokeColor(gold)
    c.setLineWidth(0.6)
    c.line(cx - width / 2, y, cx - pt(2.2), y)
    c.line(cx + pt(2.2), y, cx + width / 2, y)
    ctx.symbol("diamond", cx, y, pt(2.4), fill=gold)


def _rows(ctx: CardContext, rows: list[tuple[str, str]], x: float, top: float, width: float, theme: Color,
          deep: Color, ink: Color) -> float:
    """Label/text rows (e.g. master and servant links); returns the y below them."""
    size = 7.6
    label_w = max(ctx.fonts.width(r[0], "bold", size) for r in rows) + pt(2.2)
    y = top
    for label, text in rows:
        lines = ctx.wrap(text, "body", size, width - label_w)
        rh = len(lines) * size * 1.18 + pt(1.2)
        ctx.c.setFillColor(lighten(theme, 0.86))
        ctx.c.rect(x - pt(0.8), y - rh, width + pt(1.6), rh, stroke=0, fill=1)
        base = y - size - pt(0.3)
        ctx.text(x, base, label, "bold", size, deep)
        for line in lines:
            ctx.text(x + label_w, base, line, "body", size, ink)
            base -= size * 1.18
        y -= rh + pt(0.6)
    return y


LAYOUT = Layout(
    "arcana", SLOTS["arcana"], draw,
                "Tarot-size character card: roman numeral, arched window with the emblem, name, "
                "link rows, text, and a ribbon with the card's title (e.g. the arcana name).")
