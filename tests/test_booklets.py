"""Rule booklets: text from templates and databases, real PDFs, saddle-stitch imposition, no seed sentences."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnp.data.format.errors import InputError
from pnp.data.format.model import Component
from pnp.data.reading.loader import load_game
from pnp.draw.markup import MarkupError, parse
from pnp.geometry.imposition import saddle_order
from pnp.geometry.sizes import MM, paper_size
from pnp.output.booklet_text import Recorder, render
from pnp.output.booklets import booklet_step, prepare, write_imposed, write_plain
from pnp.output.sheets import SheetOptions
from pnp.output.steps import BuildOptions
from pnp.resolve.fonts import Fonts
from pnp.rules.checker import check_game

from conftest import ROOT

GAMES = ("bargains", "fairy-bucks", "feenbalz", "tarot", "fairy-meat")


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.load(ROOT / "fonts")


def with_booklet(name: str):
    """A game with its booklet component (added here when its database does not list it yet)."""
    game = load_game(ROOT / "card_data" / f"{name}.yaml")
    for comp in game.components:
        if comp.kind == "booklet":
            return game, comp
    comp = Component(key="rules", kind="booklet", name="Rule booklet", template=f"{name}.md.j2")
    return dataclasses.replace(game, components=game.components + (comp,)), comp


def pdf_text(path: Path) -> str:
    """All text of a PDF (pdfium: fast, and it reads inside form XObjects too)."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


@pytest.fixture(scope="module")
def bargains_pdfs(tmp_path_factory: pytest.TempPathFactory, fonts: Fonts) -> dict:
    game, comp = with_booklet("bargains")
    prep = prepare(game, comp, fonts)
    out = tmp_path_factory.mktemp("bk")
    plain, short, long = out / "rules.pdf", out / "short.pdf", out / "long.pdf"
    pages = write_plain(prep, plain, paper_size("a4"), fonts)
    write_imposed(prep, short, paper_size("a4"), "short", fonts)
    write_imposed(prep, long, paper_size("letter"), "long", fonts)
    return {"pages": pages, "plain": plain, "short": short, "long": long, "game": game, "comp": comp}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_complete_booklet(name: str, fonts: Fonts) -> None:
    game, comp = with_booklet(name)
    prep = prepare(game, comp, fonts)
    headings = [b.text.lower() for b in prep.blocks if b.kind == "heading"]
    text = " ".join(headings)
    for topic in ("getting ready", "turn|auction|combat", "win|scoring|end"):
        assert re.search(topic, text), (name, topic, headings)
    assert any(b.kind == "table" for b in prep.blocks)
    assert any(b.kind in ("cards", "back") for b in prep.blocks)
    words = sum(len((b.text + " ".join(b.items)).split()) for b in prep.blocks)
    assert words > 900, words  # real prose, not a stub


@pytest.mark.parametrize("name", GAMES)
def test_counts_in_booklet_come_from_the_database(name: str, fonts: Fonts, tmp_path: Path) -> None:
    game, comp = with_booklet(name)
    rec = Recorder()
    render(game, comp, rec)
    assert rec.calls, "the template states no counts from the database"
    prep = prepare(game, comp, fonts)
    pdf = tmp_path / "b.pdf"
    write_plain(prep, pdf, paper_size("a4"), fonts)
    numbers = set(re.findall(r"\d+", pdf_text(pdf)))
    for what, args, value in rec.calls:
        if value:
            assert str(value) in numbers, (what, args, value)
    for c in game.components:
        if c.is_cards and c.card_count > 1:
            assert str(c.card_count) in numbers, c.key


def test_bargains_counts_match_the_deck(bargains_pdfs: dict) -> None:
    text = pdf_text(bargains_pdfs["plain"])
    deck = bargains_pdfs["game"].component("deck")
    assert f"{deck.card_count} cards" in text
    for card in deck.cards:  # the table row of each value gives its count
        assert re.search(rf"\b{card.values['value']} {card.name} \S+ {card.copies}\b", text), card.name


def test_changing_the_database_changes_the_booklet(bargains_pdfs: dict) -> None:
    game, comp = bargains_pdfs["game"], bargains_pdfs["comp"]
    deck = game.component("deck")
    cards = tuple(dataclasses.replace(c, copies=15) if c.key == "10" else c for c in deck.cards)
    changed = dataclasses.replace(
        game,
        components=tuple(
            dataclasses.replace(c, cards=cards) if c.key == "deck" else c for c in game.components
        ),
    )
    before, after = render(game, comp), render(changed, comp)
    assert "65 cards" in before and "65 cards" not in after and "67 cards" in after
    assert re.search(r"\| Crown \| crown \| 15 \|", after)
    # Fewer Crowns than four starting sets need: the booklet prints variant 2's range from the
    # facts, and the rule that derives it from the counts no longer holds.
    low = tuple(dataclasses.replace(c, copies=3) if c.key == "10" else c for c in deck.cards)
    fewer = dataclasses.replace(
        game,
        components=tuple(
            dataclasses.replace(c, cards=low) if c.key == "deck" else c for c in game.components
        ),
    )
    assert "two to four players" in before
    assert "variant-2-stock" not in {v.rule for v in check_game(game)}
    assert "variant-2-stock" in {v.rule for v in check_game(fewer)}


