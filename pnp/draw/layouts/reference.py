"""A reference card: a title band, a short text and an optional two-column table.

Text shrinks to fit but never below MIN_SIZE (7 pt, legible at arm's length);
content that does not fit then is an error, so it gets split over more cards.
"""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout

MIN_SIZE = 7.0


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(ctx.style.ink)
    ctx.fill_bleed(theme)
    panel = pt(2.6)
    ctx.round_rect(panel, panel, w - 2 * panel, h - 2 * panel, pt(2.2), fill=paper, stroke=darken(theme, 0.3), width=0.7)

    # Title band.
    band_h = pt(10)
    top = h - ctx.safe
    c.setFillColor(theme)
    c.rect(panel, top - band_h, w - 2 * panel, band_h + (h - panel - top), stroke=0, fill=1)
    title_ink = on(theme)
    x = ctx.safe + pt(1)
    if isinstance(s.get("art"), Picture):  # a picture takes the emblem's place in the band
        ctx.picture(s["art"], x, top - band_h + pt(1), band_h - pt(2), band_h - pt(2))
        x += band_h - pt(0.5)
    elif s.get("emblem"):
        ctx.symbol(s["emblem"], x + pt(3), top - band_h / 2, pt(6), fill=title_ink)
        x += pt(7.5)
    ctx.text(x, top - band_h / 2 - pt(1.4), s.get("title", ""), "display", 10, title_ink,
             max_width=w - x - ctx.safe - pt(1))

    inner_x = ctx.safe + pt(0.8)
    inner_w = w - 2 * inner_x
    y = top - band_h - pt(2.2)
    bottom = ctx.safe + ctx.footer_h + pt(1)
    body = str(s.get("text", "")).strip()
    rows = [tuple(r) for r in (s.get("rows") or [])]
    size = float(s.get("size", 7.4))
    if body:
        room = (y - bottom) * (0.28 if rows else 1.0)
        used = ctx.paragraph(inner_x, y, inner_w, room, body, "body", size, min_size=MIN_SIZE)
        lines = ctx.wrap(body, "body", used, inner_w)
        y -= len(lines) * used * 1.2 + pt(1.5)
    if rows:
        _table(ctx, rows, inner_x, y, inner_w, y - bottom, theme, ink, size)
    return darken(theme, 0.4)


def _table(ctx: CardContext, rows: list[tuple], x: float, top: float, width: float, height: float,
           theme: Color, ink: Color, size: float) -> None:
    """Rows of (label, text); shrinks text until the table fits its box."""
    label_w = max(ctx.fonts.width(str(r[0]), "bold", size) for r in rows) + pt(2)
    label_w = min(label_w, width * 0.38)
    while True:
        text_w = width - label_w - pt(1.5)
        wrapped = [ctx.wrap(str(r[1]) if len(r) > 1 else "", "body", size, text_w) for r in rows]
        heights = [max(1, len(lines)) * size * 1.16 + pt(1.0) for lines in wrapped]
        if sum(heights) <= height or size <= MIN_SIZE:
            break
        size -= 0.2
        label_w = min(max(ctx.fonts.width(str(r[0]), "bold", size) for r in rows) + pt(2), width * 0.38)
    if sum(heights) > height + 0.01:
        raise ValueError(f"table of {len(rows)} rows does not fit its card even at {MIN_SIZE:g} pt; "
                         "split it over more cards")
    y = top
    for i, (row, lines, rh) in enumerate(zip(rows, wrapped, heights)):
        if i % 2 == 0:
            ctx.c.setFillColor(lighten(theme, 0.82))
            ctx.c.rect(x - pt(0.6), y - rh, width + pt(1.2), rh, stroke=0, fill=1)
        base = y - size - pt(0.35)
        ctx.text(x + pt(0.4), base, str(row[0]), "bold", size, darken(theme, 0.45), max_width=label_w - pt(0.8))
        ly = base
        for line in lines:
            ctx.text(x + label_w, ly, line, "body", size, ink)
            ly -= size * 1.16
        y -= rh


LAYOUT = Layout(
    "reference", SLOTS["reference"], draw,
                "Title band, text and a two-column table (label, explanation).")
