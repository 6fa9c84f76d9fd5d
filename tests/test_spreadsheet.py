"""Cards from CSV and XLSX: the same model and the same PDF bytes as the YAML they mirror; located errors."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import openpyxl
import pytest

from pnp.data.reading.loader import load_game

from conftest import make_project, posix_only, run, timed

HEADER = ["key", "name", "value", "copies", "text"]


def _bargain_rows(project: Path) -> list[list[object]]:
    game = load_game(project / "card_data" / "bargains.yaml")
    return [[c.key, c.name, c.get("value"), c.copies, c.text] for c in game.component("deck").cards]


def _from_sheet(project: Path, source: str) -> None:
    """Replace the deck's YAML card list with `cards: {from: SOURCE}`."""
    path = project / "card_data" / "bargains.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(
        r"(    cards:\n)(      - key: .*?\n)(    rules:)",
        lambda m: f"    cards: {{from: {source}}}\n{m.group(3)}",
        text,
        count=1,
        flags=re.S,
    )
    path.write_text(text, encoding="utf-8")


def _write_csv(path: Path, rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)


def _write_xlsx(path: Path, rows: list[list[object]]) -> None:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)


def _cards(project: Path) -> list[tuple]:
    game = load_game(project / "card_data" / "bargains.yaml")
    return [(c.key, c.name, c.copies, c.text, c.values, c.face, c.back) for c in game.component("deck").cards]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_sheet_deck_equals_the_yaml_deck(tmp_path: Path, kind: str) -> None:
    yaml_proj = make_project(tmp_path / "yaml")
    sheet_proj = make_project(tmp_path / "sheet")
    rows = [HEADER] + _bargain_rows(yaml_proj)
    (_write_csv if kind == "csv" else _write_xlsx)(sheet_proj / "card_data" / f"deck.{kind}", rows)
    _from_sheet(sheet_proj, f"deck.{kind}")
    assert "from: deck" in (sheet_proj / "card_data" / "bargains.yaml").read_text()
    assert _cards(sheet_proj) == _cards(yaml_proj)
    for proj in (yaml_proj, sheet_proj):
        assert run("build", "bargains", "--project", str(proj), "--out", "out").code == 0
    assert (sheet_proj / "out/bargains/deck.pdf").read_bytes() == (
        yaml_proj / "out/bargains/deck.pdf"
    ).read_bytes()


