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


DARK_TEXT = 0.25  # a text colour whose red, green and blue are all at most this prints as black ink alone
K_ONLY = CMYKColor(0, 0, 0, 1)
LOW_TINT = 0.9  # on a low-ink card a fill keeps this little of its colour: 1 - LOW_TINT (a light tint)
LIGHT = 0.6  # text or a symbol lighter than this (0 black, 1 white) is drawn dark on a low-ink card
LOW_DARK = Color(0.13, 0.12, 0.16)
BIG_PICTURE = 0.35  # share of the card a picture may cover and still print on a low-ink card


def low_ink(c: Any) -> bool:
    """Whether the canvas draws the low-ink version (`pnp build --ink low`): light fills, dark text."""
    return getattr(c, "pnp_ink", "full") == "low"


def lightness(ink: Color) -> float:
    """0 for black to 1 for white (luma of its red, green and blue)."""
    if isinstance(ink, CMYKColor):
        k = 1 - ink.black
        return 0.299 * (1 - ink.cyan) * k + 0.587 * (1 - ink.magenta) * k + 0.114 * (1 - ink.yellow) * k
    return 0.299 * ink.red + 0.587 * ink.green + 0.114 * ink.blue


def fill_ink(c: Any, ink: Color) -> Color:
    """A shape's fill: on a low-ink card a light tint of the colour (the design's hues stay to tell
    things apart; the sheet takes a fraction of the ink); elsewhere the colour as it is."""
    if not low_ink(c):
        return ink
    keep = 1 - LOW_TINT
    if isinstance(ink, CMYKColor):
        return CMYKColor(
            ink.cyan * keep, ink.magenta * keep, ink.yellow * keep, ink.black * keep, alpha=ink.alpha
        )
    return Color(1 - (1 - ink.red) * keep, 1 - (1 - ink.green) * keep, 1 - (1 - ink.blue) * keep, ink.alpha)


def mark_ink(c: Any, ink: Color) -> Color:
    """Text and symbols on a low-ink card: light ones (white on a dark panel, which is now pale) drawn dark."""
    if low_ink(c) and lightness(ink) > LIGHT:
        return LOW_DARK
    return ink


def text_ink(c: Any, ink: Color) -> Color:
    """The ink text is drawn in: dark on a low-ink card when it was light (see `mark_ink`); on a canvas that
    prints CMYK, a dark colour (near-black, every channel at most DARK_TEXT) becomes 100 % black ink alone,
    since small text built from four inks blurs wherever the press plates do not register exactly; inks
    written as cmyk(...) and every other colour stay as they are."""
    ink = mark_ink(c, ink)
    if (
        isinstance(ink, CMYKColor)
        or float(getattr(ink, "alpha", 1.0)) < 1
        or not rl.known_to_convert_colours(c)
    ):
        return ink
    if max(ink.red, ink.green, ink.blue) <= DARK_TEXT:
        return K_ONLY
    return ink
