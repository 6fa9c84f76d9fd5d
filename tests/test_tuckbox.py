"""Tuck boxes read from the PDFs: the folds enclose the deck (card + 1 mm, cards x thickness + 1 mm),
every fold and cut on the page, and a box too large for any paper named by `pnp check`."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.geometry.sizes import Size
from pnp.geometry.tuckbox import GLUE, tuck_box

from conftest import make_project, run

MM = 72 / 25.4


def segments(pdf: Path, width: float) -> list[tuple[float, float, float, float]]:
    """Lines the page draws at `width` points, in mm from the page's lower left."""
    reader = PdfReader(str(pdf))
    page = reader.pages[0]
    out, lw, start, shift = [], 1.0, (0.0, 0.0), (0.0, 0.0)
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm" and [float(v) for v in operands[:4]] == [1, 0, 0, 1]:
            shift = (shift[0] + float(operands[4]), shift[1] + float(operands[5]))
        elif op == b"w":
            lw = float(operands[0])
        elif op == b"m":
            start = (float(operands[0]), float(operands[1]))
        elif op == b"l" and abs(lw - width) < 1e-6:
            x0, y0, x1, y1 = start[0], start[1], float(operands[0]), float(operands[1])
            out.append(
                ((x0 + shift[0]) / MM, (y0 + shift[1]) / MM, (x1 + shift[0]) / MM, (y1 + shift[1]) / MM)
            )
    return out


def _inside(pdf: Path) -> tuple[float, float, float]:
    """Width, height and depth inside the box, from the long vertical and horizontal fold lines."""
    folds = segments(pdf, 0.4)
    assert folds
    xs = sorted({round(x0, 3) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6 and abs(y1 - y0) > 60})
    ys = sorted({round(y0, 3) for x0, y0, x1, y1 in folds if abs(y0 - y1) < 1e-6 and abs(x1 - x0) > 60})
    # glue | back | side | front | side: four long vertical folds; the body's top and bottom folds
    assert len(xs) == 4, xs
    widths = [b - a for a, b in zip(xs, xs[1:])]
    heights = [b - a for a, b in zip(ys, ys[1:])]
    return widths[0], max(heights), widths[1]


@pytest.mark.parametrize(
    "flags, per_card, sleeve",
    [((), 0.3, 0.0), (("--sleeved",), 0.5, 3.0), (("--card-thickness", "0.4"), 0.4, 0.0)],
)
def test_the_box_holds_the_deck(
    tmp_path: Path, flags: tuple[str, ...], per_card: float, sleeve: float
) -> None:
    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build", "bargains", "--tuckbox", *flags, "--project", str(project), "--out", str(out), "--jobs", "1"
    )
    assert r.code == 0, r.err
    pdf = out / "bargains" / "deck-tuckbox.pdf"
    w, h, d = _inside(pdf)
    # poker (in a 66 x 91 mm sleeve) + 1 mm
    assert w == pytest.approx(64.0 + sleeve, abs=0.05) and h == pytest.approx(89.0 + sleeve, abs=0.05)
    assert d == pytest.approx(65 * per_card + 1.0, abs=0.05)  # 65 cards + 1 mm
    cuts = segments(pdf, 0.5)
    assert len(cuts) > 30  # the outline, the notch's arc among them
    text = PdfReader(str(pdf)).pages[0].extract_text()
    assert "tuck box for 65 cards" in text and "glue" in text


def test_the_net_closes() -> None:
    """Every fold joins two pieces; the lid covers the top and the bottom flap the bottom."""
    box = tuck_box(Size(63, 88), 65)
    w, h, d = box.inner
    assert (
        box.piece("lid").box()[2] - box.piece("lid").box()[0],
        box.piece("lid").box()[3] - box.piece("lid").box()[1],
    ) == pytest.approx((w, d))
    assert box.piece("bottom").box()[3] - box.piece("bottom").box()[1] == pytest.approx(d)
    assert box.piece("glue").box()[2] == pytest.approx(GLUE)
    folds: dict[tuple, int] = {}
    for piece in box.pieces:
        for a, b, fold in piece.edges():
            if fold:
                key = tuple(sorted((tuple(round(v, 6) for v in a), tuple(round(v, 6) for v in b))))
                folds[key] = folds.get(key, 0) + 1
    assert folds and all(n == 2 for n in folds.values()), folds


def test_check_names_a_box_too_large_for_any_paper(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    db = project / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(
        text.replace("card_size: poker", "card_size: 280x400\n    tuckbox: true", 1), encoding="utf-8"
    )
    r = run("check", "bargains", "--project", str(project))
    assert r.code != 0
    assert "card_data/bargains.yaml:" in r.err + r.out and "tuckbox" in r.err + r.out
    assert "larger than a4" in (r.err + r.out).lower()
