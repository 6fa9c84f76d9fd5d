"""Colour maths, one home for it: lighten, darken, mix, luminance and on.

A colour is text as CSS writes it (#RRGGBB, #RGB, #RRGGBBAA, a name, rgb(), rgba(),
and cmyk() for print) or any object with `red`,
`green` and `blue` from 0 to 1 (ReportLab's `Color`, as drawing code holds
it). Each function answers in the kind of colour it was given: text for text
(so `{{ slots.color | darken(0.35) }}` in a design prints '#RRGGBB'), the same
class for a colour object, computed in floats either way. The same names are
jinja2 filters for designs and booklets (`FILTERS`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

Rgb = tuple[float, float, float]


@dataclass(frozen=True)
class Colour:
    """A colour as layout expressions hold it: red, green and blue from 0 to 1, an alpha (1 is opaque)
    and, for a colour written as cmyk(...), its exact inks; prints as '#RRGGBB' ('#RRGGBBAA')."""

    red: float
    green: float
    blue: float
    alpha: float = 1.0
    cmyk: tuple[float, float, float, float] | None = None

    def __str__(self) -> str:
        return to_hex(self)


FORMS = "#RRGGBB, #RGB, #RRGGBBAA, a CSS colour name, rgb(...), rgba(...) or cmyk(...)"
_NUMBER = r"\s*([-+]?(?:\d+\.?\d*|\.\d+))(%?)\s*"
_FUNCTION = re.compile(r"(rgba?|cmyk)\((.*)\)", re.IGNORECASE | re.DOTALL)


def colour(value: Any, default: Any = "#000000") -> Colour:
    """A Colour from any colour text (see FORMS) or colour object; `default` when `value` is empty."""
    if isinstance(value, Colour):
        return value
    if value in (None, ""):
        value = default
    if hasattr(value, "red"):
        inks = tuple(float(getattr(value, n)) for n in ("cyan", "magenta", "yellow", "black")) \
            if hasattr(value, "cyan") else None
        return Colour(float(value.red), float(value.green), float(value.blue), float(getattr(value, "alpha", 1.0)),
                      inks)  # type: ignore[arg-type]
    return _parse(str(value).strip(), value)


def rgb(value: Any) -> Rgb:
    """A colour's red, green and blue from 0 to 1; ValueError for what is not a colour."""
    c = colour(value, "")
    return c.red, c.green, c.blue


def _parse(text: str, value: Any) -> Colour:
    bad = ValueError(f"not a colour: {value!r} (use {FORMS})")
    digits = text[1:] if text.startswith("#") else text if len(text) == 6 else ""
    if digits and all(ch in "0123456789abcdefABCDEF" for ch in digits) and len(digits) in (3, 4, 6, 8):
        if len(digits) in (3, 4):
            digits = "".join(ch * 2 for ch in digits)
        parts = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
        return Colour(parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else 1.0)
    match = _FUNCTION.fullmatch(text)
    if match:
        return _function(match.group(1).lower(), match.group(2), bad)
    named = _named(text.lower())
    if named is None:
        raise bad
    return named


def _function(name: str, args: str, bad: ValueError) -> Colour:
    """rgb(255, 0, 0), rgb(100% 0% 0% / 50%), rgba(255, 0, 0, 0.5), cmyk(0%, 100%, 100%, 0%)."""
    parts = [p for p in re.split(r"\s*[,/]\s*|\s+", args.strip()) if p]
    values = []
    for part in parts:
        number = re.fullmatch(_NUMBER, part)
        if not number:
            raise bad
        values.append((float(number.group(1)), number.group(2) == "%"))
    if name == "cmyk":   # inks in percent, with or without the % sign
        if len(values) not in (4, 5):
            raise bad
        c, m, y, k = (_share(v, True, 100.0) for v, _ in values[:4])
        alpha = _share(*values[4], 1.0) if len(values) == 5 else 1.0
        return Colour((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k), alpha, (c, m, y, k))
    if len(values) not in (3, 4):
        raise bad
    red, green, blue = (_share(v, pct, 255.0) for v, pct in values[:3])
    alpha = _share(*values[3], 1.0) if len(values) == 4 else 1.0
    return Colour(red, green, blue, alpha)


def _share(number: float, percent: bool, scale: float) -> float:
    """A channel from 0 to 1: a percentage, or a number out of `scale`; ValueError when out of range."""
    share = number / 100 if percent else number / scale
    if not 0 <= share <= 1:
        raise ValueError(f"colour value {number:g}{'%' if percent else ''} is out of range "
                         f"(0 to {'100%' if percent else f'{scale:g}'})")
    return share


def _named(name: str) -> Colour | None:
    """A CSS colour name (the 148 of CSS Color 4, as Pillow lists them) or `transparent`."""
    if name == "transparent":
        return Colour(0.0, 0.0, 0.0, 0.0)
    from PIL import ImageColor  # lazy: only a named colour needs the table
    hexed = ImageColor.colormap.get(name)
    return _parse(hexed, name) if isinstance(hexed, str) and hexed.startswith("#") else None


def to_hex(value: Any) -> str:
    """'#rrggbb', or '#rrggbbaa' for a colour that is not opaque."""
    c = colour(value, "")
    channels = (c.red, c.green, c.blue) + ((c.alpha,) if c.alpha < 1 else ())
    return "#" + "".join("%02x" % max(0, min(255, round(v * 255))) for v in channels)


def _like(model: Any, r: float, g: float, b: float) -> Any:
    """(r, g, b) as the same kind of colour as `model`."""
    return to_hex(_Rgb(r, g, b)) if isinstance(model, str) or not hasattr(model, "red") else type(model)(r, g, b)


class _Rgb:
    __slots__ = ("red", "green", "blue")

    def __init__(self, r: float, g: float, b: float):
        self.red, self.green, self.blue = r, g, b


def mix(a: Any, b: Any, t: float) -> Any:
    """From colour a (t=0) to colour b (t=1)."""
    (ra, ga, ba), (rb, gb, bb), t = rgb(a), rgb(b), float(t)
    return _like(a, ra + (rb - ra) * t, ga + (gb - ga) * t, ba + (bb - ba) * t)


def lighten(value: Any, t: float) -> Any:
    """A share `t` of the way to white."""
    return mix(value, _like(value, 1.0, 1.0, 1.0), t)


def darken(value: Any, t: float) -> Any:
    """A share `t` of the way to black."""
    return mix(value, _like(value, 0.0, 0.0, 0.0), t)


def luminance(value: Any) -> float:
    """Perceived lightness from 0 to 1 (what a grayscale printer keeps)."""
    r, g, b = rgb(value)
    return 0.299 * r + 0.587 * g + 0.114 * b


def on(value: Any, dark: Any = None, light: Any = None) -> Any:
    """Ink that reads on `value`: `dark` (default black) on a light colour, `light` (default white) on a dark one."""
    if luminance(value) > 0.55:
        return _like(value, 0.0, 0.0, 0.0) if dark is None else dark
    return _like(value, 1.0, 1.0, 1.0) if light is None else light


FILTERS: dict[str, Callable[..., Any]] = {"colour": colour, "mix": mix, "lighten": lighten, "darken": darken, "on": on,
                                          "luminance": luminance}
