"""Gutterfold sheets read from the PDFs: every back at the mirror image of its front across the fold
(turned 180 degrees across a horizontal fold), the fold line between them, and sheets as data."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.data.reading.sheets import sheet_named
from pnp.geometry.grid import MARGIN, choose_grid
from pnp.geometry.sizes import Size, paper_size

from conftest import make_project, run

MM = 72 / 25.4
WIDE = """
game: {name: Wide Test, tag: WT, players: {min: 1, max: 2}}
style: {ink: "#1f1a2b", paper: "#fbf6ea", accent: "#5b3f8c"}
faces:
  plain: {layout: back, slots: {title: "{{ card.name }}", color: "#8dbf6e", emblem: leaf}}
backs:
  green: {layout: back, slots: {title: Wide, color: "#2f5a3a", emblem: leaf}}
components:
  - key: deck
    kind: deck
    name: Wide deck
    card_size: "63x40"
    face: plain
    back: green
    fields: {value: {type: int}}
    cards:
{cards}
"""


def placements(pdf: Path, index: int) -> list[tuple[str, float, float, float]]:
    """(form name, a, e, f) of every form the page places: its matrix's scale and where its origin goes."""
    reader = PdfReader(str(pdf))
    page = reader.pages[index]
    out, matrix = [], [1.0, 0, 0, 1.0, 0, 0]
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            matrix = [float(v) for v in operands]
        elif op == b"Do":
            out.append((str(operands[0]), matrix[0], matrix[4], matrix[5]))
    return out


def _build(project: Path, *args: str) -> Path:
    out = project / "out"
    r = run(
        "build", "--sheet", "gutterfold", *args, "--project", str(project), "--out", str(out), "--jobs", "1"
    )
    assert r.code == 0, r.err
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_is_its_front_mirrored_across_the_fold(tmp_path: Path, paper: str) -> None:
    out = _build(make_project(tmp_path / "proj"), "bargains", "--paper", paper)
    pdf = out / "bargains" / "deck.pdf"
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 17  # 65 cards, 4 to a page, fronts and backs on the same page
    w, h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    placed = placements(pdf, 0)
    fronts = [p for p in placed if "face" in p[0]]
    backs = [p for p in placed if "back" in p[0]]
    card_w, card_h = 63 * MM, 88 * MM
    content = reader.pages[0].get_contents().get_data().decode("latin-1")
    assert len(fronts) == len(backs) == 4 and "[3 2] 0 d" in content  # a dashed fold line
    if paper == "a4":  # 2 x 2 on landscape: the fold down the middle (on Letter the 5 mm clearance of
        # the fold leaves no room for two columns a side: 4 x 1, the fold across, backs turned)
        assert all(p[1] == 1.0 for p in placed)
        for (_, _, fx, fy), (_, _, bx, by) in zip(fronts, backs):
            assert bx == pytest.approx(w - fx - card_w, abs=0.05 * MM) and by == pytest.approx(
                fy, abs=0.05 * MM
            )
            assert fx + card_w < w / 2 < bx  # the fold runs between every front and its back
        assert f"{w / 2:g}"[:6] in content
    else:
        assert all(p[1] == -1.0 for p in backs)
        for (_, _, fx, fy), (_, _, bx, by) in zip(fronts, backs):
            assert bx - card_w == pytest.approx(fx, abs=0.05 * MM)
            assert by - card_h == pytest.approx(h - fy - card_h, abs=0.05 * MM)
            assert by < h / 2 < fy
        assert f"{h / 2:g}"[:6] in content


