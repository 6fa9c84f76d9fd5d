"""Fairy-world symbols from nature: flowers, stones, feathers, mushrooms, shells, berries, fairies and kin."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.draw.symbols.curves import Point, angle, polar
from pnp.draw.symbols.pen import Glyph, Pen


def lobes(p: Pen, n: int, d: float, r: float, phase: float = 90) -> None:
    """Outline of n overlapping discs (radius r, centres at distance d) as one contour."""
    half = 180 / n
    t = d * math.cos(math.radians(half)) + math.sqrt(r * r - (d * math.sin(math.radians(half))) ** 2)
    first = True
    for i in range(n):
        a = phase + 360 * i / n
        cx, cy = polar(0, 0, d, a)
        a0 = angle((cx, cy), polar(0, 0, t, a - half))
        a1 = angle((cx, cy), polar(0, 0, t, a + half))
        while a1 < a0:
            a1 += 360
        if first:
            p.move(*polar(0, 0, t, a - half))
            first = False
        p.arc(cx, cy, r, a0, a1)
    p.close()


def _flower(g: Glyph) -> None:
    p = g.part(even_odd=True)
    lobes(p, 5, 29, 21)
    p.circle(0, 0, 15.5)
    p.circle(0, 0, 11.5)


def _stone(g: Glyph) -> None:
    t1, t2 = (-22, 38), (22, 38)
    g0, g1, g2, g3 = (-48, 14), (-14, 14), (14, 14), (48, 14)
    b = (0, -46)
    facets = [[g0, g1, t1], [t1, g1, g2, t2], [g2, g3, t2], [g0, b, g1], [g1, b, g2], [g2, b, g3]]
    p = g.part()
    for f in facets:
        p.poly(inset(f, 1.6), 0.8)


def inset(poly: Sequence[Point], d: float) -> list[Point]:
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


def _feather(g: Glyph) -> None:
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


def _mushroom(g: Glyph) -> None:
    cap = g.part(even_odd=True)
    cap.mirrored((0, 46), [(-30, 46, -50, 26, -50, 6), (-50, 0, -47, -2, -42, -2), (-28, 0, -14, 2, 0, 2)])
    for x, y, r in [
        (0, 33, 6.5),
        (-24, 27, 5.5),
        (24, 25, 6),
        (-38, 8, 3.6),
        (38, 9, 3.6),
        (-12, 13, 4),
        (12, 12, 3.4),
    ]:
        cap.circle(x, y, r)
    g.part().mirrored(
        (0, -2), [(-10, -2, -13, -3, -14, -4), (-15, -20, -17, -34, -20, -40), (-22, -46, -14, -48, 0, -48)]
    )


def _shell(g: Glyph) -> None:
    p = g.part(even_odd=True)
    hinge, centre, n = (0, -44), (0, -4), 7  # grooves fan out from the hinge; the rim is round about centre
    valleys = [polar(*centre, 46, 200 - 220 * i / n) for i in range(n + 1)]
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
        p.curve(
            a[0] + (q[0] - a[0]) * 2 / 3,
            a[1] + (q[1] - a[1]) * 2 / 3,
            b[0] + (q[0] - b[0]) * 2 / 3,
            b[1] + (q[1] - b[1]) * 2 / 3,
            *b,
        )
    p.close()
    for v in valleys[1:-1]:  # grooves from the hinge towards each valley
        dx, dy = v[0] - hinge[0], v[1] - hinge[1]
        ln = math.hypot(dx, dy)
        s, e = 20 / ln, (ln - 6) / ln
        p.bar(
            hinge[0] + dx * s, hinge[1] + dy * s, hinge[0] + dx * e, hinge[1] + dy * e, (1.0, 3.4), cap="butt"
        )
    p.bar(-17, -38, 17, -38, 1.8, cap="butt")


def _horseshoe(g: Glyph) -> None:
    p = g.part(even_odd=True)
    gap = 26  # half-angle of the opening, measured from straight up
    p.arc(0, 0, 46, 90 - gap, -270 + gap)
    p.arc(0, 0, 25, -270 + gap, 90 - gap)
    p.close()
    for a in (-55, -20, 15, -125, -160, 165):
        p.xf(rot=a).poly([(33.5, -4.2), (37.5, -4.2), (37.5, 4.2), (33.5, 4.2)], 1.5)


def _berry(g: Glyph) -> None:
    p = g.part(even_odd=True)
    for x, y, r in [(-18, -22, 17), (17, -25, 17), (-2, 7, 16)]:
        p.circle(x, y, r)
        p.stroke(
            (x - r * 0.62, y + r * 0.05),
            (x - r * 0.6, y + r * 0.35),
            (x - r * 0.4, y + r * 0.55),
            (x - r * 0.12, y + r * 0.62),
            (1.4, 3.4, 1.4),
            cap="butt",
        )  # gloss
    q = g.part(even_odd=True)
    q.move(6, 28).curve(14, 46, 32, 50, 48, 48).curve(44, 32, 26, 20, 6, 28).close()  # leaf
    q.stroke((11, 30), (22, 36), (32, 41), (42, 45), (2.2, 1.2, 0.4), cap="butt")
    stem = g.part()
    stem.stroke((4, 28), (-2, 30), (-4, 28), (-3, 22), 3.2)


def _fairy(g: Glyph) -> None:
    body = g.part()
    body.circle(0, 32, 8.5)
    body.mirrored(
        (0, 22),
        [(-4, 22), (-9, 17, -10, 12, -10, 8), (-14, -4, -18, -16, -22, -26), (-12, -24, -4, -26, 0, -24)],
    )
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


def _dislike(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.circle(0, 0, 48)
    p.circle(0, 0, 36)
    g.part().xf(rot=-45).rect(-40, -6.5, 40, 6.5)


# --------------------------------------------------------------------------
# emblems


def _crown(g: Glyph) -> None:
    p = g.part()
    p.mirrored((0, 30), [(-19, 6), (-42, 22), (-37, -14)])
    p.circle(0, 33, 6.5).circle(-43, 25, 6).circle(43, 25, 6)
    band = g.part(even_odd=True)
    band.rect(-39, -38, 39, -19, 3)
    for x in (-22, 0, 22):
        band.poly([(x, -23), (x + 5.5, -28.5), (x, -34), (x - 5.5, -28.5)], 1)


def _leaf(g: Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-45)
    p.move(0, -38).curve(-30, -26, -30, 22, 0, 50).curve(30, 22, 30, -26, 0, -38).close()
    p.bar(0, -31, 0, 40, (3.2, 2.2, 0.4), cap="butt")  # midrib
    for y in (-20, -4, 12):  # side veins, kept clear of the midrib
        reach = 18 * (1 - (y + 20) / 80)
        for s in (1, -1):
            p.stroke(
                (2.4 * s, y + 1.5),
                (7 * s, y + 5),
                (12 * s, y + 9),
                (reach * s, y + 14),
                (1.8, 0.4),
                cap="butt",
            )
    g.part().xf(rot=-45).stroke((0, -34), (0, -44), (-2, -50), (-6, -56), 4.5, cap="round")  # stalk


def _acorn(g: Glyph) -> None:
    cap = g.part(even_odd=True)
    cap.mirrored((0, 30), [(-22, 30, -40, 20, -40, 6), (-40, 0, -36, -2, -30, -2), (0, -2)])
    cap.stroke((-30, 6), (-18, 14), (18, 14), (30, 6), 2.4, cap="round")
    g.part().stroke((0, 28), (0, 34), (2, 40), (6, 44), (6, 4.5), cap="round")
    g.part().mirrored((0, -6), [(-28, -6), (-30, -24, -18, -40, 0, -48)])


def _butterfly(g: Glyph) -> None:
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


def _wing(g: Glyph) -> None:
    p = g.part()
    # coverts: the rounded shoulder of the wing
    p.move(-40, -30).curve(-54, 0, -46, 38, -20, 46).curve(-6, 50, 8, 50, 18, 46)
    p.curve(-4, 32, -20, 8, -40, -30).close()
    # primaries: overlapping fingers whose round tips make the trailing edge
    quills = [
        ((-22, 32), (48, 46)),
        ((-26, 20), (46, 30)),
        ((-30, 8), (40, 14)),
        ((-33, -4), (30, -2)),
        ((-35, -16), (16, -18)),
    ]
    for (bx, by), (tx, ty) in quills:
        p.bar(bx, by, tx, ty, 15)
    slits = g.cut()  # separate the feathers near their tips
    for (b0, t0), (b1, t1) in zip(quills, quills[1:]):
        mx, my = (t0[0] + t1[0]) / 2, (t0[1] + t1[1]) / 2
        dx, dy = (t0[0] - b0[0] + t1[0] - b1[0]) / 2, (t0[1] - b0[1] + t1[1] - b1[1]) / 2
        ln = math.hypot(dx, dy)
        ux, uy = dx / ln, dy / ln
        slits.bar(mx - ux * 38, my - uy * 38, mx + ux * 2, my + uy * 2, (0.6, 2.6), cap="butt")
    edge = g.cut()  # gap between coverts and primaries
    edge.stroke((20, 47), (-2, 33), (-18, 8), (-38, -31), (2.6, 2.6, 2.0), cap="butt")


BUILDERS = {
    "flower": _flower,
    "stone": _stone,
    "feather": _feather,
    "mushroom": _mushroom,
    "shell": _shell,
    "horseshoe": _horseshoe,
    "berry": _berry,
    "fairy": _fairy,
    "dislike": _dislike,
    "crown": _crown,
    "leaf": _leaf,
    "acorn": _acorn,
    "butterfly": _butterfly,
    "wing": _wing,
}
