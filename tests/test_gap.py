"""`--gap` and `--crop-length`, read back from the PDF: cards a gap apart with their bleed reaching half-way
across it (and whole round the block), crop marks at every card's trim, backs mirrored behind their
fronts, and crop marks of the length asked for."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from conftest import ROOT, placements, run, with_ctm

MM = 72 / 25.4
W, H, BLEED = 63.0, 88.0, 3.0  # poker cards, the default bleed
TOL = 0.05

GAME = """game: {name: Gaps, tag: GP, players: {min: 1, max: 4}}
faces:
  f:
    layout: value
    slots: {value: "{{ card.n }}", title: "{{ card.name }}"}
backs:
  plain:
    layout: back
    slots: {title: Gaps}
components:
  - key: deck
    kind: deck
    name: Deck
    face: f
    back: plain
    fields:
      n: {type: int}
    cards:
CARDS"""


def _project(tmp_path: Path, cards: int) -> Path:
    root = tmp_path / "proj"
    (root / "card_data").mkdir(parents=True)
    shutil.copytree(ROOT / "fonts", root / "fonts")
    rows = "".join(f"      - {{key: c{i}, name: Card {i}, n: {i}}}\n" for i in range(cards))
    (root / "card_data" / "gaps.yaml").write_text(GAME.replace("CARDS", rows), encoding="utf-8")
    return root


def _build(root: Path, *options: str, out: str = "output") -> Path:
    r = run("build", "gaps", "--project", str(root), "--out", out, *options)
    assert r.code == 0, r.out + r.err
    return root / out / "gaps" / "deck.pdf"


def _cards(pdf: Path, page: int) -> list[tuple[float, float, tuple[float, float, float, float]]]:
    """Each card form on a page: its trim's lower-left corner (mm) and its clip (left, bottom, right,
    top, mm from the page's lower left: how far its bleed reaches)."""
    reader = PdfReader(str(pdf))
    p = reader.pages[page]
    clips: list[tuple[float, float, float, float]] = []
    rect: list[float] = []
    for operands, op, ctm in with_ctm(p.get_contents(), reader):
        if op == b"re":
            x, y, w, h = (float(v) for v in operands)
            rect = [(ctm[4] + x) / MM, (ctm[5] + y) / MM, (ctm[4] + x + w) / MM, (ctm[5] + y + h) / MM]
        elif op in (b"W", b"W*") and rect:
            clips.append((rect[0], rect[1], rect[2], rect[3]))
        elif op == b"Do":
            rect = []
    forms = [f for f in placements(p) if "face" in f.name or "back" in f.name]
    assert len(forms) == len(clips), (forms, clips)
    return [(f.x, f.y, clip) for f, clip in zip(forms, clips)]


