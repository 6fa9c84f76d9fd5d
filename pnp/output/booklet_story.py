"""Booklet content: paragraph styles and the flowables (text, lists, tables, card rows, boards).

Turns parsed markup blocks into ReportLab platypus flowables; pictures of cards
and boards are drawn by the same code that draws the cards and boards.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.colours import darken, lighten
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.draw.context import color
from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.markup import Block
from pnp.draw.pdf import place_form
from pnp.geometry.sizes import pt
from pnp.output import booklet_icons
from pnp.output.board_art import draw_board
from pnp.output.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from pnp.resolve.cards import printed_cards
from pnp.resolve.fonts import Fonts, emphasis
from pnp.resolve.inline_markup import inline, plain


class Para(Paragraph):
    """A Paragraph that breaks its lines once per width.

    Platypus wraps a paragraph again and again at the same width (keep-together
    groups, table rows measured before they are drawn, a frame retrying after a
    page break); the lines depend only on the text, style and width, so the
    last wrap is reused while the width stays the same.
    """

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if getattr(self, "_wrapped_at", None) == availWidth and "blPara" in self.__dict__:
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        self._wrapped_at = availWidth
        return size


BODY_SIZE = 9.6
LEADING = 13.4


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    title: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    cell: ParagraphStyle
    head_cell: ParagraphStyle
    aside: ParagraphStyle
    caption: ParagraphStyle
    accent: Color
    ink: Color
    face: Callable[[str], str]  # a span's font=NAME (a role or family) as a registered font family
    spacer: str | None = None  # inline icons' room keeper (booklet_icons), None: icons as {name}

    def para(self, text: str, style: ParagraphStyle) -> Para:
        """A paragraph of inline markup in `style` (spans sized from its font size)."""
        return Para(inline(text, style.fontSize, self.face, self.spacer), style)


def styles(game: Game, fonts: Fonts) -> Styles:
    _family(fonts)
    ink = color(game.style.ink)
    accent = color(game.style.accent)
    body = ParagraphStyle(
        "body", fontName=fonts.name("serif"), fontSize=BODY_SIZE, leading=LEADING, textColor=ink, spaceAfter=5
    )
    return Styles(
        body=body,
        title=ParagraphStyle(
            "title",
            parent=body,
            fontName=fonts.name("display"),
            fontSize=24,
            leading=28,
            textColor=darken(accent, 0.15),
            alignment=TA_CENTER,
            spaceAfter=4,
        ),
        h2=ParagraphStyle(
            "h2",
            parent=body,
            fontName=fonts.name("display"),
            fontSize=14,
            leading=17,
            textColor=darken(accent, 0.15),
            spaceBefore=9,
            spaceAfter=4,
            keepWithNext=1,
        ),
        h3=ParagraphStyle(
            "h3",
            parent=body,
            fontName=fonts.name("bold"),
            fontSize=10.4,
            leading=13,
            textColor=darken(accent, 0.35),
            spaceBefore=6,
            spaceAfter=2,
            keepWithNext=1,
        ),
        cell=ParagraphStyle("cell", parent=body, fontSize=8.6, leading=11, spaceAfter=0),
        head_cell=ParagraphStyle(
            "head",
            parent=body,
            fontName=fonts.name("bold"),
            fontSize=8.4,
            leading=11,
            textColor=darken(accent, 0.45),
            spaceAfter=0,
        ),
        aside=ParagraphStyle("aside", parent=body, fontSize=9, leading=12.4, spaceAfter=3),
        caption=ParagraphStyle(
            "caption",
            parent=body,
            fontName=fonts.name("condensed"),
            fontSize=7,
            leading=8.4,
            alignment=TA_CENTER,
            textColor=ink,
            spaceAfter=0,
        ),
        accent=accent,
        ink=ink,
        face=lambda role: _role_family(fonts, role),
        spacer=booklet_icons.spacer(),
    )


def _role_family(fonts: Fonts, role: str) -> str:
    """A role's or family's font, registered as a family so <b> and <i> inside a span pick its faces."""
    name = fonts.name(role)
    pdfmetrics.registerFontFamily(
        name,
        normal=name,
        bold=fonts.name(emphasis(role, True, False)),
        italic=fonts.name(emphasis(role, False, True)),
        boldItalic=fonts.name(emphasis(role, True, True)),
    )
    return name


def _family(fonts: Fonts) -> None:
    """Let <b> and <i> inside paragraphs pick the project's fonts (idempotent)."""
    pdfmetrics.registerFontFamily(
        fonts.name("serif"),
        normal=fonts.name("serif"),
        bold=fonts.name("display"),
        italic=fonts.name("serif-italic"),
        boldItalic=fonts.name("display"),
    )
    pdfmetrics.registerFontFamily(
        fonts.name("body"),
        normal=fonts.name("body"),
        bold=fonts.name("bold"),
        italic=fonts.name("italic"),
        boldItalic=fonts.name("bold"),
    )


