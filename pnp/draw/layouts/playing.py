"""A standard playing card: rank and suit in two corners, pips for 2-10, a court panel,
a big ace, or a joker; plus a role label at both ends. Symmetric under a half turn."""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout

# Standard pip positions: (column -1/0/1, row 0 = top .. 1 = bottom) per count.
_SIDES = [(-1, 0.0), (1, 0.0), (-1, 1.0), (1, 1.0)]
PIPS: dict[int, list[tuple[int, float]]] = {
    1: [(0, 0.5)],
    2: [(0, 0.0), (0, 1.0)],
    3: [(0, 0.0), (0, 0.5), (0, 1.0)],
    4: _SIDES,
    5: _SIDES + [(0, 0.5)],
    6: _SIDES + [(-1, 0.5), (1, 0.5)],
    7: _SIDES + [(-1, 0.5), (1, 0.5), (0, 0.25)],
    8: _SIDES + [(-1, 0.5), (1, 0.5), (0, 0.25), (0, 0.75)],
    9: _SIDES + [(-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 0.5)],
    10: _SIDES + [(-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 1 / 6), (0, 5 / 6)],
}

INDEX_SIZE = 14.0   # rank in the corner index (points)
LABEL_SIZE = 7.0    # role label


def _both_ends(ctx: CardContext, fn: Callable[[], None]) -> None:
    """Draw `fn` as is and turned half way round about the card's centre."""
    fn()
    ctx.c.saveState()
    ctx.c.translate(ctx.w, ctx.h)
    ctx.c.rotate(180)
    fn()
    ctx.c.restoreState()


