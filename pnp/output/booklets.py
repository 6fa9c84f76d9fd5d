"""Rule booklets: template text -> blocks -> ReportLab platypus pages, plain and saddle-stitched.

Pages are half the chosen paper (A5 for A4, half-letter for Letter), so the
saddle-stitched version puts two pages side by side on each side of a
landscape sheet without scaling. Card and board pictures are drawn by the
same code that draws the cards and boards.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from pnp import __version__
from pnp.output.boards import draw_board
from pnp.output.boardspec import parse_board
from pnp.output.booklet_text import render
from pnp.draw.context import color, darken, lighten
from pnp.data.errors import InputError, Problem
from pnp.draw.faces import FormCache, card_size_of, printed_cards
from pnp.draw.fonts import Fonts, MissingGlyph
from pnp.geometry.sizes import Size, pt
from pnp.geometry.imposition import saddle_order
from pnp.draw.markup import Block, MarkupError, inline, parse, plain
from pnp.data.model import Component, Game
from pnp.draw.pdf import place_form
from pnp.output.steps import Output, Step

BODY_SIZE = 9.6
LEADING = 13.4
MARGINS = (13.0, 13.0, 14.0, 17.0)  # left, right, top, bottom (mm)


def page_size(paper: Size) -> Size:
    """A booklet page: half a sheet of the paper, portrait."""
    p = paper.portrait
    return Size(p.h / 2, p.w, f"half {p.name}" if p.name else "")


# -- building blocks --------------------------------------------------------------------------

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


def styles(game: Game, fonts: Fonts) -> Styles:
    _family(fonts)
    ink = color(game.style.ink)
    accent = color(game.style.accent)
    body = ParagraphStyle("body", fontName=fonts.name("serif"), fontSize=BODY_SIZE, leading=LEADING,
                          textColor=ink, spaceAfter=5)
    return Styles(
        body=body,
        title=ParagraphStyle("title", parent=body, fontName=fonts.name("display"), fontSize=24, leading=28,
                             textColor=darken(accent, 0.15), alignment=TA_CENTER, spaceAfter=4),
        h2=ParagraphStyle("h2", parent=body, fontName=fonts.name("display"), fontSize=14, leading=17,
                          textColor=darken(accent, 0.15), spaceBefore=9, spaceAfter=4, keepWithNext=1),
        h3=ParagraphStyle("h3", parent=body, fontName=fonts.name("bold"), fontSize=10.4, leading=13,
                          textColor=darken(accent, 0.35), spaceBefore=6, spaceAfter=2, keepWithNext=1),
        cell=ParagraphStyle("cell", parent=body, fontSize=8.6, leading=11, spaceAfter=0),
        head_cell=ParagraphStyle("head", parent=body, fontName=fonts.name("bold"), fontSize=8.4, leading=11,
                                 textColor=darken(accent, 0.45), spaceAfter=0),
        aside=ParagraphStyle("aside", parent=body, fontSize=9, leading=12.4, spaceAfter=3),
        caption=ParagraphStyle("caption", parent=body, fontName=fonts.name("condensed"), fontSize=7,
                               leading=8.4, alignment=TA_CENTER, textColor=ink, spaceAfter=0),
        accent=accent, ink=ink)


def _family(fonts: Fonts) -> None:
    """Let <b> and <i> inside paragraphs pick the project's fonts (idempotent)."""
    pdfmetrics.registerFontFamily(fonts.name("serif"), normal=fonts.name("serif"), bold=fonts.name("display"),
                                  italic=fonts.name("serif-italic"), boldItalic=fonts.name("display"))
    pdfmetrics.registerFontFamily(fonts.name("body"), normal=fonts.name("body"), bold=fonts.name("bold"),
                                  italic=fonts.name("italic"), boldItalic=fonts.name("bold"))


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
            spec = parse_board(self.game, comp)
            name = f"BookletBoard_{comp.key}"
            c.beginForm(name, 0, 0, pt(spec.w), pt(spec.h))
            draw_board(c, self.game, spec, self.fonts)
            c.endForm()
            self._boards[comp.key] = name
        return self._boards[comp.key]


