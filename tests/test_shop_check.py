"""`pnp check --shop drivethru`: the preflight passes what the DriveThruCards export gets right (Fairy
Bargains' text at 7 pt or more, its collation codes at 5.5 pt, measured apart), and fails a file made
wrong on purpose on every count it breaks."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import test_exports
from reportlab.pdfgen.canvas import Canvas
from test_tables import small_game

from pnp.data.reading.loader import load_game
from pnp.output.exports.naming import Target
from pnp.output.shop_check import code_labels, preflight, smallest_type, type_size

from conftest import make_project, run

bargains = test_exports.bargains  # the same project as the exports' tests
CHECKS = ["trim", "bleed", "PDF/X", "ink limit", "minimum type size", "file size"]


@pytest.mark.slow
def test_drivethru_preflight_of_the_export(bargains: Path) -> None:
    r = run("check", "bargains", "--shop", "drivethru", "--json", "--jobs", "1", "--project", str(bargains))
    assert r.code == 0, r.out + r.err
    report = json.loads(r.out)
    assert report["ok"] is True and report["games"][0]["ok"] is True
    (deck,) = report["shop"]["files"]
    assert deck["file"] == "bargains/deck.pdf" and deck["ok"] is True
    got = {c["check"]: c for c in deck["checks"]}
    assert list(got) == CHECKS and all(c["ok"] for c in got.values()), got
    sizes = re.findall(r"(text|collation codes) smallest ([0-9.]+) pt", got["minimum type size"]["detail"])
    assert sizes[0][0] == "text" and float(sizes[0][1]) >= 7.0
    assert sizes[1] == ("collation codes", "5.5")  # 'BG-...' codes at their default size, measured apart
    assert "130 of 130 pages" in got["trim"]["detail"] and "2.5 x 3.5 in" in got["trim"]["detail"]
    assert "limit 240 %" in got["ink limit"]["detail"]
    text = run("check", "bargains", "--shop", "drivethru", "--jobs", "1", "--project", str(bargains))
    assert text.code == 0
    assert (
        "drivethru bargains/deck.pdf: ok" in text.out
        and "  minimum type size: pass (text smallest" in text.out
    )


def test_drivethru_preflight_of_a_small_deck(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj", ())
    (root / "card_data" / "tiny.yaml").write_text(small_game("Tiny Shop", 2, 1), encoding="utf-8")
    r = run("check", "--shop", "drivethru", "--json", "--jobs", "1", "--project", str(root))
    assert r.code in (0, 1), r.err
    (deck,) = json.loads(r.out)["shop"]["files"]
    got = {c["check"]: c for c in deck["checks"]}
    assert list(got) == CHECKS and deck["file"] == "tiny/pile.pdf"
    assert all(got[name]["ok"] for name in ("trim", "bleed", "PDF/X", "ink limit", "file size")), got
    assert "6 of 6 pages" in got["trim"]["detail"]  # back and face of each of 3 cards
    assert (r.code == 0) == got["minimum type size"]["ok"]


def _wrong_pdf(path: Path) -> None:
    """An RGB page of the wrong size, without boxes or an output intent, with 5 pt text."""
    c = Canvas(str(path), pagesize=(190, 260), invariant=1)
    c.setFillColorRGB(0.9, 0.2, 0.2)
    c.rect(0, 0, 190, 260, fill=1, stroke=0)
    c.setFont("Helvetica", 5)
    c.drawString(20, 20, "tiny words")
    c.setFont("Helvetica", 9)
    c.drawString(20, 60, "bigger")
    c.showPage()
    c.save()


def test_preflight_fails_a_file_made_wrong(bargains: Path, tmp_path: Path) -> None:
    game = load_game(bargains / "card_data" / "bargains.yaml")
    target = Target(game, game.component("deck"))
    pdf = tmp_path / "wrong.pdf"
    _wrong_pdf(pdf)
    checks = {c.name: c for c in preflight(pdf, target, 240)}
    assert list(checks) == CHECKS
    assert not checks["trim"].ok  # no TrimBox: the page is the trim, not 2.5 x 3.5 in
    assert not checks["bleed"].ok and "wrong on page 1" in checks["bleed"].detail
    assert not checks["PDF/X"].ok
    assert "GTS_PDFXVersion" in checks["PDF/X"].detail and "rg" in checks["PDF/X"].detail
    assert "fonts not embedded: /Helvetica" in checks["PDF/X"].detail
    assert not checks["minimum type size"].ok and "5.0 pt" in checks["minimum type size"].detail
    assert checks["file size"].ok
    text, codes = smallest_type(pdf)
    assert (text.size, text.page) == (pytest.approx(5.0), 1) and codes.size == math.inf


def _coded_pdf(path: Path, code_pt: float) -> None:
    """A page with 8 pt text and a collation code at `code_pt`."""
    c = Canvas(str(path), pagesize=(180, 252), invariant=1)
    c.setFont("Helvetica", 8)
    c.drawString(20, 200, "Trade two leaves")
    c.setFont("Helvetica", code_pt)
    c.drawString(80, 12, "BG-7 \u00b7 0.4")
    c.showPage()
    c.save()


@pytest.mark.parametrize(("code_pt", "ok"), [(5.5, True), (4.0, False)])
def test_collation_codes_are_held_to_5_pt_and_text_to_7(tmp_path: Path, code_pt: float, ok: bool) -> None:
    pdf = tmp_path / "coded.pdf"
    _coded_pdf(pdf, code_pt)
    text, codes = smallest_type(pdf, ["BG-7 \u00b7 0.4"])
    assert text.size == pytest.approx(8.0) and codes.size == pytest.approx(code_pt)
    assert "BG-7" in codes.sample and "BG" not in text.sample
    assert smallest_type(pdf)[0].size == pytest.approx(code_pt)  # unnamed, the code counts as text
    check = type_size(pdf, ["BG-7 \u00b7 0.4"])
    assert check.ok is ok and f"collation codes smallest {code_pt:.1f} pt" in check.detail


def test_code_labels_are_the_printed_codes(bargains: Path) -> None:
    game = load_game(bargains / "card_data" / "bargains.yaml")
    labels = code_labels(Target(game, game.component("deck")))
    assert len(labels) == len(game.component("deck").cards) and labels[0].startswith("BG-")
