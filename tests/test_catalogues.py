"""pnp's own words in every language it ships (en, de, fr, es, it, nl, pl, pt): complete catalogues, a
French game printed in French (footers, checklist, print guide, reprint), a warning for a language
pnp has no words in, and a reprint in the language asked for that names cards as they were printed."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from conftest import ROOT, run

SHIPPED = ("de", "fr", "es", "it", "nl", "pl", "pt")

GAME = """game: {name: Jeu des Bois, tag: JB, players: {min: 1, max: 4}, languages: LANGS}
faces:
  f:
    layout: value
    slots: {value: "{{ card.n }}", title: "{{ card.name }}", text: "{{ card.text }}"}
backs:
  plain:
    layout: back
    slots: {title: Jeu des Bois}
components:
  - key: deck
    kind: deck
    name: NAMES
    face: f
    back: plain
    fields:
      n: {type: int}
    cards:
      - {key: a, name: ALDER, n: 1, copies: 2, text: TEXT}
      - {key: b, name: BIRCH, n: 2, text: TEXT}
      - {key: c, name: CEDAR, n: 3, text: TEXT}
"""


def _project(tmp_path: Path, langs: str, *, alder: str = "Aulne") -> Path:
    """A project with one small deck; with two languages every text is given in both."""
    text = GAME.replace("LANGS", langs)
    if langs == "[en, fr]":
        pairs = {
            "NAMES": "{en: Deck, fr: Paquet}",
            "ALDER": f"{{en: Alder, fr: {alder}}}",
            "BIRCH": "{en: Birch, fr: Bouleau}",
            "CEDAR": "{en: Cedar, fr: Cèdre}",
            "TEXT": "{en: Words., fr: Des mots.}",
        }
    else:
        pairs = {"NAMES": "Paquet", "ALDER": alder, "BIRCH": "Bouleau", "CEDAR": "Cèdre", "TEXT": "Des mots."}
    for key, value in pairs.items():
        text = text.replace(key, value)
    root = tmp_path / "proj"
    (root / "card_data").mkdir(parents=True, exist_ok=True)
    if not (root / "fonts").exists():
        import shutil

        shutil.copytree(ROOT / "fonts", root / "fonts")
    (root / "card_data" / "woods.yaml").write_text(text, encoding="utf-8")
    return root


def _words(pdf: Path) -> list[str]:
    """Each page's text (pdfplumber), white space runs as one space."""
    with pdfplumber.open(pdf) as doc:
        return [" ".join((page.extract_text() or "").split()) for page in doc.pages]


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_catalogue_has_every_phrase_with_its_blanks(lang: str) -> None:
    from pnp.data.format.messages import ENGLISH, blanks
    from pnp.data.reading.messages import read_words
    from pnp.data.reading.project import SHIPPED_MESSAGES

    assert (SHIPPED_MESSAGES / f"{lang}.yaml").is_file()
    words, problems = read_words(ROOT / "no-such-project", lang)
    assert not problems, problems
    assert set(words) == set(ENGLISH)
    for key, text in words.items():
        assert blanks(text) == blanks(ENGLISH[key]), (lang, key)
        assert text.strip() == text and "\n" not in text, (lang, key)
    if lang != "de":  # translated, not copied: most phrases differ from English and from German
        german, _ = read_words(ROOT / "no-such-project", "de")
        same = [k for k in words if words[k] in (ENGLISH[k], german[k])]
        assert len(same) < 6, (lang, same)


def test_a_french_game_prints_pnps_words_in_french(tmp_path: Path) -> None:
    root = _project(tmp_path, "[fr]")
    r = run("build", "woods", "--project", str(root))
    assert r.code == 0, r.out + r.err
    out = root / "output" / "woods"
    fronts, backs = _words(out / "deck.pdf")
    assert "feuille 1 sur 1 recto" in fronts and "feuille 1 sur 1 verso" in backs
    assert "sheet 1 of" not in fronts + backs
    checklist = " ".join(_words(out / "checklist.pdf"))
    assert "Jeu des Bois : liste de contrôle" in checklist and "Au total : 4 cartes" in checklist
    assert "Cochez une case" in checklist and "In all" not in checklist and "checklist" not in checklist

    from pnp.data.reading.loader import load_game
    from pnp.geometry.sizes import paper_size
    from pnp.output.print_guide import write_guide
    from pnp.resolve.fonts import Fonts

    game = load_game(root / "card_data" / "woods.yaml")
    guide = tmp_path / "guide.pdf"
    guide.write_bytes(write_guide(game, paper_size("a4"), ["a4/duplex/deck.pdf"], Fonts.load(root / "fonts")))
    text = " ".join(_words(guide))
    assert "Jeu des Bois : imprimer et découper" in text and "Avant d'imprimer" in text
    assert "Imprimante recto verso" in text and "Découpe" in text and "Before you print" not in text


