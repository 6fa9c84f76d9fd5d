"""A rendered element made ready to draw: its text fitted, its glyphs, icons, symbols, pictures,
colours and numbers checked.

What `fit` returns draws without a question left: a text element carries the
size it prints at, a paragraph its size and lines, an image its checked picture.
Anything a user could get wrong is a ValueError here, naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.colours import colour, gradient, is_gradient, to_hex
from pnp.data.format.elements import Element
from pnp.data.format.limits import MAX_CORNERS, MAX_HEXES
from pnp.data.templating.elements import finite
from pnp.geometry.hexgrid import hex_grid
from pnp.geometry.sizes import pt
from pnp.resolve import text as measure
from pnp.resolve.fonts import Fonts, MissingGlyph
from pnp.resolve.layout import Trim
from pnp.resolve.pictures import Picture, Pictures
from pnp.resolve.qrcode import qr_modules


class ContentProblem(ValueError):
    """What a card's own words got wrong (text that does not fit, a glyph, an inline icon or span, a
    symbol or picture name): fixed where the words are written, its spreadsheet cell when it has one."""


@dataclass(frozen=True)
class Fitter:
    """What fitting one card side's elements needs: its fonts, pictures and size."""

    fonts: Fonts
    pictures: Pictures
    trim: Trim

    def fit(self, el: Element) -> Element:
        """`el` ready to draw (a copy when anything was decided); ValueError names the field at fault."""
        opacity = finite(el.opacity, "opacity")
        if not 0 <= opacity <= 1:
            raise ValueError(f"opacity: from 0 (invisible) to 1 (solid), found {el.opacity!r}")
        if self.trim.opaque and opacity < 1:
            raise ValueError(f"opacity: {see_through(f'opacity {el.opacity:g}')}")
        _colours(el, self.trim.opaque)
        changes: dict[str, Any] = {}
        kind = el.type
        if kind in ("text", "paragraph"):
            changes = self._text(el)
        elif kind == "image":
            changes = self._image(el)
        elif kind in ("symbol", "pattern"):
            self.symbol(str(el.symbol))
            if kind == "pattern" and (
                float(el.step) <= 0 or (el.step_y is not None and float(el.step_y) <= 0)
            ):
                raise ValueError("step: a pattern's step must be more than 0 mm")
        elif kind == "polygon":
            _count(el.sides, "sides")
        elif kind == "star":
            _count(el.points, "points")
            if not 0.05 <= finite(el.inner, "inner") <= 0.95:
                raise ValueError(f"inner: from 0.05 to 0.95 of the points' reach, found {el.inner!r}")
        elif kind == "hexgrid":
            self._hexgrid(el)
        elif kind == "qr":
            changes = {"modules": qr_modules(el, self.box(el))}
        if el.d and (kind == "path" or el.clip == "path"):
            from pnp.data.format.pathdata import PathDataError, path_data  # lazy: svglib only for d

            try:
                path_data(str(el.d))
            except PathDataError as exc:
                raise ValueError(f"d: {exc}") from None
        if kind == "group":
            children = []
            for i, child in enumerate(el.elements):
                try:
                    children.append(self.fit(child))
                except ContentProblem:  # the words say what is wrong; where they are is found from them
                    raise
                except ValueError as exc:
                    raise ValueError(f"elements[{i}].{exc}") from None
            changes["elements"] = tuple(children)
        if not changes:
            return el
        done = object.__new__(Element)
        done.__dict__.update(el.__dict__, **changes)
        return done

    def box(self, el: Element) -> tuple[float, float]:
        """The element's box width and height in points."""
        inset = {"trim": 0.0, "safe": self.trim.safe, "bleed": -self.trim.bleed}.get(el.frame, 0.0)
        fw, fh = self.trim.w - 2 * inset, self.trim.h - 2 * inset
        w = float(el.w) if el.w is not None else fw - float(el.x)
        h = float(el.h) if el.h is not None else fh - float(el.y)
        return pt(w), pt(h)

    def symbol(self, name: str) -> None:
        """ContentProblem unless `name` is a built-in symbol or one of the project's own; ValueError
        when that one's file cannot be drawn."""
        own = self.pictures.symbols
        if name in own:
            self.pictures.drawing(own[name], f"art/symbols/{name}.svg")
        elif not has_symbol(name):
            raise ContentProblem(unknown_symbol(name, own))

    def words(self, text: str, role: str) -> None:
        """Glyphs, spans and inline icons of `text` checked as drawing will meet them (the font role
        a ValueError, the rest ContentProblems)."""
        self.fonts.name(role)
        try:
            measure.check_glyphs(self.fonts, text, role)
            icons = measure.icons(text)
        except MissingGlyph as exc:
            raise ContentProblem(str(exc)) from None
        except ValueError as exc:  # a span's attribute that is not one
            raise ContentProblem(str(exc)) from None
        own = self.pictures.symbols
        unknown: list[str] = []
        for icon in dict.fromkeys(icons):
            name = icon if icon in own or has_symbol(icon) else icon.lower()
            if name in own or has_symbol(name):
                self.symbol(name)
            else:
                unknown.append(icon)
        if unknown:
            also = f" (also unknown: {', '.join(map(repr, unknown[1:]))})" if len(unknown) > 1 else ""
            raise ContentProblem(unknown_symbol(unknown[0], own) + also)

    def _text(self, el: Element) -> dict[str, Any]:
        text = "" if el.text is None else str(el.text)
        if el.type == "paragraph":
            text = text.strip()
        if not text:
            return {}
        self.words(text, el.font)
        size = float(el.size or 8.0)
        least = float(el.min_size if el.min_size is not None else size)
        w, h = self.box(el)
        try:
            if el.type == "paragraph":
                size, lines = measure.fit_paragraph(
                    self.fonts, text, el.font, size, least, w, h, float(el.leading)
                )
                return {"size": size, "min_size": size, "lines": tuple(lines)}
            if w > 0:
                size = measure.fit_line(self.fonts, text, el.font, size, least, w)
        except measure.TooLong as exc:
            raise ContentProblem(str(exc)) from None
        return {"size": size, "min_size": size}

    def _image(self, el: Element) -> dict[str, Any]:
        picture = el.picture
        if el.file:
            try:
                picture = self.pictures.picture({"file": el.file, "fit": el.fit})
            except ValueError as exc:
                raise ContentProblem(str(exc)) from None
            if picture is None:
                raise ContentProblem(
                    f"file: {el.file!r} is not a picture (use a .png, .jpg, .jpeg or .svg file)"
                )
        if isinstance(picture, Picture):
            self.pictures.place(picture, *self.box(el))
            return {"picture": picture}
        return {}

    def _hexgrid(self, el: Element) -> None:
        if float(el.step) <= 0:
            raise ValueError("step: a hexgrid's step must be more than 0 mm")
        w, h = self.box(el)
        grid = hex_grid(pt(float(el.step)), w, h, bool(el.pointy))
        if grid.count > MAX_HEXES:
            raise ValueError(f"step: a hexgrid of {grid.count} hexes; at most {MAX_HEXES} (a larger step?)")


def see_through(what: str) -> str:
    """Why a colour with an alpha (or an opacity) below 1 cannot print in inks."""
    return (
        f"a see-through colour ({what}: an alpha or an element's opacity below 1) cannot go into PDF/X-1a "
        "(--cmyk allows no transparency): make the colour opaque for print-shop output (opacity: 1)"
    )


def _colours(el: Element, opaque: bool) -> None:
    """Each colour the element paints is one (`opaque`: and solid)."""
    for name in ("fill", "stroke", "halo", "background"):
        value = getattr(el, name, None)
        if value is None or value == "":
            continue
        try:
            if name == "fill" and isinstance(value, str) and is_gradient(value):
                inks = [stop for stop, _ in gradient(value).stops]
            else:
                inks = [colour(value)]
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        for ink in inks:
            if opaque and ink.alpha < 1:
                raise ValueError(f"{name}: {see_through(to_hex(ink))}")


def _count(value: Any, what: str) -> None:
    n = round(finite(value, what))
    if not 3 <= n <= MAX_CORNERS:
        raise ValueError(f"{what}: from 3 to {MAX_CORNERS}, found {value!r}")