class _Pip:
    """Draws the suit symbol in the card's ink style: solid (black) or light with an outline (red)."""

    def __init__(self, ctx: CardContext, suit: str, ink: Color, light: bool):
        self.ctx, self.suit, self.ink = ctx, suit, ink
        self.fill = lighten(ink, 0.22) if light else ink
        self.stroke = darken(ink, 0.35) if light else None

    def __call__(self, x: float, y: float, size: float, upside_down: bool = False) -> None:
        if not self.suit:
            return
        c = self.ctx.c
        c.saveState()
        c.translate(x, y)
        if upside_down:
            c.rotate(180)
        self.ctx.symbol(self.suit, 0, 0, size, fill=self.fill, stroke=self.stroke,
                        stroke_width=0.7 if self.stroke is not None else None)
        c.restoreState()


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    w, h = ctx.w, ctx.h
    rank = str(s.get("rank", "")).strip()
    suit = str(s.get("suit") or "").strip()
    ink = color(s.get("color"), ctx.style.ink)
    light = str(s.get("tone", "solid")) == "light"
    tint = color(s.get("tint"), "#f1ecf7")
    accent = color(s.get("accent"), ctx.style.accent)
    paper = color(ctx.style.paper)
    kind = str(s.get("kind") or ("pips" if rank.isdigit() else "court"))
    pip = _Pip(ctx, suit, ink, light)

    ctx.fill_bleed(paper)
    ctx.round_rect(pt(1.7), pt(1.7), w - pt(3.4), h - pt(3.4), pt(2.6), stroke=accent, width=0.9)
    ctx.round_rect(pt(2.5), pt(2.5), w - pt(5.0), h - pt(5.0), pt(2.0), stroke=lighten(accent, 0.5), width=0.35)
    # Fairy touch: a sprig of leaves and a sparkle on the frame, mid-way down each long side.
    for x in (pt(1.7), w - pt(1.7)):
        for dy in (-1, 1):
            ctx.symbol("leaf", x, h / 2 + dy * pt(2.4), pt(2.6), fill=lighten(accent, 0.2))
        ctx.symbol("sparkle", x, h / 2, pt(2.4), fill=accent)

    # Corner index (top-left, and bottom-right by the half turn), clear of the footer strip.
    top = h - ctx.safe - ctx.footer_h - pt(0.5)
    ix = ctx.safe + pt(3.1)

    def index() -> None:
        if kind == "joker":
            y = top - pt(3.2)
            for letter in rank.upper():
                ctx.text(ix, y, letter, "condensed", 9.5, ink, align="center")
                y -= pt(3.5)
            return
        ctx.text(ix, top - INDEX_SIZE * 0.73, rank, "display", INDEX_SIZE, ink, align="center", max_width=pt(7.2),
                 min_size=10)
        pip(ix, top - INDEX_SIZE * 0.73 - pt(3.5), pt(4.4))

    _both_ends(ctx, index)

    # Role label at both ends, between the indices.
    role = str(s.get("role", "")).strip()
    label_h = pt(4.4)
    if role:
        def label() -> None:
            text = role.upper()
            lw = ctx.fonts.width(text, "condensed", LABEL_SIZE) + pt(4)
            fill = lighten(ink, 0.86) if kind != "joker" else lighten(ink, 0.8)
            ctx.round_rect(w / 2 - lw / 2, top - label_h, lw, label_h, label_h / 2, fill=fill,
                           stroke=lighten(ink, 0.35), width=0.5)
            ctx.text(w / 2, top - label_h / 2 - LABEL_SIZE * 0.36, text, "condensed", LABEL_SIZE, darken(ink, 0.2),
                     align="center", max_width=w - 2 * ctx.safe - pt(20))

        _both_ends(ctx, label)

    # The field between the labels.
    fx0, fx1 = ctx.safe + pt(7.4), w - ctx.safe - pt(7.4)
    fy0, fy1 = h - top + label_h + pt(1.4), top - label_h - pt(1.4)
    if isinstance(s.get("art"), Picture) and kind != "pips":  # the picture fills the field of a court, ace, joker
        ctx.picture(s["art"], fx0, fy0, fx1 - fx0, fy1 - fy0, shape="round", radius=pt(1.6))
        ctx.round_rect(fx0, fy0, fx1 - fx0, fy1 - fy0, pt(1.6), stroke=ink, width=0.9)
    elif kind == "pips":
        _pips(ctx, pip, int(rank) if rank.isdigit() else 0, fx0, fy0, fx1, fy1)
    elif kind == "ace":
        _ace(ctx, pip, s, fx0, fy0, fx1, fy1, ink, accent, paper)
    elif kind == "joker":
        _joker(ctx, s, fx0, fy0, fx1, fy1, ink, accent, tint)
    else:
        _court(ctx, pip, s, fx0, fy0, fx1, fy1, ink, accent, tint)
    return darken(ink, 0.1)


def _pips(ctx: CardContext, pip: _Pip, count: int, x0: float, y0: float, x1: float, y1: float) -> None:
    size = pt(8.2)
    cx = (x0 + x1) / 2
    dx = (x1 - x0) / 2 - size * 0.62
    top, bottom = y1 - size / 2, y0 + size / 2
    for col, row in PIPS.get(count, []):
        y = top - (top - bottom) * row
        pip(cx + col * dx, y, size, upside_down=row > 0.5)


def _ace(ctx: CardContext, pip: _Pip, s: Mapping[str, Any], x0: float, y0: float, x1: float, y1: float,
         ink: Color, accent: Color, paper: Color) -> None:
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) * 0.5
    c = ctx.c
    # Fairy ring: a wreath of sparkles and small leaves around the pip.
    c.setStrokeColor(lighten(accent, 0.45))
    c.setLineWidth(0.5)
    c.circle(cx, cy, r * 0.9, stroke=1, fill=0)
    for i in range(16):
        a = math.radians(i * 22.5)
        name = "sparkle" if i % 2 else "leaf"
        ctx.symbol(name, cx + r * 0.9 * math.cos(a), cy + r * 0.9 * math.sin(a), pt(2.6 if i % 2 else 2.2),
                   fill=accent if i % 2 else lighten(accent, 0.25))
    pip(cx, cy, r * 1.15)
    badge = str(s.get("badge") or "").strip()
    if badge:
        ctx.symbol(badge, cx, cy - r * 0.08, r * 0.5, fill=paper)


