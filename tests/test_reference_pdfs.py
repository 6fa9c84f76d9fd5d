"""Reference PDFs, one small one per sheet kind (fpdf2's way): each is built again from a tiny input
and compared with the committed file in tests/reference/ after normalising both (tests/pdfnorm.py).

A deliberate change of what pnp draws regenerates them:

    PNP_REGENERATE_REFERENCES=1 .venv/bin/python -m pytest tests/test_reference_pdfs.py

then look at the new files (pdftoppm -r 60 -png) and commit them with the change. CI refuses to
regenerate, and fails when a run leaves tests/reference/ changed.
"""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from test_tokens import GAME as TOKENS

from artwork import project
from conftest import run
from pdfnorm import normal_form

REFERENCE = Path(__file__).resolve().parent / "reference"
REGENERATE = os.environ.get("PNP_REGENERATE_REFERENCES") == "1"


def _starter(tmp: Path, *options: str) -> Path:
    assert run("new", str(tmp / "game")).code == 0
    r = run(
        "build", "lanterns", *options, "--project", str(tmp / "game"), "--out", str(tmp / "out"), "-j", "1"
    )
    assert r.code == 0, r.err
    return tmp / "out" / "lanterns"


def _tokens(tmp: Path) -> Path:
    root = project(tmp / "tokens", TOKENS, name="tokens")
    r = run("build", "tokens", "--project", str(root), "--out", str(tmp / "out"), "--bleed", "2", "-j", "1")
    assert r.code == 0, r.err
    return tmp / "out" / "tokens"


KINDS = ("board-tiles", "booklet", "cutter", "duplex", "gutterfold", "tokens", "tuckbox")


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory, shared_build: Callable[..., Path]
) -> Callable[[str], Path]:
    """kind -> its freshly built PDF; each starter build made once for the kinds that read it."""
    base = tmp_path_factory.mktemp("reference")
    starters: dict[tuple[str, ...], Path] = {}

    def starter(*options: str) -> Path:
        if options not in starters:
            starters[options] = _starter(base / f"starter-{len(starters)}", *options)
        return starters[options]

    makers: dict[str, Callable[[], Path]] = {
        "duplex": lambda: starter() / "deck.pdf",
        "booklet": lambda: starter() / "rules-booklet.pdf",
        "gutterfold": lambda: starter("--sheet", "gutterfold") / "deck.pdf",
        "cutter": lambda: starter("--sheet", "silhouette") / "deck.pdf",
        "tuckbox": lambda: starter("--tuckbox") / "deck-tuckbox.pdf",
        "tokens": lambda: _tokens(base) / "coins.pdf",
        "board-tiles": lambda: shared_build() / "bargains" / "pot-mat.pdf",  # the run's default build
    }
    return lambda kind: makers[kind]()


def differences(built: Path, reference: Path) -> str:
    """'' when the two PDFs draw the same; else the start of a diff of their normal forms."""
    new, old = normal_form(built), normal_form(reference)
    if new == old:
        return ""
    diff = difflib.unified_diff(old, new, f"reference/{reference.name}", "built", n=2, lineterm="")
    return "\n".join(list(diff)[:60])


@pytest.mark.parametrize("kind", KINDS)
def test_each_sheet_kind_draws_its_reference(kind: str, built: Callable[[str], Path]) -> None:
    pdf = built(kind)
    reference = REFERENCE / f"{kind}.pdf"
    if REGENERATE:
        assert not os.environ.get("CI"), "reference PDFs are never regenerated in CI"
        if not reference.exists() or differences(pdf, reference):
            shutil.copyfile(pdf, reference)
        pytest.skip(f"regenerated tests/reference/{kind}.pdf: look at it, then commit it")
    assert reference.exists(), f"no tests/reference/{kind}.pdf: regenerate (see this module's docstring)"
    found = differences(pdf, reference)
    assert not found, f"{kind} draws differently from tests/reference/{kind}.pdf:\n{found}"


def test_the_comparison_sees_a_tenth_of_a_millimetre(tmp_path: Path) -> None:
    """Backs moved by 0.1 mm, or a card's words changed, make a difference the comparison names."""
    moved = _starter(tmp_path / "moved", "--back-offset", "0.1,0") / "deck.pdf"
    assert " cm" in differences(moved, REFERENCE / "duplex.pdf")
    game = tmp_path / "worded"
    assert run("new", str(game)).code == 0
    sheet = game / "card_data" / "lanterns.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("Moth", "Mote", 1), encoding="utf-8")
    r = run("build", "lanterns", "--project", str(game), "--out", str(game / "out"), "-j", "1")
    assert r.code == 0, r.err
    assert "T" in differences(game / "out" / "lanterns" / "deck.pdf", REFERENCE / "duplex.pdf")
