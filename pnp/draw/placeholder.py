"""What a draft prints where a picture is not made yet."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas


def placeholder(c: Canvas, name: str, x: float, y: float, w: float, h: float) -> None:
    """A picture still to be made: a pale box, crossed, labelled with the file's name (a draft)."""
    c.saveState()
    c.setFillGray(0.93)
    c.setStrokeGray(0.55)
    c.setLineWidth(0.6)
    c.setDash(3, 2)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.setDash()
    c.setLineWidth(0.3)
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    label = name.rsplit("/", 1)[-1]
    size = max(4.0, min(9.0, h / 5, 1.9 * w / max(len(label), 1)))
    c.setFillGray(0.2)
    c.setFont("Helvetica-Bold", size)
    c.drawCentredString(x + w / 2, y + h / 2 - size / 3, label)
    c.restoreState()
