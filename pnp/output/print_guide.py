"""The one-page print-and-cut guide of a print-and-play package: which file for which printer, and how
to print, check, fold, cut and glue. Written from the files the package holds."""

from __future__ import annotations

import io

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Game
from pnp.draw.context import color, scale_bar
from pnp.geometry.sizes import Size, pt
from pnp.resolve.fonts import Fonts

MARGIN = 16.0  # mm


def guide_sections(game: Game, paper: str, files: list[str]) -> list[tuple[str, list[str]]]:
    """Headings and their lines, for the files of one paper (paths inside the package)."""
    decks = sorted({f.split("/")[-1] for f in files if "/duplex/" in f})
    others = sorted(
        f.split("/")[-1] for f in files if f.count("/") == 1 and not f.endswith("print-guide.pdf")
    )
    boxes = [f for f in others if f.endswith("-tuckbox.pdf")]
    rest = [f for f in others if f not in boxes]
    say = game.say
    return [
        (
            say("guide_files"),
            [
                say("guide_duplex_files", paper=paper, decks=", ".join(decks)),
                say("guide_fold_files", paper=paper),
                say("guide_low_ink"),
                say(
                    "guide_other_files",
                    paper=paper,
                    files=", ".join(rest),
                    boxes=", ".join(boxes) or say("none"),
                ),
            ],
        ),
        (say("guide_before"), [say("guide_scale"), say("guide_stock")]),
        (say("guide_duplex"), [say("guide_duplex_print"), say("guide_duplex_check")]),
        (say("guide_fold"), [say("guide_fold_print"), say("guide_fold_cut")]),
        (say("guide_cutting"), [say("guide_cut"), say("guide_tick")]),
        (say("guide_tuckbox"), [say("guide_tuckbox_make")]),
    ]


def write_guide(game: Game, paper: Size, files: list[str], fonts: Fonts) -> bytes:
    """The guide as a one-page PDF on `paper` (portrait)."""
    page = paper.portrait
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(pt(page.w), pt(page.h)), invariant=1, initialFontName=fonts.name("body"))
    c.setTitle(game.say("guide_document", game=game.game.name))
    ink, accent = color(game.style.ink), color(game.style.accent)
    y = page.h - MARGIN - 8
    title = game.say("guide_title", game=game.game.name)
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
    scale_bar(c, pt(MARGIN), pt(max(MARGIN, y - 6)), fonts, game.say("scale_bar"))
    c.showPage()
    c.save()
    return buf.getvalue()
