"""Card sheets: impose a component's cards on pages with bleed, crop marks and duplex backs."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Component, Game
from pnp.draw.context import BLACK, color, scale_bar
from pnp.draw.faces import FormCache, Printed, card_size_of, outline
from pnp.draw.fonts import Fonts
from pnp.draw.pdf import place_form
from pnp.geometry.sizes import MARK_GAP, MARK_LENGTH, Grid, Size, choose_grid, pt

CropMode = str  # "edge" | "corner" | "full" | "off"
MARK_WIDTH = 0.3  # points


@dataclass(frozen=True)
class SheetOptions:
    """How a person wants sheets printed."""

    paper: Size
    duplex: str = "long"          # long | short | off
    bleed: float = 3.0            # mm
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, applied to backs pages
    crop_marks: CropMode = "edge"


@dataclass(frozen=True)
class Placement:
    """A card on a page: its position index and what is printed there."""

    index: int
    card: Printed


def plan(cards: list[Printed], grid: Grid) -> list[list[Placement]]:
    """Cards (expanded by copies) split into pages of the grid, in order.

    Each marked set (a player's money, a second deck) starts on a fresh sheet,
    so a set can be printed on its own coloured card stock.
    """
    n = grid.per_page
    pages: list[list[Placement]] = []
    for _, group in itertools.groupby(cards, key=lambda p: p.set_index):
        flat = [p for p in group for _ in range(p.copies)]
        pages += [[Placement(i, p) for i, p in enumerate(flat[start:start + n])] for start in range(0, len(flat), n)]
    return pages


def deck_grid(comp: Component, options: SheetOptions) -> Grid:
    """Cards share cut lines where that fits more; tokens never do (each is cut along its own outline)."""
    return choose_grid(options.paper, card_size_of(comp), options.bleed, own_bleed=comp.kind == "tokens")


def draw_deck(c: Canvas, game: Game, comp: Component, cards: list[Printed], options: SheetOptions,
              fonts: Fonts, forms: FormCache, tick: Callable[[], None] = lambda: None,
              only: range | None = None) -> int:
    """Draw every sheet of a component (or the sheets in `only`, 0-based); returns the pages written."""
    grid = deck_grid(comp, options)
    sheets = plan(cards, grid)
    pages = 0
    for number, placements in enumerate(sheets, 1):
        if only is not None and number - 1 not in only:
            continue
        label = f"{game.game.name} · {comp.name} · sheet {number} of {len(sheets)}"
        _page(c, grid, fonts, game, comp, placements, forms, options, label, back=False)
        pages += 1
        if options.duplex != "off" and not comp.single_sided:
            _page(c, grid, fonts, game, comp, placements, forms, options, label, back=True)
            pages += 1
        tick()
    return pages


def _page(c: Canvas, grid: Grid, fonts: Fonts, game: Game, comp: Component, placements: list[Placement],
          forms: FormCache, options: SheetOptions, label: str, back: bool) -> None:
    c.setPageSize((pt(grid.page.w), pt(grid.page.h)))
    offset = options.back_offset if back else (0.0, 0.0)
    for pl in placements:
        slot = grid.back_slot(pl.index, options.duplex, offset) if back else grid.slot(pl.index)
        name = forms.back(comp, pl.card) if back else forms.face(comp, pl.card)
        place_form(c, name, pt(slot.x), pt(slot.y),
                   clip=lambda: _clip_to_own_area(c, grid, slot.col, slot.row))
    if not back and comp.kind == "tokens":
        cut_lines(c, grid, comp.shape, [pl.index for pl in placements])
    elif not back:
        crop_marks(c, grid, options.crop_marks)
    side = "backs" if back else "fronts"
    shape = f"{comp.shape} " if comp.shape != "rect" else ""
    _footer(c, grid, fonts, f"{label} · {side} · {shape}{card_size_of(comp).label()}", offset,
            free=comp.kind == "tokens")
    _target(c, grid, back, options.duplex, offset)
    c.showPage()


def cut_lines(c: Canvas, grid: Grid, shape: str, indexes: list[int]) -> None:
    """Each token's outline on the fronts, a hairline to cut or punch along."""
    c.saveState()
    c.setStrokeColor(BLACK)
    c.setLineWidth(MARK_WIDTH)
    for i in indexes:
        slot = grid.slot(i)
        c.saveState()
        c.translate(pt(slot.x), pt(slot.y))
        c.drawPath(outline(c, shape, pt(grid.card.w), pt(grid.card.h)), stroke=1, fill=0)
        c.restoreState()
    c.restoreState()


def _clip_to_own_area(c: Canvas, grid: Grid, col: int, row: int) -> None:
    """Keep a card's bleed off its neighbours when they share cut lines."""
    b = pt(grid.bleed)
    w, h = pt(grid.card.w), pt(grid.card.h)
    if grid.gutter > 0 or grid.bleed == 0:
        return
    left = b if col == 0 else 0
    right = b if col == grid.cols - 1 else 0
    top = b if row == 0 else 0
    bottom = b if row == grid.rows - 1 else 0
    path = c.beginPath()
    path.rect(-left, -bottom, w + left + right, h + bottom + top)
    c.clipPath(path, stroke=0, fill=0)


def mark_segments(grid: Grid, mode: CropMode) -> Iterator[tuple[float, float, float, float]]:
    """Crop mark line segments (x0, y0, x1, y1 in mm), all outside every card face.

    edge: at every cut line, from just outside the bleed to the paper edge.
    corner: the same lines, MARK_LENGTH long.
    full: edge marks plus cut guides across the gutters between cards.
    """
    if mode == "off":
        return
    xs, ys = grid.cut_lines()
    x_lo, x_hi = grid.left - grid.bleed - MARK_GAP, grid.left + grid.block_w + grid.bleed + MARK_GAP
    y_lo, y_hi = grid.bottom - grid.bleed - MARK_GAP, grid.bottom + grid.block_h + grid.bleed + MARK_GAP
    reach_x = 0.0 if mode in ("edge", "full") else max(0.0, x_lo - MARK_LENGTH)
    reach_y = 0.0 if mode in ("edge", "full") else max(0.0, y_lo - MARK_LENGTH)
    far_x = grid.page.w if mode in ("edge", "full") else min(grid.page.w, x_hi + MARK_LENGTH)
    far_y = grid.page.h if mode in ("edge", "full") else min(grid.page.h, y_hi + MARK_LENGTH)
    for x in xs:
        yield (x, reach_y, x, y_lo)
        yield (x, y_hi, x, far_y)
    for y in ys:
        yield (reach_x, y, x_lo, y)
        yield (x_hi, y, far_x, y)
    if mode == "full" and grid.gutter > 0:
        for r in range(grid.rows - 1):  # horizontal gutters: short vertical guides at each x cut
            y0 = grid.bottom + (r + 1) * grid.card.h + r * grid.gutter
            for x in xs:
                yield (x, y0, x, y0 + grid.gutter)
        for col in range(grid.cols - 1):
            x0 = grid.left + (col + 1) * grid.card.w + col * grid.gutter
            for y in ys:
                yield (x0, y, x0 + grid.gutter, y)


def crop_marks(c: Canvas, grid: Grid, mode: CropMode) -> None:
    c.setStrokeColor(BLACK)
    c.setLineWidth(MARK_WIDTH)
    for x0, y0, x1, y1 in mark_segments(grid, mode):
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))


