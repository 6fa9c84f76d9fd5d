"""The one element renderer: draws rendered elements (see `pnp.data.format.elements`) in order.

Every layout, built in or `layout: custom`, is a list of elements; this module
turns each into ReportLab calls in a `CardContext`. Lengths arrive in mm (the
templating stage converted units) and become points here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from reportlab.pdfbase import pdfmetrics

from pnp.data.format.elements import Element
from pnp.draw import shapes
from pnp.draw.context import CardContext, color
from pnp.draw.inks import faded
from pnp.geometry.sizes import MM
from pnp.resolve.pictures import Picture

Box = tuple[float, float, float, float]  # x, bottom, width, height in points


def draw(ctx: CardContext, elements: Iterable[Element]) -> None:
    """Draw rendered elements in order, each in its own graphics state."""
    for el in elements:
        if el.both_ends:
            _one(ctx, el)
            ctx.c.saveState()
            ctx.c.translate(ctx.w, ctx.h)
            ctx.c.rotate(180)
            _one(ctx, el)
            ctx.c.restoreState()
        else:
            _one(ctx, el)


def _one(ctx: CardContext, el: Element) -> None:
    """One element; in a graphics state of its own only when it leaves something to undo (a turn,
    a mirror, a clip, a dash): colours and widths each element sets for itself."""
    b = box(ctx, el)
    c = ctx.c
    own_state = bool(el.rotate or el.mirror or el.dash or el.type in ("group", "image") or el.halo)
    if not own_state:
        _DRAW[el.type](ctx, el, b)
        return
    c.saveState()
    if el.rotate or el.mirror:
        cx, cy = b[0] + b[2] / 2, b[1] + b[3] / 2
        c.translate(cx, cy)
        if el.rotate:
            c.rotate(float(el.rotate))
        if el.mirror:
            c.scale(-1, 1)
        c.translate(-cx, -cy)
    _DRAW[el.type](ctx, el, b)
    c.restoreState()


def _pt(length: Any) -> float:
    """A rendered length (mm) in points."""
    return length * MM


def _frame(ctx: CardContext, el: Element) -> tuple[float, float, float, float]:
    inset = {"trim": 0.0, "safe": ctx.safe, "bleed": -ctx.bleed}[el.frame]
    return inset, ctx.h - inset, ctx.w - 2 * inset, ctx.h - 2 * inset


def point(ctx: CardContext, el: Element, x: Any, y: Any) -> tuple[float, float]:
    """A point given in mm from the element's frame's top-left corner, in points from the trim's lower left."""
    fx, ftop, _, _ = _frame(ctx, el)
    return fx + _pt(x), ftop - _pt(y)


def box(ctx: CardContext, el: Element) -> Box:
    """The element's box in points from the trim's lower-left corner."""
    fx, ftop, fw, fh = _frame(ctx, el)
    x, top = fx + _pt(el.x), ftop - _pt(el.y)
    w = _pt(el.w) if el.w is not None else fw - _pt(el.x)
    h = _pt(el.h) if el.h is not None else fh - _pt(el.y)
    if el.anchor == "center":
        return x - w / 2, top - h / 2, w, h
    return x, top - h, w, h


def _shape(ctx: CardContext, el: Element, b: Box) -> None:
    """A shape element: its outline, filled (a colour or a gradient) and stroked."""
    x, y, w, h = b
    if el.type == "rect":
        path = ctx.c.beginPath()
        path.rect(x, y, w, h)
    elif el.type == "round_rect":
        path = ctx.c.beginPath()
        path.roundRect(x, y, w, h, _pt(el.radius))
    elif el.type == "ellipse":
        path = ctx.c.beginPath()
        path.ellipse(x, y, w, h)
    elif el.type == "polygon":
        path = shapes.polygon_path(ctx, shapes.corners(b, shapes.count_of(el.sides)))
    elif el.type == "star":
        inner = float(el.inner)
        path = shapes.polygon_path(ctx, shapes.corners(b, shapes.count_of(el.points), inner))
    elif el.type == "hex":
        path = shapes.polygon_path(ctx, shapes.hex_corners(b, bool(el.pointy)))
    else:
        path = path_of(ctx, el)
    shapes.paint(ctx, el, path, b)


def _hexgrid(ctx: CardContext, el: Element, b: Box) -> None:
    shapes.hexgrid(ctx, el, b)