def test_across_a_horizontal_fold_backs_are_turned(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ())
    cards = "\n".join(f'      - {{key: "c{i}", name: "Card {i}", value: {i}}}' for i in range(1, 12))
    (project / "card_data" / "wide.yaml").write_text(WIDE.replace("{cards}", cards), encoding="utf-8")
    pdf = _build(project, "wide") / "wide" / "deck.pdf"
    h = float(PdfReader(str(pdf)).pages[0].mediabox.height)
    placed = placements(pdf, 0)
    fronts = [p for p in placed if "face" in p[0]]
    backs = [p for p in placed if "back" in p[0]]
    assert len(fronts) == len(backs) == 9 and all(a == -1.0 for _, a, _, _ in backs)
    for (_, _, fx, fy), (_, _, bx, by) in zip(fronts, backs):
        # turned: the form's origin is its trim's far corner; the trim mirrors the front across the fold
        assert bx - 63 * MM == pytest.approx(fx, abs=0.05 * MM)
        assert by - 40 * MM == pytest.approx(h - fy - 40 * MM, abs=0.05 * MM)
        assert fy > h / 2 > by


@given(
    w=st.floats(30, 130),
    h=st.floats(30, 130),
    paper=st.sampled_from(["a4", "letter", "a3"]),
    gap=st.sampled_from([0.0, 4.0, 10.0]),
)
@settings(max_examples=120, deadline=None)
def test_fold_grids_stay_printable_and_mirror(w: float, h: float, paper: str, gap: float) -> None:
    try:
        grid = choose_grid(paper_size(paper), Size(w, h), 3.0, fold_gap=gap)
    except ValueError:
        return  # too large to have its back beside it on this paper
    o = grid.outer_bleed
    for i in range(grid.per_page):
        for slot in (grid.slot(i), grid.back_slot(i, "long")):
            assert slot.x - o >= MARGIN - 1e-6 and slot.y - o >= MARGIN - 1e-6
            assert (
                slot.x + w + o <= grid.page.w - MARGIN + 1e-6
                and slot.y + h + o <= grid.page.h - MARGIN + 1e-6
            )
        front, back = grid.slot(i), grid.back_slot(i, "long")
        if grid.fold == "vertical":
            assert back.x == pytest.approx(grid.page.w - front.x - w) and back.y == pytest.approx(front.y)
            assert front.x + w <= grid.page.w / 2 - gap / 2 + 1e-6
        else:
            assert back.y == pytest.approx(grid.page.h - front.y - h) and back.turned
            assert front.y >= grid.page.h / 2 + gap / 2 - 1e-6


def test_sheets_are_data_and_a_project_adds_its_own(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    (project / "sheets").mkdir()
    (project / "sheets" / "wide-fold.yaml").write_text(
        "about: Gutterfold with room to glue.\nbacks: fold\nfold_gap: 20\n", encoding="utf-8"
    )
    (project / "sheets" / "broken.yaml").write_text("about: Broken.\nbacks: sideways\n", encoding="utf-8")
    assert sheet_named("wide-fold", project).fold_gap == 20
    r = run("build", "bargains", "--sheet", "broken", "--project", str(project), "--out", str(tmp_path / "o"))
    assert r.code == 2 and "sheets/broken.yaml:2" in r.err and "backs" in r.err and "fold" in r.err
    assert not (tmp_path / "o").exists()
    r = run(
        "build", "bargains", "--sheet", "wide-fold", "--project", str(project), "--out", str(tmp_path / "o")
    )
    assert r.code == 0, r.err
    placed = placements(tmp_path / "o" / "bargains" / "deck.pdf", 0)
    fronts = [x for _, _, x, _ in placed if x < 300]
    backs = [x for _, _, x, _ in placed if x >= 300]
    assert min(backs) - (max(fronts) + 63 * MM) == pytest.approx(20 * MM, abs=0.05 * MM)
    r = run("sheets", "--project", str(project), "--out", str(tmp_path / "pics"))
    assert (
        "wide-fold  (sheets/wide-fold.yaml)" in r.out and "gutterfold  (pnp/sheets/gutterfold.yaml)" in r.out
    )
    assert r.code == 2 and "sheets/broken.yaml:2" in r.err  # a broken sheet is named, not skipped
