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


# 4. Form XObjects written in one step: ReportLab builds and formats a dozen
#    small objects for every form's dictionary (bounding box, matrix, resources,
#    filter), about forty calls of its general formatter for one form, and a
#    build writes a thousand forms. `_Form` writes the same bytes directly for
#    the forms pnp makes (no annotations, fonts and forms as resources) and
#    leaves any other form to ReportLab; tests compare the two on every form.
class _Form(pdfdoc.PDFFormXObject):
    def format(self, document: Any) -> bytes:
        made = _form_bytes(self, document)
        return made if made is not None else super().format(document)


def _form_bytes(form: pdfdoc.PDFFormXObject, document: Any) -> bytes | None:
    """ReportLab's bytes for `form` (PDFFormXObject.format then PDFStream.format), or None to let it."""
    if form.Annots or form.Resources or form.BBox or form.Matrix \
            or not isinstance(document.encrypt, pdfdoc.NoEncryption):
        return None
    if form.Contents is not None:  # compressed already (end_form_compressed): its stream, as is
        if form.Contents.filters is not None or set(form.Contents.dictionary.dict) != {"Filter"}:
            return None
        content = form.Contents.content
        flate = True
    elif form.stream:
        flate = bool(form.compression)
        content = pdfdoc.PDFZCompress.encode(form.stream) if flate else _pdfdoc_bytes(form.stream)
    else:
        return None
    if not isinstance(content, bytes):
        return None
    ref = document.idToObjectNumberAndVersion
    resources = [b"/Font %d %d R" % ref[pdfdoc.BasicFonts],
                 b"/ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ]" if form.hasImages else b"/ProcSet [ /PDF /Text ]"]
    if form.XObjects:
        names = sorted(form.XObjects.dict)
        resources.append(b"/XObject " + _dict_bytes([
            _pdfdoc_bytes(pdfdoc.PDFName(k)) + b" %d %d R" % ref[form.XObjects.dict[k].name] for k in names]))
    box = b" ".join(_pdfdoc_bytes(fp_str(v)) for v in (form.lowerx, form.lowery, form.upperx, form.uppery))
    entries = [b"/BBox [ " + box + b" ]", *([b"/Filter [ /FlateDecode ]"] if flate else []), b"/FormType 1",
               b"/Length " + _pdfdoc_bytes(fp_str(len(content))), b"/Matrix [ 1 0 0 1 0 0 ]",
               b"/Resources " + _dict_bytes(resources), b"/Subtype /Form", b"/Type /XObject"]
    return _dict_bytes(entries) + b"\nstream\n" + content + b"endstream\n"


def _dict_bytes(entries: list[bytes]) -> bytes:
    """A PDF dictionary as ReportLab lays one out: its entries (sorted by key) six to a line."""
    for i in reversed(range(6, len(entries), 6)):
        entries.insert(i, b"\n ")
    return b"<<\n" + b" ".join(entries) + b"\n>>"


pdfdoc.PDFFormXObject = _Form


# 5. TrueType font objects the same way: ReportLab formats each of a subset's
#    (up to 256) glyph widths as an object of its own; one call formats them all.
class _TrueTypeFont(pdfdoc.PDFTrueTypeFont):
    def format(self, document: Any) -> bytes:
        made = _font_bytes(self, document)
        return made if made is not None else super().format(document)


def _font_bytes(font: pdfdoc.PDFTrueTypeFont, document: Any) -> bytes | None:
    """ReportLab's bytes for a TrueType font object (PDFType1Font.format), or None to let it."""
    try:
        names = {k: getattr(font, k) for k in ("Type", "Subtype", "BaseFont", "Name")}
        first, last, widths = font.FirstChar, font.LastChar, font.Widths.sequence
        refs = font.ToUnicode, font.FontDescriptor
    except AttributeError:
        return None
    if hasattr(font, "Encoding") or not all(isinstance(r, pdfdoc.PDFObjectReference) for r in refs) \
            or not all(type(v) in (int, float) for v in (first, last, *widths)) or not widths:
        return None
    ref = document.idToObjectNumberAndVersion
    rows = [_pdfdoc_bytes(fp_str(*widths[i:i + 10])) for i in range(0, len(widths), 10)]
    entries = [b"/BaseFont " + _pdfdoc_bytes(pdfdoc.PDFName(names["BaseFont"])),
               b"/FirstChar " + _pdfdoc_bytes(fp_str(first)),
               b"/FontDescriptor %d %d R" % ref[refs[1].name],
               b"/LastChar " + _pdfdoc_bytes(fp_str(last)),
               b"/Name " + _pdfdoc_bytes(pdfdoc.PDFName(names["Name"])),
               b"/Subtype " + _pdfdoc_bytes(pdfdoc.PDFName(names["Subtype"])),
               b"/ToUnicode %d %d R" % ref[refs[0].name],
               b"/Type " + _pdfdoc_bytes(pdfdoc.PDFName(names["Type"])),
               b"/Widths [ " + b" \n  ".join(rows) + b" ]"]
    return _dict_bytes(entries)


pdfdoc.PDFTrueTypeFont = _TrueTypeFont


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


def place_form(c: Canvas, name: str, x: float, y: float, sx: float = 1.0, sy: float | None = None,
               clip: Callable[[], None] | None = None) -> None:
    """Draw form XObject `name` with its origin at (x, y) points, scaled by sx (and sy),
    inside whatever `clip` sets up (drawn after the move, in the form's coordinates).

    The same operators (and bytes) as saveState, transform, doForm and restoreState,
    without the canvas state that saveState copies and restoreState puts back: a
    card sheet places thousands of forms, and nothing here changes that state.
    """
    c.addLiteral(f"q\n{fp_str(sx, 0, 0, sx if sy is None else sy, x, y)} cm")
    if clip is not None:
        clip()
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
