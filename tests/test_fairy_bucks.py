"""Fairy Bucks: built PDFs hold exactly the database's cards, the checker catches broken copies,
and --players is range-checked."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.format.colours import luminance
from pnp.data.reading.loader import load_game
from pnp.draw.context import color
from pnp.geometry.grid import choose_grid
from pnp.geometry.sizes import card_size, paper_size

from conftest import assert_check_names, codes_in

ROOT = Path(__file__).resolve().parents[1]
DB = ROOT / "card_data" / "fairy-bucks.yaml"
PLAYERS = 3


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--project", str(ROOT)])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fb")
    result = run("build", "fairy-bucks", "--out", str(out), "--players", str(PLAYERS))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def game():
    return load_game(DB)


@pytest.mark.parametrize("component", ["items", "castle", "money", "scoring"])
def test_built_pdf_holds_each_card_as_often_as_the_database_says(built, game, component):
    comp = game.component(component)
    sets = PLAYERS if comp.sets else 1
    expected = Counter({game.code(c): c.copies * sets for c in comp.cards})
    assert codes_in(built / "fairy-bucks" / f"{component}.pdf") == expected
    manifest = json.loads((built / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"] == f"fairy-bucks/{component}.pdf")
    assert entry["copies"] == dict(expected) and entry["cards"] == sum(expected.values())


def test_composition_the_rules_need(game):
    items = game.component("items").cards
    assert len(items) == 24 and sum(c.values["value"] == 1 for c in items) == 4
    money = game.component("money")
    assert money.card_count == 11
    assert sorted(c.values["value"] for c in money.cards if not c.values["poof"]) == list(range(1, 11))


def test_player_sets_differ_in_lightness_and_emblem(game):
    marks = game.component("money").sets.marks
    assert len({m.emblem for m in marks}) == len(marks) == 5
    levels = sorted(luminance(color(m.color)) for m in marks)
    assert min(b - a for a, b in zip(levels, levels[1:])) >= 0.1, levels
    symbols = sorted(luminance(color(p["color"])) for p in game.palettes["symbol"].values())
    assert min(b - a for a, b in zip(symbols, symbols[1:])) >= 0.08, symbols


def test_castle_is_one_large_card_that_prints_with_bleed(built, game):
    size = card_size(game.component("castle").card_size)
    assert size.w >= 120 and size.h >= 170
    for paper in ("a4", "letter"):
        assert choose_grid(paper_size(paper), size, 3.0).per_page == 1
    manifest = json.loads((built / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"] == "fairy-bucks/castle.pdf")
    assert entry["pages"] == 2 and entry["card_size_mm"] == [size.w, size.h]


def test_decks_have_different_backs(game):
    backs = {c.key: c.back for c in game.components}
    assert len(set(backs.values())) == len(backs)


@pytest.mark.parametrize("players", ["1", "6"])
def test_players_outside_two_to_five_is_refused(tmp_path, players):
    result = run("build", "fairy-bucks", "--out", str(tmp_path), "--players", players)
    assert result.exit_code == 2
    assert "--players" in result.output and "2 to 5" in result.output
    assert not (tmp_path / "fairy-bucks").exists()


def test_two_players_print_two_money_sets(tmp_path):
    result = run("build", "fairy-bucks", "--out", str(tmp_path), "--players", "2")
    assert result.exit_code == 0, result.output
    found = codes_in(tmp_path / "fairy-bucks" / "money.pdf")
    assert sum(found.values()) == 22 and set(found.values()) == {2}


def test_shipped_database_passes():
    result = run("check", str(DB))
    assert result.exit_code == 0, result.output


BREAKS = {
    # a 1-point item loses its point: only three 1-pointers, and the deck no longer splits into threes for 2 players
    "one-pointer-gone": (
        (
            "- {key: BK1, name: The Midnight Bell, value: 1,",
            "- {key: BK1, name: The Midnight Bell, value: 2,",
        ),
        ["four-one-pointers", "one-pointers-one-per-symbol", "rounds-of-three [players=2]"],
    ),
    "item-deleted": (
        ("      - {key: SU2, name: Jack's Beanstalk Leaf", "      - {key: SU2X, name: Jack's Beanstalk Leaf"),
        None,
    ),
    "symbol-moved": (
        ("value: 5, symbol: sun, art: wing", "value: 5, symbol: moon, art: wing"),
        ["symbols-even [symbol=moon]", "symbols-even [symbol=sun]", "symbol-values-equal"],
    ),
    "note-doubled": (
        ("{key: B7, name: Seven Fairy Bucks, value: 7,", "{key: B7, name: Seven Fairy Bucks, value: 6,"),
        ["notes-one-to-ten [value=6]", "notes-one-to-ten [value=7]", "money-per-set"],
    ),
    "no-poof": (("        poof: true\n", "        poof: false\n"), ["one-poof", "notes-one-to-ten"]),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_checker_names_the_broken_rule(tmp_path, name):
    (old, new), rules = BREAKS[name]
    text = DB.read_text(encoding="utf-8")
    assert old in text
    if name == "item-deleted":  # drop the whole card (two lines)
        start = text.index(old)
        end = text.index("\n", text.index("\n", start) + 1) + 1
        text = text[:start] + text[end:]
        rules = ["item-count", "symbols-even [symbol=sun]", "rounds-of-three"]
    else:
        text = text.replace(old, new, 1)
    assert_check_names(tmp_path, "fairy-bucks.yaml", text, rules)
