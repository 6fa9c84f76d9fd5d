"""A layout as data: its slots (typed, documented), `let` names and elements.

Built-in layouts are files of this shape in `pnp/layouts/`; `pnp layouts
--show NAME` prints one to copy into a database as `layout: custom` (whose
design takes the same `let` and `elements` keys) and change.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as fld

from pnp.data.format.catalog import Slot
from pnp.data.format.elements import Element
from pnp.data.format.schema import doc as _d


@dataclass(frozen=True)
class Frame:
    """A named box elements can be measured from (`frame: NAME`), placed in the trim, safe zone, bleed
    or a frame declared before it; lengths as an element's (mm, cm, in, pt, or % of that frame)."""

    frame: str = fld(
        default="trim", metadata=_d("what it is placed in: trim, safe, bleed or an earlier frame")
    )
    inset: float | str | None = fld(
        default=None, metadata=_d("the same margin on every side of that frame (negative: outside it)")
    )
    x: float | str | None = fld(
        default=None, metadata=_d("from that frame's left edge (default: inset, or 0)")
    )
    y: float | str | None = fld(
        default=None, metadata=_d("from that frame's top edge, down (default: inset, or 0)")
    )
    w: float | str | None = fld(
        default=None, metadata=_d("width (default: to that frame's right edge, less inset)")
    )
    h: float | str | None = fld(
        default=None, metadata=_d("height (default: to that frame's bottom edge, less inset)")
    )
    right: float | str | None = fld(
        default=None, metadata=_d("margin to that frame's right edge, when w is not given (default: inset)")
    )
    bottom: float | str | None = fld(
        default=None, metadata=_d("margin to that frame's bottom edge, when h is not given (default: inset)")
    )
    line: int = 0


@dataclass(frozen=True)
class Layout:
    """A named way to draw a card from slot values, as elements."""

    doc: str = fld(metadata=_d("what the layout draws, in a sentence"))
    slots: dict[str, Slot] = fld(default_factory=dict, metadata=_d("slot name -> its type and meaning"))
    let: dict[str, str] = fld(
        default_factory=dict,
        metadata=_d(
            "names computed per card, in order: jinja2 expressions that may use the slots and earlier names"
        ),
    )
    elements: tuple[Element, ...] = fld(default=(), metadata=_d("what it draws, in order"))
    code_color: str | None = fld(
        default=None,
        metadata=_d("the colour of the collation code and set mark (a template; default the style's ink)"),
    )
    frames: dict[str, Frame] = fld(
        default_factory=dict, metadata=_d("named boxes its elements may be measured from (`frame: NAME`)")
    )
    extends: str | None = fld(
        default=None,
        metadata=_d("a layout whose let names, frames and elements this one takes, overriding them by name"),
    )
    line: int = 0
