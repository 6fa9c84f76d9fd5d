"""`pnp showcase`: pictures for sharing a game online: a hand of cards fanned out, and a row of cards
lying on a table seen at a slant.

Each card is drawn as the exports draw it (its sheet form rasterised by PDFium, `pnp.output.exports.raster`),
given rounded corners, then composed with Pillow: the hand turns every card about one point below
them; the row lies the cards side by side and tilts the whole strip back with a perspective
transform. Both cast a soft shadow and are fitted, centred, into a picture of a fixed size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from pnp.data.format.model import Component, Game
from pnp.draw.faces import card_size_of
from pnp.output.exports.profiles import Frame
from pnp.output.exports.raster import Request, Scene, render
from pnp.resolve.cards import printed_cards
from pnp.resolve.fonts import Fonts

HAND_SIZE = (1600, 1000)  # pixels of hand.png
ROW_SIZE = (1600, 700)  # pixels of row.png
BACKGROUND = (235, 230, 220)  # a warm grey table
CARD_PX = 640  # the tallest card's height in pixels as drawn, before fitting
CORNER_MM = 3.0  # the rounded corners of a cut card
MOST_CARDS = 12
DEFAULT_CARDS = 5
SHADOW = (14, 22, 18, 110)  # offset x, y, blur radius (pixels before fitting), darkness (0-255)


@dataclass(frozen=True)
class Chosen:
    """A card to show: its component and its place among that component's printed cards."""

    comp: Component
    index: int
    key: str


def card_choices(game: Game, counts: dict[str, int]) -> dict[str, Chosen]:
    """Every card that can be shown, by its key (the first printing of each, in the database's order)."""
    found: dict[str, Chosen] = {}
    for comp in game.components:
        if not comp.is_cards:
            continue
        for i, p in enumerate(printed_cards(game, comp, counts)):
            if p.copies and p.card.key not in found:
                found[p.card.key] = Chosen(comp, i, p.card.key)
    return found


def default_cards(choices: dict[str, Chosen]) -> list[Chosen]:
    """DEFAULT_CARDS cards taken in turn from each component, so a game of several decks shows each."""
    by_comp: dict[str, list[Chosen]] = {}
    for chosen in choices.values():
        by_comp.setdefault(chosen.comp.key, []).append(chosen)
    picked: list[Chosen] = []
    for round_ in range(DEFAULT_CARDS):
        for cards in by_comp.values():
            if round_ < len(cards) and len(picked) < DEFAULT_CARDS:
                picked.append(cards[round_])
    return picked


def card_pictures(
    game: Game, fonts: Fonts, cards: Sequence[Chosen], counts: dict[str, int]
) -> list[Image.Image]:
    """Each card's face as an RGBA picture with rounded corners; all at one resolution, the tallest card
    CARD_PX high, so cards of different sizes keep their proportions to each other."""
    tallest = max(card_size_of(c.comp).h for c in cards)
    dpi = CARD_PX / (tallest / 25.4)
    scene = Scene(game, fonts, tuple(sorted(counts.items())))
    pictures = []
    for chosen in cards:
        size = card_size_of(chosen.comp)
        w, h = round(size.w / 25.4 * dpi), round(size.h / 25.4 * dpi)
        frame = Frame(w, h, (0.0, 0.0, float(w), float(h)), dpi)
        (image,) = render(scene, [Request(chosen.comp.key, chosen.index, "face", frame)])
        mask = Image.new("L", image.size, 0)
        radius = CORNER_MM / 25.4 * dpi
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
        card = image.convert("RGBA")
        card.putalpha(mask)
        pictures.append(card)
    return pictures


# ------------------------------------------------------------------------------------------------ hand


def hand(cards: Sequence[Image.Image]) -> Image.Image:
    """The cards fanned out as a hand holds them: each turned about one point below the cards, the
    first furthest left and lowest in the pile, neighbours overlapping."""
    n = len(cards)
    spread = min(12.0 * (n - 1), 72.0)  # degrees from the first card to the last
    angles = [(-spread / 2 + i * spread / (n - 1)) if n > 1 else 0.0 for i in range(n)]
    reach = 1.7 * max(c.height for c in cards)  # from the turning point to a card's centre

    def place(card: Image.Image, angle: float, px: float, py: float) -> list[tuple[float, float]]:
        """The card's corners on the canvas, turned `angle` degrees clockwise about (px, py)."""
        a = math.radians(angle)
        cos, sin = math.cos(a), math.sin(a)
        out = []
        for u, v in ((0, 0), (card.width, 0), (card.width, card.height), (0, card.height)):
            dx, dy = u - card.width / 2, v - card.height / 2 - reach
            out.append((px + dx * cos - dy * sin, py + dx * sin + dy * cos))
        return out

    corners = [pt for card, angle in zip(cards, angles) for pt in place(card, angle, 0.0, 0.0)]
    pad = SHADOW[2] * 3 + max(SHADOW[:2])
    left, top = min(x for x, _ in corners) - pad, min(y for _, y in corners) - pad
    width = math.ceil(max(x for x, _ in corners) - left + pad)
    height = math.ceil(max(y for _, y in corners) - top + pad)
    px, py = -left, -top  # the turning point on the canvas
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for card, angle in zip(cards, angles):
        a = math.radians(angle)
        cos, sin = math.cos(a), math.sin(a)
        # canvas pixel -> card pixel: turn back about the point, then shift to the card's own corner
        inverse = (
            cos,
            sin,
            -cos * px - sin * py + card.width / 2,
            -sin,
            cos,
            sin * px - cos * py + card.height / 2 + reach,
        )
        layer = card.transform((width, height), Image.Transform.AFFINE, inverse, Image.Resampling.BICUBIC)
        canvas = Image.alpha_composite(canvas, _shadow(layer))
        canvas = Image.alpha_composite(canvas, layer)
    return canvas


