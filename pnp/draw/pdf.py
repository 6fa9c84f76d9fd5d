"""Reproducible ReportLab canvases and form XObjects (drawn once, placed many times)."""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any, Callable

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp import __version__

# Every PDF this package writes (canvases here, platypus documents elsewhere):
# compressed streams without ReportLab's default ASCII85 wrapping, which adds a
# quarter to every stream's size and costs more time than the drawing. Set on
# import, so a file's bytes never depend on which step ran first in a process.
rl_config.useA85 = 0


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
                                     zlib.compress(form.stream), filters=None)
    form.stream = None


def place_form(c: Canvas, name: str, x: float, y: float, sx: float = 1.0, sy: float | None = None) -> None:
    """Draw form XObject `name` with its origin at (x, y) points, scaled by sx (and sy)."""
    c.saveState()
    c.transform(sx, 0, 0, sx if sy is None else sy, x, y)
    c.doForm(name)
    c.restoreState()


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
