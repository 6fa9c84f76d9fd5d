"""Colour arithmetic on '#RRGGBB' text, as jinja2 filters for designs: lighten, darken, mix, on.

`{{ slots.color | darken(0.35) }}` is the theme colour a third of the way to black;
`{{ slots.color | on }}` is black or white, whichever reads on that colour.
"""
from __future__ import annotations

from typing import Any, Callable


def _rgb(value: Any) -> tuple[float, float, float]:
    text = str(value).strip().lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a colour: {value!r} (use #RRGGBB)")
    try:
        return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"not a colour: {value!r} (use #RRGGBB)") from None


def _hex(rgb: tuple[float, ...]) -> str:
    return "#" + "".join("%02x" % max(0, min(255, round(v * 255))) for v in rgb)


def mix(a: Any, b: Any, t: float) -> str:
    """From colour a (t=0) to colour b (t=1)."""
    ra, rb = _rgb(a), _rgb(b)
    return _hex(tuple(x + (y - x) * float(t) for x, y in zip(ra, rb)))


def lighten(value: Any, t: float) -> str:
    return mix(value, "#ffffff", t)


def darken(value: Any, t: float) -> str:
    return mix(value, "#000000", t)


def on(value: Any, dark: str = "#000000", light: str = "#ffffff") -> str:
    """Ink that reads on `value`: `dark` on a light colour, `light` on a dark one."""
    r, g, b = _rgb(value)
    return dark if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else light


FILTERS: dict[str, Callable[..., Any]] = {"mix": mix, "lighten": lighten, "darken": darken, "on": on}
