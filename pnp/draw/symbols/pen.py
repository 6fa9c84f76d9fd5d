"""The drawing kit symbol builders use: contours, a pen with shape helpers, and a glyph of parts and holes."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from pnp.draw.symbols.curves import (
    IDENTITY,
    Matrix,
    Point,
    arc_segments,
    cubic,
    cubic_tangent,
    cubic_turns,
    mul,
    sub_cubic,
)


class Contour:
    """One closed sub-path: a start point plus line ('L') and curve ('C') segments."""

    __slots__ = ("start", "segs")

    def __init__(self, start: Point) -> None:
        self.start = start
        self.segs: list[tuple[str, tuple[Point, ...]]] = []

    def area(self) -> float:
        """Signed area of the control polygon (its sign gives the direction)."""
        pts = [self.start]
        for _, ps in self.segs:
            pts.extend(ps)
        return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))

    def extent(self) -> tuple[float, float, float, float]:
        """Exact bounding box (x0, y0, x1, y1)."""
        xs, ys = [self.start[0]], [self.start[1]]
        cur = self.start
        for kind, ps in self.segs:
            end = ps[-1]
            xs.append(end[0])
            ys.append(end[1])
            if kind == "C":
                for t in cubic_turns(cur, *ps):
                    x, y = cubic(cur, ps[0], ps[1], end, t)
                    xs.append(x)
                    ys.append(y)
            cur = end
        return min(xs), min(ys), max(xs), max(ys)

    def reverse(self) -> None:
        points = [self.start] + [ps[-1] for _, ps in self.segs]
        segs: list[tuple[str, tuple[tuple[float, float], ...]]] = []
        for i in range(len(self.segs) - 1, -1, -1):
            kind, ps = self.segs[i]
            prev = points[i]
            segs.append(("L", (prev,)) if kind == "L" else ("C", (ps[1], ps[0], prev)))
        self.start = points[-1]
        self.segs = segs


class Pen:
    """Adds closed contours to a list, mapping design coordinates through a matrix.

    Every finished contour is turned counter-clockwise, so overlapping pieces
    in one non-zero path always merge (holes are made separately).
    """

    def __init__(self, sink: list[Contour], m: Matrix = IDENTITY) -> None:
        self.sink = sink
        self.m = m
        self._cur: Contour | None = None

    # -- transforms -------------------------------------------------------
    def xf(
        self, dx: float = 0.0, dy: float = 0.0, rot: float = 0.0, scale: float = 1.0, mirror: bool = False
    ) -> Pen:
        """A pen drawing into the same list through a local transform:
        optional left-right mirror, then scale, rotate (degrees) and translate."""
        sx = -scale if mirror else scale
        ca, sa = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        local = (ca * sx, sa * sx, -sa * scale, ca * scale, dx, dy)
        return Pen(self.sink, mul(self.m, local))

    def _t(self, x: float, y: float) -> Point:
        a, b, c, d, e, f = self.m
        return a * x + c * y + e, b * x + d * y + f

    # -- raw path operations ---------------------------------------------
    def move(self, x: float, y: float) -> Pen:
        if self._cur is not None:
            self.close()
        self._cur = Contour(self._t(x, y))
        return self

    def line(self, x: float, y: float) -> Pen:
        assert self._cur is not None, "line() needs move() first"
        self._cur.segs.append(("L", (self._t(x, y),)))
        return self

    def curve(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> Pen:
        assert self._cur is not None, "curve() needs move() first"
        self._cur.segs.append(("C", (self._t(x1, y1), self._t(x2, y2), self._t(x, y))))
        return self

    def arc(self, cx: float, cy: float, r: float, a0: float, a1: float, ry: float | None = None) -> Pen:
        """Arc from angle a0 to a1 (degrees; a1 < a0 runs clockwise); joins the open contour."""
        ry = r if ry is None else ry
        a = math.radians(a0)
        sx, sy = cx + r * math.cos(a), cy + ry * math.sin(a)
        if self._cur is None:
            self.move(sx, sy)
        else:
            self.line(sx, sy)
        for c1, c2, p in arc_segments(cx, cy, r, ry, a0, a1):
            self.curve(*c1, *c2, *p)
        return self

    def close(self) -> Pen:
        cur, self._cur = self._cur, None
        if cur is not None and cur.segs:
            if cur.area() < 0:
                cur.reverse()
            self.sink.append(cur)
        return self

    # -- shapes -----------------------------------------------------------
    def circle(self, x: float, y: float, r: float) -> Pen:
        return self.ellipse(x, y, r, r)

    def ellipse(self, x: float, y: float, rx: float, ry: float, rot: float = 0.0) -> Pen:
        p = self.xf(x, y, rot) if rot else self.xf(x, y)
        p.arc(0, 0, rx, 0, 360, ry).close()
        return self

    def poly(self, pts: Sequence[Point], r: float = 0.0) -> Pen:
        """Closed polygon; ``r`` > 0 rounds every corner with that cut-back length."""
        if r <= 0:
            self.move(*pts[0])
            for p in pts[1:]:
                self.line(*p)
            return self.close()
        n = len(pts)
        cuts = []
        for i in range(n):
            v, a, b = pts[i], pts[i - 1], pts[(i + 1) % n]
            la, lb = math.dist(v, a), math.dist(v, b)
            ta, tb = min(r / la, 0.5), min(r / lb, 0.5)
            cuts.append(
                (
                    (v[0] + (a[0] - v[0]) * ta, v[1] + (a[1] - v[1]) * ta),
                    v,
                    (v[0] + (b[0] - v[0]) * tb, v[1] + (b[1] - v[1]) * tb),
                )
            )
        self.move(*cuts[0][2])
        for i in range(1, n + 1):
            p_in, v, p_out = cuts[i % n]
            self.line(*p_in)
            k = 0.55
            self.curve(
                p_in[0] + (v[0] - p_in[0]) * k,
                p_in[1] + (v[1] - p_in[1]) * k,
                p_out[0] + (v[0] - p_out[0]) * k,
                p_out[1] + (v[1] - p_out[1]) * k,
                *p_out,
            )
        return self.close()

    def rect(self, x0: float, y0: float, x1: float, y1: float, r: float = 0.0) -> Pen:
        return self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], r)

    def mirrored(self, start: Point, segs: Sequence[tuple[float, ...]]) -> Pen:
        """Left-right symmetric contour from its left half.

        ``start`` and the segments trace the left half (x <= 0), usually from a
        point on the axis down to another; 2-tuples are lines, 6-tuples curves.
        The right half is the mirror image traced back.
        """
        pts = [start]
        self.move(*start)
        for s in segs:
            (self.line if len(s) == 2 else self.curve)(*s)
            pts.append((s[-2], s[-1]))
        end = pts[-1]
        if abs(end[0]) > 1e-9:
            self.line(-end[0], end[1])
        for i in range(len(segs) - 1, -1, -1):
            s, prev = segs[i], pts[i]
            if len(s) == 2:
                self.line(-prev[0], prev[1])
            else:
                self.curve(-s[2], s[3], -s[0], s[1], -prev[0], prev[1])
        return self.close()

    def stroke(
        self, p0: Point, c1: Point, c2: Point, p3: Point, width: float | Sequence[float], cap: str = "round"
    ) -> Pen:
        """A thick Bézier as one filled contour.

        ``width`` is a number or a profile of widths spread evenly along the
        curve (e.g. (3, 9, 3) for a bow limb that is thickest in the middle).
        ``cap`` is "round" or "butt".  The offset edges are approximated by
        shifting the control points of a few sub-curves, which is exact for
        straight strokes and invisible for the gentle curves used here.
        """
        prof = [float(width)] if isinstance(width, (int, float)) else [float(w) for w in width]

        def w_at(t: float) -> float:
            if len(prof) == 1:
                return prof[0]
            f = t * (len(prof) - 1)
            k = min(int(f), len(prof) - 2)
            return prof[k] + (prof[k + 1] - prof[k]) * (f - k)

        def normal(t: float) -> Point:
            dx, dy = cubic_tangent(p0, c1, c2, p3, t)
            ln = math.hypot(dx, dy)
            return -dy / ln, dx / ln

        # straight strokes only need a piece per step of the width profile
        cx, cy = p3[0] - p0[0], p3[1] - p0[1]
        ln = math.hypot(cx, cy) or 1.0
        bend = max(abs((q[0] - p0[0]) * cy - (q[1] - p0[1]) * cx) / ln for q in (c1, c2))
        pieces = max(len(prof) - 1, 1) * (1 if bend < 1e-6 else 2 if len(prof) > 2 else 4)
        ts = [i / pieces for i in range(pieces + 1)]
        left: list[tuple[Point, Point, Point]] = []
        right: list[tuple[Point, Point, Point]] = []
        for ta, tb in zip(ts, ts[1:]):
            q0, q1, q2, q3 = sub_cubic(p0, c1, c2, p3, ta, tb)
            (nax, nay), (nbx, nby) = normal(ta), normal(tb)
            ha, hb = w_at(ta) / 2, w_at(tb) / 2
            left.append(
                (
                    (q1[0] + nax * ha, q1[1] + nay * ha),
                    (q2[0] + nbx * hb, q2[1] + nby * hb),
                    (q3[0] + nbx * hb, q3[1] + nby * hb),
                )
            )
            right.append(
                (
                    (q2[0] - nbx * hb, q2[1] - nby * hb),
                    (q1[0] - nax * ha, q1[1] - nay * ha),
                    (q0[0] - nax * ha, q0[1] - nay * ha),
                )
            )
        n0 = normal(0.0)
        h0, h1 = w_at(0.0) / 2, w_at(1.0) / 2
        self.move(p0[0] + n0[0] * h0, p0[1] + n0[1] * h0)
        for a, b, e in left:
            self.curve(*a, *b, *e)
        if cap == "round" and h1 > 0:
            d = math.degrees(math.atan2(*reversed(cubic_tangent(p0, c1, c2, p3, 1.0))))
            self._cap(p3, d, h1)
        else:
            n1 = normal(1.0)
            self.line(p3[0] - n1[0] * h1, p3[1] - n1[1] * h1)
        for a, b, e in reversed(right):
            self.curve(*a, *b, *e)
        if cap == "round" and h0 > 0:
            d = math.degrees(math.atan2(*reversed(cubic_tangent(p0, c1, c2, p3, 0.0))))
            self._cap(p0, d + 180, h0)
        return self.close()

    def _cap(self, p: Point, a: float, h: float) -> None:
        """Half-circle around ``p`` turning clockwise through direction ``a``."""
        for b1, b2, e in arc_segments(p[0], p[1], h, h, a + 90, a - 90):
            self.curve(*b1, *b2, *e)

    def bar(
        self, x0: float, y0: float, x1: float, y1: float, width: float | Sequence[float], cap: str = "round"
    ) -> Pen:
        """A straight thick line (see ``stroke``)."""
        return self.stroke(
            (x0, y0),
            (x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3),
            (x0 + (x1 - x0) * 2 / 3, y0 + (y1 - y0) * 2 / 3),
            (x1, y1),
            width,
            cap,
        )

    def spark(self, x: float, y: float, r: float, pinch: float = 0.18, ry: float | None = None) -> Pen:
        """A four-pointed sparkle with concave sides."""
        ry = r if ry is None else ry
        self.move(x, y + ry)
        pts = [(x + r, y), (x, y - ry), (x - r, y), (x, y + ry)]
        prev = (x, y + ry)
        for p in pts:
            # handles hug the centre so the sides curve inwards
            self.curve(
                x + (prev[0] - x) * pinch,
                y + (prev[1] - y) * pinch,
                x + (p[0] - x) * pinch,
                y + (p[1] - y) * pinch,
                *p,
            )
            prev = p
        return self.close()


class Glyph:
    """A symbol under construction: filled parts plus knock-out (hole) groups."""

    def __init__(self) -> None:
        self.parts: list[tuple[list[Contour], bool]] = []
        self.cuts: list[list[Contour]] = []
        self.optical = 1.0  # < 1 shrinks heavy shapes so they sit well beside others

    def part(self, even_odd: bool = False) -> Pen:
        """Pen for a filled part.  Non-zero parts merge their contours; even-odd
        parts turn nested contours into holes."""
        sink: list[Contour] = []
        self.parts.append((sink, even_odd))
        return Pen(sink)

    def cut(self) -> Pen:
        """Pen for a hole punched through every part (contours must not overlap each other)."""
        sink: list[Contour] = []
        self.cuts.append(sink)
        return Pen(sink)

    def bounds(self) -> tuple[float, float, float, float]:
        boxes = [ct.extent() for contours, _ in self.parts for ct in contours]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


def emit(c: Canvas, contours: Iterable[Contour]) -> PDFPathObject:
    p = c.beginPath()
    for ct in contours:
        p.moveTo(*ct.start)
        for kind, ps in ct.segs:
            if kind == "L":
                p.lineTo(*ps[0])
            else:
                p.curveTo(ps[0][0], ps[0][1], ps[1][0], ps[1][1], ps[2][0], ps[2][1])
        p.close()
    return p


# --------------------------------------------------------------------------
# card suits
