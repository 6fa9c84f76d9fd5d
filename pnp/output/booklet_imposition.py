"""Saddle-stitch imposition: a canvas that keeps each booklet page as a form and prints sheets.

Sheets are landscape, two pages side by side, in the order `saddle_order` gives.
The same laid-out forms also make the plain booklet (one form per page), so
platypus lays a booklet out once for both PDFs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.geometry.imposition import saddle_order
from pnp.geometry.sizes import Size, pt


class ImposingCanvas(Canvas):
    """Keeps every laid-out page as a form XObject; `save` prints them as pages and/or sheets.

    `plain`: also write the booklet as ordinary pages to this file (or, when
    `imposed` is False, to the canvas's own file instead of the sheets).
    Sheets are landscape, two pages side by side. With a long-edge duplex
    flip every back side is turned half round so it still reads upright.
    """

    def __init__(
        self, *a: Any, sheet: Size, duplex: str, plain: Path | None = None, imposed: bool = True, **kw: Any
    ):
        rl.use_fast_writer()
        super().__init__(*a, **kw)
        self.sheet, self.duplex = sheet.landscape, duplex
        self.plain, self.imposed = plain, imposed
        self.page_size = kw.get("pagesize") or rl_config.defaultPageSize
        self.page_forms: list[str] = []
        self._open()

    def _open(self) -> None:
        w, h = self.page_size
        self.beginForm(f"BookletPage{len(self.page_forms) + 1}", 0, 0, w, h)

    def showPage(self) -> None:
        self.endForm()
        self.page_forms.append(f"BookletPage{len(self.page_forms) + 1}")
        self._open()

    def getPageNumber(self) -> int:
        """The booklet page being laid out (page footers read it)."""
        return len(self.page_forms) + 1

    def save(self) -> None:
        self.endForm()  # the empty form opened after the last page; never placed
        if not self.imposed:
            self._print_pages()
            return
        if self.plain is not None:
            twin = rl.copy_canvas(self)
            if twin is None:
                raise RuntimeError("a booklet's plain pages need the ReportLab adapter; write them apart")
            assert isinstance(twin, ImposingCanvas)
            rl.retarget(twin, str(self.plain))
            twin._print_pages()
        self._print_sheets()

    def _print_pages(self) -> None:
        """Each form on its own page, in reading order."""
        for name in self.page_forms:
            self.setPageSize(self.page_size)
            self.doForm(name)
            Canvas.showPage(self)
        Canvas.save(self)

    def _print_sheets(self) -> None:
        half = pt(self.sheet.w) / 2
        W, H = pt(self.sheet.w), pt(self.sheet.h)
        for sheet in saddle_order(len(self.page_forms)):
            for side, (left, right) in enumerate(
                ((sheet.front_left, sheet.front_right), (sheet.back_left, sheet.back_right))
            ):
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
