"""PDF/X-1a's keys and output intent are added with pikepdf after ReportLab writes the file (no
ReportLab internals): the same bytes every time, the PDF version kept, the pages' streams untouched."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.output.colour.convert import PrintColour
from pnp.output.colour.icc import InkLimit
from pnp.output.colour.pdfx import PDFX_VERSION, finish_pdfx

COLOUR = PrintColour(b"\x00\x00\x01\x00" + b"p" * 252, "Test press, ink limited to 240 %", InkLimit(240))


def _sheet(path: Path) -> bytes:
    c = Canvas(str(path), pagesize=(200, 300), invariant=1, pageCompression=1)
    c.setTrimBox((9, 9, 191, 291))
    c.setBleedBox((0, 0, 200, 300))
    c.setFillColorCMYK(0.1, 0.2, 0.3, 0.4)
    c.rect(10, 10, 100, 100, fill=1)
    c.showPage()
    c.save()
    return path.read_bytes()


def test_pdfx_is_added_to_the_written_file_the_same_every_time(tmp_path: Path) -> None:
    made = []
    for name in ("a.pdf", "b.pdf"):
        plain = _sheet(tmp_path / name)
        finish_pdfx(tmp_path / name, COLOUR)
        made.append((tmp_path / name).read_bytes())
    assert made[0] == made[1] and made[0] != plain and made[0][:8] == plain[:8]  # its PDF version kept
    reader = PdfReader(tmp_path / "a.pdf")
    info = reader.trailer["/Info"].get_object()
    assert (info["/GTS_PDFXVersion"], info["/Trapped"]) == (PDFX_VERSION, "/False")
    assert info["/Title"] is not None and len(reader.trailer["/ID"]) == 2
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert (intent["/S"], intent["/OutputCondition"]) == ("/GTS_PDFX", COLOUR.name)
    assert intent["/DestOutputProfile"].get_object().get_data() == COLOUR.profile
    page = reader.pages[0]
    assert [float(v) for v in page.trimbox] == [9, 9, 191, 291]
    assert b".1 .2 .3 .4 k" in page.get_contents().get_data()
    assert not hasattr(rl, "mark_pdfx")  # ReportLab's document objects are no longer swapped for it
