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

from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.output.colour.convert import CmykColours, PrintColour

PDFX_VERSION = "PDF/X-1a:2003"


class _PdfxInfo(pdfdoc.PDFInfo):
    """The document information dictionary with the PDF/X version key."""

    def format(self, document: Any) -> bytes:
        date = pdfdoc.PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return pdfdoc.PDFDictionary({
            "Title": pdfdoc.PDFString(self.title), "Author": pdfdoc.PDFString(self.author),
            "CreationDate": date, "ModDate": date, "Producer": pdfdoc.PDFString(self.producer),
            "Creator": pdfdoc.PDFString(self.creator), "Subject": pdfdoc.PDFString(self.subject),
            "Keywords": pdfdoc.PDFString(self.keywords), "Trapped": pdfdoc.PDFName("False"),
            "GTS_PDFXVersion": pdfdoc.PDFString(PDFX_VERSION),
        }).format(document)


def colour_hook(colour: PrintColour | None) -> CmykColours | None:
    """The canvas colour hook for CMYK output (None keeps the drawing's RGB)."""
    return CmykColours(colour) if colour else None


def finish_pdfx(c: Canvas, colour: PrintColour) -> None:
    """Make `c` a PDF/X-1a file: version key, Trapped, and the output intent with its profile.

    Call before `c.save()`, on a canvas created with `colour_hook(colour)`.
    """
    doc = c._doc
    old = doc.info
    info = _PdfxInfo()
    info.__dict__.update(old.__dict__)
    doc.info = info
    profile = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"N": 4}), colour.profile, filters=[pdfdoc.PDFZCompress])
    intent = pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"),
        "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString("Custom"),
        "OutputCondition": pdfdoc.PDFString(colour.name),
        "Info": pdfdoc.PDFString(colour.name),
        "RegistryName": pdfdoc.PDFString("http://www.color.org"),
        "DestOutputProfile": doc.Reference(profile),
    })
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]  # keys ReportLab writes
    catalog.OutputIntents = pdfdoc.PDFArray([intent])


def whole_page_boxes(c: Canvas, width: float, height: float) -> None:
    """TrimBox and BleedBox equal to the page: for sheets that are cut by hand, not by a shop."""
    c.setTrimBox((0, 0, width, height))
    c.setBleedBox((0, 0, width, height))
