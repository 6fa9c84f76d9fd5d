"""Symbols as form XObjects: each symbol in each ink and outline weight is drawn once per PDF and
placed, scaled, wherever it appears; its operators are drawn once per pnp version and kept in the
disk cache, so a build replays them into each PDF instead of drawing the outline again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.data.store.cache import cached
from pnp.draw.pdf import place_form
from pnp.draw.symbols import draw_symbol, has_symbol

SYMBOL_REF = 100.0  # points: the size a symbol's form XObject is drawn at before scaling


def _rgba(c: Color | None) -> str:
    return "none" if c is None else f"{c.red:.4f},{c.green:.4f},{c.blue:.4f},{c.alpha:.4f}"


def symbol_form(
    c: Canvas,
    name: str,
    cx: float,
    cy: float,
    size: float,
    fill: Color | None,
    stroke: Color | None = None,
    stroke_width: float | None = None,
) -> None:
    """`draw_symbol` through a form XObject: each symbol in each colour and outline weight is
    drawn once per PDF and placed, scaled, wherever it appears (less work, much smaller files)."""
    if size <= 0 or (fill is None and stroke is None) or not has_symbol(name):
        draw_symbol(c, name, cx, cy, size, fill=fill, stroke=stroke, stroke_width=stroke_width)
        return
    width = (
        0.0 if stroke is None else (max(0.25, size * 0.035) if stroke_width is None else float(stroke_width))
    )
    ratio = round(width / size, 4)  # outline weight relative to the symbol, which the form keeps
    form = _form_name(name, fill, stroke, ratio)
    if not c.hasForm(form):
        half = SYMBOL_REF * 0.75
        c.beginForm(form, -half, -half, half, half)
        code = None
        if (
            not rl.converts_colours(c) and _opaque(fill) and _opaque(stroke)
        ):  # drawn once, replayed into each PDF
            code = _symbol_code(_Spec(name, _ident(fill), _ident(stroke), ratio, fill, stroke))
        if code is not None:
            if code:  # one literal: ReportLab joins a form's operators with newlines all the same
                c.addLiteral("\n".join(code))
        else:  # CMYK conversion, or translucent ink (graphics states the PDF must hold): draw it here
            draw_symbol(
                c,
                name,
                0,
                0,
                SYMBOL_REF,
                fill=fill,
                stroke=stroke,
                stroke_width=None if stroke is None else ratio * SYMBOL_REF,
            )
        c.endForm()
    place_form(c, form, cx, cy, size / SYMBOL_REF)


@lru_cache(maxsize=4096)
def _form_name(name: str, fill: Color | None, stroke: Color | None, ratio: float) -> str:
    """A symbol form's name: the same symbol, inks and outline weight give the same name in every PDF."""
    key = f"{name}|{_rgba(fill)}|{_rgba(stroke)}|{ratio:g}"
    return "Sym" + hashlib.sha1(key.encode()).hexdigest()[:12]


def _opaque(c: Color | None) -> bool:
    return c is None or getattr(c, "alpha", 1) in (None, 1)


def _ident(c: Color | None) -> tuple:
    """Everything that makes a colour's operators: its class and every attribute."""
    return () if c is None else (type(c).__name__, *sorted(vars(c).items()))


@dataclass(frozen=True)
class _Spec:
    """A symbol form's content, by value (the colours ride along but `fill_id`/`stroke_id` stand for them)."""

    name: str
    fill_id: tuple
    stroke_id: tuple
    ratio: float
    fill: Color | None = field(compare=False, hash=False)
    stroke: Color | None = field(compare=False, hash=False)


@lru_cache(maxsize=1024)
def _symbol_code(spec: _Spec) -> tuple[str, ...] | None:
    """The operators of a symbol form (no resources: paths, clips and opaque colours only).

    Drawing a symbol (outline geometry, clipping) costs more than writing it;
    a build draws the same few symbols into many PDFs, so each is drawn once
    and kept in the disk cache (keyed by pnp's code, like every entry there).
    """
    key = (spec.name, spec.fill_id, spec.stroke_id, spec.ratio)
    return cached("symbol", key, lambda: (_draw_code(spec), []), shelf="symbols")


def _draw_code(spec: _Spec) -> tuple[str, ...] | None:
    return rl.form_operators(
        lambda scratch: draw_symbol(
            scratch,
            spec.name,
            0,
            0,
            SYMBOL_REF,
            fill=spec.fill,
            stroke=spec.stroke,
            stroke_width=None if spec.stroke is None else spec.ratio * SYMBOL_REF,
        )
    )