def _line(ctx: CardContext, el: Element, b: Box) -> None:
    c = ctx.c
    c.setStrokeColor(_ink(el.stroke or ctx.style.ink, el))
    c.setLineWidth(_pt(0.25 if el.stroke_width is None else el.stroke_width))
    if el.dash:
        c.setDash(_pt(el.dash[0]), _pt(el.dash[1]))
    c.line(*point(ctx, el, el.x, el.y), *point(ctx, el, el.x2 or 0.0, el.y2 or 0.0))


def path_of(ctx: CardContext, el: Element) -> Any:
    """The element's `commands` as a ReportLab path (y turned to run up)."""
    p = ctx.c.beginPath()
    if el.d:
        from pnp.data.format.pathdata import path_data  # lazy: svglib only for d

        for op, args in path_data(str(el.d)):
            pts = [point(ctx, el, args[k], args[k + 1]) for k in range(0, len(args), 2)]
            {"move": p.moveTo, "line": p.lineTo, "curve": p.curveTo, "close": p.close}[op](
                *[v for xy in pts for v in xy]
            )
        return p
    for op, *args in el.commands if not isinstance(el.commands, str) else ():  # rendered: a list
        if op == "close":
            p.close()
        elif op == "arc":
            (x1, y1), (x2, y2) = point(ctx, el, args[0], args[1]), point(ctx, el, args[2], args[3])
            p.arcTo(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2), startAng=args[4], extent=args[5])
        else:
            pts = [point(ctx, el, args[k], args[k + 1]) for k in range(0, len(args), 2)]
            flat = [v for xy in pts for v in xy]
            {"move": p.moveTo, "line": p.lineTo, "curve": p.curveTo}[op](*flat)
    return p


def _text(ctx: CardContext, el: Element, b: Box) -> None:
    """One line in the box at the size resolving fitted it to (`pnp.resolve.fitting`)."""
    text = _words(el.text)
    if not text:
        return
    x, bottom, w, h = b
    size = float(el.size or 8.0)
    if el.valign == "baseline":
        baseline = bottom
    elif el.valign == "middle":
        baseline = bottom + h / 2 - size * 0.36  # middle centres the capitals
    else:
        ascent, descent = pdfmetrics.getAscentDescent(ctx.fonts.name(el.font), size)
        baseline = bottom + h - ascent if el.valign == "top" else bottom - descent
    ax = x if el.align == "left" else x + w / 2 if el.align == "center" else x + w
    if el.halo and el.halo_width:
        _halo(ctx, el, ax, baseline, text, size)
    ctx.text(ax, baseline, text, el.font, size, _ink(el.fill or ctx.style.ink, el), align=el.align)


