"""From card types to printable card faces and backs: slot rendering and form XObjects.

Each distinct face (a card type in one marked set) and each distinct back is
drawn once as a PDF form XObject; sheets place them with `doForm`, so a deck
of 65 cards draws 5 faces and 1 back.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.data.format.catalog import FREE_SLOTS, has_symbol, unknown_symbol
from pnp.data.format.colours import on
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.layout import Layout
from pnp.data.format.limits import MAX_SLOT_SYMBOLS, MAX_SLOT_TEXT
from pnp.data.format.model import CardType, CodeSpot, Component, Design, Game, Mark
from pnp.data.reading.layouts import builtin
from pnp.data.templating.slots import (
    SlotKey,
    context,
    render_slot,
    rendered_slots,
    sets_for,
)
from pnp.draw.context import CardContext, color
from pnp.draw.designs import ElementProblem, draw_layout
from pnp.draw.fonts import Fonts, MissingGlyph
from pnp.draw.images import Artwork
from pnp.draw.pdf import end_form_compressed
from pnp.draw.shapes import hex_corners
from pnp.draw.sheet_origin import sheet_problem
from pnp.geometry.sizes import Size, card_size, pt


@dataclass(frozen=True)
class Printed:
    """One distinct card as printed: its type, set mark and how many copies."""

    card: CardType
    code: str
    copies: int
    mark: Mark | None
    set_index: int | None


def printed_cards(game: Game, comp: Component, counts: dict[str, int] | None = None) -> list[Printed]:
    """Every distinct printed card of a component, set by set, in database order."""
    out = []
    for index, mark in sets_for(comp, counts or {}):
        for card in comp.cards:
            if card.copies:
                out.append(Printed(card, game.code(card), card.copies, mark, index))
    return out


@dataclass
class FormCache:
    """Draws faces and backs into form XObjects on one canvas, each once.

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
    failed: dict[tuple, InputError] = field(default_factory=dict)  # a form that did not draw: why

    def __post_init__(self) -> None:
        rl.use_fast_writer()  # forms keep their see-through inks and gradients (pnp's form writer)
        self.art = Artwork.for_project(self.game.root, self.game.symbols, self.max_dpi, self.game.draft)

    def face(self, comp: Component, p: Printed) -> str:
        key = ("face", comp.key, p.card.key, p.set_index)
        if key in self.failed:
            raise self.failed[key]
        if key not in self.forms:
            design_key = p.card.design("face", comp)
            self.forms[key] = self._draw(
                key,
                comp,
                self.game.faces[design_key],
                f"faces.{design_key}",
                p.card,
                p.mark,
                p.set_index,
                p.code,
            )
        return self.forms[key]

    def back(self, comp: Component, p: Printed) -> str:
        design_key = p.card.design("back", comp)
        key = ("back", comp.key, design_key, p.set_index)
        if key in self.failed:
            raise self.failed[key]
        if key not in self.forms:
            self.forms[key] = self._draw(
                key, comp, self.game.backs[design_key], f"backs.{design_key}", None, p.mark, p.set_index, ""
            )
        return self.forms[key]

    def _draw(
        self,
        key: tuple,
        comp: Component,
        design: Design,
        where: str,
        card: CardType | None,
        mark: Mark | None,
        set_index: int | None,
        code: str,
    ) -> str:
        name = form_name("F" + "_".join(str(k) for k in key if k is not None).replace(" ", ""))
        size = card_size_of(comp)
        if comp.key not in self.rendered:
            self.rendered[comp.key] = rendered_slots(self.game, comp)
        known = self.rendered[comp.key].get((where, card.key if card else None, set_index, mark))
        b = pt(self.bleed_mm)
        w, h = pt(size.w), pt(size.h)
        c = self.c
        try:
            slots = resolve(self.game, comp, design, where, card, mark, set_index, self.art, known)
        except InputError as exc:
            self.failed[key] = exc
            raise
        c.beginForm(name, lowerx=-b, lowery=-b, upperx=w + b, uppery=h + b)
        c.clipPath(outline(c, comp.shape, w, h, b), stroke=0, fill=0)
        ctx = CardContext(
            c,
            w,
            h,
            b,
            self.fonts,
            self.game.style,
            code=code,
            mark=mark,
            art=self.art,
            version=self.game.game.version,
        )
        try:
            _bounded(slots)
            ink = self._layout(ctx, comp, design, where, slots, card, mark, set_index)
            draw_footer(ctx, ink or color(self.game.style.ink), code_spot(design, comp))
        except (
            ElementProblem
        ) as exc:  # a custom design's own element: its line; a built-in layout: the design
            own = design.layout in FREE_SLOTS
            self.failed[key] = self._problem(
                card,
                design,
                code,
                comp,
                exc.line if own else design.line,
                f"{where}.{exc.field}" if own else where,
                exc.field,
                exc.message,
            )
        except (MissingGlyph, ValueError, KeyError) as exc:
            self.failed[key] = self._problem(card, design, code, comp, design.line, where, "", str(exc))
        if key in self.failed:
            c.endForm()  # closed, so this canvas can go on with the next card (`pnp check` lists them all)
            raise self.failed[key]
        end_form_compressed(c, name)
        return name

    def _problem(
        self,
        card: CardType | None,
        design: Design,
        code: str,
        comp: Component,
        line: int | None,
        field: str,
        path: str,
        message: str,
    ) -> InputError:
        """A card that does not draw: at its spreadsheet cell when it comes from one, else at the design."""
        label = f"card {code}" if card else f"back of {comp.key}"
        at_sheet = sheet_problem(
            card, design, path, f"{label}: {message}", f"{field}, {self.game.where}:{line}"
        )
        return InputError([at_sheet or Problem(self.game.where, line, field, f"{label}: {message}")])

    def _layout(
        self,
        ctx: CardContext,
        comp: Component,
        design: Design,
        where: str,
        slots: dict[str, Any],
        card: CardType | None,
        mark: Mark | None,
        set_index: int | None,
    ) -> Any:
        """Draw the design's layout: a built-in one's elements, or a custom design's own."""
        if design.layout not in FREE_SLOTS:
            return draw_layout(ctx, builtin()[design.layout], slots, {}, self.art, design.layout)
        own = Layout(
            doc="", let=design.let, elements=design.elements, code_color=design.code_color, line=design.line
        )
        return draw_layout(ctx, own, slots, context(self.game, comp, card, mark, set_index), self.art)


