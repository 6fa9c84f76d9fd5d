"""Sheet geometry a print engineer measures, read back from the built PDFs (and their cut files and
pictures) on A4 and Letter: the gutterfold's fold clear of every bleed, backs offset without moving
the sheet's furniture, the target, footer, scale bar and cards apart and inside the printable area,
a cutting machine's cards inside its registration frame, cut files in the tokens' own shapes and in
the pictures' frame, a tuck box's measurements, and crop marks only where a card is cut.

Everything is in millimetres from the page's lower left; `Page` collects what a page draws itself
(not inside the cards' forms) from its content stream."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.data.reading.sheets import sheet_named
from pnp.geometry.grid import MARGIN

from conftest import ROOT, make_project, page_itself, run, with_ctm

MM = 72 / 25.4
PAPERS = ("a4", "letter")
# The builds the fast tier makes anyway (shared with test_printable) first; each other paper and sheet
# kind in the slow tier.
A4_FAST = ["a4", pytest.param("letter", marks=pytest.mark.slow)]
LETTER_FAST = [pytest.param("a4", marks=pytest.mark.slow), "letter"]
TOOLBOX = ROOT / "examples" / "toolbox"
TOL = 0.05  # mm
BLEED = 3.0  # mm, pnp's default
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm


@dataclass
class Shape:
    """One path the page paints: its line width (pt), whether stroked, filled or dashed, its points."""

    width: float
    stroke: bool
    fill: bool
    dashed: bool
    points: list[tuple[float, float]]
    rects: list[Box]

    @property
    def box(self) -> Box:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass
class Card:
    name: str
    bleed: Box  # what the form may paint: its bounding box, within the clip in force
    turned: bool
    form: Box  # the form's bounding box, unclipped: the trim and the whole bleed

    @property
    def trim(self) -> Box:
        x0, y0, x1, y1 = self.form
        return x0 + BLEED, y0 + BLEED, x1 - BLEED, y1 - BLEED


@dataclass
class Page:
    w: float
    h: float
    shapes: list[Shape] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    chars: list[Box] = field(default_factory=list)  # text the page itself prints (outside every card's trim)

    def drawn(self, width: float, stroke: bool | None = None) -> list[Shape]:
        return [
            s for s in self.shapes if abs(s.width - width) < 1e-6 and (stroke is None or s.stroke == stroke)
        ]

    @property
    def scale_bar(self) -> list[Box]:
        """The 50 mm bar's five 10 x 1.2 mm blocks."""
        return [
            r
            for s in self.drawn(0.3)
            if s.fill and s.stroke
            for r in s.rects
            if abs(r[2] - r[0] - 10) < TOL and abs(r[3] - r[1] - 1.2) < TOL
        ]

    @property
    def target(self) -> Box | None:
        shapes = self.drawn(0.25)
        return _union([s.box for s in shapes]) if shapes else None

    def faces(self) -> list[Card]:
        return [c for c in self.cards if "face" in c.name]


