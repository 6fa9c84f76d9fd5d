"""One deck, many languages: Feenbalz built in English and German, the checks that every language
is complete and fits, pnp's own words per language, and the starter's two languages."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, codes_in, make_project, page_texts, run


def _text(pdf: Path) -> str:
    """A PDF's text with every run of white space (line breaks of wrapped text too) as one space."""
    return " ".join(" ".join(page_texts(pdf)).split())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Feenbalz built in every language it is written in."""
    dest = make_project(tmp_path_factory.mktemp("fz") / "p", ("feenbalz",))
    r = run("build", "feenbalz", "--lang", "all", "--tuckbox", "--project", str(dest))
    assert r.code == 0, r.out + r.err
    return dest / "output"


def test_both_languages_print_their_own_words(built: Path) -> None:
    en, de = built / "feenbalz", built / "feenbalz" / "de"
    objects_en, objects_de = _text(en / "objects.pdf"), _text(de / "objects.pdf")
    assert "Yellow Beetle" in objects_en and "Gelber Käfer" not in objects_en
    assert "Gelber Käfer" in objects_de and "Yellow Beetle" not in objects_de
    assert "Violette Blume" in objects_de and "Hufeisen" in objects_de
    fairies_de = _text(de / "fairies.pdf")
    assert "Die Schwarze Fee" in fairies_de and "mag nicht" in fairies_de and "dislikes" not in fairies_de
    berries_de = _text(de / "berries.pdf")
    assert "Ziehe zwei Gegenstandskarten vom Stapel." in berries_de and "Draw two" not in berries_de
    assert "Die Balz auf einen Blick" in _text(de / "overview.pdf")
    board_de = _text(de / "market-mat.pdf")
    assert "Der Tauschmarkt" in board_de and "Exchange market" not in board_de
    assert (
        "über das Nachbarteil legen" in board_de and "50 mm" in board_de
    )  # pnp's own words, from its catalogue


def test_the_booklets_are_written_per_language_from_the_same_facts(built: Path) -> None:
    en = _text(built / "feenbalz" / "rules.pdf")
    de = _text(built / "feenbalz" / "de" / "rules.pdf")
    assert "Getting ready" in en and "Vorbereitung" not in en
    assert "Vorbereitung" in de and "Getting ready" not in de
    assert "Die Schwarze Fee" in de and "Zusatzregeln: Zauberbeeren" in de
    # the numbers come from the database in both: five cards dealt, a market of five, nine at most
    assert "deal five" in en and "gebt jedem verdeckt fünf" in de
    assert "Höchstens neun Karten" in de


def test_the_same_cards_and_codes_in_every_language(built: Path) -> None:
    for name in ("objects", "fairies", "berries", "overview"):
        en = codes_in(built / "feenbalz" / f"{name}.pdf")
        de = codes_in(built / "feenbalz" / "de" / f"{name}.pdf")
        assert en and en == de, name
        assert len(PdfReader(built / "feenbalz" / f"{name}.pdf").pages) == len(
            PdfReader(built / "feenbalz" / "de" / f"{name}.pdf").pages
        )


def test_pnps_own_words_follow_the_language(built: Path) -> None:
    check_en = _text(built / "feenbalz" / "checklist.pdf")
    check_de = _text(built / "feenbalz" / "de" / "checklist.pdf")
    assert "Feenbalz: checklist" in check_en and "In all: " in check_en
    assert "Feenbalz: Prüfliste" in check_de and "Insgesamt: " in check_de and "In all" not in check_de
    assert "Gegenstandskarten" in check_de
    sheet = page_texts(built / "feenbalz" / "de" / "objects.pdf")[0]
    assert "Bogen 1 von" in sheet and "Vorderseiten" in sheet and "sheet 1 of" not in sheet
    box_en = _text(built / "feenbalz" / "objects-tuckbox.pdf")
    box_de = _text(built / "feenbalz" / "de" / "objects-tuckbox.pdf")
    assert (
        "tuck box for 69 cards" in box_en and "Schachtel für 69 Karten" in box_de and "tuck box" not in box_de
    )


def test_the_print_guide_and_the_catalogue_are_complete_in_german() -> None:
    from pnp.data.format.messages import ENGLISH
    from pnp.data.reading.loader import load_game
    from pnp.data.reading.messages import read_words
    from pnp.output.print_guide import guide_sections

    words, problems = read_words(ROOT, "de")
    assert not problems and set(words) == set(ENGLISH)  # every phrase pnp prints has its German
    game = load_game(ROOT / "card_data" / "feenbalz.yaml", lang="de")
    files = [
        "a4/duplex/objects.pdf",
        "a4/gutterfold/objects.pdf",
        "a4/checklist.pdf",
        "a4/objects-tuckbox.pdf",
    ]
    sections = guide_sections(game, "a4", files)
    assert [h for h, _ in sections][:3] == ["Welche Dateien", "Vor dem Drucken", "Drucker mit Duplex"]
    assert "a4/: checklist.pdf; Schachteln: objects-tuckbox.pdf." in sections[0][1]


def test_the_manifest_records_each_language(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["builds"]["feenbalz"]["language"] == "en"
    assert manifest["builds"]["feenbalz/de"]["language"] == "de"
    paths = {f["path"] for f in manifest["files"]}
    assert "feenbalz/objects.pdf" in paths and "feenbalz/de/objects.pdf" in paths


def test_an_unchanged_language_is_not_built_again(built: Path, tmp_path: Path) -> None:
    dest = built.parent
    r = run("build", "feenbalz", "--lang", "de", "--tuckbox", "--project", str(dest))
    assert r.code == 0 and "Up to date" in r.out, r.out + r.err
    r = run("build", "feenbalz", "--tuckbox", "--project", str(dest))  # English alone leaves the German be
    assert r.code == 0 and "Up to date" in r.out, r.out + r.err
    assert (built / "feenbalz" / "de" / "objects.pdf").is_file()


def _fz_project(tmp_path: Path) -> tuple[Path, Path]:
    dest = make_project(tmp_path / "p", ("feenbalz",))
    return dest, dest / "card_data" / "feenbalz.yaml"


def test_check_names_a_missing_german_text(tmp_path: Path) -> None:
    dest, db = _fz_project(tmp_path)
    text = db.read_text(encoding="utf-8")
    assert "name: {en: Cobweb, de: Spinnweb}" in text
    db.write_text(text.replace("name: {en: Cobweb, de: Spinnweb}", "name: {en: Cobweb}"), encoding="utf-8")
    line = next(i for i, s in enumerate(db.read_text(encoding="utf-8").splitlines(), 1) if "Cobweb" in s)
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 1, r.out + r.err
    assert f"card_data/feenbalz.yaml:{line}: components[fairies].cards[F11].name: no de text" in r.out, r.out
    assert re.search(r"^feenbalz \(FZ\): \d+ rules, ok$", r.out, re.M), r.out  # English is complete
    r = run("check", "feenbalz", "--lang", "en", "--project", str(dest))
    assert r.code == 0, r.out + r.err  # --lang limits the check to one language
    r = run("build", "feenbalz", "--lang", "de", "--project", str(dest))
    assert r.code == 0, r.out + r.err  # a build goes on: the English name stands in
    assert "Cobweb" in _text(dest / "output" / "feenbalz" / "de" / "fairies.pdf")


def test_check_reports_a_german_text_too_long_for_its_box(tmp_path: Path) -> None:
    dest, db = _fz_project(tmp_path)
    text = db.read_text(encoding="utf-8")
    short = 'de: "Nach deiner Aktion darfst du noch einmal sammeln oder tauschen."'
    assert short in text
    long = "Nach deiner Aktion darfst du noch einmal sammeln oder tauschen, " * 12
    db.write_text(text.replace(short, f'de: "{long}"'), encoding="utf-8")
    assert run("check", "feenbalz", "--lang", "en", "--project", str(dest)).code == 0
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 2, r.out + r.err
    assert re.search(r"card FZ-MB10: text does not fit its [\d.]+ x [\d.]+ mm box", r.err), r.err


def test_a_language_not_declared_is_a_clear_error(tmp_path: Path) -> None:
    dest, db = _fz_project(tmp_path)
    r = run("build", "feenbalz", "--lang", "fr", "--project", str(dest))
    assert r.code == 2
    assert "feenbalz is not written in 'fr'; its languages: en, de" in r.err, r.err
    r = run("check", "--lang", "fr", "--project", str(dest))
    assert r.code == 2 and "no game is written in 'fr'" in r.err, r.err
    assert not (dest / "output").exists()
    text = db.read_text(encoding="utf-8")
    db.write_text(
        text.replace(
            "subtitle: {en: a fairy lady, de: eine Feendame}",
            "subtitle: {en: a fairy lady, de: eine Feendame, fr: une dame}",
            1,
        ),
        encoding="utf-8",
    )
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 2 and "language 'fr' is not declared in game.languages (en, de)" in r.err, r.err


def test_a_german_character_the_font_lacks_is_named(tmp_path: Path) -> None:
    dest, db = _fz_project(tmp_path)
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace("de: Tautropfenbeere", "de: Tautropfenbeere \u706f"), encoding="utf-8")
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 2 and "has no glyph for '\u706f'" in r.err, r.err


def test_a_project_catalogue_overrides_pnps_words(tmp_path: Path) -> None:
    dest, _ = _fz_project(tmp_path)
    (dest / "messages").mkdir()
    (dest / "messages" / "de.yaml").write_text('in_all: "Alles zusammen: {count} Karten"\n', encoding="utf-8")
    r = run("build", "feenbalz", "--lang", "de", "--project", str(dest))
    assert r.code == 0, r.out + r.err
    assert "Alles zusammen: " in _text(dest / "output" / "feenbalz" / "de" / "checklist.pdf")
    (dest / "messages" / "de.yaml").write_text('in_all: "Alles: {anzahl}"\nsheeet: x\n', encoding="utf-8")
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 2
    assert "messages/de.yaml:1: in_all: the phrase must use the blanks {count}" in r.err, r.err
    assert "messages/de.yaml:2: sheeet: pnp has no phrase called 'sheeet' (did you mean 'sheet'?)" in r.err, (
        r.err
    )


def test_the_starter_speaks_two_languages_and_names_a_missing_cell(tmp_path: Path) -> None:
    dest = tmp_path / "mine"
    assert run("new", str(dest)).code == 0
    r = run("build", "--lang", "all", "--project", str(dest))
    assert r.code == 0, r.out + r.err
    assert "Leuchtmotte" in _text(dest / "output" / "lanterns" / "de" / "deck.pdf")
    assert "Was ihr braucht" in _text(dest / "output" / "lanterns" / "de" / "rules.pdf")
    sheet = dest / "card_data" / "lanterns.csv"
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    column = rows[0].index("name@de")
    row = next(i for i, r in enumerate(rows) if r[0] == "jar")
    rows[row][column] = ""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    sheet.write_text(out.getvalue(), encoding="utf-8")
    r = run("check", "--project", str(dest))
    assert r.code == 1, r.out + r.err
    assert f"card_data/lanterns.csv:{row + 1}: column G (name@de) of card jar: no de text" in r.out, r.out


def test_english_builds_of_every_game_are_unchanged_by_languages() -> None:
    """Games that declare no languages read as before: no gaps, the default language, the plain folder."""
    from pnp.data.reading.loader import load_game

    for path in sorted((ROOT / "card_data").glob("*.yaml")):
        game = load_game(path)
        assert game.lang == game.game.languages[0] and game.slug == path.stem
        assert not [g for g in game.gaps if g.language == game.lang], path


def test_exports_take_a_language_too(built: Path) -> None:
    dest = built.parent
    r = run("preview", "feenbalz", "--lang", "de", "--project", str(dest))
    assert r.code == 0, r.out + r.err
    assert (built / "feenbalz" / "de" / "preview" / "fairies.png").is_file()
    assert not (built / "feenbalz" / "preview").exists()


def test_a_card_key_cannot_differ_by_language(tmp_path: Path) -> None:
    dest, db = _fz_project(tmp_path)
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace("{key: F11,", "{key: {en: F11, de: F11x},"), encoding="utf-8")
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 2 and re.search(
        r"feenbalz\.yaml:\d+: components\[fairies\]\.cards\[10\]\.key: a key or tag is "
        "the same in every language",
        r.err,
    ), r.err


def test_a_booklet_without_its_german_template_is_named(tmp_path: Path) -> None:
    dest, _ = _fz_project(tmp_path)
    (dest / "templates" / "feenbalz.de.md.j2").unlink()
    r = run("check", "feenbalz", "--project", str(dest))
    assert r.code == 1 and "rules.template: no de booklet: add templates/feenbalz.de.md.j2" in r.out, r.out
