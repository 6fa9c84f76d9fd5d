"""The Fairy Bargains deck drawn with protograf, the Python peer, for the benchmark.

Same deck as `pnp build bargains` draws for its card component: 65 poker cards
with 3 mm bleed, five designs of thirteen cards and one back, on A4 sheets
with fronts and backs. Each design has the same parts as the `value` layout
(border colour into the bleed, inner panel, title, subtitle, medallion with
watermark and numeral, two corner indices with their emblem, flavour text,
collation code); the back has the same lattice of small emblems, frame and
medallion. protograf has no fairy symbols, so stars and circles stand in.

Run with protograf's interpreter: `PNP_BENCH_OUT=OUT.pdf PY bench/protograf_deck.py`
(protograf parses the command line itself, so the file name comes by environment).
`PNP_BENCH_SMOKE=1` draws one design of thirteen cards instead of five, and
exits 0 without drawing when protograf is not installed (the smoke test).
"""

from __future__ import annotations

import os
import sys

SMOKE = os.environ.get("PNP_BENCH_SMOKE") == "1"
try:
    from protograf import Card, CardBack, Create, Deck, Save, circle, ellipse, rectangle, star, text
except ImportError:
    if not SMOKE:
        raise
    print("protograf is not installed: smoke run skipped (see bench/README.md)", file=sys.stderr)
    sys.exit(0)

VALUES = [  # value, title, colour, flavour text
    (1, "Dewdrop", "#f0cf63", "Small as morning dew and just as easy to part with."),
    (3, "Acorn", "#8dbf6e", "An acorn today; perhaps an oak of a deal tomorrow."),
    (5, "Clover", "#4f93c9", "Lucky leaves change hands whenever fairies haggle."),
    (7, "Moth Wing", "#b8506a", "A promise as pretty and as fragile as a moth's wing."),
    (10, "Crown", "#3f2d66", "Everyone wants the crown. Nobody keeps it for long."),
]
W, H = 63.0, 88.0
INK, PAPER = "#1f1a2b", "#fbf6ea"


def face(value: int, title: str, colour: str, flavour: str) -> list:
    return [
        rectangle(x=-3, y=-3, width=W + 6, height=H + 6, fill=colour, stroke=colour),
        rectangle(
            x=4, y=4, width=W - 8, height=H - 8, rounding=2.6, fill=PAPER, stroke=INK, stroke_width=0.8
        ),
        text(text=title, x=W / 2, y=11, font_size=10.5, font_name="Times-Bold", stroke=INK),
        text(
            text=f"a bargain worth {value}",
            x=W / 2,
            y=15,
            font_size=7.2,
            font_name="Times-Italic",
            stroke=INK,
        ),
        circle(cx=W / 2, cy=H * 0.46, radius=17.5, fill="#f6e9bf", stroke=None),
        circle(cx=W / 2, cy=H * 0.46, radius=16, fill=colour, stroke=INK, stroke_width=1),
        star(cx=W / 2, cy=H * 0.46, radius=11, vertices=5, fill="#ffffff", transparency=70, stroke=None),
        text(text=str(value), x=W / 2, y=H * 0.46 + 7, font_size=48, font_name="Times-Bold", stroke=INK),
        text(text=str(value), x=8.6, y=12, font_size=17, font_name="Times-Bold", stroke=INK),
        star(cx=8.6, cy=16, radius=2.1, vertices=5, fill=colour, stroke=INK, stroke_width=0.4),
        text(
            text=str(value),
            x=W - 8.6,
            y=H - 12,
            font_size=17,
            font_name="Times-Bold",
            stroke=INK,
            rotation=180,
        ),
        star(cx=W - 8.6, cy=H - 16, radius=2.1, vertices=5, fill=colour, stroke=INK, stroke_width=0.4),
        text(
            text=flavour,
            x=9,
            y=H - 27,
            width=W - 18,
            height=14,
            wrap=True,
            align="centre",
            font_size=7.4,
            font_name="Times-Italic",
            stroke=INK,
        ),
        text(text=f"BG-{value}", x=W / 2, y=H - 4.6, font_size=5.5, font_name="Helvetica-Bold", stroke=INK),
    ]


def back() -> list:
    parts = [rectangle(x=-3, y=-3, width=W + 6, height=H + 6, fill="#34275a", stroke="#34275a")]
    step = 7.5
    for j in range(-7, 8):
        for i in range(-5, 6):
            x = W / 2 + (i + (0.5 if j % 2 else 0.0)) * step
            y = H / 2 + j * step * 0.9
            if -3 < x < W + 3 and -3 < y < H + 3:
                parts.append(star(cx=x, cy=y, radius=1.6, vertices=4, fill="#4a3d70", stroke=None))
    parts += [
        rectangle(
            x=3.2,
            y=3.2,
            width=W - 6.4,
            height=H - 6.4,
            rounding=2.5,
            fill=None,
            stroke="#e2bd5c",
            stroke_width=1.2,
        ),
        rectangle(
            x=4.3,
            y=4.3,
            width=W - 8.6,
            height=H - 8.6,
            rounding=2.5,
            fill=None,
            stroke="#e2bd5c",
            stroke_width=0.4,
        ),
        ellipse(cx=W / 2, cy=H / 2, width=44, height=37, fill="#241b40", stroke=None),
        ellipse(cx=W / 2, cy=H / 2, width=41.6, height=34.6, fill=PAPER, stroke="#e2bd5c", stroke_width=1),
        star(cx=W / 2, cy=H / 2 - 8, radius=4, vertices=4, fill="#e2bd5c", stroke=INK, stroke_width=0.4),
        text(text="Fairy Bargains", x=W / 2, y=H / 2 + 2, font_size=12, font_name="Times-Bold", stroke=INK),
        text(
            text="deals are never fair",
            x=W / 2,
            y=H / 2 + 7,
            font_size=7,
            font_name="Times-Italic",
            stroke=INK,
        ),
    ]
    return parts


def main(out: str) -> None:
    values = VALUES[:1] if SMOKE else VALUES
    Create(filename=out, paper="A4", units="mm", margin=4.5, margin_top=4.5)
    Deck(
        cards=13 * len(values),
        card_size="poker",
        width=W,
        height=H,
        bleed_fill=None,
        spacing=6,
        grid_marks=True,
        duplex=True,
    )
    for n, (value, title, colour, flavour) in enumerate(values):
        Card(f"{13 * n + 1}-{13 * n + 13}", *face(value, title, colour, flavour))
    CardBack("all", *back())
    Save()


if __name__ == "__main__":
    main(os.environ.get("PNP_BENCH_OUT", "protograf-bargains.pdf"))
