"""ReportLab's internals, continued: a PDF written to disk as it is formatted, pictures read last.

ReportLab keeps a whole document in memory until it saves, and then builds the
whole file as one byte string. A deck of a thousand full-art cards holds every
picture twice that way. Here a picture's image XObject holds only how to read
its data (`lazy_stream`), read when the object is written and let go after, and
`save` hands each object's bytes straight to the file (ReportLab's PDFFile
collects them through one `write` attribute, which is pointed at the file). The
bytes are the ones ReportLab's own save writes. Gated with the rest of the
ReportLab adapter (`pnp.adapters.reportlab.ACTIVE`); otherwise `save` is the
canvas's own and a lazy stream's data is read at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters.reportlab import ACTIVE

_SINK = threading.local()  # the open file a `save` in this thread is writing to


class _LazyStream(pdfdoc.PDFStream):
    """A stream whose (already encoded) content is read only when the PDF is written."""

    def __init__(self, dictionary: Any, load: Callable[[], bytes]):
        super().__init__(dictionary, b"", filters=None)
        self.pnp_load = load

    def format(self, document: Any) -> bytes:
        self.content = self.pnp_load()
        try:
            return super().format(document)
        finally:
            self.content = b""


def lazy_stream(entries: dict[str, Any], load: Callable[[], bytes]) -> Any:
    """A PDF stream of `entries` (its Filter among them) whose data `load` gives when written."""
    if not ACTIVE:
        return pdfdoc.PDFStream(pdfdoc.PDFDictionary(entries), load(), filters=None)
    return _LazyStream(pdfdoc.PDFDictionary(entries), load)


class _StreamingFile(pdfdoc.PDFFile):
    """ReportLab's output collector, writing to the file of the `save` under way (if any)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        sink = getattr(_SINK, "file", None)
        if sink is not None:  # the header ReportLab has added first, then everything as it comes
            collected: list[bytes] = self.strings
            for piece in collected:
                sink.write(piece)
            collected.clear()
            self.write = sink.write


def register_image_stream(c: Canvas, name: str, make: Callable[[Any], Any]) -> bool:
    """Register image XObject `name` as `make(document)` builds it (only when this PDF does not hold
    it yet); False when not active (then draw with drawImage)."""
    if not ACTIVE:
        return False
    doc = c._doc
    reg = doc.getXObjectName(name)
    if doc.idToObject.get(reg) is None:
        doc.Reference(make(doc), reg)
        doc.addForm(name, doc.idToObject[reg])
    return True


def save(c: Canvas) -> None:
    """c.save(), each object's bytes going to the file as it is formatted (not the whole PDF held)."""
    if not ACTIVE or not isinstance(c._filename, str):
        c.save()
        return
    if len(c._code):
        c.showPage()
    if pdfdoc.PDFFile is not _StreamingFile:
        pdfdoc.PDFFile = _StreamingFile
    doc = c._doc
    doc._savedToFile = True
    with open(c._filename, "wb") as fh:
        _SINK.file = fh
        try:
            rest = doc.GetPDFData(c)  # written as formatted; what is left is the empty join
        finally:
            _SINK.file = None
        fh.write(rest.encode("latin1") if isinstance(rest, str) else rest)
