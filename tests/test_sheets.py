"""Card sheets built for real and measured: sizes, positions, crop marks, duplex backs, codes."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.geometry.sizes import MM

from conftest import codes_in, page_itself, page_size_mm, placements, run

TOL = 0.1  # mm


def build(project: Path, out: Path, *extra: str) -> Path:
    r = run("build", "bargains", "--project", str(project), "--out", str(out), *extra)
    assert r.code == 0, r.err
    return out / "bargains" / "deck.pdf"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from conftest import make_project

    base = tmp_path_factory.mktemp("sheets")
    project = make_project(base / "proj")
    return build(project, base / "out")


def fronts_and_backs(pdf: Path):
    reader = PdfReader(str(pdf))
    pages = reader.pages
    return [(pages[i], pages[i + 1]) for i in range(0, len(pages), 2)]


def test_page_size_and_card_sizes(built: Path) -> None:
    reader = PdfReader(str(built))
    assert len(reader.pages) == 16  # 65 cards, 9 a sheet: 8 sheets, fronts + backs
    for page in reader.pages:
        w, h = page_size_mm(page)
        assert abs(w - 210) < TOL and abs(h - 297) < TOL
        for p in placements(page):
            x0, y0, x1, y1 = p.bbox
            assert abs(x0 + 3) < TOL and abs(y0 + 3) < TOL  # 3 mm bleed each side
            assert abs((x1 - 3) - 63) < TOL and abs((y1 - 3) - 88) < TOL  # 63 x 88 mm trim


def test_cards_sit_on_a_centred_grid(built: Path) -> None:
    page = PdfReader(str(built)).pages[0]
    spots = sorted((round(p.x, 1), round(p.y, 1)) for p in placements(page))
    xs = sorted({x for x, _ in spots})
    ys = sorted({y for _, y in spots})
    assert len(spots) == 9 and len(xs) == 3 and len(ys) == 3
    assert [round(b - a, 1) for a, b in zip(xs, xs[1:])] == [63.0, 63.0]  # neighbours share cut lines
    assert [round(b - a, 1) for a, b in zip(ys, ys[1:])] == [88.0, 88.0]
    assert abs(xs[0] - (210 - 189) / 2) < TOL and abs(ys[0] - (297 - 264) / 2) < TOL


def _marks(pdf: Path, page_no: int):
    """Line segments on a page (mm, PDF space), leaving out the registration target's crosshair."""
    with pdfplumber.open(page_itself(pdf, page_no)) as doc:
        page = doc.pages[0]
        h = float(page.height)
        segs = [
            (ln["x0"] / MM, (h - ln["bottom"]) / MM, ln["x1"] / MM, (h - ln["top"]) / MM) for ln in page.lines
        ]
        rings = [((c["x0"] + c["x1"]) / 2 / MM, (h - (c["top"] + c["bottom"]) / 2) / MM) for c in page.curves]

    def on_target(s) -> bool:
        mx, my = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
        return any(abs(mx - rx) < 1.5 and abs(my - ry) < 1.5 for rx, ry in rings)

    return [s for s in segs if not on_target(s)]


def test_crop_marks_on_every_cut_line_and_never_on_a_face(built: Path) -> None:
    page = PdfReader(str(built)).pages[0]
    cards = [(p.x, p.y, p.x + 63, p.y + 88) for p in placements(page)]
    cut_x = sorted({round(v, 2) for c in cards for v in (c[0], c[2])})
    cut_y = sorted({round(v, 2) for c in cards for v in (c[1], c[3])})
    segments = _marks(built, 0)
    vertical = [s for s in segments if abs(s[0] - s[2]) < 0.01]
    horizontal = [s for s in segments if abs(s[1] - s[3]) < 0.01]
    for x in cut_x:
        hits = [s for s in vertical if abs(s[0] - x) < TOL]
        assert {s[1] < 100 for s in hits} == {True, False}, f"cut x={x} needs marks above and below"
        assert any(abs(s[1] - 5.0) < 0.01 for s in hits), "edge marks run to the printable area's edge"
        assert all(s[1] >= 5.0 - 0.01 and s[3] <= 297 - 5.0 + 0.01 for s in hits), "never into the margin"
    for y in cut_y:
        hits = [s for s in horizontal if abs(s[1] - y) < TOL]
        assert {s[0] < 100 for s in hits} == {True, False}, f"cut y={y} needs marks left and right"
    outer = (
        2.0  # A4 keeps 3 x 3 poker cards inside its 5 mm margin with 3 mm marks by a 2 mm bleed round them
    )
    for x0, y0, x1, y1 in vertical + horizontal:
        for cx0, cy0, cx1, cy1 in cards:
            overlaps = (
                min(x1, cx1 + outer) > max(x0, cx0 - outer) + 0.01
                and min(y1, cy1 + outer) > max(y0, cy0 - outer) + 0.01
            )
            assert not overlaps, "a crop mark runs over a card or its bleed"