def _footer(c: Canvas, grid: Grid, fonts: Fonts, text: str, offset: tuple[float, float], free: bool = False) -> None:
    """Sheet label and a 50 mm scale bar in the wider margin, between the crop marks (`free`: a sheet
    without crop marks, such as tokens, uses the margin's two halves)."""
    xs, ys = grid.cut_lines()
    if free:
        xs, ys = ([a, (a + b) / 2, b] for a, b in ((xs[0], xs[-1]), (ys[0], ys[-1])))
    horizontal = grid.margin_y >= 7.0 or grid.margin_y >= grid.margin_x
    c.saveState()
    c.translate(pt(offset[0]), pt(offset[1]))
    if horizontal:
        gaps = list(zip(xs, xs[1:]))
        depth = grid.margin_y
    else:
        # Run the footer up the left margin: rotate so "x" runs along the page's y axis.
        c.rotate(90)
        c.translate(0, -pt(grid.margin_x))
        gaps = list(zip(ys, ys[1:]))
        depth = grid.margin_x
    gaps = [g for g in gaps if g[1] - g[0] > 20]
    baseline = max(1.8, depth / 2 - 1.0)  # mm from the paper edge to the text baseline
    font = fonts.name("body")
    size = 6.0
    bar_gap = max(gaps, key=lambda g: g[1] - g[0])
    text_gaps = [g for g in gaps if g is not bar_gap] or [bar_gap]
    if bar_gap[1] - bar_gap[0] >= 58:
        scale_bar(c, pt((bar_gap[0] + bar_gap[1]) / 2 - 28), pt(baseline), fonts)
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
    return [parts[i:i + size] for i in range(0, len(parts), size)]


def target_center(grid: Grid) -> tuple[float, float]:
    """Registration target on the fronts page: the top-left paper corner outside the card block."""
    return grid.margin_x / 2, grid.page.h - grid.margin_y / 2


def _target(c: Canvas, grid: Grid, back: bool, flip: str, offset: tuple[float, float]) -> None:
    """Crosshair and rings; the backs page's copy sits behind the front's and carries a mm scale."""
    x, y = target_center(grid)
    if back:
        mirror_cols = (flip == "long") == (grid.page.h >= grid.page.w)
        x, y = (grid.page.w - x, y) if mirror_cols else (x, grid.page.h - y)
        x, y = x + offset[0], y + offset[1]
    r = max(1.2, min(grid.margin_x, grid.margin_y, 9.0) / 2 - 0.8)
    c.setStrokeColor(BLACK)
    c.setLineWidth(0.25)
    c.circle(pt(x), pt(y), pt(r), stroke=1, fill=0)
    c.circle(pt(x), pt(y), pt(r / 2), stroke=1, fill=0)
    c.line(pt(x - r - 0.6), pt(y), pt(x + r + 0.6), pt(y))
    c.line(pt(x), pt(y - r - 0.6), pt(x), pt(y + r + 0.6))
    if back:
        for i in range(-int(r), int(r) + 1):  # 1 mm ticks to read a misregistration off
            tick = 0.7 if i % 5 == 0 else 0.4
            c.line(pt(x + i), pt(y - tick), pt(x + i), pt(y + tick))
            c.line(pt(x - tick), pt(y + i), pt(x + tick), pt(y + i))
