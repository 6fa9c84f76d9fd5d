"""Single cards as pictures: the sheets' own form XObjects on one-card pages, rasterised by PDFium."""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

import pypdfium2
from PIL import Image
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Game
from pnp.draw.context import color
from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.pdf import place_form
from pnp.output.exports.pngfile import LEVEL, png_from_rows, scanlines
from pnp.output.exports.profiles import Frame
from pnp.resolve.cards import Printed, printed_cards
from pnp.resolve.fonts import Fonts


@dataclass(frozen=True)
class Request:
    """One picture to make: a printed card's face or back, in a frame."""

    comp: str  # component key
    index: int  # position in printed_cards(game, comp, counts)
    side: str  # "face" | "back"
    frame: Frame


@dataclass(frozen=True)
class Scene:
    """What drawing needs beside the requests: the game, its fonts and the set counts."""

    game: Game
    fonts: Fonts
    counts: tuple[tuple[str, int], ...] = ()

    def printed(self, comp: str) -> list[Printed]:
        return printed_cards(self.game, self.game.component(comp), dict(self.counts))


def draw_pdf(scene: Scene, requests: list[Request]) -> bytes:
    """One page per request, all sharing a component and frame, drawn with one FormCache."""
    comp = scene.game.component(requests[0].comp)
    frame = requests[0].frame
    assert all(r.comp == comp.key and r.frame == frame for r in requests)
    size = card_size_of(comp)
    cards = scene.printed(comp.key)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=frame.page_pt, invariant=1, pageCompression=0)
    forms = FormCache(c, scene.game, scene.fonts, frame.bleed_mm(size))
    x, y, sx, sy = frame.placement(size)
    for r in requests:
        p = cards[r.index]
        name = forms.face(comp, p) if r.side == "face" else forms.back(comp, p)
        c.setPageSize(frame.page_pt)
        place_form(c, name, x, y, sx, sy)
        c.showPage()
    c.save()
    return buf.getvalue()


# PDFium is one C library per process and not thread-safe: every use of it, from any thread (two
# preview servers in one process, a build beside a server), takes this lock.
PDFIUM = threading.RLock()


def rasterise(pdf: bytes, dpi: float, sizes: list[tuple[int, int]] | None = None) -> list[Image.Image]:
    """Every page of a PDF as an RGB picture at `dpi` (cropped to `sizes` when given); each picture owns its
    pixels (PDFium's bitmap is freed with the document, so nothing may point into it afterwards)."""
    with PDFIUM:
        doc = pypdfium2.PdfDocument(pdf)
        try:
            out = []
            for i in range(len(doc)):
                page = doc[i]
                # a hair under dpi/72 so rounding in the page size never adds a pixel column
                bitmap = page.render(scale=dpi / 72.0 * (1 - 1e-9), rev_byteorder=True)
                image = bitmap.to_pil()
                if image.mode != "RGB":
                    image = image.convert("RGB")
                # crop and copy make pictures of their own; to_pil's points into the bitmap
                image = image.crop((0, 0, *sizes[i])) if sizes and image.size != sizes[i] else image.copy()
                bitmap.close()
                page.close()
                out.append(image)
            return out
        finally:
            doc.close()


def rasterise_png(
    pdf: bytes, dpi: float, sizes: list[tuple[int, int]] | None = None, level: int = LEVEL
) -> list[bytes]:
    """Every page of a PDF as PNG bytes at `dpi` (cropped to `sizes` when given); straight from PDFium's buffer
    (zlib `level`: 1 for quick pictures on screen)."""
    with PDFIUM:
        doc = pypdfium2.PdfDocument(pdf)
        try:
            out = []
            for i in range(len(doc)):
                page = doc[i]
                bitmap = page.render(scale=dpi / 72.0 * (1 - 1e-9), rev_byteorder=True)
                assert bitmap.mode == "RGB", bitmap.mode
                w, h = (
                    (min(sizes[i][0], bitmap.width), min(sizes[i][1], bitmap.height))
                    if sizes
                    else (bitmap.width, bitmap.height)
                )
                out.append(png_from_rows(scanlines(bitmap.buffer, w, h, bitmap.stride), w, h, dpi, level))
                bitmap.close()
                page.close()
            return out
        finally:
            doc.close()


