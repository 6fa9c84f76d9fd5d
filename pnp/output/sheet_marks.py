"""What a card sheet prints round the cards: crop marks, the fold line of a fold sheet, the
registration target of a duplex sheet, and the footer (label and scale bar); all inside the
printable area, never in the margin a home printer cannot print."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.sheetspec import Registration
from pnp.draw.context import BLACK, color, scale_bar
from pnp.geometry.grid import MARK_GAP, MARK_LENGTH, Grid
from pnp.geometry.sizes import pt
from pnp.resolve.fonts import Fonts

CropMode = str  # "edge" | "corner" | "full" | "off"
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the page's lower left
MARK_WIDTH = 0.3  # points
FOLD_DASH = (3, 2)  # points on, off


def mark_segments(
    grid: Grid, mode: CropMode, indexes: Iterable[int] | None = None, length: float | None = None
) -> Iterator[tuple[float, float, float, float]]:
    """Crop mark line segments (x0, y0, x1, y1 in mm), all outside every card face, at the cut lines of
    the positions in `indexes` (those a page fills; every position when None).

    edge: at every cut line, from just outside the bleed to the paper edge.
    corner: the same lines, MARK_LENGTH long.
    full: edge marks plus cut guides across the gutters between cards.
    `length` (mm): every mark round the block this long instead (never into the margin).
    """
    if mode == "off":
        return
    filled = sorted(set(range(grid.per_page) if indexes is None else indexes))
    xs, ys = grid.cut_lines(filled)
    o, m = grid.outer_bleed, grid.margin
    left, bottom, right, top = grid.span()
    x_lo, x_hi = left - o - MARK_GAP, right + o + MARK_GAP
    y_lo, y_hi = bottom - o - MARK_GAP, top + o + MARK_GAP
    edge = mode in ("edge", "full") and length is None
    n = MARK_LENGTH if length is None else length
    reach_x = m if edge else max(m, x_lo - n)  # never into the margin the printer cannot print
    reach_y = m if edge else max(m, y_lo - n)
    far_x = grid.page.w - m if edge else min(grid.page.w - m, x_hi + n)
    far_y = grid.page.h - m if edge else min(grid.page.h - m, y_hi + n)
    for x in xs:
        if reach_y < y_lo:
            yield (x, reach_y, x, y_lo)
        if y_hi < far_y:
            yield (x, y_hi, x, far_y)
    for y in ys:
        if reach_x < x_lo:
            yield (reach_x, y, x_lo, y)
        if x_hi < far_x:
            yield (x_hi, y, far_x, y)
    if mode == "full" and grid.gutter > 0 and not grid.fold:
        slots = [grid.slot(i) for i in filled]
        w, h = grid.card.w, grid.card.h
        for row in range(
            grid.rows - 1
        ):  # the gutter below each row: short vertical guides at its cards' cuts
            y0 = grid.slot(row * grid.cols).y - grid.gutter
            near = {v for s in slots if s.row in (row, row + 1) for v in (s.x, s.x + w)}
            for x in sorted(near):
                yield (x, y0, x, y0 + grid.gutter)
        for col in range(grid.cols - 1):  # the gutter right of each column
            x0 = grid.slot(col).x + w
            near = {v for s in slots if s.col in (col, col + 1) for v in (s.y, s.y + h)}
            for y in sorted(near):
                yield (x0, y, x0 + grid.gutter, y)


def crop_marks(
    c: Canvas, grid: Grid, mode: CropMode, indexes: Iterable[int] | None = None, length: float | None = None
) -> None:
    """The crop marks of the positions in `indexes` (every position when None), `length` mm long when given."""
    c.setStrokeColor(BLACK)
    c.setLineWidth(MARK_WIDTH)
    for x0, y0, x1, y1 in mark_segments(grid, mode, indexes, length):
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))


def footer(
    c: Canvas,
    grid: Grid,
    fonts: Fonts,
    text: str,
    free: bool = False,
    bar_top: bool = False,
    clear: float = 0.0,
    bar_label: str = "50 mm",
    avoid: Box | None = None,
    below: Box | None = None,
) -> None:
    """Sheet label and a 50 mm scale bar in the wider margin, between the crop marks, where they are on
    every page of the sheet (a backs page's offset moves its cards, never these). `free`: a sheet
    without crop marks, such as tokens, uses the margin's two halves; `bar_top`: the bar goes in the
    strip above the cards, leaving the footer's gaps to the label; `clear`: mm from the corners kept
    free for a cutting machine's registration marks; `avoid`: a box (mm) kept clear, the backs page's
    target; `below`: a box (mm) the footer stays outside of, a print-then-cut picture's frame."""
    xs, ys = grid.cut_lines()
    if free:
        xs, ys = ([a, (a + b) / 2, b] for a, b in ((xs[0], xs[-1]), (ys[0], ys[-1])))
    horizontal = grid.margin_y >= 7.0 or grid.margin_y >= grid.margin_x
    c.saveState()
    if horizontal:
        gaps = list(zip(xs, xs[1:]))
        depth = min(grid.margin_y, below[1]) if below else grid.margin_y
        keep = (avoid[0], avoid[2]) if avoid and avoid[1] < depth else None
    else:
        # Run the footer up the left margin: rotate so "x" runs along the page's y axis.
        depth = min(grid.margin_x, below[0]) if below else grid.margin_x
        c.rotate(90)
        c.translate(0, -pt(depth))
        gaps = list(zip(ys, ys[1:]))
        keep = (avoid[1], avoid[3]) if avoid and avoid[0] < depth else None
    if clear:  # nothing in a marked corner: the footer runs from `clear` in from the left
        gaps = [(max(a, clear), b) for a, b in gaps]
    if keep:  # a gap the box reaches into is left to it (1 mm to spare), whatever an offset moves it by
        gaps = [(a, b) for a, b in gaps if b < keep[0] - 1 or a > keep[1] + 1]
    gaps = [g for g in gaps if g[1] - g[0] > 20]
    if not gaps:
        c.restoreState()
        return
    baseline = max(grid.margin + 1.3, depth / 2 - 1.0)  # mm from the paper edge to the text baseline
    font = fonts.name("body")
    size = 6.0
    bar_gap = max(gaps, key=lambda g: g[1] - g[0])
    text_gaps = [g for g in gaps if g is not bar_gap] or [bar_gap]
    if bar_top and horizontal and bar_gap[1] - bar_gap[0] >= 58:
        top = grid.page.h - grid.span()[3] - grid.outer_bleed
        scale_bar(
            c,
            pt((bar_gap[0] + bar_gap[1]) / 2 - 28),
            pt(grid.page.h - max(grid.margin + 1.3, top / 2) - 0.6),
            fonts,
            bar_label,
        )
        text_gaps = gaps
    elif bar_gap[1] - bar_gap[0] >= 58:
        scale_bar(c, pt((bar_gap[0] + bar_gap[1]) / 2 - 28), pt(baseline), fonts, bar_label)
        if text_gaps == [bar_gap]:
            text_gaps = []
    parts = [t.strip() for t in text.split("·")]
    if text_gaps:
        chunks = _split(parts, len(text_gaps))
        for (g0, g1), chunk in zip(text_gaps, chunks):
            room = g1 - g0 - 3
            line = " · ".join(chunk)
            fonts.check(line, "body")
            s = fonts.fit(line, "body", pt(room), size, 4.5)
            c.setFont(font, s)
            c.setFillColor(color("#333333"))
            c.drawCentredString(pt((g0 + g1) / 2), pt(baseline), line)
    c.restoreState()


def _split(parts: list[str], n: int) -> list[list[str]]:
    """Spread footer parts over n gaps, keeping their order."""
    n = max(1, min(n, len(parts)))
    size = -(-len(parts) // n)
    return [parts[i : i + size] for i in range(0, len(parts), size)]


TARGET_REACH = 0.6  # mm the target's cross runs past its ring


@dataclass(frozen=True)
class TargetSpot:
    """The registration target: its centre on the fronts page, on the backs page, and its ring's radius."""

    front: tuple[float, float]
    back: tuple[float, float]
    radius: float

    def box(self, back: bool) -> tuple[float, float, float, float]:
        """What the target covers on its page (mm): the ring and the cross past it."""
        x, y = self.back if back else self.front
        r = self.radius + TARGET_REACH
        return x - r, y - r, x + r, y + r


def target_spot(
    grid: Grid, flip: str = "long", offset: tuple[float, float] = (0.0, 0.0)
) -> TargetSpot | None:
    """Where the registration target goes: in the strip above the card block, over the middle of the
    first column (clear of the crop marks), and behind it on the backs page, moved by the backs'
    `offset` with their cards. Both copies wholly inside the printable area; None when the strip has
    no room for one."""
    m, w, h = grid.margin, grid.page.w, grid.page.h
    low, high = grid.bottom + grid.block_h + grid.outer_bleed + MARK_GAP, h - m
    x = grid.left + grid.card.w / 2
    mirror_cols = (flip == "long") == (h >= w)
    dx, dy = offset
    # the backs copy, at the front's mirror image moved by the offset, stays in the printable area too
    high = high - max(0.0, dy) if mirror_cols else high + min(0.0, dy)
    y = (low + high) / 2
    back = (w - x + dx, y + dy) if mirror_cols else (x + dx, h - y + dy)
    side = min(back[0] - m, w - m - back[0], x - m, w - m - x)
    r = min((high - low) / 2, side) - TARGET_REACH - 0.2
    r = min(r, grid.card.w / 2 - 1.0, 4.5)
    if r < 0.8:
        return None
    return TargetSpot((x, y), back, r)


def target(c: Canvas, spot: TargetSpot, back: bool) -> None:
    """Crosshair and rings; the backs page's copy sits behind the front's and carries a mm scale."""
    x, y = spot.back if back else spot.front
    r, reach = spot.radius, TARGET_REACH
    c.setStrokeColor(BLACK)
    c.setLineWidth(0.25)
    c.circle(pt(x), pt(y), pt(r), stroke=1, fill=0)
    c.circle(pt(x), pt(y), pt(r / 2), stroke=1, fill=0)
    c.line(pt(x - r - reach), pt(y), pt(x + r + reach), pt(y))
    c.line(pt(x), pt(y - r - reach), pt(x), pt(y + r + reach))
    if back:
        for i in range(-int(r), int(r) + 1):  # 1 mm ticks to read a misregistration off
            tick = 0.7 if i % 5 == 0 else 0.4
            c.line(pt(x + i), pt(y - tick), pt(x + i), pt(y + tick))
            c.line(pt(x - tick), pt(y + i), pt(x + tick), pt(y + i))


def fold_line(c: Canvas, grid: Grid) -> None:
    """A fold sheet's dashed fold line down the middle of the gap between fronts and backs, across the
    whole printable area (the footer says to fold on it and glue the halves back to back)."""
    c.saveState()
    c.setStrokeColor(color("#555555"))
    c.setLineWidth(0.4)
    c.setDash(list(FOLD_DASH), 0)
    m = grid.margin
    if grid.fold == "vertical":
        c.line(pt(grid.page.w / 2), pt(m), pt(grid.page.w / 2), pt(grid.page.h - m))
    else:
        c.line(pt(m), pt(grid.page.h / 2), pt(grid.page.w - m), pt(grid.page.h / 2))
    c.restoreState()


def registration_marks(c: Canvas, grid: Grid, reg: Registration) -> None:
    """A cutting machine's marks (Silhouette Type 1): a filled square `inset` mm in from the top-left
    corner, and L marks `length` long and `thickness` thick at the top-right and bottom-left corners."""
    w, h, i, n, t, q = grid.page.w, grid.page.h, reg.inset, reg.length, reg.thickness, reg.square
    c.saveState()
    c.setFillColor(BLACK)
    for x, y, bw, bh in (
        (i, h - i - q, q, q),  # top left: the square
        (w - i - n, h - i - t, n, t),
        (w - i - t, h - i - n, t, n),  # top right: an L
        (i, i, n, t),
        (i, i, t, n),
    ):  # bottom left: an L
        c.rect(pt(x), pt(y), pt(bw), pt(bh), stroke=0, fill=1)
    c.restoreState()
