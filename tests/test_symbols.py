"""Tests for pnp.symbols: every symbol is rendered to a PDF, rasterised with
pypdfium2 and checked for placement, ink coverage and distinct silhouettes."""

from __future__ import annotations

import itertools
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.symbols import SYMBOLS, draw_symbol, has_symbol

BOX = 64  # symbol size in points; rendered at 1 px per point -> 64 x 64 masks
CELL = 96
COLS = 9
TOL = 1  # px of anti-aliasing allowed just outside the box

REQUIRED = {
    "heart",
    "diamond",
    "club",
    "spade",
    "moon",
    "sun",
    "star",
    "book",
    "sword",
    "bow",
    "magic",
    "tiger",
    "beetle",
    "flower",
    "stone",
    "feather",
    "mushroom",
    "shell",
    "horseshoe",
    "berry",
    "fairy",
    "dislike",
    "crown",
    "leaf",
    "acorn",
    "butterfly",
    "wing",
    "key",
    "bell",
    "lantern",
    "teardrop",
    "snowflake",
    "clover",
    "dragonfly",
    "seed",
    "coin",
    "castle",
    "skull",
    "sparkle",
    "hexagon",
    "triangle",
    "circle",
    "square",
}

# symbols that appear side by side and must be told apart by outline alone
GROUPS = {
    "suits": ["heart", "diamond", "club", "spade"],
    "items": ["moon", "sun", "star", "book"],
    "elements": ["sword", "bow", "magic", "tiger"],
    "feenbalz": ["beetle", "flower", "stone", "feather", "mushroom", "shell", "horseshoe"],
    "emblems": [
        "crown",
        "leaf",
        "acorn",
        "butterfly",
        "wing",
        "key",
        "bell",
        "lantern",
        "teardrop",
        "snowflake",
        "clover",
        "dragonfly",
        "seed",
        "coin",
        "castle",
        "skull",
        "sparkle",
        "hexagon",
        "triangle",
        "circle",
        "square",
    ],
}

PLAIN, OUTLINED, ON_COLOUR, OUTLINE_ONLY = range(4)
BACKGROUND = colors.Color(1.0, 0.92, 0.6)


def _centre(i: int, height: float) -> tuple[int, int]:
    return (i % COLS) * CELL + CELL // 2, int(height) - (i // COLS) * CELL - CELL // 2


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Image.Image]:
    """Pages of all symbols: plain black, filled with an outline, on a coloured ground, outline only."""
    rows = -(-len(SYMBOLS) // COLS)
    w, h = COLS * CELL, rows * CELL
    path: Path = tmp_path_factory.mktemp("symbols") / "symbols.pdf"
    c = Canvas(str(path), pagesize=(w, h))
    for page in (PLAIN, OUTLINED, ON_COLOUR, OUTLINE_ONLY):
        if page == ON_COLOUR:
            c.setFillColor(BACKGROUND)
            c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColor(colors.red)  # draw_symbol must leave this untouched
        for i, name in enumerate(SYMBOLS):
            x, y = _centre(i, h)
            if page == OUTLINED:
                draw_symbol(c, name, x, y, BOX, fill=colors.yellow, stroke=colors.black, stroke_width=3)
            elif page == OUTLINE_ONLY:
                draw_symbol(c, name, x, y, BOX, fill=None, stroke=colors.black, stroke_width=2)
            else:
                draw_symbol(c, name, x, y, BOX, fill=colors.black)
        if page == PLAIN:
            c.rect(w - 8, 0, 8, 8, stroke=0, fill=1)  # should come out red
        c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].render(scale=1).to_pil().convert("RGB") for i in range(len(pdf))]
    finally:
        pdf.close()


def _box(image: Image.Image, i: int, grow: int = 0) -> Image.Image:
    x, y = _centre(i, image.height)
    top = image.height - y - BOX // 2
    left = x - BOX // 2
    return image.crop((left - grow, top - grow, left + BOX + grow, top + BOX + grow))


