"""Plane geometry for symbol outlines: affine matrices, cubic Béziers, arcs and circle meets."""

from __future__ import annotations

import math

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------
# geometry helpers


def mul(m: Matrix, n: Matrix) -> Matrix:
    """Matrix applying ``n`` first, then ``m``."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1.0 - t
    return (
        u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
        u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    )


def cubic_tangent(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1.0 - t
    dx = 3 * u * u * (p1[0] - p0[0]) + 6 * u * t * (p2[0] - p1[0]) + 3 * t * t * (p3[0] - p2[0])
    dy = 3 * u * u * (p1[1] - p0[1]) + 6 * u * t * (p2[1] - p1[1]) + 3 * t * t * (p3[1] - p2[1])
    if abs(dx) + abs(dy) < 1e-9:  # degenerate handle: fall back to the chord
        dx, dy = p3[0] - p0[0], p3[1] - p0[1]
    return dx, dy


def cubic_turns(p0: Point, p1: Point, p2: Point, p3: Point) -> list[float]:
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


def sub_cubic(
    p0: Point, p1: Point, p2: Point, p3: Point, ta: float, tb: float
) -> tuple[Point, Point, Point, Point]:
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


def polar(cx: float, cy: float, r: float, deg: float) -> Point:
    a = math.radians(deg)
    return cx + r * math.cos(a), cy + r * math.sin(a)


def arc_segments(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float
) -> list[tuple[Point, Point, Point]]:
    """Cubic pieces (c1, c2, end) of an elliptical arc from angle a0 to a1 (degrees)."""
    n = max(1, math.ceil(abs(a1 - a0) / 90.0 - 1e-9))
    step = math.radians(a1 - a0) / n
    k = 4.0 / 3.0 * math.tan(step / 4.0)
    out = []
    t = math.radians(a0)
    for _ in range(n):
        c0, s0, c1, s1 = math.cos(t), math.sin(t), math.cos(t + step), math.sin(t + step)
        out.append(
            (
                (cx + rx * (c0 - k * s0), cy + ry * (s0 + k * c0)),
                (cx + rx * (c1 + k * s1), cy + ry * (s1 - k * c1)),
                (cx + rx * c1, cy + ry * s1),
            )
        )
        t += step
    return out


def circle_hits(c1: Point, r1: float, c2: Point, r2: float) -> tuple[Point, Point]:
    """The two crossing points of two circles (left, right as seen from c1 towards c2)."""
    dx, dy = c2[0] - c1[0], c2[1] - c1[1]
    d = math.hypot(dx, dy)
    a = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    h = math.sqrt(max(r1 * r1 - a * a, 0.0))
    mx, my = c1[0] + a * dx / d, c1[1] + a * dy / d
    return (mx - h * dy / d, my + h * dx / d), (mx + h * dy / d, my - h * dx / d)


def angle(c: Point, p: Point) -> float:
    return math.degrees(math.atan2(p[1] - c[1], p[0] - c[0]))


# --------------------------------------------------------------------------
# path building
