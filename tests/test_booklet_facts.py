"""Booklet numbers come from the database: change facts in a copy, rebuild the booklet PDF and
read the new numbers in its text (and make sure the original booklet did not already say them).

Also: every card a booklet example names exists in the database.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pnp.data.reading.loader import load_game
from pnp.data.templating.slots import card_view
from pnp.geometry.sizes import paper_size
from pnp.output.booklet_text import render
from pnp.output.booklets import prepare, write_plain
from pnp.resolve.fonts import Fonts

from conftest import ROOT, page_texts

# game -> ([(text in the database, replacement)], [phrases the rebuilt booklet must print])
CHANGES: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "fairy-bucks": (
        [
            ("auction_size: 3", "auction_size: 6"),
            ("set_aside: {default: 2, two_players: 1}", "set_aside: {default: 5, two_players: 3}"),
            ("two_player_removed_value: 1", "two_player_removed_value: 2"),
            ("set_bonus: 4", "set_bonus: 7"),
        ],
        [
            "Six items go under the hammer",
            "Put the next 5 items aside",
            "The remaining 18 items form the item deck",
            "sold in 3 auctions of six",
            "7 bonus points",
            "she adds 7 and scores 24",
            "take out the 4 items worth 2 points",
            "set only three items aside instead of 5",
            "The 16 items left make 2 auctions",
            "6 stay hidden until the end (only 4 with two players)",
        ],
    ),
    "feenbalz": (
        [
            ("deal: 5 ", "deal: 4 "),
            ("market: 5 ", "market: 6 "),
            ("collect: 2 ", "collect: 3 "),
            ("hand_limit: 9", "hand_limit: 11"),
            (
                "collection: {min: 3, improved_max: 5, horseshoes_max: 2}",
                "collection: {min: 4, improved_max: 7, horseshoes_max: 1}",
            ),
            ("ladies_needed: {3: 6, 4: 6, 5: 5, 6: 5}", "ladies_needed: {3: 8, 4: 8, 5: 4, 6: 4}"),
        ],
        [
            "deal four, face down",
            "Lay six more object cards",
            "refill the market to six cards",
            "Draw three cards from the object deck",
            "Eleven cards at most",
            "Nobody may hold more than eleven cards",
            "the 11-card limit",
            "A collection is four or more objects",
            "at most one of them",
            "at least four cards face down",
            "grows beyond seven cards",
            "six cards, which a collection may keep",
            "3 or 4 8",
            "5 or 6 4",
        ],
    ),
    "tarot": (
        [
            ("deal: 6 ", "deal: 8 "),
            ("on_map: 2 ", "on_map: 3 "),
            ("in_hand: 4 ", "in_hand: 5 "),
            ("start_positions: [1, 2]", "start_positions: [2, 3]"),
            ("refill_position: 0", "refill_position: 4"),
        ],
        [
            "Deal eight cards to each player",
            "chooses three of their eight cards",
            "positions 2 and 3",
            "Keep the other five in your hand",
            "three cards on the map and five in hand",
            "at their position 4",
            "the cards enter at 2 and 3",
            "every new card enters at 4",
            "she draws three, holding seven for a moment",
            "lays one of them face down on B4",
        ],
    ),
    "fairy-meat": (
        [
            ("threshold: 3 ", "threshold: 4 "),
            ("multiplier: 2 ", "multiplier: 3 "),
            ("damage_steps: [4, 8]  ", "damage_steps: [3, 6, 9]  "),
            ("attacker_extra_cards: 1", "attacker_extra_cards: 2"),
            ("{from: 10, to: 10, name: Gusher", "{from: 10, to: 11, name: Gusher"),
            ("{from: 11, to: null, name: Head Off", "{from: 12, to: null, name: Head Off"),
            ("diamonds: {trump: [Panicked, Confused]", "diamonds: {trump: [Panicked, Dazed]"),
        ],
        [
            "A blow of 4 or more damage",
            "is multiplied by 3",
            "for each point of damage above 4",
            "2 damage for a difference up to 6, 3 damage for a difference up to 9, and 4 for 10 or more",
            "2 extra cards for attacking",
            "she draws 3 + 2 for attacking",
            "Her result is 4 + 1 (1 point above 4) + 1 (the black Trump) = 6: Panicked",
            "10-11 Gusher",
            "≥12 Head Off",
            "one Panicked or Dazed",
        ],
    ),
    "bargains": (
        [
            ("hand_size: 6", "hand_size: 8"),
            ("pot_size: 3", "pot_size: 2"),
            ("main: {players: {min: 2, max: 6}}", "main: {players: {min: 2, max: 5}}"),
            ("players: {min: 2, max: 4}", "players: {min: 2, max: 3}"),
            ("start: {10: 1, 7: 2,", "start: {10: 2, 7: 2,"),
            ("piles: {easier: 5, normal: 6, harder: 7}\n", "piles: {easier: 3, normal: 4, harder: 6}\n"),
            ("turn: 3 ", "turn: 4 "),
        ],
        [
            "a hand of eight cards",
            "Two more cards go face up",
            "With five players, 42 cards are dealt and 23 stay",
            "the main game is for 2 to 5, variant 1 for 2 to 6, variant 2 for 2 to 3",
            "for two to three players",
            "two 10s, two 7s, two 5s, three 3s and three 1s (12 cards)",
            "Lay out four piles in a row",
            "10 cards in all, leaving 55 in your stock",
            "Turn the top four stock cards",
            "Deal three piles (6 cards)",
            "or six piles (21 cards)",
        ],
    ),
}


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.load(ROOT / "fonts")


def booklet_words(db: Path, out: Path, fonts: Fonts) -> str:
    """Build a database's rule booklet as a PDF and return its text, whitespace collapsed."""
    game = load_game(db, root=ROOT)
    comp = next(c for c in game.components if c.kind == "booklet")
    write_plain(prepare(game, comp, fonts), out, paper_size("a4"), fonts)
    return " ".join(" ".join(page_texts(out)).split())