def test_bad_csv_rows_name_file_row_and_column(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    rows = [HEADER + ["colour"]] + _bargain_rows(proj)
    rows[1] = rows[1] + [""]
    rows[2][2] = "three"  # row 3, column C: not a whole number
    rows[3][2] = 4  # row 4, column C: not one of the choices
    rows[4][3] = "-1"  # row 5, column D: negative copies
    rows[5][1] = ""  # row 6, column B: no name
    _write_csv(proj / "card_data" / "deck.csv", rows)
    _from_sheet(proj, "deck.csv")
    r = run("check", "--project", str(proj))
    assert r.code == 2, r.out + r.err
    for expect in (
        "card_data/deck.csv:1: column F: unknown column 'colour'",
        "card_data/deck.csv:3: column C (value): expected a whole number, found 'three'",
        "card_data/deck.csv:4: column C (value): 4 is not allowed",
        "card_data/deck.csv:5: column D (copies): copies must be 0 or more",
        "card_data/deck.csv:6: column B (name): empty cell",
    ):
        assert expect in r.err, (expect, r.err)
    assert "bargains.yaml" not in r.err  # each bad row is reported once, at its cell


@pytest.mark.parametrize(
    "source, message",
    [
        ("../../outside.csv", "outside the project folder"),
        ("missing.csv", "no file card_data/missing.csv"),
        ("deck.txt", "expected a .csv or .xlsx file name"),
    ],
)
def test_bad_sources_name_the_database_line(tmp_path: Path, source: str, message: str) -> None:
    proj = make_project(tmp_path / "p")
    (tmp_path / "outside.csv").write_text("key,name\n", encoding="utf-8")
    _from_sheet(proj, source)
    r = run("check", "--project", str(proj))
    assert r.code == 2 and re.search(
        r"card_data/bargains\.yaml:\d+: components\[0\]\.cards\.from: ", r.err
    ), r.err
    assert message in r.err, r.err


def test_bad_xlsx_cell_names_row_and_column_letter(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    rows = [HEADER] + _bargain_rows(proj)
    rows[2][2] = "lots"
    _write_xlsx(proj / "card_data" / "deck.xlsx", rows)
    _from_sheet(proj, "deck.xlsx")
    r = run("check", "--project", str(proj))
    assert (
        r.code == 2
        and "card_data/deck.xlsx:3: column C (value): expected a whole number, found 'lots'" in r.err
    ), r.err


def test_an_edited_sheet_is_rebuilt_not_skipped(tmp_path: Path) -> None:
    """The spreadsheet is an input of its game: the load cache and `pnp build`'s skipping both see an edit."""
    proj = make_project(tmp_path / "p")
    rows = [HEADER] + _bargain_rows(proj)
    sheet = proj / "card_data" / "deck.csv"
    _write_csv(sheet, rows)
    _from_sheet(proj, "deck.csv")
    assert run("build", "bargains", "--project", str(proj), "--out", "out").code == 0
    before = (proj / "out/bargains/deck.pdf").read_bytes()
    rows[1][4] = "A new line of text for the dewdrop."
    _write_csv(sheet, rows)
    assert load_game(proj / "card_data" / "bargains.yaml").component("deck").cards[0].text == rows[1][4]
    assert run("build", "bargains", "--project", str(proj), "--out", "out").code == 0
    assert (proj / "out/bargains/deck.pdf").read_bytes() != before


def _xlsx_claiming(path: Path, rows: list[list[object]], dimension: str, far_cell: bool = False) -> None:
    """An XLSX whose sheet claims `dimension`; with `far_cell`, one real cell in its far corner."""
    import zipfile

    _write_xlsx(path, rows)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    sheet = re.sub(r'<dimension ref="[^"]*"/>', f'<dimension ref="{dimension}"/>', sheet)
    if far_cell:
        sheet = sheet.replace(
            "</sheetData>",
            '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row></sheetData>',
        )
    parts["xl/worksheets/sheet1.xml"] = sheet.encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)


@posix_only
@pytest.mark.parametrize("far_cell", [False, True])
def test_an_xlsx_claiming_a_million_rows_is_read_with_flat_memory(tmp_path: Path, far_cell: bool) -> None:
    """The sheet's claimed size is not trusted; a real cell far away is refused at its row, quickly."""
    import resource

    proj = make_project(tmp_path / "proj", ("bargains",))
    rows = [HEADER] + _bargain_rows(proj)
    _xlsx_claiming(proj / "card_data" / "deck.xlsx", rows, "A1:XFD1048576", far_cell)
    _from_sheet(proj, "deck.xlsx")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with timed() as took:
        r = run("check", "--project", str(proj))
    assert took.cpu < 20  # generous: reading a million claimed rows would take minutes
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 300_000  # KB: no gigabytes
    if far_cell:
        assert r.code == 2 and "deck.xlsx" in r.err and "more than 50000 card rows" in r.err, r.err
        assert "Traceback" not in r.err
    else:
        assert r.code == 0, r.err


def test_a_file_that_is_not_a_workbook_is_named(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    (proj / "card_data" / "deck.xlsx").write_text("not a zip at all", encoding="utf-8")
    _from_sheet(proj, "deck.xlsx")
    r = run("check", "--project", str(proj))
    assert r.code == 2 and "not a readable XLSX workbook" in r.err and "Traceback" not in r.err, r.err


def test_a_csv_of_too_many_rows_stops_at_the_limit(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    with (proj / "card_data" / "deck.csv").open("w", encoding="utf-8") as fh:
        fh.write("key,name,value,copies,text\n")
        fh.writelines(f"k{i},N{i},1,1,t\n" for i in range(60_000))
    _from_sheet(proj, "deck.csv")
    r = run("check", "--project", str(proj))
    assert r.code == 2 and "more than 50000 card rows" in r.err and "Traceback" not in r.err, r.err
