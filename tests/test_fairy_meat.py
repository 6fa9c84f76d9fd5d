"""Fairy Meat: the Fairy Deck and reference cards counted in the built PDFs, text sizes,
the Nasty Hits table against the combat engine, and the checker on broken copies."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.format.facts import nasty_table
from pnp.data.reading.loader import load_game

from conftest import page_texts

ROOT = Path(__file__).resolve().parents[1]
DB = ROOT / "card_data" / "fairy-meat.yaml"
CODE = re.compile(r"\bFM-([A-Za-z0-9-]+)\b")
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


@pytest.fixture(scope="module")
def game():
    return load_game(DB)


@pytest.fixture(scope="module")
def built(shared_build) -> Path:
    return shared_build()


def run_check(path: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", str(path), "--project", str(ROOT), *extra])
    return result.exit_code, result.output


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = DB.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "fairy-meat.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- built PDFs


def test_fairy_deck_composition_by_collation_code(built: Path, game) -> None:
    texts = page_texts(built / "fairy-meat" / "fairy-deck.pdf")
    found = Counter(CODE.findall("\n".join(texts)))
    assert sum(found.values()) == 54
    assert set(found.values()) == {1}
    keys = set(found)
    assert keys == {c.key for c in game.component("fairy-deck").cards}
    suited = keys - {"JK1", "JK2"}
    assert suited == {r + s for r in RANKS for s in SUITS}
    trumps = [k for k in suited if k[:-1] in ("J", "Q", "K", "A")]
    reds = [k for k in suited if k[-1] in "HD"]
    assert len(trumps) == 16 and len(suited) - len(trumps) == 36
    assert len(reds) == 26 == len(suited) - len(reds)


def test_roles_printed_at_both_ends(built: Path) -> None:
    text = "\n".join(page_texts(built / "fairy-meat" / "fairy-deck.pdf"))
    assert text.count("TRUMP · DEADLY") == 2  # only the Ace of Spades, at both ends
    assert len(re.findall(r"TRUMP(?! · DEADLY)", text)) == 15 * 2
    assert len(re.findall(r"NUMBERED · (\d+)", text)) == 36 * 2
    values = Counter(re.findall(r"NUMBERED · (\d+)", text))
    assert values == {str(v): 8 for v in range(2, 11)}
    assert text.count("JOKER") == 2 * 2


def test_reference_cards_and_manifest(built: Path, game) -> None:
    texts = page_texts(built / "fairy-meat" / "reference.pdf")
    found = Counter(CODE.findall("\n".join(texts)))
    assert dict(found) == {c.key: 1 for c in game.component("reference").cards}
    manifest = json.loads((built / "manifest.json").read_text())
    entries = {f["component"]: f for f in manifest["files"] if f["game"] == "FM"}
    assert entries["fairy-deck"]["cards"] == 54 and entries["fairy-deck"]["card_size_mm"] == [63.0, 88.0]
    assert entries["reference"]["cards"] == 7
    assert "checklist" in entries


def test_reference_text_is_legible(built: Path) -> None:
    """Every character on the reference faces is at least 6.5 pt, except the 5.5 pt collation code."""
    with pdfplumber.open(built / "fairy-meat" / "reference.pdf") as pdf:
        page = pdf.pages[0]
        sheet_label_top = page.height - 40  # page furniture (scale bar, sheet label) sits below the cards
        small = [
            c
            for c in page.chars
            if c["top"] < sheet_label_top and c["size"] < 6.5 and not (5.4 <= c["size"] <= 5.6)
        ]
        sizes = {round(c["size"], 1) for c in page.chars if c["top"] < sheet_label_top}
    assert not small, "".join(c["text"] for c in small)[:80]
    assert 5.5 in sizes  # the codes are there


def test_nasty_hits_cards_match_the_engine(game, built: Path) -> None:
    """The printed Nasty Hits cards show every row (band and result) of the table the engine uses."""
    table = nasty_table(game.facts)
    assert len(table.rows) == 12 and table.effect(-5).name == "Spawny Get" and table.effect(40).fatal
    words = " ".join(" ".join(page_texts(built / "fairy-meat" / "reference.pdf")).split())
    for row in table.rows:
        assert f"{row.name}." in words and row.band in words, (row.band, row.name)


# --------------------------------------------------------------------------- checker


def test_database_passes_without_warnings() -> None:
    code, out = run_check(DB)
    assert code == 0, out
    assert "broken" not in out and "warning" not in out


def test_missing_suit_card_is_reported(tmp_path: Path) -> None:
    line = '      - {key: "7C",  name: Seven of Clubs,     rank: "7",  suit: clubs, colour: black, role: numbered, value: 7}\n'
    path = broken_copy(tmp_path, line, "")
    code, out = run_check(path)
    assert code == 1
    assert "standard-52 [suit=clubs, rank=7]: expected exactly 1 card, found 0" in out
    assert "deck-size" in out and "numbered-colour-balance" in out


def test_wrong_colour_is_reported(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        'name: Two of Hearts,      rank: "2",  suit: hearts, colour: red,',
        'name: Two of Hearts,      rank: "2",  suit: hearts, colour: black,',
    )
    code, out = run_check(path)
    assert code == 1
    assert "suit-colours" in out


def test_wrong_role_and_value_are_reported(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        'rank: "9",  suit: spades, colour: black, role: numbered, value: 9}',
        'rank: "9",  suit: spades, colour: black, role: trump, value: 8}',
    )
    code, out = run_check(path)
    assert code == 1
    assert "trump-ranks" in out and "numbered-values [r=9]" in out and "roles [role=trump]" in out


def test_unbalanced_stack_warns_but_passes_balance(tmp_path: Path) -> None:
    """Dropping the red 2-10 of hearts unbalances the colours: balance rules warn, not break."""
    text = DB.read_text(encoding="utf-8")
    kept = [ln for ln in text.splitlines(keepends=True) if not re.search(r'key: "(?:[2-9]|10)H"', ln)]
    path = tmp_path / "fairy-meat.yaml"
    path.write_text("".join(kept), encoding="utf-8")
    code, out = run_check(path, "--json")
    report = json.loads(out)
    violations = {v["rule"].split(" [")[0]: v["severity"] for v in report["games"][0]["violations"]}
    assert violations["colour-balance"] == "warning"
    assert violations["numbered-colour-balance"] == "warning"
    assert "trump-colour-balance" not in violations
    assert violations["deck-size"] == "error"
