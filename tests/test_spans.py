"""Named font families and styled spans: `[colour size font=NAME]{...}` in card text and booklets,
read back from the PDF's words (font, size, colour); unknown fonts and attributes named."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from conftest import run

FAMILY = "\nfamilies:\n  Book: {regular: Vera.ttf, bold: VeraBd.ttf, italic: VeraIt.ttf}\n  Plain: Vera.ttf\n"


@pytest.fixture()
def starter(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    with (root / "fonts" / "fonts.yaml").open("a", encoding="utf-8") as fh:
        fh.write(FAMILY)
    return root


def _words(pdf: Path, page: int = 0) -> list[dict]:
    with pdfplumber.open(pdf) as doc:
        pages = doc.pages if page < 0 else [doc.pages[page]]
        return [
            w for p in pages for w in p.extract_words(extra_attrs=["fontname", "size", "non_stroking_color"])
        ]


def _face(word: dict) -> str:
    return word["fontname"].split("+")[-1]


def test_card_text_spans_and_a_family_by_name(starter: Path) -> None:
    db = starter / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    text = text.replace('text: "{{ card.name }}", font: display', 'text: "{{ card.name }}", font: Book', 1)
    db.write_text(text, encoding="utf-8")
    sheet = starter / "card_data" / "lanterns.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    rows[1] = (
        'moth,Glow **Moth**,6,1,moon,"Worth [#c0392b]{red {moth} ink}, [150%]{big}, [7pt]{tiny}, '
        '[font=Plain]{plain **bold**} [cmyk(0,100,100,0) font=body]{inks}"'
    )
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = starter / "out"
    r = run("build", "--project", str(starter), "--out", str(out), "--duplex", "off")
    assert r.code == 0, r.out + r.err
    words = {w["text"]: w for w in _words(next(out.glob("*/deck.pdf")))}
    assert (
        _face(words["Glow"]) == "BitstreamVeraSans-Roman" and _face(words["Moth"]) == "BitstreamVeraSans-Bold"
    )
    assert tuple(round(v, 3) for v in words["red"]["non_stroking_color"]) == (0.753, 0.224, 0.169)
    base = words["Worth"]["size"]
    assert words["big"]["size"] == pytest.approx(base * 1.5, abs=0.01)
    assert next(w for t, w in words.items() if t.startswith("tiny"))["size"] == pytest.approx(7, abs=0.01)
    assert (
        _face(words["plain"]) == "BitstreamVeraSans-Roman"
        and _face(words["bold"]) == "BitstreamVeraSans-Roman"
    )
    assert _face(words["inks"]).startswith("BitstreamVeraSans") and words["inks"]["non_stroking_color"] == (
        0,
        1,
        1,
        0,
    )


def test_booklet_spans(starter: Path) -> None:
    template = starter / "templates" / "rules.md.j2"
    template.write_text(
        template.read_text(encoding="utf-8") + "\n\nA [#b5562b 130%]{coloured **bigger**} span, "
        "[font=Book]{a *family*} and [8pt]{small}.\n",
        encoding="utf-8",
    )
    out = starter / "out"
    r = run("build", "--project", str(starter), "--out", str(out))
    assert r.code == 0, r.out + r.err
    words = {w["text"]: w for w in _words(next(out.glob("*/rules.pdf")), page=-1)}
    assert words["coloured"]["size"] == pytest.approx(9.6 * 1.3, abs=0.01)
    assert tuple(round(v, 3) for v in words["coloured"]["non_stroking_color"]) == (0.71, 0.337, 0.169)
    assert _face(words["bigger"]).endswith("Bold")
    assert _face(words["family"]) == "BitstreamVeraSans-Oblique" and words["small"]["size"] == 8


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ("[bluish]{x}", "span '[bluish]': 'bluish' is not a colour, a size (9pt, 120%) or font=NAME"),
        ("[900pt]{x}", "a size from 2pt to 200pt"),
        ("[font=Bok]{x}", "unknown font 'Bok' (did you mean 'Book'?)"),
    ],
)
def test_a_bad_span_is_named(starter: Path, cell: str, words: str) -> None:
    sheet = starter / "card_data" / "lanterns.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    rows[1] = f"moth,Glow Moth,6,1,moon,Worth {cell}"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    r = run("check", "--project", str(starter))
    assert r.code == 2 and "Traceback" not in r.err
    assert "lanterns.csv:2: column F (text): card LM-moth:" in r.err and words in r.err, r.err


def test_fonts_yaml_families_are_checked(starter: Path) -> None:
    config = starter / "fonts" / "fonts.yaml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            FAMILY,
            "\nfamilies:\n  body: Vera.ttf\n  Odd: "
            "{regular: Vera.ttf, heavy: VeraBd.ttf}\n  Gone: {regular: Missing.ttf}\n",
        ),
        encoding="utf-8",
    )
    r = run("check", "--project", str(starter))
    assert r.code == 2 and "Traceback" not in r.err
    lines = config.read_text(encoding="utf-8").splitlines()
    at = {
        name: i
        for i, t in enumerate(lines, 1)
        for name in ("body:", "Odd:", "Gone:")
        if t.strip().startswith(name)
    }
    assert f"fonts/fonts.yaml:{at['body:']}: families.body: a family name is a word" in r.err
    assert (
        f"fonts/fonts.yaml:{at['Odd:']}: families.Odd.heavy: faces are regular, bold, italic, bold-italic"
        in r.err
    )
    config.write_text(
        config.read_text(encoding="utf-8")
        .replace("families:\n  body: Vera.ttf\n", "families:\n")
        .replace(", heavy: VeraBd.ttf", ""),
        encoding="utf-8",
    )
    r = run("check", "--project", str(starter))
    assert f"fonts/fonts.yaml:{at['Gone:'] - 1}: families.Gone: font file Missing.ttf not found" in r.err, (
        r.err
    )


def test_an_unknown_font_in_a_layout_is_named_at_its_line(starter: Path) -> None:
    db = starter / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8").replace(
        'text: "{{ card.name }}", font: display', 'text: "{{ card.name }}", font: Boook', 1
    )
    db.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "Boook" in t)
    r = run("check", "--project", str(starter))
    assert f"lanterns.yaml:{line}: faces.lantern.elements[5]" in r.err and "unknown font 'Boook'" in r.err
    assert "(did you mean 'Book'?)" in r.err


def test_booklet_icons_are_drawn_in_the_line(starter: Path) -> None:
    template = starter / "templates" / "rules.md.j2"
    template.write_text(
        template.read_text(encoding="utf-8") + "\n\nIcon line: take one {sun} then "
        "[#c0392b 150%]{a {moth}} moth.\n",
        encoding="utf-8",
    )
    out = starter / "out"
    r = run("build", "--project", str(starter), "--out", str(out))
    assert r.code == 0, r.out + r.err
    pdf = next(out.glob("*/rules.pdf"))
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[-1]
        text = page.extract_text()
        words = page.extract_words()
        one, then = (next(w for w in words if w["text"] == t) for t in ("one", "then"))
        a = [w for w in words if w["text"] == "a"][-1]
        shapes = [
            c
            for c in page.curves + page.rects
            if one["x1"] < (c["x0"] + c["x1"]) / 2 < then["x0"]
            and one["top"] - 3 < (c["top"] + c["bottom"]) / 2 < one["bottom"] + 3
        ]
        red = [
            c
            for c in page.curves
            if (c.get("non_stroking_color") or ())[:3] == (0.752941, 0.223529, 0.168627) and c["x0"] > a["x1"]
        ]
    assert "{sun}" not in text and "{moth}" not in text
    assert shapes, "the sun is drawn between 'one' and 'then'"
    assert then["x0"] - one["x1"] > 9.6 * 0.9  # an em of room kept for it
    assert red, "the own moth symbol, in the span's colour"


def test_an_unknown_booklet_icon_names_its_line(starter: Path) -> None:
    template = starter / "templates" / "rules.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n\nTake a {glowworm}.\n", encoding="utf-8")
    r = run("check", "--project", str(starter))
    assert r.code == 2 and "Traceback" not in r.err
    assert "templates/rules.md.j2" in r.err and "unknown symbol 'glowworm'" in r.err, r.err
