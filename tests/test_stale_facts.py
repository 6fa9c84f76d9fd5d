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
            r"qualities 1, 2, 3|qualities 0, 1, 2, 3 and 4|qualit(?:y|ies) 0 and 4|\(0 to 4\)|five horseshoes have|four main colours|and 5 horseshoes",
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


@pytest.mark.slow
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


# --------------------------------------------------------------------------- examples and choices follow the facts


def printed(game: Game) -> str:
    """Everything the game prints, worked examples and design notes included."""
    parts = [render(game, c) for c in game.components if c.kind == "booklet"]
    return corpus(game) + "\n" + "\n".join(parts)


def edited(game: Game, path: str, value: Any) -> Game:
    """The game with one fact (a dotted path; number keys as numbers) set to any value."""
    facts = copy.deepcopy(game.facts)
    *steps, last = [int(s) if s.isdigit() else s for s in path.split(".")]
    node = facts
    for step in steps:
        node = node[step]
    assert last in node, path
    node[last] = value
    return dataclasses.replace(game, facts=facts, unsaved=True)


# (game, language, fact, new value, phrases printed as shipped and gone after, phrases printed after)
FOLLOWS: list[tuple[str, str | None, str, Any, list[str], list[str]]] = [
    (
        "fairy-bucks",
        None,
        "losers_discard",
        2,
        [
            "Bea discards her lowest note on the table (the 1) and takes back her 5 and 2",
            "lose their lowest card",
        ],
        [
            "Bea discards her two lowest notes on the table (2 and 1) and takes back her 5",
            "lose their two lowest cards",
        ],
    ),
    (
        "fairy-bucks",
        None,
        "castle_needs_most",
        False,
        ["nobody wins the castle", "the castle stays empty-handed"],
        ["each of them counts the castle's points", "Players tied for most money each score it"],
    ),
    (
        "tarot",
        None,
        "combo_kept",
        0,
        ["keep one of them on the map (face down)", "you lose one of your two combo cards"],
        ["put both in the waste", "both your combo cards go to the waste"],
    ),
    (
        "fairy-bucks",
        None,
        "castle_items",
        2,
        [
            "A hidden item waits on it",
            "the item lying on it; that item counts",
            "the hidden item on it scores",
        ],
        [
            "Two hidden items wait on it",
            "the two items lying on it; they count",
            "the hidden items on it score",
        ],
    ),
    (
        "fairy-bucks",
        None,
        "high_bidder_streak",
        3,
        ["Cas has been high bidder twice running, so Cas wins and discards his 6, 3 and 1"],
        [
            "Next, Bea adds 4 (12) and Cas adds 4 (14). Cas has been high bidder three reveals running",
            "Cas wins and discards his 6, 4, 3 and 1; Bea discards her lowest note on the table (the 1) "
            "and takes back her 5, 4 and 2.",
        ],
    ),
    (
        "fairy-bucks",
        None,
        "high_bidder_streak",
        1,
        ["In the next reveal Bea adds 2"],
        ["Bea is high bidder after one reveal, which is enough, so Bea wins and discards her 5"],
    ),
    (
        "fairy-bucks",
        None,
        "reveal_tie_breaks_streak",
        False,
        ["there is no high bidder, and a run of reveals as high bidder starts again"],
        ["the last high bidder keeps the title and the run goes on"],
    ),
    (
        "fairy-bucks",
        None,
        "raising_optional",
        False,
        ["adds nothing *(house rule)*"],
        ["adds nothing and must play Poof! when a card is due"],
    ),
    (
        "feenbalz",
        None,
        "wish_bonus",
        2,
        ["plus 1 each for being beetles: Una's collection is worth 7"],
        ["plus 2 each for being beetles: Una's collection is worth 9"],
    ),
    (
        "feenbalz",
        "de",
        "wish_bonus",
        2,
        ["als Käfer je 1 mehr: Unas Sammlung ist 7 wert"],
        ["als Käfer je 2 mehr: Unas Sammlung ist 9 wert"],
    ),
    (
        "feenbalz",
        None,
        "disliked_value",
        1,
        ["The shell counts 0;", "dislikes count 0;", "Shells count 0.", "a disliked kind scores 0"],
        ["The shell counts 1;", "dislikes count 1;", "Shells count 1.", "a disliked kind scores 1"],
    ),
    (
        "feenbalz",
        "de",
        "disliked_value",
        1,
        ["Die Muschel zählt 0;", "nicht mag, zählen 0;", "Muscheln zählen 0."],
        ["Die Muschel zählt 1;", "nicht mag, zählen 1;", "Muscheln zählen 1."],
    ),
    (
        "feenbalz",
        None,
        "tie_first_laid",
        False,
        ["the one laid out first wins", "Tie: the first laid wins."],
        ["nobody wins her, and she goes to the bottom of the fairy deck", "Tie: nobody wins her"],
    ),
    (
        "feenbalz",
        "de",
        "tie_first_laid",
        False,
        ["gewinnt die zuerst ausgelegte.", "Gleichstand: Die zuerst gelegte Sammlung siegt."],
        ["gewinnt sie niemand, und sie kommt unter den Feenstapel", "Gleichstand: Niemand gewinnt sie"],
    ),
    (
        "feenbalz",
        None,
        "decline_draw",
        2,
        ["or draws a card from the object deck"],
        ["or draws two cards from"],
    ),
    (
        "feenbalz",
        "de",
        "decline_draw",
        2,
        ["zieht stattdessen eine Karte vom"],
        ["zieht stattdessen zwei Karten vom"],
    ),
    ("feenbalz", None, "improve_turns", 2, ["gets one chance to add"], ["gets two chances to add"]),
    ("feenbalz", "de", "improve_turns", 2, ["Eröffner, einmal passende"], ["Eröffner, zweimal passende"]),
    (
        "feenbalz",
        None,
        "dead_market_quality",
        1,
        ["nothing but cards of quality 0"],
        ["nothing but cards of quality 1"],
    ),
    ("feenbalz", None, "berry_swap_draw", 2, ["to draw a new object card"], ["to draw two new object cards"]),
    (
        "feenbalz",
        "de",
        "berry_swap_draw",
        2,
        ["dafür einen neuen Gegenstand"],
        ["dafür zwei neue Gegenstände"],
    ),
    ("feenbalz", None, "every_one_both_ladies", 2, ["each wins a lady"], ["each wins two ladies"]),
    (
        "feenbalz",
        None,
        "berries.thorn_value",
        1,
        ["collection: it is worth 0."],
        ["collection: it is worth 1."],
    ),
    (
        "feenbalz",
        None,
        "special.horseshoes_all.ladies",
        4,
        ["no courtship wins more than three"],
        ["no courtship wins more than four"],
    ),
    (
        "fairy-meat",
        None,
        "combat.points_divisor",
        3,
        ["halved and rounded up, that is **2 points**"],
        ["divided by 3 and rounded up, that is **1 point**, so Mossbell takes 1 damage"],
    ),
    (
        "fairy-meat",
        None,
        "combat.trump_step",
        2,
        ["8 − 1 = 7", "Thornpip wins 8 to 5. The difference is 3", "lost to a red 5 or less"],
        ["8 − 2 = 6", "Thornpip wins 8 to 4. The difference is 4", "lost to a red 3 or less"],
    ),
    (
        "bargains",
        None,
        "variants.variant-2.take_below",
        2,
        ["Gwen puts in a 7 and takes both 3s (6 in all; a 7 allows up to 6)"],
        ["Gwen puts in a 7 and takes a 3.", "worth **two less than your card, or less still**"],
    ),
    (
        "bargains",
        None,
        "variants.variant-2.take_below",
        0,
        ["Finn puts in a 3 and takes nothing"],
        ["Finn puts in a 3 and takes the 3."],
    ),
    (
        "bargains",
        None,
        "ties_share",
        False,
        ["players who tie share the win", "players who tie for the highest total share the win"],
        [
            "players who tie play one more round among themselves",
            "play one more round among themselves until",
        ],
    ),
    (
        "bargains",
        None,
        "deals_each",
        2,
        ["When every player has dealt once", "after everyone has dealt once wins"],
        ["When every player has dealt twice", "after everyone has dealt twice wins"],
    ),
    ("bargains", None, "solitaire_passes", 2, ["through the stock only once"], ["through the stock twice"]),
    (
        "bargains",
        None,
        "variants.variant-2.start.10",
        2,
        ["use 11 cards a player, so 2 players leave 43 cards and 4 leave 21"],
        ["use 12 cards a player, so 2 players leave 41 cards and 4 leave 17"],
    ),
    (
        "tarot",
        None,
        "tiger",
        {"defends_as_combo": False, "attacks": True},
        ["As good as a combo in defence: stops any attack. Never attacks."],
        ["Defends like a single card. Attacks like a single card."],
    ),
    (
        "tarot",
        None,
        "refill_position",
        4,
        ["lays hand cards face down at position 0", "enter at position 0 while a card"],
        ["lays hand cards face down at position 4", "enter at position 4 while a card"],
    ),
    (
        "tarot",
        None,
        "last_on_map",
        2,
        ["only when a player has no card left there", "until she is back to one;"],
        ["only when a player has fewer than two cards there", "until she is back to two;"],
    ),
]


