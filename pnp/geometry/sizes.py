"""Units and named sizes (cards and paper).

All public measurements are millimetres; `pt` converts to PDF points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MM = 72 / 25.4  # PDF points per millimetre

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.0),
    "square": (70.0, 70.0),
}
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
SAFE_ZONE = 3.0  # text stays this far inside the trim
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$")


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * MM


@dataclass(frozen=True)
class Size:
    """A width and height in millimetres, with the name it was given."""

    w: float
    h: float
    name: str = ""

    def label(self) -> str:
        dims = f"{self.w:g} x {self.h:g} mm"
        return f"{self.name} {dims}" if self.name and "x" not in self.name else dims

    @property
    def landscape(self) -> Size:
        return Size(max(self.w, self.h), min(self.w, self.h), self.name)

    @property
    def portrait(self) -> Size:
        return Size(min(self.w, self.h), max(self.w, self.h), self.name)


def parse_size(
    text: str, named: dict[str, tuple[float, float]], what: str, bounds: tuple[float, float] = (1.0, 3000.0)
) -> Size:
    """A named size or `WxH` in mm, each side within `bounds`; ValueError naming the valid forms otherwise."""
    key = str(text).strip().lower()
    if key in named:
        return Size(*named[key], key)
    m = _SIZE.match(key)
    if m and float(m.group(1)) > 0 and float(m.group(2)) > 0:
        w, h = float(m.group(1)), float(m.group(2))
        if not (bounds[0] <= w <= bounds[1] and bounds[0] <= h <= bounds[1]):
            raise ValueError(f"{what} {text!r}: each side must be {bounds[0]:g} to {bounds[1]:g} mm")
        return Size(w, h, key)
    raise ValueError(f"unknown {what} {text!r}: use one of {', '.join(named)} or WxH in mm (e.g. 63x88)")


CARD_BOUNDS = (5.0, 1000.0)  # mm: a card (or a mat) from a token to a large play mat
PAPER_BOUNDS = (50.0, 3000.0)  # mm: a sheet or a board, from a small card to a banner


def card_size(text: str) -> Size:
    return parse_size(text, CARD_SIZES, "card size", CARD_BOUNDS)


def paper_size(text: str) -> Size:
    return parse_size(text, PAPER_SIZES, "paper size", PAPER_BOUNDS)
