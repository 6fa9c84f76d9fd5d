"""A deck's tuck box as a PDF: the net with the deck's back on its front and back, its name on the
sides and lid, cut lines solid, folds dashed, glue strips marked, on the sheet paper or A3 when larger."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab_save as rls
from pnp.data.format.colours import mix
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.draw.context import BLACK, color, scale_bar
from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.pdf import canvas, place_form
from pnp.geometry.sizes import Size, paper_size, pt
from pnp.geometry.tuckbox import SLEEVE_ROOM, SLEEVED, THICKNESS, Piece, TuckBox, tuck_box
from pnp.output.steps import BuildOptions, Output, Step
from pnp.resolve.cards import Printed, printed_cards
from pnp.resolve.fonts import Fonts

CUT_WIDTH, FOLD_WIDTH = 0.5, 0.4  # points
LARGER = {"letter": "tabloid"}  # the paper a box goes on when it is too large for the sheets' paper


def box_for(game: Game, comp: Component, options: BuildOptions) -> tuple[TuckBox, Size, list[Printed]]:
    """The box a deck needs (its printed cards, at the card thickness asked for) and the paper it fits,
    portrait or landscape, inside the margin: the sheets' paper, else A3 (tabloid for Letter)."""
    cards = printed_cards(game, comp, options.counts)
    count = sum(p.copies for p in cards)
    thickness = options.card_thickness or (SLEEVED if options.sleeved else THICKNESS)
    try:
        box = tuck_box(card_size_of(comp), count, thickness, SLEEVE_ROOM if options.sleeved else 0.0)
    except ValueError as exc:
        raise InputError([Problem(game.where, comp.line, f"{comp.key}.tuckbox", str(exc))]) from None
    need, m = box.size, options.sheets.margin
    papers = [options.sheets.paper, paper_size(LARGER.get(options.sheets.paper.name, "a3"))]
    for paper in papers:
        for page in (paper.portrait, paper.landscape):
            if need.w <= page.w - 2 * m and need.h <= page.h - 2 * m:
                return box, page, cards
    raise InputError(
        [
            Problem(
                game.where,
                comp.line,
                f"{comp.key}.tuckbox",
                f"a tuck box for {count} cards of {card_size_of(comp).label()} is "
                f"{need.w:.0f} x {need.h:.0f} mm laid flat: larger than "
                f"{' and '.join(p.label() for p in papers)} inside a {m:g} mm margin",
            )
        ]
    )


def tuckbox_step(game: Game, comp: Component, options: BuildOptions) -> Step:
    """A step writing `<game>/<deck>-tuckbox.pdf` (input problems raised now, while planning)."""
    box, page, cards = box_for(game, comp, options)
    rel = f"{game.slug}/{comp.key}-tuckbox.pdf"

    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        c = canvas(
            path,
            game.say("tuckbox_document", game=game.game.name, deck=comp.name),
            (pt(page.w), pt(page.h)),
            fonts.name("body"),
        )
        draw_box(c, game, comp, box, page, cards, fonts)
        c.showPage()
        rls.save(c)
        tick()
        return Output(rel, game.tag, comp.key, "tuckbox", 1, (box.inner[0], box.inner[1]), box.cards)

    return Step(f"{game.tag} {comp.name} tuck box", 1, run)


def draw_box(
    c: Canvas, game: Game, comp: Component, box: TuckBox, page: Size, cards: list[Printed], fonts: Fonts
) -> None:
    """The net centred on the page: faces, sides, flaps and glue strips, then folds and cuts, and a label."""
    need = box.size
    ox, oy = (page.w - need.w) / 2, (page.h - need.h) / 2
    forms = FormCache(c, game, fonts, 0.0)
    back = forms.back(comp, cards[0])
    accent, paper = color(game.style.accent), color(game.style.paper)
    tint = color(mix(game.style.accent, game.style.paper, 0.75))
    c.saveState()
    c.translate(pt(ox), pt(oy))
    for piece in box.pieces:
        _fill(c, piece, {"face": accent, "side": accent, "flap": tint, "glue": paper}[piece.kind])
        if piece.kind == "face":
            _face(c, piece, back, card_size_of(comp))
        elif piece.kind == "glue":
            _label(c, fonts, piece, game.say("glue"), color("#777777"), 7)
        elif piece.name in ("side", "lid"):
            _label(c, fonts, piece, comp.name, paper if piece.kind == "side" else BLACK, 9)
    _edges(c, box)
    c.restoreState()
    w, h, d = box.inner
    text = game.say(
        "tuckbox", game=game.game.name, deck=comp.name, count=box.cards, w=f"{w:g}", h=f"{h:g}", d=f"{d:g}"
    )
    fonts.check(text, "body")
    c.setFont(fonts.name("body"), fonts.fit(text, "body", pt(page.w - 2 * 8), 6.5, 4.5))
    c.setFillColor(color("#333333"))
    text_y = min(oy / 2, 8.0) + 5.0 if oy > 12 else page.h - 9.0
    c.drawCentredString(pt(page.w / 2), pt(text_y), text)
    x, y, turned = _bar_spot(box, page, ox, oy, text_y)
    c.saveState()
    c.translate(pt(x), pt(y))
    if turned:
        c.rotate(90)
    scale_bar(c, 0, 0, fonts, game.say("scale_bar"))
    c.restoreState()


