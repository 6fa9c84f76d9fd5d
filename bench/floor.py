"""The floor of this stack: bare ReportLab drawing the very primitives pnp drew, nothing else.

    python bench/floor.py LOG OUT.pdf [--same-as PDF]

LOG comes from `bench/deck.py ... --record LOG`: every canvas and path call,
with its arguments. This script registers the same TrueType fonts, replays the
calls on a plain ReportLab canvas with the same stream settings (those
pnp's ReportLab adapter sets; not its faster writers for strings, forms and fonts,
which change no byte), and saves. No YAML, no templates, no layout logic, no symbol
geometry: what is left is ReportLab's own cost for the same PDF. With --same-as PDF it exits 1 unless its output
is byte for byte that PDF (the smoke test; no timing then).
"""

from __future__ import annotations

import pickle
import sys

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl

_BARE = pdfdoc.pdfdocEnc, pdfdoc.PDFFormXObject, pdfdoc.PDFTrueTypeFont
rl.use_fast_writer()  # pnp's stream settings (no ASCII85, its form writer): the bytes depend on them
pdfdoc.pdfdocEnc, pdfdoc.PDFFormXObject, pdfdoc.PDFTrueTypeFont = (
    _BARE  # not its faster writers: bare ReportLab
)


def main(log_path: str, out: str) -> None:
    with open(log_path, "rb") as fh:
        data = pickle.load(fh)
    for name, path in data["fonts"].items():
        pdfmetrics.registerFont(TTFont(name, path))
    c = Canvas(
        out, pagesize=data["pagesize"], invariant=1, pageCompression=1, initialFontName=data["initial_font"]
    )
    c.setTitle(data["title"])
    c.setAuthor(data["meta"]["author"])
    c.setCreator(data["meta"]["creator"])
    c.setProducer(data["meta"]["producer"])
    objects = {0: c}

    def real(v):
        return objects[v[1]] if isinstance(v, tuple) and len(v) == 2 and v[0] == "@obj" else v

    for entry in data["calls"]:
        if entry[0] == "new":
            _, oid, (target, name, args, kw) = entry
            objects[oid] = getattr(objects[target], name)(*map(real, args), **kw)
        else:
            target, name, args, kw = entry
            getattr(objects[target], name)(*map(real, args), **{k: real(v) for k, v in kw.items()})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    if len(sys.argv) == 5 and sys.argv[3] == "--same-as":
        with open(sys.argv[2], "rb") as mine, open(sys.argv[4], "rb") as theirs:
            if mine.read() != theirs.read():
                sys.exit(f"floor: {sys.argv[2]} differs from {sys.argv[4]}")
