"""`pnp build --ink low`: every game's card sheets take under a third of the ink (measured on the
rasterised pages), their text stays and prints dark, and a layout can ask `ink` in `when:`."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from PIL import ImageStat

from pnp.data.reading.loader import load_game

from conftest import ROOT, make_project, run

GAMES = sorted(p.stem for p in (ROOT / "card_data").glob("*.yaml"))


def coverage(pdf: Path, dpi: float = 20) -> float:
    """Ink per page: the mean of cyan, magenta, yellow and black (0-1 each, so 0 to 4) over every page."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        pages = [doc[i].render(scale=dpi / 72).to_pil().convert("CMYK") for i in range(len(doc))]
    finally:
        doc.close()
    return sum(sum(ImageStat.Stat(p).mean) / 255 for p in pages) / len(pages)


@pytest.fixture(scope="module")
def both(shared_build) -> tuple[Path, Path]:
    return shared_build(), shared_build("--ink", "low")


@pytest.mark.parametrize("game", GAMES)
def test_low_ink_uses_under_a_third_of_the_ink(both: tuple[Path, Path], game: str) -> None:
    full, low = both
    loaded = load_game(ROOT / "card_data" / f"{game}.yaml")
    ratios = {}
    for comp in loaded.components:
        if comp.is_cards:
            ratios[comp.key] = coverage(low / loaded.slug / f"{comp.key}.pdf") / coverage(
                full / loaded.slug / f"{comp.key}.pdf"
            )
    assert ratios and max(ratios.values()) < 1 / 3, ratios


def test_low_ink_keeps_the_text_and_prints_it_dark(both: tuple[Path, Path]) -> None:
    full, low = both
    for pdf in ("bargains/deck.pdf", "feenbalz/fairies.pdf", "tarot/arcana.pdf"):
        with pdfplumber.open(full / pdf) as a, pdfplumber.open(low / pdf) as b:
            assert (a.pages[0].extract_text() or "").split() == (b.pages[0].extract_text() or "").split()
            for ch in b.pages[0].chars:
                colour = ch["non_stroking_color"] or (0,)
                grey = (
                    colour[0]
                    if len(colour) == 1
                    else 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
                )
                assert grey <= 0.6, (pdf, ch["text"], colour)  # no light text: it prints on a pale card


def test_a_layout_asks_ink_in_when(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ())
    (project / "card_data" / "inky.yaml").write_text(
        """
game: {name: Inky, tag: IK, players: {min: 1, max: 2}}
faces:
  plain:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#2a6f97"}
      - {type: text, text: "FULL COLOUR", when: "ink == 'full'", x: 5, y: 10, w: 50, h: 8, size: 10}
      - {type: text, text: "PLAYTEST PRINT", when: "ink == 'low'", x: 5, y: 20, w: 50, h: 8, size: 10}
backs:
  b: {layout: back, slots: {title: Inky}}
components:
  - {key: deck, kind: deck, name: Deck, face: plain, back: b, cards: [{key: a, name: A, copies: 2}]}
""",
        encoding="utf-8",
    )
    texts = {}
    for ink in ("full", "low"):
        r = run(
            "build",
            "inky",
            "--ink",
            ink,
            "--project",
            str(project),
            "--out",
            str(tmp_path / ink),
            "--jobs",
            "1",
        )
        assert r.code == 0, r.err
        with pdfplumber.open(tmp_path / ink / "inky" / "deck.pdf") as doc:
            texts[ink] = doc.pages[0].extract_text() or ""
    assert "FULL COLOUR" in texts["full"] and "PLAYTEST" not in texts["full"]
    assert "PLAYTEST PRINT" in texts["low"] and "FULL COLOUR" not in texts["low"]
