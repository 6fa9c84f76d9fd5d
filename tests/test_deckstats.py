"""Exact deck statistics checked on standard and stacked Fairy Decks."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from pnp.engines.cards import Card, parse_cards, standard_deck
from pnp.engines.deckstats import (
    colours,
    colours_by_role,
    composition,
    mean_numbered_value,
    numbered_value_distribution,
    numbered_values,
    order_value,
    p_ace_of_spades,
    p_joker,
    p_no_numbered,
    p_order_all_distinct,
    p_order_tie,
    p_trump,
    report,
)

STANDARD = standard_deck()
DOUBLE = standard_deck() + standard_deck()
NO_LOW_CLUBS_DIAMONDS = [c for c in STANDARD if not (c.is_numbered and c.suit in ("clubs", "diamonds"))]


def brute_tie(deck: list[Card], fairies: int, jokers_distinct: bool = True) -> Fraction:
    """Count tied Order draws over every subset of the deck."""
    cards = deck if jokers_distinct else [c for c in deck if not c.is_joker]
    tied = total = 0
    for hand in combinations(range(len(cards)), fairies):
        vals = [order_value(cards[i]) for i in hand]
        named = [v for v in vals if v is not None]  # Jokers never match anything
        tied += len(set(named)) < len(named)
        total += 1
    return Fraction(tied, total)


def test_standard_deck_exact_values() -> None:
    assert composition(STANDARD) == {"Trump": 16, "Numbered": 36, "Joker": 2}
    assert colours(STANDARD) == {"red": 26, "black": 26, "none": 2}
    assert colours_by_role(STANDARD)["Numbered"] == {"red": 18, "black": 18, "none": 0}
    assert numbered_values(STANDARD) == {v: 4 for v in range(2, 11)}
    assert p_trump(STANDARD) == Fraction(16, 54)
    assert p_joker(STANDARD) == Fraction(2, 54)
    assert p_ace_of_spades(STANDARD) == Fraction(1, 54)
    assert p_no_numbered(STANDARD, 5) == Fraction(comb(18, 5), comb(54, 5))
    assert p_no_numbered(STANDARD, 0) == 1
    assert numbered_value_distribution(STANDARD) == {v: Fraction(1, 9) for v in range(2, 11)}
    assert mean_numbered_value(STANDARD) == 6


def test_order_values() -> None:
    assert [order_value(c) for c in parse_cards("2H 10S JC QD KH AS")] == [2, 10, 11, 12, 13, 14]
    assert order_value(Card("Joker", None)) is None


def test_order_tie_closed_form_on_standard_deck() -> None:
    # Two fairies tie when the second card shares the first's rank: 52/54 * 3/53.
    assert p_order_tie(STANDARD, 2) == Fraction(52, 54) * Fraction(3, 53)
    assert p_order_tie(STANDARD, 1) == 0
    assert p_order_tie(STANDARD, 16) == 1  # 13 ranks + 2 Jokers: pigeonhole


@pytest.mark.parametrize("fairies", [2, 3, 4])
def test_order_tie_matches_brute_force_small_deck(fairies: int) -> None:
    small = parse_cards("2H 2S 3D 5C 5H 5S KH KS AD Joker Joker")
    assert p_order_tie(small, fairies) == brute_tie(small, fairies)
    assert p_order_tie(small, fairies, jokers="ignored") == brute_tie(small, fairies, jokers_distinct=False)


def test_order_tie_matches_brute_force_standard_and_stacked() -> None:
    assert p_order_tie(STANDARD, 3) == brute_tie(STANDARD, 3)
    assert p_order_tie(NO_LOW_CLUBS_DIAMONDS, 3) == brute_tie(NO_LOW_CLUBS_DIAMONDS, 3)


def test_two_decks() -> None:
    assert len(DOUBLE) == 108
    assert p_trump(DOUBLE) == Fraction(32, 108)
    assert p_joker(DOUBLE) == Fraction(4, 108)
    assert p_ace_of_spades(DOUBLE) == Fraction(2, 108)
    assert p_no_numbered(DOUBLE, 5) == Fraction(comb(36, 5), comb(108, 5))
    assert p_order_tie(DOUBLE, 2) == Fraction(104, 108) * Fraction(7, 107)
    for n in (2, 3, 4, 5, 6):  # duplicated ranks make Order ties likelier
        assert p_order_tie(DOUBLE, n) > p_order_tie(STANDARD, n)


def test_low_clubs_and_diamonds_removed() -> None:
    deck = NO_LOW_CLUBS_DIAMONDS
    assert len(deck) == 36
    assert composition(deck) == {"Trump": 16, "Numbered": 18, "Joker": 2}
    assert colours_by_role(deck)["Numbered"] == {"red": 9, "black": 9, "none": 0}
    assert p_trump(deck) == Fraction(16, 36)
    assert p_no_numbered(deck, 5) == Fraction(comb(18, 5), comb(36, 5))
    assert numbered_values(deck) == {v: 2 for v in range(2, 11)}
    assert numbered_value_distribution(deck)[7] == Fraction(1, 9)


def test_all_distinct_dp_small_cases() -> None:
    deck = parse_cards("2H 2S 2D 3C")
    assert p_order_all_distinct(deck, 2) == Fraction(3, 6)
    assert p_order_all_distinct(deck, 3) == 0
    with pytest.raises(ValueError):
        p_order_all_distinct(deck, 5)
    with pytest.raises(ValueError):
        p_no_numbered(deck, 5)


def test_report_is_json_and_side_by_side() -> None:
    solo = report(STANDARD)
    assert set(solo) == {"deck"}
    assert solo["deck"]["p_trump"] == {"exact": "8/27", "float": pytest.approx(16 / 54)}
    json.dumps(solo)
    both = report(NO_LOW_CLUBS_DIAMONDS, base=STANDARD)
    assert set(both) == {"deck", "base", "delta"}
    json.dumps(both)
    assert both["deck"]["size"] == 36 and both["base"]["size"] == 54
    assert both["delta"]["size"] == -18
    assert both["delta"]["p_trump"] == pytest.approx(16 / 36 - 16 / 54)
    assert both["deck"]["p_no_numbered"]["5"]["exact"] == str(Fraction(comb(18, 5), comb(36, 5)))
    assert set(both["deck"]["p_order_tie"]) == {"2", "3", "4", "5", "6"}


def test_report_deck_without_numbered_cards() -> None:
    only_trumps = parse_cards("KS QH AD JC")
    r = report(only_trumps)["deck"]
    assert r["numbered_value_distribution"] == {} and r["mean_numbered_value"] is None
    assert r["p_no_numbered"]["4"]["exact"] == "1/1"
    assert "5" not in r["p_no_numbered"]
