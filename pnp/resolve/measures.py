"""Text measures a layout's expressions call, on the card's fonts, in mm (font sizes in points).

Each answers what drawing will do: `paragraph_size` is the size a paragraph
element shrinks to, `table` lays out label/text rows the way a layout then
draws them with groups, so positions that depend on text are computed once,
here, and the look stays in the layout's data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.geometry.sizes import MM, pt
from pnp.resolve.fonts import Fonts
from pnp.resolve.text import fit_paragraph, lines_of


@dataclass(frozen=True)
class Measures:
    """The measuring functions for one card's fonts."""

    fonts: Fonts

    def width(self, text: Any, font: str, size: float) -> float:
        """The drawn width of `text` in mm."""
        return self.fonts.width(str(text), font, float(size)) / MM

    def fit(self, text: Any, font: str, width: float, size: float, least: float = 5.0) -> float:
        """The size (pt) a one-line text element of `width` mm draws `text` at."""
        return self.fonts.fit(str(text), font, pt(float(width)), float(size), float(least))

    def lines(self, text: Any, font: str, size: float, width: float) -> list[str]:
        """`text` wrapped to `width` mm (blank lines kept as '')."""
        return lines_of(self.fonts, str(text), font, float(size), pt(float(width)))

    def paragraph_size(
        self,
        text: Any,
        font: str,
        size: float,
        least: float,
        width: float,
        height: float,
        leading: float = 1.2,
    ) -> float:
        """The size (pt) a paragraph element of `width` x `height` mm shrinks `text` to."""
        return fit_paragraph(
            self.fonts,
            str(text).strip(),
            font,
            float(size),
            float(least),
            pt(float(width)),
            pt(float(height)),
            float(leading),
        )[0]

    def wrap_size(
        self, text: Any, font: str, size: float, width: float, most: int, least: float, step: float
    ) -> float:
        """From `size` down by `step` while `text` wraps to more than `most` lines at `width` mm, not
        below `least`: the size a title of a few lines takes."""
        size = float(size)
        while len(self.lines(text, font, size, width)) > int(most) and size > float(least):
            size -= float(step)
        return size

    def table(
        self,
        rows: Any,
        width: float,
        height: float | None = None,
        font: str = "body",
        label_font: str = "bold",
        size: float = 7.4,
        least: float | None = None,
        leading: float = 1.16,
        label_pad: float = 2.0,
        label_share: float = 1.0,
        text_gap: float = 0.0,
        row_pad: float = 1.0,
        row_gap: float = 0.0,
        drop_empty: bool = False,
    ) -> dict[str, Any]:
        """Label/text rows in `width` mm, shrunk by 0.2 pt (not below `least`) until they fit `height` mm.

        The label column is the widest label plus `label_pad` (at most `label_share` of the
        width), the text wraps in the rest less `text_gap`; a row is [label, text] (or a label
        alone), and `drop_empty` leaves out rows without text. Returns {size, label_w, height,
        rows: [{label, lines, top, height}]} in mm from the table's top.
        """
        items = [list(r) if isinstance(r, (list, tuple)) else [r] for r in (rows or [])]
        pairs = [(str(r[0]) if r else "", str(r[1]) if len(r) > 1 else "") for r in items]
        if drop_empty:
            pairs = [(a, b) for a, b in pairs if b.strip()]
        if not pairs:
            return {"size": float(size), "label_w": 0.0, "height": 0.0, "rows": []}
        size, least = float(size), float(size if least is None else least)
        w, room = pt(float(width)), None if height is None else pt(float(height))
        while True:
            label_w = min(
                max(self.fonts.width(a, label_font, size) for a, _ in pairs) + pt(label_pad),
                w * label_share,
            )
            wrapped = [lines_of(self.fonts, b, font, size, w - label_w - pt(text_gap)) for _, b in pairs]
            heights = [max(1, len(lines)) * size * leading + pt(row_pad) for lines in wrapped]
            total = sum(heights) + pt(row_gap) * len(heights)
            if room is None or sum(heights) <= room or size <= least:
                break
            size -= 0.2
        if room is not None and sum(heights) > room + 0.01:
            raise ValueError(
                f"table of {len(pairs)} rows does not fit its card even at {least:g} pt; "
                "split it over more cards"
            )
        out, top = [], 0.0
        for (label, _), lines, rh in zip(pairs, wrapped, heights):
            out.append({"label": label, "lines": lines, "top": top / MM, "height": rh / MM})
            top += rh + pt(row_gap)
        return {"size": size, "label_w": label_w / MM, "height": total / MM, "rows": out}
