"""Every character works or is named: no traceback and no dead worker for any text in a database."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_project, run


def _edit(proj: Path, old: str, new: str) -> int:
    """Replace the first `old` in bargains.yaml; the line it was on."""
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text.split(old)[0].count("\n") + 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_character_no_font_has_is_named_with_its_font(tmp_path: Path, jobs: str) -> None:
    """An emoji in a card name: one message naming the character, the text and the font; the pool lives."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    _edit(proj, "name: Dewdrop", "name: Dewdrop 🌧")
    out = tmp_path / "out"
    r = run("build", "bargains", "--project", str(proj), "--out", str(out), "-j", jobs)
    assert r.code == 2, r.err
    assert "'🌧'" in r.err and "Dewdrop" in r.err and "DejaVu" in r.err and "Traceback" not in r.err, r.err
    assert "BrokenProcessPool" not in r.err
    assert not (out.exists() and [p for p in out.iterdir() if p.name != ".pnp.lock"])  # nothing written


def test_a_card_key_in_any_script_prints(tmp_path: Path) -> None:
    """Keys end up in PDF names (forms): one outside Latin-1 still builds."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    _edit(proj, 'key: "1"', 'key: "Ωé1"')
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"), "--force")
    assert r.code == 0, r.err
    assert (tmp_path / "out" / "bargains" / "deck.pdf").is_file()


@pytest.mark.parametrize(
    "written,shown",
    [
        ("Dew\x9bdrop", "U+009B"),
        ("Dew\\x9bdrop", "U+009B"),
        ("Dew\\0drop", "U+0000"),
        ("Dew\x1bdrop", "U+001B"),
    ],
)
def test_a_control_character_is_refused_at_its_line(tmp_path: Path, written: str, shown: str) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    line = _edit(proj, "name: Dewdrop", f'name: "{written}"')
    r = run("check", "--project", str(proj))
    assert (
        r.code == 2 and f"bargains.yaml:{line}:" in r.err and shown in r.err and "Traceback" not in r.err
    ), r.err


def test_a_control_character_in_a_booklet_template_is_refused_at_its_line(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    template = proj / "templates" / "bargains.md.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(text + "A line with a \x00 in it.\n", encoding="utf-8")
    line = text.count("\n") + 1
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 2 and f"templates/bargains.md.j2:{line}:" in r.err and "U+0000" in r.err, r.err
    assert "Traceback" not in r.err
