"""One card side resolved: a design's slots and layout for one card, every element fitted and checked.

`resolve_side` is the stage for one face or back: it renders the design's slot
templates, evaluates its layout's elements, fits and checks each
(`pnp.resolve.fitting`) and the collation code beside them, and returns a `Side`
that drawing takes as it is. Every problem met on the way is collected, each
located at its source (`pnp.resolve.reads`), and raised together as one InputError.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.data.format.catalog import FREE_SLOTS, has_symbol, unknown_symbol
from pnp.data.format.elements import Element
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.feedback import card_link
from pnp.data.format.layout import Layout
from pnp.data.format.limits import MAX_SLOT_SYMBOLS, MAX_SLOT_TEXT
from pnp.data.format.model import CardType, CodeSpot, Component, Design, Game, Mark
from pnp.data.reading.layouts import builtin
from pnp.data.templating.slots import context, render_slot
from pnp.geometry.sizes import SAFE_ZONE, card_size
from pnp.resolve.extends import ExtendsProblem, own_layout, whole
from pnp.resolve.fitting import ContentProblem, Fitter
from pnp.resolve.fonts import Fonts
from pnp.resolve.kept import kept_side
from pnp.resolve.layout import ElementProblem, Trim, render_layout
from pnp.resolve.pictures import Picture, Pictures
from pnp.resolve.reads import Located

SMALL_TOKEN = 24.0  # mm: a token narrower than this prints no collation code unless its design places one
FOOTER = 2.6  # mm kept at the bottom of the safe zone for the collation code and set mark
_PLAIN_CODE = CodeSpot()


@dataclass(frozen=True)
class Side:
    """A card face or back ready to draw: its elements (in mm, fitted), the ink its layout asks for the
    collation code and set mark (None: the style's ink), where the code goes and what it says."""

    elements: tuple[Element, ...]
    ink: Any
    spot: CodeSpot | None
    label: str
    mark: Mark | None


@dataclass(frozen=True)
class Job:
    """Which side to resolve: a design of a component for one card (None: a back) in one marked set."""

    comp: Component
    design: Design
    where: str  # faces.KEY or backs.KEY
    card: CardType | None
    mark: Mark | None
    set_index: int | None


def trim_of(game: Game, comp: Component, job: Job, bleed: float, ink: str, opaque: bool = False) -> Trim:
    """The card a side is resolved for: its size, the code it prints, its ink (`opaque`: print-shop
    inks, which allow no transparency)."""
    size = card_size(comp.card_size)
    code = game.code(job.card) if job.card else ""
    version = game.game.version
    label = f"{code} \u00b7 {version}" if code and version else code
    return Trim(
        size.w, size.h, bleed, SAFE_ZONE, FOOTER, game.style, label, job.mark is not None, ink, opaque
    )


def resolve_side(
    game: Game,
    job: Job,
    fonts: Fonts,
    pictures: Pictures,
    trim: Trim,
    known: Mapping[str, Any] | None = None,
) -> Side:
    """The side ready to draw; InputError with every problem it has, each at its source.

    `known`: the slots already rendered (`pnp.data.templating.slots.rendered_slots`)."""
    at = Located(game, job.comp.key, job.design, job.where, job.card)
    slots = _slots(game, job, pictures, at, known)
    layout, seen = _layout(game, job, at)
    fitter = Fitter(fonts, pictures, trim)

    def compute() -> tuple[list[Element], Any]:
        return _elements(fitter, layout, slots, seen, at)

    problems: list[Problem] = []
    elements: list[Element] = []
    ink = None
    try:
        if job.design.layout in FREE_SLOTS or any(isinstance(v, Picture) for v in slots.values()):
            elements, ink = compute()
        else:
            elements, ink = kept_side(job.design.layout, fonts, pictures.symbols, trim, slots, compute)
    except InputError as exc:
        problems += exc.problems
    spot = code_spot(job.design, job.comp)
    try:
        _footer(fitter, trim.code if spot is not None else "", job.mark)
    except ValueError as exc:
        problems.append(at.at_design(f"{job.where}.code", str(exc)))
    if (
        game.playtest.feedback
        and job.card is not None
        and spot is not None
        and job.where.startswith("faces.")
    ):
        try:
            elements = [*elements, fitter.fit(feedback_code(game, job.card, trim))]
        except ValueError as exc:
            problems.append(Problem(game.where, None, "playtest.size", f"{at.label}: {exc}"))
    if problems:
        raise InputError(problems)
    return Side(tuple(elements), ink, spot, trim.code, job.mark)


def _elements(
    fitter: Fitter, layout: Layout, slots: Mapping[str, Any], seen: Mapping[str, Any], at: Located
) -> tuple[list[Element], Any]:
    """The layout's elements rendered and fitted, and the ink it asks for the code; InputError with
    every element's problem."""
    try:
        rendered, ink = render_layout(fitter.fonts, fitter.trim, layout, slots, seen)
    except ElementProblem as exc:
        raise InputError([at.element(exc.line, exc.field, exc.message, exc.element)]) from None
    elements, problems = [], []
    for el in rendered:
        try:
            elements.append(fitter.fit(el))
        except ValueError as exc:  # a card's own words: at their cell, when they have one
            own = el if isinstance(exc, ContentProblem) else None
            problems.append(at.element(el.line, f"elements[{layout_index(layout, el)}]", str(exc), own))
    if problems:
        raise InputError(problems)
    return elements, ink


def feedback_code(game: Game, card: CardType, trim: Trim) -> Element:
    """The playtest QR code of a card (`playtest: {feedback: true}`): its code, round and version, in
    the corner of the safe zone `playtest.corner` names."""
    size, corner = game.playtest.size, game.playtest.corner
    x = trim.safe if corner.endswith("left") else trim.w - trim.safe - size
    y = trim.safe if corner.startswith("top") else trim.h - trim.safe - size
    data = card_link(game.code(card), game.round, game.game.version)
    return Element(type="qr", data=data, x=x, y=y, w=size, h=size, quiet=2.0)


def layout_index(layout: Layout, el: Element) -> int:
    """The index of the layout element `el` was rendered from (its line tells them apart)."""
    for i, own in enumerate(layout.elements):
        if own.line == el.line:
            return i
    return 0


def side_layout(game: Game, job: Job) -> tuple[Layout, Mapping[str, Any]]:
    """The layout a side is drawn with (made whole when it extends another) and what its expressions
    see besides the slots; InputError for a layout chain that cannot be made whole."""
    return _layout(game, job, Located(game, job.comp.key, job.design, job.where, job.card))


def _layout(game: Game, job: Job, at: Located) -> tuple[Layout, Mapping[str, Any]]:
    """The design's layout and what its expressions see besides slots: a built-in layout sees only
    the slots; a custom design's own elements (and what it extends) see what slot templates see."""
    design = job.design
    if design.layout not in FREE_SLOTS:
        return builtin()[design.layout], {}
    own = own_layout(design)
    if design.extends:
        try:
            own = whole(own, game, job.where)
        except ExtendsProblem as exc:
            raise InputError(
                [Problem(game.where, exc.line, exc.field, f"{at.label}: {exc.message}")]
            ) from None
    return own, context(game, job.comp, job.card, job.mark, job.set_index)


def resolve_slots(
    game: Game, job: Job, pictures: Pictures | None = None, known: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The design's slots for this card (with `pictures`, an `art` slot as a checked picture);
    InputError with every slot's problem. `known`: the slots already rendered."""
    return _slots(game, job, pictures, Located(game, job.comp.key, job.design, job.where, job.card), known)


def _slots(
    game: Game, job: Job, pictures: Pictures | None, at: Located, known: Mapping[str, Any] | None
) -> dict[str, Any]:
    design = job.design
    problems: list[Problem] = []
    if known is not None and design.layout not in FREE_SLOTS:
        out = dict(known)
    else:
        import jinja2  # lazy: only slots not already rendered need jinja2

        ctx = context(game, job.comp, job.card, job.mark, job.set_index)
        out = {}
        for slot, value in design.slots.items():
            try:
                out[slot] = render_slot(value, ctx)
            except jinja2.TemplateError as exc:
                from pnp.data.templating.hints import explain  # lazy: hints only for a template that failed

                problems.append(at.slot(slot, explain(str(exc.message or exc), value, ctx), None))
            except ValueError as exc:
                problems.append(at.slot(slot, str(exc), None))
    for slot in list(out):
        try:
            _finish(design, slot, out, pictures, game.symbols)
        except ValueError as exc:
            problems.append(at.slot(slot, str(exc), out[slot]))
    if problems:
        raise InputError(problems)
    return out


_SYMBOL = re.compile(r"\{[A-Za-z0-9][A-Za-z0-9_-]*\}")  # an inline symbol, as inline markup reads it


def _finish(
    design: Design, slot: str, out: dict[str, Any], pictures: Pictures | None, own: tuple[str, ...]
) -> None:
    """A rendered slot made ready: bounded, an `art` picture checked, an emblem or pattern known."""
    value = out[slot]
    if isinstance(value, str):
        if len(value) > MAX_SLOT_TEXT:
            raise ValueError(f"renders {len(value)} characters; one slot's text may have {MAX_SLOT_TEXT}")
        symbols = sum(1 for _ in itertools.islice(_SYMBOL.finditer(value), MAX_SLOT_SYMBOLS + 1))
        if symbols > MAX_SLOT_SYMBOLS:
            raise ValueError(
                f"holds more than {MAX_SLOT_SYMBOLS} inline symbols; one slot's text may have {MAX_SLOT_SYMBOLS}"
            )
    typed = design.layout not in FREE_SLOTS or design.extends in builtin()  # the art slot a layout reads
    if slot == "art" and pictures is not None and typed:  # custom: elements use it
        out[slot] = pictures.picture(value) or value
    if slot in ("emblem", "pattern") and value and not has_symbol(str(value), own):
        raise ValueError(unknown_symbol(str(value), own))


def _footer(fitter: Fitter, label: str, mark: Mark | None) -> None:
    """The collation code's and the set mark's glyphs and emblem, as the footer draws them."""
    if label:
        fitter.words(label, "condensed")
    if mark is not None:
        if mark.emblem:
            fitter.symbol(mark.emblem)
        elif mark.label:
            fitter.words(mark.label, "condensed")


def code_spot(design: Design, comp: Component) -> CodeSpot | None:
    """Where a card of `comp` drawn with `design` prints its collation code; None: nowhere."""
    if design.code == "none":
        return None
    if design.code is not None:
        return design.code
    size = card_size(comp.card_size)
    if comp.kind == "tokens" and min(size.w, size.h) < SMALL_TOKEN:
        return None  # the value of a small token fills it: a code would print across it
    return _PLAIN_CODE
