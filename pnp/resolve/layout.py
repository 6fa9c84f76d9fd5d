"""A layout's `let` names and elements evaluated for one card side: rendered elements in mm.

A built-in layout's elements come from its file in `pnp/layouts/` and see the
design's slots, the style, the card's size and the functions below; a
`layout: custom` design's own elements see also what slot templates see
(card, cards, game, facts...). Lengths are mm in expressions; `PT` is one
point in mm, so `size * PT` is a font size as a length.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pnp.data.format.colours import FILTERS, colour
from pnp.data.format.elements import Element
from pnp.data.format.layout import Layout
from pnp.data.format.model import Style
from pnp.data.templating import elements as rendering
from pnp.data.templating.engine import numeral, roman
from pnp.geometry.sizes import card_size
from pnp.resolve import charting
from pnp.resolve.fonts import Fonts
from pnp.resolve.measures import Measures
from pnp.resolve.pictures import Picture

PT = 25.4 / 72  # one point in mm


@dataclass(frozen=True)
class Trim:
    """The card side a layout is evaluated for: its size in mm and what is printed beside its art."""

    w: float
    h: float
    bleed: float
    safe: float
    footer: float
    style: Style
    code: str = ""  # the collation code and version as printed
    marked: bool = False  # the card belongs to a marked set
    ink: str = "full"  # "low" for the low-ink version (`pnp build --ink low`)
    opaque: bool = False  # print-shop inks (`--cmyk`): no see-through colour or opacity

    def seen(self) -> dict[str, float]:
        """The card as expressions see it (`trim`), in mm."""
        return {"w": self.w, "h": self.h, "safe": self.safe, "bleed": self.bleed, "footer": self.footer}


def functions(fonts: Fonts) -> dict[str, Callable[..., Any]]:
    """What a layout's expressions may call: colours, text measures (in mm) on the card's fonts, maths."""
    m = Measures(fonts)
    return {
        **FILTERS,
        "width": m.width,
        "fit": m.fit,
        "lines": m.lines,
        "paragraph_size": m.paragraph_size,
        "wrap_size": m.wrap_size,
        "table": m.table,
        "chart_nodes": charting.nodes_from,
        "unlinked": lambda nodes: charting.layers(nodes)[1],
        "chart": lambda nodes, x, top, width, height: charting.chart(fonts, nodes, x, top, width, height),
        "strip": lambda alone, x, top, width: charting.strip(fonts, alone, x, top, width),
        "strip_rows": lambda alone, width: charting.strip_rows(fonts, alone, width),
        "chips": lambda groups, room: charting.chips(fonts, groups, room),
        "card_size": _card_size,
        "fail": _fail,
        "roman": roman,
        "numeral": numeral,
        "is_picture": lambda value: isinstance(value, Picture),
        "cos": lambda deg: math.cos(math.radians(deg)),
        "sin": lambda deg: math.sin(math.radians(deg)),
        "sqrt": math.sqrt,
        "min": min,
        "max": max,
        "abs": abs,
        "round": round,
        "len": len,
        "PT": PT,  # type: ignore[dict-item]
    }


def _card_size(name: Any) -> dict[str, Any]:
    """A card size by name (poker, tarot, ...) as {w, h, label}, in mm."""
    size = card_size(str(name))
    return {"w": size.w, "h": size.h, "label": size.label()}


def _fail(message: Any) -> None:
    """Stop this card with `message` (a layout's own check, e.g. something too big for it)."""
    raise ValueError(str(message))


class ElementProblem(ValueError):
    """An element (or `let` name) that failed for one card: its line and field in the layout, and the
    element as far as it was rendered (None for a `let` name)."""

    def __init__(self, line: int, field: str, message: str, element: Element | None = None):
        super().__init__(f"{field}: {message}")
        self.line, self.field, self.message, self.element = line, field, message, element


def layout_context(
    fonts: Fonts, trim: Trim, layout: Layout, slots: Mapping[str, Any], seen: Mapping[str, Any]
) -> dict[str, Any]:
    """What the layout's expressions see for one card: its let names evaluated, its named frames
    placed (ElementProblem names the one that failed). Call it inside the sandbox's time limit."""
    context = {
        **functions(fonts),
        **seen,
        "slots": dict(slots),
        "style": {
            "ink": colour(trim.style.ink),
            "paper": colour(trim.style.paper),
            "accent": colour(trim.style.accent),
        },
        "trim": trim.seen(),
        "marked": trim.marked,
        "code": trim.code,
        "ink": trim.ink,
    }
    try:
        context = rendering.let(layout.let.items(), context)
        if layout.frames:
            context[rendering.FRAMES_SEEN] = rendering.frames(layout.frames.items(), trim.seen(), context)
    except ValueError as exc:
        field, _, message = str(exc).partition(": ")
        raise ElementProblem(layout.line, field, message) from None
    return context


def render_layout(
    fonts: Fonts, trim: Trim, layout: Layout, slots: Mapping[str, Any], seen: Mapping[str, Any]
) -> tuple[list[Element], Any]:
    """The layout's elements rendered for one card (those whose `when` holds) and the ink it asks for
    the collation code; ElementProblem names the line and field that failed.

    `seen` is what the expressions see besides the slots and functions."""
    from pnp.data.templating.sandbox import time_limit  # lazy: jinja2 only when something is rendered

    with time_limit():
        context = layout_context(fonts, trim, layout, slots, seen)
        drawn = []
        for i, el in enumerate(layout.elements):
            try:
                done = rendering.render(el, context)
            except ValueError as exc:
                field, _, message = str(exc).partition(": ")
                raise ElementProblem(el.line, f"elements[{i}].{field}", message) from None
            if done is not None:
                drawn.append(done)
        try:
            ink = (
                rendering.evaluate(layout.code_color, context)
                if layout.code_color
                else slots.get("code_color")
            )
        except Exception as exc:  # noqa: BLE001 - a broken expression is this field's problem
            raise ElementProblem(layout.line, "code_color", f"{type(exc).__name__}: {exc}") from None
    return drawn, ink