class CardRow(Flowable):
    """Card pictures side by side (wrapping to more rows), each with a caption."""

    def __init__(self, pictures: Pictures, items: list[tuple[Component, Any, bool, str]], width_mm: float,
                 caption_style: ParagraphStyle):
        super().__init__()
        self.pictures, self.items, self.width_mm, self.caption_style = pictures, items, width_mm, caption_style
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
                p = Paragraph(caption, self.caption_style)
                pw, ph = p.wrap(w + self.gap, cap)
                p.drawOn(c, x + w / 2 - pw / 2, y + cap - ph - 1)


class BoardPicture(Flowable):
    """A board scaled to the text width, drawn by the board code."""

    def __init__(self, pictures: Pictures, game: Game, comp: Component, max_h: float):
        super().__init__()
        self.pictures, self.comp, self.max_h = pictures, comp, max_h
        spec = parse_board(game, comp)
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


def story(game: Game, blocks: list[Block], st: Styles, pictures: Pictures, frame_w: float, frame_h: float,
          where: str) -> list[Flowable]:
    """Flowables for the blocks; unknown card or component keys are input problems."""
    out: list[Flowable] = []

    def fail(block: Block, message: str) -> None:
        raise InputError([Problem(where, block.line, "", message)])

    for b in blocks:
        if b.kind == "heading":
            style = st.title if b.level == 1 else st.h2 if b.level == 2 else st.h3
            if b.level == 2:
                out.append(CondPageBreak(pt(30)))
            out.append(Paragraph(inline(b.text), style))
        elif b.kind == "para":
            out.append(Paragraph(inline(b.text), st.body))
        elif b.kind == "list":
            out.append(_list(b, st))
        elif b.kind == "table":
            out.append(_table(b, st, frame_w))
        elif b.kind == "aside":
            out.append(_aside(b, st))
        elif b.kind in ("cards", "back"):
            items = []
            caption_mode = b.options.get("caption", "name" if b.kind == "cards" else "none")
            for key in b.items:
                if b.kind == "back":
                    try:
                        comp = game.component(key)
                    except KeyError:
                        fail(b, f"[[back {key}]]: no component {key!r}")
                    if not comp.is_cards:
                        fail(b, f"[[back {key}]]: {key!r} has no cards")
                    p = printed_cards(game, comp)[0]
                    items.append((comp, p, True, ""))
                    continue
                try:
                    comp, p = _find_card(game, key)
                except KeyError:
                    fail(b, f"[[cards ...]]: no card with key {key!r} in {game.game.name}")
                cap = {"name": p.card.name, "copies": f"{p.card.name} ×{p.copies}", "none": ""}.get(caption_mode)
                if cap is None:
                    fail(b, f"caption={caption_mode}: use name, copies or none")
                items.append((comp, p, False, inline(cap)))
            try:
                width = float(b.options.get("width", 24))
            except ValueError:
                fail(b, f"width={b.options.get('width')}: a number of millimetres")
            out.append(Spacer(1, 3))
            out.append(CardRow(pictures, items, width, st.caption))
            out.append(Spacer(1, 5))
        elif b.kind == "board":
            try:
                comp = game.component(b.items[0])
            except KeyError:
                fail(b, f"[[board {b.items[0]}]]: no component {b.items[0]!r}")
            if comp.kind != "board":
                fail(b, f"[[board {comp.key}]]: {comp.key!r} is a {comp.kind}, not a board")
            out.append(BoardPicture(pictures, game, comp, frame_h * 0.45))
            out.append(Paragraph(inline(f"*{comp.name}*"), st.caption))
            out.append(Spacer(1, 6))
        elif b.kind == "pagebreak":
            out.append(PageBreak())
    return out


def _list(b: Block, st: Styles) -> ListFlowable:
    """Bulleted or numbered list, with one level of bulleted sub-items."""
    items = []
    for k, text in enumerate(b.items):
        parts: list[Flowable] = [Paragraph(inline(text), st.body)]
        subs = b.children[k] if k < len(b.children) else ()
        if subs:
            parts.append(ListFlowable([ListItem(Paragraph(inline(t), st.body), leftIndent=11) for t in subs],
                                      bulletType="bullet", start="–", leftIndent=11,
                                      bulletFontName=st.body.fontName, bulletFontSize=BODY_SIZE,
                                      bulletColor=darken(st.accent, 0.1)))
        items.append(ListItem(parts, leftIndent=13))
    kw: dict[str, Any] = ({"bulletType": "1", "bulletFormat": "%s.", "start": b.start} if b.ordered
                          else {"bulletType": "bullet", "start": "•"})
    return ListFlowable(items, leftIndent=13, bulletFontName=st.body.fontName, bulletFontSize=BODY_SIZE,
                        bulletColor=darken(st.accent, 0.1), spaceAfter=4, **kw)


