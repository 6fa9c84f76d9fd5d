"""Errors point at the source: a card from a spreadsheet at its file, row and column; a missing
column once; template attributes with a did-you-mean; YAML syntax in plain words at its line;
a glyph a font lacks named with the card and font file, the build alive and nothing written."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from conftest import run


@pytest.fixture()
def starter(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    return root


def _sheet(root: Path, edit) -> None:  # type: ignore[no-untyped-def]
    path = root / "card_data" / "lanterns.csv"
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    rows = edit(rows)
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)


def _check(root: Path) -> str:
    r = run("check", "--project", str(root))
    assert r.code == 2, r.out + r.err
    assert "Traceback" not in r.err
    return r.err


def test_a_missing_column_is_one_error_naming_the_file_and_column(starter: Path) -> None:
    _sheet(starter, lambda rows: [[c for i, c in enumerate(r) if rows[0][i] != "suit"] for r in rows])
    err = _check(starter)
    assert "1 problem(s)" in err
    assert "card_data/lanterns.csv:1: no 'suit' column" in err and "missing field" not in err


def test_a_bad_cell_names_its_row_and_column(starter: Path) -> None:
    _sheet(starter, lambda rows: [r if r[0] != "jar" else r[:4] + ["stra"] + r[5:] for r in rows])
    assert "card_data/lanterns.csv:4: column E (suit): 'stra' is not allowed" in _check(starter)


def test_text_too_long_and_unknown_icons_point_at_the_cell(starter: Path) -> None:
    long = "Worth a great deal. " * 40
    _sheet(starter, lambda rows: [r if r[0] != "paper" else r[:5] + [long] for r in rows])
    err = _check(starter)
    assert "card_data/lanterns.csv:3: column F (text): card LM-paper: text does not fit" in err
    assert "(drawn by faces.lantern.elements[8], card_data/lanterns.yaml:" in err
    _sheet(starter, lambda rows: [r if r[0] != "paper" else r[:5] + ["Worth {glowworm}."] for r in rows])
    err = _check(starter)
    assert "card_data/lanterns.csv:3: column F (text): card LM-paper: unknown symbol 'glowworm'" in err


def test_a_missing_glyph_names_character_card_and_font_and_spares_the_build(starter: Path) -> None:
    _sheet(
        starter, lambda rows: [r if r[0] != "moth" else [r[0], "Glow Moth \U0001f98b", *r[2:]] for r in rows]
    )
    out = starter / "out"
    r = run("build", "--project", str(starter), "--out", str(out), "--jobs", "2")
    assert r.code == 2 and "Traceback" not in r.err and "BrokenProcessPool" not in r.err, r.err
    assert "card_data/lanterns.csv:2: column B (name): card LM-moth: font fonts/" in r.err
    assert "has no glyph for '\U0001f98b'" in r.err
    assert not any(out.rglob("*.pdf"))


def test_template_attributes_get_a_did_you_mean(starter: Path) -> None:
    db = starter / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace('text: "{{ card.name }}"', 'text: "{{ card.nmae }}"', 1), encoding="utf-8")
    line = next(i for i, t in enumerate(db.read_text().splitlines(), 1) if "card.nmae" in t)
    err = _check(starter)
    assert (
        f"lanterns.yaml:{line}: faces.lantern.elements[5].text: card LM-moth: the card has no field 'nmae' "
        "(did you mean 'name'?)" in err
    )
    assert "dict object" not in err
    db.write_text(text.replace('text: "{{ card.name }}"', 'text: "{{ crad.name }}"', 1), encoding="utf-8")
    assert "no name 'crad' here (did you mean 'card'?)" in _check(starter)


YAML_CASES = [  # (text, line, words)
    ("game:\n\tname: x\n", 2, "a tab at column 1; YAML indents with spaces only"),
    ("game:\n  name: x\n  tag LM\n  players: 2\n", 3, "a line with no colon"),
    ("game:\n  name: x\n   tag: LM\n", 3, "indented deeper than the key above it"),
    ('game:\n  name: "x\n  tag: LM\n', 2, "a quote opened here is never closed"),
    ("game: {name: x, tag: LM\n  players: 2\n", 2, "lacks a ',' between items or its closing '}'"),
    ("game:\n  name: x\n name2: y\n", 3, "indented differently from the keys above it"),
    ("game:\n  name: @x\n", 2, "'@' at column 9 cannot begin a value; put the value in quotes"),
]


@pytest.mark.parametrize(("text", "line", "words"), YAML_CASES)
def test_yaml_syntax_in_plain_words(starter: Path, text: str, line: int, words: str) -> None:
    (starter / "card_data" / "broken.yaml").write_text(text, encoding="utf-8")
    r = run("check", "broken", "--project", str(starter))
    assert r.code == 2 and "Traceback" not in r.err
    assert f"card_data/broken.yaml:{line}: YAML syntax: " in r.err and words in r.err, r.err
    for raw in ("did not find expected", "cannot start any token", "could not find expected"):
        assert raw not in r.err