def _mirror_check(pdf: Path, offset: tuple[float, float]) -> None:
    for front, back in fronts_and_backs(pdf):
        w, _ = page_size_mm(front)
        fronts = sorted((round(p.x, 1), round(p.y, 1)) for p in placements(front))
        backs = sorted(
            (round(w - (p.x - offset[0]) - 63, 1), round(p.y - offset[1], 1)) for p in placements(back)
        )
        assert fronts == backs


def test_backs_are_mirrored_behind_their_faces(built: Path) -> None:
    _mirror_check(built, (0.0, 0.0))


def test_back_offset_shifts_every_back(tmp_path: Path, project: Path) -> None:
    pdf = build(project, tmp_path / "out", "--back-offset", "1.5,-0.7")
    _mirror_check(pdf, (1.5, -0.7))
    fronts = PdfReader(str(pdf)).pages[0]
    plain = PdfReader(str(build(project, tmp_path / "plain"))).pages[0]
    assert [(p.x, p.y) for p in placements(fronts)] == [(p.x, p.y) for p in placements(plain)]


def test_short_edge_mirrors_rows(tmp_path: Path, project: Path) -> None:
    pdf = build(project, tmp_path / "out", "--duplex", "short")
    for front, back in fronts_and_backs(pdf):
        _, h = page_size_mm(front)
        fronts = sorted((round(p.x, 1), round(p.y, 1)) for p in placements(front))
        backs = sorted((round(p.x, 1), round(h - p.y - 88, 1)) for p in placements(back))
        assert fronts == backs


def test_registration_target_on_both_pages(built: Path) -> None:
    with pdfplumber.open(str(built)) as doc:
        for page, side in ((doc.pages[0], "left"), (doc.pages[1], "right")):
            curves = [c for c in page.curves if c["x1"] - c["x0"] < 12 * MM]
            assert curves, "no registration target"
            cx = (curves[0]["x0"] + curves[0]["x1"]) / 2 / MM
            assert (cx < 20) == (side == "left")


