"""The stacked-deck statistics report: exact odds, seeded combat, text, JSON and the one-page PDF."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from test_stacking import MAIN, make_project

from pnp.data.format.facts import combat_rules
from pnp.data.format.model import Game
from pnp.data.reading.loader import base_component, load_game
from pnp.data.reading.variants import fairy_cards
from pnp.data.stacking.stack import VariantSpec, write_variant
from pnp.engines.cards import parse_card
from pnp.engines.combat import SidePlay, resolve_attack
from pnp.output.stats_report import format_text, report
from pnp.output.stats_sheet import write_pdf
from pnp.resolve.fonts import Fonts

TRIALS = 400


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("stats") / "proj")


def variant(project: Path, name: str, **changes) -> Game:
    spec = VariantSpec(name=name, base="fairy-meat", **changes)
    return load_game(write_variant(project / "card_data" / "variants" / f"{name}.yaml", spec, project))


def exact(p: dict) -> Fraction:
    return Fraction(p["exact"])


def test_standard_deck_odds_are_exact_combinatorics(project: Path) -> None:
    game = variant(project, "plain")
    rep = report(game, base_component(game), trials=TRIALS)
    d = rep["odds"]["deck"]
    assert rep["cards"] == rep["standard_cards"] == 54
    assert rep["by_role"] == {"Trump": 16, "Numbered": 36, "Joker": 2}
    assert exact(d["p_trump"]) == Fraction(16, 54)
    assert exact(d["p_joker"]) == Fraction(2, 54)
    assert exact(d["p_ace_of_spades"]) == Fraction(1, 54)
    assert exact(d["p_no_numbered"]["4"]) == Fraction(comb(18, 4), comb(54, 4))
    # Two fairies tie when both Order cards share a rank: 13 ranks x C(4, 2) pairs out of C(54, 2).
    assert exact(d["p_order_tie"]["2"]) == Fraction(13 * comb(4, 2), comb(54, 2))
    assert all(exact(p) == Fraction(1, 9) for p in d["numbered_value_distribution"].values())
    assert d["colours"] == {"red": 26, "black": 26, "none": 2}
    # With no changes the variant is the standard deck, so even the simulation agrees exactly.
    for m in rep["combat"]["matchups"]:
        assert m["variant"] == m["standard"]
    assert rep["warnings"] == [] and rep["notes"] == []


def test_stacked_composition_and_odds(project: Path) -> None:
    game = variant(project, "bloody", decks=2, remove=("4-6",), add=("2-3 of hearts,spades",), jokers=2)
    rep = report(game, base_component(game), trials=TRIALS)
    assert rep["cards"] == 86 and rep["by_role"] == {"Trump": 32, "Numbered": 52, "Joker": 2}
    d = rep["odds"]["deck"]
    assert exact(d["p_trump"]) == Fraction(32, 86)
    assert exact(d["p_ace_of_spades"]) == Fraction(2, 86)
    assert d["numbered_values"] == {"2": 10, "3": 10, "4": 0, "5": 0, "6": 0, "7": 8, "8": 8, "9": 8, "10": 8}
    assert exact(d["numbered_value_distribution"]["2"]) == Fraction(10, 52)
    assert exact(d["p_no_numbered"]["3"]) == Fraction(comb(34, 3), comb(86, 3))
    assert rep["composition"]["variant"]["suit"] == {
        "clubs": 20,
        "diamonds": 20,
        "hearts": 22,
        "none": 2,
        "spades": 22,
    }
    # Order ties get likelier: the checker's warning says so, in numbers.
    assert exact(d["p_order_tie"]["4"]) > exact(rep["odds"]["base"]["p_order_tie"]["4"])
    assert [n["rule"] for n in rep["notes"]] == [
        "deck-size",
        "sixteen-trumps",
        "order-ties [tie=0.7987, base_tie=0.6187, margin=0.075]",
    ]


def test_combat_is_seeded_and_shows_a_bloodier_stack(project: Path) -> None:
    game = variant(project, "bloody2", remove=("4-7",), add=("2-3", "9-10"))
    base = base_component(game)
    one = report(game, base, trials=2000, seed=5)["combat"]
    assert one == report(game, base, trials=2000, seed=5)["combat"]  # reproducible run to run
    assert one != report(game, base, trials=2000, seed=6)["combat"]
    assert one["trials"] == 2000 and [(m["kill"], m["live"]) for m in one["matchups"]] == [
        (2, 2),
        (3, 3),
        (5, 2),
    ]
    for m in one["matchups"]:
        assert 0 <= m["variant"]["p_cheat"] <= 1 and m["variant"]["attacker_cards"] == m["kill"] + 1
    # Only extreme values left: small hands deal more damage and more Nasty Hits per attack.
    for m in one["matchups"][:2]:
        assert m["variant"]["expected_damage"] > m["standard"]["expected_damage"] + 0.1
        assert m["variant"]["p_nasty_hit"] > m["standard"]["p_nasty_hit"] + 0.03


def test_variant_file_carries_trials_and_seed(project: Path) -> None:
    game = variant(project, "quick", decks=2, trials=250, seed=3)
    rep = report(game, base_component(game))
    assert (rep["combat"]["trials"], rep["combat"]["seed"]) == (250, 3)
    assert "base_file" not in rep["variant"]


def test_seed_example_through_the_deck_contract(project: Path) -> None:
    """Dizzytwig's first attack, with cards taken from the database rather than typed in."""
    game = load_game(project / "card_data" / "fairy-meat.yaml")
    deck, rules = game.component("fairy-deck"), combat_rules(game.facts)
    by_key = {c.key: card for c, card in zip(deck.cards, fairy_cards(deck))}
    assert len(fairy_cards(deck)) == 54 and by_key["JK1"].is_joker and by_key["AS"].is_ace_of_spades
    assert by_key["KS"] == parse_card("KS") and by_key["10H"] == parse_card("10H")
    dizzy = SidePlay(by_key["3D"], "subtract", (by_key["KS"], by_key["QC"]))
    sparky = SidePlay(by_key["2D"], "add", (by_key["KC"],))
    r = resolve_attack(dizzy, sparky, rules=rules)
    assert (r.attacker_value, r.defender_value, r.winner, r.points) == (2, 3, "defender", 1)
    r = resolve_attack(SidePlay(by_key["5C"], "subtract", (by_key["KS"], by_key["QC"])), sparky, rules=rules)
    assert (r.attacker_value, r.defender_value, r.winner, r.damage) == (2, 3, "attacker", 1)


