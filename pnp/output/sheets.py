"""Card sheets: impose a component's cards on pages with bleed, crop marks and their backs (duplex or folded)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Component, Game
from pnp.data.format.sheetspec import SheetSpec
from pnp.draw.context import BLACK
from pnp.draw.faces import FormCache, card_size_of, outline
from pnp.draw.pdf import place_form
from pnp.geometry.grid import Grid, Slot, choose_grid
from pnp.geometry.sizes import Size, pt
from pnp.output.cut_files import area_frame, corner_guides
from pnp.output.options import OPTION
from pnp.output.sheet_marks import (
    MARK_WIDTH,
    CropMode,
    crop_marks,
    fold_line,
    footer,
    registration_marks,
    target,
    target_spot,
)
from pnp.resolve.cards import Printed
from pnp.resolve.fonts import Fonts


@dataclass(frozen=True)
class SheetOptions:
    """How a person wants sheets printed."""

    paper: Size
    duplex: str = OPTION["duplex"].default  # long | short | off
    bleed: float = OPTION["bleed"].default  # mm
    back_offset: tuple[float, float] = OPTION["back_offset"].default  # mm, applied to backs pages
    crop_marks: CropMode = OPTION["crop_marks"].default
    margin: float = OPTION["margin"].default  # mm of paper edge left blank (a home printer cannot print it)
    sheet: SheetSpec | None = None  # the sheet (pnp/sheets/, sheets/); None: the duplex sheet
    corner_radius: float = OPTION["corner_radius"].default  # mm: corner guides on the fronts and cut files
    cut_files: bool = OPTION["cut_files"].default  # write <deck>-cut.svg and <deck>-cut.dxf beside the PDF
    gap: float = OPTION["gap"].default  # mm between neighbouring cards; 0: shared cut lines or own bleed
    crop_length: float | None = OPTION[
        "crop_length"
    ].default  # mm: every crop mark this long; None: as the mode

    @property
    def backs(self) -> str:
        """Where backs go: duplex (the next page), fold (beside the fronts) or none."""
        backs = self.sheet.backs if self.sheet else "duplex"
        return "none" if backs == "duplex" and self.duplex == "off" else backs

    @property
    def marks(self) -> CropMode:
        return "off" if self.sheet is not None and self.sheet.marks == "none" else self.crop_marks

    @property
    def target(self) -> bool:
        """A registration target on pages whose backs follow on the next page."""
        return self.sheet is None or self.sheet.target


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
        pages += [
            [Placement(i, p) for i, p in enumerate(flat[start : start + n])]
            for start in range(0, len(flat), n)
        ]
    return pages


def deck_grid(comp: Component, options: SheetOptions) -> Grid:
    """Cards share cut lines where that fits more; tokens never do (each is cut along its own outline).
    A fold sheet keeps each card's back beside it (not for tokens, which have none)."""
    spec = options.sheet
    fold = spec.fold_gap if spec and options.backs == "fold" and not comp.single_sided else None
    # crop marks, or a token sheet's registration target, need a strip round the block
    marks = options.marks != "off" if comp.kind != "tokens" else _has_target(comp, options)
    size = card_size_of(comp)
    corners = spec.registration.zone if spec and spec.registration else 0.0
    frame = spec.registration.frame if spec and spec.registration else 0.0
    area = spec.print_area if spec else None
    if fold is not None:
        try:
            return choose_grid(
                options.paper,
                size,
                options.bleed,
                options.margin,
                marks=marks,
                fold_gap=fold,
                corners=corners,
                area=area,
                gap=options.gap,
                frame=frame,
            )
        except ValueError:  # too large to have its back beside it: backs on the next page, as duplex
            pass
    return choose_grid(
        options.paper,
        size,
        options.bleed,
        options.margin,
        own_bleed=comp.kind == "tokens",
        marks=marks,
        corners=corners,
        area=area,
        gap=options.gap,
        frame=frame,
    )


def _has_target(comp: Component, options: SheetOptions) -> bool:
    """Whether a component's duplex sheets carry the registration target (double-sided, backs printed)."""
    return options.target and not (comp.single_sided or options.backs == "none")


def draw_deck(
    c: Canvas,
    game: Game,
    comp: Component,
    cards: list[Printed],
    options: SheetOptions,
    fonts: Fonts,
    forms: FormCache,
    tick: Callable[[], None] = lambda: None,
    only: range | None = None,
) -> int:
    """Draw every sheet of a component (or the sheets in `only`, 0-based); returns the pages written."""
    grid = deck_grid(comp, options)
    sheets = plan(cards, grid)
    pages = 0
    for number, placements in enumerate(sheets, 1):
        if only is not None and number - 1 not in only:
            continue
        label = f"{game.game.name} · {comp.name} · {game.say('sheet', number=number, total=len(sheets))}"
        sides: tuple[str, ...] = ("fronts",)
        if grid.fold:
            sides = ("fronts and backs",)
        elif not comp.single_sided and options.backs != "none":  # duplex, or a card too large to fold
            sides = ("fronts", "backs")
        for side in sides:
            _page(c, grid, fonts, game, comp, placements, forms, options, label, side)
            pages += 1
        tick()
    return pages


