"""Each distinct card side of a component drawn as pixels, twice: whole, and without its text.

The sides are the sheets' own form XObjects (`pnp.draw.faces.FormCache`), one to a
page the size of the trim, rasterised by PDFium (`pnp.output.exports.raster`). The
second drawing leaves out every text and paragraph element and the collation code,
so what lies behind a text is read from pixels, whatever painted it: a panel, a
gradient, a picture. Each text element comes with its box in pixels and its ink
as drawing chooses it (opacity, and the low-ink version's dark text).
"""

from __future__ import annotations

import dataclasses
import io
import math
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.elements import Element
from pnp.data.format.model import Component, Game
from pnp.draw.context import CardContext
from pnp.draw.elements import box
from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.inks import color, faded, mark_ink
from pnp.geometry.sizes import pt
from pnp.output.access.vision import Array, pixels
from pnp.output.exports.raster import rasterise
from pnp.resolve.cards import Printed, back_job, face_job, printed_cards
from pnp.resolve.fonts import Fonts
from pnp.resolve.sides import Job, Side

TEXT = ("text", "paragraph")


@dataclass(frozen=True)
class Words:
    """One text element as drawn: the element (fitted), its index in the layout's list, its box in
    pixels (left, top, right, bottom) and its ink (red, green, blue, alpha: 0..1)."""

    el: Element
    index: int
    box: tuple[int, int, int, int]
    ink: tuple[float, float, float, float]


@dataclass(frozen=True)
class Drawn:
    """One distinct side: which card it is, the job it resolved from, its pixels whole and without text."""

    key: tuple
    printed: Printed
    job: Job
    whole: Array
    backdrop: Array
    words: tuple[Words, ...]
    grouped: tuple[
        Element, ...
    ]  # the text elements inside groups (their size is checked, not their contrast)

    @property
    def is_face(self) -> bool:
        return self.key[0] == "face"


@dataclass
class _Kept(FormCache):
    """A FormCache that remembers each side it resolved (`textless`: draws it without its text)."""

    textless: bool = False
    sides: dict[tuple, Side] = field(default_factory=dict)

    def side(self, key: tuple, job: Job) -> Side:
        done = super().side(key, job)
        self.sides[key] = done
        # the collation code is for sorting, not play: left out, so two cards differ only in what players see
        elements = _without_text(done.elements) if self.textless else done.elements
        return dataclasses.replace(done, elements=elements, label="")


def _without_text(elements: tuple[Element, ...]) -> tuple[Element, ...]:
    out = []
    for el in elements:
        if el.type in TEXT:
            continue
        if el.type == "group":
            el = dataclasses.replace(el, elements=_without_text(el.elements))
        out.append(el)
    return tuple(out)


def draw_sides(game: Game, fonts: Fonts, comp: Component, ink: str, dpi: float) -> list[Drawn]:
    """Every distinct face and back of `comp` in `ink` ("full" or "low"), as pixels at `dpi`."""
    sides: dict[tuple, tuple[Printed, Job]] = {}
    for p in printed_cards(game, comp):
        for key, job in (face_job(game, comp, p), back_job(game, comp, p)):
            sides.setdefault(key, (p, job))
    size = card_size_of(comp)
    w, h = pt(size.w), pt(size.h)
    pictures: list[list[Array]] = []
    kept: list[_Kept] = []
    for textless in (False, True):
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(w, h), invariant=1, pageCompression=0)
        c.pnp_ink = ink  # pnp's note, as builds set it (pnp.draw.inks)
        cache = _Kept(c, game, fonts, 0.0, textless=textless)
        for key, (p, _) in sides.items():
            c.doForm(cache.face(comp, p) if key[0] == "face" else cache.back(comp, p))
            c.showPage()
        c.save()
        pictures.append([pixels(im) for im in rasterise(buf.getvalue(), dpi)])
        kept.append(cache)
    ctx = CardContext(kept[0].c, w, h, 0.0, fonts, game.style)
    out = []
    for n, (key, (p, job)) in enumerate(sides.items()):
        side = kept[0].sides[key]
        words = tuple(_words(ctx, side, ink, dpi, h))
        grouped = tuple(_in_groups(side.elements))
        out.append(Drawn(key, p, job, pictures[0][n], pictures[1][n], words, grouped))
    return out


def _in_groups(elements: tuple[Element, ...], inside: bool = False) -> list[Element]:
    """The text elements inside groups, at any depth."""
    out = []
    for el in elements:
        if el.type == "group":
            out += _in_groups(el.elements, True)
        elif inside and el.type in TEXT and (el.text or el.lines):
            out.append(el)
    return out


def _words(ctx: CardContext, side: Side, ink: str, dpi: float, h: float) -> list[Words]:
    """The side's own text elements (not a group's), each with its box in pixels and its ink."""
    out = []
    k = dpi / 72.0
    for i, el in enumerate(side.elements):
        if el.type not in TEXT or not (el.text or el.lines):
            continue
        x, bottom, bw, bh = box(ctx, el)
        if el.rotate:  # the box turned about its centre: its upright bounds
            a = math.radians(float(el.rotate))
            cx, cy = x + bw / 2, bottom + bh / 2
            bw, bh = (
                abs(bw * math.cos(a)) + abs(bh * math.sin(a)),
                abs(bw * math.sin(a)) + abs(bh * math.cos(a)),
            )
            x, bottom = cx - bw / 2, cy - bh / 2
        left, top = math.floor(x * k), math.floor((h - bottom - bh) * k)
        right, low = math.ceil((x + bw) * k), math.ceil((h - bottom) * k)
        out.append(Words(el, i, (left, top, right, low), text_colour(ctx, el, ink)))
    return out


class _Ink:
    """What the ink rules read from a canvas: which version is drawn."""

    def __init__(self, ink: str):
        self.pnp_ink = ink


def text_colour(ctx: CardContext, el: Element, ink: str) -> tuple[float, float, float, float]:
    """The colour a text element prints in (its fill or the style's ink, faded by its opacity; on a
    low-ink card a light one drawn dark), as red, green, blue and alpha."""
    drawn: Any = mark_ink(_Ink(ink), faded(color(el.fill or ctx.style.ink), float(el.opacity)))
    red, green, blue = drawn.rgb()
    return float(red), float(green), float(blue), float(getattr(drawn, "alpha", 1.0))
