"""Rich card text: **bold**, *italic*, {icon} and line breaks in real PDFs; booklets share the reader."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.symbol_forms import symbol_form
from pnp.resolve.inline_markup import inline, plain, tokens

from conftest import ROOT, run

GAME = """\
game: {name: Markup Test, tag: MK, players: {min: 1, max: 2}}
faces:
  f:
    layout: value
    slots:
      value: "{{ card.value }}"
      title: "**Big** *deal*"
      color: "#4f93c9"
      emblem: clover
      text: "{{ card.text }}"
backs:
  b: {layout: back, slots: {title: "Back {star}", color: "#34275a"}}
components:
  - key: deck
    kind: deck
    name: Deck
    face: f
    back: b
    fields: {value: {type: int}}
    cards:
      - {key: A, name: A, value: 1, text: "Gain **2** {coin} then *discard* a {moon} card.\\nSecond {sun}{star}."}
      - {key: B, name: B, value: 2, text: "Plain 2 * 3 text \\\\*kept\\\\* and \\\\{braces\\\\}."}
      - {key: C, name: C, value: 3, text: "TEXT_C"}
"""
LONG = (
    "**Bold** words keep going so the paragraph has to shrink to fit its box, *italic* too, "
    "with {sun} icons {moon} scattered {star} through it."
)


def _project(tmp_path: Path, text_c: str = LONG) -> Path:
    proj = tmp_path / "mk"
    (proj / "card_data").mkdir(parents=True)
    shutil.copytree(ROOT / "fonts", proj / "fonts")
    (proj / "card_data" / "mk.yaml").write_text(GAME.replace("TEXT_C", text_c), encoding="utf-8")
    return proj


def _face(pdf: Path, key: str) -> tuple[list[tuple[str, list]], dict[str, str], object, PdfReader]:
    reader = PdfReader(pdf)
    form = reader.pages[0]["/Resources"]["/XObject"][f"/FormXob.Fface_deck_{key}"].get_object()
    fonts = {k: str(v.get_object()["/BaseFont"]) for k, v in form["/Resources"]["/Font"].items()}
    ops = [(op.decode(), args) for args, op in ContentStream(form, reader).operations]
    return ops, fonts, form, reader


def _strip_colour(data: bytes) -> bytes:
    """A symbol form's drawing without its colour (and the canvas set-up a first form carries)."""
    return re.sub(rb"[\d.]+ [\d.]+ [\d.]+ (rg|RG)\s*", b"", data[data.find(b"\nq\n") :])


def _symbol_data(name: str) -> bytes:
    """The drawing of one symbol form, made on its own (colour aside)."""
    buf = io.BytesIO()
    c = Canvas(buf)
    symbol_form(c, name, 0, 0, 10, black)
    c.showPage()
    c.save()
    reader = PdfReader(io.BytesIO(buf.getvalue()))
    (form,) = reader.pages[0]["/Resources"]["/XObject"].values()
    return _strip_colour(form.get_object().get_data())


def test_tokens_read_bold_italic_icons_and_escapes() -> None:
    kinds = [(t.kind, t.text, t.on) for t in tokens(r"**a** *b* {sun} \*c\* 2 * 3")]
    assert kinds == [
        ("bold", "", True),
        ("text", "a", False),
        ("bold", "", False),
        ("text", " ", False),
        ("italic", "", True),
        ("text", "b", False),
        ("italic", "", False),
        ("text", " ", False),
        ("icon", "sun", False),
        ("text", " *c* 2 * 3", False),
    ]


@pytest.mark.parametrize(
    "text, html",
    [
        ("a **b** c", "a <b>b</b> c"),
        ("*x* and 2*3*4", "<i>x</i> and 2*3*4"),
        ("**a *b* c**", "<b>a <i>b</i> c</b>"),
        ("x < y & *z*", "x &lt; y &amp; <i>z</i>"),
        ("{sun} rises", "{sun} rises"),
        ("**a *b** c*", "<b>a <i>b</i></b><i> c</i>"),
        ("***x***", "<b><i>x</i></b>"),
    ],
)
def test_booklets_read_the_same_markup(text: str, html: str) -> None:
    assert inline(text) == html
    assert "*" not in plain(text.replace("2*3*4", ""))


