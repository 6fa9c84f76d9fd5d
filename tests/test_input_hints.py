"""Messages that say what to do: an unquoted `#` colour, a bad palette colour at its own line, and an
OpenType font with PostScript outlines named at its line of fonts.yaml."""

from __future__ import annotations

from pathlib import Path

from conftest import make_project, run


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line(path: Path, words: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if words in line)


def test_an_unquoted_hash_colour_says_to_quote_it(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    db = proj / "card_data" / "bargains.yaml"
    _edit(db, 'accent: "#5b3f8c"', "accent: #5b3f8c")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2
    line = _line(db, "accent: #5b3f8c")
    assert f"card_data/bargains.yaml:{line}: style.accent: expected text, found nothing" in r.err, r.err
    assert "starts a YAML comment" in r.err and "quote" in r.err, r.err


def test_a_bad_palette_colour_is_named_at_the_palette(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    db = proj / "card_data" / "bargains.yaml"
    _edit(db, 'color: "#8dbf6e"', 'color: "#8dbf6"')
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2
    line = _line(db, '"#8dbf6"')
    assert f"card_data/bargains.yaml:{line}: palettes.value.3.color: " in r.err, r.err


def test_a_postscript_outline_font_is_named_at_its_fonts_yaml_line(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    (proj / "fonts" / "Fancy.otf").write_bytes(b"OTTO" + bytes(200))
    _edit(proj / "fonts" / "fonts.yaml", "body: DejaVuSans.ttf", "body: Fancy.otf")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2
    line = _line(proj / "fonts" / "fonts.yaml", "Fancy.otf")
    assert f"fonts/fonts.yaml:{line}: roles.body: fonts/Fancy.otf: the font has PostScript (CFF)" in r.err, (
        r.err
    )
    assert ".ttf" in r.err and "convert" in r.err and "Traceback" not in r.err
