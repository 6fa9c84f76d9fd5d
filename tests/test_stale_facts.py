"""No number of play is typed twice: change every fact of a game in turn, render everything that
prints words (booklet, card text, reference rows, mats) and find no sentence that still says the
old value unchanged.

A sentence that keeps a number when one fact changes is fine when another fact changes it (a
booklet may say "five" for two different facts that are both 5, or print a sum of facts). What
is left is typed text. Numbers that are not facts of play (card values and qualities in examples,
step numbers, counts of printed cards) are named per game in NOT_FACTS, each with its reason.
The PDF side of the same promise (the rebuilt booklet prints the new value) is
`test_booklet_facts.py`.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pnp.data.format.errors import InputError
from pnp.data.format.model import Game
from pnp.data.reading.boardspec import parse_board
from pnp.data.reading.loader import load_game
from pnp.data.templating.slots import card_view, rendered_slots
from pnp.output.booklet_text import render

from conftest import ROOT, make_project, page_texts, run

NAMES = {"title", "value", "code", "index", "rank", "key", "name", "ribbon"}  # card names, not sentences
WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]

# Per game: patterns for numbers in the text that are not facts of play. A match is blanked before
# the sentence is searched for an old value.
NOT_FACTS: dict[str, list[tuple[str, str]]] = {
    "bargains": [
        (r"Pile (\d+): \1 cards?", "a solitaire pile's cards: pile n holds n"),
        (r"\b(?:[Vv]ariant|[Pp]ile|step) \d\b", "names of variants, mat piles and steps"),
        (
            r"\b(?:\d+, )+\d+ and \d+\b|lightest 1 to darkest 10|\b(?:1|3|5|7|10)s\b|by a 10|a 1\b|three 3s",
            "the card values",
        ),
        (r"the 5 values|the five stay apart", "how many values the deck has (counted from it)"),
        (r"^a bargain worth \d+$", "a card's value on its face"),
        (r"Pile (\d+): \1 cards?", "a solitaire pile's cards: pile n holds n"),
        (r"overshoots by four scores four", "an example of the scoring"),
        (r"two (?:different )?handfuls", "plain English"),
        (
            r"\*\*Players:\*\* 1 to 6|starts at 1 because",
            "the game's player range (game.players; the check compares it with the variants' facts)",
        ),
    ],
    "fairy-bucks": [
        (
            r"\((?:\d+, )+\d+;|points \(1 to 5\)|Fairy Bucks 1 to 10|worth 1 to 10|The four 1-point|^1-point items$",
            "the values printed on items and notes",
        ),
        (r"^Four wishes folded", "a note's flavour line"),
        (r"^\d+ points?$", "an item's points on its face"),
        (r"Two copies of each|Scoring cards:\*\* 4|set 1 to set 5", "counts of printed cards and purses"),
        (r"\*\*Players:\*\* 2 to 5", "the game's player range (game.players, checked by a players rule)"),
        (r"^## Two players|two or more players tie|two-player game", "plain English"),
        (r"one of 4 symbols", "the symbols the item cards show (counted from them)"),
    ],
    "feenbalz": [
        (
            r"qualities 1, 2, 3|qualities 0, 1, 2, 3 and 4|five horseshoes have|four main colours|and 5 horseshoes",
            "the objects' qualities and counts (card data)",
        ),
        (
            r"(?:six|three|four) (?:colours|kinds|fairies|want no|and six)|wanted by three|disliked by four|"
            r"1 of them the Black|\*\*(?:6|10|25) \w+ (?:\w+ )?cards|[Tt]he (?:10|six) (?:magic|overview)",
            "what the fairies wish for and how many cards there are (card data)",
        ),
        (r"\*\*Players:\*\* 3 to 6", "the game's player range (game.players, checked by a players rule)"),
        (r"If two players both|no two fairies", "plain English"),
        (r"^quality \d$", "an object's quality on its face"),
    ],
    "tarot": [
        (
            r"\*\*Players:\*\* 2\.|[Aa] duel for two|[Tt]wo players|the two sides|[Tt]wo decks|Shuffle 2 decks",
            "a duel: the game's two players (game.players, checked by a players rule)",
        ),
        (
            r"\b[Tt]wo (?:combo |single |hand )?cards\b|two servants|two masters|both, if two|your two combo|"
            r"swap\*\* two of your",
            "a combo is a pair, a master and a servant (the masters-and-servants chart)",
        ),
        (
            r"two (?:facing )?tracks of 5 positions|numbered 0 to 4|your 3 (?:meets|faces) the (?:card on the )?other player's 1|"
            r"the two tracks",
            "the map's tracks (the map board's positions)",
        ),
        (
            r"22 major arcana numbered 0 to 21, plus 2 extra|\(seven sword, seven bow, seven magic\)|Tiger, who has no element, is 0",
            "the arcana (card data)",
        ),
        (r"[Ff]our players on four sides", "an untested idea for more players"),
        (r"twenty-two arcana", "the cover's count of the arcana"),
    ],
    "fairy-meat": [
        (
            r"\((?:\d+, )+\d+\)|the 2 to 10 of|Numbered: 2 to 10|towards the middle \(5 or 6\)|value 0|"
            r"\d+ red, \d+ black|four fairy courts",
            "the playing cards' ranks, values and counts (card data)",
        ),
        (
            r"[Tt]wo (?:decks|or more decks|colours|Bleeders|Kisses|fairies drawing)|need two Kisses|"
            r"over three cards and the combat sequence over two",
            "plain English, and how the reference cards are split",
        ),
        (r"a Kill 2 fairy against a Live 2 one", "the smallest attack the deck statistics simulate"),
        (r"^Numbered · \d+$", "a card's rank at its ends"),
        (
            r"step \d|p\. \d+|\(\d+ of them\)|overlaps at 10 in the source",
            "step numbers, rulebook pages, counts of printed cards, the source's own table",
        ),
    ],
}


def corpus(game: Game) -> str:
    """Every word the game prints that a fact may reach: booklet, card text and rows, board text."""
    parts: list[str] = []
    for comp in game.components:
        if comp.kind == "booklet":
            parts.append(rules_text(render(game, comp)))
        elif comp.kind == "board":
            board = parse_board(game, comp)
            parts += [board.title, board.subtitle, *(f"{a.label}: {a.note}\n{a.text}" for a in board.areas)]
        for card in comp.cards:
            view = card_view(game, card)
            parts += [_flat(view.get(key)) for key in ("text", "rows")]
        for slots in rendered_slots(game, comp).values():  # what faces and backs print
            parts += [
                v for k, v in slots.items() if k not in NAMES and isinstance(v, str) and not v.startswith("#")
            ]
    return "\n".join(parts)


def rules_text(booklet: str) -> str:
    """A booklet without its worked examples (quoted blocks, "A worked example" sections) and card
    pictures: example numbers are card values, checked against the deck in test_booklet_facts."""
    kept, skipping = [], False
    for line in booklet.splitlines():
        if line.startswith("#"):
            skipping = "worked example" in line.lower()
        if not (skipping or line.startswith(">")):
            kept.append(re.sub(r"\[\[cards [^\]]*\]\]", "", line))
    return "\n".join(kept)


def _flat(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "\n".join(_flat(v) for v in value)
    return "" if value is None else str(value)


def sentences(text: str) -> Counter[str]:
    """The text's sentences and table cells, counted (a sentence may be printed on several cards)."""
    pieces = re.split(r"(?<=[.;!?])(?<! p\.)\s+|\n+|\s*\|\s*", text)
    return Counter(s.strip() for s in pieces if re.search(r"[A-Za-z]", s))