@pytest.mark.parametrize("name", list(CHANGES))
def test_booklet_numbers_follow_the_facts(name: str, tmp_path: Path, fonts: Fonts) -> None:
    edits, phrases = CHANGES[name]
    text = (ROOT / "card_data" / f"{name}.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, (name, old)
        text = text.replace(old, new)
    changed = tmp_path / "card_data" / f"{name}.yaml"
    changed.parent.mkdir()
    changed.write_text(text, encoding="utf-8")
    before = booklet_words(ROOT / "card_data" / f"{name}.yaml", tmp_path / "before.pdf", fonts)
    after = booklet_words(changed, tmp_path / "after.pdf", fonts)
    for phrase in phrases:
        assert phrase in after, (name, phrase)
        assert phrase not in before, (name, phrase)


def test_reference_cards_read_the_same_facts(tmp_path: Path) -> None:
    """The Fairy Bucks scoring card and the Feenbalz overview card print the facts, not copies."""
    shutil.copytree(ROOT / "card_data", tmp_path / "card_data")
    bucks = tmp_path / "card_data" / "fairy-bucks.yaml"
    bucks.write_text(
        bucks.read_text(encoding="utf-8").replace("set_bonus: 4", "set_bonus: 7"), encoding="utf-8"
    )
    game = load_game(bucks, root=ROOT)
    rows = card_view(game, next(c for c in game.component("scoring").cards if c.key == "SCORE"))["rows"]
    assert any("+7." in r[1] for r in rows) and not any("+4" in r[1] for r in rows)
    fz = tmp_path / "card_data" / "feenbalz.yaml"
    fz.write_text(
        fz.read_text(encoding="utf-8")
        .replace("hand_limit: 9", "hand_limit: 8")
        .replace("ladies_needed: {3: 6, 4: 6, 5: 5, 6: 5}", "ladies_needed: {3: 7, 4: 7, 5: 4, 6: 4}"),
        encoding="utf-8",
    )
    game = load_game(fz, root=ROOT)
    rows = dict(card_view(game, game.component("overview").cards[0])["rows"])
    assert rows["Hand limit"].startswith("Over 8:")
    assert rows["Game end"] == "7 fairies (3-4 players), 4 (5-6 players)."


# --------------------------------------------------------------------------- examples use real cards

FEENBALZ_OBJECT = re.compile(
    r"\b(yellow|red|green|blue|gray|violet) (beetle|flower|stone|feather|shell|fly agaric)s? (\d)\b"
)
PLAYING_CARD = re.compile(r"\b(Ace|King|Queen|Jack|[2-9]|10) of (Hearts|Diamonds|Clubs|Spades)\b")
TAROT_CAST = re.compile(r"\b([A-Z][a-z]+) \((sword|bow|magic)\b")


def examples(name: str) -> list[str]:
    """The booklet's worked examples: its quoted blocks (markdown `>` lines)."""
    game = load_game(ROOT / "card_data" / f"{name}.yaml")
    text = render(game, next(c for c in game.components if c.kind == "booklet"))
    blocks = [line[1:].strip() for line in text.splitlines() if line.startswith(">")]
    if name in ("tarot", "fairy-meat"):  # their long worked examples are sections, not quotes
        tail = text.split("## A worked example")[-1] if "## A worked example" in text else ""
        blocks.append(tail.split("\n## ")[0])
    return [b for b in blocks if b]


def test_feenbalz_examples_name_real_objects() -> None:
    game = load_game(ROOT / "card_data" / "feenbalz.yaml")
    real = {
        (c.get("colour"), c.get("category").replace("-", " "), c.get("quality"))
        for c in game.component("objects").cards
    }
    named = [
        (m[0], m[1], int(m[2])) for block in examples("feenbalz") for m in FEENBALZ_OBJECT.findall(block)
    ]
    assert len(named) >= 10
    for card in named:
        assert card in real, card
    assert ("red", "flower", 4) not in real  # the card the old exchange example wrongly offered


def test_fairy_meat_examples_name_real_cards() -> None:
    game = load_game(ROOT / "card_data" / "fairy-meat.yaml")
    deck = game.component("fairy-deck")
    real = {(c.get("rank"), c.get("suit")) for c in deck.cards if c.copies}
    ranks = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J"}
    named = [
        (ranks.get(r, r), s.lower())
        for block in examples("fairy-meat")
        for r, s in PLAYING_CARD.findall(block)
    ]
    assert len(named) >= 6
    for card in named:
        assert card in real, card


def test_tarot_examples_name_real_characters() -> None:
    game = load_game(ROOT / "card_data" / "tarot.yaml")
    cast = {c.get("short"): c.get("element") for c in game.component("arcana").cards if c.get("short")}
    named = [m for block in examples("tarot") for m in TAROT_CAST.findall(block)]
    assert {n for n, _ in named} >= set(game.facts["sample_elements"])
    for short, element in named:
        assert cast.get(short) == element, (short, element)


def test_bargains_and_bucks_examples_use_real_values() -> None:
    values = {c.get("value") for c in load_game(ROOT / "card_data" / "bargains.yaml").component("deck").cards}
    for block in examples("bargains"):
        for n in re.findall(r"\b(?:a|an|another|the|with|plays|offers|opens with|puts in) (\d+)\b", block):
            assert int(n) in values, (n, block)
    notes = {
        c.get("value") for c in load_game(ROOT / "card_data" / "fairy-bucks.yaml").component("money").cards
    }
    for block in examples("fairy-bucks"):
        for n in re.findall(r"\b(?:adds|with|open with|his|her|the) (\d+)\b", block):
            assert int(n) in notes | {0}, (n, block)


@pytest.mark.parametrize("name", list(CHANGES))
def test_house_rules_are_listed_and_marked(name: str) -> None:
    """Each house rule in `decisions:` is marked in the booklet text as a house rule."""
    game = load_game(ROOT / "card_data" / f"{name}.yaml")
    house = [d for d in game.decisions if d.lower().startswith("house rule")]
    assert house, name  # every game has at least one addition of this edition's own
    text = render(game, next(c for c in game.components if c.kind == "booklet"))
    assert text.count("*(house rule)*") + text.count("*house rule*") >= len(house), name
