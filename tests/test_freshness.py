"""Instant rebuilds: an unchanged game is skipped, a changed one is rebuilt alone and exactly as a clean build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import make_project, page_texts, run, shown


def _stamps(out: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(out).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(shown(out))
        if p.is_file()
    }


def _build(proj: Path, *args: str) -> str:
    r = run("build", "--project", str(proj), "--out", str(proj / "out"), "-j", "1", *args)
    assert r.code == 0, r.err
    return r.out


@pytest.fixture
def two(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj", ("bargains", "fairy-bucks"))


def test_nothing_changed_rewrites_nothing(two: Path) -> None:
    _build(two)
    before = _stamps(two / "out")
    assert "Up to date: 2 game(s)" in _build(two)
    assert _stamps(two / "out") == before
    manifest = json.loads((two / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["inputs"]) == {"bargains", "fairy-bucks"}
    deck = next(e for e in manifest["files"] if e["path"] == "bargains/deck.pdf")
    assert deck["key"] == manifest["inputs"]["bargains"]["key"] and len(deck["sha256"]) == 64


def test_one_changed_database_rebuilds_only_that_game_as_a_clean_build_would(
    two: Path, tmp_path: Path
) -> None:
    _build(two)
    before = _stamps(two / "out")
    db = two / "card_data" / "bargains.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dew Pearl", 1), encoding="utf-8"
    )
    out = _build(two)
    assert "Wrote 6 PDFs" in out
    after = _stamps(two / "out")
    for rel, (mtime, data) in before.items():
        if rel.startswith("fairy-bucks/"):
            assert after[rel] == (mtime, data), rel  # untouched
    assert after["bargains/deck.pdf"][0] != before["bargains/deck.pdf"][0]  # rewritten
    clean = tmp_path / "clean"
    r = run("build", "bargains", "fairy-bucks", "--project", str(two), "--out", str(clean), "-j", "1")
    assert r.code == 0, r.err
    for rel, (_, data) in after.items():
        if rel.endswith(".pdf"):
            assert (clean / rel).read_bytes() == data, rel


def test_clean_options_and_a_missing_pdf_force_a_build(two: Path) -> None:
    _build(two)
    assert "Wrote 13 PDFs" in _build(two, "--clean")
    assert "Wrote 13 PDFs" in _build(two, "--bleed", "2")  # other options: other outputs
    assert "Up to date" in _build(two, "--bleed", "2")
    (two / "out" / "fairy-bucks" / "checklist.pdf").unlink()
    assert "Wrote 7 PDFs" in _build(two, "--bleed", "2")
    (two / "out" / "bargains" / "deck.pdf").write_bytes(b"%PDF-1.4 damaged")
    assert "Wrote 6 PDFs" in _build(two, "--bleed", "2")
    assert "Up to date" in _build(two, "--bleed", "2")


def test_a_changed_template_or_font_file_rebuilds(two: Path) -> None:
    _build(two)
    template = next((two / "templates").glob("bargains*"))
    template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert "Wrote 13 PDFs" in _build(two)
    (two / "fonts" / "NOTE.txt").write_text("a new file in fonts/", encoding="utf-8")
    assert "Wrote 13 PDFs" in _build(two)


def test_the_up_to_date_path_loads_no_drawing_code(two: Path) -> None:
    """What keeps it under 0.3 s: no ReportLab canvas, YAML, jinja2 or game loading at all."""
    _build(two)
    script = (
        "import sys\nfrom pnp.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('yaml', 'jinja2', 'reportlab.pdfgen.canvas', 'pnp.data.format.model') "
        "if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "build", "--project", str(two), "--out", str(two / "out")],
        capture_output=True,
        text=True,
        env=os.environ,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Up to date" in proc.stdout and proc.stdout.strip().endswith("[]")


def test_a_huge_deck_is_split_by_sheet_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over PART_SHEETS sheets, a deck becomes several PDFs whose pages are the whole deck's, in order."""
    import pnp.buildplan.steps

    proj = make_project(tmp_path / "proj")
    whole = tmp_path / "whole"
    r = run("build", "bargains", "--project", str(proj), "--out", str(whole), "-j", "1")
    assert r.code == 0, r.err
    monkeypatch.setattr(pnp.buildplan.steps, "PART_SHEETS", 3)
    for out in ("split", "again"):
        r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / out), "-j", "1")
        assert r.code == 0, r.err
    folder = tmp_path / "split" / "bargains"
    parts = sorted(folder.glob("deck-part*.pdf"))
    assert [p.name for p in parts] == ["deck-part1.pdf", "deck-part2.pdf", "deck-part3.pdf"]
    assert not (folder / "deck.pdf").exists()
    for p in parts:  # byte-reproducible
        assert p.read_bytes() == (tmp_path / "again" / "bargains" / p.name).read_bytes()
    texts = [text for p in parts for text in page_texts(p)]
    assert all(texts) and texts == page_texts(whole / "bargains" / "deck.pdf")
    manifest = json.loads((tmp_path / "split" / "manifest.json").read_text(encoding="utf-8"))
    entries = [e for e in manifest["files"] if e["component"] == "deck"]
    assert [(e["part"], e["sheets"]) for e in entries] == [
        ([1, 3], [1, 3]),
        ([2, 3], [4, 6]),
        ([3, 3], [7, 8]),
    ]
    assert sum(e["cards"] for e in entries) == 65