def leaves(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, int]]:
    """Every whole-number fact and where it is, and the length of every list of names (a list is
    changed by repeating its last name). Booleans are choices, tested in test_booklet_rules."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, path + (key,))
    elif isinstance(node, list):
        if node and all(isinstance(v, str) for v in node):
            yield path, len(node)
        for i, value in enumerate(node):
            yield from leaves(value, path + (i,))


def texts(node: Any) -> Iterator[str]:
    """Every text among the facts (a Nasty Hit's effect, a stalemate rule)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from texts(value)


def changed(game: Game, path: tuple, value: int) -> Game:
    """The game with the fact at `path` set to `value` (a list of names grown or cut to that length)."""
    facts = copy.deepcopy(game.facts)
    node = facts
    for step in path[:-1]:
        node = node[step]
    here = node[path[-1]]
    node[path[-1]] = (here + here[-1:] * value)[:value] if isinstance(here, list) else value
    return dataclasses.replace(game, facts=facts, unsaved=True)


def _rebuilt(game: Game, path: tuple, value: int) -> str:
    """Everything printed with one fact one higher (one lower when higher does not fit, e.g. a mat)."""
    try:
        return corpus(changed(game, path, value + 1))
    except InputError:
        return corpus(changed(game, path, value - 1))


def says(sentence: str, value: int) -> bool:
    """Does the sentence state the number (digits; words too from two up, as "one" is also "a")?"""
    pattern = rf"(?<![\w.]){value}(?![\d])"
    if 2 <= value < len(WORDS):
        pattern += rf"|\b{WORDS[value]}\b"
    return re.search(pattern, sentence, re.IGNORECASE) is not None


def typed_numbers(name: str) -> dict[str, list[str]]:
    """Per fact path: the sentences that still say its old value after it changed."""
    game = load_game(ROOT / "card_data" / f"{name}.yaml")
    blank = [re.compile(p) for p, _ in NOT_FACTS[name]]
    before = sentences(corpus(dataclasses.replace(game, unsaved=True)))
    kept: dict[str, tuple[int, set[str]]] = {}
    live: set[str] = set()
    for path, value in leaves(game.facts):
        after = sentences(_rebuilt(game, path, value))
        live |= set(before - after)  # a sentence printed fewer times: at least one copy changed
        kept[".".join(map(str, path))] = value, set(before) - set(before - after)
    own = "\n".join(texts(game.facts))  # a number in a fact's own text lives in the facts already
    found: dict[str, list[str]] = {}
    for fact, (value, same) in kept.items():
        for sentence in sorted(s for s in same - live if s not in own):
            text = sentence
            for pattern in blank:
                text = pattern.sub("#", text)
            if says(text, value):
                found.setdefault(f"{fact} = {value}", []).append(sentence)
    return found


@pytest.mark.parametrize("name", list(NOT_FACTS))
def test_no_number_of_play_is_typed_twice(name: str) -> None:
    found = typed_numbers(name)
    assert not found, "\n".join(f"{fact}:\n  " + "\n  ".join(s) for fact, s in found.items())


@pytest.mark.parametrize("name", list(NOT_FACTS))
def test_every_not_a_fact_pattern_is_used(name: str) -> None:
    """An exception that no longer matches anything is dropped, so the list cannot hide new text."""
    text = corpus(load_game(ROOT / "card_data" / f"{name}.yaml"))
    for pattern, why in NOT_FACTS[name]:
        assert re.search(pattern, text, re.MULTILINE), (name, why)


def pdf_words(folder: Path) -> str:
    return " ".join(" ".join(" ".join(page_texts(pdf)).split()) for pdf in sorted(folder.rglob("*.pdf")))


def test_a_rebuilt_game_prints_no_old_number(tmp_path: Path) -> None:
    """The same promise through `pnp build --force`: the castle card, the scoring card, the booklet's
    notes and summary of a Fairy Bucks with four items an auction and two under the castle."""
    root = make_project(tmp_path / "proj", ("fairy-bucks",))
    db = root / "card_data" / "fairy-bucks.yaml"
    out = tmp_path / "out"
    assert run("build", "fairy-bucks", "--project", str(root), "--out", str(out), "--force").code == 0
    before = pdf_words(out)
    text = db.read_text(encoding="utf-8")
    db.write_text(
        text.replace("auction_size: 3", "auction_size: 4")
        .replace("castle_items: 1", "castle_items: 2")
        .replace("high_bidder_streak: 2", "high_bidder_streak: 3"),
        encoding="utf-8",
    )
    r = run("build", "fairy-bucks", "--project", str(root), "--out", str(out), "--force")
    assert r.code == 0, r.out + r.err
    after = pdf_words(out)
    for old in (
        "When the last three items",
        "treasures three at a time",
        "seven rounds of three",
        "wins this castle and the item under it",
        "Two reveals in a row",
        "High Bidder twice in a row",
    ):
        assert old in before and old not in after, old
    for new in (
        "When the last four items",
        "treasures four at a time",
        "rounds of four",
        "wins this castle and the two items under it",
        "Three reveals in a row",
        "High Bidder three times in a row",
    ):
        assert new in after, new