_SYMBOL = re.compile(r"\{[A-Za-z0-9][A-Za-z0-9_-]*\}")  # an inline symbol, as inline markup reads it


def _bounded(slots: dict[str, Any]) -> None:
    """Refuse (ValueError) a slot whose rendered text is longer than `MAX_SLOT_TEXT` or holds more than
    `MAX_SLOT_SYMBOLS` inline symbols: fitting such a text to its box would take minutes."""
    for name, value in slots.items():
        if not isinstance(value, str):
            continue
        if len(value) > MAX_SLOT_TEXT:
            raise ValueError(
                f"slot {name!r} renders {len(value)} characters; one slot's text may have {MAX_SLOT_TEXT}"
            )
        symbols = sum(1 for _ in itertools.islice(_SYMBOL.finditer(value), MAX_SLOT_SYMBOLS + 1))
        if symbols > MAX_SLOT_SYMBOLS:
            raise ValueError(
                f"slot {name!r} holds more than {MAX_SLOT_SYMBOLS} inline symbols; one slot's text may have "
                f"{MAX_SLOT_SYMBOLS}"
            )


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


def resolve(
    game: Game,
    comp: Component,
    design: Design,
    where: str,
    card: CardType | None,
    mark: Mark | None,
    set_index: int | None,
    art: Artwork | None = None,
    known: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Render a design's slots for one card; template errors name the design and card.

    `known` holds the slots already rendered (`pnp.data.templating.slots.rendered_slots`,
    from the disk cache), so an unchanged game draws without jinja2. The `art`
    slot becomes a checked Picture when it names an image file.
    """
    label = f"card {game.code(card)}" if card else f"{comp.key} back"
    problems: list[Problem] = []  # every slot's problem, not only the first
    if known is not None and design.layout not in FREE_SLOTS:
        out = dict(known)
        for slot in out:
            try:
                _finish(game, design, where, label, slot, out, art)
            except InputError as exc:
                problems += exc.problems
        if problems:
            raise InputError(problems)
        return out
    import jinja2  # lazy: only slots not already rendered need jinja2

    ctx = context(game, comp, card, mark, set_index)
    out = {}
    for slot, value in design.slots.items():
        field = f"{where}.slots.{slot}"
        try:
            out[slot] = render_slot(value, ctx)
        except jinja2.TemplateError as exc:
            # lazy: hints only for a template that failed
            from pnp.data.templating.hints import explain

            message = explain(str(exc.message or exc), value, ctx)
            problems.append(Problem(game.where, design.line, field, f"{label}: {message}"))
            continue
        except ValueError as exc:
            problems.append(Problem(game.where, design.line, field, f"{label}: {exc}"))
            continue
        try:
            _finish(game, design, where, label, slot, out, art)
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return out


def _finish(
    game: Game, design: Design, where: str, label: str, slot: str, out: dict[str, Any], art: Artwork | None
) -> None:
    """A rendered slot made ready to draw: pictures checked, symbols known."""
    try:
        if slot == "art" and art is not None and design.layout not in FREE_SLOTS:  # custom: elements use it
            out[slot] = art.picture(out[slot]) or out[slot]
    except ValueError as exc:
        raise InputError(
            [Problem(game.where, design.line, f"{where}.slots.{slot}", f"{label}: {exc}")]
        ) from None
    if slot in ("emblem", "pattern") and out[slot] and not has_symbol(str(out[slot]), game.symbols):
        raise InputError(
            [
                Problem(
                    game.where,
                    design.line,
                    f"{where}.slots.{slot}",
                    unknown_symbol(str(out[slot]), game.symbols),
                )
            ]
        )


SMALL_TOKEN = 24.0  # mm: a token narrower than this prints no collation code unless its design places one
_PLAIN_CODE = CodeSpot()


def code_spot(design: Design, comp: Component) -> CodeSpot | None:
    """Where a card of `comp` drawn with `design` prints its collation code; None: nowhere."""
    if design.code == "none":
        return None
    if design.code is not None:
        return design.code
    size = card_size_of(comp)
    if comp.kind == "tokens" and min(size.w, size.h) < SMALL_TOKEN:
        return None  # the value of a small token fills it: a code would print across it
    return _PLAIN_CODE


def draw_footer(ctx: CardContext, ink: Any, spot: CodeSpot | None = _PLAIN_CODE) -> None:
    """The collation code and version where `spot` says (by default centred in small type at the
    bottom of the safe zone; None: left out), and the set mark."""
    label = f"{ctx.code} \u00b7 {ctx.version}" if ctx.code and ctx.version else ctx.code
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
