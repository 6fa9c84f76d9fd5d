"""Boards and play mats: drawn from their database description, tiled when bigger than the paper.

The board is drawn once as a PDF form XObject in board millimetres; each page
places it translated and clipped. A board that fits the (board) paper prints
whole on one page; a larger one is split into equal tiles that overlap by
OVERLAP mm, with alignment crosses in the overlaps, a dashed trim line, the
tile's name ("B1" = column B, row 1) and a small assembly map on every page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.boardspec import BoardSpec
from pnp.data.format.colours import darken, on
from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.draw.context import BLACK, WHITE, CardContext, color, scale_bar
from pnp.draw.faces import form_name
from pnp.draw.pdf import canvas
from pnp.geometry.imposition import Tile, TilePlan, tile_plan
from pnp.geometry.sizes import Size, pt
from pnp.output.board_art import draw_board
from pnp.output.steps import BuildOptions, Output, Step
from pnp.resolve.fonts import Fonts

MARGIN = 6.0  # mm of paper left unprinted on every edge
OVERLAP = 10.0  # mm shared by neighbouring tiles
FOOTER = 10.0  # mm strip at the bottom of each sheet: tile name, assembly map, scale bar


def board_paper(options: BuildOptions) -> Size:
    """The paper boards print on: --board-paper when given, else --paper."""
    return options.board_paper or options.sheets.paper


def plan_for(spec: BoardSpec, paper: Size) -> TilePlan:
    return tile_plan(spec.w, spec.h, paper.w, paper.h, MARGIN, OVERLAP, FOOTER)


def board_step(game: Game, comp: Component, options: BuildOptions) -> Step:
    """Build step for one board component: `<game>/<component>.pdf`, manifest kind "board"."""
    spec = board_of(game, comp)
    paper = board_paper(options)
    plan = plan_for(spec, paper)
    rel = f"{game.slug}/{comp.key}.pdf"

    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        pages = write_board(path, game, comp, spec, plan, paper, fonts, tick)
        return Output(rel, game.tag, comp.key, "board", pages)

    return Step(f"{game.tag} {comp.name}", len(plan.tiles), run)


def write_board(
    path: Path,
    game: Game,
    comp: Component,
    spec: BoardSpec,
    plan: TilePlan,
    paper: Size,
    fonts: Fonts,
    tick: Callable[[], None] = lambda: None,
) -> int:
    page = paper.landscape if plan.landscape else paper.portrait
    c = canvas(path, f"{game.game.name}: {comp.name}", (pt(page.w), pt(page.h)), fonts.name("body"))
    form = form_name(f"Board_{comp.key}".replace(" ", ""))
    c.beginForm(form, 0, 0, pt(spec.w), pt(spec.h))
    draw_board(c, game, spec, fonts, comp)
    c.endForm()
    if not plan.whole:  # the assembly map's grid, drawn once; each page fills in its own tile
        c.beginForm(f"{form}_map")
        _assembly_grid(
            CardContext(c, pt(page.w), pt(page.h), 0.0, fonts, game.style),
            plan,
            pt(page.w - MARGIN),
            pt(MARGIN),
            color(spec.color or game.style.accent),
        )
        c.endForm()
    for tile in plan.tiles:
        _tile_page(c, game, comp, spec, plan, tile, page, form, fonts)
        tick()
    c.save()
    return len(plan.tiles)


# -- tiles -----------------------------------------------------------------------------------


def tile_origin(plan: TilePlan, tile: Tile) -> tuple[float, float]:
    """Lower-left corner (mm on the page) where a tile's piece of board is printed."""
    return (MARGIN + (plan.area_w - tile.w) / 2, MARGIN + FOOTER + (plan.area_h - tile.h) / 2)


def cross_points(plan: TilePlan) -> list[tuple[float, float]]:
    """Alignment crosses (board mm, origin lower-left): in the middle of every overlap strip."""
    points = []
    xs, ys = plan.overlaps()
    rows = [t for t in plan.tiles if t.col == 0]
    cols = [t for t in plan.tiles if t.row == 0]
    for x0, x1 in xs:
        for t in rows:
            for f in (0.25, 0.75):
                points.append(((x0 + x1) / 2, t.y + t.h * f))
    for y0, y1 in ys:
        for t in cols:
            for f in (0.25, 0.75):
                points.append((t.x + t.w * f, (y0 + y1) / 2))
    return points


def _tile_page(
    c: Canvas,
    game: Game,
    comp: Component,
    spec: BoardSpec,
    plan: TilePlan,
    tile: Tile,
    page: Size,
    form: str,
    fonts: Fonts,
) -> None:
    ox, oy = tile_origin(plan, tile)
    c.saveState()
    p = c.beginPath()
    p.rect(pt(ox), pt(oy), pt(tile.w), pt(tile.h))
    c.clipPath(p, stroke=0, fill=0)
    c.translate(pt(ox - tile.x), pt(oy - tile.y))
    c.doForm(form)
    if not plan.whole:
        reach = 5.0  # mm: a cross just outside the tile still shows its arm
        for x, y in cross_points(plan):
            if (
                tile.x - reach <= x <= tile.x + tile.w + reach
                and tile.y - reach <= y <= tile.y + tile.h + reach
            ):
                _cross(c, pt(x), pt(y))
        _trim_lines(c, plan, tile)
    c.restoreState()
    _footer(c, game, comp, spec, plan, tile, page, fonts, f"{form}_map")
    c.showPage()