def _joker(ctx: CardContext, s: Mapping[str, Any], x0: float, y0: float, x1: float, y1: float, ink: Color,
           accent: Color, tint: Color) -> None:
    c = ctx.c
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + pt(3)
    r = min(x1 - x0, y1 - y0) * 0.46
    c.setFillColor(tint)
    c.circle(cx, cy, r, stroke=0, fill=1)
    c.setFillColor(lighten(ink, 0.65))
    for i in range(12):  # starburst
        a0, a1 = math.radians(i * 30 - 6), math.radians(i * 30 + 6)
        p = c.beginPath()
        p.moveTo(cx + r * 0.55 * math.cos(a0), cy + r * 0.55 * math.sin(a0))
        p.lineTo(cx + r * math.cos((a0 + a1) / 2), cy + r * math.sin((a0 + a1) / 2))
        p.lineTo(cx + r * 0.55 * math.cos(a1), cy + r * 0.55 * math.sin(a1))
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    emblem = str(s.get("emblem") or "fairy")
    ctx.symbol(emblem, cx, cy, r * 1.05, fill=ink)
    title = str(s.get("title") or "")
    if title:
        ctx.text(cx, y0 + pt(6.5), title, "display", 15, ink, align="center", max_width=x1 - x0)
    if s.get("subtitle"):
        ctx.text(cx, y0 + pt(2.4), str(s["subtitle"]), "serif-italic", 7.5, darken(ink, 0.1), align="center",
                 max_width=x1 - x0)


def _court(ctx: CardContext, pip: _Pip, s: Mapping[str, Any], x0: float, y0: float, x1: float, y1: float,
           ink: Color, accent: Color, tint: Color) -> None:
    """A framed, double-ended court panel: emblem between fairy wings, title, suit pip."""
    c = ctx.c
    pw, ph = x1 - x0, y1 - y0
    ctx.round_rect(x0, y0, pw, ph, pt(1.6), fill=tint, stroke=ink, width=0.9)
    ctx.round_rect(x0 + pt(1), y0 + pt(1), pw - pt(2), ph - pt(2), pt(1.2), stroke=lighten(ink, 0.45), width=0.35)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    emblem = str(s.get("emblem") or "crown")
    title = str(s.get("title") or "")
    subtitle = str(s.get("subtitle") or "")
    half = ph / 2

    def upper() -> None:
        ey = cy + half * 0.6
        wing_fill = lighten(accent, 0.35)
        for side in (-1, 1):
            c.saveState()
            c.translate(cx + side * pt(8.6), ey + pt(1.5))
            c.scale(side, 1)
            ctx.symbol("wing", 0, 0, pt(11), fill=wing_fill, stroke=darken(accent, 0.1), stroke_width=0.4)
            c.restoreState()
        ctx.symbol(emblem, cx, ey, pt(12), fill=ink)
        if title:
            ctx.text(cx, cy + pt(7.4), title, "display", 10.5, darken(ink, 0.15), align="center", max_width=pw - pt(5))
        if subtitle:
            ctx.text(cx, cy + pt(3.4), subtitle, "serif-italic", 7.2, darken(ink, 0.1), align="center",
                     max_width=pw - pt(5))
        pip(x0 + pt(4), y1 - pt(4.2), pt(4.4))

    _both_ends(ctx, upper)
    c.setStrokeColor(lighten(ink, 0.3))
    c.setLineWidth(0.5)
    c.line(x0 + pt(2.5), cy, cx - pt(3), cy)
    c.line(cx + pt(3), cy, x1 - pt(2.5), cy)
    pip(cx, cy, pt(3.6))


LAYOUT = Layout(
    "playing", SLOTS["playing"], draw,
                "Standard playing card: rank+suit corner indices, pips 2-10, court panel, ace, joker; "
                "role label at both ends; half-turn symmetric.")
