"""Inks as ReportLab colours: colour text or a layout's Colour made a Color (CMYK inks kept), and faded."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib.colors import CMYKColor, Color

from pnp.adapters import reportlab as rl
from pnp.data.format.colours import Colour, colour


def color(value: Any, default: str = "#000000") -> Color:
    """A reportlab colour from colour text (`pnp.data.format.colours.FORMS`), a layout's Colour (or a
    Color): with its alpha, and as exact inks (CMYKColor) when it was written as cmyk(...)."""
    ink = value if isinstance(value, Color) else _from_colour(colour(value, default))
    return ink if float(getattr(ink, "alpha", 1.0)) >= 1 else _on_paper(ink)


@lru_cache(maxsize=4096)
def _from_colour(value: Colour) -> Color:
    if value.cmyk is not None:
        return CMYKColor(*value.cmyk, alpha=value.alpha)
    return Color(value.red, value.green, value.blue, value.alpha)


def faded(ink: Color, opacity: float) -> Color:
    """`ink` with its alpha multiplied by `opacity` (the colour itself when opacity is 1)."""
    if opacity >= 1:
        return ink
    alpha = float(getattr(ink, "alpha", 1.0)) * max(0.0, opacity)
    if isinstance(ink, CMYKColor):
        return _on_paper(CMYKColor(ink.cyan, ink.magenta, ink.yellow, ink.black, alpha=alpha))
    return _on_paper(Color(ink.red, ink.green, ink.blue, alpha))


def _on_paper(ink: Color) -> Color:
    """A see-through ink as it is, where forms keep their graphics states; else (ReportLab's own
    form writer, adapters off) the opaque ink it gives on white paper, so the PDF stays valid."""
    if rl.forms_keep_resources():
        return ink
    a = float(ink.alpha)
    if isinstance(ink, CMYKColor):
        return CMYKColor(ink.cyan * a, ink.magenta * a, ink.yellow * a, ink.black * a)
    return Color(ink.red * a + 1 - a, ink.green * a + 1 - a, ink.blue * a + 1 - a)


DARK_TEXT = 0.25   # a text colour whose red, green and blue are all at most this prints as black ink alone
K_ONLY = CMYKColor(0, 0, 0, 1)


def text_ink(c: Any, ink: Color) -> Color:
    """The ink text is drawn in: on a canvas that prints CMYK, a dark colour (near-black, every channel at
    most DARK_TEXT) becomes 100 % black ink alone, since small text built from four inks blurs wherever the
    press plates do not register exactly; inks written as cmyk(...) and every other colour stay as they are."""
    if isinstance(ink, CMYKColor) or float(getattr(ink, "alpha", 1.0)) < 1 or not rl.known_to_convert_colours(c):
        return ink
    if max(ink.red, ink.green, ink.blue) <= DARK_TEXT:
        return K_ONLY
    return ink
