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
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

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
        inks = (
            tuple(float(getattr(value, n)) for n in ("cyan", "magenta", "yellow", "black"))
            if hasattr(value, "cyan")
            else None
        )
        alpha = float(getattr(value, "alpha", 1.0))
        return Colour(float(value.red), float(value.green), float(value.blue), alpha, inks)  # type: ignore[arg-type]
    text = str(value).strip()
    try:
        return _parsed(text)
    except ValueError:  # said again with the value as written
        return _parse(text, value)


@lru_cache(maxsize=4096)
def _parsed(text: str) -> Colour:
    """Colour text read once per run: a deck paints its few colours on every card (bench: `pnp check`,
    1,000-card CSV deck)."""
    return _parse(text, text)


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
        parts = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
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
    if name == "cmyk":  # inks in percent, with or without the % sign
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
        raise ValueError(
            f"colour value {number:g}{'%' if percent else ''} is out of range "
            f"(0 to {'100%' if percent else f'{scale:g}'})"
        )
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
    return "#" + "".join(f"{max(0, min(255, round(v * 255))):02x}" for v in channels)


def _like(model: Any, r: float, g: float, b: float) -> Any:
    """(r, g, b) as the same kind of colour as `model`."""
    return (
        to_hex(_Rgb(r, g, b)) if isinstance(model, str) or not hasattr(model, "red") else type(model)(r, g, b)
    )


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


FILTERS: dict[str, Callable[..., Any]] = {
    "colour": colour,
    "mix": mix,
    "lighten": lighten,
    "darken": darken,
    "on": on,
    "luminance": luminance,
}


@dataclass(frozen=True)
class Gradient:
    """A gradient fill as CSS writes it: linear (along `angle`, CSS degrees: 0 up, 90 to the right)
    or radial (from the centre out), through opaque colour stops at positions 0 to 1."""

    kind: str
    angle: float
    stops: tuple[tuple[Colour, float], ...]


_GRADIENT = re.compile(r"\s*(linear|radial)-gradient\((.*)\)\s*", re.IGNORECASE | re.DOTALL)
_SIDES = {
    "to top": 0.0,
    "to right": 90.0,
    "to bottom": 180.0,
    "to left": 270.0,
    "to top right": 45.0,
    "to right top": 45.0,
    "to bottom right": 135.0,
    "to right bottom": 135.0,
    "to bottom left": 225.0,
    "to left bottom": 225.0,
    "to top left": 315.0,
    "to left top": 315.0,
}


def is_gradient(value: Any) -> bool:
    return isinstance(value, str) and bool(_GRADIENT.fullmatch(value))


def gradient(text: str) -> Gradient:
    """linear-gradient(90deg, #fff, navy 80%) or radial-gradient(white, rgb(0 0 80)); ValueError else."""
    match = _GRADIENT.fullmatch(text)
    if not match:
        raise ValueError(f"not a gradient: {text!r}")
    kind, args = match.group(1).lower(), _split(match.group(2))
    angle = 180.0  # CSS: top to bottom
    if kind == "linear" and args:
        first = args[0].strip().lower()
        turned = re.fullmatch(r"([-+]?(?:\d+\.?\d*|\.\d+))\s*(deg|turn)", first)
        if turned:
            angle = float(turned.group(1)) * (360.0 if turned.group(2) == "turn" else 1.0)
            args = args[1:]
        elif first in _SIDES:
            angle, args = _SIDES[first], args[1:]
    stops: list[tuple[Colour, float | None]] = []
    for arg in args:
        at = re.fullmatch(r"(.*\S)\s+([-+]?(?:\d+\.?\d*|\.\d+))%", arg.strip(), re.DOTALL)
        value = colour(at.group(1) if at else arg.strip(), "")
        if value.alpha < 1:
            raise ValueError(
                f"gradient colours are opaque; {arg.strip()!r} is see-through (use opacity instead)"
            )
        stops.append((value, float(at.group(2)) / 100 if at else None))
    if not 2 <= len(stops) <= 16:
        raise ValueError(
            f"a gradient takes 2 to 16 colours, found {len(stops)}: e.g. linear-gradient(90deg, white, navy)"
        )
    return Gradient(kind, angle % 360, _spread(stops))


def _split(args: str) -> list[str]:
    """Comma-separated arguments, commas inside rgb(...) kept."""
    out, depth, part = [], 0, ""
    for ch in args:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(part)
            part = ""
        else:
            part += ch
    return [p for p in [*out, part] if p.strip()]


def _spread(stops: list[tuple[Colour, float | None]]) -> tuple[tuple[Colour, float], ...]:
    """Stops without a position spread evenly between their neighbours, as CSS does; never going back."""
    pos = [p for _, p in stops]
    pos[0] = 0.0 if pos[0] is None else pos[0]
    pos[-1] = 1.0 if pos[-1] is None else pos[-1]
    i = 0
    while i < len(pos) - 1:
        j = next(k for k in range(i + 1, len(pos)) if pos[k] is not None)
        for k in range(i + 1, j):
            pos[k] = pos[i] + (pos[j] - pos[i]) * (k - i) / (j - i)  # type: ignore[operator]
        i = j
    done: list[float] = []
    for p in pos:
        done.append(max(min(max(float(p), 0.0), 1.0), done[-1] if done else 0.0))  # type: ignore[arg-type]
    return tuple((c, p) for (c, _), p in zip(stops, done))