def _apply(ctm: list[float], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = ctm
    return (a * x + c * y + e) / MM, (b * x + d * y + f) / MM


def _union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _meet(a: Box, b: Box, by: float = 0.0) -> bool:
    """Whether two boxes overlap (or come closer than `by`)."""
    return a[0] < b[2] + by and b[0] < a[2] + by and a[1] < b[3] + by and b[1] < a[3] + by


def read_page(pdf: Path, index: int) -> Page:
    reader = PdfReader(str(pdf))
    page = reader.pages[index]
    out = Page(float(page.mediabox.width) / MM, float(page.mediabox.height) / MM)
    xobjects = page["/Resources"].get("/XObject", {})
    width, dashed = 1.0, False
    points: list[tuple[float, float]] = []
    rects: list[Box] = []
    clips: list[Box | None] = [None]
    clip: Box | None = None
    for operands, op, ctm in with_ctm(page.get_contents(), reader):
        if op == b"q":
            clips.append(clip)
        elif op == b"Q":
            clip = clips.pop()
        elif op == b"w":
            width = float(operands[0])
        elif op == b"d":
            dashed = len(operands[0]) > 0
        elif op in (b"m", b"l", b"c", b"v", b"y"):
            values = [float(v) for v in operands]
            points += [_apply(ctm, x, y) for x, y in zip(values[::2], values[1::2])]
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]
            points += corners
            rects.append(_union([(*corners[0], *corners[0]), (*corners[1], *corners[1])]))
        elif op in (b"W", b"W*"):
            clip = _union([(p[0], p[1], p[0], p[1]) for p in points]) if points else clip
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if op != b"n" and points:
                stroke = op in (b"S", b"s", b"B", b"B*", b"b", b"b*")
                fill = op not in (b"S", b"s")
                out.shapes.append(Shape(width, stroke, fill, dashed, points, rects))
            points, rects = [], []
        elif op == b"Do":
            xo = xobjects[str(operands[0])].get_object()
            if xo.get("/Subtype") == "/Form":
                x0, y0, x1, y1 = (float(v) for v in xo["/BBox"])
                form = _union([(*_apply(ctm, x, y), *_apply(ctm, x, y)) for x in (x0, x1) for y in (y0, y1)])
                box = form
                if clip is not None:
                    box = (
                        max(box[0], clip[0]),
                        max(box[1], clip[1]),
                        min(box[2], clip[2]),
                        min(box[3], clip[3]),
                    )
                out.cards.append(Card(str(operands[0]), box, ctm[0] < 0, form))
    trims = [c.trim for c in out.cards]
    with pdfplumber.open(page_itself(reader, index)) as doc:
        for ch in doc.pages[0].chars:
            box = (ch["x0"] / MM, (ch["y0"]) / MM, ch["x1"] / MM, ch["y1"] / MM)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            if not any(t[0] <= cx <= t[2] and t[1] <= cy <= t[3] for t in trims):
                out.chars.append(box)
    return out


def pages(pdf: Path) -> int:
    return len(PdfReader(str(pdf)).pages)


def inside(box: Box, page: Page, margin: float = MARGIN) -> bool:
    return (
        box[0] >= margin - TOL
        and box[1] >= margin - TOL
        and box[2] <= page.w - margin + TOL
        and box[3] <= page.h - margin + TOL
    )


def _sheet_pdfs(out: Path) -> list[Path]:
    """Every card sheet of the repository's games in a build (not boards, booklets or tuck boxes)."""
    from pnp.data.reading.loader import load_game

    found = []
    for db in sorted((ROOT / "card_data").glob("*.yaml")):
        game = load_game(db)
        found += [out / game.slug / f"{c.key}.pdf" for c in game.components if c.is_cards]
    return [p for p in found if p.is_file()]