def _marks(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    """The crop marks (0.3 pt hairlines) of a page: (x0, y0, x1, y1) mm from the lower left."""
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[page]
        return [
            (ln["x0"] / MM, (p.height - ln["bottom"]) / MM, ln["x1"] / MM, (p.height - ln["top"]) / MM)
            for ln in p.lines
            if abs(ln["linewidth"] - 0.3) < 1e-6
        ]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL


def _same(found: list[float], wanted: list[float]) -> bool:
    return len(found) == len(wanted) and all(_close(a, b) for a, b in zip(sorted(found), sorted(wanted)))


@pytest.mark.parametrize("gap", [2.0, 4.5])
def test_cards_stand_a_gap_apart_with_their_bleed_half_way_across_it(tmp_path: Path, gap: float) -> None:
    pdf = _build(_project(tmp_path, 5), "--gap", str(gap))
    fronts = _cards(pdf, 0)
    xs = sorted({round(x, 3) for x, _, _ in fronts})
    ys = sorted({round(y, 3) for _, y, _ in fronts})
    assert len(xs) >= 2 and len(ys) >= 2, fronts
    assert all(_close(b - a, W + gap) for a, b in zip(xs, xs[1:])), xs
    assert all(_close(b - a, H + gap) for a, b in zip(ys, ys[1:])), ys
    reach = min(BLEED, gap / 2)
    for x, y, (left, bottom, right, top) in fronts:
        # round the block the whole bleed; towards a neighbour's position half the gap
        assert _close(x - left, BLEED if _close(x, xs[0]) else reach), (x, left)
        assert _close(right - x - W, BLEED if _close(x, xs[-1]) else reach), (x, right)
        assert _close(y - bottom, BLEED if _close(y, ys[0]) else reach), (y, bottom)
        assert _close(top - y - H, BLEED if _close(y, ys[-1]) else reach), (y, top)
    # crop marks at every card's trim: both edges of every column and row, none elsewhere
    marks = _marks(pdf, 0)
    vertical = sorted({round(x0, 3) for x0, _, x1, _ in marks if _close(x0, x1)})
    horizontal = sorted({round(y0, 3) for _, y0, _, y1 in marks if _close(y0, y1)})
    assert _same(vertical, [v for x in xs for v in (x, x + W)]), vertical
    assert _same(horizontal, [v for y in ys for v in (y, y + H)]), horizontal


def test_backs_land_behind_their_fronts_with_a_gap(tmp_path: Path) -> None:
    """Five cards on a sheet of eight: a long-edge flip of a landscape sheet mirrors the rows, so every
    back sits at its front's place turned over (the set of places differs from the fronts')."""
    pdf = _build(_project(tmp_path, 5), "--gap", "3", "--duplex", "long")
    page_w, page_h = (float(v) / MM for v in PdfReader(str(pdf)).pages[0].mediabox[2:])
    fronts, backs = _cards(pdf, 0), _cards(pdf, 1)
    assert len(fronts) == len(backs) == 5
    if page_w > page_h:  # long edge of a landscape sheet: the rows mirror
        behind = sorted((round(x, 2), round(page_h - y - H, 2)) for x, y, _ in fronts)
    else:
        behind = sorted((round(page_w - x - W, 2), round(y, 2)) for x, y, _ in fronts)
    got = sorted((round(x, 2), round(y, 2)) for x, y, _ in backs)
    assert got != sorted((round(x, 2), round(y, 2)) for x, y, _ in fronts)  # the test can tell
    assert all(_close(a[0], b[0]) and _close(a[1], b[1]) for a, b in zip(got, behind)), (got, behind)
    for x, y, (left, bottom, right, top) in backs:  # and the backs' bleed fills half the gap too
        assert min(x - left, right - x - W, y - bottom, top - y - H) == pytest.approx(1.5, abs=TOL)


def test_no_gap_is_the_layout_of_before(tmp_path: Path) -> None:
    root = _project(tmp_path, 9)
    before = _cards(_build(root), 0)
    xs = sorted({round(x, 3) for x, _, _ in before})
    assert all(_close(b - a, W) for a, b in zip(xs, xs[1:]))  # poker cards on A4 share cut lines
    r = run("build", "gaps", "--project", str(root), "--gap", "2")
    assert r.code == 0 and "Up to date" not in r.out, r.out  # the gap is part of what a build depends on
    manifest = json.loads((root / "output" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["builds"]["gaps"]["gap_mm"] == 2.0
    r = run("build", "gaps", "--project", str(root), "--gap", "11")
    assert r.code == 2 and "--gap" in r.err


@pytest.mark.parametrize(("mode", "length"), [("edge", 2.0), ("corner", 2.5), ("full", 3.0)])
def test_crop_marks_are_as_long_as_asked(tmp_path: Path, mode: str, length: float) -> None:
    root = _project(tmp_path, 9)
    default = _marks(_build(root, "--crop-marks", mode, out="plain"), 0)
    pdf = _build(root, "--crop-marks", mode, "--crop-length", str(length))
    marks = _marks(pdf, 0)
    long = [max(abs(x1 - x0), abs(y1 - y0)) for x0, y0, x1, y1 in marks]
    assert long and all(_close(n, length) for n in long), long
    assert len(default) == len(marks)
    with pdfplumber.open(pdf) as doc:
        page_w, page_h = doc.pages[0].width / MM, doc.pages[0].height / MM
    # the default is unchanged: from the bleed to the margin, 5 mm from the paper's edge (corner: at
    # most 4 mm, cut short by the margin)
    for x0, y0, x1, y1 in default:
        at_margin = _close(min(x0, y0, page_w - x1, page_h - y1), 5.0)
        assert at_margin or (mode == "corner" and _close(max(abs(x1 - x0), abs(y1 - y0)), 4.0))
    if mode == "corner":
        assert any(_close(max(abs(x1 - x0), abs(y1 - y0)), 4.0) for x0, y0, x1, y1 in default)
    r = run("build", "gaps", "--project", str(root), "--crop-length", "0.5")
    assert r.code == 2 and "--crop-length" in r.err