def _load(name: str, lang: str | None) -> Game:
    path = ROOT / "card_data" / f"{name}.yaml"
    return load_game(path, lang=lang) if lang else load_game(path)


@pytest.mark.parametrize(
    "name, lang, fact, value, before, after",
    FOLLOWS,
    ids=[f"{n}-{lang or 'en'}-{fact}={value}" for n, lang, fact, value, *_ in FOLLOWS],
)
def test_examples_and_choices_follow_their_fact(
    name: str, lang: str | None, fact: str, value: Any, before: list[str], after: list[str]
) -> None:
    """A worked example or a rule chosen by a fact is computed from it: change the fact and the
    old wording is gone from everything printed, the new one is there."""
    game = _load(name, lang)
    shipped, turned = printed(game), printed(edited(game, fact, value))
    for phrase in before:
        assert phrase in shipped, (fact, phrase)
        assert phrase not in turned, (fact, phrase)
    for phrase in after:
        assert phrase in turned, (fact, phrase)
        assert phrase not in shipped, (fact, phrase)


def _switches(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every whole number and every yes/no choice among the facts, with a different value for it."""
    if isinstance(node, bool):
        yield path, not node
    elif isinstance(node, int):
        yield path, node + 1
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _switches(value, path + (key,))


# Facts that no printed word states: read only by rules, the combat engine or the deck statistics.
UNPRINTED = {
    # the deck's make-up is printed from the cards themselves, which a deck rule holds to this fact
    "fairy-meat": {"deck."},
}


@pytest.mark.parametrize("name", list(NOT_FACTS))
def test_every_fact_reaches_the_print(name: str) -> None:
    """No fact is dead weight beside a typed copy: changing any number or choice changes what the
    game prints (booklet with its examples and notes, cards, mats)."""
    game = load_game(ROOT / "card_data" / f"{name}.yaml")
    shipped = printed(dataclasses.replace(game, unsaved=True))
    silent = []
    for path, value in _switches(game.facts):
        dotted = ".".join(map(str, path))
        if any(dotted.startswith(p) for p in UNPRINTED.get(name, ())):
            continue
        try:
            turned = printed(changed(game, path, value))
        except InputError:
            turned = printed(changed(game, path, value - 2))
        if turned == shipped:
            silent.append(dotted)
    assert not silent, f"{name}: facts that change nothing printed: {silent}"