def _halo(ctx: CardContext, el: Element, x: float, y: float, text: str, size: float) -> None:
    """The letters' outline in the halo colour, under the text (keeps it legible on any picture)."""
    c = ctx.c
    c.setFont(ctx.fonts.name(el.font), size)
    c.saveState()
    c.setStrokeColor(_ink(el.halo, el))
    c.setLineWidth(_pt(el.halo_width))
    c.setLineJoin(1)
    {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[el.align](
        x, y, text, mode=1
    )
    c.restoreState()


def _paragraph(ctx: CardContext, el: Element, b: Box) -> None:
    """The lines resolving wrapped, at the size it fitted them to, from the top or the middle of the box."""
    if not el.lines:
        return
    x, bottom, w, h = b
    size, leading = float(el.size or 8.0), float(el.leading)
    y = bottom + h - size
    if el.valign == "middle":
        y -= (h - len(el.lines) * size * leading) / 2
    fill = _ink(el.fill or ctx.style.ink, el)
    centre = el.align == "center"
    for line in el.lines:
        if line:
            ctx.text(
                x + w / 2 if centre else x, y, line, el.font, size, fill, align="center" if centre else "left"
            )
        y -= size * leading


def _image(ctx: CardContext, el: Element, b: Box) -> None:
    if isinstance(el.picture, Picture) or el.picture:
        ctx.c.setFillColor(_ink("#000000", el))  # a picture is painted at the fill alpha
        ctx.picture(el.picture, *b, shape="rect" if el.clip == "none" else el.clip, radius=_pt(el.radius))


def _symbol(ctx: CardContext, el: Element, b: Box) -> None:
    x, y, w, h = b
    fill = _ink(el.fill, el) if el.fill else (None if el.stroke else _ink(ctx.style.ink, el))
    stroke = _ink(el.stroke, el) if el.stroke else None
    size = _pt(el.size) if el.size is not None else min(w, h)
    ctx.symbol(
        str(el.symbol),
        x + w / 2,
        y + h / 2,
        size,
        fill=fill,
        stroke=stroke,
        stroke_width=_pt(el.stroke_width) if stroke and el.stroke_width is not None else None,
    )


def _pattern(ctx: CardContext, el: Element, b: Box) -> None:
    """Symbols on a grid centred in the box: as many columns and rows as fit, every other row
    shifted by half a step when staggered."""
    x, y, w, h = b
    step = _pt(el.step)
    step_y = _pt(el.step_y) if el.step_y else step
    size = _pt(el.size) if el.size else step * 0.5
    nx, ny = int(w // step + 1e-9), int(h // step_y + 1e-9)
    fill = _ink(el.fill or ctx.style.ink, el)
    for j in range(ny + 1):
        cy = y + h / 2 + (j - ny / 2) * step_y
        shift = step / 2 if el.stagger and j % 2 else 0.0
        for i in range(nx + 1):
            ctx.symbol(
                str(el.symbol), x + w / 2 + (i - nx / 2) * step + shift, cy, size, fill=fill, decor=True
            )


def _qr(ctx: CardContext, el: Element, b: Box) -> None:
    """The code fitting found, as a square as large as fits the box, centred: the light margin
    (`background`), then each row's runs of dark modules as rectangles (vector: sharp at any dpi)."""
    rows = el.modules or ()
    if not rows:
        return
    x, y, w, h = b
    side = min(w, h)
    quiet = float(el.quiet)
    module = side / (len(rows) + 2 * quiet)
    left, top = x + (w - side) / 2, y + (h + side) / 2
    c = ctx.c
    if el.background:
        c.setFillColor(_ink(el.background, el))
        c.rect(left, top - side, side, side, stroke=0, fill=1)
    c.setFillColor(_ink(el.fill or "#000000", el))
    path = c.beginPath()
    ox, oy = left + quiet * module, top - quiet * module
    for j, row in enumerate(rows):
        i = row.find("1")
        while i >= 0:
            end = row.find("0", i)
            end = len(row) if end < 0 else end
            path.rect(ox + i * module, oy - (j + 1) * module, (end - i) * module, module)
            i = row.find("1", end)
    c.drawPath(path, stroke=0, fill=1)


def _group(ctx: CardContext, el: Element, b: Box) -> None:
    """The group's elements, cut to its box's shape (or path) when it has a clip."""
    c = ctx.c
    if el.clip != "none":
        x, y, w, h = b
        p = c.beginPath()
        if el.clip == "path":
            p = path_of(ctx, el)
        elif el.clip == "round":
            p.roundRect(x, y, w, h, _pt(el.radius))
        elif el.clip == "ellipse":
            p.ellipse(x, y, w, h)
        else:
            p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
    op = float(el.opacity)
    draw(ctx, el.elements if op >= 1 else [_faded(child, op) for child in el.elements])


def _faded(el: Element, opacity: float) -> Element:
    """A group's child with the group's opacity multiplied into its own."""
    done = object.__new__(Element)
    done.__dict__.update(el.__dict__, opacity=float(el.opacity) * opacity)
    return done


def _ink(value: Any, el: Element) -> Any:
    """A colour of the element's, faded by its opacity."""
    return faded(color(value), float(el.opacity))


_DRAW: dict[str, Callable[[CardContext, Element, Box], None]] = {
    "rect": _shape,
    "round_rect": _shape,
    "ellipse": _shape,
    "polygon": _shape,
    "star": _shape,
    "hex": _shape,
    "hexgrid": _hexgrid,
    "line": _line,
    "path": _shape,
    "text": _text,
    "paragraph": _paragraph,
    "image": _image,
    "symbol": _symbol,
    "pattern": _pattern,
    "qr": _qr,
    "group": _group,
}


def _words(value: Any) -> str:
    """A text element's value as printed: nothing for None, a number as written (0 prints)."""
    return "" if value is None else str(value)
