"""The one-page print-and-cut guide of a print-and-play package: which file for which printer, and how
to print, check, fold, cut and glue. Written from the files the package holds."""
from __future__ import annotations

import io

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Game
from pnp.draw.context import color, scale_bar
from pnp.draw.fonts import Fonts
from pnp.geometry.sizes import Size, pt

MARGIN = 16.0   # mm


def guide_sections(game: Game, paper: str, files: list[str]) -> list[tuple[str, list[str]]]:
    """Headings and their lines, for the files of one paper (paths inside the package)."""
    decks = sorted({f.split("/")[-1] for f in files if "/duplex/" in f})
    others = sorted(f.split("/")[-1] for f in files if f.count("/") == 1 and not f.endswith("print-guide.pdf"))
    boxes = [f for f in others if f.endswith("-tuckbox.pdf")]
    rest = [f for f in others if f not in boxes]
    return [
        ("Which files", [
            f"{paper}/duplex/: card sheets for a printer that prints both sides ({', '.join(decks)}).",
            f"{paper}/gutterfold/: the same cards for any printer: fronts and backs on one page.",
            "...-low-ink/: the same sheets with pale fills and dark text: for playtests, a third of the ink.",
            f"{paper}/: {', '.join(rest)}; tuck boxes: {', '.join(boxes) or 'none'}.",
        ]),
        ("Before you print", [
            "Print at 100 % (\"actual size\", no \"fit to page\"). Every card page has a 50 mm bar: measure it; "
            "if it is not 50 mm, the printer scaled the page and the cards will be the wrong size.",
            "Card stock of 250-300 gsm prints well on most home printers; set the paper type to card.",
        ]),
        ("Duplex printer", [
            "Print each deck file double-sided, flipping on the long edge (the printer's usual setting).",
            "Hold one printed sheet against a window: the target's 1 mm ticks show how far the backs moved. "
            "Rebuild with --back-offset X,Y to move them back, or use the gutterfold files instead.",
        ]),
        ("Any printer: gutterfold", [
            "Print one side only. Fold each page on the dashed line, fronts outwards, and glue the halves back "
            "to back (a glue stick over the whole blank side, pressed flat under a book).",
            "When dry, cut along the crop marks: each front has its own back behind it.",
        ]),
        ("Cutting", [
            "Cut on the crop marks with a craft knife and a metal ruler, or a guillotine: cut every long line "
            "across the sheet first, then the short ones. Round the corners with a corner punch if you like.",
            "Tick each card off on the checklist as you cut it: a missing code is a card to reprint.",
        ]),
        ("Tuck box", [
            "Cut the solid lines, score and fold the dashed ones, glue the strips marked glue. The thumb notch "
            "goes at the top of the front.",
        ]),
    ]


def write_guide(game: Game, paper: Size, files: list[str], fonts: Fonts) -> bytes:
    """The guide as a one-page PDF on `paper` (portrait)."""
    page = paper.portrait
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(pt(page.w), pt(page.h)), invariant=1, initialFontName=fonts.name("body"))
    c.setTitle(f"{game.game.name}: print-and-cut guide")
    ink, accent = color(game.style.ink), color(game.style.accent)
    y = page.h - MARGIN - 8
    title = f"{game.game.name}: how to print and cut"
    fonts.check(title, "display")
    c.setFont(fonts.name("display"), 18)
    c.setFillColor(ink)
    c.drawString(pt(MARGIN), pt(y), title)
    y -= 10
    width = pt(page.w - 2 * MARGIN)
    for heading, lines in guide_sections(game, paper.name, files):
        fonts.check(heading, "bold")
        c.setFont(fonts.name("bold"), 11)
        c.setFillColor(accent)
        c.drawString(pt(MARGIN), pt(y), heading)
        y -= 5.5
        c.setFillColor(ink)
        for line in lines:
            fonts.check(line, "body")
            for i, part in enumerate(simpleSplit(line, fonts.name("body"), 9, width - pt(5))):
                c.setFont(fonts.name("body"), 9)
                if i == 0:
                    c.drawString(pt(MARGIN), pt(y), "•")
                c.drawString(pt(MARGIN + 4), pt(y), part)
                y -= 4.2
            y -= 1.2
        y -= 3
    scale_bar(c, pt(MARGIN), pt(max(MARGIN, y - 6)), fonts)
    c.showPage()
    c.save()
    return buf.getvalue()
