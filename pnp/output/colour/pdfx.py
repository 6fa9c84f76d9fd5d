"""PDF/X-1a:2003 structure for a ReportLab canvas whose colours are all CMYK.

PDF/X-1a asks for: CMYK (or grey) colour only, every font embedded, no
transparency, a TrimBox (or ArtBox) on every page inside the BleedBox and
MediaBox, `GTS_PDFXVersion` and `Trapped` in the document information, and an
output intent naming the printing condition (with its ICC profile embedded when
it is not a registered one). The drawing code already embeds its fonts and
uses no transparency; `CmykColours` makes every colour CMYK; this module adds
the rest: the boxes through ReportLab's public calls, the keys and the output intent with pikepdf
(qpdf) once ReportLab has written the file. PDF/X-1a:2003 is built on PDF 1.4, the version ReportLab
writes (and qpdf keeps).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.output.colour.convert import CmykColours, PrintColour

PDFX_VERSION = "PDF/X-1a:2003"


def colour_hook(colour: PrintColour | None) -> CmykColours | None:
    """The canvas colour hook for CMYK output (None keeps the drawing's RGB)."""
    return CmykColours(colour) if colour else None


def finish_pdfx(path: Path, colour: PrintColour) -> None:
    """Make the PDF ReportLab wrote at `path` (drawn with `colour_hook(colour)`) a PDF/X-1a file: the
    version key, Trapped, and the output intent with its profile. Rewritten in place by qpdf: the
    streams as they are, the file ID from its content (the same file every time)."""
    import pikepdf  # lazy: only CMYK output writes PDF/X

    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        pdf.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(PDFX_VERSION)
        profile = pikepdf.Stream(pdf, colour.profile, N=4)
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"),
            OutputCondition=pikepdf.String(colour.name),
            Info=pikepdf.String(colour.name),
            RegistryName=pikepdf.String("http://www.color.org"),
            DestOutputProfile=profile,
        )
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
        pdf.save(
            path,
            deterministic_id=True,
            stream_decode_level=pikepdf.StreamDecodeLevel.none,
            fix_metadata_version=False,
        )


def whole_page_boxes(c: Canvas, width: float, height: float) -> None:
    """TrimBox and BleedBox equal to the page: for sheets that are cut by hand, not by a shop."""
    c.setTrimBox((0, 0, width, height))
    c.setBleedBox((0, 0, width, height))
