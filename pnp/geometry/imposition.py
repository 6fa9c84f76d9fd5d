"""Pure page arithmetic: saddle-stitch page order for booklets and tiling for large boards.

Nothing here draws; booklets and boards ask these functions where things go.
All lengths are millimetres.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

Page = int | None  # a 1-based page number, or None for a blank page


@dataclass(frozen=True)
class Sheet:
    """One folded sheet of a saddle-stitched booklet: two pages on each side.

    Read with the fold vertical in the middle: `front_left` and `front_right`
    are printed on the outside face, `back_left` and `back_right` on the inside
    face as it lies after a turn about the fold (short-edge duplex).
    """

    front_left: Page
    front_right: Page
    back_left: Page
    back_right: Page

    def as_tuple(self) -> tuple[Page, Page, Page, Page]:
        return self.front_left, self.front_right, self.back_left, self.back_right


def padded_pages(n_pages: int) -> int:
    """Page count rounded up to a multiple of four (one folded sheet holds four pages)."""
    if n_pages < 0:
        raise ValueError(f"a booklet cannot have {n_pages} pages")
    return max(4, -(-n_pages // 4) * 4)


def saddle_order(n_pages: int) -> list[Sheet]:
    """Sheets in stacking order (outermost first) for a booklet of `n_pages` pages.

    Pages beyond `n_pages` (padding up to a multiple of four) come back as None,
    so they print blank and land at the end of the booklet.
    """
    total = padded_pages(n_pages)

    def page(p: int) -> Page:
        return p if p <= n_pages else None

    sheets = []
    for i in range(total // 4):
        sheets.append(Sheet(page(total - 2 * i), page(2 * i + 1), page(2 * i + 2), page(total - 2 * i - 1)))
    return sheets


@dataclass(frozen=True)
class Tile:
    """One printed piece of a tiled board: the board rectangle it shows (mm, origin bottom-left)."""

    col: int
    row: int  # 0 is the top row, as a person reads the assembly map
    x: float
    y: float
    w: float
    h: float

    @property
    def label(self) -> str:
        """Column letter and row number, e.g. "B1" (column B, top row)."""
        return f"{column_letter(self.col)}{self.row + 1}"


@dataclass(frozen=True)
class TilePlan:
    """How a board is split over sheets; one tile means it prints whole."""

    board_w: float
    board_h: float
    area_w: float  # usable area on one sheet for the board (mm)
    area_h: float
    landscape: bool
    cols: int
    rows: int
    overlap: float
    tiles: tuple[Tile, ...]

    @property
    def whole(self) -> bool:
        return len(self.tiles) == 1

    def overlaps(self) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """Board x ranges shared by neighbouring columns and y ranges shared by neighbouring rows."""
        xs = [(t.x, t.x + self.overlap) for t in self.tiles if t.row == 0 and t.col > 0]
        ys = [(t.y + t.h - self.overlap, t.y + t.h) for t in self.tiles if t.col == 0 and t.row > 0]
        return xs, ys


def column_letter(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def _count(length: float, room: float, overlap: float) -> int:
    if length <= room + 1e-9:
        return 1
    return math.ceil((length - overlap) / (room - overlap) - 1e-9)


def _spans(length: float, n: int, room: float, overlap: float) -> list[tuple[float, float]]:
    """n equal pieces covering `length`, neighbours sharing `overlap` (pieces no longer than `room`)."""
    if n == 1:
        return [(0.0, length)]
    size = (length + (n - 1) * overlap) / n
    assert size <= room + 1e-6
    return [(i * (size - overlap), size) for i in range(n)]


def tile_plan(
    board_w: float,
    board_h: float,
    sheet_w: float,
    sheet_h: float,
    margin: float,
    overlap: float = 10.0,
    reserve: float = 0.0,
) -> TilePlan:
    """Split a board over sheets of paper, choosing the orientation that needs fewest sheets.

    `margin` is the unprinted edge on every side, `reserve` the strip at the
    bottom of each sheet kept for the label and assembly map. Tiles share
    `overlap` mm with each neighbour and are equal in size, so every sheet
    carries a similar amount of board.
    """
    if overlap < 0 or margin < 0:
        raise ValueError("margin and overlap cannot be negative")
    best: TilePlan | None = None
    for landscape in (False, True):
        pw, ph = (
            (max(sheet_w, sheet_h), min(sheet_w, sheet_h))
            if landscape
            else (min(sheet_w, sheet_h), max(sheet_w, sheet_h))
        )
        room_w, room_h = pw - 2 * margin, ph - 2 * margin - reserve
        if room_w <= overlap or room_h <= overlap:
            continue
        cols, rows = _count(board_w, room_w, overlap), _count(board_h, room_h, overlap)
        xs = _spans(board_w, cols, room_w, overlap)
        ys = _spans(board_h, rows, room_h, overlap)
        tiles = []
        for r, (y0, h) in enumerate(reversed(ys)):  # row 0 at the top of the board
            for c, (x0, w) in enumerate(xs):
                tiles.append(Tile(c, r, x0, y0, w, h))
        plan = TilePlan(board_w, board_h, room_w, room_h, landscape, cols, rows, overlap, tuple(tiles))
        # Fewest sheets first; on a tie prefer the orientation that matches the board's.
        key = (len(tiles), landscape != (board_w >= board_h))
        if best is None or key < (len(best.tiles), best.landscape != (board_w >= board_h)):
            best = plan
    if best is None:
        raise ValueError(f"a {sheet_w:g} x {sheet_h:g} mm sheet has no room for a board after its margins")
    return best
