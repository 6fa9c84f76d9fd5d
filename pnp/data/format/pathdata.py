"""SVG path data (`d`) as move, line, curve and close operations, read by svglib.

An element's `d` is written as in an SVG file, absolute or relative, with
arcs and quadratic curves; svglib (already used for SVG pictures) reads it into
a ReportLab path, whose points come back here unchanged: millimetres from the
frame's top-left corner, y down. The result is kept per text, so a `d` shared by
every card is read once.
"""

from __future__ import annotations

import io
from functools import lru_cache
from xml.sax.saxutils import quoteattr

MAX_PATH_DATA = 20_000  # characters in one element's d: a detailed outline is a few thousand
Op = tuple[str, tuple[float, ...]]  # ("move" | "line" | "curve" | "close", coordinates)


class PathDataError(ValueError):
    """Path data that cannot be read."""


@lru_cache(maxsize=512)
def path_data(d: str) -> tuple[Op, ...]:
    """The operations of SVG path data `d` (raises PathDataError saying what is wrong)."""

    from svglib.svglib import svg2rlg  # lazy: only layouts that give `d` need svglib

    text = d.strip()
    if not text:
        raise PathDataError('empty path data; write e.g. "M 5 5 L 20 5 L 12 18 Z"')
    if len(text) > MAX_PATH_DATA:
        raise PathDataError(f"path data of {len(text)} characters; at most {MAX_PATH_DATA}")
    if text[0] not in "Mm":
        raise PathDataError(f"path data starts with a move (M x y), found {text[:12]!r}")
    if bad := set(text) - set("0123456789.,-+eE \t\n\rMmLlHhVvCcSsQqTtAaZz"):
        raise PathDataError(
            f"path data holds {''.join(sorted(bad))!r}; it takes numbers and the commands "
            "M L H V C S Q T A Z (lower case: relative)"
        )
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d={quoteattr(text)}/></svg>'
    try:
        drawing = svg2rlg(io.BytesIO(svg.encode()))
    except TypeError:  # a command given too few numbers
        raise PathDataError(
            "a command is short of numbers: M, L and T take x y; H and V one; C six; S and Q four; A seven"
        ) from None
    except Exception as exc:  # noqa: BLE001 - svglib raises several kinds for bad data
        raise PathDataError(f"cannot read the path data: {exc}") from None
    found = _first_path(drawing)
    if found is None:
        raise PathDataError("the path data draws nothing; check its numbers and commands")
    return _ops(found)


def _first_path(node: object) -> object | None:
    # lazy: ReportLab's graphics shapes only for path data to read
    from reportlab.graphics.shapes import Group, Path

    if isinstance(node, Path):
        return node
    for child in (
        getattr(node, "contents", []) if isinstance(node, Group) or hasattr(node, "contents") else []
    ):
        if (found := _first_path(child)) is not None:
            return found
    return None


def _ops(path: object) -> tuple[Op, ...]:
    """A ReportLab Path's operators as (name, coordinates)."""
    names = {0: ("move", 2), 1: ("line", 2), 2: ("curve", 6), 3: ("close", 0)}
    points = list(getattr(path, "points"))
    out: list[Op] = []
    at = 0
    for code in getattr(path, "operators"):
        name, count = names[code]
        out.append((name, tuple(float(v) for v in points[at : at + count])))
        at += count
    return tuple(out)
