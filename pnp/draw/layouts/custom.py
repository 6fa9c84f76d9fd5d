"""A layout described in the database: draws a design's elements (see `pnp.data.format.elements`) in order.

Slots are the design's own names, for its elements to use as `slots.NAME`;
the slot `code_color` colours the collation code and set mark.
"""
from __future__ import annotations

from typing import Any, Mapping

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics

from pnp.data.format.catalog import SLOTS
from pnp.data.format.elements import Element, Number
from pnp.draw.context import CardContext, color
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout
from pnp.geometry.sizes import pt

Box = tuple[float, float, float, float]  # x, bottom, width, height in points


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color | None:
    for el, picture in s.get("elements") or ():
        x, bottom, w, h = box(ctx, el)
        c = ctx.c
        c.saveState()
        if el.rotate:
            cx, cy = x + w / 2, bottom + h / 2
            c.translate(cx, cy)
            c.rotate(float(el.rotate))
            c.translate(-cx, -cy)
        _DRAW[el.type](ctx, el, (x, bottom, w, h), picture)
        c.restoreState()
    return color(s["code_color"]) if s.get("code_color") else None


def _pt(length: Number) -> float:
    """An element's length (mm; a template has been rendered to a number by now) in points."""
    return pt(float(length))


def box(ctx: CardContext, el: Element) -> Box:
    """The element's box in points from the trim's lower-left corner."""
    inset = {"trim": 0.0, "safe": ctx.safe, "bleed": -ctx.bleed}[el.frame]
    fx, ftop, fw, fh = inset, ctx.h - inset, ctx.w - 2 * inset, ctx.h - 2 * inset
    x, top = fx + _pt(el.x), ftop - _pt(el.y)
    w = _pt(el.w) if el.w is not None else fw - _pt(el.x)
    h = _pt(el.h) if el.h is not None else fh - _pt(el.y)
    return x, top - h, w, h


def _paint(ctx: CardContext, el: Element) -> tuple[int, int]:
    """Set fill, outline and dash from the element; (stroke, fill) flags for ReportLab."""
    c = ctx.c
    if el.fill:
        c.setFillColor(color(el.fill))
    if el.stroke:
        c.setStrokeColor(color(el.stroke))
        c.setLineWidth(_pt(el.stroke_width))
        if el.dash:
            c.setDash(pt(el.dash[0]), pt(el.dash[1]))
    return (1 if el.stroke else 0), (1 if el.fill else 0)


def _rect(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    stroke, fill = _paint(ctx, el)
    if stroke or fill:
        ctx.c.rect(*b, stroke=stroke, fill=fill)


def _round_rect(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    stroke, fill = _paint(ctx, el)
    if stroke or fill:
        ctx.c.roundRect(*b, _pt(el.radius), stroke=stroke, fill=fill)


def _ellipse(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    stroke, fill = _paint(ctx, el)
    x, y, w, h = b
    if stroke or fill:
        ctx.c.ellipse(x, y, x + w, y + h, stroke=stroke, fill=fill)


def _line(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    x, bottom, w, h = b
    top = bottom + h
    end = box(ctx, Element("rect", frame=el.frame, x=el.x2 or 0.0, y=el.y2 or 0.0, w=0.0, h=0.0))
    c = ctx.c
    c.setStrokeColor(color(el.stroke or ctx.style.ink))
    c.setLineWidth(_pt(el.stroke_width))
    if el.dash:
        c.setDash(pt(el.dash[0]), pt(el.dash[1]))
    c.line(x, top, end[0], end[1])


def _text(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    """One line in the box, shrunk to its width down to min_size; an error if it still does not fit."""
    text = str(el.text or "")
    if not text:
        return
    x, bottom, w, h = b
    size = float(el.size or 8.0)
    least = float(el.min_size if el.min_size is not None else size)
    if w > 0:
        size = ctx.fonts.fit(text, el.font, w, size, least)
        if ctx.fonts.width(text, el.font, size) > w + 0.01:
            raise ValueError(f"text does not fit its {w / pt(1):.1f} mm box even at {least:g} pt: {text[:40]!r}")
    ascent, descent = pdfmetrics.getAscentDescent(ctx.fonts.name(el.font), size)
    baseline = {"baseline": bottom, "top": bottom + h - ascent, "bottom": bottom - descent,
                "middle": bottom + h / 2 - size * 0.36}[el.valign]  # middle centres the capitals
    ax = {"left": x, "center": x + w / 2, "right": x + w}[el.align]
    ctx.text(ax, baseline, text, el.font, size, color(el.fill or ctx.style.ink), align=el.align)


def _paragraph(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    x, bottom, w, h = b
    size = float(el.size or 8.0)
    ctx.paragraph(x, bottom + h, w, h, str(el.text or ""), el.font, size,
                  min_size=float(el.min_size if el.min_size is not None else size), leading=float(el.leading),
                  fill=color(el.fill or ctx.style.ink), align="center" if el.align == "center" else "left",
                  valign="middle" if el.valign == "middle" else "top")


def _image(ctx: CardContext, el: Element, b: Box, picture: Picture | None) -> None:
    if picture is not None:
        ctx.picture(picture, *b, shape=el.clip, radius=_pt(el.radius))


def _symbol(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    x, y, w, h = b
    fill = color(el.fill) if el.fill else (None if el.stroke else color(ctx.style.ink))
    stroke = color(el.stroke) if el.stroke else None
    ctx.symbol(str(el.symbol), x + w / 2, y + h / 2, min(w, h), fill=fill, stroke=stroke,
               stroke_width=_pt(el.stroke_width) if stroke else None)


def _pattern(ctx: CardContext, el: Element, b: Box, _: Any) -> None:
    """Symbols on a grid centred in the box: as many columns and rows as fit, every other row
    shifted by half a step when staggered."""
    x, y, w, h = b
    step = _pt(el.step)
    step_y = _pt(el.step_y) if el.step_y else step
    if step <= 0 or step_y <= 0:
        raise ValueError("a pattern's step must be more than 0 mm")
    size = _pt(el.size) if el.size else step * 0.5
    nx, ny = int(w // step + 1e-9), int(h // step_y + 1e-9)
    fill = color(el.fill or ctx.style.ink)
    for j in range(ny + 1):
        cy = y + h / 2 + (j - ny / 2) * step_y
        shift = step / 2 if el.stagger and j % 2 else 0.0
        for i in range(nx + 1):
            ctx.symbol(str(el.symbol), x + w / 2 + (i - nx / 2) * step + shift, cy, size, fill=fill)


_DRAW = {"rect": _rect, "round_rect": _round_rect, "ellipse": _ellipse, "line": _line, "text": _text,
         "paragraph": _paragraph, "image": _image, "symbol": _symbol, "pattern": _pattern}

LAYOUT = Layout("custom", SLOTS["custom"], draw,
                "Drawn from the design's own list of elements (rect, round_rect, ellipse, line, text, paragraph, "
                "image, symbol, pattern), in mm from a corner of the trim, safe zone or bleed.")
