"""The resolve stage: a dozen different problems on a dozen cards, all found in one `pnp check`,
each at its source, and what drawing receives decided in full."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from conftest import run

# (key, column, value, the cell the problem is reported at (None: the design), what it says)
CARDS = [
    ("moth", "text", "Shines with {nope} light.", "column F (text)", "'nope'"),
    ("paper", "text", "Long. " * 400, "column F (text)", "does not fit"),
    ("jar", "name", "灯の瓶 🏮", "column B (name)", "no glyph"),
    ("beacon", "text", "Worth {owl} five.", "column F (text)", "'owl'"),
    ("wind", "name", "A Name Far Too Long For The Title Box Of This Card", "column B (name)", "not fit"),
    ("c6", "text", "Worth [size=900pt]{a lot}.", "column F (text)", "900pt"),
    ("c7", "text", "Glows [wobbly]{oddly}.", "column F (text)", "wobbly"),
    ("c8", "suit", "ember", "column E (suit)", "'ember'"),  # a suit no symbol is named after
    ("c9", "text", "Worth {glowworm} and {nope}.", "column F (text)", "glowworm"),
    ("c10", "name", "Moth 🦋", "column B (name)", "no glyph"),
    ("c11", "key", "c11", None, "art/owl.png: no such file"),  # its picture is not made yet
    ("c12", "text", "**Bold [font=nowhere]{text}**", "column F (text)", "nowhere"),
]


@pytest.fixture(scope="module")
def dozen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The starter project, its count rules and booklet left out, with a different problem on each of a
    dozen cards, and a palette colour that is not one."""
    root = tmp_path_factory.mktemp("dozen") / "game"
    assert run("new", str(root)).code == 0
    sheet = root / "card_data" / "lanterns.csv"
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    for n in range(6, 13):
        rows.append([f"c{n}", f"Lamp {n}", "1", *rows[1 + n % 5][3:]])

    for key, column, value, _, _ in CARDS:
        row = next(r for r in rows[1:] if r[0] == key)
        row[head.index(column)] = value
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
    db = root / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    text = text[: text.index("    rules:\n")] + "\n"  # no count rules, no booklet: only the cards speak
    text = text.replace(
        '    leaf: {light: "#6a9c74"',
        '    ember: {light: "#zz6a00", color: "#b5562b", name: {en: Ember, de: Glut}}\n'
        '    leaf: {light: "#6a9c74"',
    )
    text = text.replace("choices: [moon, sun, star, leaf]", "choices: [moon, sun, star, leaf, ember]")
    text = text.replace(
        "file: art/lantern.svg", "file: \"{{ 'art/owl.png' if card.key == 'c11' else 'art/lantern.svg' }}\""
    )
    db.write_text(text, encoding="utf-8")
    return root


def _rows(root: Path) -> dict[str, int]:
    """Each card's line in its spreadsheet (a quoted cell may run over several lines)."""
    with (root / "card_data" / "lanterns.csv").open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        next(reader)
        out, line = {}, reader.line_num + 1
        for row in reader:
            out[row[0]] = line
            line = reader.line_num + 1
    return out


def _listed(err: str) -> list[str]:
    return [line.strip() for line in err.splitlines() if line.startswith("  ")]


def test_a_dozen_problems_on_a_dozen_cards_in_one_check(dozen: Path) -> None:
    r = run("check", "--project", str(dozen), "--lang", "en")
    assert r.code == 2 and "Traceback" not in r.err, r.err
    listed = _listed(r.err)
    rows = _rows(dozen)
    for key, _, _, cell, what in CARDS:
        where = f"card_data/lanterns.csv:{rows[key]}: {cell}: " if cell else "card_data/lanterns.yaml:"
        found = [line for line in listed if line.startswith(where) and what in line and f"LM-{key}" in line]
        assert found, (key, where, what, r.err)
    palette = [line for line in listed if "#zz6a00" in line]  # the palette's colour that is not one
    assert len(palette) == 1 and palette[0].startswith("card_data/lanterns.yaml:"), palette
    assert any("'nope'" in line and "LM-c9" in line for line in listed)  # both icons of one cell
    assert len(listed) == len(set(listed)), "each problem once"
    keys = [(s.split(":")[0], int(s.split(":")[1]) if s.split(":")[1].isdigit() else 0) for s in listed]
    assert keys == sorted(keys)


def test_the_build_refuses_with_the_same_list_and_writes_nothing(dozen: Path, tmp_path: Path) -> None:
    check = run("check", "--project", str(dozen), "--lang", "en")
    out = tmp_path / "out"
    build = run("build", "--project", str(dozen), "--out", str(out), "--lang", "en", "-j", "1")
    assert build.code == 2 and "Traceback" not in build.err, build.err
    assert _listed(build.err) == _listed(check.err)
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_a_resolved_side_carries_everything_drawing_needs(tmp_path: Path) -> None:
    """Resolving the starter's first face gives its paragraph's size and lines and its picture; the
    drawing stage then needs no measuring of its own."""
    from pnp.data.reading.loader import load_game
    from pnp.resolve.cards import face_job, printed_cards
    from pnp.resolve.fonts import Fonts
    from pnp.resolve.pictures import Picture, Pictures
    from pnp.resolve.sides import resolve_side, trim_of

    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    game = load_game(root / "card_data" / "lanterns.yaml", root=root)
    comp = game.component("deck")
    _, job = face_job(game, comp, printed_cards(game, comp)[0])
    pictures = Pictures.for_project(root, game.symbols)
    side = resolve_side(
        game, job, Fonts.load(root / "fonts"), pictures, trim_of(game, comp, job, 3.0, "full")
    )
    paragraph = next(el for el in side.elements if el.type == "paragraph")
    assert paragraph.lines and 6.5 <= paragraph.size <= 8.5 and paragraph.min_size == paragraph.size
    image = next(el for el in side.elements if el.type == "image")
    assert isinstance(image.picture, Picture) and image.picture.name == "art/lantern.svg"
    assert side.label.startswith("LM-moth")


def test_every_language_at_once_each_problem_once_and_json_the_same_list(dozen: Path) -> None:
    import json

    text = run("check", "--project", str(dozen))  # English and German
    as_json = run("check", "--project", str(dozen), "--json")
    assert text.code == as_json.code == 2 and "Traceback" not in text.err + as_json.err
    listed = _listed(text.err)
    report = json.loads(as_json.out)
    assert report["problems"] == listed and report["count"] == len(listed)
    assert f"{len(listed)} problem" in text.err.splitlines()[-1]  # the count comes last
    assert len(listed) == len(set(listed)), "each problem once, not once per language"
    assert sum("#zz6a00" in line for line in listed) == 1  # the palette's, shared by both languages
    assert sum("art/owl.png" in line for line in listed) == 1