def test_collation_codes_match_the_manifest(built: Path) -> None:
    manifest = json.loads((built.parent.parent / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"] == "bargains/deck.pdf")
    assert entry["kind"] == "deck" and entry["cards"] == 65 and entry["card_size_mm"] == [63.0, 88.0]
    assert entry["copies"] == {"BG-1": 13, "BG-3": 13, "BG-5": 13, "BG-7": 13, "BG-10": 13}
    assert codes_in(built) == entry["copies"]
    assert entry["pages"] == len(PdfReader(str(built)).pages)
    kinds = {e["kind"] for e in manifest["files"] if e["game"] == "BG"}
    assert {"deck", "checklist"} <= kinds


def test_footer_and_scale_bar(built: Path) -> None:
    text = PdfReader(str(built)).pages[0].extract_text()
    assert "Fairy Bargains" in text and "sheet 1 of 8" in text and "63 x 88 mm" in text and "50 mm" in text
    with pdfplumber.open(str(built)) as doc:
        blocks = [r for r in doc.pages[0].rects if abs((r["x1"] - r["x0"]) / MM - 10) < 0.05]
        assert len(blocks) == 5
        span = (max(r["x1"] for r in blocks) - min(r["x0"] for r in blocks)) / MM
        assert abs(span - 50) < TOL


def test_rebuild_is_byte_identical(tmp_path: Path, project: Path, built: Path) -> None:
    again = build(project, tmp_path / "again")
    assert again.read_bytes() == built.read_bytes()
    assert (again.parent / "checklist.pdf").read_bytes() == (built.parent / "checklist.pdf").read_bytes()


def test_letter_and_crop_modes(tmp_path: Path, project: Path) -> None:
    pdf = build(
        project, tmp_path / "letter", "--paper", "letter", "--crop-marks", "corner", "--duplex", "off"
    )
    reader = PdfReader(str(pdf))
    w, h = page_size_mm(reader.pages[0])
    assert (
        abs(w - 279.4) < TOL and abs(h - 215.9) < TOL
    )  # landscape: 4 x 2 keep 3 mm marks in the printable area
    assert len(reader.pages) == 9  # fronts only, 65 cards 8 to a page
    corner = _marks(pdf, 0)
    assert corner and all(max(abs(s[2] - s[0]), abs(s[3] - s[1])) <= 4.01 for s in corner)
    off = build(project, tmp_path / "off", "--crop-marks", "off")
    assert not _marks(off, 0)


def test_full_marks_cross_gutters_but_not_faces(tmp_path: Path, project: Path) -> None:
    # a tarot-sized custom deck keeps its own bleed, so gutters exist for full-mode guides
    yaml_path = project / "card_data" / "bargains.yaml"
    yaml_path.write_text(yaml_path.read_text().replace("card_size: poker", "card_size: tarot"))
    pdf = build(project, tmp_path / "out", "--crop-marks", "full")
    page = PdfReader(str(pdf)).pages[0]
    cards = [(p.x, p.y, p.x + 70, p.y + 120) for p in placements(page)]
    segments = _marks(pdf, 0)
    inner = [s for s in segments if 20 < s[0] < 190 and 20 < s[1] < 277]
    assert inner, "full mode draws guides between cards"
    for x0, y0, x1, y1 in segments:
        for cx0, cy0, cx1, cy1 in cards:
            assert not (min(x1, cx1) > max(x0, cx0) + 0.01 and min(y1, cy1) > max(y0, cy0) + 0.01)


def test_card_text_stays_in_the_safe_zone(built: Path) -> None:
    page = PdfReader(str(built)).pages[0]
    safes = [(p.x + 3, p.y + 3, p.x + 60, p.y + 85) for p in placements(page)]
    with pdfplumber.open(str(built)) as doc:
        pg = doc.pages[0]
        h = float(pg.height)
        chars = [(c["x0"] / MM, (h - c["bottom"]) / MM, c["x1"] / MM, (h - c["top"]) / MM) for c in pg.chars]
    on_cards = [
        c for c in chars if any(s[0] - 3 < c[0] < s[2] + 3 and s[1] - 3 < c[1] < s[3] + 3 for s in safes)
    ]
    assert len(on_cards) > 100
    for x0, y0, x1, y1 in on_cards:
        assert any(
            s[0] - 0.05 <= x0 and x1 <= s[2] + 0.05 and s[1] - 0.05 <= y0 and y1 <= s[3] + 0.05 for s in safes
        ), (x0, y0, x1, y1)


def test_each_marked_set_starts_on_its_own_sheet(tmp_path: Path) -> None:
    from conftest import ROOT

    out = tmp_path / "out"
    r = run("build", "fairy-bucks", "--players", "3", "--project", str(ROOT), "--out", str(out))
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text())
    money = next(e for e in manifest["files"] if e["component"] == "money")
    reader = PdfReader(str(out / money["path"]))
    sets_per_page = []
    for page in reader.pages[::2]:  # fronts
        sets_per_page.append({p.name.rsplit("_", 1)[1] for p in placements(page)})
    assert all(len(s) == 1 for s in sets_per_page), sets_per_page
    assert [s.pop() for s in sets_per_page] == ["1", "1", "2", "2", "3", "3"]  # 11 cards: two sheets a set


def test_fonts_are_embedded_as_subsets(built: Path) -> None:
    reader = PdfReader(str(built))
    fonts: dict[str, int] = {}

    def walk(resources) -> None:
        if not resources:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            if font.get("/Subtype") == "/TrueType":
                data = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
                fonts[str(font["/BaseFont"])] = len(data)
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in reader.pages[:2]:
        walk(page["/Resources"])
    assert fonts, "no embedded TrueType fonts"
    for name, size in fonts.items():
        assert "+" in name, f"{name} is embedded whole, not as a subset"
        assert size < 100_000, (name, size)  # the whole DejaVu files are 300-750 KB
