"""`pnp package`: the zip's contents listed, the same bytes from the same input, and a guide that
names the files it sits beside."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from pypdf import PdfReader

from conftest import make_project, run


def test_package_holds_both_papers_both_sheets_and_a_guide(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    r = run("package", "bargains", "--project", str(project), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert r.code == 0, r.err
    path = tmp_path / "out" / "bargains-print-and-play.zip"
    first = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        names = set(z.namelist())
        root = "bargains-print-and-play"
        for paper in ("a4", "letter"):
            expected = {
                f"{root}/{paper}/{name}"
                for name in (
                    "duplex/deck.pdf",
                    "gutterfold/deck.pdf",
                    "duplex-low-ink/deck.pdf",
                    "gutterfold-low-ink/deck.pdf",
                    "checklist.pdf",
                    "deck-tuckbox.pdf",
                    "pot-mat.pdf",
                    "solitaire-mat.pdf",
                    "rules.pdf",
                    "rules-booklet.pdf",
                    "print-guide.pdf",
                )
            }
            assert expected <= names, expected - names
        assert len(names) == 22
        duplex = PdfReader(io.BytesIO(z.read(f"{root}/a4/duplex/deck.pdf")))
        folded = PdfReader(io.BytesIO(z.read(f"{root}/a4/gutterfold/deck.pdf")))
        assert len(duplex.pages) == 2 * 8 and len(folded.pages) == 17  # 9 and 4 cards a page
        letter = PdfReader(io.BytesIO(z.read(f"{root}/letter/duplex/deck.pdf")))
        assert float(letter.pages[0].mediabox.width) > float(
            letter.pages[0].mediabox.height
        )  # landscape 4 x 2
        guide = PdfReader(io.BytesIO(z.read(f"{root}/letter/print-guide.pdf")))
        text = guide.pages[0].extract_text()
        assert len(guide.pages) == 1 and "letter/gutterfold/" in text and "deck-tuckbox.pdf" in text
        assert "100 %" in text and "50 mm" in text
    r = run("package", "bargains", "--project", str(project), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert r.code == 0 and path.read_bytes() == first  # the same input, the same zip
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary left behind