def test_plain_pages_have_numbers_and_card_pictures(bargains_pdfs: dict) -> None:
    with pdfplumber.open(bargains_pdfs["plain"]) as doc:
        assert len(doc.pages) == bargains_pdfs["pages"] >= 4
        page = doc.pages[0]
        assert page.width / MM == pytest.approx(148.5, abs=0.1) and page.height / MM == pytest.approx(
            210, abs=0.1
        )
        for n, p in enumerate(doc.pages, 1):
            bottom = [w["text"] for w in p.extract_words() if w["bottom"] > p.height - 12 * MM]
            assert str(n) in bottom
        body = [c["size"] for c in doc.pages[1].chars if c["bottom"] < doc.pages[1].height - 14 * MM]
        assert max(set(body), key=body.count) >= 9  # readable body size
        # Card pictures are the cards' own faces: their titles appear on page 1.
        assert "Dewdrop" in (doc.pages[0].extract_text() or "")


def _numbers_by_half(path: Path) -> list[tuple[str | None, str | None]]:
    """Page numbers printed at the foot of the left and right half of every sheet side."""
    out = []
    with pdfplumber.open(path) as doc:
        for p in doc.pages:
            halves: list[str | None] = [None, None]
            for w in p.extract_words():
                if w["bottom"] > p.height - 8 * MM and w["text"].isdigit():
                    halves[0 if w["x0"] < p.width / 2 else 1] = w["text"]
            out.append((halves[0], halves[1]))
    return out


def test_saddle_stitched_order(bargains_pdfs: dict) -> None:
    n = bargains_pdfs["pages"]
    sides = _numbers_by_half(bargains_pdfs["short"])
    expected = []
    for s in saddle_order(n):
        expected += [(s.front_left, s.front_right), (s.back_left, s.back_right)]
    assert sides == [(str(a) if a else None, str(b) if b else None) for a, b in expected]
    with pdfplumber.open(bargains_pdfs["short"]) as doc:
        assert doc.pages[0].width / MM == pytest.approx(297, abs=0.1)


def test_long_edge_duplex_turns_the_backs(bargains_pdfs: dict) -> None:
    with pdfplumber.open(bargains_pdfs["long"]) as doc:
        assert doc.pages[0].width / MM == pytest.approx(279.4, abs=0.1)
        front, back = doc.pages[0], doc.pages[1]
        # Page numbers sit at the foot of a front side and, turned half round, at the top of a back side.
        assert any(w["text"] == "1" and w["bottom"] > front.height - 8 * MM for w in front.extract_words())
        digits = [c for c in back.chars if c["text"].isdigit()]
        assert any(c["top"] < 8 * MM for c in digits)
        assert not any(c["bottom"] > back.height - 8 * MM for c in digits)


def test_build_writes_both_booklets(tmp_path: Path, fonts: Fonts) -> None:
    game, comp = with_booklet("bargains")
    step = booklet_step(game, comp, BuildOptions(SheetOptions(paper_size("a4"))))
    outs = step.run(tmp_path, fonts, lambda: None)  # one layout, two PDFs
    assert [o.path for o in outs] == ["bargains/rules.pdf", "bargains/rules-booklet.pdf"]
    assert all(o.kind == "booklet" for o in outs)
    assert outs[1].pages == 2 * len(saddle_order(outs[0].pages))
    # the plain PDF made beside the sheets is the one made alone, byte for byte, and so is the imposed one
    alone, imposed = tmp_path / "alone.pdf", tmp_path / "imposed.pdf"
    assert write_plain(prepare(game, comp), alone, paper_size("a4"), fonts) == outs[0].pages
    write_imposed(prepare(game, comp), imposed, paper_size("a4"), "long", fonts)
    assert alone.read_bytes() == (tmp_path / "bargains" / "rules.pdf").read_bytes()
    assert imposed.read_bytes() == (tmp_path / "bargains" / "rules-booklet.pdf").read_bytes()
    assert len(PdfReader(alone).pages) == outs[0].pages


