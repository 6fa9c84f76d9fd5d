"""The card context every drawing goes through: text (every glyph checked), paragraphs, symbols,
pictures and shapes on a canvas, for layouts, sheets, boards and booklets.

Colours are "#RRGGBB" strings in databases (their maths: `pnp.data.format.colours`);
all lengths here are PDF points unless a name says mm.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.catalog import unknown_symbol
from pnp.data.format.model import Mark, Style
from pnp.draw import richtext
from pnp.draw.images import Artwork
from pnp.draw.inks import BIG_PICTURE, color, fill_ink, low_ink, mark_ink, text_ink
from pnp.draw.symbol_forms import symbol_form
from pnp.draw.symbols import has_symbol
from pnp.geometry.sizes import SAFE_ZONE, pt
from pnp.resolve import text as measure
from pnp.resolve.fonts import Fonts
from pnp.resolve.inline_markup import is_plain
from pnp.resolve.pictures import Picture

WHITE = Color(1, 1, 1)
BLACK = Color(0, 0, 0)


@dataclass(frozen=True)
class CardContext:
    """What a layout needs to draw one card face or back.

    The origin is the trim's lower-left corner; the layout may paint into the
    bleed (negative coordinates and beyond w/h) but keeps text `safe` inside.
    """

    c: Canvas
    w: float
    h: float
    bleed: float
    fonts: Fonts
    style: Style
    code: str = ""
    mark: Mark | None = None
    version: str = ""  # the game's version, printed beside the code
    safe: float = pt(SAFE_ZONE)
    art: Artwork | None = None  # the project's pictures and own symbols (None: built-in symbols only)

    @property
    def footer_h(self) -> float:
        """Height at the bottom of the safe zone kept for the collation code and set mark."""
        return pt(2.6)

    def bleed_rect(self) -> tuple[float, float, float, float]:
        return -self.bleed, -self.bleed, self.w + 2 * self.bleed, self.h + 2 * self.bleed

    def fill_bleed(self, fill: Color) -> None:
        self.c.setFillColor(fill)
        self.c.rect(*self.bleed_rect(), stroke=0, fill=1)

    # -- text -------------------------------------------------------------
    def text(
        self,
        x: float,
        y: float,
        text: str,
        role: str = "body",
        size: float = 8,
        fill: Color | None = None,
        align: str = "left",
        max_width: float | None = None,
        min_size: float = 5.0,
    ) -> float:
        """Draw one line; shrink to `max_width` when given. Returns the size used.

        Inline markup (**bold**, *italic*, {icon}) is drawn run by run; text without
        markup takes the one-string path below, unchanged.
        """
        text = str(text)
        if not text:
            return size
        if not is_plain(text):
            runs = measure.runs(text)
            if measure.is_styled(runs):
                return self._rich(x, y, runs, role, size, fill, align, max_width, min_size)
            text = "".join(r.text for r in runs)
        self.fonts.check(text, role)
        if max_width:
            size = self.fonts.fit(text, role, max_width, size, min_size)
        c = self.c
        c.setFont(self.fonts.name(role), size)
        c.setFillColor(text_ink(c, fill or color(self.style.ink)))
        if align == "center":
            c.drawCentredString(x, y, text)
        elif align == "right":
            c.drawRightString(x, y, text)
        else:
            c.drawString(x, y, text)
        return size

    def _rich(
        self,
        x: float,
        y: float,
        runs: list[measure.Run],
        role: str,
        size: float,
        fill: Color | None,
        align: str,
        max_width: float | None,
        min_size: float,
    ) -> float:
        if max_width:
            size = self.fonts.fit(measure.serialize(runs), role, max_width, size, min_size)
        richtext.draw_line(
            self.c,
            self.fonts,
            x,
            y,
            runs,
            role,
            size,
            fill or color(self.style.ink),
            align,
            lambda name, cx, cy, s, ink: self.symbol(self._icon_name(name), cx, cy, s, ink),
        )
        return size

    def _icon_name(self, name: str) -> str:
        """An inline icon's symbol; a layout that capitalises a line ({SUN}) still finds {sun}."""
        own = self.art.symbols if self.art is not None else {}
        if name in own or has_symbol(name) or not (name.lower() in own or has_symbol(name.lower())):
            return name
        return name.lower()

    def wrap(self, text: str, role: str, size: float, width: float) -> list[str]:
        """`text` wrapped to `width` points (`pnp.resolve.text.lines_of`)."""
        return measure.lines_of(self.fonts, str(text), role, size, width)

    def fit_paragraph(
        self, text: str, role: str, size: float, min_size: float, width: float, height: float, leading: float
    ) -> tuple[float, list[str]]:
        """The size and lines at which `text` fits the box (`pnp.resolve.text.fit_paragraph`)."""
        return measure.fit_paragraph(self.fonts, text, role, size, min_size, width, height, leading)

    def paragraph(
        self,
        x: float,
        top: float,
        width: float,
        height: float,
        text: str,
        role: str = "body",
        size: float = 8,
        min_size: float = 6.0,
        leading: float = 1.2,
        fill: Color | None = None,
        align: str = "left",
        valign: str = "top",
    ) -> float:
        """Wrapped text in a box, shrunk (not below `min_size`) until it fits. Returns the size."""
        text = str(text).strip()
        if not text:
            return size
        self.fonts.check(text, role)
        size, lines = self.fit_paragraph(text, role, size, min_size, width, height, leading)
        needed = len(lines) * size * leading
        y = top - size
        if valign == "middle":
            y -= (height - needed) / 2
        for line in lines:
            if line:
                xx = x + width / 2 if align == "center" else x
                self.text(xx, y, line, role, size, fill, align="center" if align == "center" else "left")
            y -= size * leading
        return size

    # -- shapes ------------------------------------------------------------
    def symbol(
        self,
        name: str,
        cx: float,
        cy: float,
        size: float,
        fill: Color | None,
        stroke: Color | None = None,
        stroke_width: float | None = None,
        decor: bool = False,
    ) -> None:
        """A built-in symbol or one of the project's own (art/symbols/NAME.svg, which wins on a shared name).

        On a low-ink card a decorative symbol (`decor`: a pattern's, or a large one) pales like a fill;
        any other stays legible (dark when it was light)."""
        if fill is not None:
            big = decor or size > 0.3 * min(self.w, self.h)
            fill = fill_ink(self.c, fill) if big else mark_ink(self.c, fill)
        if self.art is not None and name in self.art.symbols:
            self.art.symbol(self.c, name, cx, cy, size, fill, stroke, stroke_width)
        elif has_symbol(name):
            symbol_form(self.c, name, cx, cy, size, fill=fill, stroke=stroke, stroke_width=stroke_width)
        else:
            raise ValueError(unknown_symbol(name, self.art.symbols if self.art else ()))

    def picture(
        self,
        art: Any,
        x: float,
        y: float,
        w: float,
        h: float,
        shape: str = "rect",
        radius: float = 0.0,
        fill: Color | None = None,
    ) -> bool:
        """Draw a layout's `art` slot into its picture box: a Picture placed with its fit, or a symbol
        name drawn in `fill` (centred, as large as the box). Returns False when there is no art."""
        if isinstance(art, Picture):
            if self.art is None:
                raise ValueError(f"{art.name}: pictures cannot be drawn here")
            if low_ink(self.c) and w * h > BIG_PICTURE * self.w * self.h:
                return True  # a low-ink card leaves out its large pictures (full-bleed art)
            self.art.draw(self.c, art, x, y, w, h, shape, radius)
            return True
        if art and fill is not None:
            self.symbol(str(art), x + w / 2, y + h / 2, min(w, h), fill=fill)
            return True
        return False

    def medallion(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: Color,
        stroke: Color,
        width: float,
        halo: Color | None = None,
        halo_width: float = 0.0,
    ) -> None:
        """An outlined disc, optionally on a wider halo disc: the picture frame of several layouts."""
        c = self.c
        if halo is not None:
            c.setFillColor(fill_ink(c, halo))
            c.circle(cx, cy, r + halo_width, stroke=0, fill=1)
        c.setFillColor(fill_ink(c, fill))
        c.setStrokeColor(stroke)
        c.setLineWidth(width)
        c.circle(cx, cy, r, stroke=1, fill=1)

    def round_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        r: float,
        fill: Color | None = None,
        stroke: Color | None = None,
        width: float = 0.6,
    ) -> None:
        c = self.c
        if fill is not None:
            c.setFillColor(fill_ink(c, fill))
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(width)
        c.roundRect(x, y, w, h, r, stroke=1 if stroke is not None else 0, fill=1 if fill is not None else 0)


def scale_bar(c: Canvas, x: float, y: float, fonts: Fonts, label: str = "50 mm") -> None:
    """A 50 mm bar in 10 mm blocks from (x, y) in points: measure it to check a print is at 100 %."""
    c.setStrokeColor(BLACK)
    c.setLineWidth(0.3)
    for i in range(5):
        c.setFillColor(BLACK if i % 2 == 0 else WHITE)
        c.rect(x + pt(10 * i), y, pt(10), pt(1.2), stroke=1, fill=1)
    fonts.check(label, "body")
    c.setFont(fonts.name("body"), 4.8)
    c.setFillColor(BLACK)
    c.drawString(x + pt(51), y + pt(0.1), label)
