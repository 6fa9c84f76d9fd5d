"""From card types to printable card faces and backs: slot rendering and form XObjects.

Each distinct face (a card type in one marked set) and each distinct back is
drawn once as a PDF form XObject; sheets place them with `doForm`, so a deck
of 65 cards draws 5 faces and 1 back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.data.format.colours import on
from pnp.data.format.errors import InputError
from pnp.data.format.model import CodeSpot, Component, Game
from pnp.data.templating.slots import SlotKey, rendered_slots
from pnp.draw import elements as renderer
from pnp.draw.context import CardContext, color
from pnp.draw.images import Artwork
from pnp.draw.inks import low_ink
from pnp.draw.pdf import end_form_compressed
from pnp.draw.shapes import hex_corners
from pnp.geometry.sizes import Size, card_size, pt
from pnp.resolve.cards import Printed, back_job, face_job
from pnp.resolve.fonts import Fonts
from pnp.resolve.sides import Job, Side, resolve_side, trim_of


@dataclass
class FormCache:
    """Draws faces and backs into form XObjects on one canvas, each once.

    Each side is resolved first (`pnp.resolve.sides`): its problems, every one, raise
    InputError before anything is drawn; drawing takes the resolved side as it is.
    Mutable by design: it remembers which forms this canvas already holds.
    """

    c: Canvas
    game: Game
    fonts: Fonts
    bleed_mm: float
    forms: dict[tuple, str] = field(default_factory=dict)
    rendered: dict[str, dict[SlotKey, dict[str, Any]]] = field(default_factory=dict)  # per component key
    max_dpi: float | None = None  # pictures sharper than this at their printed size are downsampled
    art: Artwork = field(init=False)
    failed: dict[tuple, InputError] = field(default_factory=dict)  # a side that did not resolve: why

    def __post_init__(self) -> None:
        rl.use_fast_writer()  # forms keep their see-through inks and gradients (pnp's form writer)
        self.art = Artwork.for_project(self.game.root, self.game.symbols, self.max_dpi, self.game.draft)

    def face(self, comp: Component, p: Printed) -> str:
        return self._form(*face_job(self.game, comp, p))

    def back(self, comp: Component, p: Printed) -> str:
        return self._form(*back_job(self.game, comp, p))

    def side(self, key: tuple, job: Job) -> Side:
        """The side resolved (InputError with its problems, remembered for the next copy)."""
        if key in self.failed:
            raise self.failed[key]
        comp = job.comp
        if comp.key not in self.rendered:
            self.rendered[comp.key] = rendered_slots(self.game, comp)
        known = self.rendered[comp.key].get(
            (job.where, job.card.key if job.card else None, job.set_index, job.mark)
        )
        ink = "low" if low_ink(self.c) else "full"
        trim = trim_of(self.game, comp, job, self.bleed_mm, ink, rl.prints_in_inks(self.c))
        try:
            return resolve_side(self.game, job, self.fonts, self.art, trim, known)
        except InputError as exc:
            self.failed[key] = exc
            raise

    def _form(self, key: tuple, job: Job) -> str:
        if key not in self.forms:
            self.forms[key] = self._draw(key, self.side(key, job), job.comp)
        return self.forms[key]

    def _draw(self, key: tuple, side: Side, comp: Component) -> str:
        name = form_name("F" + "_".join(str(k) for k in key if k is not None).replace(" ", ""))
        size = card_size_of(comp)
        b = pt(self.bleed_mm)
        w, h = pt(size.w), pt(size.h)
        c = self.c
        c.beginForm(name, lowerx=-b, lowery=-b, upperx=w + b, uppery=h + b)
        c.clipPath(outline(c, comp.shape, w, h, b), stroke=0, fill=0)
        ctx = CardContext(c, w, h, b, self.fonts, self.game.style, mark=side.mark, art=self.art)
        renderer.draw(ctx, side.elements)
        draw_footer(ctx, color(side.ink) if side.ink else color(self.game.style.ink), side.spot, side.label)
        end_form_compressed(c, name)
        return name


def outline(c: Canvas, shape: str, w: float, h: float, grow: float = 0.0) -> Any:
    """A card's or token's outline from its trim's lower-left corner, grown by `grow` on every side
    (the bleed): a rectangle, a circle or a flat-topped hexagon filling the w x h box."""
    p = c.beginPath()
    if shape == "circle":
        p.circle(w / 2, h / 2, w / 2 + grow)
    elif shape == "hex":  # grown about its centre, the flat sides moved out by `grow`
        k = 1 + 2 * grow / h
        corners = hex_corners((w * (1 - k) / 2, h * (1 - k) / 2, w * k, h * k), pointy=False)
        p.moveTo(*corners[0])
        for xy in corners[1:]:
            p.lineTo(*xy)
        p.close()
    else:
        p.rect(-grow, -grow, w + 2 * grow, h + 2 * grow)
    return p


def form_name(text: str) -> str:
    """A PDF name from card keys: ASCII letters, digits and _ kept, any other character as _HEX_
    (a key may be any text; a PDF name may not)."""
    return re.sub(r"[^A-Za-z0-9_]", lambda m: f"_{ord(m.group()):x}_", text)


def card_size_of(comp: Component) -> Size:
    return card_size(comp.card_size)


def draw_footer(ctx: CardContext, ink: Any, spot: CodeSpot | None, label: str) -> None:
    """The collation code and version (`label`) where `spot` says (by default centred in small type at
    the bottom of the safe zone; None: left out), and the set mark."""
    if spot is not None and label:
        x = ctx.w / 2 if spot.x is None else pt(spot.x)
        if spot.y is not None:
            y = ctx.h - pt(spot.y)
        elif spot.at == "top":
            y = ctx.h - ctx.safe - spot.size * 0.75  # its capitals' top at the safe zone's edge
        else:
            y = ctx.safe + pt(0.9)
        ctx.text(x, y, label, "condensed", spot.size, ink, align="center")
    if ctx.mark:
        _mark(ctx, ctx.w - ctx.safe - pt(1.5), ctx.h - ctx.safe - pt(1.5), ink)


def _mark(ctx: CardContext, cx: float, cy: float, ink: Any) -> None:
    """A set mark: a disc in the set colour with its emblem or label."""
    mark = ctx.mark
    assert mark is not None
    fill = color(mark.color)
    r = pt(1.9)
    ctx.c.setFillColor(fill)
    ctx.c.setStrokeColor(color("#ffffff"))
    ctx.c.setLineWidth(0.5)
    ctx.c.circle(cx, cy, r, stroke=1, fill=1)
    if mark.emblem:
        ctx.symbol(mark.emblem, cx, cy, r * 1.35, fill=on(fill))
    else:
        ctx.text(cx, cy - pt(0.8), mark.label, "condensed", 5.5, on(fill), align="center", max_width=r * 1.8)
