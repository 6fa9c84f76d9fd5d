"""The element language: what a layout draws, declared once per parameter.

A layout (built in, or `layout: custom` in a database) is a list of elements.
Lengths are millimetres by default, or a number with a unit (`0.5pt`,
`0.2in`, `1cm`, `40%` of the frame); they are measured from the top-left
corner of the element's `frame` (the trim, the safe zone or the bleed), x to
the right and y down, and `w` and `h` default to the rest of the frame (with
`anchor: center`, x and y name the box's centre). Font sizes are points. Any
value may be a jinja2 template; a value that is one `{{ expression }}` keeps
the expression's own type (a number, a colour, a list). `when` is a jinja2
expression: an element whose `when` is false is not drawn. A `group` draws its
own `elements`, once or for each item of `repeat` (named by `as`).

Each field below is declared once: its type and default (the dataclass), its
meaning, which element kinds take it (`kinds`) and, for choices, its options
(`Literal`); the tables the checker and renderer use are derived from it.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass
from dataclasses import field as fld
from typing import Any, Literal

from pnp.data.format.schema import doc as _d

ElementType = Literal[
    "rect",
    "round_rect",
    "ellipse",
    "polygon",
    "star",
    "hex",
    "hexgrid",
    "line",
    "path",
    "text",
    "paragraph",
    "image",
    "symbol",
    "pattern",
    "qr",
    "group",
]
Number = float | str  # a number, a length with a unit, or a template that renders to one

_POLYGONS = ("polygon", "star", "hex", "hexgrid")
_BOXED = (
    "rect",
    "round_rect",
    "ellipse",
    *_POLYGONS,
    "text",
    "paragraph",
    "image",
    "symbol",
    "pattern",
    "qr",
    "group",
)
_SHAPES = ("rect", "round_rect", "ellipse", *_POLYGONS, "path")
_ALL = _BOXED + ("line", "path")


def _p(
    text: str, kinds: tuple[str, ...] = _ALL, unit: str = "", needed: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A parameter's declaration: its meaning, the kinds that take it, its unit (`length`: mm or a unit,
    `x`/`y`: also % of that frame side, `number`: a plain number) and the kinds that must give it."""
    return _d(text, kinds=frozenset(kinds), unit=unit, needed=frozenset(needed))


