"""Vector symbols for printed cards, drawn with ReportLab canvas paths.

Each symbol is one solid silhouette, built in its own design grid (about
-50..50, y up) by a small builder function.  ``draw_symbol`` measures the
result exactly, centres it and scales it to fill a ``size`` x ``size`` box,
so builders never deal with page coordinates.  Details (dots on a mushroom,
facets of a gem, ...) are real holes, made with even-odd paths or, where
pieces overlap, with a clip that knocks them out: nothing is painted white,
so symbols work on any background and in grayscale.

Outlines are drawn as a halo: stroked at twice the requested width, with the
inner half hidden under the fill (or clipped away when there is no fill).
The outline therefore traces the silhouette, never the overlapping pieces it
was built from, and it is counted inside the box.
"""
from __future__ import annotations

import difflib
import math
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Sequence

from reportlab.lib import colors
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

__all__ = ["SYMBOLS", "draw_symbol", "has_symbol"]

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]

_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------
# geometry helpers


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """Matrix applying ``n`` first, then ``m``."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1.0 - t
    return (u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
            u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1])


def _cubic_tangent(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1.0 - t
    dx = 3 * u * u * (p1[0] - p0[0]) + 6 * u * t * (p2[0] - p1[0]) + 3 * t * t * (p3[0] - p2[0])
    dy = 3 * u * u * (p1[1] - p0[1]) + 6 * u * t * (p2[1] - p1[1]) + 3 * t * t * (p3[1] - p2[1])
    if abs(dx) + abs(dy) < 1e-9:  # degenerate handle: fall back to the chord
        dx, dy = p3[0] - p0[0], p3[1] - p0[1]
    return dx, dy


def _cubic_turns(p0: Point, p1: Point, p2: Point, p3: Point) -> list[float]:
    """Parameters in (0, 1) where a cubic turns back in x or in y."""
    out = []
    for i in (0, 1):
        # derivative / 3 = a t^2 + b t + c
        a = -p0[i] + 3 * p1[i] - 3 * p2[i] + p3[i]
        b = 2 * (p0[i] - 2 * p1[i] + p2[i])
        c = p1[i] - p0[i]
        if abs(a) < 1e-12:
            roots = [-c / b] if abs(b) > 1e-12 else []
        else:
            disc = b * b - 4 * a * c
            roots = [] if disc < 0 else [(-b + sq) / (2 * a) for sq in (math.sqrt(disc), -math.sqrt(disc))]
        out += [t for t in roots if 0 < t < 1]
    return out


def _sub_cubic(p0: Point, p1: Point, p2: Point, p3: Point, ta: float, tb: float) -> tuple[Point, Point, Point, Point]:
    """Control points of the part of a cubic between parameters ta and tb."""
    def split(a: Point, b: Point, c: Point, d: Point, t: float):
        ab = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        bc = (b[0] + (c[0] - b[0]) * t, b[1] + (c[1] - b[1]) * t)
        cd = (c[0] + (d[0] - c[0]) * t, c[1] + (d[1] - c[1]) * t)
        abc = (ab[0] + (bc[0] - ab[0]) * t, ab[1] + (bc[1] - ab[1]) * t)
        bcd = (bc[0] + (cd[0] - bc[0]) * t, bc[1] + (cd[1] - bc[1]) * t)
        m = (abc[0] + (bcd[0] - abc[0]) * t, abc[1] + (bcd[1] - abc[1]) * t)
        return (a, ab, abc, m), (m, bcd, cd, d)

    seg = (p0, p1, p2, p3)
    if tb < 1.0:
        seg = split(*seg, tb)[0]
    if ta > 0.0:
        seg = split(*seg, ta / tb)[1]
    return seg


def _polar(cx: float, cy: float, r: float, deg: float) -> Point:
    a = math.radians(deg)
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _arc_segments(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float) -> list[tuple[Point, Point, Point]]:
    """Cubic pieces (c1, c2, end) of an elliptical arc from angle a0 to a1 (degrees)."""
    n = max(1, math.ceil(abs(a1 - a0) / 90.0 - 1e-9))
    step = math.radians(a1 - a0) / n
    k = 4.0 / 3.0 * math.tan(step / 4.0)
    out = []
    t = math.radians(a0)
    for _ in range(n):
        c0, s0, c1, s1 = math.cos(t), math.sin(t), math.cos(t + step), math.sin(t + step)
        out.append(((cx + rx * (c0 - k * s0), cy + ry * (s0 + k * c0)),
                    (cx + rx * (c1 + k * s1), cy + ry * (s1 - k * c1)),
                    (cx + rx * c1, cy + ry * s1)))
        t += step
    return out


def _circle_hits(c1: Point, r1: float, c2: Point, r2: float) -> tuple[Point, Point]:
    """The two crossing points of two circles (left, right as seen from c1 towards c2)."""
    dx, dy = c2[0] - c1[0], c2[1] - c1[1]
    d = math.hypot(dx, dy)
    a = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    h = math.sqrt(max(r1 * r1 - a * a, 0.0))
    mx, my = c1[0] + a * dx / d, c1[1] + a * dy / d
    return (mx - h * dy / d, my + h * dx / d), (mx + h * dy / d, my - h * dx / d)


def _angle(c: Point, p: Point) -> float:
    return math.degrees(math.atan2(p[1] - c[1], p[0] - c[0]))


# --------------------------------------------------------------------------
# path building


class _Contour:
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
                for t in _cubic_turns(cur, *ps):
                    x, y = _cubic(cur, ps[0], ps[1], end, t)
                    xs.append(x)
                    ys.append(y)
            cur = end
        return min(xs), min(ys), max(xs), max(ys)

    def reverse(self) -> None:
        points = [self.start] + [ps[-1] for _, ps in self.segs]
        segs = []
        for i in range(len(self.segs) - 1, -1, -1):
            kind, ps = self.segs[i]
            prev = points[i]
            segs.append(("L", (prev,)) if kind == "L" else ("C", (ps[1], ps[0], prev)))
        self.start = points[-1]
        self.segs = segs


class _Pen:
    """Adds closed contours to a list, mapping design coordinates through a matrix.

    Every finished contour is turned counter-clockwise, so overlapping pieces
    in one non-zero path always merge (holes are made separately).
    """

    def __init__(self, sink: list[_Contour], m: Matrix = _IDENTITY) -> None:
        self.sink = sink
        self.m = m
        self._cur: _Contour | None = None

    # -- transforms -------------------------------------------------------
    def xf(self, dx: float = 0.0, dy: float = 0.0, rot: float = 0.0, scale: float = 1.0,
           mirror: bool = False) -> _Pen:
        """A pen drawing into the same list through a local transform:
        optional left-right mirror, then scale, rotate (degrees) and translate."""
        sx = -scale if mirror else scale
        ca, sa = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        local = (ca * sx, sa * sx, -sa * scale, ca * scale, dx, dy)
        return _Pen(self.sink, _mul(self.m, local))

    def _t(self, x: float, y: float) -> Point:
        a, b, c, d, e, f = self.m
        return a * x + c * y + e, b * x + d * y + f

    # -- raw path operations ---------------------------------------------
    def move(self, x: float, y: float) -> _Pen:
        if self._cur is not None:
            self.close()
        self._cur = _Contour(self._t(x, y))
        return self

    def line(self, x: float, y: float) -> _Pen:
        assert self._cur is not None, "line() needs move() first"
        self._cur.segs.append(("L", (self._t(x, y),)))
        return self

    def curve(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> _Pen:
        assert self._cur is not None, "curve() needs move() first"
        self._cur.segs.append(("C", (self._t(x1, y1), self._t(x2, y2), self._t(x, y))))
        return self

    def arc(self, cx: float, cy: float, r: float, a0: float, a1: float, ry: float | None = None) -> _Pen:
        """Arc from angle a0 to a1 (degrees; a1 < a0 runs clockwise); joins the open contour."""
        ry = r if ry is None else ry
        a = math.radians(a0)
        sx, sy = cx + r * math.cos(a), cy + ry * math.sin(a)
        if self._cur is None:
            self.move(sx, sy)
        else:
            self.line(sx, sy)
        for c1, c2, p in _arc_segments(cx, cy, r, ry, a0, a1):
            self.curve(*c1, *c2, *p)
        return self

    def close(self) -> _Pen:
        cur, self._cur = self._cur, None
        if cur is not None and cur.segs:
            if cur.area() < 0:
                cur.reverse()
            self.sink.append(cur)
        return self

    # -- shapes -----------------------------------------------------------
    def circle(self, x: float, y: float, r: float) -> _Pen:
        return self.ellipse(x, y, r, r)

    def ellipse(self, x: float, y: float, rx: float, ry: float, rot: float = 0.0) -> _Pen:
        p = self.xf(x, y, rot) if rot else self.xf(x, y)
        p.arc(0, 0, rx, 0, 360, ry).close()
        return self

    def poly(self, pts: Sequence[Point], r: float = 0.0) -> _Pen:
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
            cuts.append(((v[0] + (a[0] - v[0]) * ta, v[1] + (a[1] - v[1]) * ta), v,
                         (v[0] + (b[0] - v[0]) * tb, v[1] + (b[1] - v[1]) * tb)))
        self.move(*cuts[0][2])
        for i in range(1, n + 1):
            p_in, v, p_out = cuts[i % n]
            self.line(*p_in)
            k = 0.55
            self.curve(p_in[0] + (v[0] - p_in[0]) * k, p_in[1] + (v[1] - p_in[1]) * k,
                       p_out[0] + (v[0] - p_out[0]) * k, p_out[1] + (v[1] - p_out[1]) * k, *p_out)
        return self.close()

    def rect(self, x0: float, y0: float, x1: float, y1: float, r: float = 0.0) -> _Pen:
        return self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], r)

    def mirrored(self, start: Point, segs: Sequence[tuple[float, ...]]) -> _Pen:
        """Left-right symmetric contour from its left half.

        ``start`` and the segments trace the left half (x <= 0), usually from a
        point on the axis down to another; 2-tuples are lines, 6-tuples curves.
        The right half is the mirror image traced back.
        """
        pts = [start]
        self.move(*start)
        for s in segs:
            (self.line if len(s) == 2 else self.curve)(*s)
            pts.append(s[-2:])
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

    def stroke(self, p0: Point, c1: Point, c2: Point, p3: Point,
               width: float | Sequence[float], cap: str = "round") -> _Pen:
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
            dx, dy = _cubic_tangent(p0, c1, c2, p3, t)
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
            q0, q1, q2, q3 = _sub_cubic(p0, c1, c2, p3, ta, tb)
            (nax, nay), (nbx, nby) = normal(ta), normal(tb)
            ha, hb = w_at(ta) / 2, w_at(tb) / 2
            left.append(((q1[0] + nax * ha, q1[1] + nay * ha), (q2[0] + nbx * hb, q2[1] + nby * hb),
                         (q3[0] + nbx * hb, q3[1] + nby * hb)))
            right.append(((q2[0] - nbx * hb, q2[1] - nby * hb), (q1[0] - nax * ha, q1[1] - nay * ha),
                          (q0[0] - nax * ha, q0[1] - nay * ha)))
        n0 = normal(0.0)
        h0, h1 = w_at(0.0) / 2, w_at(1.0) / 2
        self.move(p0[0] + n0[0] * h0, p0[1] + n0[1] * h0)
        for a, b, e in left:
            self.curve(*a, *b, *e)
        if cap == "round" and h1 > 0:
            d = math.degrees(math.atan2(*reversed(_cubic_tangent(p0, c1, c2, p3, 1.0))))
            self._cap(p3, d, h1)
        else:
            n1 = normal(1.0)
            self.line(p3[0] - n1[0] * h1, p3[1] - n1[1] * h1)
        for a, b, e in reversed(right):
            self.curve(*a, *b, *e)
        if cap == "round" and h0 > 0:
            d = math.degrees(math.atan2(*reversed(_cubic_tangent(p0, c1, c2, p3, 0.0))))
            self._cap(p0, d + 180, h0)
        return self.close()

    def _cap(self, p: Point, a: float, h: float) -> None:
        """Half-circle around ``p`` turning clockwise through direction ``a``."""
        for b1, b2, e in _arc_segments(p[0], p[1], h, h, a + 90, a - 90):
            self.curve(*b1, *b2, *e)

    def bar(self, x0: float, y0: float, x1: float, y1: float, width: float | Sequence[float],
            cap: str = "round") -> _Pen:
        """A straight thick line (see ``stroke``)."""
        return self.stroke((x0, y0), (x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3),
                           (x0 + (x1 - x0) * 2 / 3, y0 + (y1 - y0) * 2 / 3), (x1, y1), width, cap)

    def spark(self, x: float, y: float, r: float, pinch: float = 0.18, ry: float | None = None) -> _Pen:
        """A four-pointed sparkle with concave sides."""
        ry = r if ry is None else ry
        self.move(x, y + ry)
        pts = [(x + r, y), (x, y - ry), (x - r, y), (x, y + ry)]
        prev = (x, y + ry)
        for p in pts:
            # handles hug the centre so the sides curve inwards
            self.curve(x + (prev[0] - x) * pinch, y + (prev[1] - y) * pinch,
                       x + (p[0] - x) * pinch, y + (p[1] - y) * pinch, *p)
            prev = p
        return self.close()


class _Glyph:
    """A symbol under construction: filled parts plus knock-out (hole) groups."""

    def __init__(self) -> None:
        self.parts: list[tuple[list[_Contour], bool]] = []
        self.cuts: list[list[_Contour]] = []
        self.optical = 1.0  # < 1 shrinks heavy shapes so they sit well beside others

    def part(self, even_odd: bool = False) -> _Pen:
        """Pen for a filled part.  Non-zero parts merge their contours; even-odd
        parts turn nested contours into holes."""
        sink: list[_Contour] = []
        self.parts.append((sink, even_odd))
        return _Pen(sink)

    def cut(self) -> _Pen:
        """Pen for a hole punched through every part (contours must not overlap each other)."""
        sink: list[_Contour] = []
        self.cuts.append(sink)
        return _Pen(sink)

    def bounds(self) -> tuple[float, float, float, float]:
        boxes = [ct.extent() for contours, _ in self.parts for ct in contours]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))


def _emit(c: Canvas, contours: Iterable[_Contour]) -> PDFPathObject:
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


def _heart(g: _Glyph) -> None:
    g.part().mirrored((0, 28), [(-4, 40, -13, 46, -24, 46), (-39, 46, -50, 34, -50, 17),
                                (-50, -6, -22, -25, 0, -46)])


def _diamond(g: _Glyph) -> None:
    g.part().mirrored((0, 50), [(-9, 31, -22, 14, -37, 0), (-22, -14, -9, -31, 0, -50)])


def _spade(g: _Glyph) -> None:
    g.part().mirrored((0, 50), [(-10, 34, -48, 16, -48, -10), (-48, -26, -37, -35, -25, -35),
                                (-15, -35, -8, -31, -4, -24), (-4, -34, -9, -43, -20, -48),
                                (-20, -50)])


def _club(g: _Glyph) -> None:
    p = g.part()
    p.circle(0, 22, 21).circle(-24, -6, 21).circle(24, -6, 21)
    p.poly([(0, 14), (-14, -8), (14, -8)])
    p.mirrored((-4, 0), [(-4, -26, -10, -42, -20, -48), (-20, -50)])


# --------------------------------------------------------------------------
# Fairy Bucks items


def _crescent(p: _Pen, r1: float, r2: float, d: float) -> None:
    """Crescent: disc of radius r1 minus a disc of radius r2 shifted by d along +x."""
    top, bot = _circle_hits((0, 0), r1, (d, 0), r2)  # left = upper crossing
    a = _angle((0, 0), top)
    p.arc(0, 0, r1, a, 360 - a)
    b_top, b_bot = _angle((d, 0), top), _angle((d, 0), bot) + 360
    p.arc(d, 0, r2, b_bot, b_top)
    p.close()


def _moon(g: _Glyph) -> None:
    _crescent(g.part().xf(rot=40), 46, 38, 22)


def _sun(g: _Glyph) -> None:
    p = g.part()
    p.circle(0, 0, 25)
    for i in range(8):
        long = i % 2 == 0
        tip = 50 if long else 44
        half = 8 if long else 6.5
        p.xf(rot=90 + 45 * i).poly([(32, -half), (tip, 0), (32, half)], 1.6)


def _star_points(r_out: float, r_in: float, n: int = 5, phase: float = 90) -> list[Point]:
    pts = []
    for i in range(2 * n):
        pts.append(_polar(0, 0, r_out if i % 2 == 0 else r_in, phase + 180 * i / n))
    return pts


def _star(g: _Glyph) -> None:
    g.part().poly(_star_points(50, 23), 2.2)


def _book(g: _Glyph) -> None:
    # two pages that rise towards the outer corners, a spine gap and a cover
    page = [(-3, 30), (-14, 40, -31, 42, -47, 36), (-47, -28), (-31, -22, -14, -24, -3, -32)]
    for mirror in (False, True):
        p = g.part(even_odd=True).xf(mirror=mirror)
        p.move(*page[0])
        p.curve(*page[1])
        p.line(*page[2])
        p.curve(*page[3])
        p.close()
        for k in range(3):  # lines of text as slits following the page curve
            dy = -13 - 12 * k
            p.stroke((-9, 30 + dy), (-18, 36 + dy), (-30, 38 + dy), (-40, 34 + dy), 3.4, cap="round")
    g.part().mirrored((0, -37), [(-14, -29, -30, -27, -47, -33), (-50, -33), (-50, -39),
                                 (-32, -33, -14, -35, 0, -44)])


# --------------------------------------------------------------------------
# tarot elements


def _sword(g: _Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-45)
    p.poly([(-7, -22), (-6, 46), (0, 64), (6, 46), (7, -22)])
    p.poly([(-1.4, -16), (-1.1, 38), (1.1, 38), (1.4, -16)], 1)  # fuller
    q = g.part().xf(rot=-45)
    q.stroke((-25, -22), (-10, -31), (10, -31), (25, -22), (6, 9, 6))  # cross-guard
    q.rect(-4.2, -46, 4.2, -26, 1.5)  # grip
    q.circle(0, -51, 7.5)  # pommel


def _bow(g: _Glyph) -> None:
    p = g.part().xf(rot=45)
    p.stroke((-20, 48), (40, 36), (40, -36), (-20, -48), (3, 6, 10, 6, 3))  # limb
    p.bar(-20, 48, -20, -48, 2.6)  # string
    p.bar(-38, 0, 40, 0, 3.6, cap="butt")  # shaft
    p.poly([(56, 0), (38, 10), (42, 0), (38, -10)], 1)  # head
    for s in (1, -1):  # fletching
        p.poly([(-40, 0), (-46, 11 * s), (-33, 11 * s), (-26, 0)], 1)


def _magic(g: _Glyph) -> None:
    p = g.part()
    p.bar(-46, -46, 2, 2, 9.5)
    q = g.part()
    q.bar(6, 6, 12, 12, 9.5, cap="butt")  # bright tip, set apart by a gap
    q.spark(27, 27, 23, 0.16)
    q.spark(-18, 30, 10, 0.2)
    q.spark(32, -14, 8, 0.2)


def _tiger(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored((0, 36), [(-10, 36, -18, 34, -24, 31), (-28, 40, -34, 46, -40, 46),
                         (-46, 46, -48, 36, -46, 24), (-44, 18), (-48, 6, -51, -4, -50, -10),
                         (-44, -10), (-46, -20, -40, -28, -34, -30), (-24, -40, -12, -44, 0, -46)])
    for s in (1, -1):
        q = p.xf(mirror=s < 0)
        q.poly([(-39, 36), (-40, 26), (-31, 31)], 1.5)  # inner ear
        q.poly([(-24, 6), (-16, 10), (-8, 6), (-16, 1)], 2)  # eye
        q.stroke((-45.5, -3), (-39, -3), (-34, -1), (-27, 2), (6.5, 4, 0.5), cap="butt")  # cheek stripes
        q.stroke((-41, -17), (-36.5, -16), (-32, -14), (-26, -10), (5.5, 3.5, 0.5), cap="butt")
        q.stroke((-13, 34), (-13, 29), (-12, 24), (-8, 18), (6, 3.5, 0.5), cap="butt")  # brow
        q.stroke((-26, 28), (-24, 24), (-22, 21), (-18, 18), (5, 3, 0.5), cap="butt")
        q.stroke((-2, -24), (-5, -30), (-10, -31), (-14, -27), 2.2, cap="round")  # mouth
    p.stroke((0, 34), (0, 29), (0, 24), (0, 16), (7, 4, 0.5), cap="butt")
    p.mirrored((0, -20), [(-7, -10), (-8, -8, -7, -6, -5, -6), (0, -6)])  # nose


# --------------------------------------------------------------------------
# Feenbalz categories and neutral objects


def _beetle(g: _Glyph) -> None:
    shell = g.part()
    for s in (1, -1):
        q = shell.xf(mirror=s < 0)
        q.move(-1.8, 17)
        q.curve(-14, 17, -26, 10, -26, -6)
        q.curve(-26, -26, -14, -42, -1.8, -46)
        q.close()
        q.bar(-18, 18, -30, 26, 4, cap="round")
        q.bar(-30, 26, -34, 38, 4, cap="round")
        q.bar(-22, 0, -38, 2, 4, cap="round")
        q.bar(-38, 2, -44, 12, 4, cap="round")
        q.bar(-20, -22, -34, -28, 4, cap="round")
        q.bar(-34, -28, -38, -42, 4, cap="round")
        q.stroke((-4, 42), (-8, 48), (-14, 50), (-20, 48), 2.8)  # antenna
    head = g.part()
    head.mirrored((0, 33), [(-10, 33, -17, 31, -19, 24), (-19, 19.5), (0, 19.5)])  # pronotum
    head.mirrored((0, 44), [(-6, 44, -9, 41, -9, 36), (0, 36)])


def _lobes(p: _Pen, n: int, d: float, r: float, phase: float = 90) -> None:
    """Outline of n overlapping discs (radius r, centres at distance d) as one contour."""
    half = 180 / n
    t = d * math.cos(math.radians(half)) + math.sqrt(r * r - (d * math.sin(math.radians(half))) ** 2)
    first = True
    for i in range(n):
        a = phase + 360 * i / n
        cx, cy = _polar(0, 0, d, a)
        a0 = _angle((cx, cy), _polar(0, 0, t, a - half))
        a1 = _angle((cx, cy), _polar(0, 0, t, a + half))
        while a1 < a0:
            a1 += 360
        if first:
            p.move(*_polar(0, 0, t, a - half))
            first = False
        p.arc(cx, cy, r, a0, a1)
    p.close()


def _flower(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    _lobes(p, 5, 29, 21)
    p.circle(0, 0, 15.5)
    p.circle(0, 0, 11.5)


def _stone(g: _Glyph) -> None:
    t1, t2 = (-22, 38), (22, 38)
    g0, g1, g2, g3 = (-48, 14), (-14, 14), (14, 14), (48, 14)
    b = (0, -46)
    facets = [[g0, g1, t1], [t1, g1, g2, t2], [g2, g3, t2], [g0, b, g1], [g1, b, g2], [g2, b, g3]]
    p = g.part()
    for f in facets:
        p.poly(_inset(f, 1.6), 0.8)


def _inset(poly: Sequence[Point], d: float) -> list[Point]:
    """Convex polygon shrunk by d on every side."""
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, list(poly[1:]) + [poly[0]]))
    pts = list(poly) if area > 0 else list(poly)[::-1]
    n = len(pts)
    lines = []
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        ln = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / ln, (x1 - x0) / ln  # inward for a CCW polygon
        lines.append(((x0 + nx * d, y0 + ny * d), (x1 - x0, y1 - y0)))
    out = []
    for i in range(n):
        (p, r), (q, s) = lines[i - 1], lines[i]
        den = r[0] * s[1] - r[1] * s[0]
        t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / den
        out.append((p[0] + r[0] * t, p[1] + r[1] * t))
    return out


def _feather(g: _Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-38)
    p.move(0, -26)
    p.curve(-9, -25, -15, -18, -16, -8)
    p.line(-6, -15)
    p.line(-16, -2)
    p.curve(-17, 16, -12, 38, 0, 56)
    p.curve(8, 44, 13, 30, 13, 22)
    p.line(4, 14)
    p.line(13, 14)
    p.curve(13, -2, 9, -22, 0, -26)
    p.close()
    p.stroke((0, -20), (0.5, 5), (0.5, 25), (0, 46), (2.6, 2, 0.8), cap="butt")  # shaft in the vane
    g.part().xf(rot=-38).stroke((0, -27), (0, -36), (-0.5, -44), (-1.5, -52), (4.2, 3.2), cap="round")


def _mushroom(g: _Glyph) -> None:
    cap = g.part(even_odd=True)
    cap.mirrored((0, 46), [(-30, 46, -50, 26, -50, 6), (-50, 0, -47, -2, -42, -2),
                           (-28, 0, -14, 2, 0, 2)])
    for x, y, r in [(0, 33, 6.5), (-24, 27, 5.5), (24, 25, 6), (-38, 8, 3.6), (38, 9, 3.6),
                    (-12, 13, 4), (12, 12, 3.4)]:
        cap.circle(x, y, r)
    g.part().mirrored((0, -2), [(-10, -2, -13, -3, -14, -4), (-15, -20, -17, -34, -20, -40),
                                (-22, -46, -14, -48, 0, -48)])


def _shell(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    hinge, centre, n = (0, -44), (0, -4), 7  # grooves fan out from the hinge; the rim is round about centre
    valleys = [_polar(*centre, 46, 200 - 220 * i / n) for i in range(n + 1)]
    p.move(-10, -32)  # the "ears" at the hinge
    p.line(-24, -36)
    p.line(-20, -46)
    p.line(20, -46)
    p.line(24, -36)
    p.line(10, -32)
    p.line(*valleys[-1])
    for i in range(n, 0, -1):  # scalloped rim, right to left
        a, b = valleys[i], valleys[i - 1]
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        ox, oy = mx - centre[0], my - centre[1]
        ln = math.hypot(ox, oy)
        q = (mx + ox / ln * 9, my + oy / ln * 9)  # scallop bulges 9 units outwards
        p.curve(a[0] + (q[0] - a[0]) * 2 / 3, a[1] + (q[1] - a[1]) * 2 / 3,
                b[0] + (q[0] - b[0]) * 2 / 3, b[1] + (q[1] - b[1]) * 2 / 3, *b)
    p.close()
    for v in valleys[1:-1]:  # grooves from the hinge towards each valley
        dx, dy = v[0] - hinge[0], v[1] - hinge[1]
        ln = math.hypot(dx, dy)
        s, e = 20 / ln, (ln - 6) / ln
        p.bar(hinge[0] + dx * s, hinge[1] + dy * s, hinge[0] + dx * e, hinge[1] + dy * e, (1.0, 3.4), cap="butt")
    p.bar(-17, -38, 17, -38, 1.8, cap="butt")


def _horseshoe(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    gap = 26  # half-angle of the opening, measured from straight up
    p.arc(0, 0, 46, 90 - gap, -270 + gap)
    p.arc(0, 0, 25, -270 + gap, 90 - gap)
    p.close()
    for a in (-55, -20, 15, -125, -160, 165):
        p.xf(rot=a).poly([(33.5, -4.2), (37.5, -4.2), (37.5, 4.2), (33.5, 4.2)], 1.5)


def _berry(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    for x, y, r in [(-18, -22, 17), (17, -25, 17), (-2, 7, 16)]:
        p.circle(x, y, r)
        p.stroke((x - r * 0.62, y + r * 0.05), (x - r * 0.6, y + r * 0.35), (x - r * 0.4, y + r * 0.55),
                 (x - r * 0.12, y + r * 0.62), (1.4, 3.4, 1.4), cap="butt")  # gloss
    q = g.part(even_odd=True)
    q.move(6, 28).curve(14, 46, 32, 50, 48, 48).curve(44, 32, 26, 20, 6, 28).close()  # leaf
    q.stroke((11, 30), (22, 36), (32, 41), (42, 45), (2.2, 1.2, 0.4), cap="butt")
    r = g.part()
    r.stroke((4, 28), (-2, 30), (-4, 28), (-3, 22), 3.2)


def _fairy(g: _Glyph) -> None:
    body = g.part()
    body.circle(0, 32, 8.5)
    body.mirrored((0, 22), [(-4, 22), (-9, 17, -10, 12, -10, 8), (-14, -4, -18, -16, -22, -26),
                            (-12, -24, -4, -26, 0, -24)])
    body.bar(-5, -24, -6, -46, 4, cap="round")
    body.stroke((5, -24), (6, -32), (8, -36), (14, -42), 4, cap="round")
    body.stroke((-7, 16), (-14, 14), (-18, 8), (-20, 2), 3.6)
    body.stroke((7, 16), (14, 20), (18, 28), (22, 34), 3.6)
    body.bar(22, 34, 30, 44, 1.8)
    body.spark(31, 46, 5.5, 0.2)
    wings = g.part()
    for s in (1, -1):
        w = wings.xf(mirror=s < 0)
        w.move(-13, 18).curve(-26, 34, -44, 46, -48, 40).curve(-52, 32, -38, 18, -15, 12).close()
        w.move(-14, 8).curve(-30, 6, -40, -6, -36, -14).curve(-32, -20, -20, -8, -14, 4).close()


def _dislike(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.circle(0, 0, 48)
    p.circle(0, 0, 36)
    g.part().xf(rot=-45).rect(-40, -6.5, 40, 6.5)


# --------------------------------------------------------------------------
# emblems


def _crown(g: _Glyph) -> None:
    p = g.part()
    p.mirrored((0, 30), [(-19, 6), (-42, 22), (-37, -14)])
    p.circle(0, 33, 6.5).circle(-43, 25, 6).circle(43, 25, 6)
    band = g.part(even_odd=True)
    band.rect(-39, -38, 39, -19, 3)
    for x in (-22, 0, 22):
        band.poly([(x, -23), (x + 5.5, -28.5), (x, -34), (x - 5.5, -28.5)], 1)


def _leaf(g: _Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-45)
    p.move(0, -38).curve(-30, -26, -30, 22, 0, 50).curve(30, 22, 30, -26, 0, -38).close()
    p.bar(0, -31, 0, 40, (3.2, 2.2, 0.4), cap="butt")  # midrib
    for y in (-20, -4, 12):  # side veins, kept clear of the midrib
        reach = 18 * (1 - (y + 20) / 80)
        for s in (1, -1):
            p.stroke((2.4 * s, y + 1.5), (7 * s, y + 5), (12 * s, y + 9), (reach * s, y + 14),
                     (1.8, 0.4), cap="butt")
    g.part().xf(rot=-45).stroke((0, -34), (0, -44), (-2, -50), (-6, -56), 4.5, cap="round")  # stalk


def _acorn(g: _Glyph) -> None:
    cap = g.part(even_odd=True)
    cap.mirrored((0, 30), [(-22, 30, -40, 20, -40, 6), (-40, 0, -36, -2, -30, -2), (0, -2)])
    cap.stroke((-30, 6), (-18, 14), (18, 14), (30, 6), 2.4, cap="round")
    g.part().stroke((0, 28), (0, 34), (2, 40), (6, 44), (6, 4.5), cap="round")
    g.part().mirrored((0, -6), [(-28, -6), (-30, -24, -18, -40, 0, -48)])


def _butterfly(g: _Glyph) -> None:
    wings = g.part(even_odd=True)
    for s in (1, -1):
        w = wings.xf(mirror=s < 0)
        w.move(-5, 6).curve(-14, 26, -34, 42, -44, 40).curve(-52, 38, -50, 20, -42, 10)
        w.curve(-34, 2, -18, 0, -5, 2).close()
        w.circle(-34, 27, 5.5)
        w.move(-5, -1).curve(-20, -3, -38, -10, -36, -26).curve(-34, -38, -18, -36, -12, -28)
        w.curve(-8, -22, -5, -12, -5, -1).close()
        w.circle(-23, -20, 3.6)
    b = g.part()
    b.ellipse(0, -6, 2.8, 24)
    b.circle(0, 21, 4)
    for s in (1, -1):
        b.xf(mirror=s < 0).stroke((-1, 24), (-4, 34), (-8, 40), (-14, 44), 2.2)
        b.circle(14 * s, 44, 3)


def _wing(g: _Glyph) -> None:
    p = g.part()
    # coverts: the rounded shoulder of the wing
    p.move(-40, -30).curve(-54, 0, -46, 38, -20, 46).curve(-6, 50, 8, 50, 18, 46)
    p.curve(-4, 32, -20, 8, -40, -30).close()
    # primaries: overlapping fingers whose round tips make the trailing edge
    quills = [((-22, 32), (48, 46)), ((-26, 20), (46, 30)), ((-30, 8), (40, 14)),
              ((-33, -4), (30, -2)), ((-35, -16), (16, -18))]
    for (bx, by), (tx, ty) in quills:
        p.bar(bx, by, tx, ty, 15)
    slits = g.cut()  # separate the feathers near their tips
    for ((b0, t0), (b1, t1)) in zip(quills, quills[1:]):
        mx, my = (t0[0] + t1[0]) / 2, (t0[1] + t1[1]) / 2
        dx, dy = (t0[0] - b0[0] + t1[0] - b1[0]) / 2, (t0[1] - b0[1] + t1[1] - b1[1]) / 2
        ln = math.hypot(dx, dy)
        ux, uy = dx / ln, dy / ln
        slits.bar(mx - ux * 38, my - uy * 38, mx + ux * 2, my + uy * 2, (0.6, 2.6), cap="butt")
    edge = g.cut()  # gap between coverts and primaries
    edge.stroke((20, 47), (-2, 33), (-18, 8), (-38, -31), (2.6, 2.6, 2.0), cap="butt")


def _key(g: _Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-40)
    p.circle(-30, 0, 20).circle(-30, 0, 9)
    q = g.part().xf(rot=-40)
    q.rect(-13, -4.6, 48, 4.6, 1.5)
    q.rect(-8, -8, -3, 8, 1.5)
    q.poly([(26, -2), (48, -2), (48, -24), (42, -24), (42, -16), (36, -16), (36, -24), (26, -24)], 1.2)


def _bell(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored((0, 38), [(-13, 38, -21, 29, -22, 14), (-23, 0, -25, -14, -36, -22), (-42, -26),
                         (-42, -30), (0, -30)])
    p.stroke((-26, -19), (-10, -17), (10, -17), (26, -19), 2.6, cap="round")
    q = g.part(even_odd=True)
    q.circle(0, 42, 6.5).circle(0, 42, 2.8)
    g.part().mirrored((0, -34), [(-8, -34), (-8, -40, -5, -44, 0, -44)])


def _lantern(g: _Glyph) -> None:
    top = g.part(even_odd=True)
    top.circle(0, 41, 8).circle(0, 41, 4.2)
    g.part().mirrored((0, 34), [(-9, 34), (-30, 18), (-30, 14), (0, 14)])  # roof
    body = g.part(even_odd=True)
    body.rect(-22, -30, 22, 10, 1.5)
    body.mirrored((0, 4), [(-9, 4, -14, 0, -14, -6), (-14, -24), (0, -24)])  # window
    body.mirrored((0, 0), [(-2, -6, -7, -10, -7, -15), (-7, -19, -4, -21, 0, -21)])  # flame
    g.part().rect(-28, -40, 28, -34, 2)


def _teardrop(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored((0, 50), [(-4, 38, -34, 14, -34, -12), (-34, -32, -18, -46, 0, -46)])
    p.stroke((-23, -10), (-23, -20), (-18, -28), (-10, -33), (1.5, 4.2, 1.5), cap="butt")


def _snowflake(g: _Glyph) -> None:
    p = g.part()
    for i in range(6):
        q = p.xf(rot=90 + 60 * i)
        q.bar(0, 0, 46, 0, 7)
        q.bar(26, 0, 38, 11, 5.5).bar(26, 0, 38, -11, 5.5)
        q.bar(12, 0, 19, 7, 5).bar(12, 0, 19, -7, 5)


def _heart_leaf(p: _Pen) -> None:
    """A heart with its point at the pen's origin and its lobes towards +y."""
    p.mirrored((0, 35), [(-3, 42, -8, 46, -13, 46), (-20, 46, -24, 40, -23, 32),
                         (-21, 20, -9, 10, 0, 2)])


