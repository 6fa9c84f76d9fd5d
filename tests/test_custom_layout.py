"""Custom layouts: a design drawn from a list of elements in the database."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from artwork import MM, game_yaml, picture, project
from conftest import ROOT, page_texts, placements, run

FIXTURE = ROOT / "tests" / "fixtures" / "bargains-custom-face.yaml"


def _faces(database: Path, out: Path, dpi: int = 150) -> list[np.ndarray]:
    """Every distinct face of the database's deck, drawn by the build's own FormCache into a PDF
    (one card with its bleed per page), rasterised by PDFium."""
    from reportlab.pdfgen.canvas import Canvas

    from pnp.data.reading.loader import load_game
    from pnp.draw.faces import FormCache, card_size_of
    from pnp.resolve.cards import printed_cards
    from pnp.resolve.fonts import Fonts

    game = load_game(database, root=database.parent.parent)
    comp = game.component("deck")
    size, bleed = card_size_of(comp), 3.0
    c = Canvas(str(out), pagesize=((size.w + 2 * bleed) * MM, (size.h + 2 * bleed) * MM), invariant=1)
    forms = FormCache(c, game, Fonts.load(ROOT / "fonts"), bleed)
    for printed in printed_cards(game, comp):
        name = forms.face(comp, printed)
        c.translate(bleed * MM, bleed * MM)
        c.doForm(name)
        c.showPage()
    c.save()
    doc = pdfium.PdfDocument(str(out))
    try:
        return [
            np.asarray(doc[i].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)
            for i in range(len(doc))
        ]
    finally:
        doc.close()


def test_bargains_face_as_a_custom_layout_renders_alike(tmp_path: Path) -> None:
    """The Bargains value face redrawn element by element (tests/fixtures) against the built-in layout:
    each of the five faces at 150 dpi, no pixel differs by more than 8 of 255 in any channel
    (measured: at most 2, from colours written as #RRGGBB), and the mean difference stays under 0.1."""
    src = (ROOT / "card_data" / "bargains.yaml").read_text(encoding="utf-8")
    face = FIXTURE.read_text(encoding="utf-8")
    face = face[face.index("faces:") :]
    start, end = src.index("\nfaces:\n") + 1, src.index("\nbacks:\n") + 1
    assert "layout: value" in src[start:end]
    custom = src[:start] + face + src[end:]
    assert "layout: custom" in custom and "layout: value" not in custom
    (tmp_path / "card_data").mkdir()
    (tmp_path / "card_data" / "custom.yaml").write_text(custom, encoding="utf-8")
    built = _faces(ROOT / "card_data" / "bargains.yaml", tmp_path / "built.pdf")
    mine = _faces(tmp_path / "card_data" / "custom.yaml", tmp_path / "custom.pdf")
    assert len(built) == len(mine) == 5
    for a, b in zip(built, mine):
        diff = np.abs(a - b).max(axis=2)
        assert diff.max() <= 8 and diff.mean() < 0.1, (diff.max(), diff.mean())
    # the comparison can fail: the same faces without their upside-down corner index differ visibly
    (tmp_path / "card_data" / "custom.yaml").write_text(
        custom.replace("rotate: 180}", "rotate: 180, when: 'false'}"), encoding="utf-8"
    )
    changed = _faces(tmp_path / "card_data" / "custom.yaml", tmp_path / "changed.pdf")
    assert np.abs(built[0] - changed[0]).max() > 100


ELEMENTS = """layout: custom
    slots: {tone: "#2a6f97"}
    elements:
      - {type: rect, frame: safe, x: 0, y: 0, w: 10, h: 5, fill: "{{ slots.tone }}"}
      - {type: text, text: "SHOWN {{ card.n }}", when: "card.n > 1", x: 5, y: 20, w: 50, h: 8, size: 10}
      - {type: text, text: "HIDDEN", when: "card.n > 5", x: 5, y: 30, w: 50, h: 8}
      - {type: paragraph, text: "{{ card.text }}", x: 5, y: 40, w: 50, h: 30, size: 9, min_size: 7, valign: top}
      - {type: image, file: "{{ card.art }}", x: 5, y: 70, w: 10, h: 10}
      - {type: symbol, symbol: star, x: 40, y: 70, w: 8, h: 8, fill: "{{ slots.tone | lighten(0.5) }}"}
      - {type: line, x: 5, y: 18, x2: 58, y2: 18, stroke: "#000000", dash: [1, 0.5]}
      - {type: ellipse, x: 20, y: 70, w: 10, h: 6, stroke: "#000000"}
      - {type: round_rect, frame: bleed, radius: 2, stroke: "#000000"}
      - {type: pattern, symbol: leaf, x: 5, y: 82, w: 50, h: 2, step: 5, stagger: true}"""


def test_elements_draw_where_told(tmp_path: Path) -> None:
    import pdfplumber

    cards = "      - {key: a, name: A, n: 3, art: art/p.png, text: Words in a box that wrap over lines.}"
    root = project(tmp_path, game_yaml(ELEMENTS, cards))
    picture(root / "art" / "p.png", (200, 200))
    r = run("build", "art", "--project", str(root), "--out", str(root / "out"), "--duplex", "off")
    assert r.code == 0, r.out + r.err
    pdf = root / "out" / "art" / "deck.pdf"
    text = page_texts(pdf)[0]
    assert "SHOWN 3" in text and "HIDDEN" not in text and "Words in a box" in text
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        filled = [r for r in page.rects if r["non_stroking_color"] and abs(r["width"] - 10 * 72 / 25.4) < 0.1]
        assert filled, "the safe-zone rectangle is drawn"
    face = placements(PdfReader(str(pdf)).pages[0])[0]  # the trim's lower-left corner, mm
    x0, y1 = filled[0]["x0"] / MM, filled[0]["y1"] / MM
    assert (
        abs(x0 - (face.x + 3)) < 0.1 and abs(y1 - (face.y + 88 - 3)) < 0.1
    )  # 3 mm inside the trim (safe zone)


BAD = [
    (
        "unknown element",
        "type: rect, frame: safe",
        "type: circle, frame: safe",
        "faces.f.elements[0].type: expected one of 'rect'",
    ),
    (
        "unknown field",
        "size: 10}",
        "size: 10, colour: red}",
        "faces.f.elements[1].colour: unknown key 'colour'",
    ),
    (
        "field of another element",
        "stagger: true}",
        "stagger: true, text: hi}",
        "faces.f.elements[9].text: a pattern element has no 'text'",
    ),
    (
        "missing field",
        "type: symbol, symbol: star,",
        "type: symbol,",
        "faces.f.elements[5].symbol: a symbol element needs 'symbol'",
    ),
    ("not a number", "x: 40, y: 70", "x: forty, y: 70", "faces.f.elements[5].x: expected a length"),
    ("bad choice", "valign: top}", "valign: up}", "faces.f.elements[3].valign: expected one of top, middle"),
    (
        "bad condition",
        'when: "card.n > 5"',
        'when: "card.n >"',
        "faces.f.elements[2].when: expression syntax",
    ),
    (
        "unknown symbol",
        "symbol: leaf,",
        "symbol: lief,",
        "elements[9].symbol: unknown symbol 'lief'; did you mean leaf",
    ),
    (
        "templated number",
        "x: 5, y: 40",
        "x: '{{ card.name }}', y: 40",
        "faces.f.elements[3].x: card AT-a: expected a length (mm, cm, in, pt or %), found 'A'",
    ),
    ("text too long", 'text: "SHOWN {{ card.n }}"', "text: \"{{ 'SHOWN ' * 30 }}\"", "text does not fit"),
    (
        "elements on a built-in layout",
        "layout: custom",
        "layout: value",
        "only layout 'custom' draws elements of its own",
    ),
]


@pytest.mark.parametrize("desc,old,new,message", BAD, ids=[b[0] for b in BAD])
def test_bad_elements_are_located(tmp_path: Path, desc: str, old: str, new: str, message: str) -> None:
    cards = "      - {key: a, name: A, n: 3, art: art/p.png, text: Short.}"
    text = game_yaml(ELEMENTS, cards)
    assert old in text
    root = project(tmp_path, text.replace(old, new, 1))
    picture(root / "art" / "p.png", (50, 50))
    r = run("check", "--project", str(root))
    assert r.code == 2, r.out + r.err
    assert "card_data/art.yaml:" in r.err and message in r.err, r.err
    assert "Traceback" not in r.err


@pytest.mark.parametrize(
    ("example", "made"),
    [
        ("own-cards", ("own/deck.pdf",)),
        ("toolbox", ("toolbox/deck.pdf", "toolbox/coins.pdf", "toolbox/tiles.pdf", "toolbox/rules.pdf")),
    ],
)
def test_documented_example_checks_and_builds(tmp_path: Path, example: str, made: tuple[str, ...]) -> None:
    """examples/own-cards (docs/own-cards.png) and examples/toolbox (the pictures of shapes, spans and
    tokens in docs/own-cards.md) pass `pnp check` without warnings and build."""
    root = tmp_path / example
    shutil.copytree(ROOT / "examples" / example, root)
    if not (root / "fonts").exists():
        shutil.copytree(ROOT / "fonts", root / "fonts")
    r = run("check", "--project", str(root))
    assert r.code == 0 and "warning" not in r.out and "note:" not in r.out, r.out + r.err
    r = run("build", "--project", str(root), "--out", str(root / "out"))
    assert r.code == 0, r.out + r.err
    assert all((root / "out" / rel).is_file() for rel in made)


def test_live_preview_sees_a_changed_picture(tmp_path: Path) -> None:
    """`pnp serve` keys each card picture by what it reads: an image element's file is part of it."""
    from pnp.data.reading.loader import load_game
    from pnp.resolve.cards import printed_cards
    from pnp.serve.pictures import FileDigests, picture_key

    face = 'layout: custom\n    elements:\n      - {type: image, file: "{{ card.art }}", x: 5, y: 5, w: 20, h: 20}'
    root = project(tmp_path, game_yaml(face, "      - {key: a, name: A, art: art/p.png}"))
    picture(root / "art" / "p.png", (60, 60))

    def key() -> str:
        game = load_game(root / "card_data" / "art.yaml")
        comp = game.component("deck")
        return picture_key(game, comp, printed_cards(game, comp)[0], "face", "", FileDigests())

    before = key()
    picture(root / "art" / "p.png", (60, 60), fill="#20a040")
    assert key() != before