def test_bold_italic_faces_and_icons_in_reading_order(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    assert run("build", "--project", str(proj), "--out", "out").code == 0
    ops, fonts, form, reader = _face(proj / "out" / "mk" / "deck.pdf", "A")
    seq: list[str] = []
    font = ""
    forms = form["/Resources"]["/XObject"]
    names = {n: _strip_colour(forms[n].get_object().get_data()) for n in forms}
    by_data = {_symbol_data(s): s for s in ("coin", "moon", "sun", "star")}
    for op, args in ops:
        if op == "Tf":
            font = fonts[args[0]]
        if not seq and not (op == "Tj" and args[0] == "Gain "):
            continue  # the title and the value come first
        if op == "Tj" and args[0].strip():
            seq.append(f"{args[0].strip()}@{font.split('+')[-1]}")
        elif op == "Do":
            seq.append("{" + by_data[names[args[0]]] + "}")
        if args and args[0] == "MK-A":
            break
    serif, bold, upright = "DejaVuSerif-Italic", "DejaVuSerif-Bold", "DejaVuSerif"
    assert seq[:9] == [
        f"Gain@{serif}",
        f"2@{bold}",
        "{coin}",
        f"then@{serif}",
        f"discard@{upright}",
        f"a@{serif}",
        "{moon}",
        f"card.@{serif}",
        f"Second@{serif}",
    ]
    assert seq[9:11] == ["{sun}", "{star}"]


def test_plain_text_with_stars_and_escapes_prints_them(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    assert run("build", "--project", str(proj), "--out", "out").code == 0
    ops, fonts, _, _ = _face(proj / "out" / "mk" / "deck.pdf", "B")
    shown = " ".join(a[0] for op, a in ops if op == "Tj")
    assert "Plain 2 * 3 text *kept* and {braces}." in shown
    assert not any(op == "Do" and "Sym" in str(a[0]) for op, a in ops[-12:])


def test_marked_up_text_shrinks_to_fit(tmp_path: Path) -> None:
    proj = _project(tmp_path, LONG + " Then some more words about it, and even more words after that.")
    assert run("build", "--project", str(proj), "--out", "out").code == 0
    ops, _, _, _ = _face(proj / "out" / "mk" / "deck.pdf", "C")
    sizes = {float(a[1]) for op, a in ops if op == "Tf" and float(a[1]) < 7.4 and float(a[1]) > 5.5}
    assert sizes and min(sizes) >= 6.2, sizes  # shrunk from 7.4 pt, never below the layout's 6.2 pt


def test_overflowing_marked_up_text_is_caught_by_check(tmp_path: Path) -> None:
    proj = _project(tmp_path, " ".join([LONG] * 4))
    r = run("check", "--project", str(proj))
    assert r.code == 2, r.out + r.err
    assert "card_data/mk.yaml" in r.err and "card MK-C" in r.err and "does not fit" in r.err


def test_unknown_icon_names_the_card(tmp_path: Path) -> None:
    proj = _project(tmp_path, "A {sunn} here")
    r = run("check", "--project", str(proj))
    assert r.code == 2 and "card MK-C" in r.err and "sunn" in r.err and "sun" in r.err, r.err


def test_built_in_texts_hold_no_markup_characters() -> None:
    """Markup came after the five games: none of their rendered slots reads differently now."""
    from pnp.data.reading.loader import load_game
    from pnp.resolve.cards import printed_cards
    from pnp.resolve.sides import Job, resolve_slots

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from strings(v)

    for path in sorted((ROOT / "card_data").glob("*.yaml")):
        game = load_game(path)
        for comp in (c for c in game.components if c.is_cards):
            for p in printed_cards(game, comp):
                for designs, key in (
                    (game.faces, p.card.face or comp.face),
                    (game.backs, p.card.back or comp.back),
                ):
                    slots = resolve_slots(game, Job(comp, designs[key], "x", p.card, p.mark, p.set_index))
                    for text in strings(slots):
                        assert not re.search(r"[*{}\\]", text), (path.name, p.code, text)


def test_a_capitalised_line_keeps_its_icons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Layouts that print a slot in capitals ({SUN}) still find the symbol; a real unknown name still fails."""
    import pnp.draw.context as context
    from pnp.data.format.model import Style
    from pnp.draw.context import CardContext
    from pnp.resolve.fonts import Fonts

    drawn: list[str] = []
    monkeypatch.setattr(context, "symbol_form", lambda c, name, *a, **k: drawn.append(name))
    ctx = CardContext(Canvas(io.BytesIO()), 180, 250, 8, Fonts.load(ROOT / "fonts"), Style())
    ctx.text(10, 10, "**TRUMP** {SUN}", "condensed", 8)
    assert drawn == ["sun"]
    with pytest.raises(ValueError, match="unknown symbol 'SUNN'"):
        ctx.text(10, 30, "A {SUNN}", "condensed", 8)


@pytest.mark.parametrize(
    "text", ["**a *b** c*", "*a **b* c**", "*" * 200, "***" * 70 + "x", "** *a** b*" * 30]
)
def test_any_stars_make_markup_reportlab_reads(text: str) -> None:
    """Overlapping or piled-up stars still make well-nested paragraph markup (a traceback before)."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph

    para = Paragraph(inline(text), getSampleStyleSheet()["Normal"])
    para.wrap(400, 800)
