"""Emblems and plain shapes: key, bell, lantern, coin, castle, skull, geometric marks."""

from __future__ import annotations

from pnp.draw.symbols.curves import polar
from pnp.draw.symbols.pen import Glyph, Pen
from pnp.draw.symbols.suits import star_points


def _key(g: Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-40)
    p.circle(-30, 0, 20).circle(-30, 0, 9)
    q = g.part().xf(rot=-40)
    q.rect(-13, -4.6, 48, 4.6, 1.5)
    q.rect(-8, -8, -3, 8, 1.5)
    q.poly([(26, -2), (48, -2), (48, -24), (42, -24), (42, -16), (36, -16), (36, -24), (26, -24)], 1.2)


def _bell(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored(
        (0, 38), [(-13, 38, -21, 29, -22, 14), (-23, 0, -25, -14, -36, -22), (-42, -26), (-42, -30), (0, -30)]
    )
    p.stroke((-26, -19), (-10, -17), (10, -17), (26, -19), 2.6, cap="round")
    q = g.part(even_odd=True)
    q.circle(0, 42, 6.5).circle(0, 42, 2.8)
    g.part().mirrored((0, -34), [(-8, -34), (-8, -40, -5, -44, 0, -44)])


def _lantern(g: Glyph) -> None:
    top = g.part(even_odd=True)
    top.circle(0, 41, 8).circle(0, 41, 4.2)
    g.part().mirrored((0, 34), [(-9, 34), (-30, 18), (-30, 14), (0, 14)])  # roof
    body = g.part(even_odd=True)
    body.rect(-22, -30, 22, 10, 1.5)
    body.mirrored((0, 4), [(-9, 4, -14, 0, -14, -6), (-14, -24), (0, -24)])  # window
    body.mirrored((0, 0), [(-2, -6, -7, -10, -7, -15), (-7, -19, -4, -21, 0, -21)])  # flame
    g.part().rect(-28, -40, 28, -34, 2)


def _teardrop(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored((0, 50), [(-4, 38, -34, 14, -34, -12), (-34, -32, -18, -46, 0, -46)])
    p.stroke((-23, -10), (-23, -20), (-18, -28), (-10, -33), (1.5, 4.2, 1.5), cap="butt")


def _snowflake(g: Glyph) -> None:
    p = g.part()
    for i in range(6):
        q = p.xf(rot=90 + 60 * i)
        q.bar(0, 0, 46, 0, 7)
        q.bar(26, 0, 38, 11, 5.5).bar(26, 0, 38, -11, 5.5)
        q.bar(12, 0, 19, 7, 5).bar(12, 0, 19, -7, 5)


def heart_leaf(p: Pen) -> None:
    """A heart with its point at the pen's origin and its lobes towards +y."""
    p.mirrored((0, 35), [(-3, 42, -8, 46, -13, 46), (-20, 46, -24, 40, -23, 32), (-21, 20, -9, 10, 0, 2)])


def _clover(g: Glyph) -> None:
    p = g.part()
    for a in (45, 135, 225, 315):
        heart_leaf(p.xf(rot=a, scale=1.04))
    p.stroke((0, -2), (2, -20), (8, -34), (18, -48), (6, 4), cap="round")
    c = g.cut()
    for a in (45, 135, 225, 315):
        c.xf(rot=a, scale=1.04).bar(0, 15, 0, 33, (2.6, 0.8), cap="butt")


def _dragonfly(g: Glyph) -> None:
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


def _seed(g: Glyph) -> None:
    p = g.part(even_odd=True).xf(-10, -14, -40)
    p.mirrored((0, 34), [(-10, 28, -24, 12, -24, -6), (-24, -24, -12, -34, 0, -34)])  # almond
    p.stroke((-4, 24), (-14, 12), (-16, -8), (-8, -24), (0.6, 3.4, 3.4, 0.6), cap="butt")  # groove
    q = g.part()
    q.stroke((13, 12), (20, 20), (20, 28), (14, 34), (5.5, 4.5), cap="round")  # shoot
    q.move(14, 34).curve(8, 46, -8, 50, -18, 46).curve(-12, 34, 2, 30, 14, 34).close()
    q.move(15, 34).curve(22, 44, 36, 48, 46, 42).curve(38, 32, 26, 30, 15, 34).close()


def _coin(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.circle(0, 0, 48).circle(0, 0, 40).circle(0, 0, 36.5)
    p.poly(star_points(22, 10), 1.2)


def _castle(g: Glyph) -> None:
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


def _skull(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored(
        (0, 46),
        [
            (-24, 46, -40, 30, -40, 8),
            (-40, -6, -34, -14, -24, -18),
            (-23, -36),
            (-22, -43, -16, -46, -10, -46),
            (0, -46),
        ],
    )
    for s in (1, -1):
        p.ellipse(15 * s, 2, 10.5, 11.5)
    p.mirrored((0, -10), [(-5, -18), (-6, -20, -4, -22, -2, -21), (0, -20)])
    for x in (-9, 0, 9):
        p.rect(x - 1.4, -42, x + 1.4, -30, 1.2)


def _sparkle(g: Glyph) -> None:
    g.part().spark(0, 0, 42, 0.2, ry=50)


def _hexagon(g: Glyph) -> None:
    g.part().poly([polar(0, 0, 50, 90 + 60 * i) for i in range(6)], 2.5)


def _triangle(g: Glyph) -> None:
    g.part().poly([polar(0, 0, 50, 90 + 120 * i) for i in range(3)], 5)


def _circle(g: Glyph) -> None:
    g.part().circle(0, 0, 50)
    g.optical = 0.84


def _square(g: Glyph) -> None:
    g.part().rect(-50, -50, 50, 50, 6)
    g.optical = 0.82


BUILDERS = {
    "key": _key,
    "bell": _bell,
    "lantern": _lantern,
    "teardrop": _teardrop,
    "snowflake": _snowflake,
    "clover": _clover,
    "dragonfly": _dragonfly,
    "seed": _seed,
    "coin": _coin,
    "castle": _castle,
    "skull": _skull,
    "sparkle": _sparkle,
    "hexagon": _hexagon,
    "triangle": _triangle,
    "circle": _circle,
    "square": _square,
}