@dataclass(frozen=True)
class Element:
    """One thing a layout draws, in mm from the top-left corner of its frame (y runs down)."""

    type: ElementType = fld(
        default="",  # type: ignore[arg-type]  # "" only in an override (`extends`)
        metadata=_p("what to draw (left out in an override of an extended layout's element)"),
    )
    name: str | None = fld(
        default=None,
        metadata=_p(
            "a name a layout that `extends` this one overrides the element by (unique in the layout)"
        ),
    )
    when: str | None = fld(default=None, metadata=_p("jinja2 expression; drawn only when true"))
    frame: Literal["trim", "safe", "bleed"] | str = fld(
        default="trim", metadata=_p("what x and y are measured from")
    )
    anchor: Literal["top-left", "center"] | str = fld(
        default="top-left", metadata=_p("what x and y name: the box's top-left corner or its centre", _BOXED)
    )
    x: Number = fld(default=0.0, metadata=_p("from the frame's left edge", _ALL, "x"))
    y: Number = fld(default=0.0, metadata=_p("from the frame's top edge (down)", _ALL, "y"))
    w: Number | None = fld(
        default=None, metadata=_p("width (default: to the frame's right edge)", _BOXED, "x")
    )
    h: Number | None = fld(
        default=None, metadata=_p("height (default: to the frame's bottom edge)", _BOXED, "y")
    )
    x2: Number | None = fld(default=None, metadata=_p("line: end x", ("line",), "x", ("line",)))
    y2: Number | None = fld(default=None, metadata=_p("line: end y", ("line",), "y", ("line",)))
    rotate: Number = fld(
        default=0.0, metadata=_p("degrees anticlockwise about the box centre", _BOXED, "number")
    )
    mirror: bool = fld(default=False, metadata=_p("flipped left to right about the box centre", _BOXED))
    both_ends: bool = fld(
        default=False, metadata=_p("drawn again turned half round about the card's centre (corner indices)")
    )
    opacity: Number = fld(
        default=1.0,
        metadata=_p(
            "0 (invisible) to 1 (solid): multiplies the alpha of every colour and picture it draws (a group's, "
            "of each element in it)",
            _ALL,
            "number",
        ),
    )
    fill: str | None = fld(
        default=None,
        metadata=_p(
            "fill colour (#rgb, #rrggbb, #rrggbbaa, a CSS name, rgb(), rgba(), cmyk()); shapes also take "
            "linear-gradient(ANGLEdeg, COLOUR, COLOUR...) and radial-gradient(COLOUR, COLOUR...)",
            _SHAPES + ("text", "paragraph", "symbol", "pattern", "qr"),
        ),
    )
    stroke: str | None = fld(default=None, metadata=_p("outline colour", _SHAPES + ("line", "symbol")))
    stroke_width: Number | None = fld(
        default=None,
        metadata=_p(
            "outline width (default 0.25 mm; a symbol's own weight)", _SHAPES + ("line", "symbol"), "length"
        ),
    )
    dash: tuple[Number, ...] | str = fld(
        default=(),
        metadata=_p("dash pattern: on, off (or a template giving it)", _SHAPES + ("line",), "length"),
    )
    radius: Number = fld(
        default=0.0,
        metadata=_p(
            "corner radius (round_rect; image and group with clip: round)",
            ("round_rect", "image", "group"),
            "length",
        ),
    )
    sides: Number = fld(
        default=6.0,
        metadata=_p(
            "polygon: how many sides (3 to 64); a corner at the top, turn it with rotate",
            ("polygon",),
            "number",
        ),
    )
    points: Number = fld(default=5.0, metadata=_p("star: how many points (3 to 64)", ("star",), "number"))
    inner: Number = fld(
        default=0.5,
        metadata=_p(
            "star: the inner corners' distance from the centre, as a fraction of the points'",
            ("star",),
            "number",
        ),
    )
    pointy: bool = fld(
        default=False,
        metadata=_p("hex, hexgrid: a corner at the top instead of a flat side", ("hex", "hexgrid")),
    )
    d: str | None = fld(
        default=None,
        metadata=_p(
            "path: SVG path data (M, L, H, V, C, S, Q, T, A, Z, absolute or relative) in mm from the frame's "
            'top-left corner, y down, e.g. "M 5 5 L 20 5 L 12 18 Z"',
            ("path", "group"),
        ),
    )
    commands: tuple[Any, ...] | str = fld(
        default=(),
        metadata=_p(
            "path: [move, x, y], [line, x, y], [curve, x1, y1, x2, y2, x, y], [arc, x1, y1, x2, y2, start, extent] "
            "(the arc of the ellipse in that box from `start` degrees, turning `extent` degrees, anticlockwise as seen), [close]; lengths as x and y; or a template "
            "giving that list (or give `d`)",
            ("path", "group"),
        ),
    )
    text: str | None = fld(
        default=None, metadata=_p("what to print", ("text", "paragraph"), needed=("text", "paragraph"))
    )
    font: str = fld(default="body", metadata=_p("font role from fonts/fonts.yaml", ("text", "paragraph")))
    size: Number | None = fld(
        default=None,
        metadata=_p(
            "font size in points, default 8 (symbol: its size, default the box's; pattern: symbol size)",
            ("text", "paragraph", "symbol", "pattern"),
        ),
    )
    min_size: Number | None = fld(
        default=None,
        metadata=_p(
            "smallest font size when shrinking to fit the width (text) or box (paragraph)",
            ("text", "paragraph"),
            "number",
        ),
    )
    align: Literal["left", "center", "right"] | str = fld(
        default="left", metadata=_p("where in the box's width", ("text", "paragraph"))
    )
    valign: Literal["top", "middle", "bottom", "baseline"] | str = fld(
        default="middle",
        metadata=_p("text: where in the box; baseline puts the baseline at y + h", ("text", "paragraph")),
    )
    leading: Number = fld(
        default=1.2, metadata=_p("line height as a multiple of the size", ("paragraph",), "number")
    )
    halo: str | None = fld(
        default=None, metadata=_p("text: an outline colour drawn under the letters", ("text",))
    )
    halo_width: Number = fld(default=0.0, metadata=_p("text: the outline's width", ("text",), "length"))
    file: str | None = fld(default=None, metadata=_p("a .png, .jpg or .svg file in the project", ("image",)))
    picture: Any = fld(
        default=None, metadata=_p("image: an `art` slot's value (a picture, or a symbol name)", ("image",))
    )
    fit: Literal["cover", "contain"] | str = fld(
        default="cover", metadata=_p("image: fill the box or show it whole", ("image",))
    )
    clip: Literal["none", "rect", "round", "ellipse", "path"] | str = fld(
        default="none",
        metadata=_p(
            "image, group: the shape everything is cut to (path: the group's d or commands)",
            ("image", "group"),
        ),
    )
    symbol: str | None = fld(
        default=None, metadata=_p("a symbol name", ("symbol", "pattern"), needed=("symbol", "pattern"))
    )
    step: Number = fld(
        default=5.0,
        metadata=_p(
            "pattern: between symbols across; hexgrid: between neighbouring hexes' centres (their width across flats)",
            ("pattern", "hexgrid"),
            "length",
        ),
    )
    step_y: Number | None = fld(
        default=None, metadata=_p("pattern: between rows (default: step)", ("pattern",), "length")
    )
    stagger: bool = fld(
        default=False, metadata=_p("pattern: shift every other row by half a step", ("pattern",))
    )
    data: str | None = fld(
        default=None,
        metadata=_p(
            "qr: the text it encodes (a square QR code as large as fits the box, centred, its quiet zone "
            "included; fill colours the dark modules, default black)",
            ("qr",),
            needed=("qr",),
        ),
    )
    quiet: Number = fld(
        default=4.0,
        metadata=_p(
            "qr: the light margin round the code, in modules (the standard's 4; 0 to 8)", ("qr",), "number"
        ),
    )
    background: str | None = fld(
        default="#ffffff",
        metadata=_p("qr: the colour of the light modules and the margin (none: not painted)", ("qr",)),
    )
    repeat: str | None = fld(
        default=None,
        metadata=_p("group: a jinja2 expression giving a list; the group is drawn once per item", ("group",)),
    )
    as_: str = fld(
        default="item", metadata={**_p("group: the name each repeated item has", ("group",)), "yaml": "as"}
    )
    elements: tuple[Element, ...] = fld(
        default=(), metadata=_p("group: what it draws, in order", ("group",), needed=("group",))
    )
    line: int = fld(default=0, metadata={"internal": True})
    given: tuple[str, ...] = fld(default=(), metadata={"internal": True})  # the keys the file gave
    lines: tuple[str, ...] | None = fld(default=None, metadata={"internal": True})  # a fitted paragraph's
    modules: tuple[str, ...] | None = fld(default=None, metadata={"internal": True})  # a fitted qr's rows


_FIELDS = tuple(f for f in dataclasses.fields(Element) if not f.metadata.get("internal"))
YAML_NAME = {f.name: f.metadata.get("yaml", f.name) for f in _FIELDS}
APPLIES: dict[str, frozenset[str]] = {
    kind: frozenset(f.name for f in _FIELDS if kind in f.metadata["kinds"])
    for kind in typing.get_args(ElementType)
}
NEEDS: dict[str, tuple[str, ...]] = {
    kind: tuple(f.name for f in _FIELDS if kind in f.metadata["needed"])
    for kind in typing.get_args(ElementType)
}
UNITS: dict[str, str] = {f.name: f.metadata["unit"] for f in _FIELDS if f.metadata["unit"]}
# The options of each choice, read from its Literal annotation (as text: resolving the hints costs 15 ms).
CHOICES: dict[str, tuple[str, ...]] = {
    f.name: tuple(re.findall(r"'([^']+)'", str(f.type).split("]")[0]))
    for f in _FIELDS
    if str(f.type).startswith("Literal[") and f.name != "type"
}
TEMPLATED = tuple(
    f.name for f in _FIELDS if f.name not in ("type", "name", "when", "repeat", "as_", "elements", "line")
)
