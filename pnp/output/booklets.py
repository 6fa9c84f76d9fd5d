"""Rule booklets: template text -> blocks -> ReportLab platypus pages, plain and saddle-stitched.

Pages are half the chosen paper (A5 for A4, half-letter for Letter), so the
saddle-stitched version puts two pages side by side on each side of a
landscape sheet without scaling. Card and board pictures are drawn by the
same code that draws the cards and boards (`booklet_story`); saddle-stitch
imposition is `booklet_imposition`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp import __version__
from pnp.adapters import reportlab as rl
from pnp.data.format.colours import darken, lighten
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.loader import derived
from pnp.draw.markup import Block, MarkupError, parse
from pnp.geometry.imposition import saddle_order
from pnp.geometry.sizes import Size, pt
from pnp.output import booklet_icons
from pnp.output.booklet_imposition import ImposingCanvas
from pnp.output.booklet_story import Pictures, Styles, story, styles
from pnp.output.booklet_text import render, template_name
from pnp.output.platypus import SimpleDocTemplate
from pnp.output.steps import Output, Step
from pnp.resolve.fonts import Fonts, MissingGlyph
from pnp.resolve.inline_markup import plain

MARGINS = (13.0, 13.0, 14.0, 17.0)  # left, right, top, bottom (mm)


def page_size(paper: Size) -> Size:
    """A booklet page: half a sheet of the paper, portrait."""
    p = paper.portrait
    return Size(p.h / 2, p.w, f"half {p.name}" if p.name else "")


# -- documents --------------------------------------------------------------------------------


def check_glyphs(blocks: list[Block], fonts: Fonts, where: str) -> None:
    """Every character must exist in the fonts that will draw it (no empty boxes).

    All the text is checked at once; only when a character is missing is each
    block checked alone, to name the line it is on."""
    texts = [
        [
            plain(t)
            for t in (
                b.text,
                *b.items,
                *(c for r in b.rows for c in r),
                *(t for ch in b.children for t in ch),
            )
        ]
        for b in blocks
    ]
    whole = "".join(t for block in texts for t in block)
    try:
        for role in ("serif", "bold"):
            fonts.check(whole, role)
        return
    except MissingGlyph:
        pass
    problems = []
    for b, block in zip(blocks, texts):
        for t in block:
            for role in ("serif", "bold"):
                try:
                    fonts.check(t, role)
                except MissingGlyph as exc:
                    problems.append(Problem(where, b.line, "", str(exc)))
                    break
    if problems:
        raise InputError(problems)


@dataclass(frozen=True)
class Prepared:
    """A booklet's checked text, ready to lay out."""

    game: Game
    comp: Component
    blocks: tuple[Block, ...]
    where: str


def prepare(game: Game, comp: Component, fonts: Fonts | None = None) -> Prepared:
    templates = sorted(p for p in (game.root / "templates").rglob("*") if p.is_file())
    # the text depends on the game and the templates only: an unchanged booklet is not rendered again
    name = template_name(
        game, comp
    )  # the template in the game's language (a sibling added later is a new key)
    text = derived("booklet-text", game, (comp.key, name), lambda: render(game, comp), templates)
    where = f"templates/{name} (rendered)"
    try:
        blocks = parse(text)
    except MarkupError as exc:
        raise InputError([Problem(where, exc.line, "", str(exc).split(": ", 1)[-1])]) from None
    if problems := booklet_icons.check_inline(game, blocks, where):
        raise InputError(problems)
    if fonts is not None:
        check_glyphs(blocks, fonts, where)
    return Prepared(game, comp, tuple(blocks), where)


def _doc(path: Path, game: Game, comp: Component, page: Size) -> SimpleDocTemplate:
    left, right, top, bottom = MARGINS
    return SimpleDocTemplate(
        str(path),
        pagesize=(pt(page.w), pt(page.h)),
        leftMargin=pt(left),
        rightMargin=pt(right),
        topMargin=pt(top),
        bottomMargin=pt(bottom),
        title=f"{game.game.name}: {comp.name}",
        author="fairy-pnp",
        creator=f"fairy-pnp {__version__}",
        producer="fairy-pnp with ReportLab",
        invariant=1,
        pageCompression=1,
    )


