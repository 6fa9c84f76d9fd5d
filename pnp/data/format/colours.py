"""Colour maths, one home for it: lighten, darken, mix, luminance and on.

A colour is '#RRGGBB' text (as databases write it) or any object with `red`,
`green` and `blue` from 0 to 1 (ReportLab's `Color`, as drawing code holds
it). Each function answers in the kind of colour it was given: text for text
(so `{{ slots.color | darken(0.35) }}` in a design prints '#RRGGBB'), the same
class for a colour object, computed in floats either way. The same names are
jinja2 filters for designs and booklets (`FILTERS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Rgb = tuple[float, float, float]


@dataclass(frozen=True)
class Colour:
    """A colour as layout expressions hold it: red, green and blue from 0 to 1; prints as '#RRGGBB'."""

    red: float
    green: float
    blue: float

    def __str__(self) -> str:
        return to_hex(self)


def colour(value: Any, default: Any = "#000000") -> Colour:
    """A Colour from '#RRGGBB' or any colour object; `default` when `value` is empty."""
    return Colour(*rgb(value if value not in (None, "") else default))


def rgb(value: Any) -> Rgb:
    """A colour's red, green and blue from 0 to 1; ValueError for what is not a colour."""
    if hasattr(value, "red"):
        return float(value.red), float(value.green), float(value.blue)
    text = str(value).strip().lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a colour: {value!r} (use #RRGGBB)")
    try:
        return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"not a colour: {value!r} (use #RRGGBB)") from None


def to_hex(value: Any) -> str:
    return "#" + "".join("%02x" % max(0, min(255, round(v * 255))) for v in rgb(value))


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
