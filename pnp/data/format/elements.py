"""Custom layouts: the elements a `layout: custom` design draws, checked at load and rendered per card.

Lengths are millimetres measured from the top-left corner of the element's
`frame` (the trim, the safe zone or the bleed), x to the right and y down;
`w` and `h` default to the rest of the frame. Font sizes are points. Any
value may be a jinja2 template (it sees what slots see, plus `slots`, the
design's rendered slots, and `trim`, the card's size in mm); `when` is a
jinja2 expression, and an element whose `when` is false is not drawn.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as fld
from typing import Any, Literal

from pnp.data.format.schema import doc as _d

ElementType = Literal["rect", "round_rect", "ellipse", "line", "text", "paragraph", "image", "symbol", "pattern"]
Number = float | str  # a number, or a template that renders to one


@dataclass(frozen=True)
class Element:
    """One thing a custom layout draws, in mm from the top-left corner of its frame (y runs down)."""

    type: ElementType = fld(metadata=_d("what to draw"))
    when: str | None = fld(default=None, metadata=_d("jinja2 expression; drawn only when true"))
    frame: Literal["trim", "safe", "bleed"] | str = fld(default="trim", metadata=_d("what x and y are measured from"))
    x: Number = fld(default=0.0, metadata=_d("mm from the frame's left edge"))
    y: Number = fld(default=0.0, metadata=_d("mm from the frame's top edge (down)"))
    w: Number | None = fld(default=None, metadata=_d("width in mm (default: to the frame's right edge)"))
    h: Number | None = fld(default=None, metadata=_d("height in mm (default: to the frame's bottom edge)"))
    x2: Number | None = fld(default=None, metadata=_d("line: end x in mm"))
    y2: Number | None = fld(default=None, metadata=_d("line: end y in mm"))
    rotate: Number = fld(default=0.0, metadata=_d("degrees anticlockwise about the box centre"))
    fill: str | None = fld(default=None, metadata=_d("fill colour #RRGGBB"))
    stroke: str | None = fld(default=None, metadata=_d("outline colour #RRGGBB"))
    stroke_width: Number = fld(default=0.25, metadata=_d("outline width in mm"))
    dash: tuple[float, ...] = fld(default=(), metadata=_d("dash pattern in mm: on, off"))
    radius: Number = fld(default=0.0, metadata=_d("corner radius in mm (round_rect, image clip: round)"))
    text: str | None = fld(default=None, metadata=_d("text and paragraph: what to print"))
    font: str = fld(default="body", metadata=_d("font role from fonts/fonts.yaml"))
    size: Number | None = fld(default=None, metadata=_d("font size in points, default 8 (pattern: symbol size in mm)"))
    min_size: Number | None = fld(default=None, metadata=_d("smallest size when shrinking to fit"))
    align: Literal["left", "center", "right"] | str = "left"
    valign: Literal["top", "middle", "bottom", "baseline"] | str = fld(
        default="middle", metadata=_d("text: where in the box; baseline puts the baseline at y + h"))
    leading: Number = fld(default=1.2, metadata=_d("paragraph: line height as a multiple of the size"))
    file: str | None = fld(default=None, metadata=_d("image: a .png, .jpg or .svg file in the project"))
    fit: Literal["cover", "contain"] | str = fld(default="cover", metadata=_d("image: fill the box or show it whole"))
    clip: Literal["rect", "round", "ellipse"] | str = fld(default="rect", metadata=_d("image: the box's shape"))
    symbol: str | None = fld(default=None, metadata=_d("symbol and pattern: a symbol name"))
    step: Number = fld(default=5.0, metadata=_d("pattern: mm between symbols across"))
    step_y: Number | None = fld(default=None, metadata=_d("pattern: mm between rows (default: step)"))
    stagger: bool = fld(default=False, metadata=_d("pattern: shift every other row by half a step"))
    line: int = fld(default=0, metadata={"internal": True})


_COMMON = {"type", "when", "frame", "x", "y", "w", "h", "rotate", "line"}
_SHAPE = {"fill", "stroke", "stroke_width", "dash"}
_TEXT = {"text", "font", "size", "min_size", "align", "valign", "fill"}
APPLIES: dict[str, frozenset[str]] = {
    "rect": frozenset(_COMMON | _SHAPE),
    "round_rect": frozenset(_COMMON | _SHAPE | {"radius"}),
    "ellipse": frozenset(_COMMON | _SHAPE),
    "line": frozenset(_COMMON | {"x2", "y2", "stroke", "stroke_width", "dash"}),
    "text": frozenset(_COMMON | _TEXT),
    "paragraph": frozenset(_COMMON | _TEXT | {"leading"}),
    "image": frozenset(_COMMON | {"file", "fit", "clip", "radius"}),
    "symbol": frozenset(_COMMON | {"symbol", "fill", "stroke", "stroke_width"}),
    "pattern": frozenset(_COMMON | {"symbol", "fill", "step", "step_y", "stagger", "size"}),
}
NEEDS: dict[str, tuple[str, ...]] = {"line": ("x2", "y2"), "text": ("text",), "paragraph": ("text",),
                                     "image": ("file",), "symbol": ("symbol",), "pattern": ("symbol",)}
_NUMBERS = ("x", "y", "w", "h", "x2", "y2", "rotate", "stroke_width", "radius", "size", "min_size", "leading",
            "step", "step_y")
_TEXTS = ("fill", "stroke", "text", "font", "file", "symbol")
CHOICES: dict[str, tuple[str, ...]] = {"frame": ("trim", "safe", "bleed"), "align": ("left", "center", "right"),
                                       "valign": ("top", "middle", "bottom", "baseline"), "fit": ("cover", "contain"),
                                       "clip": ("rect", "round", "ellipse")}