def _table(b: Block, st: Styles, width: float) -> Flowable:
    header, *body = b.rows
    data = [[Paragraph(inline(c), st.head_cell) for c in header]]
    data += [[Paragraph(inline(c), st.cell) for c in row] for row in body]
    # Columns share the width in proportion to their longest words and total text.
    weights = []
    for i in range(len(header)):
        texts = [r[i] for r in b.rows]
        longest = max(len(w) for t in texts for w in (plain(t).split() or [""]))
        weights.append(max(longest * 2.0 + 3, min(60, max(len(plain(t)) for t in texts))))
    total = sum(weights)
    t = Table(data, colWidths=[width * w / total for w in weights], repeatRows=1)
    t.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), lighten(st.accent, 0.78)),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, darken(st.accent, 0.1)),
        ("LINEBELOW", (0, -1), (-1, -1), 0.6, darken(st.accent, 0.1)),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, lighten(st.accent, 0.92)]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), st.body.fontName),  # cells are paragraphs; keep Helvetica out
        ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    t.spaceBefore, t.spaceAfter = 3, 8
    return KeepTogether([t]) if len(b.rows) <= 14 else t


def _aside(b: Block, st: Styles) -> Table:
    paras = [Paragraph(inline(p), st.aside) for p in b.items]
    t = Table([[paras]], colWidths=["100%"])
    t.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, -1), lighten(st.accent, 0.9)),
        ("LINEBEFORE", (0, 0), (0, -1), 2.2, st.accent),
        ("FONTNAME", (0, 0), (-1, -1), st.body.fontName),
        ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    t.spaceBefore, t.spaceAfter = 3, 8
    return t


# -- documents --------------------------------------------------------------------------------

def check_glyphs(blocks: list[Block], fonts: Fonts, where: str) -> None:
    """Every character must exist in the fonts that will draw it (no empty boxes)."""
    problems = []
    for b in blocks:
        texts = [b.text, *b.items, *(c for r in b.rows for c in r), *(t for ch in b.children for t in ch)]
        for t in texts:
            for role in ("serif", "bold"):
                try:
                    fonts.check(plain(t), role)
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
    text = render(game, comp)
    where = f"templates/{comp.template} (rendered)"
    try:
        blocks = parse(text)
    except MarkupError as exc:
        raise InputError([Problem(where, exc.line, "", str(exc).split(": ", 1)[-1])]) from None
    if fonts is not None:
        check_glyphs(blocks, fonts, where)
    return Prepared(game, comp, tuple(blocks), where)


def _doc(path: Path, game: Game, comp: Component, page: Size) -> SimpleDocTemplate:
    left, right, top, bottom = MARGINS
    return SimpleDocTemplate(str(path), pagesize=(pt(page.w), pt(page.h)), leftMargin=pt(left),
                             rightMargin=pt(right), topMargin=pt(top), bottomMargin=pt(bottom),
                             title=f"{game.game.name}: {comp.name}", author="fairy-pnp",
                             creator=f"fairy-pnp {__version__}", producer="fairy-pnp with ReportLab",
                             invariant=1, pageCompression=1)


def _decorate(game: Game, fonts: Fonts, st: Styles) -> Callable[[Canvas, Any], None]:
    def on_page(c: Canvas, doc: Any) -> None:
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


def layout(prep: Prepared, path: Path, paper: Size, fonts: Fonts,
           canvasmaker: Callable[..., Canvas] = Canvas) -> None:
    """Lay the booklet out on half-sheet pages into `path` (through `canvasmaker`)."""
    page = page_size(paper)
    doc = _doc(path, prep.game, prep.comp, page)
    st = styles(prep.game, fonts)
    pictures = Pictures(prep.game, fonts)
    flow = story(prep.game, list(prep.blocks), st, pictures, doc.width, doc.height, prep.where)
    deco = _decorate(prep.game, fonts, st)
    doc.build(flow, onFirstPage=deco, onLaterPages=deco, canvasmaker=canvasmaker)