class Pictures:
    """Card forms for one canvas; each distinct face or back is drawn once per PDF.

    Mutable by design: it remembers the canvas it drew into.
    """

    def __init__(self, game: Game, fonts: Fonts):
        self.game, self.fonts = game, fonts
        self._canvas: Canvas | None = None
        self._forms: FormCache | None = None
        self._boards: dict[str, str] = {}

    def forms(self, c: Canvas) -> FormCache:
        if self._canvas is not c or self._forms is None:
            self._canvas, self._forms, self._boards = c, FormCache(c, self.game, self.fonts, 0.0), {}
        return self._forms

    def board(self, c: Canvas, comp: Component) -> str:
        self.forms(c)
        if comp.key not in self._boards:
            spec = board_of(self.game, comp)
            name = f"BookletBoard_{comp.key}"
            c.beginForm(name, 0, 0, pt(spec.w), pt(spec.h))
            draw_board(c, self.game, spec, self.fonts, comp)
            c.endForm()
            self._boards[comp.key] = name
        return self._boards[comp.key]


class CardRow(Flowable):
    """Card pictures side by side (wrapping to more rows), each with a caption."""

    def __init__(
        self,
        pictures: Pictures,
        items: list[tuple[Component, Any, bool, str]],
        width_mm: float,
        caption_style: ParagraphStyle,
    ):
        super().__init__()
        self.pictures, self.items, self.width_mm, self.caption_style = (
            pictures,
            items,
            width_mm,
            caption_style,
        )
        self.gap = pt(3)

    def _layout(self, avail: float) -> tuple[float, int, float, float]:
        w = pt(self.width_mm)
        per_row = max(1, int((avail + self.gap) // (w + self.gap)))
        per_row = min(per_row, len(self.items))
        size = card_size_of(self.items[0][0])
        h = w * size.h / size.w
        cap = 11 if any(i[3] for i in self.items) else 0
        return w, per_row, h, cap

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        w, per_row, h, cap = self._layout(avail_w)
        rows = -(-len(self.items) // per_row)
        self.avail = avail_w
        self.height = rows * (h + cap) + (rows - 1) * self.gap + pt(2)
        self.width = avail_w
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        forms = self.pictures.forms(c)
        w, per_row, h, cap = self._layout(self.avail)
        for i, (comp, printed, back, caption) in enumerate(self.items):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(self.items) - row * per_row)
            x0 = (self.avail - in_row * w - (in_row - 1) * self.gap) / 2
            x = x0 + col * (w + self.gap)
            y = self.height - (row + 1) * (h + cap) - row * self.gap
            size = card_size_of(comp)
            name = forms.back(comp, printed) if back else forms.face(comp, printed)
            scale = w / pt(size.w)
            c.saveState()
            c.translate(x, y + cap)
            path = c.beginPath()
            path.roundRect(0, 0, w, h, pt(2.5) * scale * 1.6)
            c.clipPath(path, stroke=0, fill=0)
            c.scale(scale, scale)
            c.doForm(name)
            c.restoreState()
            c.setStrokeColor(Color(0.55, 0.55, 0.55))
            c.setLineWidth(0.4)
            c.roundRect(x, y + cap, w, h, pt(2.5) * scale * 1.6, stroke=1, fill=0)
            if caption:
                p = Para(caption, self.caption_style)
                pw, ph = p.wrap(w + self.gap, cap)
                p.drawOn(c, x + w / 2 - pw / 2, y + cap - ph - 1)


class BoardPicture(Flowable):
    """A board scaled to the text width, drawn by the board code."""

    def __init__(self, pictures: Pictures, game: Game, comp: Component, max_h: float):
        super().__init__()
        self.pictures, self.comp, self.max_h = pictures, comp, max_h
        spec = board_of(game, comp)
        self.bw, self.bh = pt(spec.w), pt(spec.h)

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self.scale = min(avail_w / self.bw, self.max_h / self.bh)
        self.width, self.height = avail_w, self.bh * self.scale + pt(2)
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        name = self.pictures.board(c, self.comp)
        place_form(c, name, (self.width - self.bw * self.scale) / 2, pt(1), self.scale)


def _find_card(game: Game, key: str) -> tuple[Component, Any]:
    for comp in game.components:
        if not comp.is_cards:
            continue
        for p in printed_cards(game, comp):
            if p.card.key == key:
                return comp, p
    raise KeyError(key)


def story(
    game: Game,
    blocks: list[Block],
    st: Styles,
    pictures: Pictures,
    frame_w: float,
    frame_h: float,
    where: str,
) -> list[Flowable]:
    """Flowables for the blocks; unknown card or component keys are input problems."""
    out: list[Flowable] = []
    versioned = not game.game.version
    for b in blocks:
        if b.kind == "heading":
            style = st.title if b.level == 1 else st.h2 if b.level == 2 else st.h3
            if b.level == 2:
                out.append(CondPageBreak(pt(30)))
            out.append(st.para(b.text, style))
            if b.level == 1 and not versioned:  # the cover says which print this is
                out.append(st.para(f"*Version {game.game.version}*", st.caption))
                versioned = True
        elif b.kind == "para":
            out.append(st.para(b.text, st.body))
        elif b.kind == "list":
            out.append(_list(b, st))
        elif b.kind == "table":
            out.append(_table(b, st, frame_w))
        elif b.kind == "aside":
            out.append(_aside(b, st))
        elif b.kind in ("cards", "back"):
            out += [
                Spacer(1, 3),
                CardRow(pictures, _card_items(game, b, where), _width(b, where), st.caption),
                Spacer(1, 5),
            ]
        elif b.kind == "board":
            comp = _board(game, b, where)
            out += [
                BoardPicture(pictures, game, comp, frame_h * 0.45),
                st.para(f"*{comp.name}*", st.caption),
                Spacer(1, 6),
            ]
        elif b.kind == "pagebreak":
            out.append(PageBreak())
    return out


def _fail(where: str, block: Block, message: str) -> NoReturn:
    raise InputError([Problem(where, block.line, "", message)])


def _card_items(game: Game, b: Block, where: str) -> list[tuple[Any, Any, bool, Any]]:
    """The cards a [[cards ...]] block shows (with captions), or the backs a [[back ...]] block shows."""
    items = []
    caption_mode = b.options.get("caption", "name" if b.kind == "cards" else "none")
    for key in b.items:
        if b.kind == "back":
            try:
                comp = game.component(key)
            except KeyError:
                _fail(where, b, f"[[back {key}]]: no component {key!r}")
            if not comp.is_cards:
                _fail(where, b, f"[[back {key}]]: {key!r} has no cards")
            items.append((comp, printed_cards(game, comp)[0], True, ""))
            continue
        try:
            comp, p = _find_card(game, key)
        except KeyError:
            _fail(where, b, f"[[cards ...]]: no card with key {key!r} in {game.game.name}")
        cap = {"name": p.card.name, "copies": f"{p.card.name} ×{p.copies}", "none": ""}.get(caption_mode)
        if cap is None:
            _fail(where, b, f"caption={caption_mode}: use name, copies or none")
        items.append((comp, p, False, inline(cap)))
    return items


def _width(b: Block, where: str) -> float:
    """A card picture's width: 5 to 150 mm (a negative, zero or endless width broke the page layout)."""
    try:
        width = float(b.options.get("width", 24))
    except ValueError:
        width = math.nan
    if not 5 <= width <= 150:  # also refuses nan and inf
        _fail(where, b, f"width={b.options.get('width')}: a number of millimetres from 5 to 150")
    return width


def _board(game: Game, b: Block, where: str) -> Any:
    try:
        comp = game.component(b.items[0])
    except KeyError:
        _fail(where, b, f"[[board {b.items[0]}]]: no component {b.items[0]!r}")
    if comp.kind != "board":
        _fail(where, b, f"[[board {comp.key}]]: {comp.key!r} is a {comp.kind}, not a board")
    return comp


def _list(b: Block, st: Styles) -> ListFlowable:
    """Bulleted or numbered list, with one level of bulleted sub-items."""
    items = []
    for k, text in enumerate(b.items):
        parts: list[Flowable] = [st.para(text, st.body)]
        subs = b.children[k] if k < len(b.children) else ()
        if subs:
            parts.append(
                ListFlowable(
                    [ListItem(st.para(t, st.body), leftIndent=11) for t in subs],
                    bulletType="bullet",
                    start="–",
                    leftIndent=11,
                    bulletFontName=st.body.fontName,
                    bulletFontSize=BODY_SIZE,
                    bulletColor=darken(st.accent, 0.1),
                )
            )
        items.append(ListItem(parts, leftIndent=13))
    kw: dict[str, Any] = (
        {"bulletType": "1", "bulletFormat": "%s.", "start": b.start}
        if b.ordered
        else {"bulletType": "bullet", "start": "•"}
    )
    return ListFlowable(
        items,
        leftIndent=13,
        bulletFontName=st.body.fontName,
        bulletFontSize=BODY_SIZE,
        bulletColor=darken(st.accent, 0.1),
        spaceAfter=4,
        **kw,
    )


def _table(b: Block, st: Styles, width: float) -> Flowable:
    header, *body = b.rows
    data = [[st.para(c, st.head_cell) for c in header]]
    data += [[st.para(c, st.cell) for c in row] for row in body]
    # Columns share the width in proportion to their longest words and total text.
    weights = []
    for i in range(len(header)):
        texts = [r[i] for r in b.rows]
        longest = min(25, max(len(w) for t in texts for w in (plain(t).split() or [""])))
        weights.append(
            max(longest * 2.0 + 3, min(60, max(len(plain(t)) for t in texts)))
        )  # 5 to 60: no column
        # ends up narrower than its padding, however long one word in another column is
    total = sum(weights)
    t = Table(data, colWidths=[width * w / total for w in weights], repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), lighten(st.accent, 0.78)),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, darken(st.accent, 0.1)),
                ("LINEBELOW", (0, -1), (-1, -1), 0.6, darken(st.accent, 0.1)),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, lighten(st.accent, 0.92)]),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("FONTNAME", (0, 0), (-1, -1), st.body.fontName),  # cells are paragraphs; keep Helvetica out
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 2.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    t.spaceBefore, t.spaceAfter = 3, 8
    return KeepTogether([t]) if len(b.rows) <= 14 else t


def _aside(b: Block, st: Styles) -> Table:
    paras = [st.para(p, st.aside) for p in b.items]
    t = Table([[paras]], colWidths=["100%"])
    t.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, -1), lighten(st.accent, 0.9)),
                ("LINEBEFORE", (0, 0), (0, -1), 2.2, st.accent),
                ("FONTNAME", (0, 0), (-1, -1), st.body.fontName),
                ("LEFTPADDING", (0, 0), (-1, -1), 8),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    t.spaceBefore, t.spaceAfter = 3, 8
    return t
