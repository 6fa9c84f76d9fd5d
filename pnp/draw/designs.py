"""Drawing one design for one card: its layout's `let` names and elements, rendered and drawn.

A built-in layout's elements come from its file in `pnp/layouts/` and see the
design's slots, the style, the card's size and the functions below; a
`layout: custom` design's own elements see also what slot templates see
(card, cards, game, facts...). Lengths are mm in expressions; `PT` is one
point in mm, so `size * PT` is a font size as a length.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color

from pnp.data.format.colours import colour, darken, lighten, luminance, mix, on
from pnp.data.format.elements import Element
from pnp.data.format.layout import Layout
from pnp.data.store.cache import cached
from pnp.data.templating import elements as rendering
from pnp.data.templating.engine import numeral, roman
from pnp.draw import charting
from pnp.draw import elements as renderer
from pnp.draw.context import CardContext, color
from pnp.draw.images import Artwork, Picture
from pnp.draw.inks import low_ink
from pnp.draw.measures import Measures
from pnp.geometry.sizes import card_size, pt

PT = 25.4 / 72  # one point in mm


def functions(ctx: CardContext) -> dict[str, Callable[..., Any]]:
    """What a layout's expressions may call: colours, text measures (in mm) on this card's fonts, maths."""
    m = Measures(ctx)
    return {
        "colour": colour,
        "mix": mix,
        "lighten": lighten,
        "darken": darken,
        "on": on,
        "luminance": luminance,
        "width": m.width,
        "fit": m.fit,
        "lines": m.lines,
        "paragraph_size": m.paragraph_size,
        "wrap_size": m.wrap_size,
        "table": m.table,
        "chart_nodes": charting.nodes_from,
        "unlinked": lambda nodes: charting.layers(nodes)[1],
        "chart": lambda nodes, x, top, width, height: charting.chart(ctx.fonts, nodes, x, top, width, height),
        "strip": lambda alone, x, top, width: charting.strip(ctx.fonts, alone, x, top, width),
        "strip_rows": lambda alone, width: charting.strip_rows(ctx.fonts, alone, width),
        "chips": lambda groups, room: charting.chips(ctx.fonts, groups, room),
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
    """Stop drawing this card with `message` (a layout's own check, e.g. something too big for it)."""
    raise ValueError(str(message))


def card_of(ctx: CardContext) -> dict[str, float]:
    """The card as expressions see it (`trim`), in mm: width and height, safe inset, bleed, footer height."""
    mm = pt(1)
    return {
        "w": ctx.w / mm,
        "h": ctx.h / mm,
        "safe": ctx.safe / mm,
        "bleed": ctx.bleed / mm,
        "footer": ctx.footer_h / mm,
    }


def ink_of(ctx: CardContext) -> str:
    """`ink` as expressions see it: "low" for the low-ink version (`pnp build --ink low`), else "full"."""
    return "low" if low_ink(ctx.c) else "full"


class ElementProblem(ValueError):
    """An element (or `let` name) that failed for one card: its line and field in the layout."""

    def __init__(self, line: int, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.line, self.field, self.message = line, field, message


def draw_layout(
    ctx: CardContext,
    layout: Layout,
    slots: Mapping[str, Any],
    seen: Mapping[str, Any],
    art: Artwork | None,
    name: str | None = None,
) -> Color | None:
    """Render and draw a layout's elements for one card; the ink it asks for the code and set mark.

    `seen` is what the expressions see besides the slots and functions. A built-in layout
    (`name` given) seeing no picture is rendered once per content and kept in the disk
    cache, so an unchanged card draws without jinja2. Raises ElementProblem with the
    line and field that failed.
    """
    if name is not None and not any(isinstance(v, Picture) for v in slots.values()):
        packed = cached(
            "layout-card",
            (name, _card_key(ctx, slots)),
            lambda: (_packed(_render(ctx, layout, slots, seen)), []),
            shelf="cards",
            raw=True,
        )
        try:
            elements, ink = packed
            drawn = [rendering.unpack(el) for el in elements]
            ink = rendering.unpack_colour(ink)
        except (ValueError, TypeError):  # a damaged entry: drawn afresh
            drawn, ink = _render(ctx, layout, slots, seen)
    else:
        drawn, ink = _render(ctx, layout, slots, seen)
    for i, done in enumerate(drawn):
        try:
            renderer.draw(ctx, (_picture(done, art),))
        except ValueError as exc:
            raise ElementProblem(done.line, f"elements[{i}]", str(exc)) from None
    return color(ink) if ink else None


def _packed(done: tuple[list[Element], Any]) -> list[Any]:
    return [[rendering.pack(el) for el in done[0]], rendering.pack_colour(done[1])]


def _card_key(ctx: CardContext, slots: Mapping[str, Any]) -> str:
    """A digest of everything a built-in layout's expressions see: slots, style, card size, font files."""
    seen = [
        dict(slots),
        dataclasses.asdict(ctx.style),
        card_of(ctx),
        _font_files(tuple(sorted(ctx.fonts.files.items()))),
        ctx.mark is not None,
        ink_of(ctx),
    ]
    return hashlib.sha256(json.dumps(seen, sort_keys=True, default=repr).encode()).hexdigest()


@lru_cache(maxsize=8)
def _font_files(files: tuple[tuple[str, Any], ...]) -> list[tuple[Any, ...]]:
    """Each font file's role, path, size and time, looked at once per process (not once per card)."""
    out: list[tuple[Any, ...]] = []
    for role, path in files:
        try:
            st = path.stat()
            out.append((role, str(path), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((role, str(path), 0, 0))
    return out


def _render(
    ctx: CardContext, layout: Layout, slots: Mapping[str, Any], seen: Mapping[str, Any]
) -> tuple[list[Element], Any]:
    """The layout's elements rendered for one card (those whose `when` holds) and its code colour."""
    style = {
        "ink": colour(ctx.style.ink),
        "paper": colour(ctx.style.paper),
        "accent": colour(ctx.style.accent),
    }
    card = card_of(ctx)
    code = f"{ctx.code} \u00b7 {ctx.version}" if ctx.code and ctx.version else ctx.code
    context = {
        **functions(ctx),
        **seen,
        "slots": dict(slots),
        "style": style,
        "trim": card,
        "marked": ctx.mark is not None,
        "code": code,
        "ink": ink_of(ctx),
    }
    # lazy: the jinja2 sandbox only for a design whose let names are templates
    from pnp.data.templating.sandbox import (
        time_limit,  # lazy: jinja2 only when something is rendered
    )

    with time_limit():
        try:
            context = rendering.let(layout.let.items(), context)
        except ValueError as exc:
            field, _, message = str(exc).partition(": ")
            raise ElementProblem(layout.line, field, message) from None
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


def _picture(el: Element, art: Artwork | None) -> Element:
    """An image element with its file checked and read as a picture (groups: their children too)."""
    if el.type == "group":
        return dataclasses.replace(el, elements=tuple(_picture(child, art) for child in el.elements))
    if el.type == "image" and el.file and art is not None:
        picture = art.picture({"file": el.file, "fit": el.fit})
        if picture is None:
            raise ValueError(f"file: {el.file!r} is not a picture (use a .png, .jpg, .jpeg or .svg file)")
        return dataclasses.replace(el, picture=picture)
    return el