BAR_W, BAR_H, BAR_CLEAR = 58.0, 2.5, 2.0  # mm: the 50 mm bar with its label; kept this far off the net


def _bar_spot(box: TuckBox, page: Size, ox: float, oy: float, text_y: float) -> tuple[float, float, bool]:
    """Where the 50 mm scale bar goes (its lower left, mm, and whether it runs up the page): off the net,
    inside the printable area (5 mm in) and clear of the label; below the net, above it, beside it, or
    else on the scrap below the back panel and glue strip, which the net always leaves."""
    need, m = box.size, 5.0
    label = (text_y - 1.0, text_y + 3.0)  # the label line's height
    x_mid = (page.w - BAR_W) / 2
    if oy - BAR_CLEAR - BAR_H >= max(m, label[1] + 1.0 if text_y < oy else m):
        return x_mid, oy - BAR_CLEAR - BAR_H, False  # below the net, above the label
    top = oy + need.h + BAR_CLEAR
    if top + BAR_H <= min(page.h - m, label[0] - 1.0 if text_y > oy else page.h - m):
        return x_mid, top, False
    y_mid = (page.h - BAR_W) / 2
    if ox - BAR_CLEAR - BAR_H >= m:  # beside the net, running up the page (drawn turned: x is its top edge)
        return ox - BAR_CLEAR, y_mid, True
    if page.w - (ox + need.w + BAR_CLEAR) - BAR_H >= m:
        return ox + need.w + BAR_CLEAR + BAR_H, y_mid, True
    back = box.piece("back").box()
    return ox + max(BAR_CLEAR, back[2] - BAR_W - BAR_CLEAR), oy + (back[1] - BAR_H) / 2, False


def _path(c: Canvas, piece: Piece, x: float = 0.0, y: float = 0.0, sx: float = 1.0, sy: float = 1.0):
    path = c.beginPath()
    (x0, y0), *rest = piece.points
    path.moveTo(pt((x0 - x) / sx), pt((y0 - y) / sy))
    for px, py in rest:
        path.lineTo(pt((px - x) / sx), pt((py - y) / sy))
    path.close()
    return path


def _fill(c: Canvas, piece: Piece, ink: object) -> None:
    c.setFillColor(ink)
    c.drawPath(_path(c, piece), stroke=0, fill=1)


def _face(c: Canvas, piece: Piece, form: str, card: Size) -> None:
    """The deck's back design stretched over a face panel (a hair larger than a card), clipped to its
    outline (the front's thumb notch)."""
    x0, y0, x1, y1 = piece.box()
    sx, sy = (x1 - x0) / card.w, (y1 - y0) / card.h
    place_form(
        c,
        form,
        pt(x0),
        pt(y0),
        sx,
        sy,
        clip=lambda: c.clipPath(_path(c, piece, x0, y0, sx, sy), stroke=0, fill=0),
    )


def _label(c: Canvas, fonts: Fonts, piece: Piece, text: str, ink: object, size: float) -> None:
    """Text along the piece's longer side, centred."""
    x0, y0, x1, y1 = piece.box()
    long_side = max(x1 - x0, y1 - y0)
    fonts.check(text, "display")
    c.saveState()
    c.translate(pt((x0 + x1) / 2), pt((y0 + y1) / 2))
    if y1 - y0 > x1 - x0:
        c.rotate(90)
    c.setFillColor(ink)
    s = fonts.fit(text, "display", pt(long_side - 6), size, 4.0)
    c.setFont(fonts.name("display"), s)
    c.drawCentredString(0, -s * 0.35, text)
    c.restoreState()


def _edges(c: Canvas, box: TuckBox) -> None:
    """Folds dashed (each once), then every cut edge solid, over the pieces."""
    folds, cuts = set(), []
    for piece in box.pieces:
        for a, b, fold in piece.edges():
            key = tuple(sorted((tuple(round(v, 4) for v in a), tuple(round(v, 4) for v in b))))
            if fold:
                folds.add(key)
            else:
                cuts.append(key)
    c.setStrokeColor(color("#555555"))
    c.setLineWidth(FOLD_WIDTH)
    c.setDash([2.5, 2], 0)
    for (x0, y0), (x1, y1) in sorted(folds):
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))
    c.setDash([], 0)
    c.setStrokeColor(BLACK)
    c.setLineWidth(CUT_WIDTH)
    for (x0, y0), (x1, y1) in sorted(set(cuts) - folds):
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))
