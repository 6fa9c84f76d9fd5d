"""The page's card editor through HTTP: a change lands in the file where the card is written
(YAML database, CSV or XLSX row), every other byte stays, and what `pnp check` refuses is not written."""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from test_serve_safety import change_headers, request

from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.serve.server import make_server, serve, stop

from conftest import make_project, run


class Page:
    """What the page does: GET the card's form, POST an edit with the digest it was given."""

    def __init__(self, port: int, token: str):
        self.port, self.token = port, token

    def open(self, game: str, comp: str, card: str = "") -> dict[str, Any]:
        status, body = request(self.port, "GET", f"/api/card?game={game}&component={comp}&card={card}")
        data = json.loads(body)
        data["status"] = status
        return data

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        status, answer = request(
            self.port, "POST", path, change_headers(self.port, self.token), json.dumps(body).encode()
        )
        return status, json.loads(answer)

    def save(self, form: dict[str, Any], action: str = "change", **values: Any) -> tuple[int, dict[str, Any]]:
        return self.post(
            "/api/edit",
            {
                "game": form["game"],
                "component": form["component"],
                "card": form["card"],
                "digest": form["digest"],
                "action": action,
                "values": {**form["values"], **values},
            },
        )


def check(proj: Path, app: Any, *args: str) -> int:
    """`pnp check` in this process, while the server's threads keep off PDFium (it is not thread-safe)."""
    with app.live.cache.drawing:
        return run("check", *args, "--project", str(proj)).code


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


@pytest.fixture
def page(tmp_path: Path):
    proj = make_project(tmp_path / "proj", ("bargains", "tarot"))
    assert run("new", str(tmp_path / "starter")).code == 0
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        yield proj, Page(server.server_address[1], app.guard.token), app
    finally:
        stop(server, app)


def test_a_yaml_card_changes_in_its_own_lines_only(page: Any) -> None:
    proj, browser, app = page
    db = proj / "card_data/bargains.yaml"
    before = db.read_text(encoding="utf-8")
    form = browser.open("bargains", "deck", "3")
    assert form["status"] == 200 and form["file"] == "card_data/bargains.yaml" and form["kind"] == "yaml"
    assert form["values"]["name"] == "Acorn" and form["values"]["copies"] == "13"
    assert [f["name"] for f in form["fields"]][:2] == ["name", "copies"] and form["fields"][-1][
        "name"
    ] == "text"
    status, answer = browser.save(form, text="An acorn: small, but it grows.\nKeep it.")
    assert status == 200 and answer["ok"], answer
    after = db.read_text(encoding="utf-8")
    diff = changed_lines(before, after)
    assert diff == [
        "-        text: An acorn today; perhaps an oak of a deal tomorrow.",
        "+        text: |-",
        "+          An acorn: small, but it grows.",
        "+          Keep it.",
    ], diff
    game = load_game(db, root=proj)
    assert (
        next(c for c in game.components[0].cards if c.key == "3").text
        == "An acorn: small, but it grows.\nKeep it."
    )
    assert check(proj, app, "bargains") == 0
    # undo puts the file back byte for byte
    status, answer = browser.post("/api/undo", {})
    assert status == 200 and answer["undone"] == "changed 3" and db.read_text(encoding="utf-8") == before


def test_an_edit_pnp_check_refuses_is_not_written(page: Any) -> None:
    proj, browser, app = page
    db = proj / "card_data/bargains.yaml"
    before = db.read_bytes()
    form = browser.open("bargains", "deck", "3")
    status, answer = browser.save(form, copies="12")  # the deck must hold 65 cards, 13 of each value
    assert status == 422 and not answer["ok"] and "pnp check" in answer["error"]
    assert any("card_data/bargains.yaml:" in p and "65" in p for p in answer["problems"]), answer
    for bad, word in (
        ({"copies": "many"}, "copies: expected a whole number"),
        ({"name": " "}, "name: every card"),
        ({"value": "4"}, "value"),
        ({"nonsense": "x"}, "nonsense: not a field"),
    ):
        status, answer = browser.save(form, **bad)
        assert status == 422 and word in answer["error"], (bad, answer)
    assert db.read_bytes() == before
    assert not list(db.parent.glob(".*pnp-edit*"))  # no temporary file left behind


