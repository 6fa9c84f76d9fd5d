"""PDF/X-1a:2003 structure for a ReportLab canvas whose colours are all CMYK.

PDF/X-1a asks for: CMYK (or grey) colour only, every font embedded, no
transparency, a TrimBox (or ArtBox) on every page inside the BleedBox and
MediaBox, `GTS_PDFXVersion` and `Trapped` in the document information, and an
output intent naming the printing condition (with its ICC profile embedded when
it is not a registered one). The drawing code already embeds its fonts and
uses no transparency; `CmykColours` makes every colour CMYK; this module adds
the rest. PDF/X-1a:2003 is built on PDF 1.4, the version ReportLab writes.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.output.colour.convert import CmykColours, PrintColour

PDFX_VERSION = "PDF/X-1a:2003"


def colour_hook(colour: PrintColour | None) -> CmykColours | None:
    """The canvas colour hook for CMYK output (None keeps the drawing's RGB)."""
    return CmykColours(colour) if colour else None


def finish_pdfx(c: Canvas, colour: PrintColour) -> None:
    """Make `c` a PDF/X-1a file: version key, Trapped, and the output intent with its profile.

    Call before `c.save()`, on a canvas created with `colour_hook(colour)`.
    """
    rl.mark_pdfx(c, PDFX_VERSION, colour.profile, colour.name)


def whole_page_boxes(c: Canvas, width: float, height: float) -> None:
    """TrimBox and BleedBox equal to the page: for sheets that are cut by hand, not by a shop."""
    c.setTrimBox((0, 0, width, height))
    c.setBleedBox((0, 0, width, height))