def _cross(c: Canvas, x: float, y: float) -> None:
    """A registration cross: white halo under fine black lines, visible on any colour."""
    r, arm = pt(2.2), pt(4.5)
    for ink, width in ((WHITE, 1.6), (BLACK, 0.4)):
        c.setStrokeColor(ink)
        c.setLineWidth(width)
        c.circle(x, y, r, stroke=1, fill=0)
        c.line(x - arm, y, x + arm, y)
        c.line(x, y - arm, x, y + arm)


def _trim_lines(c: Canvas, plan: TilePlan, tile: Tile) -> None:
    """Dashed lines through the crosses on the edges this tile laps over its neighbours."""
    c.setLineWidth(0.5)
    c.setStrokeColor(BLACK)
    c.setDash(3, 2)
    half = plan.overlap / 2
    if tile.col > 0:
        x = pt(tile.x + half)
        c.line(x, pt(tile.y), x, pt(tile.y + tile.h))
    if tile.row > 0:
        y = pt(tile.y + tile.h - half)
        c.line(pt(tile.x), y, pt(tile.x + tile.w), y)
    c.setDash()


def _footer(
    c: Canvas,
    game: Game,
    comp: Component,
    spec: BoardSpec,
    plan: TilePlan,
    tile: Tile,
    page: Size,
    fonts: Fonts,
    map_form: str,
) -> None:
    ctx = CardContext(c, pt(page.w), pt(page.h), 0.0, fonts, game.style)
    theme = color(spec.color or game.style.accent)
    ink = color("#333333")
    base = pt(MARGIN)
    x = pt(MARGIN)
    right = pt(page.w - MARGIN)
    map_w = 0.0
    if not plan.whole:
        ctx.text(x, base + pt(3), tile.label, "display", 18, darken(theme, 0.2))
        x += pt(16)
        c.doForm(map_form)
        map_w = _assembly_tile(ctx, plan, tile, right, base, theme)
    bar_x = right - map_w - pt(62)
    scale_bar(ctx.c, bar_x, base + pt(2.2), ctx.fonts, game.say("scale_bar"))
    room = bar_x - x - pt(4)
    title = f"{game.game.name} · {comp.name}"
    if plan.whole:
        detail = game.say("board_whole", w=f"{spec.w:g}", h=f"{spec.h:g}")
    else:
        detail = game.say(
            "board_tile",
            tile=tile.label,
            tiles=len(plan.tiles),
            cols=plan.cols,
            rows=plan.rows,
            overlap=f"{plan.overlap:g}",
        )
    ctx.text(x, base + pt(6), title, "bold", 8, ink, max_width=room, min_size=5)
    ctx.text(x, base + pt(2), detail, "body", 6.2, ink, max_width=room, min_size=4.5)


def _map_cells(plan: TilePlan, right: float, base: float) -> tuple[float, float, float, float]:
    """The assembly map's cell width and height, left edge and top (pt)."""
    cell_h = min(pt(3.6), (pt(FOOTER) - pt(2)) / plan.rows)
    cell_w = cell_h * 1.45
    return cell_w, cell_h, right - cell_w * plan.cols, base + pt(1) + cell_h * plan.rows


def _assembly_grid(ctx: CardContext, plan: TilePlan, right: float, base: float, theme: Color) -> None:
    """The small grid of every tile, each with its name, in white (the page's own tile is filled over it)."""
    for t in plan.tiles:
        _map_cell(ctx, plan, t, right, base, theme, False)


def _assembly_tile(
    ctx: CardContext, plan: TilePlan, tile: Tile, right: float, base: float, theme: Color
) -> float:
    """This page's tile filled in on the assembly map; returns the map's width (pt)."""
    _map_cell(ctx, plan, tile, right, base, theme, True)
    return _map_cells(plan, right, base)[0] * plan.cols


def _map_cell(
    ctx: CardContext, plan: TilePlan, t: Tile, right: float, base: float, theme: Color, here: bool
) -> None:
    cell_w, cell_h, x0, top = _map_cells(plan, right, base)
    cx, cy = x0 + t.col * cell_w, top - (t.row + 1) * cell_h
    c = ctx.c
    c.setFillColor(theme if here else WHITE)
    c.setStrokeColor(darken(theme, 0.3))
    c.setLineWidth(0.4)
    c.rect(cx, cy, cell_w, cell_h, stroke=1, fill=1)
    ctx.text(
        cx + cell_w / 2,
        cy + cell_h * 0.28,
        t.label,
        "condensed",
        min(5.5, cell_h * 0.55 / pt(1) * 2.2),
        on(theme) if here else darken(theme, 0.3),
        align="center",
        max_width=cell_w * 0.9,
        min_size=3.5,
    )