def _page(
    c: Canvas,
    grid: Grid,
    fonts: Fonts,
    game: Game,
    comp: Component,
    placements: list[Placement],
    forms: FormCache,
    options: SheetOptions,
    label: str,
    side: str,
) -> None:
    """One page: fronts, backs (a duplex sheet's second page) or both (a fold sheet)."""
    c.setPageSize((pt(grid.page.w), pt(grid.page.h)))
    back = side == "backs"
    offset = options.back_offset if back else (0.0, 0.0)
    if side != "backs":
        _cards(c, grid, [(grid.slot(pl.index), forms.face(comp, pl.card)) for pl in placements])
        if options.corner_radius > 0 and comp.kind != "tokens":
            corner_guides(
                c,
                grid,
                options.corner_radius,
                [(grid.slot(pl.index).x, grid.slot(pl.index).y) for pl in placements],
            )
    if side != "fronts":
        _cards(
            c,
            grid,
            [
                (grid.back_slot(pl.index, options.duplex, offset), forms.back(comp, pl.card))
                for pl in placements
            ],
        )
    if not back and comp.kind == "tokens":
        cut_lines(c, grid, comp.shape, [pl.index for pl in placements])
    elif not back:
        crop_marks(c, grid, options.marks, [pl.index for pl in placements], options.crop_length)
    if grid.fold:
        fold_line(c, grid)
    shape = f"{comp.shape} " if comp.shape != "rect" else ""
    what = game.say("fold" if grid.fold else side)
    if options.backs == "fold" and not grid.fold and not comp.single_sided:
        what += f" ({game.say('too_large_to_fold')})"
    reg = options.sheet.registration if options.sheet else None
    area = options.sheet.print_area if options.sheet else None
    spot = None
    if side in ("fronts", "backs") and _has_target(comp, options):
        spot = target_spot(grid, options.duplex, options.back_offset)
    footer(
        c,
        grid,
        fonts,
        f"{label} · {what} · {shape}{card_size_of(comp).label()}",
        free=comp.kind == "tokens",
        bar_top=bool(grid.fold),
        clear=reg.zone if reg else 0.0,
        bar_label=game.say("scale_bar"),
        avoid=spot.box(back) if spot else None,
        below=_frame_box(grid, area) if area else None,
    )
    if reg is not None and not back:
        registration_marks(c, grid, reg)
    if spot is not None:
        target(c, spot, back)
    c.showPage()


def _frame_box(grid: Grid, area: tuple[float, float]) -> tuple[float, float, float, float]:
    """A print-then-cut picture's frame on the page (x0, y0, x1, y1 mm)."""
    x, y, w, h = area_frame(grid, area)
    return x, y, x + w, y + h


def _cards(c: Canvas, grid: Grid, placed: list[tuple[Slot, str]]) -> None:
    """Place each form at its slot (turned where the slot says), its bleed kept off its neighbours."""
    taken = {(slot.col, slot.row) for slot, _ in placed}
    for slot, name in placed:
        if slot.turned:  # rotated 180 degrees about the card's centre: its corner goes to the far corner
            x, y, k = pt(slot.x + grid.card.w), pt(slot.y + grid.card.h), -1.0
        else:
            x, y, k = pt(slot.x), pt(slot.y), 1.0
        place_form(c, name, x, y, k, k, clip=partial(_clip_to_own_area, c, grid, slot, taken))


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


def _clip_to_own_area(c: Canvas, grid: Grid, slot: Slot, taken: set[tuple[int, int]]) -> None:
    """Keep a card's bleed off its neighbours when they share cut lines, or stand closer than two bleeds
    (`--gap`): round the block the outer bleed; towards a neighbour half the gap between them (none on
    a shared cut line), and where cards share cut lines the whole bleed towards a slot left empty on this
    page; in the form's own directions: a turned card's left is the page's right."""
    if grid.gutter >= 2 * grid.bleed:  # each card keeps its own bleed (never shrunk round the block)
        return
    b, outer, half = pt(grid.bleed), pt(grid.outer_bleed), pt(grid.gutter / 2)
    w, h = pt(grid.card.w), pt(grid.card.h)

    def room(dc: int, dr: int) -> float:
        col, row = slot.col + dc, slot.row + dr
        if not (0 <= col < grid.cols and 0 <= row < grid.rows):
            return outer
        return half if (col, row) in taken or grid.gutter > 0 else b

    left, right, top, bottom = room(-1, 0), room(1, 0), room(0, -1), room(0, 1)
    if slot.turned:
        left, right, top, bottom = right, left, bottom, top
    path = c.beginPath()
    path.rect(-left, -bottom, w + left + right, h + bottom + top)
    c.clipPath(path, stroke=0, fill=0)
