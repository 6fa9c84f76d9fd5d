"""Units, named sizes and sheet imposition: where each card sits on a page.

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
SAFE_ZONE = 3.0        # text stays this far inside the trim
MIN_MARGIN = 4.5       # unprintable edge of a home printer, with room for marks
MARK_GAP = 1.0         # crop marks start this far outside the bleed
MARK_LENGTH = 4.0      # length of corner-mode crop marks
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
    def landscape(self) -> "Size":
        return Size(max(self.w, self.h), min(self.w, self.h), self.name)

    @property
    def portrait(self) -> "Size":
        return Size(min(self.w, self.h), max(self.w, self.h), self.name)


def parse_size(text: str, named: dict[str, tuple[float, float]], what: str,
               bounds: tuple[float, float] = (1.0, 3000.0)) -> Size:
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


CARD_BOUNDS = (5.0, 1000.0)     # mm: a card (or a mat) from a token to a large play mat
PAPER_BOUNDS = (50.0, 3000.0)   # mm: a sheet or a board, from a small card to a banner


def card_size(text: str) -> Size:
    return parse_size(text, CARD_SIZES, "card size", CARD_BOUNDS)


def paper_size(text: str) -> Size:
    return parse_size(text, PAPER_SIZES, "paper size", PAPER_BOUNDS)


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: the trim box's lower-left corner (mm, from page lower-left)."""

    col: int
    row: int
    x: float
    y: float


@dataclass(frozen=True)
class Grid:
    """How cards are imposed on a sheet.

    `gutter` is the space between neighbouring trims: 2 x bleed when each card
    keeps its own bleed, 0 when neighbours share a cut line.
    """

    page: Size
    card: Size
    cols: int
    rows: int
    bleed: float
    gutter: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def block_w(self) -> float:
        """Width of the trimmed cards and gutters."""
        return self.cols * self.card.w + (self.cols - 1) * self.gutter

    @property
    def block_h(self) -> float:
        return self.rows * self.card.h + (self.rows - 1) * self.gutter

    @property
    def left(self) -> float:
        return (self.page.w - self.block_w) / 2

    @property
    def bottom(self) -> float:
        return (self.page.h - self.block_h) / 2

    @property
    def margin_x(self) -> float:
        """Paper left of the outer bleed edge."""
        return self.left - self.bleed

    @property
    def margin_y(self) -> float:
        return self.bottom - self.bleed

    def slot(self, index: int) -> Slot:
        """Position `index` on a fronts page, filled left to right, top to bottom."""
        col, row = index % self.cols, index // self.cols
        x = self.left + col * (self.card.w + self.gutter)
        y = self.bottom + (self.rows - 1 - row) * (self.card.h + self.gutter)
        return Slot(col, row, x, y)

    def back_slot(self, index: int, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of card `index` goes so it lands behind its face after the flip.

        `flip` is the paper edge the duplex printer turns over: "long" or "short".
        On a portrait sheet a long-edge flip mirrors columns and a short-edge
        flip mirrors rows; on a landscape sheet it is the other way round.
        """
        front = self.slot(index)
        mirror_cols = (flip == "long") == (self.page.h >= self.page.w)
        if mirror_cols:
            col, row = self.cols - 1 - front.col, front.row
            x, y = self.page.w - front.x - self.card.w, front.y
        else:
            col, row = front.col, self.rows - 1 - front.row
            x, y = front.x, self.page.h - front.y - self.card.h
        return Slot(col, row, x + offset[0], y + offset[1])

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of vertical cuts and y positions of horizontal cuts (mm)."""
        xs: list[float] = []
        ys: list[float] = []
        for c in range(self.cols):
            x0 = self.left + c * (self.card.w + self.gutter)
            xs += [x0, x0 + self.card.w]
        for r in range(self.rows):
            y0 = self.bottom + r * (self.card.h + self.gutter)
            ys += [y0, y0 + self.card.h]
        return sorted(set(round(v, 6) for v in xs)), sorted(set(round(v, 6) for v in ys))


def choose_grid(paper: Size, card: Size, bleed: float, min_margin: float = MIN_MARGIN,
                own_bleed: bool = False) -> Grid:
    """The sheet orientation and grid that fit the most cards.

    Cards keep their own bleed (gutter 2 x bleed) when that fits as many cards
    as sharing cut lines does, or always with `own_bleed` (tokens); otherwise
    neighbours share cut lines and only the outer edge of the block carries bleed.
    """
    best: Grid | None = None
    best_key: tuple = ()
    for page in (paper.portrait, paper.landscape):
        for gutter in (2 * bleed,) if own_bleed else (2 * bleed, 0.0):
            usable_w = page.w - 2 * (min_margin + bleed)
            usable_h = page.h - 2 * (min_margin + bleed)
            cols = int((usable_w + gutter + 1e-9) // (card.w + gutter))
            rows = int((usable_h + gutter + 1e-9) // (card.h + gutter))
            if cols < 1 or rows < 1:
                continue
            grid = Grid(page, card, cols, rows, bleed, gutter)
            key = (grid.per_page, gutter > 0 or bleed == 0, page.h >= page.w)
            if best is None or key > best_key:
                best, best_key = grid, key
    if best is None:
        raise ValueError(f"a {card.label()} card with {bleed:g} mm bleed does not fit on {paper.label()} paper")
    return best