def test_template_errors_name_the_template_line(tmp_path: Path) -> None:
    (tmp_path / "card_data").mkdir()
    (tmp_path / "templates").mkdir()
    src = (ROOT / "card_data" / "bargains.yaml").read_text(encoding="utf-8")
    (tmp_path / "card_data" / "bargains.yaml").write_text(src, encoding="utf-8")
    (tmp_path / "templates" / "bargains.md.j2").write_text("# Title\n\nWe have {{ count('dek') }} cards.\n")
    game = load_game(tmp_path / "card_data" / "bargains.yaml")
    with pytest.raises(InputError) as err:
        render(game, game.component("rules"))
    assert "templates/bargains.md.j2:3" in str(err.value) and "dek" in str(err.value)


def test_a_character_no_font_has_is_named_with_its_line(fonts: Fonts) -> None:
    """Booklet text is checked against both fonts that set it; a missing glyph names the rendered line."""
    from pnp.output.booklets import check_glyphs

    blocks = parse(
        "# Fine title\n\nA plain line.\n\n- item one\n- item \u6f22 two\n\n| a | b |\n|---|---|\n| c | \u2603 |\n"
    )
    check_glyphs(blocks[:2], fonts, "rules.md (rendered)")  # nothing missing: no error
    with pytest.raises(InputError) as err:
        check_glyphs(blocks, fonts, "rules.md (rendered)")
    problems = err.value.problems
    assert [p.line for p in problems] == [5, 8], problems
    assert all(p.file == "rules.md (rendered)" and "no glyph" in p.message for p in problems)
    assert "\u6f22" in problems[0].message and "\u2603" in problems[1].message


def test_markup_blocks() -> None:
    blocks = parse(
        "# T\n\nSome *text*.\n\n1. one\n2. two\n   - sub\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "> aside\n\n[[cards 1 3 width=20]]\n"
    )
    assert [b.kind for b in blocks] == ["heading", "para", "list", "table", "aside", "cards"]
    assert blocks[2].ordered and blocks[2].children == ((), ("sub",))
    assert blocks[3].rows == (("a", "b"), ("1", "2"))
    assert blocks[5].items == ("1", "3") and blocks[5].options == {"width": "20"}
    with pytest.raises(MarkupError):
        parse("| a | b |\n| 1 | 2 |\n")
    with pytest.raises(MarkupError):
        parse("[[picture x]]")


@pytest.mark.parametrize(
    "text,line,message",
    [
        ("# T\n\n" + "word " * 1100 + "\n", 3, "a paragraph of 5499 characters"),
        ("intro\n\n" + "".join(f"- item {i}\n" for i in range(1001)), 3, "a list of 1001 items"),
        ("| a | b |\n|---|---|\n" + "| x | y |\n" * 1000, 1, "a table of 1001 items"),
        ("\n\n".join(f"p{i}" for i in range(3001)), 6001, "at most 3000 blocks"),
        ("> " + "z" * 5001 + "\n", 1, "an aside of 5001 characters"),
    ],
    ids=["paragraph", "list", "table", "blocks", "aside"],
)
def test_booklet_text_over_its_bounds_is_refused_at_its_line(text: str, line: int, message: str) -> None:
    """Text that would take minutes to lay out (a 1 MB paragraph did) is refused before drawing."""
    with pytest.raises(MarkupError, match=message) as caught:
        parse(text)
    assert caught.value.line == line


def test_no_sentence_shared_with_the_seeds() -> None:
    tool = ROOT.parent / "shared" / "tools" / "seedcheck.py"
    if not tool.is_file():
        pytest.skip("../shared/tools/seedcheck.py (the seeds' phrase check) is not beside this checkout")
    result = subprocess.run([sys.executable, str(tool), str(ROOT)], capture_output=True, text=True)
    flagged = [line for line in result.stdout.splitlines() if line.startswith("templates/")]
    assert not flagged, result.stdout


@pytest.mark.parametrize("width", ["-5", "0", "nan", "inf", "151"])
def test_a_card_picture_width_out_of_range_is_a_line_error(tmp_path: Path, width: str) -> None:
    """Found by the deep fuzz: [[cards 1 width=-5]] was a traceback from ReportLab's page layout."""
    from conftest import make_project, run

    project = make_project(tmp_path / "proj")
    template = project / "templates" / "bargains.md.j2"
    template.write_text(
        template.read_text(encoding="utf-8") + f"\n[[cards 1 width={width}]]\n", encoding="utf-8"
    )
    r = run("build", "bargains", "--project", str(project), "--out", str(tmp_path / "out"))
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert re.search(
        rf"templates/bargains\.md\.j2 \(rendered\):\d+: width={re.escape(width)}: a number of millimetres "
        r"from 5 to 150",
        r.err,
    ), r.err
