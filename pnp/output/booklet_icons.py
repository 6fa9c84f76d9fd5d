"""Inline {icons} in booklets, drawn as the same vector symbols the cards use.

A ReportLab paragraph cannot hold a vector drawing inside a line, so an icon
becomes two things in the paragraph markup (see `inline_markup.inline`): a
zero-height picture one em wide that keeps its room in the line, then an
<onDraw> mark whose callback (`IconPainter`, registered on every page) draws
the symbol over that room in the text's colour and size. Where the ReportLab
adapter cannot read the line's position, booklets print `{name}` as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.errors import Problem
from pnp.data.format.model import Game
from pnp.draw.images import Artwork
from pnp.draw.inks import color
from pnp.draw.markup import Block
from pnp.draw.richtext import ICON_RISE, ICON_SIZE
from pnp.draw.symbol_forms import symbol_form
from pnp.resolve.fonts import ICON_ADVANCE
from pnp.resolve.inline_markup import span_style, tokens

SPACER = Path(__file__).resolve().parent.parent / "draw" / "spacer.png"  # one grey pixel, drawn 0 high
CALLBACK = "pnp_icon"


def spacer() -> str | None:
    """The spacer picture's path for `inline`, or None when icons cannot be drawn in booklets here."""
    return str(SPACER) if rl.ACTIVE and SPACER.is_file() else None


def check_inline(game: Game, blocks: list[Block], where: str) -> list[Problem]:
    """Icons that name no symbol (built in or the project's own) and span attributes that are not
    ones, at the line of their block."""
    own: Any = None
    problems: list[Problem] = []
    for b in blocks:
        for text in (
            b.text,
            *b.items,
            *(c for kids in b.children for c in kids),
            *(c for row in b.rows for c in row),
        ):
            if "{" not in text:
                continue
            for t in tokens(text):
                if t.kind == "icon":
                    own = Artwork.for_project(game.root, game.symbols).symbols if own is None else own
                    if t.text not in own and not has_symbol(t.text):
                        problems.append(Problem(where, b.line, "", unknown_symbol(t.text, own)))
                elif t.kind == "span" and t.on:
                    try:
                        span_style(t.text)
                    except ValueError as exc:
                        problems.append(Problem(where, b.line, "", str(exc)))
    return problems


class IconPainter:
    """The <onDraw> callback: draws the icon named by `label` over the room its spacer kept."""

    def __init__(self, game: Game):
        self.art = Artwork.for_project(game.root, game.symbols, draft=game.draft)

    def __call__(self, c: Canvas, kind: str, label: str | None) -> None:
        at = rl.paragraph_cursor(c)
        if at is None or not label:
            return
        x, y, ink = at
        label, size_text, *colour = label.split("|")  # name|size[|#rrggbb], written by inline
        size = float(size_text)
        ink = color(colour[0]) if colour else ink if ink is not None else color("#000000")
        advance = ICON_ADVANCE * size
        cx, cy = x - advance / 2, y + ICON_RISE * size
        if label in self.art.symbols:
            self.art.symbol(c, label, cx, cy, ICON_SIZE * size, ink)
        else:
            symbol_form(c, label, cx, cy, ICON_SIZE * size, fill=ink)


def register(c: Canvas, painter: Any) -> None:
    rl.set_paragraph_callback(c, CALLBACK, painter)
