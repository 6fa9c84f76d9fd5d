"""Sheet imposition: where each card's front and back sit on the paper (millimetres from the lower left).

A grid is cols x rows card positions inside the printable area. Its backs go on
the next page (duplex: placed for the printer's flip) or, on a fold sheet, on the
same page mirrored across a fold line down the middle (gutterfold): fold along it
and every back lies behind its front, whatever the printer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pnp.geometry.sizes import Size

MARGIN = 5.0  # the edge a home printer cannot print: nothing is drawn there (--margin)
MARK_GAP = 0.5  # crop marks start this far outside the bleed
MARK_MIN = 3.0  # crop marks are at least this long inside the printable area ...
MARK_LENGTH = 4.0  # ... and corner-mode marks this long
MIN_OUTER_BLEED = 1.5  # the bleed round the block of cards may shrink to this to keep a row or column
FOLD_CLEAR = 5.0  # a fold line keeps this far from any bleed: a fold a few mm off still shows the right art
FOLDS = ("", "vertical", "horizontal")  # no fold; a fold line down the page's middle; across it


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: the trim box's lower-left corner (mm, from page lower-left)."""

    col: int
    row: int
    x: float
    y: float
    turned: bool = False  # drawn rotated 180 degrees (a back across a horizontal fold)


@dataclass(frozen=True)
class Grid:
    """How cards are imposed on a sheet.

    `gutter` is the space between neighbouring trims: 2 x bleed when each card
    keeps its own bleed, 0 when neighbours share a cut line, or the gap asked for
    (`--gap`: each card's bleed reaches half-way across a narrower one). `outer` is the bleed
    round the block of cards (at most `bleed`: less when that keeps a row or
    column inside the printable area); `margin` the paper edge nothing is drawn in.
    `fold`: the fronts sit on one side of a fold line through the page's middle and
    their backs mirrored on the other, `fold_gap` mm apart across it.
    """

    page: Size
    card: Size
    cols: int
    rows: int
    bleed: float
    gutter: float
    outer: float = -1.0  # -1: the same as bleed
    margin: float = 0.0
    fold: str = ""
    fold_gap: float = 0.0

    @property
    def outer_bleed(self) -> float:
        return self.bleed if self.outer < 0 else self.outer

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
        """The fronts block's left trim: centred, or against the fold's gap on the left half."""
        if self.fold == "vertical":
            return (self.page.w - self.fold_gap) / 2 - self.block_w
        return (self.page.w - self.block_w) / 2

    @property
    def bottom(self) -> float:
        """The fronts block's bottom trim: centred, or above the fold's gap in the upper half."""
        if self.fold == "horizontal":
            return (self.page.h + self.fold_gap) / 2
        return (self.page.h - self.block_h) / 2

    def span(self) -> tuple[float, float, float, float]:
        """The trims of every card the page shows, fronts and folded backs: (left, bottom, right, top)."""
        if self.fold == "vertical":
            return self.left, self.bottom, self.page.w - self.left, self.bottom + self.block_h
        if self.fold == "horizontal":
            return (
                self.left,
                self.page.h - self.bottom - self.block_h,
                self.left + self.block_w,
                self.bottom + self.block_h,
            )
        return self.left, self.bottom, self.left + self.block_w, self.bottom + self.block_h

    @property
    def margin_x(self) -> float:
        """Paper left of the outer bleed edge."""
        return self.span()[0] - self.outer_bleed

    @property
    def margin_y(self) -> float:
        return self.span()[1] - self.outer_bleed

    def slot(self, index: int) -> Slot:
        """Position `index` on a fronts page, filled left to right, top to bottom."""
        col, row = index % self.cols, index // self.cols
        x = self.left + col * (self.card.w + self.gutter)
        y = self.bottom + (self.rows - 1 - row) * (self.card.h + self.gutter)
        return Slot(col, row, x, y)

    def back_slot(self, index: int, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of card `index` goes so it lands behind its face after the flip (or the fold).

        `flip` is the paper edge the duplex printer turns over: "long" or "short".
        On a portrait sheet a long-edge flip mirrors columns and a short-edge
        flip mirrors rows; on a landscape sheet it is the other way round. On a
        fold sheet the back is the front mirrored across the fold line; across a
        horizontal fold it is turned 180 degrees, so it reads upright when the
        card is turned over sideways, as cards are.
        """
        front = self.slot(index)
        if self.fold:
            mirror_cols, turned = self.fold == "vertical", self.fold == "horizontal"
        else:
            mirror_cols, turned = (flip == "long") == (self.page.h >= self.page.w), False
        if mirror_cols:
            col, row = self.cols - 1 - front.col, front.row
            x, y = self.page.w - front.x - self.card.w, front.y
        else:
            col, row = front.col, self.rows - 1 - front.row
            x, y = front.x, self.page.h - front.y - self.card.h
        return Slot(col, row, x + offset[0], y + offset[1], turned)

    def cut_lines(self, indexes: Iterable[int] | None = None) -> tuple[list[float], list[float]]:
        """x positions of vertical cuts and y positions of horizontal cuts (mm), of fronts and folded backs:
        of every position, or only of the positions in `indexes` (those a page fills)."""
        xs: list[float] = []
        ys: list[float] = []
        for slot in (self.slot(i) for i in (range(self.per_page) if indexes is None else indexes)):
            xs += [slot.x, slot.x + self.card.w]
            ys += [slot.y, slot.y + self.card.h]
        if self.fold == "vertical":
            xs += [self.page.w - x for x in xs]
        elif self.fold == "horizontal":
            ys += [self.page.h - y for y in ys]
        return sorted(set(round(v, 6) for v in xs)), sorted(set(round(v, 6) for v in ys))


def choose_grid(
    paper: Size,
    card: Size,
    bleed: float,
    margin: float = MARGIN,
    own_bleed: bool = False,
    marks: bool = True,
    fold_gap: float | None = None,
    corners: float = 0.0,
    area: tuple[float, float] | None = None,
    gap: float = 0.0,
    frame: float = 0.0,
) -> Grid:
    """The sheet orientation and grid that fit the most cards inside the printable area.

    The cards with their bleed stay `margin` inside the paper's edge, with room
    outside them for crop marks at least MARK_MIN long (`marks`); the bleed round the
    block may shrink to MIN_OUTER_BLEED where that keeps a row or column. Cards keep
    their own bleed (gutter 2 x bleed) when that fits as many cards as sharing cut lines
    does, or always with `own_bleed` (tokens: their bleed never shrinks); otherwise
    neighbours share cut lines. With `fold_gap` the fronts take one half of the page and
    their backs the other (the fold across the page's longer side, or whichever fits
    more). When nothing fits with room for the marks, the marks get what is left.
    `corners`: mm from the page's corners kept clear (a cutting machine's registration
    marks): the block stays that far from the top and bottom edges, or from the sides.
    `area`: the cards with their bleed fit this [width, height], centred on the page.
    `gap` (mm, > 0): neighbouring trims this far apart (cards that keep their own bleed: at least
    2 x bleed), the bleed round the block whole; 0 chooses as above.
    `frame`: mm from every edge the cards with their bleed keep (inside a cutting machine's marks).
    A fold sheet's fronts and backs are at least 2 x (bleed + FOLD_CLEAR) apart, whatever `fold_gap` asks.
    """
    folds = ("vertical", "horizontal") if fold_gap is not None else ("",)
    if fold_gap is not None:
        fold_gap = max(fold_gap, 2 * (bleed + FOLD_CLEAR))
    for room in (MARK_GAP + MARK_MIN, 0.0) if marks else (0.0,):
        best: Grid | None = None
        best_key: tuple = ()
        if gap > 0:
            gutters: tuple[float, ...] = (max(gap, 2 * bleed) if own_bleed else gap,)
        else:
            gutters = (2 * bleed,) if own_bleed else (2 * bleed, 0.0)
        clear = [(0.0, 0.0)] if corners <= 0 else [(corners, 0.0), (0.0, corners)]
        for page, fold, gutter, (cx, cy) in (
            (p, f, g, c)
            for p in (paper.portrait, paper.landscape)
            for f in folds
            for g in gutters
            for c in clear
        ):
            grid = _fit(
                Grid(page, card, 0, 0, bleed, gutter, -1.0, margin, fold, fold_gap or 0.0),
                (max(margin + room, frame, cx), max(margin + room, frame, cy)),
                shrink=gutter == 0,
                area=area,
            )
            if grid is None:
                continue
            key = (grid.per_page, grid.outer_bleed, gutter > 0 or bleed == 0, page.h >= page.w)
            if best is None or key > best_key:
                best, best_key = grid, key
        if best is not None:
            return best
    raise ValueError(
        f"a {card.label()} card with {bleed:g} mm bleed does not fit on {paper.label()} paper "
        f"inside a {margin:g} mm margin" + (" with its back beside it" if fold_gap is not None else "")
    )


def _fit(
    shape: Grid, edges: tuple[float, float], shrink: bool, area: tuple[float, float] | None = None
) -> Grid | None:
    """`shape` with as many columns and rows as fit `edges` (x, y) mm inside the page (the fold's gap between
    the halves) and inside `area`, and its outer bleed: the most up to the bleed that fits, down to
    MIN_OUTER_BLEED when `shrink`."""
    page, card, gutter, bleed = shape.page, shape.card, shape.gutter, shape.bleed
    ex, ey = edges
    least = min(bleed, MIN_OUTER_BLEED) if shrink else bleed
    width, height = page.w - 2 * (ex + least), page.h - 2 * (ey + least)
    if shape.fold == "vertical":  # two blocks side by side, fold_gap apart (their bleed shares the gap)
        width = (page.w - shape.fold_gap) / 2 - ex - least
    elif shape.fold == "horizontal":
        height = (page.h - shape.fold_gap) / 2 - ey - least
    if area is not None:
        width, height = min(width, area[0] - 2 * least), min(height, area[1] - 2 * least)
    cols = int((width + gutter + 1e-9) // (card.w + gutter))
    rows = int((height + gutter + 1e-9) // (card.h + gutter))
    if cols < 1 or rows < 1:
        return None
    grid = Grid(page, card, cols, rows, bleed, gutter, bleed, shape.margin, shape.fold, shape.fold_gap)
    left, bottom, right, top = grid.span()
    room = min(min(left, page.w - right) - ex, min(bottom, page.h - top) - ey)
    if area is not None:
        room = min(room, (area[0] - (right - left)) / 2, (area[1] - (top - bottom)) / 2)
    return Grid(
        page,
        card,
        cols,
        rows,
        bleed,
        gutter,
        max(least, min(bleed, room)),
        shape.margin,
        shape.fold,
        shape.fold_gap,
    )
