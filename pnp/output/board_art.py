"""The picture of a board: frame, areas, card spaces, positions and the links between them.

Drawn in board millimetres from its `BoardSpec`; `boards` tiles it onto paper,
and booklets show it scaled down.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.boardspec import Area, BoardSpec, Position
from pnp.data.format.colours import darken, lighten
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.draw.context import CardContext, color
from pnp.draw.images import Artwork
from pnp.geometry.sizes import pt
from pnp.resolve.fonts import Fonts

CORNER = 3.0  # mm radius of card spaces


def draw_board(c: Canvas, game: Game, spec: BoardSpec, fonts: Fonts, comp: Component | None = None) -> None:
    """Draw the whole board with its lower-left corner at the origin, 1 unit = 1 pt.

    A space or position that cannot be drawn (its text does not fit its box) is an InputError naming its
    line in the database (the component's line when `comp` is not given)."""
    W, H = pt(spec.w), pt(spec.h)
    ctx = CardContext(
        c, W, H, 0.0, fonts, game.style, art=Artwork.for_project(game.root, game.symbols, draft=game.draft)
    )
    theme = color(spec.color or game.style.accent)
    paper = color(game.style.paper)
    ink = color(game.style.ink)
    c.saveState()
    c.setFillColor(paper)
    c.rect(0, 0, W, H, stroke=0, fill=1)
    _frame(ctx, spec, theme)
    if spec.title:
        ctx.text(
            W / 2,
            H - pt(17),
            spec.title,
            "display",
            22,
            darken(theme, 0.25),
            align="center",
            max_width=W - pt(60),
        )
    if spec.subtitle:
        ctx.text(
            W / 2, H - pt(23.5), spec.subtitle, "serif-italic", 10, ink, align="center", max_width=W - pt(60)
        )
    for area in spec.areas:
        with _located(game, comp, "areas", area.key):
            _area(ctx, spec, area, theme, ink)
    for link in spec.links:
        _link(ctx, spec.position(link.a), spec.position(link.b), link.kind, theme, spec)
    for position in spec.positions:
        with _located(game, comp, "positions", position.key):
            _position(ctx, spec, position, theme, ink)
    _side_labels(ctx, spec, theme)
    c.restoreState()


@contextmanager
def _located(game: Game, comp: Component | None, group: str, key: str) -> Iterator[None]:
    """A ValueError drawing the space or position `key` as an InputError at its line (a repeated space's
    copies, key-1, key-2..., at the line of the space they repeat)."""
    try:
        yield
    except ValueError as exc:
        items = getattr(getattr(comp, "board", None), group, ()) or ()
        found = [
            (i, item) for i, item in enumerate(items) if key == item.key or key.rpartition("-")[0] == item.key
        ]
        i, item = found[0] if found else (None, None)
        where = f"components[{comp.key}].board.{group}[{i}]" if comp and i is not None else f"board {group}"
        line = getattr(item, "line", None) or getattr(comp, "line", None)
        raise InputError(
            [Problem(game.where, line, where, f"{key}: {exc}; make the space larger or its text shorter")]
        ) from None


def _frame(ctx: CardContext, spec: BoardSpec, theme: Color) -> None:
    """Double rule round the edge with an emblem in each corner."""
    W, H = ctx.w, ctx.h
    ctx.round_rect(pt(4), pt(4), W - pt(8), H - pt(8), pt(5), stroke=theme, width=1.8)
    ctx.round_rect(
        pt(6.2), pt(6.2), W - pt(12.4), H - pt(12.4), pt(3.6), stroke=lighten(theme, 0.35), width=0.5
    )
    emblem = spec.emblem or "sparkle"
    for x, y in ((pt(11), pt(11)), (W - pt(11), pt(11)), (pt(11), H - pt(11)), (W - pt(11), H - pt(11))):
        ctx.symbol(emblem, x, y, pt(7), fill=lighten(theme, 0.15))


def _box(spec: BoardSpec, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """Database box (mm, from the top-left) as PDF points from the lower-left."""
    return pt(x), pt(spec.h - y - h), pt(w), pt(h)


def _flipped(ctx: CardContext, x: float, y: float, w: float, h: float, flip: bool) -> None:
    """Turn the drawing 180 degrees about the box centre, for the player across the table."""
    if flip:
        ctx.c.translate(x + w / 2, y + h / 2)
        ctx.c.rotate(180)
        ctx.c.translate(-(x + w / 2), -(y + h / 2))


def _card_space(
    ctx: CardContext,
    x: float,
    y: float,
    w: float,
    h: float,
    tint: Color,
    dashed: bool = True,
    width: float = 0.9,
    fill: bool = True,
) -> None:
    c = ctx.c
    c.setLineWidth(width)
    c.setStrokeColor(darken(tint, 0.15))
    c.setFillColor(lighten(tint, 0.86))
    if dashed:
        c.setDash(5, 3)
    c.roundRect(x, y, w, h, pt(CORNER), stroke=1, fill=1 if fill else 0)
    c.setDash()


def _label_block(
    ctx: CardContext, x: float, y: float, w: float, h: float, label: str, note: str, ink: Color, tint: Color
) -> None:
    """A space's label (bold) and note (italic), near its top edge."""
    pad = pt(3)
    if label:
        ctx.paragraph(
            x + pad,
            y + h - pad,
            w - 2 * pad,
            pt(12),
            label,
            "bold",
            11,
            7,
            fill=darken(tint, 0.55),
            align="center",
        )
    if note:
        ctx.paragraph(
            x + pad,
            y + pt(3) + pt(14),
            w - 2 * pad,
            pt(14),
            note,
            "serif-italic",
            8,
            6,
            fill=ink,
            align="center",
            valign="top",
        )


def _area(ctx: CardContext, spec: BoardSpec, a: Area, theme: Color, ink: Color) -> None:
    c = ctx.c
    x, y, w, h = _box(spec, a.x, a.y, a.w, a.h)
    tint = color(a.color) if a.color else theme
    c.saveState()
    _flipped(ctx, x, y, w, h, a.flip)
    if a.kind == "note":
        c.setFillColor(lighten(tint, 0.92))
        c.setStrokeColor(lighten(tint, 0.5))
        c.setLineWidth(0.6)
        c.roundRect(x, y, w, h, pt(2.5), stroke=1, fill=1)
        c.setFillColor(tint)
        c.rect(x, y + pt(2), pt(1.4), h - pt(4), stroke=0, fill=1)
        pad = pt(4)
        body_top = y + h - pad
        if a.label:
            ctx.text(
                x + pad, body_top - pt(3.5), a.label, "bold", 9.5, darken(tint, 0.45), max_width=w - 2 * pad
            )
            body_top -= pt(5.5)
        ctx.paragraph(
            x + pad, body_top, w - 2 * pad, body_top - y - pt(2.5), a.text or a.note, "serif", 11, 7, fill=ink
        )
    elif a.kind == "zone":
        c.setFillColor(lighten(tint, 0.92))
        c.setStrokeColor(lighten(tint, 0.3))
        c.setLineWidth(1.0)
        c.roundRect(x, y, w, h, pt(4), stroke=1, fill=1)
        if a.symbol:
            ctx.symbol(a.symbol, x + pt(8), y + h - pt(8), pt(8), fill=lighten(tint, 0.2))
        lx = x + (pt(15) if a.symbol else pt(5))
        ctx.text(
            lx, y + h - pt(9.5), a.label, "display", 13, darken(tint, 0.4), max_width=w - (lx - x) - pt(5)
        )
        if a.note:
            ctx.text(lx, y + h - pt(14.5), a.note, "serif-italic", 8.5, ink, max_width=w - (lx - x) - pt(5))
        if a.slots:
            sw, sh = pt(a.slot_w), pt(a.slot_h)
            room_top = y + h - pt(17)
            gap = (w - a.slots * sw) / (a.slots + 1)
            sy = y + (room_top - y - sh) / 2
            for i in range(a.slots):
                sx = x + gap + i * (sw + gap)
                _card_space(ctx, sx, sy, sw, sh, tint, dashed=True, width=0.6)
                if a.symbol:
                    ctx.symbol(
                        a.symbol, sx + sw / 2, sy + sh / 2, min(sw, sh) * 0.35, fill=lighten(tint, 0.72)
                    )
    else:  # card or pile
        cw = w if a.fan <= 1 else w / (1 + (a.fan - 1) * 0.38)
        if a.kind == "pile":
            for k in (2, 1):
                c.setStrokeColor(lighten(tint, 0.45))
                c.setFillColor(lighten(tint, 0.93))
                c.setLineWidth(0.5)
                c.roundRect(x + pt(1.3) * k, y - pt(1.3) * k, cw, h, pt(CORNER), stroke=1, fill=1)
        for k in range(a.fan - 1):
            _card_space(ctx, x + k * cw * 0.38, y, cw, h, lighten(tint, 0.35), dashed=True, width=0.5)
        top_x = x + (a.fan - 1) * cw * 0.38
        _card_space(ctx, top_x, y, cw, h, tint)
        if a.symbol:
            ctx.symbol(a.symbol, top_x + cw / 2, y + h / 2, min(cw, h) * 0.42, fill=lighten(tint, 0.62))
        _label_block(ctx, top_x, y, cw, h, a.label, a.note, ink, tint)
    c.restoreState()


def _position(ctx: CardContext, spec: BoardSpec, p: Position, theme: Color, ink: Color) -> None:
    c = ctx.c
    side = spec.side(p.side)
    tint = color(side.color) if side and side.color else theme
    x, y, w, h = _box(spec, p.x, p.y, p.w, p.h)
    c.saveState()
    _flipped(ctx, x, y, w, h, bool(side and side.flip))
    _card_space(ctx, x, y, w, h, tint, width=1.1)
    # A big index numeral as the space's watermark, the position's key above it.
    ctx.text(x + w / 2, y + h / 2 - pt(10), str(p.index), "display", 60, lighten(tint, 0.55), align="center")
    ctx.text(
        x + w / 2, y + h - pt(9), p.label, "bold", 12, darken(tint, 0.45), align="center", max_width=w - pt(6)
    )
    if p.note:
        ctx.paragraph(
            x + pt(3), y + pt(14), w - pt(6), pt(11), p.note, "serif-italic", 8, 6, fill=ink, align="center"
        )
    c.restoreState()


def _side_labels(ctx: CardContext, spec: BoardSpec, theme: Color) -> None:
    """Each side's name beside its track, on the outer side (turned for a flipped side)."""
    for side in spec.sides:
        mine = [p for p in spec.positions if p.side == side.key]
        if not mine:
            continue
        tint = color(side.color) if side.color else theme
        left = min(p.x for p in mine)
        right = max(p.x + p.w for p in mine)
        top = min(p.y for p in mine)
        bottom = max(p.y + p.h for p in mine)
        cx = pt((left + right) / 2)
        c = ctx.c
        c.saveState()
        if side.flip:
            y = pt(spec.h - top) + pt(2.5)
            c.translate(cx, y)
            c.rotate(180)
            ctx.text(0, -pt(3.6), side.label, "display", 12, darken(tint, 0.35), align="center")
        else:
            y = pt(spec.h - bottom) - pt(6.5)
            ctx.text(cx, y, side.label, "display", 12, darken(tint, 0.35), align="center")
        c.restoreState()


def _edge_point(cx: float, cy: float, hw: float, hh: float, dx: float, dy: float) -> tuple[float, float]:
    """Where a ray from a box centre in direction (dx, dy) leaves the box."""
    tx = hw / abs(dx) if dx else math.inf
    ty = hh / abs(dy) if dy else math.inf
    t = min(tx, ty)
    return cx + dx * t, cy + dy * t


def _link(ctx: CardContext, a: Position, b: Position, kind: str, theme: Color, spec: BoardSpec) -> None:
    """A step link is a solid two-headed arrow; an attack link a dashed one with a sword."""
    c = ctx.c
    ax, ay, aw, ah = _box(spec, a.x, a.y, a.w, a.h)
    bx, by, bw, bh = _box(spec, b.x, b.y, b.w, b.h)
    acx, acy, bcx, bcy = ax + aw / 2, ay + ah / 2, bx + bw / 2, by + bh / 2
    dx, dy = bcx - acx, bcy - acy
    dist = math.hypot(dx, dy)
    if dist == 0:
        return
    ux, uy = dx / dist, dy / dist
    gap = pt(1.5)
    x0, y0 = _edge_point(acx, acy, aw / 2 + gap, ah / 2 + gap, ux, uy)
    x1, y1 = _edge_point(bcx, bcy, bw / 2 + gap, bh / 2 + gap, -ux, -uy)
    if (x1 - x0) * ux + (y1 - y0) * uy <= pt(3):
        return  # spaces touch: nothing to draw between them
    ink = darken(theme, 0.35) if kind == "step" else darken(theme, 0.55)
    c.saveState()
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(1.4 if kind == "step" else 1.2)
    if kind == "attack":
        c.setDash(4, 2.5)
    head = pt(2.6)
    c.line(x0 + ux * head, y0 + uy * head, x1 - ux * head, y1 - uy * head)
    c.setDash()
    for px, py, sx, sy in ((x0, y0, ux, uy), (x1, y1, -ux, -uy)):
        p = c.beginPath()
        p.moveTo(px, py)
        p.lineTo(px + sx * head * 1.6 - sy * head * 0.7, py + sy * head * 1.6 + sx * head * 0.7)
        p.lineTo(px + sx * head * 1.6 + sy * head * 0.7, py + sy * head * 1.6 - sx * head * 0.7)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    if kind == "attack":
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        c.setFillColor(color(ctx.style.paper))
        c.setStrokeColor(ink)
        c.setLineWidth(0.8)
        c.circle(mx, my, pt(3.6), stroke=1, fill=1)
        ctx.symbol("sword", mx, my, pt(5), fill=ink)
    c.restoreState()
