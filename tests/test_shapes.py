"""The designer's toolbox: lengths in every unit, polygon, star, hex, hex grid and SVG path data,
gradients and opacity, each drawn into a real PDF and measured from it (geometry with pdfplumber,
colours from PDFium's pixels); what is wrong is an error at its line."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest

from artwork import game_yaml, project
from conftest import run

MM = 72 / 25.4


def _build(tmp_path: Path, elements: list[str], *extra: str) -> tuple[Path, object]:
    """Build a one-card deck whose face is a trim-sized white rect, then `elements`; the PDF and the
    trim's top-left corner on its page (points, pdfplumber's top-down y)."""
    lines = "\n".join(f"      - {e}" for e in ['{type: rect, fill: "#ffffff"}', *elements])
    root = project(
        tmp_path,
        game_yaml(f"layout: custom\n    elements:\n{lines}", "      - {key: a, name: A}"),
        name="toolbox",
    )
    r = run(
        "build",
        "toolbox",
        "--project",
        str(root),
        "--out",
        str(root / "out"),
        "--duplex",
        "off",
        "--crop-marks",
        "off",
        *extra,
    )
    assert r.code == 0, r.out + r.err
    pdf = root / "out" / "toolbox" / "deck.pdf"
    with pdfplumber.open(pdf) as doc:
        trim = max(doc.pages[0].rects, key=lambda r: r["width"] * r["height"])
    return pdf, (trim["x0"], trim["top"])


def _shapes(pdf: Path) -> tuple[list[dict], list[dict]]:
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        return list(page.rects), list(page.curves)


def _mm(points: list[tuple[float, float]], origin: tuple[float, float]) -> list[tuple[float, float]]:
    return [(round((x - origin[0]) / MM, 2), round((y - origin[1]) / MM, 2)) for x, y in points]


def test_every_unit_places_a_box_exactly(tmp_path: Path) -> None:
    pdf, origin = _build(
        tmp_path,
        [
            '{type: rect, x: 0.5in, y: 1cm, w: 36pt, h: 25%, fill: "#ff0000"}',
            '{type: rect, x: 40%, y: 50mm, w: 7, h: 0.25in, fill: "#00ff00"}',
        ],
    )
    rects, _ = _shapes(pdf)
    red = next(r for r in rects if r["non_stroking_color"] == (1, 0, 0))
    green = next(r for r in rects if r["non_stroking_color"] == (0, 1, 0))
    x, top = _mm([(red["x0"], red["top"])], origin)[0]
    assert (x, top) == (12.7, 10.0)
    assert (
        round(red["width"] / MM, 2) == 12.7 and round(red["height"] / MM, 2) == 22.0
    )  # 36 pt; 25 % of 88 mm
    x, top = _mm([(green["x0"], green["top"])], origin)[0]
    assert (x, top) == (25.2, 50.0) and round(green["height"] / MM, 2) == 6.35  # 40 % of 63 mm


def test_polygon_star_hex_and_path_corners(tmp_path: Path) -> None:
    pdf, origin = _build(
        tmp_path,
        [
            '{type: polygon, x: 5, y: 5, w: 20, h: 20, sides: 6, fill: "#010101"}',
            '{type: star, x: 30, y: 5, w: 20, h: 20, points: 5, inner: 0.4, fill: "#020202"}',
            '{type: hex, x: 5, y: 30, w: 20, h: 17.32, fill: "#030303"}',
            '{type: hex, x: 30, y: 30, w: 17.32, h: 20, pointy: true, fill: "#040404"}',
            '{type: path, d: "M 5 60 l 15 0 L 12 75 z", fill: "#050505"}',
            '{type: polygon, x: 30, y: 55, w: 20, h: 20, sides: 4, rotate: 45, fill: "#060606"}',
        ],
    )
    _, curves = _shapes(pdf)
    by_ink = {
        round(c["non_stroking_color"][0] * 255): _mm(c["pts"], origin)
        for c in curves
        if c.get("non_stroking_color") and len(set(c["non_stroking_color"])) == 1
    }
    hexagon = by_ink[1][:-1]
    assert len(hexagon) == 6 and hexagon[0] == (15.0, 5.0)  # a corner at the top
    assert all(abs(math.dist(p, (15, 15)) - 10) < 0.02 for p in hexagon)
    star = by_ink[2][:-1]
    reach = sorted(round(math.dist(p, (40, 15)), 2) for p in star)
    assert len(star) == 10 and reach[:5] == [4.0] * 5 and reach[5:] == [10.0] * 5
    assert sorted(by_ink[3][:-1]) == sorted(
        [(5.0, 38.66), (10.0, 30.0), (20.0, 30.0), (25.0, 38.66), (20.0, 47.32), (10.0, 47.32)]
    )  # flat top, fills its box
    assert (38.66, 30.0) in by_ink[4] and (38.66, 50.0) in by_ink[4]  # pointy: corners top and bottom
    assert by_ink[5][:3] == [(5.0, 60.0), (20.0, 60.0), (12.0, 75.0)]  # relative and absolute path data
    square = by_ink[6][:-1]
    assert sorted(square) == [
        (32.93, 57.93),
        (32.93, 72.07),
        (47.07, 57.93),
        (47.07, 72.07),
    ]  # a diamond, turned


def test_hexgrid_neighbours_are_one_step_apart_inside_the_box(tmp_path: Path) -> None:
    pdf, origin = _build(
        tmp_path,
        ['{type: hexgrid, x: 4, y: 10, w: 55, h: 40, step: 10, stroke: "#070707", stroke_width: 0.2}'],
    )
    _, curves = _shapes(pdf)
    hexes = [_mm(c["pts"], origin)[:-1] for c in curves if c.get("stroking_color") and len(c["pts"]) == 7]
    assert len(hexes) >= 12
    centres = [(sum(x for x, _ in h) / 6, sum(y for _, y in h) / 6) for h in hexes]
    nearest = [min(math.dist(a, b) for b in centres if b is not a) for a in centres]
    assert all(abs(d - 10) < 0.02 for d in nearest)
    assert all(4 - 0.01 <= x <= 59.01 and 10 - 0.01 <= y <= 50.01 for h in hexes for x, y in h)


def _pixels(pdf: Path, dpi: int = 100) -> np.ndarray:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return np.asarray(doc[0].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=int)
    finally:
        doc.close()


def _at(image: np.ndarray, origin: tuple[float, float], x: float, y: float, dpi: int = 100) -> list[int]:
    return list(image[int((origin[1] + y * MM) * dpi / 72), int((origin[0] + x * MM) * dpi / 72)])


def test_gradients_and_opacity_read_back_from_the_pixels(tmp_path: Path) -> None:
    pdf, origin = _build(
        tmp_path,
        [
            '{type: rect, x: 5, y: 5, w: 50, h: 10, fill: "linear-gradient(90deg, #ff0000, #0000ff)"}',
            '{type: ellipse, x: 5, y: 20, w: 30, h: 30, fill: "radial-gradient(white, black)"}',
            '{type: rect, x: 5, y: 55, w: 20, h: 10, fill: "#ff0000", opacity: 0.4}',
            '{type: group, opacity: 0.5, elements: [{type: rect, x: 30, y: 55, w: 20, h: 10, fill: "#0000ff80"}]}',
        ],
    )
    image = _pixels(pdf)
    left, middle, right = (_at(image, origin, x, 10) for x in (5.5, 30, 54.5))
    assert left[0] > 240 and left[2] < 15 and right[2] > 240 and right[0] < 15
    assert abs(middle[0] - 128) < 12 and abs(middle[2] - 128) < 12
    centre, edge = _at(image, origin, 20, 35), _at(image, origin, 20, 21)
    assert min(centre) > 235 and max(edge) < 150
    assert np.abs(np.array(_at(image, origin, 15, 60)) - [255, 153, 153]).max() <= 4  # 40 % red on white
    assert np.abs(np.array(_at(image, origin, 40, 60)) - [191, 191, 255]).max() <= 4  # 50 % x 50 % blue


@pytest.mark.parametrize(
    ("element", "words"),
    [
        ("{type: polygon, sides: 2}", "sides: from 3 to 64"),
        ("{type: star, points: 5, inner: 1.5}", "inner: from 0.05 to 0.95"),
        ('{type: path, d: "L 1 2"}', "path data starts with a move"),
        ('{type: path, d: "M 1 2 L 3"}', "a command is short of numbers"),
        ('{type: path, d: "M 1 2 X 3 4"}', "path data holds 'X'"),
        ("{type: path}", "needs 'd' (SVG path data) or 'commands'"),
        ("{type: rect, opacity: 1.5}", "opacity: from 0 (invisible) to 1 (solid)"),
        ('{type: rect, fill: "linear-gradient(90deg, #ff000080, blue)"}', "gradient colours are opaque"),
        ('{type: rect, fill: "linear-gradient(90deg, red)"}', "a gradient takes 2 to 16 colours"),
    ],
)
def test_what_cannot_be_drawn_is_named_at_its_line(tmp_path: Path, element: str, words: str) -> None:
    text = game_yaml(f"layout: custom\n    elements:\n      - {element}", "      - {key: a, name: A}")
    root = project(tmp_path, text, name="toolbox")
    r = run("check", "--project", str(root))
    assert r.code == 2 and "Traceback" not in r.err
    line = next(i for i, t in enumerate(text.splitlines(), 1) if element in t)
    assert f"toolbox.yaml:{line}:" in r.err and words in r.err, r.err


def test_opacity_cannot_go_to_a_print_shop(tmp_path: Path) -> None:
    text = game_yaml(
        'layout: custom\n    elements:\n      - {type: rect, fill: "#ff0000", opacity: 0.5}',
        "      - {key: a, name: A}",
    )
    root = project(tmp_path, text, name="toolbox")
    r = run("build", "toolbox", "--project", str(root), "--out", str(root / "out"), "--cmyk")
    assert r.code == 2 and "see-through colour" in r.err and "opacity" in r.err, r.err
    assert not (root / "out" / "toolbox" / "deck.pdf").exists()


def test_a_gradient_goes_to_a_print_shop_in_inks(tmp_path: Path) -> None:
    pdf, _ = _build(
        tmp_path, ['{type: rect, fill: "linear-gradient(to right, #ffcc00, rgb(0, 80, 160))"}'], "--cmyk"
    )
    data = pdf.read_bytes()
    assert b"/ShadingType 2" in data and b"/DeviceCMYK" in data and b"/DeviceRGB" not in data


def test_png_exports_keep_gradients_and_opacity(tmp_path: Path) -> None:
    """A PNG export draws see-through inks and gradients as the PDF does (its forms written by pnp's
    form writer, which keeps their graphics states and shadings)."""
    text = game_yaml(
        'layout: custom\n    elements:\n      - {type: rect, frame: bleed, fill: "#ffffff"}\n'
        '      - {type: rect, x: 0, y: 0, w: 63, h: 40, fill: "linear-gradient(90deg, #ff0000, #0000ff)"}\n'
        '      - {type: rect, x: 0, y: 50, w: 63, h: 38, fill: "#ff0000", opacity: 0.4}',
        "      - {key: a, name: A}",
    )
    root = project(tmp_path, text, name="toolbox")
    r = run("export", "png", "toolbox", "--project", str(root), "--out", str(root / "out"), "--dpi", "100")
    assert r.code == 0, r.out + r.err
    face = next(p for p in (root / "out").rglob("*.png") if "AT-a" in p.name or "face" in p.name)
    from PIL import Image

    with Image.open(face) as im:
        a = np.asarray(im.convert("RGB"), dtype=int)
    h, w = a.shape[:2]
    left, right = a[int(h * 0.2), int(w * 0.1)], a[int(h * 0.2), int(w * 0.9)]
    assert left[0] > 200 and left[2] < 60 and right[2] > 200 and right[0] < 60
    assert np.abs(a[int(h * 0.8), w // 2] - [255, 153, 153]).max() <= 6
