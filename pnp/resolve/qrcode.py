"""A qr element's text encoded (segno) and checked to print large enough to scan.

The modules are found here, once, so drawing meets no question: a fitted qr element
carries its rows as strings of "1" (dark) and "0" (light), the quiet zone not included.
"""

from __future__ import annotations

import math

from pnp.data.format.elements import Element
from pnp.data.format.limits import MAX_QR_TEXT, MIN_QR_MODULE
from pnp.geometry.sizes import MM


def qr_modules(el: Element, box: tuple[float, float]) -> tuple[str, ...]:
    """The rows of `el`'s code; ValueError naming the field when its text, margin or size will not do.
    `box`: the element's width and height in points."""
    import segno  # lazy: only a qr element needs the encoder

    text = "" if el.data is None else str(el.data)
    if not text:
        raise ValueError("data: a qr element needs the text to encode")
    if len(text) > MAX_QR_TEXT:
        raise ValueError(f"data: {len(text)} characters; a qr element encodes at most {MAX_QR_TEXT}")
    quiet = float(el.quiet)
    if not (math.isfinite(quiet) and 0 <= quiet <= 8):
        raise ValueError(f"quiet: from 0 to 8 modules, found {el.quiet!r}")
    try:
        code = segno.make(text, error="m", micro=False)
    except (segno.DataOverflowError, ValueError) as exc:
        raise ValueError(f"data: cannot be encoded as a QR code ({exc})") from None
    rows = tuple("".join("1" if m else "0" for m in row) for row in code.matrix)
    side = min(box) / MM  # mm
    module = side / (len(rows) + 2 * quiet)
    if module < MIN_QR_MODULE:
        least = MIN_QR_MODULE * (len(rows) + 2 * quiet)
        raise ValueError(
            f"w: its {len(rows)} modules would print {module:.2f} mm wide; at least {MIN_QR_MODULE} mm "
            f"scans: make the box at least {least:.1f} mm square or the text shorter"
        )
    return rows
