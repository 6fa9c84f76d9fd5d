"""Saddle-stitch imposition: a canvas that keeps each booklet page as a form and prints sheets.

Sheets are landscape, two pages side by side, in the order `saddle_order` gives.
"""
from __future__ import annotations

from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.geometry.imposition import saddle_order
from pnp.geometry.sizes import Size, pt


class ImposingCanvas(Canvas):
    """Keeps every laid-out page as a form XObject; `save` prints them as saddle-stitched sheets.

    Sheets are landscape, two pages side by side. With a long-edge duplex
    flip every back side is turned half round so it still reads upright.
    """

    def __init__(self, *a: Any, sheet: Size, duplex: str, **kw: Any):
        super().__init__(*a, **kw)
        self.sheet, self.duplex = sheet.landscape, duplex
        self.page_forms: list[str] = []
        self._open()

    def _open(self) -> None:
        w, h = self._pagesize
        self.beginForm(f"BookletPage{len(self.page_forms) + 1}", 0, 0, w, h)

    def showPage(self) -> None:
        self.endForm()
        self.page_forms.append(f"BookletPage{len(self.page_forms) + 1}")
        self._pageNumber += 1  # what Canvas.showPage would count; page footers read it
        self._open()

    def save(self) -> None:
        self.endForm()  # the empty form opened after the last page; never placed
        half = pt(self.sheet.w) / 2
        W, H = pt(self.sheet.w), pt(self.sheet.h)
        for sheet in saddle_order(len(self.page_forms)):
            for side, (left, right) in enumerate(((sheet.front_left, sheet.front_right),
                                                  (sheet.back_left, sheet.back_right))):
                self.setPageSize((W, H))
                self.saveState()
                if side == 1 and self.duplex == "long":
                    self.translate(W, H)
                    self.rotate(180)
                for x, number in ((0.0, left), (half, right)):
                    if number is not None:
                        self.saveState()
                        self.translate(x, 0)
                        self.doForm(self.page_forms[number - 1])
                        self.restoreState()
                self.restoreState()
                Canvas.showPage(self)
        Canvas.save(self)