def test_check_warns_of_a_language_pnp_has_no_words_in(tmp_path: Path) -> None:
    root = _project(tmp_path, "[sv]")
    r = run("check", "woods", "--project", str(root))
    assert r.code == 0, r.out + r.err
    assert "warning: pnp has no words of its own in 'sv'" in r.out, r.out
    assert "add messages/sv.yaml" in r.out
    (root / "messages").mkdir()  # the project's own words silence it
    (root / "messages" / "sv.yaml").write_text('in_all: "Totalt: {count} kort"\n', encoding="utf-8")
    r = run("check", "woods", "--project", str(root))
    assert r.code == 0 and "no words of its own" not in r.out, r.out + r.err
    for shipped in ("fr", "en"):  # and a language pnp ships needs nothing
        root = _project(tmp_path / shipped, f"[{shipped}]")
        r = run("check", "woods", "--project", str(root))
        assert r.code == 0 and "no words of its own" not in r.out, r.out + r.err


def test_a_reprint_is_in_the_language_asked_for_and_takes_out_cards_by_their_printed_name(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, "[en, fr]")
    r = run("build", "woods", "--lang", "fr", "--duplex", "off", "--tag", "round1", "--project", str(root))
    assert r.code == 0, r.out + r.err
    assert (root / "prints" / "woods" / "fr" / "round1.json").is_file()
    _project(tmp_path, "[en, fr]", alder="Aulne Noir")  # the French name of a card changes
    r = run(
        "build",
        "woods",
        "--only-changed",
        "--since",
        "round1",
        "--lang",
        "fr",
        "--duplex",
        "off",
        "--project",
        str(root),
    )
    assert r.code == 0, r.out + r.err
    pages = _words(root / "output" / "woods" / "fr" / "reprint.pdf")
    assert "Aulne Noir" in pages[0] and "Alder" not in " ".join(pages)  # the card, in French
    assert "recto" in pages[0] and "fronts" not in pages[0]
    listing = pages[-1]
    assert "Jeu des Bois : réimpression" in listing and "l'impression « round1 »" in listing
    take_out, put_in = listing.split("À ajouter depuis cette réimpression")
    assert "À retirer du paquet imprimé" in take_out
    assert "JB-a Aulne (modifiée : name)" in take_out and "Aulne Noir" not in take_out
    assert "JB-a Aulne Noir (modifiée : name)" in put_in
    assert "Take out" not in listing and "changed" not in listing


def test_an_english_reprint_takes_out_the_printed_name(tmp_path: Path) -> None:
    root = _project(tmp_path, "[en, fr]")
    r = run("build", "woods", "--duplex", "off", "--tag", "round1", "--project", str(root))
    assert r.code == 0, r.out + r.err
    text = (root / "card_data" / "woods.yaml").read_text(encoding="utf-8")
    (root / "card_data" / "woods.yaml").write_text(
        text.replace("en: Birch", "en: Silver Birch"), encoding="utf-8"
    )
    r = run(
        "build", "woods", "--only-changed", "--since", "round1", "--duplex", "off", "--project", str(root)
    )
    assert r.code == 0, r.out + r.err
    listing = _words(root / "output" / "woods" / "reprint.pdf")[-1]
    take_out, put_in = listing.split("Put in from this reprint")
    assert "Take out of the printed deck" in take_out and "JB-b Birch (changed: name)" in take_out
    assert "Silver" not in take_out and "JB-b Silver Birch (changed: name)" in put_in
    assert "Cards changed since print 'round1'." in listing
