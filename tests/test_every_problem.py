"""Every drawing problem in one run: `pnp check` (and a build that meets one) names them all, located,
sorted by file and line, each once."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from conftest import run, shown


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """The starter project with a different drawing problem on four of its cards, and a fifth on the
    back (shared by every card: reported once)."""
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    sheet = root / "card_data" / "lanterns.csv"
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    changes = {
        ("moth", "text"): "Shines with {nope} light.",
        ("paper", "text"): "Long. " * 400,
        ("jar", "name"): "灯の瓶 🏮",
        ("beacon", "text"): "Worth {owl} five.",
    }
    for row in rows[1:]:
        for (key, column), value in changes.items():
            if row[0] == key:
                row[head.index(column)] = value
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
    db = root / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    assert "      emblem: sun\n" in text
    db.write_text(text.replace("      emblem: sun\n", "      emblem: owl\n"), encoding="utf-8")
    return root


EXPECTED = [
    ("card_data/lanterns.csv:2:", "unknown symbol 'nope'"),
    ("card_data/lanterns.csv:3:", "does not fit"),
    ("card_data/lanterns.csv:4:", "no glyph"),
    ("card_data/lanterns.csv:5:", "unknown symbol 'owl'"),
    ("card_data/lanterns.yaml:", "backs.night.slots.emblem"),
    ("templates/rules.md.j2 (rendered):", "no glyph"),  # the booklet names the card too
]


def _listed(err: str) -> list[str]:
    return [line.strip() for line in err.splitlines() if line.startswith("  ")]


def test_check_names_every_drawing_problem_at_once(broken: Path) -> None:
    r = run("check", "--project", str(broken), "--lang", "en")
    assert r.code == 2 and "Traceback" not in r.err, r.err
    listed = _listed(r.err)
    for where, what in EXPECTED:
        assert [line for line in listed if line.startswith(where) and what in line], (where, what, r.err)
    assert len(listed) == len(EXPECTED), listed  # the shared back once, not once per card
    assert listed == sorted(
        listed, key=lambda s: (s.split(":")[0], int(s.split(":")[1]) if s.split(":")[1].isdigit() else 0)
    )
    assert f"{len(EXPECTED)} problems: fix them" in r.err


def test_check_json_gives_the_same_list_located(broken: Path) -> None:
    r = run("check", "--project", str(broken), "--lang", "en", "--json")
    assert r.code == 2
    report = json.loads(r.out)
    assert report["count"] == len(EXPECTED) == len(report["located"])
    files = {p["file"] for p in report["located"]}
    assert files == {"card_data/lanterns.csv", "card_data/lanterns.yaml", "templates/rules.md.j2 (rendered)"}
    assert all(p["line"] for p in report["located"] if p["file"].endswith(".csv"))


def test_a_build_refuses_with_the_same_list_and_writes_nothing(broken: Path, tmp_path: Path) -> None:
    check = run("check", "--project", str(broken), "--lang", "en")
    out = tmp_path / "out"
    build = run("build", "--project", str(broken), "--out", str(out), "-j", "1")
    assert build.code == 2 and "Traceback" not in build.err, build.err
    assert _listed(build.err) == _listed(check.err)
    assert not out.exists() or not shown(out, ".pdf")


def test_every_game_is_checked_not_only_the_first_that_fails(broken: Path) -> None:
    second = broken / "card_data" / "second.yaml"
    second.write_text(
        (broken / "card_data" / "lanterns.yaml").read_text(encoding="utf-8").replace("tag: LM", "tag: SE"),
        encoding="utf-8",
    )
    r = run("check", "--project", str(broken), "--lang", "en")
    listed = _listed(r.err)
    assert any(line.startswith("card_data/second.yaml:") for line in listed), r.err
    assert any(line.startswith("card_data/lanterns.yaml:") for line in listed), r.err


@pytest.fixture
def artless(tmp_path: Path) -> Path:
    """The starter project asking for one picture per card, none of them made yet."""
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    db = root / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    assert "file: art/lantern.svg" in text
    db.write_text(text.replace("file: art/lantern.svg", 'file: "art/{{ card.key }}.png"'), encoding="utf-8")
    return root


KEYS = ("moth", "paper", "jar", "beacon", "wind")


def test_a_missing_picture_is_an_error_without_draft(artless: Path, tmp_path: Path) -> None:
    r = run("check", "--project", str(artless), "--lang", "en")
    assert r.code == 2
    assert all(f"art/{key}.png: no such file" in r.err for key in KEYS), r.err
    assert run("build", "--project", str(artless), "--out", str(tmp_path / "out")).code == 2


def test_a_draft_prints_placeholders_and_lists_what_is_missing(artless: Path, tmp_path: Path) -> None:
    import pdfplumber

    r = run("check", "--project", str(artless), "--lang", "en", "--draft")
    assert r.code == 0, r.err
    assert all(f"warning: art/{key}.png: no such file yet" in r.out for key in KEYS), r.out
    out = tmp_path / "out"
    r = run("build", "lanterns", "--project", str(artless), "--out", str(out), "--draft", "-j", "1")
    assert r.code == 0, r.err
    assert all(f"art/{key}.png: no such file yet" in r.err for key in KEYS), r.err
    with pdfplumber.open(out / "lanterns" / "deck.pdf") as pdf:
        words = pdf.pages[0].extract_text()
    assert "moth.png" in words and "paper.png" in words  # each placeholder names the file to make


def test_a_large_deck_is_checked_on_several_processes_with_the_same_answer(tmp_path: Path) -> None:
    """250 distinct cards (drawn in parts on two workers): problems far apart are both found, and the
    answer is the one a single process gives."""
    from pnp.output.preflight import PARALLEL_FROM

    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    sheet = root / "card_data" / "lanterns.csv"
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    n = PARALLEL_FROM + 50
    body = [[f"c{i}", f"Card {i}", "1", *rows[1 + i % 5][3:]] for i in range(n)]
    body[3][5] = "Glows {nope} here."
    body[n - 10][5] = "Glows {owl} here."
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([rows[0], *body])
    db = root / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    start = text.index("    rules:\n      - {id: deck-size")
    db.write_text(text[:start] + text[text.index("\n  - key: rules") :], encoding="utf-8")  # counts differ
    one = run("check", "--project", str(root), "--lang", "en", "-j", "1", "--json")
    two = run("check", "--project", str(root), "--lang", "en", "-j", "2", "--json")
    assert one.code == two.code == 2, (one.err, two.err)
    assert json.loads(one.out) == json.loads(two.out)
    found = json.loads(two.out)["problems"]
    assert any("csv:5:" in p and "'nope'" in p for p in found), found
    lines = sheet.read_text(encoding="utf-8").splitlines()  # cells with line breaks: lines, not rows
    owl = next(i for i, line in enumerate(lines, start=1) if line.startswith(f"c{n - 10},"))
    assert any(f"csv:{owl}:" in p and "'owl'" in p for p in found), found
