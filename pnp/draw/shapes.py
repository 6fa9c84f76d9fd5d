"""Outlines and fills for the shape elements: rectangles, ellipses, polygons, stars, hexes, hex grids
and paths, filled with a colour or a CSS-style gradient and faded by the element's opacity.

Every shape is an outline (a ReportLab path) first; filling and stroking it is
one function, so a gradient, an opacity or a dash works alike on each. Boxes
are in points from the trim's lower-left corner (y up).
"""

from __future__ import annotations

import math
from typing import Any

from reportlab.lib.colors import Color

from pnp.adapters import reportlab as rl
from pnp.data.format.colours import Gradient, gradient, is_gradient, mix
from pnp.draw.context import CardContext
from pnp.draw.inks import color, faded, fill_ink, low_ink
from pnp.geometry.hexgrid import hex_grid
from pnp.geometry.sizes import MM

Box = tuple[float, float, float, float]


def corners(b: Box, count: int, inner: float = 1.0, turn: float = 90.0) -> list[tuple[float, float]]:
    """A regular polygon's (or, with `inner` < 1, a star's) corners inscribed in the box's ellipse,
    the first at `turn` degrees (90: the top)."""
    x, y, w, h = b
    cx, cy = x + w / 2, y + h / 2
    steps = count * (2 if inner < 1 else 1)
    out = []
    for i in range(steps):
        a = math.radians(turn + 360.0 * i / steps)
        r = inner if inner < 1 and i % 2 else 1.0
        out.append((cx + r * w / 2 * math.cos(a), cy + r * h / 2 * math.sin(a)))
    return out


def hex_corners(b: Box, pointy: bool) -> list[tuple[float, float]]:
    """A hexagon filling the box exactly: flat top and bottom, or (pointy) a corner at the top."""
    x, y, w, h = b
    if pointy:
        return [
            (x + w / 2, y + h),
            (x, y + h * 0.75),
            (x, y + h * 0.25),
            (x + w / 2, y),
            (x + w, y + h * 0.25),
            (x + w, y + h * 0.75),
        ]
    return [
        (x, y + h / 2),
        (x + w / 4, y),
        (x + w * 0.75, y),
        (x + w, y + h / 2),
        (x + w * 0.75, y + h),
        (x + w / 4, y + h),
    ]


def count_of(value: Any) -> int:
    """A polygon's sides or a star's points as a whole number (resolving checked its range)."""
    return round(float(value))


def polygon_path(ctx: CardContext, points: list[tuple[float, float]]) -> Any:
    p = ctx.c.beginPath()
    p.moveTo(*points[0])
    for xy in points[1:]:
        p.lineTo(*xy)
    p.close()
    return p


def paint(ctx: CardContext, el: Any, path: Any, b: Box) -> None:
    """Fill (a colour or a gradient) and outline `path` as the element asks, faded by its opacity."""
    c = ctx.c
    opacity = float(el.opacity)
    if is_gradient(el.fill) and not low_ink(c):
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        _gradient(ctx, gradient(el.fill), b, opacity)
        c.restoreState()
    elif is_gradient(el.fill):  # low ink: one light tint of its middle colour
        stops = gradient(el.fill).stops
        c.setFillColor(fill_ink(c, faded(color(mix(stops[0][0], stops[-1][0], 0.5)), opacity)))
    elif el.fill:
        c.setFillColor(fill_ink(c, faded(color(el.fill), opacity)))
    if el.stroke:
        c.setStrokeColor(faded(color(el.stroke), opacity))
        c.setLineWidth((0.25 if el.stroke_width is None else el.stroke_width) * MM)
        if el.dash:
            c.setDash(el.dash[0] * MM, el.dash[1] * MM)
    fill = 1 if el.fill and (not is_gradient(el.fill) or low_ink(c)) else 0
    if fill or el.stroke:
        c.drawPath(path, stroke=1 if el.stroke else 0, fill=fill)


