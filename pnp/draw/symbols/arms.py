"""Tarot element and creature symbols: sword, bow, magic, tiger, beetle."""

from __future__ import annotations

from pnp.draw.symbols.pen import Glyph


def _sword(g: Glyph) -> None:
    p = g.part(even_odd=True).xf(rot=-45)
    p.poly([(-7, -22), (-6, 46), (0, 64), (6, 46), (7, -22)])
    p.poly([(-1.4, -16), (-1.1, 38), (1.1, 38), (1.4, -16)], 1)  # fuller
    q = g.part().xf(rot=-45)
    q.stroke((-25, -22), (-10, -31), (10, -31), (25, -22), (6, 9, 6))  # cross-guard
    q.rect(-4.2, -46, 4.2, -26, 1.5)  # grip
    q.circle(0, -51, 7.5)  # pommel


def _bow(g: Glyph) -> None:
    p = g.part().xf(rot=45)
    p.stroke((-20, 48), (40, 36), (40, -36), (-20, -48), (3, 6, 10, 6, 3))  # limb
    p.bar(-20, 48, -20, -48, 2.6)  # string
    p.bar(-38, 0, 40, 0, 3.6, cap="butt")  # shaft
    p.poly([(56, 0), (38, 10), (42, 0), (38, -10)], 1)  # head
    for s in (1, -1):  # fletching
        p.poly([(-40, 0), (-46, 11 * s), (-33, 11 * s), (-26, 0)], 1)


def _magic(g: Glyph) -> None:
    p = g.part()
    p.bar(-46, -46, 2, 2, 9.5)
    q = g.part()
    q.bar(6, 6, 12, 12, 9.5, cap="butt")  # bright tip, set apart by a gap
    q.spark(27, 27, 23, 0.16)
    q.spark(-18, 30, 10, 0.2)
    q.spark(32, -14, 8, 0.2)


def _tiger(g: Glyph) -> None:
    p = g.part(even_odd=True)
    p.mirrored(
        (0, 36),
        [
            (-10, 36, -18, 34, -24, 31),
            (-28, 40, -34, 46, -40, 46),
            (-46, 46, -48, 36, -46, 24),
            (-44, 18),
            (-48, 6, -51, -4, -50, -10),
            (-44, -10),
            (-46, -20, -40, -28, -34, -30),
            (-24, -40, -12, -44, 0, -46),
        ],
    )
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


def _beetle(g: Glyph) -> None:
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


BUILDERS = {"sword": _sword, "bow": _bow, "magic": _magic, "tiger": _tiger, "beetle": _beetle}