# ------------------------------------------------------------------------------------------------- row


def row(cards: Sequence[Image.Image]) -> Image.Image:
    """The cards side by side on a table seen at a slant: the strip's far edge narrower than its near one."""
    gap = round(0.08 * max(c.width for c in cards))
    height = max(c.height for c in cards)
    width = sum(c.width for c in cards) + gap * (len(cards) - 1)
    strip = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    x = 0
    for card in cards:
        strip.alpha_composite(card, (x, height - card.height))
        x += card.width + gap
    pad = SHADOW[2] * 3 + max(SHADOW[:2])
    inset, depth = 0.14 * width, 0.72 * height  # the far edge drawn narrower, the strip foreshortened
    out_w, out_h = width + 2 * pad, round(depth) + 2 * pad
    quad = [(pad + inset, pad), (pad + width - inset, pad), (pad + width, pad + depth), (pad, pad + depth)]
    flat = [(0, 0), (width, 0), (width, height), (0, height)]
    tilted = strip.transform(
        (out_w, out_h),
        Image.Transform.PERSPECTIVE,
        perspective(quad, flat),
        Image.Resampling.BICUBIC,
    )
    return Image.alpha_composite(_shadow(tilted), tilted)


def perspective(
    to: Sequence[tuple[float, float]], source: Sequence[tuple[float, float]]
) -> tuple[float, ...]:
    """The eight coefficients of Pillow's PERSPECTIVE transform that take each point of `to` (the
    picture made) back to the matching point of `source` (the picture transformed)."""
    rows: list[list[float]] = []
    for (x, y), (u, v) in zip(to, source):
        rows.append([x, y, 1, 0, 0, 0, -x * u, -y * u, u])
        rows.append([0, 0, 0, x, y, 1, -x * v, -y * v, v])
    return tuple(_solve(rows))


def _solve(rows: list[list[float]]) -> list[float]:
    """Solve a small linear system given as augmented rows (Gaussian elimination, partial pivoting)."""
    n = len(rows)
    m = [list(r) for r in rows]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError("the four corners do not make a quadrilateral")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                k = m[r][col] / m[col][col]
                m[r] = [a - k * b for a, b in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


# ------------------------------------------------------------------------------------------ finishing


def _shadow(layer: Image.Image) -> Image.Image:
    """A soft shadow of a layer's shapes, cast down and to the right."""
    dx, dy, blur, dark = SHADOW
    alpha = layer.getchannel("A").point(lambda a: a * dark // 255)
    moved = Image.new("L", layer.size, 0)
    moved.paste(alpha, (dx, dy))
    shadow = Image.new("RGBA", layer.size, (20, 16, 12, 0))
    shadow.putalpha(moved.filter(ImageFilter.GaussianBlur(blur)))
    return shadow


def fitted(picture: Image.Image, size: tuple[int, int], margin: float = 0.05) -> Image.Image:
    """`picture` scaled to fit `size` inside a margin, centred on the table colour, as RGB."""
    room_w, room_h = size[0] * (1 - 2 * margin), size[1] * (1 - 2 * margin)
    k = min(room_w / picture.width, room_h / picture.height)
    scaled = picture.resize(
        (max(1, round(picture.width * k)), max(1, round(picture.height * k))), Image.Resampling.LANCZOS
    )
    out = Image.new("RGBA", size, (*BACKGROUND, 255))
    out.alpha_composite(scaled, ((size[0] - scaled.width) // 2, (size[1] - scaled.height) // 2))
    return out.convert("RGB")


def write_showcase(
    folder: Path, game: Game, fonts: Fonts, cards: Sequence[Chosen], counts: dict[str, int]
) -> list[Path]:
    """hand.png and row.png of `cards` into `folder`; returns their paths."""
    pictures = card_pictures(game, fonts, cards, counts)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, picture, size in (("hand", hand(pictures), HAND_SIZE), ("row", row(pictures), ROW_SIZE)):
        path = folder / f"{name}.png"
        fitted(picture, size).save(path, format="PNG", optimize=True)
        written.append(path)
    return written
