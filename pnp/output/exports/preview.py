"""`pnp preview`: one contact-sheet PNG per deck, every distinct card small with its count.

The sheet is drawn as a PDF page (cards are the sheets' own form XObjects,
captions use the project's fonts) and rasterised by PDFium.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.colours import on
from pnp.draw.context import color
from pnp.draw.faces import FormCache, card_size_of
from pnp.geometry.sizes import pt
from pnp.output.exports.naming import Target, back_key, distinct_backs, safe
from pnp.output.exports.output import folder
from pnp.output.exports.pngfile import png_bytes, save_png
from pnp.output.exports.raster import page_png
from pnp.output.exports.setup import Scenes, Setup
from pnp.output.workers import run_all
from pnp.resolve.fonts import Fonts
from pnp.resolve.inline_markup import plain

CARD_W = 108.0  # points: each card about 38 mm wide
GAP = 16.0
CAPTION = 24.0
MARGIN = 24.0
HEADER = 66.0
MAX_PX = 2400  # widest picture
BACKGROUND = "#ebe6dc"


@dataclass(frozen=True)
class Tile:
    index: int  # into the printed cards
    side: str  # face | back
    count: int  # physical cards it stands for
    caption: str
    code: str


@dataclass(frozen=True)
class PreviewJob:
    game: str
    comp: str
    path: str
    vision: str = ""  # as a reader with this colour vision sees it (pnp.output.access.vision); "": as printed


def tiles(t: Target, scenes: Scenes) -> list[Tile]:
    """Every distinct face with its copies, then every distinct back with how many cards carry it."""
    cards = scenes[t.game.slug].printed(t.comp.key)
    out = [
        Tile(
            i, "face", p.copies, plain(p.card.name), p.code + (f" · set {p.set_index}" if p.set_index else "")
        )
        for i, p in enumerate(cards)
    ]
    for i in distinct_backs(t.comp, cards):
        key = back_key(t.comp, cards[i])
        n = sum(p.copies for p in cards if back_key(t.comp, p) == key)
        out.append(Tile(i, "back", n, "back", key[0] + (f" · set {key[1]}" if key[1] else "")))
    return out


def draw_preview(scenes: Scenes, job: PreviewJob) -> int:
    """Worker: draw one component's contact sheet and rasterise it (once ever: an unchanged drawing comes
    from the cache); returns the tile count."""
    scene = scenes[job.game]
    comp = scene.game.component(job.comp)
    t = Target(scene.game, comp)
    items = tiles(t, scenes)
    pdf, width = contact_sheet(t, scene.fonts, items, scene.printed(comp.key))
    dpi = min(144.0, MAX_PX / width * 72)
    png = page_png(pdf, dpi)
    if job.vision:
        from pnp.output.access.vision import simulate_image  # lazy: numpy only for --vision

        png = png_bytes(simulate_image(Image.open(io.BytesIO(png)), job.vision), dpi)
    save_png(png, job.path)
    return len(items)


def contact_sheet(t: Target, fonts: Fonts, items: list[Tile], cards: list) -> tuple[bytes, float]:
    """The contact sheet as a one-page PDF, and its width in points."""
    game, comp = t.game, t.comp
    size = card_size_of(comp)
    k = CARD_W / pt(size.w)
    cw, ch = CARD_W, pt(size.h) * k
    n = len(items)
    cols = n if n <= 8 else min(12, max(8, math.ceil(math.sqrt(n * 1.6))))
    rows = math.ceil(n / cols)
    width = 2 * MARGIN + cols * cw + (cols - 1) * GAP
    height = HEADER + MARGIN + rows * (ch + CAPTION) + (rows - 1) * GAP
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(width, height), invariant=1, pageCompression=0)
    forms = FormCache(c, game, fonts, 0.0)
    c.setFillColor(color(BACKGROUND))
    c.rect(0, 0, width, height, stroke=0, fill=1)
    ink, accent = color(game.style.ink), color(game.style.accent)
    total = sum(p.copies for p in cards)
    faces = sum(1 for i in items if i.side == "face")
    backs = n - faces
    _text(
        c,
        fonts,
        MARGIN,
        height - MARGIN - 10,
        f"{game.game.name} · {comp.name}",
        "display",
        16,
        ink,
        width - 2 * MARGIN,
    )
    _text(
        c,
        fonts,
        MARGIN,
        height - MARGIN - 26,
        f"{total} cards · {faces} different face{'s' * (faces != 1)} · {backs} back{'s' * (backs != 1)} · "
        f"{size.label()}",
        "body",
        9,
        color("#4a4453"),
        width - 2 * MARGIN,
    )
    radius = pt(3.0) * k
    for slot, item in enumerate(items):
        col, row = slot % cols, slot // cols
        x = MARGIN + col * (cw + GAP)
        y = height - HEADER - (row + 1) * (ch + CAPTION) - row * GAP + CAPTION
        p = cards[item.index]
        name = forms.face(comp, p) if item.side == "face" else forms.back(comp, p)
        c.setFillColor(color("#c9c2b4"))
        c.roundRect(x + 1.5, y - 1.5, cw, ch, radius, stroke=0, fill=1)  # shadow
        c.saveState()
        path = c.beginPath()
        path.roundRect(x, y, cw, ch, radius)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(x, y)
        c.scale(k, k)
        c.doForm(name)
        c.restoreState()
        label = f"×{item.count}"
        fonts.check(label, "bold")
        bw = fonts.width(label, "bold", 9) + 10
        c.setFillColor(accent)
        c.setStrokeColor(color("#ffffff"))
        c.setLineWidth(1.2)
        c.roundRect(x + cw - bw + 4, y + ch - 8, bw, 15, 7.5, stroke=1, fill=1)
        _text(c, fonts, x + cw - bw / 2 + 4, y + ch - 4, label, "bold", 9, on(accent), bw, align="center")
        _text(c, fonts, x + cw / 2, y - 11, item.caption, "body", 8, ink, cw, align="center")
        _text(c, fonts, x + cw / 2, y - 20, item.code, "condensed", 6.5, color("#6b6475"), cw, align="center")
    c.showPage()
    c.save()
    return buf.getvalue(), width


def _text(
    c: Canvas,
    fonts: Fonts,
    x: float,
    y: float,
    text: str,
    role: str,
    size: float,
    fill: object,
    max_width: float,
    align: str = "left",
) -> None:
    fonts.check(text, role)
    c.setFont(fonts.name(role), fonts.fit(text, role, max_width, size, 4.0))
    c.setFillColor(fill)
    (c.drawCentredString if align == "center" else c.drawString)(x, y, text)


def export_preview(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    vision: str = "",
) -> list[Path]:
    """One contact sheet per component under stage/<game>/preview/ (with `vision`: preview-VISION/, as a
    reader with that colour vision sees it); returns their paths."""
    kind = f"preview-{vision}" if vision else "preview"
    work = [
        PreviewJob(
            t.game.slug, t.comp.key, str(folder(stage, t.game, kind) / f"{safe(t.comp.key)}.png"), vision
        )
        for t in targets
    ]
    run_all(draw_preview, work, setup.scenes, jobs, progress)
    return [Path(j.path) for j in work]
