"""Feenbalz: built PDFs hold exactly the database's cards, every card can be read without colour,
and the checker catches broken copies with the rule's name."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.format.colours import luminance
from pnp.data.reading.loader import load_game
from pnp.draw.context import color
from pnp.resolve.sides import Job, resolve_slots

from conftest import assert_check_names, codes_in

ROOT = Path(__file__).resolve().parents[1]
DB = ROOT / "card_data" / "feenbalz.yaml"
MAIN_COLOURS = ["yellow", "red", "green", "blue"]
MAIN_KINDS = ["beetle", "flower", "stone", "feather"]


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--project", str(ROOT)])


@pytest.fixture(scope="module")
def built(shared_build) -> Path:
    return shared_build()


@pytest.fixture(scope="module")
def game():
    return load_game(DB)


@pytest.mark.parametrize(
    "component, total", [("objects", 69), ("fairies", 25), ("berries", 10), ("overview", 6)]
)
def test_built_pdf_holds_each_card_as_often_as_the_database_says(built, game, component, total):
    comp = game.component(component)
    expected = Counter({game.code(c): c.copies for c in comp.cards})
    found = codes_in(built / "feenbalz" / f"{component}.pdf")
    assert found == expected and sum(found.values()) == total
    manifest = json.loads((built / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"] == f"feenbalz/{component}.pdf")
    assert entry["copies"] == dict(expected)


def test_object_composition(game):
    cards = [c.values for c in game.component("objects").cards]
    main = Counter(
        (v["colour"], v["category"], v["quality"])
        for v in cards
        if v["colour"] in MAIN_COLOURS and v["category"] in MAIN_KINDS
    )
    assert main == Counter(product(MAIN_COLOURS, MAIN_KINDS, [1, 2, 3]))
    kinds = Counter(v["category"] for v in cards)
    assert kinds["shell"] == kinds["fly-agaric"] == 4 and kinds["horseshoe"] == 5
    assert sum(v["colour"] in ("gray", "violet") for v in cards) == 8
    assert {"colour": "green", "category": "shell", "quality": 4} in cards


def test_every_object_names_colour_kind_and_value(game):
    """Colour-blind play: ribbon and corner name the colour in words, symbols show the kind, value in the corner."""
    comp = game.component("objects")
    for card in comp.cards:
        slots = resolve_slots(game, Job(comp, game.faces["object"], "faces.object", card, None, None))
        v = card.values
        assert game.palettes["colour"][v["colour"]]["name"] in slots["ribbon"]
        assert slots["index_label"] == game.palettes["colour"][v["colour"]]["short"]
        assert slots["art"] == slots["index_symbol"] == game.palettes["category"][v["category"]]["symbol"]
        assert slots["value"] == str(v["quality"])


def test_colours_stay_apart_in_grayscale(game):
    levels = sorted(luminance(color(p["color"])) for k, p in game.palettes["colour"].items() if k != "none")
    assert min(b - a for a, b in zip(levels, levels[1:])) >= 0.08, levels
    assert len({p["symbol"] for p in game.palettes["colour"].values()}) == len(game.palettes["colour"])


def test_fairy_cards_show_dislike_and_wishes(game):
    comp = game.component("fairies")
    for card in comp.cards:
        if card.values["black"]:
            continue
        badges = resolve_slots(game, Job(comp, game.faces["fairy"], "faces.fairy", card, None, None))[
            "badges"
        ]
        assert badges[0]["cross"] and len(badges) == 3
        assert bool(badges[1].get("empty")) == (card.values["colour"] == "none")
        assert bool(badges[2].get("empty")) == (card.values["category"] == "none")


def test_backs_tell_decks_apart_except_berries(game):
    backs = {c.key: c.back for c in game.components}
    assert len({backs["objects"], backs["fairies"], backs["overview"]}) == 3
    # Berries are shuffled into the object deck, so they must not be told apart from behind.
    assert backs["berries"] == backs["objects"]


def test_shipped_database_passes():
    result = run("check", str(DB))
    assert result.exit_code == 0, result.output


def _drop_line(text: str, start: str) -> str:
    i = text.index(start)
    return text[:i] + text[text.index("\n", i) + 1 :]


BREAKS = {
    "card-deleted": (
        lambda t: _drop_line(t, "      - {key: BLST2,"),
        ["object-count", "main-colours [colour=blue, category=stone, quality=2]", "main-count"],
    ),
    "combination-twice": (
        lambda t: t.replace(
            "{key: REFL3, name: {en: Red Flower, de: Rote Blume}, colour: red, category: flower, quality: 3}",
            "{key: REFL3, name: {en: Red Flower, de: Rote Blume}, colour: red, category: flower, quality: 2}",
        ),
        [
            "main-colours [colour=red, category=flower, quality=2]",
            "main-colours [colour=red, category=flower, quality=3]",
        ],
    ),
    "shell-turned-mushroom": (
        lambda t: t.replace(
            "colour: red, category: shell, quality: 0}", "colour: red, category: fly-agaric, quality: 0}"
        ),
        ["four-shells", "four-fly-agarics", "neutral-objects"],
    ),
    "coloured-horseshoe": (
        lambda t: t.replace(
            "colour: none, category: horseshoe, quality: 2}", "colour: blue, category: horseshoe, quality: 2}"
        ),
        ["horseshoes-colourless", "horseshoes-no-colour"],
    ),
    "second-black-fairy": (
        lambda t: t.replace(
            "category: beetle, dislike: stone}", "category: beetle, dislike: stone, black: true}"
        ),
        ["one-black-fairy"],
    ),
    "fairy-wishes-unbalanced": (
        lambda t: t.replace(
            "{key: F01, name: {en: Primrose, de: Primel}, colour: yellow,",
            "{key: F01, name: {en: Primrose, de: Primel}, colour: red,",
        ),
        ["colours-wanted-equally [colour=yellow]", "colours-wanted-equally [colour=red]"],
    ),
    "berry-missing": (
        lambda t: t[: t.index("      - key: MB01\n")] + t[t.index("      - key: MB02\n") :],
        ["berry-count"],
    ),
    "overview-short": (lambda t: t.replace("        copies: 6\n", "        copies: 5\n"), ["overview-count"]),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_checker_names_the_broken_rule(tmp_path, name):
    edit, rules = BREAKS[name]
    original = DB.read_text(encoding="utf-8")
    text = edit(original)
    assert text != original
    assert_check_names(tmp_path, "feenbalz.yaml", text, rules)