def _decorate(game: Game, fonts: Fonts, st: Styles) -> Callable[[Canvas, Any], None]:
    painter = booklet_icons.IconPainter(game)

    def on_page(c: Canvas, doc: Any) -> None:
        booklet_icons.register(c, painter)
        n = c.getPageNumber()
        w, h = doc.pagesize
        c.saveState()
        c.setStrokeColor(lighten(st.accent, 0.4))
        c.setLineWidth(0.5)
        c.line(doc.leftMargin, pt(11.5), w - doc.rightMargin, pt(11.5))
        c.setFont(fonts.name("serif"), 9)
        c.setFillColor(st.ink)
        c.drawCentredString(w / 2, pt(6.5), str(n))
        if n > 1:
            c.setFont(fonts.name("serif-italic"), 7.5)
            c.setFillColor(darken(st.accent, 0.2))
            c.drawCentredString(w / 2, h - pt(8), game.game.name)
        c.restoreState()

    return on_page


def layout(
    prep: Prepared, path: Path, paper: Size, fonts: Fonts, canvasmaker: Callable[..., Canvas] = Canvas
) -> None:
    """Lay the booklet out on half-sheet pages into `path` (through `canvasmaker`)."""
    page = page_size(paper)
    doc = _doc(path, prep.game, prep.comp, page)
    st = styles(prep.game, fonts)
    pictures = Pictures(prep.game, fonts)
    flow = story(prep.game, list(prep.blocks), st, pictures, doc.width, doc.height, prep.where)
    deco = _decorate(prep.game, fonts, st)
    # lazy: platypus (imported lighter, see output/platypus) only while a booklet is laid out
    from reportlab.platypus.doctemplate import (
        LayoutError,  # public: what platypus raises for a block too big
    )

    try:
        doc.build(flow, onFirstPage=deco, onLaterPages=deco, canvasmaker=canvasmaker)
    except LayoutError:
        raise InputError(
            [
                Problem(
                    prep.where,
                    None,
                    "",
                    "a table or block of the booklet is taller than a page "
                    "(a very long text in one of its cells?); shorten it or split it",
                )
            ]
        ) from None


def write_booklet(
    prep: Prepared,
    paper: Size,
    fonts: Fonts,
    plain: Path | None = None,
    imposed: Path | None = None,
    duplex: str = "long",
) -> tuple[int, int]:
    """Lay the booklet out once; write the plain pages and/or the saddle-stitched sheets.

    Returns (booklet pages, printed sheet sides).
    """
    assert plain is not None or imposed is not None
    if plain is not None and imposed is not None and not rl.ACTIVE:  # no canvas copy: lay it out twice
        write_booklet(prep, paper, fonts, plain=plain)
        return write_booklet(prep, paper, fonts, imposed=imposed, duplex=duplex)
    made: list[ImposingCanvas] = []

    def maker(*a: Any, **kw: Any) -> Canvas:
        c = ImposingCanvas(
            *a,
            sheet=paper,
            duplex=duplex,
            plain=plain if imposed else None,
            imposed=imposed is not None,
            **{**kw, "initialFontName": fonts.name("body")},
        )
        made.append(c)
        return c

    layout(prep, imposed or plain, paper, fonts, maker)  # type: ignore[arg-type]
    n = len(made[0].page_forms)
    return n, 2 * len(saddle_order(n))


def write_plain(prep: Prepared, path: Path, paper: Size, fonts: Fonts) -> int:
    """The booklet as ordinary pages in reading order; returns the page count."""
    return write_booklet(prep, paper, fonts, plain=path)[0]


def write_imposed(prep: Prepared, path: Path, paper: Size, duplex: str, fonts: Fonts) -> tuple[int, int]:
    """The saddle-stitched booklet; returns (booklet pages, printed sheet sides)."""
    return write_booklet(prep, paper, fonts, imposed=path, duplex=duplex)


# -- build steps ------------------------------------------------------------------------------


def booklet_step(game: Game, comp: Component, options: Any) -> Step:
    """One build step, two PDFs from one layout: `<game>/<key>.pdf` (plain pages) and `<game>/<key>-booklet.pdf`."""

    prep = prepare(game, comp)  # template and markup problems surface while planning
    paper = options.sheets.paper
    duplex = options.sheets.duplex
    plain_rel = f"{game.slug}/{comp.key}.pdf"
    imposed_rel = f"{game.slug}/{comp.key}-booklet.pdf"

    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> list[Output]:
        check_glyphs(list(prep.blocks), fonts, prep.where)
        (stage / plain_rel).parent.mkdir(parents=True, exist_ok=True)
        pages, sides = write_booklet(prep, paper, fonts, stage / plain_rel, stage / imposed_rel, duplex)
        tick()
        return [
            Output(plain_rel, game.tag, comp.key, "booklet", pages),
            Output(imposed_rel, game.tag, comp.key, "booklet", sides),
        ]

    return Step(f"{game.tag} {comp.name}", 4, run)
