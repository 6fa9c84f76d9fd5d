"""Reproducible ReportLab canvases and form XObjects (drawn once, placed many times).

Every canvas opts in to the writer settings of `pnp.adapters.reportlab`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from pnp import __version__
from pnp.adapters import reportlab as rl
from pnp.adapters.reportlab import end_form_compressed

__all__ = ["canvas", "end_form_compressed", "place_form"]


def place_form(
    c: Canvas,
    name: str,
    x: float,
    y: float,
    sx: float = 1.0,
    sy: float | None = None,
    clip: Callable[[], None] | None = None,
) -> None:
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


def canvas(
    path: Path,
    title: str,
    pagesize: tuple[float, float],
    font: str,
    colours: Callable[[Any], Any] | None = None,
) -> Canvas:
    """A canvas whose bytes depend only on what is drawn (no dates, no random IDs).

    `font` (a registered, embeddable font) replaces ReportLab's initial
    Helvetica, so no page refers to a font the PDF does not embed. `colours`,
    when given, sees every colour set and returns the one to use (CMYK output).
    """
    rl.use_fast_writer()
    c = Canvas(
        str(path),
        pagesize=pagesize,
        invariant=1,
        pageCompression=1,
        initialFontName=font,
        enforceColorSpace=colours,
    )
    c.pnp_font = font  # pnp's own note: the font SVG text starts from
    c.setTitle(title)
    c.setAuthor("fairy-pnp")
    c.setCreator(f"fairy-pnp {__version__}")
    c.setProducer("fairy-pnp with ReportLab")
    return c