def _ink(image: Image.Image, level: int) -> Image.Image:
    """Mask ('1') of pixels darker than ``level``."""
    return image.convert("L").point(lambda v: 255 if v < level else 0).convert("1")


def _count(mask: Image.Image) -> int:
    return mask.convert("L").histogram()[255]


@pytest.fixture(scope="module")
def masks(pages: list[Image.Image]) -> dict[str, Image.Image]:
    return {name: _ink(_box(pages[PLAIN], i), 128) for i, name in enumerate(SYMBOLS)}


def test_registry() -> None:
    assert isinstance(SYMBOLS, tuple)
    assert list(SYMBOLS) == sorted(SYMBOLS)
    assert set(SYMBOLS) >= REQUIRED
    assert all(has_symbol(n) for n in SYMBOLS)
    assert not has_symbol("unicorn") and not has_symbol("")


@pytest.mark.parametrize("page", [PLAIN, OUTLINED, OUTLINE_ONLY])
def test_ink_stays_in_box(pages: list[Image.Image], page: int) -> None:
    image = pages[page]
    for i, name in enumerate(SYMBOLS):
        inside = _ink(_box(image, i), 250)
        assert _count(inside) > 0, f"{name}: nothing drawn"
        # blank out the box (plus tolerance) and look for ink in the rest of the cell
        cell = _box(image, i, grow=(CELL - BOX) // 2).convert("L")
        margin = (CELL - BOX) // 2 - TOL
        cell.paste(255, (margin, margin, cell.width - margin, cell.height - margin))
        stray = _count(_ink(cell, 250))
        assert stray == 0, f"{name}: {stray} px of ink outside its box"


def test_coverage(masks: dict[str, Image.Image]) -> None:
    for name, mask in masks.items():
        share = _count(mask) / (BOX * BOX)
        assert 0.08 <= share <= 0.90, f"{name}: covers {share:.0%} of its box"


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_group_silhouettes_differ(masks: dict[str, Image.Image], group: str) -> None:
    for a, b in itertools.combinations(GROUPS[group], 2):
        diff = _count(ImageChops.logical_xor(masks[a], masks[b])) / (BOX * BOX)
        assert diff > 0.10, f"{a} and {b} differ in only {diff:.1%} of the box"


def test_holes_are_transparent(pages: list[Image.Image]) -> None:
    """Cut-outs show the background: nothing is painted white."""
    for i, name in enumerate(SYMBOLS):
        colours = _box(pages[ON_COLOUR], i).getcolors(BOX * BOX)
        assert colours is not None
        white = sum(n for n, rgb in colours if min(rgb) > 245)
        assert white == 0, f"{name}: {white} white px"


def test_graphics_state_restored(pages: list[Image.Image]) -> None:
    image = pages[PLAIN]
    r, g, b = image.getpixel((image.width - 4, image.height - 4))
    assert r > 200 and g < 60 and b < 60


def test_unknown_name_suggests_close_match() -> None:
    c = Canvas("unused.pdf")
    with pytest.raises(KeyError, match="heart"):
        draw_symbol(c, "hart", 0, 0, 10)
    with pytest.raises(KeyError, match="butterfly"):
        draw_symbol(c, "buterfly", 0, 0, 10)


def test_degenerate_calls_draw_nothing() -> None:
    before = Canvas("unused.pdf", invariant=True).getpdfdata()
    c = Canvas("unused.pdf", invariant=True)
    draw_symbol(c, "star", 10, 10, 0)
    draw_symbol(c, "star", 10, 10, 12, fill=None, stroke=None)
    assert c.getpdfdata() == before
    draw_symbol(c, "star", 10, 10, 1, fill=None, stroke=colors.black)  # tiny, outline only
    draw_symbol(c, "star", 10, 10, 1, stroke=colors.black, stroke_width=5)  # outline wider than the box
