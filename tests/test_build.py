"""The whole build: every game, a manifest that reconciles with the files, byte-identical rebuilds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, codes_in, run, shown

GAMES = {"bargains": "BG", "fairy-bucks": "FB", "feenbalz": "FZ", "tarot": "TA", "fairy-meat": "FM"}


@pytest.fixture(scope="module")
def out(shared_build) -> Path:
    return shared_build()


def test_every_game_gets_cards_booklets_and_a_checklist(out: Path) -> None:
    manifest = json.loads((out / "manifest.json").read_text())
    for name, tag in GAMES.items():
        kinds = {e["kind"] for e in manifest["files"] if e["game"] == tag}
        assert {"deck", "booklet", "checklist"} <= kinds, (name, kinds)
        assert all(e["path"].startswith(f"{name}/") for e in manifest["files"] if e["game"] == tag)
    boards = {e["path"] for e in manifest["files"] if e["kind"] == "board"}
    assert {
        "bargains/pot-mat.pdf",
        "bargains/solitaire-mat.pdf",
        "feenbalz/market-mat.pdf",
        "tarot/map.pdf",
    } <= boards


def test_manifest_reconciles_with_the_files(out: Path) -> None:
    manifest = json.loads((out / "manifest.json").read_text())
    listed = {e["path"] for e in manifest["files"]}
    on_disk = {str(p.relative_to(out)) for p in shown(out, ".pdf")}
    assert listed == on_disk
    for entry in manifest["files"]:
        pdf = out / entry["path"]
        assert len(PdfReader(str(pdf)).pages) == entry["pages"], entry["path"]
        if entry["kind"] in ("deck", "reference"):
            assert sum(entry["copies"].values()) == entry["cards"]
            assert codes_in(pdf) == entry["copies"], entry["path"]


def test_rebuild_is_byte_identical_everywhere(out: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert run("build", "--project", str(ROOT), "--out", str(again)).code == 0
    for pdf in shown(out):
        if pdf.is_file():
            assert (again / pdf.relative_to(out)).read_bytes() == pdf.read_bytes(), pdf


def test_building_one_game_keeps_the_others_in_the_manifest(out: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    before = json.loads((copy / "manifest.json").read_text())
    assert run("build", "bargains", "--project", str(ROOT), "--out", str(copy)).code == 0
    after = json.loads((copy / "manifest.json").read_text())
    assert after == before


def test_every_font_is_embedded(out: Path) -> None:
    """No PDF names one of the 14 standard fonts a print shop's preflight would find missing."""
    for pdf in shown(out, ".pdf"):
        data = pdf.read_bytes()
        for base14 in (b"/Helvetica", b"/Times-", b"/Courier", b"/Symbol", b"/ZapfDingbats"):
            assert base14 not in data, (pdf, base14)