def _clover(g: _Glyph) -> None:
    p = g.part()
    for a in (45, 135, 225, 315):
        _heart_leaf(p.xf(rot=a, scale=1.04))
    p.stroke((0, -2), (2, -20), (8, -34), (18, -48), (6, 4), cap="round")
    c = g.cut()
    for a in (45, 135, 225, 315):
        c.xf(rot=a, scale=1.04).bar(0, 15, 0, 33, (2.6, 0.8), cap="butt")


def _dragonfly(g: _Glyph) -> None:
    body = g.part()
    body.circle(0, 38, 6.5)
    body.ellipse(0, 24, 6, 9)
    body.stroke((0, 16), (0, -8), (0, -28), (0, -50), (6, 4.6, 3.2), cap="round")
    wings = g.part(even_odd=True)
    for s in (1, -1):
        w = wings.xf(mirror=s < 0)
        w.ellipse(-28, 29, 22, 6.5, rot=-8)
        w.ellipse(-25, 14, 20, 6, rot=14)
        w.xf(-28, 29, -8).bar(-15, 0, 14, 0, 1.5, cap="round")
        w.xf(-25, 14, 14).bar(-13, 0, 12, 0, 1.4, cap="round")


def _seed(g: _Glyph) -> None:
    p = g.part(even_odd=True).xf(-10, -14, -40)
    p.mirrored((0, 34), [(-10, 28, -24, 12, -24, -6), (-24, -24, -12, -34, 0, -34)])  # almond
    p.stroke((-4, 24), (-14, 12), (-16, -8), (-8, -24), (0.6, 3.4, 3.4, 0.6), cap="butt")  # groove
    q = g.part()
    q.stroke((13, 12), (20, 20), (20, 28), (14, 34), (5.5, 4.5), cap="round")  # shoot
    q.move(14, 34).curve(8, 46, -8, 50, -18, 46).curve(-12, 34, 2, 30, 14, 34).close()
    q.move(15, 34).curve(22, 44, 36, 48, 46, 42).curve(38, 32, 26, 30, 15, 34).close()


