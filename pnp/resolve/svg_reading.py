"""Reading an SVG picture safely: its size, element count, nesting and path data bounded before it
is parsed for drawing, and the pictures it refers to read only from inside the project."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pnp.data.format.limits import MAX_SVG_BYTES, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, MAX_SVG_PATH


def check_svg(path: Path, name: str) -> None:
    """Refuse an SVG too large, too deep or with too many elements or too much path data to draw in
    reasonable time, before it is parsed for drawing."""
    size = path.stat().st_size
    if size > MAX_SVG_BYTES:
        raise ValueError(
            f"{name}: an SVG of {size // 1000} KB is more than pnp reads ({MAX_SVG_BYTES // 1000} KB)"
        )
    data = path.read_bytes()
    tags = data.count(b"<")
    if tags > MAX_SVG_ELEMENTS:
        raise ValueError(f"{name}: {tags} elements is more than pnp draws in one SVG ({MAX_SVG_ELEMENTS})")
    _check_svg_shape(data, name)


def _check_svg_shape(data: bytes, name: str) -> None:
    """Nesting depth and path data, read as a stream (a malformed file is left for the SVG reader to name)."""

    depth = points = 0
    try:
        for event, el in ET.iterparse(io.BytesIO(data), events=("start", "end")):
            if event == "end":
                depth -= 1
                el.clear()
                continue
            depth += 1
            if depth > MAX_SVG_DEPTH:
                raise ValueError(
                    f"{name}: elements nested over {MAX_SVG_DEPTH} deep; pnp draws SVGs at most that "
                    "deep (flatten the groups)"
                )
            points += len(el.get("d", "")) + len(el.get("points", ""))
            if points > MAX_SVG_PATH:
                raise ValueError(
                    f"{name}: over {MAX_SVG_PATH:,} characters of path data; simplify the paths "
                    "(fewer points) before using it"
                )
    except ET.ParseError:
        return


def read_svg(svg2rlg: Any, path: Path, root: Path) -> Any:
    """The SVG as a drawing; pictures it refers to are read only from inside the project `root`
    (svglib's external_reference_root), or not at all where svglib cannot confine them."""
    try:
        return svg2rlg(str(path), external_reference_root=str(root))
    except TypeError:  # a release without confinement: read from memory, so no reference is followed
        return svg2rlg(io.BytesIO(path.read_bytes()))
