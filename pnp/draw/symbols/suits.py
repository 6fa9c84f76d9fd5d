"""The four card suits and the Fairy Bucks set symbols (moon, sun, star, book)."""

from __future__ import annotations

from pnp.draw.symbols.curves import Point, angle, circle_hits, polar
from pnp.draw.symbols.pen import Glyph, Pen


def _heart(g: Glyph) -> None:
    g.part().mirrored(
        (0, 28), [(-4, 40, -13, 46, -24, 46), (-39, 46, -50, 34, -50, 17), (-50, -6, -22, -25, 0, -46)]
    )


def _diamond(g: Glyph) -> None:
    g.part().mirrored((0, 50), [(-9, 31, -22, 14, -37, 0), (-22, -14, -9, -31, 0, -50)])


def _spade(g: Glyph) -> None:
    g.part().mirrored(
        (0, 50),
        [
            (-10, 34, -48, 16, -48, -10),
            (-48, -26, -37, -35, -25, -35),
            (-15, -35, -8, -31, -4, -24),
            (-4, -34, -9, -43, -20, -48),
            (-20, -50),
        ],
    )


def _club(g: Glyph) -> None:
    p = g.part()
    p.circle(0, 22, 21).circle(-24, -6, 21).circle(24, -6, 21)
    p.poly([(0, 14), (-14, -8), (14, -8)])
    p.mirrored((-4, 0), [(-4, -26, -10, -42, -20, -48), (-20, -50)])


# --------------------------------------------------------------------------
# Fairy Bucks items


def crescent(p: Pen, r1: float, r2: float, d: float) -> None:
    """Crescent: disc of radius r1 minus a disc of radius r2 shifted by d along +x."""
    top, bot = circle_hits((0, 0), r1, (d, 0), r2)  # left = upper crossing
    a = angle((0, 0), top)
    p.arc(0, 0, r1, a, 360 - a)
    b_top, b_bot = angle((d, 0), top), angle((d, 0), bot) + 360
    p.arc(d, 0, r2, b_bot, b_top)
    p.close()


def _moon(g: Glyph) -> None:
    crescent(g.part().xf(rot=40), 46, 38, 22)


def _sun(g: Glyph) -> None:
    p = g.part()
    p.circle(0, 0, 25)
    for i in range(8):
        long = i % 2 == 0
        tip = 50 if long else 44
        half = 8 if long else 6.5
        p.xf(rot=90 + 45 * i).poly([(32, -half), (tip, 0), (32, half)], 1.6)


def star_points(r_out: float, r_in: float, n: int = 5, phase: float = 90) -> list[Point]:
    pts = []
    for i in range(2 * n):
        pts.append(polar(0, 0, r_out if i % 2 == 0 else r_in, phase + 180 * i / n))
    return pts


def _star(g: Glyph) -> None:
    g.part().poly(star_points(50, 23), 2.2)


def _book(g: Glyph) -> None:
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
    g.part().mirrored(
        (0, -37), [(-14, -29, -30, -27, -47, -33), (-50, -33), (-50, -39), (-32, -33, -14, -35, 0, -44)]
    )


BUILDERS = {
    "heart": _heart,
    "diamond": _diamond,
    "spade": _spade,
    "club": _club,
    "moon": _moon,
    "sun": _sun,
    "star": _star,
    "book": _book,
}
