"""How many whole hexes a hex grid element fits in its box, and where they sit."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class HexGrid:
    """Whole hexes `step` across flats in a w x h box (any one unit), neighbours sharing sides."""

    cols: int
    rows: int
    across: float  # between neighbouring columns' centres
    down: float  # between neighbouring rows' centres
    hw: float  # one hex's width
    hh: float  # one hex's height

    @property
    def count(self) -> int:
        return self.cols * self.rows


def hex_grid(step: float, w: float, h: float, pointy: bool) -> HexGrid:
    """The grid that fits: flat-topped columns 1.5 sides apart and rows `step` apart, odd columns half
    a row down (pointy: turned a quarter)."""
    side = step / math.sqrt(3)
    across, down = (1.5 * side, step) if not pointy else (step, 1.5 * side)
    hw, hh = (2 * side, step) if not pointy else (step, 2 * side)
    cols = int((w - hw) // across + 1 + 1e-9) if w >= hw else 0
    rows = int((h - hh - (down / 2 if cols > 1 and not pointy else 0)) // down + 1 + 1e-9) if h >= hh else 0
    if pointy and rows > 1:
        cols = int((w - hw - across / 2) // across + 1 + 1e-9) if w >= hw + across / 2 else 0
    return HexGrid(cols, rows, across, down, hw, hh)
