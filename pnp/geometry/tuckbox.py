"""A tuck box's net: the pieces of card to cut, fold and glue into a box that holds a deck (millimetres).

The box stands with its front facing you: a back panel, two sides and a front in a row, a glue
strip on the back's left edge; the lid and its tuck tongue hang from the back's top, dust flaps
from the sides' tops and bottoms, and the bottom closes with a flap from the front glued under the
back. A thumb notch in the front's top edge lets the deck slide out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.geometry.sizes import Size

ROOM = 1.0  # mm added to the card's width and height inside the box
SLACK = 1.0  # mm added to the deck's thickness
THICKNESS = 0.3  # mm per card of 300 gsm card stock
SLEEVED = 0.5  # mm per sleeved card
SLEEVE_ROOM = 3.0  # mm a sleeve adds to a card's width and height (a 63 x 88 mm card: a 66 x 91 mm sleeve)
GLUE = 10.0  # mm wide glue strips (print notes: glue flaps about 10 mm)
MAX_CARDS = 2000

Point = tuple[float, float]


@dataclass(frozen=True)
class Piece:
    """One piece of the net: its outline, and which of its edges are folds (the others are cut)."""

    name: str  # back, front, side, glue, lid, tongue, dust, bottom, bottom-glue
    kind: str  # face (shows the deck's back design), side, flap, glue
    points: tuple[Point, ...]
    folds: frozenset[int]  # edge i runs from points[i] to points[i + 1]

    def edges(self) -> list[tuple[Point, Point, bool]]:
        """Every edge: its ends and whether it is a fold."""
        n = len(self.points)
        return [(self.points[i], self.points[(i + 1) % n], i in self.folds) for i in range(n)]

    def box(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class TuckBox:
    """A box for `cards` cards: its inside (width, height, depth) and its net of pieces, from (0, 0)."""

    cards: int
    inner: tuple[float, float, float]
    pieces: tuple[Piece, ...]

    @property
    def size(self) -> Size:
        boxes = [p.box() for p in self.pieces]
        return Size(max(b[2] for b in boxes), max(b[3] for b in boxes))

    def piece(self, name: str) -> Piece:
        return next(p for p in self.pieces if p.name == name)


def _rect(name: str, kind: str, x: float, y: float, w: float, h: float, folds: tuple[int, ...]) -> Piece:
    """A rectangle from its lower left corner; edges 0 bottom, 1 right, 2 top, 3 left."""
    return Piece(name, kind, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), frozenset(folds))


def _flap(name: str, x: float, y: float, w: float, h: float, up: bool) -> Piece:
    """A dust flap on a fold from (x, y) to (x + w, y), tapered at its free corners; edge 0 is the fold."""
    s = 1 if up else -1
    cut = min(h * 0.6, w * 0.4)
    points = ((x, y), (x + w, y), (x + w - cut * 0.4, y + s * h), (x + cut, y + s * h))
    return Piece(name, "flap", points if up else (points[1], points[0], points[3], points[2]), frozenset({0}))


def _front(x: float, y: float, w: float, h: float) -> Piece:
    """The front panel with a half-round thumb notch in its top edge (cut); its sides and bottom fold."""
    r = min(10.0, w / 4, h / 6)
    cx, top = x + w / 2, y + h
    arc = [
        (cx + r * math.cos(math.pi - math.pi * i / 16), top - r * math.sin(math.pi * i / 16))
        for i in range(17)
    ]
    points = ((x, y), (x + w, y), (x + w, top), *reversed(arc), (x, top))
    return Piece("front", "face", points, frozenset({0, 1, len(points) - 1}))


def tuck_box(card: Size, cards: int, thickness: float = THICKNESS, sleeve: float = 0.0) -> TuckBox:
    """The net of a box holding `cards` cards of `card` size, each `thickness` mm thick, in sleeves
    `sleeve` mm wider and taller than the card (0: unsleeved)."""
    if not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"a tuck box holds 1 to {MAX_CARDS} cards, not {cards}")
    if not 0.05 <= thickness <= 3.0:
        raise ValueError(f"a card is 0.05 to 3 mm thick, not {thickness:g}")
    if not 0 <= sleeve <= 20:
        raise ValueError(f"a sleeve adds 0 to 20 mm to a card, not {sleeve:g}")
    w, h = card.w + sleeve + ROOM, card.h + sleeve + ROOM
    d = round(cards * thickness + SLACK, 2)
    tongue = min(20.0, max(10.0, h * 0.18))
    g = GLUE
    bottom = d + g  # the bottom flap and its glue strip, below the panels
    x_back, x_side1, x_front, x_side2 = g, g + w, g + w + d, g + 2 * w + d
    top = bottom + h
    pieces = (
        _rect("glue", "glue", 0, bottom, g, h, (1,)),
        _rect("back", "face", x_back, bottom, w, h, (1, 2, 3)),
        _rect("side", "side", x_side1, bottom, d, h, (0, 1, 2, 3)),
        _front(x_front, bottom, w, h),
        _rect("side", "side", x_side2, bottom, d, h, (0, 2, 3)),
        _rect("lid", "flap", x_back, top, w, d, (0, 2)),
        _rect("tongue", "flap", x_back, top + d, w, tongue, (0,)),
        _flap("dust", x_side1, top, d, d * 0.9, up=True),
        _flap("dust", x_side2, top, d, d * 0.9, up=True),
        _flap("dust", x_side1, bottom, d, d * 0.9, up=False),
        _flap("dust", x_side2, bottom, d, d * 0.9, up=False),
        _rect("bottom", "flap", x_front, g, w, d, (0, 2)),
        _rect("bottom-glue", "glue", x_front, 0, w, g, (2,)),
    )
    return TuckBox(cards, (w, h, d), pieces)