def write_plain(prep: Prepared, path: Path, paper: Size, fonts: Fonts) -> int:
    """The booklet as ordinary pages in reading order; returns the page count."""
    made: list[Canvas] = []

    def maker(*a: Any, **kw: Any) -> Canvas:
        c = Canvas(*a, **{**kw, "initialFontName": fonts.name("body")})
        made.append(c)
        return c

    layout(prep, path, paper, fonts, maker)
    return made[0].getPageNumber() - 1


class ImposingCanvas(Canvas):
    """Keeps every laid-out page as a form XObject; `save` prints them as saddle-stitched sheets.

    Sheets are landscape, two pages side by side. With a long-edge duplex
    flip every back side is turned half round so it still reads upright.
    """

    def __init__(self, *a: Any, sheet: Size, duplex: str, **kw: Any):
        super().__init__(*a, **kw)
        self.sheet, self.duplex = sheet.landscape, duplex
        self.page_forms: list[str] = []
        self._open()

    def _open(self) -> None:
        w, h = self._pagesize
        self.beginForm(f"BookletPage{len(self.page_forms) + 1}", 0, 0, w, h)

    def showPage(self) -> None:
        self.endForm()
        self.page_forms.append(f"BookletPage{len(self.page_forms) + 1}")
        self._pageNumber += 1  # what Canvas.showPage would count; page footers read it
        self._open()

    def save(self) -> None:
        self.endForm()  # the empty form opened after the last page; never placed
        half = pt(self.sheet.w) / 2
        W, H = pt(self.sheet.w), pt(self.sheet.h)
        for sheet in saddle_order(len(self.page_forms)):
            for side, (left, right) in enumerate(((sheet.front_left, sheet.front_right),
                                                  (sheet.back_left, sheet.back_right))):
                self.setPageSize((W, H))
                self.saveState()
                if side == 1 and self.duplex == "long":
                    self.translate(W, H)
                    self.rotate(180)
                for x, number in ((0.0, left), (half, right)):
                    if number is not None:
                        self.saveState()
                        self.translate(x, 0)
                        self.doForm(self.page_forms[number - 1])
                        self.restoreState()
                self.restoreState()
                Canvas.showPage(self)
        Canvas.save(self)


def write_imposed(prep: Prepared, path: Path, paper: Size, duplex: str, fonts: Fonts) -> tuple[int, int]:
    """The saddle-stitched booklet; returns (booklet pages, printed sheet sides)."""
    made: list[ImposingCanvas] = []

    def maker(*a: Any, **kw: Any) -> Canvas:
        c = ImposingCanvas(*a, sheet=paper, duplex=duplex, **{**kw, "initialFontName": fonts.name("body")})
        made.append(c)
        return c

    layout(prep, path, paper, fonts, maker)
    n = len(made[0].page_forms)
    return n, 2 * len(saddle_order(n))


# -- build steps ------------------------------------------------------------------------------

def booklet_step(game: Game, comp: Component, options: Any) -> list:
    """Two build steps: `<game>/<key>.pdf` (plain pages) and `<game>/<key>-booklet.pdf` (imposed)."""

    prep = prepare(game, comp)  # template and markup problems surface while planning
    paper = options.sheets.paper
    duplex = options.sheets.duplex
    plain_rel = f"{game.slug}/{comp.key}.pdf"
    imposed_rel = f"{game.slug}/{comp.key}-booklet.pdf"

    def run_plain(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        check_glyphs(list(prep.blocks), fonts, prep.where)
        path = stage / plain_rel
        path.parent.mkdir(parents=True, exist_ok=True)
        pages = write_plain(prep, path, paper, fonts)
        tick()
        return Output(plain_rel, game.tag, comp.key, "booklet", pages)

    def run_imposed(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        path = stage / imposed_rel
        path.parent.mkdir(parents=True, exist_ok=True)
        _, sides = write_imposed(prep, path, paper, duplex, fonts)
        tick()
        return Output(imposed_rel, game.tag, comp.key, "booklet", sides)

    return [Step(f"{game.tag} {comp.name}", 2, run_plain),
            Step(f"{game.tag} {comp.name} (saddle-stitched)", 2, run_imposed)]