@pytest.fixture(scope="module")
def toolbox(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """`toolbox(*options)`: the toolbox example (circle, hex and square tokens, a deck) built once per options."""
    base = tmp_path_factory.mktemp("toolbox")
    made: dict[tuple[str, ...], Path] = {}

    def build(*options: str) -> Path:
        if options not in made:
            out = base / f"out-{len(made)}"
            r = run("build", *options, "--project", str(TOOLBOX), "--out", str(out), "-j", "1")
            assert r.code == 0, r.err
            made[options] = out / "toolbox"
        return made[options]

    return build


# 1. Gutterfold: the fold at least 5 mm from any bleed, on every game and both papers.


@pytest.mark.parametrize("paper", LETTER_FAST)
def test_the_fold_keeps_5_mm_from_every_bleed(shared_build: Callable[..., Path], paper: str) -> None:
    pdfs = _sheet_pdfs(shared_build("--paper", paper, "--sheet", "gutterfold"))
    assert len(pdfs) >= 8
    folded = 0
    for pdf in pdfs:
        page = read_page(pdf, 0)
        folds = [s for s in page.drawn(0.4) if s.dashed]
        if not folds:
            continue  # a card too large to fold: its backs follow on the next page
        folded += 1
        x0, y0, x1, y1 = folds[0].box
        vertical = abs(x1 - x0) < TOL
        for card in page.cards:
            b = card.bleed
            gap = min(abs(b[0] - x0), abs(b[2] - x0)) if vertical else min(abs(b[1] - y0), abs(b[3] - y0))
            across = b[0] < x0 < b[2] if vertical else b[1] < y0 < b[3]
            assert not across and gap >= 5.0 - TOL, f"{pdf.name} on {paper}: bleed {gap:.2f} mm from the fold"
    assert folded >= 8


@pytest.mark.parametrize("paper", PAPERS)
def test_sheets_says_how_many_a_fold_sheet_holds(tmp_path: Path, paper: str) -> None:
    r = run("sheets", "--paper", paper, "--out", str(tmp_path / "pics"), "--project", str(tmp_path))
    assert r.code == 0, r.err
    lines = r.out.split("gutterfold  (")[1].splitlines()[1:]
    block = "\n".join(lines[: next(i for i, v in enumerate(lines) if not v.startswith("  "))])
    assert "16 mm apart" in block and "5 mm from any bleed" in block, block
    assert "4 per page" in block, block  # poker: 2 x 2 on A4, 4 x 1 on Letter
    assert "fewer" in block  # the about says what the wider gap costs


# 2. --back-offset moves the backs, not the footer, scale bar or marks, which stay printable.


def _offset_build(tmp_path: Path, paper: str, offset: str) -> Path:
    out = tmp_path / f"out-{offset}"
    r = run(
        "build", "bargains", "--paper", paper, "--back-offset", offset,
        "--project", str(tmp_path / "proj"), "--out", str(out), "-j", "1",
    )  # fmt: skip
    assert r.code == 0, r.err
    return out / "bargains" / "deck.pdf"


@pytest.mark.parametrize("paper", A4_FAST)
def test_back_offset_moves_cards_not_the_sheet(tmp_path: Path, paper: str) -> None:
    make_project(tmp_path / "proj")
    plain = read_page(_offset_build(tmp_path, paper, "0,0"), 1)
    for offset in ("0.5,-1", "3,-3", "-3,3"):  # the README's example, and a printer far off
        dx, dy = (float(v) for v in offset.split(","))
        pdf = _offset_build(tmp_path, paper, offset)
        fronts, backs = read_page(pdf, 0), read_page(pdf, 1)
        assert backs.scale_bar and backs.chars
        for box in backs.scale_bar + backs.chars + [backs.target]:
            assert box is not None and inside(box, backs), f"{offset} on {paper}: {box} in the margin"
        assert _union(backs.scale_bar) == pytest.approx(_union(plain.scale_bar), abs=TOL), offset
        assert _union(backs.chars) == pytest.approx(_union(plain.chars), abs=TOL), offset
        mirror_cols = fronts.h >= fronts.w
        for front, back in zip(fronts.faces(), [c for c in backs.cards if "back" in c.name]):
            fx, fy, fx1, fy1 = front.trim
            ex, ey = (fronts.w - fx1, fy) if mirror_cols else (fx, fronts.h - fy1)
            assert back.trim[:2] == pytest.approx((ex + dx, ey + dy), abs=TOL)
        # the backs' target moves with their cards, from behind the front's
        assert fronts.target is not None and backs.target is not None
        (x0, y0, x1, y1), (bx0, by0, bx1, by1) = fronts.target, backs.target
        fx, fy = (x0 + x1) / 2, (y0 + y1) / 2
        ex, ey = (fronts.w - fx, fy) if mirror_cols else (fx, fronts.h - fy)
        assert ((bx0 + bx1) / 2, (by0 + by1) / 2) == pytest.approx((ex + dx, ey + dy), abs=TOL), offset


# 3 and 7. The target, the footer, the scale bar and the cards: each inside the printable area, apart.


def _apart(page: Page, what: str) -> None:
    """The target, the scale bar, the footer's text and the cards' bleed never overlap."""
    parts: dict[str, list[Box]] = {
        "target": [page.target] if page.target else [],
        "scale bar": [_union(page.scale_bar)] if page.scale_bar else [],
        "footer": page.chars,
        "card": [c.bleed for c in page.cards],
    }
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for box_a in parts[a]:
                for box_b in parts[b]:
                    assert not _meet(box_a, box_b), f"{what}: the {a} {box_a} meets the {b} {box_b}"
    for name in ("target", "scale bar", "footer"):
        for box in parts[name]:
            assert inside(box, page), f"{what}: the {name} {box} is within {MARGIN:g} mm of the edge"


@pytest.mark.parametrize("paper", PAPERS)
def test_token_targets_are_printable(toolbox: Callable[..., Path], paper: str) -> None:
    folder = toolbox("--paper", paper)
    for name in ("coins", "markers"):
        pdf = folder / f"{name}.pdf"
        for index in range(pages(pdf)):
            page = read_page(pdf, index)
            assert page.target is not None, f"{name} page {index + 1}: no target"
            _apart(page, f"{name} on {paper}, page {index + 1}")


@pytest.mark.parametrize(
    "sheet, paper",
    [
        ("duplex", "a4"),
        ("duplex", "letter"),
        ("silhouette", "a4"),
        pytest.param("silhouette", "letter", marks=pytest.mark.slow),
    ],
)
def test_nothing_on_a_sheet_overlaps(shared_build: Callable[..., Path], paper: str, sheet: str) -> None:
    for pdf in _sheet_pdfs(shared_build("--paper", paper, "--sheet", sheet)):
        for index in range(min(2, pages(pdf))):
            _apart(
                read_page(pdf, index), f"{pdf.parent.name}/{pdf.name} {sheet} on {paper}, page {index + 1}"
            )


# 4. A cutting machine's cards and cut lines inside the frame its registration marks define.


def _frame(page: Page) -> Box:
    """The frame the registration marks span: their outer edges (filled rectangles the page draws)."""
    marks = [r for s in page.shapes if s.fill and not s.stroke for r in s.rects]
    assert len(marks) >= 5
    return _union(marks)


def _check_frame(pdf: Path, what: str) -> None:
    reg = sheet_named("silhouette").registration
    assert reg is not None
    for index in range(pages(pdf)):
        page = read_page(pdf, index)
        f = _frame(page)
        assert f == pytest.approx((reg.inset, reg.inset, page.w - reg.inset, page.h - reg.inset), abs=TOL)
        room = (f[0] + reg.clearance, f[1] + reg.clearance, f[2] - reg.clearance, f[3] - reg.clearance)
        cuts = [s.box for s in page.drawn(0.3, stroke=True) if not s.fill]
        for box in [c.bleed for c in page.cards] + cuts:
            assert (
                box[0] >= room[0] - TOL and box[1] >= room[1] - TOL
                and box[2] <= room[2] + TOL and box[3] <= room[3] + TOL
            ), f"{what} page {index + 1}: {box} outside the marks' frame {room}"  # fmt: skip


@pytest.mark.parametrize("paper", A4_FAST)
def test_silhouette_cards_lie_inside_the_marks(shared_build: Callable[..., Path], paper: str) -> None:
    for pdf in _sheet_pdfs(shared_build("--paper", paper, "--sheet", "silhouette")):
        _check_frame(pdf, f"{pdf.parent.name}/{pdf.name} on {paper}")


@pytest.mark.parametrize("paper", PAPERS)
def test_silhouette_tokens_lie_inside_the_marks(toolbox: Callable[..., Path], paper: str) -> None:
    folder = toolbox("--paper", paper, "--sheet", "silhouette")
    for name in ("coins", "tiles", "markers", "deck"):
        _check_frame(folder / f"{name}.pdf", f"{name} on {paper}")


# 5 and 6. Cut files in the tokens' shapes, and in the same frame as the pictures.


def _dxf_entities(path: Path) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index("ENTITIES")
    out: list[dict[str, str]] = []
    pairs = list(zip(lines[start + 1 :: 2], lines[start + 2 :: 2]))
    for code, value in pairs:
        if code.strip() == "0":
            if value in ("ENDSEC", "EOF"):
                break
            out.append({"type": value})
        elif out:
            out[-1][code.strip()] = value
    return out


def _svg_shapes(path: Path) -> list[ET.Element]:
    return [
        e
        for e in ET.parse(path).getroot().iter()
        if e.tag.split("}")[-1] in ("rect", "circle", "ellipse", "polygon", "path")
    ]


def _each_found(drawn: list, written: list, what: str) -> None:
    """Every outline the PDF's first page draws is one the cut file holds (that holds a full page's)."""
    assert len(written) >= len(drawn) > 0
    for item in drawn:
        assert any(all(abs(a - b) <= TOL for a, b in zip(item, w)) for w in written), (
            f"{what}: {item} not cut"
        )


@pytest.mark.parametrize("paper", PAPERS)
def test_cut_files_follow_the_tokens_shapes(toolbox: Callable[..., Path], paper: str) -> None:
    folder = toolbox("--paper", paper, "--cut-files")
    coins = read_page(folder / "coins.pdf", 0)
    h = coins.h
    circles = [
        ((s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2, (s.box[2] - s.box[0]) / 2)
        for s in coins.drawn(0.3, stroke=True)
        if not s.fill
    ]
    assert len(circles) >= 12
    svg = _svg_shapes(folder / "coins-cut.svg")
    assert all(e.tag.endswith("circle") for e in svg), {e.tag for e in svg}
    found = [(float(e.get("cx", 0)), h - float(e.get("cy", 0)), float(e.get("r", 0))) for e in svg]
    _each_found(circles, found, "coins-cut.svg")
    dxf = _dxf_entities(folder / "coins-cut.dxf")
    assert {e["type"] for e in dxf} == {"CIRCLE"}
    _each_found(circles, [(float(e["10"]), float(e["20"]), float(e["40"])) for e in dxf], "coins-cut.dxf")

    tiles = read_page(folder / "tiles.pdf", 0)
    hexes = [s for s in tiles.drawn(0.3, stroke=True) if not s.fill]
    corners = [tuple(v for p in sorted(s.points[:6]) for v in p) for s in hexes]
    assert corners and all(len(c) == 12 for c in corners)
    svg = _svg_shapes(folder / "tiles-cut.svg")
    assert all(e.tag.endswith("polygon") for e in svg), {e.tag for e in svg}
    written = []
    for e in svg:
        values = [float(v) for v in re.split(r"[ ,]+", e.get("points", "").strip())]
        assert len(values) == 12
        flipped = [tiles.h - y for y in values[1::2]]
        written.append(tuple(v for p in sorted(zip(values[::2], flipped)) for v in p))
    _each_found(corners, written, "tiles-cut.svg")
    lines = [e for e in _dxf_entities(folder / "tiles-cut.dxf") if e["type"] == "LINE"]
    assert len(lines) == 6 * len(svg)
    ends = {(float(e["10"]), float(e["20"])) for e in lines}
    for c in corners:
        _each_found(list(zip(c[::2], c[1::2])), list(ends), "tiles-cut.dxf")


@pytest.mark.parametrize("paper", PAPERS)
def test_cricut_files_share_one_frame_and_pictures_show_only_cards(tmp_path: Path, paper: str) -> None:
    import numpy as np
    from PIL import Image

    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build", "bargains", "--sheet", "cricut", "--paper", paper,
        "--project", str(project), "--out", str(out), "-j", "1",
    )  # fmt: skip
    assert r.code == 0, r.err
    folder = out / "bargains"
    pdf = folder / "deck.pdf"
    page = read_page(pdf, 0)
    aw, ah = 171.45, 234.95
    fx, fy = (page.w - aw) / 2, (page.h - ah) / 2
    svg = sorted(
        (round(float(e.get("x", 0)), 3), round(ah - float(e.get("y", 0)) - float(e.get("height", 0)), 3))
        for e in _svg_shapes(folder / "deck-cut.svg")
    )
    lines = [e for e in _dxf_entities(folder / "deck-cut.dxf") if e["type"] == "LINE"]
    dxf_corners = sorted({(round(float(e["10"]), 3), round(float(e["20"]), 3)) for e in lines})
    assert min(dxf_corners) == pytest.approx(min(svg), abs=TOL)  # the same frame: the picture's
    assert max(float(e["11"]) for e in lines) <= aw + TOL and max(float(e["21"]) for e in lines) <= ah + TOL
    trims = sorted((round(c.trim[0] - fx, 3), round(c.trim[1] - fy, 3)) for c in page.faces())
    assert len(svg) == len(trims)
    for a, b in zip(svg, trims):
        assert a == pytest.approx(b, abs=TOL)
    for box in page.chars + page.scale_bar:  # the footer and the scale bar: outside the picture
        assert not _meet(box, (fx, fy, fx + aw, fy + ah)), f"{box} inside the print-then-cut picture"
    with Image.open(folder / "deck-print-1.png") as im:
        pixels = np.asarray(im.convert("L"))
    k = pixels.shape[1] / aw
    keep = np.ones(pixels.shape, dtype=bool)  # paper everywhere but on the cards and their bleed
    for c in page.cards:
        x0, y0, x1, y1 = c.bleed
        keep[
            max(0, int((fy + ah - y1) * k) - 2) : int((fy + ah - y0) * k) + 2,
            max(0, int((x0 - fx) * k) - 2) : int((x1 - fx) * k) + 2,
        ] = False
    assert pixels[keep].min() >= 250, "the picture shows something besides the cards"


# 8. Tuck boxes.


def _tuckbox(tmp_path: Path, paper: str, *flags: str) -> Path:
    project = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    r = run(
        "build", "bargains", "--tuckbox", "--paper", paper, *flags,
        "--project", str(project), "--out", str(out), "-j", "1",
    )  # fmt: skip
    assert r.code == 0, r.err
    return out / "bargains" / "deck-tuckbox.pdf"


@pytest.mark.parametrize("paper", PAPERS)
def test_a_tuck_box_carries_a_scale_bar_off_its_net(tmp_path: Path, paper: str) -> None:
    pdf = _tuckbox(tmp_path, paper)
    page = read_page(pdf, 0)
    bar = page.scale_bar
    assert len(bar) == 5, "no 50 mm scale bar"
    box = _union(bar)
    assert box[2] - box[0] == pytest.approx(50.0, abs=TOL) and inside(box, page)
    net = _union([s.box for s in page.shapes if s.width in (0.4, 0.5) and s.stroke])
    assert not _meet(box, net, by=2.0), f"the scale bar {box} on the net {net}"


@pytest.mark.parametrize("paper", PAPERS)
def test_a_sleeved_box_is_wider_and_taller_and_glue_strips_are_10_mm(tmp_path: Path, paper: str) -> None:
    from test_tuckbox import _inside, segments

    plain = _tuckbox(tmp_path / "plain", paper)
    sleeved = _tuckbox(tmp_path / "sleeved", paper, "--sleeved")
    w, h, d = _inside(plain)
    assert (w, h, d) == pytest.approx((64.0, 89.0, 65 * 0.3 + 1), abs=TOL)
    w, h, d = _inside(sleeved)
    assert (w, h, d) == pytest.approx((67.0, 92.0, 65 * 0.5 + 1), abs=TOL)  # a 66 x 91 mm sleeve + 1 mm
    for pdf in (plain, sleeved):
        folds, cuts = segments(pdf, 0.4), segments(pdf, 0.5)
        long_folds = sorted(x0 for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6 and abs(y1 - y0) > 60)
        left = min(min(x0, x1) for x0, y0, x1, y1 in cuts)
        assert long_folds[0] - left == pytest.approx(10.0, abs=TOL)  # the side glue strip
        bottom = min(min(y0, y1) for x0, y0, x1, y1 in cuts)
        lowest = min(y0 for x0, y0, x1, y1 in folds if abs(y0 - y1) < 1e-6)
        assert lowest - bottom == pytest.approx(10.0, abs=TOL)  # the bottom's glue strip


# 9. Crop marks only at the cut lines of slots that hold a card.


@pytest.mark.parametrize(
    "sheet, paper",
    [
        ("duplex", "a4"),
        ("duplex", "letter"),
        pytest.param("gutterfold", "a4", marks=pytest.mark.slow),
        ("gutterfold", "letter"),
    ],
)
def test_crop_marks_only_where_a_card_is_cut(
    shared_build: Callable[..., Path], paper: str, sheet: str
) -> None:
    pdf = shared_build("--paper", paper, "--sheet", sheet) / "bargains" / "deck.pdf"
    n = pages(pdf)
    last = n - 2 if sheet == "duplex" else n - 1  # the last fronts page: 65 cards leave it part full
    full, part = read_page(pdf, 0), read_page(pdf, last)
    assert 0 < len(part.faces()) < len(full.faces())
    for page in (full, part):
        trims = [c.trim for c in page.cards]
        xs = {round(v, 2) for t in trims for v in (t[0], t[2])}
        ys = {round(v, 2) for t in trims for v in (t[1], t[3])}
        marks = [s.box for s in page.drawn(0.3, stroke=True) if not s.fill and len(s.points) == 2]
        assert len(marks) >= 8
        for x0, y0, x1, _ in marks:
            if abs(x1 - x0) < TOL:
                assert any(abs(x0 - x) < TOL for x in xs), (
                    f"{sheet} on {paper}: a mark at x {x0:.2f}, no card"
                )
            else:
                assert any(abs(y0 - y) < TOL for y in ys), (
                    f"{sheet} on {paper}: a mark at y {y0:.2f}, no card"
                )
