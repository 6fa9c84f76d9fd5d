"""Colours as CSS writes them: every form read, drawn (pixels read back), exact inks for cmyk(),
see-through colours blended, and what is not a colour (or cannot go to a print shop) named with its line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest

from pnp.data.format.colours import colour, to_hex

from artwork import game_yaml, project
from conftest import run

FORMS = [  # written as -> (red, green, blue, alpha) in 0-255
    ("#f00", (255, 0, 0, 255)),
    ("#F00C", (255, 0, 0, 204)),
    ("#1e90ff", (30, 144, 255, 255)),
    ("1e90ff", (30, 144, 255, 255)),
    ("#1e90ff80", (30, 144, 255, 128)),
    ("DodgerBlue", (30, 144, 255, 255)),
    ("rebeccapurple", (102, 51, 153, 255)),
    ("rgb(30, 144, 255)", (30, 144, 255, 255)),
    ("rgb(100% 0% 50%)", (255, 0, 128, 255)),
    ("rgba(30,144,255,0.5)", (30, 144, 255, 128)),
    ("rgb(30 144 255 / 25%)", (30, 144, 255, 64)),
    ("cmyk(0%, 100%, 100%, 0%)", (255, 0, 0, 255)),
    ("cmyk(0, 50, 100, 50)", (128, 64, 0, 255)),
    ("transparent", (0, 0, 0, 0)),
]


@pytest.mark.parametrize(("text", "want"), FORMS)
def test_every_css_form_is_read(text: str, want: tuple[int, int, int, int]) -> None:
    c = colour(text)
    got = tuple(round(v * 255) for v in (c.red, c.green, c.blue, c.alpha))
    assert got == want, (text, got)
    assert colour(to_hex(c)) == colour(to_hex(c))  # prints back as #rrggbb(aa), read the same


@pytest.mark.parametrize(
    "text",
    [
        "nonsense",
        "#ff00000",
        "#gg0000",
        "rgb(1, 2)",
        "rgb(300, 0, 0)",
        "cmyk(0, 0, 0)",
        "rgba(1,2,3,4,5)",
        "hsl(0, 100%, 50%)",
        "",
    ],
)
def test_what_is_not_a_colour_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        colour(text, "")


def _swatches(tmp_path: Path, fills: list[str]) -> Path:
    """A one-card game whose face is a row of 8 mm squares, one per colour, on white."""
    rects = "\n".join(
        f'      - {{type: rect, x: {4 + 10 * (i % 5)}, y: {10 + 12 * (i // 5)}, w: 8, h: 8, fill: "{f}"}}'
        for i, f in enumerate(fills)
    )
    face = f'layout: custom\n    elements:\n      - {{type: rect, frame: bleed, fill: "#ffffff"}}\n{rects}'
    return project(tmp_path, game_yaml(face, "      - {key: a, name: A}"), name="swatch")


def test_each_form_draws_its_colour(tmp_path: Path) -> None:
    fills = [text for text, _ in FORMS]
    root = _swatches(tmp_path, fills)
    r = run(
        "build",
        "swatch",
        "--project",
        str(root),
        "--out",
        str(root / "out"),
        "--duplex",
        "off",
        "--crop-marks",
        "off",
    )
    assert r.code == 0, r.out + r.err
    pdf = root / "out" / "swatch" / "deck.pdf"
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        inks = [r["non_stroking_color"] for r in page.rects if abs(r["width"] - 8 * 72 / 25.4) < 0.1]
        h_pt = page.height
        boxes = [(r["x0"], r["top"]) for r in page.rects if abs(r["width"] - 8 * 72 / 25.4) < 0.1]
    assert len(inks) == len(fills)
    assert [tuple(round(v, 3) for v in i) for i in inks[11:13]] == [
        (0, 1, 1, 0),
        (0, 0.5, 1, 0.5),
    ]  # exact inks
    scale = 150 / 72
    image = np.asarray(pdfium.PdfDocument(str(pdf))[0].render(scale=scale).to_pil().convert("RGB"), dtype=int)
    for (text, (red, green, blue, alpha)), (x0, top) in zip(FORMS, boxes):
        px = image[int((top + 4 * 72 / 25.4) * scale), int((x0 + 4 * 72 / 25.4) * scale)]
        a = alpha / 255  # drawn over white
        want = [round(c * a + 255 * (1 - a)) for c in (red, green, blue)]
        slack = 40 if text.startswith("cmyk") else 6  # inks are shown through the viewer's own conversion
        assert np.abs(px - want).max() <= slack, (text, list(px), want)
    assert h_pt > 0


def test_a_wrong_colour_names_its_line_and_the_forms(tmp_path: Path) -> None:
    root = _swatches(tmp_path, ["#ff0000", "bluish"])
    r = run("check", "--project", str(root))
    assert r.code != 0
    line = next(
        i
        for i, t in enumerate((root / "card_data" / "swatch.yaml").read_text().splitlines(), 1)
        if "bluish" in t
    )
    assert f"swatch.yaml:{line}:" in r.out + r.err and "'bluish'" in r.out + r.err
    assert "a CSS colour name, rgb(...), rgba(...) or cmyk(...)" in r.out + r.err


def test_a_see_through_colour_cannot_go_to_a_print_shop(tmp_path: Path) -> None:
    root = _swatches(tmp_path, ["rgba(255, 0, 0, 0.5)"])
    r = run("build", "swatch", "--project", str(root), "--out", str(root / "out"), "--cmyk")
    assert r.code == 2, r.out + r.err
    assert "see-through colour (#ff000080: " in r.err and "swatch.yaml:" in r.err and "Traceback" not in r.err
    assert not (root / "out" / "swatch" / "deck.pdf").exists()


def test_style_and_set_colours_take_css_names(tmp_path: Path) -> None:
    text = game_yaml('layout: value\n    slots: {value: "1", title: A}', "      - {key: a, name: A}")
    text = text.replace("faces:", 'style: {accent: rebeccapurple, ink: "rgb(20, 20, 30)"}\nfaces:', 1)
    root = project(tmp_path, text, name="named")
    assert run("check", "--project", str(root)).code == 0
    root2 = project(tmp_path / "bad", text.replace("rebeccapurple", "rebeccapurpl"), name="named")
    r = run("check", "--project", str(root2))
    assert r.code != 0 and "style.accent" in r.out + r.err and "rebeccapurpl" in r.out + r.err