def test_text_report(project: Path) -> None:
    game = variant(project, "lopsided", remove=("2-10 of clubs", "trumps of hearts"))
    text = format_text(report(game, base_component(game), trials=TRIALS))
    assert text.startswith("Fairy Meat variant lopsided: 41 cards (standard deck 54)")
    assert "by role: Trump 12 (std 16), Numbered 27 (std 36), Joker 2 (std 2)" in text
    assert "a Trump per draw" in text and "29.3%" in text and "29.6%" in text
    assert "Kill 3 vs Live 3: damage / attack" in text
    assert "warning: even-trump-colours" in text and "red 4, black 8" in text


def test_one_page_pdf_with_charts(project: Path, tmp_path: Path) -> None:
    game = variant(project, "pdfcheck", decks=2, remove=("4-6",), color="#1f5a8c", mark="Z")
    rep = report(game, base_component(game), trials=TRIALS)
    path = tmp_path / "stats.pdf"
    assert write_pdf(path, rep, Fonts.load(MAIN / "fonts"), game.style.accent, game.style.ink) == 1
    assert len(PdfReader(path).pages) == 1
    with pdfplumber.open(path) as pdf:  # every glyph, chart labels too, in the project's fonts
        used = {ch["fontname"].split("+")[-1] for ch in pdf.pages[0].chars}
    assert used and all(f.startswith("DejaVu") for f in used), used
    doc = pdfium.PdfDocument(path)
    page = doc[0]
    text = page.get_textpage().get_text_range()
    for needle in (
        "stacked deck \u201cpdfcheck\u201d",
        "Cards by role",
        "Numbered values",
        "Order ties by number",
        "Expected damage per attack",
        "Nasty Hit chance",
        "Playing strategy",
        "this variant / standard",
        "Kill 3 vs Live 3",
        "29.6%",
        "Checks",
    ):
        assert needle in text, needle
    image = page.render(scale=0.5).to_pil().convert("RGB")
    w, h = image.size
    assert image.getpixel((w // 3, 8)) == pytest.approx(
        (0x1F, 0x5A, 0x8C), abs=3
    )  # band in the variant colour
    band = [image.getpixel((x, y)) for x in range(w) for y in range(int(h * 0.17), int(h * 0.30), 3)]
    assert (
        sum(1 for p in band if abs(p[0] - 0x1F) < 6 and abs(p[2] - 0x8C) < 6) > 200
    )  # composition bars drawn
    doc.close()


def test_other_decks_get_composition_only(project: Path, tmp_path: Path) -> None:
    spec = VariantSpec(name="rich", base="bargains", add=("10s", "10s"))
    game = load_game(write_variant(project / "card_data" / "variants" / "rich.yaml", spec, project))
    rep = report(game, base_component(game))
    assert rep["cards"] == 91 and rep["standard_cards"] == 65 and "combat" not in rep and rep["by_role"] == {}
    assert rep["composition"]["variant"]["value"] == {"1": 13, "3": 13, "5": 13, "7": 13, "10": 39}
    path = tmp_path / "rich.pdf"
    write_pdf(path, rep, Fonts.load(MAIN / "fonts"), game.style.accent)
    doc = pdfium.PdfDocument(path)
    text = doc[0].get_textpage().get_text_range()
    assert "Cards by value" in text and "Fairy Decks" in text
    doc.close()