def _gradient(ctx: CardContext, g: Gradient, b: Box, opacity: float) -> None:
    """Paint the gradient over the box (the caller has clipped to the shape)."""
    c = ctx.c
    inks = [color(stop) for stop, _ in g.stops]
    positions = [p for _, p in g.stops]
    x, y, w, h = b
    cx, cy = x + w / 2, y + h / 2
    a = math.radians(g.angle)
    dx, dy = math.sin(a), math.cos(a)  # CSS: 0deg points up, 90deg to the right
    half = (abs(w * dx) + abs(h * dy)) / 2  # the gradient line reaches the box's far corners
    reach = math.hypot(w, h) / 2
    if not rl.forms_keep_resources():
        _bands(ctx, g, b, opacity)
        return
    hook = rl.colour_hook(c)
    inks = [hook(ink) for ink in inks] if hook else inks  # CMYK output: the stops converted too
    if opacity < 1:
        c.setFillColor(faded(Color(0, 0, 0), opacity))  # the shading is painted at the fill alpha
    if g.kind == "radial":
        c.radialGradient(cx, cy, reach, inks, positions, extend=True)
    else:
        c.linearGradient(
            cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half, inks, positions, extend=True
        )


def _bands(ctx: CardContext, g: Gradient, b: Box, opacity: float, count: int = 128) -> None:
    """The gradient as narrow bands of solid colour (where a shading cannot be used): each band
    reaches to the far end, the next painted over it, so no seam shows between them."""
    c = ctx.c
    x, y, w, h = b
    cx, cy = x + w / 2, y + h / 2
    reach = math.hypot(w, h) / 2
    for i in range(count):
        t = i / (count - 1)
        t = 1 - t if g.kind == "radial" else t  # discs from the rim inwards: the last colour first
        j = next((k for k in range(1, len(g.stops)) if g.stops[k][1] >= t), len(g.stops) - 1)
        (c0, p0), (c1, p1) = g.stops[j - 1], g.stops[j]
        share = 0.0 if p1 <= p0 else min(1.0, max(0.0, (t - p0) / (p1 - p0)))
        c.setFillColor(color(mix(c0, c1, share)))  # bands overlap: opaque (opacity needs a shading)
        if g.kind == "radial":
            r = reach * (1 - i / count)
            c.circle(cx, cy, r, stroke=0, fill=1)
        else:
            c.saveState()
            c.translate(cx, cy)
            c.rotate(-g.angle)
            c.rect(
                -reach,
                -reach + 2 * reach * i / count if i else -reach - 1,
                2 * reach,
                2 * reach * (1 - i / count) + 2,
                stroke=0,
                fill=1,
            )
            c.restoreState()


def hexgrid(ctx: CardContext, el: Any, b: Box) -> None:
    """Whole hexes `step` across flats, as many as fit the box, centred in it (`pnp.geometry.hexgrid`;
    resolving checked the step and the count)."""
    x, y, w, h = b
    grid = hex_grid(float(el.step) * MM, w, h, bool(el.pointy))
    cols, rows, across, down, hw, hh = grid.cols, grid.rows, grid.across, grid.down, grid.hw, grid.hh
    used_w = (cols - 1) * across + hw + (across / 2 if el.pointy and rows > 1 else 0)
    used_h = (rows - 1) * down + hh + (down / 2 if not el.pointy and cols > 1 else 0)
    ox, oy = x + (w - used_w) / 2, y + (h - used_h) / 2
    for i in range(cols):
        for j in range(rows):
            shift_x = across / 2 if el.pointy and j % 2 else 0.0
            shift_y = down / 2 if not el.pointy and i % 2 == 0 and cols > 1 else 0.0
            cell = (ox + i * across + shift_x, oy + j * down + shift_y, hw, hh)
            paint(ctx, el, polygon_path(ctx, hex_corners(cell, el.pointy)), cell)
