"""Reproducible ReportLab canvases and form XObjects (drawn once, placed many times)."""
from __future__ import annotations

import re
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp import __version__

# ReportLab settings for every PDF this package writes (canvases here, platypus
# documents elsewhere), set on import so a file's bytes never depend on which
# step ran first in a process. bench/floor.py imports this module for the same
# settings, so its bare-ReportLab PDFs stay byte-identical to pnp's.
#
# 1. Compressed streams without ReportLab's default ASCII85 wrapping, which adds
#    a quarter to every stream's size and costs more time than the drawing.
rl_config.useA85 = 0

# 2. zlib level 1 for every stream (pages, fonts, forms all go through
#    pdfdoc.PDFZCompress): ReportLab always uses level 6, which makes the PDFs
#    about 4 % smaller and takes twice as long.
FLATE_LEVEL = 1


class _Flate(pdfdoc.PDFStreamFilterZCompress):
    """ReportLab's FlateDecode filter at FLATE_LEVEL."""

    def encode(self, text: str | bytes) -> bytes:
        data = text.encode("utf8") if isinstance(text, str) else text
        return _deflate_big(data) if len(data) >= 8192 else zlib.compress(data, FLATE_LEVEL)


@lru_cache(maxsize=64)
def _deflate_big(data: bytes) -> bytes:
    """A large stream compressed once per process: most are font files, and the same
    font file (ReportLab puts ASCII first) is embedded in many PDFs of a build."""
    return zlib.compress(data, FLATE_LEVEL)


pdfdoc.PDFZCompress = _Flate()

# 3. The same bytes, sooner: ReportLab turns every name, number and string of
#    a PDF object into bytes through its own Python codec (PDFDocEncoding),
#    tens of thousands of calls, 7 % of a build's instructions (callgrind). Nearly all
#    of that text is ASCII, which the codec maps to itself, except 0x18-0x1F
#    (accents in PDFDocEncoding), so those and anything non-ASCII still go
#    through the codec.
_NOT_IN_PDFDOC = re.compile("[\x18-\x1f]").search


def _pdfdoc_bytes(x: Any) -> Any:
    if isinstance(x, str):
        return x.encode("ascii") if x.isascii() and not _NOT_IN_PDFDOC(x) else x.encode("extpdfdoc")
    return x


pdfdoc.pdfdocEnc = _pdfdoc_bytes


def end_form_compressed(c: Canvas, name: str) -> None:
    """End the current form XObject and compress its stream now rather than at save.

    ReportLab keeps every form's drawing as uncompressed text until the document
    is saved; a deck of many distinct cards then holds megabytes of it. The
    compressed stream carries its own /Filter, so ReportLab writes it unchanged
    (the same zlib compression it would have applied at save).
    """
    c.endForm()
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    form.Contents = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])}),
                                     zlib.compress(form.stream, FLATE_LEVEL), filters=None)
    form.stream = None


def place_form(c: Canvas, name: str, x: float, y: float, sx: float = 1.0, sy: float | None = None) -> None:
    """Draw form XObject `name` with its origin at (x, y) points, scaled by sx (and sy).

    The same operators (and bytes) as saveState, transform, doForm and restoreState,
    without the canvas state that saveState copies and restoreState puts back: a
    card sheet places thousands of forms, and nothing here changes that state.
    """
    c.addLiteral(f"q\n{fp_str(sx, 0, 0, sx if sy is None else sy, x, y)} cm")
    c.doForm(name)
    c.addLiteral("Q")


def canvas(path: Path, title: str, pagesize: tuple[float, float], font: str,
           colours: Callable[[Any], Any] | None = None) -> Canvas:
    """A canvas whose bytes depend only on what is drawn (no dates, no random IDs).

    `font` (a registered, embeddable font) replaces ReportLab's initial
    Helvetica, so no page refers to a font the PDF does not embed. `colours`,
    when given, sees every colour set and returns the one to use (CMYK output).
    """
    c = Canvas(str(path), pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=font,
               enforceColorSpace=colours)
    c.setTitle(title)
    c.setAuthor("fairy-pnp")
    c.setCreator(f"fairy-pnp {__version__}")
    c.setProducer("fairy-pnp with ReportLab")
    return c