def _coin(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.circle(0, 0, 48).circle(0, 0, 40).circle(0, 0, 36.5)
    p.poly(_star_points(22, 10), 1.2)


def _castle(g: _Glyph) -> None:
    walls = g.part(even_odd=True)
    top = []  # battlements between the towers, right to left
    for x in (24, 12, 0, -12, -24):
        top += [(x + 3.5, -4), (x + 3.5, 2), (x - 3.5, 2), (x - 3.5, -4)]
    walls.poly([(-46, -46), (46, -46), (46, 8), (30, 8), (30, -4), *top, (-30, -4), (-30, 8), (-46, 8)])
    walls.mirrored((0, -20), [(-6, -20, -10, -24, -10, -30), (-10, -46)])  # gate
    for x in (-38, 38):
        walls.rect(x - 2.4, -16, x + 2.4, -4, 1.2)  # arrow slits
    keep = g.part(even_odd=True)
    keep.rect(-13, -1, 13, 22)
    keep.mirrored((0, 18), [(-3, 18), (-3, 8), (0, 8)])
    roofs = g.part()
    roofs.poly([(-50, 11), (-26, 11), (-38, 36)], 1)
    roofs.poly([(26, 11), (50, 11), (38, 36)], 1)
    roofs.poly([(-17, 25), (17, 25), (0, 54)], 1)


def _skull(g: _Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored((0, 46), [(-24, 46, -40, 30, -40, 8), (-40, -6, -34, -14, -24, -18), (-23, -36),
                         (-22, -43, -16, -46, -10, -46), (0, -46)])
    for s in (1, -1):
        p.ellipse(15 * s, 2, 10.5, 11.5)
    p.mirrored((0, -10), [(-5, -18), (-6, -20, -4, -22, -2, -21), (0, -20)])
    for x in (-9, 0, 9):
        p.rect(x - 1.4, -42, x + 1.4, -30, 1.2)


def _sparkle(g: _Glyph) -> None:
    g.part().spark(0, 0, 42, 0.2, ry=50)


def _hexagon(g: _Glyph) -> None:
    g.part().poly([_polar(0, 0, 50, 90 + 60 * i) for i in range(6)], 2.5)


def _triangle(g: _Glyph) -> None:
    g.part().poly([_polar(0, 0, 50, 90 + 120 * i) for i in range(3)], 5)


def _circle(g: _Glyph) -> None:
    g.part().circle(0, 0, 50)
    g.optical = 0.84


def _square(g: _Glyph) -> None:
    g.part().rect(-50, -50, 50, 50, 6)
    g.optical = 0.82


# --------------------------------------------------------------------------
# registry and public API

_Builder = Callable[[_Glyph], None]

_BUILDERS: Mapping[str, _Builder] = MappingProxyType(dict(sorted({
    "heart": _heart, "diamond": _diamond, "club": _club, "spade": _spade,
    "moon": _moon, "sun": _sun, "star": _star, "book": _book,
    "sword": _sword, "bow": _bow, "magic": _magic, "tiger": _tiger,
    "beetle": _beetle, "flower": _flower, "stone": _stone, "feather": _feather,
    "mushroom": _mushroom, "shell": _shell, "horseshoe": _horseshoe,
    "berry": _berry, "fairy": _fairy, "dislike": _dislike,
    "crown": _crown, "leaf": _leaf, "acorn": _acorn, "butterfly": _butterfly, "wing": _wing,
    "key": _key, "bell": _bell, "lantern": _lantern, "teardrop": _teardrop,
    "snowflake": _snowflake, "clover": _clover, "dragonfly": _dragonfly, "seed": _seed,
    "coin": _coin, "castle": _castle, "skull": _skull, "sparkle": _sparkle,
    "hexagon": _hexagon, "triangle": _triangle, "circle": _circle, "square": _square,
}.items())))

SYMBOLS: tuple[str, ...] = tuple(sorted(_BUILDERS))


def has_symbol(name: str) -> bool:
    """True if ``name`` is a known symbol."""
    return name in _BUILDERS


def _builder(name: str) -> _Builder:
    try:
        return _BUILDERS[name]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(name), SYMBOLS, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(SYMBOLS)}"
        raise KeyError(f"unknown symbol {name!r}{hint}") from None


def draw_symbol(c: Canvas, name: str, cx: float, cy: float, size: float,
                fill: Color | None = colors.black, stroke: Color | None = None,
                stroke_width: float | None = None) -> None:
    """Draw symbol ``name`` centred at (cx, cy) fitting a size x size box (points).

    ``fill`` and ``stroke`` are ReportLab colours or None.  The outline is
    ``stroke_width`` points wide (default: 3.5% of ``size``), runs just
    outside the silhouette and around its cut-outs, and counts towards the
    box.  With ``fill=None`` only the outline is drawn.
    """
    build = _builder(name)
    if size <= 0 or (fill is None and stroke is None):
        return
    g = _Glyph()
    build(g)
    x0, y0, x1, y1 = g.bounds()
    sw = 0.0 if stroke is None else max(0.25, size * 0.035) if stroke_width is None else max(float(stroke_width), 0.0)
    k = max(size - 2 * sw, size * 0.5) * g.optical / max(x1 - x0, y1 - y0)  # design units -> points

    c.saveState()
    c.translate(cx, cy)
    c.scale(k, k)
    c.translate(-(x0 + x1) / 2, -(y0 + y1) / 2)
    c.setLineJoin(1)
    c.setLineCap(1)
    m = max(x1 - x0, y1 - y0)
    frame = _Contour((x0 - m, y0 - m))  # generously around everything; cut-outs are subtracted from it
    frame.segs = [("L", ((x1 + m, y0 - m),)), ("L", ((x1 + m, y1 + m),)), ("L", ((x0 - m, y1 + m),))]
    parts = [(_emit(c, contours), FILL_EVEN_ODD if eo else FILL_NON_ZERO) for contours, eo in g.parts]

    def punch_holes() -> None:
        for group in g.cuts:  # every clip narrows the last: frame minus this group's holes
            c.clipPath(_emit(c, [frame, *group]), stroke=0, fill=0, fillMode=FILL_EVEN_ODD)

    if sw > 0:
        # The outline is stroked at twice its width and half of it is hidden:
        # under the fill, or clipped away when there is no fill.
        c.setStrokeColor(stroke)
        c.setLineWidth(2 * sw / k)
        for group in g.cuts:  # rims inside knocked-out holes
            hole = _emit(c, group)
            for path, mode in parts:
                c.saveState()
                c.clipPath(path, stroke=0, fill=0, fillMode=mode)
                c.clipPath(hole, stroke=0, fill=0, fillMode=FILL_NON_ZERO)
                c.drawPath(hole, stroke=1, fill=0)
                c.restoreState()
        c.saveState()
        punch_holes()
        if fill is None:  # keep only what lies outside every part
            for contours, eo in g.parts:
                for group in ([contours] if eo else [[ct] for ct in contours]):
                    c.clipPath(_emit(c, [frame, *group]), stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
        for path, mode in parts:
            c.drawPath(path, stroke=1, fill=0, fillMode=mode)
        c.restoreState()
    if fill is not None:
        punch_holes()
        c.setFillColor(fill)
        for path, mode in parts:
            c.drawPath(path, stroke=0, fill=1, fillMode=mode)
    c.restoreState()