def test_a_file_changed_on_disk_is_not_overwritten(page: Any) -> None:
    proj, browser, app = page
    db = proj / "card_data/tarot.yaml"
    form = browser.open("tarot", "arcana", "1")
    assert form["values"]["name"] == "Tohsaka Rin"
    text = db.read_text(encoding="utf-8").replace("Jewels for spells", "Gems for spells")
    db.write_text(text, encoding="utf-8")  # someone saved the file in their editor meanwhile
    status, answer = browser.save(form, name="Rin")
    assert status == 409 and answer["reload"] and "changed on disk" in answer["error"]
    assert db.read_text(encoding="utf-8") == text
    fresh = browser.open("tarot", "arcana", "1")
    assert fresh["digest"] == hashlib.sha256(text.encode()).hexdigest()
    status, answer = browser.save(fresh, name="Rin of the Gems")
    assert status == 200, answer
    assert changed_lines(text, db.read_text(encoding="utf-8")) == [
        '-      - {key: "1", name: Tohsaka Rin, short: Rin, number: 1, arcana: The Magician, element: magic, role: master,',
        '+      - {key: "1", name: Rin of the Gems, short: Rin, number: 1, arcana: The Magician, element: magic, role: master,',
    ]
    # changed again on disk after the save: undo refuses rather than lose that change
    db.write_text(db.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    status, answer = browser.post("/api/undo", {})
    assert (
        status == 409
        and "changed on disk" in answer["error"]
        and db.read_text(encoding="utf-8").endswith("# a note\n")
    )


def test_duplicate_and_add_yaml_cards(page: Any) -> None:
    proj, browser, app = page
    db = proj / "card_data/tarot.yaml"
    before = db.read_text(encoding="utf-8")
    form = browser.open("tarot", "arcana", "1")
    status, answer = browser.save(form, "duplicate", key="1b", name="Rin, again")
    assert status == 422 and "pnp check" in answer["error"]  # the arcana rules count 22 numbered cards
    assert db.read_text(encoding="utf-8") == before
    # in Bargains a copy with 0 copies keeps every rule
    db = proj / "card_data/bargains.yaml"
    before = db.read_text(encoding="utf-8")
    form = browser.open("bargains", "deck", "3")
    status, answer = browser.save(form, "duplicate", key="3b", name="Acorn cup", copies="0")
    assert status == 200 and answer["card"] == "3b", answer
    cards = {c.key: c for c in load_game(db, root=proj).components[0].cards}
    assert cards["3b"].name == "Acorn cup" and cards["3b"].copies == 0 and cards["3b"].text == cards["3"].text
    added = changed_lines(before, db.read_text(encoding="utf-8"))
    assert all(line.startswith("+") for line in added) and len(added) == 5, (
        added
    )  # the copy, and nothing else
    assert (
        '+      - key: "3b"' in added
        and "+        name: Acorn cup" in added
        and "+        copies: 0" in added
    )
    empty = browser.open("bargains", "deck")
    assert empty["values"]["name"] == "" and empty["values"]["copies"] == "1"
    status, answer = browser.save(
        empty, "add", key="wish", name="Wishbone", copies="0", value="5", text="Pull it: a wish is yours."
    )
    assert status == 200, answer
    cards = {c.key: c for c in load_game(db, root=proj).components[0].cards}
    assert cards["wish"].name == "Wishbone" and cards["wish"].values["value"] == 5
    assert check(proj, app, "bargains") == 0
    status, answer = browser.save(
        browser.open("bargains", "deck"), "add", key="3", name="Again", copies="0", value="3", text="x"
    )
    assert status == 422 and any("duplicate" in p or "3" in p for p in answer["problems"]), answer


def starter(tmp_path: Path) -> tuple[Path, Any, Any]:
    proj = tmp_path / "starter"
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    return proj, Page(server.server_address[1], app.guard.token), (server, app)


def test_a_csv_card_changes_in_its_row_only(page: Any, tmp_path: Path) -> None:
    proj, browser, running = starter(tmp_path)
    try:
        sheet = proj / "card_data/lanterns.csv"
        db_before = (proj / "card_data/lanterns.yaml").read_bytes()
        before = sheet.read_text(encoding="utf-8")
        form = browser.open("lanterns", "deck", "paper")
        assert form["file"] == "card_data/lanterns.csv" and form["kind"] == "csv"
        assert (
            form["values"]["suit"] == "sun"
            and next(f for f in form["fields"] if f["name"] == "suit")["choices"]
        )
        status, answer = browser.save(form, name="Paper Lantern, folded", text='Worth **2**. "Fragile", too.')
        assert status == 200, answer
        after = sheet.read_text(encoding="utf-8")
        assert changed_lines(before, after) == [
            '-paper,Paper Lantern,5,2,sun,"Worth **2**. *Fragile:* a Night Wind blows it out.",Papierlaterne,'
            "Zählt **2**. *Zerbrechlich:* Ein Nachtwind bläst sie aus.",
            '+paper,"Paper Lantern, folded",5,2,sun,"Worth **2**. ""Fragile"", too.",Papierlaterne,'
            "Zählt **2**. *Zerbrechlich:* Ein Nachtwind bläst sie aus.",
        ]  # the German columns stay
        assert (proj / "card_data/lanterns.yaml").read_bytes() == db_before
        assert check(proj, running[1]) == 0
        # the multi-line row stays as it is; a copy of it lands right after it
        form = browser.open("lanterns", "deck", "wind")
        assert form["values"]["text"] == "Blow out one {sun} card on the table.\nIts owner discards it."
        status, answer = browser.save(form, "duplicate", key="gust", name="Gust", copies="0")
        assert status == 200, answer
        rows = sheet.read_text(encoding="utf-8")
        assert rows.startswith(after) and rows.endswith(
            'gust,Gust,0,0,leaf,"Blow out one {sun} card on the table.\n'
            'Its owner discards it.",Nachtwind,"Lösche eine {sun}-Karte '
            'auf dem Tisch.\nIhr Besitzer wirft sie ab."\n'
        )
        status, answer = browser.save(browser.open("lanterns", "deck", "moth"), suit="comet")
        assert status == 422 and "suit" in answer["error"]
        status, answer = browser.save(browser.open("lanterns", "deck", "moth"), copies="7")  # 20 cards in all
        assert status == 422 and answer["problems"]
        assert sheet.read_text(encoding="utf-8") == rows
    finally:
        stop(*running)


def test_an_xlsx_card_changes_in_its_row(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    assert run("new", str(tmp_path / "starter")).code == 0
    data = tmp_path / "starter/card_data"
    book = openpyxl.Workbook()
    ws = book.active
    import csv

    with (data / "lanterns.csv").open(newline="", encoding="utf-8") as fh:
        for row in csv.reader(fh):
            ws.append([int(c) if c.isdigit() else c for c in row])
    ws["A1"].font = openpyxl.styles.Font(bold=True)
    book.save(data / "lanterns.xlsx")
    (data / "lanterns.csv").unlink()
    db = data / "lanterns.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("{from: lanterns.csv}", "{from: lanterns.xlsx}"),
        encoding="utf-8",
    )
    proj, browser, running = starter(tmp_path)
    try:
        form = browser.open("lanterns", "deck", "jar")
        assert form["kind"] == "xlsx" and form["values"]["name"] == "Firefly Jar"
        status, answer = browser.save(form, name="Firefly Lamp")
        assert status == 200, answer
        ws = openpyxl.load_workbook(data / "lanterns.xlsx").active
        assert ws["B4"].value == "Firefly Lamp" and ws["A1"].font.bold and ws["B3"].value == "Paper Lantern"
        assert check(proj, running[1]) == 0
    finally:
        stop(*running)


def test_variants_and_backs_say_where_to_edit(page: Any) -> None:
    proj, browser, app = page
    variant = proj / "card_data/bargains-stack.yaml"
    variant.write_text("variant:\n  base: bargains.yaml\n  name: Stack\n  tag: BS\n", encoding="utf-8")
    form = browser.open("bargains", "deck", "nope")
    assert form["status"] == 404 and "no card 'nope'" in form["error"]
    assert browser.open("chess", "deck", "1")["status"] == 404


def _starter_as(tmp_path: Path, kind: str) -> Path:
    """The starter project, its Lantern deck's card list as `kind` (csv as made, or an xlsx copy)."""
    assert run("new", str(tmp_path / "starter")).code == 0
    data = tmp_path / "starter/card_data"
    if kind == "xlsx":
        openpyxl = pytest.importorskip("openpyxl")
        import csv

        book = openpyxl.Workbook()
        with (data / "lanterns.csv").open(newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                book.active.append([int(c) if c.isdigit() else c for c in row])
        book.save(data / "lanterns.xlsx")
        (data / "lanterns.csv").unlink()
        db = data / "lanterns.yaml"
        db.write_text(
            db.read_text(encoding="utf-8").replace("{from: lanterns.csv}", "{from: lanterns.xlsx}"),
            encoding="utf-8",
        )
    return tmp_path / "starter"


FORMULAS = {  # card: values a spreadsheet would take for formulas
    "moth": {"name": "=1+1", "text": '=HYPERLINK("http://example.invalid/","x")'},
    "paper": {"name": "+1+1", "text": "-2"},
    "jar": {"name": "@SUM(1)", "text": "'=quoted already"},
    "beacon": {"name": "-2+3", "text": "''@two quotes"},
}


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_values_a_spreadsheet_takes_for_formulas_are_saved_as_text(tmp_path: Path, kind: str) -> None:
    proj, browser, running = starter(_starter_as(tmp_path, kind).parent)
    sheet = proj / f"card_data/lanterns.{kind}"
    try:
        for card, values in FORMULAS.items():
            status, answer = browser.save(browser.open("lanterns", "deck", card), **values)
            assert status == 200, (card, answer)
            form = browser.open("lanterns", "deck", card)
            assert {k: form["values"][k] for k in values} == values  # the form reads them back
        status, answer = browser.save(
            browser.open("lanterns", "deck", "moth"), "duplicate", key="moth2", copies="0"
        )
        assert status == 200, answer
        cards = {c.key: c for c in load_game(proj / "card_data/lanterns.yaml", root=proj).components[0].cards}
        for card, values in {
            **FORMULAS,
            "moth2": FORMULAS["moth"],
        }.items():
            assert (cards[card].name, cards[card].text) == (values["name"], values["text"]), card
        assert check(proj, running[1]) == 0
    finally:
        stop(*running)
    if kind == "csv":  # OWASP: one ' in front of what a spreadsheet would compute, and only there
        import csv

        rows = {r[0]: r for r in csv.reader(sheet.read_text(encoding="utf-8").splitlines())}
        assert rows["moth"][5] == "'" + FORMULAS["moth"]["text"] and rows["paper"][5] == "'-2"
        assert rows["jar"][5] == "''=quoted already" and rows["beacon"][5] == "'''@two quotes"
        assert rows["beacon"][3] == "5" and rows["moth2"][1].startswith("'=")
    else:
        import openpyxl

        ws = openpyxl.load_workbook(sheet).active
        cells = [c for row in ws.iter_rows() for c in row if c.value is not None]
        assert not [c.coordinate for c in cells if c.data_type == "f"]  # not one formula
        texts = {c.value for c in cells if c.data_type == "s"}
        assert FORMULAS["moth"]["name"] in texts and "+1+1" in texts and "-2" in texts
        assert ws["F2"].value == FORMULAS["moth"]["text"] and ws["F2"].quotePrefix


def test_an_xlsx_sheet_holding_formulas_is_not_edited(tmp_path: Path) -> None:
    import openpyxl

    proj = _starter_as(tmp_path, "xlsx")
    sheet = proj / "card_data/lanterns.xlsx"
    book = openpyxl.load_workbook(sheet)
    book.active["C2"] = "=3+3"  # moth's copies, computed by the spreadsheet program
    book.save(sheet)
    before = sheet.read_bytes()
    proj, browser, running = starter(tmp_path)
    try:
        status, answer = browser.save(browser.open("lanterns", "deck", "jar"), name="Firefly Lamp")
        assert status == 422 and "formula (cell C2)" in answer["error"], answer
        assert sheet.read_bytes() == before
    finally:
        stop(*running)


@pytest.mark.parametrize("kind", ["csv", "xlsx", "yaml"])
def test_control_characters_are_refused_naming_the_field(page: Any, tmp_path: Path, kind: str) -> None:
    if kind == "yaml":
        proj, browser, _ = page
        game, comp, card, sheet = "bargains", "deck", "3", proj / "card_data/bargains.yaml"
    else:
        proj, browser, running = starter(_starter_as(tmp_path / kind, kind).parent)
        game, comp, card, sheet = "lanterns", "deck", "jar", proj / f"card_data/lanterns.{kind}"
    try:
        before = sheet.read_bytes()
        form = browser.open(game, comp, card)
        for name, value, what in (
            ("name", "Jar\x00", "the control character U+0000"),
            ("name", "Fire\tfly", "a tab"),
            ("name", "Fire\nfly", "a line break"),
            ("text", "bell\x07", "the control character U+0007"),
            ("text", "one\rtwo", "a carriage return"),
            ("text", "esc\x1b[31m", "the control character U+001B"),
            ("text", "c1\x85", "the control character U+0085"),
            ("name", "del\x7f", "the control character U+007F"),
        ):
            status, answer = browser.save(form, **{name: value})
            assert status == 400 and answer["error"].startswith(f"values.{name}: holds {what}"), (
                name,
                value,
                answer,
            )
        assert sheet.read_bytes() == before
        status, answer = browser.save(form, text="Tab\there\nand a line")  # the text area takes both
        assert status == 200, answer
    finally:
        if kind != "yaml":
            stop(*running)
    cards = {c.key: c for c in load_game(proj / f"card_data/{game}.yaml", root=proj).components[0].cards}
    assert cards[card].text == "Tab\there\nand a line"
    if kind == "yaml":
        import yaml

        for loader in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            data = yaml.load(sheet.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - safe loaders
            found = next(c for c in data["components"][0]["cards"] if str(c["key"]) == card)
            assert found["text"] == "Tab\there\nand a line", loader


def test_a_change_on_disk_while_a_save_is_checked_is_kept(page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    proj, browser, app = page
    db = proj / "card_data/bargains.yaml"
    outside = db.read_text(encoding="utf-8") + "# saved in another editor during the check\n"
    checking = app.editor._check

    def meanwhile(*args: Any) -> None:  # someone saves the file while the edit is being checked
        db.write_text(outside, encoding="utf-8")
        checking(*args)

    monkeypatch.setattr(app.editor, "_check", meanwhile)
    form = browser.open("bargains", "deck", "3")
    status, answer = browser.save(form, name="Acorn cap")
    assert status == 409 and answer["reload"] and "changed on disk while" in answer["error"], answer
    assert db.read_text(encoding="utf-8") == outside  # the outside change is kept, nothing lost
    assert not list(db.parent.glob(".*pnp-edit*"))
    status, answer = browser.post("/api/undo", {})
    assert status == 409 and answer["error"] == "nothing to undo"  # the refused save is not undoable
    monkeypatch.setattr(app.editor, "_check", checking)
    status, answer = browser.save(browser.open("bargains", "deck", "3"), name="Acorn cap")
    assert status == 200, answer
    text = db.read_text(encoding="utf-8")
    assert text.endswith("# saved in another editor during the check\n") and "name: Acorn cap" in text