def pages_png(
    pdf: Path | bytes, dpi: float, box: tuple[int, int, int, int] | None = None, level: int = LEVEL
) -> Iterator[bytes]:
    """Each page of a PDF (a file, read by PDFium as it needs) as PNG bytes at `dpi`, cut to the pixel `box`
    (left, top, right, bottom) when given. Lazily, one page at a time: a page's bitmap is freed before
    the next is drawn, so a deck of any length needs the memory of one page."""
    with PDFIUM:
        doc = pypdfium2.PdfDocument(str(pdf) if isinstance(pdf, Path) else pdf)
        count = len(doc)
    try:
        for i in range(count):
            with PDFIUM:
                page = doc[i]
                try:
                    bitmap = page.render(scale=dpi / 72.0 * (1 - 1e-9), rev_byteorder=True)
                    try:
                        assert bitmap.mode == "RGB", bitmap.mode
                        left, top, right, bottom = box or (0, 0, bitmap.width, bitmap.height)
                        left, top = max(0, left), max(0, top)
                        w, h = min(right, bitmap.width) - left, min(bottom, bitmap.height) - top
                        start = top * bitmap.stride + left * 3
                        rows = scanlines(memoryview(bitmap.buffer)[start:], w, h, bitmap.stride)
                    finally:
                        bitmap.close()
                finally:
                    page.close()
            png = png_from_rows(rows, w, h, dpi, level)
            del rows
            yield png
    finally:
        with PDFIUM:
            doc.close()


def page_png(pdf: bytes, dpi: float, size: tuple[int, int] | None = None) -> bytes:
    """A one-page PDF as PNG bytes at `dpi`, rasterised once ever: kept in the disk cache under the
    SHA-256 of the PDF (which holds everything drawn: forms, fonts, pictures) and the resolution."""
    from pnp.data.store.cache import blob  # lazy: only the exports that rasterise read the cache this way

    ident = (hashlib.sha256(pdf).hexdigest(), repr(dpi), size)
    return blob(
        "page-png", ident, lambda: rasterise_png(pdf, dpi, [size] if size else None)[0], shelf="rasters"
    )


def grid_pdf(
    scene: Scene,
    comp_key: str,
    cells: list[tuple[int, str]],
    frame: Frame,
    cols: int,
    rows: int,
    background: str,
) -> bytes:
    """One page of `cols` x `rows` cells of `frame`'s size: each (printed card, side) of `cells` left to right,
    top to bottom, on `background` (the unused cells)."""
    comp = scene.game.component(comp_key)
    size = card_size_of(comp)
    cards = scene.printed(comp.key)
    cw, ch = frame.page_pt
    page = (cols * cw, rows * ch)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=page, invariant=1, pageCompression=0)
    forms = FormCache(c, scene.game, scene.fonts, frame.bleed_mm(size))
    c.setFillColor(color(background))
    c.rect(0, 0, *page, stroke=0, fill=1)
    x, y, sx, sy = frame.placement(size)
    # a card's bleed stays in its own cell; the clip a hair inside it, as PDFium widens a clip to whole pixels
    e = 0.02 * 72.0 / frame.dpi
    cell = f"{fp_str((e - x) / sx, (e - y) / sy, (cw - 2 * e) / sx, (ch - 2 * e) / sy)} re W n"

    for slot, (index, side) in enumerate(cells):
        p = cards[index]
        name = forms.face(comp, p) if side == "face" else forms.back(comp, p)
        col, row = slot % cols, slot // cols
        place_form(c, name, col * cw + x, (rows - 1 - row) * ch + y, sx, sy, lambda: c.addLiteral(cell))
    c.showPage()
    c.save()
    return buf.getvalue()


def render_png(scene: Scene, requests: list[Request], level: int = LEVEL) -> list[bytes]:
    """Like `render`, but PNG bytes (the export's pictures, without a Pillow copy in between; zlib `level`)."""
    out: list[bytes] = []
    for (_, frame), group in groupby(requests, key=lambda r: (r.comp, r.frame)):
        batch = list(group)
        out += rasterise_png(
            draw_pdf(scene, batch), frame.dpi, [(frame.width, frame.height)] * len(batch), level
        )
    return out


def render(scene: Scene, requests: list[Request]) -> list[Image.Image]:
    """Pictures for the requests, in order (consecutive requests of one component and frame share a PDF)."""
    out: list[Image.Image] = []
    for (_, frame), group in groupby(requests, key=lambda r: (r.comp, r.frame)):
        batch = list(group)
        out += rasterise(draw_pdf(scene, batch), frame.dpi, [(frame.width, frame.height)] * len(batch))
    return out
