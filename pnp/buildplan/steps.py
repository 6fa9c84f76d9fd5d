"""What each kind of component becomes: a step that draws one PDF (or several, for a huge deck)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.adapters import reportlab_save as rls
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.templating.slots import rendered_slots
from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.pdf import canvas
from pnp.geometry.sizes import pt
from pnp.output.checklist import write_checklist
from pnp.output.colour.pdfx import colour_hook, finish_pdfx, whole_page_boxes
from pnp.output.sheets import deck_grid, draw_deck, plan
from pnp.output.steps import BuildOptions, Output, Step
from pnp.resolve.cards import Printed, printed_cards
from pnp.resolve.fonts import Fonts


def deck_output(game: Game, comp: Component, rel: str, pages: int, cards: list[Printed]) -> Output:
    """The manifest entry of a card PDF: size, card count and copies per collation code."""
    copies: dict[str, int] = {}
    for p in cards:
        copies[p.code] = copies.get(p.code, 0) + p.copies
    size = card_size_of(comp)
    return Output(
        rel,
        game.tag,
        comp.key,
        comp.kind if comp.kind in ("reference", "tokens") else "deck",
        pages,
        (size.w, size.h),
        sum(copies.values()),
        dict(sorted(copies.items())),
    )


PART_SHEETS = 120  # sheets per PDF: a deck with more is split into parts (see card_step)


def card_step(game: Game, comp: Component, options: BuildOptions) -> list[Step]:
    """The component's card PDF; a huge deck (over PART_SHEETS sheets) as several PDFs by sheet range.

    ReportLab holds a whole document in memory until it saves, so memory grows
    with the deck; parts of at most PART_SHEETS sheets (`deck-part1.pdf`, ...,
    each recorded in the manifest with its part number and sheet range) bound
    it, and run on separate workers. Sheet labels still count through the deck.
    """
    cards = printed_cards(game, comp, options.counts)
    try:
        grid = deck_grid(comp, options.sheets)
    except ValueError as exc:
        raise InputError([Problem(game.where, comp.line, f"{comp.key}.card_size", str(exc))]) from None
    sheets = plan(cards, grid)
    parts = max(1, -(-len(sheets) // PART_SHEETS))
    rendered = rendered_slots(game, comp) if parts > 1 else None  # once here, not in every part's worker
    steps = []
    for part in range(parts):
        first, last = part * PART_SHEETS, min(len(sheets), (part + 1) * PART_SHEETS)
        rel = f"{game.slug}/{comp.key}.pdf" if parts == 1 else f"{game.slug}/{comp.key}-part{part + 1}.pdf"
        label = comp.name if parts == 1 else f"{comp.name} (part {part + 1} of {parts})"
        steps.append(
            Step(
                f"{game.tag} {label}",
                max(1, last - first),
                _deck_run(
                    game,
                    comp,
                    options,
                    cards,
                    grid,
                    rel,
                    rendered,
                    None if parts == 1 else (part + 1, parts, range(first, last), sheets),
                ),
            )
        )
    return steps


def _deck_run(
    game: Game,
    comp: Component,
    options: BuildOptions,
    cards: list[Printed],
    grid: Any,
    rel: str,
    rendered: Any,
    part: tuple[int, int, range, list] | None,
) -> Callable[[Path, Fonts, Callable[[], None]], Output]:
    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        page = (pt(grid.page.w), pt(grid.page.h))
        c = canvas(
            path, f"{game.game.name}: {comp.name}", page, fonts.name("body"), colour_hook(options.colour)
        )
        c.pnp_ink = options.ink  # pnp's own note, as pnp_font: how the cards' inks are chosen (pnp.draw.inks)
        if options.colour:
            whole_page_boxes(c, *page)
        forms = FormCache(
            c,
            game,
            fonts,
            options.sheets.bleed,
            rendered={comp.key: rendered} if rendered else {},
            max_dpi=options.max_dpi,
        )
        pages = draw_deck(c, game, comp, cards, options.sheets, fonts, forms, tick, part[2] if part else None)
        rls.save(c)  # written as formatted: a deck of full-art cards is never held whole
        if options.colour:
            finish_pdfx(path, options.colour)
        sheet = options.sheets.sheet
        if (options.sheets.cut_files or (sheet and sheet.cut_files)) and (part is None or part[0] == 1):
            write_cut_files(
                stage / game.slug / comp.key,
                grid,
                options.sheets.corner_radius,
                sheet.print_area if sheet else None,
                comp.shape if comp.kind == "tokens" else "rect",
            )
        if sheet and sheet.print_area and sheet.cut_files:
            write_print_images(path, grid, sheet.print_area)
        if part is None:
            return deck_output(game, comp, rel, pages, cards)
        number, count, span, sheets = part
        on_sheets = [
            Printed(pl.card.card, pl.card.code, 1, pl.card.mark, pl.card.set_index)
            for sheet in sheets[span.start : span.stop]
            for pl in sheet
        ]
        out = deck_output(game, comp, rel, pages, on_sheets)
        return dataclasses.replace(out, part=(number, count), sheets=(span.start + 1, span.stop))

    return run


def write_cut_files(
    stem: Path, grid: Any, radius: float, area: tuple[float, float] | None = None, shape: str = "rect"
) -> None:
    """`<deck>-cut.svg` and `<deck>-cut.dxf`, both of the page or both of a print-then-cut `area`: the
    cut outlines of a full fronts page, in the cards' or tokens' shape."""
    from pnp.output.cut_files import dxf, svg  # lazy: only builds that ask for cut files

    stem.with_name(stem.name + "-cut.svg").write_text(svg(grid, radius, area, shape), encoding="utf-8")
    stem.with_name(stem.name + "-cut.dxf").write_text(dxf(grid, radius, area, shape), encoding="utf-8")


def write_print_images(pdf: Path, grid: Any, area: tuple[float, float]) -> None:
    """`<deck>-print-N.png`: each page cut to the print-then-cut area, for the machine's app to print."""
    from pnp.output.cut_files import print_images  # lazy, as above

    for n, png in print_images(pdf, grid, area):  # one page's picture in memory at a time
        pdf.with_name(f"{pdf.stem}-print-{n}.png").write_bytes(png)


def checklist_step(game: Game, options: BuildOptions) -> Step:
    rel = f"{game.slug}/checklist.pdf"

    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        pages = write_checklist(path, game, options.counts, options.sheets.paper, fonts)
        tick()
        return Output(rel, game.tag, "checklist", "checklist", pages)

    return Step(f"{game.tag} checklist", 1, run)


StepMaker = Callable[[Game, Component, BuildOptions], "Step | list[Step]"]


def board_step(game: Game, comp: Component, options: BuildOptions) -> Step | list[Step]:
    # lazy, here and for booklets and statistics sheets: each kind's drawing stage only for a plan that has that kind (bench: pnp build of one game)
    from pnp.output.boards import (
        board_step as make,  # lazy: board art only for games with boards
    )

    return make(game, comp, options)


def booklet_step(game: Game, comp: Component, options: BuildOptions) -> Step | list[Step]:
    from pnp.output.booklets import (
        booklet_step as make,  # lazy: platypus and jinja2 only for booklets
    )

    return make(game, comp, options)


def stats_step(game: Game, options: BuildOptions) -> Step:
    from pnp.output.stats_sheet import (
        stats_step as make,  # lazy: only stacked decks have a stats sheet
    )

    return make(game, options)


MAKERS: dict[str, StepMaker] = {
    "deck": card_step,
    "reference": card_step,
    "tokens": card_step,
    "board": board_step,
    "booklet": booklet_step,
}
