"""PDF files: reproducible ReportLab canvases and atomic placement of finished output."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from . import __version__

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


def canvas(path: Path, title: str, pagesize: tuple[float, float], font: str) -> Canvas:
    """A canvas whose bytes depend only on what is drawn (no dates, no random IDs).

    `font` (a registered, embeddable font) replaces ReportLab's initial
    Helvetica, so no page refers to a font the PDF does not embed.
    """
    c = Canvas(str(path), pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=font)
    c.setTitle(title)
    c.setAuthor("fairy-pnp")
    c.setCreator(f"fairy-pnp {__version__}")
    c.setProducer("fairy-pnp with ReportLab")
    return c


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A private folder beside `out` for a build; removed whatever happens.

    Files are moved into `out` only by `publish`, so a failed build leaves the
    previous output as it was.
    """
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pnp-staging-", dir=out))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def publish(stage: Path, out: Path) -> list[Path]:
    """Move every staged file into `out` (os.replace per file: each file swaps whole)."""
    moved = []
    for src in sorted(p for p in stage.rglob("*") if p.is_file()):
        dest = out / src.relative_to(stage)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)
        moved.append(dest)
    return moved


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
