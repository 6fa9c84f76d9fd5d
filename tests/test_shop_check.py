"""`pnp check --shop drivethru`: the preflight passes what the DriveThruCards export gets right, names
what it does not (Fairy Bargains' card codes are set below 7 pt), and fails a file made wrong on purpose
on every count it breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import test_exports
from reportlab.pdfgen.canvas import Canvas
from test_tables import small_game

from pnp.data.reading.loader import load_game
from pnp.output.exports.naming import Target
from pnp.output.shop_check import preflight, smallest_type

from conftest import make_project, run

bargains = test_exports.bargains  # the same project as the exports' tests
CHECKS = ["trim", "bleed", "PDF/X", "ink limit", "minimum type size", "file size"]


@pytest.mark.slow
def test_drivethru_preflight_of_the_export(bargains: Path) -> None:
    r = run("check", "bargains", "--shop", "drivethru", "--json", "--jobs", "1", "--project", str(bargains))
    assert r.code == 1, r.err  # the rules hold; one preflight item fails
    report = json.loads(r.out)
    assert report["ok"] is False and report["games"][0]["ok"] is True
    (deck,) = report["shop"]["files"]
    assert deck["file"] == "bargains/deck.pdf" and deck["ok"] is False
    got = {c["check"]: c for c in deck["checks"]}
    assert list(got) == CHECKS
    assert [name for name, c in got.items() if not c["ok"]] == ["minimum type size"]
    assert "smallest 5.5 pt" in got["minimum type size"]["detail"]
    assert "130 of 130 pages" in got["trim"]["detail"] and "2.5 x 3.5 in" in got["trim"]["detail"]
    assert "limit 240 %" in got["ink limit"]["detail"]
    text = run("check", "bargains", "--shop", "drivethru", "--jobs", "1", "--project", str(bargains))
    assert text.code == 1
    assert "drivethru bargains/deck.pdf: fails" in text.out
    assert "  minimum type size: FAIL (smallest 5.5 pt" in text.out and "  bleed: pass" in text.out


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
    assert smallest_type(pdf)[:2] == (pytest.approx(5.0), 1)
