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
    rows = [HEADER + ["copie"]] + _bargain_rows(proj)
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
        "card_data/deck.csv:1: column F: unknown column 'copie' (did you mean 'copies'?)",
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


@pytest.mark.parametrize("sep", [";", "\t"])
def test_a_csv_saved_with_semicolons_or_tabs_reads_as_with_commas(tmp_path: Path, sep: str) -> None:
    """Excel in a French or German locale writes `;` between cells (and `,` in numbers)."""
    yaml_proj = make_project(tmp_path / "yaml")
    proj = make_project(tmp_path / "sheet")
    with (proj / "card_data" / "deck.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=sep).writerows([HEADER] + _bargain_rows(yaml_proj))
    _from_sheet(proj, "deck.csv")
    assert _cards(proj) == _cards(yaml_proj)
    r = run("check", "--project", str(proj))
    assert r.code == 0 and "separator" not in r.out and "split at" not in r.out, r.out + r.err


def test_the_separator_is_the_header_lines_and_a_guess_is_said() -> None:
    from pnp.data.reading.tables import separator

    assert separator("key;name;value\r\n") == (";", "")
    assert separator('key,name,"a;b"\n') == (",", "")  # quoted cells do not count
    assert separator("key\n") == (",", "")
    sep, note = separator("key;name;value;cost, in gold\n")
    assert sep == ";" and "semicolons and commas" in note and "split at each semicolon" in note


def test_a_guessed_separator_is_a_warning_of_check(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    rows = [["key", "name", "value", "copies", "text, in words"]] + [r[:4] for r in _bargain_rows(proj)]
    with (proj / "card_data" / "deck.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=";").writerows(rows)
    _from_sheet(proj, "deck.csv")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 0, r.out + r.err
    assert "warning: card_data/deck.csv:1: the header line holds semicolons and commas" in r.out, r.out


def test_without_a_key_column_keys_come_from_the_names(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    rows = [["name", "value", "copies"], ["Dewdrop", 1, 13], ["Acorn Cap", 3, 13], ["Acorn cap!", 5, 13]]
    rows += [["¿?", 7, 13], ["Crown", 10, 13]]
    _write_csv(proj / "card_data" / "deck.csv", rows)
    _from_sheet(proj, "deck.csv")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 0, r.out + r.err  # no error per row at the YAML line
    game = load_game(proj / "card_data" / "bargains.yaml")
    keys = [c.key for c in game.component("deck").cards]
    assert keys == ["dewdrop", "acorn-cap", "acorn-cap-2", "5", "crown"]


def test_no_name_column_is_one_error(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    _write_csv(proj / "card_data" / "deck.csv", [["value", "copies"]] + [[v, 13] for v in (1, 3, 5, 7, 10)])
    _from_sheet(proj, "deck.csv")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2 and r.err.count("card_data/") == 1, r.err
    assert "card_data/deck.csv:1: no 'name' column" in r.err, r.err


def test_an_extra_column_is_ignored_with_a_warning_and_a_misspelt_one_is_named(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    rows = [HEADER + ["notes"]] + [r + ["mine"] for r in _bargain_rows(proj)]
    _write_csv(proj / "card_data" / "deck.csv", rows)
    _from_sheet(proj, "deck.csv")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 0, r.out + r.err
    warned = [line for line in r.out.splitlines() if "'notes'" in line]
    assert len(warned) == 1 and "card_data/deck.csv:1: column F: column 'notes'" in warned[0], r.out
    assert "ignored" in warned[0]
    rows[0][2] = "valeu"
    _write_csv(proj / "card_data" / "deck.csv", rows)
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2
    assert "card_data/deck.csv:1: column C: unknown column 'valeu' (did you mean 'value'?)" in r.err, r.err


def test_errors_name_the_line_an_editor_shows(tmp_path: Path) -> None:
    """A cell holding line breaks: the rows after it start further down the file than their row numbers."""
    proj = make_project(tmp_path / "p")
    rows = [HEADER] + _bargain_rows(proj)
    rows[1][4] = "one\ntwo\nthree"  # row 2 spans lines 2 to 4
    rows[2][2] = "three"  # row 3 starts on line 5
    _write_csv(proj / "card_data" / "deck.csv", rows)
    _from_sheet(proj, "deck.csv")
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 2
    assert "card_data/deck.csv:5: column C (value): expected a whole number, found 'three'" in r.err, r.err


def test_serve_says_a_sheet_card_is_defined_at_its_line_of_the_sheet(tmp_path: Path) -> None:
    from pnp.data.reading.project import Project
    from pnp.serve.state import Tracker

    proj = make_project(tmp_path / "p")
    rows = [HEADER] + _bargain_rows(proj)
    rows[1][4] = "one\ntwo"  # row 2 spans lines 2 and 3
    _write_csv(proj / "card_data" / "deck.csv", rows)
    _from_sheet(proj, "deck.csv")
    tiles = Tracker(Project.at(proj)).refresh().tiles()
    faces = {t.card: t for t in tiles.values() if t.side == "face" and t.component == "deck"}
    assert (faces[rows[1][0]].file, faces[rows[1][0]].line) == ("card_data/deck.csv", 2)
    assert (faces[rows[2][0]].file, faces[rows[2][0]].line) == ("card_data/deck.csv", 4)
